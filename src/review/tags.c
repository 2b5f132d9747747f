/* tags.c - failure-mode tags from the review session: written, completed, taken back, aliased, filtered.
 *
 * Tags are decisions like the verdicts' (annot/store.h): each is on disk
 * before the call returns. A code is written with the spelling already in
 * use when one equals it, so that "Wrong Tool" typed today and "wrong tool"
 * yesterday are one subject of the store, and one row of the counts. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "review/tags.h"
#include "review/queue.h"
#include "session_int.h"

#include "annot/vocab.h"
#include "runs/run.h"
#include "util/xalloc.h"

/* ---- what is known ------------------------------------------------------ */

struct codes {
	const char **v;
	size_t n, cap;
};

static void codes_add(struct codes *c, const char *code)
{
	for (size_t i = 0; i < c->n; i++)
		if (vocab_code_eq(c->v[i], code))
			return;
	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 32;
		c->v = xrealloc(c->v, c->cap * sizeof *c->v);
	}
	c->v[c->n++] = code;
}

struct known {
	const struct review *rv;
	struct codes c;
};

static void known_tag(void *ctx, const struct decision *d)
{
	struct known *k = ctx;
	if (d->kind == DEC_TAG && d->tag)
		codes_add(&k->c, d->tag);
	else if (d->kind == DEC_TAG_ALIAS && d->tag_to)
		codes_add(&k->c, d->tag_to);
}

static const struct vocab *vocab_of(const struct review *rv)
{
	static const struct vocab none;
	return rv->cfg ? &rv->cfg->vocab : &none;
}

/* Every free code in the file (typed, or an alias's target), first spelling kept. */
static struct codes known_codes(const struct review *rv)
{
	struct known k = { .rv = rv };
	if (rv->annot)
		annot_each_standing(rv->annot, known_tag, &k);
	return k.c;
}

const char *review_tag_spelling(const struct review *rv, const char *typed)
{
	const struct vocab *vo = vocab_of(rv);
	for (size_t i = 0; i < vo->ntags; i++)
		if (vocab_code_eq(vo->tags[i].id, typed))
			return vo->tags[i].id;
	struct codes c = known_codes(rv);
	const char *found = typed;
	for (size_t i = 0; i < c.n; i++)
		if (vocab_code_eq(c.v[i], typed)) {
			found = c.v[i];
			break;
		}
	free(c.v);
	return found;
}

/* ---- completion --------------------------------------------------------- */

/* Where `typed` occurs in `s`, case aside: 0 at the start, 1 inside, -1 not. */
static int match_at(const char *s, const char *typed)
{
	size_t n = strlen(typed);
	for (size_t i = 0; s && s[i]; i++) {
		size_t k = 0;
		while (k < n && s[i + k] && tolower((unsigned char)s[i + k]) == tolower((unsigned char)typed[k]))
			k++;
		if (k == n)
			return i == 0 ? 0 : 1;
	}
	return n == 0 ? 0 : -1;
}

static bool cand_has(const struct tag_cand *out, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (vocab_code_eq(out[i].name, name))
			return true;
	return false;
}

size_t review_tag_candidates(const struct review *rv, const char *typed, struct tag_cand *out,
                             size_t max)
{
	const struct vocab *vo = vocab_of(rv);
	struct codes c = known_codes(rv);
	size_t n = 0;
	typed = typed ? typed : "";
	while (isspace((unsigned char)*typed))  /* a space first only gets past the keys */
		typed++;
	/* round 0: starts with it; round 1: holds it (a description too) */
	for (int round = 0; round < 2; round++) {
		for (size_t i = 0; i < vo->ntags && n < max; i++) {
			const struct tag_def *d = &vo->tags[i];
			int at = match_at(d->id, typed);
			bool hit = round == 0 ? at == 0 : at == 1 || match_at(d->description, typed) >= 0;
			if (hit && !cand_has(out, n, d->id))
				out[n++] = (struct tag_cand){ .name = d->id, .hint = d->description,
				                              .defined = true, .key = d->key };
		}
		for (size_t i = 0; i < c.n && n < max; i++) {
			int at = match_at(c.v[i], typed);
			if ((round == 0 ? at == 0 : at == 1) && !cand_has(out, n, c.v[i])) {
				const char *under = vocab_tag_name(vo, rv->annot, c.v[i]);
				out[n++] = (struct tag_cand){
					.name = c.v[i], .hint = vocab_code_eq(under, c.v[i]) ? NULL : under };
			}
		}
	}
	free(c.v);
	return n;
}

