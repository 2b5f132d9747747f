/* test_tool_call_accuracy.c - every case of Mastra's code scorer that the
 * reference describes, checked against the answers of the real scorer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "config/config.h"
#include "runs/format.h"
#include "util/jsonw.h"
#include "scorers/scorer.h"
#include "util/error.h"

/* Message builders for the 1.x and 0.x shapes. */
#define IN1 "[{\"id\":\"u\",\"role\":\"user\",\"content\":{\"format\":2,\"parts\":[{\"type\":\"text\",\"text\":\"hi\"}],\"content\":\"hi\"}}]"
#define IN0 "[{\"id\":\"u\",\"role\":\"user\",\"content\":\"hi\",\"parts\":[],\"toolInvocations\":[]}]"
#define MSG1(legacy, parts) "{\"id\":\"a\",\"role\":\"assistant\",\"content\":{\"format\":2,\"content\":\"ok\",\"parts\":[" parts "],\"toolInvocations\":[" legacy "]}}"
#define MSG1R(role, legacy) "{\"id\":\"a\",\"role\":\"" role "\",\"content\":{\"format\":2,\"parts\":[],\"toolInvocations\":[" legacy "]}}"
#define MSG0(invs) "{\"id\":\"a\",\"role\":\"assistant\",\"content\":\"ok\",\"parts\":[],\"toolInvocations\":[" invs "]}"
#define INV(n, id, st) "{\"toolCallId\":\"" id "\",\"toolName\":\"" n "\",\"args\":{},\"state\":\"" st "\"}"
#define INVN(n, st) "{\"toolName\":\"" n "\",\"args\":{},\"state\":\"" st "\"}"
#define PART(inv) "{\"type\":\"tool-invocation\",\"toolInvocation\":" inv "}"
#define W(id) INV("weather-tool", id, "result")
#define S(id) INV("search-tool", id, "result")
#define RUN(cfg, in, out) "{\"config\":" cfg ",\"inputMessages\":" in ",\"output\":[" out "]}"

static struct config cfg;

