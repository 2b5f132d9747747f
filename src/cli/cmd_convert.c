/* cmd_convert.c - `tcreview convert`: any readable input written as the run format, one run a line.
 *
 * Records are streamed and loaded one at a time as `score` loads them, so
 * memory stays bounded by the largest record. A run that does not load is
 * reported as score reports it (SOURCE: the field and what is wrong) and
 * left out; the exit status says some were. With -o the output is a
 * temporary file renamed over OUT once complete (export's atomic file). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/convert.h"
#include "cli/export.h"
#include "runs/dataset.h"
#include "runs/format.h"
#include "runs/run_format.h"
#include "util/xalloc.h"
#include "util/error.h"

#define PROG "tcreview convert"
/* Some runs were written and some could not be read, as `formats` says. */
#define EXIT_SOME_UNREAD 1

static void convert_usage(FILE *out)
{
	fprintf(out,
	"usage: tcreview convert [-o OUT] [-c FILE] [--format NAME] FILE...\n"
	"\n"
	"Writes every run of the inputs, in any format tcreview reads, as tcreview's own\n"
	"run format (see RUN FORMAT in tcreview(1)): one JSON object a line. Converting\n"
	"a converted file gives the same bytes, and every scorer gives the same verdicts\n"
	"on a file and on its conversion: the values the configuration reads by path\n"
	"(run ids, the expectations join, {from:} references, record-field's path) and\n"
	"the verdicts the records carry (reward, score...) are kept in each run's fields.\n"
	"\n"
	"  -o, --output OUT    write to OUT (replaced only once complete); default stdout\n"
	"  -c, --config FILE   the configuration whose paths to keep (default: as score)\n"
	"      --format NAME   read every record with this loader (see --help formats)\n"
	CLI_ALLOW_PATH_HELP
	CLI_TRUST_USAGE
	"  -h, --help          this help\n"
	"\n"
	"FILE may be a .json or .jsonl file, a folder (read recursively), or - for\n"
	"standard input. A run that cannot be read is named on standard error with its\n"
	"file, line and field, and left out. Exit status: 0 every run was written,\n"
	"1 some could not be read, 2 usage or configuration error, 3 an input could not\n"
	"be read, or none of its runs, or the output could not be written.\n");
}

struct convert_opts {
	struct cli_context *ctx;        /* the command's choices */
	const char *config, *format, *out;
};

/* Reads the options; returns -1 to go on, else the exit status. */
static int convert_parse_args(int argc, char **argv, struct convert_opts *o)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "config", required_argument, NULL, 'c' },
		{ "allow-path", required_argument, NULL, CLI_OPT_ALLOW_PATH },
		{ "format", required_argument, NULL, 'F' },
		CLI_TRUST_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ch;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "o:c:h", longopts, NULL)) != -1) {
		if (cli_trust_option(o->ctx, ch, optarg))
			continue;
		switch (ch) {
		case 'o': o->out = optarg; break;
		case 'c': o->config = optarg; break;
		case CLI_OPT_ALLOW_PATH:
			if (cli_allow_path(o->ctx, PROG, optarg) < 0)
				return EXIT_USAGE;
			break;
		case 'F': o->format = optarg; break;
		case 'h':
			convert_usage(stdout);
			return EXIT_DONE;
		default:
			convert_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc && isatty(0)) {
		fprintf(stderr, PROG ": no input files (give FILE..., or - for standard input)\n");
		return EXIT_USAGE;
	}
	return -1;
}

struct convert_pass {
	struct dataset *ds;
	const struct format_ops *forced;
	const char *id_path;
	struct convert_paths paths;
	struct convert_fields fields;
	struct export_out out;
	struct strbuf line;
	size_t *written, *failed;   /* per input file */
	bool write_failed;
};

