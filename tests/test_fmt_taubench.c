/* test_fmt_taubench.c - the tau-bench v1 loader.
 *
 * Fixtures are written inline with ' for " (fmt_parse() swaps them back)
 * so they read like the JSON they stand for; a real apostrophe would be
 * \u0027. */
#include "fmt_test.h"
#include "runs/loader.h"
#include "util/error.h"

#define TAUBENCH "taubench"

extern const struct format_ops format_taubench;

/* A retail run: a lookup, a failed cancel that reuses the lookup's call
 * id (as gpt-4o's published runs do), an answer and the stop marker. */
static const char *const RETAIL =
	"{'_corpus':{'run_id':'ours-1','agent_model':'gpt-4o'},"
	" 'task_id':7,'trial':0,'reward':1.0,"
	" 'info':{'task':{'user_id':'wang_fang_1042','instruction':'你想知道订单 #W1042 在哪里。',"
	"   'actions':[{'name':'get_order_details','kwargs':{'order_id':'#W1042'}}],'outputs':[]},"
	"   'source':'user','reward_info':null},"
	" 'traj':["
	"  {'role':'system','content':'# 小売エージェントのポリシー'},"
	"  {'role':'user','content':'你好，我的订单 #W1042 在哪里？'},"
	"  {'role':'assistant','content':null,'tool_calls':[{'id':'call_x1','type':'function',"
	"    'function':{'name':'get_order_details','arguments':'{\\'order_id\\':\\'#W1042\\'}'}}]},"
	"  {'role':'tool','tool_call_id':'call_x1','name':'get_order_details','content':'{\\'status\\': \\'delivered\\'}'},"
	"  {'role':'assistant','content':null,'tool_calls':[{'id':'call_x1','type':'function',"
	"    'function':{'name':'cancel_pending_order','arguments':'{\\'order_id\\':\\'#W1042\\',\\'reason\\':\\'no longer needed\\'}'}}]},"
	"  {'role':'tool','tool_call_id':'call_x1','name':'cancel_pending_order','content':'Error: non-pending order cannot be cancelled'},"
	"  {'role':'assistant','content':'订单已送达，无法取消。\\n\\u00bfAlgo m\\u00e1s? \\\\ \\'ok\\''},"
	"  {'role':'user','content':'好的，谢谢！ ###STOP###'}]}";

static const char *const OPENAI_CHAT =
	"{'messages':["
	"  {'role':'system','content':'You are a shop assistant.'},"
	"  {'role':'user','content':'Where is my order 1042?'},"
	"  {'role':'assistant','content':null,'tool_calls':["
	"    {'id':'call_a1','type':'function','function':{'name':'get_order','arguments':'{\\'order_id\\':\\'1042\\'}'}}]},"
	"  {'role':'tool','tool_call_id':'call_a1','content':'Error: upstream timeout'},"
	"  {'role':'assistant','content':'Order 1042 shipped.'}]}";

static const char *const ANTHROPIC =
	"{'system':'You are a shop assistant.','messages':["
	"  {'role':'user','content':'Where is my order 1042?'},"
	"  {'role':'assistant','content':[{'type':'tool_use','id':'toolu_01','name':'get_order','input':{'order_id':'1042'}}]},"
	"  {'role':'user','content':[{'type':'tool_result','tool_use_id':'toolu_01','content':'shipped'}]}]}";

