/* callmarks.c - each call's marks from the session's verdicts (call_marks in a code scorer's details).
 *
 * The scorer wrote its marks in its own order (by reference call, then the
 * extra ones); the timeline wants them by call, so they are gathered row
 * by row and then sorted by call, stably, keeping the rows' order within
 * a call. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "review/callmarks.h"
#include "review/rows.h"
#include "review/session.h"
#include "runs/run.h"
#include "verdict/verdict.h"
#include "util/xalloc.h"

static const char *const mark_names[CALL_MARK_COUNT] = {
	[CALL_MARK_MATCHED] = "matched",
	[CALL_MARK_EXTRA]   = "extra",
	[CALL_MARK_ARGS]    = "args",
	[CALL_MARK_FAILED]  = "failed",
	[CALL_MARK_NO_RESULT] = "no-result",
};

/* The kinds that name the reference call they were matched or compared with. */
static bool takes_ref(enum call_mark_kind k)
{
	return k == CALL_MARK_MATCHED || k == CALL_MARK_ARGS;
}

const char *call_mark_name(enum call_mark_kind k)
{
	return (unsigned)k < CALL_MARK_COUNT ? mark_names[k] : "?";
}

bool call_mark_parse(const char *word, enum call_mark_kind *out)
{
	for (int k = 0; word && k < CALL_MARK_COUNT; k++)
		if (!strcmp(word, mark_names[k])) {
			*out = (enum call_mark_kind)k;
			return true;
		}
	return false;
}

struct gathered {
	struct call_mark *marks;
	size_t *call;           /* the call of each mark */
	size_t n, cap;
};

static void gather(struct gathered *g, size_t call, const struct call_mark *m)
{
	if (g->n == g->cap) {
		g->cap = g->cap ? g->cap * 2 : 16;
		g->marks = xrealloc(g->marks, g->cap * sizeof *g->marks);
		g->call = xrealloc(g->call, g->cap * sizeof *g->call);
	}
	g->marks[g->n] = *m;
	g->call[g->n++] = call;
}

/* One entry of a row's list, when it says something the timeline can show.
 * Its call counts from 1 (verdict.h); *call is the index in run->calls. */
static bool read_entry(const json_t *o, size_t ncalls, size_t *call, struct call_mark *m)
{
	json_t *c = json_object_get(o, "call"), *ref = json_object_get(o, "ref");
	if (!json_is_integer(c) || json_integer_value(c) < 1 || (json_int_t)ncalls < json_integer_value(c))
		return false;
	if (!call_mark_parse(json_string_value(json_object_get(o, "mark")), &m->kind))
		return false;
	m->ref = 0;
	if (takes_ref(m->kind)) {
		if (!json_is_integer(ref) || json_integer_value(ref) < 1)
			return false;
		m->ref = (size_t)json_integer_value(ref);
	}
	m->allowed = json_is_true(json_object_get(o, "allowed"));
	*call = (size_t)json_integer_value(c) - 1;
	return true;
}

/* seen: one flag per call, cleared, for the row's second entry on a call */
static void gather_row(const struct review *rv, const struct review_run *rr, size_t row, struct gathered *g,
                       bool *seen)
{
	struct review_row r;
	if (!review_row_get(rv, rr, row, &r) || r.kind != ROW_SCORER || r.state != ROW_READY ||
	    !r.v || r.v->status != VERDICT_OK || review_row_hidden(rv, rr->entry, row))
		return;
	const json_t *list = json_object_get(r.v->details, VERDICT_CALL_MARKS);
	size_t first = g->n, i;
	json_t *o;
	json_array_foreach(list, i, o) {
		struct call_mark m = { .row = row, .scorer = r.id };
		size_t call;
		if (!read_entry(o, rr->run->ncalls, &call, &m))
			continue;
		if (!seen[call])
			gather(g, call, &m);
		seen[call] = true;
	}
	for (size_t k = first; k < g->n; k++)
		seen[g->call[k]] = false;
}

void review_call_marks(const struct review *rv, const struct review_run *rr, struct call_marks *out)
{
	memset(out, 0, sizeof *out);
	if (!rv || !rv->cfg || !rr || !rr->run || !rr->verdicts)
		return;
	size_t nc = rr->run->ncalls;
	struct gathered g = { 0 };
	bool *seen = xcalloc(nc + 1, sizeof *seen);
	for (size_t row = 0; row < rv->cfg->nscorers; row++)
		gather_row(rv, rr, row, &g, seen);
	free(seen);
	out->ncalls = nc;
	out->start = xcalloc(nc + 1, sizeof *out->start);
	out->nmarks = g.n;
	out->marks = g.n ? xcalloc(g.n, sizeof *out->marks) : NULL;
	/* a counting sort by call: stable, so each call keeps the rows' order */
	for (size_t k = 0; k < g.n; k++)
		out->start[g.call[k] + 1]++;
	for (size_t c = 0; c < nc; c++)
		out->start[c + 1] += out->start[c];
	size_t *next = xcalloc(nc + 1, sizeof *next);
	memcpy(next, out->start, (nc + 1) * sizeof *next);
	for (size_t k = 0; k < g.n; k++)
		out->marks[next[g.call[k]]++] = g.marks[k];
	free(next);
	free(g.marks);
	free(g.call);
}

const struct call_mark *call_marks_at(const struct call_marks *m, size_t call, size_t *n)
{
	*n = 0;
	if (!m || !m->start || call >= m->ncalls)
		return NULL;
	*n = m->start[call + 1] - m->start[call];
	return *n ? &m->marks[m->start[call]] : NULL;
}

bool call_mark_is_problem(const struct call_mark *m)
{
	return m->kind != CALL_MARK_MATCHED && !m->allowed;
}

void call_marks_free(struct call_marks *m)
{
	free(m->start);
	free(m->marks);
	memset(m, 0, sizeof *m);
}
