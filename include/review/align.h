/* align.h - two runs' tool calls aligned as diff aligns lines.
 *
 * Two trials of a task, or a baseline and a candidate, mostly make the same
 * calls; where they part ways is what a reviewer looks for. The calls of
 * each side are aligned into rows: a call both made the same way (same
 * name, same arguments) on one row, the same tool called with other
 * arguments on one row too (so the arguments can be compared), and a call
 * only one side made on a row of its own. Calls made the same way anchor
 * the alignment first (the most of them, in order, as diff keeps the most
 * equal lines); among the rest, the most same-tool pairs. Within a gap the
 * base's lone calls come before the candidate's, as diff prints - before +.
 *
 * Pure: the caller gives each call's name and its arguments as canonical
 * JSON text (keys sorted, compact), so equality is string equality. */
#ifndef TCR_REVIEW_ALIGN_H
#define TCR_REVIEW_ALIGN_H

#include <stddef.h>

enum align_kind {
	ALIGN_SAME,         /* same tool, same arguments */
	ALIGN_ARGS,         /* same tool, other arguments */
	ALIGN_BASE_ONLY,    /* only the base (left) side made this call */
	ALIGN_CAND_ONLY,    /* only the candidate (right) side made it */
};

struct align_call {
	const char *name;   /* the tool's name; NULL matches nothing */
	const char *args;   /* canonical JSON of the arguments; NULL equals only NULL */
};

struct align_row {
	enum align_kind kind;
	long base;          /* index into the base's calls, -1 on a candidate-only row */
	long cand;          /* index into the candidate's calls, -1 on a base-only row */
};

/* Above this many cells (base calls x candidate calls, after the common
 * start and end are set aside) the middle is aligned position by position
 * instead: memory stays bounded on runs of thousands of calls. */
#define ALIGN_MAX_CELLS (4u * 1024u * 1024u)

/* Aligns base[0..nb) with cand[0..nc). *out gets the rows (malloc'd, to
 * free; NULL when there are none); returns how many. Every call appears on
 * exactly one row, each side's in its own order. */
size_t align_calls(const struct align_call *base, size_t nb, const struct align_call *cand,
                   size_t nc, struct align_row **out);

/* The first row that is not ALIGN_SAME: where the runs part ways; n when
 * they never do. */
size_t align_first_divergence(const struct align_row *rows, size_t n);

/* The kind's word for a person: "same", "arguments differ", "only base",
 * "only candidate". */
const char *align_kind_name(enum align_kind k);

#endif
