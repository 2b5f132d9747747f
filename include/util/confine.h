/* confine.h - whether a file a configuration names lies inside its folder.
 *
 * A configuration can come from someone else (a shared repository); the
 * files it names are read and may be sent to a judge's endpoint, so a
 * `prompt_file: ../../../../etc/shadow` must not be taken. A path is
 * placed after resolving every link (realpath): a link inside the folder
 * that points out is outside, a path that goes out and comes back in is
 * inside. The user may allow files or folders outside by name. */
#ifndef TCR_UTIL_CONFINE_H
#define TCR_UTIL_CONFINE_H

#include <stdbool.h>
#include <stddef.h>

enum path_place {
	PATH_INSIDE,        /* under the folder, links resolved */
	PATH_ALLOWED,       /* outside, but the file or under a folder the user allowed */
	PATH_OUTSIDE,       /* outside and not allowed: refuse it */
	PATH_UNRESOLVED,    /* cannot be resolved (missing, no access): let the read say why */
};

/* Whether real (an absolute path with no links, no "." or "..") is root
 * itself or lies under it. root is absolute and resolved too. */
bool path_under(const char *real, const char *root);

/* Where path (relative to the working folder, or absolute) lies against
 * folder and the allowed files or folders. folder and each allowed entry
 * are resolved here; an allowed entry that cannot be resolved allows
 * nothing. A folder that cannot be resolved holds nothing. */
enum path_place path_place(const char *path, const char *folder, const char *const *allow,
                           size_t nallow);

#endif
