/* agree.c - agreement statistics between raters: pure arithmetic, no I/O. */
#include "util/agree.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* Every figure reports through here, so `why` may be NULL and *out is
 * never left holding garbage (or NaN) when the figure is undefined. */
static bool undefined(double *out, agree_why *why, const char *text)
{
	if (out)
		*out = 0.0;
	if (why)
		*why = text;
	return false;
}

/* A figure that overflowed is reported as undefined rather than as
 * infinity or NaN, which no report could print. */
static bool defined(double *out, agree_why *why, double value)
{
	if (!isfinite(value))
		return undefined(out, why, "not a finite number");
	*out = value;
	if (why)
		*why = NULL;
	return true;
}

/* ---- category figures ------------------------------------------------ */

bool agree_exact(const int *a, const int *b, size_t n, double *out, agree_why *why)
{
	if (n == 0)
		return undefined(out, why, "no items");
	size_t same = 0;
	for (size_t i = 0; i < n; i++)
		same += a[i] == b[i];
	return defined(out, why, (double)same / (double)n);
}

bool agree_within_one(const int *a, const int *b, size_t n, double *out, agree_why *why)
{
	if (n == 0)
		return undefined(out, why, "no items");
	size_t near = 0;
	for (size_t i = 0; i < n; i++) {
		long d = (long)a[i] - (long)b[i];
		near += d >= -1 && d <= 1;
	}
	return defined(out, why, (double)near / (double)n);
}

/* Ratings outside 0..k-1 are not counted: the caller's scale is the
 * authority, and a stray value must not write past the matrix. */
void agree_confusion(const int *a, const int *b, size_t n, size_t k, size_t *counts)
{
	memset(counts, 0, k * k * sizeof *counts);
	for (size_t i = 0; i < n; i++) {
		if (a[i] < 0 || b[i] < 0 || (size_t)a[i] >= k || (size_t)b[i] >= k)
			continue;
		counts[(size_t)a[i] * k + (size_t)b[i]]++;
	}
}

/* The checks kappa and weighted kappa share. */
static bool on_scale(const int *a, const int *b, size_t n, size_t k, double *out,
                     agree_why *why)
{
	if (n == 0)
		return undefined(out, why, "no items");
	for (size_t i = 0; i < n; i++)
		if (a[i] < 0 || b[i] < 0 || (size_t)a[i] >= k || (size_t)b[i] >= k)
			return undefined(out, why, "rating outside the scale");
	return true;
}

/* Row and column totals of the two raters (rows a, columns b). */
static void marginals(const int *a, const int *b, size_t n, size_t k, double *ra, double *cb)
{
	memset(ra, 0, k * sizeof *ra);
	memset(cb, 0, k * sizeof *cb);
	for (size_t i = 0; i < n; i++) {
		ra[a[i]] += 1.0;
		cb[b[i]] += 1.0;
	}
}

/* Kappa in counts rather than proportions, (n*agree - sum r*c) /
 * (n^2 - sum r*c): exact in doubles for any realistic n, so "both raters
 * used one and the same category" is a test for zero, not for 1 - pe
 * being small. */
bool agree_kappa(const int *a, const int *b, size_t n, size_t k, double *out, agree_why *why)
{
	if (!on_scale(a, b, n, k, out, why))
		return false;
	double *ra = xcalloc(k, sizeof *ra), *cb = xcalloc(k, sizeof *cb);
	marginals(a, b, n, k, ra, cb);
	double same = 0.0, chance = 0.0, dn = (double)n;
	for (size_t i = 0; i < n; i++)
		same += a[i] == b[i];
	for (size_t c = 0; c < k; c++)
		chance += ra[c] * cb[c];
	free(ra);
	free(cb);
	double den = dn * dn - chance;
	if (den <= 0.0)
		return undefined(out, why, "one category only");
	return defined(out, why, (dn * same - chance) / den);
}

/* 1 - sum w*observed / sum w*expected with w = (i - j)^2; the usual
 * division by (k - 1)^2 cancels, and expected = r_i c_j / n is kept as
 * r_i c_j with the observed side multiplied by n, again to stay exact. */
