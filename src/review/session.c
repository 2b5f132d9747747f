/* session.c - a review session's runs: the inputs, their entries, the run cache, background work.
 *
 * The bottom of review/'s stack: it calls nothing above it. The view
 * (view.c), search (search.c), decisions (decisions.c) and verdict rows
 * (rows.c) work on what this file loads; what it changes for them (an
 * entry found, an entry summarized) it notes in the dirty set, and
 * review_settle (settle.c) hands it on.
 *
 * Nothing here may stall the screen: the file is indexed and the runs are
 * scored in slices by review_step, and every other call touches at most the
 * one run it needs (search reads raw record bytes and parses nothing). */
#include "review/session.h"
#include "session_int.h"
#include "util/clock.h"
#include "judge/judge.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "runs/format.h"
#include "util/digest.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/error.h"

/* Bytes indexed per slice: small enough to check the clock often, big
 * enough that the per-slice cost does not matter. */
#define INDEX_SLICE (8u << 20)
#define SCREENFUL REVIEW_SCREENFUL
#define CACHE_DEFAULT ((size_t)64 << 20)
/* A record this long gives its mapped pages back once read (see
 * record_pages_release). */
#define RELEASE_MIN ((size_t)1 << 20)

static const struct config empty_config;




/* ---- the cache ---------------------------------------------------------- */

static void rrun_free(const struct review *rv, struct review_run *rr)
{
	if (!rr)
		return;
	for (size_t i = 0; i < review_nscorers(rv); i++)
		verdict_clear(&rr->verdicts[i]);
	free(rr->verdicts);
	free(rr->error);
	run_free(rr->run);
	free(rr);
}

/* About what a jansson value costs in the heap: the node, its malloc
 * header and its slot in the parent's table. */
#define JSON_NODE_BYTES 80

static size_t json_bytes(const json_t *v)
{
	if (!v)
		return 0;
	size_t n = JSON_NODE_BYTES;
	if (json_is_string(v)) {
		n += json_string_length(v) + 1;
	} else if (json_is_array(v)) {
		size_t i;
		const json_t *e;
		json_array_foreach(v, i, e)
			n += json_bytes(e);
	} else if (json_is_object(v)) {
		const char *k;
		const json_t *e;
		json_object_foreach((json_t *)v, k, e)
			n += strlen(k) + 1 + json_bytes(e);
	}
	return n;
}

/* The bytes a loaded run holds: what the run itself counts (its tape,
 * arena, lists and the trees built on demand so far, which grow as the
 * screen and the judges ask for them) and, measured once, the verdicts. */
static size_t rrun_measure(struct review_run *rr)
{
	size_t run = rr->run ? run_bytes(rr->run) : 0;
	rr->bytes = rr->own_bytes + run;
	return rr->bytes;
}

/* A big record's pages of the mapped file, given back once it is parsed
 * or hashed: its run holds what it needs in its tape, and the pages are
 * read again from the file when something asks (a search, the record
 * shown raw), so a 100 MB record is not held twice. The indexer gave them
 * back already; reading the record took them again. Small records are
 * left alone: their pages are shared with their neighbours. */
static void record_pages_release(const struct review *rv, const struct record_ref *rec)
{
	const struct input_file *f = &rv->ds.files[rec->file];
	if (!f->mapped || rec->len < RELEASE_MIN || rec->off + rec->len > f->size)
		return;
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t a = ((uintptr_t)f->data + (uintptr_t)rec->off + page - 1) / page * page;
	uintptr_t b = ((uintptr_t)f->data + (uintptr_t)(rec->off + rec->len)) / page * page;
	if (b > a)
		madvise((void *)a, (size_t)(b - a), MADV_DONTNEED);
}

struct run *review_entry_run(struct review *rv, size_t entry, struct error *err)
{
	return dataset_load_run(&rv->ds, &rv->ds.recs[rv->entries[entry].rec], rv->forced,
	                        rv->cfg->run_id_path, err);
}

