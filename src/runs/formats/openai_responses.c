/* openai_responses.c - OpenAI Responses API items: a bare array of items,
 * or {input: [...]} and/or {output: [...]} (a Response object, or a
 * request with its response), input items first.
 *
 * Every item becomes one message, so a message's raw value is exactly one
 * item of the record: a call item is an assistant message holding one call
 * (parallel calls are consecutive such messages), an output item is a tool
 * message. Items that are neither text nor calls (reasoning, MCP tool
 * lists, approvals) become assistant messages with no text: visible in the
 * timeline, never read by scorers.
 *
 * A call's link key is call_id, not the item's own id. Output items have no
 * error flag; as in Chat Completions, an output whose text starts with
 * "Error:" marks its call failed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runs/format.h"
#include "runs/loader.h"

/* Item types that say "this is a Responses list". */
static const char *const resp_known_types[] = {
	"message", "function_call", "function_call_output",
	"custom_tool_call", "custom_tool_call_output", "mcp_call", "mcp_list_tools",
	"mcp_approval_request", "mcp_approval_response", "reasoning",
	"web_search_call", "file_search_call", "code_interpreter_call", "computer_call",
	"computer_call_output", "image_generation_call", "local_shell_call",
	"local_shell_call_output", "item_reference",
	NULL,
};

/* Calls the client runs and answers with a separate *_output item; every
 * other *_call item runs on OpenAI's side and carries its own outcome. */
static const char *const resp_client_calls[] = {
	"function_call", "custom_tool_call", "computer_call", "local_shell_call",
	"shell_call", "apply_patch_call",
	NULL,
};

static bool resp_in(const char *s, const char *const *list)
{
	for (size_t i = 0; s && list[i]; i++)
		if (!strcmp(s, list[i]))
			return true;
	return false;
}

/* 2 = a list with known item types, 1 = role/content messages only,
 * 0 = not Responses items (chat, Mastra or AI SDK messages). */
static int resp_score_items(json_t *list)
{
	size_t i;
	json_t *it;
	int score = 0;
	if (!json_is_array(list))
		return 0;
	json_array_foreach(list, i, it) {
		if (!json_is_object(it))
			return 0;
		if (json_object_get(it, "tool_calls") || json_object_get(it, "tool_call_id") ||
		    json_object_get(it, "parts") || json_object_get(it, "toolInvocations") ||
		    json_is_object(json_object_get(it, "content")))
			return 0;
		const char *ty = loader_str(json_object_get(it, "type"), NULL);
		if (resp_in(ty, resp_known_types))
			score = 2;
		else if (ty)
			continue;       /* an item type newer than this list */
		else if (!json_is_string(json_object_get(it, "role")))
			return 0;
		else if (score < 1)
			score = 1;
	}
	return score;
}

static int resp_detect(json_t *rec)
{
	if (json_is_array(rec))
		return resp_score_items(rec) == 2 ? 50 : 0;
	if (!json_is_object(rec))
		return 0;
	if (json_object_get(rec, "inputMessages") || json_object_get(rec, "messages") ||
	    json_object_get(rec, "traj") || json_object_get(rec, "reward_info") ||
	    (json_object_get(rec, "query") && json_object_get(rec, "response")))
		return 0;
	json_t *in = json_object_get(rec, "input");
	json_t *out = json_object_get(rec, "output");
	int si = resp_score_items(in), so = resp_score_items(out);
	if ((in && json_is_array(in) && si == 0) || (out && json_is_array(out) && so == 0))
		return 0;
	if (si == 2 || so == 2)
		return 50;
	/* {input: [{role, content}]} is a Responses request; no other
	 * format keeps its conversation under "input". */
	if (si == 1)
		return 30;
	return 0;
}

/* Text of a message's or an output's content: a string, or a list of
 * input_text / output_text parts (refusals count: they are the answer). */
static const char *resp_text(struct run *r, json_t *content)
{
	const char *text = run_text_of(r, content);
	size_t i;
	json_t *part;
	if (text[0] || !json_is_array(content))
		return text;
	json_array_foreach(content, i, part)
		if (!strcmp(loader_str(json_object_get(part, "type"), ""), "refusal"))
			return loader_str(json_object_get(part, "refusal"), "");
	return "";
}

