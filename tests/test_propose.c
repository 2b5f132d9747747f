/* test_propose.c - config/propose: the run id path (the usual ids, none,
 * duplicates, task_id with trial), the scale of the verdicts the records
 * carry, the join with another file under another key name, the judge
 * block, and that the YAML proposed loads and is written atomically. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/config.h"
#include "config/propose.h"
#include "judge/judge.h"
#include "runs/dataset.h"
#include "test_files.h"
#include "util/error.h"

/* What the configurations are loaded with (the data folder of the
 * built-in prompts), as a command lends it. */
static struct config_opts test_load;

static char dir[1024];

/* One openai-chat record: a user turn, a call of `tool`, its result, an
 * answer, and the extra fields given (a JSON object's members, or ""). */
static void add_run(struct strbuf *sb, const char *extra, const char *tool)
{
	strbuf_addf(sb, "{%s%s\"messages\":[{\"role\":\"user\",\"content\":\"hi\"},"
	            "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"c1\","
	            "\"type\":\"function\",\"function\":{\"name\":\"%s\",\"arguments\":\"{}\"}}]},"
	            "{\"role\":\"tool\",\"tool_call_id\":\"c1\",\"content\":\"ok\"},"
	            "{\"role\":\"assistant\",\"content\":\"done\"}]}\n",
	            extra, *extra ? "," : "", tool);
}

/* A path in the test folder, kept for the whole run (each call its own). */
static char *in_dir(const char *name)
{
	static char paths[256][PATH_MAX];
	static int k;
	assert_true(k < 256);
	char *p = paths[k++];
	snprintf(p, PATH_MAX, "%s/%s", dir, name);
	return p;
}

/* Writes the runs (one extra-fields string each) to NAME in the folder. */
static const char *runs_file(const char *name, const char *const *extras, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < n; i++)
		add_run(&sb, extras[i], i % 2 ? "track_parcel" : "get_order");
	const char *path = in_dir(name);
	test_write_file(path, sb.buf);
	strbuf_release(&sb);
	return path;
}

/* Proposes from the inputs with the YAML in the test folder; asserts that
 * the YAML loads and returns it in *p. */
static void propose(const char *const *inputs, size_t n, struct proposal *p)
{
	struct error err = {0};
	const struct propose_opts o = { .out_path = in_dir("tcreview.yaml"), .load = &test_load };
	int rc = config_propose(inputs, n, &o, p, &err);
	if (rc)
		fail_msg("config_propose: %s", err.msg);
	struct config c;
	rc = config_load_string(&c, &test_load, "proposed", dir, p->yaml.buf, p->yaml.len, &err);
	if (rc)
		fail_msg("the YAML does not load: %s\n%s", err.msg, p->yaml.buf);
	assert_true(c.nscorers >= 2);
	assert_string_equal(c.scorers[0].id, "tool-errors");
	assert_string_equal(c.scorers[1].id, "unanswered-calls");
	config_free(&c);
}

static void has(const struct strbuf *sb, const char *text)
{
	if (!strstr(sb->buf, text))
		fail_msg("'%s' not in:\n%s", text, sb->buf);
}

static void lacks(const struct strbuf *sb, const char *text)
{
	if (strstr(sb->buf, text))
		fail_msg("'%s' unexpectedly in:\n%s", text, sb->buf);
}

static void test_usual_id(void **state)
{
	(void)state;
	const char *const extras[] = { "\"run_id\":\"a\"", "\"run_id\":\"b\"", "\"run_id\":\"c\"" };
	const char *in = runs_file("usual.jsonl", extras, 3);
	struct proposal p;
	propose(&in, 1, &p);
	has(&p.yaml, "runs:\n  id: run_id\n");
	has(&p.report, "run ids: run_id is unique across the runs read");
	assert_int_equal(p.nruns, 3);
	assert_false(p.sampled);
	proposal_free(&p);
}

static void test_no_ids(void **state)
{
	(void)state;
	const char *const extras[] = { "", "", "" };
	const char *in = runs_file("noids.jsonl", extras, 3);
	struct proposal p;
	propose(&in, 1, &p);
	lacks(&p.yaml, "\nruns:");
	has(&p.yaml, "# run ids: the records carry no id field");
	has(&p.report, "kept the default");
	proposal_free(&p);
}

