/* test_conf.c - positioned YAML nodes and the typed readers (conf/). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "conf/conf.h"
#include "util/error.h"

static struct error err;

static struct conf cf;

static const struct conf_node *parse(const char *text)
{
	err.msg[0] = '\0';
	if (conf_parse(&cf, "t.yaml", "cfg", text, strlen(text), &err))
		fail_msg("unexpected error: %s", err.msg);
	return cf.root;
}

static void assert_parse_error(const char *text, const char *want)
{
	struct conf c;
	assert_int_equal(conf_parse(&c, "t.yaml", NULL, text, strlen(text), &err), -1);
	assert_string_equal(err.msg, want);
	conf_free(&c);
}

static void test_tree_positions(void **state)
{
	(void)state;
	const struct conf_node *r = parse("a: 1\nb:\n  - x\n  - &y [1, 2]\nc: *y\n");
	assert_int_equal(r->kind, CONF_MAP);
	const struct conf_node *b = conf_get(r, "b");
	assert_non_null(b);
	assert_int_equal(b->kind, CONF_SEQ);
	assert_int_equal(b->nkids, 2);
	assert_int_equal(b->kids[0]->line, 3);
	assert_int_equal(b->kids[0]->col, 5);
	assert_ptr_equal(conf_get(r, "c"), b->kids[1]);
	assert_null(conf_get(r, "d"));
	assert_true(conf_key_is(r->kids[0], "a"));
	conf_free(&cf);
}

static void test_tree_errors(void **state)
{
	(void)state;
	assert_parse_error("a: 1\na: 2\n", "t.yaml:2:1: duplicate key 'a' (first at line 1)");
	assert_parse_error("a: *nope\n", "t.yaml:1:4: unknown anchor 'nope'");
	assert_parse_error("a: 1\n---\nb: 2\n", "t.yaml:2:1: only one YAML document is allowed");
	assert_parse_error("a: [1\n", "t.yaml:2:1: did not find expected ',' or ']' "
	                   "(while parsing a flow sequence at line 1)");
}

static void test_scalars(void **state)
{
	(void)state;
	const struct conf_node *r = parse("s: hi\nn: 2.5\ni: 7\nb: true\nz: ~\nq: '3'\n"
	                                  "l: [a, b]\none: a\nm: {k: [1, null]}\n");
	char *s;
	double d;
	long l;
	bool b;
	assert_int_equal(conf_str(&cf, conf_get(r, "s"), "s", &s), 0);
	assert_string_equal(s, "hi");
	free(s);
	assert_int_equal(conf_num(&cf, conf_get(r, "n"), "n", &d), 0);
	assert_true(d == 2.5);
	assert_int_equal(conf_int(&cf, conf_get(r, "i"), "i", 0, 10, &l), 0);
	assert_int_equal(l, 7);
	assert_int_equal(conf_bool(&cf, conf_get(r, "b"), "b", &b), 0);
	assert_true(b);
	assert_true(conf_is_null(conf_get(r, "z")));
	assert_false(conf_is_null(conf_get(r, "q")));

	char **list;
	size_t n;
	assert_int_equal(conf_str_list(&cf, conf_get(r, "l"), "l", &list, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(list[1], "b");
	conf_str_list_free(list, n);
	assert_int_equal(conf_str_list(&cf, conf_get(r, "one"), "one", &list, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(list[0], "a");
	conf_str_list_free(list, n);

	json_t *j;
	assert_int_equal(conf_json(&cf, conf_get(r, "m"), &j), 0);
	char *dump = json_dumps(j, JSON_COMPACT);
	assert_string_equal(dump, "{\"k\":[1,null]}");
	free(dump);
	json_decref(j);
	assert_int_equal(conf_json(&cf, conf_get(r, "q"), &j), 0);
	assert_string_equal(json_string_value(j), "3");
	json_decref(j);
	assert_false(cf.failed);
	conf_free(&cf);
}

static void test_reader_errors(void **state)
{
	(void)state;
	char *s;
	double d;
	long l;
	bool b;
	const struct conf_node *r = parse("s: [x]\nn: abc\ni: 2.5\nb: 1\n");
	assert_int_equal(conf_str(&cf, conf_get(r, "s"), "s", &s), -1);
	assert_string_equal(err.msg, "t.yaml:1:4: wrong type for 's': expected a string, got a list");
	conf_free(&cf);

	r = parse("s: [x]\nn: abc\ni: 2.5\nb: 1\n");
	assert_int_equal(conf_num(&cf, conf_get(r, "n"), "n", &d), -1);
	assert_string_equal(err.msg, "t.yaml:2:4: wrong type for 'n': expected a number, got a string");
	/* Only the first error is kept. */
	assert_int_equal(conf_int(&cf, conf_get(r, "i"), "i", 0, 3, &l), -1);
	assert_string_equal(err.msg, "t.yaml:2:4: wrong type for 'n': expected a number, got a string");
	conf_free(&cf);

	r = parse("s: [x]\nn: abc\ni: 2.5\nb: 1\n");
	assert_int_equal(conf_int(&cf, conf_get(r, "i"), "i", 0, 3, &l), -1);
	assert_string_equal(err.msg, "t.yaml:3:4: 'i' must be a whole number from 0 to 3");
	conf_free(&cf);

	r = parse("s: [x]\nn: abc\ni: 2.5\nb: 1\n");
	assert_int_equal(conf_bool(&cf, conf_get(r, "b"), "b", &b), -1);
	assert_string_equal(err.msg, "t.yaml:4:4: wrong type for 'b': expected a boolean, got a number");
	conf_free(&cf);

	r = parse("p: 'a..b'\nf: x.txt\n");
	assert_int_equal(conf_file(&cf, conf_get(r, "f"), "f", &s), 0);
	assert_string_equal(s, "cfg/x.txt");
	free(s);
	assert_int_equal(conf_path(&cf, conf_get(r, "p"), "p", &s), -1);
	assert_null(s);
	assert_true(strncmp(err.msg, "t.yaml:1:4: invalid path 'a..b' for 'p': ", 41) == 0);
	conf_free(&cf);
}

