/* test_fmt_tcreview.c - the run format's reader (runs/formats/tcreview.c):
 * every member, hand-written minimal records, errors naming their field. */
#include "fmt_test.h"

#include "runs/dataset.h"
#include "runs/run_format.h"
#include "util/strbuf.h"
#include "util/error.h"

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

/* Loads a record given as text (single quotes for double) with the
 * loader forced, and returns the run whatever happened. */
static struct run *load_any(const char *text, const char *format, struct error *err)
{
	json_t *rec = fmt_parse(text);
	struct run *r = run_new(rec, "t.jsonl", 1, -1);
	json_decref(rec);
	error_clear(err);
	const struct format_ops *f = format ? format_find(format) : NULL;
	if (format_load(r, f, err) < 0 && !err->msg[0])
		error_set(err, ERR_FAILED, "?");
	return r;
}

/* The run written as the run format and read back by its loader. */
static struct run *round_trip(struct run *r, char **line)
{
	struct strbuf sb = STRBUF_INIT;
	run_format_write(&sb, r, NULL, 0);
	struct jdoc_error jerr;
	struct jdoc *d = jdoc_parse_str(sb.buf, &jerr);
	assert_non_null(d);
	struct run *back = run_new_doc(d, "a.jsonl", 1, -1);
	back->id = jv_str(d, jv_get(d, jdoc_root(d), "id"));     /* as the dataset names it */
	struct error err = {0};
	int rc = format_load(back, NULL, &err);
	if (rc)
		fprintf(stderr, "%s\n%s\n", err.msg, sb.buf);
	assert_int_equal(rc, 0);
	assert_string_equal(back->format, "tcreview");
	/* a second writing is the same line */
	struct strbuf again = STRBUF_INIT;
	run_format_write(&again, back, NULL, 0);
	assert_string_equal(again.buf, sb.buf);
	strbuf_release(&again);
	*line = strbuf_detach(&sb);
	return back;
}

static void same_text(const char *a, const char *b)
{
	assert_string_equal(a ? a : "(null)", b ? b : "(null)");
}

static void same_value(const struct run *a, jv va, const struct run *b, jv vb, const char *what)
{
	if ((va == JV_NONE) != (vb == JV_NONE))
		fprintf(stderr, "%s %s: %s in the source, %s read back\n", a->source, what,
		        va == JV_NONE ? "none" : "a value", vb == JV_NONE ? "none" : "a value");
	assert_int_equal(va == JV_NONE, vb == JV_NONE);
	if (va != JV_NONE)
		assert_true(jv_equal(a->doc, va, b->doc, vb) && jv_type(a->doc, va) == jv_type(b->doc, vb));
}

/* Everything scorers, judges and the screen read of a run. */
static void same_run(const struct run *a, const struct run *b)
{
	assert_int_equal(a->nmsgs, b->nmsgs);
	assert_int_equal(a->ncalls, b->ncalls);
	assert_int_equal(a->nparts, b->nparts);
	assert_int_equal(a->nnotes, b->nnotes);
	assert_int_equal(a->mastra, b->mastra);
	assert_int_equal(a->mastra_io_empty, b->mastra_io_empty);
	same_text(a->model, b->model);
	same_text(a->parent_id, b->parent_id);
	same_value(a, a->tool_defs, b, b->tool_defs, "tools");
	for (size_t i = 0; i < a->nmsgs; i++) {
		const struct run_msg *x = &a->msgs[i], *y = &b->msgs[i];
		assert_int_equal(x->role, y->role);
		assert_int_equal(x->origin, y->origin);
		assert_string_equal(x->text, y->text);
		assert_string_equal(fmt_parts(a, i), fmt_parts(b, i));
		assert_int_equal(x->is_tool_output, y->is_tool_output);
		same_text(x->answers_call_id, y->answers_call_id);
		same_value(a, x->result, b, y->result, "message result");
		assert_int_equal(x->result_is_error, y->result_is_error);
		same_text(x->result_error_text, y->result_error_text);
		assert_int_equal(x->unmatched_result, y->unmatched_result);
		assert_int_equal(x->src_index, y->src_index);
	}
	for (size_t i = 0; i < a->nparts; i++)
		assert_string_equal(a->parts[i].text, b->parts[i].text);
	for (size_t i = 0; i < a->ncalls; i++) {
		const struct run_call *x = &a->calls[i], *y = &b->calls[i];
		same_text(x->id, y->id);
		assert_string_equal(x->name, y->name);
		same_value(a, x->args, b, y->args, "arguments");
		same_value(a, x->result, b, y->result, "call result");
		assert_int_equal(x->has_result, y->has_result);
		assert_int_equal(x->is_error, y->is_error);
		same_text(x->error_text, y->error_text);
		assert_int_equal(x->state, y->state);
		assert_int_equal(x->requestor, y->requestor);
		assert_int_equal(x->msg_index, y->msg_index);
		assert_int_equal(x->index_in_msg, y->index_in_msg);
		assert_int_equal(x->result_msg, y->result_msg);
		assert_int_equal(x->src_msg_index, y->src_msg_index);
		assert_int_equal(x->src_call_index, y->src_call_index);
		same_text(x->raw_state, y->raw_state);
		if (a->mastra != MASTRA_NONE) {
			same_value(a, x->raw_id, b, y->raw_id, "raw id");
			same_value(a, x->raw_name, b, y->raw_name, "raw name");
		}
	}
}

