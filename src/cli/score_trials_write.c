/* score_trials_write.c - pass^k and pass@k as score writes them: jsonl lines, or a table with a bar per k. */
#include "cli/score_trials.h"

#include <langinfo.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "util/jsonw.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define TABLE_COLUMNS 80        /* the width when the output is no terminal */
#define BAR_MIN 8
#define BAR_MAX 40
#define TABLE_ALL_K 10          /* past it the table shows powers of 2 and the last k */

void score_trials_untasked_note(FILE *err, const struct score_trials *t)
{
	size_t n = score_trials_untasked(t);
	if (n)
		fprintf(err, "tcreview score: %zu run%s no %s: left out of pass^k\n", n,
		        n == 1 ? " has" : "s have", score_trials_spec(t));
}

static void left_out_note(FILE *f, const char *lead, const char *scorer, size_t n)
{
	if (n)
		fprintf(f, "%s%s: %zu verdict%s skipped or in error: left out of pass^k\n", lead,
		        scorer, n, n == 1 ? "" : "s");
}

/* ---- jsonl ------------------------------------------------------------------ */

static void passk_line(struct strbuf *sb, const char *type, const char *scorer, unsigned k,
                       double value, size_t tasks)
{
	strbuf_addstr(sb, "{\"type\":");
	jsonw_string(sb, type, strlen(type));
	strbuf_addstr(sb, ",\"scorer\":");
	jsonw_string(sb, scorer, strlen(scorer));
	strbuf_addf(sb, ",\"k\":%u,\"value\":", k);
	jsonw_number(sb, value);
	strbuf_addf(sb, ",\"tasks\":%zu}\n", tasks);
}

void score_trials_jsonl(FILE *out, FILE *err, const struct config *c,
                        const struct score_trials *t)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < c->nscorers; i++) {
		struct score_trials_figs f;
		score_trials_figures(t, i, &f);
		for (unsigned j = 0; j < f.nk; j++) {
			const struct score_passk *p = &f.k[j];
			passk_line(&sb, "pass^k", c->scorers[i].id, p->k, p->hat, p->tasks);
			passk_line(&sb, "pass@k", c->scorers[i].id, p->k, p->at, p->tasks);
		}
		left_out_note(err, "tcreview score: ", c->scorers[i].id, f.left_out);
		score_trials_figs_free(&f);
	}
	if (sb.len)
		fwrite(sb.buf, 1, sb.len, out);
	strbuf_release(&sb);
	fflush(out);
}

/* ---- table ------------------------------------------------------------------ */

/* Whether the user's locale writes UTF-8: score keeps the C locale for
 * everything else, so it is asked here and put back. */
static bool locale_utf8(void)
{
	const char *now = setlocale(LC_CTYPE, NULL);
	char *saved = xstrdup(now ? now : "C");
	bool utf8 = false;
	if (setlocale(LC_CTYPE, "")) {
		const char *cs = nl_langinfo(CODESET);
		utf8 = cs && (!strcmp(cs, "UTF-8") || !strcmp(cs, "utf8"));
	}
	setlocale(LC_CTYPE, saved);
	free(saved);
	return utf8;
}

static size_t out_columns(FILE *out)
{
	size_t cols = cli_tty_columns(fileno(out));
	return cols ? cols : TABLE_COLUMNS;
}

/* value (0..1) as a bar of width cells: eighths of a cell in block
 * characters, or whole cells of '#'; the cells it leaves are a light
 * track ('.'), so that the full width reads as 1 and rows of one scorer,
 * whose bars touch, stay apart at their ends. */
static void add_bar(struct strbuf *sb, double value, size_t width, bool utf8)
{
	static const char *const eighths[] = { "", "\xe2\x96\x8f", "\xe2\x96\x8e", "\xe2\x96\x8d",
		"\xe2\x96\x8c", "\xe2\x96\x8b", "\xe2\x96\x8a", "\xe2\x96\x89" };
	if (!(value > 0))
		value = 0;
	if (value > 1)
		value = 1;
	unsigned per = utf8 ? 8 : 1;
	size_t units = (size_t)(value * (double)width * per + 0.5), cells = units / per;
	for (size_t i = 0; i < cells; i++)
		strbuf_addstr(sb, utf8 ? "\xe2\x96\x88" : "#");
	if (units % per) {
		strbuf_addstr(sb, eighths[units % per]);
		cells++;
	}
	for (; cells < width; cells++)
		strbuf_addstr(sb, utf8 ? "\xe2\x96\x91" : ".");
}

