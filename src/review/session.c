/* session.c - a review session: the list of runs, their verdicts, the
 * reviewer's decisions, and the view the screen draws.
 *
 * Nothing here may stall the screen: the file is indexed and the runs are
 * scored in slices by review_step, and every other call touches at most the
 * one run it needs (search reads raw record bytes and parses nothing). */
#include "review/session.h"
#include "util/clock.h"
#include "judge/judge.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runs/format.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* Bytes indexed per slice: small enough to check the clock often, big
 * enough that the per-slice cost does not matter. */
#define INDEX_SLICE (8u << 20)
/* Rows around the cursor scored before anything else: more than any
 * terminal shows, above and below. */
#define SCREENFUL 64
/* While work goes on, a view that needs sorting is rebuilt at most this
 * often (of step time), so a big list is not re-sorted for every slice. */
#define REBUILD_EVERY_MS 100.0
#define CACHE_DEFAULT ((size_t)64 << 20)

static const struct config empty_config;

static size_t nscorers(const struct review *rv)
{
	return rv->cfg->nscorers;
}

static size_t njudges(const struct review *rv)
{
	return rv->cfg ? rv->cfg->njudges : 0;
}

/* ---- the cache ---------------------------------------------------------- */

static void rrun_free(const struct review *rv, struct review_run *rr)
{
	if (!rr)
		return;
	for (size_t i = 0; i < nscorers(rv); i++)
		verdict_clear(&rr->verdicts[i]);
	free(rr->verdicts);
	free(rr->error);
	run_free(rr->run);
	free(rr);
}

