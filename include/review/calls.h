/* calls.h - the reviewer's decisions on one call of the run under the
 * cursor (its label on the call scale, a correction) and on the run's
 * answer; each on disk before the call returns, as every decision.
 *
 * `call` is an index into the run's calls (run->calls); the file records it
 * from 1 (callrefs.h). */
#ifndef TCR_REVIEW_CALLS_H
#define TCR_REVIEW_CALLS_H

#include <stddef.h>

#include "annot/store.h"
#include "review/callrefs.h"
#include "review/session.h"
#include "util/error.h"

/* Labels call `call` with the call scale's label of `digit` (1 the first).
 * A digit beyond the scale fails with ERR_OFF_SCALE and the scale in words
 * ("1 correct, 2 partly, 3 wrong"). *name: the label given. */
int review_call_label(struct review *rv, size_t call, int digit, const char **name,
                      struct error *err);

/* Records a correction of call `call` (an index; run->ncalls for an
 * insertion at the end): `expected` is the JSON the correction holds
 * (NULL for a removal). CORR_ANSWER ignores `call`. */
int review_call_correct(struct review *rv, size_t call, enum correction_kind kind,
                        const char *expected, struct error *err);

/* Takes back the latest standing call decision of this reviewer on `call`
 * (callrefs_latest_on); *what: what it was ("label wrong", "correction").
 * ERR_NOTHING_TO_RETRACT when none stands. */
int review_call_retract(struct review *rv, size_t call, const char **what, struct error *err);
/* When this reviewer's latest standing label or correction of `call` (of
 * the run shown) was made, or NULL: x takes back a call's tag or its call
 * decision, whichever is later. */
const char *review_call_latest_at(const struct review *rv, size_t call);

/* This reviewer's call decisions on rr's run (ncalls 0 and nothing
 * gathered when it has none). Free with callrefs_free. */
void review_call_decs(const struct review *rv, const struct review_run *rr,
                      struct run_call_decs *out);

/* The scale in words: "1 correct, 2 partly, 3 wrong". */
void review_call_scale(const struct review *rv, char *out, size_t n);

#endif
