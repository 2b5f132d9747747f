/* timeline.c - the selected run's messages and tool calls, in order.
 *
 * The run is turned into display lines once per run and width (and again
 * when an entry is folded or unfolded); drawing then only copies the lines
 * that are on screen. A text of LAZY_MIN bytes or more is not turned into
 * lines at all: it is counted, and wrapped when its lines are drawn
 * (tui/lazytext.h), borrowing the run's text, so a 100 MB message costs
 * kilobytes here. What the lines say is timeline_parts.c's; this file
 * keeps them, draws them and moves in them. A run shown for the first time
 * opens at its first user message. */
#include <stdlib.h>
#include <string.h>

#include "review/callmarks.h"
#include "review/tags.h"
#include "review/calls.h"
#include "tui/lazytext.h"
#include "timeline_find.h"
#include "timeline_int.h"
#include "util/wtext.h"
#include "util/xalloc.h"

/* Texts this long or longer stay text until drawn. */
#define LAZY_MIN ((size_t)64 << 10)

static struct tl_line *new_seg(struct tui *t, size_t entry, int indent, int slot, size_t count)
{
	if (t->tl.nsegs == t->tl.segs_cap) {
		t->tl.segs_cap = t->tl.segs_cap ? t->tl.segs_cap * 2 : 64;
		t->tl.lines = xrealloc(t->tl.lines, t->tl.segs_cap * sizeof(*t->tl.lines));
	}
	struct tl_line *l = &t->tl.lines[t->tl.nsegs++];
	*l = (struct tl_line){ .entry = entry, .indent = indent, .slot = slot, .first = t->tl.nlines,
	                       .count = count };
	t->tl.nlines += count;
	return l;
}

void tl_add_line(struct tui *t, size_t entry, int indent, int slot, const char *s, size_t n)
{
	struct tl_line *l = new_seg(t, entry, indent, slot, 1);
	l->text = wtext_decode(s, n, WTEXT_TABS, &l->len);
}

void tl_add_piece(struct tui *t, int slot, bool whole, const char *s, size_t n)
{
	if (!t->tl.nsegs || t->tl.lines[t->tl.nsegs - 1].lazy)
		return;
	struct tl_line *l = &t->tl.lines[t->tl.nsegs - 1];
	size_t bn;
	wchar_t *b = wtext_decode(s, n, WTEXT_TABS, &bn);
	l->text = xrealloc(l->text, (l->len + 2 + bn + 1) * sizeof(wchar_t));
	l->spans = xrealloc(l->spans, (l->nspans + 1) * sizeof *l->spans);
	l->text[l->len++] = L' ';
	l->text[l->len++] = L' ';
	l->spans[l->nspans++] = (struct tl_span){ .at = l->len, .slot = slot, .whole = whole };
	memcpy(l->text + l->len, b, bn * sizeof(wchar_t));
	l->len += bn;
	l->text[l->len] = 0;
	free(b);
}

void tl_add_badge(struct tui *t, int slot, bool keep, const char *s, size_t n)
{
	size_t before = t->tl.nsegs ? t->tl.lines[t->tl.nsegs - 1].nspans : 0;
	tl_add_piece(t, slot, true, s, n);
	struct tl_line *l = t->tl.nsegs ? &t->tl.lines[t->tl.nsegs - 1] : NULL;
	if (l && l->nspans > before)
		l->spans[l->nspans - 1].keep = keep;
}

struct tl_line *tl_add_seg(struct tui *t, size_t entry, int indent, int slot)
{
	return new_seg(t, entry, indent, slot, 1);
}

/* The lines holding display line li (< nlines). */
static const struct tl_line *seg_at(const struct tui *t, size_t li)
{
	size_t lo = 0, hi = t->tl.nsegs;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->tl.lines[mid].first <= li)
			lo = mid;
		else
			hi = mid;
	}
	return &t->tl.lines[lo];
}

size_t tl_add_entry(struct tui *t, long msg, long call, long part, bool foldable)
{
	if (t->tl.nentries == t->tl.entries_cap) {
		t->tl.entries_cap = t->tl.entries_cap ? t->tl.entries_cap * 2 : 32;
		t->tl.entries = xrealloc(t->tl.entries, t->tl.entries_cap * sizeof(*t->tl.entries));
	}
	size_t e = t->tl.nentries++;
	t->tl.entries[e] = (struct tl_entry){
		.msg = msg, .call = call, .part = part, .first_line = t->tl.nlines,
		.foldable = foldable, .open = e < t->tl.nkeep && t->tl.keep[e],
	};
	return e;
}

