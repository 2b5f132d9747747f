/* client.c - judge requests over one curl multi handle: tasks in
 * submission order, their pools, submitting, cancelling, counting.
 * The event loop is client_loop.c, one transfer client_transfer.c, what an
 * answer means and the retries client_retry.c.
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

void task_detach(struct judge_client *c, struct task *t)
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

void task_finish(struct judge_client *c, struct task *t)
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
void client_notify(struct judge_client *c)
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

void client_trace(struct judge_client *c, const char *fmt, ...)
{
	if (!c->trace)
		return;
	va_list ap;
	va_start(ap, fmt);
	vfprintf(c->trace, fmt, ap);
	va_end(ap);
	fflush(c->trace);
}

bool client_advance(struct judge_client *c)
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
			struct error err = {0};
			if (provider_request(t->j, &p, &t->req, &err) < 0) {
				judge_job_fail(t->job, err.msg);
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

struct judge_client *judge_client_new(const struct judge_client_opts *o, struct error *err)
{
	static bool curl_ready;
	if (!curl_ready) {
		if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
			error_set(err, ERR_FAILED, "cannot initialise libcurl");
			return NULL;
		}
		curl_ready = true;
	}
	struct judge_client *c = xcalloc(1, sizeof *c);
	c->concurrency = o && o->concurrency > 0 ? o->concurrency : DEFAULT_CONCURRENCY;
	c->timeout_s = o ? o->timeout_s : 0;
	c->trace = o ? o->trace : NULL;
	c->timer_at = -1;
	client_rng_seed(c);
	if (o && o->ca_file && *o->ca_file && client_ca_setup(c, o->ca_file, err) < 0) {
		free(c);
		return NULL;
	}
	if (client_multi_init(c, err) < 0) {
		judge_client_free(c);
		return NULL;
	}
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
		client_notify(c);
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
