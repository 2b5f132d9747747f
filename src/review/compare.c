/* compare.c - the runs of a comparison: their sides, tasks and pairs, the runs a run can be compared with. */
#include <stdlib.h>
#include <string.h>

#include "review/compare.h"
#include "review/session.h"
#include "runs/run.h"
#include "util/hash.h"
#include "util/htab.h"
#include "util/xalloc.h"

struct compare_task_cache {
	char **task;                /* by entry: its task, NULL without one */
	bool *known;                /* by entry: looked up already */
	size_t n;
};

struct compare_task_cache *compare_task_cache_new(void)
{
	return xcalloc(1, sizeof(struct compare_task_cache));
}

static void cache_clear(struct compare_task_cache *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->task[i]);
	free(c->task);
	free(c->known);
	*c = (struct compare_task_cache){ 0 };
}

void compare_sides_release(struct compare_sides *s)
{
	if (s->tasks) {
		cache_clear(s->tasks);
		free(s->tasks);
		s->tasks = NULL;
	}
}

size_t compare_base_files(const struct review *rv, const char *base_path)
{
	size_t n = 0, blen = strlen(base_path);
	while (blen > 1 && base_path[blen - 1] == '/')
		blen--;
	/* dataset_open lists a path's files before the next path's: the
	 * base's are a prefix of the list */
	for (; n < rv->ds.nfiles; n++) {
		const char *p = rv->ds.files[n].path;
		if (strncmp(p, base_path, blen) != 0 || (p[blen] != '\0' && p[blen] != '/'))
			break;
	}
	return n;
}

enum compare_side compare_side_of(const struct review *rv, const struct compare_sides *s,
                                  size_t entry)
{
	if (!s || !s->on || entry >= rv->nentries)
		return SIDE_NONE;
	size_t rec = rv->entries[entry].rec;
	if (rec >= rv->ds.nrecs)
		return SIDE_NONE;
	return rv->ds.recs[rec].file < s->nbase_files ? SIDE_BASE : SIDE_CAND;
}

const char *compare_side_letter(enum compare_side side)
{
	return side == SIDE_BASE ? "B" : side == SIDE_CAND ? "C" : "";
}

char *compare_entry_task(struct review *rv, const char *spec, size_t entry)
{
	if (!spec || !*spec)
		return NULL;
	struct review_run *rr = review_run_at(rv, entry);
	if (!rr || !rr->run)
		return NULL;
	const char *t = run_spec_text(rr->run, spec);
	return t ? xstrdup(t) : NULL;
}

/* An entry's task through the cache (grown to the session's entries). */
static const char *task_in(struct review *rv, const char *spec, struct compare_task_cache *c,
                           size_t entry)
{
	if (!spec || entry >= rv->nentries)
		return NULL;
	if (entry >= c->n) {
		size_t n = rv->nentries;
		c->task = xrealloc(c->task, n * sizeof *c->task);
		c->known = xrealloc(c->known, n * sizeof *c->known);
		memset(c->task + c->n, 0, (n - c->n) * sizeof *c->task);
		memset(c->known + c->n, 0, (n - c->n) * sizeof *c->known);
		c->n = n;
	}
	if (!c->known[entry]) {
		c->task[entry] = compare_entry_task(rv, spec, entry);
		c->known[entry] = true;
	}
	return c->task[entry];
}

/* The cache a call uses: the sides' own, else one for the call alone. */
static struct compare_task_cache *cache_of(const struct compare_sides *s,
                                           struct compare_task_cache *alone)
{
	return s && s->tasks ? s->tasks : alone;
}

static void add_cand(struct compare_candidate **out, size_t *n, size_t entry, enum compare_why why)
{
	*out = xrealloc(*out, (*n + 1) * sizeof **out);
	(*out)[*n].entry = entry;
	(*out)[*n].why = why;
	(*n)++;
}

