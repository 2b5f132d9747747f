/* test_mastra.c - the Mastra loader: how it merges and numbers calls, read
 * from small records; and the Mastra documentation's examples, in the 1.x
 * and 0.x shapes, scored through the real input path and compared with what
 * the real Mastra scorer returned: score, and preprocessStepResult with its
 * keys in Mastra's order. The examples are the shared fixtures, read in
 * place; those two tests skip without them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "config/config.h"
#include "runs/dataset.h"
#include "runs/format.h"
#include "scorers/evaluate.h"
#include "util/jsonw.h"
#include "util/error.h"

static char *shared_path(const char *name)
{
	const char *dir = getenv("TCR_SHARED_DIR");
	if (!dir)
		return NULL;
	char *p = NULL;
	if (asprintf(&p, "%s/fixtures/mastra/%s", dir, name) < 0)
		return NULL;
	FILE *f = fopen(p, "r");
	if (!f) {
		free(p);
		return NULL;
	}
	fclose(f);
	return p;
}

/* Records are written with ' for " so that they read as JSON in C. */
static struct jdoc *parse(const char *text)
{
	char *s = strdup(text);
	assert_non_null(s);
	for (char *p = s; *p; p++)
		if (*p == '\'')
			*p = '"';
	struct jdoc_error jerr;
	struct jdoc *d = jdoc_parse_str(s, &jerr);
	if (!d)
		fprintf(stderr, "record does not parse: %s\n%s\n", jerr.text, s);
	free(s);
	assert_non_null(d);
	return d;
}

static int detect_score(const char *format, const char *text)
{
	const struct format_ops *f = format_find(format);
	assert_non_null(f);
	struct jdoc *d = parse(text);
	int score = f->detect(d, jdoc_root(d));
	jdoc_free(d);
	return score;
}

/* Loads with `format` forced (NULL: detected, and it must be mastra);
 * returns the run, or NULL with the message in err. */
static struct run *load(const char *text, const char *format, struct error *err)
{
	struct run *r = run_new_doc(parse(text), "test.jsonl", 1, -1);
	assert_non_null(r);
	const struct format_ops *f = format ? format_find(format) : NULL;
	error_clear(err);
	if (format_load(r, f, err) < 0) {
		run_free(r);
		return NULL;
	}
	if (!format)
		assert_string_equal(r->format, "mastra");
	return r;
}

static struct run *load_ok(const char *text, const char *format)
{
	struct error err = {0};
	struct run *r = load(text, format, &err);
	if (!r)
		fprintf(stderr, "load failed: %s\n", err.msg);
	assert_non_null(r);
	return r;
}

/* A 1.x record whose one output message has these parts and legacy list. */
#define OUT_1X(parts, legacy) \
	"{'inputMessages': [{'role': 'user', 'content': {'format': 2, 'content': 'hi'}}]," \
	" 'output': [{'role': 'assistant', 'content': {'format': 2, 'parts': [" parts "]," \
	" 'toolInvocations': [" legacy "]}}]}"
#define PART(inv) "{'type': 'tool-invocation', 'toolInvocation': " inv "}"

static void test_detect(void **s)
{
	(void)s;
	assert_int_equal(detect_score("mastra", "{'inputMessages': [], 'output': []}"), 90);
	assert_int_equal(detect_score("mastra", "{'input': {'inputMessages': []}}"), 90);
	assert_int_equal(detect_score("mastra", "{'inputMessages': null, 'runId': 'r'}"), 90);
	assert_int_equal(detect_score("mastra", "{'inputMessages': []}"), 70);
	assert_int_equal(detect_score("mastra",
	                              "{'output': [7, {'role': 'assistant', 'content': {'parts': []}}]}"), 60);
	assert_int_equal(detect_score("mastra", "{'output': [{'role': 'assistant', 'toolInvocations': []}]}"),
	                 60);
	/* A Responses API item is typed; a plain chat message has no calls. */
	assert_int_equal(detect_score("mastra", "{'output': [{'type': 'message', 'role': 'assistant',"
	                                        " 'content': {'parts': []}}]}"), 0);
	assert_int_equal(detect_score("mastra", "{'output': [{'role': 'assistant', 'content': 'x'}]}"), 0);
	assert_int_equal(detect_score("mastra", "[{'inputMessages': []}]"), 0);
	assert_int_equal(detect_score("mastra-1x", "{'inputMessages': [], 'output': []}"), 0);
	assert_int_equal(detect_score("mastra-0x", "{'inputMessages': [], 'output': []}"), 0);
}

