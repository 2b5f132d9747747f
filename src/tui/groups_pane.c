/* groups_pane.c - =: the runs in view in groups (tools, first error, verdicts), a group's runs as the list, and one label or tag for a whole group after a y/n.
 *
 * A decision for many runs is asked for once more with the count it
 * touches, because it writes a line per run: the y/n prompt names the
 * scorer, the label and the number of runs. The lines go to the file in
 * one write (review/group_decide.h), so a group is there whole or not. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "review/group_decide.h"
#include "tui_int.h"
#include "util/shortnames.h"
#include "util/xalloc.h"
#include "util/wtext.h"
#include "util/error.h"

#define LEAD_ROWS 3             /* title, the labelling line, the column heads */

static void build(struct tui *t)
{
	struct groups_state *gp = &t->grp;
	groups_free(&gp->gs);
	groups_build(&gp->gs, t->rv, gp->by, t->rv->view, t->rv->nview);
	if (gp->sel >= gp->gs.n)
		gp->sel = gp->gs.n ? gp->gs.n - 1 : 0;
}

unsigned groups_open(struct tui *t)
{
	struct groups_state *gp = &t->grp;
	gp->shown = true;
	gp->sel = gp->top = 0;
	if (gp->row >= review_nrows(t->rv))
		gp->row = 0;
	build(t);
	if (review_busy(t->rv))
		tui_message(t, false, "still reading runs: the groups are of the %zu read so far", gp->gs.nruns);
	return REDRAW_ALL;
}

void groups_close(struct tui *t)
{
	t->grp.shown = false;
	groups_free(&t->grp.gs);
}

static const struct run_group *selected(const struct tui *t)
{
	const struct groups_state *gp = &t->grp;
	return gp->sel < gp->gs.n ? &gp->gs.g[gp->sel] : NULL;
}

/* Enter: the list shows the group's runs, named on the status line. */
static unsigned filter_to(struct tui *t)
{
	const struct run_group *g = selected(t);
	if (!g)
		return REDRAW_STATUS;
	char name[192];
	snprintf(name, sizeof name, "group %s by %s (%zu): %s", g->id, group_by_name(t->grp.by), g->n,
	         g->fingerprint);
	review_set_cell_filter(t->rv, g->entries, g->n, name);
	groups_close(t);
	tui_message(t, false, "%zu runs of group %s; f then a: all runs again", review_view_count(t->rv), name + 6);
	return list_moved(t) | REDRAW_ALL | RELAYOUT;
}

/* ---- a decision for the whole group --------------------------------------- */

static unsigned ask(struct tui *t, const char *fmt, const char *what)
{
	const struct run_group *g = selected(t);
	char lbl[sizeof t->pr.label];
	snprintf(lbl, sizeof lbl, fmt, what, g->n, g->n == 1 ? "" : "s");
	prompt_start(t, PROMPT_GROUP_CONFIRM, lbl);
	return REDRAW_STATUS;
}

static unsigned ask_label(struct tui *t, bool accept, int digit)
{
	if (!selected(t) || !review_nrows(t->rv)) {
		tui_message(t, true, review_nrows(t->rv) ? "no group selected" : "no scorer to label (-c FILE)");
		return REDRAW_STATUS;
	}
	struct groups_state *gp = &t->grp;
	struct error err = {0};
	if (!accept && review_row_takes(t->rv, gp->row, digit, &err) < 0) {
		tui_message(t, true, "%s: %s", review_row_id(t->rv, gp->row), err.msg);
		return REDRAW_STATUS;
	}
	gp->pending = accept ? GROUP_ACCEPT : GROUP_LABEL;
	gp->score = digit;
	char what[160];
	if (accept)
		snprintf(what, sizeof what, "accept '%s'", review_row_id(t->rv, gp->row));
	else
		snprintf(what, sizeof what, "label '%s' %d", review_row_id(t->rv, gp->row), digit);
	return ask(t, "%s on %zu run%s? y/n ", what);
}

/* The tag prompt's text: what a code the group gets, then the y/n. */
unsigned groups_tag_typed(struct tui *t, const char *code)
{
	struct groups_state *gp = &t->grp;
	if (!*code || !selected(t)) {
		tui_message(t, false, "cancelled");
		return REDRAW_STATUS;
	}
	snprintf(gp->code, sizeof gp->code, "%s", code);
	gp->pending = GROUP_TAG;
	char what[180];
	snprintf(what, sizeof what, "tag '%s'", gp->code);
	return ask(t, "%s on %zu run%s? y/n ", what);
}

