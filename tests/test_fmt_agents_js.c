/* test_fmt_agents_js.c - the OpenAI Agents SDK for JavaScript's run state loader. */
#include "fmt_test.h"
#include "fmt_wild.h"

#define JS "openai-agents-js"

static const char *const state_json =
	"{'$schemaVersion': '1.18', 'currentTurn': 2, 'currentAgent': {'name': 'Desk'},"
	" 'originalInput': [{'role': 'user', 'content': [{'type': 'input_text', 'text': 'cancel 12'}]}],"
	" 'generatedItems': ["
	"  {'type': 'reasoning_item', 'rawItem': {'type': 'reasoning', 'id': 'rs1',"
	"   'content': [{'type': 'input_text', 'text': 'find it first'}]}},"
	"  {'type': 'tool_call_item', 'rawItem': {'type': 'function_call', 'id': 'fc1', 'callId': 'c1',"
	"   'name': 'find', 'arguments': '{\\'id\\':12}', 'status': 'completed'}},"
	"  {'type': 'tool_call_output_item', 'output': 'open', 'rawItem': {'type': 'function_call_result',"
	"   'callId': 'c1', 'name': 'find', 'status': 'completed', 'output': {'type': 'text', 'text': 'open'}}},"
	"  {'type': 'tool_call_item', 'rawItem': {'type': 'hosted_tool_call', 'id': 'ws1',"
	"   'name': 'web_search_call', 'status': 'completed', 'output': 'rules'}},"
	"  {'type': 'tool_call_item', 'rawItem': {'type': 'shell_call', 'callId': 'sh1',"
	"   'action': {'commands': ['ls']}, 'status': 'completed'}},"
	"  {'type': 'tool_call_output_item', 'rawItem': {'type': 'shell_call_output', 'callId': 'sh1',"
	"   'output': 'a.txt'}},"
	"  {'type': 'handoff_call_item', 'rawItem': {'type': 'function_call', 'callId': 'h1',"
	"   'name': 'transfer_to_billing', 'arguments': '{}'}},"
	"  {'type': 'handoff_output_item', 'rawItem': {'type': 'function_call_result', 'callId': 'h1',"
	"   'name': 'transfer_to_billing', 'status': 'completed', 'output': '{\\'assistant\\':\\'billing\\'}'}},"
	"  {'type': 'tool_call_item', 'rawItem': {'type': 'function_call', 'callId': 'c2',"
	"   'name': 'cancel', 'arguments': '{}'}},"
	"  {'type': 'tool_approval_item', 'rawItem': {'type': 'function_call', 'callId': 'c2',"
	"   'name': 'cancel', 'arguments': '{}'}},"
	"  {'type': 'message_output_item', 'rawItem': {'type': 'message', 'id': 'm1', 'role': 'assistant',"
	"   'content': [{'type': 'output_text', 'text': 'waiting for approval'}]}}],"
	" 'modelResponses': [{'output': ["
	"  {'type': 'function_call', 'id': 'fc1', 'callId': 'c1', 'name': 'find', 'arguments': '{}'},"
	"  {'type': 'message', 'id': 'm1', 'role': 'assistant', 'content': [{'type': 'output_text',"
	"   'text': 'waiting for approval'}]},"
	"  {'type': 'function_call', 'callId': 'c9', 'name': 'late', 'arguments': '{}'}]}],"
	" 'context': {'approvals': {'cancel': {'approved': [], 'rejected': []}},"
	"  'functionApprovals': [{'agentIdentity': 'Desk', 'approvals': {'refund': {'approved': true}}}]}}";

static void test_detect(void **state)
{
	(void)state;
	assert_int_equal(fmt_score(JS, state_json), 80);
	assert_int_equal(fmt_score(JS, "{'$schemaVersion': '1.1', 'originalInput': 'x', 'generatedItems': []}"), 80);
	assert_int_equal(fmt_score(JS, "{'originalInput': 'x', 'generatedItems': []}"), 0);
	assert_int_equal(fmt_score(JS, "{'$schemaVersion': '1.1', 'generatedItems': []}"), 0);
	/* the Python SDK's state is the other loader's, and this is not its */
	assert_int_equal(fmt_score(JS, "{'$schemaVersion': '1.0', 'original_input': 'x', 'generated_items': []}"), 0);
	assert_int_equal(fmt_score("openai-agents", state_json), 0);
}

