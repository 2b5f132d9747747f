/* wtext.c - decoding, measuring, cutting and wrapping text by columns. */
#include "util/wtext.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "util/textvis.h"
#include "util/xalloc.h"

_Static_assert(WCHAR_MAX >= 0x10FFFF, "wchar_t must hold every code point");

#define VS16 0xFE0F
#define ZWJ 0x200D
#define ELLIPSIS 0x2026         /* East Asian Width "ambiguous": 1 column here */
#define NONE SIZE_MAX
/* Below this code point nothing joins a cluster (the first combining
 * marks, U+0300, are the first Extend characters). */
#define FIRST_JOINER 0x300

struct wbuf {
	wchar_t *s;
	size_t len, cap;
	size_t col;                 /* width of s[.. measured) since the last kept newline */
	size_t measured;
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

/* Printable ASCII is one column in any locale and never joins what
 * follows unless a combining mark does; skipping the Unicode tables for
 * it keeps long texts wrapping fast (the screen's longest work). */
static bool is_printable_ascii(uint32_t c)
{
	return c >= 0x20 && c < 0x7f;
}

/* The cells curses gives c: mvwaddnwstr asks wcwidth() of each character
 * and puts a zero-width one in the cell before. */
static size_t curses_cells(wchar_t c)
{
	int w = wcwidth(c);
	return w < 0 ? 1 : (size_t)w;
}

static void wbuf_put_ascii(struct wbuf *b, const char *s)
{
	for (; *s; s++)
		wbuf_put(b, (wchar_t)(unsigned char)*s);
}

/* A tab reaches the next tab stop after what its line already holds,
 * measured by clusters as the screen measures it. */
static void wbuf_put_tab(struct wbuf *b)
{
	b->col += wtext_width(b->s + b->measured, b->len - b->measured);
	do {
		wbuf_put(b, L' ');
		b->col++;
	} while (b->col % WTEXT_TABSTOP);
	b->measured = b->len;
}

/* What cannot be drawn: unassigned code points and noncharacters, the
 * line and paragraph separators (a terminal would break the line), and
 * what the C library does not know yet (Unicode newer than its tables):
 * curses could not give it a width. */
static bool undrawable(uint32_t cp)
{
	utf8proc_category_t cat = utf8proc_category((utf8proc_int32_t)cp);
	return cat == UTF8PROC_CATEGORY_CN || cat == UTF8PROC_CATEGORY_CS ||
	       cat == UTF8PROC_CATEGORY_ZL || cat == UTF8PROC_CATEGORY_ZP ||
	       wcwidth((wchar_t)cp) < 0;
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

/* Puts the code point (or what shows it) that starts at p[i]; returns
 * the bytes it took. */
static size_t put_decoded(struct wbuf *b, const unsigned char *p, size_t len)
{
	char tmp[16];
	size_t n = utf8_seq_len((const char *)p, len);
	if (n == 0) {
		wbuf_put(b, 0xFFFD);
		return 1;
	}
	uint32_t cp = utf8_decode(p, n);
	if (is_printable_ascii(cp)) {
		wbuf_put(b, (wchar_t)cp);
	} else if (textvis_spelled_out(cp)) {
		snprintf(tmp, sizeof tmp, "<U+%04X>", (unsigned)cp);
		wbuf_put_ascii(b, tmp);
	} else if (undrawable(cp)) {
		wbuf_put(b, 0xFFFD);
	} else {
		wbuf_put(b, (wchar_t)cp);
	}
	return n;
}

wchar_t *wtext_decode(const char *s, size_t len, unsigned flags, size_t *outlen)
{
	struct wbuf b = { NULL, 0, 0, 0, 0 };
	const unsigned char *p = (const unsigned char *)s;
	char tmp[4];

	wbuf_put(&b, L'\0');        /* an empty text is still a string */
	b.len = 0;
	for (size_t i = 0; s && i < len;) {
		unsigned char c = p[i];
		if (is_printable_ascii(c)) {
			wbuf_put(&b, (wchar_t)c);
			i++;
		} else if (c == '\n' && (flags & WTEXT_NEWLINES)) {
			wbuf_put(&b, L'\n');
			b.col = 0;
			b.measured = b.len;
			i++;
		} else if (c == '\r' && (i + 1 == len || p[i + 1] == '\n')) {
			/* "\r\n" ends a line as "\n" does, and a "\r" that ends
			 * the text overwrites nothing: neither is shown. A "\r"
			 * with text after it on its line would overwrite that
			 * text on a terminal, so it stays visible (below) as ^M. */
			i++;
		} else if (c == '\t' && (flags & WTEXT_TABS)) {
			wbuf_put_tab(&b);
			i++;
		} else if (c < 0x20 || c == 0x7f) {
			tmp[0] = '^';
			tmp[1] = c == 0x7f ? '?' : (char)(c + '@');
			tmp[2] = '\0';
			wbuf_put_ascii(&b, tmp);
			i++;
		} else {
			i += put_decoded(&b, p + i, len - i);
		}
	}
	if (outlen)
		*outlen = b.len;
	return b.s;
}

/* ---- clusters ------------------------------------------------------------ */

/* A base that VS16 turns into a colour emoji: an emoji proper, or a keycap
 * digit, '#' or '*'. */
static bool is_regional(wchar_t c)
{
	return c >= 0x1F1E6 && c <= 0x1F1FF;
}

static bool emoji_base(wchar_t c)
{
	if ((c >= L'0' && c <= L'9') || c == L'#' || c == L'*')
		return true;
	int bc = utf8proc_get_property((utf8proc_int32_t)c)->boundclass;
	return bc == UTF8PROC_BOUNDCLASS_EXTENDED_PICTOGRAPHIC || bc == UTF8PROC_BOUNDCLASS_E_ZWG;
}

/* The cluster s[0..n)'s width: the larger of what a terminal that draws
 * clusters shows (its first character with a width, 2 for an emoji
 * presentation) and what curses counts (see the header for why). */
static size_t cluster_width(const wchar_t *s, size_t n)
{
	size_t cells = 0, drawn = 0;
	for (size_t i = 0; i < n; i++) {
		cells += curses_cells(s[i]);
		if (drawn == 0)
			drawn = (size_t)utf8proc_get_property((utf8proc_int32_t)s[i])->charwidth;
		if (s[i] == VS16 && i > 0 && emoji_base(s[0]) && drawn < 2)
			drawn = 2;
	}
	return cells > drawn ? cells : drawn;
}

/* Whether next, below FIRST_JOINER, cannot join a: only a Prepend
 * character (an Arabic number sign) takes what follows, and a ZWJ an
 * emoji (© and ® are ones). */
static bool stands_alone(wchar_t a, wchar_t next)
{
	if ((uint32_t)next >= FIRST_JOINER || a == ZWJ)
		return false;
	return is_printable_ascii((uint32_t)a) ||
	       utf8proc_get_property((utf8proc_int32_t)a)->boundclass != UTF8PROC_BOUNDCLASS_PREPEND;
}

size_t wtext_cluster(const wchar_t *s, size_t n, size_t *width)
{
	size_t i = 1, w;
	if (n == 0) {
		i = w = 0;
	} else if (is_printable_ascii((uint32_t)s[0]) && (n == 1 || (uint32_t)s[1] < FIRST_JOINER)) {
		w = 1;
	} else {
		/* Lines and words end at '\n' and ' ', so nothing may swallow
		 * them (a space still carries the marks that follow it). */
		utf8proc_int32_t state = 0;
		while (i < n && s[i] != L'\n' && s[i] != L' ' && !stands_alone(s[i - 1], s[i]) &&
		       !utf8proc_grapheme_break_stateful((utf8proc_int32_t)s[i - 1],
		                                         (utf8proc_int32_t)s[i], &state))
			i++;
		w = cluster_width(s, i);
	}
	if (width)
		*width = w;
	return i;
}

size_t wtext_str_width(const char *s)
{
	size_t n;
	wchar_t *w = wtext_decode(s, strlen(s), 0, &n);
	size_t width = wtext_width(w, n);
	free(w);
	return width;
}

size_t wtext_width(const wchar_t *s, size_t n)
{
	size_t w = 0;
	for (size_t i = 0; i < n;) {
		size_t cw = 1;
		if (is_printable_ascii((uint32_t)s[i]) && (i + 1 == n || (uint32_t)s[i + 1] < FIRST_JOINER))
			i++;
		else
			i += wtext_cluster(s + i, n - i, &cw);
		w += cw;
	}
	return w;
}

/* Whether a cluster can go on from a to b whatever came before a: UAX #29
 * without its state, and a ZWJ or a regional indicator may always join. */
static bool may_join(wchar_t a, wchar_t b)
{
	if (b == L' ' || b == L'\n' || stands_alone(a, b))
		return false;
	if (a == ZWJ || (is_regional(a) && is_regional(b)))
		return true;
	return !utf8proc_grapheme_break((utf8proc_int32_t)a, (utf8proc_int32_t)b);
}

bool wtext_can_cut(const char *s, size_t len, size_t at)
{
	if (at == 0 || at >= len)
		return true;
	size_t back = 1, next = utf8_seq_len(s + at, len - at);
	for (size_t k = 4; k >= 2; k--)
		if (at >= k && utf8_seq_len(s + at - k, k) == k) {
			back = k;
			break;
		}
	size_t an, bn;
	wchar_t *a = wtext_decode(s + at - back, back, WTEXT_TABS, &an);
	wchar_t *b = wtext_decode(s + at, next ? next : 1, WTEXT_TABS, &bn);
	/* A "\r" that ends what is decoded vanishes, but not in the text. */
	bool cut = an > 0 && (bn == 0 || !may_join(a[an - 1], b[0]));
	free(a);
	free(b);
	return cut;
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
		w += 1;
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
		*width = head_w + 1 + left;
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
