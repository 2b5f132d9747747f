/* config.c - the YAML configuration: run ids, expectations, scorers.
 *
 * libyaml's event stream is first turned into a small node tree that keeps
 * the line and column of every node, so that any later check (unknown key,
 * wrong type, a scorer's own refusal) can point at the exact spot. The tree
 * is then walked once into struct config and thrown away. */
#include "config/config.h"
#include "conf/conf.h"
#include "runs/runs_conf.h"
#include "util/hash.h"
#include "judge/judge_conf.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "util/jsonpath.h"
#include "review/keymap.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static int runs_parse(struct conf *x, struct config *c, const struct conf_node *m)
{
	struct runs_conf rc;
	int r = runs_conf_read(x, m, &rc);
	c->run_id_path = rc.id_path;
	c->format = rc.format;
	return r;
}

static int expect_parse(struct conf *x, struct config *c, const struct conf_node *m)
{
	if (expect_conf_read(x, m, &c->expect))
		return -1;
	c->has_expect = true;
	return 0;
}

/* ---- theme and keys ------------------------------------------------------ */

static int theme_parse_conf(struct conf *x, struct config *c, const struct conf_node *v)
{
	if (conf_str(x, v, "theme", &c->theme))
		return -1;
	/* The name becomes a file name (themes/NAME.theme); checked here so the
	 * error can point at it. Whether the file exists is known only to the
	 * screen, which knows the data folder. */
	for (const char *p = c->theme; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == '-'))
			return conf_fail(x, v, "invalid theme name '%s' (use letters, digits, _ and -)",
			            c->theme);
	return 0;
}

/* Checks the key names of one scalar (blank-separated names are allowed,
 * as in the table) and appends them to sb. Each key may be bound by one
 * action of the file only: binding it twice is surely a slip. */
static int keys_scalar(struct conf *x, const struct config *c, const struct conf_node *n,
                       const char *action, struct strbuf *sb)
{
	char *text;
	if (n->kind != CONF_SCALAR)
		return conf_fail(x, n, "wrong type for '%s': expected a key name or a list of key names, got %s",
		            action, conf_kind_name(n));
	if (conf_str(x, n, action, &text))
		return -1;
	if (!text[strspn(text, " \t")]) {
		free(text);
		return conf_fail(x, n, "'%s' names no key (the space bar is Space)", action);
	}
	int rc = 0;
	for (char *p = text; *p && rc == 0;) {
		size_t len = strcspn(p, " \t");
		if (!len) {
			p++;
			continue;
		}
		char save = p[len];
		p[len] = '\0';
		keycode_t k, other;
		if (!keycode_parse(p, &k)) {
			rc = conf_fail(x, n, "unknown key name '%s'", p);
			break;
		}
		for (size_t i = 0; i < c->nkeys && rc == 0; i++) {
			const struct key_conf *kc = &c->keys[i];
			char *names = xstrdup(kc->keys);
			for (char *q = strtok(names, " "); q; q = strtok(NULL, " ")) {
				if (keycode_parse(q, &other) && other == k) {
					rc = conf_fail(x, n, "key '%s' is already bound to '%s' at line %d", p,
					          kc->action, kc->line);
					break;
				}
			}
			free(names);
		}
		if (rc == 0) {
			if (sb->len)
				strbuf_addch(sb, ' ');
			strbuf_addstr(sb, p);
		}
		p[len] = save;
		p += len;
	}
	free(text);
	return rc;
}

static int keys_parse(struct conf *x, struct config *c, const struct conf_node *m)
{
	if (conf_map(x, m, "keys"))
		return -1;
	c->keys = xcalloc(m->nkids / 2, sizeof *c->keys);
	for (size_t i = 0; i + 1 < m->nkids; i += 2) {
		const struct conf_node *k = m->kids[i], *v = m->kids[i + 1];
		char *name = xstrndup(k->text, k->len);
		if (action_find(name) == ACT_NONE) {
			conf_fail(x, k, "unknown action '%s' (see tcreview --help keys)", name);
			free(name);
			return -1;
		}
		struct strbuf sb = STRBUF_INIT;
		int rc = 0;
		if (v->kind == CONF_SEQ) {
			/* An empty list unbinds the action. */
			for (size_t j = 0; j < v->nkids && rc == 0; j++)
				rc = keys_scalar(x, c, v->kids[j], name, &sb);
		} else {
			rc = keys_scalar(x, c, v, name, &sb);
		}
		if (rc) {
			strbuf_release(&sb);
			free(name);
			return -1;
		}
		struct key_conf *kc = &c->keys[c->nkeys++];
		kc->action = name;
		kc->keys = sb.buf ? strbuf_detach(&sb) : xstrdup("");
		kc->line = v->line;
		kc->col = v->col;
	}
	return 0;
}

