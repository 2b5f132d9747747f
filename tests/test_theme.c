/* test_theme.c - theme files: syntax, errors, the defaults, the shipped themes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tui/theme.h"
#include "util/error.h"

static struct error err;

static const char *srcdir(void)
{
	const char *d = getenv("TCR_SRCDIR");
	return d && *d ? d : ".";
}

static void assert_parse_error(const char *text, const char *want)
{
	struct theme t;
	theme_default(&t);
	t.style[SLOT_PASS].fg = 99;         /* a failed parse leaves t alone */
	if (theme_parse(&t, "x.theme", text, &err) != -1)
		fail_msg("expected an error for:\n%s", text);
	assert_string_equal(err.msg, want);
	assert_int_equal(t.style[SLOT_PASS].fg, 99);
}

static void assert_style(const struct theme *t, enum theme_slot s, short fg, short bg,
                         unsigned attrs)
{
	const struct theme_style *st = &t->style[s];
	if (st->fg != fg || st->bg != bg || st->attrs != attrs)
		fail_msg("%s: got %d %d %#x, want %d %d %#x", theme_slot_name(s), st->fg, st->bg,
		         st->attrs, fg, bg, attrs);
}

static void test_slot_names(void **state)
{
	(void)state;
	assert_string_equal(theme_slot_name(SLOT_NORMAL), "normal");
	assert_string_equal(theme_slot_name(SLOT_SELECTION_DIM), "selection-dim");
	assert_string_equal(theme_slot_name(SLOT_MARK_OVERRIDDEN), "mark-overridden");
	assert_string_equal(theme_slot_name(SLOT_DIM), "dim");
	assert_string_equal(theme_slot_name(SLOT_COUNT), "?");
}

static void test_default(void **state)
{
	(void)state;
	struct theme t;
	theme_default(&t);
	assert_string_equal(t.name, "dark");
	assert_false(t.monochrome);
	assert_style(&t, SLOT_NORMAL, THEME_DEFAULT_COLOR, THEME_DEFAULT_COLOR, 0);
	assert_style(&t, SLOT_SELECTION, 0, 6, 0);                        /* black on cyan */
	assert_style(&t, SLOT_PASS, 2, THEME_DEFAULT_COLOR, 0);
	assert_style(&t, SLOT_FAIL, 1, THEME_DEFAULT_COLOR, THEME_ATTR_BOLD);
	assert_style(&t, SLOT_SKIPPED, 3, THEME_DEFAULT_COLOR, 0);
	assert_style(&t, SLOT_ERROR, 5, THEME_DEFAULT_COLOR, THEME_ATTR_REVERSE);
	assert_style(&t, SLOT_STATUS, THEME_DEFAULT_COLOR, THEME_DEFAULT_COLOR, THEME_ATTR_REVERSE);
	assert_style(&t, SLOT_STATUS_ERROR, 7, 1, THEME_ATTR_BOLD);
	assert_style(&t, SLOT_TOOL_NAME, 6, THEME_DEFAULT_COLOR, THEME_ATTR_BOLD);
	assert_style(&t, SLOT_USER_TOOL, 4, THEME_DEFAULT_COLOR, THEME_ATTR_UNDERLINE);
	assert_style(&t, SLOT_JSON_KEY, 117, THEME_DEFAULT_COLOR, 0);   /* light sky blue */
	assert_style(&t, SLOT_JSON_VALUE, THEME_DEFAULT_COLOR, THEME_DEFAULT_COLOR, 0);

	/* The four roles are told apart by colour. */
	enum theme_slot roles[] = { SLOT_ROLE_SYSTEM, SLOT_ROLE_USER, SLOT_ROLE_ASSISTANT,
	                            SLOT_ROLE_TOOL };
	for (size_t i = 0; i < 4; i++)
		for (size_t j = i + 1; j < 4; j++)
			assert_int_not_equal(t.style[roles[i]].fg, t.style[roles[j]].fg);
	/* Verdict statuses and the selection all differ. */
	enum theme_slot verdicts[] = { SLOT_PASS, SLOT_FAIL, SLOT_SKIPPED, SLOT_ERROR,
	                               SLOT_SELECTION };
	for (size_t i = 0; i < 5; i++)
		for (size_t j = i + 1; j < 5; j++)
			assert_memory_not_equal(&t.style[verdicts[i]], &t.style[verdicts[j]],
			                        sizeof(struct theme_style));
}

