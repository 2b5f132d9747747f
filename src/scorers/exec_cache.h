/* exec_cache.h - the exec scorer's answers kept across sessions, by the
 * command and the run (exec_cache.c says where and how). */
#ifndef TCR_SCORERS_EXEC_CACHE_H
#define TCR_SCORERS_EXEC_CACHE_H

#include <jansson.h>

/* The answer kept for the run (its document's SHA-256, hex) in the cache
 * of `key`, as JSON text (malloc'd), or NULL. The cache is opened for
 * `owner` (the scorer entry) on first use; calls may come from any thread. */
char *exec_cache_get(const void *owner, const char *key, const char *run);
/* Keeps an answer (a JSON object) for the run. */
void exec_cache_put(const void *owner, const char *key, const char *run, const json_t *answer);
/* Lets go of the owner's cache. */
void exec_cache_close(const void *owner);

#endif
