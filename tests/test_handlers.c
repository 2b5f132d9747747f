/* test_handlers.c - the screen's key handlers driven without a terminal.
 *
 * A struct tui is made with tui_init (no initscr) on the screen tests'
 * runs and scorers; keys go through tui_key as a person would type them,
 * and the test looks at the review state and at the lines the annotations
 * file gained. The judge part asks a judge at the local fake server
 * (tests/fake_llm), cancels it with Esc, asks again and decides on the
 * judge's row. The calibration part opens the overlay, reads another
 * reviewer's label through review_refresh and filters a confusion cell. */
#include <errno.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "config/config.h"
#include "runs/expect.h"
#include "review/session.h"
#include "util/clock.h"
#include "../src/tui/tui_int.h"
#include "fake_server.h"
#include "test_files.h"
#include "util/error.h"

static char dir[256];
static const char *argv0 = "";

struct fixture {
	struct config cfg;
	struct expectations *ex;
	struct review rv;
	struct tui t;
	char annot[320];
};

/* ---- files ------------------------------------------------------------- */

static void copy_data(const char *name)
{
	const char *src = getenv("TCR_SRCDIR");
	char from[512], to[512];
	snprintf(from, sizeof from, "%s/tests/data/%s", src && *src ? src : ".", name);
	snprintf(to, sizeof to, "%s/%s", dir, name);
	char *text = test_slurp(from);
	if (!text)
		fail_msg("%s: cannot read (is TCR_SRCDIR set?)", from);
	test_write_file(to, text);
	free(text);
}

/* The annotations file's lines, counted; *line set to line `want` (from
 * 0) when it is there. */
static size_t annot_lines(const struct fixture *fx, size_t want, char *line, size_t n)
{
	char *text = test_slurp(fx->annot);
	size_t count = 0;
	if (line && n)
		line[0] = '\0';
	for (char *p = text; p && *p;) {
		char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		if (count == want && line)
			snprintf(line, n, "%.*s", (int)len, p);
		count++;
		p += len + (nl ? 1 : 0);
	}
	free(text);
	return count;
}

static void assert_has(const char *hay, const char *needle)
{
	if (!strstr(hay, needle))
		fail_msg("\"%s\" not in \"%s\"", needle, hay);
}

/* ---- the session and the screen's state -------------------------------------- */

static void open_fixture(struct fixture *fx, const char *judges_yaml)
{
	memset(fx, 0, sizeof *fx);
	copy_data("screen.yaml");
	copy_data("screen-runs.jsonl");
	copy_data("screen-tasks.jsonl");
	struct error err = {0};
	char cpath[320], *yaml, *runs[1], rpath[320];
	snprintf(cpath, sizeof cpath, "%s/screen.yaml", dir);
	if (judges_yaml) {
		yaml = test_slurp(cpath);
		size_t n = strlen(yaml) + strlen(judges_yaml) + 1;
		char *both = malloc(n);
		snprintf(both, n, "%s%s", yaml, judges_yaml);
		test_write_file(cpath, both);
		free(both);
		free(yaml);
	}
	const struct config_opts load = { .datadir = getenv("TCREVIEW_DATADIR") };
	if (config_load(&fx->cfg, &load, cpath, &err) < 0)
		fail_msg("config_load: %s", err);
	fx->ex = expect_load(&fx->cfg.expect, fx->cfg.expect.file, &err);
	if (!fx->ex)
		fail_msg("expect_load: %s", err.msg);
	snprintf(rpath, sizeof rpath, "%s/screen-runs.jsonl", dir);
	snprintf(fx->annot, sizeof fx->annot, "%s/screen-runs.jsonl.annotations.jsonl", dir);
	unlink(fx->annot);
	runs[0] = rpath;
	if (review_open(&fx->rv, &fx->cfg, fx->ex, runs, 1, NULL, 0, "tester", &err) < 0)
		fail_msg("review_open: %s", err.msg);
	while (review_step(&fx->rv, 50))
		;
	tui_init(&fx->t, &fx->rv, &fx->cfg);
	/* What the draw step would do first: lay the panes out. */
	fx->t.lay = layout_compute(80, 24, verdicts_rows_wanted(&fx->t));
}

static void close_fixture(struct fixture *fx)
{
	tui_judges_close(&fx->t);
	tui_free(&fx->t);
	review_close(&fx->rv);
	expect_free(fx->ex);
	config_free(&fx->cfg);
}

