/* test_fmt_mastra_tracing.c - the Mastra AI tracing loader: a snapshot
 * of span trees, an array of trees (an agent inside a workflow, spans of
 * the older llm_generation kind), a flat list of spans linked by
 * parentSpanId out of time order, a JSONL file of storage rows; each
 * agent run one run, calls from tool spans, failures from errorInfo. */
#include "fmt_files.h"

#define SPAN(id, type, name) \
	"'span': {'id': '" id "', 'traceId': 'tr-1', 'name': '" name "', 'type': '" type "'," \
	" 'isEvent': false, 'entityType': 'agent', 'entityId': 'shop-agent'"

#define SNAPSHOT                                                                                \
	"{'__structure__': ['agent_run: shop'], 'spans': [{" SPAN("s1", "agent_run", "agent run: \\u0027shop-agent\\u0027") "," \
	"  'isRootSpan': true, 'attributes': {'instructions': 'You are a shop assistant.',"        \
	"    'availableTools': ['lookup_order']}, 'metadata': {'runId': 'run-2087'},"              \
	"  'input': '注文 2087 はどこですか？', 'output': {'text': '已发货 📦', 'files': []}},"     \
	" 'children': [{" SPAN("s2", "model_generation", "llm: \\u0027gpt-4o-mini\\u0027") ", 'parentId': 's1'," \
	"    'attributes': {'model': 'gpt-4o-mini', 'provider': 'openai', 'streaming': true},"      \
	"    'input': {'messages': [{'role': 'system', 'content': 'You are a shop assistant.'}]},"  \
	"    'output': {'text': '已发货 📦', 'reasoning': [], 'files': []}},"                       \
	"   'children': [{" SPAN("s3", "model_step", "step: 0") ", 'parentId': 's2',"               \
	"      'attributes': {'stepIndex': 0, 'finishReason': 'tool-calls'}, 'input': {},"         \
	"      'output': {'text': '調べます。', 'reasoning': [{'type': 'reasoning', 'text': 'look it up'}]," \
	"        'toolCalls': [{'toolCallId': 'call-1', 'toolName': 'lookup_order', 'args': {'order': '2087'}}]}}," \
	"     'children': [{" SPAN("s4", "model_chunk", "chunk: \\u0027tool-call\\u0027") ", 'parentId': 's3',"  \
	"        'attributes': {'chunkType': 'tool-call', 'sequenceNumber': 0},"                    \
	"        'output': {'toolName': 'lookup_order', 'toolCallId': 'call-1', 'toolInput': {'order': '2087'}}}}," \
	"       {'span': {'id': 's5', 'traceId': 'tr-1', 'name': 'tool: \\u0027lookup_order\\u0027', 'type': 'tool_call'," \
	"        'entityType': 'tool', 'entityId': 'lookup_order', 'parentId': 's3',"              \
	"        'attributes': {'toolDescription': 'Finds an order', 'toolType': 'tool', 'success': true}," \
	"        'input': {'order': '2087'}, 'output': {'status': 'shipped'}},"                      \
	"        'children': [{" SPAN("s6", "generic", "db-read") ", 'parentId': 's5'}}]},"          \
	"       {'span': {'id': 's7', 'traceId': 'tr-1', 'name': 'mcp tool', 'type': 'mcp_tool_call'," \
	"        'parentId': 's3', 'attributes': {'toolId': 'track_parcel', 'mcpServer': 'parcels'}," \
	"        'input': {'tracking': 'SF88'},"                                                    \
	"        'errorInfo': {'message': '上游超时', 'domain': 'TOOL', 'category': 'USER'}}}]},"    \
	"    {" SPAN("s8", "model_step", "step: 1") ", 'parentId': 's2',"                           \
	"      'output': {'text': '已发货 📦', 'toolCalls': []}}, 'children': []}]},"                 \
	"  {" SPAN("s9", "generic", "audit") ", 'parentId': 's1'}}]}]}"