static int resp_message(struct run *r, json_t *it, const char *path, size_t src,
                        char *err, size_t errlen)
{
	enum run_role role;
	json_t *content;
	if (loader_role(it, path, ROLE_ERRORS_SPLIT, &role, err, errlen) < 0 ||
	    loader_content(it, path, &content, err, errlen) < 0)
		return -1;
	size_t mi = run_add_msg(r, role, MSG_IN_OUTPUT, resp_text(r, content), it);
	r->msgs[mi].src_index = (long)src;
	return 0;
}

static struct run_call *resp_add_call(struct run *r, json_t *it, size_t src, const char *name,
                                      json_t *raw_id)
{
	size_t mi = run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, "", it);
	r->msgs[mi].src_index = (long)src;
	struct run_call *c = run_add_call(r, mi);
	c->raw_id = raw_id;
	c->id = loader_id(r, raw_id);
	c->name = name;
	c->src_msg_index = (long)src;
	c->raw_state = loader_str(json_object_get(it, "status"), NULL);
	return c;
}

/* A call item's status says how far the model got writing the call, not
 * whether the tool ran: only "incomplete" (cut off) changes the state. */
static void resp_state_from_status(struct run_call *c)
{
	if (c->raw_state && !strcmp(c->raw_state, "incomplete"))
		c->state = CALL_PARTIAL;
}

static void resp_client_call(struct run *r, json_t *it, const char *ty, size_t src)
{
	json_t *raw_name = json_object_get(it, "name");
	const char *name = loader_str(raw_name, "");
	if (strcmp(ty, "function_call") != 0 && strcmp(ty, "custom_tool_call") != 0)
		name = ty;      /* built-ins have no name but their type */
	struct run_call *c = resp_add_call(r, it, src, name, json_object_get(it, "call_id"));
	c->raw_name = raw_name;
	if (!strcmp(ty, "function_call")) {
		run_call_set_args(r, c, json_object_get(it, "arguments"));
	} else {
		/* Custom tools take free text and built-ins an action object:
		 * neither is a JSON string to parse. */
		json_t *a = json_object_get(it, "input");
		if (!a)
			a = json_object_get(it, "action");
		if (a)
			c->args = json_incref(a);
	}
	resp_state_from_status(c);
}

static const char *resp_error_text(struct run *r, json_t *e)
{
	if (json_is_string(e))
		return json_string_value(e);
	if (json_is_object(e) && json_is_string(json_object_get(e, "message")))
		return json_string_value(json_object_get(e, "message"));
	char *s = json_dumps(e, JSON_ENCODE_ANY | JSON_COMPACT);
	const char *out = run_strdup(r, s ? s : "error");
	free(s);
	return out;
}

/* mcp_call and the hosted tools (web_search_call, file_search_call, ...)
 * run on OpenAI's side: call and outcome are one item. */
static void resp_server_call(struct run *r, json_t *it, const char *ty, size_t src)
{
	bool mcp = !strcmp(ty, "mcp_call");
	json_t *raw_name = mcp ? json_object_get(it, "name") : NULL;
	json_t *raw_id = json_object_get(it, "call_id");
	if (!raw_id)
		raw_id = json_object_get(it, "id");
	struct run_call *c = resp_add_call(r, it, src, mcp ? loader_str(raw_name, "") : ty, raw_id);
	c->raw_name = raw_name;
	if (json_object_get(it, "arguments")) {
		run_call_set_args(r, c, json_object_get(it, "arguments"));
	} else {
		static const char *const arg_keys[] = { "action", "queries", "code", "input", NULL };
		for (size_t k = 0; arg_keys[k]; k++) {
			json_t *a = json_object_get(it, arg_keys[k]);
			if (a) {
				c->args = json_incref(a);
				break;
			}
		}
	}
	json_t *result = NULL;
	static const char *const result_keys[] = { "output", "results", "outputs", "result", NULL };
	for (size_t k = 0; result_keys[k] && !result; k++)
		result = json_object_get(it, result_keys[k]);
	json_t *error = json_object_get(it, "error");
	const char *st = c->raw_state ? c->raw_state : "completed";
	if (error && !json_is_null(error))
		run_set_result(c, result, true, resp_error_text(r, error), -1);
	else if (!strcmp(st, "failed"))
		run_set_result(c, result, true, "failed", -1);
	else if (!strcmp(st, "incomplete"))
		c->state = CALL_PARTIAL;
	else if (!strcmp(st, "completed"))
		run_set_result(c, result, false, NULL, -1);
	/* in_progress, searching, interpreting, ...: still requested. */
}

