/* test_fmt_openai_responses.c - the OpenAI Responses items loader. */
#include "fmt_test.h"
#include "fmt_wild.h"

#define RESP "openai-responses"

static void test_detect_confidence(void **state)
{
	assert_int_equal(fmt_score(RESP, fmt_samples[6].json), 50);
	assert_int_equal(fmt_score(RESP, "{'output': [{'type': 'function_call', 'call_id': 'c',"
	                                 " 'name': 'f', 'arguments': '{}'}]}"), 50);
	/* A request whose input is plain role/content messages. */
	assert_int_equal(fmt_score(RESP, "{'input': [{'role': 'user', 'content': 'hi'}]}"), 30);
	/* A bare list of untyped messages is Chat's; Mastra's output is Mastra's. */
	assert_int_equal(fmt_score(RESP, "[{'role': 'user', 'content': 'hi'}]"), 0);
	assert_int_equal(fmt_score(RESP, "{'output': [{'role': 'assistant', 'content': {'format': 2}}]}"), 0);
	assert_int_equal(fmt_score(RESP, "[{'type': 'message', 'role': 'assistant', 'content': 'x',"
	                                 " 'tool_calls': []}]"), 0);
	assert_int_equal(fmt_score(RESP, "{'messages': [{'type': 'message', 'role': 'user', 'content': 'x'}]}"), 0);
	assert_int_equal(fmt_score(RESP, "[{'type': 'message', 'role': 'user', 'content': 'x'}, 3]"), 0);
	assert_int_equal(fmt_score(RESP, "'input'"), 0);
}

static const char *const exchange =
	"{'model': 'gpt-4.1', 'instructions': 'You are a shop assistant.',"
	" 'tools': [{'type': 'function', 'name': 'lookup_order'}],"
	" 'input': ["
	"  {'role': 'user', 'content': '注文 2087 はどこですか？'},"
	"  {'type': 'message', 'role': 'developer', 'content': [{'type': 'input_text', 'text': 'Be brief.'}]}],"
	" 'output': ["
	"  {'type': 'reasoning', 'id': 'rs_1', 'summary': [{'type': 'summary_text', 'text': 'look it up'}]},"
	"  {'type': 'function_call', 'id': 'fc_1', 'call_id': 'call_1', 'name': 'lookup_order',"
	"   'arguments': '{\\'order\\':\\'2087\\'}', 'status': 'completed'},"
	"  {'type': 'function_call', 'id': 'fc_2', 'call_id': 'call_2', 'name': 'track_parcel',"
	"   'arguments': '{\\'tracking\\':\\'SF88\\'}', 'status': 'completed'},"
	"  {'type': 'function_call_output', 'call_id': 'call_2', 'output': 'Error: upstream timeout'},"
	"  {'type': 'function_call_output', 'call_id': 'call_1',"
	"   'output': [{'type': 'input_text', 'text': '{\\'status\\':\\'shipped\\'}'}]},"
	"  {'type': 'message', 'role': 'assistant', 'status': 'completed',"
	"   'content': [{'type': 'output_text', 'text': '已发货 📦', 'annotations': []}]}]}";

