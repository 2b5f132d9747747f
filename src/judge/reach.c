/* reach.c - whether anything listens at a judge's local address (a short TCP connect). */
#include "judge/reach.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "util/clock.h"
#include "util/xalloc.h"

/* The host and port of scheme://host[:port]/...; false for what is not
 * http(s) or is too long. Brackets around an IPv6 address are dropped. */
static bool split_url(const char *url, char *host, size_t hostlen, char *port, size_t portlen)
{
	const char *def;
	if (!strncmp(url, "http://", 7)) {
		url += 7;
		def = "80";
	} else if (!strncmp(url, "https://", 8)) {
		url += 8;
		def = "443";
	} else {
		return false;
	}
	size_t n = strcspn(url, "/?#");
	const char *end = url + n, *colon;
	if (*url == '[') {
		const char *close = memchr(url, ']', n);
		if (!close)
			return false;
		snprintf(host, hostlen, "%.*s", (int)(close - url - 1), url + 1);
		colon = close + 1 < end && close[1] == ':' ? close + 1 : NULL;
	} else {
		colon = memchr(url, ':', n);
		snprintf(host, hostlen, "%.*s", (int)((colon ? colon : end) - url), url);
	}
	if (colon && colon + 1 < end)
		snprintf(port, portlen, "%.*s", (int)(end - colon - 1), colon + 1);
	else
		snprintf(port, portlen, "%s", def);
	return host[0] != '\0';
}

static bool loopback_name(const char *host)
{
	return !strcasecmp(host, "localhost") || !strncmp(host, "127.", 4) || !strcmp(host, "::1");
}

/* The addresses a loopback name resolves to, tried in turn, each with
 * its own connect in flight and its own time limit. */
struct judge_reach_probe {
	struct addrinfo *res;
	const struct addrinfo *ai;  /* the address being tried */
	int fd;                     /* its connect in flight, or -1 */
	int timeout_ms;
	double deadline;            /* when that address counts as silent */
	enum judge_reach answer;    /* REACH_PENDING until known */
};

static void probe_close_fd(struct judge_reach_probe *p)
{
	if (p->fd >= 0)
		close(p->fd);
	p->fd = -1;
}

/* Starts a connect to the next address, until one is in flight or one
 * has answered at once (accepted, or refused by the kernel). */
static void probe_next(struct judge_reach_probe *p)
{
	for (; p->ai; p->ai = p->ai->ai_next) {
		const struct addrinfo *ai = p->ai;
		int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
		                ai->ai_protocol);
		if (fd < 0)
			continue;
		if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0) {
			close(fd);
			p->answer = REACH_LISTENING;
			return;
		}
		if (errno == EINPROGRESS) {
			p->fd = fd;
			p->deadline = now_ms() + p->timeout_ms;
			return;
		}
		close(fd);
	}
	p->answer = REACH_NOTHING;
}

enum judge_reach judge_reach_begin(const char *base_url, int timeout_ms, char *where,
                                   size_t wherelen, struct judge_reach_probe **probe)
{
	char host[256], port[16];
	*probe = NULL;
	if (wherelen)
		where[0] = '\0';
	if (!base_url || !split_url(base_url, host, sizeof host, port, sizeof port) ||
	    !loopback_name(host))
		return REACH_REMOTE;
	snprintf(where, wherelen, "%s:%s", host, port);
	/* Loopback names resolve from the hosts file, without the network. */
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICSERV };
	struct addrinfo *res = NULL;
	if (getaddrinfo(host, port, &hints, &res) != 0)
		return REACH_NOTHING;
	struct judge_reach_probe *p = xcalloc(1, sizeof *p);
	p->res = res;
	p->ai = res;
	p->fd = -1;
	p->timeout_ms = timeout_ms;
	p->answer = REACH_PENDING;
	probe_next(p);
	if (p->answer != REACH_PENDING) {
		enum judge_reach a = p->answer;
		judge_reach_free(p);
		return a;
	}
	*probe = p;
	return REACH_PENDING;
}

int judge_reach_fd(const struct judge_reach_probe *p)
{
	return p->fd;
}

int judge_reach_wait_ms(const struct judge_reach_probe *p)
{
	if (p->answer != REACH_PENDING)
		return 0;
	double left = p->deadline - now_ms();
	return left <= 0 ? 0 : (int)left + 1;
}

enum judge_reach judge_reach_step(struct judge_reach_probe *p)
{
	while (p->answer == REACH_PENDING) {
		struct pollfd pf = { .fd = p->fd, .events = POLLOUT };
		if (poll(&pf, 1, 0) == 1) {
			int soerr = 0;
			socklen_t len = sizeof soerr;
			if (getsockopt(p->fd, SOL_SOCKET, SO_ERROR, &soerr, &len) == 0 && soerr == 0) {
				p->answer = REACH_LISTENING;
				break;
			}
		} else if (now_ms() < p->deadline) {
			break;                  /* still connecting */
		}
		/* refused, or silent too long: the next address */
		probe_close_fd(p);
		p->ai = p->ai->ai_next;
		probe_next(p);
	}
	if (p->answer != REACH_PENDING)
		probe_close_fd(p);
	return p->answer;
}

void judge_reach_free(struct judge_reach_probe *p)
{
	if (!p)
		return;
	probe_close_fd(p);
	freeaddrinfo(p->res);
	free(p);
}

enum judge_reach judge_reach_local(const char *base_url, int timeout_ms, char *where,
                                   size_t wherelen)
{
	struct judge_reach_probe *p;
	enum judge_reach a = judge_reach_begin(base_url, timeout_ms, where, wherelen, &p);
	while (a == REACH_PENDING) {
		struct pollfd pf = { .fd = judge_reach_fd(p), .events = POLLOUT };
		poll(&pf, 1, judge_reach_wait_ms(p));
		a = judge_reach_step(p);
	}
	judge_reach_free(p);
	return a;
}
