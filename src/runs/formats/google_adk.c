/* google_adk.c - Google ADK: session dumps, EvalSets and the legacy eval list.
 *
 * A session is {id, app_name, user_id, state, events: [{author, content:
 * {role, parts}, actions, ...}]}; an EvalSet {eval_set_id, eval_cases:
 * [{eval_id, conversation: [invocation]}]}, each invocation {user_content,
 * final_response, intermediate_data: {tool_uses, tool_responses,
 * intermediate_responses} or {invocation_events}}; the legacy eval file
 * (before EvalSets) a list of turns {query, expected_tool_use: [{tool_name,
 * tool_input}], reference}. ADK writes pydantic models, so a key may come
 * snake_case or, with its alias, camelCase, and every genai Part field is
 * written out, mostly null: a null member is an absent one ("function_call":
 * null is no call).
 *
 * `split` makes each eval case a run; a session or a legacy list is one run
 * (ADK's AgentEvaluator makes one eval case of a whole legacy file). An
 * EvalSet that reaches the loader whole (a JSONL line) is read as one run,
 * its cases one after another behind a note naming each.
 *
 * In both eval files the calls (tool_uses, expected_tool_use) are the
 * trajectory the case records for the agent's turn, the one ADK's own
 * evaluators score the agent against; they are read as the run's calls so
 * that the case can be reviewed and scored like any run. tool_uses ids are
 * often all null: calls are never merged by name, and a response with no
 * id answers the nearest earlier unanswered call of its name, the first
 * one first (by position). */
#include <stdio.h>
#include <string.h>

#include "runs/format.h"
#include "runs/loader.h"
#include "util/error.h"

struct adk_ctx {
	struct htab seen;           /* call ids read: a call shown twice counts once */
};

/* ---- keys, either spelling ------------------------------------------------ */

/* obj[snake], else obj[camel]; a null member counts as absent. */
static jv adk_get(const struct jdoc *d, jv obj, const char *snake, const char *camel)
{
	jv v = jv_get(d, obj, snake);
	if (v == JV_NONE && camel)
		v = jv_get(d, obj, camel);
	return jv_is_null(d, v) ? JV_NONE : v;
}

/* ---- detection and splitting ----------------------------------------------- */

static bool adk_is_evalset(const struct jdoc *d, jv rec)
{
	return jv_is_object(d, rec) && jv_is_array(d, adk_get(d, rec, "eval_cases", "evalCases")) &&
	       adk_get(d, rec, "eval_set_id", "evalSetId") != JV_NONE;
}

static bool adk_is_case(const struct jdoc *d, jv rec)
{
	return jv_is_object(d, rec) && adk_get(d, rec, "eval_id", "evalId") != JV_NONE &&
	       (jv_is_array(d, adk_get(d, rec, "conversation", NULL)) ||
	        jv_is_object(d, adk_get(d, rec, "conversation_scenario", "conversationScenario")));
}

static bool adk_is_session(const struct jdoc *d, jv rec)
{
	return jv_is_object(d, rec) && jv_is_array(d, jv_get(d, rec, "events")) &&
	       adk_get(d, rec, "app_name", "appName") != JV_NONE &&
	       adk_get(d, rec, "user_id", "userId") != JV_NONE;
}

/* A legacy eval file: a list of turns, the first {query, expected_tool_use}. */
static bool adk_is_legacy(const struct jdoc *d, jv rec)
{
	jv first = jv_first(d, rec);
	return jv_is_array(d, rec) && jv_is_object(d, first) &&
	       jv_get(d, first, "query") != JV_NONE && jv_get(d, first, "expected_tool_use") != JV_NONE;
}

static int adk_detect(const struct jdoc *d, jv rec)
{
	if (adk_is_evalset(d, rec))
		return 90;
	if (adk_is_case(d, rec) || adk_is_session(d, rec) || adk_is_legacy(d, rec))
		return 85;
	return 0;
}

