/* layout.h - where the panes go, as a pure function of the terminal size.
 * No curses: the layout is tested by describing its rectangles. */
#ifndef TCR_TUI_LAYOUT_H
#define TCR_TUI_LAYOUT_H

#include <stddef.h>

struct rect {
	int x, y, w, h;
};

enum pane {
	PANE_LIST,
	PANE_TIMELINE,
	PANE_VERDICTS,
	PANE_COUNT,
};

/* Each pane's rectangle includes its title row (the first row). */
struct layout {
	int cols, lines;
	struct rect pane[PANE_COUNT];
	struct rect status;         /* the last row */
	int too_small;              /* below 40x10 only a message is shown */
};

/* nverdict_rows: rows the verdicts pane would like (its rows and the
 * selected verdict's details); it gets at most about 55% of the height. */
struct layout layout_compute(int cols, int lines, int nverdict_rows);
/* "list{0,0 32x23} timeline{32,0 48x15} verdicts{32,15 48x8} status{0,23 80x1}" */
void layout_describe(const struct layout *l, char *buf, size_t n);
/* The pane under a screen position, or -1. */
int layout_pane_at(const struct layout *l, int x, int y);

#endif
