/* test_config.c - the YAML configuration: typing, errors, references, hash.
 *
 * A fake scorer table stands in for src/scorers/registry.c so that these
 * tests depend only on the configuration layer. */
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

#include "config/config.h"
#include "runs/runs_conf.h"
#include "judge/judge.h"
#include "review/keymap.h"
#include "tui/theme.h"
#include "judge/prompt.h"
#include "util/error.h"

/* What the configurations are loaded with (the data folder of the
 * built-in prompts, the screen's readers), as a command lends it. */
static struct config_opts test_load;
static const struct config_section_reader screen_readers[] = {
	{ "keys", keymap_conf_read },
	{ "theme", theme_conf_read },
	{ NULL, NULL },
};

/* ---- fake scorers ------------------------------------------------------ */

static const char *fake_tca_check(json_t *literals)
{
	if (!json_object_get(literals, "expectedTool") &&
	    !json_object_get(literals, "expectedToolOrder"))
		return "expectedTool or expectedToolOrder is required";
	return NULL;
}

static const struct param_spec fake_tca_params[] = {
	{ .name = "expectedTool", .kind = PARAM_STRING, .help = "the tool that should be called" },
	{ .name = "strictMode", .kind = PARAM_BOOL, .help = "only that tool" },
	{ .name = "expectedToolOrder", .kind = PARAM_STRING_LIST, .help = "tools in order" },
	{ .name = "options", .kind = PARAM_OBJECT, .help = "extra options" },
	{ .name = NULL, .kind = PARAM_ANY, .help = NULL },
};

static const struct scorer_ops fake_tca = {
	.type = "tool-call-accuracy",
	.summary = "fake",
	.scale = SCALE_BINARY,
	.default_threshold = 1,
	.params = fake_tca_params,
	.check = fake_tca_check,
};

static const struct param_spec fake_words_params[] = {
	{ .name = NULL, .kind = PARAM_ANY, .help = NULL },
};

static const struct scorer_ops fake_words = {
	.type = "word-inclusion",
	.summary = "fake",
	.scale = SCALE_UNIT,
	.default_threshold = 0.5,
	.params = fake_words_params,
};

static const struct param_spec fake_rating_params[] = {
	{ .name = "extra", .kind = PARAM_ANY, .help = "anything" },
	{ .name = "weight", .kind = PARAM_NUMBER, .help = "a number" },
	{ .name = NULL, .kind = PARAM_ANY, .help = NULL },
};

static const struct scorer_ops fake_rating = {
	.type = "fake-rating",
	.summary = "fake",
	.scale = SCALE_1TO5,
	.default_threshold = 3,
	.params = fake_rating_params,
};

const struct scorer_ops *const scorer_table[] = { &fake_tca, &fake_words, &fake_rating, NULL };

/* Declares what the generic reader checks by itself: a required
 * parameter, a range and a default. Not listed in scorer_table, so the
 * "known:" lists of the other tests stay as they are. */
static const struct param_spec fake_declared_params[] = {
	{ .name = "need", .kind = PARAM_STRING, .help = "a word", .flags = PARAM_REQUIRED },
	{ .name = "ratio", .kind = PARAM_NUMBER, .help = "0..1", .lo = 0, .hi = 1 },
	{ .name = "mode", .kind = PARAM_STRING, .help = "how", .deflt = "\"fast\"" },
	{ .name = NULL },
};

static const struct scorer_ops fake_declared = {
	.type = "fake-declared",
	.summary = "fake",
	.scale = SCALE_UNIT,
	.default_threshold = 0.5,
	.params = fake_declared_params,
};

const struct scorer_ops *scorer_find(const char *type)
{
	if (strcmp(type, fake_declared.type) == 0)
		return &fake_declared;
	for (size_t i = 0; scorer_table[i]; i++)
		if (strcmp(scorer_table[i]->type, type) == 0)
			return scorer_table[i];
	return NULL;
}

/* ---- helpers ----------------------------------------------------------- */

static struct error errbuf;

static int load(struct config *c, const char *text)
{
	error_clear(&errbuf);
	return config_load_string(c, &test_load, "t.yaml", "cfg", text, strlen(text), &errbuf);
}

/* Loads text that must fail with exactly `want`, and checks that the
 * config is left empty and freeable. */
static void assert_error(const char *text, const char *want)
{
	struct config c;
	int rc = load(&c, text);
	if (rc != -1)
		fail_msg("expected an error for:\n%s", text);
	assert_string_equal(errbuf.msg, want);
	assert_null(c.path);
	assert_null(c.scorers);
	assert_int_equal(c.nscorers, 0);
	config_free(&c);
	config_free(&c);
}

static void assert_loads(struct config *c, const char *text)
{
	if (load(c, text) != 0)
		fail_msg("unexpected error: %s", errbuf.msg);
}

static char *dump(const json_t *v)
{
	char *s = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
	assert_non_null(s);
	return s;
}

static void assert_json(const json_t *v, const char *want)
{
	char *s = dump(v);
	assert_string_equal(s, want);
	free(s);
}

static const struct param *param_named(const struct scorer_conf *sc, const char *name)
{
	for (size_t i = 0; i < sc->nparams; i++)
		if (strcmp(sc->params[i].name, name) == 0)
			return &sc->params[i];
	fail_msg("no param %s", name);
	return NULL;
}

/* ---- valid files ------------------------------------------------------- */

static void test_empty_configs(void **state)
{
	(void)state;
	const char *texts[] = { "", "# only a comment\n\n  # another\n", "---\n", "~\n",
	                        "runs:\nexpectations:\nscorers:\n" };
	for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
		struct config c;
		assert_loads(&c, texts[i]);
		assert_string_equal(c.path, "t.yaml");
		assert_string_equal(c.dir, "cfg");
		assert_null(c.run_id_path);
		assert_null(c.format);
		assert_false(c.has_expect);
		assert_int_equal(c.nscorers, 0);
		config_free(&c);
	}
}

/* Without a name the config counts as built in: no path, and messages
 * still carry a placeholder so they keep the FILE:LINE:COLUMN shape. */
static void test_unnamed(void **state)
{
	(void)state;
	struct config c;
	struct error err = {0};
	assert_int_equal(config_load_string(&c, &test_load, NULL, NULL, "", 0, &err), 0);
	assert_null(c.path);
	assert_null(c.dir);
	config_free(&c);

	const char *bad = "scorers: 1\n";
	assert_int_equal(config_load_string(&c, &test_load, NULL, NULL, bad, strlen(bad), &err), -1);
	assert_string_equal(err.msg, "<config>:1:10: 'scorers' must be a list of scorers, got a value");
	config_free(&c);

	/* A relative expectations file stays as written without a folder. */
	const char *ex = "expectations: {file: e.jsonl, match: {run: a, expected: a}}\n";
	assert_int_equal(config_load_string(&c, &test_load, NULL, NULL, ex, strlen(ex), &err), 0);
	assert_string_equal(c.expect.file, "e.jsonl");
	config_free(&c);
}

static const char example[] =
	"runs:\n"
	"  id: _corpus.run_id          # optional\n"
	"  format: openai-chat\n"
	"expectations:\n"
	"  file: tasks_expected.jsonl\n"
	"  match: {run: task_id, expected: task_id}\n"
	"scorers:\n"
	"  - id: weather\n"
	"    type: tool-call-accuracy\n"
	"    expectedTool: weather-tool\n"
	"    strictMode: false\n"
	"    threshold: 1\n"
	"  - id: write-order\n"
	"    type: tool-call-accuracy\n"
	"    expectedToolOrder: {from: expected.expected_write_tools}\n"
	"  - id: per-run\n"
	"    type: tool-call-accuracy\n"
	"    options: {from: config}\n"
	"  - id: words\n"
	"    type: word-inclusion\n";

static void test_example(void **state)
{
	(void)state;
	struct config c;
	assert_loads(&c, example);

	assert_string_equal(c.run_id_path, "_corpus.run_id");
	assert_string_equal(c.format, "openai-chat");
	assert_true(c.has_expect);
	assert_string_equal(c.expect.file, "cfg/tasks_expected.jsonl");
	assert_int_equal(c.expect.nkeys, 1);
	assert_string_equal(c.expect.run_keys[0], "task_id");
	assert_string_equal(c.expect.exp_keys[0], "task_id");
	assert_int_equal(c.expect.line, 5);
	assert_int_equal(c.expect.col, 3);
	assert_int_equal(c.nscorers, 4);

	const struct scorer_conf *w = &c.scorers[0];
	assert_string_equal(w->id, "weather");
	assert_ptr_equal(w->ops, &fake_tca);
	assert_int_equal(w->line, 8);
	assert_int_equal(w->col, 5);
	assert_int_equal(w->nparams, 2);
	assert_string_equal(w->params[0].name, "expectedTool");
	assert_json(w->params[0].literal, "\"weather-tool\"");
	assert_null(w->params[0].from);
	assert_int_equal(w->params[0].line, 10);
	assert_int_equal(w->params[0].col, 19);
	assert_string_equal(w->params[1].name, "strictMode");
	assert_true(json_is_false(w->params[1].literal));
	assert_true(w->threshold == 1.0);
	assert_int_equal(strlen(w->hash), 16);
	assert_int_equal(strspn(w->hash, "0123456789abcdef"), 16);

	const struct scorer_conf *o = &c.scorers[1];
	assert_string_equal(o->id, "write-order");
	assert_int_equal(o->nparams, 1);
	assert_null(o->params[0].literal);
	assert_string_equal(o->params[0].from, "expected.expected_write_tools");
	assert_true(o->params[0].from_expected);
	assert_string_equal(o->params[0].from_path, "expected_write_tools");
	assert_null(o->params[0].deflt);

	const struct scorer_conf *p = &c.scorers[2];
	assert_string_equal(p->params[0].name, "options");
	assert_string_equal(p->params[0].from, "config");
	assert_false(p->params[0].from_expected);
	assert_string_equal(p->params[0].from_path, "config");

	const struct scorer_conf *words = &c.scorers[3];
	assert_ptr_equal(words->ops, &fake_words);
	assert_int_equal(words->nparams, 0);
	assert_true(words->threshold == 0.5);

	config_free(&c);
	assert_null(c.scorers);
}

