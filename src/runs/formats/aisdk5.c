/* aisdk5.c - Vercel AI SDK v5 UI messages: a bare array, or {messages}.
 *
 * A message has {id, role, parts} and no content. Its parts keep their
 * order: text parts (joined, the text scorers read), reasoning as
 * thinking, and each tool part (type "tool-<name>", or "dynamic-tool"
 * with toolName) one call holding its own outcome, so there is nothing to
 * join by id afterwards. step-start parts are skipped; sources, files,
 * data-* and unknown part types are notes. A role this loader does not
 * know is a note message. */
#include <stdio.h>
#include <string.h>

#include "runs/format.h"
#include "runs/loader.h"
#include "util/error.h"

#define TOOL_PREFIX "tool-"

static bool sdk_is_tool_part(const char *ty)
{
	return !strncmp(ty, TOOL_PREFIX, strlen(TOOL_PREFIX)) || !strcmp(ty, "dynamic-tool");
}

static jv sdk_list(const struct jdoc *d, jv rec)
{
	if (jv_is_array(d, rec))
		return rec;
	if (!jv_is_object(d, rec) || jv_get(d, rec, "inputMessages") != JV_NONE ||
	    jv_get(d, rec, "reward_info") != JV_NONE || jv_get(d, rec, "termination_reason") != JV_NONE)
		return JV_NONE;
	return jv_get(d, rec, "messages");
}

