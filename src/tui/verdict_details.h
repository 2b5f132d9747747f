/* verdict_details.h - the opened verdict's lines: what decided it first
 * (tui/verdict_details.c). Not a public header. */
#ifndef TCR_TUI_VERDICT_DETAILS_H
#define TCR_TUI_VERDICT_DETAILS_H

#include "tui_int.h"

/* A details line: its characters, drawn in `slot` up to column `split`
 * (SIZE_MAX: all of it) and in `slot2` after; the item it belongs to
 * (SIZE_MAX none) and the run call (from 0) that item is linked to, -1
 * none. */
struct vd_line {
	wchar_t *text;
	size_t len, split;
	int slot, slot2;
	size_t item;
	long call;
};

struct vd_lines {
	struct vd_line *v;
	size_t n, cap;
	size_t nitems;
	size_t allowed_item;        /* the item that folds what the mode allows; SIZE_MAX none */
};

/* The selected verdict's details at the pane's width: the findings of its
 * verdict (VERDICT_FINDINGS) that decided it, each linked to its call,
 * then what the mode allows (folded unless t->vd.allowed_open), then
 * verdicts_details' lines. */
void vd_lines_build(const struct tui *t, struct vd_lines *out);
void vd_lines_free(struct vd_lines *l);
/* The line of item i, SIZE_MAX when none. */
size_t vd_lines_item_line(const struct vd_lines *l, size_t i);
/* Enter on the selected item (t->vd.item): the allowed calls folded or unfolded, or the
 * timeline focused on the item's call. 0 when no item is selected. */
unsigned vd_item_enter(struct tui *t);

#endif
