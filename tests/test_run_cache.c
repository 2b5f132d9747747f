/* test_run_cache.c - the review session's run cache counts what its runs
 * really hold: each run's own measure (run_bytes: tape, arena, lists and
 * the trees built on demand, which grow after loading) plus its verdicts,
 * not a guess from the record's length; the total follows the runs as they
 * come, grow and go; a run read again is a new load (its serial); and the
 * run under the cursor is kept even when it alone is over the limit, so a
 * huge run is read once. Every step is given a zero budget. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <jansson.h>

#include "config/config.h"
#include "review/settle.h"
#include "review/session.h"
#include "runs/run.h"
#include "util/error.h"

static char dir[64];
static char runs_path[128];
static struct config cfg;
static size_t big_len;          /* the big record's length */

/* run-s: a small OpenAI Chat run; run-big: a message of 2 MB; run-m: a
 * Mastra run whose call has an object result (a tree on demand); a line
 * that does not parse. */
static const char small_run[] =
	"{\"id\":\"run-s\",\"messages\":["
	"{\"role\":\"user\",\"content\":\"Where is my order 42?\"},"
	"{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"c1\",\"type\":\"function\","
	"\"function\":{\"name\":\"get_order\",\"arguments\":\"{\\\"order_id\\\":\\\"42\\\"}\"}}]},"
	"{\"role\":\"tool\",\"tool_call_id\":\"c1\",\"content\":\"{\\\"status\\\":\\\"shipped\\\"}\"},"
	"{\"role\":\"assistant\",\"content\":\"Your order 42 is shipped.\"}]}\n";
static const char mastra_run[] =
	"{\"id\":\"run-m\",\"inputMessages\":[{\"id\":\"u1\",\"role\":\"user\",\"content\":{\"format\":2,"
	"\"parts\":[{\"type\":\"text\",\"text\":\"Where is order 7?\"}]}}],"
	"\"output\":[{\"id\":\"a1\",\"role\":\"assistant\",\"content\":{\"format\":2,"
	"\"parts\":[{\"type\":\"tool-invocation\",\"toolInvocation\":{\"state\":\"result\","
	"\"toolCallId\":\"t1\",\"toolName\":\"get_order\",\"args\":{\"order_id\":\"7\"},"
	"\"result\":{\"status\":\"shipped\",\"items\":[{\"sku\":\"A\",\"qty\":1},{\"sku\":\"B\",\"qty\":2}],"
	"\"history\":[\"placed\",\"paid\",\"packed\",\"shipped\"]}}},"
	"{\"type\":\"text\",\"text\":\"Order 7 is shipped.\"}]}}]}\n";

static const char yaml[] =
	"scorers:\n"
	"  - id: lookup\n"
	"    type: tool-call-accuracy\n"
	"    expectedTool: get_order\n"
	"  - id: words\n"
	"    type: word-inclusion\n";

