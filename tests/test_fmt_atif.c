/* test_fmt_atif.c - the ATIF trajectory loader (runs/formats/atif.c) and OpenAgents' dialect of it. */
#include "fmt_test.h"
#include "fmt_wild.h"

#define ATIF "atif"

static void test_detect(void **state)
{
	(void)state;
	assert_int_equal(fmt_score(ATIF, "{'schema_version': 'ATIF-v1.6', 'steps': []}"), 95);
	assert_int_equal(fmt_score(ATIF, "{'schema_version': 'ATIF-v1.6', 'steps': {}}"), 0);
	/* a bare version only with an agent and steps shaped like ATIF's */
	assert_int_equal(fmt_score(ATIF, "{'schema_version': '1.4', 'agent': {},"
	                                 " 'steps': [{'step_id': 1, 'source': 'user'}]}"), 85);
	assert_int_equal(fmt_score(ATIF, "{'schema_version': '1.4', 'steps': [{'step_id': 1, 'source': 'user'}]}"), 0);
	assert_int_equal(fmt_score(ATIF, "{'schema_version': '1.4', 'agent': {}, 'steps': [{'source': 'user'}]}"), 0);
	assert_int_equal(fmt_score(ATIF, "{'schema_version': '1.4', 'agent': {}, 'steps': []}"), 0);
}

/* Harbor's shape: results joined by source_call_id, else by position;
 * copied context read after a note; reasoning; parts; references and
 * metrics kept as notes; a repeated call id counted once. */
static const char *const harbor =
	"{'schema_version': 'ATIF-v1.6', 'session_id': 's-2087',"
	" 'agent': {'name': 'shop', 'model_name': 'openai/gpt-4o', 'extra': {'parent_session_id': 'p-1'}},"
	" 'steps': ["
	"  {'step_id': 1, 'source': 'system', 'message': 'You are a shop assistant.'},"
	"  {'step_id': 2, 'source': 'user', 'message': '注文 2087 と 2088 は？', 'is_copied_context': true},"
	"  {'step_id': 3, 'source': 'agent', 'is_copied_context': true, 'reasoning_content': '調べます',"
	"   'message': [{'type': 'text', 'text': '調べます。'}, {'type': 'image', 'source': {}}],"
	"   'tool_calls': [{'tool_call_id': 'c1', 'function_name': 'lookup_order', 'arguments': {'order': '2087'}},"
	"    {'tool_call_id': 'c2', 'function_name': 'lookup_order', 'arguments': {'order': '2088'}}],"
	"   'observation': {'results': [{'source_call_id': 'c2', 'content': 'not found'},"
	"    {'content': 'shipped'}]}},"
	"  {'step_id': 4, 'source': 'agent', 'message': '',"
	"   'tool_calls': [{'tool_call_id': 'c1', 'function_name': 'lookup_order', 'arguments': {'order': '2087'}}]},"
	"  {'step_id': 5, 'source': 'system', 'message': 'handoff',"
	"   'observation': {'results': [{'subagent_trajectory_ref': [{'session_id': 'sub-1',"
	"     'trajectory_path': 'sub.json'}]}]}},"
	"  {'step_id': 6, 'source': 'agent', 'message': '2087 已发货 📦'}],"
	" 'final_metrics': {'total_prompt_tokens': 70}, 'continued_trajectory_ref': 'next.json'}";

static void test_harbor(void **state)
{
	(void)state;
	struct run *r = fmt_load(harbor, ATIF);
	assert_string_equal(r->id, "s-2087");
	assert_string_equal(r->model, "openai/gpt-4o");
	assert_string_equal(r->parent_id, "p-1");
	assert_int_equal(r->ncalls, 2);
	assert_string_equal(r->calls[0].id, "c1");
	assert_string_equal(json_string_value(run_call_result(r, &r->calls[0])), "shipped");
	assert_string_equal(json_string_value(run_call_result(r, &r->calls[1])), "not found");
	assert_int_equal(r->msgs[1].role, ROLE_NOTE);           /* copied context from here */
	assert_string_equal(fmt_parts(r, 3), "thinking text note call call");
	assert_string_equal(fmt_parts(r, 4), "note");           /* c1 again */
	assert_string_equal(run_first_user_text(r), "注文 2087 と 2088 は？");
	assert_string_equal(run_final_agent_text(r), "2087 已发货 📦");
	/* copied context, image, repeat, subagent, continuation, metrics */
	assert_int_equal(r->nnotes, 6);
	run_free(r);
}

