/* layout.h - where the panes go, as a pure function of the terminal size.
 * No curses: the layout is tested by describing its rectangles. */
#ifndef TCR_TUI_LAYOUT_H
#define TCR_TUI_LAYOUT_H

#include <stdbool.h>
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
 * selected verdict's details); it gets at most about 55% of the height.
 * The list takes its widest share (layout_compute_with with list_w 0). */
struct layout layout_compute(int cols, int lines, int nverdict_rows);

/* What the panes would like, beside the terminal's size. */
struct layout_want {
	int nverdict_rows;          /* as layout_compute's */
	/* Columns the list's content needs (its widest id and label and its
	 * cells); 0: its widest share. It gets no more than that share (about
	 * 40%, at least 36 columns) and no less than LAYOUT_LIST_MIN. */
	int list_w;
	/* One run in all: the list is a strip of one row over the full width,
	 * and the timeline and the verdicts take the width below it. */
	bool one_run;
	/* A pane given the whole screen but the status line (z), or
	 * PANE_COUNT for none: the others get empty rectangles. */
	int zoom;
};
#define LAYOUT_LIST_MIN 20      /* a mark, a short id, the calls and a few cells */

struct layout layout_compute_with(int cols, int lines, const struct layout_want *w);

/* A title row's text: "[title] part, part" in at most `cols` columns, each
 * part whole (never cut inside a word or a number). Parts come in the
 * order they are shown; `rank` says which go first when they do not fit
 * (the highest first): a part takes its `brief` form (when it has one),
 * then parts are dropped, until the rest fits. Returns the text's width. */
struct title_part {
	const char *full;
	const char *brief;          /* NULL: none */
	int rank;                   /* 0 matters most */
};
int layout_title(char *buf, size_t n, int cols, const char *title, const struct title_part *parts,
                 size_t nparts);
/* "list{0,0 32x23} timeline{32,0 48x15} verdicts{32,15 48x8} status{0,23 80x1}" */
void layout_describe(const struct layout *l, char *buf, size_t n);
/* The pane under a screen position, or -1. */
int layout_pane_at(const struct layout *l, int x, int y);

#endif