bool agree_kappa_quadratic(const int *a, const int *b, size_t n, size_t k, double *out,
                           agree_why *why)
{
	if (!on_scale(a, b, n, k, out, why))
		return false;
	if (k < 2)
		return undefined(out, why, "one category only");
	double *ra = xcalloc(k, sizeof *ra), *cb = xcalloc(k, sizeof *cb);
	marginals(a, b, n, k, ra, cb);
	double seen = 0.0, expect = 0.0;
	for (size_t i = 0; i < n; i++) {
		double d = (double)a[i] - (double)b[i];
		seen += d * d;
	}
	for (size_t i = 0; i < k; i++)
		for (size_t j = 0; j < k; j++) {
			double d = (double)i - (double)j;
			expect += d * d * ra[i] * cb[j];
		}
	free(ra);
	free(cb);
	if (expect <= 0.0)
		return undefined(out, why, "one category only");
	return defined(out, why, 1.0 - (double)n * seen / expect);
}

/* ---- numeric figures ------------------------------------------------- */

static bool all_numbers(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return false;
	return true;
}

struct ranked {
	double v;
	size_t i;
};

static int cmp_ranked(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;
	if (a->v != b->v)
		return a->v < b->v ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

/* Ranks 1..n, a run of equal values all given the mean of its ranks. */
static void mean_ranks(const double *x, size_t n, double *rank)
{
	struct ranked *r = xcalloc(n, sizeof *r);
	for (size_t i = 0; i < n; i++)
		r[i] = (struct ranked){x[i], i};
	qsort(r, n, sizeof *r, cmp_ranked);
	for (size_t lo = 0; lo < n;) {
		size_t hi = lo;
		while (hi + 1 < n && r[hi + 1].v == r[lo].v)
			hi++;
		double mean = ((double)lo + (double)hi) / 2.0 + 1.0;
		for (size_t j = lo; j <= hi; j++)
			rank[r[j].i] = mean;
		lo = hi + 1;
	}
	free(r);
}

/* Pearson's r of the ranks. Mean ranks are multiples of 1/2 and their
 * mean is exactly (n + 1) / 2, so a constant rater gives a sum of
 * squares of exactly 0, never a rounding residue. */
bool agree_spearman(const double *a, const double *b, size_t n, double *out, agree_why *why)
{
	if (n < 2)
		return undefined(out, why, "fewer than 2 items");
	if (!all_numbers(a, n) || !all_numbers(b, n))
		return undefined(out, why, "missing value");
	double *ra = xcalloc(n, sizeof *ra), *rb = xcalloc(n, sizeof *rb);
	mean_ranks(a, n, ra);
	mean_ranks(b, n, rb);
	double mid = ((double)n + 1.0) / 2.0, sab = 0.0, saa = 0.0, sbb = 0.0;
	for (size_t i = 0; i < n; i++) {
		double da = ra[i] - mid, db = rb[i] - mid;
		sab += da * db;
		saa += da * da;
		sbb += db * db;
	}
	free(ra);
	free(rb);
	if (saa == 0.0 || sbb == 0.0)
		return undefined(out, why, "constant ratings");
	double rho = sab / sqrt(saa * sbb);
	return defined(out, why, rho > 1.0 ? 1.0 : rho < -1.0 ? -1.0 : rho);
}

bool agree_mae(const double *a, const double *b, size_t n, double *out, agree_why *why)
{
	if (n == 0)
		return undefined(out, why, "no items");
	if (!all_numbers(a, n) || !all_numbers(b, n))
		return undefined(out, why, "missing value");
	double sum = 0.0;
	for (size_t i = 0; i < n; i++)
		sum += fabs(a[i] - b[i]);
	return defined(out, why, sum / (double)n);
}

/* ---- Krippendorff's alpha -------------------------------------------- */

/* The values of the units that carry pairs (two values or more), unit
 * after unit: unit u's values are vals[start[u] .. start[u + 1]). */
struct pairable {
	double *vals;
	size_t *start;
	size_t nunits, n;
};

static void gather(const double *values, size_t nunits, size_t nraters, struct pairable *p)
{
	p->vals = xcalloc(nunits * nraters + 1, sizeof *p->vals);
	p->start = xcalloc(nunits + 1, sizeof *p->start);
	p->nunits = p->n = 0;
	for (size_t u = 0; u < nunits; u++) {
		size_t m = 0;
		for (size_t r = 0; r < nraters; r++) {
			double v = values[u * nraters + r];
			if (isfinite(v))
				p->vals[p->n + m++] = v;
		}
		if (m < 2)
			continue;        /* a lone value pairs with nothing: left out */
		p->n += m;
		p->start[++p->nunits] = p->n;
	}
}

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;
	return (a > b) - (a < b);
}

