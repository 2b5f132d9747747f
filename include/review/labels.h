/* labels.h - human labels: a reviewer's standing decision on a verdict row
 * read as a score on the row's scale, and the consensus of reviewers.
 *
 * A label is the decision's score (accept = the machine's score) and
 * passes by the row's threshold. Per (run, row, reviewer) the latest
 * standing decision counts. A label whose run_hash differs from the run
 * now loaded is stale: counted and shown, left out of figures unless
 * asked for. The consensus is the majority for pass/fail, the median for
 * 1..5 and 0..1 (an even count whose middle two differ on 1..5, or an even
 * split on pass/fail, is a tie: no consensus, counted). */
#ifndef TCR_REVIEW_LABELS_H
#define TCR_REVIEW_LABELS_H

#include <stdbool.h>
#include <stddef.h>

#include "annot/store.h"
#include "verdict/scale.h"

struct review;

struct label {
	const char *reviewer;
	double score;
	bool passed;
	bool stale;
	const struct decision *d;
};

#define LABELS_MAX 64

/* The labels of every reviewer (or only those named, when reviewers is
 * not NULL) on row `row` of entry `entry`, sorted by reviewer name.
 * An accept of a verdict without a score (skipped, an error) is no label.
 * A label is stale when its decision recorded a run_hash and the entry's
 * record now hashes otherwise; a v1 decision (no run_hash) never is.
 * Returns how many were written to out (at most max); 0 for an entry not
 * summarized yet. */
size_t review_labels(const struct review *rv, size_t entry, size_t row,
                     const char *const *reviewers, size_t nreviewers,
                     struct label *out, size_t max);

/* The same from a store, for callers without a session (the judges'
 * examples): the labels on row `row_id` of run `run_id`; run_hash is the
 * record's SHA-256 in hex now, or NULL when unknown (nothing is stale).
 * A decision whose score does not lie on `span` (the row's scale now) was
 * made on another scale, the row's configuration having changed since:
 * it is no label on this one, and is left out rather than read as a
 * score it never meant. span may be NULL (no check). */
size_t labels_in_store(const struct annot_store *s, const char *run_id, const char *row_id,
                       const char *run_hash, const struct scale *span, double threshold,
                       const char *const *reviewers, size_t nreviewers,
                       struct label *out, size_t max);

enum consensus_result {
	CONSENSUS_NONE,             /* no label */
	CONSENSUS_OK,
	CONSENSUS_TIE,
};
/* The consensus of labels on a span with a threshold; stale ones are
 * left out unless include_stale. Each label passes when its score reaches
 * the threshold. Binary: the majority of pass and fail (score lo or hi of
 * the span), an even split a tie. 1..5: the median, a tie when an even
 * count's middle two differ. 0..1 (and other continuous spans): the
 * median, the mean of the middle two for an even count. *score and
 * *passed are set only for CONSENSUS_OK. */
enum consensus_result labels_consensus(const struct label *l, size_t n, const struct scale *span,
                                       double threshold, bool include_stale, double *score,
                                       bool *passed);

/* The row's pass threshold (a scorer's params threshold, a judge's);
 * NAN when there is no such row. */
double review_row_threshold(const struct review *rv, size_t row);

/* Whether any label on the entry, of any reviewer on any row, is stale
 * (the filter "stale label"). False before the entry is summarized. */
bool review_entry_has_stale(const struct review *rv, size_t entry);

#endif