/* Parses and scores one record; the only place a run is loaded. */
static struct review_run *rrun_load(struct review *rv, size_t entry)
{
	const struct record_ref *rec = &rv->ds.recs[rv->entries[entry].rec];
	struct review_run *rr = xcalloc(1, sizeof(*rr));
	rr->entry = entry;
	rr->verdicts = xcalloc(nscorers(rv) + 1, sizeof(*rr->verdicts));
	char err[1024] = "";
	rr->run = dataset_load_run(&rv->ds, rec, rv->forced, rv->cfg->run_id_path, err, sizeof err);
	if (!rr->run) {
		rr->error = xstrdup(err[0] ? err : "the record could not be read");
		evaluator_fail_all(&rv->ev, rr->error, rr->verdicts);
	} else {
		evaluator_run(&rv->ev, rr->run, rr->verdicts);
	}
	/* A JSONL run holds its parsed record (about three times the text)
	 * and its arena; a .json element is borrowed from the document the
	 * dataset keeps anyway. */
	rr->bytes = sizeof(*rr) + (nscorers(rv) + 1) * sizeof(*rr->verdicts) + (size_t)rec->len * 3;
	if (rr->run)
		rr->bytes += rr->run->arena.used_bytes + sizeof(*rr->run);
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

/* ---- marks -------------------------------------------------------------- */

/* A run is reviewed once every verdict has a standing decision of this
 * reviewer; among those, one with an override is marked overridden. A run
 * without scorers has nothing to decide, so only a note reviews it. */
static void entry_mark(struct review *rv, struct review_entry *e)
{
	bool all = true, over = false;
	if (nscorers(rv) == 0) {
		const struct decision *n = annot_note(rv->annot, e->id, rv->reviewer);
		all = n && n->reason && n->reason[0];
	}
	for (size_t i = 0; i < nscorers(rv); i++) {
		const struct decision *d = annot_current(rv->annot, e->id, rv->cfg->scorers[i].id,
		                                         rv->reviewer);
		if (!d)
			all = false;
		else if (d->kind == DEC_OVERRIDE)
			over = true;
	}
	bool was = e->mark != MARK_UNREVIEWED;
	e->mark = !all ? MARK_UNREVIEWED : over ? MARK_OVERRIDDEN : MARK_REVIEWED;
	e->any_override = over;
	bool is = e->mark != MARK_UNREVIEWED;
	if (is && !was)
		rv->nreviewed++;
	else if (was && !is)
		rv->nreviewed--;
}

/* ---- the view ----------------------------------------------------------- */

static bool entry_passes(const struct review *rv, const struct review_entry *e,
                         enum review_filter f)
{
	if (f == FILTER_ALL)
		return true;
	if (!e->summarized)
		return false;
	bool any_pass = false, any_fail = false, any_error = false;
	for (size_t i = 0; i < nscorers(rv); i++) {
		const struct verdict_cell *c = &e->cells[i];
		if (c->status == VERDICT_OK) {
			any_pass |= c->passed;
			any_fail |= !c->passed;
		} else if (c->status == VERDICT_ERROR) {
			any_error = true;
		}
	}
	switch (f) {
	/* a record that could not be read has nothing to review (see errors) */
	case FILTER_UNREVIEWED: return e->mark == MARK_UNREVIEWED && !(e->summarized && e->load_failed);
	case FILTER_FAILING:    return any_fail;
	case FILTER_DISAGREE:   return any_pass && any_fail;
	case FILTER_OVERRIDDEN: return e->any_override;
	case FILTER_ERRORS:     return e->load_failed || any_error;
	default:                return true;
	}
}

struct sort_key {
	size_t entry;
	const char *id;         /* SORT_ID; NULL sorts last */
	double num;             /* SORT_SCORE, SORT_STATE */
	bool has;               /* SORT_SCORE, SORT_STATE: false sorts last */
};

static int cmp_entry(const struct sort_key *a, const struct sort_key *b)
{
	return a->entry < b->entry ? -1 : a->entry > b->entry;
}

static int cmp_id(const void *pa, const void *pb)
{
	const struct sort_key *a = pa, *b = pb;
	if (!a->id || !b->id) {
		if (a->id || b->id)
			return a->id ? -1 : 1;
		return cmp_entry(a, b);
	}
	int c = strcmp(a->id, b->id);
	return c ? c : cmp_entry(a, b);
}

static int cmp_num(const void *pa, const void *pb)
{
	const struct sort_key *a = pa, *b = pb;
	if (a->has != b->has)
		return a->has ? -1 : 1;
	if (a->has && a->num != b->num)
		return a->num < b->num ? -1 : 1;
	return cmp_entry(a, b);
}

static void view_reserve(struct review *rv, size_t n)
{
	if (n <= rv->view_cap)
		return;
	size_t cap = rv->view_cap ? rv->view_cap : 1024;
	while (cap < n)
		cap *= 2;
	rv->view = realloc(rv->view, cap * sizeof(*rv->view));
	if (!rv->view)
		abort();
	rv->view_cap = cap;
}

static void view_sort(struct review *rv)
{
	struct sort_key *keys = xcalloc(rv->nview, sizeof(*keys));
	for (size_t k = 0; k < rv->nview; k++) {
		const struct review_entry *e = &rv->entries[rv->view[k]];
		struct sort_key *key = &keys[k];
		key->entry = rv->view[k];
		if (!e->summarized)
			continue;
		key->id = e->id;
		if (rv->sort == SORT_STATE) {
			key->has = true;
			key->num = e->mark;
		} else {
			double sum = 0;
			size_t n = 0;
			for (size_t i = 0; i < nscorers(rv); i++)
				if (e->cells[i].status == VERDICT_OK) {
					sum += e->cells[i].score;
					n++;
				}
			key->has = n > 0;
			key->num = n ? sum / (double)n : 0;
		}
	}
	qsort(keys, rv->nview, sizeof(*keys), rv->sort == SORT_ID ? cmp_id : cmp_num);
	for (size_t k = 0; k < rv->nview; k++)
		rv->view[k] = keys[k].entry;
	free(keys);
}

/* Rebuilds the view and keeps the cursor on its entry when that entry is
 * still in view; otherwise on the nearest position. */
static void view_rebuild(struct review *rv)
{
	size_t keep = rv->cursor < rv->nview ? rv->view[rv->cursor] : SIZE_MAX;
	view_reserve(rv, rv->nentries);
	rv->nview = 0;
	for (size_t i = 0; i < rv->nentries; i++)
		if (entry_passes(rv, &rv->entries[i], rv->filter))
			rv->view[rv->nview++] = i;
	if (rv->sort != SORT_FILE && rv->nview > 1)
		view_sort(rv);
	rv->view_dirty = false;
	rv->view_age_ms = 0;

	if (keep == SIZE_MAX) {
		rv->cursor = 0;
		return;
	}
	for (size_t k = 0; k < rv->nview; k++)
		if (rv->view[k] == keep) {
			rv->cursor = k;
			return;
		}
	if (rv->sort == SORT_FILE) {
		/* The entry left the view: stay where it was in the file. */
		size_t lo = 0, hi = rv->nview;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (rv->view[mid] < keep)
				lo = mid + 1;
			else
				hi = mid;
		}
		rv->cursor = lo;
	}
	if (rv->cursor >= rv->nview)
		rv->cursor = rv->nview ? rv->nview - 1 : 0;
}

/* Called by everything that reads the view: a dirty view is rebuilt once
 * the background work is done (until then review_step rebuilds it now and
 * then), never while a decision holds it. */
