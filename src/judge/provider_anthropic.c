/* provider_anthropic.c - Anthropic's Messages API.
 *
 *   {base_url | $ANTHROPIC_BASE_URL | https://api.anthropic.com}/v1/messages
 *   (a base ending in /v1 is not given a second one),
 *   x-api-key: $ANTHROPIC_API_KEY, anthropic-version: 2023-06-01
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "provider_int.h"
#include "util/error.h"

#define ANTHROPIC_DEFAULT_BASE "https://api.anthropic.com"
#define ANTHROPIC_VERSION "2023-06-01"
/* Anthropic requires max_tokens; a verdict with its reasons fits easily. */
#define ANTHROPIC_MAX_TOKENS 2048

static const char *const anthropic_hosts[] = { "api.anthropic.com", NULL };

static int anthropic_body(const struct judge_conf *j, const struct judge_prompt *p,
                          struct http_req *req, struct error *err)
{
	/* The Messages API has no JSON-schema output, so the schema is spelled
	 * out where the model reads it. */
	struct strbuf user = STRBUF_INIT;
	strbuf_addstr(&user, p->user);
	if (p->structured && p->schema) {
		char *s = json_dumps(p->schema, JSON_INDENT(2));
		strbuf_addstr(&user, "\n\nYour answer must be only a JSON object, with no other text "
		                     "before or after it, that matches this JSON Schema:\n");
		strbuf_addstr(&user, s ? s : "{}");
		free(s);
	}
	json_t *body = json_object();
	json_object_set_new(body, "model", json_string(j->model ? j->model : ""));
	json_object_set_new(body, "max_tokens", json_integer(ANTHROPIC_MAX_TOKENS));
	if (p->system && *p->system)
		json_object_set_new(body, "system", text_of(p->system));
	json_t *msgs = json_array();
	json_array_append_new(msgs, json_pack("{s:s,s:o}", "role", "user", "content",
	                                      text_of(user.buf)));
	json_object_set_new(body, "messages", msgs);
	json_object_set_new(body, "temperature", json_integer(0));
	strbuf_release(&user);
	return req_set_body(req, body, err);
}

static const char *anthropic_base(const struct judge_conf *j)
{
	const char *base = nonempty(j->base_url);
	if (!base)
		base = nonempty(getenv("ANTHROPIC_BASE_URL"));
	return base ? base : ANTHROPIC_DEFAULT_BASE;
}

/* The AI SDK's base URL ends in /v1, Anthropic's own SDKs' does not: both
 * ask /v1/messages. */
static int anthropic_request(const struct judge_conf *j, const struct judge_prompt *p,
                             struct http_req *req, struct error *err)
{
	if (req_start(req, j, join_versioned(anthropic_base(j), "/v1", "/messages", true),
	              err) < 0)
		return -1;
	req_add_key_header(req, "x-api-key", "", j);
	req_add_header(req, "anthropic-version: " ANTHROPIC_VERSION);
	return anthropic_body(j, p, req, err);
}

static int anthropic_reply(const struct judge_conf *j, long status, const char *body, size_t len,
                           char **text, struct judge_reply *reply, struct error *err)
{
	json_t *o = reply_open(j, status, body, len, text, reply, err);
	if (!o)
		return -1;
	struct strbuf sb = STRBUF_INIT;
	const char *stop = NULL;
	json_t *content = json_object_get(o, "content");
	if (json_is_array(content)) {
		content_text(content, &sb);
		json_t *sr = json_object_get(o, "stop_reason");
		if (json_is_string(sr))
			stop = json_string_value(sr);
		json_t *usage = json_object_get(o, "usage");
		reply->prompt_tokens = usage_num(usage, "input_tokens");
		reply->completion_tokens = usage_num(usage, "output_tokens");
	}
	int rc = reply_finish(j, &sb, NULL, stop, text, err);
	json_decref(o);
	return rc;
}

const struct provider_ops provider_anthropic = {
	.kind = PROVIDER_ANTHROPIC,
	.prefix = "anthropic/",
	.name = "Anthropic",
	.key_env = "ANTHROPIC_API_KEY",
	.structured_output = false,     /* the Messages API has no response format */
	.request = anthropic_request,
	.reply = anthropic_reply,
	.id = "anthropic",
	.key_required = true,
	.own_hosts = anthropic_hosts,
	.base = anthropic_base,
};
