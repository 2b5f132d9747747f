/* store.c - the annotations file: append-only JSONL of reviewer decisions.
 *
 * Several reviewers may share one file, each process appending under
 * flock() through util/jsonl_log. A process reads what others wrote since
 * its last read both on demand (annot_refresh) and under the lock before
 * each append, so its memory holds the file's decisions in file order and
 * the standing decision of a (run, scorer, reviewer) is a replay of that
 * order. How lines are read, ended and warned about is jsonl_log's.
 *
 * Decision times come from now_iso (util/clock): the current UTC time, unless the
 * environment variable TCR_FAKE_NOW holds an ISO-8601 UTC time
 * (YYYY-MM-DDTHH:MM:SSZ, the Z may be left out); then every decision is
 * written at that time, so tests and demos give the same file and the same
 * screen on every run. A value that is not such a time is ignored. */
#include "annot/store.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "util/arena.h"
#include "util/hash.h"
#include "util/htab.h"
#include "util/jsonl_log.h"
#include "util/jsonw.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/clock.h"

/* Beyond this many unreadable lines the rest are only counted: a wrong file
 * (not annotations at all) must not produce megabytes of warnings. */
#define WARN_MAX 50

static const char *const kind_names[] = {
	[DEC_ACCEPT] = "accept",
	[DEC_OVERRIDE] = "override",
	[DEC_RETRACT] = "retract",
	[DEC_NOTE] = "note",
};

/* A verdict's decisions form a stack (retract pops); the nodes stay in the
 * arena when popped, which costs 16 bytes and saves per-key arrays. */
struct stack_node {
	const struct decision *d;
	struct stack_node *next;
};

/* One (run, scorer, reviewer) triple, or one (run, reviewer) pair for
 * notes; kept in the arena, found through the keys table. */
struct slot {
	const char *run, *scorer, *reviewer;
	bool note;
	struct stack_node *top;         /* notes keep only the latest */
};

struct annot_store {
	struct jsonl_log *log;
	struct arena arena;             /* decisions, their strings, slots, stack nodes */
	size_t count;
	struct htab keys;               /* struct slot * by its triple */
	/* Runs, scorers, reviewers, hashes and times repeat on most lines;
	 * keeping one copy of each roughly halves a big file's memory. */
	struct htab strs;               /* const char * by its text */
};

/* ---- hashing and tables ----------------------------------------------- */

static uint64_t key_hash(const struct slot *k)
{
	uint64_t h = hash_fnv1a_part(HASH_FNV_SEED, k->run);
	h = hash_fnv1a_part(h, k->scorer);
	h = hash_fnv1a_part(h, k->reviewer);
	unsigned char n = k->note;
	return hash_fnv1a(&n, 1, h);
}

static bool str_eq(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return a == b || strcmp(a, b) == 0;
}

static bool slot_eq(const void *item, const void *key)
{
	const struct slot *a = item, *b = key;
	return a->note == b->note && str_eq(a->run, b->run) &&
	       str_eq(a->scorer, b->scorer) && str_eq(a->reviewer, b->reviewer);
}

static const struct slot *slot_find(const struct annot_store *s, const char *run,
                                    const char *scorer, const char *reviewer, bool note)
{
	struct slot k = { .run = run, .scorer = scorer, .reviewer = reviewer, .note = note };
	return htab_get(&s->keys, key_hash(&k), slot_eq, &k);
}

static struct slot *slot_get(struct annot_store *s, const char *run, const char *scorer,
                             const char *reviewer, bool note)
{
	struct slot k = { .run = run, .scorer = scorer, .reviewer = reviewer, .note = note };
	void **item = htab_put(&s->keys, key_hash(&k), slot_eq, &k);
	if (!*item) {
		struct slot *sl = arena_alloc(&s->arena, sizeof *sl);
		*sl = k;
		*item = sl;
	}
	return *item;
}

static bool text_eq(const void *item, const void *key)
{
	return strcmp(item, key) == 0;
}

static const char *store_intern(struct annot_store *s, const char *str)
{
	if (!str)
		return NULL;
	size_t len = strlen(str);
	void **item = htab_put(&s->strs, hash_fnv1a(str, len, HASH_FNV_SEED), text_eq, str);
	if (!*item)
		*item = arena_strndup(&s->arena, str, len);
	return *item;
}

/* ---- decisions ----------------------------------------------------------- */

/* Copies a decision whose strings are borrowed (from a parsed line) into
 * the store and replays it onto its key. */