/* One run per eval case; anything else is one run. */
static void adk_split(const struct jdoc *d, jv root, struct doc_groups *out)
{
	if (!adk_is_evalset(d, root)) {
		doc_group_begin(out);
		doc_group_add(out, root);
		return;
	}
	JV_EACH(d, adk_get(d, root, "eval_cases", "evalCases"), c) {
		doc_group_begin(out);
		doc_group_add(out, c);
	}
}

/* ---- parts ------------------------------------------------------------------- */

struct adk_part {
	jv text, thought, call, response, code, code_result, data;
	bool other;                 /* a non-null member this loader does not read */
};

static void adk_part_fields(const struct jdoc *d, jv p, struct adk_part *f)
{
	f->text = adk_get(d, p, "text", NULL);
	f->thought = adk_get(d, p, "thought", NULL);
	f->call = adk_get(d, p, "function_call", "functionCall");
	f->response = adk_get(d, p, "function_response", "functionResponse");
	f->code = adk_get(d, p, "executable_code", "executableCode");
	f->code_result = adk_get(d, p, "code_execution_result", "codeExecutionResult");
	f->data = adk_get(d, p, "inline_data", "inlineData");
	if (f->data == JV_NONE)
		f->data = adk_get(d, p, "file_data", "fileData");
	f->other = false;
	static const char *const quiet[] = { "text", "thought", "function_call", "functionCall",
		"function_response", "functionResponse", "executable_code", "executableCode",
		"code_execution_result", "codeExecutionResult", "inline_data", "inlineData",
		"file_data", "fileData", "thought_signature", "thoughtSignature",
		"video_metadata", "videoMetadata", NULL };
	JV_EACH_KEY(d, p, k) {
		bool known = false;
		for (size_t i = 0; quiet[i] && !known; i++)
			known = jv_streq(d, k, quiet[i]);
		if (!known && !jv_is_null(d, jv_value(k)))
			f->other = true;
	}
}

/* A FunctionCall or FunctionResponse at path: an object whose name and id
 * are strings or absent, a call's args an object or absent. */
static int adk_check_fn(const struct run *r, jv fn, bool is_call, const char *path, struct error *err)
{
	const struct jdoc *d = r->doc;
	if (!jv_is_object(d, fn)) {
		error_at(err, ERR_FAILED, "%s: not an object", path);
		return -1;
	}
	jv name, id;
	if (loader_opt_string(r, fn, "name", path, &name, err) < 0 ||
	    loader_opt_string(r, fn, "id", path, &id, err) < 0)
		return -1;
	jv args = adk_get(d, fn, "args", NULL);
	if (is_call && args != JV_NONE && !jv_is_object(d, args)) {
		error_at(err, ERR_FAILED, "%s.args: not an object", path);
		return -1;
	}
	return 0;
}

/* Checks every part of a list at path ("conversation[0].user_content")
 * before anything is added. */
static int adk_check_parts(const struct run *r, jv parts, const char *path, struct error *err)
{
	const struct jdoc *d = r->doc;
	size_t k = 0;
	JV_EACH(d, parts, p) {
		char ppath[224], fpath[256];
		snprintf(ppath, sizeof(ppath), "%s.parts[%zu]", path, k++);
		if (!jv_is_object(d, p)) {
			error_at(err, ERR_FAILED, "%s: not an object", ppath);
			return -1;
		}
		struct adk_part f;
		adk_part_fields(d, p, &f);
		if (f.text != JV_NONE && !jv_is_string(d, f.text)) {
			error_at(err, ERR_FAILED, "%s.text: not a string", ppath);
			return -1;
		}
		if (f.call != JV_NONE || f.response != JV_NONE) {
			bool is_call = f.call != JV_NONE;
			snprintf(fpath, sizeof(fpath), "%s.%s", ppath,
			         is_call ? "function_call" : "function_response");
			if (adk_check_fn(r, is_call ? f.call : f.response, is_call, fpath, err) < 0)
				return -1;
		}
	}
	return 0;
}

/* A call from a FunctionCall object, in message mi, unless its id was
 * read before (ids null in eval files never are). */
