/* judge_pairs.c - `tcreview judge --pairs`: pairwise judges on pairs of runs.
 *
 * The pairs are the reviewers' standing preferences whose two runs are
 * among the inputs (so each labelled pair gets an answer to compare with
 * in `stats`), and with --compare BASE CAND and a task key, per task,
 * base's and the candidate's trials paired in input order (trial i with
 * trial i). Every run is read first (a pair may join any two), then each
 * pair and judge goes through the runner: its cached answer, or a request
 * through the same client, retries and trust checks as `tcreview judge`.
 * The lines come out in pair order once every answer is in. The Batch
 * API's files are not offered here: a pair is one or two small requests. */
#include "cli/judge_pairs.h"

#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "annot/store.h"
#include "judge/judge.h"
#include "judge/runner.h"
#include "review/session.h"
#include "runs/dataset.h"
#include "util/hash.h"
#include "util/htab.h"
#include "util/jsonw.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/error.h"

#define PROG "tcreview judge"

/* The runs of the inputs; side 1 is the candidate's under --compare. */
struct pair_runs {
	struct dataset ds[2];
	size_t nds;
	struct run **runs;
	unsigned char *side;
	size_t n, cap;
	struct htab ids;            /* the first run of each id, made at the first lookup */
	bool ids_made;
};

struct one_pair {
	struct run *a, *b;
	char *task;
};

struct pair_job {
	const struct one_pair *p;
	const struct judge_conf *j;
	struct judge_job *job;
	char key[17];
	bool cached, done;
};

static void runs_add(struct pair_runs *pr, struct run *r, unsigned char side)
{
	if (pr->n == pr->cap) {
		pr->cap = pr->cap ? pr->cap * 2 : 64;
		pr->runs = xrealloc(pr->runs, pr->cap * sizeof *pr->runs);
		pr->side = xrealloc(pr->side, pr->cap);
	}
	pr->runs[pr->n] = r;
	pr->side[pr->n++] = side;
}

static int runs_read(struct pair_runs *pr, const struct judge_pairs_opts *o, char **files,
                     size_t nfiles, unsigned char side)
{
	struct dataset *ds = &pr->ds[pr->nds];
	struct error err = {0};
	if (cli_dataset_open(o->ctx, ds, files, nfiles, &err) < 0) {
		fprintf(stderr, PROG ": %s\n", err.msg);
		return EXIT_INPUT;
	}
	pr->nds++;
	ds->forced = o->forced;
	dataset_index_all(ds);
	for (size_t i = 0; i < ds->nrecs; i++) {
		struct run *r = dataset_load_run(ds, &ds->recs[i], o->forced, o->cfg->run_id_path, &err);
		if (!r || r->load_error) {
			fprintf(stderr, PROG ": %s (left out of the pairs)\n",
			        r ? r->load_error : err.msg);
			run_free(r);
			continue;
		}
		runs_add(pr, r, side);
	}
	return EXIT_DONE;
}

static void runs_free(struct pair_runs *pr)
{
	for (size_t i = 0; i < pr->n; i++)
		run_free(pr->runs[i]);
	free(pr->runs);
	free(pr->side);
	for (size_t i = 0; i < pr->nds; i++)
		dataset_close(&pr->ds[i]);
	htab_free(&pr->ids);
}

static uint64_t text_hash(const char *s)
{
	return hash_fnv1a(s, strlen(s), HASH_FNV_SEED);
}

static bool run_is(const void *item, const void *key)
{
	return strcmp(((const struct run *)item)->id, key) == 0;
}

/* The first run read of an id, through a table made once. */
static struct run *run_named(struct pair_runs *pr, const char *id)
{
	if (!pr->ids_made) {
		for (size_t i = 0; i < pr->n; i++) {
			if (!pr->runs[i]->id)
				continue;
			void **slot = htab_put(&pr->ids, text_hash(pr->runs[i]->id), run_is, pr->runs[i]->id);
			if (!*slot)
				*slot = pr->runs[i];
		}
		pr->ids_made = true;
	}
	return id ? htab_get(&pr->ids, text_hash(id), run_is, id) : NULL;
}

