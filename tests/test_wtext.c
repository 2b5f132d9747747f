/* test_wtext.c - text measured, cut and wrapped by terminal columns. */
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

#include "util/wtext.h"

static int setup(void **state)
{
	(void)state;
	if (!setlocale(LC_ALL, "C.UTF-8") && !setlocale(LC_ALL, "en_US.UTF-8"))
		return -1;
	return 0;
}

/* ---- helpers ----------------------------------------------------------- */

static wchar_t *dec(const char *s, unsigned flags, size_t *n)
{
	return wtext_decode(s, strlen(s), flags, n);
}

/* Wide text back to UTF-8, to compare with literals. */
static char *enc(const wchar_t *s, size_t n)
{
	char *out = malloc(n * 4 + 1), *p = out;
	assert_non_null(out);
	for (size_t i = 0; i < n; i++) {
		uint32_t c = (uint32_t)s[i];
		if (c < 0x80) {
			*p++ = (char)c;
		} else if (c < 0x800) {
			*p++ = (char)(0xc0 | (c >> 6));
			*p++ = (char)(0x80 | (c & 0x3f));
		} else if (c < 0x10000) {
			*p++ = (char)(0xe0 | (c >> 12));
			*p++ = (char)(0x80 | ((c >> 6) & 0x3f));
			*p++ = (char)(0x80 | (c & 0x3f));
		} else {
			*p++ = (char)(0xf0 | (c >> 18));
			*p++ = (char)(0x80 | ((c >> 12) & 0x3f));
			*p++ = (char)(0x80 | ((c >> 6) & 0x3f));
			*p++ = (char)(0x80 | (c & 0x3f));
		}
	}
	*p = '\0';
	return out;
}

static void check_decode(const char *in, unsigned flags, const char *want)
{
	size_t n;
	wchar_t *w = dec(in, flags, &n);
	assert_int_equal(wcslen(w), n);
	char *got = enc(w, n);
	assert_string_equal(got, want);
	free(got);
	free(w);
}

static size_t width_of(const char *s)
{
	size_t n;
	wchar_t *w = dec(s, 0, &n);
	size_t cols = wtext_width(w, n);
	free(w);
	return cols;
}

static void check_truncate(const char *in, size_t cols, bool ellipsis, const char *want,
                           size_t want_width)
{
	size_t n, width = 999;
	wchar_t *w = dec(in, 0, &n);
	size_t k = wtext_truncate(w, n, cols, ellipsis, &width);
	assert_int_equal(wcslen(w), k);
	char *got = enc(w, k);
	if (strcmp(got, want) != 0 || width != want_width)
		fail_msg("truncate('%s', %zu, %d): got '%s' (%zu columns), want '%s' (%zu)", in, cols,
		         ellipsis, got, width, want, want_width);
	assert_true(width <= cols);
	free(got);
	free(w);
}

static void check_middle(const char *in, size_t cols, const char *want, size_t want_width)
{
	size_t n, width = 999;
	wchar_t *w = dec(in, 0, &n);
	size_t k = wtext_cut_middle(w, n, cols, &width);
	assert_int_equal(wcslen(w), k);
	char *got = enc(w, k);
	if (strcmp(got, want) != 0 || width != want_width)
		fail_msg("cut_middle('%s', %zu): got '%s' (%zu columns), want '%s' (%zu)", in, cols, got,
		         width, want, want_width);
	assert_true(width <= cols);
	free(got);
	free(w);
}

/* Wraps and compares with the lines joined by '|'. */
static void check_wrap(const char *in, size_t cols, const char *want)
{
	struct wtext_wrapped ww;
	wtext_wrap(&ww, in, strlen(in), cols, WTEXT_TABS);
	char got[4096] = "";
	for (size_t i = 0; i < ww.nlines; i++) {
		const struct wtext_span *l = &ww.lines[i];
		char *s = enc(ww.text + l->start, l->len);
		if (i)
			strcat(got, "|");
		strcat(got, s);
		free(s);
		assert_int_equal(l->width, wtext_width(ww.text + l->start, l->len));
	}
	if (strcmp(got, want) != 0)
		fail_msg("wrap('%s', %zu):\n got  '%s'\n want '%s'", in, cols, got, want);
	wtext_wrapped_free(&ww);
}

