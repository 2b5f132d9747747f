/* rubric_1to5.c - how well the agent used its tools, on Azure AI
 * Evaluation's 1..5 tool-call-accuracy levels, with our own prompt.
 *
 * One request judges all the calls of the run together. The run is not
 * applicable (skipped, never a 0 or a pass) when it has no calls, when no
 * tool definitions are known, or when a call's tool has no definition;
 * the judge may also answer "skipped". A score that is missing or off 1..5
 * is an unusable answer, as Azure treats it. The details are Azure's
 * result keys (the cloud evaluator's set), prefixed tool_call_accuracy. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge_int.h"
#include "util/jsonw.h"
#include "util/xalloc.h"
#include "util/error.h"

#define P "tool_call_accuracy"

#define NO_CALLS "No tool calls found in response or provided tool_calls."
#define NO_DEFS "Tool definitions must be provided."
#define INTERMEDIATE "Intermediate response. Please provide the agent's final response for evaluation."
#define DEF_MISSING "Tool definitions for all tool calls must be provided."

/* Azure knows these without a definition from the caller. */
static const char *const builtin_tools[] = {
	"code_interpreter", "bing_grounding", "bing_custom_search", "file_search",
	"azure_ai_search", "sharepoint_grounding", "fabric_dataagent", "openapi", NULL,
};

static const char schema_json[] =
	"{\"type\": \"object\","
	" \"properties\": {"
	"  \"reason\": {\"type\": \"string\"},"
	"  \"score\": {\"type\": [\"integer\", \"null\"], \"description\": \"the level, 1 to 5; null when skipped\"},"
	"  \"status\": {\"type\": \"string\", \"enum\": [\"completed\", \"skipped\"]},"
	"  \"properties\": {\"type\": [\"object\", \"null\"],"
	"   \"properties\": {"
	"    \"tool_calls_made_by_agent\": {\"type\": \"integer\"},"
	"    \"correct_tool_calls_made_by_agent\": {\"type\": \"integer\"},"
	"    \"per_tool_call_details\": {\"type\": \"array\", \"items\": {\"type\": \"object\","
	"     \"properties\": {"
	"      \"tool_name\": {\"type\": \"string\"},"
	"      \"total_calls_required\": {\"type\": \"integer\"},"
	"      \"correct_calls_made_by_agent\": {\"type\": \"integer\"},"
	"      \"correct_tool_percentage\": {\"type\": \"number\"},"
	"      \"tool_call_errors\": {\"type\": \"integer\"},"
	"      \"tool_success_result\": {\"type\": \"string\", \"enum\": [\"pass\", \"fail\"]}},"
	"     \"required\": [\"tool_name\", \"total_calls_required\", \"correct_calls_made_by_agent\","
	"      \"correct_tool_percentage\", \"tool_call_errors\", \"tool_success_result\"],"
	"     \"additionalProperties\": false}},"
	"    \"excess_tool_calls\": {\"type\": \"object\", \"properties\": {"
	"      \"total\": {\"type\": \"integer\"},"
	"      \"details\": {\"type\": \"array\", \"items\": {\"type\": \"object\", \"properties\": {"
	"        \"tool_name\": {\"type\": \"string\"}, \"excess_count\": {\"type\": \"integer\"}},"
	"       \"required\": [\"tool_name\", \"excess_count\"], \"additionalProperties\": false}}},"
	"     \"required\": [\"total\", \"details\"], \"additionalProperties\": false},"
	"    \"missing_tool_calls\": {\"type\": \"object\", \"properties\": {"
	"      \"total\": {\"type\": \"integer\"},"
	"      \"details\": {\"type\": \"array\", \"items\": {\"type\": \"object\", \"properties\": {"
	"        \"tool_name\": {\"type\": \"string\"}, \"missing_count\": {\"type\": \"integer\"}},"
	"       \"required\": [\"tool_name\", \"missing_count\"], \"additionalProperties\": false}}},"
	"     \"required\": [\"total\", \"details\"], \"additionalProperties\": false}},"
	"   \"required\": [\"tool_calls_made_by_agent\", \"correct_tool_calls_made_by_agent\","
	"    \"per_tool_call_details\", \"excess_tool_calls\", \"missing_tool_calls\"],"
	"   \"additionalProperties\": false}},"
	" \"required\": [\"reason\", \"score\", \"status\", \"properties\"],"
	" \"additionalProperties\": false}";

