/* calib.c - calibration figures from a review session: each criterion's runs, labels and pairs.
 *
 * One pass over the session's entries per criterion gathers what every
 * pair needs (the machine's verdict, the labels that count, their
 * consensus); the pairs are then made from those gathered runs by putting
 * each run's labels in per-reviewer buckets, so nothing is searched and a
 * build without bootstrap stays linear in runs x rows x labels. The
 * figures of a pair are calib_figs.c's; the judge comparison and the
 * threshold sweep calib_compare.c's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib_int.h"
#include "annot/split.h"
#include "judge/judge.h"
#include "review/failmodes.h"
#include "review/labels.h"
#include "review/session.h"
#include "util/agree.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/error.h"

const char *calib_kind_name(enum calib_kind k)
{
	switch (k) {
	case CALIB_MACHINE_HUMAN: return "machine-human";
	case CALIB_HUMAN_HUMAN: return "human-human";
	case CALIB_REVIEWERS: return "reviewers";
	case CALIB_CODE_JUDGE: return "code-judge";
	}
	return "?";
}

/* ---- which criteria ---------------------------------------------------------- */

static long row_of(const struct review *rv, const char *id)
{
	for (size_t r = 0; r < review_nrows(rv); r++)
		if (strcmp(review_row_id(rv, r), id) == 0)
			return (long)r;
	return -1;
}

static void ids_list(const struct review *rv, size_t from, size_t to, char *buf, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t r = from; r < to; r++)
		strbuf_addf(&sb, "%s%s", sb.len ? ", " : "", review_row_id(rv, r));
	snprintf(buf, n, "%s", sb.len ? sb.buf : "none");
	strbuf_release(&sb);
}

/* want[row]: 1 when the row's pairs are reported, 2 when it is only
 * gathered for a comparison. */