/* Wrapped text (prefix, then the body_len bytes of body), each line
 * indented; a text's own newlines are kept. At most max_lines lines (0:
 * all); *shown and *total (may be NULL) say how many are shown and how
 * many the text has. A body that is `own`ed is freed, or handed to the
 * lazy text that keeps it. */
static void add_text_of(struct tui *t, size_t entry, int indent, int slot, const char *prefix,
                        const char *body, size_t body_len, bool own, int width, size_t max_lines,
                        size_t *shown, size_t *total)
{
	int w = width - indent;
	if (w < 8)
		w = 8;
	size_t plen = prefix ? strlen(prefix) : 0, n;
	if (plen + body_len >= LAZY_MIN) {
		struct lazytext *z = lazytext_new(prefix, body, body_len, own, (size_t)w);
		n = lazytext_count(z);
		struct tl_line *l = new_seg(t, entry, indent, slot, max_lines && n > max_lines ? max_lines : n);
		l->lazy = z;
	} else {
		struct strbuf whole = STRBUF_INIT;
		const char *s = body;
		if (plen) {
			strbuf_addstr(&whole, prefix);
			strbuf_add(&whole, body, body_len);
			s = whole.buf;
		}
		struct wtext_wrapped wr;
		wtext_wrap(&wr, s, plen + body_len, (size_t)w, WTEXT_TABS);
		n = wr.nlines;
		for (size_t i = 0; i < n && (!max_lines || i < max_lines); i++) {
			struct tl_line *l = new_seg(t, entry, indent, slot, 1);
			l->len = wr.lines[i].len;
			l->text = xmalloc((l->len + 1) * sizeof(wchar_t));
			memcpy(l->text, wr.text + wr.lines[i].start, l->len * sizeof(wchar_t));
			l->text[l->len] = 0;
		}
		wtext_wrapped_free(&wr);
		strbuf_release(&whole);
		if (own)
			free((void *)body);
	}
	if (shown)
		*shown = max_lines && n > max_lines ? max_lines : n;
	if (total)
		*total = n;
}

void tl_add_text(struct tui *t, size_t entry, int indent, int slot, const char *prefix,
                 const char *s, int width)
{
	add_text_of(t, entry, indent, slot, prefix, s, strlen(s), false, width, 0, NULL, NULL);
}

bool tl_add_folded(struct tui *t, size_t entry, int indent, int slot, const char *prefix,
                   const char *text, bool own, int width, bool open, size_t max_lines)
{
	size_t shown, total;
	add_text_of(t, entry, indent, slot, prefix, text, strlen(text), own, width,
	            open ? 0 : max_lines, &shown, &total);
	if (shown < total) {
		/* wrapped like any text: a narrow pane must not cut the hint */
		char more[96];
		snprintf(more, sizeof more, "\xe2\x80\xa6 %zu more line%s (Enter in the timeline to unfold)",
		         total - shown, total - shown == 1 ? "" : "s");
		tl_add_text(t, entry, indent, SLOT_DIM, NULL, more, width);
	}
	return total > max_lines;
}

size_t tl_add_text_max(struct tui *t, size_t entry, int indent, int slot, const char *body,
                       size_t len, bool own, int width, size_t max_lines)
{
	size_t total;
	add_text_of(t, entry, indent, slot, NULL, body, len, own, width, max_lines, NULL, &total);
	return total;
}

size_t tl_count_lines(const char *text, int indent, int width)
{
	int w = width - indent;
	size_t n, len = strlen(text);
	if (w < 8)
		w = 8;
	if (len >= LAZY_MIN) {
		struct lazytext *z = lazytext_new(NULL, text, len, false, (size_t)w);
		n = lazytext_count(z);
		lazytext_free(z);
	} else {
		struct wtext_wrapped wr;
		wtext_wrap(&wr, text, len, (size_t)w, WTEXT_TABS);
		n = wr.nlines;
		wtext_wrapped_free(&wr);
	}
	return n;
}

