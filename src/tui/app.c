/* app.c - the event loop and what each action does.
 *
 * Handlers change state (in the review session or the screen's own) and
 * return what must be redrawn; drawing happens once per loop turn and
 * never changes state. Slow work (indexing, scoring the list) runs in
 * slices between keys, so a key is never kept waiting. */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "judge/judge.h"
#include "util/clock.h"
#include "tui_int.h"

static volatile sig_atomic_t got_stop_signal;

/* SIGINT, SIGTERM and SIGHUP end the loop; the terminal is restored on
 * the way out. (SIGWINCH is curses' own: it becomes KEY_RESIZE.) */
static void on_stop_signal(int sig)
{
	got_stop_signal = sig;
}

void tui_message(struct tui *t, bool error, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(t->msg, sizeof t->msg, fmt, ap);
	va_end(ap);
	t->msg_error = error;
}

static struct review_run *current(struct tui *t)
{
	return review_current(t->rv);
}

static size_t current_entry(struct tui *t)
{
	struct review *rv = t->rv;
	if (review_view_count(rv) == 0)
		return SIZE_MAX;
	return rv->view[review_cursor(rv)];
}

/* The selected verdict, clamped to the scorers there are. */
static size_t selected_scorer(struct tui *t)
{
	size_t n = review_nrows(t->rv);
	if (n == 0)
		return SIZE_MAX;
	if (t->v_sel >= n)
		t->v_sel = n - 1;
	return t->v_sel;
}

static unsigned moved(struct tui *t)
{
	t->v_detail_top = 0;
	t->tl_sel = 0;
	t->tl_top = 0;
	return REDRAW_ALL | RELAYOUT;   /* the verdict details, and so the panes, change with the run */
}

static unsigned list_move(struct tui *t, long delta)
{
	review_move(t->rv, delta);
	return moved(t);
}

static int pane_height(const struct tui *t, enum pane p)
{
	int h = t->lay.pane[p].h - 1;
	return h > 1 ? h : 1;
}

static unsigned timeline_move(struct tui *t, long delta)
{
	if (t->nentries == 0)
		return 0;
	long sel = (long)t->tl_sel + delta;
	if (sel < 0)
		sel = 0;
	if (sel >= (long)t->nentries)
		sel = (long)t->nentries - 1;
	t->tl_sel = (size_t)sel;
	return REDRAW_TIMELINE;
}

static unsigned timeline_scroll(struct tui *t, long lines)
{
	long top = (long)t->tl_top + lines;
	long max = (long)t->nlines - pane_height(t, PANE_TIMELINE);
	if (top > max)
		top = max;
	if (top < 0)
		top = 0;
	t->tl_top = (size_t)top;
	/* keep the selection on screen */
	for (size_t e = 0; e < t->nentries; e++)
		if (t->entries[e].first_line >= t->tl_top) {
			if (t->entries[t->tl_sel].first_line < t->tl_top ||
			    t->entries[t->tl_sel].first_line >= t->tl_top + (size_t)pane_height(t, PANE_TIMELINE))
				t->tl_sel = e;
			break;
		}
	return REDRAW_TIMELINE;
}

static unsigned verdict_move(struct tui *t, long delta)
{
	size_t n = review_nrows(t->rv);
	if (n == 0)
		return 0;
	long sel = (long)t->v_sel + delta;
	if (sel < 0)
		sel = 0;
	if (sel >= (long)n)
		sel = (long)n - 1;
	t->v_sel = (size_t)sel;
	t->v_detail_top = 0;
	return REDRAW_VERDICTS | RELAYOUT;
}

static unsigned focused_move(struct tui *t, long delta)
{
	switch (t->focus) {
	case PANE_LIST:     return list_move(t, delta);
	case PANE_TIMELINE: return timeline_move(t, delta);
	case PANE_VERDICTS: return verdict_move(t, delta);
	default:            return 0;
	}
}