/* Parses and scores one record for the run cache. */
static struct review_run *rrun_load(struct review *rv, size_t entry)
{
	const struct record_ref *rec = &rv->ds.recs[rv->entries[entry].rec];
	struct review_run *rr = xcalloc(1, sizeof(*rr));
	rr->entry = entry;
	rr->serial = ++rv->nloads;
	rr->verdicts = xcalloc(review_nscorers(rv) + 1, sizeof(*rr->verdicts));
	struct error err = {0};
	rr->run = review_entry_run(rv, entry, &err);
	record_pages_release(rv, rec);
	if (!rr->run) {
		rr->error = xstrdup(err.msg[0] ? err.msg : "the record could not be read");
		evaluator_fail_all(&rv->ev, rr->error, rr->verdicts);
	} else {
		evaluator_run(&rv->ev, rr->run, rr->verdicts);
	}
	rr->own_bytes = sizeof(*rr) + (review_nscorers(rv) + 1) * sizeof(*rr->verdicts);
	if (rr->error)
		rr->own_bytes += strlen(rr->error) + 1;
	for (size_t i = 0; i < review_nscorers(rv); i++) {
		const struct verdict *v = &rr->verdicts[i];
		rr->own_bytes += json_bytes(v->details) + (v->message ? strlen(v->message) + 1 : 0);
	}
	rrun_measure(rr);
	return rr;
}

static void lru_unlink(struct review *rv, struct review_run *rr)
{
	if (rr->lru_prev)
		rr->lru_prev->lru_next = rr->lru_next;
	else
		rv->lru_head = rr->lru_next;
	if (rr->lru_next)
		rr->lru_next->lru_prev = rr->lru_prev;
	else
		rv->lru_tail = rr->lru_prev;
	rr->lru_prev = rr->lru_next = NULL;
}

static void lru_push_head(struct review *rv, struct review_run *rr)
{
	rr->lru_prev = NULL;
	rr->lru_next = rv->lru_head;
	if (rv->lru_head)
		rv->lru_head->lru_prev = rr;
	rv->lru_head = rr;
	if (!rv->lru_tail)
		rv->lru_tail = rr;
}

static void lru_push_tail(struct review *rv, struct review_run *rr)
{
	rr->lru_next = NULL;
	rr->lru_prev = rv->lru_tail;
	if (rv->lru_tail)
		rv->lru_tail->lru_next = rr;
	rv->lru_tail = rr;
	if (!rv->lru_head)
		rv->lru_head = rr;
}

static void cache_add(struct review *rv, struct review_run *rr, bool hot)
{
	if (hot)
		lru_push_head(rv, rr);
	else
		lru_push_tail(rv, rr);
	rv->cache_bytes += rr->bytes;
	rv->ncached++;
	rv->entries[rr->entry].cached = rr;
}

/* Evicts from the cold end until the cache fits, sparing `keep` (the run
 * being handed out), which may alone be over the limit. */
static void cache_trim(struct review *rv, const struct review_run *keep)
{
	while (rv->cache_bytes > rv->cache_limit && rv->lru_tail && rv->lru_tail != keep) {
		struct review_run *rr = rv->lru_tail;
		lru_unlink(rv, rr);
		rv->cache_bytes -= rr->bytes;
		rv->ncached--;
		rv->entries[rr->entry].cached = NULL;
		rrun_free(rv, rr);
	}
}


/* ---- entries ------------------------------------------------------------ */

static void entries_sync(struct review *rv)
{
	while (rv->nentries < rv->ds.nrecs) {
		if (rv->nentries == rv->entries_cap) {
			rv->entries_cap = rv->entries_cap ? rv->entries_cap * 2 : 1024;
			rv->entries = xrealloc(rv->entries, rv->entries_cap * sizeof(*rv->entries));
		}
		struct review_entry *e = &rv->entries[rv->nentries];
		memset(e, 0, sizeof(*e));
		e->rec = rv->nentries;
		char src[1024];
		record_source(&rv->ds, &rv->ds.recs[e->rec], src, sizeof src);
		e->source = xstrdup(src);
		rv->nentries++;
	}
}

