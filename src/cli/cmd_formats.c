/* cmd_formats.c - `tcreview formats`: which format every record was read as, headless.
 *
 * The records are streamed (dataset_next) and loaded one at a time as
 * `score` loads them, so a 1 GB JSONL costs a read of it and memory stays
 * bounded by the largest record. For a record no format claims, every
 * loader is forced on it to say which came closest and why; that is
 * bounded too (a few records a file and FORMATS_ANALYSED_MAX in all, the
 * rest only counted). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/formats_report.h"
#include "runs/dataset.h"
#include "runs/declared.h"
#include "runs/format.h"
#include "util/xalloc.h"
#include "util/error.h"

#define PROG "tcreview formats"
/* Some records were read and some were not: a check for scripts, as
 * diff and grep answer 1. */
#define EXIT_SOME_UNREAD 1

static void formats_usage(FILE *out)
{
	fprintf(out,
	"usage: tcreview formats [-c FILE] [--format NAME] [--json] [--unread] FILE...\n"
	"       tcreview formats [-c FILE] --list\n"
	"\n"
	"Says, for every record of the inputs, which transcript format it was read as\n"
	"(its source, run id, messages, tool calls, results, failed calls and notes: what\n"
	"the loader kept without knowing it), or why it was not read: its load error, its\n"
	"parse error, or, when no format claims it, the formats that came closest with\n"
	"their loaders' own messages. Ends with a summary: records per format, records not\n"
	"read, notes.\n"
	"\n"
	"  -c, --config FILE   runs: id and format (default: ./tcreview.yaml when present)\n"
	"      --format NAME   read every record with this loader (see --help formats)\n"
	"      --allow-path PATH\n"
	"                      let the configuration name files in PATH (a file or a\n"
	"                      folder) outside its own folder (repeatable)\n"
	"      --json          one JSON object per record, then a summary object\n"
	"      --unread        only the records that were not read, and the totals\n"
	"      --list          every format known, built in or declared, and where it\n"
	"                      comes from\n"
	CLI_TRUST_USAGE
	"  -h, --help          this help; --help formats lists the transcript formats\n"
	"\n"
	"FILE may be a .json or .jsonl file, a folder (read recursively), or - for\n"
	"standard input. Exit status: 0 every record was read, 1 some were not,\n"
	"2 usage or configuration error, 3 an input could not be read, or none of its\n"
	"records.\n");
}

static void list_formats(FILE *out)
{
	fprintf(out, "transcript formats (detected per record unless --format is given):\n");
	for (size_t i = 0; format_table[i]; i++)
		fprintf(out, "  %-25s %s\n", format_table[i]->name, format_table[i]->summary);
}

struct formats_opts {
	struct cli_context *ctx;        /* the command's choices */
	const char *config, *format;
	bool json, unread_only, list;
};

/* --list: the built-in formats, then the declared ones with their file. */
static void list_known(const struct cli_context *x, FILE *out)
{
	/* One column wide enough for every name, built in or declared. */
	const struct declared_set *set = &x->declared;
	int width = 0;
	for (size_t i = 0; format_table[i]; i++)
		if ((int)strlen(format_table[i]->name) > width)
			width = (int)strlen(format_table[i]->name);
	for (size_t i = 0; i < set->n; i++)
		if ((int)strlen(set->v[i].name) > width)
			width = (int)strlen(set->v[i].name);
	for (size_t i = 0; format_table[i]; i++)
		fprintf(out, "%-*s  built in       %s\n", width, format_table[i]->name,
		        format_table[i]->summary);
	for (size_t i = 0; i < set->n; i++) {
		const struct declared_format *f = &set->v[i];
		fprintf(out, "%-*s  %-14s %s (%s:%d:%d)\n", width, f->name, f->where,
		        f->summary ? f->summary : f->run ? "declared with jq" : "declared with a converter",
		        f->origin, f->line, f->col);
	}
}

/* Reads the options; returns -1 to go on, else the exit status. */
static int formats_parse_args(int argc, char **argv, struct formats_opts *o)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "allow-path", required_argument, NULL, CLI_OPT_ALLOW_PATH },
		{ "format", required_argument, NULL, 'F' },
		{ "json", no_argument, NULL, 'J' },
		{ "unread", no_argument, NULL, 'U' },
		{ "list", no_argument, NULL, 'L' },
		CLI_TRUST_OPTIONS,
		{ "help", optional_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ch;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "c:h", longopts, NULL)) != -1) {
		if (cli_trust_option(o->ctx, ch, optarg))
			continue;
		switch (ch) {
		case 'c': o->config = optarg; break;
		case CLI_OPT_ALLOW_PATH:
			if (cli_allow_path(o->ctx, "tcreview formats", optarg) < 0)
				return EXIT_USAGE;
			break;
		case 'F': o->format = optarg; break;
		case 'J': o->json = true; break;
		case 'U': o->unread_only = true; break;
		case 'L': o->list = true; break;
		case 'h':
			if ((optarg && !strcmp(optarg, "formats")) ||
			    (!optarg && optind < argc && !strcmp(argv[optind], "formats")))
				list_formats(stdout);
			else
				formats_usage(stdout);
			return EXIT_DONE;
		default:
			formats_usage(stderr);
			return EXIT_USAGE;
		}
	}
	return -1;
}