static unsigned focused_page(struct tui *t, long dir)
{
	long page = pane_height(t, t->focus) - 1;
	if (page < 1)
		page = 1;
	switch (t->focus) {
	case PANE_LIST:     return list_move(t, dir * page);
	case PANE_TIMELINE: return timeline_scroll(t, dir * page);
	case PANE_VERDICTS:
		if (t->v_open) {
			/* open details scroll by a few lines at a time */
			long top = (long)t->v_detail_top + dir * 3;
			t->v_detail_top = top < 0 ? 0 : (size_t)top;
			return REDRAW_VERDICTS;
		}
		return verdict_move(t, dir * page);
	default:            return 0;
	}
}

static unsigned focused_end(struct tui *t, bool last)
{
	switch (t->focus) {
	case PANE_LIST:
		review_move_to(t->rv, last ? SIZE_MAX : 0);
		return moved(t);
	case PANE_TIMELINE:
		if (t->nentries)
			t->tl_sel = last ? t->nentries - 1 : 0;
		t->tl_top = last && t->nlines > (size_t)pane_height(t, PANE_TIMELINE)
		            ? t->nlines - (size_t)pane_height(t, PANE_TIMELINE) : 0;
		return REDRAW_TIMELINE;
	case PANE_VERDICTS:
		t->v_sel = last && review_nrows(t->rv) ? review_nrows(t->rv) - 1 : 0;
		return REDRAW_VERDICTS | RELAYOUT;
	default:
		return 0;
	}
}

static unsigned toggle(struct tui *t)
{
	if (t->focus == PANE_VERDICTS || t->focus == PANE_LIST) {
		t->v_open = !t->v_open;
		return REDRAW_VERDICTS | RELAYOUT | REDRAW_TIMELINE;
	}
	if (t->tl_sel < t->nentries) {
		long call = t->entries[t->tl_sel].call;
		if (call >= 0 && (size_t)call < t->nexpanded) {
			t->expanded[call] = !t->expanded[call];
			t->tl_width = -1;       /* rebuild the lines */
			return REDRAW_TIMELINE;
		}
	}
	return 0;
}

static void start_prompt(struct tui *t, enum prompt_kind k, const char *label)
{
	t->prompt = k;
	strbuf_reset(&t->input);
	snprintf(t->prompt_label, sizeof t->prompt_label, "%s", label);
	curs_set(1);
}

static unsigned decided(struct tui *t, int rc, const char *err, const char *what)
{
	if (rc < 0)
		tui_message(t, true, "not saved: %s", err);
	else
		tui_message(t, false, "%s (saved)", what);
	return REDRAW_ALL | RELAYOUT;   /* the open details gain or lose lines */
}

static unsigned label(struct tui *t, int digit)
{
	size_t s = selected_scorer(t);
	struct review_run *rr = current(t);
	if (s == SIZE_MAX || !rr)
		return REDRAW_STATUS;
	struct review_row row;
	review_row_get(t->rv, rr, s, &row);
	char text[8], err[256];
	double score;
	snprintf(text, sizeof text, "%d", digit);
	if (review_parse_row_score(t->rv, s, text, &score, err, sizeof err) < 0) {
		/* off the scale: say what the scale takes; else why the row cannot be decided */
		if (review_last_error(t->rv) == REVIEW_OFF_SCALE)
			scale_describe(&row.span, err, sizeof err);
		tui_message(t, true, "%s: %d is not on its scale (%s)", row.id, digit, err);
		return REDRAW_STATUS;
	}
	/* A label that agrees with the machine is an accept: "overridden" must
	 * keep meaning that a person disagreed. */
	bool agrees = row.v && row.v->status == VERDICT_OK && row.v->score == score;
	int rc = agrees ? review_accept(t->rv, s, err, sizeof err)
	                : review_override(t->rv, s, score, NULL, err, sizeof err);
	char what[128];
	snprintf(what, sizeof what, "%s labelled %d%s", row.id, digit, agrees ? " (agrees: accepted)" : "");
	unsigned r = decided(t, rc, err, what);
	if (rc == 0) {
		review_move(t->rv, 1);
		moved(t);
	}
	return r;
}

/* Override asks for the score on the row's scale (a scorer's or a judge's). */
static unsigned override_start(struct tui *t)
{
	size_t s = selected_scorer(t);
	struct review_run *rr = current(t);
	if (s == SIZE_MAX || !rr)
		return REDRAW_STATUS;
	struct review_row row;
	review_row_get(t->rv, rr, s, &row);
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
	t->pending_scorer = s;
	start_prompt(t, PROMPT_SCORE, lbl);
	return REDRAW_STATUS;
}

