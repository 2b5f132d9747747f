/* allowed_paths.h - the files outside a configuration's folder that the
 * user allowed that configuration to read, kept in the user's own folder.
 *
 * A configuration may come from someone else, so the files it names must
 * lie inside its folder (util/confine.h) unless the user allows more. A
 * file the user named to `tcreview init` has been allowed by that user:
 * init records it here, for the configuration it wrote, and every later
 * load of that configuration may read it without --allow-path. The record
 * lives in the user's folder, which no shared configuration can write, and
 * names the configuration by its resolved path, so a YAML arriving from
 * elsewhere (another path) still reads nothing outside its folder unasked.
 *
 * The file is $XDG_CONFIG_HOME/tcreview/allowed-paths (else
 * ~/.config/tcreview/allowed-paths): one allowance a line, the
 * configuration's path, a tab, the file's path, both absolute and
 * resolved; lines starting with '#' are comments. */
#ifndef TCR_CONFIG_ALLOWED_PATHS_H
#define TCR_CONFIG_ALLOWED_PATHS_H

#include <stddef.h>
#include "util/error.h"

/* The file's path (malloc'd), or NULL when neither XDG_CONFIG_HOME nor
 * HOME is set. */
char *config_allowed_paths_file(void);

/* Appends to *paths (malloc'd strings, *n of them, the array realloc'd)
 * the files recorded for the configuration at config_path (resolved here;
 * one that cannot be resolved has none). An absent file allows nothing.
 * Returns 0, or -1 with "FILE:LINE: message" in err for a line that is
 * not an allowance, or "FILE: reason" when it cannot be read. */
int config_allowed_for(const char *config_path, char ***paths, size_t *n, struct error *err);

/* Records that the configuration at config_path may read file (both must
 * exist; resolved now), creating the file and its folder when missing; an
 * allowance already there is not written twice. Returns 0, or -1 with the
 * reason in err (a path holding a tab or a line break cannot be recorded). */
int config_allow_record(const char *config_path, const char *file, struct error *err);

#endif
