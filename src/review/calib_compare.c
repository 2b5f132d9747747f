/* calib_compare.c - two judges against the same labels (--judge A --judge B), and a judge at every threshold (--sweep).
 *
 * Both work on pass/fail: a judge passes a run by its threshold, a human
 * label by the row's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib_int.h"
#include "review/labels.h"
#include "util/agree.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define LEVEL 0.95

static const struct crit *crit_by_id(const struct calib_ctx *x, const char *id)
{
	for (size_t i = 0; i < x->ncrits; i++)
		if (!strcmp(x->crits[i].id, id))
			return &x->crits[i];
	return NULL;
}

/* v and why are pointers: they are read after the call that sets them. */
static void fig_put(struct calib_fig *f, bool ok, const double *v, const agree_why *why)
{
	f->ok = ok && isfinite(*v);
	f->v = f->ok ? *v : 0;
	f->why = f->ok ? NULL : *why ? *why : "undefined";
}

/* ---- two judges ----------------------------------------------------------------- */

/* One run both judges answered and a human labelled: their pass/fail and
 * the human's. */
struct cmp_run {
	size_t entry;
	int a, b, h;
};

struct cmp_boot {
	const struct cmp_run *runs;
	int *a, *b, *h;
};

/* A resample's kappa(A, human) - kappa(B, human), on the same runs for
 * both (a paired bootstrap). */
static bool boot_diff(const size_t *idx, size_t n, void *ctx, double *out)
{
	struct cmp_boot *bt = ctx;
	for (size_t i = 0; i < n; i++) {
		bt->a[i] = bt->runs[idx[i]].a;
		bt->b[i] = bt->runs[idx[i]].b;
		bt->h[i] = bt->runs[idx[i]].h;
	}
	double ka, kb;
	agree_why why;
	if (!agree_kappa(bt->a, bt->h, n, 2, &ka, &why) || !agree_kappa(bt->b, bt->h, n, 2, &kb, &why))
		return false;
	*out = ka - kb;
	return true;
}

/* The human pass/fail of a run: the consensus on A's row, else on B's; a
 * run whose two rows the humans passed differently is left out (conflict). */
static size_t cmp_runs(const struct crit *A, const struct crit *B, struct cmp_run *out,
                       size_t *conflicts)
{
	size_t i = 0, k = 0, n = 0;
	*conflicts = 0;
	while (i < A->nunits && k < B->nunits) {
		const struct cunit *ua = &A->units[i], *ub = &B->units[k];
		if (ua->entry != ub->entry) {
			if (ua->entry < ub->entry)
				i++;
			else
				k++;
			continue;
		}
		i++;
		k++;
		bool ha = ua->cons == CONSENSUS_OK, hb = ub->cons == CONSENSUS_OK;
		if (!ua->has_m || !ub->has_m || (!ha && !hb))
			continue;
		if (ha && hb && ua->c_pass != ub->c_pass) {
			(*conflicts)++;
			continue;
		}
		out[n++] = (struct cmp_run){ .entry = ua->entry, .a = ua->m_pass, .b = ub->m_pass,
		                             .h = ha ? ua->c_pass : ub->c_pass };
	}
	return n;
}

static void cmp_note(struct calib_compare *cm)
{
	const char *what[4], *why[4];
	size_t n = 0;
	const struct calib_fig *f[] = { &cm->kappa_a, &cm->kappa_b, &cm->kappa_diff };
	const char *names[] = { "kappa_a", "kappa_b", "kappa_diff" };
	for (size_t i = 0; i < 3; i++)
		if (!f[i]->ok) {
			what[n] = names[i];
			why[n++] = f[i]->why;
		}
	char *joined = n ? calib_note_join(what, why, n) : NULL;
	struct strbuf sb = STRBUF_INIT;
	if (cm->n == 0)
		strbuf_addstr(&sb, "no run has both judges' verdicts and a human label");
	else if (joined)
		strbuf_addstr(&sb, joined);
	if (cm->conflicts)
		strbuf_addf(&sb, "%s%zu run%s left out: the human labels of the two rows disagree",
		            sb.len ? "; " : "", cm->conflicts, cm->conflicts == 1 ? "" : "s");
	free(joined);
	cm->note = sb.len ? strbuf_detach(&sb) : (strbuf_release(&sb), NULL);
}

static void compare_two(struct calib_ctx *x, const struct crit *A, const struct crit *B,
                        struct calib_compare *cm)
{
	memset(cm, 0, sizeof *cm);
	snprintf(cm->criterion_a, sizeof cm->criterion_a, "%s", A->id);
	snprintf(cm->criterion_b, sizeof cm->criterion_b, "%s", B->id);
	size_t cap = A->nunits < B->nunits ? A->nunits : B->nunits;
	struct cmp_run *runs = xcalloc(cap + 1, sizeof *runs);
	size_t n = cmp_runs(A, B, runs, &cm->conflicts);
	cm->n = n;
	int *a = xcalloc(n + 1, sizeof *a), *b = xcalloc(n + 1, sizeof *b), *h = xcalloc(n + 1, sizeof *h);
	cm->one_agrees = xcalloc(n + 1, sizeof *cm->one_agrees);
	for (size_t i = 0; i < n; i++) {
		a[i] = runs[i].a;
		b[i] = runs[i].b;
		h[i] = runs[i].h;
		bool oka = a[i] == h[i], okb = b[i] == h[i];
		cm->only_a += oka && !okb;
		cm->only_b += okb && !oka;
		cm->none_agrees += !oka && !okb;
	}
	/* A's runs first, then B's: the list says who agrees by position. */
	for (int side = 0; side < 2; side++)
		for (size_t i = 0; i < n; i++)
			if ((a[i] == h[i]) != (b[i] == h[i]) && (a[i] == h[i]) == (side == 0))
				cm->one_agrees[cm->n_one_agrees++] = runs[i].entry;
	double v;
	agree_why why = NULL;
	fig_put(&cm->kappa_a, agree_kappa(a, h, n, 2, &v, &why), &v, &why);
	fig_put(&cm->kappa_b, agree_kappa(b, h, n, 2, &v, &why), &v, &why);
	v = cm->kappa_a.v - cm->kappa_b.v;
	why = "needs both kappas";
	fig_put(&cm->kappa_diff, cm->kappa_a.ok && cm->kappa_b.ok, &v, &why);
	cm->mcnemar_p = agree_mcnemar_exact(cm->only_a, cm->only_b);
	if (cm->kappa_diff.ok && x->o->bootstrap) {
		struct cmp_boot bt = { .runs = runs, .a = a, .b = b, .h = h };
		cm->kappa_diff_ci.ok = agree_bootstrap(n, x->o->bootstrap, x->o->seed, LEVEL, boot_diff,
		                                       &bt, &cm->kappa_diff_ci.lo, &cm->kappa_diff_ci.hi,
		                                       &why);
	}
	cmp_note(cm);
	free(a);
	free(b);
	free(h);
	free(runs);
}

