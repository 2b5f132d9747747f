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
#include "review/settle.h"
#include "util/clock.h"
#include "timeline_find.h"
#include "tui_int.h"
#include "util/error.h"

static volatile sig_atomic_t got_stop_signal;

/* SIGINT, SIGTERM and SIGHUP end the loop; the terminal is restored on
 * the way out. (SIGWINCH is curses' own: it becomes KEY_RESIZE.) */
static void on_stop_signal(int sig)
{
	got_stop_signal = sig;
}

static size_t current_entry(const struct tui *t)
{
	return review_current_entry(t->rv);
}

/* What the session's settling says must be drawn again. While the list
 * grows the loop redraws it a few times a second on its own, so only
 * what the reviewer did, or the end of the work, asks for more. */
static unsigned settle(struct tui *t)
{
	unsigned s = review_settle(t->rv);
	if (review_busy(t->rv))
		return 0;
	unsigned r = 0;
	if (s & (SETTLE_VIEW | SETTLE_MARKS))
		r |= REDRAW_LIST | REDRAW_STATUS;
	if (s & SETTLE_RUN)
		r |= REDRAW_TIMELINE | REDRAW_VERDICTS | REDRAW_STATUS;
	return r;
}

static unsigned tui_key_settled(struct tui *t, keycode_t key);

/* ---- actions ------------------------------------------------------------ */

static const struct pane_ops *const panes[PANE_COUNT] = {
	[PANE_LIST] = &list_pane,
	[PANE_TIMELINE] = &timeline_pane,
	[PANE_VERDICTS] = &verdicts_pane,
};

/* The focused pane's op for an action, when it has one: true and *out. */
static bool pane_act(struct tui *t, enum tcr_action a, unsigned *out)
{
	const struct pane_ops *p = panes[t->focus];
	switch (a) {
	case ACT_DOWN:      if (!p->step) return false; *out = p->step(t, 1); return true;
	case ACT_UP:        if (!p->step) return false; *out = p->step(t, -1); return true;
	case ACT_PAGE_DOWN: if (!p->page) return false; *out = p->page(t, 1); return true;
	case ACT_PAGE_UP:   if (!p->page) return false; *out = p->page(t, -1); return true;
	case ACT_FIRST:     if (!p->end) return false; *out = p->end(t, false); return true;
	case ACT_LAST:      if (!p->end) return false; *out = p->end(t, true); return true;
	case ACT_TOGGLE:    if (!p->toggle) return false; *out = p->toggle(t); return true;
	default:            return false;
	}
}

/* The status line shows a filter or sort other than the first; the
 * message only says when it is back to that one. */
static unsigned next_sort(struct tui *t)
{
	review_set_sort(t->rv, (enum review_sort)((t->rv->sort + 1) % SORT_COUNT));
	tui_message(t, false, "%s", t->rv->sort == SORT_FILE ? "sort: file order" : "");
	return list_moved(t);
}

/* ] and [: the next run with a disagreement of the filter's kind. */
static unsigned next_disagreement(struct tui *t, int dir)
{
	bool wrapped;
	if (!review_next_disagreement(t->rv, dir, &wrapped)) {
		tui_message(t, false, "no run in view has a disagreement%s",
		            review_disagreement_kinds(t->rv) == DIS_ANY_LABELLED ? "" : " of that kind");
		return REDRAW_STATUS;
	}
	tui_message(t, false, "%s", wrapped ? (dir > 0 ? "disagreement (from the top)"
	                                             : "disagreement (from the bottom)") : "");
	return list_moved(t);
}

/* Left and Right mean something only in the calibration's matrix. */
static unsigned sideways(struct tui *t)
{
	char keys[64];
	keymap_keys_of(&t->km, ACT_CALIB, keys, sizeof keys);
	tui_message(t, false, "left and right move over the calibration's matrix (%s opens it)", keys);
	return REDRAW_STATUS;
}

static unsigned next_todo(struct tui *t)
{
	if (!review_next_unreviewed(t->rv)) {
		tui_message(t, false, "every run in view is reviewed");
		return REDRAW_STATUS;
	}
	return list_moved(t);
}

