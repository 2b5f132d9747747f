/* test_textvis.c - escape codes and broken UTF-8 never reach a terminal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/textvis.h"

static void check(const char *in, int keep, const char *want)
{
	struct strbuf sb = STRBUF_INIT;
	textvis_append(&sb, in, strlen(in), keep);
	assert_string_equal(sb.buf ? sb.buf : "", want);
	strbuf_release(&sb);
}

static void test_controls_are_visible(void **s)
{
	(void)s;
	check("\x1b[31mred\x1b[0m", 0, "^[[31mred^[[0m");
	check("\x1b]0;title\x07ok", 0, "^[]0;title^Gok");
	check("a\nb\tc\rd\x7f", 0, "a^Jb^Ic^Md^?");
	check("a\nb\tc", 1, "a\nb\tc");
	check("\xc2\x9b" "2J", 0, "<U+009B>2J");          /* the 8-bit CSI */
	/* Bidi overrides and isolates, tag characters: spelt out as wtext does. */
	check("abc\xe2\x80\xae" "cba", 0, "abc<U+202E>cba");
	check("\xe2\x81\xa6x\xe2\x81\xa9", 0, "<U+2066>x<U+2069>");
	check("hi\xf3\xa0\x80\x81", 0, "hi<U+E0001>");
	check("\xe2\x80\x8f\xe2\x80\x8d", 0, "\xe2\x80\x8f\xe2\x80\x8d");     /* RLM, ZWJ stay */
}

static void test_text_is_kept(void **s)
{
	(void)s;
	check("注文 1042 は発送済み 📦 café é", 0, "注文 1042 は発送済み 📦 café é");
}

static void test_broken_utf8(void **s)
{
	(void)s;
	check("caf\xe9!", 0, "caf\xef\xbf\xbd!");
	check("\xc0\xaf", 0, "\xef\xbf\xbd\xef\xbf\xbd");   /* overlong */
	check("\xed\xa0\x80", 0, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"); /* surrogate */
	check("\xe6\x97", 0, "\xef\xbf\xbd\xef\xbf\xbd");   /* truncated */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_controls_are_visible),
		cmocka_unit_test(test_text_is_kept),
		cmocka_unit_test(test_broken_utf8),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
