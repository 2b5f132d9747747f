/* status.c - the status line: where the reviewer is, the message, the prompt.
 *
 * The last row says where the reviewer is, what is loading, the last
 * message (errors stand out; every one is kept whole in the log, msglog.c)
 * and the help's key; or it holds the prompt. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui_int.h"
#include "util/xalloc.h"

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
 * what is loading, and (with_config) the configuration; `brief` leaves
 * out the progress, the filter and the sort (the list's title says the
 * filter too) to give a long message room. Returns the file's name. */
static const char *status_where(const struct tui *t, struct strbuf *sb, bool with_format,
                                bool with_config, bool brief)
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
	if (brief)
		;
	else if (rv->assign.on)
		strbuf_addf(sb, "  share %u/%u: %zu of %zu reviewed", rv->assign.k, rv->assign.n,
		            rv->share_reviewed, rv->share_total);
	else
		strbuf_addf(sb, "  reviewed %zu of %zu", review_reviewed_count(rv), rv->nentries);
	if (rv->blind)
		strbuf_addstr(sb, "  blind");
	if (rv->queue.kind != QUEUE_NONE && !brief) {
		char q[160];
		review_queue_status(rv, q, sizeof q);
		strbuf_addf(sb, "  %s", q);
	}
	if (rv->filter != FILTER_ALL && !brief)
		strbuf_addf(sb, "  filter: %s", review_filter_label(rv));
	if (rv->sort != SORT_FILE && rv->queue.kind == QUEUE_NONE && !brief)
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

/* The hint at the right: the help's key always, the quit key when there
 * is room. */
static void status_hint(const struct tui *t, bool with_quit, struct strbuf *sb)
{
	char k[64];
	keymap_keys_of(&t->km, ACT_HELP, k, sizeof k);
	k[strcspn(k, ",")] = '\0';
	strbuf_addf(sb, "%s help", k[0] ? k : "?");
	keymap_keys_of(&t->km, ACT_QUIT, k, sizeof k);
	k[strcspn(k, ",")] = '\0';
	if (with_quit && k[0])
		strbuf_addf(sb, "  %s quit", k);
}

/* What a message cut on the status line ends with: where it can be read. */
static void status_more(const struct tui *t, struct strbuf *sb)
{
	char k[64];
	keymap_keys_of(&t->km, ACT_MESSAGES, k, sizeof k);
	k[strcspn(k, ",")] = '\0';
	if (k[0])
		strbuf_addf(sb, " (%s: messages)", k);
}

/* The message in w columns, cut with "… (M: messages)" when it is longer. */
static void status_message(const struct tui *t, int y, int x, int w, attr_t a)
{
	const char *m = t->msg.text;
	size_t len = strlen(m);
	if (draw_width(m, len) <= w) {
		draw_text(y, x, w, m, len, a);
		return;
	}
	struct strbuf more = STRBUF_INIT;
	status_more(t, &more);
	int mw = draw_width(more.buf, more.len);
	if (w - mw >= 8) {
		x += draw_text_cut(y, x, w - mw, m, len, a);
		draw_text(y, x, mw, more.buf, more.len, a);
	} else {
		draw_text_cut(y, x, w, m, len, a);
	}
	strbuf_release(&more);
}

/* The row, left to right: where the reviewer is ("run 3 of 12" never gives
 * way), the last message, and the help's key at the right. When the row is
 * short the configuration gives way first, then the file's name, then the
 * run's format, then the quit key's hint, then the progress, filter and
 * sort; a message still too long is cut and says that the log (M) has it
 * whole. */
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
	struct strbuf sb = STRBUF_INIT, hint = STRBUF_INIT;
	const char *m = t->msg.text;
	int mw = m[0] ? 2 + draw_width(m, strlen(m)) : 0;
	const char *lp = NULL;
	size_t len = 0;
	int hw = 0;
	/* Each level gives up one more thing, until the row holds it all. */
	for (int level = 0; level < 6; level++) {
		strbuf_reset(&sb);
		strbuf_reset(&hint);
		const char *file = status_where(t, &sb, level < 3, level < 1, level >= 5);
		size_t skip = strlen(file) + (rv->ds.nfiles > 1 ? 2 : 0) + 2;
		lp = sb.buf;
		len = sb.len;
		if (level >= 2 && len > skip) {
			lp += skip;
			len -= skip;
		}
		status_hint(t, level < 4, &hint);
		hw = draw_width(hint.buf, hint.len) + 2;
		if (draw_width(lp, len) + mw + hw <= COLS)
			break;
	}
	int room = COLS - hw;
	int x = draw_text(r->y, 0, room, lp, len, a);
	if (m[0] && room - x > 2 + 1) {
		x += draw_text(r->y, x, 2, "  ", 2, a);
		attr_t ma = t->msg.error ? screen_attr(t, SLOT_STATUS_ERROR) : a;
		status_message(t, r->y, x, room - x, ma);
	}
	draw_text(r->y, COLS - hw + 2, hw - 2, hint.buf, hint.len, a);
	strbuf_release(&hint);
	strbuf_release(&sb);
}

/* The prompt is drawn in the status line; prompt.c edits it. */
void prompt_start(struct tui *t, enum prompt_kind k, const char *label)
{
	t->pr.kind = k;
	strbuf_reset(&t->pr.input);
	snprintf(t->pr.label, sizeof t->pr.label, "%s", label);
}

void tui_note(struct tui *t, bool error, bool progress, const char *text)
{
	snprintf(t->msg.text, sizeof t->msg.text, "%s", text);
	t->msg.error = error;
	msglog_add(t, error, progress, text);
}

/* Made whole first, so the log keeps what the status line may cut. */
void tui_message(struct tui *t, bool error, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char small[512];
	int n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof small) {
		tui_note(t, error, false, small);
		return;
	}
	char *big = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	tui_note(t, error, false, big);
	free(big);
}
