/* trajectory_match.c - were these the calls, with these arguments: the
 * agent's trajectory against a reference, in LangChain agentevals 0.0.7's
 * modes (strict, unordered, subset, superset) and Azure's in-order match,
 * with agentevals' argument modes and per-tool overrides.
 *
 * The verdict is pass/fail. Where agentevals would throw (arguments that
 * are not JSON where they are compared, entries of null arguments), the
 * verdict is an error carrying the reason. Two deliberate departures: an
 * unknown mode or argument mode is refused (agentevals takes an unknown
 * argument mode as ignore), and a reference given as a flat list of calls
 * (which agentevals does not take) is compared with the agent's calls in
 * order in strict mode. The details (traj_explain.c) say which calls
 * matched, which were missing, extra or out of order, and which
 * arguments differed. */
#include <stdlib.h>
#include <string.h>

#include "conf/conf.h"
#include "scorers/params.h"
#include "scorers/scorer.h"
#include "traj_match.h"
#include "util/xalloc.h"

static const struct param_spec tm_params[] = {
	{ .name = "reference", .kind = PARAM_ANY, .flags = PARAM_REQUIRED,
	  .help = "the expected trajectory: messages, or calls {name, arguments|args|kwargs}" },
	{ .name = "mode", .kind = PARAM_STRING, .deflt = "\"strict\"",
	  .help = "strict, unordered, subset, superset or in-order" },
	{ .name = "args", .kind = PARAM_STRING, .deflt = "\"exact\"",
	  .help = "how arguments compare: exact, ignore, subset or superset" },
	{ .name = "args_overrides", .kind = PARAM_OBJECT,
	  .help = "per tool: an argument mode, or the list of key paths that must match" },
	{ .name = "numbers", .kind = PARAM_OBJECT, .help = "{tolerance: T}: |a - b| <= T is equal" },
	{ .name = "strings", .kind = PARAM_OBJECT,
	  .help = "{case: sensitive|insensitive, whitespace: exact|trim}" },
	{ .name = "outputs", .kind = PARAM_ANY,
	  .help = "the agent's trajectory, when not the run's own messages" },
	{ .name = NULL },
};

static const char *const mode_names[] = { "strict", "unordered", "subset", "superset",
                                          "in-order" };

static const char *overrides_check(const json_t *ov)
{
	static char msg[200];
	const char *k;
	json_t *v;
	enum tm_args a;
	json_object_foreach((json_t *)ov, k, v) {
		if (json_is_string(v) && !tm_args_parse(json_string_value(v), &a)) {
			snprintf(msg, sizeof msg, "args_overrides.%.60s: unknown argument mode \"%.40s\" "
			         "(exact, ignore, subset, superset)", k, json_string_value(v));
			return msg;
		}
		if (json_is_array(v)) {
			size_t i;
			json_t *x;
			json_array_foreach(v, i, x)
				if (!json_is_string(x)) {
					snprintf(msg, sizeof msg, "args_overrides.%.60s: key paths must be text", k);
					return msg;
				}
		} else if (!json_is_string(v)) {
			snprintf(msg, sizeof msg, "args_overrides.%.60s: an argument mode or a list of "
			         "key paths", k);
			return msg;
		}
	}
	return NULL;
}

static const char *equal_read(const json_t *numbers, const json_t *strings, struct tm_equal *eq)
{
	*eq = (struct tm_equal){ 0 };
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)numbers, k, v) {
		if (strcmp(k, "tolerance"))
			return "numbers: unknown key (expected tolerance)";
		if (!json_is_number(v) || json_number_value(v) < 0)
			return "numbers: tolerance must be a number >= 0";
		eq->tolerance = json_number_value(v);
	}
	json_object_foreach((json_t *)strings, k, v) {
		const char *s = json_string_value(v);
		if (strcmp(k, "case") == 0 && s && (!strcmp(s, "sensitive") || !strcmp(s, "insensitive")))
			eq->nocase = !strcmp(s, "insensitive");
		else if (strcmp(k, "whitespace") == 0 && s && (!strcmp(s, "exact") || !strcmp(s, "trim")))
			eq->trim = !strcmp(s, "trim");
		else
			return "strings: expected case: sensitive|insensitive, whitespace: exact|trim";
	}
	return NULL;
}

