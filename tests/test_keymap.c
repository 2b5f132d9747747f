/* test_keymap.c - key names, the default table, rebinding, the help text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "review/keymap.h"
#include "util/error.h"

static keycode_t parse(const char *name)
{
	keycode_t k = 0;
	if (!keycode_parse(name, &k))
		fail_msg("'%s' should parse", name);
	return k;
}

static void assert_name(keycode_t k, const char *want)
{
	char buf[32];
	keycode_name(k, buf, sizeof buf);
	assert_string_equal(buf, want);
}

static void test_parse_names(void **state)
{
	(void)state;
	assert_int_equal(parse("a"), 'a');
	assert_int_equal(parse("A"), 'A');
	assert_int_equal(parse("?"), '?');
	assert_int_equal(parse("/"), '/');
	assert_int_equal(parse("0"), '0');
	assert_int_equal(parse("é"), 0xe9);
	assert_int_equal(parse("ж"), 0x436);
	assert_int_equal(parse("日"), 0x65e5);
	assert_int_equal(parse("😀"), 0x1f600);
	assert_int_equal(parse("Space"), ' ');
	assert_int_equal(parse("space"), ' ');
	assert_int_equal(parse("Enter"), '\n');
	assert_int_equal(parse("enter"), '\n');
	assert_int_equal(parse("ENTER"), '\n');
	assert_int_equal(parse("Return"), '\n');
	assert_int_equal(parse("Tab"), '\t');
	assert_int_equal(parse("Esc"), 27);
	assert_int_equal(parse("Escape"), 27);
	assert_int_equal(parse("BTab"), KEY_FN(KF_BTAB));
	/* What people call it, shown everywhere; curses' name still read. */
	assert_int_equal(parse("Shift-Tab"), KEY_FN(KF_BTAB));
	assert_int_equal(parse("S-Tab"), KEY_FN(KF_BTAB));
	assert_int_equal(parse("Up"), KEY_FN(KF_UP));
	assert_int_equal(parse("down"), KEY_FN(KF_DOWN));
	assert_int_equal(parse("Left"), KEY_FN(KF_LEFT));
	assert_int_equal(parse("Right"), KEY_FN(KF_RIGHT));
	assert_int_equal(parse("PgUp"), KEY_FN(KF_PGUP));
	assert_int_equal(parse("PgDn"), KEY_FN(KF_PGDN));
	assert_int_equal(parse("Home"), KEY_FN(KF_HOME));
	assert_int_equal(parse("End"), KEY_FN(KF_END));
	assert_int_equal(parse("Backspace"), KEY_FN(KF_BACKSPACE));
	assert_int_equal(parse("Delete"), KEY_FN(KF_DELETE));
	assert_int_equal(parse("Insert"), KEY_FN(KF_INSERT));
	assert_int_equal(parse("F1"), KEY_FN(KF_F1));
	assert_int_equal(parse("f9"), KEY_FN(KF_F9));
	assert_int_equal(parse("F10"), KEY_FN(KF_F10));
	assert_int_equal(parse("F12"), KEY_FN(KF_F12));
	assert_int_equal(parse("F"), 'F');
	assert_int_equal(parse("C-x"), 'x' & 0x1f);
	assert_int_equal(parse("C-l"), 12);
	assert_int_equal(parse("C-L"), 12);
	assert_int_equal(parse("C-n"), 14);
	assert_int_equal(parse("C-["), 27);
	assert_int_equal(parse("C-?"), 0x7f);
	assert_int_equal(parse("C"), 'C');
	assert_int_equal(parse("-"), '-');
}

static void test_parse_errors(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"", "ab", "Enterr", "F0", "F13", "F1x", "F123", "C-", "C-ab", "C-1", "C- ",
		"C-é", "\t", "\x1b", "\x7f", "\xc2\x85", "\xff", "\xe6\x97", "é!", "PgUpp",
	};
	keycode_t k = 42;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		if (keycode_parse(bad[i], &k))
			fail_msg("'%s' should not parse", bad[i]);
		assert_int_equal(k, 42);
	}
	assert_false(keycode_parse(NULL, &k));
}

