/* format.h - the transcript format table.
 *
 * One loader per file in src/runs/formats/, one line in the table in
 * src/runs/formats.c. Detection asks every loader how sure it is that a
 * record is its format and takes the most confident one. */
#ifndef TCR_RUNS_FORMAT_H
#define TCR_RUNS_FORMAT_H

#include "runs/run.h"
#include "util/jdoc.h"
#include "util/error.h"

/* What one run is in a file of this format. */
enum format_unit {
	/* A JSONL line, a .json document, or an element of a .json array. */
	UNIT_RECORD = 0,
	/* The whole file: a JSONL file whose lines are the events of a run
	 * (Claude Code sessions, Codex rollouts) is read as one document, the
	 * JSON array of its lines (line N is element N-1 and starts on line N
	 * of the document; a line that is not JSON is null there, a blank line
	 * is no element); a .json document the format detects is not cut into
	 * elements. `split` may still cut it into several runs. */
	UNIT_FILE,
	/* Whatever the format that detects the file reads as a run (the reader
	 * by shape: forced on a file, it reads the runs detection would make,
	 * a Claude Code session whole, a JSONL of runs line by line). */
	UNIT_AS_DETECTED,
};

struct doc_groups;

struct format_ops {
	const char *name;           /* used by --format and shown in the list */
	const char *summary;        /* one line for --help and the man page */
	/* 0 = not this format; higher means more specific. Must not modify.
	 * A UNIT_FILE format is asked about single lines too (one of a file's
	 * first lines, to decide how the file is read) as well as about the
	 * whole document. */
	int (*detect)(const struct jdoc *d, jv record);
	enum format_unit unit;
	/* Container formats: cuts a whole document the format detected (a .json
	 * file, or a UNIT_FILE JSONL file as the array of its lines) into runs,
	 * calling doc_group_begin once per run and doc_group_add for each of
	 * its values, in the order they are to be read. A run of one value is
	 * that value's bytes (an Inspect log's samples[i]); a run of several is
	 * read as the JSON array of them (the spans of one trace, the lines of
	 * one session). Values may be listed in any order and in more than one
	 * run. NULL: the document is one run (UNIT_FILE) or is cut as usual. */
	void (*split)(const struct jdoc *d, jv root, struct doc_groups *out);
	/* Fills r->msgs and r->calls from run_root(r) in r->doc. On a malformed record
	 * returns -1 and writes a message naming the field into err. */
	int (*load)(struct run *r, struct error *err);
};

void doc_group_begin(struct doc_groups *g);
void doc_group_add(struct doc_groups *g, jv value);

extern const struct format_ops *const format_table[];

/* A detection score no other format can beat: detection stops there. */
#define FORMAT_DETECT_CERTAIN 1000

const struct format_ops *format_find(const char *name);
const struct format_ops *format_detect(const struct jdoc *d, jv record);
/* Loads a record with the named loader (NULL = detect). On error returns -1
 * with a message in err; r->format is set either way. */
int format_load(struct run *r, const struct format_ops *forced, struct error *err);

#endif
