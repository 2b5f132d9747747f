/* verdicts.c - one row per scorer; the selected one opens its details and
 * the human decision on it. */
#include <stdlib.h>
#include <string.h>

#include "judge/judge.h"
#include "util/jsonw.h"
#include "tui_int.h"
#include "util/wtext.h"

/* A judge's answer for a person: its reason, each call's evaluation, what
 * it found missing, and on failure the cause and the raw reply. */
static void judge_details(struct tui *t, struct review_run *rr, size_t j, struct strbuf *out)
{
	const struct judge_conf *jc = &t->cfg->judges[j];
	const struct judge_cell *c = review_judge_cell(t->rv, rr->entry, j);
	strbuf_addf(out, "%s: judge, rubric %s, model %s, passes at %g\n", jc->id, jc->rubric->name,
	            jc->model, jc->threshold);
	if (!c || c->state == JUDGE_NONE) {
		strbuf_addstr(out, "not asked yet: J asks the judges about this run\n");
		return;
	}
	if (c->state == JUDGE_PENDING) {
		char sp[64];
		tui_judges_spinner(c, sp, sizeof sp);
		strbuf_addf(out, "%s (Esc cancels)\n", sp);
		return;
	}
	const json_t *d = c->v.details;
	if (c->v.message)
		strbuf_addf(out, "%s: %s\n", verdict_status_name(c->v.status), c->v.message);
	const char *reason = json_string_value(json_object_get(d, "reason"));
	if (reason)
		strbuf_addf(out, "reason: %s\n", reason);
	json_t *an = json_object_get(d, "analyzeStepResult");
	json_t *evals = json_object_get(an ? an : (json_t *)d, "evaluations");
	size_t i;
	json_t *ev;
	json_array_foreach(evals, i, ev) {
		json_t *ok = json_object_get(ev, "wasAppropriate");
		const char *tool = json_string_value(json_object_get(ev, "toolCalled"));
		const char *why = json_string_value(json_object_get(ev, "reasoning"));
		strbuf_addf(out, "%s %s: %s\n", json_is_true(ok) ? "\xe2\x9c\x93" : "\xe2\x9c\x97",
		            tool ? tool : "?", why ? why : "");
	}
	json_t *missing = json_object_get(an ? an : (json_t *)d, "missingTools");
	if (json_is_array(missing) && json_array_size(missing)) {
		strbuf_addstr(out, "missing tools: ");
		json_array_foreach(missing, i, ev) {
			if (i)
				strbuf_addstr(out, ", ");
			strbuf_addstr(out, json_is_string(ev) ? json_string_value(ev) : "?");
		}
		strbuf_addch(out, '\n');
	}
	const char *raw = json_string_value(json_object_get(d, "raw_reply"));
	if (raw)
		strbuf_addf(out, "raw reply: %s\n", raw);
}

/* The selected verdict's details as lines (explain, decision, note). */
static void detail_lines(struct tui *t, struct strbuf *out)
{
	struct review_run *rr = review_current(t->rv);
	size_t nrows = review_nrows(t->rv);
	if (!rr || nrows == 0)
		return;
	size_t s = t->v_sel < nrows ? t->v_sel : 0;
	const struct decision *d = review_decision(t->rv, rr->entry, s);
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
	if (s < t->cfg->nscorers) {
		const struct scorer_conf *sc = &t->cfg->scorers[s];
		const struct verdict *v = &rr->verdicts[s];
		strbuf_addf(out, "%s: %s, scale %s, passes at %g\n", sc->id, sc->ops->type,
		            scale_name(sc->ops->scale), sc->threshold);
		if (v->status == VERDICT_OK && sc->ops->explain && v->details)
			sc->ops->explain(v->details, out);
		else if (v->message)
			strbuf_addf(out, "%s: %s\n", verdict_status_name(v->status), v->message);
	} else {
		judge_details(t, rr, s - t->cfg->nscorers, out);
	}
	const struct decision *note = review_note_of(t->rv, rr->entry);
	if (note)
		strbuf_addf(out, "note by %s: %s\n", note->reviewer, note->reason ? note->reason : "");
}

