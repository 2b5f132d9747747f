/* runsearch.c - a search's matches inside one run, by the timeline entry that shows them.
 *
 * The run's own text is searched (messages, thinking, call names, the
 * strings and keys of arguments and results as decoded values), never the
 * drawn lines: a long text is drawn lazily and never held as lines, and a
 * folded call's arguments are not drawn at all. The walk follows
 * tui/timeline_parts.c's order of entries, so the n-th match of an entry
 * is the n-th the screen shows in it. */
#include "review/runsearch.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "runs/run.h"
#include "util/xalloc.h"

static unsigned char lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

const char *run_search_in(const char *h, size_t n, const char *q, size_t len)
{
	if (!len || n < len)
		return NULL;
	unsigned char lo = lower((unsigned char)q[0]);
	unsigned char up = lo >= 'a' && lo <= 'z' ? (unsigned char)(lo - 32) : lo;
	for (size_t i = 0; i + len <= n; i++) {
		unsigned char c = (unsigned char)h[i];
		if (c != lo && c != up)
			continue;
		size_t k = 1;
		while (k < len && lower((unsigned char)h[i + k]) == lower((unsigned char)q[k]))
			k++;
		if (k == len)
			return h + i;
	}
	return NULL;
}

/* The walk's place: the entry it is in and how many matches that has. */
struct walk {
	struct run_hits *out;
	const char *q;
	size_t qlen;
	struct run_hit at;      /* the entry; nth counts its matches */
};

static void walk_entry(struct walk *w, long msg, long call, long part, size_t group)
{
	w->at = (struct run_hit){ .msg = msg, .call = call, .part = part, .group = group };
}

/* Matches do not overlap, as the screen's highlight counts them. */
static void walk_text(struct walk *w, const char *s, size_t n, bool shown_as_is)
{
	const char *p = s, *end = s + n;
	while (s && (p = run_search_in(p, (size_t)(end - p), w->q, w->qlen)) != NULL) {
		struct run_hits *h = w->out;
		if (h->n == h->cap) {
			h->cap = h->cap ? 2 * h->cap : 16;
			h->v = xrealloc(h->v, h->cap * sizeof *h->v);
		}
		struct run_hit *hit = &h->v[h->n++];
		*hit = w->at;
		hit->text = shown_as_is ? s : NULL;
		hit->off = (size_t)(p - s);
		w->at.nth++;
		p += w->qlen;
	}
}

static void walk_str(struct walk *w, const char *s, bool shown_as_is)
{
	if (s)
		walk_text(w, s, strlen(s), shown_as_is);
}

/* A value as it is shown: keys and strings decoded, in their order. */
static void walk_json(struct walk *w, const json_t *v)
{
	if (json_is_string(v)) {
		walk_text(w, json_string_value(v), json_string_length(v), false);
	} else if (json_is_object(v)) {
		const char *k;
		json_t *x;
		json_object_foreach((json_t *)v, k, x) {
			walk_str(w, k, false);
			walk_json(w, x);
		}
	} else if (json_is_array(v)) {
		size_t i;
		json_t *x;
		json_array_foreach(v, i, x)
			walk_json(w, x);
	} else if (v) {
		char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
		walk_str(w, s, false);
		free(s);
	}
}

/* A result or error value: a string as it is, borrowed from the run. */
static void walk_value(struct walk *w, struct run *r, jv v, json_t *tree)
{
	if (jv_is_string(r->doc, v))
		walk_str(w, jv_str(r->doc, v), true);
	else
		walk_json(w, tree);
}

static void walk_call(struct walk *w, struct run *r, size_t ci)
{
	struct run_call *c = &r->calls[ci];
	walk_entry(w, (long)c->msg_index, (long)ci, -1, 0);
	walk_str(w, c->name, false);
	if (run_call_args_invalid(r, c))
		walk_str(w, run_call_args_text(r, c), true);
	else
		walk_json(w, run_call_args(r, c));
	if (c->is_error && c->error_text)
		walk_str(w, c->error_text, true);
	else if ((c->is_error || c->has_result) && c->result != JV_NONE)
		walk_value(w, r, c->result, jv_is_string(r->doc, c->result) ? NULL : run_call_result(r, c));
}

/* A message's entries as tl_add_run makes them: the role line's (text
 * before any call or thinking goes under it), one per call, one per
 * thinking part, and one for each text after those. A note that is a
 * message of its own has no role line. */
static void walk_message(struct walk *w, struct run *r, size_t mi)
{
	struct run_msg *m = &r->msgs[mi];
	if (m->is_tool_output) {
		if (!m->unmatched_result)
			return;
		walk_entry(w, (long)mi, -1, -1, 0);
		if (m->text && m->text[0])
			walk_str(w, m->text, true);
		else if (m->result != JV_NONE)
			walk_value(w, r, m->result, jv_is_string(r->doc, m->result) ? NULL : run_msg_result(r, m));
		return;
	}
	if (m->nparts == 0) {
		walk_entry(w, (long)mi, -1, -1, 0);
		walk_str(w, m->text, true);
		for (size_t k = 0; k < m->ncalls; k++)
			walk_call(w, r, m->first_call + k);
		return;
	}
	long group = m->role == ROLE_NOTE ? -1 : 0;
	bool in_text = m->role != ROLE_NOTE;
	if (in_text)
		walk_entry(w, (long)mi, -1, -1, 0);
	for (size_t k = 0; k < m->nparts; k++) {
		size_t pi = m->first_part + k;
		const struct run_part *p = &r->parts[pi];
		if (p->kind == PART_CALL) {
			walk_call(w, r, p->call);
			in_text = false;
		} else if (p->kind == PART_THINKING) {
			walk_entry(w, (long)mi, -1, (long)pi, 0);
			walk_str(w, p->text, true);
			in_text = false;
		} else {
			if (!in_text)
				walk_entry(w, (long)mi, -1, -1, (size_t)++group);
			in_text = true;
			walk_str(w, p->text, true);
		}
	}
}

void run_search(struct run *r, const char *query, struct run_hits *out)
{
	out->n = 0;
	if (!r || !query || !query[0])
		return;
	struct walk w = { .out = out, .q = query, .qlen = strlen(query) };
	walk_entry(&w, -1, -1, -1, 0);
	for (size_t mi = 0; mi < r->nmsgs; mi++)
		walk_message(&w, r, mi);
}

void run_hits_free(struct run_hits *h)
{
	free(h->v);
	h->v = NULL;
	h->n = h->cap = 0;
}
