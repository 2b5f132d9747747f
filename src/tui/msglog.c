/* msglog.c - the message log: every status message kept whole, and shown.
 *
 * The status line has one row, and a message cut there ("…") would be lost:
 * the log keeps the last MSGLOG_MAX messages in memory, with the time each
 * was said, and M shows them full-screen like the help, newest last,
 * wrapped by display width. A message said again in a row is kept once
 * with a count; what a waiting J says as it goes replaces its own last
 * line rather than filling the log. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tui_int.h"
#include "util/clock.h"
#include "util/xalloc.h"

static struct msglog_entry *msglog_at(const struct msglog_state *ml, size_t i)
{
	return &ml->e[(ml->head + i) % MSGLOG_MAX];
}

void msglog_add(struct tui *t, bool error, bool progress, const char *text)
{
	struct msglog_state *ml = &t->log;
	if (!text || !*text)
		return;
	if (!ml->e)
		ml->e = xcalloc(MSGLOG_MAX, sizeof *ml->e);
	struct msglog_entry *last = ml->n ? msglog_at(ml, ml->n - 1) : NULL;
	if (last && !strcmp(last->text, text)) {
		last->repeat++;
		last->at = now_wall();
		return;
	}
	struct msglog_entry *e;
	if (last && last->progress && progress) {
		e = last;
	} else if (ml->n < MSGLOG_MAX) {
		e = msglog_at(ml, ml->n++);
	} else {
		e = msglog_at(ml, 0);       /* the oldest gives way */
		ml->head = (ml->head + 1) % MSGLOG_MAX;
	}
	free(e->text);
	e->text = xstrdup(text);
	e->error = error;
	e->progress = progress;
	e->repeat = 1;
	e->at = now_wall();
}

void msglog_free(struct tui *t)
{
	struct msglog_state *ml = &t->log;
	if (ml->e)
		for (size_t i = 0; i < MSGLOG_MAX; i++)
			free(ml->e[i].text);
	free(ml->e);
	memset(ml, 0, sizeof *ml);
}

/* Each message under its time ("09:30:00  "), wrapping under itself. */
static void msglog_layout(const struct tui *t, struct pager *pg)
{
	const struct msglog_state *ml = &t->log;
	int w = COLS - 1;
	if (!ml->n) {
		static const char none[] = "no message yet";
		pager_add(pg, NULL, 0, none, sizeof none - 1, w, SLOT_DIM, 0);
	}
	for (size_t i = 0; i < ml->n; i++) {
		const struct msglog_entry *e = msglog_at(ml, i);
		char stamp[32];
		struct tm tm;
		time_t at = e->at;
		localtime_r(&at, &tm);
		size_t sl = strftime(stamp, sizeof stamp, "%H:%M:%S  ", &tm);
		struct strbuf sb = STRBUF_INIT;
		strbuf_addstr(&sb, e->text);
		if (e->repeat > 1)
			strbuf_addf(&sb, " (\xc3\x97%u)", e->repeat);
		pager_add(pg, stamp, sl, sb.buf, sb.len, w, e->error ? SLOT_FAIL : SLOT_NORMAL, 0);
		strbuf_release(&sb);
	}
}

/* M: opened at the end, where the newest message is. */
unsigned msglog_open(struct tui *t)
{
	t->log.shown = true;
	t->log.top = SIZE_MAX / 2;
	return REDRAW_ALL;
}

void msglog_fit(struct tui *t)
{
	struct pager pg = {0};
	msglog_layout(t, &pg);
	t->log.top = pager_clamp(&pg, t->log.top);
	pager_free(&pg);
}

void msglog_draw(const struct tui *t)
{
	struct pager pg = {0};
	msglog_layout(t, &pg);
	char title[64];
	snprintf(title, sizeof title, "[messages] %zu kept, newest last", t->log.n);
	pager_draw(t, &pg, t->log.top, title, "j/k PgUp scroll  Esc closes");
	pager_free(&pg);
}

/* The log scrolls; any other key closes it. */
unsigned msglog_key(struct tui *t, enum tcr_action a)
{
	if (pager_scroll(&t->log.top, a))
		return REDRAW_ALL;
	t->log.shown = false;
	return REDRAW_ALL;
}
