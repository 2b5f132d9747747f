/* tui.h - the review screen. Only src/tui/ includes curses. */
#ifndef TCR_TUI_TUI_H
#define TCR_TUI_TUI_H

#include <stdbool.h>
#include <stddef.h>

#include "config/config.h"
#include "review/keymap.h"
#include "tui/layout.h"
#include "review/session.h"
#include "tui/theme.h"

struct tui_opts {
	const char *theme;          /* --theme, else the YAML's, else "dark" */
	const char *datadir;        /* where themes/ are found; NULL = none */
	const char *script;         /* TCR_SCRIPT: keys and commands from a file */
	long max_iterations;        /* > 0: stop after that many loop turns (smoke runs) */
	double started_ms;
	const char *ca_file;        /* --ca-file: a private CA for the judges */          /* CLOCK_MONOTONIC ms when the program started, for TCR_TRACE */
};

/* Runs the screen until the reviewer quits. Returns an exit status. */
int tui_run(struct review *rv, const struct config *cfg, const struct tui_opts *o);

#endif