static unsigned keys(struct fixture *fx, const char *typed)
{
	unsigned r = 0;
	for (const char *p = typed; *p; p++)
		r |= tui_key(&fx->t, (keycode_t)(unsigned char)*p);
	return r;
}

static unsigned key(struct fixture *fx, keycode_t k)
{
	return tui_key(&fx->t, k);
}

static const char *cursor_id(struct fixture *fx)
{
	const struct review_entry *e = review_view_entry(&fx->rv, review_cursor(&fx->rv));
	return e && e->id ? e->id : "";
}

/* ---- moves, filters, sort, search, panes ---------------------------------------- */

static void test_moves(void **s)
{
	(void)s;
	struct fixture fx;
	open_fixture(&fx, NULL);
	struct review *rv = &fx.rv;
	assert_int_equal(review_view_count(rv), 6);
	assert_int_equal(fx.t.focus, PANE_LIST);
	unsigned r = keys(&fx, "jj");
	assert_int_equal(review_cursor(rv), 2);
	assert_true(r & REDRAW_LIST);
	assert_string_equal(cursor_id(&fx), "zh-refund");
	keys(&fx, "G");
	assert_int_equal(review_cursor(rv), 5);
	keys(&fx, "k");
	assert_int_equal(review_cursor(rv), 4);
	keys(&fx, "g");
	assert_int_equal(review_cursor(rv), 0);
	key(&fx, 'k');                                 /* clamps at the top */
	assert_int_equal(review_cursor(rv), 0);
	key(&fx, KEYCODE_FN | KF_PGDN);
	assert_int_equal(review_cursor(rv), 5);        /* a page is more than six runs */

	/* The focus goes round; Up and Down act in the focused pane. */
	keys(&fx, "g\t");
	assert_int_equal(fx.t.focus, PANE_TIMELINE);
	timeline_pane.fit(&fx.t);                      /* the draw step builds its lines */
	assert_true(fx.t.tl.nentries > 3);
	assert_int_equal(fx.t.tl.sel, 1);              /* it opens at the user's message */
	keys(&fx, "jj");
	assert_int_equal(fx.t.tl.sel, 3);
	assert_int_equal(review_cursor(rv), 0);        /* the run stays */
	key(&fx, '\t');
	assert_int_equal(fx.t.focus, PANE_VERDICTS);
	keys(&fx, "jjjjjj");
	assert_int_equal(fx.t.vd.sel, 2);              /* three scorers */
	key(&fx, '\n');
	assert_true(fx.t.vd.open);
	key(&fx, KEYCODE_FN | KF_BTAB);
	assert_int_equal(fx.t.focus, PANE_TIMELINE);
	key(&fx, KEYCODE_FN | KF_BTAB);
	assert_int_equal(fx.t.focus, PANE_LIST);
	key(&fx, 'j');                                 /* a new run: the timeline starts over */
	timeline_pane.fit(&fx.t);
	assert_int_equal(fx.t.tl.sel, 1);              /* at ja-fail's user message */
	/* ja-fail fits in the pane: nothing is scrolled off for it */
	assert_true(fx.t.tl.nlines <= (size_t)pane_rows(&fx.t, PANE_TIMELINE));
	assert_int_equal(fx.t.tl.top, 0);

	/* A click on the third run's row selects it. */
	const struct rect *lp = &fx.t.lay.pane[PANE_LIST];
	r = tui_mouse(&fx.t, lp->x + 5, lp->y + 2 + 2, MOUSE_CLICK);
	assert_true(r & RELAYOUT);
	assert_int_equal(review_cursor(rv), 2);

	/* Help scrolls, and any other key closes it; an unbound key says so. */
	key(&fx, '?');
	assert_true(fx.t.help.shown);
	key(&fx, 'j');
	assert_int_equal(fx.t.help.top, 1);
	key(&fx, 'z');
	assert_false(fx.t.help.shown);
	key(&fx, 'Z');
	assert_true(fx.t.msg.error);
	assert_string_equal(fx.t.msg.text, "Z is not bound (? for help)");
	close_fixture(&fx);
}

/* Every message is kept whole in the log (not cut at the status line's
 * 512 bytes), a repeat counted once, the oldest dropped past 200; M opens
 * the log, any key but a scrolling one closes it. */