static void convert_one(struct convert_pass *p, const struct record_ref *rec)
{
	struct error err = {0};
	struct run *r = dataset_load_run(p->ds, rec, p->forced, p->id_path, &err);
	if (!r) {
		fprintf(stderr, PROG ": %s\n", err.msg);
		p->failed[rec->file]++;
		return;
	}
	if (r->load_error) {
		fprintf(stderr, PROG ": %s: %s\n", r->source, r->load_error);
		p->failed[rec->file]++;
		run_free(r);
		return;
	}
	convert_fields_of(&p->paths, r, &p->fields);
	strbuf_reset(&p->line);
	run_format_write(&p->line, r, p->fields.list, p->fields.n);
	strbuf_addch(&p->line, '\n');
	if (export_out_write(&p->out, &p->line) < 0)
		p->write_failed = true;
	p->written[rec->file]++;
	run_free(r);
}

/* The exit status the counts call for, with a word for every input of
 * which nothing could be read. */
static int convert_status(const struct convert_pass *p)
{
	int rc = EXIT_DONE;
	bool some = false;
	for (size_t f = 0; f < p->ds->nfiles; f++) {
		some = some || p->failed[f];
		if (!p->failed[f] || p->written[f])
			continue;
		fprintf(stderr, PROG ": %s: none of its %zu run%s could be read\n",
		        p->ds->files[f].path, p->failed[f], p->failed[f] == 1 ? "" : "s");
		rc = EXIT_INPUT;
	}
	return rc == EXIT_DONE && some ? EXIT_SOME_UNREAD : rc;
}

static int convert_all(struct dataset *ds, const struct config *c,
                       const struct format_ops *forced, const char *out_path)
{
	struct convert_pass p = { .ds = ds, .forced = forced, .id_path = c->run_id_path };
	struct error err = {0};
	if (export_out_open(&p.out, out_path, &err) < 0) {
		fprintf(stderr, PROG ": %s\n", err.msg);
		return EXIT_INPUT;
	}
	convert_paths_of(c, &p.paths);
	p.written = xcalloc(ds->nfiles + 1, sizeof *p.written);
	p.failed = xcalloc(ds->nfiles + 1, sizeof *p.failed);
	struct dataset_cursor cur;
	struct record_ref rec;
	dataset_cursor_init(&cur);
	while (!p.write_failed && dataset_next(ds, &cur, &rec))
		convert_one(&p, &rec);
	int rc = convert_status(&p);
	if (export_out_close(&p.out, !p.write_failed, &err) < 0 || p.write_failed) {
		fprintf(stderr, PROG ": %s\n", p.write_failed ? "the output could not be written" : err.msg);
		rc = EXIT_INPUT;
	}
	strbuf_release(&p.line);
	convert_fields_free(&p.fields);
	convert_paths_free(&p.paths);
	free(p.written);
	free(p.failed);
	return rc;
}

static int convert_main(struct cli_context *x, int argc, char **argv)
{
	struct convert_opts o = { .ctx = x };
	int rc = convert_parse_args(argc, argv, &o);
	if (rc >= 0)
		return rc;
	struct config c;
	if (cli_load_config(x, &c, o.config, optind < argc ? argv[optind] : NULL) < 0)
		return EXIT_USAGE;
	const char *format = o.format ? o.format : c.format;
	const struct format_ops *forced = format ? format_find(format) : NULL;
	if (format && !forced) {
		fprintf(stderr, PROG ": unknown format '%s' (see tcreview --help formats)\n", format);
		config_free(&c);
		return EXIT_USAGE;
	}
	char *stdin_only[] = { "-" };
	char *const *paths = optind < argc ? argv + optind : stdin_only;
	size_t npaths = optind < argc ? (size_t)(argc - optind) : 1;
	struct dataset ds = { 0 };
	struct error err = {0};
	if (cli_dataset_open(x, &ds, paths, npaths, &err) < 0) {
		fprintf(stderr, PROG ": %s\n", err.msg);
		rc = EXIT_INPUT;
	} else {
		ds.forced = forced;
		rc = convert_all(&ds, &c, forced, o.out);
	}
	dataset_close(&ds);
	config_free(&c);
	return rc;
}

int cli_convert(int argc, char **argv)
{
	struct cli_context x;
	cli_context_init(&x);
	int rc = convert_main(&x, argc, argv);
	cli_context_free(&x);
	return rc;
}
