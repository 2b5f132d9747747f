/* test_fmt_inspect.c - the Inspect AI loader: a .json log cut into its
 * samples, an .eval archive written here with libzip, a bare sample,
 * content blocks, attachment refs, failed calls, epochs in ids, scores as
 * a note and as record fields, and the shared wild logs read in place. */
#include <zip.h>

#include "fmt_files.h"

#define SAMPLE_ORDER                                                                          \
	"{'id': 42, 'epoch': 1, 'input': '注文 2087 はどこですか？', 'target': '42',"            \
	" 'messages': [{'id': 'm0', 'role': 'system', 'content': 'You are a shop assistant.'},"   \
	"  {'id': 'm1', 'role': 'user', 'content': '注文 2087 はどこですか？', 'source': 'input'}," \
	"  {'id': 'm2', 'role': 'assistant', 'source': 'generate', 'model': 'gpt-4o-mini',"      \
	"   'content': [{'type': 'reasoning', 'reasoning': 'look it up', 'redacted': false},"     \
	"     {'type': 'text', 'text': '調べます。'}],"                                            \
	"   'tool_calls': [{'id': 'call_1', 'function': 'lookup_order',"                         \
	"     'arguments': {'order': '2087'}, 'type': 'function',"                               \
	"     'view': {'title': 'lookup', 'format': 'markdown', 'content': '2087'}}]},"           \
	"  {'id': 'm3', 'role': 'tool', 'tool_call_id': 'call_1', 'function': 'lookup_order',"   \
	"   'content': 'shipped'},"                                                              \
	"  {'id': 'm4', 'role': 'assistant', 'content': '已发货 📦'}],"                          \
	" 'output': {'model': 'gpt-4o-mini-2024-07-18', 'choices': [], 'completion': '已发货 📦'}," \
	" 'scores': {'match': {'value': 'C', 'answer': '42', 'explanation': 'found'}},"          \
	" 'metadata': {'shop': 'jp'}, 'store': {}, 'events': []}"

#define SAMPLE_FAILED                                                                         \
	"{'id': 42, 'epoch': 2, 'input': [{'role': 'user', 'content': 'track SF88'}],"           \
	" 'target': ['42'], 'messages': [{'role': 'user', 'content': 'track SF88'},"             \
	"  {'role': 'critic', 'content': 'hmm'},"                                                \
	"  {'role': 'assistant', 'content': [{'type': 'image', 'image': 'data:image/png;base64,AA'},"  \
	"     {'type': 'citation_x', 'cited': 1}],"                                             \
	"   'tool_calls': [{'id': 'call_9', 'function': 'track_parcel',"                         \
	"     'arguments': {'tracking': 'SF88'}, 'type': 'function'}]},"                         \
	"  {'role': 'tool', 'tool_call_id': 'call_9', 'function': 'track_parcel', 'content': '',"\
	"   'error': {'type': 'timeout', 'message': '上游超时'}}],"                               \
	" 'output': {'model': 'none', 'choices': []},"                                           \
	" 'model_usage': {'openai/gpt-4o-mini': {'input_tokens': 9}},"                           \
	" 'scores': {'includes': {'value': 0}, 'judge': {'value': {'a': 1}}},"                   \
	" 'error': {'message': 'RuntimeError: sandbox gone', 'traceback': ''},"                  \
	" 'limit': {'type': 'token', 'limit': 1000}}"

#define SAMPLE_REFS                                                                           \
	"{'id': 'q-7', 'epoch': 1, 'input': 'attachment://aaa', 'target': '',"                   \
	" 'messages': [{'role': 'user', 'content': 'attachment://aaa'},"                         \
	"  {'role': 'assistant', 'content': [{'type': 'text', 'text': 'attachment://zzz'}],"     \
	"   'tool_calls': [{'id': 'c1', 'function': 'python',"                                   \
	"     'arguments': {'code': 'attachment://bbb', 'n': ['attachment://bbb', 3]}}]},"       \
	"  {'role': 'tool', 'tool_call_id': 'c1', 'function': 'python', 'content': 'attachment://ccc'}]," \
	" 'scores': {}, 'attachments': {'aaa': 'a long task text', 'bbb': 'print(2087)',"        \
	"   'ccc': '2087'}}"