static void view_fresh(struct review *rv)
{
	if (rv->view_dirty && !rv->view_hold && !review_busy(rv))
		view_rebuild(rv);
}

/* The cursor moved: a view held since a decision may change now. */
static void view_release(struct review *rv)
{
	if (!rv->view_hold)
		return;
	rv->view_hold = false;
	if (rv->view_dirty)
		view_rebuild(rv);
}

/* A new entry, or one that was just summarized: appended when that keeps
 * the view's order, otherwise the view is rebuilt later. */
static void view_offer(struct review *rv, size_t entry, bool is_new)
{
	if (rv->filter == FILTER_ALL) {
		/* Unsummarized entries sort last in file order under every sort,
		 * so a new one goes at the end; a summarized one moves. */
		if (is_new) {
			view_reserve(rv, rv->nview + 1);
			rv->view[rv->nview++] = entry;
		} else if (rv->sort != SORT_FILE) {
			rv->view_dirty = true;
		}
		return;
	}
	if (is_new || !entry_passes(rv, &rv->entries[entry], rv->filter))
		return;
	if (rv->sort == SORT_FILE && (rv->nview == 0 || rv->view[rv->nview - 1] < entry)) {
		view_reserve(rv, rv->nview + 1);
		rv->view[rv->nview++] = entry;
	} else {
		rv->view_dirty = true;
	}
}

/* ---- entries ------------------------------------------------------------ */

static void entries_sync(struct review *rv)
{
	while (rv->nentries < rv->ds.nrecs) {
		if (rv->nentries == rv->entries_cap) {
			rv->entries_cap = rv->entries_cap ? rv->entries_cap * 2 : 1024;
			rv->entries = realloc(rv->entries, rv->entries_cap * sizeof(*rv->entries));
			if (!rv->entries)
				abort();
		}
		struct review_entry *e = &rv->entries[rv->nentries];
		memset(e, 0, sizeof(*e));
		e->rec = rv->nentries;
		char src[1024];
		record_source(&rv->ds, &rv->ds.recs[e->rec], src, sizeof src);
		e->source = xstrdup(src);
		rv->nentries++;
		view_offer(rv, rv->nentries - 1, true);
	}
}

static void entry_fill(struct review *rv, size_t entry, const struct review_run *rr)
{
	struct review_entry *e = &rv->entries[entry];
	const struct run *r = rr->run;
	e->id = xstrdup(r ? r->id : e->source);
	e->label = xstrdup(r ? (r->model && r->model[0] ? r->model : r->format) : "");
	e->ncalls = r ? (unsigned)run_agent_calls(r, NULL) : 0;
	e->load_failed = !r || r->load_error;
	e->cells = xcalloc(nscorers(rv), sizeof(*e->cells));
	for (size_t i = 0; i < nscorers(rv); i++) {
		const struct verdict *v = &rr->verdicts[i];
		e->cells[i] = (struct verdict_cell){
			.status = (uint8_t)v->status,
			.passed = v->status == VERDICT_OK && v->passed,
			.score = v->status == VERDICT_OK ? v->score : 0,
		};
	}
	e->summarized = true;
	rv->nsummarized++;
	e->mark = MARK_UNREVIEWED;
	entry_mark(rv, e);
	view_offer(rv, entry, false);
}

/* Background scoring: the run is kept only when the cache has room, at
 * its cold end, so it never pushes out what the reviewer looked at. */
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
	if (rv->cache_bytes + rr->bytes <= rv->cache_limit)
		cache_add(rv, rr, false);
	else
		rrun_free(rv, rr);
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

int review_open(struct review *rv, const struct config *cfg, struct expectations *ex,
                char *const *paths, size_t npaths, const char *annot_file,
                const char *reviewer, char *err, size_t errlen)
{
	memset(rv, 0, sizeof(*rv));
	rv->cfg = cfg ? cfg : &empty_config;
	rv->ev.scorers = rv->cfg->scorers;
	rv->ev.nscorers = rv->cfg->nscorers;
	rv->ev.expect = ex;
	rv->cache_limit = CACHE_DEFAULT;
	if (rv->cfg->format && !(rv->forced = format_find(rv->cfg->format))) {
		snprintf(err, errlen, "%s: unknown format '%s'",
		         rv->cfg->path ? rv->cfg->path : "configuration", rv->cfg->format);
		return -1;
	}
	if (!annot_file && npaths == 0) {
		snprintf(err, errlen, "no inputs, so no place for the annotations file");
		return -1;
	}
	if (dataset_open(&rv->ds, paths, npaths, err, errlen) < 0) {
		dataset_close(&rv->ds);
		return -1;
	}
	char *apath = annot_file ? xstrdup(annot_file) : default_annot_path(paths[0]);
	rv->annot = annot_open(apath, err, errlen);
	free(apath);
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
			for (size_t j = 0; j < njudges(rv); j++)
				verdict_clear(&e->jcells[j].v);
		free(e->jcells);
	}
	free(rv->entries);
	free(rv->view);
	free(rv->search);
	free(rv->reviewer);
	annot_close(rv->annot);
	dataset_close(&rv->ds);
	memset(rv, 0, sizeof(*rv));
}

