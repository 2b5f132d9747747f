/* compare_pick.c - C: a small menu of the runs to compare the selected one with, the other side's of its task first. */
#include <stdlib.h>
#include <string.h>

#include "tui_int.h"

void cmppick_free(struct tui *t)
{
	free(t->cmp.pick.c);
	t->cmp.pick.c = NULL;
	t->cmp.pick.n = 0;
	t->cmp.pick.shown = false;
}

unsigned cmppick_open(struct tui *t)
{
	size_t entry = review_current_entry(t->rv);
	if (entry == SIZE_MAX) {
		tui_message(t, true, "no run selected to compare");
		return REDRAW_STATUS;
	}
	cmppick_free(t);
	t->cmp.pick.from = entry;
	t->cmp.pick.n = compare_candidates(t->rv, &t->cmp.sides, entry, &t->cmp.pick.c);
	if (!t->cmp.pick.n) {
		tui_message(t, true, "no other run to compare this one with");
		return REDRAW_STATUS;
	}
	t->cmp.pick.shown = true;
	t->cmp.pick.sel = 0;
	t->cmp.pick.top = 0;
	if (!t->cmp.sides.task_spec)
		tui_message(t, false, "no task key: every run is offered; --task PATH (or compare: {task:}) "
		            "pairs runs by task");
	return REDRAW_ALL;
}

unsigned cmppick_key(struct tui *t, keycode_t key)
{
	struct cmpview_state *v = &t->cmp;
	enum tcr_action a = keymap_lookup(&t->km, key);
	size_t n = v->pick.n;
	if (key == 'j' || a == ACT_DOWN)
		v->pick.sel = (v->pick.sel + 1) % n;
	else if (key == 'k' || a == ACT_UP)
		v->pick.sel = (v->pick.sel + n - 1) % n;
	else if (key == '\n' || a == ACT_TOGGLE) {
		size_t from = v->pick.from, to = v->pick.c[v->pick.sel].entry;
		cmppick_free(t);
		v->pairs_built = false;
		compare_task_pairs_free(v->pairs, v->npairs);
		v->pairs = NULL;
		v->npairs = 0;
		return cmpview_open(t, from, to);
	} else if (key == 27 || key == 'q' || a == ACT_CANCEL || a == ACT_QUIT || a == ACT_COMPARE)
		cmppick_free(t);
	else
		tui_message(t, true, "j k choose, Enter compares, Esc shuts");
	return REDRAW_ALL;
}

static const char *why_words(enum compare_why w)
{
	switch (w) {
	case WHY_OTHER_SIDE: return "other side, same task";
	case WHY_SAME_TASK:  return "same task";
	default:             return "";
	}
}

static void box_edge(int y, int x, int w, const char *left, const char *title, const char *right,
                     attr_t a)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, left);
	int used = 1;
	if (title) {
		strbuf_addf(&sb, "\xe2\x94\x80 %s ", title);
		used += 3 + (int)strlen(title);
	}
	for (; used < w - 1; used++)
		strbuf_addstr(&sb, "\xe2\x94\x80");
	strbuf_addstr(&sb, right);
	draw_fill(y, x, w, a);
	draw_text(y, x, w, sb.buf, sb.len, a);
	strbuf_release(&sb);
}

/* A box over the list: a line per run it can be compared with ("C  id
 * other side, same task"), the selected one highlighted. */
void cmppick_draw(const struct tui *t)
{
	const struct cmpview_state *v = &t->cmp;
	const struct review *rv = tui_rv(t);
	int w = COLS - 4 < 100 ? COLS - 4 : 100, x0 = 2, y0 = 1;
	int rows = LINES - 5;
	if (rows > (int)v->pick.n)
		rows = (int)v->pick.n;
	size_t top = v->pick.sel >= (size_t)rows ? v->pick.sel - (size_t)rows + 1 : 0;
	attr_t a = screen_attr(t, SLOT_NORMAL), sel = screen_attr(t, SLOT_SELECTION);
	const struct review_entry *from = &rv->entries[v->pick.from];
	char title[160];
	snprintf(title, sizeof title, "compare %.120s with", from->id ? from->id : from->source);
	box_edge(y0, x0, w, "\xe2\x94\x8c", title, "\xe2\x94\x90", a);
	for (int i = 0; i < rows; i++) {
		const struct compare_candidate *c = &v->pick.c[top + (size_t)i];
		const struct review_entry *e = &rv->entries[c->entry];
		int y = y0 + 1 + i;
		attr_t la = top + (size_t)i == v->pick.sel ? sel : a;
		draw_fill(y, x0, w, a);
		draw_text(y, x0, 1, "\xe2\x94\x82", 3, a);
		draw_text(y, x0 + w - 1, 1, "\xe2\x94\x82", 3, a);
		char line[320];
		const char *side = compare_side_letter(compare_side_of(rv, &v->sides, c->entry));
		int n = snprintf(line, sizeof line, " %s%s%s  %s", side, *side ? "  " : "",
		                 e->id ? e->id : e->source, why_words(c->why));
		draw_fill(y, x0 + 1, w - 2, la);
		draw_text_cut(y, x0 + 1, w - 2, line, (size_t)(n < (int)sizeof line ? n : (int)sizeof line - 1), la);
	}
	int yb = y0 + 1 + rows;
	draw_fill(yb, x0, w, a);
	draw_text(yb, x0, 1, "\xe2\x94\x82", 3, a);
	draw_text(yb, x0 + 2, w - 3, "j k choose, Enter compares (base left), Esc shuts", 49,
	          screen_attr(t, SLOT_DIM));
	draw_text(yb, x0 + w - 1, 1, "\xe2\x94\x82", 3, a);
	box_edge(yb + 1, x0, w, "\xe2\x94\x94", NULL, "\xe2\x94\x98", a);
}
