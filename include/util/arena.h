/* arena.h - bump allocator that lives as long as one run.
 *
 * A run's model (messages, calls, derived strings) is thrown away as a whole
 * when the run leaves the cache or the scorer loop moves on, so per-object
 * frees would only cost time. */
#ifndef TCR_UTIL_ARENA_H
#define TCR_UTIL_ARENA_H

#include <stdarg.h>
#include <stddef.h>

struct arena_chunk;

struct arena {
	struct arena_chunk *head;
	size_t used_bytes;      /* what callers asked for, for cache accounting */
};

void  arena_init(struct arena *a);
void  arena_free(struct arena *a);
void *arena_alloc(struct arena *a, size_t size);          /* zeroed, aligned */
char *arena_strdup(struct arena *a, const char *s);
char *arena_strndup(struct arena *a, const char *s, size_t n);
char *arena_printf(struct arena *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
char *arena_vprintf(struct arena *a, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

#endif
