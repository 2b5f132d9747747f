/* calls.c - labels and corrections of the call selected in the timeline, and the run's expected answer.
 *
 * A digit labels the call on the configuration's call scale; e, i and R
 * open the user's editor on the call as JSON, a template, or the answer;
 * D asks before it records that the call should not have been made. What
 * the session wrote, the timeline shows under the call once rebuilt. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "review/calls.h"
#include "review/tags.h"
#include "tui_int.h"
#include "util/xalloc.h"

static const char insert_template[] = "{\"name\": \"\", \"arguments\": {}}\n";

bool calls_on_call(const struct tui *t)
{
	const struct review *rv = tui_rv(t);
	size_t entry = review_current_entry(rv);
	return t->focus == PANE_TIMELINE && entry != SIZE_MAX && t->tl.for_entry == entry &&
	       t->tl.sel < t->tl.nentries && t->tl.entries[t->tl.sel].call >= 0;
}

static const struct run *shown_run(const struct tui *t)
{
	const struct review_run *rr = review_current(tui_rv(t));
	return rr ? rr->run : NULL;
}

static size_t selected_call(const struct tui *t)
{
	return (size_t)t->tl.entries[t->tl.sel].call;
}

static const char *call_name(const struct tui *t, size_t call)
{
	const struct run *r = shown_run(t);
	return r && call < r->ncalls && r->calls[call].name[0] ? r->calls[call].name : "the call";
}

/* The call's decisions changed: its lines are made again, the top kept. */
static unsigned saved(struct tui *t, int rc, const char *err, const char *what)
{
	if (rc < 0) {
		tui_message(t, true, "not saved: %s", err);
		return REDRAW_STATUS;
	}
	tui_message(t, false, "%s (saved)", what);
	t->tl.width = -1;
	return REDRAW_ALL | RELAYOUT;
}

static unsigned not_on_call(struct tui *t, const char *key)
{
	tui_message(t, true, "%s works on a call: Tab to the timeline and select one", key);
	return REDRAW_STATUS;
}

unsigned calls_label(struct tui *t, int digit)
{
	size_t call = selected_call(t);
	struct error err = {0};
	const char *name = NULL;
	int rc = review_call_label(t->rv, call, digit, &name, &err);
	if (rc < 0 && err.kind == ERR_OFF_SCALE) {
		tui_message(t, true, "%d is not a call label: %s", digit, err.msg);
		return REDRAW_STATUS;
	}
	char what[256];
	snprintf(what, sizeof what, "%s labelled %s", call_name(t, call), name ? name : "");
	return saved(t, rc, err.msg, what);
}

unsigned calls_retract(struct tui *t)
{
	/* A tag on the call later than its label or correction goes first. */
	const struct decision *tag = review_latest_tag(tui_rv(t), (long)selected_call(t) + 1);
	const char *at = review_call_latest_at(tui_rv(t), selected_call(t));
	if (tag && (!at || !tag->at || strcmp(tag->at, at) >= 0))
		return decide_retract(t);
	size_t call = selected_call(t);
	struct error err = {0};
	const char *what = NULL;
	int rc = review_call_retract(t->rv, call, &what, &err);
	if (rc < 0 && err.kind == ERR_NOTHING_TO_RETRACT) {
		tui_message(t, true, "%s", err.msg);
		return REDRAW_STATUS;
	}
	char msg[256];
	snprintf(msg, sizeof msg, "%s: %s taken back", call_name(t, call), what ? what : "decision");
	return saved(t, rc, err.msg, msg);
}

/* ---- the editor ------------------------------------------------------------ */

/* A call as a correction holds it: an object with a name and, when given,
 * object arguments; NULL when it is one, else what is wrong. */
static const char *not_a_call(const json_t *c)
{
	if (!json_is_object(c))
		return "a call is an object {\"name\": ..., \"arguments\": {...}}";
	const json_t *name = json_object_get(c, "name");
	if (!json_is_string(name) || !json_string_value(name)[0])
		return "the call has no \"name\"";
	const json_t *args = json_object_get(c, "arguments");
	if (args && !json_is_object(args))
		return "\"arguments\" is not an object";
	return NULL;
}

