/* unanswered_calls.c - calls that never got a result and results that
 * answer no call, with no ground truth: a check that works on any run.
 *
 * The calls are the agent's (run_counted_calls, RUN_CALLS_AGENT: not a
 * simulated user's, not a partial one, not the input's context); the results are the run's
 * output's tool results that the loader could join to no call (a missing
 * or unknown call id). The score is the paired share, answered calls over
 * calls plus orphan results, so a run passes (threshold 1) when every call
 * was answered and every result answers one. A failed call was answered:
 * its error is its result.
 *
 * Some formats never carry results (BFCL's single-turn function calling:
 * the model only emits calls); a run with calls and not one result is
 * skipped with that reason unless `when_no_results: fail`.
 *
 * Each unanswered call is marked "no-result" in the details' call_marks
 * (verdict/verdict.h), all of them, past the cap of the listed calls: the
 * timeline shows the mark beside the call. An answered call gets no mark;
 * an orphan result has no call to carry one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scorers/params.h"
#include "scorers/scorer.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define UC_MAX_LISTED 50        /* calls and results listed in the details */

static const struct param_spec uc_params[] = {
	{ .name = "when_no_results", .kind = PARAM_STRING,
	  .help = "a run with calls and not one result: skip (the format keeps none) or fail",
	  .deflt = "\"skip\"" },
	{ .name = NULL },
};

static const char *uc_check(json_t *lits)
{
	json_t *w = json_object_get(lits, "when_no_results");
	const char *s = json_string_value(w);
	if (w && (!s || (strcmp(s, "skip") && strcmp(s, "fail"))))
		return "when_no_results must be skip or fail";
	return NULL;
}

/* A name or an id for the details, which must be valid UTF-8. */
static json_t *uc_text(const char *s)
{
	json_t *v = json_string(s);
	return v ? v : json_string("(not UTF-8)");
}

/* An unanswered call: its number on the timeline (0 when the timeline
 * does not number it), its index in the run, name, id and message. */
static json_t *uc_call(const struct run *r, size_t call)
{
	const struct run_call *c = &r->calls[call];
	size_t number = run_call_number(r, call, RUN_CALLS_SCORED);
	json_t *o = json_object();
	json_object_set_new(o, "number", json_integer((json_int_t)number));
	json_object_set_new(o, "call", json_integer((json_int_t)call + 1));
	json_object_set_new(o, "name", uc_text(c->name[0] ? c->name : "(no name)"));
	if (c->id)
		json_object_set_new(o, "id", uc_text(c->id));
	json_object_set_new(o, "message", json_integer((json_int_t)c->msg_index));
	return o;
}

/* The orphan results of the run's output, listed (up to the cap) in
 * `list`; returns how many there are. */
static size_t uc_orphans(const struct run *r, json_t *list)
{
	size_t n = 0;
	for (size_t i = 0; i < r->nmsgs; i++) {
		const struct run_msg *m = &r->msgs[i];
		if (!m->unmatched_result || m->origin != MSG_IN_OUTPUT)
			continue;
		n++;
		if (json_array_size(list) >= UC_MAX_LISTED)
			continue;
		json_t *o = json_object();
		json_object_set_new(o, "message", json_integer((json_int_t)i));
		if (m->answers_call_id)
			json_object_set_new(o, "id", uc_text(m->answers_call_id));
		json_array_append_new(list, o);
	}
	return n;
}