static void test_message_log(void **s)
{
	(void)s;
	struct fixture fx;
	open_fixture(&fx, NULL);
	char big[1500];
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	tui_message(&fx.t, true, "long: %s", big);
	assert_int_equal(fx.t.log.n, 1);
	const struct msglog_entry *e = &fx.t.log.e[0];
	assert_int_equal(strlen(e->text), strlen("long: ") + sizeof big - 1);
	assert_true(e->error);
	assert_true(strlen(fx.t.msg.text) < sizeof fx.t.msg.text);
	tui_message(&fx.t, false, "again");
	tui_message(&fx.t, false, "again");
	assert_int_equal(fx.t.log.n, 2);
	assert_int_equal(fx.t.log.e[1].repeat, 2);
	for (int i = 0; i < 250; i++)
		tui_message(&fx.t, false, "message %d", i);
	assert_int_equal(fx.t.log.n, MSGLOG_MAX);
	assert_string_equal(fx.t.log.e[(fx.t.log.head + MSGLOG_MAX - 1) % MSGLOG_MAX].text, "message 249");
	assert_string_equal(fx.t.log.e[fx.t.log.head].text, "message 50");
	key(&fx, 'M');
	assert_true(fx.t.log.shown);
	key(&fx, 'j');
	assert_true(fx.t.log.shown);
	key(&fx, 27);
	assert_false(fx.t.log.shown);
	close_fixture(&fx);
}

static void test_filters(void **s)
{
	(void)s;
	struct fixture fx;
	open_fixture(&fx, NULL);
	struct review *rv = &fx.rv;
	/* f opens the menu; a letter picks a filter and closes it. */
	key(&fx, 'f');
	assert_true(fx.t.fmenu.shown);
	assert_int_equal(rv->filter, FILTER_ALL);
	key(&fx, 'u');
	assert_false(fx.t.fmenu.shown);
	assert_int_equal(rv->filter, FILTER_UNREVIEWED);
	assert_int_equal(review_view_count(rv), 5);    /* not the record that cannot be read */
	keys(&fx, "ff");
	assert_int_equal(rv->filter, FILTER_FAILING);
	size_t n = review_view_count(rv);
	assert_true(n > 0 && n < 6);
	for (size_t i = 0; i < n; i++) {
		const struct review_entry *e = review_view_entry(rv, i);
		bool fails = false;
		for (size_t c = 0; c < fx.cfg.nscorers; c++)
			fails |= e->cells[c].status == VERDICT_OK && !e->cells[c].passed;
		assert_true(fails);
	}
	keys(&fx, "fe");
	assert_int_equal(rv->filter, FILTER_ERRORS);
	/* no judges here: the menu leaves out the filters about judges, whose
	 * letters then pick nothing */
	keys(&fx, "fh");
	assert_true(fx.t.fmenu.shown);
	assert_int_equal(rv->filter, FILTER_ERRORS);
	key(&fx, 27);                                   /* Esc: as it was */
	assert_false(fx.t.fmenu.shown);
	assert_int_equal(rv->filter, FILTER_ERRORS);
	keys(&fx, "fc");
	assert_int_equal(rv->filter, FILTER_CODE_HUMAN);
	keys(&fx, "fr");
	assert_int_equal(rv->filter, FILTER_REVIEWERS);
	/* j moves down the menu, Enter picks: the one after reviewers */
	keys(&fx, "fj\n");
	assert_int_equal(rv->filter, FILTER_STALE);
	/* and from the last one j goes round to all */
	keys(&fx, "fj\n");
	assert_int_equal(rv->filter, FILTER_ALL);
	assert_string_equal(fx.t.msg.text, "filter: all");
	assert_int_equal(review_view_count(rv), 6);

	key(&fx, 's');
	assert_int_equal(rv->sort, SORT_ID);
	for (size_t i = 1; i < review_view_count(rv); i++)
		assert_true(strcmp(review_view_entry(rv, i - 1)->id, review_view_entry(rv, i)->id) <= 0);
	keys(&fx, "sss");
	assert_int_equal(rv->sort, SORT_FILE);
	assert_string_equal(fx.t.msg.text, "sort: file order");

	/* A search through the prompt, then n again from the top. */
	key(&fx, '/');
	assert_int_equal(fx.t.pr.kind, PROMPT_SEARCH);
	keys(&fx, "refund\n");
	assert_int_equal(fx.t.pr.kind, PROMPT_NONE);
	assert_string_equal(cursor_id(&fx), "zh-refund");
	assert_string_equal(fx.t.msg.text, "/refund");
	/* n steps through the run's own matches (the fit, which no draw calls
	 * here, would have shown the first) */
	key(&fx, 'n');
	assert_string_equal(cursor_id(&fx), "zh-refund");
	assert_non_null(strstr(fx.t.msg.text, "/refund  match 1 of "));
	key(&fx, '/');
	keys(&fx, "no such text anywhere\n");
	assert_true(fx.t.msg.error);
	assert_string_equal(fx.t.msg.text, "not found: no such text anywhere");
	close_fixture(&fx);
}