static void test_detect(void **state)
{
	assert_int_equal(fmt_score(TAUBENCH, RETAIL), 90);
	assert_ptr_equal(fmt_detect(RETAIL), &format_taubench);

	assert_int_equal(fmt_score(TAUBENCH, "{'info':{},'traj':[]}"), 90);
	assert_int_equal(fmt_score(TAUBENCH, "{'traj':[{'role':'user','content':'hi'}]}"), 50);
	assert_ptr_equal(fmt_detect("{'traj':[{'role':'user','content':'hi'}]}"), &format_taubench);

	const char *not_mine[] = {
		OPENAI_CHAT, ANTHROPIC,
		"[{'role':'user','content':'hi'}]",
		"{'task_id':3,'traj':'x'}",
		"{'task_id':3,'messages':[],'reward_info':{}}",
		"{'query':'hi','response':'hello'}",
	};
	for (size_t i = 0; i < sizeof(not_mine) / sizeof(not_mine[0]); i++)
		assert_int_equal(fmt_score(TAUBENCH, not_mine[i]), 0);
}

static void test_roles_and_text(void **state)
{
	struct run *r = fmt_load(RETAIL, TAUBENCH);
	assert_int_equal(r->nmsgs, 8);
	static const enum run_role roles[] = {
		ROLE_SYSTEM, ROLE_USER, ROLE_ASSISTANT, ROLE_TOOL,
		ROLE_ASSISTANT, ROLE_TOOL, ROLE_ASSISTANT, ROLE_USER,
	};
	for (size_t i = 0; i < r->nmsgs; i++) {
		assert_int_equal(r->msgs[i].role, roles[i]);
		assert_int_equal(r->msgs[i].origin, MSG_IN_OUTPUT);
		assert_int_equal(r->msgs[i].src_index, (long)i);
		assert_int_equal(r->msgs[i].raw, jv_at(r->doc, jv_get(r->doc, run_root(r), "traj"), (long)i));
	}
	assert_string_equal(r->msgs[0].text, "# 小売エージェントのポリシー");
	assert_string_equal(r->msgs[2].text, "");
	assert_string_equal(r->msgs[6].text, "订单已送达，无法取消。\n¿Algo más? \\ \"ok\"");
	/* The stop marker is the simulator's words: kept, as user text. */
	assert_string_equal(r->msgs[7].text, "好的，谢谢！ ###STOP###");
	assert_false(r->msgs[7].is_tool_output);
	assert_string_equal(run_first_user_text(r), "你好，我的订单 #W1042 在哪里？");
	assert_string_equal(run_final_agent_text(r), r->msgs[6].text);
	assert_string_equal(r->model, "gpt-4o");
	run_free(r);
}

static void test_calls_and_reused_id(void **state)
{
	struct run *r = fmt_load(RETAIL, TAUBENCH);
	assert_int_equal(r->ncalls, 2);
	struct run_call *c = &r->calls[0];
	assert_string_equal(c->id, "call_x1");
	assert_string_equal(c->name, "get_order_details");
	assert_string_equal(jv_str(r->doc, c->raw_name), "get_order_details");
	assert_string_equal(jv_str(r->doc, c->raw_id), "call_x1");
	assert_string_equal(json_string_value(json_object_get(run_call_args(r, c), "order_id")), "#W1042");
	assert_int_equal(c->msg_index, 2);
	assert_int_equal(c->src_msg_index, 2);
	assert_int_equal(c->requestor, REQ_AGENT);
	assert_true(c->has_result);
	assert_false(c->is_error);
	assert_int_equal(c->state, CALL_COMPLETED);
	assert_int_equal(c->result_msg, 3);
	assert_string_equal(jv_str(r->doc, c->result), "{\"status\": \"delivered\"}");
	assert_string_equal(json_string_value(run_call_result(r, c)), "{\"status\": \"delivered\"}");

	/* Same id: the second result belongs to the second call. */
	c = &r->calls[1];
	assert_string_equal(c->id, "call_x1");
	assert_string_equal(c->name, "cancel_pending_order");
	assert_int_equal(c->result_msg, 5);
	assert_true(c->is_error);
	assert_int_equal(c->state, CALL_FAILED);
	assert_string_equal(c->error_text, "Error: non-pending order cannot be cancelled");
	assert_string_equal(r->msgs[3].answers_call_id, "call_x1");
	for (size_t i = 0; i < r->nmsgs; i++)
		assert_false(r->msgs[i].unmatched_result);
	assert_int_equal(run_agent_calls(r, NULL), 2);
	run_free(r);
}