static unsigned do_pending(struct tui *t)
{
	struct groups_state *gp = &t->grp;
	const struct run_group *g = selected(t);
	struct group_outcome out;
	struct error err = {0};
	int rc;
	char what[256];
	if (!g)
		return REDRAW_STATUS;
	if (gp->pending == GROUP_TAG) {
		rc = review_group_tag(t->rv, gp->code, g->entries, g->n, &out, &err);
		snprintf(what, sizeof what, "tag '%s'", gp->code);
	} else {
		rc = review_group_label(t->rv, gp->row, gp->pending == GROUP_ACCEPT, gp->score, g->entries,
		                        g->n, &out, &err);
		if (gp->pending == GROUP_ACCEPT)
			snprintf(what, sizeof what, "'%s' accepted", review_row_id(t->rv, gp->row));
		else
			snprintf(what, sizeof what, "'%s' labelled %g", review_row_id(t->rv, gp->row), gp->score);
	}
	gp->pending = GROUP_NONE;
	if (rc < 0) {
		tui_message(t, true, "not saved: %s", err.msg);
		return REDRAW_ALL;
	}
	char skipped[96] = "";
	if (out.skipped)
		snprintf(skipped, sizeof skipped, "; %zu left out (not read, not answered, or a run id twice)",
		         out.skipped);
	tui_message(t, false, "%s on %zu run%s (saved, one group: x on one takes back all)%s", what,
	            out.written, out.written == 1 ? "" : "s", skipped);
	return REDRAW_ALL;
}

/* x on a verdict decided for a group: the whole group, or only this run. */
unsigned groups_ask_retract(struct tui *t, size_t row, const char *group, size_t standing)
{
	struct groups_state *gp = &t->grp;
	snprintf(gp->group, sizeof gp->group, "%s", group);
	gp->row = row;
	gp->pending = GROUP_RETRACT;
	char lbl[sizeof t->pr.label];
	snprintf(lbl, sizeof lbl, "take back the whole group (%zu runs)? y/n/o(nly this run) ", standing);
	prompt_start(t, PROMPT_GROUP_CONFIRM, lbl);
	return REDRAW_STATUS;
}

static unsigned do_retract(struct tui *t, bool whole)
{
	struct groups_state *gp = &t->grp;
	struct error err = {0};
	gp->pending = GROUP_NONE;
	if (!whole)
		return decide_report(t, review_retract(t->rv, gp->row, &err), err.msg, "decision taken back");
	size_t n = annot_group_standing(t->rv->annot, gp->group);
	char what[128];
	snprintf(what, sizeof what, "group %s taken back (%zu decision%s)", gp->group, n, n == 1 ? "" : "s");
	return decide_report(t, review_group_retract(t->rv, gp->group, &err), err.msg, what);
}

/* The y/n (y/n/o for a retract) after a group decision was asked. */
unsigned groups_confirm_key(struct tui *t, keycode_t key)
{
	struct groups_state *gp = &t->grp;
	t->pr.kind = PROMPT_NONE;
	if (gp->pending == GROUP_RETRACT && (key == 'y' || key == 'Y' || key == 'o' || key == 'O'))
		return do_retract(t, key == 'y' || key == 'Y');
	if (gp->pending != GROUP_RETRACT && gp->pending != GROUP_NONE && (key == 'y' || key == 'Y'))
		return do_pending(t);
	gp->pending = GROUP_NONE;
	tui_message(t, false, "cancelled: nothing written");
	return REDRAW_ALL;
}

/* ---- keys ------------------------------------------------------------------ */

static unsigned move_sel(struct tui *t, long d)
{
	struct groups_state *gp = &t->grp;
	long n = (long)gp->gs.n, s = (long)gp->sel + d;
	gp->sel = n == 0 ? 0 : s < 0 ? 0 : s >= n ? (size_t)(n - 1) : (size_t)s;
	return REDRAW_ALL;
}

static unsigned next_by(struct tui *t)
{
	struct groups_state *gp = &t->grp;
	gp->by = (enum group_by)((gp->by + 1) % GROUP_BY_COUNT);
	gp->sel = gp->top = 0;
	build(t);
	return REDRAW_ALL;
}

