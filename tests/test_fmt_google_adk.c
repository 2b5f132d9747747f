/* test_fmt_google_adk.c - the Google ADK loader: sessions, EvalSets, the legacy eval list. */
#include "fmt_test.h"
#include "fmt_files.h"

#define ADK "google-adk"

/* Every Part field written out, as ADK's pydantic dump writes them. */
#define NULLS "'video_metadata': null, 'thought': null, 'code_execution_result': null," \
	" 'executable_code': null, 'file_data': null, 'inline_data': null"

static const char *const session_json =
	"{'id': 's-7', 'app_name': 'shop', 'user_id': 'kenji', 'state': {}, 'events': ["
	"  {'author': 'user', 'content': {'role': 'user', 'parts': [{" NULLS ","
	"    'function_call': null, 'function_response': null, 'text': 'refund order 7'}]}},"
	"  {'author': 'shop', 'content': {'role': 'model', 'parts': ["
	"    {'text': 'checking the order', 'thought': true},"
	"    {" NULLS ", 'function_response': null, 'text': null,"
	"     'function_call': {'id': 'f1', 'name': 'lookup', 'args': {'order': 7}}},"
	"    {'functionCall': {'id': 'f2', 'name': 'refund', 'args': {}}}]}},"
	"  {'author': 'shop', 'content': {'role': 'user', 'parts': ["
	"    {'function_response': {'id': 'f2', 'name': 'refund', 'response': {'error': 'locked'}}},"
	"    {'function_response': {'id': 'f1', 'name': 'lookup', 'response': {'state': 'paid'}}}]}},"
	"  {'author': 'shop', 'actions': {'state_delta': {'x': 1}}, 'content': null},"
	"  {'author': 'shop', 'error_message': 'quota', 'content': null},"
	"  {'author': 'shop', 'content': {'role': 'model', 'parts': [{'text': 'it is locked'},"
	"    {'inline_data': {'mime_type': 'image/png', 'data': 'AA=='}}, {'weird': 1}]}},"
	"  {'author': 'shop', 'content': {'role': 'model', 'parts': [{" NULLS ", 'text': null}]}}]}";

static void test_detect(void **state)
{
	(void)state;
	assert_int_equal(fmt_score(ADK, session_json), 85);
	assert_int_equal(fmt_score(ADK, "{'id': 'x', 'appName': 'a', 'userId': 'u', 'events': []}"), 85);
	assert_int_equal(fmt_score(ADK, "{'eval_set_id': 'e', 'eval_cases': []}"), 90);
	assert_int_equal(fmt_score(ADK, "{'evalSetId': 'e', 'evalCases': []}"), 90);
	assert_int_equal(fmt_score(ADK, "{'eval_id': 'c', 'conversation': []}"), 85);
	assert_int_equal(fmt_score(ADK, "[{'query': 'q', 'expected_tool_use': [], 'reference': 'r'}]"), 85);
	/* the keys alone are not enough */
	assert_int_equal(fmt_score(ADK, "{'id': 'x', 'events': []}"), 0);
	assert_int_equal(fmt_score(ADK, "{'eval_cases': []}"), 0);
	assert_int_equal(fmt_score(ADK, "{'eval_set_id': null, 'eval_cases': []}"), 0);
	assert_int_equal(fmt_score(ADK, "[{'query': 'q', 'reference': 'r'}]"), 0);
	/* and Gemini leaves ADK's snake_case contents alone */
	assert_int_equal(fmt_score("gemini", session_json), 0);
}

