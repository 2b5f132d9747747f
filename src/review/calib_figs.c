/* calib_figs.c - the figures of one calibration pair, from its items.
 *
 * Every figure goes through util/agree, which says when one is undefined
 * (and why) instead of giving NaN; what does not apply to a pair's kind or
 * scale is left with ok false and no why. The intervals are percentile
 * bootstraps over the pair's items. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib_int.h"
#include "util/agree.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define LEVEL 0.95

static const char *const binary_names[] = { "fail", "pass" };
static const char *const tag_names[] = { "absent", "present" };
static const char *const call_names[] = { "wrong", "right" };

static const char NO_ITEMS[] = "no run has a verdict on both sides";

void itemvec_push(struct itemvec *iv, const struct calib_item *it)
{
	if (iv->n == iv->cap) {
		iv->cap = iv->cap ? iv->cap * 2 : 16;
		iv->v = xrealloc(iv->v, iv->cap * sizeof *iv->v);
	}
	iv->v[iv->n++] = *it;
}

int calib_cat(const struct crit *cr, double score, bool pass)
{
	if (cr->how != HOW_ORDINAL)
		return pass ? 1 : 0;
	long c = lround(score) - lround(cr->span.lo);
	long k = scale_levels(&cr->span);
	return c < 0 ? 0 : c >= k ? (int)k - 1 : (int)c;
}

/* Code-vs-judge pairs are on pass/fail whatever the judge's scale. */
static enum crit_how how_of(const struct calib_pair *p, const struct crit *cr)
{
	return p->kind == CALIB_CODE_JUDGE ? HOW_BINARY : cr->how;
}

struct calib_pair *calib_pair_add(struct calib *c, const struct crit *cr, enum calib_kind kind,
                                  const char *a, const char *b)
{
	c->pairs = xrealloc(c->pairs, (c->npairs + 1) * sizeof *c->pairs);
	struct calib_pair *p = &c->pairs[c->npairs++];
	memset(p, 0, sizeof *p);
	snprintf(p->criterion, sizeof p->criterion, "%s", cr->id);
	snprintf(p->row, sizeof p->row, "%s", cr->row_id ? cr->row_id : cr->id);
	p->tag = cr->tag != NULL;
	p->calls = cr->calls;
	p->present_pass = cr->present_pass;
	snprintf(p->a, sizeof p->a, "%s", a);
	snprintf(p->b, sizeof p->b, "%s", b ? b : "");
	p->kind = kind;
	p->span = kind == CALIB_CODE_JUDGE ? scale_of(SCALE_BINARY) : cr->span;
	p->threshold = kind == CALIB_CODE_JUDGE ? 1 : cr->threshold;
	bool ordinal = how_of(p, cr) == HOW_ORDINAL;
	p->ncats = ordinal ? (size_t)scale_levels(&cr->span) : 2;
	for (size_t i = 0; i < p->ncats; i++)
		if (ordinal)
			snprintf(p->cat_names[i], sizeof p->cat_names[i], "%.0f", cr->span.lo + (double)i);
		else
			snprintf(p->cat_names[i], sizeof p->cat_names[i], "%s",
			         cr->tag ? tag_names[i] : cr->calls ? call_names[i] : binary_names[i]);
	return p;
}

/* ---- notes --------------------------------------------------------------- */

char *calib_note_join(const char *const *what, const char *const *why, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	bool *done = xcalloc(n + 1, sizeof *done);
	/* Figures undefined for the same reason share one clause. */
	for (size_t i = 0; i < n; i++) {
		if (done[i])
			continue;
		if (sb.len)
			strbuf_addstr(&sb, "; ");
		for (size_t k = i; k < n; k++) {
			if (done[k] || strcmp(why[k], why[i]) != 0)
				continue;
			if (k != i)
				strbuf_addstr(&sb, ", ");
			strbuf_addstr(&sb, what[k]);
			done[k] = true;
		}
		strbuf_addstr(&sb, ": ");
		strbuf_addstr(&sb, why[i]);
	}
	free(done);
	return sb.len ? strbuf_detach(&sb) : (strbuf_release(&sb), NULL);
}

struct notes {
	const char *what[24], *why[24];
	size_t n;
};

/* v and why are read after the call that sets them has run (an
 * argument's order of evaluation is unspecified, so they are pointers). */
