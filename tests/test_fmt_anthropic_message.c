/* test_fmt_anthropic_message.c - one Anthropic Messages API response. */
#include "fmt_test.h"

#define MSG "anthropic-message"
#define WILD "fixtures/real/wild/anthropic-messages/"

static const char *const response =
	"{'id': 'msg_01', 'type': 'message', 'role': 'assistant', 'model': 'claude-opus-4-5',"
	" 'content': ["
	"  {'type': 'thinking', 'thinking': 'search first, then look up both', 'signature': 'sig'},"
	"  {'type': 'text', 'text': '調べます。'},"
	"  {'type': 'server_tool_use', 'id': 'srvtoolu_1', 'name': 'web_search',"
	"   'input': {'query': 'SF88 tracking'}},"
	"  {'type': 'web_search_tool_result', 'tool_use_id': 'srvtoolu_1', 'content': ["
	"    {'type': 'web_search_result', 'url': 'https://example.com', 'title': 'SF88'}]},"
	"  {'type': 'server_tool_use', 'id': 'srvtoolu_2', 'name': 'web_fetch', 'input': {'url': 'x'}},"
	"  {'type': 'web_fetch_tool_result', 'tool_use_id': 'srvtoolu_2',"
	"   'content': {'type': 'web_fetch_tool_error', 'error_code': 'url_not_accessible'}},"
	"  {'type': 'tool_use', 'id': 'toolu_1', 'name': 'lookup_order', 'input': {'order': '2087'}},"
	"  {'type': 'tool_use', 'id': 'toolu_2', 'name': 'lookup_order', 'input': {'order': '2088'}}],"
	" 'stop_reason': 'tool_use', 'stop_sequence': null,"
	" 'usage': {'input_tokens': 30, 'output_tokens': 90, 'server_tool_use': {'web_search_requests': 1}}}";

static void test_detect(void **state)
{
	(void)state;
	assert_int_equal(fmt_score(MSG, response), 55);
	/* Text only: stop_reason says it is a response. */
	assert_int_equal(fmt_score(MSG, "{'type': 'message', 'role': 'assistant',"
	                                " 'content': [{'type': 'text', 'text': 'hi'}], 'stop_reason': 'end_turn'}"),
	                 55);
	/* An OpenAI Responses message item has the same three keys. */
	assert_int_equal(fmt_score(MSG, "{'type': 'message', 'role': 'assistant', 'status': 'completed',"
	                                " 'content': [{'type': 'output_text', 'text': 'hi'}]}"), 0);
	assert_int_equal(fmt_score(MSG, "{'type': 'message', 'role': 'assistant',"
	                                " 'content': [{'type': 'text', 'text': 'hi'}]}"), 0);
	/* A conversation is the anthropic loader's. */
	assert_int_equal(fmt_score(MSG, fmt_samples[8].json), 0);
	assert_int_equal(fmt_score(MSG, "{'type': 'message', 'role': 'assistant', 'stop_reason': null,"
	                                " 'content': 'hi'}"), 0);
	/* And the anthropic loader does not read a single response. */
	assert_int_equal(fmt_score("anthropic", response), 0);
	assert_int_equal(fmt_score("openai-responses", response), 0);
	assert_int_equal(fmt_score("openai-chat", response), 0);
}

static void test_one_message_with_its_calls(void **state)
{
	(void)state;
	struct run *r = fmt_load(response, MSG);
	assert_string_equal(r->model, "claude-opus-4-5");
	assert_int_equal(r->nmsgs, 1);
	assert_int_equal(r->msgs[0].role, ROLE_ASSISTANT);
	/* Thinking is not text. */
	assert_string_equal(r->msgs[0].text, "調べます。");
	assert_int_equal(r->ncalls, 4);
	assert_int_equal(run_agent_calls(r, NULL), 4);
	/* Server tools keep the names the API gives them, and their results. */
	assert_string_equal(r->calls[0].name, "web_search");
	assert_int_equal(r->calls[0].state, CALL_COMPLETED);
	assert_string_equal(r->calls[1].name, "web_fetch");
	assert_int_equal(r->calls[1].state, CALL_FAILED);
	assert_string_equal(r->calls[1].error_text, "url_not_accessible");
	/* The client's calls wait for the next request. */
	assert_string_equal(r->calls[2].id, "toolu_1");
	assert_int_equal(r->calls[2].state, CALL_REQUESTED);
	assert_int_equal(r->calls[3].state, CALL_REQUESTED);
	json_t *a = run_call_args(r, &r->calls[3]);
	assert_string_equal(json_string_value(json_object_get(a, "order")), "2088");
	assert_int_equal(fmt_count_unmatched(r), 0);
	run_free(r);
}

