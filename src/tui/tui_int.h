/* tui_int.h - what the screen's files share. Not a public header. */
#ifndef TCR_TUI_INT_H
#define TCR_TUI_INT_H

#include <curses.h>
#include <poll.h>
#include <stdio.h>

#include "util/strbuf.h"
#include "review/judging.h"
#include "tui/tui.h"

/* What a handler says must be drawn again (handlers never draw). */
enum {
	REDRAW_LIST     = 1u << 0,
	REDRAW_TIMELINE = 1u << 1,
	REDRAW_VERDICTS = 1u << 2,
	REDRAW_STATUS   = 1u << 3,
	REDRAW_ALL      = 0xffu,
	RELAYOUT        = 1u << 8,
};

enum prompt_kind {
	PROMPT_NONE,
	PROMPT_SEARCH,
	PROMPT_SCORE,               /* override: the score */
	PROMPT_REASON,              /* override: the reason */
	PROMPT_NOTE,
	PROMPT_JUDGE,               /* which judge: Enter all, a digit one */
};

/* One display line of the timeline, decoded and sanitised once. */
struct tl_line {
	size_t entry;               /* the timeline entry it belongs to */
	int indent;
	int slot;                   /* enum theme_slot */
	wchar_t *text;
	size_t len;
};

/* A timeline entry: a message or a tool call (or an unmatched result). */
struct tl_entry {
	long msg;                   /* index in run->msgs, or -1 */
	long call;                  /* index in run->calls, or -1 */
	size_t first_line;
};

struct tui {
	struct review *rv;
	const struct config *cfg;
	struct keymap km;
	struct theme theme;
	bool color;
	struct layout lay;
	enum pane focus;
	unsigned dirty;
	bool quit;

	size_t list_top;            /* first view row shown */

	/* The timeline of the run shown, rebuilt when the run or width changes. */
	size_t tl_for_entry;        /* review entry the lines describe; SIZE_MAX = none */
	int tl_width;
	struct tl_line *lines;
	size_t nlines, lines_cap;
	struct tl_entry *entries;
	size_t nentries, entries_cap;
	bool *expanded;             /* per call of the run shown */
	size_t nexpanded;
	size_t tl_sel;              /* selected timeline entry */
	size_t tl_top;              /* first line shown */

	size_t v_sel;               /* selected verdict */
	bool v_open;                /* its details are shown */
	size_t v_detail_top;        /* first details line shown, when they do not fit */

	enum prompt_kind prompt;
	struct strbuf input;
	char prompt_label[160];
	size_t pending_scorer;
	double pending_score;

	bool help;
	size_t help_top;

	char msg[512];
	bool msg_error;

	/* Script mode (TCR_SCRIPT): keys and commands come from a file. */
	FILE *script;
	keycode_t *pending_keys;
	size_t npending, pending_cap, pending_pos;
	bool headless;
	SCREEN *screen;
	FILE *term_out, *term_in;
	long iterations, max_iterations;
	double last_busy_draw;
	FILE *trace;                /* TCR_TRACE: first-screen and key times */
	bool traced_first;
	bool resuming;              /* moving to the first unreviewed run on start */
	struct judging judging;     /* the judges asked from the screen */
	const char *ca_file;
	bool script_waiting;        /* :wait until the judges have answered */
	size_t resume_scan;
	double started_ms;
	int spinner;
};

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
void draw_fill(int y, int x, int w, attr_t a);
int  draw_width(const char *s, size_t len);

/* views */
void tui_pane_title(struct tui *t, enum pane p, const char *title, const char *extra);
void list_draw(struct tui *t);
void timeline_build(struct tui *t, struct review_run *rr, size_t entry);
void timeline_draw(struct tui *t);
void timeline_free(struct tui *t);
void verdicts_draw(struct tui *t);
int  verdicts_rows_wanted(struct tui *t);
void status_draw(struct tui *t);
void help_draw(struct tui *t);
void tui_message(struct tui *t, bool error, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* judges.c */
struct judge_cell;
int  tui_judges_open(struct tui *t, char *err, size_t errlen);
void tui_judges_close(struct tui *t);
void tui_judges_fill(struct tui *t, size_t entry);
unsigned tui_judges_ask(struct tui *t, long which);
unsigned tui_judges_cancel(struct tui *t);
int  tui_judges_pollfds(struct tui *t, struct pollfd *fds, int max, int *timeout_ms);
void tui_judges_run(struct tui *t);
void tui_judges_spinner(const struct judge_cell *c, char *buf, size_t n);

/* script.c */
int  script_open(struct tui *t, const char *path);
/* Next scripted key; false at the end of the script (then the screen quits). */
bool script_next(struct tui *t, keycode_t *key);
void script_close(struct tui *t);

/* app.c */
void tui_draw_now(struct tui *t);
unsigned tui_act(struct tui *t, enum tcr_action a);
unsigned tui_key(struct tui *t, keycode_t key);

#endif
