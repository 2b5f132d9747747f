/* trust.c - where a judge's requests and key may go (judge/trust.h): the
 * hosts and key variables the user allows, the user's allowed-hosts file,
 * and the check of each judge as the configuration is read.
 *
 * The allowances live in a struct judge_trust the command builds (its
 * flags and the user's file) and lends to the configuration it loads;
 * each judge keeps the one it was checked under, so the screen adds what
 * the user confirms to the same one. */
#include "judge/trust.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "provider_int.h"
#include "util/readfile.h"
#include "util/strbuf.h"
#include "util/userdir.h"
#include "util/xalloc.h"
#include "util/error.h"

/* Far above any real list; a file past it is someone else's. */
#define ALLOWED_FILE_MAX (1 << 20)
#define ALLOWED_HOSTS "allowed-hosts"
#define ALLOWED_KEY_ENVS "allowed-key-envs"

static void list_add(struct judge_allow_list *l, const char *name, size_t len)
{
	char **nn = xrealloc(l->names, (l->n + 1) * sizeof *nn);
	l->names = nn;
	char *s = xstrndup(name, len);
	for (char *p = s; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	l->names[l->n++] = s;
}

static void list_free(struct judge_allow_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->names[i]);
	free(l->names);
	memset(l, 0, sizeof *l);
}

void judge_allow_host(struct judge_trust *t, const char *host)
{
	list_add(&t->hosts, host, strlen(host));
}

void judge_allow_key_env(struct judge_trust *t, const char *name)
{
	list_add(&t->key_envs, name, strlen(name));
}

void judge_trust_free(struct judge_trust *t)
{
	list_free(&t->hosts);
	list_free(&t->key_envs);
	t->confirm_later = false;
}

/* ---- the user's file -------------------------------------------------- */


char *judge_allowed_hosts_path(void)
{
	return user_config_file(ALLOWED_HOSTS);
}

char *judge_allowed_key_envs_path(void)
{
	return user_config_file(ALLOWED_KEY_ENVS);
}

/* One name a line, '#' starting a comment; an absent file names none. */
static int load_list(const char *leaf, struct judge_allow_list *l, struct error *err)
{
	char *path = user_config_file(leaf);
	if (!path)
		return 0;
	struct stat st;
	if (stat(path, &st) < 0 && errno == ENOENT) {
		free(path);
		return 0;
	}
	struct strbuf sb = STRBUF_INIT;
	if (read_regular_file(&sb, path, ALLOWED_FILE_MAX, err) < 0) {
		strbuf_release(&sb);
		free(path);
		return -1;
	}
	const char *text = sb.buf ? sb.buf : "";
	for (const char *p = text, *end = text + sb.len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		const char *hash = memchr(p, '#', (size_t)(e - p));
		const char *stop = hash ? hash : e;
		while (p < stop && (*p == ' ' || *p == '\t'))
			p++;
		while (stop > p && (stop[-1] == ' ' || stop[-1] == '\t' || stop[-1] == '\r'))
			stop--;
		if (stop > p)
			list_add(l, p, (size_t)(stop - p));
		p = nl ? nl + 1 : end;
	}
	strbuf_release(&sb);
	free(path);
	return 0;
}

int judge_allow_load_user(struct judge_trust *t, struct error *err)
{
	if (load_list(ALLOWED_HOSTS, &t->hosts, err) < 0)
		return -1;
	return load_list(ALLOWED_KEY_ENVS, &t->key_envs, err);
}

/* mkdir -p of the file's folder. */
static int make_folders(const char *path)
{
	char *dir = xstrndup(path, (size_t)(strrchr(path, '/') - path));
	int rc = make_dirs(dir);
	int e = errno;
	free(dir);
	errno = e;
	return rc;
}

/* Allows name now and appends it to the user's file LEAF. The names come
 * from judge_url_host and the api_key_env reader: no line break in them. */