/* Reads the options; a message (static storage) when they are wrong. */
static const char *opts_read(const json_t *p, struct tm_opts *o, int *mode)
{
	const json_t *m = json_object_get(p, "mode"), *a = json_object_get(p, "args");
	const char *ms = m ? json_string_value(m) : "strict";
	*mode = -1;
	for (int i = 0; ms && i < (int)(sizeof mode_names / sizeof *mode_names); i++)
		if (strcmp(ms, mode_names[i]) == 0)
			*mode = i;
	if (*mode < 0)
		return "mode: unknown (strict, unordered, subset, superset, in-order)";
	*o = (struct tm_opts){ .args = TM_ARGS_EXACT };
	if (a && !tm_args_parse(json_string_value(a), &o->args))
		return "args: unknown argument mode (exact, ignore, subset, superset)";
	const json_t *ov = json_object_get(p, "args_overrides");
	if (ov && !json_is_object(ov))
		return "args_overrides: a map of tool names";
	const char *msg = ov ? overrides_check(ov) : NULL;
	if (msg)
		return msg;
	o->overrides = ov;
	const json_t *nu = json_object_get(p, "numbers"), *st = json_object_get(p, "strings");
	if ((nu && !json_is_object(nu)) || (st && !json_is_object(st)))
		return "numbers and strings take maps";
	return equal_read(nu, st, &o->eq);
}

/* Each option written as a literal is checked on its own when the entry
 * is read, so a wrong one is named at its own line and column; options
 * that are {from:} references are checked per run (an error verdict). */
static int tm_configure(struct conf *cf, struct scorer_conf *sc)
{
	for (size_t i = 0; i < sc->nparams; i++) {
		const struct param *p = &sc->params[i];
		if (!p->literal || !strcmp(p->name, "reference") || !strcmp(p->name, "outputs"))
			continue;
		json_t *one = json_pack("{s:O}", p->name, p->literal);
		struct tm_opts o;
		int mode;
		const char *msg = opts_read(one, &o, &mode);
		json_decref(one);
		if (msg)
			return conf_fail_at(cf, p->line, p->col, "%s", msg);
	}
	return 0;
}

/* ---- the modes ----------------------------------------------------------- */

enum { MODE_STRICT, MODE_UNORDERED, MODE_SUBSET, MODE_SUPERSET, MODE_IN_ORDER };

/* cover(A, B): each call of B takes the first unused call of A with its
 * name whose arguments pass matcher(A's, B's). First fit, no backtracking,
 * as agentevals does. */
static int cover(const struct tm_opts *o, const struct tm_traj *A, const struct tm_traj *B,
                 struct tm_err *e)
{
	bool *used = xcalloc(A->ncalls + 1, 1);
	int res = 1;
	for (size_t b = 0; b < B->ncalls && res == 1; b++) {
		const struct tm_call *bc = &B->calls[b];
		struct tm_matcher m = tm_matcher_for(o, bc->name);
		res = 0;
		for (size_t a = 0; a < A->ncalls; a++) {
			if (used[a] || !tm_strict_equal(bc->name, A->calls[a].name))
				continue;
			int r = tm_args_match(o, &m, A->calls[a].args, bc->args, e);
			if (r != 0) {
				res = r;
				used[a] = r == 1;
				break;
			}
		}
	}
	free(used);
	return res;
}

/* Azure's in-order match: the reference's calls are a subsequence. */
static int in_order(const struct tm_opts *o, const struct tm_traj *O, const struct tm_traj *R,
                    struct tm_err *e)
{
	size_t j = 0;
	for (size_t k = 0; k < R->ncalls; k++) {
		const struct tm_call *rc = &R->calls[k];
		struct tm_matcher m = tm_matcher_for(o, rc->name);
		int found = 0;
		while (!found && j < O->ncalls) {
			const struct tm_call *oc = &O->calls[j++];
			if (tm_strict_equal(oc->name, rc->name))
				found = tm_args_match(o, &m, oc->args, rc->args, e);
			if (found < 0)
				return -1;
		}
		if (!found)
			return 0;
	}
	return 1;
}

/* Strict against a flat reference: the same calls in the same order. */
static int strict_flat(const struct tm_opts *o, const struct tm_traj *O, const struct tm_traj *R,
                       struct tm_err *e)
{
	if (O->ncalls != R->ncalls)
		return 0;
	for (size_t i = 0; i < O->ncalls; i++) {
		if (!tm_strict_equal(O->calls[i].name, R->calls[i].name))
			return 0;
		struct tm_matcher m = tm_matcher_for(o, O->calls[i].name);
		int r = tm_args_match(o, &m, O->calls[i].args, R->calls[i].args, e);
		if (r != 1)
			return r;
	}
	return 1;
}

/* strict.js's reader: function.name and function.arguments, parsed only
 * when compared (missing or null arguments are "{}"). */
static json_t *fn_member(const json_t *call, const char *key)
{
	const json_t *fn = json_object_get(call, "function");
	return json_is_object(fn) ? json_object_get(fn, key) : NULL;
}

static json_t *lazy_args(const json_t *call, struct tm_err *e)
{
	json_t *a = fn_member(call, "arguments");
	if (!a || json_is_null(a))
		return json_object();
	return tm_json_parse(a, e);
}

