/* test_fmt_azure.c - the Azure AI Evaluation input loader.
 *
 * Fixtures are written inline with ' for " (fmt_parse() swaps them back)
 * so they read like the JSON they stand for; a real apostrophe would be
 * \u0027. */
#include "fmt_test.h"

#define AZURE "azure"

extern const struct format_ops format_azure;

/* The flat form Azure's converter writes. */
static const char *const FLAT =
	"{'query':["
	"   {'role':'system','content':'あなたは通販サイトのアシスタントです。'},"
	"   {'createdAt':'2026-01-05T10:00:00Z','role':'user',"
	"    'content':[{'type':'text','text':'注文 1042 はどこですか？'}]}],"
	" 'response':["
	"   {'createdAt':'2026-01-05T10:00:01Z','run_id':'run_7','role':'assistant',"
	"    'content':[{'type':'text','text':'お調べします。'},"
	"      {'type':'tool_call','tool_call_id':'call_a1','name':'get_order','arguments':{'order_id':'1042'}}]},"
	"   {'createdAt':'2026-01-05T10:00:02Z','run_id':'run_7','role':'tool','tool_call_id':'call_a1',"
	"    'content':[{'type':'tool_result','tool_result':{'status':'shipped','tracking':'JD014'}}]},"
	"   {'run_id':'run_7','role':'assistant',"
	"    'content':[{'type':'tool_call','tool_call_id':'call_a2','name':'track_parcel','arguments':{'tracking':'JD014'}}]},"
	"   {'run_id':'run_7','role':'tool','tool_call_id':'call_a2',"
	"    'content':[{'type':'tool_result','tool_result':'Error: upstream timeout'}]},"
	"   {'run_id':'run_7','role':'assistant',"
	"    'content':[{'type':'output_text','text':'已发货；追踪暂时不可用。'}]}],"
	" 'tool_definitions':["
	"   {'name':'get_order','type':'function','description':'Look up an order',"
	"    'parameters':{'type':'object','properties':{'order_id':{'type':'string'}}}},"
	"   {'name':'track_parcel','type':'function','parameters':{'type':'object'}}]}";

static const char *const OPENAI_CHAT =
	"{'messages':["
	"  {'role':'user','content':'Where is my order 1042?'},"
	"  {'role':'assistant','content':null,'tool_calls':["
	"    {'id':'call_a1','type':'function','function':{'name':'get_order','arguments':'{}'}}]},"
	"  {'role':'tool','tool_call_id':'call_a1','content':'shipped'}]}";

static const char *const ANTHROPIC =
	"{'system':'You are a shop assistant.','messages':["
	"  {'role':'user','content':'Where is my order 1042?'},"
	"  {'role':'assistant','content':[{'type':'tool_use','id':'toolu_01','name':'get_order','input':{'order_id':'1042'}}]},"
	"  {'role':'user','content':[{'type':'tool_result','tool_use_id':'toolu_01','content':'shipped'}]}]}";

static void test_detect(void **state)
{
	assert_int_equal(fmt_score(AZURE, FLAT), 80);
	assert_ptr_equal(fmt_detect(FLAT), &format_azure);

	assert_int_equal(fmt_score(AZURE, "{'query':'hi','tool_definitions':[]}"), 60);
	assert_ptr_equal(fmt_detect("{'query':'hi','tool_definitions':[]}"), &format_azure);
	assert_int_equal(fmt_score(AZURE, "{'query':'hi','tool_calls':[]}"), 60);

	const char *not_mine[] = {
		OPENAI_CHAT, ANTHROPIC,
		"{'query':'hi'}",
		"{'response':'hello','tool_definitions':[]}",
		"[{'query':'hi','response':'x'}]",
		"{'traj':[],'task_id':1}",
		"{'messages':[],'reward_info':{}}",
	};
	for (size_t i = 0; i < sizeof(not_mine) / sizeof(not_mine[0]); i++)
		assert_int_equal(fmt_score(AZURE, not_mine[i]), 0);
}