static int remember(const char *leaf, struct judge_allow_list *l, const char *name, struct error *err)
{
	if (l)
		list_add(l, name, strlen(name));
	char *path = user_config_file(leaf);
	if (!path) {
		error_set(err, ERR_FAILED, "neither XDG_CONFIG_HOME nor HOME is set: %s is allowed for now "
		        "only", name);
		return -1;
	}
	int fd = -1;
	if (make_folders(path) < 0)
		error_set(err, ERR_FAILED, "%s: %s", path, strerror(errno));
	else
		fd = open_regular(path, O_WRONLY | O_APPEND | O_CREAT, 0600, err);
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "%s\n", name);
	bool ok = fd >= 0;
	if (ok && write(fd, sb.buf, sb.len) != (ssize_t)sb.len) {
		error_set(err, ERR_FAILED, "%s: %s", path, strerror(errno));
		ok = false;
	}
	if (fd >= 0 && close(fd) < 0 && ok) {
		error_set(err, ERR_FAILED, "%s: %s", path, strerror(errno));
		ok = false;
	}
	strbuf_release(&sb);
	free(path);
	return ok ? 0 : -1;
}

int judge_allow_remember(struct judge_trust *t, const char *host, struct error *err)
{
	return remember(ALLOWED_HOSTS, t ? &t->hosts : NULL, host, err);
}

int judge_allow_remember_key_env(struct judge_trust *t, const char *name, struct error *err)
{
	return remember(ALLOWED_KEY_ENVS, t ? &t->key_envs : NULL, name, err);
}

/* ---- hosts ------------------------------------------------------------ */

/* A character of a message about an address: itself when printable
 * ASCII, else its byte's value, so that no control byte of a shared
 * configuration (a C1 CSI) reaches the terminal. */
static void char_shown(char ch, char *out, size_t outlen)
{
	unsigned char u = (unsigned char)ch;
	if (u > 0x20 && u < 0x7f)
		snprintf(out, outlen, "'%c'", ch);
	else
		snprintf(out, outlen, "the byte 0x%02X", u);
}

static bool host_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
	       ch == '-' || ch == '.';
}

int judge_url_host(const char *url, char *host, size_t hostlen, bool *tls, struct error *err)
{
	const char *p;
	if (strncmp(url, "https://", 8) == 0) {
		*tls = true;
		p = url + 8;
	} else if (strncmp(url, "http://", 7) == 0) {
		*tls = false;
		p = url + 7;
	} else {
		error_set(err, ERR_FAILED, "it is not an http:// or https:// address");
		return -1;
	}
	/* The authority ends where curl's does: at the first / ? or #. */
	size_t n = strcspn(p, "/?#");
	if (memchr(p, '@', n)) {
		error_set(err, ERR_FAILED, "it holds a user name or password (before '@'), which hides the "
		        "host it goes to");
		return -1;
	}
	size_t h = 0;
	if (n && p[0] == '[') {
		const char *close = memchr(p, ']', n);
		if (!close) {
			error_set(err, ERR_FAILED, "its IPv6 address has no closing ']'");
			return -1;
		}
		h = (size_t)(close - p) + 1;
		for (size_t i = 1; i + 1 < h; i++)
			if (!(host_char(p[i]) || p[i] == ':')) {
				char shown[24];
				char_shown(p[i], shown, sizeof shown);
				error_set(err, ERR_FAILED, "its IPv6 address holds %s", shown);
				return -1;
			}
	} else {
		while (h < n && p[h] != ':')
			h++;
		for (size_t i = 0; i < h; i++)
			if (!host_char(p[i])) {
				char shown[24];
				char_shown(p[i], shown, sizeof shown);
				error_set(err, ERR_FAILED, "its host holds %s (letters, digits, '-' and '.' only)",
				        shown);
				return -1;
			}
	}
	if (h == 0 || (h == 2 && p[0] == '[')) {
		error_set(err, ERR_FAILED, "it names no host");
		return -1;
	}
	for (size_t i = h; i < n; i++)
		if (i == h ? p[i] != ':' : (p[i] < '0' || p[i] > '9')) {
			error_set(err, ERR_FAILED, "its port is not a number");
			return -1;
		}
	if (h >= hostlen) {
		error_set(err, ERR_FAILED, "its host is too long");
		return -1;
	}
	for (size_t i = 0; i < h; i++)
		host[i] = (p[i] >= 'A' && p[i] <= 'Z') ? (char)(p[i] - 'A' + 'a') : p[i];
	host[h] = '\0';
	return 0;
}

