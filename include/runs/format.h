/* format.h - the transcript format table.
 *
 * One loader per file in src/runs/formats/, one line in the table in
 * src/runs/formats.c. Detection asks every loader how sure it is that a
 * record is its format and takes the most confident one. */
#ifndef TCR_RUNS_FORMAT_H
#define TCR_RUNS_FORMAT_H

#include "runs/run.h"
#include "util/jdoc.h"

struct format_ops {
	const char *name;           /* used by --format and shown in the list */
	const char *summary;        /* one line for --help and the man page */
	/* 0 = not this format; higher means more specific. Must not modify. */
	int (*detect)(const struct jdoc *d, jv record);
	/* Fills r->msgs and r->calls from run_root(r) in r->doc. On a malformed record
	 * returns -1 and writes a message naming the field into err. */
	int (*load)(struct run *r, char *err, size_t errlen);
};

extern const struct format_ops *const format_table[];

const struct format_ops *format_find(const char *name);
const struct format_ops *format_detect(const struct jdoc *d, jv record);
/* Loads a record with the named loader (NULL = detect). On error returns -1
 * with a message in err; r->format is set either way. */
int format_load(struct run *r, const struct format_ops *forced, char *err, size_t errlen);

#endif
