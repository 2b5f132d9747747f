/* test_expect.c - loading expectation files and joining them to runs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runs/expect.h"
#include "runs/runs_conf.h"
#include "util/error.h"

static char tmpdir[64];
static char path[128];          /* the file of the current test */

static int make_tmpdir(void **state)
{
	(void)state;
	strcpy(tmpdir, "/tmp/tcr-expect-XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	snprintf(path, sizeof path, "%s/expected.jsonl", tmpdir);
	return 0;
}

static int remove_tmpdir(void **state)
{
	(void)state;
	return rmdir(tmpdir);
}

static int remove_file(void **state)
{
	(void)state;
	unlink(path);
	return 0;
}

/* Writes bytes exactly (no newline added), so CRLF and a missing final
 * newline can be tested. */
static void write_file(const char *text)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	fwrite(text, 1, strlen(text), f);
	fclose(f);
}

/* A conf with one key path on each side; paths point at static strings. */
static struct expect_conf conf1(char **run, char **exp)
{
	struct expect_conf ec = { .file = path, .run_keys = run, .exp_keys = exp, .nkeys = 1 };
	return ec;
}

static char *task_id[] = { (char *)"task_id" };

/* Looks up a run given as JSON text; returns the expectation's "tag"
 * field, or NULL and the reason in why. */
/* A run read as records are read: its text straight into a tape. */
static struct run *run_of(const char *text)
{
	struct jdoc_error jerr;
	struct jdoc *d = jdoc_parse_str(text, &jerr);
	if (!d)
		fail_msg("bad fixture %s: %s", text, jerr.text);
	return run_new_doc(d, "runs.jsonl", 1, -1);
}

static const char *lookup_tag(const struct expectations *e, const char *run, char *why, size_t n)
{
	struct run *r = run_of(run);
	json_t *x = expect_lookup(e, r, why, n);
	assert_null(r->record_tree);        /* the key was read from the tape */
	run_free(r);
	return x ? json_string_value(json_object_get(x, "tag")) : NULL;
}

static void test_numbers_and_strings(void **state)
{
	(void)state;
	write_file("{\"task_id\": 7, \"tag\": \"seven\"}\n"
	           "{\"task_id\": \"8\", \"tag\": \"eight\"}\n"
	           "{\"task_id\": 9.0, \"tag\": \"nine\"}\n"
	           "{\"task_id\": 0.5, \"tag\": \"half\"}\n"
	           "{\"task_id\": -0.0, \"tag\": \"zero\"}\n"
	           "{\"task_id\": \"t-1\", \"tag\": \"text\"}\n");
	struct expect_conf ec = conf1(task_id, task_id);
	struct error err = {0};
	char why[256];
	struct expectations *e = expect_load(&ec, NULL, &err);
	assert_non_null(e);
	assert_int_equal(expect_count(e), 6);
	assert_int_equal(expect_skipped(e), 0);

	assert_string_equal(lookup_tag(e, "{\"task_id\": 7}", why, sizeof why), "seven");
	assert_string_equal(lookup_tag(e, "{\"task_id\": 7.0}", why, sizeof why), "seven");
	assert_string_equal(lookup_tag(e, "{\"task_id\": \"7\"}", why, sizeof why), "seven");
	assert_string_equal(why, "");
	assert_string_equal(lookup_tag(e, "{\"task_id\": 8}", why, sizeof why), "eight");
	assert_string_equal(lookup_tag(e, "{\"task_id\": 8.0}", why, sizeof why), "eight");
	assert_string_equal(lookup_tag(e, "{\"task_id\": 9}", why, sizeof why), "nine");
	assert_string_equal(lookup_tag(e, "{\"task_id\": \"9\"}", why, sizeof why), "nine");
	assert_string_equal(lookup_tag(e, "{\"task_id\": 0.5}", why, sizeof why), "half");
	assert_string_equal(lookup_tag(e, "{\"task_id\": \"0.5\"}", why, sizeof why), "half");
	assert_string_equal(lookup_tag(e, "{\"task_id\": 0}", why, sizeof why), "zero");
	assert_string_equal(lookup_tag(e, "{\"task_id\": \"t-1\"}", why, sizeof why), "text");

	/* Text is compared exactly: "7.0" is not the number 7. */
	assert_null(lookup_tag(e, "{\"task_id\": \"7.0\"}", why, sizeof why));
	assert_string_equal(why, "no expectation has task_id = \"7.0\"");
	assert_null(lookup_tag(e, "{\"task_id\": 70}", why, sizeof why));
	assert_string_equal(why, "no expectation has task_id = 70");

	/* The run lacks the key. */
	assert_null(lookup_tag(e, "{\"id\": 7}", why, sizeof why));
	assert_string_equal(why, "the run has no task_id");
	/* why may be omitted. */
	struct run *r = run_of("{\"id\": 7}");
	assert_null(expect_lookup(e, r, NULL, 0));
	run_free(r);

	expect_free(e);
}

