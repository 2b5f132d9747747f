/* export_refs.h - `export --references` (src/cli/export_refs.c): the
 * corrected trajectories the reviewers' call labels and corrections make,
 * in the form trajectory-match reads as its reference. */
#ifndef TCR_CLI_EXPORT_REFS_H
#define TCR_CLI_EXPORT_REFS_H

#include <stdbool.h>
#include <stddef.h>

#include "review/session.h"
#include "util/error.h"

struct export_refs_opts {
	const char *const *reviewers;   /* only theirs (nreviewers 0: everyone's, the latest counts) */
	size_t nreviewers;
	const char *output;             /* NULL or "-": standard output; else written atomically */
	bool by_run;                    /* a line per run even with an expectations join */
	const char *prog;               /* for the messages on stderr */
};

/* Writes a line per run with call decisions (per task with the
 * configuration's expectations join, unless by_run). 0, or -1 with why. */
int export_references(struct review *rv, const struct export_refs_opts *o, struct error *err);

#endif
