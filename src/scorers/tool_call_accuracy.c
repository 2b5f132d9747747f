/* tool_call_accuracy.c - Mastra's code tool-call-accuracy scorer, exactly.
 *
 * Mirrors createToolCallAccuracyScorerCode (@mastra/evals 1.x): the score
 * and every field of its preprocessStepResult, in its key order, with keys
 * that were never configured left out. For runs in Mastra's own shapes the
 * calls are those Mastra counts (0.x-shaped runs as 0.x counted them); for
 * other formats they are the agent's tool calls in the agent's messages.
 * Comparisons follow JavaScript: truthiness for "given", === for names. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scorers/params.h"
#include "util/jsonw.h"
#include "scorers/scorer.h"

#define TCA_NEED_OPTION "Either expectedTool or expectedToolOrder must be provided"
#define TCA_EMPTY_IO "Input and output messages cannot be null or empty"

static const struct param_spec tca_params[] = {
	{ .name = "expectedTool", .kind = PARAM_STRING, .help = "the tool that should be called" },
	{ .name = "strictMode", .kind = PARAM_BOOL, .help = "single tool: the only call; order: exactly this sequence" },
	{ .name = "expectedToolOrder", .kind = PARAM_STRING_LIST, .help = "the tools that should be called, in order" },
	{ .name = "options", .kind = PARAM_OBJECT, .help = "all three options as one object, e.g. {from: config}" },
	{ .name = NULL },
};

/* JavaScript's === (and includes()) on two decoded JSON values. */
static bool js_same(const json_t *a, const json_t *b)
{
	if (!a || !b)
		return a == b;
	if (json_is_number(a) && json_is_number(b))
		return json_number_value(a) == json_number_value(b);
	if (json_typeof(a) != json_typeof(b))
		return false;
	switch (json_typeof(a)) {
	case JSON_STRING:
		return json_string_length(a) == json_string_length(b) &&
		       memcmp(json_string_value(a), json_string_value(b), json_string_length(a)) == 0;
	case JSON_TRUE:
	case JSON_FALSE:
	case JSON_NULL:
		return true;
	default:
		return a == b;          /* objects compare by identity in JS */
	}
}

/* The effective options (borrowed from the parameters): `options` first,
 * then the separate parameters. */
struct tca_opts {
	json_t *tool;           /* expectedTool */
	json_t *strict;         /* strictMode */
	json_t *order;          /* expectedToolOrder */
};

static json_t *tca_option(json_t *params, json_t *bundle, const char *key)
{
	json_t *v = json_object_get(params, key);
	if (!v && json_is_object(bundle))
		v = json_object_get(bundle, key);
	return v;
}

static void tca_options(json_t *params, struct tca_opts *o)
{
	json_t *bundle = json_object_get(params, "options");
	o->tool = tca_option(params, bundle, "expectedTool");
	o->strict = tca_option(params, bundle, "strictMode");
	o->order = tca_option(params, bundle, "expectedToolOrder");
}

/* Mastra's factory check: the scorer cannot be created without a target. */
static bool tca_creatable(const struct tca_opts *o)
{
	return json_truthy(o->tool) || (o->order && !json_is_null(o->order));
}

static const char *tca_check(json_t *literals)
{
	struct tca_opts o;
	tca_options(literals, &o);
	return tca_creatable(&o) ? NULL : TCA_NEED_OPTION;
}

