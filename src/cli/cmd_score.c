/* cmd_score.c - `tcreview score`: every scorer on every run, headless. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "runs/dataset.h"
#include "scorers/evaluate.h"
#include "scorers/params.h"
#include "runs/expect.h"
#include "runs/format.h"
#include "cli/report.h"
#include "cli/score_stream.h"
#include "util/xalloc.h"
#include "util/error.h"

static void score_usage(FILE *out)
{
	fprintf(out,
	"usage: tcreview score [-c FILE] [--expect FILE] [--format NAME] [-o jsonl|table|junit]\n"
	"                      [--task PATH] [--fail-under X] [-j N] [--allow-path PATH]...\n"
	"                      FILE...\n"
	"\n"
	"Scores every run of the inputs with every scorer of the configuration.\n"
	"\n"
	"  -c, --config FILE   scorers and expectations (default: ./tcreview.yaml)\n"
	"      --expect FILE   expectations file, instead of expectations.file\n"
	"      --allow-path PATH\n"
	"                      let the configuration name files in PATH (a file or a\n"
	"                      folder) outside its own folder (repeatable)\n"
	"      --format NAME   read every record with this loader (see --help formats)\n"
	"  -o, --output FMT    jsonl (default when stdout is not a terminal), table\n"
	"                      (default on a terminal) or junit\n"
	"      --task PATH     the task of each run (several paths: \"PATH PATH\"; default:\n"
	"                      compare: {task:}); then pass^k and pass@k of each scorer\n"
	"                      over the tasks' trials follow the verdicts (not in junit)\n"
	"      --fail-under X  exit 1 when a scorer's mean score is below X\n"
	"  -j, --jobs N        threads that read and score beside the one writing\n"
	"                      (default: one per core; 0 does everything in one)\n"
	CLI_TRUST_USAGE
	"  -h, --help          this help; --help formats lists the transcript formats\n"
	"\n"
	"FILE may be a .json or .jsonl file, a folder (read recursively), or - for\n"
	"standard input. Exit status: 0 done, 1 --fail-under not met, 2 usage or\n"
	"configuration error, 3 an input could not be read, or none of its records.\n");
}

static void list_formats(FILE *out)
{
	fprintf(out, "transcript formats (detected per record unless --format is given):\n");
	for (size_t i = 0; format_table[i]; i++)
		fprintf(out, "  %-18s %s\n", format_table[i]->name, format_table[i]->summary);
}

struct score_opts {
	struct cli_context *ctx;        /* the command's choices */
	const char *config;
	const char *expect;
	const char *format;
	const char *output;
	const char *task;           /* --task, else NULL */
	bool fail_under_set;
	double fail_under;
	int jobs;                   /* -1: one worker per core */
};

static int parse_number(const char *s, double *out)
{
	char *end;
	*out = strtod(s, &end);
	return (*s && !*end) ? 0 : -1;
}

/* Reads the options into o; returns -1 to go on, else the exit status
 * (after --help, or a usage error). */
static int score_parse_args(int argc, char **argv, struct score_opts *o)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "allow-path", required_argument, NULL, CLI_OPT_ALLOW_PATH },
		{ "expect", required_argument, NULL, 'E' },
		{ "format", required_argument, NULL, 'F' },
		{ "output", required_argument, NULL, 'o' },
		{ "task", required_argument, NULL, 'T' },
		{ "fail-under", required_argument, NULL, 'U' },
		{ "jobs", required_argument, NULL, 'j' },
		CLI_TRUST_OPTIONS,
		{ "help", optional_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ch;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "c:o:j:h", longopts, NULL)) != -1) {
		if (cli_trust_option(o->ctx, ch, optarg))
			continue;
		switch (ch) {
		case 'c': o->config = optarg; break;
		case CLI_OPT_ALLOW_PATH:
			if (cli_allow_path(o->ctx, "tcreview score", optarg) < 0)
				return EXIT_USAGE;
			break;
		case 'E': o->expect = optarg; break;
		case 'F': o->format = optarg; break;
		case 'o': o->output = optarg; break;
		case 'T':
			if (!cli_task_option_ok("tcreview score", optarg))
				return EXIT_USAGE;
			o->task = optarg;
			break;
		case 'U':
			if (parse_number(optarg, &o->fail_under) < 0) {
				fprintf(stderr, "tcreview score: --fail-under needs a number, not '%s'\n", optarg);
				return EXIT_USAGE;
			}
			o->fail_under_set = true;
			break;
		case 'j': {
			char *end;
			long n = strtol(optarg, &end, 10);
			if (!*optarg || *end || n < 0 || n > SCORE_WORKERS_MAX) {
				fprintf(stderr, "tcreview score: --jobs needs a number from 0 to %d, not '%s'\n",
				        SCORE_WORKERS_MAX, optarg);
				return EXIT_USAGE;
			}
			o->jobs = (int)n;
			break;
		}
		case 'h':
			if ((optarg && !strcmp(optarg, "formats")) ||
			    (!optarg && optind < argc && !strcmp(argv[optind], "formats")))
				list_formats(stdout);
			else
				score_usage(stdout);
			return EXIT_DONE;
		default:
			score_usage(stderr);
			return EXIT_USAGE;
		}
	}
	return -1;
}

/* Opens the inputs named after the options, or standard input when none
 * are and it is not a terminal. Returns the exit status on a problem. */
