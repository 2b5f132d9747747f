/* test_record_field.c - the record-field scorer: a score the record
 * carries read on its scale (numbers, booleans, mapped and numeric
 * strings), the errors that name path and value, the configuration
 * checks with their positions, tau-bench's reward on the shared real
 * sample and an Inspect sample's scores.match.value through its loader. */
#include <math.h>

#include "fmt_files.h"

#include "config/config.h"
#include "scorers/params.h"
#include "scorers/scorer.h"
#include "verdict/scale.h"
#include "util/error.h"

static struct config cfg;

static const char yaml[] =
	"scorers:\n"
	"  - id: bin\n"                 /* 0 */
	"    type: record-field\n"
	"    path: reward\n"
	"  - id: unit\n"                /* 1 */
	"    type: record-field\n"
	"    path: info.r[0]\n"
	"    scale: 0..1\n"
	"  - id: five\n"                /* 2 */
	"    type: record-field\n"
	"    path: stars\n"
	"    scale: 1..5\n"
	"  - id: ten\n"                 /* 3 */
	"    type: record-field\n"
	"    path: points\n"
	"    scale: {min: 0, max: 10, pass: 7}\n"
	"  - id: inspect\n"             /* 4 */
	"    type: record-field\n"
	"    path: scores.match.value\n"
	"    map: {C: 1, I: 0}\n"
	"  - id: ref\n"                 /* 5 */
	"    type: record-field\n"
	"    path: {from: which}\n"
	"    scale: {from: sc}\n"
	"  - id: cont\n"                /* 6 */
	"    type: record-field\n"
	"    path: r\n"
	"    scale: {min: 0, max: 2.5, pass: 1.5}\n"
	"  - id: fivet\n"               /* 7 */
	"    type: record-field\n"
	"    path: stars\n"
	"    scale: 1..5\n"
	"    threshold: 0.7\n";

static int setup(void **state)
{
	struct error err = {0};
	if (config_load_string(&cfg, NULL, "t.yaml", ".", yaml, sizeof yaml - 1, &err) != 0)
		fail_msg("%s", err.msg);
	return fmt_files_setup(state);
}

static int teardown(void **state)
{
	config_free(&cfg);
	return fmt_files_teardown(state);
}

/* Scores the record (JSON, ' for ") with scorer i; returns the verdict. */
static struct verdict score_rec(size_t i, const char *json)
{
	char *text = fmt_quoted(json);
	json_error_t jerr;
	json_t *rec = json_loads(text, 0, &jerr);
	free(text);
	if (!rec)
		fail_msg("bad fixture: %s", jerr.text);
	struct run *r = run_new(rec, "t.jsonl", 1, -1);
	json_decref(rec);
	struct verdict v;
	scorer_run(&cfg.scorers[i], r, NULL, NULL, &v);
	run_free(r);
	return v;
}

static void want_ok(size_t i, const char *json, double score, bool passed)
{
	struct verdict v = score_rec(i, json);
	if (v.status != VERDICT_OK)
		fail_msg("%s: %s", json, v.message);
	if (fabs(v.score - score) > 1e-12)
		fail_msg("%s: score %g, want %g", json, v.score, score);
	assert_int_equal(v.passed, passed);
	verdict_clear(&v);
}

/* A skip naming what the record lacks. */
static void want_skip(size_t i, const char *json, const char *a)
{
	struct verdict v = score_rec(i, json);
	assert_int_equal(v.status, VERDICT_SKIPPED);
	if (!strstr(v.message, a))
		fail_msg("message '%s' lacks '%s'", v.message, a);
	verdict_clear(&v);
}

/* An error whose message holds each of the two texts. */
static void want_error(size_t i, const char *json, const char *a, const char *b)
{
	struct verdict v = score_rec(i, json);
	assert_int_equal(v.status, VERDICT_ERROR);
	if (!strstr(v.message, a) || (b && !strstr(v.message, b)))
		fail_msg("message '%s' lacks '%s' / '%s'", v.message, a, b ? b : "");
	verdict_clear(&v);
}

