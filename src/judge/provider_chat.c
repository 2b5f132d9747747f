/* provider_chat.c - OpenAI's Chat Completions: OpenAI itself, any
 * compatible server at base_url, and Ollama; Azure uses its body and its
 * answers too.
 *
 *   openai     {base_url | $OPENAI_BASE_URL | https://api.openai.com/v1}/chat/completions,
 *              Authorization: Bearer $OPENAI_API_KEY (required)
 *   compat     {base_url}/chat/completions; a key only from api_key_env, and
 *              only when that variable is set: an OpenAI key is never sent
 *              to some other server unless the configuration says so
 *   ollama     {base_url | http://localhost:11434/v1}/chat/completions, no key
 *              (api_key_env may name one, for a server behind a proxy)
 *
 * A base written with no path at all ("http://localhost:8000") is given
 * /v1, where every one of these serves Chat Completions; a base with a
 * path is taken as it is ("https://host/v1beta/openai").
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "provider_int.h"
#include "util/xalloc.h"
#include "util/error.h"

#define OPENAI_DEFAULT_BASE "https://api.openai.com/v1"
#define OLLAMA_DEFAULT_BASE "http://localhost:11434/v1"

static const char *const openai_hosts[] = { "api.openai.com", NULL };

static bool is_object_schema(json_t *s)
{
	json_t *type = json_object_get(s, "type");
	if (json_is_object(json_object_get(s, "properties")) ||
	    (json_is_string(type) && !strcmp(json_string_value(type), "object")))
		return true;
	size_t i;
	json_t *t;
	if (json_is_array(type))
		json_array_foreach(type, i, t)
			if (json_is_string(t) && !strcmp(json_string_value(t), "object"))
				return true;
	return false;
}

static void strictify(json_t *s);

/* Closes an object schema: additionalProperties false, every property required. */
static void strictify_object(json_t *s)
{
	json_t *props = json_object_get(s, "properties");
	json_object_set_new(s, "additionalProperties", json_false());
	json_t *req = json_array();
	if (json_is_object(props)) {
		const char *k;
		json_t *v;
		json_object_foreach(props, k, v) {
			json_array_append_new(req, json_string(k));
			strictify(v);
		}
	} else {
		json_object_set_new(s, "properties", json_object());
	}
	json_object_set_new(s, "required", req);
}

/* The schema in the form OpenAI's strict mode accepts: every object closed
 * (additionalProperties false) with all its properties required, at every
 * depth. The rubric's own schema is left as it is: the answer is checked
 * against that one, so a model may still leave out what it allows. */
static void strictify(json_t *s)
{
	if (json_is_array(s)) {
		size_t i;
		json_t *v;
		json_array_foreach(s, i, v)
			strictify(v);
		return;
	}
	if (!json_is_object(s))
		return;
	if (is_object_schema(s))
		strictify_object(s);
	static const char *const subs[] = {
		"items", "prefixItems", "anyOf", "oneOf", "allOf", "not",
		"$defs", "definitions", "additionalItems",
	};
	for (size_t i = 0; i < sizeof subs / sizeof *subs; i++) {
		json_t *v = json_object_get(s, subs[i]);
		if (!v)
			continue;
		if (!strcmp(subs[i], "$defs") || !strcmp(subs[i], "definitions")) {
			const char *k;
			json_t *d;
			if (json_is_object(v))
				json_object_foreach(v, k, d)
					strictify(d);
		} else {
			strictify(v);
		}
	}
}

/* OpenAI's response format names: a-z, A-Z, 0-9, '_' and '-', 64 at most. */
static json_t *schema_name(const char *name)
{
	char out[65];
	size_t n = 0;
	for (const char *p = name ? name : ""; *p && n < 64; p++)
		out[n++] = (isalnum((unsigned char)*p) || *p == '_' || *p == '-') ? *p : '_';
	out[n] = '\0';
	return json_string(n ? out : "answer");
}

int chat_body(const struct judge_conf *j, const struct judge_prompt *p, bool with_model,
              struct http_req *req, struct error *err)
{
	json_t *body = json_object();
	if (with_model)
		json_object_set_new(body, "model", json_string(j->model ? j->model : ""));
	json_t *msgs = json_array();
	if (p->system && *p->system)
		json_array_append_new(msgs, json_pack("{s:s,s:o}", "role", "system",
		                                      "content", text_of(p->system)));
	json_array_append_new(msgs, json_pack("{s:s,s:o}", "role", "user", "content", text_of(p->user)));
	json_object_set_new(body, "messages", msgs);
	json_object_set_new(body, "temperature", json_integer(0));
	if (p->structured && p->schema) {
		json_t *schema = json_deep_copy(p->schema);
		strictify(schema);
		json_t *js = json_object();
		json_object_set_new(js, "name", schema_name(p->schema_name));
		json_object_set_new(js, "strict", json_true());
		json_object_set_new(js, "schema", schema);
		json_object_set_new(body, "response_format",
		                    json_pack("{s:s,s:o}", "type", "json_schema", "json_schema", js));
	}
	return req_set_body(req, body, err);
}

