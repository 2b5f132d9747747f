/* test_pairwise.c - the pairwise rubric (judge/rubric_pairwise.c) with
 * canned answers in place of a model: the prompt (the task and both runs,
 * labelled, in order), the answers read strictly (each refusal's message,
 * the raw reply kept), swap (asked twice, mapped back, the orders
 * disagreeing), the pair's cache key, and the configuration (pairwise
 * judges kept apart, swap only for them). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "judge/cache.h"
#include "judge/judge.h"
#include "runs/format.h"
#include "runs/run.h"
#include "util/error.h"

static struct config_opts test_load;
static struct config cfg;

#define RUN_A "{'id':'base-1','messages':[" \
	"{'role':'user','content':'Where is order 7?'}," \
	"{'role':'assistant','content':null,'tool_calls':[" \
	"{'id':'c1','type':'function','function':{'name':'get_order','arguments':'{\\'id\\':\\'7\\'}'}}]}," \
	"{'role':'tool','tool_call_id':'c1','content':'shipped'}," \
	"{'role':'assistant','content':'It has shipped (ANSWER-A).'}]}"

#define RUN_B "{'id':'cand-1','messages':[" \
	"{'role':'user','content':'Where is order 7?'}," \
	"{'role':'assistant','content':null,'tool_calls':[" \
	"{'id':'c1','type':'function','function':{'name':'track_parcel','arguments':'{\\'id\\':\\'7\\'}'}}]}," \
	"{'role':'tool','tool_call_id':'c1','content':'Thursday'}," \
	"{'role':'assistant','content':'It arrives Thursday (ANSWER-B).'}]}"

static const char yaml_text[] =
	"judges:\n"
	"  - id: acc\n"
	"    rubric: tool-call-accuracy-1to5\n"
	"    model: openai/m\n"
	"  - id: pj\n"
	"    rubric: pairwise\n"
	"    model: openai/m\n"
	"  - id: pj-swap\n"
	"    rubric: pairwise\n"
	"    model: anthropic/claude-m\n"
	"    swap: true\n";

static struct run *run_of(const char *text, long line)
{
	char *s = strdup(text);
	for (char *p = s; *p; p++)
		if (*p == '\'')
			*p = '"';
	json_error_t jerr;
	json_t *rec = json_loads(s, 0, &jerr);
	free(s);
	assert_non_null(rec);
	struct run *r = run_new(rec, "t.jsonl", line, -1);
	json_decref(rec);
	struct error err = {0};
	if (format_load(r, format_find("openai-chat"), &err) < 0)
		fail_msg("run does not load: %s", err.msg);
	return r;
}

static int group_setup(void **state)
{
	(void)state;
	const char *src = getenv("TCR_SRCDIR");
	test_load.datadir = src && *src ? src : ".";
	struct error err = {0};
	if (config_load_string(&cfg, &test_load, "t.yaml", ".", yaml_text, sizeof yaml_text - 1,
	                       &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		return -1;
	}
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	config_free(&cfg);
	return 0;
}

static const struct judge_conf *pair_judge(const char *id)
{
	for (size_t i = 0; i < cfg.npair_judges; i++)
		if (!strcmp(cfg.pair_judges[i].id, id))
			return &cfg.pair_judges[i];
	fail_msg("no pairwise judge %s", id);
	return NULL;
}

static void answer(struct judge_job *job, const char *text)
{
	struct judge_reply r = { .text = text, .http_status = 200, .prompt_tokens = -1,
	                         .completion_tokens = -1 };
	judge_job_take_reply(job, &r);
}

/* Runs a job on (a, b) with these answers; returns its verdict. */
static struct verdict judged(const char *id, const char *const *answers, size_t n)
{
	struct run *a = run_of(RUN_A, 1), *b = run_of(RUN_B, 2);
	struct judge_job *job = judge_job_new_pair(pair_judge(id), a, b);
	struct judge_prompt p;
	for (size_t i = 0; i < n; i++) {
		assert_true(judge_job_next_prompt(job, &p));
		answer(job, answers[i]);
	}
	assert_false(judge_job_next_prompt(job, &p));
	assert_true(judge_job_done(job));
	struct verdict v;
	judge_job_verdict(job, &v);
	judge_job_free(job);
	run_free(a);
	run_free(b);
	return v;
}

