/* group_decide.c - a label or a tag on every run of a group in one write, and the group taken back by one line. */
#include <stdlib.h>
#include <string.h>

#include "annot/store.h"
#include "judge/judge.h"
#include "review/group_decide.h"
#include "review/queue.h"
#include "review/tags.h"
#include "review/rows.h"
#include "review/session.h"
#include "session_int.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* The decisions of a group being made, and what their lines borrow. */
struct batch {
	struct decision *d;
	char (*hash)[65];
	size_t n;
	struct strbuf model;
};

static void batch_init(struct batch *b, size_t n)
{
	b->d = xcalloc(n ? n : 1, sizeof *b->d);
	b->hash = xcalloc(n ? n : 1, sizeof *b->hash);
	b->n = 0;
	b->model = (struct strbuf)STRBUF_INIT;
}

static void batch_free(struct batch *b)
{
	free(b->d);
	free(b->hash);
	strbuf_release(&b->model);
}

/* Whether the run id of entry k was taken by an earlier one: a run is
 * decided once however many records carry its id. */
static bool seen_before(const struct review *rv, const size_t *entries, size_t k)
{
	const char *id = rv->entries[entries[k]].id;
	for (size_t i = 0; i < k; i++)
		if (rv->entries[entries[i]].id && !strcmp(rv->entries[entries[i]].id, id))
			return true;
	return false;
}

/* The decision of entry e's common part; NULL when the run cannot be decided. */
static struct decision *batch_add(struct review *rv, struct batch *b, size_t e,
                                  enum decision_kind kind, const char *group)
{
	const struct review_entry *en = &rv->entries[e];
	struct decision *d = &b->d[b->n];
	*d = (struct decision){
		.kind = kind, .run = en->id, .source = en->source, .reviewer = rv->reviewer,
		.blind = rv->blind, .group = group,
		.run_hash = review_entry_hash(en, b->hash[b->n]) ? b->hash[b->n] : NULL,
	};
	review_queue_stamp(rv, e, d);
	b->n++;
	return d;
}

/* The row's verdict on entry e into d (accept or override); false when
 * the run has none to decide (not read, a judge not answered). */
static bool label_one(struct review *rv, size_t e, size_t row, bool accept, double score,
                      struct decision *d, struct strbuf *model)
{
	struct review_run *rr = review_run_at(rv, e);
	struct review_row r;
	if (!rr || !rr->run || rr->run->load_error || !review_row_get(rv, rr, row, &r) ||
	    r.state != ROW_READY)
		return false;
	const struct verdict *v = r.v;
	bool ok = v->status == VERDICT_OK;
	if (accept && !ok)
		return false;
	if (!accept && !scale_holds(&r.span, score))
		return false;
	d->scorer = r.id;
	d->scorer_type = r.type;
	d->config = r.config;
	d->has_machine_score = ok;
	d->machine_score = ok ? v->score : 0;
	d->has_machine_passed = ok;
	d->machine_passed = ok && v->passed;
	d->has_score = true;
	d->score = accept ? v->score : score == 0 ? 0 : score;
	d->kind = accept || (ok && v->score == score) ? DEC_ACCEPT : DEC_OVERRIDE;
	if (r.kind == ROW_JUDGE) {
		if (!model->len) {
			strbuf_addstr(model, judge_provider_prefix(r.judge->provider));
			strbuf_addstr(model, r.judge->model ? r.judge->model : "");
		}
		d->model = model->buf;
		d->prompt_hash = r.judge->prompt_hash;
	}
	return true;
}

/* Writes the batch as one group and marks the runs again. */
static int batch_write(struct review *rv, struct batch *b, struct group_outcome *out,
                       struct error *err)
{
	if (!b->n)
		return review_fail(rv, ERR_FAILED, err, "no run of the group can take this decision");
	if (annot_append_many(rv->annot, b->d, b->n, err) < 0)
		return review_fail_as(rv, ERR_STORE, err);
	out->written = b->n;
	rv->labels_gen++;
	review_remark_all(rv);
	rv->dirty.what |= SETTLE_MARKS;
	return 0;
}

int review_group_label(struct review *rv, size_t row, bool accept, double score,
                       const size_t *entries, size_t n, struct group_outcome *out,
                       struct error *err)
{
	memset(out, 0, sizeof *out);
	if (accept && rv->blind)
		return review_fail(rv, ERR_BLIND, err, "blind: give a label; accepting hidden verdicts "
		                   "would not be blind");
	if (row >= review_nrows(rv))
		return review_fail(rv, ERR_NO_ROW, err, "no such scorer");
	annot_group_id(out->group);
	struct batch b;
	batch_init(&b, n);
	for (size_t k = 0; k < n; k++) {
		size_t e = entries[k];
		if (e >= rv->nentries || !rv->entries[e].id || seen_before(rv, entries, k)) {
			out->skipped++;
			continue;
		}
		struct decision *d = batch_add(rv, &b, e, DEC_ACCEPT, out->group);
		if (!label_one(rv, e, row, accept, score, d, &b.model)) {
			b.n--;
			out->skipped++;
		}
	}
	int rc = batch_write(rv, &b, out, err);
	batch_free(&b);
	return rc;
}

int review_group_tag(struct review *rv, const char *code, const size_t *entries, size_t n,
                     struct group_outcome *out, struct error *err)
{
	memset(out, 0, sizeof *out);
	if (!code || !code[0])
		return review_fail(rv, ERR_FAILED, err, "a tag needs a code");
	annot_group_id(out->group);
	struct batch b;
	batch_init(&b, n);
	for (size_t k = 0; k < n; k++) {
		size_t e = entries[k];
		if (e >= rv->nentries || !rv->entries[e].id || seen_before(rv, entries, k)) {
			out->skipped++;
			continue;
		}
		/* the spelling already in use, as a tag of one run is written */
		batch_add(rv, &b, e, DEC_TAG, out->group)->tag = review_tag_spelling(rv, code);
	}
	int rc = batch_write(rv, &b, out, err);
	batch_free(&b);
	return rc;
}

const char *review_group_of_row(const struct review *rv, size_t entry, size_t row,
                                size_t *standing)
{
	*standing = 0;
	if (entry >= rv->nentries || !rv->entries[entry].id || row >= review_nrows(rv))
		return NULL;
	const struct decision *d = annot_current(rv->annot, rv->entries[entry].id,
	                                         review_row_id(rv, row), rv->reviewer);
	if (!d || !d->group)
		return NULL;
	*standing = annot_group_standing(rv->annot, d->group);
	return d->group;
}

int review_group_retract(struct review *rv, const char *group, struct error *err)
{
	if (!group || !annot_group_standing(rv->annot, group))
		return review_fail(rv, ERR_NOTHING_TO_RETRACT, err, "nothing of that group to take back");
	struct decision d = {
		.kind = DEC_RETRACT, .retracts_group = true, .group = group, .reviewer = rv->reviewer,
	};
	if (annot_append(rv->annot, &d, err) < 0)
		return review_fail_as(rv, ERR_STORE, err);
	rv->labels_gen++;
	review_remark_all(rv);
	rv->dirty.what |= SETTLE_MARKS;
	return 0;
}
