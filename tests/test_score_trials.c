/* test_score_trials.c - cli/score_trials: verdicts counted by task (skips
 * and errors left out, runs without a task counted apart), each scorer's k
 * up to its own fewest counted trials, the figures against hand-worked
 * ratios, and the jsonl writer's lines and order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "cli/score_trials.h"
#include "config/config.h"
#include "scorers/params.h"

/* One run's verdicts on two scorers: s0 passed or failed as given, s1 as
 * given (st1 its status). */
static void add_run(struct score_trials *t, const char *task, bool p0, enum verdict_status st1,
                    bool p1)
{
	struct trials_task *counts = score_trials_task(t, task);
	score_trials_verdict(t, counts, 0, VERDICT_OK, p0);
	score_trials_verdict(t, counts, 1, st1, p1);
}

/* Tasks x (2 trials: pass, fail) and y (3: pass, pass, fail) on s0; s1
 * errs on one of x's and skips one of y's; one run has no task. */
static struct score_trials *sample(void)
{
	struct score_trials *t = score_trials_new("task_id", 2);
	add_run(t, "x", true, VERDICT_OK, true);
	add_run(t, "y", true, VERDICT_OK, true);
	add_run(t, NULL, true, VERDICT_OK, true);
	add_run(t, "x", false, VERDICT_ERROR, false);
	add_run(t, "y", true, VERDICT_SKIPPED, false);
	add_run(t, "y", false, VERDICT_OK, false);
	return t;
}

static void test_counts(void **state)
{
	(void)state;
	struct score_trials *t = sample();
	assert_string_equal(score_trials_spec(t), "task_id");
	assert_int_equal(score_trials_runs(t), 6);
	assert_int_equal(score_trials_untasked(t), 1);

	struct score_trials_figs f;
	score_trials_figures(t, 0, &f);
	assert_int_equal(f.tasks, 2);
	assert_int_equal(f.trials, 5);
	assert_int_equal(f.left_out, 0);
	assert_int_equal(f.nk, 2);
	/* k=1: (1/2 + 2/3)/2; k=2: (0 + C(2,2)/C(3,2))/2 = 1/6;
	 * pass@2: (1 + (1 - 0))/2 = 1 (one fail of 3 cannot fill 2). */
	assert_true(fabs(f.k[0].hat - (0.5 + 2.0 / 3) / 2) < 1e-15);
	assert_true(fabs(f.k[0].at - f.k[0].hat) < 1e-15);
	assert_true(fabs(f.k[1].hat - 1.0 / 6) < 1e-15);
	assert_true(fabs(f.k[1].at - 1.0) < 1e-15);
	assert_int_equal(f.k[1].k, 2);
	assert_int_equal(f.k[1].tasks, 2);
	score_trials_figs_free(&f);

	/* s1: x has one counted trial, y two: k stops at 1. */
	score_trials_figures(t, 1, &f);
	assert_int_equal(f.tasks, 2);
	assert_int_equal(f.trials, 3);
	assert_int_equal(f.left_out, 2);
	assert_int_equal(f.nk, 1);
	assert_true(fabs(f.k[0].hat - (1.0 + 0.5) / 2) < 1e-15);
	score_trials_figs_free(&f);

	/* A scorer out of range has nothing. */
	score_trials_figures(t, 7, &f);
	assert_int_equal(f.nk, 0);
	assert_null(f.k);
	score_trials_free(t);
}

static void test_no_trial(void **state)
{
	(void)state;
	struct score_trials *t = score_trials_new("task_id", 1);
	struct trials_task *counts = score_trials_task(t, "x");
	score_trials_verdict(t, counts, 0, VERDICT_ERROR, false);
	score_trials_verdict(t, NULL, 0, VERDICT_OK, true);    /* a run without a task */
	struct score_trials_figs f;
	score_trials_figures(t, 0, &f);
	assert_int_equal(f.tasks, 0);
	assert_int_equal(f.nk, 0);
	assert_int_equal(f.left_out, 1);
	score_trials_figs_free(&f);
	score_trials_free(t);
	score_trials_free(NULL);
}

/* Many tasks: the table grows and each keeps its own counts. */
static void test_many_tasks(void **state)
{
	(void)state;
	struct score_trials *t = score_trials_new("id", 1);
	char name[32];
	for (int round = 0; round < 3; round++)
		for (int i = 0; i < 1000; i++) {
			snprintf(name, sizeof name, "task-%d", i);
			struct trials_task *counts = score_trials_task(t, name);
			score_trials_verdict(t, counts, 0, VERDICT_OK, i % 2 == 0 || round == 0);
		}
	struct score_trials_figs f;
	score_trials_figures(t, 0, &f);
	assert_int_equal(f.tasks, 1000);
	assert_int_equal(f.trials, 3000);
	assert_int_equal(f.nk, 3);
	/* even tasks 3/3, odd 1/3: pass^3 = 1/2, pass@3 = 1 */
	assert_true(fabs(f.k[2].hat - 0.5) < 1e-12);
	assert_true(fabs(f.k[2].at - 1.0) < 1e-12);
	score_trials_figs_free(&f);
	score_trials_free(t);
}

