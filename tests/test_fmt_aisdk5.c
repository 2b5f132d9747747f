/* test_fmt_aisdk5.c - the Vercel AI SDK v5 UI messages loader. */
#include "fmt_test.h"
#include "util/error.h"

#define SDK "ai-sdk-v5"

static void test_detect_confidence(void **state)
{
	assert_int_equal(fmt_score(SDK, fmt_samples[2].json), 65);
	assert_int_equal(fmt_score(SDK, fmt_samples[3].json), 55);
	assert_int_equal(fmt_score(SDK, "[{'role': 'assistant', 'parts': [{'type': 'dynamic-tool',"
	                                 " 'toolName': 'f', 'toolCallId': 'c', 'state': 'input-available'}]}]"), 65);
	/* v4 messages (Mastra 0.x) carry parts beside a content string. */
	assert_int_equal(fmt_score(SDK, "[{'role': 'user', 'content': 'hi', 'parts': [{'type': 'text', 'text': 'hi'}]}]"), 0);
	assert_int_equal(fmt_score(SDK, "[{'role': 'user', 'content': 'hi'}]"), 0);
	assert_int_equal(fmt_score(SDK, "{'inputMessages': [{'role': 'user', 'parts': []}]}"), 0);
	assert_int_equal(fmt_score(SDK, "[{'id': 'x', 'parts': []}]"), 0);
	assert_int_equal(fmt_score(SDK, "[]"), 0);
}

static const char *const chat =
	"{'messages': ["
	" {'id': 'u1', 'role': 'user', 'parts': [{'type': 'text', 'text': '注文 2087 は'},"
	"   {'type': 'file', 'mediaType': 'image/png', 'url': 'data:'},"
	"   {'type': 'text', 'text': 'どこですか？'}]},"
	" {'id': 'a1', 'role': 'assistant', 'parts': ["
	"   {'type': 'step-start'},"
	"   {'type': 'reasoning', 'text': 'need the order first', 'state': 'done'},"
	"   {'type': 'tool-lookup_order', 'toolCallId': 'c1', 'state': 'output-available',"
	"    'input': {'order': '2087'}, 'output': {'status': 'shipped'}, 'providerExecuted': false},"
	"   {'type': 'tool-lookup_order', 'toolCallId': 'c2', 'state': 'output-available',"
	"    'input': {'order': '2088'}, 'output': {'status': 'packing'}},"
	"   {'type': 'step-start'},"
	"   {'type': 'dynamic-tool', 'toolName': 'track_parcel', 'toolCallId': 'c3', 'state': 'output-error',"
	"    'input': {'tracking': 'SF88'}, 'errorText': '上游超时'},"
	"   {'type': 'source-url', 'sourceId': 's', 'url': 'https://example.com'},"
	"   {'type': 'data-weather', 'data': {'temp': 21}},"
	"   {'type': 'text', 'text': '2087 已发货 📦', 'state': 'done'}]}]}";

static void test_roles_and_text(void **state)
{
	struct run *r = fmt_load(chat, SDK);
	assert_int_equal(r->nmsgs, 2);
	assert_int_equal(r->msgs[0].role, ROLE_USER);
	assert_string_equal(r->msgs[0].text, "注文 2087 は\nどこですか？");
	assert_int_equal(r->msgs[1].role, ROLE_ASSISTANT);
	/* Reasoning, sources and data parts are not text. */
	assert_string_equal(r->msgs[1].text, "2087 已发货 📦");
	assert_int_equal(r->msgs[1].src_index, 1);
	assert_int_equal(r->msgs[1].raw, jv_at(r->doc, jv_get(r->doc, run_root(r), "messages"), 1));
	assert_false(r->msgs[1].is_tool_output);
	run_free(r);
}

static void test_tool_parts(void **state)
{
	struct run *r = fmt_load(chat, SDK);
	assert_int_equal(r->ncalls, 3);
	assert_int_equal(r->msgs[1].ncalls, 3);
	struct run_call *c = r->calls;
	const struct jdoc *d = r->doc;
	assert_string_equal(c[0].name, "lookup_order");
	assert_int_equal(c[0].raw_name, JV_NONE);     /* named by its part type only */
	assert_string_equal(c[0].id, "c1");
	assert_string_equal(jv_str(d, c[0].raw_id), "c1");
	assert_string_equal(c[0].raw_state, "output-available");
	assert_string_equal(jv_str(d, jv_get(d, c[0].args, "order")), "2087");
	assert_string_equal(json_string_value(json_object_get(run_call_args(r, &c[0]), "order")), "2087");
	assert_int_equal(c[0].state, CALL_COMPLETED);
	assert_string_equal(jv_str(d, jv_get(d, c[0].result, "status")), "shipped");
	assert_string_equal(json_string_value(json_object_get(run_call_result(r, &c[0]), "status")),
	                    "shipped");
	assert_int_equal(c[0].result_msg, -1);
	assert_int_equal(c[0].src_msg_index, 1);
	/* Parallel calls of one step. */
	assert_int_equal(c[1].index_in_msg, 1);
	assert_string_equal(jv_str(d, jv_get(d, c[1].result, "status")), "packing");
	assert_string_equal(c[2].name, "track_parcel");
	assert_string_equal(jv_str(d, c[2].raw_name), "track_parcel");
	assert_int_equal(c[2].state, CALL_FAILED);
	assert_true(c[2].is_error);
	assert_string_equal(c[2].error_text, "上游超时");
	assert_int_equal(run_agent_calls(r, NULL), 3);
	run_free(r);
}