static void test_items(void **state)
{
	(void)state;
	struct run *r = fmt_load(state_json, JS);
	assert_int_equal(r->msgs[0].role, ROLE_USER);
	assert_int_equal(r->msgs[0].origin, MSG_IN_INPUT);
	assert_string_equal(run_first_user_text(r), "cancel 12");
	assert_string_equal(fmt_parts(r, 1), "thinking");
	/* find, the web search, shell, the handoff, cancel, and late (seen only
	 * in the model's response); the approval repeats cancel */
	assert_int_equal(r->ncalls, 6);
	struct run_call *c = r->calls;
	assert_string_equal(c[0].name, "find");
	assert_string_equal(c[0].id, "c1");
	assert_int_equal(c[0].state, CALL_COMPLETED);
	assert_string_equal(r->msgs[c[0].result_msg].text, "open");
	assert_string_equal(c[1].name, "web_search_call");
	assert_int_equal(c[1].state, CALL_COMPLETED);
	assert_string_equal(c[2].name, "shell");
	assert_int_equal(c[2].state, CALL_COMPLETED);
	assert_string_equal(c[3].name, "transfer_to_billing");
	assert_int_equal(c[3].state, CALL_COMPLETED);
	assert_string_equal(c[4].name, "cancel");
	assert_int_equal(c[4].state, CALL_REQUESTED);
	assert_string_equal(c[5].name, "late");
	assert_string_equal(run_final_agent_text(r), "waiting for approval");
	/* the approval item and the two approval records are notes */
	assert_int_equal(r->nnotes, 3);
	assert_int_equal(fmt_count_unmatched(r), 0);
	run_free(r);

	/* a call the items show twice counts once; its result still joins it */
	r = fmt_load("{'$schemaVersion': '1.5', 'originalInput': 'x', 'generatedItems': ["
	             " {'type': 'tool_call_item', 'rawItem': {'type': 'function_call', 'callId': 'k',"
	             "  'name': 'f', 'arguments': '{}'}},"
	             " {'type': 'tool_call_item', 'rawItem': {'type': 'function_call', 'callId': 'k',"
	             "  'name': 'f', 'arguments': '{}'}},"
	             " {'type': 'tool_call_output_item', 'rawItem': {'type': 'function_call_result',"
	             "  'callId': 'k', 'output': 'done'}}]}", JS);
	assert_int_equal(r->ncalls, 1);
	assert_int_equal(r->calls[0].state, CALL_COMPLETED);
	run_free(r);

	/* no items at all: a run of its input */
	r = fmt_load("{'$schemaVersion': '1.1', 'originalInput': 'continue', 'generatedItems': [],"
	             " 'modelResponses': [], 'conversationId': 'conv-1'}", JS);
	assert_int_equal(r->nmsgs, 1);
	assert_int_equal(r->ncalls, 0);
	assert_string_equal(r->id, "conv-1");
	run_free(r);

	/* a state whose items were not generated yet: the model's output is read */
	r = fmt_load("{'$schemaVersion': '1.1', 'originalInput': 'x', 'generatedItems': [],"
	             " 'modelResponses': [{'output': [{'role': 'assistant', 'content': 'hi'}]}]}", JS);
	assert_int_equal(r->nmsgs, 2);
	assert_string_equal(run_final_agent_text(r), "hi");
	run_free(r);
}

static void test_malformed(void **state)
{
	(void)state;
	static const struct fmt_error_case cases[] = {
		{ "true", "an openai-agents-js record must be an object" },
		{ "{'$schemaVersion': '1', 'originalInput': 'x', 'generatedItems': 5}",
		  "generatedItems: not an array" },
		{ "{'$schemaVersion': '1', 'originalInput': 'x', 'generatedItems': [], 'modelResponses': {}}",
		  "modelResponses: not an array" },
		{ "{'$schemaVersion': '1', 'generatedItems': []}", "originalInput: missing" },
		{ "{'$schemaVersion': '1', 'originalInput': 5, 'generatedItems': []}",
		  "originalInput: not an array or a string" },
		{ "{'$schemaVersion': '1', 'originalInput': 'x', 'generatedItems': [3]}",
		  "generatedItems[0]: not an object" },
		{ "{'$schemaVersion': '1', 'originalInput': 'x', 'generatedItems': [{'type': 'x'}]}",
		  "generatedItems[0].rawItem: missing" },
		{ "{'$schemaVersion': '1', 'originalInput': 'x', 'generatedItems': [{'rawItem': 'x'}]}",
		  "generatedItems[0].rawItem: not an object" },
		{ "{'$schemaVersion': '1', 'originalInput': 'x', 'generatedItems': [{'type': 1, 'rawItem': {}}]}",
		  "generatedItems[0].type: not a string" },
		{ "{'$schemaVersion': '1', 'originalInput': 'x',"
		  " 'generatedItems': [{'type': 'x', 'rawItem': {'type': 7}}]}",
		  "generatedItems[0].rawItem.type: not a string" },
		{ "{'$schemaVersion': '1', 'originalInput': [{'type': 'message', 'content': 'a'}],"
		  " 'generatedItems': []}", "originalInput[0].role: missing" },
		{ "{'$schemaVersion': '1', 'originalInput': 'x', 'generatedItems': [],"
		  " 'modelResponses': [{'output': 3}]}", "modelResponses[0].output: not an array" },
		{ NULL, NULL },
	};
	fmt_expect_errors(JS, cases);
}

static void test_wild_samples(void **state)
{
	(void)state;
	struct dataset ds;
	struct run *r = fmt_wild_run(&ds, "openai-agents-js-runstate/v1.18-per-call-approval-override.json",
	                             JS, 1, 0);
	if (!r) {
		skip();
		return;
	}
	/* the per-call approval records are notes, not calls */
	assert_string_equal(run_first_user_text(r), "approve selectively");
	assert_int_equal(r->nnotes, 1);
	run_free(r);
	dataset_close(&ds);

	r = fmt_wild_run(&ds, "openai-agents-js-runstate/v1.1-server-continuation.json", JS, 1, 0);
	assert_int_equal(r->nmsgs, 1);
	run_free(r);
	dataset_close(&ds);
	fmt_check_wild(JS, "openai-agents-js-runstate");
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
