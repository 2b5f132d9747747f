/* test_fmt_openhands.c - the OpenHands loader: an event stream as one run
 * (a .json array, a JSONL file of events with a broken line, evaluation
 * outputs with history), actions as calls linked to observations by
 * cause, error observations as failed calls, metadata skipped, the rest
 * kept as notes; the shared wild streams read in place. */
#include "fmt_files.h"

#define EV_SYSTEM                                                                               \
	"{'id': 1, 'timestamp': '2025-01-20T20:29:32', 'source': 'agent', 'message': 'system',"    \
	" 'action': 'system', 'args': {'content': 'You are OpenHands agent.', 'openhands_version': '0.40'," \
	"   'tools': [{'type': 'function', 'function': {'name': 'execute_bash'}}]}}"
#define EV_USER                                                                                 \
	"{'id': 2, 'source': 'user', 'message': '注文 2087 を直して', 'action': 'message',"        \
	" 'args': {'content': '注文 2087 を直して', 'image_urls': ['http://x/a.png'],"            \
	"   'wait_for_response': false}}"
#define EV_RUN                                                                                  \
	"{'id': 4, 'source': 'agent', 'message': 'Running command: grep -r 2087 .', 'action': 'run'," \
	" 'args': {'command': 'grep -r 2087 .', 'is_input': false, 'thought': '調べます。'},"       \
	" 'tool_call_metadata': {'function_name': 'execute_bash', 'tool_call_id': 'toolu_1',"      \
	"   'model_response': {'id': 'r1', 'model': 'claude-sonnet-4-5', 'choices': []}, 'total_calls_in_response': 1}}"
#define EV_RUN_OBS                                                                              \
	"{'id': 5, 'source': 'agent', 'message': 'Command executed with exit code 0.', 'cause': 4," \
	" 'observation': 'run', 'content': 'orders.py:12', 'success': true,"                      \
	" 'extras': {'command': 'grep -r 2087 .', 'metadata': {'exit_code': 0}}}"

#define STREAM                                                                                  \
	"[{'id': 0, 'source': 'environment', 'message': '', 'observation': 'agent_state_changed',"  \
	"  'content': '', 'extras': {'agent_state': 'loading'}},"                                  \
	EV_SYSTEM "," EV_USER ","                                                                   \
	" {'id': 3, 'source': 'environment', 'action': 'change_agent_state',"                      \
	"  'args': {'agent_state': 'running', 'thought': ''}},"                                    \
	EV_RUN "," EV_RUN_OBS ","                                                                   \
	" {'id': 6, 'source': 'agent', 'message': '', 'action': 'edit',"                           \
	"  'args': {'path': '/w/orders.py', 'content': '', 'thought': ''},"                        \
	"  'tool_call_metadata': {'function_name': 'str_replace_editor', 'tool_call_id': 'toolu_2'}}," \
	" {'id': 7, 'source': 'agent', 'cause': 6, 'observation': 'error',"                        \
	"  'content': 'ERROR: file not found', 'extras': {}},"                                     \
	" {'id': 8, 'source': 'agent', 'action': 'think', 'args': {'thought': 'plan it'}},"        \
	" {'id': 9, 'source': 'agent', 'cause': 8, 'observation': 'think',"                        \
	"  'content': 'Your thought has been logged.'},"                                           \
	" {'id': 10, 'source': 'environment', 'observation': 'error', 'content': 'stuck in a loop'}," \
	" {'id': 11, 'source': 'agent', 'action': 'browse_x', 'args': {'url': 'http://x'}},"       \
	" {'id': 12, 'source': 'user', 'action': 'run', 'args': {'command': 'ls'}},"               \
	" {'id': 13, 'source': 'agent', 'observation': 'weird_obs', 'content': 'x'},"              \
	" {'id': 14, 'source': 'agent', 'action': 'message', 'args': {'content': '已发货 📦'}},"   \
	" {'id': 15, 'source': 'agent', 'cause': 14, 'observation': 'null', 'content': ''},"       \
	" {'id': 16, 'source': 'agent', 'message': 'done', 'action': 'finish',"                    \
	"  'args': {'final_thought': 'done 📦', 'outputs': {}},"                                    \
	"  'tool_call_metadata': {'function_name': 'finish', 'tool_call_id': 'toolu_9'}},"         \
	" {'id': 17, 'source': 'environment', 'observation': 'agent_state_changed',"               \
	"  'extras': {'agent_state': 'finished'}},"                                                \
	" 3, {'id': 18, 'source': 'environment'}]"

