/* openai_agents_js.c - the OpenAI Agents SDK for JavaScript's run state (RunState.toJSON).
 *
 * {"$schemaVersion", currentAgent: {name}, originalInput, generatedItems:
 * [{type, rawItem}], modelResponses: [{output: [...]}], context: {approvals,
 * functionApprovals, ...}, ...}: the Python SDK's state (openai_agents.c)
 * in camelCase, and its items are the JS SDK's own protocol items, not the
 * Responses API's: function_call {callId, name, arguments},
 * function_call_result {callId, output}, hosted_tool_call {name, arguments,
 * output}, computer_call / shell_call / apply_patch_call {callId, action or
 * operation} and their *_result or *_output, reasoning {content}, message
 * {role, content}.
 *
 * originalInput (a string or a list of items) starts the run, then the
 * generated items in order. modelResponses hold the model's outputs again:
 * an item of theirs is read only when no generated item has its id or
 * call id (a call shown twice counts once), and one with neither only when
 * there are no generated items at all. A tool_approval_item repeats a call
 * waiting for approval, and the context's approval records are the SDK's
 * bookkeeping of which calls were allowed: notes, not calls. A state with
 * no items (a fresh or a server-side conversation) is a run of its input. */
#include <stdio.h>
#include <string.h>

#include "runs/format.h"
#include "runs/loader.h"
#include "util/error.h"

struct js_ctx {
	struct htab seen;           /* ids and call ids of the items read */
	struct htab calls;          /* call ids of the calls read */
	bool from_model;            /* reading modelResponses: skip what was seen */
	size_t ngenerated;
};

static int js_detect(const struct jdoc *d, jv rec)
{
	if (!jv_is_object(d, rec) || jv_get(d, rec, "$schemaVersion") == JV_NONE)
		return 0;
	if (!jv_is_array(d, jv_get(d, rec, "generatedItems")) ||
	    jv_get(d, rec, "originalInput") == JV_NONE)
		return 0;
	return 80;
}

/* The text of a content: a string, or the text (or refusal) of its parts;
 * other parts are notes of message mi. */
static void js_content(struct run *r, size_t mi, jv content)
{
	const struct jdoc *d = r->doc;
	if (jv_is_string(d, content)) {
		run_add_text(r, mi, jv_str(d, content), content);
		return;
	}
	JV_EACH(d, content, p) {
		jv text = jv_get(d, p, "text");
		if (!jv_is_string(d, text))
			text = jv_get(d, p, "refusal");
		if (jv_is_string(d, text))
			run_add_text(r, mi, jv_str(d, text), p);
		else
			run_add_note(r, mi, p, "content part \"%s\" (not read)",
			             loader_str(r, jv_get(d, p, "type"), "?"));
	}
}

static int js_message(struct run *r, jv it, const char *path, size_t i, struct error *err)
{
	enum run_role role;
	jv content;
	if (loader_role(r, it, path, ROLE_ERRORS_SPLIT, &role, err) < 0 ||
	    loader_content(r, it, path, &content, err) < 0)
		return -1;
	size_t mi = run_add_msg(r, role, MSG_IN_OUTPUT, NULL, it);
	r->msgs[mi].src_index = (long)i;
	js_content(r, mi, content);
	return 0;
}

/* A call the model made: function_call, a hosted tool, or a computer,
 * shell or patch action named after its type ("shell_call" is "shell"). */
static void js_call(struct run *r, jv it, const char *type, size_t i)
{
	const struct jdoc *d = r->doc;
	size_t mi = run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, NULL, it);
	r->msgs[mi].src_index = (long)i;
	jv id = jv_get(d, it, "callId");
	if (id == JV_NONE)
		id = jv_get(d, it, "id");
	jv args = jv_get(d, it, "arguments");
	if (args == JV_NONE)
		args = jv_get(d, it, "action");
	if (args == JV_NONE)
		args = jv_get(d, it, "operation");
	struct run_call *c = loader_add_call(r, mi, id, jv_get(d, it, "name"), args, (long)i);
	c->id = loader_id(r, id);
	if (!jv_is_string(d, c->raw_name)) {
		char name[128];
		snprintf(name, sizeof(name), "%.*s", (int)(strlen(type) - strlen("_call")), type);
		c->name = run_strdup(r, name);
	}
	jv output = jv_get(d, it, "output");
	const char *status = loader_str(r, jv_get(d, it, "status"), "");
	if (!strcmp(type, "hosted_tool_call") && output != JV_NONE && !jv_is_null(d, output))
		run_set_result(c, output, !strcmp(status, "failed"),
		               !strcmp(status, "failed") ? "failed" : NULL, -1);
}

