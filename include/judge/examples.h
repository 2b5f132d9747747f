/* examples.h - few-shot corrections: labelled runs shown to a judge with
 * the human label and reason, so it learns how the reviewers apply its
 * scale.
 *
 * A judge's `examples: {k, pick, split, splits, seed}` asks for k examples
 * from one split of the labelled runs (split.h: the same stable split
 * `tcreview export --split/--seed` writes, so a judge is never shown the
 * runs `stats` measures it on). The labels are known above the judge
 * layer: the caller hands the runner the candidates of each judge (a
 * judge_examples_fn in judge_runner_opts), and the judge layer chooses
 * among them for each run judged:
 *
 *   disagreements  runs where the judge's own verdict made without
 *                  examples (the same configuration without `examples:`,
 *                  as cached) differs in pass/fail from the human label,
 *                  first; then filled as stratified
 *   stratified     balanced over the scale's label values (an integer
 *                  scale such as 1..5: the levels; other scales: fail
 *                  and pass), round-robin
 *   recent         the latest labels by time
 *
 * Never the run being judged, never a run outside the named split. Ties
 * are broken by a hash of the judged run's id and the candidate's id, so
 * the same run gets the same examples every time. The chosen ids go into
 * the verdict's details ("examples": [ids]) and its cache key. */
#ifndef TCR_JUDGE_EXAMPLES_H
#define TCR_JUDGE_EXAMPLES_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "annot/split.h"
#include "runs/run.h"

#define JUDGE_EXAMPLES_MAX 20

enum judge_pick {
	PICK_DISAGREEMENTS,
	PICK_STRATIFIED,
	PICK_RECENT,
};

/* A judge's `examples:` as configured; k == 0 when it has none. */
struct judge_examples_conf {
	int k;                      /* 1..JUDGE_EXAMPLES_MAX */
	enum judge_pick pick;
	char split[32];             /* the split the examples come from */
	char *splits;               /* the spec text (SPLIT_DEFAULT unless given) */
	uint64_t seed;
	struct split_spec spec;     /* splits parsed with seed */
	int line, col;              /* of the `examples:` mapping */
};

/* One labelled run a judge may be shown: a caller's, valid while the
 * runner may call for it. */
struct judge_example {
	const char *run_id;
	const struct run *run;      /* loaded; rendered like the run judged */
	double score;               /* the human label on the judge's scale */
	bool passed;                /* by the judge's threshold */
	const char *reason;         /* the reviewer's reason; NULL when none */
	const char *at;             /* ISO-8601 UTC of the label */
};

/* The candidates of judge `judge_id` (every labelled run of it; the
 * choice excludes runs outside the split and the run judged). Returns how
 * many are at *out. */
typedef size_t (*judge_examples_fn)(void *ctx, const char *judge_id,
                                    const struct judge_example **out);

/* The judge's own verdict on a candidate, for disagreements: 1 passed,
 * 0 failed, -1 unknown. */
typedef int (*judge_verdict_fn)(void *ctx, const struct judge_example *c);

struct judge_conf;

/* "disagreements", "stratified", "recent"; judge_pick_find: -1 unknown. */
const char *judge_pick_name(enum judge_pick p);
int judge_pick_find(const char *name);

/* Whether a candidate may be shown when `judged_id` is judged: in the
 * judge's split and not that run. */
bool judge_example_allowed(const struct judge_conf *j, const char *judged_id,
                           const struct judge_example *c);

/* Chooses up to j->examples.k candidates for the run `judged_id` into out
 * (room for JUDGE_EXAMPLES_MAX), in the order they are shown. verdict may
 * be NULL (no verdicts known: disagreements is then stratified). Returns
 * how many. */
size_t judge_examples_pick(const struct judge_conf *j, const char *judged_id,
                           const struct judge_example *cands, size_t n,
                           judge_verdict_fn verdict, void *vctx,
                           const struct judge_example **out);

/* The text of {{examples}}: "" for none; else a lead, each example as the
 * prompts show a run (the request, the calls with their arguments and
 * results, whole calls up to 8000 bytes and a line counting the others,
 * the final answer) with the label and reason, ending in a blank line so
 * that the placeholder may begin a line of the prompt. malloc'd. */
char *judge_examples_render(const struct judge_conf *j, const struct judge_example *const *ex,
                            size_t n);

/* The chosen ids as a JSON array (new reference). */
json_t *judge_examples_ids(const struct judge_example *const *ex, size_t n);

#endif