static void test_composite_keys(void **state)
{
	(void)state;
	write_file("{\"task_id\": \"t1\", \"trial\": 1, \"tag\": \"t1/1\"}\n"
	           "{\"task_id\": \"t1\", \"trial\": 2, \"tag\": \"t1/2\"}\n"
	           "{\"task_id\": \"t2\", \"trial\": 1, \"tag\": \"t2/1\"}\n"
	           /* Key parts must not run together: "t1" + "1" is not "t11". */
	           "{\"task_id\": \"t11\", \"trial\": \"\", \"tag\": \"t11/\"}\n");
	char *run[] = { (char *)"info.task", (char *)"meta[\"trial\"]" };
	char *exp[] = { (char *)"task_id", (char *)"trial" };
	struct expect_conf ec = { .file = path, .run_keys = run, .exp_keys = exp, .nkeys = 2 };
	struct error err = {0};
	char why[256];
	struct expectations *e = expect_load(&ec, NULL, &err);
	assert_non_null(e);
	assert_int_equal(expect_count(e), 4);

	assert_string_equal(lookup_tag(e, "{\"info\": {\"task\": \"t1\"}, \"meta\": {\"trial\": 2}}",
	                               why, sizeof why), "t1/2");
	assert_string_equal(lookup_tag(e, "{\"info\": {\"task\": \"t2\"}, \"meta\": {\"trial\": \"1\"}}",
	                               why, sizeof why), "t2/1");
	assert_string_equal(lookup_tag(e, "{\"info\": {\"task\": \"t11\"}, \"meta\": {\"trial\": \"\"}}",
	                               why, sizeof why), "t11/");
	assert_null(lookup_tag(e, "{\"info\": {\"task\": \"t2\"}, \"meta\": {\"trial\": 2}}",
	                       why, sizeof why));
	assert_string_equal(why, "no expectation has task_id = \"t2\", trial = 2");
	assert_null(lookup_tag(e, "{\"info\": {\"task\": \"t2\"}}", why, sizeof why));
	assert_string_equal(why, "the run has no meta[\"trial\"]");
	expect_free(e);
}

static void test_missing_and_duplicates(void **state)
{
	(void)state;
	write_file("{\"task_id\": 1, \"tag\": \"first\"}\n"
	           "{\"other\": 2, \"tag\": \"no key\"}\n"
	           "{\"task_id\": 1, \"tag\": \"second\"}\n"
	           "{\"task_id\": 1.0, \"tag\": \"third\"}\n"
	           "{\"task_id\": null, \"tag\": \"null key\"}\n"
	           "{\"tag\": \"no key either\"}\n");
	struct expect_conf ec = conf1(task_id, task_id);
	struct error err = {0};
	char why[256];
	struct expectations *e = expect_load(&ec, NULL, &err);
	assert_non_null(e);
	assert_int_equal(expect_count(e), 2);
	assert_int_equal(expect_skipped(e), 2);
	assert_int_equal(expect_duplicates(e), 2);
	assert_string_equal(lookup_tag(e, "{\"task_id\": 1}", why, sizeof why), "first");
	/* A null key is a value like any other. */
	assert_string_equal(lookup_tag(e, "{\"task_id\": null}", why, sizeof why), "null key");
	expect_free(e);
}

