/* test_run.c - the run model's builders: arguments, joins, queries, and
 * the trees it builds on demand from its tape. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "runs/run.h"

static struct run *run_of(const char *json)
{
	json_error_t e;
	json_t *rec = json_loads(json, JSON_DECODE_ANY, &e);
	if (!rec)
		fail_msg("bad fixture %s: %s", json, e.text);
	struct run *r = run_new(rec, "f.jsonl", 3, -1);
	json_decref(rec);
	return r;
}

static struct run *empty_run(void)
{
	return run_of("{}");
}

static jv field(struct run *r, const char *key)
{
	jv v = jv_get(r->doc, run_root(r), key);
	assert_true(v != JV_NONE);
	return v;
}

static void test_source_names(void **s)
{
	(void)s;
	struct run *r = empty_run();
	assert_string_equal(r->source, "f.jsonl:3");
	assert_string_equal(r->id, "f.jsonl:3");
	assert_true(r->tool_defs == JV_NONE);
	assert_null(run_tool_defs(r));
	run_free(r);
	json_t *rec = json_object();
	r = run_new(rec, "a.json", 0, 4);
	assert_string_equal(r->source, "a.json[4]");
	run_free(r);
	json_decref(rec);
}

/* Every jv field a builder fills starts as JV_NONE: jv 0 is the root. */
static void test_builders_say_none(void **s)
{
	(void)s;
	struct run *r = empty_run();
	size_t m = run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, NULL, JV_NONE);
	assert_string_equal(r->msgs[m].text, "");
	assert_true(r->msgs[m].raw == JV_NONE);
	assert_true(r->msgs[m].result == JV_NONE);
	assert_null(run_msg_result(r, &r->msgs[m]));
	struct run_call *c = run_add_call(r, m);
	assert_true(c->args == JV_NONE);
	assert_true(c->result == JV_NONE);
	assert_true(c->raw_id == JV_NONE);
	assert_true(c->raw_name == JV_NONE);
	assert_string_equal(c->name, "");
	assert_null(run_call_args(r, c));
	assert_false(run_call_args_invalid(r, c));
	assert_null(run_call_args_text(r, c));
	assert_null(run_call_result(r, c));
	run_free(r);
}

static void test_arguments(void **s)
{
	(void)s;
	struct run *r = run_of("{\"ok\": \"{\\\"city\\\":\\\"東京\\\"}\", \"bad\": \"{\\\"city\\\": \\\"Oslo\\\"\","
	                       " \"empty\": \"  \", \"obj\": {\"n\": 1}, \"nul\": null, \"num\": \"5\","
	                       " \"zero\": \"{\\\"a\\\":\\\"x\\\\u0000y\\\"}\"}");
	size_t m = run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, "", JV_NONE);
	struct run_call *c = run_add_call(r, m);
	run_call_set_args(r, c, field(r, "ok"));
	assert_true(c->args == field(r, "ok"));     /* stored as it is, nothing parsed yet */
	assert_false(c->args_parsed);
	assert_null(c->args_tree);
	json_t *args = run_call_args(r, c);
	assert_string_equal(json_string_value(json_object_get(args, "city")), "東京");
	assert_ptr_equal(run_call_args(r, c), args);                 /* built once */
	assert_false(run_call_args_invalid(r, c));
	assert_null(run_call_args_text(r, c));

	c = run_add_call(r, m);
	run_call_set_args(r, c, field(r, "bad"));
	assert_null(run_call_args(r, c));
	assert_true(run_call_args_invalid(r, c));
	assert_true(c->args_bad);
	assert_string_equal(run_call_args_text(r, c), "{\"city\": \"Oslo\"");   /* kept, never dropped */

	c = run_add_call(r, m);
	run_call_set_args(r, c, field(r, "empty"));
	assert_true(json_is_object(run_call_args(r, c)));
	assert_int_equal(json_object_size(run_call_args(r, c)), 0);

	c = run_add_call(r, m);
	run_call_set_args(r, c, field(r, "obj"));
	assert_int_equal(json_integer_value(json_object_get(run_call_args(r, c), "n")), 1);
	assert_false(run_call_args_invalid(r, c));

	/* null is a value (loaders drop it themselves); a string may hold any
	 * JSON value, NULs included */
	c = run_add_call(r, m);
	run_call_set_args(r, c, field(r, "nul"));
	assert_true(json_is_null(run_call_args(r, c)));
	c = run_add_call(r, m);
	run_call_set_args(r, c, field(r, "num"));
	assert_int_equal(json_integer_value(run_call_args(r, c)), 5);
	c = run_add_call(r, m);
	run_call_set_args(r, c, field(r, "zero"));
	assert_int_equal(json_string_length(json_object_get(run_call_args(r, c), "a")), 3);

	/* setting again forgets the tree */
	c = &r->calls[1];
	run_call_set_args(r, c, field(r, "obj"));
	assert_false(run_call_args_invalid(r, c));
	assert_non_null(run_call_args(r, c));

	assert_int_equal(r->msgs[m].ncalls, 7);
	assert_int_equal(r->calls[3].index_in_msg, 3);
	run_free(r);
}

