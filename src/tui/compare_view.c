/* compare_view.c - the side by side of two runs: their aligned calls, the first divergence, both verdicts, preferences.
 *
 * At 120 columns and more the two runs are two columns, a call both made
 * on one line. Narrower, two columns of 38 would cut every call's
 * arguments in its name, so the pair is one column read as a unified
 * diff: what both did once, the base's own as - lines and the
 * candidate's as + lines, argument by argument where only they differ. */
#include <stdlib.h>
#include <string.h>

#include "tui_int.h"
#include "judge/judge.h"
#include "judge/runner.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define CMP_TWO_COLUMNS 120     /* the narrowest screen with two columns */

static bool unified(void)
{
	return COLS < CMP_TWO_COLUMNS;
}

/* The rows above the lines: the title, then one (two columns) or two
 * (unified) rows naming the runs. */
static int head_rows(void)
{
	return unified() ? 3 : 2;
}

/* The verdicts under the lines: a heading, a row per verdict, the
 * preferences; never more than a third of the screen. */
static int foot_rows(const struct tui *t)
{
	size_t n = t->cmp.c.run[0].nverdicts > t->cmp.c.run[1].nverdicts ? t->cmp.c.run[0].nverdicts
	           : t->cmp.c.run[1].nverdicts;
	int want = (int)n + 2 + (t->cmp.judged[0] != '\0'), most = LINES / 3;
	return want < most ? want : most;
}

static int body_rows(const struct tui *t)
{
	int h = LINES - 1 - head_rows() - foot_rows(t);
	return h > 1 ? h : 1;
}

static int cell_width(void)
{
	return unified() ? COLS - 2 : (COLS - 5) / 2;
}

static void lines_make(struct tui *t)
{
	struct cmpview_state *v = &t->cmp;
	if (v->lines_w == cell_width() && v->lines_unified == unified() && v->lines_open == v->open)
		return;
	compare_lines_free(&v->lines);
	bool *open = xcalloc(v->c.nrows + 1, sizeof *open);
	for (size_t i = 0; i <= v->c.nrows; i++)
		open[i] = v->open;
	compare_lines_build(&v->c, &v->lines, cell_width(), unified(), open);
	free(open);
	v->lines_w = cell_width();
	v->lines_unified = unified();
	v->lines_open = v->open;
}

void cmpview_fit(struct tui *t)
{
	if (!t->cmp.shown)
		return;
	lines_make(t);
	size_t body = (size_t)body_rows(t), n = t->cmp.lines.n;
	bool jumped = t->cmp.top == t->cmp.jumped_top;
	if (t->cmp.top + body > n)
		t->cmp.top = n > body ? n - body : 0;
	if (jumped)         /* near the end a jump's top is clamped: still the jump's */
		t->cmp.jumped_top = t->cmp.top;
}

void cmpview_free(struct tui *t)
{
	compare_lines_free(&t->cmp.lines);
	compare_free(&t->cmp.c);
	compare_task_pairs_free(t->cmp.pairs, t->cmp.npairs);
	t->cmp.pairs = NULL;
	t->cmp.npairs = 0;
	t->cmp.pairs_built = false;
	t->cmp.shown = false;
	cmppick_free(t);
}

/* The line of the first divergence's marker, else the row's first line. */
static size_t marker_line(const struct tui *t, size_t row)
{
	const struct compare_lines *ls = &t->cmp.lines;
	for (size_t i = 0; i < ls->n; i++)
		if (ls->l[i].row == row && (ls->l[i].first || ls->l[i].divergence))
			return i;
	return compare_lines_of_row(ls, row);
}

/* Shows row `row` with what was said before it above: the row's messages,
 * at most a third of the lines. */
static void show_row(struct tui *t, size_t row)
{
	lines_make(t);
	size_t first = compare_lines_of_row(&t->cmp.lines, row), mark = marker_line(t, row);
	size_t ctx = (size_t)body_rows(t) / 3;
	t->cmp.top = mark - first > ctx ? mark - ctx : first;
}

static const char *answer_words(enum preference p)
{
	switch (p) {
	case PREF_BASE:
		return "base better";
	case PREF_CAND:
		return "candidate better";
	case PREF_TIE:
		return "a tie";
	case PREF_BOTH_BAD:
		return "both bad";
	default:
		return "no answer";
	}
}

/* What each pairwise judge said of the pair, from the cache, turned to
 * this orientation: a machine's verdict beside the reviewers' own, so
 * not in blind review. */
