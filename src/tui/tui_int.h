/* tui_int.h - what the screen's files share. Not a public header. */
#ifndef TCR_TUI_INT_H
#define TCR_TUI_INT_H

#include <curses.h>
#include <poll.h>
#include <stdio.h>
#include <time.h>

#include "util/strbuf.h"
#include "review/calib.h"
#include "review/compare.h"
#include "review/prefs.h"
#include "review/groups.h"
#include "review/judging.h"
#include "tui/tui.h"
#include "util/error.h"

/* What a handler says must be drawn again (handlers never draw). */
enum {
	REDRAW_LIST     = 1u << 0,
	REDRAW_TIMELINE = 1u << 1,
	REDRAW_VERDICTS = 1u << 2,
	REDRAW_STATUS   = 1u << 3,
	REDRAW_ALL      = 0xffu,
	RELAYOUT        = 1u << 8,
	REDRAW_CLEAR    = 1u << 9,  /* repaint the whole terminal (C-l) */
};

enum prompt_kind {
	PROMPT_NONE,
	PROMPT_SEARCH,
	PROMPT_SCORE,               /* override: the score */
	PROMPT_REASON,              /* override: the reason */
	PROMPT_NOTE,
	PROMPT_JUDGE,               /* which judge: Enter all, a digit one */
	PROMPT_ALLOW_HOST,          /* y lets the judges asked send to a host (or from a key
	                             * variable) not allowed yet */
	PROMPT_TAG,                 /* t: a tag for the run or the call (tag_prompt.c) */
	PROMPT_TAG_RENAME,          /* the tags pane's r, m and p: the name to alias into */
	PROMPT_TAG_MERGE,
	PROMPT_TAG_PROMOTE,
	PROMPT_CALL_KEY,            /* a call's correction asks one key (calls.c: t->fix) */
	PROMPT_GROUP_TAG,           /* the code a whole group is tagged with */
	PROMPT_GROUP_CONFIRM,       /* y/n before a group decision (y/n/o before its retract) */
};

/* A piece of a timeline line drawn in a slot of its own (a call's marks
 * beside its name): from `at`, a character index, to the next piece or the
 * end. A `whole` piece that does not fit the pane is not cut ("#1" cut from
 * "#12" would say another call): "…" stands for it and what follows. */
struct tl_span {
	size_t at;
	int slot;                   /* enum theme_slot */
	bool whole;
	bool keep;                  /* a problem: the line's head is cut before it is */
};

/* Display lines of the timeline: one line, decoded and sanitised once, or
 * `count` lines of a long text that stays text until they are drawn
 * (tui/lazytext.h), so a huge message costs its checkpoints, not its lines. */
struct tl_line {
	size_t entry;               /* the timeline entry it belongs to */
	int indent;
	int slot;                   /* enum theme_slot */
	size_t first;               /* number of its first line in the timeline */
	size_t count;               /* 1, or the lazy text's first `count` lines */
	wchar_t *text;              /* the one line; NULL with lazy */
	size_t len;
	struct lazytext *lazy;      /* owned */
	struct tl_span *spans;      /* owned; one-line only: pieces after text[0 .. spans[0].at) */
	size_t nspans;
};

/* A timeline entry: a message (its head, or the parts after a call), a
 * tool call, a thinking part (or an unmatched result). Enter folds and
 * unfolds a foldable one; `open` survives a relayout of the same run, as
 * the same run gives the same entries. */
struct tl_entry {
	long msg;                   /* index in run->msgs, or -1 */
	long call;                  /* index in run->calls, or -1 */
	long part;                  /* index in run->parts of a thinking part, or -1 */
	size_t first_line;
	bool foldable;
	bool open;                  /* unfolded */
};

