/* formats_declared.c - the formats declared as data a command reads with:
 * the configuration's, the user's formats folder's and the installed ones,
 * checked and put to use (runs/declared.h), and --format NAME among them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "config/config.h"
#include "runs/declared.h"
#include "runs/format.h"
#include "util/userdir.h"
#include "util/xalloc.h"
#include "util/error.h"

/* The set in use: the configuration's entries are lent (the configuration
 * outlives the command's datasets), the folders' are owned from `owned` on. */
static struct declared_set in_use;
static size_t owned;

static void in_use_reset(void)
{
	declared_use(NULL, NULL);
	for (size_t i = owned; i < in_use.n; i++)
		declared_format_free(&in_use.v[i]);
	free(in_use.v);
	in_use = (struct declared_set){ 0 };
	owned = 0;
}

const struct declared_set *cli_declared_formats(void)
{
	return &in_use;
}

int cli_declare_formats(const char *prog, const struct config *c, const char *fmt,
                        bool *declared)
{
	struct error err = {0};
	if (cli_declare_formats_err(c, fmt, declared, &err) < 0) {
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		return EXIT_USAGE;
	}
	return EXIT_DONE;
}

int cli_declare_formats_err(const struct config *c, const char *fmt, bool *declared,
                            struct error *err)
{
	*declared = false;
	in_use_reset();
	in_use.v = xcalloc(c->formats.n + 1, sizeof *in_use.v);
	if (c->formats.n)
		memcpy(in_use.v, c->formats.v, c->formats.n * sizeof *in_use.v);
	in_use.n = owned = c->formats.n;
	char *user = user_config_file("formats");
	const char *data = cli_datadir();
	char *installed = data ? xstrdup(data) : NULL;
	if (installed) {
		free(installed);
		if (asprintf(&installed, "%s/formats", data) < 0)
			xalloc_die();
	}
	int rc = 0;
	if (user)
		rc = declared_load_folder(&in_use, user, "formats folder", err);
	if (rc == 0 && installed)
		rc = declared_load_folder(&in_use, installed, "installed", err);
	free(user);
	free(installed);
	if (rc == 0 && in_use.n > 200) {
		error_set(err, ERR_FAILED, "%zu formats are declared; at most 200 are read", in_use.n);
		rc = -1;
	}
	if (rc == 0)
		rc = declared_check_names(&in_use, err);
	if (rc < 0) {
		in_use_reset();
		return -1;
	}
	const struct declared_format *forced = fmt ? declared_find(&in_use, fmt) : NULL;
	*declared = forced != NULL;
	/* A built-in format forced reads every input as it is: none is
	 * converted first. */
	declared_use(fmt && !forced ? NULL : &in_use, forced);
	return 0;
}

void cli_unknown_format(const char *prog, const char *name)
{
	fprintf(stderr, "%s: unknown format '%s'\ntranscript formats:", prog, name);
	for (size_t i = 0; format_table[i]; i++)
		fprintf(stderr, " %s", format_table[i]->name);
	for (size_t i = 0; i < in_use.n; i++)
		fprintf(stderr, " %s", in_use.v[i].name);
	fputc('\n', stderr);
}

const char *cli_format_name(size_t i)
{
	size_t nbuiltin = 0;
	while (format_table[nbuiltin])
		nbuiltin++;
	if (i < nbuiltin)
		return format_table[i]->name;
	return i - nbuiltin < in_use.n ? in_use.v[i - nbuiltin].name : NULL;
}