/* Part versions win; a legacy-only call keeps its place before the part
 * that anchors the next legacy entry; leftovers come after every part. */
static void test_merge_order(void **s)
{
	(void)s;
	struct run *r = load_ok(OUT_1X(
		"{'type': 'text', 'text': 'ok'},"
		PART("{'toolCallId': 'a', 'toolName': 'A', 'state': 'result', 'args': {'v': 'part'}, 'result': 1}") ","
		PART("null") ","
		PART("{'toolCallId': 'c', 'toolName': 'C', 'state': 'call'}"),
		"{'toolCallId': 'x', 'toolName': 'X', 'state': 'result', 'result': 0},"
		"{'toolCallId': 'a', 'toolName': 'A', 'state': 'call', 'args': {'v': 'legacy'}},"
		"null,"
		"{'toolCallId': 'b', 'toolName': 'B', 'state': 'result', 'result': 2},"
		"{'toolCallId': 'c', 'toolName': 'C', 'state': 'call'},"
		"{'toolCallId': 'y', 'toolName': 'Y', 'state': 'partial-call'}"), NULL);
	const struct jdoc *d = r->doc;
	assert_int_equal(r->mastra, MASTRA_1X);
	assert_false(r->mastra_io_empty);
	assert_int_equal(r->nmsgs, 2);
	assert_int_equal(r->msgs[0].origin, MSG_IN_INPUT);
	assert_string_equal(r->msgs[0].text, "hi");
	assert_string_equal(r->msgs[1].text, "ok");
	assert_int_equal(r->msgs[1].src_index, 0);
	static const char *const names[] = { "X", "A", "B", "C", "Y" };
	assert_int_equal(r->ncalls, 5);
	assert_int_equal(r->msgs[1].ncalls, 5);
	for (size_t i = 0; i < 5; i++) {
		assert_string_equal(r->calls[i].name, names[i]);
		assert_string_equal(jv_str(d, r->calls[i].raw_name), names[i]);
		assert_int_equal(r->calls[i].src_call_index, (long)i);
		assert_int_equal(r->calls[i].src_msg_index, 0);
	}
	/* A's call is the part's invocation, not the legacy one. */
	assert_string_equal(jv_str(d, jv_get(d, r->calls[1].args, "v")), "part");
	assert_string_equal(r->calls[1].raw_state, "result");
	assert_int_equal(r->calls[1].state, CALL_COMPLETED);
	assert_int_equal(jv_int(d, r->calls[1].result), 1);
	assert_int_equal(r->calls[3].state, CALL_REQUESTED);
	assert_int_equal(r->calls[4].state, CALL_PARTIAL);
	assert_int_equal(run_agent_calls(r, NULL), 4);
	run_free(r);
}

/* Ids are JavaScript values: 5 and 5.0 are one id, "5" another. */
static void test_ids_are_values(void **s)
{
	(void)s;
	struct run *r = load_ok(OUT_1X(
		PART("{'toolCallId': 5.0, 'toolName': 'P', 'state': 'result', 'result': 'p'}") ","
		PART("{'toolCallId': 123456789012345678901234567890, 'toolName': 7, 'state': 'call'}") ","
		PART("{'toolCallId': 0, 'toolName': false, 'state': 'call'}"),
		"{'toolCallId': '5', 'toolName': 'S', 'state': 'call'},"
		"{'toolCallId': 5, 'toolName': 'L', 'state': 'call'},"
		"{'toolCallId': 123456789012345678901234567890, 'toolName': 'big', 'state': 'call'}"), NULL);
	const struct jdoc *d = r->doc;
	/* "5" is no anchor, so it goes before the part that matched 5. */
	assert_int_equal(r->ncalls, 4);
	assert_string_equal(r->calls[0].name, "S");
	assert_string_equal(r->calls[0].id, "5");
	assert_true(jv_is_string(d, r->calls[0].raw_id));
	assert_string_equal(r->calls[1].name, "P");
	assert_string_equal(r->calls[1].id, "5.0");
	assert_true(jv_is_number(d, r->calls[1].raw_id));
	assert_false(jv_is_integer(d, r->calls[1].raw_id));
	/* Beyond int64 the id keeps its text; a number name is printed. */
	assert_string_equal(r->calls[2].id, "123456789012345678901234567890");
	assert_string_equal(r->calls[2].name, "7");
	assert_true(jv_is_number(d, r->calls[2].raw_name));
	/* 0 is falsy: no id (and no twin); false is still a name. */
	assert_null(r->calls[3].id);
	assert_int_equal(jv_int(d, r->calls[3].raw_id), 0);
	assert_string_equal(r->calls[3].name, "false");
	for (size_t i = 0; i < r->ncalls; i++)
		assert_int_equal(r->calls[i].src_call_index, (long)i);
	run_free(r);
}