#define LOG_HEAD                                                                              \
	"{'version': 2, 'status': 'success',"                                                    \
	" 'eval': {'eval_id': 'e1', 'task': 'shop_orders', 'model': 'openai/gpt-4o-mini',"       \
	"   'dataset': {'name': 'orders', 'samples': 2}, 'config': {'epochs': 2}},"              \
	" 'plan': {'name': 'plan', 'steps': [{'solver': 'generate'}]},"                          \
	" 'results': {'total_samples': 3, 'scores': []}, 'stats': {'started_at': ''}"

static void test_json_log(void **state)
{
	(void)state;
	struct dataset ds;
	size_t n = fmt_open(&ds, fmt_write("log.json", LOG_HEAD ", 'samples': [" SAMPLE_ORDER ","
	                                   SAMPLE_FAILED "," SAMPLE_REFS "]}"));
	assert_int_equal(n, 3);
	struct run *r = fmt_run_at(&ds, 0, "inspect");
	char src[256];
	record_source(&ds, &ds.recs[0], src, sizeof src);
	assert_non_null(strstr(src, "log.json[0]"));
	assert_string_equal(r->id, "42");
	assert_string_equal(r->model, "gpt-4o-mini-2024-07-18");
	/* system, user, assistant, tool, assistant, the scores */
	assert_int_equal(r->nmsgs, 6);
	assert_int_equal(r->msgs[0].role, ROLE_SYSTEM);
	assert_string_equal(r->msgs[1].text, "注文 2087 はどこですか？");
	const struct run_msg *a = &r->msgs[2];
	assert_int_equal(a->nparts, 3);
	assert_int_equal(r->parts[a->first_part].kind, PART_THINKING);
	assert_string_equal(r->parts[a->first_part].text, "look it up");
	assert_int_equal(r->parts[a->first_part + 1].kind, PART_TEXT);
	assert_int_equal(r->parts[a->first_part + 2].kind, PART_CALL);
	assert_string_equal(a->text, "調べます。");
	assert_int_equal(r->ncalls, 1);
	struct run_call *c = &r->calls[0];
	assert_string_equal(c->name, "lookup_order");
	assert_string_equal(c->id, "call_1");
	assert_string_equal(json_string_value(json_object_get(run_call_args(r, c), "order")), "2087");
	assert_int_equal(c->state, CALL_COMPLETED);
	assert_int_equal(c->result_msg, 3);
	assert_string_equal(json_string_value(run_call_result(r, c)), "shipped");
	assert_string_equal(run_final_agent_text(r), "已发货 📦");
	assert_string_equal(fmt_last_note(r), "scores: match C (answer 42)");
	/* the record is the sample: {from: scores...} reaches them */
	json_t *v = run_path(r, "scores.match.value");
	assert_string_equal(json_string_value(v), "C");
	json_decref(v);
	assert_int_equal(fmt_count_unmatched(r), 0);
	run_free(r);

	r = fmt_run_at(&ds, 1, "inspect");
	assert_string_equal(r->id, "42#2");
	assert_string_equal(r->model, "none");
	assert_int_equal(r->ncalls, 1);
	assert_int_equal(r->calls[0].state, CALL_FAILED);
	assert_string_equal(r->calls[0].error_text, "上游超时");
	/* the unknown role, the image and the unknown block are notes; then the
	 * sample's error and the scores */
	assert_int_equal(r->msgs[1].role, ROLE_NOTE);
	assert_string_equal(r->parts[r->msgs[1].first_part].text, "role \"critic\" (not read)");
	assert_int_equal(fmt_parts_of(r, 2, PART_NOTE), 2);
	assert_string_equal(r->parts[r->msgs[2].first_part].text, "image block (not shown)");
	assert_string_equal(r->parts[r->msgs[2].first_part + 1].text,
	                    "block type \"citation_x\" (not read)");
	assert_string_equal(r->parts[r->msgs[r->nmsgs - 3].first_part].text,
	                    "sample error: RuntimeError: sandbox gone");
	assert_string_equal(r->parts[r->msgs[r->nmsgs - 2].first_part].text,
	                    "limit reached: token 1000");
	assert_string_equal(fmt_last_note(r), "scores: includes 0; judge {\"a\": 1}");
	assert_int_equal(r->nnotes, 6);
	run_free(r);

	r = fmt_run_at(&ds, 2, "inspect");
	assert_string_equal(r->id, "q-7");
	assert_string_equal(r->msgs[0].text, "a long task text");
	/* a ref with no attachment stays as written */
	assert_string_equal(r->msgs[1].text, "attachment://zzz");
	json_t *args = run_call_args(r, &r->calls[0]);
	assert_string_equal(json_string_value(json_object_get(args, "code")), "print(2087)");
	assert_string_equal(json_string_value(json_array_get(json_object_get(args, "n"), 0)),
	                    "print(2087)");
	assert_string_equal(r->msgs[2].text, "2087");
	assert_string_equal(json_string_value(run_call_result(r, &r->calls[0])), "2087");
	/* no scores, no note */
	assert_int_equal(r->msgs[r->nmsgs - 1].role, ROLE_TOOL);
	assert_null(r->model);
	run_free(r);
	dataset_close(&ds);
}

