/* jsonl_log.h - a locked append-only file of JSON lines, shared by the
 * annotations file and the judge cache.
 *
 * The log reads the file line by line and hands each parsed line to its
 * owner's `take`; it counts lines, reports broken ones as "FILE:LINE: ..."
 * (up to a limit, then only a count), and appends one whole line with one
 * write() on an O_APPEND descriptor under flock(), then fsync().
 *
 * A line counts once its '\n' is there: an unlocked reader may see the
 * first part of a line another process is still writing. Only a reader
 * holding the lock knows that bytes without a '\n' are the remains of a
 * writer that died; they are read then, and the next append ends them
 * with a '\n' before its own line so the file never joins two lines.
 * A log must not be used across fork(): the child would share the
 * parent's lock, so each process opens its own. */
#ifndef TCR_UTIL_JSONL_LOG_H
#define TCR_UTIL_JSONL_LOG_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>
#include "util/error.h"

struct jsonl_log;

/* What the owner of a log says about its lines. */
struct jsonl_reader {
	/* Takes one parsed line; false with the reason in why when the line
	 * is not one the owner can use (it is then reported as skipped). */
	bool (*take)(void *ctx, json_t *line, char *why, size_t whylen);
	void *ctx;
	/* Beyond this many warnings the rest are only counted: a wrong file
	 * (not this owner's at all) must not produce megabytes of them. */
	size_t warn_max;
	/* An unended last line read under the lock is parsed like any other
	 * (true) or always reported as truncated (false). */
	bool parse_unended;
	/* Each append first reads what other processes appended (true), so
	 * memory holds the file in file order; or memory gets only this
	 * process's own lines after the first read (false). */
	bool follow;
};

/* The warning for a last line left unended by a writer that died. */
#define JSONL_TRUNCATED "truncated last line skipped (the program was stopped while writing?)"

/* Opens (creating if missing) and reads the whole file under a shared
 * lock. NULL with "PATH: reason" in err. The reader is copied. */
struct jsonl_log *jsonl_log_open(const char *path, const struct jsonl_reader *rd,
                                 struct error *err);
/* Opens an existing file for reading only (a colleague's, perhaps not
 * writable by us) and reads it like jsonl_log_open; jsonl_log_refresh
 * follows it, jsonl_log_append refuses. NULL with "PATH: reason" in err
 * when it is missing or unreadable. */
struct jsonl_log *jsonl_log_open_readonly(const char *path, const struct jsonl_reader *rd,
                                          struct error *err);
/* Like jsonl_log_open, but a missing file is not created now: the first
 * jsonl_log_append creates it (and syncs its folder), so opening and
 * closing leaves no file behind. When it is missing, its folder must exist
 * and be writable (checked now, without creating anything: NULL with
 * "PATH: cannot be created: ..." in err otherwise). A refresh reads a file
 * another process created since. */
struct jsonl_log *jsonl_log_open_lazy(const char *path, const struct jsonl_reader *rd,
                                      struct error *err);
void jsonl_log_close(struct jsonl_log *log);
const char *jsonl_log_path(const struct jsonl_log *log);

/* Warnings collected while reading, one per line, or NULL. */
const char *jsonl_log_warning(const struct jsonl_log *log);

/* Reads lines other processes appended since the last read, without the
 * lock. Returns how many lines were taken. */
size_t jsonl_log_refresh(struct jsonl_log *log);

/* Appends `line` (one JSON text without '\n') and syncs it. Returns 0 once
 * it is on disk, -1 with "PATH: reason" in err. The line is not handed to
 * take: the owner adds what it already parsed. DEL and the C1 and bidi
 * controls it holds are written as \u escapes (util/jsonw.h, jsonw_inert),
 * the same value read back, so no log can drive a terminal. */
int jsonl_log_append(struct jsonl_log *log, const char *line, size_t len,
                     struct error *err);
/* Appends `nlines` lines joined by '\n' (no '\n' after the last) with one
 * write() and one fsync(), under one lock: lines that belong together
 * (one decision made for many runs) reach the file together. */
int jsonl_log_append_lines(struct jsonl_log *log, const char *lines, size_t len,
                           size_t nlines, struct error *err);

#endif