static void test_nearest_preceding(void **state)
{
	/* Two calls with one id before either result: the first result goes
	 * to the nearer (later) call, the next to the earlier one; a third
	 * result has no call left and is flagged. */
	struct run *r = fmt_load("{'task_id':1,'traj':["
	    " {'role':'assistant','content':null,'tool_calls':[{'id':'c','type':'function','function':{'name':'a','arguments':'{}'}}]},"
	    " {'role':'assistant','content':null,'tool_calls':[{'id':'c','type':'function','function':{'name':'b','arguments':'{}'}}]},"
	    " {'role':'tool','tool_call_id':'c','name':'b','content':'for b'},"
	    " {'role':'tool','tool_call_id':'c','name':'a','content':'for a'},"
	    " {'role':'tool','tool_call_id':'c','name':'a','content':'again'}]}", TAUBENCH);
	assert_string_equal(jv_str(r->doc, r->calls[1].result), "for b");
	assert_string_equal(json_string_value(run_call_result(r, &r->calls[0])), "for a");
	assert_false(r->msgs[2].unmatched_result);
	assert_false(r->msgs[3].unmatched_result);
	assert_true(r->msgs[4].unmatched_result);
	run_free(r);
}

static void test_args_unmatched_unanswered(void **state)
{
	struct run *r = fmt_load("{'task_id':2,'traj':["
	    " {'role':'user','content':'取消航班'},"
	    " {'role':'assistant','content':'让我看看。','tool_calls':["
	    "   {'id':'o','type':'function','function':{'name':'obj','arguments':{'reservation_id':'ZFA04Y'}}},"
	    "   {'id':'bad','type':'function','function':{'name':'broken','arguments':'{\\'reservation_id\\': '}},"
	    "   {'id':'none','type':'function','function':{'name':'noargs'}}]},"
	    " {'role':'tool','tool_call_id':'o','name':'obj','content':'done'},"
	    " {'role':'tool','tool_call_id':'ghost','name':'x','content':'Error: who?'},"
	    " {'role':'tool','name':'x','content':'no id'}]}", TAUBENCH);
	assert_int_equal(r->ncalls, 3);
	assert_int_equal(r->msgs[1].ncalls, 3);
	assert_string_equal(r->msgs[1].text, "让我看看。");
	/* Arguments as an object are taken as they are. */
	assert_string_equal(json_string_value(json_object_get(run_call_args(r, &r->calls[0]), "reservation_id")),
	                    "ZFA04Y");
	assert_true(r->calls[0].has_result);
	/* Unparsable argument text is kept and flagged. */
	assert_true(run_call_args_invalid(r, &r->calls[1]));
	assert_null(run_call_args(r, &r->calls[1]));
	assert_string_equal(run_call_args_text(r, &r->calls[1]), "{\"reservation_id\": ");
	assert_false(r->calls[1].has_result);
	assert_int_equal(r->calls[1].state, CALL_REQUESTED);
	assert_int_equal(r->calls[2].args, JV_NONE);
	assert_null(run_call_args(r, &r->calls[2]));
	assert_false(r->calls[2].has_result);
	/* A result for an id nobody used, and one with no id at all. */
	assert_true(r->msgs[3].unmatched_result);
	assert_true(r->msgs[3].result_is_error);
	assert_true(r->msgs[4].unmatched_result);
	assert_true(r->msgs[4].is_tool_output);
	run_free(r);
}