/* With several judges, a small menu: Enter asks every judge, a digit one. */
static unsigned judge_menu(struct tui *t)
{
	if (t->cfg->njudges <= 1)
		return tui_judges_ask(t, -1);
	struct strbuf lb = STRBUF_INIT;
	strbuf_addstr(&lb, "judge: Enter all");
	for (size_t j = 0; j < t->cfg->njudges && j < 9; j++)
		strbuf_addf(&lb, ", %zu %s", j + 1, t->cfg->judges[j].id);
	strbuf_addstr(&lb, ": ");
	prompt_start(t, PROMPT_JUDGE, lb.buf);
	strbuf_release(&lb);
	return REDRAW_STATUS;
}

/* Esc cancels the judges asked about this run, else closes the help, else
 * clears the message. */
static unsigned cancel(struct tui *t)
{
	if (tui_judges_busy(t) && tui_judges_cancel(t))
		return REDRAW_ALL;
	if (t->help.shown) {
		t->help.shown = false;
		return REDRAW_ALL;
	}
	t->msg.text[0] = '\0';
	return REDRAW_STATUS;
}

static unsigned start_search(struct tui *t)
{
	prompt_start(t, PROMPT_SEARCH, "/");
	return REDRAW_STATUS;
}

static unsigned toggle_help(struct tui *t)
{
	t->help.shown = !t->help.shown;
	t->help.top = 0;
	t->help.mark = 0;
	return REDRAW_ALL;
}

/* Zoomed, the zoom follows the focus: Tab shows the next pane whole. */
static unsigned focus_by(struct tui *t, int step)
{
	t->focus = (enum pane)((t->focus + PANE_COUNT + step) % PANE_COUNT);
	return REDRAW_ALL | (t->zoom ? RELAYOUT : 0);
}

static unsigned toggle_zoom(struct tui *t)
{
	t->zoom = !t->zoom;
	return REDRAW_ALL | RELAYOUT;
}

unsigned tui_act(struct tui *t, enum tcr_action a)
{
	unsigned r;
	if (pane_act(t, a, &r))
		return r;
	switch (a) {
	case ACT_FOCUS_NEXT:  return focus_by(t, 1);
	case ACT_FOCUS_PREV:  return focus_by(t, -1);
	case ACT_ZOOM:        return toggle_zoom(t);
	case ACT_SEARCH:      return start_search(t);
	case ACT_SEARCH_NEXT: return tl_find_again(t, 1);
	case ACT_SEARCH_PREV: return tl_find_again(t, -1);
	case ACT_FILTER:      return fmenu_open(t);
	case ACT_SORT:        return next_sort(t);
	case ACT_NEXT_TODO:   return next_todo(t);
	case ACT_ACCEPT:      return decide_accept(t);
	case ACT_ACCEPT_ALL:  return decide_accept_all(t);
	case ACT_OVERRIDE:    return decide_override(t);
	case ACT_LABEL_0: case ACT_LABEL_1: case ACT_LABEL_2:
	case ACT_LABEL_3: case ACT_LABEL_4: case ACT_LABEL_5:
		if (calls_on_call(t))   /* a call selected in the timeline takes its own label */
			return calls_label(t, (int)(a - ACT_LABEL_0));
		return decide_label(t, (int)(a - ACT_LABEL_0));
	case ACT_NOTE:        return decide_note(t);
	case ACT_RETRACT:     return calls_on_call(t) ? calls_retract(t) : decide_retract(t);
	case ACT_CALL_CORRECT: return calls_correct(t);
	case ACT_CALL_REMOVE: return calls_remove(t);
	case ACT_CALL_INSERT: return calls_insert(t);
	case ACT_ANSWER_CORRECT: return calls_answer(t);
	case ACT_TAG:         return tagprompt_open(t);
	case ACT_TAGS:        return tagpane_open(t);
	case ACT_JUDGE:       return judge_menu(t);
	case ACT_NEXT_DISAGREE: return next_disagreement(t, 1);
	case ACT_PREV_DISAGREE: return next_disagreement(t, -1);
	case ACT_CALIB:       return calpane_open(t);
	case ACT_GROUPS:      return groups_open(t);
	case ACT_COMPARE:     return cmppick_open(t);
	case ACT_FIRST_DIVERGENCE: case ACT_PREFER_BASE: case ACT_PREFER_CAND:
	case ACT_PREFER_TIE: case ACT_PREFER_BAD:
		tui_message(t, true, "%s", "in the side by side only: C picks a run to compare this one with");
		return REDRAW_STATUS;
	case ACT_INIT:        return tui_write_proposal(t);
	case ACT_LEFT: case ACT_RIGHT: return sideways(t);
	case ACT_CANCEL:      return cancel(t);
	case ACT_REDRAW:      return REDRAW_ALL | RELAYOUT | REDRAW_CLEAR;
	case ACT_MESSAGES:    return msglog_open(t);
	case ACT_HELP:        return toggle_help(t);
	case ACT_QUIT:        t->quit = true; return 0;
	default:              return 0;
	}
}

