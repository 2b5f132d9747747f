/* test_fmt_chat_response.c - the Chat Completions response loader. */
#include "fmt_test.h"

#define RESP "chat-completions-response"
#define WILD "fixtures/real/wild/chat-completions/"

static const char *const two_choices =
	"{'id': 'chatcmpl-9', 'object': 'chat.completion', 'created': 1764665845,"
	" 'model': 'grok-4', 'choices': ["
	"  {'index': 0, 'message': {'role': 'assistant', 'content': '調べます。',"
	"    'reasoning_content': 'two lookups at once',"
	"    'tool_calls': [{'id': 'call_1', 'type': 'function',"
	"      'function': {'name': 'lookup_order', 'arguments': '{\\'order\\':\\'2087\\'}'}},"
	"     {'id': 'call_2', 'type': 'function',"
	"      'function': {'name': 'lookup_order', 'arguments': {'order': '2088'}}}]},"
	"   'finish_reason': 'tool_calls'},"
	"  {'index': 1, 'message': {'role': 'assistant', 'content': '已发货 📦'},"
	"   'logprobs': null, 'finish_reason': 'stop'}],"
	" 'usage': {'prompt_tokens': 10, 'completion_tokens': 5, 'total_tokens': 15}}";

static void test_detect(void **state)
{
	(void)state;
	assert_int_equal(fmt_score(RESP, two_choices), 50);
	/* Without the object tag, choices of messages still are one. */
	assert_int_equal(fmt_score(RESP, "{'choices': [{'message': {'role': 'assistant', 'content': 'x'}}]}"),
	                 35);
	/* A streamed chunk has deltas, not messages; an empty list is nothing. */
	assert_int_equal(fmt_score(RESP, "{'object': 'chat.completion.chunk', 'choices': [{'index': 0,"
	                                 " 'delta': {'content': 'x'}}]}"), 0);
	assert_int_equal(fmt_score(RESP, "{'object': 'chat.completion', 'choices': []}"), 0);
	assert_int_equal(fmt_score(RESP, "{'choices': 3}"), 0);
	/* A conversation with a choices key beside messages is not a response. */
	assert_int_equal(fmt_score(RESP, "{'messages': [], 'choices': [{'message': {}}]}"), 0);
	/* Legacy completions have text, not message. */
	assert_int_equal(fmt_score(RESP, "{'object': 'text_completion', 'choices': [{'text': 'x'}]}"), 0);
	const struct format_ops *f = fmt_detect(two_choices);
	assert_non_null(f);
	assert_string_equal(f->name, RESP);
}

static void test_several_choices(void **state)
{
	(void)state;
	struct run *r = fmt_load(two_choices, RESP);
	assert_string_equal(r->model, "grok-4");
	assert_int_equal(r->nmsgs, 2);
	assert_int_equal(r->msgs[0].role, ROLE_ASSISTANT);
	/* Reasoning stays out of the text. */
	assert_string_equal(r->msgs[0].text, "調べます。");
	assert_string_equal(r->msgs[1].text, "已发货 📦");
	assert_int_equal(r->msgs[1].src_index, 1);
	assert_int_equal(r->ncalls, 2);
	assert_string_equal(r->calls[0].id, "call_1");
	assert_string_equal(r->calls[0].name, "lookup_order");
	json_t *a = run_call_args(r, &r->calls[0]);
	assert_string_equal(json_string_value(json_object_get(a, "order")), "2087");
	/* Some servers send the arguments as an object. */
	a = run_call_args(r, &r->calls[1]);
	assert_string_equal(json_string_value(json_object_get(a, "order")), "2088");
	assert_int_equal(r->calls[1].state, CALL_REQUESTED);
	assert_false(r->calls[1].has_result);
	assert_int_equal(run_agent_calls(r, NULL), 2);
	assert_string_equal(run_final_agent_text(r), "已发货 📦");
	assert_string_equal(run_first_user_text(r), "");
	run_free(r);
}

static void test_no_content(void **state)
{
	(void)state;
	/* content absent, no type on the call (Mistral), arguments not JSON. */
	struct run *r = fmt_load("{'object': 'chat.completion', 'model': 'mistral-small', 'choices': ["
	                         " {'index': 0, 'message': {'role': 'assistant', 'tool_calls': ["
	                         "   {'id': 'gSIMJiOkT', 'function': {'name': 'weather', 'arguments': 'not json'}}]},"
	                         "  'finish_reason': 'tool_calls'}]}", RESP);
	assert_int_equal(r->nmsgs, 1);
	assert_string_equal(r->msgs[0].text, "");
	assert_int_equal(r->ncalls, 1);
	assert_true(run_call_args_invalid(r, &r->calls[0]));
	assert_string_equal(run_call_args_text(r, &r->calls[0]), "not json");
	run_free(r);
	/* null content, a refusal, no role, a call type newer than the loader,
	 * the legacy function_call. */
	r = fmt_load("{'choices': [{'message': {'content': null, 'refusal': 'I can\\u0027t help.',"
	             "  'tool_calls': [{'id': 'c9', 'type': 'web_search', 'web_search': {'query': 'x'}}],"
	             "  'function_call': {'name': 'f', 'arguments': '{}'}}}]}", RESP);
	assert_int_equal(r->msgs[0].role, ROLE_ASSISTANT);
	assert_string_equal(r->msgs[0].text, "I can't help.");
	assert_int_equal(r->ncalls, 2);
	assert_string_equal(r->calls[0].name, "web_search");
	assert_string_equal(r->calls[1].name, "f");
	assert_null(r->calls[1].id);
	assert_null(r->model);
	run_free(r);
	/* A message with nothing at all is still the choice's answer. */
	r = fmt_load("{'object': 'chat.completion', 'choices': [{'message': {}}]}", RESP);
	assert_int_equal(r->nmsgs, 1);
	assert_int_equal(r->ncalls, 0);
	run_free(r);
}

