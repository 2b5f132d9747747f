/* jsonpath.h - dotted paths with [n] indexes into a JSON record.
 *
 * "info.task.actions[0].name", "_corpus.run_id", "messages[-1]" (negative
 * indexes count from the end). Used by {from: PATH} references, run ids and
 * the expectations join. */
#ifndef TCR_UTIL_JSONPATH_H
#define TCR_UTIL_JSONPATH_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* Checks the syntax; on error returns false and points *err at a message. */
bool    jsonpath_valid(const char *path, const char **err);
/* Borrowed reference to the value, or NULL when any step finds nothing. */
json_t *jsonpath_get(json_t *root, const char *path);

/* The scanner both use, for walkers of other trees (util/jdoc's jv_path),
 * so that every tree reads a path the same way. */
enum jsonpath_seg_kind {
	JSONPATH_KEY,
	JSONPATH_INDEX,
};

struct jsonpath_seg {
	enum jsonpath_seg_kind kind;
	const char *key;        /* JSONPATH_KEY: start of the key text in the path */
	size_t keylen;
	bool escaped;           /* the key holds backslash escapes to undo */
	long index;             /* JSONPATH_INDEX; negative counts from the end */
};

/* Reads the next segment at *pp. Returns 1 with *s filled, 0 at the end of
 * the path, -1 with *err set on a syntax error. `first` tells whether a
 * leading '.' is required before a bare key. */
int    jsonpath_next(const char **pp, bool first, struct jsonpath_seg *s, const char **err);
/* Writes an escaped key's text with its escapes undone to out (keylen + 1
 * bytes, NUL-terminated); returns its length. */
size_t jsonpath_unescape(const struct jsonpath_seg *s, char *out);
/* The element index idx names among n (a negative one counts from the
 * end); false when there is none. */
bool   jsonpath_index(long idx, size_t n, size_t *pos);

struct strbuf;
/* Appends key k (n bytes) to the path in sb as a segment a path reads back:
 * bare after a dot when it can be, else ["quoted"] (as init writes paths). */
void   jsonpath_add_key(struct strbuf *sb, const char *k, size_t n);

#endif