static void test_config_apart(void **state)
{
	(void)state;
	assert_int_equal(cfg.njudges, 1);
	assert_string_equal(cfg.judges[0].id, "acc");
	assert_int_equal(cfg.npair_judges, 2);
	assert_true(judge_is_pairwise(pair_judge("pj")));
	assert_false(judge_is_pairwise(&cfg.judges[0]));
	assert_false(pair_judge("pj")->swap);
	assert_true(pair_judge("pj-swap")->swap);

	static const struct { const char *yaml, *want; } bad[] = {
		{ "judges:\n  - id: a\n    rubric: tool-call-accuracy-1to5\n    model: openai/m\n"
		  "    swap: true\n", "t.yaml:5:11: 'swap' is only for pairwise judges (rubric: pairwise)" },
		{ "judges:\n  - id: a\n    rubric: pairwise\n    model: openai/m\n    swap: maybe\n",
		  "t.yaml:5:11:" },
		{ "judges:\n  - id: a\n    rubric: pairwise\n    model: openai/m\n"
		  "    examples: {k: 2, pick: recent, split: train}\n",
		  "a pairwise judge is shown no examples" },
		{ "scorers:\n  - id: a\n    type: tool-errors\njudges:\n  - id: a\n    rubric: pairwise\n"
		  "    model: openai/m\n", "duplicate id 'a'" },
		{ "judges:\n  - id: a\n    rubric: pairwise\n    model: openai/m\nscorers:\n  - id: a\n"
		  "    type: tool-errors\n", "duplicate id 'a'" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		struct config c;
		struct error err = {0};
		assert_int_equal(config_load_string(&c, &test_load, "t.yaml", ".", bad[i].yaml,
		                                    strlen(bad[i].yaml), &err), -1);
		if (!strstr(err.msg, bad[i].want))
			fail_msg("case %zu: got '%s', want '%s'", i, err.msg, bad[i].want);
	}
}

static void test_prompt(void **state)
{
	(void)state;
	struct run *a = run_of(RUN_A, 1), *b = run_of(RUN_B, 2);
	struct judge_job *job = judge_job_new_pair(pair_judge("pj"), a, b);
	struct judge_prompt p;
	assert_true(judge_job_next_prompt(job, &p));
	assert_true(p.structured);      /* openai: structured output */
	assert_non_null(p.schema);
	assert_string_equal(p.schema_name, "pairwise_preference");
	const char *task = strstr(p.user, "Where is order 7?");
	const char *ta = strstr(p.user, "Attempt A:"), *tb = strstr(p.user, "Attempt B:");
	const char *xa = strstr(p.user, "ANSWER-A"), *xb = strstr(p.user, "ANSWER-B");
	assert_non_null(task);
	assert_non_null(ta);
	assert_non_null(tb);
	assert_non_null(xa);
	assert_non_null(xb);
	/* The task, then A with the base's run, then B with the candidate's. */
	assert_true(task < ta && ta < xa && xa < tb && tb < xb);
	assert_non_null(strstr(p.user, "\"name\":\"track_parcel\""));
	assert_non_null(strstr(p.user, "\"result\":\"shipped\""));
	assert_non_null(p.system);
	judge_job_free(job);

	/* A provider without structured output gets the schema in the text;
	 * with swap the second prompt shows the candidate as A. */
	job = judge_job_new_pair(pair_judge("pj-swap"), a, b);
	assert_true(judge_job_next_prompt(job, &p));
	assert_false(p.structured);
	assert_non_null(strstr(p.user, "JSON Schema"));
	answer(job, "{\"reason\":\"r\",\"better\":\"A\"}");
	assert_true(judge_job_next_prompt(job, &p));
	assert_int_equal(p.step, 1);
	assert_true(strstr(p.user, "ANSWER-B") < strstr(p.user, "ANSWER-A"));
	judge_job_free(job);

	/* Never a judge of one run. */
	job = judge_job_new(pair_judge("pj"), a, NULL);
	assert_true(judge_job_done(job));
	struct verdict v;
	judge_job_verdict(job, &v);
	assert_int_equal(v.status, VERDICT_SKIPPED);
	verdict_clear(&v);
	judge_job_free(job);
	run_free(a);
	run_free(b);
}

static void test_answers(void **state)
{
	(void)state;
	static const struct { const char *text; enum preference want; double score; } good[] = {
		{ "{\"reason\":\"A is right\",\"better\":\"A\"}", PREF_BASE, 0 },
		{ "{\"reason\":\"B tracked it\",\"better\":\"B\"}", PREF_CAND, 1 },
		{ "```json\n{\"reason\":\"same\",\"better\":\"tie\"}\n```", PREF_TIE, 0.5 },
		{ "{\"better\":\"both-bad\",\"reason\":\"neither answered\"}", PREF_BOTH_BAD, 0 },
	};
	for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
		const char *ans[] = { good[i].text };
		struct verdict v = judged("pj", ans, 1);
		assert_int_equal(v.status, VERDICT_OK);
		assert_int_equal(judge_pair_answer(&v), good[i].want);
		assert_true(v.score == good[i].score);
		assert_string_equal(json_string_value(json_object_get(v.details, "run")), "t.jsonl:1");
		assert_string_equal(json_string_value(json_object_get(v.details, "other")), "t.jsonl:2");
		assert_non_null(judge_reason(pair_judge("pj"), &v));
		verdict_clear(&v);
	}

	/* Each unusable answer is asked again once, then is an error that
	 * says why and keeps the reply; never a guess. */
	static const struct { const char *text, *why; } bad[] = {
		{ "B is better, clearly.", "no JSON object in the answer" },
		{ "{\"reason\":\"r\",\"better\":\"b\"}",
		  "\"better\" is \"b\", not one of \"A\", \"B\", \"tie\", \"both-bad\"" },
		{ "{\"reason\":\"r\",\"better\":\"cand\"}", "\"better\" is \"cand\"" },
		{ "{\"reason\":\"r\"}", "no \"better\" (one of \"A\", \"B\", \"tie\", \"both-bad\")" },
		{ "{\"reason\":\"r\",\"better\":2}", "no \"better\"" },
		{ "{\"reason\":7,\"better\":\"A\"}", "reason is not a string" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		const char *ans[] = { bad[i].text, bad[i].text };
		struct verdict v = judged("pj", ans, 2);
		assert_int_equal(v.status, VERDICT_ERROR);
		if (!strstr(v.message, bad[i].why))
			fail_msg("case %zu: '%s' lacks '%s'", i, v.message, bad[i].why);
		assert_string_equal(json_string_value(json_object_get(v.details, "raw_reply")),
		                    bad[i].text);
		assert_int_equal(judge_pair_answer(&v), PREF_NONE);
		verdict_clear(&v);
	}
	/* A retry that answers well is used. */
	const char *retried[] = { "{\"better\":\"left\"}", "{\"reason\":\"r\",\"better\":\"B\"}" };
	struct verdict v = judged("pj", retried, 2);
	assert_int_equal(judge_pair_answer(&v), PREF_CAND);
	verdict_clear(&v);
}

static void test_swap(void **state)
{
	(void)state;
	/* Step 1 shows the candidate as A: "B" there means the base. */
	static const struct {
		const char *first, *second;
		enum preference want;
		bool disagree;
	} cases[] = {
		{ "{\"reason\":\"r\",\"better\":\"A\"}", "{\"reason\":\"r\",\"better\":\"B\"}", PREF_BASE, false },
		{ "{\"reason\":\"r\",\"better\":\"B\"}", "{\"reason\":\"r\",\"better\":\"A\"}", PREF_CAND, false },
		{ "{\"reason\":\"r\",\"better\":\"tie\"}", "{\"reason\":\"r\",\"better\":\"tie\"}", PREF_TIE, false },
		{ "{\"reason\":\"r\",\"better\":\"both-bad\"}", "{\"reason\":\"r\",\"better\":\"both-bad\"}",
		  PREF_BOTH_BAD, false },
		/* Position bias: "A" both times is base, then candidate. */
		{ "{\"reason\":\"r\",\"better\":\"A\"}", "{\"reason\":\"r\",\"better\":\"A\"}", PREF_TIE, true },
		{ "{\"reason\":\"r\",\"better\":\"B\"}", "{\"reason\":\"r\",\"better\":\"tie\"}", PREF_TIE, true },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		const char *ans[] = { cases[i].first, cases[i].second };
		struct verdict v = judged("pj-swap", ans, 2);
		assert_int_equal(v.status, VERDICT_OK);
		assert_int_equal(judge_pair_answer(&v), cases[i].want);
		assert_int_equal(json_is_true(json_object_get(v.details, "orders_disagree")),
		                 cases[i].disagree);
		const char *reason = judge_reason(pair_judge("pj-swap"), &v);
		if (cases[i].disagree)
			assert_non_null(strstr(reason, "the two orders disagreed"));
		assert_int_equal(json_array_size(json_object_get(v.details, "answers")), 2);
		verdict_clear(&v);
	}
	assert_int_equal(judge_pair_flip(PREF_BASE), PREF_CAND);
	assert_int_equal(judge_pair_flip(PREF_CAND), PREF_BASE);
	assert_int_equal(judge_pair_flip(PREF_TIE), PREF_TIE);
	assert_int_equal(judge_pair_flip(PREF_BOTH_BAD), PREF_BOTH_BAD);
}

static void test_key(void **state)
{
	(void)state;
	struct run *a = run_of(RUN_A, 1), *b = run_of(RUN_B, 2);
	char ab[17], ba[17], one[17], other[17];
	judge_cache_key_pair(a, b, pair_judge("pj"), ab);
	judge_cache_key_pair(b, a, pair_judge("pj"), ba);
	judge_cache_key(a, pair_judge("pj"), one);
	judge_cache_key_pair(a, b, pair_judge("pj-swap"), other);
	assert_string_not_equal(ab, ba);
	assert_string_not_equal(ab, one);
	assert_string_not_equal(ab, other);
	judge_cache_key_pair(a, b, pair_judge("pj"), one);
	assert_string_equal(ab, one);
	run_free(a);
	run_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config_apart),
		cmocka_unit_test(test_prompt),
		cmocka_unit_test(test_answers),
		cmocka_unit_test(test_swap),
		cmocka_unit_test(test_key),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
