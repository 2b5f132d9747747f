/* conf.h - YAML read into positioned nodes, and typed readers that report
 * FILE:LINE:COLUMN.
 *
 * libyaml's event stream is turned into a small node tree that keeps the
 * line and column of every node, so that any later check (unknown key,
 * wrong type, a scorer's own refusal) can point at the exact spot. Every
 * section parser (runs/, scorers/, judge/, config/, review/, tui/) reads
 * its part with the readers below; the first error is kept in the
 * caller's buffer and later ones are dropped (they are usually
 * consequences). */
#ifndef TCR_CONF_CONF_H
#define TCR_CONF_CONF_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include "util/error.h"

enum conf_kind {
	CONF_SCALAR,
	CONF_SEQ,
	CONF_MAP,
};

struct conf_node {
	enum conf_kind kind;
	int line, col;              /* 1-based */
	char *text;                 /* scalar bytes, NUL-terminated; may hold NULs */
	size_t len;
	bool typed;                 /* plain and untagged: implicit typing applies */
	char *tag;                  /* explicit tag, NULL when none */
	struct conf_node **kids;    /* seq: items; map: key, value, key, value, ... */
	size_t nkids, capkids;
};

struct conf_anchor;

/* One parsed document and its error buffer. */
struct conf {
	const char *name;           /* the file name used in messages */
	const char *dir;            /* folder of the file, for relative paths (may be NULL) */
	struct error *err;
	bool failed;
	struct conf_node *root;     /* NULL for an empty stream */
	/* Every node, so that freeing needs no walk: aliases share nodes and
	 * make the tree a DAG. */
	struct conf_node **nodes;
	size_t nnodes, capnodes;
	struct conf_anchor *anchors;
	size_t nanchors, capanchors;
	size_t expanded;            /* nodes turned into JSON so far (alias bombs) */
	/* Set by the caller after conf_parse: the files conf_file names must
	 * then resolve inside dir, links resolved, or under one of the allowed
	 * files or folders (util/confine.h). A configuration can come from
	 * someone else, and what it names is read and may be sent away. */
	bool confined;
	const char *const *allow;
	size_t nallow;
};

/* Parses text into cf->root. Returns 0, or -1 with the message in err. */
int  conf_parse(struct conf *cf, const char *name, const char *dir, const char *text,
                size_t len, struct error *err);
void conf_free(struct conf *cf);

/* ---- errors ------------------------------------------------------------ */

