/* test_fmt_gemini.c - Gemini generateContent responses and histories.
 * There is no shared sample: the fixtures follow the public API's shape
 * (Content {role, parts}; Part {text, thought?, thoughtSignature?} |
 * {functionCall {name, args, id?}} | {functionResponse {name, response,
 * id?}}). */
#include "fmt_test.h"

#define GEM "gemini"

static const char *const parallel =
	"{'candidates': [{'content': {'role': 'model', 'parts': ["
	"   {'text': 'which orders first', 'thought': true},"
	"   {'text': '調べます。', 'thoughtSignature': 'c2ln'},"
	"   {'functionCall': {'name': 'lookup_order', 'args': {'order': '2087'}}},"
	"   {'functionCall': {'name': 'lookup_order', 'args': {'order': '2088'}}}]},"
	"  'finishReason': 'STOP', 'index': 0},"
	"  {'content': {'role': 'model', 'parts': [{'text': '已发货 📦'}, {'text': '2088 未找到'}]},"
	"   'finishReason': 'STOP', 'index': 1},"
	"  {'finishReason': 'SAFETY', 'index': 2}],"
	" 'usageMetadata': {'promptTokenCount': 30, 'totalTokenCount': 39},"
	" 'modelVersion': 'gemini-2.5-pro'}";

static const char *const history =
	"{'model': 'models/gemini-2.0-flash',"
	" 'systemInstruction': {'parts': [{'text': 'You are a shop assistant.'}, {'text': 'Be brief.'}]},"
	" 'tools': [{'functionDeclarations': [{'name': 'lookup_order'}, {'name': 'track_parcel'}]}],"
	" 'contents': ["
	"  {'role': 'user', 'parts': [{'text': '注文 2087 と 2088 はどこですか？'}]},"
	"  {'role': 'model', 'parts': ["
	"    {'functionCall': {'name': 'lookup_order', 'args': {'order': '2087'}}},"
	"    {'functionCall': {'name': 'lookup_order', 'args': {'order': '2088'}}}]},"
	"  {'role': 'user', 'parts': ["
	"    {'functionResponse': {'name': 'lookup_order', 'response': {'output': 'shipped'}}},"
	"    {'functionResponse': {'name': 'lookup_order', 'response': {'error': 'order not found'}}}]},"
	"  {'role': 'model', 'parts': ["
	"    {'functionCall': {'id': 'fc-7', 'name': 'track_parcel', 'args': {'tracking': 'SF88'}}},"
	"    {'functionCall': {'name': 'track_parcel'}}]},"
	"  {'role': 'function', 'parts': ["
	"    {'functionResponse': {'id': 'fc-7', 'name': 'track_parcel', 'response': {'where': 'Osaka'}}},"
	"    {'text': 'ついでに'}]},"
	"  {'role': 'user', 'parts': ["
	"    {'functionResponse': {'name': 'cancel_order', 'response': {}}}]},"
	"  {'parts': [{'text': 'no role'}]},"
	"  {'role': 'model', 'parts': [{'text': '2087 已发货 📦'}]}]}";

static void test_detect(void **state)
{
	(void)state;
	assert_int_equal(fmt_score(GEM, parallel), 50);
	assert_int_equal(fmt_score(GEM, history), 45);
	assert_int_equal(fmt_score(GEM, "{'candidates': []}"), 0);
	assert_int_equal(fmt_score(GEM, "{'contents': []}"), 0);
	/* A request wrapped in {request: ...} is out of scope. */
	assert_int_equal(fmt_score(GEM, "{'request': {'contents': [{'role': 'user', 'parts': [{'text': 'x'}]}]}}"),
	                 0);
	/* AI SDK / Mastra messages carry parts too, with ids and content. */
	assert_int_equal(fmt_score(GEM, "{'contents': [{'id': 'm1', 'role': 'user', 'parts': []}]}"), 0);
	assert_int_equal(fmt_score(GEM, "{'contents': [{'role': 'user', 'content': 'x'}]}"), 0);
	assert_int_equal(fmt_score(GEM, "{'candidates': [{'content': 'x'}]}"), 0);
	assert_int_equal(fmt_score(GEM, "{'messages': [], 'contents': [{'parts': []}]}"), 0);
	/* No other loader reads them. */
	assert_string_equal(fmt_detect(parallel)->name, GEM);
	assert_string_equal(fmt_detect(history)->name, GEM);
}

static void test_response_candidates(void **state)
{
	(void)state;
	struct run *r = fmt_load(parallel, GEM);
	assert_string_equal(r->model, "gemini-2.5-pro");
	/* One message per candidate, the blocked one too. */
	assert_int_equal(r->nmsgs, 3);
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(r->msgs[i].role, ROLE_ASSISTANT);
		assert_int_equal(r->msgs[i].src_index, (long)i);
	}
	/* The thought part is not text. */
	assert_string_equal(r->msgs[0].text, "調べます。");
	assert_string_equal(r->msgs[1].text, "已发货 📦\n2088 未找到");
	assert_string_equal(r->msgs[2].text, "");
	/* Parallel calls, no ids. */
	assert_int_equal(r->ncalls, 2);
	assert_null(r->calls[0].id);
	assert_string_equal(r->calls[1].name, "lookup_order");
	assert_int_equal(r->calls[1].index_in_msg, 1);
	json_t *a = run_call_args(r, &r->calls[1]);
	assert_string_equal(json_string_value(json_object_get(a, "order")), "2088");
	assert_int_equal(r->calls[0].state, CALL_REQUESTED);
	assert_int_equal(run_agent_calls(r, NULL), 2);
	run_free(r);
}

