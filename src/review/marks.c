/* marks.c - a run's review mark (unreviewed, reviewed, overridden), from the annotations.
 *
 * Apart from the decisions so that the session, which marks each entry as
 * it is indexed, and the decisions, which mark it again, both call down
 * here rather than into each other. */
#include <stdbool.h>

#include "review/session.h"
#include "session_int.h"

/* A run is reviewed once every verdict has a standing decision of this
 * reviewer; among those, one with an override is marked overridden. A run
 * without scorers has nothing to decide, so only a note reviews it. */
void review_entry_mark(struct review *rv, struct review_entry *e)
{
	bool all = true, over = false;
	if (review_nscorers(rv) == 0) {
		const struct decision *n = annot_note(rv->annot, e->id, rv->reviewer);
		all = n && n->reason && n->reason[0];
	}
	for (size_t i = 0; i < review_nscorers(rv); i++) {
		const struct decision *d = annot_current(rv->annot, e->id, rv->cfg->scorers[i].id,
		                                         rv->reviewer);
		if (!d)
			all = false;
		else if (d->kind == DEC_OVERRIDE)
			over = true;
	}
	bool was = e->mark != MARK_UNREVIEWED;
	e->mark = !all ? MARK_UNREVIEWED : over ? MARK_OVERRIDDEN : MARK_REVIEWED;
	e->any_override = over;
	bool is = e->mark != MARK_UNREVIEWED;
	if (is && !was)
		rv->nreviewed++;
	else if (was && !is)
		rv->nreviewed--;
}
