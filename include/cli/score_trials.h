/* score_trials.h - `tcreview score --task`: each scorer's verdicts counted
 * by task, and pass^k and pass@k over the tasks' trials (util/trials.h).
 *
 * score's writer adds each run's verdicts as it writes them, in input
 * order: one hash lookup per run, no second pass over the records. A trial
 * counts for a scorer when the scorer passed or failed it; a skip or an
 * error is left out (and counted, so the output can say how many). */
#ifndef TCR_CLI_SCORE_TRIALS_H
#define TCR_CLI_SCORE_TRIALS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "config/config.h"
#include "util/trials.h"
#include "verdict/verdict.h"

struct score_trials;

/* Counts for nscorers scorers by the task spec names (an id spec: one
 * path, or several separated by one space; runs/runs_conf.h). */
struct score_trials *score_trials_new(const char *spec, size_t nscorers);
void score_trials_free(struct score_trials *t);
const char *score_trials_spec(const struct score_trials *t);

/* The counts of task, one per scorer, for score_trials_verdict; NULL (the
 * run counted as one without a task) when task is NULL. */
struct trials_task *score_trials_task(struct score_trials *t, const char *task);
/* One verdict of a run on the counts score_trials_task gave (NULL: none). */
void score_trials_verdict(struct score_trials *t, struct trials_task *counts, size_t scorer,
                          enum verdict_status status, bool passed);

/* One scorer's figures for one k: the means over `tasks` tasks. */
struct score_passk {
	unsigned k;
	double hat, at;         /* pass^k, pass@k */
	size_t tasks;
};

/* One scorer's totals and figures, k = 1 .. nk (nk the fewest counted
 * trials of any task with one; 0 when no task has any). */
struct score_trials_figs {
	size_t tasks;           /* tasks with a counted trial */
	size_t trials;          /* trials counted */
	size_t left_out;        /* verdicts skipped or in error */
	unsigned nk;
	struct score_passk *k;  /* nk of them (owned) */
};

/* Scorer i's figures; free them with score_trials_figs_free. */
void score_trials_figures(const struct score_trials *t, size_t i, struct score_trials_figs *out);
void score_trials_figs_free(struct score_trials_figs *f);
/* Runs without a task, and all runs added. */
size_t score_trials_untasked(const struct score_trials *t);
size_t score_trials_runs(const struct score_trials *t);

/* The writers (score_trials_write.c), called after the verdicts, once
 * every run is added. jsonl: per scorer in the configuration's order and
 * per k from 1, a pass^k line then a pass@k line; the left-out verdicts
 * are said on err. table: a table with a bar per k, fitted to the
 * terminal when out is one (else to 80 columns), with its footnotes. */
void score_trials_jsonl(FILE *out, FILE *err, const struct config *c,
                        const struct score_trials *t);
void score_trials_table(FILE *out, FILE *err, const struct config *c,
                        const struct score_trials *t);
/* What every output says on err: the runs without a task. */
void score_trials_untasked_note(FILE *err, const struct score_trials *t);

#endif
