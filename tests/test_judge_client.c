/* test_judge_client.c - the asynchronous judge client against the local
 * fake server (tests/fake_llm): answers, retries after 429, 5xx, dropped
 * and cut connections, Retry-After, timeouts on a trickling body, the
 * concurrency limit, cancelling, redirects, each provider's wire format;
 * and the verdict cache. Nothing leaves 127.0.0.1, every wait is bounded,
 * and no API key may appear in an error text or a file we write.
 *
 * The job here is a stand-in defined in this file (the client only walks
 * through the job's prompts), so these tests see exactly which texts and
 * errors the client handed over; the real job and rubrics have their own
 * tests. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <netinet/in.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include <jansson.h>

#include "judge/judge.h"
#include "judge/cache.h"
#include "judge/client.h"
#include "runs/run.h"
#include "fake_server.h"
#include "test_files.h"
#include "util/error.h"

#define KEY "sk-tcr-test-SECRET-0001"
#define KEY_ENV "TCR_TEST_KEY"

static const char *argv0;
static char dir[256];

/* ---- the stand-in job ------------------------------------------------------ */

struct judge_job {
	int nsteps;                 /* prompts it sends */
	int step;
	bool done;
	char user[64];
	json_t *schema;
	char *texts[8];             /* the replies handed over, in order */
	int ntexts;
	char *error;                /* what ended it, when it failed */
	long http_status;
	long prompt_tokens;
};

static struct judge_job *fake_job(int nsteps)
{
	struct judge_job *job = calloc(1, sizeof *job);
	assert_non_null(job);
	job->nsteps = nsteps;
	job->done = nsteps == 0;
	job->schema = json_loads("{\"type\":\"object\",\"properties\":{\"score\":{\"type\":\"number\"},"
	                         "\"reason\":{\"type\":\"string\"}},\"required\":[\"score\"]}", 0, NULL);
	return job;
}

static void fake_job_free(struct judge_job *job)
{
	for (int i = 0; i < job->ntexts; i++)
		free(job->texts[i]);
	free(job->error);
	json_decref(job->schema);
	free(job);
}

bool judge_job_next_prompt(struct judge_job *job, struct judge_prompt *out)
{
	if (job->done)
		return false;
	snprintf(job->user, sizeof job->user, "prompt step %d", job->step);
	memset(out, 0, sizeof *out);
	out->system = "You are a judge.";
	out->user = job->user;
	out->schema = job->schema;
	out->schema_name = "verdict";
	out->structured = true;
	out->step = job->step;
	return true;
}

void judge_job_take_reply(struct judge_job *job, const struct judge_reply *reply)
{
	assert_false(job->done);
	job->http_status = reply->http_status;
	if (reply->prompt_tokens > 0)
		job->prompt_tokens += reply->prompt_tokens;
	if (reply->error || !reply->text) {
		assert_non_null(reply->error);
		assert_null(reply->text);
		job->error = strdup(reply->error);
		job->done = true;
		return;
	}
	assert_true(job->ntexts < 8);
	job->texts[job->ntexts++] = strdup(reply->text);
	if (++job->step >= job->nsteps)
		job->done = true;
}

bool judge_job_done(const struct judge_job *job)
{
	return job->done;
}

void judge_job_fail(struct judge_job *job, const char *why)
{
	free(job->error);
	job->error = strdup(why);
	job->done = true;
}

void judge_job_verdict(const struct judge_job *job, struct verdict *out)
{
	memset(out, 0, sizeof *out);
	if (job->error) {
		out->status = VERDICT_ERROR;
		out->message = strdup(job->error);
		return;
	}
	out->status = VERDICT_OK;
	out->score = 1;
	out->passed = true;
	out->details = json_pack("{s:s?}", "raw_reply", job->ntexts ? job->texts[0] : NULL);
}

/* ---- the fake server ------------------------------------------------------------ */

static struct fake_server srv;

static void server_start(const char *script)
{
	fake_server_start(&srv, argv0, dir, script);
}

static void server_stop(void)
{
	fake_server_stop(&srv);
}

/* The requests the server logged, as an array. */
static json_t *server_log(void)
{
	json_t *a = json_array();
	char *text = test_slurp(srv.log);
	if (!text)
		return a;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		json_error_t je;
		json_t *o = json_loads(line, 0, &je);
		if (!o)
			fail_msg("the server log has a broken line: %s", line);
		json_array_append_new(a, o);
	}
	free(text);
	return a;
}

static size_t log_count(void)
{
	json_t *a = server_log();
	size_t n = json_array_size(a);
	json_decref(a);
	return n;
}

static long at_ms(json_t *log, size_t i)
{
	return (long)json_integer_value(json_object_get(json_array_get(log, i), "at_ms"));
}

/* ---- the client in a loop -------------------------------------------------------- */

struct results {
	int ndone;
	struct judge_job *jobs[16];
	uint64_t tags[16];
	size_t max_running;
	struct judge_client *c;
};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void on_done(void *ctx, struct judge_job *job, uint64_t tag)
{
	struct results *res = ctx;
	assert_true(res->ndone < 16);
	assert_true(judge_job_done(job));
	res->jobs[res->ndone] = job;
	res->tags[res->ndone] = tag;
	res->ndone++;
}

/* Runs the client as an event loop would until `want` jobs are done or
 * max_s seconds pass. */
static bool drive(struct judge_client *c, struct results *res, int want, double max_s)
{
	double end = now_s() + max_s;
	while (res->ndone < want && now_s() < end) {
		struct pollfd fds[64];
		int timeout;
		int n = judge_client_pollfds(c, fds, 64, &timeout);
		assert_true(n >= 0 && n <= 64);
		if (timeout < 0 || timeout > 50)
			timeout = 50;
		poll(fds, (nfds_t)n, timeout);
		judge_client_run(c);
		struct judge_stats st;
		judge_client_stats(c, &st);
		if (st.running > res->max_running)
			res->max_running = st.running;
	}
	return res->ndone >= want;
}

