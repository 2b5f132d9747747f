/* test_fmt_tau2.c - the tau2-bench SimulationRun loader.
 *
 * Fixtures are written inline with ' for " (fmt_parse() swaps them back)
 * so they read like the JSON they stand for; a real apostrophe would be
 * \u0027. */
#include "fmt_test.h"
#include "util/error.h"

#define TAU2 "tau2"

extern const struct format_ops format_tau2;

static const char *const TELECOM =
	"{'id':'sim-0001','task_id':'[roaming]abroad_off','trial':0,'seed':7,"
	" 'termination_reason':'user_stop','reward_info':{'reward':1.0,'reward_basis':['ENV_ASSERTION']},"
	" 'info':{'agent_info':{'llm':'gpt-4.1-mini'}},"
	" 'messages':["
	"  {'role':'assistant','content':'こんにちは！ご用件をどうぞ。','tool_calls':null,'turn_idx':0},"
	"  {'role':'user','content':'海外でモバイルデータが使えません。','tool_calls':null,'turn_idx':1},"
	"  {'role':'assistant','content':'確認します。','turn_idx':2,'tool_calls':["
	"    {'id':'call_1','name':'get_customer_by_phone','arguments':{'phone_number':'555-0101'},'requestor':'assistant'},"
	"    {'id':'call_2','name':'get_line_details','arguments':'{\\'line_id\\': \\'L1\\'}','requestor':'assistant'}],"
	"   'raw_data':{'message':{'tool_calls':[{'id':'call_1','function':{'name':'get_customer_by_phone','arguments':'{}'}}]}}},"
	"  {'role':'tool','id':'call_1','content':'{\\'customer_id\\': \\'C7\\'}','requestor':'assistant','error':false,'turn_idx':3},"
	"  {'role':'tool','id':'call_2','content':'Line L1 not found','requestor':'assistant','error':true,'turn_idx':4},"
	"  {'role':'assistant','content':'请打开数据漫游。','tool_calls':null,'turn_idx':5},"
	"  {'role':'user','content':null,'turn_idx':6,'tool_calls':["
	"    {'id':'call_u1','name':'toggle_roaming','arguments':{},'requestor':'user'}]},"
	"  {'role':'tool','id':'call_u1','content':'Roaming is now ON','requestor':'user','error':false,'turn_idx':7},"
	"  {'role':'assistant','content':null,'turn_idx':8,'tool_calls':["
	"    {'id':'call_3','name':'check_status','arguments':{},'requestor':'assistant'}]},"
	"  {'role':'tool','id':'call_zzz','content':'stray','requestor':'assistant','turn_idx':9},"
	"  {'role':'user','content':'直りました、ありがとう。\\n\\u00e9 \\\\o/','tool_calls':null,'turn_idx':10}]}";

/* The openai-chat example of transcript-formats.md section 7. */
static const char *const OPENAI_CHAT =
	"{'messages':["
	"  {'role':'system','content':'You are a shop assistant.'},"
	"  {'role':'user','content':'Where is my order 1042?'},"
	"  {'role':'assistant','content':null,'tool_calls':["
	"    {'id':'call_a1','type':'function','function':{'name':'get_order','arguments':'{\\'order_id\\':\\'1042\\'}'}}]},"
	"  {'role':'tool','tool_call_id':'call_a1','content':'{\\'status\\':\\'shipped\\'}'},"
	"  {'role':'assistant','content':'Order 1042 shipped.'}],"
	" 'tools':[{'type':'function','function':{'name':'get_order','parameters':{'type':'object'}}}]}";

/* The Anthropic example of section 9. */
static const char *const ANTHROPIC =
	"{'system':'You are a shop assistant.','messages':["
	"  {'role':'user','content':'Where is my order 1042?'},"
	"  {'role':'assistant','content':[{'type':'text','text':'Let me look that up.'},"
	"    {'type':'tool_use','id':'toolu_01','name':'get_order','input':{'order_id':'1042'}}]},"
	"  {'role':'user','content':[{'type':'tool_result','tool_use_id':'toolu_01','content':'shipped'}]}]}";

