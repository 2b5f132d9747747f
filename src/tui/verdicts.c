/* verdicts.c - the verdicts pane: one row per scorer or judge, the selected one opening its details.
 *
 * The rows come from review_row; the details add the human decision and
 * the note. */
#include <stdlib.h>
#include <string.h>

#include "judge/judge.h"
#include "judge/trust.h"
#include "review/labels.h"
#include "util/jsonw.h"
#include "review/failmodes.h"
#include "tui_int.h"
#include "util/wtext.h"
#include "verdict_details.h"

/* What a judge is, without its answer, and where its requests (with its
 * key) go: a configuration may come from someone else. */
static void judge_line(const struct judge_conf *jc, struct strbuf *out)
{
	char host[300];
	judge_request_host(jc, host, sizeof host);
	strbuf_addf(out, "%s: judge, rubric %s, model %s, passes at %g\n", jc->id, jc->rubric->name,
	            jc->model, jc->threshold);
	strbuf_addf(out, "requests go to %s\n", host);
}

/* A judge's answer for a person, as its rubric explains it (judge_explain):
 * the screen reads none of a rubric's members. */
static void judge_details(const struct review_row *row, struct strbuf *out)
{
	const struct judge_cell *c = row->cell;
	if (c && c->state == JUDGE_UNREACHED) {
		/* what the reviewer must do comes first, before what the judge is */
		strbuf_addf(out, "could not be reached: %s\n", c->v.message);
		judge_line(row->judge, out);
		return;
	}
	judge_line(row->judge, out);
	if (!c || c->state == JUDGE_NONE) {
		strbuf_addstr(out, "not asked yet: J asks the judges about this run\n");
		return;
	}
	if (c->state == JUDGE_PENDING) {
		char sp[64];
		spinner_judging(c, sp, sizeof sp);
		strbuf_addf(out, "%s (Esc cancels)\n", sp);
		return;
	}
	judge_explain(row->judge, &c->v, out);
}

/* The other reviewers' labels on the row ("other labels: bob 0 (fail),
 * carol 1 (pass, stale)"), so a reviewer sees where the others stand. */
static void other_labels(const struct review *rv, size_t entry, size_t row, struct strbuf *out)
{
	struct label l[LABELS_MAX];
	size_t n = review_labels(rv, entry, row, NULL, 0, l, LABELS_MAX), shown = 0;
	for (size_t i = 0; i < n; i++) {
		if (strcmp(l[i].reviewer, rv->reviewer) == 0)
			continue;
		struct strbuf num = STRBUF_INIT;
		jsonw_number(&num, l[i].score);
		strbuf_addf(out, "%s%s %s (%s%s)", shown++ ? ", " : "other labels: ", l[i].reviewer,
		            num.buf, l[i].passed ? "pass" : "fail", l[i].stale ? ", stale" : "");
		strbuf_release(&num);
	}
	if (shown)
		strbuf_addch(out, '\n');
}

/* This reviewer's decision on the row. */
static void own_decision(const struct decision *d, bool hidden, struct strbuf *out)
{
	if (hidden) {
		strbuf_addstr(out, "human: no decision yet; the verdict is hidden (blind) until you "
		              "label it (digits, or o for a score)\n");
		return;
	}
	if (d) {
		if (d->kind == DEC_ACCEPT)
			strbuf_addf(out, "human: accepted by %s at %s\n", d->reviewer, d->at);
		else {
			struct strbuf num = STRBUF_INIT;
			jsonw_number(&num, d->score);
			strbuf_addf(out, "human: overridden to %s by %s at %s%s%s\n", num.buf, d->reviewer,
			            d->at, d->reason ? ": " : "", d->reason ? d->reason : "");
			strbuf_release(&num);
		}
	} else {
		strbuf_addstr(out, "human: no decision yet (a accept, o override, digits label)\n");
	}
}

