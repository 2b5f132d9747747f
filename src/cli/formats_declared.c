/* formats_declared.c - the formats declared as data a command reads with:
 * the configuration's, the user's formats folder's and the installed ones,
 * checked and put to use in the command's context (runs/declared.h), and
 * --format NAME among them. */
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

/* The set in use is the context's: the configuration's entries are lent
 * (the configuration outlives the command's datasets), the folders' are
 * owned from x->owned on. */
void cli_declared_reset(struct cli_context *x)
{
	for (size_t i = x->owned; i < x->declared.n; i++)
		declared_format_free(&x->declared.v[i]);
	free(x->declared.v);
	x->declared = (struct declared_set){ 0 };
	x->owned = 0;
	x->use = (struct declared_use){ 0 };
}

int cli_declare_formats(struct cli_context *x, const char *prog, const struct config *c,
                        const char *fmt, bool *declared)
{
	struct error err = {0};
	if (cli_declare_formats_err(x, c, fmt, declared, &err) < 0) {
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		return EXIT_USAGE;
	}
	return EXIT_DONE;
}

int cli_declare_formats_err(struct cli_context *x, const struct config *c, const char *fmt,
                            bool *declared, struct error *err)
{
	*declared = false;
	cli_declared_reset(x);
	struct declared_set *in_use = &x->declared;
	in_use->v = xcalloc(c->formats.n + 1, sizeof *in_use->v);
	if (c->formats.n)
		memcpy(in_use->v, c->formats.v, c->formats.n * sizeof *in_use->v);
	in_use->n = x->owned = c->formats.n;
	char *user = user_config_file("formats");
	const char *data = x->datadir;
	char *installed = data ? xstrdup(data) : NULL;
	if (installed) {
		free(installed);
		if (asprintf(&installed, "%s/formats", data) < 0)
			xalloc_die();
	}
	int rc = 0;
	if (user)
		rc = declared_load_folder(in_use, user, "formats folder", err);
	if (rc == 0 && installed)
		rc = declared_load_folder(in_use, installed, "installed", err);
	free(user);
	free(installed);
	if (rc == 0 && in_use->n > 200) {
		error_set(err, ERR_FAILED, "%zu formats are declared; at most 200 are read", in_use->n);
		rc = -1;
	}
	if (rc == 0)
		rc = declared_check_names(in_use, err);
	if (rc < 0) {
		cli_declared_reset(x);
		return -1;
	}
	const struct declared_format *forced = fmt ? declared_find(in_use, fmt) : NULL;
	*declared = forced != NULL;
	/* A built-in format forced reads every input as it is: none is
	 * converted first. */
	x->use = (struct declared_use){ fmt && !forced ? NULL : in_use, forced };
	return 0;
}

void cli_unknown_format(const struct declared_set *in_use, const char *prog, const char *name)
{
	fprintf(stderr, "%s: unknown format '%s'\ntranscript formats:", prog, name);
	for (size_t i = 0; format_table[i]; i++)
		fprintf(stderr, " %s", format_table[i]->name);
	for (size_t i = 0; in_use && i < in_use->n; i++)
		fprintf(stderr, " %s", in_use->v[i].name);
	fputc('\n', stderr);
}

const char *cli_format_name(const struct declared_set *in_use, size_t i)
{
	size_t nbuiltin = 0;
	while (format_table[nbuiltin])
		nbuiltin++;
	if (i < nbuiltin)
		return format_table[i]->name;
	return in_use && i - nbuiltin < in_use->n ? in_use->v[i - nbuiltin].name : NULL;
}
