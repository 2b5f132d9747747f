/* test_jdoc.c - the tape of util/jdoc against jansson, its errors, padding,
 * repair and accessors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <float.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util/jdoc.h"
#include "util/textvis.h"

#define LOAD_FLAGS (JSON_DECODE_ANY | JSON_ALLOW_NUL)

/* ---- helpers ------------------------------------------------------------ */

/* The record copied into a buffer of exactly its length, so that ASan sees
 * any read past it when the parser was told nothing more is readable. */
static char *exact_copy(const char *text, size_t len)
{
	char *p = malloc(len ? len : 1);
	assert_non_null(p);
	memcpy(p, text, len);
	return p;
}

/* Every node's offsets, ends and counts hold together, and each value's
 * source slice parses (alone) to the same tree as the node. */
static void check_tape(const struct jdoc *d, jv v)
{
	const struct jdoc_node *n = &d->nodes[v];
	assert_true(n->end > v && n->end <= d->nnodes);
	assert_true((size_t)n->src + n->src_len <= d->src_len);
	size_t rl;
	const char *raw = jv_raw(d, v, &rl);
	assert_ptr_equal(raw, d->src + n->src);
	assert_int_equal(rl, n->src_len);
	/* (Long slices are left out: deep documents would parse each level
	 * again, quadratic in the depth.) */
	json_error_t jerr;
	json_t *alone = rl < 1000 ? json_loadb(raw, rl, LOAD_FLAGS, &jerr) : NULL;
	if (rl >= 1000) {
		/* Only its ends: the brackets or quotes that open and close it. */
		if (n->type == JV_ARRAY)
			assert_true(raw[0] == '[' && raw[rl - 1] == ']');
		else if (n->type == JV_OBJECT)
			assert_true(raw[0] == '{' && raw[rl - 1] == '}');
		else if (n->type == JV_STRING)
			assert_true(raw[0] == '"' && raw[rl - 1] == '"');
	} else if (alone) {
		json_t *mine = jv_to_json(d, v);
		if (!json_equal(alone, mine))
			fail_msg("node %u: raw slice '%.*s' disagrees", v, (int)rl, raw);
		json_decref(mine);
		json_decref(alone);
	} else if (!(n->type == JV_NUMBER && !(n->flags & JVF_INT64)) && n->type != JV_OBJECT &&
	           n->type != JV_ARRAY) {
		fail_msg("node %u: raw slice '%.*s' does not parse: %s", v, (int)rl, raw, jerr.text);
	}
	if (n->type == JV_STRING || n->type == JV_NUMBER) {
		assert_true(n->text + n->count < d->strings_len);
		assert_int_equal(d->strings[n->text + n->count], 0);
		assert_int_equal(n->end, v + 1);
	}
	if (n->type == JV_ARRAY) {
		size_t count = 0;
		JV_EACH(d, v, e) {
			check_tape(d, e);
			count++;
		}
		assert_int_equal(count, n->count);
	} else if (n->type == JV_OBJECT) {
		size_t count = 0;
		JV_EACH_KEY(d, v, k) {
			assert_int_equal(jv_type(d, k), JV_STRING);
			check_tape(d, k);
			check_tape(d, jv_value(k));
			count++;
		}
		assert_int_equal(count, n->count);
	} else if (n->type != JV_STRING && n->type != JV_NUMBER) {
		assert_int_equal(n->end, v + 1);
	}
}

/* Both parsers accept text and build the same tree. */
static void assert_same(const char *text, size_t len)
{
	json_error_t jerr;
	json_t *want = json_loadb(text, len, LOAD_FLAGS, &jerr);
	if (!want)
		fail_msg("jansson refuses '%.*s': %s", (int)len, text, jerr.text);
	char *buf = exact_copy(text, len);
	struct jdoc_error err;
	struct jdoc *d = jdoc_parse(buf, len, len, &err);
	if (!d)
		fail_msg("jdoc refuses '%.*s': %s (column %d)", (int)len, text, err.text, err.column);
	assert_false(d->repaired);
	json_t *got = jv_to_json(d, jdoc_root(d));
	if (!json_equal(want, got)) {
		char *a = json_dumps(want, JSON_ENCODE_ANY), *b = json_dumps(got, JSON_ENCODE_ANY);
		fail_msg("'%.*s': jansson %s, jdoc %s", (int)len, text, a, b);
	}
	check_tape(d, jdoc_root(d));
	json_decref(want);
	json_decref(got);
	jdoc_free(d);
	free(buf);
}

static void assert_same_str(const char *text)
{
	assert_same(text, strlen(text));
}

/* Both refuse, and jdoc reports jansson's text, line, column and place. */
static void assert_refused(const char *text, size_t len, const char *want_text)
{
	json_error_t jerr;
	json_t *j = json_loadb(text, len, LOAD_FLAGS, &jerr);
	if (j)
		fail_msg("jansson accepts '%.*s'", (int)len, text);
	char *buf = exact_copy(text, len);
	struct jdoc_error err;
	memset(&err, 0, sizeof err);
	struct jdoc *d = jdoc_parse(buf, len, len, &err);
	if (d)
		fail_msg("jdoc accepts '%.*s'", (int)len, text);
	assert_string_equal(err.text, jerr.text);
	assert_int_equal(err.line, jerr.line);
	assert_int_equal(err.column, jerr.column);
	assert_int_equal(err.position, (size_t)jerr.position);
	if (want_text)
		assert_string_equal(err.text, want_text);
	free(buf);
}

static void assert_refused_str(const char *text, const char *want_text)
{
	assert_refused(text, strlen(text), want_text);
}

static struct jdoc *parse_str(const char *text)
{
	struct jdoc_error err;
	struct jdoc *d = jdoc_parse_str(text, &err);
	if (!d)
		fail_msg("'%s' refused: %s", text, err.text);
	return d;
}

/* ---- a seeded generator of documents ------------------------------------- */

static uint64_t rng_state;

static uint32_t rnd(uint32_t n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return n ? (uint32_t)(rng_state % n) : 0;
}

struct buf {
	char *p;
	size_t len, cap;
};

static void put(struct buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->p = realloc(b->p, b->cap);
		assert_non_null(b->p);
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = 0;
}

static void puts_(struct buf *b, const char *s)
{
	put(b, s, strlen(s));
}

