/* calib_int.h - what the calibration files share: each criterion's runs
 * with their machine verdict, counted labels and consensus. Not a public
 * header. */
#ifndef TCR_REVIEW_CALIB_INT_H
#define TCR_REVIEW_CALIB_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "review/calib.h"

struct review;

/* How a criterion's scale is figured. */
enum crit_how {
	HOW_BINARY,                 /* fail, pass */
	HOW_ORDINAL,                /* an integer scale's levels (1..5, a custom 0..10) */
	HOW_NUMERIC,                /* 0..1 or a continuous lo..hi: fail, pass at the threshold */
};

/* A label that counts (not stale, or stale and included). */
struct clabel {
	uint32_t who;               /* index into calib_ctx.who */
	bool pass;
	double score;
	double w;                   /* its decision's queue weight, 1 without */
};

/* One run of a criterion: it has a machine verdict or labels (or both). */
struct cunit {
	size_t entry;
	double m, c;                /* the machine's score, the consensus score */
	size_t lab;                 /* its labels: crit.labs[lab .. lab + nlab) */
	uint32_t nlab;
	bool has_m, m_pass;
	uint8_t cons;               /* enum consensus_result */
	bool c_pass;
	double w;                   /* the run's weight: the largest of its labels' (1 without) */
};

struct crit {
	size_t row;
	const char *id;             /* the criterion: the row's id, or tag_id */
	const char *row_id;         /* the scorer's or judge's id */
	/* `criterion: TAG` on the row (scorers/criterion.h): its verdicts say
	 * whether the failure mode is present, the labels are the reviewers'
	 * tags (calib_tags.c), and the scale is present/absent. */
	const char *tag;            /* the defined tag's id; NULL: labels on the row */
	bool present_pass;          /* a passing verdict means present */
	char tag_id[140];           /* "tag:ID", or "calls:ID" */
	bool calls;                 /* per-call labels (calib_calls.c): items are calls */
	bool judge;
	bool emit;                  /* its pairs are reported (else only gathered for --judge) */
	struct scale span;
	double threshold;
	enum crit_how how;
	char name[160];             /* "scorer:ID", "judge:ID" */
	struct cunit *units;        /* by entry, ascending */
	size_t nunits, ucap;
	struct clabel *labs;
	size_t nlabs, lcap;
	size_t *stale_by;           /* stale labels per reviewer */
	size_t stale, ties;
	size_t rated, passing;      /* machine verdicts over every loaded run */
};

struct calib_ctx {
	const struct review *rv;
	const struct calib_opts *o;
	const char **who;           /* the reviewers counted, sorted */
	size_t nwho;
	struct crit *crits;
	size_t ncrits;
	struct calib *out;
};

/* calib_figs.c: a new pair at the end of c->pairs (zeroed but for its
 * names, kind, scale and categories), and its figures from its items. */
struct calib_pair *calib_pair_add(struct calib *c, const struct crit *cr, enum calib_kind kind,
                                  const char *a, const char *b);
void calib_pair_figures(struct calib_pair *p, const struct crit *cr, const struct calib_opts *o);
/* "what: why; what, what: why" from the undefined figures, or NULL (malloc'd). */
char *calib_note_join(const char *const *what, const char *const *why, size_t n);

/* The category of a score on the criterion's scale. */
int calib_cat(const struct crit *cr, double score, bool pass);

/* calib_compare.c: --judge A --judge B, and --sweep. */
void calib_compares(struct calib_ctx *x);
void calib_sweeps(struct calib_ctx *x);

/* A growing array of items. */
struct itemvec {
	struct calib_item *v;
	size_t n, cap;
};
void itemvec_push(struct itemvec *iv, const struct calib_item *it);

#endif
