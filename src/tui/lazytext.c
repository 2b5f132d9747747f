/* lazytext.c - long texts wrapped lazily, line for line as wtext_wrap wraps them. */
#include "tui/lazytext.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/textvis.h"
#include "util/wtext.h"
#include "util/xalloc.h"

/* A paragraph up to this many bytes is handed to wtext_wrap whole. */
#define PAR_MAX_DEFAULT ((size_t)256 << 10)
/* A longer one is wrapped a window of this many characters at a time... */
#define WINDOW_DEFAULT ((size_t)16 << 10)
/* ... decoded in pieces of this many bytes (window / 16). */
#define PIECE_DIV 16
/* A window's last lines, which the characters cut off after it may have
 * changed: a line's break looks at most one word past its end, and the
 * next line reads that word too, so two lines after the last one kept
 * bound every look-ahead; one more for a cluster cut by the window. */
#define UNSETTLED 3
/* Lines between checkpoints, and lines kept around the one asked for. */
#define CK_LINES 256
#define KEEP_BEFORE 64
#define KEEP_AFTER 192

static size_t tune_par_max = PAR_MAX_DEFAULT, tune_window = WINDOW_DEFAULT;

void lazytext_tune(size_t par_max, size_t window)
{
	tune_par_max = par_max ? par_max : PAR_MAX_DEFAULT;
	tune_window = window ? window : WINDOW_DEFAULT;
}

/* Where a line starts: decoding from `byte` (a character boundary) at
 * column `col` (modulo the tab stop: all a tab needs) gives, after `skip`
 * characters, the line's first one. `end` is where its paragraph ends (the
 * newline or the text's end), SIZE_MAX while not looked up. A byte past the
 * text's end is the end of the lines. */
struct lt_pos {
	size_t byte, skip, end;
	unsigned col;
};

struct lt_ck {
	size_t line;
	struct lt_pos pos;
};

/* A piece of a window: decoded from `byte` at `col`, its first character
 * is the window's character `at`. */
struct lt_piece {
	size_t byte, at;
	unsigned col;
};

struct lazytext {
	char *prefix;
	size_t plen;
	const char *body;
	size_t blen;
	bool own;
	size_t len;                 /* plen + blen: the text's bytes */
	size_t cols, par_max, window, piece;
	size_t nlines;
	struct lt_ck *ck;
	size_t nck, ck_cap;
	/* The lines last wrapped for the screen: kept_first .. + nkept. */
	wchar_t **kept;
	size_t *kept_len;
	size_t kept_first, nkept, kept_cap, kept_lo, kept_hi;
	/* Scratch: bytes for wtext, a window's characters, its pieces. */
	char *buf;
	size_t buf_cap;
	wchar_t *dec;
	size_t dec_len, dec_cap;
	struct lt_piece *pieces;
	size_t npieces, pieces_cap;
};

typedef void lt_emit(struct lazytext *z, size_t line, const wchar_t *s, size_t n);

/* ---- the text's bytes (prefix, then body) --------------------------------- */

static unsigned char byte_at(const struct lazytext *z, size_t i)
{
	return (unsigned char)(i < z->plen ? z->prefix[i] : z->body[i - z->plen]);
}

static char *buf_room(struct lazytext *z, size_t n)
{
	if (n + 1 > z->buf_cap) {
		z->buf_cap = n + 1 > 2 * z->buf_cap ? n + 1 : 2 * z->buf_cap;
		z->buf = xrealloc(z->buf, z->buf_cap);
	}
	return z->buf;
}

/* Bytes [a, b) after `lead` bytes of 'x', in z->buf. */
static const char *fill(struct lazytext *z, size_t a, size_t b, size_t lead)
{
	char *s = buf_room(z, b - a + lead);
	memset(s, 'x', lead);
	char *o = s + lead;
	if (a < z->plen) {
		size_t e = b < z->plen ? b : z->plen;
		memcpy(o, z->prefix + a, e - a);
		o += e - a;
		a = e;
	}
	if (a < b) {
		memcpy(o, z->body + (a - z->plen), b - a);
		o += b - a;
	}
	*o = '\0';
	return s;
}

/* Bytes [a, b) contiguous: in place when they are, else copied. */
static const char *span(struct lazytext *z, size_t a, size_t b)
{
	if (a == b)
		return "";
	if (a >= z->plen)
		return z->body + (a - z->plen);
	if (b <= z->plen)
		return z->prefix + a;
	return fill(z, a, b, 0);
}

