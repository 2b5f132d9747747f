/* client_transfer.c - one transfer: its curl handle and options (timeouts,
 * no redirects, verified TLS, the private CA), and collecting the answer's
 * body and the headers that matter (Retry-After, Location).
 */

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "client_int.h"
#include "util/clock.h"
#include "util/readfile.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/error.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "0"
#endif

static size_t write_cb(char *data, size_t size, size_t n, void *userp)
{
	struct task *t = userp;
	size_t len = size * n;
	if (t->body.len + len > BODY_MAX) {
		t->too_big = true;
		return 0;
	}
	strbuf_add(&t->body, data, len);
	return len;
}

static bool header_is(const char *h, size_t n, const char *name, const char **value)
{
	size_t k = strlen(name);
	if (n <= k || strncasecmp(h, name, k) || h[k] != ':')
		return false;
	*value = h + k + 1;
	return true;
}

static size_t header_cb(char *data, size_t size, size_t n, void *userp)
{
	struct task *t = userp;
	size_t len = size * n;
	char line[1024];
	size_t k = len < sizeof line - 1 ? len : sizeof line - 1;
	memcpy(line, data, k);
	line[k] = '\0';
	while (k && (line[k - 1] == '\r' || line[k - 1] == '\n'))
		line[--k] = '\0';
	const char *v;
	if (!strncmp(line, "HTTP/", 5)) {
		/* A new answer (after a 100 Continue, say) starts afresh. */
		t->retry_after_ms = -1;
		free(t->location);
		t->location = NULL;
	} else if (header_is(line, k, "retry-after-ms", &v)) {
		/* Azure's and OpenAI's finer form wins over Retry-After. */
		char *end;
		double ms = strtod(v, &end);
		if (end != v && isfinite(ms) && ms >= 0)
			t->retry_after_ms = (long)(ms < 1e9 ? ms : 1e9);
	} else if (header_is(line, k, "retry-after", &v)) {
		long ms = judge_retry_after_ms(v, time(NULL));
		if (ms >= 0 && t->retry_after_ms < 0)
			t->retry_after_ms = ms;
	} else if (header_is(line, k, "location", &v)) {
		while (*v == ' ')
			v++;
		free(t->location);
		t->location = strdup(v);
	}
	return len;
}

static double task_timeout_s(const struct judge_client *c, const struct task *t)
{
	if (c->timeout_s > 0)
		return c->timeout_s;
	return t->j->timeout_s > 0 ? t->j->timeout_s : DEFAULT_TIMEOUT_S;
}

static void easy_limits(CURL *e, double timeout_s)
{
	long timeout_ms = (long)(timeout_s * 1000.0);
	if (timeout_ms < 1)
		timeout_ms = 1;
	/* The whole exchange, body included, must end within the timeout: a
	 * server trickling its answer a byte at a time is cut off like a
	 * silent one. The low-speed limit additionally ends a transfer that
	 * stalls completely for as long. */
	curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, timeout_ms);
	curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS,
	                 timeout_ms < CONNECT_TIMEOUT_MS ? timeout_ms : CONNECT_TIMEOUT_MS);
	curl_easy_setopt(e, CURLOPT_LOW_SPEED_LIMIT, 1L);
	curl_easy_setopt(e, CURLOPT_LOW_SPEED_TIME, (timeout_ms + 999) / 1000);
}

/* No redirects (a key must not follow one to another host), verified
 * peers, and the private CA when there is one. */
static void easy_tls(struct judge_client *c, CURL *e)
{
	curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 1L);
	curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 2L);
	if (c->ca_bundle) {
#if LIBCURL_VERSION_NUM >= 0x074d00     /* 7.77 */
		struct curl_blob blob = { c->ca_bundle, c->ca_bundle_len, CURL_BLOB_NOCOPY };
		if (curl_easy_setopt(e, CURLOPT_CAINFO_BLOB, &blob) != CURLE_OK)
			curl_easy_setopt(e, CURLOPT_CAINFO, c->ca_file);
#else
		curl_easy_setopt(e, CURLOPT_CAINFO, c->ca_file);
#endif
	}
}