/* ---- decisions -------------------------------------------------------------------- */

static void test_decisions(void **s)
{
	(void)s;
	struct fixture fx;
	open_fixture(&fx, NULL);
	struct review *rv = &fx.rv;
	char line[2048];
	keys(&fx, "\t\t");                             /* the verdicts */
	size_t e0 = rv->view[0];

	/* accept the first verdict: like a digit, `a` moves on to the next
	 * undecided row */
	unsigned r = key(&fx, 'a');
	assert_true(r & REDRAW_VERDICTS);
	assert_string_equal(fx.t.msg.text, "tool-order accepted (saved)");
	assert_int_equal(fx.t.vd.sel, 1);
	assert_int_equal(review_decision(rv, e0, 0)->kind, DEC_ACCEPT);
	assert_int_equal(annot_lines(&fx, 0, line, sizeof line), 1);
	assert_has(line, "\"run\":\"en-pass\"");
	assert_has(line, "\"scorer\":\"tool-order\"");
	assert_has(line, "\"decision\":\"accept\"");

	/* override the second: a score off the scale is asked again, then a reason */
	key(&fx, 'o');
	assert_int_equal(fx.t.pr.kind, PROMPT_SCORE);
	assert_string_equal(fx.t.pr.label, "override lookup, score (0 or 1): ");
	keys(&fx, "7\n");
	assert_int_equal(fx.t.pr.kind, PROMPT_SCORE);
	assert_string_equal(fx.t.pr.label, "override lookup: expected 0 or 1, try again: ");
	keys(&fx, "0\n");
	assert_int_equal(fx.t.pr.kind, PROMPT_REASON);
	keys(&fx, "looked twice\n");
	assert_string_equal(fx.t.msg.text, "lookup overridden (saved)");
	const struct decision *d = review_decision(rv, e0, 1);
	assert_int_equal(d->kind, DEC_OVERRIDE);
	assert_true(d->score == 0);
	assert_string_equal(d->reason, "looked twice");
	assert_int_equal(annot_lines(&fx, 1, line, sizeof line), 2);
	assert_has(line, "\"scorer\":\"lookup\"");
	assert_has(line, "\"decision\":\"override\"");
	assert_has(line, "looked twice");

	/* a label off the scale says what the scale takes, and decides nothing */
	key(&fx, 'j');
	key(&fx, '5');
	assert_true(fx.t.msg.error);
	assert_string_equal(fx.t.msg.text, "words: 5 is not on its scale (0..1)");
	assert_int_equal(annot_lines(&fx, 0, NULL, 0), 2);
	/* a label on it decides and, the run being reviewed, moves to the next
	 * unreviewed run, on its first undecided row */
	key(&fx, '1');
	assert_int_equal(review_cursor(rv), 1);
	assert_int_equal(fx.t.vd.sel, 0);
	assert_string_equal(fx.t.msg.text, "words labelled 1 (saved)");
	assert_non_null(review_decision(rv, e0, 2));
	assert_int_equal(review_mark_of(rv, e0), MARK_OVERRIDDEN);
	assert_int_equal(annot_lines(&fx, 2, line, sizeof line), 3);
	assert_has(line, "\"scorer\":\"words\"");

	/* back to the first run: take the label back, and write a note */
	key(&fx, KEYCODE_FN | KF_BTAB);
	key(&fx, KEYCODE_FN | KF_BTAB);
	key(&fx, 'k');
	keys(&fx, "\t\tjj");
	assert_int_equal(fx.t.vd.sel, 2);
	key(&fx, 'x');
	assert_string_equal(fx.t.msg.text, "decision taken back (saved)");
	assert_null(review_decision(rv, e0, 2));
	assert_int_equal(review_mark_of(rv, e0), MARK_UNREVIEWED);
	assert_int_equal(annot_lines(&fx, 3, line, sizeof line), 4);
	assert_has(line, "\"scorer\":\"words\"");
	assert_has(line, "\"decision\":\"retract\"");
	key(&fx, 'x');                                 /* nothing left to take back */
	assert_string_equal(fx.t.msg.text, "not saved: nothing to take back");
	assert_int_equal(review_last_error(rv), ERR_NOTHING_TO_RETRACT);
	key(&fx, 'c');
	assert_int_equal(fx.t.pr.kind, PROMPT_NOTE);
	keys(&fx, "fine\n");
	assert_string_equal(fx.t.msg.text, "note written (saved)");
	assert_string_equal(review_note_of(rv, e0)->reason, "fine");
	assert_int_equal(annot_lines(&fx, 4, line, sizeof line), 5);
	assert_has(line, "\"decision\":\"note\"");

	/* Esc leaves a prompt without deciding */
	key(&fx, 'o');
	key(&fx, 27);
	assert_int_equal(fx.t.pr.kind, PROMPT_NONE);
	assert_string_equal(fx.t.msg.text, "cancelled");

	/* accept-all decides what is left and goes to the next unreviewed run */
	key(&fx, 'A');
	assert_string_equal(fx.t.msg.text, "all verdicts accepted (saved)");
	assert_int_equal(review_mark_of(rv, e0), MARK_OVERRIDDEN);
	assert_int_equal(review_cursor(rv), 1);
	assert_int_equal(annot_lines(&fx, 5, line, sizeof line), 6);
	assert_has(line, "\"scorer\":\"words\"");

	/* `o` with the machine's own score is an accept, as a digit is; the
	 * reason is kept. Not moving: `o` stays on its row. */
	size_t e1 = review_current(rv)->entry;
	key(&fx, 'g');
	assert_int_equal(fx.t.focus, PANE_VERDICTS);
	assert_int_equal(fx.t.vd.sel, 0);
	struct review_row row;
	assert_true(review_row_get(rv, review_current(rv), 0, &row));
	assert_int_equal(row.v->status, VERDICT_OK);
	char score[32];
	snprintf(score, sizeof score, "%g\n", row.v->score);
	key(&fx, 'o');
	keys(&fx, score);
	keys(&fx, "same as the machine\n");
	char want[128];
	snprintf(want, sizeof want, "%s: same score, accepted (saved)", row.id);
	assert_string_equal(fx.t.msg.text, want);
	d = review_decision(rv, e1, 0);
	assert_int_equal(d->kind, DEC_ACCEPT);
	assert_true(d->score == row.v->score);
	assert_string_equal(d->reason, "same as the machine");
	assert_int_equal(annot_lines(&fx, 6, line, sizeof line), 7);
	assert_has(line, "\"decision\":\"accept\"");
	assert_int_equal(fx.t.vd.sel, 0);
	close_fixture(&fx);
}

