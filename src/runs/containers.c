/* containers.c - how a file becomes records when a format reads it whole
 * or cuts it into runs (runs/format.h: UNIT_FILE, split), and the usual
 * rule for a .json document: one run, or an array of runs. */
#include <stdlib.h>
#include <string.h>

#include "dataset_int.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* A JSON file holds one run, or an array of runs. A bare array of chat
 * messages or Responses items is one run too: its elements are messages,
 * not runs. */
static bool array_is_one_run(const struct jdoc *d, jv arr)
{
	jv first = jv_first(d, arr);
	if (!jv_is_object(d, first))
		return false;
	static const char *const run_keys[] = {
		"messages", "traj", "inputMessages", "output", "query", "input", NULL
	};
	for (size_t i = 0; run_keys[i]; i++)
		if (jv_get(d, first, run_keys[i]) != JV_NONE)
			return false;
	return jv_get(d, first, "role") != JV_NONE || jv_get(d, first, "type") != JV_NONE;
}

static uint32_t count_lines(const char *s, size_t n)
{
	uint32_t lines = 0;
	const char *end = s + n;
	while ((s = memchr(s, '\n', (size_t)(end - s)))) {
		lines++;
		s++;
	}
	return lines;
}

struct doc_group {
	size_t first, n;            /* vals[first .. first + n) */
};

struct doc_groups {
	struct doc_group *groups;
	size_t ngroups, groups_cap;
	jv *vals;
	size_t nvals, vals_cap;
};

void doc_group_begin(struct doc_groups *g)
{
	if (g->ngroups == g->groups_cap) {
		g->groups_cap = g->groups_cap ? g->groups_cap * 2 : 16;
		g->groups = xrealloc(g->groups, g->groups_cap * sizeof(*g->groups));
	}
	g->groups[g->ngroups++] = (struct doc_group){ g->nvals, 0 };
}

void doc_group_add(struct doc_groups *g, jv value)
{
	if (g->ngroups == 0 || value == JV_NONE)
		return;
	if (g->nvals == g->vals_cap) {
		g->vals_cap = g->vals_cap ? g->vals_cap * 2 : 64;
		g->vals = xrealloc(g->vals, g->vals_cap * sizeof(*g->vals));
	}
	g->vals[g->nvals++] = value;
	g->groups[g->ngroups - 1].n++;
}

static void doc_groups_free(struct doc_groups *g)
{
	free(g->groups);
	free(g->vals);
}

/* Where every line of s[0..n) starts, for the line of any offset. */
struct line_index {
	uint64_t *starts;
	size_t n;
};

static void line_index_build(struct line_index *li, const char *s, size_t n)
{
	size_t cap = 64;
	li->starts = xrealloc(NULL, cap * sizeof(*li->starts));
	li->starts[0] = 0;
	li->n = 1;
	for (const char *p = s, *end = s + n; (p = memchr(p, '\n', (size_t)(end - p))); p++) {
		if (li->n == cap) {
			cap *= 2;
			li->starts = xrealloc(li->starts, cap * sizeof(*li->starts));
		}
		li->starts[li->n++] = (uint64_t)(p - s) + 1;
	}
}

