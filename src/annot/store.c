/* store.c - the annotations file: append-only JSONL of reviewer decisions.
 *
 * Several reviewers may share one file, each process appending under
 * flock(). A process reads what others wrote since its last read both on
 * demand (annot_refresh) and under the lock before each append, so its
 * memory holds the file's decisions in file order and the standing
 * decision of a (run, scorer, reviewer) is a replay of that order.
 *
 * A line counts once its '\n' is there: an unlocked reader may see the
 * first part of a line another process is still writing. Only a reader
 * holding the lock knows that bytes without a '\n' are the remains of a
 * writer that died; annot_open reads them then, and an appender ends them
 * with a '\n' before its own line so the file never joins two lines.
 *
 * Decision times come from now_iso (util/clock): the current UTC time, unless the
 * environment variable TCR_FAKE_NOW holds an ISO-8601 UTC time
 * (YYYY-MM-DDTHH:MM:SSZ, the Z may be left out); then every decision is
 * written at that time, so tests and demos give the same file and the same
 * screen on every run. A value that is not such a time is ignored. */
#include "annot/store.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "util/arena.h"
#include "util/hash.h"
#include "util/jsonw.h"
#include "util/strbuf.h"
#include "util/fdio.h"
#include "util/xalloc.h"
#include "util/clock.h"

/* Beyond this many unreadable lines the rest are only counted: a wrong file
 * (not annotations at all) must not produce megabytes of warnings. */
#define WARN_MAX 50
#define READ_CHUNK (1u << 20)

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
 * notes. hash 0 marks an empty slot. */
struct slot {
	uint64_t hash;
	const char *run, *scorer, *reviewer;
	bool note;
	struct stack_node *top;         /* notes keep only the latest */
};

struct intern_slot {
	uint64_t hash;
	const char *s;
};

struct annot_store {
	char *path;
	int fd;
	struct arena arena;             /* decisions, their strings, stack nodes */
	size_t count;

	struct slot *slots;
	size_t nslots, nused;           /* nslots is a power of two */
	/* Runs, scorers, reviewers, hashes and times repeat on most lines;
	 * keeping one copy of each roughly halves a big file's memory. */
	struct intern_slot *strs;
	size_t nstrs, nstrs_used;

	off_t offset;                   /* bytes of the file read so far */
	struct strbuf pending;          /* read bytes after the last '\n' */
	size_t lineno;                  /* lines consumed */
	/* The last line read had no '\n' yet (read under the lock at open, or
	 * our own failed write); the '\n' that later ends it is not a line. */
	bool tail_done;
	bool shrunk;

	struct strbuf warn_lines;
	size_t nwarn, nwarn_more;
	struct strbuf warn_text;
	bool warn_dirty;
};

static void store_warn(struct annot_store *s, size_t line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void store_warn(struct annot_store *s, size_t line, const char *fmt, ...)
{
	if (s->nwarn >= WARN_MAX) {
		s->nwarn_more++;
		s->warn_dirty = true;
		return;
	}
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (s->warn_lines.len)
		strbuf_addch(&s->warn_lines, '\n');
	if (line)
		strbuf_addf(&s->warn_lines, "%s:%zu: %s", s->path, line, msg);
	else
		strbuf_addf(&s->warn_lines, "%s: %s", s->path, msg);
	s->nwarn++;
	s->warn_dirty = true;
}

/* Rebuilt once per read rather than per warning, so that counting the
 * unreadable lines of a wrong file stays linear. */
static void store_finish_warnings(struct annot_store *s)
{
	if (!s->warn_dirty)
		return;
	strbuf_reset(&s->warn_text);
	if (s->warn_lines.len)
		strbuf_add(&s->warn_text, s->warn_lines.buf, s->warn_lines.len);
	if (s->nwarn_more)
		strbuf_addf(&s->warn_text, "\n%s: %zu more unreadable lines skipped",
		            s->path, s->nwarn_more);
	s->warn_dirty = false;
}

/* ---- hashing and tables ----------------------------------------------- */

static uint64_t hash_part(uint64_t h, const char *str)
{
	/* A tag byte tells NULL from "" and the NUL ends each part, so no two
	 * different triples feed the same bytes. */
	unsigned char tag = str ? 1 : 0;
	h = hash_fnv1a(&tag, 1, h);
	if (str)
		h = hash_fnv1a(str, strlen(str) + 1, h);
	return h;
}

static uint64_t key_hash(const char *run, const char *scorer, const char *reviewer, bool note)
{
	uint64_t h = hash_part(HASH_FNV_SEED, run);
	h = hash_part(h, scorer);
	h = hash_part(h, reviewer);
	unsigned char n = note;
	h = hash_fnv1a(&n, 1, h);
	return h ? h : 1;
}

static bool str_eq(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return a == b || strcmp(a, b) == 0;
}

static struct slot *slot_find(const struct annot_store *s, const char *run,
                              const char *scorer, const char *reviewer, bool note,
                              uint64_t h)
{
	if (!s->nslots)
		return NULL;
	size_t mask = s->nslots - 1;
	for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
		struct slot *sl = &s->slots[i];
		if (!sl->hash)
			return sl;
		if (sl->hash == h && sl->note == note && str_eq(sl->run, run) &&
		    str_eq(sl->scorer, scorer) && str_eq(sl->reviewer, reviewer))
			return sl;
	}
}

