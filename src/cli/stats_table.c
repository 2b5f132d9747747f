/* stats_table.c - `tcreview stats` as a table for a person: aligned figures per criterion, confusion heat-maps.
 *
 * Each criterion is a block: its scale and threshold, one aligned row per
 * pair (columns by what the scale has), the pass rate and its correction,
 * ties and stale labels, the notes, and a heat-map of each pair's
 * confusion matrix (shade by count, then the count). The judge
 * comparisons and the sweeps follow. Every text from the inputs (ids,
 * reviewers' names) is made visible before it reaches the terminal, and
 * columns are measured by display width. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/stats_report.h"
#include "review/session.h"
#include "util/strbuf.h"
#include "util/textvis.h"
#include "util/wtext.h"
#include "util/xalloc.h"

/* ---- cells -------------------------------------------------------------------- */

static char *visible(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	textvis_append(&sb, s ? s : "", s ? strlen(s) : 0, 0);
	return strbuf_detach(&sb);
}

/* A figure: "-" does not apply, "undef" undefined (the note says why). */
static void fig_text(char *buf, size_t n, const struct calib_fig *f, const struct calib_ci *ci)
{
	if (!f->ok) {
		snprintf(buf, n, "%s", f->why ? "undef" : "-");
		return;
	}
	if (ci && ci->ok && isfinite(ci->lo) && isfinite(ci->hi))
		snprintf(buf, n, "%.3f [%.3f, %.3f]", f->v, ci->lo, ci->hi);
	else
		snprintf(buf, n, "%.3f", f->v);
}

/* ---- an aligned table --------------------------------------------------------- */

#define MAXCOLS 16

struct tbl {
	size_t ncols;
	char **cells;               /* nrows x ncols, owned */
	size_t nrows, cap;
};

static void tbl_row(struct tbl *t, const char *const *cells)
{
	if (t->nrows == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 8;
		t->cells = xrealloc(t->cells, t->cap * t->ncols * sizeof *t->cells);
	}
	for (size_t c = 0; c < t->ncols; c++)
		t->cells[t->nrows * t->ncols + c] = visible(cells[c]);
	t->nrows++;
}

static void tbl_free(struct tbl *t)
{
	for (size_t i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	*t = (struct tbl){ .ncols = t->ncols };
}

/* The widest line a table makes (a terminal of 100 columns shows it
 * whole), unless its names are longer than that leaves them. */
#define TABLE_WIDTH 100

/* The figures of row r from column `from`, right-aligned. */
static void tbl_figures(FILE *out, const struct tbl *t, const size_t *w, size_t r, size_t from)
{
	for (size_t c = from; c < t->ncols; c++) {
		const char *s = t->cells[r * t->ncols + c];
		fprintf(out, "  %*s%s", (int)(w[c] - wtext_str_width(s)), "", s);
	}
	fputc('\n', out);
}

/* The first column left-aligned, the figures right-aligned. When the
 * names make the table wider than TABLE_WIDTH, each name goes on a line
 * of its own, its figures under it. */
static void tbl_print(FILE *out, struct tbl *t, const char *indent)
{
	size_t w[MAXCOLS] = { 0 };
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t c = 0; c < t->ncols; c++) {
			size_t d = wtext_str_width(t->cells[r * t->ncols + c]);
			if (d > w[c])
				w[c] = d;
		}
	size_t total = strlen(indent) + 2 * (t->ncols - 1);
	for (size_t c = 0; c < t->ncols; c++)
		total += w[c];
	bool stacked = total > TABLE_WIDTH && t->ncols > 1;
	for (size_t r = 0; r < t->nrows; r++) {
		const char *name = t->cells[r * t->ncols];
		fputs(indent, out);
		if (stacked) {
			if (r > 0)
				fprintf(out, "%s\n%s", name, indent);
			tbl_figures(out, t, w, r, 1);
			continue;
		}
		fprintf(out, "%s%*s", name, t->ncols > 1 ? (int)(w[0] - wtext_str_width(name)) : 0, "");
		tbl_figures(out, t, w, r, 1);
	}
	tbl_free(t);
}

/* A table with rows under its heading is printed, one with the heading
 * alone is dropped. Either way its cells are freed. */
static void tbl_print_rows(FILE *out, struct tbl *t, const char *indent)
{
	if (t->nrows > 1)
		tbl_print(out, t, indent);
	else
		tbl_free(t);
}

