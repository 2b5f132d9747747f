/* openai_responses.h - OpenAI Responses items, read by openai_responses.c
 * and by openai_agents.c, whose run state holds the same items. */
#ifndef TCR_FORMATS_OPENAI_RESPONSES_H
#define TCR_FORMATS_OPENAI_RESPONSES_H

#include <stddef.h>

#include "runs/run.h"
#include "util/jdoc.h"
#include "util/error.h"

/* Adds Responses item it (at path, index i of its list) to r: a message,
 * a call (one message holding it) or a call's output; returns 0, or -1
 * with err naming the field. A loader_item_fn; ctx is unused. Results are
 * joined by the caller's run_join_results. */
int resp_read_item(struct run *r, jv it, const char *path, size_t i, void *ctx, struct error *err);

#endif