/* Scorer and judge ids share one namespace: a verdict row is named by it. */
static int scorer_id_free(struct conf *x, const struct conf_node *idn, const char *id, void *arg)
{
	const struct config *c = arg;
	for (size_t i = 0; i < c->njudges; i++)
		if (c->judges[i].id && strcmp(c->judges[i].id, id) == 0)
			return conf_fail(x, idn, "duplicate id '%s': judge at line %d has it (scorers and "
			                 "judges share one set of ids)", id, c->judges[i].line);
	return 0;
}

static int judge_id_free(struct conf *x, const struct conf_node *idn, const char *id, void *arg)
{
	const struct config *c = arg;
	for (size_t i = 0; i < c->nscorers; i++)
		if (c->scorers[i].id && strcmp(c->scorers[i].id, id) == 0)
			return conf_fail(x, idn, "duplicate id '%s': scorer at line %d has it (scorers and "
			                 "judges share one set of ids)", id, c->scorers[i].line);
	return 0;
}

static int config_walk(struct conf *x, struct config *c, const struct conf_node *root)
{
	if (conf_is_null(root))
		return 0;       /* "---" alone, or "~": an empty configuration */
	if (root->kind != CONF_MAP)
		return conf_fail(x, root, "the configuration must be a mapping of runs, expectations, scorers and judges");

	for (size_t i = 0; i + 1 < root->nkids; i += 2) {
		const struct conf_node *k = root->kids[i], *v = root->kids[i + 1];
		int rc;
		if (conf_key_is(k, "runs"))
			rc = conf_is_null(v) ? 0 : runs_parse(x, c, v);
		else if (conf_key_is(k, "expectations"))
			rc = conf_is_null(v) ? 0 : expect_parse(x, c, v);
		else if (conf_key_is(k, "scorers"))
			rc = conf_is_null(v) ? 0 : scorers_read(x, v, &c->scorers, &c->nscorers,
			                                           scorer_id_free, c);
		else if (conf_key_is(k, "judges"))
			rc = conf_is_null(v) ? 0 : judges_read(x, v, &c->judges, &c->njudges,
			                                          judge_id_free, c);
		else if (conf_key_is(k, "theme"))
			rc = conf_is_null(v) ? 0 : theme_parse_conf(x, c, v);
		else if (conf_key_is(k, "keys"))
			rc = conf_is_null(v) ? 0 : keys_parse(x, c, v);
		else
			rc = conf_unknown_key(x, k, "runs, expectations, scorers, judges, theme, keys");
		if (rc)
			return -1;
	}

	/* Checked last because `expectations` may come after `scorers`. */
	for (size_t i = 0; i < c->nscorers; i++) {
		const struct scorer_conf *sc = &c->scorers[i];
		for (size_t j = 0; j < sc->nparams; j++)
			if (sc->params[j].from_expected && !c->has_expect)
				return conf_fail_at(x, sc->params[j].line, sc->params[j].col,
				               "'%s' refers to expected.* but there is no 'expectations' section",
				               sc->params[j].name);
	}
	return 0;
}

/* ---- public API -------------------------------------------------------- */

int config_load_string(struct config *c, const char *name, const char *dir,
                       const char *text, size_t len, char *err, size_t errlen)
{
	memset(c, 0, sizeof *c);
	if (err && errlen)
		err[0] = '\0';
	struct conf x;
	c->path = name ? xstrdup(name) : NULL;   /* NULL marks the built-in config */
	c->dir = dir ? xstrdup(dir) : NULL;

	int rc = conf_parse(&x, name, c->dir, text, len, err, errlen);
	if (rc == 0 && x.root)
		rc = config_walk(&x, c, x.root);
	conf_free(&x);
	if (rc)
		config_free(c);
	return rc;
}

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

int config_load(struct config *c, const char *path, char *err, size_t errlen)
{
	memset(c, 0, sizeof *c);
	if (!err)
		errlen = 0;
	struct strbuf sb = STRBUF_INIT;
	/* A configuration is a few kilobytes; 16 MB is surely not one. */
	if (strbuf_read_file(&sb, path, 16u << 20, err, errlen) < 0) {
		strbuf_release(&sb);
		return -1;
	}

	char *dir = dir_of(path);
	int rc = config_load_string(c, path, dir, sb.buf ? sb.buf : "", sb.len, err, errlen);
	free(dir);
	strbuf_release(&sb);
	return rc;
}

void config_free(struct config *c)
{
	if (!c)
		return;
	free(c->path);
	free(c->dir);
	free(c->run_id_path);
	free(c->format);
	expect_conf_free(&c->expect);
	scorers_free(c->scorers, c->nscorers);
	judges_free(c->judges, c->njudges);
	free(c->theme);
	for (size_t i = 0; i < c->nkeys; i++) {
		free(c->keys[i].action);
		free(c->keys[i].keys);
	}
	free(c->keys);
	memset(c, 0, sizeof *c);
}
