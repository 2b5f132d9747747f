/* vocab.c - the `tags:` and `call_labels:` sections, and the name a code counts under. */
#include "annot/vocab.h"

#include <ctype.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* A scale of more than nine labels could not be typed with one digit. */
#define LABELS_MAX 9

static const struct call_label_def default_labels[] = {
	{ (char *)"correct", 1 },
	{ (char *)"partly", 0.5 },
	{ (char *)"wrong", 0 },
};

static void labels_free(struct vocab *vo)
{
	for (size_t i = 0; i < vo->nlabels; i++)
		free(vo->labels[i].id);
	free(vo->labels);
	vo->labels = NULL;
	vo->nlabels = 0;
}

const struct call_label_def *vocab_labels(const struct vocab *vo, size_t *n)
{
	if (!vo->own_labels) {
		*n = sizeof default_labels / sizeof *default_labels;
		return default_labels;
	}
	*n = vo->nlabels;
	return vo->labels;
}

double vocab_pass(const struct vocab *vo)
{
	return vo->own_labels ? vo->pass : 1;
}

void vocab_free(struct vocab *vo)
{
	for (size_t i = 0; i < vo->ntags; i++) {
		free(vo->tags[i].id);
		free(vo->tags[i].description);
		conf_str_list_free(vo->tags[i].absorbs, vo->tags[i].nabsorbs);
	}
	free(vo->tags);
	labels_free(vo);
	memset(vo, 0, sizeof *vo);
}

bool vocab_code_eq(const char *a, const char *b)
{
	while (isspace((unsigned char)*a))
		a++;
	while (isspace((unsigned char)*b))
		b++;
	while (*a && *b) {
		if (isspace((unsigned char)*a) && isspace((unsigned char)*b)) {
			while (isspace((unsigned char)*a))
				a++;
			while (isspace((unsigned char)*b))
				b++;
			continue;
		}
		if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
			return false;
		a++;
		b++;
	}
	while (isspace((unsigned char)*a))
		a++;
	while (isspace((unsigned char)*b))
		b++;
	return !*a && !*b;
}

const struct tag_def *vocab_tag_find(const struct vocab *vo, const char *name)
{
	for (size_t i = 0; name && i < vo->ntags; i++) {
		const struct tag_def *t = &vo->tags[i];
		if (vocab_code_eq(t->id, name))
			return t;
		for (size_t j = 0; j < t->nabsorbs; j++)
			if (vocab_code_eq(t->absorbs[j], name))
				return t;
	}
	return NULL;
}

const struct tag_def *vocab_tag_by_key(const struct vocab *vo, char key)
{
	for (size_t i = 0; key && i < vo->ntags; i++)
		if (vo->tags[i].key == key)
			return &vo->tags[i];
	return NULL;
}

const char *vocab_tag_name(const struct vocab *vo, const struct annot_store *s,
                           const char *code)
{
	if (!code)
		return NULL;
	const char *name = s ? annot_tag_resolve(s, code) : code;
	const struct tag_def *t = vocab_tag_find(vo, name);
	return t ? t->id : name;
}

const struct call_label_def *vocab_label_of_digit(const struct vocab *vo, int digit)
{
	size_t n;
	const struct call_label_def *l = vocab_labels(vo, &n);
	return digit >= 1 && (size_t)digit <= n ? &l[digit - 1] : NULL;
}

const struct call_label_def *vocab_label_of_value(const struct vocab *vo, double value)
{
	size_t n;
	const struct call_label_def *l = vocab_labels(vo, &n);
	for (size_t i = 0; i < n; i++)
		if (l[i].value == value)
			return &l[i];
	return NULL;
}

/* ---- tags: ------------------------------------------------------------ */

static int key_read(struct conf *cf, const struct conf_node *v, void *store)
{
	char *s;
	if (conf_str(cf, v, "key", &s))
		return -1;
	bool one = s[0] && !s[1] && isgraph((unsigned char)s[0]);
	if (one)
		((struct tag_def *)store)->key = s[0];
	free(s);
	return one ? 0 : conf_fail(cf, v, "a tag's 'key' is one printable character (the tag "
	                                   "prompt picks the tag by it)");
}

static const struct conf_key tag_keys[] = {
	{ .name = "id", .kind = CONF_K_STR, .flags = CONF_REQUIRED,
	  .offset = offsetof(struct tag_def, id), .missing = "a tag needs 'id'" },
	{ .name = "description", .kind = CONF_K_STR, .offset = offsetof(struct tag_def, description) },
	{ .name = "key", .kind = CONF_K_FN, .read = key_read },
	{ .name = "absorbs", .kind = CONF_K_STR_LIST, .offset = offsetof(struct tag_def, absorbs),
	  .offset2 = offsetof(struct tag_def, nabsorbs) },
	{ .name = NULL },
};

static const struct conf_table tag_table = { .keys = tag_keys, .unknown_for = "for a tag" };

/* A tag's id and absorbed codes may name no other tag: a code must count
 * under one failure mode only. */
