/* config.c - the YAML configuration: run ids, expectations, scorers.
 *
 * libyaml's event stream is first turned into a small node tree that keeps
 * the line and column of every node, so that any later check (unknown key,
 * wrong type, a scorer's own refusal) can point at the exact spot. The tree
 * is then walked once into struct config and thrown away. */
#include "config/config.h"
#include "util/hash.h"
#include "judge/judge.h"
#include "judge/prompt.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "util/jsonpath.h"
#include "review/keymap.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* Nesting deeper than this is certainly a mistake or an attack, and the
 * JSON conversion below recurses. */
#define MAX_DEPTH 256
/* Aliases let a small file describe an exponentially large value; cap the
 * number of nodes expanded into JSON over the whole file. */
#define MAX_EXPANDED 100000

#define TAG_PREFIX "tag:yaml.org,2002:"

enum ynode_kind {
	YN_SCALAR,
	YN_SEQ,
	YN_MAP,
};

struct ynode {
	enum ynode_kind kind;
	int line, col;              /* 1-based */
	char *text;                 /* scalar bytes, NUL-terminated; may hold NULs */
	size_t len;
	bool typed;                 /* plain and untagged: implicit typing applies */
	char *tag;                  /* explicit tag, NULL when none */
	struct ynode **kids;        /* seq: items; map: key, value, key, value, ... */
	size_t nkids, capkids;
};

struct yanchor {
	char *name;
	struct ynode *node;
};

struct frame {
	struct ynode *node;
	char *anchor;               /* registered when the collection ends */
};

struct ctx {
	const char *name;
	char *err;
	size_t errlen;
	bool failed;
	/* Every node, so that freeing needs no walk: aliases share nodes and
	 * make the tree a DAG. */
	struct ynode **nodes;
	size_t nnodes, capnodes;
	struct yanchor *anchors;
	size_t nanchors, capanchors;
	struct ynode *root;
	size_t expanded;
};

/* ---- small helpers ---------------------------------------------------- */

static void oom(void) __attribute__((noreturn));

static void oom(void)
{
	/* Same policy as strbuf: a configuration that does not fit in memory
	 * cannot be reported usefully anyway. */
	fputs("tcreview: out of memory\n", stderr);
	abort();
}

static int vfail_in(struct ctx *x, const char *file, int line, int col, const char *fmt,
                    va_list ap) __attribute__((format(printf, 5, 0)));

/* Records the first error only: later ones are usually consequences. */
static int vfail_in(struct ctx *x, const char *file, int line, int col, const char *fmt,
                    va_list ap)
{
	if (x->failed)
		return -1;
	x->failed = true;
	if (!x->err || !x->errlen)
		return -1;
	int n = snprintf(x->err, x->errlen, "%s:%d:%d: ", file, line, col);
	if (n >= 0 && (size_t)n < x->errlen)
		vsnprintf(x->err + n, x->errlen - (size_t)n, fmt, ap);
	return -1;
}

static int fail_at(struct ctx *x, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail_at(struct ctx *x, int line, int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfail_in(x, x->name, line, col, fmt, ap);
	va_end(ap);
	return -1;
}

/* An error in another file the configuration names (a prompt file). */
static int fail_in(struct ctx *x, const char *file, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static int fail_in(struct ctx *x, const char *file, int line, int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfail_in(x, file, line, col, fmt, ap);
	va_end(ap);
	return -1;
}

#define fail(x, node, ...) fail_at((x), (node)->line, (node)->col, __VA_ARGS__)

static bool key_is(const struct ynode *k, const char *s)
{
	size_t n = strlen(s);
	return k->kind == YN_SCALAR && k->len == n && memcmp(k->text, s, n) == 0;
}

static const struct ynode *map_get(const struct ynode *m, const char *key)
{
	for (size_t i = 0; i + 1 < m->nkids; i += 2)
		if (key_is(m->kids[i], key))
			return m->kids[i + 1];
	return NULL;
}

/* ---- plain scalar typing ---------------------------------------------- */

static bool text_in(const char *s, size_t len, const char *const *words)
{
	for (; *words; words++)
		if (strlen(*words) == len && memcmp(s, *words, len) == 0)
			return true;
	return false;
}

static bool all_digits(const char *s, size_t len, int base)
{
	if (!len)
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		bool ok = base == 16 ? ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
		                        (c >= 'A' && c <= 'F'))
		        : base == 8 ? (c >= '0' && c <= '7')
		        : (c >= '0' && c <= '9');
		if (!ok)
			return false;
	}
	return true;
}

static bool float_syntax(const char *s, size_t len)
{
	size_t i = 0, digits = 0;
	if (i < len && (s[i] == '-' || s[i] == '+'))
		i++;
	while (i < len && s[i] >= '0' && s[i] <= '9')
		i++, digits++;
	if (i < len && s[i] == '.') {
		i++;
		while (i < len && s[i] >= '0' && s[i] <= '9')
			i++, digits++;
	}
	if (!digits)
		return false;
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < len && (s[i] == '-' || s[i] == '+'))
			i++;
		size_t e = 0;
		while (i < len && s[i] >= '0' && s[i] <= '9')
			i++, e++;
		if (!e)
			return false;
	}
	return i == len;
}

/* Types a plain scalar the way YAML's core schema does. Returns 1 with *out
 * set, 0 when the text is just a string, -1 for infinities and NaN, which
 * JSON cannot hold. */
static int plain_type(const char *s, size_t len, json_t **out)
{
	static const char *const nulls[] = { "~", "null", "Null", "NULL", NULL };
	static const char *const trues[] = { "true", "True", "TRUE", NULL };
	static const char *const falses[] = { "false", "False", "FALSE", NULL };
	static const char *const infs[] = { ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF",
	                                    "-.inf", "-.Inf", "-.INF", ".nan", ".NaN", ".NAN",
	                                    NULL };

	if (len == 0 || text_in(s, len, nulls)) {
		*out = json_null();
		return 1;
	}
	if (text_in(s, len, trues) || text_in(s, len, falses)) {
		*out = json_boolean(text_in(s, len, trues));
		return 1;
	}
	if (text_in(s, len, infs))
		return -1;

	char *t = xstrndup(s, len);   /* strtoll needs a terminator */
	int r = 0;
	size_t sign = (t[0] == '-' || t[0] == '+') ? 1 : 0;
	if (len > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'o') &&
	    all_digits(t + 2, len - 2, t[1] == 'x' ? 16 : 8)) {
		errno = 0;
		unsigned long long v = strtoull(t + 2, NULL, t[1] == 'x' ? 16 : 8);
		if (errno == 0 && v <= (unsigned long long)INT64_MAX)
			*out = json_integer((json_int_t)v);
		else
			*out = json_real((double)v);
		r = 1;
	} else if (all_digits(t + sign, len - sign, 10)) {
		errno = 0;
		long long v = strtoll(t, NULL, 10);
		/* Too large for an integer: keep it as a number all the same. */
		*out = errno == ERANGE ? json_real(strtod(t, NULL)) : json_integer((json_int_t)v);
		r = 1;
	} else if (float_syntax(t, len)) {
		double d = strtod(t, NULL);
		if (!isfinite(d)) {
			r = -1;
		} else {
			*out = json_real(d);
			r = 1;
		}
	}
	free(t);
	if (r == 1 && !*out)
		oom();
	return r;
}

/* ---- building the tree ------------------------------------------------ */

static struct ynode *node_new(struct ctx *x, enum ynode_kind kind, const yaml_mark_t *m)
{
	struct ynode *n = xcalloc(1, sizeof *n);
	n->kind = kind;
	n->line = (int)m->line + 1;
	n->col = (int)m->column + 1;
	if (x->nnodes == x->capnodes) {
		x->capnodes = x->capnodes ? x->capnodes * 2 : 32;
		x->nodes = xrealloc(x->nodes, x->capnodes * sizeof *x->nodes);
	}
	x->nodes[x->nnodes++] = n;
	return n;
}

