/* draw.c - transcript text on the screen: sanitised and measured by
 * util/wtext (control characters shown as ^[, invalid UTF-8 as U+FFFD),
 * clipped by display width without splitting a wide character. Nothing
 * from a record reaches the terminal as it is. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui_int.h"
#include "util/shortnames.h"
#include "util/wtext.h"

int draw_wide(int y, int x, int w, const wchar_t *s, size_t n, attr_t a)
{
	if (w <= 0 || y < 0 || y >= LINES || x >= COLS)
		return 0;
	if (x + w > COLS)
		w = COLS - x;
	size_t width;
	size_t fit = wtext_fit(s, n, (size_t)w, &width);
	attr_set(a, PAIR_NUMBER(a), NULL);
	if (fit)
		mvaddnwstr(y, x, s, (int)fit);
	attr_set(A_NORMAL, 0, NULL);
	return (int)width;
}

int draw_text(int y, int x, int w, const char *s, size_t len, attr_t a)
{
	size_t n;
	wchar_t *ws = wtext_decode(s, len, WTEXT_TABS, &n);
	int used = draw_wide(y, x, w, ws, n, a);
	free(ws);
	return used;
}

void draw_fill(int y, int x, int w, attr_t a)
{
	if (y < 0 || y >= LINES || w <= 0)
		return;
	if (x + w > COLS)
		w = COLS - x;
	attr_set(a, PAIR_NUMBER(a), NULL);
	mvhline(y, x, ' ', w);
	attr_set(A_NORMAL, 0, NULL);
}

int draw_width(const char *s, size_t len)
{
	size_t n;
	wchar_t *ws = wtext_decode(s, len, WTEXT_TABS, &n);
	size_t w = wtext_width(ws, n);
	free(ws);
	return (int)w;
}

int draw_text_cut(int y, int x, int w, const char *s, size_t len, attr_t a)
{
	if (w <= 0)
		return 0;
	size_t n, width;
	wchar_t *ws = wtext_decode(s, len, WTEXT_TABS, &n);
	n = wtext_truncate(ws, n, (size_t)w, true, &width);
	int used = draw_wide(y, x, w, ws, n, a);
	free(ws);
	return used;
}

int draw_text_cut_middle(int y, int x, int w, const char *s, size_t len, attr_t a)
{
	if (w <= 0)
		return 0;
	size_t n, width;
	wchar_t *ws = wtext_decode(s, len, WTEXT_TABS, &n);
	n = wtext_cut_middle(ws, n, (size_t)w, &width);
	int used = draw_wide(y, x, w, ws, n, a);
	free(ws);
	return used;
}

void draw_pane_title_parts(const struct tui *t, enum pane p, const char *title,
                           const struct title_part *parts, size_t nparts)
{
	const struct rect *r = &t->lay.pane[p];
	attr_t a = screen_attr(t, t->focus == p ? SLOT_TITLE_FOCUS : SLOT_TITLE);
	draw_fill(r->y, r->x, r->w, a);
	char buf[256];
	/* Zoomed, the title says so and how back, as tmux's Z flag does;
	 * that goes first when the title does not fit. */
	struct title_part with[17];
	char back[64], keys[32];
	if (t->zoom && nparts < 16) {
		keymap_keys_of(&t->km, ACT_ZOOM, keys, sizeof keys);
		snprintf(back, sizeof back, "zoomed: %s to return", keys);
		if (nparts)
			memcpy(with, parts, nparts * sizeof *parts);
		with[nparts++] = (struct title_part){ .full = back, .brief = "zoomed", .rank = 99 };
		parts = with;
	}
	layout_title(buf, sizeof buf, r->w, title, parts, nparts);
	draw_text(r->y, r->x, r->w, buf, strlen(buf), a);
}

void draw_pane_title(const struct tui *t, enum pane p, const char *title, const char *extra)
{
	/* Its parts are dropped from the last: the first says the most. */
	struct title_part parts[8];
	char copy[256];
	size_t n = 0;
	snprintf(copy, sizeof copy, "%s", extra ? extra : "");
	for (char *s = copy; *s && n < 8; n++) {
		char *comma = strstr(s, ", ");
		if (comma)
			*comma = '\0';
		parts[n] = (struct title_part){ .full = s, .rank = (int)n };
		s = comma ? comma + 2 : s + strlen(s);
	}
	draw_pane_title_parts(t, p, title, parts, n);
}

int pane_rows(const struct tui *t, enum pane p)
{
	int h = t->lay.pane[p].h - 1;
	return h > 1 ? h : 1;
}

/* A verdict cell or a mark keeps its own colour on the selected row (red
 * on the selection's cyan is unreadable); a blank one takes the bar's.
 * Without colour its attributes join the bar's reverse video, so the
 * selected row stays one bar. */
attr_t draw_cell_attr(const struct tui *t, bool sel, attr_t base, int slot)
{
	if (!sel)
		return screen_attr(t, slot);
	if (slot == SLOT_NORMAL || slot == SLOT_DIM)
		return base;
	return t->color ? screen_attr(t, slot) : base | screen_attr(t, slot);
}

/* A shortened name: "…" where a shared start or end was dropped, the
 * rest cut in the middle if the column is narrower still. */
void draw_short_name(int y, int x, int w, const char *name, const struct short_name *sn, attr_t a,
                       bool middle)
{
	int end = x + w;
	if (sn->lead && w > 2)
		x += draw_text(y, x, 1, "\xe2\x80\xa6", 3, a);
	int room = end - x - (sn->trail ? 1 : 0);
	int used = middle ? draw_text_cut_middle(y, x, room, name + sn->from, sn->len, a)
	                  : draw_text_cut(y, x, room, name + sn->from, sn->len, a);
	if (sn->trail && x + used < end)
		draw_text(y, x + used, 1, "\xe2\x80\xa6", 3, a);
}