static void gen_ws(struct buf *b)
{
	static const char *ws[] = { "", "", "", " ", "\n", "\t", "\r\n", "  " };
	puts_(b, ws[rnd(8)]);
}

static void gen_string(struct buf *b)
{
	static const char *parts[] = {
		"a", "b", "key", "x y", "\\n", "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\r", "\\t",
		"\\u00e9", "\\u4e2d", "\\ud83d\\ude00", "\\uD834\\uDD1E", "\\u0041", "\\u0000",
		"\xc3\xa9", "\xe4\xb8\xad\xe6\x96\x87", "\xf0\x9f\x98\x80", "\xe2\x82\xac", " ", "0",
	};
	puts_(b, "\"");
	int n = (int)rnd(6);
	for (int i = 0; i < n; i++)
		puts_(b, parts[rnd(sizeof parts / sizeof *parts)]);
	puts_(b, "\"");
}

/* A key: like a string but without NULs (jansson refuses those in keys),
 * often from a small set so that keys repeat. */
static void gen_key(struct buf *b)
{
	static const char *keys[] = { "\"a\"", "\"b\"", "\"role\"", "\"\"", "\"\\u00e9\"", "\"a\"" };
	if (rnd(3)) {
		puts_(b, keys[rnd(6)]);
		return;
	}
	puts_(b, "\"k");
	char num[16];
	snprintf(num, sizeof num, "%u", rnd(100));
	puts_(b, num);
	puts_(b, "\"");
}

static void gen_number(struct buf *b)
{
	static const char *nums[] = {
		"0", "-0", "1", "-1", "42", "3.5", "-2.25", "1e3", "1E-3", "2.5e+10", "0.1", "-0.0",
		"9223372036854775807", "-9223372036854775808", "123456789", "1e-400", "5e-324",
		"1.7976931348623157e308", "0e0", "10.000",
	};
	puts_(b, nums[rnd(sizeof nums / sizeof *nums)]);
}

static void gen_value(struct buf *b, int depth)
{
	int k = (int)rnd(depth > 5 ? 6 : 9);
	switch (k) {
	case 0: puts_(b, "null"); break;
	case 1: puts_(b, "true"); break;
	case 2: puts_(b, "false"); break;
	case 3: case 4: gen_number(b); break;
	case 5: gen_string(b); break;
	case 6: case 7: {
		puts_(b, "[");
		int n = (int)rnd(5);
		for (int i = 0; i < n; i++) {
			if (i)
				puts_(b, ",");
			gen_ws(b);
			gen_value(b, depth + 1);
			gen_ws(b);
		}
		if (!n)
			gen_ws(b);
		puts_(b, "]");
		break;
	}
	default: {
		puts_(b, "{");
		int n = (int)rnd(5);
		for (int i = 0; i < n; i++) {
			if (i)
				puts_(b, ",");
			gen_ws(b);
			gen_key(b);
			gen_ws(b);
			puts_(b, ":");
			gen_ws(b);
			gen_value(b, depth + 1);
			gen_ws(b);
		}
		if (!n)
			gen_ws(b);
		puts_(b, "}");
	}
	}
}

static bool valid_utf8(const char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		size_t l = utf8_seq_len(s + i, n - i);
		if (!l)
			return false;
		i += l;
	}
	return true;
}

/* What jdoc accepts beyond jansson: numbers out of range and NULs in keys. */
static bool beyond_jansson(const char *jansson_text)
{
	return !strncmp(jansson_text, "too big integer", 15) ||
	       !strncmp(jansson_text, "too big negative integer", 24) ||
	       !strncmp(jansson_text, "real number overflow", 20) ||
	       !strncmp(jansson_text, "NUL byte in object key", 22);
}

/* jdoc and jansson agree on the len bytes at text: the same verdict, the
 * same tree, the same error; invalid UTF-8 is only checked for not
 * crashing. `readable` as for jdoc_parse: with room after the record it is
 * parsed in place, whatever lies behind it. */
static void assert_agree_in(const char *text, size_t len, size_t readable)
{
	char *buf = readable > len ? (char *)text : exact_copy(text, len);
	struct jdoc_error err;
	struct jdoc *d = jdoc_parse(buf, len, readable, &err);
	if (d && readable >= len + JDOC_PADDING)
		assert_null(d->own_src);
	if (!valid_utf8(text, len)) {
		if (d) {
			assert_true(d->repaired);
			check_tape(d, jdoc_root(d));
		}
		jdoc_free(d);
		if (buf != text)
			free(buf);
		return;
	}
	json_error_t jerr;
	json_t *want = json_loadb(text, len, LOAD_FLAGS, &jerr);
	if (want) {
		if (!d)
			fail_msg("jdoc refuses '%.*s' (%s) that jansson accepts", (int)len, text, err.text);
		json_t *got = jv_to_json(d, 0);
		if (!json_equal(want, got))
			fail_msg("trees differ for '%.*s'", (int)len, text);
		json_decref(got);
		json_decref(want);
		check_tape(d, 0);
	} else if (d) {
		if (!beyond_jansson(jerr.text))
			fail_msg("jdoc accepts '%.*s' that jansson refuses: %s", (int)len, text, jerr.text);
		check_tape(d, 0);
	} else {
		assert_string_equal(err.text, jerr.text);
		assert_int_equal(err.line, jerr.line);
		assert_int_equal(err.column, jerr.column);
		assert_int_equal(err.position, (size_t)jerr.position);
	}
	jdoc_free(d);
	if (buf != text)
		free(buf);
}

static void assert_agree(const char *text, size_t len)
{
	assert_agree_in(text, len, len);
}

/* ---- tests ---------------------------------------------------------------- */