static void node_add(struct ynode *parent, struct ynode *kid)
{
	if (parent->nkids == parent->capkids) {
		parent->capkids = parent->capkids ? parent->capkids * 2 : 8;
		parent->kids = xrealloc(parent->kids, parent->capkids * sizeof *parent->kids);
	}
	parent->kids[parent->nkids++] = kid;
}

static void anchor_set(struct ctx *x, const yaml_char_t *name, struct ynode *n)
{
	if (!name)
		return;
	/* A later anchor of the same name replaces the earlier one (YAML 1.2). */
	for (size_t i = 0; i < x->nanchors; i++) {
		if (strcmp(x->anchors[i].name, (const char *)name) == 0) {
			x->anchors[i].node = n;
			return;
		}
	}
	if (x->nanchors == x->capanchors) {
		x->capanchors = x->capanchors ? x->capanchors * 2 : 8;
		x->anchors = xrealloc(x->anchors, x->capanchors * sizeof *x->anchors);
	}
	x->anchors[x->nanchors].name = xstrdup((const char *)name);
	x->anchors[x->nanchors].node = n;
	x->nanchors++;
}

static struct ynode *anchor_get(struct ctx *x, const yaml_char_t *name)
{
	for (size_t i = 0; i < x->nanchors; i++)
		if (strcmp(x->anchors[i].name, (const char *)name) == 0)
			return x->anchors[i].node;
	return NULL;
}

static void tree_free(struct ctx *x)
{
	for (size_t i = 0; i < x->nnodes; i++) {
		free(x->nodes[i]->text);
		free(x->nodes[i]->tag);
		free(x->nodes[i]->kids);
		free(x->nodes[i]);
	}
	free(x->nodes);
	for (size_t i = 0; i < x->nanchors; i++)
		free(x->anchors[i].name);
	free(x->anchors);
	x->nodes = NULL;
	x->anchors = NULL;
	x->nnodes = x->nanchors = 0;
	x->root = NULL;
}

struct keyref {
	const struct ynode *key;
	size_t index;
};

static int keyref_cmp(const void *pa, const void *pb)
{
	const struct keyref *a = pa, *b = pb;
	size_t n = a->key->len < b->key->len ? a->key->len : b->key->len;
	int c = memcmp(a->key->text, b->key->text, n);
	if (c)
		return c;
	if (a->key->len != b->key->len)
		return a->key->len < b->key->len ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

/* Keys must be scalars and unique; a duplicate is reported at its second
 * occurrence. Sorting keeps large literal mappings from costing n^2. */
static int map_check_keys(struct ctx *x, const struct ynode *m)
{
	size_t n = m->nkids / 2;
	for (size_t i = 0; i < n; i++)
		if (m->kids[2 * i]->kind != YN_SCALAR)
			return fail(x, m->kids[2 * i], "mapping keys must be scalars");
	if (n < 2)
		return 0;

	struct keyref *refs = xcalloc(n, sizeof *refs);
	for (size_t i = 0; i < n; i++) {
		refs[i].key = m->kids[2 * i];
		refs[i].index = i;
	}
	qsort(refs, n, sizeof *refs, keyref_cmp);
	size_t second = SIZE_MAX, first = 0, group = 0;
	for (size_t j = 1; j < n; j++) {
		const struct ynode *a = refs[j - 1].key, *b = refs[j].key;
		if (a->len != b->len || memcmp(a->text, b->text, a->len) != 0) {
			group = j;
			continue;
		}
		if (refs[j].index < second) {
			second = refs[j].index;
			first = refs[group].index;
		}
	}
	free(refs);
	if (second == SIZE_MAX)
		return 0;
	const struct ynode *k = m->kids[2 * second];
	return fail(x, k, "duplicate key '%.*s' (first at line %d)", (int)k->len, k->text,
	            m->kids[2 * first]->line);
}

static int syntax_error(struct ctx *x, const yaml_parser_t *p, const char *text, size_t len)
{
	if (p->error == YAML_MEMORY_ERROR)
		oom();
	if (p->error == YAML_READER_ERROR) {
		/* Reader errors carry a byte offset rather than a mark. */
		int line = 1, col = 1;
		for (size_t i = 0; i < p->problem_offset && i < len; i++) {
			if (text[i] == '\n') {
				line++;
				col = 1;
			} else if (((unsigned char)text[i] & 0xc0) != 0x80) {
				col++;
			}
		}
		if (p->problem_value != -1)
			return fail_at(x, line, col, "%s (byte 0x%02X)", p->problem,
			               (unsigned)p->problem_value);
		return fail_at(x, line, col, "%s", p->problem ? p->problem : "cannot read the input");
	}
	int line = (int)p->problem_mark.line + 1, col = (int)p->problem_mark.column + 1;
	const char *problem = p->problem ? p->problem : "syntax error";
	if (p->context)
		return fail_at(x, line, col, "%s (%s at line %d)", problem, p->context,
		               (int)p->context_mark.line + 1);
	return fail_at(x, line, col, "%s", problem);
}

/* Adds a finished node to its parent, or makes it the root. */
static void tree_attach(struct ctx *x, struct frame *stack, size_t depth, struct ynode *n)
{
	if (depth == 0)
		x->root = n;
	else
		node_add(stack[depth - 1].node, n);
}

static int tree_build(struct ctx *x, const char *text, size_t len)
{
	yaml_parser_t p;
	yaml_event_t ev;
	struct frame *stack = NULL;
	size_t depth = 0, cap = 0;
	int docs = 0, rc = 0;
	bool done = false;

	if (!yaml_parser_initialize(&p))
		oom();
	yaml_parser_set_input_string(&p, (const unsigned char *)text, len);

	while (!done && rc == 0) {
		if (!yaml_parser_parse(&p, &ev)) {
			rc = syntax_error(x, &p, text, len);
			break;
		}
		struct ynode *n = NULL;
		switch (ev.type) {
		case YAML_STREAM_END_EVENT:
			done = true;
			break;
		case YAML_DOCUMENT_START_EVENT:
			if (++docs > 1)
				rc = fail_at(x, (int)ev.start_mark.line + 1, (int)ev.start_mark.column + 1,
				             "only one YAML document is allowed");
			break;
		case YAML_SCALAR_EVENT:
			n = node_new(x, YN_SCALAR, &ev.start_mark);
			n->text = xstrndup((const char *)ev.data.scalar.value, ev.data.scalar.length);
			n->len = ev.data.scalar.length;
			n->typed = !ev.data.scalar.tag && ev.data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
			if (ev.data.scalar.tag)
				n->tag = xstrdup((const char *)ev.data.scalar.tag);
			anchor_set(x, ev.data.scalar.anchor, n);
			tree_attach(x, stack, depth, n);
			break;
		case YAML_ALIAS_EVENT:
			/* Anchors are registered when their node is complete, so an
			 * alias inside its own anchor is refused here and the tree
			 * can never contain a cycle. */
			n = anchor_get(x, ev.data.alias.anchor);
			if (!n) {
				const char *a = (const char *)ev.data.alias.anchor;
				bool inside = false;
				for (size_t i = 0; i < depth; i++)
					if (stack[i].anchor && strcmp(stack[i].anchor, a) == 0)
						inside = true;
				rc = fail_at(x, (int)ev.start_mark.line + 1, (int)ev.start_mark.column + 1,
				             inside ? "alias '*%s' is inside its own anchor"
				                    : "unknown anchor '%s'", a);
				break;
			}
			tree_attach(x, stack, depth, n);
			break;
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			if (depth >= MAX_DEPTH) {
				rc = fail_at(x, (int)ev.start_mark.line + 1, (int)ev.start_mark.column + 1,
				             "nesting deeper than %d levels", MAX_DEPTH);
				break;
			}
			n = node_new(x, ev.type == YAML_SEQUENCE_START_EVENT ? YN_SEQ : YN_MAP,
			             &ev.start_mark);
			const yaml_char_t *anchor = ev.type == YAML_SEQUENCE_START_EVENT
			        ? ev.data.sequence_start.anchor : ev.data.mapping_start.anchor;
			const yaml_char_t *tag = ev.type == YAML_SEQUENCE_START_EVENT
			        ? ev.data.sequence_start.tag : ev.data.mapping_start.tag;
			if (tag)
				n->tag = xstrdup((const char *)tag);
			if (depth == cap) {
				cap = cap ? cap * 2 : 16;
				stack = xrealloc(stack, cap * sizeof *stack);
			}
			stack[depth].node = n;
			stack[depth].anchor = anchor ? xstrdup((const char *)anchor) : NULL;
			depth++;
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			depth--;
			n = stack[depth].node;
			if (n->kind == YN_MAP)
				rc = map_check_keys(x, n);
			anchor_set(x, (const yaml_char_t *)stack[depth].anchor, n);
			free(stack[depth].anchor);
			tree_attach(x, stack, depth, n);
			break;
		default:
			break;
		}
		yaml_event_delete(&ev);
	}
	while (depth > 0)
		free(stack[--depth].anchor);
	free(stack);
	yaml_parser_delete(&p);
	return rc;
}

/* ---- YAML nodes to JSON ----------------------------------------------- */

static const char *json_kind_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:  return "a mapping";
	case JSON_ARRAY:   return "a list";
	case JSON_STRING:  return "a string";
	case JSON_INTEGER:
	case JSON_REAL:    return "a number";
	case JSON_TRUE:
	case JSON_FALSE:   return "a boolean";
	case JSON_NULL:    return "null";
	}
	return "a value";
}

