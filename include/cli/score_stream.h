/* score_stream.h - `tcreview score`'s loop: every record of the inputs
 * loaded and scored, on the machine's cores, reported in input order. */
#ifndef TCR_CLI_SCORE_STREAM_H
#define TCR_CLI_SCORE_STREAM_H

#include "cli/report.h"
#include "cli/score_trials.h"
#include "config/config.h"
#include "runs/dataset.h"
#include "runs/format.h"
#include "scorers/evaluate.h"

/* The most workers score_stream starts (more are clamped to it). */
#define SCORE_WORKERS_MAX 16

/* Workers worth starting here: the cores online, 0 when there is one
 * (the loop then runs in the calling thread alone). */
unsigned score_workers(void);

/* How many records each input held and how many of them were read (parsed
 * and loaded without a load error): arrays of ds->nfiles, zeroed by the
 * caller, so it can tell an input of which nothing could be read. With
 * trials (score --task; may be NULL), each run's verdicts are also counted
 * by its task, as they are written. */
struct score_reading {
	size_t *records;
	size_t *read;
	struct score_trials *trials;
};

/* Scores every record of ds with ev and hands each verdict to rep (rows in
 * input order, as a loop over the records would) and to stats[nscorers].
 * Records that do not parse or load are reported on stderr, each before
 * its rows. With workers > 0 that many threads load and score while the
 * caller reads the inputs and writes; memory stays bounded by the largest
 * record and a few hundred KB of small ones in flight. reading may be NULL. */
void score_stream(struct dataset *ds, const struct config *c, const struct evaluator *ev,
                  const struct format_ops *forced, const struct report_ops *rep, void *rep_state,
                  struct score_stats *stats, struct score_reading *reading, unsigned workers);

#endif