static void resp_output(struct run *r, json_t *it, size_t src)
{
	json_t *output = json_object_get(it, "output");
	const char *text = resp_text(r, output);
	size_t mi = run_add_msg(r, ROLE_TOOL, MSG_IN_OUTPUT, text, it);
	r->msgs[mi].src_index = (long)src;
	const char *id = loader_id(r, json_object_get(it, "call_id"));
	struct run_msg *m = loader_tool_output(r, mi, id, output);
	if (loader_is_error_text(text, LOADER_ERROR_PREFIX))
		loader_mark_failed(m, text);
}

static int resp_item(struct run *r, json_t *it, const char *path, size_t i, void *ctx,
                     char *err, size_t errlen)
{
	json_t *type = json_object_get(it, "type");
	if (type && !json_is_string(type)) {
		snprintf(err, errlen, "%s.type: not a string", path);
		return -1;
	}
	const char *ty = json_string_value(type);
	if (!ty || !strcmp(ty, "message")) {
		if (!ty && !json_object_get(it, "role")) {
			snprintf(err, errlen, "%s.type: missing", path);
			return -1;
		}
		return resp_message(r, it, path, i, err, errlen);
	}
	if (resp_in(ty, resp_client_calls))
		resp_client_call(r, it, ty, i);
	else if (loader_ends_with(ty, "_call"))
		resp_server_call(r, it, ty, i);
	else if (loader_ends_with(ty, "_call_output"))
		resp_output(r, it, i);
	else {
		/* reasoning, mcp_list_tools, approvals, item references and
		 * types newer than this loader. */
		enum run_role role = !strcmp(ty, "mcp_approval_response") ? ROLE_USER : ROLE_ASSISTANT;
		size_t mi = run_add_msg(r, role, MSG_IN_OUTPUT, "", it);
		r->msgs[mi].src_index = (long)i;
	}
	return 0;
}

/* input and output may also be a plain string: one user message (a
 * request's input) or one assistant message (a text-only output). */
static int resp_list(struct run *r, const char *key, enum run_role text_role,
                     enum msg_origin origin, char *err, size_t errlen)
{
	json_t *v = json_object_get(r->record, key);
	if (!v || json_is_null(v))
		return 0;
	size_t first = r->nmsgs;
	if (json_is_string(v)) {
		run_add_msg(r, text_role, MSG_IN_OUTPUT, json_string_value(v), v);
	} else if (!json_is_array(v)) {
		snprintf(err, errlen, "%s: not an array or a string", key);
		return -1;
	} else if (loader_each(r, v, key, resp_item, NULL, err, errlen) < 0) {
		return -1;
	}
	for (size_t i = first; i < r->nmsgs; i++)
		r->msgs[i].origin = origin;
	return 0;
}

static int resp_load(struct run *r, char *err, size_t errlen)
{
	json_t *rec = r->record;
	if (json_is_array(rec)) {
		if (loader_each(r, rec, "", resp_item, NULL, err, errlen) < 0)
			return -1;
		run_join_results(r);
		return 0;
	}
	if (!json_is_object(rec)) {
		snprintf(err, errlen, "an openai-responses record must be an array of items or an object");
		return -1;
	}
	if (!json_object_get(rec, "input") && !json_object_get(rec, "output")) {
		snprintf(err, errlen, "input, output: missing");
		return -1;
	}
	loader_tools(r, rec);
	r->model = loader_model(rec);
	/* With both lists, input is what was sent (context, as Azure's query
	 * and Mastra's inputMessages are) and output is the run being judged;
	 * input alone is a whole trajectory logged as one request. */
	json_t *out = json_object_get(rec, "output");
	enum msg_origin in_origin = out && !json_is_null(out) ? MSG_IN_INPUT : MSG_IN_OUTPUT;
	/* A Response object's instructions are its system prompt. */
	json_t *instr = json_object_get(rec, "instructions");
	if (json_is_string(instr) && json_string_length(instr))
		run_add_msg(r, ROLE_SYSTEM, in_origin, json_string_value(instr), instr);
	if (resp_list(r, "input", ROLE_USER, in_origin, err, errlen) < 0 ||
	    resp_list(r, "output", ROLE_ASSISTANT, MSG_IN_OUTPUT, err, errlen) < 0)
		return -1;
	run_join_results(r);
	return 0;
}

const struct format_ops format_openai_responses = {
	.name = "openai-responses",
	.summary = "OpenAI Responses API items: an array, or {input, output} lists",
	.detect = resp_detect,
	.load = resp_load,
};