static bool is_core_tag(const char *tag, const char *name)
{
	return strncmp(tag, TAG_PREFIX, strlen(TAG_PREFIX)) == 0 &&
	       strcmp(tag + strlen(TAG_PREFIX), name) == 0;
}

static int scalar_json(struct ctx *x, const struct ynode *n, json_t **out)
{
	*out = NULL;
	const char *want = NULL;        /* core tag that forces typing */
	if (n->tag && !is_core_tag(n->tag, "str") && strcmp(n->tag, "!") != 0) {
		static const char *const core[] = { "null", "bool", "int", "float", NULL };
		for (const char *const *c = core; *c && !want; c++)
			if (is_core_tag(n->tag, *c))
				want = *c;
		if (!want)
			return fail(x, n, "unsupported tag '%s'", n->tag);
	}
	if (n->typed || want) {
		int r = plain_type(n->text, n->len, out);
		if (r < 0)
			return fail(x, n, "'%.*s' is not a finite number, which JSON cannot hold",
			            (int)n->len, n->text);
		if (want) {
			bool ok = r == 1 &&
			          (strcmp(want, "null") == 0 ? json_is_null(*out)
			         : strcmp(want, "bool") == 0 ? json_is_boolean(*out)
			         : strcmp(want, "int") == 0 ? json_is_integer(*out)
			         : json_is_number(*out));
			if (!ok) {
				json_decref(*out);
				*out = NULL;
				return fail(x, n, "'%.*s' is not a valid !!%s", (int)n->len, n->text, want);
			}
			if (strcmp(want, "float") == 0 && json_is_integer(*out)) {
				json_t *d = json_real((double)json_integer_value(*out));
				json_decref(*out);
				*out = d;
			}
		}
		if (r == 1)
			return 0;
	}
	*out = json_stringn(n->text, n->len);
	if (!*out)
		return fail(x, n, "the string is not valid UTF-8");
	return 0;
}

static int node_json(struct ctx *x, const struct ynode *n, int depth, json_t **out)
{
	*out = NULL;
	if (++x->expanded > MAX_EXPANDED)
		return fail(x, n, "the value expands to more than %d nodes", MAX_EXPANDED);
	if (depth > MAX_DEPTH)
		return fail(x, n, "nesting deeper than %d levels", MAX_DEPTH);
	if (n->kind == YN_SCALAR)
		return scalar_json(x, n, out);

	json_t *v = n->kind == YN_SEQ ? json_array() : json_object();
	if (!v)
		oom();
	if (n->kind == YN_SEQ) {
		for (size_t i = 0; i < n->nkids; i++) {
			json_t *item;
			if (node_json(x, n->kids[i], depth + 1, &item)) {
				json_decref(v);
				return -1;
			}
			json_array_append_new(v, item);
		}
	} else {
		for (size_t i = 0; i + 1 < n->nkids; i += 2) {
			const struct ynode *k = n->kids[i];
			json_t *item;
			if (node_json(x, n->kids[i + 1], depth + 1, &item)) {
				json_decref(v);
				return -1;
			}
			if (json_object_setn_new(v, k->text, k->len, item)) {
				json_decref(v);
				return fail(x, k, "the key is not valid UTF-8");
			}
		}
	}
	*out = v;
	return 0;
}

/* ---- scalar fields of the configuration ------------------------------ */

static const char *node_kind_name(const struct ynode *n)
{
	return n->kind == YN_SEQ ? "a list" : n->kind == YN_MAP ? "a mapping" : "a string";
}

/* A plain `~`, `null` or empty value: treated as if the key were absent
 * where a whole section is optional. */
static bool node_is_null(const struct ynode *n)
{
	json_t *v = NULL;
	if (n->kind != YN_SCALAR || !n->typed)
		return false;
	bool null = plain_type(n->text, n->len, &v) == 1 && json_is_null(v);
	json_decref(v);
	return null;
}

/* A scalar used as text (an id, a type, a path, a file name). Numbers and
 * booleans are taken as written; null and empty are refused. */
static int node_cstr(struct ctx *x, const struct ynode *n, const char *what, char **out)
{
	*out = NULL;
	if (n->kind != YN_SCALAR)
		return fail(x, n, "wrong type for '%s': expected a string, got %s", what,
		            node_kind_name(n));
	if (node_is_null(n) || n->len == 0)
		return fail(x, n, "'%s' must not be empty", what);
	if (memchr(n->text, '\0', n->len))
		return fail(x, n, "'%s' must not contain NUL bytes", what);
	*out = xstrndup(n->text, n->len);
	return 0;
}