/* A harness that parses commands out of the message text makes no call:
 * its results stay tool messages, and nothing is joined. */
static void test_no_calls_from_text(void **state)
{
	(void)state;
	struct run *r = fmt_load(
		"{'schema_version': 'ATIF-v1.5', 'steps': ["
		" {'step_id': 1, 'source': 'user', 'message': 'make a dir'},"
		" {'step_id': 2, 'source': 'agent', 'message': '{\\'commands\\': [{\\'keystrokes\\': \\'mkdir d\\'}]}',"
		"  'observation': {'results': [{'content': '$ mkdir d'}]}}]}", ATIF);
	assert_int_equal(r->ncalls, 0);
	assert_int_equal(r->nmsgs, 3);
	assert_int_equal(r->msgs[2].role, ROLE_TOOL);
	assert_false(r->msgs[2].unmatched_result);
	run_free(r);
}

/* OpenAgents' dialect: {id, name} calls, results as system steps before
 * the step with their calls, named only in the message text. */
static void test_openagents_dialect(void **state)
{
	(void)state;
	struct run *r = fmt_load(
		"{'schema_version': '1.4', 'session_id': 'tb-1', 'agent': {'name': 'claude-code', 'model': 'claude-sonnet-4'},"
		" 'steps': ["
		"  {'step_id': 1, 'source': 'user', 'message': '注文 2087 は？'},"
		"  {'step_id': 2, 'source': 'system', 'message': 'Tool result for toolu_2',"
		"   'observation': {'type': 'tool_result', 'content': 'EACCES',"
		"    'result': {'success': false, 'error': 'EACCES'}}},"
		"  {'step_id': 3, 'source': 'system', 'message': 'Tool result for toolu_1',"
		"   'observation': {'type': 'tool_result', 'content': 'shipped', 'result': {'success': true}}},"
		"  {'step_id': 4, 'source': 'agent', 'message': '調べます。', 'tool_calls': ["
		"   {'id': 'toolu_1', 'name': 'lookup_order', 'arguments': {'order': '2087'}},"
		"   {'id': 'toolu_2', 'name': 'Write', 'arguments': {'file_path': '/app/x'}}]},"
		"  {'step_id': 5, 'source': 'system', 'message': 'Tool result for toolu_9',"
		"   'observation': {'type': 'tool_result', 'content': 'orphan'}}]}", ATIF);
	assert_string_equal(r->model, "claude-sonnet-4");
	assert_int_equal(r->ncalls, 2);
	assert_string_equal(r->calls[0].name, "lookup_order");
	assert_true(r->calls[0].has_result);
	assert_false(r->calls[0].is_error);
	assert_true(r->calls[1].is_error);
	assert_string_equal(r->calls[1].error_text, "EACCES");
	assert_int_equal(fmt_count_unmatched(r), 1);
	run_free(r);
}

/* An embedded subagent's trajectory is read in place, between notes. */
static void test_embedded_subagent(void **state)
{
	(void)state;
	struct run *r = fmt_load(
		"{'schema_version': 'ATIF-v1.6', 'steps': ["
		" {'step_id': 1, 'source': 'user', 'message': 'go'},"
		" {'step_id': 2, 'source': 'agent', 'message': 'delegating',"
		"  'observation': {'results': [{'subagent_trajectory': {'session_id': 'sub',"
		"   'steps': [{'step_id': 1, 'source': 'agent', 'message': 'sub work',"
		"    'tool_calls': [{'tool_call_id': 's1', 'function_name': 'ls', 'arguments': {}}],"
		"    'observation': {'results': [{'content': 'a b'}]}}]}}]}}]}", ATIF);
	assert_int_equal(r->ncalls, 1);
	assert_true(r->calls[0].has_result);
	assert_int_equal(r->nnotes, 2);
	run_free(r);
}