/* The timeline of the run shown, rebuilt when the run or width changes. */
struct timeline_state {
	size_t for_entry;           /* review entry the lines describe; SIZE_MAX = none */
	unsigned long for_serial;   /* ... and the load of its run (lazy lines borrow its text) */
	int width;
	struct tl_line *lines;
	size_t nsegs, segs_cap;     /* lines[0 .. nsegs) */
	size_t nlines;              /* display lines in all */
	struct tl_entry *entries;
	size_t nentries, entries_cap;
	bool *keep;                 /* while rebuilding the same run: what was open, per entry */
	size_t nkeep;
	size_t sel;                 /* selected timeline entry */
	size_t top;                 /* first line shown */
	bool reveal;                /* Enter folded or unfolded sel: show it once rebuilt */
	unsigned long for_labels;   /* blind mode: rv->labels_gen the call marks were read at */
};

struct verdicts_state {
	size_t sel;                 /* selected verdict row */
	bool open;                  /* its details are shown */
	size_t detail_top;          /* first details line shown, when they do not fit */
	size_t item;                /* 1 + the open details' selected item (verdict_details.c), 0 none */
	bool allowed_open;          /* what a scorer's mode allows is unfolded */
};

/* The calibration overlay (K): the figures of each criterion against the
 * reviewers' labels, the selected one's confusion matrix. */
struct calib_state {
	bool shown;
	size_t sel;                 /* the criterion: a verdict row */
	size_t cell;                /* the matrix cell, row-major */
	struct calib c;
	bool built;
	struct prefs prefs;         /* the pairwise judges against the preferences */
	unsigned long gen;          /* rv->labels_gen the figures were built at */
	struct error err;           /* why there are none */
};

/* The message log (M): the last MSGLOG_MAX status messages, whole. */
#define MSGLOG_MAX 200

struct msglog_entry {
	char *text;
	bool error;
	bool progress;              /* what a waiting J says as it goes: the next such replaces it */
	unsigned repeat;            /* said this many times in a row */
	time_t at;                  /* when it was last said (util/clock's wall clock) */
};

struct msglog_state {
	struct msglog_entry *e;     /* a ring of MSGLOG_MAX; NULL until the first message */
	size_t head, n;             /* the oldest is e[head]; n kept */
	bool shown;
	size_t top;                 /* first line shown */
};

/* A full-screen page of wrapped lines (pager.c): the help, the log. */
struct pager_line {
	wchar_t *prefix;            /* drawn at the left of a first line (keys, a time); may be NULL */
	size_t plen;
	int indent;                 /* columns the text starts at: its wrapped lines hang there */
	wchar_t *text;
	size_t len;
	int slot;                   /* enum theme_slot */
	int tag;                    /* the caller's: the help marks its headings */
};

struct pager {
	struct pager_line *lines;
	size_t n, cap;
};

struct prompt_state {
	enum prompt_kind kind;
	struct strbuf input;
	char label[160];
	size_t row;                 /* override: the verdict row */
	double score;               /* override: the score, while the reason is asked */
	long judge;                 /* allow host: the judges then asked (-1 all) */
	long call;                  /* tag: the call's number from 1, 0 the run */
	size_t pick;                /* tag: 1 + the completion Up/Down chose, 0 none */
};

/* Script mode (TCR_SCRIPT): keys and commands come from a file. */
struct script_state {
	FILE *f;
	keycode_t *keys;
	size_t n, cap, pos;
	bool waiting;               /* :wait until the judges have answered */
	char *dump;                 /* :save-display asked for this file */
};

/* The groups overlay (=, groups_pane.c) and the group decision waiting
 * for its y/n. */
enum group_pending { GROUP_NONE, GROUP_ACCEPT, GROUP_LABEL, GROUP_TAG, GROUP_RETRACT };
struct groups_state {
	bool shown;
	enum group_by by;
	struct run_groups gs;       /* of the runs in view when it opened */
	size_t sel, top;
	size_t row;                 /* the verdict row a group label goes to */
	enum group_pending pending;
	double score;               /* GROUP_LABEL's */
	char code[128];             /* GROUP_TAG's */
	char group[40];             /* GROUP_RETRACT's */
};

/* The side by side (compare_view.c) and the menu that picks the run to
 * compare with (compare_pick.c). */