void timeline_free(struct tui *t)
{
	for (size_t i = 0; i < t->tl.nsegs; i++) {
		free(t->tl.lines[i].text);
		free(t->tl.lines[i].spans);
		lazytext_free(t->tl.lines[i].lazy);
	}
	free(t->tl.lines);
	free(t->tl.entries);
	free(t->tl.keep);
	t->tl.lines = NULL;
	t->tl.entries = NULL;
	t->tl.keep = NULL;
	t->tl.nsegs = t->tl.segs_cap = t->tl.nlines = 0;
	t->tl.nentries = t->tl.entries_cap = t->tl.nkeep = 0;
}

/* What is unfolded, entry by entry, for the rebuild of the same run. */
static void keep_open(struct tui *t, bool **keep, size_t *nkeep)
{
	*keep = xcalloc(t->tl.nentries + 1, sizeof(bool));
	for (size_t e = 0; e < t->tl.nentries; e++)
		(*keep)[e] = t->tl.entries[e].open;
	*nkeep = t->tl.nentries;
}

/* A run shown for the first time opens at its first user message (a long
 * system prompt or a benchmark's policy comes before it), as far down as
 * the lines allow; at the top when it has none. */
static void place_fresh(struct tui *t, const struct run *r)
{
	t->tl.sel = 0;
	t->tl.top = 0;
	for (size_t e = 0; r && e < t->tl.nentries; e++) {
		const struct tl_entry *en = &t->tl.entries[e];
		if (en->msg < 0 || en->call >= 0 || en->part >= 0)
			continue;
		const struct run_msg *m = &r->msgs[en->msg];
		if (m->role != ROLE_USER || m->is_tool_output)
			continue;
		t->tl.sel = e;
		t->tl.top = en->first_line;     /* fit keeps the last line at the bottom */
		return;
	}
}

/* The top line back on the entry it was in, as far into it as before
 * (or its last line, when it has fewer now). */
static void keep_top(struct tui *t, size_t anchor, size_t offset)
{
	size_t first = t->tl.entries[anchor].first_line;
	size_t end = anchor + 1 < t->tl.nentries ? t->tl.entries[anchor + 1].first_line : t->tl.nlines;
	t->tl.top = first + offset < end ? first + offset : end > first ? end - 1 : first;
}

void tl_build(struct tui *t, const struct review_run *rr, size_t entry)
{
	int width = t->lay.pane[PANE_TIMELINE].w - 1;
	unsigned long serial = rr ? rr->serial : 0;
	/* A decision may add or take back a call's tag badge, and in blind
	 * mode show a row's call marks, hidden until then. */
	unsigned long labels = tui_rv(t) ? tui_rv(t)->labels_gen : 0;
	/* A run dropped from the cache and read again is a new load: the
	 * lazy lines borrowed the old one's text. */
	if (entry == t->tl.for_entry && width == t->tl.width && serial == t->tl.for_serial &&
	    labels == t->tl.for_labels)
		return;
	bool same_run = entry == t->tl.for_entry;
	bool *keep = NULL;
	size_t nkeep = 0, anchor = SIZE_MAX, offset = 0;
	if (same_run) {                     /* a relayout keeps what was unfolded */
		keep_open(t, &keep, &nkeep);
		/* and, at another width (the list grew as runs were read, a
		 * zoom, a resize), the entry at the top: its lines are others.
		 * Folding (width -1) leaves the top where it is. */
		if (t->tl.width > 0 && width != t->tl.width && t->tl.top < t->tl.nlines) {
			anchor = seg_at(t, t->tl.top)->entry;
			offset = t->tl.top - t->tl.entries[anchor].first_line;
		}
	}
	timeline_free(t);
	t->tl.keep = keep;
	t->tl.nkeep = nkeep;
	t->tl.for_entry = entry;
	t->tl.for_serial = serial;
	t->tl.width = width;
	t->tl.for_labels = labels;
	if (rr && !rr->run) {
		size_t e = tl_add_entry(t, -1, -1, -1, false);
		tl_add_line(t, e, 0, SLOT_ERROR, "this record could not be read:", 30);
		tl_add_text(t, e, 2, SLOT_ERROR, NULL, rr->error ? rr->error : "?", width);
	} else if (rr) {
		struct call_marks marks;
		struct run_call_decs decs;
		review_call_marks(tui_rv(t), rr, &marks);
		review_call_decs(tui_rv(t), rr, &decs);
		tl_add_run(t, rr->run, &marks, &decs, width);
		call_marks_free(&marks);
		callrefs_free(&decs);
	}
	free(t->tl.keep);
	t->tl.keep = NULL;
	t->tl.nkeep = 0;
	if (!same_run)
		place_fresh(t, rr ? rr->run : NULL);
	else if (anchor < t->tl.nentries)
		keep_top(t, anchor, offset);
	if (t->tl.sel >= t->tl.nentries)
		t->tl.sel = t->tl.nentries ? t->tl.nentries - 1 : 0;
}

