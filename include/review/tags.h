/* tags.h - failure-mode tags on a run or one of its calls, from the review
 * session: writing and taking them back, what the tag prompt completes
 * with, renames and merges (tag-aliases), and the filter to a tag's runs.
 * (src/review/tags.c; the counts are annot/tagcount.h's.)
 *
 * A call is named by its number among the run's calls from 1 (the call
 * marks' numbering; 0 is the run itself). */
#ifndef TCR_REVIEW_TAGS_H
#define TCR_REVIEW_TAGS_H

#include <stdbool.h>
#include <stddef.h>
#include "review/session.h"
#include "util/error.h"

/* A tag the prompt offers: a defined one (with its description as a hint)
 * or a free code already in the file. Borrowed from the configuration and
 * the store, valid until the next decision. */
struct tag_cand {
	const char *name;
	const char *hint;           /* a defined tag's description, or what a code counts under */
	bool defined;
	char key;                   /* a defined tag's key, '\0' when none */
};

/* The tags that match `typed` (case aside): those that start with it
 * first, then those that hold it; defined tags before free codes in each.
 * Returns how many (at most max) were written to out. */
size_t review_tag_candidates(const struct review *rv, const char *typed, struct tag_cand *out,
                             size_t max);

/* The spelling a typed code is written with: a known code or defined tag
 * equal to it (vocab_code_eq), else `typed` itself. */
const char *review_tag_spelling(const struct review *rv, const char *typed);

/* Tags the run under the cursor (call 0) or its call with `code`.
 * Returns 0 when written, 1 when this reviewer's tag stands there already
 * (nothing written), -1 with the reason. */
int review_tag(struct review *rv, long call, const char *code, struct error *err);

/* The standing tags on a run: call 0 the run's own, a number that call's,
 * -1 all of them. Every reviewer's, oldest first. Returns how many (out
 * holds at most max). */
size_t review_tags_on(const struct review *rv, const char *run, long call,
                      const struct decision **out, size_t max);

/* This reviewer's latest standing tag on the current run's (run, call),
 * or NULL. */
const struct decision *review_latest_tag(const struct review *rv, long call);

/* Whether `x` on the run means its latest tag: this reviewer's latest tag
 * on the run is newer than its standing decision on verdict row `row`. */
bool review_tag_is_latest(const struct review *rv, size_t row);

/* Takes back this reviewer's latest tag on (current run, call); its code
 * is copied to code[n]. */
int review_untag(struct review *rv, long call, char *code, size_t n, struct error *err);

/* Renames, merges or promotes codes[0..n) into `to`: one tag-alias each,
 * in one write. A code that already counts under `to` is left out. */
int review_tag_alias(struct review *rv, const char *const *codes, size_t n, const char *to,
                     struct error *err);
/* Takes back the alias standing on `code`. */
int review_tag_unalias(struct review *rv, const char *code, struct error *err);

/* FILTER_TAG: the runs with a tag counting under `name` (on the run or a
 * call; filters.c decides which pass). */
void review_set_tag_filter(struct review *rv, const char *name);

#endif