/* ---- a criterion's block -------------------------------------------------------- */

enum col {
	COL_PAIR, COL_N, COL_AGREE, COL_KAPPA, COL_KQ, COL_ALPHA, COL_RHO, COL_MAE, COL_W1,
	COL_TPR, COL_TNR, COL_PREC, COL_COUNT,
};

static const char *const col_names[COL_COUNT] = {
	"pair", "n", "agreement", "kappa", "kappa_q", "alpha", "rho", "mae", "within1",
	"tpr", "tnr", "precision",
};

/* The columns of the agreement table a scale has (pass/fail has no ranks
 * or distances); the pass/fail figures at the threshold are a table of
 * their own, so that each fits TABLE_WIDTH. */
static size_t cols_of(const struct scale *s, bool passfail, enum col *out)
{
	bool binary = s->kind == SCALE_BINARY;
	bool ordinal = scale_ordinal(s);
	size_t n = 0;
	out[n++] = COL_PAIR;
	out[n++] = COL_N;
	for (int c = passfail ? COL_TPR : COL_AGREE; c < (passfail ? COL_COUNT : COL_TPR); c++) {
		if (binary && (c == COL_KQ || c == COL_RHO || c == COL_MAE))
			continue;
		if (!ordinal && c == COL_W1)
			continue;
		out[n++] = (enum col)c;
	}
	return n;
}

static void pair_cell(char *buf, size_t n, const struct calib_pair *p, enum col c)
{
	switch (c) {
	case COL_PAIR:
		if (p->kind == CALIB_REVIEWERS)
			snprintf(buf, n, "all reviewers (alpha)");
		else
			snprintf(buf, n, "%s ~ %s", p->a, p->b);
		return;
	case COL_N: snprintf(buf, n, "%zu", p->n); return;
	case COL_AGREE: fig_text(buf, n, &p->agreement, NULL); return;
	case COL_KAPPA: fig_text(buf, n, &p->kappa, NULL); return;
	case COL_KQ: fig_text(buf, n, &p->kappa_quadratic, NULL); return;
	case COL_ALPHA: fig_text(buf, n, &p->alpha, NULL); return;
	case COL_RHO: fig_text(buf, n, &p->spearman, NULL); return;
	case COL_MAE: fig_text(buf, n, &p->mae, NULL); return;
	case COL_W1: fig_text(buf, n, &p->within_one, NULL); return;
	case COL_TPR: fig_text(buf, n, &p->tpr, NULL); return;
	case COL_TNR: fig_text(buf, n, &p->tnr, NULL); return;
	case COL_PREC: fig_text(buf, n, &p->precision, NULL); return;
	case COL_COUNT: break;
	}
	buf[0] = '\0';
}

/* Shades from light to full by a count's share of the largest count. */
static const char *shade(size_t count, size_t max)
{
	static const char *const shades[] = { "  ", "\u2591\u2591", "\u2592\u2592", "\u2593\u2593",
	                                      "\u2588\u2588" };
	if (count == 0 || max == 0)
		return shades[0];
	size_t level = 1 + (size_t)(3.999 * (double)count / (double)max);
	return shades[level > 4 ? 4 : level];
}

static void heat_map(FILE *out, const struct calib_pair *p)
{
	size_t max = 0, cw = 1;
	for (size_t i = 0; i < p->ncats * p->ncats; i++) {
		char num[32];
		if (p->counts[i] > max)
			max = p->counts[i];
		size_t d = (size_t)snprintf(num, sizeof num, "%zu", p->counts[i]);
		if (d > cw)
			cw = d;
	}
	char *a = visible(p->a), *b = visible(p->b);
	fprintf(out, "  confusion: %s (rows) ~ %s (columns)\n", a, b);
	free(a);
	free(b);
	size_t cell = cw + 3 > 4 ? cw + 3 : 4;      /* the shade, a space, the count */
	int lw = 4;                                 /* "absent", "present": wider than "fail" */
	for (size_t c = 0; c < p->ncats; c++) {
		size_t n = strlen(p->cat_names[c]);
		lw = (int)n > lw ? (int)n : lw;
		cell = n > cell ? n : cell;
	}
	fprintf(out, "    %*s", lw, "");
	for (size_t c = 0; c < p->ncats; c++)
		fprintf(out, "  %*s", (int)cell, p->cat_names[c]);
	fputc('\n', out);
	for (size_t r = 0; r < p->ncats; r++) {
		fprintf(out, "    %*s", lw, p->cat_names[r]);
		for (size_t c = 0; c < p->ncats; c++) {
			size_t k = p->counts[r * p->ncats + c];
			fprintf(out, "  %s %*zu", shade(k, max), (int)(cell - 3), k);
		}
		fputc('\n', out);
	}
}