static int strict_calls(const struct tm_opts *o, const json_t *ot, const json_t *rt,
                        struct tm_err *e)
{
	if (!json_is_array(ot) || !json_is_array(rt))
		return tm_fail(e, "tool_calls is not a list (TypeError)");
	if (json_array_size(ot) != json_array_size(rt))
		return 0;
	size_t n = json_array_size(rt), i;
	bool *seen = xcalloc(n + 1, 1);
	int res = 1;
	json_t *oc, *empty = json_string("");
	json_array_foreach(ot, i, oc) {
		if (json_is_null(oc)) {
			res = tm_fail(e, "a tool call is null (TypeError)");
			break;
		}
		const json_t *on = fn_member(oc, "name");
		/* Overrides are looked up by the output call's name, "" when none. */
		struct tm_matcher m = tm_matcher_for(o, on && !json_is_null(on) ? on : empty);
		res = 0;
		for (size_t j = 0; j < n && res == 0; j++) {
			const json_t *rc = json_array_get(rt, j);
			if (seen[j] || json_is_null(rc) || !tm_strict_equal(on, fn_member(rc, "name")))
				continue;
			json_t *oa = lazy_args(oc, e), *ra = oa ? lazy_args(rc, e) : NULL;
			res = oa && ra ? tm_args_match(o, &m, oa, ra, e) : -1;
			seen[j] = res == 1;
			json_decref(oa);
			json_decref(ra);
		}
		if (res != 1)
			break;
	}
	json_decref(empty);
	free(seen);
	return res;
}

static int strict_messages(const struct tm_opts *o, const json_t *out, const json_t *ref,
                           struct tm_err *e)
{
	if (json_array_size(out) != json_array_size(ref))
		return 0;
	for (size_t i = 0; i < json_array_size(out); i++) {
		const json_t *om = json_array_get(out, i), *rm = json_array_get(ref, i);
		if (json_is_null(om) || json_is_null(rm))
			return tm_fail(e, "message %zu is null (TypeError)", i + 1);
		if (!tm_strict_equal(json_object_get(om, "role"), json_object_get(rm, "role")))
			return 0;
		const json_t *ot = json_object_get(om, "tool_calls"), *rt = json_object_get(rm, "tool_calls");
		bool oh = ot && !json_is_null(ot), rh = rt && !json_is_null(rt);
		if (oh != rh)
			return 0;
		int r = oh ? strict_calls(o, ot, rt, e) : 1;
		if (r != 1)
			return r;
	}
	return 1;
}

static int decide(int mode, const struct tm_opts *o, struct tm_traj *O, struct tm_traj *R,
                  struct tm_err *e)
{
	if (mode == MODE_STRICT && !R->flat)
		return strict_messages(o, O->messages, R->messages, e);
	/* The flattening reader parses every argument first: the trajectory
	 * agentevals reads first fails first. */
	struct tm_traj *first = mode == MODE_SUBSET ? R : O, *second = first == O ? R : O;
	if (tm_traj_flatten(first, e) || tm_traj_flatten(second, e))
		return -1;
	switch (mode) {
	case MODE_STRICT:
		return strict_flat(o, O, R, e);
	case MODE_SUPERSET:
		return cover(o, O, R, e);
	case MODE_SUBSET:
		return cover(o, R, O, e);
	case MODE_UNORDERED: {
		int r = cover(o, O, R, e);
		return r == 1 ? cover(o, R, O, e) : r;
	}
	default:
		return in_order(o, O, R, e);
	}
}

static void tm_score(const struct scorer_conf *sc, const struct run *r, struct scorer_shared *sh,
                     json_t *params, const char *unset, struct verdict *out)
{
	(void)sh;
	if (unset) {
		verdict_skip(out, "%s", unset);
		return;
	}
	struct tm_opts o;
	int mode;
	const char *msg = opts_read(params, &o, &mode);
	if (msg) {
		verdict_error(out, "trajectory-match: %s", msg);
		return;
	}
	struct tm_err e = { "" };
	struct tm_traj O, R;
	const json_t *given = json_object_get(params, "outputs");
	int rc = given ? tm_traj_of_value(given, "outputs", false, &O, &e)
	               : tm_traj_of_run((struct run *)r, &O, &e);
	if (rc == 0 && tm_traj_of_value(json_object_get(params, "reference"), "reference", true, &R,
	                                &e) == 0) {
		int res = decide(mode, &o, &O, &R, &e);
		if (res < 0)
			verdict_error(out, "trajectory-match: %s", e.text);
		else
			verdict_ok(out, sc->threshold, res,
			           tm_explain_details(&o, mode_names[mode], res == 1,
			                              &O, &R));
		tm_traj_free(&R);
	} else {
		verdict_error(out, "trajectory-match: %s", e.text);
	}
	tm_traj_free(&O);
}

const struct scorer_ops scorer_trajectory_match = {
	.type = "trajectory-match",
	.summary = "the agent's calls and arguments against a reference trajectory (agentevals' modes)",
	.scale = SCALE_BINARY,
	.default_threshold = 1,
	.params = tm_params,
	.configure = tm_configure,
	.score = tm_score,
	.explain = tm_explain,
};
