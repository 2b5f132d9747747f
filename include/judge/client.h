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
#include "judge/provider.h"
#include "util/error.h"

struct judge_client_opts {
	int concurrency;            /* requests in flight at most, per provider (default 8) */
	const char *ca_file;        /* a private CA, added to the system's */
	double timeout_s;           /* overrides the judges' own when > 0 */
	FILE *trace;                /* NULL, or where each request and answer is described
	                               (keys shown as ***) */
};

struct judge_client;
typedef void (*judge_done_fn)(void *ctx, struct judge_job *job, uint64_t tag);

struct judge_client *judge_client_new(const struct judge_client_opts *o, struct error *err);
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
