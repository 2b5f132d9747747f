/* tags_pane.c - T: every tag and free code with its runs and calls; rename, merge, promote, filter.
 *
 * The counts are annot/tagcount's, built again after each change, so the
 * pane shows what the file says. Renames, merges and promotions are
 * tag-alias decisions (review/tags.h): the codes stay in the file as they
 * were typed, and the history shows the change. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui_int.h"
#include "annot/tagcount.h"
#include "review/tags.h"
#include "util/xalloc.h"

struct tags_pane_state {
	bool shown;
	size_t sel, top;
	struct tag_table tt;
	bool *marked;               /* one per row, Space toggles */
};

static void rebuild(struct tui *t)
{
	struct tags_pane_state *p = t->tagp;
	tag_table_free(&p->tt);
	tag_table_build(&p->tt, &t->cfg->vocab, t->rv->annot);
	free(p->marked);
	p->marked = xcalloc(p->tt.n + 1, sizeof *p->marked);
	if (p->sel >= p->tt.n)
		p->sel = p->tt.n ? p->tt.n - 1 : 0;
}

bool tagpane_shown(const struct tui *t)
{
	return t->tagp && t->tagp->shown;
}

unsigned tagpane_open(struct tui *t)
{
	if (!t->tagp)
		t->tagp = xcalloc(1, sizeof *t->tagp);
	t->tagp->shown = true;
	rebuild(t);
	return REDRAW_ALL;
}

void tagpane_free(struct tui *t)
{
	if (!t->tagp)
		return;
	tag_table_free(&t->tagp->tt);
	free(t->tagp->marked);
	free(t->tagp);
	t->tagp = NULL;
}

/* ---- drawing -------------------------------------------------------------- */

static int list_rows(void)
{
	return LINES - 4 > 1 ? LINES - 4 : 1;
}

static void draw_row(const struct tui *t, const struct tag_row *r, size_t i, int y, int namew)
{
	const struct tags_pane_state *p = t->tagp;
	bool sel = i == p->sel;
	attr_t a = sel ? screen_attr(t, SLOT_SELECTION) : screen_attr(t, SLOT_NORMAL);
	attr_t dim = sel ? a : screen_attr(t, SLOT_DIM);
	draw_fill(y, 0, COLS, a);
	char head[16];
	/* a defined tag's key, or · for a free code (as the tag prompt shows them) */
	int hl = snprintf(head, sizeof head, "%s %s ", p->marked[i] ? "\xe2\x97\x8f" : " ",   /* ● */
	                  !r->def ? "\xc2\xb7" : r->def->key ? (char[2]){ r->def->key, 0 } : " ");
	int x = draw_text(y, 0, COLS, head, (size_t)hl, a);
	draw_text_cut(y, x, namew, r->name, strlen(r->name), r->def ? a | A_BOLD : a);
	x += namew + 1;
	char nums[48];
	int nl = snprintf(nums, sizeof nums, "%5zu %5zu  ", r->runs, r->calls);
	x += draw_text(y, x, COLS - x, nums, (size_t)nl, a);
	const char *rest = r->def ? r->def->description : r->under;
	if (!r->def && r->under)
		x += draw_text(y, x, COLS - x, "\xe2\x86\x92 ", 4, dim);             /* → */
	if (rest && x < COLS)
		draw_text_cut(y, x, COLS - x, rest, strlen(rest), r->def ? dim : a);
}

void tagpane_draw(const struct tui *t)
{
	const struct tags_pane_state *p = t->tagp;
	attr_t head = screen_attr(t, SLOT_TITLE_FOCUS);
	draw_fill(0, 0, COLS, head);
	/* fits 80 columns: the whole of each key's word is in the help */
	static const char title[] = "[tags] Enter runs  Space mark  m merge  r rename  p promote  "
	                            "x unalias  Esc";
	draw_text(0, 0, COLS, title, sizeof title - 1, head);
	if (!p->tt.n) {
		static const char none[] = "no tag yet: t on a run, or on a call in the timeline, writes one";
		draw_text_cut(2, 2, COLS - 2, none, sizeof none - 1, screen_attr(t, SLOT_DIM));
		return;
	}
	int namew = 8;
	for (size_t i = 0; i < p->tt.n; i++) {
		int w = draw_width(p->tt.rows[i].name, strlen(p->tt.rows[i].name));
		namew = w > namew ? w : namew;
	}
	if (namew > COLS / 3)
		namew = COLS / 3;
	char hdr[160];
	int hl = snprintf(hdr, sizeof hdr, "    %-*s  RUNS CALLS  DESCRIPTION / \xe2\x86\x92 COUNTS UNDER",
	                  namew, "TAG");
	draw_text(1, 0, COLS, hdr, (size_t)(hl < (int)sizeof hdr ? hl : (int)sizeof hdr - 1),
	          screen_attr(t, SLOT_HEADER));
	int rows = list_rows();
	for (size_t i = p->top; i < p->tt.n && (int)(i - p->top) < rows; i++)
		draw_row(t, &p->tt.rows[i], i, 2 + (int)(i - p->top), namew);
}

/* ---- keys ----------------------------------------------------------------- */

static const struct tag_row *selected(const struct tui *t)
{
	const struct tags_pane_state *p = t->tagp;
	return p->sel < p->tt.n ? &p->tt.rows[p->sel] : NULL;
}

static unsigned step_sel(struct tui *t, long d)
{
	struct tags_pane_state *p = t->tagp;
	long s = (long)p->sel + d, n = (long)p->tt.n;
	p->sel = (size_t)(s < 0 ? 0 : s >= n ? (n ? n - 1 : 0) : s);
	int rows = list_rows();
	if (p->sel < p->top)
		p->top = p->sel;
	if (p->sel >= p->top + (size_t)rows)
		p->top = p->sel - (size_t)rows + 1;
	return REDRAW_ALL;
}

