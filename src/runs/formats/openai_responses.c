/* openai_responses.c - OpenAI Responses API items: a bare array of items,
 * or {input: [...]} and/or {output: [...]} (a Response object, or a
 * request with its response), input items first.
 *
 * Every item becomes one message, so a message's raw value is exactly one
 * item of the record: a call item is an assistant message holding its call
 * (parallel calls are consecutive such messages), an output item is a tool
 * message. A reasoning item is an assistant message whose one part is the
 * thinking (its summary, else its content; empty when encrypted). Items
 * that are neither (MCP tool lists, tool searches, approvals, item
 * references) are assistant messages with a note saying what they were;
 * an item type this loader does not know is a note of its own. None of
 * them has text: scorers never read them.
 *
 * A call's link key is call_id, not the item's own id. A built-in call
 * (shell_call, local_shell_call, apply_patch_call, computer_call, hosted
 * tools) is named by its tool's type, the item type without "_call"
 * (web_search, code_interpreter), an MCP call by server_label.name; its
 * action / operation / code / queries is its arguments as a value. An
 * output item with status "failed" or an error marks its call failed; as
 * in Chat Completions, so does an output whose text starts with "Error:".
 * A "parallel" wrapper function_call (the model's multi_tool_use.parallel,
 * arguments {tool_uses: [{recipient_name: "functions.X", parameters}]})
 * is unwrapped into its inner calls, in one message, sharing its call_id. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runs/format.h"
#include "runs/loader.h"
#include "util/strbuf.h"
#include "openai_responses.h"
#include "util/error.h"

/* Item types that say "this is a Responses list". */
static const char *const resp_known_types[] = {
	"message", "function_call", "function_call_output",
	"custom_tool_call", "custom_tool_call_output", "mcp_call", "mcp_list_tools",
	"mcp_approval_request", "mcp_approval_response", "reasoning",
	"web_search_call", "file_search_call", "code_interpreter_call", "computer_call",
	"computer_call_output", "image_generation_call", "local_shell_call",
	"local_shell_call_output", "shell_call", "shell_call_output", "apply_patch_call",
	"apply_patch_call_output", "item_reference",
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

/* An item's members, read in one pass (a repeated key's last value wins,
 * as with jv_get). */
struct resp_fields {
	jv type, role, content, name, call_id, id, arguments, status, error;
	jv input, action, operation, queries, code; /* arguments other than "arguments" */
	jv output, results, outputs, result;    /* a call's or an output's outcome */
	jv server_label, summary, tools;        /* MCP, reasoning, tool lists */
	bool foreign;                           /* tool_calls, tool_call_id, parts, toolInvocations */
};

static void resp_fields(const struct jdoc *d, jv it, struct resp_fields *f)
{
	*f = (struct resp_fields){
		.type = JV_NONE, .role = JV_NONE, .content = JV_NONE, .name = JV_NONE,
		.call_id = JV_NONE, .id = JV_NONE, .arguments = JV_NONE, .status = JV_NONE,
		.error = JV_NONE, .input = JV_NONE, .action = JV_NONE, .operation = JV_NONE,
		.queries = JV_NONE,
		.code = JV_NONE, .output = JV_NONE, .results = JV_NONE, .outputs = JV_NONE,
		.result = JV_NONE, .server_label = JV_NONE, .summary = JV_NONE, .tools = JV_NONE,
	};
	JV_EACH_KEY(d, it, k) {
		jv v = jv_value(k);
		if (jv_streq(d, k, "type"))
			f->type = v;
		else if (jv_streq(d, k, "role"))
			f->role = v;
		else if (jv_streq(d, k, "content"))
			f->content = v;
		else if (jv_streq(d, k, "name"))
			f->name = v;
		else if (jv_streq(d, k, "call_id"))
			f->call_id = v;
		else if (jv_streq(d, k, "id"))
			f->id = v;
		else if (jv_streq(d, k, "arguments"))
			f->arguments = v;
		else if (jv_streq(d, k, "status"))
			f->status = v;
		else if (jv_streq(d, k, "error"))
			f->error = v;
		else if (jv_streq(d, k, "input"))
			f->input = v;
		else if (jv_streq(d, k, "action"))
			f->action = v;
		else if (jv_streq(d, k, "operation"))
			f->operation = v;
		else if (jv_streq(d, k, "queries"))
			f->queries = v;
		else if (jv_streq(d, k, "code"))
			f->code = v;
		else if (jv_streq(d, k, "output"))
			f->output = v;
		else if (jv_streq(d, k, "results"))
			f->results = v;
		else if (jv_streq(d, k, "outputs"))
			f->outputs = v;
		else if (jv_streq(d, k, "result"))
			f->result = v;
		else if (jv_streq(d, k, "server_label"))
			f->server_label = v;
		else if (jv_streq(d, k, "summary"))
			f->summary = v;
		else if (jv_streq(d, k, "tools"))
			f->tools = v;
		else if (jv_streq(d, k, "tool_calls") || jv_streq(d, k, "tool_call_id") ||
		         jv_streq(d, k, "parts") || jv_streq(d, k, "toolInvocations"))
			f->foreign = true;
	}
}

/* The first of values that is present (null counts), or JV_NONE. */
static jv resp_first(const jv *values, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (values[i] != JV_NONE)
			return values[i];
	return JV_NONE;
}

/* 2 = a list with known item types, 1 = role/content messages only,
 * 0 = not Responses items (chat, Mastra or AI SDK messages), -1 = an
 * empty list (a Response with no input says nothing either way). */
static int resp_score_items(const struct jdoc *d, jv list)
{
	int score = 0;
	if (!jv_is_array(d, list))
		return 0;
	if (jv_len(d, list) == 0)
		return -1;
	JV_EACH(d, list, it) {
		if (!jv_is_object(d, it))
			return 0;
		struct resp_fields f;
		resp_fields(d, it, &f);
		if (f.foreign || jv_is_object(d, f.content))
			return 0;
		const char *ty = jv_str(d, f.type);
		if (resp_in(ty, resp_known_types))
			score = 2;
		else if (ty)
			continue;       /* an item type newer than this list */
		else if (!jv_is_string(d, f.role))
			return 0;
		else if (score < 1)
			score = 1;
	}
	return score;
}

static int resp_detect(const struct jdoc *d, jv rec)
{
	if (jv_is_array(d, rec))
		return resp_score_items(d, rec) == 2 ? 50 : 0;
	if (!jv_is_object(d, rec))
		return 0;
	jv in = JV_NONE, out = JV_NONE;
	bool query = false, response = false;
	JV_EACH_KEY(d, rec, k) {
		if (jv_streq(d, k, "input"))
			in = jv_value(k);
		else if (jv_streq(d, k, "output"))
			out = jv_value(k);
		else if (jv_streq(d, k, "query"))
			query = true;
		else if (jv_streq(d, k, "response"))
			response = true;
		else if (jv_streq(d, k, "inputMessages") || jv_streq(d, k, "messages") ||
		         jv_streq(d, k, "traj") || jv_streq(d, k, "reward_info"))
			return 0;
	}
	if (query && response)
		return 0;
	int si = resp_score_items(d, in), so = resp_score_items(d, out);
	if ((jv_is_array(d, in) && si == 0) || (jv_is_array(d, out) && so == 0))
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
static const char *resp_text(struct run *r, jv content)
{
	const struct jdoc *d = r->doc;
	const char *text = run_text_of(r, content);
	if (text[0] || !jv_is_array(d, content))
		return text;
	JV_EACH(d, content, part)
		if (jv_streq(d, jv_get(d, part, "type"), "refusal"))
			return loader_str(r, jv_get(d, part, "refusal"), "");
	return "";
}

static int resp_message(struct run *r, jv it, const char *path, size_t src,
                        struct error *err)
{
	enum run_role role;
	jv content;
	if (loader_role(r, it, path, ROLE_ERRORS_SPLIT, &role, err) < 0 ||
	    loader_content(r, it, path, &content, err) < 0)
		return -1;
	size_t mi = run_add_msg(r, role, MSG_IN_OUTPUT, resp_text(r, content), it);
	r->msgs[mi].src_index = (long)src;
	return 0;
}

static struct run_call *resp_add_call(struct run *r, jv it, const struct resp_fields *f,
                                      size_t src, const char *name, jv raw_id)
{
	size_t mi = run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, "", it);
	r->msgs[mi].src_index = (long)src;
	struct run_call *c = run_add_call(r, mi);
	c->raw_id = raw_id;
	c->id = loader_id(r, raw_id);
	c->name = name;
	c->src_msg_index = (long)src;
	c->raw_state = loader_str(r, f->status, NULL);
	return c;
}

/* A call item's status says how far the model got writing the call, not
 * whether the tool ran: only "incomplete" (cut off) changes the state. */
static void resp_state_from_status(struct run_call *c)
{
	if (c->raw_state && !strcmp(c->raw_state, "incomplete"))
		c->state = CALL_PARTIAL;
}

/* Free text (a custom tool's input, code) and built-ins' action objects
 * are arguments as they are, not a JSON string to parse: the run keeps
 * them as values, and a string's tree is made here (one string; such
 * calls are rare) and marked known. */
static void resp_args_verbatim(struct run *r, struct run_call *c, jv a)
{
	c->args = a;
	if (jv_is_string(r->doc, a)) {
		c->args_tree = jv_to_json(r->doc, a);
		c->args_parsed = true;
	}
}

/* The model's multi_tool_use.parallel, written as one function_call
 * "parallel" whose arguments hold {tool_uses: [{recipient_name:
 * "functions.X", parameters}]}: its inner calls, in the one message of
 * the item, sharing its call_id (an output naming it answers the last).
 * Their arguments are trees of the parsed string (rare, small). false
 * when the arguments are not such a list: one call "parallel" then. */
static bool resp_parallel(struct run *r, jv it, const struct resp_fields *f, size_t src)
{
	const struct jdoc *d = r->doc;
	if (!jv_streq(d, f->name, "parallel") && !jv_streq(d, f->name, "multi_tool_use.parallel"))
		return false;
	json_error_t jerr;
	json_t *args = jv_is_string(d, f->arguments)
	               ? json_loadb(jv_str(d, f->arguments), jv_strlen(d, f->arguments), 0, &jerr)
	               : jv_to_json(d, f->arguments);
	json_t *uses = json_object_get(args, "tool_uses");
	size_t k;
	json_t *u;
	bool ok = json_array_size(uses) > 0;
	json_array_foreach(uses, k, u)
		ok = ok && json_is_string(json_object_get(u, "recipient_name"));
	if (!ok) {
		json_decref(args);
		return false;
	}
	size_t mi = run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, "", it);
	r->msgs[mi].src_index = (long)src;
	json_array_foreach(uses, k, u) {
		const char *to = json_string_value(json_object_get(u, "recipient_name"));
		const char *dot = strrchr(to, '.');
		struct run_call *c = run_add_call(r, mi);
		c->raw_id = f->call_id;
		c->id = loader_id(r, f->call_id);
		c->name = run_strdup(r, dot ? dot + 1 : to);
		c->src_msg_index = (long)src;
		c->src_call_index = (long)k;
		c->raw_state = loader_str(r, f->status, NULL);
		c->args = f->arguments;
		json_t *params = json_object_get(u, "parameters");
		c->args_tree = params ? json_incref(params) : json_object();
		c->args_parsed = true;
		resp_state_from_status(c);
	}
	json_decref(args);
	return true;
}