static void test_snapshot(void **state)
{
	(void)state;
	struct dataset ds;
	assert_int_equal(fmt_open(&ds, fmt_write("trace.json", SNAPSHOT)), 1);
	struct run *r = fmt_run_at(&ds, 0, "mastra-tracing");
	assert_string_equal(r->id, "run-2087");
	assert_string_equal(r->model, "gpt-4o-mini");
	/* system, user, the step with its calls, two results, the answer, the note */
	assert_int_equal(r->nmsgs, 7);
	assert_int_equal(r->msgs[0].role, ROLE_SYSTEM);
	assert_string_equal(r->msgs[1].text, "注文 2087 はどこですか？");
	const struct run_msg *a = &r->msgs[2];
	assert_int_equal(a->role, ROLE_ASSISTANT);
	assert_int_equal(a->nparts, 4);
	assert_int_equal(r->parts[a->first_part].kind, PART_THINKING);
	assert_string_equal(r->parts[a->first_part].text, "look it up");
	assert_string_equal(a->text, "調べます。");
	assert_int_equal(a->ncalls, 2);
	struct run_call *c = &r->calls[0];
	assert_string_equal(c->name, "lookup_order");
	assert_string_equal(c->id, "call-1");
	assert_string_equal(json_string_value(json_object_get(run_call_args(r, c), "order")), "2087");
	assert_int_equal(c->state, CALL_COMPLETED);
	assert_int_equal(c->result_msg, 3);
	assert_string_equal(json_string_value(json_object_get(run_call_result(r, c), "status")), "shipped");
	c = &r->calls[1];
	assert_string_equal(c->name, "track_parcel");
	assert_null(c->id);
	assert_int_equal(c->state, CALL_FAILED);
	assert_string_equal(c->error_text, "上游超时");
	assert_int_equal(c->result_msg, 4);
	assert_string_equal(r->msgs[5].text, "已发货 📦");
	assert_string_equal(run_final_agent_text(r), "已发货 📦");
	/* the tool's own child span is its internals; the generic span a note */
	assert_int_equal(r->nnotes, 1);
	assert_string_equal(r->parts[r->msgs[6].first_part].text, "span generic \"audit\" (not read)");
	assert_int_equal(fmt_count_unmatched(r), 0);
	run_free(r);
	dataset_close(&ds);
}

/* An agent inside a workflow, with llm_generation spans and no steps. */
#define WORKFLOW_TREE                                                                           \
	"{'span': {'id': 'w1', 'traceId': 'tr-2', 'name': 'order-flow', 'type': 'workflow_run'},"  \
	" 'children': [{'span': {'id': 'w2', 'traceId': 'tr-2', 'name': 'ask', 'type': 'workflow_step'}," \
	"  'children': [{'span': {'id': 'a1', 'traceId': 'tr-2', 'name': 'weather-agent', 'type': 'agent_run'," \
	"    'input': [{'role': 'user', 'content': [{'type': 'text', 'text': '天気は？'}]}],"          \
	"    'output': {'text': '晴れ ☀'}},"                                                         \
	"   'children': [{'span': {'id': 'g1', 'traceId': 'tr-2', 'name': 'llm', 'type': 'llm_generation'," \
	"      'attributes': {'responseModel': 'claude-haiku'}, 'output': {'text': ''}}},"           \
	"     {'span': {'id': 't1', 'traceId': 'tr-2', 'name': 'tool: \\u0027weather\\u0027', 'type': 'tool_call'," \
	"      'input': {'city': '東京'}, 'output': 'sunny'}},"                                       \
	"     {'span': {'id': 'g2', 'traceId': 'tr-2', 'name': 'llm', 'type': 'llm_generation',"    \
	"      'output': {'text': '晴れ ☀'}}},"                                                       \
	"     {'span': {'id': 'a2', 'traceId': 'tr-2', 'name': 'helper', 'type': 'agent_run', 'input': 'sub'}}]}]}]}"

