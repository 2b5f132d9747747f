/* evaluate.h - every configured scorer on one run, with its expectation.
 *
 * Shared by `tcreview score` and the review screen so both show the same
 * verdicts for the same run. */
#ifndef TCR_SCORERS_EVALUATE_H
#define TCR_SCORERS_EVALUATE_H

#include "runs/expect.h"
#include "runs/run.h"
#include "scorers/params.h"
#include "scorers/scorer.h"

struct evaluator {
	const struct scorer_conf *scorers;  /* the configuration's (config.h) */
	size_t nscorers;
	struct expectations *expect;   /* NULL when none are configured */
};

/* Fills verdicts[0 .. nscorers). Callers verdict_clear() them. */
void evaluator_run(const struct evaluator *ev, const struct run *r, struct verdict *verdicts);
/* The verdict every scorer gets for a record that could not be parsed. */
void evaluator_fail_all(const struct evaluator *ev, const char *why, struct verdict *verdicts);

#endif
