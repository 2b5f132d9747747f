/* callrefs.c - a run's call labels and corrections gathered per call, and the corrected trajectory they make.
 *
 * A leaf of review/: it reads the annotations store and knows nothing of
 * the session, so the screen (what it draws under a call), `x` (what it
 * takes back) and export (the reference) agree on what stands. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "review/callrefs.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

struct gather_ctx {
	struct run_call_decs *cd;
	const char *const *reviewers;
	size_t nreviewers;
};

static bool wanted(const struct gather_ctx *g, const char *reviewer)
{
	if (!g->reviewers)
		return true;
	for (size_t i = 0; i < g->nreviewers; i++)
		if (reviewer && !strcmp(g->reviewers[i], reviewer))
			return true;
	return false;
}

static bool later(const struct decision *a, const struct decision *b)
{
	if (!b)
		return true;
	if (!a->at || !b->at)
		return a->at != NULL;
	return strcmp(a->at, b->at) > 0;
}

/* Keeps d in *slot when it is later than what is there (another reviewer's). */
static void keep(struct run_call_decs *cd, const struct decision **slot, const struct decision *d)
{
	if (later(d, *slot))
		*slot = d;
	cd->n++;
	if (later(d, cd->latest))
		cd->latest = d;
	for (size_t i = 0; i < cd->nreviewers && i < 8; i++)
		if (!strcmp(cd->reviewers[i], d->reviewer))
			return;
	if (cd->nreviewers < 8)
		cd->reviewers[cd->nreviewers] = d->reviewer;
	cd->nreviewers++;
}

static void gather_one(void *ctx, const struct decision *d)
{
	struct gather_ctx *g = ctx;
	struct run_call_decs *cd = g->cd;
	if ((d->kind != DEC_CALL_LABEL && d->kind != DEC_CORRECT) || !wanted(g, d->reviewer))
		return;
	if (d->kind == DEC_CORRECT && d->correction == CORR_ANSWER) {
		keep(cd, &cd->answer, d);
		return;
	}
	/* an insertion may stand after the last call; nothing else may */
	size_t max = d->kind == DEC_CORRECT && d->correction == CORR_INSERT ? cd->ncalls + 1 : cd->ncalls;
	if (d->call < 1 || (size_t)d->call > max) {
		cd->off_run++;
		return;
	}
	struct call_decs *c = &cd->per[d->call - 1];
	if (d->kind == DEC_CALL_LABEL)
		keep(cd, &c->label, d);
	else if (d->correction == CORR_INSERT)
		keep(cd, &c->insert, d);
	else if (d->correction == CORR_REPLACE || d->correction == CORR_REMOVE)
		keep(cd, &c->fix, d);
}

void callrefs_gather(const struct annot_store *s, const char *run, const char *const *reviewers,
                     size_t nreviewers, size_t ncalls, struct run_call_decs *out)
{
	memset(out, 0, sizeof *out);
	out->ncalls = ncalls;
	out->per = xcalloc(ncalls + 1, sizeof *out->per);
	struct gather_ctx g = { .cd = out, .reviewers = reviewers, .nreviewers = nreviewers };
	if (s && run)
		annot_each_of_run(s, run, gather_one, &g);
}

void callrefs_free(struct run_call_decs *cd)
{
	free(cd->per);
	memset(cd, 0, sizeof *cd);
}

/* On equal times (one second apart at most) a correction is taken back
 * before a label: it was most likely made after looking at the call. */
static int rank_of(const struct decision *d)
{
	if (!d)
		return -1;
	return d->kind == DEC_CALL_LABEL ? 0 : d->correction == CORR_INSERT ? 2 : 1;
}

static const struct decision *latest_of(const struct decision *a, const struct decision *b)
{
	if (!a || !b)
		return a ? a : b;
	int c = a->at && b->at ? strcmp(a->at, b->at) : 0;
	if (c)
		return c > 0 ? a : b;
	return rank_of(a) >= rank_of(b) ? a : b;
}

const struct decision *callrefs_latest_on(const struct run_call_decs *cd, size_t call)
{
	if (call < 1 || call > cd->ncalls)
		return NULL;
	const struct call_decs *c = &cd->per[call - 1];
	const struct decision *d = latest_of(latest_of(c->label, c->fix), c->insert);
	if (call == cd->ncalls)
		d = latest_of(d, cd->per[cd->ncalls].insert);
	return d;
}

