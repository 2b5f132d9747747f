/* declared_conf.c - reads declared formats: the `formats:` section and format files. */
#include "runs/declared.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runs/format.h"
#include "runs/jqprog.h"
#include "util/child.h"
#include "util/readfile.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/error.h"

/* What an entry's keys are read into before they become a format. */
struct entry {
	char *name, *summary;
	bool whole_file;
	char **convert;
	size_t nconvert;
	char **env;
	size_t nenv;
	long max_output, max_memory;
	bool cache;
};

static const struct conf_key format_keys[] = {
	{ .name = "name", .kind = CONF_K_STR, .flags = CONF_REQUIRED,
	  .offset = offsetof(struct entry, name), .missing = "a format needs a 'name'" },
	{ .name = "summary", .kind = CONF_K_STR, .offset = offsetof(struct entry, summary) },
	{ .name = "detect", .kind = CONF_K_NODE, .flags = CONF_REQUIRED,
	  .missing = "a format needs 'detect', a jq test that is true for its records" },
	{ .name = "run", .kind = CONF_K_NODE },
	{ .name = "convert", .kind = CONF_K_STR_LIST, .offset = offsetof(struct entry, convert),
	  .offset2 = offsetof(struct entry, nconvert) },
	{ .name = "whole_file", .kind = CONF_K_BOOL, .offset = offsetof(struct entry, whole_file) },
	{ .name = "timeout", .kind = CONF_K_NODE },
	{ .name = "max_output", .kind = CONF_K_INT, .offset = offsetof(struct entry, max_output),
	  .lo = 1, .hi = 1L << 40, .range_msg = "max_output must be a number of bytes, 1 or more" },
	{ .name = "max_memory", .kind = CONF_K_INT, .offset = offsetof(struct entry, max_memory),
	  .lo = 1L << 24, .hi = 1L << 40, .range_msg = "max_memory must be a number of bytes, 16 MB or more" },
	{ .name = "cache", .kind = CONF_K_BOOL, .offset = offsetof(struct entry, cache) },
	{ .name = "env", .kind = CONF_K_STR_LIST, .offset = offsetof(struct entry, env),
	  .offset2 = offsetof(struct entry, nenv) },
	{ .name = NULL },
};
enum { K_NAME, K_SUMMARY, K_DETECT, K_RUN, K_CONVERT, K_WHOLE, K_TIMEOUT };

static const struct conf_table format_table_keys = {
	.keys = format_keys, .unknown_for = "for a format",
};

/* A jq program at its node, compiled: jq's own message at its position. */
static int program_read(struct conf *cf, const struct conf_node *n, const char *what,
                        struct jqprog **out)
{
	char *text = NULL;
	if (conf_str(cf, n, what, &text))
		return -1;
	struct error err = {0};
	*out = jqprog_compile(text, &err);
	free(text);
	if (!*out)
		return conf_fail(cf, n, "%s: %s", what, err.msg);
	return 0;
}

/* The YAML's folder as an absolute path (malloc'd): the converter starts there. */
static char *abs_dir(const char *dir)
{
	if (dir && dir[0] == '/')
		return xstrdup(dir);
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof cwd))
		return xstrdup(dir ? dir : ".");
	return conf_join(cwd, dir && *dir ? dir : ".");
}

/* convert: [PROGRAM, ARGS...]: the program by a path against the YAML's
 * folder, a bare name along PATH, as exec scorers find theirs. */
