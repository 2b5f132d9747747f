/* anthropic.c - Anthropic Messages conversations: {system?, messages,
 * model?, tools?} (or a bare array of messages) with content blocks.
 *
 * Calls are tool_use blocks (and server_tool_use / mcp_tool_use) in
 * assistant content. Their results are tool_result blocks in the following
 * user message, linked by tool_use_id; server tools put a *_tool_result
 * block beside the call in the same assistant message instead.
 *
 * A user message made of tool_result blocks is tool output, not a human
 * turn: each block becomes its own ROLE_TOOL message (raw = the block), and
 * any text or images beside them become a user message after them.
 * Thinking blocks are left out of the text scorers read; they stay in the
 * message's raw value for display. */
#include <stdio.h>
#include <string.h>

#include "runs/format.h"
#include "runs/loader.h"

static bool anth_is_call(const char *ty)
{
	return !strcmp(ty, "tool_use") || !strcmp(ty, "server_tool_use") ||
	       !strcmp(ty, "mcp_tool_use");
}

/* Blocks no other format writes inside a message's content. */
static bool anth_specific_block(const char *ty)
{
	return anth_is_call(ty) || loader_ends_with(ty, "tool_result") ||
	       !strcmp(ty, "thinking") || !strcmp(ty, "redacted_thinking");
}

static int anth_detect(json_t *rec)
{
	json_t *list = rec;
	if (json_is_object(rec)) {
		if (json_object_get(rec, "reward_info") || json_object_get(rec, "termination_reason") ||
		    json_object_get(rec, "traj") || json_object_get(rec, "inputMessages") ||
		    json_object_get(rec, "output") ||
		    (json_object_get(rec, "query") && json_object_get(rec, "response")))
			return 0;
		list = json_object_get(rec, "messages");
	}
	if (!json_is_array(list))
		return 0;
	bool specific = false, seen = false;
	size_t i;
	json_t *m;
	json_array_foreach(list, i, m) {
		if (!json_is_object(m))
			continue;
		const char *role = loader_str(json_object_get(m, "role"), NULL);
		if (!role)
			return 0;
		json_t *content = json_object_get(m, "content");
		/* OpenAI, AI SDK and Mastra messages. A "type" key proves
		 * nothing: API responses are {type: "message", role, content}. */
		if (!strcmp(role, "tool") || !strcmp(role, "function") ||
		    json_object_get(m, "tool_calls") || json_object_get(m, "tool_call_id") ||
		    json_object_get(m, "function_call") ||
		    json_object_get(m, "toolInvocations") || json_is_object(content) ||
		    (!content && json_object_get(m, "parts")))
			return 0;
		seen = true;
		size_t k;
		json_t *b;
		json_array_foreach(content, k, b) {
			const char *ty = loader_str(json_object_get(b, "type"), NULL);
			if (ty && anth_specific_block(ty))
				specific = true;
		}
	}
	if (specific)
		return 60;
	json_t *sys = json_is_object(rec) ? json_object_get(rec, "system") : NULL;
	if (seen && (json_is_string(sys) || json_is_array(sys)))
		return 45;
	return 0;
}

/* Checks a content list before anything is added, so a failed load never
 * leaves half a message behind. */
static int anth_check_blocks(json_t *content, const char *path, char *err, size_t errlen)
{
	size_t k;
	json_t *b;
	json_array_foreach(content, k, b) {
		if (!json_is_object(b)) {
			snprintf(err, errlen, "%s.content[%zu]: not an object", path, k);
			return -1;
		}
		json_t *type = json_object_get(b, "type");
		if (!json_is_string(type)) {
			snprintf(err, errlen, "%s.content[%zu].type: %s", path, k,
			         type ? "not a string" : "missing");
			return -1;
		}
		if (!loader_ends_with(json_string_value(type), "tool_result"))
			continue;
		json_t *rc = json_object_get(b, "content");
		if (!strcmp(json_string_value(type), "tool_result") && rc && !json_is_null(rc) &&
		    !json_is_string(rc) && !json_is_array(rc)) {
			snprintf(err, errlen, "%s.content[%zu].content: not a string or a list", path, k);
			return -1;
		}
	}
	return 0;
}

/* One tool_result block as its own tool message. */
static void anth_tool_result(struct run *r, json_t *b, size_t src)
{
	json_t *content = json_object_get(b, "content");
	const char *text = run_text_of(r, content);
	size_t mi = run_add_msg(r, ROLE_TOOL, MSG_IN_OUTPUT, text, b);
	r->msgs[mi].src_index = (long)src;
	const char *id = loader_id(r, json_object_get(b, "tool_use_id"));
	struct run_msg *m = loader_tool_output(r, mi, id, content);
	/* An error with no text still needs something to show: "error". */
	if (json_is_true(json_object_get(b, "is_error")))
		loader_mark_failed(m, text);
}

/* A server tool's result sits beside its call; an error is a content
 * object typed *_error with an error_code, or is_error on MCP results. */
