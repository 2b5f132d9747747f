/* reload.c - the screen's I: the configuration `tcreview init` would propose, written and loaded.
 *
 * Without a tcreview.yaml the built-in checks score the runs; I writes the
 * proposal for the inputs on the screen into the current folder (never
 * over a file) and starts the screen over on it. Decisions are on disk,
 * so the new session reads them back; the cursor goes on from the run it
 * was on (the first still unreviewed from there, as on any start). */
#include <stdlib.h>
#include <string.h>

#include "config/propose.h"
#include "timeline_find.h"
#include "tui_int.h"
#include "util/error.h"

#define PROPOSAL_FILE "tcreview.yaml"

/* The panes' state belongs to the old session's runs and rows. */
static void forget_session(struct tui *t)
{
	tui_judges_close(t);
	calpane_free(t);
	tagpane_free(t);
	timeline_free(t);
	tl_find_free(t);
	memset(&t->tl, 0, sizeof t->tl);
	t->tl.for_entry = SIZE_MAX;
	t->tl.width = -1;
	memset(&t->vd, 0, sizeof t->vd);
	memset(&t->cal, 0, sizeof t->cal);
	t->list.top = 0;
}

/* The new configuration's keys over the defaults. */
static void rebind(struct tui *t)
{
	keymap_free(&t->km);
	keymap_init_defaults(&t->km);
	tui_bind_keys(t);
}

/* Loads the configuration found now and opens the session again: 0, 1
 * when loaded but its judges cannot be asked, -1 when it cannot be loaded
 * (err says why in both). */
static int restart(struct tui *t, struct error *err)
{
	struct review *rv = t->rv;
	const struct config *cfg = t->cfg;
	/* The new session lists the runs in file order, unfiltered: in that
	 * view the reviewer goes on from the run they were on. */
	size_t at = rv->sort == SORT_FILE && rv->filter == FILTER_ALL && review_view_count(rv)
	            ? review_cursor(rv) : 0;
	forget_session(t);
	int rc = t->reload->reload(t->reload->arg, &rv, &cfg, err);
	t->rv = rv;
	t->cfg = cfg;
	rebind(t);
	struct error why = {0};
	if (tui_judges_open(t, &why) < 0 && rc == 0) {
		error_set(err, ERR_FAILED, "%.400s", why.msg);
		rc = 1;
	}
	review_step(t->rv, 10);
	t->resuming = true;
	t->resume_scan = at;
	return rc;
}

unsigned tui_write_proposal(struct tui *t)
{
	if (t->cfg->path) {
		tui_message(t, false, "%s is in use; `tcreview init -o FILE` on the command line "
		            "proposes another", t->cfg->path);
		return REDRAW_STATUS;
	}
	if (!t->reload || !t->reload->reload || !t->reload->ninputs) {
		tui_message(t, true, "nothing to propose a configuration for: open your own files");
		return REDRAW_STATUS;
	}
	struct error err = {0};
	struct proposal p;
	memset(&p, 0, sizeof p);
	const struct propose_opts po = { .out_path = PROPOSAL_FILE, .probe_local = true,
	                                 .walk_quiet = true };
	if (config_propose(t->reload->inputs, t->reload->ninputs, &po, &p, &err) < 0 ||
	    config_proposal_write(&p, PROPOSAL_FILE, false, &err) < 0) {
		proposal_free(&p);
		tui_message(t, true, "I: %s", err.msg);
		return REDRAW_STATUS;
	}
	size_t nruns = p.nruns;
	bool sampled = p.sampled;
	proposal_free(&p);
	int rc = restart(t, &err);
	if (rc != 0) {
		tui_message(t, true, rc < 0 ? "wrote " PROPOSAL_FILE " but cannot load it: %s"
		                            : "wrote " PROPOSAL_FILE " and loaded it; judges unavailable: %s",
		            err.msg);
		return REDRAW_ALL | RELAYOUT | REDRAW_CLEAR;
	}
	tui_message(t, false, "wrote " PROPOSAL_FILE " from %s%zu runs and loaded it: %zu scorers, "
	            "%zu judges; `tcreview init --force RUNS TRUTH` also joins a ground-truth file",
	            sampled ? "a sample of " : "", nruns, t->cfg->nscorers, t->cfg->njudges);
	return REDRAW_ALL | RELAYOUT | REDRAW_CLEAR;
}
