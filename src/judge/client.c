/* client.c - judge requests over one curl multi handle, driven from the
 * caller's poll() loop.
 *
 * Each submitted job becomes a task that walks through the job's prompts:
 * take a prompt, build its request (provider.c), send it, hand the answer
 * to the job, take the next prompt. Tasks wait in submission order for a
 * free slot of their provider (at most opts.concurrency requests in flight
 * to one provider and address); a task between two prompts keeps its place
 * in that order, so jobs that started finish before new ones begin.
 *
 * curl tells us which sockets it wants watched (CURLMOPT_SOCKETFUNCTION) and
 * when it next needs to run (CURLMOPT_TIMERFUNCTION); judge_client_pollfds
 * hands both to the caller's poll(), and judge_client_run, which has no
 * revents to go on, polls those sockets again with a zero timeout and
 * feeds curl what is ready. Nothing here ever blocks.
 *
 * A request that fails with 429, a 5xx or a transport error (timeout,
 * refused, dropped connection) is sent again after an exponential backoff
 * with full jitter (a random wait in 0 .. min(20 s, 0.5 s * 2^n)), or after
 * what the server's Retry-After asks when that is longer, at most
 * judge->max_retries times.
 *
 * Keys: TLS peers and host names are always verified; redirects are never
 * followed, so a key cannot be carried to another host; the key's header is
 * wiped from memory when the request is done; error text from servers and
 * from curl is masked with provider_redact before the job sees it.
 *
 * Certificates: opts.ca_file is added to curl's default bundle by handing
 * curl both as one in-memory bundle (CURLOPT_CAINFO_BLOB; the default
 * CAPATH stays in use too). Where the TLS library cannot take a bundle from
 * memory, the file is given as CURLOPT_CAINFO instead, and then it replaces
 * the default bundle rather than adding to it.
 */
#include "judge/client.h"
#include "util/clock.h"

#include <curl/curl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/strbuf.h"
#include "util/xalloc.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "0"
#endif

#define DEFAULT_CONCURRENCY 8
#define DEFAULT_TIMEOUT_S 60.0
#define DEFAULT_MAX_RETRIES 4
#define BACKOFF_BASE_MS 500.0
#define BACKOFF_CAP_MS 20000.0
/* A server that asks for a longer pause (a daily quota, typically) gets an
 * error instead: nobody waits at the review screen for an hour. */
#define RETRY_AFTER_MAX_MS 120000L
#define CONNECT_TIMEOUT_MS 15000L
/* Far beyond any verdict; a bigger answer is some other server's page. */
#define BODY_MAX (16u << 20)
#define CA_MAX (8u << 20)

enum task_state {
	TASK_READY,             /* waits for its next prompt or for a slot */
	TASK_WAIT,              /* backing off until ready_at */
	TASK_RUNNING,           /* a request in flight */
};

/* Requests in flight to one provider at one address. */
struct pool {
	char *name;
	int running;
	struct pool *next;
};

struct task {
	const struct judge_conf *j;
	struct judge_job *job;
	uint64_t tag;
	judge_done_fn done;
	void *ctx;
	enum task_state state;
	bool has_req;           /* the current prompt's request is built */
	bool cancelled;
	struct http_req req;
	struct pool *pool;
	int retries;            /* spent on the current prompt */
	double ready_at;        /* TASK_WAIT: monotonic ms */
	unsigned long seq;      /* for trace lines */

	CURL *easy;
	struct curl_slist *hdrs;
	struct strbuf body;
	bool too_big;
	long retry_after_ms;    /* from the answer's headers, -1 when none */
	char *location;
	char errbuf[CURL_ERROR_SIZE];

	struct task *prev, *next;
};

struct sock {
	curl_socket_t fd;
	int what;               /* CURL_POLL_IN, _OUT, _INOUT */
};

struct judge_client {
	CURLM *multi;
	int concurrency;
	double timeout_s;
	FILE *trace;
	char *ca_file;
	char *ca_bundle;        /* the default bundle and ca_file, for CURLOPT_CAINFO_BLOB */
	size_t ca_bundle_len;

	struct task *head, *tail;       /* unfinished, in submission order */
	struct task *fin_head, *fin_tail;   /* finished, done not yet called */
	struct pool *pools;
	struct sock *socks;
	size_t nsocks, socks_cap;
	double timer_at;        /* when curl next wants to run, monotonic ms; < 0 none */
	bool timer_set;         /* the timer callback ran (see run_timer) */
	uint64_t rng;
	unsigned long seq;
	bool in_run;

