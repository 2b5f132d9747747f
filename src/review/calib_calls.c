/* calib_calls.c - per-call labels as their own criterion: each scorer that decides call by call against the reviewers' call labels.
 *
 * A call's label (DEC_CALL_LABEL) says it was right when its value
 * reaches the call scale's pass (annot/vocab.h). A scorer decides call by
 * call on a run when its ok verdict lists `call_marks` (verdict/verdict.h):
 * a call it marks extra (not allowed), args, failed or no-result is wrong
 * by the machine, any other call right (tool-errors and unanswered-calls
 * mark only the calls that are not fine). The items are the labelled
 * calls of the runs that carry such a verdict, under "calls:ID". Only runs
 * with a call label are loaded, which is why this needs the session
 * itself, not a const one. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib_int.h"
#include "annot/vocab.h"
#include "config/config.h"
#include "review/session.h"
#include "util/xalloc.h"

/* One reviewer's label on one call. */
struct clab {
	long call;
	uint32_t who;
	bool right;
};

struct clabs {
	const struct review *rv;
	const char **who;           /* the reviewers counted, sorted */
	size_t nwho;
	struct clab *v;
	size_t n, cap;
};

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void clab_take(void *ctx, const struct decision *d)
{
	struct clabs *cl = ctx;
	if (d->kind != DEC_CALL_LABEL || d->call < 1 || !d->has_score || !d->reviewer)
		return;
	const char **hit = bsearch(&d->reviewer, cl->who, cl->nwho, sizeof *cl->who, name_cmp);
	if (!hit)
		return;
	if (cl->n == cl->cap) {
		cl->cap = cl->cap ? cl->cap * 2 : 16;
		cl->v = xrealloc(cl->v, cl->cap * sizeof *cl->v);
	}
	cl->v[cl->n++] = (struct clab){ .call = d->call, .who = (uint32_t)(hit - cl->who),
	                                .right = d->score >= vocab_pass(&cl->rv->cfg->vocab) };
}

/* Whether the scorer's call_marks hold call `call` against the run. */
static bool call_wrong(const json_t *marks, long call)
{
	size_t i;
	const json_t *m;
	json_array_foreach(marks, i, m) {
		const json_t *c = json_object_get(m, "call");
		const char *k = json_string_value(json_object_get(m, "mark"));
		if (!json_is_integer(c) || json_integer_value(c) != call || !k)
			continue;
		bool allowed = json_is_true(json_object_get(m, "allowed"));
		if (!strcmp(k, "failed") || !strcmp(k, "no-result") || !strcmp(k, "args") ||
		    (!strcmp(k, "extra") && !allowed))
			return true;
	}
	return false;
}

/* A scorer's items: machine and each reviewer, per labelled call. */
struct cscorer {
	struct crit cr;
	struct itemvec cons, *by, *pairs;   /* by[who], pairs[a * nwho + b] */
	size_t ties, calls;
};

static struct calib_item call_item(size_t entry, bool a, bool b)
{
	return (struct calib_item){ .entry = entry, .cat_a = a, .cat_b = b, .val_a = a, .val_b = b,
	                            .pass_a = a, .pass_b = b };
}

/* The labels of one call (cl->v[from .. to)) against the machine's word. */
static void call_items(struct cscorer *s, const struct clabs *cl, size_t from, size_t to,
                       size_t entry, bool m_right)
{
	size_t right = 0;
	for (size_t i = from; i < to; i++) {
		right += cl->v[i].right;
		struct calib_item it = call_item(entry, m_right, cl->v[i].right);
		itemvec_push(&s->by[cl->v[i].who], &it);
		for (size_t k = from; k < to; k++)
			if (cl->v[k].who > cl->v[i].who) {
				struct calib_item hh = call_item(entry, cl->v[i].right, cl->v[k].right);
				itemvec_push(&s->pairs[cl->v[i].who * cl->nwho + cl->v[k].who], &hh);
			}
	}
	size_t n = to - from;
	if (2 * right == n) {
		s->ties++;
		return;
	}
	struct calib_item it = call_item(entry, m_right, 2 * right > n);
	itemvec_push(&s->cons, &it);
	s->cr.rated++;
	s->cr.passing += m_right;
}

static int clab_cmp(const void *a, const void *b)
{
	const struct clab *x = a, *y = b;
	if (x->call != y->call)
		return x->call < y->call ? -1 : 1;
	return x->who < y->who ? -1 : x->who > y->who;
}

