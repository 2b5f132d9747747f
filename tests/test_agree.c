/* test_agree.c - util/agree: every figure against hand-computed cases and
 * published worked examples (the source of each cited beside it), the
 * undefined cases of each, and the seeded bootstrap. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "util/agree.h"

#define N_(a) (sizeof(a) / sizeof((a)[0]))
#define MISS NAN

/* cmocka's float assertion is single precision; these figures need more. */
#define assert_near(got, want, eps) near_at((got), (want), (eps), __FILE__, __LINE__)

static void near_at(double got, double want, double eps, const char *file, int line)
{
	if (fabs(got - want) <= eps)
		return;
	print_error("%.17g is not %.17g (within %g)\n", got, want, eps);
	_fail(file, line);
}

/* An undefined figure: false, the given reason, and 0 in `out` (the
 * caller's variable the call writes), not NaN. */
#define assert_undefined(call, text)                                                               \
	do {                                                                                       \
		out = 123.0;                                                                       \
		why = NULL;                                                                        \
		assert_false(call);                                                                \
		assert_string_equal(why, (text));                                                  \
		assert_true(out == 0.0);                                                           \
	} while (0)

/* Expands a 2x2 or kxk table of counts into the two raters' ratings. */
static size_t from_table(const size_t *counts, size_t k, int *a, int *b)
{
	size_t n = 0;
	for (size_t i = 0; i < k; i++)
		for (size_t j = 0; j < k; j++)
			for (size_t c = 0; c < counts[i * k + j]; c++, n++) {
				a[n] = (int)i;
				b[n] = (int)j;
			}
	return n;
}

/* ---- exact, within-one, confusion ------------------------------------ */

static void test_exact_and_within_one(void **st)
{
	(void)st;
	/* By hand: 2 of 5 equal; |a - b| <= 1 on 4 of 5 (only 1 vs 4 is not). */
	int a[] = {1, 2, 3, 4, 5}, b[] = {1, 3, 3, 1, 4};
	double out;
	agree_why why = "set";
	assert_true(agree_exact(a, b, 5, &out, &why));
	assert_null(why);
	assert_near(out, 0.4, 1e-15);
	assert_true(agree_within_one(a, b, 5, &out, &why));
	assert_near(out, 0.8, 1e-15);
	assert_true(agree_exact(a, a, 5, &out, NULL));   /* why may be NULL */
	assert_near(out, 1.0, 0);
	assert_undefined(agree_exact(a, b, 0, &out, &why), "no items");
	assert_undefined(agree_within_one(a, b, 0, &out, &why), "no items");
	assert_false(agree_exact(NULL, NULL, 0, &out, NULL));
	/* Extreme ints do not overflow the difference. */
	int lo[] = {-2147483647 - 1}, hi[] = {2147483647};
	assert_true(agree_within_one(lo, hi, 1, &out, &why));
	assert_near(out, 0.0, 0);
}

static void test_confusion(void **st)
{
	(void)st;
	int a[] = {0, 0, 1, 1, 1, 2, 7, -1}, b[] = {0, 1, 1, 1, 2, 0, 0, 0};
	size_t counts[9];
	memset(counts, 0xff, sizeof counts);        /* it must clear them itself */
	agree_confusion(a, b, N_(a), 3, counts);
	size_t want[9] = {1, 1, 0, 0, 2, 1, 1, 0, 0};    /* 7 and -1 are off the scale */
	assert_memory_equal(counts, want, sizeof want);
	agree_confusion(a, b, 0, 3, counts);
	size_t zero[9] = {0};
	assert_memory_equal(counts, zero, sizeof zero);
}

/* ---- Cohen's kappa --------------------------------------------------- */

static void test_kappa_published(void **st)
{
	(void)st;
	/* Wikipedia, "Cohen's kappa", worked example: 50 grant proposals read
	 * by A and B; 20 yes/yes, 15 no/no, A yes B no 5, A no B yes 10;
	 * po = 0.7, pe = 0.5, kappa = 0.4. (The same table is worked through
	 * in tutorialspoint's "Statistics - Cohen's kappa coefficient".) */
	size_t table[4] = {15, 10, 5, 20};        /* rows A: no, yes; columns B */
	int a[50], b[50];
	size_t n = from_table(table, 2, a, b);
	assert_int_equal(n, 50);
	double out;
	agree_why why;
	assert_true(agree_kappa(a, b, n, 2, &out, &why));
	assert_null(why);
	assert_near(out, 0.4, 1e-15);
	assert_true(agree_exact(a, b, n, &out, &why));
	assert_near(out, 0.7, 1e-15);
	size_t counts[4];
	agree_confusion(a, b, n, 2, counts);
	assert_memory_equal(counts, table, sizeof table);
}

