/* test_generic_scorers.c - tool-errors and unanswered-calls, the checks
 * that need no ground truth: calls failed by the record's flag and by a
 * result's prefix, prefixes turned off or chosen, the simulated user's and
 * partial calls left out, runs with no calls and with no results at all
 * (skipped, or failed when configured), orphan results, the details and
 * explanations a reviewer reads, the call marks the timeline shows (only
 * on failed and unanswered calls, every one past the details' cap), and
 * the configuration errors with their positions. Runs are hand-written records read by their loaders. */
#include <math.h>

#include "fmt_test.h"

#include "config/config.h"
#include "scorers/params.h"
#include "scorers/scorer.h"
#include "util/strbuf.h"
#include "util/error.h"

static struct config cfg;

enum { TE, TE_OFF, TE_MINE, UC, UC_FAIL, TE_REF };

static const char yaml[] =
	"scorers:\n"
	"  - id: te\n"
	"    type: tool-errors\n"
	"  - id: te_off\n"
	"    type: tool-errors\n"
	"    error_prefixes: []\n"
	"  - id: te_mine\n"
	"    type: tool-errors\n"
	"    error_prefixes: [oops, FATAL]\n"
	"  - id: uc\n"
	"    type: unanswered-calls\n"
	"  - id: uc_fail\n"
	"    type: unanswered-calls\n"
	"    when_no_results: fail\n"
	"  - id: te_ref\n"
	"    type: tool-errors\n"
	"    error_prefixes: {from: prefixes}\n";

static int setup(void **state)
{
	(void)state;
	struct error err = {0};
	if (config_load_string(&cfg, NULL, "t.yaml", ".", yaml, sizeof yaml - 1, &err) != 0)
		fail_msg("%s", err.msg);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	config_free(&cfg);
	return 0;
}

/* An openai-chat run: the user asks, the assistant makes the calls
 * (JSON text, ' for "), the tool answers with the results after them. */
#define CALL(id, name) "{'id':'" id "','type':'function','function':{'name':'" name "','arguments':'{}'}}"
#define RESULT(id, text) ",{'role':'tool','tool_call_id':'" id "','content':'" text "'}"
#define CHAT(calls, results) \
	"{'messages':[{'role':'user','content':'book it'}," \
	"{'role':'assistant','content':null,'tool_calls':[" calls "]}" results "]}"

static struct verdict score(size_t i, struct run *r)
{
	struct verdict v;
	scorer_run(&cfg.scorers[i], r, NULL, NULL, &v);
	return v;
}

static struct verdict score_text(size_t i, const char *text, const char *format)
{
	struct run *r = fmt_load(text, format);
	struct verdict v = score(i, r);
	run_free(r);
	return v;
}

static void want_ok(const struct verdict *v, double sc, bool passed)
{
	if (v->status != VERDICT_OK)
		fail_msg("status %d: %s", v->status, v->message ? v->message : "");
	if (fabs(v->score - sc) > 1e-12)
		fail_msg("score %g, want %g", v->score, sc);
	assert_int_equal(v->passed, passed);
}

static json_int_t num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	if (!json_is_integer(v))
		fail_msg("no integer %s", key);
	return json_integer_value(v);
}

static const char *str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	if (!s)
		fail_msg("no string %s", key);
	return s;
}

/* The explanation of scorer i's verdict must hold want. */
static void want_explained(size_t i, const struct verdict *v, const char *want)
{
	struct strbuf sb = STRBUF_INIT;
	cfg.scorers[i].ops->explain(v->details, &sb);
	if (!sb.buf || !strstr(sb.buf, want))
		fail_msg("explanation '%s' lacks '%s'", sb.buf ? sb.buf : "", want);
	strbuf_release(&sb);
}

/* The verdict's call_marks must equal the JSON list want. */
static void want_marks(const struct verdict *v, const char *want)
{
	json_error_t jerr;
	json_t *w = json_loads(want, 0, &jerr);
	assert_non_null(w);
	const json_t *got = json_object_get(v->details, VERDICT_CALL_MARKS);
	if (!json_equal(got, w)) {
		char *g = json_dumps(got, JSON_ENCODE_ANY | JSON_COMPACT);
		fail_msg("call_marks %s, want %s", g ? g : "(none)", want);
	}
	json_decref(w);
}

