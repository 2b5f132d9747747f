/* test_trials.c - util/trials: pass^k and pass@k against hand-worked
 * binomial ratios, their mean over tasks and its limits, and McNemar's
 * exact p against sums of binomial terms written out in integers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <cmocka.h>

#include "util/trials.h"

#define N_(a) (sizeof(a) / sizeof((a)[0]))
#define assert_near(got, want, eps) near_at((got), (want), (eps), __FILE__, __LINE__)

static void near_at(double got, double want, double eps, const char *file, int line)
{
	if (fabs(got - want) <= eps)
		return;
	print_error("%.17g is not %.17g (within %g)\n", got, want, eps);
	_fail(file, line);
}

/* C(n,k) in integers, for the expected values below. */
static uint64_t choose(unsigned n, unsigned k)
{
	if (k > n)
		return 0;
	uint64_t r = 1;
	for (unsigned i = 1; i <= k; i++)
		r = r * (n - k + i) / i;
	return r;
}

static void test_pass_hat_k(void **state)
{
	(void)state;
	double v;
	/* 4 trials, 3 passed: k=1 3/4, k=2 C(3,2)/C(4,2) = 3/6, k=3 1/4, k=4 0. */
	assert_true(trials_pass_hat_k(4, 3, 1, &v));
	assert_near(v, 0.75, 1e-15);
	assert_true(trials_pass_hat_k(4, 3, 2, &v));
	assert_near(v, 0.5, 1e-15);
	assert_true(trials_pass_hat_k(4, 3, 3, &v));
	assert_near(v, 0.25, 1e-15);
	assert_true(trials_pass_hat_k(4, 3, 4, &v));
	assert_near(v, 0, 0);
	/* Every n, c, k up to 12 against the integer ratio. */
	for (unsigned n = 1; n <= 12; n++)
		for (unsigned c = 0; c <= n; c++)
			for (unsigned k = 1; k <= n; k++) {
				assert_true(trials_pass_hat_k(n, c, k, &v));
				assert_near(v, (double)choose(c, k) / (double)choose(n, k), 1e-14);
				assert_true(trials_pass_at_k(n, c, k, &v));
				assert_near(v, 1 - (double)choose(n - c, k) / (double)choose(n, k), 1e-14);
			}
	/* Undefined: k 0, k over n, c over n. */
	v = 9;
	assert_false(trials_pass_hat_k(2, 1, 0, &v));
	assert_true(v == 0);
	assert_false(trials_pass_hat_k(2, 1, 3, &v));
	assert_false(trials_pass_at_k(2, 3, 1, &v));
}

static void test_mean_over_tasks(void **state)
{
	(void)state;
	/* tasks (2,2) (2,1) (3,0) (0,0): k max 2, the empty task left out. */
	const struct trials_task t[] = { { 2, 2 }, { 2, 1 }, { 3, 0 }, { 0, 0 } };
	assert_int_equal(trials_k_max(t, N_(t)), 2);
	double v;
	size_t m;
	assert_true(trials_mean(t, N_(t), 1, false, &v, &m));
	assert_int_equal(m, 3);
	assert_near(v, (1.0 + 0.5 + 0) / 3, 1e-15);
	assert_true(trials_mean(t, N_(t), 2, false, &v, &m));
	assert_near(v, (1.0 + 0 + 0) / 3, 1e-15);
	assert_true(trials_mean(t, N_(t), 2, true, &v, &m));
	assert_near(v, (1.0 + 1.0 + 0) / 3, 1e-15);
	/* k beyond a task's trials: refused, not averaged over the rest. */
	assert_false(trials_mean(t, N_(t), 3, false, &v, &m));
	assert_int_equal(m, 0);
	assert_false(trials_mean(t, 0, 1, false, &v, &m));
	assert_int_equal(trials_k_max(t + 3, 1), 0);
}

