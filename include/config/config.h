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
#include "scorers/params.h"

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

#endif
