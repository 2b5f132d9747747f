/* queue.c - the review queue: each run's key and size, the seeded sample with its chances, the weight a decision carries. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "review/queue.h"
#include "review/session.h"
#include "session_int.h"

#include "annot/store.h"
#include "judge/judge.h"
#include "util/hash.h"
#include "util/xalloc.h"

static const char *const queue_names[QUEUE_COUNT] = {
	"", "uncertain", "disagree", "errors", "random",
};

const char *review_queue_name(enum review_queue_kind k)
{
	return (unsigned)k < QUEUE_COUNT ? queue_names[k] : "?";
}

bool review_queue_parse(const char *s, enum review_queue_kind *out)
{
	for (unsigned k = QUEUE_UNCERTAIN; k < QUEUE_COUNT; k++)
		if (s && !strcmp(s, queue_names[k])) {
			*out = (enum review_queue_kind)k;
			return true;
		}
	return false;
}

/* splitmix64's finaliser over FNV-1a of the seed and the id: the low bits
 * of FNV alone are not uniform enough to draw by. */
double review_queue_uniform(uint64_t seed, const char *id)
{
	char s[24];
	snprintf(s, sizeof s, "%llu", (unsigned long long)seed);
	uint64_t z = hash_fnv1a_part(hash_fnv1a_part(HASH_FNV_SEED, s), id ? id : "");
	z += 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return (double)(z >> 11) * 0x1.0p-53;
}

/* qsort has no context: the sizes being sorted, set just around the call. */
static const double *sort_w;
static int cmp_w(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	if (sort_w[a] != sort_w[b])
		return sort_w[a] > sort_w[b] ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* Proportional to size, the largest capped at 1 in turn: a run whose share
 * n' w / S' of what is left reaches 1 is certain, and the rest share n'-1. */
void review_queue_chances(const double *w, size_t m, size_t n, double *pi)
{
	if (m == 0)
		return;
	if (n >= m) {
		for (size_t i = 0; i < m; i++)
			pi[i] = 1;
		return;
	}
	size_t *ix = xcalloc(m, sizeof *ix);
	double rest = 0;
	for (size_t i = 0; i < m; i++) {
		ix[i] = i;
		rest += w[i];
	}
	sort_w = w;
	if (m > 1)
		qsort(ix, m, sizeof *ix, cmp_w);
	size_t k = 0;
	while (k < m && rest > 0 && (double)(n - k) * w[ix[k]] >= rest) {
		pi[ix[k]] = 1;
		rest -= w[ix[k]];
		k++;
	}
	for (size_t j = k; j < m; j++)
		pi[ix[j]] = rest > 0 ? (double)(n - k) * w[ix[j]] / rest : 0;
	free(ix);
}

/* ---- each run's key and size ---------------------------------------------- */

static bool judge_distance(const struct review *rv, const struct review_entry *e, double *d)
{
	bool has = false;
	for (size_t j = 0; j < review_njudges(rv) && e->jcells; j++) {
		const struct judge_cell *c = &e->jcells[j];
		if (c->state != JUDGE_DONE || c->v.status != VERDICT_OK)
			continue;
		const struct judge_conf *jc = &rv->cfg->judges[j];
		struct scale sp = judge_span(jc);
		double range = sp.hi > sp.lo ? sp.hi - sp.lo : 1;
		double dj = fabs(c->v.score - jc->threshold) / range;
		if (!has || dj < *d)
			*d = dj;
		has = true;
	}
	return has;
}

static bool tool_errors_fail(const struct review *rv, const struct review_entry *e)
{
	for (size_t i = 0; i < review_nscorers(rv); i++)
		if (!strcmp(rv->cfg->scorers[i].ops->type, "tool-errors") &&
		    e->cells[i].status == VERDICT_OK && !e->cells[i].passed)
			return true;
	return false;
}

static void entry_key(struct review *rv, size_t i)
{
	struct review_entry *e = &rv->entries[i];
	e->queue_has = false;
	e->queue_key = 0;
	e->queue_w = QUEUE_FLOOR;
	if (!e->summarized || e->load_failed)
		return;
	double d = 0;
	bool hit;
	switch (rv->queue.kind) {
	case QUEUE_UNCERTAIN:
		e->queue_has = judge_distance(rv, e, &d);
		e->queue_key = d;
		e->queue_w = e->queue_has && 1 - 2 * d > QUEUE_FLOOR ? 1 - 2 * d : QUEUE_FLOOR;
		return;
	case QUEUE_DISAGREE:
	case QUEUE_ERRORS:
		hit = rv->queue.kind == QUEUE_ERRORS
		    ? tool_errors_fail(rv, e)
		    : (review_entry_disagreements(rv, i) & DIS_CODE_JUDGE) != 0;
		e->queue_has = hit;
		e->queue_w = hit ? 1 : QUEUE_FLOOR;
		return;
	case QUEUE_RANDOM:
		e->queue_has = true;
		e->queue_key = review_queue_uniform(rv->queue.seed, e->id);
		e->queue_w = 1;
		return;
	default:
		return;
	}
}

/* ---- the sample ------------------------------------------------------------- */

static int cmp_u(const void *pa, const void *pb)
{
	const double *a = pa, *b = pb;
	return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1];
}

/* random: the N runs of smallest u (pairs of u and entry, sorted). */
static void draw_equal(struct review *rv, const size_t *el, size_t m)
{
	double *pairs = xcalloc(2 * m + 2, sizeof *pairs);
	for (size_t k = 0; k < m; k++) {
		pairs[2 * k] = rv->entries[el[k]].queue_key;
		pairs[2 * k + 1] = (double)el[k];
	}
	if (m > 1)
		qsort(pairs, m, 2 * sizeof *pairs, cmp_u);
	size_t n = rv->queue.sample < m ? rv->queue.sample : m;
	for (size_t k = 0; k < m; k++) {
		struct review_entry *e = &rv->entries[(size_t)pairs[2 * k + 1]];
		e->queue_pi = (double)n / (double)m;
		e->in_queue = k < n;
	}
	free(pairs);
}

