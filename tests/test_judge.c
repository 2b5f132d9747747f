/* test_judge.c - rubrics, prompts and the job state machine of the LLM
 * judges, with canned answers in place of a model.
 *
 * Fixtures are written with ' for " (fmt_parse turns them back), so runs
 * read as JSON inside C strings. The built-in prompts come from the source
 * tree's prompts/ (TCR_SRCDIR, set by make check); custom prompt files are
 * written to a temporary folder. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/config.h"
#include "runs/format.h"
#include "judge/batch.h"
#include "judge/judge.h"
#include "util/jsonw.h"
#include "judge/prompt.h"
#include "runs/run.h"
#include "util/strbuf.h"
#include "../src/judge/judge_int.h"
#include "util/error.h"

/* What the configurations are loaded with (the data folder of the
 * built-in prompts), as a command lends it. */
static struct config_opts test_load;

/* ---- fixtures ------------------------------------------------------------ */

#define TOOLS "'tools':[{'type':'function','function':{'name':'weather','description':'Current weather for a city','parameters':{'type':'object'}}},{'type':'function','function':{'name':'search','description':'Search the web'}}]"

/* Three calls: weather, search, weather again. */
#define RUN_WEATHER "{'id':'r-1','messages':[" \
	"{'role':'user','content':'What is the weather in Paris?'}," \
	"{'role':'assistant','content':null,'tool_calls':[" \
	"{'id':'c1','type':'function','function':{'name':'weather','arguments':'{\\'city\\':\\'Paris\\'}'}}," \
	"{'id':'c2','type':'function','function':{'name':'search','arguments':'{}'}}," \
	"{'id':'c3','type':'function','function':{'name':'weather','arguments':'{\\'city\\':\\'Paris\\'}'}}]}," \
	"{'role':'tool','tool_call_id':'c1','content':'sunny, 21 C'}," \
	"{'role':'tool','tool_call_id':'c2','content':'no results'}," \
	"{'role':'tool','tool_call_id':'c3','content':'sunny'}," \
	"{'role':'assistant','content':'It is sunny in Paris.'}]," TOOLS "}"

#define RUN_NO_CALLS "{'id':'r-2','messages':[" \
	"{'role':'user','content':'Book it'}," \
	"{'role':'assistant','content':'What would you like me to book?'}]," TOOLS "}"

#define RUN_NO_DEFS "{'id':'r-3','messages':[" \
	"{'role':'user','content':'Weather in Rome?'}," \
	"{'role':'assistant','content':null,'tool_calls':[" \
	"{'id':'c1','type':'function','function':{'name':'weather','arguments':'{}'}}]}," \
	"{'role':'assistant','content':'Sunny.'}]}"

/* The run stops on a call still waiting for its tool. */
#define RUN_WAITING "{'id':'r-5','messages':[" \
	"{'role':'user','content':'Weather in Rome?'}," \
	"{'role':'assistant','content':'Let me look.','tool_calls':[" \
	"{'id':'c1','type':'function','function':{'name':'weather','arguments':'{}'}}]}]," TOOLS "}"

/* A call of a tool the definitions do not have. */
#define RUN_UNDEFINED "{'id':'r-4','messages':[" \
	"{'role':'user','content':'Weather in Rome?'}," \
	"{'role':'assistant','content':null,'tool_calls':[" \
	"{'id':'c1','type':'function','function':{'name':'forecast','arguments':'{}'}}]}," \
	"{'role':'assistant','content':'Sunny.'}]," TOOLS "}"

static const char yaml_text[] =
	"judges:\n"
	"  - id: appr\n"
	"    rubric: tool-appropriateness\n"
	"    model: openai/gpt-4o-mini\n"
	"  - id: appr-claude\n"
	"    rubric: tool-appropriateness\n"
	"    model: anthropic/claude-sonnet\n"
	"    tools: [{name: weather, description: Weather now}]\n"
	"  - id: acc\n"
	"    rubric: tool-call-accuracy-1to5\n"
	"    model: azure/my-deployment\n"
	"    endpoint: https://example.openai.azure.com\n"
	"    api_version: \"2024-10-21\"\n"
	"  - id: acc5\n"
	"    rubric: tool-call-accuracy-1to5\n"
	"    model: openai/gpt-4o\n"
	"    threshold: 5\n"
	"  - id: help\n"
	"    rubric: custom\n"
	"    model: ollama/llama3\n"
	"    prompt_file: help.txt\n"
	"    scale: {min: 1, max: 5, pass: 4}\n";

static const char help_prompt[] =
	"# rates helpfulness\n"
	"=== system\n"
	"Rate from {{min}} to {{max}}; {{pass}} passes.\n"
	"=== user\n"
	"Request: {{input}}\n"
	"Answer: {{output}}\n"
	"Calls: {{tool_calls}}\n"
	"Tools: {{tools}}\n"
	"Expected: {{expected}}\n";

static char tmpdir[64];
static struct config cfg;

static json_t *parse_q(const char *text)
{
	char *s = strdup(text);
	assert_non_null(s);
	for (char *p = s; *p; p++)
		if (*p == '\'')
			*p = '"';
	json_error_t jerr;
	json_t *v = json_loads(s, JSON_DECODE_ANY, &jerr);
	if (!v)
		fail_msg("fixture does not parse: %s at %d: %s", jerr.text, jerr.column, s);
	free(s);
	return v;
}