bool judge_host_pattern_ok(const char *s)
{
	if (strncmp(s, "*.", 2) == 0)
		s += 2;
	size_t n = strlen(s);
	if (n == 0 || n > 253)
		return false;
	if (s[0] == '[') {
		if (n < 3 || s[n - 1] != ']')
			return false;
		for (size_t i = 1; i + 1 < n; i++)
			if (!host_char(s[i]) && s[i] != ':')
				return false;
		return true;
	}
	for (size_t i = 0; i < n; i++)
		if (!host_char(s[i]))
			return false;
	return true;
}

/* 127.D.D.D with each D 0..255, written plainly: curl would also take
 * "127.1" or "0x7f.1" to loopback, but those are refused, which is safe. */
static bool ipv4_loopback(const char *host)
{
	if (strncmp(host, "127.", 4) != 0)
		return false;
	int parts = 1;
	for (const char *p = host + 4; ; parts++) {
		int v = 0, digits = 0;
		while (*p >= '0' && *p <= '9' && digits < 4) {
			v = v * 10 + (*p++ - '0');
			digits++;
		}
		if (!digits || v > 255)
			return false;
		if (!*p)
			return parts == 3;
		if (*p++ != '.')
			return false;
	}
}

bool judge_host_loopback(const char *host)
{
	return strcmp(host, "localhost") == 0 || strcmp(host, "[::1]") == 0 ||
	       strcmp(host, "::1") == 0 || ipv4_loopback(host);
}

/* "api.openai.com" exactly, or "*.openai.azure.com" for each subdomain. */
static bool host_matches(const char *pattern, const char *host)
{
	if (strncmp(pattern, "*.", 2) == 0) {
		size_t pl = strlen(pattern + 1), hl = strlen(host);
		return hl > pl && strcmp(host + hl - pl, pattern + 1) == 0;
	}
	return strcmp(pattern, host) == 0;
}

static bool host_own(enum provider_kind p, const char *host)
{
	const struct provider_ops *ops = provider_of(p);
	for (const char *const *h = ops ? ops->own_hosts : NULL; h && *h; h++)
		if (host_matches(*h, host))
			return true;
	return false;
}

static bool host_allowed(const struct judge_trust *t, const char *host)
{
	for (size_t i = 0; t && i < t->hosts.n; i++)
		if (host_matches(t->hosts.names[i], host))
			return true;
	return false;
}

bool judge_host_trusted(const struct judge_trust *t, enum provider_kind p, const char *host)
{
	return host_own(p, host) || judge_host_loopback(host) || host_allowed(t, host);
}

static bool ends_with_ci(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n > k && strcasecmp(s + n - k, suffix) == 0;
}

bool judge_key_env_trusted(const struct judge_trust *t, const char *name)
{
	if (ends_with_ci(name, "_KEY") || ends_with_ci(name, "_TOKEN") ||
	    ends_with_ci(name, "_SECRET"))
		return true;
	for (size_t i = 0; t && i < t->key_envs.n; i++)
		if (strcasecmp(t->key_envs.names[i], name) == 0)
			return true;
	return false;
}

/* ---- a judge ---------------------------------------------------------- */

