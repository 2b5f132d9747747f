/* test_exec_scorer.c - the exec scorer's per-run protocol with scripts the
 * test writes into a temporary folder: well-behaved ones in Python and
 * JavaScript, and ones that are slow, crash, print garbage or too much,
 * cannot run, score off the scale, do not read stdin; the cleaned
 * environment; configuration errors with their positions. */
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "config/config.h"
#include "exec_fixture.h"
#include "runs/format.h"
#include "scorers/scorer.h"
#include "util/error.h"

static const char good_py[] =
	"import json, sys\n"
	"run = json.load(sys.stdin)\n"
	"names = [c['name'] for c in run['calls']]\n"
	"ok = 'get_order' in names\n"
	"print(json.dumps({'score': 1 if ok else 0, 'reason': 'calls: ' + ','.join(names),\n"
	"                  'details': {'id': run['id'], 'format': run['format'],\n"
	"                              'args': run['calls'][0]['arguments'] if names else None,\n"
	"                              'result': run['calls'][0]['result'] if names else None,\n"
	"                              'roles': [m['role'] for m in run['messages']],\n"
	"                              'task': run['record'].get('task_id'),\n"
	"                              'expected': run['expected']}}))\n";

static const char good_js[] =
	"let s = '';\n"
	"process.stdin.on('data', d => s += d);\n"
	"process.stdin.on('end', () => {\n"
	"  const run = JSON.parse(s);\n"
	"  const n = run.messages.filter(m => m.role === 'assistant').length;\n"
	"  console.log(JSON.stringify({score: n, passed: n >= 2, reason: `${n} assistant messages`}));\n"
	"});\n";

static int setup(void **state)
{
	(void)state;
	assert_int_equal(exec_fixture_setup(), 0);
	exec_write("checks/good.py", good_py, 0644);
	exec_write("checks/good.js", good_js, 0644);
	/* Never answers: its sleep, in the background, writes its pid to
	 * sleep.pid and lasts for good, so only the timeout ends the run. */
	exec_write("slow.sh", "#!/bin/sh\ncat >/dev/null\nsleep 100000 &\n"
	           "echo $! > sleep.pid.tmp && mv sleep.pid.tmp sleep.pid\nwait\n", 0755);
	exec_write("crash.sh", "#!/bin/sh\ncat >/dev/null\necho first >&2\necho 'it broke' >&2\nexit 3\n", 0755);
	exec_write("segv.sh", "#!/bin/sh\ncat >/dev/null\nkill -SEGV $$\n", 0755);
	exec_write("garbage.sh", "#!/bin/sh\ncat >/dev/null\necho 'score: high'\n", 0755);
	exec_write("huge.sh", "#!/bin/sh\ncat >/dev/null\nyes 0123456789abcdef\n", 0755);
	exec_write("noexec.sh", "#!/bin/sh\necho '{\"score\": 1}'\n", 0644);
	exec_write("off.sh", "#!/bin/sh\ncat >/dev/null\necho '{\"score\": 7}'\n", 0755);
	exec_write("deaf.sh", "#!/bin/sh\necho '{\"score\": 0.25}'\n", 0755);
	exec_write("env.sh", "#!/bin/sh\ncat >/dev/null\n"
	           "printf '{\"score\": 1, \"details\": {\"mode\": \"%s\", \"secret\": \"%s\"}}' "
	           "\"$MY_CHECK_MODE\" \"$TCR_SECRET\"\n", 0755);
	exec_write("nostat.sh", "#!/nonexistent/interpreter\n", 0755);
	setenv("MY_CHECK_MODE", "strict", 1);
	setenv("TCR_SECRET", "hidden", 1);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	exec_fixture_cleanup();
	return 0;
}

/* Scores the chat run with the one scorer of `entry`. */
static void score_one(const char *entry, json_t *expected, struct verdict *v)
{
	struct config cfg;
	struct error err = {0};
	if (exec_load(&cfg, entry, &err))
		fail_msg("config: %s", err.msg);
	struct run *r = exec_chat_run("r1");
	scorer_run(&cfg.scorers[0], r, expected, NULL, v);
	run_free(r);
	config_free(&cfg);
}

