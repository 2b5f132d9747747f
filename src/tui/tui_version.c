/* tui_version.c - the ncurses version, reported by the layer that uses curses. */
#include <curses.h>

#include "tui/tui_version.h"

const char *tui_curses_version(void)
{
	return curses_version();
}
