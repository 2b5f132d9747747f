/* cache.c - judge verdicts kept in FIRST_INPUT.judgements.jsonl.
 *
 * The file is read once when opened; after that only this process's own
 * appends are added to memory (another process judging the same input at
 * the same time only costs a second request, never a wrong verdict, since
 * the key says exactly what was asked). Lines are written like the
 * annotations file's: one write() of a whole line on an O_APPEND descriptor
 * under flock(), then fsync(); a line left without its '\n' by a process
 * that died is skipped with a warning and ended by the next append.
 *
 * What a line holds is built from the verdict only; the configuration's
 * API key never reaches it, and as a last guard the line is masked with
 * provider_redact (a reply kept in the details might echo a key).
 */
#include "judge/cache.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "annot/store.h"
#include "util/hash.h"
#include "judge/client.h"
#include "util/jsonw.h"
#include "util/strbuf.h"
#include "util/fdio.h"
#include "util/xalloc.h"
#include "util/clock.h"

/* A wrong file (not ours at all) must not produce megabytes of warnings. */
#define WARN_MAX 20

struct entry {
	char key[17];
	struct verdict v;
};

struct judge_cache {
	char *path;
	int fd;
	/* Every verdict read or written, oldest first. Entries are never
	 * freed before close, so a pointer judge_cache_get gave stays valid
	 * when a newer verdict for the same key arrives. */
	struct entry **ents;
	size_t nents, ents_cap;
	size_t *slots;          /* index + 1 of the newest entry per key; 0 empty */
	size_t nslots, nkeys;
	struct strbuf warn;
	size_t nwarn, nwarn_more;
};

