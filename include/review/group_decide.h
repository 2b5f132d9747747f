/* group_decide.h - one decision for many runs: a label or a tag on every run
 * of a group, and the whole group taken back by one line.
 *
 * Each run gets its own decision line (its own record, with its run's hash
 * and the machine's verdict as every label has), all with the same `group`
 * id (annot_group_id), written by one annot_append_many: one write() and
 * one fsync(), so after a crash the group is in the file whole or not at
 * all (a torn last line is skipped at the next read). */
#ifndef TCR_REVIEW_GROUP_DECIDE_H
#define TCR_REVIEW_GROUP_DECIDE_H

#include <stdbool.h>
#include <stddef.h>

#include "util/error.h"

struct review;

/* What a group decision did: its id, the lines written, and the runs left
 * out (a record that was not read, a judge that has not answered, a run id
 * seen twice). */
struct group_outcome {
	char group[40];
	size_t written;
	size_t skipped;
};

/* Labels verdict row `row` on every run of `entries`: `accept` takes each
 * run's own machine score (refused in blind mode), else `score` (an accept
 * where it equals the machine's, an override elsewhere, as review_label). */
int review_group_label(struct review *rv, size_t row, bool accept, double score,
                       const size_t *entries, size_t n, struct group_outcome *out,
                       struct error *err);

/* Tags every run of `entries` with the code `code` (a free code or a
 * defined tag's id), as a run-level tag (call 0). */
int review_group_tag(struct review *rv, const char *code, const size_t *entries, size_t n,
                     struct group_outcome *out, struct error *err);

/* The group of this reviewer's standing decision on (entry, row), and how
 * many of its decisions still stand; NULL when it was not made for a group. */
const char *review_group_of_row(const struct review *rv, size_t entry, size_t row,
                                size_t *standing);

/* Takes back every decision of `group` still standing, with one line. */
int review_group_retract(struct review *rv, const char *group, struct error *err);

#endif
