/* fewshot.h - the candidates of the judges' few-shot examples
 * (judge/examples.h): every run with a standing human label on the row of
 * a judge that has `examples:`, the label being the consensus of the
 * reviewers (labels.h) with stale labels left out.
 *
 * `tcreview judge` offers every run it reads; the screen offers the runs
 * of its session that have labels, and builds again when labels change.
 * The runs offered are kept (they are rendered into the prompts), the
 * others are not. The reason and time of a candidate are borrowed from
 * the annotations store, which must outlive the set.
 *
 *   fewshot_init(&fs, cfg, store);
 *   for each run: if (fewshot_wants(&fs, run->id)) fewshot_offer(&fs, run, hash);
 *   judge_runner_opts.examples = fewshot_candidates, .examples_ctx = &fs
 */
#ifndef TCR_REVIEW_FEWSHOT_H
#define TCR_REVIEW_FEWSHOT_H

#include <stdbool.h>
#include <stddef.h>

#include "annot/store.h"
#include "config/config.h"
#include "judge/examples.h"
#include "runs/dataset.h"
#include "util/htab.h"

struct fewshot_list {
	const struct judge_conf *judge;
	struct judge_example *ex;
	size_t n, cap;
};

struct fewshot {
	const struct config *cfg;
	const struct annot_store *store;
	struct fewshot_list *lists;     /* one per judge with examples, in configuration order */
	size_t nlists;
	struct htab wanted;             /* run ids (owned char *) labelled on such a judge */
	char **ids;                     /* the same, to free */
	size_t nids, ids_cap;
	struct run **runs;              /* the runs kept */
	size_t nruns, runs_cap;
	size_t stale;                   /* labels left out as stale */
	size_t ties;                    /* runs whose reviewers tie */
};

/* Notes which runs have standing decisions on the rows of judges with
 * examples (none when store is NULL or no judge has examples). */
void fewshot_init(struct fewshot *fs, const struct config *cfg, const struct annot_store *store);
void fewshot_free(struct fewshot *fs);
/* Whether any judge with examples is configured. */
bool fewshot_needed(const struct config *cfg);
/* Whether a run of this id has a standing label on such a judge. */
bool fewshot_wants(const struct fewshot *fs, const char *run_id);
/* Offers a loaded run and the SHA-256 (hex) of its record: a candidate of
 * each judge on whose row the reviewers agree on a label not stale. True
 * when the set keeps the run (then it is the set's, freed with it); false
 * when the caller keeps it. */
bool fewshot_offer(struct fewshot *fs, struct run *run, const char *run_hash);
/* Offers every record of a dataset (indexed), loading those whose run is
 * wanted. How many records could not be read goes to *unreadable. */
void fewshot_offer_dataset(struct fewshot *fs, struct dataset *ds, const struct format_ops *forced,
                           const char *id_path, size_t *unreadable);

/* A judge_examples_fn: ctx is the struct fewshot. */
size_t fewshot_candidates(void *ctx, const char *judge_id, const struct judge_example **out);

#endif
