/* htab.h - an open-addressing hash table of pointers, keyed by the caller.
 *
 * The table stores items and their 64-bit hashes; the caller hashes its
 * key and says how an item compares with a key, so one table serves keys
 * of any shape (a string, a triple of strings, a digest). */
#ifndef TCR_UTIL_HTAB_H
#define TCR_UTIL_HTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct htab_slot {
	uint64_t hash;
	void *item;                     /* NULL marks an empty slot */
};

struct htab {
	struct htab_slot *slots;
	size_t nslots, nused;           /* nslots is zero or a power of two */
};

#define HTAB_INIT { NULL, 0, 0 }

/* Whether `item` is the one stored under `key`. */
typedef bool htab_eq_fn(const void *item, const void *key);

/* The item stored under key, or NULL. */
void *htab_get(const struct htab *t, uint64_t hash, htab_eq_fn *eq, const void *key);
/* Where the item under key is kept: *result is NULL when the key is new,
 * and the caller must then store a non-NULL item there before the next
 * call on the table. */
void **htab_put(struct htab *t, uint64_t hash, htab_eq_fn *eq, const void *key);
/* Frees the slots, not the items. */
void htab_free(struct htab *t);

#endif
