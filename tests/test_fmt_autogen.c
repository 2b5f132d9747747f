/* test_fmt_autogen.c - the AutoGen loader: lists, recordings, task results, states, 0.2 chats. */
#include "fmt_test.h"
#include "fmt_files.h"

#define AG "autogen"

static const char *const core_json =
	"[{'type': 'SystemMessage', 'content': 'be brief'},"
	" {'type': 'UserMessage', 'source': 'user', 'content': ['weather in', 'Oslo?',"
	"   {'data': 'iVBOR', 'format': 'png'}]},"
	" {'type': 'AssistantMessage', 'source': 'bot', 'thought': 'look it up', 'content': ["
	"   {'id': 'c1', 'name': 'weather', 'arguments': '{\\'city\\': \\'Oslo\\'}'},"
	"   {'id': 'c2', 'name': 'clock', 'arguments': '{}'}]},"
	" {'type': 'FunctionExecutionResultMessage', 'content': ["
	"   {'call_id': 'c2', 'name': 'clock', 'content': 'timeout', 'is_error': true},"
	"   {'call_id': 'c1', 'name': 'weather', 'content': 'rain', 'is_error': false}]},"
	" {'type': 'AssistantMessage', 'source': 'bot', 'content': 'Rain in Oslo.'}]";

static void test_detect(void **state)
{
	(void)state;
	assert_int_equal(fmt_score(AG, core_json), 85);
	assert_int_equal(fmt_score(AG, "[{'mode': 'create', 'messages': [], 'response': {}}]"), 85);
	assert_int_equal(fmt_score(AG, "{'type': 'TeamState', 'agent_states': {}}"), 85);
	assert_int_equal(fmt_score(AG, "{'messages': [{'type': 'TextMessage', 'source': 'u', 'content': 'x'}]}"), 85);
	assert_int_equal(fmt_score(AG, "{'bot': [{'role': 'user', 'content': 'x'},"
	                               " {'role': 'assistant', 'content': 'y'}]}"), 30);
	/* one side alone is some list of messages, not a chat between agents */
	assert_int_equal(fmt_score(AG, "{'turns': [{'role': 'assistant', 'content': '',"
	                               " 'tool_calls': []}]}"), 0);
	/* what other formats write */
	assert_int_equal(fmt_score(AG, "{'messages': [{'role': 'user', 'content': 'x'}]}"), 0);
	assert_int_equal(fmt_score(AG, "[{'type': 'TextMessage', 'content': 'x'}]"), 0);
	assert_int_equal(fmt_score(AG, "[{'type': 'message', 'role': 'user', 'content': 'x'}]"), 0);
	assert_int_equal(fmt_score(AG, "{'type': 'TeamState'}"), 0);
	assert_int_equal(fmt_score(AG, "{'bot': [{'role': 'user', 'content': 'x'},"
	                               " {'role': 'assistant', 'content': 'y'}], 'n': 1}"), 0);
	assert_int_equal(fmt_score(AG, "{'messages': [{'role': 'user', 'content': 'x'}], 'x': []}"), 0);
}

static void test_core(void **state)
{
	(void)state;
	struct run *r = fmt_load(core_json, AG);
	assert_int_equal(r->msgs[0].role, ROLE_SYSTEM);
	assert_string_equal(r->msgs[1].text, "weather in\nOslo?");
	assert_string_equal(fmt_parts(r, 1), "text text note");
	assert_string_equal(fmt_parts(r, 2), "thinking call call");
	assert_int_equal(r->ncalls, 2);
	assert_string_equal(r->calls[0].name, "weather");
	assert_int_equal(r->calls[0].state, CALL_COMPLETED);
	assert_string_equal(json_string_value(run_call_result(r, &r->calls[0])), "rain");
	assert_int_equal(r->calls[1].state, CALL_FAILED);
	assert_string_equal(r->calls[1].error_text, "timeout");
	/* the result message is its tool messages, nothing more */
	assert_int_equal(r->nmsgs, 6);
	assert_int_equal(r->msgs[3].role, ROLE_TOOL);
	assert_string_equal(run_final_agent_text(r), "Rain in Oslo.");
	run_free(r);
}

