/* export_rows.c - one row of the labelled set: the run, the verdict row's machine verdict, the reviewers' labels and their consensus. */
#include "cli/export.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annot/split.h"
#include "annot/vocab.h"
#include "config/config.h"
#include "judge/judge.h"
#include "runs/dataset.h"
#include "util/jsonw.h"
#include "util/xalloc.h"
#include "util/error.h"

size_t export_labels_of(struct review *rv, size_t entry, size_t row,
                        const struct export_sel *sel, struct export_labels *out)
{
	memset(out, 0, sizeof *out);
	out->n = review_labels(rv, entry, row, sel->reviewers, sel->nreviewers, out->l, LABELS_MAX);
	for (size_t i = 0; i < out->n; i++)
		if (!out->l[i].stale || sel->include_stale)
			out->counted++;
	struct review_row r;
	if (!out->counted || !review_row_get(rv, NULL, row, &r)) {
		out->cons = CONSENSUS_NONE;
		return out->counted;
	}
	out->cons = labels_consensus(out->l, out->n, &r.span, review_row_threshold(rv, row),
	                             sel->include_stale, &out->score, &out->passed);
	return out->counted;
}

const char *export_consensus_reason(const struct export_labels *lab)
{
	if (lab->cons != CONSENSUS_OK)
		return "";
	for (size_t i = 0; i < lab->n; i++) {
		const struct decision *d = lab->l[i].d;
		if (lab->l[i].score == lab->score && d && d->reason && d->reason[0] &&
		    !lab->l[i].stale)
			return d->reason;
	}
	for (size_t i = 0; i < lab->n; i++) {
		const struct decision *d = lab->l[i].d;
		if (lab->l[i].score == lab->score && d && d->reason && d->reason[0])
			return d->reason;
	}
	return "";
}

/* ---- the run -------------------------------------------------------------------- */

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* Why a call failed: its error text, else what came back as its result. */
static json_t *call_error(const struct run *r, const struct run_call *c)
{
	if (c->error_text)
		return export_str(c->error_text);
	if (!c->is_error)
		return json_null();
	if (jv_is_string(r->doc, c->result))
		return jv_to_json(r->doc, c->result);
	return export_str("the call failed");
}

/* The call's arguments: parsed, else the text that is not JSON, else null. */
static json_t *call_args(struct run *r, struct run_call *c)
{
	json_t *args = run_call_args(r, c);
	if (args)
		return json_incref(args);
	if (run_call_args_invalid(r, c))
		return export_str(run_call_args_text(r, c));
	return json_null();
}

/* The agent's calls, as the scorers count them. The run is const to its
 * readers; the trees it builds on demand are a cache it keeps. */
static json_t *calls_of(const struct run *cr)
{
	struct run *r = (struct run *)cr;
	size_t n = run_counted_calls(r, RUN_CALLS_AGENT, NULL);
	size_t *idx = xcalloc(n + 1, sizeof *idx);
	run_counted_calls(r, RUN_CALLS_AGENT, idx);
	json_t *list = json_array();
	for (size_t i = 0; i < n; i++) {
		struct run_call *c = &r->calls[idx[i]];
		json_t *o = json_object();
		json_t *result = c->has_result ? run_call_result(r, c) : NULL;
		json_object_set_new(o, "name", export_str(c->name));
		json_object_set_new(o, "arguments", call_args(r, c));
		json_object_set_new(o, "result", result ? json_incref(result) : json_null());
		json_object_set_new(o, "error", call_error(r, c));
		json_array_append_new(list, o);
	}
	free(idx);
	return list;
}

/* ---- the reviewers' tags and call labels on the run ----------------------------------- */

struct run_marks {
	const struct review *rv;
	json_t *tags, *call_labels;
};

static void run_mark_take(void *ctx, const struct decision *d)
{
	struct run_marks *m = ctx;
	if (d->kind == DEC_TAG && d->tag) {
		const struct vocab *vo = &m->rv->cfg->vocab;
		const char *name = vocab_tag_name(vo, m->rv->annot, d->tag);
		const struct tag_def *t = vocab_tag_find(vo, name);
		json_t *o = json_object();
		json_object_set_new(o, "tag", export_str(t ? t->id : name));
		json_object_set_new(o, "code", export_str(d->tag));
		json_object_set_new(o, "defined", json_boolean(t != NULL));
		json_object_set_new(o, "call", d->call > 0 ? json_integer(d->call) : json_null());
		json_object_set_new(o, "tool", export_str(d->call > 0 ? d->tool : NULL));
		json_object_set_new(o, "reviewer", export_str(d->reviewer));
		json_array_append_new(m->tags, o);
	} else if (d->kind == DEC_CALL_LABEL && d->call > 0) {
		json_t *o = json_object();
		json_object_set_new(o, "call", json_integer(d->call));
		json_object_set_new(o, "tool", export_str(d->tool));
		json_object_set_new(o, "label", export_str(d->label));
		json_object_set_new(o, "value", d->has_score ? num(d->score) : json_null());
		json_object_set_new(o, "right", json_boolean(d->has_score &&
		                                             d->score >= vocab_pass(&m->rv->cfg->vocab)));
		json_object_set_new(o, "reviewer", export_str(d->reviewer));
		json_array_append_new(m->call_labels, o);
	}
}