/* ---- conf_keys --------------------------------------------------------- */

struct thing {
	char *name;
	double weight;
	long count;
	bool on;
	char **tags;
	size_t ntags;
	int later_calls;
	bool saw_absent;
};

static int thing_later(struct conf *c, const struct conf_node *v, void *store)
{
	struct thing *t = store;
	t->later_calls++;
	t->saw_absent = v == NULL;
	/* Read after every key, so the name is known whatever the order. */
	if (v && !t->name)
		return conf_fail(c, v, "later needs the name");
	return 0;
}

static int thing_other(struct conf *c, const struct conf_node *k, void *store)
{
	(void)store;
	if (conf_key_is(k, "secret"))
		return conf_fail(c, k, "no secrets here");
	return conf_key_is(k, "ignored") ? 0 : 1;
}

static const struct conf_key thing_keys[] = {
	{ .name = "name", .kind = CONF_K_STR, .flags = CONF_REQUIRED,
	  .offset = offsetof(struct thing, name), .missing = "a thing needs 'name'" },
	{ .name = "weight", .kind = CONF_K_NUM, .offset = offsetof(struct thing, weight),
	  .lo = 0, .hi = 1 },
	{ .name = "count", .kind = CONF_K_INT, .offset = offsetof(struct thing, count),
	  .lo = 1, .hi = 9 },
	{ .name = "on", .kind = CONF_K_BOOL, .offset = offsetof(struct thing, on) },
	{ .name = "tags", .kind = CONF_K_STR_LIST, .offset = offsetof(struct thing, tags),
	  .offset2 = offsetof(struct thing, ntags) },
	{ .name = "later", .kind = CONF_K_FN, .flags = CONF_LATER | CONF_ALWAYS, .read = thing_later },
	{ NULL, CONF_K_NODE, 0, 0, 0, 0, 0, NULL, NULL, NULL },
};

static const struct conf_table thing_table = {
	.keys = thing_keys,
	.unknown_for = "for a thing",
	.other = thing_other,
};

static int read_thing(const char *text, struct thing *t, const struct conf_node **slots)
{
	memset(t, 0, sizeof *t);
	const struct conf_node *r = parse(text);
	return conf_keys(&cf, r, &thing_table, t, slots);
}

