/* test_fmt_aisdk_stream.c - the AI SDK UI-message stream loader. */
#include "fmt_test.h"
#include "fmt_wild.h"
#include "util/error.h"

#define STREAM "ai-sdk-ui-stream"

/* One answer: thinking, a sentence, a call streamed in pieces, its output
 * in the next step, and the summary after it. */
static const char *const answer_json =
	"[{'type': 'start', 'messageId': 'msg-1'},"
	" {'type': 'start-step'},"
	" {'type': 'reasoning-start', 'id': 'r1'},"
	" {'type': 'reasoning-delta', 'id': 'r1', 'delta': '注文を'},"
	" {'type': 'reasoning-delta', 'id': 'r1', 'delta': '調べる'},"
	" {'type': 'reasoning-end', 'id': 'r1'},"
	" {'type': 'text-start', 'id': 't1'},"
	" {'type': 'text-delta', 'id': 't1', 'delta': '調べ'},"
	" {'type': 'text-delta', 'id': 't1', 'delta': 'ます。'},"
	" {'type': 'text-end', 'id': 't1'},"
	" {'type': 'tool-input-start', 'toolCallId': 'c1', 'toolName': 'lookup_order'},"
	" {'type': 'tool-input-delta', 'toolCallId': 'c1', 'inputTextDelta': '{\\'order\\''},"
	" {'type': 'tool-input-delta', 'toolCallId': 'c1', 'inputTextDelta': ':\\'2087\\'}'},"
	" {'type': 'tool-input-available', 'toolCallId': 'c1', 'toolName': 'lookup_order',"
	"  'input': {'order': '2087'}},"
	" {'type': 'finish-step'},"
	" {'type': 'start-step'},"
	" {'type': 'tool-output-available', 'toolCallId': 'c1', 'output': {'status': 'shipped'}},"
	" {'type': 'finish-step'},"
	" {'type': 'start-step'},"
	" {'type': 'text-start', 'id': 't2'},"
	" {'type': 'text-delta', 'id': 't2', 'delta': '已发货 📦'},"
	" {'type': 'text-end', 'id': 't2'},"
	" {'type': 'finish-step'},"
	" {'type': 'finish', 'finishReason': 'stop'}]";

static void test_detect(void **state)
{
	(void)state;
	assert_int_equal(fmt_score(STREAM, answer_json), 70);
	/* A JSONL file's lines are asked about one at a time. */
	assert_int_equal(fmt_score(STREAM, "{'type': 'start', 'messageId': 'm'}"), 60);
	assert_int_equal(fmt_score(STREAM, "{'type': 'text-delta', 'id': 't', 'delta': 'x'}"), 60);
	/* Not a chunk: a Claude Code line, a Codex line, UI message parts. */
	assert_int_equal(fmt_score(STREAM, "{'type': 'user', 'message': {}, 'uuid': 'u'}"), 0);
	assert_int_equal(fmt_score(STREAM, "{'type': 'start', 'timestamp': 't', 'payload': {}}"), 0);
	assert_int_equal(fmt_score(STREAM, "[{'type': 'text', 'text': 'x'}]"), 0);
	assert_int_equal(fmt_score(STREAM, "[{'type': 'start'}, 3]"), 0);
	assert_int_equal(fmt_score(STREAM, "[{'type': 'start'}, {'role': 'user', 'type': 'x'}]"), 0);
	assert_int_equal(fmt_score(STREAM, "[]"), 0);
	/* nulls (lines that were not JSON) do not rule a stream out */
	assert_int_equal(fmt_score(STREAM, "[{'type': 'start'}, null]"), 70);
	assert_int_equal(fmt_check_samples(STREAM), 1);
	const struct format_ops *f = format_find(STREAM);
	assert_int_equal(f->unit, UNIT_FILE);
}

