/* marks.c - a run's review mark (unreviewed, reviewed, overridden), from the annotations.
 *
 * Apart from the decisions so that the session, which marks each entry as
 * it is indexed, and the decisions, which mark it again, both call down
 * here rather than into each other. */
#include <stdbool.h>

#include "review/session.h"
#include "session_int.h"

/* A judge that has not answered (not asked, still answering, or failed:
 * cancelled, unreachable) gives the reviewer nothing to decide, so it
 * does not keep the run from being reviewed; a code scorer always has a
 * verdict, even an error, and must be decided. */
bool review_row_counts(const struct review *rv, const struct review_entry *e, size_t row)
{
	if (row < review_nscorers(rv))
		return true;
	size_t j = row - review_nscorers(rv);
	if (j >= review_njudges(rv) || !e->jcells)
		return false;
	const struct judge_cell *c = &e->jcells[j];
	return c->state == JUDGE_DONE && c->v.status != VERDICT_ERROR;
}

/* A run is reviewed once every row that counts (every code scorer, every
 * answered judge) has a standing decision of this reviewer; among those,
 * one with an override is marked overridden. A run with no such row has
 * nothing to decide, so only a note reviews it. */
void review_entry_mark(struct review *rv, struct review_entry *e)
{
	bool all = true, over = false, any = false;
	for (size_t i = 0; i < review_nrows(rv); i++) {
		const struct decision *d = annot_current(rv->annot, e->id, review_row_id(rv, i),
		                                         rv->reviewer);
		bool counts = review_row_counts(rv, e, i);
		any |= counts;
		if (d && d->kind == DEC_OVERRIDE)
			over = true;
		if (!d && counts)
			all = false;
	}
	if (!any) {
		const struct decision *n = annot_note(rv->annot, e->id, rv->reviewer);
		all = n && n->reason && n->reason[0];
	}
	bool was = e->mark != MARK_UNREVIEWED;
	e->mark = !all ? MARK_UNREVIEWED : over ? MARK_OVERRIDDEN : MARK_REVIEWED;
	e->any_override = over;
	bool is = e->mark != MARK_UNREVIEWED;
	long d = is && !was ? 1 : was && !is ? -1 : 0;
	rv->nreviewed += (size_t)d;
	if (e->in_share)
		rv->share_reviewed += (size_t)d;
}

bool review_row_counts_at(struct review *rv, size_t entry, size_t row)
{
	if (entry >= rv->nentries || !rv->entries[entry].summarized || row >= review_nrows(rv))
		return false;
	return review_row_counts(rv, &rv->entries[entry], row);
}

size_t review_undecided_row(struct review *rv, size_t entry, size_t from)
{
	size_t n = review_nrows(rv);
	if (entry >= rv->nentries || !rv->entries[entry].summarized || rv->entries[entry].load_failed)
		return SIZE_MAX;
	for (size_t k = 0; k < n; k++) {
		size_t row = (from + k) % n;
		if (review_row_counts_at(rv, entry, row) && !review_decision(rv, entry, row))
			return row;
	}
	return SIZE_MAX;
}

enum review_forward review_forward(struct review *rv, size_t row, size_t *next_row)
{
	*next_row = row;
	struct review_run *rr = review_current(rv);
	if (!rr)
		return FORWARD_DONE;
	size_t r = review_undecided_row(rv, rr->entry, row + 1);
	if (r != SIZE_MAX) {
		*next_row = r;
		return FORWARD_ROW;
	}
	if (!review_next_unreviewed(rv))
		return FORWARD_DONE;
	rr = review_current(rv);
	r = rr ? review_undecided_row(rv, rr->entry, 0) : SIZE_MAX;
	*next_row = r == SIZE_MAX ? 0 : r;
	return FORWARD_RUN;
}