static void test_yaml_typing(void **state)
{
	(void)state;
	struct config c;
	assert_loads(&c,
		"scorers:\n"
		"  - id: r\n"
		"    type: fake-rating\n"
		"    extra:\n"
		"      t1: true\n"
		"      t2: True\n"
		"      t3: TRUE\n"
		"      f1: false\n"
		"      f2: FALSE\n"
		"      n1: null\n"
		"      n2: ~\n"
		"      n3:\n"
		"      n4: NULL\n"
		"      i1: 42\n"
		"      i2: -7\n"
		"      i3: +3\n"
		"      i4: 0x1f\n"
		"      i5: 0o17\n"
		"      r1: 1.5\n"
		"      r2: 1e3\n"
		"      r3: -.25\n"
		"      big: 123456789012345678901234\n"
		"      q1: \"true\"\n"
		"      q2: '42'\n"
		"      q3: \"\"\n"
		"      q4: 'null'\n"
		"      s1: yes\n"
		"      s2: 1.2.3\n"
		"      s3: tRUE\n"
		"      s4: 12abc\n"
		"      tag1: !!str 12\n"
		"      tag2: !!float 3\n"
		"      tag3: !!int \"5\"\n"
		"      list: [1, \"2\", three, [], {}]\n"
		"      nested: {a: {b: [x, {c: ~}]}}\n");
	const struct param *p = param_named(&c.scorers[0], "extra");
	assert_json(p->literal,
		"{\"big\":1.2345678901234569e23,\"f1\":false,\"f2\":false,\"i1\":42,\"i2\":-7,"
		"\"i3\":3,\"i4\":31,\"i5\":15,\"list\":[1,\"2\",\"three\",[],{}],"
		"\"n1\":null,\"n2\":null,\"n3\":null,\"n4\":null,"
		"\"nested\":{\"a\":{\"b\":[\"x\",{\"c\":null}]}},"
		"\"q1\":\"true\",\"q2\":\"42\",\"q3\":\"\",\"q4\":\"null\","
		"\"r1\":1.5,\"r2\":1000.0,\"r3\":-0.25,"
		"\"s1\":\"yes\",\"s2\":\"1.2.3\",\"s3\":\"tRUE\",\"s4\":\"12abc\","
		"\"t1\":true,\"t2\":true,\"t3\":true,"
		"\"tag1\":\"12\",\"tag2\":3.0,\"tag3\":5}");
	config_free(&c);
}

static void test_null_literals_allowed(void **state)
{
	(void)state;
	struct config c;
	assert_loads(&c,
		"scorers:\n"
		"  - id: a\n"
		"    type: tool-call-accuracy\n"
		"    expectedTool: ~\n"
		"    strictMode: null\n"
		"    expectedToolOrder:\n"
		"    options: ~\n");
	const struct scorer_conf *sc = &c.scorers[0];
	assert_int_equal(sc->nparams, 4);
	for (size_t i = 0; i < 4; i++)
		assert_true(json_is_null(sc->params[i].literal));
	config_free(&c);
}

static void test_anchors(void **state)
{
	(void)state;
	struct config c;
	assert_loads(&c,
		"scorers:\n"
		"  - id: a\n"
		"    type: tool-call-accuracy\n"
		"    expectedToolOrder: &order [search, book]\n"
		"  - id: b\n"
		"    type: tool-call-accuracy\n"
		"    expectedToolOrder: *order\n");
	assert_json(c.scorers[1].params[0].literal, "[\"search\",\"book\"]");
	assert_string_equal(c.scorers[0].hash, c.scorers[1].hash);
	config_free(&c);
}

/* Nested aliases can describe an enormous value in a few lines; loading
 * must stop instead of expanding it. */
static void test_alias_bomb(void **state)
{
	(void)state;
	char text[2048] = "scorers:\n  - id: r\n    type: fake-rating\n    extra:\n"
	                  "      a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
	for (int i = 1; i <= 6; i++) {
		char line[256];
		int n = snprintf(line, sizeof line, "      a%d: &a%d [", i, i);
		for (int j = 0; j < 10; j++)
			n += snprintf(line + n, sizeof line - (size_t)n, "%s*a%d", j ? ", " : "", i - 1);
		snprintf(line + n, sizeof line - (size_t)n, "]\n");
		strcat(text, line);
	}
	assert_error(text, "t.yaml:5:43: the value expands to more than 100000 nodes");
}

/* ---- errors ------------------------------------------------------------ */

static void test_syntax_errors(void **state)
{
	(void)state;
	assert_error("scorers:\n  - id: a\n    type: b: c\n",
	             "t.yaml:3:12: mapping values are not allowed in this context");
	assert_error("runs:\n  id: [a\n",
	             "t.yaml:3:1: did not find expected ',' or ']' (while parsing a flow sequence at line 2)");
	assert_error("\tscorers: []\n",
	             "t.yaml:1:1: found character that cannot start any token (while scanning for the next token at line 1)");
	assert_error("runs: {}\n---\nscorers: []\n", "t.yaml:2:1: only one YAML document is allowed");
	assert_error("runs: \xff\n", "t.yaml:1:7: invalid leading UTF-8 octet (byte 0xFF)");
	assert_error("scorers: *nope\n", "t.yaml:1:10: unknown anchor 'nope'");
	assert_error("scorers: &x [*x]\n", "t.yaml:1:14: alias '*x' is inside its own anchor");
}

/* runs: {id: [PATHS]}: an id spec of space-separated paths, split back
 * whole even where a quoted key holds a space. */
static void test_runs_id_list(void **state)
{
	(void)state;
	struct config c;
	assert_loads(&c, "runs:\n  id: [task_id, '[\"a b\"].x', trial]\n");
	assert_string_equal(c.run_id_path, "task_id [\"a b\"].x trial");
	assert_int_equal(run_id_spec_count(c.run_id_path), 3);
	char part[64];
	assert_true(run_id_spec_part(c.run_id_path, 1, part, sizeof part));
	assert_string_equal(part, "[\"a b\"].x");
	assert_true(run_id_spec_part(c.run_id_path, 2, part, sizeof part));
	assert_string_equal(part, "trial");
	assert_false(run_id_spec_part(c.run_id_path, 3, part, sizeof part));
	assert_false(run_id_spec_part(c.run_id_path, 0, part, 4));     /* does not fit */
	config_free(&c);
	assert_loads(&c, "runs:\n  id: run_id\n");
	assert_int_equal(run_id_spec_count(c.run_id_path), 1);
	config_free(&c);
	assert_error("runs:\n  id: []\n", "t.yaml:2:7: 'id' must name at least one path");
	assert_error("runs:\n  id: [a, b..c]\n", "t.yaml:2:11: invalid path 'b..c' for 'id': empty segment");
}

static void test_structure_errors(void **state)
{
	(void)state;
	assert_error("runs: {}\nscorer: []\n",
	             "t.yaml:2:1: unknown key 'scorer' (expected one of: runs, expectations, scorers, judges, compare, formats, theme, keys, reviewer, tags, call_labels)");
	assert_error("- a\n- b\n",
	             "t.yaml:1:1: the configuration must be a mapping of runs, expectations, scorers and judges");
	assert_error("runs:\n  idd: x\n", "t.yaml:2:3: unknown key 'idd' (expected one of: id, format)");
	assert_error("runs: [a]\n", "t.yaml:1:7: 'runs' must be a mapping, got a list");
	assert_error("runs:\n  id: a..b\n", "t.yaml:2:7: invalid path 'a..b' for 'id': empty segment");
	assert_error("runs:\n  format: [x]\n",
	             "t.yaml:2:11: wrong type for 'format': expected a string, got a list");
	assert_error("runs:\n  format: ''\n", "t.yaml:2:11: 'format' must not be empty");
	assert_error("scorers: {a: 1}\n", "t.yaml:1:10: 'scorers' must be a list of scorers, got a mapping");
	assert_error("scorers: 3\n", "t.yaml:1:10: 'scorers' must be a list of scorers, got a value");
	assert_error("scorers:\n  - words\n",
	             "t.yaml:2:5: each scorer must be a mapping with 'id' and 'type', got a string");
	assert_error("scorers:\n  - type: word-inclusion\n", "t.yaml:2:5: scorer has no 'id'");
	assert_error("scorers:\n  - id: w\n", "t.yaml:2:5: scorer 'w' has no 'type'");
	assert_error("scorers:\n  - id: 'a b'\n    type: word-inclusion\n",
	             "t.yaml:2:9: invalid scorer id 'a b' (use letters, digits and _ . : -)");
	assert_error("scorers:\n  - id: ~\n    type: word-inclusion\n", "t.yaml:2:9: 'id' must not be empty");
}

static void test_duplicate_keys(void **state)
{
	(void)state;
	assert_error("runs: {}\nscorers: []\nruns: {}\n",
	             "t.yaml:3:1: duplicate key 'runs' (first at line 1)");
	assert_error("scorers:\n  - id: w\n    type: word-inclusion\n    id: v\n",
	             "t.yaml:4:5: duplicate key 'id' (first at line 2)");
	assert_error("scorers:\n"
	             "  - id: w\n"
	             "    type: tool-call-accuracy\n"
	             "    expectedTool: t\n"
	             "    options: {a: 1, b: 2, c: 3, b: 4, a: 5}\n",
	             "t.yaml:5:33: duplicate key 'b' (first at line 5)");
	assert_error("scorers: {[a]: 1}\n", "t.yaml:1:11: mapping keys must be scalars");
}

static void test_duplicate_id(void **state)
{
	(void)state;
	assert_error("scorers:\n"
	             "  - id: w\n"
	             "    type: word-inclusion\n"
	             "  - id: x\n"
	             "    type: word-inclusion\n"
	             "  - type: word-inclusion\n"
	             "    id: w\n",
	             "t.yaml:7:9: duplicate scorer id 'w' (first at line 2)");
}

static void test_unknown_scorer_type(void **state)
{
	(void)state;
	assert_error("scorers:\n  - id: w\n    type: tool-accuracy\n",
	             "t.yaml:3:11: unknown scorer type 'tool-accuracy' "
	             "(known: tool-call-accuracy, word-inclusion, fake-rating)");
}

static void test_unknown_scorer_key(void **state)
{
	(void)state;
	assert_error("scorers:\n"
	             "  - id: w\n"
	             "    type: tool-call-accuracy\n"
	             "    expectedTool: x\n"
	             "    expectedTol: x\n",
	             "t.yaml:5:5: unknown key 'expectedTol' for scorer type 'tool-call-accuracy' "
	             "(known: id, type, threshold, criterion, expectedTool, strictMode, expectedToolOrder, options)");
	assert_error("scorers:\n  - id: w\n    type: word-inclusion\n    words: [a]\n",
	             "t.yaml:4:5: unknown key 'words' for scorer type 'word-inclusion' "
	             "(known: id, type, threshold, criterion)");
}

