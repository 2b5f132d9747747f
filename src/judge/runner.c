/* runner.c - the one judging path: expectation, job, skip, cache key,
 * cached verdict, request, cache put.
 *
 * A sent job is wrapped in a `sent` record holding what the cache line
 * needs (the key and the run's id), so the run may leave memory while the
 * request is in flight (the screen's run cache evicts runs as the cursor
 * moves). */
#include "judge/runner.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/xalloc.h"
#include "util/error.h"

struct sent {
	struct judge_runner *r;
	const struct judge_conf *j;
	char key[17];
	char group[17];             /* judge_cache_key: the key without the examples */
	char *run_id;
	judge_done_fn done;
	void *ctx;
	struct sent *prev, *next;   /* r->sent: not answered yet */
};

struct judge_runner {
	struct judge_client *client;
	struct judge_cache *cache;
	char *cache_error;
	bool refresh;
	const struct expectations *expect;
	judge_examples_fn examples;
	void *examples_ctx;
	struct sent *sent;
};

static void open_cache(struct judge_runner *r, const char *first_input, bool only_existing)
{
	char *path = judge_cache_path(first_input);
	if (!path)
		return;
	struct stat st;
	if (only_existing && stat(path, &st) != 0) {
		free(path);
		return;
	}
	struct error err = {0};
	r->cache = judge_cache_open(path, &err);
	if (!r->cache)
		r->cache_error = xstrdup(err.msg);
	free(path);
}

/* The other input's cache, into ours (or as ours when we have none). */
static void read_also(struct judge_runner *r, const char *input)
{
	if (!r->cache) {
		open_cache(r, input, true);
		return;
	}
	char *path = judge_cache_path(input);
	struct error err = {0};
	if (path && judge_cache_read_also(r->cache, path, &err) < 0)
		r->cache_error = xstrdup(err.msg);
	free(path);
}

struct judge_runner *judge_runner_new(const struct judge_runner_opts *o, struct error *err)
{
	struct judge_client *client = NULL;
	if (!o->cache_only) {
		struct judge_client_opts co = {
			.concurrency = o->concurrency, .ca_file = o->ca_file,
			.timeout_s = o->timeout_s, .trace = o->trace,
		};
		client = judge_client_new(&co, err);
		if (!client)
			return NULL;
	}
	struct judge_runner *r = xcalloc(1, sizeof *r);
	r->client = client;
	r->refresh = o->refresh;
	r->expect = o->expect;
	r->examples = o->examples;
	r->examples_ctx = o->examples_ctx;
	open_cache(r, o->first_input, o->cache_only);
	if (o->cache_only && o->also_input && !r->cache_error)
		read_also(r, o->also_input);
	return r;
}

static void sent_unlink(struct judge_runner *r, struct sent *s)
{
	if (s->prev)
		s->prev->next = s->next;
	else
		r->sent = s->next;
	if (s->next)
		s->next->prev = s->prev;
	s->prev = s->next = NULL;
}

static void sent_free(struct sent *s)
{
	free(s->run_id);
	free(s);
}

void judge_runner_free(struct judge_runner *r)
{
	if (!r)
		return;
	judge_client_free(r->client);
	while (r->sent) {
		struct sent *s = r->sent;
		sent_unlink(r, s);
		sent_free(s);
	}
	judge_cache_close(r->cache);
	free(r->cache_error);
	free(r);
}

const char *judge_runner_cache_error(const struct judge_runner *r)
{
	return r->cache_error;
}

struct judge_cache *judge_runner_cache(const struct judge_runner *r)
{
	return r->cache;
}

struct judge_client *judge_runner_client(const struct judge_runner *r)
{
	return r->client;
}

void judge_runner_set_examples(struct judge_runner *r, judge_examples_fn fn, void *ctx)
{
	r->examples = fn;
	r->examples_ctx = ctx;
}

size_t judge_runner_candidates(const struct judge_runner *r, const struct judge_conf *j)
{
	const struct judge_example *list = NULL;
	return r->examples && j->examples.k ? r->examples(r->examples_ctx, j->id, &list) : 0;
}

struct verdict_ctx {
	const struct judge_runner *r;
	const struct judge_conf *j;
};

