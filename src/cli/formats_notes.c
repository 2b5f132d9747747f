/* formats_notes.c - `tcreview formats`' tally of notes by their text: what
 * the loaders kept without knowing it, over every record read, so a
 * summary says which event or block types of the inputs tcreview does not
 * know yet. */
#include "cli/formats_report.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

static void count_note(struct formats_notes *n, const char *text)
{
	for (size_t i = 0; i < n->nkinds; i++) {
		if (!strcmp(n->kinds[i].text, text)) {
			n->kinds[i].count++;
			return;
		}
	}
	if (n->nkinds == FORMATS_NOTE_KINDS) {
		n->other++;
		return;
	}
	n->kinds[n->nkinds++] = (struct formats_note_kind){ .text = xstrdup(text), .count = 1 };
}

void formats_notes_add(struct formats_notes *n, const struct run *r)
{
	for (size_t i = 0; i < r->nparts; i++)
		if (r->parts[i].kind == PART_NOTE)
			count_note(n, r->parts[i].text);
}

static int cmp_kind(const void *pa, const void *pb)
{
	const struct formats_note_kind *a = pa, *b = pb;
	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return strcmp(a->text, b->text);
}

void formats_notes_sort(struct formats_notes *n)
{
	if (n->nkinds)
		qsort(n->kinds, n->nkinds, sizeof(*n->kinds), cmp_kind);
}

void formats_notes_free(struct formats_notes *n)
{
	for (size_t i = 0; i < n->nkinds; i++)
		free(n->kinds[i].text);
	n->nkinds = 0;
	n->other = 0;
}
