/* test_formats_report.c - `tcreview formats`' parts (cli/formats_closest.c,
 * cli/formats_write.c): the loaders ranked on a record no format claims,
 * the record's shape, and the writers, notes included (no loader of ours
 * writes notes on records of our own yet, so the CLI suite cannot show
 * them). tests/cli/formats.sh drives the command itself. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/formats_report.h"
#include "runs/format.h"
#include "runs/run.h"
#include "util/error.h"

static char path[512];
static char last_ties[512];     /* what the last formats_closest tied */

/* A dataset of one JSONL file holding `line`; its first record in *rec. */
static void open_one(struct dataset *ds, struct record_ref *rec, const char *line)
{
	const char *tmp = getenv("TMPDIR");
	snprintf(path, sizeof path, "%s/tcr-formats-report-%d.jsonl", tmp && *tmp ? tmp : "/tmp",
	         (int)getpid());
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	fprintf(f, "%s\n", line);
	fclose(f);
	struct error err = {0};
	char *paths[] = { path };
	memset(ds, 0, sizeof(*ds));
	assert_int_equal(dataset_open(ds, paths, 1, &err), 0);
	struct dataset_cursor cur;
	dataset_cursor_init(&cur);
	assert_true(dataset_next(ds, &cur, rec));
}

static void close_one(struct dataset *ds)
{
	dataset_close(ds);
	unlink(path);
}

/* The rank classes the header promises, in order. */
static int rank_class(const struct formats_guess *g)
{
	if (g->loaded)
		return g->msgs || g->calls ? 0 : 2;
	return g->msgs || g->calls || g->depth ? 1 : 3;
}

static size_t closest_of(const char *line, struct formats_guess *g, size_t max)
{
	struct dataset ds;
	struct record_ref rec;
	open_one(&ds, &rec, line);
	char ties[512];
	size_t n = formats_closest(&ds, &rec, g, max, ties, sizeof ties);
	snprintf(last_ties, sizeof last_ties, "%s", ties);
	close_one(&ds);
	for (size_t i = 1; i < n; i++)
		assert_true(rank_class(&g[i - 1]) <= rank_class(&g[i]));
	return n;
}

static size_t table_size(void)
{
	size_t n = 0;
	while (format_table[n])
		n++;
	return n;
}

/* Every loader is tried, once each, and the ranks come in order; not
 * the reader by shape, the last resort that already found nothing. */
static void test_every_loader_is_tried(void **state)
{
	(void)state;
	size_t n = table_size() - 1;
	struct formats_guess *g = calloc(n + 4, sizeof(*g));
	assert_non_null(g);
	assert_int_equal(closest_of("{\"turns\": [1]}", g, n + 4), n);
	assert_string_equal(last_ties, "");     /* all were kept */
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			assert_string_not_equal(g[i].format, g[j].format);
	/* nothing gets in: every loader fails at the top, or reads nothing */
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(g[i].msgs + g[i].calls, 0);
		if (!g[i].loaded)
			assert_int_equal(g[i].depth, 0);
		assert_true(g[i].loaded ? g[i].error[0] == '\0' : g[i].error[0] != '\0');
	}
	free(g);
}

/* The second message has no role: the loaders that read the first one
 * and then name messages[1].role come first, with their own message and
 * the depth and place of that field. */
static void test_failures_ranked_by_how_far_they_got(void **state)
{
	(void)state;
	struct formats_guess g[FORMATS_GUESSES];
	size_t n = closest_of("{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}, "
	                      "{\"content\": \"x\"}]}", g, FORMATS_GUESSES);
	assert_int_equal(n, FORMATS_GUESSES);
	for (size_t i = 0; i < n; i++) {
		assert_false(g[i].loaded);
		assert_int_equal(g[i].msgs, 1);
		assert_int_equal(g[i].calls, 0);
		assert_memory_equal(g[i].error, "messages[1].role: missing", 25);
		assert_int_equal(g[i].depth, 2);        /* messages, [1]; role is missing */
		assert_int_equal(g[i].at, 1);
	}
	/* openai-chat stops there too: among the three, or named as far */
	bool shown = strstr(last_ties, "openai-chat") != NULL;
	for (size_t i = 0; i < n; i++)
		shown = shown || !strcmp(g[i].format, "openai-chat");
	assert_true(shown);
	assert_true(last_ties[0] != '\0');
}

/* A list of role/content messages whose third is not one: read as far as
 * it goes, the index names where each loader stopped. */
static void test_the_index_where_loaders_stopped(void **state)
{
	(void)state;
	struct formats_guess g[FORMATS_GUESSES];
	size_t n = closest_of("[{\"role\": \"user\", \"content\": \"hi\"}, "
	                      "{\"role\": \"assistant\", \"content\": \"x\"}, 42]",
	                      g, FORMATS_GUESSES);
	assert_int_equal(n, FORMATS_GUESSES);
	assert_false(g[0].loaded);
	assert_int_equal(g[0].msgs, 2);
	assert_int_equal(g[0].at, 2);
	assert_non_null(strstr(g[0].error, "[2]"));
}