/* ---- calibration: the overlay, labels from another reviewer, a cell's runs -------- */

/* A second reviewer labels a run's row in a session of their own on the
 * same annotations file, as another process would. */
static void other_reviewer_labels(struct fixture *fx, const char *id, size_t row, double score)
{
	struct review other;
	struct error err = {0};
	char rpath[320];
	snprintf(rpath, sizeof rpath, "%s/screen-runs.jsonl", dir);
	char *runs[] = { rpath };
	const char *annots[] = { fx->annot };
	if (review_open(&other, &fx->cfg, fx->ex, runs, 1, annots, 1, "other", &err) < 0)
		fail_msg("review_open: %s", err.msg);
	while (review_step(&other, 50))
		;
	size_t n = review_view_count(&other), i = 0;
	while (i < n && strcmp(review_view_entry(&other, i)->id, id) != 0)
		i++;
	assert_true(i < n);
	review_move_to(&other, i);
	bool accepted;
	assert_int_equal(review_label(&other, row, score, &accepted, &err), 0);
	review_close(&other);
}

static void test_calibration(void **s)
{
	(void)s;
	struct fixture fx;
	open_fixture(&fx, NULL);
	struct review *rv = &fx.rv;
	/* digits: en-pass's three rows, then on to ja-fail */
	keys(&fx, "11");
	assert_int_equal(fx.t.vd.sel, 2);
	assert_string_equal(cursor_id(&fx), "en-pass");
	keys(&fx, "1");
	assert_string_equal(cursor_id(&fx), "ja-fail");
	assert_int_equal(fx.t.vd.sel, 0);
	assert_int_equal(annot_lines(&fx, 0, NULL, 0), 3);

	/* Left and Right outside the overlay say where they work */
	key(&fx, KEY_FN(KF_RIGHT));
	assert_has(fx.t.msg.text, "calibration's matrix (K opens it)");

	key(&fx, 'K');
	assert_true(fx.t.cal.shown);
	calpane_fit(&fx.t);
	assert_true(fx.t.cal.built);
	const struct calib_pair *p = calib_find(&fx.t.cal.c, "tool-order");
	assert_non_null(p);
	assert_int_equal(p->n, 1);
	/* another reviewer's label, read by the refresh the loop does */
	other_reviewer_labels(&fx, "ja-fail", 0, 0);
	assert_true(review_refresh(rv) > 0);
	calpane_fit(&fx.t);
	p = calib_find(&fx.t.cal.c, "tool-order");
	assert_int_equal(p->n, 2);
	assert_int_equal(p->counts[0], 1);                 /* fail/fail: ja-fail */
	assert_int_equal(p->counts[3], 1);                 /* pass/pass: en-pass */

	/* keys in the overlay: criteria, cells, an empty cell, then a cell's runs */
	key(&fx, 'j');
	assert_int_equal(fx.t.cal.sel, 1);
	key(&fx, 'k');
	key(&fx, KEY_FN(KF_RIGHT));
	assert_int_equal(fx.t.cal.cell, 1);
	key(&fx, KEY_FN(KF_PGDN));
	assert_int_equal(fx.t.cal.cell, 3);
	key(&fx, KEY_FN(KF_RIGHT));
	assert_int_equal(fx.t.cal.cell, 0);                /* wraps */
	key(&fx, KEY_FN(KF_LEFT));
	assert_int_equal(fx.t.cal.cell, 3);
	key(&fx, KEY_FN(KF_PGUP));
	key(&fx, KEY_FN(KF_LEFT));
	assert_int_equal(fx.t.cal.cell, 0);
	key(&fx, KEY_FN(KF_RIGHT));
	key(&fx, '\n');                                   /* fail/pass: empty */
	assert_true(fx.t.msg.error);
	assert_has(fx.t.msg.text, "no run in the cell scorer:tool-order fail / human pass");
	assert_true(fx.t.cal.shown);
	key(&fx, KEY_FN(KF_LEFT));
	key(&fx, '\n');
	assert_false(fx.t.cal.shown);
	assert_int_equal(rv->filter, FILTER_CELL);
	assert_string_equal(review_filter_label(rv), "kappa cell scorer:tool-order fail/fail (1)");
	assert_int_equal(review_view_count(rv), 1);
	assert_string_equal(cursor_id(&fx), "ja-fail");
	keys(&fx, "fa");                                  /* the menu's all */
	assert_int_equal(rv->filter, FILTER_ALL);

	/* Esc and K close it; other keys say what works there */
	key(&fx, 'K');
	key(&fx, 'a');
	assert_has(fx.t.msg.text, "Esc or K closes");
	assert_int_equal(annot_lines(&fx, 0, NULL, 0), 4);   /* 'a' decided nothing */
	key(&fx, 27);
	assert_false(fx.t.cal.shown);
	key(&fx, 'K');
	key(&fx, 'K');
	assert_false(fx.t.cal.shown);

	/* ]: every label agrees with the machine on pass/fail (en-pass's words:
	 * 0.5 and the label 1 both pass; ja-fail's 0 and 0), so it finds none */
	review_move_to(rv, 0);
	key(&fx, ']');
	assert_string_equal(fx.t.msg.text, "no run in view has a disagreement");

	/* blind: accepts and the overlay are refused */
	rv->blind = true;
	key(&fx, 'K');
	assert_false(fx.t.cal.shown);
	assert_has(fx.t.msg.text, "no calibration in blind mode");
	review_move_to(rv, 2);
	key(&fx, 'a');
	assert_has(fx.t.msg.text, "not saved: blind: type a label");
	key(&fx, 'A');
	assert_has(fx.t.msg.text, "not saved: blind: type a label");
	assert_int_equal(review_last_error(rv), ERR_BLIND);
	key(&fx, '0');
	assert_int_equal(annot_lines(&fx, 4, NULL, 0), 5);
	char line[2048];
	annot_lines(&fx, 4, line, sizeof line);
	assert_has(line, "\"blind\":true");
	close_fixture(&fx);
}

