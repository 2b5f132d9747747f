/* timeline_find.c - search inside the run: a match scrolled into view, unfolded, and every match highlighted.
 *
 * The matches are review/runsearch's, found in the run's text (a folded
 * call's arguments are not drawn, a long text is never held as lines);
 * only the match shown is looked for in the lines, within its entry,
 * and in a lazy text from the checkpoint before it. Moving to another
 * run is the session's search (review_search); the run it lands on is
 * loaded and scored by the next settle, so its first match is shown by
 * the timeline's fit, after the key. */
#include "timeline_find.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "review/runsearch.h"
#include "timeline_int.h"
#include "tui/lazytext.h"
#include "util/wtext.h"
#include "util/xalloc.h"

/* A match inside a lazy text is looked for this many lines at most from
 * where the search starts in it; past them the nearest line is shown. */
#define FIND_SCAN_LINES 4096

enum find_ask { ASK_NONE, ASK_SHOW, ASK_FIRST, ASK_LAST };

struct tl_find {
	char *query;                /* what the matches are of */
	wchar_t *wq;                /* ... decoded, for the lines */
	size_t wqlen;
	size_t entry;               /* the run they are in: review entry, load, run */
	unsigned long serial;
	const struct run *run;
	struct run_hits hits;
	size_t cur;                 /* the match shown; SIZE_MAX none yet */
	enum find_ask ask;          /* what the next fit shows */
	int wrapped;                /* the last move to another run went round: 1 past the end, -1 the start */
	/* A match deep in a long entry keeps the lines it was scrolled to,
	 * which the fit would take back to the entry's first line, until the
	 * timeline is moved. */
	bool pinned;
	size_t pin_top, pin_sel, pin_run, top_before;
	int pin_width;
};

static struct tl_find *find_of(struct tui *t)
{
	if (!t->find) {
		t->find = xcalloc(1, sizeof *t->find);
		t->find->entry = SIZE_MAX;
		t->find->cur = SIZE_MAX;
	}
	return t->find;
}

void tl_find_free(struct tui *t)
{
	struct tl_find *f = t->find;
	if (!f)
		return;
	run_hits_free(&f->hits);
	free(f->query);
	free(f->wq);
	free(f);
	t->find = NULL;
}

/* The matches of the session's search in rr, found again only when the
 * search or the run changed. */
static void hits_for(struct tl_find *f, const struct review *rv, const struct review_run *rr)
{
	const char *q = rv->search ? rv->search : "";
	if (!f->query || strcmp(f->query, q)) {
		free(f->query);
		free(f->wq);
		f->query = xstrdup(q);
		f->wq = wtext_decode(q, strlen(q), WTEXT_TABS, &f->wqlen);
		f->entry = SIZE_MAX;
	}
	size_t entry = rr ? rr->entry : SIZE_MAX;
	unsigned long serial = rr ? rr->serial : 0;
	const struct run *run = rr ? rr->run : NULL;
	if (entry == f->entry && serial == f->serial && run == f->run)
		return;
	f->entry = entry;
	f->serial = serial;
	f->run = run;
	f->cur = SIZE_MAX;
	f->hits.n = 0;
	if (rr && rr->run)
		run_search(rr->run, q, &f->hits);
}

static wchar_t wlower(wchar_t c)
{
	return c >= L'A' && c <= L'Z' ? c + (L'a' - L'A') : c;
}

/* Where the query is in s from `from` on (ASCII case ignored); SIZE_MAX
 * when it is not. */
static size_t wfind(const struct tl_find *f, const wchar_t *s, size_t n, size_t from)
{
	size_t m = f->wqlen;
	for (size_t i = from; m && i + m <= n; i++) {
		size_t k = 0;
		while (k < m && wlower(s[i + k]) == wlower(f->wq[k]))
			k++;
		if (k == m)
			return i;
	}
	return SIZE_MAX;
}

static size_t wcount(const struct tl_find *f, const wchar_t *s, size_t n)
{
	size_t c = 0;
	for (size_t i = wfind(f, s, n, 0); i != SIZE_MAX; i = wfind(f, s, n, i + f->wqlen))
		c++;
	return c;
}

/* The timeline entry that shows the match, or SIZE_MAX. */
static size_t entry_of(const struct tui *t, const struct run_hit *h)
{
	size_t group = 0;
	for (size_t e = 0; e < t->tl.nentries; e++) {
		const struct tl_entry *en = &t->tl.entries[e];
		if (h->call >= 0 || h->part >= 0) {
			if ((h->call >= 0 && en->call == h->call) || (h->part >= 0 && en->part == h->part))
				return e;
		} else if (en->msg == h->msg && en->call < 0 && en->part < 0) {
			if (group++ == h->group)
				return e;
		}
	}
	return SIZE_MAX;
}