static void test_duplicate_ids(void **state)
{
	(void)state;
	const char *const extras[] = { "\"id\":\"x\"", "\"id\":\"y\"", "\"id\":\"x\"" };
	const char *in = runs_file("dups.jsonl", extras, 3);
	struct proposal p;
	propose(&in, 1, &p);
	lacks(&p.yaml, "\nruns:");
	char want[PATH_MAX + 64];
	snprintf(want, sizeof want, "%s:3 has the same id as %s:1", in, in);
	has(&p.report, want);
	has(&p.report, "kept the default");
	proposal_free(&p);
}

static void test_task_and_trial(void **state)
{
	(void)state;
	const char *const extras[] = {
		"\"task_id\":\"t1\",\"trial\":0", "\"task_id\":\"t1\",\"trial\":1",
		"\"task_id\":\"t2\",\"trial\":0", "\"task_id\":\"t2\",\"trial\":1",
	};
	const char *in = runs_file("trials.jsonl", extras, 4);
	struct proposal p;
	propose(&in, 1, &p);
	has(&p.yaml, "runs:\n  id: [task_id, trial]\n");
	/* The runs are named by both fields as the YAML says. */
	struct config c;
	struct error err = {0};
	assert_int_equal(config_load_string(&c, &test_load, "p", dir, p.yaml.buf, p.yaml.len, &err), 0);
	struct dataset ds = { 0 };
	char *paths[] = { (char *)in };
	assert_int_equal(dataset_open(&ds, paths, 1, &err), 0);
	dataset_index_all(&ds);
	assert_int_equal(ds.nrecs, 4);
	struct run *r = dataset_load_run(&ds, &ds.recs[3], NULL, c.run_id_path, &err);
	assert_non_null(r);
	assert_string_equal(r->id, "t2#1");
	run_free(r);
	dataset_close(&ds);
	config_free(&c);
	proposal_free(&p);
}

static void test_verdict_scales(void **state)
{
	(void)state;
	const char *const extras[] = {
		"\"id\":1,\"reward\":0,\"score\":0.25,\"accuracy\":2,\"success\":true,"
		"\"scores\":{\"match\":{\"value\":\"C\"},\"points\":{\"value\":7},\"grade\":{\"value\":\"B+\"}}",
		"\"id\":2,\"reward\":1,\"score\":0.75,\"accuracy\":4,\"success\":false,"
		"\"scores\":{\"match\":{\"value\":\"I\"},\"points\":{\"value\":10},\"grade\":{\"value\":\"A\"}}",
	};
	const char *in = runs_file("verdicts.jsonl", extras, 2);
	struct proposal p;
	propose(&in, 1, &p);
	has(&p.yaml, "    path: reward\n    scale: binary\n");
	has(&p.yaml, "    path: score\n    scale: 0..1\n");
	has(&p.yaml, "    path: accuracy\n    scale: 1..5\n");
	has(&p.yaml, "    path: success\n    scale: binary\n");
	has(&p.yaml, "    path: scores.match.value\n    scale: binary\n    map: {C: 1, I: 0}\n");
	has(&p.yaml, "    path: scores.points.value\n    scale: {min: 0, max: 10}\n");
	/* Text values no scale knows: said, not guessed. */
	lacks(&p.yaml, "path: scores.grade.value");
	has(&p.yaml, "scores.grade.value holds text values no scale knows (B+, A)");
	has(&p.report, "scores.grade.value (2 runs): not proposed");
	proposal_free(&p);
}