static int setup(void **state)
{
	(void)state;
	static const char yaml[] =
		"scorers:\n"
		"  - id: m\n"
		"    type: tool-call-accuracy\n"
		"    options: {from: config}\n";
	struct error err = {0};
	assert_int_equal(config_load_string(&cfg, NULL, "t.yaml", ".", yaml, sizeof yaml - 1, &err), 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	config_free(&cfg);
	return 0;
}

struct outcome {
	enum verdict_status status;
	double score;
	char *details;       /* compact JSON as we print it */
	char *message;
};

static struct outcome score_with(const char *record_json, const char *format)
{
	json_error_t jerr;
	json_t *rec = json_loads(record_json, 0, &jerr);
	if (!rec)
		fail_msg("bad test JSON: %s at %d: %s", jerr.text, jerr.column, record_json);
	struct run *r = run_new(rec, "t.jsonl", 1, -1);
	json_decref(rec);
	struct error err = {0};
	const struct format_ops *forced = format ? format_find(format) : NULL;
	if (format_load(r, forced, &err) < 0)
		r->load_error = run_strdup(r, err.msg);
	struct verdict v;
	scorer_run(&cfg.scorers[0], r, NULL, NULL, &v);
	struct outcome o = { v.status, v.score, NULL, v.message ? strdup(v.message) : NULL };
	if (v.details) {
		struct strbuf sb = STRBUF_INIT;
		jsonw_value(&sb, v.details);
		o.details = strbuf_detach(&sb);
	}
	verdict_clear(&v);
	run_free(r);
	return o;
}

static void outcome_free(struct outcome *o)
{
	free(o->details);
	free(o->message);
}

static void expect_score(const char *record, double score)
{
	struct outcome o = score_with(record, NULL);
	if (o.status != VERDICT_OK)
		fail_msg("status %d (%s) for %s", o.status, o.message ? o.message : "", record);
	if (o.score != score)
		fail_msg("score %g, expected %g; details %s", o.score, score, o.details);
	outcome_free(&o);
}

static void expect_tools(const char *record, const char *actual_tools_json)
{
	struct outcome o = score_with(record, NULL);
	assert_int_equal(o.status, VERDICT_OK);
	char want[1024];
	snprintf(want, sizeof want, "\"actualTools\":%s", actual_tools_json);
	if (!strstr(o.details, want))
		fail_msg("details %s lack %s", o.details, want);
	outcome_free(&o);
}

static void expect_details(const char *record, const char *format, double score, const char *details)
{
	struct outcome o = score_with(record, format);
	assert_int_equal(o.status, VERDICT_OK);
	assert_true(o.score == score);
	assert_string_equal(o.details, details);
	outcome_free(&o);
}

static void expect_error(const char *record, const char *message)
{
	struct outcome o = score_with(record, NULL);
	assert_int_equal(o.status, VERDICT_ERROR);
	assert_string_equal(o.message, message);
	outcome_free(&o);
}

#define ORDER_WS "{\"expectedToolOrder\":[\"weather-tool\",\"search-tool\"]}"
#define TOOL_W "{\"expectedTool\":\"weather-tool\"}"
#define TOOL_W_STRICT "{\"expectedTool\":\"weather-tool\",\"strictMode\":true}"

/* §8 of the reference, row by row. */
static void test_first_occurrence_trap(void **s)
{
	(void)s;
	expect_score(RUN(ORDER_WS, IN1, MSG1(S("a") "," W("b") "," S("c"), "")), 0);     /* 1 */
	expect_score(RUN(ORDER_WS, IN1, MSG1(W("a") "," W("b") "," S("c"), "")), 1);     /* 2 */
}

static void test_duplicates_in_expected(void **s)
{
	(void)s;
	expect_score(RUN("{\"expectedToolOrder\":[\"weather-tool\",\"weather-tool\"]}", IN1,
	                 MSG1(W("a") "," W("b"), "")), 0);                                  /* 3 */
	expect_score(RUN("{\"expectedToolOrder\":[\"weather-tool\",\"search-tool\",\"weather-tool\"]}", IN1,
	                 MSG1(W("a") "," S("b") "," W("c"), "")), 0);                        /* 4 */
	expect_score(RUN("{\"expectedToolOrder\":[\"weather-tool\",\"weather-tool\"],\"strictMode\":true}", IN1,
	                 MSG1(W("a") "," W("b"), "")), 1);                                  /* 5 */
}

static void test_empty_order(void **s)
{
	(void)s;
	/* 6: falls back to expectedTool, correctOrderCalled true */
	expect_details(RUN("{\"expectedTool\":\"weather-tool\",\"expectedToolOrder\":[]}", IN1,
	                   MSG1(W("a") "," S("b"), "")), NULL, 1,
	               "{\"expectedTool\":\"weather-tool\",\"actualTools\":[\"weather-tool\",\"search-tool\"],"
	               "\"strictMode\":false,\"expectedToolOrder\":[],\"hasToolCalls\":true,\"correctToolCalled\":true,"
	               "\"toolCallInfos\":[{\"toolName\":\"weather-tool\",\"toolCallId\":\"a\",\"messageIndex\":0,\"invocationIndex\":0},"
	               "{\"toolName\":\"search-tool\",\"toolCallId\":\"b\",\"messageIndex\":0,\"invocationIndex\":1}],"
	               "\"correctOrderCalled\":true}");
	/* 7: strict, [W] != [] yet score 1 */
	expect_details(RUN("{\"expectedTool\":\"weather-tool\",\"expectedToolOrder\":[],\"strictMode\":true}", IN1,
	                   MSG1(W("a"), "")), NULL, 1,
	               "{\"expectedTool\":\"weather-tool\",\"actualTools\":[\"weather-tool\"],\"strictMode\":true,"
	               "\"expectedToolOrder\":[],\"hasToolCalls\":true,\"correctToolCalled\":true,"
	               "\"toolCallInfos\":[{\"toolName\":\"weather-tool\",\"toolCallId\":\"a\",\"messageIndex\":0,\"invocationIndex\":0}],"
	               "\"correctOrderCalled\":false}");
	/* 8: empty order alone scores 0, correctOrderCalled true */
	expect_details(RUN("{\"expectedToolOrder\":[]}", IN1, MSG1(W("a"), "")), NULL, 0,
	               "{\"actualTools\":[\"weather-tool\"],\"strictMode\":false,\"expectedToolOrder\":[],"
	               "\"hasToolCalls\":true,\"correctToolCalled\":false,"
	               "\"toolCallInfos\":[{\"toolName\":\"weather-tool\",\"toolCallId\":\"a\",\"messageIndex\":0,\"invocationIndex\":0}],"
	               "\"correctOrderCalled\":true}");
}

static void test_empty_tool_name(void **s)
{
	(void)s;
	/* 9: "" with an order is accepted and echoed */
	expect_details(RUN("{\"expectedTool\":\"\",\"expectedToolOrder\":[\"weather-tool\"]}", IN1, MSG1(W("a"), "")),
	               NULL, 1,
	               "{\"expectedTool\":\"\",\"actualTools\":[\"weather-tool\"],\"strictMode\":false,"
	               "\"expectedToolOrder\":[\"weather-tool\"],\"hasToolCalls\":true,\"correctToolCalled\":false,"
	               "\"toolCallInfos\":[{\"toolName\":\"weather-tool\",\"toolCallId\":\"a\",\"messageIndex\":0,\"invocationIndex\":0}],"
	               "\"correctOrderCalled\":true}");
	/* 10: "" alone is a factory error; so are {} and {strictMode: true} */
	const char *msg = "create: Either expectedTool or expectedToolOrder must be provided";
	expect_error(RUN("{\"expectedTool\":\"\"}", IN1, MSG1(W("a"), "")), msg);
	expect_error(RUN("{}", IN1, MSG1(W("a"), "")), msg);
	expect_error(RUN("{\"strictMode\":true}", IN1, MSG1(W("a"), "")), msg);
	expect_error(RUN("{\"expectedTool\":null,\"expectedToolOrder\":null}", IN1, MSG1(W("a"), "")), msg);
}

static void test_order_beats_tool(void **s)
{
	(void)s;
	expect_score(RUN("{\"expectedTool\":\"C\",\"expectedToolOrder\":[\"A\",\"B\"]}", IN1,
	                 MSG1(INV("A", "a", "result") "," INV("B", "b", "result"), "")), 1);  /* 11 */
}

static void test_no_calls(void **s)
{
	(void)s;
	expect_details(RUN(TOOL_W, IN1, MSG1("", "")), NULL, 0,                            /* 12 */
	               "{\"expectedTool\":\"weather-tool\",\"actualTools\":[],\"strictMode\":false,"
	               "\"hasToolCalls\":false,\"correctToolCalled\":false,\"toolCallInfos\":[],"
	               "\"correctOrderCalled\":null}");
	expect_score(RUN(ORDER_WS, IN1, MSG1("", "")), 0);
}

static void test_strict_single(void **s)
{
	(void)s;
	expect_score(RUN(TOOL_W_STRICT, IN1, MSG1(W("a") "," W("b"), "")), 0);             /* 13 */
	expect_score(RUN(TOOL_W_STRICT, IN1, MSG1(W("a"), "") "," MSG1(S("b"), "")), 0);    /* 14 */
	expect_score(RUN(TOOL_W_STRICT, IN1,
	                 MSG1(W("a") "," INV("search-tool", "b", "partial-call"), "")), 1);  /* 15 */
}

static void test_states(void **s)
{
	(void)s;
	expect_score(RUN(TOOL_W, IN1, MSG1(INV("weather-tool", "a", "output-error"), "")), 1); /* 16, 1.x */
	expect_score(RUN(TOOL_W, IN0, MSG0(INV("weather-tool", "a", "output-error"))), 0);      /* 16, 0.x */
	expect_score(RUN(TOOL_W, IN1, MSG1(INV("weather-tool", "a", "Result"), "")), 0);        /* 17 */
	expect_score(RUN(TOOL_W, IN1, MSG1("{\"toolCallId\":\"a\",\"toolName\":\"weather-tool\"}", "")), 0);
	expect_score(RUN(TOOL_W, IN1, MSG1(INV("weather-tool", "a", "call"), "")), 1);
	static const char *const uncounted[] = { "partial-call", "input-streaming", "input-available",
	                                          "output-available", "", " result" };
	for (size_t i = 0; i < sizeof uncounted / sizeof *uncounted; i++) {
		char rec[2048];
		snprintf(rec, sizeof rec, RUN(TOOL_W, IN1, MSG1("{\"toolCallId\":\"a\",\"toolName\":\"weather-tool\",\"state\":\"%s\"}", "")),
		         uncounted[i]);
		expect_score(rec, 0);
	}
	expect_score(RUN(TOOL_W, IN0, MSG0(INV("weather-tool", "a", "call"))), 1);
}

static void test_part_overrides_legacy(void **s)
{
	(void)s;
	expect_score(RUN(TOOL_W, IN1, MSG1(W("c1"), PART(INV("weather-tool", "c1", "partial-call")))), 0); /* 18 */
	expect_tools(RUN(TOOL_W, IN1, MSG1(W("c1"), PART(S("c1")))), "[\"search-tool\"]");                  /* 19 */
	expect_score(RUN(TOOL_W, IN1, MSG1(W("c1"), PART(S("c1")))), 0);
}

static void test_merge_table(void **s)
{
	(void)s;
	/* 20: legacy after the last anchor goes after all parts */
	expect_score(RUN("{\"expectedToolOrder\":[\"A\",\"C\"]}", IN1,
	                 MSG1(INV("A", "a", "result") "," INV("B", "b", "result"), PART(INV("C", "c", "result")))), 0);
#define A_ INV("A", "a", "result")
#define B_ INV("B", "b", "result")
#define C_ INV("C", "c", "result")
	expect_tools(RUN(TOOL_W, IN1, MSG1(A_ "," B_, "")), "[\"A\",\"B\"]");
	expect_tools(RUN(TOOL_W, IN1, MSG1("", PART(A_) "," PART(B_))), "[\"A\",\"B\"]");
	expect_tools(RUN(TOOL_W, IN1, MSG1(A_ "," B_, PART(C_))), "[\"C\",\"A\",\"B\"]");
	expect_tools(RUN(TOOL_W, IN1, MSG1(A_ "," B_, PART(B_))), "[\"A\",\"B\"]");
	expect_tools(RUN(TOOL_W, IN1, MSG1(A_ "," B_ "," C_, PART(A_) "," PART(C_))), "[\"A\",\"B\",\"C\"]");
	expect_tools(RUN(TOOL_W, IN1, MSG1(A_ "," B_, PART(B_) "," PART(A_))), "[\"B\",\"A\"]");
	/* duplicate legacy id: the last one's position; every twin dropped */
	expect_tools(RUN(TOOL_W, IN1, MSG1(INV("A", "x", "result") "," INV("B", "y", "result") "," INV("A", "x", "result"),
	                                   PART(INV("A", "x", "result")))), "[\"B\",\"A\"]");
	/* legacy without id is never replaced; a part without id never anchors */
	expect_tools(RUN(TOOL_W, IN1, MSG1(INVN("A", "result"), PART(C_))), "[\"C\",\"A\"]");
	expect_tools(RUN(TOOL_W, IN1, MSG1(A_, PART(INVN("C", "result")))), "[\"C\",\"A\"]");
	/* ids are JavaScript values: "5" is not 5, but 5 and 5.0 are one number */
	expect_tools(RUN(TOOL_W, IN1, MSG1("{\"toolCallId\":5,\"toolName\":\"A\",\"state\":\"result\"}",
	                                   PART("{\"toolCallId\":\"5\",\"toolName\":\"B\",\"state\":\"result\"}"))),
	             "[\"B\",\"A\"]");
	expect_tools(RUN(TOOL_W, IN1, MSG1("{\"toolCallId\":5,\"toolName\":\"A\",\"state\":\"result\"}",
	                                   PART("{\"toolCallId\":5.0,\"toolName\":\"B\",\"state\":\"result\"}"))),
	             "[\"B\"]");
	/* duplicate ids among parts are all kept */
	expect_tools(RUN(TOOL_W, IN1, MSG1("", PART(W("x")) "," PART(W("x")))), "[\"weather-tool\",\"weather-tool\"]");
	/* nulls in the legacy list are dropped and use no index in 1.x */
	expect_details(RUN(TOOL_W, IN1, MSG1("null," W("a") "," INVN("search-tool", "result"), "")), NULL, 1,
	               "{\"expectedTool\":\"weather-tool\",\"actualTools\":[\"weather-tool\",\"search-tool\"],"
	               "\"strictMode\":false,\"hasToolCalls\":true,\"correctToolCalled\":true,"
	               "\"toolCallInfos\":[{\"toolName\":\"weather-tool\",\"toolCallId\":\"a\",\"messageIndex\":0,\"invocationIndex\":0},"
	               "{\"toolName\":\"search-tool\",\"toolCallId\":\"0-1\",\"messageIndex\":0,\"invocationIndex\":1}],"
	               "\"correctOrderCalled\":null}");
	/* ... but do in 0.x */
	expect_details(RUN(TOOL_W, IN0, MSG0("null," W("a") "," INVN("search-tool", "result"))), NULL, 1,
	               "{\"expectedTool\":\"weather-tool\",\"actualTools\":[\"weather-tool\",\"search-tool\"],"
	               "\"strictMode\":false,\"hasToolCalls\":true,\"correctToolCalled\":true,"
	               "\"toolCallInfos\":[{\"toolName\":\"weather-tool\",\"toolCallId\":\"a\",\"messageIndex\":0,\"invocationIndex\":1},"
	               "{\"toolName\":\"search-tool\",\"toolCallId\":\"0-2\",\"messageIndex\":0,\"invocationIndex\":2}],"
	               "\"correctOrderCalled\":null}");
}

static void test_names_exact(void **s)
{
	(void)s;
	static const char *const names[] = { "Weather-Tool", " weather-tool", "weather-tool\\t",
		"weather\\u200b-tool", "weather\\u2010tool", "weather-tool\\ufe0f" };
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		char rec[2048];
		snprintf(rec, sizeof rec, RUN(TOOL_W, IN1, MSG1("{\"toolCallId\":\"a\",\"toolName\":\"%s\",\"state\":\"result\"}", "")),
		         names[i]);
		expect_score(rec, 0);
	}
	/* escapes are decoded before comparing */
	expect_score(RUN("{\"expectedTool\":\"caf\\u00e9\"}", IN1, MSG1(INV("café", "a", "result"), "")), 1);
	/* NFC and NFD differ */
	expect_score(RUN("{\"expectedTool\":\"caf\\u00e9\"}", IN1, MSG1(INV("cafe\\u0301", "a", "result"), "")), 0);
	/* a non-string name counts but never equals a string */
	expect_tools(RUN(TOOL_W, IN1, MSG1("{\"toolCallId\":\"a\",\"toolName\":5,\"state\":\"result\"}", "")), "[5]");
}