static void fig_set(struct calib_fig *f, bool ok, const double *v, const agree_why *why,
                    const char *what, struct notes *ns)
{
	f->ok = ok && isfinite(*v);
	f->v = f->ok ? *v : 0;
	f->why = f->ok ? NULL : *why ? *why : "undefined";
	if (!f->ok && ns->n < sizeof ns->what / sizeof *ns->what) {
		ns->what[ns->n] = what;
		ns->why[ns->n++] = f->why;
	}
}

static void fig_none(struct calib_fig *f, const char *why, const char *what, struct notes *ns)
{
	double zero = 0;
	fig_set(f, false, &zero, &why, what, ns);
}

/* ---- the bootstrap -------------------------------------------------------- */

struct boot {
	const struct calib_item *it;
	size_t k;
	int *a, *b;
	double p;                   /* the machine's pass rate over every run */
	const double *w;            /* the items' weights when weighted, else NULL */
	double *wbuf;               /* a resample's weights */
};

static void boot_cats(const struct boot *bt, const size_t *idx, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		bt->a[i] = bt->it[idx[i]].cat_a;
		bt->b[i] = bt->it[idx[i]].cat_b;
	}
}

static bool boot_agreement(const size_t *idx, size_t n, void *ctx, double *out)
{
	struct boot *bt = ctx;
	agree_why why;
	boot_cats(bt, idx, n);
	double *w = NULL;
	if (bt->w) {
		w = bt->wbuf;
		for (size_t i = 0; i < n; i++)
			w[i] = bt->w[idx[i]];
	}
	return agree_wexact(bt->a, bt->b, w, n, out, &why);
}

static bool boot_kappa(const size_t *idx, size_t n, void *ctx, double *out)
{
	struct boot *bt = ctx;
	agree_why why;
	boot_cats(bt, idx, n);
	return agree_kappa(bt->a, bt->b, n, bt->k, out, &why);
}

/* The corrected pass rate of a resample: the error rates are those of the
 * resampled labelled items; the observed rate p stays the one over every
 * loaded run (it is not what is uncertain: it is counted, not sampled). */
static bool boot_corrected(const size_t *idx, size_t n, void *ctx, double *out)
{
	struct boot *bt = ctx;
	for (size_t i = 0; i < n; i++) {
		bt->a[i] = bt->it[idx[i]].pass_a;
		bt->b[i] = bt->it[idx[i]].pass_b;
	}
	double *w = NULL;
	if (bt->w) {
		w = bt->wbuf;
		for (size_t i = 0; i < n; i++)
			w[i] = bt->w[idx[i]];
	}
	struct agree_wbinary c;
	agree_wbinary_count(bt->a, bt->b, w, n, &c);
	double tpr, tnr;
	agree_why why;
	return agree_wtpr(&c, &tpr, &why) && agree_wtnr(&c, &tnr, &why) &&
	       agree_rogan_gladen(bt->p, tpr, tnr, out, &why);
}

static void ci_set(struct calib_ci *ci, const struct calib_fig *f, size_t n,
                   const struct calib_opts *o, agree_stat_fn fn, struct boot *bt,
                   const char *what, struct notes *ns)
{
	ci->ok = false;
	/* No interval around a figure that is itself undefined. */
	if (!f->ok || o->bootstrap == 0)
		return;
	agree_why why = NULL;
	ci->ok = agree_bootstrap(n, o->bootstrap, o->seed, LEVEL, fn, bt, &ci->lo, &ci->hi, &why) &&
	         isfinite(ci->lo) && isfinite(ci->hi);
	if (!ci->ok && ns->n < sizeof ns->what / sizeof *ns->what) {
		ns->what[ns->n] = what;
		ns->why[ns->n++] = why ? why : "undefined";
	}
}

/* ---- the figures ---------------------------------------------------------- */