	size_t ndone, nerrors, nretries;
	long prompt_tokens, completion_tokens;
};

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

/* ---- sockets and timer, as curl reports them -------------------------- */

static int sock_cb(CURL *easy, curl_socket_t s, int what, void *userp, void *socketp)
{
	struct judge_client *c = userp;
	(void)easy;
	(void)socketp;
	size_t i;
	for (i = 0; i < c->nsocks; i++)
		if (c->socks[i].fd == s)
			break;
	if (what == CURL_POLL_REMOVE) {
		if (i < c->nsocks)
			c->socks[i] = c->socks[--c->nsocks];
		return 0;
	}
	if (i == c->nsocks) {
		if (c->nsocks == c->socks_cap) {
			size_t cap = c->socks_cap ? c->socks_cap * 2 : 16;
			struct sock *ns = realloc(c->socks, cap * sizeof *ns);
			if (!ns) {
				fputs("tcreview: out of memory\n", stderr);
				abort();
			}
			c->socks = ns;
			c->socks_cap = cap;
		}
		c->nsocks++;
	}
	c->socks[i].fd = s;
	c->socks[i].what = what;
	return 0;
}

static int timer_cb(CURLM *multi, long timeout_ms, void *userp)
{
	struct judge_client *c = userp;
	(void)multi;
	c->timer_at = timeout_ms < 0 ? -1 : now_ms() + (double)timeout_ms;
	c->timer_set = true;
	return 0;
}

/* ---- pools ---------------------------------------------------------------- */

/* Providers limit requests per account and address, so that is what a
 * pool counts: the provider and the URL's scheme, host and port. */
static struct pool *pool_get(struct judge_client *c, const struct judge_conf *j, const char *url)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, provider_name(j->provider));
	strbuf_addch(&sb, ' ');
	const char *host = strstr(url, "://");
	host = host ? host + 3 : url;
	size_t n = strcspn(host, "/?#");
	strbuf_add(&sb, url, (size_t)(host - url) + n);
	for (struct pool *p = c->pools; p; p = p->next)
		if (!strcmp(p->name, sb.buf)) {
			strbuf_release(&sb);
			return p;
		}
	struct pool *p = xcalloc(1, sizeof *p);
	p->name = strbuf_detach(&sb);
	p->next = c->pools;
	c->pools = p;
	return p;
}

/* ---- tasks ----------------------------------------------------------------- */

static void task_unlink(struct judge_client *c, struct task *t)
{
	if (t->prev)
		t->prev->next = t->next;
	else
		c->head = t->next;
	if (t->next)
		t->next->prev = t->prev;
	else
		c->tail = t->prev;
	t->prev = t->next = NULL;
}

static void wipe_slist(struct curl_slist *l)
{
	for (struct curl_slist *p = l; p; p = p->next)
		explicit_bzero(p->data, strlen(p->data));
	curl_slist_free_all(l);
}

/* Takes the task's transfer out of curl and frees its slot. */
static void task_detach(struct judge_client *c, struct task *t)
{
	if (t->easy) {
		curl_multi_remove_handle(c->multi, t->easy);
		curl_easy_cleanup(t->easy);
		t->easy = NULL;
		if (t->pool)
			t->pool->running--;
	}
	wipe_slist(t->hdrs);
	t->hdrs = NULL;
	strbuf_release(&t->body);
	free(t->location);
	t->location = NULL;
}

static void task_free(struct judge_client *c, struct task *t)
{
	task_detach(c, t);
	http_req_free(&t->req);
	free(t);
}

/* Moves a task whose job is finished to the list whose done callbacks
 * notify() calls. */
static void task_finish(struct judge_client *c, struct task *t)
{
	task_detach(c, t);
	http_req_free(&t->req);
	t->has_req = false;
	task_unlink(c, t);
	c->ndone++;
	if (!t->cancelled) {
		struct verdict v = { 0 };
		judge_job_verdict(t->job, &v);
		if (v.status == VERDICT_ERROR)
			c->nerrors++;
		verdict_clear(&v);
	}
	if (c->fin_tail)
		c->fin_tail->next = t;
	else
		c->fin_head = t;
	t->prev = c->fin_tail;
	c->fin_tail = t;
}

/* Calls done for finished tasks. A callback may submit or cancel jobs
 * (even re-entering this through judge_client_cancel), so each task is
 * taken off the list before its callback runs. */
