/* diff_write.c - `tcreview diff` written: jsonl lines with fixed keys, or a table fitted to the terminal with the tasks that changed.
 *
 * Every text from the inputs (task texts, ids, paths) is made visible
 * before it reaches a terminal, and measured by display width. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "cli/diff_report.h"
#include "util/jsonw.h"
#include "util/strbuf.h"
#include "util/wtext.h"

/* ---- jsonl ---------------------------------------------------------------------- */

static void put_count(struct strbuf *sb, const char *key, const struct diff_count *c)
{
	strbuf_addf(sb, ",\"%s\":{\"runs\":%u,\"passed\":%u}", key, c->runs, c->passed);
}

static void put_pass_k(struct strbuf *sb, const char *key, const struct diff_summary *s, int side)
{
	strbuf_addf(sb, ",\"%s\":[", key);
	for (unsigned k = 0; k < s->k[side]; k++) {
		if (k)
			strbuf_addch(sb, ',');
		jsonw_number(sb, s->pass_k[side][k]);
	}
	strbuf_addch(sb, ']');
}

static void put_summary(struct strbuf *sb, const struct diff *d, size_t r)
{
	static const char *const keys[DIFF_NCHANGES] = {
		"fixed", "broke", "same_pass", "same_fail", "only_base", "only_cand",
	};
	struct diff_summary s;
	diff_summarize(d, r, &s);
	strbuf_addstr(sb, "{\"type\":\"summary\",\"scorer\":");
	jsonw_string(sb, d->rows[r].id, strlen(d->rows[r].id));
	strbuf_addf(sb, ",\"tasks\":%zu", s.both);
	for (int c = 0; c < DIFF_NCHANGES; c++)
		strbuf_addf(sb, ",\"%s\":%zu", keys[c], s.n[c]);
	jsonw_member_num(sb, "base_pass_rate", s.rated, s.rate[DIFF_BASE]);
	jsonw_member_num(sb, "cand_pass_rate", s.rated, s.rate[DIFF_CAND]);
	jsonw_member_num(sb, "mcnemar_p", true, s.p);
	put_pass_k(sb, "base_pass_k", &s, DIFF_BASE);
	put_pass_k(sb, "cand_pass_k", &s, DIFF_CAND);
	strbuf_addstr(sb, "}\n");
	diff_summary_free(&s);
}

void diff_write_jsonl(FILE *out, const struct diff *d)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < d->ntasks; i++) {
		const struct diff_task *t = d->tasks[i];
		for (size_t r = 0; r < d->nrows; r++) {
			enum diff_change ch = diff_change_of(t, r);
			if (!d->rows[r].shown || ch == DIFF_NONE)
				continue;
			sb.len = 0;
			strbuf_addstr(&sb, "{\"task\":");
			jsonw_string(&sb, t->text, strlen(t->text));
			strbuf_addstr(&sb, ",\"scorer\":");
			jsonw_string(&sb, d->rows[r].id, strlen(d->rows[r].id));
			put_count(&sb, "base", &t->counts[r * DIFF_SIDES + DIFF_BASE]);
			put_count(&sb, "cand", &t->counts[r * DIFF_SIDES + DIFF_CAND]);
			strbuf_addf(&sb, ",\"change\":\"%s\"}\n", diff_change_name(ch));
			fwrite(sb.buf, 1, sb.len, out);
		}
	}
	for (size_t r = 0; r < d->nrows; r++) {
		if (!d->rows[r].shown)
			continue;
		sb.len = 0;
		put_summary(&sb, d, r);
		fwrite(sb.buf, 1, sb.len, out);
	}
	strbuf_release(&sb);
}

/* ---- text ----------------------------------------------------------------------- */

#define SGR_RED "\033[31m"
#define SGR_GREEN "\033[32m"
#define SGR_OFF "\033[0m"

/* s made visible and cut to cols columns (0: whole, SIZE_MAX too), then
 * padded with spaces to pad columns. */
static void put_fitted(struct strbuf *sb, const char *s, size_t cols, size_t pad)
{
	size_t n, width;
	wchar_t *w = wtext_decode(s, strlen(s), 0, &n);
	if (cols)
		n = wtext_truncate(w, n, cols, true, &width);
	else
		width = wtext_width(w, n);
	for (size_t i = 0; i < n; i++) {
		char mb[MB_LEN_MAX];
		mbstate_t st = {0};
		size_t k = wcrtomb(mb, w[i], &st);
		strbuf_add(sb, k == (size_t)-1 ? "?" : mb, k == (size_t)-1 ? 1 : k);
	}
	free(w);
	for (; width < pad; width++)
		strbuf_addch(sb, ' ');
}

/* A count, right-aligned in w columns, coloured when it is not zero. */
static void put_count_cell(struct strbuf *sb, size_t v, int w, const char *sgr)
{
	if (sgr && v)
		strbuf_addf(sb, " %s%*zu%s", sgr, w, v, SGR_OFF);
	else
		strbuf_addf(sb, " %*zu", w, v);
}

static void put_p(struct strbuf *sb, double p)
{
	if (p >= 0.001)
		strbuf_addf(sb, "%.3f", p);
	else
		strbuf_addf(sb, "%.1e", p);
}

