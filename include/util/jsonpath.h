/* jsonpath.h - dotted paths with [n] indexes into a JSON record.
 *
 * "info.task.actions[0].name", "_corpus.run_id", "messages[-1]" (negative
 * indexes count from the end). Used by {from: PATH} references, run ids and
 * the expectations join. */
#ifndef TCR_UTIL_JSONPATH_H
#define TCR_UTIL_JSONPATH_H

#include <jansson.h>
#include <stdbool.h>

/* Checks the syntax; on error returns false and points *err at a message. */
bool    jsonpath_valid(const char *path, const char **err);
/* Borrowed reference to the value, or NULL when any step finds nothing. */
json_t *jsonpath_get(json_t *root, const char *path);

#endif
