/* calls.c - decisions on one call of the run under the cursor: a label on the call scale, corrections, the expected answer. */
#include <stdio.h>
#include <string.h>

#include "annot/vocab.h"
#include "config/config.h"
#include "review/calls.h"
#include "review/queue.h"
#include "session_int.h"

/* The run under the cursor, read, with `call` one of its calls (or, for an
 * insertion, the end). */
static struct review_run *call_run(struct review *rv, size_t call, bool end_ok, struct error *err)
{
	size_t entry = review_current_entry(rv);
	struct review_run *rr = entry == SIZE_MAX ? NULL : review_run_at(rv, entry);
	if (!rr) {
		review_fail(rv, ERR_NO_RUN, err, "no run selected");
		return NULL;
	}
	if (!rr->run || rr->run->load_error) {
		review_fail(rv, ERR_UNREADABLE, err, "this record could not be read, so it has no calls");
		return NULL;
	}
	if (call > rr->run->ncalls || (call == rr->run->ncalls && !end_ok)) {
		review_fail(rv, ERR_NO_ROW, err, "no such call");
		return NULL;
	}
	return rr;
}

/* A decision on the run: its id, record and hash, this reviewer, and the
 * call it is about with the call's own id and tool. */
static struct decision call_decision(struct review *rv, const struct review_run *rr, size_t call,
                                     enum decision_kind kind, char run_hash[65])
{
	const struct review_entry *e = &rv->entries[rr->entry];
	struct decision d = {
		.kind = kind,
		.run = e->id,
		.source = e->source,
		.reviewer = rv->reviewer,
		.run_hash = review_entry_hash(e, run_hash) ? run_hash : NULL,
		.blind = rv->blind,
		.call = (long)call + 1,
	};
	if (call < rr->run->ncalls) {
		const struct run_call *c = &rr->run->calls[call];
		d.call_id = c->id;
		d.tool = c->name[0] ? c->name : NULL;
	}
	if (kind != DEC_RETRACT)
		review_queue_stamp(rv, rr->entry, &d);
	return d;
}

static int append(struct review *rv, const struct decision *d, struct error *err)
{
	if (annot_append(rv->annot, d, err) < 0)
		return review_fail_as(rv, ERR_STORE, err);
	rv->labels_gen++;
	return 0;
}

void review_call_scale(const struct review *rv, char *out, size_t n)
{
	size_t nl, used = 0;
	const struct call_label_def *l = vocab_labels(&rv->cfg->vocab, &nl);
	out[0] = '\0';
	for (size_t i = 0; i < nl && used < n; i++) {
		int w = snprintf(out + used, n - used, "%s%zu %s", i ? ", " : "", i + 1, l[i].id);
		if (w < 0)
			break;
		used += (size_t)w;
	}
}

int review_call_label(struct review *rv, size_t call, int digit, const char **name,
                      struct error *err)
{
	struct review_run *rr = call_run(rv, call, false, err);
	if (!rr)
		return -1;
	const struct call_label_def *l = vocab_label_of_digit(&rv->cfg->vocab, digit);
	if (!l) {
		char scale[256];
		review_call_scale(rv, scale, sizeof scale);
		return review_fail(rv, ERR_OFF_SCALE, err, "calls are labelled %s", scale);
	}
	char hash[65];
	struct decision d = call_decision(rv, rr, call, DEC_CALL_LABEL, hash);
	d.has_score = true;
	d.score = l->value;
	d.label = l->id;
	if (name)
		*name = l->id;
	return append(rv, &d, err);
}

int review_call_correct(struct review *rv, size_t call, enum correction_kind kind,
                        const char *expected, struct error *err)
{
	bool answer = kind == CORR_ANSWER;
	struct review_run *rr = call_run(rv, answer ? 0 : call, kind == CORR_INSERT || answer, err);
	if (!rr)
		return -1;
	char hash[65];
	struct decision d = call_decision(rv, rr, answer ? 0 : call, DEC_CORRECT, hash);
	if (answer) {
		d.call = 0;
		d.call_id = d.tool = NULL;
	}
	if (kind == CORR_INSERT)        /* the call it comes before is named by its number only */
		d.call_id = d.tool = NULL;
	d.correction = kind;
	d.expected = expected;
	return append(rv, &d, err);
}

void review_call_decs(const struct review *rv, const struct review_run *rr,
                      struct run_call_decs *out)
{
	const char *me = rv ? rv->reviewer : NULL;
	bool any = rv && rv->annot && rr && rr->run && rr->entry < rv->nentries;
	/* Every reviewer's, as tags are shown, so a colleague's corrections
	 * are read too; blind, only one's own. */
	bool mine = rv && rv->blind;
	callrefs_gather(any ? rv->annot : NULL, any ? rv->entries[rr->entry].id : NULL,
	                mine ? &me : NULL, mine ? 1 : 0, rr && rr->run ? rr->run->ncalls : 0, out);
}

const char *review_call_latest_at(const struct review *rv, size_t call)
{
	const struct review_run *rr = review_current(rv);
	if (!rr || !rr->run || rr->run->load_error || call >= rr->run->ncalls)
		return NULL;
	struct run_call_decs cd;
	const char *me = rv->reviewer;
	callrefs_gather(rv->annot, rv->entries[rr->entry].id, &me, 1, rr->run->ncalls, &cd);
	const struct decision *top = callrefs_latest_on(&cd, call + 1);
	const char *at = top ? top->at : NULL;     /* the store's: lives past cd */
	callrefs_free(&cd);
	return at;
}

int review_call_retract(struct review *rv, size_t call, const char **what, struct error *err)
{
	struct review_run *rr = call_run(rv, call, false, err);
	if (!rr)
		return -1;
	struct run_call_decs cd;
	const char *me = rv->reviewer;
	callrefs_gather(rv->annot, rv->entries[rr->entry].id, &me, 1, rr->run->ncalls, &cd);
	const struct decision *top = callrefs_latest_on(&cd, call + 1);
	if (!top) {
		callrefs_free(&cd);
		return review_fail(rv, ERR_NOTHING_TO_RETRACT, err, "nothing to take back on this call");
	}
	char hash[65];
	struct decision d = call_decision(rv, rr, call, DEC_RETRACT, hash);
	d.retracts_set = true;
	d.retracts = top->kind;
	d.correction = top->correction;
	d.call = top->call;             /* an insertion at the end is after this call */
	if (what)
		*what = top->kind == DEC_CALL_LABEL ? "call label" :
		        top->correction == CORR_REMOVE ? "removal" :
		        top->correction == CORR_INSERT ? "insertion" : "correction";
	callrefs_free(&cd);
	return append(rv, &d, err);
}