static int sdk_detect(const struct jdoc *d, jv rec)
{
	/* tcreview's run format has messages of {role, parts} too. */
	if (jv_is_object(d, rec) && jv_get(d, rec, "tcreview_run") != JV_NONE)
		return 0;
	jv list = sdk_list(d, rec);
	if (!jv_is_array(d, list))
		return 0;
	bool seen = false, tools = false;
	JV_EACH(d, list, m) {
		if (!jv_is_object(d, m))
			continue;
		jv content = jv_get(d, m, "content");
		jv parts = jv_get(d, m, "parts");
		/* A v4 message (Mastra 0.x) has parts beside its content. */
		if ((content != JV_NONE && !jv_is_null(d, content)) || !jv_is_array(d, parts) ||
		    !jv_is_string(d, jv_get(d, m, "role")))
			return 0;
		seen = true;
		JV_EACH(d, parts, p) {
			const char *ty = jv_str_or(d, jv_get(d, p, "type"), "");
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
static void sdk_apply_state(struct run *r, struct run_call *c, jv p)
{
	const struct jdoc *d = r->doc;
	const char *st = c->raw_state ? c->raw_state : "";
	jv output = jv_get(d, p, "output");
	if (!strcmp(st, "input-streaming")) {
		c->state = CALL_PARTIAL;
	} else if (!strcmp(st, "output-available")) {
		run_set_result(c, output, false, NULL, -1);
	} else if (!strcmp(st, "output-error")) {
		run_set_result(c, output, true, loader_str(r, jv_get(d, p, "errorText"), "error"), -1);
	} else if (!strcmp(st, "output-denied")) {
		jv approval = jv_get(d, p, "approval");
		const char *reason = loader_str(r, jv_get(d, approval, "reason"), "");
		run_set_result(c, JV_NONE, true, reason[0] ? reason : "denied", -1);
	} else if (!strcmp(st, "input-available") || !strcmp(st, "approval-requested") ||
	           !strcmp(st, "approval-responded")) {
		c->state = CALL_REQUESTED;
	} else if (output != JV_NONE) {
		/* A state this loader does not know, but an output: done. */
		run_set_result(c, output, false, NULL, -1);
	}
}

static void sdk_add_tool(struct run *r, size_t mi, jv p, const char *ty, size_t src,
                         enum call_requestor who)
{
	const struct jdoc *d = r->doc;
	struct run_call *c = run_add_call(r, mi);
	if (!strcmp(ty, "dynamic-tool")) {
		c->raw_name = jv_get(d, p, "toolName");
		c->name = loader_str(r, c->raw_name, "");
	} else {
		/* Static tools are named only by their part type; there is no
		 * JSON value for raw_name to point at (it stays JV_NONE). */
		c->name = ty + strlen(TOOL_PREFIX);
	}
	c->raw_id = jv_get(d, p, "toolCallId");
	c->id = loader_id(r, c->raw_id);
	c->raw_state = loader_str(r, jv_get(d, p, "state"), NULL);
	c->src_msg_index = (long)src;
	c->requestor = who;
	run_call_set_args(r, c, jv_get(d, p, "input"));
	sdk_apply_state(r, c, p);
}

/* One part of the message, in the record's order. Steps mark where the
 * model was called again and say nothing; sources, files and data parts
 * are kept as notes, and so is a part type this loader does not know. */
static void sdk_add_part(struct run *r, size_t mi, jv p, size_t src, enum call_requestor who)
{
	const struct jdoc *d = r->doc;
	const char *ty = jv_str(d, jv_get(d, p, "type"));
	if (!strcmp(ty, "text"))
		run_add_text(r, mi, loader_str(r, jv_get(d, p, "text"), ""), p);
	else if (!strcmp(ty, "reasoning"))
		run_add_thinking(r, mi, loader_str(r, jv_get(d, p, "text"), ""), p);
	else if (sdk_is_tool_part(ty))
		sdk_add_tool(r, mi, p, ty, src, who);
	else if (!strcmp(ty, "step-start"))
		return;
	else if (!strcmp(ty, "source-url"))
		run_add_note(r, mi, p, "source %s", loader_str(r, jv_get(d, p, "url"), ""));
	else if (!strcmp(ty, "source-document"))
		run_add_note(r, mi, p, "source document %s", loader_str(r, jv_get(d, p, "title"), ""));
	else if (!strcmp(ty, "file"))
		run_add_note(r, mi, p, "file %s", loader_str(r, jv_get(d, p, "mediaType"), ""));
	else if (!strncmp(ty, "data-", 5))
		run_add_note(r, mi, p, "data part \"%s\"", ty);
	else
		run_add_note(r, mi, p, "part type \"%s\" (not read)", ty);
}

static int sdk_load_msg(struct run *r, jv m, const char *path, size_t i, void *ctx,
                        struct error *err)
{
	(void)ctx;
	const struct jdoc *d = r->doc;
	jv parts = jv_get(d, m, "parts");
	if (parts != JV_NONE && !jv_is_array(d, parts)) {
		error_at(err, ERR_FAILED, "%s.parts: not an array", path);
		return -1;
	}
	size_t k = 0;
	JV_EACH(d, parts, p) {
		if (!jv_is_object(d, p)) {
			error_at(err, ERR_FAILED, "%s.parts[%zu]: not an object", path, k);
			return -1;
		}
		jv type = jv_get(d, p, "type");
		if (!jv_is_string(d, type)) {
			error_at(err, type != JV_NONE ? ERR_FAILED : ERR_MISSING, "%s.parts[%zu].type: %s", path, k,
			         type != JV_NONE ? "not a string" : "missing");
			return -1;
		}
		k++;
	}
	if (loader_role_unknown(r, m)) {
		loader_note_role(r, m, run_text_of(r, parts), (long)i);
		return 0;
	}
	enum run_role role;
	if (loader_role(r, m, path, ROLE_ERRORS_SPLIT, &role, err) < 0)
		return -1;
	size_t mi = run_add_msg(r, role, MSG_IN_OUTPUT, NULL, m);
	r->msgs[mi].src_index = (long)i;
	enum call_requestor who = role == ROLE_USER ? REQ_USER : REQ_AGENT;
	JV_EACH(d, parts, p)
		sdk_add_part(r, mi, p, i, who);
	return 0;
}

static int sdk_load(struct run *r, struct error *err)
{
	jv rec = run_root(r);
	jv list;
	const char *where;
	int shape = loader_messages_or_array(r, rec, &list, &where, "an ai-sdk-v5 record must be "
	                                     "an array of messages or {messages}", err);
	if (shape < 0)
		return -1;
	if (shape == LOADER_OBJECT) {
		loader_tools(r, rec);
		r->model = loader_model(r, rec);
	}
	return loader_each(r, list, where, sdk_load_msg, NULL, err) < 0 ? -1 : 0;
}

const struct format_ops format_aisdk5 = {
	.name = "ai-sdk-v5",
	.summary = "Vercel AI SDK v5 UI messages with parts (tool-<name>, dynamic-tool)",
	.detect = sdk_detect,
	.load = sdk_load,
};
