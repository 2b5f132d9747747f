/* test_tl_values.c - arguments and results as lines (tui/timeline_values.c):
 * strings of several lines as their lines, nested JSON, results that are
 * JSON text, the three shapes of diff, sanitising, hanging indents,
 * display width, folding, huge values staying lazy. */
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "../src/tui/timeline_int.h"
#include "../src/tui/timeline_values.h"
#include "tui/lazytext.h"
#include "util/strbuf.h"
#include "util/wtext.h"

/* ---- the logical lines, as "indent|head|body|slot" rows ------------------------ */

static void collect(void *ctx, const struct tv_line *l)
{
	struct strbuf *b = ctx;
	strbuf_addf(b, "%d|%.*s|%.*s|%s%s\n", l->indent, (int)l->head_len, l->head ? l->head : "",
	            (int)l->body_len, l->body ? l->body : "", theme_slot_name((enum theme_slot)l->body_slot),
	            l->block ? " block" : "");
}

static void assert_json_lines(const char *json, const char *want)
{
	json_t *v = json_loads(json, JSON_DECODE_ANY, NULL);
	assert_non_null(v);
	struct strbuf b = STRBUF_INIT;
	tv_json(v, 0, collect, &b);
	if (strcmp(b.buf ? b.buf : "", want))
		fail_msg("for %s\ngot:\n%s\nwant:\n%s", json, b.buf, want);
	strbuf_release(&b);
	json_decref(v);
}

static void test_multiline_strings_as_lines(void **s)
{
	(void)s;
	/* SWE-agent's create: the file's text as its lines, no \n or \" */
	assert_json_lines("{\"command\": \"create\", \"file_text\": \"import os\\nprint(\\\"hi\\\")\\n\"}",
	                  "0||{|json-value\n"
	                  "2|\"command\": |\"create\",|json-string\n"
	                  "2|\"file_text\":||json-string\n"
	                  "4||import os|json-string\n"
	                  "4||print(\"hi\")|json-string\n"
	                  "0||}|json-value\n");
	/* a one-line string keeps its quotes, without escapes; a trailing
	 * newline alone does not make it a block */
	assert_json_lines("{\"cmd\": \"grep \\\"x\\\" f\\n\", \"n\": 3, \"ok\": true, \"z\": null}",
	                  "0||{|json-value\n"
	                  "2|\"cmd\": |\"grep \"x\" f\",|json-string\n"
	                  "2|\"n\": |3,|json-number\n"
	                  "2|\"ok\": |true,|json-number\n"
	                  "2|\"z\": |null|json-number\n"
	                  "0||}|json-value\n");
	/* a string in a list (Codex's shell command) and a top-level string */
	assert_json_lines("[\"bash\", \"-lc\", \"cd x\\nls\"]",
	                  "0||[|json-value\n"
	                  "2||\"bash\",|json-string\n"
	                  "2||\"-lc\",|json-string\n"
	                  "2||cd x|json-string\n"
	                  "2||ls|json-string\n"
	                  "0||]|json-value\n");
	assert_json_lines("\"a\\r\\nb\\r\\n\"", "0||a|json-string\n0||b|json-string\n");
	assert_true(tv_multiline("a\nb", 3));
	assert_false(tv_multiline("a\n", 2));
	assert_false(tv_multiline("", 0));
}

/* Without strings of several lines the lines are json_dumps' own. */
static void test_nested_json_as_json_dumps(void **s)
{
	(void)s;
	const char *json = "{\"a\": {\"b\": [1, 2.5, {\"c\": \"d\"}], \"e\": {}, \"f\": []},"
	                   " \"g\": \"h\", \"i\": false}";
	json_t *v = json_loads(json, 0, NULL);
	char *want = json_dumps(v, JSON_INDENT(2));
	char *got = tv_json_text(v);
	assert_string_equal(got, want);
	free(want);
	free(got);
	json_decref(v);
}

/* A real in its shortest digits that read back as itself: 2.2, not the
 * 2.2000000000000002 seventeen digits give; still a real when whole. */