static void test_join_other_key(void **state)
{
	(void)state;
	const char *const extras[] = {
		"\"id\":\"r1\",\"task\":\"refund\"", "\"id\":\"r2\",\"task\":\"track\"",
		"\"id\":\"r3\",\"task\":\"refund\"", "\"id\":\"r4\",\"task\":\"unknown\"",
	};
	const char *runs = runs_file("join_runs.jsonl", extras, 4);
	const char *truth = in_dir("join_tasks.jsonl");
	test_write_file(truth,
	        "{\"key\":\"refund\",\"domain\":\"shop\",\"expected_tools\":[\"get_order\",\"refund_order\"],"
	        "\"expected_actions\":[{\"name\":\"get_order\",\"arguments\":{}}]}\n"
	        "{\"key\":\"track\",\"domain\":\"shop\",\"expected_tools\":[\"track_parcel\"],"
	        "\"expected_actions\":[{\"name\":\"track_parcel\",\"arguments\":{}}]}\n");
	const char *const inputs[] = { runs, truth };
	struct proposal p;
	propose(inputs, 2, &p);
	has(&p.yaml, "expectations:\n  file: join_tasks.jsonl\n  match: {run: task, expected: key}\n");
	has(&p.yaml, "    type: tool-call-accuracy\n    expectedToolOrder: {from: expected.expected_tools}\n");
	has(&p.yaml, "    type: trajectory-match\n    reference: {from: expected.expected_actions}\n");
	has(&p.report, "join: runs' task = key of");
	has(&p.report, "(3 of 4 runs, 2 expectations)");
	has(&p.report, "ground truth, joined to the runs");
	lacks(&p.report, "--allow-path");
	assert_int_equal(p.nruns, 4);
	proposal_free(&p);
}

static void test_unread_and_sample(void **state)
{
	(void)state;
	const char *path = in_dir("mixed.jsonl");
	struct strbuf sb = STRBUF_INIT;
	for (int i = 0; i < 5; i++) {
		char extra[32];
		snprintf(extra, sizeof extra, "\"id\":\"m%d\"", i);
		add_run(&sb, extra, "get_order");
	}
	strbuf_addstr(&sb, "{\"foo\":1}\n");
	test_write_file(path, sb.buf);
	strbuf_release(&sb);
	struct proposal p;
	propose(&path, 1, &p);
	has(&p.report, "not read: 1 record (1 no format reads, 0 malformed); first ");
	has(&p.report, "mixed.jsonl:6");
	has(&p.report, "see why: tcreview formats ");
	/* The tools as a table: name, calls, runs. */
	has(&p.yaml, "#   tool         calls   runs\n#   get_order        5      5\n");
	proposal_free(&p);
	/* A sample: two records of six. */
	struct error err = {0};
	const struct propose_opts o = { .out_path = in_dir("tcreview.yaml"), .max_records = 2,
	                                .load = &test_load };
	assert_int_equal(config_propose(&path, 1, &o, &p, &err), 0);
	assert_true(p.sampled);
	assert_int_equal(p.nruns, 2);
	has(&p.report, "2 records read, a sample");
	proposal_free(&p);
}

/* The table's columns line up by display width: 検索 takes 4 columns. */
static void test_tools_table_width(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	add_run(&sb, "\"id\":\"w1\"", "\xe6\xa4\x9c\xe7\xb4\xa2");
	add_run(&sb, "\"id\":\"w2\"", "get_order");
	add_run(&sb, "\"id\":\"w3\"", "get_order");
	const char *path = in_dir("wide.jsonl");
	test_write_file(path, sb.buf);
	strbuf_release(&sb);
	struct proposal p;
	propose(&path, 1, &p);
	has(&p.yaml, "#   get_order        2      2\n"
	             "#   \xe6\xa4\x9c\xe7\xb4\xa2             1      1\n");
	proposal_free(&p);
}