/* Runs of other formats come back the same: orphan results, a reused id,
 * an error, text that is not JSON, an unknown role, thinking. */
static void test_round_trip_formats(void **state)
{
	(void)state;
	static const char *const records[] = {
		"{'model': 'm', 'tools': [{'type': 'function', 'function': {'name': 'f'}}], 'messages': ["
		" {'role': 'developer', 'content': 'rules'}, {'role': 'user', 'content': 'go'},"
		" {'role': 'assistant', 'content': 'a', 'reasoning_content': 'hmm', 'tool_calls': ["
		"   {'id': 'x', 'type': 'function', 'function': {'name': 'f', 'arguments': '{\\\"a\\\": 1}'}},"
		"   {'id': 'x', 'type': 'function', 'function': {'name': 'g', 'arguments': 'not json'}}]},"
		" {'role': 'tool', 'tool_call_id': 'x', 'content': 'Error: no'},"
		" {'role': 'tool', 'tool_call_id': 'zz', 'content': 'lost'},"
		" {'role': 'wizard', 'content': 'spell'},"
		" {'role': 'assistant', 'content': [{'type': 'text', 'text': 'done'}]}]}",
		"{'inputMessages': [{'id': 'u', 'role': 'user', 'content': {'format': 2, 'content': 'q'}}],"
		" 'output': [{'id': 'a', 'role': 'assistant', 'content': {'format': 2, 'content': 'ok',"
		"   'parts': [{'type': 'tool-invocation', 'toolInvocation': {'state': 'result',"
		"     'toolCallId': 5, 'toolName': 'f', 'args': {}, 'result': 1}},"
		"     {'type': 'text', 'text': 'ok'}],"
		"   'toolInvocations': [{'toolCallId': 'm2', 'toolName': 'g', 'args': {},"
		"     'state': 'call'}]}}]}",
		"{'messages': [{'role': 'user', 'content': 'hi'}, {'role': 'assistant', 'content': ["
		" {'type': 'thinking', 'thinking': 'plan', 'signature': 's'},"
		" {'type': 'tool_use', 'id': 't1', 'name': 'f', 'input': {'q': 1}}]},"
		" {'role': 'user', 'content': [{'type': 'tool_result', 'tool_use_id': 't1',"
		"   'content': [{'type': 'text', 'text': 'r1'}, {'type': 'text', 'text': 'r2'}], 'is_error': true}]}]}",
		/* a result logged before the step that made its call (OpenAgents' ATIF dialect) */
		"{'schema_version': '1.4', 'session_id': 's', 'agent': {'name': 'a', 'model': 'm'}, 'steps': ["
		" {'step_id': 1, 'source': 'user', 'message': 'go'},"
		" {'step_id': 2, 'source': 'system', 'message': 'Tool result for tu_1',"
		"   'observation': {'type': 'tool_result', 'content': 'Error: denied', 'result': 'Error: denied'}},"
		" {'step_id': 3, 'source': 'agent', 'message': 'writing',"
		"   'tool_calls': [{'id': 'tu_1', 'name': 'Write', 'arguments': {'path': 'x'}}]}]}",
		NULL,
	};
	for (size_t i = 0; records[i]; i++) {
		struct error err = {0};
		char *line;
		struct run *r = load_any(records[i], NULL, &err);
		if (err.msg[0])
			fprintf(stderr, "record %zu: %s\n", i, err.msg);
		assert_string_equal(err.msg, "");
		struct run *back = round_trip(r, &line);
		same_run(r, back);
		free(line);
		run_free(back);
		run_free(r);
	}
}

