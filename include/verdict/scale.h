/* scale.h - the scale a score lives on: its range, what it accepts, how it
 * is written, and how a reviewer's typed score is read against it.
 *
 * The one place that knows the rules of a scale: the configuration checks
 * thresholds with it, scorers and judges check their scores, the review
 * session checks overrides, and the screen says what is expected. */
#ifndef TCR_VERDICT_SCALE_H
#define TCR_VERDICT_SCALE_H

#include <stdbool.h>
#include <stddef.h>
#include "util/error.h"

/* The kinds of scale a scorer or rubric declares. */
enum score_scale {
	SCALE_BINARY,       /* 0 or 1 */
	SCALE_UNIT,         /* any number in 0..1 */
	SCALE_1TO5,         /* integers 1..5 */
};

/* A scale with its range: a kind's own, or a custom lo..hi (a judge's, an
 * exec or record-field scorer's). A span counts in whole steps when it is
 * an integer scale (scale_levels): 1..5, or custom whole-number bounds
 * other than 0..1 with at most SCALE_MAX_LEVELS levels; other spans take
 * any number in the range. */
struct scale {
	enum score_scale kind;
	double lo, hi;
};

/* The most levels an integer scale has (0..10). */
#define SCALE_MAX_LEVELS 11

/* "binary", "0..1", "1..5". */
const char *scale_name(enum score_scale s);
/* The kind's own range, with its span: lo..hi of the kind. */
struct scale scale_of(enum score_scale s);
/* A kind's range as the configuration names it in messages
 * ("binary: 0..1", "unit: 0..1", "1to5: 1..5"); lo and hi set. */
const char *scale_range(enum score_scale s, double *lo, double *hi);

/* Whether v lies on the kind's own scale. */
bool scale_accepts(enum score_scale s, double v);
/* Whether v lies on the span (whole steps for 1..5, both ends included). */
bool scale_holds(const struct scale *s, double v);
/* What the span takes, for a person: "0 or 1", "0..1", "1..5", "0..10". */
void scale_describe(const struct scale *s, char *buf, size_t n);

/* The levels of an integer scale: 2 for binary, hi - lo + 1 for 1..5 and
 * for whole-number bounds other than 0..1 spanning at most
 * SCALE_MAX_LEVELS; 0 for a continuous scale (0..1, non-integer bounds,
 * or more levels than that). Decided by the span, not by its name. */
int scale_levels(const struct scale *s);
/* Whether the span is ordinal: an integer scale of three levels or more,
 * whose figures are over its levels (binary is pass/fail). */
bool scale_ordinal(const struct scale *s);
/* The lowest score that passes at threshold t, as a person reads it: on an
 * integer scale the lowest level at or above t (a binary scale passes at
 * 1), else t itself. */
double scale_pass_mark(const struct scale *s, double t);
/* The one description of a scale with its pass mark, used wherever a
 * verdict's scale is written: "binary, passes at 1", "1..5, passes at >= 4",
 * "0..1, passes at >= 0.5". */
void scale_describe_pass(const struct scale *s, double t, char *buf, size_t n);
/* The scale's name as figures and exports give it: "binary", "1..5",
 * "0..1", "0..10". */
void scale_label(const struct scale *s, char *buf, size_t n);

/* Reads a score a reviewer typed: a plain decimal number (no "inf", "nan"
 * or hex; blanks around it allowed; -0 read as 0) that the span holds.
 * Returns 0, or -1 with "expected DESCRIPTION" in err. */
int scale_parse_score(const struct scale *s, const char *text, double *out, struct error *err);

#endif