/* Properties that hold for any text and width: lines fit (but for a lone
 * cluster wider than the line), lines do not overlap and keep order, and
 * every non-space character of the text is on some line. */
static void check_wrap_invariants(const char *in, size_t cols)
{
	struct wtext_wrapped ww;
	wtext_wrap(&ww, in, strlen(in), cols, WTEXT_TABS);
	assert_true(ww.nlines >= 1);
	size_t covered = 0, end = 0;
	for (size_t i = 0; i < ww.nlines; i++) {
		const struct wtext_span *l = &ww.lines[i];
		assert_true(l->start >= end);
		assert_true(l->start + l->len <= ww.len);
		for (size_t j = end; j < l->start; j++)
			if (ww.text[j] != L' ' && ww.text[j] != L'\n')
				fail_msg("wrap('%s', %zu): character %zu is on no line", in, cols, j);
		if (l->width > cols) {
			size_t cw;
			if (wtext_cluster(ww.text + l->start, l->len, &cw) != l->len)
				fail_msg("wrap('%s', %zu): line %zu is %zu wide", in, cols, i, l->width);
		}
		for (size_t j = l->start; j < l->start + l->len; j++)
			assert_true(ww.text[j] != L'\n');
		/* Never starts inside a cluster. */
		if (l->start > 0 && ww.text[l->start - 1] != L'\n' && ww.text[l->start - 1] != L' ') {
			size_t k = 0, at = SIZE_MAX;
			while (k < ww.len && k <= l->start) {
				at = k;
				k += wtext_cluster(ww.text + k, ww.len - k, NULL);
				if (k > l->start)
					break;
			}
			assert_true(k == l->start || at == l->start);
		}
		covered += l->len;
		end = l->start + l->len;
	}
	for (size_t j = end; j < ww.len; j++)
		assert_true(ww.text[j] == L' ' || ww.text[j] == L'\n');
	assert_true(covered <= ww.len);
	wtext_wrapped_free(&ww);
}

/* ---- decoding ---------------------------------------------------------- */

static void test_decode_plain(void **state)
{
	(void)state;
	check_decode("", 0, "");
	check_decode("hello", 0, "hello");
	check_decode("注文 1042 は発送済み 📦 café", 0, "注文 1042 は発送済み 📦 café");
	check_decode("e\xcc\x81", 0, "e\xcc\x81");                 /* combining acute kept */
	size_t n;
	wchar_t *w = dec("日本", 0, &n);
	assert_int_equal(n, 2);
	assert_int_equal(w[0], 0x65e5);
	assert_int_equal(w[1], 0x672c);
	assert_int_equal(w[2], 0);
	free(w);
	w = wtext_decode(NULL, 0, 0, &n);
	assert_int_equal(n, 0);
	assert_int_equal(w[0], 0);
	free(w);
	w = wtext_decode("abc", 2, 0, NULL);                      /* len, not NUL, ends it */
	assert_true(wcscmp(w, L"ab") == 0);
	free(w);
}

