/* status.c - the status line (its message and the prompt) and the help screen.
 *
 * The last row says where the reviewer is, what is loading, the last
 * message (errors stand out) and key hints; or it holds the prompt. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui_int.h"
#include "util/wtext.h"

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s && s[1] ? s + 1 : path;
}

/* The configuration in use, as the status line names it: the project's
 * file (with "+ user" when the user's is read under it), or the built-in
 * checks and the key that writes a file. */
static void status_config(const struct tui *t, struct strbuf *sb)
{
	const struct config *c = t->cfg;
	if (!c)
		return;
	if (c->path)
		strbuf_addf(sb, "  config %s%s", base_name(c->path), c->user_path ? " + user" : "");
	else
		strbuf_addf(sb, "  built-in checks%s (I writes tcreview.yaml)",
		            c->user_path ? " + user config" : "");
}

/* Where the reviewer is: the file, the run and (with_format) its format,
 * the progress (in the share with --assign), blind, the filter and sort,
 * what is loading, and (with_config) the configuration. Returns the
 * file's name. When the row is short the configuration gives way first,
 * then the file's name, then the format. */
static const char *status_where(const struct tui *t, struct strbuf *sb, bool with_format,
                                bool with_config)
{
	const struct review *rv = tui_rv(t);
	size_t n = review_view_count(rv);
	size_t cur = n ? review_cursor(rv) + 1 : 0;
	const char *file = rv->ds.nfiles ? base_name(rv->ds.files[0].path) : "-";
	strbuf_addstr(sb, file);
	/* "+N": N more input files after the first (a folder, several FILEs) */
	if (rv->ds.nfiles > 1)
		strbuf_addf(sb, " +%zu", rv->ds.nfiles - 1);
	strbuf_addf(sb, "  run %zu of %zu", cur, n);
	/* The format the run was read as: a file of several formats, or one
	 * detected otherwise than expected, shows here first. */
	const struct review_run *rr = n ? review_current(rv) : NULL;
	const char *fmt = rr && rr->run ? rr->run->format : NULL;
	/* A run the reader by shape read is a guess: that never gives way. */
	if (fmt && !strcmp(fmt, "shape"))
		strbuf_addstr(sb, " (by shape)");
	else if (fmt && with_format)
		strbuf_addf(sb, " (%s)", fmt);
	/* With --assign the progress that matters is the reviewer's share. */
	if (rv->assign.on)
		strbuf_addf(sb, "  share %u/%u: %zu of %zu reviewed", rv->assign.k, rv->assign.n,
		            rv->share_reviewed, rv->share_total);
	else
		strbuf_addf(sb, "  reviewed %zu of %zu", review_reviewed_count(rv), rv->nentries);
	if (rv->blind)
		strbuf_addstr(sb, "  blind");
	if (rv->filter != FILTER_ALL)
		strbuf_addf(sb, "  filter: %s", review_filter_label(rv));
	if (rv->sort != SORT_FILE)
		strbuf_addf(sb, "  sort: %s", review_sort_name(rv->sort));
	if (review_busy(rv)) {
		double ip = review_index_progress(rv), sp = review_score_progress(rv);
		if (ip < 1)
			strbuf_addf(sb, "  indexing %.0f%%", ip * 100);
		else
			strbuf_addf(sb, "  scoring %.0f%%", sp * 100);
	}
	if (with_config)
		status_config(t, sb);
	return file;
}

void status_draw(const struct tui *t)
{
	const struct rect *r = &t->lay.status;
	const struct review *rv = tui_rv(t);
	attr_t a = screen_attr(t, SLOT_STATUS);
	draw_fill(r->y, 0, COLS, a);
	if (t->pr.kind != PROMPT_NONE) {
		int x = draw_text(r->y, 0, COLS, t->pr.label, strlen(t->pr.label), a);
		const char *in = t->pr.input.buf ? t->pr.input.buf : "";
		draw_text(r->y, x, COLS - x, in, strlen(in), a);
		return;
	}
	/* The message says what the reviewer just did: when the row is too
	 * short for both, the file name gives way, then the run's format, and
	 * a message still too long ends with '…'. */
	struct strbuf sb = STRBUF_INIT;
	const char *file = status_where(t, &sb, true, true);
	size_t skip = strlen(file) + (rv->ds.nfiles > 1 ? 2 : 0) + 2;
	int mw = t->msg.text[0] ? 2 + draw_width(t->msg.text, strlen(t->msg.text)) : 0;
	if (draw_width(sb.buf, sb.len) + mw > COLS) {
		strbuf_reset(&sb);
		status_where(t, &sb, true, false);
	}
	if (draw_width(sb.buf, sb.len) + mw > COLS &&
	    (!mw || sb.len <= skip || draw_width(sb.buf + skip, sb.len - skip) + mw > COLS)) {
		strbuf_reset(&sb);
		status_where(t, &sb, false, false);
	}
	const char *lp = sb.buf;
	int len = (int)sb.len;
	if (mw && draw_width(lp, (size_t)len) + mw > COLS && (size_t)len > skip) {
		lp += skip;
		len -= (int)skip;
	}
	int x = draw_text(r->y, 0, COLS, lp, (size_t)len, a);
	if (t->msg.text[0]) {
		x += draw_text(r->y, x, COLS - x, "  ", 2, a);
		attr_t ma = t->msg.error ? screen_attr(t, SLOT_STATUS_ERROR) : a;
		x += draw_text_cut(r->y, x, COLS - x, t->msg.text, strlen(t->msg.text), ma);
	}
	static const char hint[] = "? help  q quit";
	int hw = (int)sizeof hint - 1;
	if (COLS - x > hw + 2)
		draw_text(r->y, COLS - hw, hw, hint, (size_t)hw, a);
	strbuf_release(&sb);
}

