/* test_jsonpath.c - path syntax and lookups. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "util/jsonpath.h"
#include "util/strbuf.h"

static void assert_valid(const char *path)
{
	const char *err = "untouched";
	if (!jsonpath_valid(path, &err))
		fail_msg("'%s' should be valid, got: %s", path, err);
}

static void assert_invalid(const char *path, const char *want)
{
	const char *err = NULL;
	if (jsonpath_valid(path, &err))
		fail_msg("'%s' should be invalid", path ? path : "(null)");
	assert_non_null(err);
	assert_string_equal(err, want);
}

static void test_valid_paths(void **state)
{
	(void)state;
	assert_valid("a");
	assert_valid("a.b[0].c");
	assert_valid("info.task.actions[0].name");
	assert_valid("messages[-1]");
	assert_valid("_corpus.run_id");
	assert_valid("a[\"x.y\"]");
	assert_valid("a['x y']");
	assert_valid("a[\"q\\\"x\"]");
	assert_valid("[0]");
	assert_valid("[\"k\"].b");
	assert_valid("a[0][1][-2]");
	assert_valid("tool-name.$ref");
	assert_valid("a[\"\"]");
	/* A NULL err pointer is allowed. */
	assert_true(jsonpath_valid("a.b", NULL));
	assert_false(jsonpath_valid("a..b", NULL));
}

static void test_invalid_paths(void **state)
{
	(void)state;
	assert_invalid("", "empty path");
	assert_invalid(NULL, "empty path");
	assert_invalid("a..b", "empty segment");
	assert_invalid(".a", "empty segment");
	assert_invalid("a.", "empty segment");
	assert_invalid("a.[0]", "empty segment");
	assert_invalid("a[", "unterminated '['");
	assert_invalid("a[1", "unterminated '['");
	assert_invalid("a[]", "empty index");
	assert_invalid("a[x]", "index must be an integer or a quoted key");
	assert_invalid("a[1.5]", "index must be an integer or a quoted key");
	assert_invalid("a[+1]", "index must be an integer or a quoted key");
	assert_invalid("a]", "unexpected ']'");
	assert_invalid("a b", "spaces, quotes and control characters need a quoted key: [\"...\"]");
	assert_invalid("a.\"b\"", "spaces, quotes and control characters need a quoted key: [\"...\"]");
	assert_invalid("a[\"x]", "unterminated quoted key");
	assert_invalid("a[\"x\"", "expected ']' after quoted key");
	assert_invalid("a[\"x\\n\"]", "bad escape in quoted key (only \\\\ and \\\" are allowed)");
	assert_invalid("a[99999999999999999999]", "index too large");
	assert_invalid("a[0]b", "expected '.' or '[' between segments");
}

static json_t *fixture(void)
{
	json_error_t e;
	json_t *v = json_loads(
		"{\"a\": {\"b\": [{\"c\": 1}, {\"c\": 2}]},"
		" \"info\": {\"task\": {\"actions\": [{\"name\": \"search\"}, {\"name\": \"book\"}]}},"
		" \"messages\": [\"first\", \"middle\", \"last\"],"
		" \"_corpus\": {\"run_id\": \"r-17\"},"
		" \"x.y\": \"dotted\", \"a b\": {\"q\\\"k\": true},"
		" \"nothing\": null, \"empty\": [], \"s\": \"text\"}", 0, &e);
	assert_non_null(v);
	return v;
}

