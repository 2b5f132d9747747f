/* layers.c - which configuration files are read, and the user's merged under a project's. */
#include "config/layers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config/allowed_paths.h"
#include "judge/judge.h"
#include "util/strbuf.h"
#include "util/userdir.h"
#include "util/xalloc.h"
#include "util/error.h"

#define PROJECT_FILE "tcreview.yaml"

/* What scores runs nobody wrote a configuration for: checks that need no
 * ground truth (`tcreview init` proposes them too, beside what it finds). */
const char config_builtin_checks[] =
	"scorers:\n"
	"  - id: tool-errors\n"
	"    type: tool-errors\n"
	"  - id: unanswered-calls\n"
	"    type: unanswered-calls\n";

static bool exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

/* tcreview.yaml beside a file, or in a folder; NULL for standard input or
 * when it is the current folder's (already looked at). */
static char *beside(const char *input)
{
	struct stat st;
	if (!input || !strcmp(input, "-") || stat(input, &st) != 0)
		return NULL;
	struct strbuf sb = STRBUF_INIT;
	if (S_ISDIR(st.st_mode)) {
		strbuf_addstr(&sb, input);
	} else {
		const char *slash = strrchr(input, '/');
		if (!slash)
			return NULL;
		strbuf_add(&sb, input, slash == input ? 1 : (size_t)(slash - input));
	}
	while (sb.len > 1 && sb.buf[sb.len - 1] == '/')
		sb.buf[--sb.len] = '\0';
	if (!strcmp(sb.buf, ".")) {
		strbuf_release(&sb);
		return NULL;
	}
	strbuf_addstr(&sb, sb.buf[sb.len - 1] == '/' ? PROJECT_FILE : "/" PROJECT_FILE);
	return strbuf_detach(&sb);
}

void config_locate(const char *given, const char *first_input, struct config_files *out)
{
	memset(out, 0, sizeof *out);
	out->user = user_config_file("config.yaml");
	if (out->user)
		out->user_exists = exists(out->user);
	if (given) {
		out->project = xstrdup(given);
		out->origin = CONFIG_GIVEN;
		return;
	}
	if (exists(PROJECT_FILE)) {
		out->project = xstrdup(PROJECT_FILE);
		out->origin = CONFIG_HERE;
		return;
	}
	char *b = beside(first_input);
	if (b && exists(b)) {
		out->project = b;
		out->origin = CONFIG_BESIDE;
		return;
	}
	free(b);
	out->origin = CONFIG_BUILTIN;
}

void config_files_free(struct config_files *f)
{
	free(f->user);
	free(f->project);
	memset(f, 0, sizeof *f);
}

/* ---- merging ------------------------------------------------------------ */

static bool id_taken(const struct config *c, const char *id)
{
	for (size_t i = 0; i < c->nscorers; i++)
		if (c->scorers[i].id && !strcmp(c->scorers[i].id, id))
			return true;
	for (size_t i = 0; i < c->njudges; i++)
		if (c->judges[i].id && !strcmp(c->judges[i].id, id))
			return true;
	for (size_t i = 0; i < c->npair_judges; i++)
		if (c->pair_judges[i].id && !strcmp(c->pair_judges[i].id, id))
			return true;
	return false;
}

/* The user's judges come after the project's, under ids it leaves free:
 * those of one run, then the pairwise ones (each kept in its own list). */
static void merge_list(struct config *c, struct judge_conf **to, size_t *nto,
                       struct judge_conf *from, size_t *nfrom)
{
	size_t kept = 0;
	*to = xrealloc(*to, (*nto + *nfrom + 1) * sizeof **to);
	for (size_t i = 0; i < *nfrom; i++) {
		if (from[i].id && id_taken(c, from[i].id))
			from[kept++] = from[i];
		else
			(*to)[(*nto)++] = from[i];
	}
	*nfrom = kept;
}

static void merge_judges(struct config *c, struct config *user)
{
	merge_list(c, &c->judges, &c->njudges, user->judges, &user->njudges);
	merge_list(c, &c->pair_judges, &c->npair_judges, user->pair_judges, &user->npair_judges);
}

/* Whether two space-separated lists of key names share one. */
static bool keys_meet(const char *a, const char *b)
{
	for (const char *p = a; *p;) {
		size_t n = strcspn(p, " ");
		for (const char *q = b; *q;) {
			size_t m = strcspn(q, " ");
			if (n && n == m && !strncmp(p, q, n))
				return true;
			q += m + (q[m] == ' ');
		}
		p += n + (p[n] == ' ');
	}
	return false;
}

