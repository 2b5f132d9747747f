/* runner.h - the one judging path, used by `tcreview judge` and the screen.
 *
 * For one run and one judge:
 *   expectation lookup -> examples chosen -> job -> skipped? -> cache key
 *   -> cached verdict? -> request (judge_client) -> verdict -> cache put
 * The cache lives beside the first input (judge_cache_path); standard input
 * has none. The runner owns the client and the cache; jobs stay the
 * caller's (free them once finished: after done for a job that was sent).
 */
#ifndef TCR_JUDGE_RUNNER_H
#define TCR_JUDGE_RUNNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "judge/cache.h"
#include "judge/client.h"
#include "judge/judge.h"
#include "runs/expect.h"
#include "runs/run.h"
#include "util/error.h"

struct judge_runner_opts {
	int concurrency;                    /* requests in flight per provider (default 8) */
	const char *ca_file;                /* a private CA, or NULL */
	double timeout_s;                   /* overrides the judges' own when > 0 */
	FILE *trace;                        /* NULL, or where requests are described */
	bool refresh;                       /* ask again even when a verdict is cached */
	const char *first_input;            /* the cache goes beside it; NULL or "-": no cache */
	const struct expectations *expect;  /* NULL: no expectations */
	/* The candidate examples of the judges with `examples:` (examples.h);
	 * NULL: none, and such a judge is shown an empty {{examples}}. */
	judge_examples_fn examples;
	void *examples_ctx;
	/* No client: only the cached verdicts are read (judge_runner_cached,
	 * judge_runner_prepare); nothing may be submitted. A cache file that
	 * does not exist is then left uncreated and the runner has no cache,
	 * so a command that only reads writes nothing. */
	bool cache_only;
	/* A cache-only runner also reads the cache beside this input (the
	 * verdicts its own lacks): diff reads each side's runs with the other
	 * side's cache too, since `judge BASE CAND` keeps one beside BASE. */
	const char *also_input;
};

struct judge_runner;

/* The client and the cache. NULL with a reason when the client cannot
 * start; a cache that cannot be opened is not fatal (judge_runner_cache_error). */
struct judge_runner *judge_runner_new(const struct judge_runner_opts *o, struct error *err);
/* Unanswered jobs are dropped without their done callback (they are the
 * caller's to free). */
void judge_runner_free(struct judge_runner *r);
/* "PATH: reason" when the cache could not be opened, else NULL. */
const char *judge_runner_cache_error(const struct judge_runner *r);
struct judge_cache *judge_runner_cache(const struct judge_runner *r);
/* For polling, running, cancelling and counting (judge_client_*); NULL
 * for a cache-only runner. */
struct judge_client *judge_runner_client(const struct judge_runner *r);

enum judge_start {
	JUDGE_CACHED,       /* the job is finished with the cached verdict */
	JUDGE_SKIPPED,      /* the rubric does not apply: finished, skipped (or, for a
	                       cache-only runner, finished as an error: not asked) */
	JUDGE_TO_ASK,       /* prepared: it needs requests */
	JUDGE_ASKED,        /* sent: done is called when it is finished */
};

/* Every step up to the request: the job (in *job, the caller's) and the
 * cache key (into key). A cached verdict is used unless opts.refresh. */
enum judge_start judge_runner_prepare(struct judge_runner *r, const struct judge_conf *j,
                                      const struct run *run, struct judge_job **job, char key[17]);
/* Sends a prepared job. Once it is finished its verdict, unless an error,
 * goes to the cache, then done(ctx, job, tag) is called. The run need not
 * outlive the request. tag groups jobs for judge_client_cancel. */
void judge_runner_submit(struct judge_runner *r, const struct judge_conf *j, const struct run *run,
                         struct judge_job *job, const char key[17], uint64_t tag,
                         judge_done_fn done, void *ctx);
/* prepare, then submit when there is something to ask: JUDGE_CACHED,
 * JUDGE_SKIPPED (no callback; the job is finished) or JUDGE_ASKED. */
enum judge_start judge_runner_start(struct judge_runner *r, const struct judge_conf *j,
                                    const struct run *run, uint64_t tag, judge_done_fn done,
                                    void *ctx, struct judge_job **job);
/* A pairwise judge on runs a (base) and b (candidate): prepare and submit
 * as for one run, under judge_cache_key_pair. A run that did not load
 * finishes the job as an error (JUDGE_SKIPPED). */
enum judge_start judge_runner_prepare_pair(struct judge_runner *r, const struct judge_conf *j,
                                           const struct run *a, const struct run *b,
                                           struct judge_job **job, char key[17]);
void judge_runner_submit_pair(struct judge_runner *r, const struct judge_conf *j,
                              const struct run *a, struct judge_job *job, const char key[17],
                              uint64_t tag, judge_done_fn done, void *ctx);
/* The pairwise judge's cached answer on (a, b) as a the base, from its
 * verdict on (a, b), else on (b, a) with base and candidate swapped back;
 * PREF_NONE when neither is cached or the verdict is not an answer.
 * *v (may be NULL) gets the verdict found, or NULL. */
enum preference judge_runner_pair_answer(const struct judge_runner *r, const struct judge_conf *j,
                                         const struct run *a, const struct run *b,
                                         const struct verdict **v);
/* Puts a finished job's verdict into the cache unless it is an error (for
 * a job answered without the client, as from a batch file). 0, or -1. */
int judge_runner_keep(struct judge_runner *r, const struct judge_conf *j, const struct run *run,
                      const char key[17], const struct judge_job *job);
/* The cached verdict for a run and judge, or NULL (also under refresh:
 * this is for showing what was judged before, not for deciding to ask).
 * For a judge with examples: the verdict made with the examples it would
 * be shown now, else its latest on the run with other examples. */
const struct verdict *judge_runner_cached(const struct judge_runner *r, const struct judge_conf *j,
                                          const struct run *run);
/* The examples judge j is shown for run `run` now, into out (room for
 * JUDGE_EXAMPLES_MAX); 0 for a judge without examples. pick: disagreements
 * reads the judge's verdicts made without examples from the cache. */
size_t judge_runner_examples(const struct judge_runner *r, const struct judge_conf *j,
                             const struct run *run, const struct judge_example **out);
/* How many candidates the provider has for judge j (before the split and
 * the run judged are left out); for the note that a judge has none. */
size_t judge_runner_candidates(const struct judge_runner *r, const struct judge_conf *j);
/* Replaces the provider of candidates (the screen's, rebuilt as labels
 * change: the pointer may stay and its lists change). */
void judge_runner_set_examples(struct judge_runner *r, judge_examples_fn fn, void *ctx);

#endif
