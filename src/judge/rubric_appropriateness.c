/* rubric_appropriateness.c - were the tools the agent called the right
 * ones for the request? The shape of Mastra's LLM tool-call-accuracy
 * scorer (createToolCallAccuracyScorerLLM), with our own prompts.
 *
 * Step 0 (analyse) has the judge rate every call and name missing tools;
 * the score is the share of calls rated appropriate, rounded as Mastra
 * does. Step 1 (reason) has it explain the score in a sentence, free text.
 * The details are Mastra's result: preprocessStepResult as its code scorer
 * extracts the calls, analyzeStepResult as the judge wrote it, the reason
 * and both prompts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge_int.h"
#include "util/jsonw.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/error.h"

#define EMPTY_IO "Input and output messages cannot be null or empty"

/* Strict form (every key required, nothing else allowed), which OpenAI's
 * structured output insists on; the answer is still read leniently:
 * missingTools may be left out, as Mastra allows. */
static const char schema_json[] =
	"{\"type\": \"object\","
	" \"properties\": {"
	"  \"evaluations\": {\"type\": \"array\", \"items\": {\"type\": \"object\","
	"   \"properties\": {"
	"    \"toolCalled\": {\"type\": \"string\"},"
	"    \"wasAppropriate\": {\"type\": \"boolean\"},"
	"    \"reasoning\": {\"type\": \"string\"}},"
	"   \"required\": [\"toolCalled\", \"wasAppropriate\", \"reasoning\"],"
	"   \"additionalProperties\": false}},"
	"  \"missingTools\": {\"type\": \"array\", \"items\": {\"type\": \"string\"}}},"
	" \"required\": [\"evaluations\", \"missingTools\"],"
	" \"additionalProperties\": false}";

struct appr {
	const struct judge_conf *j;
	struct judge_view view;
	bool io_empty;              /* Mastra refuses the run before asking anyone */
	char *system;
	char *analyse;
	char *reason_prompt;
	json_t *schema;
	json_t *analysis;           /* the judge's object as parsed */
	double score;
	char *reason;
};

static void *appr_start(const struct judge_conf *j, const struct run *r, json_t *expected,
                        const char *examples, char *skip, size_t skiplen)
{
	struct appr *a = xcalloc(1, sizeof *a);
	a->j = j;
	judge_view_init(&a->view, j, r, expected, examples);
	if (r->mastra != MASTRA_NONE && r->mastra_io_empty) {
		a->io_empty = true;
		return a;
	}
	if (json_array_size(a->view.tool_list) == 0) {
		snprintf(skip, skiplen, "no tool definitions: the run has none, and the judge lists no "
		         "tools (give it tools: [{name, description}])");
		judge_view_free(&a->view);
		free(a);
		return NULL;
	}
	struct prompt_var vars[JUDGE_VIEW_NVARS];
	size_t n = judge_view_vars(&a->view, vars);
	a->system = judge_render(j, "system", vars, n);
	a->analyse = judge_render(j, "analyse", vars, n);
	a->schema = json_loads(schema_json, 0, NULL);
	return a;
}

static bool appr_prompt(void *st, int step, struct judge_prompt *out)
{
	struct appr *a = st;
	if (a->io_empty || step > 1)
		return false;
	out->system = a->system;
	if (step == 0) {
		out->user = a->analyse ? a->analyse : "";
		out->schema = a->schema;
		out->schema_name = "tool_appropriateness";
		out->structured = true;
	} else {
		out->user = a->reason_prompt ? a->reason_prompt : "";
	}
	return true;
}

/* The answer against the schema, read as Mastra's validation reads it. */
static int analysis_check(const json_t *o, struct error *err)
{
	json_t *ev = json_object_get(o, "evaluations");
	if (!ev)
		return error_set(err, ERR_FAILED, "missing field evaluations");
	if (!json_is_array(ev))
		return error_set(err, ERR_FAILED, "evaluations is not a list");
	size_t i;
	json_t *e;
	json_array_foreach(ev, i, e) {
		if (!json_is_object(e))
			return error_set(err, ERR_FAILED, "evaluations[%zu] is not an object", i);
		if (!json_is_string(json_object_get(e, "toolCalled")))
			return error_set(err, ERR_FAILED, "evaluations[%zu].toolCalled is not a string", i);
		if (!json_is_boolean(json_object_get(e, "wasAppropriate")))
			return error_set(err, ERR_FAILED, "evaluations[%zu].wasAppropriate is not a boolean", i);
		if (!json_is_string(json_object_get(e, "reasoning")))
			return error_set(err, ERR_FAILED, "evaluations[%zu].reasoning is not a string", i);
	}
	json_t *missing = json_object_get(o, "missingTools");
	if (missing && !json_is_null(missing)) {
		if (!json_is_array(missing))
			return error_set(err, ERR_FAILED, "missingTools is not a list");
		json_array_foreach(missing, i, e)
			if (!json_is_string(e))
				return error_set(err, ERR_FAILED, "missingTools[%zu] is not a string", i);
	}
	return 0;
}