static void cache_warn(struct judge_cache *c, size_t line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void cache_warn(struct judge_cache *c, size_t line, const char *fmt, ...)
{
	if (c->nwarn >= WARN_MAX) {
		c->nwarn_more++;
		return;
	}
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (c->warn.len)
		strbuf_addch(&c->warn, '\n');
	strbuf_addf(&c->warn, "%s:%zu: %s", c->path, line, msg);
	c->nwarn++;
}

/* ---- keys -------------------------------------------------------------------- */

static uint64_t hash_part(uint64_t h, const char *str)
{
	/* A tag byte tells NULL from "" and the NUL ends each part, so no two
	 * different lists of parts feed the same bytes. */
	unsigned char tag = str ? 1 : 0;
	h = hash_fnv1a(&tag, 1, h);
	if (str)
		h = hash_fnv1a(str, strlen(str) + 1, h);
	return h;
}

void judge_cache_key(const struct run *r, const struct judge_conf *j, char key[17])
{
	struct strbuf sb = STRBUF_INIT;
	jsonw_value(&sb, r ? r->record : NULL);
	uint64_t h = hash_part(HASH_FNV_SEED, sb.len ? sb.buf : "null");
	h = hash_part(h, j->hash);
	h = hash_part(h, j->prompt_hash);
	h = hash_part(h, j->model);
	strbuf_release(&sb);
	hash_hex(h, key);
}

static bool key_ok(const char *k)
{
	if (strlen(k) != 16)
		return false;
	for (const char *p = k; *p; p++)
		if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
			return false;
	return true;
}

static size_t key_slot(const struct judge_cache *c, const char *key)
{
	uint64_t h = hash_fnv1a(key, 16, HASH_FNV_SEED);
	size_t mask = c->nslots - 1;
	size_t i = (size_t)h & mask;
	while (c->slots[i] && strcmp(c->ents[c->slots[i] - 1]->key, key))
		i = (i + 1) & mask;
	return i;
}

static void slots_grow(struct judge_cache *c)
{
	size_t *old = c->slots;
	size_t nold = c->nslots;
	c->nslots = nold ? nold * 2 : 256;
	c->slots = xcalloc(c->nslots, sizeof *c->slots);
	for (size_t i = 0; i < nold; i++)
		if (old[i])
			c->slots[key_slot(c, c->ents[old[i] - 1]->key)] = old[i];
	free(old);
}

static void cache_add(struct judge_cache *c, struct entry *e)
{
	if (c->nents == c->ents_cap) {
		size_t cap = c->ents_cap ? c->ents_cap * 2 : 64;
		struct entry **ne = realloc(c->ents, cap * sizeof *ne);
		if (!ne) {
			fputs("tcreview: out of memory\n", stderr);
			abort();
		}
		c->ents = ne;
		c->ents_cap = cap;
	}
	c->ents[c->nents++] = e;
	if ((c->nkeys + 1) * 4 > c->nslots * 3)
		slots_grow(c);
	size_t i = key_slot(c, e->key);
	if (!c->slots[i])
		c->nkeys++;
	c->slots[i] = c->nents;
}

/* ---- lines ------------------------------------------------------------------- */

/* An entry from a parsed line, or NULL with the reason. */
static struct entry *entry_from_json(json_t *o, char *why, size_t whylen)
{
	if (!json_is_object(o)) {
		snprintf(why, whylen, "not a JSON object");
		return NULL;
	}
	json_t *ver = json_object_get(o, "v");
	if (!json_is_integer(ver) || json_integer_value(ver) != 1) {
		snprintf(why, whylen, "not a version 1 line");
		return NULL;
	}
	json_t *k = json_object_get(o, "key");
	if (!json_is_string(k) || !key_ok(json_string_value(k))) {
		snprintf(why, whylen, "no \"key\" of 16 hex digits");
		return NULL;
	}
	json_t *v = json_object_get(o, "verdict");
	if (!json_is_object(v)) {
		snprintf(why, whylen, "no \"verdict\" object");
		return NULL;
	}
	json_t *st = json_object_get(v, "status");
	const char *sts = json_is_string(st) ? json_string_value(st) : "";
	enum verdict_status status;
	if (!strcmp(sts, "ok"))
		status = VERDICT_OK;
	else if (!strcmp(sts, "skipped"))
		status = VERDICT_SKIPPED;
	else if (!strcmp(sts, "error"))
		status = VERDICT_ERROR;
	else {
		snprintf(why, whylen, "unknown verdict status");
		return NULL;
	}
	json_t *score = json_object_get(v, "score");
	json_t *passed = json_object_get(v, "passed");
	if (status == VERDICT_OK && (!json_is_number(score) || !json_is_boolean(passed))) {
		snprintf(why, whylen, "an ok verdict without a score and passed");
		return NULL;
	}
	json_t *error = json_object_get(v, "error");
	if (error && !json_is_null(error) && !json_is_string(error)) {
		snprintf(why, whylen, "\"error\" is not a string");
		return NULL;
	}
	struct entry *e = xcalloc(1, sizeof *e);
	memcpy(e->key, json_string_value(k), 17);
	e->v.status = status;
	e->v.score = json_is_number(score) ? json_number_value(score) : 0;
	e->v.passed = json_is_true(passed);
	json_t *details = json_object_get(v, "details");
	e->v.details = details && !json_is_null(details) ? json_incref(details) : NULL;
	if (json_is_string(error)) {
		e->v.message = strdup(json_string_value(error));
		if (!e->v.message) {
			fputs("tcreview: out of memory\n", stderr);
			abort();
		}
	}
	return e;
}

static void entry_free(struct entry *e)
{
	verdict_clear(&e->v);
	free(e);
}

static void take_line(struct judge_cache *c, const char *p, size_t n, size_t line)
{
	size_t i = 0;
	while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r'))
		i++;
	if (i == n)
		return;
	json_error_t je;
	json_t *o = json_loadb(p, n, 0, &je);
	if (!o) {
		cache_warn(c, line, "skipped: %s", je.text);
		return;
	}
	char why[128];
	struct entry *e = entry_from_json(o, why, sizeof why);
	if (e)
		cache_add(c, e);
	else
		cache_warn(c, line, "skipped: %s", why);
	json_decref(o);
}

static int read_all(struct judge_cache *c)
{
	struct strbuf sb = STRBUF_INIT;
	off_t off = 0;
	for (;;) {
		strbuf_grow(&sb, 1u << 16);
		ssize_t n = pread(c->fd, sb.buf + sb.len, 1u << 16, off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;
			strbuf_release(&sb);
			errno = e;
			return -1;
		}
		if (n == 0)
			break;
		sb.len += (size_t)n;
		sb.buf[sb.len] = '\0';
		off += n;
	}
	size_t start = 0, line = 0;
	while (start < sb.len) {
		char *nl = memchr(sb.buf + start, '\n', sb.len - start);
		line++;
		if (!nl) {
			cache_warn(c, line, "truncated last line skipped (the program was stopped while writing?)");
			break;
		}
		take_line(c, sb.buf + start, (size_t)(nl - (sb.buf + start)), line);
		start = (size_t)(nl - sb.buf) + 1;
	}
	strbuf_release(&sb);
	if (c->nwarn_more)
		strbuf_addf(&c->warn, "\n%s: %zu more unreadable lines skipped", c->path, c->nwarn_more);
	return 0;
}

/* ---- the interface ---------------------------------------------------------- */

char *judge_cache_path(const char *first_input)
{
	if (!first_input || !*first_input || !strcmp(first_input, "-"))
		return NULL;
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "%s.judgements.jsonl", first_input);
	return strbuf_detach(&sb);
}

