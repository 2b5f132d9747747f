/* group_hold.c - a group's lines held as they are read until all are there, so that a group cut by a crash stands for nothing. */
#include <stdlib.h>
#include <string.h>

#include "annot_int.h"
#include "util/xalloc.h"

void group_hold_drop(struct group_hold *h)
{
	for (size_t i = 0; i < h->n; i++)
		json_decref(h->lines[i]);
	h->n = 0;
	h->want = 0;
	h->group = NULL;
}

void group_hold_free(struct group_hold *h)
{
	group_hold_drop(h);
	free(h->lines);
	h->lines = NULL;
	h->cap = 0;
}

bool group_hold_add(struct group_hold *h, json_t *o, const struct decision *d)
{
	bool member = d->group && d->group_lines > 1 && d->kind != DEC_RETRACT;
	if (h->n && !(member && d->group_lines == h->want && strcmp(d->group, h->group) == 0))
		group_hold_drop(h);     /* what was held never got its last lines */
	if (!member)
		return false;
	if (h->n == h->cap) {
		h->cap = h->cap ? h->cap * 2 : 16;
		h->lines = xrealloc(h->lines, h->cap * sizeof *h->lines);
	}
	h->lines[h->n++] = json_incref(o);
	if (h->n == 1) {
		h->want = d->group_lines;
		h->group = json_string_value(json_object_get(o, "group"));
	}
	return true;
}
