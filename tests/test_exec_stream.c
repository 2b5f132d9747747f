/* test_exec_stream.c - the exec scorer's stream protocol (one process,
 * one JSON line in and out per run) with scripts that behave and scripts
 * that are slow, crash, print garbage, too much, nothing or twice; the
 * process pool under threads; and the answers' cache (by command, script
 * content, variables and run). */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "exec_fixture.h"
#include "scorers/scorer.h"
#include "util/error.h"

static const char stream_py[] =
	"import json, os, sys, time\n"
	"n = 0\n"
	"for line in sys.stdin:\n"
	"    run = json.loads(line)\n"
	"    n += 1\n"
	"    rid = run['record']['id']\n"
	"    if rid == 'crash':\n"
	"        sys.stderr.write('cannot go on\\n')\n"
	"        sys.exit(3)\n"
	"    if rid == 'quiet':\n"
	"        sys.exit(0)\n"
	"    if rid == 'garbage':\n"
	"        print('score: high', flush=True)\n"
	"        continue\n"
	"    if rid == 'huge':\n"
	"        print('x' * 2000000, flush=True)\n"
	"        continue\n"
	"    if rid == 'both':\n"
	"        sys.stdout.write(json.dumps({'id': 'an-earlier-run', 'score': 0}) + '\\n' +\n"
	"                         json.dumps({'id': run['id'], 'score': 1, 'details': {'pid': os.getpid(),\n"
	"                                     'n': n, 'calls': []}}) + '\\n')\n"
	"        sys.stdout.flush()\n"
	"        continue\n"
	"    if rid == 'twice':\n"
	"        print(json.dumps({'id': run['id'], 'score': 1}), flush=True)\n"
	"    print(json.dumps({'id': run['id'], 'score': 1, 'details': {'pid': os.getpid(), 'n': n,\n"
	"                      'calls': [c['name'] for c in run['calls']]}}), flush=True)\n";

/* The stream protocol in sh, which starts in a moment even on a busy
 * machine: answers each run with its pid and count, and never answers the
 * run "slow" (it blocks for good), so only the timeout ends that run. */
static const char stream_sh[] =
	"#!/bin/sh\n"
	"n=0\n"
	"while IFS= read -r line; do\n"
	"\tn=$((n + 1))\n"
	"\tcase $line in *'\"slow\"'*) while :; do sleep 1000; done ;; esac\n"
	"\tprintf '{\"score\": 1, \"details\": {\"pid\": %s, \"n\": %s}}\\n' \"$$\" \"$n\"\n"
	"done\n";

static const char stream_js[] =
	"const rl = require('readline').createInterface({input: process.stdin});\n"
	"let n = 0;\n"
	"rl.on('line', line => {\n"
	"  const run = JSON.parse(line);\n"
	"  n++;\n"
	"  console.log(JSON.stringify({score: run.calls.length + 2, reason: `run ${n}`}));\n"
	"});\n";

static int setup(void **state)
{
	(void)state;
	if (exec_fixture_setup() < 0)
		return -1;
	exec_write("checks/stream.py", stream_py, 0644);
	exec_write("checks/stream.js", stream_js, 0644);
	exec_write("checks/stream.sh", stream_sh, 0755);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	exec_fixture_cleanup();
	return 0;
}

static void score_id(const struct scorer_conf *sc, const char *id, struct verdict *v)
{
	struct run *r = exec_chat_run(id);
	scorer_run(sc, r, NULL, NULL, v);
	run_free(r);
}

static json_int_t detail_int(const struct verdict *v, const char *key)
{
	return json_integer_value(json_object_get(json_object_get(v->details, "details"), key));
}

/* The verdict of `id` must be ok, and its details.n is `n`. Returns the
 * pid of the process that answered; clears the verdict. */
static json_int_t check_ok(struct verdict *v, const char *id, json_int_t n)
{
	if (v->status != VERDICT_OK)
		fail_msg("%s: %s", id, v->message);
	assert_true(v->score == 1);
	if (detail_int(v, "n") != n)
		fail_msg("%s: answer %lld of its process, expected %lld", id,
		         (long long)detail_int(v, "n"), (long long)n);
	json_int_t pid = detail_int(v, "pid");
	verdict_clear(v);
	return pid;
}