/* After Enter on sel: an unfolded entry scrolls up just enough for its
 * lines to show, or as many as fit below its head at the top; a folded
 * one keeps its head in view (timeline_fit does that). */
static void reveal_entry(struct tui *t, size_t rows)
{
	const struct tl_entry *en = &t->tl.entries[t->tl.sel];
	if (!en->open)
		return;
	size_t end = t->tl.sel + 1 < t->tl.nentries ? t->tl.entries[t->tl.sel + 1].first_line : t->tl.nlines;
	if (end > t->tl.top + rows)
		t->tl.top = end - rows;
	if (t->tl.top > en->first_line)
		t->tl.top = en->first_line;
}

/* Builds the lines of the run under the cursor and keeps the selected
 * entry's first line on screen. */
static void timeline_fit(struct tui *t)
{
	const struct review *rv = tui_rv(t);
	size_t n = review_view_count(rv);
	size_t entry = n ? rv->view[review_cursor(rv)] : SIZE_MAX;
	tl_build(t, review_current(rv), entry);
	tl_find_fit(t);
	int rows = t->lay.pane[PANE_TIMELINE].h - 1;
	/* A relayout that made the lines fewer (wider, folded) leaves no
	 * empty rows below the last line. */
	if (rows >= 1 && t->tl.top + (size_t)rows > t->tl.nlines)
		t->tl.top = t->tl.nlines > (size_t)rows ? t->tl.nlines - (size_t)rows : 0;
	if (rows >= 1 && t->tl.sel < t->tl.nentries) {
		size_t first = t->tl.entries[t->tl.sel].first_line;
		if (t->tl.reveal)
			reveal_entry(t, (size_t)rows);
		if (first < t->tl.top)
			t->tl.top = first;
		if (first >= t->tl.top + (size_t)rows)
			t->tl.top = first - (size_t)rows + 1;
	}
	t->tl.reveal = false;
	tl_find_fitted(t);
}

/* The head of a call gives way to its problem badges down to this many columns. */
#define HEAD_MIN_COLS 8

/* Columns from the two spaces before the first kept piece to the end of
 * the last that fits in w (they follow the head: add_badges puts them
 * first); 0 when none fits. */
static int kept_width(const struct tl_line *l, int w)
{
	size_t a = l->nspans;
	for (size_t k = 0; k < l->nspans && a == l->nspans; k++)
		if (l->spans[k].keep)
			a = k;
	if (a == l->nspans || l->spans[a].at < 2)
		return 0;
	int kw = 0;
	for (size_t k = a; k < l->nspans && l->spans[k].keep; k++) {
		size_t from = l->spans[k].at - 2;
		size_t to = k + 1 < l->nspans ? l->spans[k + 1].at - 2 : l->len;
		int pw = (int)wtext_width(l->text + from, to - from);
		if (kw + pw > w)
			break;
		kw += pw;
	}
	return kw;
}

/* The head (what comes before the first piece) cut to w columns with "…"
 * and the two spaces that part it from the pieces; returns the columns used. */
static int draw_head_cut(int y, int x, int w, const struct tl_line *l, attr_t a)
{
	size_t n = l->spans[0].at - 2;
	wchar_t *head = xmalloc((n + 1) * sizeof *head);
	memcpy(head, l->text, n * sizeof *head);
	head[n] = 0;
	size_t width;
	n = wtext_truncate(head, n, (size_t)(w - 2), true, &width);
	int used = draw_wide(y, x, w - 2, head, n, a);
	used += draw_wide(y, x + used, 2, L"  ", 2, a);
	free(head);
	return used;
}

/* A line with pieces in slots of their own: a whole piece is drawn whole,
 * or "…" stands for it and the rest; others are clipped. A line too long
 * for the pane cuts its head rather than its kept pieces (a call's failed
 * badge must show at 80 columns). sel: one attribute for the whole line
 * (the selection). */
