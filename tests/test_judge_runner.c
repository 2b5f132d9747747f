/* test_judge_runner.c - the one judging path (judge/runner) against the
 * local fake server (tests/fake_llm): a miss is asked and put in the
 * cache, a hit is not asked, a skipped run asks nothing, --refresh asks
 * again, errors are not cached, the run may go before its answer comes,
 * and standard input has no cache; a judge with examples sends the chosen
 * labelled runs with their grades and reasons, lists them in the details,
 * and asks again when they change. Talks only to 127.0.0.1. */
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
#include "util/strbuf.h"
#include "judge_fixture.h"
#include "test_files.h"
#include "util/error.h"

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
	struct error err = {0};
	assert_int_equal(format_load(r, format_find("openai-chat"), &err), 0);
	/* as the dataset names runs by their "id" */
	r->id = jv_str(r->doc, jv_get(r->doc, run_root(r), "id"));
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

/* Runs the client as an event loop would, for 12000 turns at most (two
 * minutes when idle: a guard against a hang, not a measure). */
static void drive(struct judge_runner *r, struct answered *a, int want)
{
	struct judge_client *c = judge_runner_client(r);
	for (int i = 0; i < 12000 && a->n < want; i++) {
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
	struct error err = {0};
	struct judge_runner *r = judge_runner_new(&o, &err);
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

/* ---- few-shot examples ------------------------------------------------------ */

/* Judges like the fixture's "acc" (so acc's verdicts are their verdicts
 * without examples) with examples from one split holding every run. */
static void examples_config(struct config *c)
{
	char yaml[2048];
	static const char judge[] =
		"    rubric: tool-call-accuracy-1to5\n"
		"    model: openai/judge-model\n"
		"    base_url: http://127.0.0.1:%d/v1\n"
		"    max_retries: 0\n"
		"    tools: [{name: get_order, description: looks an order up},"
		" {name: track_parcel, description: tracks a parcel},"
		" {name: refund_order, description: refunds an order}]\n";
	char one[1024];
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, "judges:\n");
	snprintf(one, sizeof one, judge, fx.srv.port);
	strbuf_addf(&sb, "  - id: recent2\n%s    examples: {k: 2, pick: recent, split: train,"
	            " splits: \"train=1\"}\n", one);
	strbuf_addf(&sb, "  - id: mistakes1\n%s    examples: {k: 1, pick: disagreements,"
	            " split: train, splits: \"train=1\"}\n", one);
	snprintf(yaml, sizeof yaml, "%s", sb.buf);
	strbuf_release(&sb);
	struct error err = {0};
	if (config_load_string(c, &fx.load, "t.yaml", fx.dir, yaml, strlen(yaml), &err) < 0)
		fail_msg("%s", err.msg);
}

struct labelled {
	struct run *runs[3];
	struct judge_example ex[3];
	size_t n;
	size_t asked;               /* how often the runner asked for them */
};

static size_t candidates(void *ctx, const char *judge_id, const struct judge_example **out)
{
	struct labelled *l = ctx;
	(void)judge_id;
	l->asked++;
	*out = l->ex;
	return l->n;
}

/* zh-refund graded 2 (a fail) is the latest label; esc-codes 4; no-task
 * has no calls, so the judge skips it. */
static void labels_make(struct labelled *l)
{
	static const struct { int line; double score; const char *reason, *at; } L[] = {
		{ 3, 2, "refunded the order before checking the damage", "2026-03-03T09:00:00Z" },
		{ 4, 4, "looked the order up; fine", "2026-03-02T09:00:00Z" },
		{ 5, 1, "nothing was done", "2026-03-01T09:00:00Z" },
	};
	memset(l, 0, sizeof *l);
	for (size_t i = 0; i < 3; i++) {
		l->runs[i] = run_at(L[i].line);
		l->ex[i] = (struct judge_example){
			.run_id = l->runs[i]->id, .run = l->runs[i], .score = L[i].score,
			.passed = L[i].score >= 3, .reason = L[i].reason, .at = L[i].at,
		};
	}
	l->n = 3;
}

static void labels_free(struct labelled *l)
{
	for (size_t i = 0; i < 3; i++)
		run_free(l->runs[i]);
}

static struct judge_runner *runner_with(struct labelled *l)
{
	struct judge_runner_opts o = { .first_input = fx.runs_path, .examples = candidates,
	                               .examples_ctx = l };
	struct error err = {0};
	struct judge_runner *r = judge_runner_new(&o, &err);
	assert_non_null(r);
	return r;
}

/* The user message of the last request the server logged. */
static char *last_user_message(void)
{
	char *log = test_slurp(fx.srv.log);
	assert_non_null(log);
	char *last = log, *p;
	while ((p = strchr(last, '\n')) && p[1])
		last = p + 1;
	json_error_t je;
	json_t *line = json_loads(last, JSON_DISABLE_EOF_CHECK, &je);
	free(log);
	assert_non_null(line);
	json_t *msgs = json_object_get(json_object_get(line, "body"), "messages");
	char *user = NULL;
	size_t i;
	json_t *m;
	json_array_foreach(msgs, i, m)
		if (!strcmp(json_string_value(json_object_get(m, "role")), "user"))
			user = strdup(json_string_value(json_object_get(m, "content")));
	json_decref(line);
	assert_non_null(user);
	return user;
}

static json_t *verdict_examples(const struct judge_job *job)
{
	struct verdict v;
	judge_job_verdict(job, &v);
	assert_int_equal(v.status, VERDICT_OK);
	json_t *ids = json_incref(json_object_get(v.details, "examples"));
	verdict_clear(&v);
	assert_non_null(ids);
	return ids;
}

static void assert_ids(json_t *ids, const char *want)
{
	char *s = json_dumps(ids, JSON_COMPACT);
	assert_string_equal(s, want);
	free(s);
	json_decref(ids);
}

/* The prompt sent holds the chosen runs with their grades and reasons
 * (never the run judged), the details list them, the same examples are a
 * hit, other examples ask again. */
static void test_examples_sent(void **st)
{
	(void)st;
	remove_cache();
	struct config c;
	examples_config(&c);
	const struct judge_conf *j = &c.judges[0];
	struct labelled l;
	labels_make(&l);
	struct run *run = run_at(1);                /* en-pass */
	l.ex[2].run_id = run->id;                   /* a label on the run judged: never shown */
	l.ex[2].run = run;

	struct judge_runner *r = runner_with(&l);
	assert_int_equal(judge_runner_candidates(r, j), 3);
	struct answered a = { 0 };
	struct judge_job *job;
	size_t asked0 = fake_server_requests(&fx.srv);
	assert_int_equal(judge_runner_start(r, j, run, 1, on_done, &a, &job), JUDGE_ASKED);
	drive(r, &a, 1);
	assert_int_equal(fake_server_requests(&fx.srv), asked0 + 1);
	assert_ids(verdict_examples(job), "[\"zh-refund\",\"esc-codes\"]");
	judge_job_free(job);

	char *user = last_user_message();
	const char *e1 = strstr(user, "--- Example 1 of 2 ---");
	const char *e2 = strstr(user, "--- Example 2 of 2 ---");
	const char *conv = strstr(user, "The conversation:");
	assert_true(e1 && e2 && conv && e1 < e2 && e2 < conv);
	assert_non_null(strstr(e1, "我的订单 2087 收到时已经损坏了，我想退款。"));
	assert_non_null(strstr(e1, "\"name\":\"refund_order\""));
	assert_non_null(strstr(e1, "The reviewer's grade: 2 (on 1..5; a fail)\n"
	                           "The reviewer's reason: refunded the order before checking the "
	                           "damage\n"));
	assert_non_null(strstr(e2, "The reviewer's grade: 4 (on 1..5; a pass)\n"
	                           "The reviewer's reason: looked the order up; fine\n"));
	assert_null(strstr(user, "nothing was done"));
	/* The run judged appears once, after the examples. */
	const char *own = strstr(user, "Where is my order 1042?");
	assert_true(own && own > conv && !strstr(own + 1, "Where is my order 1042?"));
	free(user);
	judge_runner_free(r);

	/* The same examples: cached. */
	r = runner_with(&l);
	char key[17];
	assert_int_equal(judge_runner_prepare(r, j, run, &job, key), JUDGE_CACHED);
	assert_ids(verdict_examples(job), "[\"zh-refund\",\"esc-codes\"]");
	judge_job_free(job);
	/* Another set (zh-refund's label is gone): asked again, though what
	 * was judged before is still there to show. */
	l.ex[0] = l.ex[1];
	l.n = 2;
	assert_non_null(judge_runner_cached(r, j, run));
	assert_int_equal(judge_runner_prepare(r, j, run, &job, key), JUDGE_TO_ASK);
	a.n = 0;
	judge_runner_submit(r, j, run, job, key, 1, on_done, &a);
	drive(r, &a, 1);
	assert_ids(verdict_examples(job), "[\"esc-codes\"]");
	judge_job_free(job);
	assert_int_equal(fake_server_requests(&fx.srv), asked0 + 2);
	char *text = cache_text();
	assert_non_null(strstr(text, "\"group\":"));
	free(text);
	judge_runner_free(r);

	/* No candidates at all: asked with an empty block, no examples listed. */
	l.n = 0;
	r = runner_with(&l);
	assert_int_equal(judge_runner_candidates(r, j), 0);
	a.n = 0;
	assert_int_equal(judge_runner_start(r, j, run, 1, on_done, &a, &job), JUDGE_ASKED);
	drive(r, &a, 1);
	assert_ids(verdict_examples(job), "[]");
	judge_job_free(job);
	user = last_user_message();
	assert_true(strncmp(user, "The conversation:", 17) == 0);
	free(user);
	judge_runner_free(r);
	run_free(run);
	labels_free(&l);
	config_free(&c);
}

/* disagreements: the runs where the judge's verdict without examples (the
 * fixture's acc, the same judge without them) differs from the label. */
static void test_examples_disagreements(void **st)
{
	(void)st;
	remove_cache();
	struct config c;
	examples_config(&c);
	const struct judge_conf *j = &c.judges[1];
	struct labelled l;
	labels_make(&l);
	l.ex[0].at = "2026-03-01T00:00:00Z";        /* zh-refund is no longer the latest */
	struct judge_runner *r = runner_with(&l);
	struct answered a = { 0 };
	struct judge_job *job;
	for (size_t i = 0; i < 2; i++) {            /* acc says 4, a pass, of both */
		assert_int_equal(judge_runner_start(r, &fx.cfg.judges[0], l.runs[i], 1, on_done, &a,
		                                    &job), JUDGE_ASKED);
		drive(r, &a, (int)i + 1);
		judge_job_free(job);
	}
	struct run *run = run_at(1);
	const struct judge_example *out[JUDGE_EXAMPLES_MAX];
	assert_int_equal(judge_runner_examples(r, j, run, out), 1);
	assert_string_equal(out[0]->run_id, "zh-refund");   /* graded 2: the judge was wrong */
	a.n = 0;
	assert_int_equal(judge_runner_start(r, j, run, 1, on_done, &a, &job), JUDGE_ASKED);
	drive(r, &a, 1);
	assert_ids(verdict_examples(job), "[\"zh-refund\"]");
	judge_job_free(job);
	judge_runner_free(r);
	run_free(run);
	labels_free(&l);
	config_free(&c);
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
		cmocka_unit_test(test_examples_sent),
		cmocka_unit_test(test_examples_disagreements),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