static void slots_grow(struct annot_store *s)
{
	size_t n = s->nslots ? s->nslots * 2 : 1024;
	struct slot *old = s->slots;
	size_t nold = s->nslots;
	s->slots = xcalloc(n, sizeof *s->slots);
	s->nslots = n;
	for (size_t i = 0; i < nold; i++) {
		if (!old[i].hash)
			continue;
		size_t j = (size_t)old[i].hash & (n - 1);
		while (s->slots[j].hash)
			j = (j + 1) & (n - 1);
		s->slots[j] = old[i];
	}
	free(old);
}

static struct slot *slot_get(struct annot_store *s, const char *run, const char *scorer,
                             const char *reviewer, bool note)
{
	if ((s->nused + 1) * 4 > s->nslots * 3)
		slots_grow(s);
	uint64_t h = key_hash(run, scorer, reviewer, note);
	struct slot *sl = slot_find(s, run, scorer, reviewer, note, h);
	if (!sl->hash) {
		sl->hash = h;
		sl->run = run;
		sl->scorer = scorer;
		sl->reviewer = reviewer;
		sl->note = note;
		s->nused++;
	}
	return sl;
}

static void strs_grow(struct annot_store *s)
{
	size_t n = s->nstrs ? s->nstrs * 2 : 1024;
	struct intern_slot *old = s->strs;
	size_t nold = s->nstrs;
	s->strs = xcalloc(n, sizeof *s->strs);
	s->nstrs = n;
	for (size_t i = 0; i < nold; i++) {
		if (!old[i].s)
			continue;
		size_t j = (size_t)old[i].hash & (n - 1);
		while (s->strs[j].s)
			j = (j + 1) & (n - 1);
		s->strs[j] = old[i];
	}
	free(old);
}