static size_t add_result(struct run *r, const char *id, jv content, bool err)
{
	size_t m = run_add_msg(r, ROLE_TOOL, MSG_IN_OUTPUT, "", JV_NONE);
	r->msgs[m].is_tool_output = true;
	r->msgs[m].answers_call_id = id;
	r->msgs[m].result = content;
	r->msgs[m].result_is_error = err;
	r->msgs[m].result_error_text = err ? "boom" : NULL;
	return m;
}

static void test_join_results(void **s)
{
	(void)s;
	struct run *r = run_of("{\"o1\": \"one\", \"o2\": {\"two\": 2}, \"o3\": \"orphan\"}");
	jv out1 = field(r, "o1"), out2 = field(r, "o2"), out3 = field(r, "o3");
	size_t m0 = run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, "", JV_NONE);
	run_add_call(r, m0)->id = "c1";
	add_result(r, "c1", out1, false);
	/* tau-bench reuses ids: the second result goes to the second call */
	size_t m2 = run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, "", JV_NONE);
	run_add_call(r, m2)->id = "c1";
	size_t res2 = add_result(r, "c1", out2, true);
	size_t m4 = run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, "", JV_NONE);
	run_add_call(r, m4)->id = "never-answered";
	size_t orphan = add_result(r, "nobody", out3, false);
	run_join_results(r);
	assert_true(r->calls[0].result == out1);
	assert_string_equal(json_string_value(run_call_result(r, &r->calls[0])), "one");
	assert_int_equal(r->calls[0].state, CALL_COMPLETED);
	assert_true(r->calls[1].result == out2);
	assert_int_equal(r->calls[1].result_msg, (long)res2);
	json_t *two = run_call_result(r, &r->calls[1]);
	assert_int_equal(json_integer_value(json_object_get(two, "two")), 2);
	assert_ptr_equal(run_call_result(r, &r->calls[1]), two);
	assert_int_equal(json_integer_value(json_object_get(run_msg_result(r, &r->msgs[res2]), "two")),
	                 2);
	assert_int_equal(r->calls[1].state, CALL_FAILED);
	assert_string_equal(r->calls[1].error_text, "boom");
	assert_false(r->calls[2].has_result);
	assert_null(run_call_result(r, &r->calls[2]));
	assert_int_equal(r->calls[2].state, CALL_REQUESTED);
	assert_true(r->msgs[orphan].unmatched_result);
	run_free(r);
}