/* What the judge said of a candidate without examples: its verdicts with
 * examples change with the examples, and choosing by them would change
 * the examples of every run on the next pass, and so its cache key. */
static int zero_shot_verdict(void *ctx, const struct judge_example *c)
{
	const struct verdict_ctx *vc = ctx;
	char key[17];
	judge_cache_key_base(c->run, vc->j, key);
	const struct verdict *v = judge_cache_get(vc->r->cache, key);
	return v && v->status == VERDICT_OK ? v->passed : -1;
}

size_t judge_runner_examples(const struct judge_runner *r, const struct judge_conf *j,
                             const struct run *run, const struct judge_example **out)
{
	if (!j->examples.k || !r->examples)
		return 0;
	const struct judge_example *list = NULL;
	size_t n = r->examples(r->examples_ctx, j->id, &list);
	struct verdict_ctx vc = { r, j };
	return judge_examples_pick(j, run->id, list, n, r->cache ? zero_shot_verdict : NULL, &vc,
	                           out);
}

/* The ids of the examples shown (NULL for a judge without examples) and,
 * when text is not NULL, their text for {{examples}}. */
static json_t *examples_for(const struct judge_runner *r, const struct judge_conf *j,
                            const struct run *run, char **text)
{
	if (!j->examples.k)
		return NULL;
	const struct judge_example *ex[JUDGE_EXAMPLES_MAX];
	size_t n = judge_runner_examples(r, j, run, ex);
	if (text)
		*text = judge_examples_render(j, ex, n);
	return judge_examples_ids(ex, n);
}

enum judge_start judge_runner_prepare(struct judge_runner *r, const struct judge_conf *j,
                                      const struct run *run, struct judge_job **job, char key[17])
{
	json_t *expected = NULL;
	char why[256];
	/* The join reads the record on demand; a const run may fill its cache. */
	if (r->expect && !run->load_error)
		expected = expect_lookup(r->expect, (struct run *)run, why, sizeof why);
	char *text = NULL;
	json_t *ids = run->load_error ? NULL : examples_for(r, j, run, &text);
	*job = judge_job_new_with(j, run, expected, text, ids);
	judge_cache_key_examples(run, j, ids, key);
	free(text);
	json_decref(ids);
	const struct verdict *hit = !r->refresh && r->cache ? judge_cache_get(r->cache, key) : NULL;
	if (hit) {
		judge_job_set_verdict(*job, hit);
		return JUDGE_CACHED;
	}
	/* The rubric does not apply to this run: nothing to ask. */
	if (judge_job_done(*job))
		return JUDGE_SKIPPED;
	return JUDGE_TO_ASK;
}

/* The cache line names the run only by its id. */
static void put_verdict(struct judge_runner *r, const struct judge_conf *j, const char *key,
                        const char *group, const char *run_id, const struct judge_job *job)
{
	if (!r->cache)
		return;
	struct verdict v;
	judge_job_verdict(job, &v);
	if (v.status != VERDICT_ERROR) {
		struct run id_only = { .id = run_id };
		struct error err = {0};
		judge_cache_put_in(r->cache, key, group, &id_only, j, &v, &err);
	}
	verdict_clear(&v);
}

static void on_answered(void *ctx, struct judge_job *job, uint64_t tag)
{
	struct sent *s = ctx;
	sent_unlink(s->r, s);
	put_verdict(s->r, s->j, s->key, s->group, s->run_id, job);
	judge_done_fn done = s->done;
	void *dctx = s->ctx;
	sent_free(s);
	if (done)
		done(dctx, job, tag);
}

/* Sends a prepared job whose verdict goes to the cache under key, in group. */
static void submit_keyed(struct judge_runner *r, const struct judge_conf *j, const char *run_id,
                         struct judge_job *job, const char key[17], const char group[17],
                         uint64_t tag, judge_done_fn done, void *ctx)
{
	if (!r->client) {
		/* A cache-only runner: the job ends at once, as a failure. */
		judge_job_fail(job, "judges are not asked here (cached verdicts only)");
		if (done)
			done(ctx, job, tag);
		return;
	}
	struct sent *s = xcalloc(1, sizeof *s);
	s->r = r;
	s->j = j;
	memcpy(s->key, key, 17);
	memcpy(s->group, group, 17);
	s->run_id = run_id ? xstrdup(run_id) : NULL;
	s->done = done;
	s->ctx = ctx;
	s->next = r->sent;
	if (s->next)
		s->next->prev = s;
	r->sent = s;
	judge_client_submit(r->client, j, job, tag, on_answered, s);
}