static void test_flat(void **state)
{
	struct run *r = fmt_load(FLAT, AZURE);
	assert_int_equal(r->nmsgs, 7);
	assert_int_equal(r->msgs[0].role, ROLE_SYSTEM);
	assert_int_equal(r->msgs[0].origin, MSG_IN_INPUT);
	assert_int_equal(r->msgs[1].role, ROLE_USER);
	assert_int_equal(r->msgs[1].origin, MSG_IN_INPUT);
	assert_int_equal(r->msgs[1].src_index, 1);
	assert_string_equal(r->msgs[1].text, "注文 1042 はどこですか？");
	for (size_t i = 2; i < 7; i++) {
		assert_int_equal(r->msgs[i].origin, MSG_IN_OUTPUT);
		assert_int_equal(r->msgs[i].src_index, (long)i - 2);
	}
	assert_int_equal(r->msgs[2].role, ROLE_ASSISTANT);
	assert_string_equal(r->msgs[2].text, "お調べします。");
	assert_int_equal(r->msgs[3].role, ROLE_TOOL);
	assert_true(r->msgs[3].is_tool_output);
	assert_string_equal(r->msgs[3].answers_call_id, "call_a1");
	assert_string_equal(run_final_agent_text(r), "已发货；追踪暂时不可用。");
	assert_string_equal(run_first_user_text(r), "注文 1042 はどこですか？");

	assert_int_equal(r->ncalls, 2);
	struct run_call *c = &r->calls[0];
	assert_string_equal(c->id, "call_a1");
	assert_string_equal(c->name, "get_order");
	assert_string_equal(jv_str(r->doc, c->raw_id), "call_a1");
	assert_string_equal(jv_str(r->doc, c->raw_name), "get_order");
	assert_string_equal(json_string_value(json_object_get(run_call_args(r, c), "order_id")), "1042");
	assert_int_equal(c->msg_index, 2);
	assert_int_equal(c->src_msg_index, 0);
	assert_int_equal(c->requestor, REQ_AGENT);
	assert_true(c->has_result);
	assert_int_equal(c->state, CALL_COMPLETED);
	assert_int_equal(c->result_msg, 3);
	assert_string_equal(json_string_value(json_object_get(run_call_result(r, c), "tracking")), "JD014");

	/* No error flag in Azure: the "Error" text decides. */
	c = &r->calls[1];
	assert_true(c->is_error);
	assert_int_equal(c->state, CALL_FAILED);
	assert_string_equal(c->error_text, "Error: upstream timeout");

	assert_true(jv_is_array(r->doc, r->tool_defs));
	assert_int_equal(jv_len(r->doc, r->tool_defs), 2);
	assert_int_equal(json_array_size(run_tool_defs(r)), 2);
	assert_int_equal(fmt_count_unmatched(r), 0);
	assert_int_equal(run_agent_calls(r, NULL), 2);
	run_free(r);
}

static void test_nested_and_string_args(void **state)
{
	struct run *r = fmt_load("{'query':[{'role':'user','content':'查一下订单'}],"
	    " 'response':[{'role':'assistant','content':["
	    "   {'type':'tool_call','tool_call':{'id':'n1','type':'function',"
	    "     'function':{'name':'get_order','arguments':{'order_id':'7'}}}},"
	    "   {'type':'tool_call','tool_call':{'id':'n2','type':'function',"
	    "     'function':{'name':'get_user','arguments':'{\\'user_id\\': \\'王芳\\'}'}}},"
	    "   {'type':'tool_call','tool_call_id':'f3','name':'broken','arguments':'{oops'}]},"
	    "  {'role':'tool','tool_call_id':'n2','content':[{'type':'tool_result','tool_result':[1,2]}]},"
	    "  {'role':'tool','tool_call_id':'n1','content':[{'type':'tool_result','tool_result':'Errorless'}]}]}", AZURE);
	assert_int_equal(r->ncalls, 3);
	assert_int_equal(r->msgs[1].ncalls, 3);
	struct run_call *c = &r->calls[0];
	assert_string_equal(c->id, "n1");
	assert_string_equal(c->name, "get_order");
	assert_string_equal(json_string_value(json_object_get(run_call_args(r, c), "order_id")), "7");
	assert_true(c->has_result);
	/* "Error" is a prefix test, as documented. */
	assert_true(c->is_error);
	c = &r->calls[1];
	assert_string_equal(c->name, "get_user");
	assert_string_equal(json_string_value(json_object_get(run_call_args(r, c), "user_id")), "王芳");
	assert_true(jv_is_array(r->doc, c->result));
	assert_int_equal(json_array_size(run_call_result(r, c)), 2);
	assert_false(c->is_error);
	c = &r->calls[2];
	assert_true(run_call_args_invalid(r, c));
	assert_null(run_call_args(r, c));
	assert_string_equal(run_call_args_text(r, c), "{oops");
	assert_false(c->has_result);
	assert_int_equal(c->state, CALL_REQUESTED);
	run_free(r);
}

