/* run_format.h - tcreview's own run format (doc/run-format.md): its
 * version, the join its reader and writer share, and the writer.
 *
 * The reader is the loader `tcreview` (src/runs/formats/tcreview.c); the
 * writer (src/runs/run_write.c) turns any loaded run into one line of it,
 * always the same bytes for the same run, and such that reading the line
 * gives back the run the scorers, judges and the screen saw. */
#ifndef TCR_RUNS_RUN_FORMAT_H
#define TCR_RUNS_RUN_FORMAT_H

#include <stdbool.h>
#include <stddef.h>

#include "runs/run.h"
#include "util/strbuf.h"

/* The version this program reads and writes ("tcreview_run": 1). */
#define RUN_FORMAT_VERSION 1

/* The call a tool output joins when the record states nothing more: with
 * call_id, the nearest call before message mi with that id that has no
 * result yet; without, the first call before it that has neither an id nor
 * a result (*cursor, 0 at the start of a run, keeps where that search
 * stopped). answered[i] says whether call i has its result (NULL: its
 * has_result). Returns the call's index, or -1. */
long run_format_join_target(const struct run *r, size_t mi, const char *call_id,
                            const bool *answered, size_t *cursor);

/* A value to keep under the line's "fields": the path it was read at in
 * the run's record and the value (of r->doc). */
struct run_format_field {
	const char *path;
	jv value;
};

/* Appends r as one line of the run format, without the newline: members
 * in a fixed order, values as the record writes them (white space taken
 * out, terminal controls escaped, as util/jsonw writes strings). fields
 * (n of them, any order; a path given twice is kept once) become "fields",
 * sorted by path. A run read from the run format keeps its "source" and
 * "metadata". */
void run_format_write(struct strbuf *out, struct run *r, const struct run_format_field *fields,
                      size_t n);

#endif
