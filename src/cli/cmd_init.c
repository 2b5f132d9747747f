/* cmd_init.c - `tcreview init`: a first tcreview.yaml proposed from the
 * user's own runs (config/propose.h), written atomically, and a report of
 * what was found ending with the command to run next. */
#include <getopt.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "config/allowed_paths.h"
#include "config/propose.h"
#include "judge/judge.h"
#include "judge/trust.h"
#include "util/error.h"

#define PROG "tcreview init"

static void init_usage(FILE *out)
{
	fprintf(out,
	"usage: tcreview init [-o FILE] [--force] [--max-records N] [--no-probe] FILE...\n"
	"\n"
	"Reads the inputs (all of a small one, the first records of a large one, and\n"
	"says so) and writes a commented configuration that loads and scores every run:\n"
	"a run id field that is unique, the tools called (a table in a comment), the\n"
	"verdicts the records carry (reward, score, Inspect's scores) as record-field\n"
	"scorers on the scale their values suggest, ground truth (expected tools or\n"
	"calls) in the records or in another input whose records join the runs (found\n"
	"by matching values) with tool-call-accuracy and trajectory-match scorers, the\n"
	"generic checks tool-errors and unanswered-calls, and a judge for the key\n"
	"variable that is set or the Ollama server that answers (commented out, saying\n"
	"what to set, when there is none). Then prints what it found and what to do next.\n"
	"\n"
	"  -o, --output FILE   where to write (default: ./tcreview.yaml, which every\n"
	"                      command reads unasked)\n"
	"  -f, --force         write over FILE when it exists\n"
	"      --max-records N read at most N records of each input (default %d)\n"
	"      --no-probe      do not ask http://localhost:11434 whether Ollama answers\n"
	"  -h, --help          this help\n"
	"\n"
	"FILE may be a .json or .jsonl file, a folder (read recursively) or an Inspect\n"
	".eval archive; give the file of expected calls beside the runs to have it\n"
	"joined. A file you name that lies outside the configuration's folder is\n"
	"recorded as one this configuration may read (~/.config/tcreview/allowed-paths),\n"
	"so no command needs --allow-path for it; other configurations still may not.\n"
	"Exit status: 0 written, 2 usage error or FILE exists, 3 an input could not be\n"
	"read, none of its records is a run, or FILE (or that record) could not be\n"
	"written.\n",
	PROPOSE_DEFAULT_RECORDS);
}

struct init_opts {
	const char *out;
	bool force, probe;
	size_t max_records;
};

/* Reads the options; returns -1 to go on, else the exit status. */
static int init_parse_args(int argc, char **argv, struct init_opts *o)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'f' },
		{ "max-records", required_argument, NULL, 'M' },
		{ "no-probe", no_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ch;
	char *end;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "o:fh", longopts, NULL)) != -1) {
		switch (ch) {
		case 'o': o->out = optarg; break;
		case 'f': o->force = true; break;
		case 'P': o->probe = false; break;
		case 'M':
			o->max_records = strtoul(optarg, &end, 10);
			if (*end || !*optarg || *optarg == '-' || o->max_records == 0) {
				fprintf(stderr, PROG ": --max-records takes a whole number above 0, not '%s'\n",
				        optarg);
				return EXIT_USAGE;
			}
			break;
		case 'h':
			init_usage(stdout);
			return EXIT_DONE;
		default:
			init_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind == argc) {
		fprintf(stderr, PROG ": no input given (tcreview init FILE...)\n");
		return EXIT_USAGE;
	}
	return -1;
}

static int init_main(struct cli_context *x, int argc, char **argv)
{
	struct init_opts o = { .out = "tcreview.yaml", .probe = true };
	int rc = init_parse_args(argc, argv, &o);
	if (rc >= 0)
		return rc;
	struct stat st;
	if (!o.force && lstat(o.out, &st) == 0) {
		fprintf(stderr, PROG ": %s exists already: --force writes over it, -o FILE writes "
		        "elsewhere\n", o.out);
		return EXIT_USAGE;
	}
	setlocale(LC_CTYPE, "");
	/* The check that a proposed judge loads reads its built-in prompt. */
	struct error err = {0};
	struct config_allow none;
	const struct config_opts load = cli_config_opts(x, &none);
	/* A host the user allowed before passes the judge's checks here as it
	 * will when the configuration is loaded. */
	if (judge_allow_load_user(&x->trust, &err) < 0) {
		fprintf(stderr, PROG ": %s\n", err.msg);
		return EXIT_USAGE;
	}
	/* A ground-truth file outside the YAML's folder was named here by the
	 * user: recorded as allowed for this YAML, where the user's own files
	 * are (without HOME, the report asks for --allow-path instead). */
	char *record = config_allowed_paths_file();
	const struct propose_opts po = { .out_path = o.out, .max_records = o.max_records,
	                                 .probe_local = o.probe, .prog = cli_prog(),
	                                 .allow_outside = record != NULL, .load = &load };
	free(record);
	struct proposal p;
	if (config_propose((const char *const *)argv + optind, (size_t)(argc - optind), &po, &p, &err) < 0) {
		fprintf(stderr, PROG ": %s\n", err.msg);
		return EXIT_INPUT;
	}
	if (config_proposal_write(&p, o.out, o.force, &err) < 0) {
		fprintf(stderr, PROG ": %s\n", err.msg);
		proposal_free(&p);
		return err.kind == ERR_EXISTS ? EXIT_USAGE : EXIT_INPUT;
	}
	rc = EXIT_DONE;
	if (p.outside && po.allow_outside && config_allow_record(o.out, p.outside, &err) < 0)
		rc = EXIT_INPUT;
	printf("wrote %s\n", o.out);
	fwrite(p.report.buf, 1, p.report.len, stdout);
	if (rc != EXIT_DONE)
		fprintf(stderr, PROG ": could not record that %s may read %s (%s): give --allow-path %s "
		        "to each command\n", o.out, p.outside, err.msg, p.outside);
	proposal_free(&p);
	return rc;
}

int cli_init(int argc, char **argv)
{
	struct cli_context x;
	cli_context_init(&x);
	int rc = init_main(&x, argc, argv);
	cli_context_free(&x);
	return rc;
}