static void notify(struct judge_client *c)
{
	while (c->fin_head) {
		struct task *t = c->fin_head;
		c->fin_head = t->next;
		if (c->fin_head)
			c->fin_head->prev = NULL;
		else
			c->fin_tail = NULL;
		judge_done_fn done = t->done;
		void *ctx = t->ctx;
		struct judge_job *job = t->job;
		uint64_t tag = t->tag;
		task_free(c, t);
		if (done)
			done(ctx, job, tag);
	}
}

static void trace(struct judge_client *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void trace(struct judge_client *c, const char *fmt, ...)
{
	if (!c->trace)
		return;
	va_list ap;
	va_start(ap, fmt);
	vfprintf(c->trace, fmt, ap);
	va_end(ap);
	fflush(c->trace);
}

/* ---- one transfer ---------------------------------------------------------- */

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

static int task_max_retries(const struct task *t)
{
	return t->j->max_retries >= 0 ? t->j->max_retries : DEFAULT_MAX_RETRIES;
}

static int easy_setup(struct judge_client *c, struct task *t, char *err, size_t errlen)
{
	CURL *e = curl_easy_init();
	if (!e) {
		set_err(err, errlen, "cannot start a transfer (curl_easy_init failed)");
		return -1;
	}
	t->easy = e;
	t->hdrs = NULL;
	for (size_t i = 0; i < t->req.nheaders; i++)
		t->hdrs = curl_slist_append(t->hdrs, t->req.headers[i]);
	/* curl would otherwise wait for a 100 Continue before a big body. */
	t->hdrs = curl_slist_append(t->hdrs, "Expect:");

	long timeout_ms = (long)(task_timeout_s(c, t) * 1000.0);
	if (timeout_ms < 1)
		timeout_ms = 1;
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
	/* The whole exchange, body included, must end within the timeout: a
	 * server trickling its answer a byte at a time is cut off like a
	 * silent one. The low-speed limit additionally ends a transfer that
	 * stalls completely for as long. */
	curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, timeout_ms);
	curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS,
	                 timeout_ms < CONNECT_TIMEOUT_MS ? timeout_ms : CONNECT_TIMEOUT_MS);
	curl_easy_setopt(e, CURLOPT_LOW_SPEED_LIMIT, 1L);
	curl_easy_setopt(e, CURLOPT_LOW_SPEED_TIME, (timeout_ms + 999) / 1000);
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
	return 0;
}

