/* store.c - the annotations file: append-only JSONL of reviewer decisions.
 *
 * Several reviewers may share one file, each process appending under
 * flock() through util/jsonl_log. A process reads what others wrote since
 * its last read both on demand (annot_refresh) and under the lock before
 * each append, so its memory holds the file's decisions in file order and
 * the standing decision of a (run, scorer, reviewer) is a replay of that
 * order. How lines are read, ended and warned about is jsonl_log's.
 *
 * Several files (one per reviewer, say) read into one store: each keeps
 * its own stack per key, so a retract only takes back a decision of its
 * own file, and the standing decision is chosen across the files' tops
 * by the latest `at` (the earlier file on a tie). Only the first file is
 * opened for writing; the others are opened read-only and only followed.
 *
 * Decision times come from now_iso (util/clock): the current UTC time, unless the
 * environment variable TCR_FAKE_NOW holds an ISO-8601 UTC time
 * (YYYY-MM-DDTHH:MM:SSZ, the Z may be left out); then every decision is
 * written at that time, so tests and demos give the same file and the same
 * screen on every run. A value that is not such a time is ignored.
 *
 * A test hook: when TCR_SAVED_LOG names a file, each decision, once its line
 * is on disk (the fsync returned), is also appended to that file as the same
 * line, so a test that kills the screen at random (tests/cli/
 * crash_consistency.sh) knows which decisions the screen could call saved and
 * checks each is in the annotations file. Nothing is synced there: a killed
 * process loses no write() it made. */
#include "annot/store.h"

#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "util/arena.h"
#include "util/hash.h"
#include "util/htab.h"
#include "util/jsonl_log.h"
#include "util/jsonw.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/clock.h"
#include "util/error.h"

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
	struct slot *next;              /* the slots in the order they first appeared */
	struct stack_node *top[];       /* one stack per file; notes keep only the latest */
};

struct annot_store;

/* What a file's reader hands back to the store: which file a line is from. */
struct file_ctx {
	struct annot_store *s;
	unsigned file;
};

