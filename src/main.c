/* main.c - tcreview: argv to one subcommand. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static void usage(FILE *out)
{
	fprintf(out,
	"usage: tcreview [COMMAND] [OPTIONS] [FILE...]\n"
	"\n"
	"Review AI-agent runs: transcripts, code scorer verdicts, human decisions.\n"
	"\n"
	"commands:\n"
	"  score     score every run with the configured scorers (jsonl, table, junit)\n"
	"\n"
	"With no command and no file, tcreview scores the bundled demo and prints\n"
	"its table. `tcreview COMMAND --help` explains a command; `tcreview --version`\n"
	"prints the version and the libraries it was built with.\n");
}

/* The bundled demo: examples/ with its scorers. */
static int run_demo(void)
{
	const char *dir = cli_datadir();
	if (!dir) {
		fprintf(stderr, "tcreview: the demo data (examples/) was not found; set TCREVIEW_DATADIR\n");
		return EXIT_INPUT;
	}
	char cfg[4096], runs[4096];
	snprintf(cfg, sizeof cfg, "%s/examples/scorers.yaml", dir);
	snprintf(runs, sizeof runs, "%s/examples/runs", dir);
	char *args[] = { "score", "-c", cfg, "-o", "table", runs, NULL };
	return cli_score(6, args);
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return run_demo();
	const char *cmd = argv[1];
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V")) {
		cli_print_version();
		return EXIT_DONE;
	}
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
		usage(stdout);
		return EXIT_DONE;
	}
	if (!strcmp(cmd, "score"))
		return cli_score(argc - 1, argv + 1);
	if (cmd[0] == '-') {
		fprintf(stderr, "tcreview: unknown option '%s'\n", cmd);
		usage(stderr);
		return EXIT_USAGE;
	}
	fprintf(stderr, "tcreview: unknown command '%s'\n", cmd);
	usage(stderr);
	return EXIT_USAGE;
}