static void expect_error(const char *entry, const char *needle)
{
	struct verdict v;
	score_one(entry, NULL, &v);
	assert_int_equal(v.status, VERDICT_ERROR);
	if (!strstr(v.message, needle))
		fail_msg("message '%s' lacks '%s'", v.message, needle);
	verdict_clear(&v);
}

static void test_python(void **state)
{
	(void)state;
	struct verdict v;
	json_t *exp = json_pack("{s:[s]}", "tools", "get_order");
	score_one("  - {id: py, type: exec, command: [python3, checks/good.py], timeout: 5m}\n", exp, &v);
	json_decref(exp);
	if (v.status != VERDICT_OK)
		fail_msg("%s", v.message);
	assert_true(v.score == 1 && v.passed);
	assert_string_equal(json_string_value(json_object_get(v.details, "reason")), "calls: get_order");
	json_t *d = json_object_get(v.details, "details");
	assert_memory_equal(json_string_value(json_object_get(d, "id")), "t.jsonl:", 8);
	assert_string_equal(json_string_value(json_object_get(d, "format")), "openai-chat");
	assert_string_equal(json_string_value(json_object_get(d, "task")), "t1");
	assert_string_equal(json_string_value(json_object_get(d, "args")), "{\"order_id\":\"1042\"}");
	assert_string_equal(json_string_value(json_object_get(d, "result")), "shipped");
	assert_string_equal(json_string_value(json_array_get(json_object_get(d, "roles"), 2)), "tool");
	json_t *e = json_object_get(json_object_get(d, "expected"), "tools");
	assert_string_equal(json_string_value(json_array_get(e, 0)), "get_order");
	verdict_clear(&v);
}

static void test_node_with_scale(void **state)
{
	(void)state;
	struct verdict v;
	score_one("  - id: js\n    type: exec\n    command: [node, checks/good.js]\n"
	          "    scale: {min: 0, max: 10, pass: 5}\n    timeout: 5m\n", NULL, &v);
	if (v.status != VERDICT_OK)
		fail_msg("%s", v.message);
	assert_true(v.score == 2);
	assert_true(v.passed);          /* the script's "passed" wins over pass: 5 */
	assert_string_equal(json_string_value(json_object_get(v.details, "reason")),
	                    "2 assistant messages");
	verdict_clear(&v);
}

/* Whether process `pid` is gone or a zombie (killed, not yet reaped by
 * whoever inherited it). */
static bool process_ended(long pid)
{
	char path[64], stat[256];
	snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return true;
	size_t n = fread(stat, 1, sizeof stat - 1, f);
	fclose(f);
	stat[n] = '\0';
	const char *close = strrchr(stat, ')');
	return !close || close[1] != ' ' || close[2] == 'Z' || close[2] == 'X';
}

static void test_timeout(void **state)
{
	(void)state;
	/* slow.sh never answers, so the timeout ends every try. The sleep it
	 * starts must die with it (the process group is killed): it would
	 * hold the output pipe open otherwise. A try that timed out before
	 * the shell had started its sleep proves nothing about the group, so
	 * the next waits longer (a busy machine may need it). */
	static const char *const waits[] = { "300ms", "3s", "30s", "5m" };
	char pidfile[600];
	snprintf(pidfile, sizeof pidfile, "%s/sleep.pid", exec_tmpdir);
	long pid = 0;
	for (size_t i = 0; i < sizeof waits / sizeof *waits && !pid; i++) {
		unlink(pidfile);
		char entry[128];
		snprintf(entry, sizeof entry, "  - {id: s, type: exec, command: [./slow.sh], timeout: %s}\n", waits[i]);
		expect_error(entry, "timed out");
		assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);      /* no zombie left */
		FILE *f = fopen(pidfile, "r");
		if (f) {
			assert_int_equal(fscanf(f, "%ld", &pid), 1);
			fclose(f);
		}
	}
	if (!pid)
		fail_msg("slow.sh never started its sleep before the timeout");
	/* Killed at once; gone (or a zombie of init's) soon after: polled, at
	 * most a minute. */
	for (int i = 0; i < 6000 && !process_ended(pid); i++)
		poll(NULL, 0, 10);
	if (!process_ended(pid))
		fail_msg("the sleep of the group (pid %ld) outlived the timeout", pid);
}