/* In a lazy text: the line of the match at h->text + h->off when the text
 * is this one's, from the checkpoint before it; else the (*seen + 1)-th
 * match from the top, within a bound. *seen counts the matches passed. */
static size_t lazy_line_of(const struct tl_find *f, const struct tl_line *l, const struct run_hit *h,
                           size_t *seen)
{
	size_t from = 0, skip = 0, start = 0;
	if (h->text) {
		start = lazytext_line_near(l->lazy, h->text + h->off, &from);
		if (start == SIZE_MAX)
			return SIZE_MAX;        /* it is in another text of the entry */
		for (const char *p = h->text + from;
		     (p = run_search_in(p, h->off - (size_t)(p - h->text), f->query, strlen(f->query)));
		     p += strlen(f->query))
			skip++;
	} else {
		skip = h->nth - *seen;
	}
	size_t c = 0;
	for (size_t i = start; i < l->count && i < start + FIND_SCAN_LINES; i++) {
		size_t len;
		const wchar_t *s = lazytext_line(l->lazy, i, &len);
		c += wcount(f, s, len);
		if (c > skip)
			return l->first + i;
	}
	if (h->text)
		return l->first + start;
	*seen += c;
	return SIZE_MAX;
}

/* The timeline line that shows the match, within its entry e. */
static size_t line_of(const struct tui *t, size_t e, const struct run_hit *h)
{
	const struct tl_find *f = t->find;
	size_t seen = 0;
	for (size_t i = 0; i < t->tl.nsegs; i++) {
		const struct tl_line *l = &t->tl.lines[i];
		if (l->entry != e)
			continue;
		if (l->lazy) {
			size_t li = lazy_line_of(f, l, h, &seen);
			if (li != SIZE_MAX)
				return li;
			continue;
		}
		seen += wcount(f, l->text, l->len);
		if (seen > h->nth)
			return l->first;
	}
	return t->tl.entries[e].first_line;
}

/* Entry e selected and line on screen: with the entry's first line when
 * both fit, else a third down the pane, pinned. */
static void place(struct tui *t, size_t e, size_t line)
{
	struct tl_find *f = t->find;
	size_t rows = (size_t)pane_rows(t, PANE_TIMELINE);
	size_t first = t->tl.entries[e].first_line;
	if (rows < 1)
		return;
	t->tl.sel = e;
	f->pinned = false;
	if (line - first < rows) {
		if (t->tl.top > first || line >= t->tl.top + rows)
			t->tl.top = first;
	} else {
		t->tl.top = line - rows / 3;
		f->pinned = true;
	}
	if (t->tl.top + rows > t->tl.nlines)
		t->tl.top = t->tl.nlines > rows ? t->tl.nlines - rows : 0;
	f->pin_top = t->tl.top;
	f->pin_sel = e;
	f->pin_run = t->tl.for_entry;
	f->pin_width = t->tl.width;
}

/* The match cur of the run shown: its entry unfolded, its line in view. */
static void show(struct tui *t, const struct review_run *rr)
{
	struct tl_find *f = t->find;
	const struct run_hit *h = &f->hits.v[f->cur];
	size_t e = entry_of(t, h);
	if (e == SIZE_MAX)
		return;
	if (t->tl.entries[e].foldable && !t->tl.entries[e].open) {
		t->tl.entries[e].open = true;
		t->tl.width = -1;
		tl_build(t, rr, t->tl.for_entry);
	}
	place(t, e, line_of(t, e, h));
}

static const char *wrap_note(const struct tl_find *f)
{
	return f->wrapped > 0 ? "  (from the top)" : f->wrapped < 0 ? "  (from the bottom)" : "";
}

void tl_find_fit(struct tui *t)
{
	struct tl_find *f = t->find;
	if (!f)
		return;
	f->top_before = t->tl.top;
	enum find_ask ask = f->ask;
	if (ask == ASK_NONE)
		return;
	f->ask = ASK_NONE;
	const struct review_run *rr = review_current(t->rv);
	hits_for(f, t->rv, rr);
	size_t n = f->hits.n;
	if (n == 0) {
		tui_message(t, false, "/%s%s  (in this run's record, not in what the timeline shows)",
		            f->query, wrap_note(f));
		return;
	}
	if (ask == ASK_FIRST)
		f->cur = 0;
	else if (ask == ASK_LAST)
		f->cur = n - 1;
	show(t, rr);
	f->top_before = t->tl.top;
	tui_message(t, false, "/%s  match %zu of %zu in this run%s", f->query, f->cur + 1, n, wrap_note(f));
	f->wrapped = 0;
}