static void test_detect(void **state)
{
	assert_ptr_equal(fmt_detect(TELECOM), &format_tau2);
	assert_int_equal(fmt_score(TAU2, TELECOM), 90);

	/* No run metadata, but flat calls with a requestor. */
	static const char *const flat =
		"{'messages':[{'role':'assistant','content':null,'tool_calls':["
		"{'id':'c1','name':'f','arguments':{},'requestor':'assistant'}]}]}";
	assert_int_equal(fmt_score(TAU2, flat), 70);
	assert_ptr_equal(fmt_detect(flat), &format_tau2);

	assert_int_equal(fmt_score(TAU2, "{'messages':[], 'termination_reason':'max_steps'}"), 90);

	const char *not_mine[] = {
		OPENAI_CHAT, ANTHROPIC,
		"{'messages':[{'role':'user','content':'hi'}]}",
		"[{'role':'user','content':'hi'}]",
		"{'traj':[], 'task_id':1}",
		"{'query':'hi','response':'hello'}",
		"{'reward_info':{}, 'messages':'not a list'}",
	};
	for (size_t i = 0; i < sizeof(not_mine) / sizeof(not_mine[0]); i++)
		assert_int_equal(fmt_score(TAU2, not_mine[i]), 0);
}

static void test_roles_and_text(void **state)
{
	struct run *r = fmt_load(TELECOM, TAU2);
	assert_int_equal(r->nmsgs, 11);
	assert_int_equal(r->msgs[0].role, ROLE_ASSISTANT);
	assert_string_equal(r->msgs[0].text, "こんにちは！ご用件をどうぞ。");
	assert_int_equal(r->msgs[1].role, ROLE_USER);
	assert_int_equal(r->msgs[3].role, ROLE_TOOL);
	assert_string_equal(r->msgs[5].text, "请打开数据漫游。");
	assert_string_equal(r->msgs[6].text, "");           /* content null */
	assert_string_equal(r->msgs[10].text, "直りました、ありがとう。\n\xc3\xa9 \\o/");
	for (size_t i = 0; i < r->nmsgs; i++) {
		assert_int_equal(r->msgs[i].origin, MSG_IN_OUTPUT);
		assert_int_equal(r->msgs[i].src_index, (long)i);
	}
	assert_string_equal(run_first_user_text(r), "海外でモバイルデータが使えません。");
	assert_string_equal(run_final_agent_text(r), "请打开数据漫游。");
	assert_string_equal(r->model, "gpt-4.1-mini");
	assert_int_equal(r->tool_defs, JV_NONE);
	assert_null(run_tool_defs(r));
	run_free(r);
}

static void test_calls(void **state)
{
	struct run *r = fmt_load(TELECOM, TAU2);
	/* raw_data repeats call_1; it must not become a second call. */
	assert_int_equal(r->ncalls, 4);
	assert_int_equal(r->msgs[2].ncalls, 2);
	assert_int_equal(r->msgs[2].first_call, 0);

	struct run_call *c = &r->calls[0];
	assert_string_equal(c->id, "call_1");
	assert_string_equal(c->name, "get_customer_by_phone");
	assert_true(jv_is_string(r->doc, c->raw_id));
	assert_string_equal(jv_str(r->doc, c->raw_name), "get_customer_by_phone");
	assert_string_equal(json_string_value(json_object_get(run_call_args(r, c), "phone_number")), "555-0101");
	assert_int_equal(c->src_msg_index, 2);
	assert_int_equal(c->index_in_msg, 0);
	assert_int_equal(c->requestor, REQ_AGENT);

	/* Arguments given as a string are parsed. */
	c = &r->calls[1];
	assert_false(run_call_args_invalid(r, c));
	assert_string_equal(json_string_value(json_object_get(run_call_args(r, c), "line_id")), "L1");
	assert_int_equal(c->index_in_msg, 1);
	run_free(r);
}

