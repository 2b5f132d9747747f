/* azure.c - Azure AI Evaluation agent input {query, response, tool_calls?,
 * tool_definitions?}.
 *
 * query and response are a string or a list of messages {role, content,
 * tool_call_id?}; content is a string or a list of typed items. Calls are
 * tool_call items (flat {tool_call_id, name, arguments} or nested
 * {tool_call: {id, function: {name, arguments}}}), or the Responses-style
 * function_call / openapi_call items Azure renames to tool_call before
 * judging. Results are role "tool" messages whose message-level
 * tool_call_id names the call, holding a tool_result item (or the
 * function_call_output / openapi_call_output equivalents).
 *
 * Where we differ from Azure's own join, on purpose: Azure reads only the
 * first content item of a tool message and lets a later message with the
 * same id overwrite an earlier one; we take the first result item wherever
 * it sits and give a repeated id to the nearest preceding unanswered call,
 * leaving a surplus result flagged as unmatched so the reviewer sees it.
 *
 * Azure has no error flag. A result that is a string starting with
 * "Error" is taken as a failed call, the convention of the tools Azure's
 * samples wrap; anything else counts as completed. */
#include <stdio.h>
#include <string.h>

#include "runs/format.h"
#include "runs/loader.h"
#include "util/error.h"

/* What Azure's samples start a failed tool's result with. */
#define AZURE_ERROR_PREFIX "Error"

static int azure_detect(const struct jdoc *d, jv rec)
{
	if (!jv_is_object(d, rec) || jv_get(d, rec, "query") == JV_NONE)
		return 0;
	if (jv_get(d, rec, "response") != JV_NONE)
		return 80;
	if (jv_get(d, rec, "tool_definitions") != JV_NONE || jv_get(d, rec, "tool_calls") != JV_NONE)
		return 60;
	return 0;
}

static bool type_is(const char *t, const char *a, const char *b, const char *c)
{
	return t && (strcmp(t, a) == 0 || strcmp(t, b) == 0 || (c && strcmp(t, c) == 0));
}

static bool azure_call_type(const char *t)
{
	return type_is(t, "tool_call", "function_call", "openapi_call");
}

static bool azure_result_type(const char *t)
{
	return type_is(t, "tool_result", "function_call_output", "openapi_call_output");
}

static bool azure_approval_type(const char *t)
{
	return type_is(t, "mcp_approval_request", "mcp_approval_response", NULL);
}

/* A result item's value: tool_result, or the key Azure renames to it
 * (named after the item type), or the Responses API's own output. */
static jv azure_result_value(const struct jdoc *d, jv item, const char *type)
{
	jv v = jv_get(d, item, "tool_result");
	if (v == JV_NONE && type)
		v = jv_get(d, item, type);
	if (v == JV_NONE)
		v = jv_get(d, item, "output");
	return v;
}

static bool azure_result_failed(const struct jdoc *d, jv v)
{
	return loader_is_error_text(jv_str(d, v), AZURE_ERROR_PREFIX);
}

/* The first of the id keys present: tool_call_id (flat items), call_id
 * (Responses items, whose "id" is the item's own), id (nested calls; a
 * result item's own id never names a call, so results skip it). */
static int azure_id_of(const struct jdoc *d, jv obj, bool is_call, jv *out, const char *path,
                       struct error *err)
{
	static const char *const keys[] = { "tool_call_id", "call_id", "id" };
	*out = JV_NONE;
	for (size_t k = 0; k < (is_call ? 3u : 2u); k++) {
		jv v = jv_get(d, obj, keys[k]);
		if (v == JV_NONE || jv_is_null(d, v))
			continue;
		if (!jv_is_string(d, v)) {
			error_at(err, ERR_FAILED, "%s.%s: not a string", path, keys[k]);
			return -1;
		}
		*out = v;
		return 0;
	}
	return 0;
}

