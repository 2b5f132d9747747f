/* cmd_review.c - `tcreview [review] FILE...`: the review screen. */
#include <getopt.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "util/clock.h"
#include "runs/expect.h"
#include "runs/format.h"
#include "review/session.h"
#include "tui/tui.h"

static void review_usage(FILE *out)
{
	fprintf(out,
	"usage: tcreview [review] [-c FILE] [--expect FILE] [-a ANNOTATIONS] [--theme NAME]\n"
	"                [--reviewer NAME] [--format NAME] FILE...\n"
	"\n"
	"Opens the review screen: the runs, each run's timeline beside its verdicts,\n"
	"and the reviewer's decisions, saved to the annotations file as they are made.\n"
	"\n"
	"  -c, --config FILE       scorers, expectations, theme and keys (default ./tcreview.yaml)\n"
	"      --expect FILE       expectations file, instead of expectations.file\n"
	"  -a, --annotations FILE  where decisions go (default FIRST_INPUT.annotations.jsonl)\n"
	"      --theme NAME        dark (default), light or mono; NO_COLOR is respected\n"
	"      --reviewer NAME     who decides (default $USER)\n"
	"      --format NAME       read every record with this loader\n"
	"      --ca-file FILE      a private certificate authority for the judges\n"
	"      --max-iterations N  stop after N turns of the event loop (smoke tests)\n"
	"  -h, --help              this help; `tcreview --help keys` lists the keys\n"
	"\n"
	"With no FILE, the bundled demo opens. TCR_SCRIPT=FILE drives the screen from\n"
	"a file of keys and commands (see the man page).\n");
}

static const char *default_reviewer(void)
{
	const char *u = getenv("USER");
	if (u && *u)
		return u;
	struct passwd *pw = getpwuid(getuid());
	return pw && pw->pw_name ? pw->pw_name : "reviewer";
}

int cli_review(int argc, char **argv)
{
	double started = now_ms();
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "expect", required_argument, NULL, 'E' },
		{ "annotations", required_argument, NULL, 'a' },
		{ "theme", required_argument, NULL, 'T' },
		{ "reviewer", required_argument, NULL, 'R' },
		{ "format", required_argument, NULL, 'F' },
		{ "max-iterations", required_argument, NULL, 'M' },
		{ "ca-file", required_argument, NULL, 'A' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *config = NULL, *expect = NULL, *annot = NULL, *theme = NULL;
	const char *reviewer = NULL, *format = NULL, *ca_file = NULL;
	long max_iter = 0;
	int ch;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "c:a:h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'c': config = optarg; break;
		case 'E': expect = optarg; break;
		case 'a': annot = optarg; break;
		case 'T': theme = optarg; break;
		case 'R': reviewer = optarg; break;
		case 'F': format = optarg; break;
		case 'M': max_iter = strtol(optarg, NULL, 10); break;
		case 'A': ca_file = optarg; break;
		case 'h':
			review_usage(stdout);
			return EXIT_DONE;
		default:
			review_usage(stderr);
			return EXIT_USAGE;
		}
	}
	const char *script = getenv("TCR_SCRIPT");
	if (script && !*script)
		script = NULL;
	if (!isatty(1) && !script && max_iter <= 0) {
		fprintf(stderr, "tcreview: standard output is not a terminal, so there is no screen to "
		        "review on; for verdicts in a pipe or a file use `tcreview score`\n");
		return EXIT_USAGE;
	}

	char *demo_paths[1];
	char demo_cfg[4096], demo_runs[4096];
	char *const *paths = argv + optind;
	size_t npaths = (size_t)(argc - optind);
	const char *datadir = cli_datadir();
	if (npaths == 0) {
		if (!datadir) {
			fprintf(stderr, "tcreview: no FILE given and the demo (examples/) was not found\n");
			return EXIT_INPUT;
		}
		snprintf(demo_cfg, sizeof demo_cfg, "%s/examples/scorers.yaml", datadir);
		snprintf(demo_runs, sizeof demo_runs, "%s/examples/runs", datadir);
		if (!config)
			config = demo_cfg;
		demo_paths[0] = demo_runs;
		paths = demo_paths;
		npaths = 1;
	}

	struct config c;
	if (cli_load_config(&c, config) < 0)
		return EXIT_USAGE;
	int rc = EXIT_DONE;
	struct expectations *ex = NULL;
	struct review rv;
	bool rv_open = false;
	memset(&rv, 0, sizeof rv);
	const struct format_ops *forced = NULL;
	rc = cli_setup("tcreview", &c, format, expect, &forced, &ex);
	if (rc != EXIT_DONE)
		goto out;
	char err[1024];
	if (review_open(&rv, &c, ex, paths, npaths, annot, reviewer ? reviewer : default_reviewer(),
	                err, sizeof err) < 0) {
		fprintf(stderr, "tcreview: %s\n", err);
		rc = EXIT_INPUT;
		goto out;
	}
	rv_open = true;
	if (forced)
		rv.forced = forced;
	struct tui_opts o = {
		.theme = theme,
		.datadir = datadir,
		.script = script,
		.max_iterations = max_iter,
		.started_ms = started,
		.ca_file = ca_file,
	};
	rc = tui_run(&rv, &c, &o);
out:
	if (rv_open)
		review_close(&rv);
	expect_free(ex);
	config_free(&c);
	return rc;
}