static void test_monochrome(void **state)
{
	(void)state;
	struct theme t;
	theme_monochrome(&t);
	assert_true(t.monochrome);
	for (int s = 0; s < SLOT_COUNT; s++) {
		assert_int_equal(t.style[s].fg, THEME_DEFAULT_COLOR);
		assert_int_equal(t.style[s].bg, THEME_DEFAULT_COLOR);
	}
	assert_int_equal(t.style[SLOT_NORMAL].attrs, 0);
	assert_int_equal(t.style[SLOT_SELECTION].attrs, THEME_ATTR_REVERSE);
	assert_int_equal(t.style[SLOT_HEADER].attrs, THEME_ATTR_BOLD | THEME_ATTR_UNDERLINE);
	assert_int_equal(t.style[SLOT_TITLE_FOCUS].attrs, THEME_ATTR_REVERSE | THEME_ATTR_BOLD);
	assert_int_equal(t.style[SLOT_STATUS_ERROR].attrs, THEME_ATTR_BOLD | THEME_ATTR_STANDOUT);
	assert_int_equal(t.style[SLOT_SKIPPED].attrs, THEME_ATTR_DIM);
	/* error must not look like the selection (reverse) without colour */
	assert_int_equal(t.style[SLOT_ERROR].attrs, THEME_ATTR_REVERSE | THEME_ATTR_UNDERLINE);
}

static void test_parse(void **state)
{
	(void)state;
	struct theme t;
	const char *text =
		"# a comment line\n"
		"\n"
		"   \t\n"
		"pass   bright-green  default   bold  # trailing comment\n"
		"fail\t196\t52\tunderline reverse\r\n"
		"normal 255 0\n"
		"selection default default italic dim standout bold underline reverse";
	assert_int_equal(theme_parse(&t, "some/where/custom.theme", text, &err), 0);
	assert_string_equal(err.msg, "");
	assert_string_equal(t.name, "custom");
	assert_false(t.monochrome);
	assert_style(&t, SLOT_PASS, 10, THEME_DEFAULT_COLOR, THEME_ATTR_BOLD);
	assert_style(&t, SLOT_FAIL, 196, 52, THEME_ATTR_UNDERLINE | THEME_ATTR_REVERSE);
	assert_style(&t, SLOT_NORMAL, 255, 0, 0);
	assert_style(&t, SLOT_SELECTION, THEME_DEFAULT_COLOR, THEME_DEFAULT_COLOR, 0x3f);
	/* Slots left out keep the dark default. */
	struct theme d;
	theme_default(&d);
	assert_memory_equal(&t.style[SLOT_SKIPPED], &d.style[SLOT_SKIPPED], sizeof d.style[0]);
	assert_memory_equal(&t.style[SLOT_DIM], &d.style[SLOT_DIM], sizeof d.style[0]);

	/* Every colour name. */
	static const char *const names[] = {
		"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
		"bright-black", "bright-red", "bright-green", "bright-yellow", "bright-blue",
		"bright-magenta", "bright-cyan", "bright-white",
	};
	for (short i = 0; i < 16; i++) {
		char line[64];
		snprintf(line, sizeof line, "dim %s %d", names[i], i);
		assert_int_equal(theme_parse(&t, "c.theme", line, &err), 0);
		assert_style(&t, SLOT_DIM, i, i, 0);
	}

	/* An empty file is the default theme. */
	assert_int_equal(theme_parse(&t, "e.theme", "", &err), 0);
	assert_memory_equal(t.style, d.style, sizeof d.style);
	assert_int_equal(theme_parse(&t, "e.theme", NULL, NULL), 0);
}

