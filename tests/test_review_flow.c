/* test_review_flow.c - labelling in one keystroke, without a screen: the
 * marks counting answered judges (review/marks.c), a label written as an
 * accept or an override (review_label), the forward movement after it
 * (review_forward: the next undecided row, then the next unreviewed run),
 * and blind mode (rows hidden until decided, accepts refused, filters and
 * sorts that look only at decided rows, "blind": true on the line). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "review/session.h"
#include "review_fixture.h"
#include "util/error.h"

static struct review_fixture fx;

static int group_setup(void **state)
{
	(void)state;
	return review_fixture_setup(&fx, "flow", NULL);
}

static int group_teardown(void **state)
{
	(void)state;
	return review_fixture_teardown(&fx);
}

static enum review_mark mark(struct review *rv, const char *id)
{
	return review_mark_of(rv, rfx_entry(rv, id));
}

/* A run is reviewed when every code scorer row and every answered judge
 * row has a decision; a judge not asked, still answering or failed does
 * not keep it unreviewed. */
static void test_marks_with_judges(void **state)
{
	(void)state;
	rfx_reset(&fx);
	struct review rv;
	rfx_open(&fx, &rv, "ann");
	size_t c = rfx_entry(&rv, "run-c");
	assert_false(review_row_counts_at(&rv, c, ROW_JU));       /* not asked */
	rfx_label(&rv, "run-c", ROW_LOOKUP, 1);
	assert_int_equal(mark(&rv, "run-c"), MARK_UNREVIEWED);
	rfx_label(&rv, "run-c", ROW_WORDS, 0.6);
	assert_int_equal(mark(&rv, "run-c"), MARK_REVIEWED);
	assert_int_equal(review_reviewed_count(&rv), 1);

	/* the judge answers: its row now waits for a decision */
	rfx_judge(&rv, "run-c", 4, "looked the order up");
	assert_true(review_row_counts_at(&rv, c, ROW_JU));
	assert_int_equal(mark(&rv, "run-c"), MARK_UNREVIEWED);
	assert_int_equal(review_reviewed_count(&rv), 0);
	rfx_label(&rv, "run-c", ROW_JU, 2);
	assert_int_equal(mark(&rv, "run-c"), MARK_OVERRIDDEN);    /* an override of the judge counts */
	assert_true(rv.entries[c].any_override);

	/* asked again and pending, or failed: nothing to decide, the run stays reviewed */
	review_judge_pending(&rv, c, 0, 0);
	assert_false(review_row_counts_at(&rv, c, ROW_JU));
	size_t a = rfx_entry(&rv, "run-a");
	rfx_label(&rv, "run-a", ROW_LOOKUP, 0);
	rfx_label(&rv, "run-a", ROW_WORDS, 0);
	rfx_judge_error(&rv, "run-a", "the judge could not be reached");
	assert_false(review_row_counts_at(&rv, a, ROW_JU));
	assert_int_equal(mark(&rv, "run-a"), MARK_OVERRIDDEN);    /* words 0 against 0.333 */
	/* the marks are the same when read back from the file in a new session */
	review_close(&rv);
	rfx_open(&fx, &rv, "ann");
	assert_int_equal(mark(&rv, "run-c"), MARK_OVERRIDDEN);
	assert_int_equal(mark(&rv, "run-a"), MARK_OVERRIDDEN);
	review_close(&rv);
}

/* A label equal to the machine's score is an accept, another an override;
 * off the scale or on a judge that has not answered, nothing is written. */
