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
	                                      .kind = kind, .nrecs = n };
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
}
