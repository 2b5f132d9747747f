/* langfuse.h - what the two files of the langfuse loader share: the
 * observations put in reading order (langfuse.c) and the messages their
 * inputs and outputs hold, in whichever SDK's shape (langfuse_msgs.c). */
#ifndef TCR_FORMATS_LANGFUSE_H
#define TCR_FORMATS_LANGFUSE_H

#include <stdbool.h>
#include <stddef.h>

#include "runs/run.h"
#include "util/jdoc.h"
#include "call_index.h"

/* The run's calls by id (joined to results), and by id and name for the
 * TOOL observations that ran them (each list with a cursor of its own). */
struct lf_index {
	struct call_index ids, tool_ids, tool_names;
};

/* How much of a value's messages becomes part of the run. */
enum lf_mode {
	/* A generation's output: what the model said, its calls. */
	LF_OUTPUT,
	/* The input of the first model call: the system prompt and what the
	 * user asked, history included; calls in it were made before the trace
	 * and are kept as notes, not counted. */
	LF_INPUT_FIRST,
	/* A later model call's input: it repeats the history, so only tool
	 * results (joined to calls by id) and user turns after its last
	 * assistant turn that the run does not have yet are read. */
	LF_INPUT_LATER,
};

/* A value that may be JSON text (Langfuse keeps input, output and metadata
 * as strings, sometimes encoded twice): the object or array it holds,
 * grafted into the run's tape, else v itself. */
jv lf_json(struct run *r, jv v);

/* Reads value v (an input or an output; raw is its observation) into r
 * as mode says. Returns how many calls it added. */
size_t lf_read(struct run *r, struct lf_index *ix, jv v, jv raw, enum lf_mode mode);

/* A generation's toolCalls (JSON texts or objects {id, arguments}, their
 * names in toolCallNames), read when its output showed no call. Returns
 * how many calls it added. */
size_t lf_read_tool_calls(struct run *r, struct lf_index *ix, jv calls, jv names, jv raw);

/* The run's call with this id (and name, when the id is only the tool's
 * name, also these arguments); NULL when none. */
struct run_call *lf_find_call(struct run *r, struct lf_index *ix, const char *id,
                              const char *name, jv args);
/* Files the run's call number i in the index. */
void lf_index_add(struct run *r, struct lf_index *ix, size_t i);
void lf_index_free(struct lf_index *ix);

#endif
