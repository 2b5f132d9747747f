/* trust.h - where a judge's requests (and its key) may go.
 *
 * A configuration may come from someone else (a shared repository), so
 * what it says about endpoints and keys is checked as it is read: a judge
 * sends its requests only to its provider's own hosts (provider_ops
 * own_hosts), to loopback (127.0.0.0/8, ::1, localhost) or to a host the
 * user allows (--allow-host HOST, or a line of the user's allowed-hosts
 * file); a key never goes over plain http:// except to loopback; and
 * api_key_env names a variable that looks like a credential (*_KEY,
 * *_TOKEN, *_SECRET) unless the user allows it (--allow-key-env NAME).
 * The command line gathers the user's choices into a struct judge_trust
 * and lends it to the configuration it loads (config_opts); each judge
 * keeps a pointer to the one it was checked under. This layer never reads
 * argv and keeps no allowance of its own. */
#ifndef TCR_JUDGE_TRUST_H
#define TCR_JUDGE_TRUST_H

#include <stdbool.h>
#include <stddef.h>

#include "judge/judge.h"
#include "util/error.h"

/* Names allowed, lower-cased. */
struct judge_allow_list {
	char **names;
	size_t n;
};

/* What one command lets its judges do: the hosts and key variables the
 * user allows, and whether what they may still allow is left for them to
 * confirm rather than refused (the screen, which asks). Zeroed: nothing
 * allowed; free with judge_trust_free. */
struct judge_trust {
	struct judge_allow_list hosts, key_envs;
	bool confirm_later;
};

/* Allows a host (exact, any case; "*.example.com" for its subdomains) or a
 * key variable in t. */
void judge_allow_host(struct judge_trust *t, const char *host);
void judge_allow_key_env(struct judge_trust *t, const char *name);
/* Whether s is what --allow-host takes: a host name, "*.DOMAIN" or an
 * [IPv6] address, without scheme, port or path. */
bool judge_host_pattern_ok(const char *s);
/* Forgets every allowance of t. */
void judge_trust_free(struct judge_trust *t);

/* The user's file of allowed hosts, one a line ('#' starts a comment):
 * $XDG_CONFIG_HOME/tcreview/allowed-hosts, else
 * $HOME/.config/tcreview/allowed-hosts. NULL when neither variable is set
 * (malloc'd otherwise). */
char *judge_allowed_hosts_path(void);
/* Allows each host of the user's file (and each name of its
 * allowed-key-envs beside it); an absent file allows nothing.
 * 0, or -1 with a message (the file cannot be read). */
int judge_allow_load_user(struct judge_trust *t, struct error *err);
/* Appends host to the user's file (creating its folders) and allows it
 * now in t (NULL: the file only): what the screen's confirmation
 * remembers. 0, or -1 with a message. */
int judge_allow_remember(struct judge_trust *t, const char *host, struct error *err);
/* The same for a key variable (the user's allowed-key-envs file, one name
 * a line, beside allowed-hosts; read by judge_allow_load_user too). */
char *judge_allowed_key_envs_path(void);
int judge_allow_remember_key_env(struct judge_trust *t, const char *name, struct error *err);

/* The host of an http:// or https:// address, lower-cased, without port
 * (an IPv6 address keeps its brackets); *tls says https. A user name or
 * password in the address, an empty host or a character curl could read
 * otherwise than we do is refused: -1 with why. */
int judge_url_host(const char *url, char *host, size_t hostlen, bool *tls, struct error *err);
bool judge_host_loopback(const char *host);
/* Whether requests of this provider may go to host: its own, loopback, or
 * allowed in t (NULL: nothing allowed). */
bool judge_host_trusted(const struct judge_trust *t, enum provider_kind p, const char *host);
/* Whether a variable's name looks like a credential's (*_KEY, *_TOKEN,
 * *_SECRET, any case) or t allows it. */
bool judge_key_env_trusted(const struct judge_trust *t, const char *name);

/* Checks a judge just read (its provider, base_url, endpoint and
 * api_key_env known) against t (NULL: nothing allowed), which the judge
 * keeps (j->trust). 0, or -1 with a message and *key the YAML key it is
 * about ("base_url", "endpoint", "api_key_env"). With t->confirm_later
 * (the screen), a host or a key variable that is only not allowed yet is
 * no error: it goes to j->confirm_host or j->confirm_key_env for the
 * screen to ask about. */
int judge_trust_check(struct judge_trust *t, struct judge_conf *j, const char **key, struct error *err);
/* Whether the judge's requests carry a key (its provider's variable or
 * api_key_env). */
bool judge_sends_key(const struct judge_conf *j);
/* The host a judge still needs the user's leave for, or NULL: its
 * confirm_host unless allowed since. */
const char *judge_needs_leave(const struct judge_conf *j);
/* The same for its api_key_env. */
const char *judge_needs_key_leave(const struct judge_conf *j);

/* Where the judge's requests go, for the screen: "HOST" (the effective
 * address's host, the environment's default included; "not allowed yet"
 * after it while the user has not allowed it), or a reason in brackets
 * when there is none. */
void judge_request_host(const struct judge_conf *j, char *out, size_t outlen);

#endif
