/* test_fmt_langfuse.c - the Langfuse trace export loader (runs/formats/langfuse.c, langfuse_msgs.c). */
#include "fmt_test.h"
#include "fmt_files.h"
#include "util/error.h"

#define LF "langfuse"

static void test_detect(void **state)
{
	(void)state;
	assert_int_equal(fmt_score(LF, "{'trace': {'id': 't1'}, 'observations': []}"), 90);
	assert_int_equal(fmt_score(LF, "{'trace': {}, 'observations': []}"), 0);
	assert_int_equal(fmt_score(LF, "{'trace': {'id': 't1'}, 'observations': {}}"), 0);
	assert_int_equal(fmt_score(LF, "[{'trace': {'id': 't1'}, 'observations': []}]"), 0);
}

/* An Anthropic agent traced through OpenTelemetry: input, output and
 * metadata are JSON texts, the observations are out of order, each call
 * is shown three times (a tool_use block, the generation's toolCalls,
 * a TOOL without an id, joined by name in order), later inputs are stubs. */
static const char *const claude_trace =
	"{'trace': {'id': 'tr-2087', 'name': 'conversation', 'observations': [{'id': 'x'}]},"
	" 'observations': ["
	"  {'id': 'g3', 'type': 'GENERATION', 'parentObservationId': 'root', 'startTime': '2026-01-01T09:00:03.000Z',"
	"   'input': '{\\'content\\': \\'role\\'}', 'model': 'claude-sonnet-4-5',"
	"   'output': '{\\'role\\': \\'assistant\\', \\'content\\': [{\\'type\\': \\'text\\', \\'text\\': \\'2087 已发货 📦\\'}]}'},"
	"  {'id': 't1', 'type': 'TOOL', 'name': 'lookup_order', 'parentObservationId': 'root',"
	"   'startTime': '2026-01-01T09:00:02.000Z', 'input': '{\\'input\\': {\\'order\\': \\'2087\\'}}',"
	"   'output': '{\\'status\\': \\'shipped\\'}'},"
	"  {'id': 'root', 'type': 'SPAN', 'parentObservationId': null, 'startTime': '2026-01-01T09:00:00.000Z',"
	"   'input': '{\\'prompt\\': \\'not this\\'}'},"
	"  {'id': 't2', 'type': 'TOOL', 'name': 'lookup_order', 'parentObservationId': 'root',"
	"   'startTime': '2026-01-01T09:00:02.500Z', 'output': 'not found', 'level': 'ERROR',"
	"   'statusMessage': 'order 2088 not found'},"
	"  {'id': 'g2', 'type': 'GENERATION', 'parentObservationId': 'root', 'startTime': '2026-01-01T09:00:01.000Z',"
	"   'input': '{\\'content\\': \\'role\\'}', 'model': 'claude-sonnet-4-5',"
	"   'toolCalls': ['{\\'id\\': \\'toolu_1\\', \\'arguments\\': \\'{}\\', \\'type\\': \\'tool_use\\'}'],"
	"   'toolCallNames': ['lookup_order'],"
	"   'output': '{\\'role\\': \\'assistant\\', \\'content\\': ["
	"     {\\'type\\': \\'tool_use\\', \\'id\\': \\'toolu_1\\', \\'name\\': \\'lookup_order\\', \\'input\\': {\\'order\\': \\'2087\\'}},"
	"     {\\'type\\': \\'tool_use\\', \\'id\\': \\'toolu_2\\', \\'name\\': \\'lookup_order\\', \\'input\\': {\\'order\\': \\'2088\\'}}]}'},"
	"  {'id': 'g1', 'type': 'GENERATION', 'parentObservationId': 'root', 'startTime': '2026-01-01T09:00:00.100Z',"
	"   'input': '{\\'role\\': \\'user\\', \\'content\\': \\'注文 2087 と 2088 は？\\'}', 'model': 'claude-sonnet-4-5',"
	"   'output': '{\\'role\\': \\'assistant\\', \\'content\\': [{\\'type\\': \\'thinking\\', \\'thinking\\': \\'調べます\\'},"
	"     {\\'type\\': \\'text\\', \\'text\\': \\'調べます。\\'}]}'}]}";