static void test_parse_errors(void **state)
{
	(void)state;
	assert_parse_error("pass green default\nbogus red default\n",
	                   "x.theme:2: unknown slot 'bogus'");
	assert_parse_error("\n\n# c\npass grean default\n", "x.theme:4: unknown colour 'grean'");
	assert_parse_error("pass green defualt", "x.theme:1: unknown colour 'defualt'");
	assert_parse_error("pass green default bold blink", "x.theme:1: unknown attribute 'blink'");
	assert_parse_error("pass 256 default", "x.theme:1: unknown colour '256'");
	assert_parse_error("pass -1 default", "x.theme:1: unknown colour '-1'");
	assert_parse_error("pass 0009 default", "x.theme:1: unknown colour '0009'");
	assert_parse_error("pass Green default", "x.theme:1: unknown colour 'Green'");
	assert_parse_error("Pass green default", "x.theme:1: unknown slot 'Pass'");
	assert_parse_error("pass\n", "x.theme:1: 'pass' needs a foreground and a background colour");
	assert_parse_error("pass green\n",
	                   "x.theme:1: 'pass' needs a foreground and a background colour");
	assert_parse_error("pass green default\nfail red default\npass red default\n",
	                   "x.theme:3: slot 'pass' is already set at line 1");
	assert_parse_error("monochrome please", "x.theme:1: 'monochrome' stands alone on its line");
	assert_parse_error("pass green default bold bold bold bold bold bold bold bold bold bold "
	                   "bold bold bold bold", "x.theme:1: too many words");
	/* CRLF files count lines the same way. */
	assert_parse_error("pass green default\r\n\r\nfail red nope\r\n",
	                   "x.theme:3: unknown colour 'nope'");
	/* A message that does not fit is cut, not overrun (at the error's one
	 * size now that no caller picks a buffer's). */
	struct theme t;
	struct error small = {0};
	char line[2 * ERROR_MSG_MAX];
	memset(line, 'n', sizeof line - 5);
	memcpy(line + sizeof line - 5, " a b", 5);
	assert_int_equal(theme_parse(&t, "x.theme", line, &small), -1);
	assert_int_equal(strlen(small.msg), ERROR_MSG_MAX - 1);
	assert_memory_equal(small.msg, "x.theme:1: unknown slot 'nnn", 28);
	assert_string_equal(small.msg + ERROR_MSG_MAX - sizeof ERROR_CUT, ERROR_CUT);
	assert_int_equal(theme_parse(&t, "x.theme", "nope a b", NULL), -1);
}

static void test_parse_monochrome(void **state)
{
	(void)state;
	struct theme t, m;
	theme_monochrome(&m);
	/* The line may come anywhere; the base is the monochrome table. */
	assert_int_equal(theme_parse(&t, "m.theme", "pass default default underline\n"
	                             "  monochrome   # no colour\n", &err), 0);
	assert_true(t.monochrome);
	assert_style(&t, SLOT_PASS, THEME_DEFAULT_COLOR, THEME_DEFAULT_COLOR, THEME_ATTR_UNDERLINE);
	assert_memory_equal(&t.style[SLOT_FAIL], &m.style[SLOT_FAIL], sizeof m.style[0]);
	assert_parse_error("monochrome\n\nfail red default bold\n",
	                   "x.theme:3: a monochrome theme has no colours: use 'default', not 'red'");
	assert_parse_error("monochrome\nfail default 0\n",
	                   "x.theme:2: a monochrome theme has no colours: use 'default', not '0'");
	/* "monochrome" inside a comment is only a comment. */
	assert_int_equal(theme_parse(&t, "m.theme", "# monochrome\n", &err), 0);
	assert_false(t.monochrome);
}

static void load_shipped(const char *name, struct theme *t)
{
	if (theme_load(t, srcdir(), name, &err) != 0)
		fail_msg("%s: %s", name, err.msg);
	assert_string_equal(t->name, name);
}

static void test_shipped_dark(void **state)
{
	(void)state;
	struct theme t, d;
	load_shipped("dark", &t);
	theme_default(&d);
	assert_false(t.monochrome);
	/* The file and the built-in default say the same. */
	for (int s = 0; s < SLOT_COUNT; s++)
		if (memcmp(&t.style[s], &d.style[s], sizeof d.style[s]) != 0)
			fail_msg("themes/dark.theme and theme_default() differ at '%s'",
			         theme_slot_name((enum theme_slot)s));
}

/* Every slot is written out, so a shipped theme never depends on the
 * built-in one by accident. */
static void assert_all_slots_written(const char *name)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/themes/%s.theme", srcdir(), name);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char line[256];
	int seen[SLOT_COUNT] = { 0 };
	while (fgets(line, sizeof line, f)) {
		char word[64];
		if (sscanf(line, "%63s", word) != 1 || word[0] == '#')
			continue;
		for (int s = 0; s < SLOT_COUNT; s++)
			if (!strcmp(word, theme_slot_name((enum theme_slot)s)))
				seen[s]++;
	}
	fclose(f);
	for (int s = 0; s < SLOT_COUNT; s++)
		if (seen[s] != 1)
			fail_msg("%s.theme: slot '%s' written %d times", name,
			         theme_slot_name((enum theme_slot)s), seen[s]);
}

static void test_shipped_light(void **state)
{
	(void)state;
	struct theme t;
	load_shipped("light", &t);
	assert_false(t.monochrome);
	assert_all_slots_written("light");
	assert_style(&t, SLOT_SELECTION, 7, 4, THEME_ATTR_BOLD);   /* white on blue */
	/* Pale colours only as backgrounds on a light terminal. */
	for (int s = 0; s < SLOT_COUNT; s++) {
		short fg = t.style[s].fg;
		bool pale = fg == 3 || fg == 6 || fg == 11 || fg == 14 || fg == 15 ||
		            (fg == 7 && t.style[s].bg == THEME_DEFAULT_COLOR);
		if (pale)
			fail_msg("light.theme: '%s' has a pale foreground",
			         theme_slot_name((enum theme_slot)s));
	}
}

