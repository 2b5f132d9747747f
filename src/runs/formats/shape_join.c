/* shape_join.c - the reader by shape's memory of what it saw (a call shown several times counts once) and the joining of results to calls. */
#include <stdlib.h>
#include <string.h>

#include "shape.h"
#include "util/hash.h"
#include "util/strbuf.h"

/* A key remembered: a call's id, or its name and arguments, or a result's
 * call id; the tag byte keeps the kinds apart. */
struct shape_key {
	const char *text;
	size_t len;
};

static bool key_eq(const void *item, const void *key)
{
	const struct shape_key *a = item, *b = key;
	return a->len == b->len && memcmp(a->text, b->text, a->len) == 0;
}

static bool seen(struct shape *s, struct htab *t, const char *text, size_t len)
{
	struct shape_key k = { text, len };
	uint64_t h = hash_fnv1a(text, len, HASH_FNV_SEED);
	void **slot = htab_put(t, h, key_eq, &k);
	if (*slot)
		return true;
	struct shape_key *kept = arena_alloc(&s->r->arena, sizeof(*kept));
	kept->text = arena_strndup(&s->r->arena, text, len);
	kept->len = len;
	*slot = kept;
	return false;
}

/* Arguments as text that does not depend on how the record spelled them:
 * a string as it is, anything else as compact JSON with sorted keys. */
static char *args_text(const struct jdoc *d, jv args)
{
	if (args == JV_NONE)
		return strdup("");
	if (jv_is_string(d, args))
		return strdup(jv_str(d, args));
	json_t *t = jv_to_json(d, args);
	char *text = t ? json_dumps(t, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY) : NULL;
	json_decref(t);
	return text ? text : strdup("");
}

bool shape_seen_call(struct shape *s, const char *name, jv args, const char *id)
{
	struct strbuf sb = STRBUF_INIT;
	if (id) {
		strbuf_addch(&sb, 'i');
		strbuf_addstr(&sb, id);
	} else {
		char *a = args_text(s->d, args);
		strbuf_addch(&sb, 'n');
		strbuf_addstr(&sb, name);
		strbuf_addch(&sb, '\0');
		strbuf_addstr(&sb, a ? a : "");
		free(a);
	}
	bool was = seen(s, &s->calls_seen, sb.buf, sb.len);
	strbuf_release(&sb);
	return was;
}

bool shape_seen_result(struct shape *s, const char *call_id)
{
	return seen(s, &s->results_seen, call_id, strlen(call_id));
}

static bool call_id_eq(const void *item, const void *key)
{
	const struct run_call *c = item;
	return c->id && strcmp(c->id, key) == 0;
}

/* The first call without a result that this test accepts, from *from on. */
static struct run_call *first_open(struct run *r, const char *name, size_t *from)
{
	for (size_t i = *from; i < r->ncalls; i++) {
		struct run_call *c = &r->calls[i];
		if (c->has_result || (name && strcmp(c->name, name) != 0))
			continue;
		if (!name)
			*from = i;
		return c;
	}
	return NULL;
}

void shape_join(struct shape *s)
{
	struct run *r = s->r;
	struct htab by_id = HTAB_INIT;
	for (size_t i = 0; i < r->ncalls; i++) {
		const char *id = r->calls[i].id;
		if (!id)
			continue;
		void **slot = htab_put(&by_id, hash_fnv1a(id, strlen(id), HASH_FNV_SEED), call_id_eq, id);
		if (!*slot)
			*slot = &r->calls[i];       /* the first call with an id takes its result */
	}
	size_t open_from = 0;
	for (size_t i = 0; i < s->nresults; i++) {
		const struct shape_result *res = &s->results[i];
		struct run_msg *m = &r->msgs[res->msg];
		struct run_call *c = NULL;
		if (res->call_id)
			c = htab_get(&by_id, hash_fnv1a(res->call_id, strlen(res->call_id), HASH_FNV_SEED),
			             call_id_eq, res->call_id);
		else if (res->name)
			c = first_open(r, res->name, &(size_t){ 0 });
		else
			c = first_open(r, NULL, &open_from);
		if (!c || c->has_result) {
			m->unmatched_result = true;
			continue;
		}
		run_set_result(c, m->result, m->result_is_error, m->result_error_text, (long)res->msg);
	}
	htab_free(&by_id);
}

void shape_free(struct shape *s)
{
	htab_free(&s->calls_seen);
	htab_free(&s->results_seen);
	free(s->results);
	free(s->claimed);
}