/* An .eval archive as Inspect writes it: header, samples, a journal. */
static void add_entry(zip_t *za, const char *name, const char *text)
{
	char *s = fmt_quoted(text);
	zip_source_t *src = zip_source_buffer(za, s, strlen(s), 1);
	assert_non_null(src);
	assert_true(zip_file_add(za, name, src, ZIP_FL_ENC_UTF_8) >= 0);
}

static void test_eval_archive(void **state)
{
	(void)state;
	char *path;
	assert_true(asprintf(&path, "%s/shop.eval", fmt_dir) > 0);
	int code = 0;
	zip_t *za = zip_open(path, ZIP_CREATE | ZIP_TRUNCATE, &code);
	assert_non_null(za);
	add_entry(za, "_journal/start.json", "{'version': 2, 'eval': {'task': 'x', 'model': 'm'}}");
	add_entry(za, "samples/42_epoch_1.json", SAMPLE_ORDER);
	add_entry(za, "samples/42_epoch_2.json", SAMPLE_FAILED);
	add_entry(za, "summaries.json", "[]");
	add_entry(za, "header.json", LOG_HEAD "}");
	assert_int_equal(zip_close(za), 0);
	struct dataset ds;
	assert_int_equal(fmt_open(&ds, path), 2);
	struct run *r = fmt_run_at(&ds, 0, "inspect");
	assert_string_equal(r->id, "42");
	assert_int_equal(r->ncalls, 1);
	assert_int_equal(r->calls[0].state, CALL_COMPLETED);
	run_free(r);
	r = fmt_run_at(&ds, 1, "inspect");
	assert_string_equal(r->id, "42#2");
	assert_int_equal(r->calls[0].state, CALL_FAILED);
	run_free(r);
	dataset_close(&ds);

	/* no header and no journal: the samples are still the runs */
	assert_true(asprintf(&path, "%s/headless.eval", fmt_dir) > 0);
	za = zip_open(path, ZIP_CREATE | ZIP_TRUNCATE, &code);
	assert_non_null(za);
	add_entry(za, "samples/q-7_epoch_1.json", SAMPLE_REFS);
	assert_int_equal(zip_close(za), 0);
	assert_int_equal(fmt_open(&ds, path), 1);
	r = fmt_run_at(&ds, 0, "inspect");
	assert_string_equal(r->id, "q-7");
	run_free(r);
	dataset_close(&ds);
}

static void test_bare_sample_and_empty_log(void **state)
{
	(void)state;
	struct dataset ds;
	assert_int_equal(fmt_open(&ds, fmt_write("one.json", SAMPLE_REFS)), 1);
	struct run *r = fmt_run_at(&ds, 0, "inspect");
	assert_string_equal(r->id, "q-7");
	assert_int_equal(ds.recs[0].index, -1);
	run_free(r);
	dataset_close(&ds);
	/* a log that failed before any sample holds no runs */
	assert_int_equal(fmt_open(&ds, fmt_write("failed.json", LOG_HEAD ", 'status': 'error'}")), 0);
	dataset_close(&ds);
}

