/* provider.c - what each provider's HTTP API wants, and what it answers.
 *
 * Requests are plain data (struct http_req) so they can be checked in tests
 * without a network, and the client needs to know nothing of providers.
 * Reading a Retry-After value is here too, for the same reason.
 *
 * The API key is read from the environment at the moment a request is
 * built and goes into exactly one header, whose index the request records
 * so debug output can mask it. It never goes into an error message: the
 * messages below name the variable, not its value, and text that comes
 * back from a server (which might echo a key) is masked before anyone sees
 * it (provider_redact).
 *
 * Defaults, by provider:
 *   openai     {base_url | $OPENAI_BASE_URL | https://api.openai.com/v1}/chat/completions,
 *              Authorization: Bearer $OPENAI_API_KEY (required)
 *   compat     {base_url}/chat/completions; a key only from api_key_env, and
 *              only when that variable is set: an OpenAI key is never sent
 *              to some other server unless the configuration says so
 *   ollama     {base_url | http://localhost:11434/v1}/chat/completions, no key
 *              (api_key_env may name one, for a server behind a proxy)
 *   azure      {base_url | endpoint | $AZURE_OPENAI_ENDPOINT}/openai/deployments/
 *              DEPLOYMENT/chat/completions?api-version=V, api-key: $AZURE_OPENAI_API_KEY
 *   anthropic  {base_url | $ANTHROPIC_BASE_URL | https://api.anthropic.com}/v1/messages,
 *              x-api-key: $ANTHROPIC_API_KEY, anthropic-version: 2023-06-01
 */
#include "judge/client.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>
#include <jansson.h>

#include "util/strbuf.h"
#include "util/xalloc.h"

#define OPENAI_DEFAULT_BASE "https://api.openai.com/v1"
#define OLLAMA_DEFAULT_BASE "http://localhost:11434/v1"
#define ANTHROPIC_DEFAULT_BASE "https://api.anthropic.com"
#define ANTHROPIC_VERSION "2023-06-01"
/* Structured outputs reached Azure's GA API in this version. */
#define AZURE_DEFAULT_API_VERSION "2024-10-21"
/* Anthropic requires max_tokens; a verdict with its reasons fits easily. */
#define ANTHROPIC_MAX_TOKENS 2048
/* Keys shorter than this are not masked in text: masking every "x" of a
 * message would hide the message and protect nothing real. */
#define REDACT_MIN 4
/* An HTTP error body is shown only in part: an HTML page from a proxy is
 * of no use beyond its first line. */
#define ERROR_TEXT_MAX 300

const char *provider_name(enum provider_kind p)
{
	switch (p) {
	case PROVIDER_OPENAI:    return "openai";
	case PROVIDER_COMPAT:    return "openai-compatible";
	case PROVIDER_OLLAMA:    return "ollama";
	case PROVIDER_AZURE:     return "azure";
	case PROVIDER_ANTHROPIC: return "anthropic";
	}
	return "?";
}

void http_req_free(struct http_req *req)
{
	if (!req)
		return;
	for (size_t i = 0; i < req->nheaders; i++) {
		/* The key should not linger in freed memory for a core dump. */
		if (i == req->key_header && req->headers[i])
			explicit_bzero(req->headers[i], strlen(req->headers[i]));
		free(req->headers[i]);
	}
	free(req->headers);
	free(req->url);
	free(req->body);
	memset(req, 0, sizeof *req);
	req->key_header = SIZE_MAX;
}

char *http_req_describe(const struct http_req *req)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "POST %s\n", req->url ? req->url : "");
	for (size_t i = 0; i < req->nheaders; i++) {
		const char *h = req->headers[i];
		if (i == req->key_header) {
			const char *colon = strchr(h, ':');
			size_t n = colon ? (size_t)(colon - h) : strlen(h);
			strbuf_add(&sb, h, n);
			strbuf_addstr(&sb, ": ***\n");
		} else {
			strbuf_addstr(&sb, h);
			strbuf_addch(&sb, '\n');
		}
	}
	strbuf_addch(&sb, '\n');
	if (req->body)
		strbuf_addstr(&sb, req->body);
	return strbuf_detach(&sb);
}