static void test_responses_items(void **state)
{
	/* function_call / openapi_call are renamed to tool_call by Azure; the
	 * Responses-style output names its call on the item. */
	struct run *r = fmt_load("{'query':'天気は？','response':["
	    " {'role':'assistant','content':["
	    "   {'type':'function_call','id':'fc_1','call_id':'call_w','name':'weather','arguments':'{\\'city\\':\\'東京\\'}'},"
	    "   {'type':'openapi_call','tool_call_id':'call_o','name':'forecast','arguments':{'days':3}}]},"
	    " {'role':'tool','content':[{'type':'function_call_output','call_id':'call_w','function_call_output':'晴れ'}]},"
	    " {'role':'tool','tool_call_id':'call_o','content':[{'type':'openapi_call_output','output':{'d1':'雨'}}]},"
	    " {'role':'assistant','content':[{'type':'input_text','text':'東京は晴れです。'}]}]}", AZURE);
	assert_int_equal(r->nmsgs, 5);
	assert_int_equal(r->msgs[0].role, ROLE_USER);
	assert_int_equal(r->msgs[0].origin, MSG_IN_INPUT);
	assert_string_equal(r->msgs[0].text, "天気は？");
	assert_int_equal(r->ncalls, 2);
	assert_string_equal(r->calls[0].id, "call_w");
	assert_string_equal(json_string_value(json_object_get(run_call_args(r, &r->calls[0]), "city")), "東京");
	assert_string_equal(jv_str(r->doc, r->calls[0].result), "晴れ");
	assert_int_equal(r->calls[0].result_msg, 2);
	assert_string_equal(r->calls[1].id, "call_o");
	assert_string_equal(r->calls[1].name, "forecast");
	assert_string_equal(json_string_value(json_object_get(run_call_result(r, &r->calls[1]), "d1")), "雨");
	assert_string_equal(run_final_agent_text(r), "東京は晴れです。");
	run_free(r);
}

static void test_mcp_approval_dropped(void **state)
{
	struct run *r = fmt_load("{'query':'run it','response':["
	    " {'role':'assistant','content':[{'type':'mcp_approval_request','id':'ap1','name':'deploy'}]},"
	    " {'role':'tool','tool_call_id':'ap1','content':[{'type':'mcp_approval_response','approve':true}]},"
	    " {'role':'assistant','content':[{'type':'tool_call','tool_call_id':'t1','name':'deploy','arguments':{}}]},"
	    " {'role':'tool','tool_call_id':'t1','content':[{'type':'tool_result','tool_result':'ok'}]}]}", AZURE);
	assert_int_equal(r->nmsgs, 3);
	assert_int_equal(r->msgs[1].src_index, 2);
	assert_int_equal(r->ncalls, 1);
	assert_true(r->calls[0].has_result);
	assert_int_equal(fmt_count_unmatched(r), 0);
	run_free(r);
}

static void test_string_response_and_tool_calls(void **state)
{
	/* With a string response the top-level tool_calls are the calls: one
	 * assistant message after the response text, results inline. */
	struct run *r = fmt_load("{'query':'我的包裹在哪？','response':'包裹已发货。',"
	    " 'tool_calls':["
	    "   {'type':'tool_call','tool_call_id':'c1','name':'get_order','arguments':{'order_id':'1042'},"
	    "    'tool_result':{'status':'shipped'}},"
	    "   {'type':'tool_call','tool_call_id':'c2','name':'track_parcel','arguments':{},"
	    "    'tool_result':'Error: timeout'},"
	    "   {'type':'tool_call','tool_call_id':'c3','name':'notify','arguments':{}}],"
	    " 'tool_definitions':{'name':'get_order','parameters':{'type':'object'}}}", AZURE);
	assert_int_equal(r->nmsgs, 3);
	assert_int_equal(r->msgs[0].role, ROLE_USER);
	assert_int_equal(r->msgs[0].origin, MSG_IN_INPUT);
	assert_string_equal(r->msgs[0].text, "我的包裹在哪？");
	assert_int_equal(r->msgs[1].role, ROLE_ASSISTANT);
	assert_int_equal(r->msgs[1].origin, MSG_IN_OUTPUT);
	assert_string_equal(r->msgs[1].text, "包裹已发货。");
	assert_int_equal(r->msgs[1].ncalls, 0);
	assert_int_equal(r->msgs[2].role, ROLE_ASSISTANT);
	assert_int_equal(r->msgs[2].origin, MSG_IN_OUTPUT);
	assert_int_equal(r->msgs[2].ncalls, 3);
	assert_int_equal(r->calls[0].src_msg_index, -1);
	assert_true(r->calls[0].has_result);
	assert_int_equal(r->calls[0].result_msg, -1);
	assert_int_equal(r->calls[0].state, CALL_COMPLETED);
	assert_true(r->calls[1].is_error);
	assert_false(r->calls[2].has_result);
	assert_true(jv_is_object(r->doc, r->tool_defs));
	assert_true(json_is_object(run_tool_defs(r)));
	assert_int_equal(run_agent_calls(r, NULL), 3);
	assert_string_equal(run_final_agent_text(r), "包裹已发货。");
	run_free(r);

	/* A single call object, no response at all. */
	r = fmt_load("{'query':'hi','tool_definitions':[],"
	            " 'tool_calls':{'type':'tool_call','tool_call_id':'s','name':'ping','arguments':{}}}", AZURE);
	assert_int_equal(r->nmsgs, 2);
	assert_int_equal(r->ncalls, 1);
	assert_string_equal(r->calls[0].name, "ping");
	run_free(r);
}

