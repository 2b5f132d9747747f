/* provider.h - the judge providers as a table: one provider_ops entry per
 * provider, in one file per provider or family (src/judge/provider_*.c).
 * Adding a provider: its file (its provider_ops), its enum provider_kind
 * constant (judge.h), its extern and its line in provider_table
 * (provider_int.h, provider.c) and the file in Makefile.am; nothing else
 * names providers (the judges section reads own_keys and check, the cache
 * and the job read prefix and structured_output, `judge --batch-out`
 * reads batch_url). */
#ifndef TCR_JUDGE_PROVIDER_H
#define TCR_JUDGE_PROVIDER_H

#include <stdbool.h>
#include <stddef.h>

#include "judge/http.h"
#include "judge/judge.h"
#include "util/error.h"

struct provider_ops {
	enum provider_kind kind;
	const char *prefix;            /* "openai/", "ollama/", "azure/", "anthropic/"; "" for a compatible server */
	const char *name;              /* for messages: "OpenAI", "Azure OpenAI", ... */
	const char *key_env;           /* the usual key variable, NULL when none (ollama) */
	bool structured_output;        /* supports JSON-schema structured output */
	const char *const *own_keys;   /* judge keys only this provider takes and needs ("endpoint", "api_version"); NULL-terminated or NULL */
	/* optional, after the judge's keys are read: 0, or -1 with a message and *key = the YAML key to point at (NULL: the judge's mapping) */
	int (*check)(const struct judge_conf *j, const char **key, struct error *err);
	int (*request)(const struct judge_conf *j, const struct judge_prompt *p, struct http_req *req, struct error *err);
	int (*reply)(const struct judge_conf *j, long status, const char *body, size_t len, char **text, struct judge_reply *reply, struct error *err);
	/* added: */
	const char *id;                /* short and stable: "openai", "openai-compatible", ...
	                                  (debug traces, connection pools) */
	bool key_required;             /* a request without the key is refused */
	const char *batch_url;         /* the "url" of its OpenAI Batch API lines; NULL: no batch files */
	/* Where its requests go: the hosts that are its own ("api.openai.com",
	 * "*.openai.azure.com"), to which a key may go without the user's leave
	 * (judge/trust.h); NULL-terminated or NULL (loopback only). */
	const char *const *own_hosts;
	/* The base address its requests start from (base_url, else the
	 * provider's key or variable, else its default); NULL when it has none. */
	const char *(*base)(const struct judge_conf *j);
};
/* Every provider, NULL-terminated; the one without a prefix (a compatible
 * server) is tried last when reading a model's name. */
extern const struct provider_ops *const provider_table[];
const struct provider_ops *provider_of(enum provider_kind k);

/* Builds the request a provider expects for a prompt. The key comes from
 * the environment (j->api_key_env or the provider's usual variable) and
 * goes only into the header. Returns 0, or -1 with a reason. */
int provider_request(const struct judge_conf *j, const struct judge_prompt *p, struct http_req *req,
                     struct error *err);
/* Reads a provider's HTTP answer: the message text (malloc'd into *text)
 * and token usage into reply. Returns 0, or -1 with a reason (an HTTP
 * error's own message when the body has one). */
int provider_reply(const struct judge_conf *j, long status, const char *body, size_t len,
                   char **text, struct judge_reply *reply, struct error *err);
/* The address the judge's requests start from, before the provider adds
 * its path (NULL when there is none: a compatible server without base_url). */
const char *provider_base(const struct judge_conf *j);
/* The provider's id ("openai", "openai-compatible", "ollama", ...). */
const char *provider_name(enum provider_kind p);
/* Overwrites each occurrence of the judge's API key in text with '*', for
 * text that came back from a server (which may echo what it was sent). */
void provider_redact(const struct judge_conf *j, char *text);

#endif