static void test_history(void **state)
{
	(void)state;
	struct run *r = fmt_load(history, GEM);
	assert_string_equal(r->model, "models/gemini-2.0-flash");
	assert_non_null(run_tool_defs(r));
	/* system, user, model, tool, tool, model, tool, user text, tool,
	 * user (no role), model */
	static const enum run_role roles[] = { ROLE_SYSTEM, ROLE_USER, ROLE_ASSISTANT, ROLE_TOOL,
	                                       ROLE_TOOL, ROLE_ASSISTANT, ROLE_TOOL, ROLE_USER,
	                                       ROLE_TOOL, ROLE_USER, ROLE_ASSISTANT };
	assert_int_equal(r->nmsgs, sizeof roles / sizeof *roles);
	for (size_t i = 0; i < r->nmsgs; i++)
		assert_int_equal(r->msgs[i].role, roles[i]);
	assert_string_equal(r->msgs[0].text, "You are a shop assistant.\nBe brief.");
	assert_string_equal(run_first_user_text(r), "注文 2087 と 2088 はどこですか？");
	assert_string_equal(r->msgs[7].text, "ついでに");
	assert_int_equal(r->ncalls, 4);
	/* Parallel calls of one function are answered in the order made. */
	assert_int_equal(r->calls[0].state, CALL_COMPLETED);
	assert_int_equal(r->calls[0].result_msg, 3);
	assert_int_equal(r->calls[1].state, CALL_FAILED);
	assert_int_equal(r->calls[1].result_msg, 4);
	assert_string_equal(r->calls[1].error_text, "order not found");
	/* By id when given: fc-7 is the first of two track_parcel calls. */
	assert_string_equal(r->calls[2].id, "fc-7");
	assert_int_equal(r->calls[2].result_msg, 6);
	json_t *res = run_call_result(r, &r->calls[2]);
	assert_string_equal(json_string_value(json_object_get(res, "where")), "Osaka");
	/* The second waits; a call without args has none. */
	assert_false(r->calls[3].has_result);
	assert_null(run_call_args(r, &r->calls[3]));
	/* cancel_order was never called. */
	assert_true(r->msgs[8].unmatched_result);
	assert_int_equal(fmt_count_unmatched(r), 1);
	assert_string_equal(run_final_agent_text(r), "2087 已发货 📦");
	run_free(r);
}

static void test_edges(void **state)
{
	(void)state;
	/* A name-only response goes to the nearest turn that has the call. */
	struct run *r = fmt_load("{'contents': ["
	                         " {'role': 'model', 'parts': [{'functionCall': {'name': 'f', 'args': {'n': 1}}}]},"
	                         " {'role': 'model', 'parts': [{'functionCall': {'name': 'f', 'args': {'n': 2}}}]},"
	                         " {'role': 'user', 'parts': [{'functionResponse': {'name': 'f', 'response': {}}}]},"
	                         " {'role': 'user', 'parts': [{'functionResponse': {'name': 'f', 'response': {}}}]}]}",
	                         GEM);
	assert_int_equal(r->calls[1].result_msg, 2);
	assert_int_equal(r->calls[0].result_msg, 3);
	run_free(r);
	/* An id that names no call is not matched by name instead. */
	r = fmt_load("{'contents': ["
	             " {'role': 'model', 'parts': [{'functionCall': {'name': 'f'}}]},"
	             " {'role': 'user', 'parts': [{'functionResponse': {'id': 'x', 'name': 'f', 'response': {}}}]}]}",
	             GEM);
	assert_false(r->calls[0].has_result);
	assert_int_equal(fmt_count_unmatched(r), 1);
	run_free(r);
	/* Empty parts, a string system instruction, unknown part kinds. */
	r = fmt_load("{'systemInstruction': 'Be brief.', 'contents': [{'role': 'user', 'parts': []},"
	             " {'role': 'model', 'parts': [{'executableCode': {'language': 'PYTHON', 'code': '1'}},"
	             "   {'inlineData': {'mimeType': 'image/png', 'data': ''}}]}]}", GEM);
	assert_int_equal(r->nmsgs, 3);
	assert_string_equal(r->msgs[0].text, "Be brief.");
	assert_string_equal(r->msgs[2].text, "");
	/* The code run is the hosted code tool's call; the image a note. */
	assert_int_equal(r->ncalls, 1);
	assert_string_equal(r->calls[0].name, "code_execution");
	assert_string_equal(fmt_parts(r, 2), "call note");
	assert_string_equal(r->parts[r->msgs[2].first_part + 1].text, "inline data image/png");
	run_free(r);
	/* Cut off while thinking: a content of nothing but its role. */
	const char *cut = "{'candidates': [{'content': {'role': 'model'}, 'finishReason': 'MAX_TOKENS'}],"
	                  " 'modelVersion': 'gemini-2.5-flash'}";
	assert_int_equal(fmt_score(GEM, cut), 50);
	r = fmt_load(cut, GEM);
	assert_int_equal(r->nmsgs, 1);
	assert_string_equal(r->msgs[0].text, "");
	run_free(r);
}