void judge_runner_submit(struct judge_runner *r, const struct judge_conf *j, const struct run *run,
                         struct judge_job *job, const char key[17], uint64_t tag,
                         judge_done_fn done, void *ctx)
{
	char group[17];
	judge_cache_key(run, j, group);
	submit_keyed(r, j, run->id, job, key, group, tag, done, ctx);
}

enum judge_start judge_runner_prepare_pair(struct judge_runner *r, const struct judge_conf *j,
                                           const struct run *a, const struct run *b,
                                           struct judge_job **job, char key[17])
{
	*job = judge_job_new_pair(j, a, b);
	if (a->load_error || b->load_error)
		return JUDGE_SKIPPED;       /* the job holds the error */
	judge_cache_key_pair(a, b, j, key);
	const struct verdict *hit = !r->refresh && r->cache ? judge_cache_get(r->cache, key) : NULL;
	if (hit) {
		judge_job_set_verdict(*job, hit);
		return JUDGE_CACHED;
	}
	return judge_job_done(*job) ? JUDGE_SKIPPED : JUDGE_TO_ASK;
}

void judge_runner_submit_pair(struct judge_runner *r, const struct judge_conf *j,
                              const struct run *a, struct judge_job *job, const char key[17],
                              uint64_t tag, judge_done_fn done, void *ctx)
{
	/* The cache line names the base run; the details name both. */
	submit_keyed(r, j, a->id, job, key, key, tag, done, ctx);
}

enum preference judge_runner_pair_answer(const struct judge_runner *r, const struct judge_conf *j,
                                         const struct run *a, const struct run *b,
                                         const struct verdict **v)
{
	char key[17];
	const struct verdict *found = NULL;
	bool flipped = false;
	if (r->cache) {
		judge_cache_key_pair(a, b, j, key);
		found = judge_cache_get(r->cache, key);
		if (!found) {
			judge_cache_key_pair(b, a, j, key);
			found = judge_cache_get(r->cache, key);
			flipped = found != NULL;
		}
	}
	if (v)
		*v = found;
	enum preference p = judge_pair_answer(found);
	return flipped ? judge_pair_flip(p) : p;
}

enum judge_start judge_runner_start(struct judge_runner *r, const struct judge_conf *j,
                                    const struct run *run, uint64_t tag, judge_done_fn done,
                                    void *ctx, struct judge_job **job)
{
	char key[17];
	enum judge_start how = judge_runner_prepare(r, j, run, job, key);
	if (how != JUDGE_TO_ASK)
		return how;
	if (!r->client) {
		judge_job_fail(*job, "judges are not asked here (cached verdicts only)");
		return JUDGE_SKIPPED;
	}
	judge_runner_submit(r, j, run, *job, key, tag, done, ctx);
	return JUDGE_ASKED;
}

int judge_runner_keep(struct judge_runner *r, const struct judge_conf *j, const struct run *run,
                      const char key[17], const struct judge_job *job)
{
	if (!r->cache)
		return -1;
	char group[17];
	judge_cache_key(run, j, group);
	put_verdict(r, j, key, group, run->id, job);
	return 0;
}

const struct verdict *judge_runner_cached(const struct judge_runner *r, const struct judge_conf *j,
                                          const struct run *run)
{
	if (!r->cache)
		return NULL;
	char key[17], group[17];
	json_t *ids = examples_for(r, j, run, NULL);
	judge_cache_key_examples(run, j, ids, key);
	json_decref(ids);
	const struct verdict *v = judge_cache_get(r->cache, key);
	if (v || !j->examples.k)
		return v;
	judge_cache_key(run, j, group);
	return judge_cache_get_latest(r->cache, group);
}