static void entry_fill(struct review *rv, size_t entry, const struct review_run *rr)
{
	struct review_entry *e = &rv->entries[entry];
	const struct run *r = rr->run;
	e->id = xstrdup(r ? r->id : e->source);
	e->label = xstrdup(r ? (r->model && r->model[0] ? r->model : r->format) : "");
	e->ncalls = r ? (unsigned)run_counted_calls(r, RUN_CALLS_AGENT, NULL) : 0;
	e->load_failed = !r || r->load_error;
	e->has_hash = dataset_record_hash_raw(&rv->ds, &rv->ds.recs[e->rec], e->hash) == 0;
	record_pages_release(rv, &rv->ds.recs[e->rec]);
	e->cells = xcalloc(review_nscorers(rv), sizeof(*e->cells));
	for (size_t i = 0; i < review_nscorers(rv); i++) {
		const struct verdict *v = &rr->verdicts[i];
		e->cells[i] = (struct verdict_cell){
			.status = (uint8_t)v->status,
			.passed = v->status == VERDICT_OK && v->passed,
			.score = v->status == VERDICT_OK ? v->score : 0,
		};
	}
	if (r && rv->judge_fill)
		rv->judge_fill(rv->judge_fill_ctx, rv, entry, r);
	e->summarized = true;
	rv->nsummarized++;
	e->in_share = rv->assign.on && review_assign_holds(&rv->assign, e->id);
	rv->share_total += e->in_share;
	e->mark = MARK_UNREVIEWED;
	review_note_summarized(rv, entry);
}

/* Background scoring: the run is kept only when the cache has room, at
 * its cold end, so it never pushes out what the reviewer looked at. The
 * run under the cursor is what the reviewer looks at: it is kept as
 * review_current would keep it, so a run bigger than the cache is not
 * read twice. */
static void entry_summarize(struct review *rv, size_t entry)
{
	struct review_entry *e = &rv->entries[entry];
	if (e->summarized)
		return;
	if (e->cached) {
		entry_fill(rv, entry, e->cached);
		return;
	}
	struct review_run *rr = rrun_load(rv, entry);
	entry_fill(rv, entry, rr);
	bool shown = rv->cursor < rv->nview && rv->view[rv->cursor] == entry;
	if (shown) {
		cache_add(rv, rr, true);
		cache_trim(rv, rr);
	} else if (rv->cache_bytes + rr->bytes <= rv->cache_limit) {
		cache_add(rv, rr, false);
	} else {
		rrun_free(rv, rr);
	}
}

/* The rows on screen come first: below the cursor, then above it. */
static bool summarize_near_cursor(struct review *rv)
{
	if (rv->nview == 0)
		return false;
	size_t c = rv->cursor < rv->nview ? rv->cursor : rv->nview - 1;
	size_t end = rv->nview - c > SCREENFUL ? c + SCREENFUL : rv->nview;
	for (size_t k = c; k < end; k++)
		if (!rv->entries[rv->view[k]].summarized) {
			entry_summarize(rv, rv->view[k]);
			return true;
		}
	size_t start = c > SCREENFUL ? c - SCREENFUL : 0;
	for (size_t k = c; k-- > start;)
		if (!rv->entries[rv->view[k]].summarized) {
			entry_summarize(rv, rv->view[k]);
			return true;
		}
	return false;
}

static bool summarize_next(struct review *rv)
{
	while (rv->next_summary < rv->nentries && rv->entries[rv->next_summary].summarized)
		rv->next_summary++;
	if (rv->next_summary >= rv->nentries)
		return false;
	entry_summarize(rv, rv->next_summary++);
	return true;
}

/* ---- opening and closing -------------------------------------------------- */

