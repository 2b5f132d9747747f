/* test_layout.c - pane rectangles are a pure function of the size. */
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "tui/layout.h"

static void check(int cols, int lines, int vrows, const char *want)
{
	char buf[256];
	struct layout l = layout_compute(cols, lines, vrows);
	layout_describe(&l, buf, sizeof buf);
	assert_string_equal(buf, want);
}

static void test_80x24(void **s)
{
	(void)s;
	/* three scorers and the header: the verdicts take 5 rows */
	check(80, 24, 4, "list{0,0 36x23} timeline{36,0 44x18} verdicts{36,18 44x5} status{0,23 80x1}");
}

static void test_160x48(void **s)
{
	(void)s;
	check(160, 48, 4, "list{0,0 64x47} timeline{64,0 96x42} verdicts{64,42 96x5} status{0,47 160x1}");
}

static void test_verdicts_grow_but_leave_the_timeline_room(void **s)
{
	(void)s;
	/* an open verdict asks for 30 rows; it gets at most 55% of 23 */
	check(80, 24, 30, "list{0,0 36x23} timeline{36,0 44x11} verdicts{36,11 44x12} status{0,23 80x1}");
	/* the list never grows past 72 columns */
	check(300, 60, 4, "list{0,0 72x59} timeline{72,0 228x54} verdicts{72,54 228x5} status{0,59 300x1}");
}

static void test_too_small(void **s)
{
	(void)s;
	check(39, 24, 4, "too-small status{0,23 39x1}");
	check(80, 9, 4, "too-small status{0,8 80x1}");
}

static void test_pane_at(void **s)
{
	(void)s;
	struct layout l = layout_compute(80, 24, 4);
	assert_int_equal(layout_pane_at(&l, 0, 0), PANE_LIST);
	assert_int_equal(layout_pane_at(&l, 35, 22), PANE_LIST);
	assert_int_equal(layout_pane_at(&l, 36, 0), PANE_TIMELINE);
	assert_int_equal(layout_pane_at(&l, 79, 18), PANE_VERDICTS);
	assert_int_equal(layout_pane_at(&l, 10, 23), -1);      /* the status line */
}

static void check_want(int cols, int lines, struct layout_want w, const char *want)
{
	char buf[256];
	struct layout l = layout_compute_with(cols, lines, &w);
	layout_describe(&l, buf, sizeof buf);
	assert_string_equal(buf, want);
}

static void test_list_follows_its_content(void **s)
{
	(void)s;
	struct layout_want w = { .nverdict_rows = 4, .list_w = 30, .zoom = PANE_COUNT };
	/* short ids: the list takes what they need, the timeline the rest */
	check_want(160, 48, w, "list{0,0 30x47} timeline{30,0 130x42} verdicts{30,42 130x5} status{0,47 160x1}");
	/* long ones: no more than its share */
	w.list_w = 90;
	check_want(160, 48, w, "list{0,0 64x47} timeline{64,0 96x42} verdicts{64,42 96x5} status{0,47 160x1}");
	/* never narrower than a mark, a short id and a few cells */
	w.list_w = 5;
	check_want(80, 24, w, "list{0,0 20x23} timeline{20,0 60x18} verdicts{20,18 60x5} status{0,23 80x1}");
}

static void test_one_run_is_a_strip(void **s)
{
	(void)s;
	struct layout_want w = { .nverdict_rows = 4, .list_w = 60, .one_run = true, .zoom = PANE_COUNT };
	/* the timeline gets the whole width: at 80x24 it had 44 columns */
	check_want(80, 24, w, "list{0,0 80x3} timeline{0,3 80x15} verdicts{0,18 80x5} status{0,23 80x1}");
	check_want(120, 40, w, "list{0,0 120x3} timeline{0,3 120x31} verdicts{0,34 120x5} status{0,39 120x1}");
}

static void test_zoom(void **s)
{
	(void)s;
	struct layout_want w = { .nverdict_rows = 4, .list_w = 30, .zoom = PANE_TIMELINE };
	check_want(80, 24, w, "list{0,0 0x0} timeline{0,0 80x23} verdicts{0,0 0x0} status{0,23 80x1}");
	struct layout l = layout_compute_with(80, 24, &w);
	/* a click anywhere above the status line is the zoomed pane's */
	assert_int_equal(layout_pane_at(&l, 0, 0), PANE_TIMELINE);
	assert_int_equal(layout_pane_at(&l, 79, 22), PANE_TIMELINE);
	assert_int_equal(layout_pane_at(&l, 10, 23), -1);
	w.zoom = PANE_VERDICTS;
	w.one_run = true;
	check_want(80, 24, w, "list{0,0 0x0} timeline{0,0 0x0} verdicts{0,0 80x23} status{0,23 80x1}");
}

static void check_title(int cols, const struct title_part *parts, size_t n, const char *want)
{
	char buf[256];
	int w = layout_title(buf, sizeof buf, cols, "timeline", parts, n);
	assert_string_equal(buf, want);
	assert_int_equal(w, (int)strlen(want));
}

static void test_title_cut_whole(void **s)
{
	(void)s;
	const struct title_part parts[] = {
		{ .full = "412 entries", .rank = 1 },
		{ .full = "lines 1226-1243 of 1288", .brief = "1226-1243/1288", .rank = 0 },
	};
	check_title(80, parts, 2, "[timeline] 412 entries, lines 1226-1243 of 1288");
	/* 47 columns: the position says it briefly before anything goes */
	check_title(46, parts, 2, "[timeline] 412 entries, 1226-1243/1288");
	check_title(38, parts, 2, "[timeline] 412 entries, 1226-1243/1288");
	/* then the count of entries goes, never half a number */
	check_title(37, parts, 2, "[timeline] 1226-1243/1288");
	check_title(25, parts, 2, "[timeline] 1226-1243/1288");
	check_title(24, parts, 2, "[timeline]");
	/* every width from 10 to 60: what is shown is a whole form of each part */
	for (int cols = 10; cols <= 60; cols++) {
		char buf[256];
		int w = layout_title(buf, sizeof buf, cols, "timeline", parts, 2);
		assert_true(w <= cols);
		const char *tail = buf + strlen("[timeline]");
		assert_true(!*tail || !strcmp(tail, " 412 entries, lines 1226-1243 of 1288") ||
		            !strcmp(tail, " 412 entries, 1226-1243/1288") || !strcmp(tail, " 1226-1243/1288"));
	}
}

static void test_title_wide_characters(void **s)
{
	(void)s;
	/* measured by display width: four CJK characters are eight columns */
	const struct title_part parts[] = { { .full = "注文番号", .rank = 0 } };
	char buf[64];
	assert_int_equal(layout_title(buf, sizeof buf, 19, "runs", parts, 1), 15);
	assert_string_equal(buf, "[runs] 注文番号");
	assert_int_equal(layout_title(buf, sizeof buf, 14, "runs", parts, 1), 6);
	assert_string_equal(buf, "[runs]");
}

int main(void)
{
	/* widths are the terminal's, wcwidth's: a UTF-8 locale */
	setlocale(LC_ALL, "C.UTF-8");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_80x24),
		cmocka_unit_test(test_160x48),
		cmocka_unit_test(test_verdicts_grow_but_leave_the_timeline_room),
		cmocka_unit_test(test_too_small),
		cmocka_unit_test(test_pane_at),
		cmocka_unit_test(test_list_follows_its_content),
		cmocka_unit_test(test_one_run_is_a_strip),
		cmocka_unit_test(test_zoom),
		cmocka_unit_test(test_title_cut_whole),
		cmocka_unit_test(test_title_wide_characters),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
