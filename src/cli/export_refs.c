/* export_refs.c - `export --references`: the corrected trajectory the reviewers' call decisions make, per run or per task, as trajectory-match reads a reference.
 *
 * A line per run that has a call label or a correction:
 *   {"run", "task", "reference": [{"name", "arguments"}...], "answer",
 *    "reviewer", "kept", "corrected", "removed", "inserted", "wrong_kept"}
 * The reference holds the calls trajectory-match counts (named calls, in
 * order): each kept, replaced by its correction or left out, with the
 * missing calls in their places; a call labelled wrong without a
 * correction is kept, and "wrong_kept" lists it. With an expectations join
 * in the configuration (expectations.match.run), a line per task instead:
 * the run decided last of that task, "task" its key, so that
 *   expectations: {file: refs.jsonl, match: {run: task_id, expected: task}}
 *   reference: {from: expected.reference}
 * scores every run of the task against it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annot/vocab.h"
#include "cli/export.h"
#include "cli/export_refs.h"
#include "review/callrefs.h"
#include "util/xalloc.h"

struct refs_job {
	struct review *rv;
	const char *const *reviewers;   /* NULL: every reviewer */
	size_t nreviewers;
	bool by_task;
	json_t *tasks;                  /* per task key text: {"line", "at"} */
	json_t *order;                  /* the task keys in the order first met */
	size_t runs, lines;
};

struct any_ctx {
	const struct refs_job *j;
	bool found;
};

static void any_call_decision(void *ctx, const struct decision *d)
{
	struct any_ctx *a = ctx;
	if (d->kind != DEC_CALL_LABEL && d->kind != DEC_CORRECT)
		return;
	for (size_t i = 0; a->j->reviewers && i < a->j->nreviewers; i++)
		if (!strcmp(a->j->reviewers[i], d->reviewer)) {
			a->found = true;
			return;
		}
	a->found |= !a->j->reviewers;
}

/* Whether a run has a decision that counts here, read without its record. */
static bool has_call_decisions(const struct refs_job *j, const char *run)
{
	struct any_ctx a = { .j = j };
	annot_each_of_run(j->rv->annot, run, any_call_decision, &a);
	return a.found;
}

/* The run's calls as the reference holds them; NULL for those
 * trajectory-match does not count. */
static json_t **calls_of(struct run *r)
{
	json_t **calls = xcalloc(r->ncalls + 1, sizeof *calls);
	for (size_t i = 0; i < r->ncalls; i++) {
		if (!run_call_counted(r, i, RUN_CALLS_SCORED))
			continue;
		json_t *args = run_call_args(r, &r->calls[i]);
		calls[i] = json_pack("{s:s, s:o}", "name", r->calls[i].name, "arguments",
		                     json_is_object(args) ? json_incref(args) : json_object());
	}
	return calls;
}

static json_t *reviewer_of(const struct run_call_decs *cd)
{
	if (cd->nreviewers == 1)
		return export_str(cd->reviewers[0]);
	json_t *a = json_array();
	for (size_t i = 0; i < cd->nreviewers && i < 8; i++)
		json_array_append_new(a, export_str(cd->reviewers[i]));
	return a;
}

/* The task key of a run: the value at the join's run path (an array of
 * them for a key of several paths), null when the run has none. */
static json_t *task_of(const struct refs_job *j, struct run *r)
{
	const struct expect_conf *ec = &j->rv->cfg->expect;
	if (!j->by_task)
		return json_null();
	if (ec->nkeys == 1) {
		json_t *v = run_path(r, ec->run_keys[0]);
		return v ? v : json_null();
	}
	json_t *a = json_array();
	for (size_t k = 0; k < ec->nkeys; k++) {
		json_t *v = run_path(r, ec->run_keys[k]);
		json_array_append_new(a, v ? v : json_null());
	}
	return a;
}

static json_t *line_of(const struct refs_job *j, struct run *r, const struct run_call_decs *cd)
{
	json_t **calls = calls_of(r);
	struct ref_counts n;
	json_t *wrong = NULL;
	json_t *ref = callrefs_reference(cd, calls, vocab_pass(&j->rv->cfg->vocab), &n, &wrong);
	for (size_t i = 0; i < r->ncalls; i++)
		json_decref(calls[i]);
	free(calls);
	json_t *answer = callrefs_expected(cd->answer);
	json_t *o = json_object();
	json_object_set_new(o, "run", export_str(r->id));
	json_object_set_new(o, "task", task_of(j, r));
	json_object_set_new(o, "reference", ref);
	json_object_set_new(o, "answer", json_is_string(answer) ? json_incref(answer) : json_null());
	json_object_set_new(o, "reviewer", reviewer_of(cd));
	json_object_set_new(o, "kept", json_integer((json_int_t)n.kept));
	json_object_set_new(o, "corrected", json_integer((json_int_t)n.corrected));
	json_object_set_new(o, "removed", json_integer((json_int_t)n.removed));
	json_object_set_new(o, "inserted", json_integer((json_int_t)n.inserted));
	json_object_set_new(o, "wrong_kept", wrong);
	json_decref(answer);
	return o;
}