/* Scores `id`; see check_ok. */
static json_int_t expect_ok(const struct scorer_conf *sc, const char *id, json_int_t n)
{
	struct verdict v;
	score_id(sc, id, &v);
	return check_ok(&v, id, n);
}

static void expect_err(const struct scorer_conf *sc, const char *id, const char *needle)
{
	struct verdict v;
	score_id(sc, id, &v);
	assert_int_equal(v.status, VERDICT_ERROR);
	if (!strstr(v.message, needle))
		fail_msg("%s: message '%s' lacks '%s'", id, v.message, needle);
	verdict_clear(&v);
}

static void test_stream_one_process(void **state)
{
	(void)state;
	struct config cfg;
	struct error err = {0};
	assert_int_equal(exec_load(&cfg, "  - id: s\n    type: exec\n    command: [python3, checks/stream.py]\n"
	                                 "    protocol: stream\n    timeout: 5m\n    cache: false\n",
	                           &err), 0);
	const struct scorer_conf *sc = &cfg.scorers[0];
	json_int_t p1 = expect_ok(sc, "r1", 1);
	assert_int_equal(expect_ok(sc, "r2", 2), p1);
	assert_int_equal(expect_ok(sc, "r3", 3), p1);
	assert_int_not_equal(p1, getpid());
	config_free(&cfg);
	/* Closing the configuration ended the process and reaped it. */
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
}

/* Scores `id` until an answer comes, at most `tries` times (a run that
 * times out costs its process, and the next try starts a fresh one): a
 * child slow to start on a busy machine is not a failure, one that never
 * answers is. See check_ok. */
static json_int_t expect_ok_within(const struct scorer_conf *sc, const char *id, json_int_t n, int tries)
{
	struct verdict v;
	for (int i = 1;; i++) {
		score_id(sc, id, &v);
		if (i == tries || v.status != VERDICT_ERROR || !strstr(v.message, "timed out"))
			break;
		verdict_clear(&v);
	}
	return check_ok(&v, id, n);
}

/* The timeout: a run its process never answers is an error once the
 * timeout passes, that process is killed, and the next run gets a fresh
 * one. The process is sh, which never answers the run "slow", so the
 * timeout is the only way out of it; a timeout of a few seconds is then
 * all the test waits. */
static void test_stream_timeout(void **state)
{
	(void)state;
	struct config cfg;
	struct error err = {0};
	assert_int_equal(exec_load(&cfg, "  - id: s\n    type: exec\n    command: [./checks/stream.sh]\n"
	                                 "    protocol: stream\n    timeout: 3s\n    cache: false\n",
	                           &err), 0);
	const struct scorer_conf *sc = &cfg.scorers[0];
	json_int_t p1 = expect_ok_within(sc, "r1", 1, 5);
	expect_err(sc, "slow", "timed out");
	/* The silent process was killed; the next run gets a fresh one. */
	json_int_t p2 = expect_ok_within(sc, "r3", 1, 5);
	assert_int_not_equal(p2, p1);
	config_free(&cfg);
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
}

/* Processes that crash, print garbage, too much, nothing or twice. The
 * timeout is only a guard against a hang: nothing here waits for it. */
static void test_stream_misbehaving(void **state)
{
	(void)state;
	struct config cfg;
	struct error err = {0};
	assert_int_equal(exec_load(&cfg, "  - id: s\n    type: exec\n    command: [python3, checks/stream.py]\n"
	                                 "    protocol: stream\n    timeout: 5m\n    cache: false\n",
	                           &err), 0);
	const struct scorer_conf *sc = &cfg.scorers[0];
	json_int_t p1 = expect_ok(sc, "r1", 1);
	expect_err(sc, "crash", "exit status 3; stderr: cannot go on");
	/* The crashed process is gone; the next run gets a fresh one. */
	json_int_t p3 = expect_ok(sc, "r3", 1);
	assert_int_not_equal(p3, p1);
	/* A line that is not an answer costs that run only: the process stays. */
	expect_err(sc, "garbage", "output is not {\"score\": X, ...}: score: high");
	assert_int_equal(expect_ok(sc, "r4", 3), p3);
	expect_err(sc, "huge", "output past 1048576 bytes");
	expect_err(sc, "quiet", "the program ended (exit status 0) without answering");
	/* Two lines for one run: the first is its answer; the second names
	 * that run and must not become the next run's answer. */
	struct verdict v;
	score_id(sc, "twice", &v);
	assert_int_equal(v.status, VERDICT_OK);
	assert_null(json_object_get(v.details, "details"));
	verdict_clear(&v);
	expect_ok(sc, "r5", 2);
	/* A stale line and the answer in one write: the answer is the line
	 * after it, not lost with it. */
	expect_ok(sc, "both", 3);
	expect_ok(sc, "r6", 4);
	config_free(&cfg);
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
}