static struct run *run_of(const char *text)
{
	json_t *rec = parse_q(text);
	struct run *r = run_new(rec, "t.jsonl", 1, -1);
	json_decref(rec);
	struct error err = {0};
	if (format_load(r, format_find("openai-chat"), &err) < 0)
		fail_msg("run does not load: %s", err.msg);
	return r;
}

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[256];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int group_setup(void **state)
{
	(void)state;
	const char *src = getenv("TCR_SRCDIR");
	test_load.datadir = src && *src ? src : ".";
	snprintf(tmpdir, sizeof tmpdir, "/tmp/tcr-judge-XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	write_file(tmpdir, "help.txt", help_prompt);
	struct error err = {0};
	if (config_load_string(&cfg, &test_load, "t.yaml", tmpdir, yaml_text, sizeof yaml_text - 1, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		return -1;
	}
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	config_free(&cfg);
	char path[256];
	snprintf(path, sizeof path, "%s/help.txt", tmpdir);
	unlink(path);
	rmdir(tmpdir);
	test_load.datadir = NULL;
	return 0;
}

static const struct judge_conf *judge_named(const char *id)
{
	for (size_t i = 0; i < cfg.njudges; i++)
		if (strcmp(cfg.judges[i].id, id) == 0)
			return &cfg.judges[i];
	fail_msg("no judge %s", id);
	return NULL;
}

static void answer(struct judge_job *job, const char *text)
{
	struct judge_reply r = {
		.text = text, .http_status = 200,
		.prompt_tokens = 100, .completion_tokens = 20, .seconds = 0.25,
	};
	judge_job_take_reply(job, &r);
}

static char *dump(const json_t *v)
{
	struct strbuf sb = STRBUF_INIT;
	jsonw_value(&sb, v);
	return strbuf_detach(&sb);
}

static void assert_keys(const json_t *o, const char *const *keys)
{
	void *it = json_object_iter((json_t *)o);
	size_t i = 0;
	for (; it; it = json_object_iter_next((json_t *)o, it), i++) {
		if (!keys[i])
			fail_msg("extra key %s", json_object_iter_key(it));
		assert_string_equal(json_object_iter_key(it), keys[i]);
	}
	if (keys[i])
		fail_msg("missing key %s", keys[i]);
}

/* Runs a whole appropriateness job with this analysis; returns the score. */
static double appr_score_with(const char *analysis)
{
	struct run *r = run_of(RUN_WEATHER);
	struct judge_job *job = judge_job_new(judge_named("appr"), r, NULL);
	struct judge_prompt p;
	assert_true(judge_job_next_prompt(job, &p));
	answer(job, analysis);
	assert_true(judge_job_next_prompt(job, &p));
	assert_int_equal(p.step, 1);
	answer(job, "Because.");
	assert_true(judge_job_done(job));
	struct verdict v;
	judge_job_verdict(job, &v);
	assert_int_equal(v.status, VERDICT_OK);
	double s = v.score;
	verdict_clear(&v);
	judge_job_free(job);
	run_free(r);
	return s;
}

/* ---- rounding and reply parsing --------------------------------------- */

static void test_round2(void **state)
{
	(void)state;
	assert_true(judge_round2(2.0 / 3) == 0.67);
	assert_true(judge_round2(1.0 / 8) == 0.13);
	assert_true(judge_round2(5.0 / 8) == 0.63);
	assert_true(judge_round2(1.0 / 12) == 0.08);
	/* 14.499999... without the epsilon; Mastra gets 0.15. */
	assert_true(judge_round2(29.0 / 200) == 0.15);
	assert_true(judge_round2(0) == 0);
	assert_true(judge_round2(1) == 1);
	assert_true(judge_round2(0.5) == 0.5);
	struct strbuf sb = STRBUF_INIT;
	jsonw_number(&sb, judge_round2(2.0 / 3));
	assert_string_equal(sb.buf, "0.67");
	strbuf_release(&sb);
}

static void assert_reply(const char *text, const char *want)
{
	json_t *v = judge_reply_json(text);
	const char *shown = text ? text : "(null)";
	if (!want) {
		if (v)
			fail_msg("expected no JSON in: %s", shown);
		return;
	}
	if (!v)
		fail_msg("no JSON found in: %s", shown);
	char *s = dump(v);
	assert_string_equal(s, want);
	free(s);
	json_decref(v);
}

static void test_reply_json(void **state)
{
	(void)state;
	assert_reply("{\"a\": 1}", "{\"a\":1}");
	assert_reply("  \n{\"a\": 1}\n", "{\"a\":1}");
	assert_reply("```json\n{\"a\": [1, 2]}\n```", "{\"a\":[1,2]}");
	assert_reply("Here you are:\n```JSON\n{\"a\": 2}\n```\nHope it helps.", "{\"a\":2}");
	assert_reply("```\n{\"a\": 3}\n```", "{\"a\":3}");
	assert_reply("The verdict is {\"score\": 4, \"reason\": \"ok\"} as asked.",
	             "{\"score\":4,\"reason\":\"ok\"}");
	/* Braces inside strings do not end the object. */
	assert_reply("Sure! {\"reason\": \"a } and a { here\", \"n\": {\"x\": \"\\\"}\"}} done",
	             "{\"reason\":\"a } and a { here\",\"n\":{\"x\":\"\\\"}\"}}");
	/* A broken candidate first, then the real one. */
	assert_reply("{oops} then {\"a\": 5}", "{\"a\":5}");
	assert_reply("no json here", NULL);
	assert_reply("[1, 2, 3]", NULL);
	assert_reply("{\"a\": ", NULL);
	assert_reply("", NULL);
	assert_reply(NULL, NULL);
}

/* ---- prompt files --------------------------------------------------------- */

static void test_prompt_sections(void **state)
{
	(void)state;
	struct prompt_doc doc;
	int line, col;
	struct error err = {0};
	const char *text =
		"# note\n"
		"\n"
		"=== system\n"
		"Be strict.\n"
		"\n"
		"=== analyse  \n"
		"\n"
		"Request: {{input}}\n"
		"=== reason\n"
		"Score {{ score }}.\n\n";
	assert_int_equal(prompt_parse(text, &doc, &line, &col, &err), 0);
	assert_int_equal(doc.n, 3);
	const struct prompt_section *s = prompt_find(&doc, "analyse");
	assert_non_null(s);
	assert_int_equal(s->line, 8);
	assert_int_equal(s->header_line, 6);
	assert_int_equal(s->len, strlen("Request: {{input}}"));
	assert_memory_equal(s->text, "Request: {{input}}", s->len);
	s = prompt_find(&doc, "system");
	assert_int_equal(s->len, strlen("Be strict."));
	assert_true(prompt_uses(prompt_find(&doc, "reason"), "score"));
	assert_false(prompt_uses(prompt_find(&doc, "reason"), "input"));

	/* Without headers the whole file is the user prompt, '#' lines too. */
	assert_int_equal(prompt_parse("\n# Title\nRate {{output}}.\n", &doc, &line, &col, &err), 0);
	assert_int_equal(doc.n, 1);
	assert_string_equal(doc.sec[0].name, "user");
	assert_int_equal(doc.sec[0].line, 2);
	assert_memory_equal(doc.sec[0].text, "# Title\nRate {{output}}.", doc.sec[0].len);

	assert_int_equal(prompt_parse("hello\n=== user\nx\n", &doc, &line, &col, &err), -1);
	assert_int_equal(line, 1);
	assert_int_equal(col, 1);
	assert_non_null(strstr(err.msg, "text before the first section header"));
	assert_int_equal(prompt_parse("=== user\nx\n=== user\ny\n", &doc, &line, &col, &err), -1);
	assert_int_equal(line, 3);
	assert_string_equal(err.msg, "section 'user' appears twice");
}

static void test_prompt_render(void **state)
{
	(void)state;
	struct prompt_doc doc;
	int line, col;
	struct error err = {0};
	const char *text = "=== user\nA {{input}} B {{ output }} C {{unknown}} D {{ {{input}}} {x}\n";
	assert_int_equal(prompt_parse(text, &doc, &line, &col, &err), 0);
	struct prompt_var vars[] = {
		/* Values are pasted raw and never expanded again. */
		{ "input", "\"{{output}}\"\n" },
		{ "output", NULL },
	};
	char *s = prompt_render(&doc.sec[0], vars, 2);
	assert_string_equal(s, "A \"{{output}}\"\n B  C {{unknown}} D {{ \"{{output}}\"\n} {x}");
	free(s);

	char h1[17], h2[17];
	prompt_hash("abc", h1);
	prompt_hash("abd", h2);
	assert_int_equal(strlen(h1), 16);
	assert_string_not_equal(h1, h2);
}

static void test_prompt_check(void **state)
{
	(void)state;
	const struct rubric_ops *appr = rubric_find("tool-appropriateness");
	const struct rubric_ops *custom = rubric_find("custom");
	assert_non_null(appr);
	assert_non_null(custom);
	assert_null(rubric_find("nope"));
	int line, col;
	struct error err = {0};

	assert_int_equal(rubric_check_prompt(appr, "=== analyse\n{{input}}\n=== reason\n{{score}}\n",
	                                     &line, &col, &err), 0);
	assert_int_equal(rubric_check_prompt(appr, "=== analyse\nx\n", &line, &col, &err), -1);
	assert_int_equal(line, 0);
	assert_string_equal(err.msg, "no '=== reason' section (rubric 'tool-appropriateness' needs it)");
	assert_int_equal(rubric_check_prompt(appr, "=== analyse\nx\n=== reason\ny\n=== extra\nz\n",
	                                     &line, &col, &err), -1);
	assert_int_equal(line, 5);
	assert_int_equal(col, 5);
	assert_string_equal(err.msg, "unknown section 'extra' for rubric 'tool-appropriateness' "
	                         "(expected: system, analyse, reason)");
	assert_int_equal(rubric_check_prompt(appr, "=== analyse\nok\n  é {{inptu}}\n=== reason\ny\n",
	                                     &line, &col, &err), -1);
	assert_int_equal(line, 3);
	assert_int_equal(col, 5);
	assert_non_null(strstr(err.msg, "unknown placeholder '{{inptu}}' (known: input, output,"));
	/* {{min}} belongs to custom prompts only. */
	assert_int_equal(rubric_check_prompt(custom, "Rate {{output}} from {{min}} to {{max}}.",
	                                     &line, &col, &err), 0);
	assert_int_equal(rubric_check_prompt(appr, "=== analyse\n{{min}}\n=== reason\n",
	                                     &line, &col, &err), -1);
	assert_int_equal(rubric_check_prompt(appr, "just text {{input}}", &line, &col, &err), -1);
	assert_non_null(strstr(err.msg, "no '=== analyse' section"));

	/* The built-in prompts pass their own rubric's check. */
	for (size_t i = 0; rubric_table[i]; i++) {
		if (!rubric_table[i]->prompt_file)
			continue;
		char *path = prompt_builtin_path(test_load.datadir, rubric_table[i]->prompt_file), *text;
		assert_int_equal(prompt_read(path, &text, &err), 0);
		if (rubric_check_prompt(rubric_table[i], text, &line, &col, &err) < 0)
			fail_msg("%s:%d:%d: %s", path, line, col, err);
		free(text);
		free(path);
	}
}

static void test_tool_list_shapes(void **state)
{
	(void)state;
	const char *records[] = {
		/* OpenAI chat */
		"{'messages':[{'role':'user','content':'x'}],'tools':[{'type':'function','function':{'name':'a','description':'A','parameters':{'type':'object'}}}]}",
		/* Responses, Anthropic, Mastra's id, an Azure OpenAPI bundle */
		"{'messages':[{'role':'user','content':'x'}],'tools':[{'type':'function','name':'a','description':'A'},"
		"{'name':'b','description':'B','input_schema':{'type':'object'}},{'id':'c','description':'C'},"
		"{'type':'openapi','functions':[{'name':'d','description':'D'}]},{'type':'code_interpreter'}]}",
	};
	const char *want[] = {
		"[{\"name\":\"a\",\"description\":\"A\",\"parameters\":{\"type\":\"object\"}}]",
		"[{\"name\":\"a\",\"description\":\"A\"},{\"name\":\"b\",\"description\":\"B\",\"parameters\":{\"type\":\"object\"}},"
		"{\"name\":\"c\",\"description\":\"C\"},{\"name\":\"d\",\"description\":\"D\"}]",
	};
	for (size_t i = 0; i < 2; i++) {
		json_t *rec = parse_q(records[i]);
		struct run *r = run_new(rec, "t.jsonl", 1, -1);
		json_decref(rec);
		r->tool_defs = jv_get(r->doc, run_root(r), "tools");
		json_t *list = judge_tool_list(NULL, r);
		char *s = dump(list);
		assert_string_equal(s, want[i]);
		free(s);
		json_decref(list);
		run_free(r);
	}
}

/* ---- tool-appropriateness --------------------------------------------------- */

static void test_appr_steps(void **state)
{
	(void)state;
	const struct judge_conf *j = judge_named("appr");
	struct run *r = run_of(RUN_WEATHER);
	struct judge_job *job = judge_job_new(j, r, NULL);
	run_free(r);            /* the job has copied what it needs */
	assert_false(judge_job_done(job));

	struct judge_prompt p;
	assert_true(judge_job_next_prompt(job, &p));
	assert_int_equal(p.step, 0);
	assert_true(p.structured);
	assert_non_null(p.schema);
	assert_string_equal(p.schema_name, "tool_appropriateness");
	assert_non_null(p.system);
	assert_non_null(strstr(p.system, "strict and literal"));
	assert_non_null(strstr(p.user, "What is the weather in Paris?"));
	assert_non_null(strstr(p.user, "weather: Current weather for a city\nsearch: Search the web"));
	assert_non_null(strstr(p.user, "in order: weather, search, weather\n"));
	assert_non_null(strstr(p.user, "It is sunny in Paris."));
	assert_null(strstr(p.user, "{{"));
	/* Structured output carries the schema; the prompt need not. */
	assert_null(strstr(p.user, "JSON Schema"));

	answer(job, "{\"evaluations\": ["
	            "{\"toolCalled\": \"weather\", \"wasAppropriate\": true, \"reasoning\": \"asked\"},"
	            "{\"toolCalled\": \"search\", \"wasAppropriate\": false, \"reasoning\": \"not asked\"},"
	            "{\"toolCalled\": \"weather\", \"wasAppropriate\": true, \"reasoning\": \"again\"}],"
	            " \"missingTools\": []}");
	assert_false(judge_job_done(job));
	assert_true(judge_job_next_prompt(job, &p));
	assert_int_equal(p.step, 1);
	assert_null(p.schema);
	assert_false(p.structured);
	assert_non_null(strstr(p.user, "The score is 0.67,"));
	assert_non_null(strstr(p.user, "[{\"toolCalled\":\"weather\",\"wasAppropriate\":true,\"reasoning\":\"asked\"},"));
	assert_non_null(strstr(p.user, "never called: []"));
	assert_non_null(strstr(p.user, "What is the weather in Paris?"));

	answer(job, "  Two of the three calls served the weather request.\n");
	assert_true(judge_job_done(job));
	assert_false(judge_job_next_prompt(job, &p));

	struct verdict v;
	judge_job_verdict(job, &v);
	assert_int_equal(v.status, VERDICT_OK);
	assert_true(v.score == 0.67);
	assert_true(v.passed);
	static const char *const keys[] = {
		"score", "reason", "preprocessStepResult", "analyzeStepResult", "analyzePrompt",
		"generateReasonPrompt", "model", "prompt_hash", "usage", NULL,
	};
	assert_keys(v.details, keys);
	assert_string_equal(json_string_value(json_object_get(v.details, "reason")),
	                    "Two of the three calls served the weather request.");
	char *s = dump(json_object_get(v.details, "preprocessStepResult"));
	assert_string_equal(s, "{\"actualTools\":[\"weather\",\"search\",\"weather\"],\"hasToolCalls\":true,"
	                       "\"toolCallInfos\":["
	                       "{\"toolName\":\"weather\",\"toolCallId\":\"c1\",\"messageIndex\":1,\"invocationIndex\":0},"
	                       "{\"toolName\":\"search\",\"toolCallId\":\"c2\",\"messageIndex\":1,\"invocationIndex\":1},"
	                       "{\"toolName\":\"weather\",\"toolCallId\":\"c3\",\"messageIndex\":1,\"invocationIndex\":2}]}");
	free(s);
	s = dump(json_object_get(v.details, "score"));
	assert_string_equal(s, "0.67");
	free(s);
	assert_non_null(json_object_get(json_object_get(v.details, "analyzeStepResult"), "missingTools"));
	assert_non_null(strstr(json_string_value(json_object_get(v.details, "analyzePrompt")),
	                       "What is the weather in Paris?"));
	assert_non_null(strstr(json_string_value(json_object_get(v.details, "generateReasonPrompt")),
	                       "0.67"));
	assert_string_equal(json_string_value(json_object_get(v.details, "model")), "openai/gpt-4o-mini");
	assert_string_equal(json_string_value(json_object_get(v.details, "prompt_hash")), j->prompt_hash);
	char h[17];
	prompt_hash(j->prompt_text, h);
	assert_string_equal(h, j->prompt_hash);
	s = dump(json_object_get(v.details, "usage"));
	assert_string_equal(s, "{\"prompt_tokens\":200,\"completion_tokens\":40,\"total_tokens\":240,"
	                       "\"requests\":2,\"seconds\":0.5}");
	free(s);
	verdict_clear(&v);
	judge_job_free(job);
}

/* A verdict explained as its rubric says: the screen draws these lines
 * and reads none of the rubric's members. */
static void explained(const char *judge, enum verdict_status st, const char *message,
                      const char *details, const char *want)
{
	struct verdict v = { .status = st, .message = message ? strdup(message) : NULL };
	json_error_t jerr;
	v.details = json_loads(details, 0, &jerr);
	assert_non_null(v.details);
	struct strbuf sb = STRBUF_INIT;
	judge_explain(judge_named(judge), &v, &sb);
	assert_string_equal(sb.buf ? sb.buf : "", want);
	strbuf_release(&sb);
	verdict_clear(&v);
}

static void test_explain(void **state)
{
	(void)state;
	explained("appr", VERDICT_OK, NULL,
	          "{\"reason\": \"two of three\", \"analyzeStepResult\": {\"evaluations\": ["
	          "{\"toolCalled\": \"weather\", \"wasAppropriate\": true, \"reasoning\": \"asked\"},"
	          "{\"toolCalled\": \"search\", \"wasAppropriate\": false}, {}],"
	          " \"missingTools\": [\"map\", 3]}}",
	          "reason: two of three\n\xe2\x9c\x93 weather: asked\n\xe2\x9c\x97 search: \n"
	          "\xe2\x9c\x97 ?: \nmissing tools: map, ?\n");
	/* A bare analysis (a label's answer) reads the same. */
	explained("appr", VERDICT_OK, NULL,
	          "{\"evaluations\": [{\"toolCalled\": \"x\", \"wasAppropriate\": true}],"
	          " \"missingTools\": []}", "\xe2\x9c\x93 x: \n");
	/* An unusable answer keeps the raw reply, whatever the rubric. */
	explained("acc", VERDICT_ERROR, "judge: unusable", "{\"error\": \"e\", \"raw_reply\": \"hi\"}",
	          "error: judge: unusable\nraw reply: hi\n");
	/* The 1..5 and custom rubrics explain nothing beyond their reason. */
	explained("acc", VERDICT_OK, NULL, "{\"tool_call_accuracy_reason\": \"fine\","
	          " \"evaluations\": [{\"toolCalled\": \"x\"}]}", "reason: fine\n");
	explained("help", VERDICT_OK, NULL, "{\"reason\": \"good\", \"score\": 3}", "reason: good\n");
}

static void test_appr_scores(void **state)
{
	(void)state;
#define EV(ok) "{\"toolCalled\": \"weather\", \"wasAppropriate\": " ok ", \"reasoning\": \"r\"}"
	assert_true(appr_score_with("{\"evaluations\": [" EV("true") "," EV("false") "," EV("true") "]}") == 0.67);
	assert_true(appr_score_with("{\"evaluations\": [" EV("true") "," EV("false") "," EV("false") ","
	                            EV("false") "," EV("false") "," EV("false") "," EV("false") ","
	                            EV("false") "]}") == 0.13);
	assert_true(appr_score_with("{\"evaluations\": [" EV("true") "," EV("true") "," EV("true") ","
	                            EV("true") "," EV("true") "," EV("false") "," EV("false") ","
	                            EV("false") "]}") == 0.63);
	assert_true(appr_score_with("{\"evaluations\": [" EV("true") "]}") == 1);
	assert_true(appr_score_with("{\"evaluations\": [" EV("false") "]}") == 0);
	/* Nothing evaluated: 1 unless tools were missing, also when calls were
	 * made (the denominator is the judge's list, not the calls). */
	assert_true(appr_score_with("{\"evaluations\": [], \"missingTools\": []}") == 1);
	assert_true(appr_score_with("{\"evaluations\": []}") == 1);
	assert_true(appr_score_with("{\"evaluations\": [], \"missingTools\": null}") == 1);
	assert_true(appr_score_with("{\"evaluations\": [], \"missingTools\": [\"weather\"]}") == 0);
	/* Missing tools do not lower a score that has evaluations. */
	assert_true(appr_score_with("{\"evaluations\": [" EV("true") "], \"missingTools\": [\"x\"]}") == 1);

	/* 29 of 200: 0.145 rounds up only with Mastra's epsilon. */
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, "{\"evaluations\": [");
	for (int i = 0; i < 200; i++)
		strbuf_addf(&sb, "%s" EV("%s"), i ? "," : "", i < 29 ? "true" : "false");
	strbuf_addstr(&sb, "]}");
	assert_true(appr_score_with(sb.buf) == 0.15);
	strbuf_release(&sb);
#undef EV
}

static void test_appr_no_calls(void **state)
{
	(void)state;
	struct run *r = run_of(RUN_NO_CALLS);
	struct judge_job *job = judge_job_new(judge_named("appr"), r, NULL);
	struct judge_prompt p;
	assert_true(judge_job_next_prompt(job, &p));
	assert_non_null(strstr(p.user, "in order: None\n"));
	answer(job, "{\"evaluations\": [], \"missingTools\": []}");
	answer(job, "Asking what to book was right.");
	struct verdict v;
	judge_job_verdict(job, &v);
	assert_int_equal(v.status, VERDICT_OK);
	assert_true(v.score == 1);
	char *s = dump(json_object_get(v.details, "preprocessStepResult"));
	assert_string_equal(s, "{\"actualTools\":[],\"hasToolCalls\":false,\"toolCallInfos\":[]}");
	free(s);
	verdict_clear(&v);
	judge_job_free(job);
	run_free(r);
}

static void test_appr_skip_without_tools(void **state)
{
	(void)state;
	struct run *r = run_of(RUN_NO_DEFS);
	struct judge_job *job = judge_job_new(judge_named("appr"), r, NULL);
	struct judge_prompt p;
	assert_true(judge_job_done(job));
	assert_false(judge_job_next_prompt(job, &p));
	struct verdict v;
	judge_job_verdict(job, &v);
	assert_int_equal(v.status, VERDICT_SKIPPED);
	assert_non_null(strstr(v.message, "no tool definitions"));
	verdict_clear(&v);
	judge_job_free(job);

	/* The judge's own list stands in for the run's. */
	job = judge_job_new(judge_named("appr-claude"), r, NULL);
	assert_true(judge_job_next_prompt(job, &p));
	assert_non_null(strstr(p.user, "weather: Weather now\n"));
	/* No structured output for Anthropic: the schema is in the text. */
	assert_false(p.structured);
	assert_non_null(strstr(p.user, "It must satisfy this JSON Schema:\n"));
	assert_non_null(strstr(p.user, "\"wasAppropriate\""));
	judge_job_free(job);
	run_free(r);
}

static void test_retry_then_error(void **state)
{
	(void)state;
	struct run *r = run_of(RUN_WEATHER);
	struct judge_job *job = judge_job_new(judge_named("appr"), r, NULL);
	struct judge_prompt p;
	assert_true(judge_job_next_prompt(job, &p));
	char *first = strdup(p.user);

	answer(job, "I think the calls were fine.");
	assert_false(judge_job_done(job));
	assert_true(judge_job_next_prompt(job, &p));
	assert_int_equal(p.step, 0);
	/* The retry asks again in plain text, schema spelled out. */
	assert_false(p.structured);
	assert_int_equal(strncmp(p.user, first, strlen(first)), 0);
	assert_non_null(strstr(p.user, "Your previous reply could not be used: no JSON object in the answer."));
	assert_non_null(strstr(p.user, "It must match this JSON Schema exactly:\n{"));
	assert_non_null(strstr(p.user, "\"wasAppropriate\""));

	answer(job, "{\"evaluations\": [{\"toolCalled\": \"weather\", \"wasAppropriate\": \"yes\"}]}");
	assert_true(judge_job_done(job));
	assert_false(judge_job_next_prompt(job, &p));
	struct verdict v;
	judge_job_verdict(job, &v);
	assert_int_equal(v.status, VERDICT_ERROR);
	assert_string_equal(v.message, "judge: unusable answer after a retry: "
	                               "evaluations[0].wasAppropriate is not a boolean");
	assert_string_equal(json_string_value(json_object_get(v.details, "raw_reply")),
	                    "{\"evaluations\": [{\"toolCalled\": \"weather\", \"wasAppropriate\": \"yes\"}]}");
	assert_string_equal(json_string_value(json_object_get(v.details, "prompt_hash")),
	                    judge_named("appr")->prompt_hash);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(v.details, "usage"), "requests")), 2);
	verdict_clear(&v);
	judge_job_free(job);
	free(first);
	run_free(r);
}

