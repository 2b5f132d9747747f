/* stats_lines.c - `tcreview stats` as JSONL and CSV lines, and the choice of writer.
 *
 * A JSONL line per pair with the fixed keys in their order (null
 * where a figure does not apply or is undefined), then one per judge
 * comparison and per sweep threshold with their own kind. CSV holds the
 * pairs: one header row, the same fields, intervals as _lo/_hi columns
 * and the confusion matrix flattened. Numbers are written as JavaScript
 * writes them; nothing non-finite ever reaches a line. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/stats_report.h"
#include "review/session.h"
#include "util/jsonw.h"
#include "util/strbuf.h"

const char *const stats_formats = "table, jsonl, csv";

/* ---- a JSON object, key by key ---------------------------------------------------- */

struct jo {
	struct strbuf *sb;
	bool first;
};

static void jo_key(struct jo *j, const char *k)
{
	strbuf_addch(j->sb, j->first ? '{' : ',');
	j->first = false;
	jsonw_string(j->sb, k, strlen(k));
	strbuf_addch(j->sb, ':');
}

static void jo_str(struct jo *j, const char *k, const char *v)
{
	jo_key(j, k);
	if (v)
		jsonw_string(j->sb, v, strlen(v));
	else
		strbuf_addstr(j->sb, "null");
}

static void jo_size(struct jo *j, const char *k, size_t v)
{
	jo_key(j, k);
	strbuf_addf(j->sb, "%zu", v);
}

static void num(struct strbuf *sb, bool ok, double v)
{
	if (ok && isfinite(v))
		jsonw_number(sb, v);
	else
		strbuf_addstr(sb, "null");
}

static void jo_num(struct jo *j, const char *k, bool ok, double v)
{
	jo_key(j, k);
	num(j->sb, ok, v);
}

static void jo_fig(struct jo *j, const char *k, const struct calib_fig *f)
{
	jo_num(j, k, f->ok, f->v);
}

static void jo_ci(struct jo *j, const char *k, const struct calib_ci *ci)
{
	jo_key(j, k);
	if (!ci->ok || !isfinite(ci->lo) || !isfinite(ci->hi)) {
		strbuf_addstr(j->sb, "null");
		return;
	}
	strbuf_addch(j->sb, '[');
	jsonw_number(j->sb, ci->lo);
	strbuf_addch(j->sb, ',');
	jsonw_number(j->sb, ci->hi);
	strbuf_addch(j->sb, ']');
}

static void jo_bool(struct jo *j, const char *k, bool v)
{
	jo_key(j, k);
	strbuf_addstr(j->sb, v ? "true" : "false");
}

static void jo_end(struct jo *j, FILE *out)
{
	strbuf_addch(j->sb, '}');
	fprintf(out, "%s\n", j->sb->buf);
	strbuf_reset(j->sb);
	j->first = true;
}

/* ---- JSONL ---------------------------------------------------------------------- */

static void confusion_json(struct jo *j, const struct calib_pair *p)
{
	jo_key(j, "confusion");
	if (p->ncats == 0) {
		strbuf_addstr(j->sb, "null");
		return;
	}
	strbuf_addstr(j->sb, "{\"labels\":[");
	for (size_t i = 0; i < p->ncats; i++) {
		if (i)
			strbuf_addch(j->sb, ',');
		jsonw_string(j->sb, p->cat_names[i], strlen(p->cat_names[i]));
	}
	strbuf_addstr(j->sb, "],\"counts\":[");
	for (size_t r = 0; r < p->ncats; r++) {
		strbuf_addstr(j->sb, r ? ",[" : "[");
		for (size_t c = 0; c < p->ncats; c++)
			strbuf_addf(j->sb, "%s%zu", c ? "," : "", p->counts[r * p->ncats + c]);
		strbuf_addch(j->sb, ']');
	}
	strbuf_addstr(j->sb, "]}");
}

static void pair_jsonl(FILE *out, struct jo *j, const struct calib_pair *p)
{
	char scale[64];
	scale_label(&p->span, scale, sizeof scale);
	jo_str(j, "criterion", p->criterion);
	jo_str(j, "kind", calib_kind_name(p->kind));
	jo_str(j, "scale", scale);
	jo_str(j, "a", p->a);
	jo_str(j, "b", p->kind == CALIB_REVIEWERS ? NULL : p->b);
	jo_size(j, "n", p->n);
	jo_size(j, "ties", p->ties);
	jo_size(j, "stale", p->stale);
	jo_fig(j, "agreement", &p->agreement);
	jo_ci(j, "agreement_ci", &p->agreement_ci);
	jo_fig(j, "kappa", &p->kappa);
	jo_ci(j, "kappa_ci", &p->kappa_ci);
	jo_fig(j, "kappa_quadratic", &p->kappa_quadratic);
	jo_fig(j, "alpha", &p->alpha);
	jo_fig(j, "spearman", &p->spearman);
	jo_fig(j, "mae", &p->mae);
	jo_fig(j, "within_one", &p->within_one);
	jo_fig(j, "tpr", &p->tpr);
	jo_fig(j, "tnr", &p->tnr);
	jo_fig(j, "precision", &p->precision);
	jo_fig(j, "pass_rate", &p->pass_rate);
	jo_fig(j, "pass_rate_corrected", &p->pass_rate_corrected);
	jo_ci(j, "pass_rate_corrected_ci", &p->pass_rate_corrected_ci);
	confusion_json(j, p);
	jo_str(j, "note", p->note);
	/* review/calib.h: weights from a sampled queue; labels to go */
	jo_bool(j, "weighted", p->weighted);
	jo_num(j, "n_eff", p->labels_to_go_ok || p->n, p->n_eff);
	jo_ci(j, "agreement_wilson_ci", &p->agreement_wilson);
	jo_num(j, "labels_to_go", p->labels_to_go_ok && p->labels_to_go, (double)p->labels_to_go);
	jo_num(j, "target_width", p->target_width > 0, p->target_width);
	jo_end(j, out);
}

