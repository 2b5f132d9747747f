/* timeline_calls.c - the reviewer's labels and corrections of calls as the timeline shows them.
 *
 * A call's label is a badge beside its name: a label the call scale counts
 * as right in the pass colour, the scale's lowest (wrong) in the fail
 * colour, any other (partly) in the warning colour. Corrections are lines
 * of their own under the head, in the diff colours a reader knows: what
 * should have been (added), what should not have been (removed). */
#include <stdio.h>
#include <string.h>

#include "annot/vocab.h"
#include "review/callrefs.h"
#include "timeline_int.h"
#include "util/strbuf.h"

/* A correction's call is cut to this many lines of the pane. */
#define FIX_LINES 2

static int label_slot(const struct tui *t, const struct decision *label)
{
	static const struct vocab defaults;
	const struct vocab *vo = t->cfg ? &t->cfg->vocab : &defaults;
	size_t n;
	const struct call_label_def *l = vocab_labels(vo, &n);
	double lowest = label->score;
	for (size_t i = 0; i < n; i++)
		if (l[i].value < lowest)
			lowest = l[i].value;
	if (label->score >= vocab_pass(vo))
		return SLOT_PASS;
	return label->score <= lowest ? SLOT_FAIL : SLOT_SKIPPED;
}

void tl_call_label_badge(struct tui *t, const struct decision *label)
{
	if (!label)
		return;
	char b[160];
	int n = snprintf(b, sizeof b, "labelled %s", label->label ? label->label : "?");
	if (n > 0)
		tl_add_badge(t, label_slot(t, label), true, b, strlen(b));
}

/* "should be: name(args…)" wrapped under the call, at most FIX_LINES lines. */
static void add_fix_line(struct tui *t, size_t e, int slot, const char *lead,
                         const struct decision *d, int width)
{
	json_t *v = callrefs_expected(d);
	int room = width - 4 - (int)strlen(lead);
	char brief[2048];
	callrefs_brief(v, (size_t)(room > 16 ? room : 16) * FIX_LINES - 4, brief, sizeof brief);
	json_decref(v);
	tl_add_text(t, e, 4, slot, lead, brief, width);
}

void tl_call_fixes(struct tui *t, size_t e, const struct run_call_decs *decs, size_t ci,
                   int width)
{
	if (!decs || ci >= decs->ncalls)
		return;
	const struct call_decs *cd = &decs->per[ci];
	if (cd->fix && cd->fix->correction == CORR_REMOVE)
		tl_add_text(t, e, 4, SLOT_DIFF_DEL, NULL, "\xe2\x9c\x97 should not have been called", width);
	else if (cd->fix)
		add_fix_line(t, e, SLOT_DIFF_ADD, "\xe2\x86\x92 should be: ", cd->fix, width);
	if (cd->insert)
		add_fix_line(t, e, SLOT_DIFF_ADD, "+ missing before it: ", cd->insert, width);
	if (ci + 1 == decs->ncalls && decs->per[decs->ncalls].insert)
		add_fix_line(t, e, SLOT_DIFF_ADD, "+ missing after it: ", decs->per[decs->ncalls].insert,
		             width);
}

void tl_run_answer(struct tui *t, const struct run_call_decs *decs, int width)
{
	if (!decs || !decs->answer)
		return;
	json_t *v = callrefs_expected(decs->answer);
	size_t e = tl_add_entry(t, -1, -1, -1, false);
	tl_add_line(t, e, 0, SLOT_DIFF_ADD, "the answer should have been:", 28);
	tl_add_text(t, e, 2, SLOT_NORMAL, NULL, json_is_string(v) ? json_string_value(v) : "?", width);
	json_decref(v);
}
