/* status.c - the last row: where the reviewer is, what is loading, the
 * last message (errors stand out), and key hints; or the prompt. */
#include <stdio.h>
#include <string.h>

#include "tui_int.h"

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s && s[1] ? s + 1 : path;
}

void status_draw(struct tui *t)
{
	const struct rect *r = &t->lay.status;
	struct review *rv = t->rv;
	attr_t a = screen_attr(t, SLOT_STATUS);
	draw_fill(r->y, 0, COLS, a);
	if (t->prompt != PROMPT_NONE) {
		int x = draw_text(r->y, 0, COLS, t->prompt_label, strlen(t->prompt_label), a);
		const char *in = t->input.buf ? t->input.buf : "";
		draw_text(r->y, x, COLS - x, in, strlen(in), a);
		return;
	}
	char left[512];
	size_t n = review_view_count(rv);
	size_t cur = n ? review_cursor(rv) + 1 : 0;
	const char *file = rv->ds.nfiles ? base_name(rv->ds.files[0].path) : "-";
	int len = snprintf(left, sizeof left, "%s%s  run %zu of %zu  reviewed %zu of %zu", file,
	                   rv->ds.nfiles > 1 ? " +" : "", cur, n, review_reviewed_count(rv), rv->nentries);
	if (rv->filter != FILTER_ALL)
		len += snprintf(left + len, sizeof left - (size_t)len, "  filter: %s", review_filter_name(rv->filter));
	if (rv->sort != SORT_FILE)
		len += snprintf(left + len, sizeof left - (size_t)len, "  sort: %s", review_sort_name(rv->sort));
	if (review_busy(rv)) {
		double ip = review_index_progress(rv), sp = review_score_progress(rv);
		if (ip < 1)
			len += snprintf(left + len, sizeof left - (size_t)len, "  indexing %.0f%%", ip * 100);
		else
			len += snprintf(left + len, sizeof left - (size_t)len, "  scoring %.0f%%", sp * 100);
	}
	int x = draw_text(r->y, 0, COLS, left, (size_t)len, a);
	if (t->msg[0]) {
		x += draw_text(r->y, x, COLS - x, "  ", 2, a);
		attr_t ma = t->msg_error ? screen_attr(t, SLOT_STATUS_ERROR) : a;
		x += draw_text(r->y, x, COLS - x, t->msg, strlen(t->msg), ma);
	}
	static const char hint[] = "? help  q quit";
	int hw = (int)sizeof hint - 1;
	if (COLS - x > hw + 2)
		draw_text(r->y, COLS - hw, hw, hint, (size_t)hw, a);
}

void help_draw(struct tui *t)
{
	attr_t head = screen_attr(t, SLOT_TITLE_FOCUS);
	draw_fill(0, 0, COLS, head);
	static const char title[] = "[help] keys (Esc or q closes; j/k scroll)";
	draw_text(0, 0, COLS, title, sizeof title - 1, head);
	char *buf = NULL;
	size_t blen = 0;
	FILE *f = open_memstream(&buf, &blen);
	if (!f)
		return;
	keymap_print(&t->km, f, false);
	fclose(f);
	int rows = LINES - 2;
	size_t line = 0;
	const char *p = buf;
	int y = 1;
	while (p && *p && y <= rows) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		if (line >= t->help_top)
			draw_text(y++, 1, COLS - 1, p, len, screen_attr(t, SLOT_NORMAL));
		line++;
		p += len + (nl ? 1 : 0);
	}
	if (t->help_top > line)
		t->help_top = line;
	free(buf);
}