static void test_same_as_jansson(void **state)
{
	(void)state;
	static const char *docs[] = {
		"null", "true", "false", "0", "-0", "1", "-1", "3.25", "-0.5e-3", "1E+5", "1e0",
		"\"\"", "\"plain\"", "[]", "{}", "[[]]", "[{}]", "{\"a\":{}}",
		"  [ ]  ", " \t\r\n{ \t\r\n} \n", "\n\n  \"x\"  \n",
		"[1,2,3]", "[1, 2.0, -3e2, \"x\", true, false, null, [], {}]",
		"{\"a\":1,\"b\":[1,2,{\"c\":null}],\"d\":{\"e\":{\"f\":\"g\"}}}",
		"{ \"a\" : 1 , \"b\" : [ true , false ] , \"c\" : { } }",
		"{\"a\":1,\"a\":2}",                          /* the last wins, in the first's place */
		"{\"a\":1,\"b\":2,\"a\":3}",
		"{\"x\":{\"y\":1},\"x\":[2]}",
		"\"\\u00e9\\u4e2d\\u6587\"",                  /* BMP escapes */
		"\"\\ud83d\\ude00 \\uD834\\uDD1E\"",          /* surrogate pairs */
		"\"\xf0\x9f\x98\x80\xe4\xb8\xad\xc3\xa9\"",   /* raw emoji, CJK, accent */
		"\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"",
		"\"a\\u0000b\"", "[\"\\u0000\"]",
		"{\"\xe4\xb8\xad\":\"\xe6\x96\x87\",\"\\u00e9\":1}",
		"9223372036854775807", "-9223372036854775808", "1e-400", "5e-324",
		"1.7976931348623157e308", "-1.7976931348623157e308", "0.1", "100000000000000000000.5",
		"[[[[[[[[[[1]]]]]]]]]]",
		"{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"},{\"role\":\"assistant\","
		"\"tool_calls\":[{\"id\":\"c1\",\"function\":{\"name\":\"f\",\"arguments\":\"{\\\"x\\\":1}\"}}]}]}",
	};
	for (size_t i = 0; i < sizeof docs / sizeof *docs; i++)
		assert_same_str(docs[i]);
	/* A long string, past simdjson's blocks of 64 bytes, with escapes
	 * straddling them. */
	struct buf b = { 0 };
	puts_(&b, "{\"long\":\"");
	for (int i = 0; i < 500; i++)
		puts_(&b, i % 7 ? "abcdefghij" : "\\n\\u00e9\\ud83d\\ude00\\\"x");
	puts_(&b, "\"}");
	assert_same(b.p, b.len);
	free(b.p);
}

static void test_random_documents(void **state)
{
	(void)state;
	rng_state = 0x9e3779b97f4a7c15ull;
	for (int i = 0; i < 3000; i++) {
		struct buf b = { 0 };
		gen_ws(&b);
		gen_value(&b, 0);
		gen_ws(&b);
		assert_same(b.p, b.len);
		free(b.p);
	}
}

static void test_refused_like_jansson(void **state)
{
	(void)state;
	assert_refused_str("", "unexpected token near end of file");
	assert_refused_str("   ", "unexpected token near end of file");
	assert_refused_str("[1,2", "']' expected near end of file");
	assert_refused_str("{\"a\":", "unexpected token near end of file");
	assert_refused_str("{\"a\"", "':' expected near end of file");
	assert_refused_str("\"abc", "premature end of input near '\"abc'");
	assert_refused_str("[1,]", "unexpected token near ']'");
	assert_refused_str("{\"a\":1,}", "string or '}' expected near '}'");
	assert_refused_str("[1 2]", "']' expected near '2'");
	assert_refused_str("{\"a\" 1}", "':' expected near '1'");
	assert_refused_str("{1:2}", "string or '}' expected near '1'");
	assert_refused_str("[1}", "']' expected near '}'");
	assert_refused_str("[1] x", "end of file expected near 'x'");
	assert_refused_str("{} {}", "end of file expected near '{'");
	assert_refused_str("1 2", "end of file expected near '2'");
	assert_refused_str("\"\\x\"", "invalid escape near '\"\\x'");
	assert_refused_str("\"\\u12\"", "invalid escape near '\"\\u12\"'");
	assert_refused_str("\"\\udc00\"", "invalid Unicode '\\uDC00' near '\"\\udc00\"'");
	assert_refused_str("\"\\ud800\"", "invalid Unicode '\\uD800' near '\"\\ud800\"'");
	assert_refused_str("\"\\ud800\\u0041\"", NULL);
	assert_refused_str("01", "invalid token near '0'");
	assert_refused_str("[01]", NULL);
	assert_refused_str("1.", "invalid token near '1.'");
	assert_refused_str("-", "invalid token near '-'");
	assert_refused_str("[-]", NULL);
	assert_refused_str("[.5]", NULL);
	assert_refused_str("[+1]", NULL);
	assert_refused_str("1e", "invalid token near '1e'");
	assert_refused_str("[1e+]", NULL);
	assert_refused_str("[1.e5]", NULL);
	assert_refused_str("[0x10]", NULL);
	assert_refused_str("[Infinity]", NULL);
	assert_refused_str("[NaN]", NULL);
	assert_refused_str("nul", "invalid token near 'nul'");
	assert_refused_str("[truex]", NULL);
	assert_refused_str("[tru]", NULL);
	assert_refused_str("[nulll]", NULL);
	assert_refused_str("{\"a\":fals}", NULL);
	assert_refused_str("\"a\x01\"", "control character 0x1 near '\"a'");
	assert_refused_str("\"\t\"", "control character 0x9 near '\"'");
	assert_refused_str("[\"a\nb\"]", NULL);
	assert_refused_str("\xef\xbb\xbf[1]", NULL);       /* a byte order mark */
	assert_refused_str("[\"a\"x]", NULL);
	assert_refused_str("{\"a\":1 \"b\":2}", NULL);
	assert_refused_str("[1,,2]", NULL);
	assert_refused_str("{,}", NULL);
	assert_refused_str("[1]]", NULL);
	assert_refused_str("]", NULL);
	assert_refused_str("'a'", NULL);
	assert_refused_str("[1]\n\n  {", NULL);
	assert_refused_str("{\n  \"a\": 1,\n  \"b\": tru\n}", NULL);
	/* The line and column are jansson's, counted in characters. */
	struct jdoc_error err;
	assert_null(jdoc_parse_str("{\"\xc3\xa9\xc3\xa9\":\n  [1,\n   2,,]}", &err));
	assert_int_equal(err.line, 3);
	assert_int_equal(err.column, 6);
	/* Every truncation of a valid record is refused with jansson's error. */
	const char *full = "{\"a\":[1,2.5e3,\"x\\u00e9y\",{\"b\":null,\"c\":true}],\"d\":false}";
	for (size_t n = 0; n < strlen(full); n++)
		assert_refused(full, n, NULL);
}

