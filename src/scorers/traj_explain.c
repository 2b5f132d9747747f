/* traj_explain.c - the details of a trajectory-match verdict: which
 * reference call each of the agent's calls answered, what was missing,
 * extra or out of order, and which argument paths differed.
 *
 * The pass/fail comes from the mode (trajectory_match.c); this pairing is
 * for the reviewer and is made the same way whatever the mode: each
 * reference call, in order, takes the first unused agent call with its
 * name whose arguments pass, else the first unused one with its name (an
 * "args" pair), else it is missing. Agent calls left over are extra.
 * Precision, recall and F1 count the matched pairs as Azure's
 * TaskNavigationEfficiency counts its true positives. */
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"
#include "verdict/verdict.h"
#include "traj_match.h"
#include "util/xalloc.h"

#define MAX_LISTED 50           /* calls listed per kind in the details */
#define MAX_DIFFS 8             /* argument paths listed per pair */

static json_t *name_of(const json_t *name)
{
	if (json_is_string(name))
		return json_incref((json_t *)name);
	char *s = name ? json_dumps(name, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;
	json_t *v = json_string(s ? s : "(no name)");
	free(s);
	return v;
}

static void list_call(json_t *list, const char *key, size_t pos, const json_t *name)
{
	if (json_array_size(list) >= MAX_LISTED)
		return;
	json_t *o = json_object();
	json_object_set_new(o, key, json_integer((json_int_t)pos));
	json_object_set_new(o, "name", name_of(name));
	json_array_append_new(list, o);
}

/* A call's number in the details: its position among the run's calls from
 * 1, the number call_marks gives it too; a trajectory given as a value has
 * no run calls, so its own position. */
static json_int_t call_number(const struct tm_call *c, size_t j)
{
	return c->run_call >= 0 ? (json_int_t)c->run_call + 1 : (json_int_t)(j + 1);
}

static void mark(json_t *marks, long run_call, const char *what, size_t ref, bool allowed)
{
	if (run_call < 0)
		return;
	/* Calls count from 1 here as in extra and args_differ. */
	json_t *o = json_pack("{s:I, s:s}", "call", (json_int_t)run_call + 1, "mark", what);
	if (ref)
		json_object_set_new(o, "ref", json_integer((json_int_t)ref));
	/* Only the scorer knows its mode: the timeline must not draw a call
	 * the mode accepted as a failure. */
	if (allowed)
		json_object_set_new(o, "allowed", json_true());
	json_array_append_new(marks, o);
}

/* What the mode lets pass, so the screen lists it after what decided the
 * verdict: extra calls in superset and in-order mode, missing ones in
 * subset mode, any order but strict and in-order's. A passing verdict
 * allows all it found. */
static bool allowed(const char *mode, bool passed, const char *what)
{
	if (passed)
		return true;
	if (!strcmp(what, "extra"))
		return !strcmp(mode, "superset") || !strcmp(mode, "in-order");
	if (!strcmp(what, "missing"))
		return !strcmp(mode, "subset");
	if (!strcmp(what, "out of order"))
		return strcmp(mode, "strict") && strcmp(mode, "in-order");
	return false;
}

/* One entry of VERDICT_FINDINGS; call and ref 0 when there is none. */
static void finding(json_t *list, const char *mode, bool passed, const char *what, json_int_t call,
                    size_t ref, const json_t *name, const json_t *diffs)
{
	if (json_array_size(list) >= 2 * MAX_LISTED)
		return;
	json_t *f = json_pack("{s:s, s:o, s:b}", "what", what, "name", name_of(name), "allowed",
	                      allowed(mode, passed, what));
	if (call > 0)
		json_object_set_new(f, "call", json_integer(call));
	if (ref)
		json_object_set_new(f, "ref", json_integer((json_int_t)ref));
	if (diffs) {
		json_t *d = json_array(), *x;
		size_t i;
		json_array_foreach(diffs, i, x) {
			json_t *o = json_pack("{s:O}", "path", json_object_get(x, "path"));
			if (json_object_get(x, "reference"))
				json_object_set(o, "expected", json_object_get(x, "reference"));
			if (json_object_get(x, "output"))
				json_object_set(o, "actual", json_object_get(x, "output"));
			json_array_append_new(d, o);
		}
		json_object_set_new(f, "diffs", d);
	}
	json_array_append_new(list, f);
}

struct pairing {
	long *of_ref;           /* agent call paired with each reference call, -1 none */
	bool *args_only;        /* ... only by name: the arguments differ */
	bool *used;             /* agent calls taken */
	size_t matched;
};

static void pair(const struct tm_opts *o, const struct tm_traj *O, const struct tm_traj *R,
                 struct pairing *p)
{
	p->of_ref = xmalloc((R->ncalls + 1) * sizeof *p->of_ref);
	p->args_only = xcalloc(R->ncalls + 1, 1);
	p->used = xcalloc(O->ncalls + 1, 1);
	for (size_t k = 0; k < R->ncalls; k++) {
		const struct tm_call *rc = &R->calls[k];
		struct tm_matcher m = tm_matcher_for(o, rc->name);
		long by_name = -1;
		p->of_ref[k] = -1;
		for (size_t j = 0; j < O->ncalls; j++) {
			if (p->used[j] || !tm_strict_equal(rc->name, O->calls[j].name))
				continue;
			struct tm_err e;
			if (tm_args_match(o, &m, O->calls[j].args, rc->args, &e) == 1) {
				p->of_ref[k] = (long)j;
				break;
			}
			if (by_name < 0)
				by_name = (long)j;
		}
		if (p->of_ref[k] < 0 && by_name >= 0) {
			p->of_ref[k] = by_name;
			p->args_only[k] = true;
		}
		if (p->of_ref[k] >= 0) {
			p->used[p->of_ref[k]] = true;
			p->matched += !p->args_only[k];
		}
	}
}

static void rates(json_t *d, size_t tp, size_t nout, size_t nref)
{
	double prec = nout ? (double)tp / (double)nout : 0;
	double rec = nref ? (double)tp / (double)nref : 0;
	if (nout == 0)
		prec = rec = 0;     /* Azure: no steps taken, all three are 0 */
	double f1 = prec + rec > 0 ? 2 * prec * rec / (prec + rec) : 0;
	json_object_set_new(d, "precision", json_real(prec));
	json_object_set_new(d, "recall", json_real(rec));
	json_object_set_new(d, "f1", json_real(f1));
}

json_t *tm_explain_details(const struct tm_opts *o, const char *mode, bool passed,
                           struct tm_traj *O, struct tm_traj *R)
{
	json_t *d = json_pack("{s:s, s:s, s:b}", "mode", mode, "args", tm_args_name(o->args),
	                      "passed", passed);
	struct tm_err e = { "" };
	if (tm_traj_flatten(O, &e) || tm_traj_flatten(R, &e)) {
		json_object_set_new(d, "note", json_sprintf("calls not compared one by one: %s", e.text));
		return d;
	}
	struct pairing p = { 0 };
	pair(o, O, R, &p);
	json_object_set_new(d, "output_calls", json_integer((json_int_t)O->ncalls));
	json_object_set_new(d, "reference_calls", json_integer((json_int_t)R->ncalls));
	json_object_set_new(d, "matched", json_integer((json_int_t)p.matched));
	rates(d, p.matched, O->ncalls, R->ncalls);
	json_t *missing = json_array(), *extra = json_array(), *order = json_array();
	json_t *differ = json_array(), *marks = json_array(), *found = json_array();
	long last = -1;
	for (size_t k = 0; k < R->ncalls; k++) {
		long j = p.of_ref[k];
		if (j < 0) {
			list_call(missing, "ref", k + 1, R->calls[k].name);
			finding(found, mode, passed, "missing", 0, k + 1, R->calls[k].name, NULL);
			continue;
		}
		const struct tm_call *oc = &O->calls[j];
		mark(marks, oc->run_call, p.args_only[k] ? "args" : "matched", k + 1, false);
		if (p.args_only[k] && json_array_size(differ) < MAX_LISTED) {
			json_t *diffs = json_array();
			tm_args_diff(&o->eq, oc->args, R->calls[k].args, "", diffs, MAX_DIFFS);
			json_t *x = json_pack("{s:I, s:I, s:o, s:o}", "ref", (json_int_t)(k + 1), "call",
			                      call_number(oc, (size_t)j), "name", name_of(oc->name), "diffs", diffs);
			json_array_append_new(differ, x);
			finding(found, mode, passed, "arguments differ", oc->run_call + 1, k + 1, oc->name, diffs);
		}
		if (j < last) {
			list_call(order, "ref", k + 1, R->calls[k].name);
			finding(found, mode, passed, "out of order", oc->run_call + 1, k + 1, oc->name, NULL);
		} else {
			last = j;
		}
	}
	for (size_t j = 0; j < O->ncalls; j++)
		if (!p.used[j]) {
			list_call(extra, "call", (size_t)call_number(&O->calls[j], j), O->calls[j].name);
			mark(marks, O->calls[j].run_call, "extra", 0, allowed(mode, passed, "extra"));
			finding(found, mode, passed, "extra", O->calls[j].run_call + 1, 0, O->calls[j].name, NULL);
		}
	json_object_set_new(d, "missing", missing);
	json_object_set_new(d, "extra", extra);
	json_object_set_new(d, "out_of_order", order);
	json_object_set_new(d, "args_differ", differ);
	json_object_set_new(d, VERDICT_CALL_MARKS, marks);
	json_object_set_new(d, VERDICT_FINDINGS, found);
	free(p.of_ref);
	free(p.args_only);
	free(p.used);
	return d;
}

static void explain_list(struct strbuf *out, const json_t *list, const char *label,
                         const char *key, const char *fmt)
{
	size_t i;
	json_t *x;
	json_array_foreach(list, i, x) {
		strbuf_addf(out, "%-10s", i ? "" : label);
		strbuf_addf(out, fmt, (long)json_integer_value(json_object_get(x, key)),
		            json_string_value(json_object_get(x, "name")));
		strbuf_addch(out, '\n');
	}
}

static void explain_value(struct strbuf *out, const char *label, const json_t *v)
{
	char *s = v ? json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;
	strbuf_addf(out, " %s %.80s", label, s ? s : "(absent)");
	free(s);
}

void tm_explain(const json_t *d, struct strbuf *out)
{
	strbuf_addf(out, "mode %s, args %s", json_string_value(json_object_get(d, "mode")),
	            json_string_value(json_object_get(d, "args")));
	const json_t *note = json_object_get(d, "note");
	if (note) {
		strbuf_addf(out, "\n%s\n", json_string_value(note));
		return;
	}
	strbuf_addf(out, ": %lld of %lld reference calls matched, %lld calls made\n",
	            (long long)json_integer_value(json_object_get(d, "matched")),
	            (long long)json_integer_value(json_object_get(d, "reference_calls")),
	            (long long)json_integer_value(json_object_get(d, "output_calls")));
	strbuf_addf(out, "precision %.2f  recall %.2f  F1 %.2f\n",
	            json_number_value(json_object_get(d, "precision")),
	            json_number_value(json_object_get(d, "recall")),
	            json_number_value(json_object_get(d, "f1")));
	explain_list(out, json_object_get(d, "missing"), "missing", "ref", "#%ld %s");
	explain_list(out, json_object_get(d, "extra"), "extra", "call", "call %ld %s");
	explain_list(out, json_object_get(d, "out_of_order"), "order", "ref",
	             "#%ld %s came before an earlier reference call");
	size_t i, k;
	json_t *x, *df;
	json_array_foreach(json_object_get(d, "args_differ"), i, x) {
		strbuf_addf(out, "%-10s#%lld %s (call %lld)\n", i ? "" : "args",
		            (long long)json_integer_value(json_object_get(x, "ref")),
		            json_string_value(json_object_get(x, "name")),
		            (long long)json_integer_value(json_object_get(x, "call")));
		json_array_foreach(json_object_get(x, "diffs"), k, df) {
			strbuf_addf(out, "%-12s%s:", "", json_string_value(json_object_get(df, "path")));
			explain_value(out, "output", json_object_get(df, "output"));
			explain_value(out, "reference", json_object_get(df, "reference"));
			strbuf_addch(out, '\n');
		}
	}
}
