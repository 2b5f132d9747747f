/* split.h - a stable split of runs into named shares (train, dev, test) by
 * a hash of the run id, so a run lands in the same split on every export
 * and a judge's few-shot examples never come from the split it is
 * measured on.
 *
 * A spec is "train=0.6,dev=0.2,test=0.2" (names and weights; weights are
 * normalized, so "a=3,b=1" works too). A run's place is FNV-1a of the seed
 * and its id, put through a 64-bit finalizer (FNV-1a alone leaves ids that
 * differ in their last character next to each other), as a fraction in
 * [0, 1), against the cumulative weights. */
#ifndef TCR_ANNOT_SPLIT_H
#define TCR_ANNOT_SPLIT_H

#include <stddef.h>
#include <stdint.h>
#include "util/error.h"

#define SPLIT_DEFAULT "train=0.6,dev=0.2,test=0.2"
#define SPLIT_MAX 8

struct split_spec {
	size_t n;
	char names[SPLIT_MAX][32];
	double upto[SPLIT_MAX];     /* cumulative, the last is 1 */
	uint64_t seed;
};

/* Parses a spec; -1 with a reason ("weight of dev is not a number"). */
int split_parse(struct split_spec *sp, const char *text, uint64_t seed, struct error *err);
/* The split a run id falls in (one of sp->names). */
const char *split_of(const struct split_spec *sp, const char *run_id);
/* Whether `name` is one of the spec's splits. */
int split_find(const struct split_spec *sp, const char *name);

/* The same hash as a fraction in [0, 1), for other stable partitions
 * (review shares by --assign). */
double split_fraction(uint64_t seed, const char *run_id);

#endif