/* A key sees a settled session, and leaves one: the run it moved to is
 * loaded before anything draws it. */
unsigned tui_key(struct tui *t, keycode_t key)
{
	unsigned r = settle(t);
	r |= tui_key_settled(t, key);
	return r | settle(t);
}

static unsigned tui_key_settled(struct tui *t, keycode_t key)
{
	t->resuming = false;            /* the reviewer decides where to go now */
	unsigned opened = t->cmp.want_open ? cmpview_start(t) : 0;
	if (opened)
		return opened | tui_key_settled(t, key);
	if (t->pr.kind != PROMPT_NONE)
		return prompt_key(t, key);
	if (t->fmenu.shown)
		return fmenu_key(t, key);
	if (t->cmp.pick.shown)
		return cmppick_key(t, key);
	if (tagpane_shown(t))
		return tagpane_key(t, key);
	if (t->grp.shown)
		return groups_key(t, key);
	enum tcr_action a = keymap_lookup(&t->km, key);
	if (t->log.shown)
		return msglog_key(t, a);
	if (t->help.shown)
		return help_key(t, a);
	if (t->cal.shown)
		return calpane_key(t, a);
	if (t->cmp.shown)
		return cmpview_key(t, a);
	if (a == ACT_NONE) {
		char name[32];
		keycode_name(key, name, sizeof name);
		tui_message(t, true, "%s is not bound (? for help)", name);
		return REDRAW_STATUS;
	}
	return tui_act(t, a);
}

/* The wheel moves the pane under the pointer without focusing it; a click
 * focuses the pane and acts on its row. */
unsigned tui_mouse(struct tui *t, int x, int y, enum mouse_kind k)
{
	if (t->cmp.shown)   /* the side by side covers the panes: the wheel scrolls it */
		return k == MOUSE_CLICK ? 0 : cmpview_key(t, k == MOUSE_WHEEL_UP ? ACT_UP : ACT_DOWN);
	int p = layout_pane_at(&t->lay, x, y);
	if (p < 0)
		return 0;
	const struct pane_ops *ops = panes[p];
	if (k != MOUSE_CLICK)
		return ops->wheel ? ops->wheel(t, k == MOUSE_WHEEL_UP ? -1 : 1) : 0;
	t->focus = (enum pane)p;
	if (ops->click)
		ops->click(t, y - t->lay.pane[p].y - 1);
	return REDRAW_ALL | RELAYOUT;
}

/* ---- the loop ----------------------------------------------------------- */

static void relayout(struct tui *t)
{
	struct layout_want w = {
		.nverdict_rows = verdicts_rows_wanted(t),
		.list_w = list_width_wanted(t),
		.one_run = list_width_one_run(t),
		.zoom = t->zoom ? (int)t->focus : PANE_COUNT,
	};
	t->lay = layout_compute_with(COLS, LINES, &w);
	t->lay_list_w = w.list_w;
	t->lay_one_run = w.one_run;
}

/* The list's content grew wider (runs read since), or the files turned
 * out to hold one run: the layout is made again, as rarely as that. */
static bool list_outgrown(struct tui *t)
{
	return list_width_wanted(t) != t->lay_list_w || list_width_one_run(t) != t->lay_one_run;
}

/* Each pane is fitted (scrolling clamped to what it shows) and drawn in
 * turn; drawing changes nothing. A pane another's zoom hides is neither. */
static void draw_panes(struct tui *t)
{
	for (int p = 0; p < PANE_COUNT; p++) {
		if (t->lay.pane[p].w <= 0 || t->lay.pane[p].h <= 0)
			continue;
		if (panes[p]->fit)
			panes[p]->fit(t);
		panes[p]->draw(t);
	}
}

