/* annot_int.h - what the annotations store shares with its line reader and writer. */
#ifndef TCR_ANNOT_INT_H
#define TCR_ANNOT_INT_H

#include <stddef.h>
#include <jansson.h>
#include "annot/store.h"
#include "util/strbuf.h"

/* Fills d with pointers into o; false with the reason when the line is not
 * a decision we can use. `expected` is JSON text json_dumps made, which the
 * caller frees (*owned) once it copied the decision. Keys we do not know
 * are left alone, so a newer program's lines still read. */
bool annot_line_read(json_t *o, struct decision *d, char **owned, char *why, size_t whylen);

/* The line a decision is written as, without its '\n'. */
void annot_line_build(struct strbuf *sb, const struct decision *d, const char *at);

/* What would make the line unreadable or meaningless later: refused when
 * written, while the reviewer is there to see why; NULL when none. */
const char *annot_line_problem(const struct decision *d, const char *at);

#endif
