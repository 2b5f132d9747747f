/* traj_args.c - comparing tool-call arguments as LangChain agentevals
 * 0.0.7 does: JSON.parse, its _deepEqual, and the exact / ignore /
 * subset / superset modes and per-tool overrides (a mode, or a list of
 * key paths). What is a JavaScript quirk is kept on purpose: a reviewer
 * comparing our verdict with agentevals' must get the same answer. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "traj_match.h"
#include "util/strbuf.h"

int tm_fail(struct tm_err *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->text, sizeof e->text, fmt, ap);
	va_end(ap);
	return -1;
}

static const char *const args_names[] = { "exact", "ignore", "subset", "superset" };

bool tm_args_parse(const char *s, enum tm_args *out)
{
	for (size_t i = 0; s && i < sizeof args_names / sizeof *args_names; i++)
		if (strcmp(s, args_names[i]) == 0) {
			*out = (enum tm_args)i;
			return true;
		}
	return false;
}

const char *tm_args_name(enum tm_args a)
{
	return args_names[a];
}

static bool nullish(const json_t *v)
{
	return !v || json_is_null(v);
}

static bool container(const json_t *v)
{
	return json_is_object(v) || json_is_array(v);
}

/* ---- JavaScript's String() of a JSON value ------------------------------ */

/* The shortest text that reads back as d, as JS prints numbers (1e+21,
 * 0.1, 5). */
static void js_number(struct strbuf *sb, double d)
{
	if (d == 0) {
		strbuf_add(sb, "0", 1);
		return;
	}
	char buf[40];
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, sizeof buf, "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	double a = fabs(d);
	if (a >= 1e-6 && a < 1e21 && strchr(buf, 'e')) {
		/* JS writes these without an exponent. */
		snprintf(buf, sizeof buf, a >= 1 ? "%.0f" : "%.17f", d);
		if (a < 1) {
			char *end = buf + strlen(buf) - 1;
			while (*end == '0')
				*end-- = '\0';
			/* Trim to the digits that still read back as d. */
			size_t len = strlen(buf);
			for (size_t n = 3; n <= len; n++) {
				char t[40];
				memcpy(t, buf, n);
				t[n] = '\0';
				if (strtod(t, NULL) == d) {
					buf[n] = '\0';
					break;
				}
			}
		}
	}
	char *e = strchr(buf, 'e');
	if (e) {
		/* "1e+21", "1e-7": no leading zeros in the exponent. */
		char mant[40], out[64];
		memcpy(mant, buf, (size_t)(e - buf));
		mant[e - buf] = '\0';
		int ex = atoi(e + 1);
		snprintf(out, sizeof out, "%se%c%d", mant, ex < 0 ? '-' : '+', abs(ex));
		strbuf_addstr(sb, out);
		return;
	}
	strbuf_addstr(sb, buf);
}

static void js_string(struct strbuf *sb, const json_t *v, int depth)
{
	if (!v || json_is_null(v))
		return;             /* inside an array; the top is handled by the caller */
	if (json_is_string(v))
		strbuf_add(sb, json_string_value(v), json_string_length(v));
	else if (json_is_number(v))
		js_number(sb, json_number_value(v));
	else if (json_is_true(v))
		strbuf_addstr(sb, "true");
	else if (json_is_false(v))
		strbuf_addstr(sb, "false");
	else if (json_is_object(v))
		strbuf_addstr(sb, "[object Object]");
	else if (depth < 64) {
		size_t i;
		json_t *x;
		json_array_foreach(v, i, x) {
			if (i)
				strbuf_add(sb, ",", 1);
			js_string(sb, x, depth + 1);
		}
	}
}

/* String(v) for a property key or JSON.parse's argument. */
static char *js_text(const json_t *v, size_t *len)
{
	struct strbuf sb = STRBUF_INIT;
	if (!v)
		strbuf_addstr(&sb, "undefined");
	else if (json_is_null(v))
		strbuf_addstr(&sb, "null");
	else
		js_string(&sb, v, 0);
	*len = sb.len;
	return strbuf_detach(&sb);
}

