/* propose_join.c - ground truth in another input: an input no format reads
 * whose records join the runs, found by matching values (a field of the
 * runs and a field of the other file, their names free), and the path the
 * YAML gives it from its own folder. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "propose_int.h"
#include "util/confine.h"
#include "util/hash.h"
#include "util/xalloc.h"

#define JOIN_TOP 64             /* pairs whose distinct matches are counted */

/* A value of the ground-truth file and the fields holding it. */
struct vnode {
	const char *val;
	size_t *fields;
	size_t nfields;
};

/* A path of the runs against a field of the other file. */
struct pair {
	const char *run_path;
	size_t exp_field;
	size_t matched, distinct;
	bool run_numbers;           /* the runs' field held numbers only */
};

static bool vnode_is(const void *item, const void *key)
{
	return strcmp(((const struct vnode *)item)->val, key) == 0;
}

static bool key_field(const struct prop_field *f)
{
	return f->vals && !f->nbool && !f->nlist && !f->nobj && f->nnum + f->nstr > 0;
}

static void index_values(const struct prop_input *t, struct htab *ix)
{
	for (size_t k = 0; k < t->nfields; k++) {
		const struct prop_field *f = &t->fields[k];
		if (!key_field(f))
			continue;
		for (size_t r = 0; r < t->nrecs; r++) {
			const char *v = f->vals[r];
			if (!v)
				continue;
			void **slot = htab_put(ix, hash_fnv1a(v, strlen(v), 0), vnode_is, v);
			struct vnode *n = *slot;
			if (!n) {
				n = xcalloc(1, sizeof *n);
				n->val = v;
				*slot = n;
			}
			if (n->nfields && n->fields[n->nfields - 1] == k)
				continue;
			n->fields = xrealloc(n->fields, (n->nfields + 1) * sizeof *n->fields);
			n->fields[n->nfields++] = k;
		}
	}
}

static void free_index(struct htab *ix)
{
	for (size_t i = 0; i < ix->nslots; i++) {
		struct vnode *n = ix->slots[i].item;
		if (n) {
			free(n->fields);
			free(n);
		}
	}
	htab_free(ix);
}

struct pairs {
	struct pair **v;
	size_t n;
	struct htab ix;
};

struct pair_key {
	const char *run_path;
	size_t k;
};

static bool pair_is(const void *item, const void *key)
{
	const struct pair *p = item;
	const struct pair_key *q = key;
	return p->exp_field == q->k && !strcmp(p->run_path, q->run_path);
}

static struct pair *pair_of(struct pairs *ps, const char *run_path, size_t k)
{
	struct pair_key q = { run_path, k };
	uint64_t h = hash_fnv1a(&k, sizeof k, hash_fnv1a(run_path, strlen(run_path), 0));
	void **slot = htab_put(&ps->ix, h, pair_is, &q);
	if (!*slot) {
		struct pair *p = xcalloc(1, sizeof *p);
		*p = (struct pair){ .run_path = run_path, .exp_field = k };
		ps->v = xrealloc(ps->v, (ps->n + 1) * sizeof *ps->v);
		ps->v[ps->n++] = p;
		*slot = p;
	}
	return *slot;
}

/* Counts, for every run field and field of t, the runs whose value t holds there. */
static void count_matches(const struct prop_ctx *x, const struct htab *ix, struct pairs *ps)
{
	for (size_t i = 0; i < x->nin; i++) {
		const struct prop_input *in = &x->in[i];
		for (size_t k = 0; in->nruns && k < in->nfields; k++) {
			const struct prop_field *f = &in->fields[k];
			for (size_t r = 0; key_field(f) && r < in->nrecs; r++) {
				const char *val = f->vals[r];
				const struct vnode *n = val && in->ids[r]
				        ? htab_get(ix, hash_fnv1a(val, strlen(val), 0), vnode_is, val) : NULL;
				for (size_t e = 0; n && e < n->nfields; e++) {
					struct pair *p = pair_of(ps, f->path, n->fields[e]);
					p->matched++;
					p->run_numbers = p->run_numbers || !f->nstr;
				}
			}
		}
	}
}

