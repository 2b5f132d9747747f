/* failmodes.h - the failure modes the reviewers' tags count, for stats
 * and calibration.
 *
 * A tag counts under the name vocab_tag_name gives its code (the
 * tag-aliases followed, then the defined tag that absorbs it). A run is
 * reviewed by a reviewer who holds any standing decision on it (a label,
 * a note, a tag, a call label, a correction); a run is tagged with a
 * failure mode when a reviewer's tag on the run or on one of its calls
 * counts under it. The share of a failure mode is its tagged runs over
 * the reviewed runs, with a Wilson 95% interval. */
#ifndef TCR_REVIEW_FAILMODES_H
#define TCR_REVIEW_FAILMODES_H

#include <stdbool.h>
#include <stddef.h>

#include "review/labels.h"

struct review;

struct failmode {
	const char *tag;            /* the name it counts under (borrowed from the store or config) */
	bool defined;               /* a failure mode of tags: */
	const char *reviewer;       /* NULL: every reviewer */
	size_t runs;                /* runs tagged with it */
	size_t reviewed;            /* runs reviewed (the share's denominator) */
	size_t calls;               /* calls tagged with it (distinct run and call) */
	bool ok;                    /* reviewed > 0: share, low and high hold */
	double share, low, high;
};

struct failmodes {
	struct failmode *rows;      /* per name: the overall row, then one per reviewer */
	size_t n;
	size_t reviewed;            /* runs any counted reviewer reviewed */
	size_t nreviewers;
};

/* The failure modes of the session's summarized runs: the defined tags
 * first (in tags: order, even untagged), then free codes by runs tagged
 * (most first) and name. reviewers (n of them) restricts whose decisions
 * count; NULL: everyone's. Free with failmodes_free. */
void review_failmodes(const struct review *rv, const char *const *reviewers, size_t nreviewers,
                      struct failmodes *out);
void failmodes_free(struct failmodes *f);

/* The failure mode a scorer or judge row declares with `criterion:` (its
 * defined tag's id, and whether a passing verdict means present), or NULL. */
const char *review_row_criterion(const struct review *rv, size_t row, bool *present_pass);

/* The reviewers' labels for failure mode `tag` on one entry, as labels
 * on a binary scale sorted by reviewer: 1 (passed) from each reviewer who
 * tagged the run or one of its calls with a code counting under it, 0
 * from each who reviewed the run otherwise. Never stale. */
size_t review_tag_labels(const struct review *rv, size_t entry, const char *tag,
                         const char *const *reviewers, size_t nreviewers,
                         struct label *out, size_t max);

/* The Wilson score interval of k successes in n at 95%; n > 0. */
void failmodes_wilson(size_t k, size_t n, double *low, double *high);

#endif