static void test_wrong_types(void **state)
{
	(void)state;
	const char *head = "scorers:\n  - id: w\n    type: tool-call-accuracy\n";
	struct { const char *body, *want; } cases[] = {
		{ "    expectedTool: [a, b]\n",
		  "t.yaml:4:19: wrong type for 'expectedTool': expected a string, got a list" },
		{ "    expectedTool: 12\n",
		  "t.yaml:4:19: wrong type for 'expectedTool': expected a string, got a number" },
		{ "    expectedTool: {x: 1}\n",
		  "t.yaml:4:19: wrong type for 'expectedTool': expected a string, got a mapping" },
		{ "    expectedTool: t\n    strictMode: \"false\"\n",
		  "t.yaml:5:17: wrong type for 'strictMode': expected a boolean, got a string" },
		{ "    expectedTool: t\n    strictMode: yes\n",
		  "t.yaml:5:17: wrong type for 'strictMode': expected a boolean, got a string" },
		{ "    expectedToolOrder: search\n",
		  "t.yaml:4:24: wrong type for 'expectedToolOrder': expected a list of strings, got a string" },
		{ "    expectedToolOrder: [search, 1, book]\n",
		  "t.yaml:4:33: wrong type for 'expectedToolOrder': expected a list of strings, item 2 is a number" },
		{ "    expectedToolOrder:\n      - a\n      - [b]\n",
		  "t.yaml:6:9: wrong type for 'expectedToolOrder': expected a list of strings, item 2 is a list" },
		{ "    expectedTool: t\n    options: [a]\n",
		  "t.yaml:5:14: wrong type for 'options': expected a mapping, got a list" },
		{ "    expectedTool: {from: a, default: 3}\n",
		  "t.yaml:4:38: wrong type for the default of 'expectedTool': expected a string, got a number" },
		{ "    expectedTool: t\n    options: {x: .inf}\n",
		  "t.yaml:5:18: '.inf' is not a finite number, which JSON cannot hold" },
		/* Digits past a double's range (a fuzzing finding: it used to abort
		 * as if memory had run out). */
		{ "    expectedTool: t\n    options: {x: 99999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999}\n",
		  "t.yaml:5:18: '99999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999' is not a finite number, which JSON cannot hold" },
		{ "    expectedTool: !!int abc\n",
		  "t.yaml:4:19: 'abc' is not a valid !!int" },
		{ "    expectedTool: !custom abc\n",
		  "t.yaml:4:19: unsupported tag '!custom'" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char text[1024];
		snprintf(text, sizeof text, "%s%s", head, cases[i].body);
		assert_error(text, cases[i].want);
	}

	struct config c;
	assert_loads(&c, "scorers:\n  - id: r\n    type: fake-rating\n    weight: 2.5\n    extra: [1]\n");
	assert_true(json_real_value(param_named(&c.scorers[0], "weight")->literal) == 2.5);
	config_free(&c);
	assert_error("scorers:\n  - id: r\n    type: fake-rating\n    weight: 'x'\n",
	             "t.yaml:4:13: wrong type for 'weight': expected a number, got a string");
}

static void test_references_errors(void **state)
{
	(void)state;
	const char *head = "expectations:\n  file: e.jsonl\n  match: {run: id, expected: id}\n"
	                   "scorers:\n  - id: w\n    type: tool-call-accuracy\n";
	struct { const char *body, *want; } cases[] = {
		{ "    expectedTool: {from: 'a..b'}\n",
		  "t.yaml:7:26: invalid path 'a..b' for 'expectedTool': empty segment" },
		{ "    expectedTool: {from: expected.}\n",
		  "t.yaml:7:26: invalid path 'expected.' for 'expectedTool': empty path" },
		{ "    expectedTool: {from: 'expected.x[y]'}\n",
		  "t.yaml:7:26: invalid path 'expected.x[y]' for 'expectedTool': "
		  "index must be an integer or a quoted key" },
		{ "    expectedTool: {from: x, dflt: 1}\n",
		  "t.yaml:7:29: unknown key 'dflt' in a reference (expected one of: from, default)" },
		{ "    expectedTool: {from: ~}\n",
		  "t.yaml:7:26: 'from' must not be empty" },
		{ "    expectedTool: {from: [a]}\n",
		  "t.yaml:7:26: wrong type for 'from': expected a string, got a list" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char text[512];
		snprintf(text, sizeof text, "%s%s", head, cases[i].body);
		assert_error(text, cases[i].want);
	}
	/* expected.* needs an expectations section, wherever it is written. */
	assert_error("scorers:\n  - id: w\n    type: tool-call-accuracy\n"
	             "    expectedTool: {from: expected.tool}\n",
	             "t.yaml:4:19: 'expectedTool' refers to expected.* but there is no 'expectations' section");
}

static void test_check_failure(void **state)
{
	(void)state;
	assert_error("scorers:\n"
	             "  - id: ok\n"
	             "    type: word-inclusion\n"
	             "  - id: w\n"
	             "    type: tool-call-accuracy\n"
	             "    strictMode: true\n",
	             "t.yaml:4:5: expectedTool or expectedToolOrder is required");
	assert_error("scorers: [{id: w, type: tool-call-accuracy}]\n",
	             "t.yaml:1:11: expectedTool or expectedToolOrder is required");
	/* With a reference the check cannot run at load time. */
	struct config c;
	assert_loads(&c, "scorers:\n  - id: w\n    type: tool-call-accuracy\n"
	                 "    options: {from: opts}\n");
	config_free(&c);
}

static void test_threshold(void **state)
{
	(void)state;
	assert_error("scorers:\n  - id: w\n    type: tool-call-accuracy\n"
	             "    expectedTool: t\n    threshold: 1.5\n",
	             "t.yaml:5:16: threshold 1.5 is off the scale of 'tool-call-accuracy' (binary: 0..1)");
	assert_error("scorers:\n  - id: w\n    type: word-inclusion\n    threshold: -0.1\n",
	             "t.yaml:4:16: threshold -0.1 is off the scale of 'word-inclusion' (unit: 0..1)");
	assert_error("scorers:\n  - id: r\n    type: fake-rating\n    threshold: 0.5\n",
	             "t.yaml:4:16: threshold 0.5 is off the scale of 'fake-rating' (1to5: 1..5)");
	assert_error("scorers:\n  - id: r\n    type: fake-rating\n    threshold: '4'\n",
	             "t.yaml:4:16: wrong type for 'threshold': expected a number, got a string");
	assert_error("scorers:\n  - id: r\n    type: fake-rating\n    threshold: [4]\n",
	             "t.yaml:4:16: wrong type for 'threshold': expected a number, got a list");

	struct config c;
	assert_loads(&c, "scorers:\n"
	                 "  - {id: a, type: fake-rating, threshold: 4}\n"
	                 "  - {id: b, type: fake-rating}\n"
	                 "  - {id: c, type: word-inclusion, threshold: 0.75}\n"
	                 "  - {id: d, type: word-inclusion, threshold: 0}\n");
	assert_true(c.scorers[0].threshold == 4.0);
	assert_true(c.scorers[1].threshold == 3.0);
	assert_true(c.scorers[2].threshold == 0.75);
	assert_true(c.scorers[3].threshold == 0.0);
	config_free(&c);
}

static void test_expectations_errors(void **state)
{
	(void)state;
	assert_error("expectations:\n  file: e.jsonl\n  match: {run: [a, b], expected: [a]}\n",
	             "t.yaml:3:34: 'expected' has 1 path but 'run' has 2");
	assert_error("expectations:\n  file: e.jsonl\n  match: {run: a, expected: [a, b]}\n",
	             "t.yaml:3:29: 'expected' has 2 paths but 'run' has 1");
	assert_error("expectations:\n  file: e.jsonl\n  match: {run: [], expected: []}\n",
	             "t.yaml:3:16: 'run' must name at least one path");
	assert_error("expectations:\n  file: e.jsonl\n",
	             "t.yaml:2:3: 'expectations' needs 'match' ({run: PATH, expected: PATH})");
	assert_error("expectations:\n  match: {run: a, expected: a}\n",
	             "t.yaml:2:3: 'expectations' needs 'file'");
	assert_error("expectations:\n  file: e.jsonl\n  match: {run: a}\n",
	             "t.yaml:3:10: 'match' needs 'expected'");
	assert_error("expectations:\n  file: e.jsonl\n  match: {run: a, expected: a, by: x}\n",
	             "t.yaml:3:32: unknown key 'by' (expected one of: run, expected)");
	assert_error("expectations:\n  file: e.jsonl\n  match: {run: 'a b', expected: a}\n",
	             "t.yaml:3:16: invalid path 'a b' for 'run': "
	             "spaces, quotes and control characters need a quoted key: [\"...\"]");
	assert_error("expectations:\n  files: e.jsonl\n",
	             "t.yaml:2:3: unknown key 'files' (expected one of: file, match)");
	assert_error("expectations:\n  file: e.jsonl\n  match: task_id\n",
	             "t.yaml:3:10: 'match' must be a mapping, got a value");
}

static void test_composite_match(void **state)
{
	(void)state;
	struct config c;
	assert_loads(&c, "expectations:\n"
	                 "  file: /data/e.json\n"
	                 "  match:\n"
	                 "    run: [info.task_id, 'meta[\"trial\"]']\n"
	                 "    expected: [task_id, trial]\n");
	assert_string_equal(c.expect.file, "/data/e.json");
	assert_int_equal(c.expect.nkeys, 2);
	assert_string_equal(c.expect.run_keys[0], "info.task_id");
	assert_string_equal(c.expect.run_keys[1], "meta[\"trial\"]");
	assert_string_equal(c.expect.exp_keys[0], "task_id");
	assert_string_equal(c.expect.exp_keys[1], "trial");
	config_free(&c);
}

/* ---- references -------------------------------------------------------- */

static json_t *parse(const char *text)
{
	json_error_t e;
	json_t *v = json_loads(text, 0, &e);
	if (!v)
		fail_msg("bad fixture: %s", e.text);
	return v;
}

static const char refs_yaml[] =
	"expectations:\n"
	"  file: e.jsonl\n"
	"  match: {run: id, expected: id}\n"
	"scorers:\n"
	"  - id: w\n"
	"    type: tool-call-accuracy\n"
	"    expectedTool: {from: tool}\n"
	"    strictMode: {from: expected.strict, default: true}\n"
	"    expectedToolOrder: {from: expected.order}\n"
	"    options: {from: 'cfg.opts'}\n";

static void test_resolve_found(void **state)
{
	(void)state;
	struct config c;
	assert_loads(&c, refs_yaml);
	json_t *rec = parse("{\"id\": 1, \"tool\": \"search\", \"cfg\": {\"opts\": {\"k\": 1}}}");
	json_t *exp = parse("{\"id\": 1, \"strict\": false, \"order\": [\"a\", \"b\"]}");
	struct run *run = run_new(rec, "t.jsonl", 1, -1);
	char *unset = (char *)"untouched";

	json_t *p = scorer_resolve_params(&c.scorers[0], run, exp, NULL, &unset);
	assert_null(unset);
	assert_json(p, "{\"expectedTool\":\"search\",\"expectedToolOrder\":[\"a\",\"b\"],"
	               "\"options\":{\"k\":1},\"strictMode\":false}");
	json_decref(p);
	run_free(run);
	json_decref(rec);
	json_decref(exp);
	config_free(&c);
}

static void test_resolve_missing(void **state)
{
	(void)state;
	struct config c;
	assert_loads(&c, refs_yaml);
	json_t *rec = parse("{\"id\": 1, \"tool\": null}");
	json_t *exp = parse("{\"id\": 1}");
	struct run *run = run_new(rec, "t.jsonl", 1, -1);
	char *unset = NULL;

	/* A found null is set; a missing one falls back to its default or is
	 * left out and described. */
	json_t *p = scorer_resolve_params(&c.scorers[0], run, exp, NULL, &unset);
	assert_json(p, "{\"expectedTool\":null,\"strictMode\":true}");
	assert_string_equal(unset, "expectedToolOrder: expected.order not found; "
	                           "options: cfg.opts not found");
	free(unset);
	json_decref(p);

	/* No expectation joined: the reason is passed through. */
	p = scorer_resolve_params(&c.scorers[0], run, NULL, "no expectation has id = 1", &unset);
	assert_json(p, "{\"expectedTool\":null,\"strictMode\":true}");
	assert_string_equal(unset, "expectedToolOrder: no expectation for this run "
	                           "(no expectation has id = 1); options: cfg.opts not found");
	free(unset);
	json_decref(p);

	p = scorer_resolve_params(&c.scorers[0], run, NULL, NULL, &unset);
	assert_string_equal(unset, "expectedToolOrder: no expectation for this run; "
	                           "options: cfg.opts not found");
	free(unset);
	json_decref(p);

	/* A NULL record finds nothing; unset may be NULL. */
	p = scorer_resolve_params(&c.scorers[0], NULL, exp, NULL, NULL);
	assert_json(p, "{\"strictMode\":true}");
	json_decref(p);

	run_free(run);
	json_decref(rec);
	json_decref(exp);
	config_free(&c);
}

static void test_resolve_literals(void **state)
{
	(void)state;
	struct config c;
	assert_loads(&c, "scorers:\n"
	                 "  - id: w\n"
	                 "    type: tool-call-accuracy\n"
	                 "    expectedTool: weather-tool\n"
	                 "    strictMode: ~\n"
	                 "    options: {a: [1, 2]}\n");
	char *unset = NULL;
	json_t *p = scorer_resolve_params(&c.scorers[0], NULL, NULL, NULL, &unset);
	assert_null(unset);
	assert_json(p, "{\"expectedTool\":\"weather-tool\",\"options\":{\"a\":[1,2]},\"strictMode\":null}");
	json_decref(p);
	config_free(&c);
}

/* ---- hash -------------------------------------------------------------- */

static void hash_of(const char *text, char out[17])
{
	struct config c;
	assert_loads(&c, text);
	assert_int_equal(c.nscorers, 1);
	memcpy(out, c.scorers[0].hash, 17);
	config_free(&c);
}

static void test_hash(void **state)
{
	(void)state;
	const char *base = "scorers:\n  - id: w\n    type: tool-call-accuracy\n"
	                   "    expectedTool: weather-tool\n    strictMode: false\n";
	char h1[17], h2[17];

	hash_of(base, h1);
	hash_of(base, h2);
	assert_string_equal(h1, h2);

	/* Formatting, comments and the id do not matter. */
	hash_of("# c\nscorers: [{id: other, type: tool-call-accuracy, "
	        "expectedTool: \"weather-tool\", strictMode: False}]\n", h2);
	assert_string_equal(h1, h2);
	/* The default threshold written out means the same. */
	hash_of("scorers: [{id: w, type: tool-call-accuracy, expectedTool: weather-tool, "
	        "strictMode: false, threshold: 1}]\n", h2);
	assert_string_equal(h1, h2);

	const char *changed[] = {
		"scorers: [{id: w, type: tool-call-accuracy, expectedTool: weather-tool, strictMode: true}]\n",
		"scorers: [{id: w, type: tool-call-accuracy, expectedTool: weather-tool2, strictMode: false}]\n",
		"scorers: [{id: w, type: tool-call-accuracy, expectedTool: weather-tool}]\n",
		"scorers: [{id: w, type: tool-call-accuracy, expectedTool: weather-tool, strictMode: ~}]\n",
		"scorers: [{id: w, type: tool-call-accuracy, expectedTool: weather-tool, strictMode: false, "
		"threshold: 0.5}]\n",
		"scorers: [{id: w, type: tool-call-accuracy, expectedTool: {from: weather-tool}, "
		"strictMode: false}]\n",
		"scorers: [{id: w, type: tool-call-accuracy, expectedTool: {from: weather-tool, "
		"default: x}, strictMode: false}]\n",
		"scorers: [{id: w, type: tool-call-accuracy, expectedToolOrder: [weather-tool], "
		"strictMode: false}]\n",
	};
	char seen[sizeof changed / sizeof *changed][17];
	for (size_t i = 0; i < sizeof changed / sizeof *changed; i++) {
		hash_of(changed[i], seen[i]);
		assert_string_not_equal(seen[i], h1);
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(seen[i], seen[j]);
	}

	/* Key order inside an object literal does not matter (sorted dump). */
	hash_of("scorers: [{id: w, type: tool-call-accuracy, expectedTool: t, options: {a: 1, b: 2}}]\n", h1);
	hash_of("scorers: [{id: w, type: tool-call-accuracy, expectedTool: t, options: {b: 2, a: 1}}]\n", h2);
	assert_string_equal(h1, h2);
	/* Different types with no params differ. */
	hash_of("scorers: [{id: w, type: word-inclusion}]\n", h1);
	hash_of("scorers: [{id: w, type: fake-rating, threshold: 1}]\n", h2);
	assert_string_not_equal(h1, h2);
}

/* ---- files ------------------------------------------------------------- */

static char tmpdir[64];

static int make_tmpdir(void **state)
{
	(void)state;
	strcpy(tmpdir, "/tmp/tcr-config-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int remove_tmpdir(void **state)
{
	(void)state;
	return rmdir(tmpdir);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_load_file(void **state)
{
	(void)state;
	char path[128], want[160];
	snprintf(path, sizeof path, "%s/conf.yaml", tmpdir);
	write_file(path, "expectations:\n  file: sub/tasks.jsonl\n  match: {run: a, expected: b}\n");

	struct config c;
	struct error err = {0};
	assert_int_equal(config_load(&c, &test_load, path, &err), 0);
	assert_string_equal(c.path, path);
	assert_string_equal(c.dir, tmpdir);
	snprintf(want, sizeof want, "%s/sub/tasks.jsonl", tmpdir);
	assert_string_equal(c.expect.file, want);
	config_free(&c);

	/* Errors name the file as given. */
	write_file(path, "scorers:\n  - id: w\n    typo: x\n");
	assert_int_equal(config_load(&c, &test_load, path, &err), -1);
	snprintf(want, sizeof want, "%s:2:5: scorer 'w' has no 'type'", path);
	assert_string_equal(err.msg, want);
	config_free(&c);
	unlink(path);

	assert_int_equal(config_load(&c, &test_load, path, &err), -1);
	snprintf(want, sizeof want, "%s: No such file or directory", path);
	assert_string_equal(err.msg, want);
	config_free(&c);

	/* A directory is not a configuration. */
	assert_int_equal(config_load(&c, &test_load, tmpdir, &err), -1);
	snprintf(want, sizeof want, "%s: not a regular file (a folder)", tmpdir);
	assert_string_equal(err.msg, want);
	config_free(&c);
}

static void test_load_file_in_cwd(void **state)
{
	(void)state;
	char cwd[512];
	assert_non_null(getcwd(cwd, sizeof cwd));
	assert_int_equal(chdir(tmpdir), 0);
	write_file("conf.yaml", "expectations:\n  file: tasks.jsonl\n  match: {run: a, expected: b}\n");

	struct config c;
	struct error err = {0};
	int rc = config_load(&c, &test_load, "conf.yaml", &err);
	unlink("conf.yaml");
	assert_int_equal(chdir(cwd), 0);
	assert_int_equal(rc, 0);
	assert_string_equal(c.dir, ".");
	assert_string_equal(c.expect.file, "tasks.jsonl");
	config_free(&c);
}

/* ---- theme and keys ---------------------------------------------------- */

static void test_theme_and_keys(void **state)
{
	(void)state;
	struct config c;
	assert_loads(&c, "theme: light\n"
	                 "keys:\n"
	                 "  accept: [a, Enter]\n"
	                 "  next-unreviewed: C-n\n"
	                 "  label-1: 1\n"
	                 "  page-down: 'PgDn  space'\n"
	                 "  judge: []\n"
	                 "  search: \"/\"\n"
	                 "  quit: [q, é, F10]\n");
	assert_string_equal(c.theme, "light");
	assert_int_equal(c.nkeys, 7);
	const char *want[][2] = {
		{ "accept", "a Enter" }, { "next-unreviewed", "C-n" }, { "label-1", "1" },
		{ "page-down", "PgDn space" }, { "judge", "" }, { "search", "/" },
		{ "quit", "q é F10" },
	};
	for (size_t i = 0; i < 7; i++) {
		assert_string_equal(c.keys[i].action, want[i][0]);
		assert_string_equal(c.keys[i].keys, want[i][1]);
		assert_int_equal(c.keys[i].line, (int)i + 3);
		assert_true(action_find(c.keys[i].action) != ACT_NONE);
	}
	assert_int_equal(c.keys[0].col, 11);
	assert_int_equal(c.keys[1].col, 20);
	/* What the screen will do with them: bind each in order. */
	struct keymap km;
	struct error err = {0};
	keymap_init_defaults(&km);
	for (size_t i = 0; i < c.nkeys; i++)
		assert_int_equal(keymap_bind(&km, action_find(c.keys[i].action), c.keys[i].keys, &err), 0);
	assert_int_equal(keymap_lookup(&km, '\n'), ACT_ACCEPT);
	assert_int_equal(keymap_lookup(&km, 14), ACT_NEXT_TODO);
	assert_int_equal(keymap_lookup(&km, 'J'), ACT_NONE);
	assert_int_equal(keymap_lookup(&km, 0xe9), ACT_QUIT);
	keymap_free(&km);
	config_free(&c);

	/* Absent or null: unset. */
	assert_loads(&c, "theme: ~\nkeys:\n");
	assert_null(c.theme);
	assert_null(c.keys);
	assert_int_equal(c.nkeys, 0);
	config_free(&c);
	assert_loads(&c, "keys: {}\ntheme: my_theme-2\n");
	assert_int_equal(c.nkeys, 0);
	assert_string_equal(c.theme, "my_theme-2");
	config_free(&c);
}

static void test_theme_and_keys_errors(void **state)
{
	(void)state;
	assert_error("theme: [dark]\n",
	             "t.yaml:1:8: wrong type for 'theme': expected a string, got a list");
	assert_error("theme: ''\n", "t.yaml:1:8: 'theme' must not be empty");
	assert_error("theme: ../etc/x\n",
	             "t.yaml:1:8: invalid theme name '../etc/x' (use letters, digits, _ and -)");
	assert_error("keys: [a]\n", "t.yaml:1:7: 'keys' must be a mapping, got a list");
	assert_error("keys: a\n", "t.yaml:1:7: 'keys' must be a mapping, got a value");
	assert_error("keys:\n  acept: a\n",
	             "t.yaml:2:3: unknown action 'acept' (see tcreview --help keys)");
	assert_error("keys:\n  accept: Ctrl-a\n", "t.yaml:2:11: unknown key name 'Ctrl-a'");
	assert_error("keys:\n  accept: [a, Entr]\n", "t.yaml:2:15: unknown key name 'Entr'");
	assert_error("keys:\n  accept:\n    - a\n    - F13\n", "t.yaml:4:7: unknown key name 'F13'");
	assert_error("keys:\n  accept: 'a b0'\n", "t.yaml:2:11: unknown key name 'b0'");
	assert_error("keys:\n  accept: {a: 1}\n",
	             "t.yaml:2:11: wrong type for 'accept': expected a key name or a list of key names, "
	             "got a mapping");
	assert_error("keys:\n  accept: [[a]]\n",
	             "t.yaml:2:12: wrong type for 'accept': expected a key name or a list of key names, "
	             "got a list");
	assert_error("keys:\n  accept: ~\n", "t.yaml:2:11: 'accept' must not be empty");
	assert_error("keys:\n  page-down: ' '\n",
	             "t.yaml:2:14: 'page-down' names no key (the space bar is Space)");
	assert_error("keys:\n  accept: a\n  accept: b\n",
	             "t.yaml:3:3: duplicate key 'accept' (first at line 2)");
	/* One key for two actions of the same file is a slip, in any spelling. */
	assert_error("keys:\n  accept: [a, Enter]\n  toggle: [t, enter]\n",
	             "t.yaml:3:15: key 'enter' is already bound to 'accept' at line 2");
	assert_error("keys:\n  quit: C-q\n  help: C-Q\n",
	             "t.yaml:3:9: key 'C-Q' is already bound to 'quit' at line 2");
}

/* ---- judges -------------------------------------------------------------- */

static void judges_datadir(void)
{
	const char *src = getenv("TCR_SRCDIR");
	test_load.datadir = src && *src ? src : ".";
}

/* Loads with the temporary folder as the YAML's folder, for prompt files. */
static int load_in_tmp(struct config *c, const char *text)
{
	error_clear(&errbuf);
	return config_load_string(c, &test_load, "t.yaml", tmpdir, text, strlen(text), &errbuf);
}

static void tmp_write(const char *name, const char *text)
{
	char path[256];
	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	write_file(path, text);
}

static void tmp_unlink(const char *name)
{
	char path[256];
	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	unlink(path);
}

static const struct judge_conf *judge_by_id(const struct config *c, const char *id)
{
	for (size_t i = 0; i < c->njudges; i++)
		if (strcmp(c->judges[i].id, id) == 0)
			return &c->judges[i];
	fail_msg("no judge %s", id);
	return NULL;
}

static const char help_prompt[] =
	"=== system\nYou rate answers from {{min}} to {{max}}.\n"
	"=== user\nRequest: {{input}}\nAnswer: {{output}}\nCalls: {{tool_calls}}\n"
	"Tools: {{tools}}\nExpected: {{expected}}\n";

static const char judges_yaml[] =
	"scorers:\n"
	"  - id: tca\n"
	"    type: tool-call-accuracy\n"
	"    expectedTool: weather\n"
	"judges:\n"
	"  - id: appropriateness\n"
	"    rubric: tool-appropriateness        # 0..1\n"
	"    model: openai/gpt-4o-mini\n"
	"    tools: from-run\n"
	"  - id: accuracy-1to5\n"
	"    rubric: tool-call-accuracy-1to5\n"
	"    model: azure/my-deployment\n"
	"    endpoint: https://example.openai.azure.com\n"
	"    api_version: \"2024-10-21\"\n"
	"    threshold: 3\n"
	"  - id: helpfulness\n"
	"    rubric: custom\n"
	"    prompt_file: prompts/helpfulness.txt\n"
	"    model: anthropic/claude-3-5-haiku\n"
	"    api_key_env: MY_KEY\n"
	"    scale: {min: 1, max: 5, pass: 4}\n"
	"    timeout: 30\n"
	"    max_retries: 2\n"
	"  - id: local\n"
	"    rubric: tool-appropriateness\n"
	"    model: my-org/my-model\n"
	"    base_url: http://localhost:8000/v1\n"
	"    threshold: 1\n"
	"    tools:\n"
	"      - {name: weather, description: Weather now}\n"
	"      - id: search\n"
	"        description: Search the web\n"
	"        parameters: {type: object}\n"
	"  - id: llama\n"
	"    rubric: tool-call-accuracy-1to5\n"
	"    model: ollama/llama3.1:8b\n";

static void test_judges(void **state)
{
	(void)state;
	judges_datadir();
	char dir[128];
	snprintf(dir, sizeof dir, "%s/prompts", tmpdir);
	assert_int_equal(mkdir(dir, 0700), 0);
	tmp_write("prompts/helpfulness.txt", help_prompt);

	struct config c;
	if (load_in_tmp(&c, judges_yaml) != 0)
		fail_msg("unexpected error: %s", errbuf.msg);
	assert_int_equal(c.nscorers, 1);
	assert_int_equal(c.njudges, 5);

	const struct judge_conf *j = judge_by_id(&c, "appropriateness");
	assert_ptr_equal(j->rubric, rubric_find("tool-appropriateness"));
	assert_int_equal(j->provider, PROVIDER_OPENAI);
	assert_string_equal(j->model, "gpt-4o-mini");
	assert_null(j->base_url);
	assert_null(j->tools);
	assert_null(j->api_key_env);
	assert_true(j->threshold == 0.5);
	assert_true(j->scale_min == 0 && j->scale_max == 1);
	assert_true(j->timeout_s == 60);
	assert_int_equal(j->max_retries, 4);
	assert_int_equal(j->line, 6);
	assert_int_equal(j->col, 5);
	char want[512];
	snprintf(want, sizeof want, "%s/prompts/tool-appropriateness.txt", test_load.datadir);
	assert_string_equal(j->prompt_source, want);
	assert_non_null(strstr(j->prompt_text, "=== analyse"));
	char h[17];
	prompt_hash(j->prompt_text, h);
	assert_string_equal(j->prompt_hash, h);
	assert_int_equal(strlen(j->hash), 16);

	j = judge_by_id(&c, "accuracy-1to5");
	assert_int_equal(j->provider, PROVIDER_AZURE);
	assert_string_equal(j->model, "my-deployment");
	assert_string_equal(j->endpoint, "https://example.openai.azure.com");
	assert_string_equal(j->api_version, "2024-10-21");
	assert_true(j->threshold == 3);
	assert_true(j->scale_min == 1 && j->scale_max == 5);

	j = judge_by_id(&c, "helpfulness");
	assert_int_equal(j->provider, PROVIDER_ANTHROPIC);
	assert_string_equal(j->model, "claude-3-5-haiku");
	assert_string_equal(j->api_key_env, "MY_KEY");
	assert_true(j->scale_min == 1 && j->scale_max == 5 && j->threshold == 4);
	assert_true(j->timeout_s == 30);
	assert_int_equal(j->max_retries, 2);
	snprintf(want, sizeof want, "%s/prompts/helpfulness.txt", tmpdir);
	assert_string_equal(j->prompt_source, want);
	assert_string_equal(j->prompt_text, help_prompt);
	prompt_hash(help_prompt, h);
	assert_string_equal(j->prompt_hash, h);

	j = judge_by_id(&c, "local");
	assert_int_equal(j->provider, PROVIDER_COMPAT);
	assert_string_equal(j->model, "my-org/my-model");
	assert_string_equal(j->base_url, "http://localhost:8000/v1");
	assert_true(j->threshold == 1);
	assert_json(j->tools, "[{\"description\":\"Weather now\",\"name\":\"weather\"},"
	                      "{\"description\":\"Search the web\",\"name\":\"search\","
	                      "\"parameters\":{\"type\":\"object\"}}]");

	j = judge_by_id(&c, "llama");
	assert_int_equal(j->provider, PROVIDER_OLLAMA);
	assert_string_equal(j->model, "llama3.1:8b");
	assert_true(j->threshold == 3);
	config_free(&c);
	assert_null(c.judges);
	assert_int_equal(c.njudges, 0);

	/* Empty or null: no judges. */
	assert_loads(&c, "judges: ~\n");
	assert_int_equal(c.njudges, 0);
	config_free(&c);
	assert_loads(&c, "judges: []\n");
	assert_int_equal(c.njudges, 0);
	config_free(&c);

	tmp_unlink("prompts/helpfulness.txt");
	rmdir(dir);
}

static void judge_hash_of(const char *yaml, char out[17])
{
	struct config c;
	if (load_in_tmp(&c, yaml) != 0)
		fail_msg("unexpected error: %s", errbuf.msg);
	assert_int_equal(c.njudges, 1);
	memcpy(out, c.judges[0].hash, 17);
	config_free(&c);
}

static void test_judge_hash(void **state)
{
	(void)state;
	judges_datadir();
	tmp_write("p1.txt", "Rate {{output}}.");
	tmp_write("p2.txt", "Rate {{output}} kindly.");
	char base[17], h[17];
#define J(id, extra) "judges:\n  - id: " id "\n    rubric: custom\n    model: openai/m\n" \
	"    scale: {min: 1, max: 5, pass: 3}\n" extra
	judge_hash_of(J("a", "    prompt_file: p1.txt\n"), base);
	/* The id, the key's variable and the timeouts do not change a verdict. */
	judge_hash_of(J("b", "    prompt_file: p1.txt\n"), h);
	assert_string_equal(h, base);
	judge_hash_of(J("a", "    prompt_file: p1.txt\n    api_key_env: K_KEY\n    timeout: 5\n    max_retries: 0\n"), h);
	assert_string_equal(h, base);
	/* What the judge is asked, and by whom, does. */
	judge_hash_of(J("a", "    prompt_file: p2.txt\n"), h);
	assert_string_not_equal(h, base);
	judge_hash_of("judges:\n  - id: a\n    rubric: custom\n    model: openai/other\n"
	              "    scale: {min: 1, max: 5, pass: 3}\n    prompt_file: p1.txt\n", h);
	assert_string_not_equal(h, base);
	judge_hash_of("judges:\n  - id: a\n    rubric: custom\n    model: openai/m\n"
	              "    scale: {min: 1, max: 5, pass: 4}\n    prompt_file: p1.txt\n", h);
	assert_string_not_equal(h, base);
	judge_hash_of("judges:\n  - id: a\n    rubric: custom\n    model: openai/m\n"
	              "    scale: {min: 0, max: 5, pass: 3}\n    prompt_file: p1.txt\n", h);
	assert_string_not_equal(h, base);
	judge_hash_of(J("a", "    prompt_file: p1.txt\n    base_url: http://127.0.0.1:1/v1\n"), h);
	assert_string_not_equal(h, base);
	judge_hash_of(J("a", "    prompt_file: p1.txt\n    tools: [{name: x, description: y}]\n"), h);
	assert_string_not_equal(h, base);
	judge_hash_of("judges:\n  - id: a\n    rubric: custom\n    model: ollama/m\n"
	              "    scale: {min: 1, max: 5, pass: 3}\n    prompt_file: p1.txt\n", h);
	assert_string_not_equal(h, base);
#undef J
	tmp_unlink("p1.txt");
	tmp_unlink("p2.txt");
}

#define JA "judges:\n  - id: a\n    rubric: tool-appropriateness\n"

static void test_judges_errors(void **state)
{
	(void)state;
	judges_datadir();
	assert_error("judges: {a: 1}\n", "t.yaml:1:9: 'judges' must be a list of judges, got a mapping");
	assert_error("judges: [x]\n",
	             "t.yaml:1:10: each judge must be a mapping with 'id', 'rubric' and 'model', got a string");
	assert_error("judges:\n  - rubric: custom\n", "t.yaml:2:5: judge has no 'id'");
	assert_error("judges:\n  - id: 'a b'\n", "t.yaml:2:9: invalid judge id 'a b' (use letters, digits and _ . : -)");
	assert_error("judges:\n  - id: a\n    model: openai/x\n", "t.yaml:2:5: judge 'a' has no 'rubric'");
	assert_error("judges:\n  - id: a\n    rubric: nope\n    model: openai/x\n",
	             "t.yaml:3:13: unknown rubric 'nope' (known: tool-appropriateness, "
	             "tool-call-accuracy-1to5, custom, pairwise)");
	assert_error(JA, "t.yaml:2:5: judge 'a' has no 'model' (e.g. openai/gpt-4o-mini)");
	assert_error(JA "    model: foo/bar\n",
	             "t.yaml:4:12: unknown provider in model 'foo/bar' (known: openai/, ollama/, azure/, "
	             "anthropic/; another OpenAI-compatible server needs base_url)");
	assert_error(JA "    model: gpt-4o\n",
	             "t.yaml:4:12: unknown provider in model 'gpt-4o' (known: openai/, ollama/, azure/, "
	             "anthropic/; another OpenAI-compatible server needs base_url)");
	assert_error(JA "    model: openai/\n", "t.yaml:4:12: model 'openai/' names no model after its provider");
	assert_error(JA "    model: openai/x\n    base_url: localhost:8000\n",
	             "t.yaml:5:15: 'base_url' must be an http:// or https:// address, got 'localhost:8000'");

	/* Azure needs its endpoint and version; the others take neither. */
	assert_error(JA "    model: azure/dep\n    api_version: '2024-10-21'\n",
	             "t.yaml:2:5: judge 'a' (azure/) needs 'endpoint' (e.g. https://NAME.openai.azure.com)");
	assert_error(JA "    model: azure/dep\n    endpoint: https://x.openai.azure.com\n",
	             "t.yaml:2:5: judge 'a' (azure/) needs 'api_version' (e.g. \"2024-10-21\")");
	assert_error(JA "    model: azure/dep\n    endpoint: x.openai.azure.com\n    api_version: v\n",
	             "t.yaml:5:15: 'endpoint' must be an http:// or https:// address, got 'x.openai.azure.com'");
	assert_error(JA "    model: openai/x\n    endpoint: https://x.openai.azure.com\n",
	             "t.yaml:5:15: 'endpoint' is only for azure/ models");
	assert_error(JA "    model: openai/x\n    api_version: '1'\n",
	             "t.yaml:5:18: 'api_version' is only for azure/ models");

	/* Keys belong in the environment. */
	assert_error(JA "    model: openai/x\n    api_key: sk-123\n",
	             "t.yaml:5:5: a key does not belong in the configuration: put it in an environment "
	             "variable and name that with api_key_env");
	assert_error(JA "    key: sk-123\n    model: openai/x\n",
	             "t.yaml:4:5: a key does not belong in the configuration: put it in an environment "
	             "variable and name that with api_key_env");
	assert_error(JA "    model: openai/x\n    api_key_env: MY-KEY\n",
	             "t.yaml:5:18: 'api_key_env' names an environment variable (letters, digits and _), "
	             "got 'MY-KEY'");
	assert_error(JA "    model: openai/x\n    temperature: 0\n",
	             "t.yaml:5:5: unknown key 'temperature' for a judge (known: id, rubric, model, base_url, "
	             "endpoint, api_version, api_key_env, tools, threshold, scale, prompt_file, timeout, "
	             "max_retries, examples, criterion, swap)");
	assert_error(JA "    model: openai/x\n    model: openai/y\n",
	             "t.yaml:5:5: duplicate key 'model' (first at line 4)");

	/* Ids: unique among judges, and against scorers whichever comes first. */
	assert_error("judges:\n  - {id: a, rubric: tool-appropriateness, model: openai/x}\n"
	             "  - {id: a, rubric: tool-appropriateness, model: openai/y}\n",
	             "t.yaml:3:10: duplicate judge id 'a' (first at line 2)");
	assert_error("scorers:\n  - {id: a, type: word-inclusion}\n"
	             "judges:\n  - {id: a, rubric: tool-appropriateness, model: openai/x}\n",
	             "t.yaml:4:10: duplicate id 'a': scorer at line 2 has it (scorers and judges share "
	             "one set of ids)");
	assert_error("judges:\n  - {id: a, rubric: tool-appropriateness, model: openai/x}\n"
	             "scorers:\n  - {id: a, type: word-inclusion}\n",
	             "t.yaml:4:10: duplicate id 'a': judge at line 2 has it (scorers and judges share "
	             "one set of ids)");

	/* tools */
	assert_error(JA "    model: openai/x\n    tools: all\n",
	             "t.yaml:5:12: 'tools' must be from-run or a list of {name, description}, got 'all'");
	assert_error(JA "    model: openai/x\n    tools: {weather: x}\n",
	             "t.yaml:5:12: 'tools' must be from-run or a list of {name, description}, got a mapping");
	assert_error(JA "    model: openai/x\n    tools: []\n",
	             "t.yaml:5:12: 'tools' lists no tool (tools: from-run takes the run's definitions)");
	assert_error(JA "    model: openai/x\n    tools: [weather]\n",
	             "t.yaml:5:13: each tool must be a mapping {name, description}, got a string");
	assert_error(JA "    model: openai/x\n    tools: [{description: d}]\n",
	             "t.yaml:5:13: a tool needs 'name'");
	assert_error(JA "    model: openai/x\n    tools:\n      - name: w\n",
	             "t.yaml:6:9: tool 'w' needs 'description'");
	assert_error(JA "    model: openai/x\n    tools: [{name: w, description: d, kind: f}]\n",
	             "t.yaml:5:39: unknown key 'kind' (expected one of: name, description, parameters)");
	assert_error(JA "    model: openai/x\n    tools: [{name: w, description: d}, {name: w, description: e}]\n",
	             "t.yaml:5:47: tool 'w' is listed twice");
	assert_error(JA "    model: openai/x\n    tools: [{name: w, description: d, parameters: [1]}]\n",
	             "t.yaml:5:51: a tool's 'parameters' must be a JSON Schema mapping");

	/* threshold and scale */
	assert_error(JA "    model: openai/x\n    threshold: 2\n",
	             "t.yaml:5:16: threshold 2 is off the scale of 'a' (0..1)");
	assert_error(JA "    model: openai/x\n    threshold: high\n",
	             "t.yaml:5:16: wrong type for 'threshold': expected a number, got a string");
	assert_error("judges:\n  - id: a\n    rubric: tool-call-accuracy-1to5\n    model: openai/x\n"
	             "    threshold: 6\n",
	             "t.yaml:5:16: threshold 6 is off the scale of 'a' (1..5)");
	assert_error("judges:\n  - id: a\n    rubric: tool-call-accuracy-1to5\n    model: openai/x\n"
	             "    threshold: 0\n",
	             "t.yaml:5:16: threshold 0 is off the scale of 'a' (1..5)");
	assert_error("judges:\n  - id: a\n    rubric: tool-call-accuracy-1to5\n    model: openai/x\n"
	             "    threshold: 2.5\n",
	             "t.yaml:5:16: threshold 2.5 is not one of the levels 1..5");
	assert_error(JA "    model: openai/x\n    scale: {min: 0, max: 1}\n",
	             "t.yaml:5:12: 'scale' is only for custom judges ('tool-appropriateness' scores 0..1)");

#define JC "judges:\n  - id: h\n    rubric: custom\n    model: openai/x\n"
	assert_error(JC "    scale: {min: 1, max: 5, pass: 4}\n",
	             "t.yaml:2:5: custom judge 'h' needs 'prompt_file'");
	assert_error(JC "    prompt_file: h.txt\n", "t.yaml:2:5: custom judge 'h' needs 'scale' ({min, max, pass})");
	assert_error(JC "    prompt_file: h.txt\n    scale: 5\n", "t.yaml:6:12: 'scale' must be a mapping, got a value");
	assert_error(JC "    prompt_file: h.txt\n    scale: {max: 5, pass: 4}\n", "t.yaml:6:12: 'scale' needs 'min'");
	assert_error(JC "    prompt_file: h.txt\n    scale: {min: 1, pass: 4}\n", "t.yaml:6:12: 'scale' needs 'max'");
	assert_error(JC "    prompt_file: h.txt\n    scale: {min: 5, max: 1, pass: 4}\n",
	             "t.yaml:6:26: 'max' (1) must be above 'min' (5)");
	assert_error(JC "    prompt_file: h.txt\n    scale: {min: 1, max: 5, pass: 6}\n",
	             "t.yaml:6:35: pass 6 is off the scale of 'h' (1..5)");
	assert_error(JC "    prompt_file: h.txt\n    scale: {min: 1, max: 5, best: 6}\n",
	             "t.yaml:6:29: unknown key 'best' (expected one of: min, max, pass)");
	assert_error(JC "    prompt_file: h.txt\n    scale: {min: 1, max: 5}\n",
	             "t.yaml:6:12: 'scale' needs 'pass' (the lowest passing score)");
	assert_error(JC "    prompt_file: h.txt\n    scale: {min: 1, max: 5, pass: 3}\n    threshold: 3\n",
	             "t.yaml:7:16: give the pass mark once: scale's 'pass' or 'threshold'");
	assert_error(JC "    prompt_file: h.txt\n    scale: {min: 1, max: 5}\n    threshold: 9\n",
	             "t.yaml:7:16: threshold 9 is off the scale of 'h' (1..5)");
	assert_error(JC "    prompt_file: h.txt\n    scale: {min: a, max: 5, pass: 3}\n",
	             "t.yaml:6:18: wrong type for 'min': expected a number, got a string");

	/* timeout and retries */
	assert_error(JA "    model: openai/x\n    timeout: 0\n",
	             "t.yaml:5:14: 'timeout' must be a number of seconds above 0 (at most 3600)");
	assert_error(JA "    model: openai/x\n    max_retries: 1.5\n",
	             "t.yaml:5:18: 'max_retries' must be a whole number from 0 to 20");
}

static void assert_error_in_tmp(const char *text, const char *want)
{
	struct config c;
	if (load_in_tmp(&c, text) != -1)
		fail_msg("expected an error for:\n%s", text);
	assert_string_equal(errbuf.msg, want);
	assert_null(c.judges);
	assert_int_equal(c.njudges, 0);
	config_free(&c);
}

static void test_judge_prompt_errors(void **state)
{
	(void)state;
	char want[1024];
	judges_datadir();

	/* A prompt file that is not there, pointed at in the YAML. */
	snprintf(want, sizeof want, "t.yaml:5:18: cannot read the prompt: %s/nope.txt: No such file "
	         "or directory", tmpdir);
	assert_error_in_tmp(JC "    prompt_file: nope.txt\n    scale: {min: 1, max: 5, pass: 4}\n", want);

	/* Problems inside a prompt file point into it. */
	tmp_write("bad.txt", "=== system\nBe fair.\n=== user\nRate: {{inptu}}\n");
	snprintf(want, sizeof want, "%s/bad.txt:4:7: unknown placeholder '{{inptu}}' (known: input, "
	         "output, conversation, tool_calls, tools_called, tools, tool_definitions, expected, "
	         "run_id, examples, min, max, pass)", tmpdir);
	assert_error_in_tmp(JC "    prompt_file: bad.txt\n    scale: {min: 1, max: 5, pass: 4}\n", want);

	tmp_write("bad.txt", "Some words\n=== user\nRate {{output}}\n");
	snprintf(want, sizeof want, "%s/bad.txt:1:1: text before the first section header (start a "
	         "section with a line '=== NAME'; notes before it begin with '#')", tmpdir);
	assert_error_in_tmp(JC "    prompt_file: bad.txt\n    scale: {min: 1, max: 5, pass: 4}\n", want);

	tmp_write("bad.txt", "=== user\nRate {{output}}\n=== analyse\nx\n");
	snprintf(want, sizeof want, "%s/bad.txt:3:5: unknown section 'analyse' for rubric 'custom' "
	         "(expected: system, user)", tmpdir);
	assert_error_in_tmp(JC "    prompt_file: bad.txt\n    scale: {min: 1, max: 5, pass: 4}\n", want);

	/* A section the rubric needs is missing: said at prompt_file. */
	tmp_write("bad.txt", "=== system\nx\n=== analyse\nRate {{input}}\n");
	snprintf(want, sizeof want, "t.yaml:5:18: %s/bad.txt: no '=== reason' section (rubric "
	         "'tool-appropriateness' needs it)", tmpdir);
	assert_error_in_tmp(JA "    model: openai/x\n    prompt_file: bad.txt\n", want);
	tmp_unlink("bad.txt");

	/* Without the data folder the built-in prompt cannot be found. */
	test_load.datadir = "no-such-folder";
	assert_error(JA "    model: openai/x\n",
	             "t.yaml:3:13: cannot read the built-in prompt of 'tool-appropriateness': "
	             "no-such-folder/prompts/tool-appropriateness.txt: No such file or directory (is the "
	             "data folder there? TCREVIEW_DATADIR names it)");
	judges_datadir();
}
#undef JA
#undef JC

/* keys: and theme: are read by readers their owners hand down. */
/* ---- a judge's examples ------------------------------------------------ */

#define JX "judges:\n  - id: a\n    rubric: tool-call-accuracy-1to5\n    model: openai/x\n"

static void examples_of(const char *yaml, struct judge_examples_conf *e, char hash[17],
                        char base[17])
{
	struct config c;
	assert_loads(&c, yaml);
	assert_int_equal(c.njudges, 1);
	*e = c.judges[0].examples;
	e->splits = NULL;           /* freed with the configuration */
	memcpy(hash, c.judges[0].hash, 17);
	memcpy(base, c.judges[0].base_hash, 17);
	config_free(&c);
}

/* examples: read with its defaults (the splits export uses, seed 0); in the
 * judge's hash, while base_hash stays the hash of the judge without them. */
static void test_judge_examples(void **state)
{
	(void)state;
	judges_datadir();
	struct judge_examples_conf e;
	char none[17], none_base[17], h[17], b[17], h2[17];
	examples_of(JX, &e, none, none_base);
	assert_int_equal(e.k, 0);
	assert_string_equal(none, none_base);

	examples_of(JX "    examples: {k: 4, pick: disagreements, split: train}\n", &e, h, b);
	assert_int_equal(e.k, 4);
	assert_int_equal(e.pick, PICK_DISAGREEMENTS);
	assert_string_equal(e.split, "train");
	assert_int_equal(e.seed, 0);
	assert_int_equal(e.spec.n, 3);
	assert_string_equal(e.spec.names[2], "test");
	assert_int_equal(e.line, 5);
	assert_int_equal(e.col, 15);
	assert_string_not_equal(h, none);
	assert_string_equal(b, none);

	/* The default splits are SPLIT_DEFAULT: the same judge when written out. */
	examples_of(JX "    examples: {k: 4, pick: disagreements, split: train,"
	            " splits: \"train=0.6,dev=0.2,test=0.2\", seed: 0}\n", &e, h2, b);
	assert_string_equal(h2, h);
	static const char *const other[] = {
		"{k: 3, pick: disagreements, split: train}",
		"{k: 4, pick: recent, split: train}",
		"{k: 4, pick: disagreements, split: dev}",
		"{k: 4, pick: disagreements, split: train, seed: 7}",
		"{k: 4, pick: disagreements, split: train, splits: \"train=0.5,dev=0.25,test=0.25\"}",
	};
	for (size_t i = 0; i < sizeof other / sizeof *other; i++) {
		char yaml[512];
		snprintf(yaml, sizeof yaml, JX "    examples: %s\n", other[i]);
		examples_of(yaml, &e, h2, b);
		assert_string_not_equal(h2, h);
		assert_string_equal(b, none);
	}
	examples_of(JX "    examples:\n      k: 20\n      pick: stratified\n      split: a\n"
	            "      splits: a=3,b=1\n      seed: 12\n", &e, h2, b);
	assert_int_equal(e.k, 20);
	assert_int_equal(e.pick, PICK_STRATIFIED);
	assert_int_equal(e.seed, 12);
	assert_int_equal(e.spec.n, 2);
	assert_true(e.spec.upto[0] == 0.75);
}

static void test_judge_examples_errors(void **state)
{
	(void)state;
	judges_datadir();
	assert_error(JX "    examples: 4\n", "t.yaml:5:15: 'examples' must be a mapping, got a value");
	assert_error(JX "    examples: {pick: recent, split: train}\n",
	             "t.yaml:5:15: 'examples' needs 'k' (how many examples to show, 1..20)");
	assert_error(JX "    examples: {k: 4, split: train}\n",
	             "t.yaml:5:15: 'examples' needs 'pick' (disagreements, stratified or recent)");
	assert_error(JX "    examples: {k: 4, pick: recent}\n",
	             "t.yaml:5:15: 'examples' needs 'split' (the split they come from, e.g. train)");
	assert_error(JX "    examples:\n      k: 0\n      pick: recent\n      split: train\n",
	             "t.yaml:6:10: 'k' must be a whole number from 1 to 20");
	assert_error(JX "    examples:\n      k: 21\n      pick: recent\n      split: train\n",
	             "t.yaml:6:10: 'k' must be a whole number from 1 to 20");
	assert_error(JX "    examples:\n      k: 2.5\n      pick: recent\n      split: train\n",
	             "t.yaml:6:10: 'k' must be a whole number from 1 to 20");
	assert_error(JX "    examples:\n      k: 4\n      pick: best\n      split: train\n",
	             "t.yaml:7:13: unknown pick 'best' (known: disagreements, stratified, recent)");
	assert_error(JX "    examples:\n      k: 4\n      pick: recent\n      split: holdout\n",
	             "t.yaml:8:14: unknown split 'holdout' (the splits are train, dev, test)");
	assert_error(JX "    examples:\n      k: 4\n      pick: recent\n      split: train\n"
	             "      splits: a=1,b=2\n",
	             "t.yaml:8:14: unknown split 'train' (the splits are a, b)");
	assert_error(JX "    examples:\n      k: 4\n      pick: recent\n      split: a\n"
	             "      splits: a=1,b=x\n",
	             "t.yaml:9:15: 'splits': weight of b is not a number");
	assert_error(JX "    examples:\n      k: 4\n      pick: recent\n      split: train\n"
	             "      seed: -1\n",
	             "t.yaml:9:13: 'seed' must be a whole number from 0 to 9007199254740991");
	assert_error(JX "    examples:\n      k: 4\n      pick: recent\n      split: train\n"
	             "      n: 3\n",
	             "t.yaml:9:7: unknown key 'n' in 'examples' (known: k, pick, split, splits, seed)");
	/* A prompt with nowhere to show them. */
#define JC "judges:\n  - id: h\n    rubric: custom\n    model: openai/x\n"
	tmp_write("plain.txt", "=== user\nRate {{output}} from {{min}} to {{max}}.\n");
	char want[512];
	snprintf(want, sizeof want, "t.yaml:6:15: judge 'h' has examples but its prompt (%s/plain.txt) "
	         "has no {{examples}} placeholder to show them in", tmpdir);
	assert_error_in_tmp(JC "    scale: {min: 1, max: 5, pass: 4}\n"
	                    "    examples: {k: 2, pick: recent, split: train}\n"
	                    "    prompt_file: plain.txt\n", want);
	tmp_write("shots.txt", "=== user\n{{examples}}Rate {{output}} from {{min}} to {{max}}.\n");
	struct config c;
	if (load_in_tmp(&c, JC "    scale: {min: 1, max: 5, pass: 4}\n"
	                "    examples: {k: 2, pick: recent, split: train}\n"
	                "    prompt_file: shots.txt\n") != 0)
		fail_msg("unexpected error: %s", errbuf.msg);
	assert_int_equal(c.judges[0].examples.k, 2);
	config_free(&c);
#undef JC
	tmp_unlink("plain.txt");
	tmp_unlink("shots.txt");
}

static void test_section_readers(void **state)
{
	(void)state;
	struct config c;
	/* A load lent no reader for keys: accepts the section unread; the
	 * next load, lent one, reads it: nothing stays between them. */
	const struct config_section_reader *screen = test_load.readers;
	static const struct config_section_reader nope[] = {
		{ "nope", keymap_conf_read }, { NULL, NULL },
	};
	test_load.readers = nope;
	assert_loads(&c, "keys: {no-such-action: x}\n");
	assert_int_equal(c.nkeys, 0);
	config_free(&c);
	test_load.readers = screen;
	assert_error("keys: {no-such-action: x}\n",
	             "t.yaml:1:8: unknown action 'no-such-action' (see tcreview --help keys)");
}

static void test_declared_params(void **state)
{
	(void)state;
	struct config c;
	assert_error("scorers:\n  - id: d\n    type: fake-declared\n    ratio: 0.5\n",
	             "t.yaml:2:5: scorer 'd' needs 'need' (a word)");
	assert_error("scorers:\n  - id: d\n    type: fake-declared\n    need: x\n    ratio: 2\n",
	             "t.yaml:5:12: 'ratio' must be from 0 to 1, got 2");
	assert_loads(&c, "scorers:\n  - id: d\n    type: fake-declared\n    need: {from: w}\n");
	char *unset = NULL;
	json_t *p = scorer_resolve_params(&c.scorers[0], NULL, NULL, NULL, &unset);
	assert_json(p, "{\"mode\":\"fast\"}");
	assert_string_equal(unset, "need: w not found");
	free(unset);
	json_decref(p);
	config_free(&c);
}

/* ---- compare: ------------------------------------------------------------- */

static const char compare_ids[] =
	"scorers:\n"
	"  - id: tca\n"
	"    type: tool-call-accuracy\n"
	"    expectedTool: weather\n"
	"  - id: words\n"
	"    type: word-inclusion\n"
	"judges:\n"
	"  - id: appr\n"
	"    rubric: tool-appropriateness\n"
	"    model: openai/gpt-4o-mini\n";

static void compare_load(const char *tail, const char *want_error)
{
	char text[2048];
	snprintf(text, sizeof text, "%s%s", compare_ids, tail);
	if (want_error) {
		assert_error(text, want_error);
		return;
	}
	struct config c;
	assert_loads(&c, text);
	config_free(&c);
}

static void test_compare(void **state)
{
	(void)state;
	judges_datadir();
	struct config c;
	/* The section may come before the ids it names. */
	char text[2048];
	snprintf(text, sizeof text, "compare: [[tca, appr], [words, appr]]\n%s", compare_ids);
	assert_loads(&c, text);
	assert_true(c.has_compare);
	assert_int_equal(c.ncompare, 2);
	assert_string_equal(c.compare[0].scorer, "tca");
	assert_string_equal(c.compare[0].judge, "appr");
	assert_string_equal(c.compare[1].scorer, "words");
	assert_int_equal(c.compare[1].scorer_line, 1);
	assert_int_equal(c.compare[1].scorer_col, 25);
	assert_true(config_compares(&c, "tca", "appr"));
	assert_true(config_compares(&c, "words", "appr"));
	assert_false(config_compares(&c, "appr", "tca"));
	config_free(&c);
	/* Absent: every pair; empty: none. */
	assert_loads(&c, compare_ids);
	assert_false(c.has_compare);
	assert_true(config_compares(&c, "tca", "appr"));
	config_free(&c);
	snprintf(text, sizeof text, "%scompare: []\n", compare_ids);
	assert_loads(&c, text);
	assert_true(c.has_compare);
	assert_int_equal(c.ncompare, 0);
	assert_false(config_compares(&c, "tca", "appr"));
	config_free(&c);
	compare_load("compare:\n  - [tca, appr]\n", NULL);
	/* The mapping: a task key (what runs are trials of), the pairs beside it. */
	snprintf(text, sizeof text, "%scompare: {task: task_id}\n", compare_ids);
	assert_loads(&c, text);
	assert_string_equal(c.compare_task, "task_id");
	assert_false(c.has_compare);
	assert_true(config_compares(&c, "tca", "appr"));
	config_free(&c);
	snprintf(text, sizeof text,
	         "%scompare:\n  task: [info.domain, task_id]\n  pairs: [[tca, appr]]\n", compare_ids);
	assert_loads(&c, text);
	assert_string_equal(c.compare_task, "info.domain task_id");
	assert_true(c.has_compare);
	assert_int_equal(c.ncompare, 1);
	assert_false(config_compares(&c, "words", "appr"));
	config_free(&c);
}

static void test_compare_errors(void **state)
{
	(void)state;
	judges_datadir();
	compare_load("compare: {tca: appr}\n",
	             "t.yaml:11:11: unknown key 'tca' in 'compare' (known: task, pairs)");
	compare_load("compare: {task: []}\n", "t.yaml:11:17: 'task' must name at least one path");
	compare_load("compare: {pairs: {a: b}}\n",
	             "t.yaml:11:18: 'compare' must be a list of [scorer-id, judge-id] pairs, got a mapping");
	compare_load("compare: {pairs: [[nope, appr]]}\n",
	             "t.yaml:11:20: compare: unknown scorer 'nope'");
	compare_load("compare: [tca]\n",
	             "t.yaml:11:11: each 'compare' item must be a pair [scorer-id, judge-id], got a string");
	compare_load("compare: [[tca]]\n",
	             "t.yaml:11:11: each 'compare' item must be a pair [scorer-id, judge-id], got a list of 1");
	compare_load("compare: [[tca, appr, words]]\n",
	             "t.yaml:11:11: each 'compare' item must be a pair [scorer-id, judge-id], got a list of 3");
	compare_load("compare: [[tca, {a: 1}]]\n",
	             "t.yaml:11:17: wrong type for 'compare': expected a string, got a mapping");
	compare_load("compare: [[nope, appr]]\n", "t.yaml:11:12: compare: unknown scorer 'nope'");
	compare_load("compare: [[tca, nope]]\n", "t.yaml:11:17: compare: unknown judge 'nope'");
	compare_load("compare: [[appr, tca]]\n",
	             "t.yaml:11:12: 'appr' is a judge; a compare pair is [scorer-id, judge-id]");
	compare_load("compare: [[tca, words]]\n",
	             "t.yaml:11:17: 'words' is a code scorer; a compare pair is [scorer-id, judge-id]");
	compare_load("compare: [[tca, appr], [tca, appr]]\n",
	             "t.yaml:11:25: compare: [tca, appr] is given twice");
}

int main(void)
{
	/* As the command line does: the screen's sections are read at load. */
	test_load.readers = screen_readers;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_declared_params),
		cmocka_unit_test(test_section_readers),
		cmocka_unit_test(test_empty_configs),
		cmocka_unit_test(test_unnamed),
		cmocka_unit_test(test_example),
		cmocka_unit_test(test_yaml_typing),
		cmocka_unit_test(test_null_literals_allowed),
		cmocka_unit_test(test_anchors),
		cmocka_unit_test(test_alias_bomb),
		cmocka_unit_test(test_syntax_errors),
		cmocka_unit_test(test_structure_errors),
		cmocka_unit_test(test_runs_id_list),
		cmocka_unit_test(test_duplicate_keys),
		cmocka_unit_test(test_duplicate_id),
		cmocka_unit_test(test_unknown_scorer_type),
		cmocka_unit_test(test_unknown_scorer_key),
		cmocka_unit_test(test_wrong_types),
		cmocka_unit_test(test_references_errors),
		cmocka_unit_test(test_check_failure),
		cmocka_unit_test(test_threshold),
		cmocka_unit_test(test_expectations_errors),
		cmocka_unit_test(test_composite_match),
		cmocka_unit_test(test_resolve_found),
		cmocka_unit_test(test_resolve_missing),
		cmocka_unit_test(test_resolve_literals),
		cmocka_unit_test(test_hash),
		cmocka_unit_test(test_load_file),
		cmocka_unit_test(test_load_file_in_cwd),
		cmocka_unit_test(test_theme_and_keys),
		cmocka_unit_test(test_theme_and_keys_errors),
		cmocka_unit_test(test_judges),
		cmocka_unit_test(test_judge_hash),
		cmocka_unit_test(test_judges_errors),
		cmocka_unit_test(test_judge_prompt_errors),
		cmocka_unit_test(test_judge_examples),
		cmocka_unit_test(test_judge_examples_errors),
		cmocka_unit_test(test_compare),
		cmocka_unit_test(test_compare_errors),
	};
	return cmocka_run_group_tests(tests, make_tmpdir, remove_tmpdir);
}