static void pair_judged(struct tui *t, size_t base_entry, size_t cand_entry)
{
	struct cmpview_state *v = &t->cmp;
	v->judged[0] = '\0';
	const struct config *c = t->cfg;
	struct review *rv = t->rv;
	if (!c->npair_judges || !t->judging.runner || rv->blind)
		return;
	struct error err = {0};
	struct run *a = review_entry_run(rv, base_entry, &err);
	struct run *b = review_entry_run(rv, cand_entry, &err);
	struct strbuf sb = STRBUF_INIT;
	for (size_t k = 0; a && b && k < c->npair_judges; k++) {
		const struct judge_conf *j = &c->pair_judges[k];
		const struct verdict *vd;
		enum preference p = judge_runner_pair_answer(t->judging.runner, j, a, b, &vd);
		const char *why = vd ? json_string_value(json_object_get(vd->details, "reason")) : NULL;
		strbuf_addf(&sb, "%sjudge %s: %s", k ? "   " : "", j->id,
		            vd ? answer_words(p) : "not asked (tcreview judge --pairs)");
		if (why && *why)
			strbuf_addf(&sb, " \xe2\x80\x94 %s", why);
	}
	run_free(a);
	run_free(b);
	snprintf(v->judged, sizeof v->judged, "%s", sb.len ? sb.buf : "");
	strbuf_release(&sb);
}

unsigned cmpview_open(struct tui *t, size_t base_entry, size_t cand_entry)
{
	struct cmpview_state *v = &t->cmp;
	compare_lines_free(&v->lines);
	compare_free(&v->c);
	compare_order(t->rv, &v->sides, &base_entry, &cand_entry);
	struct error err = {0};
	if (compare_open(&v->c, t->rv, &v->sides, base_entry, cand_entry, &err) < 0) {
		tui_message(t, true, "cannot compare: %s", err.msg);
		v->shown = false;
		return REDRAW_ALL;
	}
	v->shown = true;
	pair_judged(t, base_entry, cand_entry);
	/* the list follows: its cursor on the base run, as the status line says */
	for (size_t i = 0; i < review_view_count(t->rv); i++)
		if (t->rv->view[i] == base_entry)
			review_move_to(t->rv, i);
	v->lines_w = -1;
	v->open = false;
	v->top = 0;
	v->jumped_row = SIZE_MAX;
	size_t div = v->c.first_div;
	if (div < v->c.nrows)
		tui_message(t, false, "first divergence: row %zu of %zu, d jumps there", div + 1, v->c.nrows);
	else
		tui_message(t, false, "the two runs made the same calls (%zu)", v->c.nrows);
	return REDRAW_ALL;
}

static void build_pairs(struct tui *t)
{
	if (t->cmp.pairs_built)
		return;
	t->cmp.npairs = compare_task_pairs(t->rv, &t->cmp.sides, &t->cmp.pairs);
	t->cmp.pairs_built = true;
}

unsigned cmpview_start(struct tui *t)
{
	if (review_busy(t->rv))
		return 0;
	t->cmp.want_open = false;
	build_pairs(t);
	if (!t->cmp.npairs) {
		tui_message(t, true, "no task has runs on both sides (task key: %s)",
		            t->cmp.sides.task_spec);
		return REDRAW_ALL;
	}
	t->cmp.pair = 0;
	return cmpview_open(t, t->cmp.pairs[0].base, t->cmp.pairs[0].cand);
}

static unsigned step_pair(struct tui *t, int dir)
{
	build_pairs(t);
	if (!t->cmp.npairs) {
		tui_message(t, true, "%s", t->cmp.sides.on && t->cmp.sides.task_spec
		            ? "no task has runs on both sides" :
		            "] and [ step through tasks with --compare and a task key (--task PATH)");
		return REDRAW_STATUS;
	}
	size_t p = t->cmp.pair;
	if ((dir > 0 && p + 1 >= t->cmp.npairs) || (dir < 0 && p == 0)) {
		tui_message(t, false, "no %s task both sides ran", dir > 0 ? "next" : "previous");
		return REDRAW_STATUS;
	}
	t->cmp.pair = dir > 0 ? p + 1 : p - 1;
	return cmpview_open(t, t->cmp.pairs[t->cmp.pair].base, t->cmp.pairs[t->cmp.pair].cand);
}

/* The aligned row shown at the top of the lines. */
static size_t row_at_top(const struct tui *t)
{
	const struct compare_lines *ls = &t->cmp.lines;
	return t->cmp.top < ls->n ? ls->l[t->cmp.top].row : t->cmp.c.nrows;
}