static void test_claude_agent(void **state)
{
	(void)state;
	struct run *r = fmt_load(claude_trace, LF);
	assert_string_equal(r->id, "tr-2087");
	assert_string_equal(r->model, "claude-sonnet-4-5");
	assert_string_equal(run_first_user_text(r), "注文 2087 と 2088 は？");
	assert_int_equal(r->ncalls, 2);
	assert_string_equal(r->calls[0].id, "toolu_1");
	assert_string_equal(r->calls[1].id, "toolu_2");
	assert_true(r->calls[0].has_result);
	assert_false(r->calls[0].is_error);
	assert_true(r->calls[1].is_error);
	assert_string_equal(r->calls[1].error_text, "order 2088 not found");
	json_t *args = run_call_args(r, &r->calls[0]);
	assert_string_equal(json_string_value(json_object_get(args, "order")), "2087");
	/* user, thinking and text, the calls, the answer; the stubs add nothing */
	assert_int_equal(r->nmsgs, 4);
	assert_string_equal(fmt_parts(r, 1), "thinking text");
	assert_string_equal(fmt_parts(r, 2), "call call");
	assert_string_equal(run_final_agent_text(r), "2087 已发货 📦");
	assert_int_equal(r->nnotes, 0);
	run_free(r);
}

/* The AI SDK: ai.generateText holds ai.generateText.doGenerate and
 * repeats its output; the TOOL names its call only in its attributes. */
static const char *const aisdk_trace =
	"{'trace': {'id': 'tr-ai', 'input': 'not read: the generation has it'},"
	" 'observations': ["
	"  {'id': 'outer', 'type': 'GENERATION', 'startTime': '2026-01-01T09:00:00.000Z', 'model': 'gpt-5',"
	"   'input': '{\\'prompt\\': \\'注文 2087 はどこですか？\\'}',"
	"   'output': '[{\\'toolCallId\\': \\'c1\\', \\'toolName\\': \\'lookup_order\\', \\'input\\': \\'{\\\\\\'order\\\\\\':\\\\\\'2087\\\\\\'}\\'}]'},"
	"  {'id': 'inner', 'type': 'GENERATION', 'parentObservationId': 'outer', 'startTime': '2026-01-01T09:00:00.000Z',"
	"   'model': 'gpt-5', 'input': [{'role': 'system', 'content': 'You are a shop assistant.'},"
	"     {'role': 'user', 'content': [{'type': 'text', 'text': '注文 2087 はどこですか？'}]}],"
	"   'output': [{'toolCallId': 'c1', 'toolName': 'lookup_order', 'input': '{\\'order\\':\\'2087\\'}'}],"
	"   'metadata': {'tools': [{'type': 'function', 'name': 'lookup_order'}]}},"
	"  {'id': 'tool', 'type': 'TOOL', 'name': 'lookup_order', 'parentObservationId': 'outer',"
	"   'startTime': '2026-01-01T09:00:01.000Z', 'output': '{\\'status\\': \\'shipped\\'}',"
	"   'metadata': '{\\'attributes\\': {\\'ai.toolCall.id\\': \\'c1\\'}}'},"
	"  {'id': 'ev', 'type': 'EVENT', 'name': 'cache-hit', 'startTime': '2026-01-01T09:00:02.000Z'}]}";

static void test_aisdk_nested(void **state)
{
	(void)state;
	struct run *r = fmt_load(aisdk_trace, LF);
	assert_int_equal(r->ncalls, 1);
	assert_string_equal(r->calls[0].id, "c1");
	assert_string_equal(r->calls[0].name, "lookup_order");
	assert_true(r->calls[0].has_result);
	json_t *args = run_call_args(r, &r->calls[0]);
	assert_string_equal(json_string_value(json_object_get(args, "order")), "2087");
	assert_int_equal(r->msgs[0].role, ROLE_SYSTEM);
	assert_string_equal(run_first_user_text(r), "注文 2087 はどこですか？");
	json_t *defs = run_tool_defs(r);
	assert_int_equal(json_array_size(defs), 1);
	assert_int_equal(r->nnotes, 1);         /* the event */
	run_free(r);
}