/* Where a help line's description starts: after the keys (which end at
 * two spaces) and the action name. 0 when the line has no description. */
static size_t help_desc_col(const char *p, size_t len)
{
	size_t i = 0;
	while (i < len && p[i] == ' ')
		i++;
	while (i + 1 < len && !(p[i] == ' ' && p[i + 1] == ' '))
		i++;
	while (i < len && p[i] == ' ')
		i++;
	while (i < len && p[i] != ' ')
		i++;
	while (i < len && p[i] == ' ')
		i++;
	return i < len ? i : 0;
}

/* The help's display lines: a description too long for the screen wraps
 * under itself. Draws those from help_top on when `draw`; returns how many
 * there are. */
static size_t help_lines(const struct tui *t, const char *buf, bool draw)
{
	attr_t a = screen_attr(t, SLOT_NORMAL);
	int rows = LINES - 2, w = COLS - 1;
	size_t line = 0;
	int y = 1;
	for (const char *p = buf; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		size_t dc = help_desc_col(p, len);
		bool show = draw && line >= t->help.top && y <= rows;
		if (draw_width(p, len) <= w || dc == 0 || (int)dc + 16 > w) {
			if (show)
				draw_text(y++, 1, w, p, len, a);
			line++;
		} else {
			struct wtext_wrapped wr;
			wtext_wrap(&wr, p + dc, len - dc, (size_t)(w - (int)dc), WTEXT_TABS);
			for (size_t k = 0; k < wr.nlines; k++, line++) {
				if (!draw || line < t->help.top || y > rows)
					continue;
				if (k == 0)
					draw_text(y, 1, (int)dc, p, dc, a);
				draw_wide(y++, 1 + (int)dc, w - (int)dc, wr.text + wr.lines[k].start,
				          wr.lines[k].len, a);
			}
			wtext_wrapped_free(&wr);
		}
		p += len + (nl ? 1 : 0);
	}
	return line;
}

/* The help text, as the keymap prints it; NULL when it cannot be made. */
static char *help_text(const struct tui *t)
{
	char *buf = NULL;
	size_t blen = 0;
	FILE *f = open_memstream(&buf, &blen);
	if (!f)
		return NULL;
	keymap_print(&t->km, f, false);
	fclose(f);
	return buf;
}

/* Scrolling stops with the last line at the bottom. */
void help_fit(struct tui *t)
{
	char *buf = help_text(t);
	if (!buf)
		return;
	size_t total = help_lines(t, buf, false), rows = LINES > 2 ? (size_t)LINES - 2 : 1;
	size_t max_top = total > rows ? total - rows : 0;
	if (t->help.top > max_top)
		t->help.top = max_top;
	free(buf);
}

void help_draw(const struct tui *t)
{
	attr_t head = screen_attr(t, SLOT_TITLE_FOCUS);
	draw_fill(0, 0, COLS, head);
	static const char title[] = "[help] keys (Esc or q closes; j/k scroll)";
	draw_text(0, 0, COLS, title, sizeof title - 1, head);
	char *buf = help_text(t);
	if (!buf)
		return;
	help_lines(t, buf, true);
	free(buf);
}

/* The help screen scrolls; any other key closes it. */
unsigned help_key(struct tui *t, enum tcr_action a)
{
	if (a == ACT_DOWN || a == ACT_UP || a == ACT_PAGE_DOWN || a == ACT_PAGE_UP) {
		long d = a == ACT_DOWN ? 1 : a == ACT_UP ? -1 : a == ACT_PAGE_DOWN ? 10 : -10;
		long top = (long)t->help.top + d;
		t->help.top = top < 0 ? 0 : (size_t)top;
		return REDRAW_ALL;
	}
	t->help.shown = false;
	return REDRAW_ALL;
}

/* The prompt is drawn in the status line; prompt.c edits it. */
void prompt_start(struct tui *t, enum prompt_kind k, const char *label)
{
	t->pr.kind = k;
	strbuf_reset(&t->pr.input);
	snprintf(t->pr.label, sizeof t->pr.label, "%s", label);
}

void tui_message(struct tui *t, bool error, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(t->msg.text, sizeof t->msg.text, fmt, ap);
	va_end(ap);
	t->msg.error = error;
}
