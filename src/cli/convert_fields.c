/* convert_fields.c - which values of a record `tcreview convert` keeps in
 * a line's "fields": those at the paths the configuration reads (run ids,
 * the expectations join, {from:} references, record-field's path) and the
 * recorded verdicts init would propose (a reward, a score...), so that
 * the conversion is named, joined and scored as its source. */
#include <stdlib.h>
#include <string.h>

#include "cli/convert.h"
#include "config/propose.h"
#include "runs/runs_conf.h"
#include "util/jsonpath.h"
#include "util/xalloc.h"

/* Objects are walked this deep for verdicts, as init walks them. */
#define CONVERT_DEPTH 4
/* Verdicts kept a run at most: a record of thousands of "score" keys is
 * not a record of verdicts. */
#define CONVERT_VERDICTS_MAX 64

static void add_path(struct convert_paths *p, const char *path)
{
	for (size_t i = 0; i < p->n; i++)
		if (!strcmp(p->paths[i], path))
			return;
	p->paths = xrealloc(p->paths, (p->n + 1) * sizeof *p->paths);
	p->paths[p->n++] = xstrdup(path);
}

void convert_paths_of(const struct config *c, struct convert_paths *p)
{
	memset(p, 0, sizeof *p);
	if (c->run_id_path) {
		char path[RUN_ID_PATH_MAX];
		for (size_t i = 0; run_id_spec_part(c->run_id_path, i, path, sizeof path); i++)
			add_path(p, path);
	}
	if (c->has_expect)
		for (size_t i = 0; i < c->expect.nkeys; i++)
			add_path(p, c->expect.run_keys[i]);
	for (size_t s = 0; s < c->nscorers; s++) {
		const struct scorer_conf *sc = &c->scorers[s];
		for (size_t i = 0; i < sc->nparams; i++) {
			const struct param *pa = &sc->params[i];
			if (pa->from && !pa->from_expected)
				add_path(p, pa->from_path);
			if (!strcmp(sc->ops->type, "record-field") && !strcmp(pa->name, "path") &&
			    json_is_string(pa->literal))
				add_path(p, json_string_value(pa->literal));
		}
	}
}

void convert_paths_free(struct convert_paths *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->paths[i]);
	free(p->paths);
	memset(p, 0, sizeof *p);
}

/* ---- one run --------------------------------------------------------------- */

static void keep(struct convert_fields *f, struct run *r, const char *path, jv v)
{
	if (f->n == f->cap) {
		f->cap = f->cap ? f->cap * 2 : 8;
		f->list = xrealloc(f->list, f->cap * sizeof *f->list);
	}
	f->list[f->n++] = (struct run_format_field){ run_strdup(r, path), v };
}

static void walk_verdicts(struct convert_fields *f, struct run *r, jv obj, struct strbuf *path,
                          int depth, size_t *found)
{
	const struct jdoc *d = r->doc;
	JV_EACH_KEY(d, obj, k) {
		const char *key = jv_str(d, k);
		size_t n = jv_strlen(d, k), at = path->len;
		jv v = jv_value(k);
		if (strlen(key) != n || *found >= CONVERT_VERDICTS_MAX)
			continue;           /* a key holding NUL names no path */
		jsonpath_add_key(path, key, n);
		enum jv_type t = jv_type(d, v);
		if (t == JV_OBJECT && depth + 1 < CONVERT_DEPTH)
			walk_verdicts(f, r, v, path, depth + 1, found);
		else if (t != JV_OBJECT && t != JV_ARRAY && t != JV_NULL &&
		         propose_verdict_path(path->buf)) {
			keep(f, r, path->buf, v);
			(*found)++;
		}
		path->len = at;
		path->buf[at] = '\0';
	}
}

void convert_fields_of(const struct convert_paths *p, struct run *r, struct convert_fields *f)
{
	f->n = 0;
	for (size_t i = 0; i < p->n; i++) {
		jv v = run_value(r, p->paths[i]);
		if (v != JV_NONE)
			keep(f, r, p->paths[i], v);
	}
	const struct jdoc *d = r->doc;
	/* A converted run's fields are kept whole: its record is no longer
	 * the one they were read from. */
	if (r->fields != JV_NONE) {
		JV_EACH_KEY(d, r->fields, k)
			if (strlen(jv_str(d, k)) == jv_strlen(d, k))
				keep(f, r, jv_str(d, k), jv_value(k));
		return;
	}
	if (!jv_is_object(d, run_root(r)))
		return;
	struct strbuf path = STRBUF_INIT;
	strbuf_grow(&path, 64);
	path.buf[0] = '\0';
	size_t found = 0;
	walk_verdicts(f, r, run_root(r), &path, 0, &found);
	strbuf_release(&path);
}

void convert_fields_free(struct convert_fields *f)
{
	free(f->list);
	memset(f, 0, sizeof *f);
}