/* A sentence (already visible) from "  ", its next lines from "    ",
 * broken at spaces so that each line fits TABLE_WIDTH where its words do. */
static void prose(FILE *out, const char *text)
{
	size_t col = 2;
	fputs("  ", out);
	const char *p = text;
	while (*p) {
		const char *sp = strchr(p, ' ');
		size_t len = sp ? (size_t)(sp - p) : strlen(p);
		char *word = xstrndup(p, len);
		size_t w = wtext_str_width(word);
		if (col > 2 && col + 1 + w > TABLE_WIDTH) {
			fputs("\n    ", out);
			col = 4;
		} else if (p != text) {
			fputc(' ', out);
			col++;
		}
		fputs(word, out);
		col += w;
		free(word);
		p += len;
		while (*p == ' ')
			p++;
	}
	fputc('\n', out);
}

static void pass_rate_lines(FILE *out, const struct calib_pair *p)
{
	char rate[64], corr[96];
	fig_text(rate, sizeof rate, &p->pass_rate, NULL);
	fig_text(corr, sizeof corr, &p->pass_rate_corrected, &p->pass_rate_corrected_ci);
	char *a = visible(p->a);
	struct strbuf sb = STRBUF_INIT;
	/* A failure mode's rate is of runs said to show it; a call criterion's of calls. */
	strbuf_addf(&sb, "%s of %s: %s over %zu %s%s with a verdict",
	            p->tag ? "rate of present" : p->calls ? "rate of right calls" : "pass rate", a, rate,
	            p->rated, p->calls ? "labelled call" : "run", p->rated == 1 ? "" : "s");
	prose(out, sb.buf);
	strbuf_release(&sb);
	fprintf(out, "  corrected by the humans' verdicts (Rogan-Gladen%s): %s\n",
	        p->weighted ? ", weighted" : "", corr);
	free(a);
}

/* A sampled queue's labels weigh 1/pi; and how many more labels bring the
 * agreement's Wilson interval under the target width (review/calib.h). */
static void togo_lines(FILE *out, const struct calib_pair *p)
{
	if (p->weighted)
		fprintf(out, "  weighted: agreement, TPR, TNR and the corrected rate by 1/pi of the "
		        "queue's sample (Hajek); effective n %.1f of %zu\n", p->n_eff, p->n);
	if (!p->labels_to_go_ok)
		return;
	char ci[96] = "";
	if (p->agreement_wilson.ok)
		snprintf(ci, sizeof ci, " (agreement's Wilson 95%% interval %.3f-%.3f)",
		         p->agreement_wilson.lo, p->agreement_wilson.hi);
	if (p->labels_to_go)
		fprintf(out, "  labels to go: \xe2\x89\x88 %zu more for \xc2\xb1%.3g%s\n", p->labels_to_go,
		        p->target_width / 2, ci);
	else
		fprintf(out, "  labels to go: none, under \xc2\xb1%.3g%s\n", p->target_width / 2, ci);
}

static void notes(FILE *out, const struct calib_pair *first, size_t n, const bool *shown)
{
	for (size_t i = 0; i < n; i++) {
		const struct calib_pair *p = &first[i];
		if (!p->note || !shown[i])
			continue;
		char *name = visible(p->kind == CALIB_REVIEWERS ? "all reviewers" : p->a);
		char *b = visible(p->kind == CALIB_REVIEWERS ? "" : p->b);
		char *note = visible(p->note);
		struct strbuf sb = STRBUF_INIT;
		strbuf_addf(&sb, "note: %s%s%s: %s", name, b[0] ? " ~ " : "", b, note);
		prose(out, sb.buf);
		strbuf_release(&sb);
		free(name);
		free(b);
		free(note);
	}
}

/* Whether pair i of a block is shown. With one reviewer the consensus is
 * that reviewer's labels, so its row would repeat the one that names the
 * reviewer: only that one is shown (the consensus row stays when it is
 * the only machine row, having no labels). */