/* ---- background work ------------------------------------------------------- */

bool review_busy(const struct review *rv)
{
	return !rv->ds.indexed || rv->nsummarized < rv->nentries;
}

bool review_step(struct review *rv, double budget_ms)
{
	double t0 = now_ms(), t = t0;
	/* At least one unit of work per call, so a tiny budget still gets on. */
	do {
		if (!summarize_near_cursor(rv)) {
			if (!rv->ds.indexed) {
				dataset_index_step(&rv->ds, INDEX_SLICE);
				entries_sync(rv);
			} else if (!summarize_next(rv)) {
				break;
			}
		}
		t = now_ms();
	} while (t - t0 < budget_ms);
	rv->view_age_ms += t - t0;
	if (rv->view_dirty && !rv->view_hold &&
	    (rv->view_age_ms >= REBUILD_EVERY_MS || rv->nview < SCREENFUL || !review_busy(rv)))
		view_rebuild(rv);
	return review_busy(rv);
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

/* ---- the view, for the screen ------------------------------------------- */

size_t review_view_count(struct review *rv)
{
	view_fresh(rv);
	return rv->nview;
}

struct review_entry *review_view_entry(struct review *rv, size_t i)
{
	view_fresh(rv);
	return i < rv->nview ? &rv->entries[rv->view[i]] : NULL;
}

size_t review_cursor(struct review *rv)
{
	view_fresh(rv);
	return rv->cursor;
}

void review_move_to(struct review *rv, size_t i)
{
	view_fresh(rv);
	rv->cursor = rv->nview == 0 ? 0 : i < rv->nview ? i : rv->nview - 1;
	view_release(rv);
}

void review_move(struct review *rv, long delta)
{
	view_fresh(rv);
	size_t c = rv->cursor;
	if (delta < 0) {
		size_t back = (size_t)(-(delta + 1)) + 1;     /* -LONG_MIN does not fit */
		c = back > c ? 0 : c - back;
	} else {
		c = (size_t)delta > SIZE_MAX - c ? SIZE_MAX : c + (size_t)delta;
	}
	review_move_to(rv, c);
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
	} else {
		rr = rrun_load(rv, entry);
		cache_add(rv, rr, true);
	}
	if (!e->summarized)
		entry_fill(rv, entry, rr);
	cache_trim(rv, rr);
	return rr;
}

struct review_run *review_current(struct review *rv)
{
	view_fresh(rv);
	if (rv->nview == 0)
		return NULL;
	if (rv->cursor >= rv->nview)
		rv->cursor = rv->nview - 1;
	return review_run_at(rv, rv->view[rv->cursor]);
}

void review_set_filter(struct review *rv, enum review_filter f)
{
	if ((unsigned)f >= FILTER_COUNT)
		f = FILTER_ALL;
	rv->filter = f;
	rv->view_hold = false;
	view_rebuild(rv);
}

void review_set_sort(struct review *rv, enum review_sort s)
{
	if ((unsigned)s >= SORT_COUNT)
		s = SORT_FILE;
	rv->sort = s;
	rv->view_hold = false;
	view_rebuild(rv);
}

const char *review_filter_name(enum review_filter f)
{
	static const char *const names[FILTER_COUNT] = {
		"all", "unreviewed", "failing", "disagreement", "overridden", "errors",
	};
	return (unsigned)f < FILTER_COUNT ? names[f] : "?";
}

const char *review_sort_name(enum review_sort s)
{
	static const char *const names[SORT_COUNT] = {
		"file order", "id", "score", "review state",
	};
	return (unsigned)s < SORT_COUNT ? names[s] : "?";
}

/* ---- search ------------------------------------------------------------- */

static unsigned char lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

/* How often a byte turns up in a transcript, roughly: the search waits on
 * the rarest byte of the query, so common ones are not visited one by one. */