/* What a scorer is, without its verdict (blind mode before a decision). */
static void scorer_line(const struct scorer_conf *sc, struct strbuf *out)
{
	struct scale span = scorer_span(sc);
	char scale[96];
	scale_describe_pass(&span, sc->threshold, scale, sizeof scale);
	strbuf_addf(out, "%s: %s, scale %s\n", sc->id, sc->ops->type, scale);
}

/* The selected verdict's details as lines (explain, decision, note). */
void verdicts_details(const struct tui *t, struct strbuf *out)
{
	const struct review_run *rr = review_current(tui_rv(t));
	size_t nrows = review_nrows(tui_rv(t));
	if (!rr || nrows == 0)
		return;
	size_t s = t->vd.sel < nrows ? t->vd.sel : 0;
	struct review_row row;
	review_row_get(tui_rv(t), rr, s, &row);
	bool hidden = review_row_hidden(tui_rv(t), rr->entry, s);
	own_decision(review_decision(tui_rv(t), rr->entry, s), hidden, out);
	if (!hidden)
		other_labels(tui_rv(t), rr->entry, s, out);
	if (hidden && row.kind == ROW_SCORER) {
		scorer_line(row.scorer, out);
	} else if (hidden) {
		judge_line(row.judge, out);
	} else if (row.kind == ROW_SCORER) {
		const struct scorer_conf *sc = row.scorer;
		const struct verdict *v = row.v;
		scorer_line(sc, out);
		if (v->status == VERDICT_OK && sc->ops->explain && v->details)
			sc->ops->explain(v->details, out);
		else if (v->message)
			strbuf_addf(out, "%s: %s\n", verdict_status_name(v->status), v->message);
	} else {
		judge_details(&row, out);
	}
	const struct decision *note = review_note_of(tui_rv(t), rr->entry);
	if (note)
		strbuf_addf(out, "note by %s: %s\n", note->reviewer, note->reason ? note->reason : "");
	/* The list cuts long ids in the middle: the whole id, the format it
	 * was read as and where it came from are here. */
	if (rr->run)
		strbuf_addf(out, "run %s (%s, %s)\n", rr->run->id, rr->run->format, rr->run->source);
	if (rr->run && rr->run->parent_id)
		strbuf_addf(out, "subagent of %s\n", rr->run->parent_id);
}

/* A judge's reason, first line, shown under its row so code and judge
 * verdicts compare without opening the details; NULL when there is none
 * (or in blind mode before a decision). */
static const char *reason_line(const struct tui *t, const struct review_run *rr, size_t s,
                               size_t *len)
{
	struct review_row row;
	if (!rr || !review_row_get(tui_rv(t), rr, s, &row) || row.kind != ROW_JUDGE ||
	    row.state != ROW_READY || row.v->status != VERDICT_OK ||
	    review_row_hidden(tui_rv(t), rr->entry, s))
		return NULL;
	const char *r = judge_reason(row.judge, row.v);
	while (r && (*r == ' ' || *r == '\n' || *r == '\t'))
		r++;
	if (!r || !*r)
		return NULL;
	*len = strcspn(r, "\r\n");
	return r;
}

/* The screen lines of verdict row s: itself, and its reason when it has one. */
static int row_lines(const struct tui *t, const struct review_run *rr, size_t s)
{
	size_t len;
	return reason_line(t, rr, s, &len) ? 2 : 1;
}

static int all_row_lines(const struct tui *t, const struct review_run *rr, size_t from)
{
	int n = 0;
	for (size_t s = from; s < review_nrows(tui_rv(t)); s++)
		n += row_lines(t, rr, s);
	return n;
}

int verdicts_rows_wanted(struct tui *t)
{
	const struct review_run *rr = review_current(tui_rv(t));
	int rows = (rr ? all_row_lines(t, rr, 0) : (int)review_nrows(tui_rv(t))) + 1; /* the header row */
	if (t->vd.open) {
		struct vd_lines l;
		vd_lines_build(t, &l);
		rows += (int)l.n;
		vd_lines_free(&l);
	}
	return rows;
}

size_t verdicts_selected(struct tui *t)
{
	size_t n = review_nrows(tui_rv(t));
	if (n == 0)
		return SIZE_MAX;
	if (t->vd.sel >= n)
		t->vd.sel = n - 1;
	return t->vd.sel;
}

