/* settle.h - the one step that settles a review session between keys.
 *
 * The files of review/ below it do not call up: a run summarized by the
 * background work, a judge's answer, the labels other reviewers appended
 * are noted in the session's dirty set (struct review_dirty). review_settle
 * takes them in: it marks the entries again, offers new and summarized
 * entries to the view, rebuilds a view that must be rebuilt (never while a
 * decision holds it), and loads and scores the run under the cursor, so
 * that drawing and key handlers only read. The screen calls it once per
 * loop turn and after each key; a command that only reads calls it once
 * after stepping the session. */
#ifndef TCR_REVIEW_SETTLE_H
#define TCR_REVIEW_SETTLE_H

#include "review/session.h"

/* Settles what changed since the last call; returns the SETTLE_ flags
 * (review/session.h) of what did, for the caller to redraw. */
unsigned review_settle(struct review *rv);

#endif
