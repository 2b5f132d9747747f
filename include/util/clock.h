/* clock.h - the one clock: monotonic milliseconds for timers and spinners,
 * wall-clock ISO-8601 UTC for what is written to disk.
 *
 * Tests fix the wall clock with TCR_FAKE_NOW=YYYY-MM-DDTHH:MM:SSZ (a value
 * that is not such a time is ignored), so decision lines and cache entries
 * compare byte for byte. The monotonic clock is never faked: timeouts and
 * backoff must stay real. */
#ifndef TCR_UTIL_CLOCK_H
#define TCR_UTIL_CLOCK_H

#include <time.h>

/* Milliseconds on the monotonic clock since an arbitrary start. */
double now_ms(void);
/* Seconds since the epoch, or the fixed time of TCR_FAKE_NOW. */
time_t now_wall(void);
/* now_wall() as "2026-03-04T05:06:07Z" (20 characters and a NUL). */
void now_iso(char buf[24]);

#endif