static void test_numbers_booleans(void **s)
{
	(void)s;
	want_ok(0, "{'reward': 1}", 1, true);
	want_ok(0, "{'reward': 0.0}", 0, false);
	want_ok(0, "{'reward': 1.0}", 1, true);
	want_ok(0, "{'reward': true}", 1, true);
	want_ok(0, "{'reward': false}", 0, false);
	want_ok(1, "{'info': {'r': [0.5]}}", 0.5, true);
	want_ok(1, "{'info': {'r': [0.49]}}", 0.49, false);
	want_ok(1, "{'info': {'r': [true]}}", 1, true);
}

static void test_scales(void **s)
{
	(void)s;
	/* a literal scale is the entry's own: the score is the value on it */
	want_ok(2, "{'stars': 1}", 1, false);
	want_ok(2, "{'stars': 2}", 2, false);
	want_ok(2, "{'stars': 3}", 3, true);
	want_ok(2, "{'stars': 5}", 5, true);
	want_ok(3, "{'points': 6}", 6, false);
	want_ok(3, "{'points': 7}", 7, true);
	want_ok(3, "{'points': 10}", 10, true);
	want_ok(6, "{'r': 1.49}", 1.49, false);
	want_ok(6, "{'r': 1.5}", 1.5, true);
	/* a threshold is a share of the span, at the next whole level: 1 +
	 * 0.7 * 4 = 3.8, so 4 */
	want_ok(7, "{'stars': 3}", 3, false);
	want_ok(7, "{'stars': 4}", 4, true);
	/* the details keep the value as recorded, and the pass on its scale */
	struct verdict v = score_rec(3, "{'points': 8}");
	assert_int_equal(json_integer_value(json_object_get(v.details, "value")), 8);
	assert_string_equal(json_string_value(json_object_get(v.details, "path")), "points");
	assert_true(fabs(json_number_value(json_object_get(v.details, "pass")) - 7) < 1e-9);
	struct strbuf sb = STRBUF_INIT;
	cfg.scorers[3].ops->explain(v.details, &sb);
	assert_string_equal(sb.buf, "points = 8\nscale 0..10, passes at >= 7\n");
	strbuf_release(&sb);
	verdict_clear(&v);
}

/* The entry's scale, and its threshold on it, for the screen, the labels,
 * stats and export: the one description of verdict/scale.h. */
static void test_spans(void **s)
{
	(void)s;
	static const struct { size_t i; bool own; const char *text; } want[] = {
		{ 0, true, "binary, passes at 1" },
		{ 1, true, "0..1, passes at >= 0.5" },
		{ 2, true, "1..5, passes at >= 3" },
		{ 3, true, "0..10, passes at >= 7" },
		{ 4, true, "binary, passes at 1" },
		{ 5, false, "0..1, passes at >= 0.5" },   /* by reference: brought onto 0..1 */
		{ 6, true, "0..2.5, passes at >= 1.5" },
		{ 7, true, "1..5, passes at >= 4" },
	};
	for (size_t k = 0; k < sizeof want / sizeof *want; k++) {
		const struct scorer_conf *sc = &cfg.scorers[want[k].i];
		struct scale span = scorer_span(sc);
		char text[96];
		scale_describe_pass(&span, sc->threshold, text, sizeof text);
		assert_string_equal(text, want[k].text);
		assert_int_equal(sc->own_span, want[k].own);
	}
	struct scale span = scorer_span(&cfg.scorers[2]);
	assert_int_equal(scale_levels(&span), 5);
	span = scorer_span(&cfg.scorers[3]);
	assert_true(scale_ordinal(&span));
	assert_int_equal(scale_levels(&span), 11);
	span = scorer_span(&cfg.scorers[6]);
	assert_false(scale_ordinal(&span));
	span = scorer_span(&cfg.scorers[0]);
	assert_false(scale_ordinal(&span));
	assert_int_equal(scale_levels(&span), 2);
}