/* ---- the pairs ------------------------------------------------------------------ */

struct pair_list {
	struct one_pair *p;
	size_t n, cap;
	struct pair_runs *pr;
};

static void pair_add(struct pair_list *pl, struct run *a, struct run *b, const char *task)
{
	for (size_t i = 0; i < pl->n; i++)
		if (pl->p[i].a == a && pl->p[i].b == b)
			return;
	if (pl->n == pl->cap) {
		pl->cap = pl->cap ? pl->cap * 2 : 32;
		pl->p = xrealloc(pl->p, pl->cap * sizeof *pl->p);
	}
	pl->p[pl->n++] = (struct one_pair){ a, b, task ? xstrdup(task) : NULL };
}

static void take_preference(void *ctx, const struct decision *d)
{
	struct pair_list *pl = ctx;
	if (d->kind != DEC_PREFER)
		return;
	struct run *a = run_named(pl->pr, d->run), *b = run_named(pl->pr, d->other);
	if (a && b)
		pair_add(pl, a, b, d->task);
}

/* The -a files, else FIRST_INPUT.annotations.jsonl when it is there. */
static int preferences(struct pair_list *pl, const struct judge_pairs_opts *o, const char *first)
{
	const char **paths = xcalloc(o->nannot + 1, sizeof *paths);
	size_t n = 0;
	char *dflt = NULL;
	struct stat st;
	int rc = EXIT_DONE;
	for (size_t i = 0; i < o->nannot && rc == EXIT_DONE; i++) {
		if (stat(o->annot[i], &st) < 0) {
			fprintf(stderr, PROG ": %s: no such annotations file\n", o->annot[i]);
			rc = EXIT_INPUT;
		}
		paths[n++] = o->annot[i];
	}
	if (rc == EXIT_DONE && n == 0 && strcmp(first, "-") != 0) {
		dflt = review_annot_default(first);
		if (stat(dflt, &st) == 0)
			paths[n++] = dflt;
	}
	struct error err = {0};
	struct annot_store *s = NULL;
	if (rc == EXIT_DONE && n && !(s = annot_open_readonly(paths, n, &err))) {
		fprintf(stderr, PROG ": %s\n", err.msg);
		rc = EXIT_INPUT;
	}
	if (s) {
		annot_each_standing(s, take_preference, pl);
		annot_close(s);
	}
	free(dflt);
	free(paths);
	return rc;
}

/* One task's runs on the candidate side, in input order, and how many of
 * the base's trials of it were paired so far. */
struct task_runs {
	const char *task;
	size_t *cand;
	size_t ncand, cap, based;
};

static bool task_is(const void *item, const void *key)
{
	return strcmp(((const struct task_runs *)item)->task, key) == 0;
}

/* --compare: per task, the i-th base trial with the i-th candidate's, in
 * one pass over each side (the tasks in a table). */
static void trials_paired(struct pair_list *pl, const struct pair_runs *pr, const char *spec)
{
	const char **task = xcalloc(pr->n + 1, sizeof *task);
	struct task_runs *tr = xcalloc(pr->n + 1, sizeof *tr);
	size_t ntr = 0;
	struct htab by_task = HTAB_INIT;
	for (size_t i = 0; i < pr->n; i++) {
		task[i] = run_spec_text(pr->runs[i], spec);
		if (pr->side[i] != 1 || !task[i])
			continue;
		void **slot = htab_put(&by_task, text_hash(task[i]), task_is, task[i]);
		if (!*slot) {
			tr[ntr].task = task[i];
			*slot = &tr[ntr++];
		}
		struct task_runs *t = *slot;
		if (t->ncand == t->cap) {
			t->cap = t->cap ? 2 * t->cap : 4;
			t->cand = xrealloc(t->cand, t->cap * sizeof *t->cand);
		}
		t->cand[t->ncand++] = i;
	}
	for (size_t i = 0; i < pr->n; i++) {
		if (pr->side[i] != 0 || !task[i])
			continue;
		struct task_runs *t = htab_get(&by_task, text_hash(task[i]), task_is, task[i]);
		if (t && t->based < t->ncand)
			pair_add(pl, pr->runs[i], pr->runs[t->cand[t->based]], task[i]);
		if (t)
			t->based++;
	}
	for (size_t k = 0; k < ntr; k++)
		free(tr[k].cand);
	free(tr);
	htab_free(&by_task);
	free(task);
}