static void test_roles_and_shapes(void **s)
{
	(void)s;
	expect_score(RUN(TOOL_W, IN1, MSG1R("user", W("a"))), 1);                          /* 22 */
	/* 23: the other version's shape finds no calls, no error */
	expect_score(RUN(TOOL_W, IN1, MSG0(W("a"))), 0);
	struct outcome o = score_with(RUN(TOOL_W, IN0, MSG1(W("a"), "")), "mastra-0x");
	assert_int_equal(o.status, VERDICT_OK);
	assert_true(o.score == 0);
	outcome_free(&o);
	o = score_with(RUN(TOOL_W, IN1, MSG0(W("a"))), "mastra-1x");
	assert_true(o.score == 0);
	outcome_free(&o);
	/* 24: AI SDK v5 parts are not read */
	expect_score(RUN(TOOL_W, IN1, "{\"role\":\"assistant\",\"content\":{\"format\":2,\"parts\":["
	                 "{\"type\":\"tool-weather-tool\",\"toolCallId\":\"a\",\"state\":\"output-available\"}]}}"), 0);
	/* 25: plain string content */
	expect_score(RUN(TOOL_W, IN1, "{\"role\":\"assistant\",\"content\":\"hi\"}"), 0);
	/* top-level parts of a 1.x message are ignored */
	expect_score(RUN(TOOL_W, IN1, "{\"role\":\"assistant\",\"content\":{\"format\":2,\"parts\":[]},"
	                 "\"parts\":[" PART(W("a")) "]}"), 0);
}