static void draw(struct tui *t)
{
	if ((t->dirty & RELAYOUT) || list_outgrown(t))
		relayout(t);
	if (t->dirty & REDRAW_CLEAR)
		clearok(curscr, TRUE);
	erase();
	if (t->lay.too_small) {
		char small[96];
		int n = snprintf(small, sizeof small, "tcreview needs at least 40x10 (this is %dx%d)", COLS, LINES);
		draw_text(0, 0, COLS, small, (size_t)n, A_BOLD);
	} else if (t->log.shown) {
		msglog_fit(t);
		msglog_draw(t);
	} else if (t->help.shown) {
		help_fit(t);
		help_draw(t);
	} else if (t->cal.shown) {
		calpane_fit(t);
		calpane_draw(t);
	} else if (t->cmp.shown) {
		cmpview_fit(t);
		cmpview_draw(t);
	} else if (tagpane_shown(t)) {
		tagpane_draw(t);
	} else if (t->grp.shown) {
		groups_fit(t);
		groups_draw(t);
	} else {
		draw_panes(t);
		if (t->fmenu.shown)
			fmenu_draw(t);
		if (t->cmp.pick.shown)
			cmppick_draw(t);
	}
	if (tagprompt_is(t) && !t->lay.too_small)
		tagprompt_draw(t);
	status_draw(t);
	curs_set(t->pr.kind != PROMPT_NONE);
	if (t->pr.kind != PROMPT_NONE) {
		int w = draw_width(t->pr.label, strlen(t->pr.label)) +
		        draw_width(t->pr.input.buf ? t->pr.input.buf : "", t->pr.input.len);
		move(LINES - 1, w < COLS ? w : COLS - 1);
	}
	refresh();
	t->dirty = 0;
	if (t->trace.f && !t->trace.first_done) {
		/* The time a person waits for the first screen, from the start. */
		fprintf(t->trace.f, "first-screen %.3f ms, %zu runs in view\n", now_ms() - t->trace.started_ms,
		        review_view_count(t->rv));
		fflush(t->trace.f);
		t->trace.first_done = true;
	}
}

static unsigned mouse_event(struct tui *t)
{
	MEVENT ev;
	if (getmouse(&ev) != OK)
		return 0;
	if (ev.bstate & (BUTTON4_PRESSED | BUTTON5_PRESSED))
		return tui_mouse(t, ev.x, ev.y, (ev.bstate & BUTTON4_PRESSED) ? MOUSE_WHEEL_UP : MOUSE_WHEEL_DOWN);
	if (ev.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED))
		return tui_mouse(t, ev.x, ev.y, MOUSE_CLICK);
	return 0;
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

/* :save-display writes what the person would see now: drawn first. */
static void save_display(struct tui *t)
{
	char *path = t->script.dump;
	t->script.dump = NULL;
	if (t->dirty)
		draw(t);
	FILE *f = fopen(path, "w");
	if (!f)
		tui_message(t, true, "%s: cannot write", path);
	else {
		screen_dump(f);
		fclose(f);
	}
	free(path);
}

/* A key, and with TCR_TRACE its latency: handling it and drawing the
 * result (a script's keys and a terminal's alike). */
static void handle_key(struct tui *t, keycode_t key)
{
	double start = now_ms();
	t->dirty |= tui_key(t, key);
	if (t->trace.f) {
		if (t->dirty)
			draw(t);
		char name[32];
		keycode_name(key, name, sizeof name);
		fprintf(t->trace.f, "key %s %.3f ms\n", name, now_ms() - start);
		fflush(t->trace.f);
	}
}

static void handle_script_line_keys(struct tui *t)
{
	keycode_t key;
	/* The next scripted key is taken only once nothing is loading and the
	 * cursor has resumed, so a script never races the program (the last
	 * slice of scoring and the end of the script came in one turn, and
	 * the screen quit before resuming). */
	if (review_busy(t->rv) || t->resuming || judging_working(&t->judging))
		return;
	if (!script_next(t, &key)) {
		t->quit = true;
		return;
	}
	/* --compare's first pair opens as the screen would have shown it */
	if (t->cmp.want_open)
		t->dirty |= cmpview_start(t);
	if (t->dirty)
		draw(t);            /* the files were being read: nothing drawn yet */
	if (t->script.dump)
		save_display(t);
	if (key)
		handle_key(t, key);
}

/* Resuming: with decisions already on file, the cursor goes to the first
 * run still unreviewed, as soon as the runs before it are scored (they
 * are scored in file order, so this settles early), unless the reviewer
 * has moved in the meantime. */
