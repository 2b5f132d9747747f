/* test_fewshot.c - review/fewshot: the candidates of the judges' examples
 * from the annotations and the runs: the reviewers' consensus per run on
 * the judge's row, ties and stale labels left out, retractions respected,
 * only the labelled runs of judges with examples kept, the reason of a
 * reviewer who agrees with the consensus and the latest time. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "annot/store.h"
#include "config/config.h"
#include "judge/judge.h"
#include "review/fewshot.h"
#include "runs/dataset.h"
#include "test_files.h"
#include "util/error.h"

/* What the configurations are loaded with (the data folder of the
 * built-in prompts), as a command lends it. */
static struct config_opts test_load;

static char dir[64], runs_path[128], labels_path[128];
static struct config cfg;
static struct dataset ds;
static char hashes[8][65];          /* of the records, by line - 1 */

#define TOOLS "    tools: [{name: get_order, description: looks an order up}]\n"
static const char yaml_text[] =
	"judges:\n"
	"  - id: acc\n    rubric: tool-call-accuracy-1to5\n    model: openai/m\n" TOOLS
	"    examples: {k: 2, pick: recent, split: all, splits: \"all=1\"}\n"
	"  - id: appr\n    rubric: tool-appropriateness\n    model: openai/m\n" TOOLS
	"    examples: {k: 2, pick: stratified, split: all, splits: \"all=1\"}\n"
	"  - id: plain\n    rubric: tool-call-accuracy-1to5\n    model: openai/m\n" TOOLS;