struct cmpview_state {
	struct compare_sides sides;         /* --compare: which runs are on which side */
	bool want_open;                     /* open the first task pair once the files are read */
	bool shown;
	struct compare c;
	struct compare_lines lines;
	int lines_w;                        /* the width and form the lines were made for; */
	bool lines_unified, lines_open;     /* -1: to make */
	bool open;                          /* Enter: every message unfolded */
	char judged[512];                   /* the pairwise judges' cached answers, or "" */
	size_t top;                         /* first line shown */
	size_t jumped_row, jumped_top;      /* the row d, n or N showed, and top then */
	struct compare_task_pair *pairs;    /* the tasks both sides ran, for ] and [ */
	size_t npairs, pair;
	bool pairs_built;
	struct {
		bool shown;
		size_t from;                    /* the entry compared */
		struct compare_candidate *c;
		size_t n, sel, top;
	} pick;
};

struct tui {
	struct review *rv;
	const struct config *cfg;
	struct keymap km;
	struct theme theme;
	bool color;
	struct layout lay;
	int lay_list_w;             /* what the layout was told of the list */
	bool lay_one_run;
	enum pane focus;
	bool zoom;                  /* the focused pane has the whole screen (z) */
	/* The run list's content, measured as runs are read (list_width.c). */
	struct { const struct review *for_rv; size_t scanned; int id_w, label_w; } lw;
	unsigned dirty;
	bool quit;
	bool resuming;              /* moving to the first unreviewed run on start */
	size_t resume_scan;

	struct { size_t top; } list;        /* first view row shown */
	struct timeline_state tl;
	struct tl_find *find;               /* search inside the run (timeline_find.c) */
	struct verdicts_state vd;
	struct prompt_state pr;
	struct { bool shown; size_t top; size_t mark; } help;  /* mark: the heading Tab went to, + 1 */
	struct calib_state cal;
	struct { char text[512]; bool error; } msg;  /* the status line's; whole in the log */
	struct msglog_state log;
	struct { bool shown; size_t sel; } fmenu;   /* the filter menu (f) */
	struct tags_pane_state *tagp;               /* the tags pane (T), NULL until opened */
	struct groups_state grp;                    /* the groups (=) */
	struct cmpview_state cmp;                   /* the side by side (C, --compare) */
	struct script_state script;
	struct { bool headless; SCREEN *screen; FILE *out, *in; } term;
	struct { long iterations, max_iterations; double last_busy_draw, last_refresh; } loop;
	struct { FILE *f; bool first_done; double started_ms; } trace;  /* TCR_TRACE */

	struct judging judging;     /* the judges asked from the screen */
	char judging_said[512];     /* the progress of a J waiting, as last shown */
	const char *ca_file;
	const struct tui_reload *reload;    /* how I starts over on a new configuration */
	/* A correction waiting for a key (calls.c): its kind, the call, the text edited. */
	struct { enum correction_kind kind; size_t call; char *text; char ask; } fix;
};

/* A pane: what it is called, how it is fitted to its rectangle and drawn,
 * and what the keys and the mouse do in it. The focused pane's op is tried
 * first (app.c); a NULL op does nothing. Handlers change state and return
 * redraw flags; fit clamps scrolling before a draw; draw changes nothing. */
struct pane_ops {
	const char *title;
	void     (*fit)(struct tui *t);
	void     (*draw)(const struct tui *t);
	unsigned (*step)(struct tui *t, long delta);        /* Up, Down (move is a curses macro) */
	unsigned (*page)(struct tui *t, long dir);          /* PgUp, PgDn */
	unsigned (*end)(struct tui *t, bool last);          /* Home, End */
	unsigned (*toggle)(struct tui *t);                  /* Enter */
	unsigned (*click)(struct tui *t, int row);          /* row 0 is below the title */
	unsigned (*wheel)(struct tui *t, long dir);         /* -1 up, +1 down */
};

extern const struct pane_ops list_pane, timeline_pane, verdicts_pane;