/* The figures are trials_mean's, bit for bit, at every k (they are made
 * one factor a k instead of k factors). */
static void test_same_as_trials_mean(void **state)
{
	(void)state;
	struct trials_task tasks[40];
	struct score_trials *t = score_trials_new("id", 1);
	unsigned seed = 12345;
	char name[16];
	for (size_t j = 0; j < 40; j++) {
		seed = seed * 1103515245u + 12345u;
		tasks[j].n = 30 + (seed >> 16) % 31;
		seed = seed * 1103515245u + 12345u;
		tasks[j].c = (seed >> 16) % (tasks[j].n + 1);
		snprintf(name, sizeof name, "t%zu", j);
		struct trials_task *counts = score_trials_task(t, name);
		for (unsigned r = 0; r < tasks[j].n; r++)
			score_trials_verdict(t, counts, 0, VERDICT_OK, r < tasks[j].c);
	}
	struct score_trials_figs f;
	score_trials_figures(t, 0, &f);
	assert_int_equal(f.nk, trials_k_max(tasks, 40));
	assert_true(f.nk >= 30);
	for (unsigned k = 1; k <= f.nk; k++) {
		double hat, at;
		size_t counted;
		assert_true(trials_mean(tasks, 40, k, false, &hat, &counted));
		assert_true(trials_mean(tasks, 40, k, true, &at, &counted));
		assert_true(f.k[k - 1].hat == hat);
		assert_true(f.k[k - 1].at == at);
		assert_int_equal(f.k[k - 1].tasks, counted);
	}
	score_trials_figs_free(&f);
	score_trials_free(t);
}

/* One task of many trials (a key every run shares) takes a factor per k. */
static void test_one_big_task(void **state)
{
	(void)state;
	struct score_trials *t = score_trials_new("id", 1);
	struct trials_task *counts = score_trials_task(t, "all");
	for (unsigned r = 0; r < 200000; r++)
		score_trials_verdict(t, counts, 0, VERDICT_OK, r % 4 != 0);
	struct score_trials_figs f;
	score_trials_figures(t, 0, &f);
	assert_int_equal(f.nk, 200000);
	assert_true(fabs(f.k[0].hat - 0.75) < 1e-15);
	assert_true(f.k[199999].hat == 0);
	assert_true(f.k[199999].at == 1);
	score_trials_figs_free(&f);
	score_trials_free(t);
}

static void test_jsonl(void **state)
{
	(void)state;
	struct score_trials *t = sample();
	struct scorer_conf sc[2];
	memset(sc, 0, sizeof sc);
	char id0[] = "s0", id1[] = "s\"1";
	sc[0].id = id0;
	sc[1].id = id1;
	struct config c;
	memset(&c, 0, sizeof c);
	c.scorers = sc;
	c.nscorers = 2;
	char *out = NULL, *err = NULL;
	size_t nout = 0, nerr = 0;
	FILE *fo = open_memstream(&out, &nout), *fe = open_memstream(&err, &nerr);
	score_trials_jsonl(fo, fe, &c, t);
	fclose(fo);
	fclose(fe);
	assert_string_equal(out,
		"{\"type\":\"pass^k\",\"scorer\":\"s0\",\"k\":1,\"value\":0.5833333333333333,\"tasks\":2}\n"
		/* pass@1 is c/n as pass^1 is: the same value to the last digit */
		"{\"type\":\"pass@k\",\"scorer\":\"s0\",\"k\":1,\"value\":0.5833333333333333,\"tasks\":2}\n"
		"{\"type\":\"pass^k\",\"scorer\":\"s0\",\"k\":2,\"value\":0.16666666666666666,\"tasks\":2}\n"
		"{\"type\":\"pass@k\",\"scorer\":\"s0\",\"k\":2,\"value\":1,\"tasks\":2}\n"
		"{\"type\":\"pass^k\",\"scorer\":\"s\\\"1\",\"k\":1,\"value\":0.75,\"tasks\":2}\n"
		"{\"type\":\"pass@k\",\"scorer\":\"s\\\"1\",\"k\":1,\"value\":0.75,\"tasks\":2}\n");
	assert_string_equal(err,
		"tcreview score: s\"1: 2 verdicts skipped or in error: left out of pass^k\n");
	free(out);
	free(err);
	score_trials_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_no_trial),
		cmocka_unit_test(test_many_tasks),
		cmocka_unit_test(test_same_as_trials_mean),
		cmocka_unit_test(test_one_big_task),
		cmocka_unit_test(test_jsonl),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