static int score_open_inputs(const struct cli_context *x, struct dataset *ds, int argc,
                             char **argv)
{
	char *stdin_only[] = { "-" };
	char *const *paths = argv + optind;
	size_t npaths = (size_t)(argc - optind);
	if (npaths == 0) {
		if (isatty(0)) {
			fprintf(stderr, "tcreview score: no input files (give FILE..., or - for standard input)\n");
			return EXIT_USAGE;
		}
		paths = stdin_only;
		npaths = 1;
	}
	struct error err = {0};
	if (cli_dataset_open(x, ds, paths, npaths, &err) < 0) {
		fprintf(stderr, "tcreview score: %s\n", err.msg);
		return EXIT_INPUT;
	}
	return EXIT_DONE;
}

/* Scores every run into the report; EXIT_FAIL_UNDER when a scorer's mean
 * is under --fail-under. */
static int score_report(struct dataset *ds, const struct config *c, const struct evaluator *ev,
                        const struct format_ops *forced, const struct report_ops *rep,
                        const struct score_opts *o)
{
	int rc = EXIT_DONE;
	struct score_stats *stats = calloc(c->nscorers, sizeof(*stats));
	/* Rows go out by the hundred thousand: a pipe or a file gets them in
	 * large writes (a terminal keeps its line buffering). */
	if (!isatty(fileno(stdout)))
		setvbuf(stdout, NULL, _IOFBF, 1 << 18);
	void *rep_state = rep->open(stdout, c);
	const char *task = cli_task_spec(o->task, c);
	struct score_reading reading = {
		.records = xcalloc(ds->nfiles ? ds->nfiles : 1, sizeof(size_t)),
		.read = xcalloc(ds->nfiles ? ds->nfiles : 1, sizeof(size_t)),
		.trials = task ? score_trials_new(task, c->nscorers) : NULL,
	};
	score_stream(ds, c, ev, forced, rep, rep_state, stats, &reading,
	             o->jobs >= 0 ? (unsigned)o->jobs : score_workers());
	rep->close(rep_state, stats);
	if (reading.trials) {
		score_trials_untasked_note(stderr, reading.trials);
		if (rep->trials)
			rep->trials(stdout, stderr, c, reading.trials);
		else
			fprintf(stderr, "tcreview score: pass^k is not written in %s output "
			        "(-o jsonl or -o table write it)\n", rep->name);
		score_trials_free(reading.trials);
	}
	/* A file of another format reads as a row of errors per record; the
	 * exit status must not call that done. */
	bool unread = false;
	for (size_t f = 0; f < ds->nfiles; f++) {
		if (!reading.records[f] || reading.read[f])
			continue;
		fprintf(stderr, "tcreview score: %s: none of its %zu record%s could be read "
		        "(see tcreview score --help formats)\n", ds->files[f].path,
		        reading.records[f], reading.records[f] == 1 ? "" : "s");
		unread = true;
	}
	free(reading.records);
	free(reading.read);
	if (o->fail_under_set) {
		for (size_t i = 0; i < c->nscorers; i++) {
			/* X is a share of each scorer's scale (0 at its min, 1 at its
			 * max): one X serves a 0..1 scorer and a 1..5 record-field. */
			struct scale span = scorer_span(&c->scorers[i]);
			double mean = stats[i].scored ? stats[i].sum / (double)stats[i].scored : span.lo;
			double share = span.hi > span.lo ? (mean - span.lo) / (span.hi - span.lo) : mean;
			if (share >= o->fail_under)
				continue;
			if (span.lo == 0 && span.hi == 1)
				fprintf(stderr, "tcreview score: %s: mean score %.3f is under %g\n",
				        c->scorers[i].id, mean, o->fail_under);
			else
				fprintf(stderr, "tcreview score: %s: mean score %.3f on %g..%g, %.3f of the "
				        "scale, is under %g\n", c->scorers[i].id, mean, span.lo, span.hi,
				        share, o->fail_under);
			rc = EXIT_FAIL_UNDER;
		}
	}
	free(stats);
	return unread ? EXIT_INPUT : rc;
}

static int score_main(struct cli_context *x, int argc, char **argv)
{
	struct score_opts o = { .ctx = x, .jobs = -1 };
	int rc = score_parse_args(argc, argv, &o);
	if (rc >= 0)
		return rc;
	const char *output = o.output ? o.output : (isatty(1) ? "table" : "jsonl");
	const struct report_ops *rep = report_find(output);
	if (!rep) {
		fprintf(stderr, "tcreview score: unknown output '%s' (expected one of: %s)\n",
		        output, report_names);
		return EXIT_USAGE;
	}

	struct config c;
	if (cli_load_config(x, &c, o.config, optind < argc ? argv[optind] : NULL) < 0)
		return EXIT_USAGE;
	struct expectations *ex = NULL;
	struct dataset ds = { 0 };
	const struct format_ops *forced = NULL;
	rc = cli_setup(x, "tcreview score", &c, o.format, o.expect, &forced, &ex);
	if (rc == EXIT_DONE && c.nscorers == 0) {
		fprintf(stderr, "tcreview score: no scorers configured: pass -c FILE or write "
		        "tcreview.yaml (see man tcreview)\n");
		rc = EXIT_USAGE;
	}
	if (rc == EXIT_DONE)
		rc = score_open_inputs(x, &ds, argc, argv);
	ds.forced = forced;
	if (rc == EXIT_DONE) {
		struct evaluator ev = { .scorers = c.scorers, .nscorers = c.nscorers, .expect = ex };
		rc = score_report(&ds, &c, &ev, forced, rep, &o);
	}
	dataset_close(&ds);
	expect_free(ex);
	config_free(&c);
	return rc;
}

int cli_score(int argc, char **argv)
{
	struct cli_context x;
	cli_context_init(&x);
	int rc = score_main(&x, argc, argv);
	cli_context_free(&x);
	return rc;
}