static void test_edges(void **state)
{
	(void)state;
	/* No content blocks at all (max_tokens before any). */
	struct run *r = fmt_load("{'id': 'msg_2', 'type': 'message', 'role': 'assistant', 'content': [],"
	                         " 'stop_reason': 'max_tokens'}", MSG);
	assert_int_equal(r->nmsgs, 1);
	assert_string_equal(r->msgs[0].text, "");
	assert_int_equal(r->ncalls, 0);
	assert_null(r->model);
	run_free(r);
	/* A server result with no call in the message stays visible. */
	r = fmt_load("{'type': 'message', 'role': 'assistant', 'stop_reason': 'end_turn', 'content': ["
	             " {'type': 'redacted_thinking', 'data': 'xx'},"
	             " {'type': 'web_search_tool_result', 'tool_use_id': 'srvtoolu_9', 'content': []}]}", MSG);
	assert_int_equal(r->nmsgs, 2);
	assert_int_equal(fmt_count_unmatched(r), 1);
	run_free(r);
}

/* The blocks in the response's order; results are their calls'. */
static void test_parts_in_order(void **state)
{
	(void)state;
	struct run *r = fmt_load(response, MSG);
	assert_int_equal(r->nmsgs, 1);
	assert_string_equal(fmt_parts(r, 0), "thinking text call call call call");
	assert_string_equal(r->parts[0].text, "search first, then look up both");
	assert_string_equal(r->msgs[0].text, "調べます。");
	run_free(r);
	r = fmt_load("{'type': 'message', 'role': 'assistant', 'stop_reason': 'end_turn', 'content': ["
	             " {'type': 'tool_use', 'id': 't', 'name': 'f', 'input': {}},"
	             " {'type': 'text', 'text': 'done'}]}", MSG);
	assert_string_equal(fmt_parts(r, 0), "call text");
	run_free(r);
}

static void test_malformed(void **state)
{
	(void)state;
	static const struct fmt_error_case cases[] = {
		{ "[]", "an anthropic-message record must be an object" },
		{ "{'type': 'message'}", "role: missing" },
		{ "{'type': 'message', 'role': 3}", "role: not a string" },
		{ "{'role': 'assistant', 'content': 3}", "content: not a string or a list" },
		{ "{'role': 'assistant', 'content': [1]}", "content[0]: not an object" },
		{ "{'role': 'assistant', 'content': [{'text': 'x'}]}", "content[0].type: missing" },
		{ "{'role': 'assistant', 'content': [{'type': 'text'}, {'type': 4}]}",
		  "content[1].type: not a string" },
		{ NULL, NULL },
	};
	fmt_expect_errors(MSG, cases);
}

/* The shared samples with the README's counts (1 run each; 2 and 61
 * tool_use + server_tool_use blocks). */
static void test_wild_samples(void **state)
{
	(void)state;
	struct run *r = fmt_load_shared_json(WILD "anthropic-tool-search-bm25.1.json", MSG);
	assert_int_equal(r->ncalls, 2);
	assert_int_equal(run_agent_calls(r, NULL), 2);
	assert_string_equal(r->calls[0].name, "tool_search_tool_bm25");
	assert_true(r->calls[0].has_result);
	assert_false(r->calls[1].has_result);
	assert_int_equal(fmt_count_unmatched(r), 0);
	/* the text between the search and the call stays between them */
	assert_string_equal(fmt_parts(r, 0), "text call text call");
	run_free(r);

	r = fmt_load_shared_json(WILD "anthropic-code-execution-20250825.pptx-skill.json", MSG);
	assert_int_equal(r->ncalls, 61);
	assert_int_equal(run_agent_calls(r, NULL), 61);
	size_t answered = 0;
	for (size_t i = 0; i < r->ncalls; i++) {
		const char *n = r->calls[i].name;
		assert_true(!strcmp(n, "bash_code_execution") || !strcmp(n, "text_editor_code_execution"));
		answered += r->calls[i].has_result;
	}
	assert_int_equal(answered, 61);
	assert_int_equal(fmt_count_unmatched(r), 0);
	assert_int_equal(r->nmsgs, 1);
	run_free(r);
}

static void test_wild_claims(void **state)
{
	(void)state;
	fmt_check_wild(MSG, "anthropic-messages");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_detect),
		cmocka_unit_test(test_one_message_with_its_calls),
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_parts_in_order),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_wild_samples),
		cmocka_unit_test(test_wild_claims),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
