/* session_int.h - what the review session's files share. Not a public header. */
#ifndef TCR_REVIEW_SESSION_INT_H
#define TCR_REVIEW_SESSION_INT_H

#include <stdarg.h>
#include <stdio.h>

#include "review/session.h"
#include "util/error.h"

/* Rows around the cursor scored before anything else: more than any
 * terminal shows, above and below. */
#define REVIEW_SCREENFUL 64

static inline size_t review_nscorers(const struct review *rv)
{
	return rv->cfg ? rv->cfg->nscorers : 0;
}

static inline size_t review_njudges(const struct review *rv)
{
	return rv->cfg ? rv->cfg->njudges : 0;
}

/* Indexing or scoring is not finished (review_busy). */
static inline bool review_work_left(const struct review *rv)
{
	return !rv->ds.indexed || rv->nsummarized < rv->nentries;
}

/* Fills err (when not NULL) with kind and the text for a person, and
 * records the kind for review_last_error; returns -1 for the caller to
 * return. */
static inline __attribute__((format(printf, 4, 5)))
int review_fail(struct review *rv, enum error_kind kind, struct error *err,
                const char *fmt, ...)
{
	rv->error = kind;
	va_list ap;
	va_start(ap, fmt);
	error_vset(err, kind, fmt, ap);
	va_end(ap);
	return -1;
}

/* A lower layer's failure, its message kept, given the session's kind. */
static inline int review_fail_as(struct review *rv, enum error_kind kind, struct error *err)
{
	rv->error = kind;
	if (err)
		err->kind = kind;
	return -1;
}

/* session.c: one piece of background work (a slice of indexing, or one
 * run scored); false when none is left. review_step (settle.c) settles
 * after each. */
bool review_work_unit(struct review *rv);
/* Notes a change for the next review_settle (settle.c): an entry just
 * summarized, an entry whose judge cells changed. */
void review_note_summarized(struct review *rv, size_t entry);
void review_note_judged(struct review *rv, size_t entry);

/* marks.c: whether a row waits for this reviewer's decision; a run's mark */
bool review_row_counts(const struct review *rv, const struct review_entry *e, size_t row);
void review_entry_mark(struct review *rv, struct review_entry *e);
/* Every summarized entry marked again; a view that depends on marks is
 * rebuilt later (not held). */
void review_remark_all(struct review *rv);
/* Whether the view changes with decisions: the marks, the labels, and in
 * blind mode every verdict a decision reveals. */
bool review_view_uses_marks(const struct review *rv);

/* filters.c: whether entry i is in view under filter f (and the share) */
bool review_entry_passes(const struct review *rv, size_t entry, enum review_filter f);

/* view.c */
void review_view_rebuild(struct review *rv);
/* A dirty view is rebuilt once the background work is done. */
void review_view_fresh(struct review *rv);
/* The cursor moved: a view held since a decision may change now. */
void review_view_release(struct review *rv);
/* A new entry, or one just summarized, joins the view. */
void review_view_offer(struct review *rv, size_t entry, bool is_new);

#endif
