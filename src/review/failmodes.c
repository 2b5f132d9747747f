/* failmodes.c - the failure modes the reviewers' tags count: per tag and reviewer, and as calibration labels. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "review/failmodes.h"
#include "annot/vocab.h"
#include "config/config.h"
#include "judge/judge.h"
#include "review/session.h"
#include "util/xalloc.h"

void failmodes_wilson(size_t k, size_t n, double *low, double *high)
{
	const double z = 1.959963984540054;
	double p = (double)k / (double)n, z2n = z * z / (double)n;
	double mid = (p + z2n / 2) / (1 + z2n);
	double half = z * sqrt(p * (1 - p) / (double)n + z2n / (4 * (double)n)) / (1 + z2n);
	/* At the ends the bound is exact; rounding would leave 1e-17 there. */
	*low = k == 0 || mid - half < 0 ? 0 : mid - half;
	*high = k == n || mid + half > 1 ? 1 : mid + half;
}

static bool counted(const char *who, const char *const *only, size_t nonly)
{
	if (!who)
		return false;
	if (!only)
		return true;
	for (size_t i = 0; i < nonly; i++)
		if (!strcmp(only[i], who))
			return true;
	return false;
}

const char *review_row_criterion(const struct review *rv, size_t row, bool *present_pass)
{
	const struct config *c = rv->cfg;
	const struct criterion_decl *cd = row < c->nscorers ? &c->scorers[row].criterion
	                                : row - c->nscorers < c->njudges
	                                ? &c->judges[row - c->nscorers].criterion : NULL;
	if (!cd || !cd->tag)
		return NULL;
	const struct tag_def *t = vocab_tag_find(&c->vocab, cd->tag);
	if (!t)
		return NULL;
	*present_pass = cd->present_when_pass;
	return t->id;
}

/* ---- one run's decisions ---------------------------------------------------- */

struct run_tags {
	const struct review *rv;
	const char *const *only;
	size_t nonly;
	const char *tag;            /* review_tag_labels: the failure mode asked for */
	struct label *out;
	size_t n, max;
};

static struct label *label_of(struct run_tags *rt, const struct decision *d)
{
	for (size_t i = 0; i < rt->n; i++)
		if (!strcmp(rt->out[i].reviewer, d->reviewer))
			return &rt->out[i];
	if (rt->n == rt->max)
		return NULL;
	struct label *l = &rt->out[rt->n++];
	*l = (struct label){ .reviewer = d->reviewer, .score = 0, .d = d };
	return l;
}

static void tag_label_take(void *ctx, const struct decision *d)
{
	struct run_tags *rt = ctx;
	if (!d->run || !counted(d->reviewer, rt->only, rt->nonly))
		return;
	struct label *l = label_of(rt, d);
	if (!l || d->kind != DEC_TAG || !d->tag)
		return;
	const char *name = vocab_tag_name(&rt->rv->cfg->vocab, rt->rv->annot, d->tag);
	if (vocab_code_eq(name, rt->tag)) {
		l->score = 1;
		l->passed = true;
		l->d = d;
	}
}

static int label_cmp(const void *a, const void *b)
{
	return strcmp(((const struct label *)a)->reviewer, ((const struct label *)b)->reviewer);
}

size_t review_tag_labels(const struct review *rv, size_t entry, const char *tag,
                         const char *const *reviewers, size_t nreviewers,
                         struct label *out, size_t max)
{
	const struct review_entry *e = &rv->entries[entry];
	if (!e->summarized || !e->id)
		return 0;
	struct run_tags rt = { .rv = rv, .only = reviewers, .nonly = nreviewers, .tag = tag,
	                       .out = out, .max = max };
	annot_each_of_run(rv->annot, e->id, tag_label_take, &rt);
	if (rt.n > 1)
		qsort(out, rt.n, sizeof *out, label_cmp);
	return rt.n;
}

/* ---- the counts --------------------------------------------------------------- */

/* A name's counts: [0] everyone, [1 + w] reviewer w. */
struct fm_name {
	const char *tag;
	bool defined;
	size_t *runs, *calls;
	size_t last_run;            /* the entry + 1 last counted for everyone, per reviewer after */
	size_t *last_by;
};