static void test_response_list_wins(void **state)
{
	/* Calls parsed from a response list replace tool_calls ... */
	struct run *r = fmt_load("{'query':'q','response':["
	    " {'role':'assistant','content':[{'type':'tool_call','tool_call_id':'r1','name':'from_response','arguments':{}}]}],"
	    " 'tool_calls':[{'type':'tool_call','tool_call_id':'t1','name':'from_tool_calls','arguments':{}}]}", AZURE);
	assert_int_equal(r->ncalls, 1);
	assert_string_equal(r->calls[0].name, "from_response");
	assert_int_equal(r->nmsgs, 2);
	run_free(r);
	/* ... but when the list has none, Azure falls back to tool_calls. */
	r = fmt_load("{'query':'q','response':[{'role':'assistant','content':'just text'}],"
	    " 'tool_calls':[{'type':'tool_call','tool_call_id':'t1','name':'from_tool_calls','arguments':{}}]}", AZURE);
	assert_int_equal(r->ncalls, 1);
	assert_string_equal(r->calls[0].name, "from_tool_calls");
	assert_int_equal(r->calls[0].msg_index, 2);
	run_free(r);
}

static void test_unmatched_and_reused(void **state)
{
	struct run *r = fmt_load("{'query':[{'role':'user','content':'x'}],'response':["
	    " {'role':'assistant','content':[{'type':'tool_call','tool_call_id':'d','name':'a','arguments':{}}]},"
	    " {'role':'assistant','content':[{'type':'tool_call','tool_call_id':'d','name':'b','arguments':{}}]},"
	    " {'role':'tool','tool_call_id':'d','content':[{'type':'tool_result','tool_result':'for b'}]},"
	    " {'role':'tool','tool_call_id':'d','content':[{'type':'tool_result','tool_result':'for a'}]},"
	    " {'role':'tool','tool_call_id':'nobody','content':[{'type':'tool_result','tool_result':'lost'}]},"
	    " {'role':'tool','content':'no id at all'},"
	    " {'role':'tool','tool_call_id':'e','content':'plain text result'},"
	    " {'role':'tool','content':[{'type':'function_call_output','id':'d','output':'own id only'}]}]}", AZURE);
	assert_string_equal(jv_str(r->doc, r->calls[1].result), "for b");
	assert_string_equal(json_string_value(run_call_result(r, &r->calls[0])), "for a");
	assert_true(r->msgs[5].unmatched_result);
	assert_true(r->msgs[6].unmatched_result);
	assert_true(r->msgs[6].is_tool_output);
	assert_true(r->msgs[7].unmatched_result);
	assert_string_equal(jv_str(r->doc, r->msgs[7].result), "plain text result");
	/* An output item's own id is not a call id. */
	assert_true(r->msgs[8].unmatched_result);
	assert_int_equal(fmt_count_unmatched(r), 4);
	run_free(r);
}

static void test_query_calls_are_input(void **state)
{
	/* Calls inside the query are context: loaded, tagged as input. */
	struct run *r = fmt_load("{'query':["
	    " {'role':'user','content':'earlier'},"
	    " {'role':'assistant','content':[{'type':'tool_call','tool_call_id':'q1','name':'old','arguments':{}}]},"
	    " {'role':'tool','tool_call_id':'q1','content':[{'type':'tool_result','tool_result':'old result'}]},"
	    " {'role':'user','content':'now'}],"
	    " 'response':[{'role':'assistant','content':[{'type':'tool_call','tool_call_id':'r1','name':'new','arguments':{}}]}]}", AZURE);
	assert_int_equal(r->ncalls, 2);
	assert_int_equal(r->msgs[r->calls[0].msg_index].origin, MSG_IN_INPUT);
	assert_true(r->calls[0].has_result);
	assert_int_equal(r->msgs[r->calls[1].msg_index].origin, MSG_IN_OUTPUT);
	run_free(r);
}