static void test_retry_then_success(void **state)
{
	(void)state;
	struct run *r = run_of(RUN_WEATHER);
	struct judge_job *job = judge_job_new(judge_named("appr"), r, NULL);
	struct judge_prompt p;
	assert_true(judge_job_next_prompt(job, &p));
	answer(job, "{\"missingTools\": []}");
	assert_true(judge_job_next_prompt(job, &p));
	assert_non_null(strstr(p.user, "could not be used: missing field evaluations."));
	/* Fenced, with words around it: still read. */
	answer(job, "Here it is:\n```json\n{\"evaluations\": [{\"toolCalled\": \"weather\", "
	            "\"wasAppropriate\": true, \"reasoning\": \"ok\"}]}\n```\nThanks");
	assert_true(judge_job_next_prompt(job, &p));
	assert_int_equal(p.step, 1);
	/* A new step starts with a clean prompt. */
	assert_null(strstr(p.user, "could not be used"));
	answer(job, "");
	assert_true(judge_job_next_prompt(job, &p));
	assert_non_null(strstr(p.user, "could not be used: the answer is empty. Answer again."));
	answer(job, "Fine.");
	struct verdict v;
	judge_job_verdict(job, &v);
	assert_int_equal(v.status, VERDICT_OK);
	assert_true(v.score == 1);
	assert_string_equal(json_string_value(json_object_get(v.details, "reason")), "Fine.");
	/* analyzeStepResult is the object as the judge wrote it. */
	assert_null(json_object_get(json_object_get(v.details, "analyzeStepResult"), "missingTools"));
	verdict_clear(&v);
	judge_job_free(job);
	run_free(r);
}