static void test_stream_node(void **state)
{
	(void)state;
	struct config cfg;
	struct error err = {0};
	assert_int_equal(exec_load(&cfg, "  - id: js\n    type: exec\n    command: [node, checks/stream.js]\n"
	                                 "    protocol: stream\n    scale: {min: 0, max: 5, pass: 2.5}\n"
	                                 "    timeout: 5m\n    cache: false\n", &err), 0);
	for (int i = 1; i <= 3; i++) {
		struct verdict v;
		score_id(&cfg.scorers[0], "r", &v);
		if (v.status != VERDICT_OK)
			fail_msg("%s", v.message);
		assert_true(v.score == 3 && v.passed);
		char want[16];
		snprintf(want, sizeof want, "run %d", i);
		assert_string_equal(json_string_value(json_object_get(v.details, "reason")), want);
		verdict_clear(&v);
	}
	config_free(&cfg);
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
}

/* Threads share the pool: never more processes than runs scored at once. */
struct job {
	const struct scorer_conf *sc;
	json_int_t pids[8];
	int ok;
};

static void *job_main(void *arg)
{
	struct job *j = arg;
	for (int i = 0; i < 8; i++) {
		struct verdict v;
		score_id(j->sc, "r", &v);
		if (v.status == VERDICT_OK) {
			j->pids[j->ok++] = detail_int(&v, "pid");
		}
		verdict_clear(&v);
	}
	return NULL;
}

static void test_stream_threads(void **state)
{
	(void)state;
	struct config cfg;
	struct error err = {0};
	assert_int_equal(exec_load(&cfg, "  - id: s\n    type: exec\n    command: [python3, checks/stream.py]\n"
	                                 "    protocol: stream\n    timeout: 5m\n    cache: false\n",
	                           &err), 0);
	struct job jobs[4];
	pthread_t th[4];
	for (int i = 0; i < 4; i++) {
		jobs[i] = (struct job){ .sc = &cfg.scorers[0] };
		assert_int_equal(pthread_create(&th[i], NULL, job_main, &jobs[i]), 0);
	}
	json_int_t seen[32];
	int nseen = 0;
	for (int i = 0; i < 4; i++) {
		pthread_join(th[i], NULL);
		assert_int_equal(jobs[i].ok, 8);
		for (int k = 0; k < 8; k++) {
			int known = 0;
			for (int s = 0; s < nseen; s++)
				known |= seen[s] == jobs[i].pids[k];
			if (!known)
				seen[nseen++] = jobs[i].pids[k];
		}
	}
	assert_true(nseen >= 1 && nseen <= 4);
	config_free(&cfg);
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
}

/* ---- the cache ------------------------------------------------------------ */

static int count_lines(const char *name)
{
	char path[600];
	snprintf(path, sizeof path, "%s/%s", exec_tmpdir, name);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	int n = 0;
	for (int c; (c = fgetc(f)) != EOF;)
		n += c == '\n';
	fclose(f);
	return n;
}

/* checks/count.sh: counts its runs in a file and answers `answer`. */
static void write_counter(const char *answer, const char *extra)
{
	char text[1400];
	snprintf(text, sizeof text,
	         "#!/bin/sh\n# %s\ncat >/dev/null\necho run >> '%s/count'\n"
	         "printf '%%s\\n' '%s'\n", extra, exec_tmpdir, answer);
	exec_write("checks/count.sh", text, 0755);
}

/* Reads the configuration afresh (as a new session does) and scores `id`. */
static void score_fresh(const char *entries, const char *id, struct verdict *v)
{
	struct config cfg;
	struct error err = {0};
	if (exec_load(&cfg, entries, &err))
		fail_msg("config: %s", err.msg);
	score_id(&cfg.scorers[0], id, v);
	config_free(&cfg);
}

