/* run.h - the run model: one agent run as messages and tool calls.
 *
 * Every loader turns one record of its format into this shape; scorers,
 * judges and the screen read only this (plus the original record, kept for
 * field references and for showing the run verbatim).
 *
 * The record is held as its parsed tape (util/jdoc.h), not as a jansson
 * tree: strings are borrowed from the tape or copied into the run's arena,
 * and arguments, results and the record itself stay values of the tape
 * (jv) until something asks for a tree through the run_*() accessors
 * below, which build it once and keep it. Freeing a run is one call. */
#ifndef TCR_RUNS_RUN_H
#define TCR_RUNS_RUN_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include "util/arena.h"
#include "util/jdoc.h"

enum run_role {
	ROLE_SYSTEM,
	ROLE_USER,
	ROLE_ASSISTANT,
	ROLE_TOOL,
	/* Not a message: an event, role or block the loader kept but does not
	 * know (a Claude Code event type of next year, a line that is not
	 * JSON). Its one part is a PART_NOTE saying what it is. */
	ROLE_NOTE,
};

enum call_state {
	CALL_REQUESTED,     /* asked for, no result yet */
	CALL_COMPLETED,     /* has a result */
	CALL_FAILED,        /* has an error */
	CALL_PARTIAL,       /* still streaming its arguments; never counted */
};

enum call_requestor {
	REQ_AGENT,
	REQ_USER,           /* a simulated user, as tau2's requestor: user */
};

/* Where a message came from inside the record, for formats that split the
 * conversation (Mastra's inputMessages and output, Azure's query and
 * response). Formats with one list use MSG_IN_OUTPUT for everything. */
enum msg_origin {
	MSG_IN_INPUT,
	MSG_IN_OUTPUT,
};

struct run_call {
	const char *id;             /* NULL when the format gave none */
	const char *name;           /* "" when missing */
	jv args;                    /* arguments as the record has them (an object, or a
	                               string holding JSON); JV_NONE when none */
	jv result;                  /* the joined result, JV_NONE when none */
	bool has_result;
	bool is_error;
	const char *error_text;     /* NULL when none */
	enum call_state state;
	enum call_requestor requestor;
	size_t msg_index;           /* index in run->msgs */
	size_t index_in_msg;        /* position among that message's calls */
	long result_msg;            /* message holding the result, -1 if inline/none */

	/* Exact values as the record has them, for scorers that must mirror a
	 * peer bit for bit (Mastra compares ids and names as JSON values and
	 * states as exact strings, and numbers invocations its own way). */
	jv raw_id;
	jv raw_name;
	const char *raw_state;      /* NULL when absent or not a string */
	long src_msg_index;         /* index in the record's own message list */
	long src_call_index;        /* Mastra's invocation index; -1 when n/a */

	/* Built on demand by run_call_args / run_call_result; owned. */
	json_t *args_tree;
	json_t *result_tree;
	bool args_parsed;           /* args_tree (or args_bad) is known */
	bool args_bad;              /* string arguments that are not JSON */
};

/* The pieces of a message in the order the record has them, so a summary
 * is drawn after the calls it sums up. msg->text stays the join of the
 * message's PART_TEXT parts (what scorers and judges read). */
enum part_kind {
	PART_TEXT,
	PART_THINKING,              /* reasoning or thinking the model showed */
	PART_CALL,                  /* calls[call] */
	PART_NOTE,                  /* a block the loader kept but does not know */
};

struct run_part {
	enum part_kind kind;
	const char *text;           /* TEXT, THINKING, NOTE: never NULL ("" when empty) */
	size_t call;                /* CALL: index into run->calls */
	jv raw;                     /* the block as in the record; JV_NONE when none */
};

struct run_msg {
	enum run_role role;
	enum msg_origin origin;
	const char *text;           /* joined text parts; "" when none */
	jv raw;                     /* the message as in the record */
	size_t first_call;          /* its calls are calls[first_call .. +ncalls) */
	size_t ncalls;
	size_t first_part;          /* its parts are parts[first_part .. +nparts) */
	size_t nparts;
	/* A tool-result message (role tool, or a user message made only of
	 * tool_result blocks) names the call it answers. */
	const char *answers_call_id;
	bool is_tool_output;
	jv result;                  /* what the call receives as its result */
	bool result_is_error;
	const char *result_error_text;
	bool unmatched_result;      /* a result whose call id matches no call */
	long src_index;             /* index within its origin list; -1 if n/a */
	json_t *result_tree;        /* built on demand by run_msg_result; owned */
};