void tl_find_fitted(struct tui *t)
{
	struct tl_find *f = t->find;
	if (!f || !f->pinned)
		return;
	/* moved, rebuilt for another width or run: the fit's place stands */
	if (t->tl.sel != f->pin_sel || t->tl.for_entry != f->pin_run || t->tl.width != f->pin_width ||
	    f->top_before != f->pin_top) {
		f->pinned = false;
		return;
	}
	t->tl.top = f->pin_top;
}

/* To the run the session's search finds next (or before), whose first (or
 * last) match the fit shows. */
static unsigned other_run(struct tui *t, int dir)
{
	struct tl_find *f = t->find;
	size_t before = review_cursor(t->rv);
	if (!review_search(t->rv, NULL, dir)) {
		tui_message(t, true, "not found: %s", t->rv->search);
		return REDRAW_STATUS | REDRAW_TIMELINE;
	}
	size_t after = review_cursor(t->rv);
	if (dir > 0 ? after <= before : after >= before)
		f->wrapped = dir;
	f->ask = dir > 0 ? ASK_FIRST : ASK_LAST;
	f->pinned = false;
	/* the fit counts the matches once the run is loaded */
	tui_message(t, false, "/%s%s", t->rv->search, wrap_note(f));
	return list_moved(t);
}

static unsigned step(struct tui *t, int dir, bool fresh)
{
	struct tl_find *f = find_of(t);
	hits_for(f, t->rv, review_current(t->rv));
	size_t n = f->hits.n;
	f->wrapped = 0;
	if (n && (fresh || f->cur == SIZE_MAX)) {
		f->cur = dir > 0 ? 0 : n - 1;
	} else if (n && dir > 0 && f->cur + 1 < n) {
		f->cur++;
	} else if (n && dir < 0 && f->cur > 0 && f->cur < n) {
		f->cur--;
	} else {
		return other_run(t, dir);
	}
	f->ask = ASK_SHOW;
	tui_message(t, false, "/%s  match %zu of %zu in this run", f->query, f->cur + 1, n);
	return REDRAW_ALL;
}

unsigned tl_find_submit(struct tui *t, const char *text)
{
	if (!*text && !t->rv->search)
		return REDRAW_STATUS;
	if (*text)
		review_search_set(t->rv, text);
	return step(t, 1, true);
}

unsigned tl_find_again(struct tui *t, int dir)
{
	if (!t->rv->search) {
		tui_message(t, true, "no search yet: press / first");
		return REDRAW_STATUS;
	}
	return step(t, dir, false);
}

void tl_find_mark(const struct tui *t, int y, int x, int w, const wchar_t *s, size_t n)
{
	const struct tl_find *f = t->find;
	if (!f || !f->wqlen || !t->rv->search || !f->query || strcmp(f->query, t->rv->search))
		return;
	attr_t a = screen_attr(t, SLOT_SEARCH_HIT);
	for (size_t i = wfind(f, s, n, 0); i != SIZE_MAX; i = wfind(f, s, n, i + f->wqlen)) {
		size_t col = wtext_width(s, i);
		size_t mw = wtext_width(s + i, f->wqlen);
		if (col + mw > (size_t)w)
			break;
		draw_wide(y, x + (int)col, (int)mw, s + i, f->wqlen, a);
	}
}

unsigned tl_find_call(struct tui *t, long call)
{
	const struct review *rv = tui_rv(t);
	const struct review_run *rr = review_current(rv);
	if (!rr || !review_view_count(rv))
		return 0;
	tl_build(t, rr, rv->view[review_cursor(rv)]);
	size_t e = 0;
	while (e < t->tl.nentries && t->tl.entries[e].call != call)
		e++;
	if (e == t->tl.nentries) {
		tui_message(t, true, "call %ld is not in the timeline", call + 1);
		return REDRAW_STATUS;
	}
	find_of(t);
	if (t->tl.entries[e].foldable && !t->tl.entries[e].open) {
		t->tl.entries[e].open = true;
		t->tl.width = -1;
		tl_build(t, rr, t->tl.for_entry);
	}
	place(t, e, t->tl.entries[e].first_line);
	t->focus = PANE_TIMELINE;
	return REDRAW_ALL;
}
