/* test_judge_runner.c - the one judging path (judge/runner) against the
 * local fake server (tests/fake_llm): a miss is asked and put in the
 * cache, a hit is not asked, a skipped run asks nothing, --refresh asks
 * again, errors are not cached, the run may go before its answer comes,
 * and standard input has no cache. Talks only to 127.0.0.1. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include <jansson.h>

#include "config/config.h"
#include "judge/runner.h"
#include "runs/format.h"
#include "runs/run.h"
#include "judge_fixture.h"
#include "test_files.h"

static const char *argv0;
static struct judge_fixture fx;

/* en-pass answers 4; ja-fail gets a refusal that is not retried. */
static const char script[] =
	"{\"rules\": ["
	" {\"match\": {\"body_contains\": \"call_ja-fail\"}, \"status\": 400,"
	"  \"body\": {\"error\": {\"message\": \"bad request\"}}}"
	"], \"default\": {\"content\": {\"score\": 4, \"reason\": \"fine\", \"status\": \"completed\"}}}";

/* The run on a line of the copied runs. */
static struct run *run_at(int line)
{
	FILE *f = fopen(fx.runs_path, "r");
	assert_non_null(f);
	char *text = NULL;
	size_t cap = 0;
	for (int i = 0; i < line; i++)
		assert_true(getline(&text, &cap, f) > 0);
	fclose(f);
	json_error_t je;
	json_t *rec = json_loads(text, 0, &je);
	free(text);
	assert_non_null(rec);
	struct run *r = run_new(rec, fx.runs_path, (size_t)line, -1);
	json_decref(rec);
	char err[256];
	assert_int_equal(format_load(r, format_find("openai-chat"), err, sizeof err), 0);
	/* as the dataset names runs by their "id" */
	r->id = json_string_value(json_object_get(r->record, "id"));
	return r;
}