/* ---- the tags on a run -------------------------------------------------- */

struct on_ctx {
	long call;
	const char *reviewer;           /* only this one's, when set */
	const struct decision **out;
	size_t max, n;
	const struct decision *latest;
};

static void tag_on(void *ctx, const struct decision *d)
{
	struct on_ctx *o = ctx;
	if (d->kind != DEC_TAG || (o->call >= 0 && d->call != o->call))
		return;
	if (o->reviewer && (!d->reviewer || strcmp(d->reviewer, o->reviewer) != 0))
		return;
	if (o->n < o->max)
		o->out[o->n] = d;
	o->n++;
	if (!o->latest || strcmp(d->at ? d->at : "", o->latest->at ? o->latest->at : "") >= 0)
		o->latest = d;
}

size_t review_tags_on(const struct review *rv, const char *run, long call,
                      const struct decision **out, size_t max)
{
	struct on_ctx o = { .call = call, .out = out, .max = max };
	if (rv->annot && run)
		annot_each_of_run(rv->annot, run, tag_on, &o);
	return o.n < max ? o.n : max;
}

static const char *current_id(const struct review *rv)
{
	size_t entry = review_current_entry(rv);
	return entry == SIZE_MAX ? NULL : rv->entries[entry].id;
}

const struct decision *review_latest_tag(const struct review *rv, long call)
{
	const char *run = current_id(rv);
	struct on_ctx o = { .call = call, .reviewer = rv->reviewer };
	if (rv->annot && run)
		annot_each_of_run(rv->annot, run, tag_on, &o);
	return o.latest;
}

bool review_tag_is_latest(const struct review *rv, size_t row)
{
	const struct decision *tag = review_latest_tag(rv, -1);
	if (!tag)
		return false;
	const char *run = current_id(rv);
	const struct decision *v = row < review_nrows(rv) ?
		annot_current(rv->annot, run, review_row_id(rv, row), rv->reviewer) : NULL;
	return !v || strcmp(tag->at ? tag->at : "", v->at ? v->at : "") >= 0;
}

/* ---- writing ------------------------------------------------------------ */

/* A tag or its retract on the current run, with the call's id and tool. */
static int write_tag(struct review *rv, enum decision_kind kind, long call, const char *code,
                     struct error *err)
{
	size_t entry = review_current_entry(rv);
	if (entry == SIZE_MAX)
		return review_fail(rv, ERR_NO_RUN, err, "no run selected");
	const struct review_entry *e = &rv->entries[entry];
	char run_hash[65];
	struct decision d = {
		.kind = kind, .run = e->id, .source = e->source, .reviewer = rv->reviewer,
		.run_hash = review_entry_hash(e, run_hash) ? run_hash : NULL,
		.blind = rv->blind, .tag = code, .call = call,
		.retracts_set = kind == DEC_RETRACT, .retracts = DEC_TAG,
	};
	if (kind != DEC_RETRACT)
		review_queue_stamp(rv, entry, &d);  /* a sampled queue's weight, for the shares */
	if (call > 0) {
		struct review_run *rr = review_run_at(rv, entry);
		if (!rr || !rr->run || (size_t)call > rr->run->ncalls)
			return review_fail(rv, ERR_NO_ROW, err, "no call %ld in this run", call);
		d.call_id = rr->run->calls[call - 1].id;
		d.tool = rr->run->calls[call - 1].name;
	}
	if (annot_append(rv->annot, &d, err) < 0)
		return review_fail_as(rv, ERR_STORE, err);
	rv->labels_gen++;
	if (rv->filter == FILTER_TAG) {
		rv->view_dirty = true;
		rv->view_hold = true;
	}
	return 0;
}