static void test_array_of_trees(void **state)
{
	(void)state;
	struct dataset ds;
	assert_int_equal(fmt_open(&ds, fmt_write("traces.json", "[" SNAPSHOT "," WORKFLOW_TREE "]")), 2);
	struct run *r = fmt_run_at(&ds, 0, "mastra-tracing");
	assert_int_equal(r->ncalls, 2);
	run_free(r);
	r = fmt_run_at(&ds, 1, "mastra-tracing");
	assert_string_equal(r->id, "a1");
	assert_string_equal(r->model, "claude-haiku");
	assert_string_equal(r->msgs[0].text, "天気は？");
	assert_int_equal(r->ncalls, 1);
	assert_string_equal(r->calls[0].name, "weather");
	assert_int_equal(r->calls[0].state, CALL_COMPLETED);
	assert_string_equal(r->msgs[r->calls[0].result_msg].text, "sunny");
	assert_string_equal(r->msgs[3].text, "晴れ ☀");
	/* the agent it ran stays inside it, as a note */
	assert_string_equal(fmt_last_note(r), "agent run \"helper\"");
	assert_int_equal(r->nmsgs, 5);
	run_free(r);
	dataset_close(&ds);
}

/* ExportedSpans as an exporter writes them: flat, out of time order. */
#define FLAT                                                                                    \
	"[{'id': 's3', 'traceId': 't1', 'parentSpanId': 's2', 'type': 'tool_call',"                \
	"  'name': 'tool: \\u0027lookup_order\\u0027', 'startTime': '2025-03-01T09:00:02.000Z',"             \
	"  'input': {'order': '2087'}, 'output': {'status': 'shipped'}, 'isRootSpan': false},"    \
	" {'id': 's9', 'traceId': 't2', 'type': 'agent_run', 'name': 'other', 'input': 'x',"       \
	"  'output': {'text': 'y'}, 'metadata': {'runId': 'run-2'}, 'isRootSpan': true,"           \
	"  'errorInfo': {'message': 'max steps'}, 'startTime': '2025-03-01T09:05:00.000Z'},"       \
	" {'id': 's2', 'traceId': 't1', 'parentSpanId': 's1', 'type': 'model_generation',"         \
	"  'name': 'llm', 'startTime': '2025-03-01T09:00:01.000Z', 'attributes': {'model': 'gpt-4o'}," \
	"  'output': {'text': '已发货'}},"                                                          \
	" {'id': 's4', 'traceId': 't1', 'parentSpanId': 's1', 'type': 'processor_run',"            \
	"  'name': 'guard', 'startTime': '2025-03-01T09:00:00.500Z'},"                             \
	" {'id': 's1', 'traceId': 't1', 'type': 'agent_run', 'name': 'agent run: \\u0027shop\\u0027',"        \
	"  'startTime': '2025-03-01T09:00:00.000Z', 'input': '注文 2087', 'output': {'text': '已发货'}," \
	"  'metadata': {'runId': 'run-1'}, 'isRootSpan': true}]"

static void test_flat_spans(void **state)
{
	(void)state;
	struct dataset ds;
	assert_int_equal(fmt_open(&ds, fmt_write("spans.json", FLAT)), 2);
	struct run *r = fmt_run_at(&ds, 0, "mastra-tracing");
	assert_string_equal(r->id, "run-1");
	assert_string_equal(r->model, "gpt-4o");
	/* user, the call's turn, its result, the generation's answer */
	assert_int_equal(r->nmsgs, 4);
	assert_string_equal(r->msgs[0].text, "注文 2087");
	assert_int_equal(r->msgs[1].ncalls, 1);
	assert_string_equal(r->calls[0].name, "lookup_order");
	assert_int_equal(r->calls[0].result_msg, 2);
	assert_string_equal(r->msgs[3].text, "已发货");
	assert_int_equal(r->nnotes, 0);
	json_t *v = run_path(r, "[0].id");
	assert_non_null(v);
	json_decref(v);
	run_free(r);
	r = fmt_run_at(&ds, 1, "mastra-tracing");
	assert_string_equal(r->id, "run-2");
	assert_int_equal(r->nmsgs, 3);
	assert_string_equal(r->msgs[1].text, "y");
	assert_string_equal(fmt_last_note(r), "agent run failed: max steps");
	run_free(r);
	dataset_close(&ds);
}

