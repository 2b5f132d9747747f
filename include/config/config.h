/* config.h - the YAML configuration: run ids, expectations, scorers, judges.
 *
 * Parsed with libyaml. Every error is reported as FILE:LINE:COLUMN: message
 * before any work starts (the caller exits with status 2). */
#ifndef TCR_CONFIG_H
#define TCR_CONFIG_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include "runs/expect.h"
#include "scorers/scorer.h"

/* One scorer parameter as written: a literal, or {from: PATH, default: V}. */
struct param {
	char *name;
	json_t *literal;        /* set for a literal (owned) */
	char *from;             /* set for a reference: the path as written */
	bool from_expected;     /* the path starts with "expected." */
	const char *from_path;  /* the path without the "expected." prefix */
	json_t *deflt;          /* default when the reference finds nothing (owned) */
	int line, col;
};

struct scorer_conf {
	char *id;
	const struct scorer_ops *ops;
	struct param *params;
	size_t nparams;
	double threshold;
	char hash[17];          /* 64-bit hash of type and parameters, hex */
	int line, col;
};

/* keys: {ACTION: "KEY KEY"} from the YAML, checked against the action
 * table and the key names (keymap.h) at load. */
struct judge_conf;

struct key_conf {
	char *action;
	char *keys;             /* space-separated key names */
	int line, col;
};

struct config {
	char *path;             /* NULL for the built-in empty configuration */
	char *dir;              /* folder of the YAML, for relative paths */
	char *run_id_path;      /* runs: {id: PATH}, NULL when unset */
	char *format;           /* runs: {format: NAME}, NULL when unset */
	bool has_expect;
	struct expect_conf expect;
	struct scorer_conf *scorers;
	size_t nscorers;
	struct judge_conf *judges;  /* judges: (judge/judge.h) */
	size_t njudges;
	char *theme;            /* theme: NAME, NULL when unset */
	struct key_conf *keys;
	size_t nkeys;
};

/* Returns 0, or -1 with "FILE:LINE:COLUMN: message" in err. */
int  config_load(struct config *c, const char *path, char *err, size_t errlen);
/* Same, from a string; `name` is used in messages and `dir` for relative paths. */
int  config_load_string(struct config *c, const char *name, const char *dir,
                        const char *text, size_t len, char *err, size_t errlen);
void config_free(struct config *c);

/* Resolves a scorer's parameters for one run into a new JSON object. A
 * reference that finds nothing (and has no default) leaves its parameter
 * absent and is described in *unset (malloc'd, NULL when none). */
json_t *config_resolve_params(const struct scorer_conf *sc, json_t *record, json_t *expected,
                              const char *expect_miss, char **unset);

#endif