static void uc_score(const struct scorer_conf *sc, const struct run *r, struct scorer_shared *sh,
                     json_t *params, const char *unset, struct verdict *out)
{
	(void)sh;
	if (unset) {
		/* a {from:} reference found nothing: no guess at what was meant */
		verdict_skip(out, "%s", unset);
		return;
	}
	const char *msg = uc_check(params);
	if (msg) {
		verdict_error(out, "unanswered-calls: %s", msg);
		return;
	}
	const char *when = json_string_value(json_object_get(params, "when_no_results"));
	bool fail_bare = when && !strcmp(when, "fail");
	size_t *idx = xcalloc(r->ncalls ? r->ncalls : 1, sizeof *idx);
	size_t n = run_counted_calls(r, RUN_CALLS_AGENT, idx), answered = 0;
	json_t *calls = json_array(), *orphans = json_array(), *marks = json_array();
	json_t *found = json_array();
	for (size_t k = 0; k < n; k++) {
		const struct run_call *c = &r->calls[idx[k]];
		if (c->has_result || c->is_error || c->state == CALL_FAILED) {
			answered++;
			continue;
		}
		if (json_array_size(calls) < UC_MAX_LISTED) {
			json_t *u = uc_call(r, idx[k]);
			json_array_append_new(found, json_pack("{s:s, s:O, s:I, s:b}", "what", "no result", "name",
			                                       json_object_get(u, "name"), "call",
			                                       (json_int_t)idx[k] + 1, "allowed", false));
			json_array_append_new(calls, u);
		}
		json_array_append_new(marks, json_pack("{s:I, s:s}", "call", (json_int_t)idx[k] + 1, "mark", "no-result"));
	}
	free(idx);
	size_t norphans = uc_orphans(r, orphans);
	if (n && !answered && !norphans && !fail_bare) {
		json_decref(calls);
		json_decref(orphans);
		json_decref(marks);
		json_decref(found);
		verdict_skip(out, "unanswered-calls: %zu call%s and not one result: the format or the "
		             "harness keeps no results (set when_no_results: fail to fail such runs)",
		             n, n == 1 ? "" : "s");
		return;
	}
	json_t *d = json_object();
	json_object_set_new(d, "calls", json_integer((json_int_t)n));
	json_object_set_new(d, "answered", json_integer((json_int_t)answered));
	json_object_set_new(d, "unanswered", json_integer((json_int_t)(n - answered)));
	json_object_set_new(d, "orphans", json_integer((json_int_t)norphans));
	json_object_set_new(d, "unanswered_calls", calls);
	json_object_set_new(d, "orphan_results", orphans);
	json_object_set_new(d, VERDICT_CALL_MARKS, marks);
	json_object_set_new(d, VERDICT_FINDINGS, found);   /* each unanswered call, for the screen */
	size_t whole = n + norphans;
	verdict_ok(out, sc->threshold, whole ? (double)answered / (double)whole : 1.0, d);
}

static json_int_t uc_int(const json_t *o, const char *key)
{
	return json_integer_value(json_object_get(o, key));
}

static void uc_explain(const json_t *d, struct strbuf *out)
{
	json_int_t n = uc_int(d, "calls"), unanswered = uc_int(d, "unanswered");
	json_int_t norphans = uc_int(d, "orphans");
	const json_t *calls = json_object_get(d, "unanswered_calls");
	const json_t *orphans = json_object_get(d, "orphan_results");
	if (n == 0 && norphans == 0) {
		strbuf_addstr(out, "the agent made no tool calls and no result stands alone\n");
		return;
	}
	strbuf_addf(out, "%" JSON_INTEGER_FORMAT " of %" JSON_INTEGER_FORMAT " call%s got no result; "
	            "%" JSON_INTEGER_FORMAT " result%s answer%s no call\n", unanswered, n, n == 1 ? "" : "s",
	            norphans, norphans == 1 ? "" : "s", norphans == 1 ? "s" : "");
	size_t i;
	json_t *o;
	json_array_foreach(calls, i, o) {
		if (uc_int(o, "number") > 0)
			strbuf_addf(out, "no result  #%" JSON_INTEGER_FORMAT " ", uc_int(o, "number"));
		else
			strbuf_addstr(out, "no result  \xc2\xb7 ");  /* · as the timeline shows an unnumbered call */
		strbuf_addstr(out, json_string_value(json_object_get(o, "name")));
		if (json_object_get(o, "id"))
			strbuf_addf(out, "  id %s", json_string_value(json_object_get(o, "id")));
		strbuf_addf(out, "  (message %" JSON_INTEGER_FORMAT ")\n", uc_int(o, "message"));
	}
	if ((json_int_t)json_array_size(calls) < unanswered)
		strbuf_addf(out, "... and %" JSON_INTEGER_FORMAT " more calls\n",
		            unanswered - (json_int_t)json_array_size(calls));
	json_array_foreach(orphans, i, o) {
		const char *id = json_string_value(json_object_get(o, "id"));
		strbuf_addf(out, "no call    result in message %" JSON_INTEGER_FORMAT, uc_int(o, "message"));
		if (id)
			strbuf_addf(out, " names id %s, which no earlier unanswered call has\n", id);
		else
			strbuf_addstr(out, " names no call id\n");
	}
	if ((json_int_t)json_array_size(orphans) < norphans)
		strbuf_addf(out, "... and %" JSON_INTEGER_FORMAT " more results\n",
		            norphans - (json_int_t)json_array_size(orphans));
}

const struct scorer_ops scorer_unanswered_calls = {
	.type = "unanswered-calls",
	.summary = "share of the agent's calls and results that pair up (calls with no result, results with no call)",
	.scale = SCALE_UNIT,
	.default_threshold = 1,
	.params = uc_params,
	.check = uc_check,
	.score = uc_score,
	.explain = uc_explain,
};
