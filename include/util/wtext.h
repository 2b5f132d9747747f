/* wtext.h - text as the screen draws it: wide characters measured in
 * terminal columns.
 *
 * Transcript text is UTF-8 from anywhere: escape sequences, broken bytes,
 * CJK, emoji, combining marks. wtext_decode turns it into wide characters
 * that are all safe to draw (as textvis does for bytes), and the other
 * functions measure, cut and wrap that text by display width (wcwidth(),
 * so the caller must have set a UTF-8 LC_CTYPE, e.g. setlocale(LC_ALL, "")).
 *
 * Clusters: a character together with the zero-width characters after it
 * (combining marks, variation selectors such as VS16, Hangul vowel jamo),
 * emoji skin-tone modifiers, a second regional indicator (a flag), and
 * whatever a ZERO WIDTH JOINER joins to it. Cutting and wrapping never
 * split a cluster. Its width is the sum of wcwidth() over its characters,
 * which is how curses counts cells; a terminal that draws a ZWJ sequence
 * as one glyph will show it narrower than counted, never wider.
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
 * embedding, override and isolate controls as <U+202E>, each invalid byte
 * and every character wcwidth() calls unprintable as U+FFFD. */
wchar_t *wtext_decode(const char *s, size_t len, unsigned flags, size_t *outlen);

/* Display width of s[0..n); a character wcwidth() refuses counts 1, as the
 * U+FFFD that wtext_decode puts in its place would. */
size_t wtext_width(const wchar_t *s, size_t n);

/* Length (in wide characters, >= 1 when n > 0) of the cluster that starts
 * at s; its width in *width (may be NULL). */
size_t wtext_cluster(const wchar_t *s, size_t n, size_t *width);

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