static void test_label(void **state)
{
	(void)state;
	rfx_reset(&fx);
	struct review rv;
	rfx_open(&fx, &rv, "ann");
	struct error err = {0};
	bool accepted;
	rfx_go(&rv, "run-c");
	assert_int_equal(review_label(&rv, ROW_LOOKUP, 1, &accepted, &err), 0);
	assert_true(accepted);
	assert_int_equal(review_decision(&rv, rfx_entry(&rv, "run-c"), ROW_LOOKUP)->kind, DEC_ACCEPT);
	assert_int_equal(review_label(&rv, ROW_WORDS, 1, &accepted, &err), 0);
	assert_false(accepted);
	const struct decision *d = review_decision(&rv, rfx_entry(&rv, "run-c"), ROW_WORDS);
	assert_int_equal(d->kind, DEC_OVERRIDE);
	assert_true(d->score == 1);
	assert_null(d->reason);
	assert_int_equal(review_label(&rv, ROW_LOOKUP, 2, &accepted, &err), -1);
	assert_int_equal(review_last_error(&rv), ERR_OFF_SCALE);
	assert_string_equal(err.msg, "expected 0 or 1");
	assert_int_equal(review_label(&rv, ROW_JU, 4, &accepted, &err), -1);
	assert_int_equal(review_last_error(&rv), ERR_JUDGE_NOT_ASKED);
	rfx_judge(&rv, "run-c", 4, "fine");
	assert_int_equal(review_label(&rv, ROW_JU, 4, &accepted, &err), 0);
	assert_true(accepted);
	assert_int_equal(rfx_lines_with(&fx, "\"decision\""), 3);
	review_close(&rv);
}

/* After a label: the next undecided row after it, then from the top of
 * the run, then the next unreviewed run (its first undecided row), then
 * nothing. Rows already decided and judges that have not answered are
 * passed over. */
static void test_forward(void **state)
{
	(void)state;
	rfx_reset(&fx);
	struct review rv;
	rfx_open(&fx, &rv, "ann");
	size_t next;
	/* run-a: lookup decided earlier, the judge answered */
	rfx_label(&rv, "run-a", ROW_LOOKUP, 0);
	rfx_judge(&rv, "run-a", 2, "cancelled the wrong order");
	/* run-c: the judge was never asked */
	rfx_go(&rv, "run-c");
	rfx_label(&rv, "run-c", ROW_WORDS, 1);
	assert_int_equal(review_forward(&rv, ROW_WORDS, &next), FORWARD_ROW);
	assert_int_equal(next, ROW_LOOKUP);                    /* from the top: lookup waits */
	assert_string_equal(rfx_cur(&rv), "run-c");
	rfx_label(&rv, "run-c", ROW_LOOKUP, 1);
	/* run-c is reviewed (its judge does not count): on to run-a, whose
	 * first undecided row is words */
	assert_int_equal(review_forward(&rv, ROW_LOOKUP, &next), FORWARD_RUN);
	assert_string_equal(rfx_cur(&rv), "run-a");
	assert_int_equal(next, ROW_WORDS);
	rfx_label(&rv, "run-a", ROW_WORDS, 0.5);
	assert_int_equal(review_forward(&rv, ROW_WORDS, &next), FORWARD_ROW);
	assert_int_equal(next, ROW_JU);                        /* the answered judge */
	rfx_label(&rv, "run-a", ROW_JU, 2);
	assert_int_equal(review_forward(&rv, ROW_JU, &next), FORWARD_RUN);
	assert_string_equal(rfx_cur(&rv), "run-d");
	assert_int_equal(next, ROW_LOOKUP);
	assert_int_equal(review_undecided_row(&rv, rfx_entry(&rv, "run-d"), ROW_WORDS), ROW_WORDS);
	assert_int_equal(review_undecided_row(&rv, rfx_entry(&rv, "run-a"), 0), SIZE_MAX);
	/* the last two runs, then nothing left in view */
	rfx_label(&rv, "run-d", ROW_LOOKUP, 1);
	rfx_label(&rv, "run-d", ROW_WORDS, 0);
	rfx_label(&rv, "run-b", ROW_LOOKUP, 0);
	rfx_label(&rv, "run-b", ROW_WORDS, 1);
	assert_int_equal(review_forward(&rv, ROW_WORDS, &next), FORWARD_DONE);
	assert_int_equal(next, ROW_WORDS);
	assert_string_equal(rfx_cur(&rv), "run-b");
	assert_int_equal(review_reviewed_count(&rv), 4);
	review_close(&rv);
}

/* Under the unreviewed filter the run just finished leaves the view as
 * the cursor moves on to the next one. */