static const char ok_run[] = CHAT(CALL("c1", "find_user") "," CALL("c2", "get_order"),
                                  RESULT("c1", "{\\'id\\': 7}") RESULT("c2", "shipped"));

static void test_none_failed(void **s)
{
	(void)s;
	struct verdict v = score_text(TE, ok_run, "openai-chat");
	want_ok(&v, 1, true);
	assert_int_equal(num(v.details, "calls"), 2);
	assert_int_equal(num(v.details, "failed"), 0);
	assert_int_equal(json_array_size(json_object_get(v.details, "failures")), 0);
	want_explained(TE, &v, "0 of 2 calls failed (0%)");
	want_marks(&v, "[]");                   /* calls that are fine are not marked */
	verdict_clear(&v);
	v = score_text(UC, ok_run, "openai-chat");
	want_ok(&v, 1, true);
	assert_int_equal(num(v.details, "answered"), 2);
	want_marks(&v, "[]");
	want_explained(UC, &v, "0 of 2 calls got no result; 0 results answer no call");
	verdict_clear(&v);
}

/* Anthropic's tool_result with is_error: failed by the record's flag,
 * whatever its text says. */
static void test_failed_by_flag(void **s)
{
	(void)s;
	static const char run[] =
		"{'messages':[{'role':'user','content':'list it'},"
		"{'role':'assistant','content':[{'type':'tool_use','id':'t1','name':'ls','input':{}},"
		"{'type':'tool_use','id':'t2','name':'cat','input':{}}]},"
		"{'role':'user','content':[{'type':'tool_result','tool_use_id':'t1','content':'a b'},"
		"{'type':'tool_result','tool_use_id':'t2','is_error':true,'content':'no such file'}]}]}";
	struct verdict v = score_text(TE, run, "anthropic");
	want_ok(&v, 0.5, false);
	assert_int_equal(num(v.details, "failed"), 1);
	json_t *f = json_array_get(json_object_get(v.details, "failures"), 0);
	assert_int_equal(num(f, "number"), 2);
	assert_int_equal(num(f, "call"), 2);
	assert_string_equal(str(f, "name"), "cat");
	assert_string_equal(str(f, "id"), "t2");
	assert_string_equal(str(f, "why"), "flagged");
	assert_string_equal(str(f, "text"), "no such file");
	assert_null(json_object_get(f, "prefix"));
	want_explained(TE, &v, "1 of 2 calls failed (50%)\n#2 cat  id t2  (the record marks it failed)\n"
	               "    no such file\n");
	want_marks(&v, "[{\"call\": 2, \"mark\": \"failed\"}]");
	verdict_clear(&v);
	/* prefixes off changes nothing for a flagged call */
	v = score_text(TE_OFF, run, "anthropic");
	want_ok(&v, 0.5, false);
	verdict_clear(&v);
}

/* tau-bench's way: an unflagged result whose text is an error. */
static const char prefix_run[] =
	CHAT(CALL("c1", "find_user") "," CALL("c2", "book") "," CALL("c3", "pay") "," CALL("c4", "ask"),
	     RESULT("c1", "\\n  error: user not found") RESULT("c2", "Errors: none")
	     RESULT("c3", "FATAL disk full") RESULT("c4", "oops, Error: late"));

static void test_failed_by_prefix(void **s)
{
	(void)s;
	struct verdict v = score_text(TE, prefix_run, "openai-chat");
	/* only c1: "Errors: none" does not begin with "Error:", c4's is not at the start */
	want_ok(&v, 0.75, false);
	assert_int_equal(num(v.details, "calls"), 4);
	assert_int_equal(num(v.details, "failed"), 1);
	json_t *f = json_array_get(json_object_get(v.details, "failures"), 0);
	assert_int_equal(num(f, "number"), 1);
	assert_string_equal(str(f, "why"), "text");
	assert_string_equal(str(f, "prefix"), "Error:");
	assert_string_equal(str(f, "text"), "   error: user not found");
	want_explained(TE, &v, "1 of 4 calls failed (25%)\n#1 find_user  id c1  (its result begins with \"Error:\")\n");
	want_marks(&v, "[{\"call\": 1, \"mark\": \"failed\"}]");
	verdict_clear(&v);
}

