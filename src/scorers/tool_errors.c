/* tool_errors.c - the share of the agent's tool calls that did not fail,
 * with no ground truth: a check that works on any run.
 *
 * A call failed when the record says so (an error result, a rejected or
 * denied call: the loaders record those as is_error / CALL_FAILED on the
 * call or result_is_error on its result message), or when its result's
 * text begins with one of `error_prefixes`: many formats never flag an
 * error and put it in the text instead (tau-bench's "Error: user not
 * found"). Prefixes are compared without regard to ASCII case, after the
 * result's leading white space.
 *
 * The score is 1 - failed/calls so that higher is better, as everywhere
 * else (calibration, the filters and stats read it so); the default
 * threshold 1 passes exactly the runs where no call failed. Only the
 * agent's calls count (run_counted_calls, RUN_CALLS_AGENT: not a
 * simulated user's, not a partial one, not the input's context). A run whose calls have not one
 * result anywhere is skipped: the harness or the format kept no results,
 * so no failure could show.
 *
 * Each failed call is marked "failed" in the details' call_marks
 * (verdict/verdict.h), all of them, past the cap of the listed failures:
 * the timeline shows the mark beside the call. A call that is fine gets
 * no mark. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scorers/params.h"
#include "scorers/scorer.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define TE_MAX_LISTED 50        /* failed calls listed in the details */
#define TE_TEXT_CHARS 200       /* characters of each error text kept */

static const struct param_spec te_params[] = {
	{ .name = "error_prefixes", .kind = PARAM_STRING_LIST,
	  .help = "a result whose text begins with one of these (any ASCII case) failed; [] turns text matching off",
	  .deflt = "[\"Error:\", \"Exception:\", \"Traceback (most recent call last)\"]" },
	{ .name = NULL },
};

static const char *te_check(json_t *lits)
{
	json_t *p = json_object_get(lits, "error_prefixes");
	size_t i;
	json_t *item;
	if (json_is_null(p))
		return "error_prefixes must be a list of strings ([] turns text matching off)";
	json_array_foreach(p, i, item)
		if (json_is_string(item) && json_string_length(item) == 0)
			return "error_prefixes: an empty prefix would match every result";
	return NULL;
}

/* The text a result shows first: a string, or the first text of a list
 * of parts ({type: text, text} or strings). NULL when it has none. */
static const char *te_result_text(const struct jdoc *d, jv res)
{
	if (jv_is_string(d, res))
		return jv_str(d, res);
	if (!jv_is_array(d, res))
		return NULL;
	JV_EACH(d, res, part) {
		if (jv_is_string(d, part))
			return jv_str(d, part);
		const char *t = jv_str(d, jv_get(d, part, "text"));
		if (t)
			return t;
	}
	return NULL;
}

static bool te_ascii_prefix(const char *text, const char *prefix)
{
	for (; *prefix; text++, prefix++) {
		unsigned char a = (unsigned char)*text, b = (unsigned char)*prefix;
		if (a >= 'A' && a <= 'Z')
			a = (unsigned char)(a + 32);
		if (b >= 'A' && b <= 'Z')
			b = (unsigned char)(b + 32);
		if (a != b)
			return false;
	}
	return true;
}

/* The first prefix the text begins with (after white space), or NULL. */
static const char *te_prefix_hit(const char *text, const json_t *prefixes)
{
	size_t i;
	json_t *p;
	if (!text)
		return NULL;
	while (*text == ' ' || *text == '\t' || *text == '\n' || *text == '\r')
		text++;
	json_array_foreach(prefixes, i, p) {
		const char *s = json_string_value(p);
		if (s && s[0] && te_ascii_prefix(text, s))
			return s;
	}
	return NULL;
}

/* The first TE_TEXT_CHARS characters of s as a JSON string, cut on a
 * character boundary, with "..." when cut; line breaks and tabs become
 * spaces, so that a traceback stays one line of the details. */
