/* test_fmt_anthropic.c - the Anthropic Messages loader. */
#include "fmt_test.h"
#include "util/error.h"

#define ANTH "anthropic"
#define REAL_SAMPLE "anthropic_claude_code_sample.jsonl"

static void test_detect_confidence(void **state)
{
	assert_int_equal(fmt_score(ANTH, fmt_samples[8].json), 60);
	assert_int_equal(fmt_score(ANTH, fmt_samples[9].json), 45);
	/* Thinking alone is enough; so is a bare array with blocks. */
	assert_int_equal(fmt_score(ANTH, "{'messages': [{'role': 'assistant', 'content': ["
	                                 " {'type': 'thinking', 'thinking': 'hm', 'signature': 's'}]}]}"), 60);
	assert_int_equal(fmt_score(ANTH, "[{'role': 'user', 'content': [{'type': 'tool_result',"
	                                 " 'tool_use_id': 't', 'content': 'x'}]}]"), 60);
	/* No system and no blocks of its own: not claimed. */
	assert_int_equal(fmt_score(ANTH, "{'messages': [{'role': 'user', 'content': 'hi'}]}"), 0);
	/* OpenAI keys beside a top-level system. */
	assert_int_equal(fmt_score(ANTH, "{'system': 'x', 'messages': [{'role': 'assistant', 'content': null,"
	                                 " 'tool_calls': [{'id': 'c', 'type': 'function',"
	                                 "   'function': {'name': 'f', 'arguments': '{}'}}]}]}"), 0);
	/* Azure's tool_result items sit in role tool messages. */
	assert_int_equal(fmt_score(ANTH, "[{'role': 'tool', 'tool_call_id': 'c',"
	                                 " 'content': [{'type': 'tool_result', 'tool_result': 'ok'}]}]"), 0);
	assert_int_equal(fmt_score(ANTH, "{'messages': 3}"), 0);
	/* Messages saved as API responses carry type: message. */
	assert_int_equal(fmt_score(ANTH, "[{'role': 'user', 'content': 'hi'},"
	                                 " {'id': 'msg_1', 'type': 'message', 'role': 'assistant', 'content': ["
	                                 "   {'type': 'tool_use', 'id': 't', 'name': 'f', 'input': {}}]}]"), 60);
}

static const char *const session =
	"{'model': 'claude-sonnet-4-5',"
	" 'system': [{'type': 'text', 'text': 'You are a shop assistant.'},"
	"            {'type': 'text', 'text': 'Answer in the user\\u0027s language.'}],"
	" 'tools': [{'name': 'lookup_order', 'input_schema': {'type': 'object'}}],"
	" 'messages': ["
	"  {'role': 'user', 'content': '注文 2087 と 2088 はどこですか？'},"
	"  {'role': 'assistant', 'id': 'msg_1', 'content': ["
	"    {'type': 'thinking', 'thinking': 'two lookups in parallel', 'signature': 'sig'},"
	"    {'type': 'text', 'text': '調べます。'},"
	"    {'type': 'tool_use', 'id': 'toolu_1', 'name': 'lookup_order', 'input': {'order': '2087'},"
	"     'caller': {'type': 'direct'}},"
	"    {'type': 'tool_use', 'id': 'toolu_2', 'name': 'lookup_order', 'input': {'order': '2088'}}]},"
	"  {'role': 'user', 'content': ["
	"    {'type': 'tool_result', 'tool_use_id': 'toolu_2', 'is_error': true,"
	"     'content': [{'type': 'text', 'text': 'order not found'}]},"
	"    {'type': 'tool_result', 'tool_use_id': 'toolu_1', 'content': '{\\'status\\':\\'shipped\\'}'},"
	"    {'type': 'text', 'text': 'ついでに追跡も'}]},"
	"  {'role': 'assistant', 'content': ["
	"    {'type': 'tool_use', 'id': 'toolu_3', 'name': 'track_parcel', 'input': {'tracking': 'SF88'}}]},"
	"  {'role': 'user', 'content': ["
	"    {'type': 'tool_result', 'tool_use_id': 'toolu_3', 'is_error': true}]},"
	"  {'role': 'assistant', 'content': [{'type': 'redacted_thinking', 'data': 'xx'},"
	"    {'type': 'text', 'text': '2087 已发货 📦'}, {'type': 'text', 'text': '2088 未找到'}]}]}";

