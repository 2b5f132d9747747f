/* test_fmt_openai_agents.c - the OpenAI Agents SDK run state loader. */
#include "fmt_test.h"
#include "fmt_wild.h"

#define AGENTS "openai-agents"

static const char *const state_json =
	"{'$schemaVersion': '1.17', 'current_turn': 2, 'max_turns': 10,"
	" 'original_input': [{'role': 'user', 'content': '注文 2087 はどこ？'}],"
	" 'generated_items': ["
	"  {'type': 'reasoning_item', 'raw_item': {'type': 'reasoning', 'id': 'rs_1', 'summary': []}},"
	"  {'type': 'tool_call_item', 'raw_item': {'type': 'function_call', 'call_id': 'c1',"
	"   'name': 'lookup_order', 'arguments': '{\\'order\\':\\'2087\\'}', 'status': 'completed'}},"
	"  {'type': 'tool_call_output_item', 'raw_item': {'type': 'function_call_output',"
	"   'call_id': 'c1', 'output': 'shipped'}, 'output': 'shipped'},"
	"  {'type': 'tool_call_item', 'raw_item': {'type': 'shell_call', 'call_id': 's1',"
	"   'action': {'commands': ['ls']}, 'status': 'completed'}},"
	"  {'type': 'tool_call_output_item', 'raw_item': {'type': 'shell_call_output', 'call_id': 's1',"
	"   'output': [{'stdout': 'a.txt', 'stderr': ''}]}},"
	"  {'type': 'tool_call_item', 'raw_item': {'type': 'mcp_call', 'id': 'mcp_1', 'server_label': 'shop',"
	"   'name': 'stock', 'arguments': '{}', 'output': null, 'error': 'down'}},"
	"  {'type': 'tool_call_item', 'raw_item': {'type': 'function_call', 'call_id': 'c2',"
	"   'name': 'refund', 'arguments': '{}'}},"
	"  {'type': 'tool_approval_item', 'raw_item': {'type': 'function_call', 'call_id': 'c2',"
	"   'name': 'refund', 'arguments': '{}'}},"
	"  {'type': 'message_output_item', 'raw_item': {'type': 'message', 'role': 'assistant',"
	"   'content': [{'type': 'output_text', 'text': '已发货 📦'}]}}]}";

static void test_detect(void **state)
{
	assert_int_equal(fmt_score(AGENTS, state_json), 80);
	assert_int_equal(fmt_score(AGENTS, "{'$schemaVersion': '1.0', 'original_input': 'x',"
	                                   " 'generated_items': []}"), 80);
	assert_int_equal(fmt_score(AGENTS, "{'original_input': 'x', 'generated_items': []}"), 0);
	assert_int_equal(fmt_score(AGENTS, "{'$schemaVersion': '1.0', 'generated_items': {}}"), 0);
	assert_int_equal(fmt_score(AGENTS, "[]"), 0);
	/* and the Responses loader leaves it alone */
	assert_int_equal(fmt_score("openai-responses", state_json), 0);
}

