/* test_fmt_langsmith.c - the LangSmith run-tree loader. */
#include "fmt_test.h"

#define LS "langsmith"

#define LC_MSG(cls, kw) \
	"{'lc': 1, 'type': 'constructor', 'id': ['langchain', 'schema', 'messages', '" cls "']," \
	" 'kwargs': " kw "}"

static void test_detect(void **state)
{
	(void)state;
	assert_int_equal(fmt_score(LS, "{'id': 'r', 'name': 'x', 'run_type': 'chain', 'inputs': {}}"), 80);
	assert_int_equal(fmt_score(LS, "{'run_type': 'chain'}"), 0);
	assert_int_equal(fmt_score(LS, "{'run_type': 3, 'inputs': {}}"), 0);
	assert_int_equal(fmt_score("langchain", "{'id': 'r', 'run_type': 'chain', 'inputs': {}}"), 0);
}

/* An agent: the root chain holds a graph node chain, which holds the llm
 * runs and the tools, listed out of time order. The last llm run saw the
 * whole conversation. */
static const char *const tree =
	"{'id': 'root', 'name': 'LangGraph', 'run_type': 'chain', 'start_time': '2025-03-01T09:00:00.000000',"
	" 'inputs': {'messages': [['user', '注文 2087 と 2088 は？']]}, 'outputs': {}, 'error': null,"
	" 'child_runs': ["
	"  {'id': 'agent2', 'name': 'agent', 'run_type': 'chain', 'start_time': '2025-03-01T09:00:05.000000',"
	"   'child_runs': [{'id': 'llm2', 'name': 'ChatOpenAI', 'run_type': 'llm',"
	"     'start_time': '2025-03-01T09:00:05.100000',"
	"     'extra': {'metadata': {'ls_model_name': 'gpt-4o-mini'}},"
	"     'inputs': {'messages': [["
	"       " LC_MSG("HumanMessage", "{'content': '注文 2087 と 2088 は？', 'type': 'human'}") ","
	"       " LC_MSG("AIMessage", "{'content': '', 'type': 'ai', 'tool_calls': ["
	"           {'name': 'lookup_order', 'args': {'order': '2087'}, 'id': 'call_1', 'type': 'tool_call'},"
	"           {'name': 'lookup_order', 'args': {'order': '2088'}, 'id': 'call_2', 'type': 'tool_call'},"
	"           {'name': 'track_parcel', 'args': {'tracking': 'SF88'}, 'id': 'call_3', 'type': 'tool_call'}]}") ","
	"       " LC_MSG("ToolMessage", "{'content': 'shipped', 'tool_call_id': 'call_1', 'type': 'tool'}") "]]},"
	"     'outputs': {'generations': [[{'text': '2087 已发货 📦', 'type': 'ChatGeneration',"
	"       'message': " LC_MSG("AIMessage", "{'content': [{'type': 'text', 'text': '2087 已发货 📦'}],"
	"         'type': 'ai', 'tool_calls': []}") "}]], 'llm_output': null}}]},"
	"  {'id': 'tools', 'name': 'tools', 'run_type': 'chain', 'start_time': '2025-03-01T09:00:02.000000',"
	"   'child_runs': ["
	"    {'id': 't3', 'name': 'track_parcel', 'run_type': 'tool', 'start_time': '2025-03-01T09:00:02.300000',"
	"     'inputs': {'tracking': 'SF88'}, 'error': null, 'child_runs': []},"
	"    {'id': 't2', 'name': 'lookup_order', 'run_type': 'tool', 'start_time': '2025-03-01T09:00:02.200000',"
	"     'inputs': {'order': '2088'}, 'outputs': null,"
	"     'error': 'ValueError(\\'order not found\\')\\nTraceback...'},"
	"    {'id': 't1', 'name': 'lookup_order', 'run_type': 'tool', 'start_time': '2025-03-01T09:00:02.100000',"
	"     'inputs': {'order': '2087'}, 'outputs': {'output': " LC_MSG("ToolMessage",
	"{'content': 'shipped', 'tool_call_id': 'call_1', 'type': 'tool', 'status': 'success'}") "}},"
	"    {'id': 't4', 'name': 'notify', 'run_type': 'tool', 'start_time': '2025-03-01T09:00:02.400000',"
	"     'inputs': {'input': 'sent'}, 'outputs': {'output': 'ok'}}]},"
	"  {'id': 'agent1', 'name': 'agent', 'run_type': 'chain', 'start_time': '2025-03-01T09:00:01.000000',"
	"   'child_runs': [{'id': 'llm1', 'name': 'ChatOpenAI', 'run_type': 'llm',"
	"     'start_time': '2025-03-01T09:00:01.100000',"
	"     'inputs': {'messages': [[" LC_MSG("HumanMessage", "{'content': 'first llm', 'type': 'human'}") "]]},"
	"     'outputs': {'generations': [[{'text': 'not shown'}]]}}]}]}";