/* Every run of the shared samples (real/, real/wild/, mastra/) that a
 * loader reads comes back from the run format as it was. */
static void test_round_trip_shared(void **state)
{
	(void)state;
	char dir[4096];
	if (!fmt_shared_path(dir, sizeof dir, "fixtures")) {
		skip();
		return;
	}
	char *paths[] = { dir };
	struct dataset ds = { 0 };
	struct error err = {0};
	assert_int_equal(dataset_open(&ds, paths, 1, &err), 0);
	struct dataset_cursor cur;
	struct record_ref rec;
	dataset_cursor_init(&cur);
	size_t checked = 0;
	while (dataset_next(&ds, &cur, &rec)) {
		struct run *r = dataset_load_run(&ds, &rec, NULL, NULL, &err);
		if (r && !r->load_error) {
			char *line;
			struct run *back = round_trip(r, &line);
			same_run(r, back);
			free(line);
			run_free(back);
			checked++;
		}
		run_free(r);
	}
	dataset_close(&ds);
	printf("%zu runs of the shared samples read back as they were\n", checked);
	assert_true(checked > 50);
}

/* Results joined by position when nothing has ids; a null call_id joins
 * nothing; a second tool_result in a message is a message of its own. */
static void test_joins(void **state)
{
	(void)state;
	struct run *r = fmt_load(
		"{'tcreview_run': 1, 'messages': ["
		" {'role': 'assistant', 'parts': [{'type': 'tool_call', 'name': 'a'},"
		"   {'type': 'tool_call', 'name': 'b'}, {'type': 'tool_call', 'name': 'c', 'id': 'k'}]},"
		" {'role': 'tool', 'parts': [{'type': 'tool_result', 'content': 'A'},"
		"   {'type': 'tool_result', 'content': 'B', 'is_error': true, 'error': 'bad'}]},"
		" {'role': 'tool', 'parts': [{'type': 'tool_result', 'call_id': null, 'content': 'C'}]},"
		" {'role': 'tool', 'parts': [{'type': 'tool_result', 'call_id': 'k', 'content': 'K'}]}]}", TCR);
	assert_int_equal(r->nmsgs, 5);
	assert_int_equal(r->calls[0].result_msg, 1);
	assert_int_equal(r->calls[1].result_msg, 2);
	assert_int_equal(r->calls[1].state, CALL_FAILED);
	assert_string_equal(r->calls[1].error_text, "bad");
	assert_int_equal(r->calls[2].result_msg, 4);
	assert_true(r->msgs[3].unmatched_result);
	assert_int_equal(fmt_count_unmatched(r), 1);
	assert_string_equal(r->msgs[2].text, "B");
	run_free(r);

	/* a result stated by its call, and a call's own result and state */
	r = fmt_load(
		"{'tcreview_run': 1, 'messages': ["
		" {'role': 'assistant', 'parts': [{'type': 'tool_call', 'id': 'x', 'name': 'a',"
		"   'source': {'result_message': 2}},"
		"   {'type': 'tool_call', 'name': 'b', 'result': {'ok': 1}, 'state': 'partial'},"
		"   {'type': 'tool_call', 'name': 'u', 'requestor': 'user'}]},"
		" {'role': 'tool', 'source': {'unmatched': true}, 'parts': [{'type': 'tool_result', 'call_id': 'x'}]},"
		" {'role': 'tool', 'parts': [{'type': 'text', 'text': ''},"
		"   {'type': 'tool_result', 'call_id': 'y', 'content': 'Y'}]}]}", TCR);
	assert_int_equal(r->calls[0].result_msg, 2);
	assert_true(r->msgs[1].unmatched_result);
	assert_false(r->msgs[2].unmatched_result);
	assert_string_equal(r->msgs[2].text, "");
	assert_int_equal(r->calls[1].state, CALL_PARTIAL);
	assert_true(r->calls[1].has_result);
	assert_int_equal(r->calls[2].requestor, REQ_USER);
	assert_int_equal(run_agent_calls(r, NULL), 1);     /* not the partial one, nor the user's */
	run_free(r);
}