/* Parts in their order: thinking apart, the summary after the calls, the
 * hosted code tool with its code and result, unknown parts noted. */
static void test_parts_in_order(void **state)
{
	(void)state;
	struct run *r = fmt_load(parallel, GEM);
	assert_string_equal(fmt_parts(r, 0), "thinking text call call");
	assert_string_equal(r->parts[r->msgs[0].first_part].text, "which orders first");
	assert_string_equal(fmt_parts(r, 1), "text text");
	assert_string_equal(fmt_parts(r, 2), "");
	run_free(r);

	r = fmt_load("{'contents': [{'role': 'user', 'parts': [{'text': 'sum?'}]},"
	             " {'role': 'model', 'parts': [{'text': 'computing', 'thought': true},"
	             "   {'text': '調べます。'},"
	             "   {'executableCode': {'language': 'PYTHON', 'code': 'print(1+1)'}},"
	             "   {'codeExecutionResult': {'outcome': 'OUTCOME_OK', 'output': '2'}},"
	             "   {'executableCode': {'language': 'PYTHON', 'code': '1/0'}},"
	             "   {'codeExecutionResult': {'outcome': 'OUTCOME_FAILED', 'output': 'ZeroDivisionError'}},"
	             "   {'functionCall': {'name': 'lookup', 'args': {}}},"
	             "   {'videoMetadata': {}},"
	             "   {'text': '2 です'}]}]}", GEM);
	assert_string_equal(fmt_parts(r, 1), "thinking text call call call note text");
	assert_string_equal(r->msgs[1].text, "調べます。\n2 です");
	struct run_call *c = r->calls;
	assert_int_equal(r->ncalls, 3);
	assert_string_equal(c[0].name, "code_execution");
	assert_string_equal(json_string_value(json_object_get(run_call_args(r, &c[0]), "code")),
	                    "print(1+1)");
	assert_int_equal(c[0].state, CALL_COMPLETED);
	assert_string_equal(json_string_value(json_object_get(run_call_result(r, &c[0]), "output")), "2");
	assert_int_equal(c[1].state, CALL_FAILED);
	assert_string_equal(c[1].error_text, "ZeroDivisionError");
	assert_int_equal(c[2].state, CALL_REQUESTED);
	assert_string_equal(r->parts[r->msgs[1].first_part + 5].text,
	                    "a part with no text, call or data (not read)");
	run_free(r);
}

static void test_malformed(void **state)
{
	(void)state;
	static const struct fmt_error_case cases[] = {
		{ "[]", "a gemini record must be an object" },
		{ "{'x': 1}", "contents: missing" },
		{ "{'contents': {}}", "contents: not an array" },
		{ "{'candidates': 3}", "candidates: not an array" },
		{ "{'candidates': [1]}", "candidates[0]: not an object" },
		{ "{'candidates': [{'content': 'x'}]}", "candidates[0].content: not an object" },
		{ "{'candidates': [{'content': {'parts': {}}}]}",
		  "candidates[0].content.parts: not an array" },
		{ "{'contents': [{'role': 1, 'parts': []}]}", "contents[0].role: not a string" },
		{ "{'contents': [{'parts': [1]}]}", "contents[0].parts[0]: not an object" },
		{ "{'contents': [{'parts': [{'text': 2}]}]}", "contents[0].parts[0].text: not a string" },
		{ "{'contents': [{'parts': []}, {'parts': [{'functionCall': 'f'}]}]}",
		  "contents[1].parts[0].functionCall: not an object" },
		{ "{'contents': [{'parts': [{'functionCall': {'name': 3}}]}]}",
		  "contents[0].parts[0].functionCall.name: not a string" },
		{ "{'contents': [{'parts': [{'functionCall': {'name': 'f', 'args': '{}'}}]}]}",
		  "contents[0].parts[0].functionCall.args: not an object" },
		{ "{'contents': [{'parts': [{'functionResponse': {'name': 'f', 'id': 4}}]}]}",
		  "contents[0].parts[0].functionResponse.id: not a string" },
		{ "{'systemInstruction': 3, 'contents': []}", "systemInstruction: not an object" },
		{ "{'systemInstruction': {'parts': [{'text': 1}]}, 'contents': []}",
		  "systemInstruction.parts[0].text: not a string" },
		{ NULL, NULL },
	};
	fmt_expect_errors(GEM, cases);
}

/* The wild folder has no Gemini file; the loader claims none of it. */
static void test_wild_claims(void **state)
{
	(void)state;
	fmt_check_wild(GEM, "gemini");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_detect),
		cmocka_unit_test(test_response_candidates),
		cmocka_unit_test(test_history),
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_parts_in_order),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_wild_claims),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