/* A call's result: a tool message answering callId. */
static void js_result(struct run *r, jv it, size_t i)
{
	const struct jdoc *d = r->doc;
	jv output = jv_get(d, it, "output");
	jv text = jv_get(d, output, "text");
	size_t mi = run_add_msg(r, ROLE_TOOL, MSG_IN_OUTPUT,
	                        jv_is_string(d, output) ? jv_str(d, output) : jv_str_or(d, text, ""),
	                        it);
	r->msgs[mi].src_index = (long)i;
	struct run_msg *m = loader_tool_output(r, mi, loader_id(r, jv_get(d, it, "callId")), output);
	const char *status = loader_str(r, jv_get(d, it, "status"), "");
	if (!strcmp(status, "incomplete") || !strcmp(status, "failed"))
		loader_mark_failed(m, m->text);
}

static void js_reasoning(struct run *r, jv it, size_t i)
{
	const struct jdoc *d = r->doc;
	size_t mi = run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, NULL, it);
	r->msgs[mi].src_index = (long)i;
	size_t n = 0;
	JV_EACH(d, jv_get(d, it, "content"), p) {
		if (jv_is_string(d, jv_get(d, p, "text"))) {
			run_add_thinking(r, mi, jv_str(d, jv_get(d, p, "text")), p);
			n++;
		}
	}
	if (!n)
		run_add_thinking(r, mi, "", it);
}

/* Whether an item repeats one already read: a call whose call id was a
 * call's before, or an item of modelResponses a generated item showed. */
static bool js_repeated(struct js_ctx *c, const struct jdoc *d, jv it)
{
	const char *id = jv_str(d, jv_get(d, it, "id"));
	const char *call_id = jv_str(d, jv_get(d, it, "callId"));
	const char *type = jv_str(d, jv_get(d, it, "type"));
	if (type && loader_ends_with(type, "_call") && loader_seen(&c->calls, call_id))
		return true;
	if (!c->from_model) {
		loader_seen(&c->seen, id);
		loader_seen(&c->seen, call_id);
		return false;
	}
	if (!id && !call_id)
		return c->ngenerated > 0;
	bool seen = loader_seen(&c->seen, id);
	return loader_seen(&c->seen, call_id) || seen;
}

/* One protocol item, at path, index i of its list. */
static int js_item(struct run *r, jv it, const char *path, size_t i, void *ctx, struct error *err)
{
	const struct jdoc *d = r->doc;
	jv tv = jv_get(d, it, "type");
	if (tv != JV_NONE && !jv_is_string(d, tv)) {
		error_at(err, ERR_FAILED, "%s.type: not a string", path);
		return -1;
	}
	if (ctx && js_repeated(ctx, d, it))
		return 0;
	const char *type = jv_str_or(d, tv, "message");
	if (!strcmp(type, "message"))
		return js_message(r, it, path, i, err);
	if (!strcmp(type, "reasoning"))
		js_reasoning(r, it, i);
	else if (loader_ends_with(type, "_call"))
		js_call(r, it, type, i);
	else if (loader_ends_with(type, "_result") || loader_ends_with(type, "_output"))
		js_result(r, it, i);
	else
		run_add_note_msg(r, MSG_IN_OUTPUT, it, "item \"%s\" (not read)", type);
	return 0;
}