/* Storage rows one a line, as spanId, spanType, startedAt and error. */
static void test_jsonl_rows(void **state)
{
	(void)state;
	struct dataset ds;
	assert_int_equal(fmt_open(&ds, fmt_write("spans.jsonl",
	    "{'traceId': 't5', 'spanId': 'r1', 'parentSpanId': null, 'name': 'agent', 'spanType': 'agent_run',"
	    " 'startedAt': '2025-03-01T09:00:00Z', 'input': 'ping', 'output': {'text': 'pong'}}\n"
	    "{'traceId': 't5', 'spanId': 'r2', 'parentSpanId': 'r1', 'name': 'tool: \\u0027echo\\u0027',"
	    " 'spanType': 'tool_call', 'startedAt': '2025-03-01T09:00:01Z', 'input': {'v': 1},"
	    " 'error': {'message': 'boom'}}\n")), 1);
	struct run *r = fmt_run_at(&ds, 0, "mastra-tracing");
	assert_string_equal(r->id, "r1");
	assert_int_equal(r->ncalls, 1);
	assert_string_equal(r->calls[0].name, "echo");
	assert_int_equal(r->calls[0].state, CALL_FAILED);
	assert_string_equal(r->calls[0].error_text, "boom");
	assert_string_equal(run_final_agent_text(r), "pong");
	run_free(r);
	dataset_close(&ds);
}

static void test_detection(void **state)
{
	(void)state;
	assert_true(fmt_score("mastra-tracing", SNAPSHOT) > 0);
	assert_true(fmt_score("mastra-tracing", WORKFLOW_TREE) > 0);
	assert_true(fmt_score("mastra-tracing", FLAT) > 0);
	assert_string_equal(fmt_detect(SNAPSHOT)->name, "mastra-tracing");
	assert_string_equal(fmt_detect(FLAT)->name, "mastra-tracing");
	/* a type Mastra does not write, a span without ids, foreign trees */
	assert_int_equal(fmt_score("mastra-tracing", "{'span': {'id': 'a', 'type': 'llm'}}"), 0);
	assert_int_equal(fmt_score("mastra-tracing", "[{'type': 'agent_run', 'name': 'x'}]"), 0);
	assert_int_equal(fmt_score("mastra-tracing", "{'spans': [{'name': 'x'}]}"), 0);
	assert_int_equal(fmt_score("mastra-tracing",
	                           "{'span': {'id': 'a', 'type': 'agent_run'}, 'children': 3}"), 0);
}

static void test_errors(void **state)
{
	(void)state;
	static const struct fmt_error_case cases[] = {
		{ "'x'", "a Mastra trace must be a span tree or a list of spans" },
		{ "{'span': {'id': 'g', 'type': 'model_generation'}, 'children': []}", "no agent_run span" },
		{ "[{'id': 's', 'traceId': 't', 'type': 'tool_call'}]", "no agent_run span" },
		{ NULL, NULL },
	};
	fmt_expect_errors("mastra-tracing", cases);
}

/* No wild folder holds Mastra traces: the detector claims nothing there. */
static void test_wild_claims(void **state)
{
	(void)state;
	fmt_check_wild("mastra-tracing", "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_snapshot),
		cmocka_unit_test(test_array_of_trees),
		cmocka_unit_test(test_flat_spans),
		cmocka_unit_test(test_jsonl_rows),
		cmocka_unit_test(test_detection),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_wild_claims),
	};
	return cmocka_run_group_tests(tests, fmt_files_setup, fmt_files_teardown);
}
