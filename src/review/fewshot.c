/* fewshot.c - the labelled runs a judge with examples may be shown, from the annotations and the runs.
 *
 * The judge layer chooses among these (judge/examples.c); it cannot read
 * the annotations itself, as labels are above it. A candidate is a run
 * and the reviewers' consensus on the judge's row, so one reviewer's
 * slip does not become a lesson when others disagree; a label made on an
 * earlier version of the run (stale) is left out, as it grades another
 * text than the one the prompt would show. */
#include "review/fewshot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "judge/judge.h"
#include "review/labels.h"
#include "util/hash.h"
#include "util/xalloc.h"
#include "util/error.h"

static uint64_t id_hash(const char *id)
{
	return hash_fnv1a(id, strlen(id), HASH_FNV_SEED);
}

static bool id_eq(const void *item, const void *key)
{
	return strcmp(item, key) == 0;
}

bool fewshot_needed(const struct config *cfg)
{
	for (size_t i = 0; cfg && i < cfg->njudges; i++)
		if (cfg->judges[i].examples.k > 0)
			return true;
	return false;
}

static struct fewshot_list *list_of(const struct fewshot *fs, const char *judge_id)
{
	for (size_t i = 0; judge_id && i < fs->nlists; i++)
		if (strcmp(fs->lists[i].judge->id, judge_id) == 0)
			return &fs->lists[i];
	return NULL;
}

/* annot_each_current's visitor: the runs labelled on a judge with examples. */
static void note_wanted(void *ctx, const struct decision *d)
{
	struct fewshot *fs = ctx;
	if (!d->run || !list_of(fs, d->scorer))
		return;
	void **slot = htab_put(&fs->wanted, id_hash(d->run), id_eq, d->run);
	if (*slot)
		return;
	if (fs->nids == fs->ids_cap) {
		fs->ids_cap = fs->ids_cap ? fs->ids_cap * 2 : 16;
		fs->ids = xrealloc(fs->ids, fs->ids_cap * sizeof *fs->ids);
	}
	fs->ids[fs->nids++] = xstrdup(d->run);
	*slot = fs->ids[fs->nids - 1];
}

void fewshot_init(struct fewshot *fs, const struct config *cfg, const struct annot_store *store)
{
	memset(fs, 0, sizeof *fs);
	fs->cfg = cfg;
	fs->store = store;
	for (size_t i = 0; cfg && i < cfg->njudges; i++) {
		if (cfg->judges[i].examples.k <= 0)
			continue;
		fs->lists = xrealloc(fs->lists, (fs->nlists + 1) * sizeof *fs->lists);
		fs->lists[fs->nlists++] = (struct fewshot_list){ .judge = &cfg->judges[i] };
	}
	if (store && fs->nlists)
		annot_each_current(store, note_wanted, fs);
}

void fewshot_free(struct fewshot *fs)
{
	for (size_t i = 0; i < fs->nlists; i++)
		free(fs->lists[i].ex);
	free(fs->lists);
	for (size_t i = 0; i < fs->nruns; i++)
		run_free(fs->runs[i]);
	free(fs->runs);
	htab_free(&fs->wanted);
	for (size_t i = 0; i < fs->nids; i++)
		free(fs->ids[i]);
	free(fs->ids);
	memset(fs, 0, sizeof *fs);
}

bool fewshot_wants(const struct fewshot *fs, const char *run_id)
{
	return run_id && htab_get(&fs->wanted, id_hash(run_id), id_eq, run_id) != NULL;
}

/* Every reviewer's standing label on the judge's row of the run. */
static size_t labels_of(struct fewshot *fs, const struct judge_conf *j, const char *run_id,
                        const char *run_hash, struct label *out, size_t max)
{
	struct scale span = judge_span(j);
	size_t n = labels_in_store(fs->store, run_id, j->id, run_hash, &span, j->threshold, NULL, 0,
	                           out, max);
	for (size_t i = 0; i < n; i++)
		fs->stale += out[i].stale;
	return n;
}