/* The GenAI convention: ids that are the tool's name, history repeated in
 * later inputs, a result only in an input (no TOOL), a new user turn, a
 * reasoning part with protected data, tool definitions in attributes, a
 * root whose parent is not in the file. */
static const char *const genai_trace =
	"{'trace': {'id': 'tr-g'}, 'observations': ["
	"  {'id': 'g1', 'type': 'GENERATION', 'parentObservationId': 'absent', 'startTime': '2026-01-01T09:00:00Z',"
	"   'model': 'gemini-2.5-flash',"
	"   'metadata': {'attributes': {'gen_ai.tool.definitions': '[{\\'type\\': \\'function\\', \\'name\\': \\'lookup_order\\'}]'}},"
	"   'input': [{'role': 'user', 'parts': [{'type': 'text', 'content': '注文 2087 は？'}]}],"
	"   'output': [{'role': 'assistant', 'parts': [{'type': 'tool_call', 'id': 'lookup_order',"
	"     'name': 'lookup_order', 'arguments': {'order': '2087'}},"
	"     {'type': 'Microsoft.Extensions.AI.TextReasoningContent', 'content': {'text': '', 'protectedData': 'xx'}}]}]},"
	"  {'id': 'g2', 'type': 'GENERATION', 'parentObservationId': 'absent', 'startTime': '2026-01-01T09:00:01Z',"
	"   'input': [{'role': 'user', 'parts': [{'type': 'text', 'content': '注文 2087 は？'}]},"
	"     {'role': 'assistant', 'parts': [{'type': 'tool_call', 'id': 'lookup_order', 'name': 'lookup_order',"
	"       'arguments': {'order': '2087'}}]},"
	"     {'role': 'tool', 'parts': [{'type': 'tool_call_response', 'id': 'lookup_order', 'response': 'shipped'}]}],"
	"   'output': [{'role': 'assistant', 'parts': [{'type': 'text', 'content': '已发货 📦'}]}]},"
	"  {'id': 'g3', 'type': 'GENERATION', 'startTime': '2026-01-01T09:00:02Z',"
	"   'input': [{'role': 'user', 'parts': [{'type': 'text', 'content': '注文 2087 は？'}]},"
	"     {'role': 'assistant', 'parts': [{'type': 'text', 'content': '已发货 📦'}]},"
	"     {'role': 'user', 'parts': [{'type': 'text', 'content': 'もう一度 2087'}]}],"
	"   'output': [{'role': 'assistant', 'parts': [{'type': 'tool_call', 'id': 'lookup_order',"
	"     'name': 'lookup_order', 'arguments': {'order': '2087', 'again': true}}]}]}]}";

static void test_genai(void **state)
{
	(void)state;
	struct run *r = fmt_load(genai_trace, LF);
	/* the same name-id with other arguments is another call */
	assert_int_equal(r->ncalls, 2);
	assert_true(r->calls[0].has_result);
	assert_false(r->calls[1].has_result);
	assert_int_equal(json_array_size(run_tool_defs(r)), 1);
	/* user, calls + thinking, answer, second user turn, second call */
	assert_int_equal(r->nmsgs, 5);
	assert_string_equal(fmt_parts(r, 1), "call thinking");
	assert_int_equal(r->msgs[3].role, ROLE_USER);
	assert_string_equal(r->msgs[3].text, "もう一度 2087");
	assert_string_equal(r->model, "gemini-2.5-flash");
	run_free(r);
}

/* OpenAI shapes: a message with tool_calls, a completion's choices; a
 * TOOL no generation asked for is a call of its own; unknown kinds and
 * parts are notes; with no generation the trace's input and output. */