/* A built-in tool's name: its item type without "_call", the type its
 * tool has in the request's tools list (web_search, code_interpreter). */
static const char *resp_builtin_name(struct run *r, const char *ty)
{
	size_t n = strlen(ty);
	if (loader_ends_with(ty, "_call"))
		n -= 5;
	return arena_strndup(&r->arena, ty, n);
}

static void resp_client_call(struct run *r, jv it, const struct resp_fields *f, const char *ty,
                             size_t src)
{
	const char *name = loader_str(r, f->name, "");
	bool function = !strcmp(ty, "function_call");
	if (function && resp_parallel(r, it, f, src))
		return;
	if (!function && strcmp(ty, "custom_tool_call") != 0)
		name = resp_builtin_name(r, ty);    /* built-ins have no name but their type */
	struct run_call *c = resp_add_call(r, it, f, src, name, f->call_id);
	c->raw_name = f->name;
	if (function) {
		run_call_set_args(r, c, f->arguments);
	} else {
		/* custom tools' input, computer and shell actions, apply_patch's
		 * operation {type, path, diff} */
		const jv arg_keys[] = { f->input, f->action, f->operation };
		jv a = resp_first(arg_keys, sizeof(arg_keys) / sizeof(arg_keys[0]));
		if (a != JV_NONE)
			resp_args_verbatim(r, c, a);
	}
	resp_state_from_status(c);
}

