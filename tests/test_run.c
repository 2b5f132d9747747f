/* test_run.c - the run model's builders: arguments, joins, queries. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "runs/run.h"

static struct run *empty_run(void)
{
	json_t *rec = json_object();
	struct run *r = run_new(rec, "f.jsonl", 3, -1);
	json_decref(rec);
	return r;
}

static void test_source_names(void **s)
{
	(void)s;
	struct run *r = empty_run();
	assert_string_equal(r->source, "f.jsonl:3");
	assert_string_equal(r->id, "f.jsonl:3");
	run_free(r);
	json_t *rec = json_object();
	r = run_new(rec, "a.json", 0, 4);
	assert_string_equal(r->source, "a.json[4]");
	run_free(r);
	json_decref(rec);
}

static void test_arguments(void **s)
{
	(void)s;
	struct run *r = empty_run();
	size_t m = run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, "", NULL);
	json_t *ok = json_string("{\"city\":\"東京\"}");
	json_t *bad = json_string("{\"city\": \"Oslo\"");
	json_t *empty = json_string("  ");
	json_t *obj = json_pack("{s:i}", "n", 1);
	struct run_call *c = run_add_call(r, m);
	run_call_set_args(r, c, ok);
	assert_string_equal(json_string_value(json_object_get(c->args, "city")), "東京");
	assert_false(c->args_invalid);
	c = run_add_call(r, m);
	run_call_set_args(r, c, bad);
	assert_null(c->args);
	assert_true(c->args_invalid);
	assert_string_equal(c->args_text, "{\"city\": \"Oslo\"");   /* kept, never dropped */
	c = run_add_call(r, m);
	run_call_set_args(r, c, empty);
	assert_true(json_is_object(c->args));
	c = run_add_call(r, m);
	run_call_set_args(r, c, obj);
	assert_ptr_equal(c->args, obj);
	assert_int_equal(r->msgs[m].ncalls, 4);
	assert_int_equal(r->calls[3].index_in_msg, 3);
	json_decref(ok);
	json_decref(bad);
	json_decref(empty);
	json_decref(obj);
	run_free(r);
}

static size_t add_result(struct run *r, const char *id, json_t *content, bool err)
{
	size_t m = run_add_msg(r, ROLE_TOOL, MSG_IN_OUTPUT, "", NULL);
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
	struct run *r = empty_run();
	json_t *out1 = json_string("one"), *out2 = json_string("two"), *out3 = json_string("orphan");
	size_t m0 = run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, "", NULL);
	run_add_call(r, m0)->id = "c1";
	add_result(r, "c1", out1, false);
	/* tau-bench reuses ids: the second result goes to the second call */
	size_t m2 = run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, "", NULL);
	run_add_call(r, m2)->id = "c1";
	add_result(r, "c1", out2, true);
	size_t m4 = run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, "", NULL);
	run_add_call(r, m4)->id = "never-answered";
	size_t orphan = add_result(r, "nobody", out3, false);
	run_join_results(r);
	assert_ptr_equal(r->calls[0].result, out1);
	assert_int_equal(r->calls[0].state, CALL_COMPLETED);
	assert_ptr_equal(r->calls[1].result, out2);
	assert_int_equal(r->calls[1].state, CALL_FAILED);
	assert_string_equal(r->calls[1].error_text, "boom");
	assert_false(r->calls[2].has_result);
	assert_int_equal(r->calls[2].state, CALL_REQUESTED);
	assert_true(r->msgs[orphan].unmatched_result);
	json_decref(out1);
	json_decref(out2);
	json_decref(out3);
	run_free(r);
}

static void test_text_and_queries(void **s)
{
	(void)s;
	struct run *r = empty_run();
	json_error_t e;
	json_t *parts = json_loads("[{\"type\":\"text\",\"text\":\"a\"},{\"type\":\"image\"},"
	                           "{\"type\":\"output_text\",\"text\":\"b\"}]", 0, &e);
	assert_string_equal(run_text_of(r, parts), "a\nb");
	run_add_msg(r, ROLE_SYSTEM, MSG_IN_INPUT, "sys", NULL);
	size_t t = run_add_msg(r, ROLE_USER, MSG_IN_INPUT, "tool output", NULL);
	r->msgs[t].is_tool_output = true;
	run_add_msg(r, ROLE_USER, MSG_IN_INPUT, "where is 1042?", NULL);
	size_t a = run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, "final", NULL);
	struct run_call *c = run_add_call(r, a);
	c->name = "get_order";
	c = run_add_call(r, a);
	c->name = "partial";
	c->state = CALL_PARTIAL;
	size_t u = run_add_msg(r, ROLE_USER, MSG_IN_OUTPUT, "", NULL);
	c = run_add_call(r, u);
	c->name = "toggle";
	c->requestor = REQ_USER;
	run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, "", NULL);
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
	json_decref(parts);
	run_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_source_names),
		cmocka_unit_test(test_arguments),
		cmocka_unit_test(test_join_results),
		cmocka_unit_test(test_text_and_queries),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
