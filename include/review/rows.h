/* rows.h - a run's verdict rows: the code scorers first, then the judges.
 *
 * A row index goes in and a review_row comes out, so no caller counts
 * scorers to find a judge: the row says what it is, its scale, its verdict
 * and whether a judge has answered. */
#ifndef TCR_REVIEW_ROWS_H
#define TCR_REVIEW_ROWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "verdict/scale.h"
#include "verdict/verdict.h"
#include "util/error.h"

struct review;
struct review_run;
struct scorer_conf;
struct judge_conf;

/* A judge's state on one run. */
enum judge_state {
	JUDGE_NONE,                 /* not asked */
	JUDGE_PENDING,              /* requests in flight */
	JUDGE_DONE,                 /* v holds its verdict (ok, skipped or error) */
	JUDGE_UNREACHED,            /* nothing answered at its address: v is an error
	                             * saying how to start it; J tries again */
};

struct judge_cell {
	uint8_t state;
	double started_ms;          /* when it was asked, for "judging 3s" */
	struct verdict v;
};

enum review_row_kind {
	ROW_SCORER,
	ROW_JUDGE,
};

enum review_row_state {
	ROW_READY,                  /* v holds its verdict (ok, skipped or error) */
	ROW_PENDING,                /* a judge still answering */
	ROW_NOT_ASKED,              /* a judge not asked about this run yet */
	ROW_NO_RUN,                 /* no run given: only what the row is */
};

struct review_row {
	size_t index;               /* the row */
	enum review_row_kind kind;
	size_t slot;                /* its index among the scorers, or the judges */
	const char *id;
	const char *type;           /* a scorer's type, a judge's rubric */
	const char *config;         /* the configuration hash a decision records */
	struct scale span;          /* the scale with its range */
	enum review_row_state state;
	const struct verdict *v;    /* when ROW_READY */
	const struct scorer_conf *scorer;   /* ROW_SCORER */
	const struct judge_conf *judge;     /* ROW_JUDGE */
	const struct judge_cell *cell;      /* ROW_JUDGE: its cell, NULL without a run */
};

size_t review_nrows(const struct review *rv);
const char *review_row_id(const struct review *rv, size_t row);
/* Describes row `row` of run rr (rr may be NULL: then only what the row
 * is). False when there is no such row. */
bool review_row_get(const struct review *rv, const struct review_run *rr, size_t row,
                    struct review_row *out);
/* Why a row that is not ready cannot be decided, for a person:
 * "J1 has not answered for this run yet (J asks it)". */
void review_row_why(const struct review_row *r, char *buf, size_t n);

/* A judge's cell on an entry, made on first use; NULL when out of range. */
struct judge_cell *review_judge_cell(struct review *rv, size_t entry, size_t judge);
/* The same to read: NULL also when the entry has no judge cells yet. */
const struct judge_cell *review_judge_cell_at(const struct review *rv, size_t entry,
                                              size_t judge);
void review_judge_pending(struct review *rv, size_t entry, size_t judge, double now_ms);
/* Takes a copy of v. */
void review_judge_done(struct review *rv, size_t entry, size_t judge, const struct verdict *v);
/* Nothing answers at the judge's address: the cell says why, for a person. */
void review_judge_unreached(struct review *rv, size_t entry, size_t judge, const char *why);

/* Parses a human score for a row of the run under the cursor, on the
 * row's scale; -1 with a reason (and review_last_error) when it is off the
 * scale or the row's judge has not answered. */
int review_parse_row_score(struct review *rv, size_t row, const char *text, double *out,
                           struct error *err);
/* The same for a score given as a number (a digit key's label): -1 with
 * "expected ..." when the row's scale does not hold it. */
int review_row_takes(struct review *rv, size_t row, double score, struct error *err);

#endif
