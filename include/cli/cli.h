/* cli.h - subcommands and what they share (config lookup, the demo). */
#ifndef TCR_CLI_CLI_H
#define TCR_CLI_CLI_H

#include <limits.h>
#include <stdbool.h>
#include "config/config.h"
#include "judge/trust.h"
#include "runs/dataset.h"
#include "runs/declared.h"
#include "util/error.h"

/* Exit statuses, as documented in the man page. */
enum {
	EXIT_DONE = 0,
	EXIT_FAIL_UNDER = 1,
	EXIT_USAGE = 2,
	EXIT_INPUT = 3,
};

int cli_score(int argc, char **argv);
int cli_review(int argc, char **argv);
int cli_judge(int argc, char **argv);
int cli_stats(int argc, char **argv);
int cli_tags(int argc, char **argv);
int cli_export(int argc, char **argv);
int cli_formats(int argc, char **argv);
int cli_init(int argc, char **argv);
int cli_convert(int argc, char **argv);
int cli_groups(int argc, char **argv);
int cli_diff(int argc, char **argv);

#define CLI_ALLOW_MAX 64
/* A command's choices, gathered once from its options, the user's files
 * and the environment, and handed down to what it calls: no layer below
 * keeps them in a global, so two commands (or two tests) in one process
 * do not see each other's. Each command has one, from cli_context_init to
 * cli_context_free. */
struct cli_context {
	char *allowed[CLI_ALLOW_MAX];   /* --allow-path, resolved */
	size_t nallowed;
	const char *bad_allow_host;     /* the first --allow-host that is no host name */
	/* --allow-host, --allow-key-env and the user's allowed-hosts files;
	 * confirm_later on the screen, which asks (judge/trust.h). */
	struct judge_trust trust;
	bool user_trust_read;           /* the user's allowed-hosts files are in trust */
	/* The bundled data (examples/, prompts/, themes/, formats/):
	 * $TCREVIEW_DATADIR, else beside the binary, else the installed
	 * folder; NULL when none has it. */
	const char *datadir;
	char datadir_found[PATH_MAX];
	/* The declared formats in use (cli_declare_formats): the
	 * configuration's entries lent, the folders' owned from `owned` on;
	 * `use` is what the datasets opened next are tested against. */
	struct declared_set declared;
	size_t owned;
	struct declared_use use;
	bool walk_quiet;                /* no folder-walk warning: a screen owns the terminal */
};
void cli_context_init(struct cli_context *x);
void cli_context_free(struct cli_context *x);
/* Forgets the declared formats in use (cli_declare_formats). */
void cli_declared_reset(struct cli_context *x);
/* What a dataset opened under x is lent (runs/dataset.h); it points into x. */
struct dataset_opts cli_dataset_opts(const struct cli_context *x);
/* dataset_open_with under x. */
int cli_dataset_open(const struct cli_context *x, struct dataset *ds, char *const *paths,
                     size_t npaths, struct error *err);

/* --allow-host HOST and --allow-key-env NAME, taken by every subcommand
 * that reads the configuration (its judges are checked as it is read):
 * CLI_TRUST_OPTIONS goes in a getopt_long table (getopt.h included),
 * cli_trust_option handles their values (true when ch was one of them)
 * and CLI_TRUST_USAGE is their help. */
#define CLI_OPT_ALLOW_HOST 0x1001
#define CLI_OPT_ALLOW_KEY_ENV 0x1002
#define CLI_TRUST_OPTIONS \
	{ "allow-host", required_argument, NULL, CLI_OPT_ALLOW_HOST }, \
	{ "allow-key-env", required_argument, NULL, CLI_OPT_ALLOW_KEY_ENV }
#define CLI_TRUST_USAGE \
	"      --allow-host HOST   let judges send requests and keys to HOST (repeatable;\n" \
	"                          also one a line in ~/.config/tcreview/allowed-hosts)\n" \
	"      --allow-key-env NAME  let api_key_env name NAME though it does not end in\n" \
	"                          _KEY, _TOKEN or _SECRET (repeatable)\n"
bool cli_trust_option(struct cli_context *x, int ch, const char *arg);

/* --allow-path PATH (every command that reads a configuration, repeatable):
 * a file, or a folder of files, that the configuration may name although
 * it lies outside the configuration's folder. The long option's value: */