static size_t nmarked(const struct tui *t)
{
	size_t n = 0;
	for (size_t i = 0; i < t->tagp->tt.n; i++)
		n += t->tagp->marked[i];
	return n;
}

static unsigned ask(struct tui *t, enum prompt_kind k)
{
	const struct tag_row *r = selected(t);
	if (!r)
		return REDRAW_STATUS;
	char lbl[160];
	if (k == PROMPT_TAG_MERGE) {
		size_t n = nmarked(t);
		if (n)
			snprintf(lbl, sizeof lbl, "merge %zu code%s into: ", n, n == 1 ? "" : "s");
		else
			snprintf(lbl, sizeof lbl, "merge %s into: ", r->name);
	} else if (k == PROMPT_TAG_RENAME) {
		if (r->def) {
			tui_message(t, true, "%s is defined in the configuration: rename it there", r->name);
			return REDRAW_STATUS;
		}
		snprintf(lbl, sizeof lbl, "rename %s to: ", r->name);
	} else {
		if (r->def) {
			tui_message(t, true, "%s is a defined tag already", r->name);
			return REDRAW_STATUS;
		}
		snprintf(lbl, sizeof lbl, "promote %s into (a defined tag): ", r->name);
	}
	tagprompt_start(t, k, lbl);
	return REDRAW_ALL;
}

static unsigned filter_to_tag(struct tui *t)
{
	const struct tag_row *r = selected(t);
	if (!r)
		return REDRAW_STATUS;
	char name[128];
	snprintf(name, sizeof name, "%s", r->def || !r->under ? r->name : r->under);
	size_t runs = r->runs;
	review_set_tag_filter(t->rv, name);
	review_move_to(t->rv, 0);
	t->tagp->shown = false;
	tui_message(t, false, "%zu run%s tagged %s (f a shows all runs)", runs, runs == 1 ? "" : "s",
	            name);
	return list_moved(t) | REDRAW_ALL | RELAYOUT;
}

static unsigned unalias(struct tui *t)
{
	const struct tag_row *r = selected(t);
	if (!r)
		return REDRAW_STATUS;
	char name[128];
	snprintf(name, sizeof name, "%s", r->name);
	struct error err = {0};
	int rc = review_tag_unalias(t->rv, name, &err);
	char what[192];
	snprintf(what, sizeof what, "the alias of %s taken back", name);
	unsigned u = decide_report(t, rc, err.msg, what);
	rebuild(t);
	return u;
}

unsigned tagpane_submit(struct tui *t, enum prompt_kind k, const char *name)
{
	struct tags_pane_state *p = t->tagp;
	if (!p)
		return REDRAW_ALL;
	if (k == PROMPT_TAG_PROMOTE && !vocab_tag_find(&t->cfg->vocab, name)) {
		tui_message(t, true, "%s is not a defined tag (tags: in the configuration)", name);
		return REDRAW_ALL;
	}
	const char **codes = xcalloc(p->tt.n + 1, sizeof *codes);
	size_t n = 0;
	for (size_t i = 0; k == PROMPT_TAG_MERGE && i < p->tt.n; i++)
		if (p->marked[i])
			codes[n++] = p->tt.rows[i].name;
	if (!n && p->sel < p->tt.n)
		codes[n++] = p->tt.rows[p->sel].name;
	struct error err = {0};
	int rc = review_tag_alias(t->rv, codes, n, name, &err);
	char what[256];
	snprintf(what, sizeof what, "%s%s %s %s", n == 1 ? codes[0] : "", n == 1 ? "" : "codes",
	         k == PROMPT_TAG_RENAME ? "renamed to" : k == PROMPT_TAG_MERGE ? "merged into" :
	         "promoted into", name);
	if (n > 1) {
		char many[300];
		snprintf(many, sizeof many, "%zu %s", n, what);
		memcpy(what, many, sizeof what - 1);
		what[sizeof what - 1] = '\0';
	}
	free(codes);
	unsigned u = decide_report(t, rc, err.msg, what);
	rebuild(t);
	return u;
}

unsigned tagpane_key(struct tui *t, keycode_t key)
{
	struct tags_pane_state *p = t->tagp;
	enum tcr_action a = keymap_lookup(&t->km, key);
	if (key == ' ') {
		if (p->sel < p->tt.n)
			p->marked[p->sel] = !p->marked[p->sel];
		return step_sel(t, 1);
	}
	switch (key) {
	case 'm': return ask(t, PROMPT_TAG_MERGE);
	case 'r': return ask(t, PROMPT_TAG_RENAME);
	case 'p': return ask(t, PROMPT_TAG_PROMOTE);
	case 'x': return unalias(t);
	case '\n': return filter_to_tag(t);
	default: break;
	}
	switch (a) {
	case ACT_DOWN:  return step_sel(t, 1);
	case ACT_UP:    return step_sel(t, -1);
	case ACT_FIRST: return step_sel(t, -(long)p->tt.n);
	case ACT_LAST:  return step_sel(t, (long)p->tt.n);
	case ACT_PAGE_DOWN: return step_sel(t, list_rows());
	case ACT_PAGE_UP:   return step_sel(t, -list_rows());
	case ACT_TAGS: case ACT_CANCEL: case ACT_QUIT:
		p->shown = false;
		return REDRAW_ALL | RELAYOUT;
	case ACT_REDRAW: return REDRAW_ALL | RELAYOUT | REDRAW_CLEAR;
	default:
		tui_message(t, false, "in the tags: Enter its runs, Space marks, m merges, r renames, "
		            "p promotes, x takes back an alias, Esc or T closes");
		return REDRAW_STATUS;
	}
}