static void test_messages_and_order(void **state)
{
	struct run *r = fmt_load(exchange, RESP);
	assert_int_equal(r->nmsgs, 9);
	/* instructions first, then input items, then output items. */
	assert_int_equal(r->msgs[0].role, ROLE_SYSTEM);
	assert_string_equal(r->msgs[0].text, "You are a shop assistant.");
	assert_int_equal(r->msgs[1].role, ROLE_USER);
	assert_string_equal(r->msgs[1].text, "注文 2087 はどこですか？");
	assert_int_equal(r->msgs[1].origin, MSG_IN_INPUT);
	assert_int_equal(r->msgs[1].src_index, 0);
	assert_int_equal(r->msgs[2].role, ROLE_SYSTEM);
	assert_string_equal(r->msgs[2].text, "Be brief.");
	/* Reasoning is a thinking part of a message without text. */
	assert_int_equal(r->msgs[3].role, ROLE_ASSISTANT);
	assert_string_equal(r->msgs[3].text, "");
	assert_int_equal(r->msgs[3].nparts, 1);
	assert_int_equal(r->parts[r->msgs[3].first_part].kind, PART_THINKING);
	assert_string_equal(r->parts[r->msgs[3].first_part].text, "look it up");
	assert_int_equal(r->msgs[3].ncalls, 0);
	assert_int_equal(r->msgs[3].origin, MSG_IN_OUTPUT);
	assert_int_equal(r->msgs[3].src_index, 0);
	assert_int_equal(r->msgs[3].raw, jv_at(r->doc, jv_get(r->doc, run_root(r), "output"), 0));
	assert_int_equal(r->msgs[8].role, ROLE_ASSISTANT);
	assert_string_equal(run_final_agent_text(r), "已发货 📦");
	assert_string_equal(run_first_user_text(r), "注文 2087 はどこですか？");
	assert_string_equal(r->model, "gpt-4.1");
	assert_int_equal(r->tool_defs, jv_get(r->doc, run_root(r), "tools"));
	assert_true(json_is_array(run_tool_defs(r)));
	run_free(r);
}

static void test_function_calls(void **state)
{
	struct run *r = fmt_load(exchange, RESP);
	assert_int_equal(r->ncalls, 2);
	struct run_call *c = &r->calls[0];
	/* call_id is the link key; the item's own id is not the call's. */
	assert_string_equal(c->id, "call_1");
	assert_string_equal(jv_str(r->doc, c->raw_id), "call_1");
	assert_string_equal(c->name, "lookup_order");
	assert_string_equal(json_string_value(json_object_get(run_call_args(r, c), "order")), "2087");
	assert_int_equal(c->msg_index, 4);
	assert_int_equal(c->src_msg_index, 1);
	assert_string_equal(c->raw_state, "completed");
	assert_int_equal(c->state, CALL_COMPLETED);
	assert_int_equal(c->result_msg, 7);
	assert_true(json_is_array(run_call_result(r, c)));
	assert_string_equal(r->msgs[7].text, "{\"status\":\"shipped\"}");
	c = &r->calls[1];
	assert_int_equal(c->msg_index, 5);
	assert_int_equal(c->state, CALL_FAILED);
	assert_string_equal(c->error_text, "Error: upstream timeout");
	assert_int_equal(r->msgs[6].role, ROLE_TOOL);
	assert_true(r->msgs[6].is_tool_output);
	assert_int_equal(run_agent_calls(r, NULL), 2);
	run_free(r);
}

static void test_states_args_and_unmatched(void **state)
{
	struct run *r = fmt_load(
		"[{'type': 'message', 'role': 'user', 'content': 'go'},"
		" {'type': 'function_call', 'call_id': 'c1', 'name': 'f', 'arguments': '{bad', 'status': 'completed'},"
		" {'type': 'function_call', 'call_id': 'c2', 'name': 'g', 'arguments': '{\\'a\\':', 'status': 'incomplete'},"
		" {'type': 'function_call', 'call_id': 'c3', 'name': 'h', 'arguments': '{}', 'status': 'in_progress'},"
		" {'type': 'function_call_output', 'call_id': 'zz', 'output': 'stray'},"
		" {'type': 'function_call_output', 'output': 'no call_id'}]",
		RESP);
	assert_int_equal(r->ncalls, 3);
	assert_true(run_call_args_invalid(r, &r->calls[0]));
	assert_string_equal(run_call_args_text(r, &r->calls[0]), "{bad");
	assert_int_equal(r->calls[0].state, CALL_REQUESTED);
	assert_false(r->calls[0].has_result);
	assert_int_equal(r->calls[1].state, CALL_PARTIAL);
	assert_int_equal(r->calls[2].state, CALL_REQUESTED);
	assert_string_equal(r->calls[2].raw_state, "in_progress");
	/* Partial calls are never counted. */
	assert_int_equal(run_agent_calls(r, NULL), 2);
	assert_true(r->msgs[4].unmatched_result);
	assert_string_equal(r->msgs[4].text, "stray");
	assert_true(r->msgs[5].unmatched_result);
	run_free(r);
}

