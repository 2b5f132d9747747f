/* openai_chat.c - OpenAI Chat Completions conversations: {messages, tools?,
 * model?} or a bare array of messages.
 *
 * Calls are assistant tool_calls[] (type function, arguments a JSON string;
 * or type custom, input free text) and the legacy function_call object.
 * Results are role "tool" messages linked by tool_call_id, or legacy role
 * "function" messages, which carry only the function's name.
 *
 * The format has no error flag. By the convention tau-bench and most
 * OpenAI-style harnesses follow, a result whose text starts with "Error:"
 * is a failed call; its text becomes the error text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"

#define ERROR_PREFIX "Error:"

/* Ids are strings in practice; a number still names a call, so it is
 * printed rather than dropped. "" is no id at all. */
static const char *chat_id(struct run *r, json_t *v)
{
	if (json_is_string(v))
		return json_string_length(v) ? json_string_value(v) : NULL;
	if (json_is_number(v)) {
		char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
		const char *out = run_strdup(r, s ? s : "");
		free(s);
		return out;
	}
	return NULL;
}

static const char *chat_str(json_t *v, const char *dflt)
{
	return json_is_string(v) ? json_string_value(v) : dflt;
}

/* Keys that belong to formats sharing the {messages} or array shape. */
static bool chat_foreign_record(json_t *rec)
{
	return json_object_get(rec, "reward_info") || json_object_get(rec, "termination_reason") ||
	       json_object_get(rec, "traj") || json_object_get(rec, "inputMessages") ||
	       json_object_get(rec, "output") || json_object_get(rec, "input") ||
	       (json_object_get(rec, "query") && json_object_get(rec, "response"));
}

static bool is_anthropic_block(json_t *part)
{
	const char *ty = json_string_value(json_object_get(part, "type"));
	if (!ty)
		return false;
	size_t n = strlen(ty);
	return !strcmp(ty, "tool_use") || !strcmp(ty, "server_tool_use") ||
	       !strcmp(ty, "thinking") || !strcmp(ty, "redacted_thinking") ||
	       (n >= 11 && !strcmp(ty + n - 11, "tool_result"));
}

/* 0 when the message rules the record out, 1 when it is a plain
 * role/content message, 2 when it has keys only OpenAI writes. */
static int chat_score_msg(json_t *m)
{
	if (!json_is_string(json_object_get(m, "role")))
		return 0;
	/* Responses message items, AI SDK UI messages, Mastra messages. */
	if (!strcmp(chat_str(json_object_get(m, "type"), ""), "message") ||
	    json_object_get(m, "toolInvocations"))
		return 0;
	json_t *content = json_object_get(m, "content");
	if (!content && json_object_get(m, "parts"))
		return 0;
	if (json_is_object(content))
		return 0;
	if (json_is_array(content)) {
		size_t i;
		json_t *part;
		json_array_foreach(content, i, part)
			if (is_anthropic_block(part))
				return 0;
	}
	int score = 1;
	json_t *calls = json_object_get(m, "tool_calls");
	if (json_is_array(calls)) {
		size_t i;
		json_t *tc;
		json_array_foreach(calls, i, tc)
			if (json_is_object(json_object_get(tc, "function")) ||
			    json_is_object(json_object_get(tc, "custom")))
				score = 2;
	}
	if (json_is_string(json_object_get(m, "tool_call_id")) ||
	    json_is_object(json_object_get(m, "function_call")) ||
	    !strcmp(json_string_value(json_object_get(m, "role")), "function"))
		score = 2;
	return score;
}

static int chat_detect(json_t *rec)
{
	json_t *list = rec;
	if (json_is_object(rec)) {
		if (chat_foreign_record(rec))
			return 0;
		list = json_object_get(rec, "messages");
	}
	if (!json_is_array(list))
		return 0;
	size_t i, seen = 0;
	json_t *m;
	int best = 0;
	json_array_foreach(list, i, m) {
		if (!json_is_object(m)) {
			/* A bare array must be all messages; inside "messages" a
			 * bad element is for load to report. */
			if (list == rec)
				return 0;
			continue;
		}
		int s = chat_score_msg(m);
		if (s == 0)
			return 0;
		if (s > best)
			best = s;
		seen++;
	}
	if (!seen)
		return 0;
	if (best == 2)
		return 40;
	/* A top-level system prompt is how Anthropic writes it, not OpenAI. */
	if (list != rec && json_object_get(rec, "system"))
		return 0;
	return 20;
}