static void test_openai_and_leftovers(void **state)
{
	(void)state;
	struct run *r = fmt_load(
		"{'trace': {'id': 't'}, 'observations': ["
		" {'id': 'a', 'type': 'GENERATION', 'startTime': '1', 'input': 'hello',"
		"  'output': {'role': 'assistant', 'content': null, 'tool_calls': [{'id': 'call_1',"
		"   'type': 'function', 'function': {'name': 'lookup_order', 'arguments': '{}'}}]}},"
		" {'id': 'b', 'type': 'GENERATION', 'startTime': '2',"
		"  'input': [{'role': 'user', 'content': 'hello'}, {'role': 'assistant', 'content': null},"
		"   {'role': 'tool', 'tool_call_id': 'call_1', 'content': 'shipped'}],"
		"  'output': {'choices': [{'message': {'role': 'assistant', 'content': [{'type': 'image'}]}}]}},"
		" {'id': 'c', 'type': 'TOOL', 'name': 'notify', 'startTime': '3', 'input': {'to': 'kenji'},"
		"  'output': 'sent', 'metadata': {'toolCallId': 'n1'}},"
		" {'id': 'e', 'type': 'TOOL', 'name': 'lookup_order', 'startTime': '3.5', 'output': 'late',"
		"  'metadata': {'attributes': {'tool_call.id': 'other-sdk-id'}}},"
		" {'id': 'd', 'type': 'RERANKER', 'startTime': '4'}]}", LF);
	assert_int_equal(r->ncalls, 2);
	assert_true(r->calls[0].has_result);
	assert_string_equal(r->calls[1].name, "notify");
	assert_string_equal(r->calls[1].id, "n1");
	assert_true(r->calls[1].has_result);
	/* an id no call has: joined by name (the call had its result already) */
	assert_string_equal(json_string_value(run_call_result(r, &r->calls[0])), "shipped");
	assert_int_equal(r->nnotes, 2);         /* the image part, the RERANKER */
	run_free(r);

	r = fmt_load("{'trace': {'id': 't', 'input': 'こんにちは', 'output': '你好 👋'},"
	             " 'observations': [{'id': 's', 'type': 'SPAN'}]}", LF);
	assert_int_equal(r->nmsgs, 2);
	assert_string_equal(run_first_user_text(r), "こんにちは");
	assert_string_equal(run_final_agent_text(r), "你好 👋");
	run_free(r);
}

/* A Responses function_call is named by its call_id and answered by a
 * function_call_output in a later input; LangChain's tool_call has args. */
static void test_responses_and_langchain(void **state)
{
	(void)state;
	struct run *r = fmt_load(
		"{'trace': {'id': 't'}, 'observations': ["
		" {'id': 'a', 'type': 'GENERATION', 'startTime': '1', 'input': 'hello',"
		"  'output': [{'type': 'function_call', 'id': 'fc_1', 'call_id': 'call_9',"
		"   'name': 'lookup_order', 'arguments': '{}'}]},"
		" {'id': 'b', 'type': 'GENERATION', 'startTime': '2',"
		"  'input': [{'type': 'function_call_output', 'call_id': 'call_9', 'output': 'shipped'}],"
		"  'output': {'role': 'assistant', 'content': '', 'tool_calls': [{'name': 'track',"
		"   'args': {'id': 'SF88'}, 'id': 'lc_1', 'type': 'tool_call'}]}}]}", LF);
	assert_int_equal(r->ncalls, 2);
	assert_string_equal(r->calls[0].id, "call_9");
	assert_true(r->calls[0].has_result);
	json_t *args = run_call_args(r, &r->calls[1]);
	assert_string_equal(json_string_value(json_object_get(args, "id")), "SF88");
	run_free(r);
}

/* The public API's trace holds its observations, input and output kept. */
static void test_api_trace(void **state)
{
	(void)state;
	static const char *const api =
		"{'id': 'tr-api', 'name': 'shop', 'observations': ["
		" {'id': 'g1', 'traceId': 'tr-api', 'type': 'GENERATION', 'startTime': '2026-01-01T09:00:00Z',"
		"  'input': [{'role': 'user', 'content': '注文 2087 は？'}],"
		"  'output': {'role': 'assistant', 'content': [{'type': 'tool_use', 'id': 'toolu_1',"
		"   'name': 'lookup_order', 'input': {'order': '2087'}}]}},"
		" {'id': 't1', 'traceId': 'tr-api', 'type': 'TOOL', 'name': 'lookup_order',"
		"  'startTime': '2026-01-01T09:00:01Z', 'output': 'shipped'}], 'scores': []}";
	assert_int_equal(fmt_score(LF, api), 85);
	/* not without a known observation type, nor beside an export's trace */
	assert_int_equal(fmt_score(LF, "{'id': 't', 'observations': [{'traceId': 't', 'type': 'X'}]}"), 0);
	assert_int_equal(fmt_score(LF, "{'id': 't', 'observations': [{'type': 'SPAN'}]}"), 0);
	struct run *r = fmt_load(api, LF);
	assert_int_equal(r->ncalls, 1);
	assert_true(r->calls[0].has_result);
	assert_string_equal(run_first_user_text(r), "注文 2087 は？");
	run_free(r);
}

