/* client_loop.c - the curl multi handle driven from the caller's poll():
 * the sockets and timer curl asks for, and advancing transfers.
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
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/error.h"

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
			struct sock *ns = xrealloc(c->socks, cap * sizeof *ns);
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

int client_multi_init(struct judge_client *c, struct error *err)
{
	c->multi = curl_multi_init();
	if (!c->multi) {
		error_set(err, ERR_FAILED, "cannot initialise libcurl (curl_multi_init failed)");
		return -1;
	}
	curl_multi_setopt(c->multi, CURLMOPT_SOCKETFUNCTION, sock_cb);
	curl_multi_setopt(c->multi, CURLMOPT_SOCKETDATA, c);
	curl_multi_setopt(c->multi, CURLMOPT_TIMERFUNCTION, timer_cb);
	curl_multi_setopt(c->multi, CURLMOPT_TIMERDATA, c);
	return 0;
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
		busy |= client_advance(c);
		if (!busy && !(c->timer_at >= 0 && c->timer_at <= now_ms()))
			break;
	}
	c->in_run = false;
	client_notify(c);
}