/* Krippendorff's (2011) ordinal difference of c < k is (sum of n_g for g
 * from c to k, minus (n_c + n_k) / 2) squared. That sum is M_k - M_c with
 * M_v = (values below v) + n_v / 2, so the ordinal metric is the interval
 * one on M: each value is replaced by its M and the interval code runs. */
static void to_midranks(struct pairable *p, const double *sorted)
{
	for (size_t i = 0; i < p->n; i++) {
		size_t lo = 0, hi = p->n;        /* first index with sorted >= v */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (sorted[mid] < p->vals[i])
				lo = mid + 1;
			else
				hi = mid;
		}
		size_t end = lo;
		while (end < p->n && sorted[end] == p->vals[i])
			end++;
		p->vals[i] = (double)lo + (double)(end - lo) / 2.0;
	}
}

static double difference(enum agree_level level, double x, double y)
{
	if (level == AGREE_NOMINAL)
		return x != y;
	return (x - y) * (x - y);
}

/* Sum over the coincidence matrix of o_ck * delta_ck: every ordered pair
 * of values within a unit, weighted 1 / (m_u - 1). */
static double observed(const struct pairable *p, enum agree_level level)
{
	double sum = 0.0;
	for (size_t u = 0; u < p->nunits; u++) {
		size_t s = p->start[u], e = p->start[u + 1];
		double d = 0.0;
		for (size_t i = s; i < e; i++)
			for (size_t j = i + 1; j < e; j++)
				d += 2.0 * difference(level, p->vals[i], p->vals[j]);
		sum += d / (double)(e - s - 1);
	}
	return sum;
}

/* Sum of n_c * n_k * delta_ck over all pairs of pairable values, in
 * closed form: n^2 - sum n_c^2 for equality, 2n * sum (x - mean)^2 for
 * squared differences, so no V x V matrix is needed for interval data. */
static double expected(const struct pairable *p, const double *sorted, enum agree_level level)
{
	double n = (double)p->n, sum = 0.0;
	if (level == AGREE_NOMINAL) {
		for (size_t lo = 0; lo < p->n;) {
			size_t hi = lo;
			while (hi < p->n && sorted[hi] == sorted[lo])
				hi++;
			sum += (double)(hi - lo) * (double)(hi - lo);
			lo = hi;
		}
		return n * n - sum;
	}
	double mean = 0.0;
	for (size_t i = 0; i < p->n; i++)
		mean += p->vals[i];
	mean /= n;
	for (size_t i = 0; i < p->n; i++)
		sum += (p->vals[i] - mean) * (p->vals[i] - mean);
	return 2.0 * n * sum;
}

/* alpha = 1 - (n - 1) * observed / expected, both as sums over pairs. */
static const char *alpha_of(struct pairable *p, enum agree_level level, double *alpha)
{
	double *sorted = xcalloc(p->n + 1, sizeof *sorted);
	memcpy(sorted, p->vals, p->n * sizeof *sorted);
	qsort(sorted, p->n, sizeof *sorted, cmp_double);
	const char *text = NULL;
	if (p->n < 2) {
		text = "no unit rated twice";
	} else if (sorted[0] == sorted[p->n - 1]) {
		text = "constant ratings";        /* nothing to disagree about */
	} else {
		if (level == AGREE_ORDINAL)
			to_midranks(p, sorted);
		double de = expected(p, sorted, level);
		if (de > 0.0)
			*alpha = 1.0 - ((double)p->n - 1.0) * observed(p, level) / de;
		else
			text = "constant ratings";
	}
	free(sorted);
	return text;
}

bool agree_alpha(const double *values, size_t nunits, size_t nraters, enum agree_level level,
                 double *out, agree_why *why)
{
	struct pairable p;
	gather(values, nunits, nraters, &p);
	double alpha = 0.0;
	const char *text = alpha_of(&p, level, &alpha);
	free(p.vals);
	free(p.start);
	return text ? undefined(out, why, text) : defined(out, why, alpha);
}

/* ---- binary outcomes ------------------------------------------------- */

void agree_binary_count(const int *a, const int *truth, size_t n, struct agree_binary *out)
{
	memset(out, 0, sizeof *out);
	for (size_t i = 0; i < n; i++) {
		bool pass = a[i] != 0, real = truth[i] != 0;
		if (pass && real)
			out->tp++;
		else if (pass)
			out->fp++;
		else if (real)
			out->fn++;
		else
			out->tn++;
	}
}