void calib_compares(struct calib_ctx *x)
{
	const struct calib_opts *o = x->o;
	size_t nj = o->ncompare_judges;
	if (nj < 2)
		return;
	x->out->compares = xcalloc(nj * (nj - 1) / 2, sizeof *x->out->compares);
	for (size_t i = 0; i < nj; i++)
		for (size_t k = i + 1; k < nj; k++) {
			const struct crit *A = crit_by_id(x, o->compare_judges[i]);
			const struct crit *B = crit_by_id(x, o->compare_judges[k]);
			if (!A || !B || A == B)
				continue;
			compare_two(x, A, B, &x->out->compares[x->out->ncompares++]);
		}
}

/* ---- every threshold ---------------------------------------------------------- */

static int dbl_cmp(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;
	return a < b ? -1 : a > b;
}

/* An integer scale: each level but the lowest (which passes everything),
 * 2, 3, 4, 5 on 1..5; otherwise every distinct score
 * the judge gave a labelled run. */
static size_t thresholds(const struct crit *cr, const double *m, size_t n, double *out)
{
	if (cr->how == HOW_ORDINAL) {
		size_t k = 0;
		for (double t = cr->span.lo + 1; t <= cr->span.hi; t++)
			out[k++] = t;
		return k;
	}
	memcpy(out, m, n * sizeof *m);
	qsort(out, n, sizeof *out, dbl_cmp);
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (k == 0 || out[k - 1] != out[i])
			out[k++] = out[i];
	return k;
}

static void sweep_point(struct calib_sweep_point *pt, double t, const double *m, const int *h,
                        int *mp, size_t n)
{
	for (size_t i = 0; i < n; i++)
		mp[i] = m[i] >= t;
	pt->threshold = t;
	pt->n = n;
	double v;
	agree_why why = NULL;
	fig_put(&pt->kappa, agree_kappa(mp, h, n, 2, &v, &why), &v, &why);
	struct agree_binary c;
	agree_binary_count(mp, h, n, &c);
	fig_put(&pt->tpr, agree_tpr(&c, &v, &why), &v, &why);
	fig_put(&pt->tnr, agree_tnr(&c, &v, &why), &v, &why);
}

static void sweep_one(const struct crit *cr, struct calib_sweep *sw)
{
	memset(sw, 0, sizeof *sw);
	snprintf(sw->criterion, sizeof sw->criterion, "%s", cr->id);
	sw->span = cr->span;
	sw->threshold = cr->threshold;
	double *m = xcalloc(cr->nunits + CALIB_MAX_CATS, sizeof *m),
	       *ts = xcalloc(cr->nunits + CALIB_MAX_CATS, sizeof *ts);
	int *h = xcalloc(cr->nunits + 1, sizeof *h), *mp = xcalloc(cr->nunits + 1, sizeof *mp);
	size_t n = 0;
	for (size_t i = 0; i < cr->nunits; i++) {
		const struct cunit *u = &cr->units[i];
		if (u->has_m && u->cons == CONSENSUS_OK) {
			m[n] = u->m;
			h[n++] = u->c_pass;
		}
	}
	size_t nt = n ? thresholds(cr, m, n, ts) : 0;
	sw->points = xcalloc(nt + 1, sizeof *sw->points);
	sw->best = nt;
	for (size_t i = 0; i < nt; i++) {
		sweep_point(&sw->points[i], ts[i], m, h, mp, n);
		if (sw->points[i].kappa.ok &&
		    (sw->best == nt || sw->points[i].kappa.v > sw->points[sw->best].kappa.v))
			sw->best = i;
	}
	sw->npoints = nt;
	if (n == 0)
		sw->note = xstrdup("no run has both a judge verdict and a human label");
	else if (sw->best == nt)
		sw->note = xstrdup("kappa is undefined at every threshold");
	free(m);
	free(ts);
	free(h);
	free(mp);
}

void calib_sweeps(struct calib_ctx *x)
{
	x->out->sweeps = xcalloc(x->ncrits + 1, sizeof *x->out->sweeps);
	for (size_t i = 0; i < x->ncrits; i++) {
		const struct crit *cr = &x->crits[i];
		if (cr->emit && cr->judge && cr->how != HOW_BINARY)
			sweep_one(cr, &x->out->sweeps[x->out->nsweeps++]);
	}
}