static void test_strings(void **s)
{
	(void)s;
	want_ok(4, "{'scores': {'match': {'value': 'C'}}}", 1, true);
	want_ok(4, "{'scores': {'match': {'value': 'I'}}}", 0, false);
	want_ok(0, "{'reward': '1'}", 1, true);
	want_ok(0, "{'reward': ' 0 '}", 0, false);
	want_ok(1, "{'info': {'r': ['0.75']}}", 0.75, true);
	struct verdict v = score_rec(4, "{'scores': {'match': {'value': 'C'}}}");
	assert_string_equal(json_string_value(json_object_get(v.details, "value")), "C");
	assert_true(json_number_value(json_object_get(v.details, "mapped")) == 1);
	struct strbuf sb = STRBUF_INIT;
	cfg.scorers[4].ops->explain(v.details, &sb);
	assert_string_equal(sb.buf, "scores.match.value = \"C\", mapped to 1\n"
	                    "scale binary, passes at 1\n");
	strbuf_release(&sb);
	verdict_clear(&v);
}

static void test_errors(void **s)
{
	(void)s;
	/* A record without the field carries no verdict: skipped, not an error. */
	want_skip(0, "{'other': 1}", "the record has no reward");
	want_error(0, "{'reward': null}", "reward = null", "not a number");
	want_error(0, "{'reward': [1]}", "reward = [1]", "not a number");
	want_error(0, "{'reward': {'v': 1}}", "reward = {\"v\":1}", NULL);
	want_error(0, "{'reward': 'yes'}", "reward = \"yes\"", "no map");
	want_error(0, "{'reward': 'inf'}", "reward = \"inf\"", NULL);
	want_error(0, "{'reward': '0x1'}", "reward = \"0x1\"", NULL);
	want_error(4, "{'scores': {'match': {'value': 'P'}}}", "scores.match.value = \"P\"",
	           "map does not name");
	want_error(0, "{'reward': 0.5}", "reward = 0.5", "off the scale");
	want_error(0, "{'reward': 2}", "reward = 2", "off the scale");
	want_error(0, "{'reward': -1}", "reward = -1", "off the scale");
	want_error(1, "{'info': {'r': [1.5]}}", "info.r[0] = 1.5", "off the scale");
	want_error(2, "{'stars': 0}", "stars = 0", "off the scale");
	want_error(2, "{'stars': 2.5}", "stars = 2.5", "whole steps");
	want_error(3, "{'points': 11}", "points = 11", "off the scale");
	/* whole-number bounds of at most eleven levels: an integer scale */
	want_error(3, "{'points': 6.9}", "points = 6.9", "whole steps");
	want_error(6, "{'r': 2.6}", "r = 2.6", "off the scale");
	want_skip(1, "{'info': 'x'}", "the record has no info.r[0]");
}

static void test_references(void **s)
{
	(void)s;
	want_ok(5, "{'which': 'a.b', 'sc': '1..5', 'a': {'b': 4}}", 0.75, true);
	want_ok(5, "{'which': 'a', 'sc': {'min': 0, 'max': 4, 'pass': 1}, 'a': 1}", 0.25, true);
	want_error(5, "{'which': 'a', 'sc': 'stars', 'a': 1}", "unknown scale", NULL);
	want_error(5, "{'which': 'a[', 'sc': 'binary', 'a': 1}", "not a valid path", NULL);
	struct verdict v = score_rec(5, "{'sc': 'binary', 'a': 1}");
	assert_int_equal(v.status, VERDICT_SKIPPED);
	assert_non_null(strstr(v.message, "which not found"));
	verdict_clear(&v);
}

/* The configuration error of one scorer entry; its text must hold want. */
static void conf_error(const char *entry, const char *want)
{
	struct error err = {0};
	char text[1024];
	snprintf(text, sizeof text, "scorers:\n  - id: x\n    type: record-field\n%s", entry);
	struct config c;
	if (config_load_string(&c, NULL, "bad.yaml", ".", text, strlen(text), &err) == 0)
		fail_msg("accepted: %s", entry);
	if (!strstr(err.msg, want))
		fail_msg("error '%s' lacks '%s'", err.msg, want);
}

