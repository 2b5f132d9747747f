/* read.c - typed readers over positioned nodes, errors as FILE:LINE:COLUMN.
 *
 * Only the first error is kept: later ones are usually consequences. */
#include "conf/conf.h"
#include "conf_private.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/confine.h"
#include "util/jsonpath.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/error.h"

/* ---- errors ------------------------------------------------------------ */

static void vfail_in(struct conf *cf, const char *file, int line, int col, const char *fmt,
                     va_list ap) __attribute__((format(printf, 5, 0)));

static void vfail_in(struct conf *cf, const char *file, int line, int col, const char *fmt,
                     va_list ap)
{
	if (cf->failed)
		return;
	cf->failed = true;
	if (!cf->err)
		return;
	error_vset(cf->err, ERR_FAILED, fmt, ap);
	error_prefix(cf->err, "%s:%d:%d: ", file, line, col);
}

int conf_fail_at(struct conf *cf, int line, int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfail_in(cf, cf->name, line, col, fmt, ap);
	va_end(ap);
	return -1;
}

int conf_fail(struct conf *cf, const struct conf_node *at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfail_in(cf, cf->name, at->line, at->col, fmt, ap);
	va_end(ap);
	return -1;
}

int conf_fail_in(struct conf *cf, const char *file, int line, int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfail_in(cf, file, line, col, fmt, ap);
	va_end(ap);
	return -1;
}

int conf_unknown_key(struct conf *cf, const struct conf_node *k, const char *known)
{
	return conf_fail(cf, k, "unknown key '%.*s' (expected one of: %s)", (int)k->len, k->text,
	                 known);
}

/* ---- looking at nodes -------------------------------------------------- */

bool conf_key_is(const struct conf_node *k, const char *s)
{
	size_t n = strlen(s);
	return k->kind == CONF_SCALAR && k->len == n && memcmp(k->text, s, n) == 0;
}

const struct conf_node *conf_get(const struct conf_node *m, const char *key)
{
	for (size_t i = 0; i + 1 < m->nkids; i += 2)
		if (conf_key_is(m->kids[i], key))
			return m->kids[i + 1];
	return NULL;
}

bool conf_is_null(const struct conf_node *n)
{
	json_t *v = NULL;
	if (n->kind != CONF_SCALAR || !n->typed)
		return false;
	bool null = conf_plain_type(n->text, n->len, &v) == 1 && json_is_null(v);
	json_decref(v);
	return null;
}

const char *conf_kind_name(const struct conf_node *n)
{
	return n->kind == CONF_SEQ ? "a list" : n->kind == CONF_MAP ? "a mapping" : "a string";
}

int conf_map(struct conf *cf, const struct conf_node *n, const char *what)
{
	if (n->kind != CONF_MAP)
		return conf_fail(cf, n, "'%s' must be a mapping, got %s", what,
		                 n->kind == CONF_SCALAR ? "a value" : conf_kind_name(n));
	return 0;
}

int conf_seq(struct conf *cf, const struct conf_node *n, const char *what, const char *items)
{
	if (n->kind != CONF_SEQ)
		return conf_fail(cf, n, "'%s' must be a list of %s, got %s", what, items,
		                 n->kind == CONF_SCALAR ? "a value" : conf_kind_name(n));
	return 0;
}

/* ---- typed readers ----------------------------------------------------- */

int conf_str(struct conf *cf, const struct conf_node *n, const char *what, char **out)
{
	*out = NULL;
	if (n->kind != CONF_SCALAR)
		return conf_fail(cf, n, "wrong type for '%s': expected a string, got %s", what,
		                 conf_kind_name(n));
	if (conf_is_null(n) || n->len == 0)
		return conf_fail(cf, n, "'%s' must not be empty", what);
	if (memchr(n->text, '\0', n->len))
		return conf_fail(cf, n, "'%s' must not contain NUL bytes", what);
	*out = xstrndup(n->text, n->len);
	return 0;
}

int conf_path(struct conf *cf, const struct conf_node *n, const char *what, char **out)
{
	const char *why;
	if (conf_str(cf, n, what, out))
		return -1;
	if (!jsonpath_valid(*out, &why)) {
		conf_fail(cf, n, "invalid path '%s' for '%s': %s", *out, what, why);
		free(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}

bool conf_is_id(const char *s)
{
	for (; *s; s++) {
		char c = *s;
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '.' || c == ':' || c == '-'))
			return false;
	}
	return true;
}

