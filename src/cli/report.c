/* report.c - verdict writers for `tcreview score`: jsonl, table, junit. */
#include "cli/report.h"

#include <stdlib.h>
#include <string.h>

#include "util/jsonw.h"
#include "util/strbuf.h"
#include "util/textvis.h"

const char *const report_names = "jsonl, table, junit";

/* ---- jsonl: one line per run and scorer, written as it comes ---------- */

struct jsonl_state {
	FILE *out;
	struct strbuf line;
};

static void *jsonl_open(FILE *out, const struct config *c)
{
	(void)c;
	struct jsonl_state *st = calloc(1, sizeof(*st));
	st->out = out;
	return st;
}

/* A key with what comes before it, as jsonw_string writes an ASCII key
 * needing no escape: the row's keys are written as ready text. */
#define ADD_KEY(sb, text) strbuf_add((sb), (text), sizeof(text) - 1)

static void add_str(struct strbuf *sb, const char *s)
{
	if (s)
		jsonw_string(sb, s, strlen(s));
	else
		strbuf_add(sb, "null", 4);
}

static void jsonl_render(const struct report_row *row, struct jsonw_memo *memo, struct strbuf *sb)
{
	const struct verdict *v = row->v;
	bool ok = v->status == VERDICT_OK;
	ADD_KEY(sb, "{\"run\":");
	add_str(sb, row->run_id);
	ADD_KEY(sb, ",\"source\":");
	add_str(sb, row->source);
	ADD_KEY(sb, ",\"format\":");
	add_str(sb, row->format);
	ADD_KEY(sb, ",\"scorer\":");
	add_str(sb, row->sc->id);
	ADD_KEY(sb, ",\"type\":");
	add_str(sb, row->sc->ops->type);
	ADD_KEY(sb, ",\"status\":");
	add_str(sb, verdict_status_name(v->status));
	ADD_KEY(sb, ",\"score\":");
	if (ok)
		jsonw_number(sb, v->score);
	else
		strbuf_add(sb, "null", 4);
	ADD_KEY(sb, ",\"passed\":");
	strbuf_addstr(sb, ok ? (v->passed ? "true" : "false") : "null");
	ADD_KEY(sb, ",\"details\":");
	jsonw_value_memo(sb, ok ? v->details : NULL, memo);
	ADD_KEY(sb, ",\"error\":");
	add_str(sb, v->status == VERDICT_ERROR ? v->message : NULL);
	if (v->status == VERDICT_SKIPPED) {
		ADD_KEY(sb, ",\"reason\":");
		add_str(sb, v->message);
	}
	strbuf_add(sb, "}\n", 2);
}

static void jsonl_emit(void *state, const char *text, size_t len)
{
	struct jsonl_state *st = state;
	fwrite(text, 1, len, st->out);
}

static void jsonl_row(void *state, const struct report_row *row)
{
	struct jsonl_state *st = state;
	strbuf_reset(&st->line);
	jsonl_render(row, NULL, &st->line);
	jsonl_emit(st, st->line.buf, st->line.len);
}

static void jsonl_close(void *state, const struct score_stats *stats)
{
	struct jsonl_state *st = state;
	(void)stats;
	strbuf_release(&st->line);
	fflush(st->out);
	free(st);
}

/* ---- table: totals per scorer, then the failing runs ------------------ */

#define TABLE_LIST_MAX 200   /* failing runs listed per scorer; the rest are counted */


struct table_state {
	FILE *out;
	const struct config *c;
	struct strbuf *fails;       /* per scorer */
	size_t *nlisted;
	size_t by_shape;            /* runs the reader by shape read */
};

static void *table_open(FILE *out, const struct config *c)
{
	struct table_state *st = calloc(1, sizeof(*st));
	st->out = out;
	st->c = c;
	st->fails = calloc(c->nscorers + 1, sizeof(*st->fails));
	st->nlisted = calloc(c->nscorers + 1, sizeof(*st->nlisted));
	return st;
}

static size_t scorer_index(const struct config *c, const struct scorer_conf *sc)
{
	return (size_t)(sc - c->scorers);
}

