/* stats_report.h - how `tcreview stats` writes the calibration figures:
 * an aligned table with a heat-map of each confusion matrix, JSONL lines
 * with fixed keys, or CSV. */
#ifndef TCR_CLI_STATS_REPORT_H
#define TCR_CLI_STATS_REPORT_H

#include <stdio.h>

#include "review/calib.h"
#include "review/failmodes.h"
#include "review/prefs.h"

struct review;

/* What the writers say besides the figures. */
struct stats_meta {
	size_t runs;                /* loaded runs */
	bool include_stale;
	const char *no_labels;      /* why there are no labels at all, or NULL */
	const struct failmodes *failmodes;  /* the tags' failure modes; NULL or empty: none */
	const struct prefs *prefs;  /* preferences and pairwise judges; NULL or none: nothing */
};

/* Writes every pair, comparison and sweep of c; entries are named by
 * rv's run ids. Returns 0, or -1 when an output format is unknown. */
int stats_write(FILE *out, const char *format, const struct calib *c, struct review *rv,
                const struct stats_meta *m);
/* The table alone (stats_table.c). */
void stats_write_table(FILE *out, const struct calib *c, struct review *rv,
                       const struct stats_meta *m);
/* The failure modes (stats_failmodes.c): a table, or one JSONL line per
 * failure mode and reviewer with fixed keys ({"type": "failure-mode",
 * "tag", "defined", "reviewer" (null: all), "runs", "reviewed", "share",
 * "low", "high", "calls"}). Nothing when there is none. */
void stats_failmodes_table(FILE *out, const struct failmodes *fm);
void stats_failmodes_jsonl(FILE *out, const struct failmodes *fm);
/* The preferences between two runs and the pairwise judges (stats_prefs.c):
 * a table, or JSONL lines with fixed keys: {"type": "preferences",
 * "reviewer", "pairs", "base", "cand", "tie", "both_bad"} per reviewer and
 * one with reviewer null (all: "pairs" distinct, "labels", "stale");
 * {"type": "preference-agreement", "a", "b", "n", "same", "agreement",
 * "kappa"} per two reviewers; {"type": "pairwise", "judge", "reviewer"
 * (null: the consensus), "n", "same", "agreement", "low", "high", "kappa",
 * "kappa_why", "confusion" (rows: the reviewer, columns: the judge, in the
 * order base, cand, tie, both-bad)}. Nothing when no preference stands. */
void stats_prefs_table(FILE *out, const struct prefs *p);
void stats_prefs_jsonl(FILE *out, const struct prefs *p);
/* "table, jsonl, csv" */
extern const char *const stats_formats;
bool stats_format_known(const char *format);

#endif