static void test_session(void **state)
{
	(void)state;
	struct run *r = fmt_load(session_json, ADK);
	assert_string_equal(r->id, "s-7");
	/* user, the calls, two tool messages, the error note, the answer */
	assert_int_equal(r->nmsgs, 6);
	assert_int_equal(r->msgs[0].role, ROLE_USER);
	assert_string_equal(r->msgs[0].text, "refund order 7");
	assert_int_equal(r->msgs[1].role, ROLE_ASSISTANT);
	assert_string_equal(fmt_parts(r, 1), "thinking call call");
	assert_int_equal(r->ncalls, 2);
	assert_string_equal(r->calls[0].name, "lookup");
	assert_string_equal(r->calls[0].id, "f1");
	assert_int_equal(r->calls[0].state, CALL_COMPLETED);
	assert_string_equal(r->calls[1].name, "refund");
	assert_int_equal(r->calls[1].state, CALL_FAILED);
	assert_string_equal(r->calls[1].error_text, "locked");
	assert_int_equal(r->msgs[2].role, ROLE_TOOL);
	assert_int_equal(r->msgs[4].role, ROLE_NOTE);
	assert_string_equal(r->msgs[5].text, "it is locked");
	assert_string_equal(fmt_parts(r, 5), "text note note");
	assert_int_equal(fmt_count_unmatched(r), 0);
	run_free(r);

	/* a call shown twice (a streamed partial event, then the event) counts once */
	r = fmt_load("{'app_name': 'a', 'user_id': 'u', 'events': ["
	             " {'author': 'a', 'partial': true, 'content': {'role': 'model', 'parts': ["
	             "  {'function_call': {'id': 'adk-9', 'name': 'f', 'args': {}}}]}},"
	             " {'author': 'a', 'content': {'role': 'model', 'parts': ["
	             "  {'function_call': {'id': 'adk-9', 'name': 'f', 'args': {}}}]}},"
	             " {'author': 'a', 'content': {'role': 'user', 'parts': ["
	             "  {'function_response': {'id': 'adk-9', 'name': 'f', 'response': {}}}]}}]}", ADK);
	assert_int_equal(r->ncalls, 1);
	assert_int_equal(r->calls[0].state, CALL_COMPLETED);
	run_free(r);

	/* no events: a run with no messages, read */
	r = fmt_load("{'id': 'empty', 'app_name': 'a', 'user_id': 'u', 'events': []}", ADK);
	assert_int_equal(r->nmsgs, 0);
	assert_int_equal(r->ncalls, 0);
	run_free(r);
}

/* Ids all null, two calls of one name in two invocations: two calls, and
 * each response goes to its own call by position. */
static const char *const case_json =
	"{'eval_id': 'case-1', 'conversation': ["
	" {'invocation_id': 'i1', 'user_content': {'role': 'user', 'parts': [{" NULLS ", 'text': 'lamp off',"
	"   'function_call': null, 'function_response': null}]},"
	"  'final_response': {'role': 'model', 'parts': [{'text': 'done'}]},"
	"  'intermediate_data': {'tool_uses': [{'id': null, 'name': 'set', 'args': {'on': false}}],"
	"   'tool_responses': [{'id': null, 'name': 'set', 'response': {'ok': 1}}],"
	"   'intermediate_responses': [['helper', [{'text': 'on it'}]]]}},"
	" {'invocation_id': 'i2', 'user_content': {'role': 'user', 'parts': [{'text': 'lamp on'}]},"
	"  'final_response': {'role': 'model', 'parts': [{" NULLS ", 'text': null}]},"
	"  'intermediate_data': {'tool_uses': [{'id': null, 'name': 'set', 'args': {'on': true}},"
	"    {'id': null, 'name': 'set', 'args': {'on': true}}],"
	"   'tool_responses': [{'id': null, 'name': 'set', 'response': {'ok': 2}},"
	"    {'id': null, 'name': 'set', 'response': {'ok': 3}}]}},"
	" {'userContent': {'parts': [{'text': 'and now?'}]}, 'intermediateData': {'invocationEvents': ["
	"   {'author': 'agent', 'content': {'parts': [{'functionCall': {'name': 'get', 'args': {}}}]}},"
	"   {'author': 'agent', 'content': {'parts': [{'functionResponse': {'name': 'get',"
	"    'response': {'on': true}}}]}}]},"
	"  'finalResponse': {'parts': [{'text': 'it is on'}]}}]}";

static void test_eval_case(void **state)
{
	(void)state;
	struct run *r = fmt_load(case_json, ADK);
	assert_string_equal(r->id, "case-1");
	assert_int_equal(r->ncalls, 4);
	for (size_t i = 0; i < 3; i++) {
		assert_string_equal(r->calls[i].name, "set");
		assert_null(r->calls[i].id);
		assert_int_equal(r->calls[i].state, CALL_COMPLETED);
	}
	json_t *res = run_call_result(r, &r->calls[1]);
	assert_int_equal(json_integer_value(json_object_get(res, "ok")), 2);
	res = run_call_result(r, &r->calls[2]);
	assert_int_equal(json_integer_value(json_object_get(res, "ok")), 3);
	assert_string_equal(r->calls[3].name, "get");
	assert_int_equal(r->calls[3].state, CALL_COMPLETED);
	/* user, the helper's words, the call, its result, the answer; the second
	 * answer is nothing but nulls and no message */
	assert_int_equal(r->msgs[0].role, ROLE_USER);
	assert_string_equal(r->msgs[1].text, "on it");
	assert_string_equal(fmt_parts(r, 2), "call");
	assert_int_equal(r->msgs[3].role, ROLE_TOOL);
	assert_string_equal(r->msgs[4].text, "done");
	assert_string_equal(r->msgs[5].text, "lamp on");
	assert_string_equal(run_final_agent_text(r), "it is on");
	assert_int_equal(fmt_count_unmatched(r), 0);
	assert_int_equal(run_agent_calls(r, NULL), 4);
	run_free(r);
}