/* A load that reads messages beats every failure. */
static void test_a_load_that_reads_comes_first(void **state)
{
	(void)state;
	struct formats_guess g[FORMATS_GUESSES];
	size_t n = closest_of("{\"input\": \"hi\", \"output\": []}", g, FORMATS_GUESSES);
	assert_true(n >= 2);
	assert_true(g[0].loaded);
	assert_true(g[0].msgs > 0);
	assert_string_equal(g[0].error, "");
}

static void shape_is(const char *line, const char *want)
{
	struct dataset ds;
	struct record_ref rec;
	char shape[512];
	open_one(&ds, &rec, line);
	formats_shape(&ds, &rec, shape, sizeof shape);
	close_one(&ds);
	assert_string_equal(shape, want);
}

static void test_shapes(void **state)
{
	(void)state;
	shape_is("{\"type\": \"user\", \"message\": {}, \"uuid\": \"u1\"}",
	         "an object of type \"user\" {type, message, uuid}");
	shape_is("{\"a\":1,\"b\":2,\"c\":3,\"d\":4,\"e\":5,\"f\":6,\"g\":7,\"h\":8,\"i\":9,\"j\":10}",
	         "an object {a, b, c, d, e, f, g, h, ... 10 keys}");
	shape_is("[{\"type\": \"start\"}, {\"type\": \"finish\"}]",
	         "an array of 2 values, the first an object of type \"start\" {type}");
	shape_is("[[1, 2]]", "an array of 1 value, the first an array of 2 values");
	shape_is("[null]", "an array of 1 value, the first null");
	shape_is("[1, 2", "");                  /* does not parse */
}

/* What a writer wrote, as a string (freed by the caller). */
static char *written(const struct formats_rec *fr, const struct formats_summary *s, bool json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	assert_non_null(out);
	if (fr)
		formats_write_rec(out, fr, json);
	if (s)
		formats_write_summary(out, s, json);
	fclose(out);
	return buf;
}

static void test_notes_are_written(void **state)
{
	(void)state;
	struct formats_rec fr = {
		.status = FORMATS_READ, .source = "s.jsonl", .file = "s.jsonl", .line = 1,
		.index = -1, .format = "openai-chat", .id = "sess-1",
		.msgs = 7, .calls = 3, .results = 2, .failed = 1, .notes = 4,
	};
	char *text = written(&fr, NULL, false);
	assert_string_equal(text, "s.jsonl  openai-chat  sess-1  messages 7  calls 3  results 2  "
	                    "failed 1  notes 4\n");
	free(text);
	char *json = written(&fr, NULL, true);
	assert_string_equal(json, "{\"type\":\"record\",\"source\":\"s.jsonl\",\"file\":\"s.jsonl\","
	                    "\"line\":1,\"index\":null,\"status\":\"read\",\"format\":\"openai-chat\","
	                    "\"id\":\"sess-1\",\"messages\":7,\"calls\":3,\"results\":2,\"failed\":1,"
	                    "\"notes\":4,\"error\":null,\"closest\":null,\"ties\":null,\"shape\":null}\n");
	free(json);

	size_t n = table_size();
	struct formats_tally *by_format = calloc(n, sizeof(*by_format));
	assert_non_null(by_format);
	struct formats_tally one = { .records = 1, .by_status = { [FORMATS_READ] = 1 },
	                             .calls = 3, .notes = 4 };
	by_format[0] = one;
	struct input_file file = { .path = "s.jsonl" };
	struct formats_summary s = { .nfiles = 1, .files = &file, .file_tally = &one,
	                             .format_tally = by_format, .all = one };
	text = written(NULL, &s, false);
	assert_non_null(strstr(text, "summary: 1 file, 1 record, 1 read; 3 calls, 4 notes\n"));
	assert_non_null(strstr(text, format_table[0]->name));
	free(text);
	json = written(NULL, &s, true);
	assert_non_null(strstr(json, "\"calls\":3,\"notes\":4,\"not_analysed\":0,"));
	assert_non_null(strstr(json, "\"per_file\":[{\"file\":\"s.jsonl\",\"records\":1,\"read\":1,"
	                       "\"unread\":0,\"load_errors\":0,\"no_format\":0,\"not_json\":0,"
	                       "\"calls\":3,\"notes\":4}]}\n"));
	free(json);
	free(by_format);
}