static void test_states(void **state)
{
	struct run *r = fmt_load(
		"[{'id': 'a', 'role': 'assistant', 'parts': ["
		" {'type': 'tool-s0', 'toolCallId': 'k0', 'state': 'input-streaming', 'input': {'par': 'ti'}},"
		" {'type': 'tool-s1', 'toolCallId': 'k1', 'state': 'input-available', 'input': {}},"
		" {'type': 'tool-s2', 'toolCallId': 'k2', 'state': 'approval-requested', 'input': {},"
		"  'approval': {'id': 'ap1'}},"
		" {'type': 'tool-s3', 'toolCallId': 'k3', 'state': 'approval-responded', 'input': {},"
		"  'approval': {'id': 'ap2', 'approved': true}},"
		" {'type': 'tool-s4', 'toolCallId': 'k4', 'state': 'output-denied', 'input': {},"
		"  'approval': {'id': 'ap3', 'approved': false, 'reason': '金額が大きすぎる'}},"
		" {'type': 'tool-s5', 'toolCallId': 'k5', 'state': 'output-denied', 'input': {},"
		"  'approval': {'id': 'ap4', 'approved': false}},"
		" {'type': 'tool-s6', 'toolCallId': 'k6', 'state': 'output-error', 'input': {}},"
		" {'type': 'tool-s7', 'toolCallId': 'k7', 'state': 'output-available', 'input': {}, 'output': null,"
		"  'providerExecuted': true},"
		" {'type': 'tool-s8', 'toolCallId': 'k8', 'input': {}, 'output': 'no state given'},"
		" {'type': 'tool-', 'toolCallId': 'k9', 'state': 'input-available'}]}]",
		SDK);
	assert_int_equal(r->ncalls, 10);
	struct run_call *c = r->calls;
	assert_int_equal(c[0].state, CALL_PARTIAL);
	assert_false(c[0].has_result);
	assert_int_equal(c[1].state, CALL_REQUESTED);
	assert_int_equal(c[2].state, CALL_REQUESTED);
	assert_string_equal(c[2].raw_state, "approval-requested");
	assert_int_equal(c[3].state, CALL_REQUESTED);
	assert_int_equal(c[4].state, CALL_FAILED);
	assert_string_equal(c[4].error_text, "金額が大きすぎる");
	assert_int_equal(c[5].state, CALL_FAILED);
	assert_string_equal(c[5].error_text, "denied");
	assert_int_equal(c[6].state, CALL_FAILED);
	assert_string_equal(c[6].error_text, "error");
	assert_int_equal(c[7].state, CALL_COMPLETED);
	assert_true(jv_is_null(r->doc, c[7].result));
	assert_int_equal(c[8].state, CALL_COMPLETED);
	assert_null(c[8].raw_state);
	assert_string_equal(c[9].name, "");
	assert_int_equal(c[9].args, JV_NONE);
	assert_null(run_call_args(r, &c[9]));
	/* Partial calls never count. */
	assert_int_equal(run_agent_calls(r, NULL), 9);
	run_free(r);
}

static void test_arguments_and_ids(void **state)
{
	struct run *r = fmt_load(
		"[{'id': 'a', 'role': 'assistant', 'parts': ["
		" {'type': 'tool-f', 'toolCallId': 'x1', 'state': 'input-available', 'input': '{\\'q\\':\\'東京\\'}'},"
		" {'type': 'tool-g', 'toolCallId': 'x2', 'state': 'input-available', 'input': '{q: broken'},"
		" {'type': 'tool-h', 'toolCallId': 7, 'state': 'input-available', 'input': [1, 2]},"
		" {'type': 'tool-k', 'state': 'input-available'}]}]",
		SDK);
	/* String arguments stay the record's string until someone asks. */
	assert_string_equal(jv_str(r->doc, r->calls[0].args), "{\"q\":\"東京\"}");
	assert_string_equal(json_string_value(json_object_get(run_call_args(r, &r->calls[0]), "q")),
	                    "東京");
	assert_false(run_call_args_invalid(r, &r->calls[0]));
	assert_true(run_call_args_invalid(r, &r->calls[1]));
	assert_string_equal(run_call_args_text(r, &r->calls[1]), "{q: broken");
	assert_string_equal(r->calls[2].id, "7");
	assert_true(jv_is_integer(r->doc, r->calls[2].raw_id));
	assert_true(jv_is_array(r->doc, r->calls[2].args));
	assert_true(json_is_array(run_call_args(r, &r->calls[2])));
	assert_null(r->calls[3].id);
	run_free(r);
}

