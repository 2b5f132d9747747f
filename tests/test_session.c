/* test_session.c - the review session: background indexing and scoring,
 * the view under every filter and sort, moving, search, decisions written
 * to the annotations file, resuming, the cursor across rebuilds, records
 * that do not load, and the run cache. Every step is given a zero budget,
 * which does one unit of work, so nothing depends on the clock. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <math.h>
#include <unistd.h>
#include <cmocka.h>

#include <jansson.h>

#include "review/settle.h"
#include "review/session.h"
#include "util/digest.h"
#include "util/error.h"

static char dir[64];
static char runs_path[128];
static struct config cfg;

/* Six records: three scored runs, one line that is not JSON, a run with
 * no tool calls, and a record of no known format. Scorers: lookup
 * (get_order called, binary), words (word inclusion, 0..1, threshold
 * 0.5), want (expectedTool from the record's `want`, skipped without it).
 *   run-c  lookup 1 pass  words 0.6 pass    want 1 pass
 *   run-a  lookup 0 fail  words 0.333 fail  want skipped
 *   run-d  lookup 1 pass  words 0 fail      want skipped
 *   :4     does not parse: every verdict an error
 *   run-b  lookup 0 fail  words 1 pass      want 0 fail
 *   run-e  not a transcript format: every verdict an error */
static const char runs[] =
	"{\"id\":\"run-c\",\"model\":\"gpt-x\",\"want\":\"get_order\",\"messages\":["
	"{\"role\":\"user\",\"content\":\"Where is my order 42?\"},"
	"{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"c1\",\"type\":\"function\","
	"\"function\":{\"name\":\"get_order\",\"arguments\":\"{\\\"order_id\\\":\\\"42\\\"}\"}}]},"
	"{\"role\":\"tool\",\"tool_call_id\":\"c1\",\"content\":\"{\\\"status\\\":\\\"shipped\\\"}\"},"
	"{\"role\":\"assistant\",\"content\":\"Your order 42 is shipped.\"}]}\n"
	"{\"id\":\"run-a\",\"messages\":["
	"{\"role\":\"user\",\"content\":\"Cancel my order\"},"
	"{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"c1\",\"type\":\"function\","
	"\"function\":{\"name\":\"cancel_order\",\"arguments\":\"{\\\"order_id\\\":\\\"7\\\"}\"}}]},"
	"{\"role\":\"tool\",\"tool_call_id\":\"c1\",\"content\":\"ok\"},"
	"{\"role\":\"assistant\",\"content\":\"Cancelled.\"}]}\n"
	"{\"id\":\"run-d\",\"model\":\"gpt-y\",\"messages\":["
	"{\"role\":\"user\",\"content\":\"Refund please \xe8\xbf\x94\xe9\x87\x91\"},"
	"{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"c1\",\"type\":\"function\","
	"\"function\":{\"name\":\"get_order\",\"arguments\":\"{\\\"order_id\\\":\\\"ZX-99\\\"}\"}}]},"
	"{\"role\":\"tool\",\"tool_call_id\":\"c1\",\"content\":\"Error: not found\"},"
	"{\"role\":\"assistant\",\"content\":\"Sorry, no.\"}]}\n"
	"{\"id\":\"run-x\",\"messages\":[\n"
	"\n"
	"{\"id\":\"run-b\",\"want\":\"search_faq\",\"messages\":["
	"{\"role\":\"user\",\"content\":\"hello there\"},"
	"{\"role\":\"assistant\",\"content\":\"hello there friend\"}]}\n"
	"{\"id\":\"run-e\",\"greeting\":\"\\u3053\\u3093\\u306b\\u3061\\u306f\"}\n";

static const char yaml[] =
	"scorers:\n"
	"  - id: lookup\n"
	"    type: tool-call-accuracy\n"
	"    expectedTool: get_order\n"
	"  - id: words\n"
	"    type: word-inclusion\n"
	"  - id: want\n"
	"    type: tool-call-accuracy\n"
	"    expectedTool: {from: want}\n";

enum { LOOKUP, WORDS, WANT };