static void test_messages_and_splitting(void **state)
{
	struct run *r = fmt_load(session, ANTH);
	/* system, user, assistant, tool, tool, user text, assistant, tool, assistant */
	assert_int_equal(r->nmsgs, 9);
	assert_int_equal(r->msgs[0].role, ROLE_SYSTEM);
	assert_string_equal(r->msgs[0].text, "You are a shop assistant.\nAnswer in the user's language.");
	assert_int_equal(r->msgs[0].src_index, -1);
	assert_int_equal(r->msgs[1].role, ROLE_USER);
	assert_int_equal(r->msgs[1].src_index, 0);
	/* Thinking is not text; it is still in raw. */
	assert_int_equal(r->msgs[2].role, ROLE_ASSISTANT);
	assert_string_equal(r->msgs[2].text, "調べます。");
	assert_int_equal(r->msgs[2].raw, jv_at(r->doc, jv_get(r->doc, run_root(r), "messages"), 1));
	/* One tool message per tool_result block, then the text. */
	for (size_t i = 3; i <= 4; i++) {
		assert_int_equal(r->msgs[i].role, ROLE_TOOL);
		assert_true(r->msgs[i].is_tool_output);
		assert_int_equal(r->msgs[i].src_index, 2);
	}
	assert_string_equal(r->msgs[3].answers_call_id, "toolu_2");
	assert_true(r->msgs[3].result_is_error);
	assert_string_equal(r->msgs[3].result_error_text, "order not found");
	assert_string_equal(r->msgs[4].answers_call_id, "toolu_1");
	assert_false(r->msgs[4].result_is_error);
	assert_int_equal(r->msgs[5].role, ROLE_USER);
	assert_false(r->msgs[5].is_tool_output);
	assert_string_equal(r->msgs[5].text, "ついでに追跡も");
	assert_int_equal(r->msgs[7].role, ROLE_TOOL);
	assert_string_equal(r->msgs[8].text, "2087 已发货 📦\n2088 未找到");
	assert_string_equal(run_first_user_text(r), "注文 2087 と 2088 はどこですか？");
	assert_string_equal(run_final_agent_text(r), "2087 已发货 📦\n2088 未找到");
	assert_string_equal(r->model, "claude-sonnet-4-5");
	assert_int_equal(r->tool_defs, jv_get(r->doc, run_root(r), "tools"));
	assert_true(json_is_array(run_tool_defs(r)));
	run_free(r);
}

static void test_calls_and_results(void **state)
{
	struct run *r = fmt_load(session, ANTH);
	assert_int_equal(r->ncalls, 3);
	struct run_call *c = r->calls;
	assert_string_equal(c[0].id, "toolu_1");
	assert_string_equal(jv_str(r->doc, c[0].raw_id), "toolu_1");
	assert_string_equal(c[0].name, "lookup_order");
	assert_string_equal(json_string_value(json_object_get(run_call_args(r, &c[0]), "order")), "2087");
	assert_int_equal(c[0].msg_index, 2);
	assert_int_equal(c[0].src_msg_index, 1);
	assert_int_equal(c[0].index_in_msg, 0);
	assert_int_equal(c[1].index_in_msg, 1);
	assert_int_equal(r->msgs[2].ncalls, 2);
	/* Parallel results come back out of order; ids decide. */
	assert_int_equal(c[0].state, CALL_COMPLETED);
	assert_int_equal(c[0].result_msg, 4);
	assert_string_equal(json_string_value(run_call_result(r, &c[0])), "{\"status\":\"shipped\"}");
	assert_int_equal(c[1].state, CALL_FAILED);
	assert_int_equal(c[1].result_msg, 3);
	assert_string_equal(c[1].error_text, "order not found");
	assert_true(json_is_array(run_call_result(r, &c[1])));
	/* is_error with no content still says something. */
	assert_int_equal(c[2].state, CALL_FAILED);
	assert_string_equal(c[2].error_text, "error");
	assert_int_equal(c[2].result, JV_NONE);
	assert_null(run_call_result(r, &c[2]));
	assert_int_equal(run_agent_calls(r, NULL), 3);
	for (size_t i = 0; i < r->nmsgs; i++)
		assert_false(r->msgs[i].unmatched_result);
	run_free(r);
}

