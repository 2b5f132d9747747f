/* agree.h - agreement statistics between raters: pure arithmetic, no I/O.
 *
 * Items are rated on a scale of k categories (0..k-1, in the scale's
 * order: fail < pass, 1 < 2 < ... < 5) for the category figures (exact
 * agreement, confusion, Cohen's kappa, weighted kappa), or as numbers for
 * the numeric ones (Spearman's rho, MAE, interval alpha). A figure that is
 * undefined for the data (kappa when both raters used one category, rho
 * with a constant rater, too few items) is reported by returning false,
 * never as NaN; `why` then says why in words a report can print, and
 * *out is 0. `why` may be NULL; it is set to NULL when the figure is
 * defined. */
#ifndef TCR_UTIL_AGREE_H
#define TCR_UTIL_AGREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Why a figure is undefined: static text, or NULL when it is defined. */
typedef const char *agree_why;

/* Fraction of items where a[i] == b[i]; false when n == 0. */
bool agree_exact(const int *a, const int *b, size_t n, double *out, agree_why *why);
/* Fraction of items where |a[i] - b[i]| <= 1 (for 1..5 scales). */
bool agree_within_one(const int *a, const int *b, size_t n, double *out, agree_why *why);
/* counts[i * k + j] = items with a == i and b == j (rows a, columns b);
 * ratings outside 0..k-1 are not counted. */
void agree_confusion(const int *a, const int *b, size_t n, size_t k, size_t *counts);
/* Cohen's kappa (unweighted): (po - pe) / (1 - pe). Undefined when
 * n == 0 or pe == 1 (both raters used one and the same category), and
 * for a rating outside 0..k-1 ("rating outside the scale"). */
bool agree_kappa(const int *a, const int *b, size_t n, size_t k, double *out, agree_why *why);
/* Cohen's kappa with quadratic weights (i - j)^2 / (k - 1)^2; undefined
 * as kappa is, and for k < 2. */
bool agree_kappa_quadratic(const int *a, const int *b, size_t n, size_t k, double *out,
                           agree_why *why);
/* Spearman's rho: Pearson's r of the ranks, ties given their mean rank.
 * Undefined with fewer than 2 items, a constant rater or a non-finite
 * value ("missing value"). */
bool agree_spearman(const double *a, const double *b, size_t n, double *out, agree_why *why);
/* Mean absolute difference; false when n == 0 or a value is not finite. */
bool agree_mae(const double *a, const double *b, size_t n, double *out, agree_why *why);

/* Krippendorff's alpha over units x raters: values[u * nraters + r] is
 * rater r's value for unit u, NaN (any non-finite value) when missing.
 * Units with fewer than two values are left out (they carry no pairs).
 * Undefined ("no unit rated twice") when fewer than
 * two pairable values remain or the expected disagreement is 0. The
 * ordinal metric ranks the distinct values present, weighting by their
 * frequencies (Krippendorff 2011); nominal compares values for equality;
 * interval squares their difference. */
enum agree_level {
	AGREE_NOMINAL,
	AGREE_ORDINAL,
	AGREE_INTERVAL,
};
bool agree_alpha(const double *values, size_t nunits, size_t nraters, enum agree_level level,
                 double *out, agree_why *why);

/* Binary outcomes with b (the human) as truth: 1 (any nonzero) = pass. */
struct agree_binary {
	size_t tp, fp, tn, fn;      /* a pass & truth pass, a pass & truth fail, ... */
};
void agree_binary_count(const int *a, const int *truth, size_t n, struct agree_binary *out);
bool agree_tpr(const struct agree_binary *c, double *out, agree_why *why);        /* tp/(tp+fn) */
bool agree_tnr(const struct agree_binary *c, double *out, agree_why *why);        /* tn/(tn+fp) */
bool agree_precision(const struct agree_binary *c, double *out, agree_why *why);  /* tp/(tp+fp) */
/* Rogan-Gladen: the true pass rate from an observed one p and the
 * rater's error rates, (p + tnr - 1) / (tpr + tnr - 1), clipped to
 * [0, 1]. Undefined when tpr + tnr <= 1 (the rater is no better than
 * chance, so its rate says nothing). */