static void test_judge_block(void **state)
{
	(void)state;
	const char *const extras[] = { "\"id\":\"j1\"", "\"id\":\"j2\"" };
	const char *in = runs_file("judge.jsonl", extras, 2);
	struct proposal p;
	unsetenv("OPENAI_API_KEY");
	unsetenv("ANTHROPIC_API_KEY");
	unsetenv("AZURE_OPENAI_API_KEY");
	propose(&in, 1, &p);
	has(&p.yaml, "# No judge: no key variable is set.\n");
	has(&p.yaml, "# judges:\n#   - id: appropriateness\n");
	lacks(&p.yaml, "\njudges:");
	has(&p.report, "set OPENAI_API_KEY");
	proposal_free(&p);
	setenv("OPENAI_API_KEY", "dummy", 1);
	propose(&in, 1, &p);
	has(&p.yaml, "\njudges:\n  - id: appropriateness\n    rubric: tool-appropriateness\n"
	        "    model: openai/gpt-4o-mini\n");
	has(&p.report, "judge: openai/gpt-4o-mini (OPENAI_API_KEY is set)");
	lacks(&p.yaml, "dummy");
	unsetenv("OPENAI_API_KEY");
	proposal_free(&p);
	setenv("ANTHROPIC_API_KEY", "dummy", 1);
	propose(&in, 1, &p);
	has(&p.yaml, "\njudges:\n  - id: appropriateness\n    rubric: tool-appropriateness\n"
	        "    model: anthropic/");
	unsetenv("ANTHROPIC_API_KEY");
	proposal_free(&p);
	/* Azure: the resource from the environment, written as the judge's endpoint. */
	setenv("AZURE_OPENAI_API_KEY", "dummy", 1);
	setenv("AZURE_OPENAI_ENDPOINT", "https://mine.openai.azure.com", 1);
	propose(&in, 1, &p);
	has(&p.yaml, "    model: azure/gpt-4o-mini\n    tools: from-run\n"
	        "    endpoint: \"https://mine.openai.azure.com\"\n    api_version: \"2024-10-21\"\n");
	proposal_free(&p);
	/* An endpoint the judges' checks refuse: the judge is left commented, saying why. */
	setenv("AZURE_OPENAI_ENDPOINT", "https://elsewhere.example.com", 1);
	propose(&in, 1, &p);
	lacks(&p.yaml, "\njudges:");
	has(&p.yaml, "# No judge: the judge the environment offers does not pass the checks (");
	has(&p.yaml, "elsewhere.example.com");
	unsetenv("AZURE_OPENAI_API_KEY");
	unsetenv("AZURE_OPENAI_ENDPOINT");
	proposal_free(&p);
}

static void test_write(void **state)
{
	(void)state;
	const char *const extras[] = { "\"id\":\"w1\"" };
	const char *in = runs_file("write.jsonl", extras, 1);
	struct proposal p;
	propose(&in, 1, &p);
	const char *out = in_dir("written.yaml");
	struct error err = {0};
	unlink(out);
	assert_int_equal(config_proposal_write(&p, out, false, &err), 0);
	char *got = test_slurp(out);
	assert_string_equal(got, p.yaml.buf);
	free(got);
	test_write_file(out, "mine\n");
	assert_int_equal(config_proposal_write(&p, out, false, &err), -1);
	assert_non_null(strstr(err.msg, "exists already"));
	got = test_slurp(out);
	assert_string_equal(got, "mine\n");
	free(got);
	assert_int_equal(config_proposal_write(&p, out, true, &err), 0);
	got = test_slurp(out);
	assert_string_equal(got, p.yaml.buf);
	free(got);
	proposal_free(&p);
}

static void test_no_runs(void **state)
{
	(void)state;
	const char *path = in_dir("none.jsonl");
	test_write_file(path, "{\"foo\":1}\n{\"bar\":2}\n");
	struct proposal p;
	struct error err = {0};
	const struct propose_opts o = { .out_path = in_dir("tcreview.yaml"), .load = &test_load };
	assert_int_equal(config_propose(&path, 1, &o, &p, &err), -1);
	assert_non_null(strstr(err.msg, "no record is a run tcreview reads"));
	assert_int_equal(config_propose(NULL, 0, &o, &p, &err), -1);
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof dir, "%s/tcr-propose.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir))
		return -1;
	/* The folder resolved, as the proposal compares paths after realpath. */
	char *real = realpath(dir, NULL);
	snprintf(dir, sizeof dir, "%.1000s", real);
	free(real);
	setlocale(LC_CTYPE, "C.UTF-8");
	/* A judge proposed must load, its built-in prompt read from the tree. */
	const char *src = getenv("TCR_SRCDIR");
	test_load.datadir = src && *src ? src : ".";
	setenv("TCR_OLLAMA_URL", "http://127.0.0.1:1", 1);  /* nothing answers there */
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[PATH_MAX + 16];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_usual_id),
		cmocka_unit_test(test_no_ids),
		cmocka_unit_test(test_duplicate_ids),
		cmocka_unit_test(test_task_and_trial),
		cmocka_unit_test(test_verdict_scales),
		cmocka_unit_test(test_join_other_key),
		cmocka_unit_test(test_unread_and_sample),
		cmocka_unit_test(test_tools_table_width),
		cmocka_unit_test(test_judge_block),
		cmocka_unit_test(test_write),
		cmocka_unit_test(test_no_runs),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
