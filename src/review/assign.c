/* assign.c - a reviewer's share of the runs, by a hash of the run id (--assign K/N[:OVERLAP%]). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "review/assign.h"

#include "annot/split.h"
#include "util/error.h"

/* An unsigned decimal number of at most 9 digits; the end in *end. */
static int read_count(const char *p, const char **end, unsigned long *out)
{
	if (*p < '0' || *p > '9')
		return -1;
	char *e;
	errno = 0;
	unsigned long v = strtoul(p, &e, 10);
	if (errno || e - p > 9)
		return -1;
	*end = e;
	*out = v;
	return 0;
}

static int read_overlap(const char *p, double *out, struct error *err)
{
	char *e;
	errno = 0;
	double v = strtod(p, &e);
	if (e == p || errno || !isfinite(v)) {
		error_set(err, ERR_FAILED, "the overlap '%s' is not a number (K/N:OVERLAP%%, e.g. 2/3:10%%)", p);
		return -1;
	}
	if (*e == '%')
		e++;
	if (*e) {
		error_set(err, ERR_FAILED, "unexpected '%s' after the overlap (K/N:OVERLAP%%, e.g. 2/3:10%%)", e);
		return -1;
	}
	if (v < 0 || v > 100) {
		error_set(err, ERR_FAILED, "an overlap of %g%% is not in 0..100%%", v);
		return -1;
	}
	*out = v / 100;
	return 0;
}

int review_assign_parse(struct review_assign *a, const char *text, struct error *err)
{
	memset(a, 0, sizeof *a);
	const char *p = text ? text : "";
	unsigned long k, n;
	if (read_count(p, &p, &k) < 0 || *p != '/' || read_count(p + 1, &p, &n) < 0 ||
	    (*p && *p != ':')) {
		error_set(err, ERR_FAILED, "'%s' is not K/N or K/N:OVERLAP%% (e.g. 2/3 or 2/3:10%%)", text ? text : "");
		return -1;
	}
	if (n == 0) {
		error_set(err, ERR_FAILED, "'%s': there must be at least one share (N >= 1)", text);
		return -1;
	}
	if (k < 1 || k > n) {
		error_set(err, ERR_FAILED, "'%s': share %lu of %lu does not exist (K must be 1..%lu)", text, k, n, n);
		return -1;
	}
	double o = 0;
	if (*p == ':' && read_overlap(p + 1, &o, err) < 0)
		return -1;
	*a = (struct review_assign){ .on = true, .k = (unsigned)k, .n = (unsigned)n, .overlap = o };
	return 0;
}

unsigned review_assign_share(const struct review_assign *a, const char *run_id)
{
	if (!a->on || a->n == 0)
		return 0;
	double f = split_fraction(ASSIGN_SEED, run_id ? run_id : "");
	if (f < a->overlap)
		return 0;
	double s = floor((f - a->overlap) / (1 - a->overlap) * a->n);
	unsigned share = 1 + (s < 0 ? 0 : (unsigned)s);
	return share > a->n ? a->n : share;
}

bool review_assign_holds(const struct review_assign *a, const char *run_id)
{
	if (!a->on)
		return true;
	unsigned s = review_assign_share(a, run_id);
	return s == 0 || s == a->k;
}
