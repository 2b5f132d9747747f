/* split.c - stable named splits of runs (train, dev, test) by a hash of the run id. */
#include "annot/split.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/hash.h"
#include "util/error.h"

/* Spaces around names and weights are the writer's; "train = 0.6" reads. */
static void trim(const char **b, const char **e)
{
	while (*b < *e && isspace((unsigned char)**b))
		(*b)++;
	while (*e > *b && isspace((unsigned char)(*e)[-1]))
		(*e)--;
}

/* One "name=weight" part into slot sp->n; -1 with a reason. */
static int parse_part(struct split_spec *sp, const char *b, const char *e, double *w,
                      struct error *err)
{
	const char *eq = memchr(b, '=', (size_t)(e - b));
	if (!eq) {
		error_set(err, ERR_FAILED, "\"%.*s\" is not NAME=WEIGHT", (int)(e - b), b);
		return -1;
	}
	const char *nb = b, *ne = eq, *wb = eq + 1, *we = e;
	trim(&nb, &ne);
	trim(&wb, &we);
	size_t nlen = (size_t)(ne - nb);
	if (!nlen) {
		error_set(err, ERR_FAILED, "a split has no name before '='");
		return -1;
	}
	if (nlen >= sizeof sp->names[0]) {
		error_set(err, ERR_FAILED, "split name \"%.*s\" is longer than %zu bytes", (int)nlen, nb,
		         sizeof sp->names[0] - 1);
		return -1;
	}
	memcpy(sp->names[sp->n], nb, nlen);
	sp->names[sp->n][nlen] = '\0';
	if (split_find(sp, sp->names[sp->n]) >= 0) {       /* only the slots before this one */
		error_set(err, ERR_FAILED, "split %s is named twice", sp->names[sp->n]);
		return -1;
	}
	char num[64];
	size_t wlen = (size_t)(we - wb);
	char *end = NULL;
	if (wlen && wlen < sizeof num) {
		memcpy(num, wb, wlen);
		num[wlen] = '\0';
		*w = strtod(num, &end);
	}
	if (!wlen || wlen >= sizeof num || *end || !isfinite(*w)) {
		error_set(err, ERR_FAILED, "weight of %s is not a number", sp->names[sp->n]);
		return -1;
	}
	if (*w < 0) {
		error_set(err, ERR_FAILED, "weight of %s is negative", sp->names[sp->n]);
		return -1;
	}
	return 0;
}

int split_parse(struct split_spec *sp, const char *text, uint64_t seed, struct error *err)
{
	memset(sp, 0, sizeof *sp);
	sp->seed = seed;
	if (!text) {
		error_set(err, ERR_FAILED, "no splits given");
		return -1;
	}
	double w[SPLIT_MAX], total = 0;
	const char *p = text;
	for (;;) {
		const char *e = strchr(p, ',');
		if (!e)
			e = p + strlen(p);
		if (sp->n == SPLIT_MAX) {
			error_set(err, ERR_FAILED, "more than %d splits", SPLIT_MAX);
			return -1;
		}
		if (parse_part(sp, p, e, &w[sp->n], err) < 0)
			return -1;
		total += w[sp->n++];
		if (!*e)
			break;
		p = e + 1;
	}
	if (!(total > 0)) {
		error_set(err, ERR_FAILED, "the weights add up to zero");
		return -1;
	}
	double cum = 0;
	for (size_t i = 0; i < sp->n; i++) {
		cum += w[i];
		sp->upto[i] = cum / total;
	}
	sp->upto[sp->n - 1] = 1.0;      /* rounding must not leave a gap below 1 */
	return 0;
}

/* The finalizer of MurmurHash3 (fmix64): every input bit reaches every
 * output bit, so the top bits taken as the fraction are well spread. */
static uint64_t mix64(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return h;
}

double split_fraction(uint64_t seed, const char *run_id)
{
	unsigned char sb[8];
	/* byte by byte, so the value is the same on every machine */
	for (int i = 0; i < 8; i++)
		sb[i] = (unsigned char)(seed >> (8 * i));
	uint64_t h = hash_fnv1a(sb, sizeof sb, HASH_FNV_SEED);
	h = hash_fnv1a(run_id ? run_id : "", run_id ? strlen(run_id) : 0, h);
	/* 53 bits fill a double's mantissa exactly, so the result stays below 1 */
	return (double)(mix64(h) >> 11) / 9007199254740992.0;
}

const char *split_of(const struct split_spec *sp, const char *run_id)
{
	double f = split_fraction(sp->seed, run_id);
	for (size_t i = 0; i < sp->n; i++)
		if (f < sp->upto[i])
			return sp->names[i];
	return sp->n ? sp->names[sp->n - 1] : NULL;
}

int split_find(const struct split_spec *sp, const char *name)
{
	for (size_t i = 0; name && i < sp->n; i++)
		if (!strcmp(sp->names[i], name))
			return (int)i;
	return -1;
}
