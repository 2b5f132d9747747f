/* prefs.c - the reviewers' preferences between two runs counted, compared between reviewers, and each pairwise judge's cached answers measured against them.
 *
 * Every answer is turned to one orientation per pair (the run that comes
 * first in the inputs is the base) before two are compared, so a pair labelled
 * one way round and judged or labelled the other counts as the same pair.
 * The judge's answers come from the cache only (judge_runner_pair_answer
 * tries both orders); the two runs of each pair are read from the session's
 * dataset for their keys, and freed at once. */
#include "review/prefs.h"

#include <stdlib.h>
#include <string.h>

#include "annot/store.h"
#include "judge/judge.h"
#include "judge/runner.h"
#include "util/agree.h"
#include "util/hash.h"
#include "util/htab.h"
#include "util/xalloc.h"
#include "util/error.h"

struct item {
	const struct decision *d;
	size_t pair;                /* index into the distinct pairs */
	int cat;                    /* the answer, turned to the pair's orientation */
};

struct upair {
	size_t lo, hi;              /* entries: lo is the base */
	int consensus;              /* -1: the reviewers differ */
};

struct gather {
	struct review *rv;
	const char *const *reviewers;
	size_t nreviewers;
	bool include_stale;
	struct prefs *p;
	struct item *items;
	size_t nitems, cap;
	struct upair *pairs;
	size_t npairs, pcap;
	struct htab ids;            /* the readable entries by run id, made at the first preference */
	bool ids_made;
};

const char *prefs_cat_name(size_t cat)
{
	return cat < PREFS_CATS ? annot_preference_name((enum preference)(cat + 1)) : "?";
}

static bool entry_is(const void *item, const void *key)
{
	return strcmp(((const struct review_entry *)item)->id, key) == 0;
}

static uint64_t id_hash(const char *id)
{
	return hash_fnv1a(id, strlen(id), HASH_FNV_SEED);
}

/* The first readable entry of a run id, or -1: one lookup, the table made
 * once (a run's id may stand twice; the first read is the one meant). */
static long entry_named(struct gather *g, const char *id)
{
	struct review *rv = g->rv;
	if (!g->ids_made) {
		for (size_t i = 0; i < rv->nentries; i++) {
			struct review_entry *e = &rv->entries[i];
			if (!e->summarized || e->load_failed || !e->id)
				continue;
			void **slot = htab_put(&g->ids, id_hash(e->id), entry_is, e->id);
			if (!*slot)
				*slot = e;
		}
		g->ids_made = true;
	}
	const struct review_entry *e = id ? htab_get(&g->ids, id_hash(id), entry_is, id) : NULL;
	return e ? (long)(e - rv->entries) : -1;
}

/* A decision's hash of a run that the record no longer has. */
static bool changed(const struct review_entry *e, const char *hash)
{
	char now[65];
	return hash && review_entry_hash(e, now) && strcmp(now, hash) != 0;
}

static bool wanted(const struct gather *g, const char *reviewer)
{
	if (!g->nreviewers)
		return true;
	for (size_t i = 0; i < g->nreviewers; i++)
		if (!strcmp(g->reviewers[i], reviewer))
			return true;
	return false;
}

/* The pair of entries a and b, oriented by input order (the one read first
 * is the base); *turned says a is not. */
static size_t pair_of(struct gather *g, size_t a, size_t b, bool *turned)
{
	*turned = a > b;
	size_t lo = *turned ? b : a, hi = *turned ? a : b;
	for (size_t i = 0; i < g->npairs; i++)
		if (g->pairs[i].lo == lo && g->pairs[i].hi == hi)
			return i;
	if (g->npairs == g->pcap) {
		g->pcap = g->pcap ? g->pcap * 2 : 32;
		g->pairs = xrealloc(g->pairs, g->pcap * sizeof *g->pairs);
	}
	g->pairs[g->npairs] = (struct upair){ lo, hi, -1 };
	return g->npairs++;
}