static void test_crash(void **state)
{
	(void)state;
	expect_error("  - {id: c, type: exec, command: [./crash.sh], timeout: 5m}\n", "exit status 3; stderr: first\nit broke");
	expect_error("  - {id: c, type: exec, command: [./segv.sh], timeout: 5m}\n", "killed by signal 11");
}

static void test_bad_output(void **state)
{
	(void)state;
	expect_error("  - {id: g, type: exec, command: [./garbage.sh], timeout: 5m}\n", "output is not {\"score\": X, ...}: score: high");
	expect_error("  - {id: h, type: exec, command: [./huge.sh], timeout: 5m}\n", "output past 1048576 bytes");
	expect_error("  - {id: o, type: exec, command: [./off.sh], timeout: 5m}\n", "score 7 is off the scale 0..1");
	expect_error("  - {id: n, type: exec, command: [./nostat.sh], timeout: 5m}\n", "cannot run the program");
}

static void test_deaf(void **state)
{
	(void)state;
	/* A run far larger than a pipe holds, to a script that never reads. */
	struct config cfg;
	struct error err = {0};
	assert_int_equal(exec_load(&cfg, "  - {id: d, type: exec, command: [./deaf.sh], timeout: 5m}\n", &err), 0);
	struct strbuf big = STRBUF_INIT;
	strbuf_addstr(&big, "{\"messages\":[{\"role\":\"user\",\"content\":\"");
	for (int i = 0; i < 400000; i++)
		strbuf_addstr(&big, "word ");
	strbuf_addstr(&big, "\"}]}");
	json_t *rec = json_loads(big.buf, 0, NULL);
	strbuf_release(&big);
	struct run *r = run_new(rec, "t.jsonl", 1, -1);
	json_decref(rec);
	assert_int_equal(format_load(r, format_find("openai-chat"), &err), 0);
	struct verdict v;
	scorer_run(&cfg.scorers[0], r, NULL, NULL, &v);
	if (v.status != VERDICT_OK)
		fail_msg("%s", v.message);
	assert_true(v.score == 0.25 && !v.passed);
	verdict_clear(&v);
	run_free(r);
	config_free(&cfg);
}

static void test_env(void **state)
{
	(void)state;
	struct verdict v;
	score_one("  - {id: e, type: exec, command: [./env.sh], env: [MY_CHECK_MODE], timeout: 5m}\n", NULL, &v);
	if (v.status != VERDICT_OK)
		fail_msg("%s", v.message);
	json_t *d = json_object_get(v.details, "details");
	assert_string_equal(json_string_value(json_object_get(d, "mode")), "strict");
	assert_string_equal(json_string_value(json_object_get(d, "secret")), "");
	verdict_clear(&v);
}

static void expect_conf_error(const char *entry, const char *want)
{
	struct config cfg;
	struct error err = {0};
	assert_int_equal(exec_load(&cfg, entry, &err), -1);
	if (!strstr(err.msg, want))
		fail_msg("error '%s' lacks '%s'", err.msg, want);
}

