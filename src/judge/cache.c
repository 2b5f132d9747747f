/* cache.c - judge verdicts kept in FIRST_INPUT.judgements.jsonl.
 *
 * The file is read once when opened; after that only this process's own
 * appends are added to memory (another process judging the same input at
 * the same time only costs a second request, never a wrong verdict, since
 * the key says exactly what was asked). The file is a util/jsonl_log like
 * the annotations file: one write() of a whole line on an O_APPEND
 * descriptor under flock(), then fsync(); a line left without its '\n' by
 * a process that died is skipped with a warning and ended by the next append.
 *
 * What a line holds is built from the verdict only; the configuration's
 * API key never reaches it, and as a last guard the line is masked with
 * provider_redact (a reply kept in the details might echo a key).
 */
#include "judge/cache.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "annot/store.h"
#include "util/hash.h"
#include "judge/client.h"
#include "util/htab.h"
#include "util/jsonl_log.h"
#include "util/jsonw.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/clock.h"
#include "util/error.h"

/* A wrong file (not ours at all) must not produce megabytes of warnings. */
#define WARN_MAX 20

struct entry {
	char key[17];
	char group[17];             /* the key without the examples' ids; == key without them */
	struct verdict v;
};

struct judge_cache {
	struct jsonl_log *log;
	/* Every verdict read or written, oldest first. Entries are never
	 * freed before close, so a pointer judge_cache_get gave stays valid
	 * when a newer verdict for the same key arrives. */
	struct entry **ents;
	size_t nents, ents_cap;
	struct htab newest;             /* the newest struct entry * per key */
	struct htab latest;             /* the newest struct entry * per group */
};

/* ---- keys -------------------------------------------------------------------- */

static uint64_t key_of(const struct run *r, const struct judge_conf *j, const char *judge_hash)
{
	struct strbuf sb = STRBUF_INIT;
	/* The record's tree, written as it always was (controls raw), so the
	 * keys stay those of earlier versions (the run builds the tree once
	 * and keeps it). */
	jsonw_value_raw(&sb, r ? run_record((struct run *)r) : NULL);
	uint64_t h = hash_fnv1a_part(HASH_FNV_SEED, sb.len ? sb.buf : "null");
	h = hash_fnv1a_part(h, judge_hash);
	h = hash_fnv1a_part(h, j->prompt_hash);
	h = hash_fnv1a_part(h, j->model);
	strbuf_release(&sb);
	return h;
}

void judge_cache_key(const struct run *r, const struct judge_conf *j, char key[17])
{
	hash_hex(key_of(r, j, j->hash), key);
}

void judge_cache_key_base(const struct run *r, const struct judge_conf *j, char key[17])
{
	/* A judge read by hand (tests) may have no base hash: it has no examples. */
	hash_hex(key_of(r, j, j->base_hash[0] ? j->base_hash : j->hash), key);
}

void judge_cache_key_examples(const struct run *r, const struct judge_conf *j, const json_t *ids,
                              char key[17])
{
	uint64_t h = key_of(r, j, j->hash);
	if (ids) {
		/* An empty list differs from none: the judge asked for examples. */
		h = hash_fnv1a_part(h, "examples");
		size_t i;
		json_t *id;
		json_array_foreach(ids, i, id)
			h = hash_fnv1a_part(h, json_string_value(id));
	}
	hash_hex(h, key);
}