static void test_fallback_ids(void **s)
{
	(void)s;
	/* 26: msg0 text only; msg1 [S partial, W no id] */
	expect_details(RUN(TOOL_W, IN1,
	                   "{\"role\":\"assistant\",\"content\":{\"format\":2,\"content\":\"x\",\"parts\":[{\"type\":\"text\",\"text\":\"x\"}]}},"
	                   MSG1(INV("search-tool", "c1", "partial-call") "," INVN("weather-tool", "result"), "")),
	               NULL, 1,
	               "{\"expectedTool\":\"weather-tool\",\"actualTools\":[\"weather-tool\"],\"strictMode\":false,"
	               "\"hasToolCalls\":true,\"correctToolCalled\":true,"
	               "\"toolCallInfos\":[{\"toolName\":\"weather-tool\",\"toolCallId\":\"1-1\",\"messageIndex\":1,\"invocationIndex\":1}],"
	               "\"correctOrderCalled\":null}");
	/* 27: empty id */
	expect_details(RUN(TOOL_W, IN1, MSG1(INV("weather-tool", "", "result"), "")), NULL, 1,
	               "{\"expectedTool\":\"weather-tool\",\"actualTools\":[\"weather-tool\"],\"strictMode\":false,"
	               "\"hasToolCalls\":true,\"correctToolCalled\":true,"
	               "\"toolCallInfos\":[{\"toolName\":\"weather-tool\",\"toolCallId\":\"0-0\",\"messageIndex\":0,\"invocationIndex\":0}],"
	               "\"correctOrderCalled\":null}");
	/* a null message uses up its index */
	expect_tools(RUN(TOOL_W, IN1, "null," MSG1(W("a"), "")), "[\"weather-tool\"]");
	struct outcome o = score_with(RUN(TOOL_W, IN1, "null," MSG1(INVN("weather-tool", "result"), "")), NULL);
	assert_non_null(strstr(o.details, "\"toolCallId\":\"1-0\",\"messageIndex\":1"));
	outcome_free(&o);
	/* numeric ids are kept as numbers */
	o = score_with(RUN(TOOL_W, IN1, MSG1("{\"toolCallId\":7,\"toolName\":\"weather-tool\",\"state\":\"result\"}", "")), NULL);
	assert_non_null(strstr(o.details, "\"toolCallId\":7,"));
	outcome_free(&o);
}