static void test_parts_in_order(void **state)
{
	(void)state;
	struct run *r = fmt_load(answer_json, STREAM);
	assert_int_equal(r->nmsgs, 1);
	struct run_msg *m = &r->msgs[0];
	assert_int_equal(m->role, ROLE_ASSISTANT);
	assert_int_equal(m->nparts, 4);
	struct run_part *p = &r->parts[m->first_part];
	assert_int_equal(p[0].kind, PART_THINKING);
	assert_string_equal(p[0].text, "注文を調べる");
	assert_int_equal(p[1].kind, PART_TEXT);
	assert_string_equal(p[1].text, "調べます。");
	assert_int_equal(p[2].kind, PART_CALL);
	assert_int_equal(p[2].call, 0);
	assert_int_equal(p[3].kind, PART_TEXT);
	assert_string_equal(p[3].text, "已发货 📦");
	/* the text scorers read is the text parts, not the thinking */
	assert_string_equal(m->text, "調べます。\n已发货 📦");
	/* one answer: its whole text is the final one */
	assert_string_equal(run_final_agent_text(r), m->text);
	/* the message is its start chunk */
	assert_int_equal(m->raw, jv_at(r->doc, run_root(r), 0));
	assert_int_equal(r->ncalls, 1);
	struct run_call *c = &r->calls[0];
	assert_string_equal(c->id, "c1");
	assert_string_equal(c->name, "lookup_order");
	assert_int_equal(c->state, CALL_COMPLETED);
	assert_string_equal(json_string_value(json_object_get(run_call_args(r, c), "order")), "2087");
	assert_string_equal(json_string_value(json_object_get(run_call_result(r, c), "status")),
	                    "shipped");
	assert_int_equal(run_agent_calls(r, NULL), 1);
	assert_int_equal(r->nnotes, 0);
	run_free(r);
}

/* A call waiting on a human, one cut off mid-input, and the failures. */
static void test_call_states(void **state)
{
	(void)state;
	struct run *r = fmt_load(
		"[{'type': 'start'},"
		" {'type': 'tool-input-start', 'toolCallId': 'a', 'toolName': 'delete_file', 'dynamic': true},"
		" {'type': 'tool-input-available', 'toolCallId': 'a', 'input': {'filename': 'x.pdf'}},"
		" {'type': 'tool-approval-request', 'approvalId': 'ap-1', 'toolCallId': 'a'},"
		" {'type': 'tool-input-available', 'toolCallId': 'b', 'toolName': 'refund', 'input': {}},"
		" {'type': 'tool-output-error', 'toolCallId': 'b', 'errorText': '上游超时'},"
		" {'type': 'tool-input-error', 'toolCallId': 'd', 'toolName': 'lookup', 'input': 'oops',"
		"  'errorText': 'bad input'},"
		" {'type': 'tool-input-available', 'toolCallId': 'e', 'toolName': 'wipe', 'input': {}},"
		" {'type': 'tool-approval-request', 'approvalId': 'e', 'toolCallId': 'e'},"
		" {'type': 'tool-output-denied', 'toolCallId': 'e'},"
		" {'type': 'tool-input-start', 'toolCallId': 'p', 'toolName': 'search'},"
		" {'type': 'tool-input-delta', 'toolCallId': 'p', 'inputTextDelta': '{\\'q\\': \\'tok'},"
		" {'type': 'finish'}]",
		STREAM);
	assert_int_equal(r->nmsgs, 1);
	assert_int_equal(r->ncalls, 5);
	struct run_call *c = r->calls;
	assert_string_equal(c[0].name, "delete_file");
	assert_int_equal(c[0].state, CALL_REQUESTED);
	assert_int_equal(c[1].state, CALL_FAILED);
	assert_string_equal(c[1].error_text, "上游超时");
	assert_int_equal(c[2].state, CALL_FAILED);
	assert_string_equal(c[2].error_text, "bad input");
	assert_int_equal(c[3].state, CALL_FAILED);
	assert_string_equal(c[3].error_text, "denied");
	assert_int_equal(c[4].state, CALL_PARTIAL);
	/* what arrived of its input is kept, as the text it is */
	assert_string_equal(json_string_value(run_call_args(r, &c[4])), "{\"q\": \"tok");
	assert_int_equal(run_agent_calls(r, NULL), 4);
	/* the approvals are notes right after their calls */
	struct run_msg *m = &r->msgs[0];
	assert_int_equal(m->nparts, 7);
	struct run_part *p = &r->parts[m->first_part];
	assert_int_equal(p[0].kind, PART_CALL);
	assert_int_equal(p[1].kind, PART_NOTE);
	assert_string_equal(p[1].text, "awaiting approval (approval ap-1)");
	assert_int_equal(p[4].kind, PART_CALL);
	assert_int_equal(p[4].call, 3);
	assert_int_equal(p[5].kind, PART_NOTE);
	assert_string_equal(p[5].text, "approval requested, then the call failed");
	assert_int_equal(p[6].kind, PART_CALL);
	assert_int_equal(r->nnotes, 2);
	run_free(r);
}

