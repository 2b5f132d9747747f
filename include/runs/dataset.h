/* dataset.h - transcript inputs: files, folders and stdin, as records.
 *
 * Files are memory-mapped, with one spare zero page mapped behind each so
 * every record, the last one included, has the readable padding the fast
 * parser (util/jdoc.h) needs without copying anything. A JSONL file is
 * split at newlines without parsing; a record is parsed only when asked
 * for. Streaming readers drop the pages they have passed so memory stays
 * bounded by the largest record, not by the file. A .json file is parsed
 * whole once to find its records (one run, or an array of runs), whose
 * byte ranges are then parsed one at a time like JSONL lines. */
#ifndef TCR_RUNS_DATASET_H
#define TCR_RUNS_DATASET_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include "runs/run.h"
#include "runs/format.h"
#include "util/jdoc.h"
#include "util/error.h"

struct declared_src;

enum input_kind {
	INPUT_JSONL,
	INPUT_JSON,
};

struct input_file {
	char *path;             /* as given, or found inside a given folder */
	enum input_kind kind;
	const char *data;       /* mapped (or read, for stdin) bytes, JDOC_PADDING readable after */
	size_t size;
	bool mapped;
	size_t map_len;         /* the whole mapping, spare page included */
	struct jdoc *doc;       /* INPUT_JSON: the parsed document, while its records are listed */
	bool doc_listed;        /* INPUT_JSON: its records are known (doc may be freed) */
	char *doc_error;        /* INPUT_JSON: why it did not parse */
	int doc_error_line;
	/* INPUT_JSON: the records' byte ranges, one per run. */
	struct record_ref *doc_recs;
	size_t ndoc_recs;
	/* The format that claimed the whole file (a UNIT_FILE or splitting
	 * format): its records are loaded with it unless --format says else. */
	const struct format_ops *container;
	bool sniffed;           /* INPUT_JSONL: its first lines were looked at */
	/* Read by a declared format (runs/declared.h): the bytes are its
	 * run-format JSONL, and each line's source in the input. */
	const char *declared;   /* the format's name, or NULL */
	struct declared_src *src;
	size_t nsrc;
};

/* One record: a JSONL line or an element of a JSON file. */
struct record_ref {
	uint32_t file;
	uint32_t line;          /* 1-based line (JSONL) or line where the element starts (JSON) */
	int64_t  index;         /* index in a JSON array, -1 otherwise */
	uint64_t off;           /* byte offset of the line, or of the JSON element */
	uint64_t len;           /* its length (without the line end) */
};

struct dataset {
	struct input_file *files;
	size_t nfiles;
	/* The record index, built by dataset_index_step (the screen) or left
	 * empty by streaming readers. */
	struct record_ref *recs;
	size_t nrecs, recs_cap;
	size_t index_file;      /* where indexing continues */
	uint64_t index_off;
	uint32_t index_line;    /* line counter inside that file */
	uint64_t index_dropped; /* bytes of that file already released */
	bool indexed;
	uint64_t bytes_total;   /* sum of input sizes, for progress */
	uint64_t bytes_indexed;
	/* --format: set after dataset_open, before reading, so a JSONL file is
	 * read as the events of one run when the forced format says so. */
	const struct format_ops *forced;
	/* The declared formats its inputs were tested against, lent by
	 * dataset_open_with's caller (NULL: none). */
	const struct declared_use *declared;
	/* A large record the format sniffing parsed, handed to the load that
	 * asks for it so that it is not parsed twice (one at a time; taken
	 * and put with atomic exchanges, as workers load records at once). */
	struct kept_doc *kept;
};

/* Opens every path (files, folders read recursively in sorted order, "-"
 * for stdin). Folders are walked by device and inode (runs/folder_walk.h):
 * each folder and file under them once, a link back to a folder already
 * read skipped with a warning on stderr. Returns 0, or -1 with "PATH: reason" in err when an input
 * cannot be read. Folders contribute .json, .jsonl, .ndjson, .traj and
 * .eval files, and never our own .annotations.jsonl / .judgements.jsonl
 * files.
 *
 * How a file becomes records: a JSONL file whose first lines a UNIT_FILE
 * format detects (or that --format names) is read as one document, the
 * array of its lines; a .json document (or such a file) that a splitting
 * format detects is cut by it (runs/format.h); else a JSONL line is a
 * record and a .json file is one run or an array of runs. An Inspect .eval
 * archive reads as its .json log would (runs/archive.h). */
int  dataset_open(struct dataset *ds, char *const *paths, size_t npaths, struct error *err);

struct declared_use;
/* What the command lends a dataset as it opens: every member may be zero. */
struct dataset_opts {
	/* The declared formats its inputs are tested against (runs/declared.h;
	 * NULL: none); it must outlive the dataset. */
	const struct declared_use *declared;
	/* The folder walk's warnings (a link back to a folder already read)
	 * are not given: a screen owns the terminal, and they were given when
	 * its inputs were first opened. Else they go to standard error. */
	bool walk_quiet;
};
/* dataset_open with opts (NULL: dataset_open's defaults). */
int  dataset_open_with(struct dataset *ds, const struct dataset_opts *opts, char *const *paths,
                       size_t npaths, struct error *err);
void dataset_close(struct dataset *ds);

/* Extends the index by about `budget` bytes; returns true while more remains. */
bool dataset_index_step(struct dataset *ds, uint64_t budget);
void dataset_index_all(struct dataset *ds);

/* Streaming: visits every record in order without keeping an index. */
struct dataset_cursor {
	size_t file;
	uint64_t off;
	uint32_t line;
	size_t elem;
	uint64_t dropped;       /* bytes of the current file already released */
	bool doc_reported;
};
void dataset_cursor_init(struct dataset_cursor *cur);
/* Fills rec and returns true, or returns false at the end. */
bool dataset_next(struct dataset *ds, struct dataset_cursor *cur, struct record_ref *rec);

/* The record's tape, or NULL with "FILE:LINE: message (column N)". */
struct jdoc *dataset_parse_doc(struct dataset *ds, const struct record_ref *rec, struct error *err);
/* The record's JSON as a jansson tree (new reference), or NULL as above:
 * for callers that want the whole tree anyway. */
json_t *dataset_parse(struct dataset *ds, const struct record_ref *rec, struct error *err);

/* The SHA-256 of the record's bytes, so a label knows when the run it was
 * made on has changed: for a JSONL line, the line's bytes as indexed (no
 * line end); for a .json file, parsed whole with no byte range kept, the
 * compact JSON text of the element (or of the document when it is one run),
 * as json_dumps(JSON_COMPACT | JSON_ENCODE_ANY) writes it, keys in the
 * file's order. Returns 0, or -1 when the JSON file does not parse. */
int dataset_record_hash(struct dataset *ds, const struct record_ref *rec, char out[65]);
/* The same as 32 raw bytes, for callers that keep one per record. */
int dataset_record_hash_raw(struct dataset *ds, const struct record_ref *rec,
                            unsigned char out[32]);

/* "FILE:LINE" or "FILE[INDEX]" for messages. */
void record_source(const struct dataset *ds, const struct record_ref *rec, char *buf, size_t n);

/* Parses and loads a record into a run: detects (or uses `forced`) its
 * format, names it from `id_path` (else id, runId, run_id, else its source).
 * When the JSON does not parse returns NULL with "FILE:LINE: message" in
 * err. A record that parses but is malformed for its format still gives a
 * named run, with run->load_error saying what is wrong. */
struct run *dataset_load_run(struct dataset *ds, const struct record_ref *rec,
                             const struct format_ops *forced, const char *id_path,
                             struct error *err);

#endif
