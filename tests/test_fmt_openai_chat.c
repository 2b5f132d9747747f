/* test_fmt_openai_chat.c - the OpenAI Chat Completions loader. */
#include "fmt_test.h"
#include "util/error.h"

#define CHAT "openai-chat"

static void test_detect_confidence(void **state)
{
	/* OpenAI-only keys: tool_calls with function, tool_call_id. */
	assert_int_equal(fmt_score(CHAT, fmt_samples[4].json), 40);
	/* Plain role/content lists are anyone's; chat is the fallback. */
	assert_int_equal(fmt_score(CHAT, "{'messages': [{'role': 'user', 'content': 'hi'}]}"), 20);
	assert_int_equal(fmt_score(CHAT, "[{'role': 'user', 'content': 'hi'},"
	                                 " {'role': 'tool', 'tool_call_id': 'c1', 'content': 'ok'}]"), 40);
	assert_int_equal(fmt_score(CHAT, "[{'role': 'assistant', 'content': null,"
	                                 "  'function_call': {'name': 'f', 'arguments': '{}'}}]"), 40);
	/* Not messages at all. */
	assert_int_equal(fmt_score(CHAT, "[1, 2, 3]"), 0);
	assert_int_equal(fmt_score(CHAT, "{'messages': []}"), 0);
	assert_int_equal(fmt_score(CHAT, "{'messages': 'hi'}"), 0);
	assert_int_equal(fmt_score(CHAT, "'just a string'"), 0);
	/* Anthropic blocks inside a messages list. */
	assert_int_equal(fmt_score(CHAT, "{'messages': [{'role': 'assistant', 'content': ["
	                                 " {'type': 'tool_use', 'id': 't', 'name': 'f', 'input': {}}]}]}"), 0);
	/* Mastra's output, tau-bench's traj, Azure's query/response. */
	assert_int_equal(fmt_score(CHAT, "{'messages': [{'role': 'user', 'content': 'x'}], 'output': []}"), 0);
}

static const char *const conversation =
	"{'model': 'gpt-4o-mini',"
	" 'tools': [{'type': 'function', 'function': {'name': 'lookup_order'}}],"
	" 'messages': ["
	"  {'role': 'system', 'content': 'You are a shop assistant.'},"
	"  {'role': 'developer', 'content': [{'type': 'text', 'text': 'Be brief.'}]},"
	"  {'role': 'user', 'content': [{'type': 'text', 'text': '注文 2087 は'},"
	"                               {'type': 'image_url', 'image_url': {'url': 'x'}},"
	"                               {'type': 'text', 'text': 'どこですか？'}]},"
	"  {'role': 'assistant', 'content': null, 'tool_calls': [{'id': 'call_1', 'type': 'function',"
	"    'function': {'name': 'lookup_order', 'arguments': '{\\'order\\':\\'2087\\'}'}}]},"
	"  {'role': 'tool', 'tool_call_id': 'call_1', 'content': '{\\'status\\':\\'shipped\\'}'},"
	"  {'role': 'assistant', 'content': 'Checking \\u001b[31mtracking\\u001b[0m', 'tool_calls': [{'id': 'call_2',"
	"    'type': 'function', 'function': {'name': 'track_parcel', 'arguments': '{\\'tracking\\':\\'SF88\\'}'}}]},"
	"  {'role': 'tool', 'tool_call_id': 'call_2', 'content': 'Error: upstream timeout'},"
	"  {'role': 'assistant', 'content': '已发货，物流暂时无法查询 📦'}]}";