static int resolve_format(struct cli_context *x, const struct config *c, const char *name,
                          const struct format_ops **forced)
{
	*forced = NULL;
	bool declared;
	int rc = cli_declare_formats(x, PROG, c, name, &declared);
	if (rc != EXIT_DONE || !name || declared)
		return rc;
	if ((*forced = format_find(name)))
		return EXIT_DONE;
	cli_unknown_format(&x->declared, PROG, name);
	return EXIT_USAGE;
}

static int open_inputs(const struct cli_context *x, struct dataset *ds, int argc, char **argv)
{
	char *stdin_only[] = { "-" };
	char *const *paths = argv + optind;
	size_t npaths = (size_t)(argc - optind);
	if (npaths == 0) {
		if (isatty(0)) {
			fprintf(stderr, PROG ": no input files (give FILE..., or - for standard input)\n");
			return EXIT_USAGE;
		}
		paths = stdin_only;
		npaths = 1;
	}
	struct error err = {0};
	if (cli_dataset_open(x, ds, paths, npaths, &err) < 0) {
		fprintf(stderr, PROG ": %s\n", err.msg);
		return EXIT_INPUT;
	}
	return EXIT_DONE;
}

/* ---- one record ---------------------------------------------------------- */

struct formats_pass {
	struct dataset *ds;
	const struct format_ops *forced;
	const char *id_path;
	const struct formats_opts *o;
	struct formats_tally *file_tally, *format_tally, all;
	size_t nformats;
	size_t analysed, not_analysed;
	struct formats_notes notes;
};

static size_t format_index(const struct formats_pass *p, const char *name)
{
	for (size_t i = 0; i < p->nformats; i++)
		if (!strcmp(cli_format_name(&p->o->ctx->declared, i), name))
			return i;
	return p->nformats;
}

static void count_calls(const struct run *r, struct formats_rec *fr)
{
	for (size_t i = 0; i < r->nmsgs; i++)
		fr->msgs += r->msgs[i].role != ROLE_NOTE;
	fr->calls = r->ncalls;
	fr->notes = r->nnotes;
	for (size_t i = 0; i < r->ncalls; i++) {
		const struct run_call *c = &r->calls[i];
		fr->results += c->has_result;
		fr->failed += c->is_error || c->state == CALL_FAILED;
	}
}

static void tally_add(struct formats_tally *t, const struct formats_rec *fr)
{
	t->records++;
	t->by_status[fr->status]++;
	t->calls += fr->calls;
	t->notes += fr->notes;
}

/* A parse error is "SOURCE: message (column N)"; the source is shown once. */
static void examine(struct formats_pass *p, const struct record_ref *rec)
{
	struct error err = {0};
	char src[1024];
	struct run *r = dataset_load_run(p->ds, rec, p->forced, p->id_path, &err);
	struct formats_rec fr = {
		.file = p->ds->files[rec->file].path,
		.line = rec->line,
		.index = (long)rec->index,
	};
	record_source(p->ds, rec, src, sizeof src);
	fr.source = src;
	if (!r) {
		fr.status = FORMATS_NOT_JSON;
		fr.error = err.msg + err.lead;   /* without the record's place, shown apart */
	} else {
		fr.source = r->source;
		fr.id = r->id;
		fr.error = r->load_error;
		bool known = format_find(r->format) || declared_find(&p->o->ctx->declared, r->format);
		fr.format = known ? r->format : NULL;
		count_calls(r, &fr);
		formats_notes_add(&p->notes, r);
		fr.status = !r->load_error ? FORMATS_READ : known ? FORMATS_LOAD_ERROR
		                                                   : FORMATS_NO_FORMAT;
	}
	if (fr.status == FORMATS_NO_FORMAT) {
		size_t in_file = p->file_tally[rec->file].by_status[FORMATS_NO_FORMAT];
		if (p->analysed < FORMATS_ANALYSED_MAX && in_file < FORMATS_ANALYSED_PER_FILE) {
			p->analysed++;
			fr.analysed = true;
			fr.nclosest = formats_closest(p->ds, rec, fr.closest, FORMATS_GUESSES,
			                              fr.ties, sizeof fr.ties);
			formats_shape(p->ds, rec, fr.shape, sizeof fr.shape);
		} else {
			p->not_analysed++;
		}
	}
	tally_add(&p->file_tally[rec->file], &fr);
	tally_add(&p->all, &fr);
	if (fr.format)
		tally_add(&p->format_tally[format_index(p, fr.format)], &fr);
	if (!p->o->unread_only || fr.status != FORMATS_READ)
		formats_write_rec(stdout, &fr, p->o->json);
	run_free(r);
}

