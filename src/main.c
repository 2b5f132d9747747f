/* main.c - tcreview: argv to one subcommand. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
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
	"With files and no command, tcreview prints their score table; with neither,\n"
	"it scores the bundled demo. `tcreview COMMAND --help` explains a command; `tcreview --version`\n"
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
	char cfg[4096], runs[4096], cwd[4096];
	/* Inside the source tree, show paths as a person there would type them. */
	size_t n = getcwd(cwd, sizeof cwd) ? strlen(cwd) : 0;
	if (n && !strncmp(dir, cwd, n) && (dir[n] == '/' || dir[n] == '\0'))
		dir = dir[n] ? dir + n + 1 : "";
	const char *sep = dir[0] ? "/" : "";
	snprintf(cfg, sizeof cfg, "%s%sexamples/scorers.yaml", dir, sep);
	snprintf(runs, sizeof runs, "%s%sexamples/runs", dir, sep);
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
	/* `tcreview FILE...` opens the review screen once it exists; until
	 * then it prints the score table of those files. */
	struct stat st;
	bool review_opt = !strcmp(cmd, "-c") || !strncmp(cmd, "--config", 8) ||
	                  !strncmp(cmd, "--expect", 8) || !strncmp(cmd, "--format", 8);
	if (!strcmp(cmd, "-") || review_opt || stat(cmd, &st) == 0) {
		char *args[argc + 3];
		args[0] = "score";
		args[1] = "-o";
		args[2] = "table";
		for (int i = 1; i < argc; i++)
			args[i + 2] = argv[i];
		args[argc + 2] = NULL;
		return cli_score(argc + 2, args);
	}
	if (cmd[0] == '-') {
		fprintf(stderr, "tcreview: unknown option '%s'\n", cmd);
		usage(stderr);
		return EXIT_USAGE;
	}
	fprintf(stderr, "tcreview: unknown command '%s'\n", cmd);
	usage(stderr);
	return EXIT_USAGE;
}