struct r15 {
	struct judge_view view;
	char *system;
	char *user;
	json_t *schema;
	bool skipped;               /* the judge said there was nothing to judge */
	double score;
	char *reason;
	json_t *properties;         /* the judge's counters, or null */
};

static bool has_definition(const json_t *tools, const json_t *name)
{
	if (!json_is_string(name))
		return false;
	const char *s = json_string_value(name);
	for (const char *const *b = builtin_tools; *b; b++)
		if (strcmp(*b, s) == 0)
			return true;
	size_t i;
	json_t *t;
	json_array_foreach(tools, i, t)
		if (json_equal(json_object_get(t, "name"), name))
			return true;
	return false;
}

/* The run stops on a call still waiting for its tool: the last message
 * of the run is the agent's and it ends in a call with no result. There is
 * no final answer to judge yet (Azure's "intermediate response"). */
static bool intermediate_response(const struct run *r)
{
	for (size_t i = r->nmsgs; i-- > 0;) {
		const struct run_msg *m = &r->msgs[i];
		if (m->origin != MSG_IN_OUTPUT)
			break;
		if (m->is_tool_output)
			return false;           /* a result came back after the last call */
		if (m->role != ROLE_ASSISTANT)
			return false;
		if (m->ncalls == 0)
			return false;           /* ends in the agent's words */
		const struct run_call *last = &r->calls[m->first_call + m->ncalls - 1];
		return !last->has_result;
	}
	return false;
}

static void *r15_start(const struct judge_conf *j, const struct run *r, json_t *expected,
                       const char *examples, char *skip, size_t skiplen)
{
	struct r15 *a = xcalloc(1, sizeof *a);
	judge_view_init(&a->view, j, r, expected, examples);
	const char *why = NULL;
	const json_t *undefined = NULL;
	if (a->view.ncalls == 0) {
		why = NO_CALLS;
	} else if (intermediate_response(r)) {
		why = INTERMEDIATE;
	} else if (json_array_size(a->view.tool_list) == 0) {
		why = NO_DEFS;
	} else {
		size_t i;
		json_t *name;
		json_array_foreach(a->view.actual_tools, i, name)
			if (!undefined && !has_definition(a->view.tool_list, name))
				undefined = name;
		if (undefined)
			why = DEF_MISSING;
	}
	if (why) {
		if (undefined && json_is_string(undefined))
			snprintf(skip, skiplen, "Not applicable: %s (no definition of '%s')", why,
			         json_string_value(undefined));
		else
			snprintf(skip, skiplen, "Not applicable: %s", why);
		judge_view_free(&a->view);
		free(a);
		return NULL;
	}
	struct prompt_var vars[JUDGE_VIEW_NVARS];
	size_t n = judge_view_vars(&a->view, vars);
	a->system = judge_render(j, "system", vars, n);
	a->user = judge_render(j, "user", vars, n);
	a->schema = json_loads(schema_json, 0, NULL);
	return a;
}

static bool r15_prompt(void *st, int step, struct judge_prompt *out)
{
	struct r15 *a = st;
	if (step > 0)
		return false;
	out->system = a->system;
	out->user = a->user ? a->user : "";
	out->schema = a->schema;
	out->schema_name = "tool_call_accuracy";
	out->structured = true;
	return true;
}

/* Reads the current answer ({reason, score, status, properties}) and the
 * 1.9-era one ({chain_of_thought, tool_calls_success_level, details}). */
static int r15_absorb(void *st, int step, const char *text, struct error *err)
{
	struct r15 *a = st;
	json_t *o = judge_reply_json(text);
	if (!o)
		return error_set(err, ERR_FAILED, "no JSON object in the answer");
	json_t *reason = json_object_get(o, "reason");
	if (!reason)
		reason = json_object_get(o, "chain_of_thought");
	json_t *props = json_object_get(o, "properties");
	if (!props)
		props = json_object_get(o, "details");
	json_t *status = json_object_get(o, "status");
	json_t *score = json_object_get(o, "score");
	if (!score)
		score = json_object_get(o, "tool_calls_success_level");

	int rc = 0;
	if (reason && !json_is_string(reason)) {
		rc = error_set(err, ERR_FAILED, "reason is not a string");
	} else if (props && !json_is_object(props) && !json_is_null(props)) {
		rc = error_set(err, ERR_FAILED, "properties is not an object");
	} else if (json_is_string(status) && strcmp(json_string_value(status), "skipped") == 0) {
		a->skipped = true;
	} else if (status && !(json_is_string(status) &&
	                       strcmp(json_string_value(status), "completed") == 0)) {
		rc = error_set(err, ERR_FAILED, "status must be \"completed\" or \"skipped\"");
	} else if (!json_is_number(score) || !scale_accepts(SCALE_1TO5, json_number_value(score))) {
		struct strbuf sb = STRBUF_INIT;
		if (score)
			jsonw_value(&sb, score);
		else
			strbuf_addstr(&sb, "(none)");
		rc = error_set(err, ERR_FAILED, "invalid score value %s; expected a whole number from 1 to 5",
		               sb.buf);
		strbuf_release(&sb);
	} else {
		a->score = json_number_value(score);
	}
	if (rc == 0) {
		free(a->reason);
		a->reason = judge_trim_dup(reason ? json_string_value(reason) : "");
		json_decref(a->properties);
		a->properties = props && json_is_object(props) ? json_incref(props) : NULL;
	}
	json_decref(o);
	(void)step;
	return rc;
}