static bool str_is(const void *item, const void *key)
{
	return strcmp(item, key) == 0;
}

/* The distinct values of t's field the pair's runs reach. */
static size_t distinct(const struct prop_ctx *x, const struct prop_input *t, const struct pair *p)
{
	struct htab seen = HTAB_INIT, mine = HTAB_INIT;
	const struct prop_field *g = &t->fields[p->exp_field];
	for (size_t r = 0; r < t->nrecs; r++)
		if (g->vals[r]) {
			void **s = htab_put(&mine, hash_fnv1a(g->vals[r], strlen(g->vals[r]), 0), str_is, g->vals[r]);
			*s = g->vals[r];
		}
	size_t n = 0;
	for (size_t i = 0; i < x->nin; i++) {
		const struct prop_field *f = x->in[i].nruns ? prop_field_find(&x->in[i], p->run_path) : NULL;
		for (size_t r = 0; f && f->vals && r < x->in[i].nrecs; r++) {
			const char *v = f->vals[r];
			uint64_t h = v ? hash_fnv1a(v, strlen(v), 0) : 0;
			if (!v || !x->in[i].ids[r] || !htab_get(&mine, h, str_is, v))
				continue;
			void **s = htab_put(&seen, h, str_is, v);
			n += *s == NULL;
			*s = (void *)v;
		}
	}
	htab_free(&seen);
	htab_free(&mine);
	return n;
}

/* Which pair is the better join: more expectations reached, more runs,
 * the same key name, the shorter path. */
static bool better(const struct prop_input *t, const struct pair *a, const struct pair *b)
{
	if (!b)
		return true;
	if (a->distinct != b->distinct)
		return a->distinct > b->distinct;
	if (a->matched != b->matched)
		return a->matched > b->matched;
	const char *ea = t->fields[a->exp_field].path, *eb = t->fields[b->exp_field].path;
	bool sa = !strcmp(prop_last_key(ea), prop_last_key(a->run_path));
	bool sb = !strcmp(prop_last_key(eb), prop_last_key(b->run_path));
	if (sa != sb)
		return sa;
	return strlen(a->run_path) + strlen(ea) < strlen(b->run_path) + strlen(eb);
}

static bool id_like(const char *k)
{
	size_t n = strlen(k);
	return (n >= 2 && !strcasecmp(k + n - 2, "id")) || (n >= 3 && !strcasecmp(k + n - 3, "key")) ||
	       strstr(k, "task") || strstr(k, "name") || strstr(k, "index");
}

/* Small numbers meet by chance (a trial 0 and a task 0): a join on numbers
 * needs names that say they are the same thing; one on texts does not. */
static bool names_fit(const struct prop_input *t, const struct pair *p)
{
	const struct prop_field *g = &t->fields[p->exp_field];
	if (g->nstr && !p->run_numbers)
		return true;
	const char *a = prop_last_key(p->run_path), *b = prop_last_key(g->path);
	return !strcmp(a, b) || (id_like(a) && id_like(b));
}

static int by_matched(const void *a, const void *b)
{
	const struct pair *x = *(const struct pair *const *)a, *y = *(const struct pair *const *)b;
	if (x->matched != y->matched)
		return x->matched > y->matched ? -1 : 1;
	int c = strcmp(x->run_path, y->run_path);
	return c ? c : x->exp_field < y->exp_field ? -1 : x->exp_field > y->exp_field;
}

/* The best join of t with the runs, or false. */
static bool best_join(const struct prop_ctx *x, const struct prop_input *t, struct pair *out)
{
	struct htab ix = HTAB_INIT;
	struct pairs ps = { NULL, 0, HTAB_INIT };
	index_values(t, &ix);
	count_matches(x, &ix, &ps);
	free_index(&ix);
	qsort(ps.v, ps.n, sizeof *ps.v, by_matched);
	struct pair *best = NULL;
	for (size_t i = 0, tried = 0; i < ps.n && tried < JOIN_TOP; i++) {
		if (!names_fit(t, ps.v[i]))
			continue;
		tried++;
		ps.v[i]->distinct = distinct(x, t, ps.v[i]);
		if (better(t, ps.v[i], best))
			best = ps.v[i];
	}
	/* One value shared by every run (a domain, a trial 0) is no join. */
	bool ok = best && (best->distinct >= 2 || t->nrecs == 1);
	if (ok)
		*out = *best;
	for (size_t i = 0; i < ps.n; i++)
		free(ps.v[i]);
	free(ps.v);
	htab_free(&ps.ix);
	return ok;
}