static void test_decode_controls(void **state)
{
	(void)state;
	check_decode("\x1b[31mred\x1b[0m", 0, "^[[31mred^[[0m");
	check_decode("\x1b]0;title\x07ok", 0, "^[]0;title^Gok");
	check_decode("a\rb\x7f\x01", 0, "a^Mb^?^A");
	/* line ends: "\r\n" is a newline, a last "\r" overwrites nothing */
	check_decode("a\r\nb\r\n", WTEXT_NEWLINES, "a\nb\n");
	check_decode("a\r", 0, "a");
	check_decode("a\r\r\nb", WTEXT_NEWLINES, "a^M\nb");
	check_decode("a\nb", 0, "a^Jb");
	check_decode("a\nb", WTEXT_NEWLINES, "a\nb");
	check_decode("a\tb", 0, "a^Ib");
	check_decode("a\0b", 0, "a");                             /* strlen stops at NUL */
	size_t n;
	wchar_t *w = wtext_decode("a\0b", 3, 0, &n);
	assert_true(wcscmp(w, L"a^@b") == 0);
	free(w);
	/* C1 controls (the 8-bit CSI) and invisible text-changing marks. */
	check_decode("\xc2\x9b" "2J", 0, "<U+009B>2J");
	check_decode("\xc2\x80\xc2\x9f", 0, "<U+0080><U+009F>");
	check_decode("abc\xe2\x80\xae" "cba", 0, "abc<U+202E>cba");   /* RIGHT-TO-LEFT OVERRIDE */
	check_decode("\xe2\x81\xa6x\xe2\x81\xa9", 0, "<U+2066>x<U+2069>");
	check_decode("hi\xf3\xa0\x80\x81\xf3\xa0\x81\x81", 0, "hi<U+E0001><U+E0041>"); /* tags */
}

static void test_decode_tabs(void **state)
{
	(void)state;
	check_decode("\tx", WTEXT_TABS, "    x");
	check_decode("a\tb", WTEXT_TABS, "a   b");
	check_decode("abc\tb", WTEXT_TABS, "abc b");
	check_decode("abcd\tb", WTEXT_TABS, "abcd    b");
	check_decode("a\t\tb", WTEXT_TABS, "a       b");
	/* Columns, not characters: a wide character counts two. */
	check_decode("日\tx", WTEXT_TABS, "日  x");
	check_decode("日本\tx", WTEXT_TABS, "日本    x");
	check_decode("e\xcc\x81\tx", WTEXT_TABS, "e\xcc\x81   x");
	/* A kept newline restarts the count; a shown one does not. */
	check_decode("abc\n\tx", WTEXT_TABS | WTEXT_NEWLINES, "abc\n    x");
	check_decode("a\n\tx", WTEXT_TABS, "a^J x");
	check_decode("\x1b\tx", WTEXT_TABS, "^[  x");
}

