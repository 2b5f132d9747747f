/* shortnames.h - the part of each of a set of names that tells them apart
 * (run ids, model names), for a column too narrow for them whole. */
#ifndef TCR_UTIL_SHORTNAMES_H
#define TCR_UTIL_SHORTNAMES_H

#include <stdbool.h>
#include <stddef.h>

/* What to show of one name: its bytes [from, from + len), "…" before them
 * when lead (a start every name shares was dropped) and after them when
 * trail (a shared end was dropped). */
struct short_name {
	size_t from, len;
	bool lead, trail;
};

/* For each of the n names (NULL ones are left whole: from 0, len 0), what
 * to show in `cols` columns. Names that fit whole are kept whole. Else
 * the start and the end all names share are dropped: first at a separator
 * (- _ / : . # @ space), so that words stay whole ("task000-trial0" of
 * "tau1-airline-gpt-4o-task000-trial0"); where that is still too wide, at
 * any character, never inside one or inside a cluster. Every name keeps
 * at least one character; identical names, or fewer than two, are kept
 * whole. What is still wider than cols is the caller's to cut. */
void short_names(const char *const *names, size_t n, size_t cols, struct short_name *out);

/* The columns a short name takes, its "…" counted. */
size_t short_name_width(const char *name, const struct short_name *s);

#endif