unsigned tui_act(struct tui *t, enum tcr_action a)
{
	char err[512] = "";
	size_t s;
	switch (a) {
	case ACT_DOWN:        return focused_move(t, 1);
	case ACT_UP:          return focused_move(t, -1);
	case ACT_PAGE_DOWN:   return focused_page(t, 1);
	case ACT_PAGE_UP:     return focused_page(t, -1);
	case ACT_FIRST:       return focused_end(t, false);
	case ACT_LAST:        return focused_end(t, true);
	case ACT_FOCUS_NEXT:
		t->focus = (enum pane)((t->focus + 1) % PANE_COUNT);
		return REDRAW_ALL;
	case ACT_FOCUS_PREV:
		t->focus = (enum pane)((t->focus + PANE_COUNT - 1) % PANE_COUNT);
		return REDRAW_ALL;
	case ACT_TOGGLE:      return toggle(t);
	case ACT_SEARCH:
		start_prompt(t, PROMPT_SEARCH, "/");
		return REDRAW_STATUS;
	case ACT_SEARCH_NEXT:
	case ACT_SEARCH_PREV:
		if (!t->rv->search) {
			tui_message(t, true, "no search yet: press / first");
			return REDRAW_STATUS;
		}
	{
		int dir = a == ACT_SEARCH_NEXT ? 1 : -1;
		size_t before = review_cursor(t->rv);
		if (!review_search(t->rv, NULL, dir)) {
			tui_message(t, true, "not found: %s", t->rv->search);
			return REDRAW_STATUS;
		}
		size_t after = review_cursor(t->rv);
		/* say when the search went past the end (or the start) */
		bool wrapped = dir > 0 ? after <= before : after >= before;
		tui_message(t, false, "/%s%s", t->rv->search,
		            wrapped ? (dir > 0 ? "  (from the top)" : "  (from the bottom)") : "");
		return moved(t);
	}
	/* The status line shows a filter or sort other than the first; the
	 * message only says when it is back to that one. */
	case ACT_FILTER:
		review_set_filter(t->rv, (enum review_filter)((t->rv->filter + 1) % FILTER_COUNT));
		tui_message(t, false, "%s", t->rv->filter == FILTER_ALL ? "filter: all" : "");
		return moved(t);
	case ACT_SORT:
		review_set_sort(t->rv, (enum review_sort)((t->rv->sort + 1) % SORT_COUNT));
		tui_message(t, false, "%s", t->rv->sort == SORT_FILE ? "sort: file order" : "");
		return moved(t);
	case ACT_NEXT_TODO:
		if (!review_next_unreviewed(t->rv)) {
			tui_message(t, false, "every run in view is reviewed");
			return REDRAW_STATUS;
		}
		return moved(t);
	case ACT_ACCEPT:
		s = selected_scorer(t);
		if (s == SIZE_MAX || !current(t))
			return REDRAW_STATUS;
		return decided(t, review_accept(t->rv, s, err, sizeof err), err, "accepted");
	case ACT_ACCEPT_ALL:
		if (!current(t) || review_nrows(t->rv) == 0)
			return REDRAW_STATUS;
		if (review_accept_all(t->rv, err, sizeof err) < 0)
			return decided(t, -1, err, "");
		tui_message(t, false, "all verdicts accepted (saved)");
		return moved(t);
	case ACT_OVERRIDE:    return override_start(t);
	case ACT_LABEL_0: return label(t, 0);
	case ACT_LABEL_1: return label(t, 1);
	case ACT_LABEL_2: return label(t, 2);
	case ACT_LABEL_3: return label(t, 3);
	case ACT_LABEL_4: return label(t, 4);
	case ACT_LABEL_5: return label(t, 5);
	case ACT_NOTE:
		if (!current(t))
			return REDRAW_STATUS;
		start_prompt(t, PROMPT_NOTE, "note: ");
		return REDRAW_STATUS;
	case ACT_RETRACT:
		s = selected_scorer(t);
		if (s == SIZE_MAX || !current(t))
			return REDRAW_STATUS;
		return decided(t, review_retract(t->rv, s, err, sizeof err), err, "decision taken back");
	case ACT_JUDGE:
		if (t->cfg->njudges > 1) {
			/* a small menu: Enter asks every judge, a digit one of them */
			struct strbuf lb = STRBUF_INIT;
			strbuf_addstr(&lb, "judge: Enter all");
			for (size_t j = 0; j < t->cfg->njudges && j < 9; j++)
				strbuf_addf(&lb, ", %zu %s", j + 1, t->cfg->judges[j].id);
			strbuf_addstr(&lb, ": ");
			start_prompt(t, PROMPT_JUDGE, lb.buf);
			strbuf_release(&lb);
			return REDRAW_STATUS;
		}
		return tui_judges_ask(t, -1);
	case ACT_CANCEL:
		if (t->jpending && tui_judges_cancel(t))
			return REDRAW_ALL;
		if (t->help) {
			t->help = false;
			return REDRAW_ALL;
		}
		t->msg[0] = '\0';
		return REDRAW_STATUS;
	case ACT_REDRAW:
		clearok(curscr, TRUE);
		return REDRAW_ALL | RELAYOUT;
	case ACT_HELP:
		t->help = !t->help;
		t->help_top = 0;
		return REDRAW_ALL;
	case ACT_QUIT:
		t->quit = true;
		return 0;
	default:
		return 0;
	}
}