/* Mastra's generateScore: appropriate calls over evaluations, and the
 * "asked for clarification" case when nothing was evaluated. */
static double appr_score(const json_t *o)
{
	json_t *ev = json_object_get(o, "evaluations");
	size_t n = json_array_size(ev), good = 0;
	if (n == 0)
		return json_array_size(json_object_get(o, "missingTools")) > 0 ? 0 : 1;
	size_t i;
	json_t *e;
	json_array_foreach(ev, i, e)
		if (json_is_true(json_object_get(e, "wasAppropriate")))
			good++;
	return judge_round2((double)good / (double)n);
}

static void render_reason(struct appr *a)
{
	struct strbuf score = STRBUF_INIT, evals = STRBUF_INIT, missing = STRBUF_INIT;
	jsonw_number(&score, a->score);
	jsonw_value(&evals, json_object_get(a->analysis, "evaluations"));
	json_t *m = json_object_get(a->analysis, "missingTools");
	if (json_is_array(m))
		jsonw_value(&missing, m);
	else
		strbuf_addstr(&missing, "[]");

	struct prompt_var vars[JUDGE_VIEW_NVARS + 3];
	size_t n = judge_view_vars(&a->view, vars);
	vars[n++] = (struct prompt_var){ "score", score.buf };
	vars[n++] = (struct prompt_var){ "evaluations", evals.buf };
	vars[n++] = (struct prompt_var){ "missing_tools", missing.buf };
	free(a->reason_prompt);
	a->reason_prompt = judge_render(a->j, "reason", vars, n);
	strbuf_release(&score);
	strbuf_release(&evals);
	strbuf_release(&missing);
}

static int appr_absorb(void *st, int step, const char *text, struct error *err)
{
	struct appr *a = st;
	if (step == 0) {
		json_t *o = judge_reply_json(text);
		if (!o)
			return error_set(err, ERR_FAILED, "no JSON object in the answer");
		if (analysis_check(o, err) < 0) {
			json_decref(o);
			return -1;
		}
		json_decref(a->analysis);
		a->analysis = o;
		a->score = appr_score(o);
		render_reason(a);
		return 0;
	}
	char *reason = judge_trim_dup(text);
	if (!reason[0]) {
		free(reason);
		return error_set(err, ERR_FAILED, "the answer is empty");
	}
	json_t *check = json_string(reason);
	if (!check) {
		free(reason);
		return error_set(err, ERR_FAILED, "the answer is not valid UTF-8");
	}
	json_decref(check);
	free(a->reason);
	a->reason = reason;
	return 0;
}

static void appr_finish(void *st, struct verdict *out, const struct judge_conf *j)
{
	struct appr *a = st;
	if (a->io_empty) {
		verdict_error(out, "run: " EMPTY_IO);
		return;
	}
	json_t *d = json_object();
	json_object_set_new(d, "score", json_real(a->score));
	json_object_set_new(d, "reason", json_string(a->reason ? a->reason : ""));
	json_t *pre = json_object();
	json_object_set(pre, "actualTools", a->view.actual_tools);
	json_object_set_new(pre, "hasToolCalls", json_boolean(a->view.ncalls > 0));
	json_object_set(pre, "toolCallInfos", a->view.call_infos);
	json_object_set_new(d, "preprocessStepResult", pre);
	json_object_set(d, "analyzeStepResult", a->analysis);
	json_object_set_new(d, "analyzePrompt", json_string(a->analyse ? a->analyse : ""));
	json_object_set_new(d, "generateReasonPrompt",
	                    json_string(a->reason_prompt ? a->reason_prompt : ""));
	verdict_ok(out, j->threshold, a->score, d);
}