static int node_path(struct ctx *x, const struct ynode *n, const char *what, char **out)
{
	const char *why;
	if (node_cstr(x, n, what, out))
		return -1;
	if (!jsonpath_valid(*out, &why)) {
		fail(x, n, "invalid path '%s' for '%s': %s", *out, what, why);
		free(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}

/* ---- sections ---------------------------------------------------------- */

static int section_map(struct ctx *x, const struct ynode *n, const char *what)
{
	if (n->kind != YN_MAP)
		return fail(x, n, "'%s' must be a mapping, got %s", what,
		            n->kind == YN_SCALAR ? "a value" : node_kind_name(n));
	return 0;
}

static int unknown_key(struct ctx *x, const struct ynode *k, const char *known)
{
	return fail(x, k, "unknown key '%.*s' (expected one of: %s)", (int)k->len, k->text, known);
}

static int runs_parse(struct ctx *x, struct config *c, const struct ynode *m)
{
	if (section_map(x, m, "runs"))
		return -1;
	for (size_t i = 0; i + 1 < m->nkids; i += 2) {
		const struct ynode *k = m->kids[i], *v = m->kids[i + 1];
		if (key_is(k, "id")) {
			if (node_path(x, v, "id", &c->run_id_path))
				return -1;
		} else if (key_is(k, "format")) {
			if (node_cstr(x, v, "format", &c->format))
				return -1;
		} else {
			return unknown_key(x, k, "id, format");
		}
	}
	return 0;
}

static void paths_free(char **p, size_t n)
{
	for (size_t i = 0; p && i < n; i++)
		free(p[i]);
	free(p);
}

/* One side of `match`: a path or a list of paths. */
static int match_side(struct ctx *x, const struct ynode *v, const char *what,
                      char ***out, size_t *nout)
{
	*out = NULL;
	*nout = 0;
	if (v->kind == YN_MAP)
		return fail(x, v, "wrong type for '%s': expected a path or a list of paths, got a mapping",
		            what);
	if (v->kind == YN_SCALAR) {
		*out = xcalloc(1, sizeof **out);
		*nout = 1;
		return node_path(x, v, what, &(*out)[0]);
	}
	if (v->nkids == 0)
		return fail(x, v, "'%s' must name at least one path", what);
	*out = xcalloc(v->nkids, sizeof **out);
	*nout = v->nkids;
	for (size_t i = 0; i < v->nkids; i++)
		if (node_path(x, v->kids[i], what, &(*out)[i]))
			return -1;
	return 0;
}

static char *path_join(const char *dir, const char *file)
{
	if (file[0] == '/' || !dir || !*dir || strcmp(dir, ".") == 0)
		return xstrdup(file);
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, dir);
	if (sb.buf[sb.len - 1] != '/')
		strbuf_addch(&sb, '/');
	strbuf_addstr(&sb, file);
	return strbuf_detach(&sb);
}

static int expect_parse(struct ctx *x, struct config *c, const struct ynode *m)
{
	struct expect_conf *ec = &c->expect;
	const struct ynode *match = NULL;
	char *file = NULL;

	if (section_map(x, m, "expectations"))
		return -1;
	ec->line = m->line;
	ec->col = m->col;
	for (size_t i = 0; i + 1 < m->nkids; i += 2) {
		const struct ynode *k = m->kids[i], *v = m->kids[i + 1];
		if (key_is(k, "file")) {
			if (node_cstr(x, v, "file", &file))
				return -1;
			ec->file = path_join(c->dir, file);
			free(file);
		} else if (key_is(k, "match")) {
			match = v;
		} else {
			return unknown_key(x, k, "file, match");
		}
	}
	if (!ec->file)
		return fail(x, m, "'expectations' needs 'file'");
	if (!match)
		return fail(x, m, "'expectations' needs 'match' ({run: PATH, expected: PATH})");
	if (section_map(x, match, "match"))
		return -1;

	const struct ynode *runv = NULL, *expv = NULL;
	for (size_t i = 0; i + 1 < match->nkids; i += 2) {
		const struct ynode *k = match->kids[i];
		if (key_is(k, "run"))
			runv = match->kids[i + 1];
		else if (key_is(k, "expected"))
			expv = match->kids[i + 1];
		else
			return unknown_key(x, k, "run, expected");
	}
	if (!runv)
		return fail(x, match, "'match' needs 'run'");
	if (!expv)
		return fail(x, match, "'match' needs 'expected'");

	char **rk, **ek;
	size_t nr, ne;
	if (match_side(x, runv, "run", &rk, &nr)) {
		paths_free(rk, nr);
		return -1;
	}
	if (match_side(x, expv, "expected", &ek, &ne) ||
	    (nr != ne && fail(x, expv, "'expected' has %zu path%s but 'run' has %zu", ne,
	                      ne == 1 ? "" : "s", nr))) {
		paths_free(rk, nr);
		paths_free(ek, ne);
		return -1;
	}
	ec->run_keys = rk;
	ec->exp_keys = ek;
	ec->nkeys = nr;
	c->has_expect = true;
	return 0;
}

/* ---- theme and keys ------------------------------------------------------ */

static int theme_parse_conf(struct ctx *x, struct config *c, const struct ynode *v)
{
	if (node_cstr(x, v, "theme", &c->theme))
		return -1;
	/* The name becomes a file name (themes/NAME.theme); checked here so the
	 * error can point at it. Whether the file exists is known only to the
	 * screen, which knows the data folder. */
	for (const char *p = c->theme; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == '-'))
			return fail(x, v, "invalid theme name '%s' (use letters, digits, _ and -)",
			            c->theme);
	return 0;
}

/* Checks the key names of one scalar (blank-separated names are allowed,
 * as in the table) and appends them to sb. Each key may be bound by one
 * action of the file only: binding it twice is surely a slip. */
static int keys_scalar(struct ctx *x, const struct config *c, const struct ynode *n,
                       const char *action, struct strbuf *sb)
{
	char *text;
	if (n->kind != YN_SCALAR)
		return fail(x, n, "wrong type for '%s': expected a key name or a list of key names, got %s",
		            action, node_kind_name(n));
	if (node_cstr(x, n, action, &text))
		return -1;
	if (!text[strspn(text, " \t")]) {
		free(text);
		return fail(x, n, "'%s' names no key (the space bar is Space)", action);
	}
	int rc = 0;
	for (char *p = text; *p && rc == 0;) {
		size_t len = strcspn(p, " \t");
		if (!len) {
			p++;
			continue;
		}
		char save = p[len];
		p[len] = '\0';
		keycode_t k, other;
		if (!keycode_parse(p, &k)) {
			rc = fail(x, n, "unknown key name '%s'", p);
			break;
		}
		for (size_t i = 0; i < c->nkeys && rc == 0; i++) {
			const struct key_conf *kc = &c->keys[i];
			char *names = xstrdup(kc->keys);
			for (char *q = strtok(names, " "); q; q = strtok(NULL, " ")) {
				if (keycode_parse(q, &other) && other == k) {
					rc = fail(x, n, "key '%s' is already bound to '%s' at line %d", p,
					          kc->action, kc->line);
					break;
				}
			}
			free(names);
		}
		if (rc == 0) {
			if (sb->len)
				strbuf_addch(sb, ' ');
			strbuf_addstr(sb, p);
		}
		p[len] = save;
		p += len;
	}
	free(text);
	return rc;
}

static int keys_parse(struct ctx *x, struct config *c, const struct ynode *m)
{
	if (section_map(x, m, "keys"))
		return -1;
	c->keys = xcalloc(m->nkids / 2, sizeof *c->keys);
	for (size_t i = 0; i + 1 < m->nkids; i += 2) {
		const struct ynode *k = m->kids[i], *v = m->kids[i + 1];
		char *name = xstrndup(k->text, k->len);
		if (action_find(name) == ACT_NONE) {
			fail(x, k, "unknown action '%s' (see tcreview --help keys)", name);
			free(name);
			return -1;
		}
		struct strbuf sb = STRBUF_INIT;
		int rc = 0;
		if (v->kind == YN_SEQ) {
			/* An empty list unbinds the action. */
			for (size_t j = 0; j < v->nkids && rc == 0; j++)
				rc = keys_scalar(x, c, v->kids[j], name, &sb);
		} else {
			rc = keys_scalar(x, c, v, name, &sb);
		}
		if (rc) {
			strbuf_release(&sb);
			free(name);
			return -1;
		}
		struct key_conf *kc = &c->keys[c->nkeys++];
		kc->action = name;
		kc->keys = sb.buf ? strbuf_detach(&sb) : xstrdup("");
		kc->line = v->line;
		kc->col = v->col;
	}
	return 0;
}

/* ---- scorers ----------------------------------------------------------- */

static const char *param_kind_name(enum param_kind k)
{
	switch (k) {
	case PARAM_STRING:      return "a string";
	case PARAM_BOOL:        return "a boolean";
	case PARAM_NUMBER:      return "a number";
	case PARAM_STRING_LIST: return "a list of strings";
	case PARAM_OBJECT:      return "a mapping";
	case PARAM_ANY:         return "any value";
	}
	return "a value";
}

/* Checks a literal (or a default) against the declared kind. Null always
 * passes: Mastra tells "given as null" from "absent". */
static int literal_check(struct ctx *x, const struct param_spec *spec, const char *label,
                         const struct ynode *n, const json_t *v)
{
	bool ok = true;
	if (json_is_null(v))
		return 0;
	switch (spec->kind) {
	case PARAM_STRING:      ok = json_is_string(v); break;
	case PARAM_BOOL:        ok = json_is_boolean(v); break;
	case PARAM_NUMBER:      ok = json_is_number(v); break;
	case PARAM_OBJECT:      ok = json_is_object(v); break;
	case PARAM_ANY:         ok = true; break;
	case PARAM_STRING_LIST:
		ok = json_is_array(v);
		for (size_t i = 0; ok && i < json_array_size(v); i++) {
			const json_t *item = json_array_get(v, i);
			if (json_is_string(item))
				continue;
			const struct ynode *at = n->kind == YN_SEQ && i < n->nkids ? n->kids[i] : n;
			return fail(x, at, "wrong type for %s: expected a list of strings, item %zu is %s",
			            label, i + 1, json_kind_name(item));
		}
		break;
	}
	if (!ok)
		return fail(x, n, "wrong type for %s: expected %s, got %s", label,
		            param_kind_name(spec->kind), json_kind_name(v));
	return 0;
}

