/* shape_spans.c - the reader by shape's span and event lists: steps typed tool, generation, llm or agent, read in the order of their start time. */
#include <stdlib.h>
#include <string.h>

#include "shape.h"
#include "util/xalloc.h"

static const char *const start_keys[] = { "startTime", "start_time", "startedAt", "started_at",
                                          "start", "timestamp", NULL };

struct span_item {
	jv v;
	const char *start;          /* an ISO time or a number's text; NULL when none */
	double start_num;
	bool numeric;
	size_t order;               /* its place in the list, for ties and for none */
};

static void span_start(const struct jdoc *d, struct span_item *it)
{
	for (size_t i = 0; start_keys[i]; i++) {
		jv t = jv_get(d, it->v, start_keys[i]);
		if (jv_is_string(d, t)) {
			it->start = jv_str(d, t);
			return;
		}
		if (jv_is_number(d, t)) {
			it->numeric = true;
			it->start_num = jv_real(d, t);
			it->start = "";
			return;
		}
	}
}

/* By start time, then in the list's order. ISO times of one export share
 * their form, so they sort as text; numbers sort before texts. An item
 * without a start takes the one of the item before it, so the order is
 * total and it stays after its neighbour. */
static int span_cmp(const void *pa, const void *pb)
{
	const struct span_item *a = pa, *b = pb;
	int c = (a->numeric < b->numeric) - (a->numeric > b->numeric);
	if (!c)
		c = a->numeric ? (a->start_num > b->start_num) - (a->start_num < b->start_num)
		               : strcmp(a->start, b->start);
	return c ? c : (a->order > b->order) - (a->order < b->order);
}

/* Whether call i was already answered by a tool span (results are joined
 * only at the end, so the call itself does not know yet). */
static bool claim_call(struct shape *s, size_t i)
{
	if (i >= s->claimed_cap) {
		size_t cap = s->claimed_cap ? s->claimed_cap : 16;
		while (cap <= i)
			cap *= 2;
		s->claimed = xrealloc(s->claimed, cap);
		memset(s->claimed + s->claimed_cap, 0, cap - s->claimed_cap);
		s->claimed_cap = cap;
	}
	if (s->claimed[i])
		return false;
	s->claimed[i] = true;
	return true;
}

/* A tool span is the result of the call it ran when that call was seen
 * (by name, the first one still unanswered), else a call of its own. */
static void read_tool_span(struct shape *s, jv span)
{
	const struct jdoc *d = s->d;
	struct run *r = s->r;
	const char *name = jv_str(d, jv_get(d, span, "name"));
	jv out = jv_get(d, span, "output");
	if (!name || !name[0]) {
		run_add_note_msg(r, MSG_IN_OUTPUT, span, "a tool span with no name (not read by shape)");
		return;
	}
	for (size_t i = 0; i < r->ncalls; i++) {
		if (strcmp(r->calls[i].name, name) == 0 && claim_call(s, i)) {
			if (out != JV_NONE && !jv_is_null(d, out))
				shape_add_result(s, span, r->calls[i].id, r->calls[i].id ? NULL : name, out);
			return;
		}
	}
	jv in = jv_get(d, span, "input");
	if (in == JV_NONE || jv_is_null(d, in)) {
		run_add_note_msg(r, MSG_IN_OUTPUT, span, "a tool span of %s with no input and no call "
		                 "it answers (not read by shape)", name);
		return;
	}
	jv g = shape_graft(s, in);
	if (shape_add_call(s, SHAPE_ANY_MSG, span, name, g != JV_NONE ? g : in, NULL)) {
		claim_call(s, r->ncalls - 1);     /* its own span answers it, no later one */
		s->span_calls++;
		if (out != JV_NONE && !jv_is_null(d, out))
			shape_add_result(s, span, NULL, name, out);
	}
}

void shape_read_spans(struct shape *s, jv arr)
{
	const struct jdoc *d = s->d;
	size_t n = jv_len(d, arr), k = 0;
	struct span_item *items = xcalloc(n ? n : 1, sizeof(*items));
	JV_EACH(d, arr, e) {
		items[k] = (struct span_item){ .v = e, .order = k };
		span_start(d, &items[k]);
		if (!items[k].start && k) {
			items[k].start = items[k - 1].start;
			items[k].numeric = items[k - 1].numeric;
			items[k].start_num = items[k - 1].start_num;
		} else if (!items[k].start) {
			items[k].start = "";
		}
		k++;
	}
	qsort(items, k, sizeof(*items), span_cmp);
	jv outer = s->list;
	s->list = JV_NONE;          /* spans repeat their children's calls */
	for (size_t i = 0; i < k; i++) {
		jv e = items[i].v;
		const char *kind = jv_is_object(d, e) ? shape_span_kind(d, e) : NULL;
		if (!kind) {
			shape_walk(s, e);
		} else if (!strcmp(kind, "tool")) {
			read_tool_span(s, e);
		} else {
			/* a JSON text held in either is read as JSON by the walk */
			shape_walk(s, jv_get(d, e, "input"));
			shape_walk(s, jv_get(d, e, "output"));
		}
	}
	s->list = outer;
	free(items);
}