static void anth_server_result(struct run *r, json_t *b, size_t src)
{
	const char *id = loader_id(r, json_object_get(b, "tool_use_id"));
	json_t *content = json_object_get(b, "content");
	bool is_error = json_is_true(json_object_get(b, "is_error"));
	const char *error_text = NULL;
	if (json_is_object(content) &&
	    loader_ends_with(loader_str(json_object_get(content, "type"), ""), "_error")) {
		is_error = true;
		error_text = loader_str(json_object_get(content, "error_code"), NULL);
	}
	if (is_error && !error_text) {
		const char *t = run_text_of(r, content);
		error_text = t[0] ? t : "error";
	}
	for (size_t ci = r->ncalls; id && ci-- > 0;) {
		struct run_call *c = &r->calls[ci];
		if (c->id && !c->has_result && !strcmp(c->id, id)) {
			run_set_result(c, content, is_error, error_text, -1);
			return;
		}
	}
	/* No call for it: keep it on screen as an unanswered result. */
	size_t mi = run_add_msg(r, ROLE_TOOL, MSG_IN_OUTPUT, run_text_of(r, content), b);
	r->msgs[mi].src_index = (long)src;
	struct run_msg *m = loader_tool_output(r, mi, id, content);
	m->result_is_error = is_error;
	m->result_error_text = error_text;
	m->unmatched_result = true;
}

/* The message itself: its text and calls, everything but tool_result. */
static void anth_body(struct run *r, json_t *m, json_t *content, enum run_role role, size_t src)
{
	size_t mi = run_add_msg(r, role, MSG_IN_OUTPUT, run_text_of(r, content), m);
	r->msgs[mi].src_index = (long)src;
	size_t k;
	json_t *b;
	json_array_foreach(content, k, b) {
		const char *ty = json_string_value(json_object_get(b, "type"));
		if (!anth_is_call(ty))
			continue;
		struct run_call *c = run_add_call(r, mi);
		c->raw_id = json_object_get(b, "id");
		c->id = loader_id(r, c->raw_id);
		c->raw_name = json_object_get(b, "name");
		c->name = loader_str(c->raw_name, "");
		c->src_msg_index = (long)src;
		c->requestor = role == ROLE_USER ? REQ_USER : REQ_AGENT;
		run_call_set_args(r, c, json_object_get(b, "input"));
	}
	json_array_foreach(content, k, b) {
		const char *ty = json_string_value(json_object_get(b, "type"));
		if (loader_ends_with(ty, "tool_result") && strcmp(ty, "tool_result") != 0)
			anth_server_result(r, b, src);
	}
}

static int anth_load_msg(struct run *r, json_t *m, const char *path, size_t i, void *ctx,
                         char *err, size_t errlen)
{
	enum run_role role;
	if (loader_role(m, path, ROLE_ERRORS_SPLIT, &role, err, errlen) < 0)
		return -1;
	json_t *content = json_object_get(m, "content");
	if (!content || json_is_null(content) || json_is_string(content)) {
		size_t mi = run_add_msg(r, role, MSG_IN_OUTPUT, run_text_of(r, content), m);
		r->msgs[mi].src_index = (long)i;
		return 0;
	}
	if (!json_is_array(content)) {
		snprintf(err, errlen, "%s.content: not a string or a list", path);
		return -1;
	}
	if (anth_check_blocks(content, path, err, errlen) < 0)
		return -1;
	size_t k, nresults = 0;
	json_t *b;
	json_array_foreach(content, k, b)
		if (!strcmp(json_string_value(json_object_get(b, "type")), "tool_result"))
			nresults++;
	bool has_body = nresults < json_array_size(content) || nresults == 0;
	/* In a user message the results answer the previous turn and come
	 * first; anywhere else they follow what the message says. */
	bool results_first = role == ROLE_USER;
	if (has_body && !results_first)
		anth_body(r, m, content, role, i);
	json_array_foreach(content, k, b)
		if (!strcmp(json_string_value(json_object_get(b, "type")), "tool_result"))
			anth_tool_result(r, b, i);
	if (has_body && results_first)
		anth_body(r, m, content, role, i);
	return 0;
}

static int anth_load(struct run *r, char *err, size_t errlen)
{
	json_t *rec = r->record;
	json_t *list;
	const char *where;
	int shape = loader_messages_or_array(rec, &list, &where, "an anthropic record must be "
	                                     "an object or an array of messages", err, errlen);
	if (shape < 0)
		return -1;
	if (shape == LOADER_OBJECT) {
		json_t *sys = json_object_get(rec, "system");
		if (json_is_array(sys)) {
			size_t k;
			json_t *b;
			json_array_foreach(sys, k, b)
				if (!json_is_object(b) && !json_is_string(b)) {
					snprintf(err, errlen, "system[%zu]: not an object", k);
					return -1;
				}
		} else if (sys && !json_is_null(sys) && !json_is_string(sys)) {
			snprintf(err, errlen, "system: not a string or a list");
			return -1;
		}
		if (sys && !json_is_null(sys))
			run_add_msg(r, ROLE_SYSTEM, MSG_IN_OUTPUT, run_text_of(r, sys), sys);
		loader_tools(r, rec);
		r->model = loader_model(rec);
	}
	if (loader_each(r, list, where, anth_load_msg, NULL, err, errlen) < 0)
		return -1;
	run_join_results(r);
	return 0;
}

const struct format_ops format_anthropic = {
	.name = "anthropic",
	.summary = "Anthropic Messages {system?, messages, tools?} with tool_use / tool_result blocks",
	.detect = anth_detect,
	.load = anth_load,
};