/* Parts in their order: reasoning as thinking, each tool part where it
 * came, the summary after; steps skipped; the rest noted. */
static void test_parts_in_order(void **state)
{
	(void)state;
	struct run *r = fmt_load(
		"[{'id': 'u', 'role': 'user', 'parts': [{'type': 'text', 'text': 'where?'},"
		"   {'type': 'file', 'mediaType': 'image/png', 'url': 'data:,'}]},"
		" {'id': 'a', 'role': 'assistant', 'parts': [{'type': 'step-start'},"
		"   {'type': 'reasoning', 'text': 'look it up'},"
		"   {'type': 'text', 'text': '調べます。'},"
		"   {'type': 'tool-lookup_order', 'toolCallId': 's1', 'state': 'output-available',"
		"    'input': {'order': '2087'}, 'output': {'status': 'shipped'}},"
		"   {'type': 'step-start'},"
		"   {'type': 'source-url', 'sourceId': 's', 'url': 'https://example.com'},"
		"   {'type': 'data-weather', 'data': {}},"
		"   {'type': 'sparkle'},"
		"   {'type': 'text', 'text': '已发货 📦'}]},"
		" {'id': 'c', 'role': 'critic', 'parts': [{'type': 'text', 'text': 'meh'}]}]",
		SDK);
	assert_int_equal(r->nmsgs, 3);
	assert_string_equal(fmt_parts(r, 0), "text note");
	assert_string_equal(r->parts[r->msgs[0].first_part + 1].text, "file image/png");
	assert_string_equal(fmt_parts(r, 1), "thinking text call note note note text");
	const struct run_part *p = &r->parts[r->msgs[1].first_part];
	assert_string_equal(p[0].text, "look it up");
	assert_string_equal(p[3].text, "source https://example.com");
	assert_string_equal(p[4].text, "data part \"data-weather\"");
	assert_string_equal(p[5].text, "part type \"sparkle\" (not read)");
	assert_string_equal(r->msgs[1].text, "調べます。\n已发货 📦");
	assert_int_equal(r->calls[0].state, CALL_COMPLETED);
	/* an unknown role is a note, not a refusal */
	assert_int_equal(r->msgs[2].role, ROLE_NOTE);
	assert_string_equal(r->parts[r->msgs[2].first_part].text, "role \"critic\": meh");
	run_free(r);
}

static void test_malformed(void **state)
{
	struct error err = {0};
	static const struct fmt_error_case cases[] = {
		{ "{'messages': 'hi'}", "messages: not an array" },
		{ "{'id': 'chat'}", "messages: missing" },
		{ "12", "an ai-sdk-v5 record must be an array of messages or {messages}" },
		{ "[{'id': 'u', 'role': 'user', 'parts': []}, 'x']", "[1]: not an object" },
		{ "{'messages': [{'id': 'u', 'parts': []}]}", "messages[0].role: missing" },
		{ "{'messages': [{'id': 'u', 'role': 'user', 'parts': {'type': 'text'}}]}",
		  "messages[0].parts: not an array" },
		{ "{'messages': [{'id': 'u', 'role': 'user', 'parts': [{'type': 'text', 'text': 'a'}, 9]}]}",
		  "messages[0].parts[1]: not an object" },
		{ "{'messages': [{'id': 'u', 'role': 'user', 'parts': [{'text': 'a'}]}]}",
		  "messages[0].parts[0].type: missing" },
		{ "[{'id': 'u', 'role': 'user', 'parts': [{'type': ['text']}]}]", "[0].parts[0].type: not a string" },
		{ NULL, NULL },
	};
	fmt_expect_errors(SDK, cases);
	/* A message without parts is empty, not broken. */
	assert_int_equal(fmt_load_err("[{'id': 'u', 'role': 'user'}]", SDK, &err), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_detect_confidence),
		cmocka_unit_test(test_roles_and_text),
		cmocka_unit_test(test_tool_parts),
		cmocka_unit_test(test_states),
		cmocka_unit_test(test_arguments_and_ids),
		cmocka_unit_test(test_parts_in_order),
		cmocka_unit_test(test_malformed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