/* One address the configuration wrote (base_url or endpoint). */
static int url_check(struct judge_conf *j, const char *what, const char *url, struct error *err)
{
	const struct provider_ops *ops = provider_of(j->provider);
	const char *var = provider_key_var(j);
	struct error why = {0};
	char host[256];
	bool tls;
	if (judge_url_host(url, host, sizeof host, &tls, &why) < 0) {
		error_set(err, ERR_FAILED, "'%s' is refused: %s", what, why.msg);
		return -1;
	}
	bool loop = judge_host_loopback(host);
	/* Whatever the user allows: a key in the clear can be read on the way. */
	if (var && !tls && !loop) {
		error_set(err, ERR_FAILED, "judge '%s' would send its key ($%s) in the clear to %s: plain "
		        "http:// is only for loopback (127.0.0.1, ::1, localhost); use https://",
		        j->id ? j->id : "?", var, host);
		return -1;
	}
	bool trusted = judge_host_trusted(j->trust, j->provider, host);
	if (!trusted && j->trust && j->trust->confirm_later) {
		free(j->confirm_host);
		j->confirm_host = xstrdup(host);
		return 0;
	}
	if (!trusted) {
		char *file = judge_allowed_hosts_path();
		struct strbuf sb = STRBUF_INIT;
		if (var)
			strbuf_addf(&sb, " and its key ($%s)", var);
		struct strbuf whose = STRBUF_INIT;
		if (ops && ops->own_hosts)
			strbuf_addf(&whose, "neither %s's own host nor loopback", ops->name);
		else
			strbuf_addstr(&whose, "not loopback");
		error_set(err, ERR_FAILED, "judge '%s' would send its requests%s to %s, which is %s: if you "
		        "trust it, allow it with --allow-host %s%s%s", j->id ? j->id : "?",
		        sb.buf ? sb.buf : "", host, whose.buf, host, file ? " or a line in " : "",
		        file ? file : "");
		strbuf_release(&whose);
		strbuf_release(&sb);
		free(file);
		return -1;
	}
	return 0;
}

int judge_trust_check(struct judge_trust *t, struct judge_conf *j, const char **key, struct error *err)
{
	*key = NULL;
	j->trust = t;
	if (j->api_key_env && !judge_key_env_trusted(t, j->api_key_env)) {
		if (t && t->confirm_later) {
			free(j->confirm_key_env);
			j->confirm_key_env = xstrdup(j->api_key_env);
		} else {
			*key = "api_key_env";
			error_set(err, ERR_FAILED, "judge '%s': api_key_env %s does not look like a credential (a "
			        "name ending in _KEY, _TOKEN or _SECRET); if its value is meant to go to the "
			        "judge's server, allow it with --allow-key-env %s", j->id ? j->id : "?",
			        j->api_key_env, j->api_key_env);
			return -1;
		}
	}
	if (j->base_url) {
		*key = "base_url";
		return url_check(j, "base_url", j->base_url, err);
	}
	if (j->endpoint) {
		*key = "endpoint";
		return url_check(j, "endpoint", j->endpoint, err);
	}
	return 0;
}

bool judge_sends_key(const struct judge_conf *j)
{
	return provider_key_var(j) != NULL;
}

const char *judge_needs_key_leave(const struct judge_conf *j)
{
	if (!j->confirm_key_env || judge_key_env_trusted(j->trust, j->confirm_key_env))
		return NULL;
	return j->confirm_key_env;
}

const char *judge_needs_leave(const struct judge_conf *j)
{
	if (!j->confirm_host || judge_host_trusted(j->trust, j->provider, j->confirm_host))
		return NULL;
	return j->confirm_host;
}

void judge_request_host(const struct judge_conf *j, char *out, size_t outlen)
{
	const char *base = provider_base(j);
	struct error why = {0};
	char host[256];
	bool tls;
	if (!base) {
		snprintf(out, outlen, "(no address)");
		return;
	}
	if (judge_url_host(base, host, sizeof host, &tls, &why) < 0) {
		snprintf(out, outlen, "(an address refused: %s)", why.msg);
		return;
	}
	const char *plain = tls ? NULL : "plain http";
	const char *leave = judge_needs_leave(j) || judge_needs_key_leave(j) ?
	                    "not allowed yet: J asks" : NULL;
	if (plain && leave)
		snprintf(out, outlen, "%s (%s; %s)", host, plain, leave);
	else if (plain || leave)
		snprintf(out, outlen, "%s (%s)", host, plain ? plain : leave);
	else
		snprintf(out, outlen, "%s", host);
}
