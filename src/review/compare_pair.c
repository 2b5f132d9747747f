/* compare_pair.c - one pair of runs copied out of the session: calls, messages between them, verdicts, the alignment. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "review/compare.h"
#include "review/labels.h"
#include "review/rows.h"
#include "review/session.h"
#include "runs/run.h"
#include "util/xalloc.h"

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* Canonical arguments: equal calls are equal strings (review/align.h). */
static char *canonical_args(struct run *r, struct run_call *c)
{
	json_t *a = run_call_args(r, c);
	if (a)
		return json_dumps(a, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
	return dup_or_null(run_call_args_text(r, c));
}

static char *result_text(struct run *r, struct run_call *c)
{
	if (c->is_error && c->error_text)
		return xstrdup(c->error_text);
	json_t *v = run_call_result(r, c);
	if (!v)
		return NULL;
	if (json_is_string(v))
		return xstrdup(json_string_value(v));
	return json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
}

static void copy_calls(struct compare_run *cr, struct run *r)
{
	cr->ncalls = r->ncalls;
	cr->calls = xcalloc(r->ncalls ? r->ncalls : 1, sizeof *cr->calls);
	for (size_t i = 0; i < r->ncalls; i++) {
		struct run_call *c = &r->calls[i];
		cr->calls[i].name = xstrdup(c->name ? c->name : "");
		cr->calls[i].args = canonical_args(r, c);
		cr->calls[i].result = result_text(r, c);
		cr->calls[i].is_error = c->is_error;
	}
}

/* The messages a person reads between calls: what the user and the agent
 * said (results are shown with their calls). A message comes before its
 * own calls, as the agent wrote its text first. */
static void copy_msgs(struct compare_run *cr, struct run *r)
{
	cr->msgs = xcalloc(r->nmsgs ? r->nmsgs : 1, sizeof *cr->msgs);
	size_t before = 0;
	for (size_t i = 0; i < r->nmsgs; i++) {
		struct run_msg *m = &r->msgs[i];
		if (m->ncalls)
			before = m->first_call;
		if (!m->is_tool_output && m->role != ROLE_TOOL && m->text && *m->text) {
			struct compare_msg *o = &cr->msgs[cr->nmsgs++];
			o->role = (int)m->role;
			o->text = xstrdup(m->text);
			o->before = before;
		}
		if (m->ncalls)
			before = m->first_call + m->ncalls;
	}
}

static void verdict_text(const struct review *rv, size_t entry, const struct review_row *row,
                         struct compare_verdict *o)
{
	o->tone = 0;
	if (review_row_hidden(rv, entry, row->index)) {
		snprintf(o->text, sizeof o->text, "hidden");
		return;
	}
	if (row->state == ROW_PENDING) {
		snprintf(o->text, sizeof o->text, "judging");
		return;
	}
	if (row->state != ROW_READY || !row->v) {
		snprintf(o->text, sizeof o->text, "not asked");
		return;
	}
	const struct verdict *v = row->v;
	if (v->status == VERDICT_OK) {
		snprintf(o->text, sizeof o->text, "%s %.3g", v->passed ? "pass" : "fail", v->score);
		o->tone = v->passed ? 1 : -1;
	} else {
		snprintf(o->text, sizeof o->text, "%s", v->status == VERDICT_SKIPPED ? "skipped" : "error");
	}
}

/* The reviewers' labels on a row, "qa 1, bob 0": blind, only this
 * reviewer's (the others' stay hidden, as in the verdicts pane). */
static void label_text(const struct review *rv, size_t entry, size_t row, char *buf, size_t n)
{
	struct label l[LABELS_MAX];
	const char *me[] = { rv->reviewer };
	size_t nl = review_labels(rv, entry, row, rv->blind ? me : NULL, rv->blind ? 1 : 0, l,
	                          LABELS_MAX);
	size_t at = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < nl && at + 1 < n; i++) {
		int k = snprintf(buf + at, n - at, "%s%s %g%s", i ? ", " : "", l[i].reviewer, l[i].score,
		                 l[i].stale ? " (stale)" : "");
		if (k < 0)
			break;
		at += (size_t)k;
	}
}

static void copy_verdicts(struct compare_run *cr, struct review *rv, const struct review_run *rr)
{
	size_t n = review_nrows(rv);
	cr->verdicts = xcalloc(n ? n : 1, sizeof *cr->verdicts);
	for (size_t i = 0; i < n; i++) {
		struct review_row row;
		if (!review_row_get(rv, rr, i, &row))
			continue;
		struct compare_verdict *o = &cr->verdicts[cr->nverdicts++];
		o->id = xstrdup(row.id ? row.id : "");
		verdict_text(rv, cr->entry, &row, o);
		label_text(rv, cr->entry, i, o->label, sizeof o->label);
	}
}

