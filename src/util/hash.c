/* hash.c - FNV-1a: stable across runs and machines, which is what keys
 * written to files need; nothing here has to resist an attacker. */
#include "util/hash.h"
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t hash_fnv1a(const void *data, size_t n, uint64_t seed)
{
	const unsigned char *p = data;
	uint64_t h = seed;
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

uint64_t hash_fnv1a_part(uint64_t h, const char *part)
{
	unsigned char tag = part ? 1 : 0;
	h = hash_fnv1a(&tag, 1, h);
	if (part)
		h = hash_fnv1a(part, strlen(part) + 1, h);
	return h;
}

void hash_add_str(uint64_t *h, const char *s)
{
	*h = hash_fnv1a(s, strlen(s), *h);
}

void hash_add_json(uint64_t *h, const json_t *v)
{
	char *s = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
	if (!s)
		xalloc_die();
	hash_add_str(h, s);
	free(s);
}

void hash_hex(uint64_t h, char out[17])
{
	snprintf(out, 17, "%016llx", (unsigned long long)h);
}