/* Checks a content value and returns its text: a string, null, or a list
 * of parts of which text (and refusal) parts are read. */
static int chat_content_text(struct run *r, json_t *m, const char *path, const char **text,
                             char *err, size_t errlen)
{
	json_t *content = json_object_get(m, "content");
	*text = "";
	if (!content || json_is_null(content) || json_is_string(content)) {
		*text = run_text_of(r, content);
	} else if (json_is_array(content)) {
		size_t i;
		json_t *part;
		json_array_foreach(content, i, part) {
			if (!json_is_object(part) && !json_is_string(part)) {
				snprintf(err, errlen, "%s.content[%zu]: not an object", path, i);
				return -1;
			}
		}
		*text = run_text_of(r, content);
		/* A refusal is the model's answer; scorers reading the final
		 * text should see it. */
		json_array_foreach(content, i, part) {
			if ((*text)[0])
				break;
			if (!strcmp(chat_str(json_object_get(part, "type"), ""), "refusal"))
				*text = chat_str(json_object_get(part, "refusal"), "");
		}
	} else {
		snprintf(err, errlen, "%s.content: not a string, a list or null", path);
		return -1;
	}
	if (!(*text)[0] && json_is_string(json_object_get(m, "refusal")))
		*text = json_string_value(json_object_get(m, "refusal"));
	return 0;
}

/* One entry of tool_calls[]. */
static int chat_add_tool_call(struct run *r, size_t mi, json_t *tc, const char *path, long src,
                              enum call_requestor who, char *err, size_t errlen)
{
	if (!json_is_object(tc)) {
		snprintf(err, errlen, "%s: not an object", path);
		return -1;
	}
	json_t *type = json_object_get(tc, "type");
	if (type && !json_is_string(type)) {
		snprintf(err, errlen, "%s.type: not a string", path);
		return -1;
	}
	/* Old exports leave type out; function is the only type they knew. */
	const char *ty = type ? json_string_value(type) : "function";
	json_t *body = json_object_get(tc, ty);
	bool known = !strcmp(ty, "function") || !strcmp(ty, "custom");
	if (known && !json_is_object(body)) {
		snprintf(err, errlen, "%s.%s: not an object", path, ty);
		return -1;
	}
	struct run_call *c = run_add_call(r, mi);
	c->raw_id = json_object_get(tc, "id");
	c->id = chat_id(r, c->raw_id);
	c->src_msg_index = src;
	c->requestor = who;
	if (!json_is_object(body)) {
		/* A call type newer than this loader: keep it visible under
		 * its type rather than refuse the whole run. */
		c->name = ty;
		return 0;
	}
	c->raw_name = json_object_get(body, "name");
	c->name = chat_str(c->raw_name, "");
	if (!strcmp(ty, "custom")) {
		/* Custom tools take free text, not JSON: keep it as a string
		 * value instead of flagging it as unparsable arguments. */
		json_t *input = json_object_get(body, "input");
		if (input)
			c->args = json_incref(input);
	} else {
		run_call_set_args(r, c, json_object_get(body, "arguments"));
	}
	return 0;
}

/* The legacy function_call {name, arguments} has no id: c->id stays NULL
 * and chat_join_by_name links its reply by position. */
static int chat_add_function_call(struct run *r, size_t mi, json_t *fc, const char *path,
                                  long src, enum call_requestor who, char *err, size_t errlen)
{
	if (!json_is_object(fc)) {
		snprintf(err, errlen, "%s.function_call: not an object", path);
		return -1;
	}
	struct run_call *c = run_add_call(r, mi);
	c->raw_name = json_object_get(fc, "name");
	c->name = chat_str(c->raw_name, "");
	c->src_msg_index = src;
	c->requestor = who;
	run_call_set_args(r, c, json_object_get(fc, "arguments"));
	return 0;
}

