/* judges.c - LLM judges from the screen: asked with J, answered while the
 * reviewer keeps working.
 *
 * Requests go through the judge client, whose sockets the event loop polls
 * beside the terminal; nothing here blocks. Verdicts land in the session's
 * judge cells (shown as list cells and verdict rows) and in the cache
 * beside the first input, so reopening shows them without asking again. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runs/expect.h"
#include "util/clock.h"
#include "judge/judge.h"
#include "judge/cache.h"
#include "judge/client.h"
#include "tui_int.h"

struct judge_asked {
	struct tui *t;
	size_t entry, judge;
	struct judge_job *job;
	char key[17];
	struct judge_asked *prev, *next;    /* t->jasked: the jobs not answered yet */
};

static void asked_unlink(struct tui *t, struct judge_asked *a)
{
	if (a->prev)
		a->prev->next = a->next;
	else
		t->jasked = a->next;
	if (a->next)
		a->next->prev = a->prev;
	a->prev = a->next = NULL;
}

int tui_judges_open(struct tui *t, char *err, size_t errlen)
{
	if (t->cfg->njudges == 0)
		return 0;
	struct judge_client_opts o = { .concurrency = 8, .ca_file = t->ca_file };
	t->jfilled = SIZE_MAX;
	t->jclient = judge_client_new(&o, err, errlen);
	if (!t->jclient)
		return -1;
	struct review *rv = t->rv;
	if (rv->ds.nfiles && strcmp(rv->ds.files[0].path, "-") != 0) {
		char path[4096];
		snprintf(path, sizeof path, "%s.judgements.jsonl", rv->ds.files[0].path);
		char cerr[512];
		t->jcache = judge_cache_open(path, cerr, sizeof cerr);
		if (!t->jcache)
			tui_message(t, true, "judge verdicts will not be kept: %s", cerr);
	}
	return 0;
}

void tui_judges_close(struct tui *t)
{
	/* The client drops unanswered jobs without calling back: they are ours. */
	judge_client_free(t->jclient);
	t->jclient = NULL;
	while (t->jasked) {
		struct judge_asked *a = t->jasked;
		asked_unlink(t, a);
		judge_job_free(a->job);
		free(a);
	}
	t->jpending = 0;
	judge_cache_close(t->jcache);
	t->jcache = NULL;
}

/* Verdicts judged earlier show up as soon as the run is looked at. */
void tui_judges_fill(struct tui *t, size_t entry)
{
	/* once per run shown: a cache miss stays a miss until J */
	if (!t->jcache || entry == SIZE_MAX || entry == t->jfilled)
		return;
	t->jfilled = entry;
	struct review *rv = t->rv;
	struct review_run *rr = review_run_at(rv, entry);
	if (!rr || !rr->run)
		return;
	for (size_t j = 0; j < t->cfg->njudges; j++) {
		struct judge_cell *c = review_judge_cell(rv, entry, j);
		if (!c || c->state != JUDGE_NONE)
			continue;
		char key[17];
		judge_cache_key(rr->run, &t->cfg->judges[j], key);
		const struct verdict *v = judge_cache_get(t->jcache, key);
		if (v) {
			review_judge_done(rv, entry, j, v);
			t->dirty |= REDRAW_ALL;
		}
	}
}

static void on_done(void *ctx, struct judge_job *job, uint64_t tag)
{
	struct judge_asked *a = ctx;
	struct tui *t = a->t;
	asked_unlink(t, a);
	(void)tag;
	struct verdict v;
	judge_job_verdict(job, &v);
	review_judge_done(t->rv, a->entry, a->judge, &v);
	char err[256];
	if (t->jcache && v.status != VERDICT_ERROR) {
		struct review_run *rr = review_run_at(t->rv, a->entry);
		if (rr && rr->run)
			judge_cache_put(t->jcache, a->key, rr->run, &t->cfg->judges[a->judge], &v, err, sizeof err);
	}
	if (v.status == VERDICT_ERROR)
		tui_message(t, true, "%s: %s", t->cfg->judges[a->judge].id, v.message ? v.message : "failed");
	else if (v.status == VERDICT_OK)
		tui_message(t, false, "%s answered: %g (%s)", t->cfg->judges[a->judge].id, v.score,
		            v.passed ? "pass" : "fail");
	else
		tui_message(t, false, "%s: skipped: %s", t->cfg->judges[a->judge].id, v.message ? v.message : "");
	verdict_clear(&v);
	judge_job_free(job);
	free(a);
	t->jpending--;
	t->dirty |= REDRAW_ALL | RELAYOUT;
}