static int param_parse(struct ctx *x, const struct param_spec *spec, const struct ynode *v,
                       struct param *p)
{
	char label[160];
	p->name = xstrdup(spec->name);
	p->line = v->line;
	p->col = v->col;

	if (v->kind != YN_MAP || !map_get(v, "from")) {
		snprintf(label, sizeof label, "'%s'", spec->name);
		if (node_json(x, v, 0, &p->literal))
			return -1;
		return literal_check(x, spec, label, v, p->literal);
	}

	/* A reference: {from: PATH, default: VALUE}. A mapping literal that
	 * needs a "from" key cannot be written inline; use a reference with
	 * a default instead. */
	for (size_t i = 0; i + 1 < v->nkids; i += 2) {
		const struct ynode *k = v->kids[i], *val = v->kids[i + 1];
		if (key_is(k, "from")) {
			if (node_cstr(x, val, "from", &p->from))
				return -1;
			const char *prefix = "expected.";
			p->from_expected = strncmp(p->from, prefix, strlen(prefix)) == 0;
			p->from_path = p->from + (p->from_expected ? strlen(prefix) : 0);
			const char *why;
			if (!jsonpath_valid(p->from_path, &why))
				return fail(x, val, "invalid path '%s' for '%s': %s", p->from, spec->name,
				            why);
		} else if (key_is(k, "default")) {
			snprintf(label, sizeof label, "the default of '%s'", spec->name);
			if (node_json(x, val, 0, &p->deflt) ||
			    literal_check(x, spec, label, val, p->deflt))
				return -1;
		} else {
			return fail(x, k, "unknown key '%.*s' in a reference (expected one of: from, default)",
			            (int)k->len, k->text);
		}
	}
	return 0;
}

static bool id_valid(const char *s)
{
	for (; *s; s++) {
		char c = *s;
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '.' || c == ':' || c == '-'))
			return false;
	}
	return true;
}

static int threshold_parse(struct ctx *x, const struct scorer_conf *sc, const struct ynode *v,
                           double *out)
{
	json_t *j;
	if (v->kind != YN_SCALAR)
		return fail(x, v, "wrong type for 'threshold': expected a number, got %s",
		            node_kind_name(v));
	if (scalar_json(x, v, &j))
		return -1;
	if (!json_is_number(j)) {
		fail(x, v, "wrong type for 'threshold': expected a number, got %s", json_kind_name(j));
		json_decref(j);
		return -1;
	}
	*out = json_number_value(j);
	json_decref(j);
	double lo, hi;
	const char *range = scale_range(sc->ops->scale, &lo, &hi);
	if (*out < lo || *out > hi)
		return fail(x, v, "threshold %g is off the scale of '%s' (%s)", *out, sc->ops->type,
		            range);
	return 0;
}

static void known_list(struct strbuf *sb, const struct scorer_ops *ops)
{
	strbuf_addstr(sb, "id, type, threshold");
	for (const struct param_spec *ps = ops->params; ps && ps->name; ps++) {
		strbuf_addstr(sb, ", ");
		strbuf_addstr(sb, ps->name);
	}
}

static void hash_add(uint64_t *h, const char *s)
{
	*h = hash_fnv1a(s, strlen(s), *h);
}

static void hash_json(uint64_t *h, const json_t *v)
{
	char *s = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
	if (!s)
		oom();
	hash_add(h, s);
	free(s);
}

/* FNV-1a over a canonical text of what decides a verdict: the type, each
 * parameter in the order written and the threshold. The id is left out so
 * that renaming a scorer keeps its cached verdicts. */
static void scorer_hash(struct scorer_conf *sc)
{
	uint64_t h = HASH_FNV_SEED;
	char num[64];

	hash_add(&h, "type=");
	hash_add(&h, sc->ops->type);
	hash_add(&h, "\n");
	for (size_t i = 0; i < sc->nparams; i++) {
		const struct param *p = &sc->params[i];
		hash_add(&h, p->name);
		hash_add(&h, "=");
		if (!p->from) {
			hash_json(&h, p->literal);
		} else {
			json_t *ref = json_object();
			json_object_set_new(ref, "from", json_string(p->from));
			if (p->deflt)
				json_object_set(ref, "default", p->deflt);
			hash_json(&h, ref);
			json_decref(ref);
		}
		hash_add(&h, "\n");
	}
	snprintf(num, sizeof num, "threshold=%.17g\n", sc->threshold);
	hash_add(&h, num);
	hash_hex(h, sc->hash);
}

static int scorer_parse(struct ctx *x, struct config *c, const struct ynode *m)
{
	struct scorer_conf *sc = &c->scorers[c->nscorers++];   /* counted now: freed on error */
	sc->line = m->line;
	sc->col = m->col;

	if (m->kind != YN_MAP)
		return fail(x, m, "each scorer must be a mapping with 'id' and 'type', got %s",
		            node_kind_name(m));
	const struct ynode *idn = map_get(m, "id"), *typen = map_get(m, "type");
	if (!idn)
		return fail(x, m, "scorer has no 'id'");
	if (node_cstr(x, idn, "id", &sc->id))
		return -1;
	if (!id_valid(sc->id))
		return fail(x, idn, "invalid scorer id '%s' (use letters, digits and _ . : -)", sc->id);
	for (size_t i = 0; i + 1 < c->nscorers; i++)
		if (strcmp(c->scorers[i].id, sc->id) == 0)
			return fail(x, idn, "duplicate scorer id '%s' (first at line %d)", sc->id,
			            c->scorers[i].line);
	for (size_t i = 0; i < c->njudges; i++)
		if (c->judges[i].id && strcmp(c->judges[i].id, sc->id) == 0)
			return fail(x, idn, "duplicate id '%s': judge at line %d has it (scorers and "
			            "judges share one set of ids)", sc->id, c->judges[i].line);
	if (!typen)
		return fail(x, m, "scorer '%s' has no 'type'", sc->id);

	char *type;
	if (node_cstr(x, typen, "type", &type))
		return -1;
	sc->ops = scorer_find(type);
	if (!sc->ops) {
		struct strbuf sb = STRBUF_INIT;
		for (size_t i = 0; scorer_table[i]; i++) {
			if (i)
				strbuf_addstr(&sb, ", ");
			strbuf_addstr(&sb, scorer_table[i]->type);
		}
		fail(x, typen, "unknown scorer type '%s' (known: %s)", type, sb.buf ? sb.buf : "none");
		strbuf_release(&sb);
		free(type);
		return -1;
	}
	free(type);

	sc->threshold = sc->ops->default_threshold;
	sc->params = xcalloc(m->nkids / 2, sizeof *sc->params);
	for (size_t i = 0; i + 1 < m->nkids; i += 2) {
		const struct ynode *k = m->kids[i], *v = m->kids[i + 1];
		if (key_is(k, "id") || key_is(k, "type"))
			continue;
		if (key_is(k, "threshold")) {
			if (threshold_parse(x, sc, v, &sc->threshold))
				return -1;
			continue;
		}
		const struct param_spec *spec = NULL;
		for (const struct param_spec *ps = sc->ops->params; ps && ps->name; ps++)
			if (key_is(k, ps->name))
				spec = ps;
		if (!spec) {
			struct strbuf sb = STRBUF_INIT;
			known_list(&sb, sc->ops);
			fail(x, k, "unknown key '%.*s' for scorer type '%s' (known: %s)", (int)k->len,
			     k->text, sc->ops->type, sb.buf);
			strbuf_release(&sb);
			return -1;
		}
		if (param_parse(x, spec, v, &sc->params[sc->nparams++]))
			return -1;
	}

	bool all_literal = true;
	for (size_t i = 0; i < sc->nparams; i++)
		if (sc->params[i].from)
			all_literal = false;
	if (all_literal && sc->ops->check) {
		json_t *lits = json_object();
		for (size_t i = 0; i < sc->nparams; i++)
			json_object_set(lits, sc->params[i].name, sc->params[i].literal);
		const char *msg = sc->ops->check(lits);
		json_decref(lits);
		if (msg)
			return fail(x, m, "%s", msg);
	}
	scorer_hash(sc);
	return 0;
}

