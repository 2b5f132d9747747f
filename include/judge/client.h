/* client.h - sending judge requests without blocking anyone.
 *
 * One curl multi handle drives every request. The screen's event loop polls
 * the client's sockets beside the terminal and calls judge_client_run when
 * either is ready; `tcreview judge` does the same in a loop of its own. */
#ifndef TCR_JUDGE_CLIENT_H
#define TCR_JUDGE_CLIENT_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "judge/judge.h"

/* One HTTP request as a provider builds it (no curl types here). */
struct http_req {
	char *url;
	char **headers;             /* "Name: value" */
	size_t nheaders;
	char *body;
	size_t key_header;          /* index of the header holding the key, or SIZE_MAX */
};
void http_req_free(struct http_req *req);
/* The request as text for debug output, the key's header shown as
 * "Name: ***" (malloc'd). */
char *http_req_describe(const struct http_req *req);

/* Builds the request a provider expects for a prompt. The key comes from
 * the environment (j->api_key_env or the provider's usual variable) and
 * goes only into the header. Returns 0, or -1 with a reason. */
int provider_request(const struct judge_conf *j, const struct judge_prompt *p, struct http_req *req,
                     char *err, size_t errlen);
/* Reads a provider's HTTP answer: the message text (malloc'd into *text)
 * and token usage into reply. Returns 0, or -1 with a reason (an HTTP
 * error's own message when the body has one). */
int provider_reply(const struct judge_conf *j, long status, const char *body, size_t len,
                   char **text, struct judge_reply *reply, char *err, size_t errlen);
const char *provider_name(enum provider_kind p);
/* Overwrites each occurrence of the judge's API key in text with '*', for
 * text that came back from a server (which may echo what it was sent). */
void provider_redact(const struct judge_conf *j, char *text);

struct judge_client_opts {
	int concurrency;            /* requests in flight at most, per provider (default 8) */
	const char *ca_file;        /* a private CA, added to the system's */
	double timeout_s;           /* overrides the judges' own when > 0 */
	FILE *trace;                /* NULL, or where each request and answer is described
	                               (keys shown as ***) */
};

struct judge_client;
typedef void (*judge_done_fn)(void *ctx, struct judge_job *job, uint64_t tag);

struct judge_client *judge_client_new(const struct judge_client_opts *o, char *err, size_t errlen);
void judge_client_free(struct judge_client *c);

/* Queues a job; its prompts are sent one after another, with retries
 * (exponential backoff with jitter on 429 and 5xx, honouring Retry-After;
 * a timeout per request). done is called once the job is finished (the
 * job stays the caller's). tag groups jobs, e.g. by run, for cancelling. */
void   judge_client_submit(struct judge_client *c, const struct judge_conf *j, struct judge_job *job,
                           uint64_t tag, judge_done_fn done, void *ctx);
/* Cancels every queued or running job with this tag; their done is called
 * with an error verdict "cancelled". Returns how many. */
size_t judge_client_cancel(struct judge_client *c, uint64_t tag);
size_t judge_client_pending(const struct judge_client *c);

/* For an event loop: fills up to max pollfds with the client's sockets and
 * sets *timeout_ms to when it next needs to run (-1: no need). */
int  judge_client_pollfds(struct judge_client *c, struct pollfd *fds, int max, int *timeout_ms);
/* Advances transfers without blocking and calls done for finished jobs. */
void judge_client_run(struct judge_client *c);

struct judge_stats {
	size_t queued, running, done, errors, retries;
	long prompt_tokens, completion_tokens;
};
void judge_client_stats(const struct judge_client *c, struct judge_stats *st);

/* A Retry-After value (delay-seconds or an HTTP date) as milliseconds from
 * now; -1 when it is neither. */
long judge_retry_after_ms(const char *value, time_t now);

#endif