static unsigned jump_divergence(struct tui *t, int dir)
{
	const struct compare *c = &t->cmp.c;
	size_t row;
	if (dir == 0) {
		row = c->first_div < c->nrows ? c->first_div : SIZE_MAX;
	} else if (t->cmp.top == t->cmp.jumped_top && t->cmp.jumped_row < c->nrows) {
		/* still where the last jump left: from its row, though the
		 * messages above it put the top on an earlier row */
		row = compare_next_divergence(c, t->cmp.jumped_row, dir);
	} else {
		size_t at = row_at_top(t);
		/* the row shown first counts as passed unless it is above its marker */
		row = compare_next_divergence(c, dir > 0 && marker_line(t, at) > t->cmp.top
		                              ? (at == 0 ? SIZE_MAX : at - 1) : at, dir);
	}
	if (row == SIZE_MAX) {
		tui_message(t, false, "%s", dir == 0 ? "no divergence: the runs made the same calls"
		            : dir > 0 ? "no divergence below" : "no divergence above");
		return REDRAW_STATUS;
	}
	show_row(t, row);
	t->cmp.jumped_row = row;
	t->cmp.jumped_top = t->cmp.top;
	tui_message(t, false, "row %zu of %zu: %s", row + 1, c->nrows, align_kind_name(c->rows[row].kind));
	return REDRAW_ALL;
}

static unsigned prefer(struct tui *t, enum preference p)
{
	struct error err = {0};
	if (review_prefer(t->rv, &t->cmp.c, p, &err) < 0) {
		tui_message(t, true, "not saved: %s", err.msg);
		return REDRAW_STATUS;
	}
	tui_message(t, false, "saved: %s (%s)", compare_pref_words(p), t->rv->reviewer);
	return REDRAW_ALL;
}

static unsigned retract(struct tui *t)
{
	struct error err = {0};
	if (review_prefer_retract(t->rv, &t->cmp.c, &err) < 0) {
		tui_message(t, true, "%s", err.msg);
		return REDRAW_STATUS;
	}
	tui_message(t, false, "taken back: your preference on this pair (%s)", t->rv->reviewer);
	return REDRAW_ALL;
}

static unsigned scroll_by(struct tui *t, long by)
{
	size_t n = t->cmp.lines.n;
	if (by < 0)
		t->cmp.top = (size_t)-by > t->cmp.top ? 0 : t->cmp.top - (size_t)-by;
	else
		t->cmp.top = t->cmp.top + (size_t)by < n ? t->cmp.top + (size_t)by : n;
	return REDRAW_ALL;
}

unsigned cmpview_key(struct tui *t, enum tcr_action a)
{
	long page = body_rows(t) > 2 ? body_rows(t) - 2 : 1;
	switch (a) {
	case ACT_DOWN:      return scroll_by(t, 1);
	case ACT_UP:        return scroll_by(t, -1);
	case ACT_PAGE_DOWN: return scroll_by(t, page);
	case ACT_PAGE_UP:   return scroll_by(t, -page);
	case ACT_FIRST:     t->cmp.top = 0; return REDRAW_ALL;
	case ACT_LAST:      t->cmp.top = t->cmp.lines.n; return REDRAW_ALL;
	case ACT_TOGGLE:
		t->cmp.open = !t->cmp.open;
		tui_message(t, false, "%s", t->cmp.open ? "every message unfolded (Enter folds them)"
		            : "messages folded to their first line (Enter unfolds)");
		{
			size_t row = row_at_top(t);
			lines_make(t);
			t->cmp.top = compare_lines_of_row(&t->cmp.lines, row);
		}
		return REDRAW_ALL;
	case ACT_FIRST_DIVERGENCE: return jump_divergence(t, 0);
	case ACT_SEARCH_NEXT:  return jump_divergence(t, 1);
	case ACT_SEARCH_PREV:  return jump_divergence(t, -1);
	case ACT_NEXT_DISAGREE: return step_pair(t, 1);
	case ACT_PREV_DISAGREE: return step_pair(t, -1);
	case ACT_PREFER_BASE:  return prefer(t, PREF_BASE);
	case ACT_PREFER_CAND:  return prefer(t, PREF_CAND);
	case ACT_PREFER_TIE:   return prefer(t, PREF_TIE);
	case ACT_PREFER_BAD:   return prefer(t, PREF_BOTH_BAD);
	case ACT_RETRACT:      return retract(t);
	case ACT_CANCEL: case ACT_COMPARE:
		t->cmp.shown = false;
		tui_message(t, false, "%s", "");
		return REDRAW_ALL | RELAYOUT;
	case ACT_HELP: case ACT_MESSAGES: case ACT_QUIT: case ACT_REDRAW:
		return tui_act(t, a);
	default:
		tui_message(t, true, "not in the side by side: j k PgUp PgDn g G scroll, Enter unfolds, "
		            "d n N divergences, ] [ tasks, < > ~ ! prefer, x takes back, Esc closes");
		return REDRAW_STATUS;
	}
}