static void test_unmatched_and_unanswered(void **state)
{
	struct run *r = fmt_load(
		"{'messages': [{'role': 'user', 'content': 'go'},"
		" {'role': 'assistant', 'content': [{'type': 'tool_use', 'id': 'a', 'name': 'f', 'input': {}},"
		"   {'type': 'tool_use', 'id': 'b', 'name': 'g', 'input': {}}]},"
		" {'role': 'user', 'content': [{'type': 'tool_result', 'tool_use_id': 'a', 'content': 'ok'},"
		"   {'type': 'tool_result', 'tool_use_id': 'nobody', 'content': [{'type': 'text', 'text': '迷子'},"
		"     {'type': 'image', 'source': {'type': 'base64', 'media_type': 'image/png', 'data': ''}}]},"
		"   {'type': 'tool_result', 'content': 'no id'}]}]}",
		ANTH);
	assert_int_equal(r->nmsgs, 5);     /* no user text message: results only */
	assert_true(r->calls[0].has_result);
	assert_false(r->calls[1].has_result);
	assert_int_equal(r->calls[1].state, CALL_REQUESTED);
	assert_false(r->msgs[2].unmatched_result);
	assert_true(r->msgs[3].unmatched_result);
	assert_string_equal(r->msgs[3].text, "迷子");
	assert_true(r->msgs[4].unmatched_result);
	assert_string_equal(run_first_user_text(r), "go");
	run_free(r);
}

static void test_server_tools(void **state)
{
	struct run *r = fmt_load(
		"{'messages': [{'role': 'user', 'content': '順豊の追跡方法は？'},"
		" {'role': 'assistant', 'content': ["
		"   {'type': 'server_tool_use', 'id': 'srvtoolu_1', 'name': 'web_search', 'input': {'query': 'SF tracking'}},"
		"   {'type': 'web_search_tool_result', 'tool_use_id': 'srvtoolu_1',"
		"    'content': [{'type': 'web_search_result', 'url': 'https://example.com', 'title': 'SF'}]},"
		"   {'type': 'server_tool_use', 'id': 'srvtoolu_2', 'name': 'web_search', 'input': {'query': 'again'}},"
		"   {'type': 'web_search_tool_result', 'tool_use_id': 'srvtoolu_2',"
		"    'content': {'type': 'web_search_tool_result_error', 'error_code': 'max_uses_exceeded'}},"
		"   {'type': 'web_search_tool_result', 'tool_use_id': 'srvtoolu_9', 'content': []},"
		"   {'type': 'text', 'text': '公式サイトで追跡できます。'}]}]}",
		ANTH);
	assert_int_equal(r->ncalls, 2);
	assert_string_equal(r->calls[0].name, "web_search");
	assert_int_equal(r->calls[0].state, CALL_COMPLETED);
	assert_int_equal(r->calls[0].result_msg, -1);       /* inline */
	assert_int_equal(r->calls[1].state, CALL_FAILED);
	assert_string_equal(r->calls[1].error_text, "max_uses_exceeded");
	/* A server result for no call is kept, flagged, after its message. */
	assert_int_equal(r->nmsgs, 3);
	assert_int_equal(r->msgs[2].role, ROLE_TOOL);
	assert_true(r->msgs[2].unmatched_result);
	assert_string_equal(r->msgs[2].answers_call_id, "srvtoolu_9");
	assert_string_equal(r->msgs[1].text, "公式サイトで追跡できます。");
	run_free(r);
}

/* Code execution results say the command's return_code: not 0 fails the
 * call, with the exit code and what it wrote (stderr, else stdout). An
 * error printed by a command that exited 0 is not the record's flag. */
#define EXEC(id, cmd) "{'type': 'server_tool_use', 'id': '" id "', 'name': 'bash_code_execution'," \
	" 'input': {'command': '" cmd "'}},"
#define EXEC_RESULT(id, ty, out, err, rc) "{'type': 'bash_code_execution_tool_result', 'tool_use_id': '" id "'," \
	" 'content': {'type': '" ty "', 'stdout': '" out "', 'stderr': '" err "', 'return_code': " rc ", 'content': []}}"
static void test_code_execution_exit_codes(void **state)
{
	(void)state;
	struct run *r = fmt_load(
		"{'messages': [{'role': 'user', 'content': 'make the deck'},"
		" {'role': 'assistant', 'content': ["
		EXEC("s1", "convert") EXEC_RESULT("s1", "bash_code_execution_result", "Converting...\\nfailed", "", "1") ","
		EXEC("s2", "ls") EXEC_RESULT("s2", "bash_code_execution_result", "", "ls: cannot access x", "2") ","
		EXEC("s3", "check") EXEC_RESULT("s3", "bash_code_execution_result", "", "Error: overflows", "0") ","
		EXEC("s4", "kill") EXEC_RESULT("s4", "code_execution_result", "", "", "137") ","
		EXEC("s5", "odd") EXEC_RESULT("s5", "bash_code_execution_result", "", "", "'1'") ","
		EXEC("s6", "view") "{'type': 'text_editor_code_execution_tool_result', 'tool_use_id': 's6',"
		"    'content': {'type': 'text_editor_code_execution_view_result', 'return_code': 1}},"
		"   {'type': 'text', 'text': 'done'}]}]}",
		ANTH);
	assert_int_equal(r->ncalls, 6);
	static const enum call_state want[] = { CALL_FAILED, CALL_FAILED, CALL_COMPLETED, CALL_FAILED,
	                                        CALL_COMPLETED, CALL_COMPLETED };
	for (size_t i = 0; i < 6; i++) {
		assert_true(r->calls[i].has_result);
		assert_int_equal(r->calls[i].state, want[i]);
		assert_int_equal(r->calls[i].is_error, want[i] == CALL_FAILED);
	}
	assert_string_equal(r->calls[0].error_text, "exit code 1\nConverting...\nfailed");
	assert_string_equal(r->calls[1].error_text, "exit code 2\nls: cannot access x");
	assert_string_equal(r->calls[3].error_text, "exit code 137");
	assert_null(r->calls[2].error_text);
	run_free(r);
}