static void test_transport_error(void **state)
{
	(void)state;
	struct run *r = run_of(RUN_WEATHER);
	struct judge_job *job = judge_job_new(judge_named("appr"), r, NULL);
	struct judge_reply rep = { .error = "HTTP 401: invalid key", .http_status = 401,
	                           .prompt_tokens = -1, .completion_tokens = -1 };
	judge_job_take_reply(job, &rep);
	assert_true(judge_job_done(job));
	struct verdict v;
	judge_job_verdict(job, &v);
	assert_int_equal(v.status, VERDICT_ERROR);
	assert_string_equal(v.message, "judge: HTTP 401: invalid key");
	assert_int_equal(json_integer_value(json_object_get(v.details, "http_status")), 401);
	char *s = dump(json_object_get(v.details, "usage"));
	assert_string_equal(s, "{\"prompt_tokens\":null,\"completion_tokens\":null,\"total_tokens\":null,"
	                       "\"requests\":1,\"seconds\":0}");
	free(s);
	verdict_clear(&v);
	judge_job_free(job);
	run_free(r);
}

static void test_load_error(void **state)
{
	(void)state;
	struct run *r = run_of(RUN_WEATHER);
	r->load_error = "messages: not an array";
	struct judge_job *job = judge_job_new(judge_named("acc"), r, NULL);
	assert_true(judge_job_done(job));
	struct verdict v;
	judge_job_verdict(job, &v);
	assert_int_equal(v.status, VERDICT_ERROR);
	assert_string_equal(v.message, "run: messages: not an array");
	verdict_clear(&v);
	judge_job_free(job);
	run_free(r);
}