static void test_roles_and_text(void **state)
{
	struct run *r = fmt_load(conversation, CHAT);
	assert_int_equal(r->nmsgs, 8);
	assert_int_equal(r->msgs[0].role, ROLE_SYSTEM);
	assert_int_equal(r->msgs[1].role, ROLE_SYSTEM);     /* developer */
	assert_string_equal(r->msgs[1].text, "Be brief.");
	assert_int_equal(r->msgs[2].role, ROLE_USER);
	assert_string_equal(r->msgs[2].text, "注文 2087 は\nどこですか？");
	assert_int_equal(r->msgs[3].role, ROLE_ASSISTANT);
	assert_string_equal(r->msgs[3].text, "");
	assert_int_equal(r->msgs[4].role, ROLE_TOOL);
	assert_true(r->msgs[4].is_tool_output);
	/* Escape codes are kept; the screen sanitises. */
	assert_string_equal(r->msgs[5].text, "Checking \x1b[31mtracking\x1b[0m");
	assert_string_equal(run_first_user_text(r), "注文 2087 は\nどこですか？");
	assert_string_equal(run_final_agent_text(r), "已发货，物流暂时无法查询 📦");
	for (size_t i = 0; i < r->nmsgs; i++) {
		assert_int_equal(r->msgs[i].src_index, (long)i);
		assert_int_equal(r->msgs[i].origin, MSG_IN_OUTPUT);
		assert_int_equal(r->msgs[i].raw, jv_at(r->doc, jv_get(r->doc, run_root(r), "messages"), i));
	}
	assert_string_equal(r->model, "gpt-4o-mini");
	assert_int_equal(r->tool_defs, jv_get(r->doc, run_root(r), "tools"));
	assert_true(json_is_array(run_tool_defs(r)));
	run_free(r);
}

static void test_calls_and_results(void **state)
{
	struct run *r = fmt_load(conversation, CHAT);
	assert_int_equal(r->ncalls, 2);
	struct run_call *c = &r->calls[0];
	assert_string_equal(c->id, "call_1");
	assert_string_equal(jv_str(r->doc, c->raw_id), "call_1");
	assert_string_equal(c->name, "lookup_order");
	assert_string_equal(jv_str(r->doc, c->raw_name), "lookup_order");
	assert_true(json_is_object(run_call_args(r, c)));
	assert_string_equal(json_string_value(json_object_get(run_call_args(r, c), "order")), "2087");
	assert_false(run_call_args_invalid(r, c));
	assert_int_equal(c->msg_index, 3);
	assert_int_equal(c->src_msg_index, 3);
	assert_int_equal(c->index_in_msg, 0);
	assert_int_equal(c->requestor, REQ_AGENT);
	assert_true(c->has_result);
	assert_int_equal(c->state, CALL_COMPLETED);
	assert_false(c->is_error);
	assert_int_equal(c->result_msg, 4);
	assert_string_equal(json_string_value(run_call_result(r, c)), "{\"status\":\"shipped\"}");

	c = &r->calls[1];
	assert_string_equal(c->name, "track_parcel");
	assert_int_equal(c->msg_index, 5);
	/* No error flag in this format: "Error:" text is the convention. */
	assert_int_equal(c->state, CALL_FAILED);
	assert_true(c->is_error);
	assert_string_equal(c->error_text, "Error: upstream timeout");
	assert_true(r->msgs[6].result_is_error);
	assert_false(r->msgs[6].unmatched_result);
	assert_int_equal(run_agent_calls(r, NULL), 2);
	run_free(r);
}

static void test_arguments(void **state)
{
	struct run *r = fmt_load(
		"[{'role': 'assistant', 'content': null, 'tool_calls': ["
		"  {'id': 'a', 'type': 'function', 'function': {'name': 'f', 'arguments': '{order: 2087'}},"
		"  {'id': 'b', 'type': 'function', 'function': {'name': 'g', 'arguments': ''}},"
		"  {'id': 'c', 'type': 'function', 'function': {'name': 'h', 'arguments': {'already': 'parsed'}}},"
		"  {'id': 'd', 'type': 'function', 'function': {'name': 'k'}},"
		"  {'id': 'e', 'type': 'custom', 'custom': {'name': 'apply_patch', 'input': '*** 補丁 ***'}}]}]",
		CHAT);
	assert_int_equal(r->ncalls, 5);
	/* Invalid JSON is kept as text and flagged. */
	assert_null(run_call_args(r, &r->calls[0]));
	assert_true(run_call_args_invalid(r, &r->calls[0]));
	assert_string_equal(run_call_args_text(r, &r->calls[0]), "{order: 2087");
	/* "" means no arguments. */
	assert_true(json_is_object(run_call_args(r, &r->calls[1])));
	assert_int_equal(json_object_size(run_call_args(r, &r->calls[1])), 0);
	assert_false(run_call_args_invalid(r, &r->calls[1]));
	assert_string_equal(json_string_value(json_object_get(run_call_args(r, &r->calls[2]), "already")), "parsed");
	assert_null(run_call_args(r, &r->calls[3]));
	assert_false(run_call_args_invalid(r, &r->calls[3]));
	/* Custom tools take free text: a string value, not a parse error. */
	assert_string_equal(r->calls[4].name, "apply_patch");
	assert_string_equal(json_string_value(run_call_args(r, &r->calls[4])), "*** 補丁 ***");
	assert_false(run_call_args_invalid(r, &r->calls[4]));
	for (size_t i = 0; i < 5; i++) {
		assert_int_equal(r->calls[i].index_in_msg, i);
		assert_int_equal(r->calls[i].state, CALL_REQUESTED);
		assert_false(r->calls[i].has_result);
	}
	run_free(r);
}