static size_t find_newline(const struct lazytext *z, size_t a)
{
	if (a < z->plen) {
		const char *p = memchr(z->prefix + a, '\n', z->plen - a);
		if (p)
			return (size_t)(p - z->prefix);
		a = z->plen;
	}
	if (a >= z->len)
		return z->len;
	const char *p = memchr(z->body + (a - z->plen), '\n', z->len - a);
	return p ? (size_t)(p - z->body) + z->plen : z->len;
}

/* A character boundary near p (a < p < end) and after a: p, unless a
 * valid sequence that starts in the three bytes before it runs past it.
 * Invalid bytes decode one by one, so any other place is a boundary. */
static size_t boundary(const struct lazytext *z, size_t a, size_t p, size_t end)
{
	for (size_t k = 1; k <= 3 && k <= p - a; k++) {
		size_t q = p - k;
		char seq[4];
		size_t m = end - q < 4 ? end - q : 4;
		for (size_t i = 0; i < m; i++)
			seq[i] = (char)byte_at(z, q + i);
		size_t n = utf8_seq_len(seq, m);
		if (n > k)
			return q > a ? q : q + n;
	}
	return p;
}

/* Where a piece that should end near p ends: the first character
 * boundary from there that cuts no cluster (widths add up only between
 * clusters: ❤ and its VS16 are 1 + 0 columns apart, 2 together), within a
 * few dozen characters (past them only zero-width marks can follow). */
static size_t piece_end(const struct lazytext *z, size_t a, size_t p, size_t end)
{
	size_t q = boundary(z, a, p, end);
	for (size_t tries = 0; tries < 64 && q < end; tries++) {
		char around[8];
		size_t from = q - a > 4 ? q - 4 : a, to = end - q > 4 ? q + 4 : end;
		for (size_t i = from; i < to; i++)
			around[i - from] = (char)byte_at(z, i);
		if (wtext_can_cut(around, to - from, q - from))
			break;
		size_t n = utf8_seq_len(around + (q - from), to - q);
		q += n ? n : 1;
	}
	return q;
}

/* ---- decoding and wrapping ------------------------------------------------ */

/* Appends the characters of bytes [a, b) (boundaries inside one paragraph),
 * decoded from column col, to z->dec; returns the column after them. The
 * 'x's in front put a tab where it really is. */
static unsigned decode_piece(struct lazytext *z, size_t a, size_t b, unsigned col)
{
	size_t lead = col % WTEXT_TABSTOP, n;
	const char *s = fill(z, a, b, lead);
	wchar_t *w = wtext_decode(s, b - a + lead, WTEXT_TABS, &n);
	size_t add = n - lead;
	if (z->dec_len + add + 1 > z->dec_cap) {
		z->dec_cap = z->dec_len + add + 1 > 2 * z->dec_cap ? z->dec_len + add + 1 : 2 * z->dec_cap;
		z->dec = xrealloc(z->dec, z->dec_cap * sizeof *z->dec);
	}
	memcpy(z->dec + z->dec_len, w + lead, add * sizeof *w);
	z->dec_len += add;
	unsigned after = (unsigned)((col + wtext_width(w + lead, add)) % WTEXT_TABSTOP);
	free(w);
	return after;
}