/* ---- prompts ------------------------------------------------------------ */

static void end_prompt(struct tui *t)
{
	t->prompt = PROMPT_NONE;
	curs_set(0);
}

static unsigned prompt_submit(struct tui *t)
{
	char err[512] = "";
	const char *text = t->input.buf ? t->input.buf : "";
	enum prompt_kind k = t->prompt;
	end_prompt(t);
	switch (k) {
	case PROMPT_SEARCH:
		if (!*text && !t->rv->search)
			return REDRAW_STATUS;
		if (!review_search(t->rv, *text ? text : NULL, 1)) {
			tui_message(t, true, "not found: %s", *text ? text : t->rv->search);
			return REDRAW_STATUS;
		}
		tui_message(t, false, "/%s", t->rv->search);
		return moved(t);
	case PROMPT_SCORE: {
		if (review_parse_row_score(t->rv, t->pending_scorer, text, &t->pending_score, err, sizeof err) < 0) {
			/* ask again: the reviewer meant to override */
			char lbl[sizeof t->prompt_label];
			snprintf(lbl, sizeof lbl, "override %s: %s, try again: ",
			         review_row_id(t->rv, t->pending_scorer), err);
			start_prompt(t, PROMPT_SCORE, lbl);
			return REDRAW_STATUS;
		}
		start_prompt(t, PROMPT_REASON, "reason (optional, Enter to skip): ");
		return REDRAW_STATUS;
	}
	case PROMPT_REASON: {
		int rc = review_override(t->rv, t->pending_scorer, t->pending_score,
		                         *text ? text : NULL, err, sizeof err);
		return decided(t, rc, err, "overridden");
	}
	case PROMPT_NOTE:
		if (!*text)
			return REDRAW_STATUS;
		return decided(t, review_note(t->rv, text, err, sizeof err), err, "note written");
	default:
		return REDRAW_STATUS;
	}
}

static void input_backspace(struct strbuf *sb)
{
	/* drop one whole UTF-8 character */
	while (sb->len > 0) {
		unsigned char c = (unsigned char)sb->buf[--sb->len];
		if ((c & 0xc0) != 0x80)
			break;
	}
	if (sb->buf)
		sb->buf[sb->len] = '\0';
}

static void input_add(struct strbuf *sb, keycode_t ch)
{
	char out[8];
	mbstate_t st;
	memset(&st, 0, sizeof st);
	size_t n = wcrtomb(out, (wchar_t)ch, &st);
	if (n != (size_t)-1)
		strbuf_add(sb, out, n);
}