static const char *resp_error_text(struct run *r, jv e)
{
	const struct jdoc *d = r->doc;
	if (jv_is_string(d, e))
		return jv_str(d, e);
	jv message = jv_is_object(d, e) ? jv_get(d, e, "message") : JV_NONE;
	if (jv_is_string(d, message))
		return jv_str(d, message);
	/* Shown compact, as the program prints JSON; only failed calls with
	 * an unusual error value come here. */
	json_t *tree = jv_to_json(d, e);
	char *s = tree ? json_dumps(tree, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;
	const char *out = run_strdup(r, s ? s : "error");
	free(s);
	json_decref(tree);
	return out;
}

/* mcp_call and the hosted tools (web_search_call, file_search_call, ...)
 * run on OpenAI's side: call and outcome are one item. */
static void resp_server_call(struct run *r, jv it, const struct resp_fields *f, const char *ty,
                             size_t src)
{
	const struct jdoc *d = r->doc;
	bool mcp = !strcmp(ty, "mcp_call");
	jv raw_name = mcp ? f->name : JV_NONE;
	jv raw_id = f->call_id != JV_NONE ? f->call_id : f->id;
	const char *name = resp_builtin_name(r, ty);
	if (mcp) {
		/* The server says which of several "search" tools it was. */
		name = loader_str(r, raw_name, "");
		if (jv_strlen(d, f->server_label))
			name = arena_printf(&r->arena, "%s.%s", jv_str(d, f->server_label), name);
	}
	struct run_call *c = resp_add_call(r, it, f, src, name, raw_id);
	c->raw_name = raw_name;
	if (f->arguments != JV_NONE) {
		run_call_set_args(r, c, f->arguments);
	} else {
		const jv arg_keys[] = { f->action, f->queries, f->code, f->input };
		jv a = resp_first(arg_keys, sizeof(arg_keys) / sizeof(arg_keys[0]));
		if (a != JV_NONE)
			resp_args_verbatim(r, c, a);
	}
	const jv result_keys[] = { f->output, f->results, f->outputs, f->result };
	jv result = resp_first(result_keys, sizeof(result_keys) / sizeof(result_keys[0]));
	const char *st = c->raw_state ? c->raw_state : "completed";
	if (f->error != JV_NONE && !jv_is_null(d, f->error))
		run_set_result(c, result, true, resp_error_text(r, f->error), -1);
	else if (!strcmp(st, "failed"))
		run_set_result(c, result, true, "failed", -1);
	else if (!strcmp(st, "incomplete"))
		c->state = CALL_PARTIAL;
	else if (!strcmp(st, "completed"))
		run_set_result(c, result, false, NULL, -1);
	/* in_progress, searching, interpreting, ...: still requested. */
}

/* shell_call_output's output is a list of {stdout, stderr, outcome}: its
 * text is their streams, one after another. */
static const char *resp_shell_text(struct run *r, jv output)
{
	const struct jdoc *d = r->doc;
	size_t n = 0;
	JV_EACH(d, output, o)
		if (jv_is_object(d, o))
			n += jv_strlen(d, jv_get(d, o, "stdout")) + jv_strlen(d, jv_get(d, o, "stderr")) + 2;
	if (n == 0)
		return "";
	char *buf = malloc(n + 1), *p = buf;
	if (!buf)
		return "";
	JV_EACH(d, output, o) {
		if (!jv_is_object(d, o))
			continue;
		const char *streams[] = { "stdout", "stderr" };
		for (size_t i = 0; i < 2; i++) {
			jv s = jv_get(d, o, streams[i]);
			size_t len = jv_strlen(d, s);
			if (!len)
				continue;
			if (p > buf && p[-1] != '\n')
				*p++ = '\n';
			memcpy(p, jv_str(d, s), len);
			p += len;
		}
	}
	*p = '\0';
	const char *out = run_strdup(r, buf);
	free(buf);
	return out;
}

/* An output item answers the call whose call_id it names (an older
 * local_shell_call_output names it by id). Its status "failed" (apply_patch,
 * shell), or text starting "Error:", marks the call failed. */
static void resp_output(struct run *r, jv it, const struct resp_fields *f, size_t src)
{
	const struct jdoc *d = r->doc;
	const char *text = jv_is_array(d, f->output) && !jv_streq(d, f->type, "function_call_output") &&
	                   !jv_streq(d, f->type, "custom_tool_call_output")
	                   ? resp_shell_text(r, f->output) : "";
	if (!text[0])
		text = resp_text(r, f->output);
	size_t mi = run_add_msg(r, ROLE_TOOL, MSG_IN_OUTPUT, text, it);
	r->msgs[mi].src_index = (long)src;
	jv raw_id = f->call_id == JV_NONE && jv_streq(d, f->type, "local_shell_call_output")
	            ? f->id : f->call_id;
	const char *id = loader_id(r, raw_id);
	struct run_msg *m = loader_tool_output(r, mi, id, f->output);
	if (f->error != JV_NONE && !jv_is_null(d, f->error))
		loader_mark_failed(m, resp_error_text(r, f->error));
	else if (jv_streq(d, f->status, "failed"))
		loader_mark_failed(m, text[0] ? text : "failed");
	else if (loader_is_error_text(text, LOADER_ERROR_PREFIX))
		loader_mark_failed(m, text);
}

/* The texts of a list of {type, text} parts (a reasoning item's summary
 * or content), one after another; "" when none. */
static const char *resp_part_texts(struct run *r, jv parts)
{
	const struct jdoc *d = r->doc;
	struct strbuf sb = STRBUF_INIT;
	JV_EACH(d, parts, p) {
		jv t = jv_is_object(d, p) ? jv_get(d, p, "text") : JV_NONE;
		if (!jv_strlen(d, t))
			continue;
		if (sb.len)
			strbuf_addch(&sb, '\n');
		strbuf_add(&sb, jv_str(d, t), jv_strlen(d, t));
	}
	const char *out = sb.len ? arena_strndup(&r->arena, sb.buf, sb.len) : "";
	strbuf_release(&sb);
	return out;
}

/* Reasoning is the model's thinking, not an answer: a thinking part,
 * empty when only encrypted_content was kept. */
static void resp_reasoning(struct run *r, jv it, const struct resp_fields *f, size_t src)
{
	const char *text = resp_part_texts(r, f->summary);
	if (!text[0])
		text = resp_part_texts(r, f->content);
	size_t mi = run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, "", it);
	r->msgs[mi].src_index = (long)src;
	run_add_thinking(r, mi, text, it);
}