static void store_add(struct annot_store *s, const struct decision *tmp)
{
	struct decision *d = arena_alloc(&s->arena, sizeof *d);
	*d = *tmp;
	d->run = store_intern(s, tmp->run);
	d->source = store_intern(s, tmp->source);
	d->scorer = store_intern(s, tmp->scorer);
	d->scorer_type = store_intern(s, tmp->scorer_type);
	d->reviewer = store_intern(s, tmp->reviewer);
	d->at = store_intern(s, tmp->at);
	d->config = store_intern(s, tmp->config);
	d->reason = tmp->reason ? arena_strdup(&s->arena, tmp->reason) : NULL;
	s->count++;

	bool note = d->kind == DEC_NOTE;
	struct slot *sl = slot_get(s, d->run, note ? NULL : d->scorer, d->reviewer, note);
	switch (d->kind) {
	case DEC_ACCEPT:
	case DEC_OVERRIDE:
	case DEC_NOTE: {
		if (note && sl->top) {
			sl->top->d = d;
			break;
		}
		struct stack_node *n = arena_alloc(&s->arena, sizeof *n);
		n->d = d;
		n->next = sl->top;
		sl->top = n;
		break;
	}
	case DEC_RETRACT:
		if (sl->top)        /* taking back nothing changes nothing */
			sl->top = sl->top->next;
		break;
	}
}

/* Reads an optional string field: absent and null both mean NULL. */
static bool field_str(json_t *o, const char *key, const char **out, char *why, size_t whylen)
{
	json_t *v = json_object_get(o, key);
	*out = NULL;
	if (!v || json_is_null(v))
		return true;
	if (!json_is_string(v)) {
		snprintf(why, whylen, "\"%s\" is not a string", key);
		return false;
	}
	*out = json_string_value(v);
	return true;
}

static bool field_num(json_t *o, const char *key, bool *has, double *out,
                      char *why, size_t whylen)
{
	json_t *v = json_object_get(o, key);
	*has = false;
	*out = 0;
	if (!v || json_is_null(v))
		return true;
	if (!json_is_number(v)) {
		snprintf(why, whylen, "\"%s\" is not a number", key);
		return false;
	}
	*has = true;
	*out = json_number_value(v);
	return true;
}

/* Fills d with pointers into o; false with the reason when the line is not
 * a decision we can use. Keys we do not know are left alone, so a newer
 * program's lines still read. */
static bool decision_from_json(json_t *o, struct decision *d, char *why, size_t whylen)
{
	memset(d, 0, sizeof *d);
	if (!json_is_object(o)) {
		snprintf(why, whylen, "not a JSON object");
		return false;
	}
	json_t *k = json_object_get(o, "decision");
	if (!k || json_is_null(k)) {
		snprintf(why, whylen, "no \"decision\"");
		return false;
	}
	if (!json_is_string(k)) {
		snprintf(why, whylen, "\"decision\" is not a string");
		return false;
	}
	size_t i;
	for (i = 0; i < sizeof kind_names / sizeof *kind_names; i++)
		if (strcmp(json_string_value(k), kind_names[i]) == 0)
			break;
	if (i == sizeof kind_names / sizeof *kind_names) {
		snprintf(why, whylen, "unknown decision \"%.60s\"", json_string_value(k));
		return false;
	}
	d->kind = (enum decision_kind)i;

	if (!field_str(o, "run", &d->run, why, whylen) ||
	    !field_str(o, "reviewer", &d->reviewer, why, whylen) ||
	    !field_str(o, "source", &d->source, why, whylen) ||
	    !field_str(o, "scorer", &d->scorer, why, whylen) ||
	    !field_str(o, "scorer_type", &d->scorer_type, why, whylen) ||
	    !field_str(o, "reason", &d->reason, why, whylen) ||
	    !field_str(o, "at", &d->at, why, whylen) ||
	    !field_str(o, "config", &d->config, why, whylen) ||
	    !field_num(o, "machine_score", &d->has_machine_score, &d->machine_score, why, whylen) ||
	    !field_num(o, "score", &d->has_score, &d->score, why, whylen))
		return false;
	if (!d->run) {
		snprintf(why, whylen, "no \"run\"");
		return false;
	}
	if (!d->reviewer) {
		snprintf(why, whylen, "no \"reviewer\"");
		return false;
	}
	json_t *mp = json_object_get(o, "machine_passed");
	if (mp && !json_is_null(mp)) {
		if (!json_is_boolean(mp)) {
			snprintf(why, whylen, "\"machine_passed\" is not true or false");
			return false;
		}
		d->has_machine_passed = true;
		d->machine_passed = json_is_true(mp);
	}
	return true;
}

/* The log's reader: one parsed line into a decision in memory. */
static bool store_take(void *ctx, json_t *o, char *why, size_t whylen)
{
	struct annot_store *s = ctx;
	struct decision d;
	if (!decision_from_json(o, &d, why, whylen))
		return false;
	store_add(s, &d);
	return true;
}

/* ---- the interface ---------------------------------------------------- */

struct annot_store *annot_open(const char *path, char *err, size_t errlen)
{
	struct annot_store *s = xcalloc(1, sizeof *s);
	arena_init(&s->arena);     /* the tables are empty as calloc left them */
	const struct jsonl_reader rd = {
		.take = store_take, .ctx = s, .warn_max = WARN_MAX,
		.parse_unended = true,  /* an editor may leave a whole line unended */
		.follow = true,
	};
	s->log = jsonl_log_open(path, &rd, err, errlen);
	if (!s->log) {
		annot_close(s);
		return NULL;
	}
	return s;
}