/* Asks judge `which` (or every judge when which < 0) about the run under
 * the cursor. Judges already answering are left alone; J again after an
 * answer or a failure asks again. */
unsigned tui_judges_ask(struct tui *t, long which)
{
	struct review *rv = t->rv;
	if (t->cfg->njudges == 0) {
		tui_message(t, true, "no judge is configured (add judges: to the YAML)");
		return REDRAW_STATUS;
	}
	struct review_run *rr = review_current(rv);
	if (!rr || !rr->run || rr->run->load_error) {
		tui_message(t, true, "this record could not be read; there is nothing to judge");
		return REDRAW_STATUS;
	}
	json_t *expected = NULL;
	char why[256];
	if (rv->ev.expect)
		expected = expect_lookup(rv->ev.expect, rr->run->record, why, sizeof why);
	size_t asked = 0;
	for (size_t j = 0; j < t->cfg->njudges; j++) {
		if (which >= 0 && (size_t)which != j)
			continue;
		struct judge_cell *c = review_judge_cell(rv, rr->entry, j);
		if (c->state == JUDGE_PENDING)
			continue;
		const struct judge_conf *jc = &t->cfg->judges[j];
		struct judge_job *job = judge_job_new(jc, rr->run, expected);
		if (judge_job_done(job)) {           /* not applicable: skipped at once */
			struct verdict v;
			judge_job_verdict(job, &v);
			review_judge_done(rv, rr->entry, j, &v);
			verdict_clear(&v);
			judge_job_free(job);
			continue;
		}
		struct judge_asked *a = calloc(1, sizeof(*a));
		if (!a)
			abort();
		a->t = t;
		a->entry = rr->entry;
		a->judge = j;
		a->job = job;
		judge_cache_key(rr->run, jc, a->key);
		a->next = t->jasked;
		if (a->next)
			a->next->prev = a;
		t->jasked = a;
		review_judge_pending(rv, rr->entry, j, now_ms());
		t->jpending++;
		asked++;
		judge_client_submit(t->jclient, jc, job, (uint64_t)rr->entry + 1, on_done, a);
	}
	tui_message(t, false, asked ? "asking %zu judge%s (Esc cancels)" : "nothing to ask", asked,
	            asked == 1 ? "" : "s");
	return REDRAW_ALL | RELAYOUT;
}

unsigned tui_judges_cancel(struct tui *t)
{
	struct review *rv = t->rv;
	if (!t->jclient || review_view_count(rv) == 0)
		return 0;
	size_t entry = rv->view[review_cursor(rv)];
	size_t n = judge_client_cancel(t->jclient, (uint64_t)entry + 1);
	if (n)
		tui_message(t, false, "cancelled %zu judge request%s", n, n == 1 ? "" : "s");
	return n ? REDRAW_ALL : 0;
}

int tui_judges_pollfds(struct tui *t, struct pollfd *fds, int max, int *timeout_ms)
{
	*timeout_ms = -1;
	if (!t->jclient || t->jpending == 0)
		return 0;
	int n = judge_client_pollfds(t->jclient, fds, max, timeout_ms);
	/* the spinner and the seconds tick while anything is pending */
	if (*timeout_ms < 0 || *timeout_ms > 100)
		*timeout_ms = 100;
	return n;
}

void tui_judges_run(struct tui *t)
{
	if (!t->jclient || t->jpending == 0)
		return;
	judge_client_run(t->jclient);
	t->dirty |= REDRAW_LIST | REDRAW_VERDICTS;
}
