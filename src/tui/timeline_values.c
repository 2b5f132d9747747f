/* timeline_values.c - arguments and results as lines to read: JSON with keys and values apart, strings of several lines as their lines, diffs coloured, wrapped lines hanging under their value.
 *
 * Escaped JSON (`"new_str": "def f():\n    return 1\n"`) is how a program
 * stores code, not how a person reads it: a reviewer checks an edit, a
 * file written or a shell's output line by line, so such a string is
 * drawn as its lines. Everything else keeps the JSON's shape. */
#include "timeline_values.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <utf8proc.h>

#include "timeline_int.h"
#include "tui/lazytext.h"
#include "util/strbuf.h"
#include "util/wtext.h"
#include "util/xalloc.h"

/* tv_is_diff reads this far into a text. */
#define DIFF_LOOK ((size_t)64 << 10)
/* A result longer than this is not parsed as JSON: it is shown as text
 * (parsing and laying out megabytes at every relayout would be felt). */
#define JSON_TEXT_MAX ((size_t)1 << 20)
/* A key leaving its value fewer columns than this puts the value on the
 * lines below it. */
#define MIN_VALUE_COLS 16

/* ---- what the lines are ------------------------------------------------------ */

static bool starts(const char *s, size_t n, const char *p)
{
	size_t k = strlen(p);
	return n >= k && memcmp(s, p, k) == 0;
}

int tv_diff_slot(const char *s, size_t n)
{
	if (starts(s, n, "+++ ") || starts(s, n, "--- ") || starts(s, n, "*** ") ||
	    starts(s, n, "diff -") || starts(s, n, "index "))
		return SLOT_DIFF_FILE;
	if (starts(s, n, "@@"))
		return SLOT_DIFF_HUNK;
	if (n && s[0] == '+')
		return SLOT_DIFF_ADD;
	if (n && s[0] == '-')
		return SLOT_DIFF_DEL;
	return SLOT_DIFF_CONTEXT;
}

static bool hunk_header(const char *s, size_t n)
{
	return starts(s, n, "@@ -") && n > 4 && s[4] >= '0' && s[4] <= '9';
}

