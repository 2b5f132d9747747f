/* verdict.h - what a scorer or a judge says of one run: a status, a score on
 * its scale, whether it passed, its details and, when it did not score, why. */
#ifndef TCR_VERDICT_VERDICT_H
#define TCR_VERDICT_VERDICT_H

#include <jansson.h>
#include <stdbool.h>

#include "verdict/scale.h"

enum verdict_status {
	VERDICT_OK,
	VERDICT_SKIPPED,    /* required parameters unset for this run; message says why */
	VERDICT_ERROR,      /* the run could not be scored; message says why */
};

struct verdict {
	enum verdict_status status;
	double score;       /* meaningful when status == VERDICT_OK */
	bool passed;        /* score >= threshold */
	json_t *details;    /* owned; scorer-specific, NULL when none */
	char *message;      /* owned; skip reason or error text */
	size_t lead;        /* bytes at the start of message that name where it came
	                       from ("judge: "): outputs print the whole message, a
	                       verdict row of the screen shows what follows */
};

/* A scorer that decides call by call lists in its details, under this
 * key, what it made of the calls of the run:
 *   "call_marks": [{"call": I, "mark": "matched"|"extra"|"args"|"failed"|"no-result", "ref": N,
 *                   "allowed": true}, ...]
 * I is the call's position in run->calls counted from 1 (as every call
 * number of the details counts: extra, args_differ, a failure's call; the
 * timeline's #N unless calls it does not number come first); N
 * the 1-based position of the reference call it was matched to ("matched") or compared with and found
 * to differ from in its arguments ("args"); the other marks have no ref.
 * trajectory-match marks every call it paired or found extra; tool-errors
 * marks only the calls that failed ("failed") and unanswered-calls only
 * those that got no result ("no-result"), so that a call that is fine
 * stays quiet. "allowed" (absent means false) says the scorer's mode did
 * not hold this call against the run (an extra call in trajectory-match's
 * superset mode): the timeline shows it, but not as a problem. The timeline shows these beside each call; a call no entry
 * names is shown unmarked. */
#define VERDICT_CALL_MARKS "call_marks"

/* What decided a verdict, for a person to read first, under this key:
 *   "findings": [{"what": "missing"|"arguments differ"|"extra"|"out of order"|
 *                         "failed"|"no result",
 *                 "name": TOOL, "call": I, "ref": N, "allowed": B, "says": TEXT,
 *                 "diffs": [{"path": P, "expected": V, "actual": V}, ...]}, ...]
 * I and N count as in call_marks (absent: no call of the run, as for a
 * missing one; no reference call, as for an extra one); "allowed" is true
 * for what the scorer's mode lets pass (an extra call in superset mode, any
 * finding of a passing verdict), which the screen lists after the rest,
 * folded; "diffs" the argument paths whose values differ; "says" what the
 * call's result said (a failure's text). trajectory-match, tool-errors and
 * unanswered-calls write them. The screen reads
 * these, never the explanation's words. */
#define VERDICT_FINDINGS "findings"

void verdict_clear(struct verdict *v);
void verdict_skip(struct verdict *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void verdict_error(struct verdict *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* An error whose message starts with `lead` ("judge: "), remembered as such. */
void verdict_error_from(struct verdict *v, const char *lead, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The message without its lead ("" when none). */
const char *verdict_cause(const struct verdict *v);
/* dst becomes a deep copy of src (dst is cleared first). */
void verdict_copy(struct verdict *dst, const struct verdict *src);
/* A score: passed when score >= threshold. Takes the details. */
void verdict_ok(struct verdict *v, double threshold, double score, json_t *details);
const char *verdict_status_name(enum verdict_status st);

#endif