static void test_results_and_errors(void **state)
{
	struct run *r = fmt_load(TELECOM, TAU2);
	struct run_call *c = &r->calls[0];
	assert_true(c->has_result);
	assert_false(c->is_error);
	assert_int_equal(c->state, CALL_COMPLETED);
	assert_int_equal(c->result_msg, 3);
	assert_string_equal(jv_str(r->doc, c->result), "{\"customer_id\": \"C7\"}");
	assert_string_equal(json_string_value(run_call_result(r, c)), "{\"customer_id\": \"C7\"}");

	/* error: true, even though the text has no "Error:" prefix. */
	c = &r->calls[1];
	assert_true(c->is_error);
	assert_int_equal(c->state, CALL_FAILED);
	assert_string_equal(c->error_text, "Line L1 not found");
	assert_int_equal(c->result_msg, 4);

	/* call_3 was never answered; call_zzz answers nothing. */
	c = &r->calls[3];
	assert_string_equal(c->id, "call_3");
	assert_false(c->has_result);
	assert_int_equal(c->state, CALL_REQUESTED);
	assert_true(r->msgs[9].is_tool_output);
	assert_true(r->msgs[9].unmatched_result);
	assert_int_equal(fmt_count_unmatched(r), 1);
	run_free(r);
}

static void test_user_requestor(void **state)
{
	struct run *r = fmt_load(TELECOM, TAU2);
	struct run_call *c = &r->calls[2];
	assert_string_equal(c->name, "toggle_roaming");
	assert_int_equal(c->requestor, REQ_USER);
	assert_true(c->has_result);
	assert_int_equal(r->msgs[c->msg_index].role, ROLE_USER);

	size_t idx[8];
	size_t n = run_agent_calls(r, idx);
	assert_int_equal(n, 3);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(r->calls[idx[i]].requestor, REQ_AGENT);
	assert_int_equal(idx[2], 3);
	/* A user message without requestor fields still makes a user call,
	 * and requestor "user" wins even in an assistant message. */
	run_free(r);
	r = fmt_load("{'reward_info':null,'messages':["
	            " {'role':'user','content':null,'tool_calls':[{'id':'u','name':'reboot','arguments':{}}]},"
	            " {'role':'assistant','content':null,'tool_calls':[{'id':'a','name':'f','arguments':{},'requestor':'user'}]}]}", TAU2);
	assert_int_equal(r->calls[0].requestor, REQ_USER);
	assert_int_equal(r->calls[1].requestor, REQ_USER);
	assert_int_equal(run_agent_calls(r, NULL), 0);
	run_free(r);
}

static void test_error_flag_absent(void **state)
{
	/* Some submissions drop "error"; then the "Error:" text decides. When
	 * the flag is there it is trusted. */
	struct run *r = fmt_load("{'termination_reason':'user_stop','messages':["
	    " {'role':'assistant','content':null,'tool_calls':["
	    "   {'id':'a','name':'f','arguments':{},'requestor':'assistant'},"
	    "   {'id':'b','name':'g','arguments':{},'requestor':'assistant'},"
	    "   {'id':'c','name':'h','arguments':{},'requestor':'assistant'}]},"
	    " {'role':'tool','id':'a','content':'Error: no such user','requestor':'assistant'},"
	    " {'role':'tool','id':'b','content':'Error: but flagged fine','requestor':'assistant','error':false},"
	    " {'role':'tool','id':'c','content':'ok','requestor':'assistant','error':null}]}", TAU2);
	assert_true(r->calls[0].is_error);
	assert_string_equal(r->calls[0].error_text, "Error: no such user");
	assert_false(r->calls[1].is_error);
	assert_int_equal(r->calls[1].state, CALL_COMPLETED);
	assert_false(r->calls[2].is_error);
	run_free(r);
}

