/* decisions.c - the reviewer's decisions, and the marks they change on each run.
 *
 * Each decision is on disk before the call returns; the marks kept on the
 * entries (reviewed, overridden) follow from the annotations store. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "review/session.h"
#include "session_int.h"

#include "judge/judge.h"
#include "util/strbuf.h"
#include "util/error.h"

/* ---- review state ------------------------------------------------------- */

/* The store reads what other reviewers appended; review_settle marks the
 * runs again, and the figures built from labels know at once. */
size_t review_refresh(struct review *rv)
{
	size_t n = annot_refresh(rv->annot);
	if (n) {
		rv->labels_gen++;
		rv->dirty.what |= SETTLE_LABELS;
	}
	return n;
}

enum error_kind review_last_error(const struct review *rv)
{
	return rv->error;
}

/* ---- decisions ---------------------------------------------------------- */

int review_parse_score(const struct scorer_conf *sc, const char *text, double *out,
                       struct error *err)
{
	struct scale span = scorer_span(sc);
	return scale_parse_score(&span, text, out, err);
}

/* The decisions changed: every entry of that run id is marked again, and a
 * view that depends on marks is held until the cursor moves. */
static void decided(struct review *rv, size_t entry)
{
	const char *id = rv->entries[entry].id;
	rv->labels_gen++;
	for (size_t i = 0; i < rv->nentries; i++) {
		struct review_entry *e = &rv->entries[i];
		if (e->summarized && (i == entry || strcmp(e->id, id) == 0))
			review_entry_mark(rv, e);
	}
	if (review_view_uses_marks(rv)) {
		rv->view_dirty = true;
		rv->view_hold = true;
	}
	rv->dirty.what |= SETTLE_MARKS;
}

/* The run under the cursor: review_settle has loaded it (this finds it in
 * the cache); a caller that moved without settling has it loaded here. */
static struct review_run *current_run(struct review *rv)
{
	size_t entry = review_current_entry(rv);
	return entry == SIZE_MAX ? NULL : review_run_at(rv, entry);
}

static struct review_run *current_for_decision(struct review *rv, struct error *err)
{
	struct review_run *rr = current_run(rv);
	if (!rr)
		review_fail(rv, ERR_NO_RUN, err, "no run selected");
	else if (!rr->run || rr->run->load_error) {
		/* There is nothing to judge in a record that could not be read. */
		review_fail(rv, ERR_UNREADABLE, err,
		            "this record could not be read, so it has no verdicts to decide");
		return NULL;
	}
	return rr;
}

/* The row to decide on: it must exist and, for a judge, have answered. */
static int decidable_row(struct review *rv, const struct review_run *rr, size_t row,
                         struct review_row *out, struct error *err)
{
	if (!review_row_get(rv, rr, row, out))
		return review_fail(rv, ERR_NO_ROW, err, "no such scorer");
	if (out->state == ROW_READY)
		return 0;
	char why[256];
	review_row_why(out, why, sizeof why);
	return review_fail(rv, out->state == ROW_PENDING ? ERR_JUDGE_PENDING : ERR_JUDGE_NOT_ASKED,
	                   err, "%s", why);
}

static int decide(struct review *rv, const struct review_run *rr, enum decision_kind kind,
                  size_t scorer, bool has_score, double score, const char *reason,
                  struct error *err)
{
	const struct review_entry *e = &rv->entries[rr->entry];
	char run_hash[65];
	struct decision d = {
		.kind = kind,
		.run = e->id,
		.source = e->source,
		.reason = reason,
		.reviewer = rv->reviewer,
		.has_score = has_score,
		.score = score,
		.run_hash = review_entry_hash(e, run_hash) ? run_hash : NULL,
		.blind = rv->blind,
	};
	review_queue_stamp(rv, rr->entry, &d);
	/* The judge's model as the YAML named it, provider prefix and all. */
	struct strbuf model = STRBUF_INIT;
	if (kind != DEC_NOTE) {
		struct review_row r;
		if (decidable_row(rv, rr, scorer, &r, err) < 0)
			return -1;
		const struct verdict *v = r.v;
		bool ok = v->status == VERDICT_OK;
		d.scorer = r.id;
		d.scorer_type = r.type;
		d.config = r.config;
		d.has_machine_score = ok;
		d.machine_score = ok ? v->score : 0;
		d.has_machine_passed = ok;
		d.machine_passed = ok && v->passed;
		if (r.kind == ROW_JUDGE) {
			strbuf_addstr(&model, judge_provider_prefix(r.judge->provider));
			strbuf_addstr(&model, r.judge->model ? r.judge->model : "");
			d.model = model.buf;
			d.prompt_hash = r.judge->prompt_hash;
		}
	}
	size_t before = annot_count(rv->annot);
	int rc = annot_append(rv->annot, &d, err);
	strbuf_release(&model);
	if (rc < 0)
		return review_fail_as(rv, ERR_STORE, err);
	decided(rv, rr->entry);
	/* The store reads what other reviewers appended before it writes;
	 * their decisions may concern any run. */
	if (annot_count(rv->annot) > before + 1)
		review_remark_all(rv);
	return 0;
}

