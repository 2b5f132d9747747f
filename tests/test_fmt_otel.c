/* test_fmt_otel.c - OpenTelemetry traces (OTLP JSON and JSONL, SDK span
 * lists, flat attribute maps) read as runs through the dataset. */
#include "fmt_test.h"
#include "fmt_wild.h"
#include "test_files.h"

#include "runs/dataset.h"
#include "runs/loader.h"
#include "util/error.h"

#define OTEL "otel"
#define TRACE_A "5b8efff798038103d269b633813fc60c"
#define TRACE_B "eee19b7ec3c1b174a5a2c5fdba1b7c1f"

static char dir[256];

static int setup(void **s)
{
	(void)s;
	strcpy(dir, "/tmp/tcr-otel.XXXXXX");
	assert_non_null(mkdtemp(dir));
	return 0;
}

static int teardown(void **s)
{
	(void)s;
	char cmd[512];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* Fixtures are written as fmt_test.h writes them (' for "); each line of
 * text becomes a line of the file. */
static char *write_fixture(const char *name, const char *text)
{
	char *path;
	assert_true(asprintf(&path, "%s/%s", dir, name) > 0);
	char *s = strdup(text);
	assert_non_null(s);
	for (char *p = s; *p; p++)
		if (*p == '\'')
			*p = '"';
	test_write_file(path, s);
	free(s);
	return path;
}

struct loaded {
	struct dataset ds;
	struct run *runs[8];
	size_t n;
};

static void load_all(struct loaded *l, char *path)
{
	struct error err = {0};
	char *paths[] = { path };
	assert_int_equal(dataset_open(&l->ds, paths, 1, &err), 0);
	dataset_index_all(&l->ds);
	l->n = l->ds.nrecs;
	assert_true(l->n <= 8);
	for (size_t i = 0; i < l->n; i++) {
		l->runs[i] = dataset_load_run(&l->ds, &l->ds.recs[i], NULL, NULL, &err);
		assert_non_null(l->runs[i]);
		if (l->runs[i]->load_error)
			fprintf(stderr, "run %zu: %s\n", i, l->runs[i]->load_error);
		assert_null(l->runs[i]->load_error);
		assert_string_equal(l->runs[i]->format, OTEL);
	}
	free(path);
}

static void free_all(struct loaded *l)
{
	for (size_t i = 0; i < l->n; i++)
		run_free(l->runs[i]);
	dataset_close(&l->ds);
}

static const char *result_text(struct run *r, struct run_call *c)
{
	json_t *v = run_call_result(r, c);
	return v ? json_string_value(v) : NULL;
}

static const char *args_text(struct run *r, struct run_call *c)
{
	static char buf[256];
	json_t *a = run_call_args(r, c);
	assert_non_null(a);
	char *s = json_dumps(a, JSON_COMPACT | JSON_SORT_KEYS);
	snprintf(buf, sizeof buf, "%s", s);
	free(s);
	return buf;
}

/* ---- OTLP JSONL: the collector's file exporter, two traces over two lines -- */

/* Trace A: a chat span with GenAI messages asks for lookup_order, an
 * execute_tool span runs it, a second chat span repeats the history and
 * answers. Trace B: the older gen_ai.prompt.N / gen_ai.completion.N
 * attributes, its result only in the second span's input. The second
 * line lists A's last span before its tool span. */
static const char *const jsonl_batches =
	"{'resourceSpans': [{'resource': {'attributes': [{'key': 'service.name', 'value': {'stringValue': 'shop'}}]},"
	" 'scopeSpans': [{'scope': {'name': 'genai'}, 'spans': ["
	"  {'traceId': '" TRACE_A "', 'spanId': 'a1', 'name': 'chat gpt-4o',"
	"   'startTimeUnixNano': '1000', 'endTimeUnixNano': '1900', 'attributes': ["
	"    {'key': 'gen_ai.operation.name', 'value': {'stringValue': 'chat'}},"
	"    {'key': 'gen_ai.request.model', 'value': {'stringValue': 'gpt-4o'}},"
	"    {'key': 'gen_ai.response.model', 'value': {'stringValue': 'gpt-4o-2024-08-06'}},"
	"    {'key': 'gen_ai.usage.input_tokens', 'value': {'intValue': '97'}},"
	"    {'key': 'gen_ai.system_instructions', 'value': {'stringValue': '[{\\'type\\': \\'text\\', \\'content\\': \\'You track orders.\\'}]'}},"
	"    {'key': 'gen_ai.input.messages', 'value': {'stringValue': '[{\\'role\\': \\'user\\', \\'parts\\': [{\\'type\\': \\'text\\', \\'content\\': \\'注文 2087 はどこ？\\'}]}]'}},"
	"    {'key': 'gen_ai.output.messages', 'value': {'stringValue': '[{\\'role\\': \\'assistant\\', \\'parts\\': [{\\'type\\': \\'text\\', \\'content\\': \\'Looking.\\'}, {\\'type\\': \\'tool_call\\', \\'id\\': \\'c1\\', \\'name\\': \\'lookup_order\\', \\'arguments\\': {\\'order\\': \\'2087\\'}}], \\'finish_reason\\': \\'tool_call\\'}]'}}]},"
	"  {'traceId': '" TRACE_B "', 'spanId': 'b1', 'name': 'openai.chat',"
	"   'startTimeUnixNano': 1500, 'attributes': ["
	"    {'key': 'gen_ai.request.model', 'value': {'stringValue': 'gpt-4o-mini'}},"
	"    {'key': 'gen_ai.prompt.0.role', 'value': {'stringValue': 'system'}},"
	"    {'key': 'gen_ai.prompt.0.content', 'value': {'stringValue': 'Be brief.'}},"
	"    {'key': 'gen_ai.prompt.1.role', 'value': {'stringValue': 'user'}},"
	"    {'key': 'gen_ai.prompt.1.content', 'value': {'stringValue': 'Where is 2087?'}},"
	"    {'key': 'gen_ai.completion.0.role', 'value': {'stringValue': 'assistant'}},"
	"    {'key': 'gen_ai.completion.0.finish_reason', 'value': {'stringValue': 'tool_calls'}},"
	"    {'key': 'gen_ai.completion.0.tool_calls.0.id', 'value': {'stringValue': 'call_9'}},"
	"    {'key': 'gen_ai.completion.0.tool_calls.0.name', 'value': {'stringValue': 'lookup_order'}},"
	"    {'key': 'gen_ai.completion.0.tool_calls.0.arguments', 'value': {'stringValue': '{\\'order\\': 2087}'}}]}]}]}]}\n"
	"{'resourceSpans': [{'resource': {}, 'scopeSpans': [{'spans': ["
	"  {'traceId': '" TRACE_A "', 'spanId': 'a3', 'parentSpanId': '', 'name': 'chat gpt-4o',"
	"   'startTimeUnixNano': '3000', 'attributes': ["
	"    {'key': 'gen_ai.operation.name', 'value': {'stringValue': 'chat'}},"
	"    {'key': 'gen_ai.system_instructions', 'value': {'stringValue': '[{\\'type\\': \\'text\\', \\'content\\': \\'You track orders.\\'}]'}},"
	"    {'key': 'gen_ai.input.messages', 'value': {'stringValue': '[{\\'role\\': \\'user\\', \\'parts\\': [{\\'type\\': \\'text\\', \\'content\\': \\'注文 2087 はどこ？\\'}]},"
	"      {\\'role\\': \\'assistant\\', \\'parts\\': [{\\'type\\': \\'text\\', \\'content\\': \\'Looking.\\'}, {\\'type\\': \\'tool_call\\', \\'id\\': \\'c1\\', \\'name\\': \\'lookup_order\\', \\'arguments\\': {\\'order\\': \\'2087\\'}}]},"
	"      {\\'role\\': \\'tool\\', \\'parts\\': [{\\'type\\': \\'tool_call_response\\', \\'id\\': \\'c1\\', \\'response\\': \\'shipped\\'}]}]'}},"
	"    {'key': 'gen_ai.output.messages', 'value': {'stringValue': '[{\\'role\\': \\'assistant\\', \\'parts\\': [{\\'type\\': \\'text\\', \\'content\\': \\'已发货 📦\\'}, {\\'type\\': \\'blob\\', \\'modality\\': \\'image\\'}], \\'finish_reason\\': \\'stop\\'}]'}}]},"
	"  {'traceId': '" TRACE_A "', 'spanId': 'a2', 'parentSpanId': 'a0', 'name': 'execute_tool lookup_order',"
	"   'startTimeUnixNano': '2000', 'status': {'code': 1}, 'attributes': ["
	"    {'key': 'gen_ai.operation.name', 'value': {'stringValue': 'execute_tool'}},"
	"    {'key': 'gen_ai.tool.name', 'value': {'stringValue': 'lookup_order'}},"
	"    {'key': 'gen_ai.tool.call.id', 'value': {'stringValue': 'c1'}},"
	"    {'key': 'gen_ai.tool.call.arguments', 'value': {'stringValue': '{\\'order\\': \\'2087\\'}'}},"
	"    {'key': 'gen_ai.tool.call.result', 'value': {'stringValue': 'shipped'}}]},"
	"  {'traceId': '" TRACE_B "', 'spanId': 'b2', 'name': 'openai.chat',"
	"   'startTimeUnixNano': '2500', 'attributes': ["
	"    {'key': 'gen_ai.prompt.0.role', 'value': {'stringValue': 'system'}},"
	"    {'key': 'gen_ai.prompt.0.content', 'value': {'stringValue': 'Be brief.'}},"
	"    {'key': 'gen_ai.prompt.1.role', 'value': {'stringValue': 'user'}},"
	"    {'key': 'gen_ai.prompt.1.content', 'value': {'stringValue': 'Where is 2087?'}},"
	"    {'key': 'gen_ai.prompt.2.role', 'value': {'stringValue': 'assistant'}},"
	"    {'key': 'gen_ai.prompt.2.tool_calls.0.id', 'value': {'stringValue': 'call_9'}},"
	"    {'key': 'gen_ai.prompt.2.tool_calls.0.name', 'value': {'stringValue': 'lookup_order'}},"
	"    {'key': 'gen_ai.prompt.2.tool_calls.0.arguments', 'value': {'stringValue': '{\\'order\\': 2087}'}},"
	"    {'key': 'gen_ai.prompt.3.role', 'value': {'stringValue': 'tool'}},"
	"    {'key': 'gen_ai.prompt.3.tool_call_id', 'value': {'stringValue': 'call_9'}},"
	"    {'key': 'gen_ai.prompt.3.content', 'value': {'stringValue': 'shipped'}},"
	"    {'key': 'gen_ai.completion.0.role', 'value': {'stringValue': 'assistant'}},"
	"    {'key': 'gen_ai.completion.0.content', 'value': {'stringValue': 'Shipped.'}}]}]}]}]}\n";

static void test_otlp_jsonl(void **state)
{
	(void)state;
	struct loaded l;
	load_all(&l, write_fixture("traces.jsonl", jsonl_batches));
	/* one run per trace, in the order the traces first appear */
	assert_int_equal(l.n, 2);
	struct run *a = l.runs[0];
	assert_string_equal(a->id, TRACE_A);
	assert_string_equal(a->model, "gpt-4o-2024-08-06");
	/* system, user, the call, the answer: the second span's history and
	 * the tool's result it repeats are not shown twice */
	assert_int_equal(a->nmsgs, 4);
	assert_int_equal(a->msgs[0].role, ROLE_SYSTEM);
	assert_string_equal(a->msgs[0].text, "You track orders.");
	assert_int_equal(a->msgs[1].role, ROLE_USER);
	assert_string_equal(run_first_user_text(a), "注文 2087 はどこ？");
	assert_int_equal(a->msgs[2].role, ROLE_ASSISTANT);
	assert_string_equal(a->msgs[2].text, "Looking.");
	assert_int_equal(a->msgs[2].ncalls, 1);
	assert_int_equal(a->ncalls, 1);
	struct run_call *c = &a->calls[0];
	assert_string_equal(c->id, "c1");
	assert_string_equal(c->name, "lookup_order");
	assert_string_equal(args_text(a, c), "{\"order\":\"2087\"}");
	assert_int_equal(c->state, CALL_COMPLETED);
	assert_string_equal(result_text(a, c), "shipped");
	/* the blob part is kept as a note after the text */
	struct run_msg *last = &a->msgs[3];
	assert_string_equal(last->text, "已发货 📦");
	assert_int_equal(last->nparts, 2);
	assert_int_equal(a->parts[last->first_part + 1].kind, PART_NOTE);
	assert_string_equal(a->parts[last->first_part + 1].text, "part type \"blob\" (not read)");
	assert_int_equal(a->nnotes, 1);
	assert_string_equal(run_final_agent_text(a), "已发货 📦");
	/* the gathered run is the list of its three spans */
	assert_true(jv_is_array(a->doc, run_root(a)));
	assert_int_equal(jv_len(a->doc, run_root(a)), 3);

	struct run *b = l.runs[1];
	assert_string_equal(b->id, TRACE_B);
	assert_string_equal(b->model, "gpt-4o-mini");
	assert_int_equal(b->nmsgs, 5);
	assert_string_equal(b->msgs[0].text, "Be brief.");
	assert_string_equal(b->msgs[1].text, "Where is 2087?");
	assert_int_equal(b->ncalls, 1);
	assert_string_equal(b->calls[0].id, "call_9");
	assert_string_equal(args_text(b, &b->calls[0]), "{\"order\":2087}");
	assert_true(b->msgs[3].is_tool_output);
	assert_false(b->msgs[3].unmatched_result);
	assert_string_equal(result_text(b, &b->calls[0]), "shipped");
	assert_string_equal(b->msgs[4].text, "Shipped.");
	assert_int_equal(fmt_count_unmatched(b), 0);
	free_all(&l);
}

/* ---- OTLP JSON: OpenInference's flattened attributes ------------------------ */

static const char *const otlp_openinference =
	"{'resourceSpans': [{'scopeSpans': [{'spans': [\n"
	" {'traceId': 'W47/95gDgQPSabYzgT/GDA==', 'spanId': 'AAAAAAAAAAE=', 'name': 'ChatCompletion',"
	"  'startTimeUnixNano': '10', 'attributes': ["
	"   {'key': 'openinference.span.kind', 'value': {'stringValue': 'LLM'}},"
	"   {'key': 'llm.model_name', 'value': {'stringValue': 'claude-sonnet-4'}},"
	"   {'key': 'llm.input_messages.1.message.role', 'value': {'stringValue': 'critic'}},"
	"   {'key': 'llm.input_messages.1.message.content', 'value': {'stringValue': 'hm'}},"
	"   {'key': 'llm.input_messages.0.message.role', 'value': {'stringValue': 'user'}},"
	"   {'key': 'llm.input_messages.0.message.contents.0.message_content.type', 'value': {'stringValue': 'text'}},"
	"   {'key': 'llm.input_messages.0.message.contents.0.message_content.text', 'value': {'stringValue': 'Stock of 7?'}},"
	"   {'key': 'llm.input_messages.0.message.contents.1.message_content.type', 'value': {'stringValue': 'image'}},"
	"   {'key': 'llm.output_messages.0.message.role', 'value': {'stringValue': 'assistant'}},"
	"   {'key': 'llm.output_messages.0.message.tool_calls.1.tool_call.function.name', 'value': {'stringValue': 'price'}},"
	"   {'key': 'llm.output_messages.0.message.tool_calls.0.tool_call.id', 'value': {'stringValue': 't1'}},"
	"   {'key': 'llm.output_messages.0.message.tool_calls.0.tool_call.function.name', 'value': {'stringValue': 'stock'}},"
	"   {'key': 'llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments', 'value': {'stringValue': '{\\'sku\\': 7}'}},"
	"   {'key': 'llm.output_messages.0.message.tool_calls.1.tool_call.id', 'value': {'stringValue': 't2'}}]},\n"
	" {'traceId': 'W47/95gDgQPSabYzgT/GDA==', 'spanId': 'AAAAAAAAAAI=', 'name': 'stock',"
	"  'startTimeUnixNano': '20', 'status': {'code': 'STATUS_CODE_ERROR', 'message': 'db down'}, 'attributes': ["
	"   {'key': 'openinference.span.kind', 'value': {'stringValue': 'TOOL'}},"
	"   {'key': 'tool.name', 'value': {'stringValue': 'stock'}},"
	"   {'key': 'input.value', 'value': {'stringValue': '{\\'sku\\': 7}'}}]},\n"
	" {'traceId': 'W47/95gDgQPSabYzgT/GDA==', 'spanId': 'AAAAAAAAAAM=', 'name': 'ChatCompletion',"
	"  'startTimeUnixNano': '30', 'attributes': ["
	"   {'key': 'openinference.span.kind', 'value': {'stringValue': 'LLM'}},"
	"   {'key': 'llm.input_messages.0.message.role', 'value': {'stringValue': 'user'}},"
	"   {'key': 'llm.input_messages.0.message.contents.0.message_content.type', 'value': {'stringValue': 'text'}},"
	"   {'key': 'llm.input_messages.0.message.contents.0.message_content.text', 'value': {'stringValue': 'Stock of 7?'}},"
	"   {'key': 'llm.input_messages.0.message.contents.1.message_content.type', 'value': {'stringValue': 'image'}},"
	"   {'key': 'llm.input_messages.1.message.role', 'value': {'stringValue': 'critic'}},"
	"   {'key': 'llm.input_messages.1.message.content', 'value': {'stringValue': 'hm'}},"
	"   {'key': 'llm.input_messages.2.message.role', 'value': {'stringValue': 'tool'}},"
	"   {'key': 'llm.input_messages.2.message.tool_call_id', 'value': {'stringValue': 't2'}},"
	"   {'key': 'llm.input_messages.2.message.content', 'value': {'stringValue': '9.99'}},"
	"   {'key': 'llm.output_messages.0.message.role', 'value': {'stringValue': 'assistant'}},"
	"   {'key': 'llm.output_messages.0.message.content', 'value': {'stringValue': 'No stock data.'}}]}]}]}]}\n";

static void test_otlp_openinference(void **state)
{
	(void)state;
	struct loaded l;
	load_all(&l, write_fixture("trace.json", otlp_openinference));
	assert_int_equal(l.n, 1);
	struct run *r = l.runs[0];
	/* base64 ids as the export has them */
	assert_string_equal(r->id, "W47/95gDgQPSabYzgT/GDA==");
	assert_string_equal(r->model, "claude-sonnet-4");
	/* user (text, image note), the critic as a note, the calls, the
	 * price result, the answer */
	assert_int_equal(r->nmsgs, 5);
	assert_int_equal(r->msgs[0].role, ROLE_USER);
	assert_string_equal(r->msgs[0].text, "Stock of 7?");
	assert_int_equal(r->msgs[0].nparts, 2);
	assert_string_equal(r->parts[r->msgs[0].first_part + 1].text,
	                    "content type \"image\" (not read)");
	assert_int_equal(r->msgs[1].role, ROLE_NOTE);
	assert_string_equal(r->parts[r->msgs[1].first_part].text, "role \"critic\" (not read)");
	assert_int_equal(r->nnotes, 2);
	/* calls in their index order though written out of it */
	assert_int_equal(r->ncalls, 2);
	assert_string_equal(r->calls[0].name, "stock");
	assert_string_equal(r->calls[0].id, "t1");
	assert_string_equal(args_text(r, &r->calls[0]), "{\"sku\":7}");
	assert_string_equal(r->calls[1].name, "price");
	/* the tool span names no id: it answers the unanswered call of its name,
	 * and its error status fails it */
	assert_int_equal(r->calls[0].state, CALL_FAILED);
	assert_string_equal(r->calls[0].error_text, "db down");
	assert_int_equal(r->calls[1].state, CALL_COMPLETED);
	assert_string_equal(result_text(r, &r->calls[1]), "9.99");
	assert_true(r->msgs[3].is_tool_output);
	assert_string_equal(r->msgs[4].text, "No stock data.");
	free_all(&l);
}

/* ---- an AI SDK span list (ReadableSpan, hrtime, ai.* attributes) ------------ */

static const char *const aisdk_spans =
	"[{'name': 'ai.generateText', 'spanContext': {'traceId': 'aa01', 'spanId': 's0'},"
	"  'startTime': [1, 0], 'attributes': {'ai.operationId': 'ai.generateText',"
	"   'ai.prompt': '{\\'prompt\\': \\'Weather in Paris?\\'}', 'ai.response.text': 'It rains.'}},\n"
	" {'name': 'ai.embed', 'spanContext': {'traceId': 'bb02', 'spanId': 'e0'},"
	"  'startTime': [1, 5], 'attributes': {'ai.operationId': 'ai.embed', 'ai.value': 'x'}},\n"
	" {'name': 'ai.generateText.doGenerate', 'spanContext': {'traceId': 'aa01', 'spanId': 's3'},"
	"  'startTime': [3, 0], 'attributes': {'ai.operationId': 'ai.generateText.doGenerate',"
	"   'ai.model.id': 'gpt-4o-mini', 'ai.response.model': 'gpt-4o-mini-2024-07-18',"
	"   'ai.prompt.messages': '[{\\'role\\': \\'user\\', \\'content\\': [{\\'type\\': \\'text\\', \\'text\\': \\'Weather in Paris?\\'}]},"
	"     {\\'role\\': \\'assistant\\', \\'content\\': [{\\'type\\': \\'tool-call\\', \\'toolCallId\\': \\'w1\\', \\'toolName\\': \\'weather\\', \\'input\\': {\\'city\\': \\'Paris\\'}}]},"
	"     {\\'role\\': \\'tool\\', \\'content\\': [{\\'type\\': \\'tool-result\\', \\'toolCallId\\': \\'w1\\', \\'toolName\\': \\'weather\\', \\'output\\': {\\'type\\': \\'text\\', \\'value\\': \\'rain\\'}}]}]',"
	"   'ai.response.text': 'It rains.'}},\n"
	" {'name': 'ai.generateText.doGenerate', 'spanContext': {'traceId': 'aa01', 'spanId': 's1'},"
	"  'startTime': [1, 500], 'attributes': {'ai.operationId': 'ai.generateText.doGenerate',"
	"   'ai.response.model': 'gpt-4o-mini-2024-07-18',"
	"   'ai.prompt.messages': '[{\\'role\\': \\'user\\', \\'content\\': [{\\'type\\': \\'text\\', \\'text\\': \\'Weather in Paris?\\'}]}]',"
	"   'ai.response.toolCalls': '[{\\'toolCallId\\': \\'w1\\', \\'toolName\\': \\'weather\\', \\'input\\': \\'{\\\\\\'city\\\\\\':\\\\\\'Paris\\\\\\'}\\'}]'}},\n"
	" {'name': 'ai.toolCall', 'spanContext': {'traceId': 'aa01', 'spanId': 's2'},"
	"  'startTime': [2, 0], 'attributes': {'ai.operationId': 'ai.toolCall', 'ai.toolCall.name': 'weather',"
	"   'ai.toolCall.id': 'w1', 'ai.toolCall.args': '{\\'city\\': \\'Paris\\'}', 'ai.toolCall.result': 'rain'}}]\n";

static void test_aisdk_spans(void **state)
{
	(void)state;
	struct loaded l;
	load_all(&l, write_fixture("spans.json", aisdk_spans));
	assert_int_equal(l.n, 2);
	struct run *r = l.runs[0];
	assert_string_equal(r->id, "aa01");
	assert_string_equal(r->model, "gpt-4o-mini-2024-07-18");
	/* the model calls tell it; the generateText span around them is not
	 * read again */
	assert_int_equal(r->nmsgs, 3);
	assert_string_equal(r->msgs[0].text, "Weather in Paris?");
	assert_int_equal(r->ncalls, 1);
	assert_string_equal(r->calls[0].name, "weather");
	assert_string_equal(args_text(r, &r->calls[0]), "{\"city\":\"Paris\"}");
	assert_string_equal(result_text(r, &r->calls[0]), "rain");
	assert_string_equal(r->msgs[2].text, "It rains.");
	assert_int_equal(fmt_count_unmatched(r), 0);
	/* a trace of no conversation says so */
	struct run *e = l.runs[1];
	assert_string_equal(e->id, "bb02");
	assert_int_equal(e->nmsgs, 1);
	assert_int_equal(e->msgs[0].role, ROLE_NOTE);
	assert_string_equal(e->parts[0].text, "1 span with no GenAI messages (first: ai.embed)");
	free_all(&l);
}

/* ---- JSONL of single spans (the Python SDK's to_json, one a line) --------- */

static const char *const python_spans =
	"{'name': 'execute_tool refund', 'context': {'trace_id': '0xc0ffee', 'span_id': '0x2'},"
	" 'start_time': '2025-05-01T10:00:02.000000Z', 'status': {'status_code': 'ERROR', 'description': 'refused'},"
	" 'attributes': {'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'refund',"
	"  'gen_ai.tool.call.id': 'r1', 'gen_ai.tool.call.arguments': '{\\'order\\': 2087}'}}\n"
	"{'name': 'chat', 'context': {'trace_id': '0xbeef', 'span_id': '0x9'},"
	" 'start_time': '2025-05-01T09:00:00.000000Z', 'attributes': {'gen_ai.operation.name': 'chat',"
	"  'gen_ai.output.messages': '[{\\'role\\': \\'assistant\\', \\'parts\\': [{\\'type\\': \\'text\\', \\'content\\': \\'other\\'}]}]'}}\n"
	"{'name': 'chat', 'context': {'trace_id': '0xc0ffee', 'span_id': '0x1'},"
	" 'start_time': '2025-05-01T10:00:01.000000Z', 'attributes': {'gen_ai.operation.name': 'chat',"
	"  'gen_ai.request.model': 'o3',"
	"  'gen_ai.input.messages': '[{\\'role\\': \\'user\\', \\'parts\\': [{\\'type\\': \\'text\\', \\'content\\': \\'Refund 2087\\'}]}]',"
	"  'gen_ai.output.messages': '[{\\'role\\': \\'assistant\\', \\'parts\\': [{\\'type\\': \\'reasoning\\', \\'content\\': \\'policy allows\\'},"
	"    {\\'type\\': \\'tool_call\\', \\'id\\': \\'r1\\', \\'name\\': \\'refund\\', \\'arguments\\': {\\'order\\': 2087}}]}]'}}\n";

static void test_span_lines(void **state)
{
	(void)state;
	struct loaded l;
	load_all(&l, write_fixture("spans.jsonl", python_spans));
	/* the file's lines are spans of two traces, not three runs */
	assert_int_equal(l.n, 2);
	struct run *r = l.runs[0];
	assert_string_equal(r->id, "0xc0ffee");
	assert_string_equal(r->model, "o3");
	assert_int_equal(r->nmsgs, 2);
	/* the chat span started first although its line comes last */
	assert_string_equal(r->msgs[0].text, "Refund 2087");
	struct run_msg *m = &r->msgs[1];
	assert_int_equal(m->nparts, 2);
	assert_int_equal(r->parts[m->first_part].kind, PART_THINKING);
	assert_string_equal(r->parts[m->first_part].text, "policy allows");
	assert_int_equal(r->parts[m->first_part + 1].kind, PART_CALL);
	assert_int_equal(r->ncalls, 1);
	assert_int_equal(r->calls[0].state, CALL_FAILED);
	assert_string_equal(r->calls[0].error_text, "refused");
	assert_string_equal(l.runs[1]->id, "0xbeef");
	assert_string_equal(run_final_agent_text(l.runs[1]), "other");
	free_all(&l);
}

/* A line cut off as it was written is a run of its own that says so; the
 * traces around it are read. */
static void test_broken_line(void **state)
{
	(void)state;
	char *path = write_fixture("cut.jsonl", "{'resourceSpans': [{'scopeSpans': [{'spans': ["
	                                        "{'traceId': 't1', 'spanId': 's1', 'name': 'x', 'attributes': {}}]}]}]}\n"
	                                        "{'resourceSpans': [{'scopeSp\n");
	struct dataset ds;
	struct error err = {0};
	char *paths[] = { path };
	assert_int_equal(dataset_open(&ds, paths, 1, &err), 0);
	dataset_index_all(&ds);
	assert_int_equal(ds.nrecs, 2);
	struct run *ok = dataset_load_run(&ds, &ds.recs[0], NULL, NULL, &err);
	struct run *cut = dataset_load_run(&ds, &ds.recs[1], NULL, NULL, &err);
	assert_null(ok->load_error);
	assert_string_equal(ok->id, "t1");
	assert_string_equal(cut->load_error, "a line that is not JSON, or null");
	assert_true(loader_ends_with(cut->source, "cut.jsonl[1]"));
	run_free(ok);
	run_free(cut);
	dataset_close(&ds);
	free(path);
}

/* ---- Phoenix: OpenInference attributes unflattened ---------------------------- */

static const char *const phoenix_spans =
	"[{'name': 'ChatCompletion', 'context': {'trace_id': 'ph1', 'span_id': '1'}, 'span_kind': 'LLM',"
	"  'start_time': '2025-01-01T00:00:00Z', 'status_code': 'OK', 'attributes': {"
	"  'openinference': {'span': {'kind': 'LLM'}}, 'llm': {'model_name': 'gpt-4o',"
	"   'input_messages': [{'message': {'role': 'user', 'contents': [{'message_content': {'type': 'text', 'text': 'Stock?'}}]}}],"
	"   'output_messages': [{'message': {'role': 'assistant', 'tool_calls': [{'tool_call': {'id': 'k1',"
	"     'function': {'name': 'stock', 'arguments': '{\\'sku\\': 1}'}}}]}}]}}},\n"
	" {'name': 'stock', 'context': {'trace_id': 'ph1', 'span_id': '2'}, 'span_kind': 'TOOL',"
	"  'start_time': '2025-01-01T00:00:01Z', 'status_code': 'ERROR',"
	"  'events': [{'name': 'exception', 'attributes': {'exception.message': 'timeout'}}],"
	"  'attributes': {'openinference': {'span': {'kind': 'TOOL'}}, 'tool': {'name': 'stock'},"
	"   'input': {'value': '{\\'sku\\': 1}'}}}]\n";

static void test_phoenix(void **state)
{
	(void)state;
	struct loaded l;
	load_all(&l, write_fixture("phoenix.json", phoenix_spans));
	assert_int_equal(l.n, 1);
	struct run *r = l.runs[0];
	assert_string_equal(r->id, "ph1");
	assert_string_equal(r->model, "gpt-4o");
	assert_int_equal(r->nmsgs, 2);
	assert_string_equal(r->msgs[0].text, "Stock?");
	assert_int_equal(r->ncalls, 1);
	assert_string_equal(r->calls[0].id, "k1");
	assert_string_equal(args_text(r, &r->calls[0]), "{\"sku\":1}");
	/* the failure's text is the exception event's */
	assert_int_equal(r->calls[0].state, CALL_FAILED);
	assert_string_equal(r->calls[0].error_text, "timeout");
	free_all(&l);
}

/* ---- span events (Azure AI Inference, Semantic Kernel, OpenLIT) ------------- */

static const char *const event_spans =
	"[{'traceId': 'ev1', 'spanId': '1', 'name': 'chat', 'startTimeUnixNano': '1', 'attributes': ["
	"   {'key': 'gen_ai.operation.name', 'value': {'stringValue': 'chat'}}], 'events': ["
	"   {'name': 'gen_ai.system.message', 'attributes': [{'key': 'gen_ai.event.content',"
	"    'value': {'stringValue': '{\\'content\\': \\'Be kind.\\'}'}}]},"
	"   {'name': 'gen_ai.user.message', 'attributes': [{'key': 'gen_ai.event.content',"
	"    'value': {'stringValue': '{\\'role\\': \\'user\\', \\'content\\': \\'Track 2087\\'}'}}]},"
	"   {'name': 'gen_ai.choice', 'attributes': [{'key': 'gen_ai.event.content',"
	"    'value': {'stringValue': '{\\'finish_reason\\': \\'tool_calls\\', \\'message\\': {\\'tool_calls\\': [{\\'id\\': \\'e1\\',"
	"     \\'type\\': \\'function\\', \\'function\\': {\\'name\\': \\'track\\', \\'arguments\\': \\'{}\\'}}]}}'}}]}]},\n"
	" {'traceId': 'ev1', 'spanId': '2', 'name': 'chat', 'startTimeUnixNano': '2', 'attributes': [], 'events': ["
	"   {'name': 'gen_ai.tool.message', 'attributes': [{'key': 'gen_ai.event.content',"
	"    'value': {'stringValue': '{\\'content\\': \\'in transit\\', \\'id\\': \\'e1\\'}'}}]},"
	"   {'name': 'gen_ai.content.completion', 'attributes': [{'key': 'gen_ai.completion',"
	"    'value': {'stringValue': 'On its way.'}}]}]}]\n";

static void test_events(void **state)
{
	(void)state;
	struct loaded l;
	load_all(&l, write_fixture("events.json", event_spans));
	assert_int_equal(l.n, 1);
	struct run *r = l.runs[0];
	assert_int_equal(r->nmsgs, 5);
	assert_int_equal(r->msgs[0].role, ROLE_SYSTEM);
	assert_string_equal(r->msgs[0].text, "Be kind.");
	assert_string_equal(r->msgs[1].text, "Track 2087");
	assert_int_equal(r->ncalls, 1);
	assert_string_equal(r->calls[0].name, "track");
	assert_string_equal(result_text(r, &r->calls[0]), "in transit");
	assert_string_equal(run_final_agent_text(r), "On its way.");
	free_all(&l);
}

/* ---- flat attribute maps and single records ---------------------------------- */

static const char *const flat_tool =
	"{'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'get_weather',"
	" 'gen_ai.tool.call.id': '1234', 'input': '{\\'city\\': \\'Oslo\\'}', 'output': 'snow'}";

static const char *const flat_io =
	"{'gen_ai.request.model': 'gpt-4', 'gen_ai.operation.name': 'chat',"
	" 'input': '{\\'messages\\': [{\\'role\\': \\'user\\', \\'parts\\': [{\\'type\\': \\'text\\', \\'content\\': \\'hi\\'}]}]}',"
	" 'output': '{\\'text\\': \\'hello\\', \\'finish_reason\\': \\'stop\\'}'}";

static void test_flat_maps(void **state)
{
	(void)state;
	struct run *r = fmt_load(flat_tool, OTEL);
	/* no model span asked: the tool span is the call */
	assert_int_equal(r->nmsgs, 1);
	assert_int_equal(r->ncalls, 1);
	assert_string_equal(r->calls[0].id, "1234");
	assert_string_equal(r->calls[0].name, "get_weather");
	assert_string_equal(args_text(r, &r->calls[0]), "{\"city\":\"Oslo\"}");
	assert_string_equal(result_text(r, &r->calls[0]), "snow");
	run_free(r);
	/* pydantic-ai's running-tool span, as Logfire shows its attributes */
	r = fmt_load("{'gen_ai.tool.name': 'stock', 'gen_ai.tool.call.id': 'p1',"
	             " 'tool_arguments': '{\\'sku\\': 1}', 'tool_response': '3 left'}", OTEL);
	assert_int_equal(r->ncalls, 1);
	assert_string_equal(args_text(r, &r->calls[0]), "{\"sku\":1}");
	assert_string_equal(result_text(r, &r->calls[0]), "3 left");
	run_free(r);
	r = fmt_load(flat_io, OTEL);
	assert_int_equal(r->nmsgs, 2);
	assert_string_equal(r->msgs[0].text, "hi");
	assert_string_equal(r->msgs[1].text, "hello");
	assert_string_equal(r->model, "gpt-4");
	run_free(r);
}

/* A model span that gives its call no id, and the tool span that ran it
 * and gives one: one call, answered. */
static void test_tool_span_by_name(void **state)
{
	(void)state;
	struct run *r = fmt_load("[{'traceId': 'n1', 'spanId': '1', 'name': 'chat', 'startTimeUnixNano': '1',"
	                         "  'attributes': {'gen_ai.prompt.0.role': 'user', 'gen_ai.prompt.0.content': 'q',"
	                         "   'gen_ai.completion.0.role': 'assistant',"
	                         "   'gen_ai.completion.0.tool_calls.0.name': 'search'}},"
	                         " {'traceId': 'n1', 'spanId': '2', 'name': 'execute_tool', 'startTimeUnixNano': '2',"
	                         "  'attributes': {'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'search',"
	                         "   'gen_ai.tool.call.id': 'x9', 'gen_ai.tool.call.result': 'found'}}]", OTEL);
	assert_int_equal(r->ncalls, 1);
	assert_null(r->calls[0].id);
	assert_string_equal(result_text(r, &r->calls[0]), "found");
	assert_string_equal(r->id, "n1");
	run_free(r);
}

static void test_detect(void **state)
{
	(void)state;
	assert_int_equal(fmt_score(OTEL, "{'resourceSpans': []}"), 85);
	assert_int_equal(fmt_score(OTEL, "[{'resourceSpans': []}]"), 85);
	assert_int_equal(fmt_score(OTEL, "[null, {'traceId': 't', 'spanId': 's', 'name': 'x'}]"), 80);
	assert_int_equal(fmt_score(OTEL, "{'traceId': 't', 'spanId': 's', 'name': 'x'}"), 75);
	assert_int_equal(fmt_score(OTEL, flat_tool), 50);
	assert_int_equal(fmt_score(OTEL, "{'llm.input_messages.0.message.role': 'user'}"), 50);
	/* a span needs its ids; a map needs a GenAI attribute */
	assert_int_equal(fmt_score(OTEL, "{'name': 'x', 'attributes': {}}"), 0);
	/* other tools' span records that borrow the ids */
	assert_int_equal(fmt_score(OTEL, "{'traceId': 't', 'spanId': 's', 'name': 'x', 'spanType': 'agent_run'}"), 0);
	assert_int_equal(fmt_score(OTEL, "[{'traceId': 't', 'spanId': 's', 'name': 'x', 'type': 'GENERATION'}]"), 0);
	assert_int_equal(fmt_score(OTEL, "{'input': 'x', 'output': 'y'}"), 0);
	assert_int_equal(fmt_score(OTEL, "[{'role': 'user', 'content': 'x'}]"), 0);
	assert_int_equal(fmt_score(OTEL, "[]"), 0);
}

static void test_errors(void **state)
{
	(void)state;
	static const struct fmt_error_case cases[] = {
		{ "'x'", "not an OpenTelemetry span, list of spans or OTLP export" },
		{ "[1]", "[0]: not an object" },
		{ "null", "a line that is not JSON, or null" },
		{ "{'resourceSpans': [{'scopeSpans': {}}]}", "resourceSpans[0].scopeSpans: not an array" },
		{ "{'resourceSpans': [{'scopeSpans': [{'spans': 3}]}]}",
		  "resourceSpans[0].scopeSpans[0].spans: not an array" },
		{ "[{'traceId': 't', 'spanId': 's', 'attributes': 5}]", "[0].attributes: not an object or a list" },
		{ NULL, NULL },
	};
	fmt_expect_errors(OTEL, cases);
	/* an attribute that should be JSON and is not is a note, not an error */
	struct run *r = fmt_load("{'gen_ai.input.messages': '[{oops', 'gen_ai.output.messages': '[]'}", OTEL);
	assert_int_equal(r->nmsgs, 1);
	assert_int_equal(r->msgs[0].role, ROLE_NOTE);
	assert_string_equal(r->parts[0].text, "gen_ai.input.messages: not a JSON list of messages");
	run_free(r);
	r = fmt_load("{'gen_ai.input.messages': '[{\\'parts\\': [{\\'type\\': \\'text\\', \\'content\\': \\'x\\'}]}]'}", OTEL);
	assert_int_equal(r->nmsgs, 1);
	assert_int_equal(r->msgs[0].role, ROLE_NOTE);
	assert_string_equal(r->parts[0].text, "a message without a role (not read)");
	run_free(r);
}

static void test_samples(void **state)
{
	(void)state;
	assert_int_equal(fmt_check_samples(OTEL), 2);
}

/* ---- the shared wild samples, read in place ----------------------------------- */

static void test_wild(void **state)
{
	(void)state;
	static const struct {
		const char *file;
		size_t runs, calls;
	} wild[] = {
		{ "otel-openinference-spans/openinference_client_span_tool_calls.json", 1, 1 },
		{ "otel-openinference-spans/otel_genai_client_span_tool_calls.json", 1, 1 },
		{ "otel-openinference-spans/otel_genai_tool_execution_span.json", 1, 1 },
		{ "otel-openinference-spans/vercel-ai-v6-all-spans.json", 10, 0 },
	};
	for (size_t i = 0; i < sizeof wild / sizeof wild[0]; i++) {
		struct dataset ds;
		struct run *r = fmt_wild_run(&ds, wild[i].file, OTEL, wild[i].runs, wild[i].calls);
		if (!r) {
			skip();
			return;
		}
		if (i < 2) {
			/* the call in the input history, joined to its result */
			assert_string_equal(r->calls[0].id, "1234");
			assert_string_equal(r->calls[0].name, "get_weather");
			assert_int_equal(r->calls[0].state, CALL_COMPLETED);
			assert_string_equal(result_text(r, &r->calls[0]), "rainy, 57°F");
			assert_string_equal(run_final_agent_text(r),
			                    "The weather in Paris is currently rainy with a temperature of 57°F.");
			assert_string_equal(r->model, "gpt-4-0613");
		} else if (i == 2) {
			assert_string_equal(r->calls[0].name, "get_weather");
			assert_int_equal(r->calls[0].state, CALL_COMPLETED);
		} else {
			/* every run: one trace, messages, no calls */
			struct error err = {0};
			for (size_t k = 0; k < ds.nrecs; k++) {
				struct run *o = dataset_load_run(&ds, &ds.recs[k], NULL, NULL, &err);
				assert_non_null(o);
				assert_null(o->load_error);
				assert_int_equal(o->ncalls, 0);
				assert_true(o->nmsgs > 0);
				assert_int_equal(strlen(o->id), 32);
				run_free(o);
			}
			assert_string_equal(r->id, "b3e700af9eab81e19f72f964d62a35af");
			assert_string_equal(run_first_user_text(r), "Write a haiku about programming.");
		}
		run_free(r);
		dataset_close(&ds);
	}
}

static void test_wild_claims(void **state)
{
	(void)state;
	fmt_check_wild(OTEL, "otel-openinference-spans");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_otlp_jsonl),
		cmocka_unit_test(test_otlp_openinference),
		cmocka_unit_test(test_aisdk_spans),
		cmocka_unit_test(test_span_lines),
		cmocka_unit_test(test_broken_line),
		cmocka_unit_test(test_phoenix),
		cmocka_unit_test(test_events),
		cmocka_unit_test(test_flat_maps),
		cmocka_unit_test(test_tool_span_by_name),
		cmocka_unit_test(test_detect),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_samples),
		cmocka_unit_test(test_wild),
		cmocka_unit_test(test_wild_claims),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
