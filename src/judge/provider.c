/* provider.c - the provider table and what every provider shares: keys,
 * request building, reading answers.
 *
 * Requests are plain data (struct http_req) so they can be checked in tests
 * without a network, and the client needs to know nothing of providers.
 * Each provider is one provider_ops entry in its own file (provider_chat.c:
 * OpenAI, compatible servers, Ollama; provider_azure.c; provider_anthropic.c)
 * and one line in provider_table below.
 *
 * The API key is read from the environment at the moment a request is
 * built and goes into exactly one header, whose index the request records
 * so debug output can mask it. It never goes into an error message: the
 * messages name the variable, not its value, and text that comes back from
 * a server (which might echo a key) is masked before anyone sees it
 * (provider_redact).
 */
#include "judge/provider.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "judge/trust.h"
#include "provider_int.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/error.h"

/* Keys shorter than this are not masked in text: masking every "x" of a
 * message would hide the message and protect nothing real. */
#define REDACT_MIN 4

/* The compatible server has no prefix and so comes last. */
const struct provider_ops *const provider_table[] = {
	&provider_openai,
	&provider_ollama,
	&provider_azure,
	&provider_anthropic,
	&provider_compat,
	NULL,
};

const struct provider_ops *provider_of(enum provider_kind k)
{
	for (size_t i = 0; provider_table[i]; i++)
		if (provider_table[i]->kind == k)
			return provider_table[i];
	return NULL;
}

const char *provider_name(enum provider_kind p)
{
	const struct provider_ops *ops = provider_of(p);
	return ops ? ops->id : "?";
}

int judge_parse_model(const char *model, bool has_base_url, enum provider_kind *kind,
                      const char **rest)
{
	for (size_t i = 0; provider_table[i]; i++) {
		const struct provider_ops *ops = provider_table[i];
		size_t n = strlen(ops->prefix);
		if (n == 0) {
			/* Servers that speak OpenAI's protocol name models as they
			 * like ("meta-llama/Llama-3.1-8B"), so the whole name is theirs. */
			if (!has_base_url)
				continue;
			*kind = ops->kind;
			*rest = model;
			return 0;
		}
		if (strncmp(model, ops->prefix, n) == 0) {
			if (!model[n])
				return -1;
			*kind = ops->kind;
			*rest = model + n;
			return 0;
		}
	}
	return -1;
}

const char *judge_provider_prefix(enum provider_kind p)
{
	const struct provider_ops *ops = provider_of(p);
	return ops ? ops->prefix : "";
}

bool judge_structured_output(enum provider_kind p)
{
	const struct provider_ops *ops = provider_of(p);
	return ops && ops->structured_output;
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

const char *provider_key_var(const struct judge_conf *j)
{
	if (j->api_key_env && *j->api_key_env)
		return j->api_key_env;
	const struct provider_ops *ops = provider_of(j->provider);
	return ops ? ops->key_env : NULL;
}

/* A key pasted from a file often ends in a newline. */
size_t provider_key(const struct judge_conf *j, const char **out)
{
	const char *var = provider_key_var(j);
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
	size_t n = provider_key(j, &key);
	if (!text || n < REDACT_MIN)
		return;
	char *hit;
	for (char *p = text; (hit = memmem(p, strlen(p), key, n)) != NULL; p = hit + n)
		memset(hit, '*', n);
}

/* ---- building ------------------------------------------------------------ */

void req_add_header(struct http_req *req, const char *h)
{
	char **nh = xrealloc(req->headers, (req->nheaders + 1) * sizeof *nh);
	req->headers = nh;
	req->headers[req->nheaders++] = xstrdup(h);
}

void req_add_key_header(struct http_req *req, const char *name, const char *prefix,
                        const struct judge_conf *j)
{
	const char *key;
	size_t keylen = provider_key(j, &key);
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "%s: %s", name, prefix);
	strbuf_add(&sb, key ? key : "", keylen);
	req->key_header = req->nheaders;
	req_add_header(req, sb.buf);
	explicit_bzero(sb.buf, sb.len);
	strbuf_release(&sb);
}

char *join_url(const char *base, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_add(&sb, base, url_trimmed_len(base));
	strbuf_addstr(&sb, path);
	return strbuf_detach(&sb);
}

