/* openai_agents.c - the OpenAI Agents SDK's serialized run state
 * (RunState.to_json): {"$schemaVersion", original_input, generated_items:
 * [{type, raw_item}], ...}.
 *
 * original_input (a string: one user message, or a list of Responses
 * items) is what the run was started with, context as a Responses
 * request's input is; then each generated item's raw_item, a Responses
 * item read by the same rules as openai-responses (openai_responses.h).
 * A tool_approval_item holds again the function_call of the tool_call_item
 * before it, waiting for approval: it adds no second call. */
#include <stdio.h>
#include <string.h>

#include "runs/format.h"
#include "runs/loader.h"
#include "openai_responses.h"
#include "util/error.h"

static int agents_detect(const struct jdoc *d, jv rec)
{
	if (!jv_is_object(d, rec))
		return 0;
	jv gen = jv_get(d, rec, "generated_items");
	if (jv_get(d, rec, "$schemaVersion") == JV_NONE || !jv_is_array(d, gen) ||
	    jv_get(d, rec, "original_input") == JV_NONE)
		return 0;
	return 80;
}

static int agents_generated(struct run *r, jv g, const char *path, size_t i, void *ctx,
                            struct error *err)
{
	(void)ctx;
	const struct jdoc *d = r->doc;
	jv type = jv_get(d, g, "type");
	if (type != JV_NONE && !jv_is_string(d, type)) {
		error_at(err, ERR_FAILED, "%s.type: not a string", path);
		return -1;
	}
	if (jv_streq(d, type, "tool_approval_item"))
		return 0;
	jv raw = jv_get(d, g, "raw_item");
	char where[256];
	snprintf(where, sizeof(where), "%s.raw_item", path);
	if (raw == JV_NONE) {
		error_at(err, ERR_MISSING, "%s: missing", where);
		return -1;
	}
	if (!jv_is_object(d, raw)) {
		error_at(err, ERR_FAILED, "%s: not an object", where);
		return -1;
	}
	return resp_read_item(r, raw, where, i, NULL, err) < 0 ? -1 : 0;
}

static int agents_load(struct run *r, struct error *err)
{
	const struct jdoc *d = r->doc;
	jv rec = run_root(r);
	if (!jv_is_object(d, rec)) {
		error_at(err, ERR_FAILED, "an openai-agents record must be an object");
		return -1;
	}
	jv in = jv_get(d, rec, "original_input"), gen = jv_get(d, rec, "generated_items");
	if (gen != JV_NONE && !jv_is_null(d, gen) && !jv_is_array(d, gen)) {
		error_at(err, ERR_FAILED, "generated_items: not an array");
		return -1;
	}
	if (jv_is_string(d, in)) {
		run_add_msg(r, ROLE_USER, MSG_IN_INPUT, jv_str(d, in), in);
	} else if (jv_is_array(d, in)) {
		size_t first = r->nmsgs;
		if (loader_each(r, in, "original_input", resp_read_item, NULL, err) < 0)
			return -1;
		for (size_t i = first; i < r->nmsgs; i++)
			r->msgs[i].origin = MSG_IN_INPUT;
	} else if (in != JV_NONE && !jv_is_null(d, in)) {
		error_at(err, ERR_FAILED, "original_input: not an array or a string");
		return -1;
	}
	if (loader_each(r, gen, "generated_items", agents_generated, NULL, err) < 0)
		return -1;
	run_join_results(r);
	return 0;
}

const struct format_ops format_openai_agents = {
	.name = "openai-agents",
	.summary = "OpenAI Agents SDK run state: original_input, then generated_items' raw items",
	.detect = agents_detect,
	.load = agents_load,
};
