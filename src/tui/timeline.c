/* timeline.c - the selected run's messages and tool calls, in order.
 *
 * The run is turned into display lines once per run and width (and again
 * when a call is folded or unfolded); drawing then only copies the lines
 * that are on screen. A text of LAZY_MIN bytes or more is not turned into
 * lines at all: it is counted, and wrapped when its lines are drawn
 * (tui/lazytext.h), borrowing the run's text, so a 100 MB message costs
 * kilobytes here. A tool call is its own entry: name, id, arguments as
 * indented JSON (long ones folded), and its result or error joined to it.
 * Calls a scorer counted are numbered #1, #2, ...; a simulated user's calls
 * are marked as such. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/jsonw.h"
#include "scorers/scorer.h"
#include "tui/lazytext.h"
#include "tui_int.h"
#include "util/wtext.h"

#define FOLD_LINES 6
/* Texts this long or longer stay text until drawn. */
#define LAZY_MIN ((size_t)64 << 10)

static struct tl_line *new_seg(struct tui *t, size_t entry, int indent, int slot, size_t count)
{
	if (t->tl.nsegs == t->tl.segs_cap) {
		t->tl.segs_cap = t->tl.segs_cap ? t->tl.segs_cap * 2 : 64;
		t->tl.lines = realloc(t->tl.lines, t->tl.segs_cap * sizeof(*t->tl.lines));
		if (!t->tl.lines)
			abort();
	}
	struct tl_line *l = &t->tl.lines[t->tl.nsegs++];
	*l = (struct tl_line){ .entry = entry, .indent = indent, .slot = slot, .first = t->tl.nlines,
	                       .count = count };
	t->tl.nlines += count;
	return l;
}