/* The names of a tool list (mcp_list_tools, tool_search_output), the
 * first few of them. */
static const char *resp_tool_names(struct run *r, jv tools)
{
	const struct jdoc *d = r->doc;
	enum { SHOWN = 8 };
	struct strbuf sb = STRBUF_INIT;
	size_t n = 0;
	JV_EACH(d, tools, t) {
		jv name = jv_is_object(d, t) ? jv_get(d, t, "name") : JV_NONE;
		if (!jv_is_string(d, name) || n++ >= SHOWN)
			continue;
		strbuf_addstr(&sb, sb.len ? ", " : ": ");
		strbuf_add(&sb, jv_str(d, name), jv_strlen(d, name));
	}
	if (n > SHOWN)
		strbuf_addf(&sb, " and %zu more", n - SHOWN);
	const char *out = run_strdup(r, sb.buf ? sb.buf : "");
	strbuf_release(&sb);
	return out;
}

/* Items that say what tools there are or may run, not a tool run: an
 * assistant (or, answering an approval, user) message with a note saying
 * what they list. false for a type that is none of them. */
static bool resp_listing(struct run *r, jv it, const struct resp_fields *f, const char *ty,
                         size_t src)
{
	const struct jdoc *d = r->doc;
	const char *label = jv_str_or(d, f->server_label, "?");
	size_t mi;
	if (!strcmp(ty, "mcp_approval_response")) {
		jv ok = jv_get(d, it, "approve");
		mi = run_add_msg(r, ROLE_USER, MSG_IN_OUTPUT, "", it);
		run_add_note(r, mi, it, "MCP call %s", jv_truthy(d, ok) ? "approved" : "not approved");
	} else if (!strcmp(ty, "mcp_list_tools") || !strcmp(ty, "tool_search_output") ||
	           !strcmp(ty, "tool_search_call_output")) {
		mi = run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, "", it);
		if (ty[0] == 'm')
			run_add_note(r, mi, it, "MCP server %s lists %zu tools%s", label,
			             jv_len(d, f->tools), resp_tool_names(r, f->tools));
		else
			run_add_note(r, mi, it, "tool search found %zu tools%s", jv_len(d, f->tools),
			             resp_tool_names(r, f->tools));
	} else if (!strcmp(ty, "tool_search_call")) {
		jv q = jv_is_object(d, f->arguments) ? jv_get(d, f->arguments, "query") : JV_NONE;
		mi = run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, "", it);
		run_add_note(r, mi, it, "tool search%s%s", jv_strlen(d, q) ? ": " : "",
		             jv_str_or(d, q, ""));
	} else if (!strcmp(ty, "mcp_approval_request")) {
		mi = run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, "", it);
		run_add_note(r, mi, it, "asks approval to call %s.%s", label,
		             jv_str_or(d, f->name, "?"));
	} else if (!strcmp(ty, "item_reference")) {
		mi = run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, "", it);
		run_add_note(r, mi, it, "reference to item %s", jv_str_or(d, f->id, "?"));
	} else {
		return false;
	}
	r->msgs[mi].src_index = (long)src;
	return true;
}

