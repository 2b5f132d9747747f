/* session.h - a review session: the runs in view, their verdicts, and the
 * reviewer's decisions. Filters, sort, search and moving around. No curses
 * here: the screen calls these and draws what they say.
 *
 * Work that takes long on a big input (indexing the file, scoring every
 * run for the list's verdict cells) is done in slices by review_step,
 * which the event loop calls between keys; the list grows as it goes. The
 * run under the cursor is parsed on demand and kept, with others, in a
 * cache bounded in bytes. */
#ifndef TCR_REVIEW_SESSION_H
#define TCR_REVIEW_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "annot/store.h"
#include "config/config.h"
#include "runs/dataset.h"
#include "scorers/evaluate.h"
#include "scorers/scorer.h"
#include "review/rows.h"
#include "review/assign.h"
#include "review/queue.h"
#include "util/error.h"

struct format_ops;
struct run;

enum review_filter {
	FILTER_ALL,
	FILTER_UNREVIEWED,      /* not every verdict has a standing decision */
	FILTER_FAILING,         /* any scorer fails */
	FILTER_DISAGREE,        /* the scorers disagree on pass/fail */
	FILTER_OVERRIDDEN,      /* any verdict overridden by this reviewer */
	FILTER_ERRORS,          /* a verdict is an error, or the record did not load */
	/* Against the human labels (the consensus of the reviewers, labels.h);
	 * "differs" compares pass/fail. */
	FILTER_JUDGE_HUMAN,     /* a judge's verdict differs from the human label */
	FILTER_CODE_HUMAN,      /* a code scorer's verdict differs from the human label */
	FILTER_CODE_JUDGE,      /* a code scorer and a judge differ on the run */
	FILTER_REVIEWERS,       /* two reviewers gave one row different labels */
	FILTER_STALE,           /* a label was made on a record that changed since */
	FILTER_CELL,            /* exactly the runs of a set (a confusion cell); not in the f cycle */
	FILTER_TAG,             /* the runs with a tag (review/tags.h); in the cycle once one was chosen */
	FILTER_COUNT,
};

/* The kinds of disagreement a run may hold (review_entry_disagreements). */
enum {
	DIS_SCORERS     = 1u << 0,  /* code scorers among themselves (FILTER_DISAGREE) */
	DIS_JUDGE_HUMAN = 1u << 1,
	DIS_CODE_HUMAN  = 1u << 2,
	DIS_CODE_JUDGE  = 1u << 3,
	DIS_REVIEWERS   = 1u << 4,
	/* `]` and `[` under a filter that is not about one kind */
	DIS_ANY_LABELLED = DIS_JUDGE_HUMAN | DIS_CODE_HUMAN | DIS_CODE_JUDGE | DIS_REVIEWERS,
};

enum review_sort {
	SORT_FILE,              /* the order of the inputs */
	SORT_ID,
	SORT_SCORE,             /* mean score of the run's scored verdicts, lowest first */
	SORT_STATE,             /* unreviewed, then reviewed, then overridden */
	SORT_COUNT,
};

enum review_mark {
	MARK_UNREVIEWED,
	MARK_REVIEWED,
	MARK_OVERRIDDEN,
};

/* What the list needs of a verdict without keeping the whole run. */
struct verdict_cell {
	uint8_t status;             /* enum verdict_status */
	bool passed;
	double score;
};


/* One record of the inputs. Until it is summarized only `rec` and
 * `source` are known. */
struct review_entry {
	size_t rec;                 /* index into ds.recs */
	char *source;               /* FILE:LINE */
	char *id;                   /* NULL until summarized */
	char *label;                /* the agent's model, else the format */
	unsigned ncalls;            /* the agent's counted calls */
	bool summarized;
	bool load_failed;           /* did not parse, or not a known format */
	bool has_hash;              /* hash holds the record's SHA-256 (from the summary) */
	unsigned char hash[32];     /* raw; review_entry_hash gives the hex a decision records */
	struct verdict_cell *cells; /* one per scorer, once summarized */
	struct judge_cell *jcells;  /* one per judge, once one was asked or cached */
	/* Kept so filters, sorts and counts need no look-ups in the store. */
	uint8_t mark;               /* enum review_mark, once summarized */
	bool any_override;          /* a standing override of this reviewer */
	bool in_share;              /* in this reviewer's share (--assign), once summarized */
	/* --queue (review/queue.h): the key it orders by (smallest first;
	 * queue_has false: after, in file order), the run's size and chance
	 * in a sample, and whether the sample drew it. */
	double queue_key, queue_w, queue_pi;
	bool queue_has, in_queue;
	struct review_run *cached;  /* its parsed run while in the cache */
};

