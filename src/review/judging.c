/* judging.c - the screen's LLM judging, without the screen: asked jobs,
 * their answers into the session's judge cells, cached verdicts.
 *
 * Everything goes through judge/runner (one judging path with `tcreview
 * judge`). The screen asks again when told to, so the runner is opened
 * with refresh; cached verdicts are shown by judging_fill instead. Jobs
 * are tagged entry + 1, so cancelling a run's requests is one call. The
 * examples of judges with examples are the session's labelled runs,
 * gathered when asked for and again once labels or runs changed.
 *
 * Nothing here waits: a J that needs the examples gathered or a local
 * judge's address probed waits in jg->waits while the loop gathers in
 * slices and polls the probes (judging_work), and its requests go out
 * then, with the note they would have had at once. */
#include "review/judging.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/provider.h"
#include "judge/reach.h"
#include "judge/runner.h"
#include "review/fewshot.h"
#include "review/fewshot_gather.h"
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
	note->progress = false;
}

static void note_clear(struct judging_note *note)
{
	if (note) {
		note->text[0] = '\0';
		note->error = false;
		note->progress = false;
	}
}

/* One judge of a waiting J: whether it is asked, and what its probe says. */
struct judging_probe {
	bool asked;
	struct judge_reach_probe *p;    /* the connect in flight, else NULL */
	enum judge_reach reach;         /* REACH_PENDING while p is */
	char where[300];                /* "host:port", for the message */
};

/* A J whose requests wait for the examples or for local judges' probes. */
struct judging_wait {
	size_t entry;
	long which;
	struct judging_probe *probes;   /* one per judge */
	struct judging_wait *next;      /* jg->waits, oldest first */
};