/* The reasoning returned beside the answer is a thinking part before
 * its text and calls, and not the text. */
static void test_reasoning_part(void **state)
{
	(void)state;
	struct run *r = fmt_load(two_choices, RESP);
	assert_string_equal(fmt_parts(r, 0), "thinking text call call");
	assert_string_equal(r->parts[r->msgs[0].first_part].text, "two lookups at once");
	assert_string_equal(r->msgs[0].text, "調べます。");
	assert_string_equal(fmt_parts(r, 1), "text");
	run_free(r);
	r = fmt_load("{'object': 'chat.completion', 'choices': [{'message': {'role': 'assistant',"
	             " 'content': null, 'reasoning': 'thinking only'}}]}", RESP);
	assert_string_equal(fmt_parts(r, 0), "thinking");
	assert_string_equal(r->msgs[0].text, "");
	run_free(r);
}

static void test_malformed(void **state)
{
	(void)state;
	static const struct fmt_error_case cases[] = {
		{ "[1]", "a chat-completions-response record must be an object" },
		{ "{'object': 'chat.completion'}", "choices: missing" },
		{ "{'choices': {}}", "choices: not an array" },
		{ "{'choices': [3]}", "choices[0]: not an object" },
		{ "{'choices': [{'index': 0}]}", "choices[0].message: missing" },
		{ "{'choices': [{'message': 'hi'}]}", "choices[0].message: not an object" },
		{ "{'choices': [{'message': {'role': 1}}]}", "choices[0].message.role: not a string" },
		{ "{'choices': [{'message': {}}, {'message': {'content': 5}}]}",
		  "choices[1].message.content: not a string, a list or null" },
		{ "{'choices': [{'message': {'tool_calls': {}}}]}",
		  "choices[0].message.tool_calls: not an array" },
		{ "{'choices': [{'message': {'tool_calls': [7]}}]}",
		  "choices[0].message.tool_calls[0]: not an object" },
		{ "{'choices': [{'message': {'tool_calls': [{'id': 3, 'function': {}}]}}]}",
		  "choices[0].message.tool_calls[0].id: not a string" },
		{ "{'choices': [{'message': {'tool_calls': [{'type': 'function'}]}}]}",
		  "choices[0].message.tool_calls[0].function: not an object" },
		{ "{'choices': [{'message': {'tool_calls': [{'function': {'name': 2}}]}}]}",
		  "choices[0].message.tool_calls[0].function.name: not a string" },
		{ "{'choices': [{'message': {'tool_calls': [{'function': {'name': 'f', 'arguments': 2}}]}}]}",
		  "choices[0].message.tool_calls[0].function.arguments: not an object or a string" },
		{ "{'choices': [{'message': {'function_call': 'f'}}]}",
		  "choices[0].message.function_call: not an object" },
		{ NULL, NULL },
	};
	fmt_expect_errors(RESP, cases);
}

/* The shared samples, with the README's counts: 1 run, 1 call each. */
static void check_wild(const char *file, const char *model, const char *call_id,
                       const char *args_text)
{
	char rel[256];
	snprintf(rel, sizeof(rel), WILD "%s", file);
	struct run *r = fmt_load_shared_json(rel, RESP);
	if (!r)
		return;
	assert_string_equal(r->model, model);
	assert_int_equal(r->nmsgs, 1);
	assert_int_equal(r->ncalls, 1);
	assert_int_equal(run_agent_calls(r, NULL), 1);
	assert_string_equal(r->calls[0].name, "weather");
	assert_string_equal(r->calls[0].id, call_id);
	assert_string_equal(jv_str(r->doc, r->calls[0].args), args_text);
	assert_true(json_is_object(run_call_args(r, &r->calls[0])));
	assert_string_equal(r->msgs[0].text, "");
	run_free(r);
}

static void test_wild_samples(void **state)
{
	(void)state;
	check_wild("deepseek-tool-call.json", "deepseek-reasoner", "call_00_9V0vrf86Pc9aelHCJMZqnJBo",
	           "{\"location\": \"San Francisco\"}");
	check_wild("groq-tool-call.json", "llama-3.3-70b-versatile", "ax9fskhev", "{}");
	check_wild("mistral-tool-call.json", "mistral-small-latest", "gSIMJiOkT",
	           "{\"location\": \"San Francisco\"}");
}

/* The wild folder's other formats are not responses; its own are. */
static void test_wild_claims(void **state)
{
	(void)state;
	fmt_check_wild(RESP, "chat-completions");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_detect),
		cmocka_unit_test(test_several_choices),
		cmocka_unit_test(test_no_content),
		cmocka_unit_test(test_reasoning_part),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_wild_samples),
		cmocka_unit_test(test_wild_claims),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