static void test_parallel_calls(void **state)
{
	struct run *r = fmt_load(
		"{'messages': [{'role': 'user', 'content': '三つの注文'},"
		" {'role': 'assistant', 'content': 'Looking up all three.', 'tool_calls': ["
		"  {'id': 'p1', 'type': 'function', 'function': {'name': 'lookup_order', 'arguments': '{\\'order\\':\\'1\\'}'}},"
		"  {'id': 'p2', 'type': 'function', 'function': {'name': 'lookup_order', 'arguments': '{\\'order\\':\\'2\\'}'}},"
		"  {'id': 'p3', 'type': 'function', 'function': {'name': 'lookup_order', 'arguments': '{\\'order\\':\\'3\\'}'}}]},"
		" {'role': 'tool', 'tool_call_id': 'p3', 'content': 'three'},"
		" {'role': 'tool', 'tool_call_id': 'p1', 'content': 'one'},"
		" {'role': 'tool', 'tool_call_id': 'p2', 'content': [{'type': 'text', 'text': 'two'}]}]}",
		CHAT);
	assert_int_equal(r->ncalls, 3);
	assert_int_equal(r->msgs[1].ncalls, 3);
	assert_int_equal(r->msgs[1].first_call, 0);
	assert_string_equal(json_string_value(run_call_result(r, &r->calls[0])), "one");
	assert_int_equal(r->calls[0].result_msg, 3);
	assert_int_equal(r->calls[1].result_msg, 4);
	assert_true(json_is_array(run_call_result(r, &r->calls[1])));
	assert_string_equal(r->msgs[4].text, "two");
	assert_string_equal(json_string_value(run_call_result(r, &r->calls[2])), "three");
	assert_int_equal(r->calls[2].result_msg, 2);
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(r->calls[i].msg_index, 1);
		assert_int_equal(r->calls[i].state, CALL_COMPLETED);
	}
	run_free(r);
}

static void test_unmatched_and_unanswered(void **state)
{
	struct run *r = fmt_load(
		"{'messages': [{'role': 'user', 'content': 'go'},"
		" {'role': 'assistant', 'content': null, 'tool_calls': ["
		"  {'id': 'x1', 'type': 'function', 'function': {'name': 'a', 'arguments': '{}'}},"
		"  {'id': 'x2', 'type': 'function', 'function': {'name': 'b', 'arguments': '{}'}}]},"
		" {'role': 'tool', 'tool_call_id': 'x1', 'content': 'ok'},"
		" {'role': 'tool', 'tool_call_id': 'ghost', 'content': 'who asked?'},"
		" {'role': 'tool', 'content': 'no id at all'}]}",
		CHAT);
	assert_true(r->calls[0].has_result);
	/* A call without result stays requested. */
	assert_false(r->calls[1].has_result);
	assert_int_equal(r->calls[1].state, CALL_REQUESTED);
	assert_int_equal(r->calls[1].result, JV_NONE);
	assert_null(run_call_result(r, &r->calls[1]));
	/* A result for no call stays visible and flagged. */
	assert_int_equal(r->nmsgs, 5);
	assert_false(r->msgs[2].unmatched_result);
	assert_true(r->msgs[3].unmatched_result);
	assert_string_equal(r->msgs[3].answers_call_id, "ghost");
	assert_string_equal(r->msgs[3].text, "who asked?");
	/* No id: it could only match an id-less call, and there is none. */
	assert_true(r->msgs[4].unmatched_result);
	run_free(r);
}

