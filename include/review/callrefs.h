/* callrefs.h - a run's call labels and corrections gathered call by call,
 * and the corrected trajectory they make (what `export --references`
 * writes and trajectory-match reads back as its reference).
 *
 * Calls are numbered as the annotations file numbers them: a call's place
 * in the run's calls from 1 (struct decision's `call`, as call marks count);
 * an insertion at ncalls + 1 is at the end. Where several reviewers'
 * decisions stand on one subject (a call's label, its fix, what is missing
 * before it, the answer), the latest `at` counts. */
#ifndef TCR_REVIEW_CALLREFS_H
#define TCR_REVIEW_CALLREFS_H

#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>

#include "annot/store.h"

/* What stands on one call. */
struct call_decs {
	const struct decision *label;   /* call-label */
	const struct decision *fix;     /* correct: replace or remove */
	const struct decision *insert;  /* correct: insert, the calls missing just before it */
};

struct run_call_decs {
	size_t ncalls;
	struct call_decs *per;          /* ncalls + 1: per[i] is call i + 1; per[ncalls] the end */
	const struct decision *answer;  /* correct: answer */
	size_t n;                       /* decisions gathered */
	size_t off_run;                 /* decisions on a call number the run does not have */
	const struct decision *latest;  /* the latest of them by `at` */
	const char *reviewers[8];       /* whose they are, in the order first met */
	size_t nreviewers;              /* more than 8 are counted, not named */
};

/* The call decisions standing on `run` by the reviewers named (NULL: by
 * any), for a run of ncalls calls. Free with callrefs_free. */
void callrefs_gather(const struct annot_store *s, const char *run, const char *const *reviewers,
                     size_t nreviewers, size_t ncalls, struct run_call_decs *out);
void callrefs_free(struct run_call_decs *cd);

/* The latest standing decision of call `call` (from 1) that `x` takes back:
 * its label, fix or insertion (on the last call, an insertion at the end
 * too); on equal times a correction before a label. NULL when none. */
const struct decision *callrefs_latest_on(const struct run_call_decs *cd, size_t call);

/* What the corrected trajectory did with the run's calls. */
struct ref_counts {
	size_t kept, corrected, removed, inserted;
};

/* The corrected trajectory: calls[i] is call i + 1 as {"name",
 * "arguments"} (NULL: a call the reference leaves out, as trajectory-match
 * does not count it); each is kept, replaced by its correction or left
 * out when removed, the insertions before it first, those at the end
 * last. A call labelled below the scale's pass mark without a correction
 * is kept as it is and listed in *wrong_kept (a new array of call numbers;
 * may be NULL). Returns a new array. */
json_t *callrefs_reference(const struct run_call_decs *cd, json_t *const *calls, double pass,
                           struct ref_counts *n, json_t **wrong_kept);

/* The JSON a correction's `expected` holds (one call, a list, the answer's
 * string), or NULL when it is not JSON. New reference. */
json_t *callrefs_expected(const struct decision *d);

/* A call as a short line: name(key: value, ...) cut to about max bytes with
 * "…"; `expected` as a correction holds it (a call or a list of calls). */
void callrefs_brief(const json_t *call, size_t max, char *out, size_t outlen);

#endif