static void test_lookups(void **state)
{
	(void)state;
	json_t *r = fixture();

	assert_int_equal(json_integer_value(jsonpath_get(r, "a.b[0].c")), 1);
	assert_int_equal(json_integer_value(jsonpath_get(r, "a.b[1].c")), 2);
	assert_int_equal(json_integer_value(jsonpath_get(r, "a.b[-1].c")), 2);
	assert_int_equal(json_integer_value(jsonpath_get(r, "a.b[-2].c")), 1);
	assert_string_equal(json_string_value(jsonpath_get(r, "info.task.actions[0].name")),
	                    "search");
	assert_string_equal(json_string_value(jsonpath_get(r, "messages[-1]")), "last");
	assert_string_equal(json_string_value(jsonpath_get(r, "messages[0]")), "first");
	assert_string_equal(json_string_value(jsonpath_get(r, "_corpus.run_id")), "r-17");
	assert_string_equal(json_string_value(jsonpath_get(r, "[\"x.y\"]")), "dotted");
	assert_true(json_is_true(jsonpath_get(r, "[\"a b\"][\"q\\\"k\"]")));
	assert_true(json_is_true(jsonpath_get(r, "['a b']['q\"k']")));
	/* The whole path "a" returns the borrowed object itself. */
	assert_ptr_equal(jsonpath_get(r, "a"), json_object_get(r, "a"));

	json_decref(r);
}

static void test_missing(void **state)
{
	(void)state;
	json_t *r = fixture();

	assert_null(jsonpath_get(r, "zzz"));
	assert_null(jsonpath_get(r, "a.zzz"));
	assert_null(jsonpath_get(r, "a.b[2]"));
	assert_null(jsonpath_get(r, "a.b[-3]"));
	assert_null(jsonpath_get(r, "messages[3]"));
	assert_null(jsonpath_get(r, "messages[-4]"));
	assert_null(jsonpath_get(r, "empty[0]"));
	assert_null(jsonpath_get(r, "empty[-1]"));
	/* Wrong container types find nothing. */
	assert_null(jsonpath_get(r, "a[0]"));
	assert_null(jsonpath_get(r, "messages.first"));
	assert_null(jsonpath_get(r, "s.length"));
	assert_null(jsonpath_get(r, "s[0]"));
	assert_null(jsonpath_get(r, "nothing.deeper"));
	/* "x.y" is one key only when quoted. */
	assert_null(jsonpath_get(r, "x.y"));
	/* Invalid paths and NULL roots find nothing. */
	assert_null(jsonpath_get(r, "a..b"));
	assert_null(jsonpath_get(r, ""));
	assert_null(jsonpath_get(NULL, "a"));
	assert_null(jsonpath_get(r, "a.b[-9223372036854775807]"));

	json_decref(r);
}

static void test_null_is_found(void **state)
{
	(void)state;
	json_t *r = fixture();
	json_t *v = jsonpath_get(r, "nothing");
	assert_non_null(v);
	assert_true(json_is_null(v));
	json_decref(r);
}

static void test_root_array(void **state)
{
	(void)state;
	json_t *r = json_loads("[[1, 2], {\"k\": \"v\"}]", 0, NULL);
	assert_non_null(r);
	assert_int_equal(json_integer_value(jsonpath_get(r, "[0][1]")), 2);
	assert_string_equal(json_string_value(jsonpath_get(r, "[-1].k")), "v");
	assert_null(jsonpath_get(r, "k"));
	json_decref(r);
}

/* Keys appended as a path reads them back: bare after a dot, else quoted. */
static void test_add_key(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	jsonpath_add_key(&sb, "info", 4);
	jsonpath_add_key(&sb, "task.id", 7);
	jsonpath_add_key(&sb, "say \"hi\"", 8);
	jsonpath_add_key(&sb, "", 0);
	jsonpath_add_key(&sb, "報酬", strlen("報酬"));
	assert_string_equal(sb.buf, "info[\"task.id\"][\"say \\\"hi\\\"\"][\"\"].報酬");
	const char *err = NULL;
	assert_true(jsonpath_valid(sb.buf, &err));
	json_t *rec = json_loads("{\"info\": {\"task.id\": {\"say \\\"hi\\\"\": {\"\": {\"報酬\": 7}}}}}", 0, NULL);
	assert_non_null(rec);
	json_t *v = jsonpath_get(rec, sb.buf);
	assert_non_null(v);
	assert_int_equal(json_integer_value(v), 7);     /* borrowed */
	json_decref(rec);
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_paths),
		cmocka_unit_test(test_invalid_paths),
		cmocka_unit_test(test_lookups),
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_null_is_found),
		cmocka_unit_test(test_root_array),
		cmocka_unit_test(test_add_key),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
