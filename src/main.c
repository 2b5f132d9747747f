/* main.c - tcreview: argv to one subcommand, through the command table. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "review/keymap.h"
#include "util/xalloc.h"

/* A subcommand: its name on the command line, the function that runs it
 * with argv[0] its name, and its line in the usage text. Adding one is a
 * row here and a cli/cmd_NAME.c. */
struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "review", cli_review, "the review screen (the default when files, or none, are given)" },
	{ "score", cli_score, "score every run with the configured scorers (jsonl, table, junit)" },
	{ "judge", cli_judge, "ask the configured LLM judges about every run (jsonl)" },
	{ "stats", cli_stats, "agreement of scorers and judges with the reviewers' labels (calibration)" },
	{ "tags", cli_tags, "every failure-mode tag and free code with its runs and calls, and the aliases in effect" },
	{ "diff", cli_diff, "what a candidate fixed and broke against a baseline, task by task, per scorer" },
	{ "groups", cli_groups, "the runs in groups: the same tools called, the same first error, the same verdicts" },
	{ "export", cli_export, "write the labelled set: runs, verdicts, labels, splits (jsonl, csv, openai-ft)" },
	{ "convert", cli_convert, "write any readable runs as tcreview's own run format (jsonl)" },
	{ "formats", cli_formats, "which format each record is read as, or which came closest and why" },
	{ "init", cli_init, "propose a tcreview.yaml from your runs: ids, tools, verdicts, ground truth, judge" },
};

#define NCOMMANDS (sizeof commands / sizeof *commands)

static void usage(FILE *out)
{
	fprintf(out,
	"usage: tcreview [COMMAND] [OPTIONS] [FILE...]\n"
	"\n"
	"Review AI-agent runs: transcripts, code scorer verdicts, human decisions.\n"
	"\n"
	"commands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(out, "  %-10s%s\n", commands[i].name, commands[i].summary);
	fprintf(out,
	"\n"
	"With no file, the review screen opens on the bundled demo.\n"
	"`tcreview COMMAND --help` (or `tcreview --help COMMAND`) explains a command,\n"
	"`tcreview --help keys` lists the screen's keys, `tcreview --help config` says\n"
	"which configuration files are read, `tcreview --help formats` lists the\n"
	"transcript formats, `tcreview --version` prints the version and the libraries.\n");
}

static const struct command *command_find(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static int print_keys(bool man)
{
	struct keymap km;
	keymap_init_defaults(&km);
	keymap_print(&km, stdout, man);
	keymap_free(&km);
	return EXIT_DONE;
}

/* `--help config [-c FILE] [FILE]`: argv[0] is "config". */
static int help_config(int argc, char **argv)
{
	const char *given = NULL, *first = NULL;
	for (int i = 1; i < argc; i++) {
		if ((!strcmp(argv[i], "-c") || !strcmp(argv[i], "--config")) && i + 1 < argc)
			given = argv[++i];
		else if (!first)
			first = argv[i];
	}
	return cli_print_config_files(given, first);
}

/* `--help formats`: the transcript formats, as `tcreview formats --help
 * formats` lists them. */
static int help_formats(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	char *args[] = { "formats", "--help", "formats", NULL };
	return cli_formats(3, args);
}

static int help_keys(int argc, char **argv)
{
	return print_keys(argc > 1 && !strcmp(argv[1], "--man"));
}

/* A topic of `tcreview --help TOPIC`, run with argv[0] the topic. A
 * command's name is a topic too: its own --help. */
struct help_topic {
	const char *name;
	int (*show)(int argc, char **argv);
};

static const struct help_topic help_topics[] = {
	{ "keys", help_keys },
	{ "config", help_config },
	{ "formats", help_formats },
};

#define NTOPICS (sizeof help_topics / sizeof *help_topics)

static int help(int argc, char **argv)
{
	if (argc < 1) {
		usage(stdout);
		return EXIT_DONE;
	}
	for (size_t i = 0; i < NTOPICS; i++)
		if (!strcmp(help_topics[i].name, argv[0]))
			return help_topics[i].show(argc, argv);
	const struct command *cmd = command_find(argv[0]);
	if (cmd) {
		char *args[] = { argv[0], "--help", NULL };
		return cmd->run(2, args);
	}
	fprintf(stderr, "tcreview: no help on '%s'; the topics are", argv[0]);
	for (size_t i = 0; i < NTOPICS; i++)
		fprintf(stderr, " %s,", help_topics[i].name);
	fprintf(stderr, " and the commands:");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(stderr, " %s", commands[i].name);
	fprintf(stderr, "\n");
	return EXIT_USAGE;
}

/* --version and --help, or -1 when argv[1] is neither. */
static int global_option(int argc, char **argv)
{
	const char *opt = argv[1];
	if (!strcmp(opt, "--version") || !strcmp(opt, "-V")) {
		cli_print_version();
		return EXIT_DONE;
	}
	if (!strcmp(opt, "--help") || !strcmp(opt, "-h") || !strcmp(opt, "help"))
		return help(argc - 2, argv + 2);
	return -1;
}

/* Files or review options without a command open the screen; the review
 * options that may come first are -c and -a, and the long ones. */
static bool opens_screen(const char *arg, bool *bad_option)
{
	struct stat st;
	*bad_option = false;
	if (strcmp(arg, "-") != 0 && arg[0] != '-')
		return stat(arg, &st) == 0;
	if (arg[0] == '-' && strcmp(arg, "-") != 0 && !strchr("ca", arg[1]) &&
	    strncmp(arg, "--", 2) != 0)
		*bad_option = true;
	return true;
}

int main(int argc, char **argv)
{
	xalloc_install();
	cli_set_prog(argv[0]);
	if (argc < 2)
		return cli_review(argc, argv);
	int rc = global_option(argc, argv);
	if (rc >= 0)
		return rc;
	const struct command *cmd = command_find(argv[1]);
	if (cmd)
		return cmd->run(argc - 1, argv + 1);
	bool bad_option;
	if (opens_screen(argv[1], &bad_option) && !bad_option)
		return cli_review(argc, argv);
	if (bad_option)
		fprintf(stderr, "tcreview: unknown option '%s'\n", argv[1]);
	else
		fprintf(stderr, "tcreview: unknown command or file '%s'\n", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}
