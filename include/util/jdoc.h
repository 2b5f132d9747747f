/* jdoc.h - records parsed at memory speed into a flat, read-only tape.
 *
 * The run model is filled straight from this: a loader walks the tape
 * with the jv_* accessors below and borrows the decoded strings, which
 * live as long as the document. Nothing builds a jansson tree unless a
 * caller asks for one (jv_to_json), so the hot path allocates two buffers
 * per record instead of a node per value.
 *
 * The parser is simdjson's on-demand API behind src/util/jdoc_parse.cc,
 * the only C++ in the program; the accessors are C. Every value of the
 * record is visited once, so the whole record is validated, as jansson
 * validated it; a record jansson accepts is accepted here, and beyond it
 * "\u0000" inside strings and numbers out of any C type's range (1e400,
 * 123456789012345678901234567890), which are valid JSON and keep their text.
 *
 * Values are indexes into the tape (jv). JV_NONE is "nothing": every
 * accessor takes it and answers as for a missing value, so lookups chain
 * without checks: jv_str(d, jv_get(d, jv_get(d, m, "function"), "name")). */
#ifndef TCR_UTIL_JDOC_H
#define TCR_UTIL_JDOC_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bytes simdjson may read past the end of a record. They must be readable
 * (their content does not matter); see jdoc_parse. */
#define JDOC_PADDING 64
/* Nesting deeper than this is refused, as jansson refuses it. */
#define JDOC_MAX_DEPTH 2048

typedef uint32_t jv;
#define JV_NONE UINT32_MAX

enum jv_type {
	JV_MISSING = 0,         /* JV_NONE */
	JV_NULL,
	JV_FALSE,
	JV_TRUE,
	JV_NUMBER,
	JV_STRING,
	JV_ARRAY,
	JV_OBJECT,
};

enum {
	JVF_INTEGER = 1,        /* a number written without fraction or exponent */
	JVF_INT64 = 2,          /* ... and within int64_t: jv_int is exact */
	JVF_RANGE = 4,          /* a number whose double overflows (1e400): jv_real is +-HUGE_VAL */
};

/* One value. An object's members are key (a JV_STRING) then value, in the
 * record's order; an array's elements follow it in order. */
struct jdoc_node {
	uint8_t type;           /* enum jv_type */
	uint8_t flags;          /* JVF_* for numbers */
	uint16_t unused;
	uint32_t end;           /* index just past this value and everything inside it */
	uint32_t count;         /* containers: members or elements; strings, numbers: text length */
	uint32_t text;          /* strings, numbers: offset of the NUL-terminated text in strings */
	uint32_t src;           /* offset of the value's first byte in the parsed bytes */
	uint32_t src_len;       /* its length there (a string's with its quotes) */
};

struct jdoc {
	struct jdoc_node *nodes;
	uint32_t nnodes, nodes_cap;
	char *strings;          /* decoded strings and number texts, each NUL-terminated */
	size_t strings_len, strings_cap;
	const char *src;        /* the bytes parsed: the caller's, or own_src */
	size_t src_len;
	char *own_src;          /* a copy made to repair invalid UTF-8 or to pad; NULL if none */
	bool repaired;          /* invalid UTF-8 was replaced by U+FFFD */
	/* String buffers jdoc_graft outgrew, kept until jdoc_free so that the
	 * strings borrowed from them stay valid. */
	char **retired;
	size_t nretired;
};

struct jdoc_error {
	char text[200];         /* jansson's wording where jansson also refuses the bytes */
	int line;               /* 1-based, within the parsed bytes */
	int column;             /* 1-based, in bytes, as jansson counts */
	size_t position;        /* byte offset */
};

/* Parses the len bytes at text as one JSON value (leading and trailing
 * white space allowed). `readable` is how many bytes from text on may be
 * read: when it is at least len + JDOC_PADDING the bytes are parsed where
 * they are (a mapped file's record, with the rest of the file or the
 * mapping's spare page behind it); otherwise only this record is copied
 * into a padded buffer. Invalid UTF-8 is replaced by U+FFFD and parsed
 * again (d->repaired). The document borrows text unless it made a copy, so
 * the bytes must outlive it for jv_raw. Returns NULL with err filled on a
 * syntax error, a record over 4 GiB or nesting deeper than JDOC_MAX_DEPTH. */
struct jdoc *jdoc_parse(const char *text, size_t len, size_t readable, struct jdoc_error *err);
/* The same for a NUL-terminated string or a jansson value (serialized
 * compactly first): for tests and for records built in memory. */
struct jdoc *jdoc_parse_str(const char *text, struct jdoc_error *err);
struct jdoc *jdoc_from_json(const json_t *v);
void         jdoc_free(struct jdoc *d);
/* Memory the document holds (its own buffers, not the borrowed bytes). */
size_t       jdoc_bytes(const struct jdoc *d);
/* The version of the JSON parser underneath (simdjson), for --version;
 * defined in the C++ file, hence the linkage. */
#ifdef __cplusplus
extern "C"
#endif
const char  *jdoc_parser_version(void);

/* Reads the JSON a string value of d holds (an OpenTelemetry attribute
 * that is a JSON text) into d itself, after the record: returns the new
 * value, which no walk from the root reaches, or JV_NONE when str is not
 * a string holding JSON. Strings borrowed from d before stay valid (the
 * buffer they live in is kept); the new values' jv_raw is str's. Only the
 * owner of d may graft (a loader on its run's document). */
jv jdoc_graft(struct jdoc *d, jv str);

/* ---- values ---------------------------------------------------------- */

static inline jv jdoc_root(const struct jdoc *d)
{
	return d && d->nnodes ? 0 : JV_NONE;
}

