/* filter_menu.c - f: the filters as a small menu, each with its letter.
 *
 * Eleven filters are too many to cycle through one key at a time: the menu
 * lists those that apply (no judge filter without judges), each with a
 * letter that picks it at once; j/k or the arrows move, Enter picks the one
 * selected, Esc or q leaves the filter as it was. */
#include <string.h>

#include "tui_int.h"

/* Each filter's letter: its name's first where it is free; none is j or k
 * (they move in the menu) nor q (it closes). */
static const char filter_keys[FILTER_COUNT] = {
	[FILTER_ALL] = 'a', [FILTER_UNREVIEWED] = 'u', [FILTER_FAILING] = 'f',
	[FILTER_DISAGREE] = 'd', [FILTER_OVERRIDDEN] = 'o', [FILTER_ERRORS] = 'e',
	[FILTER_JUDGE_HUMAN] = 'h', [FILTER_CODE_HUMAN] = 'c', [FILTER_CODE_JUDGE] = 'b',
	[FILTER_REVIEWERS] = 'r', [FILTER_STALE] = 's', [FILTER_TAG] = 't',
};

/* The filters the menu offers, in the session's order; returns how many. */
static size_t fmenu_items(const struct review *rv, enum review_filter *out)
{
	size_t n = 0;
	enum review_filter f = FILTER_ALL;
	do {
		out[n++] = f;
		f = review_filter_next(rv, f);
	} while (f != FILTER_ALL && n < FILTER_COUNT);
	return n;
}

unsigned fmenu_open(struct tui *t)
{
	enum review_filter items[FILTER_COUNT];
	size_t n = fmenu_items(t->rv, items);
	t->fmenu.shown = true;
	t->fmenu.sel = 0;
	for (size_t i = 0; i < n; i++)
		if (items[i] == t->rv->filter)
			t->fmenu.sel = i;
	return REDRAW_ALL;
}

static unsigned fmenu_pick(struct tui *t, enum review_filter f)
{
	t->fmenu.shown = false;
	review_set_filter(t->rv, f);
	tui_message(t, false, "%s", f == FILTER_ALL ? "filter: all" : "");
	return list_moved(t) | REDRAW_ALL;
}

unsigned fmenu_key(struct tui *t, keycode_t key)
{
	enum review_filter items[FILTER_COUNT];
	size_t n = fmenu_items(t->rv, items);
	for (size_t i = 0; i < n; i++)
		if (key == (keycode_t)(unsigned char)filter_keys[items[i]])
			return fmenu_pick(t, items[i]);
	enum tcr_action a = keymap_lookup(&t->km, key);
	if (key == 'j' || a == ACT_DOWN)
		t->fmenu.sel = (t->fmenu.sel + 1) % n;
	else if (key == 'k' || a == ACT_UP)
		t->fmenu.sel = (t->fmenu.sel + n - 1) % n;
	else if (key == '\n' || a == ACT_TOGGLE)
		return fmenu_pick(t, items[t->fmenu.sel < n ? t->fmenu.sel : 0]);
	else if (key == 27 || key == 'q' || a == ACT_CANCEL || a == ACT_QUIT)
		t->fmenu.shown = false;
	else
		tui_message(t, true, "no filter on that key: a letter of the menu, Enter, or Esc");
	return REDRAW_ALL;
}

/* A filter's line in the menu: the tag filter names its tag. */
static const char *fmenu_name(const struct review *rv, enum review_filter f)
{
	return f == FILTER_TAG ? rv->tagf.label : review_filter_name(f);
}

/* A box over the run list: a line per filter ("u  unreviewed"), the one
 * in force marked, the selected one highlighted, a hint at the bottom. */
void fmenu_draw(const struct tui *t)
{
	const struct review *rv = tui_rv(t);
	enum review_filter items[FILTER_COUNT];
	size_t n = fmenu_items(rv, items);
	static const char hint[] = "letter or Enter picks, Esc shuts";
	int w = (int)sizeof hint - 1;
	for (size_t i = 0; i < n; i++) {
		const char *name = fmenu_name(rv, items[i]);
		int nw = 5 + draw_width(name, strlen(name)) + 4;
		if (nw > w)
			w = nw;
	}
	w += 4;                          /* the border and a blank either side */
	if (w > COLS)
		w = COLS;
	int x0 = t->lay.pane[PANE_LIST].x + 1, y0 = t->lay.pane[PANE_LIST].y + 1;
	if (x0 + w > COLS)
		x0 = COLS - w > 0 ? COLS - w : 0;
	int h = (int)n + 3;
	if (y0 + h > LINES - 1)
		y0 = LINES - 1 - h > 0 ? LINES - 1 - h : 0;
	attr_t a = screen_attr(t, SLOT_NORMAL), sel = screen_attr(t, SLOT_SELECTION);
	/* the box's top edge carries its title, as a framed menu does */
	struct strbuf top = STRBUF_INIT;
	strbuf_addstr(&top, "\xe2\x94\x8c\xe2\x94\x80 filter ");
	for (int i = 0; i < w - 11; i++)
		strbuf_addstr(&top, "\xe2\x94\x80");
	strbuf_addstr(&top, "\xe2\x94\x90");
	draw_fill(y0, x0, w, a);
	draw_text(y0, x0, w, top.buf, top.len, a);
	strbuf_release(&top);
	draw_text(y0, x0 + 3, w - 4, "filter", 6, screen_attr(t, SLOT_TITLE_FOCUS));
	for (int i = 0; i < (int)n && y0 + 1 + i < LINES - 2; i++) {
		enum review_filter f = items[i];
		attr_t la = (size_t)i == t->fmenu.sel ? sel : a;
		draw_fill(y0 + 1 + i, x0, w, a);
		draw_text(y0 + 1 + i, x0, 1, "\xe2\x94\x82", 3, a);
		draw_text(y0 + 1 + i, x0 + w - 1, 1, "\xe2\x94\x82", 3, a);
		char line[224];
		int len = snprintf(line, sizeof line, " %c  %s%s", filter_keys[f], fmenu_name(rv, f),
		                   f == rv->filter ? "  \xe2\x86\x90 in use" : "");   /* ← the one in force */
		if (len >= (int)sizeof line)
			len = (int)sizeof line - 1;
		draw_fill(y0 + 1 + i, x0 + 1, w - 2, la);
		draw_text(y0 + 1 + i, x0 + 1, w - 2, line, (size_t)len, la);
	}
	int yb = y0 + 1 + (int)n;
	draw_fill(yb, x0, w, a);
	draw_text(yb, x0, 1, "\xe2\x94\x82", 3, a);
	draw_text(yb, x0 + 2, w - 3, hint, sizeof hint - 1, screen_attr(t, SLOT_DIM));
	draw_text(yb, x0 + w - 1, 1, "\xe2\x94\x82", 3, a);
	draw_fill(yb + 1, x0, w, a);
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, "\xe2\x94\x94");
	for (int i = 0; i < w - 2; i++)
		strbuf_addstr(&sb, "\xe2\x94\x80");
	strbuf_addstr(&sb, "\xe2\x94\x98");
	draw_text(yb + 1, x0, w, sb.buf, sb.len, a);
	strbuf_release(&sb);
}