/* What a row shows: its score, its result and the human decision. */
struct verdict_cells {
	char score[32], result[32], human[64], hnum[32];
	int slot;                   /* the result's colour */
	bool hidden;                /* blind, and not decided yet */
	const struct decision *d;
};

static void verdict_result(const struct review_row *row, bool hidden, struct verdict_cells *c)
{
	const struct verdict *v = row->v;
	c->slot = SLOT_NORMAL;
	if (hidden && (row->state == ROW_READY || row->state == ROW_PENDING)) {
		/* blind: neither the score nor whether the judge is still at it */
		snprintf(c->result, sizeof c->result, "\xc2\xb7");           /* · */
		c->slot = SLOT_DIM;
	} else if (row->state == ROW_PENDING) {
		spinner_judging(row->cell, c->result, sizeof c->result);
		c->slot = SLOT_SKIPPED;
	} else if (row->state == ROW_NOT_ASKED) {
		snprintf(c->result, sizeof c->result, "J asks");
		c->slot = SLOT_DIM;
	} else if (row->cell && row->cell->state == JUDGE_UNREACHED) {
		snprintf(c->result, sizeof c->result, "unreached");
		c->slot = SLOT_ERROR;
	} else if (v && v->status == VERDICT_OK) {
		snprintf(c->score, sizeof c->score, "%.4g", v->score);
		snprintf(c->result, sizeof c->result, "%s", v->passed ? "pass" : "fail");
		c->slot = v->passed ? SLOT_PASS : SLOT_FAIL;
	} else if (v) {
		snprintf(c->result, sizeof c->result, "%s", verdict_status_name(v->status));
		c->slot = v->status == VERDICT_SKIPPED ? SLOT_SKIPPED : SLOT_ERROR;
	}
}

/* A row that answers for a failure mode (`criterion:`) says whether the
 * failure is there, in the colours of a problem and of its absence: a
 * judge's "pass" that means "the run shows wrong-payment" is not green. */
static void criterion_result(const struct tui *t, const struct review_row *row, size_t s,
                             struct verdict_cells *c)
{
	bool present_pass;
	const struct verdict *v = row->v;
	if (c->hidden || !v || v->status != VERDICT_OK ||
	    !review_row_criterion(tui_rv(t), s, &present_pass))
		return;
	bool present = v->passed == present_pass;
	snprintf(c->result, sizeof c->result, "%s", present ? "present" : "absent");
	c->slot = present ? SLOT_FAIL : SLOT_PASS;
}

static void verdict_human(const struct decision *d, struct verdict_cells *c)
{
	c->d = d;
	if (d && d->kind == DEC_ACCEPT)
		snprintf(c->human, sizeof c->human, "accepted");
	else if (d) {
		struct strbuf num = STRBUF_INIT;
		jsonw_number(&num, d->score);
		snprintf(c->hnum, sizeof c->hnum, "%s", num.buf);
		snprintf(c->human, sizeof c->human, "overridden to %s", c->hnum);
		strbuf_release(&num);
	}
}

/* A verdict row's label, as the list's cell columns are headed: 1-9, then
 * letters, so that no two rows share one (a digit past nine came round to
 * 0 and 1 again). The digit keys label the selected verdict rather than
 * pick a row, so these are names, not keys. buf: 2 bytes or more. */
void verdict_row_label(size_t s, char *buf)
{
	static const char names[] = "123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
	buf[0] = s < sizeof names - 1 ? names[s] : '+';
	buf[1] = 0;
}

/* The column widths, following what the rows hold: the scorer ids as
 * wide as the widest, the type column where there is room for it, each
 * cut with "…" where the pane is narrower. */