static int converter_read(struct conf *cf, const struct conf_node *n, struct declared_format *f)
{
	if (f->nconvert == 0 || !f->convert[0][0])
		return conf_fail(cf, n, "'convert' must name a program");
	f->dir = abs_dir(cf->dir);
	const char *prog = f->convert[0];
	char *path = strchr(prog, '/') ? conf_join(f->dir, prog) : child_path_search(prog);
	if (!path)
		return conf_fail(cf, n, "convert: program '%s' is not found on PATH", prog);
	struct stat st = { 0 };
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) || access(path, X_OK) < 0) {
		int e = errno;
		conf_fail(cf, n, "convert: '%s' is not an executable file (%s)", path,
		          S_ISDIR(st.st_mode) ? "a folder" : strerror(e ? e : EACCES));
		free(path);
		return -1;
	}
	f->program = path;
	f->convert = xrealloc(f->convert, (f->nconvert + 1) * sizeof *f->convert);
	f->convert[f->nconvert] = NULL;
	/* Named for the cache as an exec scorer's command is. */
	json_t *cmd = json_array(), *env = json_array();
	for (size_t i = 0; i < f->nconvert; i++)
		json_array_append_new(cmd, json_string(f->convert[i]));
	for (size_t i = 0; i < f->nenv; i++)
		json_array_append_new(env, json_string(f->env[i]));
	child_command_key(cmd, f->program, f->dir, env, f->cache_key);
	json_decref(cmd);
	json_decref(env);
	return 0;
}

void declared_format_free(struct declared_format *f)
{
	free(f->name);
	free(f->summary);
	free(f->origin);
	jqprog_free(f->detect);
	jqprog_free(f->run);
	conf_str_list_free(f->convert, f->nconvert);
	free(f->program);
	free(f->dir);
	conf_str_list_free(f->env, f->nenv);
	memset(f, 0, sizeof *f);
}

static int timeout_read(struct conf *cf, const struct conf_node *n, struct declared_format *f)
{
	json_t *v = NULL;
	if (conf_scalar_json(cf, n, &v))
		return -1;
	long ms = child_duration_ms(v);
	json_decref(v);
	if (ms < 1)
		return conf_fail(cf, n, "timeout must be a duration such as 60s, 500ms or 2m (at most 24h)");
	f->timeout_ms = ms;
	/* CPU time follows the wall clock it is given, at least a second. */
	f->cpu_s = ms / 1000 + 1;
	return 0;
}

/* The rest of an entry once its keys are read: programs, converter, bounds. */
static int entry_finish(struct conf *cf, const struct conf_node **slots, struct declared_format *f)
{
	if (!slots[K_RUN] && !slots[K_CONVERT])
		return conf_fail(cf, slots[K_NAME], "format '%s' needs 'run' (a jq mapping to the run "
		                 "format) or 'convert' (a program that writes it)", f->name);
	if (slots[K_RUN] && slots[K_CONVERT])
		return conf_fail(cf, slots[K_CONVERT], "format '%s' has both 'run' and 'convert': "
		                 "give one", f->name);
	if (program_read(cf, slots[K_DETECT], "detect", &f->detect))
		return -1;
	f->detect_line = slots[K_DETECT]->line;
	f->detect_col = slots[K_DETECT]->col;
	const struct conf_node *how = slots[K_RUN] ? slots[K_RUN] : slots[K_CONVERT];
	f->run_line = how->line;
	f->run_col = how->col;
	if (slots[K_RUN] && program_read(cf, slots[K_RUN], "run", &f->run))
		return -1;
	if (slots[K_CONVERT] && converter_read(cf, slots[K_CONVERT], f))
		return -1;
	if (slots[K_TIMEOUT] && timeout_read(cf, slots[K_TIMEOUT], f))
		return -1;
	return 0;
}