static void resume_step(struct tui *t)
{
	struct review *rv = t->rv;
	while (t->resume_scan < review_view_count(rv)) {
		const struct review_entry *e = review_view_entry(rv, t->resume_scan);
		if (!e->summarized)
			return;
		/* a record that could not be read has nothing to decide */
		if (!e->load_failed && review_mark_of(rv, rv->view[t->resume_scan]) == MARK_UNREVIEWED) {
			if (t->resume_scan != review_cursor(rv)) {
				review_move_to(rv, t->resume_scan);
				t->dirty |= list_moved(t);
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

/* A turn of script mode: judges answer while the script goes on, as they
 * would while a person types; :wait holds the script until they have. */
static void script_turn(struct tui *t, bool busy)
{
	if (busy) {
		review_step(t->rv, 50);
		t->dirty |= REDRAW_LIST | REDRAW_STATUS;
	}
	if (tui_judges_busy(t)) {
		struct pollfd jfds[64];
		int jt;
		int nj = tui_judges_pollfds(t, jfds, 64, &jt);
		bool held = t->script.waiting || judging_working(&t->judging);
		poll(jfds, (nfds_t)nj, held ? (jt < 0 ? 10 : jt) : 0);
		tui_judges_run(t);
	}
	if (t->script.waiting && tui_judges_busy(t))
		return;
	t->script.waiting = false;
	handle_script_line_keys(t);
}

/* A turn at the terminal: wait for a key or a judge's answer (not at all
 * while work is pending), handle what came, else do a slice of work.
 * Returns -1 when polling failed. */
static int terminal_turn(struct tui *t, bool busy)
{
	struct pollfd pfds[65];
	pfds[0] = (struct pollfd){ .fd = 0, .events = POLLIN };
	int jtimeout;
	int nj = tui_judges_pollfds(t, pfds + 1, 64, &jtimeout);
	/* Idle, it still wakes each second to read other reviewers' labels. */
	int wait = busy ? 0 : jtimeout < 0 || jtimeout > 1000 ? 1000 : jtimeout;
	int pr = poll(pfds, (nfds_t)(1 + nj), wait);
	if (pr < 0 && errno != EINTR)
		return -1;
	if (tui_judges_busy(t)) {
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
			handle_key(t, key);
		if (t->quit)
			break;
	}
	if (!any && busy) {
		/* Redraw the growing list a few times a second, not per slice. */
		double start = now_ms();
		review_step(t->rv, 12);
		if (start - t->loop.last_busy_draw > 100) {
			t->dirty |= REDRAW_LIST | REDRAW_STATUS;
			t->loop.last_busy_draw = start;
		}
		if (!review_busy(t->rv))
			t->dirty |= REDRAW_ALL;
	}
	return 0;
}

/* Labels other reviewers append to the annotations files show up (marks,
 * filters, the calibration): each turn of a script, each second at the
 * terminal. */
static void refresh_labels(struct tui *t)
{
	double now = now_ms();
	if (!t->script.f && now - t->loop.last_refresh < 1000)
		return;
	t->loop.last_refresh = now;
	if (review_refresh(t->rv))
		t->dirty |= REDRAW_ALL | RELAYOUT;
}

static int tui_loop(struct tui *t)
{
	t->dirty = REDRAW_ALL | RELAYOUT;
	/* Show something at once: the first screenful, then keep indexing. */
	review_step(t->rv, 10);
	t->resuming = annot_count(t->rv->annot) > 0;
	while (!t->quit) {
		/* Once per turn the session settles what the work, the judges and
		 * the refresh changed; resuming moves the cursor, so again after. */
		t->dirty |= settle(t);
		if (t->resuming) {
			resume_step(t);
			t->dirty |= settle(t);
		}
		if (t->cmp.want_open)
			t->dirty |= cmpview_start(t);
		if (got_stop_signal)
			break;
		bool busy = review_busy(t->rv);
		/* A script's screens are drawn only once the files are read: a
		 * draw in between (how many depends on the machine's speed) would
		 * fit the panes to a list still growing, and the timeline's scroll
		 * would depend on it. Nothing a script saves can show them. */
		if (t->dirty && !(t->script.f && busy))
			draw(t);
		if (t->loop.max_iterations > 0 && ++t->loop.iterations >= t->loop.max_iterations)
			break;
		tui_judges_fill(t, current_entry(t));
		refresh_labels(t);
		t->dirty |= settle(t);
		if (t->script.f)
			script_turn(t, busy);
		else if (terminal_turn(t, busy) < 0)
			break;
	}
	return 0;
}

/* The configuration's keys: over the defaults (checked when it was read). */
void tui_bind_keys(struct tui *t)
{
	struct error err = {0};
	for (size_t i = 0; i < t->cfg->nkeys; i++) {
		enum tcr_action a = action_find(t->cfg->keys[i].action);
		if (a != ACT_NONE)
			keymap_bind(&t->km, a, t->cfg->keys[i].keys, &err);
	}
}

void tui_init(struct tui *t, struct review *rv, const struct config *cfg)
{
	memset(t, 0, sizeof *t);
	t->trace.started_ms = now_ms();
	t->rv = rv;
	t->cfg = cfg;
	t->tl.for_entry = SIZE_MAX;
	t->tl.width = -1;
	keymap_init_defaults(&t->km);
	tui_bind_keys(t);
	theme_default(&t->theme);
}

void tui_free(struct tui *t)
{
	calpane_free(t);
	cmpview_free(t);
	compare_sides_release(&t->cmp.sides);
	tagpane_free(t);
	msglog_free(t);
	groups_close(t);
	script_close(t);
	timeline_free(t);
	calls_free(t);
	tl_find_free(t);
	strbuf_release(&t->pr.input);
	keymap_free(&t->km);
}

/* The theme, the script and the trace file named in the options; 0, or
 * 2 (the exit code) after saying why not. */
static int tui_setup(struct tui *t, const struct config *cfg, const struct tui_opts *o)
{
	struct error err = {0};
	const char *tname = o->theme ? o->theme : cfg->theme;
	if (tname && strcmp(tname, "dark") != 0) {
		if (!o->datadir || theme_load(&t->theme, o->datadir, tname, &err) < 0) {
			fprintf(stderr, "tcreview: theme '%s': %s\n", tname,
			        o->datadir ? err.msg : "the themes folder was not found");
			return 2;
		}
	}
	if (o->script && script_open(t, o->script) < 0) {
		fprintf(stderr, "tcreview: %s: cannot read the script\n", o->script);
		return 2;
	}
	/* Scripts and smoke runs work without a terminal. */
	if (o->script || o->max_iterations > 0)
		t->term.headless = !isatty(1) || getenv("TCR_NO_DISPLAY");
	const char *trace = getenv("TCR_TRACE");
	if (trace && *trace)
		t->trace.f = fopen(trace, "w");
	return 0;
}

int tui_run(struct review *rv, const struct config *cfg, const struct tui_opts *o)
{
	struct tui t;
	tui_init(&t, rv, cfg);
	if (o->started_ms > 0)
		t.trace.started_ms = o->started_ms;
	t.loop.max_iterations = o->max_iterations;
	t.ca_file = o->ca_file;
	t.reload = o->reload;
	if (o->compare) {
		t.cmp.sides = *o->compare;
		t.cmp.sides.tasks = compare_task_cache_new();
	}
	/* --compare with a task key opens on the first pair; without one, on
	 * the list, saying how to pair */
	t.cmp.want_open = o->compare && o->compare->on && o->compare->task_spec;
	int rc = tui_setup(&t, cfg, o);
	if (rc == 0 && screen_open(&t, o) < 0) {
		fprintf(stderr, "tcreview: cannot open the terminal (is TERM set?)\n");
		rc = 2;
	}
	if (rc != 0) {
		tui_free(&t);
		return rc;
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
	else if (o->compare && o->compare->on && !o->compare->task_spec)
		tui_message(&t, false, "--task PATH pairs runs by task; C on a run (B base, C candidate) "
		            "picks one to compare it with");
	else if (!cfg->path)
		tui_message(&t, false, "no tcreview.yaml here or beside the runs: the built-in checks "
		            "score them; I writes one proposed for these runs");
	struct error err = {0};
	if (tui_judges_open(&t, &err) < 0)
		tui_message(&t, true, "judges unavailable: %s", err.msg);
	tui_loop(&t);
	tui_judges_close(&t);
	if (t.trace.f)
		fclose(t.trace.f);
	screen_close(&t);
	tui_free(&t);
	return got_stop_signal ? 128 + got_stop_signal : 0;
}