static void test_decode_invalid(void **state)
{
	(void)state;
	check_decode("caf\xe9!", 0, "caf\xef\xbf\xbd!");
	check_decode("\xc0\xaf", 0, "\xef\xbf\xbd\xef\xbf\xbd");            /* overlong */
	check_decode("\xed\xa0\x80", 0, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");  /* surrogate */
	check_decode("\xf4\x90\x80\x80", 0,
	             "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");  /* above U+10FFFF */
	check_decode("ab\xe6\x97", 0, "ab\xef\xbf\xbd\xef\xbf\xbd");        /* cut short */
	check_decode("\xff\xfe", 0, "\xef\xbf\xbd\xef\xbf\xbd");
	/* What wcwidth() calls unprintable: unassigned, noncharacters, U+2028. */
	check_decode("\xcd\xb8", 0, "\xef\xbf\xbd");                        /* U+0378 */
	check_decode("\xef\xbf\xbf", 0, "\xef\xbf\xbd");                    /* U+FFFF */
	check_decode("a\xe2\x80\xa8" "b", 0, "a\xef\xbf\xbd" "b");         /* LINE SEPARATOR */
}

/* ---- widths ------------------------------------------------------------ */

static void test_width(void **state)
{
	(void)state;
	assert_int_equal(width_of(""), 0);
	assert_int_equal(width_of("hello"), 5);
	assert_int_equal(width_of("日本語"), 6);                       /* Japanese */
	assert_int_equal(width_of("こんにちは"), 10);
	assert_int_equal(width_of("ｶﾀｶﾅ"), 4);                         /* half-width katakana */
	assert_int_equal(width_of("中文字符"), 8);                      /* Chinese */
	assert_int_equal(width_of("，。"), 4);                          /* CJK punctuation */
	assert_int_equal(width_of("한국어"), 6);
	assert_int_equal(width_of("\xe1\x84\x80\xe1\x85\xa1"), 2);      /* jamo L+V */
	assert_int_equal(width_of("e\xcc\x81"), 1);                    /* combining acute */
	assert_int_equal(width_of("a\xcc\x81\xcc\xa7\xcc\x88"), 1);    /* three marks */
	assert_int_equal(width_of("😀"), 2);                            /* emoji */
	assert_int_equal(width_of("\xe2\x9d\xa4\xef\xb8\x8f"), 2);      /* ❤ + VS16: a colour emoji */
	assert_int_equal(width_of("👍🏽"), 4);                          /* + skin tone */
	/* 👨‍👩‍👧: three emoji joined by ZWJ, counted as curses counts cells */
	assert_int_equal(width_of("\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9\xe2\x80\x8d"
	                          "\xf0\x9f\x91\xa7"), 6);
	assert_int_equal(width_of("\x1b[0m"), 5);                      /* ^[[0m */
	assert_int_equal(width_of("\xc2\x9b"), 8);                     /* <U+009B> */
	assert_int_equal(width_of("\xff"), 1);                         /* U+FFFD */
	/* wtext_width on undecoded text: an unprintable counts one. */
	const wchar_t raw[] = { L'a', 0x0378, L'\n', 0 };
	assert_int_equal(wtext_width(raw, 3), 3);
	assert_int_equal(wtext_width(raw, 0), 0);
}

static void test_clusters(void **state)
{
	(void)state;
	size_t n, w;
	wchar_t *s = dec("e\xcc\x81x", 0, &n);
	assert_int_equal(wtext_cluster(s, n, &w), 2);
	assert_int_equal(w, 1);
	free(s);
	/* ZWJ family: one cluster of five characters. */
	s = dec("\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x91\xa7!", 0, &n);
	assert_int_equal(wtext_cluster(s, n, &w), 5);
	assert_int_equal(w, 6);
	free(s);
	/* Flag: two regional indicators; a third starts a new cluster. */
	s = dec("🇯🇵🇫", 0, &n);
	assert_int_equal(n, 3);
	assert_int_equal(wtext_cluster(s, n, &w), 2);
	assert_int_equal(wtext_cluster(s + 2, 1, &w), 1);
	free(s);
	/* Keycap: digit, VS16, COMBINING ENCLOSING KEYCAP. */
	s = dec("1\xef\xb8\x8f\xe2\x83\xa3" "2", 0, &n);
	assert_int_equal(wtext_cluster(s, n, NULL), 3);
	free(s);
	/* Skin tone sticks to its emoji. */
	s = dec("👍🏽x", 0, &n);
	assert_int_equal(wtext_cluster(s, n, &w), 2);
	assert_int_equal(w, 4);
	free(s);
	/* A ZWJ before a space or at the end joins nothing. */
	s = dec("a\xe2\x80\x8d b", 0, &n);
	assert_int_equal(wtext_cluster(s, n, NULL), 2);
	free(s);
	/* A mark with no base is a cluster of its own. */
	s = dec("\xcc\x81" "a", 0, &n);
	assert_int_equal(wtext_cluster(s, n, &w), 1);
	assert_int_equal(w, 0);
	free(s);
	assert_int_equal(wtext_cluster(L"", 0, &w), 0);
	assert_int_equal(w, 0);
}

/* ---- truncation -------------------------------------------------------- */

static void test_fit(void **state)
{
	(void)state;
	size_t n, w;
	wchar_t *s = dec("日本語abc", 0, &n);
	assert_int_equal(wtext_fit(s, n, 0, &w), 0);
	assert_int_equal(wtext_fit(s, n, 1, &w), 0);       /* 日 does not half fit */
	assert_int_equal(w, 0);
	assert_int_equal(wtext_fit(s, n, 2, &w), 1);
	assert_int_equal(wtext_fit(s, n, 5, &w), 2);
	assert_int_equal(w, 4);
	assert_int_equal(wtext_fit(s, n, 7, &w), 4);
	assert_int_equal(wtext_fit(s, n, 100, &w), n);
	assert_int_equal(w, 9);
	free(s);
}

/* Long ids lose their middle: the start, then the end that tells runs of
 * one benchmark apart. */
static void test_cut_middle(void **state)
{
	(void)state;
	check_middle("tau1-airline-gpt4o-task000-trial0", 33, "tau1-airline-gpt4o-task000-trial0", 33);
	check_middle("tau1-airline-gpt4o-task000-trial0", 25, "tau1-airl…-task000-trial0", 25);
	check_middle("tau1-airline-gpt4o-task000-trial0", 12, "tau1…-trial0", 12);
	check_middle("abcdef", 3, "…ef", 3);
	check_middle("abcdef", 2, "a…", 2);          /* too narrow: cut at the end */
	check_middle("abcdef", 0, "", 0);
	/* Never half a wide character or a cluster, on either side. */
	check_middle("日本語のテキスト", 9, "日…キスト", 9);
	check_middle("日本語のテキスト", 8, "日…スト", 7);
	check_middle("e\xcc\x81" "abcdefgh" "e\xcc\x81", 6, "e\xcc\x81" "a…ghe\xcc\x81", 6);
}

static void test_truncate(void **state)
{
	(void)state;
	check_truncate("hello", 10, true, "hello", 5);
	check_truncate("hello", 5, true, "hello", 5);
	check_truncate("hello", 4, true, "hel…", 4);
	check_truncate("hello", 4, false, "hell", 4);
	check_truncate("hello", 1, true, "…", 1);
	check_truncate("hello", 0, true, "", 0);
	check_truncate("", 0, true, "", 0);
	/* Never half a wide character: the column left over stays blank. */
	check_truncate("日本語", 5, false, "日本", 4);
	check_truncate("日本語", 5, true, "日本…", 5);
	check_truncate("日本語", 4, true, "日…", 3);
	check_truncate("日本語", 6, true, "日本語", 6);
	check_truncate("日本語", 1, false, "", 0);
	check_truncate("日本語", 2, true, "…", 1);
	check_truncate("中文abc", 3, false, "中", 2);
	check_truncate("中a文bc", 3, false, "中a", 3);
	/* Combining marks stay with their base. */
	check_truncate("e\xcc\x81" "e\xcc\x81" "e\xcc\x81", 2, false, "e\xcc\x81" "e\xcc\x81", 2);
	check_truncate("e\xcc\x81" "e\xcc\x81" "e\xcc\x81", 2, true, "e\xcc\x81…", 2);
	/* Emoji, with their modifiers and joiners, go whole or not at all. */
	check_truncate("a😀b", 2, false, "a", 1);
	check_truncate("a👍🏽b", 4, false, "a", 1);
	check_truncate("a👍🏽b", 5, false, "a👍🏽", 5);
	check_truncate("\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9 ok", 4, false,
	               "\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9", 4);
	check_truncate("\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9 ok", 3, true, "…", 1);
	check_truncate("\xe2\x9d\xa4\xef\xb8\x8f!", 1, false, "", 0);
	check_truncate("\xe2\x9d\xa4\xef\xb8\x8f!", 2, false, "\xe2\x9d\xa4\xef\xb8\x8f", 2);
	/* Visible escapes are cut like any text. */
	check_truncate("\x1b[31mred", 4, true, "^[[…", 4);
	/* Every width from 1 to 10, with and without the ellipsis. */
	const char *mixed = "Aé日本😀e\xcc\x81中文";
	for (size_t c = 0; c <= 12; c++) {
		size_t n, w;
		wchar_t *s = dec(mixed, 0, &n);
		size_t full = wtext_width(s, n);
		size_t k = wtext_truncate(s, n, c, c % 2 == 0, &w);
		assert_true(w <= c);
		assert_true(c > full || w + 1 >= c);   /* at most one column lost to a wide char */
		assert_true(k <= n);
		free(s);
	}
}

/* ---- wrapping ---------------------------------------------------------- */

static void test_wrap_words(void **state)
{
	(void)state;
	check_wrap("", 10, "");
	check_wrap("hello world", 20, "hello world");
	check_wrap("hello world", 11, "hello world");
	check_wrap("hello world", 10, "hello|world");
	check_wrap("hello world", 5, "hello|world");
	check_wrap("the quick brown fox jumps", 10, "the quick|brown fox|jumps");
	check_wrap("a b c d e f", 3, "a b|c d|e f");
	/* The spaces at a break belong to no line; inner runs are kept. */
	check_wrap("hello     world", 10, "hello|world");
	check_wrap("a  b", 10, "a  b");
	check_wrap("word   ", 4, "word");
	/* Indentation stays; too much of it is cut. */
	check_wrap("    indented text", 12, "    indented|text");
	check_wrap("        x", 4, "    |x");
	/* Words longer than the line break anywhere. */
	check_wrap("abcdefghij", 4, "abcd|efgh|ij");
	check_wrap("see https://example.com/a/long/path ok", 10,
	           "see https:|//example.|com/a/long|/path ok");
	check_wrap("ab abcdefgh", 4, "ab a|bcde|fgh");
	/* Newlines always break, and empty lines are kept. */
	check_wrap("a\nb", 10, "a|b");
	check_wrap("a\n\nb\n", 10, "a||b|");
	check_wrap("\n", 10, "|");
	check_wrap("one two\nthree four five", 8, "one two|three|four|five");
	/* Tabs are expanded first, controls made visible. */
	check_wrap("a\tb", 10, "a   b");
	check_wrap("\x1b[1mbold\x1b[0m", 6, "^[[1mb|old^[[|0m");
	check_wrap("a\rb", 10, "a^Mb");
	check_wrap("one\r\ntwo\r\n", 10, "one|two|");
	check_wrap("one\r\ntwo", 10, "one|two");
	/* Width 0 counts as 1. */
	check_wrap("ab", 0, "a|b");
}

static void test_wrap_cjk(void **state)
{
	(void)state;
	/* CJK wraps between characters, without a space to break at. */
	check_wrap("日本語のテキスト", 6, "日本語|のテキ|スト");
	check_wrap("日本語のテキスト", 5, "日本|語の|テキ|スト");
	check_wrap("中文文本换行测试", 4, "中文|文本|换行|测试");
	check_wrap("中文文本", 1, "中|文|文|本");   /* each wider than the line: one per line */
	check_wrap("日本語", 3, "日|本|語");
	/* Mixed: a Latin word stays whole when it fits. */
	check_wrap("日本語hello世界", 7, "日本語|hello世|界");
	check_wrap("注文 1042 は発送済み", 8, "注文|1042 は|発送済み");
	/* Combining marks stay with their base. */
	check_wrap("e\xcc\x81" "e\xcc\x81" "e\xcc\x81", 2, "e\xcc\x81" "e\xcc\x81|e\xcc\x81");
	check_wrap("cafe\xcc\x81 cafe\xcc\x81", 4, "cafe\xcc\x81|cafe\xcc\x81");
	/* Emoji: ZWJ sequences, skin tones and VS16 are never split. */
	check_wrap("👍🏽👍🏽", 4, "👍🏽|👍🏽");
	check_wrap("\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x91\xa7", 4,
	           "\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x91\xa7");
	check_wrap("ok 😀😀😀", 4, "ok|😀😀|😀");
	check_wrap("I \xe2\x9d\xa4\xef\xb8\x8f it", 3, "I|\xe2\x9d\xa4\xef\xb8\x8f|it");
	check_wrap("I \xe2\x9d\xa4\xef\xb8\x8f it", 4, "I \xe2\x9d\xa4\xef\xb8\x8f|it");
}

static void test_wrap_every_width(void **state)
{
	(void)state;
	static const char *const texts[] = {
		"",
		"hello world, this is a longer sentence with some words",
		"日本語のテキストを折り返す。中文文本换行测试。",
		"mixed 日本語 and English, 中文 too 😀 ok",
		"\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x91\xa7 family "
		"\xe2\x9d\xa4\xef\xb8\x8f 👍🏽 🇯🇵 1\xef\xb8\x8f\xe2\x83\xa3",
		"a\xcc\x81\xcc\xa7 e\xcc\x81" "e\xcc\x81" "e\xcc\x81 \xcc\x81 zalgo",
		"\x1b[31mred\x1b[0m \xc2\x9b" "2J bell\x07 \xff\xfe broken",
		"\tindented\n\t\tmore\n\nend  with  spaces   ",
		"averyveryverylongwordwithoutanyspacesatall",
		"     ",
	};
	for (size_t t = 0; t < sizeof texts / sizeof texts[0]; t++)
		for (size_t c = 1; c <= 10; c++)
			check_wrap_invariants(texts[t], c);
}

static void test_wrap_free(void **state)
{
	(void)state;
	struct wtext_wrapped ww;
	wtext_wrap(&ww, NULL, 0, 10, 0);
	assert_int_equal(ww.nlines, 1);
	assert_int_equal(ww.lines[0].len, 0);
	wtext_wrapped_free(&ww);
	wtext_wrapped_free(&ww);
	wtext_wrapped_free(NULL);

	/* Many lines, to grow the arrays. */
	char *big = malloc(20001);
	assert_non_null(big);
	for (size_t i = 0; i < 20000; i++)
		big[i] = i % 3 == 2 ? ' ' : 'x';
	big[20000] = '\0';
	wtext_wrap(&ww, big, 20000, 5, 0);
	assert_int_equal(ww.nlines, 20000 / 6 + (20000 % 6 != 0));
	wtext_wrapped_free(&ww);
	free(big);
}

/* Closing punctuation never starts a line, an opening bracket never ends
 * one, at any width. */
static void test_wrap_kinsoku(void **state)
{
	(void)state;
	const char *text = "申し訳ございません。追跡番号が見つかりませんでした。「担当者」に確認いたします。"
	                   "我的订单已经损坏了，我想退款。";
	for (size_t cols = 4; cols <= 30; cols++) {
		struct wtext_wrapped w;
		wtext_wrap(&w, text, strlen(text), cols, 0);
		size_t total = 0;
		for (size_t i = 0; i < w.nlines; i++) {
			const wchar_t *l = w.text + w.lines[i].start;
			size_t n = w.lines[i].len;
			total += n;
			assert_true(w.lines[i].width <= cols);
			if (i > 0 && n)
				assert_null(wcschr(L"。、」，", l[0]));
			if (n && i + 1 < w.nlines)
				assert_true(l[n - 1] != L'「');
		}
		assert_int_equal(total, w.len);          /* nothing lost, nothing added */
		wtext_wrapped_free(&w);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decode_plain),
		cmocka_unit_test(test_decode_controls),
		cmocka_unit_test(test_decode_tabs),
		cmocka_unit_test(test_decode_invalid),
		cmocka_unit_test(test_width),
		cmocka_unit_test(test_clusters),
		cmocka_unit_test(test_fit),
		cmocka_unit_test(test_truncate),
		cmocka_unit_test(test_wrap_words),
		cmocka_unit_test(test_wrap_cjk),
		cmocka_unit_test(test_wrap_every_width),
		cmocka_unit_test(test_wrap_free),
		cmocka_unit_test(test_wrap_kinsoku),
		cmocka_unit_test(test_cut_middle),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
