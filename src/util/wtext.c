/* wtext.c - decoding, measuring, cutting and wrapping text by columns. */
#include "util/wtext.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/textvis.h"
#include "util/xalloc.h"

_Static_assert(WCHAR_MAX >= 0x10FFFF, "wchar_t must hold every code point");

#define ZWJ 0x200D
#define ELLIPSIS 0x2026
#define NONE SIZE_MAX

struct wbuf {
	wchar_t *s;
	size_t len, cap;
	size_t col;                 /* columns since the last kept newline */
};

static void wbuf_put(struct wbuf *b, wchar_t c)
{
	if (b->len + 1 >= b->cap) {
		b->cap = b->cap ? b->cap * 2 : 64;
		b->s = xrealloc(b->s, b->cap * sizeof *b->s);
	}
	b->s[b->len++] = c;
	b->s[b->len] = L'\0';
}

/* Printable ASCII is one column in any locale; skipping wcwidth() for it
 * makes long texts wrap about twice as fast (the screen's longest work). */
static bool is_printable_ascii(uint32_t c)
{
	return c >= 0x20 && c < 0x7f;
}

static size_t char_width(wchar_t c)
{
	if (is_printable_ascii((uint32_t)c))
		return 1;
	int w = wcwidth(c);
	return w < 0 ? 1 : (size_t)w;
}

static void wbuf_put_ascii(struct wbuf *b, const char *s)
{
	for (; *s; s++) {
		wbuf_put(b, (wchar_t)(unsigned char)*s);
		b->col++;
	}
}

static void wbuf_put_char(struct wbuf *b, wchar_t c)
{
	wbuf_put(b, c);
	b->col += char_width(c);
}

/* Invisible characters that can change what a reader sees: bidirectional
 * overrides and isolates reorder text on terminals that do bidi ("Trojan
 * source"), and tag characters carry hidden text (prompt smuggling).
 * A reviewer must see them. */
static bool shown_as_code(uint32_t cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || (cp >= 0x202a && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069) || (cp >= 0xe0000 && cp <= 0xe007f);
}

static uint32_t utf8_decode(const unsigned char *p, size_t n)
{
	if (n == 1)
		return p[0];
	uint32_t cp = n == 2 ? (uint32_t)(p[0] & 0x1f) : n == 3 ? (uint32_t)(p[0] & 0x0f)
	            : (uint32_t)(p[0] & 0x07);
	for (size_t i = 1; i < n; i++)
		cp = (cp << 6) | (p[i] & 0x3f);
	return cp;
}

wchar_t *wtext_decode(const char *s, size_t len, unsigned flags, size_t *outlen)
{
	struct wbuf b = { NULL, 0, 0, 0 };
	const unsigned char *p = (const unsigned char *)s;
	char tmp[16];

	wbuf_put(&b, L'\0');        /* an empty text is still a string */
	b.len = 0;
	for (size_t i = 0; s && i < len;) {
		unsigned char c = p[i];
		if (c == '\n' && (flags & WTEXT_NEWLINES)) {
			wbuf_put(&b, L'\n');
			b.col = 0;
			i++;
			continue;
		}
		/* "\r\n" ends a line as "\n" does, and a "\r" that ends the text
		 * overwrites nothing: neither is shown. A "\r" with text after
		 * it on its line would overwrite that text on a terminal, so it
		 * stays visible (below) as ^M. */
		if (c == '\r' && (i + 1 == len || p[i + 1] == '\n')) {
			i++;
			continue;
		}
		if (c == '\t' && (flags & WTEXT_TABS)) {
			do
				wbuf_put_char(&b, L' ');
			while (b.col % WTEXT_TABSTOP);
			i++;
			continue;
		}
		if (c < 0x20 || c == 0x7f) {
			tmp[0] = '^';
			tmp[1] = c == 0x7f ? '?' : (char)(c + '@');
			tmp[2] = '\0';
			wbuf_put_ascii(&b, tmp);
			i++;
			continue;
		}
		size_t n = utf8_seq_len(s + i, len - i);
		if (n == 0) {
			wbuf_put_char(&b, 0xFFFD);
			i++;
			continue;
		}
		uint32_t cp = utf8_decode(p + i, n);
		i += n;
		if (is_printable_ascii(cp)) {
			wbuf_put(&b, (wchar_t)cp);
			b.col++;
		} else if (shown_as_code(cp)) {
			snprintf(tmp, sizeof tmp, "<U+%04X>", (unsigned)cp);
			wbuf_put_ascii(&b, tmp);
		} else if (wcwidth((wchar_t)cp) < 0) {
			wbuf_put_char(&b, 0xFFFD);
		} else {
			wbuf_put_char(&b, (wchar_t)cp);
		}
	}
	if (outlen)
		*outlen = b.len;
	return b.s;
}