static int js_generated(struct run *r, jv g, const char *path, size_t i, void *ctx, struct error *err)
{
	const struct jdoc *d = r->doc;
	jv type;
	if (loader_opt_string(r, g, "type", path, &type, err) < 0)
		return -1;
	jv raw = jv_get(d, g, "rawItem");
	char where[256];
	snprintf(where, sizeof(where), "%s.rawItem", path);
	if (!jv_is_object(d, raw)) {
		error_at(err, raw == JV_NONE ? ERR_MISSING : ERR_FAILED, "%s: %s", where, raw == JV_NONE ? "missing" : "not an object");
		return -1;
	}
	if (jv_streq(d, type, "tool_approval_item")) {
		run_add_note_msg(r, MSG_IN_OUTPUT, g, "approval asked for %s (%s)",
		                 loader_str(r, jv_get(d, raw, "name"), "a tool"),
		                 loader_str(r, jv_get(d, raw, "callId"), "no call id"));
		return 0;
	}
	return js_item(r, raw, where, i, ctx, err);
}

static int js_response(struct run *r, jv resp, const char *path, size_t i, void *ctx, struct error *err)
{
	(void)i;
	jv out;
	if (loader_opt_array(r, resp, "output", path, "not an array", &out, err) < 0)
		return -1;
	char where[160];
	snprintf(where, sizeof(where), "%s.output", path);
	return loader_each(r, out, where, js_item, ctx, err);
}

/* The context's approval records, each a note: who may run which tool. */
static void js_approvals(struct run *r, jv approvals, const char *agent)
{
	const struct jdoc *d = r->doc;
	JV_EACH_KEY(d, approvals, k)
		run_add_note_msg(r, MSG_IN_OUTPUT, jv_value(k), "approval record%s%s for tool %s",
		                 agent ? " of " : "", agent ? agent : "", jv_str(d, k));
}

static int js_input(struct run *r, jv in, struct error *err)
{
	const struct jdoc *d = r->doc;
	if (jv_is_string(d, in))
		run_add_msg(r, ROLE_USER, MSG_IN_INPUT, jv_str(d, in), in);
	else if (jv_is_array(d, in))
		return loader_each(r, in, "originalInput", js_item, NULL, err);
	else if (!jv_is_null(d, in)) {
		error_at(err, in == JV_NONE ? ERR_MISSING : ERR_FAILED, "originalInput: %s",
		         in == JV_NONE ? "missing" : "not an array or a string");
		return -1;
	}
	return 0;
}

static int js_load(struct run *r, struct error *err)
{
	const struct jdoc *d = r->doc;
	jv rec = run_root(r);
	if (!jv_is_object(d, rec)) {
		error_at(err, ERR_FAILED, "an openai-agents-js record must be an object");
		return -1;
	}
	jv gen = jv_get(d, rec, "generatedItems"), resps = jv_get(d, rec, "modelResponses");
	const char *bad = !jv_is_array(d, gen) && !jv_is_null(d, gen) && gen != JV_NONE
	                  ? "generatedItems"
	                  : !jv_is_array(d, resps) && !jv_is_null(d, resps) && resps != JV_NONE
	                  ? "modelResponses" : NULL;
	if (bad) {
		error_at(err, ERR_FAILED, "%s: not an array", bad);
		return -1;
	}
	size_t first = r->nmsgs;
	if (js_input(r, jv_get(d, rec, "originalInput"), err) < 0)
		return -1;
	for (size_t i = first; i < r->nmsgs; i++)
		r->msgs[i].origin = MSG_IN_INPUT;
	struct js_ctx c = { HTAB_INIT, HTAB_INIT, false, jv_len(d, gen) };
	int rc = loader_each(r, gen, "generatedItems", js_generated, &c, err);
	c.from_model = true;
	if (rc >= 0)
		rc = loader_each(r, resps, "modelResponses", js_response, &c, err);
	htab_free(&c.seen);
	htab_free(&c.calls);
	if (rc < 0)
		return -1;
	jv ctx = jv_get(d, rec, "context");
	js_approvals(r, jv_get(d, ctx, "approvals"), NULL);
	JV_EACH(d, jv_get(d, ctx, "functionApprovals"), a)
		js_approvals(r, jv_get(d, a, "approvals"),
		             loader_str(r, jv_get(d, a, "agentIdentity"), NULL));
	r->id = loader_str(r, jv_get(d, rec, "conversationId"), r->id);
	run_join_results(r);
	return 0;
}

const struct format_ops format_openai_agents_js = {
	.name = "openai-agents-js",
	.summary = "OpenAI Agents SDK for JavaScript run state: originalInput, then generatedItems' "
	           "rawItem (camelCase)",
	.detect = js_detect,
	.load = js_load,
};