static int load_side(struct compare_run *cr, struct review *rv, const struct compare_sides *s,
                     size_t entry, struct error *err)
{
	cr->entry = entry;
	cr->side = compare_side_of(rv, s, entry);
	struct review_run *rr = review_run_at(rv, entry);
	if (!rr) {
		error_set(err, ERR_MISSING, "no run %zu", entry);
		return -1;
	}
	const struct review_entry *e = &rv->entries[entry];
	cr->id = xstrdup(e->id ? e->id : e->source);
	cr->source = xstrdup(e->source);
	if (!review_entry_hash(e, cr->hash))
		cr->hash[0] = '\0';
	if (!rr->run) {
		cr->error = xstrdup(rr->error ? rr->error : "the record did not load");
		cr->calls = xcalloc(1, sizeof *cr->calls);
		cr->msgs = xcalloc(1, sizeof *cr->msgs);
	} else {
		if (s && s->task_spec)
			cr->task = dup_or_null(run_spec_text(rr->run, s->task_spec));
		copy_calls(cr, rr->run);
		copy_msgs(cr, rr->run);
	}
	copy_verdicts(cr, rv, rr);
	return 0;
}

int compare_open(struct compare *c, struct review *rv, const struct compare_sides *s,
                 size_t base_entry, size_t cand_entry, struct error *err)
{
	memset(c, 0, sizeof *c);
	if (base_entry == cand_entry) {
		error_set(err, ERR_FAILED, "a run is compared with another, not itself");
		return -1;
	}
	if (load_side(&c->run[0], rv, s, base_entry, err) < 0 ||
	    load_side(&c->run[1], rv, s, cand_entry, err) < 0) {
		compare_free(c);
		return -1;
	}
	struct align_call *ac[2];
	for (int k = 0; k < 2; k++) {
		const struct compare_run *cr = &c->run[k];
		ac[k] = xcalloc(cr->ncalls ? cr->ncalls : 1, sizeof *ac[k]);
		for (size_t i = 0; i < cr->ncalls; i++) {
			ac[k][i].name = cr->calls[i].name;
			ac[k][i].args = cr->calls[i].args;
		}
	}
	c->nrows = align_calls(ac[0], c->run[0].ncalls, ac[1], c->run[1].ncalls, &c->rows);
	c->first_div = align_first_divergence(c->rows, c->nrows);
	free(ac[0]);
	free(ac[1]);
	return 0;
}

static void side_free(struct compare_run *cr)
{
	for (size_t i = 0; i < cr->ncalls; i++) {
		free(cr->calls[i].name);
		free(cr->calls[i].args);
		free(cr->calls[i].result);
	}
	free(cr->calls);
	for (size_t i = 0; i < cr->nmsgs; i++)
		free(cr->msgs[i].text);
	free(cr->msgs);
	for (size_t i = 0; i < cr->nverdicts; i++)
		free(cr->verdicts[i].id);
	free(cr->verdicts);
	free(cr->id);
	free(cr->task);
	free(cr->source);
	free(cr->error);
}

void compare_free(struct compare *c)
{
	side_free(&c->run[0]);
	side_free(&c->run[1]);
	free(c->rows);
	memset(c, 0, sizeof *c);
}

size_t compare_next_divergence(const struct compare *c, size_t from, int direction)
{
	if (direction > 0) {
		for (size_t i = from == SIZE_MAX ? 0 : from + 1; i < c->nrows; i++)
			if (c->rows[i].kind != ALIGN_SAME)
				return i;
		return SIZE_MAX;
	}
	for (size_t i = from > c->nrows ? c->nrows : from; i-- > 0;)
		if (c->rows[i].kind != ALIGN_SAME)
			return i;
	return SIZE_MAX;
}

bool compare_key_differs(const char *base_args, const char *cand_args, const char *key)
{
	json_t *a = base_args ? json_loads(base_args, JSON_DECODE_ANY, NULL) : NULL;
	json_t *b = cand_args ? json_loads(cand_args, JSON_DECODE_ANY, NULL) : NULL;
	json_t *va = json_is_object(a) ? json_object_get(a, key) : NULL;
	json_t *vb = json_is_object(b) ? json_object_get(b, key) : NULL;
	bool differs = !(va && vb && json_equal(va, vb));
	json_decref(a);
	json_decref(b);
	return differs;
}
