/* hash.h - small stable hashes for configuration and content keys. */
#ifndef TCR_UTIL_HASH_H
#define TCR_UTIL_HASH_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

uint64_t hash_fnv1a(const void *data, size_t n, uint64_t seed);
#define HASH_FNV_SEED 0xcbf29ce484222325ULL
/* Feeds one part of a composite key: a tag byte tells NULL from "" and
 * the NUL ends the part, so no two different lists of parts (of any
 * length) feed the same bytes. */
uint64_t hash_fnv1a_part(uint64_t h, const char *part);
/* Feeds a string (its bytes, no terminator), and a JSON value as its
 * compact text with sorted keys, so equal values hash alike whatever their
 * key order. For configuration hashes, which are built of such pieces. */
void hash_add_str(uint64_t *h, const char *s);
void hash_add_json(uint64_t *h, const json_t *v);
/* 16 lowercase hex digits and a NUL into out[17]. */
void hash_hex(uint64_t h, char out[17]);

#endif