static bool pair_shown(const struct calib_pair *first, size_t n, size_t i, size_t nreviewers)
{
	const struct calib_pair *p = &first[i];
	if (nreviewers > 1 || p->kind != CALIB_MACHINE_HUMAN || strcmp(p->b, "human") != 0)
		return true;
	for (size_t k = 0; k < n; k++)
		if (first[k].kind == CALIB_MACHINE_HUMAN && !strncmp(first[k].b, "human:", 6))
			return false;
	return true;
}

/* One table of the block's shown pairs; passfail: the machine rows'
 * TPR, TNR and precision. */
static void pairs_table(FILE *out, const struct calib_pair *first, size_t n, const bool *shown,
                        bool passfail)
{
	enum col cols[COL_COUNT];
	size_t ncols = cols_of(&first->span, passfail, cols);
	struct tbl t = { .ncols = ncols };
	const char *cells[MAXCOLS];
	for (size_t c = 0; c < ncols; c++)
		cells[c] = col_names[cols[c]];
	if (passfail)
		cells[0] = "pass/fail at the threshold";
	tbl_row(&t, cells);
	char buf[MAXCOLS][400];
	for (size_t i = 0; i < n; i++) {
		if (!shown[i] || (passfail && first[i].kind != CALIB_MACHINE_HUMAN))
			continue;
		for (size_t c = 0; c < ncols; c++) {
			pair_cell(buf[c], sizeof buf[c], &first[i], cols[c]);
			cells[c] = buf[c];
		}
		tbl_row(&t, cells);
	}
	tbl_print_rows(out, &t, "  ");
}

static void ci_text(char *buf, size_t n, const struct calib_ci *ci)
{
	if (ci->ok)
		snprintf(buf, n, "[%.3f, %.3f]", ci->lo, ci->hi);
	else
		snprintf(buf, n, "-");
}

/* The bootstrap intervals of the shown pairs that have them. */
static void intervals_table(FILE *out, const struct calib_pair *first, size_t n, const bool *shown)
{
	struct tbl t = { .ncols = 3 };
	const char *head[] = { "95% bootstrap intervals", "agreement", "kappa" };
	tbl_row(&t, head);
	for (size_t i = 0; i < n; i++) {
		const struct calib_pair *p = &first[i];
		if (!shown[i] || (!p->agreement_ci.ok && !p->kappa_ci.ok))
			continue;
		char name[400], a[64], k[64];
		pair_cell(name, sizeof name, p, COL_PAIR);
		ci_text(a, sizeof a, &p->agreement_ci);
		ci_text(k, sizeof k, &p->kappa_ci);
		const char *row[] = { name, a, k };
		tbl_row(&t, row);
	}
	tbl_print_rows(out, &t, "  ");
}

/* The pairs first .. first + n share a criterion. */
static void criterion_block(FILE *out, const struct calib_pair *first, size_t n, size_t nreviewers)
{
	char scale[96];
	scale_describe_pass(&first->span, first->threshold, scale, sizeof scale);
	if (first->calls)
		snprintf(scale, sizeof scale, "each labelled call, right or wrong; the scorer's call "
		         "marks against the reviewers' call labels");
	if (first->tag)
		snprintf(scale, sizeof scale, "failure mode present or absent; the verdict says present "
		         "when it %s", first->present_pass ? "passes" : "fails");
	char *id = visible(first->criterion);
	fprintf(out, "%s  (%s)\n", id, scale);
	free(id);
	bool *shown = xcalloc(n + 1, sizeof *shown);
	for (size_t i = 0; i < n; i++)
		shown[i] = pair_shown(first, n, i, nreviewers);
	pairs_table(out, first, n, shown, false);
	pairs_table(out, first, n, shown, true);
	intervals_table(out, first, n, shown);
	if (first->kind == CALIB_MACHINE_HUMAN && !strcmp(first->b, "human")) {
		pass_rate_lines(out, first);
		togo_lines(out, first);
		fprintf(out, "  ties of the consensus left out: %zu; stale labels: %zu\n", first->ties,
		        first->stale);
	}
	notes(out, first, n, shown);
	for (size_t i = 0; i < n; i++)
		if (shown[i] && first[i].ncats && first[i].n)
			heat_map(out, &first[i]);
	free(shown);
	fputc('\n', out);
}

/* ---- comparisons and sweeps ---------------------------------------------------- */