/* The entry's record hash as 64 hex digits; false (and "") before the
 * summary or when the record has none (a .json file that does not parse). */
bool review_entry_hash(const struct review_entry *e, char out[65]);

/* A parsed run with its full verdicts, owned by the cache. A pointer
 * stays valid until the next review_settle or review_run_at (which may
 * evict it); review_step only adds to the cache. */
struct review_run {
	size_t entry;
	struct run *run;            /* NULL when the record did not parse */
	char *error;                /* why, when it did not parse */
	struct verdict *verdicts;   /* one per scorer */
	size_t bytes;               /* what it costs the cache: own_bytes and run_bytes,
	                               measured again each time it is handed out */
	size_t own_bytes;           /* this, its verdicts (details too) and its error */
	unsigned long serial;       /* which load this is (a run read again has a new one),
	                               for holders of pointers into it, such as the screen */
	struct review_run *lru_prev, *lru_next;
};

struct review {
	struct dataset ds;
	const struct config *cfg;
	const struct format_ops *forced;    /* the configuration's runs.format */
	struct evaluator ev;
	struct annot_store *annot;
	char *reviewer;
	/* --blind: decisions are made with the machine's verdict hidden: a
	 * row's verdict, the judge's answer and other reviewers' labels stay
	 * hidden until this reviewer decides it (review_row_hidden); the
	 * decisions record it. */
	bool blind;

	struct review_entry *entries;
	size_t nentries, entries_cap;
	size_t next_summary;        /* background scoring goes on from here */
	size_t nsummarized;

	size_t *view;               /* indexes into entries, filtered and sorted */
	size_t nview, view_cap;
	size_t cursor;              /* position in view */
	bool view_dirty;
	enum review_filter filter;
	enum review_sort sort;
	char *search;               /* the last search, NULL when none */
	/* After a decision the view is not rebuilt until the cursor moves, so
	 * the run just decided stays in a view it no longer belongs to. */
	bool view_hold;
	double view_age_ms;         /* step time since the last rebuild */
	size_t nreviewed;
	/* FILTER_CELL: the entries it holds (sorted) and what the status line
	 * calls it ("kappa cell judge:J fail/pass (3)"). */
	struct { size_t *entries; size_t n; char name[192]; } cell;
	/* FILTER_TAG: the tag's name, and the label the status line shows. */
	struct { char name[128]; char label[160]; } tagf;
	/* --assign: only this reviewer's share is in view, before any filter. */
	struct review_assign assign;
	size_t share_total, share_reviewed;
	/* --queue: the order or the sample in view, before any filter. */
	struct review_queue queue;
	/* --target-width: the calibration pane's labels to go; 0: the default. */
	double target_width;
	/* Counts every change of labels (decisions, refreshes) and of judge
	 * answers, so figures built from them know when they are old. */
	unsigned long labels_gen;

	struct review_run *lru_head, *lru_tail;
	size_t cache_bytes, cache_limit;
	size_t ncached;
	unsigned long nloads;       /* runs loaded so far: the last serial */
	enum error_kind error;      /* the kind of the last failure (review_last_error) */

	/* What changed since the last review_settle, recorded by the files
	 * below it instead of calling up (review/settle.h). */
	struct review_dirty {
		size_t offered;         /* entries offered to the view so far */
		size_t *summarized;     /* entries summarized since (review_step, review_run_at) */
		size_t nsummarized, summarized_cap;
		size_t *judged;         /* summarized entries whose judge cells changed */
		size_t njudged, judged_cap;
		unsigned what;          /* SETTLE_ flags noted by the mutators */
		size_t settled_entry;   /* the entry under the cursor at the last settle */
		size_t settled_nview;   /* the view's length then */
		unsigned long settled_serial;   /* and the load of its run */
	} dirty;

	/* Called once for each entry as it is summarized, with its parsed run
	 * (never NULL), to fill its judge cells from a verdict cache: set by
	 * judging_open (review/judging.h), so every summarized run, not only
	 * the one looked at, shows what was judged before. It must be quick
	 * (a hash-table get per judge) and ask nothing. NULL: none. */
	void (*judge_fill)(void *ctx, struct review *rv, size_t entry, const struct run *run);
	void *judge_fill_ctx;
};

