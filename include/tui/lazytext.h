/* lazytext.h - a long text wrapped as the timeline wraps it, without its lines.
 *
 * wtext_wrap decodes a whole text into wide characters and lists every
 * line: four bytes per character and a span per line, which for a 100 MB
 * message is well over its size again. A lazy text keeps only the UTF-8
 * (borrowed, or owned when the screen made it) and a checkpoint every few
 * hundred lines: it counts the lines in one pass when made, holding one
 * paragraph (or one window of a very long paragraph) at a time, and later
 * wraps again, from the nearest checkpoint, the few lines the screen draws.
 *
 * The lines are exactly wtext_wrap's (flags WTEXT_TABS), character for
 * character: wrapping never looks across a newline, so paragraphs are
 * wrapped one by one; a paragraph longer than a window is decoded in pieces
 * cut between characters (tabs expanded from the column they really are
 * at) and wrapped a window at a time, keeping only the lines that the
 * window's end cannot have changed. */
#ifndef TCR_TUI_LAZYTEXT_H
#define TCR_TUI_LAZYTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <wchar.h>

struct lazytext;

/* The text prefix (NUL-terminated, copied; may be NULL) followed by the
 * body_len bytes at body, wrapped to cols columns (0 counts as 1). The
 * body is borrowed and must outlive the lazy text, unless own_body, when
 * it is the lazy text's to free(). Counts the lines before returning. */
struct lazytext *lazytext_new(const char *prefix, const char *body, size_t body_len,
                              bool own_body, size_t cols);
void             lazytext_free(struct lazytext *z);

/* How many lines the text wraps to (>= 1). */
size_t lazytext_count(const struct lazytext *z);

/* Line i (< lazytext_count) as wtext_wrap's line i: its characters and
 * their number in *len. The pointer is valid until the next call on z. */
const wchar_t *lazytext_line(struct lazytext *z, size_t i, size_t *len);

/* The line of a checkpoint at or before the body's byte `at`, at most a
 * few hundred lines before the line holding it; *body_from is the body
 * byte (counted without the prefix) that checkpoint's paragraph or window
 * is read from. SIZE_MAX when `at` is not in the body. A search finds its
 * line from there without wrapping the text before it. */
size_t lazytext_line_near(const struct lazytext *z, const char *at, size_t *body_from);

/* What the lazy text holds besides the body it borrows (the body too when
 * it owns it): checkpoints, the lines last wrapped, buffers. */
size_t lazytext_bytes(const struct lazytext *z);

/* For tests: the longest paragraph wrapped whole and the decoded window
 * of longer ones (in characters); 0 restores the defaults. Applies to
 * lazy texts made afterwards. */
void lazytext_tune(size_t par_max, size_t window);

#endif
