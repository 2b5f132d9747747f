/* callmarks.h - what the scorers that decide call by call made of each
 * call of a run (the call_marks of trajectory-match, tool-errors and
 * unanswered-calls, verdict/verdict.h), read
 * from the verdicts the session holds, for the timeline to show beside
 * each call. Nothing is scored again here. */
#ifndef TCR_REVIEW_CALLMARKS_H
#define TCR_REVIEW_CALLMARKS_H

#include <stdbool.h>
#include <stddef.h>

struct review;
struct review_run;

enum call_mark_kind {
	CALL_MARK_MATCHED,      /* matched reference call `ref` */
	CALL_MARK_EXTRA,        /* matched no reference call */
	CALL_MARK_ARGS,         /* paired with reference call `ref` by name; the arguments differ */
	CALL_MARK_FAILED,       /* the call failed (tool-errors) */
	CALL_MARK_NO_RESULT,    /* the call never got a result (unanswered-calls) */
	CALL_MARK_COUNT,
};

struct call_mark {
	size_t row;             /* the scorer's verdict row */
	const char *scorer;     /* its id, borrowed from the configuration */
	enum call_mark_kind kind;
	size_t ref;             /* 1-based reference position; 0 but with MATCHED and ARGS */
	bool allowed;           /* the scorer's mode accepts the call as it is (an extra
	                         * call in superset mode): not a problem */
};

/* The marks of every call of one run: those of call i are
 * marks[start[i] .. start[i + 1]), in the order of the verdict rows. */
struct call_marks {
	size_t ncalls;
	size_t *start;          /* ncalls + 1 offsets */
	struct call_mark *marks;
	size_t nmarks;
};

/* The marks of rr's calls from the ok verdicts of the code scorers whose
 * details hold call_marks. An entry that names no call of the run, an
 * unknown mark or a matched/args mark without its reference is left out,
 * as is a second entry of one scorer for the same call. In blind mode a
 * row whose verdict is still hidden gives none (a mark tells the verdict).
 * rv or rr NULL, or a run that did not load: no marks. Free with
 * call_marks_free. */
void review_call_marks(const struct review *rv, const struct review_run *rr, struct call_marks *out);
/* The marks of call `call` (n of them; NULL and 0 when none). */
const struct call_mark *call_marks_at(const struct call_marks *m, size_t call, size_t *n);
/* Whether a mark tells of a problem (a failure, a real mismatch, an extra
 * call the mode did not allow): what must show first where space is short. */
bool call_mark_is_problem(const struct call_mark *m);
void call_marks_free(struct call_marks *m);

/* "matched", "extra", "args", "failed", "no-result": the words of verdict.h's list. */
const char *call_mark_name(enum call_mark_kind k);
/* The kind a word names; false when none does. */
bool call_mark_parse(const char *word, enum call_mark_kind *out);

#endif