static int easy_setup(struct judge_client *c, struct task *t, struct error *err)
{
	CURL *e = curl_easy_init();
	if (!e) {
		error_set(err, ERR_FAILED, "cannot start a transfer (curl_easy_init failed)");
		return -1;
	}
	t->easy = e;
	t->hdrs = NULL;
	for (size_t i = 0; i < t->req.nheaders; i++)
		t->hdrs = curl_slist_append(t->hdrs, t->req.headers[i]);
	/* curl would otherwise wait for a 100 Continue before a big body. */
	t->hdrs = curl_slist_append(t->hdrs, "Expect:");

	curl_easy_setopt(e, CURLOPT_URL, t->req.url);
#if LIBCURL_VERSION_NUM >= 0x075500     /* 7.85 */
	curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
#else
	curl_easy_setopt(e, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
	curl_easy_setopt(e, CURLOPT_POST, 1L);
	curl_easy_setopt(e, CURLOPT_POSTFIELDS, t->req.body);
	curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)strlen(t->req.body));
	curl_easy_setopt(e, CURLOPT_HTTPHEADER, t->hdrs);
	curl_easy_setopt(e, CURLOPT_USERAGENT, "tcreview/" PACKAGE_VERSION);
	curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "");
	curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, write_cb);
	curl_easy_setopt(e, CURLOPT_WRITEDATA, t);
	curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, header_cb);
	curl_easy_setopt(e, CURLOPT_HEADERDATA, t);
	curl_easy_setopt(e, CURLOPT_PRIVATE, t);
	curl_easy_setopt(e, CURLOPT_ERRORBUFFER, t->errbuf);
	curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
	easy_limits(e, task_timeout_s(c, t));
	easy_tls(c, e);
	return 0;
}

void task_start(struct judge_client *c, struct task *t)
{
	struct error err = {0};
	strbuf_release(&t->body);
	t->too_big = false;
	t->retry_after_ms = -1;
	t->errbuf[0] = '\0';
	if (easy_setup(c, t, &err) < 0 ||
	    curl_multi_add_handle(c->multi, t->easy) != CURLM_OK) {
		if (t->easy) {
			curl_easy_cleanup(t->easy);
			t->easy = NULL;
			error_set(&err, ERR_FAILED, "cannot start a transfer");
		}
		judge_job_fail(t->job, err.msg);
		task_finish(c, t);
		return;
	}
	t->pool->running++;
	t->state = TASK_RUNNING;
	if (c->trace) {
		char *d = http_req_describe(&t->req);
		client_trace(c, "judge: #%lu %s, attempt %d\n%s\n", t->seq, t->j->id ? t->j->id : "?",
		      t->retries + 1, d);
		free(d);
	}
}

int client_ca_setup(struct judge_client *c, const char *file, struct error *err)
{
	struct strbuf mine = STRBUF_INIT, all = STRBUF_INIT;
	struct error why = {0};
	if (read_regular_file(&mine, file, CA_MAX, &why) < 0) {
		error_set(err, ERR_FAILED, "CA file %s", why.msg);
		return -1;
	}
	if (!mine.len || !strstr(mine.buf, "-----BEGIN CERTIFICATE-----")) {
		error_set(err, ERR_FAILED, "CA file %s: no PEM certificate in it", file);
		strbuf_release(&mine);
		return -1;
	}
#if LIBCURL_VERSION_NUM >= 0x074600     /* 7.70: the default bundle's path */
	curl_version_info_data *vi = curl_version_info(CURLVERSION_NOW);
	if (vi->age >= CURLVERSION_NINTH && vi->cainfo) {
		/* Unreadable: the default path list (CAPATH) may still serve. */
		if (read_regular_file(&all, vi->cainfo, CA_MAX, &why) < 0)
			strbuf_reset(&all);
		else
			strbuf_addch(&all, '\n');
	}
#endif
	strbuf_add(&all, mine.buf, mine.len);
	strbuf_release(&mine);
	c->ca_bundle_len = all.len;
	c->ca_bundle = strbuf_detach(&all);
	c->ca_file = strdup(file);
	return 0;
}