static void test_other_key_types(void **state)
{
	(void)state;
	write_file("{\"k\": {\"b\": 1, \"a\": [true, null]}, \"tag\": \"object\"}\n"
	           "{\"k\": false, \"tag\": \"bool\"}\n"
	           "{\"k\": 12345678901234567, \"tag\": \"big\"}\n"
	           "{\"k\": 1e300, \"tag\": \"huge\"}\n");
	char *k[] = { (char *)"k" };
	struct expect_conf ec = conf1(k, k);
	struct error err = {0};
	char why[256];
	struct expectations *e = expect_load(&ec, NULL, &err);
	assert_non_null(e);
	assert_string_equal(lookup_tag(e, "{\"k\": {\"a\": [true, null], \"b\": 1}}", why, sizeof why),
	                    "object");
	assert_string_equal(lookup_tag(e, "{\"k\": false}", why, sizeof why), "bool");
	assert_string_equal(lookup_tag(e, "{\"k\": 12345678901234567}", why, sizeof why), "big");
	assert_string_equal(lookup_tag(e, "{\"k\": 1e300}", why, sizeof why), "huge");
	assert_string_equal(lookup_tag(e, "{\"k\": \"1e+300\"}", why, sizeof why), "huge");
	assert_null(lookup_tag(e, "{\"k\": {\"a\": [true], \"b\": 1}}", why, sizeof why));
	assert_string_equal(why, "no expectation has k = {\"a\":[true],\"b\":1}");
	expect_free(e);
}

/* A run's key is read from its tape, not from a tree, yet shows and
 * compares as jansson's compact sorted dump of the tree would. */