static void test_shipped_mono(void **state)
{
	(void)state;
	struct theme t;
	load_shipped("mono", &t);
	assert_true(t.monochrome);
	assert_all_slots_written("mono");
	assert_all_slots_written("dark");
	for (int s = 0; s < SLOT_COUNT; s++) {
		assert_int_equal(t.style[s].fg, THEME_DEFAULT_COLOR);
		assert_int_equal(t.style[s].bg, THEME_DEFAULT_COLOR);
	}
	/* Without colour, the verdicts and the selection differ by attributes;
	 * standout counts as reverse, which it is on most terminals. */
	enum theme_slot v[] = { SLOT_PASS, SLOT_FAIL, SLOT_SKIPPED, SLOT_ERROR, SLOT_SELECTION,
	                        SLOT_NORMAL };
	for (size_t i = 0; i < 6; i++) {
		unsigned a = t.style[v[i]].attrs;
		a = (a & THEME_ATTR_STANDOUT) ? (a & ~THEME_ATTR_STANDOUT) | THEME_ATTR_REVERSE : a;
		for (size_t j = i + 1; j < 6; j++) {
			unsigned b = t.style[v[j]].attrs;
			b = (b & THEME_ATTR_STANDOUT) ? (b & ~THEME_ATTR_STANDOUT) | THEME_ATTR_REVERSE : b;
			if (a == b)
				fail_msg("mono.theme: '%s' and '%s' look the same",
				         theme_slot_name(v[i]), theme_slot_name(v[j]));
		}
	}
}

static void test_load_errors(void **state)
{
	(void)state;
	struct theme t;
	char want[8800];
	theme_default(&t);
	assert_int_equal(theme_load(&t, srcdir(), "no-such-theme", &err), -1);
	snprintf(want, sizeof want, "%s/themes/no-such-theme.theme: No such file or directory",
	         srcdir());
	assert_string_equal(err.msg, want);
	assert_string_equal(t.name, "dark");

	static const char *const bad[] = { "", "../dark", "dark.theme", "a/b", "sp ace", "é" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_int_equal(theme_load(&t, srcdir(), bad[i], &err), -1);
		snprintf(want, sizeof want, "invalid theme name '%s' (use letters, digits, _ and -)",
		         bad[i]);
		assert_string_equal(err.msg, want);
	}
	assert_int_equal(theme_load(&t, srcdir(), NULL, NULL), -1);

	/* Errors in a file name the file. */
	const char *tmp = getenv("TMPDIR");
	char dir[4096], sub[4200], file[4300];
	snprintf(dir, sizeof dir, "%s/tcr-theme-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	assert_non_null(mkdtemp(dir));
	snprintf(sub, sizeof sub, "%s/themes", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	snprintf(file, sizeof file, "%s/broken_1.theme", sub);
	FILE *f = fopen(file, "w");
	assert_non_null(f);
	fputs("pass green default\nfail red default blink\n", f);
	fclose(f);
	assert_int_equal(theme_load(&t, dir, "broken_1", &err), -1);
	snprintf(want, sizeof want, "%s:2: unknown attribute 'blink'", file);
	assert_string_equal(err.msg, want);

	/* A NUL byte means it is not a theme file. */
	f = fopen(file, "w");
	fwrite("pass green default\n\0x\n", 1, 22, f);
	fclose(f);
	assert_int_equal(theme_load(&t, dir, "broken_1", &err), -1);
	snprintf(want, sizeof want, "%s: not a text file (it holds a NUL byte)", file);
	assert_string_equal(err.msg, want);

	/* A good one, named by its file. */
	f = fopen(file, "w");
	fputs("monochrome\n", f);
	fclose(f);
	assert_int_equal(theme_load(&t, dir, "broken_1", &err), 0);
	assert_string_equal(t.name, "broken_1");
	assert_true(t.monochrome);

	unlink(file);
	rmdir(sub);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slot_names),
		cmocka_unit_test(test_default),
		cmocka_unit_test(test_monochrome),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_parse_monochrome),
		cmocka_unit_test(test_shipped_dark),
		cmocka_unit_test(test_shipped_light),
		cmocka_unit_test(test_shipped_mono),
		cmocka_unit_test(test_load_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