static void test_parallel_calls(void **state)
{
	struct run *r = fmt_load(
		"{'output': ["
		" {'type': 'function_call', 'call_id': 'p1', 'name': 'weather', 'arguments': '{\\'city\\':\\'北京\\'}'},"
		" {'type': 'function_call', 'call_id': 'p2', 'name': 'weather', 'arguments': '{\\'city\\':\\'上海\\'}'},"
		" {'type': 'function_call_output', 'call_id': 'p2', 'output': '雨'},"
		" {'type': 'function_call_output', 'call_id': 'p1', 'output': '晴'}]}",
		RESP);
	assert_int_equal(r->ncalls, 2);
	/* One message per item, so each message's raw is one item. */
	assert_int_equal(r->calls[0].msg_index, 0);
	assert_int_equal(r->calls[1].msg_index, 1);
	assert_string_equal(json_string_value(run_call_result(r, &r->calls[0])), "晴");
	assert_string_equal(json_string_value(run_call_result(r, &r->calls[1])), "雨");
	assert_int_equal(r->calls[0].result_msg, 3);
	assert_int_equal(r->calls[1].result_msg, 2);
	run_free(r);
}

static void test_custom_mcp_and_builtins(void **state)
{
	struct run *r = fmt_load(
		"[{'type': 'custom_tool_call', 'id': 'ct_1', 'call_id': 'cu1', 'name': 'apply_patch',"
		"  'input': '*** Begin Patch ***'},"
		" {'type': 'custom_tool_call_output', 'call_id': 'cu1', 'output': 'patched'},"
		" {'type': 'mcp_list_tools', 'id': 'ml_1', 'server_label': 'shop', 'tools': []},"
		" {'type': 'mcp_call', 'id': 'mcp_1', 'server_label': 'shop', 'name': 'stock',"
		"  'arguments': '{\\'sku\\':\\'A1\\'}', 'output': '在庫あり', 'error': null, 'status': 'completed'},"
		" {'type': 'mcp_call', 'id': 'mcp_2', 'server_label': 'shop', 'name': 'stock',"
		"  'arguments': '{}', 'output': null, 'error': 'server unreachable'},"
		" {'type': 'web_search_call', 'id': 'ws_1', 'status': 'completed',"
		"  'action': {'type': 'search', 'query': '順豊 追跡'}},"
		" {'type': 'file_search_call', 'id': 'fs_1', 'status': 'completed', 'queries': ['policy'],"
		"  'results': [{'text': 'Returns within 30 days'}]},"
		" {'type': 'code_interpreter_call', 'id': 'ci_1', 'status': 'in_progress', 'code': 'print(1)'},"
		" {'type': 'computer_call', 'id': 'cc_1', 'call_id': 'cmp1', 'status': 'completed',"
		"  'action': {'type': 'click', 'x': 1, 'y': 2}},"
		" {'type': 'computer_call_output', 'call_id': 'cmp1',"
		"  'output': {'type': 'computer_screenshot', 'image_url': 'data:'}}]",
		RESP);
	assert_int_equal(r->ncalls, 7);
	struct run_call *c = r->calls;
	/* Custom tools take free text: kept as a string, not flagged. */
	assert_string_equal(c[0].id, "cu1");
	assert_string_equal(c[0].name, "apply_patch");
	assert_string_equal(json_string_value(run_call_args(r, &c[0])), "*** Begin Patch ***");
	assert_false(run_call_args_invalid(r, &c[0]));
	assert_int_equal(c[0].state, CALL_COMPLETED);
	assert_int_equal(c[0].result_msg, 1);
	/* An MCP call holds its own outcome. */
	assert_string_equal(c[1].id, "mcp_1");
	assert_string_equal(c[1].name, "shop.stock");
	assert_string_equal(json_string_value(json_object_get(run_call_args(r, &c[1]), "sku")), "A1");
	assert_int_equal(c[1].state, CALL_COMPLETED);
	assert_int_equal(c[1].result_msg, -1);
	assert_string_equal(json_string_value(run_call_result(r, &c[1])), "在庫あり");
	assert_int_equal(c[2].state, CALL_FAILED);
	assert_string_equal(c[2].error_text, "server unreachable");
	/* Hosted tools are named by their tool's type. */
	assert_string_equal(c[3].name, "web_search");
	assert_string_equal(c[3].id, "ws_1");
	assert_int_equal(c[3].state, CALL_COMPLETED);
	assert_string_equal(json_string_value(json_object_get(run_call_args(r, &c[3]), "query")), "順豊 追跡");
	assert_string_equal(c[4].name, "file_search");
	assert_true(json_is_array(run_call_result(r, &c[4])));
	assert_string_equal(c[5].name, "code_interpreter");
	assert_int_equal(c[5].state, CALL_REQUESTED);
	assert_string_equal(json_string_value(run_call_args(r, &c[5])), "print(1)");
	/* The computer tool runs on the client: its output is a separate item. */
	assert_string_equal(c[6].name, "computer");
	assert_string_equal(c[6].id, "cmp1");
	assert_int_equal(c[6].state, CALL_COMPLETED);
	assert_int_equal(c[6].result_msg, 9);
	assert_string_equal(r->msgs[2].text, "");       /* mcp_list_tools */
	assert_int_equal(r->msgs[2].ncalls, 0);
	assert_string_equal(r->parts[r->msgs[2].first_part].text, "MCP server shop lists 0 tools");
	for (size_t i = 0; i < r->nmsgs; i++)
		assert_false(r->msgs[i].unmatched_result);
	run_free(r);
}