/* What review_settle says changed (review/settle.h); the files below it
 * note the same bits in struct review's dirty set as they change things. */
enum {
	SETTLE_VIEW   = 1u << 0,    /* the view was rebuilt or grew, or the cursor moved */
	SETTLE_MARKS  = 1u << 1,    /* entries were marked again (decisions, judges, refresh) */
	SETTLE_RUN    = 1u << 2,    /* the run under the cursor was loaded */
	SETTLE_LABELS = 1u << 3,    /* other reviewers' decisions were read */
};

/* Opens the inputs and the annotations files: the first (created at the
 * first decision when missing) is written to, the others are only read (annot_open_many); with
 * none, FIRST_INPUT.annotations.jsonl. The session keeps pointers to cfg
 * and ex (may be NULL); they must outlive it. Returns 0, or -1 with
 * "PATH: reason" in err. */
int  review_open(struct review *rv, const struct config *cfg, struct expectations *ex,
                 char *const *paths, size_t npaths,
                 const char *const *annot_paths, size_t nannot,
                 const char *reviewer, struct error *err);
void review_close(struct review *rv);
struct dataset_opts;
/* review_open with what the command lends its dataset (runs/dataset.h:
 * the declared formats in use, the folder walk's warnings; NULL: none). */
int  review_open_with(struct review *rv, const struct dataset_opts *in, const struct config *cfg,
                      struct expectations *ex, char *const *paths, size_t npaths,
                      const char *const *annot_paths, size_t nannot, const char *reviewer,
                      struct error *err);
/* Shows only share a->k of the runs from now on (NULL or a->on false: all
 * of them); the status line's progress counts that share. */
void review_set_assign(struct review *rv, const struct review_assign *a);
/* The same for a command that only reads (stats, export): the annotations
 * files are read (none is created or written, they need not be
 * writable; with none there are no labels), and decisions would go to a
 * private file that is gone when the session closes. */
int  review_open_reading(struct review *rv, const struct dataset_opts *in,
                         const struct config *cfg, struct expectations *ex, char *const *paths,
                         size_t npaths, const char *const *annot_paths, size_t nannot,
                         const char *reviewer, struct error *err);
/* FIRST_INPUT.annotations.jsonl, the file review_open uses by default (malloc'd). */
char *review_annot_default(const char *first_input);

/* Does about budget_ms of pending work (indexing, then scoring runs for the
 * list); returns true while work remains. Each piece of work is settled
 * as it is done (review/settle.c), so the view grows as the list does. */
bool   review_step(struct review *rv, double budget_ms);
bool   review_busy(const struct review *rv);
double review_index_progress(const struct review *rv);   /* 0..1 */
double review_score_progress(const struct review *rv);   /* 0..1 */

/* The view, as the last review_settle left it: reads that change
 * nothing. Entry pointers stay valid until the next review_step. */
size_t review_view_count(const struct review *rv);
const struct review_entry *review_view_entry(const struct review *rv, size_t i);
size_t review_cursor(const struct review *rv);
/* The entry under the cursor; SIZE_MAX when the view is empty. */
size_t review_current_entry(const struct review *rv);
void   review_move(struct review *rv, long delta);        /* clamps */
void   review_move_to(struct review *rv, size_t i);       /* clamps */
/* The run under the cursor, parsed and scored by review_settle; NULL when
 * the view is empty (or, before a settle, when it is not loaded yet). It
 * stays valid until the next review_settle or review_run_at. */
const struct review_run *review_current(const struct review *rv);
/* Loads (or finds in the cache) an entry's run: settle's for the run
 * under the cursor, and commands that read every run (export). */
struct review_run *review_run_at(struct review *rv, size_t entry);
/* An entry's run parsed afresh, outside the run cache and unscored, for a
 * reader that keeps it apart (the examples gathered, the pairs a pairwise
 * judge answered); the caller frees it. NULL with a reason in err. */
struct run *review_entry_run(struct review *rv, size_t entry, struct error *err);

void review_set_filter(struct review *rv, enum review_filter f);
/* The filter after f in the `f` cycle (FILTER_CELL is not in it: it is set
 * from the calibration pane, and f leaves it for "all"). */
enum review_filter review_filter_next(const struct review *rv, enum review_filter f);
/* Filters the view to exactly these entries (copied), named for the status
 * line; the filter becomes FILTER_CELL. */