struct fm_ctx {
	const struct review *rv;
	const char *const *only;
	size_t nonly;
	const char **who;           /* the reviewers seen, in order of appearance */
	size_t nwho, cwho;
	struct fm_name *names;
	size_t nnames, cnames;
	size_t entry;
	bool *seen_by;              /* this run: reviewed by reviewer w */
	size_t *reviewed_by;        /* runs reviewed, per reviewer */
	/* (name, reviewer, call) counted on this run, to count a call once */
	size_t (*calls_seen)[3];
	size_t ncalls_seen, ccalls_seen;
};

static size_t who_index(struct fm_ctx *x, const char *name)
{
	for (size_t i = 0; i < x->nwho; i++)
		if (!strcmp(x->who[i], name))
			return i;
	if (x->nwho == x->cwho) {
		size_t old = x->cwho;
		x->cwho = x->cwho ? x->cwho * 2 : 8;
		x->who = xrealloc(x->who, x->cwho * sizeof *x->who);
		x->seen_by = xrealloc(x->seen_by, x->cwho * sizeof *x->seen_by);
		x->reviewed_by = xrealloc(x->reviewed_by, x->cwho * sizeof *x->reviewed_by);
		memset(x->seen_by + old, 0, (x->cwho - old) * sizeof *x->seen_by);
		memset(x->reviewed_by + old, 0, (x->cwho - old) * sizeof *x->reviewed_by);
		for (size_t i = 0; i < x->nnames; i++) {
			struct fm_name *nm = &x->names[i];
			nm->runs = xrealloc(nm->runs, (x->cwho + 1) * sizeof *nm->runs);
			nm->calls = xrealloc(nm->calls, (x->cwho + 1) * sizeof *nm->calls);
			nm->last_by = xrealloc(nm->last_by, x->cwho * sizeof *nm->last_by);
			memset(nm->runs + old + 1, 0, (x->cwho - old) * sizeof *nm->runs);
			memset(nm->calls + old + 1, 0, (x->cwho - old) * sizeof *nm->calls);
			memset(nm->last_by + old, 0, (x->cwho - old) * sizeof *nm->last_by);
		}
	}
	x->who[x->nwho] = name;
	return x->nwho++;
}

static size_t name_index(struct fm_ctx *x, const char *tag, bool defined)
{
	for (size_t i = 0; i < x->nnames; i++)
		if (vocab_code_eq(x->names[i].tag, tag))
			return i;
	if (x->nnames == x->cnames) {
		x->cnames = x->cnames ? x->cnames * 2 : 16;
		x->names = xrealloc(x->names, x->cnames * sizeof *x->names);
	}
	struct fm_name *nm = &x->names[x->nnames];
	*nm = (struct fm_name){ .tag = tag, .defined = defined };
	nm->runs = xcalloc(x->cwho + 1, sizeof *nm->runs);
	nm->calls = xcalloc(x->cwho + 1, sizeof *nm->calls);
	nm->last_by = xcalloc(x->cwho + 1, sizeof *nm->last_by);
	return x->nnames++;
}

/* Whether (name, reviewer or everyone, call) is new on this run. */
static bool call_new(struct fm_ctx *x, size_t name, size_t w, long call)
{
	for (size_t i = 0; i < x->ncalls_seen; i++)
		if (x->calls_seen[i][0] == name && x->calls_seen[i][1] == w &&
		    x->calls_seen[i][2] == (size_t)call)
			return false;
	if (x->ncalls_seen == x->ccalls_seen) {
		x->ccalls_seen = x->ccalls_seen ? x->ccalls_seen * 2 : 16;
		x->calls_seen = xrealloc(x->calls_seen, x->ccalls_seen * sizeof *x->calls_seen);
	}
	x->calls_seen[x->ncalls_seen][0] = name;
	x->calls_seen[x->ncalls_seen][1] = w;
	x->calls_seen[x->ncalls_seen][2] = (size_t)call;
	x->ncalls_seen++;
	return true;
}

static void fm_take(void *ctx, const struct decision *d)
{
	struct fm_ctx *x = ctx;
	if (!d->run || !counted(d->reviewer, x->only, x->nonly))
		return;
	size_t w = who_index(x, d->reviewer);
	x->seen_by[w] = true;
	if (d->kind != DEC_TAG || !d->tag)
		return;
	const struct vocab *vo = &x->rv->cfg->vocab;
	const char *name = vocab_tag_name(vo, x->rv->annot, d->tag);
	const struct tag_def *t = vocab_tag_find(vo, name);
	size_t k = name_index(x, t ? t->id : name, t != NULL);
	struct fm_name *nm = &x->names[k];
	if (nm->last_run != x->entry + 1) {
		nm->last_run = x->entry + 1;
		nm->runs[0]++;
	}
	if (nm->last_by[w] != x->entry + 1) {
		nm->last_by[w] = x->entry + 1;
		nm->runs[1 + w]++;
	}
	if (d->call > 0) {
		nm->calls[0] += call_new(x, k, 0, d->call);
		nm->calls[1 + w] += call_new(x, k, 1 + w, d->call);
	}
}