static inline enum jv_type jv_type(const struct jdoc *d, jv v)
{
	return v == JV_NONE ? JV_MISSING : (enum jv_type)d->nodes[v].type;
}

static inline bool jv_is_object(const struct jdoc *d, jv v) { return jv_type(d, v) == JV_OBJECT; }
static inline bool jv_is_array(const struct jdoc *d, jv v)  { return jv_type(d, v) == JV_ARRAY; }
static inline bool jv_is_string(const struct jdoc *d, jv v) { return jv_type(d, v) == JV_STRING; }
static inline bool jv_is_number(const struct jdoc *d, jv v) { return jv_type(d, v) == JV_NUMBER; }
static inline bool jv_is_null(const struct jdoc *d, jv v)   { return jv_type(d, v) == JV_NULL; }
static inline bool jv_is_bool(const struct jdoc *d, jv v)
{
	return jv_type(d, v) == JV_TRUE || jv_type(d, v) == JV_FALSE;
}
/* A number written as an integer that fits int64_t (jansson's integer). */
static inline bool jv_is_integer(const struct jdoc *d, jv v)
{
	return jv_is_number(d, v) && (d->nodes[v].flags & JVF_INT64);
}

/* The decoded string (NUL-terminated; it may hold NULs, see jv_strlen),
 * or NULL when v is not a string. */
static inline const char *jv_str(const struct jdoc *d, jv v)
{
	return jv_is_string(d, v) ? d->strings + d->nodes[v].text : NULL;
}
static inline const char *jv_str_or(const struct jdoc *d, jv v, const char *dflt)
{
	return jv_is_string(d, v) ? d->strings + d->nodes[v].text : dflt;
}
static inline size_t jv_strlen(const struct jdoc *d, jv v)
{
	return jv_is_string(d, v) ? d->nodes[v].count : 0;
}
/* v is a string equal to s. */
bool jv_streq(const struct jdoc *d, jv v, const char *s);

/* A number's text as the record writes it ("5.0", "1e400"); NULL otherwise. */
static inline const char *jv_number_text(const struct jdoc *d, jv v)
{
	return jv_is_number(d, v) ? d->strings + d->nodes[v].text : NULL;
}
/* The number as int64_t (truncated toward zero for reals, 0 for non-numbers). */
int64_t jv_int(const struct jdoc *d, jv v);
/* The number as a double, as JavaScript reads it (0 for non-numbers). */
double  jv_real(const struct jdoc *d, jv v);

/* JavaScript's truthiness: false for missing, null, false, 0, NaN and "". */
bool jv_truthy(const struct jdoc *d, jv v);
/* JSON equality as JavaScript's structural comparisons see it: numbers
 * by value (5 == 5.0), strings by bytes, objects regardless of key order. */
bool jv_equal(const struct jdoc *a, jv va, const struct jdoc *b, jv vb);

/* ---- containers ------------------------------------------------------- */

/* Elements of an array or members of an object; 0 for anything else. */
static inline size_t jv_len(const struct jdoc *d, jv v)
{
	enum jv_type t = jv_type(d, v);
	return t == JV_ARRAY || t == JV_OBJECT ? d->nodes[v].count : 0;
}
/* The first element of an array, or the first key of an object. */
static inline jv jv_first(const struct jdoc *d, jv container)
{
	return jv_len(d, container) ? container + 1 : JV_NONE;
}
/* The element after e in array `container`, or JV_NONE. */
static inline jv jv_next(const struct jdoc *d, jv container, jv e)
{
	uint32_t n = d->nodes[e].end;
	return n < d->nodes[container].end ? n : JV_NONE;
}
/* The key after key k in object `container` (skipping k's value). */
static inline jv jv_next_key(const struct jdoc *d, jv container, jv k)
{
	uint32_t n = d->nodes[k + 1].end;
	return n < d->nodes[container].end ? n : JV_NONE;
}
/* The value of key k. */
static inline jv jv_value(jv k)
{
	return k + 1;
}
/* Element i of an array (O(i)); a negative i counts from the end. */
jv jv_at(const struct jdoc *d, jv arr, long i);
/* The value of member `key` of an object (the last one when the key
 * repeats, as JSON.parse and jansson keep it), or JV_NONE. */
jv jv_get(const struct jdoc *d, jv obj, const char *key);
jv jv_getn(const struct jdoc *d, jv obj, const char *key, size_t keylen);
/* A dotted path with [n] indexes, in util/jsonpath's syntax. */
jv jv_path(const struct jdoc *d, jv root, const char *path);

#define JV_EACH(d, arr, e) \
	for (jv e = jv_is_array((d), (arr)) ? jv_first((d), (arr)) : JV_NONE; e != JV_NONE; \
	     e = jv_next((d), (arr), e))
#define JV_EACH_KEY(d, obj, k) \
	for (jv k = jv_is_object((d), (obj)) ? jv_first((d), (obj)) : JV_NONE; k != JV_NONE; \
	     k = jv_next_key((d), (obj), k))

/* ---- the record's own text, and trees on demand ------------------------- */

/* The value's bytes as the record has them (escaped, unformatted). */
const char *jv_raw(const struct jdoc *d, jv v, size_t *len);
/* A jansson tree of the value (new reference; NULL for JV_NONE): the tree
 * json_loadb would build with JSON_DECODE_ANY | JSON_ALLOW_NUL, except that
 * integers beyond int64_t become reals (as JavaScript reads them) and
 * numbers beyond a double's range become +-DBL_MAX (jansson holds no
 * infinity; jv_raw keeps the text). */
json_t *jv_to_json(const struct jdoc *d, jv v);

#endif