static size_t utf8_put(char *o, uint32_t c)
{
	if (c < 0x80) {
		o[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		o[0] = (char)(0xc0 | (c >> 6));
		o[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		o[0] = (char)(0xe0 | (c >> 12));
		o[1] = (char)(0x80 | ((c >> 6) & 0x3f));
		o[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | (c >> 18));
	o[1] = (char)(0x80 | ((c >> 12) & 0x3f));
	o[2] = (char)(0x80 | ((c >> 6) & 0x3f));
	o[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}

/* Decoded characters as UTF-8 again, in z->buf. Decoding that gives the
 * same characters back: what could not be drawn is already spelled out
 * in drawable characters, and tabs are spaces. */
static const char *encode(struct lazytext *z, const wchar_t *s, size_t n, size_t *len)
{
	char *o = buf_room(z, 4 * n), *p = o;
	for (size_t i = 0; i < n; i++)
		p += utf8_put(p, (uint32_t)s[i]);
	*p = '\0';
	*len = (size_t)(p - o);
	return o;
}

static void emit_lines(struct lazytext *z, const struct wtext_wrapped *wr, size_t n, size_t *line,
                       lt_emit *emit)
{
	if (!emit) {
		*line += n;
		return;
	}
	for (size_t i = 0; i < n; i++)
		emit(z, (*line)++, wr->text + wr->lines[i].start, wr->lines[i].len);
}

static struct lt_pos next_paragraph(size_t end)
{
	return (struct lt_pos){ end + 1, 0, SIZE_MAX, 0 };
}

/* A window of a long paragraph from pos: the lines its end cannot have
 * changed (all of them when it reaches the paragraph's end), then pos
 * moves to the first line not taken, restarting from the last piece
 * before it. A window with too few lines is widened. */
static void step_window(struct lazytext *z, struct lt_pos *pos, size_t *line, lt_emit *emit)
{
	size_t want = z->window;
	for (;;) {
		z->dec_len = 0;
		z->npieces = 0;
		size_t b = pos->byte;
		unsigned col = pos->col;
		while (b < pos->end && z->dec_len < pos->skip + want) {
			size_t c = pos->end - b > z->piece ? piece_end(z, b, b + z->piece, pos->end) : pos->end;
			if (z->npieces == z->pieces_cap) {
				z->pieces_cap = z->pieces_cap ? 2 * z->pieces_cap : 32;
				z->pieces = xrealloc(z->pieces, z->pieces_cap * sizeof *z->pieces);
			}
			z->pieces[z->npieces++] = (struct lt_piece){ b, z->dec_len, col };
			col = decode_piece(z, b, c, col);
			b = c;
		}
		bool whole = b == pos->end;
		size_t ulen;
		const char *u = encode(z, z->dec + pos->skip, z->dec_len - pos->skip, &ulen);
		struct wtext_wrapped wr;
		wtext_wrap(&wr, u, ulen, z->cols, WTEXT_TABS);
		size_t take = whole ? wr.nlines : wr.nlines > UNSETTLED ? wr.nlines - UNSETTLED : 0;
		if (!take) {
			wtext_wrapped_free(&wr);
			want *= 2;
			continue;
		}
		emit_lines(z, &wr, take, line, emit);
		if (whole) {
			*pos = next_paragraph(pos->end);
		} else {
			size_t at = pos->skip + wr.lines[take].start, k = z->npieces;
			while (k > 1 && z->pieces[k - 1].at > at)
				k--;
			const struct lt_piece *p = &z->pieces[k - 1];
			*pos = (struct lt_pos){ p->byte, at - p->at, pos->end, p->col };
		}
		wtext_wrapped_free(&wr);
		return;
	}
}

/* The lines from pos on, a paragraph or a window at a time; false when
 * the text has no more. */
static bool step(struct lazytext *z, struct lt_pos *pos, size_t *line, lt_emit *emit)
{
	if (pos->byte > z->len)
		return false;
	if (pos->end == SIZE_MAX)
		pos->end = find_newline(z, pos->byte);
	size_t a = pos->byte, e = pos->end;
	if (pos->skip || pos->col || e - a > z->par_max) {
		step_window(z, pos, line, emit);
		return true;
	}
	/* Wrapping starts afresh at each line, so a line's start inside a
	 * paragraph wraps as the start of a paragraph would. */
	struct wtext_wrapped wr;
	wtext_wrap(&wr, span(z, a, e), e - a, z->cols, WTEXT_TABS);
	emit_lines(z, &wr, wr.nlines, line, emit);
	wtext_wrapped_free(&wr);
	*pos = next_paragraph(e);
	return true;
}

/* ---- the lazy text ------------------------------------------------------------ */

static void scratch_free(struct lazytext *z)
{
	free(z->buf);
	free(z->dec);
	free(z->pieces);
	z->buf = NULL;
	z->dec = NULL;
	z->pieces = NULL;
	z->buf_cap = z->dec_cap = z->pieces_cap = z->dec_len = z->npieces = 0;
}

struct lazytext *lazytext_new(const char *prefix, const char *body, size_t body_len,
                              bool own_body, size_t cols)
{
	struct lazytext *z = xcalloc(1, sizeof *z);
	z->prefix = xstrdup(prefix ? prefix : "");
	z->plen = strlen(z->prefix);
	z->body = body_len ? body : NULL;
	z->blen = body_len;
	z->own = own_body;
	if (own_body && !body_len)
		free((void *)body);
	z->len = z->plen + z->blen;
	z->cols = cols ? cols : 1;
	z->par_max = tune_par_max;
	z->window = tune_window;
	z->piece = tune_window / PIECE_DIV ? tune_window / PIECE_DIV : 1;
	/* One pass counts the lines and leaves a checkpoint every CK_LINES. */
	struct lt_pos pos = { 0, 0, SIZE_MAX, 0 };
	size_t line = 0;
	for (;;) {
		if (pos.byte > z->len)
			break;
		if (!z->nck || line - z->ck[z->nck - 1].line >= CK_LINES) {
			if (z->nck == z->ck_cap) {
				z->ck_cap = z->ck_cap ? 2 * z->ck_cap : 16;
				z->ck = xrealloc(z->ck, z->ck_cap * sizeof *z->ck);
			}
			z->ck[z->nck++] = (struct lt_ck){ line, pos };
		}
		step(z, &pos, &line, NULL);
	}
	z->nlines = line;
	scratch_free(z);
	return z;
}

static void kept_clear(struct lazytext *z)
{
	for (size_t i = 0; i < z->nkept; i++)
		free(z->kept[i]);
	z->nkept = 0;
}

void lazytext_free(struct lazytext *z)
{
	if (!z)
		return;
	kept_clear(z);
	free(z->kept);
	free(z->kept_len);
	free(z->ck);
	scratch_free(z);
	if (z->own)
		free((void *)z->body);
	free(z->prefix);
	free(z);
}

size_t lazytext_count(const struct lazytext *z)
{
	return z->nlines;
}

static void keep_line(struct lazytext *z, size_t line, const wchar_t *s, size_t n)
{
	if (line < z->kept_lo || line >= z->kept_hi)
		return;
	if (z->nkept == z->kept_cap) {
		z->kept_cap = z->kept_cap ? 2 * z->kept_cap : 64;
		z->kept = xrealloc(z->kept, z->kept_cap * sizeof *z->kept);
		z->kept_len = xrealloc(z->kept_len, z->kept_cap * sizeof *z->kept_len);
	}
	wchar_t *copy = xrealloc(NULL, (n + 1) * sizeof *copy);
	memcpy(copy, s, n * sizeof *s);
	copy[n] = L'\0';
	z->kept[z->nkept] = copy;
	z->kept_len[z->nkept++] = n;
}

const wchar_t *lazytext_line(struct lazytext *z, size_t i, size_t *len)
{
	if (i >= z->nlines) {
		*len = 0;
		return L"";
	}
	if (i < z->kept_first || i >= z->kept_first + z->nkept) {
		size_t lo = 0, hi = z->nck;          /* the last checkpoint at or before i */
		while (hi - lo > 1) {
			size_t mid = lo + (hi - lo) / 2;
			if (z->ck[mid].line <= i)
				lo = mid;
			else
				hi = mid;
		}
		const struct lt_ck *ck = &z->ck[lo];
		kept_clear(z);
		z->kept_lo = i - ck->line > KEEP_BEFORE ? i - KEEP_BEFORE : ck->line;
		z->kept_hi = i + KEEP_AFTER;
		z->kept_first = z->kept_lo;
		struct lt_pos pos = ck->pos;
		size_t line = ck->line;
		while (line < z->kept_hi && step(z, &pos, &line, keep_line))
			;
		scratch_free(z);
	}
	*len = z->kept_len[i - z->kept_first];
	return z->kept[i - z->kept_first];
}

size_t lazytext_bytes(const struct lazytext *z)
{
	size_t n = sizeof *z + z->plen + 1 + z->ck_cap * sizeof *z->ck;
	n += z->kept_cap * (sizeof *z->kept + sizeof *z->kept_len);
	for (size_t i = 0; i < z->nkept; i++)
		n += (z->kept_len[i] + 1) * sizeof(wchar_t);
	n += z->buf_cap + z->dec_cap * sizeof *z->dec + z->pieces_cap * sizeof *z->pieces;
	if (z->own)
		n += z->blen;
	return n;
}

size_t lazytext_line_near(const struct lazytext *z, const char *at, size_t *body_from)
{
	if (!z->body || at < z->body || at > z->body + z->blen)
		return SIZE_MAX;
	size_t b = z->plen + (size_t)(at - z->body), lo = 0, hi = z->nck;
	while (hi - lo > 1) {           /* the last checkpoint starting at or before b */
		size_t mid = lo + (hi - lo) / 2;
		if (z->ck[mid].pos.byte <= b)
			lo = mid;
		else
			hi = mid;
	}
	size_t from = z->nck ? z->ck[lo].pos.byte : 0;
	*body_from = from > z->plen ? from - z->plen : 0;
	return z->nck ? z->ck[lo].line : 0;
}
