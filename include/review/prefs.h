/* prefs.h - the reviewers' preferences between two runs of a task counted,
 * the reviewers against each other, and each pairwise judge's cached
 * answers against them (review/prefs.c). Read-only: no judge is asked.
 *
 * A pair labelled (A, B) and one labelled or judged (B, A) are the same
 * pair: every answer is turned to one orientation (the run that comes
 * first in the inputs is the base, as in `stats BASE CAND`; base and
 * candidate swapped for an answer the other way round) before two are
 * compared. The four answers are categories 0..3 in the order
 * base, cand, tie, both-bad (PREF_BASE - 1, ...). */
#ifndef TCR_REVIEW_PREFS_H
#define TCR_REVIEW_PREFS_H

#include <stdbool.h>
#include <stddef.h>

#include "review/session.h"

#define PREFS_CATS 4

struct judge_runner;

/* One reviewer's preferences, as written. */
struct prefs_reviewer {
	const char *reviewer;       /* the store's */
	size_t pairs;
	size_t count[PREFS_CATS];
};

/* Two reviewers on the pairs both labelled. */
struct prefs_between {
	const char *a, *b;
	size_t n, same;
	bool agreement_ok, kappa_ok;
	double agreement, kappa;
	const char *kappa_why;      /* static text when kappa is undefined */
};

/* A pairwise judge against one reviewer (reviewer NULL: the consensus,
 * the pairs every reviewer who labelled them labelled alike). */
struct prefs_judge {
	const char *judge;          /* the configuration's */
	const char *reviewer;
	size_t n, same;
	bool agreement_ok, kappa_ok;
	double agreement, low, high;    /* low, high: Wilson 95% */
	double kappa;
	const char *kappa_why;
	size_t confusion[PREFS_CATS * PREFS_CATS];  /* rows: the reviewer, columns: the judge */
};

struct prefs {
	size_t pairs;               /* distinct pairs labelled (either way round) */
	size_t labels;              /* standing preferences counted */
	size_t stale, missing;      /* left out: a run changed since; a run not in the inputs */
	struct prefs_reviewer *rev;
	size_t nrev;
	struct prefs_between *between;
	size_t nbetween;
	struct prefs_judge *judges;
	size_t njudges;
};

/* Counts the standing preferences of the session's annotations whose two
 * runs are among its entries (only these reviewers' when nreviewers > 0;
 * a label on a run that changed since only with include_stale), and
 * figures each pairwise judge of the configuration from runner's cache
 * (NULL: none). The session must be stepped to the end. */
void review_prefs(struct prefs *p, struct review *rv, const struct judge_runner *runner,
                  const char *const *reviewers, size_t nreviewers, bool include_stale);
void prefs_free(struct prefs *p);
/* "base", "cand", "tie", "both-bad" for category 0..3. */
const char *prefs_cat_name(size_t cat);

#endif