/* The columns after the id: counts, the pass rates, the change in
 * points, p and its mark; FIGS_WIDTH display columns. */
#define FIGS_WIDTH 58
#define FIGS_HEAD "%5s %5s %5s %4s %4s  %15s %6s %5s"

static void put_figures(struct strbuf *sb, const struct diff_summary *s, bool color)
{
	size_t same = s->n[DIFF_SAME_PASS] + s->n[DIFF_SAME_FAIL];
	size_t only = s->n[DIFF_ONLY_BASE] + s->n[DIFF_ONLY_CAND];
	strbuf_addf(sb, "%5zu", s->both);
	put_count_cell(sb, s->n[DIFF_FIXED], 5, color ? SGR_GREEN : NULL);
	put_count_cell(sb, s->n[DIFF_BROKE], 5, color ? SGR_RED : NULL);
	strbuf_addf(sb, " %4zu %4zu", same, only);
	if (s->rated) {
		double b = 100 * s->rate[DIFF_BASE], c = 100 * s->rate[DIFF_CAND];
		strbuf_addf(sb, "  %5.1f%% \xe2\x86\x92 %5.1f%% %+6.1f", b, c, c - b);
	} else {
		strbuf_addf(sb, "  %15s %6s", "-", "-");
	}
	if (s->p >= 0.001)
		strbuf_addf(sb, " %5.3f", s->p);
	else
		strbuf_addstr(sb, " <.001");
	strbuf_addstr(sb, s->p < DIFF_ALPHA ? "*" : "");
}

static void write_table(FILE *out, const struct diff *d, const struct diff_text_opts *o)
{
	size_t idw = strlen("scorer");
	for (size_t r = 0; r < d->nrows; r++)
		if (d->rows[r].shown && wtext_str_width(d->rows[r].id) > idw)
			idw = wtext_str_width(d->rows[r].id);
	size_t room = o->width > FIGS_WIDTH + 2 + 6 ? o->width - FIGS_WIDTH - 2 : 6;
	if (idw > room)
		idw = room;
	struct strbuf sb = STRBUF_INIT;
	put_fitted(&sb, "scorer", 0, idw);
	strbuf_addstr(&sb, "  ");
	strbuf_addf(&sb, FIGS_HEAD "\n", "tasks", "fixed", "broke", "same", "only", "pass rate",
	            "change", "p");
	for (size_t r = 0; r < d->nrows; r++) {
		if (!d->rows[r].shown)
			continue;
		struct diff_summary s;
		diff_summarize(d, r, &s);
		if (wtext_str_width(d->rows[r].id) > idw) {
			/* A long id keeps its line; its figures go under it. */
			put_fitted(&sb, d->rows[r].id, 0, 0);
			strbuf_addch(&sb, '\n');
			put_fitted(&sb, "", 0, idw);
		} else {
			put_fitted(&sb, d->rows[r].id, 0, idw);
		}
		strbuf_addstr(&sb, "  ");
		put_figures(&sb, &s, o->color);
		strbuf_addch(&sb, '\n');
		diff_summary_free(&s);
	}
	strbuf_addstr(&sb,
	              "\npass rate: the mean over the tasks on both sides of each task's share of\n"
	              "passing runs, before \xe2\x86\x92 after; change in points. p: McNemar's exact "
	              "test\non the tasks that broke against those fixed; * significant at 0.05.\n");
	fwrite(sb.buf, 1, sb.len, out);
	strbuf_release(&sb);
}

/* The tasks of one change under row r, one a line: "  broke  task 3  2/2 → 0/2". */
static void write_changed(struct strbuf *sb, const struct diff *d, size_t r, enum diff_change ch,
                          const struct diff_text_opts *o)
{
	const char *sgr = !o->color ? NULL : ch == DIFF_BROKE ? SGR_RED : SGR_GREEN;
	size_t tw = 0;
	for (size_t i = 0; i < d->ntasks; i++) {
		enum diff_change c = diff_change_of(d->tasks[i], r);
		if ((c == DIFF_BROKE || c == DIFF_FIXED) && wtext_str_width(d->tasks[i]->text) > tw)
			tw = wtext_str_width(d->tasks[i]->text);
	}
	size_t room = o->width > 40 ? o->width - 40 : 8;
	if (tw > room)
		tw = room;
	for (size_t i = 0; i < d->ntasks; i++) {
		const struct diff_task *t = d->tasks[i];
		if (diff_change_of(t, r) != ch)
			continue;
		const struct diff_count *b = &t->counts[r * DIFF_SIDES + DIFF_BASE];
		const struct diff_count *c = &t->counts[r * DIFF_SIDES + DIFF_CAND];
		strbuf_addf(sb, "  %s%s%s  task ", sgr ? sgr : "", diff_change_name(ch),
		            sgr ? SGR_OFF : "");
		bool counts = b->runs > 1 || c->runs > 1;
		put_fitted(sb, t->text, tw, counts ? tw : 0);
		if (counts)
			strbuf_addf(sb, "  %u/%u \xe2\x86\x92 %u/%u", b->passed, b->runs, c->passed, c->runs);
		strbuf_addch(sb, '\n');
	}
}