static const char *store_intern(struct annot_store *s, const char *str)
{
	if (!str)
		return NULL;
	if ((s->nstrs_used + 1) * 4 > s->nstrs * 3)
		strs_grow(s);
	size_t len = strlen(str);
	uint64_t h = hash_fnv1a(str, len, HASH_FNV_SEED);
	size_t mask = s->nstrs - 1;
	size_t i;
	for (i = (size_t)h & mask; s->strs[i].s; i = (i + 1) & mask)
		if (s->strs[i].hash == h && strcmp(s->strs[i].s, str) == 0)
			return s->strs[i].s;
	s->strs[i].hash = h;
	s->strs[i].s = arena_strndup(&s->arena, str, len);
	s->nstrs_used++;
	return s->strs[i].s;
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

static bool blank(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r')
			return false;
	return true;
}

/* One line without its '\n'; `cut` says it is the last line and has no
 * '\n', read while no writer was active. Returns 1 when it added a
 * decision. */
static size_t store_take_line(struct annot_store *s, const char *p, size_t n, bool cut)
{
	size_t line = ++s->lineno;
	if (blank(p, n))
		return 0;
	json_error_t je;
	json_t *o = json_loadb(p, n, 0, &je);
	if (!o) {
		if (cut)
			store_warn(s, line, "truncated last line skipped (the program was stopped while writing?)");
		else
			store_warn(s, line, "skipped: %s", je.text);
		return 0;
	}
	struct decision d;
	char why[128];
	size_t added = 0;
	if (decision_from_json(o, &d, why, sizeof why)) {
		store_add(s, &d);
		added = 1;
	} else {
		store_warn(s, line, "skipped: %s", why);
	}
	json_decref(o);
	return added;
}

/* Takes every complete line out of pending, keeping the rest. */
static size_t store_take_lines(struct annot_store *s)
{
	size_t added = 0, start = 0;
	char *buf = s->pending.buf;
	size_t len = s->pending.len;
	if (s->tail_done && len) {
		if (buf[0] == '\n')
			start = 1;      /* ends the line already read */
		s->tail_done = false;
	}
	for (;;) {
		char *nl = memchr(buf + start, '\n', len - start);
		if (!nl)
			break;
		size_t end = (size_t)(nl - buf);
		added += store_take_line(s, buf + start, end - start, false);
		start = end + 1;
	}
	if (start) {
		memmove(buf, buf + start, len - start);
		s->pending.len = len - start;
		buf[s->pending.len] = '\0';
	}
	return added;
}

/* Reads from our offset to the end of the file as it is now. `locked`:
 * no writer is active, so bytes without a '\n' at the end are a dead
 * writer's, to be read now. Counts the decisions added in *added; returns
 * -1 with errno set when the file could not be read. */
static int store_read_new(struct annot_store *s, bool locked, size_t *added)
{
	struct stat st;
	*added = 0;
	if (fstat(s->fd, &st) < 0)
		return -1;
	/* Only regular files have a size to read up to; a device such as
	 * /dev/full (used to test write errors) reads as empty. */
	if (!S_ISREG(st.st_mode))
		return 0;
	if (st.st_size < s->offset) {
		if (!s->shrunk)
			store_warn(s, 0, "the file shrank since it was read (rewritten by another program?); reopen it");
		s->shrunk = true;
		store_finish_warnings(s);
		return 0;
	}
	while (s->offset < st.st_size) {
		off_t left = st.st_size - s->offset;
		size_t want = left < (off_t)READ_CHUNK ? (size_t)left : READ_CHUNK;
		strbuf_grow(&s->pending, want);
		ssize_t n = pread(s->fd, s->pending.buf + s->pending.len, want, s->offset);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;
			store_finish_warnings(s);
			errno = e;
			return -1;
		}
		if (n == 0)
			break;          /* truncated under us; the next read notices */
		s->offset += n;
		s->pending.len += (size_t)n;
		s->pending.buf[s->pending.len] = '\0';
		*added += store_take_lines(s);
	}
	if (locked && s->pending.len) {
		*added += store_take_line(s, s->pending.buf, s->pending.len, true);
		strbuf_reset(&s->pending);
		s->tail_done = true;
	}
	store_finish_warnings(s);
	return 0;
}

/* ---- the interface ---------------------------------------------------- */

