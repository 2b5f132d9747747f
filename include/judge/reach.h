/* reach.h - whether anything listens at a judge's local address.
 *
 * A judge on this machine (an Ollama server, a local OpenAI-compatible
 * one) that is not running refuses at once; asking it anyway would retry
 * with backoff for seconds before saying so. The screen asks this first
 * and explains how to start one instead. Remote hosts are never probed:
 * their requests say for themselves.
 *
 * The screen never waits on a connect: it begins a probe, polls its
 * descriptor with its other ones, and steps it when that is ready or its
 * time is up. judge_reach_local does the same waiting, for a command
 * that may wait. */
#ifndef TCR_JUDGE_REACH_H
#define TCR_JUDGE_REACH_H

#include <stddef.h>

enum judge_reach {
	REACH_REMOTE,           /* not a loopback http(s) address: not probed */
	REACH_LISTENING,        /* something accepted a connection */
	REACH_NOTHING,          /* nothing listens (refused, or no answer in time) */
	REACH_PENDING,          /* a probe's connect is still in flight */
};

/* A probe in flight: a non-blocking connect to each address the name
 * resolves to in turn, each given timeout_ms. */
struct judge_reach_probe;

/* Probes base_url (scheme://host[:port]/...) when its host is localhost or
 * a loopback address, waiting at most timeout_ms; where is set to
 * "host:port" for messages. */
enum judge_reach judge_reach_local(const char *base_url, int timeout_ms, char *where,
                                   size_t wherelen);

/* The same without waiting: the answer when it is known at once (remote,
 * or refused or accepted by the kernel as the connect started), else
 * REACH_PENDING with *probe set (the caller's, judge_reach_free). */
enum judge_reach judge_reach_begin(const char *base_url, int timeout_ms, char *where,
                                   size_t wherelen, struct judge_reach_probe **probe);
/* The descriptor to poll for POLLOUT while the answer is pending. */
int judge_reach_fd(const struct judge_reach_probe *p);
/* Milliseconds until the address tried now counts as silent (a poll's
 * timeout); 0 once it does. */
int judge_reach_wait_ms(const struct judge_reach_probe *p);
/* Looks without waiting: the answer, or REACH_PENDING. Call it when the
 * descriptor is ready or the time is up; calling it early is harmless. */
enum judge_reach judge_reach_step(struct judge_reach_probe *p);
void judge_reach_free(struct judge_reach_probe *p);

#endif