/* Whether label a says the consensus better than b: the nearer score,
 * then one with a reason, then the later. */
static bool better(const struct label *a, const struct label *b, double score)
{
	double da = fabs(a->score - score), db = fabs(b->score - score);
	if (da != db)
		return da < db;
	bool ra = a->d->reason && *a->d->reason, rb = b->d->reason && *b->d->reason;
	if (ra != rb)
		return ra;
	return strcmp(a->d->at ? a->d->at : "", b->d->at ? b->d->at : "") > 0;
}

/* The consensus of the run's labels on the judge as a candidate; false
 * when there is none (no label, only stale ones, a tie). */
static bool candidate_of(struct fewshot *fs, const struct judge_conf *j, struct run *run,
                         const char *run_hash, struct judge_example *out)
{
	struct label l[LABELS_MAX];
	size_t n = labels_of(fs, j, run->id, run_hash, l, LABELS_MAX);
	struct scale span = judge_span(j);
	double score;
	bool passed;
	enum consensus_result c = labels_consensus(l, n, &span, j->threshold, false, &score, &passed);
	fs->ties += c == CONSENSUS_TIE;
	if (c != CONSENSUS_OK)
		return false;
	const struct label *voice = NULL;
	const char *at = NULL;
	for (size_t i = 0; i < n; i++) {
		if (l[i].stale || l[i].passed != passed)
			continue;
		if (!voice || better(&l[i], voice, score))
			voice = &l[i];
		if (l[i].d->at && (!at || strcmp(l[i].d->at, at) > 0))
			at = l[i].d->at;
	}
	*out = (struct judge_example){
		.run_id = run->id, .run = run, .score = score, .passed = passed,
		.reason = voice ? voice->d->reason : NULL, .at = at,
	};
	return true;
}

static void list_add(struct fewshot_list *l, const struct judge_example *e)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 16;
		l->ex = xrealloc(l->ex, l->cap * sizeof *l->ex);
	}
	l->ex[l->n++] = *e;
}

bool fewshot_offer(struct fewshot *fs, struct run *run, const char *run_hash)
{
	if (!run || run->load_error || !fewshot_wants(fs, run->id))
		return false;
	bool kept = false;
	for (size_t i = 0; i < fs->nlists; i++) {
		struct judge_example e;
		if (candidate_of(fs, fs->lists[i].judge, run, run_hash, &e)) {
			list_add(&fs->lists[i], &e);
			kept = true;
		}
	}
	if (kept) {
		if (fs->nruns == fs->runs_cap) {
			fs->runs_cap = fs->runs_cap ? fs->runs_cap * 2 : 16;
			fs->runs = xrealloc(fs->runs, fs->runs_cap * sizeof *fs->runs);
		}
		fs->runs[fs->nruns++] = run;
	}
	return kept;
}

void fewshot_offer_dataset(struct fewshot *fs, struct dataset *ds, const struct format_ops *forced,
                           const char *id_path, size_t *unreadable)
{
	*unreadable = 0;
	if (fs->nids == 0)
		return;
	dataset_index_all(ds);
	struct error err = {0};
	char hash[65];
	for (size_t i = 0; i < ds->nrecs; i++) {
		struct run *r = dataset_load_run(ds, &ds->recs[i], forced, id_path, &err);
		if (!r) {
			++*unreadable;
			continue;
		}
		bool hashed = fewshot_wants(fs, r->id) && dataset_record_hash(ds, &ds->recs[i], hash) == 0;
		if (!hashed || !fewshot_offer(fs, r, hash))
			run_free(r);
	}
}

size_t fewshot_candidates(void *ctx, const char *judge_id, const struct judge_example **out)
{
	const struct fewshot_list *l = list_of(ctx, judge_id);
	*out = l ? l->ex : NULL;
	return l ? l->n : 0;
}
