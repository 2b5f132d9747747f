/* marks.c - a run's review mark (unreviewed, reviewed, overridden), from the annotations.
 *
 * Below the filters, the view and the decisions, which all read marks;
 * review_settle marks an entry as it is summarized or judged, the
 * decisions mark it again, and all of them call down here. */
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

bool review_row_counts_at(const struct review *rv, size_t entry, size_t row)
{
	if (entry >= rv->nentries || !rv->entries[entry].summarized || row >= review_nrows(rv))
		return false;
	return review_row_counts(rv, &rv->entries[entry], row);
}

size_t review_undecided_row(const struct review *rv, size_t entry, size_t from)
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

enum review_mark review_mark_of(const struct review *rv, size_t entry)
{
	if (entry >= rv->nentries || !rv->entries[entry].summarized)
		return MARK_UNREVIEWED;
	return (enum review_mark)rv->entries[entry].mark;
}

size_t review_reviewed_count(const struct review *rv)
{
	return rv->nreviewed;
}

bool review_view_uses_marks(const struct review *rv)
{
	switch (rv->filter) {
	case FILTER_ALL: case FILTER_CELL:
		break;
	case FILTER_FAILING: case FILTER_DISAGREE: case FILTER_ERRORS:
		if (!rv->blind)
			break;
		return true;
	default:
		return true;
	}
	return rv->sort == SORT_STATE || (rv->blind && rv->sort == SORT_SCORE);
}

void review_remark_all(struct review *rv)
{
	rv->labels_gen++;
	for (size_t i = 0; i < rv->nentries; i++)
		if (rv->entries[i].summarized)
			review_entry_mark(rv, &rv->entries[i]);
	if (review_view_uses_marks(rv))
		rv->view_dirty = true;
}