/* An EvalSet that reaches the loader whole (a JSONL line) is one run. */
static void test_whole_set(void **state)
{
	(void)state;
	struct run *r = fmt_load("{'eval_set_id': 'set', 'eval_cases': ["
	                         " {'eval_id': 'a', 'conversation': [{'user_content': {'parts': [{'text': 'x'}]}}]},"
	                         " {'eval_id': 'b', 'conversation': []}]}", ADK);
	assert_string_equal(r->id, "set");
	assert_int_equal(r->nmsgs, 3);
	assert_int_equal(r->msgs[0].role, ROLE_NOTE);
	assert_string_equal(r->parts[r->msgs[2].first_part].text, "eval case b");
	run_free(r);

	/* a case played from a scenario has no turns: it says so */
	r = fmt_load("{'eval_id': 'sim', 'conversation': null, 'conversation_scenario': "
	             "{'starting_prompt': 'hi'}}", ADK);
	assert_string_equal(r->id, "sim");
	assert_int_equal(r->nmsgs, 1);
	assert_string_equal(r->parts[r->msgs[0].first_part].text,
	                    "eval case with no conversation (a conversation_scenario, not read)");
	run_free(r);
}

/* The legacy list is one run; expected_tool_use are its calls. */
static void test_legacy(void **state)
{
	(void)state;
	struct run *r = fmt_load("[{'query': 'hi', 'expected_tool_use': [], 'reference': 'hello'},"
	                         " {'query': 'go to paris', 'expected_tool_use': [{'tool_name':"
	                         "  'transfer_to_agent', 'tool_input': {'agent_name': 'planner'}}],"
	                         "  'reference': 'handing over'}]", ADK);
	assert_int_equal(r->nmsgs, 5);
	assert_int_equal(r->ncalls, 1);
	assert_string_equal(r->calls[0].name, "transfer_to_agent");
	assert_int_equal(r->calls[0].state, CALL_REQUESTED);
	assert_string_equal(run_final_agent_text(r), "handing over");
	run_free(r);
}

/* Writes text into a new file of the system's temporary folder. */
static size_t file_runs(const char *text, const char *first_id)
{
	struct dataset ds;
	size_t n = fmt_open(&ds, fmt_write("adk.json", text));
	struct run *r = fmt_run_at(&ds, 0, ADK);
	assert_string_equal(r->id, first_id);
	run_free(r);
	dataset_close(&ds);
	return n;
}

/* In a file, each eval case is a run; a legacy list and a session one. */
static void test_split(void **state)
{
	(void)state;
	assert_int_equal(file_runs("{\"eval_set_id\": \"s\", \"eval_cases\": ["
	                           "{\"eval_id\": \"c1\", \"conversation\": []},"
	                           "{\"eval_id\": \"c2\", \"conversation\": []}]}", "c1"), 2);
	assert_int_equal(file_runs("{\"id\": \"s9\", \"app_name\": \"a\", \"user_id\": \"u\", "
	                           "\"events\": []}", "s9"), 1);
	struct dataset ds;
	assert_int_equal(fmt_open(&ds, fmt_write("legacy.json",
	                 "[{\"query\": \"a\", \"expected_tool_use\": []},"
	                 " {\"query\": \"b\", \"expected_tool_use\": [{\"tool_name\": \"t\"}]}]")), 1);
	struct run *r = fmt_run_at(&ds, 0, ADK);
	assert_int_equal(r->ncalls, 1);
	run_free(r);
	dataset_close(&ds);
}