static int entry_read(struct conf *cf, const struct conf_node *m, const char *where,
                      struct declared_format *f)
{
	if (conf_map(cf, m, "a format"))
		return -1;
	struct entry e = { .cache = true };
	const struct conf_node *slots[sizeof format_keys / sizeof *format_keys] = { 0 };
	int rc = conf_keys(cf, m, &format_table_keys, &e, slots);
	*f = (struct declared_format){
		.name = e.name, .summary = e.summary, .whole_file = e.whole_file,
		.convert = e.convert, .nconvert = e.nconvert, .env = e.env, .nenv = e.nenv,
		.cache = e.cache,
		.origin = xstrdup(cf->name ? cf->name : "(configuration)"), .where = where,
		.line = m->line, .col = m->col,
		.timeout_ms = DECLARED_TIMEOUT_MS, .cpu_s = DECLARED_CPU_S,
		.max_output = e.max_output > 0 ? (size_t)e.max_output : DECLARED_MAX_OUTPUT,
		.max_memory = e.max_memory > 0 ? (size_t)e.max_memory : DECLARED_MEM,
	};
	if (rc == 0 && f->name && !conf_is_id(f->name))
		rc = conf_fail(cf, slots[K_NAME], "format name '%s' may hold only letters, digits and "
		               "_ . : -", f->name);
	if (rc == 0)
		rc = entry_finish(cf, slots, f);
	if (rc)
		declared_format_free(f);
	return rc;
}

int declared_conf_read(struct conf *cf, const struct conf_node *v, const char *where,
                       struct declared_set *set)
{
	if (v->kind == CONF_MAP) {
		set->v = xrealloc(set->v, (set->n + 1) * sizeof *set->v);
		if (entry_read(cf, v, where, &set->v[set->n]))
			return -1;
		set->n++;
		return 0;
	}
	if (conf_seq(cf, v, "formats", "formats ({name, detect, run or convert})"))
		return -1;
	for (size_t i = 0; i < v->nkids; i++)
		if (declared_conf_read(cf, v->kids[i], where, set))
			return -1;
	return 0;
}

static int yaml_name(const struct dirent *e)
{
	size_t n = strlen(e->d_name);
	return e->d_name[0] != '.' && n > 5 && strcmp(e->d_name + n - 5, ".yaml") == 0;
}

static int file_read(struct declared_set *set, const char *path, const char *dir,
                     const char *where, struct error *err)
{
	struct strbuf sb = STRBUF_INIT;
	if (read_regular_file(&sb, path, READ_CAP_CONFIG, err) < 0) {
		strbuf_release(&sb);
		return -1;
	}
	struct conf x;
	int rc = conf_parse(&x, path, dir, sb.buf ? sb.buf : "", sb.len, err);
	if (rc == 0 && x.root && !conf_is_null(x.root))
		rc = declared_conf_read(&x, x.root, where, set);
	conf_free(&x);
	strbuf_release(&sb);
	return rc;
}

int declared_load_folder(struct declared_set *set, const char *dir, const char *where,
                         struct error *err)
{
	struct dirent **names = NULL;
	int n = scandir(dir, &names, yaml_name, alphasort);
	if (n < 0)
		return 0;       /* no folder: no formats from it */
	int rc = 0;
	for (int i = 0; i < n; i++) {
		char *path = conf_join(dir, names[i]->d_name);
		if (rc == 0)
			rc = file_read(set, path, dir, where, err);
		free(path);
		free(names[i]);
	}
	free(names);
	return rc;
}

int declared_check_names(const struct declared_set *set, struct error *err)
{
	for (size_t i = 0; i < set->n; i++) {
		const struct declared_format *f = &set->v[i];
		if (format_find(f->name)) {
			error_set(err, ERR_FAILED, "%s:%d:%d: format '%s' is the name of a built-in format "
			         "(name yours otherwise)", f->origin, f->line, f->col, f->name);
			return -1;
		}
		for (size_t k = 0; k < i; k++)
			if (strcmp(set->v[k].name, f->name) == 0) {
				error_set(err, ERR_FAILED, "%s:%d:%d: format '%s' is declared twice: also at "
				         "%s:%d:%d", f->origin, f->line, f->col, f->name, set->v[k].origin,
				         set->v[k].line, set->v[k].col);
				return -1;
			}
	}
	return 0;
}

void declared_set_free(struct declared_set *set)
{
	for (size_t i = 0; i < set->n; i++)
		declared_format_free(&set->v[i]);
	free(set->v);
	set->v = NULL;
	set->n = 0;
}