bool agree_rogan_gladen(double p, double tpr, double tnr, double *out, agree_why *why);

/* Binary outcomes counted with a weight per item (an inverse inclusion
 * probability, 1/pi, from a sampled review queue): the same four cells as
 * agree_binary, as sums of weights. TPR, TNR and agreement from them are
 * ratios of Horvitz-Thompson totals (the Hajek form), so equal weights give
 * exactly the unweighted figures. w == NULL counts every item once. */
struct agree_wbinary {
	double tp, fp, tn, fn;
	double sum_w, sum_w2;       /* for Kish's effective n: sum_w^2 / sum_w2 */
};
void agree_wbinary_count(const int *a, const int *truth, const double *w, size_t n,
                         struct agree_wbinary *out);
bool agree_wtpr(const struct agree_wbinary *c, double *out, agree_why *why);
bool agree_wtnr(const struct agree_wbinary *c, double *out, agree_why *why);
bool agree_wprecision(const struct agree_wbinary *c, double *out, agree_why *why);
/* Sum of w where a[i] == b[i] over the sum of w; false when n == 0. */
bool agree_wexact(const int *a, const int *b, const double *w, size_t n, double *out,
                  agree_why *why);
/* Kish's effective sample size of weights w: (sum w)^2 / sum w^2; n when
 * w == NULL. */
double agree_kish_n(const double *w, size_t n);

/* The Wilson score interval of a proportion p over n items at the normal
 * quantile z (1.959964 for 95%):
 *   centre = (p + z^2/(2n)) / (1 + z^2/n)
 *   half   = z / (n + z^2) * sqrt(n p (1-p) + z^2/4)
 * False when n <= 0 or p is outside [0, 1]. */
bool agree_wilson(double p, double n, double z, double *lo, double *hi);
/* The n at which the Wilson interval of p is exactly `width` wide (the
 * positive root of the quadratic that half = width/2, h, makes):
 *   n = z^2 ((p q - 2 h^2) + sqrt(p^2 q^2 + h^2 (1 - 4 p q))) / (2 h^2),  q = 1 - p
 * Any n at or above it gives an interval no wider. NaN when width is not
 * in (0, 1] or p is outside [0, 1]. */
double agree_wilson_n_for_width(double p, double width, double z);
#define AGREE_Z95 1.959963984540054

/* McNemar's exact test: the two-sided p-value of b discordant pairs one
 * way and c the other under Binomial(b + c, 1/2), capped at 1 (1 when
 * b + c == 0; 0 when it is below the smallest double). */
double agree_mcnemar_exact(size_t b, size_t c);

/* A small seeded generator (splitmix64), so a bootstrap with a given seed
 * gives the same interval on every machine. */
struct agree_rng {
	uint64_t state;
};
void agree_rng_seed(struct agree_rng *rng, uint64_t seed);
uint64_t agree_rng_next(struct agree_rng *rng);
/* Uniform in 0..n-1 (n > 0), without modulo bias. */
size_t agree_rng_below(struct agree_rng *rng, size_t n);

/* A statistic over a resample: idx[0..n) are indexes into the caller's
 * items (with repeats). False when it is undefined for that resample
 * (such resamples are left out of the interval, as are non-finite values). */
typedef bool (*agree_stat_fn)(const size_t *idx, size_t n, void *ctx, double *out);

/* Percentile bootstrap: `reps` resamples of n items with replacement,
 * the statistic on each, and the (1-level)/2 and (1+level)/2 percentiles
 * (linear interpolation between order statistics). False, with *lo and
 * *hi 0, when n == 0, reps == 0, level is not inside (0, 1) or fewer than
 * half the resamples gave a defined value. */
bool agree_bootstrap(size_t n, size_t reps, uint64_t seed, double level, agree_stat_fn stat,
                     void *ctx, double *lo, double *hi, agree_why *why);

/* The p-th percentile (0..1) of sorted values, interpolated linearly at
 * p * (n - 1); p is clamped to 0..1 (NaN as 0), and n == 0 gives 0. */
double agree_percentile(const double *sorted, size_t n, double p);

#endif
