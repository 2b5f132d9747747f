/* loader.h - what the transcript loaders in src/runs/formats/ share.
 *
 * Only rules several formats apply the same way live here. Where formats
 * differ on purpose (which prefix marks a failed call, how a bad role is
 * reported, whether a list of models counts), the difference is an
 * argument, so every loader still states its own format's rules.
 *
 * Paths in error messages are JSON paths into the record, built as the
 * loaders walk it: "messages[3]", "traj[2].tool_calls[0].function". A
 * bare array of messages has the empty name, so its paths read "[3]".
 *
 * Loaders read the record only through util/jdoc.h (values are jv of
 * r->doc) and these helpers; strings they keep are borrowed from the tape,
 * which lives as long as the run. */
#ifndef TCR_RUNS_LOADER_H
#define TCR_RUNS_LOADER_H

#include <stdbool.h>
#include <stddef.h>

#include "runs/run.h"
#include "util/htab.h"
#include "util/jdoc.h"
#include "util/error.h"

/* ---- values ------------------------------------------------------------ */

/* The string, or dflt when v is not a string. */
const char *loader_str(const struct run *r, jv v, const char *dflt);
bool        loader_ends_with(const char *s, const char *suffix);
/* A call id as the record has it: a string ("" is no id at all), or a
 * number, which still names a call and is printed rather than dropped.
 * NULL for anything else. */
const char *loader_id(struct run *r, jv v);

/* ---- the agent's model -------------------------------------------------- */

/* The fixtures' _corpus.agent_model: a string, or a list when a session
 * switched models (its first). */
const char *loader_corpus_model(const struct run *r, jv rec);
/* The record's own top-level "model" string, else loader_corpus_model.
 * Formats that keep the model elsewhere look there first themselves. */
const char *loader_model(const struct run *r, jv rec);

/* ---- the record --------------------------------------------------------- */

/* rec[key] must be an array: "KEY: not an array" or "KEY: missing". */
int  loader_array(const struct run *r, jv rec, const char *key, jv *out, struct error *err);
/* The tools a record declares under "tools", unless absent or null. */
void loader_tools(struct run *r, jv rec);

enum {
	LOADER_BARE_ARRAY = 0,      /* the record is the message list */
	LOADER_OBJECT = 1,          /* the record holds it under "messages" */
};
/* {messages: [...]} or a bare array of messages. Sets *list, and *where to
 * the list's name in paths ("messages" or ""). Returns LOADER_OBJECT or
 * LOADER_BARE_ARRAY, or -1 with shape_error (or the loader_array message
 * for a bad "messages") in err. */
int loader_messages_or_array(const struct run *r, jv rec, jv *list, const char **where,
                             const char *shape_error, struct error *err);

/* ---- walking lists ------------------------------------------------------ */

/* Called for one element of a list, already known to be an object, with
 * its path ("WHERE[i]"). Returns a count (>= 0) or -1 on error. */
typedef int (*loader_item_fn)(struct run *r, jv item, const char *path, size_t i,
                              void *ctx, struct error *err);
/* Calls fn on every element of list (nothing when it is not an array);
 * an element that is not an object is "WHERE[i]: not an object". Returns
 * the sum of what fn returned, or -1 at the first error. */
int loader_each(struct run *r, jv list, const char *where, loader_item_fn fn, void *ctx,
                struct error *err);
/* loader_each over list, the value of field KEY of the object at PATH
 * (a message's tool_calls): its elements are "PATH.KEY[i]". */
int loader_each_field(struct run *r, jv list, const char *path, const char *key,
                      loader_item_fn fn, void *ctx, struct error *err);

/* ---- fields ------------------------------------------------------------- */

enum loader_role_errors {
	ROLE_ERRORS_SPLIT,          /* "PATH.role: missing" / "PATH.role: not a string" */
	ROLE_ERRORS_JOINED,         /* "PATH.role: missing or not a string" */
};
/* A message's role, one run_role_parse knows, else
 * "PATH.role: unknown role \"x\"". */
int loader_role(const struct run *r, jv m, const char *path, enum loader_role_errors style,
                enum run_role *role,
                struct error *err);
/* m.role is a string run_role_parse does not know. Such a message is not
 * refused: loader_note_role keeps it as a ROLE_NOTE message saying
 * `role "x": TEXT` (raw m, src_index src) and returns its index. */