/* ---- keys --------------------------------------------------------------- */

/* The variable holding the key, or NULL when the provider takes none. */
static const char *key_var(const struct judge_conf *j)
{
	if (j->api_key_env && *j->api_key_env)
		return j->api_key_env;
	switch (j->provider) {
	case PROVIDER_OPENAI:    return "OPENAI_API_KEY";
	case PROVIDER_AZURE:     return "AZURE_OPENAI_API_KEY";
	case PROVIDER_ANTHROPIC: return "ANTHROPIC_API_KEY";
	case PROVIDER_COMPAT:
	case PROVIDER_OLLAMA:    return NULL;
	}
	return NULL;
}

static bool key_required(enum provider_kind p)
{
	return p == PROVIDER_OPENAI || p == PROVIDER_AZURE || p == PROVIDER_ANTHROPIC;
}

/* The key's value without surrounding blanks (a key pasted from a file
 * often ends in a newline): start in *out, length returned; 0 when unset. */
static size_t key_value(const struct judge_conf *j, const char **out)
{
	const char *var = key_var(j);
	const char *v = var ? getenv(var) : NULL;
	*out = NULL;
	if (!v)
		return 0;
	while (*v == ' ' || *v == '\t' || *v == '\r' || *v == '\n')
		v++;
	size_t n = strlen(v);
	while (n && (v[n - 1] == ' ' || v[n - 1] == '\t' || v[n - 1] == '\r' || v[n - 1] == '\n'))
		n--;
	*out = v;
	return n;
}

void provider_redact(const struct judge_conf *j, char *text)
{
	const char *key;
	size_t n = key_value(j, &key);
	if (!text || n < REDACT_MIN)
		return;
	char *hit;
	for (char *p = text; (hit = memmem(p, strlen(p), key, n)) != NULL; p = hit + n)
		memset(hit, '*', n);
}

/* ---- building ------------------------------------------------------------ */

static void req_add_header(struct http_req *req, const char *h)
{
	char **nh = realloc(req->headers, (req->nheaders + 1) * sizeof *nh);
	if (!nh) {
		fputs("tcreview: out of memory\n", stderr);
		abort();
	}
	req->headers = nh;
	req->headers[req->nheaders++] = xstrdup(h);
}

/* Adds "Name: PREFIXkey" and marks it as the key's header. */
static void req_add_key_header(struct http_req *req, const char *name, const char *prefix,
                               const char *key, size_t keylen)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "%s: %s", name, prefix);
	strbuf_add(&sb, key, keylen);
	req->key_header = req->nheaders;
	req_add_header(req, sb.buf);
	explicit_bzero(sb.buf, sb.len);
	strbuf_release(&sb);
}

/* base without trailing slashes, then the path. */
static char *join_url(const char *base, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = strlen(base);
	while (n && base[n - 1] == '/')
		n--;
	strbuf_add(&sb, base, n);
	strbuf_addstr(&sb, path);
	return strbuf_detach(&sb);
}

/* Percent-encodes a URL path segment or query value. */
static void add_escaped(struct strbuf *sb, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (isalnum(*p) || *p == '-' || *p == '_' || *p == '.' || *p == '~')
			strbuf_addch(sb, (char)*p);
		else
			strbuf_addf(sb, "%%%02X", *p);
	}
}

static const char *nonempty(const char *s)
{
	return s && *s ? s : NULL;
}

/* A base URL must name its scheme: curl would guess one, and a guessed
 * http:// would carry the key in the clear. */