static void test_prefixes_off_and_chosen(void **s)
{
	(void)s;
	struct verdict v = score_text(TE_OFF, prefix_run, "openai-chat");
	want_ok(&v, 1, true);
	assert_int_equal(json_array_size(json_object_get(v.details, "prefixes")), 0);
	verdict_clear(&v);
	v = score_text(TE_MINE, prefix_run, "openai-chat");
	want_ok(&v, 0.5, false);
	json_t *list = json_object_get(v.details, "failures");
	assert_int_equal(json_array_size(list), 2);
	assert_string_equal(str(json_array_get(list, 0), "prefix"), "FATAL");
	assert_string_equal(str(json_array_get(list, 0), "name"), "pay");
	assert_string_equal(str(json_array_get(list, 1), "prefix"), "oops");
	verdict_clear(&v);
	/* from the record; a record without them is skipped, not guessed at */
	char text[2048];
	snprintf(text, sizeof text, "{'prefixes':['FATAL'],%s", prefix_run + 1);
	v = score_text(TE_REF, text, "openai-chat");
	want_ok(&v, 0.75, false);
	assert_string_equal(str(json_array_get(json_object_get(v.details, "failures"), 0), "prefix"), "FATAL");
	verdict_clear(&v);
	v = score_text(TE_REF, prefix_run, "openai-chat");
	assert_int_equal(v.status, VERDICT_SKIPPED);
	assert_non_null(strstr(v.message, "prefixes"));
	verdict_clear(&v);
}

/* The simulated user's calls and partial ones are not the agent's. */
static void test_user_and_partial_ignored(void **s)
{
	(void)s;
	struct run *r = fmt_load(prefix_run, "openai-chat");
	r->calls[0].requestor = REQ_USER;
	struct verdict v = score(TE, r);
	want_ok(&v, 1, true);
	assert_int_equal(num(v.details, "calls"), 3);
	verdict_clear(&v);
	r->calls[0].requestor = REQ_AGENT;
	r->calls[0].state = CALL_PARTIAL;
	v = score(TE, r);
	want_ok(&v, 1, true);
	assert_int_equal(num(v.details, "calls"), 3);
	verdict_clear(&v);
	/* a partial call with no result is not unanswered either */
	r->calls[3].has_result = false;
	r->calls[3].state = CALL_PARTIAL;
	v = score(UC, r);
	want_ok(&v, 1, true);
	assert_int_equal(num(v.details, "calls"), 2);
	verdict_clear(&v);
	run_free(r);
}

static void test_no_calls(void **s)
{
	(void)s;
	static const char run[] = "{'messages':[{'role':'user','content':'hi'},{'role':'assistant','content':'hello'}]}";
	struct verdict v = score_text(TE, run, "openai-chat");
	want_ok(&v, 1, true);
	assert_int_equal(num(v.details, "calls"), 0);
	want_explained(TE, &v, "the agent made no tool calls");
	verdict_clear(&v);
	v = score_text(UC, run, "openai-chat");
	want_ok(&v, 1, true);
	want_explained(UC, &v, "the agent made no tool calls");
	verdict_clear(&v);
}

/* An entry with an id and a type and nothing else loads and scores, with
 * its type's threshold 1 and its defaults. */
static void test_zero_params(void **s)
{
	(void)s;
	static const char *const types[] = { "tool-errors", "unanswered-calls" };
	for (size_t i = 0; i < 2; i++) {
		struct error err = {0};
		char text[128];
		struct config c;
		snprintf(text, sizeof text, "scorers:\n- id: x\n  type: %s\n", types[i]);
		if (config_load_string(&c, NULL, "t.yaml", ".", text, strlen(text), &err) != 0)
			fail_msg("%s", err);
		assert_int_equal(c.nscorers, 1);
		assert_true(c.scorers[0].threshold == 1);
		struct run *r = fmt_load(prefix_run, "openai-chat");
		struct verdict v;
		scorer_run(&c.scorers[0], r, NULL, NULL, &v);
		want_ok(&v, i == 0 ? 0.75 : 1, i != 0);
		verdict_clear(&v);
		run_free(r);
		config_free(&c);
	}
}

/* BFCL's or a bare API response's way: calls, and not one result. */
static void test_no_results(void **s)
{
	(void)s;
	static const char run[] = CHAT(CALL("c1", "area") "," CALL("c2", "volume"), "");
	struct verdict v = score_text(TE, run, "openai-chat");
	assert_int_equal(v.status, VERDICT_SKIPPED);
	assert_non_null(strstr(v.message, "2 calls and not one result"));
	verdict_clear(&v);
	v = score_text(UC, run, "openai-chat");
	assert_int_equal(v.status, VERDICT_SKIPPED);
	assert_non_null(strstr(v.message, "when_no_results: fail"));
	verdict_clear(&v);
	v = score_text(UC_FAIL, run, "openai-chat");
	want_ok(&v, 0, false);
	assert_int_equal(num(v.details, "unanswered"), 2);
	verdict_clear(&v);
}