/* What is not text or a call is a note where it came; metadata is not. */
static void test_notes(void **state)
{
	(void)state;
	struct run *r = fmt_load(
		"[{'type': 'start', 'messageMetadata': {'model': 'm'}},"
		" {'type': 'source-url', 'sourceId': 's', 'url': 'https://example.com/a'},"
		" {'type': 'data-weather', 'data': {'t': 20}},"
		" {'type': 'message-metadata', 'messageMetadata': {}},"
		" {'type': 'file', 'url': 'data:,', 'mediaType': 'image/png'},"
		" {'type': 'text-delta', 'id': 't', 'delta': 'half'},"
		" {'type': 'frobnicate', 'x': 1},"
		" null,"
		" {'type': 'error', 'errorText': 'rate limited'},"
		" {'type': 'abort'}]",
		STREAM);
	assert_int_equal(r->nmsgs, 1);
	struct run_msg *m = &r->msgs[0];
	assert_int_equal(m->nparts, 8);
	struct run_part *p = &r->parts[m->first_part];
	assert_string_equal(p[0].text, "source https://example.com/a");
	assert_string_equal(p[1].text, "data part \"data-weather\"");
	assert_string_equal(p[2].text, "file image/png");
	assert_int_equal(p[3].kind, PART_TEXT);
	assert_string_equal(p[3].text, "half");
	assert_string_equal(p[4].text, "chunk type \"frobnicate\" (not read)");
	assert_string_equal(p[5].text, "a line that is not JSON");
	assert_string_equal(p[6].text, "stream error: rate limited");
	assert_string_equal(p[7].text, "stream aborted");
	assert_int_equal(r->nnotes, 7);
	assert_string_equal(m->text, "half");
	run_free(r);

	/* only metadata: still one (empty) answer */
	r = fmt_load("[{'type': 'start'}, {'type': 'finish'}]", STREAM);
	assert_int_equal(r->nmsgs, 1);
	assert_int_equal(r->msgs[0].nparts, 0);
	run_free(r);
}

/* Another messageId is another answer; the same id (or none) goes on. */
static void test_messages(void **state)
{
	(void)state;
	struct run *r = fmt_load(
		"[{'type': 'start', 'messageId': 'a'}, {'type': 'text-delta', 'id': '1', 'delta': 'one'},"
		" {'type': 'start', 'messageId': 'a'}, {'type': 'text-delta', 'id': '2', 'delta': 'two'},"
		" {'type': 'start'}, {'type': 'text-delta', 'id': '3', 'delta': 'three'},"
		" {'type': 'start', 'messageId': 'b'}, {'type': 'text-delta', 'id': '4', 'delta': 'four'}]",
		STREAM);
	assert_int_equal(r->nmsgs, 2);
	assert_string_equal(r->msgs[0].text, "one\ntwo\nthree");
	assert_string_equal(r->msgs[1].text, "four");
	assert_int_equal(r->msgs[1].raw, jv_at(r->doc, run_root(r), 6));
	run_free(r);

	/* an output for a call started in an earlier stream (after an
	 * approval): a tool message answering nothing here */
	r = fmt_load("[{'type': 'start', 'messageId': 'a'},"
	             " {'type': 'tool-output-available', 'toolCallId': 'old', 'output': 'done'},"
	             " {'type': 'text-delta', 'id': '1', 'delta': 'ok'}]",
	             STREAM);
	assert_int_equal(r->nmsgs, 2);
	assert_int_equal(r->msgs[0].role, ROLE_TOOL);
	assert_true(r->msgs[0].unmatched_result);
	assert_string_equal(r->msgs[0].answers_call_id, "old");
	assert_string_equal(r->msgs[0].text, "done");
	assert_int_equal(r->msgs[1].role, ROLE_ASSISTANT);
	assert_string_equal(r->msgs[1].text, "ok");
	assert_int_equal(fmt_count_unmatched(r), 1);
	run_free(r);
}

static void test_malformed(void **state)
{
	(void)state;
	static const struct fmt_error_case cases[] = {
		{ "{'type': 'start'}", "an ai-sdk-ui-stream record must be an array of chunks" },
		{ "[{'type': 'start'}, {'type': 'text-delta', 'id': 't', 'delta': 5}]",
		  "[1].delta: not a string" },
		{ "[{'type': 'text-start', 'id': 7}]", "[0].id: not a string" },
		{ "[{'type': 'start'}, 12]", "[1]: not an object" },
		{ "[{'type': 'tool-input-start', 'toolName': 'x'}]", "[0].toolCallId: missing" },
		{ "[{'type': 'tool-output-available', 'toolCallId': 3}]", "[0].toolCallId: not a string" },
		{ "[{'type': 'tool-input-delta', 'toolCallId': 'a', 'inputTextDelta': []}]",
		  "[0].inputTextDelta: not a string" },
		{ NULL, NULL },
	};
	fmt_expect_errors(STREAM, cases);
}