static void test_items(void **state)
{
	struct run *r = fmt_load(state_json, AGENTS);
	assert_int_equal(r->nmsgs, 9);
	assert_int_equal(r->msgs[0].role, ROLE_USER);
	assert_int_equal(r->msgs[0].origin, MSG_IN_INPUT);
	assert_string_equal(run_first_user_text(r), "注文 2087 はどこ？");
	/* a message's raw is the generated item's raw_item */
	jv gen = jv_get(r->doc, run_root(r), "generated_items");
	assert_int_equal(r->msgs[2].raw, jv_get(r->doc, jv_at(r->doc, gen, 1), "raw_item"));
	assert_int_equal(r->msgs[2].origin, MSG_IN_OUTPUT);
	assert_int_equal(r->msgs[2].src_index, 1);
	/* The approval item repeats c2: four calls, not five. */
	assert_int_equal(r->ncalls, 4);
	struct run_call *c = r->calls;
	assert_string_equal(c[0].name, "lookup_order");
	assert_int_equal(c[0].state, CALL_COMPLETED);
	assert_string_equal(json_string_value(run_call_result(r, &c[0])), "shipped");
	assert_string_equal(c[1].name, "shell");
	assert_int_equal(c[1].state, CALL_COMPLETED);
	assert_string_equal(r->msgs[c[1].result_msg].text, "a.txt");
	assert_string_equal(c[2].name, "shop.stock");
	assert_int_equal(c[2].state, CALL_FAILED);
	assert_string_equal(c[2].error_text, "down");
	assert_string_equal(c[3].name, "refund");
	assert_int_equal(c[3].state, CALL_REQUESTED);
	assert_string_equal(run_final_agent_text(r), "已发货 📦");
	assert_int_equal(run_agent_calls(r, NULL), 4);
	run_free(r);

	r = fmt_load("{'$schemaVersion': '1.0', 'original_input': 'hi', 'generated_items': []}", AGENTS);
	assert_int_equal(r->nmsgs, 1);
	assert_string_equal(r->msgs[0].text, "hi");
	assert_int_equal(r->ncalls, 0);
	run_free(r);
}

static void test_malformed(void **state)
{
	static const struct fmt_error_case cases[] = {
		{ "true", "an openai-agents record must be an object" },
		{ "{'$schemaVersion': '1', 'original_input': 'x', 'generated_items': 5}",
		  "generated_items: not an array" },
		{ "{'$schemaVersion': '1', 'original_input': 5, 'generated_items': []}",
		  "original_input: not an array or a string" },
		{ "{'$schemaVersion': '1', 'original_input': 'x', 'generated_items': [3]}",
		  "generated_items[0]: not an object" },
		{ "{'$schemaVersion': '1', 'original_input': 'x', 'generated_items': [{'type': 'x'}]}",
		  "generated_items[0].raw_item: missing" },
		{ "{'$schemaVersion': '1', 'original_input': 'x', 'generated_items': [{'raw_item': 'x'}]}",
		  "generated_items[0].raw_item: not an object" },
		{ "{'$schemaVersion': '1', 'original_input': 'x', 'generated_items': [{'type': 1, 'raw_item': {}}]}",
		  "generated_items[0].type: not a string" },
		{ "{'$schemaVersion': '1', 'original_input': 'x',"
		  " 'generated_items': [{'type': 'x', 'raw_item': {'type': 7}}]}",
		  "generated_items[0].raw_item.type: not a string" },
		{ "{'$schemaVersion': '1', 'original_input': [{'type': 'message', 'content': 'a'}],"
		  " 'generated_items': []}", "original_input[0].role: missing" },
		{ NULL, NULL },
	};
	fmt_expect_errors(AGENTS, cases);
}

static void test_wild_samples(void **state)
{
	(void)state;
	struct dataset ds;
	struct run *r = fmt_wild_run(&ds, "openai-agents-runstate/v1_13_pending_tool_approval.json",
	                             AGENTS, 1, 1);
	if (!r) {
		skip();
		return;
	}
	assert_string_equal(r->calls[0].name, "historical_approval");
	assert_int_equal(r->calls[0].state, CALL_REQUESTED);
	assert_string_equal(run_first_user_text(r), "historical input");
	run_free(r);
	dataset_close(&ds);

	/* tool_search_call is the model looking up tools, not a tool run. */
	r = fmt_wild_run(&ds, "openai-agents-runstate/v1_5_tool_search_and_display_metadata.json",
	                 AGENTS, 1, 1);
	assert_string_equal(r->calls[0].name, "lookup");
	assert_int_equal(r->nmsgs, 4);
	run_free(r);
	dataset_close(&ds);

	r = fmt_wild_run(&ds, "openai-agents-runstate/minimal-v1_17.json", AGENTS, 1, 0);
	assert_int_equal(r->nmsgs, 1);
	run_free(r);
	dataset_close(&ds);
	fmt_check_wild(AGENTS, "openai-agents-runstate");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_detect),
		cmocka_unit_test(test_items),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_wild_samples),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
