/* test_fmt_mini_swe_agent.c - the mini-swe-agent loader: chat messages
 * with tool calls, DeepSeek reasoning, the exit message, replies of
 * commands that exited non-zero marked failed, and the shared wild
 * samples read in place. */
#include "fmt_wild.h"

#define MINI_HEAD "{'trajectory_format': 'mini-swe-agent-1.1', 'instance_id': 'x__y-1',"

static void test_calls_results_and_exit(void **state)
{
	(void)state;
	struct run *r = fmt_load(
	    MINI_HEAD
	    " 'info': {'mini_version': '2.2.7', 'exit_status': 'Submitted',"
	    "   'config': {'agent_type': 'DefaultAgent', 'model': {'model_name': 'deepseek/deepseek-chat'}}},"
	    " 'messages': [{'role': 'system', 'content': 'You are a helpful assistant.'},"
	    "  {'role': 'user', 'content': '注文 2087 を直して'},"
	    "  {'role': 'assistant', 'content': '', 'reasoning_content': 'look first',"
	    "   'tool_calls': [{'index': 0, 'id': 'call_00_a', 'type': 'function',"
	    "     'function': {'name': 'bash', 'arguments': '{\\'command\\': \\'ls\\'}'}}], 'function_call': null},"
	    "  {'role': 'tool', 'tool_call_id': 'call_00_a', 'content': '<returncode>0</returncode>',"
	    "   'extra': {'returncode': 0}},"
	    "  {'role': 'assistant', 'content': 'submit 📦', 'reasoning_content': 'done',"
	    "   'tool_calls': [{'index': 0, 'id': 'call_00_b', 'type': 'function',"
	    "     'function': {'name': 'bash', 'arguments': '{\\'command\\': \\'echo COMPLETE\\'}'}}]},"
	    "  {'role': 'exit', 'content': 'diff --git a b', 'extra': {'exit_status': 'Submitted',"
	    "   'submission': 'diff --git a b'}}]}",
	    "mini-swe-agent");
	assert_string_equal(r->model, "deepseek/deepseek-chat");
	assert_int_equal(r->nmsgs, 6);
	assert_int_equal(r->ncalls, 2);
	/* the reasoning is a thinking part before the text, never the text */
	assert_string_equal(r->msgs[2].text, "");
	assert_string_equal(fmt_parts(r, 2), "thinking call");
	assert_string_equal(r->parts[r->msgs[2].first_part].text, "look first");
	assert_string_equal(r->msgs[4].text, "submit 📦");
	assert_string_equal(fmt_parts(r, 4), "thinking text call");
	assert_string_equal(run_final_agent_text(r), "submit 📦");
	assert_string_equal(r->calls[0].id, "call_00_a");
	assert_string_equal(r->calls[0].name, "bash");
	assert_int_equal(r->calls[0].state, CALL_COMPLETED);
	assert_int_equal(r->calls[0].result_msg, 3);
	/* the final submit has no tool reply: still requested */
	assert_int_equal(r->calls[1].state, CALL_REQUESTED);
	assert_false(r->calls[1].has_result);
	/* the exit is a visible note, not an error and not a result */
	assert_int_equal(r->msgs[5].role, ROLE_USER);
	assert_false(r->msgs[5].is_tool_output);
	assert_string_equal(r->msgs[5].text, "[exit: Submitted]\ndiff --git a b");
	assert_null(r->load_error);
	assert_int_equal(fmt_count_unmatched(r), 0);
	run_free(r);
}

