/* view.c - the runs in view: filter, sort, the cursor and moving it.
 *
 * The view is a list of entry indexes, rebuilt when a filter, a sort or a
 * mark it depends on changes; while work goes on it is rebuilt now and then
 * (see review_step), and never while a decision holds it. It stands above
 * the filters and the marks it reads; the reads below change nothing (the
 * settle step, above, keeps the view fresh). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "review/session.h"
#include "session_int.h"

#include "util/xalloc.h"

/* ---- the view ----------------------------------------------------------- */

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
	rv->view = xrealloc(rv->view, cap * sizeof(*rv->view));
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
			for (size_t i = 0; i < review_nscorers(rv); i++)
				/* blind: a hidden score must not order the list */
				if (e->cells[i].status == VERDICT_OK &&
				    !(rv->blind && review_row_hidden(rv, key->entry, i))) {
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
void review_view_rebuild(struct review *rv)
{
	size_t keep = rv->cursor < rv->nview ? rv->view[rv->cursor] : SIZE_MAX;
	view_reserve(rv, rv->nentries);
	rv->nview = 0;
	review_queue_prepare(rv);
	for (size_t i = 0; i < rv->nentries; i++)
		if (review_queue_holds(rv, i) && review_entry_passes(rv, i, rv->filter))
			rv->view[rv->nview++] = i;
	/* A queue is the order: it stands in for the sort. */
	if (rv->queue.kind != QUEUE_NONE)
		review_queue_sort(rv, rv->view, rv->nview);
	else if (rv->sort != SORT_FILE && rv->nview > 1)
		view_sort(rv);
	rv->view_dirty = false;
	rv->view_age_ms = 0;
	/* Once every run is scored the queue's order is known: the reviewer
	 * starts at its first run. */
	if (rv->queue.kind != QUEUE_NONE && !rv->queue.placed && !review_work_left(rv)) {
		rv->queue.placed = true;
		rv->cursor = 0;
		return;
	}

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
void review_view_fresh(struct review *rv)
{
	if (rv->view_dirty && !rv->view_hold && !review_work_left(rv))
		review_view_rebuild(rv);
}

/* The cursor moved: a view held since a decision may change now. */
void review_view_release(struct review *rv)
{
	if (!rv->view_hold)
		return;
	rv->view_hold = false;
	if (rv->view_dirty)
		review_view_rebuild(rv);
}

/* A new entry, or one that was just summarized: appended when that keeps
 * the view's order, otherwise the view is rebuilt later. */
void review_view_offer(struct review *rv, size_t entry, bool is_new)
{
	if (rv->queue.kind != QUEUE_NONE) {
		/* Unscored runs come last in file order in an order; a sample
		 * takes none of them until it is drawn. */
		if (is_new && !rv->queue.sample && rv->filter == FILTER_ALL && !rv->assign.on) {
			view_reserve(rv, rv->nview + 1);
			rv->view[rv->nview++] = entry;
		} else if (!is_new) {
			rv->view_dirty = true;
		}
		return;
	}
	if (rv->filter == FILTER_ALL && !rv->assign.on) {
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
	if (is_new || !review_entry_passes(rv, entry, rv->filter))
		return;
	if (rv->sort == SORT_FILE && (rv->nview == 0 || rv->view[rv->nview - 1] < entry)) {
		view_reserve(rv, rv->nview + 1);
		rv->view[rv->nview++] = entry;
	} else {
		rv->view_dirty = true;
	}
}


/* ---- the view, for the screen ------------------------------------------- */

size_t review_view_count(const struct review *rv)
{
	return rv->nview;
}

const struct review_entry *review_view_entry(const struct review *rv, size_t i)
{
	return i < rv->nview ? &rv->entries[rv->view[i]] : NULL;
}

size_t review_cursor(const struct review *rv)
{
	return rv->cursor;
}

void review_move_to(struct review *rv, size_t i)
{
	review_view_fresh(rv);
	rv->cursor = rv->nview == 0 ? 0 : i < rv->nview ? i : rv->nview - 1;
	review_view_release(rv);
}

void review_move(struct review *rv, long delta)
{
	review_view_fresh(rv);
	size_t c = rv->cursor;
	if (delta < 0) {
		size_t back = (size_t)(-(delta + 1)) + 1;     /* -LONG_MIN does not fit */
		c = back > c ? 0 : c - back;
	} else {
		c = (size_t)delta > SIZE_MAX - c ? SIZE_MAX : c + (size_t)delta;
	}
	review_move_to(rv, c);
}

void review_set_filter(struct review *rv, enum review_filter f)
{
	if ((unsigned)f >= FILTER_COUNT)
		f = FILTER_ALL;
	rv->filter = f;
	rv->view_hold = false;
	review_view_rebuild(rv);
}

void review_set_queue(struct review *rv, const struct review_queue *q)
{
	rv->queue = q ? *q : (struct review_queue){ 0 };
	rv->queue.drawn = false;
	rv->queue.ndrawn = 0;
	for (size_t i = 0; i < rv->nentries; i++) {
		rv->entries[i].in_queue = false;
		rv->entries[i].queue_pi = 0;
	}
	rv->queue.placed = false;
	rv->view_hold = false;
	review_view_rebuild(rv);
	rv->cursor = 0;             /* a queue starts at its first run */
}

void review_set_sort(struct review *rv, enum review_sort s)
{
	if ((unsigned)s >= SORT_COUNT)
		s = SORT_FILE;
	rv->sort = s;
	rv->view_hold = false;
	review_view_rebuild(rv);
}

const char *review_sort_name(enum review_sort s)
{
	static const char *const names[SORT_COUNT] = {
		"file order", "id", "score", "review state",
	};
	return (unsigned)s < SORT_COUNT ? names[s] : "?";
}

bool review_next_unreviewed(struct review *rv)
{
	review_view_fresh(rv);
	size_t n = rv->nview;
	for (size_t k = 1; k <= n; k++) {
		size_t pos = (rv->cursor + k) % n;
		const struct review_entry *e = &rv->entries[rv->view[pos]];
		if (e->summarized && e->load_failed)
			continue;           /* nothing to decide there */
		if (review_mark_of(rv, rv->view[pos]) == MARK_UNREVIEWED) {
			rv->cursor = pos;
			review_view_release(rv);
			return true;
		}
	}
	return false;
}

/* `]` and `[`: the next run in view holding a disagreement of the kinds
 * the filter is about (filters.c says which a run holds). */
bool review_next_disagreement(struct review *rv, int direction, bool *wrapped)
{
	review_view_fresh(rv);
	size_t n = rv->nview;
	unsigned kinds = review_disagreement_kinds(rv);
	*wrapped = false;
	for (size_t k = 1; k <= n; k++) {
		size_t pos = direction > 0 ? (rv->cursor + k) % n : (rv->cursor + n - k % n) % n;
		if (review_entry_disagreements(rv, rv->view[pos]) & kinds) {
			*wrapped = direction > 0 ? pos <= rv->cursor : pos >= rv->cursor;
			rv->cursor = pos;
			review_view_release(rv);
			return true;
		}
	}
	return false;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return x < y ? -1 : x > y;
}

void review_set_cell_filter(struct review *rv, const size_t *entries, size_t n, const char *name)
{
	free(rv->cell.entries);
	rv->cell.entries = n ? xcalloc(n, sizeof(size_t)) : NULL;
	if (n)
		memcpy(rv->cell.entries, entries, n * sizeof(size_t));
	qsort(rv->cell.entries, n, sizeof(size_t), cmp_size);
	rv->cell.n = n;
	snprintf(rv->cell.name, sizeof rv->cell.name, "%s", name ? name : "cell");
	review_set_filter(rv, FILTER_CELL);
}

void review_set_assign(struct review *rv, const struct review_assign *a)
{
	rv->assign = a ? *a : (struct review_assign){ 0 };
	rv->share_total = rv->share_reviewed = 0;
	for (size_t i = 0; i < rv->nentries; i++) {
		struct review_entry *e = &rv->entries[i];
		e->in_share = e->summarized && rv->assign.on && review_assign_holds(&rv->assign, e->id);
		rv->share_total += e->in_share;
		rv->share_reviewed += e->in_share && e->mark != MARK_UNREVIEWED;
	}
	rv->view_hold = false;
	review_view_rebuild(rv);
}
