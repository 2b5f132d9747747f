/* store.h - the annotations file: every reviewer decision, append-only.
 *
 * One JSON object per line (schema v2):
 *   {"v":2,"run","source","run_hash","scorer","scorer_type","model",
 *    "prompt_hash","machine_score","machine_passed","decision","score",
 *    "reason","reviewer","blind","at","config"}
 * plus, only where they are set (so verdict lines read as before):
 *   "tag","tag_to","call","call_id","tool","label","correction",
 *   "expected","group","group_lines","retracts","weight","queue",
 *   "other","other_hash","prefer","task"
 * `decision` is accept, override, retract, note, tag, tag-alias,
 * call-label, correct or prefer; `at` is ISO-8601 UTC;
 * `config` is the scorer configuration's hash; `run_hash` the SHA-256 (hex)
 * of the run record's bytes when it was decided, so a label on a run that
 * changed since is known to be stale; `model` and `prompt_hash` are a judge
 * row's (null for a code scorer); `blind` is true when the reviewer decided
 * without seeing the machine's verdict. A note concerns the run, so its
 * scorer fields are null. Version 1 lines (no run_hash, model, prompt_hash
 * or blind) read as before, with those fields absent.
 *
 * Failure analysis adds its own kinds, each with its own subject, so each
 * stands and is taken back on its own:
 *   tag         a failure-mode code on the run (`call` absent) or on one
 *               call (`call`: its number among the run's calls from 1, as
 *               call marks number them; `call_id` and `tool` kept beside it
 *               so a reader can check it is still the same call). Subject:
 *               (run, call, tag, reviewer); several tags stand at once.
 *   tag-alias   `tag` is renamed, merged or promoted into `tag_to`: a code
 *               of the whole file, so `run` is null. Subject: (tag); the
 *               latest standing alias of a code counts, whoever wrote it.
 *   call-label  a call's label: `score` its value on the call scale,
 *               `label` its name. Subject: (run, call, reviewer).
 *   correct     what should have happened: `correction` is replace (the
 *               call should have been `expected`, a JSON object
 *               {"name","arguments"}), remove (the call should not have
 *               been made), insert (`expected`, one call object or an array
 *               of them, was missing just before call `call`; the number
 *               after the last call means at the end) or answer (`expected`
 *               is the JSON string of the final answer the run should have
 *               given; `call` absent). Subjects: (run, call, reviewer) for
 *               replace and remove together, (run, call, reviewer) of
 *               inserts apart, (run, reviewer) for the answer.
 *   prefer      a preference between two runs of one task: `run` (the base
 *               side, `run_hash` its record) against `other` (the candidate,
 *               `other_hash`), `prefer` one of base, cand, tie, both-bad;
 *               `task` the task they are trials of, when known. Subject:
 *               (run, other, reviewer): the pair as written, base first.
 * A retract names what it takes back with `retracts`: absent for a verdict
 * (its `scorer`, as ever), else "tag" (with `tag` and `call`),
 * "tag-alias" (`tag`), "call-label" (`call`), "correct" (`correction` and
 * `call`), "prefer" (`other`), "note", or "group": then `group` names it and every decision of
 * that group still standing in this file is taken back at once, by one line.
 * `group` on any decision says it was made for many runs at once (groups,
 * bulk labelling); `group_lines`, on the lines annot_append_many wrote
 * together with one group, says how many they are: a reader takes them
 * only once all are there, so a group cut by a crash in its write (its
 * first lines, then a torn one) stands for nothing, whole or absent; `weight` is the inverse of the chance a sampled review
 * queue had of showing the run (1 when it showed every run), and `queue`
 * that queue's name, both on the decisions made while reviewing it.
 *
 * Several files may be read into one store (each reviewer may keep one):
 * all are read and followed, the first is the one written to. Per (run,
 * scorer, reviewer) the standing decision is replayed in each file's
 * order; when two files both hold one for the same triple, the later `at`
 * wins (the first file on a tie).
 *
 * Each decision is written as one whole line with one write() on an
 * O_APPEND descriptor under flock(), then fsync(), before annot_append
 * returns 0: only then may the screen call it saved; annot_append_many
 * writes a group's lines with one write() and one fsync(). The file is never
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
	DEC_TAG,            /* a failure-mode code on a run or one of its calls */
	DEC_TAG_ALIAS,      /* a code renamed, merged or promoted into another */
	DEC_CALL_LABEL,     /* one call's label on the call scale */
	DEC_CORRECT,        /* what a call, or the run's answer, should have been */
	DEC_PREFER,         /* which of two runs of one task is better */
};