#define CLI_OPT_ALLOW_PATH 0x41500
/* The usage line that says so, the same in every command's --help. */
#define CLI_ALLOW_PATH_HELP \
	"      --allow-path PATH   let the configuration name files in PATH (a file or\n" \
	"                          a folder) outside its own folder; repeatable\n"
/* Adds PATH (resolved) to what cli_load_config allows under x. Returns 0,
 * or prints "PROG: --allow-path PATH: reason" and returns -1. */
int cli_allow_path(struct cli_context *x, const char *prog, const char *path);
/* Loads -c FILE, else ./tcreview.yaml, else tcreview.yaml beside the first
 * input, else the built-in checks, with the user's configuration merged
 * under it (config/layers.h). The files it names must lie inside its
 * folder or under x's --allow-path; its judges are checked against x's
 * trust, which they keep; the keys and theme readers are handed down.
 * Prints FILE:LINE:COLUMN: message and returns -1 on error. */
int cli_load_config(struct cli_context *x, struct config *c, const char *path,
                    const char *first_input);
/* The same, with the message in err instead of on standard error. */
int cli_load_config_err(struct cli_context *x, struct config *c, const char *path,
                        const char *first_input, struct error *err);
/* What cli_load_config lends config_load under x (its allow points into
 * *allow, which the caller keeps alive with it). */
struct config_opts cli_config_opts(struct cli_context *x, struct config_allow *allow);
struct format_ops;
struct expectations;
/* What every command does after loading the configuration: resolves the
 * forced format (--format, else runs.format) and loads the expectations
 * (--expect, else expectations.file). Prints "PROG: message" and returns
 * EXIT_USAGE or EXIT_INPUT on a problem, EXIT_DONE otherwise. */
int cli_setup(struct cli_context *x, const char *prog, const struct config *c,
              const char *format, const char *expect, const struct format_ops **forced,
              struct expectations **ex);
/* The expectations of c (--expect, else expectations.file), or NULL when c
 * has no expectations section. Returns 0, or -1 with the reason in err. */
int cli_load_expect(const struct config *c, const char *expect, struct expectations **ex,
                    struct error *err);

/* Who decides on the screen: --reviewer (given), else the user
 * configuration's reviewer, else `git config user.name`, else $USER (buf
 * holds git's answer). */
const char *cli_reviewer(const struct config *c, const char *given, char *buf, size_t n);

/* `tcreview --help config [-c FILE] [FILE]`: which configuration files a
 * command would read here, in order, and whether they are there. */
int cli_print_config_files(const char *given, const char *first_input);

struct declared_set;
/* Reads the formats declared in the user's formats folder and the data
 * folder's formats/ besides the configuration's, checks their names and
 * puts them to use for the inputs opened next (runs/declared.h); *declared
 * says that fmt names one of them, which then reads every input. Prints
 * the problem and returns EXIT_USAGE, else EXIT_DONE. */
int cli_declare_formats(struct cli_context *x, const char *prog, const struct config *c,
                        const char *fmt, bool *declared);
/* The same with the problem in err (0 or -1), for the screen's reload:
 * the configuration's formats are lent, so a new configuration is
 * declared before the old one is freed. */
int cli_declare_formats_err(struct cli_context *x, const struct config *c, const char *fmt,
                            bool *declared, struct error *err);
/* Format i of every format known, built-in then those of set (x->declared
 * after cli_declare_formats; NULL: none); NULL past the end. */
const char *cli_format_name(const struct declared_set *set, size_t i);
/* "unknown format 'NAME'" and the names known, built-in and set's. */
void cli_unknown_format(const struct declared_set *set, const char *prog, const char *name);
/* The program as the user ran it (argv[0]: "./tcreview" in the checkout,
 * "tcreview" from PATH), set by main, for the commands a report prints. */
void cli_set_prog(const char *argv0);
const char *cli_prog(void);
/* The task key runs are paired by: --task's value when given, else the
 * configuration's compare: {task:}; NULL when neither says (an id spec,
 * runs/runs_conf.h; a run's task is run_spec_text of it). */
const char *cli_task_spec(const char *task_opt, const struct config *c);
/* The width of the terminal fd is, when it is one whose size is known;
 * 0 otherwise (each writer has its own fallback for a pipe). */
size_t cli_tty_columns(int fd);
/* Whether --task's id spec is paths a record can be read by (a typo such
 * as "task_id[" would otherwise leave every run out, quietly but for a
 * line on stderr); false after saying why on stderr, PROG first. */
bool cli_task_option_ok(const char *prog, const char *spec);

void cli_print_version(void);

#endif
