/* archive.h - transcripts that come packed: Inspect's .eval logs.
 *
 * An .eval file is a zip archive holding header.json (the eval's spec and
 * results, once the eval finished; _journal/start.json before) and one
 * samples/<id>_epoch_<n>.json per sample. It is read as the .json log
 * Inspect would have written: the header's members, then "samples": the
 * sample entries in the archive's order. The only user of libzip. */
#ifndef TCR_RUNS_ARCHIVE_H
#define TCR_RUNS_ARCHIVE_H

#include <stdbool.h>
#include <stddef.h>
#include "util/error.h"

/* Each entry, and the whole document, is refused past this size: a zip
 * bomb must not fill memory. */
#define ARCHIVE_MAX_BYTES ((size_t)4 << 30)

bool archive_is_eval(const char *path);
/* The document in a new buffer (free()) of *len bytes with `padding` zero
 * bytes after them. Returns 0, or -1 with "PATH: reason" (or
 * "PATH: ENTRY: reason") in err. */
int archive_read_eval(const char *path, size_t padding, char **buf, size_t *len, struct error *err);

#endif