static bool ratio(size_t num, size_t den, double *out, agree_why *why, const char *text)
{
	if (den == 0)
		return undefined(out, why, text);
	return defined(out, why, (double)num / (double)den);
}

bool agree_tpr(const struct agree_binary *c, double *out, agree_why *why)
{
	return ratio(c->tp, c->tp + c->fn, out, why, "no true passes");
}

bool agree_tnr(const struct agree_binary *c, double *out, agree_why *why)
{
	return ratio(c->tn, c->tn + c->fp, out, why, "no true fails");
}

bool agree_precision(const struct agree_binary *c, double *out, agree_why *why)
{
	return ratio(c->tp, c->tp + c->fp, out, why, "no predicted passes");
}

static bool is_rate(double x)
{
	return x >= 0.0 && x <= 1.0;        /* false for NaN too */
}

bool agree_rogan_gladen(double p, double tpr, double tnr, double *out, agree_why *why)
{
	if (!is_rate(p) || !is_rate(tpr) || !is_rate(tnr))
		return undefined(out, why, "rate outside [0, 1]");
	double youden = tpr + tnr - 1.0;
	if (youden <= 0.0)
		return undefined(out, why, "no better than chance");
	double est = (p + tnr - 1.0) / youden;
	return defined(out, why, est < 0.0 ? 0.0 : est > 1.0 ? 1.0 : est);
}

/* ---- weighted counts and the Wilson interval ----------------------------- */

void agree_wbinary_count(const int *a, const int *truth, const double *w, size_t n,
                         struct agree_wbinary *out)
{
	memset(out, 0, sizeof *out);
	for (size_t i = 0; i < n; i++) {
		double wi = w ? w[i] : 1.0;
		bool pa = a[i] != 0, pt = truth[i] != 0;
		if (pa && pt)
			out->tp += wi;
		else if (pa)
			out->fp += wi;
		else if (pt)
			out->fn += wi;
		else
			out->tn += wi;
		out->sum_w += wi;
		out->sum_w2 += wi * wi;
	}
}

static bool wratio(double num, double den, const char *why_zero, double *out, agree_why *why)
{
	if (!(den > 0.0))
		return undefined(out, why, why_zero);
	return defined(out, why, num / den);
}

bool agree_wtpr(const struct agree_wbinary *c, double *out, agree_why *why)
{
	return wratio(c->tp, c->tp + c->fn, "no human pass", out, why);
}

bool agree_wtnr(const struct agree_wbinary *c, double *out, agree_why *why)
{
	return wratio(c->tn, c->tn + c->fp, "no human fail", out, why);
}

bool agree_wprecision(const struct agree_wbinary *c, double *out, agree_why *why)
{
	return wratio(c->tp, c->tp + c->fp, "no machine pass", out, why);
}

bool agree_wexact(const int *a, const int *b, const double *w, size_t n, double *out,
                  agree_why *why)
{
	double same = 0, all = 0;
	for (size_t i = 0; i < n; i++) {
		double wi = w ? w[i] : 1.0;
		same += a[i] == b[i] ? wi : 0.0;
		all += wi;
	}
	return wratio(same, all, "no items", out, why);
}

double agree_kish_n(const double *w, size_t n)
{
	if (!w)
		return (double)n;
	double s = 0, s2 = 0;
	for (size_t i = 0; i < n; i++) {
		s += w[i];
		s2 += w[i] * w[i];
	}
	return s2 > 0.0 ? s * s / s2 : 0.0;
}

bool agree_wilson(double p, double n, double z, double *lo, double *hi)
{
	*lo = *hi = 0;
	if (!(n > 0.0) || !is_rate(p))
		return false;
	double z2 = z * z;
	double centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
	double half = z / (n + z2) * sqrt(n * p * (1.0 - p) + z2 / 4.0);
	*lo = centre - half < 0.0 ? 0.0 : centre - half;
	*hi = centre + half > 1.0 ? 1.0 : centre + half;
	return true;
}

double agree_wilson_n_for_width(double p, double width, double z)
{
	if (!(width > 0.0 && width <= 1.0) || !is_rate(p))
		return NAN;
	double h = width / 2.0, pq = p * (1.0 - p), h2 = h * h;
	double root = sqrt(pq * pq + h2 * (1.0 - 4.0 * pq));
	double n = z * z * ((pq - 2.0 * h2) + root) / (2.0 * h2);
	return n < 0.0 ? 0.0 : n;
}