/* ---- drawing ---------------------------------------------------------------- */

static int tone_slot(int tone)
{
	switch (tone) {
	case TONE_DIM:   return SLOT_DIM;
	case TONE_USER:  return SLOT_ROLE_USER;
	case TONE_AGENT: return SLOT_ROLE_ASSISTANT;
	case TONE_CALL:  return SLOT_TOOL_NAME;
	case TONE_DEL:   return SLOT_DIFF_DEL;
	case TONE_ADD:   return SLOT_DIFF_ADD;
	case TONE_MARK:  return SLOT_DIFF_HUNK;
	default:         return SLOT_NORMAL;
	}
}

/* What is read all day stays plain: a message's role word and a call's
 * number and name take the tone, the text and arguments after them do
 * not (a lone call's line is all in its diff colour, as a diff's). */
static size_t cell_lead(const struct compare_cell *c)
{
	const char *s = c->text, *p = NULL;
	if (c->tone == TONE_USER || c->tone == TONE_AGENT)
		p = strstr(s, ": ");
	else if (c->tone == TONE_CALL && (p = strchr(s, '#')) != NULL)
		p = strchr(p, ' ') ? strchr(strchr(p, ' ') + 1, ' ') : NULL;
	return p ? (size_t)(p - s) + (c->tone == TONE_CALL ? 0 : 1) : strlen(s);
}

static void draw_cell(const struct tui *t, int y, int x, int w, const struct compare_cell *c)
{
	if (!c->text)
		return;
	size_t len = strlen(c->text), lead = cell_lead(c);
	int used = draw_text_cut(y, x, w, c->text, lead, screen_attr(t, tone_slot(c->tone)));
	if (lead < len && used < w)
		draw_text_cut(y, x + used, w - used, c->text + lead, len - lead, screen_attr(t, SLOT_NORMAL));
}

static void draw_title(const struct tui *t)
{
	const struct cmpview_state *v = &t->cmp;
	const struct compare *c = &v->c;
	char buf[512];
	int n;
	const char *task = c->run[0].task ? c->run[0].task : c->run[1].task;
	size_t ndiv = 0;
	for (size_t i = 0; i < c->nrows; i++)
		ndiv += c->rows[i].kind != ALIGN_SAME;
	n = snprintf(buf, sizeof buf, "[side by side]%s%s", task ? " task " : "", task ? task : "");
	if (v->npairs && v->shown && v->pair < v->npairs && task && strcmp(v->pairs[v->pair].task, task) == 0)
		n += snprintf(buf + n, sizeof buf - (size_t)n, " (%zu of %zu)", v->pair + 1, v->npairs);
	if (c->first_div < c->nrows)
		n += snprintf(buf + n, sizeof buf - (size_t)n, "  %zu of %zu rows differ, the first is row %zu (d)",
		              ndiv, c->nrows, c->first_div + 1);
	else
		n += snprintf(buf + n, sizeof buf - (size_t)n, "  the same %zu calls", c->nrows);
	attr_t a = screen_attr(t, SLOT_TITLE_FOCUS);
	draw_fill(0, 0, COLS, a);
	draw_text_cut(0, 0, COLS, buf, (size_t)(n < (int)sizeof buf ? n : (int)sizeof buf - 1), a);
	static const char *const who[2] = {"base", "candidate"};
	for (int k = 0; k < 2; k++) {
		const struct compare_run *r = &c->run[k];
		n = snprintf(buf, sizeof buf, "%s %s: %s", unified() ? (k ? "+" : "-")
		             : compare_side_letter(r->side)[0] ? compare_side_letter(r->side) : (k ? "\xe2\x96\xb6" : "\xe2\x97\x80"),
		             who[k], r->id);
		int y = unified() ? 1 + k : 1, x = unified() || k == 0 ? 2 : 5 + cell_width();
		int w = unified() ? COLS - 2 : cell_width();
		draw_text_cut_middle(y, x, w, buf, (size_t)(n < (int)sizeof buf ? n : (int)sizeof buf - 1),
		                     screen_attr(t, unified() ? (k ? SLOT_DIFF_ADD : SLOT_DIFF_DEL) : SLOT_HEADER));
	}
}