static int byte_weight(unsigned char c)
{
	static const unsigned char letters[26] = {
		82, 15, 28, 43, 127, 22, 20, 61, 70, 2, 8, 40, 24,
		67, 75, 19, 1, 60, 63, 91, 28, 10, 24, 2, 20, 1,
	};
	c = lower(c);
	if (c >= 'a' && c <= 'z')
		return letters[c - 'a'];
	if (c >= '0' && c <= '9')
		return 30;
	if (c == ' ' || c == '"')
		return 150;
	if (c == ':' || c == ',' || c == '{' || c == '}' || c == '\\')
		return 80;
	if (c >= 0x80)
		return 40;
	return 10;
}

struct needle {
	unsigned char *lo;      /* lower-cased */
	size_t len;
	size_t anchor;          /* its rarest byte */
};

static void needle_init(struct needle *nd, const char *s)
{
	nd->len = strlen(s);
	nd->lo = (unsigned char *)xstrdup(s);
	nd->anchor = 0;
	for (size_t i = 0; i < nd->len; i++) {
		nd->lo[i] = lower(nd->lo[i]);
		if (byte_weight(nd->lo[i]) < byte_weight(nd->lo[nd->anchor]))
			nd->anchor = i;
	}
}

static bool match_at(const unsigned char *h, const struct needle *nd)
{
	for (size_t i = 0; i < nd->len; i++)
		if (lower(h[i]) != nd->lo[i])
			return false;
	return true;
}

/* memmem, ignoring ASCII case: memchr for both cases of the anchor byte,
 * then a comparison where one turns up. */
static bool ci_contains(const unsigned char *h, size_t n, const struct needle *nd)
{
	size_t m = nd->len, a = nd->anchor;
	if (m == 0)
		return true;
	if (n < m)
		return false;
	unsigned char lo = nd->lo[a];
	unsigned char up = lo >= 'a' && lo <= 'z' ? (unsigned char)(lo - 32) : lo;
	const unsigned char *p = h + a, *end = h + (n - m) + a + 1;
	const unsigned char *pl = memchr(p, lo, (size_t)(end - p));
	const unsigned char *pu = up != lo ? memchr(p, up, (size_t)(end - p)) : NULL;
	while (pl || pu) {
		const unsigned char *c = !pu || (pl && pl < pu) ? pl : pu;
		if (match_at(c - a, nd))
			return true;
		if (c == pl)
			pl = c + 1 < end ? memchr(c + 1, lo, (size_t)(end - c - 1)) : NULL;
		else
			pu = c + 1 < end ? memchr(c + 1, up, (size_t)(end - c - 1)) : NULL;
	}
	return false;
}

/* The query as it appears inside a JSON string: quotes and backslashes
 * escaped, and with `ascii` every non-ASCII character as \uXXXX (how
 * Python's json.dumps writes Japanese text by default). */
static char *json_escaped(const char *s, bool ascii)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, "");
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		if (*p == '"' || *p == '\\') {
			strbuf_addch(&sb, '\\');
			strbuf_addch(&sb, (char)*p++);
		} else if (*p < 0x20) {
			strbuf_addf(&sb, "\\u%04x", (unsigned)*p++);
		} else if (*p < 0x80 || !ascii) {
			strbuf_addch(&sb, (char)*p++);
		} else {
			unsigned cp = 0;
			size_t len = *p >= 0xf0 ? 4 : *p >= 0xe0 ? 3 : *p >= 0xc0 ? 2 : 1;
			cp = len == 4 ? *p & 0x07u : len == 3 ? *p & 0x0fu : len == 2 ? *p & 0x1fu : *p;
			size_t k = 1;
			for (; k < len && (p[k] & 0xc0) == 0x80; k++)
				cp = (cp << 6) | (p[k] & 0x3fu);
			p += k;
			if (cp >= 0x10000) {
				cp -= 0x10000;
				strbuf_addf(&sb, "\\u%04x\\u%04x", 0xd800 + (cp >> 10), 0xdc00 + (cp & 0x3ff));
			} else {
				strbuf_addf(&sb, "\\u%04x", cp);
			}
		}
	}
	return strbuf_detach(&sb);
}

struct needles {
	struct needle v[4];
	size_t n;
};

static void needles_add(struct needles *ns, char *s)
{
	for (size_t i = 0; i < ns->n; i++)
		if (strlen(s) == ns->v[i].len && memcmp(s, ns->v[i].lo, ns->v[i].len) == 0) {
			free(s);
			return;
		}
	needle_init(&ns->v[ns->n++], s);
	free(s);
}

/* The query as typed, as written in a JSON string, as written in a JSON
 * string inside one (tool arguments are JSON text), and ASCII-escaped. */