int chat_reply(const struct judge_conf *j, long status, const char *body, size_t len,
               char **text, struct judge_reply *reply, struct error *err)
{
	json_t *o = reply_open(j, status, body, len, text, reply, err);
	if (!o)
		return -1;
	struct strbuf sb = STRBUF_INIT;
	const char *stop = NULL;
	const char *refusal = NULL;
	json_t *choices = json_object_get(o, "choices");
	if (json_is_array(choices)) {
		json_t *c0 = json_array_get(choices, 0);
		json_t *msg = json_object_get(c0, "message");
		content_text(json_object_get(msg, "content"), &sb);
		json_t *r = json_object_get(msg, "refusal");
		if (json_is_string(r))
			refusal = json_string_value(r);
		json_t *fr = json_object_get(c0, "finish_reason");
		if (json_is_string(fr))
			stop = json_string_value(fr);
		json_t *usage = json_object_get(o, "usage");
		reply->prompt_tokens = usage_num(usage, "prompt_tokens");
		reply->completion_tokens = usage_num(usage, "completion_tokens");
	}
	int rc = reply_finish(j, &sb, refusal, stop, text, err);
	json_decref(o);
	return rc;
}

/* The base URL, the Bearer key when there is one, the body with the model. */
static int chat_request(const struct judge_conf *j, const struct judge_prompt *p,
                        const char *base, struct http_req *req, struct error *err)
{
	if (req_start(req, j, join_versioned(base, "/v1", "/chat/completions", false), err) < 0)
		return -1;
	const char *key;
	if (provider_key(j, &key))
		req_add_key_header(req, "Authorization", "Bearer ", j);
	return chat_body(j, p, true, req, err);
}

static const char *openai_base(const struct judge_conf *j)
{
	const char *base = nonempty(j->base_url);
	if (!base)
		base = nonempty(getenv("OPENAI_BASE_URL"));
	return base ? base : OPENAI_DEFAULT_BASE;
}

static const char *compat_base(const struct judge_conf *j)
{
	return nonempty(j->base_url);
}

static const char *ollama_base(const struct judge_conf *j)
{
	const char *base = nonempty(j->base_url);
	return base ? base : OLLAMA_DEFAULT_BASE;
}

static int openai_request(const struct judge_conf *j, const struct judge_prompt *p,
                          struct http_req *req, struct error *err)
{
	return chat_request(j, p, openai_base(j), req, err);
}

static int compat_request(const struct judge_conf *j, const struct judge_prompt *p,
                          struct http_req *req, struct error *err)
{
	const char *base = compat_base(j);
	if (!base) {
		error_set(err, ERR_FAILED, "judge %s: an OpenAI-compatible provider needs base_url",
		        j->id ? j->id : "?");
		return -1;
	}
	return chat_request(j, p, base, req, err);
}

static int ollama_request(const struct judge_conf *j, const struct judge_prompt *p,
                          struct http_req *req, struct error *err)
{
	return chat_request(j, p, ollama_base(j), req, err);
}

const struct provider_ops provider_openai = {
	.kind = PROVIDER_OPENAI,
	.prefix = "openai/",
	.name = "OpenAI",
	.key_env = "OPENAI_API_KEY",
	.structured_output = true,
	.request = openai_request,
	.reply = chat_reply,
	.id = "openai",
	.batch_url = "/v1/chat/completions",
	.key_required = true,
	.own_hosts = openai_hosts,
	.base = openai_base,
};

/* Unknown servers may refuse response_format, so the schema goes into the
 * prompt; and no key unless api_key_env names one. */
const struct provider_ops provider_compat = {
	.kind = PROVIDER_COMPAT,
	.prefix = "",
	.name = "OpenAI-compatible server",
	.key_env = NULL,
	.structured_output = false,
	.request = compat_request,
	.reply = chat_reply,
	.id = "openai-compatible",
	.batch_url = "/v1/chat/completions",
	.base = compat_base,
};

const struct provider_ops provider_ollama = {
	.kind = PROVIDER_OLLAMA,
	.prefix = "ollama/",
	.name = "Ollama",
	.key_env = NULL,
	.structured_output = true,
	.request = ollama_request,
	.reply = chat_reply,
	.id = "ollama",
	.base = ollama_base,
};