static void test_states_exact(void **s)
{
	(void)s;
	struct run *r = load_ok(OUT_1X(
		PART("{'toolCallId': 'e', 'toolName': 'E', 'state': 'output-error', 'errorText': 'boom'}") ","
		PART("{'toolCallId': 'f', 'toolName': 'F', 'state': 'result', 'isError': true, 'result': 'no'}") ","
		PART("{'toolCallId': 'g', 'toolName': 'G', 'state': 'Result'}") ","
		PART("{'toolCallId': 'h', 'toolName': 'H', 'state': 'Result', 'result': null}") ","
		PART("{'toolCallId': 'i', 'toolName': 'I', 'state': 'input-streaming'}") ","
		PART("{'toolCallId': 'j', 'toolName': 'J', 'state': 5, 'args': '{\\'k\\': 1}'}"), ""), NULL);
	const struct jdoc *d = r->doc;
	struct run_call *c = r->calls;
	assert_int_equal(r->ncalls, 6);
	assert_int_equal(c[0].state, CALL_FAILED);
	assert_string_equal(c[0].error_text, "boom");
	assert_int_equal(c[0].result, JV_NONE);
	assert_int_equal(c[1].state, CALL_FAILED);
	assert_string_equal(c[1].error_text, "error");
	assert_string_equal(jv_str(d, c[1].result), "no");
	/* States are exact strings: "Result" is not "result". */
	assert_string_equal(c[2].raw_state, "Result");
	assert_int_equal(c[2].state, CALL_REQUESTED);
	assert_int_equal(c[3].state, CALL_COMPLETED);
	assert_true(jv_is_null(d, c[3].result));
	assert_int_equal(c[4].state, CALL_PARTIAL);
	assert_null(c[5].raw_state);
	assert_int_equal(c[5].state, CALL_REQUESTED);
	/* String arguments stay the record's string until someone asks. */
	assert_true(jv_is_string(d, c[5].args));
	assert_int_equal(json_integer_value(json_object_get(run_call_args(r, &c[5]), "k")), 1);
	run_free(r);
}

/* 0.x invocations are numbered by their place, nulls included. */
static void test_0x_numbering(void **s)
{
	(void)s;
	struct run *r = load_ok(
		"{'inputMessages': [{'role': 'user', 'content': 'hi', 'toolInvocations': []}],"
		" 'output': [{'role': 'assistant', 'content': 'done', 'toolInvocations': ["
		"   {'toolCallId': 'a', 'toolName': 'A', 'state': 'result', 'result': 1}, null,"
		"   {'toolCallId': 'b', 'toolName': 'B', 'state': 'call'}]}]}", NULL);
	assert_int_equal(r->mastra, MASTRA_0X);
	assert_int_equal(r->ncalls, 2);
	assert_int_equal(r->calls[0].src_call_index, 0);
	assert_int_equal(r->calls[1].src_call_index, 2);
	assert_string_equal(r->msgs[1].text, "done");
	run_free(r);
	/* Read as 1.x, the same record has no content object, so no calls. */
	r = load_ok("{'inputMessages': [{'role': 'user', 'content': 'hi'}],"
	            " 'output': [{'role': 'assistant', 'content': 'done', 'toolInvocations': ["
	            "   {'toolCallId': 'a', 'toolName': 'A', 'state': 'call'}]}]}", "mastra-1x");
	assert_int_equal(r->mastra, MASTRA_1X);
	assert_int_equal(r->ncalls, 0);
	run_free(r);
}