static void test_beyond_jansson(void **state)
{
	(void)state;
	/* A NUL inside a string counts in its length and stays in the tree. */
	struct jdoc *d = parse_str("[\"a\\u0000b\", \"\\u0000\"]");
	jv s = jv_at(d, 0, 0);
	assert_int_equal(jv_strlen(d, s), 3);
	assert_memory_equal(jv_str(d, s), "a\0b", 4);
	assert_int_equal(jv_strlen(d, jv_at(d, 0, 1)), 1);
	json_t *t = jv_to_json(d, s);
	assert_int_equal(json_string_length(t), 3);
	assert_memory_equal(json_string_value(t), "a\0b", 3);
	json_decref(t);
	jdoc_free(d);

	/* Integers past int64: valid JSON, the text kept, a real in trees. */
	d = parse_str("[123456789012345678901234567890, 9223372036854775808, -9223372036854775809,"
	              " 9223372036854775807, -9223372036854775808]");
	jv big = jv_at(d, 0, 0);
	assert_string_equal(jv_number_text(d, big), "123456789012345678901234567890");
	assert_int_equal(d->nodes[big].flags, JVF_INTEGER);
	assert_false(jv_is_integer(d, big));
	assert_true(jv_real(d, big) == 123456789012345678901234567890.0);
	t = jv_to_json(d, big);
	assert_true(json_is_real(t));
	assert_true(json_real_value(t) == 123456789012345678901234567890.0);
	json_decref(t);
	assert_false(jv_is_integer(d, jv_at(d, 0, 1)));
	assert_false(jv_is_integer(d, jv_at(d, 0, 2)));
	assert_int_equal(d->nodes[jv_at(d, 0, 3)].flags, JVF_INTEGER | JVF_INT64);
	assert_true(jv_int(d, jv_at(d, 0, 3)) == INT64_MAX);
	assert_true(jv_int(d, jv_at(d, 0, 4)) == INT64_MIN);
	assert_true(jv_int(d, big) == INT64_MAX);         /* clamped */
	size_t rl;
	const char *raw = jv_raw(d, big, &rl);
	assert_int_equal(rl, 30);
	assert_memory_equal(raw, "123456789012345678901234567890", 30);
	jdoc_free(d);

	/* Numbers past a double's range: the text kept, flagged, +-HUGE_VAL
	 * here and +-DBL_MAX in trees. Underflow is no overflow. */
	d = parse_str("[1e400, -1E+400, 1e-400, 1e308, 1" "000000000000000000000000000000000000000000000000"
	              "000000000000000000000000000000000000000000000000000000000000000000000000000000"
	              "000000000000000000000000000000000000000000000000000000000000000000000000000000"
	              "000000000000000000000000000000000000000000000000000000000000000000000000000000"
	              "000000000000000000000000000000000000000.0]");
	jv inf = jv_at(d, 0, 0), ninf = jv_at(d, 0, 1), tiny = jv_at(d, 0, 2);
	assert_string_equal(jv_number_text(d, inf), "1e400");
	assert_int_equal(d->nodes[inf].flags, JVF_RANGE);
	assert_int_equal(d->nodes[ninf].flags, JVF_RANGE);
	assert_true(jv_real(d, inf) == HUGE_VAL);
	assert_true(jv_real(d, ninf) == -HUGE_VAL);
	assert_int_equal(d->nodes[tiny].flags, 0);
	assert_true(jv_real(d, tiny) == 0);
	assert_int_equal(d->nodes[jv_at(d, 0, 3)].flags, 0);
	assert_int_equal(d->nodes[jv_at(d, 0, 4)].flags, JVF_RANGE);   /* 1 and 320 zeros */
	t = jv_to_json(d, 0);
	assert_true(json_real_value(json_array_get(t, 0)) == DBL_MAX);
	assert_true(json_real_value(json_array_get(t, 1)) == -DBL_MAX);
	json_decref(t);
	jdoc_free(d);

	/* A key holding a NUL (jansson refuses it) keeps its whole length. */
	d = parse_str("{\"k\\u0000z\":1}");
	assert_int_equal(jv_strlen(d, jv_first(d, 0)), 3);
	assert_int_equal(jv_int(d, jv_getn(d, 0, "k\0z", 3)), 1);
	assert_int_equal(jv_get(d, 0, "k"), JV_NONE);
	t = jv_to_json(d, 0);
	assert_non_null(json_object_getn(t, "k\0z", 3));
	json_decref(t);
	jdoc_free(d);
}

