/* test_review_filters.c - the filters against the reviewers' labels
 * (review/filters.c): judge ≠ human, code ≠ human, code ≠ judge, reviewers
 * disagree, stale label, a confusion cell's runs; the `f` cycle; the
 * disagreements a run holds and `]`/`[` jumping to them; the YAML's
 * compare: restricting code ≠ judge. Labels come from two reviewers (ann
 * and bob) on one annotations file, judge answers are put in by hand.
 *
 * The labels (h = the consensus; "≠" compares pass/fail):
 *   run-c  lookup m pass, ann 1 bob 1        judge 4 pass, ann 2 (fail)
 *   run-a  lookup m fail, ann 0 bob 1 (tie)  words m fail, ann 1 (pass)
 *          judge 2 fail (no label)
 *   run-d  lookup m pass, ann 1              judge 1 fail (no label)
 *   run-b  words m pass, ann 1 bob 0 (median 0.5: pass)  (no judge answer) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "review/labels.h"
#include "review/session.h"
#include "review_fixture.h"
#include "test_files.h"
#include "util/error.h"

static struct review_fixture fx;

static int group_setup(void **state)
{
	(void)state;
	return review_fixture_setup(&fx, "filters", NULL);
}

static int group_teardown(void **state)
{
	(void)state;
	return review_fixture_teardown(&fx);
}

static void judges(struct review *rv)
{
	rfx_judge(rv, "run-c", 4, "looked the order up");
	rfx_judge(rv, "run-a", 2, "cancelled without asking");
	rfx_judge(rv, "run-d", 1, "no refund was made");
}

/* bob's labels first, in a session of his; then ann's, whose session the
 * test goes on with. */
static void labelled(struct review *rv)
{
	rfx_reset(&fx);
	rfx_open(&fx, rv, "bob");
	judges(rv);
	rfx_label(rv, "run-c", ROW_LOOKUP, 1);
	rfx_label(rv, "run-a", ROW_LOOKUP, 1);
	rfx_label(rv, "run-b", ROW_WORDS, 0);
	review_close(rv);
	rfx_open(&fx, rv, "ann");
	judges(rv);
	rfx_label(rv, "run-c", ROW_LOOKUP, 1);
	rfx_label(rv, "run-c", ROW_JU, 2);
	rfx_label(rv, "run-a", ROW_LOOKUP, 0);
	rfx_label(rv, "run-a", ROW_WORDS, 1);
	rfx_label(rv, "run-d", ROW_LOOKUP, 1);
	rfx_label(rv, "run-b", ROW_WORDS, 1);
}

static const char *filtered(struct review *rv, enum review_filter f)
{
	review_set_filter(rv, f);
	return rfx_view(rv);
}

static void test_filters(void **state)
{
	(void)state;
	struct review rv;
	labelled(&rv);
	/* run-c: the judge passes, ann's label fails it */
	assert_string_equal(filtered(&rv, FILTER_JUDGE_HUMAN), "run-c");
	/* run-a: words fails, ann passes it (lookup is a tie: no consensus) */
	assert_string_equal(filtered(&rv, FILTER_CODE_HUMAN), "run-a");
	/* run-d: lookup passes, the judge fails; run-c and run-a agree */
	assert_string_equal(filtered(&rv, FILTER_CODE_JUDGE), "run-d");
	/* run-a (lookup 0 and 1), run-b (words 1 and 0) */
	assert_string_equal(filtered(&rv, FILTER_REVIEWERS), "run-a,run-b");
	assert_string_equal(filtered(&rv, FILTER_STALE), "");
	assert_string_equal(review_filter_name(FILTER_JUDGE_HUMAN), "judge \xe2\x89\xa0 human");
	assert_string_equal(review_filter_name(FILTER_CODE_HUMAN), "code \xe2\x89\xa0 human");
	assert_string_equal(review_filter_name(FILTER_CODE_JUDGE), "code \xe2\x89\xa0 judge");
	assert_string_equal(review_filter_name(FILTER_REVIEWERS), "reviewers disagree");
	assert_string_equal(review_filter_name(FILTER_STALE), "stale label");

	/* the disagreements each run holds */
	assert_int_equal(review_entry_disagreements(&rv, rfx_entry(&rv, "run-c")), DIS_JUDGE_HUMAN);
	assert_int_equal(review_entry_disagreements(&rv, rfx_entry(&rv, "run-a")),
	                 DIS_CODE_HUMAN | DIS_REVIEWERS);
	assert_int_equal(review_entry_disagreements(&rv, rfx_entry(&rv, "run-d")),
	                 DIS_SCORERS | DIS_CODE_JUDGE);
	assert_int_equal(review_entry_disagreements(&rv, rfx_entry(&rv, "run-b")),
	                 DIS_SCORERS | DIS_REVIEWERS);

	/* a label changed by a later decision moves the run between filters */
	review_set_filter(&rv, FILTER_ALL);
	rfx_label(&rv, "run-b", ROW_WORDS, 0);
	assert_string_equal(filtered(&rv, FILTER_REVIEWERS), "run-a");
	assert_string_equal(filtered(&rv, FILTER_CODE_HUMAN), "run-a,run-b");
	review_set_filter(&rv, FILTER_ALL);
	review_close(&rv);
}

