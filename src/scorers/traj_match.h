/* traj_match.h - the pieces of the trajectory-match scorer (private to
 * src/scorers/): comparing argument values (traj_args.c), reading the two
 * trajectories (traj_read.c) and the modes (trajectory_match.c).
 *
 * Values are jansson trees; a NULL json_t * stands for JavaScript's
 * undefined (a key or a field that is not there), which the matcher this
 * scorer reproduces (LangChain agentevals 0.0.7) tells apart from null in
 * a few places. Where agentevals throws, these functions return -1 with
 * the reason written into a struct tm_err, and the verdict is an error. */
#ifndef TCR_SCORERS_TRAJ_MATCH_H
#define TCR_SCORERS_TRAJ_MATCH_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "runs/run.h"

struct tm_err {
	char text[320];
};

int tm_fail(struct tm_err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Argument modes: agentevals' four; an unknown one behaves as ignore
 * there, but the configuration refuses it here. */
enum tm_args { TM_ARGS_EXACT, TM_ARGS_IGNORE, TM_ARGS_SUBSET, TM_ARGS_SUPERSET };

/* How primitive values compare: agentevals' === by default, with the
 * tolerances `numbers` and `strings` may add. */
struct tm_equal {
	double tolerance;           /* |a - b| <= tolerance; 0 = exact */
	bool nocase;                /* ASCII and Latin letters compared case-blind */
	bool trim;                  /* leading and trailing white space ignored */
};

/* How the arguments of calls of one tool are compared. */
struct tm_matcher {
	enum { TM_BY_MODE, TM_BY_KEYS } kind;
	enum tm_args mode;
	const json_t *keys;         /* TM_BY_KEYS: the list of key paths (borrowed) */
};

struct tm_opts {
	enum tm_args args;
	const json_t *overrides;    /* tool name -> mode or key list; may be NULL */
	struct tm_equal eq;
};

/* agentevals' argument modes by name; false when unknown. */
bool tm_args_parse(const char *s, enum tm_args *out);
const char *tm_args_name(enum tm_args a);

/* Deep equality as agentevals' _deepEqual (null == undefined, arrays equal
 * objects keyed "0", "1", ...), primitives by opts->eq. */
bool tm_deep_equal(const struct tm_equal *eq, const json_t *a, const json_t *b);
/* The matcher for calls named `name` (a JS value; NULL = undefined). */
struct tm_matcher tm_matcher_for(const struct tm_opts *o, const json_t *name);
/* matcher(outArgs, refArgs): 1 when they match, 0 when not, -1 when
 * agentevals would throw (e->text says why). */
int tm_args_match(const struct tm_opts *o, const struct tm_matcher *m, const json_t *out_args,
                  const json_t *ref_args, struct tm_err *e);

/* JSON.parse: every number a double, the last duplicate key kept, any
 * value at the top. A non-string is first turned into text as String()
 * would (an object becomes "[object Object]", which then fails). Returns
 * a new reference, or NULL with e->text set. */
json_t *tm_json_parse(const json_t *v, struct tm_err *e);
/* JS ===: undefined and null are each only themselves, objects never
 * equal (two parsed objects are never the same object). */
bool tm_strict_equal(const json_t *a, const json_t *b);

/* The argument paths that differ between two values, for the details:
 * appended to `diffs` as {"path", "output", "reference"} (at most `max`). */
void tm_args_diff(const struct tm_equal *eq, const json_t *out, const json_t *ref,
                  const char *path, json_t *diffs, size_t max);

/* ---- trajectories (traj_read.c) --------------------------------------- */

/* One call as agentevals' flattening reader sees it (name and args as JS
 * values, NULL = undefined), with where it came from. */
struct tm_call {
	json_t *name;               /* owned */
	json_t *args;               /* owned */
	size_t msg;                 /* index of its message in the list */
	long run_call;              /* index into run->calls, -1 when not the run's */
};

struct tm_traj {
	json_t *messages;           /* the list of messages (owned), or NULL for a flat list */
	struct tm_call *calls;      /* flattened (filled by tm_traj_flatten or a flat reader) */
	size_t ncalls;
	bool flat;                  /* given as calls, not messages */
	bool flattened;
	long *run_calls;            /* per flattened call of the run's own messages */
	size_t nrun_calls;
};

void tm_traj_free(struct tm_traj *t);
/* The run's own trajectory: its record's messages when it is an OpenAI
 * chat record (as agentevals would be given it), else its messages and
 * calls written in that shape. */
int tm_traj_of_run(struct run *r, struct tm_traj *t, struct tm_err *e);
/* A trajectory given as a value (`outputs` or `reference`): a list of
 * messages, {messages: [...]}, a list of calls {name, arguments|args|
 * kwargs|input}, or messages of another format tcreview reads. */
int tm_traj_of_value(const json_t *v, const char *what, bool allow_flat, struct tm_traj *t,
                     struct tm_err *e);
/* Flattens the calls of every message with tool_calls, parsing string
 * arguments eagerly (agentevals' reader for the unordered modes). */
int tm_traj_flatten(struct tm_traj *t, struct tm_err *e);

/* ---- the details (traj_explain.c) ----------------------------------------- */

/* What the matcher made of each call, for a person and for the timeline:
 * counts, precision / recall / F1 (Azure's TaskNavigationEfficiency),
 * missing, extra and out-of-order calls, argument paths that differed, and
 * call_marks (verdict.h) and findings. An extra call the mode does not hold
 * against the run (superset, in-order, or a verdict that passed) is marked
 * and found "allowed", one rule for both. Never fails: what cannot be read
 * is said. */
json_t *tm_explain_details(const struct tm_opts *o, const char *mode, bool passed,
                           struct tm_traj *O, struct tm_traj *R);
struct strbuf;
void tm_explain(const json_t *details, struct strbuf *out);

#endif
