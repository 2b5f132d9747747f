/* score_trials.c - score's verdicts counted by task, and each scorer's pass^k and pass@k. */
#include "cli/score_trials.h"

#include <stdlib.h>
#include <string.h>

#include "util/hash.h"
#include "util/htab.h"
#include "util/xalloc.h"

/* One task: its text and its counts, one per scorer. */
struct task_counts {
	char *task;
	struct trials_task counts[];
};

struct score_trials {
	char *spec;
	size_t nscorers;
	struct htab index;              /* task text -> struct task_counts */
	struct task_counts **tasks;     /* in the order first seen */
	size_t ntasks, cap;
	size_t *left_out;               /* per scorer: skipped or error */
	size_t runs, untasked;
};

struct score_trials *score_trials_new(const char *spec, size_t nscorers)
{
	struct score_trials *t = xcalloc(1, sizeof *t);
	t->spec = xstrdup(spec);
	t->nscorers = nscorers;
	t->left_out = xcalloc(nscorers ? nscorers : 1, sizeof *t->left_out);
	return t;
}

void score_trials_free(struct score_trials *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->ntasks; i++) {
		free(t->tasks[i]->task);
		free(t->tasks[i]);
	}
	free(t->tasks);
	htab_free(&t->index);
	free(t->left_out);
	free(t->spec);
	free(t);
}

const char *score_trials_spec(const struct score_trials *t)
{
	return t->spec;
}

static bool task_is(const void *item, const void *key)
{
	return strcmp(((const struct task_counts *)item)->task, key) == 0;
}

struct trials_task *score_trials_task(struct score_trials *t, const char *task)
{
	t->runs++;
	if (!task) {
		t->untasked++;
		return NULL;
	}
	void **slot = htab_put(&t->index, hash_fnv1a(task, strlen(task), HASH_FNV_SEED), task_is,
	                       task);
	if (!*slot) {
		struct task_counts *tc = xcalloc(1, sizeof *tc + t->nscorers * sizeof tc->counts[0]);
		tc->task = xstrdup(task);
		if (t->ntasks == t->cap) {
			t->cap = t->cap ? t->cap * 2 : 64;
			t->tasks = xrealloc(t->tasks, t->cap * sizeof *t->tasks);
		}
		t->tasks[t->ntasks++] = tc;
		*slot = tc;
	}
	return ((struct task_counts *)*slot)->counts;
}

void score_trials_verdict(struct score_trials *t, struct trials_task *counts, size_t scorer,
                          enum verdict_status status, bool passed)
{
	if (!counts || scorer >= t->nscorers)
		return;
	if (status != VERDICT_OK) {
		t->left_out[scorer]++;
		return;
	}
	counts[scorer].n++;
	counts[scorer].c += passed;
}

/* pass^k and pass@k for every k to nk, in one pass per k (util/trials). */
static void means(const struct trials_task *col, size_t ntasks, unsigned nk,
                  struct score_trials_figs *out)
{
	double *hat = xcalloc(nk, sizeof *hat), *at = xcalloc(nk, sizeof *at);
	size_t m;
	trials_curve(col, ntasks, nk, hat, at, &m);
	for (unsigned k = 1; k <= nk; k++)
		out->k[k - 1] = (struct score_passk){ .k = k, .hat = hat[k - 1], .at = at[k - 1],
		                                      .tasks = m };
	out->nk = nk;
	free(hat);
	free(at);
}

void score_trials_figures(const struct score_trials *t, size_t i, struct score_trials_figs *out)
{
	*out = (struct score_trials_figs){ .left_out = i < t->nscorers ? t->left_out[i] : 0 };
	if (i >= t->nscorers || !t->ntasks)
		return;
	struct trials_task *col = xcalloc(t->ntasks, sizeof *col);
	for (size_t j = 0; j < t->ntasks; j++) {
		col[j] = t->tasks[j]->counts[i];
		out->tasks += col[j].n > 0;
		out->trials += col[j].n;
	}
	unsigned nk = trials_k_max(col, t->ntasks);
	if (nk) {
		out->k = xcalloc(nk, sizeof *out->k);
		means(col, t->ntasks, nk, out);
	}
	free(col);
}

void score_trials_figs_free(struct score_trials_figs *f)
{
	free(f->k);
	f->k = NULL;
	f->nk = 0;
}

size_t score_trials_untasked(const struct score_trials *t)
{
	return t->untasked;
}

size_t score_trials_runs(const struct score_trials *t)
{
	return t->runs;
}