static bool url_ok(const char *u)
{
	return !strncmp(u, "https://", 8) || !strncmp(u, "http://", 7);
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
	json_t *props = json_object_get(s, "properties");
	json_t *type = json_object_get(s, "type");
	bool is_obj = json_is_object(props) ||
	              (json_is_string(type) && !strcmp(json_string_value(type), "object"));
	if (json_is_array(type)) {
		size_t i;
		json_t *t;
		json_array_foreach(type, i, t)
			if (json_is_string(t) && !strcmp(json_string_value(t), "object"))
				is_obj = true;
	}
	if (is_obj) {
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

static json_t *text_of(const char *s)
{
	/* jansson refuses text that is not UTF-8; a prompt holds record text,
	 * which should be, but a refusal here must not crash the request. */
	json_t *t = json_string(s);
	return t ? t : json_string("");
}

static int openai_body(const struct judge_conf *j, const struct judge_prompt *p, bool with_model,
                       struct http_req *req, char *err, size_t errlen)
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
	req->body = json_dumps(body, JSON_COMPACT);
	json_decref(body);
	if (!req->body) {
		set_err(err, errlen, "cannot write the request body");
		return -1;
	}
	return 0;
}

static int anthropic_body(const struct judge_conf *j, const struct judge_prompt *p,
                          struct http_req *req, char *err, size_t errlen)
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
	req->body = json_dumps(body, JSON_COMPACT);
	json_decref(body);
	if (!req->body) {
		set_err(err, errlen, "cannot write the request body");
		return -1;
	}
	return 0;
}

int provider_request(const struct judge_conf *j, const struct judge_prompt *p, struct http_req *req,
                     char *err, size_t errlen)
{
	memset(req, 0, sizeof *req);
	req->key_header = SIZE_MAX;
	if (!p->user) {
		set_err(err, errlen, "the prompt has no text");
		return -1;
	}

	const char *var = key_var(j);
	const char *key;
	size_t keylen = key_value(j, &key);
	if (!keylen && key_required(j->provider)) {
		set_err(err, errlen, "%s is not set", var);
		return -1;
	}
	for (size_t i = 0; i < keylen; i++) {
		/* A line break would end the header and start another. */
		if ((unsigned char)key[i] < 0x20 || key[i] == 0x7f) {
			set_err(err, errlen, "%s holds a control character", var);
			return -1;
		}
	}

	const char *base = nonempty(j->base_url);
	struct strbuf url = STRBUF_INIT;
	switch (j->provider) {
	case PROVIDER_OPENAI:
		if (!base)
			base = nonempty(getenv("OPENAI_BASE_URL"));
		req->url = join_url(base ? base : OPENAI_DEFAULT_BASE, "/chat/completions");
		break;
	case PROVIDER_COMPAT:
		if (!base) {
			set_err(err, errlen, "judge %s: an OpenAI-compatible provider needs base_url",
			        j->id ? j->id : "?");
			return -1;
		}
		req->url = join_url(base, "/chat/completions");
		break;
	case PROVIDER_OLLAMA:
		req->url = join_url(base ? base : OLLAMA_DEFAULT_BASE, "/chat/completions");
		break;
	case PROVIDER_AZURE: {
		if (!base)
			base = nonempty(j->endpoint);
		if (!base)
			base = nonempty(getenv("AZURE_OPENAI_ENDPOINT"));
		if (!base) {
			set_err(err, errlen, "judge %s: azure needs endpoint (or $AZURE_OPENAI_ENDPOINT)",
			        j->id ? j->id : "?");
			return -1;
		}
		if (!nonempty(j->model)) {
			set_err(err, errlen, "judge %s: azure needs a deployment (azure/DEPLOYMENT)",
			        j->id ? j->id : "?");
			return -1;
		}
		const char *ver = nonempty(j->api_version);
		if (!ver)
			ver = nonempty(getenv("AZURE_OPENAI_API_VERSION"));
		size_t n = strlen(base);
		while (n && base[n - 1] == '/')
			n--;
		strbuf_add(&url, base, n);
		strbuf_addstr(&url, "/openai/deployments/");
		add_escaped(&url, j->model);
		strbuf_addstr(&url, "/chat/completions?api-version=");
		add_escaped(&url, ver ? ver : AZURE_DEFAULT_API_VERSION);
		req->url = strbuf_detach(&url);
		break;
	}
	case PROVIDER_ANTHROPIC:
		if (!base)
			base = nonempty(getenv("ANTHROPIC_BASE_URL"));
		req->url = join_url(base ? base : ANTHROPIC_DEFAULT_BASE, "/v1/messages");
		break;
	default:
		set_err(err, errlen, "unknown provider");
		return -1;
	}
	if (!url_ok(req->url)) {
		set_err(err, errlen, "judge %s: the address %s does not start with https:// or http://",
		        j->id ? j->id : "?", req->url);
		http_req_free(req);
		return -1;
	}

	req_add_header(req, "Content-Type: application/json");
	req_add_header(req, "Accept: application/json");
	int rc;
	switch (j->provider) {
	case PROVIDER_AZURE:
		req_add_key_header(req, "api-key", "", key, keylen);
		rc = openai_body(j, p, false, req, err, errlen);
		break;
	case PROVIDER_ANTHROPIC:
		req_add_key_header(req, "x-api-key", "", key, keylen);
		req_add_header(req, "anthropic-version: " ANTHROPIC_VERSION);
		rc = anthropic_body(j, p, req, err, errlen);
		break;
	default:
		if (keylen)
			req_add_key_header(req, "Authorization", "Bearer ", key, keylen);
		rc = openai_body(j, p, true, req, err, errlen);
		break;
	}
	if (rc < 0)
		http_req_free(req);
	return rc;
}