/* Every optional member of the run. */
static void test_members(void **state)
{
	(void)state;
	struct run *r = fmt_load(
		"{'tcreview_run': 1, 'id': 'r', 'parent_id': 'p', 'tools': [{'name': 'f'}],"
		" 'fields': {'reward': 0.5, 'info.task': 7}, 'metadata': {'info': {'task': 8}},"
		" 'source': {'file': 'orig.jsonl', 'line': 3, 'format': 'openai-chat'},"
		" 'mastra': {'shape': '0.x', 'io_empty': true}, 'future': {'x': 1},"
		" 'messages': [{'role': 'user', 'origin': 'input', 'source': {'index': 4}, 'parts': ["
		"   {'type': 'text', 'text': 'a'}, {'type': 'text', 'text': 'b'}, {'type': 'note', 'text': 'kept'},"
		"   {'type': 'image', 'url': 'x'}]},"
		"  {'role': 'assistant', 'parts': [{'type': 'tool_call', 'id': '1', 'name': 'f',"
		"   'arguments': 'text', 'source': {'id': 1, 'name': null, 'state': 'call', 'message': 9, 'call': 2}}]},"
		"  {'role': 'note', 'parts': [{'type': 'note', 'text': 'event x'}]}]}", TCR);
	assert_string_equal(r->parent_id, "p");
	assert_true(jv_is_array(r->doc, r->tool_defs));
	assert_int_equal(r->mastra, MASTRA_0X);
	assert_true(r->mastra_io_empty);
	assert_true(r->origin != JV_NONE);
	assert_int_equal(r->msgs[0].origin, MSG_IN_INPUT);
	assert_int_equal(r->msgs[0].src_index, 4);
	assert_string_equal(r->msgs[0].text, "a\nb");
	assert_string_equal(fmt_parts(r, 0), "text text note note");
	assert_int_equal(r->nnotes, 3);
	assert_int_equal(r->msgs[2].role, ROLE_NOTE);
	struct run_call *c = &r->calls[0];
	assert_true(jv_is_number(r->doc, c->raw_id));
	assert_true(jv_is_null(r->doc, c->raw_name));
	assert_string_equal(c->raw_state, "call");
	assert_int_equal(c->src_msg_index, 9);
	assert_int_equal(c->src_call_index, 2);
	assert_true(run_call_args_invalid(r, c));
	/* paths: fields first, by their exact text, then the record */
	assert_int_equal(jv_int(r->doc, run_value(r, "info.task")), 7);
	assert_true(jv_real(r->doc, run_value(r, "reward")) == 0.5);
	assert_int_equal(jv_int(r->doc, run_value(r, "metadata.info.task")), 8);
	assert_true(run_value(r, "nothing") == JV_NONE);
	run_free(r);
}

/* The smallest records a person writes. */
static void test_minimal(void **state)
{
	(void)state;
	struct run *r = fmt_load("{'tcreview_run': 1, 'messages': []}", TCR);
	assert_int_equal(r->nmsgs, 0);
	run_free(r);
	r = fmt_load("{'messages': [{'role': 'user'}], 'tcreview_run': 1}", TCR);
	assert_int_equal(r->nmsgs, 1);
	assert_string_equal(r->msgs[0].text, "");
	run_free(r);
	/* an unknown role is kept as a note, not refused */
	r = fmt_load("{'tcreview_run': 1, 'messages': [{'role': 'critic', 'parts': []}]}", TCR);
	assert_int_equal(r->msgs[0].role, ROLE_NOTE);
	run_free(r);
	assert_int_equal(fmt_score(TCR, "{'tcreview_run': 1, 'messages': []}"), FORMAT_DETECT_CERTAIN);
	assert_int_equal(fmt_score(TCR, "{'messages': [{'role': 'user', 'parts': []}]}"), 0);
}

