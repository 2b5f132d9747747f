/* queue.h - the review queue (`--queue`): which runs a reviewer sees first,
 * or a sample of them drawn with known chances, so that figures made from
 * the sample's labels can be weighted back to the whole run set.
 *
 * Orders (no --sample): the runs the queue is about first, the others after
 * in file order:
 *   uncertain  the nearest judge score to its threshold, on the scale made
 *              0..1: d = |score - threshold| / (hi - lo), smallest first
 *              (the smallest d over the run's judges); no judge verdict: after
 *   disagree   a code scorer and a judge differ on pass/fail (the compare:
 *              pairs when set), first
 *   errors     a tool-errors scorer fails the run (a failed tool result), first
 *   random     a seeded shuffle
 *
 * Samples (--sample N), drawn once every run is scored and then kept (a
 * judge answering later does not redraw it), each run by a uniform u in
 * [0, 1) hashed from the seed and its id, so the same seed draws the same
 * runs whatever the order of the inputs:
 *   random     the N runs of smallest u: equal chances, pi = N / M over the
 *              M runs that loaded
 *   the others Poisson sampling with unequal chances: each run has a size
 *              w_i (uncertain: max(0.1, 1 - 2 d), and 0.1 without a judge
 *              verdict; disagree, errors: 1 for a run the queue is about,
 *              0.1 otherwise; the floor gives every run a chance), and
 *              pi_i = min(1, n w_i / sum w) with n = N, the runs that reach
 *              1 taken out and the rest shared again until none passes 1,
 *              so that sum pi_i = N; run i is drawn when u_i < pi_i.
 * A decision made on a drawn run records weight = 1/pi_i and the queue's
 * name (annot/store.h); an order records the name only. */
#ifndef TCR_REVIEW_QUEUE_H
#define TCR_REVIEW_QUEUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct review;
struct decision;

enum review_queue_kind {
	QUEUE_NONE,
	QUEUE_UNCERTAIN,
	QUEUE_DISAGREE,
	QUEUE_ERRORS,
	QUEUE_RANDOM,
	QUEUE_COUNT,
};

/* The seed a sample takes when none is given (printed by the command). */
#define QUEUE_SEED_DEFAULT 26u
/* The smallest size a run has in a sample of unequal chances. */
#define QUEUE_FLOOR 0.1

struct review_queue {
	enum review_queue_kind kind;
	size_t sample;              /* N: 0 orders every run */
	uint64_t seed;
	bool seed_given;            /* --seed was given (else QUEUE_SEED_DEFAULT) */
	bool drawn;                 /* the sample is drawn (entries' queue_pi hold it) */
	bool placed;                /* the cursor was put on the queue's first run */
	size_t ndrawn;              /* runs drawn */
};

const char *review_queue_name(enum review_queue_kind k);
/* The kind named s; false for an unknown name. */
bool review_queue_parse(const char *s, enum review_queue_kind *out);

/* Sets the queue (NULL or kind QUEUE_NONE: none) and rebuilds the view. */
void review_set_queue(struct review *rv, const struct review_queue *q);

/* view.c's: the queue's key of each summarized entry (and, once every run
 * is scored, the sample), before the view is built. */
void review_queue_prepare(struct review *rv);
/* Whether an entry is in the queue (every entry without a sample, and
 * before the sample is drawn). */
bool review_queue_holds(const struct review *rv, size_t entry);
/* Orders the view's entries by the queue (ties in file order). */
void review_queue_sort(const struct review *rv, size_t *view, size_t n);

/* The weight 1/pi a decision on this entry carries; false without a
 * sample (or for an entry not drawn). */
bool review_queue_weight(const struct review *rv, size_t entry, double *w);
/* Puts the queue's name and weight on a decision about this entry. */
void review_queue_stamp(const struct review *rv, size_t entry, struct decision *d);
/* "queue uncertain 12/50 (sampled, weighted)", "queue random 3/10 (sampled)": the position in the view
 * and its length; "" without a queue. */
void review_queue_status(const struct review *rv, char *buf, size_t n);

/* The pieces, for tests: the uniform u of an id under a seed, and the
 * inclusion chances of sizes w[0..m) for a sample of n (sum = min(n, m)
 * when every w > 0). */
double review_queue_uniform(uint64_t seed, const char *id);
void review_queue_chances(const double *w, size_t m, size_t n, double *pi);

/* Why a queue of this kind could order nothing with this configuration
 * (errors with no tool-errors scorer, uncertain or disagree with no
 * judge), or NULL: said before the screen opens, not left silent. */
struct config;
const char *review_queue_unfit(const struct config *cfg, enum review_queue_kind kind);

#endif
