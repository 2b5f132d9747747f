/* test_error.c - util/error: the one error type (set, prefix, a loader's
 * field path, the cut at the fixed size, NULL tolerance, kinds). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/error.h"

static void test_set(void **st)
{
	(void)st;
	struct error e = {0};
	assert_int_equal(e.kind, ERR_NONE);
	assert_int_equal(error_set(&e, ERR_FAILED, "%s: %d", "a.yaml", 3), -1);
	assert_int_equal(e.kind, ERR_FAILED);
	assert_string_equal(e.msg, "a.yaml: 3");
	assert_int_equal(e.lead, 0);
	error_set(&e, ERR_OFF_SCALE, "expected %s", "0 or 1");
	assert_int_equal(e.kind, ERR_OFF_SCALE);
	assert_string_equal(e.msg, "expected 0 or 1");
	error_clear(&e);
	assert_int_equal(e.kind, ERR_NONE);
	assert_string_equal(e.msg, "");
}

/* Context goes before the message; the kind and the reason's start stay. */
static void test_prefix(void **st)
{
	(void)st;
	struct error e = {0};
	error_set(&e, ERR_EXISTS, "exists already");
	assert_int_equal(error_prefix(&e, "%s: ", "out.yaml"), -1);
	assert_string_equal(e.msg, "out.yaml: exists already");
	assert_int_equal(e.kind, ERR_EXISTS);
	assert_string_equal(e.msg + e.lead, "exists already");
	error_prefix(&e, "%s:%d: ", "f", 2);
	assert_string_equal(e.msg, "f:2: out.yaml: exists already");
	assert_string_equal(e.msg + e.lead, "exists already");
	struct error none = {0};
	error_prefix(&none, "x: ");
	assert_int_equal(none.kind, ERR_FAILED);
	assert_string_equal(none.msg, "x: ");
}

/* A message longer than the fixed size is cut and says so at its end. */
static void test_cut(void **st)
{
	(void)st;
	struct error e = {0};
	char *big = malloc(3 * ERROR_MSG_MAX);
	memset(big, 'x', 3 * ERROR_MSG_MAX - 1);
	big[3 * ERROR_MSG_MAX - 1] = '\0';
	error_set(&e, ERR_FAILED, "%s", big);
	assert_int_equal(strlen(e.msg), ERROR_MSG_MAX - 1);
	assert_string_equal(e.msg + ERROR_MSG_MAX - sizeof ERROR_CUT, ERROR_CUT);
	error_set(&e, ERR_FAILED, "%.*s", ERROR_MSG_MAX - 1, big);
	assert_int_equal(strlen(e.msg), ERROR_MSG_MAX - 1);
	assert_int_equal(e.msg[ERROR_MSG_MAX - 2], 'x');
	error_set(&e, ERR_FAILED, "%.*s", ERROR_MSG_MAX - 4, big);
	error_prefix(&e, "%s: ", "file");
	assert_int_equal(strlen(e.msg), ERROR_MSG_MAX - 1);
	assert_memory_equal(e.msg, "file: xx", 8);
	assert_string_equal(e.msg + ERROR_MSG_MAX - sizeof ERROR_CUT, ERROR_CUT);
	free(big);
}

/* NULL: nothing is kept, and the failure is still returned. */
static void test_null(void **st)
{
	(void)st;
	assert_int_equal(error_set(NULL, ERR_FAILED, "x %d", 1), -1);
	assert_int_equal(error_at(NULL, ERR_MISSING, "a.b: missing"), -1);
	assert_int_equal(error_prefix(NULL, "p: "), -1);
	assert_int_equal(error_copy(NULL, NULL), -1);
	error_clear(NULL);
	struct error e = {0};
	error_set(&e, ERR_FAILED, "x");
	error_copy(&e, NULL);
	assert_int_equal(e.kind, ERR_NONE);
	struct error src = {0};
	error_set(&src, ERR_NO_ROW, "no such scorer");
	error_copy(&e, &src);
	assert_int_equal(e.kind, ERR_NO_ROW);
	assert_string_equal(e.msg, "no such scorer");
}

/* A loader's message about a field: the path measured as it is set. */
static void test_at(void **st)
{
	(void)st;
	struct error e = {0};
	error_at(&e, ERR_FAILED, "%s.content[%d]: not an object", "messages[2]", 3);
	assert_string_equal(e.msg, "messages[2].content[3]: not an object");
	assert_int_equal(e.path_depth, 4);
	assert_int_equal(e.path_at, 5);
	error_at(&e, ERR_MISSING, "messages[1].role: missing");
	assert_int_equal(e.kind, ERR_MISSING);
	assert_int_equal(e.path_depth, 2);
	assert_int_equal(e.path_at, 1);
	error_at(&e, ERR_FAILED, "a line that is not JSON, or null");
	assert_int_equal(e.path_depth, 0);
	error_at(&e, ERR_FAILED, "no Claude Code event: here");
	assert_int_equal(e.path_depth, 0);
	error_prefix(&e, "f.jsonl:2: ");
	error_set(&e, ERR_FAILED, "trace: not an object");
	assert_int_equal(e.path_depth, 0);
	error_at(&e, ERR_FAILED, "trace: not an object");
	error_prefix(&e, "f.jsonl:2: ");
	assert_int_equal(e.path_depth, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_set),
		cmocka_unit_test(test_prefix),
		cmocka_unit_test(test_cut),
		cmocka_unit_test(test_null),
		cmocka_unit_test(test_at),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
