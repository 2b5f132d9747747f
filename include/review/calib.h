/* calib.h - calibration figures: how far each machine verdict (a code
 * scorer, a judge) agrees with the reviewers' labels, the reviewers with
 * each other, code scorers with judges. Built from a review session once
 * its runs are summarized (verdict cells, judge cells from the cache) and
 * from its annotations; the calibration pane and `tcreview stats` show
 * the same figures.
 *
 * For each criterion (a row: a scorer or judge id) every pair with common
 * items is reported:
 *   scorer:ID | judge:ID  vs  human (the consensus), and vs each human:NAME
 *   human:A vs human:B for each reviewer pair, and "reviewers" (alpha over all)
 *   scorer:ID vs judge:ID on pass/fail (restricted by the YAML's compare:),
 *     under the judge's id, when both are selected
 * Categories by scale: an integer scale of three levels or more (1..5, a
 * custom 0..10; verdict/scale.h's scale_ordinal) its levels; binary, 0..1
 * and other continuous ranges fail, pass at the threshold. Pass/fail
 * figures (TPR, TNR, pass rates) are at the threshold on every scale. The
 * numbers themselves go into Spearman's rho, MAE and alpha (nominal for
 * binary, ordinal for integer scales, interval otherwise).
 * A figure that does not apply or is undefined has ok == false and, when
 * undefined, a why. */
#ifndef TCR_REVIEW_CALIB_H
#define TCR_REVIEW_CALIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "verdict/scale.h"
#include "util/error.h"

struct review;
struct split_spec;

enum calib_kind {
	CALIB_MACHINE_HUMAN,        /* "machine-human" */
	CALIB_HUMAN_HUMAN,          /* "human-human" */
	CALIB_REVIEWERS,            /* "reviewers": alpha over every reviewer, b none */
	CALIB_CODE_JUDGE,           /* "code-judge" */
};
const char *calib_kind_name(enum calib_kind k);

struct calib_fig {
	bool ok;
	double v;
	const char *why;            /* static text when undefined; NULL when n/a */
};

struct calib_ci {
	bool ok;
	double lo, hi;
};

/* One item of a pair: the entry and each side's category, value and
 * pass/fail. */
struct calib_item {
	size_t entry;
	int cat_a, cat_b;           /* category indexes into cat_names[] */
	double val_a, val_b;        /* the scores (0 or 1 for pass/fail pairs) */
	bool pass_a, pass_b;
	double w;                   /* 1/pi of a label made in a sampled queue, else 1 */
};

#define CALIB_MAX_CATS SCALE_MAX_LEVELS

struct calib_pair {
	char criterion[128];        /* the row's id, or "tag:ID" for a row declaring criterion: */
	char row[128];              /* the scorer's or judge's id the machine side comes from */
	bool tag;                   /* a failure mode's criterion: categories absent, present */
	bool present_pass;          /*   the row's passing verdict means present */
	bool calls;                 /* "calls:ID": per-call labels, items are calls, wrong/right */
	enum calib_kind kind;
	struct scale span;
	double threshold;
	char a[160], b[160];        /* "scorer:ID", "judge:ID", "human", "human:NAME"; b "" for reviewers */
	size_t n, ties, stale;      /* ties: runs left out for a tied consensus (pairs with
	                               "human"); stale: stale labels of the human side(s) */
	struct calib_fig agreement, kappa, kappa_quadratic, alpha, spearman, mae, within_one;
	struct calib_fig tpr, tnr, precision, pass_rate, pass_rate_corrected;
	size_t rated;               /* machine-human: runs with a machine verdict, all loaded
	                               ones (pass_rate's denominator) */
	struct calib_ci agreement_ci, kappa_ci, pass_rate_corrected_ci;
	size_t ncats;               /* confusion: ncats x ncats, rows a, columns b */
	char cat_names[CALIB_MAX_CATS][8];  /* "fail", "pass", or the levels "1" .. "5" */
	size_t counts[CALIB_MAX_CATS * CALIB_MAX_CATS];
	struct calib_item *items;   /* the n items, for filtering by a confusion cell */
	const char *note;           /* why figures are missing, or NULL (owned) */
	/* A label made while reviewing a sampled queue carries its weight 1/pi
	 * (the inverse of the run's chance to be drawn). When any item does,
	 * agreement, TPR, TNR, precision and so the corrected pass rate are
	 * weighted: ratios of Horvitz-Thompson sums (the Hajek form), which
	 * stay unbiased for the whole run set where the queue drew its runs
	 * with unequal chances, and which equal weights leave exactly as the
	 * unweighted figures. The machine's pass rate is over every loaded run
	 * (counted, not sampled) and needs none. Kappa, alpha and the rank
	 * figures stay unweighted. */
	bool weighted;
	double n_eff;               /* Kish's effective n: (sum w)^2 / sum w^2; n unweighted */
	/* The Wilson 95% interval of the agreement over n_eff items, and how
	 * many more labels bring its width under target_width at today's
	 * agreement (0.5, the widest, before any label), by
	 * agree_wilson_n_for_width: ceil(n_needed * n / n_eff) - n, the design
	 * effect of the weights kept for the labels to come. */
	struct calib_ci agreement_wilson;
	double target_width;
	bool labels_to_go_ok;       /* false: the pair has no agreement on categories */
	size_t labels_to_go;        /* 0: the interval is under the target already */
};