static void verdict_widths(const struct tui *t, const struct rect *r, int *idw, int *tyw)
{
	const struct review *rv = tui_rv(t);
	int need_id = 6, need_ty = 4;           /* "scorer", "type" */
	for (size_t s = 0; s < review_nrows(rv); s++) {
		struct review_row row;
		review_row_get(rv, NULL, s, &row);
		int w = row.id ? draw_width(row.id, strlen(row.id)) : 0;
		need_id = w > need_id ? w : need_id;
		w = row.type ? draw_width(row.type, strlen(row.type)) : 0;
		need_ty = w > need_ty ? w : need_ty;
	}
	/* label, score, result, and room for "accepted" */
	int room = r->w - 3 - 1 - 6 - 2 - 8 - 8;
	*idw = need_id < room ? need_id : room;
	if (*idw < 6)
		*idw = 6;
	/* the type only where "overridden to 0.5" still fits after it: the
	 * reviewer's own decision matters more than the scorer's type */
	int left = room - *idw - 1 - 9;
	*tyw = 0;
	if (left >= need_ty || left >= 12)
		*tyw = need_ty < left ? need_ty : left;
}

static void verdicts_header(const struct tui *t, int y)
{
	const struct rect *r = &t->lay.pane[PANE_VERDICTS];
	attr_t head = screen_attr(t, SLOT_HEADER);
	draw_fill(y, r->x, r->w, head);
	char hb[256];
	int idw, tyw;
	verdict_widths(t, r, &idw, &tyw);
	if (tyw)
		snprintf(hb, sizeof hb, "   %-*s %-*s %6s  %-7s %s", idw, "scorer", tyw, "type", "score", "result", "human");
	else
		snprintf(hb, sizeof hb, "   %-*s %6s  %-7s %s", idw, "scorer", "score", "result", "human");
	draw_text(y, r->x, r->w, hb, strlen(hb), head);
}

/* The human column: the decision, or why a judge failed (J asks again).
 * Where "overridden to N" does not fit, the list's mark says it: the
 * score the reviewer gave must stay readable. */
static void verdict_human_cell(const struct tui *t, const struct review_row *row,
                               struct verdict_cells *c, int y, int x, bool sel, attr_t base)
{
	const struct rect *r = &t->lay.pane[PANE_VERDICTS];
	if (c->hidden) {
		const char *h = r->x + r->w - x >= 14 ? "hidden (blind)" : "hidden";
		draw_text(y, x, r->x + r->w - x, h, strlen(h), sel ? base : screen_attr(t, SLOT_DIM));
		return;
	}
	if (c->hnum[0] && draw_width(c->human, strlen(c->human)) > r->x + r->w - x)
		snprintf(c->human, sizeof c->human, "\xe2\x9c\x8e %s", c->hnum);         /* ✎ */
	if (!c->d && row->state == ROW_READY && row->kind == ROW_JUDGE &&
	    row->v->status == VERDICT_ERROR && row->v->message) {
		const char *m = verdict_cause(row->v);
		draw_text_cut(y, x, r->x + r->w - x, m, strlen(m), draw_cell_attr(t, sel, base, SLOT_ERROR));
		return;
	}
	int slot = c->d && c->d->kind == DEC_OVERRIDE ? SLOT_MARK_OVERRIDDEN : SLOT_MARK_REVIEWED;
	draw_text(y, x, r->x + r->w - x, c->human, strlen(c->human), draw_cell_attr(t, sel, base, slot));
}