static void compare_block(FILE *out, const struct calib_compare *cm, struct review *rv)
{
	char *a = visible(cm->criterion_a), *b = visible(cm->criterion_b);
	char ka[64], kb[64], kd[96];
	fig_text(ka, sizeof ka, &cm->kappa_a, NULL);
	fig_text(kb, sizeof kb, &cm->kappa_b, NULL);
	fig_text(kd, sizeof kd, &cm->kappa_diff, &cm->kappa_diff_ci);
	fprintf(out, "judges compared: %s ~ %s on %zu labelled run%s both answered\n", a, b, cm->n,
	        cm->n == 1 ? "" : "s");
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "kappa against the humans: %s %s, %s %s; difference %s", a, ka, b, kb, kd);
	prose(out, sb.buf);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "McNemar's exact test: p = %.4g (%s alone agrees on %zu, %s alone on %zu, "
	            "neither on %zu)", cm->mcnemar_p, a, cm->only_a, b, cm->only_b, cm->none_agrees);
	prose(out, sb.buf);
	strbuf_release(&sb);
	for (size_t i = 0; i < cm->n_one_agrees; i++) {
		size_t e = cm->one_agrees[i];
		char *id = visible(rv->entries[e].id ? rv->entries[e].id : "?");
		char *src = visible(rv->entries[e].source);
		fprintf(out, "    %s (%s): only %s agrees\n", id, src, i < cm->only_a ? a : b);
		free(id);
		free(src);
	}
	if (cm->note) {
		char *note = visible(cm->note);
		fprintf(out, "  note: %s\n", note);
		free(note);
	}
	fputc('\n', out);
	free(a);
	free(b);
}

static void sweep_block(FILE *out, const struct calib_sweep *sw)
{
	char scale[96];
	scale_describe_pass(&sw->span, sw->threshold, scale, sizeof scale);
	char *id = visible(sw->criterion);
	fprintf(out, "sweep: %s  (%s as configured)\n", id, scale);
	free(id);
	struct tbl t = { .ncols = 5 };
	const char *head[] = { "threshold", "n", "kappa", "tpr", "tnr" };
	tbl_row(&t, head);
	for (size_t i = 0; i < sw->npoints; i++) {
		const struct calib_sweep_point *pt = &sw->points[i];
		char th[64], n[32], k[32], tp[32], tn[32];
		snprintf(th, sizeof th, "%s%g%s", i == sw->best ? "* " : "", pt->threshold,
		         pt->threshold == sw->threshold ? " (configured)" : "");
		snprintf(n, sizeof n, "%zu", pt->n);
		fig_text(k, sizeof k, &pt->kappa, NULL);
		fig_text(tp, sizeof tp, &pt->tpr, NULL);
		fig_text(tn, sizeof tn, &pt->tnr, NULL);
		const char *row[] = { th, n, k, tp, tn };
		tbl_row(&t, row);
	}
	tbl_print(out, &t, "  ");
	if (sw->best < sw->npoints)
		fprintf(out, "  * the threshold with the best kappa against the humans' pass/fail\n");
	if (sw->note)
		fprintf(out, "  note: %s\n", sw->note);
	fputc('\n', out);
}

void stats_write_table(FILE *out, const struct calib *c, struct review *rv,
                       const struct stats_meta *m)
{
	fprintf(out, "%zu run%s, %zu labelled by %zu reviewer%s; %zu stale label%s %s\n\n",
	        m->runs, m->runs == 1 ? "" : "s", c->labelled_runs, c->nreviewers,
	        c->nreviewers == 1 ? "" : "s", c->stale_total, c->stale_total == 1 ? "" : "s",
	        m->include_stale ? "counted (--include-stale)" : "left out");
	if (m->no_labels)
		fprintf(out, "%s\n\n", m->no_labels);
	for (size_t i = 0; i < c->npairs;) {
		size_t k = i + 1;
		/* A failure mode two rows declare is one block per row. */
		while (k < c->npairs && !strcmp(c->pairs[k].criterion, c->pairs[i].criterion) &&
		       !strcmp(c->pairs[k].row, c->pairs[i].row))
			k++;
		criterion_block(out, &c->pairs[i], k - i, c->nreviewers);
		i = k;
	}
	for (size_t i = 0; i < c->ncompares; i++)
		compare_block(out, &c->compares[i], rv);
	for (size_t i = 0; i < c->nsweeps; i++)
		sweep_block(out, &c->sweeps[i]);
}