/* The session as drawing and fitting read it: const, so the compiler
 * refuses a draw that would change it (review_settle has loaded what they
 * read). Handlers change it through t->rv. */
static inline const struct review *tui_rv(const struct tui *t)
{
	return t->rv;
}

/* screen.c */
int  screen_open(struct tui *t, const struct tui_opts *o);
void screen_close(struct tui *t);
attr_t screen_attr(const struct tui *t, int slot);
void screen_dump(FILE *out);
keycode_t screen_translate(int is_key, wint_t ch);

/* draw.c: sanitised text clipped by display width; they return the
 * columns used */
int  draw_text(int y, int x, int w, const char *s, size_t len, attr_t a);
int  draw_wide(int y, int x, int w, const wchar_t *s, size_t n, attr_t a);
/* Like draw_text, but a text that does not fit ends with '…'. */
int  draw_text_cut(int y, int x, int w, const char *s, size_t len, attr_t a);
/* A cell's attribute on a row, selected (base: the bar's) or not. */
attr_t draw_cell_attr(const struct tui *t, bool sel, attr_t base, int slot);
/* verdicts.c: verdict row s's one-character label (1-9, a-z, A-Z), which
 * the list's cell columns share. buf: 2 bytes or more. */
void verdict_row_label(size_t s, char *buf);
/* The same, cut in the middle (wtext_cut_middle): for ids whose end matters. */
int  draw_text_cut_middle(int y, int x, int w, const char *s, size_t len, attr_t a);
/* A name as util/shortnames shortened it, "…" where a shared start or end
 * went, then cut (in the middle when `middle`) if w is narrower still. */
struct short_name;
void draw_short_name(int y, int x, int w, const char *name, const struct short_name *sn,
                     attr_t a, bool middle);
void draw_fill(int y, int x, int w, attr_t a);
int  draw_width(const char *s, size_t len);
/* A pane's title row: "[title] extra", highlighted when it has the focus.
 * An extra too long for the pane loses its ", "-separated parts from the
 * end, whole (layout_title), never cut in a number. */
void draw_pane_title(const struct tui *t, enum pane p, const char *title, const char *extra);
/* The same with parts of their own brief forms and ranks. */
void draw_pane_title_parts(const struct tui *t, enum pane p, const char *title,
                           const struct title_part *parts, size_t nparts);
/* The rows of a pane below its title (at least 1). */
int  pane_rows(const struct tui *t, enum pane p);

/* spinner.c: the one spinner (still under TCR_NO_ANIMATION) */
struct judge_cell;
const char *spinner_glyph(void);
/* "/ judging 3s" for a judge still answering */
void spinner_judging(const struct judge_cell *c, char *buf, size_t n);

