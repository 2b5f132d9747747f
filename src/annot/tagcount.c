/* tagcount.c - each tag and free code with the runs and calls it counts, by reviewer.
 *
 * Counted from the standing tag decisions each time it is asked: a pane
 * or a command asks once per change, and the tags of a review are few
 * against its runs, so a sort per row costs nothing worth keeping. */
#include <stdlib.h>
#include <string.h>

#include "annot/tagcount.h"
#include "util/xalloc.h"

struct hit {
	const char *run;
	long call;
	const char *code;
	const char *name;           /* what the code counts under */
	const char *reviewer;
};

struct gather {
	const struct vocab *vo;
	const struct annot_store *s;
	struct hit *h;
	size_t n, cap;
};

static void gather_tag(void *ctx, const struct decision *d)
{
	struct gather *g = ctx;
	if (d->kind != DEC_TAG || !d->tag || !d->run)
		return;
	if (g->n == g->cap) {
		g->cap = g->cap ? g->cap * 2 : 64;
		g->h = xrealloc(g->h, g->cap * sizeof *g->h);
	}
	/* a code is named by its first spelling: an alias of "lookup err"
	 * holds for "Lookup  Err" too */
	const char *code = d->tag;
	for (size_t i = 0; i < g->n; i++)
		if (vocab_code_eq(g->h[i].code, code)) {
			code = g->h[i].code;
			break;
		}
	g->h[g->n++] = (struct hit){
		.run = d->run, .call = d->call, .code = code,
		.name = vocab_tag_name(g->vo, g->s, code),
		.reviewer = d->reviewer ? d->reviewer : "",
	};
}

static int cmp_run_call(const void *a, const void *b)
{
	const struct hit *x = *(const struct hit *const *)a, *y = *(const struct hit *const *)b;
	int c = strcmp(x->run, y->run);
	return c ? c : (x->call > y->call) - (x->call < y->call);
}

/* Distinct runs, and distinct (run, call) with a call, among hs. */
static void count_distinct(const struct hit **hs, size_t n, size_t *runs, size_t *calls)
{
	if (n > 1)
		qsort(hs, n, sizeof *hs, cmp_run_call);
	*runs = *calls = 0;
	for (size_t i = 0; i < n; i++) {
		bool new_run = i == 0 || strcmp(hs[i]->run, hs[i - 1]->run) != 0;
		*runs += new_run;
		if (hs[i]->call > 0 && (new_run || hs[i]->call != hs[i - 1]->call))
			(*calls)++;
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The row's counts by reviewer: hs holds the row's hits. */
static void count_by(struct tag_row *row, const struct hit **hs, size_t n)
{
	const char **names = xcalloc(n + 1, sizeof *names);
	for (size_t i = 0; i < n; i++)
		names[i] = hs[i]->reviewer;
	if (n > 1)
		qsort(names, n, sizeof *names, cmp_str);
	const struct hit **mine = xcalloc(n + 1, sizeof *mine);
	row->by = xcalloc(n + 1, sizeof *row->by);
	for (size_t i = 0; i < n; i++) {
		if (i && !strcmp(names[i], names[i - 1]))
			continue;
		size_t m = 0;
		for (size_t k = 0; k < n; k++)
			if (!strcmp(hs[k]->reviewer, names[i]))
				mine[m++] = hs[k];
		struct tag_by *b = &row->by[row->nby++];
		b->reviewer = names[i];
		count_distinct(mine, m, &b->runs, &b->calls);
	}
	free(mine);
	free(names);
}

static void count_row(struct tag_row *row, const struct gather *g, const struct hit **tmp)
{
	size_t n = 0;
	for (size_t i = 0; i < g->n; i++)
		if (vocab_code_eq(g->h[i].name, row->name) || vocab_code_eq(g->h[i].code, row->name))
			tmp[n++] = &g->h[i];
	count_by(row, tmp, n);
	count_distinct(tmp, n, &row->runs, &row->calls);
}

static struct tag_row *add_row(struct tag_table *tt, size_t *cap, const char *name)
{
	if (tt->n == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		tt->rows = xrealloc(tt->rows, *cap * sizeof *tt->rows);
	}
	struct tag_row *r = &tt->rows[tt->n++];
	memset(r, 0, sizeof *r);
	r->name = name;
	return r;
}

void tag_table_build(struct tag_table *tt, const struct vocab *vo, const struct annot_store *s)
{
	memset(tt, 0, sizeof *tt);
	struct gather g = { .vo = vo, .s = s };
	if (s)
		annot_each_standing(s, gather_tag, &g);
	size_t cap = 0;
	for (size_t i = 0; i < vo->ntags; i++)
		add_row(tt, &cap, vo->tags[i].id)->def = &vo->tags[i];
	/* the codes as typed, then the names aliases lead them to */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < g.n; i++) {
			const char *name = pass ? g.h[i].name : g.h[i].code;
			if (!tag_table_find(tt, name))
				add_row(tt, &cap, name);
		}
	const struct hit **tmp = xcalloc(g.n + 1, sizeof *tmp);
	for (size_t i = 0; i < tt->n; i++) {
		struct tag_row *r = &tt->rows[i];
		if (!r->def) {
			const char *name = vocab_tag_name(vo, s, r->name);
			r->under = vocab_code_eq(name, r->name) ? NULL : name;
		}
		count_row(r, &g, tmp);
	}
	free(tmp);
	free(g.h);
}

void tag_table_free(struct tag_table *tt)
{
	for (size_t i = 0; i < tt->n; i++)
		free(tt->rows[i].by);
	free(tt->rows);
	memset(tt, 0, sizeof *tt);
}

const struct tag_row *tag_table_find(const struct tag_table *tt, const char *name)
{
	for (size_t i = 0; name && i < tt->n; i++)
		if (vocab_code_eq(tt->rows[i].name, name))
			return &tt->rows[i];
	return NULL;
}
