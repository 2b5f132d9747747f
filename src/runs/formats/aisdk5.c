/* aisdk5.c - Vercel AI SDK v5 UI messages: a bare array, or {messages}.
 *
 * A message has {id, role, parts} and no content. Text is the text parts
 * joined; each tool part (type "tool-<name>", or "dynamic-tool" with
 * toolName) is one call holding its own outcome, so there is nothing to
 * join by id afterwards. Other parts (reasoning, step-start, file, sources,
 * data-*) are not text; they stay in the message's raw value. */
#include <stdio.h>
#include <string.h>

#include "runs/format.h"
#include "runs/loader.h"

#define TOOL_PREFIX "tool-"

static bool sdk_is_tool_part(const char *ty)
{
	return !strncmp(ty, TOOL_PREFIX, strlen(TOOL_PREFIX)) || !strcmp(ty, "dynamic-tool");
}

static json_t *sdk_list(json_t *rec)
{
	if (json_is_array(rec))
		return rec;
	if (!json_is_object(rec) || json_object_get(rec, "inputMessages") ||
	    json_object_get(rec, "reward_info") || json_object_get(rec, "termination_reason"))
		return NULL;
	return json_object_get(rec, "messages");
}

static int sdk_detect(json_t *rec)
{
	json_t *list = sdk_list(rec);
	if (!json_is_array(list))
		return 0;
	bool seen = false, tools = false;
	size_t i;
	json_t *m;
	json_array_foreach(list, i, m) {
		if (!json_is_object(m))
			continue;
		json_t *content = json_object_get(m, "content");
		json_t *parts = json_object_get(m, "parts");
		/* A v4 message (Mastra 0.x) has parts beside its content. */
		if ((content && !json_is_null(content)) || !json_is_array(parts) ||
		    !json_is_string(json_object_get(m, "role")))
			return 0;
		seen = true;
		size_t k;
		json_t *p;
		json_array_foreach(parts, k, p) {
			const char *ty = loader_str(json_object_get(p, "type"), "");
			if (sdk_is_tool_part(ty))
				tools = true;
		}
	}
	if (!seen)
		return 0;
	return tools ? 65 : 55;
}

/* Maps a tool part's state onto the model. Approval states wait on a
 * human, so the call is still requested; a denial is a failure whose
 * reason is the approver's. */
static void sdk_apply_state(struct run_call *c, json_t *p)
{
	const char *st = c->raw_state ? c->raw_state : "";
	json_t *output = json_object_get(p, "output");
	if (!strcmp(st, "input-streaming")) {
		c->state = CALL_PARTIAL;
	} else if (!strcmp(st, "output-available")) {
		run_set_result(c, output, false, NULL, -1);
	} else if (!strcmp(st, "output-error")) {
		run_set_result(c, output, true, loader_str(json_object_get(p, "errorText"), "error"), -1);
	} else if (!strcmp(st, "output-denied")) {
		json_t *approval = json_object_get(p, "approval");
		const char *reason = loader_str(json_object_get(approval, "reason"), "");
		run_set_result(c, NULL, true, reason[0] ? reason : "denied", -1);
	} else if (!strcmp(st, "input-available") || !strcmp(st, "approval-requested") ||
	           !strcmp(st, "approval-responded")) {
		c->state = CALL_REQUESTED;
	} else if (output) {
		/* A state this loader does not know, but an output: done. */
		run_set_result(c, output, false, NULL, -1);
	}
}

static void sdk_add_tool(struct run *r, size_t mi, json_t *p, const char *ty, size_t src,
                         enum call_requestor who)
{
	struct run_call *c = run_add_call(r, mi);
	if (!strcmp(ty, "dynamic-tool")) {
		c->raw_name = json_object_get(p, "toolName");
		c->name = loader_str(c->raw_name, "");
	} else {
		/* Static tools are named only by their part type; there is no
		 * JSON value for raw_name to point at. */
		c->name = ty + strlen(TOOL_PREFIX);
	}
	c->raw_id = json_object_get(p, "toolCallId");
	c->id = loader_id(r, c->raw_id);
	c->raw_state = loader_str(json_object_get(p, "state"), NULL);
	c->src_msg_index = (long)src;
	c->requestor = who;
	run_call_set_args(r, c, json_object_get(p, "input"));
	sdk_apply_state(c, p);
}

static int sdk_load_msg(struct run *r, json_t *m, const char *path, size_t i, void *ctx,
                        char *err, size_t errlen)
{
	enum run_role role;
	if (loader_role(m, path, ROLE_ERRORS_SPLIT, &role, err, errlen) < 0)
		return -1;
	json_t *parts = json_object_get(m, "parts");
	if (parts && !json_is_array(parts)) {
		snprintf(err, errlen, "%s.parts: not an array", path);
		return -1;
	}
	size_t k;
	json_t *p;
	json_array_foreach(parts, k, p) {
		if (!json_is_object(p)) {
			snprintf(err, errlen, "%s.parts[%zu]: not an object", path, k);
			return -1;
		}
		json_t *type = json_object_get(p, "type");
		if (!json_is_string(type)) {
			snprintf(err, errlen, "%s.parts[%zu].type: %s", path, k,
			         type ? "not a string" : "missing");
			return -1;
		}
	}
	/* run_text_of reads only text parts: reasoning has text too but is
	 * typed "reasoning", and tool parts have none. */
	size_t mi = run_add_msg(r, role, MSG_IN_OUTPUT, run_text_of(r, parts), m);
	r->msgs[mi].src_index = (long)i;
	enum call_requestor who = role == ROLE_USER ? REQ_USER : REQ_AGENT;
	json_array_foreach(parts, k, p) {
		const char *ty = json_string_value(json_object_get(p, "type"));
		if (sdk_is_tool_part(ty))
			sdk_add_tool(r, mi, p, ty, i, who);
	}
	return 0;
}

static int sdk_load(struct run *r, char *err, size_t errlen)
{
	json_t *rec = r->record;
	json_t *list;
	const char *where;
	int shape = loader_messages_or_array(rec, &list, &where, "an ai-sdk-v5 record must be "
	                                     "an array of messages or {messages}", err, errlen);
	if (shape < 0)
		return -1;
	if (shape == LOADER_OBJECT) {
		loader_tools(r, rec);
		r->model = loader_model(rec);
	}
	return loader_each(r, list, where, sdk_load_msg, NULL, err, errlen) < 0 ? -1 : 0;
}

const struct format_ops format_aisdk5 = {
	.name = "ai-sdk-v5",
	.summary = "Vercel AI SDK v5 UI messages with parts (tool-<name>, dynamic-tool)",
	.detect = sdk_detect,
	.load = sdk_load,
};