static void entry_items(struct cscorer *sc, size_t nsc, struct clabs *cl, struct review *rv,
                        size_t e)
{
	struct review_run *rr = review_run_at(rv, e);
	if (!rr || !rr->run || !rr->verdicts)
		return;
	if (cl->n > 1)
		qsort(cl->v, cl->n, sizeof *cl->v, clab_cmp);
	for (size_t s = 0; s < nsc; s++) {
		const struct verdict *v = &rr->verdicts[s];
		const json_t *marks = v->status == VERDICT_OK && v->details
		                    ? json_object_get(v->details, VERDICT_CALL_MARKS) : NULL;
		if (!sc[s].cr.emit || !json_is_array(marks))
			continue;
		for (size_t i = 0; i < cl->n;) {
			size_t k = i + 1;
			while (k < cl->n && cl->v[k].call == cl->v[i].call)
				k++;
			sc[s].calls++;
			call_items(&sc[s], cl, i, k, e, !call_wrong(marks, cl->v[i].call));
			i = k;
		}
	}
}

static void pair_out(struct calib *c, const struct crit *cr, const struct calib_opts *o,
                     const char *a, const char *b, struct itemvec *iv, size_t ties, bool always)
{
	if (!iv->n && !always) {
		free(iv->v);
		return;
	}
	struct calib_pair *p = calib_pair_add(c, cr, CALIB_MACHINE_HUMAN, a, b);
	if (!strncmp(a, "human:", 6))
		p->kind = CALIB_HUMAN_HUMAN;
	p->items = iv->v;
	p->n = iv->n;
	p->ties = ties;
	calib_pair_figures(p, cr, o);
}

static void scorer_pairs(struct calib *c, struct cscorer *s, const struct clabs *cl,
                         const struct calib_opts *o)
{
	if (!s->calls) {
		free(s->by);
		free(s->pairs);
		return;
	}
	pair_out(c, &s->cr, o, s->cr.name, "human", &s->cons, s->ties, true);
	char a[160], b[160];
	for (size_t w = 0; w < cl->nwho; w++) {
		snprintf(b, sizeof b, "human:%s", cl->who[w]);
		pair_out(c, &s->cr, o, s->cr.name, b, &s->by[w], 0, false);
	}
	for (size_t x = 0; x < cl->nwho; x++)
		for (size_t y = x + 1; y < cl->nwho; y++) {
			snprintf(a, sizeof a, "human:%s", cl->who[x]);
			snprintf(b, sizeof b, "human:%s", cl->who[y]);
			pair_out(c, &s->cr, o, a, b, &s->pairs[x * cl->nwho + y], 0, false);
		}
	free(s->by);
	free(s->pairs);
}

static bool wanted(const struct calib_opts *o, const char *id, const char *name)
{
	if (!o->ncriteria)
		return true;
	for (size_t i = 0; i < o->ncriteria; i++)
		if (!strcmp(o->criteria[i], id) || !strcmp(o->criteria[i], name))
			return true;
	return false;
}

static void reviewers_of(struct clabs *cl, const struct review *rv, const struct calib_opts *o)
{
	const char *const *names = o->reviewers;
	size_t n = o->nreviewers;
	if (!names || !n)
		n = annot_reviewers(rv->annot, &names);
	cl->who = xcalloc(n + 1, sizeof *cl->who);
	if (n > 0)
		memcpy(cl->who, names, n * sizeof *cl->who);
	if (n > 1)
		qsort(cl->who, n, sizeof *cl->who, name_cmp);
	cl->nwho = n;
}

void calib_calls(struct calib *c, struct review *rv, const struct calib_opts *o)
{
	static const struct calib_opts none;
	o = o ? o : &none;
	size_t nsc = rv->cfg->nscorers;
	struct clabs cl = { .rv = rv };
	reviewers_of(&cl, rv, o);
	struct cscorer *sc = xcalloc(nsc + 1, sizeof *sc);
	for (size_t s = 0; s < nsc; s++) {
		struct crit *cr = &sc[s].cr;
		cr->row = s;
		cr->row_id = rv->cfg->scorers[s].id;
		cr->calls = true;
		snprintf(cr->tag_id, sizeof cr->tag_id, "calls:%s", cr->row_id);
		cr->id = cr->tag_id;
		cr->span = scale_of(SCALE_BINARY);
		cr->threshold = 1;
		cr->how = HOW_BINARY;
		snprintf(cr->name, sizeof cr->name, "scorer:%s", cr->row_id);
		cr->emit = wanted(o, cr->row_id, cr->id);
		sc[s].by = xcalloc(cl.nwho + 1, sizeof *sc[s].by);
		sc[s].pairs = xcalloc(cl.nwho * cl.nwho + 1, sizeof *sc[s].pairs);
	}
	for (size_t e = 0; nsc && e < rv->nentries; e++) {
		const struct review_entry *en = &rv->entries[e];
		if (!en->summarized || !en->id)
			continue;
		cl.n = 0;
		annot_each_of_run(rv->annot, en->id, clab_take, &cl);
		if (cl.n)
			entry_items(sc, nsc, &cl, rv, e);
	}
	for (size_t s = 0; s < nsc; s++)
		scorer_pairs(c, &sc[s], &cl, o);
	free(sc);
	free(cl.v);
	free(cl.who);
}