static void expect_score(const char *entries, const char *id, double score, int runs)
{
	struct verdict v;
	score_fresh(entries, id, &v);
	if (v.status != VERDICT_OK)
		fail_msg("%s: %s", id, v.message);
	assert_true(v.score == score);
	verdict_clear(&v);
	if (count_lines("count") != runs)
		fail_msg("%s: the command ran %d times, expected %d", id, count_lines("count"), runs);
}

static void test_cache(void **state)
{
	(void)state;
	const char *per_run = "  - {id: c, type: exec, command: [./checks/count.sh], timeout: 5m}\n";
	write_counter("{\"score\": 0.75}", "v1");
	expect_score(per_run, "r1", 0.75, 1);
	expect_score(per_run, "r1", 0.75, 1);           /* kept: not run again */
	expect_score(per_run, "r2", 0.75, 2);           /* another run */
	/* The scale is applied to the kept answer: no new run. */
	struct verdict v;
	score_fresh("  - {id: c, type: exec, command: [./checks/count.sh], timeout: 5m, scale: {min: 0, max: 1, pass: 0.8}}\n",
	            "r1", &v);
	assert_true(v.status == VERDICT_OK && v.score == 0.75 && !v.passed);
	verdict_clear(&v);
	assert_int_equal(count_lines("count"), 2);
	/* The script's content is part of the key. */
	write_counter("{\"score\": 0.5}", "v2");
	expect_score(per_run, "r1", 0.5, 3);
	expect_score(per_run, "r1", 0.5, 3);
	/* So are the values of the variables it is given. */
	const char *with_env = "  - {id: c, type: exec, command: [./checks/count.sh], timeout: 5m, env: [TCR_TEST_MODE]}\n";
	setenv("TCR_TEST_MODE", "a", 1);
	expect_score(with_env, "r1", 0.5, 4);
	expect_score(with_env, "r1", 0.5, 4);
	setenv("TCR_TEST_MODE", "b", 1);
	expect_score(with_env, "r1", 0.5, 5);
	unsetenv("TCR_TEST_MODE");
	/* cache: false asks every time. */
	const char *uncached = "  - {id: c, type: exec, command: [./checks/count.sh], timeout: 5m, cache: false}\n";
	expect_score(uncached, "r1", 0.5, 6);
	expect_score(uncached, "r1", 0.5, 7);
	/* A failure is not kept. */
	write_counter("not json", "v3");
	score_fresh(per_run, "r1", &v);
	assert_int_equal(v.status, VERDICT_ERROR);
	verdict_clear(&v);
	score_fresh(per_run, "r1", &v);
	assert_int_equal(v.status, VERDICT_ERROR);
	verdict_clear(&v);
	assert_int_equal(count_lines("count"), 9);
	/* The stream protocol keeps its answers too. */
	write_counter("{\"score\": 1}", "v4");
	const char *stream = "  - id: s\n    type: exec\n    command: [python3, checks/stream.py]\n"
	                     "    protocol: stream\n    timeout: 5m\n";
	score_fresh(stream, "r9", &v);
	assert_int_equal(v.status, VERDICT_OK);
	json_int_t pid = detail_int(&v, "pid");
	verdict_clear(&v);
	score_fresh(stream, "r9", &v);
	assert_int_equal(v.status, VERDICT_OK);
	assert_int_equal(detail_int(&v, "pid"), pid);   /* the first process's answer */
	verdict_clear(&v);
}

static void test_cache_broken_file(void **state)
{
	(void)state;
	/* Every line of every cache file broken: answers are asked again and
	 * kept after the broken lines. */
	char cmd[800];
	snprintf(cmd, sizeof cmd, "for f in '%s'/cache/exec/*.jsonl; do printf 'garbage\\n{\"v\":1}\\n' > \"$f\"; done",
	         exec_tmpdir);
	assert_int_equal(system(cmd), 0);
	write_counter("{\"score\": 0.25}", "v5");
	int before = count_lines("count");
	const char *per_run = "  - {id: c, type: exec, command: [./checks/count.sh], timeout: 5m}\n";
	expect_score(per_run, "r1", 0.25, before + 1);
	expect_score(per_run, "r1", 0.25, before + 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stream_one_process),
		cmocka_unit_test(test_stream_timeout),
		cmocka_unit_test(test_stream_misbehaving),
		cmocka_unit_test(test_stream_node),
		cmocka_unit_test(test_stream_threads),
		cmocka_unit_test(test_cache),
		cmocka_unit_test(test_cache_broken_file),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
