/* rows.c - a run's verdict rows, scorers then judges, each described by one review_row.
 *
 * The only place that turns a row index into a scorer or a judge: the
 * decisions and the screen ask for a review_row and read what it says.
 * It stands right above the session: a judge's answer changes a cell here
 * and is noted for review_settle, which marks the run again. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "review/session.h"
#include "session_int.h"

#include "judge/judge.h"
#include "util/xalloc.h"
#include "util/error.h"

size_t review_nrows(const struct review *rv)
{
	return review_nscorers(rv) + review_njudges(rv);
}

const char *review_row_id(const struct review *rv, size_t row)
{
	if (row < review_nscorers(rv))
		return rv->cfg->scorers[row].id;
	if (row < review_nrows(rv))
		return rv->cfg->judges[row - review_nscorers(rv)].id;
	return "?";
}

const struct judge_cell *review_judge_cell_at(const struct review *rv, size_t entry,
                                              size_t judge)
{
	if (entry >= rv->nentries || judge >= review_njudges(rv) || !rv->entries[entry].jcells)
		return NULL;
	return &rv->entries[entry].jcells[judge];
}

struct judge_cell *review_judge_cell(struct review *rv, size_t entry, size_t judge)
{
	if (entry >= rv->nentries || judge >= review_njudges(rv))
		return NULL;
	struct review_entry *e = &rv->entries[entry];
	if (!e->jcells)
		e->jcells = xcalloc(review_njudges(rv) + 1, sizeof(*e->jcells));
	return &e->jcells[judge];
}

void review_judge_pending(struct review *rv, size_t entry, size_t judge, double now_ms)
{
	struct judge_cell *c = review_judge_cell(rv, entry, judge);
	if (!c)
		return;
	verdict_clear(&c->v);
	c->state = JUDGE_PENDING;
	c->started_ms = now_ms;
	review_note_judged(rv, entry);
}

void review_judge_done(struct review *rv, size_t entry, size_t judge, const struct verdict *v)
{
	struct judge_cell *c = review_judge_cell(rv, entry, judge);
	if (!c)
		return;
	verdict_copy(&c->v, v);
	c->state = JUDGE_DONE;
	review_note_judged(rv, entry);
}

void review_judge_unreached(struct review *rv, size_t entry, size_t judge, const char *why)
{
	struct judge_cell *c = review_judge_cell(rv, entry, judge);
	if (!c)
		return;
	verdict_clear(&c->v);
	verdict_error(&c->v, "%s", why);
	c->state = JUDGE_UNREACHED;
	review_note_judged(rv, entry);
}

const struct decision *review_decision(const struct review *rv, size_t entry, size_t scorer)
{
	if (entry >= rv->nentries || scorer >= review_nrows(rv) || !rv->entries[entry].summarized)
		return NULL;
	return annot_current(rv->annot, rv->entries[entry].id, review_row_id(rv, scorer),
	                     rv->reviewer);
}

const struct decision *review_note_of(const struct review *rv, size_t entry)
{
	if (entry >= rv->nentries || !rv->entries[entry].summarized)
		return NULL;
	return annot_note(rv->annot, rv->entries[entry].id, rv->reviewer);
}

bool review_row_hidden(const struct review *rv, size_t entry, size_t row)
{
	return rv->blind && !review_decision(rv, entry, row);
}

static void scorer_row(const struct review *rv, const struct review_run *rr, size_t row,
                       struct review_row *out)
{
	const struct scorer_conf *sc = &rv->cfg->scorers[row];
	*out = (struct review_row){
		.index = row, .kind = ROW_SCORER, .slot = row,
		.id = sc->id, .type = sc->ops->type, .config = sc->hash,
		.span = scorer_span(sc),
		.state = rr ? ROW_READY : ROW_NO_RUN,
		.v = rr ? &rr->verdicts[row] : NULL,
		.scorer = sc,
	};
}

static void judge_row(const struct review *rv, const struct review_run *rr, size_t row,
                      struct review_row *out)
{
	size_t j = row - review_nscorers(rv);
	const struct judge_conf *jc = &rv->cfg->judges[j];
	const struct judge_cell *c = rr ? review_judge_cell_at(rv, rr->entry, j) : NULL;
	*out = (struct review_row){
		.index = row, .kind = ROW_JUDGE, .slot = j,
		.id = jc->id, .type = jc->rubric->name, .config = jc->hash,
		.span = judge_span(jc),
		.state = !rr ? ROW_NO_RUN : !c || c->state == JUDGE_NONE ? ROW_NOT_ASKED
		       : c->state == JUDGE_PENDING ? ROW_PENDING : ROW_READY,
		.judge = jc,
		.cell = c,
	};
	if (out->state == ROW_READY)
		out->v = &c->v;
}

bool review_row_get(const struct review *rv, const struct review_run *rr, size_t row,
                    struct review_row *out)
{
	if (row < review_nscorers(rv))
		scorer_row(rv, rr, row, out);
	else if (row < review_nrows(rv))
		judge_row(rv, rr, row, out);
	else
		return false;
	return true;
}

void review_row_why(const struct review_row *r, char *buf, size_t n)
{
	if (r->state == ROW_PENDING)
		snprintf(buf, n, "%s is still answering for this run (Esc cancels)", r->id);
	else if (r->state == ROW_NOT_ASKED)
		snprintf(buf, n, "%s has not answered for this run yet (J asks it)", r->id);
	else if (r->state == ROW_NO_RUN)
		snprintf(buf, n, "no run selected");
	else if (buf && n)
		buf[0] = '\0';
}

/* The row a person gives a score to, on the run under the cursor: it
 * must exist and, for a judge, have answered. */
static int scored_row(struct review *rv, size_t row, struct review_row *r, struct error *err)
{
	/* A scorer's scale is known without a run; a judge's verdict is not. */
	const struct review_run *rr = row < review_nscorers(rv) ? NULL : review_current(rv);
	if (!review_row_get(rv, rr, row, r))
		return review_fail(rv, ERR_NO_ROW, err, "no such scorer");
	if (r->kind == ROW_JUDGE && r->state != ROW_READY) {
		char why[256];
		review_row_why(r, why, sizeof why);
		return review_fail(rv, r->state == ROW_PENDING ? ERR_JUDGE_PENDING
		                   : r->state == ROW_NOT_ASKED ? ERR_JUDGE_NOT_ASKED : ERR_NO_RUN,
		                   err, "%s", why);
	}
	return 0;
}

int review_parse_row_score(struct review *rv, size_t row, const char *text, double *out,
                           struct error *err)
{
	struct review_row r;
	if (scored_row(rv, row, &r, err) < 0)
		return -1;
	if (scale_parse_score(&r.span, text, out, err) < 0)
		return review_fail_as(rv, ERR_OFF_SCALE, err);
	return 0;
}

int review_row_takes(struct review *rv, size_t row, double score, struct error *err)
{
	struct review_row r;
	if (scored_row(rv, row, &r, err) < 0)
		return -1;
	if (!scale_holds(&r.span, score)) {
		char want[64];
		scale_describe(&r.span, want, sizeof want);
		return review_fail(rv, ERR_OFF_SCALE, err, "expected %s", want);
	}
	return 0;
}