static void test_exit_with_exception(void **state)
{
	(void)state;
	struct run *r = fmt_load(
	    "{'info': {'mini_version': '2.2.7'}, 'messages': ["
	    "  {'role': 'user', 'content': 'fix it'},"
	    "  {'role': 'exit', 'content': 'litellm.InternalServerError: boom',"
	    "   'extra': {'exit_status': 'InternalServerError',"
	    "     'exception_str': 'litellm.InternalServerError: boom'}},"
	    "  {'role': 'exit', 'content': '', 'extra': {'exception_str': 'Timeout'}}]}",
	    "mini-swe-agent");
	/* the exception is said once, and added when the content lacks it */
	assert_string_equal(r->msgs[1].text,
	                    "[exit: InternalServerError]\nlitellm.InternalServerError: boom");
	assert_string_equal(r->msgs[2].text, "[exit]\nTimeout");
	run_free(r);
	/* a role mini-swe-agent does not write is a note message */
	r = fmt_load("{'info': {'mini_version': '2.2.7'}, 'messages': [{'role': 'user', 'content': 'a'},"
	             " {'role': 'observer', 'content': 'b'}]}", "mini-swe-agent");
	assert_int_equal(r->msgs[1].role, ROLE_NOTE);
	assert_string_equal(r->parts[r->msgs[1].first_part].text, "role \"observer\": b");
	assert_null(r->model);
	run_free(r);
}

/* A reply says its command's exit status in extra.returncode and in its
 * opening tag; not 0 is a failed call, with the reply as what it shows. */
#define MINI_CALL(id) "{'role': 'assistant', 'content': '', 'tool_calls': [{'index': 0, 'id': '" id "'," \
	" 'type': 'function', 'function': {'name': 'bash', 'arguments': '{}'}}]},"
static void test_failed_commands(void **state)
{
	(void)state;
	struct run *r = fmt_load(
	    MINI_HEAD " 'info': {}, 'messages': [{'role': 'user', 'content': 'fix it'},"
	    MINI_CALL("a") "{'role': 'tool', 'tool_call_id': 'a', 'extra': {'returncode': 1},"
	    "   'content': '<returncode>1</returncode>\\n<output>\\ngrep: no such file\\n</output>'},"
	    MINI_CALL("b") "{'role': 'tool', 'tool_call_id': 'b', 'content': '<returncode>-9</returncode>'},"
	    MINI_CALL("c") "{'role': 'tool', 'tool_call_id': 'c', 'extra': {'returncode': 0},"
	    "   'content': '<returncode>0</returncode>\\n<output>\\nError: only printed\\n</output>'},"
	    MINI_CALL("d") "{'role': 'tool', 'tool_call_id': 'd', 'content': 'returncode 1, as prose'},"
	    MINI_CALL("e") "{'role': 'tool', 'tool_call_id': 'e', 'extra': {'returncode': 0},"
	    "   'content': '<returncode>2</returncode>'},"
	    MINI_CALL("f") "{'role': 'tool', 'tool_call_id': 'f', 'extra': {'returncode': 'x'},"
	    "   'content': '  <returncode>127</returncode>'},"
	    MINI_CALL("g") "{'role': 'tool', 'tool_call_id': 'g', 'content': '<returncode>1<returncode>'}]}",
	    "mini-swe-agent");
	assert_int_equal(r->ncalls, 7);
	static const bool failed[] = { true, true, false, false, false, true, false };
	for (size_t i = 0; i < 7; i++) {
		const struct run_call *c = &r->calls[i];
		assert_true(c->has_result);
		assert_int_equal(c->is_error, failed[i]);
		assert_int_equal(c->state, failed[i] ? CALL_FAILED : CALL_COMPLETED);
		assert_int_equal(r->msgs[c->result_msg].result_is_error, failed[i]);
		/* no text of its own: what the command printed is the error shown */
		assert_null(c->error_text);
	}
	assert_string_equal(run_text_of(r, r->calls[0].result),
	                    "<returncode>1</returncode>\n<output>\ngrep: no such file\n</output>");
	run_free(r);
}

/* A tool reply naming no call stays visible, unmatched. */
static void test_unmatched_reply(void **state)
{
	(void)state;
	struct run *r = fmt_load(
	    MINI_HEAD " 'info': {}, 'messages': ["
	    "  {'role': 'tool', 'content': 'orphan'},"
	    "  {'role': 'tool', 'tool_call_id': 'nope', 'content': 'orphan 2'}]}",
	    "mini-swe-agent");
	assert_int_equal(fmt_count_unmatched(r), 2);
	run_free(r);
}