static void test_forward_unreviewed_filter(void **state)
{
	(void)state;
	rfx_reset(&fx);
	struct review rv;
	rfx_open(&fx, &rv, "ann");
	review_set_filter(&rv, FILTER_UNREVIEWED);
	size_t next;
	rfx_label(&rv, "run-c", ROW_LOOKUP, 1);
	assert_int_equal(review_forward(&rv, ROW_LOOKUP, &next), FORWARD_ROW);
	rfx_label(&rv, "run-c", ROW_WORDS, 0.6);
	assert_string_equal(rfx_view(&rv), "run-c,run-a,run-d,run-b");  /* held */
	assert_int_equal(review_forward(&rv, ROW_WORDS, &next), FORWARD_RUN);
	assert_string_equal(rfx_cur(&rv), "run-a");
	assert_string_equal(rfx_view(&rv), "run-a,run-d,run-b");
	review_close(&rv);
}

/* Blind: every row is hidden until this reviewer decides it; accepting is
 * refused (it would agree with what was not seen), labels are written
 * with "blind": true, and filters, sorts and disagreements look only at
 * decided rows. */
static void test_blind(void **state)
{
	(void)state;
	rfx_reset(&fx);
	struct review rv;
	rfx_open(&fx, &rv, "ann");
	rv.blind = true;
	size_t a = rfx_entry(&rv, "run-a");
	rfx_judge(&rv, "run-a", 2, "cancelled the wrong order");
	for (size_t row = 0; row < 3; row++)
		assert_true(review_row_hidden(&rv, a, row));
	rfx_go(&rv, "run-a");
	struct error err = {0};
	assert_int_equal(review_accept(&rv, ROW_LOOKUP, &err), -1);
	assert_int_equal(review_last_error(&rv), ERR_BLIND);
	assert_non_null(strstr(err.msg, "type a label"));
	assert_int_equal(review_accept_all(&rv, &err), -1);
	assert_int_equal(review_last_error(&rv), ERR_BLIND);
	assert_int_equal(rfx_lines_with(&fx, "\"decision\""), 0);
	/* nothing decided: no run fails, none disagrees, the score sort has no score */
	review_set_filter(&rv, FILTER_FAILING);
	assert_string_equal(rfx_view(&rv), "");
	review_set_filter(&rv, FILTER_DISAGREE);
	assert_string_equal(rfx_view(&rv), "");
	assert_int_equal(review_entry_disagreements(&rv, a), 0);
	review_set_filter(&rv, FILTER_ALL);
	review_set_sort(&rv, SORT_SCORE);
	assert_string_equal(rfx_view(&rv), "run-c,run-a,run-d,run-b");
	review_set_sort(&rv, SORT_FILE);

	/* a label: written blind, and the row shows */
	rfx_label(&rv, "run-a", ROW_LOOKUP, 1);
	assert_false(review_row_hidden(&rv, a, ROW_LOOKUP));
	assert_true(review_row_hidden(&rv, a, ROW_WORDS));
	assert_int_equal(rfx_lines_with(&fx, "\"blind\":true"), 1);
	review_set_filter(&rv, FILTER_FAILING);
	assert_string_equal(rfx_view(&rv), "run-a");           /* lookup failed, now seen */
	/* machine 0 against the label 1: a disagreement, seen only now */
	assert_int_equal(review_entry_disagreements(&rv, a) & DIS_CODE_HUMAN, DIS_CODE_HUMAN);
	assert_int_equal(review_entry_disagreements(&rv, a) & DIS_CODE_JUDGE, 0);  /* judge hidden */
	rfx_label(&rv, "run-a", ROW_JU, 2);
	assert_int_equal(review_entry_disagreements(&rv, a) & DIS_CODE_JUDGE, 0);  /* both fail */
	review_set_filter(&rv, FILTER_ALL);
	review_close(&rv);

	/* a session that is not blind writes no blind flag */
	rfx_open(&fx, &rv, "ann");
	rfx_label(&rv, "run-b", ROW_LOOKUP, 0);
	assert_int_equal(rfx_lines_with(&fx, "\"blind\":true"), 2);
	assert_int_equal(rfx_lines_with(&fx, "\"decision\""), 3);
	assert_false(review_row_hidden(&rv, rfx_entry(&rv, "run-d"), ROW_LOOKUP));
	review_close(&rv);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_marks_with_judges),
		cmocka_unit_test(test_label),
		cmocka_unit_test(test_forward),
		cmocka_unit_test(test_forward_unreviewed_filter),
		cmocka_unit_test(test_blind),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