/* A list of observations (bare, or a page of the API) is a run per
 * trace, in the order the traces first appear; one alone is a run too. */
static void test_observation_lists(void **state)
{
	(void)state;
	static const char list[] =
		"[{\"id\": \"a1\", \"traceId\": \"tr-b\", \"type\": \"GENERATION\", \"startTime\": \"1\","
		"  \"input\": \"hello\", \"output\": {\"role\": \"assistant\", \"content\": \"hi\"}},"
		" {\"id\": \"x1\", \"traceId\": \"tr-a\", \"type\": \"GENERATION\", \"startTime\": \"1\","
		"  \"input\": \"order?\", \"output\": {\"role\": \"assistant\", \"tool_calls\": [{\"id\": \"c1\","
		"   \"function\": {\"name\": \"lookup_order\", \"arguments\": \"{}\"}}]}},"
		" {\"id\": \"a2\", \"traceId\": \"tr-b\", \"type\": \"EVENT\", \"name\": \"done\", \"startTime\": \"2\"},"
		" {\"id\": \"x2\", \"traceId\": \"tr-a\", \"type\": \"TOOL\", \"name\": \"lookup_order\","
		"  \"startTime\": \"2\", \"output\": \"shipped\"},"
		" {\"id\": \"z\", \"traceId\": \"tr-c\", \"type\": \"SPAN\", \"input\": \"alone\"}]\n";
	assert_int_equal(fmt_score(LF, "[{'traceId': 't', 'type': 'SPAN'}]"), 80);
	assert_int_equal(fmt_score(LF, "{'data': [{'traceId': 't', 'type': 'SPAN'}], 'meta': {}}"), 80);
	assert_int_equal(fmt_score(LF, "[{'traceId': 't', 'type': 'span'}]"), 0);
	/* one observation a line: each line a run of its own trace */
	assert_int_equal(fmt_score(LF, "{'id': 'o1', 'traceId': 't', 'type': 'GENERATION',"
	                               " 'input': [], 'output': {'role': 'assistant', 'content': 'x'}}"), 75);
	assert_int_equal(fmt_score(LF, "{'traceId': 't', 'type': 'GENERATION'}"), 0);
	assert_int_equal(fmt_score(LF, "{'id': 'o1', 'traceId': 't', 'type': 'generation'}"), 0);
	json_t *lone = fmt_parse("{'id': 'o1', 'traceId': 'tr-9', 'type': 'GENERATION', 'startTime': '1',"
	                         " 'input': [{'role': 'user', 'content': 'order?'}],"
	                         " 'output': {'role': 'assistant', 'tool_calls': [{'id': 'c1',"
	                         "  'function': {'name': 'lookup_order', 'arguments': '{}'}}]}}");
	struct run *one = run_new(lone, "o.jsonl", 1, -1);
	json_decref(lone);
	struct error lerr = {0};
	assert_int_equal(format_load(one, NULL, &lerr), 0);
	assert_string_equal(one->format, LF);
	assert_int_equal(one->ncalls, 1);
	assert_string_equal(one->calls[0].name, "lookup_order");
	run_free(one);
	struct dataset ds;
	assert_int_equal(fmt_open(&ds, fmt_write("observations.json", list)), 3);
	static const char *const ids[] = { "tr-b", "tr-a", "tr-c" };
	static const size_t calls[] = { 0, 1, 0 };
	for (size_t i = 0; i < 3; i++) {
		struct run *r = fmt_run_at(&ds, i, LF);
		assert_string_equal(r->id, ids[i]);
		assert_int_equal(r->ncalls, calls[i]);
		if (calls[i])
			assert_true(r->calls[0].has_result);
		run_free(r);
	}
	dataset_close(&ds);
}