/* Adds one call from a content item or a top-level tool_calls entry. */
static int azure_add_call(struct run *r, size_t mi, jv item, const char *path, long src_msg,
                          struct error *err)
{
	const struct jdoc *d = r->doc;
	char where[256];
	jv inner = item;
	snprintf(where, sizeof(where), "%s", path);
	jv nested = jv_get(d, item, "tool_call");
	if (nested != JV_NONE) {
		if (!jv_is_object(d, nested)) {
			error_at(err, ERR_FAILED, "%s.tool_call: not an object", path);
			return -1;
		}
		inner = nested;
		snprintf(where, sizeof(where), "%s.tool_call", path);
	}
	jv id;
	if (azure_id_of(d, inner, true, &id, where, err) < 0)
		return -1;
	jv fields = inner;
	jv fn = jv_get(d, inner, "function");
	if (fn != JV_NONE) {
		if (!jv_is_object(d, fn)) {
			error_at(err, ERR_FAILED, "%s.function: not an object", where);
			return -1;
		}
		fields = fn;
		snprintf(where + strlen(where), sizeof(where) - strlen(where), ".function");
	}
	jv name, args;
	if (loader_call_fields(r, fields, where, "not an object or a string", &name, &args,
	                       err) < 0)
		return -1;
	struct run_call *c = loader_add_call(r, mi, id, name, args, src_msg);
	/* Azure's own call lists carry the joined result on the call. */
	jv res = jv_get(d, item, "tool_result");
	if (res == JV_NONE && inner != item)
		res = jv_get(d, inner, "tool_result");
	if (res != JV_NONE) {
		bool failed = azure_result_failed(d, res);
		run_set_result(c, res, failed, failed ? jv_str(d, res) : NULL, -1);
	}
	return 0;
}

/* Checks a message's content items: -1 when one is neither a string nor
 * an object, 1 when the message is an MCP approval round trip (Azure drops
 * those before judging: they are neither calls nor conversation), else 0. */
static int azure_check_items(const struct jdoc *d, jv content, const char *path, struct error *err)
{
	size_t k = 0;
	JV_EACH(d, content, item) {
		if (jv_is_string(d, item)) {
			k++;
			continue;
		}
		if (!jv_is_object(d, item)) {
			error_at(err, ERR_FAILED, "%s.content[%zu]: not an object", path, k);
			return -1;
		}
		if (azure_approval_type(jv_str(d, jv_get(d, item, "type"))))
			return 1;
		k++;
	}
	return 0;
}

/* A tool message, or one carrying a result item (the first one counts):
 * its output, joined to its call by tool_call_id or the item's own id. */
static int azure_load_result(struct run *r, size_t mi, jv content, jv tcid, jv res_item,
                             const char *res_type, const char *ipath, struct error *err)
{
	const struct jdoc *d = r->doc;
	struct run_msg *msg = loader_tool_output(r, mi, jv_str(d, tcid), content);
	if (res_item != JV_NONE) {
		msg->result = azure_result_value(d, res_item, res_type);
		/* Responses-style outputs name their call on the item. */
		if (!msg->answers_call_id) {
			jv iid;
			if (azure_id_of(d, res_item, false, &iid, ipath, err) < 0)
				return -1;
			msg->answers_call_id = jv_str(d, iid);
		}
	}
	if (azure_result_failed(d, msg->result))
		loader_mark_failed(msg, jv_str(d, msg->result));
	if (!msg->answers_call_id)
		msg->unmatched_result = true;
	return 0;
}

/* Loads one message of query or response (ctx: its enum msg_origin).
 * Returns 1 when it made calls, 0 when not (or when it was dropped), -1 on
 * a malformed message. */
static int azure_load_msg(struct run *r, jv m, const char *path, size_t i, void *ctx,
                          struct error *err)
{
	const struct jdoc *d = r->doc;
	enum msg_origin origin = *(const enum msg_origin *)ctx;
	enum run_role role;
	jv content, tcid;
	if (loader_role(r, m, path, ROLE_ERRORS_JOINED, &role, err) < 0 ||
	    loader_content(r, m, path, &content, err) < 0 ||
	    loader_opt_string(r, m, "tool_call_id", path, &tcid, err) < 0)
		return -1;
	int items = azure_check_items(d, content, path, err);
	if (items != 0)
		return items < 0 ? -1 : 0;