/* FIRST_INPUT.annotations.jsonl beside the first input. */
static char *default_annot_path(const char *first)
{
	if (strcmp(first, "-") == 0)
		return xstrdup("./stdin.annotations.jsonl");
	struct strbuf sb = STRBUF_INIT;
	size_t n = strlen(first);
	while (n > 1 && first[n - 1] == '/')
		n--;
	strbuf_add(&sb, first, n);
	strbuf_addstr(&sb, ".annotations.jsonl");
	return strbuf_detach(&sb);
}

bool review_entry_hash(const struct review_entry *e, char out[SHA256_HEX_LEN + 1])
{
	out[0] = '\0';
	if (!e->summarized || !e->has_hash)
		return false;
	sha256_to_hex(e->hash, out);
	return true;
}

int review_open(struct review *rv, const struct config *cfg, struct expectations *ex,
                char *const *paths, size_t npaths,
                const char *const *annot_paths, size_t nannot,
                const char *reviewer, struct error *err)
{
	return review_open_with(rv, NULL, cfg, ex, paths, npaths, annot_paths, nannot, reviewer,
	                        err);
}

int review_open_with(struct review *rv, const struct dataset_opts *in, const struct config *cfg,
                     struct expectations *ex, char *const *paths, size_t npaths,
                     const char *const *annot_paths, size_t nannot, const char *reviewer,
                     struct error *err)
{
	memset(rv, 0, sizeof(*rv));
	rv->cfg = cfg ? cfg : &empty_config;
	rv->ev.scorers = rv->cfg->scorers;
	rv->ev.nscorers = rv->cfg->nscorers;
	rv->ev.expect = ex;
	rv->cache_limit = CACHE_DEFAULT;
	if (rv->cfg->format && !(rv->forced = format_find(rv->cfg->format))) {
		error_set(err, ERR_FAILED, "%s: unknown format '%s'",
		         rv->cfg->path ? rv->cfg->path : "configuration", rv->cfg->format);
		return -1;
	}
	if (!nannot && npaths == 0) {
		error_set(err, ERR_FAILED, "no inputs, so no place for the annotations file");
		return -1;
	}
	if (dataset_open_with(&rv->ds, in, paths, npaths, err) < 0) {
		dataset_close(&rv->ds);
		return -1;
	}
	rv->ds.forced = rv->forced;
	if (nannot) {
		rv->annot = annot_open_many(annot_paths, nannot, err);
	} else {
		char *apath = default_annot_path(paths[0]);
		rv->annot = annot_open(apath, err);
		free(apath);
	}
	if (!rv->annot) {
		dataset_close(&rv->ds);
		return -1;
	}
	if (!reviewer || !reviewer[0])
		reviewer = getenv("USER");
	rv->reviewer = xstrdup(reviewer && reviewer[0] ? reviewer : "unknown");
	return 0;
}

void review_close(struct review *rv)
{
	while (rv->lru_head) {
		struct review_run *rr = rv->lru_head;
		lru_unlink(rv, rr);
		rrun_free(rv, rr);
	}
	for (size_t i = 0; i < rv->nentries; i++) {
		struct review_entry *e = &rv->entries[i];
		free(e->source);
		free(e->id);
		free(e->label);
		free(e->cells);
		if (e->jcells)
			for (size_t j = 0; j < review_njudges(rv); j++)
				verdict_clear(&e->jcells[j].v);
		free(e->jcells);
	}
	free(rv->entries);
	free(rv->dirty.summarized);
	free(rv->dirty.judged);
	free(rv->cell.entries);
	free(rv->view);
	free(rv->search);
	free(rv->reviewer);
	annot_close(rv->annot);
	dataset_close(&rv->ds);
	memset(rv, 0, sizeof(*rv));
}

char *review_annot_default(const char *first_input)
{
	return default_annot_path(first_input);
}

/* The store written to is a private empty file, unlinked at once: the
 * session needs one, and this way the files read stay untouched (they
 * need not even be writable) and nothing is left beside the inputs. */