static void task_start(struct judge_client *c, struct task *t)
{
	char err[256];
	strbuf_release(&t->body);
	t->too_big = false;
	t->retry_after_ms = -1;
	t->errbuf[0] = '\0';
	if (easy_setup(c, t, err, sizeof err) < 0 ||
	    curl_multi_add_handle(c->multi, t->easy) != CURLM_OK) {
		if (t->easy) {
			curl_easy_cleanup(t->easy);
			t->easy = NULL;
			set_err(err, sizeof err, "cannot start a transfer");
		}
		judge_job_fail(t->job, err);
		task_finish(c, t);
		return;
	}
	t->pool->running++;
	t->state = TASK_RUNNING;
	if (c->trace) {
		char *d = http_req_describe(&t->req);
		trace(c, "judge: #%lu %s, attempt %d\n%s\n", t->seq, t->j->id ? t->j->id : "?",
		      t->retries + 1, d);
		free(d);
	}
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

static void task_answered(struct judge_client *c, struct task *t, CURLcode rc)
{
	long status = 0;
	curl_off_t us = 0;
	curl_easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &status);
	curl_easy_getinfo(t->easy, CURLINFO_TOTAL_TIME_T, &us);
	double secs = (double)us / 1e6;
	char err[1024] = "";
	bool retry = false;
	char origin[256];
	origin_of(t->req.url, origin, sizeof origin);

	if (rc != CURLE_OK) {
		if (t->too_big)
			set_err(err, sizeof err, "%s: the answer is larger than %u MB", origin, BODY_MAX >> 20);
		else
			set_err(err, sizeof err, "%s: %s", origin,
			        t->errbuf[0] ? t->errbuf : curl_easy_strerror(rc));
		retry = transient(rc);
		status = 0;
	} else if (status >= 300 && status < 400) {
		char loc[512];
		snprintf(loc, sizeof loc, "%s", t->location ? t->location : "an address it did not give");
		for (char *p = loc; *p; p++)
			if ((unsigned char)*p < 0x20)
				*p = ' ';
		set_err(err, sizeof err, "HTTP %ld: %s redirects to %s; redirects are not followed, so "
		        "that no key goes to another host (set base_url to the final address)",
		        status, origin, loc);
	} else {
		char *text = NULL;
		struct judge_reply rep = { 0 };
		int prc = provider_reply(t->j, status, t->body.buf, t->body.len, &text, &rep,
		                         err, sizeof err);
		if (prc == 0) {
			/* The model only knows what it was sent, but a server
			 * that echoes its request would hand the key back. */
			provider_redact(t->j, text);
			rep.text = text;
			rep.error = NULL;
			rep.seconds = secs;
			if (rep.prompt_tokens > 0)
				c->prompt_tokens += rep.prompt_tokens;
			if (rep.completion_tokens > 0)
				c->completion_tokens += rep.completion_tokens;
			trace(c, "judge: #%lu HTTP %ld in %.2f s, %zu bytes\n", t->seq, status, secs,
			      t->body.len);
			task_detach(c, t);
			http_req_free(&t->req);
			t->has_req = false;
			t->state = TASK_READY;
			judge_job_take_reply(t->job, &rep);
			free(text);
			return;
		}
		retry = status == 429 || status >= 500;
	}
	provider_redact(t->j, err);
	task_detach(c, t);

	if (retry && t->retries < task_max_retries(t)) {
		double d = backoff_ms(c, t->retries, t->retry_after_ms);
		if (t->retry_after_ms <= RETRY_AFTER_MAX_MS) {
			t->retries++;
			c->nretries++;
			t->state = TASK_WAIT;
			t->ready_at = now_ms() + d;
			trace(c, "judge: #%lu %s; retry %d in %.1f s\n", t->seq, err, t->retries, d / 1e3);
			return;
		}
		size_t n = strlen(err);
		snprintf(err + n, sizeof err - n, " (the provider asks to wait %ld s)",
		         t->retry_after_ms / 1000);
	} else if (retry && t->retries > 0) {
		size_t n = strlen(err);
		snprintf(err + n, sizeof err - n, " (after %d %s)", t->retries,
		         t->retries == 1 ? "retry" : "retries");
	}
	trace(c, "judge: #%lu %s\n", t->seq, err);
	struct judge_reply rep = {
		.text = NULL, .http_status = status, .error = err,
		.prompt_tokens = -1, .completion_tokens = -1, .seconds = secs,
	};
	judge_job_take_reply(t->job, &rep);
	/* A failed request ends the job whatever the job thinks of it: asking
	 * the same server again at once would fail the same way. */
	if (!judge_job_done(t->job))
		judge_job_fail(t->job, err);
	task_finish(c, t);
}

/* Takes prompts and starts requests for tasks that can go; returns
 * whether anything changed. */
static bool advance(struct judge_client *c)
{
	bool changed = false;
	double now = now_ms();
	struct task *next;
	for (struct task *t = c->head; t; t = next) {
		next = t->next;
		if (t->state == TASK_WAIT && t->ready_at <= now)
			t->state = TASK_READY;
		if (t->state != TASK_READY)
			continue;
		if (!t->has_req) {
			struct judge_prompt p;
			memset(&p, 0, sizeof p);
			changed = true;
			if (!judge_job_next_prompt(t->job, &p)) {
				task_finish(c, t);
				continue;
			}
			char err[512];
			if (provider_request(t->j, &p, &t->req, err, sizeof err) < 0) {
				judge_job_fail(t->job, err);
				task_finish(c, t);
				continue;
			}
			t->has_req = true;
			t->retries = 0;
			t->pool = pool_get(c, t->j, t->req.url);
		}
		if (t->pool->running >= c->concurrency)
			continue;
		task_start(c, t);
		changed = true;
	}
	return changed;
}

/* ---- the interface ----------------------------------------------------------- */

