/* tui.h - the review screen. Only src/tui/ includes curses. */
#ifndef TCR_TUI_TUI_H
#define TCR_TUI_TUI_H

#include <stdbool.h>
#include <stddef.h>

#include "config/config.h"
#include "review/keymap.h"
#include "tui/layout.h"
#include "review/session.h"
#include "review/compare.h"
#include "tui/theme.h"
#include "util/error.h"

/* The screen's I writes the configuration `tcreview init` would propose
 * for the inputs and loads it. Loading a configuration and opening a
 * session on it belong to the command line, which hands them down. */
struct tui_reload {
	const char *const *inputs;  /* the inputs as given */
	size_t ninputs;
	/* Loads the configuration again and opens a new session on the same
	 * inputs: 0 with *rv and *cfg replaced (the old ones freed), or -1
	 * with err and the old ones still in place. */
	int (*reload)(void *arg, struct review **rv, const struct config **cfg, struct error *err);
	void *arg;
};

struct tui_opts {
	const char *theme;          /* --theme, else the YAML's, else "dark" */
	const char *datadir;        /* where themes/ are found; NULL = none */
	const char *script;         /* TCR_SCRIPT: keys and commands from a file */
	long max_iterations;        /* > 0: stop after that many loop turns (smoke runs) */
	double started_ms;          /* CLOCK_MONOTONIC ms when the program started, for TCR_TRACE */
	const char *ca_file;        /* --ca-file: a private CA for the judges */
	const struct tui_reload *reload;    /* NULL: I cannot reload */
	const struct compare_sides *compare;    /* --compare: the sides (NULL: none) */
};

/* Runs the screen until the reviewer quits. Returns an exit status. */
int tui_run(struct review *rv, const struct config *cfg, const struct tui_opts *o);

#endif