/* A user binding stands unless the project binds the same action or key. */
static bool key_overridden(const struct config *c, const struct key_conf *k)
{
	for (size_t i = 0; i < c->nkeys; i++)
		if (!strcmp(c->keys[i].action, k->action) || keys_meet(c->keys[i].keys, k->keys))
			return true;
	return false;
}

/* The user's bindings go first, so that the project's, read after them,
 * win where the screen would otherwise see both. */
static void merge_keys(struct config *c, struct config *user)
{
	struct key_conf *all = xcalloc(c->nkeys + user->nkeys + 1, sizeof *all);
	size_t n = 0, kept = 0;
	for (size_t i = 0; i < user->nkeys; i++) {
		if (key_overridden(c, &user->keys[i]))
			user->keys[kept++] = user->keys[i];
		else
			all[n++] = user->keys[i];
	}
	user->nkeys = kept;
	if (c->nkeys)
		memcpy(all + n, c->keys, c->nkeys * sizeof *all);
	n += c->nkeys;
	free(c->keys);
	c->keys = all;
	c->nkeys = n;
}

/* The user's declared formats come after the project's (a name given in
 * both is refused when the formats are put to use). */
static void merge_formats(struct config *c, struct config *user)
{
	if (!user->formats.n)
		return;
	c->formats.v = xrealloc(c->formats.v, (c->formats.n + user->formats.n) * sizeof *c->formats.v);
	memcpy(c->formats.v + c->formats.n, user->formats.v, user->formats.n * sizeof *c->formats.v);
	c->formats.n += user->formats.n;
	free(user->formats.v);
	user->formats.v = NULL;
	user->formats.n = 0;
}

void config_merge_user(struct config *c, struct config *user)
{
	merge_judges(c, user);
	merge_keys(c, user);
	merge_formats(c, user);
	if (!c->theme) {
		c->theme = user->theme;
		user->theme = NULL;
	}
	if (!c->reviewer) {
		c->reviewer = user->reviewer;
		user->reviewer = NULL;
	}
}

/* ---- loading ------------------------------------------------------------ */

/* The project's file is read with what the user allowed on the command
 * line and what they allowed this file before (config/allowed_paths.h). */
static int load_allowed(struct config *c, const char *project, const struct config_opts *opts,
                        const struct config *user, struct error *err)
{
	const struct config_allow *allow = opts ? opts->allow : NULL;
	char **paths = NULL;
	size_t n = 0;
	for (size_t i = 0; allow && i < allow->n; i++) {
		paths = xrealloc(paths, (n + 1) * sizeof *paths);
		paths[n++] = xstrdup(allow->paths[i]);
	}
	int rc = config_allowed_for(project, &paths, &n, err);
	if (rc == 0) {
		const struct config_allow all = { (const char *const *)paths, n };
		struct config_opts with = opts ? *opts : (struct config_opts){ 0 };
		with.allow = &all;
		rc = config_load_under(c, &with, project, user, err);
	} else {
		memset(c, 0, sizeof *c);
	}
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
	return rc;
}

static int load_project(struct config *c, const struct config_files *f,
                        const struct config_opts *opts, const struct config *user,
                        struct error *err)
{
	if (f->project)
		return load_allowed(c, f->project, opts, user, err);
	int rc = config_load_string(c, opts, "(built-in checks)", ".", config_builtin_checks,
	                            sizeof config_builtin_checks - 1, err);
	free(c->path);
	c->path = NULL;
	return rc;
}

int config_load_layered(struct config *c, const struct config_opts *opts, const char *given,
                        const char *first_input, struct error *err)
{
	struct config_files f;
	struct config user;
	memset(&user, 0, sizeof user);
	config_locate(given, first_input, &f);
	if (f.user_exists &&
	    config_load_scoped(&user, opts, f.user, CONFIG_USER, err) < 0) {
		config_files_free(&f);
		memset(c, 0, sizeof *c);
		return -1;
	}
	if (load_project(c, &f, opts, f.user_exists ? &user : NULL, err) < 0) {
		config_free(&user);
		config_files_free(&f);
		return -1;
	}
	c->origin = f.origin;
	if (f.user_exists) {
		config_merge_user(c, &user);
		c->user_path = f.user;
		f.user = NULL;
	}
	config_free(&user);
	config_files_free(&f);
	return 0;
}
