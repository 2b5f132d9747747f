/* test_jsonw.c - JSON output reads like JavaScript's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/jsonw.h"

static void check_number(double d, const char *want)
{
	struct strbuf sb = STRBUF_INIT;
	jsonw_number(&sb, d);
	assert_string_equal(sb.buf, want);
	strbuf_release(&sb);
}

static void test_numbers_like_js(void **s)
{
	(void)s;
	check_number(1, "1");
	check_number(0, "0");
	check_number(-0.0, "0");
	check_number(0.5, "0.5");
	check_number(2.0 / 3.0, "0.6666666666666666");
	check_number(0.67, "0.67");
	check_number(0.1 + 0.2, "0.30000000000000004");
	check_number(1.0 / 6.0, "0.16666666666666666");
	check_number(123456789, "123456789");
	check_number(1e21, "1e+21");
	check_number(1e20, "100000000000000000000");
	check_number(1e-7, "1e-7");
	check_number(0.000001, "0.000001");
	check_number(-2.5, "-2.5");
	check_number(1.5e-10, "1.5e-10");
}

static void test_strings_escaped(void **s)
{
	(void)s;
	struct strbuf sb = STRBUF_INIT;
	const char raw[] = "a\"b\\c\n\t\x1b[31m日本語";
	jsonw_string(&sb, raw, sizeof raw - 1);
	assert_string_equal(sb.buf, "\"a\\\"b\\\\c\\n\\t\\u001b[31m日本語\"");
	strbuf_release(&sb);
}

static void test_values_keep_key_order(void **s)
{
	(void)s;
	json_error_t e;
	json_t *v = json_loads("{\"z\":1,\"a\":[true,false,null,1.0,0.25,\"x\"],\"m\":{}}", 0, &e);
	struct strbuf sb = STRBUF_INIT;
	jsonw_value(&sb, v);
	assert_string_equal(sb.buf, "{\"z\":1,\"a\":[true,false,null,1,0.25,\"x\"],\"m\":{}}");
	strbuf_release(&sb);
	json_decref(v);
}

/* A container written twice with a memo is copied the second time; what
 * is written is what jsonw_value writes, also when the buffer grows in
 * between, and a container held once is never remembered. */
static void test_memo(void **s)
{
	(void)s;
	json_error_t e;
	json_t *shared = json_loads("[{\"a\":1,\"b\":[0.5,\"x\"]},\"y\"]", 0, &e);
	json_t *one = json_pack("{s:O,s:s}", "calls", shared, "k", "v");
	json_t *two = json_pack("{s:O,s:O}", "again", shared, "more", shared);
	struct strbuf plain = STRBUF_INIT, memo_out = STRBUF_INIT;
	struct jsonw_memo memo = { .n = 0 };
	jsonw_value(&plain, one);
	jsonw_value(&plain, two);
	jsonw_value_memo(&memo_out, one, &memo);
	assert_int_equal(memo.n, 1);        /* `shared`; `one` is held once */
	jsonw_value_memo(&memo_out, two, &memo);
	assert_int_equal(memo.n, 1);
	assert_string_equal(memo_out.buf, plain.buf);
	assert_int_equal(memo_out.len, plain.len);
	/* Many copies, each forcing the buffer to grow. */
	for (int i = 0; i < 200; i++) {
		jsonw_value(&plain, shared);
		jsonw_value_memo(&memo_out, shared, &memo);
	}
	assert_string_equal(memo_out.buf, plain.buf);
	strbuf_release(&plain);
	strbuf_release(&memo_out);
	json_decref(one);
	json_decref(two);
	json_decref(shared);
}

static void test_truthiness(void **s)
{
	(void)s;
	json_t *vals[] = { json_null(), json_false(), json_string(""), json_integer(0), json_real(0),
	                   json_true(), json_string("0"), json_integer(5), json_array(), json_object() };
	bool want[] = { false, false, false, false, false, true, true, true, true, true };
	for (size_t i = 0; i < sizeof vals / sizeof *vals; i++) {
		assert_int_equal(json_truthy(vals[i]), want[i]);
		json_decref(vals[i]);
	}
	assert_false(json_truthy(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers_like_js),
		cmocka_unit_test(test_strings_escaped),
		cmocka_unit_test(test_values_keep_key_order),
		cmocka_unit_test(test_memo),
		cmocka_unit_test(test_truthiness),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