static void category_figures(struct calib_pair *p, enum crit_how how, const int *a, const int *b,
                             const double *va, const double *vb, const double *w,
                             struct notes *ns)
{
	size_t n = p->n;
	double v;
	agree_why why = NULL;
	fig_set(&p->agreement, agree_wexact(a, b, w, n, &v, &why), &v, &why, "agreement", ns);
	fig_set(&p->kappa, agree_kappa(a, b, n, p->ncats, &v, &why), &v, &why, "kappa", ns);
	if (how != HOW_BINARY) {
		fig_set(&p->kappa_quadratic, agree_kappa_quadratic(a, b, n, p->ncats, &v, &why), &v, &why,
		        "kappa_quadratic", ns);
		fig_set(&p->spearman, agree_spearman(va, vb, n, &v, &why), &v, &why, "spearman", ns);
		fig_set(&p->mae, agree_mae(va, vb, n, &v, &why), &v, &why, "mae", ns);
	}
	if (how == HOW_ORDINAL)
		fig_set(&p->within_one, agree_within_one(a, b, n, &v, &why), &v, &why, "within_one", ns);
	/* Two raters as units x 2: categories for pass/fail, the numbers otherwise. */
	double *vals = xcalloc(2 * n + 1, sizeof *vals);
	for (size_t i = 0; i < n; i++) {
		vals[2 * i] = how == HOW_BINARY ? a[i] : va[i];
		vals[2 * i + 1] = how == HOW_BINARY ? b[i] : vb[i];
	}
	enum agree_level level = how == HOW_BINARY ? AGREE_NOMINAL
	                       : how == HOW_ORDINAL ? AGREE_ORDINAL : AGREE_INTERVAL;
	fig_set(&p->alpha, agree_alpha(vals, n, 2, level, &v, &why), &v, &why, "alpha", ns);
	free(vals);
}

/* The machine's pass rate over every loaded run, labelled or not. */
static void pass_rate_set(struct calib_pair *p, const struct crit *cr, struct notes *ns)
{
	p->rated = cr->rated;
	double v = cr->rated ? (double)cr->passing / (double)cr->rated : 0;
	agree_why why = NULL;
	if (cr->rated)
		fig_set(&p->pass_rate, true, &v, &why, "pass_rate", ns);
	else
		fig_none(&p->pass_rate, "no run has a machine verdict", "pass_rate", ns);
}

/* w: the items' weights when the pair is weighted, else NULL. */
static void machine_figures(struct calib_pair *p, const struct crit *cr, int *a, int *b,
                            const double *w, struct notes *ns)
{
	size_t n = p->n;
	for (size_t i = 0; i < n; i++) {
		a[i] = p->items[i].pass_a;
		b[i] = p->items[i].pass_b;
	}
	double v;
	agree_why why = NULL;
	if (w) {
		struct agree_wbinary c;
		agree_wbinary_count(a, b, w, n, &c);
		fig_set(&p->tpr, agree_wtpr(&c, &v, &why), &v, &why, "tpr", ns);
		fig_set(&p->tnr, agree_wtnr(&c, &v, &why), &v, &why, "tnr", ns);
		fig_set(&p->precision, agree_wprecision(&c, &v, &why), &v, &why, "precision", ns);
	} else {
		struct agree_binary c;
		agree_binary_count(a, b, n, &c);
		fig_set(&p->tpr, agree_tpr(&c, &v, &why), &v, &why, "tpr", ns);
		fig_set(&p->tnr, agree_tnr(&c, &v, &why), &v, &why, "tnr", ns);
		fig_set(&p->precision, agree_precision(&c, &v, &why), &v, &why, "precision", ns);
	}
	pass_rate_set(p, cr, ns);
	if (p->pass_rate.ok && p->tpr.ok && p->tnr.ok)
		fig_set(&p->pass_rate_corrected,
		        agree_rogan_gladen(p->pass_rate.v, p->tpr.v, p->tnr.v, &v, &why), &v, &why,
		        "pass_rate_corrected", ns);
	else
		fig_none(&p->pass_rate_corrected, "needs the pass rate, tpr and tnr",
		         "pass_rate_corrected", ns);
}

/* A pair with no items: what applies is undefined for one reason, which
 * the note says once. */
static void empty_figures(struct calib_pair *p, const struct crit *cr)
{
	enum crit_how how = how_of(p, cr);
	bool mh = p->kind == CALIB_MACHINE_HUMAN;
	const char *why = mh ? "no run has both a machine verdict and a human label" : NO_ITEMS;
	struct notes sink = { .n = 0 }, ns = { .n = 0 };
	struct calib_fig *all[] = { &p->agreement, &p->kappa, &p->alpha };
	for (size_t i = 0; i < sizeof all / sizeof *all; i++)
		fig_none(all[i], why, "", &sink);
	if (how != HOW_BINARY) {
		fig_none(&p->kappa_quadratic, why, "", &sink);
		fig_none(&p->spearman, why, "", &sink);
		fig_none(&p->mae, why, "", &sink);
	}
	if (how == HOW_ORDINAL)
		fig_none(&p->within_one, why, "", &sink);
	ns.what[0] = "no items";
	ns.why[0] = why;
	ns.n = 1;
	if (mh) {
		fig_none(&p->tpr, why, "", &sink);
		fig_none(&p->tnr, why, "", &sink);
		fig_none(&p->precision, why, "", &sink);
		fig_none(&p->pass_rate_corrected, why, "", &sink);
		pass_rate_set(p, cr, &ns);
	}
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, why);
	if (ns.n > 1)
		strbuf_addf(&sb, "; pass_rate: %s", ns.why[1]);
	p->note = strbuf_detach(&sb);
}