static void add_line(struct tui *t, size_t entry, int indent, int slot, const char *s, size_t n)
{
	struct tl_line *l = new_seg(t, entry, indent, slot, 1);
	l->text = wtext_decode(s, n, WTEXT_TABS, &l->len);
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

static size_t add_entry(struct tui *t, long msg, long call)
{
	if (t->tl.nentries == t->tl.entries_cap) {
		t->tl.entries_cap = t->tl.entries_cap ? t->tl.entries_cap * 2 : 32;
		t->tl.entries = realloc(t->tl.entries, t->tl.entries_cap * sizeof(*t->tl.entries));
		if (!t->tl.entries)
			abort();
	}
	t->tl.entries[t->tl.nentries] = (struct tl_entry){ msg, call, t->tl.nlines };
	return t->tl.nentries++;
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
			l->text = malloc((l->len + 1) * sizeof(wchar_t));
			if (!l->text)
				abort();
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

static void add_text(struct tui *t, size_t entry, int indent, int slot, const char *s, int width)
{
	add_text_of(t, entry, indent, slot, NULL, s, strlen(s), false, width, 0, NULL, NULL);
}

static char *json_text(const json_t *v, bool indent)
{
	if (json_is_string(v))
		return strdup(json_string_value(v));
	char *s = json_dumps(v, JSON_ENCODE_ANY | (indent ? JSON_INDENT(2) : JSON_COMPACT));
	return s ? s : strdup("");
}

/* A value of the run as the timeline shows it: a string as it is,
 * borrowed from the run's tape (no tree, no copy: it may be huge), and
 * anything else as JSON made from its tree (*own set). */
static const char *value_text(const struct run *r, jv v, json_t *tree, bool indent, bool *own)
{
	*own = !jv_is_string(r->doc, v);
	return *own ? json_text(tree, indent) : jv_str(r->doc, v);
}

static void add_folded(struct tui *t, size_t entry, int indent, int slot, const char *prefix,
                       const char *text, bool own, int width, bool open)
{
	size_t shown, total;
	add_text_of(t, entry, indent, slot, prefix, text, strlen(text), own, width,
	            open ? 0 : FOLD_LINES, &shown, &total);
	if (shown < total) {
		/* wrapped like any text: a narrow pane must not cut the hint */
		char more[96];
		snprintf(more, sizeof more, "\xe2\x80\xa6 %zu more lines (Enter in the timeline to unfold)",
		         total - shown);
		add_text(t, entry, indent, SLOT_DIM, more, width);
	}
}

static const char *role_label(const struct run_msg *m)
{
	if (m->is_tool_output)
		return "tool result";
	return run_role_name(m->role);
}

static int role_slot(enum run_role r)
{
	switch (r) {
	case ROLE_SYSTEM:    return SLOT_ROLE_SYSTEM;
	case ROLE_USER:      return SLOT_ROLE_USER;
	case ROLE_ASSISTANT: return SLOT_ROLE_ASSISTANT;
	default:             return SLOT_ROLE_TOOL;
	}
}

static void add_call(struct tui *t, struct run *r, size_t ci, long number, int width)
{
	struct run_call *c = &r->calls[ci];
	size_t e = add_entry(t, (long)c->msg_index, (long)ci);
	struct strbuf head = STRBUF_INIT;
	if (number > 0)
		strbuf_addf(&head, "#%ld ", number);
	else
		strbuf_addstr(&head, "\xc2\xb7 ");           /* · not counted */
	strbuf_addstr(&head, c->name[0] ? c->name : "(no name)");
	if (c->id)
		strbuf_addf(&head, "  id %s", c->id);
	if (c->requestor == REQ_USER)
		strbuf_addstr(&head, "  [simulated user]");
	if (c->state == CALL_PARTIAL)
		strbuf_addstr(&head, "  [partial]");
	else if (!c->has_result)
		strbuf_addstr(&head, "  [no result]");
	int slot = c->requestor == REQ_USER ? SLOT_USER_TOOL : SLOT_TOOL_NAME;
	add_line(t, e, 2, slot, head.buf, head.len);
	strbuf_release(&head);
	bool open = ci < t->tl.nexpanded && t->tl.expanded[ci];
	if (run_call_args_invalid(r, c)) {
		const char *sent = run_call_args_text(r, c);
		add_line(t, e, 4, SLOT_ERROR, "arguments (not valid JSON, shown as sent):", 42);
		add_folded(t, e, 6, SLOT_JSON_VALUE, NULL, sent ? sent : "", false, width, open);
	} else {
		json_t *args = run_call_args(r, c);
		if (args && !(json_is_object(args) && json_object_size(args) == 0))
			add_folded(t, e, 4, SLOT_JSON_KEY, NULL, json_text(args, true), true, width, open);
	}
	bool own;
	if (c->is_error) {
		const char *et = c->error_text;
		if (!et && c->result != JV_NONE)
			et = value_text(r, c->result, jv_is_string(r->doc, c->result) ? NULL : run_call_result(r, c),
			                false, &own);
		else
			own = false;
		if (!et)
			et = "";
		/* "✗ error: ", unless the text says so itself ("Error: ...") */
		add_folded(t, e, 4, SLOT_FAIL, strncasecmp(et, "error", 5) ? "\xe2\x9c\x97 error: " : "\xe2\x9c\x97 ",
		           et, own, width, open);
	} else if (c->has_result && c->result != JV_NONE) {
		const char *rt = value_text(r, c->result,
		                            jv_is_string(r->doc, c->result) ? NULL : run_call_result(r, c), true, &own);
		add_folded(t, e, 4, SLOT_JSON_VALUE, "\xe2\x87\x90 ", rt, own, width, open);   /* ⇐ */
	}
}

/* A message: its role (and what is odd about it), its text or result,
 * then the calls it made. A result joined to its call is shown with the
 * call. */
static void add_message(struct tui *t, struct run *r, size_t mi, const long *number, int width)
{
	struct run_msg *m = &r->msgs[mi];
	if (m->is_tool_output && !m->unmatched_result)
		return;
	bool has_text = m->text && m->text[0];
	if (has_text || m->ncalls == 0 || m->is_tool_output) {
		size_t e = add_entry(t, (long)mi, -1);
		struct strbuf h = STRBUF_INIT;
		strbuf_addstr(&h, role_label(m));
		if (m->origin == MSG_IN_INPUT && r->mastra != MASTRA_NONE)
			strbuf_addstr(&h, " (input)");
		if (m->unmatched_result)
			strbuf_addf(&h, "  for call id %s, which no call has",
			            m->answers_call_id ? m->answers_call_id : "(none)");
		add_line(t, e, 0, m->unmatched_result ? SLOT_ERROR : role_slot(m->role), h.buf, h.len);
		strbuf_release(&h);
		if (has_text) {
			add_text(t, e, 2, SLOT_NORMAL, m->text, width);
		} else if (m->is_tool_output && m->result != JV_NONE) {
			bool own;
			const char *rt = value_text(r, m->result,
			                            jv_is_string(r->doc, m->result) ? NULL : run_msg_result(r, m), true, &own);
			add_folded(t, e, 2, SLOT_JSON_VALUE, NULL, rt, own, width, false);
		}
	} else {
		size_t e = add_entry(t, (long)mi, -1);
		add_line(t, e, 0, role_slot(m->role), role_label(m), strlen(role_label(m)));
	}
	for (size_t k = 0; k < m->ncalls; k++) {
		size_t ci = m->first_call + k;
		add_call(t, r, ci, number[ci], width);
	}
}

void timeline_free(struct tui *t)
{
	for (size_t i = 0; i < t->tl.nsegs; i++) {
		free(t->tl.lines[i].text);
		lazytext_free(t->tl.lines[i].lazy);
	}
	free(t->tl.lines);
	free(t->tl.entries);
	free(t->tl.expanded);
	t->tl.lines = NULL;
	t->tl.entries = NULL;
	t->tl.expanded = NULL;
	t->tl.nsegs = t->tl.segs_cap = t->tl.nlines = 0;
	t->tl.nentries = t->tl.entries_cap = t->tl.nexpanded = 0;
}

static void timeline_build(struct tui *t, struct review_run *rr, size_t entry)
{
	int width = t->lay.pane[PANE_TIMELINE].w - 1;
	unsigned long serial = rr ? rr->serial : 0;
	/* A run dropped from the cache and read again is a new load: the
	 * lazy lines borrowed the old one's text. */
	if (entry == t->tl.for_entry && width == t->tl.width && serial == t->tl.for_serial)
		return;
	bool same_run = entry == t->tl.for_entry;
	bool *keep = NULL;
	size_t nkeep = 0;
	if (same_run) {                     /* a relayout keeps what was unfolded */
		keep = t->tl.expanded;
		nkeep = t->tl.nexpanded;
		t->tl.expanded = NULL;
	}
	timeline_free(t);
	t->tl.for_entry = entry;
	t->tl.for_serial = serial;
	t->tl.width = width;
	if (!rr) {
		free(keep);
		return;
	}
	if (!rr->run) {
		size_t e = add_entry(t, -1, -1);
		add_line(t, e, 0, SLOT_ERROR, "this record could not be read:", 30);
		add_text(t, e, 2, SLOT_ERROR, rr->error ? rr->error : "?", width);
		free(keep);
		return;
	}
	struct run *r = rr->run;
	t->tl.nexpanded = r->ncalls;
	t->tl.expanded = calloc(r->ncalls + 1, sizeof(bool));
	if (keep)
		memcpy(t->tl.expanded, keep, (nkeep < r->ncalls ? nkeep : r->ncalls) * sizeof(bool));
	free(keep);
	/* Number the calls the tool-call scorer counts, in its order. */
	size_t *counted = calloc(r->ncalls + 1, sizeof(size_t));
	long *number = calloc(r->ncalls + 1, sizeof(long));
	size_t nc = scorer_counted_calls(r, counted);
	for (size_t i = 0; i < nc; i++)
		number[counted[i]] = (long)i + 1;
	if (r->load_error) {
		size_t e = add_entry(t, -1, -1);
		add_line(t, e, 0, SLOT_ERROR, "this run is malformed:", 22);
		add_text(t, e, 2, SLOT_ERROR, r->load_error, width);
	}
	for (size_t mi = 0; mi < r->nmsgs; mi++)
		add_message(t, r, mi, number, width);
	free(counted);
	free(number);
	if (t->tl.sel >= t->tl.nentries)
		t->tl.sel = t->tl.nentries ? t->tl.nentries - 1 : 0;
}

/* Builds the lines of the run under the cursor and keeps the selected
 * entry's first line on screen. */
static void timeline_fit(struct tui *t)
{
	struct review *rv = t->rv;
	size_t n = review_view_count(rv);
	size_t entry = n ? rv->view[review_cursor(rv)] : SIZE_MAX;
	timeline_build(t, review_current(rv), entry);
	int rows = t->lay.pane[PANE_TIMELINE].h - 1;
	if (rows >= 1 && t->tl.sel < t->tl.nentries) {
		size_t first = t->tl.entries[t->tl.sel].first_line;
		if (first < t->tl.top)
			t->tl.top = first;
		if (first >= t->tl.top + (size_t)rows)
			t->tl.top = first - (size_t)rows + 1;
	}
}

static void timeline_draw(const struct tui *t)
{
	const struct rect *r = &t->lay.pane[PANE_TIMELINE];
	int rows = r->h - 1;
	char extra[96] = "";
	if (t->tl.nlines) {
		int n = snprintf(extra, sizeof extra, "%zu entr%s", t->tl.nentries, t->tl.nentries == 1 ? "y" : "ies");
		/* Say when there is more than the pane shows, and where we are. */
		if (rows >= 1 && t->tl.nlines > (size_t)rows) {
			size_t last = t->tl.top + (size_t)rows;
			if (last > t->tl.nlines)
				last = t->tl.nlines;
			snprintf(extra + n, sizeof extra - (size_t)n, ", lines %zu-%zu of %zu", t->tl.top + 1, last,
			         t->tl.nlines);
		}
	}
	draw_pane_title(t, PANE_TIMELINE, timeline_pane.title, extra);
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
		draw_wide(r->y + 1 + i, r->x + 1 + l->indent, r->w - 1 - l->indent, text, len, a);
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

/* Enter unfolds (or folds) the selected call's arguments and result. */
static unsigned timeline_toggle(struct tui *t)
{
	if (t->tl.sel >= t->tl.nentries)
		return 0;
	long call = t->tl.entries[t->tl.sel].call;
	if (call < 0 || (size_t)call >= t->tl.nexpanded)
		return 0;
	t->tl.expanded[call] = !t->tl.expanded[call];
	t->tl.width = -1;       /* rebuild the lines */
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