static void test_string_input_and_output(void **state)
{
	struct run *r = fmt_load("{'input': 'こんにちは', 'output': [{'type': 'message', 'role': 'assistant',"
	                         " 'content': [{'type': 'refusal', 'refusal': '不行 🙅'}]}]}", RESP);
	assert_int_equal(r->nmsgs, 2);
	assert_int_equal(r->msgs[0].role, ROLE_USER);
	assert_string_equal(r->msgs[0].text, "こんにちは");
	assert_int_equal(r->msgs[0].origin, MSG_IN_INPUT);
	/* A refusal is the answer. */
	assert_string_equal(run_final_agent_text(r), "不行 🙅");
	run_free(r);
}

static void test_input_and_output_origins(void **state)
{
	static const char *const items =
		"[{'role': 'user', 'content': '注文 2087 は？'},"
		" {'type': 'function_call', 'call_id': 'c1', 'name': 'lookup_order', 'arguments': '{}'},"
		" {'type': 'function_call_output', 'call_id': 'c1', 'output': 'shipped'}]";
	char buf[1024];
	/* Both lists: the earlier call in input is context, not judged. */
	snprintf(buf, sizeof(buf), "{'input': %s, 'output': [{'type': 'function_call', 'call_id': 'c2',"
	         " 'name': 'track_parcel', 'arguments': '{}'}]}", items);
	struct run *r = fmt_load(buf, RESP);
	assert_int_equal(r->ncalls, 2);
	assert_true(r->calls[0].has_result);
	assert_int_equal(r->msgs[r->calls[0].msg_index].origin, MSG_IN_INPUT);
	assert_int_equal(r->msgs[r->calls[1].msg_index].origin, MSG_IN_OUTPUT);
	size_t idx[2];
	assert_int_equal(run_agent_calls(r, idx), 1);
	assert_int_equal(idx[0], 1);
	run_free(r);
	/* Input alone is the whole trajectory. */
	snprintf(buf, sizeof(buf), "{'input': %s}", items);
	r = fmt_load(buf, RESP);
	for (size_t i = 0; i < r->nmsgs; i++)
		assert_int_equal(r->msgs[i].origin, MSG_IN_OUTPUT);
	assert_int_equal(run_agent_calls(r, NULL), 1);
	run_free(r);
}

