/* test_lazytext.c - a lazily wrapped text has exactly wtext_wrap's lines:
 * texts of every kind (CJK, emoji clusters, combining marks, tabs, controls,
 * runs of spaces, invalid bytes, long words, empty paragraphs), wrapped
 * whole and in tiny windows so every cut between pieces and windows is
 * exercised, read in order, backwards and at random. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "tui/lazytext.h"
#include "util/strbuf.h"
#include "util/wtext.h"

static int setup(void **state)
{
	(void)state;
	if (!setlocale(LC_ALL, "C.UTF-8") && !setlocale(LC_ALL, "en_US.UTF-8"))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	lazytext_tune(0, 0);
	return 0;
}

static bool same(const wchar_t *a, const wchar_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

/* Every line of the lazy text against wtext_wrap's, read in `order`:
 * 0 forwards, 1 backwards, 2 at random (and then forwards again). */
static void check_same(const char *prefix, const char *body, size_t cols, int order)
{
	struct strbuf all = STRBUF_INIT;
	strbuf_addstr(&all, prefix ? prefix : "");
	strbuf_addstr(&all, body);
	struct wtext_wrapped wr;
	wtext_wrap(&wr, all.buf, all.len, cols, WTEXT_TABS);
	struct lazytext *z = lazytext_new(prefix, body, strlen(body), false, cols);
	if (lazytext_count(z) != wr.nlines)
		fail_msg("%zu lines, wtext_wrap has %zu (cols %zu, %zu bytes)", lazytext_count(z), wr.nlines,
		         cols, all.len);
	uint64_t rnd = 88172645463325252ULL;
	for (int pass = 0; pass < (order == 2 ? 2 : 1); pass++) {
		/* at random: a few hundred jumps, as a reviewer's keys make them */
		size_t reads = order == 2 && pass == 0 && wr.nlines > 300 ? 300 : wr.nlines;
		for (size_t k = 0; k < reads; k++) {
			size_t i = k;
			if (order == 1)
				i = wr.nlines - 1 - k;
			else if (order == 2 && pass == 0) {
				rnd ^= rnd << 13, rnd ^= rnd >> 7, rnd ^= rnd << 17;
				i = (size_t)(rnd % wr.nlines);
			}
			size_t n;
			const wchar_t *s = lazytext_line(z, i, &n);
			if (n != wr.lines[i].len || !same(s, wr.text + wr.lines[i].start, n))
				fail_msg("line %zu of %zu differs (cols %zu): '%ls' against '%.*ls'", i, wr.nlines,
				         cols, s, (int)wr.lines[i].len, wr.text + wr.lines[i].start);
		}
	}
	lazytext_free(z);
	wtext_wrapped_free(&wr);
	strbuf_release(&all);
}

static const char *const bits[] = {
	"word ", "another ", "x", "  ", "      ", "\t", "a\tb", "\n", "\n\n", "日本語のテキスト",
	"。", "「引用」", "中文，标点！", "\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x92\xbb",  /* 👩‍💻 */
	"\xf0\x9f\x91\x8d\xf0\x9f\x8f\xbd", "\xf0\x9f\x87\xaf\xf0\x9f\x87\xb5", "\xe2\x9d\xa4\xef\xb8\x8f",
	"e\xcc\x81", "a\xcc\x81\xcc\x82\xcc\x83\xcc\x84", "\x1b[31m", "\x7f", "\xe2\x80\xae",
	"\xc2\x85", "\xff", "\xe3\x81", "\xed\xa0\x80", "Supercalifragilisticexpialidocious",
	"https://example.com/a/very/long/path/without/any/space/at/all/index.html", "-", "\xc3\xa9",
	"\xe1\x84\x80\xe1\x85\xa1\xe1\x86\xa8", "1\xef\xb8\x8f\xe2\x83\xa3",     /* jamo ᄀ ᅡ ᆨ, keycap 1️⃣ */
};

