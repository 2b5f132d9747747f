/* test_wtext_scripts.c - grapheme clusters of every script and of emoji
 * sequences: what one cluster is, how wide, and that cutting and
 * wrapping never split one. */
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

#define FAMILY "\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9\xe2\x80\x8d" \
               "\xf0\x9f\x91\xa7\xe2\x80\x8d\xf0\x9f\x91\xa6"   /* 👨‍👩‍👧‍👦 */
#define THUMB_SKIN "\xf0\x9f\x91\x8d\xf0\x9f\x8f\xbd"          /* 👍🏽 */
#define KEYCAP_1 "1\xef\xb8\x8f\xe2\x83\xa3"                    /* 1️⃣ */
#define FLAGS_JP_CN "\xf0\x9f\x87\xaf\xf0\x9f\x87\xb5\xf0\x9f\x87\xa8\xf0\x9f\x87\xb3"
#define HEART "\xe2\x9d\xa4\xef\xb8\x8f"                        /* ❤️ */

static int setup(void **state)
{
	(void)state;
	if (!setlocale(LC_ALL, "C.UTF-8") && !setlocale(LC_ALL, "en_US.UTF-8"))
		return -1;
	return 0;
}

static wchar_t *dec(const char *s, size_t *n)
{
	return wtext_decode(s, strlen(s), 0, n);
}

/* The clusters of s as "length/width" joined by spaces. */
static void clusters_of(const char *s, char *out, size_t cap)
{
	size_t n;
	wchar_t *w = dec(s, &n);
	out[0] = '\0';
	for (size_t i = 0; i < n;) {
		size_t cw, len = wtext_cluster(w + i, n - i, &cw);
		size_t used = strlen(out);
		snprintf(out + used, cap - used, "%s%zu/%zu", i ? " " : "", len, cw);
		i += len;
	}
	free(w);
}

static void check_clusters(const char *s, const char *want)
{
	char got[256];
	clusters_of(s, got, sizeof got);
	if (strcmp(got, want) != 0)
		fail_msg("clusters('%s'): got '%s', want '%s'", s, got, want);
}

/* Whether k is where a cluster of w[0..n) starts (or n). */
static bool at_boundary(const wchar_t *w, size_t n, size_t k)
{
	size_t i = 0;
	while (i < k && i < n)
		i += wtext_cluster(w + i, n - i, NULL);
	return i == k;
}

/* ---- what one cluster is ------------------------------------------------- */

static void test_emoji_sequences(void **state)
{
	(void)state;
	/* ZWJ family: seven characters, one cluster. Curses gives each of the
	 * four people two cells, so it counts 8 (see wtext.h). */
	check_clusters(FAMILY, "7/8");
	check_clusters(FAMILY "!", "7/8 1/1");
	check_clusters("\xf0\x9f\x91\xa9\xf0\x9f\x8f\xbd\xe2\x80\x8d\xf0\x9f\x92\xbb",
	               "4/6");                                  /* 👩🏽‍💻 */
	check_clusters(FLAGS_JP_CN, "2/2 2/2");                  /* 🇯🇵🇨🇳: two flags */
	check_clusters("\xf0\x9f\x87\xaf\xf0\x9f\x87\xb5\xf0\x9f\x87\xa8", "2/2 1/1");
	check_clusters(KEYCAP_1 "2", "3/2 1/1");                 /* keycap: drawn as an emoji */
	check_clusters(THUMB_SKIN "x", "2/4 1/1");               /* skin tone */
	/* VS16 makes a text-style symbol a colour emoji, two columns; VS15
	 * keeps it text. */
	check_clusters(HEART, "2/2");
	check_clusters("\xe2\x9a\xa0\xef\xb8\x8f", "2/2");       /* ⚠️ */
	check_clusters("\xe2\x9a\xa0\xef\xb8\x8e", "2/1");       /* ⚠︎ */
	check_clusters("a\xef\xb8\x8f", "2/1");                  /* no emoji to colour */
	check_clusters("😀😀", "1/2 1/2");
}