static void test_malformed(void **state)
{
	static const struct fmt_error_case cases[] = {
		{ "{'input': {'role': 'user'}}", "input: not an array or a string" },
		{ "{'input': [], 'output': 5}", "output: not an array or a string" },
		{ "{'model': 'gpt'}", "input, output: missing" },
		{ "true", "an openai-responses record must be an array of items or an object" },
		{ "[{'type': 'message', 'role': 'user', 'content': 'a'}, 3]", "[1]: not an object" },
		{ "{'output': [{'type': 7}]}", "output[0].type: not a string" },
		{ "{'output': [{'call_id': 'x'}]}", "output[0].type: missing" },
		{ "{'input': [{'type': 'message', 'content': 'a'}]}", "input[0].role: missing" },
		{ "{'input': [{'type': 'message', 'role': 'wizard', 'content': 'a'}]}",
		  "input[0].role: unknown role \"wizard\"" },
		{ "{'input': [{'type': 'message', 'role': 'user', 'content': 'a'},"
		  " {'type': 'message', 'role': 'user', 'content': {'text': 'a'}}]}",
		  "input[1].content: not a string, a list or null" },
		{ NULL, NULL },
	};
	fmt_expect_errors(RESP, cases);
}

static void test_shell_patch_and_image(void **state)
{
	struct run *r = fmt_load(
		"{'input': [], 'output': ["
		" {'type': 'shell_call', 'id': 'sh_1', 'call_id': 's1', 'status': 'completed',"
		"  'action': {'commands': ['ls -a', 'cat 说明.txt'], 'timeout_ms': 1000}},"
		" {'type': 'shell_call_output', 'call_id': 's1', 'output': ["
		"  {'stdout': 'a.txt', 'stderr': '', 'outcome': {'type': 'exit', 'exit_code': 0}},"
		"  {'stdout': '', 'stderr': 'cat: 说明.txt: No such file', 'outcome': {'type': 'exit', 'exit_code': 1}}]},"
		" {'type': 'apply_patch_call', 'id': 'apc_1', 'call_id': 'ap1', 'status': 'completed',"
		"  'operation': {'type': 'update_file', 'path': 'README.md', 'diff': '-a\\n+b\\n'}},"
		" {'type': 'apply_patch_call_output', 'call_id': 'ap1', 'status': 'failed', 'output': 'hunk 1 rejected'},"
		" {'type': 'local_shell_call', 'id': 'ls_1', 'call_id': 'l1', 'status': 'completed',"
		"  'action': {'type': 'exec', 'command': ['echo', 'hi'], 'env': {}}},"
		" {'type': 'local_shell_call_output', 'id': 'l1', 'output': 'hi'},"
		" {'type': 'image_generation_call', 'id': 'ig_1', 'status': 'completed', 'result': 'iVBORw0K'},"
		" {'type': 'image_generation_call', 'id': 'ig_2', 'status': 'failed', 'result': null}]}",
		RESP);
	assert_int_equal(r->ncalls, 5);
	struct run_call *c = r->calls;
	/* shell_call: named by its type, its action the arguments, its output
	 * item's streams the result text. */
	assert_string_equal(c[0].name, "shell");
	assert_string_equal(c[0].id, "s1");
	assert_true(json_is_array(json_object_get(run_call_args(r, &c[0]), "commands")));
	assert_int_equal(c[0].state, CALL_COMPLETED);
	assert_int_equal(c[0].result_msg, 1);
	assert_string_equal(r->msgs[1].text, "a.txt\ncat: 说明.txt: No such file");
	/* apply_patch_call: the operation is the arguments; a failed output fails it. */
	assert_string_equal(c[1].name, "apply_patch");
	assert_string_equal(json_string_value(json_object_get(run_call_args(r, &c[1]), "path")), "README.md");
	assert_false(run_call_args_invalid(r, &c[1]));
	assert_int_equal(c[1].state, CALL_FAILED);
	assert_string_equal(c[1].error_text, "hunk 1 rejected");
	/* local_shell_call_output names its call by id. */
	assert_string_equal(c[2].name, "local_shell");
	assert_int_equal(c[2].state, CALL_COMPLETED);
	assert_int_equal(c[2].result_msg, 5);
	/* Image generation carries its own result; status failed fails it. */
	assert_string_equal(c[3].name, "image_generation");
	assert_string_equal(c[3].id, "ig_1");
	assert_int_equal(c[3].state, CALL_COMPLETED);
	assert_string_equal(json_string_value(run_call_result(r, &c[3])), "iVBORw0K");
	assert_int_equal(c[4].state, CALL_FAILED);
	assert_string_equal(c[4].error_text, "failed");
	assert_int_equal(fmt_count_unmatched(r), 0);
	run_free(r);
	/* Detected by these types alone, and an empty input says nothing. */
	assert_int_equal(fmt_score(RESP, "{'input': [], 'output': [{'type': 'shell_call', 'call_id': 'x',"
	                                 " 'action': {}}]}"), 50);
	assert_int_equal(fmt_score(RESP, "{'input': [], 'output': []}"), 0);
}