void annot_close(struct annot_store *s)
{
	if (!s)
		return;
	jsonl_log_close(s->log);
	arena_free(&s->arena);
	htab_free(&s->keys);
	htab_free(&s->strs);
	free(s);
}

const char *annot_path(const struct annot_store *s)
{
	return jsonl_log_path(s->log);
}

const char *annot_warning(const struct annot_store *s)
{
	return jsonl_log_warning(s->log);
}

size_t annot_refresh(struct annot_store *s)
{
	return jsonl_log_refresh(s->log);
}

static void put_str(struct strbuf *sb, const char *key, const char *v)
{
	strbuf_addf(sb, ",\"%s\":", key);
	if (v)
		jsonw_string(sb, v, strlen(v));
	else
		strbuf_addstr(sb, "null");
}

static void put_num(struct strbuf *sb, const char *key, bool has, double v)
{
	strbuf_addf(sb, ",\"%s\":", key);
	if (has)
		jsonw_number(sb, v);
	else
		strbuf_addstr(sb, "null");
}

static void line_build(struct strbuf *sb, const struct decision *d, const char *at)
{
	strbuf_addstr(sb, "{\"v\":1");
	put_str(sb, "run", d->run);
	put_str(sb, "source", d->source);
	put_str(sb, "scorer", d->scorer);
	put_str(sb, "scorer_type", d->scorer_type);
	put_num(sb, "machine_score", d->has_machine_score, d->machine_score);
	strbuf_addstr(sb, ",\"machine_passed\":");
	strbuf_addstr(sb, !d->has_machine_passed ? "null" : d->machine_passed ? "true" : "false");
	put_str(sb, "decision", kind_names[d->kind]);
	put_num(sb, "score", d->has_score, d->score);
	put_str(sb, "reason", d->reason);
	put_str(sb, "reviewer", d->reviewer);
	put_str(sb, "at", at);
	put_str(sb, "config", d->config);
	strbuf_addch(sb, '}');
}

/* What would make the line unreadable later: it is better refused now,
 * while the reviewer is there to see why. */
static const char *decision_problem(const struct decision *d, const char *at)
{
	if ((unsigned)d->kind >= sizeof kind_names / sizeof *kind_names)
		return "unknown decision kind";
	if (!d->run || !d->reviewer)
		return "a decision needs a run and a reviewer";
	if ((d->has_score && !isfinite(d->score)) ||
	    (d->has_machine_score && !isfinite(d->machine_score)))
		return "a score is not a finite number";
	const char *strs[] = { d->run, d->source, d->scorer, d->scorer_type, d->reason,
	                       d->reviewer, at, d->config };
	for (size_t i = 0; i < sizeof strs / sizeof *strs; i++) {
		if (!strs[i])
			continue;
		json_t *t = json_string(strs[i]);      /* NULL when not UTF-8 */
		if (!t)
			return "text is not valid UTF-8";
		json_decref(t);
	}
	return NULL;
}

int annot_append(struct annot_store *s, const struct decision *d, char *err, size_t errlen)
{
	const char *path = annot_path(s);
	char now[24];
	const char *at = d->at;
	if (!at) {
		now_iso(now);
		at = now;
	}
	const char *problem = decision_problem(d, at);
	if (problem) {
		set_err(err, errlen, "%s: %s", path, problem);
		return -1;
	}
	struct strbuf sb = STRBUF_INIT;
	line_build(&sb, d, at);

	/* Memory gets the decision as the file will give it back to a reader. */
	json_error_t je;
	json_t *o = json_loadb(sb.buf, sb.len, 0, &je);
	struct decision back;
	char why[128];
	int rc = -1;
	if (!o || !decision_from_json(o, &back, why, sizeof why))
		set_err(err, errlen, "%s: cannot write the decision: %s", path, o ? why : je.text);
	else if (jsonl_log_append(s->log, sb.buf, sb.len, err, errlen) == 0) {
		store_add(s, &back);
		rc = 0;
	}
	json_decref(o);
	strbuf_release(&sb);
	return rc;
}

const struct decision *annot_current(const struct annot_store *s, const char *run,
                                     const char *scorer, const char *reviewer)
{
	if (!run || !reviewer)
		return NULL;
	const struct slot *sl = slot_find(s, run, scorer, reviewer, false);
	return sl && sl->top ? sl->top->d : NULL;
}

const struct decision *annot_note(const struct annot_store *s, const char *run,
                                  const char *reviewer)
{
	if (!run || !reviewer)
		return NULL;
	const struct slot *sl = slot_find(s, run, NULL, reviewer, true);
	return sl && sl->top ? sl->top->d : NULL;
}

size_t annot_count(const struct annot_store *s)
{
	return s->count;
}