/* A JSONL file of chunks is one run, read as the array of its lines. */
static void test_jsonl_file(void **state)
{
	(void)state;
	char path[] = "/tmp/tcr-stream-XXXXXX.jsonl";
	int fd = mkstemps(path, 6);
	assert_true(fd >= 0);
	const char *lines =
		"{\"type\":\"start\",\"messageId\":\"m\"}\n"
		"{\"type\":\"text-start\",\"id\":\"t\"}\n"
		"{\"type\":\"text-delta\",\"id\":\"t\",\"delta\":\"hi \"}\n"
		"{\"type\":\"tool-input-available\",\"toolCallId\":\"c\",\"toolName\":\"f\",\"input\":{}}\n"
		"{\"type\":\"text-delta\",\"id\":\"t\",\"delta\":\"there\"}\n"
		"{\"type\":\"text-delta\",\"id\":\"t\",\"del\n"
		"{\"type\":\"finish\"}\n";
	assert_int_equal(write(fd, lines, strlen(lines)), (ssize_t)strlen(lines));
	close(fd);
	struct dataset ds;
	struct error err = {0};
	char *paths[] = { path };
	assert_int_equal(dataset_open(&ds, paths, 1, &err), 0);
	dataset_index_all(&ds);
	assert_int_equal(ds.nrecs, 1);
	struct run *r = dataset_load_run(&ds, &ds.recs[0], NULL, NULL, &err);
	assert_non_null(r);
	assert_null(r->load_error);
	assert_string_equal(r->format, STREAM);
	assert_int_equal(r->ncalls, 1);
	/* one text id, its deltas joined, the call inside it stays after it */
	assert_string_equal(r->msgs[0].text, "hi there");
	assert_int_equal(r->parts[r->msgs[0].first_part].kind, PART_TEXT);
	assert_int_equal(r->parts[r->msgs[0].first_part + 1].kind, PART_CALL);
	/* a line cut off while it was written is a note where it was */
	assert_string_equal(fmt_parts(r, 0), "text call note");
	assert_string_equal(r->parts[r->msgs[0].first_part + 2].text, "a line that is not JSON");
	run_free(r);
	dataset_close(&ds);
	unlink(path);
}

static void test_wild_samples(void **state)
{
	(void)state;
	struct dataset ds;
	struct run *r = fmt_wild_run(&ds, "ai-sdk-ui-message-stream/langchain-react-agent-tool-calling.json",
	                             STREAM, 1, 2);
	if (!r) {
		skip();
		return;
	}
	assert_string_equal(r->calls[0].name, "get_weather");
	assert_int_equal(r->calls[0].state, CALL_COMPLETED);
	assert_string_equal(json_string_value(json_object_get(run_call_args(r, &r->calls[0]), "city")),
	                    "Tokyo");
	assert_string_equal(r->calls[1].name, "get_datetime");
	assert_int_equal(r->calls[1].state, CALL_COMPLETED);
	/* the reasoning first, the two calls, then the answer */
	struct run_msg *m = &r->msgs[0];
	assert_int_equal(r->nmsgs, 1);
	assert_int_equal(m->nparts, 4);
	assert_int_equal(r->parts[m->first_part].kind, PART_THINKING);
	assert_int_equal(r->parts[m->first_part + 1].kind, PART_CALL);
	assert_int_equal(r->parts[m->first_part + 2].kind, PART_CALL);
	assert_int_equal(r->parts[m->first_part + 3].kind, PART_TEXT);
	assert_true(strstr(run_final_agent_text(r), "Tokyo") != NULL);
	assert_int_equal(r->nnotes, 0);
	run_free(r);
	dataset_close(&ds);

	r = fmt_wild_run(&ds, "ai-sdk-ui-message-stream/langgraph-hitl-request-1.json", STREAM, 1, 1);
	assert_string_equal(r->calls[0].name, "delete_file");
	assert_int_equal(r->calls[0].state, CALL_REQUESTED);
	m = &r->msgs[0];
	assert_int_equal(r->parts[m->first_part + m->nparts - 1].kind, PART_NOTE);
	assert_string_equal(r->parts[m->first_part + m->nparts - 1].text, "awaiting approval");
	run_free(r);
	dataset_close(&ds);
	fmt_check_wild(STREAM, "ai-sdk-ui-message-stream");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_detect),
		cmocka_unit_test(test_parts_in_order),
		cmocka_unit_test(test_call_states),
		cmocka_unit_test(test_notes),
		cmocka_unit_test(test_messages),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_jsonl_file),
		cmocka_unit_test(test_wild_samples),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
