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

/* What could drive a terminal or turn its text around is escaped: DEL, the
 * C1 controls (the one-character CSI U+009B among them) and the bidi
 * controls; their neighbours, and broken sequences, are left as they are. */
static const char hostile[] = "x\x7f" "\xc2\x80" "\xc2\x9b" "31m" "\xc2\x9f" "\xc2\xa0" /* NBSP */
	"\xd8\x9c" "\xd8\x9d" "\xe2\x80\x8d" /* ZWJ */ "\xe2\x80\x8e\xe2\x80\x8f"
	"\xe2\x80\xaa\xe2\x80\xae" "\xe2\x80\xaf" "\xe2\x81\xa5\xe2\x81\xa6\xe2\x81\xa9\xe2\x81\xaa"
	"y";
static const char hostile_escaped[] = "x\\u007f\\u0080\\u009b31m\\u009f\xc2\xa0"
	"\\u061c\xd8\x9d\xe2\x80\x8d\\u200e\\u200f"
	"\\u202a\\u202e\xe2\x80\xaf\xe2\x81\xa5\\u2066\\u2069\xe2\x81\xaa"
	"y";

static void test_terminal_controls_escaped(void **s)
{
	(void)s;
	struct strbuf sb = STRBUF_INIT;
	jsonw_string(&sb, hostile, sizeof hostile - 1);
	struct strbuf want = STRBUF_INIT;
	strbuf_addch(&want, '"');
	strbuf_addstr(&want, hostile_escaped);
	strbuf_addch(&want, '"');
	assert_string_equal(sb.buf, want.buf);
	/* jansson reads the escapes back as the same text. */
	json_t *v = json_loadb(sb.buf, sb.len, JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
	assert_non_null(v);
	assert_int_equal(json_string_length(v), sizeof hostile - 1);
	assert_memory_equal(json_string_value(v), hostile, sizeof hostile - 1);
	json_decref(v);
	/* The judge cache's keys are made of the text as it was: raw. */
	json_t *o = json_pack("{s:[s]}", "\xe2\x80\x8fk", "\xc2\x9b\x7f");
	strbuf_reset(&sb);
	jsonw_value_raw(&sb, o);
	assert_string_equal(sb.buf, "{\"\xe2\x80\x8fk\":[\"\xc2\x9b\x7f\"]}");
	strbuf_reset(&sb);
	jsonw_value(&sb, o);
	assert_string_equal(sb.buf, "{\"\\u200fk\":[\"\\u009b\\u007f\"]}");
	json_decref(o);
	/* A sequence cut short is no control: left as it is. */
	strbuf_reset(&sb);
	jsonw_string(&sb, "\xe2\x80" "y\xc2", 4);
	assert_string_equal(sb.buf, "\"\xe2\x80" "y\xc2\"");
	/* Each control at every offset of a long string, past the eight-byte
	 * steps, is found. */
	const char *one[] = { "\x7f", "\xc2\x9b", "\xd8\x9c", "\xe2\x80\xae", "\xe2\x81\xa7" };
	const char *esc[] = { "\\u007f", "\\u009b", "\\u061c", "\\u202e", "\\u2067" };
	for (size_t k = 0; k < 5; k++)
		for (size_t at = 0; at < 24; at++) {
			char in[64], out[80];
			memset(in, 'a', at);
			strcpy(in + at, one[k]);
			strcat(in, "bcdefghijklmnop");
			snprintf(out, sizeof out, "\"%.*s%s%s\"", (int)at, in, esc[k], "bcdefghijklmnop");
			strbuf_reset(&sb);
			jsonw_string(&sb, in, strlen(in));
			assert_string_equal(sb.buf, out);
		}
	strbuf_release(&want);
	strbuf_release(&sb);
}

/* Text jansson wrote (which keeps them raw) made as inert: the same value,
 * no raw control left. */
static void test_inert_post_pass(void **s)
{
	(void)s;
	json_t *o = json_pack("{s:s,s:[s]}", "a", hostile, "b", "\xc2\x9b[2J");
	char *raw = json_dumps(o, JSON_COMPACT);
	assert_non_null(strstr(raw, "\xc2\x9b"));
	struct strbuf sb = STRBUF_INIT;
	jsonw_inert(&sb, raw, strlen(raw));
	assert_null(strstr(sb.buf, "\xc2\x9b"));
	assert_null(strstr(sb.buf, "\x7f"));
	assert_null(strstr(sb.buf, "\xe2\x80\xae"));
	assert_non_null(strstr(sb.buf, "\"b\":[\"\\u009b[2J\"]"));
	json_t *back = json_loads(sb.buf, 0, NULL);
	assert_non_null(back);
	assert_true(json_equal(o, back));
	/* What holds none is copied as it is. */
	strbuf_reset(&sb);
	const char plain[] = "{\"k\":\"\xc2\xa0\xe2\x80\x94\"}";
	jsonw_inert(&sb, plain, sizeof plain - 1);
	assert_string_equal(sb.buf, "{\"k\":\"\xc2\xa0\xe2\x80\x94\"}");
	json_decref(back);
	json_decref(o);
	free(raw);
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
		cmocka_unit_test(test_terminal_controls_escaped),
		cmocka_unit_test(test_inert_post_pass),
		cmocka_unit_test(test_values_keep_key_order),
		cmocka_unit_test(test_memo),
		cmocka_unit_test(test_truthiness),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