static int group_setup(void **state)
{
	(void)state;
	const char *top = getenv("TCR_SRCDIR");
	test_load.datadir = top && *top ? top : ".";
	snprintf(dir, sizeof dir, "/tmp/tcr-fewshot-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	char src[512];
	snprintf(src, sizeof src, "%s/tests/data/screen-runs.jsonl", top && *top ? top : ".");
	snprintf(runs_path, sizeof runs_path, "%s/runs.jsonl", dir);
	snprintf(labels_path, sizeof labels_path, "%s/labels.jsonl", dir);
	test_copy_file(src, runs_path);
	struct error err = {0};
	if (config_load_string(&cfg, &test_load, "t.yaml", dir, yaml_text, sizeof yaml_text - 1, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		return -1;
	}
	char *paths[] = { runs_path };
	if (dataset_open(&ds, paths, 1, &err) < 0)
		return -1;
	dataset_index_all(&ds);
	for (size_t i = 0; i < ds.nrecs && i < 8; i++)
		dataset_record_hash(&ds, &ds.recs[i], hashes[i]);
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	dataset_close(&ds);
	config_free(&cfg);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	test_load.datadir = NULL;
	return system(cmd) == 0 ? 0 : -1;
}

/* A reviewer's label on a judge's row of the run on `line`. */
static void label(struct annot_store *s, const char *judge, const char *run, int line,
                  const char *reviewer, double score, const char *reason, const char *at,
                  bool stale)
{
	struct decision d = {
		.kind = DEC_OVERRIDE, .run = run, .source = "runs.jsonl:1", .scorer = judge,
		.scorer_type = "tool-call-accuracy-1to5", .has_machine_score = true,
		.machine_score = 3, .has_machine_passed = true, .machine_passed = true,
		.has_score = true, .score = score, .reason = reason, .reviewer = reviewer, .at = at,
		.config = "0123456789abcdef",
		.run_hash = stale ? "0000000000000000000000000000000000000000000000000000000000000000"
		                  : line ? hashes[line - 1] : NULL,
		.model = "openai/m", .prompt_hash = "fedcba9876543210",
	};
	struct error err = {0};
	if (annot_append(s, &d, &err) != 0)
		fail_msg("append: %s", err.msg);
}

static void retract(struct annot_store *s, const char *judge, const char *run,
                    const char *reviewer, const char *at)
{
	struct decision d = { .kind = DEC_RETRACT, .run = run, .scorer = judge, .reviewer = reviewer,
	                      .at = at };
	struct error err = {0};
	if (annot_append(s, &d, &err) != 0)
		fail_msg("append: %s", err.msg);
}

static struct annot_store *fresh_store(void)
{
	unlink(labels_path);
	struct error err = {0};
	struct annot_store *s = annot_open(labels_path, &err);
	assert_non_null(s);
	return s;
}

static const struct judge_example *find(struct fewshot *fs, const char *judge, const char *run)
{
	const struct judge_example *list;
	size_t n = fewshot_candidates(fs, judge, &list);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(list[i].run_id, run))
			return &list[i];
	return NULL;
}

static size_t count(struct fewshot *fs, const char *judge)
{
	const struct judge_example *list;
	return fewshot_candidates(fs, judge, &list);
}

static void test_needed(void **state)
{
	(void)state;
	assert_true(fewshot_needed(&cfg));
	struct config none = { 0 };
	assert_false(fewshot_needed(&none));
	assert_false(fewshot_needed(NULL));
	/* Without a store nothing is wanted, and nothing is a candidate. */
	struct fewshot fs;
	fewshot_init(&fs, &cfg, NULL);
	assert_false(fewshot_wants(&fs, "en-pass"));
	size_t unreadable = 9;
	fewshot_offer_dataset(&fs, &ds, NULL, NULL, &unreadable);
	assert_int_equal(count(&fs, "acc"), 0);
	assert_int_equal(fs.nruns, 0);
	fewshot_free(&fs);
}

static void test_consensus(void **state)
{
	(void)state;
	struct annot_store *s = fresh_store();
	/* en-pass: two reviewers agree on 4, one reason */
	label(s, "acc", "en-pass", 1, "ann", 4, NULL, "2026-01-01T09:00:00Z", false);
	label(s, "acc", "en-pass", 1, "bob", 4, "looked it up and tracked it", "2026-01-02T09:00:00Z",
	      false);
	/* ja-fail: 2 against 4, a tie on 1..5 */
	label(s, "acc", "ja-fail", 2, "ann", 2, "wrong number", "2026-01-01T09:00:00Z", false);
	label(s, "acc", "ja-fail", 2, "bob", 4, "fine", "2026-01-01T10:00:00Z", false);
	/* zh-refund: bob's label is stale (the run changed since): ann's counts */
	label(s, "acc", "zh-refund", 3, "ann", 1, "refunded without checking", "2026-01-03T09:00:00Z",
	      false);
	label(s, "acc", "zh-refund", 3, "bob", 5, "perfect", "2026-01-04T09:00:00Z", true);
	/* esc-codes: labelled, then taken back */
	label(s, "acc", "esc-codes", 4, "ann", 3, "ok", "2026-01-01T09:00:00Z", false);
	retract(s, "acc", "esc-codes", "ann", "2026-01-01T09:30:00Z");
	/* no-task: a label from before run hashes were kept; on plain only for appr */
	label(s, "appr", "no-task", 0, "ann", 0.25, "nothing asked for", "2026-01-05T09:00:00Z",
	      false);
	label(s, "plain", "en-pass", 1, "ann", 5, "only on a judge without examples",
	      "2026-01-01T09:00:00Z", false);

	struct fewshot fs;
	fewshot_init(&fs, &cfg, s);
	assert_true(fewshot_wants(&fs, "en-pass"));
	assert_true(fewshot_wants(&fs, "no-task"));
	assert_false(fewshot_wants(&fs, "broken"));
	size_t unreadable = 0;
	fewshot_offer_dataset(&fs, &ds, NULL, NULL, &unreadable);
	assert_int_equal(unreadable, 1);                /* the broken last line */

	const struct judge_example *e = find(&fs, "acc", "en-pass");
	assert_non_null(e);
	assert_true(e->score == 4);
	assert_true(e->passed);
	assert_string_equal(e->reason, "looked it up and tracked it");
	assert_string_equal(e->at, "2026-01-02T09:00:00Z");
	assert_string_equal(e->run->id, "en-pass");
	assert_null(find(&fs, "acc", "ja-fail"));
	assert_int_equal(fs.ties, 1);
	e = find(&fs, "acc", "zh-refund");
	assert_non_null(e);
	assert_true(e->score == 1);
	assert_false(e->passed);
	assert_string_equal(e->reason, "refunded without checking");
	assert_string_equal(e->at, "2026-01-03T09:00:00Z");
	assert_int_equal(fs.stale, 1);
	assert_null(find(&fs, "acc", "esc-codes"));
	assert_int_equal(count(&fs, "acc"), 2);

	e = find(&fs, "appr", "no-task");
	assert_non_null(e);
	assert_true(e->score == 0.25);
	assert_false(e->passed);                        /* appr passes from 0.5 */
	assert_int_equal(count(&fs, "appr"), 1);
	assert_int_equal(count(&fs, "plain"), 0);
	assert_int_equal(count(&fs, "nobody"), 0);
	assert_int_equal(fs.nruns, 3);                  /* en-pass, zh-refund, no-task */
	fewshot_free(&fs);
	annot_close(s);
}

/* A run offered by hand: kept only when it becomes a candidate. */
static void test_offer(void **state)
{
	(void)state;
	struct annot_store *s = fresh_store();
	label(s, "acc", "en-pass", 1, "ann", 2, "no", "2026-01-01T09:00:00Z", false);
	struct fewshot fs;
	fewshot_init(&fs, &cfg, s);
	struct error err = {0};
	struct run *a = dataset_load_run(&ds, &ds.recs[0], NULL, NULL, &err);
	struct run *b = dataset_load_run(&ds, &ds.recs[1], NULL, NULL, &err);
	assert_non_null(a);
	assert_non_null(b);
	assert_false(fewshot_offer(&fs, b, hashes[1]));     /* not labelled: the caller's */
	run_free(b);
	assert_true(fewshot_offer(&fs, a, hashes[0]));      /* the set's now */
	assert_int_equal(count(&fs, "acc"), 1);
	assert_false(find(&fs, "acc", "en-pass")->passed);
	fewshot_free(&fs);
	annot_close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_needed),
		cmocka_unit_test(test_consensus),
		cmocka_unit_test(test_offer),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
