/* store.h - the annotations file: every reviewer decision, append-only.
 *
 * One JSON object per line (schema v2):
 *   {"v":2,"run","source","run_hash","scorer","scorer_type","model",
 *    "prompt_hash","machine_score","machine_passed","decision","score",
 *    "reason","reviewer","blind","at","config"}
 * `decision` is accept, override, retract or note; `at` is ISO-8601 UTC;
 * `config` is the scorer configuration's hash; `run_hash` the SHA-256 (hex)
 * of the run record's bytes when it was decided, so a label on a run that
 * changed since is known to be stale; `model` and `prompt_hash` are a judge
 * row's (null for a code scorer); `blind` is true when the reviewer decided
 * without seeing the machine's verdict. A note concerns the run, so its
 * scorer fields are null. Version 1 lines (no run_hash, model, prompt_hash
 * or blind) read as before, with those fields absent.
 *
 * Several files may be read into one store (each reviewer may keep one):
 * all are read and followed, the first is the one written to. Per (run,
 * scorer, reviewer) the standing decision is replayed in each file's
 * order; when two files both hold one for the same triple, the later `at`
 * wins (the first file on a tie).
 *
 * Each decision is written as one whole line with one write() on an
 * O_APPEND descriptor under flock(), then fsync(), before annot_append
 * returns 0: only then may the screen call it saved. The file is never
 * rewritten. Two reviewers may share a file; their lines never interleave.
 * A store must not be used across fork(): the child would share the
 * parent's lock, so each process opens its own.
 */
#ifndef TCR_ANNOT_STORE_H
#define TCR_ANNOT_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include "util/error.h"

enum decision_kind {
	DEC_ACCEPT,
	DEC_OVERRIDE,
	DEC_RETRACT,        /* takes back the latest standing decision on that verdict */
	DEC_NOTE,           /* a comment on the run; not a verdict decision */
};

struct decision {
	enum decision_kind kind;
	const char *run;            /* run id */
	const char *source;         /* FILE:LINE */
	const char *scorer;         /* scorer id; NULL for a note */
	const char *scorer_type;    /* NULL for a note */
	bool has_machine_score;
	double machine_score;
	bool has_machine_passed;
	bool machine_passed;
	bool has_score;             /* accept: the machine score; override: the human one */
	double score;
	const char *reason;         /* override reason or note text; NULL when none */
	const char *reviewer;
	const char *at;             /* ISO-8601 UTC, e.g. 2026-12-01T09:30:00Z */
	const char *config;         /* scorer config hash; NULL for a note */
	const char *run_hash;       /* 64 hex digits; NULL when unknown (v1 lines) */
	const char *model;          /* a judge row's model ("openai/gpt-4o"); else NULL */
	const char *prompt_hash;    /* a judge row's prompt hash; else NULL */
	bool blind;                 /* decided with the machine's verdict hidden */
	unsigned file;              /* index of the file it was read from (0: the written one) */
};

struct annot_store;

/* Opens and reads the file. A missing file is created by the first
 * annot_append, not before (opening and closing leaves nothing behind),
 * but its folder must exist and be writable now. A line that does not
 * parse is skipped and reported through annot_warning (a truncated last
 * line after a crash, typically); everything before it is kept. Returns
 * NULL with "PATH: reason" in err when the file cannot be opened, or could
 * not be created. */
struct annot_store *annot_open(const char *path, struct error *err);
/* Opens several files into one store: paths[0] is written to (created at
 * the first decision, as annot_open does); the others must exist and are only read (and followed). */
struct annot_store *annot_open_many(const char *const *paths, size_t npaths,
                                    struct error *err);
/* Opens several files only to read them (each must exist; annot_append
 * refuses): for commands that use labels and write none. */
struct annot_store *annot_open_readonly(const char *const *paths, size_t npaths,
                                        struct error *err);
void annot_close(struct annot_store *s);
const char *annot_path(const struct annot_store *s);

/* Warnings collected while reading, one per line ("FILE:LINE: ..."), or NULL. */
const char *annot_warning(const struct annot_store *s);

/* Appends and syncs one decision to the first file (d->file is ignored);
 * fills `at` with the current time when it is NULL. Returns 0 once the line is on disk, -1 with a reason otherwise
 * (and then nothing was recorded in memory either). */
int annot_append(struct annot_store *s, const struct decision *d, struct error *err);

/* Reads lines other processes appended since the last read. Returns how
 * many decisions were added. */
size_t annot_refresh(struct annot_store *s);

/* The standing decision of `reviewer` on (run, scorer): the latest accept
 * or override not taken back by a retract, or NULL. Pointers stay valid
 * until annot_close. */
const struct decision *annot_current(const struct annot_store *s, const char *run,
                                     const char *scorer, const char *reviewer);

/* The latest note of `reviewer` on a run, or NULL. */
const struct decision *annot_note(const struct annot_store *s, const char *run,
                                  const char *reviewer);

/* How many decisions the files hold (all kinds, all reviewers). */
size_t annot_count(const struct annot_store *s);

/* Every reviewer with a decision in the files, sorted by name; valid
 * until the next read or append (annot_refresh, annot_append). */
size_t annot_reviewers(const struct annot_store *s, const char *const **out);
/* Whether `name` has a decision in the files. */
bool annot_has_reviewer(const struct annot_store *s, const char *name);

/* Visits every standing accept or override (all runs, scorers and
 * reviewers), in the order the triples first appeared. */
void annot_each_current(const struct annot_store *s,
                        void (*fn)(void *ctx, const struct decision *d), void *ctx);

#endif