static struct prefs_reviewer *reviewer_row(struct prefs *p, const char *name)
{
	for (size_t i = 0; i < p->nrev; i++)
		if (!strcmp(p->rev[i].reviewer, name))
			return &p->rev[i];
	p->rev = xrealloc(p->rev, (p->nrev + 1) * sizeof *p->rev);
	memset(&p->rev[p->nrev], 0, sizeof *p->rev);
	p->rev[p->nrev].reviewer = name;
	return &p->rev[p->nrev++];
}

static void take(void *ctx, const struct decision *d)
{
	struct gather *g = ctx;
	if (d->kind != DEC_PREFER || d->prefer == PREF_NONE || !wanted(g, d->reviewer))
		return;
	long a = entry_named(g, d->run), b = entry_named(g, d->other);
	if (a < 0 || b < 0) {
		g->p->missing++;
		return;
	}
	if (!g->include_stale && (changed(&g->rv->entries[a], d->run_hash) ||
	                          changed(&g->rv->entries[b], d->other_hash))) {
		g->p->stale++;
		return;
	}
	bool turned;
	size_t pair = pair_of(g, (size_t)a, (size_t)b, &turned);
	enum preference pref = turned ? judge_pair_flip(d->prefer) : d->prefer;
	if (g->nitems == g->cap) {
		g->cap = g->cap ? g->cap * 2 : 64;
		g->items = xrealloc(g->items, g->cap * sizeof *g->items);
	}
	g->items[g->nitems++] = (struct item){ d, pair, (int)pref - 1 };
	struct prefs_reviewer *r = reviewer_row(g->p, d->reviewer);
	r->pairs++;
	r->count[d->prefer - 1]++;
	g->p->labels++;
}

/* The consensus of each pair: the answer every reviewer gave, else none. */
static void consensus(struct gather *g)
{
	for (size_t i = 0; i < g->npairs; i++) {
		int c = -2;
		for (size_t k = 0; k < g->nitems; k++) {
			if (g->items[k].pair != i)
				continue;
			c = c == -2 || c == g->items[k].cat ? g->items[k].cat : -1;
		}
		g->pairs[i].consensus = c < 0 ? -1 : c;
	}
}

/* Two reviewers on the pairs both labelled. */
static void between(struct gather *g)
{
	struct prefs *p = g->p;
	int *a = xcalloc(g->npairs + 1, sizeof *a), *b = xcalloc(g->npairs + 1, sizeof *b);
	for (size_t r1 = 0; r1 < p->nrev; r1++)
		for (size_t r2 = r1 + 1; r2 < p->nrev; r2++) {
			size_t n = 0;
			for (size_t x = 0; x < g->nitems; x++) {
				if (strcmp(g->items[x].d->reviewer, p->rev[r1].reviewer))
					continue;
				for (size_t y = 0; y < g->nitems; y++)
					if (g->items[y].pair == g->items[x].pair &&
					    !strcmp(g->items[y].d->reviewer, p->rev[r2].reviewer)) {
						a[n] = g->items[x].cat;
						b[n++] = g->items[y].cat;
					}
			}
			if (!n)
				continue;
			p->between = xrealloc(p->between, (p->nbetween + 1) * sizeof *p->between);
			struct prefs_between *bw = &p->between[p->nbetween++];
			memset(bw, 0, sizeof *bw);
			bw->a = p->rev[r1].reviewer;
			bw->b = p->rev[r2].reviewer;
			bw->n = n;
			for (size_t i = 0; i < n; i++)
				bw->same += a[i] == b[i];
			agree_why why;
			bw->agreement_ok = agree_exact(a, b, n, &bw->agreement, &why);
			bw->kappa_ok = agree_kappa(a, b, n, PREFS_CATS, &bw->kappa, &why);
			bw->kappa_why = why;
		}
	free(a);
	free(b);
}