/* 2 * P(X <= min(b, c)) for X ~ Binomial(b + c, 1/2). The largest term,
 * at i = min(b, c), comes from lgamma (no factorial overflows); the
 * smaller ones follow from it by C(n, i-1) = C(n, i) * i / (n - i + 1)
 * until they stop mattering, so large counts cost little and lose
 * nothing. */
double agree_mcnemar_exact(size_t b, size_t c)
{
	size_t k = b < c ? b : c;
	double n = (double)b + (double)c;
	if (n == 0.0)
		return 1.0;
	double top = exp(lgamma(n + 1.0) - lgamma((double)k + 1.0) - lgamma(n - (double)k + 1.0) -
	                 n * log(2.0));
	if (top == 0.0)
		return 0.0;        /* below the smallest double: every term is */
	double sum = 0.0, term = top;
	for (size_t i = k;; i--) {
		sum += term;
		if (i == 0 || term < sum * 1e-17)
			break;
		term *= (double)i / (n - (double)i + 1.0);
	}
	double p = 2.0 * sum;
	return p > 1.0 ? 1.0 : p;
}

/* ---- resampling ------------------------------------------------------ */

void agree_rng_seed(struct agree_rng *rng, uint64_t seed)
{
	rng->state = seed;
}

/* splitmix64 (Steele, Lea and Flood 2014), the constants of its
 * reference implementation. */
uint64_t agree_rng_next(struct agree_rng *rng)
{
	uint64_t z = (rng->state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Draws below 2^64 mod n are thrown back: what remains is a whole
 * number of copies of 0..n-1, so `% n` favours none of them. */
size_t agree_rng_below(struct agree_rng *rng, size_t n)
{
	if (n <= 1)
		return 0;
	uint64_t bound = (uint64_t)n, skip = (0 - bound) % bound;
	uint64_t r;
	do
		r = agree_rng_next(rng);
	while (r < skip);
	return (size_t)(r % bound);
}

double agree_percentile(const double *sorted, size_t n, double p)
{
	if (n == 0)
		return 0.0;
	if (!(p > 0.0))
		p = 0.0;        /* NaN too */
	if (p > 1.0)
		p = 1.0;
	double pos = p * (double)(n - 1);
	size_t i = (size_t)pos;
	if (i + 1 >= n)
		return sorted[n - 1];
	return sorted[i] + (pos - (double)i) * (sorted[i + 1] - sorted[i]);
}

/* The statistic on `reps` resamples drawn from one generator, in one
 * order, so a seed fixes every resample; the defined values are kept. */
static size_t resample(size_t n, size_t reps, uint64_t seed, agree_stat_fn stat, void *ctx,
                       double *vals)
{
	struct agree_rng rng;
	agree_rng_seed(&rng, seed);
	size_t *idx = xcalloc(n, sizeof *idx), kept = 0;
	for (size_t r = 0; r < reps; r++) {
		for (size_t i = 0; i < n; i++)
			idx[i] = agree_rng_below(&rng, n);
		double v = 0.0;
		if (stat(idx, n, ctx, &v) && isfinite(v))
			vals[kept++] = v;
	}
	free(idx);
	return kept;
}

bool agree_bootstrap(size_t n, size_t reps, uint64_t seed, double level, agree_stat_fn stat,
                     void *ctx, double *lo, double *hi, agree_why *why)
{
	*hi = 0.0;
	if (n == 0)
		return undefined(lo, why, "no items");
	if (reps == 0)
		return undefined(lo, why, "no resamples");
	if (!(level > 0.0 && level < 1.0))
		return undefined(lo, why, "level outside (0, 1)");
	double *vals = xcalloc(reps, sizeof *vals);
	size_t kept = resample(n, reps, seed, stat, ctx, vals);
	if (kept * 2 < reps) {
		free(vals);
		return undefined(lo, why, "too few defined resamples");
	}
	qsort(vals, kept, sizeof *vals, cmp_double);
	*lo = agree_percentile(vals, kept, (1.0 - level) / 2.0);
	*hi = agree_percentile(vals, kept, (1.0 + level) / 2.0);
	free(vals);
	if (why)
		*why = NULL;
	return true;
}