json_t *tm_json_parse(const json_t *v, struct tm_err *e)
{
	size_t len;
	char *text = json_is_string(v) ? NULL : js_text(v, &len);
	const char *s = text ? text : json_string_value(v);
	if (!text)
		len = json_string_length(v);
	json_error_t je;
	json_t *out = json_loadb(s, len, JSON_DECODE_ANY | JSON_DECODE_INT_AS_REAL | JSON_ALLOW_NUL,
	                         &je);
	if (!out)
		tm_fail(e, "arguments %s%.60s%s are not JSON (%s)", text ? "" : "\"", s,
		        text ? "" : "\"", je.text);
	free(text);
	return out;
}

bool tm_strict_equal(const json_t *a, const json_t *b)
{
	if (!a || !b)
		return !a && !b;
	if (json_is_null(a) || json_is_null(b))
		return json_is_null(a) && json_is_null(b);
	if (json_is_number(a) && json_is_number(b))
		return json_number_value(a) == json_number_value(b);
	if (json_is_string(a) && json_is_string(b))
		return json_string_length(a) == json_string_length(b) &&
		       !memcmp(json_string_value(a), json_string_value(b), json_string_length(a));
	if (json_is_boolean(a) && json_is_boolean(b))
		return json_is_true(a) == json_is_true(b);
	return false;
}

/* ---- equality --------------------------------------------------------------- */