static void test_conf_errors(void **state)
{
	(void)state;
	expect_conf_error("  - {id: x, type: exec}\n", "needs 'command'");
	expect_conf_error("  - {id: x, type: exec, command: [./noexec.sh]}\n",
	                  "s.yaml:2:34: program '");
	expect_conf_error("  - {id: x, type: exec, command: [./noexec.sh]}\n", "not an executable file");
	expect_conf_error("  - {id: x, type: exec, command: [./missing]}\n", "not an executable file");
	expect_conf_error("  - {id: x, type: exec, command: [no-such-program-anywhere]}\n",
	                  "s.yaml:2:34: program 'no-such-program-anywhere' is not found on PATH");
	expect_conf_error("  - id: x\n    type: exec\n    command: [./off.sh]\n    timeout: 10 s\n",
	                  "s.yaml:5:14: timeout must be a duration");
	expect_conf_error("  - id: x\n    type: exec\n    command: [./off.sh]\n    protocol: batch\n",
	                  "s.yaml:5:15: unknown protocol 'batch'");
	expect_conf_error("  - id: x\n    type: exec\n    command: [./off.sh]\n    scale: {min: 1, max: 0}\n",
	                  "s.yaml:5:12: scale min 1 must be below max 0");
	expect_conf_error("  - id: x\n    type: exec\n    command: [./off.sh]\n    scale: {lo: 1}\n",
	                  "unknown key 'lo' in scale");
	expect_conf_error("  - id: x\n    type: exec\n    command: []\n", "'command' must name a program");
	struct config cfg;
	struct error err = {0};
	assert_int_equal(exec_load(&cfg, "  - {id: x, type: exec, command: [./off.sh], timeout: 2m}\n"
	                            "  - {id: y, type: exec, command: [./off.sh], timeout: 500ms}\n"
	                            "  - {id: z, type: exec, command: [./off.sh], timeout: 1.5}\n",
	                  &err), 0);
	assert_int_equal(json_integer_value(json_object_get(cfg.scorers[0].fixed, "timeout_ms")), 120000);
	assert_int_equal(json_integer_value(json_object_get(cfg.scorers[1].fixed, "timeout_ms")), 500);
	assert_int_equal(json_integer_value(json_object_get(cfg.scorers[2].fixed, "timeout_ms")), 1500);
	config_free(&cfg);
}

/* Several threads score at once (score -j): each gets its own child's
 * answer, and one thread's slow child does not hold up the others. */
struct thread_job {
	const struct scorer_conf *sc;
	int ok, errors;
};

static void *thread_main(void *arg)
{
	struct thread_job *job = arg;
	for (int i = 0; i < 8; i++) {
		struct run *r = exec_chat_run("r1");
		struct verdict v;
		scorer_run(job->sc, r, NULL, NULL, &v);
		if (v.status == VERDICT_OK && v.score == 1)
			job->ok++;
		else if (v.status == VERDICT_ERROR && strstr(v.message, "timed out"))
			job->errors++;
		verdict_clear(&v);
		run_free(r);
	}
	return NULL;
}

static void test_threads(void **state)
{
	(void)state;
	struct config cfg;
	struct error err = {0};
	assert_int_equal(exec_load(&cfg, "  - {id: e, type: exec, command: [./env.sh], timeout: 5m}\n"
	                            "  - {id: s, type: exec, command: [./slow.sh], timeout: 100ms}\n",
	                  &err), 0);
	struct thread_job jobs[4];
	pthread_t th[4];
	for (int i = 0; i < 4; i++) {
		jobs[i] = (struct thread_job){ .sc = &cfg.scorers[i == 3] };
		assert_int_equal(pthread_create(&th[i], NULL, thread_main, &jobs[i]), 0);
	}
	for (int i = 0; i < 4; i++)
		pthread_join(th[i], NULL);
	for (int i = 0; i < 3; i++)
		assert_int_equal(jobs[i].ok, 8);
	assert_int_equal(jobs[3].errors, 8);
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	config_free(&cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_python),
		cmocka_unit_test(test_node_with_scale),
		cmocka_unit_test(test_timeout),
		cmocka_unit_test(test_crash),
		cmocka_unit_test(test_bad_output),
		cmocka_unit_test(test_deaf),
		cmocka_unit_test(test_env),
		cmocka_unit_test(test_conf_errors),
		cmocka_unit_test(test_threads),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