static void adk_add_call(struct run *r, size_t mi, jv fc, long src, struct adk_ctx *ctx)
{
	const struct jdoc *d = r->doc;
	if (loader_seen(&ctx->seen, loader_id(r, jv_get(d, fc, "id"))))
		return;
	struct run_call *c = loader_add_call(r, mi, jv_get(d, fc, "id"), jv_get(d, fc, "name"),
	                                     adk_get(d, fc, "args", NULL), src);
	c->id = loader_id(r, c->raw_id);
}

/* A FunctionResponse as a tool message of its own; an "error" member in
 * the response is a failed call, by Gemini's convention. */
static void adk_add_response(struct run *r, jv fr, long src)
{
	const struct jdoc *d = r->doc;
	jv response = adk_get(d, fr, "response", NULL);
	size_t mi = run_add_msg(r, ROLE_TOOL, MSG_IN_OUTPUT, "", fr);
	r->msgs[mi].src_index = src;
	struct run_msg *m = loader_tool_output(r, mi, loader_id(r, jv_get(d, fr, "id")), response);
	jv error = adk_get(d, response, "error", NULL);
	if (error != JV_NONE)
		loader_mark_failed(m, jv_str(d, error) ? jv_str(d, error)
		                                      : loader_str(r, jv_get(d, error, "message"), NULL));
}

/* One part into message mi, in the record's order; a part of nothing but
 * nulls says nothing and is skipped. */
static void adk_add_part(struct run *r, size_t mi, jv p, long src, struct adk_ctx *ctx)
{
	const struct jdoc *d = r->doc;
	struct adk_part f;
	adk_part_fields(d, p, &f);
	if (f.response != JV_NONE)
		return;                 /* a tool message of its own, added before */
	if (jv_is_string(d, f.text) && jv_type(d, f.thought) == JV_TRUE)
		run_add_thinking(r, mi, jv_str(d, f.text), p);
	else if (jv_is_string(d, f.text))
		run_add_text(r, mi, jv_str(d, f.text), p);
	else if (f.call != JV_NONE)
		adk_add_call(r, mi, f.call, src, ctx);
	else if (f.code != JV_NONE) {
		/* the hosted code executor: a call whose input is the code */
		struct run_call *c = loader_add_call(r, mi, JV_NONE, JV_NONE, f.code, src);
		c->name = "code_execution";
	} else if (f.code_result != JV_NONE) {
		struct run_msg *m = &r->msgs[mi];
		struct run_call *c = m->ncalls ? &r->calls[m->first_call + m->ncalls - 1] : NULL;
		const char *outcome = loader_str(r, jv_get(d, f.code_result, "outcome"), "OUTCOME_OK");
		if (c && !c->has_result && !strcmp(c->name, "code_execution"))
			run_set_result(c, f.code_result, strcmp(outcome, "OUTCOME_OK") != 0,
			               strcmp(outcome, "OUTCOME_OK") ? outcome : NULL, -1);
		else
			run_add_note(r, mi, p, "code execution result with no code run before it");
	} else if (f.data != JV_NONE) {
		run_add_note(r, mi, p, "data %s",
		             loader_str(r, adk_get(d, f.data, "mime_type", "mimeType"), ""));
	} else if (f.other) {
		run_add_note(r, mi, p, "a part with no text, call or data (not read)");
	}
}

/* Whether a part is more than a function response or nulls. */
static bool adk_part_says(const struct jdoc *d, jv p)
{
	struct adk_part f;
	adk_part_fields(d, p, &f);
	return f.response == JV_NONE &&
	       (f.text != JV_NONE || f.call != JV_NONE || f.code != JV_NONE ||
	        f.code_result != JV_NONE || f.data != JV_NONE || f.other);
}

/* A genai Content (or a bare parts list) at path as role: its function
 * responses as tool messages, then its other parts as one message, which
 * is left out when it would hold nothing. */