static void table_row(void *state, const struct report_row *row)
{
	struct table_state *st = state;
	const struct verdict *v = row->v;
	size_t i = scorer_index(st->c, row->sc);
	if (i == 0 && row->format && !strcmp(row->format, "shape"))
		st->by_shape++;
	if (v->status == VERDICT_OK && v->passed)
		return;
	if (st->nlisted[i]++ >= TABLE_LIST_MAX)
		return;
	struct strbuf *sb = &st->fails[i];
	char num[32] = "-";
	if (v->status == VERDICT_OK)
		snprintf(num, sizeof num, "%.3g", v->score);
	/* The table is read on a terminal: ids and messages come from the
	 * records and may hold escape codes. */
	struct strbuf id = STRBUF_INIT, msg = STRBUF_INIT, src = STRBUF_INIT;
	textvis_append(&id, row->run_id, strlen(row->run_id), 0);
	textvis_append(&src, row->source, strlen(row->source), 0);
	if (v->message)
		textvis_append(&msg, v->message, strlen(v->message), 0);
	strbuf_addf(sb, "  %-28s %-8s %-6s %s%s%s\n", id.buf ? id.buf : "",
	            v->status == VERDICT_OK ? "fail" : verdict_status_name(v->status),
	            num, src.buf ? src.buf : "", msg.buf ? "  " : "", msg.buf ? msg.buf : "");
	strbuf_release(&id);
	strbuf_release(&src);
	strbuf_release(&msg);
}

static void table_close(void *state, const struct score_stats *stats)
{
	struct table_state *st = state;
	const struct config *c = st->c;
	/* The id column is as wide as the longest id (ids `tcreview init`
	 * makes from paths run long), at least 20. */
	int idw = 20;
	for (size_t i = 0; i < c->nscorers; i++)
		if ((int)strlen(c->scorers[i].id) > idw && strlen(c->scorers[i].id) < 80)
			idw = (int)strlen(c->scorers[i].id);
	fprintf(st->out, "%-*s %-20s %6s %6s %6s %6s %7s %6s\n", idw,
	        "scorer", "type", "runs", "scored", "passed", "mean", "skipped", "errors");
	for (size_t i = 0; i < c->nscorers; i++) {
		const struct score_stats *s = &stats[i];
		char mean[32] = "-";
		if (s->scored)
			snprintf(mean, sizeof mean, "%.3f", s->sum / (double)s->scored);
		fprintf(st->out, "%-*s %-20s %6zu %6zu %6zu %6s %7zu %6zu\n", idw, c->scorers[i].id,
		        c->scorers[i].ops->type, s->runs, s->scored, s->passed, mean, s->skipped,
		        s->errors);
	}
	/* A guess is said to be one, so nobody takes it for a loader's reading. */
	if (st->by_shape)
		fprintf(st->out, "\nread by shape: %zu run%s (no format claims their records: messages "
		        "and calls were found by their shape)\n", st->by_shape,
		        st->by_shape == 1 ? "" : "s");
	for (size_t i = 0; i < c->nscorers; i++) {
		if (!st->nlisted[i])
			continue;
		fprintf(st->out, "\n%s: %zu not passed (failed, skipped or error)\n",
		        c->scorers[i].id, st->nlisted[i]);
		if (st->fails[i].buf)
			fputs(st->fails[i].buf, st->out);
		if (st->nlisted[i] > TABLE_LIST_MAX)
			fprintf(st->out, "  ... and %zu more\n", st->nlisted[i] - TABLE_LIST_MAX);
		strbuf_release(&st->fails[i]);
	}
	fflush(st->out);
	free(st->fails);
	free(st->nlisted);
	free(st);
}

/* ---- junit: one testsuite per scorer, one testcase per run ------------ */

struct junit_state {
	FILE *out;
	const struct config *c;
	struct strbuf *cases;       /* per scorer, written once the counts are known */
};