/* status.c: the status line and the message it shows (kept in the log) */
void status_draw(const struct tui *t);
void tui_message(struct tui *t, bool error, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The same for a text already made; `progress` as in struct msglog_entry. */
void tui_note(struct tui *t, bool error, bool progress, const char *text);
/* Opens the prompt with its label; Enter hands the text to prompt.c. */
void prompt_start(struct tui *t, enum prompt_kind k, const char *label);

/* help.c: the help screen */
void help_fit(struct tui *t);
void help_draw(const struct tui *t);
unsigned help_key(struct tui *t, enum tcr_action a);

/* msglog.c: the message log and its overlay (M) */
void msglog_add(struct tui *t, bool error, bool progress, const char *text);
unsigned msglog_open(struct tui *t);
void msglog_fit(struct tui *t);
void msglog_draw(const struct tui *t);
unsigned msglog_key(struct tui *t, enum tcr_action a);
void msglog_free(struct tui *t);

/* groups_pane.c: the groups overlay (=) and its group decisions */
unsigned groups_open(struct tui *t);
void groups_close(struct tui *t);
unsigned groups_key(struct tui *t, keycode_t key);
void groups_fit(struct tui *t);
void groups_draw(const struct tui *t);
unsigned groups_tag_typed(struct tui *t, const char *code);
unsigned groups_confirm_key(struct tui *t, keycode_t key);
unsigned groups_ask_retract(struct tui *t, size_t row, const char *group, size_t standing);

/* compare_view.c: the side by side of two runs */
unsigned cmpview_open(struct tui *t, size_t base_entry, size_t cand_entry);
/* --compare with a task key: the first task both sides ran, once the
 * files are read (the loop calls it each turn while want_open). */
unsigned cmpview_start(struct tui *t);
unsigned cmpview_key(struct tui *t, enum tcr_action a);
void cmpview_fit(struct tui *t);
void cmpview_draw(const struct tui *t);
void cmpview_free(struct tui *t);
/* compare_pick.c: C's menu of the runs to compare the selected one with */
unsigned cmppick_open(struct tui *t);
unsigned cmppick_key(struct tui *t, keycode_t key);
void cmppick_draw(const struct tui *t);
void cmppick_free(struct tui *t);

/* filter_menu.c: f's menu of filters, drawn over the panes */
unsigned fmenu_open(struct tui *t);
unsigned fmenu_key(struct tui *t, keycode_t key);
void fmenu_draw(const struct tui *t);

/* pager.c: a full-screen page of wrapped lines with a hanging indent */
/* Adds text wrapped to `width` columns, `prefix` before its first line and
 * its other lines under the text, not the prefix. */
void pager_add(struct pager *pg, const char *prefix, size_t plen, const char *text, size_t len,
               int width, int slot, int tag);
void pager_free(struct pager *pg);
/* The rows a page shows (the title above, the status line below). */
size_t pager_rows(void);
/* top clamped so the last line is at the bottom at most. */
size_t pager_clamp(const struct pager *pg, size_t top);
/* The title row ("TITLE  lines 1-22 of 64, ↓ more", the hint at the right)
 * and the lines from top. */
void pager_draw(const struct tui *t, const struct pager *pg, size_t top, const char *title,
                const char *hint);
/* Moves top for a scrolling action; false for any other. */
bool pager_scroll(size_t *top, enum tcr_action a);

/* calib_pane.c: the calibration overlay */
unsigned calpane_open(struct tui *t);
unsigned calpane_key(struct tui *t, enum tcr_action a);
/* Rebuilds the figures when labels changed since (before a draw). */
void calpane_fit(struct tui *t);
void calpane_draw(const struct tui *t);
void calpane_free(struct tui *t);

/* tag_prompt.c: t's prompt with its completions, and x on a tag */
unsigned tagprompt_open(struct tui *t);
/* Opens the prompt of kind k (a tag or a tags pane's name) with a label. */
void tagprompt_start(struct tui *t, enum prompt_kind k, const char *label);
bool tagprompt_is(const struct tui *t);
/* prompt.c: the text editing every prompt shares (Esc, Enter, Backspace, C-u, a character). */
unsigned prompt_key_edit(struct tui *t, keycode_t key);
unsigned tagprompt_key(struct tui *t, keycode_t key);
void tagprompt_draw(const struct tui *t);
/* x on a tag: true when it was one (the run's latest, or the call's), *r set. */
bool tags_retract(struct tui *t, unsigned *r);
/* The call selected in the timeline (its number from 1), or 0. */
long tags_selected_call(const struct tui *t);

/* tags_pane.c: the tags overlay (T) */
unsigned tagpane_open(struct tui *t);
bool tagpane_shown(const struct tui *t);
unsigned tagpane_key(struct tui *t, keycode_t key);
void tagpane_draw(const struct tui *t);
/* A name typed at the pane's r, m or p prompt: the aliases written. */
unsigned tagpane_submit(struct tui *t, enum prompt_kind k, const char *name);
void tagpane_free(struct tui *t);

/* list.c: the run list */
/* The run under the cursor changed: the other panes start over. */
unsigned list_moved(struct tui *t);

/* list_width.c: what the layout is told about the list */
/* Columns the list's content needs (0 before a run is read); only grows. */
int  list_width_wanted(struct tui *t);
/* One run in all, the files indexed: the list is a strip over the panes. */
bool list_width_one_run(const struct tui *t);

/* timeline.c */
void timeline_free(struct tui *t);

/* calls.c: labels and corrections of the call selected in the timeline */
/* Whether the timeline has the focus on one of the run's calls. */
bool calls_on_call(const struct tui *t);
unsigned calls_label(struct tui *t, int digit);
unsigned calls_retract(struct tui *t);
unsigned calls_correct(struct tui *t);          /* e: should have been */
unsigned calls_remove(struct tui *t);           /* D: should not have been called */
unsigned calls_insert(struct tui *t);           /* i: a call is missing here */
unsigned calls_answer(struct tui *t);           /* R: the run's expected answer */
unsigned calls_prompt_key(struct tui *t, keycode_t key);
void calls_free(struct tui *t);

/* editor.c: a text edited in the user's editor ($VISUAL, $EDITOR, vi), the
 * screen suspended meanwhile. Returns the text saved (malloc'ed) or NULL
 * with why in err. */
char *editor_edit(struct tui *t, const char *text, const char *suffix, struct error *err);

/* verdicts.c */
int    verdicts_rows_wanted(struct tui *t);
/* The selected verdict row, clamped to the rows there are; SIZE_MAX when none. */
size_t verdicts_selected(struct tui *t);
/* The selected verdict's details as lines: its explanation, the decisions,
 * the note, and the run (id, format, source; the run it is a subagent of). */
void   verdicts_details(const struct tui *t, struct strbuf *out);

/* decide.c: decisions on the selected verdict row */
unsigned decide_accept(struct tui *t);
unsigned decide_accept_all(struct tui *t);
unsigned decide_override(struct tui *t);
unsigned decide_label(struct tui *t, int digit);
unsigned decide_retract(struct tui *t);
unsigned decide_note(struct tui *t);
/* The message after a decision: "what (saved)", or why it was not saved. */
unsigned decide_report(struct tui *t, int rc, const char *err, const char *what);

/* prompt.c: the one-line prompt's keys (search, override, note, judge menu) */
unsigned prompt_key(struct tui *t, keycode_t key);

/* judges.c */
int  tui_judges_open(struct tui *t, struct error *err);
void tui_judges_close(struct tui *t);
void tui_judges_fill(struct tui *t, size_t entry);
unsigned tui_judges_ask(struct tui *t, long which);
/* The answer to "allow HOST?" (or a key variable): y remembers it and asks
 * the judges. */
unsigned tui_judges_allow_key(struct tui *t, keycode_t key);
unsigned tui_judges_cancel(struct tui *t);
int  tui_judges_pollfds(struct tui *t, struct pollfd *fds, int max, int *timeout_ms);
void tui_judges_run(struct tui *t);
/* Whether judging has work for the loop: requests in flight, a J waiting,
 * examples being gathered. */
bool tui_judges_busy(const struct tui *t);

/* app.c: the configuration's keys bound over the defaults in t->km */
void tui_bind_keys(struct tui *t);

/* reload.c: I, with no configuration found: write the proposal, load it */
unsigned tui_write_proposal(struct tui *t);

/* script.c */
int  script_open(struct tui *t, const char *path);
/* Next scripted key; false at the end of the script (then the screen quits).
 * A :save-display leaves its file in t->script.dump for the loop to write
 * once it has drawn. */
bool script_next(struct tui *t, keycode_t *key);
void script_close(struct tui *t);

/* app.c: the screen's state made and freed without a terminal (tests use
 * these), and what a key or an action does */
void tui_init(struct tui *t, struct review *rv, const struct config *cfg);
void tui_free(struct tui *t);
unsigned tui_act(struct tui *t, enum tcr_action a);
unsigned tui_key(struct tui *t, keycode_t key);
/* A mouse event at a screen cell (curses read it; this only acts). */
enum mouse_kind { MOUSE_CLICK, MOUSE_WHEEL_UP, MOUSE_WHEEL_DOWN };
unsigned tui_mouse(struct tui *t, int x, int y, enum mouse_kind k);

#endif