/* ---- tool-call-accuracy-1to5 ------------------------------------------------- */

#define PROPS "\"properties\": {\"tool_calls_made_by_agent\": 3, \"correct_tool_calls_made_by_agent\": 2," \
	" \"per_tool_call_details\": [], \"excess_tool_calls\": {\"total\": 1, \"details\": " \
	"[{\"tool_name\": \"weather\", \"excess_count\": 1}]}, \"missing_tool_calls\": {\"total\": 0, \"details\": []}}"

static struct verdict run_1to5(const char *judge, const char *run_text, const char *reply1,
                               const char *reply2)
{
	struct run *r = run_of(run_text);
	struct judge_job *job = judge_job_new(judge_named(judge), r, NULL);
	struct judge_prompt p;
	if (judge_job_next_prompt(job, &p)) {
		answer(job, reply1);
		if (reply2 && judge_job_next_prompt(job, &p))
			answer(job, reply2);
	}
	assert_true(judge_job_done(job));
	struct verdict v;
	judge_job_verdict(job, &v);
	judge_job_free(job);
	run_free(r);
	return v;
}

static void test_1to5_prompt(void **state)
{
	(void)state;
	struct run *r = run_of(RUN_WEATHER);
	struct judge_job *job = judge_job_new(judge_named("acc"), r, NULL);
	struct judge_prompt p;
	assert_true(judge_job_next_prompt(job, &p));
	assert_true(p.structured);          /* azure */
	assert_string_equal(p.schema_name, "tool_call_accuracy");
	assert_non_null(strstr(p.system, "5 - Optimal."));
	assert_non_null(strstr(p.user, "[user] What is the weather in Paris?\n[assistant calls] weather, search, weather\n"
	                               "[assistant] It is sunny in Paris."));
	assert_non_null(strstr(p.user, "{\"id\":\"c1\",\"name\":\"weather\",\"arguments\":{\"city\":\"Paris\"},"
	                               "\"result\":\"sunny, 21 C\"}"));
	assert_non_null(strstr(p.user, "{\"name\":\"search\",\"description\":\"Search the web\"}"));
	judge_job_free(job);
	run_free(r);
}

static void test_1to5_levels(void **state)
{
	(void)state;
	struct verdict v = run_1to5("acc", RUN_WEATHER,
	                            "{\"reason\": \"Right tools, one repeat.\", \"score\": 3, "
	                            "\"status\": \"completed\", " PROPS "}", NULL);
	assert_int_equal(v.status, VERDICT_OK);
	assert_true(v.score == 3);
	assert_true(v.passed);              /* default threshold 3: score >= threshold */
	static const char *const keys[] = {
		"tool_call_accuracy", "tool_call_accuracy_score", "tool_call_accuracy_result",
		"tool_call_accuracy_passed", "tool_call_accuracy_reason", "tool_call_accuracy_status",
		"tool_call_accuracy_threshold", "tool_call_accuracy_properties", "prompt",
		"model", "prompt_hash", "usage", NULL,
	};
	assert_keys(v.details, keys);
	assert_string_equal(json_string_value(json_object_get(v.details, "tool_call_accuracy_result")), "pass");
	assert_string_equal(json_string_value(json_object_get(v.details, "tool_call_accuracy_reason")),
	                    "Right tools, one repeat.");
	assert_string_equal(json_string_value(json_object_get(v.details, "model")), "azure/my-deployment");
	char *s = dump(json_object_get(v.details, "tool_call_accuracy_threshold"));
	assert_string_equal(s, "3");
	free(s);
	json_t *props = json_object_get(v.details, "tool_call_accuracy_properties");
	assert_int_equal(json_integer_value(json_object_get(props, "tool_calls_made_by_agent")), 3);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(props, "excess_tool_calls"), "total")), 1);
	verdict_clear(&v);

	v = run_1to5("acc", RUN_WEATHER, "{\"reason\": \"Invented a city.\", \"score\": 2, \"status\": \"completed\", \"properties\": null}", NULL);
	assert_int_equal(v.status, VERDICT_OK);
	assert_false(v.passed);
	assert_string_equal(json_string_value(json_object_get(v.details, "tool_call_accuracy_result")), "fail");
	assert_true(json_is_false(json_object_get(v.details, "tool_call_accuracy_passed")));
	assert_true(json_is_null(json_object_get(v.details, "tool_call_accuracy_properties")));
	verdict_clear(&v);

	/* threshold 5: a 4 fails, a 5 passes. */
	v = run_1to5("acc5", RUN_WEATHER, "{\"reason\": \"r\", \"score\": 4, \"status\": \"completed\"}", NULL);
	assert_false(v.passed);
	verdict_clear(&v);
	v = run_1to5("acc5", RUN_WEATHER, "{\"reason\": \"r\", \"score\": 5.0, \"status\": \"completed\"}", NULL);
	assert_int_equal(v.status, VERDICT_OK);
	assert_true(v.passed);
	verdict_clear(&v);

	/* The 1.9-era answer is read too. */
	v = run_1to5("acc", RUN_WEATHER, "{\"chain_of_thought\": \"ok\", \"tool_calls_success_level\": 5, "
	             "\"details\": {\"tool_calls_made_by_agent\": 3}}", NULL);
	assert_int_equal(v.status, VERDICT_OK);
	assert_true(v.score == 5);
	assert_string_equal(json_string_value(json_object_get(v.details, "tool_call_accuracy_reason")), "ok");
	verdict_clear(&v);
}