/* real (resolved) relative to the folder dir (resolved) through their
 * nearest common folder ("../truth/tasks.jsonl"), or NULL when that is
 * the root or a folder just under it (/tmp, /home): two places that meet
 * only there are no project moved as one, and a copy of the YAML a level
 * deeper would name a file that is not there. */
static char *relative_to(const char *dir, const char *real)
{
	/* real lies outside dir: they part at or after the '/' that ends their
	 * common folder, and each '/' of dir from there is a folder up. */
	size_t common = 0, depth = 0;
	for (size_t i = 0; dir[i] && dir[i] == real[i]; i++)
		if (dir[i] == '/')
			common = i;
	for (size_t i = 0; i < common; i++)
		depth += dir[i] == '/';
	if (depth < 2)
		return NULL;
	struct strbuf sb = STRBUF_INIT;
	for (const char *p = dir + common; *p; p++)
		if (*p == '/')
			strbuf_addstr(&sb, "../");
	strbuf_addstr(&sb, real + common + 1);
	return strbuf_detach(&sb);
}

/* The path the YAML names the file by: relative to its folder when inside;
 * outside it, relative through a common folder (so that the two folders
 * may move together), else absolute. */
static void place_file(struct prop_ctx *x, const struct prop_input *t)
{
	char *real = realpath(t->path, NULL);
	size_t n = x->out_dir ? strlen(x->out_dir) : 0;
	if (real && x->out_dir && path_under(real, x->out_dir) && strlen(real) > n) {
		x->join.file = xstrdup(real + n + (x->out_dir[n - 1] == '/' ? 0 : 1));
	} else {
		char *rel = real && x->out_dir ? relative_to(x->out_dir, real) : NULL;
		x->join.file = rel ? rel : xstrdup(real ? real : t->path);
		x->join.outside = true;
		x->join.allow_dir = xstrdup(real ? real : t->path);
	}
	free(real);
}

/* Whether expect_load reads the file as records: a JSON array, or JSONL
 * (a .json file of one pretty-printed object is neither). */
static bool expectations_shape(const char *path)
{
	static const char *const exts[] = { ".jsonl", ".ndjson", ".jsonlines", NULL };
	size_t n = strlen(path);
	for (size_t i = 0; exts[i]; i++)
		if (n >= strlen(exts[i]) && !strcmp(path + n - strlen(exts[i]), exts[i]))
			return true;
	FILE *f = fopen(path, "rb");
	int c = ' ';
	while (f && (c == ' ' || c == '\t' || c == '\n' || c == '\r'))
		c = fgetc(f);
	if (f)
		fclose(f);
	return c == '[';
}

void prop_find_join(struct prop_ctx *x)
{
	for (size_t i = 0; i < x->nin && x->nruns; i++) {
		struct prop_input *t = &x->in[i];
		struct stat st;
		struct pair p;
		if (t->nruns || !t->nunread || stat(t->path, &st) != 0 || !S_ISREG(st.st_mode) ||
		    !expectations_shape(t->path) || !best_join(x, t, &p))
			continue;
		if (x->join.truth && (x->join.distinct > p.distinct ||
		                      (x->join.distinct == p.distinct && x->join.matched >= p.matched))) {
			t->joins_too = true;    /* one expectations file: the one that joins best */
			continue;
		}
		if (x->join.truth) {
			x->join.truth->truth = false;
			x->join.truth->joins_too = true;
		}
		t->truth = true;
		free(x->join.run_path);
		free(x->join.exp_path);
		free(x->join.file);
		free(x->join.allow_dir);
		x->join = (struct prop_join){ .truth = t, .run_path = xstrdup(p.run_path),
		                              .exp_path = xstrdup(t->fields[p.exp_field].path),
		                              .matched = p.matched, .distinct = p.distinct };
		place_file(x, t);
	}
}
