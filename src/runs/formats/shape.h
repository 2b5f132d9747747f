/* shape.h - what the files of the reader by shape share (shape*.c).
 *
 * The reader by shape reads a record no format claims by looking for
 * conversation structure anywhere in it: lists of message-like objects,
 * tool calls and their results, and span or event lists. It never makes a
 * call up: every call it reports is an object of the record (or of a JSON
 * text a string of the record holds). What it is unsure of becomes a note. */
#ifndef TCR_RUNS_FORMATS_SHAPE_H
#define TCR_RUNS_FORMATS_SHAPE_H

#include <stdbool.h>
#include <stddef.h>

#include "runs/run.h"
#include "util/htab.h"
#include "util/jdoc.h"

/* JSON texts held in strings are read at most this deep (a string of JSON
 * holding a string of JSON...) and this many times in one record, so a
 * hostile record cannot make the reader parse its bytes over and over. */
#define SHAPE_GRAFT_DEPTH 4
#define SHAPE_GRAFT_MAX 4096

/* A result seen before its call may be: results are kept and joined once
 * the whole record is read. */
struct shape_result {
	size_t msg;                 /* the ROLE_TOOL message holding it */
	const char *call_id;        /* NULL when it names none */
	const char *name;           /* NULL when it names none */
};

struct shape {
	struct run *r;
	struct jdoc *d;             /* r->doc: grafts write into it */
	struct htab calls_seen;     /* struct shape_key: a call's id, or name and arguments */
	struct htab results_seen;   /* struct shape_key: a result's call id */
	struct shape_result *results;
	size_t nresults, results_cap;
	jv list;                    /* the list being walked, where repeats are told apart */
	unsigned graft_depth;
	size_t ngrafts;
	size_t repeats;             /* calls seen again (input histories) */
	size_t skipped_defs;        /* tool definitions, which look like calls */
	size_t skipped_items;       /* items of a conversation that are not messages */
	size_t span_calls;          /* calls made of tool spans alone */
	bool *claimed;              /* calls a tool span answered, by index */
	size_t claimed_cap;
};

/* ---- shape_find.c: what a value looks like ------------------------------ */

/* The role a message-like object names (role, author, source, sender or
 * type), or false when it is not a message. */
bool shape_is_message(const struct jdoc *d, jv obj, enum run_role *role);
/* An object that is a tool call: fills name, args and id (NULL when none). */
bool shape_is_call(const struct jdoc *d, jv obj, const char **name, jv *args, const char **id);
/* An object that is a tool result: fills the call id or the name it names
 * and its content. */
bool shape_is_result(const struct jdoc *d, jv obj, const char **call_id, const char **name,
                     jv *content);
/* A tool's declaration (name, description, a JSON schema): looks like a
 * call, is none. */
bool shape_is_definition(const struct jdoc *d, jv obj);
/* A list whose items are typed as tool, generation, llm or agent steps
 * with an input or an output. */
bool shape_is_span_list(const struct jdoc *d, jv arr);
/* "tool", "generation", ... in lower case; NULL when obj is not typed so. */
const char *shape_span_kind(const struct jdoc *d, jv obj);
/* A case-insensitive comparison with a lower-case word. */
bool shape_word_is(const char *s, const char *lower);

/* ---- shape_walk.c: the walk --------------------------------------------- */

/* Reads whatever conversation v holds into the run. */
void shape_walk(struct shape *s, jv v);
/* The JSON a string holds, grafted into the tape, or JV_NONE. */
jv shape_graft(struct shape *s, jv str);

/* ---- shape_msg.c: messages, calls and results --------------------------- */

void shape_read_message(struct shape *s, jv obj, enum run_role role);
/* Adds a call to message mi, or, for a call found on its own (mi is
 * SHAPE_ANY_MSG), to the newest message when it is the assistant's, else
 * to a new one. Returns false when it was a repeat. */
#define SHAPE_ANY_MSG ((size_t)-1)
bool shape_add_call(struct shape *s, size_t mi, jv obj, const char *name, jv args,
                    const char *id);
void shape_add_result(struct shape *s, jv obj, const char *call_id, const char *name,
                      jv content);

/* ---- shape_spans.c: span and event lists -------------------------------- */

void shape_read_spans(struct shape *s, jv arr);

/* ---- shape_join.c: results to calls, repeats ---------------------------- */

/* Whether a call with this id (or, without one, this name and these
 * arguments) was seen before; remembers it when not. */
bool shape_seen_call(struct shape *s, const char *name, jv args, const char *id);
/* Whether a result for this call id was seen before; remembers it. */
bool shape_seen_result(struct shape *s, const char *call_id);
/* Joins the results kept to their calls: by id, else by name, else by
 * position (the first call still without a result). */
void shape_join(struct shape *s);
void shape_free(struct shape *s);

#endif