/* All return -1, so that `return conf_fail(...)` reads naturally. */
int conf_fail(struct conf *cf, const struct conf_node *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int conf_fail_at(struct conf *cf, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* An error in another file the configuration names (a prompt file). */
int conf_fail_in(struct conf *cf, const char *file, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* "unknown key 'K' (expected one of: KNOWN)" at the key. */
int conf_unknown_key(struct conf *cf, const struct conf_node *key, const char *known);

/* ---- looking at nodes -------------------------------------------------- */

bool conf_key_is(const struct conf_node *k, const char *s);
/* The value under key in a mapping, or NULL. */
const struct conf_node *conf_get(const struct conf_node *map, const char *key);
/* A plain `~`, `null` or empty value: treated as if the key were absent
 * where a whole section is optional. */
bool conf_is_null(const struct conf_node *n);
/* "a list", "a mapping", "a string" */
const char *conf_kind_name(const struct conf_node *n);
/* The same for a JSON value: "a number", "a boolean", "null", ... */
const char *conf_json_kind_name(const json_t *v);
/* "'WHAT' must be a mapping, got a list" unless n is a mapping. */
int conf_map(struct conf *cf, const struct conf_node *n, const char *what);
/* "'WHAT' must be a list of ITEMS, got a value" unless n is a sequence. */
int conf_seq(struct conf *cf, const struct conf_node *n, const char *what, const char *items);

/* ---- typed readers ----------------------------------------------------- */

/* A scalar used as text (an id, a type, a path, a file name). Numbers and
 * booleans are taken as written; null and empty are refused. *out is
 * malloc'd. `what` names the key in messages. */
int conf_str(struct conf *cf, const struct conf_node *n, const char *what, char **out);
/* A JSON path (util/jsonpath.h syntax), checked. */
int conf_path(struct conf *cf, const struct conf_node *n, const char *what, char **out);
/* A file name, joined to cf->dir unless absolute. When cf->confined, a
 * file that resolves outside cf->dir and is not allowed is refused at the
 * value ("WHAT 'FILE' resolves outside the configuration's folder ...");
 * one that does not resolve (missing) is left to the read to report. */
int conf_file(struct conf *cf, const struct conf_node *n, const char *what, char **out);
/* A number (an integer or a real, typed as YAML's core schema types it). */
int conf_num(struct conf *cf, const struct conf_node *n, const char *what, double *out);
/* A whole number from lo to hi. */
int conf_int(struct conf *cf, const struct conf_node *n, const char *what, long lo, long hi,
             long *out);
int conf_bool(struct conf *cf, const struct conf_node *n, const char *what, bool *out);
/* A string or a list of strings; *out is a malloc'd array of *nout strings. */
int conf_str_list(struct conf *cf, const struct conf_node *n, const char *what, char ***out,
                  size_t *nout);
void conf_str_list_free(char **list, size_t n);
/* Any node as JSON (new reference). Mapping keys keep their order. */
int conf_json(struct conf *cf, const struct conf_node *n, json_t **out);
/* A scalar alone as JSON, with its tag or plain typing applied. */
int conf_scalar_json(struct conf *cf, const struct conf_node *n, json_t **out);

/* An id of a scorer or a judge: letters, digits and _ . : - */
bool conf_is_id(const char *s);

/* dir/file, or file when absolute or dir is empty or "." (malloc'd). */
char *conf_join(const char *dir, const char *file);

/* ---- reading a mapping by declaration ---------------------------------- */

enum conf_key_kind {
	CONF_K_NODE,        /* keep the node only (in slots[]); read by the owner */
	CONF_K_STR,         /* char * (conf_str) */
	CONF_K_PATH,        /* char * (conf_path) */
	CONF_K_FILE,        /* char * (conf_file) */
	CONF_K_NUM,         /* double (conf_num), range lo..hi when lo < hi */
	CONF_K_INT,         /* long (conf_int), range lo..hi */
	CONF_K_BOOL,        /* bool */
	CONF_K_STR_LIST,    /* char ** at offset, size_t at offset2 */
	CONF_K_JSON,        /* json_t * */
	CONF_K_FN,          /* read(cf, node, store) */
};

enum {
	CONF_REQUIRED = 1,  /* absent: `missing` at the mapping */
	CONF_LATER = 2,     /* read after every key is known, in table order */
	CONF_ALWAYS = 4,    /* CONF_K_FN: called even when absent (node NULL) */
};

struct conf_key {
	const char *name;
	enum conf_key_kind kind;
	unsigned flags;
	size_t offset;              /* where in the store the value goes */
	size_t offset2;             /* CONF_K_STR_LIST: the count */
	double lo, hi;              /* CONF_K_NUM / CONF_K_INT range */
	const char *range_msg;      /* out of range: this at the value, else a default */
	const char *missing;        /* required and absent: this at the mapping */
	int (*read)(struct conf *cf, const struct conf_node *v, void *store);
};

struct conf_table {
	const struct conf_key *keys;        /* terminated by a {NULL} entry */
	/* The list in "unknown key" messages; NULL lists the keys in table order. */
	const char *known;
	/* NULL: "unknown key 'K' (expected one of: ...)"; else
	 * "unknown key 'K' FOR (known: ...)", e.g. FOR = "for a judge". */
	const char *unknown_for;
	/* Optional: a key not in the table. Returns -1 after conf_fail to
	 * refuse it with a better message, 0 to take it as fine, 1 for the
	 * usual "unknown key" message. */
	int (*other)(struct conf *cf, const struct conf_node *key, void *store);
};

/* Reads a mapping by a key table. Keys are taken in document order: an
 * unknown key is refused at once, a key without CONF_LATER is read at
 * once. Then, in table order, required keys are checked and CONF_LATER
 * keys read. slots (may be NULL) gets each key's node, or NULL, by table
 * index. Returns 0 or -1. */
int conf_keys(struct conf *cf, const struct conf_node *map, const struct conf_table *t,
              void *store, const struct conf_node **slots);

#endif