static unsigned prompt_key(struct tui *t, keycode_t key)
{
	if (t->prompt == PROMPT_JUDGE) {
		end_prompt(t);
		if (key == '\n')
			return tui_judges_ask(t, -1);
		if (key >= '1' && key <= '9' && (size_t)(key - '1') < t->cfg->njudges)
			return tui_judges_ask(t, (long)(key - '1'));
		tui_message(t, false, "cancelled");
		return REDRAW_STATUS;
	}
	if (key == 27) {
		end_prompt(t);
		tui_message(t, false, "cancelled");
		return REDRAW_STATUS;
	}
	if (key == '\n')
		return prompt_submit(t);
	if (key == KEY_FN(KF_BACKSPACE) || key == 127 || key == 8) {
		input_backspace(&t->input);
		return REDRAW_STATUS;
	}
	if (key == 21) {               /* C-u clears the line */
		strbuf_reset(&t->input);
		return REDRAW_STATUS;
	}
	if (!(key & KEYCODE_FN) && key >= 0x20 && key != 127)
		input_add(&t->input, key);
	return REDRAW_STATUS;
}

unsigned tui_key(struct tui *t, keycode_t key)
{
	t->resuming = false;            /* the reviewer decides where to go now */
	if (t->prompt != PROMPT_NONE)
		return prompt_key(t, key);
	enum tcr_action a = keymap_lookup(&t->km, key);
	if (t->help) {
		/* the help screen scrolls; anything else closes it */
		if (a == ACT_DOWN || a == ACT_UP || a == ACT_PAGE_DOWN || a == ACT_PAGE_UP) {
			long d = a == ACT_DOWN ? 1 : a == ACT_UP ? -1 : a == ACT_PAGE_DOWN ? 10 : -10;
			long top = (long)t->help_top + d;
			t->help_top = top < 0 ? 0 : (size_t)top;
			return REDRAW_ALL;
		}
		t->help = false;
		return REDRAW_ALL;
	}
	if (a == ACT_NONE) {
		char name[32];
		keycode_name(key, name, sizeof name);
		tui_message(t, true, "%s is not bound (? for help)", name);
		return REDRAW_STATUS;
	}
	return tui_act(t, a);
}

/* ---- mouse -------------------------------------------------------------- */

static unsigned mouse_event(struct tui *t)
{
	MEVENT ev;
	if (getmouse(&ev) != OK)
		return 0;
	int p = layout_pane_at(&t->lay, ev.x, ev.y);
	if (p < 0)
		return 0;
	if (ev.bstate & (BUTTON4_PRESSED | BUTTON5_PRESSED)) {
		long dir = (ev.bstate & BUTTON4_PRESSED) ? -3 : 3;
		enum pane keep = t->focus;
		t->focus = (enum pane)p;
		unsigned r = p == PANE_TIMELINE ? timeline_scroll(t, dir) : focused_move(t, dir > 0 ? 1 : -1);
		t->focus = keep;
		return r;
	}
	if (!(ev.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED)))
		return 0;
	t->focus = (enum pane)p;
	int row = ev.y - t->lay.pane[p].y - 1;
	if (p == PANE_LIST && row >= 1) {           /* below the column header */
		size_t i = t->list_top + (size_t)(row - 1);
		if (i < review_view_count(t->rv)) {
			review_move_to(t->rv, i);
			moved(t);
		}
	} else if (p == PANE_VERDICTS && row >= 1) {
		size_t i = (size_t)(row - 1);
		if (i < review_nrows(t->rv)) {
			if (t->v_sel == i)
				t->v_open = !t->v_open;
			t->v_sel = i;
		}
	}
	return REDRAW_ALL | RELAYOUT;
}

/* ---- the loop ----------------------------------------------------------- */

static void relayout(struct tui *t)
{
	t->lay = layout_compute(COLS, LINES, verdicts_rows_wanted(t));
}

void tui_draw_now(struct tui *t);