static unsigned next_row(struct tui *t)
{
	size_t n = review_nrows(t->rv);
	t->grp.row = n ? (t->grp.row + 1) % n : 0;
	return REDRAW_ALL;
}

unsigned groups_key(struct tui *t, keycode_t key)
{
	enum tcr_action a = keymap_lookup(&t->km, key);
	int page = LINES - LEAD_ROWS - 2 > 1 ? LINES - LEAD_ROWS - 2 : 1;
	if (key >= '0' && key <= '9')
		return ask_label(t, false, (int)(key - '0'));
	switch (key) {
	case 'j': return move_sel(t, 1);
	case 'k': return move_sel(t, -1);
	case 'b': case '\t': return next_by(t);
	case 'r': return next_row(t);
	case 'a': return ask_label(t, true, 0);
	case 't':
		if (!selected(t))
			return REDRAW_STATUS;
		tagprompt_start(t, PROMPT_GROUP_TAG, "tag the group's runs with: ");
		return REDRAW_ALL;
	case '\n': return filter_to(t);
	case 'q': case 27:
		groups_close(t);
		return REDRAW_ALL | RELAYOUT;
	}
	switch (a) {
	case ACT_DOWN: return move_sel(t, 1);
	case ACT_UP: return move_sel(t, -1);
	case ACT_PAGE_DOWN: return move_sel(t, page);
	case ACT_PAGE_UP: return move_sel(t, -page);
	case ACT_FIRST: return move_sel(t, -(long)t->grp.gs.n);
	case ACT_LAST: return move_sel(t, (long)t->grp.gs.n);
	case ACT_TOGGLE: return filter_to(t);
	case ACT_GROUPS: case ACT_CANCEL: case ACT_QUIT:
		groups_close(t);
		return REDRAW_ALL | RELAYOUT;
	case ACT_REDRAW: return REDRAW_ALL | RELAYOUT | REDRAW_CLEAR;
	default:
		tui_message(t, false, "in the groups: j/k move, Enter its runs, b by, r row, a accept, "
		            "0-9 label, t tag (each asks y/n), Esc closes");
		return REDRAW_STATUS;
	}
}

/* ---- drawing ------------------------------------------------------------- */

/* The list's rows: what is left above the selected group's lines (a
 * third of the screen at least) and the status line. */
static int list_rows(const struct tui *t)
{
	int room = LINES - LEAD_ROWS - 1;
	int want = (int)t->grp.gs.n;
	int keep = room / 3 > 4 ? room / 3 : room > 8 ? 4 : 0;
	if (want > room - keep)
		want = room - keep;
	return want > 1 ? want : 1;
}

void groups_fit(struct tui *t)
{
	struct groups_state *gp = &t->grp;
	size_t rows = (size_t)list_rows(t);
	if (gp->sel < gp->top)
		gp->top = gp->sel;
	if (gp->sel >= gp->top + rows)
		gp->top = gp->sel - rows + 1;
}

/* The example column's most: a third of a wide screen, a fifth of a narrow one. */
static int example_cols(void)
{
	return COLS >= 110 ? (COLS / 3 > 40 ? 40 : COLS / 3) : COLS / 5 > 10 ? COLS / 5 : 10;
}

static void group_row(const struct tui *t, const struct run_group *g, const struct short_name *ex,
                      int y, bool sel)
{
	const struct groups_state *gp = &t->grp;
	attr_t a = screen_attr(t, sel ? SLOT_SELECTION : SLOT_NORMAL);
	draw_fill(y, 0, COLS, a);
	char lead[48];
	int n = snprintf(lead, sizeof lead, "%6zu %4.0f%%  ", g->n,
	                 gp->gs.nruns ? 100.0 * (double)g->n / (double)gp->gs.nruns : 0.0);
	int x = draw_text(y, 0, COLS, lead, (size_t)n, a);
	int exw = (int)short_name_width(g->example, ex);
	/* the fingerprint is what is read; the example gets what is left */
	int exmax = example_cols();
	if (exw > exmax)
		exw = exmax;
	int fw = COLS - x - exw - 2;
	if (fw < 10) {
		fw = COLS - x;
		exw = 0;
	}
	draw_text_cut(y, x, fw, g->fingerprint, strlen(g->fingerprint), a);
	if (exw > 0)
		draw_short_name(y, COLS - exw, exw, g->example, ex, sel ? a : screen_attr(t, SLOT_DIM),
		                true);
}

