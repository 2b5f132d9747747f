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
#include "annot_int.h"
#include "store_int.h"

#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <time.h>
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

/* ---- hashing and tables ----------------------------------------------- */

static uint64_t key_hash(const struct slot *k)
{
	uint64_t h = hash_fnv1a_part(HASH_FNV_SEED, k->run);
	h = hash_fnv1a_part(h, k->subject);
	h = hash_fnv1a_part(h, k->reviewer);
	unsigned char tail[1 + sizeof k->call];
	tail[0] = (unsigned char)k->kind;
	memcpy(tail + 1, &k->call, sizeof k->call);
	return hash_fnv1a(tail, sizeof tail, h);
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
	return a->kind == b->kind && a->call == b->call && str_eq(a->run, b->run) &&
	       str_eq(a->subject, b->subject) && str_eq(a->reviewer, b->reviewer);
}

bool store_run_eq(const void *item, const void *key)
{
	return strcmp(((const struct run_slots *)item)->run, key) == 0;
}

const struct slot *store_slot_find(const struct annot_store *s, const struct slot *k)
{
	return htab_get(&s->keys, key_hash(k), slot_eq, k);
}

/* A run's list of slots, made at its first. */
static void run_list_add(struct annot_store *s, struct slot *sl)
{
	uint64_t h = hash_fnv1a_part(HASH_FNV_SEED, sl->run);
	void **item = htab_put(&s->runs, h, store_run_eq, sl->run);
	struct run_slots *rs = *item;
	if (!rs) {
		rs = arena_alloc(&s->arena, sizeof *rs);
		*rs = (struct run_slots){ .run = sl->run };
		*item = rs;
	}
	if (rs->last)
		rs->last->run_next = sl;
	else
		rs->first = sl;
	rs->last = sl;
}

