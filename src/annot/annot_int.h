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

/* group_hold.c: the lines of a group written together (`group_lines`),
 * held as they are read until all are there; they follow one another (one
 * write), so a line of anything else means the rest was cut by a crash,
 * and the held lines are dropped: the group is taken whole or not at all. */
struct group_hold {
	json_t **lines;
	size_t n, cap;
	long want;
	const char *group;          /* held[0]'s, borrowed from it */
};
/* Holds line o (read as d) when it is one of such a group's; first drops
 * what was held when o does not continue it. True when o was held. */
bool group_hold_add(struct group_hold *h, json_t *o, const struct decision *d);
/* All of the held group's lines are there. */
static inline bool group_hold_full(const struct group_hold *h)
{
	return h->n && (long)h->n == h->want;
}
void group_hold_drop(struct group_hold *h);
void group_hold_free(struct group_hold *h);

#endif
