/* tree.c - libyaml's events into a tree of positioned nodes.
 *
 * Keeps the line and column of every node, refuses duplicate keys (at the
 * second one), aliases inside their own anchor, more than one document and
 * absurd nesting, and reports libyaml's syntax errors with positions. */
#include "conf/conf.h"
#include "conf_private.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "util/xalloc.h"
#include "util/error.h"

struct conf_anchor {
	char *name;
	struct conf_node *node;
};

struct frame {
	struct conf_node *node;
	char *anchor;               /* registered when the collection ends */
};

/* ---- building the tree ------------------------------------------------ */

static struct conf_node *node_new(struct conf *x, enum conf_kind kind, const yaml_mark_t *m)
{
	struct conf_node *n = xcalloc(1, sizeof *n);
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

static void node_add(struct conf_node *parent, struct conf_node *kid)
{
	if (parent->nkids == parent->capkids) {
		parent->capkids = parent->capkids ? parent->capkids * 2 : 8;
		parent->kids = xrealloc(parent->kids, parent->capkids * sizeof *parent->kids);
	}
	parent->kids[parent->nkids++] = kid;
}

static void anchor_set(struct conf *x, const yaml_char_t *name, struct conf_node *n)
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

static struct conf_node *anchor_get(struct conf *x, const yaml_char_t *name)
{
	for (size_t i = 0; i < x->nanchors; i++)
		if (strcmp(x->anchors[i].name, (const char *)name) == 0)
			return x->anchors[i].node;
	return NULL;
}

static void tree_free(struct conf *x)
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
	const struct conf_node *key;
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
static int map_check_keys(struct conf *x, const struct conf_node *m)
{
	size_t n = m->nkids / 2;
	for (size_t i = 0; i < n; i++)
		if (m->kids[2 * i]->kind != CONF_SCALAR)
			return conf_fail(x, m->kids[2 * i], "mapping keys must be scalars");
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
		const struct conf_node *a = refs[j - 1].key, *b = refs[j].key;
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
	const struct conf_node *k = m->kids[2 * second];
	return conf_fail(x, k, "duplicate key '%.*s' (first at line %d)", (int)k->len, k->text,
	            m->kids[2 * first]->line);
}

static int syntax_error(struct conf *x, const yaml_parser_t *p, const char *text, size_t len)
{
	if (p->error == YAML_MEMORY_ERROR)
		xalloc_die();
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
			return conf_fail_at(x, line, col, "%s (byte 0x%02X)", p->problem,
			               (unsigned)p->problem_value);
		return conf_fail_at(x, line, col, "%s", p->problem ? p->problem : "cannot read the input");
	}
	int line = (int)p->problem_mark.line + 1, col = (int)p->problem_mark.column + 1;
	const char *problem = p->problem ? p->problem : "syntax error";
	if (p->context)
		return conf_fail_at(x, line, col, "%s (%s at line %d)", problem, p->context,
		               (int)p->context_mark.line + 1);
	return conf_fail_at(x, line, col, "%s", problem);
}

/* The collections open while the events stream in. */
struct builder {
	struct conf *x;
	struct frame *stack;
	size_t depth, cap;
	int docs;
};

/* Adds a finished node to its parent, or makes it the root. */
static void tree_attach(struct builder *b, struct conf_node *n)
{
	if (b->depth == 0)
		b->x->root = n;
	else
		node_add(b->stack[b->depth - 1].node, n);
}

/* An event's position, for conf_fail_at. */
#define MARK(ev) (int)(ev)->start_mark.line + 1, (int)(ev)->start_mark.column + 1

static int on_scalar(struct builder *b, const yaml_event_t *ev)
{
	struct conf_node *n = node_new(b->x, CONF_SCALAR, &ev->start_mark);
	n->text = xstrndup((const char *)ev->data.scalar.value, ev->data.scalar.length);
	n->len = ev->data.scalar.length;
	n->typed = !ev->data.scalar.tag && ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
	if (ev->data.scalar.tag)
		n->tag = xstrdup((const char *)ev->data.scalar.tag);
	anchor_set(b->x, ev->data.scalar.anchor, n);
	tree_attach(b, n);
	return 0;
}