/* The details wrap to the pane; a person reads them whole. */
static void detail_wrap(struct tui *t, struct wtext_wrapped *wr)
{
	struct strbuf sb = STRBUF_INIT;
	detail_lines(t, &sb);
	while (sb.len && sb.buf[sb.len - 1] == '\n')
		sb.buf[--sb.len] = '\0';
	int w = t->lay.pane[PANE_VERDICTS].w - 4;
	wtext_wrap(wr, sb.buf ? sb.buf : "", sb.len, (size_t)(w > 8 ? w : 8), WTEXT_TABS);
	if (!sb.len)
		wr->nlines = 0;
	strbuf_release(&sb);
}

int verdicts_rows_wanted(struct tui *t)
{
	int rows = (int)review_nrows(t->rv) + 1;      /* the header row */
	if (t->v_open) {
		struct wtext_wrapped wr;
		detail_wrap(t, &wr);
		rows += (int)wr.nlines;
		wtext_wrapped_free(&wr);
	}
	return rows;
}

void verdicts_draw(struct tui *t)
{
	const struct rect *r = &t->lay.pane[PANE_VERDICTS];
	tui_pane_title(t, PANE_VERDICTS, "verdicts", t->v_open ? "Enter folds" : "Enter opens");
	int y = r->y + 1, bottom = r->y + r->h;
	size_t n = review_nrows(t->rv);                /* scorers, then judges */
	size_t nsc = t->cfg->nscorers;
	if (n == 0) {
		draw_text(y, r->x + 1, r->w - 1, "no scorers configured (-c FILE)", 31, screen_attr(t, SLOT_DIM));
		return;
	}
	struct review_run *rr = review_current(t->rv);
	if (!rr) {
		draw_text(y, r->x + 1, r->w - 1, "(no run in view)", 16, screen_attr(t, SLOT_DIM));
		return;
	}
	attr_t head = screen_attr(t, SLOT_HEADER);
	draw_fill(y, r->x, r->w, head);
	char hb[256];
	/* The type column only where there is room for it whole. */
	int idw = r->w >= 70 ? 18 : 14, tyw = r->w >= 70 ? 18 : 0;
	if (tyw)
		snprintf(hb, sizeof hb, "   %-*s %-*s %6s  %-7s %s", idw, "scorer", tyw, "type", "score", "result", "human");
	else
		snprintf(hb, sizeof hb, "   %-*s %6s  %-7s %s", idw, "scorer", "score", "result", "human");
	draw_text(y, r->x, r->w, hb, strlen(hb), head);
	y++;
	if (t->v_sel >= n)
		t->v_sel = n - 1;
	struct wtext_wrapped details = { 0 };
	if (t->v_open)
		detail_wrap(t, &details);
	for (size_t s = 0; s < n && y < bottom; s++, y++) {
		const char *row_id = review_row_id(t->rv, s);
		const char *row_type = s < nsc ? t->cfg->scorers[s].ops->type : t->cfg->judges[s - nsc].rubric->name;
		const struct verdict *v = s < nsc ? &rr->verdicts[s] : NULL;
		const struct judge_cell *jcell = s < nsc ? NULL : review_judge_cell(t->rv, rr->entry, s - nsc);
		if (jcell && jcell->state == JUDGE_DONE)
			v = &jcell->v;
		char score[32] = "", result[32] = "", human[64] = "";
		int slot = SLOT_NORMAL;
		if (jcell && jcell->state == JUDGE_PENDING) {
			tui_judges_spinner(jcell, result, sizeof result);
			slot = SLOT_SKIPPED;
		} else if (jcell && jcell->state == JUDGE_NONE) {
			snprintf(result, sizeof result, "J asks");
			slot = SLOT_DIM;
		} else if (v && v->status == VERDICT_OK) {
			snprintf(score, sizeof score, "%.4g", v->score);
			snprintf(result, sizeof result, "%s", v->passed ? "pass" : "fail");
			slot = v->passed ? SLOT_PASS : SLOT_FAIL;
		} else if (v) {
			snprintf(result, sizeof result, "%s", verdict_status_name(v->status));
			slot = v->status == VERDICT_SKIPPED ? SLOT_SKIPPED : SLOT_ERROR;
		}
		const struct decision *d = rr ? review_decision(t->rv, rr->entry, s) : NULL;
		char hnum[32] = "";
		if (d && d->kind == DEC_ACCEPT)
			snprintf(human, sizeof human, "accepted");
		else if (d) {
			struct strbuf num = STRBUF_INIT;
			jsonw_number(&num, d->score);
			snprintf(hnum, sizeof hnum, "%s", num.buf);
			snprintf(human, sizeof human, "overridden to %s", hnum);
			strbuf_release(&num);
		}
		bool sel = s == t->v_sel;
		attr_t base = sel ? screen_attr(t, t->focus == PANE_VERDICTS ? SLOT_SELECTION : SLOT_SELECTION_DIM)
		                  : screen_attr(t, SLOT_NORMAL);
		draw_fill(y, r->x, r->w, base);
		char row[512];
		if (tyw)
			snprintf(row, sizeof row, "%c%zu %-*.*s %-*.*s %6s  ", sel ? '>' : ' ', (s + 1) % 10, idw, idw,
			         row_id, tyw, tyw, row_type, score);
		else
			snprintf(row, sizeof row, "%c%zu %-*.*s %6s  ", sel ? '>' : ' ', (s + 1) % 10, idw, idw,
			         row_id, score);
		int x = r->x + draw_text(y, r->x, r->w, row, strlen(row), base);
		x += draw_text(y, x, r->x + r->w - x, result, strlen(result), sel ? base : screen_attr(t, slot));
		x += draw_text(y, x, r->x + r->w - x, "        ", (size_t)(8 - (int)strlen(result) > 0 ? 8 - (int)strlen(result) : 1), base);
		/* Where "overridden to N" does not fit, the list's mark says it:
		 * the score the reviewer gave must stay readable. */
		if (hnum[0] && draw_width(human, strlen(human)) > r->x + r->w - x)
			snprintf(human, sizeof human, "\xe2\x9c\x8e %s", hnum);         /* ✎ */
		/* A judge that failed says why in its row; J asks again. */
		if (!d && jcell && jcell->state == JUDGE_DONE && jcell->v.status == VERDICT_ERROR &&
		    jcell->v.message) {
			const char *m = jcell->v.message;
			if (!strncmp(m, "judge: ", 7))
				m += 7;
			draw_text_cut(y, x, r->x + r->w - x, m, strlen(m), sel ? base : screen_attr(t, SLOT_ERROR));
		} else {
			draw_text(y, x, r->x + r->w - x, human, strlen(human),
			          sel ? base : screen_attr(t, d && d->kind == DEC_OVERRIDE ? SLOT_MARK_OVERRIDDEN : SLOT_MARK_REVIEWED));
		}
		if (sel && t->v_open) {
			/* The verdicts below keep their rows: details that do not
			 * fit are cut, and their last row says how much is missing. */
			long room = (long)(bottom - y - 1) - (long)(n - s - 1);
			if (room < 0)
				room = 0;
			/* PgDn/PgUp in the verdicts scroll details that do not fit. */
			size_t top = t->v_detail_top;
			if (top >= details.nlines)
				top = details.nlines ? details.nlines - 1 : 0;
			size_t left = details.nlines - top;
			size_t shown = left;
			if ((long)shown > room)
				shown = room > 0 ? (size_t)room - 1 : 0;
			t->v_detail_top = top;
			for (size_t k = top; k < top + shown; k++) {
				y++;
				draw_wide(y, r->x + 4, r->w - 4, details.text + details.lines[k].start,
				          details.lines[k].len, screen_attr(t, SLOT_NORMAL));
			}
			if (shown < left && room > 0) {
				char more[80];
				int m = snprintf(more, sizeof more, "\xe2\x80\xa6 %zu more lines (PgDn)", left - shown);
				draw_text(++y, r->x + 4, r->w - 4, more, (size_t)m, screen_attr(t, SLOT_DIM));
			}
		}
	}
	if (t->v_open)
		wtext_wrapped_free(&details);
}
