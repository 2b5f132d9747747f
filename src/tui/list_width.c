/* list_width.c - the columns the run list's content needs, kept as the runs are read. */
#include <string.h>

#include "tui_int.h"

/* The widest id and label of the runs summarized so far, over every run
 * read (not only those in view), so that moving, filtering or sorting
 * never changes the width. Runs are summarized mostly in file order: the
 * scan goes on from the first one not summarized yet, and only grows. */
static void list_width_scan(struct tui *t)
{
	const struct review *rv = tui_rv(t);
	if (t->lw.for_rv != rv || t->lw.scanned > rv->nentries) {
		memset(&t->lw, 0, sizeof t->lw);
		t->lw.for_rv = rv;
	}
	while (t->lw.scanned < rv->nentries) {
		const struct review_entry *e = &rv->entries[t->lw.scanned];
		if (!e->summarized)
			break;
		if (e->id && !e->load_failed) {
			int w = draw_width(e->id, strlen(e->id));
			if (w > t->lw.id_w)
				t->lw.id_w = w;
		}
		if (e->label) {
			int w = draw_width(e->label, strlen(e->label));
			if (w > t->lw.label_w)
				t->lw.label_w = w;
		}
		t->lw.scanned++;
	}
}

int list_width_wanted(struct tui *t)
{
	list_width_scan(t);
	if (!t->lw.id_w)
		return 0;                       /* nothing read yet: the list's usual share */
	/* As list.c lays a row out: '>', the mark and a space, the id, the
	 * model, the calls and two cells per verdict row. list.c gives the
	 * model 8, 10 or 14 columns as the pane is under 44, under 56 or
	 * wider: the narrowest of those that shows the widest model whole. */
	int cells = (int)review_nrows(tui_rv(t)) * 2;
	int label = t->lw.label_w <= 8 ? 8 : t->lw.label_w <= 10 ? 10 : 14;
	int id = t->lw.id_w < 8 ? 8 : t->lw.id_w;      /* list.c drops the model below 8 */
	int w = (t->cmp.sides.on ? 5 : 3) + id + 1 + label + 1 + 3 + 1 + cells;
	int tier = label == 8 ? 0 : label == 10 ? 44 : 56;
	return w > tier ? w : tier;
}

bool list_width_one_run(const struct tui *t)
{
	const struct review *rv = tui_rv(t);
	/* Only once the files are indexed: a long file's first run alone
	 * must not make the layout switch as the others arrive. */
	return rv->nentries <= 1 && review_index_progress(rv) >= 1.0;
}