static void r15_finish(void *st, struct verdict *out, const struct judge_conf *j)
{
	struct r15 *a = st;
	json_t *d = json_object();
	if (a->skipped) {
		json_object_set_new(d, P, json_null());
		json_object_set_new(d, P "_score", json_null());
		json_object_set_new(d, P "_result", json_string("not_applicable"));
		json_object_set_new(d, P "_passed", json_null());
	} else {
		bool pass = a->score >= j->threshold;
		json_object_set_new(d, P, json_real(a->score));
		json_object_set_new(d, P "_score", json_real(a->score));
		json_object_set_new(d, P "_result", json_string(pass ? "pass" : "fail"));
		json_object_set_new(d, P "_passed", json_boolean(pass));
	}
	json_t *reason = json_string(a->reason ? a->reason : "");
	json_object_set_new(d, P "_reason", reason ? reason : json_string(""));
	json_object_set_new(d, P "_status", json_string(a->skipped ? "skipped" : "completed"));
	json_object_set_new(d, P "_threshold", json_real(j->threshold));
	json_object_set_new(d, P "_properties",
	                    a->properties ? json_incref(a->properties) : json_null());
	json_object_set_new(d, "prompt", json_string(a->user ? a->user : ""));
	if (a->skipped) {
		verdict_skip(out, "Not applicable: %s", a->reason && a->reason[0] ? a->reason
		                                                   : "the judge found nothing to judge");
		out->details = d;
		return;
	}
	verdict_ok(out, j->threshold, a->score, d);
}

static void r15_free(void *st)
{
	struct r15 *a = st;
	judge_view_free(&a->view);
	free(a->system);
	free(a->user);
	free(a->reason);
	json_decref(a->schema);
	json_decref(a->properties);
	free(a);
}

/* A label as the answer: the level and the reason, and the judge's own
 * counters (and its reason, when the label has none) when the label is
 * the judge's score (the reviewer stood by them); otherwise no counters,
 * which the answer may leave null. */
static json_t *r15_answer(void *st, double score, const char *reason, const struct verdict *machine,
                          struct error *err)
{
	(void)st;
	if (!scale_accepts(SCALE_1TO5, score)) {
		error_set(err, ERR_FAILED, "a label of %g is not a level from 1 to 5", score);
		return NULL;
	}
	bool own = machine && machine->score == score;
	json_t *props = own ? json_object_get(machine->details, P "_properties") : NULL;
	const char *mine = own ? json_string_value(json_object_get(machine->details, P "_reason")) : NULL;
	if (!reason[0] && mine)
		reason = mine;
	json_t *o = json_pack("{s:s, s:I, s:s, s:O}", "reason", reason, "score", (json_int_t)score,
	                      "status", "completed",
	                      "properties", json_is_object(props) ? props : json_null());
	if (!o)
		error_set(err, ERR_FAILED, "the reason is not valid UTF-8");
	return o;
}

static const char *const r15_sections[] = { "user", NULL };

const struct rubric_ops rubric_1to5 = {
	.name = "tool-call-accuracy-1to5",
	.summary = "relevance, parameters, completeness and efficiency of the calls (1..5, Azure's levels)",
	.scale = SCALE_1TO5,
	.default_threshold = 3,
	.prompt_file = "tool-call-accuracy-1to5.txt",
	.start = r15_start,
	.prompt = r15_prompt,
	.absorb = r15_absorb,
	.finish = r15_finish,
	.free = r15_free,
	.answer = r15_answer,
	.sections = r15_sections,
	.vars = NULL,
	.reason_key = P "_reason",
};