/* How long a test drives the client before it calls a job lost: a guard
 * against a hang, far past what a loaded machine needs. Nothing is
 * measured against it. */
#define GUARD_S 120.0

static char base_url[128];

static void conf_init(struct judge_conf *j)
{
	memset(j, 0, sizeof *j);
	j->id = "judge-1";
	j->provider = PROVIDER_COMPAT;
	j->model = "fake-model";
	snprintf(base_url, sizeof base_url, "http://127.0.0.1:%d/v1", srv.port);
	j->base_url = base_url;
	j->api_key_env = KEY_ENV;
	j->timeout_s = 60;            /* a guard: no test here waits for it */
	j->max_retries = 3;
	memcpy(j->hash, "0123456789abcdef", 17);
	memcpy(j->prompt_hash, "fedcba9876543210", 17);
}

static struct judge_client *client(int concurrency, double timeout_s)
{
	struct judge_client_opts o = { .concurrency = concurrency, .timeout_s = timeout_s };
	struct error err = {0};
	struct judge_client *c = judge_client_new(&o, &err);
	if (!c)
		fail_msg("judge_client_new: %s", err.msg);
	return c;
}

/* One job of nsteps prompts through a fresh client; the job is returned
 * for the test to look at (and free). */
static struct judge_job *run_one(struct judge_conf *j, int nsteps, double timeout_s, double max_s,
                                 struct judge_stats *st)
{
	struct judge_client *c = client(2, timeout_s);
	struct results res = { 0 };
	struct judge_job *job = fake_job(nsteps);
	judge_client_submit(c, j, job, 42, on_done, &res);
	assert_int_equal(judge_client_pending(c), 1);
	if (!drive(c, &res, 1, max_s))
		fail_msg("the job did not finish within %.0f s", max_s);
	assert_int_equal(res.ndone, 1);
	assert_ptr_equal(res.jobs[0], job);
	assert_int_equal(res.tags[0], 42);
	assert_int_equal(judge_client_pending(c), 0);
	if (st)
		judge_client_stats(c, st);
	judge_client_free(c);
	if (job->error)
		assert_null(strstr(job->error, KEY));
	return job;
}

/* ---- fixtures ---------------------------------------------------------------------- */