static void test_config_errors(void **s)
{
	(void)s;
	conf_error("", "bad.yaml:2:5: scorer 'x' needs 'path'");
	conf_error("    path: r\n    scale: stars\n", "bad.yaml:2:5: unknown scale");
	conf_error("    path: r\n    scale: 5\n", "bad.yaml:2:5: scale must be");
	conf_error("    path: r\n    scale: {min: 5, max: 5}\n", "bad.yaml:2:5: scale: min must be below max");
	conf_error("    path: r\n    scale: {min: 0, max: 10, pass: 11}\n", "bad.yaml:2:5: scale: pass lies outside");
	conf_error("    path: r\n    scale: {min: 0}\n", "bad.yaml:2:5: scale: a custom scale needs");
	conf_error("    path: r\n    scale: {min: 0, max: 1, step: 1}\n", "bad.yaml:2:5: scale: unknown key");
	conf_error("    path: r\n    map: {C: 2, I: 0}\n", "bad.yaml:2:5: map: a value lies off the scale");
	conf_error("    path: r\n    scale: 1..5\n    map: {C: 1.5}\n", "bad.yaml:2:5: map: a value lies off");
	conf_error("    path: r\n    map: {C: yes}\n", "bad.yaml:2:5: map: each value must be");
	conf_error("    path: r\n    map: [C]\n", "bad.yaml:5:10: wrong type for 'map'");
	conf_error("    path: 'a['\n", "bad.yaml:2:5: path is not a valid path");
	conf_error("    path: r\n    threshold: 2\n", "bad.yaml:5:16: threshold 2 is off the scale");
}

struct tau_counts {
	size_t runs, passed, failed;
};

static void tau_record(json_t *rec, const char *file, size_t line, void *ctx)
{
	struct tau_counts *n = ctx;
	struct run *r = run_new(rec, file, line, -1);
	struct error err = {0};
	if (format_load(r, NULL, &err) != 0)
		fail_msg("line %zu: %s", line, err.msg);
	struct verdict v;
	scorer_run(&cfg.scorers[0], r, NULL, NULL, &v);
	if (v.status != VERDICT_OK)
		fail_msg("line %zu: %s", line, v.message);
	assert_true(v.score == json_number_value(json_object_get(rec, "reward")));
	n->runs++;
	n->passed += v.passed;
	n->failed += !v.passed;
	verdict_clear(&v);
	run_free(r);
}

static void test_taubench_real(void **s)
{
	(void)s;
	struct tau_counts n = { 0, 0, 0 };
	fmt_each_shared_record("fixtures/real/taubench_v1_airline_sample.jsonl", tau_record, &n);
	printf("tau-bench reward: %zu of %zu runs pass\n", n.passed, n.runs);
	assert_true(n.passed > 0 && n.failed > 0);
}

#define SAMPLE(ID, VALUE)                                                                    \
	"{'id': " #ID ", 'epoch': 1, 'input': 'What is 6 x 7?', 'target': '42',"                 \
	" 'messages': [{'role': 'user', 'content': 'What is 6 x 7?'},"                          \
	"  {'role': 'assistant', 'content': '42'}],"                                            \
	" 'output': {'model': 'm', 'choices': [], 'completion': '42'},"                          \
	" 'scores': {'match': {'value': '" VALUE "', 'answer': '42'}}}"

static void test_inspect_sample(void **s)
{
	(void)s;
	struct dataset ds;
	size_t n = fmt_open(&ds, fmt_write("log.json",
		"{'version': 2, 'status': 'success', 'eval': {'eval_id': 'e1', 'task': 'mul',"
		" 'model': 'openai/m', 'dataset': {'name': 'd'}}, 'samples': ["
		SAMPLE(1, "C") "," SAMPLE(2, "I") "," SAMPLE(3, "P") "]}"));
	assert_int_equal(n, 3);
	const char *want[] = { "ok", "fail", "error" };
	for (size_t i = 0; i < n; i++) {
		struct run *r = fmt_run_at(&ds, i, "inspect");
		struct verdict v;
		scorer_run(&cfg.scorers[4], r, NULL, NULL, &v);
		const char *got = v.status == VERDICT_ERROR ? "error" : v.passed ? "ok" : "fail";
		if (strcmp(got, want[i]))
			fail_msg("sample %zu: %s (%s)", i, got, v.message ? v.message : "");
		verdict_clear(&v);
		run_free(r);
	}
	dataset_close(&ds);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers_booleans),
		cmocka_unit_test(test_scales),
		cmocka_unit_test(test_spans),
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_references),
		cmocka_unit_test(test_config_errors),
		cmocka_unit_test(test_taubench_real),
		cmocka_unit_test(test_inspect_sample),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
