/* compare.h - two runs side by side: which side a run is on, the pair's
 * aligned calls (review/align.h), the messages between them, both sides'
 * verdicts and labels, the runs a run can be compared with, and the
 * reviewers' preferences on a pair. No curses: the screen draws what this
 * says (tui/compare_view.c).
 *
 * With `tcreview --compare BASE CAND` one session holds both inputs; the
 * session's first files are BASE's (dataset_open keeps the order of its
 * paths), so a run's side is the file its record came from. */
#ifndef TCR_REVIEW_COMPARE_H
#define TCR_REVIEW_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "annot/store.h"
#include "review/align.h"
#include "util/error.h"

struct review;

enum compare_side {
	SIDE_NONE,                  /* not a comparison: no side */
	SIDE_BASE,
	SIDE_CAND,
};

/* Which runs are on which side: the session's files [0, nbase_files) are
 * the base's. on false: no --compare (every run SIDE_NONE). */
struct compare_task_cache;
struct compare_sides {
	bool on;
	size_t nbase_files;
	const char *task_spec;      /* the task key (cli_task_spec), or NULL */
	/* Each run's task once looked up (a run is loaded for it once, not at
	 * every pick); NULL: looked up anew by each call. */
	struct compare_task_cache *tasks;
};

/* A cache for compare_sides.tasks, and its release (s->tasks freed and NULL). */
struct compare_task_cache *compare_task_cache_new(void);
void compare_sides_release(struct compare_sides *s);

/* How many of the session's first files come from base_path (the file
 * itself, or files found under the folder). */
size_t compare_base_files(const struct review *rv, const char *base_path);
enum compare_side compare_side_of(const struct review *rv, const struct compare_sides *s,
                                  size_t entry);
/* "B", "C", or "" for SIDE_NONE: the list's side column. */
const char *compare_side_letter(enum compare_side side);
/* The entry's task text by the task key (malloc'd); NULL without a key,
 * or when the run has no such value or does not load. */
char *compare_entry_task(struct review *rv, const char *spec, size_t entry);

/* The runs a run can be compared with, in the picker's order. */
enum compare_why {
	WHY_OTHER_SIDE,             /* the other side's run of the same task */
	WHY_SAME_TASK,              /* another trial of the same task */
	WHY_OTHER_RUN,              /* no task key: any other run */
};
struct compare_candidate {
	size_t entry;
	enum compare_why why;
};
/* The candidates for `entry` among the runs in view: the other side's
 * runs of its task, then the other trials of its task, then (without a
 * task key) every other run, the other side's first. Returns how many;
 * *out malloc'd (NULL when none). */
size_t compare_candidates(struct review *rv, const struct compare_sides *s, size_t entry,
                          struct compare_candidate **out);
/* With --compare, the base is the base side's run whichever was picked:
 * swaps *a and *b when *a is the candidate side's and *b the base's. */
void compare_order(const struct review *rv, const struct compare_sides *s, size_t *a, size_t *b);
/* A task both sides have: its text and the first run of each side on it. */
struct compare_task_pair {
	char *task;
	size_t base, cand;
};
/* The tasks with runs on both sides, in the order of the runs in view
 * (a task's place is its first run's). Returns how many; *out malloc'd. */
size_t compare_task_pairs(struct review *rv, const struct compare_sides *s,
                          struct compare_task_pair **out);
void compare_task_pairs_free(struct compare_task_pair *p, size_t n);

/* ---- one pair --------------------------------------------------------------- */

struct compare_call {
	char *name;
	char *args;                 /* canonical JSON (compact, keys sorted), or NULL */
	char *result;               /* its result as text, or NULL */
	bool is_error;
};

struct compare_msg {
	int role;                   /* enum run_role */
	char *text;
	size_t before;              /* the call it comes before (ncalls: after the last) */
};

/* A verdict row of one side: as the verdicts pane shows it. */
struct compare_verdict {
	char *id;
	char text[48];              /* "pass 1", "fail 0.40", "not asked", "hidden" */
	int tone;                   /* 1 passed, -1 failed, 0 neither */
	char label[64];             /* the reviewers' labels ("qa 1, bob 0"; blind: only this
	                               reviewer's), or "" */
};

struct compare_run {
	size_t entry;
	char *id, *task, *source;
	char hash[65];              /* the record's SHA-256, "" when unknown */
	enum compare_side side;
	struct compare_call *calls;
	size_t ncalls;
	struct compare_msg *msgs;   /* in order; ->before never decreases */
	size_t nmsgs;
	struct compare_verdict *verdicts;
	size_t nverdicts;
	char *error;                /* why the run did not load, or NULL */
};

struct compare {
	struct compare_run run[2];  /* [0] the base (left), [1] the candidate (right) */
	struct align_row *rows;
	size_t nrows;
	size_t first_div;           /* the first row not ALIGN_SAME; nrows when none */
};

/* Loads both runs and aligns their calls; everything is copied, so the
 * pair outlives the session's cache. Returns 0, or -1 with err. */
int  compare_open(struct compare *c, struct review *rv, const struct compare_sides *s,
                  size_t base_entry, size_t cand_entry, struct error *err);
void compare_free(struct compare *c);
/* The next row after `from` (direction +1) or before it (-1) that is not
 * ALIGN_SAME; SIZE_MAX when none. */
size_t compare_next_divergence(const struct compare *c, size_t from, int direction);
/* The keys of a call's arguments whose values differ between the sides'
 * calls of an ALIGN_ARGS row (a key only one side has differs too). */
bool compare_key_differs(const char *base_args, const char *cand_args, const char *key);

/* ---- what the screen shows of a pair -------------------------------------- */

enum compare_tone {
	TONE_PLAIN, TONE_DIM, TONE_USER, TONE_AGENT, TONE_CALL,
	TONE_DEL, TONE_ADD, TONE_MARK,
};

struct compare_cell {
	char *text;                 /* NULL: blank */
	int tone;                   /* enum compare_tone */
};

/* A line of the side by side: two cells (side by side), or one (unified:
 * cell[0] only, the other side's differences inline as - and + lines). */
struct compare_line {
	size_t row;                 /* the aligned row it belongs to; nrows: after the last */
	bool divergence;            /* the first line of a row that is not ALIGN_SAME */
	bool first;                 /* the first divergence's marker line */
	struct compare_cell cell[2];
};

struct compare_lines {
	struct compare_line *l;
	size_t n, cap;
};

/* The lines at `width` display columns per cell: messages before each row
 * folded to their first line unless open[row] (open may be NULL), wrapped
 * to the width when open. unified: one column. */
void compare_lines_build(const struct compare *c, struct compare_lines *out, int width,
                         bool unified, const bool *open);
void compare_lines_free(struct compare_lines *out);
/* The first line of a row. */
size_t compare_lines_of_row(const struct compare_lines *ls, size_t row);

/* ---- preferences ------------------------------------------------------------ */

/* Records the reviewer's preference on the pair (base = the left run),
 * through the session's annotations file (on disk when it returns 0). */
int review_prefer(struct review *rv, const struct compare *c, enum preference p,
                  struct error *err);
/* Takes the reviewer's latest preference on the pair back. -1 with err
 * (ERR_MISSING) when there is none. */
int review_prefer_retract(struct review *rv, const struct compare *c, struct error *err);
/* The preferences standing on the pair, "cand (qa), tie (bob)": this
 * reviewer's first; others' only when not blind. "" when none. */
void compare_prefs_text(const struct review *rv, const struct compare *c, char *buf, size_t n);
/* A preference for a person: "base better", "candidate better", "tie",
 * "both bad". */
const char *compare_pref_words(enum preference p);

#endif