bool tv_is_diff(const char *s, size_t n)
{
	if (n > DIFF_LOOK)
		n = DIFF_LOOK;
	size_t i = 0;
	while (i < n && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t'))
		i++;
	if (starts(s + i, n - i, "*** Begin Patch"))
		return true;
	bool files = false, hunk = false, after_minus = false;
	size_t changes = 0;
	for (size_t a = 0; a < n;) {
		const char *nl = memchr(s + a, '\n', n - a);
		size_t e = nl ? (size_t)(nl - s) : n, len = e - a;
		const char *l = s + a;
		if (starts(l, len, "diff --git "))
			return true;
		if (after_minus && starts(l, len, "+++ "))
			files = true;
		after_minus = starts(l, len, "--- ");
		if (hunk_header(l, len))
			hunk = true;
		else if (hunk && len && (l[0] == '+' || l[0] == '-'))
			changes++;
		a = e + 1;
	}
	return hunk && (files || changes);
}

bool tv_multiline(const char *s, size_t n)
{
	return n > 1 && memchr(s, '\n', n - 1) != NULL;
}

json_t *tv_parse_json_text(const char *s, size_t n)
{
	size_t i = 0;
	while (i < n && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t'))
		i++;
	if (n > JSON_TEXT_MAX || i == n || (s[i] != '{' && s[i] != '['))
		return NULL;
	return json_loadb(s, n, 0, NULL);
}

static void emit_line(tv_emit *emit, void *ctx, int indent, const char *head, size_t hl, int hs,
                      const char *body, size_t bl, int bs)
{
	struct tv_line l = { .indent = indent, .head = head, .head_len = hl, .head_slot = hs,
	                     .body = body, .body_len = bl, .body_slot = bs };
	emit(ctx, &l);
}

/* A line of a diff in its slot: "--- " and "+++ " are file headers only
 * as a pair (else a removed "-- comment" would be one). */
static int diff_line_slot(const char *s, size_t n, size_t a, size_t len, size_t e, int prev)
{
	int slot = tv_diff_slot(s + a, len);
	if (slot == SLOT_DIFF_FILE && s[a] == '-' && (e + 1 >= n || !starts(s + e + 1, n - e - 1, "+++ ")))
		return SLOT_DIFF_DEL;
	if (slot == SLOT_DIFF_FILE && s[a] == '+' && prev != SLOT_DIFF_FILE)
		return SLOT_DIFF_ADD;
	return slot;
}

/* The lines of s; mark (0, '-', '+'): each after that marker, as removed
 * or added lines. */
static void text_lines(const char *s, size_t n, int indent, int slot, bool stable, char mark,
                       tv_emit *emit, void *ctx)
{
	if (n >= TV_LAZY_MIN) {
		struct tv_line l = { .indent = indent, .body = s, .body_len = n, .body_slot = slot,
		                     .block = true, .stable = stable };
		emit(ctx, &l);
		return;
	}
	bool diff = !mark && tv_is_diff(s, n);
	int prev = -1, mslot = mark == '-' ? SLOT_DIFF_DEL : SLOT_DIFF_ADD;
	for (size_t a = 0;;) {
		const char *nl = n > a ? memchr(s + a, '\n', n - a) : NULL;
		size_t e = nl ? (size_t)(nl - s) : n, len = e - a;
		if (len && s[a + len - 1] == '\r')          /* CRLF text: no ^M on every line */
			len--;
		int ls = slot;
		if (diff)
			prev = ls = diff_line_slot(s, n, a, len, e, prev);
		if (mark)
			emit_line(emit, ctx, indent, &mark, 1, mslot, s + a, len, mslot);
		else
			emit_line(emit, ctx, indent, NULL, 0, slot, s + a, len, ls);
		if (!nl || e + 1 == n)               /* a final newline ends the last line */
			break;
		a = e + 1;
	}
}

void tv_text(const char *s, size_t n, int indent, int slot, bool stable, tv_emit *emit, void *ctx)
{
	text_lines(s, n, indent, slot, stable, 0, emit, ctx);
}

struct json_out {
	tv_emit *emit;
	void *ctx;
};

/* Which replacement pair an object holds: its old and new keys. */
static const char *const pairs[][2] = {
	{ "old_string", "new_string" },
	{ "old_str", "new_str" },
};

static char pair_mark(const json_t *obj, const char *key)
{
	if (!json_string_length(json_object_get(obj, key)))
		return 0;               /* nothing replaced (a new file): "" as it is */
	for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
		if (!json_is_string(json_object_get(obj, pairs[i][0])) ||
		    !json_is_string(json_object_get(obj, pairs[i][1])))
			continue;
		if (!strcmp(key, pairs[i][0]))
			return '-';
		if (!strcmp(key, pairs[i][1]))
			return '+';
	}
	return 0;
}

static void member(struct json_out *o, const char *key, const json_t *v, int indent, bool last,
                   char mark);

/* An object's or array's members between its brackets. */
static void container(struct json_out *o, const json_t *v, int indent)
{
	size_t n = json_is_object(v) ? json_object_size(v) : json_array_size(v), k = 0;
	if (json_is_object(v)) {
		const char *key;
		json_t *m;
		json_object_foreach((json_t *)v, key, m) {
			member(o, key, m, indent, ++k == n, pair_mark(v, key));
		}
	} else {
		for (; k < n; k++)
			member(o, NULL, json_array_get(v, k), indent, k + 1 == n, 0);
	}
}

/* A scalar as JSON, but a string without escapes (it is one line: what
 * could not be drawn the screen makes visible itself). */
static int scalar_text(const json_t *v, struct strbuf *b)
{
	if (json_is_string(v)) {
		size_t n = json_string_length(v);
		const char *s = json_string_value(v);
		if (n && s[n - 1] == '\n')
			n--;
		strbuf_addch(b, '"');
		strbuf_add(b, s, n);
		strbuf_addch(b, '"');
		return SLOT_JSON_STRING;
	}
	if (json_is_real(v)) {
		/* The shortest digits that read back as the same number: a
		 * reader sees 2.2, not the 2.2000000000000002 of 17 digits. */
		double x = json_real_value(v);
		char num[40];
		for (int prec = 15; prec <= 17; prec++) {
			snprintf(num, sizeof num, "%.*g", prec, x);
			if (strtod(num, NULL) == x)
				break;
		}
		strbuf_addstr(b, num);
		if (!strpbrk(num, ".eEn"))      /* still a real: 2.0, not 2 (n: nan, inf) */
			strbuf_addstr(b, ".0");
		return SLOT_JSON_NUMBER;
	}
	char *d = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
	strbuf_addstr(b, d ? d : "");
	free(d);
	return json_is_object(v) || json_is_array(v) ? SLOT_JSON_VALUE : SLOT_JSON_NUMBER;
}

static void member(struct json_out *o, const char *key, const json_t *v, int indent, bool last,
                   char mark)
{
	struct strbuf head = STRBUF_INIT, body = STRBUF_INIT;
	if (key)
		strbuf_addf(&head, "\"%s\": ", key);
	bool str = json_is_string(v);
	bool lines = str && tv_multiline(json_string_value(v), json_string_length(v));
	if (str && mark && !lines && key) {      /* one line replaced: beside its key */
		strbuf_addch(&body, mark);
		strbuf_add(&body, json_string_value(v), json_string_length(v));
		if (body.len > 1 && body.buf[body.len - 1] == '\n')
			body.buf[--body.len] = '\0';
		emit_line(o->emit, o->ctx, indent, head.buf, head.len, SLOT_JSON_KEY, body.buf, body.len,
		          mark == '-' ? SLOT_DIFF_DEL : SLOT_DIFF_ADD);
	} else if (str && (mark || lines)) {
		int at = indent;
		if (key) {                          /* "key": alone, its lines below it */
			emit_line(o->emit, o->ctx, indent, head.buf, head.len - 1, SLOT_JSON_KEY, NULL, 0,
			          SLOT_JSON_STRING);
			at += 2;
		}
		text_lines(json_string_value(v), json_string_length(v), at, SLOT_JSON_STRING, false, mark,
		           o->emit, o->ctx);
	} else if ((json_is_object(v) && json_object_size(v)) || (json_is_array(v) && json_array_size(v))) {
		bool obj = json_is_object(v);
		emit_line(o->emit, o->ctx, indent, head.buf, head.len, SLOT_JSON_KEY, obj ? "{" : "[", 1,
		          SLOT_JSON_VALUE);
		container(o, v, indent + 2);
		strbuf_addstr(&body, obj ? "}" : "]");
		if (!last)
			strbuf_addch(&body, ',');
		emit_line(o->emit, o->ctx, indent, NULL, 0, SLOT_JSON_VALUE, body.buf, body.len,
		          SLOT_JSON_VALUE);
	} else {
		int slot = scalar_text(v, &body);
		if (!last)
			strbuf_addch(&body, ',');
		emit_line(o->emit, o->ctx, indent, head.buf, head.len, SLOT_JSON_KEY, body.buf, body.len,
		          slot);
	}
	strbuf_release(&head);
	strbuf_release(&body);
}

void tv_json(const json_t *v, int indent, tv_emit *emit, void *ctx)
{
	struct json_out o = { emit, ctx };
	member(&o, NULL, v, indent, true, 0);
}

/* The lines as one text, each indented, for a value too big to keep a
 * display line of its own per line. */
static void text_sink(void *ctx, const struct tv_line *l)
{
	struct strbuf *b = ctx;
	const char *s = l->body ? l->body : "";
	for (size_t a = 0;;) {
		const char *nl = l->block && l->body_len > a ? memchr(s + a, '\n', l->body_len - a) : NULL;
		size_t e = nl ? (size_t)(nl - s) : l->body_len;
		for (int i = 0; i < l->indent; i++)
			strbuf_addch(b, ' ');
		if (!a && l->head_len)
			strbuf_add(b, l->head, l->head_len);
		strbuf_add(b, s + a, e - a);
		strbuf_addch(b, '\n');
		if (!nl)
			break;
		a = e + 1;
	}
}

char *tv_json_text(const json_t *v)
{
	struct strbuf b = STRBUF_INIT;
	tv_json(v, 0, text_sink, &b);
	if (b.len)
		b.buf[--b.len] = '\0';     /* no newline after the last line */
	return b.buf ? b.buf : xstrdup("");
}

/* ---- the lines on the timeline -------------------------------------------------- */

/* Where logical lines go: the timeline entry, its indent and width, how
 * many lines may be shown (0: all) and how many there are. */
struct sink {
	struct tui *t;
	size_t e;
	int base, width;
	size_t max, shown, total;
	wchar_t *lead;              /* pending for the first line, NULL once drawn */
	size_t lead_len, lead_cols;
};

struct piece {
	const wchar_t *s;
	size_t n;
	int slot;
};

/* One display line of pieces, each in its slot (or only counted, past
 * the lines shown). */
static void add_row(struct sink *k, int indent, const struct piece *p, size_t np)
{
	k->total++;
	if (k->max && k->shown >= k->max)
		return;
	k->shown++;
	size_t len = 0;
	for (size_t i = 0; i < np; i++)
		len += p[i].n;
	struct tl_line *l = tl_add_seg(k->t, k->e, indent, SLOT_JSON_VALUE);
	l->text = xmalloc((len + 1) * sizeof(wchar_t));
	int cur = -1;
	for (size_t i = 0; i < np; i++) {
		if (!p[i].n)
			continue;
		if (cur < 0) {
			l->slot = p[i].slot;
		} else if (p[i].slot != cur) {
			l->spans = xrealloc(l->spans, (l->nspans + 1) * sizeof *l->spans);
			l->spans[l->nspans++] = (struct tl_span){ .at = l->len, .slot = p[i].slot };
		}
		cur = p[i].slot;
		memcpy(l->text + l->len, p[i].s, p[i].n * sizeof(wchar_t));
		l->len += p[i].n;
	}
	l->text[l->len] = 0;
}

/* The first row takes the lead, if it is still to be drawn. */
static void add_row_led(struct sink *k, int indent, struct piece *p, size_t np)
{
	if (!k->lead) {
		add_row(k, indent, p, np);
		return;
	}
	struct piece q[4] = { { k->lead, k->lead_len, SLOT_JSON_VALUE } };
	for (size_t i = 0; i < np && i < 3; i++)
		q[i + 1] = p[i];
	add_row(k, indent - (int)k->lead_cols, q, np + 1);
	free(k->lead);
	k->lead = NULL;
}

/* A text too long to split: wrapped lazily, in the rows that are left. */
static void add_block(struct sink *k, int indent, const struct tv_line *l)
{
	size_t room = k->max ? (k->shown < k->max ? k->max - k->shown : 0) : 0;
	if (k->max && !room) {
		int w = k->width - indent;
		struct lazytext *z = lazytext_new(NULL, l->body, l->body_len, false, (size_t)(w < 8 ? 8 : w));
		k->total += lazytext_count(z);
		lazytext_free(z);
		return;
	}
	const char *body = l->stable ? l->body : xstrndup(l->body, l->body_len);
	size_t n = tl_add_text_max(k->t, k->e, indent, l->body_slot, body, l->body_len, !l->stable,
	                           k->width, room);
	k->total += n;
	k->shown += room && n > room ? room : n;
}

/* Decoded characters as UTF-8 again (malloc'ed): decoding them gives the
 * same characters back, as what could not be drawn is already spelled
 * out in drawable ones. */
static char *wide_utf8(const wchar_t *s, size_t n)
{
	char *out = xmalloc(n * 4 + 1), *o = out;
	for (size_t i = 0; i < n; i++)
		o += utf8proc_encode_char((utf8proc_int32_t)s[i], (utf8proc_uint8_t *)o);
	*o = '\0';
	return out;
}

/* Where a text line's wrapped rest continues: two columns past its first
 * character after a diff's marker and the line's own indentation (at that
 * character itself, it would read as the next line of the code). */
static int text_hang(const struct tv_line *l)
{
	size_t i = 0;
	int col = 0;
	bool diff = l->body_slot >= SLOT_DIFF_ADD && l->body_slot <= SLOT_DIFF_FILE;
	if (diff && l->body_len && (l->body[0] == '+' || l->body[0] == '-' || l->body[0] == ' ')) {
		i = 1;
		col = 1;
	}
	for (; i < l->body_len && (l->body[i] == ' ' || l->body[i] == '\t'); i++)
		col = l->body[i] == '\t' ? (col / WTEXT_TABSTOP + 1) * WTEXT_TABSTOP : col + 1;
	return col + 2;
}

static void sink_line(void *ctx, const struct tv_line *l)
{
	struct sink *k = ctx;
	int indent = k->base + (int)k->lead_cols + l->indent;
	size_t hl = 0;
	wchar_t *hw = wtext_decode(l->head ? l->head : "", l->head_len, WTEXT_TABS, &hl);
	int hcols = (int)wtext_width(hw, hl);
	int avail = k->width - indent < 8 ? 8 : k->width - indent;
	/* A key too wide for its value: the value on the lines below it. */
	bool below = l->block || (hcols && avail - hcols < MIN_VALUE_COLS && l->body_len);
	if (below && hl) {
		struct piece h = { hw, hl, l->head_slot };
		add_row_led(k, indent, &h, 1);
	}
	int at = below ? indent + (hl ? 2 : 0) : indent + hcols;
	if (l->block) {
		add_block(k, at, l);
	} else {
		int cols = below ? avail - (hl ? 2 : 0) : avail - hcols;
		struct wtext_wrapped wr, rest = { 0 };
		wtext_wrap(&wr, l->body ? l->body : "", l->body_len, (size_t)(cols < 8 ? 8 : cols), WTEXT_TABS);
		int hang = !hl && wr.nlines > 1 ? text_hang(l) : 0;
		if (hang > cols / 3)
			hang = cols / 3;
		size_t n = wr.nlines;
		if (hang) {         /* a line that does not fit: its rest under its text */
			char *u = wide_utf8(wr.text + wr.lines[1].start, wr.len - wr.lines[1].start);
			wtext_wrap(&rest, u, strlen(u), (size_t)(cols - hang < 8 ? 8 : cols - hang), WTEXT_TABS);
			free(u);
			n = 1;
		}
		for (size_t i = 0; i < n; i++) {
			struct piece p[2] = { { hw, hl, l->head_slot },
			                      { wr.text + wr.lines[i].start, wr.lines[i].len, l->body_slot } };
			if (i == 0 && !below)
				add_row_led(k, indent, p, 2);
			else
				add_row_led(k, at, p + 1, 1);
		}
		for (size_t i = 0; hang && i < rest.nlines; i++) {
			struct piece p = { rest.text + rest.lines[i].start, rest.lines[i].len, l->body_slot };
			add_row_led(k, at + hang, &p, 1);
		}
		wtext_wrapped_free(&wr);
		if (hang)
			wtext_wrapped_free(&rest);
	}
	free(hw);
}

static void sink_start(struct sink *k, struct tui *t, size_t e, int indent, const char *lead,
                       int width, bool open, size_t max_lines)
{
	*k = (struct sink){ .t = t, .e = e, .base = indent, .width = width,
	                    .max = open || !max_lines ? 0 : max_lines + 1 };
	if (lead && *lead) {
		k->lead = wtext_decode(lead, strlen(lead), WTEXT_TABS, &k->lead_len);
		k->lead_cols = wtext_width(k->lead, k->lead_len);
	}
}

/* Takes back the last line shown. */
static void drop_last_row(struct sink *k)
{
	struct timeline_state *tl = &k->t->tl;
	struct tl_line *l = &tl->lines[tl->nsegs - 1];
	if (l->count > 1) {
		l->count--;
	} else {
		free(l->text);
		free(l->spans);
		lazytext_free(l->lazy);
		tl->nsegs--;
	}
	tl->nlines--;
	k->shown--;
}

/* "… N more lines" when some are folded away; one line more than the
 * fold is shown rather than a hint of one line (the sink lets it in). */
static bool sink_end(struct sink *k, size_t max_lines)
{
	free(k->lead);
	if (k->max && k->total > k->max)
		drop_last_row(k);
	if (k->shown < k->total) {
		char more[96];
		snprintf(more, sizeof more, "\xe2\x80\xa6 %zu more line%s (Enter in the timeline to unfold)",
		         k->total - k->shown, k->total - k->shown == 1 ? "" : "s");
		tl_add_text(k->t, k->e, k->base, SLOT_DIM, NULL, more, k->width);
	}
	return k->total > max_lines;
}

bool tl_value(struct tui *t, size_t e, int indent, const char *lead, const json_t *v, int width,
              bool open, size_t max_lines)
{
	struct sink k;
	sink_start(&k, t, e, indent, lead, width, open, max_lines);
	tv_json(v, 0, sink_line, &k);
	return sink_end(&k, max_lines);
}

bool tl_value_text(struct tui *t, size_t e, int indent, const char *lead, int slot, const char *s,
                   size_t n, bool stable, int width, bool open, size_t max_lines)
{
	if (n >= TV_LAZY_MIN)       /* as one lazy text, the lead its first characters */
		return tl_add_folded(t, e, indent, slot, lead, stable ? s : xstrndup(s, n), !stable, width,
		                     open, max_lines);
	struct sink k;
	sink_start(&k, t, e, indent, lead, width, open, max_lines);
	tv_text(s, n, 0, slot, stable, sink_line, &k);
	return sink_end(&k, max_lines);
}