static void verdict_row(const struct tui *t, const struct review_run *rr, size_t s, int y)
{
	const struct rect *r = &t->lay.pane[PANE_VERDICTS];
	struct review_row row;
	review_row_get(tui_rv(t), rr, s, &row);
	struct verdict_cells c = { .score = "" };
	c.hidden = review_row_hidden(tui_rv(t), rr->entry, s);
	verdict_result(&row, c.hidden, &c);
	criterion_result(t, &row, s, &c);
	verdict_human(review_decision(tui_rv(t), rr->entry, s), &c);
	bool sel = s == t->vd.sel;
	attr_t base = sel ? screen_attr(t, t->focus == PANE_VERDICTS ? SLOT_SELECTION : SLOT_SELECTION_DIM)
	                  : screen_attr(t, SLOT_NORMAL);
	draw_fill(y, r->x, r->w, base);
	int idw, tyw;
	verdict_widths(t, r, &idw, &tyw);
	char lab[4], line[64];
	verdict_row_label(s, lab);
	snprintf(line, sizeof line, "%c%s ", sel ? '>' : ' ', lab);
	int x = r->x + draw_text(y, r->x, r->w, line, strlen(line), base);
	draw_text_cut(y, x, idw, row.id ? row.id : "", row.id ? strlen(row.id) : 0, base);
	x += idw + 1;
	if (tyw) {
		draw_text_cut(y, x, tyw, row.type ? row.type : "", row.type ? strlen(row.type) : 0, base);
		x += tyw + 1;
	}
	snprintf(line, sizeof line, "%6s  ", c.score);
	x += draw_text(y, x, r->x + r->w - x, line, strlen(line), base);
	x += draw_text(y, x, r->x + r->w - x, c.result, strlen(c.result), draw_cell_attr(t, sel, base, c.slot));
	int pad = 8 - draw_width(c.result, strlen(c.result));
	x += draw_text(y, x, r->x + r->w - x, "        ", (size_t)(pad > 0 ? pad : 1), base);
	verdict_human_cell(t, &row, &c, y, x, sel, base);
}

/* The judge's reason under its row, dim and cut to the pane. */
static void reason_draw(const struct tui *t, const char *text, size_t len, int y)
{
	const struct rect *r = &t->lay.pane[PANE_VERDICTS];
	int x = r->x + 3;
	x += draw_text(y, x, 2, "\xe2\x86\xb3 ", 4, screen_attr(t, SLOT_DIM));       /* ↳ */
	draw_text_cut(y, x, r->x + r->w - x, text, len, screen_attr(t, SLOT_DIM));
}

/* Rows the open details may take below the selected row: the verdicts
 * below it keep their rows. */
static long details_room(const struct tui *t, const struct review_run *rr, int y_sel)
{
	const struct rect *r = &t->lay.pane[PANE_VERDICTS];
	long below = all_row_lines(t, rr, t->vd.sel + 1);
	long room = (long)(r->y + r->h - y_sel - 1) - below;
	return room < 0 ? 0 : room;
}

/* Draws the open details below the selected row (y); returns the last row
 * used. Details that do not fit are cut, and their last row says how much
 * is missing (PgDn/PgUp scroll them). */
static size_t details_fit(const struct tui *t, const struct review_run *rr, size_t nlines, int y,
                          size_t *left, long *room)
{
	*room = details_room(t, rr, y);
	size_t top = t->vd.detail_top;
	*left = top < nlines ? nlines - top : 0;
	size_t shown = *left;
	if ((long)shown > *room)
		shown = *room > 0 ? (size_t)*room - 1 : 0;
	return shown;
}

/* The lines the open details take below pane row `rel` (0 is below the
 * title), as details_draw would draw them. */
static int details_lines_shown(const struct tui *t, const struct review_run *rr, int rel)
{
	struct vd_lines l;
	vd_lines_build(t, &l);
	size_t left;
	long room;
	size_t shown = details_fit(t, rr, l.n, t->lay.pane[PANE_VERDICTS].y + 1 + rel, &left, &room);
	vd_lines_free(&l);
	return (int)shown + (shown < left && room > 0);
}

/* A details line in its slots; the selected item's lines in the selection,
 * its first marked '>' as the rows are. */
static void detail_line_draw(const struct tui *t, const struct vd_line *l, bool first, int y)
{
	const struct rect *r = &t->lay.pane[PANE_VERDICTS];
	bool sel = t->focus == PANE_VERDICTS && t->vd.item && l->item == t->vd.item - 1;
	attr_t a = screen_attr(t, sel ? SLOT_SELECTION : l->slot);
	if (sel) {
		draw_fill(y, r->x + 3, r->w - 3, a);
		if (first)
			draw_text(y, r->x + 3, 1, ">", 1, a);
	}
	size_t split = l->split < l->len ? l->split : l->len;
	int x = r->x + 4, w = r->w - 4;
	int used = draw_wide(y, x, w, l->text, split, a);
	if (split < l->len)
		draw_wide(y, x + used, w - used, l->text + split, l->len - split,
		          sel ? a : screen_attr(t, l->slot2));
}