char *conf_join(const char *dir, const char *file)
{
	if (file[0] == '/' || !dir || !*dir || strcmp(dir, ".") == 0)
		return xstrdup(file);
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, dir);
	if (sb.buf[sb.len - 1] != '/')
		strbuf_addch(&sb, '/');
	strbuf_addstr(&sb, file);
	return strbuf_detach(&sb);
}

int conf_file(struct conf *cf, const struct conf_node *n, const char *what, char **out)
{
	char *file;
	*out = NULL;
	if (conf_str(cf, n, what, &file))
		return -1;
	*out = conf_join(cf->dir, file);
	if (cf->confined && path_place(*out, cf->dir, cf->allow, cf->nallow) == PATH_OUTSIDE) {
		conf_fail(cf, n, "%s '%s' resolves outside the configuration's folder "
		          "(use --allow-path PATH to allow it)", what, file);
		free(file);
		free(*out);
		*out = NULL;
		return -1;
	}
	free(file);
	return 0;
}

int conf_num(struct conf *cf, const struct conf_node *n, const char *what, double *out)
{
	json_t *j;
	if (n->kind != CONF_SCALAR)
		return conf_fail(cf, n, "wrong type for '%s': expected a number, got %s", what,
		                 conf_kind_name(n));
	if (conf_scalar_json(cf, n, &j))
		return -1;
	if (!json_is_number(j)) {
		conf_fail(cf, n, "wrong type for '%s': expected a number, got %s", what,
		          conf_json_kind_name(j));
		json_decref(j);
		return -1;
	}
	*out = json_number_value(j);
	json_decref(j);
	return 0;
}

int conf_int(struct conf *cf, const struct conf_node *n, const char *what, long lo, long hi,
             long *out)
{
	double d;
	if (conf_num(cf, n, what, &d))
		return -1;
	if (d != floor(d) || d < (double)lo || d > (double)hi)
		return conf_fail(cf, n, "'%s' must be a whole number from %ld to %ld", what, lo, hi);
	*out = (long)d;
	return 0;
}

int conf_bool(struct conf *cf, const struct conf_node *n, const char *what, bool *out)
{
	json_t *j;
	if (n->kind != CONF_SCALAR)
		return conf_fail(cf, n, "wrong type for '%s': expected a boolean, got %s", what,
		                 conf_kind_name(n));
	if (conf_scalar_json(cf, n, &j))
		return -1;
	if (!json_is_boolean(j)) {
		conf_fail(cf, n, "wrong type for '%s': expected a boolean, got %s", what,
		          conf_json_kind_name(j));
		json_decref(j);
		return -1;
	}
	*out = json_is_true(j);
	json_decref(j);
	return 0;
}

void conf_str_list_free(char **list, size_t n)
{
	for (size_t i = 0; list && i < n; i++)
		free(list[i]);
	free(list);
}

int conf_str_list(struct conf *cf, const struct conf_node *n, const char *what, char ***out,
                  size_t *nout)
{
	*out = NULL;
	*nout = 0;
	if (n->kind == CONF_MAP)
		return conf_fail(cf, n, "wrong type for '%s': expected a string or a list of strings, "
		                 "got a mapping", what);
	size_t count = n->kind == CONF_SCALAR ? 1 : n->nkids;
	char **list = xcalloc(count ? count : 1, sizeof *list);
	for (size_t i = 0; i < count; i++) {
		const struct conf_node *item = n->kind == CONF_SCALAR ? n : n->kids[i];
		if (conf_str(cf, item, what, &list[i])) {
			conf_str_list_free(list, i);
			return -1;
		}
	}
	*out = list;
	*nout = count;
	return 0;
}

/* ---- reading a mapping by declaration ---------------------------------- */

static void known_keys(struct strbuf *sb, const struct conf_table *t)
{
	if (t->known) {
		strbuf_addstr(sb, t->known);
		return;
	}
	for (const struct conf_key *k = t->keys; k->name; k++) {
		if (k != t->keys)
			strbuf_addstr(sb, ", ");
		strbuf_addstr(sb, k->name);
	}
}

