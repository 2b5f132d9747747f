/* langchain.h - LangChain's message shapes, read by langchain.c and by
 * langsmith.c, whose llm runs hold the same messages. */
#ifndef TCR_FORMATS_LANGCHAIN_H
#define TCR_FORMATS_LANGCHAIN_H

#include <stdbool.h>
#include <stddef.h>

#include "runs/run.h"
#include "util/jdoc.h"
#include "util/error.h"

/* m is a LangChain message: messages_to_dict's {type, data: {...}} or the
 * serialized {lc: 1, type: "constructor", id: [..., "AIMessage"], kwargs}.
 * With flat, also {type, content, ...} with the fields at the top, as
 * LangSmith sometimes shows them. */
bool lc_is_message(const struct jdoc *d, jv m, bool flat);
/* Adds the message at path (its calls, its answer to a call) to r;
 * returns its index in r->msgs, or -1 with err naming the field. */
long lc_load_message(struct run *r, jv m, const char *path, bool flat, struct error *err);
/* The fields of a message, wherever its shape keeps them, and its type
 * ("human", "ai", ...); NULL type when m is none of the shapes. */
jv lc_body(const struct jdoc *d, jv m, bool flat, const char **type);
/* After run_join_results: legacy function messages carry only a name and
 * go to the nearest preceding call of that name without a result. */
void lc_join_by_name(struct run *r, bool flat);

#endif
