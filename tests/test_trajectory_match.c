/* test_trajectory_match.c - the pieces of trajectory-match that the case
 * file (tests/cli/trajectory_cases.sh) reaches only through whole
 * verdicts: JSON.parse and String(), deep equality, the argument modes on
 * odd values, key paths, the diff of arguments and the explanation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "../src/scorers/traj_match.h"
#include "util/strbuf.h"

static json_t *J(const char *text)
{
	json_error_t e;
	json_t *v = json_loads(text, JSON_DECODE_ANY, &e);
	if (!v)
		fail_msg("bad test JSON %s: %s", text, e.text);
	return v;
}

static const struct tm_equal exact = { 0 };

static bool eq(const char *a, const char *b)
{
	json_t *x = J(a), *y = J(b);
	bool r = tm_deep_equal(&exact, x, y);
	json_decref(x);
	json_decref(y);
	return r;
}

static void test_deep_equal(void **s)
{
	(void)s;
	assert_true(eq("5", "5.0"));
	assert_true(eq("{\"a\":1,\"b\":[1,2]}", "{\"b\":[1,2.0],\"a\":1}"));
	assert_false(eq("[1,2]", "[2,1]"));
	assert_true(eq("[]", "{}"));
	assert_true(eq("[1]", "{\"0\":1}"));
	assert_false(eq("[1]", "{\"00\":1}"));
	assert_false(eq("\"5\"", "5"));
	assert_false(eq("true", "1"));
	assert_true(eq("null", "null"));
	assert_false(eq("{\"n\":null}", "{}"));   /* the key counts */
	assert_true(tm_deep_equal(&exact, NULL, json_null()));
	assert_true(eq("{\"q\":\"\\u0073f\"}", "{\"q\":\"sf\"}"));
}

static void test_loosened_equal(void **s)
{
	(void)s;
	struct tm_equal loose = { .tolerance = 0.01, .nocase = true, .trim = true };
	json_t *a = J("{\"n\":1.005,\"s\":\" Straße \"}"), *b = J("{\"n\":1,\"s\":\"STRASSE\"}");
	assert_true(tm_deep_equal(&loose, a, b));
	assert_false(tm_deep_equal(&exact, a, b));
	json_decref(a);
	json_decref(b);
}

static void parse_is(const char *given, const char *want)
{
	json_t *v = J(given);
	struct tm_err e = { "" };
	json_t *got = tm_json_parse(v, &e);
	if (!want) {
		assert_null(got);
		assert_non_null(strstr(e.text, "not JSON"));
	} else {
		json_t *w = J(want);
		if (!got || !tm_deep_equal(&exact, got, w))
			fail_msg("parse of %s: %s", given, got ? "another value" : e.text);
		json_decref(w);
	}
	json_decref(got);
	json_decref(v);
}

static void test_json_parse(void **s)
{
	(void)s;
	parse_is("\"{\\\"n\\\":1,\\\"n\\\":5}\"", "{\"n\":5}");       /* the last duplicate */
	parse_is("\"9007199254740993\"", "9007199254740992");      /* a double */
	parse_is("\"null\"", "null");
	parse_is("\" [1,2] \"", "[1,2]");
	parse_is("\"\"", NULL);
	parse_is("\"q=sf\"", NULL);
	parse_is("\"NaN\"", NULL);
	parse_is("5", "5");                 /* String(5) is "5" */
	parse_is("true", "true");
	parse_is("{\"q\":1}", NULL);        /* "[object Object]" */
	parse_is("[5]", "5");               /* String([5]) is "5" */
	parse_is("[1,2]", NULL);            /* "1,2" */
}

static int match(enum tm_args mode, const char *out, const char *ref, struct tm_err *e)
{
	struct tm_opts o = { .args = mode };
	struct tm_matcher m = { .kind = TM_BY_MODE, .mode = mode };
	json_t *x = out ? J(out) : NULL, *y = ref ? J(ref) : NULL;
	int r = tm_args_match(&o, &m, x, y, e);
	json_decref(x);
	json_decref(y);
	return r;
}

static void test_arg_modes(void **s)
{
	(void)s;
	struct tm_err e;
	assert_int_equal(match(TM_ARGS_SUBSET, "{\"city\":\"sf\"}", "{\"city\":\"sf\",\"n\":1}", &e), 1);
	assert_int_equal(match(TM_ARGS_SUBSET, "{\"city\":\"sf\",\"n\":1}", "{\"city\":\"sf\"}", &e), 0);
	assert_int_equal(match(TM_ARGS_SUPERSET, "{\"city\":\"sf\",\"n\":1}", "{\"city\":\"sf\"}", &e), 1);
	/* Values compared whole, not as subsets. */
	assert_int_equal(match(TM_ARGS_SUBSET, "{\"o\":{\"a\":1}}", "{\"o\":{\"a\":1,\"b\":2}}", &e), 0);
	/* A key whose value is null must still be there. */
	assert_int_equal(match(TM_ARGS_SUBSET, "{\"n\":null}", "{}", &e), 0);
	/* A number has no entries; a string's are its characters. */
	assert_int_equal(match(TM_ARGS_SUBSET, "5", "{\"q\":\"a\"}", &e), 1);
	assert_int_equal(match(TM_ARGS_SUBSET, "\"ab\"", "[\"a\",\"b\"]", &e), 1);
	assert_int_equal(match(TM_ARGS_SUBSET, "\"ab\"", "{\"0\":\"a\"}", &e), 0);
	/* Entries of null throw; so does looking keys up in a number. */
	assert_int_equal(match(TM_ARGS_SUBSET, "null", "{\"q\":\"a\"}", &e), -1);
	assert_non_null(strstr(e.text, "TypeError"));
	assert_int_equal(match(TM_ARGS_SUPERSET, "5", "{\"q\":\"a\"}", &e), -1);
	/* ... but only when reached: no entries, no lookup. */
	assert_int_equal(match(TM_ARGS_SUBSET, "{}", "5", &e), 1);
	assert_int_equal(match(TM_ARGS_EXACT, NULL, "null", &e), 1);
	assert_int_equal(match(TM_ARGS_IGNORE, "{\"a\":1}", "{\"b\":2}", &e), 1);
}