static int adk_content(struct run *r, jv content, jv parts, enum run_role role,
                       struct adk_ctx *ctx, const char *path, long src, struct error *err)
{
	const struct jdoc *d = r->doc;
	if (parts == JV_NONE && !jv_is_object(d, content)) {
		error_at(err, ERR_FAILED, "%s: not an object", path);
		return -1;
	}
	if (parts == JV_NONE &&
	    loader_opt_array(r, content, "parts", path, "not an array", &parts, err) < 0)
		return -1;
	if (adk_check_parts(r, parts, path, err) < 0)
		return -1;
	JV_EACH(d, parts, p) {
		jv fr = adk_get(d, p, "function_response", "functionResponse");
		if (fr != JV_NONE)
			adk_add_response(r, fr, src);
	}
	size_t says = 0;
	JV_EACH(d, parts, p)
		says += adk_part_says(d, p);
	if (!says)
		return 0;
	size_t mi = run_add_msg(r, role, MSG_IN_OUTPUT, NULL, content != JV_NONE ? content : parts);
	r->msgs[mi].src_index = src;
	JV_EACH(d, parts, p)
		adk_add_part(r, mi, p, src, ctx);
	return 0;
}

/* A content's role: "user" is the human, anything else ("model", an
 * agent's name as the author) the agent. */
static enum run_role adk_role(const struct jdoc *d, jv content, jv author)
{
	jv role = adk_get(d, content, "role", NULL);
	if (jv_is_string(d, role))
		return jv_streq(d, role, "user") ? ROLE_USER : ROLE_ASSISTANT;
	return jv_streq(d, author, "user") ? ROLE_USER : ROLE_ASSISTANT;
}

/* ---- sessions and invocation events -------------------------------------- */

static int adk_event(struct run *r, jv ev, const char *path, size_t i, void *ctx, struct error *err)
{
	const struct jdoc *d = r->doc;
	jv author;
	if (loader_opt_string(r, ev, "author", path, &author, err) < 0)
		return -1;
	jv content = adk_get(d, ev, "content", NULL);
	jv error = adk_get(d, ev, "error_message", "errorMessage");
	if (content == JV_NONE) {
		if (error != JV_NONE)
			run_add_note_msg(r, MSG_IN_OUTPUT, ev, "error: %s", loader_str(r, error, "?"));
		return 0;               /* actions alone (state, artifacts) hold no message */
	}
	char cpath[192];
	snprintf(cpath, sizeof(cpath), "%s.content", path);
	return adk_content(r, content, JV_NONE, adk_role(d, content, author), ctx, cpath,
	                   (long)i, err);
}

/* ---- eval cases ---------------------------------------------------------------- */

/* intermediate_responses: [[author, [parts]]], what sub-agents said. */
static int adk_said(struct run *r, jv said, const char *path, size_t i, struct adk_ctx *ctx,
                    struct error *err)
{
	const struct jdoc *d = r->doc;
	size_t k = 0;
	JV_EACH(d, said, pair) {
		char ppath[224];
		snprintf(ppath, sizeof(ppath), "%s.intermediate_responses[%zu]", path, k++);
		jv parts = jv_at(d, pair, 1);
		if (!jv_is_array(d, pair) || !jv_is_array(d, parts)) {
			error_at(err, ERR_FAILED, "%s: not an [author, parts] pair", ppath);
			return -1;
		}
		if (adk_content(r, JV_NONE, parts, ROLE_ASSISTANT, ctx, ppath, (long)i, err) < 0)
			return -1;
	}
	return 0;
}

/* tool_uses as one agent message of calls, tool_responses as tool messages. */
static int adk_tools(struct run *r, jv data, const char *path, size_t i, struct adk_ctx *ctx,
                     struct error *err)
{
	const struct jdoc *d = r->doc;
	jv uses, resps;
	char upath[224];
	if (loader_opt_array(r, data, "tool_uses", path, "not an array", &uses, err) < 0 ||
	    loader_opt_array(r, data, "tool_responses", path, "not an array", &resps, err) < 0)
		return -1;
	size_t k = 0;
	JV_EACH(d, uses, u) {
		snprintf(upath, sizeof(upath), "%s.tool_uses[%zu]", path, k++);
		if (adk_check_fn(r, u, true, upath, err) < 0)
			return -1;
	}
	k = 0;
	JV_EACH(d, resps, u) {
		snprintf(upath, sizeof(upath), "%s.tool_responses[%zu]", path, k++);
		if (adk_check_fn(r, u, false, upath, err) < 0)
			return -1;
	}
	if (jv_len(d, uses)) {
		size_t mi = run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, NULL, uses);
		r->msgs[mi].src_index = (long)i;
		JV_EACH(d, uses, u)
			adk_add_call(r, mi, u, (long)i, ctx);
	}
	JV_EACH(d, resps, u)
		adk_add_response(r, u, (long)i);
	return 0;
}

