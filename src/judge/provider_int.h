/* provider_int.h - what the provider files share: keys, request building,
 * reading answers. Not a public header. */
#ifndef TCR_JUDGE_PROVIDER_INT_H
#define TCR_JUDGE_PROVIDER_INT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "judge/provider.h"
#include "util/strbuf.h"
#include "util/error.h"

/* An HTTP error body is shown only in part: an HTML page from a proxy is
 * of no use beyond its first line. */
#define ERROR_TEXT_MAX 300

extern const struct provider_ops provider_openai;
extern const struct provider_ops provider_compat;
extern const struct provider_ops provider_ollama;
extern const struct provider_ops provider_azure;
extern const struct provider_ops provider_anthropic;

/* ---- keys */
/* The variable holding the key, or NULL when the provider takes none. */
const char *provider_key_var(const struct judge_conf *j);
/* The key's value without surrounding blanks: start in *out, length
 * returned; 0 when unset. */
size_t provider_key(const struct judge_conf *j, const char **out);

/* ---- building */
const char *nonempty(const char *s);
/* base without trailing slashes, then the path (malloc'd). */
char *join_url(const char *base, const char *path);
/* strlen(base) less its trailing slashes. */
size_t url_trimmed_len(const char *base);
/* Whether the first n bytes of base end in the path segment seg ("/v1"). */
bool url_ends_with_segment(const char *base, size_t n, const char *seg);
/* base, version unless base already ends in it, then path: with always
 * false, version only when base has no path at all ("http://host:8000"
 * becomes ".../v1/...", "https://host/api/v1beta/openai" stays). */
char *join_versioned(const char *base, const char *version, const char *path, bool always);
/* Percent-encodes a URL path segment or query value. */
void add_escaped(struct strbuf *sb, const char *s);
/* Takes url (malloc'd) into req, refuses an address without http(s)://
 * (freeing req) and adds the JSON headers. 0 or -1. */
int req_start(struct http_req *req, const struct judge_conf *j, char *url, struct error *err);
void req_add_header(struct http_req *req, const char *h);
/* Adds "Name: PREFIXkey" and marks it as the key's header. */
void req_add_key_header(struct http_req *req, const char *name, const char *prefix,
                        const struct judge_conf *j);
/* A JSON string for prompt text ("" when it is not UTF-8). */
json_t *text_of(const char *s);
/* Writes body (taking it) into req->body; 0 or -1. */
int req_set_body(struct http_req *req, json_t *body, struct error *err);

/* ---- Chat Completions (OpenAI, compatible servers, Ollama, Azure) */
int chat_body(const struct judge_conf *j, const struct judge_prompt *p, bool with_model,
              struct http_req *req, struct error *err);
int chat_reply(const struct judge_conf *j, long status, const char *body, size_t len,
               char **text, struct judge_reply *reply, struct error *err);

/* ---- answers */
/* The answer's JSON object, after what every provider refuses alike: an
 * HTTP error (with its message), a body that is not a JSON object, an
 * error object. Resets *text and the reply's counts. NULL with err set. */
json_t *reply_open(const struct judge_conf *j, long status, const char *body, size_t len,
                   char **text, struct judge_reply *reply, struct error *err);
/* Text of a content value: a string, or a list of parts whose text is joined. */
void content_text(json_t *c, struct strbuf *out);
long usage_num(json_t *usage, const char *name);
/* Hands the collected text over, or says why there is none (a refusal, a
 * stop reason); releases sb. 0 or -1. */
int reply_finish(const struct judge_conf *j, struct strbuf *sb, const char *refusal,
                 const char *stop, char **text, struct error *err);

#endif