static void xml_escape(struct strbuf *sb, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		switch (*p) {
		case '<': strbuf_addstr(sb, "&lt;"); break;
		case '>': strbuf_addstr(sb, "&gt;"); break;
		case '&': strbuf_addstr(sb, "&amp;"); break;
		case '"': strbuf_addstr(sb, "&quot;"); break;
		case '\'': strbuf_addstr(sb, "&apos;"); break;
		default:
			/* XML 1.0 forbids most control characters, even escaped. */
			if (*p < 0x20 && *p != '\t' && *p != '\n' && *p != '\r')
				strbuf_addf(sb, "\\x%02x", *p);
			else
				strbuf_addch(sb, (char)*p);
		}
	}
}

static void *junit_open(FILE *out, const struct config *c)
{
	struct junit_state *st = calloc(1, sizeof(*st));
	st->out = out;
	st->c = c;
	st->cases = calloc(c->nscorers + 1, sizeof(*st->cases));
	return st;
}

static void junit_row(void *state, const struct report_row *row)
{
	struct junit_state *st = state;
	const struct verdict *v = row->v;
	struct strbuf *sb = &st->cases[scorer_index(st->c, row->sc)];
	strbuf_addstr(sb, "    <testcase classname=\"");
	xml_escape(sb, row->sc->id);
	strbuf_addstr(sb, "\" name=\"");
	xml_escape(sb, row->run_id);
	strbuf_addstr(sb, "\" file=\"");
	xml_escape(sb, row->source);
	strbuf_addstr(sb, "\"");
	struct strbuf num = STRBUF_INIT;
	if (v->status == VERDICT_OK)
		jsonw_number(&num, v->score);
	if (v->status == VERDICT_OK && v->passed) {
		strbuf_addstr(sb, "/>\n");
	} else if (v->status == VERDICT_OK) {
		strbuf_addstr(sb, ">\n      <failure message=\"score ");
		strbuf_addstr(sb, num.buf);
		strbuf_addf(sb, " is below the threshold %g\" type=\"score\"/>\n    </testcase>\n",
		            row->sc->threshold);
	} else if (v->status == VERDICT_SKIPPED) {
		strbuf_addstr(sb, ">\n      <skipped message=\"");
		xml_escape(sb, v->message);
		strbuf_addstr(sb, "\"/>\n    </testcase>\n");
	} else {
		strbuf_addstr(sb, ">\n      <error message=\"");
		xml_escape(sb, v->message);
		strbuf_addstr(sb, "\" type=\"error\"/>\n    </testcase>\n");
	}
	strbuf_release(&num);
}

static void junit_close(void *state, const struct score_stats *stats)
{
	struct junit_state *st = state;
	const struct config *c = st->c;
	size_t tests = 0, failures = 0, errors = 0, skipped = 0;
	for (size_t i = 0; i < c->nscorers; i++) {
		tests += stats[i].runs;
		failures += stats[i].scored - stats[i].passed;
		errors += stats[i].errors;
		skipped += stats[i].skipped;
	}
	fprintf(st->out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	        "<testsuites name=\"tcreview\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\">\n",
	        tests, failures, errors, skipped);
	for (size_t i = 0; i < c->nscorers; i++) {
		const struct score_stats *s = &stats[i];
		struct strbuf name = STRBUF_INIT;
		xml_escape(&name, c->scorers[i].id);
		fprintf(st->out, "  <testsuite name=\"%s\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\">\n",
		        name.buf ? name.buf : "", s->runs, s->scored - s->passed, s->errors, s->skipped);
		strbuf_release(&name);
		if (st->cases[i].buf)
			fputs(st->cases[i].buf, st->out);
		fputs("  </testsuite>\n", st->out);
		strbuf_release(&st->cases[i]);
	}
	fputs("</testsuites>\n", st->out);
	fflush(st->out);
	free(st->cases);
	free(st);
}

static const struct report_ops report_table_ops[] = {
	{ "jsonl", jsonl_open, jsonl_row, jsonl_close, jsonl_render, jsonl_emit, score_trials_jsonl },
	{ "table", table_open, table_row, table_close, NULL, NULL, score_trials_table },
	{ "junit", junit_open, junit_row, junit_close, NULL, NULL, NULL },
};

const struct report_ops *report_find(const char *name)
{
	for (size_t i = 0; i < sizeof report_table_ops / sizeof *report_table_ops; i++)
		if (strcmp(report_table_ops[i].name, name) == 0)
			return &report_table_ops[i];
	return NULL;
}
