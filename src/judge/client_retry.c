/* client_retry.c - what a finished transfer means: the reply for the job,
 * or a retry after an exponential backoff with full jitter (honouring
 * Retry-After, read here too), or the job's end with the error.
 */

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "client_int.h"
#include "util/clock.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/error.h"

/* A Retry-After value: delay-seconds or an HTTP date. */
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

void client_rng_seed(struct judge_client *c)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	c->rng = ((uint64_t)ts.tv_nsec << 20) ^ (uint64_t)ts.tv_sec ^ ((uint64_t)getpid() << 40) ^
	         (uint64_t)(uintptr_t)c;
	if (!c->rng)
		c->rng = 0x9E3779B97F4A7C15ULL;
}

/* xorshift64*: jitter needs spread, not secrecy. */
static double rng_unit(struct judge_client *c)
{
	uint64_t x = c->rng;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	c->rng = x;
	return (double)((x * 0x2545F4914F6CDD1DULL) >> 11) / 9007199254740992.0;
}

static bool transient(CURLcode rc)
{
	switch (rc) {
	case CURLE_OPERATION_TIMEDOUT:
	case CURLE_COULDNT_CONNECT:
	case CURLE_SEND_ERROR:
	case CURLE_RECV_ERROR:
	case CURLE_GOT_NOTHING:
	case CURLE_PARTIAL_FILE:
	case CURLE_HTTP2:
	case CURLE_HTTP2_STREAM:
		return true;
	default:
		return false;
	}
}

/* The wait before retry number n+1, in ms. */
static double backoff_ms(struct judge_client *c, int n, long retry_after_ms)
{
	double cap = BACKOFF_BASE_MS * pow(2.0, n);
	if (cap > BACKOFF_CAP_MS)
		cap = BACKOFF_CAP_MS;
	double d = rng_unit(c) * cap;
	if (retry_after_ms >= 0 && (double)retry_after_ms > d)
		d = (double)retry_after_ms;
	return d;
}

/* scheme://host[:port] of the request, to say whom a failure concerns. */
static void origin_of(const char *url, char *out, size_t outlen)
{
	const char *host = strstr(url, "://");
	host = host ? host + 3 : url;
	size_t n = (size_t)(host - url) + strcspn(host, "/?#");
	snprintf(out, outlen, "%.*s", (int)n, url);
}

static int task_max_retries(const struct task *t)
{
	return t->j->max_retries >= 0 ? t->j->max_retries : DEFAULT_MAX_RETRIES;
}

/* A transfer that did not complete: why, and whether trying again may help. */
static bool transfer_failed(const struct task *t, CURLcode rc, const char *origin,
                            struct error *err)
{
	if (t->too_big)
		error_set(err, ERR_FAILED, "%s: the answer is larger than %u MB", origin, BODY_MAX >> 20);
	else
		error_set(err, ERR_FAILED, "%s: %s", origin, t->errbuf[0] ? t->errbuf : curl_easy_strerror(rc));
	return transient(rc);
}

static void redirect_refused(const struct task *t, long status, const char *origin,
                             struct error *err)
{
	char loc[512];
	snprintf(loc, sizeof loc, "%s", t->location ? t->location : "an address it did not give");
	for (char *p = loc; *p; p++)
		if ((unsigned char)*p < 0x20)
			*p = ' ';
	error_set(err, ERR_FAILED, "HTTP %ld: %s redirects to %s; redirects are not followed, so "
	        "that no key goes to another host (set base_url to the final address)",
	        status, origin, loc);
}

/* Hands a readable answer to the job and readies the task for its next
 * prompt. False (err set) when the provider's answer is an error. */
static bool reply_taken(struct judge_client *c, struct task *t, long status, double secs,
                        struct error *err)
{
	char *text = NULL;
	struct judge_reply rep = { 0 };
	if (provider_reply(t->j, status, t->body.buf, t->body.len, &text, &rep, err) < 0)
		return false;
	/* The model only knows what it was sent, but a server that echoes its
	 * request would hand the key back. */
	provider_redact(t->j, text);
	rep.text = text;
	rep.error = NULL;
	rep.seconds = secs;
	if (rep.prompt_tokens > 0)
		c->prompt_tokens += rep.prompt_tokens;
	if (rep.completion_tokens > 0)
		c->completion_tokens += rep.completion_tokens;
	client_trace(c, "judge: #%lu HTTP %ld in %.2f s, %zu bytes\n", t->seq, status, secs,
	             t->body.len);
	task_detach(c, t);
	http_req_free(&t->req);
	t->has_req = false;
	t->state = TASK_READY;
	judge_job_take_reply(t->job, &rep);
	free(text);
	return true;
}

/* Schedules another attempt when one is due and allowed; otherwise adds
 * to err why there is none. True when the task waits for a retry. */
static bool retry_later(struct judge_client *c, struct task *t, bool retry, struct error *err)
{
	if (retry && t->retries < task_max_retries(t)) {
		double d = backoff_ms(c, t->retries, t->retry_after_ms);
		if (t->retry_after_ms <= RETRY_AFTER_MAX_MS) {
			t->retries++;
			c->nretries++;
			t->state = TASK_WAIT;
			t->ready_at = now_ms() + d;
			client_trace(c, "judge: #%lu %s; retry %d in %.1f s\n", t->seq, err->msg, t->retries,
			             d / 1e3);
			return true;
		}
		error_append(err, " (the provider asks to wait %ld s)",
		         t->retry_after_ms / 1000);
	} else if (retry && t->retries > 0) {
		error_append(err, " (after %d %s)", t->retries,
		         t->retries == 1 ? "retry" : "retries");
	}
	return false;
}

void task_answered(struct judge_client *c, struct task *t, CURLcode rc)
{
	long status = 0;
	curl_off_t us = 0;
	curl_easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &status);
	curl_easy_getinfo(t->easy, CURLINFO_TOTAL_TIME_T, &us);
	double secs = (double)us / 1e6;
	struct error err = {0};
	bool retry = false;
	char origin[256];
	origin_of(t->req.url, origin, sizeof origin);

	if (rc != CURLE_OK) {
		retry = transfer_failed(t, rc, origin, &err);
		status = 0;
	} else if (status >= 300 && status < 400) {
		redirect_refused(t, status, origin, &err);
	} else {
		if (reply_taken(c, t, status, secs, &err))
			return;
		retry = status == 429 || status >= 500;
	}
	provider_redact(t->j, err.msg);
	task_detach(c, t);
	if (retry_later(c, t, retry, &err))
		return;
	client_trace(c, "judge: #%lu %s\n", t->seq, err.msg);
	struct judge_reply rep = {
		.text = NULL, .http_status = status, .error = err.msg,
		.prompt_tokens = -1, .completion_tokens = -1, .seconds = secs,
	};
	judge_job_take_reply(t->job, &rep);
	/* A failed request ends the job whatever the job thinks of it: asking
	 * the same server again at once would fail the same way. */
	if (!judge_job_done(t->job))
		judge_job_fail(t->job, err.msg);
	task_finish(c, t);
}