static int scorers_parse(struct ctx *x, struct config *c, const struct ynode *n)
{
	if (n->kind != YN_SEQ)
		return fail(x, n, "'scorers' must be a list of scorers, got %s",
		            n->kind == YN_SCALAR ? "a value" : node_kind_name(n));
	c->scorers = xcalloc(n->nkids, sizeof *c->scorers);
	for (size_t i = 0; i < n->nkids; i++)
		if (scorer_parse(x, c, n->kids[i]))
			return -1;
	return 0;
}

/* ---- judges ------------------------------------------------------------ */

#define JUDGE_KEYS "id, rubric, model, base_url, endpoint, api_version, api_key_env, tools, " \
                   "threshold, scale, prompt_file, timeout, max_retries"

static void judge_conf_free(struct judge_conf *j)
{
	free(j->id);
	free(j->model);
	free(j->base_url);
	free(j->endpoint);
	free(j->api_version);
	free(j->api_key_env);
	json_decref(j->tools);
	free(j->prompt_text);
	free(j->prompt_source);
	memset(j, 0, sizeof *j);
}

static int number_parse(struct ctx *x, const struct ynode *v, const char *what, double *out)
{
	json_t *j;
	if (v->kind != YN_SCALAR)
		return fail(x, v, "wrong type for '%s': expected a number, got %s", what,
		            node_kind_name(v));
	if (scalar_json(x, v, &j))
		return -1;
	if (!json_is_number(j)) {
		fail(x, v, "wrong type for '%s': expected a number, got %s", what, json_kind_name(j));
		json_decref(j);
		return -1;
	}
	*out = json_number_value(j);
	json_decref(j);
	return 0;
}

static int url_parse(struct ctx *x, const struct ynode *v, const char *what, char **out)
{
	if (node_cstr(x, v, what, out))
		return -1;
	if (strncmp(*out, "http://", 7) != 0 && strncmp(*out, "https://", 8) != 0)
		return fail(x, v, "'%s' must be an http:// or https:// address, got '%s'", what, *out);
	return 0;
}

