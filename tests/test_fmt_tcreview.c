/* test_fmt_tcreview.c - the run format's reader (runs/formats/tcreview.c):
 * every member, hand-written minimal records, errors naming their field. */
#include "fmt_test.h"

#define TCR "tcreview"

/* The example, as a person writes it. */
static void test_core(void **state)
{
	(void)state;
	struct run *r = fmt_load(
		"{'tcreview_run': 1, 'id': 'run-7', 'model': 'gpt-4o', 'metadata': {'task_id': 3},"
		" 'messages': ["
		"  {'role': 'system', 'parts': [{'type': 'text', 'text': 'be brief'}]},"
		"  {'role': 'user', 'parts': [{'type': 'text', 'text': 'find x'}]},"
		"  {'role': 'assistant', 'parts': ["
		"     {'type': 'thinking', 'text': 'search'},"
		"     {'type': 'text', 'text': 'looking'},"
		"     {'type': 'tool_call', 'id': 'c1', 'name': 'search', 'arguments': {'q': 'x'}}]},"
		"  {'role': 'tool', 'parts': [{'type': 'tool_result', 'call_id': 'c1', 'content': 'found',"
		"     'is_error': false}]}]}", TCR);
	assert_int_equal(r->nmsgs, 4);
	assert_int_equal(r->msgs[0].role, ROLE_SYSTEM);
	assert_int_equal(r->msgs[2].role, ROLE_ASSISTANT);
	assert_string_equal(fmt_parts(r, 2), "thinking text call");
	assert_string_equal(r->msgs[2].text, "looking");
	assert_string_equal(r->model, "gpt-4o");
	assert_int_equal(r->ncalls, 1);
	struct run_call *c = &r->calls[0];
	assert_string_equal(c->id, "c1");
	assert_string_equal(c->name, "search");
	assert_int_equal(c->state, CALL_COMPLETED);
	assert_int_equal(c->result_msg, 3);
	assert_false(c->is_error);
	json_t *args = run_call_args(r, c);
	assert_string_equal(json_string_value(json_object_get(args, "q")), "x");
	/* the tool's text is its result's, as it has no text of its own */
	assert_string_equal(r->msgs[3].text, "found");
	assert_true(r->msgs[3].is_tool_output);
	assert_int_equal(fmt_count_unmatched(r), 0);
	assert_int_equal(r->msgs[1].origin, MSG_IN_OUTPUT);
	run_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_core),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