static void test_tree(void **state)
{
	(void)state;
	struct run *r = fmt_load(tree, LS);
	assert_string_equal(r->model, "gpt-4o-mini");
	/* The last llm run's three messages and its answer, then notify. */
	assert_int_equal(r->nmsgs, 5);
	assert_int_equal(r->msgs[0].role, ROLE_USER);
	assert_string_equal(r->msgs[0].text, "注文 2087 と 2088 は？");
	assert_int_equal(r->msgs[2].role, ROLE_TOOL);
	assert_string_equal(r->msgs[3].text, "2087 已发货 📦");
	assert_int_equal(r->ncalls, 4);
	/* call_1: answered in the conversation. */
	assert_int_equal(r->calls[0].state, CALL_COMPLETED);
	assert_int_equal(r->calls[0].result_msg, 2);
	/* call_2: its tool run failed. */
	assert_int_equal(r->calls[1].state, CALL_FAILED);
	assert_memory_equal(r->calls[1].error_text, "ValueError(\"order not found\")", 29);
	/* call_3: its tool run has no outputs yet. */
	assert_string_equal(r->calls[2].name, "track_parcel");
	assert_int_equal(r->calls[2].state, CALL_REQUESTED);
	/* notify: asked by no message, a call of its own. */
	assert_string_equal(r->calls[3].name, "notify");
	assert_int_equal(r->calls[3].msg_index, 4);
	assert_int_equal(r->calls[3].state, CALL_COMPLETED);
	json_t *args = run_call_args(r, &r->calls[3]);
	assert_non_null(args);
	assert_string_equal(json_string_value(json_object_get(args, "input")), "sent");
	json_t *res = run_call_result(r, &r->calls[3]);
	assert_string_equal(json_string_value(res), "ok");
	assert_int_equal(run_agent_calls(r, NULL), 4);
	assert_string_equal(run_final_agent_text(r), "2087 已发货 📦");
	run_free(r);
}

/* Tool runs alone, with no llm run: calls in start_time order, a tool
 * message that failed, and epoch-millisecond times as the JS SDK writes. */
static void test_tools_only(void **state)
{
	(void)state;
	struct run *r = fmt_load(
		"{'id': 'r', 'name': 'chain', 'run_type': 'chain', 'start_time': 1000, 'inputs': {},"
		" 'child_runs': ["
		"  {'name': 'b', 'run_type': 'tool', 'start_time': 1002, 'inputs': {'x': 2},"
		"   'outputs': {'output': {'type': 'tool', 'data': {'content': 'boom', 'tool_call_id': 'c',"
		"     'status': 'error'}}}},"
		"  {'name': 'a', 'run_type': 'tool', 'start_time': 1001, 'inputs': {'x': 1}, 'outputs': {'y': 1}}]}",
		LS);
	assert_int_equal(r->ncalls, 2);
	assert_string_equal(r->calls[0].name, "a");
	assert_int_equal(r->calls[0].state, CALL_COMPLETED);
	assert_string_equal(r->calls[1].name, "b");
	assert_string_equal(r->calls[1].id, "c");
	assert_int_equal(r->calls[1].state, CALL_FAILED);
	assert_string_equal(r->calls[1].error_text, "boom");
	run_free(r);
}

/* A chat model traced from the OpenAI wrapper: role/content messages;
 * generations with only text; outputs.messages in dict form. */
static void test_llm_shapes(void **state)
{
	(void)state;
	struct run *r = fmt_load(
		"{'name': 'ChatOpenAI', 'run_type': 'llm', 'inputs': {'messages': ["
		"   {'role': 'system', 'content': 'Be brief.'}, {'role': 'user', 'content': 'hi'}]},"
		" 'outputs': {'generations': [{'text': 'hello'}],"
		"   'messages': [{'type': 'ai', 'data': {'content': 'again'}}]}}", LS);
	assert_int_equal(r->nmsgs, 4);
	assert_int_equal(r->msgs[0].role, ROLE_SYSTEM);
	assert_int_equal(r->msgs[2].role, ROLE_ASSISTANT);
	assert_string_equal(r->msgs[2].text, "hello");
	assert_string_equal(r->msgs[3].text, "again");
	run_free(r);
}

static void test_errors(void **state)
{
	(void)state;
	static const struct fmt_error_case cases[] = {
		{ "{'run_type': 'chain', 'child_runs': {}}", "child_runs: not an array" },
		{ "{'run_type': 'chain', 'child_runs': [{'name': 'x'}]}", "child_runs[0].run_type: missing" },
		{ "{'run_type': 'chain', 'child_runs': [{'run_type': 'chain', 'child_runs': [3]}]}",
		  "child_runs[0].child_runs[0]: not an object" },
		{ "{'run_type': 'chain', 'child_runs': [{'run_type': 'chain', 'child_runs': [{'run_type': 1}]}]}",
		  "child_runs[0].child_runs[0].run_type: not a string" },
		{ "{'run_type': 'llm', 'inputs': {'messages': [[{'type': 'human', 'data': {'content': 'x'}},"
		  " {'content': 'no type'}]]}}", "inputs.messages[0][1].type: missing" },
		{ "{'run_type': 'chain', 'child_runs': [{'run_type': 'llm', 'outputs': {'generations': [["
		  " {'message': {'type': 'ai', 'data': {'content': '', 'tool_calls': 'x'}}}]]}}]}",
		  "child_runs[0].outputs.generations[0][0].message.data.tool_calls: not an array" },
		{ "[{'run_type': 'chain'}]", "a langsmith record must be a run object {run_type, inputs, ...}" },
		{ NULL, NULL },
	};
	fmt_expect_errors(LS, cases);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_detect),
		cmocka_unit_test(test_tree),
		cmocka_unit_test(test_tools_only),
		cmocka_unit_test(test_llm_shapes),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