void judge_cache_key_pair(const struct run *a, const struct run *b, const struct judge_conf *j,
                          char key[17])
{
	/* A marker first, so that no pair's key is a run's; then the two
	 * records in their order, so (b, a) is another pair. */
	uint64_t h = hash_fnv1a_part(HASH_FNV_SEED, "pair");
	struct strbuf sb = STRBUF_INIT;
	const struct run *side[2] = { a, b };
	for (int i = 0; i < 2; i++) {
		strbuf_reset(&sb);
		jsonw_value_raw(&sb, run_record((struct run *)side[i]));
		h = hash_fnv1a_part(h, sb.len ? sb.buf : "null");
		h = hash_fnv1a_part(h, "\n");
	}
	strbuf_release(&sb);
	h = hash_fnv1a_part(h, j->hash);
	h = hash_fnv1a_part(h, j->prompt_hash);
	h = hash_fnv1a_part(h, j->model);
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

static uint64_t key_hash(const char *key)
{
	return hash_fnv1a(key, 16, HASH_FNV_SEED);
}

static bool entry_eq(const void *item, const void *key)
{
	const struct entry *e = item;
	return strcmp(e->key, key) == 0;
}

static bool group_eq(const void *item, const void *key)
{
	const struct entry *e = item;
	return strcmp(e->group, key) == 0;
}

static void cache_add(struct judge_cache *c, struct entry *e)
{
	if (c->nents == c->ents_cap) {
		size_t cap = c->ents_cap ? c->ents_cap * 2 : 64;
		struct entry **ne = xrealloc(c->ents, cap * sizeof *ne);
		c->ents = ne;
		c->ents_cap = cap;
	}
	c->ents[c->nents++] = e;
	*htab_put(&c->newest, key_hash(e->key), entry_eq, e->key) = e;
	*htab_put(&c->latest, key_hash(e->group), group_eq, e->group) = e;
}

/* ---- lines ------------------------------------------------------------------- */

/* The status a line names: "ok", "skipped" or "error". */
static bool status_of(json_t *st, enum verdict_status *out)
{
	static const enum verdict_status all[] = { VERDICT_OK, VERDICT_SKIPPED, VERDICT_ERROR };
	const char *name = json_is_string(st) ? json_string_value(st) : "";
	for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
		if (!strcmp(name, verdict_status_name(all[i]))) {
			*out = all[i];
			return true;
		}
	}
	return false;
}

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
	enum verdict_status status;
	if (!status_of(json_object_get(v, "status"), &status)) {
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
	json_t *g = json_object_get(o, "group");
	if (g && (!json_is_string(g) || !key_ok(json_string_value(g)))) {
		snprintf(why, whylen, "a \"group\" that is not 16 hex digits");
		return NULL;
	}
	struct entry *e = xcalloc(1, sizeof *e);
	memcpy(e->key, json_string_value(k), 17);
	memcpy(e->group, g ? json_string_value(g) : e->key, 17);
	e->v.status = status;
	e->v.score = json_is_number(score) ? json_number_value(score) : 0;
	e->v.passed = json_is_true(passed);
	json_t *details = json_object_get(v, "details");
	e->v.details = details && !json_is_null(details) ? json_incref(details) : NULL;
	if (json_is_string(error)) {
		e->v.message = xstrdup(json_string_value(error));
	}
	return e;
}

static void entry_free(struct entry *e)
{
	verdict_clear(&e->v);
	free(e);
}

/* The log's reader: one parsed line into an entry in memory. */
static bool cache_take(void *ctx, json_t *o, char *why, size_t whylen)
{
	struct entry *e = entry_from_json(o, why, whylen);
	if (!e)
		return false;
	cache_add(ctx, e);
	return true;
}

