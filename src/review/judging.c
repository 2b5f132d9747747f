/* judging.c - the screen's LLM judging, without the screen: asked jobs,
 * their answers into the session's judge cells, cached verdicts.
 *
 * Everything goes through judge/runner (one judging path with `tcreview
 * judge`). The screen asks again when told to, so the runner is opened
 * with refresh; cached verdicts are shown by judging_fill instead. Jobs
 * are tagged entry + 1, so cancelling a run's requests is one call. The
 * examples of judges with examples are the session's labelled runs,
 * gathered when asked for and again once labels or runs changed. */
#include "review/judging.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/provider.h"
#include "judge/reach.h"
#include "judge/runner.h"
#include "review/fewshot.h"
#include "util/clock.h"
#include "util/xalloc.h"
#include "util/error.h"

struct judging_asked {
	struct judging *jg;
	size_t entry, judge;
	struct judging_asked *prev, *next;  /* jg->asked: the jobs not answered yet */
	struct judge_job *job;
};

static void note_set(struct judging_note *note, bool error, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void note_set(struct judging_note *note, bool error, const char *fmt, ...)
{
	if (!note)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(note->text, sizeof note->text, fmt, ap);
	va_end(ap);
	note->error = error;
}

static void note_clear(struct judging_note *note)
{
	if (note) {
		note->text[0] = '\0';
		note->error = false;
	}
}

static void asked_unlink(struct judging *jg, struct judging_asked *a)
{
	if (a->prev)
		a->prev->next = a->next;
	else
		jg->asked = a->next;
	if (a->next)
		a->next->prev = a->prev;
	a->prev = a->next = NULL;
}

static const struct config *cfg_of(const struct judging *jg)
{
	return jg->rv->cfg;
}

/* The session's hook for each run it summarizes: the cached verdicts of
 * the judges not asked yet, one hash-table get each (misses leave the
 * entry without judge cells, so they cost no memory). */
static void fill_from_cache(void *ctx, struct review *rv, size_t entry, const struct run *run)
{
	struct judging *jg = ctx;
	const struct review_entry *e = &rv->entries[entry];
	for (size_t j = 0; j < cfg_of(jg)->njudges; j++) {
		if (e->jcells && e->jcells[j].state != JUDGE_NONE)
			continue;
		const struct verdict *v = judge_runner_cached(jg->runner, &cfg_of(jg)->judges[j], run);
		if (v)
			review_judge_done(rv, entry, j, v);
	}
}

static int open_runner(struct judging *jg, struct review *rv, const char *ca_file,
                       bool cache_only, struct judging_note *note, struct error *err)
{
	memset(jg, 0, sizeof *jg);
	jg->rv = rv;
	jg->filled = SIZE_MAX;
	note_clear(note);
	if (rv->cfg->njudges == 0)
		return 0;
	struct judge_runner_opts o = {
		.concurrency = 8, .ca_file = ca_file, .refresh = true,
		.first_input = rv->ds.nfiles ? rv->ds.files[0].path : NULL,
		.expect = rv->ev.expect, .cache_only = cache_only,
	};
	if (fewshot_needed(rv->cfg)) {
		jg->shots = xcalloc(1, sizeof *jg->shots);
		fewshot_init(jg->shots, rv->cfg, NULL);
		o.examples = fewshot_candidates;
		o.examples_ctx = jg->shots;
	}
	jg->runner = judge_runner_new(&o, err);
	if (!jg->runner) {
		fewshot_free(jg->shots);
		free(jg->shots);
		jg->shots = NULL;
		return -1;
	}
	if (judge_runner_cache_error(jg->runner))
		note_set(note, true, "%s: %s", cache_only ? "no cached judge verdicts"
		         : "judge verdicts will not be kept", judge_runner_cache_error(jg->runner));
	if (judge_runner_cache(jg->runner)) {
		rv->judge_fill = fill_from_cache;
		rv->judge_fill_ctx = jg;
	}
	return 0;
}

int judging_open(struct judging *jg, struct review *rv, const char *ca_file,
                 struct judging_note *note, struct error *err)
{
	return open_runner(jg, rv, ca_file, false, note, err);
}

int judging_open_cached(struct judging *jg, struct review *rv, struct judging_note *note,
                        struct error *err)
{
	return open_runner(jg, rv, NULL, true, note, err);
}

bool judging_can_ask(const struct judging *jg)
{
	return jg->runner && judge_runner_client(jg->runner);
}

void judging_close(struct judging *jg)
{
	if (jg->rv && jg->rv->judge_fill_ctx == jg) {
		jg->rv->judge_fill = NULL;
		jg->rv->judge_fill_ctx = NULL;
	}
	/* The runner drops unanswered jobs without calling back: they are ours. */
	judge_runner_free(jg->runner);
	jg->runner = NULL;
	while (jg->asked) {
		struct judging_asked *a = jg->asked;
		asked_unlink(jg, a);
		judge_job_free(a->job);
		free(a);
	}
	jg->pending = 0;
	if (jg->shots) {
		fewshot_free(jg->shots);
		free(jg->shots);
		jg->shots = NULL;
	}
}

/* Every summarized entry whose run has a label on a judge with examples
 * is loaded on its own (the session's run cache may evict its copy). */
static void shots_gather(struct judging *jg)
{
	struct review *rv = jg->rv;
	struct error err = {0};
	char hash[65];
	fewshot_free(jg->shots);
	fewshot_init(jg->shots, rv->cfg, rv->annot);
	for (size_t i = 0; i < rv->nentries; i++) {
		const struct review_entry *e = &rv->entries[i];
		if (!e->id || e->load_failed || !fewshot_wants(jg->shots, e->id))
			continue;
		if (!review_entry_hash(e, hash))
			continue;
		struct run *r = dataset_load_run(&rv->ds, &rv->ds.recs[e->rec], rv->forced,
		                                 rv->cfg->run_id_path, &err);
		if (r && !fewshot_offer(jg->shots, r, hash))
			run_free(r);
	}
}

/* eager: also while the runs are still being summarized, when more of
 * them may have been found (asking); else that waits until all are
 * (moving from run to run, where gathering at each step would cost). */
static bool shots_update(struct judging *jg, bool eager)
{
	if (!jg->shots)
		return false;
	struct review *rv = jg->rv;
	size_t decisions = annot_count(rv->annot);
	/* More runs known only matter while some labelled run is not found. */
	bool more_runs = rv->nsummarized != jg->shots_summarized &&
	                 jg->shots->nruns < jg->shots->nids &&
	                 (eager || rv->nsummarized == rv->nentries);
	if (jg->shots_built && decisions == jg->shots_decisions && !more_runs)
		return false;
	shots_gather(jg);
	jg->shots_built = true;
	jg->shots_decisions = decisions;
	jg->shots_summarized = rv->nsummarized;
	return true;
}

bool judging_shots_update(struct judging *jg)
{
	return shots_update(jg, true);
}

bool judging_fill(struct judging *jg, size_t entry)
{
	if (!jg->runner || !judge_runner_cache(jg->runner) || entry == SIZE_MAX ||
	    entry == jg->filled)
		return false;
	jg->filled = entry;
	shots_update(jg, false);
	struct review *rv = jg->rv;
	struct review_run *rr = review_run_at(rv, entry);
	if (!rr || !rr->run)
		return false;
	bool changed = false;
	for (size_t j = 0; j < cfg_of(jg)->njudges; j++) {
		struct judge_cell *c = review_judge_cell(rv, entry, j);
		if (!c || c->state != JUDGE_NONE)
			continue;
		const struct verdict *v = judge_runner_cached(jg->runner, &cfg_of(jg)->judges[j], rr->run);
		if (v) {
			review_judge_done(rv, entry, j, v);
			changed = true;
		}
	}
	return changed;
}

/* The note an answer leaves: its score, its error, or why it was skipped. */
static void answer_note(struct judging_note *note, const char *id, const struct verdict *v)
{
	if (v->status == VERDICT_ERROR)
		note_set(note, true, "%s: %s", id, v->message ? v->message : "failed");
	else if (v->status == VERDICT_OK)
		note_set(note, false, "%s answered: %g (%s)", id, v->score, v->passed ? "pass" : "fail");
	else
		note_set(note, false, "%s: skipped: %s", id, v->message ? v->message : "");
}

static void on_done(void *ctx, struct judge_job *job, uint64_t tag)
{
	struct judging_asked *a = ctx;
	struct judging *jg = a->jg;
	(void)tag;
	asked_unlink(jg, a);
	struct verdict v;
	judge_job_verdict(job, &v);
	review_judge_done(jg->rv, a->entry, a->judge, &v);
	const char *id = cfg_of(jg)->judges[a->judge].id;
	/* blind: the status line must not say what the hidden row shows */
	if (review_row_hidden(jg->rv, a->entry, cfg_of(jg)->nscorers + a->judge))
		note_set(&jg->last, false, "%s answered (hidden until you label it: blind)", id);
	else
		answer_note(&jg->last, id, &v);
	verdict_clear(&v);
	judge_job_free(job);
	free(a);
	jg->pending--;
	jg->answered++;
}

/* A verdict that needs no request (the rubric does not apply). */
static void answer_now(struct judging *jg, size_t entry, size_t judge, struct judge_job *job)
{
	struct verdict v;
	judge_job_verdict(job, &v);
	review_judge_done(jg->rv, entry, judge, &v);
	verdict_clear(&v);
	judge_job_free(job);
}

/* Asks one judge about the run; true when a request went out. */
static bool ask_one(struct judging *jg, struct review_run *rr, size_t j)
{
	struct judging_asked *a = xcalloc(1, sizeof(*a));
	a->jg = jg;
	a->entry = rr->entry;
	a->judge = j;
	enum judge_start how = judge_runner_start(jg->runner, &cfg_of(jg)->judges[j], rr->run,
	                                          (uint64_t)rr->entry + 1, on_done, a, &a->job);
	if (how != JUDGE_ASKED) {
		answer_now(jg, rr->entry, j, a->job);
		free(a);
		return false;
	}
	a->next = jg->asked;
	if (a->next)
		a->next->prev = a;
	jg->asked = a;
	review_judge_pending(jg->rv, rr->entry, j, now_ms());
	jg->pending++;
	return true;
}

/* How long a local judge's address may take to accept before it counts
 * as not running: a refusal is immediate, this bounds a stuck one. */
#define REACH_TIMEOUT_MS 300

/* Why a judge on this machine cannot be asked, for its row: how to start
 * what it names, or which key to set for a hosted judge instead. */
static void why_down(const struct judge_conf *jc, const char *where, char *buf, size_t n)
{
	if (jc->provider == PROVIDER_OLLAMA)
		snprintf(buf, n, "no Ollama answers at %s. Start it "
		         "(`ollama serve`, then `ollama pull %s`), or set OPENAI_API_KEY or "
		         "ANTHROPIC_API_KEY and add a judge for it (`tcreview init` writes one)",
		         where, jc->model);
	else
		snprintf(buf, n, "nothing answers at %s. Start the server "
		         "its base_url names, or set OPENAI_API_KEY or ANTHROPIC_API_KEY and add a "
		         "judge for it", where);
}

/* The status line's part: short, since the row's details hold the rest. */
static void note_down(struct judging_note *note, const struct judge_conf *jc, size_t ndown,
                      size_t asked)
{
	char lead[64] = "";
	if (asked)
		snprintf(lead, sizeof lead, "asking %zu judge%s; ", asked, asked == 1 ? "" : "s");
	if (ndown > 1)
		note_set(note, !asked, "%s%zu judges could not be reached (their rows say why)", lead,
		         ndown);
	else
		note_set(note, !asked, "%s%s could not be reached (its row says why)", lead, jc->id);
}

bool judging_ask(struct judging *jg, long which, struct judging_note *note)
{
	struct review *rv = jg->rv;
	if (cfg_of(jg)->njudges == 0) {
		note_set(note, true, "no judge is configured (add judges: to the YAML)");
		return false;
	}
	if (!judging_can_ask(jg)) {
		note_set(note, true, jg->runner ? "judges are not asked here (cached verdicts only)"
		         : "judges unavailable");
		return false;
	}
	struct review_run *rr = review_current(rv);
	if (!rr || !rr->run || rr->run->load_error) {
		note_set(note, true, "this record could not be read; there is nothing to judge");
		return false;
	}
	judging_shots_update(jg);
	size_t asked = 0;
	const struct judge_conf *bare = NULL;   /* a judge with examples but none to show */
	const struct judge_conf *down = NULL;   /* the first local judge nothing answers for */
	size_t ndown = 0;
	for (size_t j = 0; j < cfg_of(jg)->njudges; j++) {
		if (which >= 0 && (size_t)which != j)
			continue;
		struct judge_cell *c = review_judge_cell(rv, rr->entry, j);
		if (c->state == JUDGE_PENDING)
			continue;
		const struct judge_conf *jc = &cfg_of(jg)->judges[j];
		char at[300];
		if (judge_reach_local(provider_base(jc), REACH_TIMEOUT_MS, at, sizeof at) ==
		    REACH_NOTHING) {
			char why[sizeof at + 300];
			why_down(jc, at, why, sizeof why);
			review_judge_unreached(rv, rr->entry, j, why);
			down = down ? down : jc;
			ndown++;
			continue;
		}
		const struct judge_example *ex[JUDGE_EXAMPLES_MAX];
		if (jc->examples.k > 0 && judge_runner_examples(jg->runner, jc, rr->run, ex) == 0)
			bare = jc;
		asked += ask_one(jg, rr, j);
	}
	if (down)
		note_down(note, down, ndown, asked);
	else if (asked && bare)
		note_set(note, false, "asking %zu judge%s (Esc cancels); %s has no labelled run in split "
		         "%s to show as an example", asked, asked == 1 ? "" : "s", bare->id,
		         bare->examples.split);
	else if (asked)
		note_set(note, false, "asking %zu judge%s (Esc cancels)", asked, asked == 1 ? "" : "s");
	else
		note_set(note, false, "nothing to ask");
	return true;
}

size_t judging_cancel(struct judging *jg, struct judging_note *note)
{
	struct review *rv = jg->rv;
	note_clear(note);
	if (!judging_can_ask(jg) || review_view_count(rv) == 0)
		return 0;
	size_t entry = rv->view[review_cursor(rv)];
	size_t n = judge_client_cancel(judge_runner_client(jg->runner), (uint64_t)entry + 1);
	if (n)
		note_set(note, false, "cancelled %zu judge request%s", n, n == 1 ? "" : "s");
	jg->answered = 0;
	return n;
}

int judging_pollfds(struct judging *jg, struct pollfd *fds, int max, int *timeout_ms)
{
	*timeout_ms = -1;
	if (!judging_can_ask(jg) || jg->pending == 0)
		return 0;
	return judge_client_pollfds(judge_runner_client(jg->runner), fds, max, timeout_ms);
}

size_t judging_run(struct judging *jg, struct judging_note *note)
{
	note_clear(note);
	jg->answered = 0;
	if (!judging_can_ask(jg) || jg->pending == 0)
		return 0;
	judge_client_run(judge_runner_client(jg->runner));
	size_t n = jg->answered;
	if (n && note)
		*note = jg->last;
	jg->answered = 0;
	return n;
}