enum mastra_shape {
	MASTRA_NONE = 0,
	MASTRA_1X,                  /* MastraDBMessage: content.toolInvocations + parts */
	MASTRA_0X,                  /* AI SDK v4 UIMessage: top-level toolInvocations */
};

struct run {
	const char *id;
	const char *file;           /* input file as given, "-" for stdin */
	size_t line;                /* 1-based line for JSONL; 0 otherwise */
	long array_index;           /* index in a JSON array; -1 otherwise */
	const char *source;         /* "FILE:LINE" or "FILE[INDEX]" or "FILE" */
	const char *format;         /* loader name, e.g. "openai-chat" */
	struct jdoc *doc;           /* the record's tape (owned); the record is jdoc_root */
	json_t *record_tree;        /* built on demand by run_record; owned */

	struct run_msg *msgs;
	size_t nmsgs, msgs_cap;
	struct run_call *calls;
	size_t ncalls, calls_cap;
	struct run_part *parts;
	size_t nparts, parts_cap;
	size_t nnotes;              /* PART_NOTE parts: what the loader did not know */
	/* A run that is part of another (a Claude Code subagent): that run's id. */
	const char *parent_id;
	jv tool_defs;               /* tool definitions when the record has them */
	json_t *tool_defs_tree;     /* built on demand by run_tool_defs; owned */
	const char *model;          /* the agent's model when the record says */
	/* A run read from the run format (doc/run-format.md): the values its
	 * "fields" holds by the paths of the record it was converted from,
	 * which run_value finds before the record's own paths, and its
	 * "source", which a second conversion keeps. JV_NONE otherwise. */
	jv fields;
	jv origin;

	enum mastra_shape mastra;
	bool mastra_io_empty;       /* Mastra's "Input and output messages cannot be null or empty" */
	const char *load_error;     /* set when the record is malformed for its format */

	struct arena arena;
};

/* Lifecycle. run_new_doc takes the document; run_new copies a jansson
 * record into one (tests, records built in memory). */
struct run *run_new_doc(struct jdoc *doc, const char *file, size_t line, long array_index);
struct run *run_new(json_t *record, const char *file, size_t line, long array_index);
void        run_free(struct run *r);
/* Empties what a loader filled (messages, calls, parts, notes, tools, model)
 * and keeps the record, so another loader may read it afresh. What the
 * loader copied into the arena stays there until the run is freed. */
void        run_reset(struct run *r);
/* The bytes the run holds: its tape, arena, lists and the trees built on
 * demand (the run cache's measure). */
size_t      run_bytes(const struct run *r);

/* The record as the loaders see it. */
static inline jv run_root(const struct run *r)
{
	return jdoc_root(r->doc);
}

/* ---- trees on demand (borrowed; built once, freed with the run) -------- */

json_t *run_record(struct run *r);
json_t *run_tool_defs(struct run *r);               /* NULL when none */
/* The value at a util/jsonpath path in the record (new reference), or NULL. */
json_t *run_path(struct run *r, const char *path);
/* The same as a value of r->doc: r->fields' member named exactly path when
 * there is one (a converted run), else the record's value at path. What
 * every reading of the record by path goes through ({from:}, record-field,
 * run ids, the expectations join), so a conversion answers as its source. */
jv run_value(const struct run *r, const char *path);
/* A run's name from one value: a non-empty string as it is (NULs made
 * U+FFFD), a number as the output prints it; NULL for anything else. */
const char *run_id_text(struct run *r, jv v);
/* The text an id spec (runs_conf.h) names in the run: one path's value, or
 * several joined by RUN_ID_JOIN ("7#0"); NULL when any is missing. What
 * names a run (`runs: {id:}`) and its task (`compare: {task:}`, --task). */
const char *run_spec_text(struct run *r, const char *spec);
/* Parsed arguments: the object, or the JSON a string argument holds ("" and
 * white space are {}); NULL when none or when a string is not JSON. */