/* A type newer than this loader: kept, and said to be unread. */
static void resp_unknown(struct run *r, jv it, const char *ty, size_t src)
{
	size_t mi = run_add_note_msg(r, MSG_IN_OUTPUT, it, "item type \"%s\" (not read)", ty);
	r->msgs[mi].src_index = (long)src;
}

int resp_read_item(struct run *r, jv it, const char *path, size_t i, void *ctx, struct error *err)
{
	(void)ctx;
	const struct jdoc *d = r->doc;
	struct resp_fields f;
	resp_fields(d, it, &f);
	if (f.type != JV_NONE && !jv_is_string(d, f.type)) {
		error_at(err, ERR_FAILED, "%s.type: not a string", path);
		return -1;
	}
	const char *ty = jv_str(d, f.type);
	if (!ty || !strcmp(ty, "message")) {
		if (!ty && f.role == JV_NONE) {
			error_at(err, ERR_MISSING, "%s.type: missing", path);
			return -1;
		}
		return resp_message(r, it, path, i, err);
	}
	if (resp_in(ty, resp_client_calls))
		resp_client_call(r, it, &f, ty, i);
	else if (loader_ends_with(ty, "_call") && strcmp(ty, "tool_search_call") != 0)
		resp_server_call(r, it, &f, ty, i);
	else if (loader_ends_with(ty, "_call_output") && strcmp(ty, "tool_search_call_output") != 0)
		resp_output(r, it, &f, i);
	else if (!strcmp(ty, "reasoning"))
		resp_reasoning(r, it, &f, i);
	else if (!resp_listing(r, it, &f, ty, i))
		resp_unknown(r, it, ty, i);
	return 0;
}

