/* fewshot_gather.h - the candidates of the judges' examples (fewshot.h)
 * gathered from the session's labelled runs a slice at a time, so that
 * the screen's loop does it between keys instead of a key waiting while
 * thousands of runs are read.
 *
 * A pass looks at every summarized entry in order, as far as the entries
 * known when it gets there, and loads each run that has a label on a
 * judge with examples: the same runs, in the same order, as reading them
 * all at once, so the same examples are chosen.
 *
 *   fewshot_gather_start(&g, rv);
 *   while (!fewshot_gather_step(&g, rv, 10)) { keys, drawing }
 *   struct fewshot *set = fewshot_gather_take(&g);
 */
#ifndef TCR_REVIEW_FEWSHOT_GATHER_H
#define TCR_REVIEW_FEWSHOT_GATHER_H

#include <stdbool.h>
#include <stddef.h>

#include "review/fewshot.h"
#include "review/session.h"

struct fewshot_gather {
	struct fewshot *set;        /* being built; NULL when no pass is under way */
	size_t next;                /* the entry looked at next */
	size_t loaded;              /* labelled runs read so far */
	size_t decisions;           /* annot_count when the pass began */
	size_t summarized;          /* and the entries summarized then */
};

/* Begins a pass (a pass under way is dropped): the labelled runs are
 * those of the annotations now. */
void fewshot_gather_start(struct fewshot_gather *g, const struct review *rv);
/* Reads on for about budget_ms (at least one entry); true once the pass
 * has reached the last entry known. */
bool fewshot_gather_step(struct fewshot_gather *g, struct review *rv, double budget_ms);
/* Whether a pass is under way. */
bool fewshot_gather_running(const struct fewshot_gather *g);
/* The finished set (the caller's, fewshot_free and free); the gather is
 * idle again. */
struct fewshot *fewshot_gather_take(struct fewshot_gather *g);
/* Drops a pass under way. */
void fewshot_gather_stop(struct fewshot_gather *g);

#endif
