/* wtext.h - text as the screen draws it: grapheme clusters measured in
 * terminal columns.
 *
 * Transcript text is UTF-8 from anywhere: escape sequences, broken bytes,
 * CJK, emoji, combining marks. wtext_decode turns it into wide characters
 * that are all safe to draw (as textvis does for bytes), and the other
 * functions measure, cut and wrap that text by display width. The caller
 * must have set a UTF-8 LC_CTYPE (setlocale(LC_ALL, "")): curses measures
 * with the C library's wcwidth(), and so must the width below.
 *
 * Clusters are Unicode's extended grapheme clusters (UAX #29, from
 * utf8proc_grapheme_break_stateful): a character with its combining marks
 * and variation selectors, an emoji with its skin tone and whatever a ZERO
 * WIDTH JOINER joins to it, a pair of regional indicators (a flag), a
 * keycap, a Hangul syllable spelt in jamo, an Indic consonant with its
 * virama and vowel signs, a Thai consonant with its vowels and tone marks.
 * One exception: ' ' and '\n' always start a cluster (lines and words end
 * there). Cutting and wrapping never split a cluster.
 *
 * A cluster's width is the larger of two counts:
 *  - what a terminal that draws clusters shows: the utf8proc_charwidth()
 *    of its first character that has a width, and 2 for an emoji
 *    presentation (a symbol, digit, '#' or '*' followed by VS16: ❤️, 1️⃣);
 *  - what curses counts: the screen draws with mvwaddnwstr, which gives
 *    each character wcwidth() cells (a zero-width one shares the cell
 *    before).
 * They differ where a cluster holds several characters with a width: a ZWJ
 * family 👨‍👩‍👧‍👦 (one 2-column glyph on kitty or WezTerm, 8 cells to
 * curses and to xterm or VTE, which draw the four people), a skin tone (4
 * to curses), a vowel sign that takes a cell (the i of षि, Thai sara am,
 * the half-width dakuten of ｶﾞ), an Arabic number sign; and on ❤️ (curses
 * 1, a terminal 2), a lone Hangul vowel jamo (curses 0, drawn 1), and
 * where utf8proc's Unicode is newer than the C library's. Taking the
 * larger keeps the screen aligned: what curses is given never needs more
 * cells than were counted, so it never spills into the next field or
 * wraps past the pane (a smaller count would: the family counted 2 would
 * push 6 cells of text over the next field), and neither kind of terminal
 * draws a cluster wider than counted (short of one set to draw ambiguous
 * characters wide). Where a terminal draws a cluster narrower than curses
 * counts it (kitty's family), the rest of that field moves left by the
 * difference and its last columns keep what was there before: a gap,
 * never text cut or drawn over. utf8proc counts East Asian "ambiguous"
 * characters (①, Greek, box drawing, '…') as 1, as glibc does in C.UTF-8.
 *
 * No curses here: the screen passes the results to curses' wide-character
 * calls (mvwaddnwstr and the like). */
#ifndef TCR_UTIL_WTEXT_H
#define TCR_UTIL_WTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <wchar.h>

#define WTEXT_TABSTOP 4

enum {
	/* Keep '\n' as a line break (else it is shown as ^J). */
	WTEXT_NEWLINES = 1u << 0,
	/* Expand '\t' to spaces up to the next multiple of WTEXT_TABSTOP
	 * columns, counted from the last kept newline (else it is ^I). */
	WTEXT_TABS     = 1u << 1,
};

/* Decodes len bytes of UTF-8 into a new NUL-terminated wide string (free()
 * it), its length in *outlen (may be NULL). What could not be drawn safely
 * is made visible: C0 controls and DEL in caret notation (ESC is ^[, so a
 * colour code reads ^[[31m), C1 controls as <U+009B>, bidirectional
 * embedding, override and isolate controls as <U+202E>, tag characters as
 * <U+E0041>; each invalid byte, every unassigned code point or noncharacter
 * (utf8proc_category), U+2028 and U+2029, and any character the C
 * library's wcwidth() does not know (curses could not place it) as U+FFFD. */
wchar_t *wtext_decode(const char *s, size_t len, unsigned flags, size_t *outlen);

/* Display width of s[0..n): the sum of its clusters' widths. A character
 * wcwidth() refuses counts 1, as the U+FFFD that wtext_decode puts in its
 * place would. */
size_t wtext_width(const wchar_t *s, size_t n);
/* Display width of the UTF-8 string s as wtext_decode shows it. */
size_t wtext_str_width(const char *s);

/* Length (in wide characters, >= 1 when n > 0) of the cluster that starts
 * at s; its width (above) in *width (may be NULL). Printable ASCII not
 * followed by a combining character is a cluster of 1, 1 column, without
 * a look at the Unicode tables. */
size_t wtext_cluster(const wchar_t *s, size_t n, size_t *width);

/* Whether cutting the UTF-8 text s[0..len) at byte `at` (a character
 * boundary) and decoding the two sides apart cuts no cluster of the whole,
 * judged by the characters either side: then the widths of the sides add
 * up to the whole's (they need not inside a cluster: ❤ is 1 column and
 * ❤ + VS16 is 2). For the screen's texts decoded in pieces. */
bool wtext_can_cut(const char *s, size_t len, size_t at);

/* The longest prefix of s[0..n) that fits in cols columns without splitting
 * a cluster: returns its length, its width in *width (may be NULL). */
size_t wtext_fit(const wchar_t *s, size_t n, size_t cols, size_t *width);

/* Cuts s (n characters, with room for n + 1) in place to at most cols
 * columns. When it had to cut and `ellipsis` is set, the last column is
 * '…'. Returns the new length (s stays NUL-terminated); the width in *width
 * (may be NULL), which can be one less than cols when a wide character did
 * not fit. */
size_t wtext_truncate(wchar_t *s, size_t n, size_t cols, bool ellipsis, size_t *width);

/* Cuts s in place to at most cols columns by taking out its middle: the
 * start, '…', then the end (which gets the larger share), never splitting
 * a cluster. Text that fits is left as it is; under 3 columns it is cut at
 * the end as wtext_truncate cuts it. Returns the new length; its width in
 * *width (may be NULL). */
size_t wtext_cut_middle(wchar_t *s, size_t n, size_t cols, size_t *width);

/* One line of wrapped text: text[start .. start + len), `width` columns. */
struct wtext_span {
	size_t start, len, width;
};

struct wtext_wrapped {
	wchar_t *text;              /* the decoded text (WTEXT_NEWLINES implied) */
	size_t len;
	struct wtext_span *lines;
	size_t nlines;              /* >= 1: empty text is one empty line */
};

/* Decodes UTF-8 text as wtext_decode does (flags: WTEXT_TABS) and wraps it
 * into lines of at most cols columns (0 counts as 1). A newline always
 * ends a line. Lines break at spaces when the next word fits on a line of
 * its own, and otherwise anywhere between clusters; wide characters (CJK)
 * may break before and after each. The spaces at a break belong to no
 * line; a line's leading indentation is kept. A cluster wider than cols
 * gets a line of its own, the only case of a line wider than cols. */
void wtext_wrap(struct wtext_wrapped *w, const char *s, size_t len, size_t cols,
                unsigned flags);
void wtext_wrapped_free(struct wtext_wrapped *w);

#endif
