/* stats_failmodes.c - `tcreview stats`' failure modes: per tag the runs and calls tagged and the share of reviewed runs, as a table or JSONL lines.
 *
 * The counts are review/failmodes'. The table gives each failure mode a
 * row for everyone and, with two reviewers or more, one per reviewer;
 * columns are measured by display width, and every text from the
 * annotations (codes, reviewers' names) is made visible first. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/stats_report.h"
#include "util/jsonw.h"
#include "util/strbuf.h"
#include "util/textvis.h"
#include "util/wtext.h"
#include "util/xalloc.h"

#define FM_COLS 6

static const char *const fm_head[FM_COLS] = { "failure mode", "by", "runs", "share [95%]",
                                              "reviewed", "calls" };

static char *fm_visible(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	textvis_append(&sb, s, strlen(s), 0);
	return strbuf_detach(&sb);
}

static void fm_cells(const struct failmode *r, char *cells[FM_COLS])
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "%s%s", r->tag, r->defined ? "" : " (free code)");
	cells[0] = r->reviewer ? xstrdup("") : fm_visible(sb.buf);
	cells[1] = fm_visible(r->reviewer ? r->reviewer : "all");
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%zu", r->runs);
	cells[2] = xstrdup(sb.buf);
	strbuf_reset(&sb);
	if (r->ok)
		strbuf_addf(&sb, "%.3f [%.3f, %.3f]", r->share, r->low, r->high);
	else
		strbuf_addstr(&sb, "-");
	cells[3] = xstrdup(sb.buf);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%zu", r->reviewed);
	cells[4] = xstrdup(sb.buf);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%zu", r->calls);
	cells[5] = xstrdup(sb.buf);
	strbuf_release(&sb);
}

static void fm_print_row(FILE *out, char *const cells[FM_COLS], const size_t w[FM_COLS])
{
	fputs("  ", out);
	for (size_t c = 0; c < FM_COLS; c++) {
		size_t d = wtext_str_width(cells[c]), pad = w[c] > d ? w[c] - d : 0;
		bool right = c >= 2 && c != 3;
		if (c)
			fputs("  ", out);
		if (right)
			fprintf(out, "%*s", (int)pad, "");
		fputs(cells[c], out);
		if (!right && c + 1 < FM_COLS)
			fprintf(out, "%*s", (int)pad, "");
	}
	fputc('\n', out);
}

void stats_failmodes_table(FILE *out, const struct failmodes *fm)
{
	if (!fm || fm->n == 0)
		return;
	fprintf(out, "failure modes (tags): %zu run%s reviewed; share = runs tagged / runs reviewed, "
	        "Wilson 95%%\n", fm->reviewed, fm->reviewed == 1 ? "" : "s");
	size_t nrows = 0;
	char **cells = xcalloc((fm->n + 1) * FM_COLS, sizeof *cells);
	for (size_t c = 0; c < FM_COLS; c++)
		cells[c] = xstrdup(fm_head[c]);
	nrows++;
	for (size_t i = 0; i < fm->n; i++) {
		/* One reviewer: the row for everyone says it all. */
		if (fm->rows[i].reviewer && fm->nreviewers < 2)
			continue;
		fm_cells(&fm->rows[i], cells + nrows * FM_COLS);
		nrows++;
	}
	size_t w[FM_COLS] = { 0 };
	for (size_t r = 0; r < nrows; r++)
		for (size_t c = 0; c < FM_COLS; c++) {
			size_t d = wtext_str_width(cells[r * FM_COLS + c]);
			w[c] = d > w[c] ? d : w[c];
		}
	for (size_t r = 0; r < nrows; r++)
		fm_print_row(out, cells + r * FM_COLS, w);
	for (size_t i = 0; i < nrows * FM_COLS; i++)
		free(cells[i]);
	free(cells);
	fputc('\n', out);
}

void stats_failmodes_jsonl(FILE *out, const struct failmodes *fm)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; fm && i < fm->n; i++) {
		const struct failmode *r = &fm->rows[i];
		strbuf_addstr(&sb, "{\"type\":\"failure-mode\",\"tag\":");
		jsonw_string(&sb, r->tag, strlen(r->tag));
		strbuf_addf(&sb, ",\"defined\":%s,\"reviewer\":", r->defined ? "true" : "false");
		if (r->reviewer)
			jsonw_string(&sb, r->reviewer, strlen(r->reviewer));
		else
			strbuf_addstr(&sb, "null");
		strbuf_addf(&sb, ",\"runs\":%zu,\"reviewed\":%zu", r->runs, r->reviewed);
		jsonw_member_num(&sb, "share", r->ok, r->share);
		jsonw_member_num(&sb, "low", r->ok, r->low);
		jsonw_member_num(&sb, "high", r->ok, r->high);
		strbuf_addf(&sb, ",\"calls\":%zu}", r->calls);
		fprintf(out, "%s\n", sb.buf);
		strbuf_reset(&sb);
	}
	strbuf_release(&sb);
}