/* ---- judges, at the fake server ---------------------------------------------------- */

static struct fake_server srv;

/* The event loop's judging part, until nothing is pending. */
static void wait_for_judges(struct fixture *fx, double max_ms)
{
	double end = now_ms() + max_ms;
	while (fx->t.judging.pending && now_ms() < end) {
		struct pollfd fds[64];
		int timeout;
		int n = tui_judges_pollfds(&fx->t, fds, 64, &timeout);
		poll(fds, (nfds_t)n, timeout < 0 || timeout > 50 ? 50 : timeout);
		tui_judges_run(&fx->t);
	}
	if (fx->t.judging.pending)
		fail_msg("the judge did not answer within %.0f ms", max_ms);
}

#define EVALS "{\"evaluations\": [" \
	"{\"toolCalled\": \"get_order\", \"wasAppropriate\": true, \"reasoning\": \"asked about\"}," \
	"{\"toolCalled\": \"track_parcel\", \"wasAppropriate\": true, \"reasoning\": \"where it is\"}," \
	"{\"toolCalled\": \"get_order\", \"wasAppropriate\": false, \"reasoning\": \"not needed\"}]," \
	"\"missingTools\": []}"

static void test_judge(void **s)
{
	(void)s;
	/* The first analysis is slow enough to be cancelled; the next answers. */
	fake_server_start(&srv, argv0, dir, "{\"rules\": ["
	             "{\"match\": {\"body_contains\": \"Explain a score for a person\"}, \"content\": \"Two of three.\"},"
	             "{\"match\": {\"body_contains\": \"tool_appropriateness\"}, \"times\": 1, \"delay_ms\": 2000,"
	             " \"content\": " EVALS "},"
	             "{\"match\": {\"body_contains\": \"tool_appropriateness\"}, \"content\": " EVALS "}"
	             "], \"default\": {\"status\": 418, \"raw\": \"no rule\"}}");
	char judges[512];
	snprintf(judges, sizeof judges,
	         "judges:\n  - id: appr\n    rubric: tool-appropriateness\n    model: openai/judge-model\n"
	         "    base_url: http://127.0.0.1:%d/v1\n"
	         "    tools: [{name: get_order, description: looks an order up},"
	         " {name: track_parcel, description: tracks a parcel}]\n", srv.port);
	struct fixture fx;
	open_fixture(&fx, judges);
	struct review *rv = &fx.rv;
	struct error err = {0};
	char line[2048];
	assert_int_equal(tui_judges_open(&fx.t, &err), 0);
	size_t e0 = rv->view[0];
	keys(&fx, "\t\tjjj");
	assert_int_equal(fx.t.vd.sel, 3);              /* the judge's row, after three scorers */
	struct review_row row;
	assert_true(review_row_get(rv, review_current(rv), 3, &row));
	assert_int_equal(row.kind, ROW_JUDGE);
	assert_int_equal(row.state, ROW_NOT_ASKED);

	/* not asked yet: nothing to accept or override */
	key(&fx, 'a');
	assert_string_equal(fx.t.msg.text, "not saved: appr has not answered for this run yet (J asks it)");
	assert_int_equal(review_last_error(rv), ERR_JUDGE_NOT_ASKED);
	key(&fx, 'o');
	assert_int_equal(fx.t.pr.kind, PROMPT_NONE);
	assert_string_equal(fx.t.msg.text, "appr has not answered for this run yet (J asks it)");

	/* J asks; Esc cancels */
	key(&fx, 'J');
	assert_int_equal(fx.t.judging.pending, 1);
	assert_int_equal(review_judge_cell(rv, e0, 0)->state, JUDGE_PENDING);
	assert_string_equal(fx.t.msg.text, "asking 1 judge (Esc cancels)");
	key(&fx, 'a');
	assert_int_equal(review_last_error(rv), ERR_JUDGE_PENDING);
	key(&fx, 27);
	assert_int_equal(fx.t.judging.pending, 0);
	assert_string_equal(fx.t.msg.text, "cancelled 1 judge request");
	assert_int_equal(review_judge_cell(rv, e0, 0)->state, JUDGE_DONE);
	assert_int_equal(review_judge_cell(rv, e0, 0)->v.status, VERDICT_ERROR);
	assert_int_equal(annot_lines(&fx, 0, NULL, 0), 0);

	/* J again: the answer lands in the row, which can then be decided */
	key(&fx, 'J');
	wait_for_judges(&fx, 120000);     /* a guard, not a measure */
	assert_string_equal(fx.t.msg.text, "appr answered: 0.67 (pass)");
	assert_true(review_row_get(rv, review_current(rv), 3, &row));
	assert_int_equal(row.state, ROW_READY);
	assert_int_equal(row.v->status, VERDICT_OK);
	key(&fx, 'a');
	assert_string_equal(fx.t.msg.text, "appr accepted (saved)");
	assert_int_equal(fx.t.vd.sel, 0);              /* on, to the first undecided row */
	key(&fx, 'G');
	assert_int_equal(fx.t.vd.sel, 3);
	assert_int_equal(annot_lines(&fx, 0, line, sizeof line), 1);
	assert_has(line, "\"scorer\":\"appr\"");
	assert_has(line, "\"scorer_type\":\"tool-appropriateness\"");
	assert_has(line, "\"decision\":\"accept\"");
	/* a label on the judge's row is on its scale */
	key(&fx, '5');
	assert_string_equal(fx.t.msg.text, "appr: 5 is not on its scale (0..1)");
	close_fixture(&fx);
	/* the answer took an analysis and a reason (the cancelled request is
	 * logged or not, depending on when the server saw it go) */
	assert_true(fake_server_requests(&srv) >= 2);
	fake_server_stop(&srv);
}