/* AgentChat: events carry the calls; the summary and the handoff repeat them in words. */
static void test_task_result(void **state)
{
	(void)state;
	struct run *r = fmt_load(
		"{'messages': [{'type': 'TextMessage', 'source': 'user', 'content': 'plan a trip'},"
		" {'type': 'ThoughtEvent', 'source': 'planner', 'content': 'hand it on'},"
		" {'type': 'ToolCallRequestEvent', 'source': 'planner', 'content': [{'id': 'h1',"
		"   'name': 'transfer_to_booker', 'arguments': '{}'}]},"
		" {'type': 'ToolCallExecutionEvent', 'source': 'planner', 'content': [{'call_id': 'h1',"
		"   'content': 'Transferred to booker', 'is_error': false}]},"
		" {'type': 'HandoffMessage', 'source': 'planner', 'target': 'booker', 'content': 'over to you'},"
		" {'type': 'ModelClientStreamingChunkEvent', 'source': 'booker', 'content': 'Boo'},"
		" {'type': 'ToolCallSummaryMessage', 'source': 'booker', 'content': 'booked',"
		"   'tool_calls': [{'id': 'h1', 'name': 'transfer_to_booker', 'arguments': '{}'}]},"
		" {'type': 'StructuredMessage', 'source': 'booker', 'content': {'ok': true}},"
		" {'type': 'MemoryQueryEvent', 'source': 'booker', 'content': []},"
		" {'type': 'FancyNewEvent', 'source': 'booker', 'content': 'x'}],"
		" 'stop_reason': 'Text mention TERMINATE'}", AG);
	assert_int_equal(r->ncalls, 1);
	assert_string_equal(r->calls[0].name, "transfer_to_booker");
	assert_int_equal(r->calls[0].state, CALL_COMPLETED);
	assert_int_equal(r->msgs[0].role, ROLE_USER);
	assert_string_equal(fmt_parts(r, 1), "thinking");
	assert_string_equal(run_final_agent_text(r), "booked");
	/* the structured content, the memory query, the unknown type and the stop reason */
	assert_int_equal(r->nnotes, 4);
	assert_int_equal(r->msgs[r->nmsgs - 1].role, ROLE_NOTE);
	run_free(r);

	/* a summary whose calls no event showed brings them and their results */
	r = fmt_load("{'messages': [{'type': 'ToolCallSummaryMessage', 'source': 'a', 'content': 'sunny',"
	             " 'tool_calls': [{'id': 'w1', 'name': 'weather', 'arguments': '{}'}],"
	             " 'results': [{'call_id': 'w1', 'content': 'sunny', 'is_error': false}]}]}", AG);
	assert_int_equal(r->ncalls, 1);
	assert_int_equal(r->calls[0].state, CALL_COMPLETED);
	assert_int_equal(r->nmsgs, 2);
	run_free(r);
}

/* A team's manager thread is the conversation; with none, each agent's context. */
static void test_states(void **state)
{
	(void)state;
	struct run *r = fmt_load(
		"{'type': 'TeamState', 'version': '1.0.0', 'agent_states': {"
		" 'writer/abc': {'type': 'ChatAgentContainerState', 'agent_state': {"
		"   'type': 'AssistantAgentState', 'llm_context': {'messages': ["
		"     {'type': 'UserMessage', 'source': 'user', 'content': 'a haiku'}]}},"
		"   'message_buffer': []},"
		" 'RoundRobinGroupChatManager/abc': {'type': 'RoundRobinManagerState',"
		"   'message_thread': [{'type': 'TextMessage', 'source': 'user', 'content': 'a haiku'},"
		"     {'type': 'TextMessage', 'source': 'writer', 'content': 'old pond'}],"
		"   'current_turn': 1}}}", AG);
	assert_int_equal(r->nmsgs, 2);
	assert_string_equal(run_final_agent_text(r), "old pond");
	run_free(r);

	r = fmt_load("{'type': 'AssistantAgentState', 'llm_context': {'messages': ["
	             " {'type': 'UserMessage', 'source': 'user', 'content': 'time?'},"
	             " {'type': 'AssistantMessage', 'source': 'a', 'content': [{'id': 't', 'name': 'now',"
	             "   'arguments': '{}'}]}]}}", AG);
	assert_int_equal(r->ncalls, 1);
	run_free(r);

	r = fmt_load("{'type': 'TeamState', 'agent_states': {'a': {'type': 'AssistantAgentState',"
	             " 'llm_context': {'messages': []}}}}", AG);
	assert_int_equal(r->nmsgs, 1);
	assert_int_equal(r->msgs[0].role, ROLE_NOTE);
	run_free(r);

	/* states nested past any real one: said, not followed */
	char deep[2048] = "";
	for (int i = 0; i < 12; i++)
		strcat(deep, "{'type': 'WrapState', 'agent_state': ");
	strcat(deep, "{'type': 'AState', 'llm_context': {'messages': []}}");
	for (int i = 0; i < 12; i++)
		strcat(deep, "}");
	r = fmt_load(deep, AG);
	assert_int_equal(r->nmsgs, 1);
	assert_non_null(strstr(r->parts[r->msgs[0].first_part].text, "nested deeper"));
	run_free(r);
}

