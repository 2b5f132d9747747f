/* settle.c - the top of review/: the one place the session takes in what changed between keys.
 *
 * Everything below notes its changes in the dirty set (session.h's struct
 * review_dirty) instead of calling up; this file marks the entries, grows
 * or rebuilds the view and loads the run under the cursor. The background
 * work (review_step) settles after each piece, so the view grows with the
 * list exactly as the work goes. */
#include "review/settle.h"
#include "session_int.h"

#include "util/clock.h"

/* While work goes on, a view that needs sorting is rebuilt at most this
 * often (of step time), so a big list is not re-sorted for every slice. */
#define REBUILD_EVERY_MS 100.0

/* Entries found join the view; each summarized one is marked, then
 * offered. True when any was. */
static bool settle_entries(struct review *rv)
{
	struct review_dirty *d = &rv->dirty;
	bool any = d->offered < rv->nentries || d->nsummarized > 0;
	while (d->offered < rv->nentries)
		review_view_offer(rv, d->offered++, true);
	for (size_t i = 0; i < d->nsummarized; i++) {
		size_t entry = d->summarized[i];
		review_entry_mark(rv, &rv->entries[entry]);
		review_view_offer(rv, entry, false);
	}
	d->nsummarized = 0;
	return any;
}

/* A judge's cell changed: the entry is marked again, and a view that
 * depends on judges or labels is rebuilt later (not held). */
static bool settle_judged(struct review *rv)
{
	struct review_dirty *d = &rv->dirty;
	for (size_t i = 0; i < d->njudged; i++) {
		review_entry_mark(rv, &rv->entries[d->judged[i]]);
		if (rv->filter != FILTER_ALL || rv->sort != SORT_FILE)
			rv->view_dirty = true;
	}
	bool any = d->njudged > 0;
	d->njudged = 0;
	return any;
}

bool review_step(struct review *rv, double budget_ms)
{
	double t0 = now_ms(), t = t0;
	/* At least one unit of work per call, so a tiny budget still gets on. */
	do {
		if (!review_work_unit(rv))
			break;
		settle_entries(rv);
		t = now_ms();
	} while (t - t0 < budget_ms);
	rv->view_age_ms += t - t0;
	if (rv->view_dirty && !rv->view_hold &&
	    (rv->view_age_ms >= REBUILD_EVERY_MS || rv->nview < REVIEW_SCREENFUL || !review_busy(rv)))
		review_view_rebuild(rv);
	return review_busy(rv);
}

unsigned review_settle(struct review *rv)
{
	struct review_dirty *d = &rv->dirty;
	unsigned what = d->what;
	d->what = 0;
	if (settle_entries(rv))
		what |= SETTLE_MARKS;
	if (settle_judged(rv))
		what |= SETTLE_MARKS;
	if (what & SETTLE_LABELS) {
		review_remark_all(rv);
		what |= SETTLE_MARKS;
	}
	review_view_fresh(rv);
	size_t entry = review_current_entry(rv);
	unsigned long serial = 0;
	if (entry != SIZE_MAX) {
		serial = review_run_at(rv, entry)->serial;
		/* the load may have summarized it */
		if (settle_entries(rv))
			what |= SETTLE_MARKS;
	}
	if (entry != d->settled_entry || rv->nview != d->settled_nview || what & SETTLE_MARKS)
		what |= SETTLE_VIEW;
	if (serial != d->settled_serial)
		what |= SETTLE_RUN;
	d->settled_entry = entry;
	d->settled_nview = rv->nview;
	d->settled_serial = serial;
	return what;
}
