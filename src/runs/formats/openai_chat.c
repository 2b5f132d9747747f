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
#include <string.h>

#include "runs/format.h"
#include "runs/loader.h"

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
	if (!strcmp(loader_str(json_object_get(m, "type"), ""), "message") ||
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
	json_t *content;
	if (loader_content(m, path, &content, err, errlen) < 0)
		return -1;
	size_t i;
	json_t *part;
	json_array_foreach(content, i, part) {
		if (!json_is_object(part) && !json_is_string(part)) {
			snprintf(err, errlen, "%s.content[%zu]: not an object", path, i);
			return -1;
		}
	}
	*text = run_text_of(r, content);
	/* A refusal is the model's answer; scorers reading the final text
	 * should see it. */
	json_array_foreach(content, i, part) {
		if ((*text)[0])
			break;
		if (!strcmp(loader_str(json_object_get(part, "type"), ""), "refusal"))
			*text = loader_str(json_object_get(part, "refusal"), "");
	}
	if (!(*text)[0] && json_is_string(json_object_get(m, "refusal")))
		*text = json_string_value(json_object_get(m, "refusal"));
	return 0;
}

/* Where a message's calls go: its index, and who asked for them. */
struct chat_msg_ctx {
	size_t mi;
	long src;
	enum call_requestor who;
};

/* One entry of tool_calls[]. */
static int chat_add_tool_call(struct run *r, json_t *tc, const char *path, size_t k, void *ctx,
                              char *err, size_t errlen)
{
	const struct chat_msg_ctx *at = ctx;
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
	struct run_call *c = run_add_call(r, at->mi);
	c->raw_id = json_object_get(tc, "id");
	c->id = loader_id(r, c->raw_id);
	c->src_msg_index = at->src;
	c->requestor = at->who;
	if (!json_is_object(body)) {
		/* A call type newer than this loader: keep it visible under
		 * its type rather than refuse the whole run. */
		c->name = ty;
		return 0;
	}
	c->raw_name = json_object_get(body, "name");
	c->name = loader_str(c->raw_name, "");
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
	c->name = loader_str(c->raw_name, "");
	c->src_msg_index = src;
	c->requestor = who;
	run_call_set_args(r, c, json_object_get(fc, "arguments"));
	return 0;
}

static int chat_load_msg(struct run *r, json_t *m, const char *path, size_t i, void *ctx,
                         char *err, size_t errlen)
{
	enum run_role role;
	if (loader_role(m, path, ROLE_ERRORS_SPLIT, &role, err, errlen) < 0)
		return -1;
	const char *text;
	if (chat_content_text(r, m, path, &text, err, errlen) < 0)
		return -1;
	json_t *calls;
	if (loader_opt_array(m, "tool_calls", path, "not an array", &calls, err, errlen) < 0)
		return -1;
	size_t mi = run_add_msg(r, role, MSG_IN_OUTPUT, text, m);
	r->msgs[mi].src_index = (long)i;
	struct chat_msg_ctx at = { mi, (long)i, role == ROLE_USER ? REQ_USER : REQ_AGENT };
	if (role == ROLE_TOOL) {
		const char *id = loader_id(r, json_object_get(m, "tool_call_id"));
		struct run_msg *msg = loader_tool_output(r, mi, id, json_object_get(m, "content"));
		if (loader_is_error_text(text, LOADER_ERROR_PREFIX))
			loader_mark_failed(msg, text);
	}
	if (loader_each_field(r, calls, path, "tool_calls", chat_add_tool_call, &at, err, errlen) < 0)
		return -1;
	json_t *fc = json_object_get(m, "function_call");
	if (fc && !json_is_null(fc) &&
	    chat_add_function_call(r, mi, fc, path, at.src, at.who, err, errlen) < 0)
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

static int chat_load(struct run *r, char *err, size_t errlen)
{
	json_t *rec = r->record;
	json_t *list;
	const char *where;
	int shape = loader_messages_or_array(rec, &list, &where, "an openai-chat record must be "
	                                     "an object or an array of messages", err, errlen);
	if (shape < 0)
		return -1;
	if (shape == LOADER_OBJECT) {
		loader_tools(r, rec);
		r->model = loader_model(rec);
	}
	if (loader_each(r, list, where, chat_load_msg, NULL, err, errlen) < 0)
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
