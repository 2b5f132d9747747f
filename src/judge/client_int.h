/* client_int.h - what the client's files share: the task, the pools, the
 * client itself. Not a public header. */
#ifndef TCR_JUDGE_CLIENT_INT_H
#define TCR_JUDGE_CLIENT_INT_H

#include <curl/curl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "judge/client.h"
#include "util/strbuf.h"
#include "util/error.h"

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

/* client.c: tasks */
/* Takes the task's transfer out of curl and frees its slot. */
void task_detach(struct judge_client *c, struct task *t);
/* Moves a task whose job is finished to the list whose done callbacks
 * client_notify() calls. */
void task_finish(struct judge_client *c, struct task *t);
/* Calls done for finished tasks. */
void client_notify(struct judge_client *c);
/* Takes prompts and starts requests for tasks that can go; returns
 * whether anything changed. */
bool client_advance(struct judge_client *c);
void client_trace(struct judge_client *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* client_transfer.c: one transfer */
/* Sends the task's built request; on failure finishes the job with an error. */
void task_start(struct judge_client *c, struct task *t);
/* Reads the private CA file into the bundle handed to each transfer. */
int client_ca_setup(struct judge_client *c, const char *file, struct error *err);

/* client_retry.c: answers, retries with backoff */
void client_rng_seed(struct judge_client *c);
/* A finished transfer: the reply goes to the job, or the request waits
 * for a retry, or the job ends with the error. */
void task_answered(struct judge_client *c, struct task *t, CURLcode rc);

/* client_loop.c: the multi handle and the caller's poll() */
/* Creates the multi handle and hooks its socket and timer callbacks. */
int client_multi_init(struct judge_client *c, struct error *err);

#endif