static int setup(void **s)
{
	(void)s;
	strcpy(dir, "/tmp/tcr-cache.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(runs_path, sizeof runs_path, "%s/runs.jsonl", dir);
	FILE *f = fopen(runs_path, "wb");
	if (!f)
		return -1;
	fputs(small_run, f);
	/* The big one: a final answer of 2 MB of words and newlines. */
	long start = ftell(f);
	fputs("{\"id\":\"run-big\",\"messages\":[{\"role\":\"user\",\"content\":\"Tell me everything\"},"
	      "{\"role\":\"assistant\",\"content\":\"", f);
	for (int i = 0; i < 40000; i++)
		fputs(i % 8 == 7 ? "everything you asked about, line by line\\n" : "everything you asked about, ", f);
	fputs("\"}]}\n", f);
	big_len = (size_t)(ftell(f) - start) - 1;
	fputs(mastra_run, f);
	fputs("{\"id\":\"run-x\",\"messages\":[\n", f);
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

static void open_ready(struct review *rv)
{
	struct error err = {0};
	char *paths[] = { runs_path };
	char annot[160];
	snprintf(annot, sizeof annot, "%s/a.annotations.jsonl", dir);
	const char *apaths[] = { annot };
	int rc = review_open(rv, &cfg, NULL, paths, 1, apaths, 1, "ann", &err);
	if (rc < 0)
		fprintf(stderr, "review_open: %s\n", err.msg);
	assert_int_equal(rc, 0);
	int n = 0;
	while (review_step(rv, 0))
		assert_true(++n < 1000);
	assert_int_equal(rv->nentries, 4);
}

static size_t entry_of(const struct review *rv, const char *id)
{
	for (size_t i = 0; i < rv->nentries; i++)
		if (rv->entries[i].id && !strcmp(rv->entries[i].id, id))
			return i;
	fail_msg("no entry %s", id);
	return 0;
}

/* Each cached run costs its verdicts' bytes plus run_bytes of its run, and
 * the cache's total is their sum. */
static void check_counts(const struct review *rv)
{
	size_t sum = 0, n = 0;
	for (const struct review_run *rr = rv->lru_head; rr; rr = rr->lru_next) {
		size_t run = rr->run ? run_bytes(rr->run) : 0;
		assert_int_equal(rr->bytes, rr->own_bytes + run);
		assert_true(rr->own_bytes >= sizeof(*rr) + cfg.nscorers * sizeof(*rr->verdicts));
		sum += rr->bytes;
		n++;
	}
	assert_int_equal(n, rv->ncached);
	assert_int_equal(sum, rv->cache_bytes);
}

static void test_the_cache_counts_what_its_runs_hold(void **s)
{
	(void)s;
	struct review rv;
	open_ready(&rv);
	check_counts(&rv);
	for (size_t i = 0; i < rv.nentries; i++) {
		struct review_run *rr = review_run_at(&rv, i);
		assert_non_null(rr);
		check_counts(&rv);
	}
	/* The line that does not parse costs its error and verdicts only. */
	struct review_run *bad = review_run_at(&rv, 3);
	assert_null(bad->run);
	assert_int_equal(bad->bytes, bad->own_bytes);
	assert_true(bad->own_bytes > strlen(bad->error));
	review_close(&rv);
}

/* A big record costs about what its tape holds (its text, decoded once),
 * not three times its length as the old guess had it. */
static void test_a_big_run_costs_its_text_not_a_guess(void **s)
{
	(void)s;
	struct review rv;
	open_ready(&rv);
	struct review_run *rr = review_run_at(&rv, entry_of(&rv, "run-big"));
	assert_non_null(rr->run);
	assert_int_equal(rr->bytes, rr->own_bytes + run_bytes(rr->run));
	assert_true(rr->bytes >= big_len * 9 / 10);
	assert_true(rr->bytes < big_len * 3 / 2);
	check_counts(&rv);
	review_close(&rv);
}

/* Trees built after the run was loaded (the screen showing a result, a
 * judge's prompt) count the next time the run is handed out. */
static void test_trees_built_later_count(void **s)
{
	(void)s;
	struct review rv;
	open_ready(&rv);
	size_t m = entry_of(&rv, "run-m");
	struct review_run *rr = review_run_at(&rv, m);
	assert_non_null(rr->run);
	assert_true(rr->run->ncalls >= 1);
	size_t before = rr->bytes, total = rv.cache_bytes;
	assert_int_equal(before, rr->own_bytes + run_bytes(rr->run));
	assert_non_null(run_call_result(rr->run, &rr->run->calls[0]));
	assert_non_null(run_record(rr->run));
	assert_true(run_bytes(rr->run) + rr->own_bytes > before);
	assert_true(review_run_at(&rv, m) == rr);
	assert_true(rr->bytes > before);
	assert_int_equal(rr->bytes, rr->own_bytes + run_bytes(rr->run));
	assert_int_equal(rv.cache_bytes, total - before + rr->bytes);
	check_counts(&rv);
	review_close(&rv);
}

/* A run dropped and read again is another load: a new serial, so a holder
 * of pointers into the old one (the screen's timeline) knows. */
static void test_a_run_read_again_is_a_new_load(void **s)
{
	(void)s;
	struct review rv;
	open_ready(&rv);
	size_t a = entry_of(&rv, "run-s"), b = entry_of(&rv, "run-m");
	struct review_run *ra = review_run_at(&rv, a);
	unsigned long first = ra->serial;
	assert_true(first >= 1 && first <= rv.nloads);
	rv.cache_limit = 1;                          /* room for none but the one handed out */
	assert_non_null(review_run_at(&rv, b));
	assert_null(rv.entries[a].cached);
	check_counts(&rv);
	ra = review_run_at(&rv, a);
	assert_true(ra->serial > first);
	assert_int_equal(ra->serial, rv.nloads);
	check_counts(&rv);
	review_close(&rv);
}

/* With no room at all, background scoring lets every run go but the one
 * under the cursor, which the screen is about to show: kept, so it is not
 * read twice. */
static void test_the_run_shown_is_kept_over_the_limit(void **s)
{
	(void)s;
	struct review rv;
	struct error err = {0};
	char *paths[] = { runs_path };
	char annot[160];
	snprintf(annot, sizeof annot, "%s/b.annotations.jsonl", dir);
	const char *apaths[] = { annot };
	assert_int_equal(review_open(&rv, &cfg, NULL, paths, 1, apaths, 1, "ann", &err), 0);
	rv.cache_limit = 1;
	int n = 0;
	while (review_step(&rv, 0))
		assert_true(++n < 1000);
	assert_int_equal(rv.ncached, 1);
	assert_int_equal(rv.lru_head->entry, rv.view[rv.cursor]);
	unsigned long loads = rv.nloads;
	review_settle(&rv);
	const struct review_run *rr = review_current(&rv);
	assert_true(rr == rv.lru_head);
	assert_int_equal(rv.nloads, loads);          /* not read again */
	check_counts(&rv);
	review_close(&rv);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_the_cache_counts_what_its_runs_hold),
		cmocka_unit_test(test_a_big_run_costs_its_text_not_a_guess),
		cmocka_unit_test(test_trees_built_later_count),
		cmocka_unit_test(test_a_run_read_again_is_a_new_load),
		cmocka_unit_test(test_the_run_shown_is_kept_over_the_limit),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