static const struct run_part *part_of(const struct run *r, size_t mi, size_t k)
{
	assert_true(k < r->msgs[mi].nparts);
	return &r->parts[r->msgs[mi].first_part + k];
}

static void test_reasoning_parts(void **state)
{
	struct run *r = fmt_load(
		"[{'type': 'message', 'role': 'user', 'content': '注文 2087 は？'},"
		" {'type': 'reasoning', 'id': 'rs_1', 'summary': [{'type': 'summary_text', 'text': '**Plan**'},"
		"   {'type': 'summary_text', 'text': '调用工具'}]},"
		" {'type': 'reasoning', 'id': 'rs_2', 'summary': [],"
		"  'content': [{'type': 'reasoning_text', 'text': 'raw chain'}]},"
		" {'type': 'reasoning', 'id': 'rs_3', 'summary': [], 'content': null,"
		"  'encrypted_content': 'gAAAA'},"
		" {'type': 'message', 'role': 'assistant', 'content': [{'type': 'output_text', 'text': '已发货'}]}]",
		RESP);
	assert_int_equal(r->nmsgs, 5);
	/* summaries joined, else the content, else an empty thinking part */
	static const char *const want[] = { "**Plan**\n调用工具", "raw chain", "" };
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(r->msgs[1 + i].role, ROLE_ASSISTANT);
		assert_string_equal(r->msgs[1 + i].text, "");
		assert_int_equal(r->msgs[1 + i].nparts, 1);
		assert_int_equal(part_of(r, 1 + i, 0)->kind, PART_THINKING);
		assert_string_equal(part_of(r, 1 + i, 0)->text, want[i]);
	}
	assert_int_equal(r->nnotes, 0);
	assert_string_equal(run_final_agent_text(r), "已发货");
	run_free(r);
}

static void test_hosted_names_and_inputs(void **state)
{
	struct run *r = fmt_load(
		"{'output': ["
		" {'type': 'web_search_call', 'status': 'completed',"
		"  'action': {'type': 'search', 'query': '順豊', 'queries': ['順豊', 'SF 2087']}},"
		" {'type': 'code_interpreter_call', 'id': 'ci_1', 'status': 'completed', 'code': 'print(2087)',"
		"  'container_id': 'cntr', 'outputs': [{'type': 'logs', 'logs': '2087'}]},"
		" {'type': 'mcp_call', 'id': 'mcp_1', 'server_label': 'deepwiki', 'name': 'ask_question',"
		"  'arguments': '{\\'q\\':\\'x\\'}', 'output': 'answer', 'status': 'completed'},"
		" {'type': 'mcp_call', 'id': 'mcp_2', 'name': 'ask_question', 'arguments': '{}', 'output': 'a'},"
		" {'type': 'file_search_call', 'id': 'fs_1', 'status': 'failed', 'queries': ['退货']},"
		" {'type': 'local_shell_call', 'call_id': 'l1', 'status': 'completed',"
		"  'action': {'type': 'exec', 'command': ['ls']}}]}",
		RESP);
	assert_int_equal(r->ncalls, 6);
	struct run_call *c = r->calls;
	/* Codex writes web searches with no id and no outcome but their
	 * status: done, no result, no error, not an unmatched anything. */
	assert_string_equal(c[0].name, "web_search");
	assert_null(c[0].id);
	assert_int_equal(c[0].state, CALL_COMPLETED);
	assert_false(c[0].is_error);
	assert_null(run_call_result(r, &c[0]));
	json_t *a = run_call_args(r, &c[0]);
	assert_string_equal(json_string_value(json_object_get(a, "query")), "順豊");
	assert_int_equal(json_array_size(json_object_get(a, "queries")), 2);
	assert_string_equal(c[1].name, "code_interpreter");
	assert_string_equal(json_string_value(run_call_args(r, &c[1])), "print(2087)");
	assert_true(json_is_array(run_call_result(r, &c[1])));
	/* MCP: the server's label and the tool's name; raw_name is the tool's */
	assert_string_equal(c[2].name, "deepwiki.ask_question");
	assert_string_equal(jv_str(r->doc, c[2].raw_name), "ask_question");
	assert_string_equal(json_string_value(run_call_result(r, &c[2])), "answer");
	assert_string_equal(c[3].name, "ask_question");
	assert_string_equal(c[4].name, "file_search");
	assert_int_equal(c[4].state, CALL_FAILED);
	assert_string_equal(c[5].name, "local_shell");
	assert_int_equal(c[5].state, CALL_REQUESTED);
	assert_int_equal(fmt_count_unmatched(r), 0);
	run_free(r);
}