static int adk_intermediate(struct run *r, jv data, const char *path, size_t i,
                            struct adk_ctx *ctx, struct error *err)
{
	const struct jdoc *d = r->doc;
	if (!jv_is_object(d, data)) {
		error_at(err, ERR_FAILED, "%s: not an object", path);
		return -1;
	}
	jv events = adk_get(d, data, "invocation_events", "invocationEvents");
	char epath[224];
	if (events != JV_NONE) {
		snprintf(epath, sizeof(epath), "%s.invocation_events", path);
		return loader_each(r, events, epath, adk_event, ctx, err) < 0 ? -1 : 0;
	}
	jv said = adk_get(d, data, "intermediate_responses", "intermediateResponses");
	if (said != JV_NONE && !jv_is_array(d, said)) {
		error_at(err, ERR_FAILED, "%s.intermediate_responses: not an array", path);
		return -1;
	}
	if (adk_said(r, said, path, i, ctx, err) < 0)
		return -1;
	return adk_tools(r, data, path, i, ctx, err);
}

/* One invocation: the user's content, what happened in between, the answer. */
static int adk_invocation(struct run *r, jv inv, const char *path, size_t i, void *ctx, struct error *err)
{
	const struct jdoc *d = r->doc;
	char fpath[192];
	jv user = adk_get(d, inv, "user_content", "userContent");
	if (user != JV_NONE) {
		snprintf(fpath, sizeof(fpath), "%s.user_content", path);
		if (adk_content(r, user, JV_NONE, ROLE_USER, ctx, fpath, (long)i, err) < 0)
			return -1;
	}
	jv data = adk_get(d, inv, "intermediate_data", "intermediateData");
	snprintf(fpath, sizeof(fpath), "%s.intermediate_data", path);
	if (data != JV_NONE && adk_intermediate(r, data, fpath, i, ctx, err) < 0)
		return -1;
	jv answer = adk_get(d, inv, "final_response", "finalResponse");
	snprintf(fpath, sizeof(fpath), "%s.final_response", path);
	if (answer != JV_NONE &&
	    adk_content(r, answer, JV_NONE, ROLE_ASSISTANT, ctx, fpath, (long)i, err) < 0)
		return -1;
	return 0;
}

static int adk_case(struct run *r, jv c, const char *path, struct adk_ctx *ctx, struct error *err)
{
	char cpath[160];
	snprintf(cpath, sizeof(cpath), "%s%sconversation", path, path[0] ? "." : "");
	jv conv = adk_get(r->doc, c, "conversation", NULL);
	if (conv != JV_NONE && !jv_is_array(r->doc, conv)) {
		error_at(err, ERR_FAILED, "%s: not an array", cpath);
		return -1;
	}
	/* a case the user simulator plays from a scenario holds no turns yet */
	if (conv == JV_NONE)
		run_add_note_msg(r, MSG_IN_OUTPUT, c, "eval case with no conversation%s",
		                 adk_get(r->doc, c, "conversation_scenario", "conversationScenario")
		                 != JV_NONE ? " (a conversation_scenario, not read)" : "");
	return loader_each(r, conv, cpath, adk_invocation, ctx, err) < 0 ? -1 : 0;
}

static int adk_set_case(struct run *r, jv c, const char *path, size_t i, void *ctx, struct error *err)
{
	(void)i;
	run_add_note_msg(r, MSG_IN_OUTPUT, c, "eval case %s",
	                 loader_str(r, adk_get(r->doc, c, "eval_id", "evalId"), "?"));
	return adk_case(r, c, path, ctx, err);
}

/* ---- the legacy list ------------------------------------------------------------ */

