/* list.c - the runs pane: review mark, id, model or format, calls, a cell per verdict row. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui_int.h"
#include "review/tags.h"
#include "util/shortnames.h"
#include "util/xalloc.h"

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
		/* not a pass cell's ✓ in its green: reviewed says what the
		 * reviewer did, not what the verdict was */
		*slot = SLOT_MARK_REVIEWED;
		return "\xe2\x98\x91";                                    /* ☑ */
	case MARK_OVERRIDDEN:
		*slot = SLOT_MARK_OVERRIDDEN;
		return "\xe2\x9c\x8e";                                    /* ✎ */
	default:
		*slot = SLOT_NORMAL;
		return " ";
	}
}

/* The list's columns for a pane this wide: mark, id, label, calls, then
 * two cells per verdict row. label_w: what the labels shown need (0 when
 * the column gives way: one label on every row). */
struct list_cols {
	int id_x, id_w, label_w, calls_w, cells_x;
};

static struct list_cols list_columns(const struct rect *r, size_t nrows, int label_need, bool sides)
{
	/* --compare: the run's side (B or C) after the mark */
	struct list_cols c = { .id_x = sides ? 5 : 3, .calls_w = 3 };
	int cells_w = (int)nrows * 2;
	c.label_w = r->w >= 56 ? 14 : r->w >= 44 ? 10 : 8;
	if (label_need < c.label_w)
		c.label_w = label_need;
	/* '>' marks the selected row and the review mark follows it, so both
	 * read without colour. */
	c.id_w = r->w - c.id_x - c.label_w - (c.label_w ? 1 : 0) - c.calls_w - 2 - cells_w;
	if (c.id_w < 8 && c.label_w) {
		c.label_w = 0;
		c.id_w = r->w - c.id_x - c.calls_w - 2 - cells_w;
	}
	if (c.id_w < 4)
		c.id_w = 4;
	c.cells_x = r->x + r->w - cells_w;
	return c;
}

/* The rows on screen, and what their ids and labels are shortened to: by
 * what tells these runs apart (a benchmark's ids share a long start), and
 * a label every row shares (the model) said once in the header instead. */
struct list_view {
	size_t top, n;
	const char **ids, **labels;
	struct short_name *id_cut, *label_cut;
	const char *shared_label;       /* every row's label, when they are one */
};

static int list_labels(struct list_view *v, int cap)
{
	const char *first = NULL;
	bool same = true;
	for (size_t i = 0; i < v->n; i++) {
		const char *lb = v->labels[i];
		if (!lb || !*lb)
			continue;
		if (!first)
			first = lb;
		same &= !strcmp(first, lb);
	}
	if (!first || same) {
		v->shared_label = first;
		return 0;
	}
	short_names(v->labels, v->n, (size_t)cap, v->label_cut);
	int need = 5;                   /* "model" */
	for (size_t i = 0; i < v->n; i++) {
		int w = (int)short_name_width(v->labels[i], &v->label_cut[i]);
		need = w > need ? w : need;
	}
	return need;
}

static void list_view_make(const struct tui *t, struct list_view *v, int rows)
{
	const struct review *rv = tui_rv(t);
	size_t total = review_view_count(rv);
	v->top = t->list.top;
	v->n = rows > 0 && v->top < total ? total - v->top : 0;
	if (v->n > (size_t)(rows > 0 ? rows : 0))
		v->n = (size_t)rows;
	v->ids = xcalloc(v->n + 1, sizeof *v->ids);
	v->labels = xcalloc(v->n + 1, sizeof *v->labels);
	v->id_cut = xcalloc(v->n + 1, sizeof *v->id_cut);
	v->label_cut = xcalloc(v->n + 1, sizeof *v->label_cut);
	v->shared_label = NULL;
	for (size_t i = 0; i < v->n; i++) {
		const struct review_entry *e = review_view_entry(rv, v->top + i);
		v->ids[i] = e->id && !e->load_failed ? e->id : NULL;
		v->labels[i] = e->label;
	}
}

static void list_view_free(struct list_view *v)
{
	free(v->ids);
	free(v->labels);
	free(v->id_cut);
	free(v->label_cut);
}