static void thing_free(struct thing *t)
{
	free(t->name);
	conf_str_list_free(t->tags, t->ntags);
	conf_free(&cf);
}

static void test_keys_table(void **state)
{
	(void)state;
	struct thing t;
	const struct conf_node *slots[6];
	assert_int_equal(read_thing("later: 1\nname: x\nweight: 0.5\ncount: 3\non: false\n"
	                            "tags: [a, b]\nignored: 1\n", &t, slots), 0);
	assert_string_equal(t.name, "x");
	assert_true(t.weight == 0.5);
	assert_int_equal(t.count, 3);
	assert_false(t.on);
	assert_int_equal(t.ntags, 2);
	assert_int_equal(t.later_calls, 1);
	assert_false(t.saw_absent);
	assert_non_null(slots[5]);
	assert_int_equal(slots[5]->line, 1);
	thing_free(&t);

	assert_int_equal(read_thing("name: y\n", &t, NULL), 0);
	assert_int_equal(t.later_calls, 1);
	assert_true(t.saw_absent);
	thing_free(&t);
}

static void test_keys_errors(void **state)
{
	(void)state;
	struct thing t;
	assert_int_equal(read_thing("name: x\nnmae: y\n", &t, NULL), -1);
	assert_string_equal(err.msg, "t.yaml:2:1: unknown key 'nmae' for a thing "
	                    "(known: name, weight, count, on, tags, later)");
	thing_free(&t);
	assert_int_equal(read_thing("secret: 1\n", &t, NULL), -1);
	assert_string_equal(err.msg, "t.yaml:1:1: no secrets here");
	thing_free(&t);
	assert_int_equal(read_thing("weight: 0.5\n", &t, NULL), -1);
	assert_string_equal(err.msg, "t.yaml:1:1: a thing needs 'name'");
	thing_free(&t);
	assert_int_equal(read_thing("name: x\nweight: 2\n", &t, NULL), -1);
	assert_string_equal(err.msg, "t.yaml:2:9: 'weight' must be from 0 to 1");
	thing_free(&t);
	assert_int_equal(read_thing("name: x\ncount: 0\n", &t, NULL), -1);
	assert_string_equal(err.msg, "t.yaml:2:8: 'count' must be a whole number from 1 to 9");
	thing_free(&t);
	/* Keys without CONF_LATER are read in document order. */
	assert_int_equal(read_thing("on: 3\nname: [x]\n", &t, NULL), -1);
	assert_string_equal(err.msg, "t.yaml:1:5: wrong type for 'on': expected a boolean, got a number");
	thing_free(&t);

	static const struct conf_table plain = { .keys = thing_keys, .known = "name, weight" };
	memset(&t, 0, sizeof t);
	const struct conf_node *r = parse("zzz: 1\n");
	assert_int_equal(conf_keys(&cf, r, &plain, &t, NULL), -1);
	assert_string_equal(err.msg, "t.yaml:1:1: unknown key 'zzz' (expected one of: name, weight)");
	thing_free(&t);
}

static void test_shapes(void **state)
{
	(void)state;
	const struct conf_node *r = parse("a: [1]\nb: x\n");
	assert_int_equal(conf_map(&cf, conf_get(r, "a"), "a"), -1);
	assert_string_equal(err.msg, "t.yaml:1:4: 'a' must be a mapping, got a list");
	conf_free(&cf);
	r = parse("a: [1]\nb: x\n");
	assert_int_equal(conf_seq(&cf, conf_get(r, "b"), "b", "bees"), -1);
	assert_string_equal(err.msg, "t.yaml:2:4: 'b' must be a list of bees, got a value");
	conf_free(&cf);
	char *j = conf_join("d", "f");
	assert_string_equal(j, "d/f");
	free(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tree_positions),
		cmocka_unit_test(test_tree_errors),
		cmocka_unit_test(test_scalars),
		cmocka_unit_test(test_reader_errors),
		cmocka_unit_test(test_keys_table),
		cmocka_unit_test(test_keys_errors),
		cmocka_unit_test(test_shapes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
