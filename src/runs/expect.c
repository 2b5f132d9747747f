/* expect.c - per-task ground truth joined to runs by key fields.
 *
 * Records are keyed by a canonical text of their key values, so that a task
 * id written as 7 in one file and "7" in the other still joins. A jansson
 * object serves as the hash map from that text to the record. The
 * expectations are a file read once, as trees; a run's key is read from
 * its tape. */
#include "runs/expect.h"

#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/jsonpath.h"
#include "util/readfile.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/error.h"

/* Separates the parts of a composite key; it cannot occur in a JSON
 * number, literal or compact dump, and almost never in a real id. */
#define KEY_SEP '\x1f'

struct expectations {
	json_t *map;            /* canonical key text -> record */
	size_t skipped;         /* records lacking one of the key paths */
	size_t duplicates;      /* records whose key was already taken */
	/* Copies of the configured paths: the config may be freed before us. */
	char **run_keys;
	char **exp_keys;
	size_t nkeys;
};


static void key_number(struct strbuf *sb, double d)
{
	char buf[40];
	if (d == 0) {
		strbuf_addch(sb, '0');      /* also -0 */
		return;
	}
	/* Integral values print without a fraction, as 7.0 must meet 7. The
	 * range test comes first so that the cast is defined. */
	if (d > -9007199254740992.0 && d < 9007199254740992.0 && d == (double)(long long)d) {
		snprintf(buf, sizeof buf, "%.0f", d);
		strbuf_addstr(sb, buf);
		return;
	}
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, sizeof buf, "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	strbuf_addstr(sb, buf);
}

/* Canonical text of one key value. */
static void key_value(struct strbuf *sb, const json_t *v)
{
	if (json_is_string(v)) {
		strbuf_add(sb, json_string_value(v), json_string_length(v));
	} else if (json_is_integer(v)) {
		strbuf_addf(sb, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
	} else if (json_is_real(v)) {
		key_number(sb, json_real_value(v));
	} else {
		char *s = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
		if (!s)
			xalloc_die();
		strbuf_addstr(sb, s);
		free(s);
	}
}

/* Builds the key of `rec` from `paths`. Returns the index of the first
 * path that finds nothing, or -1 when the key is complete. */
static long record_key(json_t *rec, char *const *paths, size_t n, struct strbuf *sb)
{
	strbuf_reset(sb);
	strbuf_add(sb, "", 0);          /* an empty key is still a string */
	for (size_t i = 0; i < n; i++) {
		json_t *v = jsonpath_get(rec, paths[i]);
		if (!v)
			return (long)i;
		if (i)
			strbuf_addch(sb, KEY_SEP);
		key_value(sb, v);
	}
	return -1;
}

/* ---- the run's side, read from its tape --------------------------------
 * The same texts as key_value and json_dumps(JSON_COMPACT | JSON_SORT_KEYS
 * | JSON_ENCODE_ANY) give for the tree jv_to_json would build, written
 * straight from the tape so a lookup builds no tree of the record. */

static void jv_dump(struct strbuf *sb, const struct jdoc *d, jv v);

/* A string as jansson's dump_string writes it without JSON_ENSURE_ASCII:
 * only \\, \" and control characters are escaped, the rest is copied. */
static void dump_string(struct strbuf *sb, const char *s, size_t n)
{
	strbuf_addch(sb, '"');
	size_t from = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c != '\\' && c != '"' && c >= 0x20)
			continue;
		strbuf_add(sb, s + from, i - from);
		from = i + 1;
		switch (c) {
		case '\\': strbuf_addstr(sb, "\\\\"); break;
		case '"':  strbuf_addstr(sb, "\\\""); break;
		case '\b': strbuf_addstr(sb, "\\b"); break;
		case '\f': strbuf_addstr(sb, "\\f"); break;
		case '\n': strbuf_addstr(sb, "\\n"); break;
		case '\r': strbuf_addstr(sb, "\\r"); break;
		case '\t': strbuf_addstr(sb, "\\t"); break;
		default:   strbuf_addf(sb, "\\u%04X", c); break;
		}
	}
	strbuf_add(sb, s + from, n - from);
	strbuf_addch(sb, '"');
}

/* A number as the tree would hold it: an integer within int64_t, else a
 * real (+-DBL_MAX past a double's range), printed by jansson itself so
 * that its real format is matched exactly. */
static void dump_number(struct strbuf *sb, const struct jdoc *d, jv v)
{
	if (jv_is_integer(d, v)) {
		strbuf_addf(sb, "%" PRId64, jv_int(d, v));
		return;
	}
	double x = jv_real(d, v);
	if (!isfinite(x))
		x = x < 0 ? -DBL_MAX : DBL_MAX;
	char buf[64];
	json_t *real = json_real(x);
	size_t n = real ? json_dumpb(real, buf, sizeof buf, JSON_ENCODE_ANY) : 0;
	json_decref(real);
	if (n == 0 || n > sizeof buf)
		xalloc_die();
	strbuf_add(sb, buf, n);
}

