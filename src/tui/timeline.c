/* timeline.c - the selected run's messages and tool calls, in order.
 *
 * The run is turned into display lines once per run and width (and again
 * when a call is folded or unfolded); drawing then only copies the lines
 * that are on screen. A tool call is its own entry: name, id, arguments as
 * indented JSON (long ones folded), and its result or error joined to it.
 * Calls a scorer counted are numbered #1, #2, ...; a simulated user's calls
 * are marked as such. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/jsonw.h"
#include "scorers/scorer.h"
#include "tui_int.h"
#include "util/wtext.h"

#define FOLD_LINES 6

static struct tl_line *new_line(struct tui *t, size_t entry, int indent, int slot)
{
	if (t->tl.nlines == t->tl.lines_cap) {
		t->tl.lines_cap = t->tl.lines_cap ? t->tl.lines_cap * 2 : 64;
		t->tl.lines = realloc(t->tl.lines, t->tl.lines_cap * sizeof(*t->tl.lines));
		if (!t->tl.lines)
			abort();
	}
	struct tl_line *l = &t->tl.lines[t->tl.nlines++];
	l->entry = entry;
	l->indent = indent;
	l->slot = slot;
	l->text = NULL;
	l->len = 0;
	return l;
}

static void add_line(struct tui *t, size_t entry, int indent, int slot, const char *s, size_t n)
{
	struct tl_line *l = new_line(t, entry, indent, slot);
	l->text = wtext_decode(s, n, WTEXT_TABS, &l->len);
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

/* Wrapped text, each line indented; a text's own newlines are kept. */
static void add_text(struct tui *t, size_t entry, int indent, int slot, const char *s, int width,
                     size_t max_lines, size_t *shown, size_t *total)
{
	int w = width - indent;
	if (w < 8)
		w = 8;
	struct wtext_wrapped wr;
	wtext_wrap(&wr, s, strlen(s), (size_t)w, WTEXT_TABS);
	size_t n = wr.nlines;
	for (size_t i = 0; i < n && (!max_lines || i < max_lines); i++) {
		struct tl_line *l = new_line(t, entry, indent, slot);
		l->len = wr.lines[i].len;
		l->text = malloc((l->len + 1) * sizeof(wchar_t));
		if (!l->text)
			abort();
		memcpy(l->text, wr.text + wr.lines[i].start, l->len * sizeof(wchar_t));
		l->text[l->len] = 0;
	}
	if (shown)
		*shown = max_lines && n > max_lines ? max_lines : n;
	if (total)
		*total = n;
	wtext_wrapped_free(&wr);
}

static char *json_text(const json_t *v, bool indent)
{
	if (json_is_string(v))
		return strdup(json_string_value(v));
	char *s = json_dumps(v, JSON_ENCODE_ANY | (indent ? JSON_INDENT(2) : JSON_COMPACT));
	return s ? s : strdup("");
}