static int unknown(struct conf *cf, const struct conf_table *t, const struct conf_node *k,
                   void *store)
{
	if (t->other) {
		int rc = t->other(cf, k, store);
		if (rc <= 0)
			return rc;
	}
	struct strbuf sb = STRBUF_INIT;
	known_keys(&sb, t);
	if (t->unknown_for)
		conf_fail(cf, k, "unknown key '%.*s' %s (known: %s)", (int)k->len, k->text,
		          t->unknown_for, sb.buf);
	else
		conf_unknown_key(cf, k, sb.buf);
	strbuf_release(&sb);
	return -1;
}

static int number_in_range(struct conf *cf, const struct conf_key *k, const struct conf_node *v,
                           double d)
{
	if (!(k->lo < k->hi) || (d >= k->lo && d <= k->hi))
		return 0;
	if (k->range_msg)
		return conf_fail(cf, v, "%s", k->range_msg);
	return conf_fail(cf, v, "'%s' must be from %g to %g", k->name, k->lo, k->hi);
}

static int read_key(struct conf *cf, const struct conf_key *k, const struct conf_node *v,
                    void *store)
{
	/* A table of nodes only (CONF_K_NODE) may be read without a store. */
	char *at = store ? (char *)store + k->offset : NULL;
	switch (k->kind) {
	case CONF_K_NODE:
		return 0;
	case CONF_K_STR:
		return conf_str(cf, v, k->name, (char **)(void *)at);
	case CONF_K_PATH:
		return conf_path(cf, v, k->name, (char **)(void *)at);
	case CONF_K_FILE:
		return conf_file(cf, v, k->name, (char **)(void *)at);
	case CONF_K_NUM: {
		double *d = (double *)(void *)at;
		return conf_num(cf, v, k->name, d) ? -1 : number_in_range(cf, k, v, *d);
	}
	case CONF_K_INT:
		if (k->range_msg) {
			long *l = (long *)(void *)at;
			double d;
			if (conf_num(cf, v, k->name, &d))
				return -1;
			if (d != floor(d) || d < k->lo || d > k->hi)
				return conf_fail(cf, v, "%s", k->range_msg);
			*l = (long)d;
			return 0;
		}
		return conf_int(cf, v, k->name, (long)k->lo, (long)k->hi, (long *)(void *)at);
	case CONF_K_BOOL:
		return conf_bool(cf, v, k->name, (bool *)(void *)at);
	case CONF_K_STR_LIST:
		return conf_str_list(cf, v, k->name, (char ***)(void *)at,
		                     (size_t *)(void *)((char *)store + k->offset2));
	case CONF_K_JSON:
		return conf_json(cf, v, (json_t **)(void *)at);
	case CONF_K_FN:
		return k->read(cf, v, store);
	}
	return 0;
}

int conf_keys(struct conf *cf, const struct conf_node *map, const struct conf_table *t,
              void *store, const struct conf_node **slots)
{
	size_t n = 0;
	while (t->keys[n].name)
		n++;
	const struct conf_node *local[32], **found = slots ? slots : local;
	if (!slots && n > sizeof local / sizeof *local)
		abort();        /* a table this long wants its own slots */
	for (size_t i = 0; i < n; i++)
		found[i] = NULL;

	for (size_t i = 0; i + 1 < map->nkids; i += 2) {
		const struct conf_node *k = map->kids[i], *v = map->kids[i + 1];
		size_t e = 0;
		while (e < n && !conf_key_is(k, t->keys[e].name))
			e++;
		if (e == n) {
			if (unknown(cf, t, k, store))
				return -1;
			continue;
		}
		found[e] = v;
		if (!(t->keys[e].flags & CONF_LATER) && read_key(cf, &t->keys[e], v, store))
			return -1;
	}
	for (size_t e = 0; e < n; e++) {
		const struct conf_key *k = &t->keys[e];
		if (!found[e] && (k->flags & CONF_REQUIRED))
			return conf_fail(cf, map, "%s", k->missing ? k->missing : "a key is missing");
		if (!(k->flags & CONF_LATER))
			continue;
		if (found[e] ? read_key(cf, k, found[e], store)
		             : k->kind == CONF_K_FN && (k->flags & CONF_ALWAYS) && k->read(cf, NULL, store))
			return -1;
	}
	return 0;
}