static void draw_poisson(struct review *rv, const size_t *el, size_t m)
{
	double *w = xcalloc(m + 1, sizeof *w), *pi = xcalloc(m + 1, sizeof *pi);
	for (size_t k = 0; k < m; k++)
		w[k] = rv->entries[el[k]].queue_w;
	review_queue_chances(w, m, rv->queue.sample, pi);
	for (size_t k = 0; k < m; k++) {
		struct review_entry *e = &rv->entries[el[k]];
		e->queue_pi = pi[k];
		e->in_queue = review_queue_uniform(rv->queue.seed, e->id) < pi[k];
	}
	free(w);
	free(pi);
}

static void draw(struct review *rv)
{
	size_t *el = xcalloc(rv->nentries + 1, sizeof *el), m = 0;
	for (size_t i = 0; i < rv->nentries; i++) {
		struct review_entry *e = &rv->entries[i];
		e->in_queue = false;
		e->queue_pi = 0;
		if (e->summarized && !e->load_failed)
			el[m++] = i;
	}
	if (rv->queue.kind == QUEUE_RANDOM)
		draw_equal(rv, el, m);
	else
		draw_poisson(rv, el, m);
	rv->queue.ndrawn = 0;
	for (size_t k = 0; k < m; k++)
		rv->queue.ndrawn += rv->entries[el[k]].in_queue;
	rv->queue.drawn = true;
	free(el);
}

void review_queue_prepare(struct review *rv)
{
	if (rv->queue.kind == QUEUE_NONE)
		return;
	/* A drawn sample keeps its chances: the weights already recorded
	 * stand for them. Its order may still follow new judge answers. */
	for (size_t i = 0; i < rv->nentries; i++) {
		double pi = rv->entries[i].queue_pi;
		bool in = rv->entries[i].in_queue;
		entry_key(rv, i);
		rv->entries[i].queue_pi = pi;
		rv->entries[i].in_queue = in;
	}
	if (rv->queue.sample && !rv->queue.drawn && !review_work_left(rv))
		draw(rv);
}

bool review_queue_holds(const struct review *rv, size_t entry)
{
	if (rv->queue.kind == QUEUE_NONE || !rv->queue.sample || !rv->queue.drawn)
		return true;
	return rv->entries[entry].in_queue;
}

static const struct review *sort_rv;
static int cmp_key(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	const struct review_entry *ea = &sort_rv->entries[a], *eb = &sort_rv->entries[b];
	if (ea->queue_has != eb->queue_has)
		return ea->queue_has ? -1 : 1;
	if (ea->queue_has && ea->queue_key != eb->queue_key)
		return ea->queue_key < eb->queue_key ? -1 : 1;
	return a < b ? -1 : a > b;
}

void review_queue_sort(const struct review *rv, size_t *view, size_t n)
{
	sort_rv = rv;
	if (n > 1)
		qsort(view, n, sizeof *view, cmp_key);
	sort_rv = NULL;
}

/* ---- what decisions and the status line say ---------------------------------- */

bool review_queue_weight(const struct review *rv, size_t entry, double *w)
{
	*w = 1;
	if (rv->queue.kind == QUEUE_NONE || !rv->queue.sample || !rv->queue.drawn ||
	    entry >= rv->nentries || !rv->entries[entry].in_queue ||
	    !(rv->entries[entry].queue_pi > 0))
		return false;
	*w = 1 / rv->entries[entry].queue_pi;
	return true;
}

void review_queue_stamp(const struct review *rv, size_t entry, struct decision *d)
{
	if (rv->queue.kind == QUEUE_NONE)
		return;
	d->queue = review_queue_name(rv->queue.kind);
	d->has_weight = review_queue_weight(rv, entry, &d->weight);
}

void review_queue_status(const struct review *rv, char *buf, size_t n)
{
	if (!n)
		return;
	buf[0] = '\0';
	if (rv->queue.kind == QUEUE_NONE)
		return;
	size_t len = rv->nview, at = len ? rv->cursor + 1 : 0;
	/* Short, so that it stays on an 80-column status line; the seed is
	 * the one given, else QUEUE_SEED_DEFAULT (the help and man page say it). */
	const char *how = !rv->queue.sample ? ""
	                : !rv->queue.drawn ? " (sample drawn when every run is scored)"
	                : rv->queue.kind == QUEUE_RANDOM ? " (sampled)"
	                : " (sampled, weighted)";
	snprintf(buf, n, "queue %s %zu/%zu%s", review_queue_name(rv->queue.kind), at, len, how);
}

const char *review_queue_unfit(const struct config *cfg, enum review_queue_kind kind)
{
	bool tool_errors = false;
	for (size_t i = 0; i < cfg->nscorers; i++)
		tool_errors |= !strcmp(cfg->scorers[i].ops->type, "tool-errors");
	if (kind == QUEUE_ERRORS && !tool_errors)
		return "it puts first the runs a tool-errors scorer fails, and the configuration has "
		       "none (add `- {id: tool-errors, type: tool-errors}` to scorers:)";
	if ((kind == QUEUE_UNCERTAIN || kind == QUEUE_DISAGREE) && !cfg->njudges)
		return kind == QUEUE_UNCERTAIN ?
		       "it puts first the runs whose judge scores are nearest the threshold, and the "
		       "configuration has no judge" :
		       "it puts first the runs where a code scorer and a judge disagree, and the "
		       "configuration has no judge";
	return NULL;
}
