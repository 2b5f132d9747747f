/* test_clock.c - util/clock: the ISO wall clock, its TCR_FAKE_NOW hook,
 * and the monotonic milliseconds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/clock.h"

static void test_now(void **st)
{
	(void)st;
	char buf[24];
	now_iso(buf);
	assert_int_equal(strlen(buf), 20);
	int y, mo, d, h, mi, se;
	char z;
	assert_int_equal(sscanf(buf, "%4d-%2d-%2dT%2d:%2d:%2d%c", &y, &mo, &d, &h, &mi, &se, &z), 7);
	assert_true(y >= 2024);
	assert_int_equal(z, 'Z');
}

/* TCR_FAKE_NOW fixes the clock; a value that is not a time is ignored. */
static void test_fake_now(void **st)
{
	(void)st;
	char buf[24];
	setenv("TCR_FAKE_NOW", "2026-03-04T05:06:07Z", 1);
	now_iso(buf);
	assert_string_equal(buf, "2026-03-04T05:06:07Z");
	setenv("TCR_FAKE_NOW", "2026-03-04T05:06:07", 1);
	now_iso(buf);
	assert_string_equal(buf, "2026-03-04T05:06:07Z");
	setenv("TCR_FAKE_NOW", "yesterday", 1);
	now_iso(buf);
	assert_string_not_equal(buf, "2026-03-04T05:06:07Z");
	assert_int_equal(strlen(buf), 20);
	setenv("TCR_FAKE_NOW", "2026-03-04T05:06:07Z junk", 1);
	now_iso(buf);
	assert_string_not_equal(buf, "2026-03-04T05:06:07Z");
	unsetenv("TCR_FAKE_NOW");
}

/* The monotonic clock never runs backwards. */
static void test_now_ms(void **st)
{
	(void)st;
	double a = now_ms();
	double b = now_ms();
	assert_true(a > 0);
	assert_true(b >= a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_now),
		cmocka_unit_test(test_fake_now),
		cmocka_unit_test(test_now_ms),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
