/* conf_private.h - what the files of src/conf/ share and nobody else needs. */
#ifndef TCR_CONF_PRIVATE_H
#define TCR_CONF_PRIVATE_H

#include <jansson.h>
#include <stddef.h>

/* Nesting deeper than this is certainly a mistake or an attack, and the
 * JSON conversion recurses. */
#define CONF_MAX_DEPTH 256
/* Aliases let a small file describe an exponentially large value; cap the
 * number of nodes expanded into JSON over the whole file. */
#define CONF_MAX_EXPANDED 100000

/* Types a plain scalar the way YAML's core schema does. Returns 1 with *out
 * set, 0 when the text is just a string, -1 for infinities and NaN, which
 * JSON cannot hold. */
int conf_plain_type(const char *s, size_t len, json_t **out);

#endif
