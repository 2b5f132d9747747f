/* verdicts.c - one row per scorer; the selected one opens its details and
 * the human decision on it. */
#include <stdlib.h>
#include <string.h>

#include "jsonw.h"
#include "tui_int.h"
#include "wtext.h"

/* The selected verdict's details as lines (explain, decision, note). */
static void detail_lines(struct tui *t, struct strbuf *out)
{
	struct review_run *rr = review_current(t->rv);
	if (!rr || t->cfg->nscorers == 0)
		return;
	size_t s = t->v_sel < t->cfg->nscorers ? t->v_sel : 0;
	const struct scorer_conf *sc = &t->cfg->scorers[s];
	const struct verdict *v = &rr->verdicts[s];
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
	strbuf_addf(out, "%s: %s, scale %s, passes at %g\n", sc->id, sc->ops->type,
	            scale_name(sc->ops->scale), sc->threshold);
	if (v->status == VERDICT_OK && sc->ops->explain && v->details)
		sc->ops->explain(v->details, out);
	else if (v->message)
		strbuf_addf(out, "%s: %s\n", verdict_status_name(v->status), v->message);
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
	int rows = (int)t->cfg->nscorers + 1;         /* the header row */
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
	size_t n = t->cfg->nscorers;
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
		const struct scorer_conf *sc = &t->cfg->scorers[s];
		const struct verdict *v = rr ? &rr->verdicts[s] : NULL;
		char score[32] = "", result[16] = "", human[64] = "";
		int slot = SLOT_NORMAL;
		if (v && v->status == VERDICT_OK) {
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
			         sc->id, tyw, tyw, sc->ops->type, score);
		else
			snprintf(row, sizeof row, "%c%zu %-*.*s %6s  ", sel ? '>' : ' ', (s + 1) % 10, idw, idw,
			         sc->id, score);
		int x = r->x + draw_text(y, r->x, r->w, row, strlen(row), base);
		x += draw_text(y, x, r->x + r->w - x, result, strlen(result), sel ? base : screen_attr(t, slot));
		x += draw_text(y, x, r->x + r->w - x, "        ", (size_t)(8 - (int)strlen(result) > 0 ? 8 - (int)strlen(result) : 1), base);
		/* Where "overridden to N" does not fit, the list's mark says it:
		 * the score the reviewer gave must stay readable. */
		if (hnum[0] && draw_width(human, strlen(human)) > r->x + r->w - x)
			snprintf(human, sizeof human, "\xe2\x9c\x8e %s", hnum);         /* ✎ */
		draw_text(y, x, r->x + r->w - x, human, strlen(human),
		          sel ? base : screen_attr(t, d && d->kind == DEC_OVERRIDE ? SLOT_MARK_OVERRIDDEN : SLOT_MARK_REVIEWED));
		if (sel && t->v_open) {
			/* The verdicts below keep their rows: details that do not
			 * fit are cut, and their last row says how much is missing. */
			long room = (long)(bottom - y - 1) - (long)(n - s - 1);
			size_t shown = details.nlines;
			if (room < 0)
				room = 0;
			if ((long)shown > room)
				shown = room > 0 ? (size_t)room - 1 : 0;
			for (size_t k = 0; k < shown; k++) {
				y++;
				draw_wide(y, r->x + 4, r->w - 4, details.text + details.lines[k].start,
				          details.lines[k].len, screen_attr(t, SLOT_NORMAL));
			}
			if (shown < details.nlines && room > 0) {
				char more[64];
				int m = snprintf(more, sizeof more, "\xe2\x80\xa6 %zu more lines", details.nlines - shown);
				draw_text(++y, r->x + 4, r->w - 4, more, (size_t)m, screen_attr(t, SLOT_DIM));
			}
		}
	}
	if (t->v_open)
		wtext_wrapped_free(&details);
}