static int keys_match(const char *keys, const char *out, const char *ref)
{
	struct tm_err e;
	json_t *k = J(keys), *x = J(out), *y = J(ref);
	struct tm_opts o = { .args = TM_ARGS_EXACT };
	struct tm_matcher m = { .kind = TM_BY_KEYS, .keys = k };
	int r = tm_args_match(&o, &m, x, y, &e);
	json_decref(k);
	json_decref(x);
	json_decref(y);
	return r;
}

static void test_key_paths(void **s)
{
	(void)s;
	assert_int_equal(keys_match("[\"opts.a\"]", "{\"opts\":{\"a\":1,\"b\":2},\"q\":\"x\"}",
	                            "{\"opts\":{\"a\":1},\"q\":\"y\"}"), 1);
	assert_int_equal(keys_match("[\"n\"]", "{\"n\":null}", "{}"), 1);
	assert_int_equal(keys_match("[]", "{\"q\":\"x\"}", "{\"q\":\"y\"}"), 1);
	assert_int_equal(keys_match("[\"q.a\"]", "{\"q\":\"x\"}", "{\"q\":5}"), 1);
	assert_int_equal(keys_match("[\"items.0.sku\"]", "{\"items\":[{\"sku\":\"A\"}]}",
	                            "{\"items\":[{\"sku\":\"B\"}]}"), 0);
}

static void test_override_lookup(void **s)
{
	(void)s;
	json_t *ov = J("{\"search\":\"ignore\",\"5\":[\"q\"],\"undefined\":\"subset\"}");
	struct tm_opts o = { .args = TM_ARGS_EXACT, .overrides = ov };
	json_t *name = J("\"search\""), *five = J("5.0");
	struct tm_matcher m = tm_matcher_for(&o, name);
	assert_int_equal(m.mode, TM_ARGS_IGNORE);
	m = tm_matcher_for(&o, five);               /* String(5.0) is "5" */
	assert_int_equal(m.kind, TM_BY_KEYS);
	m = tm_matcher_for(&o, NULL);               /* String(undefined) */
	assert_int_equal(m.mode, TM_ARGS_SUBSET);
	json_decref(name);
	json_decref(five);
	json_decref(ov);
}

static void test_diff_and_explain(void **s)
{
	(void)s;
	json_t *out = J("{\"flight\":\"HAT136\",\"pax\":{\"n\":2},\"extra\":1}");
	json_t *ref = J("{\"flight\":\"HAT137\",\"pax\":{\"n\":3},\"date\":\"2024-05-20\"}");
	json_t *diffs = json_array();
	tm_args_diff(&exact, out, ref, "", diffs, 8);
	char *text = json_dumps(diffs, JSON_COMPACT);
	assert_string_equal(text, "[{\"path\":\"flight\",\"output\":\"HAT136\",\"reference\":\"HAT137\"},"
	                          "{\"path\":\"pax.n\",\"output\":2,\"reference\":3},"
	                          "{\"path\":\"extra\",\"output\":1},"
	                          "{\"path\":\"date\",\"reference\":\"2024-05-20\"}]");
	free(text);

	json_t *d = J("{\"mode\":\"superset\",\"args\":\"exact\",\"matched\":1,\"reference_calls\":2,"
	              "\"output_calls\":3,\"precision\":0.3333,\"recall\":0.5,\"f1\":0.4,"
	              "\"missing\":[{\"ref\":2,\"name\":\"book\"}],\"extra\":[{\"call\":3,\"name\":\"think\"}],"
	              "\"out_of_order\":[],\"args_differ\":[{\"ref\":2,\"call\":2,\"name\":\"book\",\"diffs\":[]}]}");
	json_object_set(json_array_get(json_object_get(d, "args_differ"), 0), "diffs", diffs);
	struct strbuf sb = STRBUF_INIT;
	tm_explain(d, &sb);
	assert_non_null(strstr(sb.buf, "mode superset, args exact: 1 of 2 reference calls matched, 3 calls made\n"));
	assert_non_null(strstr(sb.buf, "precision 0.33  recall 0.50  F1 0.40\n"));
	assert_non_null(strstr(sb.buf, "missing   #2 book\n"));
	assert_non_null(strstr(sb.buf, "extra     call 3 think\n"));
	assert_non_null(strstr(sb.buf, "args      #2 book (call 2)\n"));
	assert_non_null(strstr(sb.buf, "pax.n: output 2 reference 3\n"));
	assert_non_null(strstr(sb.buf, "date: output (absent) reference \"2024-05-20\"\n"));
	strbuf_release(&sb);
	json_decref(d);
	json_decref(diffs);
	json_decref(out);
	json_decref(ref);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deep_equal),
		cmocka_unit_test(test_loosened_equal),
		cmocka_unit_test(test_json_parse),
		cmocka_unit_test(test_arg_modes),
		cmocka_unit_test(test_key_paths),
		cmocka_unit_test(test_override_lookup),
		cmocka_unit_test(test_diff_and_explain),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