/* "  only in base (2): 7, 8" on one line, cut to the width. */
static void write_only(struct strbuf *sb, const struct diff *d, size_t r, enum diff_change ch,
                       size_t n, size_t width)
{
	if (!n)
		return;
	struct strbuf line = STRBUF_INIT;
	strbuf_addf(&line, "  only in %s (%zu): ", ch == DIFF_ONLY_BASE ? "base" : "cand", n);
	size_t listed = 0;
	for (size_t i = 0; i < d->ntasks; i++) {
		if (diff_change_of(d->tasks[i], r) != ch)
			continue;
		strbuf_addstr(&line, listed++ ? ", " : "");
		strbuf_addstr(&line, d->tasks[i]->text);
	}
	put_fitted(sb, line.buf, width, 0);
	strbuf_addch(sb, '\n');
	strbuf_release(&line);
}

/* pass^1.. of each side; past PASS_K_SHOWN values, the last one after "...". */
#define PASS_K_SHOWN 4
static void write_pass_k(struct strbuf *sb, const struct diff_summary *s)
{
	for (int side = 0; side < DIFF_SIDES; side++) {
		strbuf_addstr(sb, side == DIFF_BASE ? "  pass^k base" : "         cand");
		for (unsigned k = 0; k < s->k[side]; k++) {
			if (k >= PASS_K_SHOWN && k + 1 < s->k[side])
				continue;
			if (k >= PASS_K_SHOWN)
				strbuf_addstr(sb, " \xe2\x80\xa6");
			strbuf_addf(sb, " %u: %.3f", k + 1, s->pass_k[side][k]);
		}
		strbuf_addch(sb, '\n');
	}
}

/* A scorer's block: what changed, in words, and the tasks. */
static void write_block(FILE *out, const struct diff *d, size_t r, const struct diff_text_opts *o)
{
	struct diff_summary s;
	diff_summarize(d, r, &s);
	bool several = s.k[DIFF_BASE] > 1 || s.k[DIFF_CAND] > 1;
	size_t only = s.n[DIFF_ONLY_BASE] + s.n[DIFF_ONLY_CAND];
	if (!s.n[DIFF_BROKE] && !s.n[DIFF_FIXED] && !only && !several) {
		diff_summary_free(&s);
		return;
	}
	struct strbuf sb = STRBUF_INIT;
	strbuf_addch(&sb, '\n');
	put_fitted(&sb, d->rows[r].id, o->width, 0);
	strbuf_addf(&sb, ": %zu broke, %zu fixed of %zu task%s on both sides\n", s.n[DIFF_BROKE],
	            s.n[DIFF_FIXED], s.both, s.both == 1 ? "" : "s");
	if (s.rated) {
		double b = 100 * s.rate[DIFF_BASE], c = 100 * s.rate[DIFF_CAND];
		strbuf_addf(&sb, "  pass rate %.1f%% \xe2\x86\x92 %.1f%% (%+.1f points); p = ", b, c, c - b);
		put_p(&sb, s.p);
		strbuf_addstr(&sb, s.p < DIFF_ALPHA ? ", significant at 0.05\n"
		              : ", not significant at 0.05\n");
	}
	if (several)
		write_pass_k(&sb, &s);
	write_changed(&sb, d, r, DIFF_BROKE, o);
	write_changed(&sb, d, r, DIFF_FIXED, o);
	write_only(&sb, d, r, DIFF_ONLY_BASE, s.n[DIFF_ONLY_BASE], o->width);
	write_only(&sb, d, r, DIFF_ONLY_CAND, s.n[DIFF_ONLY_CAND], o->width);
	fwrite(sb.buf, 1, sb.len, out);
	strbuf_release(&sb);
	diff_summary_free(&s);
}

void diff_write_text(FILE *out, const struct diff *d, const struct diff_text_opts *o)
{
	struct strbuf sb = STRBUF_INIT;
	for (int side = 0; side < DIFF_SIDES; side++) {
		const struct diff_input *in = &d->in[side];
		strbuf_addstr(&sb, side == DIFF_BASE ? "base  " : "cand  ");
		struct strbuf line = STRBUF_INIT;
		strbuf_addf(&line, "%s: %zu run%s of %zu task%s", in->path, in->runs,
		            in->runs == 1 ? "" : "s", in->tasks, in->tasks == 1 ? "" : "s");
		put_fitted(&sb, line.buf, o->width > 6 ? o->width - 6 : 0, 0);
		strbuf_addch(&sb, '\n');
		strbuf_release(&line);
	}
	strbuf_addstr(&sb, "paired by ");
	put_fitted(&sb, d->task_spec, o->width > 10 ? o->width - 10 : 0, 0);
	strbuf_addstr(&sb, "\n\n");
	fwrite(sb.buf, 1, sb.len, out);
	strbuf_release(&sb);
	write_table(out, d, o);
	for (size_t r = 0; r < d->nrows; r++)
		if (d->rows[r].shown)
			write_block(out, d, r, o);
}
