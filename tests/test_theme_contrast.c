/* test_theme_contrast.c - every theme's body text reaches WCAG AA (4.5:1)
 * on the xterm and the Tango palettes, computed from the theme data.
 *
 * Colours 0..15 are the palette's (the same tables as the shared
 * screen_png tool draws with); 16..255 by the standard formula (a 6x6x6
 * cube, then a grey ramp), which no palette changes. "default" is the
 * palette's own foreground and background: xterm dark #e5e5e5 on #000000,
 * xterm light #000000 on #ffffff, Tango dark #d3d7cf on #2e3436, Tango
 * light #2e3436 on #eeeeec. A theme is checked on the background it is
 * made for: `light` on the light ones, the others (dark, the built-in
 * default) on the dark ones, and `mono`, which has only the default
 * colours, on both. `reverse` swaps the two colours; bold is not counted
 * (terminals that brighten bold only raise the contrast). Contrast is
 * WCAG 2's: (L1 + 0.05) / (L2 + 0.05) of the relative luminances. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/theme.h"
#include "util/error.h"

/* The slots of text a reviewer reads all day, each for its reason. */
static const struct {
	enum theme_slot slot;
	const char *why;
} body_slots[] = {
	{ SLOT_NORMAL,       "message text" },
	{ SLOT_JSON_KEY,     "argument keys" },
	{ SLOT_JSON_VALUE,   "argument punctuation and plain results" },
	{ SLOT_JSON_STRING,  "argument and result strings, code in them" },
	{ SLOT_JSON_NUMBER,  "argument numbers, true, false, null" },
	{ SLOT_DIFF_ADD,     "added lines of a diff" },
	{ SLOT_DIFF_DEL,     "removed lines of a diff" },
	{ SLOT_DIFF_HUNK,    "a diff's hunk headers" },
	{ SLOT_DIFF_CONTEXT, "a diff's context lines" },
	{ SLOT_DIFF_FILE,    "a diff's file headers" },
};
/* Not checked, and why: border (a line, no text); dim and role-system
 * (meant to step back: folding hints, thinking); the verdict colours
 * (pass, fail, skipped, error), marks, roles and tool names (short labels,
 * each also told by a glyph or word, and owned by their panes' own
 * checks); selection, title-focus, status, search-hit (reverse video or a
 * coloured background over one line at a time). */

struct palette {
	const char *name;
	const char *basic[16];
	const char *fg, *bg;        /* the default colours */
};

#define XTERM16 { "#000000", "#cd0000", "#00cd00", "#cdcd00", "#0000ee", "#cd00cd", "#00cdcd", \
	"#e5e5e5", "#7f7f7f", "#ff0000", "#00ff00", "#ffff00", "#5c5cff", "#ff00ff", "#00ffff", "#ffffff" }
#define TANGO16 { "#2e3436", "#cc0000", "#4e9a06", "#c4a000", "#3465a4", "#75507b", "#06989a", \
	"#d3d7cf", "#555753", "#ef2929", "#8ae234", "#fce94f", "#729fcf", "#ad7fa8", "#34e2e2", "#eeeeec" }

static const struct palette dark_palettes[] = {
	{ "xterm dark", XTERM16, "#e5e5e5", "#000000" },
	{ "tango dark", TANGO16, "#d3d7cf", "#2e3436" },
};
static const struct palette light_palettes[] = {
	{ "xterm light", XTERM16, "#000000", "#ffffff" },
	{ "tango light", TANGO16, "#2e3436", "#eeeeec" },
};

static void hex_rgb(const char *hex, int rgb[3])
{
	unsigned r, g, b;
	assert_int_equal(sscanf(hex, "#%02x%02x%02x", &r, &g, &b), 3);
	rgb[0] = (int)r;
	rgb[1] = (int)g;
	rgb[2] = (int)b;
}

static void colour_rgb(const struct palette *p, short c, bool fg, int rgb[3])
{
	static const int level[6] = { 0, 95, 135, 175, 215, 255 };
	if (c < 0) {
		hex_rgb(fg ? p->fg : p->bg, rgb);
	} else if (c < 16) {
		hex_rgb(p->basic[c], rgb);
	} else if (c < 232) {
		rgb[0] = level[(c - 16) / 36];
		rgb[1] = level[(c - 16) / 6 % 6];
		rgb[2] = level[(c - 16) % 6];
	} else {
		rgb[0] = rgb[1] = rgb[2] = 8 + (c - 232) * 10;
	}
}