static void needles_init(struct needles *ns, const char *q)
{
	ns->n = 0;
	char *lq = xstrdup(q);
	for (char *p = lq; *p; p++)
		*p = (char)lower((unsigned char)*p);
	char *e1 = json_escaped(lq, false);
	needles_add(ns, json_escaped(e1, false));
	needles_add(ns, json_escaped(lq, true));
	needles_add(ns, e1);
	needles_add(ns, lq);
}

static void needles_free(struct needles *ns)
{
	for (size_t i = 0; i < ns->n; i++)
		free(ns->v[i].lo);
}

static bool needles_in(const struct needles *ns, const void *h, size_t n)
{
	for (size_t i = 0; i < ns->n; i++)
		if (ci_contains(h, n, &ns->v[i]))
			return true;
	return false;
}

static bool entry_matches(struct review *rv, size_t entry, const struct needles *ns)
{
	const struct review_entry *e = &rv->entries[entry];
	if (e->id && needles_in(ns, e->id, strlen(e->id)))
		return true;
	const struct record_ref *rec = &rv->ds.recs[e->rec];
	const struct input_file *f = &rv->ds.files[rec->file];
	if (f->kind == INPUT_JSONL)
		return needles_in(ns, f->data + rec->off, (size_t)rec->len);
	/* A .json element has no text of its own: its dump stands in. */
	char err[256];
	json_t *v = dataset_parse(&rv->ds, rec, err, sizeof err);
	if (!v)
		return false;
	char *text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
	json_decref(v);
	bool hit = text && needles_in(ns, text, strlen(text));
	free(text);
	return hit;
}

bool review_search(struct review *rv, const char *query, int direction)
{
	if (query) {
		char *q = xstrdup(query);
		free(rv->search);
		rv->search = q;
	}
	if (!rv->search || !rv->search[0])
		return false;
	view_fresh(rv);
	size_t n = rv->nview;
	if (n == 0)
		return false;
	struct needles ns;
	needles_init(&ns, rv->search);
	bool found = false;
	/* The run under the cursor is looked at last, after wrapping. */
	for (size_t k = 1; k <= n && !found; k++) {
		size_t pos = direction < 0 ? (rv->cursor + n - k % n) % n : (rv->cursor + k) % n;
		if (entry_matches(rv, rv->view[pos], &ns)) {
			rv->cursor = pos;
			found = true;
		}
	}
	needles_free(&ns);
	if (found)
		view_release(rv);
	return found;
}

bool review_next_unreviewed(struct review *rv)
{
	view_fresh(rv);
	size_t n = rv->nview;
	for (size_t k = 1; k <= n; k++) {
		size_t pos = (rv->cursor + k) % n;
		const struct review_entry *e = &rv->entries[rv->view[pos]];
		if (e->summarized && e->load_failed)
			continue;           /* nothing to decide there */
		if (review_mark_of(rv, rv->view[pos]) == MARK_UNREVIEWED) {
			rv->cursor = pos;
			view_release(rv);
			return true;
		}
	}
	return false;
}

/* ---- review state ------------------------------------------------------- */

enum review_mark review_mark_of(struct review *rv, size_t entry)
{
	if (entry >= rv->nentries || !rv->entries[entry].summarized)
		return MARK_UNREVIEWED;
	return (enum review_mark)rv->entries[entry].mark;
}

size_t review_reviewed_count(struct review *rv)
{
	return rv->nreviewed;
}

static bool view_uses_marks(const struct review *rv)
{
	return rv->filter == FILTER_UNREVIEWED || rv->filter == FILTER_OVERRIDDEN ||
	       rv->sort == SORT_STATE;
}

static void remark_all(struct review *rv)
{
	for (size_t i = 0; i < rv->nentries; i++)
		if (rv->entries[i].summarized)
			entry_mark(rv, &rv->entries[i]);
	if (view_uses_marks(rv))
		rv->view_dirty = true;
}

size_t review_refresh(struct review *rv)
{
	size_t n = annot_refresh(rv->annot);
	if (n)
		remark_all(rv);
	return n;
}

const struct decision *review_decision(struct review *rv, size_t entry, size_t scorer)
{
	if (entry >= rv->nentries || scorer >= review_nrows(rv) || !rv->entries[entry].summarized)
		return NULL;
	return annot_current(rv->annot, rv->entries[entry].id, review_row_id(rv, scorer),
	                     rv->reviewer);
}

const struct decision *review_note_of(struct review *rv, size_t entry)
{
	if (entry >= rv->nentries || !rv->entries[entry].summarized)
		return NULL;
	return annot_note(rv->annot, rv->entries[entry].id, rv->reviewer);
}

/* ---- decisions ---------------------------------------------------------- */

