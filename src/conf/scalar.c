/* scalar.c - YAML scalars typed as the core schema types them, and nodes
 * as JSON (tags, plain typing, a cap on what aliases may expand to). */
#include "conf/conf.h"
#include "conf_private.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

#define TAG_PREFIX "tag:yaml.org,2002:"

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
int conf_plain_type(const char *s, size_t len, json_t **out)
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
		/* Too large for an integer: keep it as a number all the same,
		 * unless it is too large even for a double (JSON has no inf). */
		double d = errno == ERANGE ? strtod(t, NULL) : 0;
		if (!isfinite(d)) {
			r = -1;
		} else {
			*out = errno == ERANGE ? json_real(d) : json_integer((json_int_t)v);
			r = 1;
		}
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
		xalloc_die();
	return r;
}

/* ---- YAML nodes to JSON ----------------------------------------------- */

const char *conf_json_kind_name(const json_t *v)
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

int conf_scalar_json(struct conf *x, const struct conf_node *n, json_t **out)
{
	*out = NULL;
	const char *want = NULL;        /* core tag that forces typing */
	if (n->tag && !is_core_tag(n->tag, "str") && strcmp(n->tag, "!") != 0) {
		static const char *const core[] = { "null", "bool", "int", "float", NULL };
		for (const char *const *c = core; *c && !want; c++)
			if (is_core_tag(n->tag, *c))
				want = *c;
		if (!want)
			return conf_fail(x, n, "unsupported tag '%s'", n->tag);
	}
	if (n->typed || want) {
		int r = conf_plain_type(n->text, n->len, out);
		if (r < 0)
			return conf_fail(x, n, "'%.*s' is not a finite number, which JSON cannot hold",
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
				return conf_fail(x, n, "'%.*s' is not a valid !!%s", (int)n->len, n->text, want);
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
		return conf_fail(x, n, "the string is not valid UTF-8");
	return 0;
}

static int node_json(struct conf *x, const struct conf_node *n, int depth, json_t **out)
{
	*out = NULL;
	if (++x->expanded > CONF_MAX_EXPANDED)
		return conf_fail(x, n, "the value expands to more than %d nodes", CONF_MAX_EXPANDED);
	if (depth > CONF_MAX_DEPTH)
		return conf_fail(x, n, "nesting deeper than %d levels", CONF_MAX_DEPTH);
	if (n->kind == CONF_SCALAR)
		return conf_scalar_json(x, n, out);

	json_t *v = n->kind == CONF_SEQ ? json_array() : json_object();
	if (!v)
		xalloc_die();
	if (n->kind == CONF_SEQ) {
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
			const struct conf_node *k = n->kids[i];
			json_t *item;
			if (node_json(x, n->kids[i + 1], depth + 1, &item)) {
				json_decref(v);
				return -1;
			}
			if (json_object_setn_new(v, k->text, k->len, item)) {
				json_decref(v);
				return conf_fail(x, k, "the key is not valid UTF-8");
			}
		}
	}
	*out = v;
	return 0;
}


int conf_json(struct conf *x, const struct conf_node *n, json_t **out)
{
	return node_json(x, n, 0, out);
}