static int tag_check(struct conf *cf, const struct conf_node *n, const struct vocab *vo,
                     const struct tag_def *t)
{
	if (!conf_is_id(t->id) || !*t->id)
		return conf_fail(cf, n, "tag id '%s' may hold only letters, digits and _ . : -", t->id);
	for (size_t i = 0; i < vo->ntags; i++) {
		const struct tag_def *o = &vo->tags[i];
		if (vocab_tag_find(&(struct vocab){ .tags = (struct tag_def *)o, .ntags = 1 }, t->id))
			return conf_fail(cf, n, "tag '%s' is already defined (or absorbed by '%s') at "
			                 "line %d", t->id, o->id, o->line);
		for (size_t j = 0; j < t->nabsorbs; j++)
			if (vocab_tag_find(&(struct vocab){ .tags = (struct tag_def *)o, .ntags = 1 },
			                   t->absorbs[j]))
				return conf_fail(cf, n, "'%s' is absorbed by tag '%s' (line %d) already",
				                 t->absorbs[j], o->id, o->line);
		if (t->key && t->key == o->key)
			return conf_fail(cf, n, "key '%c' is tag '%s''s already", t->key, o->id);
	}
	return 0;
}

int vocab_tags_read(struct conf *cf, const struct conf_node *v, struct vocab *vo)
{
	if (conf_seq(cf, v, "tags", "tags ({id, description, key, absorbs})"))
		return -1;
	vo->tags = xcalloc(v->nkids + 1, sizeof *vo->tags);
	for (size_t i = 0; i < v->nkids; i++) {
		const struct conf_node *n = v->kids[i];
		struct tag_def t = { .line = n->line, .col = n->col };
		int rc = conf_map(cf, n, "a tag");
		if (!rc)
			rc = conf_keys(cf, n, &tag_table, &t, NULL);
		if (!rc)
			rc = tag_check(cf, n, vo, &t);
		if (rc) {
			free(t.id);
			free(t.description);
			conf_str_list_free(t.absorbs, t.nabsorbs);
			return -1;
		}
		vo->tags[vo->ntags++] = t;
	}
	return 0;
}

/* ---- call_labels: ------------------------------------------------------ */

static const struct conf_key label_keys[] = {
	{ .name = "id", .kind = CONF_K_STR, .flags = CONF_REQUIRED,
	  .offset = offsetof(struct call_label_def, id), .missing = "a call label needs 'id'" },
	{ .name = "value", .kind = CONF_K_NUM, .flags = CONF_REQUIRED,
	  .offset = offsetof(struct call_label_def, value),
	  .missing = "a call label needs 'value' (a number: 1 right ... 0 wrong)" },
	{ .name = NULL },
};

static const struct conf_table label_table = { .keys = label_keys,
                                               .unknown_for = "for a call label" };

static int labels_read(struct conf *cf, const struct conf_node *v, struct vocab *vo)
{
	if (conf_seq(cf, v, "call_labels", "labels ({id, value})"))
		return -1;
	if (!v->nkids || v->nkids > LABELS_MAX)
		return conf_fail(cf, v, "call_labels has %zu labels; give 1 to %d (the digits "
		                 "1-%d pick them)", v->nkids, LABELS_MAX, LABELS_MAX);
	labels_free(vo);
	vo->labels = xcalloc(v->nkids, sizeof *vo->labels);
	for (size_t i = 0; i < v->nkids; i++) {
		struct call_label_def *l = &vo->labels[i];
		vo->nlabels = i + 1;    /* freed with the others, even half read */
		if (conf_map(cf, v->kids[i], "a call label") ||
		    conf_keys(cf, v->kids[i], &label_table, l, NULL))
			return -1;
		for (size_t j = 0; j < i; j++)
			if (!strcmp(vo->labels[j].id, l->id) || vo->labels[j].value == l->value)
				return conf_fail(cf, v->kids[i], "call label '%s' repeats the %s of '%s'",
				                 l->id, strcmp(vo->labels[j].id, l->id) ? "value" : "id",
				                 vo->labels[j].id);
	}
	return 0;
}

int vocab_call_labels_read(struct conf *cf, const struct conf_node *v, struct vocab *vo)
{
	const struct conf_node *list = v, *pass = NULL;
	if (v->kind == CONF_MAP) {
		list = conf_get(v, "labels");
		pass = conf_get(v, "pass");
		for (size_t i = 0; i + 1 < v->nkids; i += 2)
			if (!conf_key_is(v->kids[i], "labels") && !conf_key_is(v->kids[i], "pass"))
				return conf_unknown_key(cf, v->kids[i], "labels, pass");
		if (!list)
			return conf_fail(cf, v, "call_labels needs 'labels'");
	}
	if (labels_read(cf, list, vo))
		return -1;
	vo->own_labels = true;
	vo->pass = vo->labels[0].value;
	for (size_t i = 1; i < vo->nlabels; i++)
		if (vo->labels[i].value > vo->pass)
			vo->pass = vo->labels[i].value;
	return pass ? conf_num(cf, pass, "pass", &vo->pass) : 0;
}