/* Whether the table has a row for k: tasks of hundreds of trials would
 * make a table of hundreds of rows (the jsonl lines have every k). */
static bool table_has_k(unsigned k, unsigned nk)
{
	return k <= TABLE_ALL_K || k == nk || (k & (k - 1)) == 0;
}

/* Scorer i's rows: its tasks and trials on the first, one row per k;
 * false when some k has no row. */
static bool table_scorer(struct strbuf *sb, const char *id, int idw,
                         const struct score_trials_figs *f, size_t bar, bool utf8)
{
	if (!f->nk) {
		strbuf_addf(sb, "%-*s %6zu %7zu  no task has a counted trial\n", idw, id, f->tasks,
		            f->trials);
		return true;
	}
	bool all = true;
	for (unsigned j = 0; j < f->nk; j++) {
		const struct score_passk *p = &f->k[j];
		if (!table_has_k(p->k, f->nk)) {
			all = false;
			continue;
		}
		if (j == 0)
			strbuf_addf(sb, "%-*s %6zu %7zu", idw, id, f->tasks, f->trials);
		else
			strbuf_addf(sb, "%-*s %6s %7s", idw, "", "", "");
		strbuf_addf(sb, " %3u %7.3f %7.3f  ", p->k, p->hat, p->at);
		add_bar(sb, p->hat, bar, utf8);
		strbuf_addch(sb, '\n');
	}
	return all;
}

void score_trials_table(FILE *out, FILE *err, const struct config *c,
                        const struct score_trials *t)
{
	(void)err;
	int idw = 6;
	for (size_t i = 0; i < c->nscorers; i++)
		if ((int)strlen(c->scorers[i].id) > idw && strlen(c->scorers[i].id) < 80)
			idw = (int)strlen(c->scorers[i].id);
	/* scorer, tasks, trials, k, pass^k, pass@k and their spaces, then the bar */
	size_t fixed = (size_t)idw + 7 + 8 + 4 + 8 + 8 + 2, cols = out_columns(out);
	size_t bar = cols > fixed + BAR_MIN ? cols - fixed - 1 : BAR_MIN;
	if (bar > BAR_MAX)
		bar = BAR_MAX;
	bool utf8 = locale_utf8();
	struct strbuf sb = STRBUF_INIT, notes = STRBUF_INIT;
	bool all = true;
	strbuf_addf(&sb, "\npass^k over the trials of each task (task: %s)\n", score_trials_spec(t));
	strbuf_addf(&sb, "%-*s %6s %7s %3s %7s %7s\n", idw, "scorer", "tasks", "trials", "k",
	            "pass^k", "pass@k");
	for (size_t i = 0; i < c->nscorers; i++) {
		struct score_trials_figs f;
		score_trials_figures(t, i, &f);
		/* a scorer's bars touch; a blank line keeps scorers apart */
		if (i)
			strbuf_addch(&sb, '\n');
		all &= table_scorer(&sb, c->scorers[i].id, idw, &f, bar, utf8);
		if (f.left_out)
			strbuf_addf(&notes, "%s: %zu verdict%s skipped or in error, left out\n",
			            c->scorers[i].id, f.left_out, f.left_out == 1 ? "" : "s");
		score_trials_figs_free(&f);
	}
	strbuf_addstr(&sb, "\npass^k: chance that all k trials of a task pass; pass@k: that at least "
	              "one does\n(the mean over tasks of C(c,k)/C(n,k) for n trials with c passed, "
	              "k up to the\nfewest trials any task has; a skip or an error is no trial)\n");
	size_t untasked = score_trials_untasked(t);
	strbuf_addf(&sb, "%zu run%s with a task", score_trials_runs(t) - untasked,
	            score_trials_runs(t) - untasked == 1 ? "" : "s");
	if (untasked)
		strbuf_addf(&sb, ", %zu without (left out)", untasked);
	strbuf_addstr(&sb, "\n");
	if (!all)
		strbuf_addf(&sb, "past k = %d, the powers of 2 and the last k (-o jsonl has every k)\n",
		            TABLE_ALL_K);
	if (notes.len)
		strbuf_add(&sb, notes.buf, notes.len);
	fwrite(sb.buf, 1, sb.len, out);
	fflush(out);
	strbuf_release(&sb);
	strbuf_release(&notes);
}
