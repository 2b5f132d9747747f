/* timeline_int.h - what timeline.c (lines, entries, keys) and
 * timeline_parts.c (what a run's messages and parts become) share. Not a
 * public header. */
#ifndef TCR_TUI_TIMELINE_INT_H
#define TCR_TUI_TIMELINE_INT_H

#include "runs/run.h"
#include "tui_int.h"

/* Tool calls' arguments and results are folded to this many lines. */
#define TL_FOLD_LINES 6

/* A new entry; its `open` is what it was before a relayout of the same run. */
size_t tl_add_entry(struct tui *t, long msg, long call, long part, bool foldable);
/* One line of n bytes. */
void   tl_add_line(struct tui *t, size_t entry, int indent, int slot, const char *s, size_t n);
/* Appends to the line just added (by tl_add_line) two spaces and s, drawn
 * in its own slot; a `whole` piece is drawn whole or not at all (struct
 * tl_span). */
void   tl_add_piece(struct tui *t, int slot, bool whole, const char *s, size_t n);
/* A whole piece; a `keep` one (a problem) is drawn even where the head
 * before it must be cut for it. */
void   tl_add_badge(struct tui *t, int slot, bool keep, const char *s, size_t n);
/* A text wrapped to the pane, after prefix (may be NULL). */
void   tl_add_text(struct tui *t, size_t entry, int indent, int slot, const char *prefix,
                   const char *s, int width);
/* A text of which at most max_lines lines are shown unless open, then
 * "… N more lines (Enter ...)". A text that is `own`ed is the timeline's
 * to free. Returns whether the text has more lines than max_lines. */
bool   tl_add_folded(struct tui *t, size_t entry, int indent, int slot, const char *prefix,
                     const char *text, bool own, int width, bool open, size_t max_lines);
/* A new one-line segment, its text and spans (owned, malloc'ed) for the
 * caller to fill (timeline_values.c draws keys and values in their slots). */
struct tl_line *tl_add_seg(struct tui *t, size_t entry, int indent, int slot);
/* The len bytes of body wrapped as tl_add_text does (lazily when long), at
 * most max_lines of them (0: all); returns how many it has in all. An
 * `own`ed body is the timeline's to free. */
size_t tl_add_text_max(struct tui *t, size_t entry, int indent, int slot, const char *body,
                       size_t len, bool own, int width, size_t max_lines);
/* How many lines the timeline wraps text to at `indent`. */
size_t tl_count_lines(const char *text, int indent, int width);

/* The lines of rr (NULL: none), the run of review entry `entry`, for the
 * pane's width; again only when the run, its load or the width changed
 * (width -1 forces it). Another run than the last opens at its first user
 * message; the same run keeps what was unfolded. Tests call it with runs
 * they built. */
void   tl_build(struct tui *t, const struct review_run *rr, size_t entry);

/* timeline_parts.c: the run's lines (its load error, its messages), each
 * call's head followed by its marks (may be NULL: none), the reviewer's
 * label of the call and under it the corrections (decs, may be NULL). */
struct call_marks;
struct run_call_decs;
void   tl_add_run(struct tui *t, struct run *r, const struct call_marks *marks,
                  const struct run_call_decs *decs, int width);

/* timeline_calls.c: the reviewer's decisions on calls, as the timeline
 * shows them. The label's name beside the call's head (label may be NULL). */
struct decision;
void   tl_call_label_badge(struct tui *t, const struct decision *label);
/* Under call ci's head: what it should have been, or that it should not
 * have been made (a replacement of the same tool as the arguments it
 * changes), and the calls missing before it (after it, on the last). */
void   tl_call_fixes(struct tui *t, size_t e, const struct run_call_decs *decs, struct run *r,
                     size_t ci, int width);
/* After the run's messages: the answer it should have given. */
void   tl_run_answer(struct tui *t, const struct run_call_decs *decs, int width);

#endif