/* 2 * sum_{i <= min} C(n,i) / 2^n, in integers up to n = 60. */
static double mcnemar_by_hand(unsigned b, unsigned c)
{
	unsigned n = b + c, lo = b < c ? b : c;
	uint64_t sum = 0;
	for (unsigned i = 0; i <= lo; i++)
		sum += choose(n, i);
	double p = 2.0 * (double)sum / ldexp(1.0, (int)n);
	return p > 1 ? 1 : p;
}

static void test_mcnemar(void **state)
{
	(void)state;
	assert_near(trials_mcnemar_exact(0, 0), 1, 0);
	/* 2 fixed, 0 broken: 2 * 1/4 = 0.5, not a win. */
	assert_near(trials_mcnemar_exact(0, 2), 0.5, 1e-15);
	assert_near(trials_mcnemar_exact(2, 0), 0.5, 1e-15);
	/* 6 against 0: 2/64. 1 against 9: 2 * 11/1024. */
	assert_near(trials_mcnemar_exact(6, 0), 2.0 / 64, 1e-15);
	assert_near(trials_mcnemar_exact(1, 9), 22.0 / 1024, 1e-15);
	assert_near(trials_mcnemar_exact(5, 5), 1, 0);
	for (unsigned b = 0; b <= 30; b++)
		for (unsigned c = 0; c <= 30; c++)
			assert_near(trials_mcnemar_exact(b, c), mcnemar_by_hand(b, c), 1e-13);
	/* Beyond a double's 2^-n: in logs, still a probability, and symmetric. */
	double p = trials_mcnemar_exact(700, 800);
	assert_true(p > 0 && p < 0.02);
	assert_near(p, trials_mcnemar_exact(800, 700), 1e-15);
	double q = trials_mcnemar_exact(1000, 1001);
	assert_near(q, 1, 1e-9);
	assert_near(trials_mcnemar_exact(3000, 3000), 1, 0);
}

/* Every k at once, bit for bit what trials_mean gives k by k, on seeded
 * random tasks; a long key (one task of many trials) in one pass. */
static void test_curve(void **state)
{
	(void)state;
	uint32_t seed = 27;
	struct trials_task t[12];
	double hat[40], at[40];
	for (int round = 0; round < 200; round++) {
		size_t nt = 1 + (size_t)(round % 12);
		for (size_t j = 0; j < nt; j++) {
			seed = seed * 1664525u + 1013904223u;
			t[j].n = (seed >> 8) % 40;
			seed = seed * 1664525u + 1013904223u;
			t[j].c = t[j].n ? (seed >> 8) % (t[j].n + 1) : 0;
		}
		unsigned kmax = trials_k_max(t, nt);
		size_t m, mm;
		if (!kmax) {
			assert_false(trials_curve(t, nt, 1, hat, at, &m));
			continue;
		}
		assert_true(trials_curve(t, nt, kmax, hat, at, &m));
		for (unsigned k = 1; k <= kmax; k++) {
			double v;
			assert_true(trials_mean(t, nt, k, false, &v, &mm));
			assert_true(v == hat[k - 1]);
			assert_int_equal(m, mm);
			assert_true(trials_mean(t, nt, k, true, &v, &mm));
			assert_true(v == at[k - 1]);
		}
		assert_false(trials_curve(t, nt, kmax + 1, hat, at, &m));
	}
	/* One task of 100 000 trials, 60 000 passed: every k in one pass. */
	struct trials_task big = { 100000, 60000 };
	double *h = malloc(100000 * sizeof *h);
	size_t m;
	assert_true(trials_curve(&big, 1, 100000, h, NULL, &m));
	assert_int_equal(m, 1);
	assert_near(h[0], 0.6, 1e-15);
	assert_near(h[1], 0.6 * 59999.0 / 99999.0, 1e-15);
	assert_true(h[60000] == 0);
	free(h);
	struct trials_task bad = { 2, 3 };
	assert_false(trials_curve(&bad, 1, 1, hat, at, &m));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pass_hat_k),
		cmocka_unit_test(test_mean_over_tasks),
		cmocka_unit_test(test_mcnemar),
		cmocka_unit_test(test_curve),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
