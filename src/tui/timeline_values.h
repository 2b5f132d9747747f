/* timeline_values.h - a call's arguments and results as lines to read:
 * JSON pretty-printed with keys and values in slots of their own, a
 * string of several lines as its lines under its key, diffs coloured.
 * Not a public header: timeline_parts.c draws with it, tests check it.
 *
 * The renderer (tv_json, tv_text) says what the lines are, one logical
 * line at a time, through a callback; tl_value and tl_value_text wrap them
 * to the pane as timeline lines, each wrapped line continuing under its
 * value (a hanging indent), and fold them. */
#ifndef TCR_TUI_TIMELINE_VALUES_H
#define TCR_TUI_TIMELINE_VALUES_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* A string of this many bytes or more is one lazily wrapped text
 * (tui/lazytext.h), not lines: it is neither split nor diff-coloured. */
#define TV_LAZY_MIN ((size_t)64 << 10)

/* One logical line: head (a key, a diff's marker), then the body, which
 * wraps under itself. A `block` body is a whole text of many lines, too
 * long to split (TV_LAZY_MIN); `stable` says that it outlives the
 * timeline (the run's own text), so it can be borrowed. */
struct tv_line {
	int indent;                 /* columns from the value's left edge */
	const char *head;
	size_t head_len;
	int head_slot;              /* enum theme_slot */
	const char *body;
	size_t body_len;
	int body_slot;
	bool block, stable;
};

typedef void tv_emit(void *ctx, const struct tv_line *l);

/* v as indented JSON (two columns a level, as json_dumps indents): keys in
 * json-key, strings in json-string, numbers and true/false/null in
 * json-number, brackets and commas in json-value. A string of several
 * lines comes as its lines under its key, two columns in, with no quotes
 * or escapes (diff-coloured when it reads as a diff); the old and new
 * strings of a replacement (old_string/new_string, old_str/new_str) as
 * removed and added lines, each after its '-' or '+'. */
void tv_json(const json_t *v, int indent, tv_emit *emit, void *ctx);

/* The n bytes of s as their lines (a last empty line after a final
 * newline is left out), in `slot`, or diff-coloured when they read as a
 * diff (tv_is_diff). `stable`: s outlives the timeline. */
void tv_text(const char *s, size_t n, int indent, int slot, bool stable, tv_emit *emit, void *ctx);

/* Whether s reads as a patch or a diff: Codex's "*** Begin Patch", a git
 * "diff --git", or a unified diff's "--- " and "+++ " file lines or an
 * "@@ -" hunk header followed by added or removed lines. Looks at the
 * first 64 KB. */
bool tv_is_diff(const char *s, size_t n);
/* The slot of one line of a diff: file headers ("--- ", "+++ ", "*** ",
 * "diff -", "index "), hunk headers ("@@"), '+' added, '-' removed, others
 * context. */
int  tv_diff_slot(const char *line, size_t n);
/* Whether a string is drawn as its lines: a newline before its last byte. */
bool tv_multiline(const char *s, size_t n);

/* The lines of tv_json as one text (malloc'ed), each line indented, for a
 * value too big to keep a display line per line: the screen wraps that
 * text lazily, in one slot. */
char *tv_json_text(const json_t *v);

/* Results that are JSON text: s parsed when it holds an object or an
 * array (and is under a few megabytes), else NULL. */
json_t *tv_parse_json_text(const char *s, size_t n);

struct tui;
/* v's lines (tv_json) in timeline entry e at `indent`, wrapped to width;
 * `lead` (may be NULL) starts the first line, and every line hangs under
 * it. At most max_lines lines unless open, then "… N more lines". Returns
 * whether there are more than max_lines. */
bool tl_value(struct tui *t, size_t e, int indent, const char *lead, const json_t *v, int width,
              bool open, size_t max_lines);
/* The same for a text (tv_text, in slot). */
bool tl_value_text(struct tui *t, size_t e, int indent, const char *lead, int slot, const char *s,
                   size_t n, bool stable, int width, bool open, size_t max_lines);

#endif