/* ---- answers --------------------------------------------------------------- */

/* Server text for a message: one line, printable, not too long. */
static void clean_text(const char *s, size_t n, char *out, size_t outlen)
{
	size_t o = 0;
	bool space = false;
	for (size_t i = 0; i < n && o + 1 < outlen; i++) {
		unsigned char ch = (unsigned char)s[i];
		if (ch < 0x20 || ch == 0x7f) {
			space = o > 0;
			continue;
		}
		if (space && o + 2 < outlen)
			out[o++] = ' ';
		space = false;
		out[o++] = (char)ch;
		if (o >= ERROR_TEXT_MAX) {
			if (o + 4 < outlen)
				memcpy(out + o, "...", 4);
			else
				out[o] = '\0';
			return;
		}
	}
	out[o] = '\0';
}

/* The message of an error body: {"error":{"message"}} (OpenAI, Azure,
 * Anthropic, Ollama), {"error":"text"}, {"message"} or {"detail"} (other
 * compatible servers). */
static const char *error_message(json_t *o)
{
	json_t *e = json_object_get(o, "error");
	if (json_is_object(e)) {
		json_t *m = json_object_get(e, "message");
		if (json_is_string(m) && *json_string_value(m))
			return json_string_value(m);
	}
	if (json_is_string(e) && *json_string_value(e))
		return json_string_value(e);
	json_t *m = json_object_get(o, "message");
	if (json_is_string(m) && *json_string_value(m))
		return json_string_value(m);
	m = json_object_get(o, "detail");
	if (json_is_string(m) && *json_string_value(m))
		return json_string_value(m);
	return NULL;
}

static long usage_num(json_t *usage, const char *name)
{
	json_t *v = json_object_get(usage, name);
	return json_is_integer(v) ? (long)json_integer_value(v) : -1;
}

/* Text of a content value: a string, or a list of parts whose text is joined. */
static void content_text(json_t *c, struct strbuf *out)
{
	if (json_is_string(c)) {
		strbuf_addstr(out, json_string_value(c));
		return;
	}
	size_t i;
	json_t *part;
	if (json_is_array(c))
		json_array_foreach(c, i, part) {
			json_t *type = json_object_get(part, "type");
			json_t *t = json_object_get(part, "text");
			if (json_is_string(t) && (!type || (json_is_string(type) &&
			    (!strcmp(json_string_value(type), "text") ||
			     !strcmp(json_string_value(type), "output_text")))))
				strbuf_addstr(out, json_string_value(t));
		}
}