static const char *entry_id(struct review *rv, size_t e)
{
	return e < rv->nentries && rv->entries[e].id ? rv->entries[e].id : "?";
}

static void compare_jsonl(FILE *out, struct jo *j, const struct calib_compare *cm, struct review *rv)
{
	char a[160], b[160];
	snprintf(a, sizeof a, "judge:%s", cm->criterion_a);
	snprintf(b, sizeof b, "judge:%s", cm->criterion_b);
	jo_str(j, "criterion", NULL);
	jo_str(j, "kind", "judge-compare");
	jo_str(j, "a", a);
	jo_str(j, "b", b);
	jo_size(j, "n", cm->n);
	jo_fig(j, "kappa_a", &cm->kappa_a);
	jo_fig(j, "kappa_b", &cm->kappa_b);
	jo_fig(j, "kappa_diff", &cm->kappa_diff);
	jo_ci(j, "kappa_diff_ci", &cm->kappa_diff_ci);
	jo_size(j, "only_a", cm->only_a);
	jo_size(j, "only_b", cm->only_b);
	jo_size(j, "none_agrees", cm->none_agrees);
	jo_num(j, "mcnemar_p", true, cm->mcnemar_p);
	jo_key(j, "one_agrees");
	strbuf_addch(j->sb, '[');
	for (size_t i = 0; i < cm->n_one_agrees; i++) {
		const char *id = entry_id(rv, cm->one_agrees[i]);
		const char *src = rv->entries[cm->one_agrees[i]].source;
		strbuf_addstr(j->sb, i ? ",{\"run\":" : "{\"run\":");
		jsonw_string(j->sb, id, strlen(id));
		strbuf_addstr(j->sb, ",\"source\":");
		jsonw_string(j->sb, src, strlen(src));
		strbuf_addstr(j->sb, ",\"agrees\":");
		const char *who = i < cm->only_a ? a : b;
		jsonw_string(j->sb, who, strlen(who));
		strbuf_addch(j->sb, '}');
	}
	strbuf_addch(j->sb, ']');
	jo_str(j, "note", cm->note);
	jo_end(j, out);
}

static void sweep_jsonl(FILE *out, struct jo *j, const struct calib_sweep *sw)
{
	char scale[64];
	scale_label(&sw->span, scale, sizeof scale);
	for (size_t i = 0; i < sw->npoints || (i == 0 && sw->npoints == 0); i++) {
		const struct calib_sweep_point *pt = sw->npoints ? &sw->points[i] : NULL;
		jo_str(j, "criterion", sw->criterion);
		jo_str(j, "kind", "sweep");
		jo_str(j, "scale", scale);
		jo_num(j, "threshold", pt != NULL, pt ? pt->threshold : 0);
		jo_bool(j, "configured", pt && pt->threshold == sw->threshold);
		jo_size(j, "n", pt ? pt->n : 0);
		jo_num(j, "kappa", pt && pt->kappa.ok, pt ? pt->kappa.v : 0);
		jo_num(j, "tpr", pt && pt->tpr.ok, pt ? pt->tpr.v : 0);
		jo_num(j, "tnr", pt && pt->tnr.ok, pt ? pt->tnr.v : 0);
		jo_bool(j, "best", pt && i == sw->best);
		jo_str(j, "note", sw->note);
		jo_end(j, out);
	}
}

static void write_jsonl(FILE *out, const struct calib *c, struct review *rv)
{
	struct strbuf sb = STRBUF_INIT;
	struct jo j = { .sb = &sb, .first = true };
	for (size_t i = 0; i < c->npairs; i++)
		pair_jsonl(out, &j, &c->pairs[i]);
	for (size_t i = 0; i < c->ncompares; i++)
		compare_jsonl(out, &j, &c->compares[i], rv);
	for (size_t i = 0; i < c->nsweeps; i++)
		sweep_jsonl(out, &j, &c->sweeps[i]);
	strbuf_release(&sb);
}

/* ---- CSV ------------------------------------------------------------------------- */