/* A label made on a record that changed since is stale: the filter finds
 * it, and it leaves the consensus (and so the filters against it). */
static void test_stale(void **state)
{
	(void)state;
	struct review rv;
	labelled(&rv);
	review_close(&rv);
	char *text = test_slurp(fx.annot_path);
	/* carol labelled run-d's words when the record was another */
	const char *line = "{\"v\":2,\"run\":\"run-d\",\"source\":\"runs.jsonl:3\",\"run_hash\":"
	                   "\"0000000000000000000000000000000000000000000000000000000000000000\","
	                   "\"scorer\":\"words\",\"scorer_type\":\"word-inclusion\",\"model\":null,"
	                   "\"prompt_hash\":null,\"machine_score\":0,\"machine_passed\":false,"
	                   "\"decision\":\"override\",\"score\":1,\"reason\":null,\"reviewer\":\"carol\","
	                   "\"blind\":false,\"at\":\"2026-01-01T00:00:00Z\",\"config\":\"x\"}\n";
	size_t n = strlen(text) + strlen(line) + 1;
	char *both = malloc(n);
	snprintf(both, n, "%s%s", text, line);
	test_write_file(fx.annot_path, both);
	free(both);
	free(text);
	rfx_open(&fx, &rv, "ann");
	judges(&rv);
	assert_string_equal(filtered(&rv, FILTER_STALE), "run-d");
	assert_true(review_entry_has_stale(&rv, rfx_entry(&rv, "run-d")));
	/* words fails by the machine, carol passes it: no disagreement counted */
	assert_string_equal(filtered(&rv, FILTER_CODE_HUMAN), "run-a");
	review_close(&rv);
}

static void test_cycle(void **state)
{
	(void)state;
	struct review rv;
	rfx_reset(&fx);
	rfx_open(&fx, &rv, "ann");
	static const enum review_filter order[] = {
		FILTER_UNREVIEWED, FILTER_FAILING, FILTER_DISAGREE, FILTER_OVERRIDDEN, FILTER_ERRORS,
		FILTER_JUDGE_HUMAN, FILTER_CODE_HUMAN, FILTER_CODE_JUDGE, FILTER_REVIEWERS,
		FILTER_STALE, FILTER_ALL,
	};
	enum review_filter f = FILTER_ALL;
	for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
		f = review_filter_next(&rv, f);
		assert_int_equal(f, order[i]);
	}
	/* the cell filter is left for all, and never reached by the cycle */
	assert_int_equal(review_filter_next(&rv, FILTER_CELL), FILTER_ALL);
	review_close(&rv);

	/* without judges the filters about judges are left out */
	struct config none = fx.cfg;
	none.njudges = 0;
	struct error err = {0};
	char *paths[] = { fx.runs_path };
	const char *apaths[] = { fx.annot_path };
	assert_int_equal(review_open(&rv, &none, NULL, paths, 1, apaths, 1, "ann", &err), 0);
	assert_int_equal(review_filter_next(&rv, FILTER_ERRORS), FILTER_CODE_HUMAN);
	assert_int_equal(review_filter_next(&rv, FILTER_CODE_HUMAN), FILTER_REVIEWERS);
	review_close(&rv);
}