static void test_malformed(void **state)
{
	fmt_expect_error(TAUBENCH, "[]", "a tau-bench record must be a JSON object");
	fmt_expect_error(TAUBENCH, "{'task_id':1}", "traj: missing");
	fmt_expect_error(TAUBENCH, "{'task_id':1,'traj':{'role':'user'}}", "traj: not an array");
	fmt_expect_error(TAUBENCH, "{'traj':[{'role':'user','content':'x'},'oops']}", "traj[1]: not an object");
	fmt_expect_error(TAUBENCH, "{'traj':[{'role':5}]}", "traj[0].role: missing or not a string");
	fmt_expect_error(TAUBENCH, "{'traj':[{'role':'critic','content':'x'}]}",
	             "traj[0].role: unknown role \"critic\"");
	fmt_expect_error(TAUBENCH, "{'traj':[{'role':'user','content':42}]}",
	             "traj[0].content: not a string, a list or null");
	fmt_expect_error(TAUBENCH, "{'traj':[{'role':'assistant','content':null,'tool_calls':{}}]}",
	             "traj[0].tool_calls: not a list or null");
	fmt_expect_error(TAUBENCH, "{'traj':[{'role':'assistant','tool_calls':['call']}]}",
	             "traj[0].tool_calls[0]: not an object");
	fmt_expect_error(TAUBENCH, "{'traj':[{'role':'user','content':'a'},{'role':'assistant','tool_calls':[{'id':'a'}]}]}",
	             "traj[1].tool_calls[0].function: missing");
	fmt_expect_error(TAUBENCH, "{'traj':[{'role':'user'},{'role':'user'},{'role':'user'},"
	             "{'role':'assistant','tool_calls':[{'id':'a','function':'f'}]}]}",
	             "traj[3].tool_calls[0].function: not an object");
	fmt_expect_error(TAUBENCH, "{'traj':[{'role':'assistant','tool_calls':[{'id':1,'function':{}}]}]}",
	             "traj[0].tool_calls[0].id: not a string");
	fmt_expect_error(TAUBENCH, "{'traj':[{'role':'assistant','tool_calls':[{'id':'a','function':{'name':{}}}]}]}",
	             "traj[0].tool_calls[0].function.name: not a string");
	fmt_expect_error(TAUBENCH, "{'traj':[{'role':'assistant','tool_calls':[{'id':'a','function':{'name':'f','arguments':[1]}}]}]}",
	             "traj[0].tool_calls[0].function.arguments: not a string or an object");
	fmt_expect_error(TAUBENCH, "{'traj':[{'role':'tool','tool_call_id':9,'content':'x'}]}",
	             "traj[0].tool_call_id: not a string");
}

struct real_counts {
	size_t errors, stops, reused;
};

static void check_real_record(json_t *rec, const char *file, size_t line, void *ctx)
{
	struct real_counts *n = ctx;
	struct run *r = run_new(rec, file, line, -1);
	assert_ptr_equal(format_detect(r->doc, run_root(r)), &format_taubench);
	struct error err = {0};
	if (format_load(r, NULL, &err) != 0)
		fail_msg("line %zu: %s", line, err.msg);
	json_t *traj = json_object_get(rec, "traj");
	assert_int_equal(r->nmsgs, json_array_size(traj));
	size_t want_calls = 0, i;
	json_t *m;
	json_array_foreach(traj, i, m)
		want_calls += json_array_size(json_object_get(m, "tool_calls"));
	assert_int_equal(r->ncalls, want_calls);
	assert_int_equal(run_agent_calls(r, NULL), want_calls);
	/* Every result finds its call, even where ids repeat, and every
	 * call got exactly one result. */
	for (i = 0; i < r->nmsgs; i++) {
		assert_false(r->msgs[i].unmatched_result);
		if (strstr(r->msgs[i].text, "###STOP###") && r->msgs[i].role == ROLE_USER)
			n->stops++;
	}
	for (i = 0; i < r->ncalls; i++) {
		assert_true(r->calls[i].has_result);
		assert_false(run_call_args_invalid(r, &r->calls[i]));
		n->errors += r->calls[i].is_error;
		for (size_t k = 0; k < i; k++)
			if (strcmp(r->calls[k].id, r->calls[i].id) == 0) {
				n->reused++;
				break;
			}
	}
	assert_string_equal(r->model, "gpt-4o");
	run_free(r);
}