static void test_1to5_bad_scores(void **state)
{
	(void)state;
	const char *bad[] = {
		"{\"reason\": \"r\", \"score\": 0, \"status\": \"completed\"}",
		"{\"reason\": \"r\", \"score\": 6, \"status\": \"completed\"}",
		"{\"reason\": \"r\", \"score\": 3.5, \"status\": \"completed\"}",
		"{\"reason\": \"r\", \"score\": \"4\", \"status\": \"completed\"}",
		"{\"reason\": \"r\", \"status\": \"completed\"}",
	};
	const char *why[] = {
		"invalid score value 0; expected a whole number from 1 to 5",
		"invalid score value 6; expected a whole number from 1 to 5",
		"invalid score value 3.5; expected a whole number from 1 to 5",
		"invalid score value \"4\"; expected a whole number from 1 to 5",
		"invalid score value (none); expected a whole number from 1 to 5",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct verdict v = run_1to5("acc", RUN_WEATHER, bad[i], bad[i]);
		assert_int_equal(v.status, VERDICT_ERROR);
		char want[256];
		snprintf(want, sizeof want, "judge: unusable answer after a retry: %s", why[i]);
		assert_string_equal(v.message, want);
		assert_string_equal(json_string_value(json_object_get(v.details, "raw_reply")), bad[i]);
		verdict_clear(&v);
	}
	/* A bad score and then a good one. */
	struct verdict v = run_1to5("acc", RUN_WEATHER, bad[0], "{\"reason\": \"r\", \"score\": 4}");
	assert_int_equal(v.status, VERDICT_OK);
	assert_true(v.score == 4);
	verdict_clear(&v);
}

static void test_1to5_not_applicable(void **state)
{
	(void)state;
	struct verdict v = run_1to5("acc", RUN_NO_CALLS, "unused", NULL);
	assert_int_equal(v.status, VERDICT_SKIPPED);
	assert_string_equal(v.message, "Not applicable: No tool calls found in response or provided tool_calls.");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(v.details, "usage"), "requests")), 0);
	verdict_clear(&v);

	v = run_1to5("acc", RUN_NO_DEFS, "unused", NULL);
	assert_int_equal(v.status, VERDICT_SKIPPED);
	assert_string_equal(v.message, "Not applicable: Tool definitions must be provided.");
	verdict_clear(&v);

	v = run_1to5("acc", RUN_UNDEFINED, "unused", NULL);
	assert_int_equal(v.status, VERDICT_SKIPPED);
	assert_string_equal(v.message, "Not applicable: Tool definitions for all tool calls must be "
	                               "provided. (no definition of 'forecast')");
	verdict_clear(&v);

	/* Azure's intermediate response: nothing final to judge yet. */
	v = run_1to5("acc", RUN_WAITING, "unused", NULL);
	assert_int_equal(v.status, VERDICT_SKIPPED);
	assert_string_equal(v.message, "Not applicable: Intermediate response. Please provide the agent's "
	                               "final response for evaluation.");
	verdict_clear(&v);

	/* The judge itself may find nothing to judge. */
	v = run_1to5("acc", RUN_WEATHER, "{\"reason\": \"Nothing to grade.\", \"score\": null, "
	             "\"status\": \"skipped\", \"properties\": null}", NULL);
	assert_int_equal(v.status, VERDICT_SKIPPED);
	assert_string_equal(v.message, "Not applicable: Nothing to grade.");
	assert_string_equal(json_string_value(json_object_get(v.details, "tool_call_accuracy_result")),
	                    "not_applicable");
	assert_true(json_is_null(json_object_get(v.details, "tool_call_accuracy")));
	verdict_clear(&v);
}

/* ---- custom ------------------------------------------------------------------ */

static void test_custom(void **state)
{
	(void)state;
	const struct judge_conf *j = judge_named("help");
	assert_true(j->scale_min == 1 && j->scale_max == 5 && j->threshold == 4);
	assert_int_equal(judge_scale(j), SCALE_1TO5);
	/* 1..5 is an integer scale: whole steps, as for the built-in rubric */
	assert_false(judge_scale_accepts(j, 4.5));
	assert_true(judge_scale_accepts(j, 5));
	assert_false(judge_scale_accepts(j, 0));

	struct run *r = run_of(RUN_WEATHER);
	json_t *expected = parse_q("{'answer':'sunny'}");
	struct judge_job *job = judge_job_new(j, r, expected);
	struct judge_prompt p;
	assert_true(judge_job_next_prompt(job, &p));
	assert_string_equal(p.system, "Rate from 1 to 5; 4 passes.");
	assert_true(p.structured);          /* ollama */
	assert_string_equal(p.schema_name, "score");
	assert_non_null(strstr(p.user, "Request: What is the weather in Paris?\nAnswer: It is sunny in Paris.\n"));
	assert_non_null(strstr(p.user, "Calls: [\n  {\"id\":\"c1\",\"name\":\"weather\""));
	assert_non_null(strstr(p.user, "Tools: weather: Current weather for a city\nsearch: Search the web\n"));
	assert_non_null(strstr(p.user, "Expected: {\"answer\":\"sunny\"}"));
	answer(job, "{\"score\": 4, \"reason\": \"Answered the question.\"}");
	assert_true(judge_job_done(job));
	struct verdict v;
	judge_job_verdict(job, &v);
	assert_int_equal(v.status, VERDICT_OK);
	assert_true(v.score == 4);
	assert_true(v.passed);
	char *s = dump(json_object_get(v.details, "scale"));
	assert_string_equal(s, "{\"min\":1,\"max\":5,\"pass\":4}");
	free(s);
	assert_string_equal(json_string_value(json_object_get(v.details, "reason")), "Answered the question.");
	assert_string_equal(json_string_value(json_object_get(v.details, "model")), "ollama/llama3");
	verdict_clear(&v);
	judge_job_free(job);

	job = judge_job_new(j, r, expected);
	assert_true(judge_job_next_prompt(job, &p));
	answer(job, "{\"score\": 3, \"reason\": \"Vague.\"}");
	judge_job_verdict(job, &v);
	assert_int_equal(v.status, VERDICT_OK);
	assert_false(v.passed);
	verdict_clear(&v);
	judge_job_free(job);

	/* Off the scale: asked again, then an error. */
	job = judge_job_new(j, r, expected);
	assert_true(judge_job_next_prompt(job, &p));
	answer(job, "{\"score\": 7, \"reason\": \"great\"}");
	assert_true(judge_job_next_prompt(job, &p));
	assert_non_null(strstr(p.user, "could not be used: score 7 is outside the scale 1..5."));
	answer(job, "{\"score\": 0.5, \"reason\": \"meh\"}");
	judge_job_verdict(job, &v);
	assert_int_equal(v.status, VERDICT_ERROR);
	assert_string_equal(v.message, "judge: unusable answer after a retry: score 0.5 is outside the scale 1..5");
	verdict_clear(&v);
	judge_job_free(job);

	/* Between two levels of an integer scale: asked again, then an error;
	 * the schema asks for an integer. */
	job = judge_job_new(j, r, expected);
	assert_true(judge_job_next_prompt(job, &p));
	s = dump(json_object_get(json_object_get(json_object_get(p.schema, "properties"), "score"),
	                         "type"));
	assert_string_equal(s, "\"integer\"");
	free(s);
	answer(job, "{\"score\": 3.5, \"reason\": \"between\"}");
	assert_true(judge_job_next_prompt(job, &p));
	answer(job, "{\"score\": 4.5, \"reason\": \"between\"}");
	judge_job_verdict(job, &v);
	assert_int_equal(v.status, VERDICT_ERROR);
	assert_string_equal(v.message, "judge: unusable answer after a retry: score 4.5 is not a whole "
	                               "step of the scale 1..5");
	verdict_clear(&v);
	judge_job_free(job);

	/* {{expected}} without an expectation: nothing to compare with. */
	job = judge_job_new(j, r, NULL);
	assert_true(judge_job_done(job));
	judge_job_verdict(job, &v);
	assert_int_equal(v.status, VERDICT_SKIPPED);
	assert_string_equal(v.message, "the prompt uses {{expected}} but this run has no expectation");
	verdict_clear(&v);
	judge_job_free(job);

	json_decref(expected);
	run_free(r);
}