/* input and output may also be a plain string: one user message (a
 * request's input) or one assistant message (a text-only output). */
static int resp_list(struct run *r, jv v, const char *key, enum run_role text_role,
                     enum msg_origin origin, struct error *err)
{
	const struct jdoc *d = r->doc;
	if (v == JV_NONE || jv_is_null(d, v))
		return 0;
	size_t first = r->nmsgs;
	if (jv_is_string(d, v)) {
		run_add_msg(r, text_role, MSG_IN_OUTPUT, jv_str(d, v), v);
	} else if (!jv_is_array(d, v)) {
		error_at(err, ERR_FAILED, "%s: not an array or a string", key);
		return -1;
	} else if (loader_each(r, v, key, resp_read_item, NULL, err) < 0) {
		return -1;
	}
	for (size_t i = first; i < r->nmsgs; i++)
		r->msgs[i].origin = origin;
	return 0;
}

static int resp_load(struct run *r, struct error *err)
{
	const struct jdoc *d = r->doc;
	jv rec = run_root(r);
	if (jv_is_array(d, rec)) {
		if (loader_each(r, rec, "", resp_read_item, NULL, err) < 0)
			return -1;
		run_join_results(r);
		return 0;
	}
	if (!jv_is_object(d, rec)) {
		error_at(err, ERR_FAILED, "an openai-responses record must be an array of items or an object");
		return -1;
	}
	jv in = jv_get(d, rec, "input"), out = jv_get(d, rec, "output");
	if (in == JV_NONE && out == JV_NONE) {
		error_at(err, ERR_MISSING, "input, output: missing");
		return -1;
	}
	loader_tools(r, rec);
	r->model = loader_model(r, rec);
	/* With both lists, input is what was sent (context, as Azure's query
	 * and Mastra's inputMessages are) and output is the run being judged;
	 * input alone is a whole trajectory logged as one request. */
	enum msg_origin in_origin = out != JV_NONE && !jv_is_null(d, out) ? MSG_IN_INPUT
	                                                                   : MSG_IN_OUTPUT;
	/* A Response object's instructions are its system prompt. */
	jv instr = jv_get(d, rec, "instructions");
	if (jv_strlen(d, instr))
		run_add_msg(r, ROLE_SYSTEM, in_origin, jv_str(d, instr), instr);
	if (resp_list(r, in, "input", ROLE_USER, in_origin, err) < 0 ||
	    resp_list(r, out, "output", ROLE_ASSISTANT, MSG_IN_OUTPUT, err) < 0)
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