int review_open_reading(struct review *rv, const struct dataset_opts *in,
                        const struct config *cfg, struct expectations *ex, char *const *paths,
                        size_t npaths, const char *const *annot_paths, size_t nannot,
                        const char *reviewer, struct error *err)
{
	const char *dir = getenv("TMPDIR");
	struct strbuf tmp = STRBUF_INIT;
	strbuf_addf(&tmp, "%s/tcreview-read.XXXXXX", dir && *dir ? dir : "/tmp");
	int fd = mkstemp(tmp.buf);
	if (fd < 0) {
		error_set(err, ERR_FAILED, "%s: %s", tmp.buf, strerror(errno));
		strbuf_release(&tmp);
		return -1;
	}
	close(fd);
	const char **all = xcalloc(nannot + 2, sizeof *all);
	all[0] = tmp.buf;
	for (size_t i = 0; i < nannot; i++)
		all[i + 1] = annot_paths[i];
	int rc = review_open_with(rv, in, cfg, ex, paths, npaths, all, nannot + 1, reviewer, err);
	unlink(tmp.buf);
	free(all);
	strbuf_release(&tmp);
	return rc;
}

/* ---- background work ------------------------------------------------------- */

bool review_busy(const struct review *rv)
{
	return review_work_left(rv);
}

bool review_work_unit(struct review *rv)
{
	if (summarize_near_cursor(rv))
		return true;
	if (!rv->ds.indexed) {
		dataset_index_step(&rv->ds, INDEX_SLICE);
		entries_sync(rv);
		return true;
	}
	return summarize_next(rv);
}

static void note_push(size_t **v, size_t *n, size_t *cap, size_t entry)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		*v = xrealloc(*v, *cap * sizeof **v);
	}
	(*v)[(*n)++] = entry;
}

void review_note_summarized(struct review *rv, size_t entry)
{
	struct review_dirty *d = &rv->dirty;
	note_push(&d->summarized, &d->nsummarized, &d->summarized_cap, entry);
}

/* An entry not summarized yet has no mark to change (it is marked as it
 * is summarized), so only the figures learn of it. */
void review_note_judged(struct review *rv, size_t entry)
{
	struct review_dirty *d = &rv->dirty;
	rv->labels_gen++;
	if (entry >= rv->nentries || !rv->entries[entry].summarized)
		return;
	note_push(&d->judged, &d->njudged, &d->judged_cap, entry);
}

double review_index_progress(const struct review *rv)
{
	if (rv->ds.indexed)
		return 1;
	if (rv->ds.bytes_total == 0)
		return 0;
	return (double)rv->ds.bytes_indexed / (double)rv->ds.bytes_total;
}

double review_score_progress(const struct review *rv)
{
	if (rv->ds.indexed)
		return rv->nentries ? (double)rv->nsummarized / (double)rv->nentries : 1;
	/* Until the index is complete, guess the total from its progress. */
	double ip = review_index_progress(rv);
	if (ip <= 0 || rv->nentries == 0)
		return 0;
	double p = (double)rv->nsummarized / ((double)rv->nentries / ip);
	return p < 1 ? p : 1;
}


struct review_run *review_run_at(struct review *rv, size_t entry)
{
	if (entry >= rv->nentries)
		return NULL;
	struct review_entry *e = &rv->entries[entry];
	struct review_run *rr = e->cached;
	if (rr) {
		lru_unlink(rv, rr);
		lru_push_head(rv, rr);
		/* Trees built since it was last handed out count now. */
		rv->cache_bytes -= rr->bytes;
		rv->cache_bytes += rrun_measure(rr);
	} else {
		rr = rrun_load(rv, entry);
		cache_add(rv, rr, true);
	}
	if (!e->summarized)
		entry_fill(rv, entry, rr);
	cache_trim(rv, rr);
	return rr;
}

size_t review_current_entry(const struct review *rv)
{
	if (rv->nview == 0)
		return SIZE_MAX;
	return rv->view[rv->cursor < rv->nview ? rv->cursor : rv->nview - 1];
}

const struct review_run *review_current(const struct review *rv)
{
	size_t entry = review_current_entry(rv);
	return entry == SIZE_MAX ? NULL : rv->entries[entry].cached;
}