static void test_names(void **state)
{
	(void)state;
	assert_name('a', "a");
	assert_name(' ', "Space");
	assert_name('\n', "Enter");
	assert_name('\t', "Tab");
	assert_name(27, "Esc");
	assert_name(12, "C-l");
	assert_name(0, "C-@");
	assert_name(0x1c, "C-\\");
	assert_name(0x7f, "C-?");
	assert_name(0xe9, "é");
	assert_name(0x1f600, "😀");
	assert_name(KEY_FN(KF_BTAB), "Shift-Tab");
	assert_name(KEY_FN(KF_PGDN), "PgDn");
	assert_name(KEY_FN(KF_BACKSPACE), "Backspace");
	assert_name(KEY_FN(KF_F1), "F1");
	assert_name(KEY_FN(KF_F12), "F12");
	assert_name(KEY_FN(99), "<0x40000063>");
	assert_name(0xd800, "<0xD800>");

	/* Every name printed parses back to its key. */
	static const char *const names[] = {
		"a", "Z", "?", "é", "Space", "Enter", "Tab", "Shift-Tab", "Esc", "Up", "Down", "Left",
		"Right", "PgUp", "PgDn", "Home", "End", "Backspace", "Delete", "Insert", "F1", "F5",
		"F11", "F12", "C-a", "C-z", "C-@", "C-[", "C-\\", "C-]", "C-^", "C-_", "C-?",
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		keycode_t k = parse(names[i]), back;
		char buf[32];
		keycode_name(k, buf, sizeof buf);
		if (!keycode_parse(buf, &back) || back != k)
			fail_msg("'%s' prints as '%s', which does not parse back", names[i], buf);
	}

	char tiny[3];
	keycode_name(KEY_FN(KF_BACKSPACE), tiny, sizeof tiny);
	assert_string_equal(tiny, "Ba");
}

static void test_actions(void **state)
{
	(void)state;
	assert_int_equal(action_find("down"), ACT_DOWN);
	assert_int_equal(action_find("next-unreviewed"), ACT_NEXT_TODO);
	assert_int_equal(action_find("quit"), ACT_QUIT);
	assert_int_equal(action_find("Quit"), ACT_NONE);
	assert_int_equal(action_find("nope"), ACT_NONE);
	assert_int_equal(action_find(NULL), ACT_NONE);
	assert_string_equal(action_name(ACT_ACCEPT), "accept");
	assert_string_equal(action_default_keys(ACT_DOWN), "j Down");
	/* the calibration's keys */
	assert_int_equal(action_find("next-disagreement"), ACT_NEXT_DISAGREE);
	assert_int_equal(action_find("prev-disagreement"), ACT_PREV_DISAGREE);
	assert_int_equal(action_find("calibration"), ACT_CALIB);
	assert_string_equal(action_default_keys(ACT_NEXT_DISAGREE), "]");
	assert_string_equal(action_default_keys(ACT_PREV_DISAGREE), "[");
	assert_string_equal(action_default_keys(ACT_CALIB), "K");
	assert_string_equal(action_default_keys(ACT_LEFT), "h Left");
	assert_string_equal(action_default_keys(ACT_RIGHT), "l Right");
	assert_string_equal(action_help(ACT_QUIT), "Quit (every decision is already saved)");
	assert_string_equal(action_name(ACT_NONE), "none");
	assert_string_equal(action_help(ACT_COUNT), "");
	for (int i = 0; i < ACT_COUNT; i++) {
		assert_int_equal(action_find(action_name((enum tcr_action)i)), i);
		assert_true(strlen(action_help((enum tcr_action)i)) > 0);
	}
}

static void test_defaults(void **state)
{
	(void)state;
	struct keymap km;
	keymap_init_defaults(&km);
	char buf[256];
	for (int i = 0; i < ACT_COUNT; i++) {
		enum tcr_action a = (enum tcr_action)i;
		/* Every default key name parses, is bound, and means this action. */
		char *names = strdup(action_default_keys(a));
		size_t n = 0;
		for (char *p = strtok(names, " "); p; p = strtok(NULL, " ")) {
			keycode_t k = parse(p);
			if (keymap_lookup(&km, k) != a)
				fail_msg("default key '%s' of '%s' means '%s'", p, action_name(a),
				         action_name(keymap_lookup(&km, k)));
			n++;
		}
		free(names);
		assert_true(n > 0);
		keymap_keys_of(&km, a, buf, sizeof buf);
		assert_true(buf[0] != '\0');
	}
	/* One binding per default key: no key is taken twice. */
	size_t total = 0;
	for (int i = 0; i < ACT_COUNT; i++) {
		char *names = strdup(action_default_keys((enum tcr_action)i));
		for (char *p = strtok(names, " "); p; p = strtok(NULL, " "))
			total++;
		free(names);
	}
	assert_int_equal(km.nbinds, total);

	keymap_keys_of(&km, ACT_DOWN, buf, sizeof buf);
	assert_string_equal(buf, "j, Down");
	keymap_keys_of(&km, ACT_PAGE_DOWN, buf, sizeof buf);
	assert_string_equal(buf, "PgDn, C-f, Space");
	keymap_keys_of(&km, ACT_TOGGLE, buf, sizeof buf);
	assert_string_equal(buf, "Enter");
	assert_int_equal(keymap_lookup(&km, 'q'), ACT_QUIT);
	assert_int_equal(keymap_lookup(&km, '?'), ACT_HELP);
	assert_int_equal(keymap_lookup(&km, 27), ACT_CANCEL);
	assert_int_equal(keymap_lookup(&km, 12), ACT_REDRAW);
	assert_int_equal(keymap_lookup(&km, KEY_FN(KF_BTAB)), ACT_FOCUS_PREV);
	assert_int_equal(keymap_lookup(&km, 'Z'), ACT_NONE);
	assert_int_equal(keymap_lookup(&km, KEY_FN(KF_F5)), ACT_NONE);

	/* keys_of never cuts a name in half. */
	char small[8];
	keymap_keys_of(&km, ACT_PAGE_DOWN, small, sizeof small);
	assert_string_equal(small, "PgDn");
	keymap_free(&km);
	keymap_free(&km);
}