static void test_run_keys_read_as_trees(void **state)
{
	(void)state;
	write_file("{\"k\": {\"a\": 1, \"b\": [\"x\\\"\\\\\\n\\u0001/\u00e9\"]}, \"tag\": \"object\"}\n"
	           "{\"k\": 2.5e-7, \"tag\": \"tiny\"}\n");
	char *k[] = { (char *)"k" };
	struct expect_conf ec = conf1(k, k);
	struct error err = {0};
	char why[512], want[512];
	struct expectations *e = expect_load(&ec, NULL, &err);
	assert_non_null(e);
	static const char *const values[] = {
		"{\"b\": 1, \"a\": [true, null, \"x\\\"\\\\\\n\\u0001\\u001f/\u00e9\\t\\b\\f\\r\"]}",
		"{\"z\": {\"y\": 1, \"x\": 2}, \"a\": {}, \"ab\": [], \"\": 0}",
		"{\"a\": 1, \"a\": 2}",               /* the last of a repeated key, as jansson keeps it */
		"[0.1, 1e300, -2.5e-7, 5.0, -0.0, 12345678901234567, -9223372036854775808]",
		"0.1", "1e300", "5.0", "-3", "true", "false", "null", "\"say \\\"hi\\\"\"",
		NULL,
	};
	for (size_t i = 0; values[i]; i++) {
		char run[512];
		snprintf(run, sizeof run, "{\"k\": %s}", values[i]);
		json_error_t jerr;
		json_t *tree = json_loads(values[i], JSON_DECODE_ANY, &jerr);
		assert_non_null(tree);
		char *dump = json_dumps(tree, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
		json_decref(tree);
		assert_non_null(dump);
		snprintf(want, sizeof want, "no expectation has k = %s", dump);
		free(dump);
		assert_null(lookup_tag(e, run, why, sizeof why));
		assert_string_equal(why, want);
	}
	assert_string_equal(lookup_tag(e, "{\"k\": {\"b\": [\"x\\\"\\\\\\n\\u0001/\u00e9\"], \"a\": 1}}",
	                               why, sizeof why), "object");
	assert_string_equal(lookup_tag(e, "{\"k\": 0.00000025}", why, sizeof why), "tiny");
	/* numbers no C type holds are keys too, as the reals the tree would hold */
	assert_null(lookup_tag(e, "{\"k\": 1e400}", why, sizeof why));
	assert_string_equal(why, "no expectation has k = 1.7976931348623157e308");
	assert_null(lookup_tag(e, "{\"k\": [123456789012345678901234567890]}", why, sizeof why));
	assert_string_equal(why, "no expectation has k = [1.2345678901234568e29]");
	expect_free(e);
}

static void test_crlf_blank_lines_no_final_newline(void **state)
{
	(void)state;
	write_file("\xef\xbb\xbf{\"task_id\": 1, \"tag\": \"a\"}\r\n"
	           "\r\n"
	           "   \r\n"
	           "\n"
	           "{\"task_id\": 2, \"tag\": \"b\"}\r\n"
	           "\t{\"task_id\": 3, \"tag\": \"c\"}");
	struct expect_conf ec = conf1(task_id, task_id);
	struct error err = {0};
	char why[256];
	struct expectations *e = expect_load(&ec, NULL, &err);
	if (!e)
		fail_msg("%s", err.msg);
	assert_int_equal(expect_count(e), 3);
	assert_string_equal(lookup_tag(e, "{\"task_id\": 1}", why, sizeof why), "a");
	assert_string_equal(lookup_tag(e, "{\"task_id\": 2}", why, sizeof why), "b");
	assert_string_equal(lookup_tag(e, "{\"task_id\": 3}", why, sizeof why), "c");
	expect_free(e);
}

static void test_empty_file(void **state)
{
	(void)state;
	write_file("\n\n");
	struct expect_conf ec = conf1(task_id, task_id);
	struct error err = {0};
	char why[256];
	struct expectations *e = expect_load(&ec, NULL, &err);
	assert_non_null(e);
	assert_int_equal(expect_count(e), 0);
	assert_null(lookup_tag(e, "{\"task_id\": 1}", why, sizeof why));
	assert_string_equal(why, "no expectation has task_id = 1");
	expect_free(e);
}

static void assert_load_error(const char *text, const char *want_after_path)
{
	struct error err = {0};
	char want[512];
	write_file(text);
	struct expect_conf ec = conf1(task_id, task_id);
	assert_null(expect_load(&ec, NULL, &err));
	snprintf(want, sizeof want, "%s%s", path, want_after_path);
	assert_string_equal(err.msg, want);
}

static void test_bad_lines(void **state)
{
	(void)state;
	assert_load_error("{\"task_id\": 1}\n\n{\"task_id\": }\n{\"task_id\": 3}\n",
	                  ":3: unexpected token near '}'");
	assert_load_error("{\"task_id\": 1}\r\n{\"task_id\": 2\r\n",
	                  ":2: '}' expected near end of file");
	assert_load_error("{\"task_id\": 1} {\"task_id\": 2}\n",
	                  ":1: end of file expected near '{'");
	assert_load_error("{\"task_id\": 1}\n\"just text\"\n", ":2: expected a JSON object");
	assert_load_error("{\"task_id\": 1}\nnope", ":2: invalid token near 'nope'");
}

static void test_json_array(void **state)
{
	(void)state;
	write_file("\n  [\n  {\"task_id\": 1, \"tag\": \"a\"},\n  {\"task_id\": \"2\", \"tag\": \"b\"},\n"
	           "  {\"nokey\": 1}\n]\n");
	struct expect_conf ec = conf1(task_id, task_id);
	struct error err = {0};
	char why[256];
	struct expectations *e = expect_load(&ec, NULL, &err);
	if (!e)
		fail_msg("%s", err.msg);
	assert_int_equal(expect_count(e), 2);
	assert_int_equal(expect_skipped(e), 1);
	assert_string_equal(lookup_tag(e, "{\"task_id\": \"1\"}", why, sizeof why), "a");
	assert_string_equal(lookup_tag(e, "{\"task_id\": 2}", why, sizeof why), "b");
	expect_free(e);

	assert_load_error("[\n {\"task_id\": 1},\n {\"task_id\": 2,}\n]\n",
	                  ":3: string or '}' expected near '}'");
	assert_load_error("[{\"task_id\": 1}, 2]", ": item 2 of the array is not a JSON object");
}

static void test_unreadable(void **state)
{
	(void)state;
	struct error err = {0};
	char want[256];
	struct expect_conf ec = conf1(task_id, task_id);
	unlink(path);
	assert_null(expect_load(&ec, NULL, &err));
	snprintf(want, sizeof want, "%s: No such file or directory", path);
	assert_string_equal(err.msg, want);

	assert_null(expect_load(&ec, tmpdir, &err));
	snprintf(want, sizeof want, "%s: not a regular file (a folder)", tmpdir);
	assert_string_equal(err.msg, want);
	/* err.msg may be omitted. */
	assert_null(expect_load(&ec, tmpdir, NULL));
}

/* The expectations keep their own copy of the key paths, so the config
 * (and the file name given to expect_load) may go away first. */
static void test_outlives_config(void **state)
{
	(void)state;
	write_file("{\"task_id\": 5, \"tag\": \"five\"}\n");
	struct expect_conf ec = { .nkeys = 1 };
	ec.run_keys = malloc(sizeof *ec.run_keys);
	ec.exp_keys = malloc(sizeof *ec.exp_keys);
	assert_non_null(ec.run_keys);
	assert_non_null(ec.exp_keys);
	ec.run_keys[0] = strdup("run.task");
	ec.exp_keys[0] = strdup("task_id");
	char *file = strdup(path);
	struct error err = {0};
	char why[256];

	struct expectations *e = expect_load(&ec, file, &err);
	free(file);
	free(ec.run_keys[0]);
	free(ec.exp_keys[0]);
	free(ec.run_keys);
	free(ec.exp_keys);
	assert_non_null(e);
	assert_string_equal(lookup_tag(e, "{\"run\": {\"task\": 5}}", why, sizeof why), "five");
	assert_null(lookup_tag(e, "{\"run\": {}}", why, sizeof why));
	assert_string_equal(why, "the run has no run.task");
	expect_free(e);
	expect_free(NULL);
}

/* ---- the sections, read by their owner -------------------------------- */

static int read_section(const char *text, struct expect_conf *ec, struct runs_conf *rc,
                        struct error *err)
{
	struct conf cf;
	int r = conf_parse(&cf, "t.yaml", "dir", text, strlen(text), err);
	if (r == 0 && ec)
		r = expect_conf_read(&cf, conf_get(cf.root, "expectations"), ec);
	if (r == 0 && rc)
		r = runs_conf_read(&cf, conf_get(cf.root, "runs"), rc);
	conf_free(&cf);
	return r;
}

static void test_sections(void **state)
{
	(void)state;
	struct error err = {0};
	struct expect_conf ec;
	struct runs_conf rc;
	assert_int_equal(read_section("expectations:\n  file: e.jsonl\n  match: {run: [a, b], "
	                              "expected: [x, y]}\n", &ec, NULL, &err), 0);
	assert_string_equal(ec.file, "dir/e.jsonl");
	assert_int_equal(ec.nkeys, 2);
	assert_string_equal(ec.run_keys[1], "b");
	assert_string_equal(ec.exp_keys[0], "x");
	assert_int_equal(ec.line, 2);
	expect_conf_free(&ec);

	assert_int_equal(read_section("expectations:\n  file: e.jsonl\n  match: {run: a}\n", &ec,
	                              NULL, &err), -1);
	assert_string_equal(err.msg, "t.yaml:3:10: 'match' needs 'expected'");
	expect_conf_free(&ec);

	assert_int_equal(read_section("runs: {id: meta.id, format: mastra}\n", NULL, &rc, &err), 0);
	assert_string_equal(rc.id_path, "meta.id");
	assert_string_equal(rc.format, "mastra");
	runs_conf_free(&rc);
	assert_int_equal(read_section("runs: {idd: x}\n", NULL, &rc, &err), -1);
	assert_string_equal(err.msg, "t.yaml:1:8: unknown key 'idd' (expected one of: id, format)");
	runs_conf_free(&rc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sections),
		cmocka_unit_test_teardown(test_numbers_and_strings, remove_file),
		cmocka_unit_test_teardown(test_composite_keys, remove_file),
		cmocka_unit_test_teardown(test_missing_and_duplicates, remove_file),
		cmocka_unit_test_teardown(test_other_key_types, remove_file),
		cmocka_unit_test_teardown(test_run_keys_read_as_trees, remove_file),
		cmocka_unit_test_teardown(test_crlf_blank_lines_no_final_newline, remove_file),
		cmocka_unit_test_teardown(test_empty_file, remove_file),
		cmocka_unit_test_teardown(test_bad_lines, remove_file),
		cmocka_unit_test_teardown(test_json_array, remove_file),
		cmocka_unit_test_teardown(test_unreadable, remove_file),
		cmocka_unit_test_teardown(test_outlives_config, remove_file),
	};
	return cmocka_run_group_tests(tests, make_tmpdir, remove_tmpdir);
}