/* Two model calls of one conversation and a new prompt: history is read once. */
static void test_recording(void **state)
{
	(void)state;
	struct run *r = fmt_load(
		"[{'mode': 'create', 'stream': [], 'messages': ["
		"   {'type': 'SystemMessage', 'content': 'sys'},"
		"   {'type': 'UserMessage', 'source': 'User', 'content': ['q1']}],"
		"  'response': {'finish_reason': 'function_calls', 'content': [{'id': 'k1', 'name': 'f',"
		"   'arguments': '{}'}], 'thought': null}},"
		" {'mode': 'create', 'stream': [], 'messages': ["
		"   {'type': 'SystemMessage', 'content': 'sys'},"
		"   {'type': 'UserMessage', 'source': 'User', 'content': ['q1']},"
		"   {'type': 'AssistantMessage', 'source': 'A', 'content': [{'id': 'k1', 'name': 'f',"
		"    'arguments': '{}'}]},"
		"   {'type': 'FunctionExecutionResultMessage', 'content': [{'call_id': 'k1', 'content': '42'}]}],"
		"  'response': {'finish_reason': 'stop', 'content': 'it is 42'}},"
		" {'mode': 'create', 'stream': [], 'messages': ["
		"   {'type': 'SystemMessage', 'content': 'sys'},"
		"   {'type': 'UserMessage', 'source': 'User', 'content': ['q2']}],"
		"  'response': {'content': 'fine', 'thought': 'hm'}}]", AG);
	assert_int_equal(r->ncalls, 1);
	assert_int_equal(r->calls[0].state, CALL_COMPLETED);
	/* sys, q1, the call, its result, the answer; a note; sys, q2, the answer */
	assert_int_equal(r->nmsgs, 9);
	assert_string_equal(r->msgs[4].text, "it is 42");
	assert_int_equal(r->msgs[5].role, ROLE_NOTE);
	assert_string_equal(fmt_parts(r, 8), "thinking text");
	run_free(r);
}

/* 0.2: code in fenced blocks is text; tool_calls are calls. */
static void test_chats(void **state)
{
	(void)state;
	struct run *r = fmt_load(
		"{'user_proxy': [{'role': 'user', 'content': 'plot it'},"
		" {'role': 'assistant', 'content': '```python\\nprint(1)\\n```'},"
		" {'role': 'user', 'content': 'exitcode: 0 (execution succeeded)'},"
		" {'role': 'assistant', 'content': null, 'tool_calls': [{'id': 't1', 'type': 'function',"
		"   'function': {'name': 'plot', 'arguments': '{}'}}]},"
		" {'role': 'tool', 'tool_call_id': 't1', 'content': 'ok'},"
		" {'role': 'function', 'name': 'plot', 'content': 'ok'},"
		" {'role': 'critic', 'content': 'meh'}]}", AG);
	assert_string_equal(r->id, "user_proxy");
	assert_int_equal(r->ncalls, 1);
	assert_int_equal(r->calls[0].state, CALL_COMPLETED);
	assert_string_equal(r->msgs[1].text, "```python\nprint(1)\n```");
	assert_int_equal(r->msgs[6].role, ROLE_NOTE);
	run_free(r);

	r = fmt_load("{'a': [{'role': 'user', 'content': 'x'}, {'role': 'assistant', 'content': 'z'}],"
	             " 'b': [{'role': 'assistant', 'content': 'y'}, {'role': 'user', 'content': 'w'}]}",
	             AG);
	assert_int_equal(r->nmsgs, 6);
	run_free(r);
}

/* In a file: a 0.2 dump is a run per peer, a recording one run. */
static void test_file_runs(void **state)
{
	(void)state;
	static const struct { const char *text; size_t runs; const char *id; } files[] = {
		{ "{\"alice\": [{\"role\": \"user\", \"content\": \"x\"},"
		  " {\"role\": \"assistant\", \"content\": \"x\"}],"
		  " \"bob\": [{\"role\": \"assistant\", \"content\": \"y\"},"
		  " {\"role\": \"user\", \"content\": null}]}", 2, "alice" },
		{ "[{\"mode\": \"create\", \"messages\": [], \"response\": {\"content\": \"a\"}},"
		  " {\"mode\": \"create\", \"messages\": [], \"response\": {\"content\": \"b\"}}]", 1, NULL },
	};
	for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
		struct dataset ds;
		assert_int_equal(fmt_open(&ds, fmt_write("autogen.json", files[i].text)), files[i].runs);
		struct run *r = fmt_run_at(&ds, 0, AG);
		if (files[i].id)
			assert_string_equal(r->id, files[i].id);
		else
			assert_int_equal(r->nmsgs, 3);     /* a, the new prompt's note, b */
		run_free(r);
		dataset_close(&ds);
	}
}