static void test_bind(void **state)
{
	(void)state;
	struct keymap km;
	struct error err = {0};
	char buf[128];
	keymap_init_defaults(&km);

	/* Replaces the action's keys... */
	assert_int_equal(keymap_bind(&km, ACT_ACCEPT, "y Enter", &err), 0);
	keymap_keys_of(&km, ACT_ACCEPT, buf, sizeof buf);
	assert_string_equal(buf, "y, Enter");
	assert_int_equal(keymap_lookup(&km, 'a'), ACT_NONE);
	assert_int_equal(keymap_lookup(&km, 'y'), ACT_ACCEPT);
	/* ...and takes them from any other action: a key means one thing. */
	assert_int_equal(keymap_lookup(&km, '\n'), ACT_ACCEPT);
	keymap_keys_of(&km, ACT_TOGGLE, buf, sizeof buf);
	assert_string_equal(buf, "");

	/* Names in any case; repeats count once. */
	assert_int_equal(keymap_bind(&km, ACT_NEXT_TODO, "C-n  c-N\tu", &err), 0);
	keymap_keys_of(&km, ACT_NEXT_TODO, buf, sizeof buf);
	assert_string_equal(buf, "C-n, u");

	/* Moving a key between actions keeps the others' order. */
	assert_int_equal(keymap_bind(&km, ACT_PAGE_UP, "C-f PgUp", &err), 0);
	keymap_keys_of(&km, ACT_PAGE_DOWN, buf, sizeof buf);
	assert_string_equal(buf, "PgDn, Space");
	keymap_keys_of(&km, ACT_PAGE_UP, buf, sizeof buf);
	assert_string_equal(buf, "C-f, PgUp");

	/* An empty list unbinds. */
	assert_int_equal(keymap_bind(&km, ACT_JUDGE, "", &err), 0);
	keymap_keys_of(&km, ACT_JUDGE, buf, sizeof buf);
	assert_string_equal(buf, "");
	assert_int_equal(keymap_lookup(&km, 'J'), ACT_NONE);

	/* A bad name changes nothing. */
	size_t before = km.nbinds;
	assert_int_equal(keymap_bind(&km, ACT_QUIT, "Q Ctrl-q", &err), -1);
	assert_string_equal(err.msg, "unknown key name 'Ctrl-q'");
	assert_int_equal(km.nbinds, before);
	assert_int_equal(keymap_lookup(&km, 'q'), ACT_QUIT);
	assert_int_equal(keymap_lookup(&km, 'Q'), ACT_NONE);

	assert_int_equal(keymap_bind(&km, ACT_NONE, "q", &err), -1);
	assert_string_equal(err.msg, "unknown action");
	assert_int_equal(keymap_bind(&km, ACT_QUIT, "Foo", NULL), -1);

	/* Many bindings force the array to grow. */
	for (int i = 0; i < 200; i++) {
		keycode_t cp = (keycode_t)(0x4e00 + i);
		char k[4] = { (char)(0xe0 | (cp >> 12)), (char)(0x80 | ((cp >> 6) & 0x3f)),
		              (char)(0x80 | (cp & 0x3f)), 0 };
		assert_int_equal(keymap_bind(&km, (enum tcr_action)(i % ACT_COUNT), k, &err), 0);
		assert_int_equal(keymap_lookup(&km, cp), i % ACT_COUNT);
	}
	keymap_free(&km);
}

static char *print_to_string(const struct keymap *km, bool man)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	keymap_print(km, f, man);
	fclose(f);
	return buf;
}

