/* propose_fields.c - a record's values walked into its input's fields: for
 * each path, the kinds of value it held, the range of its numbers, its first
 * distinct texts and, per record, its scalar as text (for ids and joins). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "propose_int.h"
#include "util/hash.h"
#include "util/jdoc.h"
#include "util/jsonpath.h"
#include "util/xalloc.h"

static bool field_is(const void *item, const void *key)
{
	return strcmp(((const struct prop_field *)item)->path, key) == 0;
}

struct prop_field *prop_field_find(const struct prop_input *in, const char *path)
{
	return htab_get(&in->field_index, hash_fnv1a(path, strlen(path), 0), field_is, path);
}

/* The field of path, made on first sight; NULL once the input has too many. */
static struct prop_field *field_at(struct prop_input *in, const char *path)
{
	uint64_t h = hash_fnv1a(path, strlen(path), 0);
	struct prop_field *f = prop_field_find(in, path);
	if (f || in->nfields == PROP_MAX_FIELDS || in->fields_done)
		return f;
	if (!in->fields)
		in->fields = xcalloc(PROP_MAX_FIELDS, sizeof *in->fields);
	f = &in->fields[in->nfields++];
	memset(f, 0, sizeof *f);
	f->path = xstrdup(path);
	f->lo = INFINITY;
	f->hi = -INFINITY;
	/* The fields never move: their array is made whole at first use. */
	void **slot = htab_put(&in->field_index, h, field_is, path);
	*slot = f;
	return f;
}

static void add_number(struct prop_field *f, double v)
{
	f->lo = v < f->lo ? v : f->lo;
	f->hi = v > f->hi ? v : f->hi;
}

static void add_text(struct prop_field *f, const char *s)
{
	for (size_t i = 0; i < f->ntexts; i++)
		if (!strcmp(f->texts[i], s))
			return;
	if (f->ntexts == PROP_TEXTS || strlen(s) > PROP_VALUE_MAX) {
		f->more_texts = true;
		return;
	}
	f->texts[f->ntexts++] = xstrdup(s);
}

/* A call's arguments as a text that does not depend on key order; a
 * string holding JSON (Chat Completions' arguments) as the value it holds. */
