/* call_index.c - a run's calls by id or name, for joins that must stay linear on large files. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/hash.h"
#include "util/xalloc.h"
#include "call_index.h"

struct call_index_list {
	const char *key;
	size_t *calls;
	size_t n, cap;
	size_t free_from;           /* calls before it are all taken */
};

static uint64_t ci_hash(const char *key)
{
	return hash_fnv1a(key, strlen(key), HASH_FNV_SEED);
}

static bool ci_eq(const void *item, const void *key)
{
	return !strcmp(((const struct call_index_list *)item)->key, key);
}

void call_index_add(struct call_index *ci, const char *key, size_t call)
{
	if (!key)
		return;
	void **slot = htab_put(&ci->by_key, ci_hash(key), ci_eq, key);
	struct call_index_list *l = *slot;
	if (!l) {
		l = xcalloc(1, sizeof *l);
		l->key = key;
		*slot = l;
	}
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 2;
		l->calls = xrealloc(l->calls, l->cap * sizeof *l->calls);
	}
	l->calls[l->n++] = call;
}

static struct call_index_list *ci_list(const struct call_index *ci, const char *key)
{
	return key ? htab_get(&ci->by_key, ci_hash(key), ci_eq, key) : NULL;
}

const size_t *call_index_get(const struct call_index *ci, const char *key, size_t *n)
{
	struct call_index_list *l = ci_list(ci, key);
	*n = l ? l->n : 0;
	return l ? l->calls : NULL;
}

long call_index_first_free(struct call_index *ci, const char *key,
                           bool (*taken)(size_t call, void *ctx), void *ctx)
{
	struct call_index_list *l = ci_list(ci, key);
	if (!l)
		return -1;
	while (l->free_from < l->n && taken(l->calls[l->free_from], ctx))
		l->free_from++;
	return l->free_from < l->n ? (long)l->calls[l->free_from] : -1;
}

void call_index_free(struct call_index *ci)
{
	for (size_t i = 0; i < ci->by_key.nslots; i++) {
		struct call_index_list *l = ci->by_key.slots[i].item;
		if (l) {
			free(l->calls);
			free(l);
		}
	}
	htab_free(&ci->by_key);
}