static void test_utf8_repaired(void **state)
{
	(void)state;
	/* Each bad byte becomes U+FFFD, as util/textvis and the loaders always
	 * repaired records; the tape's offsets count in the repaired bytes. */
	static const char text[] = "{\"a\":\"x\xffy\",\"\xc3\":\"\xe2\x82\",\"ok\":\"\xe2\x82\xac\"}";
	struct jdoc_error err;
	struct jdoc *d = jdoc_parse(text, sizeof text - 1, sizeof text - 1, &err);
	assert_non_null(d);
	assert_true(d->repaired);
	assert_non_null(d->own_src);
	assert_ptr_equal(d->src, d->own_src);
	assert_string_equal(jv_str(d, jv_get(d, 0, "a")), "x\xef\xbf\xbdy");
	assert_string_equal(jv_str(d, jv_get(d, 0, "\xef\xbf\xbd")), "\xef\xbf\xbd\xef\xbf\xbd");
	assert_string_equal(jv_str(d, jv_get(d, 0, "ok")), "\xe2\x82\xac");
	size_t rl;
	const char *raw = jv_raw(d, jv_get(d, 0, "a"), &rl);
	assert_int_equal(rl, 7);
	assert_memory_equal(raw, "\"x\xef\xbf\xbdy\"", 7);
	check_tape(d, 0);
	jdoc_free(d);

	/* Surrogates and overlong forms written in UTF-8 are invalid too. */
	d = jdoc_parse_str("[\"\xed\xa0\x80\", \"\xc0\xaf\"]", &err);
	assert_non_null(d);
	assert_true(d->repaired);
	assert_string_equal(jv_str(d, jv_at(d, 0, 0)), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	assert_string_equal(jv_str(d, jv_at(d, 0, 1)), "\xef\xbf\xbd\xef\xbf\xbd");
	jdoc_free(d);

	/* Repaired but still broken: jansson's error on the repaired bytes. */
	assert_null(jdoc_parse_str("[\"\xff\", tru]", &err));
	assert_string_equal(err.text, "invalid token near 'tru'");
	assert_int_equal(err.column, 9);
	assert_int_equal(err.position, 11);
}

static void test_padding(void **state)
{
	(void)state;
	static const char rec[] = "{\"a\":[1,2,\"three\"]}";
	size_t len = sizeof rec - 1;
	struct jdoc_error err;

	/* Nothing readable past the record: it is copied. */
	char *exact = exact_copy(rec, len);
	struct jdoc *d = jdoc_parse(exact, len, len, &err);
	assert_non_null(d);
	assert_non_null(d->own_src);
	assert_ptr_equal(d->src, d->own_src);
	assert_int_equal(d->src_len, len);
	free(exact);                         /* the copy does not borrow it */
	assert_string_equal(jv_str(d, jv_at(d, jv_get(d, 0, "a"), -1)), "three");
	size_t rl;
	assert_memory_equal(jv_raw(d, 0, &rl), rec, len);
	jdoc_free(d);

	/* JDOC_PADDING bytes readable after it: parsed in place. */
	char *padded = malloc(len + JDOC_PADDING);
	memcpy(padded, rec, len);
	memset(padded + len, 'x', JDOC_PADDING);
	d = jdoc_parse(padded, len, len + JDOC_PADDING, &err);
	assert_non_null(d);
	assert_null(d->own_src);
	assert_ptr_equal(d->src, padded);
	assert_ptr_equal(jv_raw(d, jv_get(d, 0, "a"), &rl), padded + 5);
	assert_int_equal(rl, 13);
	jdoc_free(d);
	/* One byte short of the padding: copied. */
	d = jdoc_parse(padded, len, len + JDOC_PADDING - 1, &err);
	assert_non_null(d);
	assert_non_null(d->own_src);
	jdoc_free(d);
	free(padded);

	/* A record sharing its buffer with others parses only its own bytes. */
	static const char two[] = "[1,2]\n[3]\n";
	d = jdoc_parse(two, 5, sizeof two, &err);
	assert_non_null(d);
	assert_int_equal(jv_len(d, 0), 2);
	jdoc_free(d);
}

/* A file of exactly one page, mapped with nothing after it, and mapped
 * again with a zero page after it as util/dataset maps files. */
static void test_page_exact_file(void **state)
{
	(void)state;
	long page = sysconf(_SC_PAGESIZE);
	char path[] = "test_jdoc_pageXXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	char *data = malloc((size_t)page);
	memset(data, ' ', (size_t)page);
	memcpy(data, "{\"first\":1}\n", 12);
	/* The last record ends at the page's last byte. */
	const char *last = "{\"last\":\"record\",\"n\":[1,2,3]}";
	size_t last_len = strlen(last);
	memcpy(data + page - last_len, last, last_len);
	data[page - last_len - 1] = '\n';
	assert_int_equal(write(fd, data, (size_t)page), page);
	free(data);

	/* Reserve two pages, give the second back, map the file on the first:
	 * any read past the file faults. */
	char *area = mmap(NULL, (size_t)page * 2, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(area != MAP_FAILED);
	assert_int_equal(munmap(area + page, (size_t)page), 0);
	char *m = mmap(area, (size_t)page, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0);
	assert_ptr_equal(m, area);
	const char *rec = m + page - last_len;
	struct jdoc_error err;
	struct jdoc *d = jdoc_parse(rec, last_len, last_len, &err);
	assert_non_null(d);
	assert_non_null(d->own_src);
	assert_string_equal(jv_str(d, jv_get(d, 0, "last")), "record");
	assert_int_equal(jv_int(d, jv_at(d, jv_get(d, 0, "n"), -1)), 3);
	jdoc_free(d);
	munmap(m, (size_t)page);

	/* With the spare zero page the same record is parsed in place. */
	area = mmap(NULL, (size_t)page * 2, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(area != MAP_FAILED);
	m = mmap(area, (size_t)page, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0);
	assert_ptr_equal(m, area);
	rec = m + page - last_len;
	d = jdoc_parse(rec, last_len, last_len + (size_t)page, &err);
	assert_non_null(d);
	assert_null(d->own_src);
	assert_ptr_equal(d->src, rec);
	assert_string_equal(jv_str(d, jv_get(d, 0, "last")), "record");
	jdoc_free(d);
	d = jdoc_parse(m, 11, (size_t)page * 2, &err);
	assert_non_null(d);
	assert_int_equal(jv_int(d, jv_get(d, 0, "first")), 1);
	jdoc_free(d);
	munmap(area, (size_t)page * 2);
	close(fd);
	unlink(path);
}

static void test_accessors(void **state)
{
	(void)state;
	struct jdoc *d = parse_str(
		"{\"name\":\"x\",\"list\":[10,20,30],\"obj\":{\"k\":\"v\",\"n\":null},"
		"\"name\":\"y\",\"dotted\":{\"a.b\":{\"q\\\"k\":[{\"z\":true}]}},\"e\":[]}");
	jv root = jdoc_root(d);
	assert_int_equal(root, 0);
	assert_true(jv_is_object(d, root));
	assert_int_equal(jv_len(d, root), 6);

	/* The last of a repeated key. */
	assert_string_equal(jv_str(d, jv_get(d, root, "name")), "y");
	assert_true(jv_streq(d, jv_get(d, root, "name"), "y"));
	assert_false(jv_streq(d, jv_get(d, root, "name"), "yy"));
	assert_false(jv_streq(d, jv_get(d, root, "list"), "y"));
	assert_int_equal(jv_get(d, root, "missing"), JV_NONE);
	assert_int_equal(jv_getn(d, root, "namex", 4), jv_get(d, root, "name"));

	/* Chains through JV_NONE answer as missing. */
	jv none = jv_get(d, jv_get(d, root, "nope"), "deeper");
	assert_int_equal(none, JV_NONE);
	assert_int_equal(jv_type(d, none), JV_MISSING);
	assert_null(jv_str(d, none));
	assert_string_equal(jv_str_or(d, none, "dflt"), "dflt");
	assert_int_equal(jv_len(d, none), 0);
	assert_int_equal(jv_int(d, none), 0);
	assert_true(jv_real(d, none) == 0);
	assert_int_equal(jv_at(d, none, 0), JV_NONE);
	assert_null(jv_to_json(d, none));
	assert_null(jv_number_text(d, none));
	assert_int_equal(jdoc_root(NULL), JV_NONE);

	/* Arrays: indexes from either end, iteration in order. */
	jv list = jv_get(d, root, "list");
	assert_int_equal(jv_int(d, jv_at(d, list, 0)), 10);
	assert_int_equal(jv_int(d, jv_at(d, list, 2)), 30);
	assert_int_equal(jv_int(d, jv_at(d, list, -1)), 30);
	assert_int_equal(jv_int(d, jv_at(d, list, -3)), 10);
	assert_int_equal(jv_at(d, list, 3), JV_NONE);
	assert_int_equal(jv_at(d, list, -4), JV_NONE);
	assert_int_equal(jv_at(d, list, LONG_MIN), JV_NONE);
	assert_int_equal(jv_at(d, root, 0), JV_NONE);
	int64_t sum = 0, n = 0;
	JV_EACH(d, list, e) {
		sum += jv_int(d, e) * ++n;
	}
	assert_int_equal(sum, 10 + 40 + 90);
	n = 0;
	JV_EACH(d, jv_get(d, root, "e"), e)
		n++;
	JV_EACH(d, jv_get(d, root, "obj"), e)    /* not an array: nothing */
		n++;
	assert_int_equal(n, 0);

	/* Objects: members in the record's order, duplicates included. */
	const char *keys[8];
	size_t nk = 0;
	JV_EACH_KEY(d, root, k) {
		keys[nk++] = jv_str(d, k);
	}
	assert_int_equal(nk, 6);
	assert_string_equal(keys[0], "name");
	assert_string_equal(keys[1], "list");
	assert_string_equal(keys[3], "name");
	assert_string_equal(keys[5], "e");
	JV_EACH_KEY(d, list, k)
		fail_msg("an array has no keys");

	/* Paths in util/jsonpath's syntax. */
	assert_string_equal(jv_str(d, jv_path(d, root, "obj.k")), "v");
	assert_true(jv_is_null(d, jv_path(d, root, "obj.n")));
	assert_int_equal(jv_int(d, jv_path(d, root, "list[1]")), 20);
	assert_int_equal(jv_int(d, jv_path(d, root, "list[-1]")), 30);
	assert_int_equal(jv_type(d, jv_path(d, root, "dotted[\"a.b\"][\"q\\\"k\"][0].z")), JV_TRUE);
	assert_int_equal(jv_type(d, jv_path(d, root, "dotted['a.b']")), JV_OBJECT);
	assert_int_equal(jv_path(d, root, "obj.missing"), JV_NONE);
	assert_int_equal(jv_path(d, root, "list[5]"), JV_NONE);
	assert_int_equal(jv_path(d, root, "list..x"), JV_NONE);     /* bad syntax */
	assert_int_equal(jv_path(d, root, ""), JV_NONE);
	assert_int_equal(jv_path(d, root, "name"), jv_get(d, root, "name"));

	/* Raw slices: the record's own bytes. */
	size_t rl;
	const char *raw = jv_raw(d, jv_get(d, root, "obj"), &rl);
	assert_int_equal(rl, strlen("{\"k\":\"v\",\"n\":null}"));
	assert_memory_equal(raw, "{\"k\":\"v\",\"n\":null}", rl);
	raw = jv_raw(d, jv_path(d, root, "dotted"), &rl);
	assert_memory_equal(raw, "{\"a.b\":{\"q\\\"k\":[{\"z\":true}]}}", rl);
	assert_null(jv_raw(d, JV_NONE, &rl));
	assert_int_equal(rl, 0);

	assert_true(jdoc_bytes(d) > sizeof(struct jdoc));
	assert_int_equal(jdoc_bytes(NULL), 0);
	jdoc_free(d);
	jdoc_free(NULL);
}

static void test_scalars(void **state)
{
	(void)state;
	struct jdoc *d = parse_str("[3.9, -3.9, 7, \"7\", true, 2.5e1, 0.1, -0]");
	assert_int_equal(jv_int(d, jv_at(d, 0, 0)), 3);
	assert_int_equal(jv_int(d, jv_at(d, 0, 1)), -3);
	assert_int_equal(jv_int(d, jv_at(d, 0, 2)), 7);
	assert_int_equal(jv_int(d, jv_at(d, 0, 3)), 0);      /* not a number */
	assert_int_equal(jv_int(d, jv_at(d, 0, 4)), 0);
	assert_true(jv_is_integer(d, jv_at(d, 0, 2)));
	assert_false(jv_is_integer(d, jv_at(d, 0, 0)));
	assert_true(jv_is_bool(d, jv_at(d, 0, 4)));
	assert_true(jv_real(d, jv_at(d, 0, 5)) == 25.0);
	assert_string_equal(jv_number_text(d, jv_at(d, 0, 5)), "2.5e1");
	assert_null(jv_number_text(d, jv_at(d, 0, 3)));
	assert_null(jv_str(d, jv_at(d, 0, 2)));
	assert_int_equal(jv_strlen(d, jv_at(d, 0, 2)), 0);

	/* Reals read the same whatever LC_NUMERIC says (the program calls
	 * setlocale): tried under a comma-decimal locale when one exists. */
	static const char *comma[] = { "de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8",
	                               "nl_NL.UTF-8", "ru_RU.UTF-8", "de_DE", "fr_FR" };
	bool tried = false;
	for (size_t i = 0; i < sizeof comma / sizeof *comma && !tried; i++) {
		if (!setlocale(LC_NUMERIC, comma[i]))
			continue;
		tried = true;
		assert_true(jv_real(d, jv_at(d, 0, 0)) == 3.9);
		assert_true(jv_real(d, jv_at(d, 0, 6)) == 0.1);
		struct jdoc *d2 = parse_str("[2.5]");
		assert_true(jv_real(d2, jv_at(d2, 0, 0)) == 2.5);
		json_t *t = jv_to_json(d2, 0);
		assert_true(json_real_value(json_array_get(t, 0)) == 2.5);
		json_decref(t);
		jdoc_free(d2);
		setlocale(LC_NUMERIC, "C");
	}
	if (!tried)
		printf("# test_scalars: no comma-decimal locale installed; checked in the C locale only\n");
	assert_true(jv_real(d, jv_at(d, 0, 0)) == 3.9);
	assert_true(jv_real(d, jv_at(d, 0, 6)) == 0.1);
	assert_true(jv_real(d, jv_at(d, 0, 7)) == 0);
	jdoc_free(d);
}

static void test_truthy(void **state)
{
	(void)state;
	struct jdoc *d = parse_str("[0, 0.0, -0, 0e5, 1e-400, \"\", null, false,"
	                           " 1, -1, 0.5, \"0\", \"false\", [], {}, true, 1e400]");
	for (long i = 0; i < 8; i++)
		if (jv_truthy(d, jv_at(d, 0, i)))
			fail_msg("element %ld should be falsy", i);
	for (long i = 8; i < 17; i++)
		if (!jv_truthy(d, jv_at(d, 0, i)))
			fail_msg("element %ld should be truthy", i);
	assert_false(jv_truthy(d, JV_NONE));
	jdoc_free(d);
}

static void test_equal(void **state)
{
	(void)state;
	static const char *same[][2] = {
		{ "5", "5.0" }, { "100", "1e2" }, { "-0", "0" }, { "0.5", "5e-1" },
		{ "{\"a\":1,\"b\":[1,2]}", "{\"b\":[1,2.0],\"a\":1}" },
		{ "{\"a\":1,\"a\":2}", "{\"a\":2}" },
		{ "{\"a\":{\"x\":null,\"y\":true}}", "{\"a\":{\"y\":true,\"x\":null}}" },
		{ "\"a\\u0000b\"", "\"a\\u0000b\"" }, { "\"\\u00e9\"", "\"\xc3\xa9\"" },
		{ "[]", "[ ]" }, { "{}", "{ }" }, { "null", "null" }, { "true", "true" },
		{ "9223372036854775807", "9223372036854775807" },
		/* Numbers are doubles to JavaScript: these two read the same. */
		{ "9007199254740993", "9007199254740992" }, { "1e400", "2e400" },
	};
	static const char *differ[][2] = {
		{ "5", "6" }, { "5", "\"5\"" }, { "true", "1" }, { "null", "false" }, { "[]", "{}" },
		{ "[1,2]", "[2,1]" }, { "[1]", "[1,1]" }, { "{\"a\":1}", "{\"a\":1,\"b\":2}" },
		{ "{\"a\":1,\"b\":2}", "{\"a\":1}" }, { "{\"a\":1,\"a\":2}", "{\"a\":1}" },
		{ "\"a\\u0000b\"", "\"a\\u0000c\"" }, { "\"a\"", "\"a\\u0000\"" },
		{ "9007199254740991", "9007199254740990" }, { "{\"a\":[1]}", "{\"a\":[2]}" },
		{ "1e400", "-1e400" },
	};
	for (size_t i = 0; i < sizeof same / sizeof *same; i++) {
		struct jdoc *a = parse_str(same[i][0]), *b = parse_str(same[i][1]);
		if (!jv_equal(a, 0, b, 0) || !jv_equal(b, 0, a, 0))
			fail_msg("%s should equal %s", same[i][0], same[i][1]);
		jdoc_free(a);
		jdoc_free(b);
	}
	for (size_t i = 0; i < sizeof differ / sizeof *differ; i++) {
		struct jdoc *a = parse_str(differ[i][0]), *b = parse_str(differ[i][1]);
		if (jv_equal(a, 0, b, 0) || jv_equal(b, 0, a, 0))
			fail_msg("%s should differ from %s", differ[i][0], differ[i][1]);
		jdoc_free(a);
		jdoc_free(b);
	}
	struct jdoc *a = parse_str("[1]");
	assert_false(jv_equal(a, 0, a, JV_NONE));
	assert_true(jv_equal(a, jv_at(a, 0, 0), a, jv_at(a, 0, 0)));
	jdoc_free(a);
}

static void test_from_json(void **state)
{
	(void)state;
	json_t *v = json_pack("{s:i, s:f, s:[s, b, n], s:{}}", "i", 42, "r", 2.5, "l", "x\xc3\xa9", 1, "o");
	json_object_setn_new(v, "nul\0key", 7, json_stringn("a\0b", 3));
	struct jdoc *d = jdoc_from_json(v);
	assert_non_null(d);
	assert_non_null(d->own_src);
	json_t *back = jv_to_json(d, jdoc_root(d));
	/* json_equal cannot see keys holding NULs: that one is compared alone. */
	json_t *nul = json_object_getn(back, "nul\0key", 7);
	assert_non_null(nul);
	assert_int_equal(json_string_length(nul), 3);
	assert_memory_equal(json_string_value(nul), "a\0b", 3);
	json_object_deln(back, "nul\0key", 7);
	json_object_deln(v, "nul\0key", 7);
	assert_true(json_equal(v, back));
	assert_int_equal(jv_int(d, jv_get(d, 0, "i")), 42);
	assert_true(jv_real(d, jv_get(d, 0, "r")) == 2.5);
	size_t rl;
	const char *raw = jv_raw(d, jv_get(d, 0, "l"), &rl);
	assert_memory_equal(raw, "[\"x\xc3\xa9\",true,null]", rl);
	json_decref(back);
	json_decref(v);
	jdoc_free(d);
	assert_null(jdoc_from_json(NULL));

	v = json_integer(7);
	d = jdoc_from_json(v);
	assert_int_equal(jv_int(d, 0), 7);
	jdoc_free(d);
	json_decref(v);
}

static void test_depth(void **state)
{
	(void)state;
	/* jansson counts every value toward its depth, scalars too: 2048
	 * levels pass, a value at level 2049 is refused; so in jdoc. Arrays,
	 * objects and both mixed, with and without a scalar innermost. */
	for (int kind = 0; kind < 6; kind++) {
		bool leaf = kind >= 3;
		for (int depth = JDOC_MAX_DEPTH - 2; depth <= JDOC_MAX_DEPTH + 2; depth++) {
			/* Levels above the innermost value, which is 1 or empty. */
			int outer = depth - 1;
			struct buf b = { 0 };
			for (int i = 0; i < outer; i++)
				puts_(&b, kind % 3 == 0 || (kind % 3 == 2 && i % 2) ? "[" : "{\"k\": ");
			puts_(&b, leaf ? "1" : kind % 3 == 0 || (kind % 3 == 2 && outer % 2) ? "[]" : "{}");
			for (int i = outer - 1; i >= 0; i--)
				puts_(&b, kind % 3 == 0 || (kind % 3 == 2 && i % 2) ? "]" : "}");
			if (depth <= JDOC_MAX_DEPTH)
				assert_same(b.p, b.len);
			else
				assert_refused(b.p, b.len, NULL);
			free(b.p);
		}
	}
	assert_refused_str("[", NULL);
	/* Far deeper, and unclosed. */
	struct buf b = { 0 };
	for (int i = 0; i < 100000; i++)
		puts_(&b, "[");
	assert_refused(b.p, b.len, NULL);
	free(b.p);
}

static void test_fuzz(void **state)
{
	(void)state;
	static const char alphabet[] = "{}[],:\"\\ \n\t0123456789-+.eEtruefalsnl u\x01\xff\xc3\xa9";
	rng_state = 12345;
	for (int i = 0; i < 4000; i++) {
		char in[96];
		size_t n = rnd(sizeof in);
		for (size_t k = 0; k < n; k++)
			in[k] = i % 4 == 0 ? (char)rnd(256) : alphabet[rnd(sizeof alphabet - 1)];
		assert_agree(in, n);
	}
	/* Mutations of generated documents: a byte replaced, dropped or
	 * doubled, and every prefix. */
	rng_state = 777;
	for (int i = 0; i < 1500; i++) {
		struct buf b = { 0 };
		gen_value(&b, 0);
		char *m = malloc(b.len + 2);
		memcpy(m, b.p, b.len);
		size_t n = b.len, at = rnd((uint32_t)n);
		switch (rnd(3)) {
		case 0: m[at] = alphabet[rnd(sizeof alphabet - 1)]; break;
		case 1: memmove(m + at, m + at + 1, n - at - 1); n--; break;
		default: memmove(m + at + 1, m + at, n - at); n++; break;
		}
		assert_agree(m, n);
		if (i % 50 == 0)
			for (size_t k = 0; k < b.len; k++)
				assert_agree(b.p, k);
		free(m);
		free(b.p);
	}
}

/* Parsed in place, a record ends at its length even when what lies in the
 * padding after it would complete it: every prefix of a record, followed
 * in memory by the rest of it. */
static void test_in_place_prefixes(void **state)
{
	(void)state;
	static const char *docs[] = {
		"{\"a\":[1,2.5e3,\"x\\u00e9y\\\"\",{\"b\":null,\"c\":true}],\"d\":false}",
		"\"abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz\\n\"",
		"[12345678901234567890, -0.5e-7, true, false, null, \"\\ud83d\\ude00\"]",
		"123456", "true", "nulls",
	};
	for (size_t i = 0; i < sizeof docs / sizeof *docs; i++) {
		size_t n = strlen(docs[i]);
		char *buf = malloc(n + JDOC_PADDING);
		memcpy(buf, docs[i], n);
		memset(buf + n, '"', JDOC_PADDING);
		for (size_t k = 0; k <= n; k++)
			assert_agree_in(buf, k, n + JDOC_PADDING);
		free(buf);
	}
	/* NUL bytes, in strings and out. */
	assert_agree("[\"a\0b\"]", 7);
	assert_agree("[1]\0", 4);
	assert_agree("\0", 1);
	assert_agree("[1,\0]", 5);
}

static void test_too_large(void **state)
{
	(void)state;
	/* Refused before a byte is read, so no 4 GiB buffer is needed. */
	struct jdoc_error err;
	char one = '1';
	assert_null(jdoc_parse(&one, (size_t)1 << 32, (size_t)1 << 32, &err));
	assert_string_equal(err.text, "record too large (4 GiB or more)");
}

/* A string attribute holding JSON read into the same tape: its values
 * answer the accessors, the record is unchanged, and strings borrowed
 * before the graft are still readable after it. */
static void test_graft(void **state)
{
	(void)state;
	struct jdoc *d = jdoc_parse_str("{\"id\": \"t1\", \"attr\": "
	                                "\"[{\\\"role\\\": \\\"user\\\", \\\"n\\\": 5}]\", "
	                                "\"bad\": \"{nope\", \"num\": 3}", NULL);
	assert_non_null(d);
	const char *before = jv_str(d, jv_get(d, jdoc_root(d), "id"));
	uint32_t record_end = d->nodes[0].end;
	jv g = JV_NONE;
	for (int i = 0; i < 40; i++)        /* enough to outgrow the string buffer */
		g = jdoc_graft(d, jv_get(d, jdoc_root(d), "attr"));
	assert_true(jv_is_array(d, g));
	assert_int_equal(jv_len(d, g), 1);
	jv m = jv_first(d, g);
	assert_string_equal(jv_str(d, jv_get(d, m, "role")), "user");
	assert_int_equal(jv_int(d, jv_get(d, m, "n")), 5);
	assert_string_equal(before, "t1");
	assert_int_equal(d->nodes[0].end, record_end);
	assert_int_equal(jv_len(d, jdoc_root(d)), 4);
	json_t *t = jv_to_json(d, g);
	char *text = json_dumps(t, JSON_COMPACT);
	assert_string_equal(text, "[{\"role\":\"user\",\"n\":5}]");
	free(text);
	json_decref(t);
	assert_int_equal(jdoc_graft(d, jv_get(d, jdoc_root(d), "bad")), JV_NONE);
	assert_int_equal(jdoc_graft(d, jv_get(d, jdoc_root(d), "num")), JV_NONE);
	assert_true(jdoc_bytes(d) > 0);
	jdoc_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_as_jansson),
		cmocka_unit_test(test_random_documents),
		cmocka_unit_test(test_refused_like_jansson),
		cmocka_unit_test(test_beyond_jansson),
		cmocka_unit_test(test_utf8_repaired),
		cmocka_unit_test(test_padding),
		cmocka_unit_test(test_page_exact_file),
		cmocka_unit_test(test_accessors),
		cmocka_unit_test(test_scalars),
		cmocka_unit_test(test_truthy),
		cmocka_unit_test(test_equal),
		cmocka_unit_test(test_from_json),
		cmocka_unit_test(test_depth),
		cmocka_unit_test(test_fuzz),
		cmocka_unit_test(test_in_place_prefixes),
		cmocka_unit_test(test_too_large),
		cmocka_unit_test(test_graft),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
