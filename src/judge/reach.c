/* reach.c - whether anything listens at a judge's local address (a short TCP connect). */
#include "judge/reach.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

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

/* A non-blocking connect, waited for at most timeout_ms. */
static bool connects(const struct addrinfo *ai, int timeout_ms)
{
	int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
	                ai->ai_protocol);
	if (fd < 0)
		return false;
	bool ok = false;
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0) {
		ok = true;
	} else if (errno == EINPROGRESS) {
		struct pollfd p = { .fd = fd, .events = POLLOUT };
		int soerr = 0;
		socklen_t len = sizeof soerr;
		if (poll(&p, 1, timeout_ms) == 1 &&
		    getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &len) == 0 && soerr == 0)
			ok = true;
	}
	close(fd);
	return ok;
}

enum judge_reach judge_reach_local(const char *base_url, int timeout_ms, char *where,
                                   size_t wherelen)
{
	char host[256], port[16];
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
	bool any = false;
	for (const struct addrinfo *ai = res; ai && !any; ai = ai->ai_next)
		any = connects(ai, timeout_ms);
	freeaddrinfo(res);
	return any ? REACH_LISTENING : REACH_NOTHING;
}