size_t compare_candidates(struct review *rv, const struct compare_sides *s, size_t entry,
                          struct compare_candidate **out)
{
	*out = NULL;
	size_t nv = review_view_count(rv), n = 0;
	struct compare_task_cache alone = { 0 }, *tc = cache_of(s, &alone);
	const char *spec = s ? s->task_spec : NULL;
	const char *mine = task_in(rv, spec, tc, entry);
	enum compare_side side = compare_side_of(rv, s, entry);
	/* three passes keep the list's order within each kind */
	for (int pass = 0; pass < 3; pass++) {
		for (size_t i = 0; i < nv; i++) {
			size_t e = rv->view[i];
			if (e == entry)
				continue;
			bool other_side = side != SIDE_NONE && compare_side_of(rv, s, e) != side;
			const char *task = mine ? task_in(rv, spec, tc, e) : NULL;
			bool same_task = task && strcmp(mine, task) == 0;
			if (pass == 0 && same_task && other_side)
				add_cand(out, &n, e, WHY_OTHER_SIDE);
			else if (pass == 1 && same_task && !other_side)
				add_cand(out, &n, e, WHY_SAME_TASK);
			else if (pass == 2 && !mine)
				add_cand(out, &n, e, WHY_OTHER_RUN);
		}
	}
	/* without a task key the other side's runs come first */
	if (!mine && side != SIDE_NONE && n) {
		struct compare_candidate *sorted = xcalloc(n, sizeof *sorted);
		size_t k = 0;
		for (int other = 1; other >= 0; other--)
			for (size_t i = 0; i < n; i++)
				if ((compare_side_of(rv, s, (*out)[i].entry) != side) == (bool)other)
					sorted[k++] = (*out)[i];
		free(*out);
		*out = sorted;
	}
	cache_clear(&alone);
	return n;
}

void compare_order(const struct review *rv, const struct compare_sides *s, size_t *a, size_t *b)
{
	if (compare_side_of(rv, s, *a) == SIDE_CAND && compare_side_of(rv, s, *b) == SIDE_BASE) {
		size_t t = *a;
		*a = *b;
		*b = t;
	}
}

struct pair_slot {
	const char *task;           /* the cache's text */
	size_t at;                  /* its place in the pairs being made */
};

static bool slot_eq(const void *item, const void *key)
{
	return strcmp(((const struct pair_slot *)item)->task, key) == 0;
}

size_t compare_task_pairs(struct review *rv, const struct compare_sides *s,
                          struct compare_task_pair **out)
{
	*out = NULL;
	if (!s || !s->on || !s->task_spec)
		return 0;
	size_t nv = review_view_count(rv), n = 0;
	struct compare_task_cache alone = { 0 }, *tc = cache_of(s, &alone);
	struct compare_task_pair *all = xcalloc(nv ? nv : 1, sizeof *all);
	struct pair_slot *slots = xcalloc(nv ? nv : 1, sizeof *slots);
	struct htab seen = HTAB_INIT;
	/* One pass in the view's order: a task's place is its first run's,
	 * each side's first run of it is the one shown. */
	for (size_t i = 0; i < nv; i++) {
		size_t e = rv->view[i];
		const char *task = task_in(rv, s->task_spec, tc, e);
		if (!task)
			continue;
		uint64_t h = hash_fnv1a(task, strlen(task), HASH_FNV_SEED);
		struct pair_slot *sl = htab_get(&seen, h, slot_eq, task);
		if (!sl) {
			sl = &slots[n];
			*sl = (struct pair_slot){ task, n };
			*htab_put(&seen, h, slot_eq, task) = sl;
			all[n++] = (struct compare_task_pair){ NULL, SIZE_MAX, SIZE_MAX };
		}
		struct compare_task_pair *p = &all[sl->at];
		enum compare_side sd = compare_side_of(rv, s, e);
		if (sd == SIDE_BASE && p->base == SIZE_MAX)
			p->base = e;
		else if (sd == SIDE_CAND && p->cand == SIZE_MAX)
			p->cand = e;
	}
	size_t kept = 0;
	for (size_t i = 0; i < n; i++)
		if (all[i].base != SIZE_MAX && all[i].cand != SIZE_MAX) {
			all[kept] = all[i];
			all[kept++].task = xstrdup(slots[i].task);
		}
	htab_free(&seen);
	free(slots);
	cache_clear(&alone);
	if (!kept) {
		free(all);
		return 0;
	}
	*out = all;
	return kept;
}

void compare_task_pairs_free(struct compare_task_pair *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(p[i].task);
	free(p);
}