static void test_combining_marks(void **state)
{
	(void)state;
	check_clusters("e\xcc\x81", "2/1");                      /* é as e + U+0301 */
	check_clusters("\xc3\xa9", "1/1");                       /* é precomposed */
	/* Vietnamese: ệ as e + dot below + circumflex, ờ as o + horn + grave. */
	check_clusters("Vie\xcc\xa3\xcc\x82t", "1/1 1/1 3/1 1/1");
	check_clusters("o\xcc\x9b\xcc\x80", "3/1");
	/* Arabic: lam + fatha, then alef; the number sign goes with the
	 * digit after it (and curses gives it a cell of its own). */
	check_clusters("\xd9\x84\xd9\x8e\xd8\xa7", "2/1 1/1");
	check_clusters("\xd8\x80\xd9\xa1\xd9\xa2", "2/2 1/1");
}

static void test_indic_thai(void **state)
{
	(void)state;
	/* क्षि: ka + virama, ssa + vowel sign i. Unicode 15.0 (utf8proc up to
	 * 2.8) cuts after the virama; 15.1 keeps the conjunct whole. Either
	 * way it is 3 columns as curses counts them (the vowel sign i takes a
	 * cell) and it is never cut inside a syllable. */
	char got[256];
	clusters_of("\xe0\xa4\x95\xe0\xa5\x8d\xe0\xa4\xb7\xe0\xa4\xbf", got, sizeof got);
	if (strcmp(got, "2/1 2/2") != 0 && strcmp(got, "4/3") != 0)
		fail_msg("क्षि: got '%s'", got);
	check_clusters("\xe0\xa4\xb9\xe0\xa4\xbf\xe0\xa4\x82", "3/2");  /* हिं */
	/* Thai: above and below vowels and tone marks stack on the consonant;
	 * sara am takes a cell of its own. */
	check_clusters("\xe0\xb8\x81\xe0\xb8\xb5\xe0\xb9\x88", "3/1");     /* กี่ */
	check_clusters("\xe0\xb8\x94\xe0\xb8\xb8", "2/1");                 /* ดุ */
	check_clusters("\xe0\xb8\x99\xe0\xb9\x89\xe0\xb8\xb3", "3/2");     /* น้ำ */
	check_clusters("\xe0\xb8\xaa\xe0\xb8\xa7\xe0\xb8\xb1\xe0\xb8\xaa\xe0\xb8\x94\xe0\xb8\xb5",
	               "1/1 2/1 1/1 2/1");                                  /* สวัสดี */
}

static void test_east_asian(void **state)
{
	(void)state;
	/* Hangul jamo ᄀ ᅡ ᆨ: one syllable, two columns. */
	check_clusters("\xe1\x84\x80\xe1\x85\xa1\xe1\x86\xa8", "3/2");
	check_clusters("\xe1\x84\x80\xe1\x85\xa1", "2/2");
	/* A vowel jamo with no consonant: curses counts it 0, but a terminal
	 * draws it, one column. */
	check_clusters("a\xe1\x85\xa1", "1/1 1/1");
	check_clusters("한국", "1/2 1/2");
	check_clusters("日本語", "1/2 1/2 1/2");
	check_clusters("，。", "1/2 1/2");
	/* Half-width katakana ｶﾞ: the dakuten joins the kana but takes a
	 * cell of its own, on any terminal. */
	check_clusters("\xef\xbd\xb6\xef\xbe\x9e", "2/2");
	check_clusters("ｶﾀｶﾅ", "1/1 1/1 1/1 1/1");
}

/* ---- never split -------------------------------------------------------- */

/* The prefix wtext_fit keeps ends between clusters, at every width. */
static void check_fit_whole(const char *s)
{
	size_t n;
	wchar_t *w = dec(s, &n);
	for (size_t cols = 0; cols <= 24; cols++) {
		size_t width, k = wtext_fit(w, n, cols, &width);
		assert_true(width <= cols);
		assert_int_equal(width, wtext_width(w, k));
		if (!at_boundary(w, n, k))
			fail_msg("fit('%s', %zu) cut a cluster at %zu", s, cols, k);
	}
	free(w);
}

/* truncate keeps a prefix (then '…') and cut_middle a prefix, '…' and a
 * suffix, each made of whole clusters. */
