/* evaluate.h - every configured scorer on one run, with its expectation.
 *
 * Shared by `tcreview score` and the review screen so both show the same
 * verdicts for the same run. */
#ifndef TCR_EVALUATE_H
#define TCR_EVALUATE_H

#include "config/config.h"
#include "runs/expect.h"
#include "runs/run.h"
#include "scorers/scorer.h"

struct evaluator {
	const struct config *config;
	struct expectations *expect;   /* NULL when none are configured */
};

/* Fills verdicts[0 .. config->nscorers). Callers verdict_clear() them. */
void evaluator_run(const struct evaluator *ev, const struct run *r, struct verdict *verdicts);
/* The verdict every scorer gets for a record that could not be parsed. */
void evaluator_fail_all(const struct evaluator *ev, const char *why, struct verdict *verdicts);

#endif
