/* list.c - the runs pane: review mark, id, model or format, calls, a cell per verdict row. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui_int.h"

static const char *judge_glyph(const struct review_entry *e, size_t j, int *slot)
{
	const struct judge_cell *c = e->jcells ? &e->jcells[j] : NULL;
	if (!c || c->state == JUDGE_NONE) {
		*slot = SLOT_DIM;
		return " ";
	}
	if (c->state == JUDGE_PENDING) {
		*slot = SLOT_SKIPPED;
		return spinner_glyph();
	}
	switch (c->v.status) {
	case VERDICT_OK:
		*slot = c->v.passed ? SLOT_PASS : SLOT_FAIL;
		return c->v.passed ? "\xe2\x9c\x93" : "\xe2\x9c\x97";
	case VERDICT_SKIPPED:
		*slot = SLOT_SKIPPED;
		return "-";
	default:
		*slot = SLOT_ERROR;
		return "!";
	}
}

static const char *cell_glyph(const struct review_entry *e, size_t s, int *slot)
{
	if (!e->summarized) {
		*slot = SLOT_DIM;
		return ".";
	}
	if (e->load_failed) {
		*slot = SLOT_ERROR;
		return "!";
	}
	const struct verdict_cell *c = &e->cells[s];
	switch (c->status) {
	case VERDICT_OK:
		*slot = c->passed ? SLOT_PASS : SLOT_FAIL;
		return c->passed ? "\xe2\x9c\x93" : "\xe2\x9c\x97";     /* ✓ ✗ */
	case VERDICT_SKIPPED:
		*slot = SLOT_SKIPPED;
		return "-";
	default:
		*slot = SLOT_ERROR;
		return "!";
	}
}

static const char *mark_glyph(enum review_mark m, int *slot)
{
	switch (m) {
	case MARK_REVIEWED:
		*slot = SLOT_MARK_REVIEWED;
		return "\xe2\x9c\x94";                                    /* ✔ */
	case MARK_OVERRIDDEN:
		*slot = SLOT_MARK_OVERRIDDEN;
		return "\xe2\x9c\x8e";                                    /* ✎ */
	default:
		*slot = SLOT_NORMAL;
		return " ";
	}
}

/* The list's columns for a pane this wide: mark, id, label, calls, then
 * two cells per verdict row. */
struct list_cols {
	int id_x, id_w, label_w, calls_w, cells_x;
};

static struct list_cols list_columns(const struct rect *r, size_t nrows)
{
	struct list_cols c = { .id_x = 3, .calls_w = 3 };
	int cells_w = (int)nrows * 2;
	c.label_w = r->w >= 56 ? 14 : r->w >= 44 ? 10 : 8;
	/* '>' marks the selected row and the review mark follows it, so both
	 * read without colour. */
	c.id_w = r->w - c.id_x - c.label_w - 1 - c.calls_w - 2 - cells_w;
	if (c.id_w < 8) {
		c.label_w = 0;
		c.id_w = r->w - c.id_x - c.calls_w - 2 - cells_w;
	}
	if (c.id_w < 4)
		c.id_w = 4;
	c.cells_x = r->x + r->w - cells_w;
	return c;
}

static void list_header(const struct tui *t, const struct list_cols *c, int y, size_t nrows)
{
	const struct rect *r = &t->lay.pane[PANE_LIST];
	attr_t head = screen_attr(t, SLOT_HEADER);
	draw_fill(y, r->x, r->w, head);
	draw_text(y, r->x + c->id_x, c->id_w, "id", 2, head);
	if (c->label_w)
		draw_text(y, r->x + c->id_x + c->id_w + 1, c->label_w, "model", 5, head);
	draw_text(y, r->x + c->id_x + c->id_w + 1 + c->label_w + (c->label_w ? 1 : 0), c->calls_w, "  #", 3, head);
	for (size_t s = 0; s < nrows; s++) {
		/* Cells are numbered as the verdict rows are. */
		char ab[4];
		snprintf(ab, sizeof ab, "%zu", (s + 1) % 10);
		draw_text(y, c->cells_x + (int)s * 2, 2, ab, 1, head);
	}
}

/* Until a record is read (or when it cannot be), its place in the file
 * stands for it; the end of FILE:LINE is what tells records apart. */
static void list_id(const struct review_entry *e, int y, int x, int w, attr_t base)
{
	if (e->id && !e->load_failed) {
		/* Ids of one benchmark share a long start and differ at the end
		 * (task000-trial0): cut the middle; the details show it whole. */
		draw_text_cut_middle(y, x, w, e->id, strlen(e->id), base);
		return;
	}
	const char *src = e->source;
	size_t len = strlen(src);
	if ((int)len > w && w > 1) {
		int k = draw_text(y, x, 1, "\xe2\x80\xa6", 3, base);
		draw_text(y, x + k, w - k, src + len - (size_t)(w - k), (size_t)(w - k), base);
	} else {
		draw_text(y, x, w, src, len, base);
	}
}