/* ---- fixtures ---------------------------------------------------------------------- */

static int setup(void **s)
{
	(void)s;
	const char *tmp = getenv("TMPDIR");
	snprintf(dir, sizeof dir, "%s/tcr-handlers.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		return -1;
	setenv("OPENAI_API_KEY", "sk-test-handlers", 1);
	setenv("TCR_NO_ANIMATION", "1", 1);
	test_local_only();
	return 0;
}

/* z zooms the focused pane; zoomed, Tab moves the zoom, and a click
 * anywhere above the status line is the zoomed pane's. */
static void test_zoom(void **s)
{
	(void)s;
	struct fixture fx;
	open_fixture(&fx, NULL);
	key(&fx, '\t');
	unsigned r = key(&fx, 'z');
	assert_true(fx.t.zoom);
	assert_true(r & RELAYOUT);
	struct layout_want w = { .nverdict_rows = 4, .zoom = fx.t.zoom ? (int)fx.t.focus : PANE_COUNT };
	fx.t.lay = layout_compute_with(80, 24, &w);
	assert_int_equal(fx.t.lay.pane[PANE_TIMELINE].w, 80);
	r = tui_mouse(&fx.t, 2, 3, MOUSE_CLICK);       /* where the list was */
	assert_int_equal(fx.t.focus, PANE_TIMELINE);
	assert_int_equal(review_cursor(&fx.rv), 0);
	r = key(&fx, '\t');
	assert_int_equal(fx.t.focus, PANE_VERDICTS);
	assert_true(r & RELAYOUT);                     /* the zoom follows the focus */
	r = key(&fx, 'z');
	assert_false(fx.t.zoom);
	assert_true(r & RELAYOUT);
	r = key(&fx, '\t');
	assert_false(r & RELAYOUT);                    /* unzoomed, focus moves nothing */
	close_fixture(&fx);
}

static int teardown(void **s)
{
	(void)s;
	fake_server_stop(&srv);
	char cmd[320];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
	(void)argc;
	argv0 = argv[0];
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_moves),
		cmocka_unit_test(test_filters),
		cmocka_unit_test(test_message_log),
		cmocka_unit_test(test_decisions),
		cmocka_unit_test(test_calibration),
		cmocka_unit_test(test_judge),
		cmocka_unit_test(test_zoom),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
