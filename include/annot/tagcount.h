/* tagcount.h - every failure-mode tag and free code with the runs and
 * calls it counts, from the standing tag decisions of an annotations
 * store: what the tags pane and `tcreview tags` show.
 *
 * Rows: the defined tags first (in the configuration's order), then each
 * free code typed (its first spelling, codes equal by vocab_code_eq are
 * one), then any name aliases lead to that is neither. A row counts the
 * runs and calls tagged with a code whose name (vocab_tag_name: aliases,
 * then `absorbs`) is the row's, plus those tagged with the row's own code
 * (so a merged code still shows what it holds). */
#ifndef TCR_ANNOT_TAGCOUNT_H
#define TCR_ANNOT_TAGCOUNT_H

#include <stdbool.h>
#include <stddef.h>
#include "annot/store.h"
#include "annot/vocab.h"

struct tag_by {
	const char *reviewer;       /* borrowed from the store */
	size_t runs, calls;
};

struct tag_row {
	const char *name;           /* the code or the defined tag's id (borrowed) */
	const struct tag_def *def;  /* the defined tag, else NULL */
	const char *under;          /* a code counted under another name: that name; else NULL */
	size_t runs;                /* runs with the tag on the run or one of its calls */
	size_t calls;               /* calls tagged */
	struct tag_by *by;          /* per reviewer, sorted by name */
	size_t nby;
};

struct tag_table {
	struct tag_row *rows;
	size_t n;
};

/* Builds the table; pointers borrow from vo and s, valid while they are. */
void tag_table_build(struct tag_table *tt, const struct vocab *vo, const struct annot_store *s);
void tag_table_free(struct tag_table *tt);
/* The row of a name (vocab_code_eq), or NULL. */
const struct tag_row *tag_table_find(const struct tag_table *tt, const char *name);

#endif