static void list_row(const struct tui *t, const struct list_cols *c, int y, size_t vi, bool sel)
{
	const struct review *rv = tui_rv(t);
	const struct rect *r = &t->lay.pane[PANE_LIST];
	const struct review_entry *e = review_view_entry(rv, vi);
	attr_t base = sel ? screen_attr(t, t->focus == PANE_LIST ? SLOT_SELECTION : SLOT_SELECTION_DIM)
	                  : screen_attr(t, SLOT_NORMAL);
	draw_fill(y, r->x, r->w, base);
	int mslot;
	/* An override shows even while other verdicts wait for a decision. */
	enum review_mark mk = review_mark_of(rv, rv->view[vi]);
	if (e->any_override)
		mk = MARK_OVERRIDDEN;
	const char *mg = mark_glyph(mk, &mslot);
	if (sel)
		draw_text(y, r->x, 1, ">", 1, base);
	draw_text(y, r->x + 1, 1, mg, strlen(mg), sel ? base : screen_attr(t, mslot));
	list_id(e, y, r->x + c->id_x, c->id_w, base);
	int x = r->x + c->id_x + c->id_w + 1;
	if (c->label_w) {
		const char *lb = e->label ? e->label : "";
		draw_text_cut(y, x, c->label_w, lb, strlen(lb), sel ? base : screen_attr(t, SLOT_DIM));
		x += c->label_w + 1;
	}
	char calls[16];
	if (e->summarized && !e->load_failed)
		snprintf(calls, sizeof calls, "%3u", e->ncalls);
	else
		snprintf(calls, sizeof calls, "  .");
	draw_text(y, x, c->calls_w, calls, strlen(calls), base);
	size_t nrows = review_nrows(rv);
	for (size_t s = 0; s < nrows; s++) {
		struct review_row row;
		review_row_get(rv, NULL, s, &row);
		int slot;
		const char *g = row.kind == ROW_SCORER ? cell_glyph(e, row.slot, &slot) : judge_glyph(e, row.slot, &slot);
		/* blind: a verdict shows once this reviewer has decided its row */
		if (e->summarized && !e->load_failed && g[0] != ' ' && review_row_hidden(rv, rv->view[vi], s)) {
			g = "\xc2\xb7";                                      /* · */
			slot = SLOT_DIM;
		}
		draw_text(y, c->cells_x + (int)s * 2, 1, g, strlen(g), sel ? base : screen_attr(t, slot));
	}
}

static void list_draw(const struct tui *t)
{
	const struct review *rv = tui_rv(t);
	const struct rect *r = &t->lay.pane[PANE_LIST];
	size_t n = review_view_count(rv);
	size_t nrows = review_nrows(rv);
	char extra[96];
	/* Filtered, the title says of how many: "4 of 12 runs". */
	size_t all = rv->assign.on ? rv->share_total : rv->nentries;
	if (rv->filter != FILTER_ALL)
		snprintf(extra, sizeof extra, "%zu of %zu run%s", n, all, all == 1 ? "" : "s");
	else
		snprintf(extra, sizeof extra, "%zu run%s", n, n == 1 ? "" : "s");
	draw_pane_title(t, PANE_LIST, list_pane.title, extra);
	struct list_cols c = list_columns(r, nrows);
	int y = r->y + 1;
	list_header(t, &c, y, nrows);
	int rows = r->h - 2;
	size_t cur = review_cursor(rv);
	for (int i = 0; i < rows && t->list.top + (size_t)i < n; i++)
		list_row(t, &c, y + 1 + i, t->list.top + (size_t)i, t->list.top + (size_t)i == cur);
}

/* Keeps the cursor's row on screen. */
static void list_fit(struct tui *t)
{
	int rows = t->lay.pane[PANE_LIST].h - 2;
	if (rows < 1)
		return;
	size_t n = review_view_count(tui_rv(t)), cur = review_cursor(tui_rv(t));
	if (cur < t->list.top)
		t->list.top = cur;
	if (cur >= t->list.top + (size_t)rows)
		t->list.top = cur - (size_t)rows + 1;
	if (t->list.top + (size_t)rows > n)
		t->list.top = n > (size_t)rows ? n - (size_t)rows : 0;
}

unsigned list_moved(struct tui *t)
{
	t->vd.detail_top = 0;
	/* The timeline of another run opens at its first user message when it
	 * is built (timeline.c); the same run keeps its place. */
	return REDRAW_ALL | RELAYOUT;   /* the verdict details, and so the panes, change with the run */
}

static unsigned list_move(struct tui *t, long delta)
{
	review_move(t->rv, delta);
	return list_moved(t);
}

static unsigned list_page(struct tui *t, long dir)
{
	long page = pane_rows(t, PANE_LIST) - 1;
	return list_move(t, dir * (page < 1 ? 1 : page));
}

static unsigned list_end(struct tui *t, bool last)
{
	review_move_to(t->rv, last ? SIZE_MAX : 0);
	return list_moved(t);
}

/* Enter in the list opens the selected verdict's details. */
static unsigned list_toggle(struct tui *t)
{
	t->vd.open = !t->vd.open;
	return REDRAW_VERDICTS | RELAYOUT | REDRAW_TIMELINE;
}

static unsigned list_click(struct tui *t, int row)
{
	if (row < 1)                   /* the column header */
		return 0;
	size_t i = t->list.top + (size_t)(row - 1);
	if (i >= review_view_count(t->rv))
		return 0;
	review_move_to(t->rv, i);
	return list_moved(t);
}

const struct pane_ops list_pane = {
	.title  = "runs",
	.fit    = list_fit,
	.draw   = list_draw,
	.step   = list_move,
	.page   = list_page,
	.end    = list_end,
	.toggle = list_toggle,
	.click  = list_click,
	.wheel  = list_move,
};
