/* judge_pairs.h - `tcreview judge --pairs`: pairwise judges on pairs of
 * runs (cli/judge_pairs.c). */
#ifndef TCR_CLI_JUDGE_PAIRS_H
#define TCR_CLI_JUDGE_PAIRS_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/cli.h"
#include "config/config.h"

struct format_ops;

/* What `tcreview judge` hands on for --pairs. */
struct judge_pairs_opts {
	struct cli_context *ctx;
	const struct config *cfg;
	const char *const *only;        /* --judge: these pairwise judges; none: all */
	size_t nonly;
	const char *const *annot;       /* -a: the preferences' files; none: the default */
	size_t nannot;
	const char *task;               /* --task, or NULL */
	bool compare;                   /* --compare: the two inputs are BASE and CAND */
	bool refresh;
	long concurrency;
	const char *ca_file;
	const struct format_ops *forced;
};

/* Judges every standing preference whose two runs are among the inputs,
 * and with compare, per task, base's and the candidate's trials paired in
 * input order; one JSON line per pair and judge on stdout. Returns the
 * exit status. */
int judge_pairs_run(const struct judge_pairs_opts *o, char **files, size_t nfiles);

#endif
