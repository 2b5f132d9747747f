/* list.c - the run list: review mark, id, model or format, calls, and one
 * verdict cell per scorer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tui_int.h"

static const char *judge_glyph(const struct review_entry *e, size_t j, int *slot)
{
	static const char *const frames[] = { "|", "/", "-", "\\" };
	const struct judge_cell *c = e->jcells ? &e->jcells[j] : NULL;
	if (!c || c->state == JUDGE_NONE) {
		*slot = SLOT_DIM;
		return " ";
	}
	if (c->state == JUDGE_PENDING) {
		*slot = SLOT_SKIPPED;
		const char *still = getenv("TCR_NO_ANIMATION");
		if (still && *still)
			return "~";
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		return frames[(ts.tv_nsec / 100000000) % 4];
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

static void pane_title(struct tui *t, enum pane p, const char *title, const char *extra)
{
	const struct rect *r = &t->lay.pane[p];
	attr_t a = screen_attr(t, t->focus == p ? SLOT_TITLE_FOCUS : SLOT_TITLE);
	draw_fill(r->y, r->x, r->w, a);
	char buf[256];
	snprintf(buf, sizeof buf, "[%s]%s%s", title, extra && *extra ? " " : "", extra ? extra : "");
	draw_text(r->y, r->x, r->w, buf, strlen(buf), a);
}

void tui_pane_title(struct tui *t, enum pane p, const char *title, const char *extra)
{
	pane_title(t, p, title, extra);
}

void list_draw(struct tui *t)
{
	struct review *rv = t->rv;
	const struct rect *r = &t->lay.pane[PANE_LIST];
	size_t n = review_view_count(rv);
	size_t nsc = t->cfg->nscorers;
	size_t nrows = review_nrows(rv);          /* scorers, then judges */
	char extra[96];
	snprintf(extra, sizeof extra, "%zu run%s", n, n == 1 ? "" : "s");
	pane_title(t, PANE_LIST, "runs", extra);

	/* Columns: mark, id, label, calls, then two cells per scorer. */
	int cells_w = (int)nrows * 2;
	int calls_w = 3;
	int label_w = r->w >= 56 ? 14 : r->w >= 44 ? 10 : 8;
	/* '>' marks the selected row and the review mark follows it, so both
	 * read without colour. */
	int id_x = 3;
	int id_w = r->w - id_x - label_w - 1 - calls_w - 2 - cells_w;
	if (id_w < 8) {
		label_w = 0;
		id_w = r->w - id_x - calls_w - 2 - cells_w;
	}
	if (id_w < 4)
		id_w = 4;
	int y = r->y + 1;
	attr_t head = screen_attr(t, SLOT_HEADER);
	draw_fill(y, r->x, r->w, head);
	draw_text(y, r->x + id_x, id_w, "id", 2, head);
	if (label_w)
		draw_text(y, r->x + id_x + id_w + 1, label_w, "model", 5, head);
	draw_text(y, r->x + id_x + id_w + 1 + label_w + (label_w ? 1 : 0), calls_w, "  #", 3, head);
	int cx = r->x + r->w - cells_w;
	for (size_t s = 0; s < nrows; s++) {
		/* Cells are numbered as the verdict rows are. */
		char ab[4];
		snprintf(ab, sizeof ab, "%zu", (s + 1) % 10);
		draw_text(y, cx + (int)s * 2, 2, ab, 1, head);
	}

	int rows = r->h - 2;
	if (rows < 1)
		return;
	size_t cur = review_cursor(rv);
	if (cur < t->list_top)
		t->list_top = cur;
	if (cur >= t->list_top + (size_t)rows)
		t->list_top = cur - (size_t)rows + 1;
	if (t->list_top + (size_t)rows > n)
		t->list_top = n > (size_t)rows ? n - (size_t)rows : 0;
	for (int i = 0; i < rows; i++) {
		size_t vi = t->list_top + (size_t)i;
		if (vi >= n)
			break;
		struct review_entry *e = review_view_entry(rv, vi);
		size_t ei = rv->view[vi];
		int yy = y + 1 + i;
		bool sel = vi == cur;
		attr_t base = sel ? screen_attr(t, t->focus == PANE_LIST ? SLOT_SELECTION : SLOT_SELECTION_DIM)
		                  : screen_attr(t, SLOT_NORMAL);
		draw_fill(yy, r->x, r->w, base);
		int mslot;
		/* An override shows even while other verdicts wait for a decision. */
		enum review_mark mk = review_mark_of(rv, ei);
		if (e->any_override)
			mk = MARK_OVERRIDDEN;
		const char *mg = mark_glyph(mk, &mslot);
		if (sel)
			draw_text(yy, r->x, 1, ">", 1, base);
		draw_text(yy, r->x + 1, 1, mg, strlen(mg), sel ? base : screen_attr(t, mslot));
		/* Until a record is read (or when it cannot be), its place in
		 * the file stands for it. */
		if (e->id && !e->load_failed) {
			draw_text_cut(yy, r->x + id_x, id_w, e->id, strlen(e->id), base);
		} else {
			/* the end of FILE:LINE is what tells records apart */
			const char *src = e->source;
			size_t len = strlen(src);
			if ((int)len > id_w && id_w > 1) {
				int k = draw_text(yy, r->x + id_x, 1, "\xe2\x80\xa6", 3, base);
				draw_text(yy, r->x + id_x + k, id_w - k, src + len - (size_t)(id_w - k), (size_t)(id_w - k), base);
			} else {
				draw_text(yy, r->x + id_x, id_w, src, len, base);
			}
		}
		int x = r->x + id_x + id_w + 1;
		if (label_w) {
			const char *lb = e->label ? e->label : "";
			draw_text_cut(yy, x, label_w, lb, strlen(lb), sel ? base : screen_attr(t, SLOT_DIM));
			x += label_w + 1;
		}
		char calls[16];
		if (e->summarized && !e->load_failed)
			snprintf(calls, sizeof calls, "%3u", e->ncalls);
		else
			snprintf(calls, sizeof calls, "  .");
		draw_text(yy, x, calls_w, calls, strlen(calls), base);
		for (size_t s = 0; s < nrows; s++) {
			int slot;
			const char *g = s < nsc ? cell_glyph(e, s, &slot) : judge_glyph(e, s - nsc, &slot);
			attr_t ca = screen_attr(t, slot);
			if (sel)
				ca = base;
			draw_text(yy, cx + (int)s * 2, 1, g, strlen(g), ca);
		}
	}
}