static void check_cuts_whole(const char *s)
{
	size_t n;
	wchar_t *orig = dec(s, &n);
	for (size_t cols = 0; cols <= 24; cols++) {
		wchar_t *w = dec(s, &n);
		size_t width, k = wtext_truncate(w, n, cols, cols % 2 == 0, &width);
		size_t keep = k && w[k - 1] == 0x2026 && orig[k - 1] != 0x2026 ? k - 1 : k;
		assert_true(width <= cols);
		assert_true(wmemcmp(w, orig, keep) == 0);
		if (!at_boundary(orig, n, keep))
			fail_msg("truncate('%s', %zu) cut a cluster at %zu", s, cols, keep);
		free(w);

		w = dec(s, &n);
		k = wtext_cut_middle(w, n, cols, &width);
		assert_true(width <= cols);
		assert_int_equal(width, wtext_width(w, k));
		wchar_t *dots = wmemchr(w, 0x2026, k);
		if (dots && k < n) {
			size_t head = (size_t)(dots - w), tail = k - head - 1;
			assert_true(wmemcmp(w, orig, head) == 0);
			assert_true(wmemcmp(dots + 1, orig + n - tail, tail) == 0);
			if (!at_boundary(orig, n, head) || !at_boundary(orig, n, n - tail))
				fail_msg("cut_middle('%s', %zu) cut a cluster", s, cols);
		}
		free(w);
	}
	free(orig);
}

static void test_never_split(void **state)
{
	(void)state;
	static const char *const texts[] = {
		"a" FAMILY "b",
		FAMILY FAMILY FAMILY,
		"id-" FAMILY "-" THUMB_SKIN "-" KEYCAP_1 "-" FLAGS_JP_CN "-end",
		"Vie\xcc\xa3\xcc\x82t Nam e\xcc\x81" "e\xcc\x81" "e\xcc\x81",
		"\xe0\xa4\x95\xe0\xa5\x8d\xe0\xa4\xb7\xe0\xa4\xbf\xe0\xa4\xb9\xe0\xa4\xbf\xe0\xa4\x82"
		"\xe0\xb8\x81\xe0\xb8\xb5\xe0\xb9\x88\xe0\xb8\x99\xe0\xb9\x89\xe0\xb8\xb3",
		"\xe1\x84\x80\xe1\x85\xa1\xe1\x86\xa8\xe1\x84\x82\xe1\x85\xa1\xef\xbd\xb6\xef\xbe\x9e"
		"日本" HEART,
	};
	for (size_t t = 0; t < sizeof texts / sizeof texts[0]; t++) {
		check_fit_whole(texts[t]);
		check_cuts_whole(texts[t]);
	}
	/* The family goes whole or not at all. */
	size_t n, width;
	wchar_t *w = dec("a" FAMILY "b", &n);
	assert_int_equal(wtext_fit(w, n, 8, &width), 1);
	assert_int_equal(wtext_fit(w, n, 9, &width), 8);
	assert_int_equal(width, 9);
	free(w);
}

/* Wraps s at cols; every line fits (but a lone cluster wider than the
 * line) and starts and ends between clusters. */
static void check_wrap_whole(const char *s, size_t cols)
{
	struct wtext_wrapped ww;
	wtext_wrap(&ww, s, strlen(s), cols, WTEXT_TABS);
	for (size_t i = 0; i < ww.nlines; i++) {
		const struct wtext_span *l = &ww.lines[i];
		const wchar_t *t = ww.text + l->start;
		assert_int_equal(l->width, wtext_width(t, l->len));
		if (l->width > cols && wtext_cluster(t, l->len, NULL) != l->len)
			fail_msg("wrap(%zu): line %zu is %zu wide", cols, i, l->width);
		if (!at_boundary(ww.text, ww.len, l->start) ||
		    !at_boundary(ww.text, ww.len, l->start + l->len))
			fail_msg("wrap(%zu): line %zu cuts a cluster", cols, i);
	}
	wtext_wrapped_free(&ww);
}

