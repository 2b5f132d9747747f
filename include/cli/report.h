/* report.h - how `tcreview score` writes verdicts: one writer per format. */
#ifndef TCR_CLI_REPORT_H
#define TCR_CLI_REPORT_H

#include <stdio.h>
#include "cli/score_trials.h"
#include "config/config.h"
#include "scorers/scorer.h"
#include "util/jsonw.h"
#include "util/strbuf.h"

/* Totals per scorer, kept while scoring; also decide --fail-under. */
struct score_stats {
	size_t runs, scored, passed, skipped, errors;
	double sum;
};

struct report_row {
	const char *run_id;
	const char *source;
	const struct scorer_conf *sc;
	const struct verdict *v;
	const char *format;         /* the loader that read the run; NULL when it did not parse */
};

struct report_ops {
	const char *name;
	void *(*open)(FILE *out, const struct config *c);
	void  (*row)(void *state, const struct report_row *row);
	void  (*close)(void *state, const struct score_stats *stats);   /* one per scorer */
	/* Optional, for a format whose rows stand alone (jsonl): appends the
	 * text row() would write, touching no state, so any thread may render
	 * rows; emit() then writes rendered text where row() writes. memo (may
	 * be NULL) is util/jsonw's for out, for the rows of one run. */
	void  (*render)(const struct report_row *row, struct jsonw_memo *memo, struct strbuf *out);
	void  (*emit)(void *state, const char *text, size_t len);
	/* Optional: pass^k and pass@k by task (score --task), written after
	 * close(); a format without it (junit) leaves them out. */
	void  (*trials)(FILE *out, FILE *err, const struct config *c, const struct score_trials *t);
};

const struct report_ops *report_find(const char *name);
extern const char *const report_names;    /* "jsonl, table, junit" */

#endif