/* Collects actualTools and toolCallInfos. */
static void tca_extract(const struct run *r, json_t *tools, json_t *infos)
{
	for (size_t i = 0; i < r->ncalls; i++) {
		const struct run_call *c = &r->calls[i];
		json_t *name, *id;
		long mi, ii;
		if (!run_call_counted(r, i, RUN_CALLS_SCORED))
			continue;
		if (r->mastra != MASTRA_NONE) {
			/* Mastra compares these as JSON values: a tree of each. */
			name = jv_to_json(r->doc, c->raw_name);
			id = jv_truthy(r->doc, c->raw_id) ? jv_to_json(r->doc, c->raw_id) : NULL;
			mi = c->src_msg_index;
			ii = c->src_call_index;
		} else {
			name = json_string(c->name);
			id = c->id && c->id[0] ? json_string(c->id) : NULL;
			mi = c->src_msg_index >= 0 ? c->src_msg_index : (long)c->msg_index;
			ii = (long)c->index_in_msg;
		}
		if (!id) {
			char buf[48];
			snprintf(buf, sizeof buf, "%ld-%ld", mi, ii);
			id = json_string(buf);
		}
		json_array_append(tools, name);
		/* The keys here and in the details are ASCII literals: the
		 * setters that skip jansson's UTF-8 check of the key will do. */
		json_t *info = json_object();
		json_object_set_new_nocheck(info, "toolName", name);
		json_object_set_new_nocheck(info, "toolCallId", id);
		json_object_set_new_nocheck(info, "messageIndex", json_integer(mi));
		json_object_set_new_nocheck(info, "invocationIndex", json_integer(ii));
		json_array_append_new(infos, info);
	}
}

void scorer_tool_call_infos(const struct run *r, json_t *tools, json_t *infos)
{
	tca_extract(r, tools, infos);
}

/* The run's actualTools and toolCallInfos, made once for all the scorers
 * of the run: they depend on the run only. */
static void tca_shared(const struct run *r, struct scorer_shared *sh)
{
	if (sh->tools)
		return;
	sh->tools = json_array();
	sh->infos = json_array();
	tca_extract(r, sh->tools, sh->infos);
}

static long index_of(json_t *tools, json_t *name)
{
	size_t i;
	json_t *t;
	json_array_foreach(tools, i, t)
		if (js_same(t, name))
			return (long)i;
	return -1;
}

static bool check_order(json_t *tools, json_t *order, bool strict)
{
	size_t n = json_array_size(order);
	if (strict) {
		if (json_array_size(tools) != n)
			return false;
		for (size_t i = 0; i < n; i++)
			if (!js_same(json_array_get(tools, i), json_array_get(order, i)))
				return false;
		return true;
	}
	/* First occurrence of each expected name, strictly increasing. */
	long last = -1;
	for (size_t i = 0; i < n; i++) {
		long at = index_of(tools, json_array_get(order, i));
		if (at < 0 || at <= last)
			return false;
		last = at;
	}
	return true;
}

/* Why a run cannot be scored with these options, as a verdict; false when
 * it can. */
static bool tca_refused(const struct tca_opts *o, const struct run *r, const char *unset,
                        struct verdict *out)
{
	if (!tca_creatable(o)) {
		if (unset)
			verdict_skip(out, "%s", unset);
		else
			verdict_error(out, "create: " TCA_NEED_OPTION);
		return true;
	}
	if (json_truthy(o->order) && !json_is_array(o->order)) {
		verdict_error(out, "create: expectedToolOrder must be a list of tool names");
		return true;
	}
	if (r->mastra != MASTRA_NONE && r->mastra_io_empty) {
		verdict_error(out, "run: " TCA_EMPTY_IO);
		return true;
	}
	return false;
}

static void tca_score(const struct scorer_conf *sc, const struct run *r, struct scorer_shared *sh,
                      json_t *params, const char *unset, struct verdict *out)
{
	struct tca_opts o;
	tca_options(params, &o);
	if (tca_refused(&o, r, unset, out))
		return;
	json_t *expected_tool = o.tool;
	json_t *strict_mode = o.strict;
	json_t *order = o.order;
	bool strict = json_truthy(strict_mode);
	tca_shared(r, sh);
	json_t *tools = sh->tools;
	size_t n = json_array_size(tools);

	bool correct_tool = false;
	if (json_truthy(expected_tool)) {
		if (strict)
			correct_tool = n == 1 && js_same(json_array_get(tools, 0), expected_tool);
		else
			correct_tool = index_of(tools, expected_tool) >= 0;
	}
	json_t *correct_order = json_null();
	if (json_truthy(order))
		correct_order = json_boolean(check_order(tools, order, strict));

	int score;
	if (n == 0)
		score = 0;
	else if (json_truthy(order) && json_array_size(order) > 0)
		score = json_is_true(correct_order);
	else if (!json_truthy(expected_tool))
		score = 0;
	else
		score = correct_tool;

	json_t *d = json_object();
	if (expected_tool)
		json_object_set_nocheck(d, "expectedTool", expected_tool);
	json_object_set_nocheck(d, "actualTools", tools);
	json_object_set_nocheck(d, "strictMode", strict_mode ? strict_mode : json_false());
	if (order)
		json_object_set_nocheck(d, "expectedToolOrder", order);
	json_object_set_new_nocheck(d, "hasToolCalls", json_boolean(n > 0));
	json_object_set_new_nocheck(d, "correctToolCalled", json_boolean(correct_tool));
	json_object_set_nocheck(d, "toolCallInfos", sh->infos);
	json_object_set_new_nocheck(d, "correctOrderCalled", correct_order);
	verdict_ok(out, sc->threshold, score, d);
}