static int emit(struct export_out *out, const json_t *o)
{
	struct strbuf sb = STRBUF_INIT;
	export_jsonl_row(&sb, o);
	int rc = export_out_write(out, &sb);
	strbuf_release(&sb);
	return rc;
}

/* A task's line is the one of the run decided last (the first on a tie). */
static void keep_task(struct refs_job *j, json_t *line, const char *at)
{
	char *key = json_dumps(json_object_get(line, "task"), JSON_COMPACT | JSON_ENCODE_ANY |
	                       JSON_SORT_KEYS);
	json_t *was = json_object_get(j->tasks, key);
	const char *was_at = json_string_value(json_object_get(was, "at"));
	if (!was)
		json_array_append_new(j->order, json_string(key));
	if (!was || (at && (!was_at || strcmp(at, was_at) > 0)))
		json_object_set_new(j->tasks, key, json_pack("{s:O, s:s?}", "line", line, "at", at));
	free(key);
}

static int one_entry(struct refs_job *j, struct export_out *out, size_t entry, const char *prog)
{
	struct review *rv = j->rv;
	if (!has_call_decisions(j, rv->entries[entry].id))
		return 0;
	struct review_run *rr = review_run_at(rv, entry);
	if (!rr || !rr->run) {
		fprintf(stderr, "%s: %s (not exported)\n", prog,
		        rr && rr->error ? rr->error : rv->entries[entry].source);
		return 0;
	}
	struct run_call_decs cd;
	callrefs_gather(rv->annot, rv->entries[entry].id, j->reviewers, j->nreviewers,
	                rr->run->ncalls, &cd);
	if (cd.off_run)
		fprintf(stderr, "%s: %s: %zu decision%s on a call the run does not have (left out)\n",
		        prog, rr->run->id, cd.off_run, cd.off_run == 1 ? "" : "s");
	json_t *line = line_of(j, rr->run, &cd);
	j->runs++;
	int rc = 0;
	if (j->by_task && !json_is_null(json_object_get(line, "task"))) {
		keep_task(j, line, cd.latest ? cd.latest->at : NULL);
	} else {
		rc = emit(out, line);
		j->lines++;
	}
	json_decref(line);
	callrefs_free(&cd);
	return rc;
}

int export_references(struct review *rv, const struct export_refs_opts *o, struct error *err)
{
	struct export_out out;
	if (export_out_open(&out, o->output, err) < 0)
		return -1;
	struct refs_job j = {
		.rv = rv, .reviewers = o->nreviewers ? o->reviewers : NULL, .nreviewers = o->nreviewers,
		.by_task = !o->by_run && rv->cfg->has_expect && rv->cfg->expect.nkeys > 0,
		.tasks = json_object(), .order = json_array(),
	};
	int rc = 0;
	for (size_t e = 0; e < rv->nentries && rc == 0; e++)
		rc = one_entry(&j, &out, e, o->prog);
	size_t i;
	json_t *k;
	json_array_foreach(j.order, i, k) {
		if (rc == 0)
			rc = emit(&out, json_object_get(json_object_get(j.tasks, json_string_value(k)), "line"));
		j.lines++;
	}
	json_decref(j.tasks);
	json_decref(j.order);
	if (rc < 0) {
		export_out_close(&out, false, err);
		return error_set(err, ERR_FAILED, "%s: cannot write it",
		                 o->output ? o->output : "standard output");
	}
	if (export_out_close(&out, true, err) < 0)
		return -1;
	fprintf(stderr, "%s: wrote %zu reference%s (%s) of %zu run%s with call decisions to %s\n",
	        o->prog, j.lines, j.lines == 1 ? "" : "s", j.by_task ? "one per task" : "one per run",
	        j.runs, j.runs == 1 ? "" : "s",
	        o->output && strcmp(o->output, "-") ? o->output : "standard output");
	return 0;
}