static void add_folded(struct tui *t, size_t entry, int indent, int slot, const char *text, int width,
                       bool open)
{
	size_t shown, total;
	add_text(t, entry, indent, slot, text, width, open ? 0 : FOLD_LINES, &shown, &total);
	if (shown < total) {
		/* wrapped like any text: a narrow pane must not cut the hint */
		char more[96];
		snprintf(more, sizeof more, "\xe2\x80\xa6 %zu more lines (Enter in the timeline to unfold)",
		         total - shown);
		add_text(t, entry, indent, SLOT_DIM, more, width, 0, NULL, NULL);
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

static void add_call(struct tui *t, const struct run *r, size_t ci, long number, int width)
{
	const struct run_call *c = &r->calls[ci];
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
	if (c->args_invalid) {
		add_line(t, e, 4, SLOT_ERROR, "arguments (not valid JSON, shown as sent):", 42);
		add_folded(t, e, 6, SLOT_JSON_VALUE, c->args_text ? c->args_text : "", width, open);
	} else if (c->args && !(json_is_object(c->args) && json_object_size(c->args) == 0)) {
		char *a = json_text(c->args, true);
		add_folded(t, e, 4, SLOT_JSON_KEY, a, width, open);
		free(a);
	}
	if (c->is_error) {
		struct strbuf eb = STRBUF_INIT;
		char *rt = c->error_text ? NULL : c->result ? json_text(c->result, false) : NULL;
		const char *et = c->error_text ? c->error_text : rt ? rt : "";
		/* "✗ error: ", unless the text says so itself ("Error: ...") */
		strbuf_addstr(&eb, strncasecmp(et, "error", 5) ? "\xe2\x9c\x97 error: " : "\xe2\x9c\x97 ");
		strbuf_addstr(&eb, et);
		free(rt);
		add_folded(t, e, 4, SLOT_FAIL, eb.buf, width, open);
		strbuf_release(&eb);
	} else if (c->has_result && c->result) {
		char *rt = json_text(c->result, true);
		struct strbuf rb = STRBUF_INIT;
		strbuf_addstr(&rb, "\xe2\x87\x90 ");                        /* ⇐ */
		strbuf_addstr(&rb, rt);
		free(rt);
		add_folded(t, e, 4, SLOT_JSON_VALUE, rb.buf, width, open);
		strbuf_release(&rb);
	}
}

/* A message: its role (and what is odd about it), its text or result,
 * then the calls it made. A result joined to its call is shown with the
 * call. */
static void add_message(struct tui *t, const struct run *r, size_t mi, const long *number, int width)
{
	const struct run_msg *m = &r->msgs[mi];
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
		if (has_text)
			add_text(t, e, 2, SLOT_NORMAL, m->text, width, 0, NULL, NULL);
		else if (m->is_tool_output && m->result) {
			char *rt = json_text(m->result, true);
			add_folded(t, e, 2, SLOT_JSON_VALUE, rt, width, false);
			free(rt);
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
	for (size_t i = 0; i < t->tl.nlines; i++)
		free(t->tl.lines[i].text);
	free(t->tl.lines);
	free(t->tl.entries);
	free(t->tl.expanded);
	t->tl.lines = NULL;
	t->tl.entries = NULL;
	t->tl.expanded = NULL;
	t->tl.nlines = t->tl.lines_cap = t->tl.nentries = t->tl.entries_cap = t->tl.nexpanded = 0;
}

static void timeline_build(struct tui *t, struct review_run *rr, size_t entry)
{
	int width = t->lay.pane[PANE_TIMELINE].w - 1;
	if (entry == t->tl.for_entry && width == t->tl.width)
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
	t->tl.width = width;
	if (!rr) {
		free(keep);
		return;
	}
	if (!rr->run) {
		size_t e = add_entry(t, -1, -1);
		add_line(t, e, 0, SLOT_ERROR, "this record could not be read:", 30);
		add_text(t, e, 2, SLOT_ERROR, rr->error ? rr->error : "?", width, 0, NULL, NULL);
		free(keep);
		return;
	}
	const struct run *r = rr->run;
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
		add_text(t, e, 2, SLOT_ERROR, r->load_error, width, 0, NULL, NULL);
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
		const struct tl_line *l = &t->tl.lines[li];
		bool sel = t->focus == PANE_TIMELINE && l->entry == t->tl.sel &&
		           li == t->tl.entries[t->tl.sel].first_line;
		attr_t a = screen_attr(t, sel ? SLOT_SELECTION : l->slot);
		if (sel) {
			/* '>' as in the list, so the selection reads without colour */
			draw_fill(r->y + 1 + i, r->x, r->w, a);
			draw_text(r->y + 1 + i, r->x, 1, ">", 1, a);
		}
		draw_wide(r->y + 1 + i, r->x + 1 + l->indent, r->w - 1 - l->indent, l->text, l->len, a);
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
