/* layout.c - pane rectangles from the terminal size and what the panes ask for; title rows cut whole. */
#include "tui/layout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/wtext.h"

/* The list's widest share: room for ids and a few verdict cells; on wide
 * terminals it grows, but the timeline always gets the larger half. */
static int list_share(int cols)
{
	int list_w = cols * 2 / 5;
	if (list_w < 36)
		list_w = 36;
	if (list_w > 72)
		list_w = 72;
	return list_w;
}

/* The verdicts' rows under the timeline in a column `body` rows high. */
static int verdicts_height(int body, int nverdict_rows)
{
	int want = nverdict_rows + 1;           /* plus its title row */
	int max_v = body * 11 / 20;
	if (max_v < 4)
		max_v = 4;
	int v_h = want < 4 ? 4 : want;
	return v_h > max_v ? max_v : v_h;
}

/* The timeline over the verdicts, in the column from (x, y) w wide and h high. */
static void column_split(struct layout *l, int x, int y, int w, int h, int nverdict_rows)
{
	int v_h = verdicts_height(h, nverdict_rows);
	l->pane[PANE_TIMELINE] = (struct rect){ x, y, w, h - v_h };
	l->pane[PANE_VERDICTS] = (struct rect){ x, y + h - v_h, w, v_h };
}

struct layout layout_compute_with(int cols, int lines, const struct layout_want *w)
{
	struct layout l = { .cols = cols, .lines = lines };
	if (cols < 40 || lines < 10) {
		l.too_small = 1;
		l.status = (struct rect){ 0, lines > 0 ? lines - 1 : 0, cols, 1 };
		return l;
	}
	int body = lines - 1;
	l.status = (struct rect){ 0, lines - 1, cols, 1 };
	if (w->zoom >= 0 && w->zoom < PANE_COUNT) {
		/* the others keep empty rectangles: nothing is drawn or clicked there */
		l.pane[w->zoom] = (struct rect){ 0, 0, cols, body };
		return l;
	}
	if (w->one_run) {
		/* One run has nothing to choose between: its row (title, header,
		 * the run) is a strip over the whole width, as tig's status bar
		 * is, and the transcript reads at the terminal's width below it. */
		l.pane[PANE_LIST] = (struct rect){ 0, 0, cols, 3 };
		column_split(&l, 0, 3, cols, body - 3, w->nverdict_rows);
		return l;
	}
	int list_w = list_share(cols);
	if (w->list_w > 0 && w->list_w < list_w)
		list_w = w->list_w < LAYOUT_LIST_MIN ? LAYOUT_LIST_MIN : w->list_w;
	l.pane[PANE_LIST] = (struct rect){ 0, 0, list_w, body };
	column_split(&l, list_w, 0, cols - list_w, body, w->nverdict_rows);
	return l;
}

struct layout layout_compute(int cols, int lines, int nverdict_rows)
{
	struct layout_want w = { .nverdict_rows = nverdict_rows, .zoom = PANE_COUNT };
	return layout_compute_with(cols, lines, &w);
}

static int text_width(const char *s)
{
	size_t n;
	wchar_t *ws = wtext_decode(s, strlen(s), WTEXT_TABS, &n);
	size_t w = wtext_width(ws, n);
	free(ws);
	return (int)w;
}

/* The title with the parts still kept, each in its form; its width. */
static int title_join(char *buf, size_t n, const char *title, const struct title_part *parts,
                      size_t nparts, const bool *brief, const bool *dropped)
{
	size_t used = (size_t)snprintf(buf, n, "[%s]", title);
	bool first = true;
	for (size_t i = 0; i < nparts && used < n; i++) {
		if (dropped[i])
			continue;
		const char *s = brief[i] && parts[i].brief ? parts[i].brief : parts[i].full;
		if (!s || !*s)
			continue;
		used += (size_t)snprintf(buf + used, n - used, "%s%s", first ? " " : ", ", s);
		first = false;
	}
	return text_width(buf);
}

/* The part of the highest rank not yet `done`, the later on a tie; -1 when none. */
static long title_least(const struct title_part *parts, size_t nparts, const bool *done)
{
	long pick = -1;
	for (size_t i = 0; i < nparts; i++)
		if (!done[i] && (pick < 0 || parts[i].rank >= parts[pick].rank))
			pick = (long)i;
	return pick;
}

int layout_title(char *buf, size_t n, int cols, const char *title, const struct title_part *parts,
                 size_t nparts)
{
	bool brief[16] = { false }, dropped[16] = { false }, done[16] = { false };
	if (nparts > 16)
		nparts = 16;
	int w = title_join(buf, n, title, parts, nparts, brief, dropped);
	/* First the brief forms, least important first, then the drops. */
	for (int pass = 0; pass < 2 && w > cols; pass++) {
		memset(done, 0, sizeof done);
		long i;
		while (w > cols && (i = title_least(parts, nparts, done)) >= 0) {
			done[i] = true;
			if (pass == 0 && !parts[i].brief)
				continue;
			if (pass == 0)
				brief[i] = true;
			else
				dropped[i] = true;
			w = title_join(buf, n, title, parts, nparts, brief, dropped);
		}
	}
	return w;
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