static json_t *te_excerpt(const char *s)
{
	size_t n = 0, chars = 0;
	if (!s)
		s = "";
	while (s[n] && chars < TE_TEXT_CHARS) {
		n++;
		while (((unsigned char)s[n] & 0xc0) == 0x80)
			n++;
		chars++;
	}
	struct strbuf sb = STRBUF_INIT;
	strbuf_add(&sb, s, n);
	for (size_t i = 0; i < sb.len; i++)
		if (sb.buf[i] == '\n' || sb.buf[i] == '\r' || sb.buf[i] == '\t')
			sb.buf[i] = ' ';
	if (s[n])
		strbuf_addstr(&sb, "...");
	json_t *v = json_stringn(sb.buf ? sb.buf : "", sb.len);
	strbuf_release(&sb);
	return v ? v : json_string("(the text is not UTF-8)");
}

/* Whether the record marks the call failed, and the text it gives. */
static bool te_flagged(const struct run *r, const struct run_call *c, const char **text)
{
	const struct run_msg *m = c->result_msg >= 0 ? &r->msgs[c->result_msg] : NULL;
	*text = c->error_text ? c->error_text : m ? m->result_error_text : NULL;
	return c->is_error || c->state == CALL_FAILED || (m && m->result_is_error);
}

/* The default prefixes, as te_params gives them, for callers that have no
 * scorer entry of their own (the groups by first error). */
static const char *const te_default_prefixes[] = {
	"Error:", "Exception:", "Traceback (most recent call last)",
};

const char *tool_error_text(const struct run *r, const struct run_call *c)
{
	const char *text;
	const char *shown = c->has_result ? te_result_text(r->doc, c->result) : NULL;
	if (te_flagged(r, c, &text)) {
		if (!text || !text[0])
			text = shown && shown[0] ? shown : "(a failed call without text)";
		return text;
	}
	if (!shown)
		return NULL;
	const char *t = shown;
	while (*t == ' ' || *t == '\t' || *t == '\n' || *t == '\r')
		t++;
	for (size_t i = 0; i < sizeof te_default_prefixes / sizeof *te_default_prefixes; i++)
		if (te_ascii_prefix(t, te_default_prefixes[i]))
			return shown;
	return NULL;
}

/* Results that match no call, in the run's output: a result was kept. */
static bool te_orphans(const struct run *r)
{
	for (size_t i = 0; i < r->nmsgs; i++)
		if (r->msgs[i].unmatched_result && r->msgs[i].origin == MSG_IN_OUTPUT)
			return true;
	return false;
}

/* One failed call for the details: its number on the timeline (0 when
 * the timeline does not number it), its index in the run, name, id, why
 * it counted and its error text. */
static json_t *te_failure(const struct run *r, size_t call, const char *prefix, const char *text)
{
	const struct run_call *c = &r->calls[call];
	size_t number = run_call_number(r, call, RUN_CALLS_SCORED);
	json_t *o = json_object();
	json_object_set_new(o, "number", json_integer((json_int_t)number));
	json_object_set_new(o, "call", json_integer((json_int_t)call + 1));
	json_object_set_new(o, "name", te_excerpt(c->name[0] ? c->name : "(no name)"));
	if (c->id)
		json_object_set_new(o, "id", te_excerpt(c->id));
	if (prefix)
		json_object_set_new(o, "prefix", json_string(prefix));
	json_object_set_new(o, "why", json_string(prefix ? "text" : "flagged"));
	json_object_set_new(o, "text", te_excerpt(text));
	return o;
}