/* The judge's answer on each pair, in the pair's orientation (-1: none). */
static int *judge_answers(struct gather *g, const struct judge_runner *runner)
{
	const struct config *c = g->rv->cfg;
	size_t nj = c->npair_judges;
	int *ans = xcalloc(g->npairs * nj + 1, sizeof *ans);
	for (size_t i = 0; i < g->npairs * nj; i++)
		ans[i] = -1;
	for (size_t i = 0; runner && nj && i < g->npairs; i++) {
		struct error err = {0};
		struct run *a = review_entry_run(g->rv, g->pairs[i].lo, &err);
		struct run *b = review_entry_run(g->rv, g->pairs[i].hi, &err);
		for (size_t k = 0; a && b && k < nj; k++) {
			enum preference pref = judge_runner_pair_answer(runner, &c->pair_judges[k], a, b, NULL);
			if (pref != PREF_NONE)
				ans[i * nj + k] = (int)pref - 1;
		}
		run_free(a);
		run_free(b);
	}
	return ans;
}

static void judge_fig(struct prefs_judge *f, const int *human, const int *machine, size_t n)
{
	agree_why why;
	f->n = n;
	for (size_t i = 0; i < n; i++)
		f->same += human[i] == machine[i];
	agree_confusion(human, machine, n, PREFS_CATS, f->confusion);
	f->agreement_ok = agree_exact(human, machine, n, &f->agreement, &why);
	if (f->agreement_ok && !agree_wilson(f->agreement, (double)n, AGREE_Z95, &f->low, &f->high))
		f->low = f->high = f->agreement;
	f->kappa_ok = agree_kappa(human, machine, n, PREFS_CATS, &f->kappa, &why);
	f->kappa_why = why;
}

/* Per judge: each reviewer's pairs with an answer, then the consensus. */
static void judges(struct gather *g, const int *ans)
{
	struct prefs *p = g->p;
	const struct config *c = g->rv->cfg;
	size_t nj = c->npair_judges;
	int *h = xcalloc(g->nitems + g->npairs + 1, sizeof *h);
	int *m = xcalloc(g->nitems + g->npairs + 1, sizeof *m);
	p->judges = xcalloc(nj * (p->nrev + 1) + 1, sizeof *p->judges);
	for (size_t k = 0; k < nj; k++)
		for (size_t r = 0; r <= p->nrev; r++) {
			size_t n = 0;
			if (r < p->nrev) {
				for (size_t x = 0; x < g->nitems; x++)
					if (!strcmp(g->items[x].d->reviewer, p->rev[r].reviewer) &&
					    ans[g->items[x].pair * nj + k] >= 0) {
						h[n] = g->items[x].cat;
						m[n++] = ans[g->items[x].pair * nj + k];
					}
			} else {
				for (size_t i = 0; i < g->npairs; i++)
					if (g->pairs[i].consensus >= 0 && ans[i * nj + k] >= 0) {
						h[n] = g->pairs[i].consensus;
						m[n++] = ans[i * nj + k];
					}
			}
			struct prefs_judge *f = &p->judges[p->njudges++];
			f->judge = c->pair_judges[k].id;
			f->reviewer = r < p->nrev ? p->rev[r].reviewer : NULL;
			judge_fig(f, h, m, n);
		}
	free(h);
	free(m);
}

void review_prefs(struct prefs *p, struct review *rv, const struct judge_runner *runner,
                  const char *const *reviewers, size_t nreviewers, bool include_stale)
{
	memset(p, 0, sizeof *p);
	struct gather g = {
		.rv = rv, .reviewers = reviewers, .nreviewers = nreviewers,
		.include_stale = include_stale, .p = p,
	};
	if (rv->annot)
		annot_each_standing(rv->annot, take, &g);
	p->pairs = g.npairs;
	consensus(&g);
	between(&g);
	if (g.npairs && rv->cfg->npair_judges) {
		int *ans = judge_answers(&g, runner);
		judges(&g, ans);
		free(ans);
	}
	free(g.items);
	free(g.pairs);
	htab_free(&g.ids);
}

void prefs_free(struct prefs *p)
{
	free(p->rev);
	free(p->between);
	free(p->judges);
	memset(p, 0, sizeof *p);
}