static void test_kappa_by_hand(void **st)
{
	(void)st;
	/* By hand, 3 categories: rows a, columns b
	 *   [4 1 0; 1 3 1; 0 1 4], n = 15, po = 11/15,
	 *   marginals 5, 5, 5 both, pe = 3 * 25 / 225 = 1/3,
	 *   kappa = (11/15 - 1/3) / (2/3) = 0.6. */
	size_t table[9] = {4, 1, 0, 1, 3, 1, 0, 1, 4};
	int a[15], b[15];
	size_t n = from_table(table, 3, a, b);
	double out;
	agree_why why;
	assert_true(agree_kappa(a, b, n, 3, &out, &why));
	assert_near(out, 0.6, 1e-15);
	/* Perfect agreement is 1; a category nobody used changes nothing. */
	assert_true(agree_kappa(a, a, n, 3, &out, &why));
	assert_near(out, 1.0, 1e-15);
	assert_true(agree_kappa(a, a, n, 5, &out, &why));
	assert_near(out, 1.0, 1e-15);
	/* By hand: complete disagreement with balanced marginals,
	 * po = 0, pe = 1/2, kappa = -1. */
	int x[] = {0, 1, 0, 1}, y[] = {1, 0, 1, 0};
	assert_true(agree_kappa(x, y, 4, 2, &out, &why));
	assert_near(out, -1.0, 1e-15);
	/* Each rater constant but on different categories: po = pe = 0,
	 * kappa = 0, defined. */
	int zeros[] = {0, 0, 0}, ones[] = {1, 1, 1};
	assert_true(agree_kappa(zeros, ones, 3, 2, &out, &why) && out == 0.0);
}

static void test_kappa_undefined(void **st)
{
	(void)st;
	int ones[] = {1, 1, 1, 1}, mixed[] = {0, 1, 2, 1}, off[] = {0, 1, 5, 1};
	int neg[] = {0, -1, 0, 1};
	double out;
	agree_why why;
	assert_undefined(agree_kappa(ones, ones, 4, 2, &out, &why), "one category only");
	assert_undefined(agree_kappa(ones, ones, 0, 2, &out, &why), "no items");
	/* k == 1: every rating is 0, pe = 1. */
	int z[] = {0, 0};
	assert_undefined(agree_kappa(z, z, 2, 1, &out, &why), "one category only");
	assert_undefined(agree_kappa(mixed, off, 4, 3, &out, &why), "rating outside the scale");
	assert_undefined(agree_kappa(neg, mixed, 4, 3, &out, &why), "rating outside the scale");
	assert_undefined(agree_kappa(mixed, mixed, 4, 0, &out, &why), "rating outside the scale");
}

/* ---- quadratic-weighted kappa ---------------------------------------- */

static void test_kappa_quadratic_published(void **st)
{
	(void)st;
	/* Maple help, EssayTools[QuadraticWeightedKappa], its two examples
	 * (scale from the data's minimum 1 to maximum 10):
	 *   [9,7,8,7,6,8,3,5,10] vs [8,8,6,6,7,6,1,4,8] -> 0.758620689655172
	 *   [9,7,8,7,6,8,3,5,10] vs [3,5,6,6,7,6,1,4,8] -> 0.438095238095238
	 * (22/29 and 46/105; our scale is 0..k-1, so each value minus 1). */
	int a[] = {9, 7, 8, 7, 6, 8, 3, 5, 10};
	int b1[] = {8, 8, 6, 6, 7, 6, 1, 4, 8}, b2[] = {3, 5, 6, 6, 7, 6, 1, 4, 8};
	for (size_t i = 0; i < N_(a); i++) {
		a[i]--;
		b1[i]--;
		b2[i]--;
	}
	double out;
	agree_why why;
	assert_true(agree_kappa_quadratic(a, b1, N_(a), 10, &out, &why));
	assert_null(why);
	assert_near(out, 0.758620689655172, 1e-14);
	assert_near(out, 22.0 / 29.0, 1e-15);
	assert_true(agree_kappa_quadratic(a, b2, N_(a), 10, &out, &why));
	assert_near(out, 0.438095238095238, 1e-14);
	assert_near(out, 46.0 / 105.0, 1e-15);
}

static void test_kappa_quadratic_by_hand(void **st)
{
	(void)st;
	/* By hand, k = 3, weights w = (i - j)^2 / 4:
	 *   a = 0 1 2 2, b = 0 2 2 1: observed weighted disagreement
	 *   (1/4 + 1/4) / 4 = 1/8; marginals 1 1 2 both, expected
	 *   sum w r_i c_j / n^2 = (22/4) / 16 = 11/32; kappa = 1 - 4/11 = 7/11. */
	int a[] = {0, 1, 2, 2}, b[] = {0, 2, 2, 1};
	double out;
	agree_why why;
	assert_true(agree_kappa_quadratic(a, b, 4, 3, &out, &why));
	assert_near(out, 7.0 / 11.0, 1e-15);
	/* With two categories the quadratic weights are the unweighted ones:
	 * the Wikipedia table above gives 0.4 again. */
	size_t table[4] = {15, 10, 5, 20};
	int x[50], y[50];
	size_t n = from_table(table, 2, x, y);
	assert_true(agree_kappa_quadratic(x, y, n, 2, &out, &why));
	assert_near(out, 0.4, 1e-15);
	/* One rater constant (2, 2, 2), the other 0 1 2: sum (a - b)^2 = 5,
	 * sum (i - j)^2 r_i c_j = 3 * (4 + 1 + 0) = 15, kappa = 1 - 3 * 5 / 15
	 * = 0, defined. */
	int c[] = {2, 2, 2}, v[] = {0, 1, 2};
	assert_true(agree_kappa_quadratic(c, v, 3, 3, &out, &why));
	assert_near(out, 0.0, 1e-15);
	assert_true(agree_kappa_quadratic(v, v, 3, 3, &out, &why));
	assert_near(out, 1.0, 1e-15);
	/* Reversed order on three categories: (0,2) (1,1) (2,0),
	 * sum (a - b)^2 = 8, sum (i - j)^2 r_i c_j = 2 * (1 + 4 + 1) = 12,
	 * kappa = 1 - 3 * 8 / 12 = -1. */
	int r[] = {2, 1, 0};
	assert_true(agree_kappa_quadratic(v, r, 3, 3, &out, &why));
	assert_near(out, -1.0, 1e-15);
	/* Undefined: one common category, k == 1, no items, off the scale. */
	assert_undefined(agree_kappa_quadratic(c, c, 3, 3, &out, &why), "one category only");
	int z[] = {0, 0};
	assert_undefined(agree_kappa_quadratic(z, z, 2, 1, &out, &why), "one category only");
	assert_undefined(agree_kappa_quadratic(a, b, 0, 3, &out, &why), "no items");
	assert_undefined(agree_kappa_quadratic(a, b, 4, 2, &out, &why), "rating outside the scale");
}