struct annot_store {
	struct jsonl_log **logs;        /* logs[0] is written to, the others only read */
	struct file_ctx *ctxs;
	size_t nlogs;
	struct arena arena;             /* decisions, their strings, slots, stack nodes */
	size_t count;
	struct htab keys;               /* struct slot * by its triple */
	struct slot *first, *last;
	/* Runs, scorers, reviewers, hashes and times repeat on most lines;
	 * keeping one copy of each roughly halves a big file's memory. */
	struct htab strs;               /* const char * by its text */
	const char **reviewers;         /* interned, sorted by name */
	size_t nreviewers, reviewers_cap;
	const char *last_reviewer;      /* most lines repeat the one before */
	struct strbuf warn;             /* the files' warnings joined, for several files */
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
		struct slot *sl = arena_alloc(&s->arena, sizeof *sl + s->nlogs * sizeof sl->top[0]);
		*sl = k;
		if (s->last)
			s->last->next = sl;
		else
			s->first = sl;
		s->last = sl;
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

/* Where name is in the sorted list of reviewers (true), or where it
 * would go (false). */
static bool reviewer_find(const struct annot_store *s, const char *name, size_t *at)
{
	size_t lo = 0, hi = s->nreviewers;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(s->reviewers[mid], name);
		if (c == 0) {
			*at = mid;
			return true;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*at = lo;
	return false;
}

/* Keeps the sorted list of reviewers; they are few, so a sorted insert
 * is cheaper than sorting whenever the list is asked for. */
static void reviewer_seen(struct annot_store *s, const char *name)
{
	if (name == s->last_reviewer)
		return;
	s->last_reviewer = name;
	size_t lo;
	if (reviewer_find(s, name, &lo))
		return;
	if (s->nreviewers == s->reviewers_cap) {
		s->reviewers_cap = s->reviewers_cap ? 2 * s->reviewers_cap : 8;
		s->reviewers = xrealloc(s->reviewers, s->reviewers_cap * sizeof *s->reviewers);
	}
	memmove(s->reviewers + lo + 1, s->reviewers + lo, (s->nreviewers - lo) * sizeof *s->reviewers);
	s->reviewers[lo] = name;
	s->nreviewers++;
}

/* Later `at` first; a decision without one is the oldest. */
static int at_cmp(const char *a, const char *b)
{
	if (!a || !b)
		return (a != NULL) - (b != NULL);
	return strcmp(a, b);
}

/* The standing decision of a slot across the files: the tops compared by
 * `at`, the earlier file kept on a tie. */
static const struct decision *slot_current(const struct annot_store *s, const struct slot *sl)
{
	const struct decision *best = NULL;
	for (size_t i = 0; i < s->nlogs; i++) {
		const struct decision *d = sl->top[i] ? sl->top[i]->d : NULL;
		if (d && (!best || at_cmp(d->at, best->at) > 0))
			best = d;
	}
	return best;
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
	d->run_hash = store_intern(s, tmp->run_hash);
	d->model = store_intern(s, tmp->model);
	d->prompt_hash = store_intern(s, tmp->prompt_hash);
	d->reason = tmp->reason ? arena_strdup(&s->arena, tmp->reason) : NULL;
	s->count++;
	reviewer_seen(s, d->reviewer);

	bool note = d->kind == DEC_NOTE;
	struct slot *sl = slot_get(s, d->run, note ? NULL : d->scorer, d->reviewer, note);
	struct stack_node **top = &sl->top[d->file];
	switch (d->kind) {
	case DEC_ACCEPT:
	case DEC_OVERRIDE:
	case DEC_NOTE: {
		if (note && *top) {
			(*top)->d = d;
			break;
		}
		struct stack_node *n = arena_alloc(&s->arena, sizeof *n);
		n->d = d;
		n->next = *top;
		*top = n;
		break;
	}
	case DEC_RETRACT:
		if (*top)           /* taking back nothing changes nothing */
			*top = (*top)->next;
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

static bool field_bool(json_t *o, const char *key, bool *has, bool *out,
                       char *why, size_t whylen)
{
	json_t *v = json_object_get(o, key);
	*has = false;
	*out = false;
	if (!v || json_is_null(v))
		return true;
	if (!json_is_boolean(v)) {
		snprintf(why, whylen, "\"%s\" is not true or false", key);
		return false;
	}
	*has = true;
	*out = json_is_true(v);
	return true;
}

/* The string fields of a line; v2 added run_hash, model and prompt_hash,
 * which v1 lines leave out and so read as NULL. */
static const struct {
	const char *key;
	size_t off;
} str_fields[] = {
	{ "run", offsetof(struct decision, run) },
	{ "reviewer", offsetof(struct decision, reviewer) },
	{ "source", offsetof(struct decision, source) },
	{ "scorer", offsetof(struct decision, scorer) },
	{ "scorer_type", offsetof(struct decision, scorer_type) },
	{ "reason", offsetof(struct decision, reason) },
	{ "at", offsetof(struct decision, at) },
	{ "config", offsetof(struct decision, config) },
	{ "run_hash", offsetof(struct decision, run_hash) },
	{ "model", offsetof(struct decision, model) },
	{ "prompt_hash", offsetof(struct decision, prompt_hash) },
};

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

	for (size_t f = 0; f < sizeof str_fields / sizeof *str_fields; f++)
		if (!field_str(o, str_fields[f].key,
		               (const char **)(void *)((char *)d + str_fields[f].off), why, whylen))
			return false;
	bool has_blind;
	if (!field_num(o, "machine_score", &d->has_machine_score, &d->machine_score, why, whylen) ||
	    !field_num(o, "score", &d->has_score, &d->score, why, whylen) ||
	    !field_bool(o, "machine_passed", &d->has_machine_passed, &d->machine_passed, why, whylen) ||
	    !field_bool(o, "blind", &has_blind, &d->blind, why, whylen))
		return false;
	if (!d->run) {
		snprintf(why, whylen, "no \"run\"");
		return false;
	}
	if (!d->reviewer) {
		snprintf(why, whylen, "no \"reviewer\"");
		return false;
	}
	return true;
}

/* A file's reader: one parsed line into a decision in memory. */
static bool store_take(void *ctx, json_t *o, char *why, size_t whylen)
{
	struct file_ctx *fc = ctx;
	struct decision d;
	if (!decision_from_json(o, &d, why, whylen))
		return false;
	d.file = fc->file;
	store_add(fc->s, &d);
	return true;
}

/* With several files, their warnings joined in file order; rebuilt after
 * every read so annot_warning stays a plain getter. */
static void warn_rebuild(struct annot_store *s)
{
	if (s->nlogs < 2)
		return;
	strbuf_reset(&s->warn);
	for (size_t i = 0; i < s->nlogs; i++) {
		const char *w = jsonl_log_warning(s->logs[i]);
		if (!w)
			continue;
		if (s->warn.len)
			strbuf_addch(&s->warn, '\n');
		strbuf_addstr(&s->warn, w);
	}
}

/* ---- the interface ---------------------------------------------------- */

/* A link is followed, but said: decisions written through a link land in
 * a file the reviewer may not have meant (another project's, a colleague's),
 * and saying so before the screen starts is the last chance to notice. */
static void warn_if_link(const char *path, bool written)
{
	struct stat st;
	if (lstat(path, &st) < 0 || !S_ISLNK(st.st_mode))
		return;
	char target[PATH_MAX];
	if (!realpath(path, target)) {          /* dangling: where it points */
		ssize_t n = readlink(path, target, sizeof target - 1);
		target[n > 0 ? (size_t)n : 0] = '\0';
	}
	fprintf(stderr, "tcreview: warning: %s is a symbolic link; decisions are %s %s\n", path,
	        written ? "written to" : "read from", target);
}

/* first_writable: paths[0] is appended to (created at the first append
 * when missing); else
 * every file is only read. */
static struct annot_store *store_open(const char *const *paths, size_t npaths,
                                      bool first_writable, struct error *err)
{
	if (!npaths) {
		error_set(err, ERR_FAILED, "no annotations file");
		return NULL;
	}
	for (size_t i = 1; i < npaths; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(paths[i], paths[j])) {
				error_set(err, ERR_FAILED, "%s: given twice", paths[i]);
				return NULL;
			}
	struct annot_store *s = xcalloc(1, sizeof *s);
	arena_init(&s->arena);     /* the tables are empty as calloc left them */
	s->logs = xcalloc(npaths, sizeof *s->logs);
	s->ctxs = xcalloc(npaths, sizeof *s->ctxs);
	s->nlogs = npaths;
	for (size_t i = 0; i < npaths; i++) {
		s->ctxs[i] = (struct file_ctx){ s, (unsigned)i };
		const struct jsonl_reader rd = {
			.take = store_take, .ctx = &s->ctxs[i], .warn_max = WARN_MAX,
			.parse_unended = true,  /* an editor may leave a whole line unended */
			.follow = true,
		};
		warn_if_link(paths[i], !i && first_writable);
		s->logs[i] = i || !first_writable ? jsonl_log_open_readonly(paths[i], &rd, err)
		                                  : jsonl_log_open_lazy(paths[i], &rd, err);
		if (!s->logs[i]) {
			annot_close(s);
			return NULL;
		}
	}
	warn_rebuild(s);
	return s;
}

struct annot_store *annot_open_many(const char *const *paths, size_t npaths,
                                    struct error *err)
{
	return store_open(paths, npaths, true, err);
}

struct annot_store *annot_open_readonly(const char *const *paths, size_t npaths,
                                        struct error *err)
{
	return store_open(paths, npaths, false, err);
}

struct annot_store *annot_open(const char *path, struct error *err)
{
	return annot_open_many(&path, 1, err);
}

void annot_close(struct annot_store *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nlogs; i++)
		jsonl_log_close(s->logs[i]);
	free(s->logs);
	free(s->ctxs);
	free(s->reviewers);
	strbuf_release(&s->warn);
	arena_free(&s->arena);
	htab_free(&s->keys);
	htab_free(&s->strs);
	free(s);
}

const char *annot_path(const struct annot_store *s)
{
	return jsonl_log_path(s->logs[0]);
}

const char *annot_warning(const struct annot_store *s)
{
	if (s->nlogs == 1)
		return jsonl_log_warning(s->logs[0]);
	return s->warn.len ? s->warn.buf : NULL;
}

size_t annot_refresh(struct annot_store *s)
{
	size_t n = 0;
	for (size_t i = 0; i < s->nlogs; i++)
		n += jsonl_log_refresh(s->logs[i]);
	warn_rebuild(s);
	return n;
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
	strbuf_addstr(sb, "{\"v\":2");
	put_str(sb, "run", d->run);
	put_str(sb, "source", d->source);
	put_str(sb, "run_hash", d->run_hash);
	put_str(sb, "scorer", d->scorer);
	put_str(sb, "scorer_type", d->scorer_type);
	put_str(sb, "model", d->model);
	put_str(sb, "prompt_hash", d->prompt_hash);
	put_num(sb, "machine_score", d->has_machine_score, d->machine_score);
	strbuf_addstr(sb, ",\"machine_passed\":");
	strbuf_addstr(sb, !d->has_machine_passed ? "null" : d->machine_passed ? "true" : "false");
	put_str(sb, "decision", kind_names[d->kind]);
	put_num(sb, "score", d->has_score, d->score);
	put_str(sb, "reason", d->reason);
	put_str(sb, "reviewer", d->reviewer);
	strbuf_addstr(sb, d->blind ? ",\"blind\":true" : ",\"blind\":false");
	put_str(sb, "at", at);
	put_str(sb, "config", d->config);
	strbuf_addch(sb, '}');
}

static bool is_sha256_hex(const char *h)
{
	size_t n = 0;
	for (; h[n]; n++)
		if (!((h[n] >= '0' && h[n] <= '9') || (h[n] >= 'a' && h[n] <= 'f')))
			return false;
	return n == 64;
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
	if (d->run_hash && !is_sha256_hex(d->run_hash))
		return "run_hash is not 64 lowercase hex digits";
	const char *strs[] = { d->run, d->source, d->scorer, d->scorer_type, d->reason,
	                       d->reviewer, at, d->config, d->model, d->prompt_hash };
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

/* The test hook TCR_SAVED_LOG (see the top of this file): best effort, a
 * failure to write there changes nothing of the decision. */
static void saved_log(const char *line, size_t len)
{
	const char *path = getenv("TCR_SAVED_LOG");
	if (!path || !*path)
		return;
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	struct strbuf sb = STRBUF_INIT;
	strbuf_add(&sb, line, len);
	strbuf_addch(&sb, '\n');
	ssize_t w = write(fd, sb.buf, sb.len);
	(void)w;
	strbuf_release(&sb);
	close(fd);
}

int annot_append(struct annot_store *s, const struct decision *d, struct error *err)
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
		error_set(err, ERR_FAILED, "%s: %s", path, problem);
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
		error_set(err, ERR_FAILED, "%s: cannot write the decision: %s", path, o ? why : je.text);
	else if (jsonl_log_append(s->logs[0], sb.buf, sb.len, err) == 0) {
		back.file = 0;
		store_add(s, &back);
		saved_log(sb.buf, sb.len);
		rc = 0;
	}
	warn_rebuild(s);        /* the append read other writers' lines first */
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
	return sl ? slot_current(s, sl) : NULL;
}

const struct decision *annot_note(const struct annot_store *s, const char *run,
                                  const char *reviewer)
{
	if (!run || !reviewer)
		return NULL;
	const struct slot *sl = slot_find(s, run, NULL, reviewer, true);
	return sl ? slot_current(s, sl) : NULL;
}

size_t annot_count(const struct annot_store *s)
{
	return s->count;
}

size_t annot_reviewers(const struct annot_store *s, const char *const **out)
{
	*out = s->reviewers;
	return s->nreviewers;
}

bool annot_has_reviewer(const struct annot_store *s, const char *name)
{
	size_t at;
	return name && reviewer_find(s, name, &at);
}

void annot_each_current(const struct annot_store *s,
                        void (*fn)(void *ctx, const struct decision *d), void *ctx)
{
	for (const struct slot *sl = s->first; sl; sl = sl->next) {
		if (sl->note)
			continue;
		const struct decision *d = slot_current(s, sl);
		if (d)
			fn(ctx, d);
	}
}