/* A call left unanswered and a result naming an id no call has. */
static void test_orphans(void **s)
{
	(void)s;
	static const char run[] = CHAT(CALL("c1", "find_user") "," CALL("c2", "book"),
	                               RESULT("c1", "found") RESULT("zz", "who asked?"));
	struct verdict v = score_text(UC, run, "openai-chat");
	want_ok(&v, 1.0 / 3.0, false);
	assert_int_equal(num(v.details, "calls"), 2);
	assert_int_equal(num(v.details, "answered"), 1);
	assert_int_equal(num(v.details, "orphans"), 1);
	json_t *c = json_array_get(json_object_get(v.details, "unanswered_calls"), 0);
	assert_int_equal(num(c, "number"), 2);
	assert_string_equal(str(c, "name"), "book");
	assert_string_equal(str(c, "id"), "c2");
	assert_int_equal(num(c, "message"), 1);
	json_t *o = json_array_get(json_object_get(v.details, "orphan_results"), 0);
	assert_int_equal(num(o, "message"), 3);
	assert_string_equal(str(o, "id"), "zz");
	want_explained(UC, &v, "1 of 2 calls got no result; 1 result answers no call\n"
	               "no result  #2 book  id c2  (message 1)\n"
	               "no call    result in message 3 names id zz, which no earlier unanswered call has\n");
	want_marks(&v, "[{\"call\": 2, \"mark\": \"no-result\"}]");   /* the orphan has no call to mark */
	verdict_clear(&v);
	/* only orphans, no call: results were kept, so not skipped */
	static const char alone[] = "{'messages':[{'role':'user','content':'hi'}" RESULT("zz", "x") "]}";
	v = score_text(UC_FAIL, alone, "openai-chat");
	want_ok(&v, 0, false);
	verdict_clear(&v);
	/* tool-errors reads only calls: the orphan does not fail anything */
	v = score_text(TE, run, "openai-chat");
	want_ok(&v, 1, true);
	verdict_clear(&v);
}

/* The numbers are the timeline's: a call with no name is not numbered
 * there (shown with a dot), and the next call is its #1. */
static void test_timeline_numbers(void **s)
{
	(void)s;
	static const char run[] = CHAT(CALL("c1", "") "," CALL("c2", "ok"), RESULT("c1", "oops: no"));
	struct verdict v = score_text(TE_MINE, run, "openai-chat");
	want_ok(&v, 0.5, false);
	json_t *f = json_array_get(json_object_get(v.details, "failures"), 0);
	assert_int_equal(num(f, "number"), 0);
	assert_int_equal(num(f, "call"), 1);
	assert_string_equal(str(f, "name"), "(no name)");
	want_explained(TE_MINE, &v, "\xc2\xb7 (no name)  id c1  (its result begins with \"oops\")");
	verdict_clear(&v);
	v = score_text(UC, run, "openai-chat");
	want_ok(&v, 0.5, false);
	want_explained(UC, &v, "no result  #1 ok  id c2  (message 1)\n");
	verdict_clear(&v);
}

/* A long, multi-line error text is cut to 200 characters on one line. */
static void test_long_text(void **s)
{
	(void)s;
	char text[2048], res[700];
	memset(res, 0, sizeof res);
	strcpy(res, "Error: \\u00e9");
	for (size_t i = strlen(res); i < 600; i += 2)
		memcpy(res + i, "\\n", 2);
	snprintf(text, sizeof text, CHAT(CALL("c1", "run"), RESULT("c1", "%s")), res);
	struct verdict v = score_text(TE, text, "openai-chat");
	want_ok(&v, 0, false);
	const char *t = str(json_array_get(json_object_get(v.details, "failures"), 0), "text");
	assert_int_equal(strlen(t), 200 + 1 + 3);     /* é is two bytes */
	assert_null(strchr(t, '\n'));
	assert_string_equal(t + strlen(t) - 3, "...");
	verdict_clear(&v);
}

/* 60 failed calls, 60 unanswered: the details list 50 of each, the
 * timeline's marks name every one. */