static void test_errors(void **state)
{
	(void)state;
	static const struct fmt_error_case cases[] = {
		{ "{'tcreview_run': 2, 'messages': []}",
		  "tcreview_run: version 2 is not one this tcreview reads (it reads 1)" },
		{ "{'tcreview_run': 1.5, 'messages': []}",
		  "tcreview_run: version 1.5 is not one this tcreview reads (it reads 1)" },
		{ "{'tcreview_run': '1', 'messages': []}",
		  "tcreview_run: not a version number (this tcreview reads 1)" },
		{ "{'tcreview_run': 1}", "messages: missing" },
		{ "{'messages': []}", "tcreview_run: missing" },
		{ "{'tcreview_run': 1, 'messages': {}}", "messages: not a list" },
		{ "{'tcreview_run': 1, 'model': 4, 'messages': []}", "model: not a string" },
		{ "{'tcreview_run': 1, 'fields': [], 'messages': []}", "fields: not an object" },
		{ "{'tcreview_run': 1, 'mastra': {'shape': 2}, 'messages': []}",
		  "mastra.shape: not \"1.x\" or \"0.x\"" },
		{ "{'tcreview_run': 1, 'messages': [3]}", "messages[0]: not an object" },
		{ "{'tcreview_run': 1, 'messages': [{}]}", "messages[0].role: missing" },
		{ "{'tcreview_run': 1, 'messages': [{'role': 1}]}", "messages[0].role: not a string" },
		{ "{'tcreview_run': 1, 'messages': [{'role': 'user', 'origin': 'x'}]}",
		  "messages[0].origin: not \"input\" or \"output\"" },
		{ "{'tcreview_run': 1, 'messages': [{'role': 'user', 'parts': 'x'}]}",
		  "messages[0].parts: not a list" },
		{ "{'tcreview_run': 1, 'messages': [{'role': 'user', 'parts': [{}]}]}",
		  "messages[0].parts[0].type: missing" },
		{ "{'tcreview_run': 1, 'messages': [{'role': 'user', 'parts': [{'type': 'text'}]}]}",
		  "messages[0].parts[0].text: missing" },
		{ "{'tcreview_run': 1, 'messages': [{'role': 'user', 'parts': [{'type': 'thinking', 'text': 1}]}]}",
		  "messages[0].parts[0].text: not a string" },
		{ "{'tcreview_run': 1, 'messages': [{'role': 'assistant', 'parts': [{'type': 'tool_call'}]}]}",
		  "messages[0].parts[0].name: missing" },
		{ "{'tcreview_run': 1, 'messages': [{'role': 'ai', 'parts': [{'type': 'tool_call', 'name': 'f', 'id': []}]}]}",
		  "messages[0].parts[0].id: not a string" },
		{ "{'tcreview_run': 1, 'messages': [{'role': 'ai', 'parts': [{'type': 'tool_call', 'name': 'f', 'state': 'done'}]}]}",
		  "messages[0].parts[0].state: not requested, completed, failed or partial" },
		{ "{'tcreview_run': 1, 'messages': [{'role': 'ai', 'parts': [{'type': 'tool_call', 'name': 'f', 'requestor': 'bot'}]}]}",
		  "messages[0].parts[0].requestor: not agent or user" },
		{ "{'tcreview_run': 1, 'messages': [{'role': 'tool', 'parts': [{'type': 'tool_result', 'is_error': 'yes'}]}]}",
		  "messages[0].parts[0].is_error: not true or false" },
		{ "{'tcreview_run': 1, 'messages': [{'role': 'ai', 'parts': [{'type': 'tool_call', 'name': 'f', 'source': {'call': -1}}]}]}",
		  "messages[0].parts[0].source: positions must be whole numbers from 0" },
		{ "{'tcreview_run': 1, 'messages': [{'role': 'ai', 'source': {'index': 'x'}}]}",
		  "messages[0].source.index: not a whole number from 0 or null" },
		{ NULL, NULL },
	};
	fmt_expect_errors(TCR, cases);
	struct error err = {0};
	assert_int_equal(fmt_load_err("[1]", TCR, &err), -1);
	assert_string_equal(err.msg, "a tcreview run must be a JSON object");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_core),
		cmocka_unit_test(test_round_trip_formats),
		cmocka_unit_test(test_round_trip_shared),
		cmocka_unit_test(test_joins),
		cmocka_unit_test(test_members),
		cmocka_unit_test(test_minimal),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