static void test_reused_ids(void **state)
{
	struct run *r = fmt_load("{'termination_reason':'user_stop','messages':["
	    " {'role':'assistant','content':null,'tool_calls':[{'id':'x','name':'first','arguments':{},'requestor':'assistant'}]},"
	    " {'role':'assistant','content':null,'tool_calls':[{'id':'x','name':'second','arguments':{},'requestor':'assistant'}]},"
	    " {'role':'tool','id':'x','content':'to second','requestor':'assistant','error':false},"
	    " {'role':'tool','id':'x','content':'to first','requestor':'assistant','error':false},"
	    " {'role':'tool','id':'x','content':'surplus','requestor':'assistant','error':false}]}", TAU2);
	assert_string_equal(jv_str(r->doc, r->calls[1].result), "to second");
	assert_string_equal(json_string_value(run_call_result(r, &r->calls[0])), "to first");
	assert_false(r->msgs[2].unmatched_result);
	assert_false(r->msgs[3].unmatched_result);
	assert_true(r->msgs[4].unmatched_result);
	run_free(r);
}

static void test_args_variants(void **state)
{
	struct run *r = fmt_load("{'termination_reason':'user_stop','messages':["
	    " {'role':'assistant','content':'两个调用','tool_calls':["
	    "   {'id':'a','name':'f','arguments':'{not json','requestor':'assistant'},"
	    "   {'id':'b','name':'g','arguments':'','requestor':'assistant'},"
	    "   {'id':'c','name':'h','requestor':'assistant'},"
	    "   {'name':'noid','arguments':null,'requestor':'assistant'}]},"
	    " {'role':'tool','content':'no id','requestor':'assistant'}]}", TAU2);
	assert_int_equal(r->ncalls, 4);
	assert_true(run_call_args_invalid(r, &r->calls[0]));
	assert_null(run_call_args(r, &r->calls[0]));
	assert_string_equal(run_call_args_text(r, &r->calls[0]), "{not json");
	/* "" is no arguments at all: {}. */
	assert_false(run_call_args_invalid(r, &r->calls[1]));
	assert_true(json_is_object(run_call_args(r, &r->calls[1])));
	assert_int_equal(json_object_size(run_call_args(r, &r->calls[1])), 0);
	assert_int_equal(r->calls[2].args, JV_NONE);
	assert_null(run_call_args(r, &r->calls[2]));
	assert_null(r->calls[3].id);
	assert_int_equal(r->calls[3].args, JV_NONE);
	assert_null(run_call_args(r, &r->calls[3]));
	assert_string_equal(r->msgs[0].text, "两个调用");
	/* A result without an id links to nothing and says so. */
	assert_true(r->msgs[1].unmatched_result);
	assert_false(r->calls[3].has_result);
	run_free(r);
}

static void test_system_role(void **state)
{
	struct run *r = fmt_load("{'reward_info':{},'messages':[{'role':'system','content':'policy'},"
	                        "{'role':'assistant','content':'hi','tool_calls':null}]}", TAU2);
	assert_int_equal(r->msgs[0].role, ROLE_SYSTEM);
	assert_int_equal(r->ncalls, 0);
	run_free(r);
}

static void test_malformed(void **state)
{
	fmt_expect_error(TAU2, "[1,2]", "a tau2 run must be a JSON object");
	fmt_expect_error(TAU2, "{'reward_info':{}}", "messages: missing");
	fmt_expect_error(TAU2, "{'messages':{'role':'user'}}", "messages: not an array");
	fmt_expect_error(TAU2, "{'messages':[{'role':'user','content':'a'},7]}", "messages[1]: not an object");
	fmt_expect_error(TAU2, "{'messages':[{'content':'a'}]}", "messages[0].role: missing or not a string");
	fmt_expect_error(TAU2, "{'messages':[{'role':'robot','content':'a'}]}",
	             "messages[0].role: unknown role \"robot\"");
	fmt_expect_error(TAU2, "{'messages':[{'role':'user','content':{'a':1}}]}",
	             "messages[0].content: not a string, a list or null");
	fmt_expect_error(TAU2, "{'messages':[{'role':'assistant','content':null,'tool_calls':'x'}]}",
	             "messages[0].tool_calls: not a list or null");
	fmt_expect_error(TAU2, "{'messages':[{'role':'assistant','content':null,'tool_calls':[null]}]}",
	             "messages[0].tool_calls[0]: not an object");
	fmt_expect_error(TAU2, "{'messages':[{'role':'assistant','tool_calls':[{'id':5,'name':'f'}]}]}",
	             "messages[0].tool_calls[0].id: not a string");
	fmt_expect_error(TAU2, "{'messages':[{'role':'assistant','tool_calls':[{'id':'a','name':['f']}]}]}",
	             "messages[0].tool_calls[0].name: not a string");
	fmt_expect_error(TAU2, "{'messages':[{'role':'assistant','tool_calls':[{'id':'a','name':'f','arguments':3}]}]}",
	             "messages[0].tool_calls[0].arguments: not an object or a string");
	fmt_expect_error(TAU2, "{'messages':[{'role':'assistant','tool_calls':[{'id':'a','name':'f','requestor':1}]}]}",
	             "messages[0].tool_calls[0].requestor: not a string");
	fmt_expect_error(TAU2, "{'messages':[{'role':'tool','id':1,'content':'x'}]}", "messages[0].id: not a string");
	fmt_expect_error(TAU2, "{'messages':[{'role':'tool','id':'a','content':'x','error':'yes'}]}",
	             "messages[0].error: not a boolean");
}