static void draw(struct tui *t)
{
	if (t->dirty & RELAYOUT)
		relayout(t);
	erase();
	if (t->lay.too_small) {
		char small[96];
		int n = snprintf(small, sizeof small, "tcreview needs at least 40x10 (this is %dx%d)", COLS, LINES);
		draw_text(0, 0, COLS, small, (size_t)n, A_BOLD);
	} else if (t->help) {
		help_draw(t);
	} else {
		list_draw(t);
		struct review_run *rr = current(t);
		size_t e = current_entry(t);
		timeline_build(t, rr, e);
		timeline_draw(t);
		verdicts_draw(t);
	}
	status_draw(t);
	if (t->prompt != PROMPT_NONE) {
		int w = draw_width(t->prompt_label, strlen(t->prompt_label)) +
		        draw_width(t->input.buf ? t->input.buf : "", t->input.len);
		move(LINES - 1, w < COLS ? w : COLS - 1);
	}
	refresh();
	t->dirty = 0;
	if (t->trace && !t->traced_first) {
		/* The time a person waits for the first screen, from the start. */
		fprintf(t->trace, "first-screen %.3f ms, %zu runs in view\n", now_ms() - t->started_ms,
		        review_view_count(t->rv));
		fflush(t->trace);
		t->traced_first = true;
	}
}

void tui_draw_now(struct tui *t)
{
	draw(t);
}

/* One key from the terminal, or 0 when none is waiting. */
static keycode_t read_key(struct tui *t, unsigned *extra)
{
	wint_t ch;
	int rc = get_wch(&ch);
	if (rc == ERR)
		return 0;
	if (rc == KEY_CODE_YES && ch == KEY_RESIZE) {
		*extra |= REDRAW_ALL | RELAYOUT;
		return 0;
	}
	if (rc == KEY_CODE_YES && ch == KEY_MOUSE) {
		*extra |= mouse_event(t);
		return 0;
	}
	return screen_translate(rc == KEY_CODE_YES, ch);
}

static void handle_script_line_keys(struct tui *t)
{
	keycode_t key;
	/* The next scripted key is taken only once nothing is loading, so a
	 * script never races the program. */
	if (review_busy(t->rv))
		return;
	if (!script_next(t, &key)) {
		t->quit = true;
		return;
	}
	if (key) {
		double start = now_ms();
		t->dirty |= tui_key(t, key);
		if (t->trace) {
			/* a key's latency: handling it and drawing the result */
			if (t->dirty)
				draw(t);
			char name[32];
			keycode_name(key, name, sizeof name);
			fprintf(t->trace, "key %s %.3f ms\n", name, now_ms() - start);
		}
	}
}

/* Resuming: with decisions already on file, the cursor goes to the first
 * run still unreviewed, as soon as the runs before it are scored (they
 * are scored in file order, so this settles early), unless the reviewer
 * has moved in the meantime. */
static void resume_step(struct tui *t)
{
	struct review *rv = t->rv;
	while (t->resume_scan < review_view_count(rv)) {
		struct review_entry *e = review_view_entry(rv, t->resume_scan);
		if (!e->summarized)
			return;
		if (review_mark_of(rv, rv->view[t->resume_scan]) == MARK_UNREVIEWED) {
			if (t->resume_scan != review_cursor(rv)) {
				review_move_to(rv, t->resume_scan);
				t->dirty |= moved(t);
				tui_message(t, false, "resumed at the first unreviewed run");
			}
			t->resuming = false;
			return;
		}
		t->resume_scan++;
	}
	if (!review_busy(rv))
		t->resuming = false;
}

