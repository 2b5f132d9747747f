/* main.c - tcreview: argv to one subcommand. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "review/keymap.h"

static void usage(FILE *out)
{
	fprintf(out,
	"usage: tcreview [COMMAND] [OPTIONS] [FILE...]\n"
	"\n"
	"Review AI-agent runs: transcripts, code scorer verdicts, human decisions.\n"
	"\n"
	"commands:\n"
	"  review    the review screen (the default when files, or none, are given)\n"
	"  score     score every run with the configured scorers (jsonl, table, junit)\n"
	"  judge     ask the configured LLM judges about every run (jsonl)\n"
	"\n"
	"With no file, the review screen opens on the bundled demo.\n"
	"`tcreview COMMAND --help` explains a command, `tcreview --help keys` lists the\n"
	"screen's keys, `tcreview --version` prints the version and the libraries.\n");
}

static int print_keys(bool man)
{
	struct keymap km;
	keymap_init_defaults(&km);
	keymap_print(&km, stdout, man);
	keymap_free(&km);
	return EXIT_DONE;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return cli_review(argc, argv);
	const char *cmd = argv[1];
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V")) {
		cli_print_version();
		return EXIT_DONE;
	}
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
		if (argc > 2 && !strcmp(argv[2], "keys"))
			return print_keys(argc > 3 && !strcmp(argv[3], "--man"));
		usage(stdout);
		return EXIT_DONE;
	}
	if (!strcmp(cmd, "score"))
		return cli_score(argc - 1, argv + 1);
	if (!strcmp(cmd, "review"))
		return cli_review(argc - 1, argv + 1);
	if (!strcmp(cmd, "judge"))
		return cli_judge(argc - 1, argv + 1);
	/* Files or review options without a command open the screen. */
	struct stat st;
	if (!strcmp(cmd, "-") || cmd[0] == '-' || stat(cmd, &st) == 0) {
		if (cmd[0] == '-' && strcmp(cmd, "-") != 0 && !strchr("ca", cmd[1]) && strncmp(cmd, "--", 2) != 0) {
			fprintf(stderr, "tcreview: unknown option '%s'\n", cmd);
			usage(stderr);
			return EXIT_USAGE;
		}
		return cli_review(argc, argv);
	}
	fprintf(stderr, "tcreview: unknown command or file '%s'\n", cmd);
	usage(stderr);
	return EXIT_USAGE;
}