/* Text wrapped under a heading from row y, up to row ymax; the next row. */
static int wrapped(const struct tui *t, int y, int ymax, const char *heading, const char *text)
{
	if (y >= ymax)
		return y;
	draw_text(y++, 1, COLS - 1, heading, strlen(heading), screen_attr(t, SLOT_TITLE));
	struct wtext_wrapped w;
	wtext_wrap(&w, text, strlen(text), COLS > 6 ? (size_t)COLS - 4 : 2, 0);
	for (size_t i = 0; i < w.nlines && y < ymax; i++, y++)
		draw_wide(y, 3, COLS - 3, w.text + w.lines[i].start, w.lines[i].len, screen_attr(t, SLOT_NORMAL));
	wtext_wrapped_free(&w);
	return y;
}

/* Below the list, the selected group whole: its fingerprint and its runs. */
static void selected_draw(const struct tui *t, int y)
{
	const struct run_group *g = selected(t);
	const struct review *rv = tui_rv(t);
	if (!g || y + 3 >= LINES - 1)
		return;
	char heading[64];
	snprintf(heading, sizeof heading, "group %s, %zu run%s:", g->id, g->n, g->n == 1 ? "" : "s");
	y = wrapped(t, y, LINES - 1, heading, g->fingerprint);
	struct strbuf ids = STRBUF_INIT;
	for (size_t k = 0; k < g->n; k++) {
		const struct review_entry *e = &rv->entries[g->entries[k]];
		strbuf_addf(&ids, "%s%s", k ? "  " : "", e->id ? e->id : e->source);
	}
	wrapped(t, y, LINES - 1, "its runs (Enter shows them in the list):", ids.buf ? ids.buf : "");
	strbuf_release(&ids);
}

void groups_draw(const struct tui *t)
{
	const struct groups_state *gp = &t->grp;
	const struct review *rv = tui_rv(t);
	attr_t head = screen_attr(t, SLOT_TITLE_FOCUS);
	char line[512];
	draw_fill(0, 0, COLS, head);
	int n = snprintf(line, sizeof line, "[groups] %zu run%s in view by %s: %zu group%s  "
	                 "b by %s  Enter runs  Esc", gp->gs.nruns, gp->gs.nruns == 1 ? "" : "s",
	                 group_by_name(gp->by), gp->gs.n, gp->gs.n == 1 ? "" : "s",
	                 group_by_name((enum group_by)((gp->by + 1) % GROUP_BY_COUNT)));
	draw_text(0, 0, COLS, line, (size_t)n, head);
	if (review_nrows(rv))
		n = snprintf(line, sizeof line, "whole group, after a y/n: a accept '%s'  0-9 label  "
		             "t tag  r another scorer", review_row_id(rv, gp->row));
	else
		n = snprintf(line, sizeof line, "whole group, after a y/n: t tag");
	draw_text_cut(1, 1, COLS - 1, line, (size_t)n, screen_attr(t, SLOT_NORMAL));
	static const char cols[] = "  runs share  fingerprint";
	attr_t h = screen_attr(t, SLOT_HEADER);
	draw_fill(2, 0, COLS, h);
	draw_text(2, 0, COLS, cols, sizeof cols - 1, h);
	if (COLS > 40)
		draw_text(2, COLS - 7, 7, "example", 7, h);
	if (!gp->gs.n) {
		static const char none[] = "no run in view to group";
		draw_text(LEAD_ROWS, 2, COLS - 2, none, sizeof none - 1, screen_attr(t, SLOT_DIM));
		return;
	}
	int y = LEAD_ROWS, list_end = list_rows(t) + LEAD_ROWS;
	/* The examples on screen lose the start and end they share, as the
	 * run list's ids do: "…task003-trial0", not "tau1-a…03-trial0". */
	size_t first = gp->top, shown = 0;
	while (first + shown < gp->gs.n && (int)shown < list_end - y)
		shown++;
	const char **names = xcalloc(shown + 1, sizeof *names);
	struct short_name *ex = xcalloc(shown + 1, sizeof *ex);
	for (size_t i = 0; i < shown; i++)
		names[i] = gp->gs.g[first + i].example;
	short_names(names, shown, (size_t)example_cols(), ex);
	for (size_t i = 0; i < shown; i++, y++)
		group_row(t, &gp->gs.g[first + i], &ex[i], y, first + i == gp->sel);
	free(names);
	free(ex);
	selected_draw(t, y + 1);
}