static void te_score(const struct scorer_conf *sc, const struct run *r, struct scorer_shared *sh,
                     json_t *params, const char *unset, struct verdict *out)
{
	(void)sh;
	if (unset) {
		/* a {from:} reference found nothing: no guess at what was meant */
		verdict_skip(out, "%s", unset);
		return;
	}
	json_t *prefixes = json_object_get(params, "error_prefixes");
	const char *msg = te_check(params);
	if (msg) {
		verdict_error(out, "tool-errors: %s", msg);
		return;
	}
	size_t *idx = xcalloc(r->ncalls ? r->ncalls : 1, sizeof *idx);
	size_t n = run_counted_calls(r, RUN_CALLS_AGENT, idx), failed = 0, answered = 0;
	json_t *list = json_array(), *marks = json_array(), *found = json_array();
	for (size_t k = 0; k < n; k++) {
		const struct run_call *c = &r->calls[idx[k]];
		const char *text, *prefix = NULL;
		bool flagged = te_flagged(r, c, &text);
		const char *shown = c->has_result ? te_result_text(r->doc, c->result) : NULL;
		if (c->has_result || flagged)
			answered++;
		if (!flagged && c->has_result)
			prefix = te_prefix_hit(shown, prefixes);
		if (!flagged && !prefix)
			continue;
		failed++;
		if (!text || !text[0] || prefix)
			text = shown ? shown : text;
		if (json_array_size(list) < TE_MAX_LISTED) {
			json_t *f = te_failure(r, idx[k], prefix, text);
			json_array_append_new(found, json_pack("{s:s, s:O, s:I, s:b, s:O}", "what", "failed", "name",
			                                       json_object_get(f, "name"), "call", (json_int_t)idx[k] + 1,
			                                       "allowed", false, "says", json_object_get(f, "text")));
			json_array_append_new(list, f);
		}
		json_array_append_new(marks, json_pack("{s:I, s:s}", "call", (json_int_t)idx[k] + 1, "mark", "failed"));
	}
	free(idx);
	if (n && !answered && !te_orphans(r)) {
		json_decref(list);
		json_decref(marks);
		json_decref(found);
		verdict_skip(out, "tool-errors: %zu call%s and not one result: the format or the harness "
		             "kept no results, so no failure can show", n, n == 1 ? "" : "s");
		return;
	}
	json_t *d = json_object();
	json_object_set_new(d, "calls", json_integer((json_int_t)n));
	json_object_set_new(d, "failed", json_integer((json_int_t)failed));
	json_object_set_new(d, "prefixes", prefixes ? json_incref(prefixes) : json_array());
	json_object_set_new(d, "failures", list);
	json_object_set_new(d, VERDICT_CALL_MARKS, marks);
	json_object_set_new(d, VERDICT_FINDINGS, found);   /* each failed call: what the screen puts first */
	verdict_ok(out, sc->threshold, n ? 1.0 - (double)failed / (double)n : 1.0, d);
}

static void te_explain(const json_t *d, struct strbuf *out)
{
	json_int_t n = json_integer_value(json_object_get(d, "calls"));
	json_int_t failed = json_integer_value(json_object_get(d, "failed"));
	const json_t *list = json_object_get(d, "failures");
	if (n == 0) {
		strbuf_addstr(out, "the agent made no tool calls: nothing failed\n");
		return;
	}
	strbuf_addf(out, "%" JSON_INTEGER_FORMAT " of %" JSON_INTEGER_FORMAT " call%s failed (%.0f%%)\n",
	            failed, n, n == 1 ? "" : "s", 100.0 * (double)failed / (double)n);
	size_t i;
	json_t *f;
	json_array_foreach(list, i, f) {
		const char *prefix = json_string_value(json_object_get(f, "prefix"));
		const char *id = json_string_value(json_object_get(f, "id"));
		json_int_t number = json_integer_value(json_object_get(f, "number"));
		if (number > 0)
			strbuf_addf(out, "#%" JSON_INTEGER_FORMAT " ", number);
		else
			strbuf_addstr(out, "\xc2\xb7 ");       /* · as the timeline shows an unnumbered call */
		strbuf_addstr(out, json_string_value(json_object_get(f, "name")));
		if (id)
			strbuf_addf(out, "  id %s", id);
		if (prefix)
			strbuf_addf(out, "  (its result begins with \"%s\")\n", prefix);
		else
			strbuf_addstr(out, "  (the record marks it failed)\n");
		strbuf_addf(out, "    %s\n", json_string_value(json_object_get(f, "text")));
	}
	if ((json_int_t)json_array_size(list) < failed)
		strbuf_addf(out, "... and %" JSON_INTEGER_FORMAT " more\n", failed - (json_int_t)json_array_size(list));
}

const struct scorer_ops scorer_tool_errors = {
	.type = "tool-errors",
	.summary = "share of the agent's tool calls that did not fail (error results, rejected calls)",
	.scale = SCALE_UNIT,
	.default_threshold = 1,
	.params = te_params,
	.check = te_check,
	.score = te_score,
	.explain = te_explain,
};