/* ---- Spearman's rho, MAE --------------------------------------------- */

static void test_spearman_published(void **st)
{
	(void)st;
	/* Wikipedia, "Spearman's rank correlation coefficient", example: IQ
	 * against hours of TV a week for 10 people, sum d^2 = 194,
	 * rho = 1 - 6 * 194 / (10 * 99) = -29/165 = -0.175757... */
	double iq[] = {106, 86, 100, 101, 99, 103, 97, 113, 112, 110};
	double tv[] = {7, 0, 27, 50, 28, 29, 20, 12, 6, 17};
	double out;
	agree_why why;
	assert_true(agree_spearman(iq, tv, 10, &out, &why));
	assert_null(why);
	assert_near(out, -29.0 / 165.0, 1e-15);
	assert_true(agree_spearman(tv, iq, 10, &out, &why));    /* symmetric */
	assert_near(out, -29.0 / 165.0, 1e-15);
}

static void test_spearman_by_hand(void **st)
{
	(void)st;
	/* By hand with a tie: a = 1 2 2 3 ranks 1, 2.5, 2.5, 4; b = 1 2 3 4.
	 * Deviations from 2.5: (-1.5, 0, 0, 1.5) and (-1.5, -.5, .5, 1.5);
	 * sxy = 4.5, sxx = 4.5, syy = 5, rho = 4.5 / sqrt(22.5) = 3 / sqrt(10). */
	double a[] = {1, 2, 2, 3}, b[] = {1, 2, 3, 4};
	double out;
	agree_why why;
	assert_true(agree_spearman(a, b, 4, &out, &why));
	assert_near(out, 3.0 / sqrt(10.0), 1e-15);
	/* Any increasing map is +1, any decreasing one -1, order of input free. */
	double x[] = {0.3, 0.1, 0.9, 0.5}, up[] = {30, 1, 1000, 31}, down[] = {-3, -1, -9, -5};
	assert_true(agree_spearman(x, up, 4, &out, &why));
	assert_near(out, 1.0, 1e-15);
	assert_true(agree_spearman(x, down, 4, &out, &why));
	assert_near(out, -1.0, 1e-15);
	/* Two items are enough. */
	assert_true(agree_spearman(a, b, 2, &out, &why));
	assert_near(out, 1.0, 1e-15);
	/* Undefined: fewer than 2 items, a constant rater, a missing value. */
	double c[] = {4, 4, 4, 4}, m[] = {1, MISS, 2, 3}, inf[] = {1, INFINITY, 2, 3};
	assert_undefined(agree_spearman(a, b, 1, &out, &why), "fewer than 2 items");
	assert_undefined(agree_spearman(a, b, 0, &out, &why), "fewer than 2 items");
	assert_undefined(agree_spearman(c, b, 4, &out, &why), "constant ratings");
	assert_undefined(agree_spearman(b, c, 4, &out, &why), "constant ratings");
	assert_undefined(agree_spearman(m, b, 4, &out, &why), "missing value");
	assert_undefined(agree_spearman(b, inf, 4, &out, &why), "missing value");
}

static void test_mae(void **st)
{
	(void)st;
	/* By hand: |1-2| + |3-3| + |5-2| + |0.5-1| = 4.5 over 4 = 1.125. */
	double a[] = {1, 3, 5, 0.5}, b[] = {2, 3, 2, 1};
	double out;
	agree_why why;
	assert_true(agree_mae(a, b, 4, &out, &why));
	assert_null(why);
	assert_near(out, 1.125, 1e-15);
	assert_true(agree_mae(a, a, 4, &out, &why) && out == 0.0);
	double m[] = {1, MISS, 1, 1};
	assert_undefined(agree_mae(a, b, 0, &out, &why), "no items");
	assert_undefined(agree_mae(m, b, 4, &out, &why), "missing value");
}

/* ---- Krippendorff's alpha -------------------------------------------- */

/* Krippendorff, K. (2011), "Computing Krippendorff's Alpha-Reliability",
 * the reliability data with missing values: 4 observers (rows here
 * transposed to units x raters) on 12 units. Published: nominal 0.743,
 * ordinal 0.815, interval 0.849 (also the expected values of the test
 * suites of the Python "krippendorff" package and of Perl's
 * Statistics::Krippendorff, from which the table was checked). */
