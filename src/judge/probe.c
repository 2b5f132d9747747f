/* probe.c - asks a local Ollama server for its models (GET /api/tags) with
 * a short timeout, for the judge a proposed configuration offers. */
#include "judge/probe.h"

#include <curl/curl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

#define PROBE_REPLY_MAX (1 << 20)       /* a list of models is far smaller */

static size_t keep_reply(char *data, size_t size, size_t n, void *arg)
{
	struct strbuf *sb = arg;
	size_t len = size * n;
	if (sb->len + len > PROBE_REPLY_MAX)
		return 0;               /* stops the transfer */
	strbuf_add(sb, data, len);
	return len;
}

static int ask(const char *url, long timeout_ms, struct strbuf *reply)
{
	CURL *e = curl_easy_init();
	if (!e)
		return -1;
	long status = 0;
	curl_easy_setopt(e, CURLOPT_URL, url);
	curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, timeout_ms);
	curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms);
	curl_easy_setopt(e, CURLOPT_NOPROXY, "*");
	curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
#if LIBCURL_VERSION_NUM >= 0x075500
	curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
#endif
	curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, keep_reply);
	curl_easy_setopt(e, CURLOPT_WRITEDATA, reply);
	CURLcode rc = curl_easy_perform(e);
	curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &status);
	curl_easy_cleanup(e);
	return rc == CURLE_OK && status == 200 ? 0 : -1;
}

/* {"models": [{"name": "llama3.1:8b", ...}, ...]} */
static int read_models(const struct strbuf *reply, struct ollama_probe *out)
{
	json_t *doc = json_loadb(reply->buf ? reply->buf : "", reply->len, 0, NULL);
	json_t *models = json_object_get(doc, "models");
	if (!json_is_array(models)) {
		json_decref(doc);
		return -1;
	}
	size_t i;
	json_t *m;
	json_array_foreach(models, i, m) {
		const char *name = json_string_value(json_object_get(m, "name"));
		if (!name || !*name || strlen(name) >= sizeof out->model || strpbrk(name, " \t\r\n\"'"))
			continue;
		if (!out->nmodels++)
			snprintf(out->model, sizeof out->model, "%s", name);
	}
	json_decref(doc);
	out->answered = true;
	return 0;
}

int judge_probe_ollama(long timeout_ms, struct ollama_probe *out)
{
	memset(out, 0, sizeof *out);
	const char *wait = getenv("TCR_OLLAMA_TIMEOUT_MS");
	char *end;
	long ms = wait && *wait ? strtol(wait, &end, 10) : 0;
	if (ms > 0 && ms <= 600000 && !*end)
		timeout_ms = ms;
	const char *base = getenv("TCR_OLLAMA_URL");
	if (!base || !*base)
		base = OLLAMA_PROBE_BASE;
	snprintf(out->base, sizeof out->base, "%s", base);
	size_t n = strlen(out->base);
	while (n && out->base[n - 1] == '/')
		out->base[--n] = '\0';
	char url[600];
	snprintf(url, sizeof url, "%s/api/tags", out->base);
	struct strbuf reply = STRBUF_INIT;
	int rc = ask(url, timeout_ms, &reply);
	if (rc == 0)
		rc = read_models(&reply, out);
	strbuf_release(&reply);
	return rc;
}