static void test_real_sample(void **state)
{
	struct real_counts n = { 0, 0, 0 };
	assert_true(fmt_each_shared_record("fixtures/real/taubench_v1_airline_sample.jsonl",
	                                   check_real_record, &n) > 0);
	assert_true(n.errors > 0);
	assert_true(n.stops > 0);
	assert_true(n.reused > 0);
}

/* loader_id (loader.c, which every loader shares; tau-bench itself refuses
 * numeric ids): a number still names a call, printed exactly as json_dumps
 * printed the jansson value the loaders read before the tape, and a number
 * jansson refused (beyond int64, beyond a double) keeps the record's text. */
static struct run *tape_run(const char *text)
{
	struct jdoc_error jerr;
	struct jdoc *d = jdoc_parse_str(text, &jerr);
	assert_non_null(d);
	return run_new_doc(d, "test.jsonl", 1, -1);
}

static const char *id_of(struct run *r)
{
	return loader_id(r, jv_get(r->doc, run_root(r), "id"));
}

static void test_loader_id(void **state)
{
	static const char *const as_jansson[] = {
		"5", "-0", "5.0", "0.1", "1e20", "1E+2", "-2.5e-7", "1.5e300", "123.456",
		"9223372036854775807", "-9223372036854775808",
	};
	for (size_t i = 0; i < sizeof(as_jansson) / sizeof(as_jansson[0]); i++) {
		char text[64];
		snprintf(text, sizeof text, "{\"id\": %s}", as_jansson[i]);
		json_t *rec = json_loads(text, 0, NULL);
		assert_non_null(rec);
		char *want = json_dumps(json_object_get(rec, "id"), JSON_ENCODE_ANY | JSON_COMPACT);
		struct run *r = run_new(rec, "test.jsonl", 1, -1);
		json_decref(rec);
		/* run_new went through a tree; the tape of the text is what a
		 * file gives, so check both. */
		assert_string_equal(id_of(r), want);
		run_free(r);
		r = tape_run(text);
		if (strcmp(id_of(r), want) != 0)
			fprintf(stderr, "%s: %s, json_dumps %s\n", as_jansson[i], id_of(r), want);
		assert_string_equal(id_of(r), want);
		run_free(r);
		free(want);
	}
	static const char *const own_text[] = {
		"9223372036854775808", "123456789012345678901234567890", "1e400", "-1E400",
	};
	for (size_t i = 0; i < sizeof(own_text) / sizeof(own_text[0]); i++) {
		char text[64];
		snprintf(text, sizeof text, "{\"id\": %s}", own_text[i]);
		assert_null(json_loads(text, 0, NULL));
		struct run *r = tape_run(text);
		assert_string_equal(id_of(r), own_text[i]);
		run_free(r);
	}
	/* "" is no id at all; anything but a string or a number neither. */
	static const char *const none[] = { "{\"id\": \"\"}", "{\"id\": null}", "{\"id\": true}",
	                                    "{\"id\": [1]}", "{}" };
	for (size_t i = 0; i < sizeof(none) / sizeof(none[0]); i++) {
		struct run *r = tape_run(none[i]);
		assert_null(id_of(r));
		run_free(r);
	}
	struct run *r = tape_run("{\"id\": \"c\\u00e9\"}");
	assert_string_equal(id_of(r), "c\xc3\xa9");
	run_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_detect),
		cmocka_unit_test(test_roles_and_text),
		cmocka_unit_test(test_calls_and_reused_id),
		cmocka_unit_test(test_nearest_preceding),
		cmocka_unit_test(test_args_unmatched_unanswered),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_loader_id),
		cmocka_unit_test(test_real_sample),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