static void list_names(struct strbuf *out, const json_t *list)
{
	size_t i;
	json_t *v;
	if (!json_is_array(list) || json_array_size(list) == 0) {
		strbuf_addstr(out, "(none)");
		return;
	}
	json_array_foreach((json_t *)list, i, v) {
		if (i)
			strbuf_addstr(out, ", ");
		if (json_is_string(v))
			strbuf_addstr(out, json_string_value(v));
		else
			jsonw_value(out, v);
	}
}

/* Expected against actual, and what is missing or out of order, in the
 * terms of the rule that decided the score. */
static void tca_explain(const json_t *d, struct strbuf *out)
{
	json_t *actual = json_object_get(d, "actualTools");
	json_t *order = json_object_get(d, "expectedToolOrder");
	json_t *tool = json_object_get(d, "expectedTool");
	bool strict = json_truthy(json_object_get(d, "strictMode"));
	if (json_is_array(order) && json_array_size(order) > 0) {
		strbuf_addstr(out, "expected  ");
		list_names(out, order);
		strbuf_addstr(out, strict ? "  (this exact sequence)\n" : "  (in this order; others may come between)\n");
	} else if (json_truthy(tool)) {
		strbuf_addstr(out, "expected  ");
		if (json_is_string(tool))
			strbuf_addstr(out, json_string_value(tool));
		else
			jsonw_value(out, tool);
		strbuf_addstr(out, strict ? "  (as the only call)\n" : "  (called at least once)\n");
	}
	strbuf_addstr(out, "actual    ");
	list_names(out, actual);
	strbuf_addch(out, '\n');
	if (json_is_array(order) && json_array_size(order) > 0) {
		struct strbuf missing = STRBUF_INIT, late = STRBUF_INIT;
		long last = -1;
		size_t i;
		json_t *want;
		json_array_foreach(order, i, want) {
			long at = index_of(actual, want);
			struct strbuf *sb = at < 0 ? &missing : (at <= last ? &late : NULL);
			if (sb) {
				if (sb->len)
					strbuf_addstr(sb, ", ");
				if (json_is_string(want))
					strbuf_addstr(sb, json_string_value(want));
				else
					jsonw_value(sb, want);
			}
			if (at > last)
				last = at;
		}
		if (missing.len)
			strbuf_addf(out, "missing   %s\n", missing.buf);
		if (late.len)
			strbuf_addf(out, "out of order  %s (its first call comes too early)\n", late.buf);
		if (strict && !missing.len && !late.len && !json_is_true(json_object_get(d, "correctOrderCalled")))
			strbuf_addstr(out, "extra or repeated calls break the exact sequence\n");
		strbuf_release(&missing);
		strbuf_release(&late);
	}
	strbuf_addf(out, "strict mode %s\n", strict ? "on" : "off");
}

const struct scorer_ops scorer_tool_call_accuracy = {
	.type = "tool-call-accuracy",
	.summary = "did the agent call the expected tool, or the expected tools in order (Mastra's code scorer)",
	.scale = SCALE_BINARY,
	.default_threshold = 1,
	.params = tca_params,
	.check = tca_check,
	.score = tca_score,
	.explain = tca_explain,
};