static void test_lists_and_errors(void **s)
{
	(void)s;
	struct error err = {0};
	/* A string output is the answer; empty lists are Mastra's refusal. */
	struct run *r = load_ok("{'input': {'inputMessages': []}, 'output': 'fine'}", "mastra");
	assert_true(r->mastra_io_empty);
	assert_int_equal(r->nmsgs, 1);
	assert_int_equal(r->msgs[0].role, ROLE_ASSISTANT);
	assert_string_equal(r->msgs[0].text, "fine");
	run_free(r);
	r = load_ok("{'inputMessages': [{'role': 'user', 'content': {'parts': [null]}}], 'output': ''}",
	            "mastra");
	assert_true(r->mastra_io_empty);     /* and a null part in the input is not looked at */
	assert_int_equal(r->nmsgs, 1);
	run_free(r);
	assert_null(load(OUT_1X("{'type': 'text', 'text': 'a'}, null", ""), NULL, &err));
	assert_string_equal(err.msg, "output[0].content.parts[1]: null part");
	assert_null(load("{'inputMessages': [], 'output': [3, {'role': 'assistant', 'content':"
	                 " {'toolInvocations': {}}}]}", NULL, &err));
	assert_string_equal(err.msg, "output[1].content.toolInvocations: not a list");
	assert_null(load("{'inputMessages': [], 'output': [{'role': 'assistant', 'content':"
	                 " {'parts': null}}]}", NULL, &err));
	assert_string_equal(err.msg, "output[0].content.parts: not a list");
	assert_null(load("[1]", "mastra", &err));
	assert_string_equal(err.msg, "a Mastra run must be a JSON object");
}

static char *compact(json_t *v)
{
	struct strbuf sb = STRBUF_INIT;
	jsonw_value(&sb, v);
	return strbuf_detach(&sb);
}

static void check_fixture(const char *input, const char *expected)
{
	char *in = shared_path(input), *ex = shared_path(expected);
	if (!in || !ex) {
		printf("skipped: %s not found (set TCR_SHARED_DIR to the shared reference folder)\n", input);
		free(in);
		free(ex);
		skip();
	}
	struct error err = {0};
	struct config c;
	const char *srcdir = getenv("TCR_SRCDIR") ? getenv("TCR_SRCDIR") : ".";
	char yaml[4096];
	snprintf(yaml, sizeof yaml, "%s/tests/data/mastra-options.yaml", srcdir);
	if (config_load(&c, NULL, yaml, &err) < 0)
		fail_msg("%s", err);
	struct dataset ds;
	char *paths[] = { in };
	assert_int_equal(dataset_open(&ds, paths, 1, &err), 0);
	FILE *ef = fopen(ex, "r");
	assert_non_null(ef);
	struct evaluator ev = { .scorers = c.scorers, .nscorers = c.nscorers, .expect = NULL };
	struct dataset_cursor cur;
	struct record_ref rec;
	dataset_cursor_init(&cur);
	size_t n = 0;
	char line[65536];
	while (dataset_next(&ds, &cur, &rec)) {
		assert_non_null(fgets(line, sizeof line, ef));
		json_error_t jerr;
		json_t *want = json_loads(line, 0, &jerr);
		assert_non_null(want);
		struct run *r = dataset_load_run(&ds, &rec, NULL, NULL, &err);
		assert_non_null(r);
		assert_string_equal(r->id, json_string_value(json_object_get(want, "id")));
		struct verdict v;
		evaluator_run(&ev, r, &v);
		json_t *want_score = json_object_get(want, "score");
		if (json_is_null(want_score)) {
			assert_int_equal(v.status, VERDICT_ERROR);
			assert_string_equal(v.message, json_string_value(json_object_get(want, "error")));
		} else {
			assert_int_equal(v.status, VERDICT_OK);
			assert_true(v.score == json_number_value(want_score));
			char *got = compact(v.details);
			char *exp = compact(json_object_get(want, "preprocessStepResult"));
			assert_string_equal(got, exp);     /* same values, same key order */
			free(got);
			free(exp);
		}
		verdict_clear(&v);
		run_free(r);
		json_decref(want);
		n++;
	}
	assert_true(n >= 6);
	fclose(ef);
	dataset_close(&ds);
	config_free(&c);
	free(in);
	free(ex);
}

static void test_mastra_1x_docs(void **s)
{
	(void)s;
	check_fixture("mastra_1x_seed_examples.jsonl", "mastra_1x_seed_examples.expected.jsonl");
}

static void test_mastra_0x_docs(void **s)
{
	(void)s;
	check_fixture("mastra_0x_seed_examples.jsonl", "mastra_0x_seed_examples.expected.jsonl");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_detect),
		cmocka_unit_test(test_merge_order),
		cmocka_unit_test(test_ids_are_values),
		cmocka_unit_test(test_states_exact),
		cmocka_unit_test(test_0x_numbering),
		cmocka_unit_test(test_lists_and_errors),
		cmocka_unit_test(test_mastra_1x_docs),
		cmocka_unit_test(test_mastra_0x_docs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