size_t url_trimmed_len(const char *base)
{
	size_t n = strlen(base);
	while (n && base[n - 1] == '/')
		n--;
	return n;
}

bool url_ends_with_segment(const char *base, size_t n, const char *seg)
{
	size_t k = strlen(seg);
	return n >= k && memcmp(base + n - k, seg, k) == 0 &&
	       /* the segment's own slash, not the scheme's "//" */
	       !(n > k && base[n - k - 1] == '/');
}

/* Whether anything follows scheme://authority (slashes trimmed). */
static bool url_has_path(const char *base, size_t n)
{
	const char *auth = strstr(base, "://");
	if (!auth)
		return false;
	auth += 3;
	const char *slash = memchr(auth, '/', n - (size_t)(auth - base));
	return slash != NULL;
}

/* The AI SDK writes base URLs with the API's version ("https://
 * api.anthropic.com/v1"), the providers' own documentation often without:
 * both spellings ask the same path. */
char *join_versioned(const char *base, const char *version, const char *path, bool always)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = url_trimmed_len(base);
	strbuf_add(&sb, base, n);
	if (!url_ends_with_segment(base, n, version) && (always || !url_has_path(base, n)))
		strbuf_addstr(&sb, version);
	strbuf_addstr(&sb, path);
	return strbuf_detach(&sb);
}

const char *provider_base(const struct judge_conf *j)
{
	const struct provider_ops *ops = provider_of(j->provider);
	return ops && ops->base ? ops->base(j) : nonempty(j->base_url);
}

void add_escaped(struct strbuf *sb, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (isalnum(*p) || *p == '-' || *p == '_' || *p == '.' || *p == '~')
			strbuf_addch(sb, (char)*p);
		else
			strbuf_addf(sb, "%%%02X", *p);
	}
}

const char *nonempty(const char *s)
{
	return s && *s ? s : NULL;
}

/* A base URL must name its scheme: curl would guess one, and a guessed
 * http:// would carry the key in the clear. */
int req_start(struct http_req *req, const struct judge_conf *j, char *url, struct error *err)
{
	req->url = url;
	if (strncmp(url, "https://", 8) && strncmp(url, "http://", 7)) {
		error_set(err, ERR_FAILED, "judge %s: the address %s does not start with https:// or http://",
		        j->id ? j->id : "?", req->url);
		http_req_free(req);
		return -1;
	}
	req_add_header(req, "Content-Type: application/json");
	req_add_header(req, "Accept: application/json");
	return 0;
}

json_t *text_of(const char *s)
{
	/* jansson refuses text that is not UTF-8; a prompt holds record text,
	 * which should be, but a refusal here must not crash the request. */
	json_t *t = json_string(s);
	return t ? t : json_string("");
}

int req_set_body(struct http_req *req, json_t *body, struct error *err)
{
	req->body = json_dumps(body, JSON_COMPACT);
	json_decref(body);
	if (!req->body) {
		error_set(err, ERR_FAILED, "cannot write the request body");
		return -1;
	}
	return 0;
}

/* What every provider checks before its own part: a prompt text, the key
 * when one is needed, and no line break in it (which would end the header
 * and start another). */