static void test_malformed(void **state)
{
	(void)state;
	static const struct fmt_error_case cases[] = {
		{ "12", "a google-adk record must be an object or a list of turns" },
		{ "{'id': 'x', 'app_name': 'a', 'user_id': 'u', 'events': 3}", "events: not an array" },
		{ "{'app_name': 'a', 'user_id': 'u', 'events': [3]}", "events[0]: not an object" },
		{ "{'app_name': 'a', 'user_id': 'u', 'events': [{'author': 5}]}",
		  "events[0].author: not a string" },
		{ "{'app_name': 'a', 'user_id': 'u', 'events': [{'content': 'x'}]}",
		  "events[0].content: not an object" },
		{ "{'app_name': 'a', 'user_id': 'u', 'events': [{'content': {'parts': {}}}]}",
		  "events[0].content.parts: not an array" },
		{ "{'app_name': 'a', 'user_id': 'u', 'events': [{'content': {'parts': [{'text': 5}]}}]}",
		  "events[0].content.parts[0].text: not a string" },
		{ "{'app_name': 'a', 'user_id': 'u', 'events': [{'content': {'parts': ["
		  "{'function_call': {'name': 5}}]}}]}",
		  "events[0].content.parts[0].function_call.name: not a string" },
		{ "{'app_name': 'a', 'user_id': 'u', 'events': [{'content': {'parts': ["
		  "{'function_call': {'name': 'f', 'args': 'x'}}]}}]}",
		  "events[0].content.parts[0].function_call.args: not an object" },
		{ "{'app_name': 'a', 'user_id': 'u', 'events': [{'content': {'parts': ["
		  "{'functionResponse': 'x'}]}}]}",
		  "events[0].content.parts[0].function_response: not an object" },
		{ "{'eval_id': 'c', 'conversation': 'x'}", "conversation: not an array" },
		{ "{'eval_id': 'c', 'conversation': [{'user_content': 'x'}]}",
		  "conversation[0].user_content: not an object" },
		{ "{'eval_id': 'c', 'conversation': [{'intermediate_data': {'tool_uses': {}}}]}",
		  "conversation[0].intermediate_data.tool_uses: not an array" },
		{ "{'eval_id': 'c', 'conversation': [{'intermediate_data': {'tool_uses': [{'id': 3}]}}]}",
		  "conversation[0].intermediate_data.tool_uses[0].id: not a string" },
		{ "{'eval_id': 'c', 'conversation': [{'intermediate_data': {'tool_responses': [7]}}]}",
		  "conversation[0].intermediate_data.tool_responses[0]: not an object" },
		{ "{'eval_id': 'c', 'conversation': [{'intermediate_data': {'intermediate_responses': [1]}}]}",
		  "conversation[0].intermediate_data.intermediate_responses[0]: not an [author, parts] pair" },
		{ "{'eval_id': 'c', 'conversation': [{'intermediate_data': 4}]}",
		  "conversation[0].intermediate_data: not an object" },
		{ "{'eval_set_id': 's', 'eval_cases': [{'eval_id': 'c', 'conversation': [{'final_response': 1}]}]}",
		  "eval_cases[0].conversation[0].final_response: not an object" },
		{ "[{'query': 1, 'expected_tool_use': []}]", "[0].query: not a string" },
		{ "[{'query': 'q', 'expected_tool_use': [{'tool_name': 2}]}]",
		  "[0].expected_tool_use[0].tool_name: not a string" },
		{ "[{'query': 'q', 'expected_tool_use': [{'tool_name': 't', 'tool_input': 2}]}]",
		  "[0].expected_tool_use[0].tool_input: not an object" },
		{ "[{'query': 'q', 'expected_tool_use': 'x'}]", "[0].expected_tool_use: not an array" },
		{ NULL, NULL },
	};
	fmt_expect_errors(ADK, cases);
}

static void test_wild_samples(void **state)
{
	(void)state;
	struct dataset ds;
	struct run *r = fmt_wild_run(&ds, "google-adk/roll_die.test.json", ADK, 1, 1);
	if (!r) {
		skip();
		return;
	}
	assert_string_equal(r->calls[0].name, "roll_die");
	assert_null(r->calls[0].id);
	assert_string_equal(run_first_user_text(r), "Hi who are you?");
	run_free(r);
	dataset_close(&ds);

	r = fmt_wild_run(&ds, "google-adk/simple_multi_turn_conversation.test.json", ADK, 1, 2);
	assert_string_equal(r->calls[1].name, "set_device_info");
	run_free(r);
	dataset_close(&ds);

	r = fmt_wild_run(&ds, "google-adk/trip_inquiry.test.json", ADK, 1, 1);
	assert_string_equal(r->calls[0].name, "transfer_to_agent");
	run_free(r);
	dataset_close(&ds);

	r = fmt_wild_run(&ds, "google-adk/trip_planner_agent-initial.session.json", ADK, 1, 0);
	assert_int_equal(r->nmsgs, 0);
	run_free(r);
	dataset_close(&ds);
	fmt_check_wild(ADK, "google-adk");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_detect),
		cmocka_unit_test(test_session),
		cmocka_unit_test(test_eval_case),
		cmocka_unit_test(test_whole_set),
		cmocka_unit_test(test_legacy),
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_wild_samples),
	};
	return cmocka_run_group_tests(tests, fmt_files_setup, fmt_files_teardown);
}