/* --judge A --judge B: both judges against the same human labels. */
struct calib_compare {
	char criterion_a[128], criterion_b[128];
	size_t n;
	struct calib_fig kappa_a, kappa_b, kappa_diff;
	struct calib_ci kappa_diff_ci;      /* paired bootstrap */
	size_t only_a, only_b;              /* McNemar's discordant counts */
	double mcnemar_p;
	size_t *one_agrees;                 /* entries where exactly one agrees with the human:
	                                       the only_a where A does, then the only_b where B does */
	size_t none_agrees;
	size_t n_one_agrees;
	size_t conflicts;                   /* runs left out: the humans' pass/fail on A's
	                                       row and on B's row differ */
	const char *note;                   /* owned, or NULL */
};

/* --sweep: a 1..5 or 0..1 judge at every threshold against human pass/fail. */
struct calib_sweep_point {
	double threshold;
	size_t n;
	struct calib_fig kappa, tpr, tnr;
};
struct calib_sweep {
	char criterion[128];
	struct scale span;
	double threshold;                   /* the configured one */
	struct calib_sweep_point *points;
	size_t npoints;
	size_t best;                        /* the point maximising kappa; npoints when none */
	const char *note;                   /* owned, or NULL */
};

struct calib_opts {
	bool include_stale;
	size_t bootstrap;                   /* resamples; 0 = no intervals */
	uint64_t seed;
	const char *const *criteria;        /* only these rows; NULL = every row */
	size_t ncriteria;
	const char *const *reviewers;       /* only these reviewers; NULL = all */
	size_t nreviewers;
	const char *const *compare_judges;  /* --judge A --judge B (two or more) */
	size_t ncompare_judges;
	bool sweep;
	/* Only the runs of these splits (annot/split.h), so a judge given
	 * few-shot examples from train is measured on test; none = every run.
	 * The pass rate is then over the split's runs too. */
	const struct split_spec *split;
	const char *const *only_splits;
	size_t nonly_splits;
	/* labels to go: the width the agreement's Wilson interval should get
	 * under; 0 = CALIB_TARGET_WIDTH. */
	double target_width;
};
#define CALIB_TARGET_WIDTH 0.1

struct calib {
	struct calib_pair *pairs;
	size_t npairs;
	struct calib_compare *compares;
	size_t ncompares;
	struct calib_sweep *sweeps;
	size_t nsweeps;
	size_t stale_total;                 /* stale labels seen (left out unless include_stale) */
	size_t labelled_runs;               /* runs with a counted label on a selected criterion */
	size_t nreviewers;                  /* the reviewers counted (all, or those asked for) */
};

/* Builds the figures from a session whose runs are all summarized (runs
 * not summarized yet are left out). Without bootstrap it is linear in
 * runs x rows x labels, so the screen may rebuild it as labels are saved.
 * Returns 0, or -1 with a reason (an unknown criterion or judge id, a
 * --judge that is a code scorer); c is then empty. */
int  calib_build(struct calib *c, const struct review *rv, const struct calib_opts *o,
                 struct error *err);
void calib_free(struct calib *c);

/* Per-call labels as their own criterion, "calls:ID" for each code
 * scorer whose ok verdicts list call_marks (trajectory-match, tool-errors,
 * unanswered-calls): its word on each labelled call (wrong when it marks
 * the call extra (not allowed), args, failed or no-result; else right)
 * against the reviewers' call labels (right from the call scale's pass),
 * per call: the consensus (a tie left out), each reviewer, each pair of
 * reviewers. Appended to c (built by calib_build with the same o); the
 * runs with a call label are loaded, so the session is not const and a
 * pointer to a run it handed out may be stale after. A scorer with no
 * labelled call gives no pair. */
void calib_calls(struct calib *c, struct review *rv, const struct calib_opts *o);

/* The machine-vs-human (consensus) pair of a criterion, or NULL. Every
 * selected criterion has one, even with no labels (n 0, a note). A row
 * declaring `criterion: TAG` is measured against the reviewers' tags
 * (labels: 1 when a reviewer tagged the run, or one of its calls, with a
 * code counting under TAG, 0 when that reviewer made any other standing
 * decision on the run), on present/absent; its pairs are named "tag:TAG"
 * and found here by that name or by the row's id. */
const struct calib_pair *calib_find(const struct calib *c, const char *criterion);

#endif