static int ca_setup(struct judge_client *c, const char *file, char *err, size_t errlen)
{
	struct strbuf mine = STRBUF_INIT, all = STRBUF_INIT;
	char why[512];
	if (strbuf_read_file(&mine, file, CA_MAX, why, sizeof why) < 0) {
		set_err(err, errlen, "CA file %s", why);
		return -1;
	}
	if (!mine.len || !strstr(mine.buf, "-----BEGIN CERTIFICATE-----")) {
		set_err(err, errlen, "CA file %s: no PEM certificate in it", file);
		strbuf_release(&mine);
		return -1;
	}
#if LIBCURL_VERSION_NUM >= 0x074600     /* 7.70: the default bundle's path */
	curl_version_info_data *vi = curl_version_info(CURLVERSION_NOW);
	if (vi->age >= CURLVERSION_NINTH && vi->cainfo) {
		/* Unreadable: the default path list (CAPATH) may still serve. */
		if (strbuf_read_file(&all, vi->cainfo, CA_MAX, why, sizeof why) < 0)
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

struct judge_client *judge_client_new(const struct judge_client_opts *o, char *err, size_t errlen)
{
	static bool curl_ready;
	if (!curl_ready) {
		if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
			set_err(err, errlen, "cannot initialise libcurl");
			return NULL;
		}
		curl_ready = true;
	}
	struct judge_client *c = xcalloc(1, sizeof *c);
	c->concurrency = o && o->concurrency > 0 ? o->concurrency : DEFAULT_CONCURRENCY;
	c->timeout_s = o ? o->timeout_s : 0;
	c->trace = o ? o->trace : NULL;
	c->timer_at = -1;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	c->rng = ((uint64_t)ts.tv_nsec << 20) ^ (uint64_t)ts.tv_sec ^ ((uint64_t)getpid() << 40) ^
	         (uint64_t)(uintptr_t)c;
	if (!c->rng)
		c->rng = 0x9E3779B97F4A7C15ULL;
	if (o && o->ca_file && *o->ca_file && ca_setup(c, o->ca_file, err, errlen) < 0) {
		free(c);
		return NULL;
	}
	c->multi = curl_multi_init();
	if (!c->multi) {
		set_err(err, errlen, "cannot initialise libcurl (curl_multi_init failed)");
		judge_client_free(c);
		return NULL;
	}
	curl_multi_setopt(c->multi, CURLMOPT_SOCKETFUNCTION, sock_cb);
	curl_multi_setopt(c->multi, CURLMOPT_SOCKETDATA, c);
	curl_multi_setopt(c->multi, CURLMOPT_TIMERFUNCTION, timer_cb);
	curl_multi_setopt(c->multi, CURLMOPT_TIMERDATA, c);
	return c;
}

void judge_client_free(struct judge_client *c)
{
	if (!c)
		return;
	/* Jobs still queued are dropped without their done callback: the
	 * caller that frees the client owns them and is tearing down. */
	struct task *t, *next;
	for (t = c->head; t; t = next) {
		next = t->next;
		task_free(c, t);
	}
	for (t = c->fin_head; t; t = next) {
		next = t->next;
		task_free(c, t);
	}
	while (c->pools) {
		struct pool *p = c->pools;
		c->pools = p->next;
		free(p->name);
		free(p);
	}
	if (c->multi)
		curl_multi_cleanup(c->multi);
	free(c->socks);
	free(c->ca_bundle);
	free(c->ca_file);
	free(c);
}

void judge_client_submit(struct judge_client *c, const struct judge_conf *j, struct judge_job *job,
                         uint64_t tag, judge_done_fn done, void *ctx)
{
	struct task *t = xcalloc(1, sizeof *t);
	t->j = j;
	t->job = job;
	t->tag = tag;
	t->done = done;
	t->ctx = ctx;
	t->state = TASK_READY;
	t->req.key_header = SIZE_MAX;
	t->retry_after_ms = -1;
	t->seq = ++c->seq;
	t->prev = c->tail;
	if (c->tail)
		c->tail->next = t;
	else
		c->head = t;
	c->tail = t;
}

size_t judge_client_cancel(struct judge_client *c, uint64_t tag)
{
	size_t n = 0;
	struct task *next;
	for (struct task *t = c->head; t; t = next) {
		next = t->next;
		if (t->tag != tag)
			continue;
		task_detach(c, t);
		t->cancelled = true;
		judge_job_fail(t->job, "cancelled");
		task_finish(c, t);
		n++;
	}
	if (!c->in_run)
		notify(c);
	return n;
}

size_t judge_client_pending(const struct judge_client *c)
{
	size_t n = 0;
	for (const struct task *t = c->head; t; t = t->next)
		n++;
	for (const struct task *t = c->fin_head; t; t = t->next)
		n++;
	return n;
}

int judge_client_pollfds(struct judge_client *c, struct pollfd *fds, int max, int *timeout_ms)
{
	int n = 0;
	for (size_t i = 0; i < c->nsocks && n < max; i++, n++) {
		fds[n].fd = c->socks[i].fd;
		fds[n].events = 0;
		fds[n].revents = 0;
		if (c->socks[i].what & CURL_POLL_IN)
			fds[n].events |= POLLIN;
		if (c->socks[i].what & CURL_POLL_OUT)
			fds[n].events |= POLLOUT;
	}
	double now = now_ms();
	double wait = -1;
	if (c->timer_at >= 0)
		wait = c->timer_at - now;
	if (c->fin_head)
		wait = 0;
	for (struct task *t = c->head; t && wait != 0; t = t->next) {
		double w;
		if (t->state == TASK_WAIT)
			w = t->ready_at > now ? t->ready_at - now : 0;
		else if (t->state == TASK_READY && (!t->has_req || t->pool->running < c->concurrency))
			w = 0;
		else
			continue;
		if (wait < 0 || w < wait)
			wait = w;
	}
	/* Sockets the caller had no room for are polled by run itself. */
	if ((size_t)n < c->nsocks && (wait < 0 || wait > 10))
		wait = 10;
	if (wait < 0)
		*timeout_ms = -1;
	else if (wait <= 0)
		*timeout_ms = 0;
	else
		*timeout_ms = wait > 1e9 ? 1000000000 : (int)ceil(wait);
	return n;
}

/* Lets curl handle its timeouts when they are due. */
static bool run_timer(struct judge_client *c)
{
	if (c->timer_at < 0 || c->timer_at > now_ms())
		return false;
	int running;
	c->timer_set = false;
	curl_multi_socket_action(c->multi, CURL_SOCKET_TIMEOUT, 0, &running);
	if (!c->timer_set) {
		/* curl calls the timer callback only when its deadline moved;
		 * ask, so that a stale deadline cannot make us spin. */
		long ms = -1;
		curl_multi_timeout(c->multi, &ms);
		c->timer_at = ms < 0 ? -1 : now_ms() + (double)ms;
	}
	return true;
}

static bool run_sockets(struct judge_client *c)
{
	if (!c->nsocks)
		return false;
	size_t n = c->nsocks;
	struct pollfd *pf = xcalloc(n, sizeof *pf);
	for (size_t i = 0; i < n; i++) {
		pf[i].fd = c->socks[i].fd;
		if (c->socks[i].what & CURL_POLL_IN)
			pf[i].events |= POLLIN;
		if (c->socks[i].what & CURL_POLL_OUT)
			pf[i].events |= POLLOUT;
	}
	bool any = false;
	if (poll(pf, (nfds_t)n, 0) > 0) {
		for (size_t i = 0; i < n; i++) {
			if (!pf[i].revents)
				continue;
			int ev = 0;
			if (pf[i].revents & (POLLIN | POLLHUP))
				ev |= CURL_CSELECT_IN;
			if (pf[i].revents & POLLOUT)
				ev |= CURL_CSELECT_OUT;
			if (pf[i].revents & (POLLERR | POLLNVAL))
				ev |= CURL_CSELECT_ERR;
			int running;
			curl_multi_socket_action(c->multi, pf[i].fd, ev, &running);
			any = true;
		}
	}
	free(pf);
	return any;
}

static bool run_messages(struct judge_client *c)
{
	bool any = false;
	CURLMsg *m;
	int left;
	while ((m = curl_multi_info_read(c->multi, &left))) {
		if (m->msg != CURLMSG_DONE)
			continue;
		char *priv = NULL;
		CURL *e = m->easy_handle;
		CURLcode rc = m->data.result;
		curl_easy_getinfo(e, CURLINFO_PRIVATE, &priv);
		struct task *t = (struct task *)priv;
		if (t)
			task_answered(c, t, rc);
		any = true;
	}
	return any;
}

void judge_client_run(struct judge_client *c)
{
	if (c->in_run)
		return;
	c->in_run = true;
	/* A few rounds, so that a request started here also gets its first
	 * push (curl asks for a zero timeout after each new transfer) and a
	 * finished prompt's successor is sent at once. */
	for (int round = 0; round < 8; round++) {
		bool busy = run_sockets(c);
		busy |= run_timer(c);
		busy |= run_messages(c);
		busy |= advance(c);
		if (!busy && !(c->timer_at >= 0 && c->timer_at <= now_ms()))
			break;
	}
	c->in_run = false;
	notify(c);
}

void judge_client_stats(const struct judge_client *c, struct judge_stats *st)
{
	memset(st, 0, sizeof *st);
	for (const struct task *t = c->head; t; t = t->next) {
		if (t->state == TASK_RUNNING)
			st->running++;
		else
			st->queued++;
	}
	st->done = c->ndone;
	st->errors = c->nerrors;
	st->retries = c->nretries;
	st->prompt_tokens = c->prompt_tokens;
	st->completion_tokens = c->completion_tokens;
}