static void test_strict_mode_truthiness(void **s)
{
	(void)s;
	expect_details(RUN("{\"expectedTool\":\"weather-tool\",\"strictMode\":\"no\"}", IN1, MSG1(W("a") "," W("b"), "")),
	               NULL, 0,
	               "{\"expectedTool\":\"weather-tool\",\"actualTools\":[\"weather-tool\",\"weather-tool\"],"
	               "\"strictMode\":\"no\",\"hasToolCalls\":true,\"correctToolCalled\":false,"
	               "\"toolCallInfos\":[{\"toolName\":\"weather-tool\",\"toolCallId\":\"a\",\"messageIndex\":0,\"invocationIndex\":0},"
	               "{\"toolName\":\"weather-tool\",\"toolCallId\":\"b\",\"messageIndex\":0,\"invocationIndex\":1}],"
	               "\"correctOrderCalled\":null}");                                    /* 28 */
	/* null is echoed as null and is not strict */
	struct outcome o = score_with(RUN("{\"expectedTool\":\"weather-tool\",\"strictMode\":null}", IN1,
	                                  MSG1(W("a") "," W("b"), "")), NULL);
	assert_true(o.score == 1);
	assert_non_null(strstr(o.details, "\"strictMode\":null"));
	outcome_free(&o);
}