static void test_wrap_mixed(void **state)
{
	(void)state;
	char text[4096] = "";
	static const char *const parts[] = {
		FAMILY, "日本語の", THUMB_SKIN, KEYCAP_1, " ", FLAGS_JP_CN, "中文", HEART, "ok ",
		"\xe1\x84\x80\xe1\x85\xa1\xe1\x86\xa8", "e\xcc\x81", "\xef\xbd\xb6\xef\xbe\x9e",
		"\xe0\xa4\x95\xe0\xa5\x8d\xe0\xa4\xb7\xe0\xa4\xbf", "\xe0\xb8\x99\xe0\xb9\x89\xe0\xb8\xb3",
	};
	for (size_t r = 0; r < 12; r++)
		for (size_t p = 0; p < sizeof parts / sizeof parts[0]; p++)
			if ((r + p) % 5 != 0)
				strcat(text, parts[p]);
	for (size_t cols = 1; cols <= 60; cols++)
		check_wrap_whole(text, cols);
	/* A family on a narrow line is a line of its own. */
	struct wtext_wrapped ww;
	const char *s = "ab" FAMILY "cd";
	wtext_wrap(&ww, s, strlen(s), 4, 0);
	assert_int_equal(ww.nlines, 3);
	assert_int_equal(ww.lines[1].len, 7);
	assert_int_equal(ww.lines[1].width, 8);
	wtext_wrapped_free(&ww);
}

/* What cannot be drawn becomes U+FFFD: unassigned code points and
 * noncharacters (utf8proc_category), the paragraph separator; private use
 * characters are assigned and stay. */
static void test_decode_undrawable(void **state)
{
	(void)state;
	size_t n;
	wchar_t *w = dec("\xf4\x8f\xbf\xbf|\xef\xb7\x90|\xe2\x80\xa9|\xee\x80\x80|\xf0\x9f\xaf\xbf", &n);
	const wchar_t want[] = { 0xFFFD, L'|', 0xFFFD, L'|', 0xFFFD, L'|', 0xE000, L'|', 0xFFFD, 0 };
	assert_int_equal(n, 9);
	assert_true(wcscmp(w, want) == 0);             /* U+10FFFF, U+FDD0, U+2029, U+E000, U+1FBFF */
	free(w);
}

/* Where a text decoded in pieces may be cut: between clusters only, as
 * the decoded characters have them. */
static void test_can_cut(void **state)
{
	(void)state;
	assert_true(wtext_can_cut("ab", 2, 0));
	assert_true(wtext_can_cut("ab", 2, 1));
	assert_true(wtext_can_cut("ab", 2, 2));
	assert_true(wtext_can_cut("日本", 6, 3));
	assert_false(wtext_can_cut(HEART, 6, 3));                /* ❤ | VS16 */
	assert_false(wtext_can_cut("e\xcc\x81", 3, 1));
	assert_false(wtext_can_cut("\xf0\x9f\x87\xaf\xf0\x9f\x87\xb5", 8, 4));   /* a flag */
	assert_false(wtext_can_cut(FAMILY, strlen(FAMILY), 4));   /* before a ZWJ */
	assert_false(wtext_can_cut(FAMILY, strlen(FAMILY), 7));   /* after one */
	assert_false(wtext_can_cut("\xe1\x84\x80\xe1\x85\xa1", 6, 3));   /* jamo L | V */
	assert_false(wtext_can_cut("\x1b\xcc\x81", 3, 1));     /* the mark goes on ^[ */
	assert_true(wtext_can_cut("\xe2\x80\x8b\xcc\x81", 5, 3));  /* nothing joins ZWSP */
	assert_true(wtext_can_cut("a b", 3, 2));
	assert_false(wtext_can_cut("a\rb", 3, 2));               /* the "\r" is ^M whole */
	/* The widths of the two sides add up where it says so. */
	const char *s = FAMILY " " HEART "x" KEYCAP_1 "\xe1\x84\x80\xe1\x85\xa1" "e\xcc\x81";
	size_t len = strlen(s), n, whole;
	wchar_t *w = dec(s, &n);
	whole = wtext_width(w, n);
	free(w);
	for (size_t at = 1; at < len; at++) {
		if ((s[at] & 0xc0) == 0x80 || !wtext_can_cut(s, len, at))
			continue;
		size_t na, nb;
		wchar_t *a = wtext_decode(s, at, 0, &na), *b = wtext_decode(s + at, len - at, 0, &nb);
		assert_int_equal(wtext_width(a, na) + wtext_width(b, nb), whole);
		free(a);
		free(b);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_emoji_sequences),
		cmocka_unit_test(test_combining_marks),
		cmocka_unit_test(test_indic_thai),
		cmocka_unit_test(test_east_asian),
		cmocka_unit_test(test_never_split),
		cmocka_unit_test(test_wrap_mixed),
		cmocka_unit_test(test_can_cut),
		cmocka_unit_test(test_decode_undrawable),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
