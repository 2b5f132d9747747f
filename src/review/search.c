/* search.c - finding a run by its text: ids, messages, tool names and arguments.
 *
 * Search reads raw record bytes and parses nothing, so it never stalls the
 * screen on a big input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "review/session.h"
#include "session_int.h"

#include "util/strbuf.h"
#include "util/xalloc.h"

/* ---- search ------------------------------------------------------------- */

static unsigned char lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

/* How often a byte turns up in a transcript, roughly: the search waits on
 * the rarest byte of the query, so common ones are not visited one by one. */
static int byte_weight(unsigned char c)
{
	static const unsigned char letters[26] = {
		82, 15, 28, 43, 127, 22, 20, 61, 70, 2, 8, 40, 24,
		67, 75, 19, 1, 60, 63, 91, 28, 10, 24, 2, 20, 1,
	};
	c = lower(c);
	if (c >= 'a' && c <= 'z')
		return letters[c - 'a'];
	if (c >= '0' && c <= '9')
		return 30;
	if (c == ' ' || c == '"')
		return 150;
	if (c == ':' || c == ',' || c == '{' || c == '}' || c == '\\')
		return 80;
	if (c >= 0x80)
		return 40;
	return 10;
}

struct needle {
	unsigned char *lo;      /* lower-cased */
	size_t len;
	size_t anchor;          /* its rarest byte */
};

static void needle_init(struct needle *nd, const char *s)
{
	nd->len = strlen(s);
	nd->lo = (unsigned char *)xstrdup(s);
	nd->anchor = 0;
	for (size_t i = 0; i < nd->len; i++) {
		nd->lo[i] = lower(nd->lo[i]);
		if (byte_weight(nd->lo[i]) < byte_weight(nd->lo[nd->anchor]))
			nd->anchor = i;
	}
}

static bool match_at(const unsigned char *h, const struct needle *nd)
{
	for (size_t i = 0; i < nd->len; i++)
		if (lower(h[i]) != nd->lo[i])
			return false;
	return true;
}

/* memmem, ignoring ASCII case: memchr for both cases of the anchor byte,
 * then a comparison where one turns up. */
static bool ci_contains(const unsigned char *h, size_t n, const struct needle *nd)
{
	size_t m = nd->len, a = nd->anchor;
	if (m == 0)
		return true;
	if (n < m)
		return false;
	unsigned char lo = nd->lo[a];
	unsigned char up = lo >= 'a' && lo <= 'z' ? (unsigned char)(lo - 32) : lo;
	const unsigned char *p = h + a, *end = h + (n - m) + a + 1;
	const unsigned char *pl = memchr(p, lo, (size_t)(end - p));
	const unsigned char *pu = up != lo ? memchr(p, up, (size_t)(end - p)) : NULL;
	while (pl || pu) {
		const unsigned char *c = !pu || (pl && pl < pu) ? pl : pu;
		if (match_at(c - a, nd))
			return true;
		if (c == pl)
			pl = c + 1 < end ? memchr(c + 1, lo, (size_t)(end - c - 1)) : NULL;
		else
			pu = c + 1 < end ? memchr(c + 1, up, (size_t)(end - c - 1)) : NULL;
	}
	return false;
}

/* The query as it appears inside a JSON string: quotes and backslashes
 * escaped, and with `ascii` every non-ASCII character as \uXXXX (how
 * Python's json.dumps writes Japanese text by default). */
static char *json_escaped(const char *s, bool ascii)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, "");
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		if (*p == '"' || *p == '\\') {
			strbuf_addch(&sb, '\\');
			strbuf_addch(&sb, (char)*p++);
		} else if (*p < 0x20) {
			strbuf_addf(&sb, "\\u%04x", (unsigned)*p++);
		} else if (*p < 0x80 || !ascii) {
			strbuf_addch(&sb, (char)*p++);
		} else {
			unsigned cp = 0;
			size_t len = *p >= 0xf0 ? 4 : *p >= 0xe0 ? 3 : *p >= 0xc0 ? 2 : 1;
			cp = len == 4 ? *p & 0x07u : len == 3 ? *p & 0x0fu : len == 2 ? *p & 0x1fu : *p;
			size_t k = 1;
			for (; k < len && (p[k] & 0xc0) == 0x80; k++)
				cp = (cp << 6) | (p[k] & 0x3fu);
			p += k;
			if (cp >= 0x10000) {
				cp -= 0x10000;
				strbuf_addf(&sb, "\\u%04x\\u%04x", 0xd800 + (cp >> 10), 0xdc00 + (cp & 0x3ff));
			} else {
				strbuf_addf(&sb, "\\u%04x", cp);
			}
		}
	}
	return strbuf_detach(&sb);
}

struct needles {
	struct needle v[4];
	size_t n;
};

static void needles_add(struct needles *ns, char *s)
{
	for (size_t i = 0; i < ns->n; i++)
		if (strlen(s) == ns->v[i].len && memcmp(s, ns->v[i].lo, ns->v[i].len) == 0) {
			free(s);
			return;
		}
	needle_init(&ns->v[ns->n++], s);
	free(s);
}

/* The query as typed, as written in a JSON string, as written in a JSON
 * string inside one (tool arguments are JSON text), and ASCII-escaped. */
static void needles_init(struct needles *ns, const char *q)
{
	ns->n = 0;
	char *lq = xstrdup(q);
	for (char *p = lq; *p; p++)
		*p = (char)lower((unsigned char)*p);
	char *e1 = json_escaped(lq, false);
	needles_add(ns, json_escaped(e1, false));
	needles_add(ns, json_escaped(lq, true));
	needles_add(ns, e1);
	needles_add(ns, lq);
}

static void needles_free(struct needles *ns)
{
	for (size_t i = 0; i < ns->n; i++)
		free(ns->v[i].lo);
}

static bool needles_in(const struct needles *ns, const void *h, size_t n)
{
	for (size_t i = 0; i < ns->n; i++)
		if (ci_contains(h, n, &ns->v[i]))
			return true;
	return false;
}

static bool entry_matches(const struct review *rv, size_t entry, const struct needles *ns)
{
	const struct review_entry *e = &rv->entries[entry];
	if (e->id && needles_in(ns, e->id, strlen(e->id)))
		return true;
	/* A JSONL line and a .json element alike are a byte range of the
	 * mapped file, searched where they lie. */
	const struct record_ref *rec = &rv->ds.recs[e->rec];
	const struct input_file *f = &rv->ds.files[rec->file];
	return f->data && needles_in(ns, f->data + rec->off, (size_t)rec->len);
}

void review_search_set(struct review *rv, const char *query)
{
	char *q = xstrdup(query);
	free(rv->search);
	rv->search = q;
}

bool review_search(struct review *rv, const char *query, int direction)
{
	if (query)
		review_search_set(rv, query);
	if (!rv->search || !rv->search[0])
		return false;
	review_view_fresh(rv);
	size_t n = rv->nview;
	if (n == 0)
		return false;
	struct needles ns;
	needles_init(&ns, rv->search);
	bool found = false;
	/* The run under the cursor is looked at last, after wrapping. */
	for (size_t k = 1; k <= n && !found; k++) {
		size_t pos = direction < 0 ? (rv->cursor + n - k % n) % n : (rv->cursor + k) % n;
		if (entry_matches(rv, rv->view[pos], &ns)) {
			rv->cursor = pos;
			found = true;
		}
	}
	needles_free(&ns);
	if (found)
		review_view_release(rv);
	return found;
}