struct judge_cache *judge_cache_open(const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		set_err(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	struct judge_cache *c = xcalloc(1, sizeof *c);
	c->fd = fd;
	c->path = strdup(path);
	if (!c->path) {
		fputs("tcreview: out of memory\n", stderr);
		abort();
	}
	slots_grow(c);
	/* Shared: no writer is halfway through a line while we read. */
	if (fd_lock(fd, LOCK_SH) < 0) {
		set_err(err, errlen, "%s: cannot lock: %s", path, strerror(errno));
		judge_cache_close(c);
		return NULL;
	}
	if (read_all(c) < 0) {
		set_err(err, errlen, "%s: %s", path, strerror(errno));
		judge_cache_close(c);
		return NULL;
	}
	fd_lock(fd, LOCK_UN);
	return c;
}

void judge_cache_close(struct judge_cache *c)
{
	if (!c)
		return;
	if (c->fd >= 0)
		close(c->fd);
	for (size_t i = 0; i < c->nents; i++)
		entry_free(c->ents[i]);
	free(c->ents);
	free(c->slots);
	strbuf_release(&c->warn);
	free(c->path);
	free(c);
}

const char *judge_cache_warning(const struct judge_cache *c)
{
	return c->warn.len ? c->warn.buf : NULL;
}

const struct verdict *judge_cache_get(const struct judge_cache *c, const char *key)
{
	if (!c || !key || !key_ok(key))
		return NULL;
	size_t i = key_slot(c, key);
	return c->slots[i] ? &c->ents[c->slots[i] - 1]->v : NULL;
}

static void put_str(struct strbuf *sb, const char *name, const char *v)
{
	strbuf_addf(sb, ",\"%s\":", name);
	if (v)
		jsonw_string(sb, v, strlen(v));
	else
		strbuf_addstr(sb, "null");
}

int judge_cache_put(struct judge_cache *c, const char *key, const struct run *r,
                    const struct judge_conf *j, const struct verdict *v, char *err, size_t errlen)
{
	if (!key || !key_ok(key)) {
		set_err(err, errlen, "%s: not a cache key", c->path);
		return -1;
	}
	if (v->status == VERDICT_OK && !isfinite(v->score)) {
		set_err(err, errlen, "%s: the score is not a finite number", c->path);
		return -1;
	}
	char at[24];
	now_iso(at);
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, "\n{\"v\":1");
	put_str(&sb, "key", key);
	put_str(&sb, "run", r ? r->id : NULL);
	put_str(&sb, "judge", j->id);
	put_str(&sb, "model", j->model);
	put_str(&sb, "prompt_hash", j->prompt_hash);
	put_str(&sb, "at", at);
	const char *status = verdict_status_name(v->status);
	strbuf_addstr(&sb, ",\"verdict\":{\"status\":");
	jsonw_string(&sb, status, strlen(status));
	strbuf_addstr(&sb, ",\"score\":");
	if (v->status == VERDICT_OK)
		jsonw_number(&sb, v->score);
	else
		strbuf_addstr(&sb, "null");
	strbuf_addf(&sb, ",\"passed\":%s,\"details\":",
	            v->status == VERDICT_OK ? (v->passed ? "true" : "false") : "null");
	jsonw_value(&sb, v->details);
	put_str(&sb, "error", v->status != VERDICT_OK ? v->message : NULL);
	strbuf_addstr(&sb, "}}\n");
	provider_redact(j, sb.buf);

	/* Memory gets the verdict as a reader of the file will. */
	json_error_t je;
	json_t *o = json_loadb(sb.buf + 1, sb.len - 1, 0, &je);
	char why[128];
	struct entry *e = o ? entry_from_json(o, why, sizeof why) : NULL;
	json_decref(o);
	if (!e) {
		set_err(err, errlen, "%s: cannot write the verdict: %s", c->path, o ? why : je.text);
		strbuf_release(&sb);
		return -1;
	}

	int rc = -1;
	if (fd_lock(c->fd, LOCK_EX) < 0) {
		set_err(err, errlen, "%s: cannot lock: %s", c->path, strerror(errno));
		goto out;
	}
	/* A line some dead writer left unended would swallow ours. */
	struct stat st;
	char last = '\n';
	if (fstat(c->fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    pread(c->fd, &last, 1, st.st_size - 1) != 1)
		last = '\n';
	const char *p = last == '\n' ? sb.buf + 1 : sb.buf;
	size_t total = last == '\n' ? sb.len - 1 : sb.len, done;
	int e_no = fd_write_all(c->fd, p, total, &done);
	if (!e_no)
		e_no = fd_sync(c->fd);
	fd_lock(c->fd, LOCK_UN);
	if (e_no) {
		set_err(err, errlen, "%s: %s", c->path, strerror(e_no));
		goto out;
	}
	cache_add(c, e);
	e = NULL;
	rc = 0;
out:
	if (e)
		entry_free(e);
	strbuf_release(&sb);
	return rc;
}
