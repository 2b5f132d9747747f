/* clock.c - monotonic milliseconds and the (fakeable) wall clock in ISO-8601. */
#include "util/clock.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* TCR_FAKE_NOW fixes the wall clock (see the header). */
static bool fake_now(time_t *out)
{
	const char *s = getenv("TCR_FAKE_NOW");
	if (!s || !*s)
		return false;
	struct tm tm;
	memset(&tm, 0, sizeof tm);
	const char *end = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm);
	if (!end || (end[0] && strcmp(end, "Z") != 0))
		return false;
	time_t t = timegm(&tm);
	if (t == (time_t)-1)
		return false;
	*out = t;
	return true;
}

time_t now_wall(void)
{
	time_t t;
	return fake_now(&t) ? t : time(NULL);
}

void now_iso(char buf[24])
{
	time_t t = now_wall();
	struct tm tm;
	if (!gmtime_r(&t, &tm) || strftime(buf, 24, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(buf, 24, "1970-01-01T00:00:00Z");
}