static const char *shape_problem(enum correction_kind kind, const json_t *v)
{
	if (kind != CORR_INSERT || !json_is_array(v))
		return not_a_call(v);
	if (!json_array_size(v))
		return "the list names no call";
	for (size_t i = 0; i < json_array_size(v); i++)
		if (not_a_call(json_array_get(v, i)))
			return not_a_call(json_array_get(v, i));
	return NULL;
}

/* A question of one key about a correction (calls_prompt_key answers it). */
static void ask_key(struct tui *t, enum correction_kind kind, size_t call, char *text, char ask)
{
	free(t->fix.text);
	t->fix.kind = kind;
	t->fix.call = call;
	t->fix.text = text;
	t->fix.ask = ask;
}

/* What was saved could not be used: the text is kept, and e edits it again. */
static unsigned offer_again(struct tui *t, enum correction_kind kind, size_t call, char *text,
                            const char *why)
{
	ask_key(t, kind, call, text, 'e');
	char label[160];
	snprintf(label, sizeof label, "%.110s; e edits again, Esc drops it: ", why);
	prompt_start(t, PROMPT_CALL_KEY, label);
	tui_message(t, true, "%s", why);
	return REDRAW_ALL | REDRAW_CLEAR;
}

/* The answer as the editor left it, its last newlines aside. */
static void trim_end(char *s)
{
	size_t n = strlen(s);
	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		s[--n] = '\0';
}

static unsigned save_answer(struct tui *t, char *text, const char *before)
{
	trim_end(text);
	json_t *s = json_string(text);
	unsigned r;
	if (!strcmp(text, before)) {
		tui_message(t, false, "the answer is unchanged: nothing written");
		r = REDRAW_ALL | REDRAW_CLEAR;
	} else if (!s) {
		r = offer_again(t, CORR_ANSWER, 0, xstrdup(text), "the answer is not valid UTF-8");
	} else {
		char *js = json_dumps(s, JSON_ENCODE_ANY);
		struct error err = {0};
		int rc = review_call_correct(t->rv, 0, CORR_ANSWER, js, &err);
		free(js);
		r = saved(t, rc, err.msg, "expected answer recorded") | REDRAW_CLEAR;
	}
	json_decref(s);
	free(text);
	return r;
}

/* The text the editor saved for a call's correction: checked, then written. */
static unsigned save_call(struct tui *t, enum correction_kind kind, size_t call, char *text,
                          const char *before)
{
	json_error_t je;
	json_t *v = json_loads(text, 0, &je), *was = json_loads(before, 0, NULL);
	char why[256];
	unsigned r;
	if (!v) {
		snprintf(why, sizeof why, "not JSON: line %d, column %d: %s", je.line, je.column, je.text);
		r = offer_again(t, kind, call, text, why);
		text = NULL;
	} else if (was && json_equal(v, was)) {
		tui_message(t, false, "unchanged: nothing written");
		r = REDRAW_ALL | REDRAW_CLEAR;
	} else if (shape_problem(kind, v)) {
		r = offer_again(t, kind, call, text, shape_problem(kind, v));
		text = NULL;
	} else {
		char *js = json_dumps(v, JSON_COMPACT | JSON_PRESERVE_ORDER);
		struct error err = {0};
		int rc = review_call_correct(t->rv, call, kind, js, &err);
		free(js);
		const struct run *run = shown_run(t);
		snprintf(why, sizeof why, kind == CORR_REPLACE ? "correction of %s" :
		         run && call >= run->ncalls ? "call missing at the end%s" :
		         "call missing before %s", kind == CORR_REPLACE || !run || call < run->ncalls
		         ? call_name(t, call) : "");
		r = saved(t, rc, err.msg, why) | REDRAW_CLEAR;
	}
	json_decref(v);
	json_decref(was);
	free(text);
	return r;
}

/* Opens the editor on `text` for a correction of `kind`; `before` is what
 * the reviewer was first shown (the same text saved again writes nothing). */