static int chat_load_msg(struct run *r, json_t *m, const char *where, size_t i,
                         char *err, size_t errlen)
{
	char path[64];
	snprintf(path, sizeof(path), "%s[%zu]", where, i);
	if (!json_is_object(m)) {
		snprintf(err, errlen, "%s: not an object", path);
		return -1;
	}
	json_t *jrole = json_object_get(m, "role");
	if (!json_is_string(jrole)) {
		snprintf(err, errlen, "%s.role: %s", path, jrole ? "not a string" : "missing");
		return -1;
	}
	bool ok;
	enum run_role role = run_role_parse(json_string_value(jrole), &ok);
	if (!ok) {
		snprintf(err, errlen, "%s.role: unknown role \"%s\"", path, json_string_value(jrole));
		return -1;
	}
	const char *text;
	if (chat_content_text(r, m, path, &text, err, errlen) < 0)
		return -1;
	json_t *calls = json_object_get(m, "tool_calls");
	if (calls && !json_is_null(calls) && !json_is_array(calls)) {
		snprintf(err, errlen, "%s.tool_calls: not an array", path);
		return -1;
	}
	size_t mi = run_add_msg(r, role, MSG_IN_OUTPUT, text, m);
	r->msgs[mi].src_index = (long)i;
	enum call_requestor who = role == ROLE_USER ? REQ_USER : REQ_AGENT;
	if (role == ROLE_TOOL) {
		struct run_msg *msg = &r->msgs[mi];
		msg->is_tool_output = true;
		msg->answers_call_id = chat_id(r, json_object_get(m, "tool_call_id"));
		msg->result = json_object_get(m, "content");
		if (!strncmp(text, ERROR_PREFIX, strlen(ERROR_PREFIX))) {
			msg->result_is_error = true;
			msg->result_error_text = text;
		}
	}
	size_t k;
	json_t *tc;
	json_array_foreach(calls, k, tc) {
		char cpath[128];
		snprintf(cpath, sizeof(cpath), "%s.tool_calls[%zu]", path, k);
		if (chat_add_tool_call(r, mi, tc, cpath, (long)i, who, err, errlen) < 0)
			return -1;
	}
	json_t *fc = json_object_get(m, "function_call");
	if (fc && !json_is_null(fc) &&
	    chat_add_function_call(r, mi, fc, path, (long)i, who, err, errlen) < 0)
		return -1;
	return 0;
}

/* Results without an id (legacy role "function" replies, or a tool message
 * missing tool_call_id) go to the nearest preceding call that has no id and
 * no result yet, and whose name matches when the result names one.
 * run_join_results has flagged them all unmatched; this decides. */
static void chat_join_by_name(struct run *r)
{
	for (size_t mi = 0; mi < r->nmsgs; mi++) {
		struct run_msg *m = &r->msgs[mi];
		if (!m->is_tool_output || m->answers_call_id)
			continue;
		const char *name = json_string_value(json_object_get(m->raw, "name"));
		struct run_call *hit = NULL;
		for (size_t ci = r->ncalls; ci-- > 0;) {
			struct run_call *c = &r->calls[ci];
			if (c->msg_index >= mi || c->id || c->has_result)
				continue;
			if (name && strcmp(c->name, name) != 0)
				continue;
			hit = c;
			break;
		}
		m->unmatched_result = hit == NULL;
		if (hit)
			run_set_result(hit, m->result, m->result_is_error, m->result_error_text, (long)mi);
	}
}

/* The record's model, or the one the fixtures' _corpus names (a string,
 * or a list when a session switched models: the first one). */
static const char *chat_model(json_t *rec)
{
	json_t *m = json_object_get(rec, "model");
	if (json_is_string(m))
		return json_string_value(m);
	m = json_object_get(json_object_get(rec, "_corpus"), "agent_model");
	if (json_is_array(m))
		m = json_array_get(m, 0);
	return json_is_string(m) ? json_string_value(m) : NULL;
}

static int chat_load(struct run *r, char *err, size_t errlen)
{
	json_t *rec = r->record;
	json_t *list = rec;
	const char *where = "";
	if (json_is_object(rec)) {
		list = json_object_get(rec, "messages");
		where = "messages";
		if (!json_is_array(list)) {
			snprintf(err, errlen, "messages: %s", list ? "not an array" : "missing");
			return -1;
		}
		json_t *tools = json_object_get(rec, "tools");
		if (tools && !json_is_null(tools))
			r->tool_defs = tools;
		r->model = chat_model(rec);
	} else if (!json_is_array(rec)) {
		snprintf(err, errlen, "an openai-chat record must be an object or an array of messages");
		return -1;
	}
	size_t i;
	json_t *m;
	json_array_foreach(list, i, m)
		if (chat_load_msg(r, m, where, i, err, errlen) < 0)
			return -1;
	run_join_results(r);
	chat_join_by_name(r);
	return 0;
}

const struct format_ops format_openai_chat = {
	.name = "openai-chat",
	.summary = "OpenAI Chat Completions {messages, tools?} or a bare array of messages",
	.detect = chat_detect,
	.load = chat_load,
};