static uint32_t line_of(const struct line_index *li, uint64_t off)
{
	size_t lo = 0, hi = li->n;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (li->starts[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	return (uint32_t)lo + 1;
}

/* The runs a splitting format cut the document into. Runs of one value are
 * that value's bytes in the file; when any run gathers several, every run
 * is written into a new text (a run of several as the JSON array of them),
 * which becomes the file's bytes, and each record keeps the line where
 * its first value stood. */
static void list_groups(struct dataset *ds, struct input_file *f, size_t fi, const struct jdoc *d,
                        const struct doc_groups *g)
{
	struct line_index li;
	line_index_build(&li, f->data, f->size);
	bool gathered = false;
	for (size_t k = 0; k < g->ngroups; k++)
		if (g->groups[k].n != 1)
			gathered = true;
	f->doc_recs = xcalloc(g->ngroups ? g->ngroups : 1, sizeof(*f->doc_recs));
	struct strbuf text = STRBUF_INIT;
	size_t nrec = 0;
	for (size_t k = 0; k < g->ngroups; k++) {
		const struct doc_group *gr = &g->groups[k];
		if (!gathered && gr->n == 0)
			continue;
		jv first = gr->n ? g->vals[gr->first] : JV_NONE;
		const struct jdoc_node *fn = first != JV_NONE ? &d->nodes[first] : NULL;
		struct record_ref rec = {
			.file = (uint32_t)fi, .line = fn ? line_of(&li, fn->src) : 1,
			.index = first == jdoc_root(d) && g->ngroups == 1 ? -1 : (int64_t)nrec,
		};
		if (!gathered) {
			rec.off = fn->src;
			rec.len = fn->src_len;
		} else {
			rec.off = text.len;
			if (gr->n != 1)
				strbuf_addch(&text, '[');
			for (size_t i = 0; i < gr->n; i++) {
				const struct jdoc_node *node = &d->nodes[g->vals[gr->first + i]];
				if (i)
					strbuf_addch(&text, ',');
				strbuf_add(&text, f->data + node->src, node->src_len);
			}
			if (gr->n != 1)
				strbuf_addch(&text, ']');
			rec.len = text.len - rec.off;
			strbuf_addch(&text, '\n');
		}
		f->doc_recs[nrec++] = rec;
	}
	f->ndoc_recs = nrec;
	free(li.starts);
	if (gathered) {
		strbuf_grow(&text, JDOC_PADDING + 1);
		memset(text.buf + text.len, 0, JDOC_PADDING + 1);
		ds->bytes_total = ds->bytes_total - f->size + text.len;
		dataset_release_data(f);
		f->size = text.len;
		f->map_len = text.len + JDOC_PADDING;
		f->data = strbuf_detach(&text);
	}
}

/* The records of a document no container format cut: one run, or an
 * array of runs. */
static void list_elements(struct input_file *f, size_t fi, const struct jdoc *d, bool whole)
{
	jv root = jdoc_root(d);
	bool many = !whole && jv_is_array(d, root) && !array_is_one_run(d, root);
	size_t n = many ? jv_len(d, root) : 1;
	f->doc_recs = xcalloc(n ? n : 1, sizeof(*f->doc_recs));
	uint32_t line = 1;
	size_t counted = 0;
	size_t k = 0;
	for (jv e = many ? jv_first(d, root) : root; e != JV_NONE;
	     e = many ? jv_next(d, root, e) : JV_NONE) {
		const struct jdoc_node *node = &d->nodes[e];
		line += count_lines(f->data + counted, node->src - counted);
		counted = node->src;
		f->doc_recs[k] = (struct record_ref){
			.file = (uint32_t)fi, .line = line, .index = many ? (int64_t)k : -1,
			.off = node->src, .len = node->src_len,
		};
		k++;
	}
	f->ndoc_recs = k;
}

/* Lists the records of document d of file fi. Which format the whole
 * document is: the one the file's lines were read for, else --format,
 * else whichever detects it. Only a format that cuts documents or reads
 * whole files keeps the file. */
void container_list(struct dataset *ds, size_t fi, const struct jdoc *d)
{
	struct input_file *f = &ds->files[fi];
	const struct format_ops *fmt = f->container;
	if (!fmt)
		fmt = ds->forced && ds->forced->unit != UNIT_AS_DETECTED ? ds->forced
		                                                        : format_detect(d, jdoc_root(d));
	if (fmt && (fmt->split || fmt->unit == UNIT_FILE))
		f->container = fmt;
	else
		fmt = NULL;
	if (fmt && fmt->split) {
		struct doc_groups g = { 0 };
		fmt->split(d, jdoc_root(d), &g);
		list_groups(ds, f, fi, d, &g);
		doc_groups_free(&g);
	} else {
		list_elements(f, fi, d, fmt != NULL);
	}
}

/* ---- JSONL files that are the events of one run ------------------------ */

/* How many of a JSONL file's first non-blank lines are asked about. */
#define SNIFF_LINES 16

/* The format that reads this JSONL file whole, or NULL when its lines are
 * runs: --format when it is such a format, else the format of the first
 * of its first lines that any format detects. */
static const struct format_ops *events_format(struct dataset *ds, size_t fi)
{
	const struct input_file *f = &ds->files[fi];
	if (ds->forced && ds->forced->unit != UNIT_AS_DETECTED)
		return ds->forced->unit == UNIT_FILE ? ds->forced : NULL;
	uint64_t off = 0;
	uint32_t line = 0;
	struct record_ref rec;
	for (int k = 0; k < SNIFF_LINES && dataset_next_line(f, &off, &line, &rec); k++) {
		struct jdoc_error jerr;
		struct jdoc *d = jdoc_parse(f->data + rec.off, (size_t)rec.len, readable_from(f, rec.off),
		                            &jerr);
		if (!d)
			continue;
		const struct format_ops *fmt = jv_is_object(d, jdoc_root(d)) ? format_detect(d, jdoc_root(d))
		                                                            : NULL;
		/* A large line that is a run is loaded next: its parse is kept. */
		if (fmt && fmt->unit != UNIT_FILE && rec.len >= KEEP_DOC_MIN)
			dataset_keep_doc(ds, (uint32_t)fi, rec.off, d);
		else
			jdoc_free(d);
		if (fmt)
			return fmt->unit == UNIT_FILE ? fmt : NULL;
	}
	return NULL;
}

/* Writes the file's lines as one JSON array, each element starting on the
 * line it came from; lines that are not JSON become null when `check`. */
static void events_text(const struct input_file *f, bool check, struct strbuf *out)
{
	strbuf_reset(out);
	strbuf_addch(out, '[');
	uint64_t off = 0;
	uint32_t line = 0, at = 1;         /* at: the line of out being written */
	struct record_ref rec;
	for (bool first = true; dataset_next_line(f, &off, &line, &rec); first = false) {
		for (; at < rec.line; at++)
			strbuf_addch(out, '\n');
		if (!first)
			strbuf_addch(out, ',');
		const char *text = f->data + rec.off;
		bool ok = true;
		if (check) {
			struct jdoc_error jerr;
			struct jdoc *one = jdoc_parse(text, (size_t)rec.len, readable_from(f, rec.off), &jerr);
			ok = one != NULL;
			jdoc_free(one);
		}
		if (ok)
			strbuf_add(out, text, (size_t)rec.len);
		else
			strbuf_addstr(out, "null");
	}
	strbuf_addstr(out, "\n]");
}

/* A JSONL file a UNIT_FILE format claims becomes the document of its
 * lines: tried whole first, and line by line only when some line is not
 * JSON (a session cut off mid-line while it was being written). */
void dataset_sniff_events(struct dataset *ds, size_t fi)
{
	struct input_file *f = &ds->files[fi];
	if (f->kind != INPUT_JSONL || f->sniffed)
		return;
	f->sniffed = true;
	xalloc_input(f->path, 0, "reading the file");
	const struct format_ops *fmt = events_format(ds, fi);
	if (!fmt)
		return;
	struct strbuf text = STRBUF_INIT;
	events_text(f, false, &text);
	strbuf_grow(&text, JDOC_PADDING + 1);
	memset(text.buf + text.len, 0, JDOC_PADDING + 1);
	struct jdoc_error jerr;
	struct jdoc *whole = jdoc_parse(text.buf, text.len, text.len + JDOC_PADDING, &jerr);
	if (!whole) {
		events_text(f, true, &text);
		strbuf_grow(&text, JDOC_PADDING + 1);
		memset(text.buf + text.len, 0, JDOC_PADDING + 1);
	}
	jdoc_free(whole);
	ds->bytes_total = ds->bytes_total - f->size + text.len;
	dataset_release_data(f);
	f->size = text.len;
	f->map_len = text.len + JDOC_PADDING;
	f->data = strbuf_detach(&text);
	f->kind = INPUT_JSON;
	f->container = fmt;
}
