/* session_int.h - what the review session's files share. Not a public header. */
#ifndef TCR_REVIEW_SESSION_INT_H
#define TCR_REVIEW_SESSION_INT_H

#include "review/session.h"

static inline size_t review_nscorers(const struct review *rv)
{
	return rv->cfg ? rv->cfg->nscorers : 0;
}

static inline size_t review_njudges(const struct review *rv)
{
	return rv->cfg ? rv->cfg->njudges : 0;
}

/* Records why the last call failed; returns -1 for the caller to return. */
int review_fail(struct review *rv, enum review_error kind, char *err, size_t errlen,
                const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* view.c */
void review_view_rebuild(struct review *rv);
/* A dirty view is rebuilt once the background work is done. */
void review_view_fresh(struct review *rv);
/* The cursor moved: a view held since a decision may change now. */
void review_view_release(struct review *rv);
/* A new entry, or one just summarized, joins the view. */
void review_view_offer(struct review *rv, size_t entry, bool is_new);

/* decisions.c */
void review_entry_mark(struct review *rv, struct review_entry *e);
void review_remark_all(struct review *rv);

#endif