static struct slot *slot_get(struct annot_store *s, const struct slot *k)
{
	void **item = htab_put(&s->keys, key_hash(k), slot_eq, k);
	if (!*item) {
		struct slot *sl = arena_alloc(&s->arena, sizeof *sl + s->nlogs * sizeof sl->top[0]);
		*sl = *k;
		sl->next = sl->run_next = NULL;
		memset(sl->top, 0, s->nlogs * sizeof sl->top[0]);
		if (s->last)
			s->last->next = sl;
		else
			s->first = sl;
		s->last = sl;
		if (sl->run)
			run_list_add(s, sl);
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
const struct decision *store_slot_current(const struct annot_store *s, const struct slot *sl)
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

/* The subject a decision (or the retract of one) is about. */
static struct slot slot_key(const struct decision *d)
{
	enum decision_kind k = d->kind;
	if (k == DEC_RETRACT)
		k = d->retracts_set ? d->retracts : DEC_ACCEPT;
	struct slot key = { .run = d->run, .reviewer = d->reviewer, .call = d->call };
	switch (k) {
	case DEC_TAG:
		key.kind = SLOT_TAG;
		key.subject = d->tag;
		break;
	case DEC_TAG_ALIAS:    /* the file's vocabulary, whoever changed it */
		key = (struct slot){ .kind = SLOT_ALIAS, .subject = d->tag };
		break;
	case DEC_CALL_LABEL:
		key.kind = SLOT_CALL_LABEL;
		break;
	case DEC_CORRECT:
		key.kind = d->correction == CORR_INSERT ? SLOT_INSERT :
		           d->correction == CORR_ANSWER ? SLOT_ANSWER : SLOT_FIX;
		if (key.kind == SLOT_ANSWER)
			key.call = 0;
		break;
	case DEC_NOTE:
		key.kind = SLOT_NOTE;
		key.call = 0;
		break;
	case DEC_PREFER:
		key.kind = SLOT_PREFER;
		key.subject = d->other;
		key.call = 0;
		break;
	default:
		key.kind = SLOT_VERDICT;
		key.subject = d->scorer;
		key.call = 0;
		break;
	}
	return key;
}

/* Copies a decision whose strings are borrowed (from a parsed line) into
 * the store and replays it onto its subject. */
static void store_add(struct annot_store *s, const struct decision *tmp)
{
	struct decision *d = arena_alloc(&s->arena, sizeof *d);
	*d = *tmp;
	const char **interned[] = {
		&d->run, &d->source, &d->scorer, &d->scorer_type, &d->reviewer, &d->at,
		&d->config, &d->run_hash, &d->model, &d->prompt_hash, &d->tag, &d->tag_to,
		&d->call_id, &d->tool, &d->label, &d->group, &d->queue,
		&d->other, &d->other_hash, &d->task,
	};
	for (size_t i = 0; i < sizeof interned / sizeof *interned; i++)
		*interned[i] = store_intern(s, *interned[i]);
	d->reason = tmp->reason ? arena_strdup(&s->arena, tmp->reason) : NULL;
	d->expected = tmp->expected ? arena_strdup(&s->arena, tmp->expected) : NULL;
	s->count++;
	reviewer_seen(s, d->reviewer);

	if (d->kind == DEC_RETRACT && d->retracts_group) {
		store_group_retract(s, d->group, d->file);
		return;
	}
	struct slot key = slot_key(d);
	struct strbuf norm = STRBUF_INIT;
	if (key.kind == SLOT_ALIAS) {   /* one alias for every spelling of the code */
		store_code_norm(&norm, key.subject);
		key.subject = store_intern(s, norm.buf);
	}
	strbuf_release(&norm);
	struct slot *sl = slot_get(s, &key);
	struct stack_node **top = &sl->top[d->file];
	if (d->kind == DEC_RETRACT) {
		if (*top)           /* taking back nothing changes nothing */
			*top = (*top)->next;
		return;
	}
	if (d->kind == DEC_NOTE && *top)
		(*top)->d = d;
	else {
		struct stack_node *n = arena_alloc(&s->arena, sizeof *n);
		n->d = d;
		n->next = *top;
		*top = n;
	}
	if (d->group)
		store_group_add(s, sl, d);
}

/* A file's reader: one parsed line into a decision in memory. */
/* A group's lines, all read: into the store in their order. */
static void held_take(struct file_ctx *fc)
{
	for (size_t i = 0; i < fc->hold.n; i++) {
		struct decision d;
		char *owned, why[128];
		if (annot_line_read(fc->hold.lines[i], &d, &owned, why, sizeof why)) {
			d.file = fc->file;
			store_add(fc->s, &d);
		}
		free(owned);
	}
	group_hold_drop(&fc->hold);
}

static bool store_take(void *ctx, json_t *o, char *why, size_t whylen)
{
	struct file_ctx *fc = ctx;
	struct decision d;
	char *owned;
	bool ok = annot_line_read(o, &d, &owned, why, whylen);
	if (ok && group_hold_add(&fc->hold, o, &d)) {
		if (group_hold_full(&fc->hold))
			held_take(fc);
	} else if (ok) {
		d.file = fc->file;
		store_add(fc->s, &d);
	}
	free(owned);
	return ok;
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
		s->ctxs[i] = (struct file_ctx){ .s = s, .file = (unsigned)i };
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
	for (size_t i = 0; s->ctxs && i < s->nlogs; i++)
		group_hold_free(&s->ctxs[i].hold);
	free(s->logs);
	free(s->ctxs);
	free(s->reviewers);
	strbuf_release(&s->warn);
	arena_free(&s->arena);
	htab_free(&s->keys);
	htab_free(&s->runs);
	htab_free(&s->groups);
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

/* One decision as its line, after the checks; memory gets the decision as
 * the file will give it back to a reader (*o and *owned hold its text). */
static int line_make(const char *path, const struct decision *d, struct strbuf *sb,
                     json_t **o, struct decision *back, char **owned, struct error *err)
{
	char now[24];
	const char *at = d->at;
	if (!at) {
		now_iso(now);
		at = now;
	}
	const char *problem = annot_line_problem(d, at);
	if (problem) {
		error_set(err, ERR_FAILED, "%s: %s", path, problem);
		return -1;
	}
	size_t start = sb->len;
	annot_line_build(sb, d, at);
	json_error_t je;
	char why[128];
	*o = json_loadb(sb->buf + start, sb->len - start, 0, &je);
	if (!*o || !annot_line_read(*o, back, owned, why, sizeof why)) {
		error_set(err, ERR_FAILED, "%s: cannot write the decision: %s", path,
		          *o ? why : je.text);
		return -1;
	}
	back->file = 0;
	return 0;
}

int annot_append_many(struct annot_store *s, const struct decision *ds, size_t n,
                      struct error *err)
{
	if (!n)
		return 0;
	const char *path = annot_path(s);
	struct strbuf sb = STRBUF_INIT;
	json_t **objs = xcalloc(n, sizeof *objs);
	char **owned = xcalloc(n, sizeof *owned);
	struct decision *back = xcalloc(n, sizeof *back);
	int rc = 0;
	/* Lines of one group say how many they are, so that a reader takes
	 * them whole or not at all (a crash may cut the write). */
	bool one_group = n > 1 && ds[0].group;
	for (size_t i = 1; one_group && i < n; i++)
		one_group = ds[i].group && strcmp(ds[i].group, ds[0].group) == 0 && ds[i].kind != DEC_RETRACT;
	for (size_t i = 0; i < n && rc == 0; i++) {
		if (i)
			strbuf_addch(&sb, '\n');
		struct decision d = ds[i];
		d.group_lines = one_group && d.kind != DEC_RETRACT ? (long)n : 0;
		rc = line_make(path, &d, &sb, &objs[i], &back[i], &owned[i], err);
	}
	if (rc == 0 && jsonl_log_append_lines(s->logs[0], sb.buf, sb.len, n, err) == 0) {
		for (size_t i = 0; i < n; i++)
			store_add(s, &back[i]);
		saved_log(sb.buf, sb.len);
	} else
		rc = -1;
	warn_rebuild(s);        /* the append read other writers' lines first */
	for (size_t i = 0; i < n; i++) {
		json_decref(objs[i]);
		free(owned[i]);
	}
	free(objs);
	free(owned);
	free(back);
	strbuf_release(&sb);
	return rc;
}

int annot_append(struct annot_store *s, const struct decision *d, struct error *err)
{
	return annot_append_many(s, d, 1, err);
}

const struct decision *annot_current(const struct annot_store *s, const char *run,
                                     const char *scorer, const char *reviewer)
{
	if (!run || !reviewer)
		return NULL;
	struct slot k = { .run = run, .subject = scorer, .reviewer = reviewer,
	                  .kind = SLOT_VERDICT };
	const struct slot *sl = store_slot_find(s, &k);
	return sl ? store_slot_current(s, sl) : NULL;
}

const struct decision *annot_note(const struct annot_store *s, const char *run,
                                  const char *reviewer)
{
	if (!run || !reviewer)
		return NULL;
	struct slot k = { .run = run, .reviewer = reviewer, .kind = SLOT_NOTE };
	const struct slot *sl = store_slot_find(s, &k);
	return sl ? store_slot_current(s, sl) : NULL;
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
		if (sl->kind != SLOT_VERDICT)
			continue;
		const struct decision *d = store_slot_current(s, sl);
		if (d)
			fn(ctx, d);
	}
}
