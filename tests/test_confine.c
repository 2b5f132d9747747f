/* test_confine.c - util/confine and the files a configuration names: a
 * file inside its folder is taken, one outside (by "..", by an absolute
 * path, by a link inside that points out) is refused at the key's
 * FILE:LINE:COLUMN unless allowed, a link outside that points in is
 * inside, and a missing file is left to the usual "No such file". */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "config/config.h"
#include "judge/judge.h"
#include "util/confine.h"
#include "util/error.h"

static char dir[512];   /* resolved, so the expected paths below are exact */

static char *at(const char *name)
{
	static char path[4][1024];
	static int next;
	char *p = path[next++ % 4];
	snprintf(p, sizeof path[0], "%s/%s", dir, name);
	return p;
}

static void write_file(const char *name, const char *text)
{
	FILE *f = fopen(at(name), "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **st)
{
	(void)st;
	char tmpl[512];
	const char *tmp = getenv("TMPDIR");
	snprintf(tmpl, sizeof tmpl, "%s/tcr-confine.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(tmpl) || !realpath(tmpl, dir))
		return -1;
	if (mkdir(at("cfg"), 0700) || mkdir(at("cfg/sub"), 0700) || mkdir(at("cfg2"), 0700) ||
	    mkdir(at("allowed"), 0700))
		return -1;
	write_file("cfg/inside.txt", "inside {{input}}\n");
	write_file("cfg/sub/deep.txt", "deep\n");
	write_file("cfg2/next-door.txt", "next door\n");
	write_file("secret.txt", "secret {{input}}\n");
	write_file("tasks.jsonl", "{\"task_id\": \"t\"}\n");
	write_file("allowed/a.txt", "a\n");
	if (symlink("../secret.txt", at("cfg/out-link.txt")) ||
	    symlink("cfg/inside.txt", at("in-link.txt")) ||
	    symlink("../nowhere.txt", at("cfg/dangling.txt")))
		return -1;
	return 0;
}

static int teardown(void **st)
{
	(void)st;
	char cmd[1100];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static enum path_place place(const char *name, const char *folder)
{
	return path_place(at(name), at(folder), NULL, 0);
}

static void test_path_under(void **st)
{
	(void)st;
	assert_true(path_under("/a/b", "/a"));
	assert_true(path_under("/a", "/a"));
	assert_true(path_under("/a/b", "/a/"));
	assert_true(path_under("/x", "/"));
	assert_false(path_under("/ab", "/a"));      /* a prefix of the name is not a folder */
	assert_false(path_under("/a", "/a/b"));
}

static void test_inside(void **st)
{
	(void)st;
	assert_int_equal(place("cfg/inside.txt", "cfg"), PATH_INSIDE);
	assert_int_equal(place("cfg/sub/deep.txt", "cfg"), PATH_INSIDE);
	assert_int_equal(place("cfg/sub/../inside.txt", "cfg"), PATH_INSIDE);
	/* Out and back in is inside. */
	assert_int_equal(place("cfg/../cfg/inside.txt", "cfg"), PATH_INSIDE);
}

static void test_outside(void **st)
{
	(void)st;
	assert_int_equal(place("cfg/../secret.txt", "cfg"), PATH_OUTSIDE);
	assert_int_equal(place("cfg/sub/../../secret.txt", "cfg"), PATH_OUTSIDE);
	/* Absolute: outside unless it is inside. */
	assert_int_equal(path_place(at("secret.txt"), at("cfg"), NULL, 0), PATH_OUTSIDE);
	assert_int_equal(path_place(at("cfg/inside.txt"), at("cfg"), NULL, 0), PATH_INSIDE);
	/* A folder whose name starts with the folder's. */
	assert_int_equal(place("cfg2/next-door.txt", "cfg"), PATH_OUTSIDE);
	/* The folder above is outside, the sub-folder is not the folder. */
	assert_int_equal(place("cfg/inside.txt", "cfg/sub"), PATH_OUTSIDE);
}

static void test_links(void **st)
{
	(void)st;
	/* A link inside the folder that points out is outside... */
	assert_int_equal(place("cfg/out-link.txt", "cfg"), PATH_OUTSIDE);
	/* ...and a link outside that points in is inside. */
	assert_int_equal(place("in-link.txt", "cfg"), PATH_INSIDE);
	/* The folder itself given through a link. */
	assert_int_equal(symlink("cfg", at("cfg-link")), 0);
	assert_int_equal(place("cfg/inside.txt", "cfg-link"), PATH_INSIDE);
	assert_int_equal(place("cfg-link/../secret.txt", "cfg-link"), PATH_OUTSIDE);
	unlink(at("cfg-link"));
}

static void test_allow_list(void **st)
{
	(void)st;
	const char *folder_only[] = { at("allowed") };
	assert_int_equal(path_place(at("secret.txt"), at("cfg"), folder_only, 1), PATH_OUTSIDE);
	assert_int_equal(path_place(at("allowed/a.txt"), at("cfg"), folder_only, 1), PATH_ALLOWED);
	const char *the_file[] = { at("allowed"), at("secret.txt") };
	assert_int_equal(path_place(at("secret.txt"), at("cfg"), the_file, 2), PATH_ALLOWED);
	assert_int_equal(path_place(at("cfg/out-link.txt"), at("cfg"), the_file, 2), PATH_ALLOWED);
	const char *above[] = { dir };
	assert_int_equal(path_place(at("cfg2/next-door.txt"), at("cfg"), above, 1), PATH_ALLOWED);
	/* Inside stays inside whatever is allowed. */
	assert_int_equal(path_place(at("cfg/inside.txt"), at("cfg"), above, 1), PATH_INSIDE);
	/* An allowed entry that does not resolve allows nothing. */
	const char *missing[] = { at("not-there") };
	assert_int_equal(path_place(at("secret.txt"), at("cfg"), missing, 1), PATH_OUTSIDE);
}

static void test_missing(void **st)
{
	(void)st;
	assert_int_equal(place("cfg/nope.txt", "cfg"), PATH_UNRESOLVED);
	assert_int_equal(place("cfg/../nope.txt", "cfg"), PATH_UNRESOLVED);
	assert_int_equal(place("cfg/dangling.txt", "cfg"), PATH_UNRESOLVED);
}

/* ---- through the configuration ---------------------------------------- */

static void judge_yaml(const char *prompt)
{
	char text[1024];
	snprintf(text, sizeof text,
	         "judges:\n"
	         "  - id: j\n"
	         "    rubric: custom\n"
	         "    model: openai/m\n"
	         "    base_url: http://127.0.0.1:9/v1\n"
	         "    prompt_file: %s\n"
	         "    scale: {min: 0, max: 10, pass: 6}\n", prompt);
	write_file("cfg/c.yaml", text);
}

static void test_config_prompt_file(void **st)
{
	(void)st;
	struct config c;
	struct error err = {0};
	char want[1200];
	judge_yaml("../secret.txt");
	assert_int_equal(config_load(&c, NULL, at("cfg/c.yaml"), &err), -1);
	snprintf(want, sizeof want, "%s:6:18: prompt_file '../secret.txt' resolves outside the "
	         "configuration's folder (use --allow-path PATH to allow it)", at("cfg/c.yaml"));
	assert_string_equal(err.msg, want);

	judge_yaml(at("secret.txt"));               /* absolute */
	assert_int_equal(config_load(&c, NULL, at("cfg/c.yaml"), &err), -1);
	assert_non_null(strstr(err.msg, "resolves outside the configuration's folder"));

	judge_yaml("out-link.txt");                 /* a link inside pointing out */
	assert_int_equal(config_load(&c, NULL, at("cfg/c.yaml"), &err), -1);
	assert_non_null(strstr(err.msg, ":6:18: prompt_file 'out-link.txt' resolves outside"));

	const char *paths[] = { at("secret.txt") };
	struct config_allow allow = { paths, 1 };
	const struct config_opts allowing = { .allow = &allow };
	assert_int_equal(config_load(&c, &allowing, at("cfg/c.yaml"), &err), 0);
	assert_non_null(strstr(c.judges[0].prompt_text, "secret"));
	config_free(&c);

	judge_yaml("inside.txt");
	assert_int_equal(config_load(&c, NULL, at("cfg/c.yaml"), &err), 0);
	config_free(&c);

	/* A missing file is not found, whether or not it would be outside. */
	judge_yaml("../nope.txt");
	assert_int_equal(config_load(&c, NULL, at("cfg/c.yaml"), &err), -1);
	assert_non_null(strstr(err.msg, "No such file or directory"));
	assert_null(strstr(err.msg, "outside"));

	/* A string has no folder of its own to confine it (tests, the built-in). */
	static const char text[] = "judges:\n  - id: j\n    rubric: custom\n    model: openai/m\n"
	                           "    prompt_file: ../secret.txt\n"
	                           "    scale: {min: 0, max: 10, pass: 6}\n";
	assert_int_equal(config_load_string(&c, NULL, "s.yaml", at("cfg"), text, sizeof text - 1, &err), 0);
	config_free(&c);
}

static void test_config_expectations(void **st)
{
	(void)st;
	struct config c;
	struct error err = {0};
	char want[1200];
	write_file("cfg/e.yaml", "expectations:\n  file: ../tasks.jsonl\n"
	           "  match: {run: task_id, expected: task_id}\n");
	assert_int_equal(config_load(&c, NULL, at("cfg/e.yaml"), &err), -1);
	snprintf(want, sizeof want, "%s:2:9: file '../tasks.jsonl' resolves outside the "
	         "configuration's folder (use --allow-path PATH to allow it)", at("cfg/e.yaml"));
	assert_string_equal(err.msg, want);

	const char *paths[] = { dir };
	struct config_allow allow = { paths, 1 };
	const struct config_opts allowing = { .allow = &allow };
	assert_int_equal(config_load(&c, &allowing, at("cfg/e.yaml"), &err), 0);
	assert_true(c.has_expect);
	config_free(&c);
}

/* Two loads in one process, each with its own allowed paths: what one
 * command allowed is not left for the next (nothing is kept between). */
static void test_two_loads_apart(void **st)
{
	(void)st;
	struct config a, b;
	struct error err = {0};
	judge_yaml(at("secret.txt"));
	char secret[1024];
	snprintf(secret, sizeof secret, "%s", at("secret.txt"));     /* at()'s buffers turn */
	const char *paths[] = { secret };
	struct config_allow allow = { paths, 1 }, none = { NULL, 0 };
	const struct config_opts allowing = { .allow = &allow }, confined = { .allow = &none };
	assert_int_equal(config_load(&a, &allowing, at("cfg/c.yaml"), &err), 0);
	assert_int_equal(config_load(&b, &confined, at("cfg/c.yaml"), &err), -1);
	assert_non_null(strstr(err.msg, "resolves outside the configuration's folder"));
	assert_int_equal(config_load(&b, NULL, at("cfg/c.yaml"), &err), -1);
	config_free(&a);
	assert_int_equal(config_load(&a, &allowing, at("cfg/c.yaml"), &err), 0);
	assert_non_null(strstr(a.judges[0].prompt_text, "secret"));
	config_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_path_under),
		cmocka_unit_test(test_inside),
		cmocka_unit_test(test_outside),
		cmocka_unit_test(test_links),
		cmocka_unit_test(test_allow_list),
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_config_prompt_file),
		cmocka_unit_test(test_config_expectations),
		cmocka_unit_test(test_two_loads_apart),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