static bool is_space(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static void trimmed(const char **s, size_t *n)
{
	while (*n && is_space((unsigned char)**s))
		(*s)++, (*n)--;
	while (*n && is_space((unsigned char)(*s)[*n - 1]))
		(*n)--;
}

static bool caseless_equal(const char *a, size_t na, const char *b, size_t nb)
{
	utf8proc_uint8_t *fa = NULL, *fb = NULL;
	utf8proc_option_t opt = UTF8PROC_CASEFOLD | UTF8PROC_STABLE | UTF8PROC_COMPOSE;
	utf8proc_ssize_t la = utf8proc_map((const utf8proc_uint8_t *)a, (utf8proc_ssize_t)na, &fa, opt);
	utf8proc_ssize_t lb = utf8proc_map((const utf8proc_uint8_t *)b, (utf8proc_ssize_t)nb, &fb, opt);
	bool same = la >= 0 && lb >= 0 ? la == lb && !memcmp(fa, fb, (size_t)la)
	                               : na == nb && !memcmp(a, b, na);
	free(fa);
	free(fb);
	return same;
}

static bool string_equal(const struct tm_equal *eq, const json_t *a, const json_t *b)
{
	const char *sa = json_string_value(a), *sb = json_string_value(b);
	size_t na = json_string_length(a), nb = json_string_length(b);
	if (eq->trim) {
		trimmed(&sa, &na);
		trimmed(&sb, &nb);
	}
	if (eq->nocase)
		return caseless_equal(sa, na, sb, nb);
	return na == nb && !memcmp(sa, sb, na);
}

/* A container's own keys as Object.keys gives them: an array's are its
 * indexes written in decimal. */
static size_t nkeys(const json_t *v)
{
	return json_is_array(v) ? json_array_size(v) : json_object_size(v);
}

/* v[key] for an object or an array (a canonical index, or "length"). */
static bool member(const json_t *v, const char *key, const json_t **out)
{
	if (json_is_object(v)) {
		*out = json_object_get(v, key);
		return *out != NULL;
	}
	if (!json_is_array(v))
		return false;
	char *end;
	if (key[0] >= '0' && key[0] <= '9' && !(key[0] == '0' && key[1])) {
		unsigned long i = strtoul(key, &end, 10);
		if (!*end && i < json_array_size(v)) {
			*out = json_array_get(v, i);
			return true;
		}
		return false;
	}
	return false;
}

static bool deep_equal(const struct tm_equal *eq, const json_t *a, const json_t *b, int depth)
{
	if (nullish(a) && nullish(b))
		return true;
	if (json_is_number(a) && json_is_number(b)) {
		double x = json_number_value(a), y = json_number_value(b);
		return x == y || fabs(x - y) <= eq->tolerance;
	}
	if (json_is_string(a) && json_is_string(b))
		return string_equal(eq, a, b);
	if (json_is_boolean(a) && json_is_boolean(b))
		return json_is_true(a) == json_is_true(b);
	if (!container(a) || !container(b) || depth > 4096)
		return false;
	if (json_is_array(a) && json_is_array(b)) {
		if (json_array_size(a) != json_array_size(b))
			return false;
		for (size_t i = 0; i < json_array_size(a); i++)
			if (!deep_equal(eq, json_array_get(a, i), json_array_get(b, i), depth + 1))
				return false;
		return true;
	}
	/* Compared as maps: an array is one keyed "0", "1", ... */
	if (nkeys(a) != nkeys(b))
		return false;
	const json_t *vb;
	if (json_is_array(a)) {
		for (size_t i = 0; i < json_array_size(a); i++) {
			char key[24];
			snprintf(key, sizeof key, "%zu", i);
			if (!member(b, key, &vb) || !deep_equal(eq, json_array_get(a, i), vb, depth + 1))
				return false;
		}
		return true;
	}
	const char *key;
	json_t *va;
	json_object_foreach((json_t *)a, key, va)
		if (!member(b, key, &vb) || !deep_equal(eq, va, vb, depth + 1))
			return false;
	return true;
}

bool tm_deep_equal(const struct tm_equal *eq, const json_t *a, const json_t *b)
{
	return deep_equal(eq, a, b, 0);
}

/* ---- the argument modes ------------------------------------------------------- */

/* Object.entries(o).every(([k, v]) => k in r && equal(r[k], v)): the
 * entries of `o` must all be in `r`. `swap` gives equal(v, r[k]) the
 * other way round (superset's order). */
static int entries_in(const struct tm_equal *eq, const json_t *o, const json_t *r,
                      struct tm_err *e)
{
	if (nullish(o))
		return tm_fail(e, "cannot list the entries of %s arguments (TypeError)",
		               o ? "null" : "undefined");
	if (json_is_number(o) || json_is_boolean(o))
		return 1;           /* a primitive has no entries */
	size_t n = json_is_string(o) ? json_string_length(o) : nkeys(o);
	if (n == 0)
		return 1;
	if (!container(r))
		return tm_fail(e, "cannot look up keys in %s arguments (TypeError)",
		               nullish(r) ? "null" : json_is_string(r) ? "text" : "non-object");
	if (json_is_string(o)) {
		/* A string's entries are its characters, keyed "0", "1", ... */
		const utf8proc_uint8_t *s = (const utf8proc_uint8_t *)json_string_value(o);
		utf8proc_ssize_t left = (utf8proc_ssize_t)n, k = 0;
		while (left > 0) {
			utf8proc_int32_t cp;
			utf8proc_ssize_t step = utf8proc_iterate(s, left, &cp);
			if (step <= 0)
				step = 1;
			char key[24];
			snprintf(key, sizeof key, "%zd", k++);
			const json_t *rv;
			json_t *ch = json_stringn((const char *)s, (size_t)step);
			bool ok = member(r, key, &rv) && deep_equal(eq, rv, ch, 0);
			json_decref(ch);
			if (!ok)
				return 0;
			s += step;
			left -= step;
		}
		return 1;
	}
	const json_t *rv;
	if (json_is_array(o)) {
		for (size_t i = 0; i < json_array_size(o); i++) {
			char key[24];
			snprintf(key, sizeof key, "%zu", i);
			if (!member(r, key, &rv) || !deep_equal(eq, rv, json_array_get(o, i), 0))
				return 0;
		}
		return 1;
	}
	const char *key;
	json_t *ov;
	json_object_foreach((json_t *)o, key, ov)
		if (!member(r, key, &rv) || !deep_equal(eq, rv, ov, 0))
			return 0;
	return 1;
}

/* getNestedValue: walks a dotted path; undefined as soon as the value is
 * falsy, not an object or lacks the part. */
static const json_t *nested(const json_t *d, const char *path)
{
	const json_t *cur = d;
	char part[256];
	const char *p = path;
	for (;;) {
		const char *dot = strchr(p, '.');
		size_t n = dot ? (size_t)(dot - p) : strlen(p);
		if (n >= sizeof part)
			return NULL;
		memcpy(part, p, n);
		part[n] = '\0';
		const json_t *next;
		if (!container(cur))
			return NULL;
		if (json_is_array(cur) && strcmp(part, "length") == 0)
			return NULL;    /* a number we would have to make; no key path wants it */
		if (!member(cur, part, &next))
			return NULL;
		cur = next;
		if (!dot)
			return cur;
		p = dot + 1;
	}
}

struct tm_matcher tm_matcher_for(const struct tm_opts *o, const json_t *name)
{
	struct tm_matcher m = { .kind = TM_BY_MODE, .mode = o->args };
	if (!json_is_object(o->overrides))
		return m;
	size_t len;
	char *key = js_text(name, &len);
	const json_t *ov = json_object_get(o->overrides, key);
	free(key);
	enum tm_args a;
	if (json_is_string(ov))
		m.mode = tm_args_parse(json_string_value(ov), &a) ? a : TM_ARGS_IGNORE;
	else if (json_is_array(ov))
		m = (struct tm_matcher){ .kind = TM_BY_KEYS, .keys = ov };
	return m;
}

int tm_args_match(const struct tm_opts *o, const struct tm_matcher *m, const json_t *out_args,
                  const json_t *ref_args, struct tm_err *e)
{
	if (m->kind == TM_BY_KEYS) {
		size_t i;
		const json_t *k;
		json_array_foreach(m->keys, i, k) {
			if (!json_is_string(k))
				return tm_fail(e, "args_overrides: a key path that is not text (TypeError)");
			if (!deep_equal(&o->eq, nested(out_args, json_string_value(k)),
			                nested(ref_args, json_string_value(k)), 0))
				return 0;
		}
		return 1;
	}
	switch (m->mode) {
	case TM_ARGS_EXACT:
		return deep_equal(&o->eq, out_args, ref_args, 0);
	case TM_ARGS_SUBSET:
		return entries_in(&o->eq, out_args, ref_args, e);
	case TM_ARGS_SUPERSET:
		return entries_in(&o->eq, ref_args, out_args, e);
	case TM_ARGS_IGNORE:
		break;
	}
	return 1;
}

/* ---- what differed, for the details ------------------------------------------ */

/* A copy of v as the record wrote it, near enough: arguments are read with
 * every number a double (JS has no other), so 200 came back as 200.0; the
 * whole ones are written as integers again. */
static json_t *as_written(const json_t *v, int depth)
{
	if (json_is_real(v)) {
		double d = json_real_value(v);
		if (d == floor(d) && fabs(d) <= 9007199254740992.0)
			return json_integer((json_int_t)d);
		return json_real(d);
	}
	if (depth > 64 || !(json_is_object(v) || json_is_array(v)))
		return json_deep_copy(v);
	json_t *c = json_is_object(v) ? json_object() : json_array();
	const char *key;
	json_t *x;
	size_t i;
	if (json_is_object(v))
		json_object_foreach((json_t *)v, key, x)
			json_object_set_new(c, key, as_written(x, depth + 1));
	else
		json_array_foreach(v, i, x)
			json_array_append_new(c, as_written(x, depth + 1));
	return c;
}

static void diff_push(json_t *diffs, const char *path, const json_t *out, const json_t *ref)
{
	json_t *d = json_object();
	json_object_set_new(d, "path", json_string(path[0] ? path : "(arguments)"));
	if (out)
		json_object_set_new(d, "output", as_written(out, 0));
	if (ref)
		json_object_set_new(d, "reference", as_written(ref, 0));
	json_array_append_new(diffs, d);
}

void tm_args_diff(const struct tm_equal *eq, const json_t *out, const json_t *ref,
                  const char *path, json_t *diffs, size_t max)
{
	if (json_array_size(diffs) >= max || deep_equal(eq, out, ref, 0))
		return;
	if (!(json_is_object(out) && json_is_object(ref)) || strlen(path) > 400) {
		diff_push(diffs, path, out, ref);
		return;
	}
	char sub[512];
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)out, k, v) {
		snprintf(sub, sizeof sub, "%s%s%s", path, path[0] ? "." : "", k);
		tm_args_diff(eq, v, json_object_get(ref, k), sub, diffs, max);
	}
	json_object_foreach((json_t *)ref, k, v)
		if (!json_object_get(out, k)) {
			snprintf(sub, sizeof sub, "%s%s%s", path, path[0] ? "." : "", k);
			tm_args_diff(eq, NULL, v, sub, diffs, max);
		}
}
