/* tui_version.h - the ncurses version, from the only layer that links curses. */
#ifndef TCR_TUI_TUI_VERSION_H
#define TCR_TUI_TUI_VERSION_H

const char *tui_curses_version(void);

#endif