static int setup(void **st)
{
	(void)st;
	const char *tmp = getenv("TMPDIR");
	snprintf(dir, sizeof dir, "%s/tcr-judge.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		return -1;
	setenv(KEY_ENV, KEY, 1);
	test_local_only();
	memset(&srv, 0, sizeof srv);
	return 0;
}

static int teardown(void **st)
{
	(void)st;
	server_stop();
	char cmd[512];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* ---- answers ------------------------------------------------------------------------ */

static void test_plain_answer(void **st)
{
	(void)st;
	server_start("{}");
	struct judge_conf j;
	conf_init(&j);
	struct judge_stats stats;
	struct judge_job *job = run_one(&j, 1, 0, GUARD_S, &stats);
	assert_null(job->error);
	assert_int_equal(job->ntexts, 1);
	assert_string_equal(job->texts[0], "{\"score\":1,\"reason\":\"ok\"}");
	assert_int_equal(job->http_status, 200);
	assert_int_equal(stats.done, 1);
	assert_int_equal(stats.errors, 0);
	assert_int_equal(stats.retries, 0);
	assert_int_equal(stats.prompt_tokens, 11);
	assert_int_equal(stats.completion_tokens, 7);

	json_t *log = server_log();
	assert_int_equal(json_array_size(log), 1);
	json_t *e = json_array_get(log, 0);
	assert_string_equal(json_string_value(json_object_get(e, "method")), "POST");
	assert_string_equal(json_string_value(json_object_get(e, "path")), "/v1/chat/completions");
	json_t *h = json_object_get(e, "headers");
	assert_string_equal(json_string_value(json_object_get(h, "authorization")), "Bearer " KEY);
	assert_string_equal(json_string_value(json_object_get(h, "content-type")), "application/json");
	assert_null(json_object_get(h, "expect"));
	json_t *b = json_object_get(e, "body");
	assert_true(json_is_object(b));
	assert_string_equal(json_string_value(json_object_get(b, "model")), "fake-model");
	assert_true(json_number_value(json_object_get(b, "temperature")) == 0);
	json_t *msgs = json_object_get(b, "messages");
	assert_int_equal(json_array_size(msgs), 2);
	assert_string_equal(json_string_value(json_object_get(json_array_get(msgs, 1), "content")),
	                    "prompt step 0");
	json_t *rf = json_object_get(b, "response_format");
	assert_string_equal(json_string_value(json_object_get(rf, "type")), "json_schema");
	json_decref(log);
	fake_job_free(job);
}

static void test_prompts_in_turn(void **st)
{
	(void)st;
	server_start("{\"rules\":[{\"match\":{\"body_contains\":\"prompt step 1\"},\"content\":\"second\"}],"
	             "\"default\":{\"content\":\"first\"}}");
	struct judge_conf j;
	conf_init(&j);
	struct judge_job *job = run_one(&j, 2, 0, GUARD_S, NULL);
	assert_null(job->error);
	assert_int_equal(job->ntexts, 2);
	assert_string_equal(job->texts[0], "first");
	assert_string_equal(job->texts[1], "second");
	assert_int_equal(log_count(), 2);
	fake_job_free(job);
}

static void test_skipped_job(void **st)
{
	(void)st;
	server_start("{}");
	struct judge_conf j;
	conf_init(&j);
	struct judge_job *job = run_one(&j, 0, 0, GUARD_S, NULL);
	assert_null(job->error);
	assert_int_equal(job->ntexts, 0);
	assert_int_equal(log_count(), 0);
	fake_job_free(job);
}

static void test_missing_key(void **st)
{
	(void)st;
	server_start("{}");
	struct judge_conf j;
	conf_init(&j);
	j.provider = PROVIDER_OPENAI;
	j.api_key_env = "TCR_TEST_NO_SUCH_KEY";
	unsetenv("TCR_TEST_NO_SUCH_KEY");
	struct judge_job *job = run_one(&j, 1, 0, GUARD_S, NULL);
	assert_non_null(job->error);
	assert_string_equal(job->error, "TCR_TEST_NO_SUCH_KEY is not set");
	assert_int_equal(log_count(), 0);
	fake_job_free(job);
}

/* What the model says is the job's business: the client hands over the
 * text as it came, whatever it looks like. */
static void test_texts_reach_the_job(void **st)
{
	(void)st;
	static const char *const contents[] = {
		"this is {not json",
		"{\"reason\":\"no score here\"}",
		"```json\n{\"score\":0.5,\"reason\":\"fenced\"}\n```",
	};
	server_start("{\"rules\":["
	             "{\"match\":{\"body_contains\":\"MALFORMED\"},\"content\":\"this is {not json\"},"
	             "{\"match\":{\"body_contains\":\"MISSING\"},\"content\":{\"reason\":\"no score here\"}},"
	             "{\"match\":{\"body_contains\":\"FENCED\"},"
	             "\"content\":\"```json\\n{\\\"score\\\":0.5,\\\"reason\\\":\\\"fenced\\\"}\\n```\"}]}");
	static const char *const models[] = { "MALFORMED", "MISSING", "FENCED" };
	for (size_t i = 0; i < 3; i++) {
		struct judge_conf j;
		conf_init(&j);
		j.model = (char *)models[i];
		struct judge_job *job = run_one(&j, 1, 0, GUARD_S, NULL);
		assert_null(job->error);
		assert_int_equal(job->ntexts, 1);
		assert_string_equal(job->texts[0], contents[i]);
		fake_job_free(job);
	}
}

/* ---- retries ------------------------------------------------------------------------- */

static void test_retry_after_429(void **st)
{
	(void)st;
	server_start("{\"rules\":[{\"times\":1,\"status\":429,\"headers\":{\"Retry-After\":\"1\"},"
	             "\"body\":{\"error\":{\"message\":\"Rate limit reached\",\"type\":\"requests\"}}}]}");
	struct judge_conf j;
	conf_init(&j);
	struct judge_stats stats;
	struct judge_job *job = run_one(&j, 1, 0, GUARD_S, &stats);
	assert_null(job->error);
	assert_int_equal(job->ntexts, 1);
	assert_int_equal(stats.retries, 1);
	json_t *log = server_log();
	assert_int_equal(json_array_size(log), 2);
	long gap = at_ms(log, 1) - at_ms(log, 0);
	/* Retry-After 1 is a floor (the jitter alone would be at most 0.5 s);
	 * how much later the retry comes depends on the machine's load. */
	if (gap < 950)
		fail_msg("the retry came %ld ms after the 429", gap);
	json_decref(log);
	fake_job_free(job);
}

static void test_retry_5xx_drop_truncate(void **st)
{
	(void)st;
	server_start("{\"rules\":["
	             "{\"match\":{\"body_contains\":\"M500\"},\"times\":1,\"status\":500,\"raw\":\"boom\"},"
	             "{\"match\":{\"body_contains\":\"M503\"},\"times\":2,\"status\":503,"
	             "\"body\":{\"error\":{\"message\":\"overloaded\"}}},"
	             "{\"match\":{\"body_contains\":\"MDROP\"},\"times\":1,\"drop\":true},"
	             "{\"match\":{\"body_contains\":\"MCUT\"},\"times\":1,\"truncate\":true,"
	             "\"content\":\"cut short in the middle of it\"}]}");
	static const struct { const char *model; int retries; } cases[] = {
		{ "M500", 1 }, { "M503", 2 }, { "MDROP", 1 }, { "MCUT", 1 },
	};
	size_t total = 0;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct judge_conf j;
		conf_init(&j);
		j.model = (char *)cases[i].model;
		struct judge_stats stats;
		struct judge_job *job = run_one(&j, 1, 0, GUARD_S, &stats);
		if (job->error)
			fail_msg("%s: %s", cases[i].model, job->error);
		assert_int_equal(job->ntexts, 1);
		assert_string_equal(job->texts[0], "{\"score\":1,\"reason\":\"ok\"}");
		assert_int_equal(stats.retries, (size_t)cases[i].retries);
		total += (size_t)cases[i].retries + 1;
		assert_int_equal(log_count(), total);
		fake_job_free(job);
	}
}

static void test_retries_run_out(void **st)
{
	(void)st;
	server_start("{\"default\":{\"status\":502,\"body\":{\"error\":{\"message\":\"bad gateway\"}}}}");
	struct judge_conf j;
	conf_init(&j);
	j.max_retries = 2;
	struct judge_stats stats;
	struct judge_job *job = run_one(&j, 1, 0, GUARD_S, &stats);
	assert_non_null(job->error);
	assert_string_equal(job->error, "HTTP 502: bad gateway (after 2 retries)");
	assert_int_equal(job->http_status, 502);
	assert_int_equal(stats.retries, 2);
	assert_int_equal(stats.errors, 1);
	assert_int_equal(log_count(), 3);
	fake_job_free(job);
}

/* A pause longer than anyone would wait at the screen is an error now (a
 * wait of 3600 s would run past the guard). */
static void test_long_retry_after(void **st)
{
	(void)st;
	server_start("{\"default\":{\"status\":429,\"headers\":{\"Retry-After\":\"3600\"},"
	             "\"body\":{\"error\":{\"message\":\"daily quota used up\"}}}}");
	struct judge_conf j;
	conf_init(&j);
	struct judge_job *job = run_one(&j, 1, 0, GUARD_S, NULL);
	assert_non_null(job->error);
	assert_string_equal(job->error, "HTTP 429: daily quota used up (the provider asks to wait 3600 s)");
	assert_int_equal(log_count(), 1);
	fake_job_free(job);
}

static void test_no_retry_on_4xx(void **st)
{
	(void)st;
	/* A server that echoes the key: the job must not see it. */
	server_start("{\"default\":{\"status\":401,\"body\":{\"error\":{\"message\":"
	             "\"Incorrect API key provided: " KEY "\",\"type\":\"invalid_request_error\"}}}}");
	struct judge_conf j;
	conf_init(&j);
	struct judge_job *job = run_one(&j, 1, 0, GUARD_S, NULL);
	assert_non_null(job->error);
	assert_null(strstr(job->error, KEY));
	assert_memory_equal(job->error, "HTTP 401: Incorrect API key provided: ****", 42);
	assert_int_equal(job->http_status, 401);
	assert_int_equal(log_count(), 1);
	fake_job_free(job);
}

static void test_trickle_times_out(void **st)
{
	(void)st;
	/* 200 bytes at one a minute never arrive in a test's time; the
	 * timeout of 1 s is the only way out. */
	char script[1024];
	char body[201];
	memset(body, 'x', 200);
	body[200] = '\0';
	snprintf(script, sizeof script, "{\"default\":{\"trickle_ms\":60000,\"raw\":\"%s\"}}", body);
	server_start(script);
	struct judge_conf j;
	conf_init(&j);
	j.max_retries = 1;
	j.timeout_s = 30;               /* the client's option wins */
	double t0 = now_s();
	struct judge_stats stats;
	struct judge_job *job = run_one(&j, 1, 1.0, GUARD_S, &stats);
	double took = now_s() - t0;
	assert_non_null(job->error);
	if (!strstr(job->error, "timed out") || !strstr(job->error, "(after 1 retry)"))
		fail_msg("error: %s", job->error);
	assert_non_null(strstr(job->error, "http://127.0.0.1:"));
	assert_int_equal(stats.retries, 1);
	assert_int_equal(log_count(), 2);
	if (took < 1.9)         /* a floor: how much longer depends on the load */
		fail_msg("two 1 s timeouts took %.2f s", took);
	fake_job_free(job);
}

static void test_refused(void **st)
{
	(void)st;
	/* A port nobody listens on: bound, then closed. */
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(fd >= 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
	socklen_t len = sizeof a;
	assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	close(fd);
	srv.port = ntohs(a.sin_port);
	struct judge_conf j;
	conf_init(&j);
	j.max_retries = 1;
	struct judge_stats stats;
	struct judge_job *job = run_one(&j, 1, 0, GUARD_S, &stats);
	assert_non_null(job->error);
	if (!strstr(job->error, "onnect") || !strstr(job->error, "(after 1 retry)"))
		fail_msg("error: %s", job->error);
	assert_int_equal(stats.retries, 1);
	fake_job_free(job);
}

static void test_redirect_not_followed(void **st)
{
	(void)st;
	server_start("{\"rules\":[{\"match\":{\"path_prefix\":\"/v1/\"},\"status\":307,"
	             "\"headers\":{\"Location\":\"http://127.0.0.1:9/elsewhere/v1/chat/completions\"},"
	             "\"raw\":\"\"}]}");
	struct judge_conf j;
	conf_init(&j);
	struct judge_job *job = run_one(&j, 1, 0, GUARD_S, NULL);
	assert_non_null(job->error);
	assert_non_null(strstr(job->error, "HTTP 307"));
	assert_non_null(strstr(job->error, "http://127.0.0.1:9/elsewhere/v1/chat/completions"));
	assert_non_null(strstr(job->error, "not followed"));
	assert_int_equal(log_count(), 1);
	fake_job_free(job);
}

/* ---- many jobs ------------------------------------------------------------------------- */

static void test_concurrency_limit(void **st)
{
	(void)st;
	/* The server answers only once two requests wait (a barrier): with a
	 * limit of one the first would wait for its timeout. */
	server_start("{\"default\":{\"until_held\":2,\"content\":\"late\"}}");
	struct judge_conf j;
	conf_init(&j);
	struct judge_client *c = client(2, 0);
	struct results res = { 0 };
	struct judge_job *jobs[8];
	for (int i = 0; i < 8; i++) {
		jobs[i] = fake_job(1);
		judge_client_submit(c, &j, jobs[i], (uint64_t)i, on_done, &res);
	}
	assert_int_equal(judge_client_pending(c), 8);
	struct judge_stats stats;
	judge_client_stats(c, &stats);
	assert_int_equal(stats.queued, 8);
	if (!drive(c, &res, 8, GUARD_S))
		fail_msg("only %d of 8 jobs finished", res.ndone);
	assert_int_equal(res.max_running, 2);
	judge_client_stats(c, &stats);
	assert_int_equal(stats.done, 8);
	assert_int_equal(stats.errors, 0);
	judge_client_free(c);

	/* The server's view: the requests it held unanswered as each came,
	 * never more than two. */
	json_t *log = server_log();
	assert_int_equal(json_array_size(log), 8);
	json_int_t most = 0;
	for (size_t i = 0; i < 8; i++) {
		json_int_t w = json_integer_value(json_object_get(json_array_get(log, i), "waiting"));
		if (w > most)
			most = w;
	}
	assert_int_equal(most, 2);
	json_decref(log);
	for (int i = 0; i < 8; i++) {
		assert_null(jobs[i]->error);
		assert_string_equal(jobs[i]->texts[0], "late");
		fake_job_free(jobs[i]);
	}
}

static void test_cancel(void **st)
{
	(void)st;
	server_start("{\"default\":{\"delay_ms\":3600000,\"content\":\"never\"}}");
	struct judge_conf j;
	conf_init(&j);
	struct judge_client *c = client(8, 0);
	struct results res = { 0 };
	struct judge_job *a = fake_job(1), *b = fake_job(1), *other = fake_job(1), *queued = fake_job(1);
	judge_client_submit(c, &j, a, 7, on_done, &res);
	judge_client_submit(c, &j, b, 7, on_done, &res);
	judge_client_submit(c, &j, other, 8, on_done, &res);
	/* Wait until the server holds all three (it never answers). */
	double end = now_s() + GUARD_S;
	while (log_count() < 3 && now_s() < end)
		drive(c, &res, 1, 0.05);
	assert_int_equal(log_count(), 3);
	assert_int_equal(res.ndone, 0);
	judge_client_submit(c, &j, queued, 7, on_done, &res);

	assert_int_equal(judge_client_cancel(c, 7), 3);
	/* done is called at once (within the call), with the job failed as
	 * cancelled. */
	assert_int_equal(res.ndone, 3);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(res.tags[i], 7);
		assert_non_null(res.jobs[i]->error);
		assert_string_equal(res.jobs[i]->error, "cancelled");
	}
	assert_int_equal(judge_client_pending(c), 1);
	assert_int_equal(judge_client_cancel(c, 7), 0);
	struct judge_stats stats;
	judge_client_stats(c, &stats);
	assert_int_equal(stats.running, 1);
	assert_int_equal(stats.errors, 0);          /* cancelling is not an error */

	assert_int_equal(judge_client_cancel(c, 8), 1);
	assert_int_equal(res.ndone, 4);
	assert_string_equal(other->error, "cancelled");
	assert_int_equal(judge_client_pending(c), 0);
	judge_client_run(c);
	assert_int_equal(res.ndone, 4);
	judge_client_free(c);
	/* The queued one never reached the server. */
	assert_int_equal(log_count(), 3);
	fake_job_free(a);
	fake_job_free(b);
	fake_job_free(other);
	fake_job_free(queued);
}

static void test_pollfds(void **st)
{
	(void)st;
	server_start("{\"default\":{\"delay_ms\":3600000,\"content\":\"never\"}}");
	struct judge_conf j;
	conf_init(&j);
	struct judge_client *c = client(8, 0);
	struct pollfd fds[8];
	int timeout = 123;
	assert_int_equal(judge_client_pollfds(c, fds, 8, &timeout), 0);
	assert_int_equal(timeout, -1);            /* idle: no need to run */
	struct results res = { 0 };
	struct judge_job *job = fake_job(1);
	judge_client_submit(c, &j, job, 1, on_done, &res);
	judge_client_pollfds(c, fds, 8, &timeout);
	assert_int_equal(timeout, 0);             /* a job waits to start */
	/* While the server holds the request (for good), its socket is one
	 * to watch. */
	double end = now_s() + GUARD_S;
	int n = 0;
	while (now_s() < end && n == 0) {
		judge_client_run(c);
		n = judge_client_pollfds(c, fds, 8, &timeout);
		if (n == 0)
			poll(NULL, 0, 10);
	}
	assert_true(n >= 1);
	assert_true(fds[0].fd >= 0);
	assert_true(fds[0].events & (POLLIN | POLLOUT));
	/* Room for none: run must still be called soon. */
	assert_int_equal(judge_client_pollfds(c, fds, 0, &timeout), 0);
	assert_true(timeout >= 0 && timeout <= 10);
	assert_int_equal(judge_client_cancel(c, 1), 1);
	assert_int_equal(res.ndone, 1);
	judge_client_free(c);
	assert_string_equal(job->error, "cancelled");
	fake_job_free(job);
}

/* ---- other providers on the wire ------------------------------------------------------- */

static void test_anthropic_wire(void **st)
{
	(void)st;
	server_start("{\"rules\":[{\"match\":{\"path_prefix\":\"/v1/messages\","
	             "\"header\":{\"x-api-key\":\"" KEY "\",\"anthropic-version\":\"2023-06-01\"}},"
	             "\"anthropic_content\":\"{\\\"score\\\":0}\"}],"
	             "\"default\":{\"status\":400,\"body\":{\"error\":{\"message\":\"wrong request\"}}}}");
	struct judge_conf j;
	conf_init(&j);
	j.provider = PROVIDER_ANTHROPIC;
	char url[64];
	snprintf(url, sizeof url, "http://127.0.0.1:%d", srv.port);
	j.base_url = url;
	struct judge_stats stats;
	struct judge_job *job = run_one(&j, 1, 0, GUARD_S, &stats);
	if (job->error)
		fail_msg("%s", job->error);
	assert_string_equal(job->texts[0], "{\"score\":0}");
	assert_int_equal(stats.prompt_tokens, 11);
	assert_int_equal(stats.completion_tokens, 7);
	json_t *log = server_log();
	json_t *b = json_object_get(json_array_get(log, 0), "body");
	assert_int_equal(json_integer_value(json_object_get(b, "max_tokens")), 2048);
	assert_string_equal(json_string_value(json_object_get(b, "system")), "You are a judge.");
	json_decref(log);
	fake_job_free(job);
}

static void test_azure_wire(void **st)
{
	(void)st;
	server_start("{\"rules\":[{\"match\":{\"path_prefix\":\"/openai/deployments/judge-dep/chat/"
	             "completions?api-version=2024-10-21\",\"header\":{\"api-key\":\"" KEY "\"}},"
	             "\"content\":\"azure says hi\"}],"
	             "\"default\":{\"status\":404,\"body\":{\"error\":{\"message\":\"no such deployment\"}}}}");
	struct judge_conf j;
	conf_init(&j);
	j.provider = PROVIDER_AZURE;
	j.model = "judge-dep";
	j.api_version = "2024-10-21";
	char url[64];
	snprintf(url, sizeof url, "http://127.0.0.1:%d/", srv.port);
	j.base_url = NULL;
	j.endpoint = url;
	struct judge_job *job = run_one(&j, 1, 0, GUARD_S, NULL);
	if (job->error)
		fail_msg("%s", job->error);
	assert_string_equal(job->texts[0], "azure says hi");
	json_t *log = server_log();
	json_t *b = json_object_get(json_array_get(log, 0), "body");
	assert_null(json_object_get(b, "model"));
	assert_null(json_object_get(json_object_get(json_array_get(log, 0), "headers"), "authorization"));
	json_decref(log);
	fake_job_free(job);
}

/* ---- keys stay out of what we write -------------------------------------------------------- */

static bool file_has(const char *path, const char *needle)
{
	char *t = test_slurp(path);
	assert_non_null(t);
	bool has = strstr(t, needle) != NULL;
	free(t);
	return has;
}

static void test_no_key_in_files(void **st)
{
	(void)st;
	/* The model's answer echoes the key, as a careless server might. */
	server_start("{\"rules\":[{\"times\":1,\"status\":500,\"body\":{\"error\":{\"message\":\"key " KEY
	             " failed\"}}}],\"default\":{\"content\":\"your key is " KEY "\"}}");
	struct judge_conf j;
	conf_init(&j);
	char trace_path[320], cache_path[320];
	snprintf(trace_path, sizeof trace_path, "%s/trace.txt", dir);
	snprintf(cache_path, sizeof cache_path, "%s/in.jsonl.judgements.jsonl", dir);
	FILE *trace = fopen(trace_path, "w");
	assert_non_null(trace);
	struct judge_client_opts o = { .concurrency = 1, .trace = trace };
	struct error err = {0};
	struct judge_client *c = judge_client_new(&o, &err);
	assert_non_null(c);
	struct results res = { 0 };
	struct judge_job *job = fake_job(1);
	judge_client_submit(c, &j, job, 1, on_done, &res);
	assert_true(drive(c, &res, 1, GUARD_S));
	judge_client_free(c);
	fclose(trace);
	assert_null(job->error);
	assert_int_equal(job->ntexts, 1);
	assert_memory_equal(job->texts[0], "your key is ****", 16);
	assert_null(strstr(job->texts[0], KEY));
	/* Even if a reply kept in the details did hold it, the cache masks it. */
	free(job->texts[0]);
	job->texts[0] = strdup("your key is " KEY);

	struct judge_cache *cache = judge_cache_open(cache_path, &err);
	assert_non_null(cache);
	json_t *rec = json_pack("{s:s,s:[]}", "id", "run-1", "messages");
	struct run *r = run_new(rec, "in.jsonl", 1, -1);
	json_decref(rec);
	char key[17];
	judge_cache_key(r, &j, key);
	struct verdict v;
	judge_job_verdict(job, &v);
	assert_int_equal(judge_cache_put(cache, key, r, &j, &v, &err), 0);
	verdict_clear(&v);
	judge_cache_close(cache);
	run_free(r);

	assert_true(file_has(trace_path, "Authorization: ***"));
	assert_true(file_has(trace_path, "retry 1"));
	assert_false(file_has(trace_path, KEY));
	assert_true(file_has(cache_path, "your key is *"));
	assert_false(file_has(cache_path, KEY));
	/* The key did reach the server, in its header only. */
	assert_true(file_has(srv.log, "Bearer " KEY));
	fake_job_free(job);
}

/* ---- the cache ----------------------------------------------------------------------------------- */

static void test_cache(void **st)
{
	(void)st;
	struct error err = {0};
	char path[320];
	snprintf(path, sizeof path, "%s/runs.jsonl.judgements.jsonl", dir);
	struct judge_conf j;
	memset(&j, 0, sizeof j);
	j.id = "appropriate";
	j.model = "gpt-4o-mini";
	memcpy(j.hash, "1111111111111111", 17);
	memcpy(j.prompt_hash, "2222222222222222", 17);
	setenv("TCR_FAKE_NOW", "2026-12-01T09:30:00Z", 1);

	json_t *rec = json_pack("{s:s,s:[{s:s,s:s}]}", "id", "r1", "messages", "role", "user",
	                        "content", "hi");
	struct run *r = run_new(rec, "runs.jsonl", 1, -1);
	json_decref(rec);
	char key[17], key2[17];
	judge_cache_key(r, &j, key);
	assert_int_equal(strlen(key), 16);
	/* The key follows the run's content, the judge, its prompt and model. */
	judge_cache_key(r, &j, key2);
	assert_string_equal(key, key2);
	j.model = "gpt-4o";
	judge_cache_key(r, &j, key2);
	assert_string_not_equal(key, key2);
	j.model = "gpt-4o-mini";
	memcpy(j.prompt_hash, "3333333333333333", 17);
	judge_cache_key(r, &j, key2);
	assert_string_not_equal(key, key2);
	memcpy(j.prompt_hash, "2222222222222222", 17);
	memcpy(j.hash, "4444444444444444", 17);
	judge_cache_key(r, &j, key2);
	assert_string_not_equal(key, key2);
	memcpy(j.hash, "1111111111111111", 17);
	json_t *rec2 = json_pack("{s:s,s:[{s:s,s:s}]}", "id", "r1", "messages", "role", "user",
	                         "content", "hi!");
	struct run *r2 = run_new(rec2, "runs.jsonl", 2, -1);
	json_decref(rec2);
	judge_cache_key(r2, &j, key2);
	assert_string_not_equal(key, key2);

	struct judge_cache *c = judge_cache_open(path, &err);
	assert_non_null(c);
	assert_null(judge_cache_warning(c));
	assert_null(judge_cache_get(c, key));
	struct verdict v = { .status = VERDICT_OK, .score = 0.67, .passed = true,
	                     .details = json_pack("{s:s}", "reason", "fine") };
	assert_int_equal(judge_cache_put(c, key, r, &j, &v, &err), 0);
	verdict_clear(&v);
	const struct verdict *got = judge_cache_get(c, key);
	assert_non_null(got);
	assert_int_equal(got->status, VERDICT_OK);
	assert_true(got->score == 0.67);
	assert_true(got->passed);
	assert_string_equal(json_string_value(json_object_get(got->details, "reason")), "fine");
	struct verdict e = { .status = VERDICT_ERROR, .message = strdup("judge: unusable answer") };
	assert_int_equal(judge_cache_put(c, key2, r2, &j, &e, &err), 0);
	verdict_clear(&e);
	judge_cache_close(c);

	char *text = test_slurp(path);
	const char *want =
		"{\"v\":1,\"key\":\"%s\",\"run\":\"runs.jsonl:1\",\"judge\":\"appropriate\","
		"\"model\":\"gpt-4o-mini\",\"prompt_hash\":\"2222222222222222\",\"at\":\"2026-12-01T09:30:00Z\","
		"\"verdict\":{\"status\":\"ok\",\"score\":0.67,\"passed\":true,\"details\":{\"reason\":\"fine\"},"
		"\"error\":null}}\n";
	char line[1024];
	snprintf(line, sizeof line, want, key);
	assert_memory_equal(text, line, strlen(line));
	assert_non_null(strstr(text + strlen(line), "\"verdict\":{\"status\":\"error\",\"score\":null,"
	                                            "\"passed\":null,\"details\":null,"
	                                            "\"error\":\"judge: unusable answer\"}}\n"));
	free(text);

	/* A broken line in the middle and a cut last line are skipped with a
	 * warning; the newest verdict for a key wins. */
	FILE *f = fopen(path, "a");
	assert_non_null(f);
	fputs("not json\n", f);
	fprintf(f, "{\"v\":1,\"key\":\"%s\",\"verdict\":{\"status\":\"ok\",\"score\":0,\"passed\":false,"
	        "\"details\":null,\"error\":null}}\n", key);
	fputs("{\"v\":1,\"key\":\"0000", f);
	fclose(f);
	c = judge_cache_open(path, &err);
	assert_non_null(c);
	const char *w = judge_cache_warning(c);
	assert_non_null(w);
	assert_non_null(strstr(w, ":3: skipped"));
	assert_non_null(strstr(w, ":5: truncated last line"));
	got = judge_cache_get(c, key);
	assert_non_null(got);
	assert_true(got->score == 0);
	assert_false(got->passed);
	got = judge_cache_get(c, key2);
	assert_non_null(got);
	assert_int_equal(got->status, VERDICT_ERROR);
	assert_string_equal(got->message, "judge: unusable answer");
	assert_null(judge_cache_get(c, "0123456789abcdef"));
	assert_null(judge_cache_get(c, "nonsense"));

	/* An append after the cut line starts a line of its own. */
	struct verdict s = { .status = VERDICT_SKIPPED, .message = strdup("no tool calls") };
	const struct verdict *before = judge_cache_get(c, key);
	assert_int_equal(judge_cache_put(c, key, r, &j, &s, &err), 0);
	verdict_clear(&s);
	assert_int_equal(judge_cache_get(c, key)->status, VERDICT_SKIPPED);
	assert_true(before->score == 0);        /* earlier pointers stay valid */
	assert_int_equal(judge_cache_put(c, "bad", r, &j, &s, &err), -1);
	judge_cache_close(c);
	c = judge_cache_open(path, &err);
	assert_non_null(c);
	assert_int_equal(judge_cache_get(c, key)->status, VERDICT_SKIPPED);
	assert_string_equal(judge_cache_get(c, key)->message, "no tool calls");
	judge_cache_close(c);

	/* Not openable: the reason names the file. */
	char bad[400];
	snprintf(bad, sizeof bad, "%s/no/such/dir/x.jsonl", dir);
	assert_null(judge_cache_open(bad, &err));
	assert_non_null(strstr(err.msg, bad));
	run_free(r);
	run_free(r2);
	unsetenv("TCR_FAKE_NOW");
}

/* The keys of a judge with examples: the ids shown are part of the key,
 * the verdicts on a run share a group whatever the examples, and the key
 * of the judge without examples is its base. */
static void test_cache_examples(void **st)
{
	(void)st;
	struct error err = {0};
	char path[320];
	snprintf(path, sizeof path, "%s/shots.judgements.jsonl", dir);
	unlink(path);
	struct judge_conf j;
	memset(&j, 0, sizeof j);
	j.id = "acc";
	j.model = "m";
	memcpy(j.hash, "1111111111111111", 17);
	memcpy(j.base_hash, "5555555555555555", 17);
	memcpy(j.prompt_hash, "2222222222222222", 17);
	json_t *rec = json_pack("{s:s,s:[]}", "id", "r1", "messages");
	struct run *r = run_new(rec, "runs.jsonl", 1, -1);
	json_decref(rec);

	char group[17], k0[17], k1[17], k2[17], k3[17], base[17];
	judge_cache_key(r, &j, group);
	judge_cache_key_examples(r, &j, NULL, k0);
	assert_string_equal(k0, group);
	json_t *none = json_array(), *one = json_pack("[s]", "a"), *two = json_pack("[s,s]", "a", "b");
	json_t *swapped = json_pack("[s,s]", "b", "a");
	judge_cache_key_examples(r, &j, none, k1);
	judge_cache_key_examples(r, &j, one, k2);
	judge_cache_key_examples(r, &j, two, k3);
	assert_string_not_equal(k1, group);             /* asked for examples, none shown */
	assert_string_not_equal(k2, k1);
	assert_string_not_equal(k3, k2);
	judge_cache_key_examples(r, &j, swapped, k0);
	assert_string_not_equal(k0, k3);                /* the order is shown too */
	judge_cache_key_base(r, &j, base);
	assert_string_not_equal(base, group);
	struct judge_conf plain = j;
	memcpy(plain.hash, j.base_hash, 17);
	judge_cache_key(r, &plain, k0);
	assert_string_equal(k0, base);                  /* the same judge without examples */
	plain.base_hash[0] = '\0';
	judge_cache_key_base(r, &plain, k0);
	assert_string_equal(k0, base);                  /* a judge made by hand: its hash */

	struct judge_cache *c = judge_cache_open(path, &err);
	assert_non_null(c);
	assert_null(judge_cache_get_latest(c, group));
	struct verdict v = { .status = VERDICT_OK, .score = 2, .passed = false };
	assert_int_equal(judge_cache_put_in(c, k2, group, r, &j, &v, &err), 0);
	v.score = 5;
	v.passed = true;
	assert_int_equal(judge_cache_put_in(c, k3, group, r, &j, &v, &err), 0);
	assert_true(judge_cache_get(c, k2)->score == 2);
	assert_true(judge_cache_get_latest(c, group)->score == 5);
	assert_null(judge_cache_get(c, group));
	assert_int_equal(judge_cache_put_in(c, k2, "nonsense", r, &j, &v, &err), -1);
	judge_cache_close(c);
	char *text = test_slurp(path);
	char want[64];
	snprintf(want, sizeof want, "\"key\":\"%s\",\"group\":\"%s\",\"run\"", k3, group);
	assert_non_null(strstr(text, want));
	free(text);
	/* Read back: the group is known again. */
	c = judge_cache_open(path, &err);
	assert_non_null(c);
	assert_null(judge_cache_warning(c));
	assert_true(judge_cache_get_latest(c, group)->score == 5);
	/* Without examples a line has no group: its key is its group. */
	assert_int_equal(judge_cache_put_in(c, base, base, r, &j, &v, &err), 0);
	assert_non_null(judge_cache_get_latest(c, base));
	judge_cache_close(c);
	text = test_slurp(path);
	snprintf(want, sizeof want, "\"key\":\"%s\",\"run\"", base);
	assert_non_null(strstr(text, want));
	free(text);
	json_decref(none);
	json_decref(one);
	json_decref(two);
	json_decref(swapped);
	run_free(r);
}

static void test_ca_file(void **st)
{
	(void)st;
	struct error err = {0};
	char path[320];
	snprintf(path, sizeof path, "%s/ca.pem", dir);
	test_write_file(path, "not a certificate\n");
	struct judge_client_opts o = { .ca_file = path };
	assert_null(judge_client_new(&o, &err));
	assert_non_null(strstr(err.msg, "no PEM certificate"));
	snprintf(path, sizeof path, "%s/missing.pem", dir);
	assert_null(judge_client_new(&o, &err));
	assert_non_null(strstr(err.msg, "missing.pem"));
	/* A well-formed file is taken (its certificates are checked by TLS
	 * only when used; nothing here talks TLS). */
	snprintf(path, sizeof path, "%s/ca.pem", dir);
	test_write_file(path, "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n");
	struct judge_client *c = judge_client_new(&o, &err);
	if (!c)
		fail_msg("%s", err.msg);
	judge_client_free(c);
}

int main(int argc, char **argv)
{
	(void)argc;
	argv0 = argv[0];
	signal(SIGPIPE, SIG_IGN);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_plain_answer, setup, teardown),
		cmocka_unit_test_setup_teardown(test_prompts_in_turn, setup, teardown),
		cmocka_unit_test_setup_teardown(test_skipped_job, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing_key, setup, teardown),
		cmocka_unit_test_setup_teardown(test_texts_reach_the_job, setup, teardown),
		cmocka_unit_test_setup_teardown(test_retry_after_429, setup, teardown),
		cmocka_unit_test_setup_teardown(test_retry_5xx_drop_truncate, setup, teardown),
		cmocka_unit_test_setup_teardown(test_retries_run_out, setup, teardown),
		cmocka_unit_test_setup_teardown(test_long_retry_after, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_retry_on_4xx, setup, teardown),
		cmocka_unit_test_setup_teardown(test_trickle_times_out, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_redirect_not_followed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_concurrency_limit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cancel, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pollfds, setup, teardown),
		cmocka_unit_test_setup_teardown(test_anthropic_wire, setup, teardown),
		cmocka_unit_test_setup_teardown(test_azure_wire, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_key_in_files, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cache, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cache_examples, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ca_file, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