static void test_reals_shortest(void **s)
{
	(void)s;
	assert_json_lines("{\"d\": 2.2000000000000002, \"e\": 0.1, \"f\": 3.0, \"g\": 1e300,"
	                  " \"h\": 0.30000000000000004}",
	                  "0||{|json-value\n"
	                  "2|\"d\": |2.2,|json-number\n"
	                  "2|\"e\": |0.1,|json-number\n"
	                  "2|\"f\": |3.0,|json-number\n"
	                  "2|\"g\": |1e+300,|json-number\n"
	                  "2|\"h\": |0.30000000000000004|json-number\n"
	                  "0||}|json-value\n");
}

static void test_results_that_are_json_text(void **s)
{
	(void)s;
	const char *yes[] = { "{\"a\": 1}", "  [1, 2]\n", "\n{\"output\": \"x\\ny\"}" };
	for (size_t i = 0; i < 3; i++) {
		json_t *v = tv_parse_json_text(yes[i], strlen(yes[i]));
		assert_non_null(v);
		json_decref(v);
	}
	const char *no[] = { "plain text", "{not json", "42", "\"a string\"", "", "[1, 2] and more" };
	for (size_t i = 0; i < 6; i++)
		assert_null(tv_parse_json_text(no[i], strlen(no[i])));
}

static const char codex_patch[] =
	"*** Begin Patch\n*** Update File: src/a.ts\n@@\n describe('x', () => {\n-  old();\n"
	"+  fresh();\n*** End Patch\n";
static const char unified[] =
	"diff against HEAD\n--- a/src/a.c\n+++ b/src/a.c\n@@ -1,3 +1,3 @@\n int x;\n-int y;\n+long y;\n";

static void test_diff_detection(void **s)
{
	(void)s;
	assert_true(tv_is_diff(codex_patch, strlen(codex_patch)));
	assert_true(tv_is_diff(unified, strlen(unified)));
	const char git[] = "diff --git a/x b/x\nindex 1..2\n";
	assert_true(tv_is_diff(git, strlen(git)));
	const char hunk_only[] = "@@ -3,2 +3,2 @@\n-a\n+b\n";
	assert_true(tv_is_diff(hunk_only, strlen(hunk_only)));
	/* a list or a rule is not a diff */
	const char *no[] = { "- one\n- two\n+ three\n", "---\ntitle: x\n---\n", "@@ not a hunk\n-x\n", "" };
	for (size_t i = 0; i < 4; i++)
		if (tv_is_diff(no[i], strlen(no[i])))
			fail_msg("taken for a diff: %s", no[i]);
	assert_int_equal(tv_diff_slot("+++ b/x", 7), SLOT_DIFF_FILE);
	assert_int_equal(tv_diff_slot("@@ -1 +1 @@", 11), SLOT_DIFF_HUNK);
	assert_int_equal(tv_diff_slot("+x", 2), SLOT_DIFF_ADD);
	assert_int_equal(tv_diff_slot("-x", 2), SLOT_DIFF_DEL);
	assert_int_equal(tv_diff_slot(" x", 2), SLOT_DIFF_CONTEXT);
	assert_int_equal(tv_diff_slot("", 0), SLOT_DIFF_CONTEXT);
}

static void test_diff_lines_coloured(void **s)
{
	(void)s;
	/* Codex's apply_patch, its input a string */
	json_t *v = json_string(codex_patch);
	struct strbuf b = STRBUF_INIT;
	tv_json(v, 0, collect, &b);
	assert_string_equal(b.buf, "0||*** Begin Patch|diff-file\n"
	                           "0||*** Update File: src/a.ts|diff-file\n"
	                           "0||@@|diff-hunk\n"
	                           "0|| describe('x', () => {|diff-context\n"
	                           "0||-  old();|diff-del\n"
	                           "0||+  fresh();|diff-add\n"
	                           "0||*** End Patch|diff-file\n");
	json_decref(v);
	/* a unified diff in a result; "--- " without its "+++ " is a removed line */
	strbuf_reset(&b);
	tv_text(unified, strlen(unified), 2, SLOT_JSON_VALUE, true, collect, &b);
	assert_string_equal(b.buf, "2||diff against HEAD|diff-context\n"
	                           "2||--- a/src/a.c|diff-file\n"
	                           "2||+++ b/src/a.c|diff-file\n"
	                           "2||@@ -1,3 +1,3 @@|diff-hunk\n"
	                           "2|| int x;|diff-context\n"
	                           "2||-int y;|diff-del\n"
	                           "2||+long y;|diff-add\n");
	strbuf_reset(&b);
	const char sql[] = "@@ -1 +1 @@\n--- a comment\n+x\n";
	tv_text(sql, strlen(sql), 0, SLOT_JSON_VALUE, true, collect, &b);
	assert_string_equal(b.buf, "0||@@ -1 +1 @@|diff-hunk\n0||--- a comment|diff-del\n0||+x|diff-add\n");
	strbuf_release(&b);
	/* text that is no diff keeps its slot */
	strbuf_reset(&b);
	tv_text("- a\n+ b", 7, 0, SLOT_JSON_VALUE, true, collect, &b);
	assert_string_equal(b.buf, "0||- a|json-value\n0||+ b|json-value\n");
	strbuf_release(&b);
}

