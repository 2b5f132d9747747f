/* test_fmt_mastra.c - where the Mastra loader puts a 1.x message's text
 * among its calls (what Mastra's scorers see is tests/test_mastra.c's). */
#include "fmt_test.h"

#define MASTRA "mastra"

/* Text, a call, text again; reasoning as thinking; the calls in Mastra's
 * order, the legacy-only one where its merge puts it. */
static void test_parts_in_order(void **state)
{
	(void)state;
	struct run *r = fmt_load(
		"{'inputMessages': [{'id': 'u', 'role': 'user', 'content': {'format': 2, 'content': 'where?',"
		"   'parts': [{'type': 'text', 'text': 'where?'}]}}],"
		" 'output': [{'id': 'a', 'role': 'assistant', 'content': {'format': 2,"
		"   'content': '調べます。\\n已发货 📦',"
		"   'parts': [{'type': 'step-start'}, {'type': 'reasoning', 'text': 'look up'},"
		"     {'type': 'text', 'text': '調べます。'},"
		"     {'type': 'tool-invocation', 'toolInvocation': {'state': 'result', 'toolCallId': 'm1',"
		"       'toolName': 'lookup_order', 'args': {}, 'result': 'shipped'}},"
		"     {'type': 'text', 'text': '已发货 📦'}],"
		"   'toolInvocations': [{'toolCallId': 'm1', 'toolName': 'lookup_order', 'args': {},"
		"     'result': 'shipped', 'state': 'result'},"
		"    {'toolCallId': 'm2', 'toolName': 'notify', 'args': {}, 'state': 'result', 'result': 1}]}}]}",
		MASTRA);
	assert_int_equal(r->nmsgs, 2);
	assert_string_equal(fmt_parts(r, 0), "text");
	assert_string_equal(fmt_parts(r, 1), "thinking text call text call");
	assert_string_equal(r->parts[r->msgs[1].first_part].text, "look up");
	assert_string_equal(r->msgs[1].text, "調べます。\n已发货 📦");
	assert_int_equal(r->ncalls, 2);
	assert_string_equal(r->calls[0].name, "lookup_order");
	assert_string_equal(r->calls[1].name, "notify");
	run_free(r);

	/* content.content that is not the text parts joined: the text stays
	 * Mastra's, as one part before the calls */
	r = fmt_load(
		"{'inputMessages': [{'id': 'u', 'role': 'user', 'content': {'format': 2, 'content': 'q'}}],"
		" 'output': [{'id': 'a', 'role': 'assistant', 'content': {'format': 2, 'content': 'summary',"
		"   'parts': [{'type': 'tool-invocation', 'toolInvocation': {'state': 'result',"
		"     'toolCallId': 'm1', 'toolName': 'f', 'args': {}, 'result': 1}},"
		"     {'type': 'text', 'text': 'other'}]}}]}",
		MASTRA);
	assert_string_equal(fmt_parts(r, 1), "text call");
	assert_string_equal(r->msgs[1].text, "summary");
	run_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parts_in_order),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