size_t wtext_width(const wchar_t *s, size_t n)
{
	size_t w = 0;
	for (size_t i = 0; i < n; i++)
		w += char_width(s[i]);
	return w;
}

static bool is_regional(wchar_t c)
{
	return c >= 0x1F1E6 && c <= 0x1F1FF;
}

static bool is_skin_tone(wchar_t c)
{
	return c >= 0x1F3FB && c <= 0x1F3FF;
}

size_t wtext_cluster(const wchar_t *s, size_t n, size_t *width)
{
	if (n == 0) {
		if (width)
			*width = 0;
		return 0;
	}
	size_t i = 1, w = char_width(s[0]);
	bool flag_open = is_regional(s[0]);
	/* Lines and words end at '\n' and ' ', so nothing may swallow them. */
	while (i < n && s[i] != L'\n' && s[i] != L' ') {
		wchar_t c = s[i];
		bool join = s[i - 1] == ZWJ && i > 1;
		if (join || (!is_printable_ascii((uint32_t)c) && wcwidth(c) == 0) || is_skin_tone(c)) {
			;
		} else if (flag_open && is_regional(c)) {
			flag_open = false;
		} else {
			break;
		}
		w += char_width(c);
		i++;
	}
	if (width)
		*width = w;
	return i;
}

size_t wtext_fit(const wchar_t *s, size_t n, size_t cols, size_t *width)
{
	size_t i = 0, w = 0;
	while (i < n) {
		size_t cw, cl = wtext_cluster(s + i, n - i, &cw);
		if (w + cw > cols)
			break;
		w += cw;
		i += cl;
	}
	if (width)
		*width = w;
	return i;
}

size_t wtext_truncate(wchar_t *s, size_t n, size_t cols, bool ellipsis, size_t *width)
{
	size_t w;
	size_t k = wtext_fit(s, n, cols, &w);
	if (k < n && ellipsis && cols > 0) {
		k = wtext_fit(s, n, cols - 1, &w);
		s[k++] = ELLIPSIS;
		w += char_width(ELLIPSIS);
	}
	s[k] = L'\0';
	if (width)
		*width = w;
	return k;
}

size_t wtext_cut_middle(wchar_t *s, size_t n, size_t cols, size_t *width)
{
	size_t total = wtext_width(s, n);
	if (total <= cols || cols < 3)
		return wtext_truncate(s, n, cols, true, width);
	/* The end is what tells runs of one benchmark apart (the task, the
	 * trial, the line): it gets the larger share. */
	size_t head_w, head = wtext_fit(s, n, (cols - 1) * 2 / 5, &head_w);
	size_t tail_cols = cols - 1 - head_w;       /* a wide character's spare column too */
	/* The tail starts at the first cluster boundary after the head from
	 * which what is left fits. */
	size_t at = head, left = total - head_w;
	while (at < n && left > tail_cols) {
		size_t cw, len = wtext_cluster(s + at, n - at, &cw);
		at += len;
		left -= cw;
	}
	s[head] = ELLIPSIS;
	memmove(s + head + 1, s + at, (n - at) * sizeof *s);
	size_t k = head + 1 + (n - at);
	s[k] = L'\0';
	if (width)
		*width = head_w + char_width(ELLIPSIS) + left;
	return k;
}

/* ---- wrapping ------------------------------------------------------------ */