/* Another file's line: kept only when no verdict has its key yet. */
static bool cache_take_absent(void *ctx, json_t *o, char *why, size_t whylen)
{
	struct judge_cache *c = ctx;
	struct entry *e = entry_from_json(o, why, whylen);
	if (!e)
		return false;
	if (htab_get(&c->newest, key_hash(e->key), entry_eq, e->key))
		entry_free(e);
	else
		cache_add(c, e);
	return true;
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

struct judge_cache *judge_cache_open(const char *path, struct error *err)
{
	struct judge_cache *c = xcalloc(1, sizeof *c);
	const struct jsonl_reader rd = {
		.take = cache_take, .ctx = c, .warn_max = WARN_MAX,
		.parse_unended = false, /* only our own writer writes here */
		.follow = false,        /* read once; then only our own appends */
	};
	c->log = jsonl_log_open_lazy(path, &rd, err);
	if (!c->log) {
		judge_cache_close(c);
		return NULL;
	}
	return c;
}

void judge_cache_close(struct judge_cache *c)
{
	if (!c)
		return;
	jsonl_log_close(c->log);
	for (size_t i = 0; i < c->nents; i++)
		entry_free(c->ents[i]);
	free(c->ents);
	htab_free(&c->newest);
	htab_free(&c->latest);
	free(c);
}

int judge_cache_read_also(struct judge_cache *c, const char *path, struct error *err)
{
	struct stat st;
	if (stat(path, &st) != 0 && errno == ENOENT)
		return 0;
	const struct jsonl_reader rd = {
		.take = cache_take_absent, .ctx = c, .warn_max = WARN_MAX,
		.parse_unended = false, .follow = false,
	};
	struct jsonl_log *log = jsonl_log_open_readonly(path, &rd, err);
	if (!log)
		return -1;
	jsonl_log_close(log);
	return 0;
}

const char *judge_cache_warning(const struct judge_cache *c)
{
	return jsonl_log_warning(c->log);
}

const struct verdict *judge_cache_get(const struct judge_cache *c, const char *key)
{
	if (!c || !key || !key_ok(key))
		return NULL;
	const struct entry *e = htab_get(&c->newest, key_hash(key), entry_eq, key);
	return e ? &e->v : NULL;
}

const struct verdict *judge_cache_get_latest(const struct judge_cache *c, const char *group)
{
	if (!c || !group || !key_ok(group))
		return NULL;
	const struct entry *e = htab_get(&c->latest, key_hash(group), group_eq, group);
	return e ? &e->v : NULL;
}

int judge_cache_put(struct judge_cache *c, const char *key, const struct run *r,
                    const struct judge_conf *j, const struct verdict *v, struct error *err)
{
	return judge_cache_put_in(c, key, NULL, r, j, v, err);
}

/* The line of a verdict, its key and group (NULL: the key's own). */
static void line_build(struct strbuf *sb, const char *key, const char *group,
                       const struct run *r, const struct judge_conf *j, const struct verdict *v)
{
	char at[24];
	now_iso(at);
	strbuf_addstr(sb, "{\"v\":1");
	jsonw_member_str(sb, "key", key);
	if (group)
		jsonw_member_str(sb, "group", group);
	jsonw_member_str(sb, "run", r ? r->id : NULL);
	jsonw_member_str(sb, "judge", j->id);
	jsonw_member_str(sb, "model", j->model);
	jsonw_member_str(sb, "prompt_hash", j->prompt_hash);
	jsonw_member_str(sb, "at", at);
	const char *status = verdict_status_name(v->status);
	strbuf_addstr(sb, ",\"verdict\":{\"status\":");
	jsonw_string(sb, status, strlen(status));
	strbuf_addstr(sb, ",\"score\":");
	if (v->status == VERDICT_OK)
		jsonw_number(sb, v->score);
	else
		strbuf_addstr(sb, "null");
	strbuf_addf(sb, ",\"passed\":%s,\"details\":",
	            v->status == VERDICT_OK ? (v->passed ? "true" : "false") : "null");
	jsonw_value(sb, v->details);
	jsonw_member_str(sb, "error", v->status != VERDICT_OK ? v->message : NULL);
	strbuf_addstr(sb, "}}");
	provider_redact(j, sb->buf);
}

int judge_cache_put_in(struct judge_cache *c, const char *key, const char *group,
                       const struct run *r, const struct judge_conf *j, const struct verdict *v,
                       struct error *err)
{
	if (group && key && !strcmp(group, key))
		group = NULL;
	if (!key || !key_ok(key) || (group && !key_ok(group))) {
		error_set(err, ERR_FAILED, "%s: not a cache key", jsonl_log_path(c->log));
		return -1;
	}
	if (v->status == VERDICT_OK && !isfinite(v->score)) {
		error_set(err, ERR_FAILED, "%s: the score is not a finite number", jsonl_log_path(c->log));
		return -1;
	}
	struct strbuf sb = STRBUF_INIT;
	line_build(&sb, key, group, r, j, v);

	/* Memory gets the verdict as a reader of the file will. */
	json_error_t je;
	json_t *o = json_loadb(sb.buf, sb.len, 0, &je);
	char why[128];
	struct entry *e = o ? entry_from_json(o, why, sizeof why) : NULL;
	json_decref(o);
	if (!e) {
		error_set(err, ERR_FAILED, "%s: cannot write the verdict: %s", jsonl_log_path(c->log), o ? why : je.text);
		strbuf_release(&sb);
		return -1;
	}

	int rc = -1;
	if (jsonl_log_append(c->log, sb.buf, sb.len, err) == 0) {
		cache_add(c, e);
		e = NULL;
		rc = 0;
	}
	if (e)
		entry_free(e);
	strbuf_release(&sb);
	return rc;
}