int review_tag(struct review *rv, long call, const char *code, struct error *err)
{
	while (code && isspace((unsigned char)*code))
		code++;
	if (!code || !*code)
		return review_fail(rv, ERR_FAILED, err, "an empty tag says nothing");
	code = review_tag_spelling(rv, code);
	const struct decision *on[64];
	const char *run = current_id(rv);
	size_t n = review_tags_on(rv, run, call, on, 64);
	for (size_t i = 0; i < n; i++)
		if (on[i]->reviewer && !strcmp(on[i]->reviewer, rv->reviewer) &&
		    vocab_code_eq(on[i]->tag, code))
			return 1;
	/* the store's pointer may move with the append: copy the spelling */
	char *copy = xstrdup(code);
	int rc = write_tag(rv, DEC_TAG, call, copy, err);
	free(copy);
	return rc;
}

int review_untag(struct review *rv, long call, char *code, size_t n, struct error *err)
{
	const struct decision *d = review_latest_tag(rv, call);
	if (!d)
		return review_fail(rv, ERR_NOTHING_TO_RETRACT, err, "no tag of yours to take back");
	snprintf(code, n, "%s", d->tag);
	char *copy = xstrdup(d->tag);
	int rc = write_tag(rv, DEC_RETRACT, d->call, copy, err);
	free(copy);
	return rc;
}

/* ---- aliases ------------------------------------------------------------ */

int review_tag_alias(struct review *rv, const char *const *codes, size_t n, const char *to,
                     struct error *err)
{
	while (to && isspace((unsigned char)*to))
		to++;
	if (!to || !*to)
		return review_fail(rv, ERR_FAILED, err, "an empty name says nothing");
	char *dest = xstrdup(review_tag_spelling(rv, to));
	struct decision *ds = xcalloc(n + 1, sizeof *ds);
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (vocab_code_eq(codes[i], dest) ||
		    vocab_code_eq(vocab_tag_name(vocab_of(rv), rv->annot, codes[i]), dest))
			continue;
		ds[k++] = (struct decision){ .kind = DEC_TAG_ALIAS, .reviewer = rv->reviewer,
		                             .tag = codes[i], .tag_to = dest };
	}
	int rc = 0;
	if (!k)
		rc = review_fail(rv, ERR_FAILED, err, "already counted under %s", dest);
	else if (annot_append_many(rv->annot, ds, k, err) < 0)
		rc = review_fail_as(rv, ERR_STORE, err);
	else
		rv->labels_gen++;
	free(ds);
	free(dest);
	if (rc == 0 && rv->filter == FILTER_TAG) {
		rv->view_dirty = true;
		rv->view_hold = true;
	}
	return rc;
}

struct alias_find {
	const char *code;
	const struct decision *d;
};

static void alias_of(void *ctx, const struct decision *d)
{
	struct alias_find *a = ctx;
	if (d->kind == DEC_TAG_ALIAS && d->tag && vocab_code_eq(d->tag, a->code))
		a->d = d;
}

int review_tag_unalias(struct review *rv, const char *code, struct error *err)
{
	struct alias_find a = { .code = code };
	annot_each_standing(rv->annot, alias_of, &a);
	if (!a.d)
		return review_fail(rv, ERR_NOTHING_TO_RETRACT, err, "%s has no alias to take back", code);
	char *copy = xstrdup(a.d->tag);
	struct decision d = { .kind = DEC_RETRACT, .reviewer = rv->reviewer, .tag = copy,
	                      .retracts_set = true, .retracts = DEC_TAG_ALIAS };
	int rc = annot_append(rv->annot, &d, err);
	free(copy);
	if (rc < 0)
		return review_fail_as(rv, ERR_STORE, err);
	rv->labels_gen++;
	return 0;
}

/* ---- the filter --------------------------------------------------------- */

void review_set_tag_filter(struct review *rv, const char *name)
{
	snprintf(rv->tagf.name, sizeof rv->tagf.name, "%s", name ? name : "");
	snprintf(rv->tagf.label, sizeof rv->tagf.label, "tag %s", rv->tagf.name);
	review_set_filter(rv, FILTER_TAG);
}