/* Claude Code's Edit and str_replace_editor's pairs: old lines removed,
 * new lines added, each after its marker; a one-line string beside its key. */
static void test_replacement_pairs(void **s)
{
	(void)s;
	assert_json_lines("{\"file_path\": \"a.py\", \"old_string\": \"x = 1\\ny = 2\", \"new_string\": \"x = 3\"}",
	                  "0||{|json-value\n"
	                  "2|\"file_path\": |\"a.py\",|json-string\n"
	                  "2|\"old_string\":||json-string\n"
	                  "4|-|x = 1|diff-del\n"
	                  "4|-|y = 2|diff-del\n"
	                  "2|\"new_string\": |+x = 3|diff-add\n"
	                  "0||}|json-value\n");
	assert_json_lines("{\"command\": \"str_replace\", \"old_str\": \"a\", \"new_str\": \"b\\nc\"}",
	                  "0||{|json-value\n"
	                  "2|\"command\": |\"str_replace\",|json-string\n"
	                  "2|\"old_str\": |-a|diff-del\n"
	                  "2|\"new_str\":||json-string\n"
	                  "4|+|b|diff-add\n"
	                  "4|+|c|diff-add\n"
	                  "0||}|json-value\n");
	/* nothing replaced (a file made through Edit): "" as it is */
	assert_json_lines("{\"old_string\": \"\", \"new_string\": \"a\\nb\"}",
	                  "0||{|json-value\n"
	                  "2|\"old_string\": |\"\",|json-string\n"
	                  "2|\"new_string\":||json-string\n"
	                  "4|+|a|diff-add\n"
	                  "4|+|b|diff-add\n"
	                  "0||}|json-value\n");
	/* half a pair is no pair */
	assert_json_lines("{\"old_str\": \"a\"}", "0||{|json-value\n2|\"old_str\": |\"a\"|json-string\n0||}|json-value\n");
}

/* ---- on the timeline ------------------------------------------------------------ */

static struct tui tui;

static void reset(void)
{
	timeline_free(&tui);
	tl_add_entry(&tui, 0, 0, -1, true);
}

/* Display line i as UTF-8, indented by its indent. */
static char *row(size_t i, int *indent)
{
	const struct tl_line *l = &tui.tl.lines[i];
	assert_null(l->lazy);
	*indent = l->indent;
	char *out = malloc(l->len * MB_LEN_MAX + 1), *o = out;
	mbstate_t st;
	memset(&st, 0, sizeof st);
	for (size_t k = 0; k < l->len; k++) {
		size_t n = wcrtomb(o, l->text[k], &st);
		if (n != (size_t)-1)
			o += n;
	}
	*o = '\0';
	return out;
}

static void assert_row(size_t i, int indent, const char *want)
{
	int got_indent;
	char *got = row(i, &got_indent);
	if (got_indent != indent || strcmp(got, want))
		fail_msg("line %zu: got %d \"%s\", want %d \"%s\"", i, got_indent, got, indent, want);
	free(got);
}

static json_t *parse(const char *json)
{
	json_t *v = json_loads(json, JSON_DECODE_ANY, NULL);
	assert_non_null(v);
	return v;
}

