/* jdoc.c - records as flat tapes: parsing around the simdjson walker,
 * error messages, and the accessors of util/jdoc.h.
 *
 * The walker itself is C++ (jdoc_parse.cc); what is here decides where
 * the bytes are parsed (in place, or copied with padding), repairs broken
 * UTF-8, words errors as jansson words them, and reads the tape. */
#include "util/jdoc.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jdoc_int.h"
#include "util/jsonpath.h"
#include "util/textvis.h"
#include "util/xalloc.h"

/* ---- parsing ---------------------------------------------------------- */

static void set_error(struct jdoc_error *err, const char *text, int line, int column, size_t position)
{
	if (!err)
		return;
	snprintf(err->text, sizeof err->text, "%s", text);
	err->line = line;
	err->column = column;
	err->position = position;
}

/* Line and column of byte pos, counted as jansson counts them: columns in
 * characters (bytes that do not continue a UTF-8 sequence). */
static void locate(const char *s, size_t pos, int *line, int *column)
{
	int l = 1, c = 0;
	for (size_t i = 0; i < pos; i++) {
		if (s[i] == '\n') {
			l++;
			c = 0;
		} else if (((unsigned char)s[i] & 0xc0) != 0x80) {
			c++;
		}
	}
	*line = l;
	*column = c + 1;
}

/* The error for bytes the walker refused: jansson's own words and place
 * when jansson refuses them too (what the program always printed), else
 * simdjson's words at the place the walker stopped. */
static void explain(const char *buf, size_t len, const char *msg, size_t pos, struct jdoc_error *err)
{
	if (!err)
		return;
	json_error_t jerr;
	json_t *v = json_loadb(buf, len, JSON_DECODE_ANY | JSON_ALLOW_NUL, &jerr);
	if (!v) {
		set_error(err, jerr.text, jerr.line, jerr.column, (size_t)jerr.position);
		return;
	}
	json_decref(v);
	int line, column;
	if (pos > len)
		pos = len;
	locate(buf, pos, &line, &column);
	set_error(err, msg, line, column, pos);
}

/* Each invalid UTF-8 sequence replaced by U+FFFD, byte by byte, into a
 * buffer with room for the padding after it. */