static void test_bare_array_and_string_content(void **state)
{
	struct run *r = fmt_load(
		"[{'role': 'user', 'content': 'Ctrl \\u0007 bell'},"
		" {'role': 'assistant', 'content': [{'type': 'tool_use', 'id': 't1', 'name': 'f',"
		"   'input': {'x': 1}}]},"
		" {'role': 'user', 'content': [{'type': 'tool_result', 'tool_use_id': 't1', 'content': 'fine'}]},"
		" {'role': 'assistant', 'content': []}]",
		ANTH);
	assert_int_equal(r->nmsgs, 4);
	assert_string_equal(r->msgs[0].text, "Ctrl \a bell");
	assert_true(r->calls[0].has_result);
	assert_string_equal(r->msgs[3].text, "");
	run_free(r);
}

/* A message's blocks are its parts in their order: the summary after the
 * calls it sums up, thinking apart from the text, unknown blocks noted. */
static void test_parts_in_order(void **state)
{
	(void)state;
	struct run *r = fmt_load(session, ANTH);
	assert_string_equal(fmt_parts(r, 2), "thinking text call call");
	assert_string_equal(r->parts[r->msgs[2].first_part].text, "two lookups in parallel");
	/* redacted thinking is thinking that cannot be shown */
	assert_string_equal(fmt_parts(r, 8), "thinking text text");
	assert_string_equal(r->parts[r->msgs[8].first_part].text, "");
	assert_string_equal(fmt_parts(r, 5), "text");
	run_free(r);

	r = fmt_load("{'messages': [{'role': 'user', 'content': [{'type': 'text', 'text': 'look'},"
	             "  {'type': 'image', 'source': {'type': 'base64', 'media_type': 'image/png', 'data': 'x'}}]},"
	             " {'role': 'assistant', 'content': ["
	             "  {'type': 'text', 'text': '調べます。'},"
	             "  {'type': 'tool_use', 'id': 't1', 'name': 'lookup', 'input': {}},"
	             "  {'type': 'server_tool_use', 'id': 's1', 'name': 'web_search', 'input': {'query': 'q'}},"
	             "  {'type': 'web_search_tool_result', 'tool_use_id': 's1', 'content': []},"
	             "  {'type': 'container_upload', 'file_id': 'f'},"
	             "  {'type': 'text', 'text': '已发货 📦'}]},"
	             " {'role': 'robot', 'content': 'beep'}]}", ANTH);
	assert_int_equal(r->nmsgs, 3);
	assert_string_equal(fmt_parts(r, 0), "text note");
	assert_string_equal(r->parts[r->msgs[0].first_part + 1].text, "image image/png");
	assert_string_equal(fmt_parts(r, 1), "text call call note text");
	assert_string_equal(r->parts[r->msgs[1].first_part + 3].text,
	                    "block type \"container_upload\" (not read)");
	/* msg->text is still the text blocks joined */
	assert_string_equal(r->msgs[1].text, "調べます。\n已发货 📦");
	/* the server tool's result is its call's */
	assert_int_equal(r->calls[1].state, CALL_COMPLETED);
	/* an unknown role is a note, not a refusal */
	assert_int_equal(r->msgs[2].role, ROLE_NOTE);
	assert_string_equal(fmt_parts(r, 2), "note");
	assert_string_equal(r->parts[r->msgs[2].first_part].text, "role \"robot\": beep");
	assert_int_equal(r->nnotes, 3);
	assert_int_equal(run_agent_calls(r, NULL), 2);
	run_free(r);
}