static double luminance(const int rgb[3])
{
	double lin[3];
	for (int k = 0; k < 3; k++) {
		double v = rgb[k] / 255.0;
		lin[k] = v <= 0.03928 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
	}
	return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
}

static double contrast(const struct palette *p, const struct theme_style *st)
{
	int f[3], b[3];
	colour_rgb(p, st->fg, true, f);
	colour_rgb(p, st->bg, false, b);
	double lf = luminance(f), lb = luminance(b);
	double hi = lf > lb ? lf : lb, lo = lf > lb ? lb : lf;
	return (hi + 0.05) / (lo + 0.05);
}

/* Every body slot of t reaches 4.5:1 on each palette, and none is dim
 * (a terminal halves a dim colour's brightness: the figure would lie). */
static void assert_body_readable(const struct theme *t, const struct palette *pals, size_t npals)
{
	for (size_t k = 0; k < sizeof body_slots / sizeof body_slots[0]; k++) {
		const struct theme_style *st = &t->style[body_slots[k].slot];
		const char *slot = theme_slot_name(body_slots[k].slot);
		if (st->attrs & THEME_ATTR_DIM)
			fail_msg("%s: '%s' (%s) is dim", t->name, slot, body_slots[k].why);
		for (size_t i = 0; i < npals; i++) {
			double c = contrast(&pals[i], st);
			if (c < 4.5)
				fail_msg("%s: '%s' (%s) has %.2f:1 on %s, under 4.5:1", t->name, slot,
				         body_slots[k].why, c, pals[i].name);
		}
	}
}

static const char *srcdir(void)
{
	const char *d = getenv("TCR_SRCDIR");
	return d && *d ? d : ".";
}

static void load(const char *name, struct theme *t)
{
	struct error err = { 0 };
	if (theme_load(t, srcdir(), name, &err) != 0)
		fail_msg("%s: %s", name, err.msg);
}

#define NPAL(a) (sizeof a / sizeof a[0])

static void test_builtin_default(void **state)
{
	(void)state;
	struct theme t;
	theme_default(&t);
	assert_body_readable(&t, dark_palettes, NPAL(dark_palettes));
}

static void test_dark(void **state)
{
	(void)state;
	struct theme t;
	load("dark", &t);
	assert_body_readable(&t, dark_palettes, NPAL(dark_palettes));
}

static void test_light(void **state)
{
	(void)state;
	struct theme t;
	load("light", &t);
	assert_body_readable(&t, light_palettes, NPAL(light_palettes));
}

static void test_mono_and_no_color(void **state)
{
	(void)state;
	struct theme t;
	load("mono", &t);
	assert_body_readable(&t, dark_palettes, NPAL(dark_palettes));
	assert_body_readable(&t, light_palettes, NPAL(light_palettes));
	theme_monochrome(&t);               /* what NO_COLOR draws */
	assert_body_readable(&t, dark_palettes, NPAL(dark_palettes));
	assert_body_readable(&t, light_palettes, NPAL(light_palettes));
}

/* The test's own arithmetic, on pairs whose figures are well known. */
static void test_known_figures(void **state)
{
	(void)state;
	const struct palette *x = &dark_palettes[0];
	struct theme_style white_on_black = { 15, 0, 0 }, blue_on_black = { 4, 0, 0 };
	assert_true(fabs(contrast(x, &white_on_black) - 21.0) < 0.01);
	/* xterm's blue on black: the 2.2:1 the issue measured of json-key */
	assert_true(fabs(contrast(x, &blue_on_black) - 2.2) < 0.05);
	struct theme_style grey = { 244, 15, 0 };
	assert_true(fabs(contrast(x, &grey) - 3.9) < 0.1);
}

/* A colour of the 256 falls back to the nearest basic one. */
static void test_fallback(void **state)
{
	(void)state;
	assert_int_equal(theme_fallback_colour(210, 256), 210);
	assert_int_equal(theme_fallback_colour(-1, 8), -1);
	assert_int_equal(theme_fallback_colour(3, 8), 3);
	assert_int_equal(theme_fallback_colour(196, 16), 9);     /* pure red: bright red */
	assert_int_equal(theme_fallback_colour(196, 8), 1);      /* ... red of the eight */
	assert_int_equal(theme_fallback_colour(117, 8), 7);      /* light sky blue: white */
	assert_int_equal(theme_fallback_colour(22, 8), 0);       /* dark green: black */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known_figures),
		cmocka_unit_test(test_builtin_default),
		cmocka_unit_test(test_dark),
		cmocka_unit_test(test_light),
		cmocka_unit_test(test_mono_and_no_color),
		cmocka_unit_test(test_fallback),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
