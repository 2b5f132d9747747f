/* exec_cache.c - what exec commands answered, kept across sessions so that
 * scoring a file again, or reopening it on the screen, runs no command
 * whose answer is already known.
 *
 * One file per cache key (util/child.h's child_command_key: the command, the content of the
 * files it names, the values of the variables it is given), in
 * $TCR_CACHE_DIR, else $XDG_CACHE_HOME/tcreview, else ~/.cache/tcreview,
 * under exec/KEY.jsonl; one line per run the command answered:
 *   {"v":1,"run":"<SHA-256 of the document the command read>","answer":{...}}
 * Only answers that are a JSON object with a numeric score are kept: a
 * failure (a crash, a timeout) is asked again next time, and the scale is
 * applied when the answer is read, so changing `scale:` needs no new run.
 * The file is a util/jsonl_log, appended line by line under its lock. */
#include "exec_cache.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/child.h"
#include "util/digest.h"
#include "util/hash.h"
#include "util/htab.h"
#include "util/jsonl_log.h"
#include "util/readfile.h"
#include "util/strbuf.h"
#include "util/userdir.h"
#include "util/xalloc.h"
#include "util/error.h"

struct entry {
	char run[SHA256_HEX_LEN + 1];
	char *answer;           /* compact JSON text */
};

struct exec_cache {
	const void *owner;
	struct jsonl_log *log;  /* NULL when the file cannot be had: no cache */
	struct htab answers;    /* struct entry *, by run digest */
	pthread_mutex_t lock;
	struct exec_cache *next;
};

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct exec_cache *registry;

static uint64_t digest_hash(const char *hex)
{
	return hash_fnv1a(hex, SHA256_HEX_LEN, 0);
}

static bool entry_eq(const void *item, const void *key)
{
	return strcmp(((const struct entry *)item)->run, key) == 0;
}

/* Keeps the answer for a run (a later line wins: the newest answer). */
static void remember(struct exec_cache *c, const char *run, char *answer)
{
	void **slot = htab_put(&c->answers, digest_hash(run), entry_eq, run);
	struct entry *e = *slot;
	if (!e) {
		e = xcalloc(1, sizeof *e);
		memcpy(e->run, run, SHA256_HEX_LEN + 1);
		*slot = e;
	}
	free(e->answer);
	e->answer = answer;
}

static bool is_digest(const char *s)
{
	if (!s || strlen(s) != SHA256_HEX_LEN)
		return false;
	for (; *s; s++)
		if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
			return false;
	return true;
}

static bool take_line(void *ctx, json_t *line, char *why, size_t whylen)
{
	struct exec_cache *c = ctx;
	const char *run = json_string_value(json_object_get(line, "run"));
	json_t *answer = json_object_get(line, "answer");
	if (json_integer_value(json_object_get(line, "v")) != 1 || !is_digest(run) ||
	    !json_is_object(answer)) {
		snprintf(why, whylen, "not an exec cache line (v 1, run, answer)");
		return false;
	}
	char *text = json_dumps(answer, JSON_COMPACT);
	if (text)
		remember(c, run, text);
	return true;
}


static struct exec_cache *cache_open(const void *owner, const char *key)
{
	struct exec_cache *c = xcalloc(1, sizeof *c);
	c->owner = owner;
	pthread_mutex_init(&c->lock, NULL);
	char *dir = child_cache_dir(), *sub = NULL, *path = NULL;
	if (dir && asprintf(&sub, "%s/exec", dir) >= 0 && make_dirs(sub) == 0 &&
	    asprintf(&path, "%s/%s.jsonl", sub, key) >= 0) {
		struct jsonl_reader rd = { .take = take_line, .ctx = c, .warn_max = 1 };
		struct error err = {0};
		/* A cache that cannot be opened only costs the runs again. */
		c->log = jsonl_log_open(path, &rd, &err);
	}
	free(dir);
	free(sub);
	free(path);
	return c;
}

/* The owner's cache, opened on first use. */
static struct exec_cache *cache_of(const void *owner, const char *key)
{
	pthread_mutex_lock(&registry_lock);
	struct exec_cache *c = registry;
	while (c && c->owner != owner)
		c = c->next;
	if (!c) {
		c = cache_open(owner, key);
		c->next = registry;
		registry = c;
	}
	pthread_mutex_unlock(&registry_lock);
	return c;
}

char *exec_cache_get(const void *owner, const char *key, const char *run)
{
	struct exec_cache *c = cache_of(owner, key);
	pthread_mutex_lock(&c->lock);
	const struct entry *e = htab_get(&c->answers, digest_hash(run), entry_eq, run);
	char *answer = e ? strdup(e->answer) : NULL;
	pthread_mutex_unlock(&c->lock);
	return answer;
}

void exec_cache_put(const void *owner, const char *key, const char *run, const json_t *answer)
{
	struct exec_cache *c = cache_of(owner, key);
	char *text = json_dumps(answer, JSON_COMPACT);
	json_t *line = json_pack("{s:i,s:s,s:O}", "v", 1, "run", run, "answer", answer);
	char *ltext = line ? json_dumps(line, JSON_COMPACT) : NULL;
	json_decref(line);
	pthread_mutex_lock(&c->lock);
	if (text && ltext && c->log) {
		struct error err = {0};
		if (jsonl_log_append(c->log, ltext, strlen(ltext), &err) == 0) {
			remember(c, run, text);
			text = NULL;
		}
	}
	pthread_mutex_unlock(&c->lock);
	free(text);
	free(ltext);
}

void exec_cache_close(const void *owner)
{
	pthread_mutex_lock(&registry_lock);
	struct exec_cache **pp = &registry, *c = NULL;
	for (; *pp; pp = &(*pp)->next)
		if ((*pp)->owner == owner) {
			c = *pp;
			*pp = c->next;
			break;
		}
	pthread_mutex_unlock(&registry_lock);
	if (!c)
		return;
	for (size_t i = 0; i < c->answers.nslots; i++) {
		struct entry *e = c->answers.slots[i].item;
		if (e) {
			free(e->answer);
			free(e);
		}
	}
	htab_free(&c->answers);
	if (c->log)
		jsonl_log_close(c->log);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