static void test_escapes_kept(void **state)
{
	struct run *r = fmt_load("{'query':'a\\tb \\u00fc \\\\n','response':'line1\\nline2 \\'q\\''}", AZURE);
	assert_string_equal(r->msgs[0].text, "a\tb ü \\n");
	assert_string_equal(r->msgs[1].text, "line1\nline2 \"q\"");
	run_free(r);
}

static void test_malformed(void **state)
{
	fmt_expect_error(AZURE, "[1]", "an Azure evaluation input must be a JSON object");
	fmt_expect_error(AZURE, "{'response':'x'}", "query: missing");
	fmt_expect_error(AZURE, "{'query':null,'response':'x'}", "query: missing");
	fmt_expect_error(AZURE, "{'query':5,'response':'x'}", "query: not a string or a list");
	fmt_expect_error(AZURE, "{'query':'q','response':{'role':'assistant'}}", "response: not a string or a list");
	fmt_expect_error(AZURE, "{'query':'q','response':[{'role':'assistant','content':'a'},[]]}",
	             "response[1]: not an object");
	fmt_expect_error(AZURE, "{'query':[{'content':'a'}],'response':'x'}", "query[0].role: missing or not a string");
	fmt_expect_error(AZURE, "{'query':[{'role':'wizard','content':'a'}],'response':'x'}",
	             "query[0].role: unknown role \"wizard\"");
	fmt_expect_error(AZURE, "{'query':'q','response':[{'role':'assistant','content':{'type':'text'}}]}",
	             "response[0].content: not a string, a list or null");
	fmt_expect_error(AZURE, "{'query':'q','response':[{'role':'assistant','content':[{'type':'text','text':'a'},3]}]}",
	             "response[0].content[1]: not an object");
	fmt_expect_error(AZURE, "{'query':'q','response':[{'role':'assistant','content':[{'type':'tool_call','tool_call':'x'}]}]}",
	             "response[0].content[0].tool_call: not an object");
	fmt_expect_error(AZURE, "{'query':'q','response':[{'role':'assistant','content':[{'type':'tool_call','tool_call':{'id':'a','function':[]}}]}]}",
	             "response[0].content[0].tool_call.function: not an object");
	fmt_expect_error(AZURE, "{'query':'q','response':[{'role':'assistant','content':[{'type':'tool_call','tool_call_id':'a','name':'f','arguments':7}]}]}",
	             "response[0].content[0].arguments: not an object or a string");
	fmt_expect_error(AZURE, "{'query':'q','response':[{'role':'assistant','content':[{'type':'tool_call','tool_call_id':1,'name':'f'}]}]}",
	             "response[0].content[0].tool_call_id: not a string");
	fmt_expect_error(AZURE, "{'query':'q','response':[{'role':'assistant','content':[{'type':'tool_call','tool_call_id':'a','name':true}]}]}",
	             "response[0].content[0].name: not a string");
	fmt_expect_error(AZURE, "{'query':'q','response':[{'role':'tool','tool_call_id':2,'content':'x'}]}",
	             "response[0].tool_call_id: not a string");
	fmt_expect_error(AZURE, "{'query':'q','response':[{'role':'tool','content':[{'type':'function_call_output','call_id':3}]}]}",
	             "response[0].content[0].call_id: not a string");
	fmt_expect_error(AZURE, "{'query':'q','tool_calls':'get_order'}", "tool_calls: not an object or a list");
	fmt_expect_error(AZURE, "{'query':'q','tool_calls':[{'name':'a'},null]}", "tool_calls[1]: not an object");
	fmt_expect_error(AZURE, "{'query':'q','tool_calls':[{'name':'a','arguments':1}]}",
	             "tool_calls[0].arguments: not an object or a string");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_detect),
		cmocka_unit_test(test_flat),
		cmocka_unit_test(test_nested_and_string_args),
		cmocka_unit_test(test_responses_items),
		cmocka_unit_test(test_mcp_approval_dropped),
		cmocka_unit_test(test_string_response_and_tool_calls),
		cmocka_unit_test(test_response_list_wins),
		cmocka_unit_test(test_unmatched_and_reused),
		cmocka_unit_test(test_query_calls_are_input),
		cmocka_unit_test(test_escapes_kept),
		cmocka_unit_test(test_malformed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