static const double k2011[12 * 4] = {
	/*  A     B     C     D  */
	1,    1,    MISS, 1,        /* unit 1 */
	2,    2,    3,    2,        /* 2 */
	3,    3,    3,    3,        /* 3 */
	3,    3,    3,    3,        /* 4 */
	2,    2,    2,    2,        /* 5 */
	1,    2,    3,    4,        /* 6 */
	4,    4,    4,    4,        /* 7 */
	1,    1,    2,    1,        /* 8 */
	2,    2,    2,    2,        /* 9 */
	MISS, 5,    5,    5,        /* 10 */
	MISS, MISS, 1,    1,        /* 11 */
	MISS, 3,    MISS, MISS,     /* 12: one value, no pairs */
};

static void test_alpha_krippendorff_2011(void **st)
{
	(void)st;
	double out;
	agree_why why;
	assert_true(agree_alpha(k2011, 12, 4, AGREE_NOMINAL, &out, &why));
	assert_null(why);
	assert_near(out, 0.743, 0.0005);
	assert_near(out, 113.0 / 152.0, 1e-14);    /* the exact value by coincidences */
	assert_true(agree_alpha(k2011, 12, 4, AGREE_ORDINAL, &out, &why));
	assert_near(out, 0.815, 0.0005);
	assert_near(out, 108577.0 / 133160.0, 1e-14);
	assert_true(agree_alpha(k2011, 12, 4, AGREE_INTERVAL, &out, &why));
	assert_near(out, 0.849, 0.0005);
	assert_near(out, 951.0 / 1120.0, 1e-14);
	/* The lone value of unit 12 is left out: dropping the unit changes nothing. */
	double again;
	assert_true(agree_alpha(k2011, 11, 4, AGREE_ORDINAL, &again, &why));
	assert_near(again, 108577.0 / 133160.0, 1e-14);
	/* Ordinal alpha depends on the order only: 1 2 3 4 5 -> 10 20 35 36 100. */
	double mapped[12 * 4];
	static const double to[] = {0, 10, 20, 35, 36, 100};
	for (size_t i = 0; i < N_(mapped); i++)
		mapped[i] = isnan(k2011[i]) ? MISS : to[(int)k2011[i]];
	assert_true(agree_alpha(mapped, 12, 4, AGREE_ORDINAL, &again, &why));
	assert_near(again, 108577.0 / 133160.0, 1e-14);
	assert_true(agree_alpha(mapped, 12, 4, AGREE_NOMINAL, &again, &why));
	assert_near(again, 113.0 / 152.0, 1e-14);
}

static void test_alpha_other_published(void **st)
{
	(void)st;
	/* Wikipedia, "Krippendorff's alpha", computational example: 3 coders
	 * on 15 units with many values missing; nominal 0.691, interval 0.811
	 * (0.691358 and 0.810845 in the Python "krippendorff" package's tests,
	 * 56/81 and 643/793 exactly). Rows are units, columns A B C. */
	static const double w[15 * 3] = {
		MISS, 1, MISS,   MISS, MISS, MISS,   MISS, 2, 2,   MISS, 1, 1,   MISS, 3, 3,
		3, 3, 4,         4, 4, 4,            1, 3, MISS,   2, MISS, 2,   1, MISS, 1,
		1, MISS, 1,      3, MISS, 3,         3, MISS, 3,   MISS, MISS, MISS,  3, MISS, 4,
	};
	double out;
	agree_why why;
	assert_true(agree_alpha(w, 15, 3, AGREE_NOMINAL, &out, &why));
	assert_near(out, 0.691358, 5e-7);
	assert_near(out, 56.0 / 81.0, 1e-14);
	assert_true(agree_alpha(w, 15, 3, AGREE_INTERVAL, &out, &why));
	assert_near(out, 0.810845, 5e-7);
	assert_near(out, 643.0 / 793.0, 1e-14);
	/* Krippendorff (2011), the binary example: 2 observers, 10 units,
	 * A = 0 1 0 0 0 0 0 0 1 0, B = 1 1 1 0 0 1 0 0 0 0; alpha = 0.095
	 * (by coincidences: n0 = 14, n1 = 6, o01 = 4, 1 - 19 * 8 / 168 = 2/21). */
	static const double bin[10 * 2] = {0, 1,  1, 1,  0, 1,  0, 0,  0, 0,
	                                   0, 1,  0, 0,  0, 0,  1, 0,  0, 0};
	assert_true(agree_alpha(bin, 10, 2, AGREE_NOMINAL, &out, &why));
	assert_near(out, 0.095, 0.0005);
	assert_near(out, 2.0 / 21.0, 1e-15);
	/* With two values the interval metric is the nominal one. */
	assert_true(agree_alpha(bin, 10, 2, AGREE_INTERVAL, &out, &why));
	assert_near(out, 2.0 / 21.0, 1e-15);
}