static void test_reused_ids(void **state)
{
	/* tau-bench style: one id for two calls; each result goes to the
	 * nearest preceding unanswered call. */
	struct run *r = fmt_load(
		"[{'role': 'assistant', 'content': null, 'tool_calls': [{'id': 'same', 'type': 'function',"
		"   'function': {'name': 'first', 'arguments': '{}'}}]},"
		" {'role': 'tool', 'tool_call_id': 'same', 'content': '1'},"
		" {'role': 'assistant', 'content': null, 'tool_calls': [{'id': 'same', 'type': 'function',"
		"   'function': {'name': 'second', 'arguments': '{}'}}]},"
		" {'role': 'tool', 'tool_call_id': 'same', 'content': '2'}]",
		CHAT);
	assert_string_equal(json_string_value(run_call_result(r, &r->calls[0])), "1");
	assert_string_equal(json_string_value(run_call_result(r, &r->calls[1])), "2");
	run_free(r);
}

static void test_legacy_function_call(void **state)
{
	struct run *r = fmt_load(
		"{'messages': [{'role': 'user', 'content': '天気は？'},"
		" {'role': 'assistant', 'content': null,"
		"  'function_call': {'name': 'get_weather', 'arguments': '{\\'city\\':\\'東京\\'}'}},"
		" {'role': 'function', 'name': 'get_weather', 'content': '晴れ ☀️'},"
		" {'role': 'assistant', 'content': null,"
		"  'function_call': {'name': 'get_time', 'arguments': '{}'}},"
		" {'role': 'assistant', 'content': null,"
		"  'function_call': {'name': 'get_weather', 'arguments': '{\\'city\\':\\'大阪\\'}'}},"
		" {'role': 'function', 'name': 'get_weather', 'content': 'Error: no station'},"
		" {'role': 'function', 'name': 'get_time', 'content': '12:00'},"
		" {'role': 'function', 'name': 'get_stock', 'content': 'nobody asked'},"
		" {'role': 'assistant', 'content': '東京は晴れです。'}]}",
		CHAT);
	assert_int_equal(r->ncalls, 3);
	/* No ids in the record: none are made up for display. */
	for (size_t i = 0; i < 3; i++)
		assert_null(r->calls[i].id);
	assert_string_equal(r->calls[0].name, "get_weather");
	assert_string_equal(json_string_value(json_object_get(run_call_args(r, &r->calls[0]), "city")), "東京");
	assert_int_equal(r->calls[0].result_msg, 2);
	assert_int_equal(r->calls[0].state, CALL_COMPLETED);
	/* The second weather reply goes to the nearest unanswered weather
	 * call, not to get_time before it. */
	assert_string_equal(r->calls[1].name, "get_time");
	assert_int_equal(r->calls[1].result_msg, 6);
	assert_string_equal(r->calls[2].name, "get_weather");
	assert_int_equal(r->calls[2].result_msg, 5);
	assert_int_equal(r->calls[2].state, CALL_FAILED);
	assert_string_equal(r->calls[2].error_text, "Error: no station");
	assert_int_equal(r->msgs[2].role, ROLE_TOOL);
	assert_true(r->msgs[7].unmatched_result);
	assert_false(r->msgs[6].unmatched_result);
	run_free(r);
}

static void test_unknown_call_type_kept(void **state)
{
	struct run *r = fmt_load(
		"[{'role': 'assistant', 'content': null, 'tool_calls': ["
		"  {'id': 'n1', 'type': 'future_kind', 'future_kind': {'name': 'warp', 'arguments': '{}'}},"
		"  {'id': 'n2', 'type': 'mystery'}]},"
		" {'role': 'tool', 'tool_call_id': 'n2', 'content': 'done'}]",
		CHAT);
	assert_int_equal(r->ncalls, 2);
	assert_string_equal(r->calls[0].name, "warp");
	assert_string_equal(r->calls[1].name, "mystery");
	assert_true(r->calls[1].has_result);
	run_free(r);
}

/* Reasoning (DeepSeek's and vLLM's reasoning_content, vLLM's reasoning)
 * is a thinking part before the text; an unknown role a note message. */