static void test_text_and_queries(void **s)
{
	(void)s;
	struct run *r = run_of("{\"parts\": [{\"type\":\"text\",\"text\":\"a\"},{\"type\":\"image\"},"
	                       "{\"type\":\"output_text\",\"text\":\"b\"}, \"c\", {\"text\": \"d\"},"
	                       "{\"type\":\"input_text\",\"text\":\"e\"}, {\"type\":\"text\",\"text\":5}],"
	                       " \"one\": [{\"type\":\"image\"}, {\"type\":\"text\",\"text\":\"only\"}],"
	                       " \"s\": \"plain\", \"n\": null, \"num\": 3, \"none\": [{\"type\":\"image\"}]}");
	assert_string_equal(run_text_of(r, field(r, "parts")), "a\nb\nc\nd\ne");
	/* a single part is borrowed from the tape, not copied */
	jv one = field(r, "one");
	assert_ptr_equal(run_text_of(r, one), jv_str(r->doc, jv_get(r->doc, jv_at(r->doc, one, 1), "text")));
	assert_ptr_equal(run_text_of(r, field(r, "s")), jv_str(r->doc, field(r, "s")));
	assert_string_equal(run_text_of(r, field(r, "n")), "");
	assert_string_equal(run_text_of(r, field(r, "num")), "");
	assert_string_equal(run_text_of(r, field(r, "none")), "");
	assert_string_equal(run_text_of(r, JV_NONE), "");
	run_add_msg(r, ROLE_SYSTEM, MSG_IN_INPUT, "sys", JV_NONE);
	size_t t = run_add_msg(r, ROLE_USER, MSG_IN_INPUT, "tool output", JV_NONE);
	r->msgs[t].is_tool_output = true;
	run_add_msg(r, ROLE_USER, MSG_IN_INPUT, "where is 1042?", JV_NONE);
	size_t a = run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, "final", JV_NONE);
	struct run_call *c = run_add_call(r, a);
	c->name = "get_order";
	c = run_add_call(r, a);
	c->name = "partial";
	c->state = CALL_PARTIAL;
	size_t u = run_add_msg(r, ROLE_USER, MSG_IN_OUTPUT, "", JV_NONE);
	c = run_add_call(r, u);
	c->name = "toggle";
	c->requestor = REQ_USER;
	run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, "", JV_NONE);
	assert_string_equal(run_first_user_text(r), "where is 1042?");
	assert_string_equal(run_final_agent_text(r), "final");
	size_t idx[8];
	assert_int_equal(run_agent_calls(r, idx), 1);
	assert_int_equal(idx[0], 0);
	bool ok;
	assert_int_equal(run_role_parse("developer", &ok), ROLE_SYSTEM);
	assert_true(ok);
	run_role_parse("narrator", &ok);
	assert_false(ok);
	run_free(r);
}

/* One rule for which calls count: the agent's; named ones for the
 * scorers; Mastra's own rule, by the record's names and states, on a run
 * in Mastra's shapes. */
static void test_counted_calls(void **s)
{
	(void)s;
	struct run *r = run_of("{\"name\": \"lookup\", \"no\": \"\"}");
	run_add_msg(r, ROLE_USER, MSG_IN_INPUT, "hi", JV_NONE);
	size_t in = run_add_msg(r, ROLE_ASSISTANT, MSG_IN_INPUT, "", JV_NONE);
	struct run_call *c = run_add_call(r, in);           /* 0: context */
	c->name = "before";
	size_t a = run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, "", JV_NONE);
	c = run_add_call(r, a);                             /* 1: counted */
	c->name = "lookup";
	c->raw_name = field(r, "name");
	c->raw_state = "result";
	c = run_add_call(r, a);                             /* 2: no name */
	c->name = "";
	c->raw_name = field(r, "no");
	c->raw_state = "call";
	c = run_add_call(r, a);                             /* 3: named, state not counted by Mastra */
	c->name = "lookup";
	c->raw_name = field(r, "name");
	c->raw_state = "partial-call";
	size_t idx[8];
	assert_int_equal(run_counted_calls(r, RUN_CALLS_AGENT, idx), 3);
	assert_int_equal(idx[0], 1);
	assert_int_equal(idx[2], 3);
	assert_int_equal(run_counted_calls(r, RUN_CALLS_SCORED, idx), 2);
	assert_int_equal(idx[1], 3);
	assert_int_equal(run_call_number(r, 3, RUN_CALLS_SCORED), 2);
	assert_int_equal(run_call_number(r, 3, RUN_CALLS_AGENT), 3);
	assert_int_equal(run_call_number(r, 2, RUN_CALLS_SCORED), 0);
	assert_int_equal(run_call_number(r, 9, RUN_CALLS_AGENT), 0);
	/* Mastra's shape: the flag hands the choice to Mastra's rule. */
	r->mastra = MASTRA_1X;
	assert_int_equal(run_counted_calls(r, RUN_CALLS_SCORED, idx), 1);
	assert_int_equal(idx[0], 1);
	assert_int_equal(run_counted_calls(r, RUN_CALLS_AGENT, NULL), 3);
	assert_true(run_call_counted(r, 2, RUN_CALLS_MASTRA) == false);
	r->calls[3].raw_state = "output-error";
	assert_int_equal(run_counted_calls(r, RUN_CALLS_SCORED, NULL), 2);
	r->mastra = MASTRA_0X;
	assert_int_equal(run_counted_calls(r, RUN_CALLS_SCORED, NULL), 1);
	run_free(r);
}

