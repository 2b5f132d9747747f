/* timeline_find.h - search inside the run: the timeline's side (tui/timeline_find.c).
 * Not a public header. */
#ifndef TCR_TUI_TIMELINE_FIND_H
#define TCR_TUI_TIMELINE_FIND_H

#include "tui_int.h"

/* `/` submitted: text, or the last search again when it is empty. The
 * current run's first match, else the next run that has one. */
unsigned tl_find_submit(struct tui *t, const char *text);
/* n (dir 1) and N (-1): the next match in the run, then the next run's. */
unsigned tl_find_again(struct tui *t, int dir);
/* In the timeline's fit, after its lines are built (before its own
 * clamping) and at its end: a match asked for is scrolled into view,
 * unfolded, and stays there until the timeline is moved. */
void tl_find_fit(struct tui *t);
void tl_find_fitted(struct tui *t);
/* Every match in the line of n characters drawn at y, x (w columns), in
 * the search slot. */
void tl_find_mark(const struct tui *t, int y, int x, int w, const wchar_t *s, size_t n);
void tl_find_free(struct tui *t);
/* The timeline focused on the current run's call (from 0), unfolded and
 * in view: where an opened verdict's item leads. */
unsigned tl_find_call(struct tui *t, long call);

#endif