/* ---- a label as the judge's answer ---------------------------------------- */

/* The answer a job gives for a label (dumped, NULL when none, with the
 * reason in why), and what the same judge makes of that answer when a
 * model sends it: the verdict, whose score must be the label's. */
static char *label_answer(const char *judge, const char *run_text, double score,
                          const char *reason, const struct verdict *machine, struct error *err, struct verdict *back)
{
	struct run *r = run_of(run_text);
	struct judge_job *job = judge_job_new(judge_named(judge), r, NULL);
	json_t *a = judge_job_label_answer(job, score, reason, machine, err);
	char *text = a ? dump(a) : NULL;
	json_decref(a);
	memset(back, 0, sizeof *back);
	if (text) {
		struct judge_prompt p;
		answer(job, text);
		/* appropriateness asks for its reason in a second step */
		if (judge_job_next_prompt(job, &p))
			answer(job, "The reviewer's reason.");
		assert_true(judge_job_done(job));
		judge_job_verdict(job, back);
	}
	judge_job_free(job);
	run_free(r);
	return text;
}

static void test_label_answers(void **state)
{
	(void)state;
	struct error why = {0};
	struct verdict v;
	/* 1..5: the level and the reason, read back as the same verdict. */
	char *t = label_answer("acc", RUN_WEATHER, 2, "Invented a city.", NULL, &why, &v);
	assert_string_equal(t, "{\"reason\":\"Invented a city.\",\"score\":2,\"status\":\"completed\","
	                       "\"properties\":null}");
	assert_int_equal(v.status, VERDICT_OK);
	assert_true(v.score == 2);
	assert_false(v.passed);
	assert_string_equal(json_string_value(json_object_get(v.details, "tool_call_accuracy_reason")),
	                    "Invented a city.");
	free(t);
	verdict_clear(&v);
	/* The judge's counters come along when the label is its own score. */
	struct verdict machine = run_1to5("acc", RUN_WEATHER, "{\"reason\": \"r\", \"score\": 3, "
	                                  "\"status\": \"completed\", " PROPS "}", NULL);
	t = label_answer("acc", RUN_WEATHER, 3, "Fine.", &machine, &why, &v);
	assert_non_null(strstr(t, "\"properties\":{\"tool_calls_made_by_agent\":3,"));
	assert_true(v.score == 3);
	free(t);
	verdict_clear(&v);
	/* An accept has no reason of its own: the judge's stands. */
	t = label_answer("acc", RUN_WEATHER, 3, "", &machine, &why, &v);
	assert_non_null(strstr(t, "{\"reason\":\"r\",\"score\":3,"));
	free(t);
	verdict_clear(&v);
	t = label_answer("acc", RUN_WEATHER, 4, "", &machine, &why, &v);
	assert_non_null(strstr(t, "{\"reason\":\"\",\"score\":4,"));
	free(t);
	verdict_clear(&v);
	t = label_answer("acc", RUN_WEATHER, 4, "Better.", &machine, &why, &v);
	assert_non_null(strstr(t, "\"properties\":null"));
	assert_true(v.score == 4);
	free(t);
	verdict_clear(&v);
	verdict_clear(&machine);
	assert_null(label_answer("acc", RUN_WEATHER, 3.5, "x", NULL, &why, &v));
	assert_string_equal(why.msg, "a label of 3.5 is not a level from 1 to 5");

	/* A job skipped at once (custom's {{expected}} without an expectation)
	 * asks nothing, so it has no answer. */
	assert_null(label_answer("help", RUN_WEATHER, 4, "x", NULL, &why, &v));
	assert_string_equal(why.msg, "help asks nothing about this run: the prompt uses {{expected}} but "
	                         "this run has no expectation");
}

/* A custom judge with an expectation: the answer reads back to the label. */
static void test_label_answer_custom(void **state)
{
	(void)state;
	struct run *r = run_of(RUN_WEATHER);
	json_t *expected = parse_q("{'answer':'sunny'}");
	struct error why = {0};
	struct judge_job *job = judge_job_new(judge_named("help"), r, expected);
	json_t *a = judge_job_label_answer(job, 4, "Helpful.", NULL, &why);
	char *t = dump(a);
	assert_string_equal(t, "{\"score\":4,\"reason\":\"Helpful.\"}");
	answer(job, t);
	struct verdict v;
	judge_job_verdict(job, &v);
	assert_int_equal(v.status, VERDICT_OK);
	assert_true(v.score == 4);
	assert_string_equal(json_string_value(json_object_get(v.details, "reason")), "Helpful.");
	json_decref(a);
	free(t);
	judge_job_free(job);
	/* Without a reason, the judge's own when the label is its score. */
	job = judge_job_new(judge_named("help"), r, expected);
	a = judge_job_label_answer(job, 4, "", &v, &why);
	t = dump(a);
	assert_string_equal(t, "{\"score\":4,\"reason\":\"Helpful.\"}");
	json_decref(a);
	free(t);
	a = judge_job_label_answer(job, 2, "", &v, &why);
	t = dump(a);
	assert_string_equal(t, "{\"score\":2,\"reason\":\"\"}");
	json_decref(a);
	free(t);
	verdict_clear(&v);
	judge_job_free(job);
	job = judge_job_new(judge_named("help"), r, expected);
	assert_null(judge_job_label_answer(job, 0.5, "x", NULL, &why));
	assert_string_equal(why.msg, "a label of 0.5 is outside the scale 1..5");
	/* 1..5 is an integer scale: a label between two levels has no answer */
	assert_null(judge_job_label_answer(job, 4.5, "x", NULL, &why));
	assert_string_equal(why.msg, "a label of 4.5 is not a whole step of the scale 1..5");
	judge_job_free(job);
	json_decref(expected);
	run_free(r);
}

static void test_label_answer_appr(void **state)
{
	(void)state;
	struct error why = {0};
	struct verdict v;
	/* 1 rates every call appropriate, 0 none. */
	char *t = label_answer("appr", RUN_WEATHER, 1, "All asked for.", NULL, &why, &v);
	assert_string_equal(t, "{\"evaluations\":["
	                       "{\"toolCalled\":\"weather\",\"wasAppropriate\":true,\"reasoning\":\"All asked for.\"},"
	                       "{\"toolCalled\":\"search\",\"wasAppropriate\":true,\"reasoning\":\"All asked for.\"},"
	                       "{\"toolCalled\":\"weather\",\"wasAppropriate\":true,\"reasoning\":\"All asked for.\"}],"
	                       "\"missingTools\":[]}");
	assert_true(v.score == 1);
	free(t);
	verdict_clear(&v);
	t = label_answer("appr", RUN_WEATHER, 0, "None.", NULL, &why, &v);
	assert_int_equal(v.status, VERDICT_OK);
	assert_true(v.score == 0);
	free(t);
	verdict_clear(&v);
	/* In between, only the judge's own ratings say which calls. */
	assert_null(label_answer("appr", RUN_WEATHER, 0.67, "x", NULL, &why, &v));
	assert_string_equal(why.msg, "a label of 0.67 does not say which of the 3 calls were appropriate");
	struct run *r = run_of(RUN_WEATHER);
	struct judge_job *job = judge_job_new(judge_named("appr"), r, NULL);
	answer(job, "{\"evaluations\": ["
	            "{\"toolCalled\": \"weather\", \"wasAppropriate\": true, \"reasoning\": \"asked\"},"
	            "{\"toolCalled\": \"search\", \"wasAppropriate\": false, \"reasoning\": \"not asked\"},"
	            "{\"toolCalled\": \"weather\", \"wasAppropriate\": true, \"reasoning\": \"again\"}],"
	            " \"missingTools\": []}");
	answer(job, "Two of three.");
	struct verdict machine;
	judge_job_verdict(job, &machine);
	judge_job_free(job);
	run_free(r);
	t = label_answer("appr", RUN_WEATHER, 0.67, "Agreed.", &machine, &why, &v);
	assert_non_null(strstr(t, "\"reasoning\":\"not asked\""));
	assert_true(v.score == 0.67);
	free(t);
	verdict_clear(&v);
	/* A label that differs from the judge's does not take its ratings. */
	t = label_answer("appr", RUN_WEATHER, 1, "All fine.", &machine, &why, &v);
	assert_null(strstr(t, "not asked"));
	assert_true(v.score == 1);
	free(t);
	verdict_clear(&v);
	verdict_clear(&machine);
	/* No calls: 1 is "nothing to call", 0 would need the missing tools. */
	t = label_answer("appr", RUN_NO_CALLS, 1, "Asking was right.", NULL, &why, &v);
	assert_string_equal(t, "{\"evaluations\":[],\"missingTools\":[]}");
	assert_true(v.score == 1);
	free(t);
	verdict_clear(&v);
	assert_null(label_answer("appr", RUN_NO_CALLS, 0, "x", NULL, &why, &v));
	assert_string_equal(why.msg, "a label of 0 on a run without calls would have to name the missing tools");
	/* A run the judge does not apply to has no prompt to answer. */
	assert_null(label_answer("appr", RUN_NO_DEFS, 1, "x", NULL, &why, &v));
	assert_non_null(strstr(why.msg, "appr asks nothing about this run: no tool definitions"));
}

