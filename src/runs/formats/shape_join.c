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
	size_t calls;               /* calls kept with this key */
	jv list;                    /* the list it was last seen in */
	size_t in_list;             /* how often in that list */
};

static bool key_eq(const void *item, const void *key)
{
	const struct shape_key *a = item, *b = key;
	return a->len == b->len && memcmp(a->text, b->text, a->len) == 0;
}

static struct shape_key *remember(struct shape *s, struct htab *t, const char *text, size_t len,
                                   bool *was)
{
	struct shape_key k = { .text = text, .len = len };
	uint64_t h = hash_fnv1a(text, len, HASH_FNV_SEED);
	void **slot = htab_put(t, h, key_eq, &k);
	*was = *slot != NULL;
	if (*was)
		return *slot;
	struct shape_key *kept = arena_alloc(&s->r->arena, sizeof(*kept));
	kept->text = arena_strndup(&s->r->arena, text, len);
	kept->len = len;
	kept->list = JV_NONE;
	*slot = kept;
	return kept;
}

/* A hash of a value that does not depend on how the record spelled it:
 * objects regardless of their members' order, numbers by their text. A
 * string is hashed as it is, so arguments held as a JSON text and the same
 * arguments as an object differ: a record writes one call's copies alike. */
static uint64_t value_hash(const struct jdoc *d, jv v)
{
	uint64_t h = hash_fnv1a_part(HASH_FNV_SEED, (const char[]){ (char)('0' + jv_type(d, v)), 0 });
	switch (jv_type(d, v)) {
	case JV_STRING:
		return hash_fnv1a(jv_str(d, v), jv_strlen(d, v), h);
	case JV_NUMBER:
		return hash_fnv1a_part(h, jv_number_text(d, v));
	case JV_ARRAY:
		JV_EACH(d, v, e)
			h = (h ^ value_hash(d, e)) * 0x100000001b3ULL;
		return h;
	case JV_OBJECT: {
		uint64_t sum = 0;
		JV_EACH_KEY(d, v, k)
			sum += hash_fnv1a_part(value_hash(d, jv_value(k)), jv_str(d, k));
		return h ^ sum;
	}
	default:
		return h;
	}
}

/* A call is the same call when its id and name are (a copy may hold its
 * arguments as a JSON text where the original has an object), or, without
 * an id, its name and arguments: a record that reuses an id for another
 * tool (a replayed demonstration) changes the name. The
 * same call twice in one conversation was made twice; a later conversation
 * (the next model call's input) repeating both adds none: a key counts as
 * often as the conversation that holds it most often. Outside a
 * conversation (a run state's items, spans) a key counts once. */
bool shape_seen_call(struct shape *s, const char *name, jv args, const char *id)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, id ? id : "");
	strbuf_addch(&sb, '\0');
	strbuf_addstr(&sb, name);
	if (!id)
		strbuf_addf(&sb, "%c%016llx", 0, (unsigned long long)value_hash(s->d, args));
	bool was;
	struct shape_key *k = remember(s, &s->calls_seen, sb.buf, sb.len, &was);
	strbuf_release(&sb);
	if (s->list == JV_NONE) {
		if (k->calls)
			return true;
		k->calls = 1;
		return false;
	}
	if (k->list != s->list || !was) {
		k->list = s->list;
		k->in_list = 0;
	}
	if (++k->in_list <= k->calls)
		return true;
	k->calls++;
	return false;
}

bool shape_seen_result(struct shape *s, const char *call_id)
{
	bool was;
	remember(s, &s->results_seen, call_id, strlen(call_id), &was);
	return was;
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