static void test_marks_past_the_cap(void **s)
{
	(void)s;
	struct strbuf calls = STRBUF_INIT, results = STRBUF_INIT, text = STRBUF_INIT;
	for (int i = 0; i < 120; i++) {
		strbuf_addf(&calls, "%s{'id':'c%d','type':'function','function':{'name':'f','arguments':'{}'}}",
		            i ? "," : "", i);
		if (i < 60)
			strbuf_addf(&results, ",{'role':'tool','tool_call_id':'c%d','content':'Error: %d'}", i, i);
	}
	strbuf_addf(&text, "{'messages':[{'role':'user','content':'go'},"
	            "{'role':'assistant','content':null,'tool_calls':[%s]}%s]}", calls.buf, results.buf);
	struct run *r = fmt_load(text.buf, "openai-chat");
	struct verdict v = score(TE, r);
	want_ok(&v, 0.5, false);
	assert_int_equal(json_array_size(json_object_get(v.details, "failures")), 50);
	const json_t *marks = json_object_get(v.details, VERDICT_CALL_MARKS);
	assert_int_equal(json_array_size(marks), 60);
	assert_int_equal(num(json_array_get(marks, 59), "call"), 60);
	assert_string_equal(str(json_array_get(marks, 59), "mark"), "failed");
	verdict_clear(&v);
	v = score(UC, r);
	want_ok(&v, 0.5, false);
	assert_int_equal(json_array_size(json_object_get(v.details, "unanswered_calls")), 50);
	marks = json_object_get(v.details, VERDICT_CALL_MARKS);
	assert_int_equal(json_array_size(marks), 60);
	assert_int_equal(num(json_array_get(marks, 0), "call"), 61);
	assert_int_equal(num(json_array_get(marks, 59), "call"), 120);
	assert_string_equal(str(json_array_get(marks, 0), "mark"), "no-result");
	verdict_clear(&v);
	run_free(r);
	strbuf_release(&calls);
	strbuf_release(&results);
	strbuf_release(&text);
}

/* The configuration error of one entry; its text must hold want. */
static void conf_error(const char *type, const char *entry, const char *want)
{
	struct error err = {0};
	char text[1024];
	snprintf(text, sizeof text, "scorers:\n  - id: x\n    type: %s\n%s", type, entry);
	struct config c;
	if (config_load_string(&c, NULL, "bad.yaml", ".", text, strlen(text), &err) == 0) {
		config_free(&c);
		fail_msg("accepted: %s", entry);
	}
	if (!strstr(err.msg, want))
		fail_msg("error '%s' lacks '%s'", err.msg, want);
}

static void test_config_errors(void **s)
{
	(void)s;
	conf_error("tool-errors", "    error_prefixes: Error\n", "bad.yaml:4:21: wrong type for 'error_prefixes'");
	conf_error("tool-errors", "    error_prefixes: [Error, 3]\n", "bad.yaml:4:29: wrong type for 'error_prefixes'");
	conf_error("tool-errors", "    error_prefixes: ['']\n", "bad.yaml:2:5: error_prefixes: an empty prefix");
	conf_error("tool-errors", "    error_prefixes: null\n", "bad.yaml:2:5: error_prefixes must be a list");
	conf_error("unanswered-calls", "    when_no_results: maybe\n", "bad.yaml:2:5: when_no_results must be skip or fail");
	conf_error("unanswered-calls", "    when_no_results: [skip]\n", "bad.yaml:4:22: wrong type for 'when_no_results'");
	conf_error("tool-errors", "    threshold: 2\n", "bad.yaml:4:16: threshold 2 is off the scale");
	conf_error("tool-errors", "    prefixes: [x]\n", "bad.yaml:4:5:");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_none_failed),
		cmocka_unit_test(test_failed_by_flag),
		cmocka_unit_test(test_failed_by_prefix),
		cmocka_unit_test(test_prefixes_off_and_chosen),
		cmocka_unit_test(test_user_and_partial_ignored),
		cmocka_unit_test(test_no_calls),
		cmocka_unit_test(test_zero_params),
		cmocka_unit_test(test_no_results),
		cmocka_unit_test(test_orphans),
		cmocka_unit_test(test_timeline_numbers),
		cmocka_unit_test(test_long_text),
		cmocka_unit_test(test_marks_past_the_cap),
		cmocka_unit_test(test_config_errors),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