int provider_request(const struct judge_conf *j, const struct judge_prompt *p, struct http_req *req,
                     struct error *err)
{
	memset(req, 0, sizeof *req);
	req->key_header = SIZE_MAX;
	if (!p->user) {
		error_set(err, ERR_FAILED, "the prompt has no text");
		return -1;
	}
	const struct provider_ops *ops = provider_of(j->provider);
	if (!ops) {
		error_set(err, ERR_FAILED, "unknown provider");
		return -1;
	}
	/* The screen asks the user before a judge's first request to a host
	 * not allowed yet; nothing goes there without that leave. */
	const char *leave = judge_needs_leave(j);
	if (leave) {
		error_set(err, ERR_FAILED, "requests to %s are not allowed (--allow-host %s)", leave, leave);
		return -1;
	}
	if ((leave = judge_needs_key_leave(j))) {
		error_set(err, ERR_FAILED, "sending $%s is not allowed (--allow-key-env %s)", leave, leave);
		return -1;
	}
	const char *var = provider_key_var(j);
	const char *key;
	size_t keylen = provider_key(j, &key);
	if (!keylen && ops->key_required) {
		error_set(err, ERR_FAILED, "%s is not set", var);
		return -1;
	}
	for (size_t i = 0; i < keylen; i++) {
		if ((unsigned char)key[i] < 0x20 || key[i] == 0x7f) {
			error_set(err, ERR_FAILED, "%s holds a control character", var);
			return -1;
		}
	}
	int rc = ops->request(j, p, req, err);
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

long usage_num(json_t *usage, const char *name)
{
	json_t *v = json_object_get(usage, name);
	return json_is_integer(v) ? (long)json_integer_value(v) : -1;
}

void content_text(json_t *c, struct strbuf *out)
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

static int finish_err(const struct judge_conf *j, struct error *err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int finish_err(const struct judge_conf *j, struct error *err, const char *fmt, ...)
{
	if (err) {
		va_list ap;
		va_start(ap, fmt);
		error_vset(err, ERR_FAILED, fmt, ap);
		va_end(ap);
		provider_redact(j, err->msg);
	}
	return -1;
}

static void http_error(const struct judge_conf *j, long status, json_t *o, const char *body,
                       size_t len, struct error *err)
{
	char clean[ERROR_TEXT_MAX + 8];
	const char *msg = json_is_object(o) ? error_message(o) : NULL;
	if (msg)
		clean_text(msg, strlen(msg), clean, sizeof clean);
	else
		clean_text(body ? body : "", len, clean, sizeof clean);
	if (status >= 300 && status < 400)
		finish_err(j, err, "HTTP %ld: the provider answered with a redirect, "
		           "which is not followed", status);
	else if (*clean)
		finish_err(j, err, "HTTP %ld: %s", status, clean);
	else
		finish_err(j, err, "HTTP %ld", status);
}

json_t *reply_open(const struct judge_conf *j, long status, const char *body, size_t len,
                   char **text, struct judge_reply *reply, struct error *err)
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
		http_error(j, status, o, body, len, err);
		json_decref(o);
		return NULL;
	}
	if (!o) {
		clean_text(body ? body : "", len < 80 ? len : 80, clean, sizeof clean);
		finish_err(j, err, "the provider's answer is not JSON%s%s%s",
		           *clean ? " (\"" : "", clean, *clean ? "\")" : "");
		return NULL;
	}
	if (!json_is_object(o)) {
		json_decref(o);
		finish_err(j, err, "the provider's answer is not a JSON object");
		return NULL;
	}
	const char *emsg = error_message(o);
	if (json_is_object(json_object_get(o, "error")) && emsg) {
		clean_text(emsg, strlen(emsg), clean, sizeof clean);
		json_decref(o);
		finish_err(j, err, "the provider answered with an error: %s", clean);
		return NULL;
	}
	return o;
}

int reply_finish(const struct judge_conf *j, struct strbuf *sb, const char *refusal,
                 const char *stop, char **text, struct error *err)
{
	if (sb->len) {
		*text = strbuf_detach(sb);
		return 0;
	}
	char clean[ERROR_TEXT_MAX + 8];
	int rc;
	if (refusal && *refusal) {
		clean_text(refusal, strlen(refusal), clean, sizeof clean);
		rc = finish_err(j, err, "the model refused: %s", clean);
	} else if (stop && (!strcmp(stop, "length") || !strcmp(stop, "max_tokens") ||
	                    !strcmp(stop, "content_filter"))) {
		rc = finish_err(j, err, "the reply has no message text (stopped: %s)", stop);
	} else {
		rc = finish_err(j, err, "the reply has no message text");
	}
	strbuf_release(sb);
	return rc;
}

int provider_reply(const struct judge_conf *j, long status, const char *body, size_t len,
                   char **text, struct judge_reply *reply, struct error *err)
{
	const struct provider_ops *ops = provider_of(j->provider);
	if (!ops) {
		*text = NULL;
		error_set(err, ERR_FAILED, "unknown provider");
		return -1;
	}
	return ops->reply(j, status, body, len, text, reply, err);
}