/* Keys and values in slots of their own on one line. */
static void test_key_and_value_slots(void **s)
{
	(void)s;
	reset();
	json_t *v = parse("{\"n\": 7}");
	tl_value(&tui, 0, 4, NULL, v, 60, true, 6);
	json_decref(v);
	assert_int_equal(tui.tl.nsegs, 3);
	const struct tl_line *l = &tui.tl.lines[1];
	assert_int_equal(l->slot, SLOT_JSON_KEY);
	assert_int_equal(l->nspans, 1);
	assert_int_equal(l->spans[0].at, 5);                 /* "n": then 7 */
	assert_int_equal(l->spans[0].slot, SLOT_JSON_NUMBER);
	assert_row(1, 6, "\"n\": 7");
}

/* A long value wraps under itself, not under its key. */
static void test_hanging_indent(void **s)
{
	(void)s;
	reset();
	json_t *v = parse("{\"query\": \"one two three four five six seven eight nine ten eleven\"}");
	tl_value(&tui, 0, 0, NULL, v, 40, true, 6);
	json_decref(v);
	assert_row(1, 2, "\"query\": \"one two three four five six");
	assert_row(2, 11, "seven eight nine ten eleven\"");
	/* a key that leaves its value too few columns: the value below it */
	reset();
	v = parse("{\"a_rather_long_key_name\": \"value words\"}");
	tl_value(&tui, 0, 0, NULL, v, 40, true, 6);
	json_decref(v);
	assert_row(1, 2, "\"a_rather_long_key_name\": ");
	assert_row(2, 4, "\"value words\"");
	/* a result's text hangs under its lead */
	reset();
	const char text[] = "first line\nsecond line";
	tl_value_text(&tui, 0, 4, "\xe2\x87\x90 ", SLOT_JSON_VALUE, text, strlen(text), true, 60, true, 6);
	assert_row(0, 4, "\xe2\x87\x90 first line");
	assert_row(1, 6, "second line");
	/* a code line too long wraps under its own indentation */
	reset();
	const char code[] = "@@ -1 +1 @@\n+        call(alpha, beta, gamma, delta, epsilon)\n";
	tl_value_text(&tui, 0, 0, NULL, SLOT_JSON_VALUE, code, strlen(code), true, 40, true, 6);
	assert_row(1, 0, "+        call(alpha, beta, gamma, delta,");
	assert_row(2, 11, "epsilon)");
	assert_int_equal(tui.tl.lines[2].indent, 11);        /* past its indentation */
	assert_int_equal(tui.tl.lines[2].slot, SLOT_DIFF_ADD);
}

/* Wide characters are measured by their columns: no row passes the width. */
static void test_display_width(void **s)
{
	(void)s;
	reset();
	json_t *v = parse("{\"text\": \"\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe3\x81\xae\xe6\x96\x87\xe7\xab\xa0\xe3\x81\xa7\xe3\x81\x99"
	                  "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe3\x81\xae\xe6\x96\x87\xe7\xab\xa0\xe3\x81\xa7\xe3\x81\x99"
	                  " \xf0\x9f\x98\x80\xf0\x9f\x98\x80\xf0\x9f\x98\x80\xf0\x9f\x98\x80\xf0\x9f\x98\x80\", \"k\": \"\xe4\xb8\xad\"}");
	tl_value(&tui, 0, 2, NULL, v, 30, true, 0);
	json_decref(v);
	assert_true(tui.tl.nsegs > 4);
	for (size_t i = 0; i < tui.tl.nsegs; i++) {
		const struct tl_line *l = &tui.tl.lines[i];
		size_t w = wtext_width(l->text, l->len);
		if ((size_t)l->indent + w > 30)
			fail_msg("line %zu is %zu columns at %d", i, w, l->indent);
	}
	/* 18 columns for the value: the quote and eight characters of two */
	assert_row(1, 4, "\"text\": \"\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe3\x81\xae\xe6\x96\x87\xe7\xab\xa0\xe3\x81\xa7\xe3\x81\x99");
	assert_int_equal(tui.tl.lines[2].indent, 12);        /* under the value */
}

