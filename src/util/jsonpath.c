/* jsonpath.c - dotted paths with [n] indexes into a JSON record.
 *
 * Grammar:
 *   path    := segment ( '.' key | bracket )*
 *   segment := key | bracket
 *   key     := one or more bytes other than . [ ] " ' space and controls
 *   bracket := '[' ( '-'? digits | quoted ) ']'
 *   quoted  := '"' ... '"' or '\'' ... '\'', with \\ and \<quote> escapes
 *
 * The same scanner serves jsonpath_valid and jsonpath_get, so a path that
 * validates is walked exactly the way it was checked. */
#include "util/jsonpath.h"
#include "util/strbuf.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static bool key_byte(unsigned char c)
{
	/* Spaces and quotes are refused in bare keys so that a typo such as
	 * "a. b" is reported instead of silently looking up " b". */
	return c > ' ' && c != 0x7f && c != '.' && c != '[' && c != ']' &&
	       c != '"' && c != '\'';
}

static int scan_bracket(const char **pp, struct jsonpath_seg *s, const char **err)
{
	const char *p = *pp + 1;        /* past '[' */

	if (*p == '"' || *p == '\'') {
		char q = *p++;
		s->kind = JSONPATH_KEY;
		s->key = p;
		s->escaped = false;
		while (*p && *p != q) {
			if (*p == '\\') {
				if (p[1] != q && p[1] != '\\') {
					*err = "bad escape in quoted key (only \\\\ and \\\" are allowed)";
					return -1;
				}
				s->escaped = true;
				p++;
			}
			p++;
		}
		if (!*p) {
			*err = "unterminated quoted key";
			return -1;
		}
		s->keylen = (size_t)(p - s->key);
		p++;
		if (*p != ']') {
			*err = "expected ']' after quoted key";
			return -1;
		}
		*pp = p + 1;
		return 1;
	}

	const char *start = p;
	if (*p == '-')
		p++;
	if (*p < '0' || *p > '9') {
		*err = *p == ']' ? "empty index"
		     : !*p ? "unterminated '['"
		     : "index must be an integer or a quoted key";
		return -1;
	}
	while (*p >= '0' && *p <= '9')
		p++;
	if (*p != ']') {
		*err = *p ? "index must be an integer or a quoted key" : "unterminated '['";
		return -1;
	}
	errno = 0;
	long v = strtol(start, NULL, 10);
	if (errno == ERANGE || v == LONG_MIN) {
		*err = "index too large";
		return -1;
	}
	s->kind = JSONPATH_INDEX;
	s->index = v;
	*pp = p + 1;
	return 1;
}

int jsonpath_next(const char **pp, bool first, struct jsonpath_seg *s, const char **err)
{
	const char *p = *pp;

	if (!*p)
		return 0;
	if (*p == '[')
		return scan_bracket(pp, s, err);
	if (!first) {
		if (*p != '.') {
			*err = "expected '.' or '[' between segments";
			return -1;
		}
		p++;
	}
	if (!key_byte((unsigned char)*p)) {
		if (!*p || *p == '.' || *p == '[')
			*err = "empty segment";
		else if (*p == ']')
			*err = "unexpected ']'";
		else
			*err = "spaces, quotes and control characters need a quoted key: [\"...\"]";
		return -1;
	}
	s->kind = JSONPATH_KEY;
	s->key = p;
	s->escaped = false;
	while (key_byte((unsigned char)*p))
		p++;
	s->keylen = (size_t)(p - s->key);
	if (*p && *p != '.' && *p != '[') {
		*err = *p == ']' ? "unexpected ']'"
		                 : "spaces, quotes and control characters need a quoted key: [\"...\"]";
		return -1;
	}
	*pp = p;
	return 1;
}

bool jsonpath_valid(const char *path, const char **err)
{
	const char *dummy;
	if (!err)
		err = &dummy;
	if (!path || !*path) {
		*err = "empty path";
		return false;
	}
	const char *p = path;
	struct jsonpath_seg s;
	int r;
	for (bool first = true; (r = jsonpath_next(&p, first, &s, err)) > 0; first = false)
		;
	return r == 0;
}

size_t jsonpath_unescape(const struct jsonpath_seg *s, char *out)
{
	size_t n = 0;
	for (size_t i = 0; i < s->keylen; i++) {
		if (s->key[i] == '\\')
			i++;
		out[n++] = s->key[i];
	}
	out[n] = 0;
	return n;
}

static json_t *step_key(json_t *v, const struct jsonpath_seg *s)
{
	if (!json_is_object(v))
		return NULL;
	if (!s->escaped)
		return json_object_getn(v, s->key, s->keylen);

	/* Undo the escapes into a scratch copy; keys are short, so the heap
	 * is fine here and keeps no size limit. */
	char *k = malloc(s->keylen + 1);
	if (!k)
		return NULL;
	size_t n = jsonpath_unescape(s, k);
	json_t *r = json_object_getn(v, k, n);
	free(k);
	return r;
}

bool jsonpath_index(long idx, size_t n, size_t *pos)
{
	if (idx < 0) {
		size_t back = (size_t)-(idx + 1) + 1;   /* no overflow at LONG_MIN */
		if (back > n)
			return false;
		*pos = n - back;
	} else {
		if ((size_t)idx >= n)
			return false;
		*pos = (size_t)idx;
	}
	return true;
}

static json_t *step_index(json_t *v, long idx)
{
	if (!json_is_array(v))
		return NULL;
	size_t i;
	if (!jsonpath_index(idx, json_array_size(v), &i))
		return NULL;
	return json_array_get(v, i);
}

json_t *jsonpath_get(json_t *root, const char *path)
{
	if (!root || !path || !*path)
		return NULL;
	const char *p = path, *err;
	json_t *v = root;
	struct jsonpath_seg s;
	int r;
	for (bool first = true; (r = jsonpath_next(&p, first, &s, &err)) > 0; first = false) {
		v = s.kind == JSONPATH_KEY ? step_key(v, &s) : step_index(v, s.index);
		if (!v)
			return NULL;
	}
	return r == 0 ? v : NULL;
}

void jsonpath_add_key(struct strbuf *sb, const char *k, size_t n)
{
	bool bare = n > 0;
	for (size_t i = 0; i < n && bare; i++) {
		unsigned char c = (unsigned char)k[i];
		bare = c > ' ' && c != 0x7f && c != '.' && c != '[' && c != ']' && c != '"' && c != '\'';
	}
	if (bare) {
		if (sb->len)
			strbuf_addch(sb, '.');
		strbuf_add(sb, k, n);
		return;
	}
	strbuf_addstr(sb, "[\"");
	for (size_t i = 0; i < n; i++) {
		if (k[i] == '"' || k[i] == '\\')
			strbuf_addch(sb, '\\');
		strbuf_addch(sb, k[i]);
	}
	strbuf_addstr(sb, "\"]");
}