static void test_print_plain(void **state)
{
	(void)state;
	struct keymap km;
	keymap_init_defaults(&km);
	char *s = print_to_string(&km, false);

	/* By section, each under its heading, in table order within it; one
	 * line per action, help aligned in one column; then the mouse. */
	size_t lines = 0, col = 0;
	const char *p = s;
	for (int sec = 0; sec < SEC_COUNT; sec++) {
		const char *title = section_title((enum key_section)sec);
		assert_memory_equal(p, title, strlen(title));
		assert_int_equal(p[strlen(title)], '\n');
		p += strlen(title) + 1;
		for (int i = 0; i < ACT_COUNT; i++) {
			if (action_section((enum tcr_action)i) != (enum key_section)sec)
				continue;
			const char *nl = strchr(p, '\n');
			assert_non_null(nl);
			char keys[128];
			keymap_keys_of(&km, (enum tcr_action)i, keys, sizeof keys);
			assert_memory_equal(p, "  ", 2);
			assert_memory_equal(p + 2, keys, strlen(keys));
			const char *help = action_help((enum tcr_action)i);
			size_t hl = strlen(help);
			assert_true((size_t)(nl - p) > hl);
			assert_memory_equal(nl - hl, help, hl);
			size_t c = (size_t)(nl - hl - p);
			if (lines == 0)
				col = c;
			assert_int_equal(c, col);
			lines++;
			p = nl + 1;
		}
	}
	assert_memory_equal(p, "Mouse\n", 6);
	p += 6;
	for (int i = 0; i < 2; i++) {
		assert_memory_equal(p, "  ", 2);
		p = strchr(p, '\n') + 1;
	}
	assert_string_equal(p, "");
	assert_int_equal(lines, ACT_COUNT);
	/* The widest key list ("PgDn, C-f, Space") and the widest action name
	 * ("next-disagreement") set the columns. */
	assert_int_equal(col, 2 + strlen("PgDn, C-f, Space") + 2 + strlen("next-disagreement") + 2);
	assert_non_null(strstr(s, "  j, Down" "           " "down               " "Next run;"));
	free(s);

	/* A non-ASCII key pads by columns, not bytes; an unbound action says so. */
	struct error err = {0};
	assert_int_equal(keymap_bind(&km, ACT_QUIT, "é", &err), 0);
	assert_int_equal(keymap_bind(&km, ACT_JUDGE, "", &err), 0);
	s = print_to_string(&km, false);
	assert_non_null(strstr(s, "\n  é" "                 " "quit               " "Quit"));
	assert_non_null(strstr(s, "\n  (unbound)" "         " "judge              " "Ask the LLM"));
	free(s);
	keymap_free(&km);
}

static void test_print_man(void **state)
{
	(void)state;
	struct keymap km;
	keymap_init_defaults(&km);
	char *s = print_to_string(&km, true);
	assert_true(strncmp(s, ".SS Moving\n.TP\n.BR \"j, Down\" \" (down)\"\nNext run; in the timeline", 61) == 0);
	assert_non_null(strstr(s, ".BR \"Shift\\-Tab\" \" (focus\\-prev)\"\n"));
	assert_non_null(strstr(s, ".TP\n.BR \"PgDn, C\\-f, Space\" \" (page\\-down)\"\nA page down in the focused pane\n"));
	assert_non_null(strstr(s, ".TP\n.BR \"C\\-l\" \" (redraw)\"\nRedraw the screen\n"));
	assert_non_null(strstr(s, ".TP\n.BR \"?\" \" (help)\"\nShow the keys\n"));
	/* The keys end with quit, in the last section; the mouse follows. */
	const char *quit = ".TP\n.BR \"q\" \" (quit)\"\nQuit (every decision is already saved)\n.SS Mouse\n";
	assert_non_null(strstr(s, quit));
	size_t tps = 0;
	for (const char *p = s; (p = strstr(p, ".TP\n")); p += 4)
		tps++;
	assert_int_equal(tps, ACT_COUNT + 2);
	/* Nothing roff would misread: no bare '-' or backslash. */
	for (const char *p = s; *p; p++) {
		if (*p == '-')
			assert_true(p > s && p[-1] == '\\');
		if (*p == '\\')
			assert_true(p[1] == '-' || p[1] == 'e' || p[1] == '(' || p[1] == '&');
	}
	free(s);

	struct error err = {0};
	assert_int_equal(keymap_bind(&km, ACT_QUIT, "C-\\", &err), 0);
	s = print_to_string(&km, true);
	assert_non_null(strstr(s, ".TP\n.BR \"C\\-\\e\" \" (quit)\"\nQuit"));
	free(s);
	keymap_free(&km);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_names),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_actions),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_bind),
		cmocka_unit_test(test_print_plain),
		cmocka_unit_test(test_print_man),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
