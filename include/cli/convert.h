/* convert.h - `tcreview convert`'s parts: which values of a record a
 * line of the run format keeps in its "fields" (cli/convert_fields.c). */
#ifndef TCR_CLI_CONVERT_H
#define TCR_CLI_CONVERT_H

#include <stddef.h>

#include "config/config.h"
#include "runs/run.h"
#include "runs/run_format.h"

/* The paths of a record the configuration reads: the run id's, the
 * expectations join's, the scorers' {from:} references (not expected.*)
 * and record-field's path; each once. */
struct convert_paths {
	char **paths;
	size_t n;
};
void convert_paths_of(const struct config *c, struct convert_paths *p);
void convert_paths_free(struct convert_paths *p);

/* One run's fields: the values at those paths that it has, and its
 * recorded verdicts (init's names, objects walked four deep), or, for a
 * run read from the run format, the fields it already holds. Paths live
 * in the run's arena. */
struct convert_fields {
	struct run_format_field *list;
	size_t n, cap;
};
void convert_fields_of(const struct convert_paths *p, struct run *r, struct convert_fields *f);
void convert_fields_free(struct convert_fields *f);

#endif