static void test_run_errors(void **s)
{
	(void)s;
	const char *msg = "run: Input and output messages cannot be null or empty";
	expect_error(RUN(TOOL_W, "[]", MSG1(W("a"), "")), msg);
	expect_error("{\"config\":" TOOL_W ",\"inputMessages\":" IN1 ",\"output\":[]}", msg);
	expect_error("{\"config\":" TOOL_W ",\"inputMessages\":" IN1 "}", msg);
	expect_error("{\"config\":" TOOL_W ",\"output\":[" MSG1(W("a"), "") "]}", msg);
	/* the factory error comes first */
	expect_error("{\"config\":{},\"inputMessages\":[],\"output\":[]}",
	             "create: Either expectedTool or expectedToolOrder must be provided");
	/* the wrapped form {input: {inputMessages}} */
	expect_score("{\"config\":" TOOL_W ",\"input\":{\"inputMessages\":" IN1 ",\"rememberedMessages\":[]},"
	             "\"output\":[" MSG1(W("a"), "") "],\"runId\":\"r\"}", 1);
	/* inputs Mastra itself throws on are load errors */
	struct outcome o = score_with(RUN(TOOL_W, IN1, "{\"role\":\"assistant\",\"content\":{\"format\":2,\"parts\":[null]}}"), NULL);
	assert_int_equal(o.status, VERDICT_ERROR);
	assert_non_null(strstr(o.message, "output[0].content.parts"));
	outcome_free(&o);
	o = score_with(RUN(TOOL_W, IN1, "{\"role\":\"assistant\",\"content\":{\"format\":2,\"toolInvocations\":{}}}"), NULL);
	assert_int_equal(o.status, VERDICT_ERROR);
	outcome_free(&o);
}