json_t *run_call_args(struct run *r, struct run_call *c);
/* Arguments that came as a string that is not JSON, and that string. */
bool        run_call_args_invalid(struct run *r, struct run_call *c);
const char *run_call_args_text(struct run *r, struct run_call *c);
json_t *run_call_result(struct run *r, struct run_call *c);   /* NULL when none */
json_t *run_msg_result(struct run *r, struct run_msg *m);     /* NULL when none */

/* ---- builders for loaders ------------------------------------------------ */

/* Indexes stay valid; pointers may move on the next add. A message's parts
 * and calls are added while it is the newest message. run_add_msg with a
 * non-empty text adds it as the message's first PART_TEXT; run_add_call
 * adds a PART_CALL. */
size_t           run_add_msg(struct run *r, enum run_role role, enum msg_origin origin,
                             const char *text, jv raw);
struct run_call *run_add_call(struct run *r, size_t msg_index);
/* A text part (skipped when empty), joined into msg->text with '\n'. */
void run_add_text(struct run *r, size_t msg_index, const char *text, jv raw);
/* Reasoning or thinking, kept apart from msg->text. An empty one (encrypted,
 * redacted) is kept: the timeline says there was thinking it cannot show. */
void run_add_thinking(struct run *r, size_t msg_index, const char *text, jv raw);
/* Something kept as it is: a note part in the message, its text made
 * printf-style (e.g. "block type \"x\" (not read)"). Counted in nnotes. */
void run_add_note(struct run *r, size_t msg_index, jv raw, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The same as a ROLE_NOTE message of its own (an unknown event or role);
 * returns its index. */
size_t run_add_note_msg(struct run *r, enum msg_origin origin, jv raw, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Sets a call's arguments: a value of r->doc that may be a string holding
 * JSON (checked only when someone asks; see run_call_args). */
void run_call_set_args(struct run *r, struct run_call *c, jv args);
/* Joins tool-result messages to calls by id: each result goes to the
 * nearest preceding call with that id that has no result yet (tau-bench
 * reuses ids). Unmatched results are flagged and stay visible. */
void run_join_results(struct run *r);
void run_set_result(struct run_call *c, jv result, bool is_error, const char *error_text,
                    long result_msg);

/* Text helpers shared by loaders. */
const char *run_text_of(struct run *r, jv content);   /* string or list of text parts */
const char *run_strdup(struct run *r, const char *s);
enum run_role run_role_parse(const char *s, bool *ok);
const char *run_role_name(enum run_role role);
const char *call_state_name(enum call_state st);

/* What scorers usually want. */
const char *run_first_user_text(const struct run *r);   /* first human turn, "" if none */
const char *run_final_agent_text(const struct run *r);  /* last non-empty assistant text */
/* Which calls count (counted_calls.c), one rule for every reader: the
 * agent's calls, not a simulated user's, not partial ones, in the agent's
 * messages of the run's output (Azure's query and Mastra's inputMessages
 * are context). The flags narrow or replace it. */
enum run_calls_rule {
	RUN_CALLS_AGENT = 0,        /* the rule above: tool-errors, unanswered-calls, the list */
	RUN_CALLS_NAMED = 1 << 0,   /* only calls with a name */
	RUN_CALLS_MASTRA = 1 << 1,  /* a run in Mastra's shapes counts as Mastra's scorer does:
	                               output calls with a truthy name in a counted state */
};
/* What tool-call-accuracy counts, and the timeline and the judges number:
 * named calls, Mastra's rule for Mastra's runs. */
#define RUN_CALLS_SCORED (RUN_CALLS_NAMED | RUN_CALLS_MASTRA)
/* Whether call `call` (an index into r->calls) counts under `rule`. */
bool run_call_counted(const struct run *r, size_t call, unsigned rule);
/* The calls that count, in order: returns the count and fills idx (may be
 * NULL; r->ncalls entries at most) with indexes into r->calls. */
size_t run_counted_calls(const struct run *r, unsigned rule, size_t *idx);
/* Call `call`'s 1-based place among the calls that count (the number the
 * details and the timeline show), 0 when it does not count. */
size_t run_call_number(const struct run *r, size_t call, unsigned rule);
/* The agent's calls: run_counted_calls under RUN_CALLS_AGENT. */
static inline size_t run_agent_calls(const struct run *r, size_t *idx)
{
	return run_counted_calls(r, RUN_CALLS_AGENT, idx);
}

#endif
