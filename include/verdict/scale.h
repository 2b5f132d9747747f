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

/* The kinds of scale a scorer or rubric declares. */
enum score_scale {
	SCALE_BINARY,       /* 0 or 1 */
	SCALE_UNIT,         /* any number in 0..1 */
	SCALE_1TO5,         /* integers 1..5 */
};

/* A scale with its range: a kind's own, or a custom judge's lo..hi. Custom
 * spans take any number in the range unless the kind counts in whole steps
 * (1..5). */
struct scale {
	enum score_scale kind;
	double lo, hi;
};

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

/* Reads a score a reviewer typed: a plain decimal number (no "inf", "nan"
 * or hex; blanks around it allowed; -0 read as 0) that the span holds.
 * Returns 0, or -1 with "expected DESCRIPTION" in err. */
int scale_parse_score(const struct scale *s, const char *text, double *out, char *err,
                      size_t errlen);

#endif