static const char csv_header[] =
	"criterion,kind,scale,a,b,n,ties,stale,agreement,agreement_ci_lo,agreement_ci_hi,"
	"kappa,kappa_ci_lo,kappa_ci_hi,kappa_quadratic,alpha,spearman,mae,within_one,tpr,tnr,precision,"
	"pass_rate,pass_rate_corrected,pass_rate_corrected_ci_lo,pass_rate_corrected_ci_hi,"
	"confusion_labels,confusion_counts,note";

/* RFC 4180: a field with a comma, a quote or a line break is quoted. */
static void csv_str(struct strbuf *sb, const char *s)
{
	if (sb->len)
		strbuf_addch(sb, ',');
	if (!s)
		return;
	if (!strpbrk(s, ",\"\r\n")) {
		strbuf_addstr(sb, s);
		return;
	}
	strbuf_addch(sb, '"');
	for (const char *p = s; *p; p++) {
		if (*p == '"')
			strbuf_addch(sb, '"');
		strbuf_addch(sb, *p);
	}
	strbuf_addch(sb, '"');
}

static void csv_num(struct strbuf *sb, bool ok, double v)
{
	if (sb->len)
		strbuf_addch(sb, ',');
	if (ok && isfinite(v))
		jsonw_number(sb, v);
}

static void csv_size(struct strbuf *sb, size_t v)
{
	strbuf_addf(sb, "%s%zu", sb->len ? "," : "", v);
}

static void csv_fig(struct strbuf *sb, const struct calib_fig *f)
{
	csv_num(sb, f->ok, f->v);
}

static void csv_ci(struct strbuf *sb, const struct calib_ci *ci)
{
	csv_num(sb, ci->ok, ci->lo);
	csv_num(sb, ci->ok, ci->hi);
}

/* Labels "fail;pass", counts row by row (rows a): "3;1;0;4". */
static void csv_confusion(struct strbuf *sb, const struct calib_pair *p)
{
	struct strbuf l = STRBUF_INIT, k = STRBUF_INIT;
	for (size_t i = 0; i < p->ncats; i++)
		strbuf_addf(&l, "%s%s", i ? ";" : "", p->cat_names[i]);
	for (size_t i = 0; i < p->ncats * p->ncats; i++)
		strbuf_addf(&k, "%s%zu", i ? ";" : "", p->counts[i]);
	csv_str(sb, p->ncats ? l.buf : NULL);
	csv_str(sb, p->ncats ? k.buf : NULL);
	strbuf_release(&l);
	strbuf_release(&k);
}

static void pair_csv(FILE *out, struct strbuf *sb, const struct calib_pair *p)
{
	char scale[64];
	scale_label(&p->span, scale, sizeof scale);
	strbuf_reset(sb);
	csv_str(sb, p->criterion);
	csv_str(sb, calib_kind_name(p->kind));
	csv_str(sb, scale);
	csv_str(sb, p->a);
	csv_str(sb, p->kind == CALIB_REVIEWERS ? NULL : p->b);
	csv_size(sb, p->n);
	csv_size(sb, p->ties);
	csv_size(sb, p->stale);
	csv_fig(sb, &p->agreement);
	csv_ci(sb, &p->agreement_ci);
	csv_fig(sb, &p->kappa);
	csv_ci(sb, &p->kappa_ci);
	const struct calib_fig *rest[] = {
		&p->kappa_quadratic, &p->alpha, &p->spearman, &p->mae, &p->within_one, &p->tpr, &p->tnr,
		&p->precision, &p->pass_rate, &p->pass_rate_corrected,
	};
	for (size_t i = 0; i < sizeof rest / sizeof *rest; i++)
		csv_fig(sb, rest[i]);
	csv_ci(sb, &p->pass_rate_corrected_ci);
	csv_confusion(sb, p);
	csv_str(sb, p->note);
	fprintf(out, "%s\r\n", sb->buf);
}

static void write_csv(FILE *out, const struct calib *c)
{
	struct strbuf sb = STRBUF_INIT;
	fprintf(out, "%s\r\n", csv_header);
	for (size_t i = 0; i < c->npairs; i++)
		pair_csv(out, &sb, &c->pairs[i]);
	strbuf_release(&sb);
}

/* ---- the choice ------------------------------------------------------------------- */

bool stats_format_known(const char *format)
{
	return !strcmp(format, "table") || !strcmp(format, "jsonl") || !strcmp(format, "csv");
}

int stats_write(FILE *out, const char *format, const struct calib *c, struct review *rv,
                const struct stats_meta *m)
{
	if (!strcmp(format, "table")) {
		stats_write_table(out, c, rv, m);
		stats_failmodes_table(out, m->failmodes);
		stats_prefs_table(out, m->prefs);
	} else if (!strcmp(format, "jsonl")) {
		write_jsonl(out, c, rv);
		stats_failmodes_jsonl(out, m->failmodes);
		stats_prefs_jsonl(out, m->prefs);
	}
	else if (!strcmp(format, "csv"))
		write_csv(out, c);
	else
		return -1;
	return 0;
}