void review_set_cell_filter(struct review *rv, const size_t *entries, size_t n, const char *name);
/* The filter's name for the status line: a cell filter says its own. */
const char *review_filter_label(const struct review *rv);
void review_set_sort(struct review *rv, enum review_sort s);
const char *review_filter_name(enum review_filter f);
const char *review_sort_name(enum review_sort s);

/* Searches run ids, message text, tool names and arguments (the record's
 * text), case-insensitively for ASCII, from the run after the cursor
 * (direction +1) or before it (-1), wrapping. Moves the cursor and returns
 * true on a match. A NULL query repeats the last one. */
bool review_search(struct review *rv, const char *query, int direction);
/* The search n and N repeat, without moving. */
void review_search_set(struct review *rv, const char *query);
/* Moves to the next run (after the cursor, wrapping) that is unreviewed. */
bool review_next_unreviewed(struct review *rv);
/* The DIS_ kinds of disagreement a summarized entry holds. In blind mode
 * only rows this reviewer has decided take part (nothing hidden leaks). */
unsigned review_entry_disagreements(const struct review *rv, size_t entry);
/* The kinds `]` and `[` look for under the current filter: its own kind
 * under a disagreement filter, else DIS_ANY_LABELLED. */
unsigned review_disagreement_kinds(const struct review *rv);
/* Moves to the next (direction +1) or previous (-1) run in view, from the
 * cursor and wrapping, that holds a disagreement of those kinds; false
 * when none does (the cursor stays). *wrapped says it went past an end. */
bool review_next_disagreement(struct review *rv, int direction, bool *wrapped);

/* Review state. */
enum review_mark review_mark_of(const struct review *rv, size_t entry);
size_t review_reviewed_count(const struct review *rv);
/* Reads decisions other processes appended to the annotations file; the
 * next review_settle marks the runs again. Returns how many were added. */
size_t review_refresh(struct review *rv);
const struct decision *review_decision(const struct review *rv, size_t entry, size_t scorer);
const struct decision *review_note_of(const struct review *rv, size_t entry);

/* Decisions on the run under the cursor. Each is on disk when it returns 0;
 * -1 puts the reason in err and nothing changed. */
int review_accept(struct review *rv, size_t scorer, struct error *err);
int review_accept_all(struct review *rv, struct error *err);
/* An override: `score` with an optional reason. A score equal to the
 * machine's is written as an accept (as review_label does), and *accepted
 * (may be NULL) says so. */
int review_override(struct review *rv, size_t scorer, double score, const char *reason,
                    bool *accepted, struct error *err);
int review_retract(struct review *rv, size_t scorer, struct error *err);
int review_note(struct review *rv, const char *text, struct error *err);
/* A label: `score` on row `row` of the run under the cursor, written as
 * an accept when it equals the machine's score (so "overridden" keeps
 * meaning a person disagreed) and as an override otherwise. Works in
 * blind mode, where accepts are refused. *accepted says which. */
int review_label(struct review *rv, size_t row, double score, bool *accepted,
                 struct error *err);

/* Where a label moves on to (always forward). */
enum review_forward {
	FORWARD_ROW,                /* another row of the same run */
	FORWARD_RUN,                /* the next unreviewed run, its first undecided row */
	FORWARD_DONE,               /* nothing left undecided in view; nothing moved */
};
/* After a decision on `row`: the next row of the run under the cursor
 * that counts and has no decision of this reviewer (after `row`, then
 * from the top); when none is left, the next unreviewed run in view and
 * its first undecided row. *next_row is the row to select. */
enum review_forward review_forward(struct review *rv, size_t row, size_t *next_row);
/* The first row of entry at or after `from` (wrapping) that counts and has
 * no decision of this reviewer; SIZE_MAX when none. */
size_t review_undecided_row(const struct review *rv, size_t entry, size_t from);
/* Whether a row waits for this reviewer: a code scorer always, a judge
 * once it answered (not asked, pending or failed judges do not). */
bool review_row_counts_at(const struct review *rv, size_t entry, size_t row);
/* Blind mode: the row's verdict is hidden until this reviewer decides it. */
bool review_row_hidden(const struct review *rv, size_t entry, size_t row);
/* Why the last call that returned -1 failed. */
enum error_kind review_last_error(const struct review *rv);

/* Parses a human score for a scorer's scale; -1 with a reason when it is
 * off the scale ("expected 0 or 1", "expected 0..1", "expected 1..5"). */
int review_parse_score(const struct scorer_conf *sc, const char *text, double *out,
                       struct error *err);

#endif