static void draw_body(const struct tui *t)
{
	const struct cmpview_state *v = &t->cmp;
	int y0 = head_rows(), h = body_rows(t), w = cell_width();
	for (int i = 0; i < h; i++) {
		size_t li = v->top + (size_t)i;
		if (li >= v->lines.n)
			break;
		const struct compare_line *l = &v->lines.l[li];
		int y = y0 + i;
		if (l->divergence)
			draw_text(y, 0, 2, "\xe2\x96\xb6", 3, screen_attr(t, SLOT_DIFF_HUNK));
		if (l->first || unified()) {
			draw_cell(t, y, 2, l->first ? COLS - 2 : w, &l->cell[0]);
			continue;
		}
		draw_cell(t, y, 2, w, &l->cell[0]);
		draw_text(y, 3 + w, 1, "\xe2\x94\x82", 3, screen_attr(t, SLOT_BORDER));
		draw_cell(t, y, 5 + w, w, &l->cell[1]);
	}
}

static void draw_foot(const struct tui *t)
{
	const struct compare *c = &t->cmp.c;
	int y = LINES - 1 - foot_rows(t), rows = foot_rows(t);
	size_t n = c->run[0].nverdicts > c->run[1].nverdicts ? c->run[0].nverdicts : c->run[1].nverdicts;
	int idw = 8;
	for (size_t i = 0; i < n; i++) {
		const char *id = i < c->run[0].nverdicts ? c->run[0].verdicts[i].id : c->run[1].verdicts[i].id;
		int iw = draw_width(id, strlen(id));
		idw = iw > idw ? iw : idw;
	}
	idw = idw < COLS / 3 ? idw : COLS / 3;
	attr_t hd = screen_attr(t, SLOT_HEADER);
	draw_fill(y, 0, COLS, hd);
	static const char head[] = "verdicts: base \xe2\x86\x92 candidate, and the labels";
	draw_text_cut(y, 0, COLS, head, sizeof head - 1, hd);
	int judged = t->cmp.judged[0] != '\0';
	for (size_t i = 0; i < n && (int)i < rows - 2 - judged; i++) {
		int yy = y + 1 + (int)i, x = 2;
		const struct compare_verdict *vv[2] = {
			i < c->run[0].nverdicts ? &c->run[0].verdicts[i] : NULL,
			i < c->run[1].nverdicts ? &c->run[1].verdicts[i] : NULL,
		};
		const char *id = vv[0] ? vv[0]->id : vv[1]->id;
		draw_text_cut(yy, x, idw, id, strlen(id), screen_attr(t, SLOT_NORMAL));
		int xb = x + idw + 2, xa = xb + 12, xc = xa + 3;
		for (int k = 0; k < 2; k++) {
			if (!vv[k])
				continue;
			int slot = vv[k]->tone > 0 ? SLOT_PASS : vv[k]->tone < 0 ? SLOT_FAIL : SLOT_DIM;
			draw_text_cut(yy, k ? xc : xb, 11, vv[k]->text, strlen(vv[k]->text), screen_attr(t, slot));
		}
		draw_text(yy, xa, 2, "\xe2\x86\x92", 3, screen_attr(t, SLOT_DIM));
		x = xc + 12;
		char lab[160];
		int ln = snprintf(lab, sizeof lab, "%s%s%s", vv[0] && vv[0]->label[0] ? vv[0]->label : "",
		                  (vv[0] && vv[0]->label[0]) || (vv[1] && vv[1]->label[0]) ? " \xe2\x86\x92 " : "",
		                  vv[1] && vv[1]->label[0] ? vv[1]->label : "");
		if (ln > 0 && x < COLS)
			draw_text_cut(yy, x, COLS - x, lab, strlen(lab), screen_attr(t, SLOT_DIM));
	}
	if (judged)
		draw_text_cut(y + rows - 2, 0, COLS, t->cmp.judged, strlen(t->cmp.judged),
		              screen_attr(t, SLOT_DIM));
	char prefs[384], line[512];
	compare_prefs_text(tui_rv(t), c, prefs, sizeof prefs);
	int ln = snprintf(line, sizeof line, "preference: %s   < base  > candidate  ~ tie  ! both bad  x takes back",
	                  prefs[0] ? prefs : "none yet");
	draw_text_cut(y + rows - 1, 0, COLS, line, (size_t)(ln < (int)sizeof line ? ln : (int)sizeof line - 1),
	              screen_attr(t, prefs[0] ? SLOT_MARK_REVIEWED : SLOT_NORMAL));
}

void cmpview_draw(const struct tui *t)
{
	draw_title(t);
	draw_body(t);
	draw_foot(t);
}
