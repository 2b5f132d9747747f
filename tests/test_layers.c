/* test_layers.c - which configuration files are read, and the user's merged under a project's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "config/allowed_paths.h"
#include "config/config.h"
#include "config/layers.h"
#include "judge/judge.h"
#include "judge/prompt.h"
#include "review/keymap.h"
#include "tui/theme.h"
#include "util/error.h"

/* What the configurations are loaded with (the data folder of the
 * built-in prompts, the screen's readers), as a command lends it. */
static struct config_opts test_load;
static const struct config_section_reader screen_readers[] = {
	{ "keys", keymap_conf_read },
	{ "theme", theme_conf_read },
	{ NULL, NULL },
};

static char tmpdir[PATH_MAX], cwd[PATH_MAX];

static void put(const char *rel, const char *text)
{
	char path[PATH_MAX * 2];
	snprintf(path, sizeof path, "%s/%s", tmpdir, rel);
	char *slash = strrchr(path, '/');
	*slash = '\0';
	char cmd[PATH_MAX * 3];
	snprintf(cmd, sizeof cmd, "mkdir -p '%s'", path);
	assert_int_equal(system(cmd), 0);
	*slash = '/';
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void drop(const char *rel)
{
	char path[PATH_MAX * 2];
	snprintf(path, sizeof path, "%s/%s", tmpdir, rel);
	unlink(path);
}

/* Every test runs in a fresh folder with its own XDG_CONFIG_HOME. */
static int setup(void **state)
{
	(void)state;
	assert_non_null(getcwd(cwd, sizeof cwd));
	snprintf(tmpdir, sizeof tmpdir, "%s/layers.XXXXXX", P_tmpdir);
	assert_non_null(mkdtemp(tmpdir));
	assert_int_equal(chdir(tmpdir), 0);
	char xdg[PATH_MAX + 8];
	snprintf(xdg, sizeof xdg, "%s/xdg", tmpdir);
	setenv("XDG_CONFIG_HOME", xdg, 1);
	const char *src = getenv("TCR_SRCDIR");
	test_load.datadir = src && *src ? src : cwd;
	test_load.readers = screen_readers;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	assert_int_equal(chdir(cwd), 0);
	char cmd[PATH_MAX + 16];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	return system(cmd);
}

static void free_list(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* A file outside the project's folder is read when the user's own
 * allowed-paths names it for that file (as tcreview init records it), and
 * for no other configuration; a hand-edited last line without its line
 * break is ended before the next allowance; an allowance is kept once. */
static void test_allowed_paths(void **state)
{
	(void)state;
	put("truth/tasks.jsonl", "{\"task_id\":\"t1\",\"expected_tools\":[\"a\"]}\n");
	const char *yaml = "expectations:\n  file: ../truth/tasks.jsonl\n  match: {run: task_id, "
	                   "expected: task_id}\n";
	put("proj/tcreview.yaml", yaml);
	put("proj/other.yaml", yaml);
	struct config c;
	struct error err = {0};
	assert_int_equal(config_load_layered(&c, &test_load, "proj/tcreview.yaml", NULL, &err), -1);
	assert_non_null(strstr(err.msg, "resolves outside the configuration's folder"));

	char *file = config_allowed_paths_file();
	assert_non_null(file);
	put("xdg/tcreview/allowed-paths", "# mine\n/somewhere/else.yaml\t/nowhere.jsonl");
	assert_int_equal(config_allow_record("proj/tcreview.yaml", "truth/tasks.jsonl", &err), 0);
	assert_int_equal(config_allow_record("proj/tcreview.yaml", "truth/tasks.jsonl", &err), 0);
	char **paths = NULL;
	size_t n = 0;
	assert_int_equal(config_allowed_for("proj/tcreview.yaml", &paths, &n, &err), 0);
	assert_int_equal(n, 1);
	char want[PATH_MAX * 2];
	snprintf(want, sizeof want, "%s/truth/tasks.jsonl", tmpdir);
	char *real = realpath(want, NULL);
	assert_string_equal(paths[0], real);
	free_list(paths, n);
	paths = NULL;
	n = 0;
	assert_int_equal(config_allowed_for("proj/other.yaml", &paths, &n, &err), 0);
	assert_int_equal(n, 0);

	assert_int_equal(config_load_layered(&c, &test_load, "proj/tcreview.yaml", NULL, &err), 0);
	assert_non_null(c.expect.file);
	config_free(&c);
	assert_int_equal(config_load_layered(&c, &test_load, "proj/other.yaml", NULL, &err), -1);

	/* Three lines: the comment, the hand-made one (ended), ours once. */
	FILE *f = fopen(file, "r");
	assert_non_null(f);
	char line[PATH_MAX * 3];
	size_t lines = 0;
	while (fgets(line, sizeof line, f))
		lines++;
	fclose(f);
	assert_int_equal(lines, 3);

	put("xdg/tcreview/allowed-paths", "relative.yaml\tx\n");
	assert_int_equal(config_load_layered(&c, &test_load, "proj/tcreview.yaml", NULL, &err), -1);
	snprintf(want, sizeof want, "%s:1: expected a configuration's path, a tab and a file's path, "
	         "both absolute", file);
	assert_string_equal(err.msg, want);
	free(real);
	free(file);
}

static void test_locate(void **state)
{
	(void)state;
	struct config_files f;
	char want[PATH_MAX * 2];

	/* Nothing anywhere: the built-in checks, and where the user's file would be. */
	config_locate(NULL, "data/runs.jsonl", &f);
	assert_int_equal(f.origin, CONFIG_BUILTIN);
	assert_null(f.project);
	snprintf(want, sizeof want, "%s/xdg/tcreview/config.yaml", tmpdir);
	assert_string_equal(f.user, want);
	assert_false(f.user_exists);
	config_files_free(&f);

	/* Beside the first input, for a file; in it, for a folder. */
	put("data/runs.jsonl", "{}\n");
	put("data/tcreview.yaml", "scorers: []\n");
	config_locate(NULL, "data/runs.jsonl", &f);
	assert_int_equal(f.origin, CONFIG_BESIDE);
	assert_string_equal(f.project, "data/tcreview.yaml");
	config_files_free(&f);
	config_locate(NULL, "data", &f);
	assert_int_equal(f.origin, CONFIG_BESIDE);
	assert_string_equal(f.project, "data/tcreview.yaml");
	config_files_free(&f);
	config_locate(NULL, "data/", &f);
	assert_string_equal(f.project, "data/tcreview.yaml");
	config_files_free(&f);
	/* Standard input has no folder. */
	config_locate(NULL, "-", &f);
	assert_int_equal(f.origin, CONFIG_BUILTIN);
	config_files_free(&f);

	/* The current folder's comes before the input's, -c before both. */
	put("tcreview.yaml", "scorers: []\n");
	config_locate(NULL, "data/runs.jsonl", &f);
	assert_int_equal(f.origin, CONFIG_HERE);
	assert_string_equal(f.project, "tcreview.yaml");
	config_files_free(&f);
	config_locate("other.yaml", "data/runs.jsonl", &f);
	assert_int_equal(f.origin, CONFIG_GIVEN);
	assert_string_equal(f.project, "other.yaml");
	config_files_free(&f);

	put("xdg/tcreview/config.yaml", "theme: light\n");
	config_locate(NULL, NULL, &f);
	assert_true(f.user_exists);
	config_files_free(&f);

	/* A relative XDG_CONFIG_HOME is ignored, as the rules say: HOME's. */
	setenv("XDG_CONFIG_HOME", "relative/xdg", 1);
	char home[PATH_MAX + 8];
	snprintf(home, sizeof home, "%s/home", tmpdir);
	const char *old_home = getenv("HOME");
	char *saved = old_home ? strdup(old_home) : NULL;
	setenv("HOME", home, 1);
	config_locate(NULL, NULL, &f);
	snprintf(want, sizeof want, "%s/home/.config/tcreview/config.yaml", tmpdir);
	assert_string_equal(f.user, want);
	config_files_free(&f);
	if (saved)
		setenv("HOME", saved, 1);
	free(saved);
}

static void test_scopes(void **state)
{
	(void)state;
	struct config c;
	struct error err = {0};
	put("user.yaml", "theme: light\nscorers:\n  - id: x\n    type: tool-errors\n");
	assert_int_equal(config_load_scoped(&c, &test_load, "user.yaml", CONFIG_USER, &err), -1);
	assert_string_equal(err.msg, "user.yaml:2:1: 'scorers' belongs in a project's tcreview.yaml, "
	                    "beside its runs; the user configuration holds only theme, keys, "
	                    "reviewer, judges and formats");
	put("user.yaml", "expectations:\n  file: t.jsonl\n  match: {run: a, expected: b}\n");
	assert_int_equal(config_load_scoped(&c, &test_load, "user.yaml", CONFIG_USER, &err), -1);
	assert_non_null(strstr(err.msg, "user.yaml:1:1: 'expectations' belongs in a project's"));

	put("tcreview.yaml", "reviewer: ada\n");
	assert_int_equal(config_load(&c, &test_load, "tcreview.yaml", &err), -1);
	assert_string_equal(err.msg, "tcreview.yaml:1:1: 'reviewer' is a person's setting: put it in "
	                    "the user configuration (see `tcreview --help config`) or pass "
	                    "--reviewer NAME");

	put("user.yaml", "reviewer: ''\n");
	assert_int_equal(config_load_scoped(&c, &test_load, "user.yaml", CONFIG_USER, &err), -1);
	assert_string_equal(err.msg, "user.yaml:1:11: 'reviewer' must not be empty");
	put("user.yaml", "reviewer: [a]\n");
	assert_int_equal(config_load_scoped(&c, &test_load, "user.yaml", CONFIG_USER, &err), -1);
	assert_non_null(strstr(err.msg, "user.yaml:1:11:"));

	put("user.yaml", "reviewer: Ada Lovelace\ntheme: light\nkeys: {quit: Q}\n");
	assert_int_equal(config_load_scoped(&c, &test_load, "user.yaml", CONFIG_USER, &err), 0);
	assert_string_equal(c.reviewer, "Ada Lovelace");
	assert_string_equal(c.theme, "light");
	assert_int_equal(c.nkeys, 1);
	config_free(&c);
}

static const char user_yaml[] =
	"reviewer: 日本語の名前\n"
	"theme: light\n"
	"keys:\n"
	"  quit: Q\n"
	"  next-unreviewed: U\n"
	"  note: x\n"
	"judges:\n"
	"  - id: mine\n"
	"    rubric: tool-appropriateness\n"
	"    model: ollama/llama3.2\n"
	"  - id: words\n"
	"    rubric: tool-appropriateness\n"
	"    model: ollama/llama3.2\n";

static const char project_yaml[] =
	"scorers:\n"
	"  - id: words\n"
	"    type: word-inclusion\n"
	"keys:\n"
	"  quit: X\n"
	"  retract: x\n";

static bool has_key(const struct config *c, const char *action, const char *keys)
{
	for (size_t i = 0; i < c->nkeys; i++)
		if (!strcmp(c->keys[i].action, action))
			return !strcmp(c->keys[i].keys, keys);
	return false;
}

static void test_merge(void **state)
{
	(void)state;
	struct config c;
	struct error err = {0};
	put("xdg/tcreview/config.yaml", user_yaml);
	put("tcreview.yaml", project_yaml);
	assert_int_equal(config_load_layered(&c, &test_load, NULL, "runs.jsonl", &err), 0);
	assert_int_equal(c.origin, CONFIG_HERE);
	assert_string_equal(c.path, "tcreview.yaml");
	assert_non_null(strstr(c.user_path, "xdg/tcreview/config.yaml"));
	/* The project's scorer keeps its id; the user's judge of that id stays out. */
	assert_int_equal(c.nscorers, 1);
	assert_int_equal(c.njudges, 1);
	assert_string_equal(c.judges[0].id, "mine");
	assert_string_equal(c.theme, "light");
	assert_string_equal(c.reviewer, "日本語の名前");
	/* quit is the project's; note's x is taken by the project's retract. */
	assert_true(has_key(&c, "quit", "X"));
	assert_true(has_key(&c, "next-unreviewed", "U"));
	assert_true(has_key(&c, "retract", "x"));
	assert_false(has_key(&c, "note", "x"));
	assert_int_equal(c.nkeys, 3);
	/* The user's bindings come first, so the project's are applied last. */
	assert_string_equal(c.keys[0].action, "next-unreviewed");
	config_free(&c);

	/* The project's theme wins over the user's. */
	put("tcreview.yaml", "theme: mono\n");
	assert_int_equal(config_load_layered(&c, &test_load, NULL, NULL, &err), 0);
	assert_string_equal(c.theme, "mono");
	assert_int_equal(c.njudges, 2);
	config_free(&c);
}

/* A project's compare: may pair its scorer with a judge of the user's. */
static void test_compare_user_judge(void **state)
{
	(void)state;
	struct config c;
	struct error err = {0};
	static const char project[] =
		"scorers:\n  - id: calls\n    type: tool-errors\n"
		"compare:\n  - [calls, mine]\n";
	put("tcreview.yaml", project);
	assert_int_equal(config_load_layered(&c, &test_load, NULL, NULL, &err), -1);
	assert_string_equal(err.msg, "tcreview.yaml:5:13: compare: unknown judge 'mine'");
	put("xdg/tcreview/config.yaml", user_yaml);
	assert_int_equal(config_load_layered(&c, &test_load, NULL, NULL, &err), 0);
	assert_true(config_compares(&c, "calls", "mine"));
	assert_false(config_compares(&c, "calls", "words"));
	config_free(&c);
	/* A user judge whose id the project gives a scorer stays out, and the
	 * pair says what the id is. */
	put("tcreview.yaml", "scorers:\n  - id: calls\n    type: tool-errors\n"
	    "  - id: words\n    type: word-inclusion\ncompare:\n  - [calls, words]\n");
	assert_int_equal(config_load_layered(&c, &test_load, NULL, NULL, &err), -1);
	assert_string_equal(err.msg, "tcreview.yaml:7:13: 'words' is a code scorer; a compare pair is "
	                    "[scorer-id, judge-id]");
}

static void test_builtin(void **state)
{
	(void)state;
	struct config c;
	struct error err = {0};
	assert_int_equal(config_load_layered(&c, &test_load, NULL, "runs.jsonl", &err), 0);
	assert_int_equal(c.origin, CONFIG_BUILTIN);
	assert_null(c.path);
	assert_null(c.user_path);
	assert_int_equal(c.nscorers, 2);
	assert_string_equal(c.scorers[0].id, "tool-errors");
	assert_string_equal(c.scorers[1].id, "unanswered-calls");
	config_free(&c);

	/* With the user's file: its judges and name on top of the checks. */
	put("xdg/tcreview/config.yaml", user_yaml);
	assert_int_equal(config_load_layered(&c, &test_load, NULL, "runs.jsonl", &err), 0);
	assert_int_equal(c.origin, CONFIG_BUILTIN);
	assert_non_null(c.user_path);
	assert_int_equal(c.nscorers, 2);
	assert_int_equal(c.njudges, 2);
	config_free(&c);
}

static void test_errors_name_their_file(void **state)
{
	(void)state;
	struct config c;
	struct error err = {0};
	char want[PATH_MAX * 2];
	put("xdg/tcreview/config.yaml", "theme: light\nkeys: {quit: NoSuchKey}\n");
	put("tcreview.yaml", "scorers: []\n");
	assert_int_equal(config_load_layered(&c, &test_load, NULL, NULL, &err), -1);
	snprintf(want, sizeof want, "%s/xdg/tcreview/config.yaml:2:14: unknown key name 'NoSuchKey'",
	         tmpdir);
	assert_string_equal(err.msg, want);
	/* A broken project file under a good user file. */
	put("xdg/tcreview/config.yaml", "theme: light\n");
	put("tcreview.yaml", "scorers:\n  - id: a\n    type: nope\n");
	assert_int_equal(config_load_layered(&c, &test_load, NULL, NULL, &err), -1);
	assert_non_null(strstr(err.msg, "tcreview.yaml:3:11: unknown scorer type 'nope'"));
	/* -c names a file that is not there. */
	drop("tcreview.yaml");
	assert_int_equal(config_load_layered(&c, &test_load, "gone.yaml", NULL, &err), -1);
	assert_string_equal(err.msg, "gone.yaml: No such file or directory");
	/* A user "file" that is a folder. */
	drop("xdg/tcreview/config.yaml");
	put("xdg/tcreview/config.yaml/x", "");
	assert_int_equal(config_load_layered(&c, &test_load, NULL, NULL, &err), -1);
	assert_non_null(strstr(err.msg, "config.yaml: not a regular file (a folder)"));
}

/* Two commands' contexts in one process: the host one allows, the
 * other refuses, or (the screen's way) leaves for the user to allow; the
 * allowed paths likewise. Nothing of one is left in the other. */
static void test_two_contexts(void **state)
{
	(void)state;
	put("proj/tcreview.yaml",
	    "expectations:\n"
	    "  file: ../tasks.jsonl\n"
	    "  match: {run: task_id, expected: task_id}\n"
	    "judges:\n"
	    "  - id: far\n"
	    "    rubric: tool-appropriateness\n"
	    "    model: openai/m\n"
	    "    base_url: https://llm.example/v1\n");
	put("tasks.jsonl", "{\"task_id\": \"t\"}\n");
	struct cli_context a, b;
	cli_context_init(&a);
	cli_context_init(&b);
	a.datadir = b.datadir = test_load.datadir;
	assert_true(cli_trust_option(&a, CLI_OPT_ALLOW_HOST, "llm.example"));
	assert_int_equal(cli_allow_path(&a, "test", "tasks.jsonl"), 0);
	struct config ca, cb;
	struct error err = {0};
	assert_int_equal(cli_load_config_err(&a, &ca, "proj/tcreview.yaml", NULL, &err), 0);
	assert_ptr_equal(ca.judges[0].trust, &a.trust);
	assert_null(judge_needs_leave(&ca.judges[0]));
	assert_int_equal(cli_load_config_err(&b, &cb, "proj/tcreview.yaml", NULL, &err),
	                 -1);
	assert_non_null(strstr(err.msg, "resolves outside the configuration's folder"));
	assert_int_equal(cli_allow_path(&b, "test", "tasks.jsonl"), 0);
	assert_int_equal(cli_load_config_err(&b, &cb, "proj/tcreview.yaml", NULL, &err),
	                 -1);
	assert_non_null(strstr(err.msg, "--allow-host llm.example"));
	b.trust.confirm_later = true;
	assert_int_equal(cli_load_config_err(&b, &cb, "proj/tcreview.yaml", NULL, &err), 0);
	assert_string_equal(judge_needs_leave(&cb.judges[0]), "llm.example");
	assert_null(judge_needs_leave(&ca.judges[0]));
	config_free(&cb);
	config_free(&ca);
	cli_context_free(&b);
	cli_context_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_locate, setup, teardown),
		cmocka_unit_test_setup_teardown(test_allowed_paths, setup, teardown),
		cmocka_unit_test_setup_teardown(test_scopes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_merge, setup, teardown),
		cmocka_unit_test_setup_teardown(test_compare_user_judge, setup, teardown),
		cmocka_unit_test_setup_teardown(test_builtin, setup, teardown),
		cmocka_unit_test_setup_teardown(test_two_contexts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_errors_name_their_file, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