static void test_malformed(void **state)
{
	static const struct fmt_error_case cases[] = {
		{ "{'messages': {'role': 'user'}}", "messages: not an array" },
		{ "{'system': 'x'}", "messages: missing" },
		{ "'hello'", "an anthropic record must be an object or an array of messages" },
		{ "{'system': 3, 'messages': []}", "system: not a string or a list" },
		{ "{'system': [7], 'messages': []}", "system[0]: not an object" },
		{ "{'messages': [{'role': 'user', 'content': 'a'}, null]}", "messages[1]: not an object" },
		{ "{'messages': [{'content': 'a'}]}", "messages[0].role: missing" },
		{ "{'messages': [{'role': 'user', 'content': {'type': 'text'}}]}",
		  "messages[0].content: not a string or a list" },
		{ "{'messages': [{'role': 'user', 'content': ['text']}]}", "messages[0].content[0]: not an object" },
		{ "{'messages': [{'role': 'user', 'content': [{'text': 'a'}]}]}",
		  "messages[0].content[0].type: missing" },
		{ "{'messages': [{'role': 'user', 'content': 'a'}, {'role': 'assistant', 'content': ["
		  " {'type': 'text', 'text': 'b'}, {'type': 5}]}]}", "messages[1].content[1].type: not a string" },
		{ "{'messages': [{'role': 'user', 'content': [{'type': 'tool_result', 'tool_use_id': 'x',"
		  " 'content': 42}]}]}", "messages[0].content[0].content: not a string or a list" },
		{ "[{'role': 'user', 'content': 1}]", "[0].content: not a string or a list" },
		{ NULL, NULL },
	};
	fmt_expect_errors(ANTH, cases);
}

/* Counts the tool_result blocks a record holds, to compare with what the
 * loader made of them. */
static size_t count_tool_results(json_t *rec)
{
	size_t n = 0, i, k;
	json_t *m, *b;
	json_array_foreach(json_object_get(rec, "messages"), i, m) {
		json_array_foreach(json_object_get(m, "content"), k, b) {
			const char *ty = json_string_value(json_object_get(b, "type"));
			if (ty && !strcmp(ty, "tool_result"))
				n++;
		}
	}
	return n;
}

static void check_real_record(json_t *rec, const char *file, size_t line, void *ctx)
{
	size_t *runs = ctx;
	const struct format_ops *f = fmt_detect_tree(rec);
	assert_non_null(f);
	assert_string_equal(f->name, ANTH);
	struct run *r = run_new(rec, file, line, -1);
	struct error err = {0};
	assert_int_equal(format_load(r, NULL, &err), 0);
	assert_true(r->ncalls > 0);
	size_t tool_msgs = 0;
	for (size_t i = 0; i < r->nmsgs; i++) {
		const struct run_msg *m = &r->msgs[i];
		if (m->is_tool_output) {
			tool_msgs++;
			assert_int_equal(m->role, ROLE_TOOL);
			assert_false(m->unmatched_result);
		}
	}
	assert_int_equal(tool_msgs, count_tool_results(rec));
	for (size_t i = 0; i < r->ncalls; i++) {
		struct run_call *c = &r->calls[i];
		assert_non_null(c->id);
		assert_true(c->name[0] != '\0');
		assert_true(json_is_object(run_call_args(r, c)));
		assert_int_equal(fmt_msg_of(r, c)->role, ROLE_ASSISTANT);
		if (c->has_result && c->is_error)
			assert_non_null(c->error_text);
	}
	/* Thinking never reaches the text scorers read. */
	for (size_t i = 0; i < r->nmsgs; i++)
		assert_null(strstr(r->msgs[i].text, "having trouble starting"));
	assert_string_equal(run_first_user_text(r), "mix phx.server doesnt seem to start");
	/* The sample's two Bash/Glob calls were both rejected by the user. */
	if (r->ncalls == 2) {
		assert_string_equal(r->calls[0].name, "Bash");
		assert_int_equal(r->calls[0].state, CALL_FAILED);
		assert_int_equal(r->calls[1].state, CALL_FAILED);
	}
	assert_string_equal(r->model, "claude-opus-4-6");
	run_free(r);
	(*runs)++;
}

static void test_real_claude_code_sample(void **state)
{
	size_t runs = 0;
	assert_true(fmt_each_shared_record("fixtures/real/" REAL_SAMPLE, check_real_record, &runs) > 0);
	assert_true(runs > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_detect_confidence),
		cmocka_unit_test(test_messages_and_splitting),
		cmocka_unit_test(test_calls_and_results),
		cmocka_unit_test(test_unmatched_and_unanswered),
		cmocka_unit_test(test_server_tools),
		cmocka_unit_test(test_code_execution_exit_codes),
		cmocka_unit_test(test_bare_array_and_string_content),
		cmocka_unit_test(test_parts_in_order),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_real_claude_code_sample),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