/* The record, a path into it and the tool definitions as trees, built
 * when asked and counted by run_bytes. */
static void test_trees_on_demand(void **s)
{
	(void)s;
	struct run *r = run_of("{\"id\": \"x\", \"meta\": {\"task\": [10, 20.5]},"
	                       " \"tools\": [{\"name\": \"t\"}]}");
	size_t before = run_bytes(r);
	assert_true(before >= jdoc_bytes(r->doc));
	assert_null(r->record_tree);
	json_t *rec = run_record(r);
	assert_non_null(rec);
	assert_ptr_equal(run_record(r), rec);
	assert_string_equal(json_string_value(json_object_get(rec, "id")), "x");
	assert_true(run_bytes(r) > before);
	json_t *v = run_path(r, "meta.task[1]");
	assert_true(json_is_real(v));
	assert_true(json_real_value(v) == 20.5);
	json_decref(v);                         /* a new reference */
	v = run_path(r, "meta.task[0]");
	assert_int_equal(json_integer_value(v), 10);
	json_decref(v);
	assert_null(run_path(r, "meta.nothing"));
	r->tool_defs = field(r, "tools");
	json_t *tools = run_tool_defs(r);
	assert_string_equal(json_string_value(json_object_get(json_array_get(tools, 0), "name")), "t");
	assert_ptr_equal(run_tool_defs(r), tools);
	run_free(r);
}

/* A run's bytes are its tape, arena and lists: a big message costs about
 * its size, not a tree's (the screen's cache counts this). A record built
 * in memory keeps its text in its tape too; one read from a file borrows
 * it (test_dataset holds that one to under 3x the record). */
static void test_bytes_are_honest(void **s)
{
	(void)s;
	size_t big = 4u << 20;
	char *text = malloc(big + 64);
	assert_non_null(text);
	memcpy(text, "{\"m\":\"", 6);
	memset(text + 6, 'x', big);
	strcpy(text + 6 + big, "\"}");
	json_error_t e;
	json_t *rec = json_loads(text, 0, &e);
	assert_non_null(rec);
	free(text);
	struct run *r = run_new(rec, "big.jsonl", 1, -1);
	json_decref(rec);
	size_t n = run_bytes(r);
	assert_true(n >= 2 * big);                  /* its text and its decoded string */
	json_t *tree = run_record(r);
	assert_int_equal(json_string_length(json_object_get(tree, "m")), big);
	assert_true(run_bytes(r) >= n + big);       /* the tree's string is counted */
	run_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_source_names),
		cmocka_unit_test(test_builders_say_none),
		cmocka_unit_test(test_arguments),
		cmocka_unit_test(test_join_results),
		cmocka_unit_test(test_text_and_queries),
		cmocka_unit_test(test_counted_calls),
		cmocka_unit_test(test_trees_on_demand),
		cmocka_unit_test(test_bytes_are_honest),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