static void test_detection(void **state)
{
	(void)state;
	/* what says mini-swe-agent: the format tag, info's version, an exit */
	assert_true(fmt_score("mini-swe-agent", MINI_HEAD " 'messages': []}") > 0);
	assert_true(fmt_score("mini-swe-agent",
	                      "{'info': {'mini_version': '1.0'}, 'messages': []}") > 0);
	assert_true(fmt_score("mini-swe-agent",
	                      "{'info': {}, 'messages': [{'role': 'exit', 'content': ''}]}") > 0);
	/* a chat conversation with an info object is not */
	assert_int_equal(fmt_score("mini-swe-agent",
	                           "{'info': {'x': 1}, 'messages': [{'role': 'user', 'content': 'hi'}]}"),
	                 0);
	assert_int_equal(fmt_score("mini-swe-agent", "{'trajectory_format': 'other', 'messages': []}"), 0);
}

static void test_errors(void **state)
{
	(void)state;
	static const struct fmt_error_case cases[] = {
		{ "{'info': {}}", "messages: missing" },
		{ "{'messages': [3]}", "messages[0]: not an object" },
		{ "{'messages': [{'content': 'x'}]}", "messages[0].role: missing" },
		{ "{'messages': [{'role': 7}]}", "messages[0].role: not a string" },
		{ "{'messages': [{'role': 'user', 'content': 4}]}",
		  "messages[0].content: not a string, a list or null" },
		{ "{'messages': [{'role': 'assistant', 'tool_calls': [{'id': 'a'}]}]}",
		  "messages[0].tool_calls[0].function: missing" },
		{ "{'messages': [{'role': 'tool', 'tool_call_id': 5}]}",
		  "messages[0].tool_call_id: not a string" },
		{ "{'messages': [{'role': 'assistant', 'reasoning_content': []}]}",
		  "messages[0].reasoning_content: not a string" },
		{ NULL, NULL },
	};
	fmt_expect_errors("mini-swe-agent", cases);
}

static void test_wild_samples(void **state)
{
	(void)state;
	struct dataset ds;
	struct run *r = fmt_wild_run(&ds, "mini-swe-agent-traj/pvlib__pvlib-python-1606.traj.json",
	                             "mini-swe-agent", 1, 4);
	if (!r) {
		skip();
		return;
	}
	assert_string_equal(r->model, "deepseek/deepseek-reasoner");
	const struct run_msg *last = &r->msgs[r->nmsgs - 1];
	assert_int_equal(last->role, ROLE_USER);
	assert_non_null(strstr(last->text, "[exit: InternalServerError]"));
	/* content empty: the reasoning is shown as thinking */
	assert_int_equal(r->parts[r->msgs[2].first_part].kind, PART_THINKING);
	assert_true(r->parts[r->msgs[2].first_part].text[0] != '\0');
	run_free(r);
	dataset_close(&ds);

	r = fmt_wild_run(&ds, "mini-swe-agent-traj/sqlfluff__sqlfluff-2419.traj.json",
	                 "mini-swe-agent", 1, 43);
	size_t done = 0, requested = 0, failed = 0;
	for (size_t i = 0; i < r->ncalls; i++) {
		done += r->calls[i].state == CALL_COMPLETED;
		requested += r->calls[i].state == CALL_REQUESTED;
		failed += r->calls[i].state == CALL_FAILED;
	}
	/* three commands exited non-zero (1, 1 and 4): calls 11, 14 and 31 */
	assert_int_equal(done, 39);
	assert_int_equal(failed, 3);
	assert_int_equal(requested, 1);
	assert_true(r->calls[10].is_error && r->calls[13].is_error && r->calls[30].is_error);
	assert_int_equal(r->calls[42].state, CALL_REQUESTED);
	assert_int_equal(fmt_count_unmatched(r), 0);
	run_free(r);
	dataset_close(&ds);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_calls_results_and_exit),
		cmocka_unit_test(test_exit_with_exception),
		cmocka_unit_test(test_failed_commands),
		cmocka_unit_test(test_unmatched_reply),
		cmocka_unit_test(test_detection),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_wild_samples),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