static int env_name_parse(struct ctx *x, const struct ynode *v, char **out)
{
	if (node_cstr(x, v, "api_key_env", out))
		return -1;
	for (const char *p = *out; *p; p++) {
		char ch = *p;
		bool ok = (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || ch == '_' ||
		          (p != *out && ch >= '0' && ch <= '9');
		if (!ok)
			return fail(x, v, "'api_key_env' names an environment variable (letters, digits "
			            "and _), got '%s'", *out);
	}
	return 0;
}

/* tools: from-run, or [{name, description, parameters?}]. */
static int judge_tools_parse(struct ctx *x, const struct ynode *v, json_t **out)
{
	static const char shape[] = "'tools' must be from-run or a list of {name, description}";
	*out = NULL;
	if (v->kind == YN_SCALAR) {
		if (key_is(v, "from-run"))
			return 0;
		return fail(x, v, "%s, got '%.*s'", shape, (int)v->len, v->text);
	}
	if (v->kind != YN_SEQ)
		return fail(x, v, "%s, got a mapping", shape);
	if (v->nkids == 0)
		return fail(x, v, "'tools' lists no tool (tools: from-run takes the run's definitions)");
	json_t *list = json_array();
	*out = list;
	for (size_t i = 0; i < v->nkids; i++) {
		const struct ynode *t = v->kids[i], *namen = NULL;
		char *name = NULL, *desc = NULL;
		json_t *params = NULL;
		int rc = 0;
		if (t->kind != YN_MAP)
			return fail(x, t, "each tool must be a mapping {name, description}, got %s",
			            node_kind_name(t));
		for (size_t k = 0; k + 1 < t->nkids && rc == 0; k += 2) {
			const struct ynode *kk = t->kids[k], *vv = t->kids[k + 1];
			if (key_is(kk, "name") || key_is(kk, "id")) {
				/* Mastra's tools have an id where the others have a name. */
				if (name)
					rc = fail(x, kk, "a tool has both 'name' and 'id'");
				else
					rc = node_cstr(x, vv, "name", &name);
				namen = vv;
			} else if (key_is(kk, "description")) {
				rc = node_cstr(x, vv, "description", &desc);
			} else if (key_is(kk, "parameters")) {
				rc = node_json(x, vv, 0, &params);
				if (rc == 0 && !json_is_object(params))
					rc = fail(x, vv, "a tool's 'parameters' must be a JSON Schema mapping");
			} else {
				rc = unknown_key(x, kk, "name, description, parameters");
			}
		}
		if (rc == 0 && !name)
			rc = fail(x, t, "a tool needs 'name'");
		if (rc == 0 && !desc)
			rc = fail(x, t, "tool '%s' needs 'description'", name);
		for (size_t k = 0; rc == 0 && k < json_array_size(list); k++)
			if (strcmp(json_string_value(json_object_get(json_array_get(list, k), "name")),
			           name) == 0)
				rc = fail(x, namen, "tool '%s' is listed twice", name);
		if (rc == 0) {
			json_t *o = json_object();
			json_object_set_new(o, "name", json_string(name));
			json_object_set_new(o, "description", json_string(desc));
			if (params)
				json_object_set(o, "parameters", params);
			if (!json_object_get(o, "name") || !json_object_get(o, "description"))
				rc = fail(x, t, "the tool is not valid UTF-8");
			json_array_append_new(list, o);
		}
		free(name);
		free(desc);
		json_decref(params);
		if (rc)
			return -1;
	}
	return 0;
}

/* scale: {min, max, pass}. */
static int judge_scale_parse(struct ctx *x, struct judge_conf *j, const struct ynode *v,
                             const struct ynode **passn, double *pass)
{
	const struct ynode *minn = NULL, *maxn = NULL;
	*passn = NULL;
	if (section_map(x, v, "scale"))
		return -1;
	for (size_t i = 0; i + 1 < v->nkids; i += 2) {
		const struct ynode *k = v->kids[i], *n = v->kids[i + 1];
		if (key_is(k, "min"))
			minn = n;
		else if (key_is(k, "max"))
			maxn = n;
		else if (key_is(k, "pass"))
			*passn = n;
		else
			return unknown_key(x, k, "min, max, pass");
	}
	if (!minn)
		return fail(x, v, "'scale' needs 'min'");
	if (!maxn)
		return fail(x, v, "'scale' needs 'max'");
	if (number_parse(x, minn, "min", &j->scale_min) || number_parse(x, maxn, "max", &j->scale_max))
		return -1;
	if (!(j->scale_min < j->scale_max))
		return fail(x, maxn, "'max' (%g) must be above 'min' (%g)", j->scale_max, j->scale_min);
	if (*passn && number_parse(x, *passn, "pass", pass))
		return -1;
	return 0;
}

/* Reads the judge's prompt (its prompt_file, else the rubric's built-in
 * one from the data folder) and checks it against the rubric, so that a
 * typo in a placeholder is found now rather than in every verdict. */
static int judge_prompt_load(struct ctx *x, const struct config *c, struct judge_conf *j,
                             const struct ynode *filen, const struct ynode *rubricn)
{
	char msg[1024];
	const struct ynode *at = filen ? filen : rubricn;
	if (filen) {
		char *file;
		if (node_cstr(x, filen, "prompt_file", &file))
			return -1;
		j->prompt_source = path_join(c->dir, file);
		free(file);
	} else {
		j->prompt_source = prompt_builtin_path(j->rubric->prompt_file);
	}
	if (prompt_read(j->prompt_source, &j->prompt_text, msg, sizeof msg) < 0) {
		if (filen)
			return fail(x, at, "cannot read the prompt: %s", msg);
		return fail(x, at, "cannot read the built-in prompt of '%s': %s (is the data folder "
		            "there? TCREVIEW_DATADIR names it)", j->rubric->name, msg);
	}
	int line, col;
	if (rubric_check_prompt(j->rubric, j->prompt_text, &line, &col, msg, sizeof msg) < 0) {
		if (line > 0)
			return fail_in(x, j->prompt_source, line, col, "%s", msg);
		return fail(x, at, "%s: %s", j->prompt_source, msg);
	}
	prompt_hash(j->prompt_text, j->prompt_hash);
	return 0;
}

/* FNV-1a over what decides a verdict. The id, the key's variable and the
 * timeouts are left out: renaming a judge or moving its key keeps its
 * cached verdicts. */
static void judge_hash(struct judge_conf *j)
{
	uint64_t h = HASH_FNV_SEED;
	char num[128];
	hash_add(&h, "rubric=");
	hash_add(&h, j->rubric->name);
	hash_add(&h, "\nmodel=");
	hash_add(&h, j->model);
	snprintf(num, sizeof num, "\nprovider=%s%d", judge_provider_prefix(j->provider), (int)j->provider);
	hash_add(&h, num);
	hash_add(&h, "\nbase_url=");
	hash_add(&h, j->base_url ? j->base_url : "");
	hash_add(&h, "\nendpoint=");
	hash_add(&h, j->endpoint ? j->endpoint : "");
	hash_add(&h, "\napi_version=");
	hash_add(&h, j->api_version ? j->api_version : "");
	hash_add(&h, "\ntools=");
	if (j->tools)
		hash_json(&h, j->tools);
	else
		hash_add(&h, "from-run");
	snprintf(num, sizeof num, "\nthreshold=%.17g\nscale=%.17g..%.17g\nprompt=", j->threshold,
	         j->scale_min, j->scale_max);
	hash_add(&h, num);
	hash_add(&h, j->prompt_hash);
	hash_add(&h, "\n");
	hash_hex(h, j->hash);
}

static int judge_parse(struct ctx *x, struct config *c, const struct ynode *m)
{
	struct judge_conf *j = &c->judges[c->njudges++];   /* counted now: freed on error */
	const struct ynode *idn = NULL, *rubricn = NULL, *modeln = NULL, *basen = NULL,
	                   *endpointn = NULL, *versionn = NULL, *keyenvn = NULL, *toolsn = NULL,
	                   *thresholdn = NULL, *scalen = NULL, *filen = NULL, *timeoutn = NULL,
	                   *retriesn = NULL;
	j->line = m->line;
	j->col = m->col;
	j->timeout_s = 60;
	j->max_retries = 4;

	if (m->kind != YN_MAP)
		return fail(x, m, "each judge must be a mapping with 'id', 'rubric' and 'model', got %s",
		            node_kind_name(m));
	for (size_t i = 0; i + 1 < m->nkids; i += 2) {
		const struct ynode *k = m->kids[i], *v = m->kids[i + 1];
		const struct ynode **slot =
			key_is(k, "id") ? &idn : key_is(k, "rubric") ? &rubricn
		      : key_is(k, "model") ? &modeln : key_is(k, "base_url") ? &basen
		      : key_is(k, "endpoint") ? &endpointn : key_is(k, "api_version") ? &versionn
		      : key_is(k, "api_key_env") ? &keyenvn : key_is(k, "tools") ? &toolsn
		      : key_is(k, "threshold") ? &thresholdn : key_is(k, "scale") ? &scalen
		      : key_is(k, "prompt_file") ? &filen : key_is(k, "timeout") ? &timeoutn
		      : key_is(k, "max_retries") ? &retriesn : NULL;
		if (slot) {
			*slot = v;
			continue;
		}
		/* A key in the file ends up in backups, diffs and bug reports. */
		if (key_is(k, "api_key") || key_is(k, "key"))
			return fail(x, k, "a key does not belong in the configuration: put it in an "
			            "environment variable and name that with api_key_env");
		return fail(x, k, "unknown key '%.*s' for a judge (known: " JUDGE_KEYS ")",
		            (int)k->len, k->text);
	}

	if (!idn)
		return fail(x, m, "judge has no 'id'");
	if (node_cstr(x, idn, "id", &j->id))
		return -1;
	if (!id_valid(j->id))
		return fail(x, idn, "invalid judge id '%s' (use letters, digits and _ . : -)", j->id);
	for (size_t i = 0; i + 1 < c->njudges; i++)
		if (strcmp(c->judges[i].id, j->id) == 0)
			return fail(x, idn, "duplicate judge id '%s' (first at line %d)", j->id,
			            c->judges[i].line);
	for (size_t i = 0; i < c->nscorers; i++)
		if (c->scorers[i].id && strcmp(c->scorers[i].id, j->id) == 0)
			return fail(x, idn, "duplicate id '%s': scorer at line %d has it (scorers and "
			            "judges share one set of ids)", j->id, c->scorers[i].line);

	if (!rubricn)
		return fail(x, m, "judge '%s' has no 'rubric'", j->id);
	char *name;
	if (node_cstr(x, rubricn, "rubric", &name))
		return -1;
	j->rubric = rubric_find(name);
	if (!j->rubric) {
		struct strbuf sb = STRBUF_INIT;
		for (size_t i = 0; rubric_table[i]; i++) {
			if (i)
				strbuf_addstr(&sb, ", ");
			strbuf_addstr(&sb, rubric_table[i]->name);
		}
		fail(x, rubricn, "unknown rubric '%s' (known: %s)", name, sb.buf ? sb.buf : "none");
		strbuf_release(&sb);
		free(name);
		return -1;
	}
	free(name);

	if (basen && url_parse(x, basen, "base_url", &j->base_url))
		return -1;
	if (!modeln)
		return fail(x, m, "judge '%s' has no 'model' (e.g. openai/gpt-4o-mini)", j->id);
	char *model;
	const char *rest;
	if (node_cstr(x, modeln, "model", &model))
		return -1;
	if (judge_parse_model(model, j->base_url != NULL, &j->provider, &rest) < 0) {
		if (strchr(model, '/') && !strchr(model, '/')[1])
			fail(x, modeln, "model '%s' names no model after its provider", model);
		else
			fail(x, modeln, "unknown provider in model '%s' (known: openai/, ollama/, azure/, "
			     "anthropic/; another OpenAI-compatible server needs base_url)", model);
		free(model);
		return -1;
	}
	j->model = xstrdup(rest);
	free(model);

	if (j->provider == PROVIDER_AZURE) {
		if (!endpointn)
			return fail(x, m, "judge '%s' (azure/) needs 'endpoint' "
			            "(e.g. https://NAME.openai.azure.com)", j->id);
		if (!versionn)
			return fail(x, m, "judge '%s' (azure/) needs 'api_version' (e.g. \"2024-10-21\")",
			            j->id);
		if (url_parse(x, endpointn, "endpoint", &j->endpoint) ||
		    node_cstr(x, versionn, "api_version", &j->api_version))
			return -1;
	} else if (endpointn || versionn) {
		const struct ynode *n = endpointn ? endpointn : versionn;
		return fail(x, n, "'%s' is only for azure/ models", endpointn ? "endpoint" : "api_version");
	}
	if (keyenvn && env_name_parse(x, keyenvn, &j->api_key_env))
		return -1;
	if (toolsn && judge_tools_parse(x, toolsn, &j->tools))
		return -1;

	/* The scale: the rubric's, or a custom judge's own. */
	double pass = 0;
	const struct ynode *passn = NULL;
	/* Only a custom judge has no built-in prompt, and so no fixed scale. */
	bool custom = !j->rubric->prompt_file;
	if (custom) {
		if (!filen)
			return fail(x, m, "custom judge '%s' needs 'prompt_file'", j->id);
		if (!scalen)
			return fail(x, m, "custom judge '%s' needs 'scale' ({min, max, pass})", j->id);
		if (judge_scale_parse(x, j, scalen, &passn, &pass))
			return -1;
		if (passn && thresholdn)
			return fail(x, thresholdn, "give the pass mark once: scale's 'pass' or 'threshold'");
		if (!passn && !thresholdn)
			return fail(x, scalen, "'scale' needs 'pass' (the lowest passing score)");
	} else {
		if (scalen)
			return fail(x, scalen, "'scale' is only for custom judges ('%s' scores %s)",
			            j->rubric->name, scale_name(j->rubric->scale));
		double lo, hi;
		scale_range(j->rubric->scale, &lo, &hi);
		j->scale_min = lo;
		j->scale_max = hi;
	}
	j->threshold = passn ? pass : j->rubric->default_threshold;
	const struct ynode *markn = passn ? passn : thresholdn;
	if (thresholdn && number_parse(x, thresholdn, "threshold", &j->threshold))
		return -1;
	if (markn && (j->threshold < j->scale_min || j->threshold > j->scale_max))
		return fail(x, markn, "%s %g is off the scale of '%s' (%g..%g)",
		            passn ? "pass" : "threshold", j->threshold, j->id, j->scale_min, j->scale_max);
	if (markn && j->rubric->scale == SCALE_1TO5 && !custom && j->threshold != floor(j->threshold))
		return fail(x, markn, "threshold %g is not one of the levels 1..5", j->threshold);

	if (timeoutn) {
		if (number_parse(x, timeoutn, "timeout", &j->timeout_s))
			return -1;
		if (!(j->timeout_s > 0) || j->timeout_s > 3600)
			return fail(x, timeoutn, "'timeout' must be a number of seconds above 0 (at most 3600)");
	}
	if (retriesn) {
		double r;
		if (number_parse(x, retriesn, "max_retries", &r))
			return -1;
		if (r != floor(r) || r < 0 || r > 20)
			return fail(x, retriesn, "'max_retries' must be a whole number from 0 to 20");
		j->max_retries = (int)r;
	}

	if (judge_prompt_load(x, c, j, filen, rubricn))
		return -1;
	judge_hash(j);
	return 0;
}

static int judges_parse(struct ctx *x, struct config *c, const struct ynode *n)
{
	if (n->kind != YN_SEQ)
		return fail(x, n, "'judges' must be a list of judges, got %s",
		            n->kind == YN_SCALAR ? "a value" : node_kind_name(n));
	c->judges = xcalloc(n->nkids, sizeof *c->judges);
	for (size_t i = 0; i < n->nkids; i++)
		if (judge_parse(x, c, n->kids[i]))
			return -1;
	return 0;
}

static int config_walk(struct ctx *x, struct config *c, const struct ynode *root)
{
	if (node_is_null(root))
		return 0;       /* "---" alone, or "~": an empty configuration */
	if (root->kind != YN_MAP)
		return fail(x, root, "the configuration must be a mapping of runs, expectations, scorers and judges");

	for (size_t i = 0; i + 1 < root->nkids; i += 2) {
		const struct ynode *k = root->kids[i], *v = root->kids[i + 1];
		int rc;
		if (key_is(k, "runs"))
			rc = node_is_null(v) ? 0 : runs_parse(x, c, v);
		else if (key_is(k, "expectations"))
			rc = node_is_null(v) ? 0 : expect_parse(x, c, v);
		else if (key_is(k, "scorers"))
			rc = node_is_null(v) ? 0 : scorers_parse(x, c, v);
		else if (key_is(k, "judges"))
			rc = node_is_null(v) ? 0 : judges_parse(x, c, v);
		else if (key_is(k, "theme"))
			rc = node_is_null(v) ? 0 : theme_parse_conf(x, c, v);
		else if (key_is(k, "keys"))
			rc = node_is_null(v) ? 0 : keys_parse(x, c, v);
		else
			rc = unknown_key(x, k, "runs, expectations, scorers, judges, theme, keys");
		if (rc)
			return -1;
	}

	/* Checked last because `expectations` may come after `scorers`. */
	for (size_t i = 0; i < c->nscorers; i++) {
		const struct scorer_conf *sc = &c->scorers[i];
		for (size_t j = 0; j < sc->nparams; j++)
			if (sc->params[j].from_expected && !c->has_expect)
				return fail_at(x, sc->params[j].line, sc->params[j].col,
				               "'%s' refers to expected.* but there is no 'expectations' section",
				               sc->params[j].name);
	}
	return 0;
}

/* ---- public API -------------------------------------------------------- */

int config_load_string(struct config *c, const char *name, const char *dir,
                       const char *text, size_t len, char *err, size_t errlen)
{
	memset(c, 0, sizeof *c);
	if (err && errlen)
		err[0] = '\0';
	struct ctx x = {
		.name = name ? name : "<config>",
		.err = err,
		.errlen = errlen,
	};
	c->path = name ? xstrdup(name) : NULL;   /* NULL marks the built-in config */
	c->dir = dir ? xstrdup(dir) : NULL;

	int rc = tree_build(&x, text ? text : "", text ? len : 0);
	if (rc == 0 && x.root)
		rc = config_walk(&x, c, x.root);
	tree_free(&x);
	if (rc)
		config_free(c);
	return rc;
}

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

int config_load(struct config *c, const char *path, char *err, size_t errlen)
{
	memset(c, 0, sizeof *c);
	if (!err)
		errlen = 0;
	struct strbuf sb = STRBUF_INIT;
	/* A configuration is a few kilobytes; 16 MB is surely not one. */
	if (strbuf_read_file(&sb, path, 16u << 20, err, errlen) < 0) {
		strbuf_release(&sb);
		return -1;
	}

	char *dir = dir_of(path);
	int rc = config_load_string(c, path, dir, sb.buf ? sb.buf : "", sb.len, err, errlen);
	free(dir);
	strbuf_release(&sb);
	return rc;
}

void config_free(struct config *c)
{
	if (!c)
		return;
	free(c->path);
	free(c->dir);
	free(c->run_id_path);
	free(c->format);
	free(c->expect.file);
	paths_free(c->expect.run_keys, c->expect.nkeys);
	paths_free(c->expect.exp_keys, c->expect.nkeys);
	for (size_t i = 0; i < c->nscorers; i++) {
		struct scorer_conf *sc = &c->scorers[i];
		for (size_t j = 0; j < sc->nparams; j++) {
			free(sc->params[j].name);
			json_decref(sc->params[j].literal);
			free(sc->params[j].from);
			json_decref(sc->params[j].deflt);
		}
		free(sc->params);
		free(sc->id);
	}
	free(c->scorers);
	for (size_t i = 0; i < c->njudges; i++)
		judge_conf_free(&c->judges[i]);
	free(c->judges);
	free(c->theme);
	for (size_t i = 0; i < c->nkeys; i++) {
		free(c->keys[i].action);
		free(c->keys[i].keys);
	}
	free(c->keys);
	memset(c, 0, sizeof *c);
}

json_t *config_resolve_params(const struct scorer_conf *sc, json_t *record, json_t *expected,
                              const char *expect_miss, char **unset)
{
	json_t *out = json_object();
	struct strbuf why = STRBUF_INIT;

	if (!out)
		oom();
	if (unset)
		*unset = NULL;
	for (size_t i = 0; i < sc->nparams; i++) {
		const struct param *p = &sc->params[i];
		if (!p->from) {
			json_object_set(out, p->name, p->literal);
			continue;
		}
		bool no_expect = p->from_expected && !expected;
		json_t *v = no_expect ? NULL
		          : jsonpath_get(p->from_expected ? expected : record, p->from_path);
		if (!v)
			v = p->deflt;
		if (v) {
			/* A found null is set: the scorer must see "given as null". */
			json_object_set(out, p->name, v);
			continue;
		}
		if (why.len)
			strbuf_addstr(&why, "; ");
		if (no_expect) {
			strbuf_addf(&why, "%s: no expectation for this run", p->name);
			if (expect_miss && *expect_miss)
				strbuf_addf(&why, " (%s)", expect_miss);
		} else {
			strbuf_addf(&why, "%s: %s not found", p->name, p->from);
		}
	}
	if (unset && why.len)
		*unset = strbuf_detach(&why);
	else
		strbuf_release(&why);
	return out;
}