static void test_reasoning_and_unknown_roles(void **state)
{
	(void)state;
	struct run *r = fmt_load(
		"{'messages': [{'role': 'user', 'content': '注文 2087 は？'},"
		" {'role': 'assistant', 'content': '調べます。', 'reasoning_content': 'look it up',"
		"  'tool_calls': [{'id': 'c1', 'type': 'function',"
		"   'function': {'name': 'lookup_order', 'arguments': '{}'}}]},"
		" {'role': 'tool', 'tool_call_id': 'c1', 'content': 'shipped'},"
		" {'role': 'narrator', 'content': 'meanwhile'},"
		" {'role': 'assistant', 'content': '', 'reasoning': 'done already'},"
		" {'role': 'assistant', 'content': '已发货 📦'}]}", "openai-chat");
	assert_int_equal(r->nmsgs, 6);
	assert_string_equal(fmt_parts(r, 1), "thinking text call");
	assert_string_equal(r->parts[r->msgs[1].first_part].text, "look it up");
	assert_string_equal(r->msgs[1].text, "調べます。");
	assert_int_equal(r->calls[0].state, CALL_COMPLETED);
	assert_int_equal(r->msgs[3].role, ROLE_NOTE);
	assert_string_equal(r->parts[r->msgs[3].first_part].text, "role \"narrator\": meanwhile");
	assert_int_equal(r->msgs[3].src_index, 3);
	/* reasoning alone: a thinking part and no text */
	assert_string_equal(fmt_parts(r, 4), "thinking");
	assert_string_equal(r->msgs[4].text, "");
	assert_string_equal(run_final_agent_text(r), "已发货 📦");
	run_free(r);
}

static void test_malformed(void **state)
{
	struct error err = {0};
	static const struct fmt_error_case cases[] = {
		{ "{'messages': {'role': 'user'}}", "messages: not an array" },
		{ "{'model': 'x'}", "messages: missing" },
		{ "42", "an openai-chat record must be an object or an array of messages" },
		{ "{'messages': [{'role': 'user', 'content': 'a'}, 7]}", "messages[1]: not an object" },
		{ "[{'role': 'user', 'content': 'a'}, 'b']", "[1]: not an object" },
		{ "{'messages': [{'content': 'a'}]}", "messages[0].role: missing" },
		{ "{'messages': [{'role': 3, 'content': 'a'}]}", "messages[0].role: not a string" },
		{ "{'messages': [{'role': 'user', 'content': 12}]}",
		  "messages[0].content: not a string, a list or null" },
		{ "{'messages': [{'role': 'user', 'content': ['a', 5]}]}", "messages[0].content[1]: not an object" },
		{ "{'messages': [{'role': 'user', 'content': 'a'}, {'role': 'user', 'content': 'b'},"
		  " {'role': 'user', 'content': 'c'}, {'role': 'assistant', 'tool_calls': {'id': 'x'}}]}",
		  "messages[3].tool_calls: not an array" },
		{ "{'messages': [{'role': 'user', 'content': 'a'}, {'role': 'user', 'content': 'b'},"
		  " {'role': 'user', 'content': 'c'}, {'role': 'assistant', 'tool_calls': ["
		  "   {'id': 'x', 'type': 'function', 'function': 'lookup_order'}]}]}",
		  "messages[3].tool_calls[0].function: not an object" },
		{ "{'messages': [{'role': 'assistant', 'tool_calls': [{'id': 'x', 'function': null}]}]}",
		  "messages[0].tool_calls[0].function: not an object" },
		{ "{'messages': [{'role': 'assistant', 'tool_calls': ['call']}]}",
		  "messages[0].tool_calls[0]: not an object" },
		{ "{'messages': [{'role': 'assistant', 'tool_calls': [{'id': 'x', 'type': 1}]}]}",
		  "messages[0].tool_calls[0].type: not a string" },
		{ "{'messages': [{'role': 'assistant', 'tool_calls': [{'id': 'x', 'type': 'custom'}]}]}",
		  "messages[0].tool_calls[0].custom: not an object" },
		{ "{'messages': [{'role': 'assistant', 'function_call': 'f'}]}",
		  "messages[0].function_call: not an object" },
		{ NULL, NULL },
	};
	fmt_expect_errors(CHAT, cases);
	/* null tool_calls and function_call are "none", not errors. */
	assert_int_equal(fmt_load_err("{'messages': [{'role': 'assistant', 'content': 'hi',"
	                              " 'tool_calls': null, 'function_call': null}]}", CHAT, &err), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_detect_confidence),
		cmocka_unit_test(test_roles_and_text),
		cmocka_unit_test(test_calls_and_results),
		cmocka_unit_test(test_arguments),
		cmocka_unit_test(test_parallel_calls),
		cmocka_unit_test(test_unmatched_and_unanswered),
		cmocka_unit_test(test_reused_ids),
		cmocka_unit_test(test_legacy_function_call),
		cmocka_unit_test(test_unknown_call_type_kept),
		cmocka_unit_test(test_reasoning_and_unknown_roles),
		cmocka_unit_test(test_malformed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
