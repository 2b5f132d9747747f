/* diff_report.h - `tcreview diff`: two sides of runs paired by task, each
 * scorer's and judge's change per task, the summary per scorer, and how
 * they are written (jsonl lines with fixed keys, or a table for a person). */
#ifndef TCR_CLI_DIFF_REPORT_H
#define TCR_CLI_DIFF_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "util/htab.h"

enum { DIFF_BASE, DIFF_CAND, DIFF_SIDES };

/* A task's change under one scorer. With several trials a side is judged
 * by its pass rate (passed / runs): a higher rate is fixed, a lower one
 * broke, and an equal one passes when it is above one half. */
enum diff_change {
	DIFF_FIXED,
	DIFF_BROKE,
	DIFF_SAME_PASS,
	DIFF_SAME_FAIL,
	DIFF_ONLY_BASE,             /* counted runs on the base side only */
	DIFF_ONLY_CAND,
	DIFF_NCHANGES,
	DIFF_NONE = DIFF_NCHANGES,  /* no counted run on either side: no line */
};
/* "fixed", "broke", "same-pass", "same-fail", "only-base", "only-cand". */
const char *diff_change_name(enum diff_change c);

/* A scorer's counted runs of one task on one side. */
struct diff_count {
	unsigned runs, passed;
};

struct diff_task {
	char *text;                 /* the task key's text (run_spec_text) */
	unsigned runs[DIFF_SIDES];  /* runs of the task, counted or not */
	struct diff_count *counts;  /* nrows * DIFF_SIDES: [row * DIFF_SIDES + side] */
};

/* What one side held. */
struct diff_input {
	const char *path;
	size_t records;             /* records found */
	size_t unread;              /* records that could not be read: left out */
	size_t no_task;             /* runs with no value at the task key: left out */
	size_t runs;                /* runs compared */
	size_t tasks;               /* tasks with a run */
};

/* A per-run scorer or judge (a row of the review session). */
struct diff_row {
	const char *id;
	bool judge;
	bool shown;                 /* written and gated on (--scorer; all when none is named) */
	size_t uncounted[DIFF_SIDES];   /* verdicts that were an error or a skip */
	size_t missing[DIFF_SIDES];     /* a judge's runs with no verdict in the cache */
};

struct diff {
	const char *task_spec;      /* the task key, as given */
	struct diff_input in[DIFF_SIDES];
	struct diff_row *rows;
	size_t nrows;
	struct diff_task **tasks;   /* in the order diff_sort puts them */
	size_t ntasks, cap;
	struct htab index;          /* text -> task */
};

void diff_init(struct diff *d, size_t nrows);
void diff_free(struct diff *d);
/* The task of that text, made on first use. */
struct diff_task *diff_task_of(struct diff *d, const char *text);
/* Orders the tasks: texts that are numbers first, by value ("2" before
 * "10"), then the others with their runs of digits compared by value,
 * then byte by byte. */
void diff_sort(struct diff *d);
int diff_task_cmp(const char *a, const char *b);
enum diff_change diff_change_of(const struct diff_task *t, size_t row);

/* A scorer's summary over the tasks. */
struct diff_summary {
	size_t both;                    /* tasks with counted runs on both sides */
	size_t n[DIFF_NCHANGES];        /* tasks of each change */
	bool rated;                     /* both > 0: the rates below are defined */
	double rate[DIFF_SIDES];        /* mean over those tasks of the pass rate (pass^1) */
	double p;                       /* McNemar's exact p, broke against fixed */
	unsigned k[DIFF_SIDES];         /* pass^1..k: the fewest trials of a task on that side */
	double *pass_k[DIFF_SIDES];     /* k[side] values each (NULL when 0) */
};
void diff_summarize(const struct diff *d, size_t row, struct diff_summary *s);
void diff_summary_free(struct diff_summary *s);
/* Whether a shown row has a task that broke. */
bool diff_any_broke(const struct diff *d);

#define DIFF_ALPHA 0.05

/* How the table is written. */
struct diff_text_opts {
	size_t width;               /* columns to fit */
	bool color;                 /* broke in red, fixed in green */
};
/* One line per task and shown row, then one summary line per shown row. */
void diff_write_jsonl(FILE *out, const struct diff *d);
void diff_write_text(FILE *out, const struct diff *d, const struct diff_text_opts *o);

#endif