static void test_listings_and_unknown_items(void **state)
{
	struct run *r = fmt_load(
		"[{'type': 'mcp_list_tools', 'id': 'ml_1', 'server_label': 'shop',"
		"  'tools': [{'name': 'stock'}, {'name': 'refund'}]},"
		" {'type': 'tool_search_call', 'arguments': {'query': 'account balance'}, 'status': 'completed'},"
		" {'type': 'tool_search_output', 'tools': [{'type': 'function', 'name': 'lookup'}]},"
		" {'type': 'mcp_approval_request', 'id': 'ar_1', 'server_label': 'shop', 'name': 'refund',"
		"  'arguments': '{}'},"
		" {'type': 'mcp_approval_response', 'approval_request_id': 'ar_1', 'approve': true},"
		" {'type': 'item_reference', 'id': 'msg_9'},"
		" {'type': 'hologram_call_v2_thing', 'id': 'x'}]",
		RESP);
	assert_int_equal(r->nmsgs, 7);
	assert_int_equal(r->ncalls, 0);
	assert_int_equal(run_agent_calls(r, NULL), 0);
	static const char *const want[] = {
		"MCP server shop lists 2 tools: stock, refund",
		"tool search: account balance",
		"tool search found 1 tools: lookup",
		"asks approval to call shop.refund",
		"MCP call approved",
		"reference to item msg_9",
		"item type \"hologram_call_v2_thing\" (not read)",
	};
	for (size_t i = 0; i < 7; i++) {
		assert_string_equal(r->msgs[i].text, "");
		assert_int_equal(part_of(r, i, 0)->kind, PART_NOTE);
		assert_string_equal(part_of(r, i, 0)->text, want[i]);
		assert_int_equal(r->msgs[i].src_index, (long)i);
	}
	assert_int_equal(r->msgs[4].role, ROLE_USER);
	assert_int_equal(r->msgs[6].role, ROLE_NOTE);
	assert_int_equal(r->nnotes, 7);
	run_free(r);
	/* a long list is cut after its first eight names */
	r = fmt_load("[{'type': 'mcp_list_tools', 'server_label': 's', 'tools': [{'name': 'a'}, {'name': 'b'},"
	             " {'name': 'c'}, {'name': 'd'}, {'name': 'e'}, {'name': 'f'}, {'name': 'g'},"
	             " {'name': 'h'}, {'name': 'i'}, {'name': 'j'}]}]", RESP);
	assert_string_equal(part_of(r, 0, 0)->text,
	                    "MCP server s lists 10 tools: a, b, c, d, e, f, g, h and 2 more");
	run_free(r);
}

