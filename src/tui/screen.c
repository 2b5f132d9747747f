/* screen.c - curses set-up and tear-down, colours, the screen dump.
 *
 * In script mode without a terminal (TCR_SCRIPT), the screen is opened
 * with newterm on /dev/null and its size comes from LINES and COLUMNS, so
 * tests read exactly what curses holds without a pty. */
#include <locale.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

#include "tui_int.h"
#include "util/xalloc.h"

static volatile sig_atomic_t screen_active;

/* A fatal signal must not leave the terminal in raw mode. */
static void fatal_signal(int sig)
{
	if (screen_active)
		endwin();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void restore_at_exit(void)
{
	if (screen_active) {
		endwin();
		screen_active = 0;
	}
}

static short curses_color(short c, bool eight)
{
	if (c < 0)
		return -1;
	if (eight && c >= 8 && c < 16)
		return (short)(c % 8);  /* bright colours fall back to their base */
	return theme_fallback_colour(c, eight ? 8 : COLORS);   /* one of the 256: the nearest */
}

static attr_t style_attrs(unsigned a)
{
	attr_t out = A_NORMAL;
	if (a & THEME_ATTR_BOLD)
		out |= A_BOLD;
	if (a & THEME_ATTR_DIM)
		out |= A_DIM;
	if (a & THEME_ATTR_UNDERLINE)
		out |= A_UNDERLINE;
	if (a & THEME_ATTR_REVERSE)
		out |= A_REVERSE;
	if (a & THEME_ATTR_STANDOUT)
		out |= A_STANDOUT;
#ifdef A_ITALIC
	if (a & THEME_ATTR_ITALIC)
		out |= A_ITALIC;
#endif
	return out;
}

static void colors_init(struct tui *t)
{
	const char *no_color = getenv("NO_COLOR");
	t->color = !t->theme.monochrome && has_colors() && !(no_color && *no_color);
	if (!t->color) {
		struct theme mono;
		theme_monochrome(&mono);
		t->theme = mono;
		return;
	}
	start_color();
	use_default_colors();
	bool eight = COLORS < 16;
	for (int s = 0; s < SLOT_COUNT && s + 1 < COLOR_PAIRS; s++) {
		const struct theme_style *st = &t->theme.style[s];
		init_pair((short)(s + 1), curses_color(st->fg, eight), curses_color(st->bg, eight));
	}
}

attr_t screen_attr(const struct tui *t, int slot)
{
	const struct theme_style *st = &t->theme.style[slot];
	attr_t a = style_attrs(st->attrs);
	if (t->color && (st->fg >= 0 || st->bg >= 0))
		a |= COLOR_PAIR(slot + 1);
	return a;
}

int screen_open(struct tui *t, const struct tui_opts *o)
{
	setlocale(LC_ALL, "");
	if (t->term.headless) {
		if (!getenv("TERM"))
			setenv("TERM", "dumb", 1);
		t->term.out = fopen("/dev/null", "w");
		t->term.in = fopen("/dev/null", "r");
		if (!t->term.out || !t->term.in)
			return -1;
		t->term.screen = newterm(NULL, t->term.out, t->term.in);
		if (!t->term.screen)
			return -1;
		set_term(t->term.screen);
	} else {
		if (!initscr())
			return -1;
	}
	screen_active = 1;
	atexit(restore_at_exit);
	/* Out of memory ends the program with a line on stderr: on the
	 * restored terminal, not over the screen. */
	xalloc_on_die(restore_at_exit);
	signal(SIGSEGV, fatal_signal);
	signal(SIGBUS, fatal_signal);
	signal(SIGFPE, fatal_signal);
	signal(SIGABRT, fatal_signal);
	cbreak();   /* Ctrl-C stays SIGINT, which quits and restores the terminal */
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	nodelay(stdscr, TRUE);
	if (!t->term.headless)
		mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
	colors_init(t);
	(void)o;
	return 0;
}

void screen_close(struct tui *t)
{
	if (!screen_active)
		return;
	endwin();
	screen_active = 0;
	xalloc_on_die(NULL);
	if (t->term.screen) {
		delscreen(t->term.screen);
		t->term.screen = NULL;
	}
	if (t->term.out)
		fclose(t->term.out);
	if (t->term.in)
		fclose(t->term.in);
	t->term.out = t->term.in = NULL;
}

/* The screen as curses holds it, row by row, trailing blanks trimmed. */
void screen_dump(FILE *out)
{
	wchar_t row[1024];
	int maxw = COLS < 1023 ? COLS : 1023;
	for (int y = 0; y < LINES; y++) {
		int n = mvinnwstr(y, 0, row, maxw);
		size_t len = n > 0 ? (size_t)n : 0;
		if (len > (size_t)maxw)
			len = (size_t)maxw;
		while (len > 0 && row[len - 1] == L' ')
			len--;
		row[len] = L'\0';
		fprintf(out, "%ls\n", row);
	}
}

keycode_t screen_translate(int is_key, wint_t ch)
{
	if (!is_key) {
		if (ch == '\r')
			return '\n';
		return (keycode_t)ch;
	}
	switch (ch) {
	case KEY_UP:        return KEY_FN(KF_UP);
	case KEY_DOWN:      return KEY_FN(KF_DOWN);
	case KEY_LEFT:      return KEY_FN(KF_LEFT);
	case KEY_RIGHT:     return KEY_FN(KF_RIGHT);
	case KEY_PPAGE:     return KEY_FN(KF_PGUP);
	case KEY_NPAGE:     return KEY_FN(KF_PGDN);
	case KEY_HOME:      return KEY_FN(KF_HOME);
	case KEY_END:       return KEY_FN(KF_END);
	case KEY_BTAB:      return KEY_FN(KF_BTAB);
	case KEY_BACKSPACE: return KEY_FN(KF_BACKSPACE);
	case KEY_DC:        return KEY_FN(KF_DELETE);
	case KEY_IC:        return KEY_FN(KF_INSERT);
	case KEY_ENTER:     return '\n';
	default:
		if (ch >= KEY_F(1) && ch <= KEY_F(12))
			return KEY_FN(KF_F1 + (int)(ch - KEY_F(1)));
		return 0;
	}
}