static void test_docs_example(void **s)
{
	(void)s;
	/* The reference's §7 example: order mode with an extra call, flexible. */
	expect_details(RUN("{\"expectedToolOrder\":[\"auth-tool\",\"fetch-tool\"]}", IN1,
	                   MSG1(INV("auth-tool", "call-1", "result") "," INV("log-tool", "call-2", "result") ","
	                        INV("fetch-tool", "call-3", "result"), "")), NULL, 1,
	               "{\"actualTools\":[\"auth-tool\",\"log-tool\",\"fetch-tool\"],\"strictMode\":false,"
	               "\"expectedToolOrder\":[\"auth-tool\",\"fetch-tool\"],\"hasToolCalls\":true,"
	               "\"correctToolCalled\":false,\"toolCallInfos\":["
	               "{\"toolName\":\"auth-tool\",\"toolCallId\":\"call-1\",\"messageIndex\":0,\"invocationIndex\":0},"
	               "{\"toolName\":\"log-tool\",\"toolCallId\":\"call-2\",\"messageIndex\":0,\"invocationIndex\":1},"
	               "{\"toolName\":\"fetch-tool\",\"toolCallId\":\"call-3\",\"messageIndex\":0,\"invocationIndex\":2}],"
	               "\"correctOrderCalled\":true}");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_occurrence_trap),
		cmocka_unit_test(test_duplicates_in_expected),
		cmocka_unit_test(test_empty_order),
		cmocka_unit_test(test_empty_tool_name),
		cmocka_unit_test(test_order_beats_tool),
		cmocka_unit_test(test_no_calls),
		cmocka_unit_test(test_strict_single),
		cmocka_unit_test(test_states),
		cmocka_unit_test(test_part_overrides_legacy),
		cmocka_unit_test(test_merge_table),
		cmocka_unit_test(test_names_exact),
		cmocka_unit_test(test_roles_and_shapes),
		cmocka_unit_test(test_fallback_ids),
		cmocka_unit_test(test_strict_mode_truthiness),
		cmocka_unit_test(test_run_errors),
		cmocka_unit_test(test_docs_example),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
