/* test_diff_tally.c - cli/diff_tally: the order of task texts, each
 * task's change by pass rate (the equal-rate cases around one half), and
 * a scorer's summary: counts, pass rates, pass^k and McNemar's p. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "cli/diff_report.h"

static void test_order(void **state)
{
	(void)state;
	/* Numbers first, by value; then the others, runs of digits by value. */
	const char *in[] = { "task-10", "10", "b", "2", "task-9", "-1", "1.5", "1.10", "a2", "a10",
	                     "02", "" };
	const char *want[] = { "-1", "1.10", "1.5", "02", "2", "10", "", "a2", "a10", "b",
	                       "task-9", "task-10" };
	struct diff d;
	diff_init(&d, 1);
	for (size_t i = 0; i < sizeof in / sizeof *in; i++)
		diff_task_of(&d, in[i]);
	assert_int_equal(d.ntasks, sizeof in / sizeof *in);
	assert_ptr_equal(diff_task_of(&d, "2"), diff_task_of(&d, "2"));
	assert_int_equal(d.ntasks, sizeof in / sizeof *in);
	diff_sort(&d);
	for (size_t i = 0; i < d.ntasks; i++)
		assert_string_equal(d.tasks[i]->text, want[i]);
	diff_free(&d);
}

static enum diff_change change(unsigned nb, unsigned kb, unsigned nc, unsigned kc)
{
	struct diff_count c[DIFF_SIDES] = { { nb, kb }, { nc, kc } };
	struct diff_task t = { .text = "t", .counts = c };
	return diff_change_of(&t, 0);
}

static void test_change(void **state)
{
	(void)state;
	assert_int_equal(change(1, 1, 1, 0), DIFF_BROKE);
	assert_int_equal(change(1, 0, 1, 1), DIFF_FIXED);
	assert_int_equal(change(1, 1, 1, 1), DIFF_SAME_PASS);
	assert_int_equal(change(1, 0, 1, 0), DIFF_SAME_FAIL);
	assert_int_equal(change(2, 2, 2, 1), DIFF_BROKE);
	assert_int_equal(change(2, 1, 4, 2), DIFF_SAME_FAIL);     /* one half is not passing */
	assert_int_equal(change(3, 2, 6, 4), DIFF_SAME_PASS);
	assert_int_equal(change(3, 1, 2, 1), DIFF_FIXED);         /* 1/3 -> 1/2 */
	assert_int_equal(change(1, 1, 0, 0), DIFF_ONLY_BASE);
	assert_int_equal(change(0, 0, 3, 0), DIFF_ONLY_CAND);
	assert_int_equal(change(0, 0, 0, 0), DIFF_NONE);
	assert_string_equal(diff_change_name(DIFF_SAME_PASS), "same-pass");
	assert_string_equal(diff_change_name(DIFF_ONLY_CAND), "only-cand");
}

static void add(struct diff *d, const char *task, unsigned nb, unsigned kb, unsigned nc,
                unsigned kc)
{
	struct diff_task *t = diff_task_of(d, task);
	t->counts[DIFF_BASE] = (struct diff_count){ nb, kb };
	t->counts[DIFF_CAND] = (struct diff_count){ nc, kc };
}

static void test_summary(void **state)
{
	(void)state;
	struct diff d;
	diff_init(&d, 1);
	d.rows[0] = (struct diff_row){ .id = "s", .shown = true };
	add(&d, "1", 2, 2, 2, 1);       /* broke */
	add(&d, "2", 2, 0, 3, 3);       /* fixed */
	add(&d, "3", 2, 1, 2, 1);       /* same-fail */
	add(&d, "4", 1, 1, 0, 0);       /* only-base: not in the rates */
	struct diff_summary s;
	diff_summarize(&d, 0, &s);
	assert_int_equal(s.both, 3);
	assert_int_equal(s.n[DIFF_BROKE], 1);
	assert_int_equal(s.n[DIFF_FIXED], 1);
	assert_int_equal(s.n[DIFF_SAME_FAIL], 1);
	assert_int_equal(s.n[DIFF_ONLY_BASE], 1);
	assert_true(s.rated);
	assert_true(fabs(s.rate[DIFF_BASE] - (1 + 0 + 0.5) / 3) < 1e-12);
	assert_true(fabs(s.rate[DIFF_CAND] - (0.5 + 1 + 0.5) / 3) < 1e-12);
	/* pass^2 of the base: C(2,2)/C(2,2), 0, 0 over three tasks; the
	 * candidate's: 0, C(3,2)/C(3,2), 0. */
	assert_int_equal(s.k[DIFF_BASE], 2);
	assert_int_equal(s.k[DIFF_CAND], 2);
	assert_true(fabs(s.pass_k[DIFF_BASE][1] - 1.0 / 3) < 1e-12);
	assert_true(fabs(s.pass_k[DIFF_CAND][1] - 1.0 / 3) < 1e-12);
	assert_true(fabs(s.p - 1.0) < 1e-12);
	assert_true(diff_any_broke(&d));
	d.rows[0].shown = false;
	assert_false(diff_any_broke(&d));
	diff_summary_free(&s);
	diff_free(&d);

	/* Nothing on both sides: no rate, p 1. */
	diff_init(&d, 1);
	add(&d, "x", 0, 0, 1, 1);
	diff_summarize(&d, 0, &s);
	assert_false(s.rated);
	assert_int_equal(s.k[DIFF_BASE], 0);
	assert_null(s.pass_k[DIFF_BASE]);
	assert_true(s.p == 1);
	diff_summary_free(&s);
	diff_free(&d);

	/* 10 fixed, none broke: p = 2 / 2^10. */
	diff_init(&d, 1);
	char name[8];
	for (int i = 0; i < 10; i++) {
		snprintf(name, sizeof name, "%d", i);
		add(&d, name, 1, 0, 1, 1);
	}
	diff_summarize(&d, 0, &s);
	assert_true(fabs(s.p - 2.0 / 1024) < 1e-15);
	diff_summary_free(&s);
	diff_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_change),
		cmocka_unit_test(test_summary),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