static void appr_free(void *st)
{
	struct appr *a = st;
	judge_view_free(&a->view);
	free(a->system);
	free(a->analyse);
	free(a->reason_prompt);
	free(a->reason);
	json_decref(a->schema);
	json_decref(a->analysis);
	free(a);
}

/* Every call judged alike: all appropriate (1) or none (0), each with the
 * label's reason. */
static json_t *appr_uniform(const struct appr *a, bool ok, const char *reason)
{
	json_t *ev = json_array();
	size_t i;
	json_t *name;
	json_array_foreach(a->view.actual_tools, i, name) {
		json_t *e = json_pack("{s:O, s:b, s:s}", "toolCalled", name, "wasAppropriate", ok,
		                      "reasoning", reason);
		if (!e) {
			json_decref(ev);
			return NULL;
		}
		json_array_append_new(ev, e);
	}
	return json_pack("{s:o, s:[]}", "evaluations", ev, "missingTools");
}

/* A label as the analysis: the judge's own when the label is its score
 * (the reviewer stood by its ratings); else 1 rates every call
 * appropriate and 0 none. A score in between does not say which calls
 * were the right ones, and 0 on a run without calls would have to name
 * the missing tools, so those have no answer. */
static json_t *appr_answer(void *st, double score, const char *reason, const struct verdict *machine,
                           struct error *err)
{
	struct appr *a = st;
	json_t *mine = machine ? json_object_get(machine->details, "analyzeStepResult") : NULL;
	struct error bad = {0};
	if (mine && machine->score == score && analysis_check(mine, &bad) == 0)
		return json_deep_copy(mine);
	size_t n = json_array_size(a->view.actual_tools);
	if (score != 0 && score != 1) {
		error_set(err, ERR_FAILED, "a label of %g does not say which of the %zu calls were "
		          "appropriate", score, n);
		return NULL;
	}
	if (n == 0 && score == 0) {
		error_set(err, ERR_FAILED, "a label of 0 on a run without calls would have to name the "
		          "missing tools");
		return NULL;
	}
	json_t *o = appr_uniform(a, score == 1, reason);
	if (!o)
		error_set(err, ERR_FAILED, "the reason is not valid UTF-8");
	return o;
}

/* Each call's rating and the tools found missing, from the analysis the
 * judge wrote (analyzeStepResult; a bare analysis is read as well). */
static void appr_explain(const json_t *d, struct strbuf *out)
{
	json_t *an = json_object_get(d, "analyzeStepResult");
	const json_t *analysis = an ? an : d;
	json_t *evals = json_object_get(analysis, "evaluations");
	size_t i;
	json_t *ev;
	json_array_foreach(evals, i, ev) {
		json_t *ok = json_object_get(ev, "wasAppropriate");
		const char *tool = json_string_value(json_object_get(ev, "toolCalled"));
		const char *why = json_string_value(json_object_get(ev, "reasoning"));
		strbuf_addf(out, "%s %s: %s\n", json_is_true(ok) ? "\xe2\x9c\x93" : "\xe2\x9c\x97",
		            tool ? tool : "?", why ? why : "");
	}
	json_t *missing = json_object_get(analysis, "missingTools");
	if (json_is_array(missing) && json_array_size(missing)) {
		strbuf_addstr(out, "missing tools: ");
		json_array_foreach(missing, i, ev) {
			if (i)
				strbuf_addstr(out, ", ");
			strbuf_addstr(out, json_is_string(ev) ? json_string_value(ev) : "?");
		}
		strbuf_addch(out, '\n');
	}
}

static const char *const appr_sections[] = { "analyse", "reason", NULL };
static const char *const appr_vars[] = { "score", "evaluations", "missing_tools", NULL };

const struct rubric_ops rubric_appropriateness = {
	.name = "tool-appropriateness",
	.summary = "were the tools called the right ones for the request (0..1, Mastra's LLM tool-call accuracy)",
	.scale = SCALE_UNIT,
	.default_threshold = 0.5,
	.prompt_file = "tool-appropriateness.txt",
	.start = appr_start,
	.prompt = appr_prompt,
	.absorb = appr_absorb,
	.finish = appr_finish,
	.free = appr_free,
	.answer = appr_answer,
	.sections = appr_sections,
	.vars = appr_vars,
	.reason_key = "reason",
	.explain = appr_explain,
};