/* Counts what the record itself says, to check the loader against. */
static void count_record(json_t *rec, size_t *ncalls, size_t *nuser_calls)
{
	*ncalls = *nuser_calls = 0;
	size_t i;
	json_t *m;
	json_array_foreach(json_object_get(rec, "messages"), i, m) {
		size_t j;
		json_t *tc;
		json_array_foreach(json_object_get(m, "tool_calls"), j, tc) {
			(*ncalls)++;
			const char *rq = json_string_value(json_object_get(tc, "requestor"));
			if (rq && strcmp(rq, "user") == 0)
				(*nuser_calls)++;
		}
	}
}

static void check_real_record(json_t *rec, const char *file, size_t line, void *ctx)
{
	size_t *telecom = ctx;
	struct run *r = run_new(rec, file, line, -1);
	assert_ptr_equal(format_detect(r->doc, run_root(r)), &format_tau2);
	struct error err = {0};
	if (format_load(r, NULL, &err) != 0)
		fail_msg("line %zu: %s", line, err.msg);
	size_t ncalls, nuser;
	count_record(rec, &ncalls, &nuser);
	assert_int_equal(r->ncalls, ncalls);
	assert_true(r->ncalls > 0);
	assert_int_equal(r->nmsgs, json_array_size(json_object_get(rec, "messages")));
	assert_non_null(r->model);
	size_t answered = 0;
	for (size_t i = 0; i < r->ncalls; i++)
		answered += r->calls[i].has_result;
	/* Every published call got its result, and every result a call. */
	assert_int_equal(fmt_count_unmatched(r), 0);
	assert_int_equal(answered, r->ncalls);
	const char *domain = json_string_value(
		json_object_get(json_object_get(rec, "_corpus"), "domain"));
	size_t user_calls = 0;
	for (size_t i = 0; i < r->ncalls; i++)
		user_calls += r->calls[i].requestor == REQ_USER;
	assert_int_equal(user_calls, nuser);
	if (domain && strcmp(domain, "telecom") == 0) {
		(*telecom)++;
		assert_true(user_calls > 0);
	}
	assert_int_equal(run_agent_calls(r, NULL), r->ncalls - user_calls);
	run_free(r);
}

static void test_real_sample(void **state)
{
	size_t telecom = 0;
	assert_true(fmt_each_shared_record("fixtures/real/tau2_sample.jsonl", check_real_record,
	                                   &telecom) > 0);
	assert_true(telecom > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_detect),
		cmocka_unit_test(test_roles_and_text),
		cmocka_unit_test(test_calls),
		cmocka_unit_test(test_results_and_errors),
		cmocka_unit_test(test_user_requestor),
		cmocka_unit_test(test_error_flag_absent),
		cmocka_unit_test(test_reused_ids),
		cmocka_unit_test(test_args_variants),
		cmocka_unit_test(test_system_role),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_real_sample),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