/* What a DEC_PREFER says of the pair (run, other): base is `run`. */
enum preference {
	PREF_NONE,
	PREF_BASE,          /* the base run (`run`) is better */
	PREF_CAND,          /* the candidate (`other`) is better */
	PREF_TIE,           /* both as good */
	PREF_BOTH_BAD,      /* neither is acceptable */
};
#define PREF_COUNT 5

/* What a DEC_CORRECT says should have happened. */
enum correction_kind {
	CORR_NONE,
	CORR_REPLACE,       /* the call should have been `expected` */
	CORR_REMOVE,        /* the call should not have been made */
	CORR_INSERT,        /* `expected` was missing just before the call */
	CORR_ANSWER,        /* the run's final answer should have been `expected` */
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
	/* Failure analysis (see the top of this file); NULL, 0 or false when unset. */
	const char *tag;            /* tag: the code; tag-alias: the code renamed */
	const char *tag_to;         /* tag-alias: what the code becomes */
	long call;                  /* a call's number among the run's calls from 1; 0: the run */
	const char *call_id;        /* that call's own id, when it has one */
	const char *tool;           /* that call's tool name */
	const char *label;          /* call-label: the label's name on the call scale */
	enum correction_kind correction;
	const char *expected;       /* correct: JSON text (a call, calls, or the answer string) */
	const char *group;          /* the many-run decision this line belongs to */
	long group_lines;           /* a group's lines written in one write: how many (set by
	                             * annot_append_many); 0 when not said */
	bool retracts_set;          /* a retract of something else than a verdict: */
	enum decision_kind retracts;/*   DEC_TAG ... DEC_CORRECT, or DEC_NOTE */
	bool retracts_group;        /* a retract of a whole group (`group`) */
	bool has_weight;            /* decided in a sampled queue: */
	double weight;              /*   the inverse of the run's chance of being shown */
	const char *queue;          /* the queue's name ("uncertain", "random", ...) */
	/* Comparing runs (DEC_PREFER); NULL or PREF_NONE when unset. */
	const char *other;          /* the candidate run's id */
	const char *other_hash;     /* its record's SHA-256 (hex) */
	enum preference prefer;
	const char *task;           /* the task both runs are trials of */
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

/* Appends n decisions with one write() and one fsync(): a group's lines
 * reach the file together or (a crash in the middle of the write) as a
 * whole first part and a truncated line the next read skips. All are
 * checked before anything is written: one refused decision refuses all. */
int annot_append_many(struct annot_store *s, const struct decision *ds, size_t n,
                      struct error *err);

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

/* Every standing decision on one run, of every kind (verdicts, notes,
 * tags, call labels, corrections) and every reviewer, in the order their
 * subjects first appeared. Cheap: the run's subjects are kept together. */
void annot_each_of_run(const struct annot_store *s, const char *run,
                       void (*fn)(void *ctx, const struct decision *d), void *ctx);

/* Every standing decision of every run and kind, tag-aliases included, in
 * the order their subjects first appeared. */
void annot_each_standing(const struct annot_store *s,
                         void (*fn)(void *ctx, const struct decision *d), void *ctx);

/* What a code is called now: the standing tag-aliases followed from
 * `code` (a rename of a rename...), a cycle stopping where it closes.
 * Returns `code` itself when no alias stands. */
const char *annot_tag_resolve(const struct annot_store *s, const char *code);

/* How many decisions of `group` still stand (0: taken back, or unknown). */
size_t annot_group_standing(const struct annot_store *s, const char *group);

/* A new group id: the time and a random part, unique across processes. */
void annot_group_id(char out[40]);

/* The names of the decision kinds and corrections as the file spells them
 * ("call-label", "insert"); NULL for a value out of range. */
const char *annot_kind_name(enum decision_kind k);
const char *annot_correction_name(enum correction_kind c);
/* "base", "cand", "tie", "both-bad"; NULL for PREF_NONE or out of range. */
const char *annot_preference_name(enum preference p);
/* The preference a name spells; false (and PREF_NONE) for any other text. */
bool annot_preference_from_name(const char *name, enum preference *out);

/* The standing preference of `reviewer` on the pair (run, other) as
 * written (base first), or NULL. */
const struct decision *annot_preference(const struct annot_store *s, const char *run,
                                        const char *other, const char *reviewer);

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
