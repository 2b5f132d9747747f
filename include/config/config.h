/* config.h - the YAML configuration: a table of sections (runs,
 * expectations, scorers, judges, compare, theme, keys), each read by its owner.
 *
 * Parsed with libyaml (conf/). Every error is reported as
 * FILE:LINE:COLUMN: message before any work starts (the caller exits with
 * status 2). */
#ifndef TCR_CONFIG_CONFIG_H
#define TCR_CONFIG_CONFIG_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include "annot/vocab.h"
#include "conf/conf.h"
#include "runs/declared.h"
#include "runs/expect.h"
#include "scorers/params.h"
#include "util/error.h"

struct judge_conf;

/* keys: {ACTION: "KEY KEY"} from the YAML, read and checked against the
 * action table and the key names by review/keymap.c's reader at load. */
struct key_conf {
	char *action;
	char *keys;             /* space-separated key names */
	int line, col;
};

/* compare: [[SCORER-ID, JUDGE-ID], ...]: the code-vs-judge pairs the
 * calibration figures report (every pair when the section is absent). */
struct compare_conf {
	char *scorer, *judge;
	int scorer_line, scorer_col;    /* where each id is written, for messages */
	int judge_line, judge_col;
};

/* The two kinds of configuration file: a project's tcreview.yaml, beside
 * its runs, and the user's own (theme, keys, reviewer, judges), read
 * under it wherever they review (config/layers.h). */
enum config_scope {
	CONFIG_PROJECT,
	CONFIG_USER,
};

/* How the project's configuration was found (config/layers.h). */
enum config_origin {
	CONFIG_BUILTIN,         /* none found: the built-in checks that need no ground truth */
	CONFIG_GIVEN,           /* -c FILE */
	CONFIG_HERE,            /* tcreview.yaml in the current folder */
	CONFIG_BESIDE,          /* tcreview.yaml beside (or in) the first input */
};

struct config {
	char *path;             /* NULL for a built-in configuration */
	char *dir;              /* folder of the YAML, for relative paths */
	char *run_id_path;      /* runs: {id: PATH}, NULL when unset */
	char *format;           /* runs: {format: NAME}, NULL when unset */
	bool has_expect;
	struct expect_conf expect;
	struct scorer_conf *scorers;
	size_t nscorers;
	struct judge_conf *judges;  /* judges: (judge/judge.h), those that judge one run */
	size_t njudges;
	struct judge_conf *pair_judges; /* the judges: that compare two runs (rubric
	                                 * pairwise), kept out of every per-run list */
	size_t npair_judges;
	struct compare_conf *compare;   /* compare:, checked against the ids at load */
	size_t ncompare;
	bool has_compare;       /* pairs are given (even none at all) */
	char *compare_task;     /* compare: {task: PATH or [PATH, ...]} as an id spec; NULL when unset */
	char *theme;            /* theme: NAME, NULL when unset */
	struct key_conf *keys;
	size_t nkeys;
	char *reviewer;         /* reviewer: NAME (the user's file only), NULL when unset */
	struct declared_set formats;    /* formats: declared as data (runs/declared.h) */
	struct vocab vocab;             /* tags: and call_labels: (annot/vocab.h) */
	/* Set by config_load_layered: how the project's file was found, and
	 * the user's file read under it (NULL when there is none). */
	enum config_origin origin;
	char *user_path;
};

/* The files or folders outside the configuration's folder that the files
 * it names (prompt_file, expectations' file) may resolve into: what the
 * user allowed on the command line (--allow-path), handed down as data. */
struct config_allow {
	const char *const *paths;
	size_t n;
};

/* Reads one section's value into the configuration. Returns 0, or -1 after
 * conf_fail. */
typedef int (*config_reader)(struct conf *cf, const struct conf_node *value, struct config *c);

/* The reader of a section whose owner stands above config/ in the layer
 * order ("keys": review/keymap.c, "theme": tui/theme.c), handed down by
 * the caller so that it is read and checked at load like the others. A
 * section in the table with no reader given is accepted unread. */
struct config_section_reader {
	const char *section;
	config_reader read;
};

struct judge_trust;
/* What the command lends a load; every member may be NULL (NULL opts:
 * all of them). */
struct config_opts {
	const struct config_allow *allow;  /* outside the folder: nothing */
	const struct config_section_reader *readers;   /* ended by { NULL, NULL } */
	struct judge_trust *trust;      /* the judges' allowances (judge/trust.h),
	                                 * which each judge keeps: nothing allowed */
	const char *datadir;            /* holds prompts/: the installed folder */
};

/* Returns 0, or -1 with "FILE:LINE:COLUMN: message" in err. The files the
 * configuration names must resolve (links followed) inside its folder or
 * under one of opts->allow's paths. */
int  config_load(struct config *c, const struct config_opts *opts, const char *path,
                 struct error *err);
/* config_load for a file of the given kind: a section that belongs in the
 * other kind is refused at its key. */
int  config_load_scoped(struct config *c, const struct config_opts *opts, const char *path,
                        enum config_scope scope, struct error *err);
/* A project's file read over the user's configuration (NULL: none), whose
 * judges its compare: pairs may then name. */
int  config_load_under(struct config *c, const struct config_opts *opts, const char *path,
                       const struct config *user, struct error *err);
/* Same, from a string; `name` is used in messages and `dir` for relative
 * paths. The text is the program's own or a test's: its files are not
 * confined to dir (opts->allow is not read). */
int  config_load_string(struct config *c, const struct config_opts *opts, const char *name,
                        const char *dir, const char *text, size_t len, struct error *err);
void config_free(struct config *c);

/* Whether the code-vs-judge pair of this scorer and judge is reported:
 * always without a compare: section, else only when it names the pair. */
bool config_compares(const struct config *c, const char *scorer_id, const char *judge_id);

#endif