static void row_set(struct failmode *r, const struct fm_name *nm, const char *who, size_t runs,
                    size_t calls, size_t reviewed)
{
	*r = (struct failmode){ .tag = nm->tag, .defined = nm->defined, .reviewer = who,
	                        .runs = runs, .calls = calls, .reviewed = reviewed };
	if (reviewed) {
		r->ok = true;
		r->share = (double)runs / (double)reviewed;
		failmodes_wilson(runs, reviewed, &r->low, &r->high);
	}
}

static int fm_name_cmp(const void *a, const void *b)
{
	const struct fm_name *x = a, *y = b;
	if (x->defined != y->defined)
		return x->defined ? -1 : 1;
	if (x->defined)
		return 0;
	if (x->runs[0] != y->runs[0])
		return x->runs[0] > y->runs[0] ? -1 : 1;
	return strcmp(x->tag, y->tag);
}

static int who_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void fm_collect(struct fm_ctx *x, struct failmodes *out)
{
	size_t ndef = x->rv->cfg->vocab.ntags;
	/* The defined ones stay first and in order; only the free codes are sorted. */
	if (x->nnames > ndef)           /* never qsort or memcpy a NULL: UBSan's nonnull */
		qsort(x->names + ndef, x->nnames - ndef, sizeof *x->names, fm_name_cmp);
	size_t *order = xcalloc(x->nwho + 1, sizeof *order);
	const char **sorted = xcalloc(x->nwho + 1, sizeof *sorted);
	if (x->nwho) {
		memcpy(sorted, x->who, x->nwho * sizeof *sorted);
		qsort(sorted, x->nwho, sizeof *sorted, who_cmp);
	}
	for (size_t i = 0; i < x->nwho; i++)
		for (size_t w = 0; w < x->nwho; w++)
			if (x->who[w] == sorted[i])
				order[i] = w;
	out->rows = xcalloc(x->nnames * (x->nwho + 1) + 1, sizeof *out->rows);
	for (size_t i = 0; i < x->nnames; i++) {
		const struct fm_name *nm = &x->names[i];
		row_set(&out->rows[out->n++], nm, NULL, nm->runs[0], nm->calls[0], out->reviewed);
		for (size_t k = 0; k < x->nwho; k++) {
			size_t w = order[k];
			row_set(&out->rows[out->n++], nm, x->who[w], nm->runs[1 + w], nm->calls[1 + w],
			        x->reviewed_by[w]);
		}
	}
	out->nreviewers = x->nwho;
	free(order);
	free(sorted);
}

void review_failmodes(const struct review *rv, const char *const *reviewers, size_t nreviewers,
                      struct failmodes *out)
{
	memset(out, 0, sizeof *out);
	struct fm_ctx x = { .rv = rv, .only = reviewers, .nonly = nreviewers };
	const struct vocab *vo = &rv->cfg->vocab;
	for (size_t i = 0; i < vo->ntags; i++)
		name_index(&x, vo->tags[i].id, true);
	for (size_t e = 0; e < rv->nentries; e++) {
		const struct review_entry *en = &rv->entries[e];
		if (!en->summarized || !en->id)
			continue;
		x.entry = e;
		x.ncalls_seen = 0;
		for (size_t w = 0; w < x.nwho; w++)
			x.seen_by[w] = false;
		annot_each_of_run(rv->annot, en->id, fm_take, &x);
		bool any = false;
		for (size_t w = 0; w < x.nwho; w++) {
			x.reviewed_by[w] += x.seen_by[w];
			any = any || x.seen_by[w];
		}
		out->reviewed += any;
	}
	fm_collect(&x, out);
	for (size_t i = 0; i < x.nnames; i++) {
		free(x.names[i].runs);
		free(x.names[i].calls);
		free(x.names[i].last_by);
	}
	free(x.names);
	free(x.who);
	free(x.seen_by);
	free(x.reviewed_by);
	free(x.calls_seen);
}

void failmodes_free(struct failmodes *f)
{
	free(f->rows);
	memset(f, 0, sizeof *f);
}