int review_parse_score(const struct scorer_conf *sc, const char *text, double *out,
                       char *err, size_t errlen)
{
	struct scale span = scale_of(sc->ops->scale);
	return scale_parse_score(&span, text, out, err, errlen);
}

/* The decisions changed: every entry of that run id is marked again, and a
 * view that depends on marks is held until the cursor moves. */
static void decided(struct review *rv, size_t entry)
{
	const char *id = rv->entries[entry].id;
	for (size_t i = 0; i < rv->nentries; i++) {
		struct review_entry *e = &rv->entries[i];
		if (e->summarized && (i == entry || strcmp(e->id, id) == 0))
			entry_mark(rv, e);
	}
	if (view_uses_marks(rv)) {
		rv->view_dirty = true;
		rv->view_hold = true;
	}
}

static struct review_run *current_for_decision(struct review *rv, char *err, size_t errlen)
{
	struct review_run *rr = review_current(rv);
	if (!rr)
		snprintf(err, errlen, "no run selected");
	else if (!rr->run || rr->run->load_error) {
		/* There is nothing to judge in a record that could not be read. */
		snprintf(err, errlen, "this record could not be read, so it has no verdicts to decide");
		return NULL;
	}
	return rr;
}

/* ---- verdict rows: scorers, then judges ---------------------------------- */

size_t review_nrows(const struct review *rv)
{
	return nscorers(rv) + njudges(rv);
}

const char *review_row_id(const struct review *rv, size_t row)
{
	if (row < nscorers(rv))
		return rv->cfg->scorers[row].id;
	if (row < review_nrows(rv))
		return rv->cfg->judges[row - nscorers(rv)].id;
	return "?";
}

struct judge_cell *review_judge_cell(struct review *rv, size_t entry, size_t judge)
{
	if (entry >= rv->nentries || judge >= njudges(rv))
		return NULL;
	struct review_entry *e = &rv->entries[entry];
	if (!e->jcells)
		e->jcells = xcalloc(njudges(rv) + 1, sizeof(*e->jcells));
	return &e->jcells[judge];
}

void review_judge_pending(struct review *rv, size_t entry, size_t judge, double now_ms)
{
	struct judge_cell *c = review_judge_cell(rv, entry, judge);
	if (!c)
		return;
	verdict_clear(&c->v);
	c->state = JUDGE_PENDING;
	c->started_ms = now_ms;
}

void review_judge_done(struct review *rv, size_t entry, size_t judge, const struct verdict *v)
{
	struct judge_cell *c = review_judge_cell(rv, entry, judge);
	if (!c)
		return;
	verdict_clear(&c->v);
	c->v.status = v->status;
	c->v.score = v->score;
	c->v.passed = v->passed;
	c->v.details = v->details ? json_deep_copy(v->details) : NULL;
	c->v.message = v->message ? xstrdup(v->message) : NULL;
	c->state = JUDGE_DONE;
}

struct row_info {
	const char *id, *type, *config;
	struct scale span;          /* the scale with its range */
	const struct verdict *v;
};

static bool row_info(struct review *rv, const struct review_run *rr, size_t row, struct row_info *out,
                     char *err, size_t errlen)
{
	if (row < nscorers(rv)) {
		const struct scorer_conf *sc = &rv->cfg->scorers[row];
		*out = (struct row_info){ sc->id, sc->ops->type, sc->hash, scale_of(sc->ops->scale),
		                          &rr->verdicts[row] };
		return true;
	}
	if (row >= review_nrows(rv)) {
		snprintf(err, errlen, "no such scorer");
		return false;
	}
	const struct judge_conf *j = &rv->cfg->judges[row - nscorers(rv)];
	struct judge_cell *c = review_judge_cell(rv, rr->entry, row - nscorers(rv));
	if (!c || c->state != JUDGE_DONE) {
		if (c && c->state == JUDGE_PENDING)
			snprintf(err, errlen, "%s is still answering for this run (Esc cancels)", j->id);
		else
			snprintf(err, errlen, "%s has not answered for this run yet (J asks it)", j->id);
		return false;
	}
	*out = (struct row_info){ j->id, j->rubric->name, j->hash, judge_span(j), &c->v };
	return true;
}

int review_parse_row_score(struct review *rv, size_t row, const char *text, double *out,
                           char *err, size_t errlen)
{
	if (row < nscorers(rv))
		return review_parse_score(&rv->cfg->scorers[row], text, out, err, errlen);
	struct review_run *rr = review_current(rv);
	struct row_info ri;
	if (!rr || !row_info(rv, rr, row, &ri, err, errlen))
		return -1;
	return scale_parse_score(&ri.span, text, out, err, errlen);
}