static void span_add(struct wtext_wrapped *w, size_t *cap, size_t start, size_t end, size_t width)
{
	if (w->nlines == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		w->lines = xrealloc(w->lines, *cap * sizeof *w->lines);
	}
	w->lines[w->nlines].start = start;
	w->lines[w->nlines].len = end - start;
	w->lines[w->nlines].width = width;
	w->nlines++;
}

/* Width of the word at i: one wide cluster, or the run of narrow clusters
 * up to a space or a wide one. Stops counting past `limit`. */
static size_t word_width(const wchar_t *s, size_t i, size_t end, size_t limit)
{
	size_t w = 0;
	while (i < end && s[i] != L' ') {
		size_t cw, cl = wtext_cluster(s + i, end - i, &cw);
		if (cw >= 2 && w > 0)
			break;
		w += cw;
		i += cl;
		if (cw >= 2 || w > limit)
			break;
	}
	return w;
}

/* Wraps the newline-free text s[a..b) greedily. */
/* Japanese and Chinese line breaking, loosely: closing punctuation never
 * starts a line and an opening bracket never ends one. */
static bool no_line_start(wchar_t c)
{
	return c && wcschr(L"、。，．・：；？！）」』】》〉〕］｝…‥ー〜", c) != NULL;
}

static bool no_line_end(wchar_t c)
{
	return c && wcschr(L"（「『【《〈〔［｛", c) != NULL;
}

static void wrap_line(struct wtext_wrapped *out, size_t *cap, size_t a, size_t b, size_t cols)
{
	const wchar_t *s = out->text;
	size_t pos = a;
	bool first = true;
	while (first || pos < b) {
		first = false;
		size_t start = pos, i = pos, w = 0;
		size_t brk = NONE, brk_w = 0, brk_next = 0;
		bool prev_wide = false, prev_space = false;
		for (;;) {
			if (i == b) {
				span_add(out, cap, start, b, w);
				pos = b;
				break;
			}
			size_t cw, cl = wtext_cluster(s + i, b - i, &cw);
			bool space = s[i] == L' ';
			/* Break opportunities: before a run of spaces (the run goes
			 * to neither line) and on either side of a wide character. */
			if (i > start && space && !prev_space) {
				size_t j = i;
				while (j < b && s[j] == L' ')
					j++;
				brk = i, brk_w = w, brk_next = j;
			} else if (i > start && !space && !prev_space && (cw >= 2 || prev_wide) &&
			           !no_line_start(s[i]) && !no_line_end(s[i - 1])) {
				brk = i, brk_w = w, brk_next = i;
			}
			if (w + cw > cols) {
				if (brk != NONE && brk > start &&
				    (space || word_width(s, brk_next, b, cols) <= cols)) {
					span_add(out, cap, start, brk, brk_w);
					pos = brk_next;
				} else if (space) {
					/* Indentation wider than the line. */
					span_add(out, cap, start, i, w);
					while (i < b && s[i] == L' ')
						i++;
					pos = i;
				} else if (i > start) {
					span_add(out, cap, start, i, w);
					pos = i;
				} else {
					span_add(out, cap, i, i + cl, cw);
					pos = i + cl;
				}
				break;
			}
			w += cw;
			i += cl;
			prev_wide = cw >= 2;
			prev_space = space;
		}
	}
}

void wtext_wrap(struct wtext_wrapped *w, const char *s, size_t len, size_t cols,
                unsigned flags)
{
	size_t cap = 0;
	memset(w, 0, sizeof *w);
	if (cols == 0)
		cols = 1;
	w->text = wtext_decode(s, len, flags | WTEXT_NEWLINES, &w->len);
	size_t a = 0;
	for (size_t i = 0; i <= w->len; i++) {
		if (i == w->len || w->text[i] == L'\n') {
			wrap_line(w, &cap, a, i, cols);
			a = i + 1;
		}
	}
}

void wtext_wrapped_free(struct wtext_wrapped *w)
{
	if (!w)
		return;
	free(w->text);
	free(w->lines);
	memset(w, 0, sizeof *w);
}