static void test_detection(void **state)
{
	(void)state;
	assert_true(fmt_score("inspect", SAMPLE_ORDER) > 0);
	assert_true(fmt_score("inspect", LOG_HEAD ", 'samples': []}") > 0);
	assert_string_equal(fmt_detect(SAMPLE_ORDER)->name, "inspect");
	assert_string_equal(fmt_detect(SAMPLE_FAILED)->name, "inspect");
	assert_string_equal(fmt_detect(LOG_HEAD ", 'samples': [" SAMPLE_REFS "]}")->name, "inspect");
	/* messages with an id and an epoch but nothing else Inspect writes */
	assert_int_equal(fmt_score("inspect", "{'id': 1, 'epoch': 1, 'messages': []}"), 0);
	assert_int_equal(fmt_score("inspect", "{'messages': [{'role': 'user', 'content': 'x'}]}"), 0);
	assert_int_equal(fmt_score("inspect", "{'eval': {'task': 3, 'model': 'm'}, 'samples': []}"), 0);
	assert_int_equal(fmt_score("inspect", "{'samples': [{'id': 1}]}"), 0);
	assert_true(fmt_score("inspect", "{'samples': [" SAMPLE_ORDER "]}") > 0);
	assert_int_equal(fmt_score("inspect", "{'id': 'x', 'epoch': '1', 'messages': [], 'target': ''}"), 0);
}

static void test_errors(void **state)
{
	(void)state;
	static const struct fmt_error_case cases[] = {
		{ "[1]", "an Inspect sample must be a JSON object" },
		{ LOG_HEAD ", 'samples': []}", "an Inspect log: its samples are the runs (read it as a file)" },
		{ "{'id': 1}", "messages: missing" },
		{ "{'id': 1, 'messages': {}}", "messages: not an array" },
		{ "{'messages': [3]}", "messages[0]: not an object" },
		{ "{'messages': [{'content': 'x'}]}", "messages[0].role: missing" },
		{ "{'messages': [{'role': 'user', 'content': {}}]}",
		  "messages[0].content: not a string, a list or null" },
		{ "{'messages': [{'role': 'assistant', 'tool_calls': {}}]}",
		  "messages[0].tool_calls: not a list or null" },
		{ "{'messages': [{'role': 'assistant', 'tool_calls': [{'id': 'c', 'function': {'name': 'f'}}]}]}",
		  "messages[0].tool_calls[0].function: not a string" },
		{ "{'messages': [{'role': 'assistant', 'tool_calls': [{'function': 'f', 'arguments': 3}]}]}",
		  "messages[0].tool_calls[0].arguments: not an object" },
		{ "{'messages': [{'role': 'tool', 'tool_call_id': 5}]}",
		  "messages[0].tool_call_id: not a string" },
		{ "{'messages': [{'role': 'tool', 'tool_call_id': 'c', 'error': 'boom'}]}",
		  "messages[0].error: not an object" },
		{ NULL, NULL },
	};
	fmt_expect_errors("inspect", cases);
}

/* README: the .json log 3 samples, 0 calls; the .eval 1 sample, 5 calls. */
static void test_wild_samples(void **state)
{
	(void)state;
	struct dataset ds;
	struct run *r = fmt_wild_run(&ds, "inspect-ai/2025-05-12T20-28-13-04-00_popularity.json",
	                             "inspect", 3, 0);
	if (!r) {
		skip();
		return;
	}
	assert_string_equal(r->id, "1");
	assert_string_equal(r->model, "gpt-4o-mini-2024-07-18");
	assert_string_equal(fmt_last_note(r), "scores: match C (answer Yes)");
	assert_string_equal(run_final_agent_text(r), "Yes");
	run_free(r);
	for (size_t i = 1; i < 3; i++) {
		r = fmt_run_at(&ds, i, "inspect");
		assert_int_equal(r->ncalls, 0);
		assert_non_null(strstr(fmt_last_note(r), "scores: match "));
		run_free(r);
	}
	dataset_close(&ds);

	r = fmt_wild_run(&ds, "inspect-ai/log_message_deduplication.eval", "inspect", 1, 5);
	assert_non_null(r);
	assert_string_equal(r->model, "hardcoded");
	for (size_t c = 0; c < r->ncalls; c++) {
		assert_string_equal(r->calls[c].name, "bash");
		assert_int_equal(r->calls[c].state, CALL_COMPLETED);
	}
	assert_string_equal(fmt_last_note(r), "scores: closeness_log 0.0");
	assert_int_equal(fmt_count_unmatched(r), 0);
	run_free(r);
	dataset_close(&ds);
}

static void test_wild_claims(void **state)
{
	(void)state;
	fmt_check_wild("inspect", "inspect-ai");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_log),
		cmocka_unit_test(test_eval_archive),
		cmocka_unit_test(test_bare_sample_and_empty_log),
		cmocka_unit_test(test_detection),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_wild_samples),
		cmocka_unit_test(test_wild_claims),
	};
	return cmocka_run_group_tests(tests, fmt_files_setup, fmt_files_teardown);
}