/* A text of n pieces drawn from bits, seeded. */
static char *random_text(uint64_t seed, size_t n, bool newlines)
{
	struct strbuf sb = STRBUF_INIT;
	uint64_t x = seed * 0x9e3779b97f4a7c15ULL + 1;
	for (size_t i = 0; i < n; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		const char *b = bits[x % (sizeof bits / sizeof *bits)];
		if (!newlines && strchr(b, '\n'))
			b = " ";
		strbuf_addstr(&sb, b);
	}
	return strbuf_detach(&sb);
}

static void test_short_texts_wrap_as_wtext_wraps_them(void **state)
{
	(void)state;
	const char *texts[] = {
		"", "\n", "a", "hello world", "trailing newline\n", "\n\nleading", "   indented line",
		"tab\there\tand\tthere", "日本語のテキストを折り返す。句読点、括弧「」も。",
		"\x1b[1mbold\x1b[0m and \xe2\x80\xae reversed",
	};
	for (size_t i = 0; i < sizeof texts / sizeof *texts; i++)
		for (size_t cols = 1; cols <= 12; cols++)
			check_same(NULL, texts[i], cols, 0);
	check_same("\xe2\x87\x90 ", "{\n  \"a\": 1\n}", 10, 0);
	check_same("\xe2\x9c\x97 error: ", "Error: upstream timeout", 8, 1);
	check_same("prefix\nwith a newline ", "and a body", 5, 0);
}

/* Windows of a few characters cut paragraphs everywhere: between pieces
 * of a sequence, inside clusters, inside runs of spaces and tab stops. */
static void test_tiny_windows_cut_everywhere_and_change_nothing(void **state)
{
	(void)state;
	static const size_t windows[] = { 1, 2, 3, 5, 8, 13, 32, 64, 200 };
	for (size_t w = 0; w < sizeof windows / sizeof *windows; w++) {
		lazytext_tune(16, windows[w]);
		for (uint64_t seed = 1; seed <= 12; seed++) {
			char *t = random_text(seed + 100 * w, 120, seed % 3 == 0);
			check_same(seed % 4 == 0 ? "\xe2\x87\x90 " : NULL, t, 3 + (size_t)(seed * 7 % 37),
			           (int)(seed % 3));
			free(t);
		}
	}
}

static void test_long_texts_with_the_default_windows(void **state)
{
	(void)state;
	lazytext_tune(0, 0);
	/* ~1.5 MB: paragraphs and one paragraph of ~600 KB, over several windows. */
	struct strbuf sb = STRBUF_INIT;
	for (uint64_t seed = 1; seed <= 40; seed++) {
		char *t = random_text(seed, 2000, true);
		strbuf_addstr(&sb, t);
		free(t);
	}
	char *par = random_text(99, 60000, false);
	strbuf_addstr(&sb, par);
	free(par);
	check_same(NULL, sb.buf, 43, 2);
	strbuf_release(&sb);
}

/* Only checkpoints and a few lines are held, not the lines of the text. */
static void test_a_lazy_text_holds_little(void **state)
{
	(void)state;
	lazytext_tune(0, 0);
	char *t = random_text(7, 400000, true);           /* a few MB */
	size_t n = strlen(t);
	struct lazytext *z = lazytext_new(NULL, t, n, false, 40);
	assert_true(lazytext_count(z) > 10000);
	size_t len;
	lazytext_line(z, lazytext_count(z) / 2, &len);
	lazytext_line(z, lazytext_count(z) - 1, &len);
	assert_true(lazytext_bytes(z) < n / 10);
	lazytext_free(z);
	/* An owned body is the lazy text's to free, and counted. */
	struct lazytext *o = lazytext_new(NULL, t, n, true, 40);
	assert_true(lazytext_bytes(o) >= n);
	lazytext_free(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_short_texts_wrap_as_wtext_wraps_them, teardown),
		cmocka_unit_test_teardown(test_tiny_windows_cut_everywhere_and_change_nothing, teardown),
		cmocka_unit_test_teardown(test_long_texts_with_the_default_windows, teardown),
		cmocka_unit_test_teardown(test_a_lazy_text_holds_little, teardown),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
