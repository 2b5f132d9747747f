/* test_fmt_swe_agent.c - the SWE-agent loader: trajectory steps as one
 * call each, the task from history, history alone (function calling and
 * actions parsed from text), and the shared wild samples read in place. */
#include "fmt_wild.h"

static void test_trajectory_steps(void **state)
{
	(void)state;
	struct run *r = fmt_load(
	    "{'environment': 'swe_main', 'info': {'exit_status': 'submitted'},"
	    " 'history': [{'role': 'system', 'content': 'SETTING', 'agent': 'primary'},"
	    "   {'role': 'user', 'content': 'a demo', 'is_demo': true, 'agent': 'primary'},"
	    "   {'role': 'user', 'content': '注文 2087 を直して', 'agent': 'primary'},"
	    "   {'role': 'assistant', 'content': 'x', 'thought': 'x', 'action': 'ls', 'agent': 'primary'}],"
	    " 'trajectory': [{'thought': 'Open it.', 'action': '  open \\'a b.py\\'\\n',"
	    "   'observation': '[File: a b.py]', 'response': 'Open it.\\n```\\nopen\\n```', 'state': '{}'},"
	    "  {'thought': 'Edit.', 'action': 'edit 1:1\\nprint(1)\\nend_of_edit', 'observation': ''},"
	    "  {'thought': 'Think only.', 'action': '', 'observation': 'nothing ran'},"
	    "  {'response': 'submit 📦', 'action': 'submit', 'observation': null}]}",
	    "swe-agent");
	/* system and the task, the demo left out; then the steps */
	assert_int_equal(r->msgs[0].role, ROLE_SYSTEM);
	assert_string_equal(r->msgs[1].text, "注文 2087 を直して");
	assert_int_equal(r->ncalls, 3);
	assert_string_equal(r->msgs[2].text, "Open it.");
	assert_string_equal(r->calls[0].name, "open");
	assert_null(r->calls[0].id);
	json_t *args = run_call_args(r, &r->calls[0]);
	assert_non_null(args);
	assert_string_equal(json_string_value(json_object_get(args, "command")), "  open \"a b.py\"\n");
	assert_false(run_call_args_invalid(r, &r->calls[0]));
	assert_int_equal(r->calls[0].state, CALL_COMPLETED);
	assert_int_equal(r->msgs[r->calls[0].result_msg].role, ROLE_TOOL);
	assert_string_equal(r->msgs[r->calls[0].result_msg].text, "[File: a b.py]");
	assert_string_equal(r->calls[1].name, "edit");
	assert_int_equal(r->calls[1].state, CALL_COMPLETED);     /* an empty observation is one */
	/* no action: no call, and what came back is still shown */
	assert_string_equal(r->msgs[7].text, "nothing ran");
	assert_int_equal(r->msgs[7].role, ROLE_USER);
	/* no thought: the response; no observation: requested */
	assert_string_equal(r->msgs[8].text, "submit 📦");
	assert_int_equal(r->calls[2].state, CALL_REQUESTED);
	assert_int_equal(fmt_count_unmatched(r), 0);
	run_free(r);
}

static void test_history_function_calling(void **state)
{
	(void)state;
	struct run *r = fmt_load(
	    "{'history': [{'role': 'system', 'content': 'S', 'agent': 'main', 'message_type': 'system_prompt'},"
	    "  {'role': 'user', 'content': 'issue', 'agent': 'main'},"
	    "  {'role': 'assistant', 'content': 'Find it.', 'thought': 'Find it.', 'action': 'find_file a.py',"
	    "   'agent': 'main', 'tool_calls': [{'function': {'arguments': '{\\'file_name\\':\\'a.py\\'}',"
	    "     'name': 'find_file'}, 'id': 'call_1', 'type': 'function'}]},"
	    "  {'role': 'tool', 'content': 'Found 1', 'agent': 'main', 'tool_call_ids': ['call_1']},"
	    "  {'role': 'assistant', 'content': 'Open.', 'action': 'open a.py', 'agent': 'main',"
	    "   'tool_calls': [{'function': {'arguments': '{}', 'name': 'open'}, 'id': 'call_2'}]},"
	    "  {'role': 'tool', 'content': 'opened', 'tool_call_id': 'call_2'},"
	    "  {'role': 'tool', 'content': 'stray', 'tool_call_ids': ['call_9']}]}",
	    "swe-agent");
	assert_int_equal(r->ncalls, 2);
	assert_string_equal(r->calls[0].name, "find_file");
	assert_string_equal(r->calls[0].id, "call_1");
	assert_int_equal(r->calls[0].result_msg, 3);
	assert_int_equal(r->calls[1].result_msg, 5);
	assert_int_equal(fmt_count_unmatched(r), 1);
	run_free(r);
}