static void draw_spans(const struct tui *t, int y, int x, int w, const struct tl_line *l,
                       const attr_t *sel)
{
	size_t k = 0;
	int kw = kept_width(l, w - HEAD_MIN_COLS);
	if (kw && (int)wtext_width(l->text, l->len) > w) {
		int used = draw_head_cut(y, x, w - kw, l, sel ? *sel : screen_attr(t, l->slot));
		x += used;
		w -= used;
		k = 1;
	}
	for (; k <= l->nspans && w > 0; k++) {
		size_t from = k ? l->spans[k - 1].at : 0;
		size_t to = k < l->nspans ? l->spans[k].at : l->len;
		int slot = k ? l->spans[k - 1].slot : l->slot;
		attr_t a = sel ? *sel : screen_attr(t, slot);
		if (k && l->spans[k - 1].whole && wtext_width(l->text + from, to - from) > (size_t)w) {
			draw_text(y, x, w, "\xe2\x80\xa6", 3, sel ? *sel : screen_attr(t, SLOT_DIM));
			return;
		}
		int used = draw_wide(y, x, w, l->text + from, to - from, a);
		x += used;
		w -= used;
	}
}

/* The run's own tags for the title, each with its reviewer: "⚑ slow
 * (alice), wrong-tool (bob)"; brief "⚑2". Returns how many. */
static size_t run_tags(const struct tui *t, char *buf, size_t n, char *brief, size_t bn)
{
	const struct review *rv = tui_rv(t);
	if (!rv || t->tl.for_entry >= rv->nentries || !rv->entries[t->tl.for_entry].id)
		return 0;
	const struct decision *d[16];
	size_t k = review_tags_on(rv, rv->entries[t->tl.for_entry].id, 0, d, 16);
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < k; i++)
		strbuf_addf(&sb, "%s%s (%s)", i ? ", " : "\xe2\x9a\x91 ",          /* ⚑ */
		            vocab_tag_name(&t->cfg->vocab, rv->annot, d[i]->tag),
		            d[i]->reviewer ? d[i]->reviewer : "?");
	snprintf(buf, n, "%s", sb.buf ? sb.buf : "");
	snprintf(brief, bn, "\xe2\x9a\x91%zu", k);
	strbuf_release(&sb);
	return k;
}

static void timeline_draw(const struct tui *t)
{
	const struct rect *r = &t->lay.pane[PANE_TIMELINE];
	int rows = r->h - 1;
	/* Where we are matters more than how many entries there are; a
	 * narrow pane says it briefly ("1226-1243/1288"), never cut. */
	char entries[48] = "", lines[64] = "", brief[48] = "";
	struct title_part parts[3] = { { 0 } };
	size_t np = 0;
	if (t->tl.nlines) {
		snprintf(entries, sizeof entries, "%zu entr%s", t->tl.nentries, t->tl.nentries == 1 ? "y" : "ies");
		parts[np++] = (struct title_part){ .full = entries, .rank = 1 };
		/* Say when there is more than the pane shows, and where we are. */
		if (rows >= 1 && t->tl.nlines > (size_t)rows) {
			size_t last = t->tl.top + (size_t)rows;
			if (last > t->tl.nlines)
				last = t->tl.nlines;
			snprintf(lines, sizeof lines, "lines %zu-%zu of %zu", t->tl.top + 1, last, t->tl.nlines);
			snprintf(brief, sizeof brief, "%zu-%zu/%zu", t->tl.top + 1, last, t->tl.nlines);
			parts[np++] = (struct title_part){ .full = lines, .brief = brief, .rank = 0 };
		}
	}
	char tags[256] = "", tbrief[24] = "";
	if (run_tags(t, tags, sizeof tags, tbrief, sizeof tbrief))
		/* a reviewer's own words: kept before the count of entries */
		parts[np++] = (struct title_part){ .full = tags, .brief = tbrief, .rank = 0 };
	draw_pane_title_parts(t, PANE_TIMELINE, timeline_pane.title, parts, np);
	if (rows < 1)
		return;
	for (int i = 0; i < rows; i++) {
		size_t li = t->tl.top + (size_t)i;
		if (li >= t->tl.nlines)
			break;
		const struct tl_line *l = seg_at(t, li);
		size_t len = l->len;
		const wchar_t *text = l->lazy ? lazytext_line(l->lazy, li - l->first, &len) : l->text;
		bool sel = t->focus == PANE_TIMELINE && l->entry == t->tl.sel &&
		           li == t->tl.entries[t->tl.sel].first_line;
		attr_t a = screen_attr(t, sel ? SLOT_SELECTION : l->slot);
		if (sel) {
			/* '>' as in the list, so the selection reads without colour */
			draw_fill(r->y + 1 + i, r->x, r->w, a);
			draw_text(r->y + 1 + i, r->x, 1, ">", 1, a);
		}
		if (l->nspans)
			draw_spans(t, r->y + 1 + i, r->x + 1 + l->indent, r->w - 1 - l->indent, l,
			           sel ? &a : NULL);
		else
			draw_wide(r->y + 1 + i, r->x + 1 + l->indent, r->w - 1 - l->indent, text, len, a);
		/* a line of pieces that does not fit may draw "…" for one, so its
		 * columns are not the text's: marks only where it fits whole
		 * (measured only while there is a search, not on every draw) */
		if (t->find && (!l->nspans || (int)wtext_width(text, len) <= r->w - 1 - l->indent))
			tl_find_mark(t, r->y + 1 + i, r->x + 1 + l->indent, r->w - 1 - l->indent, text, len);
	}
	if (t->tl.nlines == 0)
		draw_text(r->y + 1, r->x + 1, r->w - 1, "(no run)", 8, screen_attr(t, SLOT_DIM));
}