/* The items' weights when any differs from 1 (malloc'd), else NULL: an
 * unweighted pair takes exactly the unweighted paths. */
static double *pair_weights(struct calib_pair *p)
{
	bool any = false;
	for (size_t i = 0; i < p->n && !any; i++)
		any = p->items[i].w > 0 && p->items[i].w != 1;
	p->weighted = any;
	if (!any)
		return NULL;
	double *w = xcalloc(p->n, sizeof *w);
	for (size_t i = 0; i < p->n; i++)
		w[i] = p->items[i].w > 0 ? p->items[i].w : 1;
	return w;
}

/* The Wilson interval of the agreement and the labels that would bring it
 * under the target width (calib.h says how). Before any label the
 * agreement is taken as 0.5, the widest interval, so the figure is an
 * upper bound then. */
static void labels_to_go(struct calib_pair *p, const struct calib_opts *o, const double *w)
{
	p->target_width = o->target_width > 0 ? o->target_width : CALIB_TARGET_WIDTH;
	p->n_eff = agree_kish_n(w, p->n);
	double agree = p->agreement.ok ? p->agreement.v : 0.5;
	if (p->n && !p->agreement.ok)
		return;
	if (p->n)
		p->agreement_wilson.ok = agree_wilson(agree, p->n_eff, AGREE_Z95,
		                                      &p->agreement_wilson.lo, &p->agreement_wilson.hi);
	double need = agree_wilson_n_for_width(agree, p->target_width, AGREE_Z95);
	if (!isfinite(need))
		return;
	/* The labels to come are assumed weighted as those so far: n labels
	 * are worth n_eff, so n_needed effective labels cost n / n_eff each. */
	double scale = p->n && p->n_eff > 0 ? (double)p->n / p->n_eff : 1.0;
	double total = ceil(need * scale - 1e-9);
	p->labels_to_go_ok = true;
	p->labels_to_go = total > (double)p->n ? (size_t)total - p->n : 0;
}

void calib_pair_figures(struct calib_pair *p, const struct crit *cr, const struct calib_opts *o)
{
	struct notes ns = { .n = 0 };
	size_t n = p->n;
	enum crit_how how = how_of(p, cr);
	if (n == 0) {
		empty_figures(p, cr);
		labels_to_go(p, o, NULL);
		return;
	}
	int *a = xcalloc(n, sizeof *a), *b = xcalloc(n, sizeof *b);
	double *va = xcalloc(n, sizeof *va), *vb = xcalloc(n, sizeof *vb);
	for (size_t i = 0; i < n; i++) {
		a[i] = p->items[i].cat_a;
		b[i] = p->items[i].cat_b;
		va[i] = p->items[i].val_a;
		vb[i] = p->items[i].val_b;
	}
	agree_confusion(a, b, n, p->ncats, p->counts);
	double *w = pair_weights(p);
	category_figures(p, how, a, b, va, vb, w, &ns);
	labels_to_go(p, o, w);
	struct boot bt = { .it = p->items, .k = p->ncats, .a = a, .b = b, .w = w,
	                   .wbuf = w ? xcalloc(n, sizeof(double)) : NULL };
	ci_set(&p->agreement_ci, &p->agreement, n, o, boot_agreement, &bt, "agreement_ci", &ns);
	ci_set(&p->kappa_ci, &p->kappa, n, o, boot_kappa, &bt, "kappa_ci", &ns);
	if (p->kind == CALIB_MACHINE_HUMAN) {
		machine_figures(p, cr, a, b, w, &ns);
		bt.p = p->pass_rate.v;
		ci_set(&p->pass_rate_corrected_ci, &p->pass_rate_corrected, n, o, boot_corrected, &bt,
		       "pass_rate_corrected_ci", &ns);
	}
	p->note = calib_note_join(ns.what, ns.why, ns.n);
	free(w);
	free(bt.wbuf);
	free(a);
	free(b);
	free(va);
	free(vb);
}