static void check_stream(struct run *r)
{
	assert_int_equal(r->nmsgs, 16);
	assert_int_equal(r->msgs[0].role, ROLE_SYSTEM);
	assert_string_equal(r->msgs[0].text, "You are OpenHands agent.");
	json_t *tools = run_tool_defs(r);
	assert_int_equal(json_array_size(tools), 1);
	assert_int_equal(r->msgs[1].role, ROLE_USER);
	assert_string_equal(r->msgs[1].text, "注文 2087 を直して");
	assert_int_equal(fmt_parts_of(r, 1, PART_NOTE), 1);
	assert_string_equal(r->model, "claude-sonnet-4-5");

	assert_int_equal(r->ncalls, 4);
	struct run_call *c = &r->calls[0];
	assert_string_equal(c->name, "execute_bash");
	assert_string_equal(c->id, "toolu_1");
	assert_string_equal(r->msgs[c->msg_index].text, "調べます。");
	assert_string_equal(json_string_value(json_object_get(run_call_args(r, c), "command")),
	                    "grep -r 2087 .");
	assert_int_equal(c->state, CALL_COMPLETED);
	assert_int_equal(c->result_msg, 3);
	assert_string_equal(r->msgs[3].text, "orders.py:12");
	assert_string_equal(json_string_value(run_call_result(r, c)), "orders.py:12");

	c = &r->calls[1];
	assert_string_equal(c->name, "str_replace_editor");
	assert_int_equal(c->state, CALL_FAILED);
	assert_string_equal(c->error_text, "ERROR: file not found");
	/* no metadata: the action names the call */
	assert_string_equal(r->calls[2].name, "think");
	assert_int_equal(r->calls[2].state, CALL_COMPLETED);
	assert_null(r->calls[2].id);
	assert_string_equal(r->calls[3].name, "browse_x");
	assert_int_equal(r->calls[3].state, CALL_REQUESTED);

	assert_int_equal(r->msgs[8].role, ROLE_NOTE);
	assert_string_equal(r->parts[r->msgs[8].first_part].text, "error: stuck in a loop");
	assert_string_equal(r->parts[r->msgs[10].first_part].text, "user action \"run\" (not read)");
	assert_string_equal(r->parts[r->msgs[11].first_part].text, "observation \"weird_obs\": x");
	assert_string_equal(r->msgs[12].text, "已发货 📦");
	assert_string_equal(r->msgs[13].text, "done 📦");
	assert_string_equal(run_final_agent_text(r), "done 📦");
	assert_int_equal(r->msgs[15].role, ROLE_NOTE);
	/* the image, the loose error, user action, observation, 3, the empty event */
	assert_int_equal(r->nnotes, 6);
	assert_int_equal(fmt_count_unmatched(r), 0);
}

static void test_json_stream(void **state)
{
	(void)state;
	struct dataset ds;
	assert_int_equal(fmt_open(&ds, fmt_write("events.json", STREAM)), 1);
	assert_int_equal(ds.recs[0].index, -1);
	struct run *r = fmt_run_at(&ds, 0, "openhands");
	check_stream(r);
	run_free(r);
	dataset_close(&ds);
}

/* The same events one a line, with a line cut off as a crash leaves it. */
static void test_jsonl_stream(void **state)
{
	(void)state;
	struct dataset ds;
	assert_int_equal(fmt_open(&ds, fmt_write("events.jsonl", EV_SYSTEM "\n" EV_USER "\n" EV_RUN
	                                         "\n{'id': 5, 'source\n" EV_RUN_OBS "\n")), 1);
	struct run *r = fmt_run_at(&ds, 0, "openhands");
	assert_int_equal(r->nmsgs, 5);
	assert_int_equal(r->msgs[3].role, ROLE_NOTE);
	assert_string_equal(r->parts[r->msgs[3].first_part].text, "[3]: not an event (not read)");
	assert_int_equal(r->ncalls, 1);
	assert_int_equal(r->calls[0].result_msg, 4);
	run_free(r);
	dataset_close(&ds);
}

