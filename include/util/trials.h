/* trials.h - consistency over repeated trials and paired change: pure arithmetic.
 *
 * A task run n times, c of which passed. pass^k is the chance that k
 * trials drawn without replacement from the n all pass, C(c,k)/C(n,k)
 * (tau-bench's consistency figure; the unbiased estimator of p^k), and
 * pass@k the chance that at least one of k passes, 1 - C(n-c,k)/C(n,k)
 * (the code-generation figure). Over tasks each is the mean of the
 * per-task values, for k up to the fewest trials any task has.
 *
 * McNemar's exact test compares paired outcomes (a task before and after
 * a change): only the discordant tasks count, b that went one way and c
 * the other, and under "no change" each is a fair coin. */
#ifndef TCR_UTIL_TRIALS_H
#define TCR_UTIL_TRIALS_H

#include <stdbool.h>
#include <stddef.h>

/* One task's trials: n run, c of them passed (c <= n). */
struct trials_task {
	unsigned n, c;
};

/* C(c,k)/C(n,k); false (and *out 0) when k is 0 or more than n, or c > n. */
bool trials_pass_hat_k(unsigned n, unsigned c, unsigned k, double *out);
/* 1 - C(n-c,k)/C(n,k); false as trials_pass_hat_k is. */
bool trials_pass_at_k(unsigned n, unsigned c, unsigned k, double *out);

/* The largest k every task reaches: the fewest trials of any task with at
 * least one (0 when there is none). Tasks with n == 0 are left out. */
unsigned trials_k_max(const struct trials_task *t, size_t ntasks);
/* The mean over tasks (those with n >= 1) of pass^k (at == false) or
 * pass@k (at == true); false when no task has k trials or more, or some
 * task with trials has fewer than k. *counted is how many tasks it averaged. */
bool trials_mean(const struct trials_task *t, size_t ntasks, unsigned k, bool at,
                 double *out, size_t *counted);

/* pass^k and pass@k for every k from 1 to kmax at once, the same values
 * as trials_mean gives bit for bit, in one pass over the tasks per k:
 * the ratio for k is the one for k-1 times one factor, where trials_mean
 * for each k would take k factors a task (a key every run shares, one task
 * of 100 000 trials, would cost 10^10). hat[k-1] and at[k-1] (either may
 * be NULL) get the means over the tasks with trials; false when kmax is 0
 * or beyond trials_k_max. *counted is how many tasks were averaged. */
bool trials_curve(const struct trials_task *t, size_t ntasks, unsigned kmax, double *hat,
                  double *at, size_t *counted);

/* McNemar's exact two-sided p-value for b and c discordant pairs:
 * min(1, 2 * P(X <= min(b, c))), X ~ Binomial(b + c, 1/2); 1 when b + c
 * is 0. Exact in doubles for any count (summed in logs, no underflow). */
double trials_mcnemar_exact(unsigned b, unsigned c);

#endif