struct member {
	const char *key;
	size_t len;
	jv value;
	size_t order;
};

/* jansson's compare_keys: bytes, then length; a repeated key keeps its
 * last value, as the parser keeps it. */
static int member_cmp(const void *a, const void *b)
{
	const struct member *x = a, *y = b;
	int c = memcmp(x->key, y->key, x->len < y->len ? x->len : y->len);
	if (c)
		return c;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return x->order < y->order ? 1 : x->order > y->order ? -1 : 0;
}

static void dump_object(struct strbuf *sb, const struct jdoc *d, jv obj)
{
	size_t n = jv_len(d, obj), k = 0;
	struct member *m = calloc(n ? n : 1, sizeof *m);
	if (!m)
		xalloc_die();
	JV_EACH_KEY(d, obj, key) {
		m[k] = (struct member){ jv_str(d, key), jv_strlen(d, key), jv_value(key), k };
		k++;
	}
	qsort(m, k, sizeof *m, member_cmp);
	strbuf_addch(sb, '{');
	bool first = true;
	for (size_t i = 0; i < k; i++) {
		if (i && m[i].len == m[i - 1].len && memcmp(m[i].key, m[i - 1].key, m[i].len) == 0)
			continue;   /* an earlier duplicate: the last one sorted first */
		if (!first)
			strbuf_addch(sb, ',');
		first = false;
		dump_string(sb, m[i].key, m[i].len);
		strbuf_addch(sb, ':');
		jv_dump(sb, d, m[i].value);
	}
	strbuf_addch(sb, '}');
	free(m);
}

static void jv_dump(struct strbuf *sb, const struct jdoc *d, jv v)
{
	switch (jv_type(d, v)) {
	case JV_MISSING:
	case JV_NULL:   strbuf_addstr(sb, "null"); break;
	case JV_FALSE:  strbuf_addstr(sb, "false"); break;
	case JV_TRUE:   strbuf_addstr(sb, "true"); break;
	case JV_NUMBER: dump_number(sb, d, v); break;
	case JV_STRING: dump_string(sb, jv_str(d, v), jv_strlen(d, v)); break;
	case JV_OBJECT: dump_object(sb, d, v); break;
	case JV_ARRAY: {
		bool first = true;
		strbuf_addch(sb, '[');
		JV_EACH(d, v, e) {
			if (!first)
				strbuf_addch(sb, ',');
			first = false;
			jv_dump(sb, d, e);
		}
		strbuf_addch(sb, ']');
		break;
	}
	}
}

/* key_value of the tree the value would become. */
static void key_jv(struct strbuf *sb, const struct jdoc *d, jv v)
{
	if (jv_is_string(d, v))
		strbuf_add(sb, jv_str(d, v), jv_strlen(d, v));
	else if (jv_is_integer(d, v))
		strbuf_addf(sb, "%" PRId64, jv_int(d, v));
	else if (jv_is_number(d, v))
		key_number(sb, jv_real(d, v));
	else
		jv_dump(sb, d, v);
}

/* record_key for a run: its key paths resolved through the tape. */
static long run_key(const struct run *run, char *const *paths, size_t n, struct strbuf *sb)
{
	const struct jdoc *d = run->doc;
	strbuf_reset(sb);
	strbuf_add(sb, "", 0);
	for (size_t i = 0; i < n; i++) {
		jv v = run_value(run, paths[i]);
		if (v == JV_NONE)
			return (long)i;
		if (i)
			strbuf_addch(sb, KEY_SEP);
		key_jv(sb, d, v);
	}
	return -1;
}

static char **paths_copy(char *const *src, size_t n)
{
	char **p = calloc(n ? n : 1, sizeof *p);
	if (!p)
		xalloc_die();
	for (size_t i = 0; i < n; i++)
		p[i] = xstrdup(src[i]);
	return p;
}

static void paths_free(char **p, size_t n)
{
	for (size_t i = 0; p && i < n; i++)
		free(p[i]);
	free(p);
}

void expect_free(struct expectations *e)
{
	if (!e)
		return;
	json_decref(e->map);
	paths_free(e->run_keys, e->nkeys);
	paths_free(e->exp_keys, e->nkeys);
	free(e);
}

size_t expect_count(const struct expectations *e)
{
	return e ? json_object_size(e->map) : 0;
}

size_t expect_skipped(const struct expectations *e)
{
	return e ? e->skipped : 0;
}

size_t expect_duplicates(const struct expectations *e)
{
	return e ? e->duplicates : 0;
}

static void expect_add(struct expectations *e, json_t *rec, struct strbuf *sb)
{
	if (record_key(rec, e->exp_keys, e->nkeys, sb) >= 0) {
		e->skipped++;
		return;
	}
	/* First wins: a later duplicate is most likely a re-run appended to
	 * the file, and the original ground truth is what was reviewed. */
	if (json_object_getn(e->map, sb->buf, sb->len)) {
		e->duplicates++;
		return;
	}
	if (json_object_setn(e->map, sb->buf, sb->len, rec))
		e->skipped++;       /* key text not UTF-8; cannot match a run either */
}