/* Evaluation outputs: one run each, named by the instance. */
static void test_eval_outputs(void **state)
{
	(void)state;
	struct dataset ds;
	assert_int_equal(fmt_open(&ds, fmt_write("output.jsonl",
	    "{'instance_id': 'shop__2087', 'instruction': 'fix', 'history': [" EV_USER "," EV_RUN ","
	    EV_RUN_OBS "], 'metrics': {'accumulated_cost': 0.1}, 'test_result': {'git_patch': ''}}\n"
	    "{'instance_id': 'shop__2088', 'history': [" EV_USER "]}\n")), 2);
	struct run *r = fmt_run_at(&ds, 0, "openhands");
	assert_string_equal(r->id, "shop__2087");
	assert_int_equal(r->ncalls, 1);
	assert_int_equal(r->calls[0].state, CALL_COMPLETED);
	run_free(r);
	r = fmt_run_at(&ds, 1, "openhands");
	assert_string_equal(r->id, "shop__2088");
	assert_int_equal(r->ncalls, 0);
	run_free(r);
	dataset_close(&ds);
}

static void test_detection(void **state)
{
	(void)state;
	assert_true(fmt_score("openhands", STREAM) > 0);
	assert_true(fmt_score("openhands", EV_RUN) > 0);
	assert_true(fmt_score("openhands", "{'instance_id': 'x', 'history': [" EV_USER "]}") > 0);
	assert_string_equal(fmt_detect(STREAM)->name, "openhands");
	assert_string_equal(fmt_detect(EV_RUN)->name, "openhands");
	/* an id and a source are not enough, nor a robot's source */
	assert_int_equal(fmt_score("openhands", "[{'id': 1, 'source': 'agent', 'message': 'x'}]"), 0);
	assert_int_equal(fmt_score("openhands", "[{'id': 1, 'source': 'robot', 'action': 'run'}]"), 0);
	assert_int_equal(fmt_score("openhands", "[{'id': 'a', 'source': 'agent', 'action': 'run'}]"), 0);
	assert_int_equal(fmt_score("openhands", "{'history': [{'role': 'user', 'content': 'x'}]}"), 0);
}

static void test_errors(void **state)
{
	(void)state;
	static const struct fmt_error_case cases[] = {
		{ "'x'", "an OpenHands event stream must be a JSON array of events" },
		{ "{'instance_id': 'x'}", "history: missing" },
		{ "{'history': {}}", "history: not an array" },
		{ "[{'id': 1, 'source': 'agent', 'action': 3}]", "[0].action: not a string" },
		{ "[{'id': 1, 'source': 'agent', 'observation': []}]", "[0].observation: not a string" },
		{ "{'history': [{'id': 1, 'source': 'agent', 'action': 'run', 'args': 'ls'}]}",
		  "history[0].args: not an object" },
		{ NULL, NULL },
	};
	fmt_expect_errors("openhands", cases);
}

/* README: one run each, 4 and 3 calls (agent actions other than
 * message, finish and change_agent_state). */
static void test_wild_samples(void **state)
{
	(void)state;
	struct dataset ds;
	struct run *r = fmt_wild_run(&ds, "openhands-events/basic_gui_mode.json", "openhands", 1, 4);
	if (!r) {
		skip();
		return;
	}
	assert_int_equal(r->msgs[0].role, ROLE_USER);
	assert_string_equal(r->calls[0].name, "execute_bash");
	assert_string_equal(r->calls[1].name, "str_replace_editor");
	for (size_t c = 0; c < r->ncalls; c++)
		assert_int_equal(r->calls[c].state, CALL_COMPLETED);
	assert_int_equal(r->nnotes, 0);
	assert_int_equal(fmt_count_unmatched(r), 0);
	run_free(r);
	dataset_close(&ds);

	r = fmt_wild_run(&ds, "openhands-events/wrong_initial_state.json", "openhands", 1, 3);
	assert_non_null(r);
	assert_string_equal(r->calls[0].name, "str_replace_editor");
	assert_string_equal(r->calls[1].name, "execute_bash");
	assert_non_null(strstr(run_final_agent_text(r), "successfully renamed"));
	assert_int_equal(r->nnotes, 0);
	run_free(r);
	dataset_close(&ds);
}

static void test_wild_claims(void **state)
{
	(void)state;
	fmt_check_wild("openhands", "openhands-events");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_stream),
		cmocka_unit_test(test_jsonl_stream),
		cmocka_unit_test(test_eval_outputs),
		cmocka_unit_test(test_detection),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_wild_samples),
		cmocka_unit_test(test_wild_claims),
	};
	return cmocka_run_group_tests(tests, fmt_files_setup, fmt_files_teardown);
}