static char *utf8_repair(const char *s, size_t n, size_t *outlen)
{
	size_t cap = n + n / 2 + 16 + JDOC_PADDING, o = 0;
	char *out = xrealloc(NULL, cap);
	for (size_t i = 0; i < n;) {
		if (o + 4 + JDOC_PADDING > cap) {
			cap *= 2;
			out = xrealloc(out, cap);
		}
		unsigned char c = (unsigned char)s[i];
		size_t len = c < 0x80 ? 1 : utf8_seq_len(s + i, n - i);
		if (len) {
			memcpy(out + o, s + i, len);
			o += len;
			i += len;
		} else {
			memcpy(out + o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
		}
	}
	out = xrealloc(out, o + JDOC_PADDING);  /* exact, as jdoc_bytes counts it */
	memset(out + o, 0, JDOC_PADDING);
	*outlen = o;
	return out;
}

static char *padded_copy(const char *text, size_t len)
{
	char *p = xrealloc(NULL, len + JDOC_PADDING);
	memcpy(p, text, len);
	memset(p + len, 0, JDOC_PADDING);
	return p;
}

struct jdoc *jdoc_parse(const char *text, size_t len, size_t readable, struct jdoc_error *err)
{
	/* Offsets on the tape are 32-bit. */
	if (len > (size_t)UINT32_MAX - JDOC_PADDING) {
		set_error(err, "record too large (4 GiB or more)", 1, 1, 0);
		return NULL;
	}
	struct jdoc *d = xcalloc(1, sizeof *d);
	const char *buf = text;
	if (readable < len + JDOC_PADDING)
		buf = d->own_src = padded_copy(text, len);
	char msg[160];
	size_t pos;
	enum jdoc_fill_status st = jdoc_fill(d, buf, len, len + JDOC_PADDING, msg, sizeof msg, &pos);
	if (st == JDOC_FILL_UTF8) {
		size_t n;
		char *fixed = utf8_repair(buf, len, &n);
		free(d->own_src);
		d->own_src = fixed;
		buf = fixed;
		len = n;
		d->repaired = true;
		if (len > (size_t)UINT32_MAX - JDOC_PADDING) {
			set_error(err, "record too large (4 GiB or more)", 1, 1, 0);
			jdoc_free(d);
			return NULL;
		}
		st = jdoc_fill(d, buf, len, len + JDOC_PADDING, msg, sizeof msg, &pos);
		if (st == JDOC_FILL_UTF8) {     /* cannot happen: the repair leaves valid UTF-8 */
			snprintf(msg, sizeof msg, "invalid UTF-8");
			st = JDOC_FILL_ERROR;
		}
	}
	if (st == JDOC_FILL_NOMEM) {
		/* No second opinion from jansson here: it would need more memory
		 * still for the same bytes (under a memory limit, a 100 MB record
		 * made it grind for half a minute, then crash). */
		char why[200];
		snprintf(why, sizeof why, "%s (a record of %zu MB)", msg, len >> 20);
		set_error(err, why, 1, 1, 0);
		jdoc_free(d);
		return NULL;
	}
	if (st != JDOC_FILL_OK) {
		explain(buf, len, msg, pos, err);
		jdoc_free(d);
		return NULL;
	}
	d->src = buf;
	d->src_len = len;
	return d;
}

struct jdoc *jdoc_parse_str(const char *text, struct jdoc_error *err)
{
	size_t len = strlen(text);
	return jdoc_parse(text, len, len + 1, err);
}

struct jdoc *jdoc_from_json(const json_t *v)
{
	if (!v)
		return NULL;
	char *text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
	if (!text)
		return NULL;
	size_t len = strlen(text);
	char *own = padded_copy(text, len);
	free(text);
	struct jdoc *d = jdoc_parse(own, len, len + JDOC_PADDING, NULL);
	if (d && !d->own_src)
		d->own_src = own;       /* parsed in place: the document keeps it */
	else
		free(own);              /* refused, or repaired into a copy of its own */
	return d;
}

void jdoc_free(struct jdoc *d)
{
	if (!d)
		return;
	free(d->nodes);
	free(d->strings);
	free(d->own_src);
	for (size_t i = 0; i < d->nretired; i++)
		free(d->retired[i]);
	free(d->retired);
	free(d);
}

size_t jdoc_bytes(const struct jdoc *d)
{
	if (!d)
		return 0;
	/* retired buffers: each at most half the next, so together under one */
	return sizeof *d + (size_t)d->nodes_cap * sizeof *d->nodes + d->strings_cap +
	       (d->nretired ? d->strings_cap : 0) +
	       (d->own_src ? d->src_len + JDOC_PADDING : 0);
}

/* ---- grafts ------------------------------------------------------------ */

/* Room for n more bytes of strings. A new buffer is taken rather than
 * the old one grown, because loaders hold pointers into the old one. */
static void graft_room(struct jdoc *d, size_t n)
{
	if (d->strings_len + n <= d->strings_cap)
		return;
	size_t cap = d->strings_cap * 2;
	if (cap < d->strings_len + n)
		cap = d->strings_len + n;
	char *s = xrealloc(NULL, cap);
	memcpy(s, d->strings, d->strings_len);
	d->retired = xrealloc(d->retired, (d->nretired + 1) * sizeof *d->retired);
	d->retired[d->nretired++] = d->strings;
	d->strings = s;
	d->strings_cap = cap;
}

jv jdoc_graft(struct jdoc *d, jv str)
{
	if (!jv_is_string(d, str))
		return JV_NONE;
	struct jdoc *t = jdoc_parse(jv_str(d, str), jv_strlen(d, str), 0, NULL);
	if (!t)
		return JV_NONE;
	if ((uint64_t)d->nnodes + t->nnodes >= UINT32_MAX ||
	    (uint64_t)d->strings_len + t->strings_len >= UINT32_MAX) {
		jdoc_free(t);
		return JV_NONE;
	}
	graft_room(d, t->strings_len);
	uint32_t base = d->nnodes, sbase = (uint32_t)d->strings_len;
	memcpy(d->strings + d->strings_len, t->strings, t->strings_len);
	d->strings_len += t->strings_len;
	if (d->nnodes + t->nnodes > d->nodes_cap) {
		d->nodes_cap = d->nnodes + t->nnodes;
		d->nodes = xrealloc(d->nodes, (size_t)d->nodes_cap * sizeof *d->nodes);
	}
	for (uint32_t i = 0; i < t->nnodes; i++) {
		struct jdoc_node n = t->nodes[i];
		n.end += base;
		if (n.type == JV_STRING || n.type == JV_NUMBER)
			n.text += sbase;
		n.src = d->nodes[str].src;
		n.src_len = d->nodes[str].src_len;
		d->nodes[base + i] = n;
	}
	d->nnodes += t->nnodes;
	jdoc_free(t);
	return base;
}

/* ---- scalars ---------------------------------------------------------- */

bool jv_streq(const struct jdoc *d, jv v, const char *s)
{
	if (!jv_is_string(d, v) || !s)
		return false;
	size_t n = strlen(s);
	return d->nodes[v].count == n && !memcmp(d->strings + d->nodes[v].text, s, n);
}

/* An integer's text, exact within int64_t (the flag JVF_INT64 promises). */
static int64_t text_int(const char *s)
{
	bool neg = *s == '-';
	if (neg)
		s++;
	uint64_t u = 0;
	while (*s >= '0' && *s <= '9')
		u = u * 10 + (uint64_t)(*s++ - '0');
	if (neg)
		return u > (uint64_t)INT64_MAX ? INT64_MIN : -(int64_t)u;
	return (int64_t)u;
}

double jv_real(const struct jdoc *d, jv v)
{
	if (!jv_is_number(d, v))
		return 0;
	const struct jdoc_node *n = &d->nodes[v];
	const char *t = d->strings + n->text;
	/* Small integers convert exactly without the general routine. */
	if ((n->flags & JVF_INT64) && n->count <= 15)
		return (double)text_int(t);
	return jdoc_text_real(t, n->count);
}

int64_t jv_int(const struct jdoc *d, jv v)
{
	if (!jv_is_number(d, v))
		return 0;
	const struct jdoc_node *n = &d->nodes[v];
	if (n->flags & JVF_INT64)
		return text_int(d->strings + n->text);
	double r = jv_real(d, v);
	if (r >= 9223372036854775807.0)
		return INT64_MAX;
	if (r <= -9223372036854775808.0)
		return INT64_MIN;
	return (int64_t)r;
}

bool jv_truthy(const struct jdoc *d, jv v)
{
	switch (jv_type(d, v)) {
	case JV_TRUE:
	case JV_ARRAY:
	case JV_OBJECT:
		return true;
	case JV_NUMBER:
		return jv_real(d, v) != 0;
	case JV_STRING:
		return d->nodes[v].count != 0;
	default:
		return false;
	}
}

/* As JavaScript holds them: doubles (so 2^53 + 1 equals 2^53, as
 * JSON.parse reads them, and as the loaders compared ids before). */
static bool number_equal(const struct jdoc *a, jv va, const struct jdoc *b, jv vb)
{
	return jv_real(a, va) == jv_real(b, vb);
}

static bool key_equal(const struct jdoc *a, jv ka, const struct jdoc *b, jv kb)
{
	return a->nodes[ka].count == b->nodes[kb].count &&
	       !memcmp(a->strings + a->nodes[ka].text, b->strings + b->nodes[kb].text, a->nodes[ka].count);
}

static bool object_equal(const struct jdoc *a, jv va, const struct jdoc *b, jv vb)
{
	/* The common case first: the same keys in the same order. */
	if (jv_len(a, va) == jv_len(b, vb)) {
		jv ka = jv_first(a, va), kb = jv_first(b, vb);
		while (ka != JV_NONE && key_equal(a, ka, b, kb) &&
		       jv_equal(a, jv_value(ka), b, jv_value(kb))) {
			ka = jv_next_key(a, va, ka);
			kb = jv_next_key(b, vb, kb);
		}
		if (ka == JV_NONE)
			return true;
	}
	/* Otherwise as maps, where a repeated key means its last value. */
	JV_EACH_KEY(a, va, ka) {
		const char *k = a->strings + a->nodes[ka].text;
		size_t kl = a->nodes[ka].count;
		if (jv_getn(a, va, k, kl) != jv_value(ka))
			continue;
		jv other = jv_getn(b, vb, k, kl);
		if (other == JV_NONE || !jv_equal(a, jv_value(ka), b, other))
			return false;
	}
	JV_EACH_KEY(b, vb, kb) {
		if (jv_getn(a, va, b->strings + b->nodes[kb].text, b->nodes[kb].count) == JV_NONE)
			return false;
	}
	return true;
}

bool jv_equal(const struct jdoc *a, jv va, const struct jdoc *b, jv vb)
{
	enum jv_type t = jv_type(a, va);
	if (t != jv_type(b, vb))
		return false;
	switch (t) {
	case JV_MISSING:
	case JV_NULL:
	case JV_FALSE:
	case JV_TRUE:
		return true;
	case JV_NUMBER:
		return number_equal(a, va, b, vb);
	case JV_STRING:
		return key_equal(a, va, b, vb);
	case JV_ARRAY: {
		if (jv_len(a, va) != jv_len(b, vb))
			return false;
		jv eb = jv_first(b, vb);
		JV_EACH(a, va, ea) {
			if (!jv_equal(a, ea, b, eb))
				return false;
			eb = jv_next(b, vb, eb);
		}
		return true;
	}
	case JV_OBJECT:
		return object_equal(a, va, b, vb);
	}
	return false;
}

/* ---- containers --------------------------------------------------------- */

jv jv_at(const struct jdoc *d, jv arr, long i)
{
	if (!jv_is_array(d, arr))
		return JV_NONE;
	size_t k;
	if (!jsonpath_index(i, d->nodes[arr].count, &k))
		return JV_NONE;
	jv e = arr + 1;
	while (k--)
		e = d->nodes[e].end;
	return e;
}

jv jv_getn(const struct jdoc *d, jv obj, const char *key, size_t keylen)
{
	jv found = JV_NONE;
	JV_EACH_KEY(d, obj, k) {
		const struct jdoc_node *n = &d->nodes[k];
		if (n->count == keylen && !memcmp(d->strings + n->text, key, keylen))
			found = jv_value(k);
	}
	return found;
}

jv jv_get(const struct jdoc *d, jv obj, const char *key)
{
	return key ? jv_getn(d, obj, key, strlen(key)) : JV_NONE;
}

jv jv_path(const struct jdoc *d, jv root, const char *path)
{
	if (root == JV_NONE || !path || !*path)
		return JV_NONE;
	const char *p = path, *err;
	jv v = root;
	struct jsonpath_seg s;
	int r;
	for (bool first = true; (r = jsonpath_next(&p, first, &s, &err)) > 0; first = false) {
		if (s.kind == JSONPATH_INDEX) {
			v = jv_at(d, v, s.index);
		} else if (!s.escaped) {
			v = jv_getn(d, v, s.key, s.keylen);
		} else {
			char small[128];
			char *k = s.keylen < sizeof small ? small : xrealloc(NULL, s.keylen + 1);
			size_t n = jsonpath_unescape(&s, k);
			v = jv_getn(d, v, k, n);
			if (k != small)
				free(k);
		}
		if (v == JV_NONE)
			return JV_NONE;
	}
	return r == 0 ? v : JV_NONE;
}

/* ---- the record's text, and trees ---------------------------------------- */

const char *jv_raw(const struct jdoc *d, jv v, size_t *len)
{
	if (v == JV_NONE || !d) {
		if (len)
			*len = 0;
		return NULL;
	}
	if (len)
		*len = d->nodes[v].src_len;
	return d->src + d->nodes[v].src;
}

static json_t *number_json(const struct jdoc *d, jv v)
{
	const struct jdoc_node *n = &d->nodes[v];
	if (n->flags & JVF_INT64)
		return json_integer((json_int_t)text_int(d->strings + n->text));
	if (n->flags & JVF_RANGE)
		return json_real(d->strings[n->text] == '-' ? -DBL_MAX : DBL_MAX);
	return json_real(jv_real(d, v));
}

json_t *jv_to_json(const struct jdoc *d, jv v)
{
	switch (jv_type(d, v)) {
	case JV_MISSING:
		return NULL;
	case JV_NULL:
		return json_null();
	case JV_FALSE:
		return json_false();
	case JV_TRUE:
		return json_true();
	case JV_NUMBER:
		return number_json(d, v);
	case JV_STRING:
		return json_stringn_nocheck(d->strings + d->nodes[v].text, d->nodes[v].count);
	case JV_ARRAY: {
		json_t *a = json_array();
		JV_EACH(d, v, e)
			json_array_append_new(a, jv_to_json(d, e));
		return a;
	}
	case JV_OBJECT: {
		/* setn keeps keys holding NULs whole and, like json_loadb, lets a
		 * repeated key's last value win in the first one's place. */
		json_t *o = json_object();
		JV_EACH_KEY(d, v, k)
			json_object_setn_new_nocheck(o, d->strings + d->nodes[k].text, d->nodes[k].count,
			                             jv_to_json(d, jv_value(k)));
		return o;
	}
	}
	return NULL;
}