static char *cache_text(void)
{
	char path[256];
	snprintf(path, sizeof path, "%s.judgements.jsonl", fx.runs_path);
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = calloc(1, 1 << 16);
	assert_non_null(buf);
	size_t n = fread(buf, 1, (1 << 16) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static size_t cache_lines(void)
{
	char *t = cache_text();
	size_t n = 0;
	for (char *p = t; p && *p; p++)
		n += *p == '\n';
	free(t);
	return n;
}

static void remove_cache(void)
{
	char path[256];
	snprintf(path, sizeof path, "%s.judgements.jsonl", fx.runs_path);
	unlink(path);
}

static int group_setup(void **state)
{
	(void)state;
	return judge_fixture_setup(&fx, argv0, "runner", "sk-tcr-runner-test-0001", script);
}

static int group_teardown(void **state)
{
	(void)state;
	return judge_fixture_teardown(&fx);
}

struct answered {
	int n;
	struct judge_job *job;
	uint64_t tag;
	size_t cache_lines_then;    /* the cache when done was called */
};

static void on_done(void *ctx, struct judge_job *job, uint64_t tag)
{
	struct answered *a = ctx;
	a->n++;
	a->job = job;
	a->tag = tag;
	a->cache_lines_then = cache_lines();
}

/* Runs the client as an event loop would, 10 s at most. */
static void drive(struct judge_runner *r, struct answered *a, int want)
{
	struct judge_client *c = judge_runner_client(r);
	for (int i = 0; i < 1000 && a->n < want; i++) {
		struct pollfd fds[16];
		int timeout;
		int n = judge_client_pollfds(c, fds, 16, &timeout);
		if (timeout < 0 || timeout > 10)
			timeout = 10;
		poll(fds, (nfds_t)n, timeout);
		judge_client_run(c);
	}
	assert_int_equal(a->n, want);
}

static struct judge_runner *runner(bool refresh, const char *first)
{
	struct judge_runner_opts o = { .refresh = refresh, .first_input = first };
	char err[256];
	struct judge_runner *r = judge_runner_new(&o, err, sizeof err);
	assert_non_null(r);
	assert_null(judge_runner_cache_error(r));
	return r;
}

static void assert_score(const struct judge_job *job, double score)
{
	struct verdict v;
	judge_job_verdict(job, &v);
	assert_int_equal(v.status, VERDICT_OK);
	assert_true(v.score == score);
	verdict_clear(&v);
}

static void test_cache_path(void **st)
{
	(void)st;
	assert_null(judge_cache_path("-"));
	assert_null(judge_cache_path(NULL));
	char *p = judge_cache_path("runs/a.jsonl");
	assert_string_equal(p, "runs/a.jsonl.judgements.jsonl");
	free(p);
}

/* A miss is asked, its verdict goes to the cache before done is called;
 * the next runner finds it and asks nothing. */
static void test_miss_then_hit(void **st)
{
	(void)st;
	remove_cache();
	size_t asked0 = fake_server_requests(&fx.srv);
	struct run *run = run_at(1);
	const struct judge_conf *j = &fx.cfg.judges[0];

	struct judge_runner *r = runner(false, fx.runs_path);
	assert_null(judge_runner_cached(r, j, run));
	struct answered a = { 0 };
	struct judge_job *job;
	assert_int_equal(judge_runner_start(r, j, run, 7, on_done, &a, &job), JUDGE_ASKED);
	drive(r, &a, 1);
	assert_ptr_equal(a.job, job);
	assert_int_equal(a.tag, 7);
	assert_int_equal(a.cache_lines_then, 1);
	assert_score(job, 4);
	assert_int_equal(fake_server_requests(&fx.srv), asked0 + 1);
	assert_non_null(judge_runner_cached(r, j, run));
	judge_job_free(job);
	judge_runner_free(r);
	char *text = cache_text();
	assert_non_null(strstr(text, "\"run\":\"en-pass\""));
	assert_null(strstr(text, "sk-tcr-runner-test-0001"));
	free(text);

	r = runner(false, fx.runs_path);
	char key[17];
	assert_int_equal(judge_runner_prepare(r, j, run, &job, key), JUDGE_CACHED);
	assert_true(judge_job_done(job));
	assert_score(job, 4);
	judge_job_free(job);
	assert_int_equal(judge_runner_start(r, j, run, 1, on_done, &a, &job), JUDGE_CACHED);
	judge_job_free(job);
	assert_int_equal(a.n, 1);                   /* no callback for a hit */
	assert_int_equal(fake_server_requests(&fx.srv), asked0 + 1);
	judge_runner_free(r);
	run_free(run);
}

/* refresh asks again although the verdict is cached, and appends. */
static void test_refresh(void **st)
{
	(void)st;
	remove_cache();
	struct run *run = run_at(1);
	const struct judge_conf *j = &fx.cfg.judges[0];
	struct judge_runner *r = runner(false, fx.runs_path);
	struct answered a = { 0 };
	struct judge_job *job;
	assert_int_equal(judge_runner_start(r, j, run, 1, on_done, &a, &job), JUDGE_ASKED);
	drive(r, &a, 1);
	judge_job_free(job);
	judge_runner_free(r);

	size_t asked0 = fake_server_requests(&fx.srv);
	r = runner(true, fx.runs_path);
	assert_non_null(judge_runner_cached(r, j, run));   /* shown, but not used */
	a.n = 0;
	assert_int_equal(judge_runner_start(r, j, run, 1, on_done, &a, &job), JUDGE_ASKED);
	drive(r, &a, 1);
	assert_int_equal(fake_server_requests(&fx.srv), asked0 + 1);
	assert_int_equal(cache_lines(), 2);
	judge_job_free(job);
	judge_runner_free(r);
	run_free(run);
}

/* A run the rubric does not apply to asks nothing and caches nothing. */
static void test_skip(void **st)
{
	(void)st;
	remove_cache();
	size_t asked0 = fake_server_requests(&fx.srv);
	struct run *run = run_at(5);                /* no-task: no calls */
	struct judge_runner *r = runner(false, fx.runs_path);
	struct answered a = { 0 };
	struct judge_job *job;
	assert_int_equal(judge_runner_start(r, &fx.cfg.judges[0], run, 1, on_done, &a, &job),
	                 JUDGE_SKIPPED);
	struct verdict v;
	judge_job_verdict(job, &v);
	assert_int_equal(v.status, VERDICT_SKIPPED);
	verdict_clear(&v);
	judge_job_free(job);
	assert_int_equal(a.n, 0);
	assert_int_equal(fake_server_requests(&fx.srv), asked0);
	assert_int_equal(cache_lines(), 0);
	judge_runner_free(r);
	run_free(run);
}

/* An error verdict is not kept: the next look asks again. */
static void test_error_not_cached(void **st)
{
	(void)st;
	remove_cache();
	struct run *run = run_at(2);                /* ja-fail: the server refuses */
	struct judge_runner *r = runner(false, fx.runs_path);
	struct answered a = { 0 };
	struct judge_job *job;
	assert_int_equal(judge_runner_start(r, &fx.cfg.judges[0], run, 1, on_done, &a, &job),
	                 JUDGE_ASKED);
	drive(r, &a, 1);
	struct verdict v;
	judge_job_verdict(job, &v);
	assert_int_equal(v.status, VERDICT_ERROR);
	assert_non_null(strstr(v.message, "bad request"));
	verdict_clear(&v);
	assert_int_equal(cache_lines(), 0);
	judge_job_free(job);
	judge_runner_free(r);
	run_free(run);
}

/* The run may leave memory while its request is in flight (the screen's
 * run cache evicts): the verdict is still kept, under the run's id. */
static void test_run_freed_before_answer(void **st)
{
	(void)st;
	remove_cache();
	struct run *run = run_at(1);
	struct judge_runner *r = runner(false, fx.runs_path);
	struct answered a = { 0 };
	struct judge_job *job;
	char key[17];
	assert_int_equal(judge_runner_prepare(r, &fx.cfg.judges[0], run, &job, key), JUDGE_TO_ASK);
	judge_runner_submit(r, &fx.cfg.judges[0], run, job, key, 3, on_done, &a);
	run_free(run);
	drive(r, &a, 1);
	assert_int_equal(cache_lines(), 1);
	char *text = cache_text();
	assert_non_null(strstr(text, "\"run\":\"en-pass\""));
	free(text);
	judge_job_free(job);
	judge_runner_free(r);
}

/* Standard input has nowhere to keep a cache: asked every time. */
static void test_no_cache_for_stdin(void **st)
{
	(void)st;
	remove_cache();
	struct run *run = run_at(1);
	struct judge_runner *r = runner(false, "-");
	assert_null(judge_runner_cache(r));
	struct answered a = { 0 };
	struct judge_job *job;
	for (int i = 0; i < 2; i++) {
		assert_int_equal(judge_runner_start(r, &fx.cfg.judges[0], run, 1, on_done, &a, &job),
		                 JUDGE_ASKED);
		drive(r, &a, i + 1);
		assert_score(job, 4);
		judge_job_free(job);
	}
	assert_null(judge_runner_cached(r, &fx.cfg.judges[0], run));
	assert_int_equal(cache_lines(), 0);
	judge_runner_free(r);
	run_free(run);
}

/* Freeing the runner with a request in flight drops it without a callback. */
static void test_free_while_asking(void **st)
{
	(void)st;
	struct run *run = run_at(1);
	struct judge_runner *r = runner(true, "-");
	struct answered a = { 0 };
	struct judge_job *job;
	assert_int_equal(judge_runner_start(r, &fx.cfg.judges[0], run, 1, on_done, &a, &job),
	                 JUDGE_ASKED);
	judge_runner_free(r);
	assert_int_equal(a.n, 0);
	judge_job_free(job);
	run_free(run);
}

int main(int argc, char **argv)
{
	(void)argc;
	argv0 = argv[0];
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cache_path),
		cmocka_unit_test(test_miss_then_hit),
		cmocka_unit_test(test_refresh),
		cmocka_unit_test(test_skip),
		cmocka_unit_test(test_error_not_cached),
		cmocka_unit_test(test_run_freed_before_answer),
		cmocka_unit_test(test_no_cache_for_stdin),
		cmocka_unit_test(test_free_while_asking),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
