/* call_index.h - a run's calls by a key (their id, their name), for loaders
 * that join results or drop repeated calls by id: a scan of every call for
 * every result is quadratic, and a large or hostile file would not end.
 * Used by langfuse.c, langfuse_msgs.c and atif.c. */
#ifndef TCR_FORMATS_CALL_INDEX_H
#define TCR_FORMATS_CALL_INDEX_H

#include <stdbool.h>
#include <stddef.h>

#include "util/htab.h"

struct call_index {
	struct htab by_key;         /* key -> struct call_index_list */
};

#define CALL_INDEX_INIT { HTAB_INIT }

/* Files call number `call` of the run under key (borrowed: it must live as
 * long as the index). A NULL key files nothing. */
void call_index_add(struct call_index *ci, const char *key, size_t call);
/* The calls filed under key, in the order filed; *n = 0 when none. */
const size_t *call_index_get(const struct call_index *ci, const char *key, size_t *n);
/* The first call under key that `taken` does not call taken, or -1. A
 * call once taken must stay taken (a result joined, a tool run matched):
 * each key keeps how far it got, so its list is walked once in all. */
long call_index_first_free(struct call_index *ci, const char *key,
                           bool (*taken)(size_t call, void *ctx), void *ctx);
void call_index_free(struct call_index *ci);

#endif
