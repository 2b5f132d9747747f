/* compare.c - the runs of a comparison: their sides, tasks and pairs, the runs a run can be compared with. */
#include <stdlib.h>
#include <string.h>

#include "review/compare.h"
#include "review/session.h"
#include "runs/run.h"
#include "util/xalloc.h"

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

/* The task of every run in view, in the view's order (NULLs without a key). */
static char **view_tasks(struct review *rv, const struct compare_sides *s)
{
	size_t n = review_view_count(rv);
	char **t = xcalloc(n ? n : 1, sizeof *t);
	const char *spec = s ? s->task_spec : NULL;
	for (size_t i = 0; i < n && spec; i++)
		t[i] = compare_entry_task(rv, spec, rv->view[i]);
	return t;
}

static void tasks_free(char **t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(t[i]);
	free(t);
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
	char **tasks = view_tasks(rv, s);
	char *mine = compare_entry_task(rv, s ? s->task_spec : NULL, entry);
	enum compare_side side = compare_side_of(rv, s, entry);
	/* three passes keep the list's order within each kind */
	for (int pass = 0; pass < 3; pass++) {
		for (size_t i = 0; i < nv; i++) {
			size_t e = rv->view[i];
			if (e == entry)
				continue;
			bool other_side = side != SIDE_NONE && compare_side_of(rv, s, e) != side;
			bool same_task = mine && tasks[i] && strcmp(mine, tasks[i]) == 0;
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
	free(mine);
	tasks_free(tasks, nv);
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

size_t compare_task_pairs(struct review *rv, const struct compare_sides *s,
                          struct compare_task_pair **out)
{
	*out = NULL;
	if (!s || !s->on || !s->task_spec)
		return 0;
	size_t nv = review_view_count(rv), n = 0;
	char **tasks = view_tasks(rv, s);
	for (size_t i = 0; i < nv; i++) {
		if (!tasks[i])
			continue;
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = tasks[j] && strcmp(tasks[j], tasks[i]) == 0;
		if (seen)
			continue;
		size_t base = SIZE_MAX, cand = SIZE_MAX;
		for (size_t j = i; j < nv; j++) {
			if (!tasks[j] || strcmp(tasks[j], tasks[i]) != 0)
				continue;
			enum compare_side sd = compare_side_of(rv, s, rv->view[j]);
			if (sd == SIDE_BASE && base == SIZE_MAX)
				base = rv->view[j];
			else if (sd == SIDE_CAND && cand == SIZE_MAX)
				cand = rv->view[j];
		}
		if (base == SIZE_MAX || cand == SIZE_MAX)
			continue;
		*out = xrealloc(*out, (n + 1) * sizeof **out);
		(*out)[n].task = xstrdup(tasks[i]);
		(*out)[n].base = base;
		(*out)[n].cand = cand;
		n++;
	}
	tasks_free(tasks, nv);
	return n;
}

void compare_task_pairs_free(struct compare_task_pair *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(p[i].task);
	free(p);
}