static unsigned timeline_move(struct tui *t, long delta)
{
	if (t->tl.nentries == 0)
		return 0;
	long sel = (long)t->tl.sel + delta;
	if (sel < 0)
		sel = 0;
	if (sel >= (long)t->tl.nentries)
		sel = (long)t->tl.nentries - 1;
	t->tl.sel = (size_t)sel;
	return REDRAW_TIMELINE;
}

static unsigned timeline_scroll(struct tui *t, long lines)
{
	size_t rows = (size_t)pane_rows(t, PANE_TIMELINE);
	long top = (long)t->tl.top + lines;
	long max = (long)t->tl.nlines - (long)rows;
	if (top > max)
		top = max;
	if (top < 0)
		top = 0;
	t->tl.top = (size_t)top;
	/* keep the selection on screen */
	for (size_t e = 0; e < t->tl.nentries; e++)
		if (t->tl.entries[e].first_line >= t->tl.top) {
			size_t first = t->tl.entries[t->tl.sel].first_line;
			if (first < t->tl.top || first >= t->tl.top + rows)
				t->tl.sel = e;
			break;
		}
	return REDRAW_TIMELINE;
}

static unsigned timeline_page(struct tui *t, long dir)
{
	long page = pane_rows(t, PANE_TIMELINE) - 1;
	return timeline_scroll(t, dir * (page < 1 ? 1 : page));
}

static unsigned timeline_end(struct tui *t, bool last)
{
	size_t rows = (size_t)pane_rows(t, PANE_TIMELINE);
	if (t->tl.nentries)
		t->tl.sel = last ? t->tl.nentries - 1 : 0;
	t->tl.top = last && t->tl.nlines > rows ? t->tl.nlines - rows : 0;
	return REDRAW_TIMELINE;
}

/* Enter unfolds (or folds) the selected entry: a call's arguments and
 * result, a thinking part, a long system prompt. */
static unsigned timeline_toggle(struct tui *t)
{
	if (t->tl.sel >= t->tl.nentries || !t->tl.entries[t->tl.sel].foldable)
		return 0;
	t->tl.entries[t->tl.sel].open = !t->tl.entries[t->tl.sel].open;
	t->tl.width = -1;       /* rebuild the lines */
	t->tl.reveal = true;
	return REDRAW_TIMELINE;
}

static unsigned timeline_wheel(struct tui *t, long dir)
{
	return timeline_scroll(t, dir * 3);
}

const struct pane_ops timeline_pane = {
	.title  = "timeline",
	.fit    = timeline_fit,
	.draw   = timeline_draw,
	.step   = timeline_move,
	.page   = timeline_page,
	.end    = timeline_end,
	.toggle = timeline_toggle,
	.wheel  = timeline_wheel,
};