static int tui_loop(struct tui *t)
{
	t->dirty = REDRAW_ALL | RELAYOUT;
	/* Show something at once: the first screenful, then keep indexing. */
	review_step(t->rv, 10);
	t->resuming = annot_count(t->rv->annot) > 0;
	while (!t->quit) {
		if (t->resuming)
			resume_step(t);
		if (got_stop_signal)
			break;
		bool busy = review_busy(t->rv);
		if (t->dirty)
			draw(t);
		if (t->max_iterations > 0 && ++t->iterations >= t->max_iterations)
			break;
		tui_judges_fill(t, current_entry(t));
		if (t->script) {
			if (busy) {
				review_step(t->rv, 50);
				t->dirty |= REDRAW_LIST | REDRAW_STATUS;
			}
			if (t->jpending) {
				/* judges answer while the script goes on, as they would
				 * while a person types */
				struct pollfd jfds[64];
				int jt;
				int nj = tui_judges_pollfds(t, jfds, 64, &jt);
				poll(jfds, (nfds_t)nj, t->script_waiting ? (jt < 0 ? 10 : jt) : 0);
				tui_judges_run(t);
			}
			if (t->script_waiting && t->jpending)
				continue;
			t->script_waiting = false;
			handle_script_line_keys(t);
			continue;
		}
		struct pollfd pfds[65];
		pfds[0] = (struct pollfd){ .fd = 0, .events = POLLIN };
		int jtimeout;
		int nj = tui_judges_pollfds(t, pfds + 1, 64, &jtimeout);
		int timeout = busy ? 0 : jtimeout;
		int pr = poll(pfds, (nfds_t)(1 + nj), timeout);
		if (pr < 0 && errno != EINTR)
			break;
		if (t->jpending) {
			tui_judges_run(t);
			t->dirty |= REDRAW_LIST | REDRAW_VERDICTS | REDRAW_STATUS;   /* the spinner */
		}
		unsigned extra = 0;
		keycode_t key;
		bool any = false;
		while ((key = read_key(t, &extra)) != 0 || extra) {
			any = true;
			t->dirty |= extra;
			extra = 0;
			if (key)
				t->dirty |= tui_key(t, key);
			if (t->quit)
				break;
		}
		if (!any && busy) {
			/* Redraw the growing list a few times a second, not per slice. */
			double start = now_ms();
			review_step(t->rv, 12);
			if (start - t->last_busy_draw > 100) {
				t->dirty |= REDRAW_LIST | REDRAW_STATUS;
				t->last_busy_draw = start;
			}
			if (!review_busy(t->rv))
				t->dirty |= REDRAW_ALL;
		}
	}
	return 0;
}

int tui_run(struct review *rv, const struct config *cfg, const struct tui_opts *o)
{
	struct tui t;
	memset(&t, 0, sizeof t);
	t.started_ms = o->started_ms > 0 ? o->started_ms : now_ms();
	t.rv = rv;
	t.cfg = cfg;
	t.tl_for_entry = SIZE_MAX;
	t.tl_width = -1;
	t.max_iterations = o->max_iterations;
	t.ca_file = o->ca_file;
	keymap_init_defaults(&t.km);
	char err[512];
	for (size_t i = 0; i < cfg->nkeys; i++) {
		enum tcr_action a = action_find(cfg->keys[i].action);
		if (a != ACT_NONE)
			keymap_bind(&t.km, a, cfg->keys[i].keys, err, sizeof err);
	}
	theme_default(&t.theme);
	const char *tname = o->theme ? o->theme : cfg->theme;
	if (tname && strcmp(tname, "dark") != 0) {
		if (!o->datadir || theme_load(&t.theme, o->datadir, tname, err, sizeof err) < 0) {
			fprintf(stderr, "tcreview: theme '%s': %s\n", tname,
			        o->datadir ? err : "the themes folder was not found");
			keymap_free(&t.km);
			return 2;
		}
	}
	if (o->script) {
		if (script_open(&t, o->script) < 0) {
			fprintf(stderr, "tcreview: %s: cannot read the script\n", o->script);
			keymap_free(&t.km);
			return 2;
		}
	}
	/* Scripts and smoke runs work without a terminal. */
	if (o->script || o->max_iterations > 0)
		t.headless = !isatty(1) || getenv("TCR_NO_DISPLAY");
	const char *trace = getenv("TCR_TRACE");
	if (trace && *trace)
		t.trace = fopen(trace, "w");
	if (screen_open(&t, o) < 0) {
		fprintf(stderr, "tcreview: cannot open the terminal (is TERM set?)\n");
		script_close(&t);
		keymap_free(&t.km);
		return 2;
	}
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	const char *warn = annot_warning(rv->annot);
	if (warn)
		tui_message(&t, true, "%s", warn);
	if (tui_judges_open(&t, err, sizeof err) < 0)
		tui_message(&t, true, "judges unavailable: %s", err);
	tui_loop(&t);
	tui_judges_close(&t);
	if (t.trace)
		fclose(t.trace);
	screen_close(&t);
	script_close(&t);
	timeline_free(&t);
	strbuf_release(&t.input);
	keymap_free(&t.km);
	return got_stop_signal ? 128 + got_stop_signal : 0;
}