bool   loader_role_unknown(const struct run *r, jv m);
size_t loader_note_role(struct run *r, jv m, const char *text, long src);
/* m.content: a string, a list, null or absent, else
 * "PATH.content: not a string, a list or null". */
int loader_content(const struct run *r, jv m, const char *path, jv *content, struct error *err);
/* obj[key] when it is a string, null or absent (JV_NONE), else
 * "PATH.KEY: not a string". */
int loader_opt_string(const struct run *r, jv obj, const char *key, const char *path, jv *out,
                      struct error *err);
/* obj[key] when it is an array, null or absent, else "PATH.KEY: WHAT". */
int loader_opt_array(const struct run *r, jv obj, const char *key, const char *path,
                     const char *what, jv *out, struct error *err);

/* ---- typed calls (tau-bench, tau2, Azure) ------------------------------- */

/* The name and arguments of a call as these formats type them: name a
 * string or null, arguments an object, a string or null, else
 * "PATH.name: not a string" or "PATH.arguments: ARGS_WHAT". path names
 * the object holding them. */
int loader_call_fields(const struct run *r, jv fields, const char *path, const char *args_what,
                       jv *name, jv *args, struct error *err);
/* Adds a call with values loader_opt_string and loader_call_fields have
 * checked: the id string as it is, the name when it is a string, null
 * arguments as none. */
struct run_call *loader_add_call(struct run *r, size_t mi, jv id, jv name, jv args,
                                 long src_msg);
/* A loader_item_fn for one entry of a Chat-style tool_calls list,
 * {id, type, function{name, arguments}} (tau-bench, SWE-agent histories,
 * mini-swe-agent): ctx is the size_t index of the message it belongs to.
 * The type is not read; function is the only kind these formats write.
 * "PATH.function: not an object" or "PATH.function: missing", else the
 * errors of loader_opt_string and loader_call_fields. */
int loader_function_call(struct run *r, jv tc, const char *path, size_t j, void *ctx,
                         struct error *err);

/* ---- calls shown more than once ----------------------------------------- */

/* Whether id (borrowed: it must outlive the set) is in seen, adding it
 * when not: a call a record shows twice (a run state's model responses
 * and its items, a model-client recording's growing history) counts once.
 * NULL is never seen. Free the set with htab_free. */
bool loader_seen(struct htab *seen, const char *id);

/* ---- results ------------------------------------------------------------ */

/* Most formats have no error flag for a tool's result: by the convention
 * of tau-bench and OpenAI-style harnesses a failed call's text starts with
 * this. Azure's samples use "Error" alone (azure.c). */
#define LOADER_ERROR_PREFIX "Error:"

/* text is non-NULL and starts with prefix. */
bool loader_is_error_text(const char *text, const char *prefix);
/* Makes message mi the output of a tool call: it answers call_id (NULL
 * when it names none) and holds result. */
struct run_msg *loader_tool_output(struct run *r, size_t mi, const char *call_id, jv result);
/* Marks a tool output failed, with text as its error, or "error" when
 * there is no text to show. */
void loader_mark_failed(struct run_msg *msg, const char *text);

/* How far back a result with no id looks for its call: far beyond any
 * real turn, and a file of many results naming no call is still joined in
 * linear time. */
#define LOADER_JOIN_LOOKBACK 4096
/* The tool a result message names (NULL when it names none). */
typedef const char *loader_result_name_fn(const struct run *r, const struct run_msg *m);
/* The join by name, after run_join_results joined what has an id: each
 * tool output with no call id answers the nearest earlier message with an
 * unanswered call of the name it gives, the first such call there (by
 * position: Gemini's and ADK's function responses, whose ids are often
 * missing or null). One that finds none, or names none, stays unmatched. */
void loader_join_by_name(struct run *r, loader_result_name_fn *name_of);

/* Whether an Anthropic server tool's result failed: its content is an
 * object typed *_error (whose error_code is the text), a code execution's
 * result (*code_execution_result) with a non-zero return_code (the text:
 * "exit code N", then its stderr, else its stdout), or is_error is true
 * (MCP results; the text is the content's, else "error"). The text goes
 * to *error_text, which is left alone when it did not fail. */
bool loader_server_tool_error(struct run *r, jv content, jv is_error, const char **error_text);

#endif