static int adk_legacy_turn(struct run *r, jv t, const char *path, size_t i, void *ctx, struct error *err)
{
	(void)ctx;
	const struct jdoc *d = r->doc;
	jv query, reference, uses;
	if (loader_opt_string(r, t, "query", path, &query, err) < 0 ||
	    loader_opt_string(r, t, "reference", path, &reference, err) < 0 ||
	    loader_opt_array(r, t, "expected_tool_use", path, "not an array", &uses, err) < 0)
		return -1;
	size_t k = 0;
	JV_EACH(d, uses, u) {
		char upath[224];
		snprintf(upath, sizeof(upath), "%s.expected_tool_use[%zu]", path, k++);
		jv name, input = jv_get(d, u, "tool_input");
		if (!jv_is_object(d, u)) {
			error_at(err, ERR_FAILED, "%s: not an object", upath);
			return -1;
		}
		if (loader_opt_string(r, u, "tool_name", upath, &name, err) < 0)
			return -1;
		if (input != JV_NONE && !jv_is_null(d, input) && !jv_is_object(d, input)) {
			error_at(err, ERR_FAILED, "%s.tool_input: not an object", upath);
			return -1;
		}
	}
	size_t mi;
	if (query != JV_NONE) {
		mi = run_add_msg(r, ROLE_USER, MSG_IN_OUTPUT, jv_str(d, query), t);
		r->msgs[mi].src_index = (long)i;
	}
	if (jv_len(d, uses)) {
		mi = run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, NULL, uses);
		r->msgs[mi].src_index = (long)i;
		JV_EACH(d, uses, u)
			loader_add_call(r, mi, JV_NONE, jv_get(d, u, "tool_name"),
			                jv_get(d, u, "tool_input"), (long)i);
	}
	if (reference != JV_NONE) {
		mi = run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, jv_str(d, reference), t);
		r->msgs[mi].src_index = (long)i;
	}
	return 0;
}

/* ---- results by position, and the load ------------------------------------------ */

/* A response names its tool by "name". */
static const char *adk_result_name(const struct run *r, const struct run_msg *m)
{
	return jv_str(r->doc, jv_get(r->doc, m->raw, "name"));
}

static int adk_load_record(struct run *r, jv rec, struct adk_ctx *ctx, struct error *err)
{
	const struct jdoc *d = r->doc;
	if (adk_is_legacy(d, rec))
		return loader_each(r, rec, "", adk_legacy_turn, NULL, err);
	if (!jv_is_object(d, rec)) {
		error_at(err, ERR_FAILED, "a google-adk record must be an object or a list of turns");
		return -1;
	}
	if (adk_is_evalset(d, rec)) {
		r->id = loader_str(r, adk_get(d, rec, "eval_set_id", "evalSetId"), r->id);
		return loader_each(r, adk_get(d, rec, "eval_cases", "evalCases"), "eval_cases",
		                   adk_set_case, ctx, err);
	}
	if (adk_get(d, rec, "conversation", NULL) != JV_NONE ||
	    adk_get(d, rec, "eval_id", "evalId") != JV_NONE) {
		r->id = loader_str(r, adk_get(d, rec, "eval_id", "evalId"), r->id);
		return adk_case(r, rec, "", ctx, err);
	}
	jv events;
	if (loader_array(r, rec, "events", &events, err) < 0)
		return -1;
	r->id = loader_str(r, jv_get(d, rec, "id"), r->id);
	return loader_each(r, events, "events", adk_event, ctx, err);
}

static int adk_load(struct run *r, struct error *err)
{
	struct adk_ctx ctx = { HTAB_INIT };
	int rc = adk_load_record(r, run_root(r), &ctx, err);
	htab_free(&ctx.seen);
	if (rc < 0)
		return -1;
	run_join_results(r);
	loader_join_by_name(r, adk_result_name);
	return 0;
}

const struct format_ops format_google_adk = {
	.name = "google-adk",
	.summary = "Google ADK session {events} or EvalSet {eval_cases} (each case a run), "
	           "legacy eval list",
	.detect = adk_detect,
	.split = adk_split,
	.load = adk_load,
};
