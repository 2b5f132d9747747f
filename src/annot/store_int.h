/* store_int.h - the annotations store's memory, shared by store.c (reading, appending) and store_subjects.c (what stands on a run, aliases, groups). */
#ifndef TCR_ANNOT_STORE_INT_H
#define TCR_ANNOT_STORE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include "annot/store.h"
#include "annot_int.h"
#include "util/arena.h"
#include "util/htab.h"
#include "util/strbuf.h"

/* A verdict's decisions form a stack (retract pops); the nodes stay in the
 * arena when popped, which costs 16 bytes and saves per-key arrays. */
struct stack_node {
	const struct decision *d;
	struct stack_node *next;
};

/* What a slot holds decisions about: a verdict row, the run's note, and
 * the subjects of failure analysis (store.h lists them). */
enum slot_kind {
	SLOT_VERDICT,       /* subject: the scorer */
	SLOT_NOTE,
	SLOT_TAG,           /* subject: the code; call 0 for the run */
	SLOT_ALIAS,         /* subject: the code renamed; no run, no reviewer */
	SLOT_CALL_LABEL,
	SLOT_FIX,           /* replace or remove a call */
	SLOT_INSERT,        /* calls missing before a call */
	SLOT_ANSWER,
	SLOT_PREFER,        /* subject: the other run of the pair */
};

/* One subject of decisions: (run, scorer, reviewer) for a verdict, and
 * the like for the other kinds; kept in the arena, found through the keys
 * table, and listed with its run's others. */
struct slot {
	const char *run, *subject, *reviewer;
	enum slot_kind kind;
	long call;
	struct slot *next;              /* the slots in the order they first appeared */
	struct slot *run_next;          /* the run's next slot, in the same order */
	struct stack_node *top[];       /* one stack per file; notes keep only the latest */
};

/* A run's slots, so that what stands on one run is found without a walk
 * over every decision. */
struct run_slots {
	const char *run;
	struct slot *first, *last;
};

/* A decision of a group, with where it stands, so that one retract line
 * takes back every one still on top. */
struct group_member {
	struct slot *sl;
	const struct decision *d;
	struct group_member *next;
};

struct group_rec {
	const char *group;
	struct group_member *first;
};

struct annot_store;

/* What a file's reader hands back to the store: which file a line is from. */
struct file_ctx {
	struct annot_store *s;
	unsigned file;
	struct group_hold hold;         /* a group's lines until all are read */
};

struct annot_store {
	struct jsonl_log **logs;        /* logs[0] is written to, the others only read */
	struct file_ctx *ctxs;
	size_t nlogs;
	struct arena arena;             /* decisions, their strings, slots, stack nodes */
	size_t count;
	struct htab keys;               /* struct slot * by its subject */
	struct htab runs;               /* struct run_slots * by run id */
	struct htab groups;             /* struct group_rec * by group id */
	struct slot *first, *last;
	/* Runs, scorers, reviewers, hashes and times repeat on most lines;
	 * keeping one copy of each roughly halves a big file's memory. */
	struct htab strs;               /* const char * by its text */
	const char **reviewers;         /* interned, sorted by name */
	size_t nreviewers, reviewers_cap;
	const char *last_reviewer;      /* most lines repeat the one before */
	struct strbuf warn;             /* the files' warnings joined, for several files */
};

/* The slot of subject k, or NULL; the standing decision of a slot across
 * the files (the latest `at`, the earlier file on a tie), or NULL. */
const struct slot *store_slot_find(const struct annot_store *s, const struct slot *k);
const struct decision *store_slot_current(const struct annot_store *s, const struct slot *sl);
/* htab equality of a struct run_slots and a run id. */
bool store_run_eq(const void *item, const void *key);

/* store_subjects.c */
/* A code as aliases know it (see there). */
void store_code_norm(struct strbuf *sb, const char *code);
/* d, of group d->group, now stands in slot sl. */
void store_group_add(struct annot_store *s, struct slot *sl, const struct decision *d);
/* A retract of the group in file `file`: every decision of it on top goes. */
void store_group_retract(struct annot_store *s, const char *group, unsigned file);

#endif