/* ---- judging --------------------------------------------------------------------- */

static void on_pair_done(void *ctx, struct judge_job *job, uint64_t tag)
{
	struct pair_job *pj = (struct pair_job *)(uintptr_t)tag;
	(void)ctx;
	(void)job;
	pj->done = true;
}

static void pump(struct judge_client *c)
{
	struct pollfd fds[256];
	int timeout = 50;
	int n = judge_client_pollfds(c, fds, 256, &timeout);
	if (timeout < 0 || timeout > 50)
		timeout = 50;
	poll(fds, (nfds_t)n, timeout);
	judge_client_run(c);
}

static void write_pair_line(const struct pair_job *pj, size_t *errors)
{
	struct verdict v;
	judge_job_verdict(pj->job, &v);
	enum preference better = judge_pair_answer(&v);
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, "{");
	jsonw_member_str(&sb, "run", pj->p->a->id);
	jsonw_member_str(&sb, "other", pj->p->b->id);
	jsonw_member_str(&sb, "task", pj->p->task);
	jsonw_member_str(&sb, "judge", pj->j->id);
	jsonw_member_str(&sb, "type", pj->j->rubric->name);
	jsonw_member_str(&sb, "status", verdict_status_name(v.status));
	jsonw_member_str(&sb, "better", better ? annot_preference_name(better) : NULL);
	jsonw_member_str(&sb, "reason", v.status == VERDICT_OK ? judge_reason(pj->j, &v) : NULL);
	strbuf_addf(&sb, ",\"orders_disagree\":%s,\"cached\":%s",
	            json_is_true(json_object_get(v.details, "orders_disagree")) ? "true" : "false",
	            pj->cached ? "true" : "false");
	jsonw_member_str(&sb, "error", v.status != VERDICT_OK ? v.message : NULL);
	strbuf_addstr(&sb, "}\n");
	/* jsonw_member_str writes a comma before each member but the first. */
	if (sb.buf[1] == ',')
		memmove(sb.buf + 1, sb.buf + 2, sb.len - 1);
	fputs(sb.buf, stdout);
	if (v.status != VERDICT_OK) {
		fprintf(stderr, PROG ": %s on %s against %s: %s\n", pj->j->id, pj->p->a->id,
		        pj->p->b->id, v.message ? v.message : "no answer");
		const char *raw = json_string_value(json_object_get(v.details, "raw_reply"));
		if (raw)
			fprintf(stderr, PROG ": the reply was: %.300s\n", raw);
		++*errors;
	}
	strbuf_release(&sb);
	verdict_clear(&v);
}

static int judge_all(const struct judge_pairs_opts *o, const struct judge_conf *const *use,
                     size_t nuse, const struct pair_list *pl, const char *first)
{
	struct judge_runner_opts ro = {
		.concurrency = (int)o->concurrency, .ca_file = o->ca_file, .refresh = o->refresh,
		.first_input = first,
	};
	struct error err = {0};
	struct judge_runner *r = judge_runner_new(&ro, &err);
	if (!r) {
		fprintf(stderr, PROG ": %s\n", err.msg);
		return EXIT_USAGE;
	}
	if (judge_runner_cache_error(r))
		fprintf(stderr, PROG ": %s (answers will not be cached)\n", judge_runner_cache_error(r));
	size_t n = pl->n * nuse, asked = 0, cached = 0, errors = 0;
	struct pair_job *jobs = xcalloc(n ? n : 1, sizeof *jobs);
	for (size_t i = 0; i < n; i++) {
		struct pair_job *pj = &jobs[i];
		pj->p = &pl->p[i / nuse];
		pj->j = use[i % nuse];
		enum judge_start how = judge_runner_prepare_pair(r, pj->j, pj->p->a, pj->p->b, &pj->job,
		                                                 pj->key);
		pj->cached = how == JUDGE_CACHED;
		cached += pj->cached;
		if (how == JUDGE_TO_ASK) {
			judge_runner_submit_pair(r, pj->j, pj->p->a, pj->job, pj->key,
			                         (uint64_t)(uintptr_t)pj, on_pair_done, NULL);
			asked++;
		} else {
			pj->done = true;
		}
	}
	struct judge_client *c = judge_runner_client(r);
	for (size_t i = 0; i < n; i++)
		while (!jobs[i].done)
			pump(c);
	for (size_t i = 0; i < n; i++) {
		write_pair_line(&jobs[i], &errors);
		judge_job_free(jobs[i].job);
	}
	fflush(stdout);
	fprintf(stderr, PROG ": %zu pair%s, %zu judgement%s: %zu asked, %zu cached, %zu error%s\n",
	        pl->n, pl->n == 1 ? "" : "s", n, n == 1 ? "" : "s", asked, cached, errors,
	        errors == 1 ? "" : "s");
	free(jobs);
	judge_runner_free(r);
	return EXIT_DONE;
}