static void args_text(struct strbuf *sb, const struct jdoc *d, jv call)
{
	static const char *const keys[] = { "arguments", "args", "kwargs", "input", "parameters",
	                                     NULL };
	jv a = JV_NONE;
	for (size_t i = 0; keys[i] && a == JV_NONE; i++)
		a = jv_get(d, call, keys[i]);
	if (a == JV_NONE)
		return;
	json_t *t = jv_to_json(d, a);
	if (t && json_is_string(t)) {
		json_t *inner = json_loads(json_string_value(t), 0, NULL);
		if (inner) {
			json_decref(t);
			t = inner;
		}
	}
	char *s = t ? json_dumps(t, JSON_SORT_KEYS | JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
	if (s)
		strbuf_addstr(sb, s);
	free(s);
	json_decref(t);
}

/* The digest of a list of calls: each one's name and arguments, in order. */
static unsigned long long calls_digest(const struct jdoc *d, jv v)
{
	struct strbuf sb = STRBUF_INIT;
	JV_EACH(d, v, e) {
		jv name = jv_get(d, e, "name");
		if (name == JV_NONE)
			name = jv_get(d, e, "func_name");
		strbuf_addstr(&sb, jv_str(d, name));
		strbuf_addch(&sb, '\n');
		args_text(&sb, d, e);
		strbuf_addch(&sb, '\n');
	}
	unsigned long long h = hash_fnv1a(sb.buf ? sb.buf : "", sb.len, HASH_FNV_SEED);
	strbuf_release(&sb);
	return h ? h : 1;
}

static void keep_digest(struct prop_field *f, size_t rec, unsigned long long h)
{
	if (rec >= f->dcap) {
		size_t c = f->dcap ? f->dcap : 16;
		while (c <= rec)
			c *= 2;
		f->digests = xrealloc(f->digests, c * sizeof *f->digests);
		memset(f->digests + f->dcap, 0, (c - f->dcap) * sizeof *f->digests);
		f->dcap = c;
	}
	if (!f->digests[rec])
		f->digests[rec] = h;
}

/* What kind of list it is: of strings, of calls (objects with a name), of
 * one-key objects (BFCL's {"fn": {args}}). */
static void add_list(struct prop_field *f, size_t rec, const struct jdoc *d, jv v)
{
	f->nlist++;
	if (!jv_len(d, v))
		return;
	bool strs = true, calls = true, keyed = true;
	JV_EACH(d, v, e) {
		strs = strs && jv_is_string(d, e);
		jv name = jv_is_object(d, e) ? jv_get(d, e, "name") : JV_NONE;
		if (name == JV_NONE && jv_is_object(d, e))
			name = jv_get(d, e, "func_name");
		calls = calls && jv_is_string(d, name);
		keyed = keyed && jv_is_object(d, e) && jv_len(d, e) == 1 &&
		        jv_is_object(d, jv_value(jv_first(d, e)));
	}
	f->nlist_str += strs;
	f->nlist_call += calls;
	if (calls)
		keep_digest(f, rec, calls_digest(d, v));
	f->nlist_keyed += keyed && !calls;
}

/* Room for n pointers in *v (the new ones NULL). */
static void grow(char ***v, size_t *cap, size_t n)
{
	if (n <= *cap)
		return;
	size_t c = *cap ? *cap : 16;
	while (c < n)
		c *= 2;
	*v = xrealloc(*v, c * sizeof **v);
	memset(*v + *cap, 0, (c - *cap) * sizeof **v);
	*cap = c;
}

void prop_fields_done(struct prop_input *in)
{
	for (size_t i = 0; i < in->nfields; i++)
		if (in->fields[i].vals)
			grow(&in->fields[i].vals, &in->fields[i].vcap, in->nrecs);
	if (!in->fields)
		return;
	/* The array was made whole for reading; a folder of many small files
	 * keeps only what each holds, and the index follows the move. */
	in->fields = xrealloc(in->fields, (in->nfields ? in->nfields : 1) * sizeof *in->fields);
	htab_free(&in->field_index);
	for (size_t i = 0; i < in->nfields; i++) {
		const char *path = in->fields[i].path;
		*htab_put(&in->field_index, hash_fnv1a(path, strlen(path), 0), field_is, path) =
		        &in->fields[i];
	}
	in->fields_done = true;
}

static void keep_value(struct prop_input *in, struct prop_field *f, size_t rec, const char *s)
{
	if (strlen(s) > PROP_VALUE_MAX || strlen(s) == 0)
		return;
	grow(&f->vals, &f->vcap, rec + 1);
	if (!f->vals[rec])
		f->vals[rec] = xstrdup(s);
}

/* A number as the expectations join keys it: 7.0 meets 7. */
static void keep_number(struct prop_input *in, struct prop_field *f, size_t rec,
                        const struct jdoc *d, jv v, double x)
{
	char buf[40];
	if (x > -9007199254740992.0 && x < 9007199254740992.0 && x == (double)(long long)x) {
		snprintf(buf, sizeof buf, "%.0f", x == 0 ? 0.0 : x);
		keep_value(in, f, rec, buf);
	} else {
		keep_value(in, f, rec, jv_number_text(d, v));
	}
}

static void add_value(struct prop_input *in, size_t rec, const struct jdoc *d, jv v,
                      struct strbuf *path, int depth);

static void add_object(struct prop_input *in, size_t rec, const struct jdoc *d, jv v,
                       struct strbuf *path, int depth)
{
	JV_EACH_KEY(d, v, k) {
		size_t n = jv_strlen(d, k), keep = path->len;
		const char *key = jv_str(d, k);
		if (strlen(key) != n)
			continue;       /* a key holding NUL names no path */
		jsonpath_add_key(path, key, n);
		add_value(in, rec, d, jv_value(k), path, depth + 1);
		path->len = keep;
		path->buf[keep] = '\0';
	}
}

static void add_value(struct prop_input *in, size_t rec, const struct jdoc *d, jv v,
                      struct strbuf *path, int depth)
{
	if (jv_is_null(d, v))
		return;
	struct prop_field *f = field_at(in, path->buf);
	if (!f)
		return;
	f->present++;
	switch (jv_type(d, v)) {
	case JV_NUMBER: {
		double x = jv_real(d, v);
		f->nnum++;
		add_number(f, x);
		f->fractional = f->fractional || x != floor(x);
		keep_number(in, f, rec, d, v, x);
		break;
	}
	case JV_TRUE:
	case JV_FALSE:
		f->nbool++;
		add_number(f, jv_type(d, v) == JV_TRUE);
		keep_value(in, f, rec, jv_type(d, v) == JV_TRUE ? "true" : "false");
		break;
	case JV_STRING:
		f->nstr++;
		if (strlen(jv_str(d, v)) == jv_strlen(d, v)) {
			add_text(f, jv_str(d, v));
			keep_value(in, f, rec, jv_str(d, v));
		}
		break;
	case JV_ARRAY:
		add_list(f, rec, d, v);
		break;
	case JV_OBJECT:
		f->nobj++;
		if (depth < PROP_DEPTH)
			add_object(in, rec, d, v, path, depth);
		break;
	default:
		break;
	}
}

void prop_fields_add(struct prop_input *in, size_t rec, const struct jdoc *d, unsigned root)
{
	if (!jv_is_object(d, root))
		return;
	struct strbuf path = STRBUF_INIT;
	strbuf_grow(&path, 64);
	path.buf[0] = '\0';
	add_object(in, rec, d, root, &path, 0);
	strbuf_release(&path);
}

void prop_fields_free(struct prop_input *in)
{
	for (size_t i = 0; i < in->nfields; i++) {
		struct prop_field *f = &in->fields[i];
		free(f->path);
		for (size_t t = 0; t < f->ntexts; t++)
			free(f->texts[t]);
		if (f->vals)
			for (size_t r = 0; r < in->nrecs; r++)
				free(f->vals[r]);
		free(f->vals);
		free(f->digests);
	}
	free(in->fields);
	htab_free(&in->field_index);
	in->fields = NULL;
	in->nfields = 0;
}
