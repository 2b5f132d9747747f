/* layout.c - pane rectangles from the terminal size. */
#include "tui/layout.h"

#include <stdio.h>

struct layout layout_compute(int cols, int lines, int nverdict_rows)
{
	struct layout l = { .cols = cols, .lines = lines };
	if (cols < 40 || lines < 10) {
		l.too_small = 1;
		l.status = (struct rect){ 0, lines > 0 ? lines - 1 : 0, cols, 1 };
		return l;
	}
	int body = lines - 1;
	/* The list keeps room for ids and a few verdict cells; on wide
	 * terminals it grows, but the timeline always gets the larger half. */
	int list_w = cols * 2 / 5;
	if (list_w < 36)
		list_w = 36;
	if (list_w > 72)
		list_w = 72;
	int right_w = cols - list_w;
	int want = nverdict_rows + 1;           /* plus its title row */
	int max_v = body * 11 / 20;
	if (max_v < 4)
		max_v = 4;
	int v_h = want < 4 ? 4 : want;
	if (v_h > max_v)
		v_h = max_v;
	l.pane[PANE_LIST] = (struct rect){ 0, 0, list_w, body };
	l.pane[PANE_TIMELINE] = (struct rect){ list_w, 0, right_w, body - v_h };
	l.pane[PANE_VERDICTS] = (struct rect){ list_w, body - v_h, right_w, v_h };
	l.status = (struct rect){ 0, lines - 1, cols, 1 };
	return l;
}

void layout_describe(const struct layout *l, char *buf, size_t n)
{
	static const char *const names[PANE_COUNT] = { "list", "timeline", "verdicts" };
	size_t used = 0;
	if (l->too_small) {
		snprintf(buf, n, "too-small status{%d,%d %dx%d}", l->status.x, l->status.y, l->status.w,
		         l->status.h);
		return;
	}
	for (int p = 0; p < PANE_COUNT && used < n; p++) {
		const struct rect *r = &l->pane[p];
		used += (size_t)snprintf(buf + used, n - used, "%s{%d,%d %dx%d} ", names[p], r->x, r->y,
		                         r->w, r->h);
	}
	if (used < n)
		snprintf(buf + used, n - used, "status{%d,%d %dx%d}", l->status.x, l->status.y,
		         l->status.w, l->status.h);
}

int layout_pane_at(const struct layout *l, int x, int y)
{
	if (l->too_small)
		return -1;
	for (int p = 0; p < PANE_COUNT; p++) {
		const struct rect *r = &l->pane[p];
		if (x >= r->x && x < r->x + r->w && y >= r->y && y < r->y + r->h)
			return p;
	}
	return -1;
}
