/* reach.h - whether anything listens at a judge's local address.
 *
 * A judge on this machine (an Ollama server, a local OpenAI-compatible
 * one) that is not running refuses at once; asking it anyway would retry
 * with backoff for seconds before saying so. The screen asks this first
 * and explains how to start one instead. Remote hosts are never probed:
 * their requests say for themselves. */
#ifndef TCR_JUDGE_REACH_H
#define TCR_JUDGE_REACH_H

#include <stddef.h>

enum judge_reach {
	REACH_REMOTE,           /* not a loopback http(s) address: not probed */
	REACH_LISTENING,        /* something accepted a connection */
	REACH_NOTHING,          /* nothing listens (refused, or no answer in time) */
};

/* Probes base_url (scheme://host[:port]/...) when its host is localhost or
 * a loopback address, waiting at most timeout_ms; where is set to
 * "host:port" for messages. */
enum judge_reach judge_reach_local(const char *base_url, int timeout_ms, char *where,
                                   size_t wherelen);

#endif
