/* folder_walk.h - the files under input folders, each folder and file read once.
 *
 * Folders are walked depth first, each folder's entries in strcmp order, and
 * links are followed; but every folder and file is known by its device and
 * inode, so a link back to a folder already read (`a -> .`, `up -> ..`) is
 * skipped with one warning, and a file reached by two paths (a link to it, a
 * hard link) is taken the first time only. The walk is thus bounded by the
 * folders and files really there, whatever the links. One walk may span
 * several folders (every folder input of one dataset), so a folder named
 * twice is read once too. */
#ifndef TCR_RUNS_FOLDER_WALK_H
#define TCR_RUNS_FOLDER_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "util/htab.h"
#include "util/error.h"

struct folder_walk {
	struct htab seen;       /* struct file_id * of every folder and file taken */
	FILE *warn;             /* where skipped loops are reported, or NULL */
	size_t loops;           /* folders skipped as already read */
	/* Whether a file is an input, by its name (never called for folders). */
	bool (*wanted)(const char *name);
	/* The files found, in walk order, as "dir/sub/name" (malloc'd; a
	 * caller may take one and leave NULL in its place). */
	char **paths;
	size_t npaths, cap;
};

void folder_walk_init(struct folder_walk *w, bool (*wanted)(const char *name), FILE *warn);
/* Appends the wanted files under dir not taken before to w->paths.
 * Returns 0, or -1 with "PATH: reason" in err when a folder cannot be
 * opened. Names starting with '.' are passed over, and so is what cannot
 * be stat'ed (a dangling link). */
int  folder_walk_dir(struct folder_walk *w, const char *dir, struct error *err);
/* Frees what the walk holds, the paths left in w->paths included. */
void folder_walk_free(struct folder_walk *w);

#endif
