/* test_layout.c - pane rectangles are a pure function of the size. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_80x24),
		cmocka_unit_test(test_160x48),
		cmocka_unit_test(test_verdicts_grow_but_leave_the_timeline_room),
		cmocka_unit_test(test_too_small),
		cmocka_unit_test(test_pane_at),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