static void test_alpha_by_hand(void **st)
{
	(void)st;
	/* By hand, 2 raters, units (0,0) (0,1) (1,1): coincidences o00 = 2,
	 * o01 = o10 = 1, o11 = 2; n0 = n1 = 3, n = 6;
	 * alpha = 1 - 5 * 2 / (2 * 3 * 3) = 4/9, nominal and interval alike. */
	double v[] = {0, 0, 0, 1, 1, 1};
	double out;
	agree_why why;
	assert_true(agree_alpha(v, 3, 2, AGREE_NOMINAL, &out, &why));
	assert_near(out, 4.0 / 9.0, 1e-15);
	assert_true(agree_alpha(v, 3, 2, AGREE_INTERVAL, &out, &why));
	assert_near(out, 4.0 / 9.0, 1e-15);
	assert_true(agree_alpha(v, 3, 2, AGREE_ORDINAL, &out, &why));
	assert_near(out, 4.0 / 9.0, 1e-15);
	/* Perfect agreement with two values present: 1. */
	double p[] = {1, 1, MISS, 2, 2, 2};
	assert_true(agree_alpha(p, 2, 3, AGREE_INTERVAL, &out, &why));
	assert_near(out, 1.0, 1e-15);
	/* Interval by hand, units (0,2) (2,4) (0,4) on 2 raters: observed
	 * sum 2 * (4 + 4 + 16) = 48; values 0 0 2 2 4 4, mean 2, sum of
	 * squares 16, expected 2 * 6 * 16 = 192; alpha = 1 - 5 * 48 / 192 = -0.25. */
	double q[] = {0, 2, 2, 4, 0, 4};
	assert_true(agree_alpha(q, 3, 2, AGREE_INTERVAL, &out, &why));
	assert_near(out, -0.25, 1e-15);
}

static void test_alpha_undefined(void **st)
{
	(void)st;
	double out;
	agree_why why;
#define ALPHA(v, units, raters, level) agree_alpha(v, units, raters, level, &out, &why)
	double all_missing[] = {MISS, MISS, MISS, MISS, MISS, MISS};
	assert_undefined(ALPHA(all_missing, 3, 2, AGREE_NOMINAL), "no unit rated twice");
	assert_undefined(ALPHA(all_missing, 0, 2, AGREE_ORDINAL), "no unit rated twice");
	double lone[] = {1, MISS, MISS, 2, 3, MISS};        /* each unit has one value */
	assert_undefined(ALPHA(lone, 3, 2, AGREE_INTERVAL), "no unit rated twice");
	double one_rater[] = {1, 2, 3};
	assert_undefined(ALPHA(one_rater, 3, 1, AGREE_NOMINAL), "no unit rated twice");
	assert_undefined(ALPHA(one_rater, 3, 0, AGREE_NOMINAL), "no unit rated twice");
	double same[] = {2, 2, 2, 2, MISS, 5};        /* the pairable values are all 2 */
	for (int level = AGREE_NOMINAL; level <= AGREE_INTERVAL; level++)
		assert_undefined(ALPHA(same, 3, 2, (enum agree_level)level), "constant ratings");
	/* Infinities count as missing, not as a value that poisons the sums. */
	double inf[] = {0, 0, 0, 1, 1, 1, INFINITY, 3};
	assert_true(agree_alpha(inf, 4, 2, AGREE_INTERVAL, &out, &why));
	assert_near(out, 4.0 / 9.0, 1e-15);
#undef ALPHA
}

/* ---- binary outcomes, Rogan-Gladen ----------------------------------- */

static void test_binary(void **st)
{
	(void)st;
	/* By hand: machine a against the human truth. */
	int a[] = {1, 1, 1, 0, 0, 0, 1, 0, 2}, t[] = {1, 1, 0, 0, 0, 1, 1, 0, 0};
	struct agree_binary c;
	agree_binary_count(a, t, N_(a), &c);      /* 2 counts as a pass: nonzero */
	assert_int_equal(c.tp, 3);
	assert_int_equal(c.fp, 2);
	assert_int_equal(c.tn, 3);
	assert_int_equal(c.fn, 1);
	double out;
	agree_why why;
	assert_true(agree_tpr(&c, &out, &why));
	assert_null(why);
	assert_near(out, 0.75, 1e-15);
	assert_true(agree_tnr(&c, &out, &why));
	assert_near(out, 0.6, 1e-15);
	assert_true(agree_precision(&c, &out, &why));
	assert_near(out, 0.6, 1e-15);
	struct agree_binary none;
	agree_binary_count(a, t, 0, &none);
	assert_int_equal(none.tp + none.fp + none.tn + none.fn, 0);
	assert_undefined(agree_tpr(&none, &out, &why), "no true passes");
	assert_undefined(agree_tnr(&none, &out, &why), "no true fails");
	assert_undefined(agree_precision(&none, &out, &why), "no predicted passes");
	struct agree_binary fails = {.tn = 3, .fn = 2};     /* never passes */
	assert_undefined(agree_precision(&fails, &out, &why), "no predicted passes");
	assert_true(agree_tpr(&fails, &out, &why) && out == 0.0);
}

