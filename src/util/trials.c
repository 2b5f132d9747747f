/* trials.c - pass^k, pass@k and McNemar's exact test (util/trials.h). */
#include "util/trials.h"

#include <math.h>
#include <stdlib.h>

#include "util/xalloc.h"

/* C(a,k)/C(n,k) = prod_{i<k} (a-i)/(n-i), 0 when a < k: never a factorial,
 * so no overflow and no rounding beyond k products. */
static double choose_ratio(unsigned a, unsigned n, unsigned k)
{
	if (a < k)
		return 0;
	double r = 1;
	for (unsigned i = 0; i < k; i++)
		r *= (double)(a - i) / (double)(n - i);
	return r;
}

static bool valid(unsigned n, unsigned c, unsigned k)
{
	return k >= 1 && k <= n && c <= n;
}

bool trials_pass_hat_k(unsigned n, unsigned c, unsigned k, double *out)
{
	*out = 0;
	if (!valid(n, c, k))
		return false;
	*out = choose_ratio(c, n, k);
	return true;
}

bool trials_pass_at_k(unsigned n, unsigned c, unsigned k, double *out)
{
	*out = 0;
	if (!valid(n, c, k))
		return false;
	/* At k = 1 it is c/n, as pass^1 is: the same division, so the two
	 * print alike instead of differing in the last digit of 1 - (n-c)/n. */
	*out = k == 1 ? (double)c / (double)n : 1 - choose_ratio(n - c, n, k);
	return true;
}

unsigned trials_k_max(const struct trials_task *t, size_t ntasks)
{
	unsigned k = 0;
	for (size_t i = 0; i < ntasks; i++)
		if (t[i].n && (k == 0 || t[i].n < k))
			k = t[i].n;
	return k;
}

bool trials_mean(const struct trials_task *t, size_t ntasks, unsigned k, bool at,
                 double *out, size_t *counted)
{
	double sum = 0;
	size_t m = 0;
	*out = 0;
	*counted = 0;
	for (size_t i = 0; i < ntasks; i++) {
		if (!t[i].n)
			continue;
		double v;
		if (!(at ? trials_pass_at_k : trials_pass_hat_k)(t[i].n, t[i].c, k, &v))
			return false;
		sum += v;
		m++;
	}
	if (!m)
		return false;
	*out = sum / (double)m;
	*counted = m;
	return true;
}

bool trials_curve(const struct trials_task *t, size_t ntasks, unsigned kmax, double *hat,
                  double *at, size_t *counted)
{
	*counted = 0;
	if (kmax == 0 || kmax > trials_k_max(t, ntasks))
		return false;
	for (size_t j = 0; j < ntasks; j++)
		if (t[j].c > t[j].n)
			return false;
	/* Per task the running products C(c,k)/C(n,k) and C(n-c,k)/C(n,k),
	 * multiplied in the order choose_ratio multiplies them. */
	double *h = xcalloc(ntasks ? ntasks : 1, sizeof *h);
	double *miss = xcalloc(ntasks ? ntasks : 1, sizeof *miss);
	for (size_t j = 0; j < ntasks; j++)
		h[j] = miss[j] = 1;
	size_t m = 0;
	for (unsigned k = 1; k <= kmax; k++) {
		double sum_hat = 0, sum_at = 0;
		unsigned i = k - 1;
		m = 0;
		for (size_t j = 0; j < ntasks; j++) {
			unsigned n = t[j].n, c = t[j].c;
			if (!n)
				continue;
			h[j] = c < k ? 0 : h[j] * ((double)(c - i) / (double)(n - i));
			miss[j] = n - c < k ? 0 : miss[j] * ((double)(n - c - i) / (double)(n - i));
			sum_hat += h[j];
			sum_at += k == 1 ? (double)c / (double)n : 1 - miss[j];
			m++;
		}
		if (hat)
			hat[k - 1] = sum_hat / (double)m;
		if (at)
			at[k - 1] = sum_at / (double)m;
	}
	free(h);
	free(miss);
	*counted = m;
	return true;
}

double trials_mcnemar_exact(unsigned b, unsigned c)
{
	unsigned n = b + c;
	if (n == 0)
		return 1;
	unsigned lo = b < c ? b : c;
	double sum = 0;
	if (n <= 1000) {
		/* C(n,i) / 2^n term by term from 2^-n, which a double holds
		 * down to n = 1074: rounding only, no cancellation. */
		double term = ldexp(1.0, -(int)n);
		for (unsigned i = 0; i <= lo; i++) {
			sum += term;
			term = term * (double)(n - i) / (double)(i + 1);
		}
	} else {
		/* In logs, each term relative to the largest (the last), so
		 * none underflows before its share is known. */
		double lg_n = lgamma((double)n + 1), ln2n = (double)n * log(2.0);
		double top = lg_n - lgamma((double)lo + 1) - lgamma((double)(n - lo) + 1) - ln2n;
		double rel = 0;
		for (unsigned i = 0; i <= lo; i++)
			rel += exp(lg_n - lgamma((double)i + 1) - lgamma((double)(n - i) + 1) - ln2n - top);
		sum = exp(top) * rel;
	}
	double p = 2 * sum;
	return p > 1 ? 1 : p;
}
