/* assign.h - a reviewer's share of the runs (`tcreview review --assign K/N[:OVERLAP%]`).
 *
 * The runs are split into N shares by a hash of the run id, so every
 * reviewer computes the same split without talking to the others, and a
 * run stays in its share when runs are added. OVERLAP% of the runs are in
 * every share, so each reviewer labels them and the reviewers' agreement
 * can be measured: a run whose fraction f (annot/split.h's split_fraction)
 * is below o = OVERLAP/100 is in every share; the others go to share
 * 1 + floor((f - o) / (1 - o) * N). */
#ifndef TCR_REVIEW_ASSIGN_H
#define TCR_REVIEW_ASSIGN_H

#include <stdbool.h>
#include <stddef.h>
#include "util/error.h"

/* The hash's seed: not the export split's, so the overlap is not made of
 * one split's runs. */
#define ASSIGN_SEED 0x61737369676eull       /* "assign" */

struct review_assign {
	bool on;
	unsigned k, n;              /* share k of n, 1 <= k <= n */
	double overlap;             /* 0..1 */
};

/* Parses "K/N" or "K/N:OVERLAP%" (the % may be left out); -1 with a reason
 * ("share 4 of 3: K must be 1..N") when it makes no sense. */
int review_assign_parse(struct review_assign *a, const char *text, struct error *err);
/* The share of a run: 1..n, or 0 when it is in every share (the overlap). */
unsigned review_assign_share(const struct review_assign *a, const char *run_id);
/* Whether the run is in share a->k (always, when a->on is false). */
bool review_assign_holds(const struct review_assign *a, const char *run_id);

#endif