json_t *export_run_base(struct review *rv, const struct review_run *rr, const json_t *expected,
                        const struct split_spec *split, struct error *err)
{
	const struct run *r = rr->run;
	const struct review_entry *e = &rv->entries[rr->entry];
	char hash[65];
	/* The hash the labels were checked against, so a row and its stale
	 * flags agree. */
	if (!review_entry_hash(e, hash) && dataset_record_hash(&rv->ds, &rv->ds.recs[e->rec], hash) < 0) {
		error_set(err, ERR_FAILED, "%s: the record cannot be read again to hash it", e->source);
		return NULL;
	}
	json_t *b = json_object();
	json_object_set_new(b, "run", export_str(r->id));
	json_object_set_new(b, "source", export_str(r->source));
	json_object_set_new(b, "run_hash", json_string(hash));
	json_object_set_new(b, "input", export_str(run_first_user_text(r)));
	json_object_set_new(b, "output", export_str(run_final_agent_text(r)));
	json_object_set_new(b, "calls", calls_of(r));
	json_object_set_new(b, "expected", expected ? json_incref((json_t *)expected) : json_null());
	json_object_set_new(b, "split", export_str(split_of(split, r->id)));
	struct run_marks m = { .rv = rv, .tags = json_array(), .call_labels = json_array() };
	annot_each_of_run(rv->annot, r->id, run_mark_take, &m);
	json_object_set_new(b, "tags", m.tags);
	json_object_set_new(b, "call_labels", m.call_labels);
	return b;
}

/* ---- the verdict row ------------------------------------------------------------------- */

/* "binary", "0..1", "1..5", or a custom range ("0..10"). */
static json_t *scale_text(const struct scale *s)
{
	char buf[64];
	scale_label(s, buf, sizeof buf);
	return json_string(buf);
}

static json_t *machine_of(const struct review_row *row)
{
	const struct verdict *v = row->state == ROW_READY ? row->v : NULL;
	bool ok = v && v->status == VERDICT_OK;
	json_t *o = json_object();
	json_object_set_new(o, "status", json_string(v ? verdict_status_name(v->status) : "not_judged"));
	json_object_set_new(o, "score", ok ? num(v->score) : json_null());
	json_object_set_new(o, "passed", ok ? json_boolean(v->passed) : json_null());
	json_object_set_new(o, "message", v && v->message ? export_str(v->message) : json_null());
	const struct judge_conf *j = row->kind == ROW_JUDGE ? row->judge : NULL;
	if (j) {
		struct strbuf sb = STRBUF_INIT;
		strbuf_addf(&sb, "%s%s", judge_provider_prefix(j->provider), j->model ? j->model : "");
		json_object_set_new(o, "model", export_str(sb.buf));
		strbuf_release(&sb);
	} else {
		json_object_set_new(o, "model", json_null());
	}
	json_object_set_new(o, "prompt_hash", j ? json_string(j->prompt_hash) : json_null());
	return o;
}

static json_t *consensus_of(const struct export_labels *lab)
{
	bool ok = lab->cons == CONSENSUS_OK;
	json_t *o = json_object();
	json_object_set_new(o, "status", json_string(ok ? "ok" : lab->cons == CONSENSUS_TIE ? "tie"
	                                                                                    : "none"));
	json_object_set_new(o, "score", ok ? num(lab->score) : json_null());
	json_object_set_new(o, "passed", ok ? json_boolean(lab->passed) : json_null());
	json_object_set_new(o, "n", json_integer((json_int_t)lab->counted));
	return o;
}

static json_t *labels_list(const struct export_labels *lab)
{
	json_t *list = json_array();
	for (size_t i = 0; i < lab->n; i++) {
		const struct label *l = &lab->l[i];
		const struct decision *d = l->d;
		json_t *o = json_object();
		json_object_set_new(o, "reviewer", export_str(l->reviewer));
		json_object_set_new(o, "decision", json_string(d && d->kind == DEC_OVERRIDE ? "override"
		                                                                             : "accept"));
		json_object_set_new(o, "score", num(l->score));
		json_object_set_new(o, "passed", json_boolean(l->passed));
		json_object_set_new(o, "reason", d && d->reason ? export_str(d->reason) : json_null());
		json_object_set_new(o, "at", d && d->at ? export_str(d->at) : json_null());
		json_object_set_new(o, "blind", json_boolean(d && d->blind));
		json_object_set_new(o, "stale", json_boolean(l->stale));
		json_array_append_new(list, o);
	}
	return list;
}

json_t *export_row(struct review *rv, const json_t *base, const struct review_row *row,
                   const struct export_labels *lab)
{
	json_t *own = json_object();
	json_object_set_new(own, "criterion", export_str(row->id));
	json_object_set_new(own, "kind", json_string(row->kind == ROW_JUDGE ? "judge" : "scorer"));
	json_object_set_new(own, "scale", scale_text(&row->span));
	json_object_set_new(own, "threshold", num(review_row_threshold(rv, row->index)));
	json_object_set_new(own, "machine", machine_of(row));
	json_object_set_new(own, "consensus", consensus_of(lab));
	json_object_set_new(own, "labels", labels_list(lab));
	/* The keys in export_keys' order, whichever part holds them. */
	json_t *out = json_object();
	for (size_t i = 0; export_keys[i]; i++) {
		json_t *v = json_object_get(own, export_keys[i]);
		if (!v)
			v = json_object_get(base, export_keys[i]);
		json_object_set(out, export_keys[i], v ? v : json_null());
	}
	json_decref(own);
	return out;
}