static int load_array(struct expectations *e, const char *file, const char *text, size_t len,
                      struct strbuf *key, struct error *err)
{
	json_error_t jerr;
	json_t *arr = json_loadb(text, len, 0, &jerr);
	if (!arr) {
		error_set(err, ERR_FAILED, "%s:%d: %s", file, jerr.line, jerr.text);
		return -1;
	}
	if (!json_is_array(arr)) {
		error_set(err, ERR_FAILED, "%s:1: expected a JSON array of objects", file);
		json_decref(arr);
		return -1;
	}
	for (size_t i = 0; i < json_array_size(arr); i++) {
		json_t *rec = json_array_get(arr, i);
		if (!json_is_object(rec)) {
			error_set(err, ERR_FAILED, "%s: item %zu of the array is not a JSON object", file,
			         i + 1);
			json_decref(arr);
			return -1;
		}
		expect_add(e, rec, key);
	}
	json_decref(arr);
	return 0;
}

static int load_lines(struct expectations *e, const char *file, const char *text, size_t len,
                      struct strbuf *key, struct error *err)
{
	const char *p = text, *end = text + len;
	for (int lineno = 1; p < end; lineno++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		size_t n = (size_t)(eol - p);
		if (n && p[n - 1] == '\r')
			n--;
		size_t i = 0;
		while (i < n && (p[i] == ' ' || p[i] == '\t'))
			i++;
		if (i < n) {
			json_error_t jerr;
			json_t *rec = json_loadb(p, n, JSON_DECODE_ANY, &jerr);
			if (!rec) {
				error_set(err, ERR_FAILED, "%s:%d: %s", file, lineno, jerr.text);
				return -1;
			}
			if (!json_is_object(rec)) {
				error_set(err, ERR_FAILED, "%s:%d: expected a JSON object", file, lineno);
				json_decref(rec);
				return -1;
			}
			expect_add(e, rec, key);
			json_decref(rec);
		}
		p = nl ? nl + 1 : end;
	}
	return 0;
}

struct expectations *expect_load(const struct expect_conf *ec, const char *file,
                                 struct error *err)
{
	error_clear(err);
	if (!file)
		file = ec->file;

	struct strbuf text = STRBUF_INIT;
	if (read_regular_file(&text, file, READ_CAP_EXPECTATIONS, err) < 0) {
		strbuf_release(&text);
		return NULL;
	}

	struct expectations *e = calloc(1, sizeof *e);
	if (!e)
		xalloc_die();
	e->map = json_object();
	if (!e->map)
		xalloc_die();
	e->nkeys = ec->nkeys;
	e->run_keys = paths_copy(ec->run_keys, ec->nkeys);
	e->exp_keys = paths_copy(ec->exp_keys, ec->nkeys);

	const char *s = text.buf ? text.buf : "";
	size_t len = text.len;
	if (len >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0) {
		s += 3;             /* editors on Windows like to add a BOM */
		len -= 3;
	}
	size_t i = 0;
	while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n'))
		i++;

	struct strbuf key = STRBUF_INIT;
	int rc = i < len && s[i] == '['
	       ? load_array(e, file, s, len, &key, err)
	       : load_lines(e, file, s, len, &key, err);
	strbuf_release(&key);
	strbuf_release(&text);
	if (rc) {
		expect_free(e);
		return NULL;
	}
	return e;
}

static void why_set(char *why, size_t whylen, const char *msg)
{
	if (why && whylen)
		snprintf(why, whylen, "%s", msg);
}

json_t *expect_lookup(const struct expectations *e, struct run *run, char *why, size_t whylen)
{
	if (!e) {
		why_set(why, whylen, "no expectations are loaded");
		return NULL;
	}

	struct strbuf key = STRBUF_INIT, msg = STRBUF_INIT;
	json_t *found = NULL;
	const struct jdoc *d = run->doc;
	long missing = run_key(run, e->run_keys, e->nkeys, &key);
	if (missing >= 0) {
		strbuf_addf(&msg, "the run has no %s", e->run_keys[missing]);
	} else {
		found = json_object_getn(e->map, key.buf, key.len);
		if (!found) {
			strbuf_addstr(&msg, "no expectation has ");
			for (size_t i = 0; i < e->nkeys; i++) {
				strbuf_addf(&msg, "%s%s = ", i ? ", " : "", e->exp_keys[i]);
				jv_dump(&msg, d, run_value(run, e->run_keys[i]));
			}
		}
	}
	if (!found)
		why_set(why, whylen, msg.buf ? msg.buf : "");
	else if (why && whylen)
		why[0] = '\0';
	strbuf_release(&key);
	strbuf_release(&msg);
	return found;
}
