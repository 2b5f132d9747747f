/* propose_truth.c - fields that hold expected calls (expected_tools,
 * expected_actions, info.task.actions, possible_answer, ...), in the runs'
 * records or in the expectations joined to them, and what each can check. */
#include <stdlib.h>
#include <string.h>

#include "propose_int.h"
#include "util/xalloc.h"

static const char *const list_names[] = {
	"expected_tools", "expected_tool_calls", "expected_actions", "expected_calls",
	"expected_trajectory", "reference_trajectory", "golden_actions", "ground_truth",
	"possible_answer", "reference_calls", NULL,
};

static const char *const one_names[] = { "expected_tool", "expected_first_tool", NULL };

static bool named(const char *const *names, const char *k)
{
	for (size_t i = 0; names[i]; i++)
		if (!strcmp(k, names[i]))
			return true;
	return false;
}

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), m = strlen(tail);
	return n >= m && !strcmp(s + n - m, tail);
}

/* Names a list of expected calls: tau-bench's info.task.actions, tau2's
 * task.evaluation_criteria.actions, a record's own actions. */
static bool truth_list(const char *path)
{
	if (named(list_names, prop_last_key(path)))
		return true;
	return !strcmp(path, "actions") || ends_with(path, "task.actions") ||
	       ends_with(path, "evaluation_criteria.actions");
}

static void add(struct prop_ctx *x, const struct prop_field *f, bool in_exp)
{
	enum prop_gt_kind kind;
	size_t n = 0;
	if (f->nstr && !f->nlist && named(one_names, prop_last_key(f->path))) {
		kind = GT_FIRST_TOOL;
		n = f->nstr;
	} else if (!f->nlist || !truth_list(f->path)) {
		return;
	} else if (f->nlist_call) {
		kind = GT_CALLS;
		n = f->nlist_call;
	} else if (f->nlist_str) {
		kind = GT_TOOL_NAMES;
		n = f->nlist_str;
	} else if (f->nlist_keyed) {
		kind = GT_KEYED;
		n = f->nlist_keyed;
	} else {
		kind = GT_EMPTY;
	}
	for (size_t i = 0; i < x->ngts; i++)
		if (x->gts[i].in_expectation == in_exp && !strcmp(x->gts[i].path, f->path)) {
			x->gts[i].nrecs += n;
			if (x->gts[i].kind == GT_EMPTY)
				x->gts[i].kind = kind;
			return;
		}
	x->gts = xrealloc(x->gts, (x->ngts + 1) * sizeof *x->gts);
	x->gts[x->ngts++] = (struct prop_gt){ .path = xstrdup(f->path), .in_expectation = in_exp,
	                                      .kind = kind, .nrecs = n, .same_as = -1 };
}

/* The digest field f holds for record r, 0 when none. */
static unsigned long long digest_at(const struct prop_field *f, size_t r)
{
	return f && r < f->dcap ? f->digests[r] : 0;
}

/* The record of the joined file whose key is key, or -1. */
static long exp_record(const struct prop_input *t, const struct prop_field *k, const char *key)
{
	for (size_t e = 0; k && k->vals && e < t->nrecs; e++)
		if (k->vals[e] && !strcmp(k->vals[e], key))
			return (long)e;
	return -1;
}

/* In how many runs the record's calls at rec_path and the joined
 * expectation's at exp_path are the same; 0 when any run differs. */
static size_t same_calls(const struct prop_ctx *x, const char *rec_path, const char *exp_path)
{
	const struct prop_input *t = x->join.truth;
	const struct prop_field *ek = prop_field_find(t, x->join.exp_path);
	const struct prop_field *ef = prop_field_find(t, exp_path);
	size_t same = 0;
	for (size_t i = 0; i < x->nin; i++) {
		const struct prop_input *in = &x->in[i];
		const struct prop_field *rk = in->nruns ? prop_field_find(in, x->join.run_path) : NULL;
		const struct prop_field *rf = in->nruns ? prop_field_find(in, rec_path) : NULL;
		for (size_t r = 0; rk && rk->vals && r < in->nrecs; r++) {
			long e = rk->vals[r] ? exp_record(t, ek, rk->vals[r]) : -1;
			unsigned long long a = digest_at(rf, r), b = e < 0 ? 0 : digest_at(ef, (size_t)e);
			if (!a && !b)
				continue;
			if (a != b)
				return 0;
			same++;
		}
	}
	return same;
}

/* Two fields of expected calls, the record's own and the joined file's,
 * that hold the same calls for every run would give the same verdicts
 * twice: the record's own is kept, since it needs no join (every run is
 * checked, one the join misses too, and it stays right if the file moves). */
static void drop_twins(struct prop_ctx *x)
{
	for (size_t i = 0; x->join.truth && i < x->ngts; i++) {
		struct prop_gt *g = &x->gts[i];
		if (!g->in_expectation || g->kind != GT_CALLS)
			continue;
		for (size_t j = 0; j < x->ngts && g->same_as < 0; j++) {
			const struct prop_gt *own = &x->gts[j];
			if (own->in_expectation || own->kind != GT_CALLS || own->same_as >= 0)
				continue;
			size_t n = same_calls(x, own->path, g->path);
			if (n) {
				g->same_as = (int)j;
				g->same_runs = n;
			}
		}
	}
}

void prop_find_truth(struct prop_ctx *x)
{
	for (size_t i = 0; i < x->nin; i++) {
		const struct prop_input *in = &x->in[i];
		bool exp = in == x->join.truth;
		if (!in->nruns && !exp)
			continue;
		for (size_t k = 0; k < in->nfields; k++)
			add(x, &in->fields[k], exp);
	}
	drop_twins(x);
}