static void test_rogan_gladen(void **st)
{
	(void)st;
	double out;
	agree_why why;
	/* By hand: p = 0.6, TPR 0.9, TNR 0.8: (0.6 + 0.8 - 1) / (0.9 + 0.8 - 1)
	 * = 0.4 / 0.7 = 4/7. */
	assert_true(agree_rogan_gladen(0.6, 0.9, 0.8, &out, &why));
	assert_null(why);
	assert_near(out, 4.0 / 7.0, 1e-15);
	/* A perfect rater reports the true rate unchanged. */
	assert_true(agree_rogan_gladen(0.37, 1.0, 1.0, &out, &why));
	assert_near(out, 0.37, 1e-15);
	/* By hand: p = 0.25, TPR 0.75, TNR 0.75: (0.25 + 0.75 - 1) / 0.5 = 0. */
	assert_true(agree_rogan_gladen(0.25, 0.75, 0.75, &out, &why));
	assert_near(out, 0.0, 1e-15);
	/* Clipped: p = 0.1 gives (0.1 - 0.2) / 0.7 < 0 -> 0;
	 * p = 0.95 gives 0.75 / 0.7 > 1 -> 1. */
	assert_true(agree_rogan_gladen(0.1, 0.9, 0.8, &out, &why) && out == 0.0);
	assert_true(agree_rogan_gladen(0.95, 0.9, 0.8, &out, &why) && out == 1.0);
	/* No better than chance: TPR + TNR <= 1. */
	assert_undefined(agree_rogan_gladen(0.5, 0.5, 0.5, &out, &why), "no better than chance");
	assert_undefined(agree_rogan_gladen(0.5, 0.3, 0.4, &out, &why), "no better than chance");
	assert_undefined(agree_rogan_gladen(1.2, 0.9, 0.9, &out, &why), "rate outside [0, 1]");
	assert_undefined(agree_rogan_gladen(NAN, 0.9, 0.9, &out, &why), "rate outside [0, 1]");
	assert_undefined(agree_rogan_gladen(0.5, 0.9, -0.1, &out, &why), "rate outside [0, 1]");
}

/* ---- McNemar's exact test -------------------------------------------- */

static void test_mcnemar(void **st)
{
	(void)st;
	/* By hand from Binomial(b + c, 1/2), p = 2 * P(X <= min(b, c)), at most 1:
	 *   b=1, c=5:  2 * (1 + 6) / 64 = 0.21875
	 *   b=0, c=10: 2 * 1 / 1024 = 0.001953125
	 *   b=2, c=8:  2 * (1 + 10 + 45) / 1024 = 0.109375
	 *   b=3, c=3:  2 * 42 / 64 > 1 -> 1;  b=0, c=1: 2 * 1/2 = 1 */
	assert_near(agree_mcnemar_exact(1, 5), 0.21875, 1e-15);
	assert_near(agree_mcnemar_exact(5, 1), 0.21875, 1e-15);
	assert_near(agree_mcnemar_exact(0, 10), 0.001953125, 1e-17);
	assert_near(agree_mcnemar_exact(2, 8), 0.109375, 1e-15);
	assert_near(agree_mcnemar_exact(3, 3), 1.0, 0);
	assert_near(agree_mcnemar_exact(0, 1), 1.0, 0);
	assert_near(agree_mcnemar_exact(0, 0), 1.0, 0);
	/* Large counts, where factorials overflow: the exact rational sums
	 * sum_{i<=k} C(n, i) / 2^(n-1), evaluated with exact integers
	 * (Python's math.comb and fractions); lgamma of ~2e4 leaves about
	 * 1e-11 relative, so 1e-9 is asked:
	 *   (400, 500)     9.564441369189461e-04
	 *   (4000, 4300)   1.029736761268161e-03
	 *   (10000, 10500) 4.915393992266735e-04 */
	assert_near(agree_mcnemar_exact(400, 500) / 9.564441369189461e-04, 1.0, 1e-9);
	assert_near(agree_mcnemar_exact(4300, 4000) / 1.029736761268161e-03, 1.0, 1e-9);
	assert_near(agree_mcnemar_exact(10000, 10500) / 4.915393992266735e-04, 1.0, 1e-9);
	assert_near(agree_mcnemar_exact(1000000, 1000000), 1.0, 0);
	/* Beyond the smallest double: 2 / 2^2000 is 0, not NaN. */
	double tiny = agree_mcnemar_exact(0, 2000);
	assert_true(tiny == 0.0);
	/* Ten million discordant pairs: close to the continuity-corrected
	 * normal approximation erfc(z / sqrt 2), z = (|b - c| - 1) / sqrt(b + c). */
	double p = agree_mcnemar_exact(5000000, 5010000);
	double z = (10000.0 - 1.0) / sqrt(10010000.0);
	assert_true(p > 0.0 && p < 1.0);
	assert_near(p / erfc(z / sqrt(2.0)), 1.0, 0.01);
}

/* ---- generator, percentile, bootstrap -------------------------------- */

static void test_rng(void **st)
{
	(void)st;
	/* The reference splitmix64.c (Vigna, prng.di.unimi.it) from state 0:
	 * its first outputs, also the published seeds of xoshiro256. */
	struct agree_rng r;
	agree_rng_seed(&r, 0);
	assert_true(agree_rng_next(&r) == 0xe220a8397b1dcdafULL);
	assert_true(agree_rng_next(&r) == 0x6e789e6aa1b965f4ULL);
	assert_true(agree_rng_next(&r) == 0x06c45d188009454fULL);
	assert_true(agree_rng_next(&r) == 0xf88bb8a8724c81ecULL);
	struct agree_rng a, b;
	agree_rng_seed(&a, 42);
	agree_rng_seed(&b, 42);
	for (int i = 0; i < 100; i++)
		assert_true(agree_rng_next(&a) == agree_rng_next(&b));
	/* Bounded draws stay in range and cover it evenly: 60000 draws below 6,
	 * each face within 4% of 10000 (about 4.4 standard deviations). */
	size_t seen[6] = {0};
	agree_rng_seed(&a, 7);
	for (int i = 0; i < 60000; i++) {
		size_t v = agree_rng_below(&a, 6);
		assert_true(v < 6);
		seen[v]++;
	}
	for (int i = 0; i < 6; i++)
		assert_true(seen[i] > 9600 && seen[i] < 10400);
	assert_int_equal(agree_rng_below(&a, 1), 0);
	assert_int_equal(agree_rng_below(&a, 0), 0);
	/* n just above 2^63: nearly half the draws are thrown back; what is
	 * left must still lie below n, and both halves of the range occur. */
	uint64_t big = (1ULL << 63) + 1;
	int high = 0;
	for (int i = 0; i < 1000; i++) {
		size_t v = agree_rng_below(&a, (size_t)big);
		assert_true((uint64_t)v < big);
		high += (uint64_t)v >= (1ULL << 62);
	}
	assert_true(high > 400 && high < 600);
}