	size_t mi = run_add_msg(r, role, origin, run_text_of(r, content), m);
	r->msgs[mi].src_index = (long)i;
	bool made_calls = false;
	jv res_item = JV_NONE;
	const char *res_type = NULL;
	char ipath[160], res_path[160] = "";
	size_t k = 0;
	JV_EACH(d, content, item) {
		const char *t = jv_str(d, jv_get(d, item, "type"));
		snprintf(ipath, sizeof(ipath), "%s.content[%zu]", path, k++);
		if (azure_call_type(t)) {
			if (azure_add_call(r, mi, item, ipath, (long)i, err) < 0)
				return -1;
			made_calls = true;
		} else if (azure_result_type(t) && res_item == JV_NONE) {
			res_item = item;
			res_type = t;
			memcpy(res_path, ipath, sizeof res_path);
		}
	}
	if (role != ROLE_TOOL && res_item == JV_NONE)
		return made_calls;
	if (azure_load_result(r, mi, content, tcid, res_item, res_type, res_path, err) < 0)
		return -1;
	return made_calls;
}

/* query or response: a string is one message of the given role. Returns
 * the number of messages that made calls, or -1. */
static int azure_load_side(struct run *r, jv v, const char *list, enum msg_origin origin,
                           enum run_role string_role, struct error *err)
{
	const struct jdoc *d = r->doc;
	if (v == JV_NONE || jv_is_null(d, v))
		return 0;
	if (jv_is_string(d, v)) {
		if (jv_strlen(d, v))
			run_add_msg(r, string_role, origin, jv_str(d, v), v);
		return 0;
	}
	if (!jv_is_array(d, v)) {
		error_at(err, ERR_FAILED, "%s: not a string or a list", list);
		return -1;
	}
	return loader_each(r, v, list, azure_load_msg, &origin, err);
}

/* The top-level tool_calls, used only when the response gave none (as
 * Azure does), shown as one assistant message after the response. */
static int azure_load_tool_calls(struct run *r, jv tcs, struct error *err)
{
	const struct jdoc *d = r->doc;
	bool is_list = jv_is_array(d, tcs);
	if (!jv_is_object(d, tcs) && !is_list) {
		error_at(err, ERR_FAILED, "tool_calls: not an object or a list");
		return -1;
	}
	if (is_list) {
		size_t j = 0;
		JV_EACH(d, tcs, item) {
			if (!jv_is_object(d, item)) {
				error_at(err, ERR_FAILED, "tool_calls[%zu]: not an object", j);
				return -1;
			}
			j++;
		}
		if (j == 0)
			return 0;
	}
	size_t mi = run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, "", tcs);
	if (!is_list)
		return azure_add_call(r, mi, tcs, "tool_calls", -1, err) < 0 ? -1 : 0;
	size_t j = 0;
	JV_EACH(d, tcs, item) {
		char path[48];
		snprintf(path, sizeof(path), "tool_calls[%zu]", j++);
		if (azure_add_call(r, mi, item, path, -1, err) < 0)
			return -1;
	}
	return 0;
}

static int azure_load(struct run *r, struct error *err)
{
	const struct jdoc *d = r->doc;
	jv rec = run_root(r);
	if (!jv_is_object(d, rec)) {
		error_at(err, ERR_FAILED, "an Azure evaluation input must be a JSON object");
		return -1;
	}
	jv query = jv_get(d, rec, "query");
	if (query == JV_NONE || jv_is_null(d, query)) {
		error_at(err, ERR_MISSING, "query: missing");
		return -1;
	}
	jv defs = jv_get(d, rec, "tool_definitions");
	if (jv_is_array(d, defs) || jv_is_object(d, defs))
		r->tool_defs = defs;
	r->model = loader_model(r, rec);
	if (azure_load_side(r, query, "query", MSG_IN_INPUT, ROLE_USER, err) < 0)
		return -1;
	int with_calls = azure_load_side(r, jv_get(d, rec, "response"), "response",
	                                 MSG_IN_OUTPUT, ROLE_ASSISTANT, err);
	if (with_calls < 0)
		return -1;
	jv tcs = jv_get(d, rec, "tool_calls");
	if (with_calls == 0 && tcs != JV_NONE && !jv_is_null(d, tcs) &&
	    azure_load_tool_calls(r, tcs, err) < 0)
		return -1;
	run_join_results(r);
	return 0;
}

const struct format_ops format_azure = {
	.name = "azure",
	.summary = "Azure AI Evaluation agent input {query, response, tool_definitions}",
	.detect = azure_detect,
	.load = azure_load,
};
