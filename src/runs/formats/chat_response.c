/* chat_response.c - one Chat Completions response: {id, object:
 * "chat.completion", model, choices: [{index, message, finish_reason}],
 * usage}, as OpenAI, xAI, Groq, Mistral, DeepSeek, vLLM and other
 * compatible servers return it.
 *
 * The run is what the model answered: each choice's message becomes an
 * assistant message, in the record's order (n > 1 gives several), with its
 * text and tool_calls. There is no conversation before it, so no user turn
 * and no results. reasoning_content (DeepSeek, vLLM) or reasoning is a
 * thinking part before the text, out of the text scorers read. A role this
 * loader does not know is still the model's turn. */
#include <stdio.h>
#include <string.h>

#include "runs/format.h"
#include "runs/loader.h"
#include "util/error.h"

/* A choice that looks like a completion's: an object with a message
 * object (a streamed chunk has delta instead and is not a response). */
static bool resp_choice(const struct jdoc *d, jv ch)
{
	return jv_is_object(d, jv_get(d, ch, "message"));
}

static int resp_detect(const struct jdoc *d, jv rec)
{
	if (!jv_is_object(d, rec))
		return 0;
	jv choices = jv_get(d, rec, "choices");
	if (!jv_is_array(d, choices) || jv_get(d, rec, "messages") != JV_NONE)
		return 0;
	size_t seen = 0;
	JV_EACH(d, choices, ch) {
		if (!resp_choice(d, ch))
			return 0;
		seen++;
	}
	if (!seen)
		return 0;
	/* The object tag is the format's own word; without it (some
	 * compatible servers drop it) choices of messages still are. */
	return jv_streq(d, jv_get(d, rec, "object"), "chat.completion") ? 50 : 35;
}

/* Entry k of a message's tool_calls, at path "P.tool_calls[k]". */
static int resp_tool_call(struct run *r, jv tc, const char *path, size_t i, void *ctx,
                          struct error *err)
{
	const struct jdoc *d = r->doc;
	size_t mi = *(size_t *)ctx;
	jv id, type;
	if (loader_opt_string(r, tc, "id", path, &id, err) < 0 ||
	    loader_opt_string(r, tc, "type", path, &type, err) < 0)
		return -1;
	/* Mistral leaves type out; function is the only type it knows. */
	const char *ty = jv_str_or(d, type, "function");
	jv body = jv_get(d, tc, ty);
	char bpath[160];
	snprintf(bpath, sizeof(bpath), "%s.%s", path, ty);
	jv name = JV_NONE, args = JV_NONE;
	if (!strcmp(ty, "function")) {
		if (!jv_is_object(d, body)) {
			error_at(err, ERR_FAILED, "%s: not an object", bpath);
			return -1;
		}
		if (loader_call_fields(r, body, bpath, "not an object or a string", &name, &args,
		                       err) < 0)
			return -1;
	} else if (jv_is_object(d, body)) {
		/* custom {name, input} and types newer than this loader. */
		name = jv_get(d, body, "name");
		args = jv_get(d, body, "input");
	}
	struct run_call *c = loader_add_call(r, mi, id, name, args, (long)i);
	c->id = loader_id(r, id);
	if (!jv_is_string(d, name))
		c->name = ty;
	return 1;
}

/* The message with its parts: DeepSeek and vLLM return the reasoning
 * beside the answer; it comes first, and is not the text scorers read. */
static size_t resp_add_message(struct run *r, enum run_role role, jv m, const char *text,
                               size_t i)
{
	const struct jdoc *d = r->doc;
	size_t mi = run_add_msg(r, role, MSG_IN_OUTPUT, NULL, m);
	r->msgs[mi].src_index = (long)i;
	jv reasoning = jv_get(d, m, "reasoning_content");
	if (!jv_is_string(d, reasoning))
		reasoning = jv_get(d, m, "reasoning");
	if (jv_is_string(d, reasoning) && jv_strlen(d, reasoning))
		run_add_thinking(r, mi, jv_str(d, reasoning), reasoning);
	run_add_text(r, mi, text, JV_NONE);
	return mi;
}

/* Choice i: its message as one assistant message. */
static int resp_choice_load(struct run *r, jv ch, const char *path, size_t i, void *ctx,
                            struct error *err)
{
	(void)ctx;
	const struct jdoc *d = r->doc;
	char mpath[128];
	snprintf(mpath, sizeof(mpath), "%s.message", path);
	jv m = jv_get(d, ch, "message");
	if (!jv_is_object(d, m)) {
		error_at(err, m == JV_NONE ? ERR_MISSING : ERR_FAILED, "%s: %s", mpath, m == JV_NONE ? "missing" : "not an object");
		return -1;
	}
	jv role, content, calls;
	if (loader_opt_string(r, m, "role", mpath, &role, err) < 0 ||
	    loader_content(r, m, mpath, &content, err) < 0 ||
	    loader_opt_array(r, m, "tool_calls", mpath, "not an array", &calls, err) < 0)
		return -1;
	jv fc = jv_get(d, m, "function_call");
	char fpath[160];
	snprintf(fpath, sizeof(fpath), "%s.function_call", mpath);
	jv fname = JV_NONE, fargs = JV_NONE;
	bool has_fc = fc != JV_NONE && !jv_is_null(d, fc);
	if (has_fc) {
		if (!jv_is_object(d, fc)) {
			error_at(err, ERR_FAILED, "%s: not an object", fpath);
			return -1;
		}
		if (loader_call_fields(r, fc, fpath, "not an object or a string", &fname, &fargs,
		                       err) < 0)
			return -1;
	}
	/* A response's message is the model's whatever it calls itself; a
	 * role this loader does not know is kept as the model's turn. */
	bool known = false;
	enum run_role rr = ROLE_ASSISTANT;
	if (jv_is_string(d, role))
		rr = run_role_parse(jv_str(d, role), &known);
	if (!known)
		rr = ROLE_ASSISTANT;
	const char *text = run_text_of(r, content);
	/* A refusal is the model's answer; scorers of the final text see it. */
	if (!text[0])
		text = loader_str(r, jv_get(d, m, "refusal"), "");
	size_t mi = resp_add_message(r, rr, m, text, i);
	size_t first = r->ncalls;
	int n = loader_each_field(r, calls, mpath, "tool_calls", resp_tool_call, &mi, err);
	if (n < 0)
		return -1;
	/* resp_tool_call is given its index among the calls; the call's
	 * source message is the choice. */
	for (size_t k = first; k < r->ncalls; k++)
		r->calls[k].src_msg_index = (long)i;
	if (has_fc) {
		/* The legacy function_call has no id. */
		loader_add_call(r, mi, JV_NONE, fname, fargs, (long)i);
		n++;
	}
	return n;
}

static int resp_load(struct run *r, struct error *err)
{
	jv rec = run_root(r);
	if (!jv_is_object(r->doc, rec)) {
		error_at(err, ERR_FAILED, "a chat-completions-response record must be an object");
		return -1;
	}
	r->model = loader_model(r, rec);
	jv choices;
	if (loader_array(r, rec, "choices", &choices, err) < 0)
		return -1;
	if (loader_each(r, choices, "choices", resp_choice_load, NULL, err) < 0)
		return -1;
	return 0;
}

const struct format_ops format_chat_response = {
	.name = "chat-completions-response",
	.summary = "one Chat Completions response {object: chat.completion, model, choices: [{message}]}",
	.detect = resp_detect,
	.load = resp_load,
};