/* ---- the pass ------------------------------------------------------------ */

static void file_done(const struct formats_pass *p, size_t f)
{
	const struct formats_tally *t = &p->file_tally[f];
	if (p->o->json || t->records < 2)
		return;
	if (p->o->unread_only && t->by_status[FORMATS_READ] == t->records)
		return;
	formats_write_file(stdout, p->ds->files[f].path, t);
}

/* The exit status the tallies call for, with a word on stderr for every
 * input of which nothing could be read. */
static int reading_status(const struct formats_pass *p)
{
	int rc = EXIT_DONE;
	for (size_t f = 0; f < p->ds->nfiles; f++) {
		const struct formats_tally *t = &p->file_tally[f];
		if (!t->records || t->by_status[FORMATS_READ])
			continue;
		fprintf(stderr, PROG ": %s: none of its %zu record%s could be read\n",
		        p->ds->files[f].path, t->records, t->records == 1 ? "" : "s");
		rc = EXIT_INPUT;
	}
	if (rc == EXIT_DONE && p->all.by_status[FORMATS_READ] < p->all.records)
		rc = EXIT_SOME_UNREAD;
	return rc;
}

static int formats_pass(struct dataset *ds, const struct format_ops *forced, const char *id_path,
                        const struct formats_opts *o)
{
	struct formats_pass p = { .ds = ds, .forced = forced, .id_path = id_path, .o = o };
	while (cli_format_name(&o->ctx->declared, p.nformats))
		p.nformats++;
	p.file_tally = xcalloc(ds->nfiles ? ds->nfiles : 1, sizeof(*p.file_tally));
	p.format_tally = xcalloc(p.nformats + 1, sizeof(*p.format_tally));
	if (!isatty(fileno(stdout)))
		setvbuf(stdout, NULL, _IOFBF, 1 << 18);
	struct dataset_cursor cur;
	struct record_ref rec;
	dataset_cursor_init(&cur);
	size_t file = SIZE_MAX;
	while (dataset_next(ds, &cur, &rec)) {
		if (rec.file != file && file != SIZE_MAX)
			file_done(&p, file);
		file = rec.file;
		examine(&p, &rec);
	}
	if (file != SIZE_MAX)
		file_done(&p, file);
	struct formats_summary s = {
		.nfiles = ds->nfiles, .files = ds->files, .file_tally = p.file_tally,
		.format_tally = p.format_tally, .all = p.all, .not_analysed = p.not_analysed,
		.notes = &p.notes, .declared = &o->ctx->declared,
	};
	formats_notes_sort(&p.notes);
	formats_write_summary(stdout, &s, o->json);
	fflush(stdout);
	int rc = reading_status(&p);
	free(p.file_tally);
	free(p.format_tally);
	formats_notes_free(&p.notes);
	return rc;
}

static int formats_main(struct cli_context *x, int argc, char **argv)
{
	struct formats_opts o = { .ctx = x };
	int rc = formats_parse_args(argc, argv, &o);
	if (rc >= 0)
		return rc;
	struct config c;
	if (cli_load_config(x, &c, o.config, optind < argc ? argv[optind] : NULL) < 0)
		return EXIT_USAGE;
	const struct format_ops *forced = NULL;
	struct dataset ds = { 0 };
	rc = resolve_format(x, &c, o.format ? o.format : c.format, &forced);
	if (rc == EXIT_DONE && o.list) {
		list_known(x, stdout);
		config_free(&c);
		return EXIT_DONE;
	}
	if (rc == EXIT_DONE)
		rc = open_inputs(x, &ds, argc, argv);
	if (rc == EXIT_DONE) {
		ds.forced = forced;
		rc = formats_pass(&ds, forced, c.run_id_path, &o);
	}
	dataset_close(&ds);
	config_free(&c);
	return rc;
}

int cli_formats(int argc, char **argv)
{
	struct cli_context x;
	cli_context_init(&x);
	int rc = formats_main(&x, argc, argv);
	cli_context_free(&x);
	return rc;
}
