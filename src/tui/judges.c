/* judges.c - LLM judges on the screen: the event loop's side of
 * review/judging (its sockets, redraw flags, status-line messages); the
 * "judging 3s" spinner is spinner.c's.
 *
 * Requests go through the judge client, whose sockets the event loop polls
 * beside the terminal; nothing here blocks. A J that must wait (for the
 * examples to be gathered, for a local judge's address to be probed) is
 * answered at once with what it waits for, and the loop does that work
 * between keys (tui_judges_run). Verdicts land in the session's
 * judge cells (shown as list cells and verdict rows) and in the cache
 * beside the first input, so reopening shows them without asking again. */
#include <stdlib.h>
#include <string.h>

#include "judge/trust.h"
#include "review/judging.h"
#include "util/clock.h"
#include "tui_int.h"
#include "util/error.h"

/* What a J waits for is said again as it goes, unless another message
 * took its place meanwhile. */
static void show(struct tui *t, const struct judging_note *note)
{
	if (!note->text[0])
		return;
	if (note->progress && t->msg.text[0] && strcmp(t->msg.text, t->judging_said) != 0)
		return;
	tui_note(t, note->error, note->progress, note->text);
	/* cut as the status line's own copy is cut, so the two compare */
	snprintf(t->judging_said, sizeof t->judging_said, "%.*s", (int)sizeof t->judging_said - 1,
	         note->progress ? note->text : "");
	if (t->trace.f) {
		/* in order with the keys' lines: what a J waited for, and when it ended */
		fprintf(t->trace.f, "judges %s\n", note->text);
		fflush(t->trace.f);
	}
}

int tui_judges_open(struct tui *t, struct error *err)
{
	struct judging_note note;
	int rc = judging_open(&t->judging, t->rv, t->ca_file, &note, err);
	show(t, &note);
	return rc;
}

void tui_judges_close(struct tui *t)
{
	judging_close(&t->judging);
}

/* Verdicts judged earlier show up as soon as the run is looked at. */
void tui_judges_fill(struct tui *t, size_t entry)
{
	if (judging_fill(&t->judging, entry))
		t->dirty |= REDRAW_ALL;
}

/* The first judge asked (which, or all for -1) that needs the user's
 * leave for its host or its key variable, or NULL. */
static const struct judge_conf *needs_leave(const struct tui *t, long which)
{
	for (size_t j = 0; j < t->cfg->njudges; j++) {
		const struct judge_conf *jc = &t->cfg->judges[j];
		if ((which < 0 || (size_t)which == j) &&
		    (judge_needs_leave(jc) || judge_needs_key_leave(jc)))
			return jc;
	}
	return NULL;
}

/* A configuration may come from someone else: the first request to a
 * host the user has not allowed, or with a key from a variable not named
 * like a credential, waits for a y, which is remembered in the user's
 * configuration folder (judge/trust.h). */
unsigned tui_judges_ask(struct tui *t, long which)
{
	const struct judge_conf *jc = needs_leave(t, which);
	if (jc) {
		char label[sizeof t->pr.label];
		const char *env = judge_needs_key_leave(jc);
		if (env)
			snprintf(label, sizeof label, "judge %s sends $%s as its key, not a credential's "
			         "name: allow and remember it? y/n ", jc->id, env);
		else
			snprintf(label, sizeof label, "judge %s sends runs%s to %s, not allowed yet: allow "
			         "and remember it? y/n ", jc->id, judge_sends_key(jc) ? " and its key" : "",
			         judge_needs_leave(jc));
		prompt_start(t, PROMPT_ALLOW_HOST, label);
		t->pr.judge = which;
		return REDRAW_STATUS;
	}
	struct judging_note note;
	bool changed = judging_request(&t->judging, which, &note);
	show(t, &note);
	return changed ? REDRAW_ALL | RELAYOUT : REDRAW_STATUS;
}

unsigned tui_judges_allow_key(struct tui *t, keycode_t key)
{
	t->pr.kind = PROMPT_NONE;
	const struct judge_conf *jc = needs_leave(t, t->pr.judge);
	if (!jc)
		return tui_judges_ask(t, t->pr.judge);
	const char *env = judge_needs_key_leave(jc);
	const char *what = env ? env : judge_needs_leave(jc);
	if (key != 'y' && key != 'Y') {
		tui_message(t, false, "not asked: %s%s is not allowed", env ? "$" : "", what);
		return REDRAW_STATUS;
	}
	struct error err = {0};
	int rc = env ? judge_allow_remember_key_env(jc->trust, env, &err)
	             : judge_allow_remember(jc->trust, what, &err);
	if (rc < 0)
		tui_message(t, true, "allowed for now only: %s", err.msg);
	/* what the judge needs next, or the judges asked */
	return tui_judges_ask(t, t->pr.judge);
}

unsigned tui_judges_cancel(struct tui *t)
{
	struct judging_note note;
	size_t n = judging_cancel(&t->judging, &note);
	show(t, &note);
	if (!n)
		return 0;
	/* the cancelled cells show their error */
	t->dirty |= REDRAW_ALL | RELAYOUT;
	return REDRAW_ALL;
}

bool tui_judges_busy(const struct tui *t)
{
	return t->judging.pending || judging_working(&t->judging);
}

int tui_judges_pollfds(struct tui *t, struct pollfd *fds, int max, int *timeout_ms)
{
	*timeout_ms = -1;
	if (!tui_judges_busy(t))
		return 0;
	int n = judging_pollfds(&t->judging, fds, max, timeout_ms);
	/* the spinner, the seconds and the progress tick while anything is pending */
	if (*timeout_ms < 0 || *timeout_ms > 100)
		*timeout_ms = 100;
	return n;
}

/* How long a turn may gather examples: keys are read between slices. */
#define GATHER_SLICE_MS 12

void tui_judges_run(struct tui *t)
{
	if (!t->judging.runner || !tui_judges_busy(t))
		return;
	struct judging_note note;
	if (judging_working(&t->judging)) {
		bool changed = judging_work(&t->judging, GATHER_SLICE_MS, &note);
		show(t, &note);
		t->dirty |= changed ? REDRAW_ALL | RELAYOUT : REDRAW_STATUS;
		/* the progress said last is over: it goes, unless replaced already */
		if (!judging_working(&t->judging) && t->judging_said[0]) {
			if (!strcmp(t->msg.text, t->judging_said))
				t->msg.text[0] = '\0';
			t->judging_said[0] = '\0';
		}
	}
	if (t->judging.pending == 0)
		return;
	if (judging_run(&t->judging, &note)) {
		show(t, &note);
		t->dirty |= REDRAW_ALL | RELAYOUT;
	}
	t->dirty |= REDRAW_LIST | REDRAW_VERDICTS;
}