static int decide(struct review *rv, const struct review_run *rr, enum decision_kind kind,
                  size_t scorer, bool has_score, double score, const char *reason,
                  char *err, size_t errlen)
{
	const struct review_entry *e = &rv->entries[rr->entry];
	struct decision d = {
		.kind = kind,
		.run = e->id,
		.source = e->source,
		.reason = reason,
		.reviewer = rv->reviewer,
		.has_score = has_score,
		.score = score,
	};
	if (kind != DEC_NOTE) {
		struct row_info ri;
		if (!row_info(rv, rr, scorer, &ri, err, errlen))
			return -1;
		const struct verdict *v = ri.v;
		bool ok = v->status == VERDICT_OK;
		d.scorer = ri.id;
		d.scorer_type = ri.type;
		d.config = ri.config;
		d.has_machine_score = ok;
		d.machine_score = ok ? v->score : 0;
		d.has_machine_passed = ok;
		d.machine_passed = ok && v->passed;
	}
	size_t before = annot_count(rv->annot);
	if (annot_append(rv->annot, &d, err, errlen) < 0)
		return -1;
	decided(rv, rr->entry);
	/* The store reads what other reviewers appended before it writes;
	 * their decisions may concern any run. */
	if (annot_count(rv->annot) > before + 1)
		remark_all(rv);
	return 0;
}

static int accept_one(struct review *rv, const struct review_run *rr, size_t scorer,
                      char *err, size_t errlen)
{
	struct row_info ri;
	if (!row_info(rv, rr, scorer, &ri, err, errlen))
		return -1;
	const struct verdict *v = ri.v;
	bool ok = v->status == VERDICT_OK;
	return decide(rv, rr, DEC_ACCEPT, scorer, ok, ok ? v->score : 0, NULL, err, errlen);
}

int review_accept(struct review *rv, size_t scorer, char *err, size_t errlen)
{
	struct review_run *rr = current_for_decision(rv, err, errlen);
	return rr ? accept_one(rv, rr, scorer, err, errlen) : -1;
}

int review_accept_all(struct review *rv, char *err, size_t errlen)
{
	struct review_run *rr = current_for_decision(rv, err, errlen);
	if (!rr)
		return -1;
	const char *id = rv->entries[rr->entry].id;
	for (size_t i = 0; i < review_nrows(rv); i++) {
		/* A verdict already decided keeps its decision: accepting over
		 * an override would silently undo it. A judge not asked yet has
		 * nothing to accept. */
		if (annot_current(rv->annot, id, review_row_id(rv, i), rv->reviewer))
			continue;
		if (i >= nscorers(rv)) {
			struct judge_cell *jc = review_judge_cell(rv, rr->entry, i - nscorers(rv));
			if (!jc || jc->state != JUDGE_DONE)
				continue;
		}
		if (accept_one(rv, rr, i, err, errlen) < 0)
			return -1;
	}
	review_next_unreviewed(rv);
	return 0;
}

int review_override(struct review *rv, size_t scorer, double score, const char *reason,
                    char *err, size_t errlen)
{
	struct review_run *rr = current_for_decision(rv, err, errlen);
	if (!rr)
		return -1;
	struct row_info ri;
	if (!row_info(rv, rr, scorer, &ri, err, errlen))
		return -1;
	if (!scale_holds(&ri.span, score)) {
		char want[64];
		scale_describe(&ri.span, want, sizeof want);
		snprintf(err, errlen, "expected %s", want);
		return -1;
	}
	return decide(rv, rr, DEC_OVERRIDE, scorer, true, score == 0 ? 0 : score,
	              reason && reason[0] ? reason : NULL, err, errlen);
}

int review_retract(struct review *rv, size_t scorer, char *err, size_t errlen)
{
	struct review_run *rr = current_for_decision(rv, err, errlen);
	if (!rr)
		return -1;
	if (scorer >= review_nrows(rv)) {
		snprintf(err, errlen, "no such scorer");
		return -1;
	}
	if (!annot_current(rv->annot, rv->entries[rr->entry].id, review_row_id(rv, scorer),
	                   rv->reviewer)) {
		snprintf(err, errlen, "nothing to take back");
		return -1;
	}
	return decide(rv, rr, DEC_RETRACT, scorer, false, 0, NULL, err, errlen);
}

int review_note(struct review *rv, const char *text, char *err, size_t errlen)
{
	/* A note may say what is wrong with a record that could not be read. */
	struct review_run *rr = review_current(rv);
	if (!rr) {
		snprintf(err, errlen, "no run selected");
		return -1;
	}
	return decide(rv, rr, DEC_NOTE, 0, false, 0, text ? text : "", err, errlen);
}