static int details_draw(const struct tui *t, const struct review_run *rr, const struct vd_lines *d,
                        int y)
{
	const struct rect *r = &t->lay.pane[PANE_VERDICTS];
	size_t top = t->vd.detail_top, left;
	long room;
	size_t shown = details_fit(t, rr, d->n, y, &left, &room);
	for (size_t k = top; k < top + shown; k++)
		detail_line_draw(t, &d->v[k], k == 0 || d->v[k - 1].item != d->v[k].item, ++y);
	if (shown < left && room > 0) {
		char more[80];
		int m = snprintf(more, sizeof more, "\xe2\x80\xa6 %zu more lines (PgDn)", left - shown);
		draw_text(++y, r->x + 4, r->w - 4, more, (size_t)m, screen_attr(t, SLOT_DIM));
	}
	return y;
}

static void verdicts_draw(const struct tui *t)
{
	const struct rect *r = &t->lay.pane[PANE_VERDICTS];
	draw_pane_title(t, PANE_VERDICTS, verdicts_pane.title, t->vd.open ? "Enter folds" : "Enter opens");
	int y = r->y + 1, bottom = r->y + r->h;
	size_t n = review_nrows(tui_rv(t));                /* scorers, then judges */
	if (n == 0) {
		draw_text(y, r->x + 1, r->w - 1, "no scorers configured (-c FILE)", 31, screen_attr(t, SLOT_DIM));
		return;
	}
	const struct review_run *rr = review_current(tui_rv(t));
	if (!rr) {
		draw_text(y, r->x + 1, r->w - 1, "(no run in view)", 16, screen_attr(t, SLOT_DIM));
		return;
	}
	verdicts_header(t, y++);
	struct vd_lines details = { 0 };
	if (t->vd.open)
		vd_lines_build(t, &details);
	for (size_t s = 0; s < n && y < bottom; s++, y++) {
		verdict_row(t, rr, s, y);
		size_t len;
		const char *why = reason_line(t, rr, s, &len);
		if (why && y + 1 < bottom)
			reason_draw(t, why, len, ++y);
		if (s == t->vd.sel && t->vd.open)
			y = details_draw(t, rr, &details, y);
	}
	if (t->vd.open)
		vd_lines_free(&details);
}

/* The rows the open details have below the selected row, as drawn. */
static long details_room_now(const struct tui *t, const struct review_run *rr)
{
	int y = t->lay.pane[PANE_VERDICTS].y + 1;
	for (size_t s = 0; s <= t->vd.sel && s < review_nrows(tui_rv(t)); s++)
		y += row_lines(t, rr, s);
	return details_room(t, rr, y);
}

/* The first details line that still fills the room: scrolling stops there. */
static size_t details_max_top(size_t n, long room)
{
	return room > 0 && n > (size_t)room ? n - (size_t)room : 0;
}

/* Clamps the selection to the rows there are, the selected item to the
 * details' items, and their scroll to what fills the room, the selected
 * item in view. */
static void verdicts_fit(struct tui *t)
{
	const struct review_run *rr = review_current(tui_rv(t));
	if (verdicts_selected(t) == SIZE_MAX || !t->vd.open || !rr)
		return;
	struct vd_lines l;
	vd_lines_build(t, &l);
	long room = details_room_now(t, rr);
	if (t->vd.item > l.nitems)
		t->vd.item = 0;
	size_t at = t->vd.item ? vd_lines_item_line(&l, t->vd.item - 1) : SIZE_MAX;
	if (at != SIZE_MAX && room > 1) {
		if (at < t->vd.detail_top)
			t->vd.detail_top = at;
		else if (at >= t->vd.detail_top + (size_t)room - 1)
			t->vd.detail_top = at - (size_t)room + 2;
	}
	size_t max = details_max_top(l.n, room);
	if (t->vd.detail_top > max)
		t->vd.detail_top = max;
	vd_lines_free(&l);
}

