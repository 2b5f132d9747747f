/* spinner.c - the one spinner, and "judging 3s" for a judge still answering.
 *
 * Under TCR_NO_ANIMATION the spinner stands still, so screen dumps are
 * stable. */
#include <stdio.h>
#include <stdlib.h>

#include "util/clock.h"
#include "tui_int.h"

static bool still(void)
{
	const char *s = getenv("TCR_NO_ANIMATION");
	return s && *s;
}

/* A frame every tenth of a second. */
static const char *frame_at(double ms)
{
	static const char *const frames[] = { "|", "/", "-", "\\" };
	return frames[(long)(ms / 100) % 4];
}

const char *spinner_glyph(void)
{
	return still() ? "~" : frame_at(now_ms());
}

void spinner_judging(const struct judge_cell *c, char *buf, size_t n)
{
	double el = now_ms() - c->started_ms;
	if (still())
		snprintf(buf, n, "judging...");
	else
		snprintf(buf, n, "%s judging %.0fs", frame_at(el), el / 1000.0);
}
