/* provider_azure.c - Azure OpenAI: a deployment's Chat Completions.
 *
 *   {base_url | endpoint | $AZURE_OPENAI_ENDPOINT}/openai/deployments/
 *   DEPLOYMENT/chat/completions?api-version=V, api-key: $AZURE_OPENAI_API_KEY
 *   (a base ending in /openai, as the AI SDK writes it, is not given a second)
 */
#include <stdlib.h>
#include <string.h>

#include "provider_int.h"
#include "util/xalloc.h"
#include "util/error.h"

/* Structured outputs reached Azure's GA API in this version. */
#define AZURE_DEFAULT_API_VERSION "2024-10-21"

static const char *const azure_keys[] = { "endpoint", "api_version", NULL };
/* Azure OpenAI resources and AI Services resources. */
static const char *const azure_hosts[] = { "*.openai.azure.com", "*.cognitiveservices.azure.com",
                                           NULL };

/* The configuration names the resource and the API version. */
static int azure_check(const struct judge_conf *j, const char **key, struct error *err)
{
	*key = NULL;
	if (!j->endpoint) {
		error_set(err, ERR_FAILED, "judge '%s' (azure/) needs 'endpoint' "
		        "(e.g. https://NAME.openai.azure.com)", j->id ? j->id : "?");
		return -1;
	}
	if (!j->api_version) {
		error_set(err, ERR_FAILED, "judge '%s' (azure/) needs 'api_version' (e.g. \"2024-10-21\")",
		        j->id ? j->id : "?");
		return -1;
	}
	return 0;
}

static char *azure_url(const struct judge_conf *j, const char *base)
{
	const char *ver = nonempty(j->api_version);
	if (!ver)
		ver = nonempty(getenv("AZURE_OPENAI_API_VERSION"));
	struct strbuf url = STRBUF_INIT;
	size_t n = url_trimmed_len(base);
	/* The AI SDK's Azure base URL ends in /openai, the resource's endpoint
	 * does not: both ask /openai/deployments/... */
	if (url_ends_with_segment(base, n, "/openai"))
		n -= strlen("/openai");
	strbuf_add(&url, base, n);
	strbuf_addstr(&url, "/openai/deployments/");
	add_escaped(&url, j->model);
	strbuf_addstr(&url, "/chat/completions?api-version=");
	add_escaped(&url, ver ? ver : AZURE_DEFAULT_API_VERSION);
	return strbuf_detach(&url);
}

static const char *azure_base(const struct judge_conf *j)
{
	const char *base = nonempty(j->base_url);
	if (!base)
		base = nonempty(j->endpoint);
	if (!base)
		base = nonempty(getenv("AZURE_OPENAI_ENDPOINT"));
	return base;
}

static int azure_request(const struct judge_conf *j, const struct judge_prompt *p,
                         struct http_req *req, struct error *err)
{
	const char *base = azure_base(j);
	if (!base) {
		error_set(err, ERR_FAILED, "judge %s: azure needs endpoint (or $AZURE_OPENAI_ENDPOINT)",
		        j->id ? j->id : "?");
		return -1;
	}
	if (!nonempty(j->model)) {
		error_set(err, ERR_FAILED, "judge %s: azure needs a deployment (azure/DEPLOYMENT)",
		        j->id ? j->id : "?");
		return -1;
	}
	if (req_start(req, j, azure_url(j, base), err) < 0)
		return -1;
	req_add_key_header(req, "api-key", "", j);
	/* The deployment names the model. */
	return chat_body(j, p, false, req, err);
}

const struct provider_ops provider_azure = {
	.kind = PROVIDER_AZURE,
	.prefix = "azure/",
	.name = "Azure OpenAI",
	.key_env = "AZURE_OPENAI_API_KEY",
	.structured_output = true,
	.own_keys = azure_keys,
	.check = azure_check,
	.request = azure_request,
	.reply = chat_reply,
	.id = "azure",
	.key_required = true,
	.own_hosts = azure_hosts,
	.base = azure_base,
};