static int accept_one(struct review *rv, const struct review_run *rr, size_t scorer,
                      struct error *err)
{
	struct review_row r;
	if (decidable_row(rv, rr, scorer, &r, err) < 0)
		return -1;
	const struct verdict *v = r.v;
	bool ok = v->status == VERDICT_OK;
	return decide(rv, rr, DEC_ACCEPT, scorer, ok, ok ? v->score : 0, NULL, err);
}

/* Accepting a verdict one has not seen would record agreement with it:
 * in blind mode the reviewer gives a label instead. */
static int refuse_blind(struct review *rv, struct error *err)
{
	return review_fail(rv, ERR_BLIND, err,
	                   "blind: type a label (a digit, or o); accepting a hidden verdict "
	                   "would not be blind");
}

int review_accept(struct review *rv, size_t scorer, struct error *err)
{
	if (rv->blind)
		return refuse_blind(rv, err);
	struct review_run *rr = current_for_decision(rv, err);
	return rr ? accept_one(rv, rr, scorer, err) : -1;
}

int review_accept_all(struct review *rv, struct error *err)
{
	if (rv->blind)
		return refuse_blind(rv, err);
	struct review_run *rr = current_for_decision(rv, err);
	if (!rr)
		return -1;
	const char *id = rv->entries[rr->entry].id;
	for (size_t i = 0; i < review_nrows(rv); i++) {
		/* A verdict already decided keeps its decision: accepting over
		 * an override would silently undo it. A judge not asked yet has
		 * nothing to accept. */
		if (annot_current(rv->annot, id, review_row_id(rv, i), rv->reviewer))
			continue;
		struct review_row r;
		if (review_row_get(rv, rr, i, &r) && r.state != ROW_READY)
			continue;
		if (accept_one(rv, rr, i, err) < 0)
			return -1;
	}
	review_next_unreviewed(rv);
	return 0;
}

/* A score a person gave to a row: an accept when it equals the machine's
 * score (so "overridden" keeps meaning that a person disagreed), else an
 * override. Blind mode takes it either way: the reviewer typed the score. */
static int give_score(struct review *rv, size_t row, double score, const char *reason,
                      bool *accepted, struct error *err)
{
	if (accepted)
		*accepted = false;
	struct review_run *rr = current_for_decision(rv, err);
	if (!rr)
		return -1;
	struct review_row r;
	if (decidable_row(rv, rr, row, &r, err) < 0)
		return -1;
	if (!scale_holds(&r.span, score)) {
		char want[64];
		scale_describe(&r.span, want, sizeof want);
		return review_fail(rv, ERR_OFF_SCALE, err, "expected %s", want);
	}
	reason = reason && reason[0] ? reason : NULL;
	if (r.v->status == VERDICT_OK && r.v->score == score) {
		if (accepted)
			*accepted = true;
		return decide(rv, rr, DEC_ACCEPT, row, true, score, reason, err);
	}
	return decide(rv, rr, DEC_OVERRIDE, row, true, score == 0 ? 0 : score, reason, err);
}

int review_override(struct review *rv, size_t scorer, double score, const char *reason,
                    bool *accepted, struct error *err)
{
	return give_score(rv, scorer, score, reason, accepted, err);
}

int review_label(struct review *rv, size_t row, double score, bool *accepted,
                 struct error *err)
{
	return give_score(rv, row, score, NULL, accepted, err);
}

int review_retract(struct review *rv, size_t scorer, struct error *err)
{
	struct review_run *rr = current_for_decision(rv, err);
	if (!rr)
		return -1;
	if (scorer >= review_nrows(rv))
		return review_fail(rv, ERR_NO_ROW, err, "no such scorer");
	if (!annot_current(rv->annot, rv->entries[rr->entry].id, review_row_id(rv, scorer),
	                   rv->reviewer))
		return review_fail(rv, ERR_NOTHING_TO_RETRACT, err, "nothing to take back");
	return decide(rv, rr, DEC_RETRACT, scorer, false, 0, NULL, err);
}

int review_note(struct review *rv, const char *text, struct error *err)
{
	/* A note may say what is wrong with a record that could not be read. */
	struct review_run *rr = current_run(rv);
	if (!rr)
		return review_fail(rv, ERR_NO_RUN, err, "no run selected");
	return decide(rv, rr, DEC_NOTE, 0, false, 0, text ? text : "", err);
}

/* ---- moving on after a decision --------------------------------------- */

enum review_forward review_forward(struct review *rv, size_t row, size_t *next_row)
{
	*next_row = row;
	size_t entry = review_current_entry(rv);
	if (entry == SIZE_MAX)
		return FORWARD_DONE;
	size_t r = review_undecided_row(rv, entry, row + 1);
	if (r != SIZE_MAX) {
		*next_row = r;
		return FORWARD_ROW;
	}
	if (!review_next_unreviewed(rv))
		return FORWARD_DONE;
	entry = review_current_entry(rv);
	r = entry != SIZE_MAX ? review_undecided_row(rv, entry, 0) : SIZE_MAX;
	*next_row = r == SIZE_MAX ? 0 : r;
	return FORWARD_RUN;
}