json_t *callrefs_expected(const struct decision *d)
{
	return d && d->expected ? json_loads(d->expected, JSON_DECODE_ANY, NULL) : NULL;
}

/* A call as the reference holds it: its name, and its arguments as an
 * object ({} when none was given). */
static json_t *ref_call(const json_t *c)
{
	json_t *args = json_object_get(c, "arguments");
	/* "o" steals: a borrowed object is lent one more reference, a new one given */
	return json_pack("{s:O, s:o}", "name", json_object_get(c, "name"),
	                 "arguments", json_is_object(args) ? json_incref(args) : json_object());
}

static void add_inserted(json_t *ref, const struct decision *d, struct ref_counts *n)
{
	json_t *v = callrefs_expected(d);
	if (json_is_object(v)) {
		json_array_append_new(ref, ref_call(v));
		n->inserted++;
	}
	size_t i;
	json_t *c;
	json_array_foreach(json_is_array(v) ? v : NULL, i, c) {
		json_array_append_new(ref, ref_call(c));
		n->inserted++;
	}
	json_decref(v);
}

json_t *callrefs_reference(const struct run_call_decs *cd, json_t *const *calls, double pass,
                           struct ref_counts *n, json_t **wrong_kept)
{
	json_t *ref = json_array();
	memset(n, 0, sizeof *n);
	if (wrong_kept)
		*wrong_kept = json_array();
	for (size_t i = 0; i <= cd->ncalls; i++) {
		const struct call_decs *c = &cd->per[i];
		if (c->insert)
			add_inserted(ref, c->insert, n);
		if (i == cd->ncalls || !calls[i])
			continue;
		if (c->fix && c->fix->correction == CORR_REMOVE) {
			n->removed++;
			continue;
		}
		json_t *fixed = c->fix ? callrefs_expected(c->fix) : NULL;
		if (json_is_object(fixed)) {
			json_array_append_new(ref, ref_call(fixed));
			n->corrected++;
		} else {
			json_array_append_new(ref, ref_call(calls[i]));
			n->kept++;
			if (wrong_kept && c->label && c->label->has_score && c->label->score < pass)
				json_array_append_new(*wrong_kept, json_integer((json_int_t)i + 1));
		}
		json_decref(fixed);
	}
	return ref;
}

/* ---- a call in a line ------------------------------------------------------ */

static void brief_value(struct strbuf *b, const json_t *v)
{
	if (json_is_string(v)) {
		strbuf_addch(b, '"');
		strbuf_addstr(b, json_string_value(v));
		strbuf_addch(b, '"');
		return;
	}
	char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
	strbuf_addstr(b, s ? s : "?");
	free(s);
}

static void brief_call(struct strbuf *b, const json_t *call)
{
	const char *name = json_string_value(json_object_get(call, "name"));
	strbuf_addstr(b, name && *name ? name : "(no name)");
	strbuf_addch(b, '(');
	const json_t *args = json_object_get(call, "arguments");
	const char *k;
	json_t *v;
	bool first = true;
	json_object_foreach((json_t *)(json_is_object(args) ? args : NULL), k, v) {
		if (!first)
			strbuf_addstr(b, ", ");
		first = false;
		strbuf_addf(b, "%s: ", k);
		brief_value(b, v);
	}
	strbuf_addch(b, ')');
}

void callrefs_brief(const json_t *call, size_t max, char *out, size_t outlen)
{
	struct strbuf b = STRBUF_INIT;
	if (json_is_array(call)) {
		size_t i;
		json_t *c;
		json_array_foreach(call, i, c) {
			if (i)
				strbuf_addstr(&b, ", ");
			brief_call(&b, c);
		}
	} else {
		brief_call(&b, call);
	}
	size_t len = b.len;
	if (max && len > max) {
		/* cut at a character's start, then "…" */
		len = max;
		while (len > 0 && ((unsigned char)b.buf[len] & 0xc0) == 0x80)
			len--;
	}
	snprintf(out, outlen, "%.*s%s", (int)len, b.buf ? b.buf : "", len < b.len ? "\xe2\x80\xa6" : "");
	strbuf_release(&b);
}
