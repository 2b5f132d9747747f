/* layers.h - which configuration files are read, and how the user's own
 * is merged under a project's.
 *
 * A project's tcreview.yaml is -c FILE, else the one in the current
 * folder, else the one beside the first input (in it, for a folder). The
 * user's file, $XDG_CONFIG_HOME/tcreview/config.yaml (else
 * ~/.config/tcreview/config.yaml), holds what belongs to a person: theme,
 * keys, reviewer and judges; the project wins where both say something.
 * With no project file the built-in checks, which need no ground truth,
 * score the runs. */
#ifndef TCR_CONFIG_LAYERS_H
#define TCR_CONFIG_LAYERS_H

#include <stdbool.h>
#include "config/config.h"
#include "util/error.h"

/* The files a load would read, in order. */
struct config_files {
	char *user;             /* the user's file's path (NULL: no HOME) */
	bool user_exists;
	char *project;          /* the project's file, NULL for the built-in checks */
	enum config_origin origin;
};

/* The built-in checks, as the YAML a project would write them. */
extern const char config_builtin_checks[];

/* Where the files are for `given` (-c, or NULL) and the first input (or
 * NULL). Free with config_files_free. */
void config_locate(const char *given, const char *first_input, struct config_files *out);
void config_files_free(struct config_files *f);

/* Loads what config_locate finds: the user's file (checked on its own, as
 * CONFIG_USER) merged under the project's (or the built-in checks), both
 * with opts (may be NULL; config.h). Returns 0, or -1 with
 * "FILE:LINE:COLUMN: message" in err. */
int config_load_layered(struct config *c, const struct config_opts *opts, const char *given,
                        const char *first_input, struct error *err);

/* Merges the user's configuration under c: its judges whose ids c does not
 * use, its theme when c has none, its keys for actions and keys c leaves
 * alone, its reviewer. Takes what it moves from user, which must still be
 * freed. */
void config_merge_user(struct config *c, struct config *user);

#endif