static void bad_line(void *ctx, const char *path, size_t line)
{
	(void)path;
	*(size_t *)ctx = line;
}

/* The Batch API's files (judge/batch.c): a request written as an input
 * line, the output read back by custom_id and fed to the job as a live
 * answer would be; a job the batch did not answer fails. */
static void test_batch_files(void **state)
{
	(void)state;
	const struct judge_conf *j = judge_named("appr");
	struct run *r = run_of(RUN_WEATHER);
	struct judge_job *job = judge_job_new(j, r, NULL);
	struct error err = {0};
	char id[64], path[128];
	batch_custom_id("0123456789abcdef", 2, id, sizeof id);
	assert_string_equal(id, "tcr-0123456789abcdef-2");
	char *in = NULL;
	size_t inlen = 0;
	FILE *f = open_memstream(&in, &inlen);
	/* The key goes in a live request's header, never in the file. */
	const char *had = getenv("OPENAI_API_KEY");
	char *kept = had ? strdup(had) : NULL;
	setenv("OPENAI_API_KEY", "sk-test-not-in-the-file", 1);
	int rc = batch_request_write(f, j, job, id, &err);
	if (kept)
		setenv("OPENAI_API_KEY", kept, 1);
	else
		unsetenv("OPENAI_API_KEY");
	free(kept);
	if (rc < 0)
		fail_msg("%s", err.msg);
	fclose(f);
	assert_non_null(strstr(in, "{\"custom_id\":\"tcr-0123456789abcdef-2\",\"method\":\"POST\","
	                           "\"url\":\"/v1/chat/completions\",\"body\":{\"model\":\"gpt-4o-mini\""));
	assert_int_equal(in[inlen - 1], '\n');
	assert_null(strstr(in, "sk-test-not-in-the-file"));
	free(in);
	/* A provider without batches is refused. */
	struct judge_job *other = judge_job_new(judge_named("appr-claude"), r, NULL);
	f = fopen("/dev/null", "w");
	assert_int_equal(batch_request_write(f, judge_named("appr-claude"), other, id, &err), -1);
	fclose(f);
	assert_string_equal(err.msg, "appr-claude: batch files are for OpenAI and OpenAI-compatible judges");
	judge_job_free(other);

	snprintf(path, sizeof path, "%s/batch.out.jsonl", tmpdir);
	f = fopen(path, "w");
	fprintf(f, "{\"custom_id\": \"%s\", \"response\": {\"status_code\": 200, \"body\": {\"choices\": "
	        "[{\"message\": {\"role\": \"assistant\", \"content\": \"{\\\"evaluations\\\": []}\"}}]}}}\n"
	        "not json\n\n{\"custom_id\": \"gone\", \"error\": {\"message\": \"expired\"}}\n", id);
	fclose(f);
	size_t bad = 0;
	struct batch_output *o = batch_output_read(path, bad_line, &bad, &err);
	assert_non_null(o);
	assert_int_equal(bad, 2);
	batch_output_feed(o, id, j, job);
	assert_false(judge_job_done(job));      /* the reason step is asked live */
	struct judge_prompt p;
	assert_true(judge_job_next_prompt(job, &p));
	assert_int_equal(p.step, 1);
	judge_job_free(job);
	struct verdict v;
	job = judge_job_new(j, r, NULL);
	batch_output_feed(o, "gone", j, job);
	judge_job_verdict(job, &v);
	assert_int_equal(v.status, VERDICT_ERROR);
	assert_non_null(strstr(v.message, "the batch has no answer: expired"));
	verdict_clear(&v);
	judge_job_free(job);
	job = judge_job_new(j, r, NULL);
	batch_output_feed(o, "never", j, job);
	judge_job_verdict(job, &v);
	assert_non_null(strstr(v.message, "no answer for it in the batch output"));
	verdict_clear(&v);
	judge_job_free(job);
	batch_output_free(o);
	unlink(path);
	snprintf(path, sizeof path, "%s/none.jsonl", tmpdir);
	assert_null(batch_output_read(path, NULL, NULL, &err));
	assert_non_null(strstr(err.msg, "none.jsonl"));
	run_free(r);
}

static void test_providers(void **state)
{
	(void)state;
	enum provider_kind k;
	const char *rest;
	assert_int_equal(judge_parse_model("openai/gpt-4o-mini", false, &k, &rest), 0);
	assert_int_equal(k, PROVIDER_OPENAI);
	assert_string_equal(rest, "gpt-4o-mini");
	assert_int_equal(judge_parse_model("anthropic/claude", false, &k, &rest), 0);
	assert_int_equal(k, PROVIDER_ANTHROPIC);
	assert_int_equal(judge_parse_model("ollama/llama3:8b", false, &k, &rest), 0);
	assert_int_equal(k, PROVIDER_OLLAMA);
	assert_int_equal(judge_parse_model("azure/dep", false, &k, &rest), 0);
	assert_int_equal(k, PROVIDER_AZURE);
	assert_int_equal(judge_parse_model("meta-llama/Llama-3", false, &k, &rest), -1);
	assert_int_equal(judge_parse_model("meta-llama/Llama-3", true, &k, &rest), 0);
	assert_int_equal(k, PROVIDER_COMPAT);
	assert_string_equal(rest, "meta-llama/Llama-3");
	assert_int_equal(judge_parse_model("openai/", true, &k, &rest), -1);
	assert_string_equal(judge_provider_prefix(PROVIDER_AZURE), "azure/");
	assert_string_equal(judge_provider_prefix(PROVIDER_COMPAT), "");
	assert_true(judge_structured_output(PROVIDER_OPENAI));
	assert_false(judge_structured_output(PROVIDER_ANTHROPIC));
	assert_false(judge_structured_output(PROVIDER_COMPAT));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round2),
		cmocka_unit_test(test_reply_json),
		cmocka_unit_test(test_prompt_sections),
		cmocka_unit_test(test_prompt_render),
		cmocka_unit_test(test_prompt_check),
		cmocka_unit_test(test_tool_list_shapes),
		cmocka_unit_test(test_appr_steps),
		cmocka_unit_test(test_appr_scores),
		cmocka_unit_test(test_appr_no_calls),
		cmocka_unit_test(test_appr_skip_without_tools),
		cmocka_unit_test(test_retry_then_error),
		cmocka_unit_test(test_retry_then_success),
		cmocka_unit_test(test_transport_error),
		cmocka_unit_test(test_load_error),
		cmocka_unit_test(test_1to5_prompt),
		cmocka_unit_test(test_1to5_levels),
		cmocka_unit_test(test_1to5_bad_scores),
		cmocka_unit_test(test_1to5_not_applicable),
		cmocka_unit_test(test_custom),
		cmocka_unit_test(test_explain),
		cmocka_unit_test(test_label_answers),
		cmocka_unit_test(test_label_answer_custom),
		cmocka_unit_test(test_label_answer_appr),
		cmocka_unit_test(test_providers),
		cmocka_unit_test(test_batch_files),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