static void test_percentile(void **st)
{
	(void)st;
	/* By hand, linear interpolation at p * (n - 1): on 1 2 3 4,
	 * p = .5 -> 2.5, p = .25 -> 1 + .75 = 1.75, p = .9 -> 3.7. */
	double v[] = {1, 2, 3, 4};
	assert_near(agree_percentile(v, 4, 0.5), 2.5, 1e-15);
	assert_near(agree_percentile(v, 4, 0.25), 1.75, 1e-15);
	assert_near(agree_percentile(v, 4, 0.9), 3.7, 1e-15);
	assert_near(agree_percentile(v, 4, 0.0), 1.0, 0);
	assert_near(agree_percentile(v, 4, 1.0), 4.0, 0);
	assert_near(agree_percentile(v, 4, -3.0), 1.0, 0);
	assert_near(agree_percentile(v, 4, 7.0), 4.0, 0);
	assert_near(agree_percentile(v, 4, NAN), 1.0, 0);
	assert_near(agree_percentile(v, 1, 0.7), 1.0, 0);
	assert_near(agree_percentile(NULL, 0, 0.5), 0.0, 0);
}

/* The mean of a sample, over a resample. */
static bool mean_stat(const size_t *idx, size_t n, void *ctx, double *out)
{
	const double *x = ctx;
	double s = 0.0;
	for (size_t i = 0; i < n; i++)
		s += x[idx[i]];
	*out = s / (double)n;
	return true;
}

static const double sample[20] = {3.1, 2.4, 5.0, 4.2, 3.3, 2.9, 4.8, 3.7, 3.0, 4.1,
                                  2.2, 3.9, 4.4, 3.5, 2.8, 3.6, 4.0, 3.2, 4.6, 2.7};

static void test_bootstrap_seeded(void **st)
{
	(void)st;
	double lo1, hi1, lo2, hi2, lo3, hi3;
	agree_why why = "set";
	void *ctx = (void *)sample;
	assert_true(agree_bootstrap(20, 1000, 1, 0.95, mean_stat, ctx, &lo1, &hi1, &why));
	assert_null(why);
	assert_true(agree_bootstrap(20, 1000, 1, 0.95, mean_stat, ctx, &lo2, &hi2, &why));
	assert_true(lo1 == lo2 && hi1 == hi2);        /* same seed, same interval */
	assert_true(agree_bootstrap(20, 1000, 2, 0.95, mean_stat, ctx, &lo3, &hi3, &why));
	assert_true(lo1 != lo3 || hi1 != hi3);        /* another seed, another one */
	/* On this well-behaved sample the interval holds the estimate, is not
	 * empty, and is about 2 * 1.96 standard errors (sd 0.78 / sqrt 20). */
	double mean = 0.0;
	for (size_t i = 0; i < 20; i++)
		mean += sample[i] / 20.0;
	assert_true(lo1 < mean && mean < hi1);
	assert_true(hi1 - lo1 > 0.4 && hi1 - lo1 < 0.9);
	/* A narrower level gives a narrower interval from the same resamples. */
	double lo4, hi4;
	assert_true(agree_bootstrap(20, 1000, 1, 0.5, mean_stat, ctx, &lo4, &hi4, &why));
	assert_true(lo1 < lo4 && hi4 < hi1);
}

/* Undefined when the resample's first index is odd. */
static bool picky_stat(const size_t *idx, size_t n, void *ctx, double *out)
{
	if (idx[0] % 2)
		return false;
	return mean_stat(idx, n, ctx, out);
}