/* Anchors are registered when their node is complete, so an alias inside
 * its own anchor is refused here and the tree can never contain a cycle. */
static int on_alias(struct builder *b, const yaml_event_t *ev)
{
	struct conf_node *n = anchor_get(b->x, ev->data.alias.anchor);
	if (!n) {
		const char *a = (const char *)ev->data.alias.anchor;
		bool inside = false;
		for (size_t i = 0; i < b->depth; i++)
			if (b->stack[i].anchor && strcmp(b->stack[i].anchor, a) == 0)
				inside = true;
		return conf_fail_at(b->x, MARK(ev), inside ? "alias '*%s' is inside its own anchor"
		                                  : "unknown anchor '%s'", a);
	}
	tree_attach(b, n);
	return 0;
}

static int on_start(struct builder *b, const yaml_event_t *ev)
{
	if (b->depth >= CONF_MAX_DEPTH)
		return conf_fail_at(b->x, MARK(ev), "nesting deeper than %d levels", CONF_MAX_DEPTH);
	bool seq = ev->type == YAML_SEQUENCE_START_EVENT;
	struct conf_node *n = node_new(b->x, seq ? CONF_SEQ : CONF_MAP, &ev->start_mark);
	const yaml_char_t *anchor = seq ? ev->data.sequence_start.anchor
	                                : ev->data.mapping_start.anchor;
	const yaml_char_t *tag = seq ? ev->data.sequence_start.tag : ev->data.mapping_start.tag;
	if (tag)
		n->tag = xstrdup((const char *)tag);
	if (b->depth == b->cap) {
		b->cap = b->cap ? b->cap * 2 : 16;
		b->stack = xrealloc(b->stack, b->cap * sizeof *b->stack);
	}
	b->stack[b->depth].node = n;
	b->stack[b->depth].anchor = anchor ? xstrdup((const char *)anchor) : NULL;
	b->depth++;
	return 0;
}

static int on_end(struct builder *b)
{
	b->depth--;
	struct conf_node *n = b->stack[b->depth].node;
	int rc = n->kind == CONF_MAP ? map_check_keys(b->x, n) : 0;
	anchor_set(b->x, (const yaml_char_t *)b->stack[b->depth].anchor, n);
	free(b->stack[b->depth].anchor);
	tree_attach(b, n);
	return rc;
}

/* One event; 1 at the end of the stream. */
static int on_event(struct builder *b, const yaml_event_t *ev)
{
	switch (ev->type) {
	case YAML_STREAM_END_EVENT:
		return 1;
	case YAML_DOCUMENT_START_EVENT:
		if (++b->docs > 1)
			return conf_fail_at(b->x, MARK(ev), "only one YAML document is allowed");
		return 0;
	case YAML_SCALAR_EVENT:
		return on_scalar(b, ev);
	case YAML_ALIAS_EVENT:
		return on_alias(b, ev);
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT:
		return on_start(b, ev);
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		return on_end(b);
	default:
		return 0;
	}
}

static int tree_build(struct conf *x, const char *text, size_t len)
{
	yaml_parser_t p;
	yaml_event_t ev;
	struct builder b = { .x = x };
	int rc = 0;

	if (!yaml_parser_initialize(&p))
		xalloc_die();
	yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
	while (rc == 0) {
		if (!yaml_parser_parse(&p, &ev)) {
			rc = syntax_error(x, &p, text, len);
			break;
		}
		rc = on_event(&b, &ev);
		yaml_event_delete(&ev);
	}
	while (b.depth > 0)
		free(b.stack[--b.depth].anchor);
	free(b.stack);
	yaml_parser_delete(&p);
	return rc < 0 ? -1 : 0;
}

int conf_parse(struct conf *cf, const char *name, const char *dir, const char *text,
               size_t len, struct error *err)
{
	memset(cf, 0, sizeof *cf);
	cf->name = name ? name : "<config>";
	cf->dir = dir;
	cf->err = err;
	error_clear(cf->err);
	return tree_build(cf, text ? text : "", text ? len : 0);
}

void conf_free(struct conf *cf)
{
	tree_free(cf);
}
