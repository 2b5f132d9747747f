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
#define FIX_LINES 3

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

/* The reviewer of d when it is not the one at the screen, else NULL:
 * another's decision says whose it is. */
static const char *someone_else(const struct tui *t, const struct decision *d)
{
	const char *me = tui_rv(t)->reviewer;
	return d->reviewer && (!me || strcmp(d->reviewer, me)) ? d->reviewer : NULL;
}

void tl_call_label_badge(struct tui *t, const struct decision *label)
{
	if (!label)
		return;
	char b[160];
	const char *who = someone_else(t, label);
	int n = snprintf(b, sizeof b, "labelled %s%s%s%s", label->label ? label->label : "?",
	                 who ? " (" : "", who ? who : "", who ? ")" : "");
	if (n > 0)
		tl_add_badge(t, label_slot(t, label), true, b, strlen(b));
}

/* A replacement of the same tool as only what it changes: the arguments
 * whose values differ or are new, and "-key" for those it drops, so the
 * correction reads at a glance. New reference. */
static json_t *changes_only(json_t *v, const struct run_call *c, json_t *args)
{
	const char *name = json_string_value(json_object_get(v, "name"));
	json_t *want = json_object_get(v, "arguments");
	if (!name || strcmp(name, c->name) || !json_is_object(want) || !json_is_object(args))
		return json_incref(v);
	json_t *diff = json_object();
	const char *k;
	json_t *x;
	json_object_foreach(want, k, x)
		if (!json_equal(x, json_object_get(args, k)))
			json_object_set(diff, k, x);
	json_object_foreach(args, k, x)
		if (!json_object_get(want, k)) {
			char gone[256];
			snprintf(gone, sizeof gone, "-%s", k);
			json_object_set_new(diff, gone, json_null());
		}
	json_t *out = json_pack("{s:s, s:o}", "name", name, "arguments", diff);
	return out;
}

/* "should be: name(args…)" wrapped under the call, at most FIX_LINES lines. */
static void add_fix_line(struct tui *t, size_t e, int slot, const char *lead,
                         const struct decision *d, struct run *r, size_t ci, int width)
{
	json_t *v = callrefs_expected(d);
	if (r && d->correction == CORR_REPLACE && json_is_object(v)) {
		json_t *c = changes_only(v, &r->calls[ci], run_call_args(r, &r->calls[ci]));
		json_decref(v);
		v = c;
	}
	char by[160];
	const char *who = someone_else(t, d);
	if (who) {              /* "→ should be (ana): " */
		size_t cut = strlen(lead) >= 2 ? strlen(lead) - 2 : 0;
		snprintf(by, sizeof by, "%.*s (%.60s): ", (int)cut, lead, who);
		lead = by;
	}
	int room = width - 4 - (int)strlen(lead);
	char brief[2048];
	callrefs_brief(v, (size_t)(room > 16 ? room : 16) * FIX_LINES - 4, brief, sizeof brief);
	json_decref(v);
	tl_add_text(t, e, 4, slot, lead, brief, width);
}

void tl_call_fixes(struct tui *t, size_t e, const struct run_call_decs *decs, struct run *r,
                   size_t ci, int width)
{
	if (!decs || ci >= decs->ncalls)
		return;
	const struct call_decs *cd = &decs->per[ci];
	if (cd->fix && cd->fix->correction == CORR_REMOVE) {
		const char *who = someone_else(t, cd->fix);
		char text[160];
		snprintf(text, sizeof text, "\xe2\x9c\x97 should not have been called%s%.60s%s",
		         who ? " (" : "", who ? who : "", who ? ")" : "");
		tl_add_text(t, e, 4, SLOT_DIFF_DEL, NULL, text, width);
	} else if (cd->fix) {
		add_fix_line(t, e, SLOT_DIFF_ADD, "\xe2\x86\x92 should be: ", cd->fix, r, ci, width);
	}
	if (cd->insert)
		add_fix_line(t, e, SLOT_DIFF_ADD, "+ missing before it: ", cd->insert, NULL, ci, width);
	if (ci + 1 == decs->ncalls && decs->per[decs->ncalls].insert)
		add_fix_line(t, e, SLOT_DIFF_ADD, "+ missing after it: ", decs->per[decs->ncalls].insert,
		             NULL, ci, width);
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