static void test_history_actions_from_text(void **state)
{
	(void)state;
	struct run *r = fmt_load(
	    "{'info': {}, 'history': [{'role': 'system', 'content': 'S', 'agent': 'primary'},"
	    "  {'role': 'user', 'content': 'issue', 'agent': 'primary'},"
	    "  {'role': 'assistant', 'content': 'Make it.\\n```\\ncreate r.py\\n```', 'thought': 'Make it.',"
	    "   'action': 'create r.py\\n', 'agent': 'primary'},"
	    "  {'role': 'user', 'content': '[File: r.py]', 'agent': 'primary'},"
	    "  {'role': 'assistant', 'content': 'Done.', 'action': 'submit', 'agent': 'primary'}]}",
	    "swe-agent");
	assert_int_equal(r->ncalls, 2);
	assert_string_equal(r->calls[0].name, "create");
	assert_string_equal(r->msgs[2].text, "Make it.");
	assert_int_equal(r->calls[0].result_msg, 3);
	assert_true(r->msgs[3].is_tool_output);
	assert_int_equal(r->calls[1].state, CALL_REQUESTED);
	assert_int_equal(fmt_count_unmatched(r), 0);
	run_free(r);
}

static void test_detection(void **state)
{
	(void)state;
	assert_true(fmt_score("swe-agent", "{'trajectory': [{'action': 'ls', 'observation': ''}]}") > 0);
	assert_true(fmt_score("swe-agent",
	                      "{'history': [{'role': 'user', 'content': 'x', 'agent': 'main'}]}") > 0);
	/* a history of plain messages, a trajectory of something else */
	assert_int_equal(fmt_score("swe-agent", "{'history': [{'role': 'user', 'content': 'x'}]}"), 0);
	assert_int_equal(fmt_score("swe-agent", "{'trajectory': [{'step': 1}]}"), 0);
	assert_int_equal(fmt_score("swe-agent", "{'trajectory': []}"), 0);
	assert_int_equal(fmt_score("swe-agent",
	                           "{'messages': [], 'trajectory': [{'action': 'ls', 'thought': ''}]}"), 0);
}

static void test_errors(void **state)
{
	(void)state;
	static const struct fmt_error_case cases[] = {
		{ "{'info': {}}", "trajectory: missing (and no history)" },
		{ "{'trajectory': 3}", "trajectory: not an array" },
		{ "{'trajectory': [], 'history': {}}", "history: not an array" },
		{ "{'trajectory': [4]}", "trajectory[0]: not an object" },
		{ "{'trajectory': [{'action': 5}]}", "trajectory[0].action: not a string" },
		{ "{'trajectory': [{'action': 'ls', 'observation': []}]}",
		  "trajectory[0].observation: not a string" },
		{ "{'history': [{'content': 'x'}]}", "history[0].role: missing" },
		{ "{'history': [{'role': 'assistant', 'action': ['ls']}]}",
		  "history[0].action: not a string" },
		{ "{'history': [{'role': 'tool', 'tool_call_ids': 'c'}]}",
		  "history[0].tool_call_ids: not a list" },
		{ "{'history': [{'role': 'assistant', 'tool_calls': [{'id': 'c'}]}]}",
		  "history[0].tool_calls[0].function: missing" },
		{ "{'trajectory': [{'action': 'ls'}], 'history': [{'role': 'wizard'}]}",
		  "history[0].role: unknown role \"wizard\"" },
		{ NULL, NULL },
	};
	fmt_expect_errors("swe-agent", cases);
}

/* README: runs 1 each; calls 12, 11, 7 (len(trajectory)) and 5 (history). */
static void test_wild_samples(void **state)
{
	(void)state;
	static const struct {
		const char *file;
		size_t calls;
		const char *model;
	} want[] = {
		{ "swe-agent-traj/pydicom__pydicom-1458.traj", 12, NULL },
		{ "swe-agent-traj/marshmallow-1867__function_calling_replace.traj", 11, "gpt-4o" },
		{ "swe-agent-traj/ctf-pwn-warmup.traj", 7, NULL },
		{ "swe-agent-traj/function_calling_simple.traj", 5, NULL },
	};
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		struct dataset ds;
		struct run *r = fmt_wild_run(&ds, want[i].file, "swe-agent", 1, want[i].calls);
		if (!r) {
			skip();
			return;
		}
		if (want[i].model)
			assert_string_equal(r->model, want[i].model);
		size_t done = 0;
		for (size_t c = 0; c < r->ncalls; c++)
			done += r->calls[c].state == CALL_COMPLETED;
		assert_int_equal(done, want[i].calls);
		assert_int_equal(fmt_count_unmatched(r), 0);
		assert_int_equal(r->msgs[0].role, ROLE_SYSTEM);
		run_free(r);
		dataset_close(&ds);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trajectory_steps),
		cmocka_unit_test(test_history_function_calling),
		cmocka_unit_test(test_history_actions_from_text),
		cmocka_unit_test(test_detection),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_wild_samples),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