static unsigned edit(struct tui *t, enum correction_kind kind, size_t call, const char *text,
                     const char *before)
{
	struct error err = {0};
	char *got = editor_edit(t, text, kind == CORR_ANSWER ? ".txt" : ".json", &err);
	if (!got) {
		tui_message(t, true, "%s", err.msg);
		return REDRAW_ALL | REDRAW_CLEAR;
	}
	if (kind == CORR_ANSWER)
		return save_answer(t, got, before);
	return save_call(t, kind, call, got, before);
}

/* The call as the editor shows it first: {"name", "arguments"}, indented. */
static char *call_text(struct tui *t, size_t call)
{
	const struct review_run *rr = review_current(tui_rv(t));
	struct run_call *c = &rr->run->calls[call];
	json_t *args = run_call_args(rr->run, c);
	json_t *o = json_pack("{s:s, s:o}", "name", c->name, "arguments",
	                      args && !json_is_null(args) ? json_incref(args) : json_object());
	char *s = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(o);
	size_t n = strlen(s);
	s = xrealloc(s, n + 2);
	memcpy(s + n, "\n", 2);
	return s;
}

unsigned calls_correct(struct tui *t)
{
	if (!calls_on_call(t))
		return not_on_call(t, "e (should have been)");
	size_t call = selected_call(t);
	char *text = call_text(t, call);
	unsigned r = edit(t, CORR_REPLACE, call, text, text);
	free(text);
	return r;
}

unsigned calls_remove(struct tui *t)
{
	if (!calls_on_call(t))
		return not_on_call(t, "D (should not have been called)");
	size_t call = selected_call(t);
	ask_key(t, CORR_REMOVE, call, NULL, 'y');
	char label[160];
	snprintf(label, sizeof label, "%.80s should not have been called? (y/n) ", call_name(t, call));
	prompt_start(t, PROMPT_CALL_KEY, label);
	return REDRAW_STATUS;
}

unsigned calls_insert(struct tui *t)
{
	if (!calls_on_call(t))
		return not_on_call(t, "i (a call is missing)");
	size_t call = selected_call(t);
	const struct run *r = shown_run(t);
	if (r && call + 1 == r->ncalls) {     /* the last call: before it, or at the end */
		ask_key(t, CORR_INSERT, call, NULL, 'b');
		prompt_start(t, PROMPT_CALL_KEY,
		             "a call is missing: b before this call, a after it (at the end)? ");
		return REDRAW_STATUS;
	}
	return edit(t, CORR_INSERT, call, insert_template, insert_template);
}

unsigned calls_answer(struct tui *t)
{
	const struct run *r = shown_run(t);
	if (!r || r->load_error) {
		tui_message(t, true, "R needs a run that could be read");
		return REDRAW_STATUS;
	}
	const char *now = run_final_agent_text(r);
	char *text = xmalloc(strlen(now) + 2);
	sprintf(text, "%s\n", now);
	unsigned res = edit(t, CORR_ANSWER, 0, text, now);
	free(text);
	return res;
}

unsigned calls_prompt_key(struct tui *t, keycode_t key)
{
	t->pr.kind = PROMPT_NONE;
	char ask = t->fix.ask;
	t->fix.ask = 0;
	struct error err = {0};
	if (ask == 'y' && (key == 'y' || key == 'Y')) {
		size_t call = t->fix.call;
		char what[256];
		snprintf(what, sizeof what, "%s: should not have been called", call_name(t, call));
		return saved(t, review_call_correct(t->rv, call, CORR_REMOVE, NULL, &err), err.msg, what);
	}
	if (ask == 'b' && (key == 'b' || key == 'a')) {
		const struct run *r = shown_run(t);
		size_t call = key == 'a' && r ? r->ncalls : t->fix.call;
		return edit(t, CORR_INSERT, call, insert_template, insert_template);
	}
	if (ask == 'e' && key == 'e') {
		char *text = t->fix.text;
		t->fix.text = NULL;
		unsigned r = edit(t, t->fix.kind, t->fix.call, text, "");
		free(text);
		return r;
	}
	free(t->fix.text);
	t->fix.text = NULL;
	tui_message(t, false, "cancelled");
	return REDRAW_STATUS;
}

void calls_free(struct tui *t)
{
	free(t->fix.text);
	t->fix.text = NULL;
}