static void test_errors(void **state)
{
	(void)state;
	static const struct fmt_error_case cases[] = {
		{ "[1]", "an ATIF trajectory must be an object {schema_version, agent, steps}" },
		{ "{'schema_version': 'ATIF-v1.6'}", "steps: missing" },
		{ "{'schema_version': 'ATIF-v1.6', 'steps': {}}", "steps: not a list" },
		{ "{'agent': 3, 'steps': []}", "agent: not an object" },
		{ "{'steps': [3]}", "steps[0]: not an object" },
		{ "{'steps': [{'message': 'x'}]}", "steps[0].source: missing" },
		{ "{'steps': [{'source': 1}]}", "steps[0].source: not a string" },
		{ "{'steps': [{'source': 'user', 'message': 5}]}", "steps[0].message: not a string, a list or null" },
		{ "{'steps': [{'source': 'agent', 'tool_calls': {}}]}", "steps[0].tool_calls: not a list" },
		{ "{'steps': [{'source': 'agent', 'tool_calls': [1]}]}", "steps[0].tool_calls[0]: not an object" },
		{ "{'steps': [{'source': 'agent', 'tool_calls': [{'tool_call_id': [], 'function_name': 'f'}]}]}",
		  "steps[0].tool_calls[0].tool_call_id: not a string" },
		{ "{'steps': [{'source': 'agent', 'tool_calls': [{'id': 'c', 'name': 5}]}]}",
		  "steps[0].tool_calls[0].name: not a string" },
		{ "{'steps': [{'source': 'agent', 'tool_calls': [{'tool_call_id': 'c', 'arguments': 5}]}]}",
		  "steps[0].tool_calls[0].arguments: not an object, a string or null" },
		{ "{'steps': [{'source': 'agent', 'observation': 'x'}]}", "steps[0].observation: not an object" },
		{ "{'steps': [{'source': 'agent', 'observation': {'results': 'x'}}]}",
		  "steps[0].observation.results: not a list" },
		{ "{'steps': [{'source': 'agent', 'observation': {'results': [2]}}]}",
		  "steps[0].observation.results[0]: not an object" },
		{ "{'steps': [{'source': 'agent', 'message': 'x', 'observation': {'results': [{'subagent_trajectory':"
		  " {'steps': [{'source': 9}]}}]}}]}",
		  "steps[0].observation.results[0].steps[0].source: not a string" },
		{ NULL, NULL },
	};
	fmt_expect_errors(ATIF, cases);
}

static void test_wild_samples(void **state)
{
	(void)state;
	struct dataset ds;
	struct run *r = fmt_wild_run(&ds, "atif/harbor_terminus2_sub_answers.json", ATIF, 1, 2);
	if (!r) {
		skip();
		return;
	}
	assert_string_equal(r->calls[0].name, "bash_command");
	assert_true(r->calls[0].has_result && r->calls[1].has_result);
	run_free(r);
	dataset_close(&ds);

	/* the commands are in the message text: no calls */
	r = fmt_wild_run(&ds, "atif/harbor_terminus2_continuation.json", ATIF, 1, 0);
	assert_int_equal(fmt_count_unmatched(r), 0);
	run_free(r);
	dataset_close(&ds);

	r = fmt_wild_run(&ds, "atif/openagents-tbench-regex-log-trajectory.json", ATIF, 1, 5);
	for (size_t i = 0; i < r->ncalls; i++)
		assert_true(r->calls[i].has_result);
	assert_int_equal(fmt_count_unmatched(r), 0);
	run_free(r);
	dataset_close(&ds);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_detect),
		cmocka_unit_test(test_harbor),
		cmocka_unit_test(test_no_calls_from_text),
		cmocka_unit_test(test_openagents_dialect),
		cmocka_unit_test(test_embedded_subagent),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_wild_samples),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