static int criteria_pick(struct calib_ctx *x, unsigned char *want, struct error *err)
{
	const struct review *rv = x->rv;
	const struct calib_opts *o = x->o;
	size_t nrows = review_nrows(rv), nsc = rv->cfg->nscorers;
	char ids[1024];
	for (size_t r = 0; r < nrows; r++)
		want[r] = o->ncriteria ? 0 : 1;
	for (size_t i = 0; i < o->ncriteria; i++) {
		long r = row_of(rv, o->criteria[i]);
		if (r < 0) {
			ids_list(rv, 0, nrows, ids, sizeof ids);
			error_set(err, ERR_FAILED, "unknown criterion '%s' (criteria: %s)", o->criteria[i], ids);
			return -1;
		}
		want[r] = 1;
	}
	for (size_t i = 0; i < o->ncompare_judges; i++) {
		long r = row_of(rv, o->compare_judges[i]);
		if (r < 0 || (size_t)r < nsc) {
			ids_list(rv, nsc, nrows, ids, sizeof ids);
			error_set(err, ERR_FAILED, "%s '%s' (judges: %s)", r < 0 ? "unknown judge" : "not a judge:",
			         o->compare_judges[i], ids);
			return -1;
		}
		if (!want[r])
			want[r] = 2;
	}
	return 0;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The reviewers counted, sorted by name as review_labels sorts labels. */
static void reviewers_pick(struct calib_ctx *x)
{
	const char *const *names = x->o->reviewers;
	size_t n = x->o->nreviewers;
	if (!names || n == 0)
		n = annot_reviewers(x->rv->annot, &names);
	x->who = xcalloc(n + 1, sizeof *x->who);
	for (size_t i = 0; i < n; i++)
		x->who[i] = names[i];
	qsort(x->who, n, sizeof *x->who, name_cmp);
	x->nwho = 0;
	for (size_t i = 0; i < n; i++)
		if (x->nwho == 0 || strcmp(x->who[x->nwho - 1], x->who[i]) != 0)
			x->who[x->nwho++] = x->who[i];
}

static long who_of(const struct calib_ctx *x, const char *name)
{
	const char **hit = bsearch(&name, x->who, x->nwho, sizeof *x->who, name_cmp);
	return hit ? (long)(hit - x->who) : -1;
}

/* ---- gathering a criterion ------------------------------------------------------ */

static void crit_init(struct calib_ctx *x, struct crit *cr, size_t row)
{
	const struct review *rv = x->rv;
	struct review_row rr;
	review_row_get(rv, NULL, row, &rr);
	cr->row = row;
	cr->id = rr.id;
	cr->row_id = rr.id;
	cr->judge = rr.kind == ROW_JUDGE;
	cr->span = rr.span;
	cr->threshold = review_row_threshold(rv, row);
	cr->tag = review_row_criterion(rv, row, &cr->present_pass);
	if (cr->tag) {
		/* Present or absent, whatever the verdict's own scale. */
		snprintf(cr->tag_id, sizeof cr->tag_id, "tag:%s", cr->tag);
		cr->id = cr->tag_id;
		cr->span = scale_of(SCALE_BINARY);
		cr->threshold = 1;
	}
	/* By the scale's properties: whole-number levels, not its name. */
	cr->how = cr->span.kind == SCALE_BINARY ? HOW_BINARY
	        : scale_ordinal(&cr->span) ? HOW_ORDINAL : HOW_NUMERIC;
	snprintf(cr->name, sizeof cr->name, "%s:%s", cr->judge ? "judge" : "scorer", cr->row_id);
	cr->stale_by = xcalloc(x->nwho + 1, sizeof *cr->stale_by);
}

/* The machine's verdict on an entry: a scorer's cell, or a judge's answer
 * (asked now or read from the cache). */
static bool machine_of(const struct review *rv, const struct review_entry *e, const struct crit *cr,
                       double *score, bool *pass)
{
	size_t nsc = rv->cfg->nscorers;
	if (!cr->judge) {
		if (!e->cells || e->cells[cr->row].status != VERDICT_OK)
			return false;
		*score = e->cells[cr->row].score;
		*pass = e->cells[cr->row].passed;
		return true;
	}
	const struct judge_cell *c = e->jcells ? &e->jcells[cr->row - nsc] : NULL;
	if (!c || c->state != JUDGE_DONE || c->v.status != VERDICT_OK)
		return false;
	*score = c->v.score;
	*pass = c->v.passed;
	return true;
}

/* The labels that count go to cr->labs; stale ones are counted. */
static uint32_t labels_take(struct calib_ctx *x, struct crit *cr, const struct label *l, size_t nl)
{
	uint32_t taken = 0;
	for (size_t i = 0; i < nl; i++) {
		long w = who_of(x, l[i].reviewer);
		if (w < 0)
			continue;
		if (l[i].stale) {
			cr->stale_by[w]++;
			cr->stale++;
			if (!x->o->include_stale)
				continue;
		}
		if (cr->nlabs == cr->lcap) {
			cr->lcap = cr->lcap ? cr->lcap * 2 : 64;
			cr->labs = xrealloc(cr->labs, cr->lcap * sizeof *cr->labs);
		}
		/* A run drawn by a sampled queue stands for 1/pi runs: its
		 * decisions say so (the weight is the run's, whoever decided). */
		double wt = l[i].d && l[i].d->has_weight && l[i].d->weight >= 1 ? l[i].d->weight : 1;
		cr->labs[cr->nlabs++] = (struct clabel){ .who = (uint32_t)w, .pass = l[i].passed,
		                                         .score = l[i].score, .w = wt };
		taken++;
	}
	return taken;
}

/* Whether a run is in one of the splits asked for (every run when none). */
static bool in_splits(const struct calib_opts *o, const char *id)
{
	if (!o->split || !o->nonly_splits)
		return true;
	const char *name = split_of(o->split, id);
	for (size_t i = 0; i < o->nonly_splits; i++)
		if (!strcmp(name, o->only_splits[i]))
			return true;
	return false;
}

static void crit_gather(struct calib_ctx *x, struct crit *cr, bool *labelled)
{
	const struct review *rv = x->rv;
	struct label l[LABELS_MAX];
	for (size_t e = 0; e < rv->nentries; e++) {
		const struct review_entry *en = &rv->entries[e];
		if (!en->summarized || !in_splits(x->o, en->id))
			continue;
		struct cunit u = { .entry = e, .lab = cr->nlabs, .w = 1 };
		u.has_m = machine_of(rv, en, cr, &u.m, &u.m_pass);
		if (u.has_m && cr->tag) {
			u.m_pass = u.m_pass == cr->present_pass;
			u.m = u.m_pass;
		}
		if (u.has_m) {
			cr->rated++;
			cr->passing += u.m_pass;
		}
		const char *const *only = x->o->nreviewers ? x->o->reviewers : NULL;
		size_t nl = cr->tag ? review_tag_labels(rv, e, cr->tag, only, x->o->nreviewers, l, LABELS_MAX)
		          : review_labels(rv, e, cr->row, only, x->o->nreviewers, l, LABELS_MAX);
		u.nlab = labels_take(x, cr, l, nl);
		for (uint32_t k = 0; k < u.nlab; k++)
			if (cr->labs[u.lab + k].w > u.w)
				u.w = cr->labs[u.lab + k].w;
		if (!u.has_m && u.nlab == 0)
			continue;
		u.cons = (uint8_t)labels_consensus(l, nl, &cr->span, cr->threshold, x->o->include_stale,
		                                   &u.c, &u.c_pass);
		if (u.cons == CONSENSUS_TIE && u.has_m)
			cr->ties++;
		if (u.nlab && labelled)
			labelled[e] = true;
		if (cr->nunits == cr->ucap) {
			cr->ucap = cr->ucap ? cr->ucap * 2 : 256;
			cr->units = xrealloc(cr->units, cr->ucap * sizeof *cr->units);
		}
		cr->units[cr->nunits++] = u;
	}
}

/* ---- the pairs of a criterion ---------------------------------------------------- */

static struct calib_item item_of(const struct crit *cr, const struct cunit *u, double sa,
                                 bool pa, double sb, bool pb)
{
	return (struct calib_item){
		.entry = u->entry, .cat_a = calib_cat(cr, sa, pa), .cat_b = calib_cat(cr, sb, pb),
		.val_a = sa, .val_b = sb, .pass_a = pa, .pass_b = pb, .w = u->w,
	};
}

/* Hands the items to a new pair and figures it; a pair without items is
 * left out unless `always`. */
static void pair_emit(struct calib_ctx *x, const struct crit *cr, enum calib_kind kind,
                      const char *a, const char *b, struct itemvec *iv, size_t ties, size_t stale,
                      bool always)
{
	if (iv->n == 0 && !always) {
		free(iv->v);
		*iv = (struct itemvec){ 0 };
		return;
	}
	struct calib_pair *p = calib_pair_add(x->out, cr, kind, a, b);
	p->items = iv->v;
	p->n = iv->n;
	p->ties = ties;
	p->stale = stale;
	*iv = (struct itemvec){ 0 };
	calib_pair_figures(p, cr, x->o);
}

static void machine_pairs(struct calib_ctx *x, const struct crit *cr)
{
	struct itemvec cons = { 0 };
	struct itemvec *by = xcalloc(x->nwho + 1, sizeof *by);
	for (size_t i = 0; i < cr->nunits; i++) {
		const struct cunit *u = &cr->units[i];
		if (!u->has_m)
			continue;
		if (u->cons == CONSENSUS_OK) {
			struct calib_item it = item_of(cr, u, u->m, u->m_pass, u->c, u->c_pass);
			itemvec_push(&cons, &it);
		}
		for (uint32_t k = 0; k < u->nlab; k++) {
			const struct clabel *l = &cr->labs[u->lab + k];
			struct calib_item it = item_of(cr, u, u->m, u->m_pass, l->score, l->pass);
			itemvec_push(&by[l->who], &it);
		}
	}
	pair_emit(x, cr, CALIB_MACHINE_HUMAN, cr->name, "human", &cons, cr->ties, cr->stale, true);
	for (size_t w = 0; w < x->nwho; w++) {
		char b[160];
		snprintf(b, sizeof b, "human:%s", x->who[w]);
		pair_emit(x, cr, CALIB_MACHINE_HUMAN, cr->name, b, &by[w], 0, cr->stale_by[w], false);
	}
	free(by);
}

/* Each run's labels are sorted by reviewer, so label i < label k means
 * who_i < who_k: the bucket of the pair (who_i, who_k). */
static void human_pairs(struct calib_ctx *x, const struct crit *cr)
{
	size_t nw = x->nwho;
	if (nw < 2)
		return;
	struct itemvec *by = xcalloc(nw * nw, sizeof *by);
	for (size_t i = 0; i < cr->nunits; i++) {
		const struct cunit *u = &cr->units[i];
		for (uint32_t j = 0; j < u->nlab; j++)
			for (uint32_t k = j + 1; k < u->nlab; k++) {
				const struct clabel *la = &cr->labs[u->lab + j], *lb = &cr->labs[u->lab + k];
				if (la->who > lb->who) {
					const struct clabel *t = la;
					la = lb;
					lb = t;
				}
				struct calib_item it = item_of(cr, u, la->score, la->pass, lb->score,
				                               lb->pass);
				itemvec_push(&by[la->who * nw + lb->who], &it);
			}
	}
	for (size_t a = 0; a < nw; a++)
		for (size_t b = a + 1; b < nw; b++) {
			char na[160], nb[160];
			snprintf(na, sizeof na, "human:%s", x->who[a]);
			snprintf(nb, sizeof nb, "human:%s", x->who[b]);
			pair_emit(x, cr, CALIB_HUMAN_HUMAN, na, nb, &by[a * nw + b], 0,
			          cr->stale_by[a] + cr->stale_by[b], false);
		}
	free(by);
}

/* Krippendorff's alpha over every reviewer: the runs with two labels or
 * more are its units (the others carry no pairs). */
static void reviewers_alpha(struct calib_ctx *x, const struct crit *cr)
{
	size_t nw = x->nwho, nu = 0;
	if (nw < 2)
		return;
	for (size_t i = 0; i < cr->nunits; i++)
		nu += cr->units[i].nlab >= 2;
	if (nu == 0)
		return;
	double *vals = xcalloc(nu * nw, sizeof *vals);
	for (size_t i = 0; i < nu * nw; i++)
		vals[i] = NAN;
	size_t u = 0;
	for (size_t i = 0; i < cr->nunits; i++) {
		const struct cunit *cu = &cr->units[i];
		if (cu->nlab < 2)
			continue;
		for (uint32_t k = 0; k < cu->nlab; k++) {
			const struct clabel *l = &cr->labs[cu->lab + k];
			vals[u * nw + l->who] = cr->how == HOW_BINARY ? (l->pass ? 1 : 0) : l->score;
		}
		u++;
	}
	enum agree_level level = cr->how == HOW_BINARY ? AGREE_NOMINAL
	                       : cr->how == HOW_ORDINAL ? AGREE_ORDINAL : AGREE_INTERVAL;
	struct calib_pair *p = calib_pair_add(x->out, cr, CALIB_REVIEWERS, "reviewers", NULL);
	p->n = nu;
	p->stale = cr->stale;
	p->ncats = 0;                       /* no confusion over several raters */
	double v;
	agree_why why = NULL;
	p->alpha.ok = agree_alpha(vals, nu, nw, level, &v, &why) && isfinite(v);
	p->alpha.v = p->alpha.ok ? v : 0;
	p->alpha.why = p->alpha.ok ? NULL : why ? why : "undefined";
	if (!p->alpha.ok) {
		const char *what = "alpha";
		p->note = calib_note_join(&what, &p->alpha.why, 1);
	}
	free(vals);
}

/* A code scorer and a judge on the runs both scored, pass/fail; both
 * criteria hold their units by entry, so one merge walk pairs them. */
static void code_judge_pair(struct calib_ctx *x, const struct crit *sc, const struct crit *jc)
{
	struct itemvec iv = { 0 };
	size_t i = 0, k = 0;
	while (i < sc->nunits && k < jc->nunits) {
		const struct cunit *us = &sc->units[i], *uj = &jc->units[k];
		if (us->entry < uj->entry) {
			i++;
		} else if (uj->entry < us->entry) {
			k++;
		} else {
			if (us->has_m && uj->has_m) {
				struct calib_item it = {
					.entry = us->entry, .cat_a = us->m_pass, .cat_b = uj->m_pass,
					.val_a = us->m_pass, .val_b = uj->m_pass,
					.pass_a = us->m_pass, .pass_b = uj->m_pass, .w = 1,
				};
				itemvec_push(&iv, &it);
			}
			i++;
			k++;
		}
	}
	pair_emit(x, jc, CALIB_CODE_JUDGE, sc->name, jc->name, &iv, 0, 0, false);
}

static void crit_pairs(struct calib_ctx *x, const struct crit *cr)
{
	machine_pairs(x, cr);
	human_pairs(x, cr);
	reviewers_alpha(x, cr);
	if (!cr->judge)
		return;
	for (size_t s = 0; s < x->ncrits; s++) {
		const struct crit *sc = &x->crits[s];
		/* A scorer and a judge compare only on one criterion: the
		 * same row's labels, or the same failure mode. */
		bool same = !sc->tag == !cr->tag && (!sc->tag || !strcmp(sc->tag, cr->tag));
		if (!sc->judge && sc->emit && same && config_compares(x->rv->cfg, sc->id, cr->id))
			code_judge_pair(x, sc, cr);
	}
}

/* ---- the whole ------------------------------------------------------------------- */

static void ctx_free(struct calib_ctx *x)
{
	for (size_t i = 0; i < x->ncrits; i++) {
		free(x->crits[i].units);
		free(x->crits[i].labs);
		free(x->crits[i].stale_by);
	}
	free(x->crits);
	free(x->who);
}

int calib_build(struct calib *c, const struct review *rv, const struct calib_opts *o, struct error *err)
{
	static const struct calib_opts none;
	memset(c, 0, sizeof *c);
	struct calib_ctx x = { .rv = rv, .o = o ? o : &none, .out = c };
	size_t nrows = review_nrows(rv);
	unsigned char *want = xcalloc(nrows + 1, 1);
	if (criteria_pick(&x, want, err) < 0) {
		free(want);
		return -1;
	}
	reviewers_pick(&x);
	c->nreviewers = x.nwho;
	bool *labelled = xcalloc(rv->nentries + 1, sizeof *labelled);
	x.crits = xcalloc(nrows + 1, sizeof *x.crits);
	for (size_t r = 0; r < nrows; r++) {
		if (!want[r])
			continue;
		struct crit *cr = &x.crits[x.ncrits++];
		crit_init(&x, cr, r);
		cr->emit = want[r] == 1;
		crit_gather(&x, cr, cr->emit ? labelled : NULL);
		if (cr->emit)
			c->stale_total += cr->stale;
	}
	for (size_t i = 0; i < x.ncrits; i++)
		if (x.crits[i].emit)
			crit_pairs(&x, &x.crits[i]);
	for (size_t e = 0; e < rv->nentries; e++)
		c->labelled_runs += labelled[e];
	calib_compares(&x);
	if (x.o->sweep)
		calib_sweeps(&x);
	free(labelled);
	free(want);
	ctx_free(&x);
	return 0;
}

void calib_free(struct calib *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->npairs; i++) {
		free(c->pairs[i].items);
		free((char *)c->pairs[i].note);
	}
	free(c->pairs);
	for (size_t i = 0; i < c->ncompares; i++) {
		free(c->compares[i].one_agrees);
		free((char *)c->compares[i].note);
	}
	free(c->compares);
	for (size_t i = 0; i < c->nsweeps; i++) {
		free(c->sweeps[i].points);
		free((char *)c->sweeps[i].note);
	}
	free(c->sweeps);
	memset(c, 0, sizeof *c);
}

const struct calib_pair *calib_find(const struct calib *c, const char *criterion)
{
	for (size_t i = 0; i < c->npairs; i++) {
		const struct calib_pair *p = &c->pairs[i];
		if (p->kind == CALIB_MACHINE_HUMAN && !strcmp(p->b, "human") &&
		    !strcmp(p->criterion, criterion))
			return p;
	}
	for (size_t i = 0; i < c->npairs; i++) {
		const struct calib_pair *p = &c->pairs[i];
		if (p->kind == CALIB_MACHINE_HUMAN && !strcmp(p->b, "human") && !strcmp(p->row, criterion))
			return p;
	}
	return NULL;
}