static void test_parallel_wrapper(void **state)
{
	struct run *r = fmt_load(
		"[{'type': 'function_call', 'id': 'fc_p', 'call_id': 'call_p', 'name': 'parallel',"
		"  'arguments': '{\\'tool_uses\\':[{\\'recipient_name\\':\\'functions.lookup_order\\',"
		"\\'parameters\\':{\\'order\\':\\'2087\\'}},{\\'recipient_name\\':\\'functions.track_parcel\\',"
		"\\'parameters\\':{\\'tracking\\':\\'SF88\\'}}]}', 'status': 'completed'},"
		" {'type': 'function_call_output', 'call_id': 'call_p', 'output': 'both done'},"
		" {'type': 'function_call', 'call_id': 'c2', 'name': 'parallel', 'arguments': '{\\'x\\':1}'}]",
		RESP);
	assert_int_equal(r->ncalls, 3);
	struct run_call *c = r->calls;
	/* unwrapped: one message, two calls with their own names and arguments */
	assert_int_equal(r->msgs[0].ncalls, 2);
	assert_string_equal(c[0].name, "lookup_order");
	assert_string_equal(json_string_value(json_object_get(run_call_args(r, &c[0]), "order")), "2087");
	assert_false(run_call_args_invalid(r, &c[0]));
	assert_string_equal(c[1].name, "track_parcel");
	assert_string_equal(json_string_value(json_object_get(run_call_args(r, &c[1]), "tracking")), "SF88");
	assert_int_equal(c[1].src_call_index, 1);
	assert_string_equal(c[0].id, "call_p");
	assert_string_equal(c[1].id, "call_p");
	/* the wrapper's output answers the last of them */
	assert_int_equal(c[1].state, CALL_COMPLETED);
	assert_int_equal(c[1].result_msg, 1);
	assert_int_equal(c[0].state, CALL_REQUESTED);
	assert_int_equal(fmt_count_unmatched(r), 0);
	/* a "parallel" that wraps nothing stays the call it is */
	assert_string_equal(c[2].name, "parallel");
	assert_int_equal(json_integer_value(json_object_get(run_call_args(r, &c[2]), "x")), 1);
	assert_int_equal(run_agent_calls(r, NULL), 3);
	run_free(r);
}

static void test_wild_samples(void **state)
{
	(void)state;
	struct dataset ds;
	struct run *r = fmt_wild_run(&ds, "openai-responses/openai-apply-patch-tool.1.json", RESP, 1, 1);
	if (!r) {
		skip();
		return;
	}
	assert_string_equal(r->calls[0].name, "apply_patch");
	assert_string_equal(json_string_value(json_object_get(run_call_args(r, &r->calls[0]), "path")),
	                    "shopping-checklist.md");
	assert_int_equal(r->calls[0].state, CALL_REQUESTED);    /* no output item in the response */
	run_free(r);
	dataset_close(&ds);

	r = fmt_wild_run(&ds, "openai-responses/openai-local-shell-tool.1.json", RESP, 1, 1);
	assert_string_equal(r->calls[0].name, "local_shell");
	assert_true(json_is_object(run_call_args(r, &r->calls[0])));
	run_free(r);
	dataset_close(&ds);

	/* The README counts the "parallel" wrapper as 1 and says a loader
	 * should unwrap it into its 2 inner calls: 2 here. */
	r = fmt_wild_run(&ds, "openai-responses/parallel-tool-call-wrapper.1.json", RESP, 1, 2);
	assert_string_equal(r->calls[0].name, "weather");
	assert_string_equal(json_string_value(json_object_get(run_call_args(r, &r->calls[0]), "location")),
	                    "San Francisco");
	assert_string_equal(r->calls[1].name, "cityAttractions");
	assert_string_equal(json_string_value(json_object_get(run_call_args(r, &r->calls[1]), "city")),
	                    "Rome");
	assert_int_equal(r->calls[1].msg_index, r->calls[0].msg_index);
	run_free(r);
	dataset_close(&ds);
	fmt_check_wild(RESP, "openai-responses");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_detect_confidence),
		cmocka_unit_test(test_messages_and_order),
		cmocka_unit_test(test_function_calls),
		cmocka_unit_test(test_states_args_and_unmatched),
		cmocka_unit_test(test_parallel_calls),
		cmocka_unit_test(test_custom_mcp_and_builtins),
		cmocka_unit_test(test_string_input_and_output),
		cmocka_unit_test(test_input_and_output_origins),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_shell_patch_and_image),
		cmocka_unit_test(test_reasoning_parts),
		cmocka_unit_test(test_hosted_names_and_inputs),
		cmocka_unit_test(test_listings_and_unknown_items),
		cmocka_unit_test(test_parallel_wrapper),
		cmocka_unit_test(test_wild_samples),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