static void test_malformed(void **state)
{
	(void)state;
	static const struct fmt_error_case cases[] = {
		{ "12", "an autogen record must be a list or an object" },
		{ "{'x': 1}", "an autogen record must be a message list, a model-client recording, "
		              "a task result, a saved state or a 0.2 chat_messages dump" },
		{ "[{'content': 'x'}]", "[0].type: missing" },
		{ "[{'type': 3}]", "[0].type: not a string" },
		{ "[{'type': 'UserMessage', 'content': 5}]", "[0].content: not a string or a list" },
		{ "[{'type': 'AssistantMessage', 'thought': 1, 'content': 'x'}]", "[0].thought: not a string" },
		{ "[{'type': 'AssistantMessage', 'content': [3]}]", "[0].content[0]: not an object" },
		{ "[{'type': 'AssistantMessage', 'content': [{'id': 1}]}]", "[0].content[0].id: not a string" },
		{ "[{'type': 'AssistantMessage', 'content': [{'name': 'f', 'arguments': 2}]}]",
		  "[0].content[0].arguments: not a string or an object" },
		{ "[{'type': 'FunctionExecutionResultMessage', 'content': 'x'}]", "[0].content: not a list" },
		{ "[{'type': 'FunctionExecutionResultMessage', 'content': [{'call_id': 5}]}]",
		  "[0].content[0].call_id: not a string" },
		{ "{'messages': [{'type': 'ToolCallRequestEvent', 'source': 'a', 'content': [{'name': 4}]}]}",
		  "messages[0].content[0].name: not a string" },
		{ "{'messages': 3}", "messages: not an array" },
		{ "[{'mode': 'create', 'messages': [], 'response': 'x'}]", "[0].response: not an object" },
		{ "[{'mode': 'create', 'messages': [], 'response': {}}, 5]", "[1]: not an object" },
		{ "[{'mode': 'create', 'messages': [], 'response': {}}, {'mode': 'create'}]",
		  "[1].messages: missing" },
		{ "[{'mode': 'create', 'messages': [7], 'response': {}}]", "[0].messages[0]: not an object" },
		{ "{'a': [{'role': 'user', 'content': 5}, {'role': 'assistant', 'content': 'x'}]}",
		  "a[0].content: not a string, a list or null" },
		{ "{'a': [{'role': 'user', 'content': 'x'},"
		  " {'role': 'assistant', 'content': 'x', 'tool_calls': 3}]}",
		  "a[1].tool_calls: not an array" },
		{ "{'messages': [{'type': 'ToolCallSummaryMessage', 'source': 'a', 'content': 'x',"
		  " 'results': [{'call_id': 'z'}, 4]}]}", "messages[0].results[1]: not an object" },
		{ "{'type': 'TeamState', 'agent_states': {'m': {'message_thread': [{'type': 5}]}}}",
		  "agent_states.m.message_thread[0].type: not a string" },
		{ NULL, NULL },
	};
	fmt_expect_errors(AG, cases);
}

static void test_wild_samples(void **state)
{
	(void)state;
	struct dataset ds;
	struct run *r = fmt_wild_run(&ds, "autogen/task_centric_memory-teachability-session.json", AG,
	                             1, 0);
	if (!r) {
		skip();
		return;
	}
	/* 16 model calls, two of which continue the one before them */
	size_t notes = 0, answers = 0;
	for (size_t i = 0; i < r->nmsgs; i++) {
		notes += r->msgs[i].role == ROLE_NOTE;
		answers += r->msgs[i].role == ROLE_ASSISTANT && jv_get(r->doc, r->msgs[i].raw,
		                                                       "finish_reason") != JV_NONE;
	}
	assert_int_equal(answers, 16);
	assert_int_equal(notes, 13);
	run_free(r);
	dataset_close(&ds);

	r = fmt_wild_run(&ds, "autogen/profiler-chat_history.json", AG, 1, 0);
	assert_string_equal(r->id, "user_proxy");
	assert_int_equal(r->nmsgs, 10);
	run_free(r);
	dataset_close(&ds);
	fmt_check_wild(AG, "autogen");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_detect),
		cmocka_unit_test(test_core),
		cmocka_unit_test(test_task_result),
		cmocka_unit_test(test_states),
		cmocka_unit_test(test_recording),
		cmocka_unit_test(test_chats),
		cmocka_unit_test(test_file_runs),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_wild_samples),
	};
	return cmocka_run_group_tests(tests, fmt_files_setup, fmt_files_teardown);
}