static void wait_free(struct judging_wait *w, size_t njudges)
{
	for (size_t j = 0; j < njudges; j++)
		judge_reach_free(w->probes[j].p);
	free(w->probes);
	free(w);
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

/* How long a key may spend gathering: enough to finish a small set at
 * once, too little for a person to notice. */
#define GATHER_KEY_MS 5

static int open_runner(struct judging *jg, struct review *rv, const char *ca_file,
                       bool cache_only, const char *also_input, struct judging_note *note,
                       struct error *err)
{
	memset(jg, 0, sizeof *jg);
	jg->rv = rv;
	jg->filled = SIZE_MAX;
	jg->filled_early = SIZE_MAX;
	jg->key_gather_ms = GATHER_KEY_MS;
	note_clear(note);
	/* stats and the calibration overlay read the pairwise judges' answers
	 * through it too (review/prefs.h). */
	if (rv->cfg->njudges == 0 && rv->cfg->npair_judges == 0)
		return 0;
	struct judge_runner_opts o = {
		.concurrency = 8, .ca_file = ca_file, .refresh = true,
		.first_input = rv->ds.nfiles ? rv->ds.files[0].path : NULL,
		.expect = rv->ev.expect, .cache_only = cache_only, .also_input = also_input,
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
	return open_runner(jg, rv, ca_file, false, NULL, note, err);
}

int judging_open_cached(struct judging *jg, struct review *rv, struct judging_note *note,
                        struct error *err)
{
	return open_runner(jg, rv, NULL, true, NULL, note, err);
}

int judging_open_cached_also(struct judging *jg, struct review *rv, const char *also_input,
                             struct judging_note *note, struct error *err)
{
	return open_runner(jg, rv, NULL, true, also_input, note, err);
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
	while (jg->waits) {
		struct judging_wait *w = jg->waits;
		jg->waits = w->next;
		wait_free(w, jg->rv ? cfg_of(jg)->njudges : 0);
	}
	fewshot_gather_stop(&jg->gather);
	if (jg->shots) {
		fewshot_free(jg->shots);
		free(jg->shots);
		jg->shots = NULL;
	}
}

/* eager: also while the runs are still being summarized, when more of
 * them may have been found (asking); else that waits until all are
 * (moving from run to run, where gathering at each step would cost). */
static bool shots_stale(const struct judging *jg, bool eager)
{
	const struct review *rv = jg->rv;
	/* More runs known only matter while some labelled run is not found. */
	bool more_runs = rv->nsummarized != jg->shots_summarized &&
	                 jg->shots->nruns < jg->shots->nids &&
	                 (eager || rv->nsummarized == rv->nentries);
	return !jg->shots_built || annot_count(rv->annot) != jg->shots_decisions || more_runs;
}

/* Begins gathering the candidates again when they are stale; a pass
 * under way goes on, unless labels changed since it began. True while a
 * pass is under way: the candidates are not to be used yet. */
static bool shots_update(struct judging *jg, bool eager)
{
	if (!jg->shots)
		return false;
	struct review *rv = jg->rv;
	if (fewshot_gather_running(&jg->gather)) {
		if (jg->gather.decisions != annot_count(rv->annot))
			fewshot_gather_start(&jg->gather, rv);
		return true;
	}
	if (!shots_stale(jg, eager))
		return false;
	fewshot_gather_start(&jg->gather, rv);
	return true;
}

/* A pass is over: its set replaces the one the runner reads. */
static void shots_finish(struct judging *jg)
{
	size_t decisions = jg->gather.decisions, summarized = jg->gather.summarized;
	struct fewshot *set = fewshot_gather_take(&jg->gather);
	fewshot_free(jg->shots);
	free(jg->shots);
	jg->shots = set;
	judge_runner_set_examples(jg->runner, fewshot_candidates, set);
	jg->shots_built = true;
	jg->shots_decisions = decisions;
	jg->shots_summarized = summarized;
}

bool judging_shots_update(struct judging *jg)
{
	if (!shots_update(jg, true))
		return false;
	while (!fewshot_gather_step(&jg->gather, jg->rv, 1000))
		;
	shots_finish(jg);
	return true;
}

/* The cached verdicts of the entry's judges; only those without examples
 * while the candidates are being gathered (the others' keys depend on
 * them, and are looked up once they are known). */
static bool fill_cells(struct judging *jg, size_t entry, bool with_examples)
{
	struct review *rv = jg->rv;
	struct review_run *rr = review_run_at(rv, entry);
	if (!rr || !rr->run)
		return false;
	bool changed = false;
	for (size_t j = 0; j < cfg_of(jg)->njudges; j++) {
		const struct judge_conf *jc = &cfg_of(jg)->judges[j];
		struct judge_cell *c = review_judge_cell(rv, entry, j);
		if (!c || c->state != JUDGE_NONE || (!with_examples && jc->examples.k > 0))
			continue;
		const struct verdict *v = judge_runner_cached(jg->runner, jc, rr->run);
		if (v) {
			review_judge_done(rv, entry, j, v);
			changed = true;
		}
	}
	return changed;
}

bool judging_fill(struct judging *jg, size_t entry)
{
	if (!jg->runner || !judge_runner_cache(jg->runner) || entry == SIZE_MAX ||
	    entry == jg->filled)
		return false;
	if (shots_update(jg, false)) {
		if (entry == jg->filled_early)
			return false;
		jg->filled_early = entry;
		return fill_cells(jg, entry, false);
	}
	jg->filled = entry;
	jg->filled_early = SIZE_MAX;
	return fill_cells(jg, entry, true);
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
static bool ask_one(struct judging *jg, const struct review_run *rr, size_t j)
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
 * as not running: a refusal is immediate, this bounds a stuck one.
 * TCR_REACH_TIMEOUT_MS lengthens it for tests that hold a connect. */
#define REACH_TIMEOUT_MS 300

static int reach_timeout_ms(void)
{
	const char *v = getenv("TCR_REACH_TIMEOUT_MS");
	long ms = v && *v ? strtol(v, NULL, 10) : 0;
	return ms > 0 && ms <= 3600000 ? (int)ms : REACH_TIMEOUT_MS;
}

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

/* Whether a J can ask anything about the run under the cursor; else the
 * note says why. */
static const struct review_run *askable(struct judging *jg, struct judging_note *note)
{
	if (cfg_of(jg)->njudges == 0) {
		note_set(note, true, "no judge is configured (add judges: to the YAML)");
		return NULL;
	}
	if (!judging_can_ask(jg)) {
		note_set(note, true, jg->runner ? "judges are not asked here (cached verdicts only)"
		         : "judges unavailable");
		return NULL;
	}
	const struct review_run *rr = review_current(jg->rv);
	if (!rr || !rr->run || rr->run->load_error) {
		note_set(note, true, "this record could not be read; there is nothing to judge");
		return NULL;
	}
	return rr;
}

/* A J about the entry: the judges it asks (those not answering already),
 * each local one's probe begun. */
static struct judging_wait *wait_new(struct judging *jg, size_t entry, long which)
{
	struct judging_wait *w = xcalloc(1, sizeof *w);
	size_t nj = cfg_of(jg)->njudges;
	w->entry = entry;
	w->which = which;
	w->probes = xcalloc(nj, sizeof *w->probes);
	int timeout = reach_timeout_ms();
	for (size_t j = 0; j < nj; j++) {
		struct judging_probe *p = &w->probes[j];
		struct judge_cell *c = review_judge_cell(jg->rv, entry, j);
		p->asked = (which < 0 || (size_t)which == j) && c->state != JUDGE_PENDING;
		if (p->asked)
			p->reach = judge_reach_begin(provider_base(&cfg_of(jg)->judges[j]), timeout,
			                             p->where, sizeof p->where, &p->p);
	}
	return w;
}

/* Steps the probes in flight; how many still are. */
static size_t wait_probing(struct judging *jg, struct judging_wait *w)
{
	size_t n = 0;
	for (size_t j = 0; j < cfg_of(jg)->njudges; j++) {
		struct judging_probe *p = &w->probes[j];
		if (!p->p)
			continue;
		p->reach = judge_reach_step(p->p);
		if (p->reach == REACH_PENDING) {
			n++;
		} else {
			judge_reach_free(p->p);
			p->p = NULL;
		}
	}
	return n;
}

/* The requests of a J whose probes have answered and whose examples are
 * known: what asking did at once before it could wait. */
static void wait_finish(struct judging *jg, const struct judging_wait *w,
                        struct judging_note *note)
{
	struct review *rv = jg->rv;
	struct review_run *rr = review_run_at(rv, w->entry);
	if (!rr || !rr->run || rr->run->load_error) {
		note_set(note, true, "this record could not be read; there is nothing to judge");
		return;
	}
	size_t asked = 0;
	const struct judge_conf *bare = NULL;   /* a judge with examples but none to show */
	const struct judge_conf *down = NULL;   /* the first local judge nothing answers for */
	size_t ndown = 0;
	for (size_t j = 0; j < cfg_of(jg)->njudges; j++) {
		const struct judging_probe *p = &w->probes[j];
		struct judge_cell *c = review_judge_cell(rv, rr->entry, j);
		if (!p->asked || c->state == JUDGE_PENDING)
			continue;
		const struct judge_conf *jc = &cfg_of(jg)->judges[j];
		if (p->reach == REACH_NOTHING) {
			char why[sizeof p->where + 300];
			why_down(jc, p->where, why, sizeof why);
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
}

bool judging_ask(struct judging *jg, long which, struct judging_note *note)
{
	const struct review_run *rr = askable(jg, note);
	if (!rr)
		return false;
	judging_shots_update(jg);
	struct judging_wait *w = wait_new(jg, rr->entry, which);
	for (size_t j = 0; j < cfg_of(jg)->njudges; j++) {
		struct judging_probe *p = &w->probes[j];
		while (p->p && p->reach == REACH_PENDING) {
			struct pollfd pf = { .fd = judge_reach_fd(p->p), .events = POLLOUT };
			poll(&pf, 1, judge_reach_wait_ms(p->p));
			wait_probing(jg, w);
		}
	}
	wait_finish(jg, w, note);
	wait_free(w, cfg_of(jg)->njudges);
	return true;
}

/* What a J waiting, or the gathering ahead of one, says on the status line. */
static void note_waiting(const struct judging *jg, size_t probing, struct judging_note *note)
{
	if (fewshot_gather_running(&jg->gather))
		note_set(note, false, "gathering examples\u2026 %zu/%zu%s", jg->gather.loaded,
		         jg->gather.set->nids, jg->waits ? " (Esc cancels)" : "");
	else
		note_set(note, false, "probing %zu local judge%s\u2026 (Esc cancels)", probing,
		         probing == 1 ? "" : "s");
	note->progress = true;
}

/* Sends the requests of every J whose probes and examples are ready. True
 * when cells changed; note: the last one's, else what the first waiting
 * one waits for. */
static bool waits_advance(struct judging *jg, struct judging_note *note)
{
	bool changed = false, said = false;
	size_t probing_first = 0;
	struct judging_wait **pw = &jg->waits;
	while (*pw) {
		struct judging_wait *w = *pw;
		size_t probing = wait_probing(jg, w);
		if (probing || fewshot_gather_running(&jg->gather)) {
			probing_first = probing_first ? probing_first : probing;
			pw = &w->next;
			continue;
		}
		*pw = w->next;
		wait_finish(jg, w, note);
		wait_free(w, cfg_of(jg)->njudges);
		changed = said = true;
	}
	if (!said && jg->waits)
		note_waiting(jg, probing_first, note);
	return changed;
}

/* The gather's slice; once it is over, the run whose examples' verdicts
 * were left for it gets them. */
static bool gather_advance(struct judging *jg, double budget_ms)
{
	if (!fewshot_gather_running(&jg->gather) ||
	    !fewshot_gather_step(&jg->gather, jg->rv, budget_ms))
		return false;
	shots_finish(jg);
	size_t entry = jg->filled_early;
	if (entry == SIZE_MAX || !judge_runner_cache(jg->runner))
		return false;
	jg->filled = entry;
	jg->filled_early = SIZE_MAX;
	return fill_cells(jg, entry, true);
}

bool judging_request(struct judging *jg, long which, struct judging_note *note)
{
	const struct review_run *rr = askable(jg, note);
	if (!rr)
		return false;
	note_clear(note);
	for (struct judging_wait *w = jg->waits; w; w = w->next)
		if (w->entry == rr->entry && w->which == which) {
			note_waiting(jg, wait_probing(jg, w), note);
			return false;
		}
	shots_update(jg, true);
	struct judging_wait *w = wait_new(jg, rr->entry, which), **end = &jg->waits;
	while (*end)
		end = &(*end)->next;
	*end = w;
	bool changed = gather_advance(jg, jg->key_gather_ms);
	return waits_advance(jg, note) || changed;
}

bool judging_working(const struct judging *jg)
{
	return jg->waits || fewshot_gather_running(&jg->gather);
}

bool judging_work(struct judging *jg, double budget_ms, struct judging_note *note)
{
	note_clear(note);
	bool changed = gather_advance(jg, budget_ms);
	if (jg->waits) {
		if (waits_advance(jg, note))
			changed = true;
	} else if (fewshot_gather_running(&jg->gather)) {
		note_waiting(jg, 0, note);      /* gathering ahead of any J */
	}
	return changed;
}

size_t judging_cancel(struct judging *jg, struct judging_note *note)
{
	struct review *rv = jg->rv;
	note_clear(note);
	if (!judging_can_ask(jg) || review_view_count(rv) == 0)
		return 0;
	size_t entry = rv->view[review_cursor(rv)];
	size_t n = judge_client_cancel(judge_runner_client(jg->runner), (uint64_t)entry + 1);
	/* a J still waiting for its probes or examples asks nothing */
	struct judging_wait **pw = &jg->waits;
	while (*pw) {
		struct judging_wait *w = *pw;
		if (w->entry != entry) {
			pw = &w->next;
			continue;
		}
		*pw = w->next;
		for (size_t j = 0; j < cfg_of(jg)->njudges; j++)
			n += w->probes[j].asked;
		wait_free(w, cfg_of(jg)->njudges);
	}
	if (n)
		note_set(note, false, "cancelled %zu judge request%s", n, n == 1 ? "" : "s");
	jg->answered = 0;
	return n;
}

int judging_pollfds(struct judging *jg, struct pollfd *fds, int max, int *timeout_ms)
{
	*timeout_ms = -1;
	int n = 0;
	/* a probe's connect, until it answers or its time is up */
	for (const struct judging_wait *w = jg->waits; w; w = w->next)
		for (size_t j = 0; j < cfg_of(jg)->njudges; j++) {
			const struct judge_reach_probe *p = w->probes[j].p;
			if (!p || n >= max)
				continue;
			fds[n++] = (struct pollfd){ .fd = judge_reach_fd(p), .events = POLLOUT };
			int left = judge_reach_wait_ms(p);
			if (*timeout_ms < 0 || left < *timeout_ms)
				*timeout_ms = left;
		}
	/* gathering goes on at once, between keys */
	if (fewshot_gather_running(&jg->gather))
		*timeout_ms = 0;
	if (!judging_can_ask(jg) || jg->pending == 0)
		return n;
	int ct;
	n += judge_client_pollfds(judge_runner_client(jg->runner), fds + n, max - n, &ct);
	if (ct >= 0 && (*timeout_ms < 0 || ct < *timeout_ms))
		*timeout_ms = ct;
	return n;
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