/* The pairwise judges --judge names (all without it). */
static size_t pick(const struct judge_pairs_opts *o, const struct judge_conf **use, int *rc)
{
	const struct config *c = o->cfg;
	size_t n = 0;
	*rc = EXIT_DONE;
	for (size_t i = 0; i < c->npair_judges; i++) {
		bool want = o->nonly == 0;
		for (size_t k = 0; k < o->nonly; k++)
			want |= !strcmp(o->only[k], c->pair_judges[i].id);
		if (want)
			use[n++] = &c->pair_judges[i];
	}
	for (size_t k = 0; k < o->nonly; k++) {
		bool found = false;
		for (size_t i = 0; i < c->npair_judges; i++)
			found |= !strcmp(o->only[k], c->pair_judges[i].id);
		if (!found) {
			fprintf(stderr, PROG ": no pairwise judge '%s' in the configuration\n", o->only[k]);
			*rc = EXIT_USAGE;
		}
	}
	if (n == 0 && *rc == EXIT_DONE) {
		fprintf(stderr, PROG ": --pairs needs a pairwise judge (a judge with rubric: pairwise)\n");
		*rc = EXIT_USAGE;
	}
	return n;
}

int judge_pairs_run(const struct judge_pairs_opts *o, char **files, size_t nfiles)
{
	const char *spec = cli_task_spec(o->task, o->cfg);
	if (o->compare && nfiles != 2) {
		fprintf(stderr, PROG ": --compare takes two inputs, BASE and CAND\n");
		return EXIT_USAGE;
	}
	if (o->compare && !spec) {
		fprintf(stderr, PROG ": --compare pairs runs by task: give --task PATH or "
		        "compare: {task: PATH} in the configuration\n");
		return EXIT_USAGE;
	}
	int rc;
	const struct judge_conf **use = xcalloc(o->cfg->npair_judges + 1, sizeof *use);
	size_t nuse = pick(o, use, &rc);
	struct pair_runs pr = { 0 };
	struct pair_list pl = { .pr = &pr };
	if (rc == EXIT_DONE)
		rc = o->compare ? runs_read(&pr, o, files, 1, 0) : runs_read(&pr, o, files, nfiles, 0);
	if (rc == EXIT_DONE && o->compare)
		rc = runs_read(&pr, o, files + 1, 1, 1);
	if (rc == EXIT_DONE)
		rc = preferences(&pl, o, files[0]);
	if (rc == EXIT_DONE && o->compare)
		trials_paired(&pl, &pr, spec);
	if (rc == EXIT_DONE && pl.n == 0)
		fprintf(stderr, PROG ": no pairs to judge: no standing preference names two runs of "
		        "the inputs%s\n", o->compare ? ", and no task has trials on both sides"
		                                    : " (--compare BASE CAND pairs trials by task)");
	if (rc == EXIT_DONE && pl.n)
		rc = judge_all(o, use, nuse, &pl, files[0]);
	for (size_t i = 0; i < pl.n; i++)
		free(pl.p[i].task);
	free(pl.p);
	runs_free(&pr);
	free(use);
	return rc;
}