/* A file's totals line and a guess that loaded nothing but notes. */
static void test_file_line_and_guesses(void **state)
{
	(void)state;
	struct formats_tally t = { .records = 5, .calls = 2, .notes = 1,
	                           .by_status = { 1, 1, 2, 1 } };
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	formats_write_file(out, "f.jsonl", &t);
	fclose(out);
	assert_string_equal(buf, "f.jsonl: 5 records, 1 read, 4 not read (1 load error, 2 no format, "
	                    "1 not JSON); 2 calls, 1 note\n");
	free(buf);

	struct formats_rec fr = {
		.status = FORMATS_NO_FORMAT, .source = "f.jsonl:2", .file = "f.jsonl", .line = 2,
		.index = -1, .id = "f.jsonl:2", .analysed = true, .nclosest = 2,
		.shape = "an object {x}",
	};
	fr.closest[0] = (struct formats_guess){ .format = "b", .msgs = 1, .depth = 2, .at = 1,
	                                        .error = "messages[1].role: missing" };
	fr.closest[1] = (struct formats_guess){ .format = "a", .loaded = true, .notes = 3 };
	char *text = written(&fr, NULL, false);
	assert_string_equal(text, "f.jsonl:2  (no format)  -\n"
	                    "    record:  an object {x}\n"
	                    "    closest: b: messages[1].role: missing (after 1 message, 0 calls)\n"
	                    "             a: loads, but knows none of it (3 notes)\n");
	free(text);
	assert_string_equal(formats_status_name(FORMATS_NOT_JSON), "not-json");
	assert_string_equal(formats_status_name(FORMATS_LOAD_ERROR), "load-error");
}

/* Notes by their text, most frequent first, the ones past the table
 * counted; the summary lists them. */
static void test_note_kinds(void **state)
{
	(void)state;
	struct formats_notes notes = { .nkinds = 0 };
	struct run *r = run_new(NULL, "n.jsonl", 1, -1);
	size_t m = run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, "hi", JV_NONE);
	run_add_note(r, m, JV_NONE, "block type \"%s\" (not read)", "x");
	run_add_note_msg(r, MSG_IN_OUTPUT, JV_NONE, "event type \"%s\" (not read)", "y");
	run_add_note_msg(r, MSG_IN_OUTPUT, JV_NONE, "event type \"%s\" (not read)", "y");
	assert_int_equal(r->nnotes, 3);
	formats_notes_add(&notes, r);
	formats_notes_add(&notes, r);
	run_free(r);
	formats_notes_sort(&notes);
	assert_int_equal(notes.nkinds, 2);
	assert_string_equal(notes.kinds[0].text, "event type \"y\" (not read)");
	assert_int_equal(notes.kinds[0].count, 4);
	assert_string_equal(notes.kinds[1].text, "block type \"x\" (not read)");
	assert_int_equal(notes.kinds[1].count, 2);

	struct formats_tally none = { 0 };
	size_t n = table_size();
	struct formats_tally *by_format = calloc(n, sizeof(*by_format));
	assert_non_null(by_format);
	struct formats_summary s = { .format_tally = by_format, .all = none, .notes = &notes };
	char *text = written(NULL, &s, false);
	assert_non_null(strstr(text, "  notes (what the loaders kept without knowing it):\n"
	                       "         4  event type \"y\" (not read)\n"
	                       "         2  block type \"x\" (not read)\n"));
	assert_null(strstr(text, "other kinds"));
	free(text);
	char *json = written(NULL, &s, true);
	assert_non_null(strstr(json, "\"note_kinds\":[{\"note\":\"event type \\\"y\\\" (not read)\","
	                       "\"count\":4},{\"note\":\"block type \\\"x\\\" (not read)\",\"count\":2}],"
	                       "\"other_notes\":0,"));
	free(json);

	/* past the table, and past what the text lists */
	r = run_new(NULL, "n.jsonl", 1, -1);
	for (int i = 0; i < FORMATS_NOTE_KINDS + 5; i++)
		run_add_note_msg(r, MSG_IN_OUTPUT, JV_NONE, "role \"r%d\" (not read)", i);
	formats_notes_add(&notes, r);
	run_free(r);
	formats_notes_sort(&notes);
	assert_int_equal(notes.nkinds, FORMATS_NOTE_KINDS);
	assert_int_equal(notes.other, 7);      /* the two kinds above took two places */
	text = written(NULL, &s, false);
	/* 10 listed (the two frequent ones first), 64 - 10 kinds of 1 and 7 beyond */
	char want[64];
	snprintf(want, sizeof want, "  %8d  of other kinds\n", FORMATS_NOTE_KINDS - 10 + 7);
	assert_non_null(strstr(text, want));
	free(text);
	formats_notes_free(&notes);
	assert_int_equal(notes.nkinds, 0);
	free(by_format);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_loader_is_tried),
		cmocka_unit_test(test_failures_ranked_by_how_far_they_got),
		cmocka_unit_test(test_the_index_where_loaders_stopped),
		cmocka_unit_test(test_a_load_that_reads_comes_first),
		cmocka_unit_test(test_shapes),
		cmocka_unit_test(test_notes_are_written),
		cmocka_unit_test(test_file_line_and_guesses),
		cmocka_unit_test(test_note_kinds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