/* NaN for the odd ones: treated as undefined too. */
static bool nan_stat(const size_t *idx, size_t n, void *ctx, double *out)
{
	if (idx[0] % 2) {
		*out = NAN;
		return true;
	}
	return mean_stat(idx, n, ctx, out);
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void test_bootstrap_undefined_left_out(void **st)
{
	(void)st;
	/* Replays the resamples with the generator by hand: the interval must
	 * be the percentiles of the defined resamples alone. */
	enum { REPS = 400, N = 20 };
	static double kept[REPS];
	size_t nkept = 0, idx[N];
	struct agree_rng rng;
	agree_rng_seed(&rng, 99);
	for (size_t r = 0; r < REPS; r++) {
		for (size_t i = 0; i < N; i++)
			idx[i] = agree_rng_below(&rng, N);
		double v;
		if (picky_stat(idx, N, (void *)sample, &v))
			kept[nkept++] = v;
	}
	assert_true(nkept * 2 >= REPS && nkept < REPS);
	qsort(kept, nkept, sizeof *kept, cmp_d);
	double lo, hi;
	agree_why why;
	assert_true(agree_bootstrap(N, REPS, 99, 0.9, picky_stat, (void *)sample, &lo, &hi, &why));
	assert_true(lo == agree_percentile(kept, nkept, 0.05));
	assert_true(hi == agree_percentile(kept, nkept, 0.95));
	assert_true(agree_bootstrap(N, REPS, 99, 0.9, nan_stat, (void *)sample, &lo, &hi, &why));
	assert_true(lo == agree_percentile(kept, nkept, 0.05));
	assert_true(hi == agree_percentile(kept, nkept, 0.95));
}

/* Undefined unless index 0 is absent: for n = 20 that leaves about
 * (19/20)^20 = 36% of resamples, under half. */
static bool rare_stat(const size_t *idx, size_t n, void *ctx, double *out)
{
	for (size_t i = 0; i < n; i++)
		if (idx[i] == 0)
			return false;
	return mean_stat(idx, n, ctx, out);
}

static bool never_stat(const size_t *idx, size_t n, void *ctx, double *out)
{
	(void)idx, (void)n, (void)ctx, (void)out;
	return false;
}

static void test_bootstrap_undefined(void **st)
{
	(void)st;
	double out = 5, hi = 5;        /* out: the low end */
	agree_why why;
	void *ctx = (void *)sample;
#define BOOT(n, reps, level, fn) agree_bootstrap(n, reps, 3, level, fn, ctx, &out, &hi, &why)
	assert_undefined(BOOT(20, 500, 0.95, rare_stat), "too few defined resamples");
	assert_true(hi == 0.0);
	assert_undefined(BOOT(20, 50, 0.95, never_stat), "too few defined resamples");
	assert_undefined(BOOT(0, 500, 0.95, mean_stat), "no items");
	assert_undefined(BOOT(20, 0, 0.95, mean_stat), "no resamples");
	assert_undefined(BOOT(20, 10, 1.0, mean_stat), "level outside (0, 1)");
	assert_undefined(BOOT(20, 10, NAN, mean_stat), "level outside (0, 1)");
	/* One item: every resample is that item, the interval a point. */
	assert_true(agree_bootstrap(1, 10, 3, 0.95, mean_stat, ctx, &out, &hi, &why));
	assert_true(out == sample[0] && hi == sample[0]);
#undef BOOT
}

/* Kappa over a resample of the Wikipedia table: how `stats` will use it. */
struct pairs {
	const int *a, *b;
};

static bool kappa_stat(const size_t *idx, size_t n, void *ctx, double *out)
{
	const struct pairs *p = ctx;
	int *a = calloc(n, sizeof *a), *b = calloc(n, sizeof *b);
	assert_non_null(a);
	assert_non_null(b);
	for (size_t i = 0; i < n; i++) {
		a[i] = p->a[idx[i]];
		b[i] = p->b[idx[i]];
	}
	bool ok = agree_kappa(a, b, n, 2, out, NULL);
	free(a);
	free(b);
	return ok;
}

static void test_bootstrap_kappa(void **st)
{
	(void)st;
	size_t table[4] = {15, 10, 5, 20};
	int a[50], b[50];
	size_t n = from_table(table, 2, a, b);
	struct pairs p = {a, b};
	double lo, hi;
	agree_why why;
	assert_true(agree_bootstrap(n, 1000, 2024, 0.95, kappa_stat, &p, &lo, &hi, &why));
	assert_true(lo < 0.4 && 0.4 < hi);
	assert_true(lo >= -1.0 && hi <= 1.0 && lo < hi);
	/* Seven (0,0) and one (1,1): a resample without the (1,1) has one
	 * category only, about 34% of them; they are skipped, the rest give 1. */
	int x[] = {0, 0, 0, 0, 0, 0, 0, 1}, y[] = {0, 0, 0, 0, 0, 0, 0, 1};
	struct pairs q = {x, y};
	assert_true(agree_bootstrap(8, 200, 5, 0.95, kappa_stat, &q, &lo, &hi, &why));
	assert_true(lo == 1.0 && hi == 1.0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_and_within_one),
		cmocka_unit_test(test_confusion),
		cmocka_unit_test(test_kappa_published),
		cmocka_unit_test(test_kappa_by_hand),
		cmocka_unit_test(test_kappa_undefined),
		cmocka_unit_test(test_kappa_quadratic_published),
		cmocka_unit_test(test_kappa_quadratic_by_hand),
		cmocka_unit_test(test_spearman_published),
		cmocka_unit_test(test_spearman_by_hand),
		cmocka_unit_test(test_mae),
		cmocka_unit_test(test_alpha_krippendorff_2011),
		cmocka_unit_test(test_alpha_other_published),
		cmocka_unit_test(test_alpha_by_hand),
		cmocka_unit_test(test_alpha_undefined),
		cmocka_unit_test(test_binary),
		cmocka_unit_test(test_rogan_gladen),
		cmocka_unit_test(test_mcnemar),
		cmocka_unit_test(test_rng),
		cmocka_unit_test(test_percentile),
		cmocka_unit_test(test_bootstrap_seeded),
		cmocka_unit_test(test_bootstrap_undefined_left_out),
		cmocka_unit_test(test_bootstrap_undefined),
		cmocka_unit_test(test_bootstrap_kappa),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
