/* verdict.h - what a scorer or a judge says of one run: a status, a score on
 * its scale, whether it passed, its details and, when it did not score, why. */
#ifndef TCR_VERDICT_VERDICT_H
#define TCR_VERDICT_VERDICT_H

#include <jansson.h>
#include <stdbool.h>

#include "verdict/scale.h"

enum verdict_status {
	VERDICT_OK,
	VERDICT_SKIPPED,    /* required parameters unset for this run; message says why */
	VERDICT_ERROR,      /* the run could not be scored; message says why */
};

struct verdict {
	enum verdict_status status;
	double score;       /* meaningful when status == VERDICT_OK */
	bool passed;        /* score >= threshold */
	json_t *details;    /* owned; scorer-specific, NULL when none */
	char *message;      /* owned; skip reason or error text */
};

void verdict_clear(struct verdict *v);
void verdict_skip(struct verdict *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void verdict_error(struct verdict *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A score: passed when score >= threshold. Takes the details. */
void verdict_ok(struct verdict *v, double threshold, double score, json_t *details);
const char *verdict_status_name(enum verdict_status st);

#endif
