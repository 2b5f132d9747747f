/* htab.c - an open-addressing hash table of pointers (linear probing). */
#include "util/htab.h"

#include <stdlib.h>

#include "util/xalloc.h"

static struct htab_slot *probe(const struct htab *t, uint64_t hash, htab_eq_fn *eq,
                               const void *key)
{
	size_t mask = t->nslots - 1;
	for (size_t i = (size_t)hash & mask;; i = (i + 1) & mask) {
		struct htab_slot *sl = &t->slots[i];
		if (!sl->item || (sl->hash == hash && eq(sl->item, key)))
			return sl;
	}
}

static void grow(struct htab *t)
{
	size_t n = t->nslots ? t->nslots * 2 : 256;
	struct htab_slot *old = t->slots;
	size_t nold = t->nslots;
	t->slots = xcalloc(n, sizeof *t->slots);
	t->nslots = n;
	for (size_t i = 0; i < nold; i++) {
		if (!old[i].item)
			continue;
		size_t j = (size_t)old[i].hash & (n - 1);
		while (t->slots[j].item)
			j = (j + 1) & (n - 1);
		t->slots[j] = old[i];
	}
	free(old);
}

void *htab_get(const struct htab *t, uint64_t hash, htab_eq_fn *eq, const void *key)
{
	if (!t->nslots)
		return NULL;
	return probe(t, hash, eq, key)->item;
}

void **htab_put(struct htab *t, uint64_t hash, htab_eq_fn *eq, const void *key)
{
	/* Kept under three quarters full so probes stay short. */
	if ((t->nused + 1) * 4 > t->nslots * 3)
		grow(t);
	struct htab_slot *sl = probe(t, hash, eq, key);
	if (!sl->item) {
		sl->hash = hash;
		t->nused++;
	}
	return &sl->item;
}

void htab_free(struct htab *t)
{
	free(t->slots);
	t->slots = NULL;
	t->nslots = t->nused = 0;
}
