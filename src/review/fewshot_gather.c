/* fewshot_gather.c - the examples' candidates read from the session's labelled runs in slices. */
#include "review/fewshot_gather.h"

#include <stdlib.h>

#include "util/clock.h"
#include "util/xalloc.h"
#include "util/error.h"

void fewshot_gather_stop(struct fewshot_gather *g)
{
	if (g->set) {
		fewshot_free(g->set);
		free(g->set);
	}
	*g = (struct fewshot_gather){ 0 };
}

void fewshot_gather_start(struct fewshot_gather *g, const struct review *rv)
{
	fewshot_gather_stop(g);
	g->set = xcalloc(1, sizeof *g->set);
	fewshot_init(g->set, rv->cfg, rv->annot);
	g->decisions = annot_count(rv->annot);
	g->summarized = rv->nsummarized;
}

bool fewshot_gather_running(const struct fewshot_gather *g)
{
	return g->set != NULL;
}

/* Each run is loaded on its own: the session's run cache may evict its
 * copy, and the set keeps what it is offered. */
static void offer_entry(struct fewshot_gather *g, struct review *rv, size_t i)
{
	const struct review_entry *e = &rv->entries[i];
	struct error err = {0};
	char hash[65];
	if (!e->id || e->load_failed || !fewshot_wants(g->set, e->id))
		return;
	if (!review_entry_hash(e, hash))
		return;
	g->loaded++;
	struct run *r = review_entry_run(rv, i, &err);
	if (r && !fewshot_offer(g->set, r, hash))
		run_free(r);
}

bool fewshot_gather_step(struct fewshot_gather *g, struct review *rv, double budget_ms)
{
	if (!g->set)
		return true;
	double t0 = now_ms();
	/* No label on such a judge: nothing to read. */
	if (g->set->nids == 0)
		g->next = rv->nentries;
	while (g->next < rv->nentries) {
		offer_entry(g, rv, g->next++);
		if (now_ms() - t0 >= budget_ms)
			break;
	}
	return g->next >= rv->nentries;
}

struct fewshot *fewshot_gather_take(struct fewshot_gather *g)
{
	struct fewshot *set = g->set;
	g->set = NULL;
	fewshot_gather_stop(g);
	return set;
}