static int setup(void **s)
{
	(void)s;
	strcpy(dir, "/tmp/tcr-sess.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(runs_path, sizeof runs_path, "%s/runs.jsonl", dir);
	FILE *f = fopen(runs_path, "wb");
	if (!f)
		return -1;
	fwrite(runs, 1, sizeof runs - 1, f);
	fclose(f);
	struct error err = {0};
	if (config_load_string(&cfg, NULL, "t.yaml", dir, yaml, sizeof yaml - 1, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		return -1;
	}
	return 0;
}

static int teardown(void **s)
{
	(void)s;
	config_free(&cfg);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static char *annot_file(const char *name)
{
	static char p[160];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	return p;
}

static void open_with(struct review *rv, const struct config *c, const char *annot)
{
	struct error err = {0};
	char *paths[] = { runs_path };
	const char *apaths[] = { annot ? annot_file(annot) : NULL };
	int rc = review_open(rv, c, NULL, paths, 1, apaths, annot ? 1 : 0, "ann", &err);
	if (rc < 0)
		fprintf(stderr, "review_open: %s\n", err.msg);
	assert_int_equal(rc, 0);
}

static void step_all(struct review *rv)
{
	int n = 0;
	while (review_step(rv, 0))
		assert_true(++n < 1000);
	assert_false(review_busy(rv));
}

static void open_ready(struct review *rv, const char *annot)
{
	open_with(rv, &cfg, annot);
	step_all(rv);
}

/* The broken line is named by its source, which holds the temporary
 * folder; tests name it by what follows. */
static const char *short_id(const struct review_entry *e)
{
	if (!e->id)
		return "?";
	const char *slash = strrchr(e->id, '/');
	return slash ? slash + 1 : e->id;
}

static const char *view_str(struct review *rv)
{
	static char buf[512];
	buf[0] = '\0';
	size_t n = review_view_count(rv);
	for (size_t i = 0; i < n; i++) {
		if (i)
			strcat(buf, ",");
		strcat(buf, short_id(review_view_entry(rv, i)));
	}
	return buf;
}

static const char *cur_id(struct review *rv)
{
	if (review_view_count(rv) == 0)
		return "";
	return short_id(review_view_entry(rv, review_cursor(rv)));
}

static void go_to(struct review *rv, const char *id)
{
	size_t n = review_view_count(rv);
	for (size_t i = 0; i < n; i++)
		if (strcmp(short_id(review_view_entry(rv, i)), id) == 0) {
			review_move_to(rv, i);
			assert_string_equal(cur_id(rv), id);
			return;
		}
	fail_msg("%s is not in view", id);
}

static size_t entry_index(struct review *rv, const char *id)
{
	for (size_t i = 0; i < rv->nentries; i++)
		if (strcmp(short_id(&rv->entries[i]), id) == 0)
			return i;
	fail_msg("no entry %s", id);
	return 0;
}

/* The annotations file, one parsed object per line. */
static size_t read_lines(const char *path, json_t **out, size_t max)
{
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char *line = NULL;
	size_t cap = 0, n = 0;
	while (getline(&line, &cap, f) > 0) {
		assert_true(n < max);
		json_error_t jerr;
		out[n] = json_loads(line, 0, &jerr);
		assert_non_null(out[n]);
		n++;
	}
	free(line);
	fclose(f);
	return n;
}

static void free_lines(json_t **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		json_decref(v[i]);
}

static const char *jstr(json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

/* ---- tests -------------------------------------------------------------- */

static void test_step_all(void **s)
{
	(void)s;
	struct review rv;
	open_with(&rv, &cfg, NULL);
	/* Nothing happens before the first step. */
	assert_true(review_busy(&rv));
	assert_int_equal(rv.nentries, 0);
	assert_int_equal(review_view_count(&rv), 0);
	assert_null(review_current(&rv));
	/* The default annotations file sits beside the first input, made at
	 * the first decision: opening the screen leaves nothing behind. */
	char want[200];
	snprintf(want, sizeof want, "%s.annotations.jsonl", runs_path);
	assert_string_equal(annot_path(rv.annot), want);
	assert_int_equal(access(want, F_OK), -1);

	step_all(&rv);
	assert_int_equal(rv.nentries, 6);
	assert_int_equal(rv.nsummarized, 6);
	assert_true(review_index_progress(&rv) == 1);
	assert_true(review_score_progress(&rv) == 1);
	assert_false(review_step(&rv, 0));

	struct review_entry *e = &rv.entries[0];
	assert_string_equal(e->id, "run-c");
	assert_string_equal(e->label, "gpt-x");
	assert_int_equal(e->ncalls, 1);
	assert_false(e->load_failed);
	char src[200];
	snprintf(src, sizeof src, "%s:1", runs_path);
	assert_string_equal(e->source, src);
	assert_int_equal(e->cells[LOOKUP].status, VERDICT_OK);
	assert_true(e->cells[LOOKUP].passed);
	assert_true(e->cells[LOOKUP].score == 1);
	assert_true(e->cells[WORDS].passed);
	assert_true(e->cells[WORDS].score > 0.59 && e->cells[WORDS].score < 0.61);

	e = &rv.entries[1];
	assert_string_equal(e->id, "run-a");
	assert_string_equal(e->label, "openai-chat");     /* no model: the format */
	assert_false(e->cells[LOOKUP].passed);
	assert_int_equal(e->cells[WANT].status, VERDICT_SKIPPED);

	/* The broken line: named by its source, every verdict an error. */
	e = &rv.entries[3];
	snprintf(src, sizeof src, "%s:4", runs_path);
	assert_string_equal(e->id, src);
	assert_string_equal(e->source, src);
	assert_true(e->load_failed);
	assert_int_equal(e->ncalls, 0);
	for (size_t i = 0; i < cfg.nscorers; i++)
		assert_int_equal(e->cells[i].status, VERDICT_ERROR);
	struct review_run *rr = review_run_at(&rv, 3);
	assert_non_null(rr);
	assert_null(rr->run);
	assert_non_null(rr->error);
	assert_int_equal(rr->verdicts[LOOKUP].status, VERDICT_ERROR);

	/* A record of no known format has its id but did not load. */
	e = &rv.entries[5];
	assert_string_equal(e->id, "run-e");
	assert_true(e->load_failed);
	rr = review_run_at(&rv, 5);
	assert_non_null(rr->run);
	assert_non_null(rr->run->load_error);

	/* Line 5 is blank: the next record is line 6. */
	snprintf(src, sizeof src, "%s:6", runs_path);
	assert_string_equal(rv.entries[4].source, src);
	review_close(&rv);
}

static void test_unsummarized(void **s)
{
	(void)s;
	struct review rv;
	open_with(&rv, &cfg, "u.annotations.jsonl");
	/* The first step with nothing in view indexes; then it scores what
	 * is on screen. One unit per zero-budget step. */
	assert_true(review_step(&rv, 0));
	assert_int_equal(rv.nentries, 6);
	assert_int_equal(rv.nsummarized, 0);
	assert_int_equal(review_view_count(&rv), 6);
	assert_null(review_view_entry(&rv, 0)->id);
	assert_int_equal(review_mark_of(&rv, 0), MARK_UNREVIEWED);
	/* Unsummarized entries are in no filter but all... */
	for (int f = FILTER_UNREVIEWED; f < FILTER_COUNT; f++) {
		review_set_filter(&rv, (enum review_filter)f);
		assert_int_equal(review_view_count(&rv), 0);
	}
	review_set_filter(&rv, FILTER_ALL);
	/* ...and sort last, in file order. */
	review_set_sort(&rv, SORT_ID);
	assert_int_equal(review_view_count(&rv), 6);
	for (size_t i = 0; i < 6; i++)
		assert_int_equal(rv.view[i], i);
	review_set_sort(&rv, SORT_FILE);

	/* Moving onto an unsummarized entry summarizes it at once. */
	review_move_to(&rv, 4);
	review_settle(&rv);
	const struct review_run *rr = review_current(&rv);
	assert_non_null(rr);
	assert_int_equal(rr->entry, 4);
	assert_true(rv.entries[4].summarized);
	assert_string_equal(rv.entries[4].id, "run-b");
	assert_int_equal(rv.nsummarized, 1);

	/* The rows around the cursor come first. */
	review_move_to(&rv, 0);
	assert_true(review_step(&rv, 0));
	assert_true(rv.entries[0].summarized);
	assert_int_equal(rv.nsummarized, 2);
	review_close(&rv);
}

static void test_views(void **s)
{
	(void)s;
	struct review rv;
	open_ready(&rv, "v.annotations.jsonl");
	static const char *const by_filter[FILTER_COUNT] = {
		[FILTER_ALL] = "run-c,run-a,run-d,runs.jsonl:4,run-b,run-e",
		/* records that could not be read have nothing to review */
		[FILTER_UNREVIEWED] = "run-c,run-a,run-d,run-b",
		[FILTER_FAILING] = "run-a,run-d,run-b",
		[FILTER_DISAGREE] = "run-d,run-b",
		[FILTER_OVERRIDDEN] = "",
		[FILTER_ERRORS] = "runs.jsonl:4,run-e",
		/* no labels and no judges yet: the filters against them hold nothing
		 * (test_review_filters has them with labels) */
		[FILTER_JUDGE_HUMAN] = "",
		[FILTER_CODE_HUMAN] = "",
		[FILTER_CODE_JUDGE] = "",
		[FILTER_REVIEWERS] = "",
		[FILTER_STALE] = "",
		[FILTER_CELL] = "",
		[FILTER_TAG] = "",          /* no tag chosen: nothing passes */
	};
	for (int f = 0; f < FILTER_COUNT; f++) {
		review_set_filter(&rv, (enum review_filter)f);
		assert_int_equal(rv.filter, f);
		assert_string_equal(view_str(&rv), by_filter[f]);
	}
	review_set_filter(&rv, FILTER_ALL);
	static const char *const by_sort[SORT_COUNT] = {
		[SORT_FILE] = "run-c,run-a,run-d,runs.jsonl:4,run-b,run-e",
		/* the broken line's id is its path, which starts with '/' */
		[SORT_ID] = "runs.jsonl:4,run-a,run-b,run-c,run-d,run-e",
		/* means 0.167, 0.333, 0.5, 0.867; no score last */
		[SORT_SCORE] = "run-a,run-b,run-d,run-c,runs.jsonl:4,run-e",
		[SORT_STATE] = "run-c,run-a,run-d,runs.jsonl:4,run-b,run-e",
	};
	for (int so = 0; so < SORT_COUNT; so++) {
		review_set_sort(&rv, (enum review_sort)so);
		assert_string_equal(view_str(&rv), by_sort[so]);
	}
	review_set_filter(&rv, FILTER_FAILING);
	review_set_sort(&rv, SORT_ID);
	assert_string_equal(view_str(&rv), "run-a,run-b,run-d");
	review_set_sort(&rv, SORT_SCORE);
	assert_string_equal(view_str(&rv), "run-a,run-b,run-d");
	review_set_filter(&rv, FILTER_ERRORS);
	assert_string_equal(view_str(&rv), "runs.jsonl:4,run-e");

	/* With decisions: run-c reviewed, run-a overridden, run-d partly. */
	struct error err = {0};
	review_set_filter(&rv, FILTER_ALL);
	review_set_sort(&rv, SORT_FILE);
	go_to(&rv, "run-c");
	assert_int_equal(review_accept_all(&rv, &err), 0);
	go_to(&rv, "run-a");
	assert_int_equal(review_override(&rv, WORDS, 1, "it did cancel", NULL, &err), 0);
	assert_int_equal(review_accept(&rv, LOOKUP, &err), 0);
	assert_int_equal(review_accept(&rv, WANT, &err), 0);
	go_to(&rv, "run-d");
	assert_int_equal(review_accept(&rv, LOOKUP, &err), 0);
	review_set_filter(&rv, FILTER_UNREVIEWED);
	assert_string_equal(view_str(&rv), "run-d,run-b");
	review_set_filter(&rv, FILTER_OVERRIDDEN);
	assert_string_equal(view_str(&rv), "run-a");
	review_set_filter(&rv, FILTER_ALL);
	review_set_sort(&rv, SORT_STATE);
	assert_string_equal(view_str(&rv), "run-d,runs.jsonl:4,run-b,run-e,run-c,run-a");
	assert_int_equal(review_reviewed_count(&rv), 2);

	assert_string_equal(review_filter_name(FILTER_DISAGREE), "disagreement");
	assert_string_equal(review_sort_name(SORT_STATE), "review state");
	review_close(&rv);
}

static void test_move(void **s)
{
	(void)s;
	struct review rv;
	open_ready(&rv, "m.annotations.jsonl");
	assert_int_equal(review_cursor(&rv), 0);
	review_move(&rv, -5);
	assert_int_equal(review_cursor(&rv), 0);
	review_move(&rv, 2);
	assert_int_equal(review_cursor(&rv), 2);
	assert_string_equal(cur_id(&rv), "run-d");
	assert_int_equal(review_current(&rv)->entry, 2);
	review_move(&rv, 100);
	assert_int_equal(review_cursor(&rv), 5);
	review_move(&rv, -1);
	assert_int_equal(review_cursor(&rv), 4);
	review_move_to(&rv, 99);
	assert_int_equal(review_cursor(&rv), 5);
	review_move(&rv, LONG_MIN);
	assert_int_equal(review_cursor(&rv), 0);
	review_move(&rv, LONG_MAX);
	assert_int_equal(review_cursor(&rv), 5);
	assert_null(review_view_entry(&rv, 6));

	/* An empty view: nothing under the cursor, nothing to decide. */
	review_set_filter(&rv, FILTER_OVERRIDDEN);
	assert_int_equal(review_view_count(&rv), 0);
	review_move(&rv, 3);
	assert_int_equal(review_cursor(&rv), 0);
	assert_null(review_current(&rv));
	struct error err = {0};
	assert_int_equal(review_accept(&rv, 0, &err), -1);
	assert_string_equal(err.msg, "no run selected");
	assert_int_equal(review_note(&rv, "x", &err), -1);
	assert_false(review_next_unreviewed(&rv));
	assert_false(review_search(&rv, "run", 1));
	review_close(&rv);
}

static void test_search(void **s)
{
	(void)s;
	struct review rv;
	open_ready(&rv, "s.annotations.jsonl");
	assert_false(review_search(&rv, NULL, 1));         /* nothing to repeat */
	/* a tool name */
	assert_true(review_search(&rv, "cancel_order", 1));
	assert_string_equal(cur_id(&rv), "run-a");
	/* message text, any case; forward from run-a wraps to run-c */
	assert_true(review_search(&rv, "SHIPPED", 1));
	assert_string_equal(cur_id(&rv), "run-c");
	/* arguments, as typed and as they are inside the JSON string */
	assert_true(review_search(&rv, "zx-99", 1));
	assert_string_equal(cur_id(&rv), "run-d");
	review_move_to(&rv, 0);
	assert_true(review_search(&rv, "\"order_id\":\"ZX-99\"", 1));
	assert_string_equal(cur_id(&rv), "run-d");
	assert_true(review_search(&rv, "Get_Order", 1));   /* run-c, after wrapping */
	assert_string_equal(cur_id(&rv), "run-c");
	assert_true(review_search(&rv, NULL, 1));          /* the same again */
	assert_string_equal(cur_id(&rv), "run-d");
	assert_string_equal(rv.search, "Get_Order");
	/* backward, wrapping from run-d past the start to run-b */
	assert_true(review_search(&rv, "hello", -1));
	assert_string_equal(cur_id(&rv), "run-b");
	/* the only match is the run under the cursor */
	assert_true(review_search(&rv, NULL, -1));
	assert_string_equal(cur_id(&rv), "run-b");
	assert_true(review_search(&rv, NULL, 1));
	assert_string_equal(cur_id(&rv), "run-b");
	/* no match: the cursor stays */
	assert_false(review_search(&rv, "no such text", 1));
	assert_string_equal(cur_id(&rv), "run-b");
	assert_false(review_search(&rv, "", 1));
	/* run ids, also those that come from the source */
	assert_true(review_search(&rv, "RUN-E", 1));
	assert_string_equal(cur_id(&rv), "run-e");
	assert_true(review_search(&rv, "runs.jsonl:4", 1));
	assert_string_equal(cur_id(&rv), "runs.jsonl:4");
	/* a record that does not parse is still searched as text */
	review_move_to(&rv, 0);
	assert_true(review_search(&rv, "run-x", 1));
	assert_string_equal(cur_id(&rv), "runs.jsonl:4");
	/* non-ASCII, raw in the file and written as \u escapes */
	assert_true(review_search(&rv, "\xe8\xbf\x94\xe9\x87\x91", 1));
	assert_string_equal(cur_id(&rv), "run-d");
	assert_true(review_search(&rv, "\xe3\x81\x93\xe3\x82\x93\xe3\x81\xab\xe3\x81\xa1\xe3\x81\xaf", 1));
	assert_string_equal(cur_id(&rv), "run-e");
	/* only the view is searched */
	review_set_filter(&rv, FILTER_ERRORS);
	assert_false(review_search(&rv, "cancel_order", 1));
	review_close(&rv);
}

static void test_next_unreviewed(void **s)
{
	(void)s;
	struct review rv;
	open_ready(&rv, "n.annotations.jsonl");
	struct error err = {0};
	/* review everything but run-d and run-b; the record that could not
	 * be read refuses decisions and is never "unreviewed" */
	for (size_t i = 0; i < 6; i++) {
		review_move_to(&rv, i);
		const char *id = cur_id(&rv);
		review_settle(&rv);
		const struct review_run *rr = review_current(&rv);
		if (!rr->run || rr->run->load_error) {
			assert_int_equal(review_accept(&rv, 0, &err), -1);
			assert_non_null(strstr(err.msg, "could not be read"));
			assert_int_equal(review_note(&rv, "broken export", &err), 0);
			continue;
		}
		if (strcmp(id, "run-d") && strcmp(id, "run-b"))
			for (size_t k = 0; k < cfg.nscorers; k++)
				assert_int_equal(review_accept(&rv, k, &err), 0);
	}
	assert_int_equal(review_reviewed_count(&rv), 2);
	review_move_to(&rv, 0);
	assert_true(review_next_unreviewed(&rv));
	assert_string_equal(cur_id(&rv), "run-d");
	assert_true(review_next_unreviewed(&rv));
	assert_string_equal(cur_id(&rv), "run-b");
	assert_true(review_next_unreviewed(&rv));          /* wraps */
	assert_string_equal(cur_id(&rv), "run-d");
	/* accept-all moves on to the next unreviewed */
	assert_int_equal(review_accept_all(&rv, &err), 0);
	assert_string_equal(cur_id(&rv), "run-b");
	assert_int_equal(review_mark_of(&rv, entry_index(&rv, "run-d")), MARK_REVIEWED);
	/* the last one: nothing left to go to */
	assert_int_equal(review_accept_all(&rv, &err), 0);
	assert_string_equal(cur_id(&rv), "run-b");
	assert_false(review_next_unreviewed(&rv));
	assert_int_equal(review_reviewed_count(&rv), 4);
	review_close(&rv);
}

static void test_parse_score(void **s)
{
	(void)s;
	const struct scorer_conf *bin = &cfg.scorers[LOOKUP], *unit = &cfg.scorers[WORDS];
	struct scorer_ops five_ops = { .type = "judge", .scale = SCALE_1TO5 };
	struct scorer_conf five = { .id = "five", .ops = &five_ops };
	struct error err = {0};
	double v;
	static const struct { const char *text; double want; } good[] = {
		{ "0", 0 }, { "1", 1 }, { " 1 ", 1 }, { "1.0", 1 }, { "-0", 0 },
	};
	for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
		assert_int_equal(review_parse_score(bin, good[i].text, &v, &err), 0);
		assert_true(v == good[i].want);
	}
	/* "-0" is taken as 0, so the file never says -0 */
	assert_int_equal(review_parse_score(bin, "-0", &v, &err), 0);
	assert_false(signbit(v));
	static const char *const bad_bin[] = { "", "  ", "0.5", "2", "-1", "abc", "1x", "0x1", "nan", "inf", NULL };
	for (size_t i = 0; bad_bin[i]; i++) {
		err.msg[0] = '\0';
		assert_int_equal(review_parse_score(bin, bad_bin[i], &v, &err), -1);
		assert_string_equal(err.msg, "expected 0 or 1");
	}
	assert_int_equal(review_parse_score(bin, NULL, &v, &err), -1);

	assert_int_equal(review_parse_score(unit, "0.25", &v, &err), 0);
	assert_true(v == 0.25);
	assert_int_equal(review_parse_score(unit, "1", &v, &err), 0);
	assert_int_equal(review_parse_score(unit, ".5", &v, &err), 0);
	assert_true(v == 0.5);
	assert_int_equal(review_parse_score(unit, "5e-1", &v, &err), 0);
	assert_true(v == 0.5);
	static const char *const bad_unit[] = { "", "1.5", "-0.1", "nan", "inf", "0x1", "0.5.", "half", NULL };
	for (size_t i = 0; bad_unit[i]; i++) {
		assert_int_equal(review_parse_score(unit, bad_unit[i], &v, &err), -1);
		assert_string_equal(err.msg, "expected 0..1");
	}

	for (int k = 1; k <= 5; k++) {
		char t[16];
		snprintf(t, sizeof t, "%d", k);
		assert_int_equal(review_parse_score(&five, t, &v, &err), 0);
		assert_true(v == k);
	}
	assert_int_equal(review_parse_score(&five, "4.0", &v, &err), 0);
	static const char *const bad_five[] = { "0", "6", "3.5", "", "three", NULL };
	for (size_t i = 0; bad_five[i]; i++) {
		assert_int_equal(review_parse_score(&five, bad_five[i], &v, &err), -1);
		assert_string_equal(err.msg, "expected 1..5");
	}
}

static void test_decisions(void **s)
{
	(void)s;
	struct review rv;
	open_ready(&rv, "d.annotations.jsonl");
	const char *path = annot_file("d.annotations.jsonl");
	struct error err = {0};
	json_t *lines[32];

	/* accept on run-c: the machine score and pass, the scorer's hash */
	go_to(&rv, "run-c");
	assert_int_equal(review_accept(&rv, WORDS, &err), 0);
	size_t n = read_lines(path, lines, 32);
	assert_int_equal(n, 1);
	assert_string_equal(jstr(lines[0], "decision"), "accept");
	assert_string_equal(jstr(lines[0], "run"), "run-c");
	assert_string_equal(jstr(lines[0], "scorer"), "words");
	assert_string_equal(jstr(lines[0], "scorer_type"), "word-inclusion");
	assert_string_equal(jstr(lines[0], "reviewer"), "ann");
	assert_string_equal(jstr(lines[0], "config"), cfg.scorers[WORDS].hash);
	assert_non_null(jstr(lines[0], "at"));
	char src[200];
	snprintf(src, sizeof src, "%s:1", runs_path);
	assert_string_equal(jstr(lines[0], "source"), src);
	double ms = json_number_value(json_object_get(lines[0], "machine_score"));
	assert_true(ms > 0.59 && ms < 0.61);
	assert_true(json_number_value(json_object_get(lines[0], "score")) == ms);
	assert_true(json_is_true(json_object_get(lines[0], "machine_passed")));
	free_lines(lines, n);
	const struct decision *d = review_decision(&rv, 0, WORDS);
	assert_non_null(d);
	assert_int_equal(d->kind, DEC_ACCEPT);
	assert_int_equal(review_mark_of(&rv, 0), MARK_UNREVIEWED);    /* two to go */
	assert_null(review_decision(&rv, 0, LOOKUP));

	/* a skipped verdict is accepted without a score */
	go_to(&rv, "run-a");
	assert_int_equal(review_accept(&rv, WANT, &err), 0);
	n = read_lines(path, lines, 32);
	assert_int_equal(n, 2);
	assert_true(json_is_null(json_object_get(lines[1], "score")));
	assert_true(json_is_null(json_object_get(lines[1], "machine_score")));
	free_lines(lines, n);

	/* override: checked against the scale, nothing written when off it */
	assert_int_equal(review_override(&rv, LOOKUP, 0.5, "half", NULL, &err), -1);
	assert_string_equal(err.msg, "expected 0 or 1");
	assert_int_equal(review_override(&rv, WORDS, 1.5, "much", NULL, &err), -1);
	assert_string_equal(err.msg, "expected 0..1");
	assert_int_equal(review_override(&rv, 7, 1, "x", NULL, &err), -1);
	assert_int_equal(read_lines(path, lines, 32), 2);
	free_lines(lines, 2);
	assert_int_equal(review_override(&rv, LOOKUP, 1, "cancel was right", NULL, &err), 0);
	n = read_lines(path, lines, 32);
	assert_int_equal(n, 3);
	assert_string_equal(jstr(lines[2], "decision"), "override");
	assert_string_equal(jstr(lines[2], "run"), "run-a");
	assert_string_equal(jstr(lines[2], "scorer_type"), "tool-call-accuracy");
	assert_true(json_number_value(json_object_get(lines[2], "score")) == 1);
	assert_true(json_number_value(json_object_get(lines[2], "machine_score")) == 0);
	assert_true(json_is_false(json_object_get(lines[2], "machine_passed")));
	assert_string_equal(jstr(lines[2], "reason"), "cancel was right");
	free_lines(lines, n);
	size_t a = entry_index(&rv, "run-a");
	assert_int_equal(review_mark_of(&rv, a), MARK_UNREVIEWED);     /* words not decided */
	review_set_filter(&rv, FILTER_OVERRIDDEN);
	assert_string_equal(view_str(&rv), "run-a");
	assert_int_equal(review_override(&rv, WORDS, 0.75, NULL, NULL, &err), 0);
	assert_int_equal(review_mark_of(&rv, a), MARK_OVERRIDDEN);
	assert_int_equal(review_reviewed_count(&rv), 1);

	/* retract: only a standing decision; the mark goes back */
	review_set_filter(&rv, FILTER_ALL);
	go_to(&rv, "run-a");
	assert_int_equal(review_retract(&rv, WORDS, &err), 0);
	assert_int_equal(review_mark_of(&rv, a), MARK_UNREVIEWED);
	assert_null(review_decision(&rv, a, WORDS));
	assert_int_equal(review_reviewed_count(&rv), 0);
	assert_int_equal(review_retract(&rv, WORDS, &err), -1);
	assert_string_equal(err.msg, "nothing to take back");
	go_to(&rv, "run-b");
	assert_int_equal(review_retract(&rv, LOOKUP, &err), -1);
	assert_string_equal(err.msg, "nothing to take back");
	n = read_lines(path, lines, 32);
	assert_int_equal(n, 5);
	assert_string_equal(jstr(lines[4], "decision"), "retract");
	assert_string_equal(jstr(lines[4], "scorer"), "words");
	free_lines(lines, n);

	/* a note concerns the run */
	assert_null(review_note_of(&rv, entry_index(&rv, "run-b")));
	assert_int_equal(review_note(&rv, "greets back, no tool needed", &err), 0);
	n = read_lines(path, lines, 32);
	assert_int_equal(n, 6);
	assert_string_equal(jstr(lines[5], "decision"), "note");
	assert_string_equal(jstr(lines[5], "run"), "run-b");
	assert_string_equal(jstr(lines[5], "reason"), "greets back, no tool needed");
	assert_true(json_is_null(json_object_get(lines[5], "scorer")));
	free_lines(lines, n);
	d = review_note_of(&rv, entry_index(&rv, "run-b"));
	assert_non_null(d);
	assert_string_equal(d->reason, "greets back, no tool needed");
	/* notes do not review a run that has scorers */
	assert_int_equal(review_mark_of(&rv, entry_index(&rv, "run-b")), MARK_UNREVIEWED);

	/* accept-all keeps decisions already standing: one line per verdict
	 * still undecided */
	go_to(&rv, "run-a");
	assert_int_equal(review_accept_all(&rv, &err), 0);
	n = read_lines(path, lines, 32);
	assert_int_equal(n, 7);
	assert_string_equal(jstr(lines[6], "scorer"), "words");
	free_lines(lines, n);
	assert_int_equal(review_mark_of(&rv, a), MARK_OVERRIDDEN);
	assert_int_equal(review_decision(&rv, a, LOOKUP)->kind, DEC_OVERRIDE);
	review_close(&rv);
}

static void test_hold_after_decision(void **s)
{
	(void)s;
	struct review rv;
	open_ready(&rv, "h.annotations.jsonl");
	struct error err = {0};
	review_set_filter(&rv, FILTER_UNREVIEWED);
	go_to(&rv, "run-a");
	for (size_t k = 0; k < cfg.nscorers; k++)
		assert_int_equal(review_accept(&rv, k, &err), 0);
	/* reviewed now, but it stays in view until the cursor moves */
	assert_int_equal(review_mark_of(&rv, entry_index(&rv, "run-a")), MARK_REVIEWED);
	assert_string_equal(view_str(&rv), "run-c,run-a,run-d,run-b");
	assert_string_equal(cur_id(&rv), "run-a");
	assert_int_equal(review_current(&rv)->entry, entry_index(&rv, "run-a"));
	/* moving on goes to the run after it, and then it is gone */
	review_move(&rv, 1);
	assert_string_equal(cur_id(&rv), "run-d");
	assert_string_equal(view_str(&rv), "run-c,run-d,run-b");
	/* the same under the review-state sort */
	review_set_filter(&rv, FILTER_ALL);
	review_set_sort(&rv, SORT_STATE);
	assert_string_equal(view_str(&rv), "run-c,run-d,runs.jsonl:4,run-b,run-e,run-a");
	go_to(&rv, "run-d");
	assert_int_equal(review_accept_all(&rv, &err), 0);
	/* accept-all moved on to the next unreviewed after run-d (over the
	 * record that could not be read), and the view was rebuilt with run-d
	 * among the reviewed */
	assert_string_equal(cur_id(&rv), "run-b");
	assert_string_equal(view_str(&rv), "run-c,runs.jsonl:4,run-b,run-e,run-a,run-d");
	review_close(&rv);
}

static void test_resume(void **s)
{
	(void)s;
	struct review rv;
	struct error err = {0};
	open_ready(&rv, "r.annotations.jsonl");
	go_to(&rv, "run-c");
	assert_int_equal(review_accept_all(&rv, &err), 0);
	go_to(&rv, "run-a");
	assert_int_equal(review_override(&rv, WORDS, 0.9, "fine", NULL, &err), 0);
	assert_int_equal(review_accept(&rv, LOOKUP, &err), 0);
	assert_int_equal(review_accept(&rv, WANT, &err), 0);
	go_to(&rv, "run-d");
	assert_int_equal(review_accept(&rv, LOOKUP, &err), 0);
	assert_int_equal(review_accept(&rv, WORDS, &err), 0);
	assert_int_equal(review_retract(&rv, WORDS, &err), 0);
	enum review_mark marks[6];
	for (size_t i = 0; i < 6; i++)
		marks[i] = review_mark_of(&rv, i);
	size_t reviewed = review_reviewed_count(&rv);
	assert_int_equal(reviewed, 2);
	review_close(&rv);

	open_ready(&rv, "r.annotations.jsonl");
	for (size_t i = 0; i < 6; i++)
		assert_int_equal(review_mark_of(&rv, i), marks[i]);
	assert_int_equal(review_reviewed_count(&rv), reviewed);
	const struct decision *d = review_decision(&rv, entry_index(&rv, "run-a"), WORDS);
	assert_non_null(d);
	assert_int_equal(d->kind, DEC_OVERRIDE);
	assert_true(d->score == 0.9);
	assert_string_equal(d->reason, "fine");
	assert_non_null(review_decision(&rv, entry_index(&rv, "run-d"), LOOKUP));
	assert_null(review_decision(&rv, entry_index(&rv, "run-d"), WORDS));
	review_set_filter(&rv, FILTER_UNREVIEWED);
	assert_string_equal(view_str(&rv), "run-d,run-b");
	/* another reviewer sees none of it */
	review_close(&rv);
	char *paths[] = { runs_path };
	const char *apaths[] = { annot_file("r.annotations.jsonl") };
	assert_int_equal(review_open(&rv, &cfg, NULL, paths, 1, apaths, 1, "bob", &err), 0);
	step_all(&rv);
	assert_int_equal(review_reviewed_count(&rv), 0);
	assert_null(review_decision(&rv, 0, LOOKUP));
	review_close(&rv);
}

static void test_cursor_stays(void **s)
{
	(void)s;
	struct review rv;
	open_ready(&rv, "c.annotations.jsonl");
	go_to(&rv, "run-d");
	review_set_sort(&rv, SORT_ID);
	assert_string_equal(cur_id(&rv), "run-d");
	assert_int_equal(review_cursor(&rv), 4);
	review_set_filter(&rv, FILTER_DISAGREE);
	assert_string_equal(cur_id(&rv), "run-d");
	assert_int_equal(review_cursor(&rv), 1);             /* run-b, run-d */
	review_set_sort(&rv, SORT_SCORE);
	assert_string_equal(cur_id(&rv), "run-d");
	review_set_filter(&rv, FILTER_FAILING);
	assert_string_equal(cur_id(&rv), "run-d");
	review_set_sort(&rv, SORT_FILE);
	assert_string_equal(cur_id(&rv), "run-d");
	review_set_filter(&rv, FILTER_ALL);
	review_set_sort(&rv, SORT_STATE);
	assert_string_equal(cur_id(&rv), "run-d");
	/* gone from the view: in file order the cursor stays where it was */
	review_set_sort(&rv, SORT_FILE);
	review_set_filter(&rv, FILTER_ERRORS);
	assert_string_equal(cur_id(&rv), "runs.jsonl:4");
	review_close(&rv);
}

/* Entries join a filtered view as they are scored, in order. */
static void test_incremental(void **s)
{
	(void)s;
	struct review rv;
	open_with(&rv, &cfg, "i.annotations.jsonl");
	review_set_filter(&rv, FILTER_FAILING);
	int steps = 0;
	while (review_step(&rv, 0)) {
		assert_true(++steps < 100);
		/* every scored failing entry, in file order */
		char want[256] = "";
		for (size_t i = 0; i < rv.nentries; i++) {
			const struct review_entry *e = &rv.entries[i];
			if (!e->summarized || (strcmp(e->id, "run-a") && strcmp(e->id, "run-d") &&
			                       strcmp(e->id, "run-b")))
				continue;
			if (want[0])
				strcat(want, ",");
			strcat(want, e->id);
		}
		assert_string_equal(view_str(&rv), want);
	}
	assert_string_equal(view_str(&rv), "run-a,run-d,run-b");
	review_close(&rv);

	open_with(&rv, &cfg, "i.annotations.jsonl");
	review_set_sort(&rv, SORT_SCORE);
	step_all(&rv);
	assert_string_equal(view_str(&rv), "run-a,run-b,run-d,run-c,runs.jsonl:4,run-e");
	review_close(&rv);
}

static void test_cache(void **s)
{
	(void)s;
	struct review rv;
	open_with(&rv, &cfg, "k.annotations.jsonl");
	assert_int_equal(rv.cache_limit, (size_t)64 << 20);
	rv.cache_limit = 1;
	step_all(&rv);
	/* no room: scored and let go, but for the run under the cursor, kept
	 * as review_current keeps it (so a run over the limit is read once) */
	assert_int_equal(rv.ncached, 1);
	assert_true(rv.lru_head && rv.lru_head->entry == rv.view[rv.cursor]);
	/* Each run is parsed again when asked for; only the last one stays. */
	for (size_t i = 0; i < 6; i++) {
		review_move_to(&rv, i);
		review_settle(&rv);
		const struct review_run *rr = review_current(&rv);
		assert_non_null(rr);
		assert_int_equal(rr->entry, rv.view[i]);
		const struct review_entry *e = &rv.entries[rr->entry];
		for (size_t k = 0; k < cfg.nscorers; k++) {
			assert_int_equal(rr->verdicts[k].status, e->cells[k].status);
			if (e->cells[k].status == VERDICT_OK)
				assert_true(rr->verdicts[k].score == e->cells[k].score);
		}
		assert_int_equal(rv.ncached, 1);
		assert_true(rv.lru_head == rr && rv.lru_tail == rr);
		assert_true(e->cached == rr);
		assert_true(rv.cache_bytes == rr->bytes);
	}

	/* Room for any two, not three: the least recently used goes. */
	size_t b0 = review_run_at(&rv, 0)->bytes;
	size_t b1 = review_run_at(&rv, 1)->bytes;    /* evicts 0 */
	size_t b2 = review_run_at(&rv, 2)->bytes;    /* evicts 1 */
	rv.cache_limit = b0 + b1 + b2 - 1;
	assert_non_null(review_run_at(&rv, 0));      /* 0, 2 */
	assert_int_equal(rv.ncached, 2);
	assert_non_null(review_run_at(&rv, 1));      /* 1, 0; 2 goes */
	assert_int_equal(rv.ncached, 2);
	assert_null(rv.entries[2].cached);
	assert_non_null(rv.entries[0].cached);
	assert_non_null(rv.entries[1].cached);
	assert_non_null(review_run_at(&rv, 0));      /* 0, 1 */
	assert_non_null(review_run_at(&rv, 2));      /* 2, 0; 1 goes */
	assert_null(rv.entries[1].cached);
	assert_non_null(rv.entries[0].cached);
	assert_non_null(rv.entries[2].cached);
	assert_true(rv.cache_bytes <= rv.cache_limit);
	assert_true(rv.lru_head == rv.entries[2].cached && rv.lru_tail == rv.entries[0].cached);
	assert_null(review_run_at(&rv, 6));

	/* With the default limit the background keeps every small run. */
	review_close(&rv);
	open_ready(&rv, "k.annotations.jsonl");
	assert_int_equal(rv.ncached, 6);
	review_close(&rv);
}

static void test_no_scorers(void **s)
{
	(void)s;
	struct review rv;
	struct error err = {0};
	open_with(&rv, NULL, "z.annotations.jsonl");
	step_all(&rv);
	assert_int_equal(rv.nsummarized, 6);
	assert_int_equal(review_mark_of(&rv, 0), MARK_UNREVIEWED);
	assert_int_equal(review_accept(&rv, 0, &err), -1);
	assert_string_equal(err.msg, "no such scorer");
	assert_int_equal(review_note(&rv, "looked at it", &err), 0);
	assert_int_equal(review_mark_of(&rv, 0), MARK_REVIEWED);
	assert_int_equal(review_reviewed_count(&rv), 1);
	review_set_filter(&rv, FILTER_UNREVIEWED);
	assert_int_equal(review_view_count(&rv), 3);    /* six, less the noted one and two unreadable */
	review_close(&rv);
}

static void test_open_errors(void **s)
{
	(void)s;
	struct review rv;
	struct error err = {0};
	char missing[160];
	snprintf(missing, sizeof missing, "%s/missing.jsonl", dir);
	char *paths[] = { missing };
	assert_int_equal(review_open(&rv, &cfg, NULL, paths, 1, NULL, 0, "ann", &err), -1);
	assert_non_null(strstr(err.msg, "missing.jsonl"));
	char bad_annot[160];
	snprintf(bad_annot, sizeof bad_annot, "%s/no/such/dir/a.jsonl", dir);
	char *ok[] = { runs_path };
	const char *bad[] = { bad_annot };
	assert_int_equal(review_open(&rv, &cfg, NULL, ok, 1, bad, 1, "ann", &err), -1);
	assert_non_null(strstr(err.msg, "a.jsonl"));
}

/* Each entry knows its record's SHA-256 once summarized; every decision
 * (accept, override, retract, note) records it, and `blind` as the
 * session says. */
static void test_run_hash_and_blind(void **s)
{
	(void)s;
	struct review rv;
	open_with(&rv, &cfg, "hash.annotations.jsonl");
	char hex[65];
	step_all(&rv);
	size_t c = entry_index(&rv, "run-c");
	assert_true(review_entry_hash(&rv.entries[c], hex));
	char want[65];
	sha256_hex(runs, (size_t)(strchr(runs, '\n') - runs), want);   /* line 1, no '\n' */
	assert_string_equal(hex, want);
	assert_true(rv.entries[c].has_hash);
	/* a line that is not JSON still has bytes, and so a hash */
	for (size_t i = 0; i < rv.nentries; i++)
		assert_true(review_entry_hash(&rv.entries[i], hex));

	go_to(&rv, "run-c");
	struct error err = {0};
	assert_int_equal(review_accept(&rv, LOOKUP, &err), 0);
	rv.blind = true;
	assert_int_equal(review_override(&rv, WORDS, 0, "no", NULL, &err), 0);
	assert_int_equal(review_retract(&rv, WORDS, &err), 0);
	assert_int_equal(review_note(&rv, "seen", &err), 0);
	json_t *lines[8];
	size_t n = read_lines(annot_file("hash.annotations.jsonl"), lines, 8);
	assert_int_equal(n, 4);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(json_integer_value(json_object_get(lines[i], "v")), 2);
		assert_string_equal(jstr(lines[i], "run_hash"), want);
		/* code scorers have no model or prompt */
		assert_true(json_is_null(json_object_get(lines[i], "model")));
		assert_true(json_is_null(json_object_get(lines[i], "prompt_hash")));
		assert_true(json_is_boolean(json_object_get(lines[i], "blind")));
		assert_int_equal(json_is_true(json_object_get(lines[i], "blind")), i > 0);
	}
	free_lines(lines, n);
	assert_string_equal(review_decision(&rv, c, LOOKUP)->run_hash, want);
	review_close(&rv);

	/* Before its summary an entry has no hash to give. */
	open_with(&rv, &cfg, "hash.annotations.jsonl");
	while (rv.nentries == 0)
		review_step(&rv, 0);
	struct review_entry e0 = rv.entries[0];
	e0.summarized = false;
	assert_false(review_entry_hash(&e0, hex));
	assert_string_equal(hex, "");
	review_close(&rv);
}

/* Several annotation files: all are read, the first is written to; the
 * same reviewer's later decision in another file stands. */
static void test_several_annotation_files(void **s)
{
	(void)s;
	struct error err = {0};
	char theirs[160], mine[160];
	snprintf(theirs, sizeof theirs, "%s", annot_file("theirs.jsonl"));
	snprintf(mine, sizeof mine, "%s", annot_file("mine.jsonl"));
	struct annot_store *st = annot_open(theirs, &err);
	assert_non_null(st);
	struct decision d = {
		.kind = DEC_OVERRIDE, .run = "run-c", .scorer = "words", .has_score = true,
		.score = 0, .reviewer = "ann", .at = "2999-01-01T00:00:00Z",
	};
	assert_int_equal(annot_append(st, &d, &err), 0);
	d.run = "run-a";
	d.scorer = "lookup";
	d.reviewer = "bob";
	assert_int_equal(annot_append(st, &d, &err), 0);
	annot_close(st);

	struct review rv;
	char *paths[] = { runs_path };
	const char *apaths[] = { mine, theirs };
	assert_int_equal(review_open(&rv, &cfg, NULL, paths, 1, apaths, 2, "ann", &err), 0);
	assert_string_equal(annot_path(rv.annot), mine);
	step_all(&rv);
	size_t c = entry_index(&rv, "run-c");
	const struct decision *cur = review_decision(&rv, c, WORDS);
	assert_non_null(cur);
	assert_int_equal(cur->file, 1);
	go_to(&rv, "run-c");
	assert_int_equal(review_accept(&rv, LOOKUP, &err), 0);
	assert_int_equal(review_decision(&rv, c, LOOKUP)->file, 0);
	/* ours was written to the first file, theirs is as it was */
	json_t *lines[8];
	size_t n = read_lines(mine, lines, 8);
	assert_int_equal(n, 1);
	assert_string_equal(jstr(lines[0], "scorer"), "lookup");
	free_lines(lines, n);
	n = read_lines(theirs, lines, 8);
	assert_int_equal(n, 2);
	free_lines(lines, n);
	/* bob's decision is read but is not ann's */
	assert_null(review_decision(&rv, entry_index(&rv, "run-a"), LOOKUP));
	const char *const *names;
	assert_int_equal(annot_reviewers(rv.annot, &names), 2);
	review_close(&rv);

	/* a second file that does not exist is an error naming it */
	const char *missing[] = { mine, annot_file("nobody.jsonl") };
	assert_int_equal(review_open(&rv, &cfg, NULL, paths, 1, missing, 2, "ann", &err), -1);
	assert_non_null(strstr(err.msg, "nobody.jsonl: No such file"));
}

/* One review_row per verdict row: what it is, its scale and its verdict;
 * failures carry a kind the screen reacts to. */
static void test_rows(void **s)
{
	(void)s;
	struct review rv;
	struct error err = {0};
	open_ready(&rv, "rows.annotations.jsonl");
	assert_int_equal(review_nrows(&rv), 3);
	struct review_row row;
	/* without a run only what the row is */
	assert_true(review_row_get(&rv, NULL, WORDS, &row));
	assert_int_equal(row.kind, ROW_SCORER);
	assert_int_equal(row.state, ROW_NO_RUN);
	assert_null(row.v);
	assert_string_equal(row.id, "words");
	assert_string_equal(row.type, "word-inclusion");
	char want[32];
	scale_describe(&row.span, want, sizeof want);
	assert_string_equal(want, "0..1");
	go_to(&rv, "run-c");
	review_settle(&rv);
	const struct review_run *rr = review_current(&rv);
	assert_true(review_row_get(&rv, rr, LOOKUP, &row));
	assert_int_equal(row.state, ROW_READY);
	assert_int_equal(row.index, LOOKUP);
	assert_ptr_equal(row.v, &rr->verdicts[LOOKUP]);
	assert_ptr_equal(row.scorer, &cfg.scorers[LOOKUP]);
	scale_describe(&row.span, want, sizeof want);
	assert_string_equal(want, "0 or 1");
	assert_false(review_row_get(&rv, rr, 3, &row));
	assert_string_equal(review_row_id(&rv, 3), "?");

	/* the kinds of failure */
	assert_int_equal(review_override(&rv, LOOKUP, 0.5, NULL, NULL, &err), -1);
	assert_int_equal(review_last_error(&rv), ERR_OFF_SCALE);
	assert_int_equal(review_accept(&rv, 3, &err), -1);
	assert_string_equal(err.msg, "no such scorer");
	assert_int_equal(review_last_error(&rv), ERR_NO_ROW);
	assert_int_equal(review_retract(&rv, LOOKUP, &err), -1);
	assert_int_equal(review_last_error(&rv), ERR_NOTHING_TO_RETRACT);
	double v;
	assert_int_equal(review_parse_row_score(&rv, WORDS, "2", &v, &err), -1);
	assert_string_equal(err.msg, "expected 0..1");
	assert_int_equal(review_last_error(&rv), ERR_OFF_SCALE);
	go_to(&rv, "runs.jsonl:4");
	assert_int_equal(review_accept(&rv, LOOKUP, &err), -1);
	assert_int_equal(review_last_error(&rv), ERR_UNREADABLE);
	review_close(&rv);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_step_all),
		cmocka_unit_test(test_unsummarized),
		cmocka_unit_test(test_views),
		cmocka_unit_test(test_move),
		cmocka_unit_test(test_search),
		cmocka_unit_test(test_next_unreviewed),
		cmocka_unit_test(test_parse_score),
		cmocka_unit_test(test_decisions),
		cmocka_unit_test(test_hold_after_decision),
		cmocka_unit_test(test_resume),
		cmocka_unit_test(test_cursor_stays),
		cmocka_unit_test(test_incremental),
		cmocka_unit_test(test_cache),
		cmocka_unit_test(test_no_scorers),
		cmocka_unit_test(test_open_errors),
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_run_hash_and_blind),
		cmocka_unit_test(test_several_annotation_files),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