/* Parents that make a circle, and one observation its own parent, end. */
static void test_hostile(void **state)
{
	(void)state;
	struct run *r = fmt_load(
		"{'trace': {'id': 't'}, 'observations': ["
		" {'id': 'a', 'type': 'GENERATION', 'parentObservationId': 'b', 'output': 'x'},"
		" {'id': 'b', 'type': 'GENERATION', 'parentObservationId': 'a', 'output': 'y'},"
		" {'id': 'c', 'type': 'SPAN', 'parentObservationId': 'c'},"
		" {'id': 'a', 'type': 'TOOL', 'name': 'dup-id'}]}", LF);
	assert_int_equal(r->ncalls, 1);
	run_free(r);
}

static void test_errors(void **state)
{
	(void)state;
	static const struct fmt_error_case cases[] = {
		{ "7", "a langfuse export must be an object {trace, observations}" },
		{ "[1]", "[0]: not an object" },
		{ "{'traceId': 't', 'type': 'SPAN', 'startTime': 4}", "observation.startTime: not a string" },
		{ "{'data': [{'traceId': 't', 'type': 'SPAN'}, 3]}", "data[1]: not an object" },
		{ "{'observations': []}", "trace: missing" },
		{ "{'trace': 'x', 'observations': []}", "trace: not an object" },
		{ "{'trace': {'id': 't'}}", "observations: missing" },
		{ "{'trace': {'id': 't'}, 'observations': [{'type': 'SPAN'}, 7]}",
		  "observations[1]: not an object" },
		{ "{'trace': {'id': 't'}, 'observations': [{'id': 'a'}]}", "observations[0].type: missing" },
		{ "{'trace': {'id': 't'}, 'observations': [{'type': 3}]}", "observations[0].type: not a string" },
		{ "{'trace': {'id': 't'}, 'observations': [{'type': 'SPAN', 'startTime': 5}]}",
		  "observations[0].startTime: not a string" },
		{ "{'trace': {'id': 't'}, 'observations': [{'type': 'SPAN', 'parentObservationId': []}]}",
		  "observations[0].parentObservationId: not a string" },
		{ "{'trace': {'id': 't'}, 'observations': [{'type': 'GENERATION', 'toolCalls': 'x'}]}",
		  "observations[0].toolCalls: not an array" },
		{ NULL, NULL },
	};
	fmt_expect_errors(LF, cases);
}

static void test_wild_samples(void **state)
{
	(void)state;
	struct dataset ds;
	struct run *r = fmt_wild_run(&ds, "langfuse-export/claude-agent-2025-12-22.trace.json", LF, 1, 2);
	if (!r) {
		skip();
		return;
	}
	assert_string_equal(r->calls[0].name, "mcp__weather__get_weather");
	assert_true(r->calls[0].has_result && r->calls[1].has_result);
	assert_string_equal(run_first_user_text(r), "What's the weather like in Berlin and New York?");
	run_free(r);
	dataset_close(&ds);

	r = fmt_wild_run(&ds, "langfuse-export/vercel-aisdk-2025-11-17.trace.json", LF, 1, 1);
	assert_string_equal(r->calls[0].name, "getWeather");
	assert_true(r->calls[0].has_result);
	assert_string_equal(r->model, "gpt-5");
	run_free(r);
	dataset_close(&ds);

	r = fmt_wild_run(&ds, "langfuse-export/csharp-agent-with-gemini-2026-03-09.trace.json", LF, 1, 2);
	assert_string_equal(r->calls[0].name, "get_custom_report");
	assert_string_equal(r->calls[1].name, "final_result");
	assert_non_null(run_tool_defs(r));
	run_free(r);
	dataset_close(&ds);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_detect),
		cmocka_unit_test(test_claude_agent),
		cmocka_unit_test(test_aisdk_nested),
		cmocka_unit_test(test_genai),
		cmocka_unit_test(test_openai_and_leftovers),
		cmocka_unit_test(test_responses_and_langchain),
		cmocka_unit_test(test_api_trace),
		cmocka_unit_test(test_observation_lists),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_wild_samples),
	};
	return cmocka_run_group_tests(tests, fmt_files_setup, fmt_files_teardown);
}