struct annot_store *annot_open(const char *path, char *err, size_t errlen)
{
	/* Read and write on one descriptor: a second open() could reach a
	 * different file if the path was replaced in between. */
	int fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		set_err(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	struct annot_store *s = xcalloc(1, sizeof *s);
	s->path = strdup(path);
	if (!s->path) {
		fputs("tcreview: out of memory\n", stderr);
		abort();
	}
	s->fd = fd;
	arena_init(&s->arena);     /* the strbufs are empty as calloc left them */

	/* Shared: no writer is halfway through a line while we read, so an
	 * unended last line is a dead writer's and is reported now. */
	if (fd_lock(fd, LOCK_SH) < 0) {
		set_err(err, errlen, "%s: cannot lock: %s", path, strerror(errno));
		annot_close(s);
		return NULL;
	}
	size_t added;
	if (store_read_new(s, true, &added) < 0) {
		set_err(err, errlen, "%s: %s", path, strerror(errno));
		annot_close(s);
		return NULL;
	}
	fd_lock(fd, LOCK_UN);
	return s;
}

void annot_close(struct annot_store *s)
{
	if (!s)
		return;
	if (s->fd >= 0)
		close(s->fd);
	arena_free(&s->arena);
	free(s->slots);
	free(s->strs);
	strbuf_release(&s->pending);
	strbuf_release(&s->warn_lines);
	strbuf_release(&s->warn_text);
	free(s->path);
	free(s);
}

const char *annot_path(const struct annot_store *s)
{
	return s->path;
}

const char *annot_warning(const struct annot_store *s)
{
	return s->warn_text.len ? s->warn_text.buf : NULL;
}

size_t annot_refresh(struct annot_store *s)
{
	size_t added;
	if (store_read_new(s, false, &added) < 0)
		return 0;
	return added;
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
	char now[24];
	const char *at = d->at;
	if (!at) {
		now_iso(now);
		at = now;
	}
	const char *problem = decision_problem(d, at);
	if (problem) {
		set_err(err, errlen, "%s: %s", s->path, problem);
		return -1;
	}

	/* buf[0] is a '\n' sent only when the file ends in a broken line. */
	struct strbuf sb = STRBUF_INIT;
	strbuf_addch(&sb, '\n');
	line_build(&sb, d, at);
	strbuf_addch(&sb, '\n');

	/* Memory gets the decision as the file will give it back to a reader. */
	json_error_t je;
	json_t *o = json_loadb(sb.buf + 1, sb.len - 1, 0, &je);
	struct decision back;
	char why[128];
	if (!o || !decision_from_json(o, &back, why, sizeof why)) {
		set_err(err, errlen, "%s: cannot write the decision: %s", s->path,
		        o ? why : je.text);
		json_decref(o);
		strbuf_release(&sb);
		return -1;
	}

	int e = 0;
	if (fd_lock(s->fd, LOCK_EX) < 0) {
		set_err(err, errlen, "%s: cannot lock: %s", s->path, strerror(errno));
		goto out;
	}
	size_t added;
	if (store_read_new(s, true, &added) < 0) {
		e = errno;
		goto fail;
	}
	if (s->shrunk) {
		set_err(err, errlen, "%s: the file shrank since it was read; reopen it", s->path);
		goto unlock;
	}
	/* store_read_new took any unended last line, so only a '\n' is missing. */
	bool need_nl = s->tail_done;
	const char *p = need_nl ? sb.buf : sb.buf + 1;
	size_t total = need_nl ? sb.len : sb.len - 1;
	size_t done;
	e = fd_write_all(s->fd, p, total, &done);
	/* Whatever reached the file is ours and is not read back, but a part
	 * of a line must still be ended by the next append. */
	s->offset += (off_t)done;
	if (done > (need_nl ? 1u : 0u))
		s->lineno++;
	if (done)
		s->tail_done = p[done - 1] != '\n';
	if (e)
		goto fail;
	if ((e = fd_sync(s->fd)) != 0)
		goto fail;
	store_add(s, &back);
	fd_lock(s->fd, LOCK_UN);
	json_decref(o);
	strbuf_release(&sb);
	return 0;

fail:
	set_err(err, errlen, "%s: %s", s->path, strerror(e));
unlock:
	fd_lock(s->fd, LOCK_UN);
out:
	json_decref(o);
	strbuf_release(&sb);
	return -1;
}

const struct decision *annot_current(const struct annot_store *s, const char *run,
                                     const char *scorer, const char *reviewer)
{
	if (!run || !reviewer)
		return NULL;
	struct slot *sl = slot_find(s, run, scorer, reviewer, false,
	                            key_hash(run, scorer, reviewer, false));
	return sl && sl->top ? sl->top->d : NULL;
}

const struct decision *annot_note(const struct annot_store *s, const char *run,
                                  const char *reviewer)
{
	if (!run || !reviewer)
		return NULL;
	struct slot *sl = slot_find(s, run, NULL, reviewer, true,
	                            key_hash(run, NULL, reviewer, true));
	return sl && sl->top ? sl->top->d : NULL;
}

size_t annot_count(const struct annot_store *s)
{
	return s->count;
}