/* Escape codes and broken bytes in a value are drawn visible, never sent. */
static void test_values_sanitised(void **s)
{
	(void)s;
	reset();
	json_t *v = json_object();
	json_object_set_new(v, "out", json_string("red \x1b[31mX\x1b[0m\nbell \x07 end"));
	tl_value(&tui, 0, 0, NULL, v, 80, true, 0);
	json_decref(v);
	assert_row(2, 4, "red ^[[31mX^[[0m");
	assert_row(3, 4, "bell ^G end");
	reset();
	const char bad[] = "ok \xff\xfe bytes\nline \xe2\x80\xae two";
	tl_value_text(&tui, 0, 0, NULL, SLOT_JSON_VALUE, bad, strlen(bad), true, 80, true, 0);
	assert_row(0, 0, "ok \xef\xbf\xbd\xef\xbf\xbd bytes");
	assert_row(1, 0, "line <U+202E> two");
}

/* Folded to max lines, then "… N more lines"; open, all of them. */
static void test_folding(void **s)
{
	(void)s;
	struct strbuf b = STRBUF_INIT;
	for (int i = 0; i < 20; i++)
		strbuf_addf(&b, "line %d\n", i);
	json_t *v = json_pack("{s:s}", "content", b.buf);
	reset();
	assert_true(tl_value(&tui, 0, 4, NULL, v, 80, false, 6));
	assert_int_equal(tui.tl.nlines, 7);
	assert_row(5, 8, "line 3");
	assert_row(6, 4, "\xe2\x80\xa6 17 more lines (Enter in the timeline to unfold)");
	reset();
	tl_value(&tui, 0, 4, NULL, v, 80, true, 6);
	assert_int_equal(tui.tl.nlines, 23);                 /* {, key, 20 lines, } */
	/* one line more than the fold is shown, not hinted */
	reset();
	assert_true(tl_value(&tui, 0, 4, NULL, v, 80, false, 22));
	assert_int_equal(tui.tl.nlines, 23);
	reset();
	assert_true(tl_value(&tui, 0, 4, NULL, v, 80, false, 21));
	assert_int_equal(tui.tl.nlines, 22);
	assert_row(21, 4, "\xe2\x80\xa6 2 more lines (Enter in the timeline to unfold)");
	json_decref(v);
	strbuf_release(&b);
}

/* A huge string stays one lazy text, borrowed or owned, never lines. */
static void test_huge_values_stay_lazy(void **s)
{
	(void)s;
	struct strbuf b = STRBUF_INIT;
	for (int i = 0; i < 20000; i++)
		strbuf_addf(&b, "+ line %d of a big file\n", i);
	json_t *v = json_pack("{s:s, s:s}", "path", "big.txt", "content", b.buf);
	reset();
	tl_value(&tui, 0, 4, NULL, v, 80, false, 6);
	assert_int_equal(tui.tl.nlines, 7);
	const struct tl_line *z = &tui.tl.lines[3];
	assert_non_null(z->lazy);
	assert_int_equal(z->count, 3);                       /* after {, "path", "content": */
	assert_int_equal(z->indent, 8);
	reset();
	tl_value(&tui, 0, 4, NULL, v, 80, true, 6);
	assert_true(tui.tl.nsegs < 8);
	assert_true(tui.tl.nlines > 20000);
	json_decref(v);
	/* a huge plain result: the lead its first characters, borrowed */
	reset();
	tl_value_text(&tui, 0, 4, "\xe2\x87\x90 ", SLOT_JSON_VALUE, b.buf, b.len, true, 80, false, 6);
	assert_non_null(tui.tl.lines[0].lazy);
	assert_true(lazytext_bytes(tui.tl.lines[0].lazy) < b.len / 4);
	strbuf_release(&b);
	timeline_free(&tui);
}

int main(void)
{
	if (!setlocale(LC_ALL, "C.UTF-8") && !setlocale(LC_ALL, "en_US.UTF-8"))
		return 77;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_multiline_strings_as_lines),
		cmocka_unit_test(test_nested_json_as_json_dumps),
		cmocka_unit_test(test_reals_shortest),
		cmocka_unit_test(test_results_that_are_json_text),
		cmocka_unit_test(test_diff_detection),
		cmocka_unit_test(test_diff_lines_coloured),
		cmocka_unit_test(test_replacement_pairs),
		cmocka_unit_test(test_key_and_value_slots),
		cmocka_unit_test(test_hanging_indent),
		cmocka_unit_test(test_display_width),
		cmocka_unit_test(test_values_sanitised),
		cmocka_unit_test(test_folding),
		cmocka_unit_test(test_huge_values_stay_lazy),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