/* Enter on a confusion cell: exactly those runs, named in the status line. */
static void test_cell(void **state)
{
	(void)state;
	struct review rv;
	labelled(&rv);
	size_t set[] = { rfx_entry(&rv, "run-b"), rfx_entry(&rv, "run-c") };
	review_set_cell_filter(&rv, set, 2, "kappa cell scorer:words pass/fail (2)");
	assert_int_equal(rv.filter, FILTER_CELL);
	assert_string_equal(rfx_view(&rv), "run-c,run-b");
	assert_string_equal(review_filter_label(&rv), "kappa cell scorer:words pass/fail (2)");
	assert_string_equal(review_filter_name(FILTER_CELL), "cell");
	/* decisions do not change a cell's runs */
	rfx_label(&rv, "run-b", ROW_LOOKUP, 0);
	review_move_to(&rv, 0);
	assert_string_equal(rfx_view(&rv), "run-c,run-b");
	/* another set replaces it; f leaves it */
	size_t one[] = { rfx_entry(&rv, "run-d") };
	review_set_cell_filter(&rv, one, 1, "kappa cell judge:ju fail/pass (1)");
	assert_string_equal(rfx_view(&rv), "run-d");
	review_set_filter(&rv, review_filter_next(&rv, rv.filter));
	assert_string_equal(rfx_view(&rv), "run-c,run-a,run-d,run-b");
	assert_string_equal(review_filter_label(&rv), "all");
	review_close(&rv);
}

/* ] and [ go to the next and previous run with a disagreement of the
 * filter's kind, or of any kind against the labels, wrapping. */
static void test_jumps(void **state)
{
	(void)state;
	struct review rv;
	labelled(&rv);
	bool wrapped;
	review_move_to(&rv, 0);                               /* run-c */
	assert_int_equal(review_disagreement_kinds(&rv), DIS_ANY_LABELLED);
	assert_true(review_next_disagreement(&rv, 1, &wrapped));
	assert_string_equal(rfx_cur(&rv), "run-a");
	assert_false(wrapped);
	assert_true(review_next_disagreement(&rv, 1, &wrapped));
	assert_string_equal(rfx_cur(&rv), "run-d");
	assert_true(review_next_disagreement(&rv, 1, &wrapped));
	assert_string_equal(rfx_cur(&rv), "run-b");
	assert_true(review_next_disagreement(&rv, 1, &wrapped));
	assert_string_equal(rfx_cur(&rv), "run-c");
	assert_true(wrapped);
	assert_true(review_next_disagreement(&rv, -1, &wrapped));
	assert_string_equal(rfx_cur(&rv), "run-b");
	assert_true(wrapped);
	assert_true(review_next_disagreement(&rv, -1, &wrapped));
	assert_string_equal(rfx_cur(&rv), "run-d");
	assert_false(wrapped);

	/* under "disagreement" (the scorers among themselves): run-d, run-b */
	review_set_filter(&rv, FILTER_DISAGREE);
	assert_int_equal(review_disagreement_kinds(&rv), DIS_SCORERS);
	assert_string_equal(rfx_view(&rv), "run-d,run-b");
	review_move_to(&rv, 0);
	assert_true(review_next_disagreement(&rv, 1, &wrapped));
	assert_string_equal(rfx_cur(&rv), "run-b");

	/* a kind no run has: nothing moves */
	review_set_filter(&rv, FILTER_ALL);
	review_set_filter(&rv, FILTER_JUDGE_HUMAN);
	assert_int_equal(review_disagreement_kinds(&rv), DIS_JUDGE_HUMAN);
	rfx_label(&rv, "run-c", ROW_JU, 4);                    /* ann agrees with the judge now */
	review_move_to(&rv, 0);
	assert_false(review_next_disagreement(&rv, 1, &wrapped));
	review_set_filter(&rv, FILTER_ALL);
	review_close(&rv);
}

/* compare: in the YAML restricts code ≠ judge to the pairs it names. */
static void test_compare(void **state)
{
	(void)state;
	struct review_fixture cf;
	assert_int_equal(review_fixture_setup(&cf, "compare", "compare: [[words, ju]]\n"), 0);
	struct review rv;
	rfx_open(&cf, &rv, "ann");
	rfx_judge(&rv, "run-d", 1, "no refund was made");      /* lookup passes, words fails */
	rfx_judge(&rv, "run-c", 1, "not needed");              /* words passes, the judge fails */
	review_set_filter(&rv, FILTER_CODE_JUDGE);
	assert_string_equal(rfx_view(&rv), "run-c");
	review_close(&rv);
	assert_int_equal(review_fixture_teardown(&cf), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_filters),
		cmocka_unit_test(test_stale),
		cmocka_unit_test(test_cycle),
		cmocka_unit_test(test_cell),
		cmocka_unit_test(test_jumps),
		cmocka_unit_test(test_compare),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
