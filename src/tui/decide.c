/* decide.c - decisions on the selected verdict row: accept, override, label, retract, note.
 *
 * Each handler asks the review session to decide and says what happened in
 * the status line; the session writes the annotations file. */
#include <stdio.h>
#include <string.h>

#include "review/group_decide.h"
#include "tui_int.h"
#include "util/error.h"

unsigned decide_report(struct tui *t, int rc, const char *err, const char *what)
{
	if (rc < 0)
		tui_message(t, true, "not saved: %s", err);
	else
		tui_message(t, false, "%s (saved)", what);
	return REDRAW_ALL | RELAYOUT;   /* the open details gain or lose lines */
}

/* The selected row of the run under the cursor; false when there is none. */
static bool selected_row(struct tui *t, struct review_row *row)
{
	size_t s = verdicts_selected(t);
	const struct review_run *rr = review_current(t->rv);
	return s != SIZE_MAX && rr && review_row_get(t->rv, rr, s, row);
}


/* After a label: the next row of the run that waits for this reviewer,
 * else the first undecided row of the next unreviewed run. */
static unsigned label_forward(struct tui *t, size_t row, const char *what)
{
	size_t next;
	enum review_forward f = review_forward(t->rv, row, &next);
	t->vd.sel = next;
	t->vd.detail_top = 0;
	if (f == FORWARD_RUN) {
		list_moved(t);
	} else if (f == FORWARD_DONE) {
		tui_message(t, false, "%s (saved); every run in view is reviewed", what);
	}
	return REDRAW_ALL | RELAYOUT;
}

/* `a` accepts the selected verdict and moves forward as a digit does, so
 * both labelling keys leave the reviewer on the next thing to decide. */
unsigned decide_accept(struct tui *t)
{
	struct review_row row;
	if (!selected_row(t, &row))
		return REDRAW_STATUS;
	struct error err = {0};
	char what[128];
	int rc = review_accept(t->rv, row.index, &err);
	snprintf(what, sizeof what, "%s accepted", row.id);
	unsigned r = decide_report(t, rc, err.msg, what);
	if (rc == 0)
		r |= label_forward(t, row.index, what);
	return r;
}

unsigned decide_accept_all(struct tui *t)
{
	if (!review_current(t->rv) || review_nrows(t->rv) == 0)
		return REDRAW_STATUS;
	struct error err = {0};
	if (review_accept_all(t->rv, &err) < 0)
		return decide_report(t, -1, err.msg, "");
	tui_message(t, false, "all verdicts accepted (saved)");
	return list_moved(t);
}

unsigned decide_retract(struct tui *t)
{
	unsigned r;
	if (tags_retract(t, &r))        /* a tag was the latest: x takes it back */
		return r;
	struct review_row row;
	if (!selected_row(t, &row))
		return REDRAW_STATUS;
	/* A decision made for a group asks whether the group goes with it. */
	size_t standing;
	const char *group = review_group_of_row(t->rv, review_current_entry(t->rv), row.index, &standing);
	if (group && standing > 1)
		return groups_ask_retract(t, row.index, group, standing);
	struct error err = {0};
	return decide_report(t, review_retract(t->rv, row.index, &err), err.msg,
	                     "decision taken back");
}

unsigned decide_note(struct tui *t)
{
	if (!review_current(t->rv))
		return REDRAW_STATUS;
	prompt_start(t, PROMPT_NOTE, "note: ");
	return REDRAW_STATUS;
}

/* Override asks for the score on the row's scale (a scorer's or a judge's),
 * then for a reason (prompt.c). */
unsigned decide_override(struct tui *t)
{
	struct review_row row;
	if (!selected_row(t, &row))
		return REDRAW_STATUS;
	char hint[96];
	if (row.state == ROW_NOT_ASKED) {
		review_row_why(&row, hint, sizeof hint);
		tui_message(t, true, "%s", hint);
		return REDRAW_STATUS;
	}
	if (row.state == ROW_PENDING)
		review_row_why(&row, hint, sizeof hint);
	else
		scale_describe(&row.span, hint, sizeof hint);
	char lbl[160];
	snprintf(lbl, sizeof lbl, "override %s, score (%s): ", row.id, hint);
	t->pr.row = row.index;
	prompt_start(t, PROMPT_SCORE, lbl);
	return REDRAW_STATUS;
}

/* A digit labels the selected row with that score and moves on, always
 * forward (review_forward). Off its scale, it says what the row takes. */
unsigned decide_label(struct tui *t, int digit)
{
	struct review_row row;
	if (!selected_row(t, &row))
		return REDRAW_STATUS;
	struct error err = {0};
	double score = digit;           /* a label is a number from the key to the file */
	if (review_row_takes(t->rv, row.index, score, &err) < 0) {
		/* off the scale: say what the scale takes; else why the row cannot be decided */
		char want[96];
		if (err.kind == ERR_OFF_SCALE)
			scale_describe(&row.span, want, sizeof want);
		tui_message(t, true, "%s: %d is not on its scale (%s)", row.id, digit,
		            err.kind == ERR_OFF_SCALE ? want : err.msg);
		return REDRAW_STATUS;
	}
	/* A label that agrees with the machine is an accept: "overridden" must
	 * keep meaning that a person disagreed. */
	bool agrees = false;
	int rc = review_label(t->rv, row.index, score, &agrees, &err);
	char what[128];
	snprintf(what, sizeof what, "%s labelled %d%s", row.id, digit, agrees ? " (agrees: accepted)" : "");
	unsigned r = decide_report(t, rc, err.msg, what);
	if (rc == 0)
		r |= label_forward(t, row.index, what);
	return r;
}