static unsigned verdicts_move(struct tui *t, long delta)
{
	size_t n = review_nrows(tui_rv(t));
	if (n == 0)
		return 0;
	if (t->vd.open) {
		/* open details with items: the keys step through them first */
		struct vd_lines l;
		vd_lines_build(t, &l);
		size_t items = l.nitems;
		vd_lines_free(&l);
		if (delta > 0 && t->vd.item < items) {
			t->vd.item++;
			return REDRAW_VERDICTS;
		}
		if (delta < 0 && t->vd.item > 0 && t->vd.item <= items) {
			t->vd.item--;
			return REDRAW_VERDICTS;
		}
	}
	long sel = (long)t->vd.sel + delta;
	if (sel < 0)
		sel = 0;
	if (sel >= (long)n)
		sel = (long)n - 1;
	t->vd.sel = (size_t)sel;
	t->vd.detail_top = 0;
	t->vd.item = 0;
	return REDRAW_VERDICTS | RELAYOUT;
}

/* Open details scroll by a page, and stop where their last line is the
 * pane's last: no scrolling into emptiness. */
static unsigned verdicts_page(struct tui *t, long dir)
{
	const struct review_run *rr = review_current(tui_rv(t));
	if (t->vd.open && rr) {
		long room = details_room_now(t, rr);
		long page = room > 2 ? room - 1 : 1;
		struct vd_lines l;
		vd_lines_build(t, &l);
		long max = (long)details_max_top(l.n, room);
		vd_lines_free(&l);
		long top = (long)t->vd.detail_top + dir * page;
		t->vd.detail_top = top < 0 ? 0 : top > max ? (size_t)max : (size_t)top;
		t->vd.item = 0;
		return REDRAW_VERDICTS;
	}
	long page = pane_rows(t, PANE_VERDICTS) - 1;
	return verdicts_move(t, dir * (page < 1 ? 1 : page));
}

static unsigned verdicts_end(struct tui *t, bool last)
{
	size_t n = review_nrows(tui_rv(t));
	t->vd.sel = last && n ? n - 1 : 0;
	return REDRAW_VERDICTS | RELAYOUT;
}

/* Enter on an item of the open details follows it (verdict_details.c);
 * elsewhere it opens or folds the details. */
static unsigned verdicts_toggle(struct tui *t)
{
	unsigned r = vd_item_enter(t);
	if (r)
		return r;
	t->vd.open = !t->vd.open;
	t->vd.item = 0;
	return REDRAW_VERDICTS | RELAYOUT | REDRAW_TIMELINE;
}

/* A click selects a row; a click on the selected row opens or folds it. */
static unsigned verdicts_click(struct tui *t, int row)
{
	if (row < 1)                   /* the column header */
		return 0;
	/* Rows above the selected one may carry a reason line, and the
	 * selected one its open details: walk the lines as they are drawn. */
	const struct review_run *rr = review_current(tui_rv(t));
	int line = 1;
	size_t i = 0, n = review_nrows(tui_rv(t));
	for (; i < n; i++) {
		int h = rr ? row_lines(t, rr, i) : 1;
		if (i == t->vd.sel && t->vd.open && rr)
			h += details_lines_shown(t, rr, line + h - 1);
		if (row < line + h)
			break;
		line += h;
	}
	if (i >= n)
		return 0;
	if (t->vd.sel == i)
		t->vd.open = !t->vd.open;
	t->vd.sel = i;
	return REDRAW_VERDICTS | RELAYOUT;
}

const struct pane_ops verdicts_pane = {
	.title  = "verdicts",
	.fit    = verdicts_fit,
	.draw   = verdicts_draw,
	.step   = verdicts_move,
	.page   = verdicts_page,
	.end    = verdicts_end,
	.toggle = verdicts_toggle,
	.click  = verdicts_click,
	.wheel  = verdicts_move,
};