static int finish_err(const struct judge_conf *j, char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int finish_err(const struct judge_conf *j, char *err, size_t errlen, const char *fmt, ...)
{
	if (err && errlen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
		provider_redact(j, err);
	}
	return -1;
}

int provider_reply(const struct judge_conf *j, long status, const char *body, size_t len,
                   char **text, struct judge_reply *reply, char *err, size_t errlen)
{
	*text = NULL;
	reply->http_status = status;
	reply->prompt_tokens = reply->completion_tokens = -1;
	if (!body)
		len = 0;
	json_error_t je;
	json_t *o = len ? json_loadb(body, len, 0, &je) : NULL;
	char clean[ERROR_TEXT_MAX + 8];

	if (status < 200 || status > 299) {
		const char *msg = json_is_object(o) ? error_message(o) : NULL;
		if (msg)
			clean_text(msg, strlen(msg), clean, sizeof clean);
		else
			clean_text(body ? body : "", len, clean, sizeof clean);
		json_decref(o);
		if (status >= 300 && status < 400)
			return finish_err(j, err, errlen, "HTTP %ld: the provider answered with a redirect, "
			                  "which is not followed", status);
		if (*clean)
			return finish_err(j, err, errlen, "HTTP %ld: %s", status, clean);
		return finish_err(j, err, errlen, "HTTP %ld", status);
	}
	if (!o) {
		clean_text(body ? body : "", len < 80 ? len : 80, clean, sizeof clean);
		return finish_err(j, err, errlen, "the provider's answer is not JSON%s%s%s",
		                  *clean ? " (\"" : "", clean, *clean ? "\")" : "");
	}
	if (!json_is_object(o)) {
		json_decref(o);
		return finish_err(j, err, errlen, "the provider's answer is not a JSON object");
	}
	const char *emsg = error_message(o);
	if (json_is_object(json_object_get(o, "error")) && emsg) {
		clean_text(emsg, strlen(emsg), clean, sizeof clean);
		json_decref(o);
		return finish_err(j, err, errlen, "the provider answered with an error: %s", clean);
	}

	struct strbuf sb = STRBUF_INIT;
	const char *stop = NULL;
	const char *refusal = NULL;
	json_t *choices = json_object_get(o, "choices");
	json_t *content = json_object_get(o, "content");
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
	} else if (json_is_array(content)) {
		content_text(content, &sb);
		json_t *sr = json_object_get(o, "stop_reason");
		if (json_is_string(sr))
			stop = json_string_value(sr);
		json_t *usage = json_object_get(o, "usage");
		reply->prompt_tokens = usage_num(usage, "input_tokens");
		reply->completion_tokens = usage_num(usage, "output_tokens");
	}

	int rc = 0;
	if (sb.len == 0) {
		if (refusal && *refusal) {
			clean_text(refusal, strlen(refusal), clean, sizeof clean);
			rc = finish_err(j, err, errlen, "the model refused: %s", clean);
		} else if (stop && (!strcmp(stop, "length") || !strcmp(stop, "max_tokens") ||
		                    !strcmp(stop, "content_filter"))) {
			rc = finish_err(j, err, errlen, "the reply has no message text (stopped: %s)", stop);
		} else {
			rc = finish_err(j, err, errlen, "the reply has no message text");
		}
		strbuf_release(&sb);
	} else {
		*text = strbuf_detach(&sb);
	}
	json_decref(o);
	return rc;
}

/* ---- Retry-After ----------------------------------------------------------- */

long judge_retry_after_ms(const char *value, time_t now)
{
	if (!value)
		return -1;
	while (*value == ' ' || *value == '\t')
		value++;
	if (*value >= '0' && *value <= '9') {
		char *end;
		errno = 0;
		double s = strtod(value, &end);
		while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n')
			end++;
		if (errno || *end || !isfinite(s) || s < 0)
			return -1;
		if (s > 1e7)
			s = 1e7;
		return (long)(s * 1000.0);
	}
	time_t t = curl_getdate(value, NULL);
	if (t == -1)
		return -1;
	return t <= now ? 0 : (long)(t - now) * 1000L;
}