static void list_header(const struct tui *t, const struct list_cols *c, int y, size_t nrows,
                        const char *shared_label, size_t nruns)
{
	const struct rect *r = &t->lay.pane[PANE_LIST];
	attr_t head = screen_attr(t, SLOT_HEADER);
	draw_fill(y, r->x, r->w, head);
	int x = r->x + c->id_x + draw_text(y, r->x + c->id_x, c->id_w, "id", 2, head);
	if (shared_label && c->id_w > 6) {
		/* the label every row shares, once */
		char said[160];
		int n = snprintf(said, sizeof said, "  %s%s", nruns > 1 ? "all " : "", shared_label);
		draw_text_cut(y, x, r->x + c->id_x + c->id_w - x, said, (size_t)(n < 0 ? 0 : n), head);
	}
	if (c->label_w)
		draw_text(y, r->x + c->id_x + c->id_w + 1, c->label_w, "model", 5, head);
	draw_text(y, r->x + c->id_x + c->id_w + 1 + c->label_w + (c->label_w ? 1 : 0), c->calls_w, "  #", 3, head);
	for (size_t s = 0; s < nrows; s++) {
		/* Cells are labelled as the verdict rows are. */
		char ab[4];
		verdict_row_label(s, ab);
		draw_text(y, c->cells_x + (int)s * 2, 2, ab, strlen(ab), head);
	}
}

/* Until a record is read (or when it cannot be), its place in the file
 * stands for it; the end of FILE:LINE is what tells records apart. */
static void list_id(const struct review_entry *e, const struct short_name *sn, int y, int x, int w,
                    attr_t base)
{
	if (e->id && !e->load_failed) {
		/* What is left after the shared start and end is cut in the
		 * middle, where its own start and end tell most; the details
		 * show the id whole. */
		draw_short_name(y, x, w, e->id, sn, base, true);
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

/* A run's tags at the right of its id cell: the tag's name when it is
 * the only one and fits beside the id, else ⚑ and how many tags. */
static void list_tags(const struct tui *t, const struct review_entry *e, const struct short_name *sn,
                      int y, int x, int w, attr_t a)
{
	const struct review *rv = tui_rv(t);
	const struct decision *d[32];
	size_t n = e->id ? review_tags_on(rv, e->id, -1, d, 32) : 0;
	const char *names[32];
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		const char *name = vocab_tag_name(&t->cfg->vocab, rv->annot, d[i]->tag);
		bool seen = false;
		for (size_t j = 0; j < k && !seen; j++)
			seen = vocab_code_eq(names[j], name);
		if (!seen)
			names[k++] = name;
	}
	if (!k)
		return;
	char b[96];
	/* the id as the list shows it: what tells it apart, with its … */
	int idw = e->id ? draw_width(e->id + sn->from, sn->len ? sn->len : strlen(e->id)) +
	                  sn->lead + sn->trail : w;
	int len = snprintf(b, sizeof b, "\xe2\x9a\x91%s", names[0]);            /* ⚑ */
	if (k > 1 || len >= (int)sizeof b || draw_width(b, (size_t)len) + 1 + idw > w)
		len = snprintf(b, sizeof b, "\xe2\x9a\x91%zu", k);
	int bw = draw_width(b, (size_t)len);
	if (bw + 1 + idw <= w)
		draw_text(y, x + w - bw, bw, b, (size_t)len, a);
	else if (x > 0)     /* never over the id: the flag alone, in the gap before it */
		draw_text(y, x - 1, 1, "\xe2\x9a\x91", 3, a);
}

static void list_row(const struct tui *t, const struct list_cols *c, const struct list_view *v, int y,
                     size_t vi, bool sel)
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
	draw_text(y, r->x + 1, 1, mg, strlen(mg), draw_cell_attr(t, sel, base, mslot));
	const char *side = compare_side_letter(compare_side_of(rv, &t->cmp.sides, rv->view[vi]));
	if (*side)
		draw_text(y, r->x + 3, 1, side, 1, draw_cell_attr(t, sel, base, SLOT_DIM));
	size_t i = vi - v->top;
	list_id(e, &v->id_cut[i], y, r->x + c->id_x, c->id_w, base);
	list_tags(t, e, &v->id_cut[i], y, r->x + c->id_x, c->id_w,
	          draw_cell_attr(t, sel, base, SLOT_MARK_REVIEWED));
	int x = r->x + c->id_x + c->id_w + 1;
	if (c->label_w) {
		if (e->label)
			draw_short_name(y, x, c->label_w, e->label, &v->label_cut[i], sel ? base : screen_attr(t, SLOT_DIM),
			           false);
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
		draw_text(y, c->cells_x + (int)s * 2, 1, g, strlen(g), draw_cell_attr(t, sel, base, slot));
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
	int rows = r->h - 2;
	struct list_view v;
	list_view_make(t, &v, rows);
	int cap = r->w >= 56 ? 14 : r->w >= 44 ? 10 : 8;
	struct list_cols c = list_columns(r, nrows, list_labels(&v, cap), t->cmp.sides.on);
	short_names(v.ids, v.n, (size_t)c.id_w, v.id_cut);
	int y = r->y + 1;
	list_header(t, &c, y, nrows, c.label_w ? NULL : v.shared_label, v.n);
	size_t cur = review_cursor(rv);
	for (size_t i = 0; i < v.n; i++)
		list_row(t, &c, &v, y + 1 + (int)i, v.top + i, v.top + i == cur);
	list_view_free(&v);
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
