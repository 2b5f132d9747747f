/* fmt_test.h - helpers and sample records shared by the loader tests
 * (tests/test_formats.c runs the checks every loader shares, from the
 * format table; tests/test_fmt_NAME.c what is particular to one).
 *
 * Fixtures are written with ' for " so that they read as JSON inside C
 * strings; fmt_parse turns every ' back into ". A quote inside a JSON
 * string is written \\' (it becomes \"), an apostrophe in text \\u0027.
 * The samples tell one small story in every format (order 2087, asked in
 * Japanese, answered in Chinese with an emoji), so each loader can check
 * that it claims its own and none of the others. */
#ifndef TCR_FMT_TEST_H
#define TCR_FMT_TEST_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runs/format.h"
#include "runs/run.h"
#include "util/jdoc.h"
#include "util/error.h"

static inline json_t *fmt_parse(const char *text)
{
	char *s = strdup(text);
	assert_non_null(s);
	for (char *p = s; *p; p++)
		if (*p == '\'')
			*p = '"';
	json_error_t jerr;
	json_t *v = json_loads(s, JSON_DECODE_ANY, &jerr);
	if (!v)
		fprintf(stderr, "fixture does not parse: %s at %d:%d\n%s\n", jerr.text, jerr.line,
		        jerr.column, s);
	free(s);
	assert_non_null(v);
	return v;
}

/* Detects and loads; the record must be `format` and load cleanly. */
static inline struct run *fmt_load(const char *text, const char *format)
{
	json_t *rec = fmt_parse(text);
	struct run *r = run_new(rec, "test.jsonl", 1, -1);
	json_decref(rec);
	struct error err = {0};
	int rc = format_load(r, NULL, &err);
	if (rc != 0)
		fprintf(stderr, "load failed: %s\n", err.msg);
	assert_int_equal(rc, 0);
	assert_string_equal(r->format, format);
	return r;
}

/* Loads with a forced format and returns load's result; err gets the message. */
static inline int fmt_load_err(const char *text, const char *format, struct error *err)
{
	const struct format_ops *f = format_find(format);
	assert_non_null(f);
	json_t *rec = fmt_parse(text);
	struct run *r = run_new(rec, "test.jsonl", 1, -1);
	json_decref(rec);
	error_clear(err);
	int rc = format_load(r, f, err);
	run_free(r);
	return rc;
}

/* Loads with a forced format and expects it to fail with exactly msg. */
static inline void fmt_expect_error(const char *format, const char *text, const char *msg)
{
	struct error err = {0};
	int rc = fmt_load_err(text, format, &err);
	if (rc != -1 || strcmp(err.msg, msg) != 0)
		fprintf(stderr, "%s: rc %d, \"%s\" for %s\n", format, rc, err.msg, text);
	assert_int_equal(rc, -1);
	assert_string_equal(err.msg, msg);
}

struct fmt_error_case {
	const char *json, *msg;
};

/* fmt_expect_error for every case up to the { NULL, NULL } that ends them. */
static inline void fmt_expect_errors(const char *format, const struct fmt_error_case *cases)
{
	struct error err = {0};
	for (size_t i = 0; cases[i].json; i++) {
		int rc = fmt_load_err(cases[i].json, format, &err);
		if (rc != -1 || strcmp(err.msg, cases[i].msg) != 0)
			fprintf(stderr, "case %zu: rc %d, \"%s\"\n", i, rc, err.msg);
		assert_int_equal(rc, -1);
		assert_string_equal(err.msg, cases[i].msg);
	}
}

/* What f's detector says of a jansson record, read through a tape as
 * records are read. */
static inline int fmt_detect_json(const struct format_ops *f, json_t *rec)
{
	struct jdoc *d = jdoc_from_json(rec);
	assert_non_null(d);
	int s = f->detect(d, jdoc_root(d));
	jdoc_free(d);
	return s;
}

/* format_detect of a jansson record. */
static inline const struct format_ops *fmt_detect_tree(json_t *rec)
{
	struct jdoc *d = jdoc_from_json(rec);
	assert_non_null(d);
	const struct format_ops *f = format_detect(d, jdoc_root(d));
	jdoc_free(d);
	return f;
}

static inline int fmt_score(const char *format, const char *text)
{
	const struct format_ops *f = format_find(format);
	assert_non_null(f);
	json_t *rec = fmt_parse(text);
	int s = fmt_detect_json(f, rec);
	json_decref(rec);
	return s;
}

/* The loader detection picks for the record, NULL when none. */
static inline const struct format_ops *fmt_detect(const char *text)
{
	json_t *rec = fmt_parse(text);
	const struct format_ops *f = fmt_detect_tree(rec);
	json_decref(rec);
	return f;
}

/* Tool results flagged as answering no call. */
static inline size_t fmt_count_unmatched(const struct run *r)
{
	size_t n = 0;
	for (size_t i = 0; i < r->nmsgs; i++)
		n += r->msgs[i].unmatched_result;
	return n;
}

/* The kinds of message mi's parts in order, "thinking text call note",
 * for tests of part order; "" when it has none. */
static inline const char *fmt_parts(const struct run *r, size_t mi)
{
	static char buf[512];
	static const char *const names[] = { "text", "thinking", "call", "note" };
	const struct run_msg *m = &r->msgs[mi];
	buf[0] = '\0';
	for (size_t k = 0; k < m->nparts; k++) {
		size_t n = strlen(buf);
		snprintf(buf + n, sizeof buf - n, "%s%s", k ? " " : "",
		         names[r->parts[m->first_part + k].kind]);
	}
	return buf;
}

struct fmt_sample {
	const char *format;         /* the loader that must win */
	const char *label;
	const char *json;
};

static const struct fmt_sample fmt_samples[] = {
	{ "mastra", "mastra 1.x run",
	  "{'id': 'ord-2087', 'config': {'expectedToolOrder': ['lookup_order']},"
	  " 'inputMessages': [{'id': 'u1', 'role': 'user', 'createdAt': '2025-03-01T09:00:00.000Z',"
	  "   'content': {'format': 2, 'content': '注文 2087 はどこですか？',"
	  "               'parts': [{'type': 'text', 'text': '注文 2087 はどこですか？'}]}}],"
	  " 'output': [{'id': 'a1', 'role': 'assistant', 'content': {'format': 2, 'content': '已发货 📦',"
	  "   'parts': [{'type': 'step-start'},"
	  "     {'type': 'tool-invocation', 'toolInvocation': {'state': 'result', 'toolCallId': 'm1',"
	  "       'toolName': 'lookup_order', 'args': {'order': '2087'}, 'result': {'status': 'shipped'}}},"
	  "     {'type': 'text', 'text': '已发货 📦'}],"
	  "   'toolInvocations': [{'toolCallId': 'm1', 'toolName': 'lookup_order', 'args': {'order': '2087'},"
	  "     'result': {'status': 'shipped'}, 'state': 'result'}]}}]}" },
	{ "mastra", "mastra 0.x run",
	  "{'id': 'ord-2087', 'config': {'expectedTool': 'lookup_order'},"
	  " 'inputMessages': [{'id': 'u1', 'role': 'user', 'content': '注文 2087 はどこですか？',"
	  "   'parts': [{'type': 'text', 'text': '注文 2087 はどこですか？'}], 'toolInvocations': []}],"
	  " 'output': [{'id': 'a1', 'role': 'assistant', 'content': '已发货 📦',"
	  "   'parts': [{'type': 'text', 'text': '已发货 📦'}],"
	  "   'toolInvocations': [{'toolCallId': 'm1', 'toolName': 'lookup_order',"
	  "     'args': {'order': '2087'}, 'result': {'status': 'shipped'}, 'state': 'result'}]}]}" },
	{ "ai-sdk-v5", "ai sdk v5 array",
	  "[{'id': 'u1', 'role': 'user', 'parts': [{'type': 'text', 'text': '注文 2087 はどこですか？'}]},"
	  " {'id': 'a1', 'role': 'assistant', 'parts': [{'type': 'step-start'},"
	  "   {'type': 'tool-lookup_order', 'toolCallId': 's1', 'state': 'output-available',"
	  "    'input': {'order': '2087'}, 'output': {'status': 'shipped'}},"
	  "   {'type': 'step-start'},"
	  "   {'type': 'dynamic-tool', 'toolName': 'track_parcel', 'toolCallId': 's2',"
	  "    'state': 'output-error', 'input': {'tracking': 'SF88'}, 'errorText': '上游超时'},"
	  "   {'type': 'text', 'text': '已发货 📦', 'state': 'done'}]}]" },
	{ "ai-sdk-v5", "ai sdk v5 {messages} without tools",
	  "{'messages': [{'id': 'u1', 'role': 'user', 'parts': [{'type': 'text', 'text': 'こんにちは'}]},"
	  " {'id': 'a1', 'role': 'assistant', 'parts': [{'type': 'reasoning', 'text': 'greet'},"
	  "   {'type': 'text', 'text': '你好 👋'}]}]}" },
	{ "openai-chat", "openai chat with tools",
	  "{'model': 'gpt-4o-mini', 'messages': ["
	  "  {'role': 'system', 'content': 'You are a shop assistant.'},"
	  "  {'role': 'user', 'content': '注文 2087 はどこですか？'},"
	  "  {'role': 'assistant', 'content': null, 'tool_calls': [{'id': 'call_1', 'type': 'function',"
	  "    'function': {'name': 'lookup_order', 'arguments': '{\\'order\\':\\'2087\\'}'}}]},"
	  "  {'role': 'tool', 'tool_call_id': 'call_1', 'content': '{\\'status\\':\\'shipped\\'}'},"
	  "  {'role': 'assistant', 'content': '已发货 📦'}],"
	  " 'tools': [{'type': 'function', 'function': {'name': 'lookup_order',"
	  "   'parameters': {'type': 'object', 'properties': {'order': {'type': 'string'}}}}}]}" },
	{ "openai-chat", "plain role/content messages",
	  "{'messages': [{'role': 'user', 'content': 'こんにちは'}, {'role': 'assistant', 'content': '你好 👋'}]}" },
	{ "openai-responses", "responses items array",
	  "[{'type': 'message', 'role': 'user', 'content': [{'type': 'input_text', 'text': '注文 2087 はどこですか？'}]},"
	  " {'type': 'function_call', 'id': 'fc_1', 'call_id': 'call_1', 'name': 'lookup_order',"
	  "  'arguments': '{\\'order\\':\\'2087\\'}', 'status': 'completed'},"
	  " {'type': 'function_call_output', 'call_id': 'call_1', 'output': '{\\'status\\':\\'shipped\\'}'},"
	  " {'type': 'message', 'role': 'assistant', 'content': [{'type': 'output_text', 'text': '已发货 📦'}]}]" },
	{ "openai-responses", "responses {input, output}",
	  "{'model': 'gpt-4.1', 'input': [{'role': 'user', 'content': '注文 2087 はどこですか？'}],"
	  " 'output': [{'type': 'message', 'role': 'assistant', 'status': 'completed',"
	  "   'content': [{'type': 'output_text', 'text': '已发货 📦', 'annotations': []}]}]}" },
	{ "anthropic", "anthropic messages",
	  "{'system': 'You are a shop assistant.', 'model': 'claude-sonnet-4-5', 'messages': ["
	  "  {'role': 'user', 'content': '注文 2087 はどこですか？'},"
	  "  {'role': 'assistant', 'content': [{'type': 'text', 'text': '調べます。'},"
	  "    {'type': 'tool_use', 'id': 'toolu_1', 'name': 'lookup_order', 'input': {'order': '2087'}}]},"
	  "  {'role': 'user', 'content': [{'type': 'tool_result', 'tool_use_id': 'toolu_1',"
	  "    'content': '{\\'status\\':\\'shipped\\'}'}]},"
	  "  {'role': 'assistant', 'content': [{'type': 'text', 'text': '已发货 📦'}]}]}" },
	{ "anthropic", "anthropic system and strings only",
	  "{'system': [{'type': 'text', 'text': 'Be brief.'}], 'messages': ["
	  "  {'role': 'user', 'content': 'こんにちは'}, {'role': 'assistant', 'content': '你好 👋'}]}" },
	{ "azure", "azure evaluation input",
	  "{'query': [{'role': 'system', 'content': 'You are a shop assistant.'},"
	  "   {'role': 'user', 'content': [{'type': 'text', 'text': '注文 2087 はどこですか？'}]}],"
	  " 'response': [{'role': 'assistant', 'content': [{'type': 'tool_call', 'tool_call_id': 'call_1',"
	  "     'name': 'lookup_order', 'arguments': {'order': '2087'}}]},"
	  "   {'role': 'tool', 'tool_call_id': 'call_1',"
	  "    'content': [{'type': 'tool_result', 'tool_result': {'status': 'shipped'}}]},"
	  "   {'role': 'assistant', 'content': [{'type': 'text', 'text': '已发货 📦'}]}],"
	  " 'tool_definitions': [{'name': 'lookup_order', 'type': 'function', 'parameters': {'type': 'object'}}]}" },
	{ "taubench", "tau-bench v1 record",
	  "{'task_id': 3, 'trial': 0, 'reward': 1.0,"
	  " 'info': {'task': {'user_id': 'kenji_2087', 'actions': [{'name': 'lookup_order', 'kwargs': {'order': '2087'}}]}},"
	  " 'traj': [{'role': 'system', 'content': 'policy'}, {'role': 'user', 'content': '注文 2087 はどこですか？'},"
	  "   {'role': 'assistant', 'content': null, 'tool_calls': [{'id': 'call_1', 'type': 'function',"
	  "     'function': {'name': 'lookup_order', 'arguments': '{\\'order\\':\\'2087\\'}'}}]},"
	  "   {'role': 'tool', 'tool_call_id': 'call_1', 'name': 'lookup_order', 'content': 'shipped'},"
	  "   {'role': 'user', 'content': 'ありがとう ###STOP###'}]}" },
	{ "tau2", "tau2 simulation run",
	  "{'id': 'sim-1', 'task_id': 't1', 'trial': 0, 'termination_reason': 'user_stop',"
	  " 'reward_info': {'reward': 1.0},"
	  " 'messages': [{'role': 'assistant', 'content': 'こんにちは！', 'tool_calls': null, 'turn_idx': 0},"
	  "   {'role': 'user', 'content': '注文 2087 はどこですか？', 'tool_calls': null, 'turn_idx': 1},"
	  "   {'role': 'assistant', 'content': null, 'turn_idx': 2, 'tool_calls': [{'id': 'call_1',"
	  "     'name': 'lookup_order', 'arguments': {'order': '2087'}, 'requestor': 'assistant'}]},"
	  "   {'role': 'tool', 'id': 'call_1', 'content': 'shipped', 'requestor': 'assistant',"
	  "    'error': false, 'turn_idx': 3}]}" },
	{ "swe-agent", "swe-agent trajectory",
	  "{'environment': 'swe_main', 'info': {'exit_status': 'submitted'},"
	  " 'history': [{'role': 'system', 'content': 'SETTING', 'agent': 'primary'},"
	  "   {'role': 'user', 'content': '注文 2087 はどこですか？', 'agent': 'primary'}],"
	  " 'trajectory': [{'thought': '調べます。', 'action': 'lookup_order 2087\\n',"
	  "   'observation': 'shipped', 'response': '調べます。', 'state': '{}'},"
	  "  {'thought': '已发货 📦', 'action': 'submit', 'observation': ''}]}" },
	{ "swe-agent", "swe-agent history with function calls",
	  "{'history': [{'role': 'user', 'content': '注文 2087 はどこですか？', 'agent': 'main'},"
	  "  {'role': 'assistant', 'content': '調べます。', 'thought': '調べます。', 'action': 'lookup_order 2087',"
	  "   'agent': 'main', 'tool_calls': [{'id': 'call_1', 'type': 'function',"
	  "     'function': {'name': 'lookup_order', 'arguments': '{\\'order\\':\\'2087\\'}'}}]},"
	  "  {'role': 'tool', 'content': 'shipped', 'agent': 'main', 'tool_call_ids': ['call_1']}]}" },
	{ "mini-swe-agent", "mini-swe-agent trajectory",
	  "{'trajectory_format': 'mini-swe-agent-1.1', 'instance_id': 'shop-2087',"
	  " 'info': {'mini_version': '2.2.7', 'exit_status': 'Submitted',"
	  "   'config': {'model': {'model_name': 'deepseek/deepseek-chat'}}},"
	  " 'messages': [{'role': 'system', 'content': 'You are a shop assistant.'},"
	  "  {'role': 'user', 'content': '注文 2087 はどこですか？'},"
	  "  {'role': 'assistant', 'content': '', 'reasoning_content': '調べます。', 'tool_calls': [{'index': 0,"
	  "    'id': 'call_1', 'type': 'function',"
	  "    'function': {'name': 'bash', 'arguments': '{\\'command\\':\\'lookup 2087\\'}'}}]},"
	  "  {'role': 'tool', 'tool_call_id': 'call_1', 'content': 'shipped'},"
	  "  {'role': 'exit', 'content': '已发货 📦', 'extra': {'exit_status': 'Submitted'}}]}" },
	{ "chat-completions-response", "chat completions response",
	  "{'id': 'chatcmpl-2087', 'object': 'chat.completion', 'created': 1764665845, 'model': 'gpt-4o-mini',"
	  " 'choices': [{'index': 0, 'message': {'role': 'assistant', 'content': null,"
	  "   'tool_calls': [{'id': 'call_1', 'type': 'function',"
	  "     'function': {'name': 'lookup_order', 'arguments': '{\\'order\\':\\'2087\\'}'}}]},"
	  "  'logprobs': null, 'finish_reason': 'tool_calls'}],"
	  " 'usage': {'prompt_tokens': 30, 'completion_tokens': 9, 'total_tokens': 39}}" },
	{ "anthropic-message", "anthropic messages response",
	  "{'id': 'msg_2087', 'type': 'message', 'role': 'assistant', 'model': 'claude-sonnet-4-5',"
	  " 'content': [{'type': 'text', 'text': '調べます。'},"
	  "   {'type': 'tool_use', 'id': 'toolu_1', 'name': 'lookup_order', 'input': {'order': '2087'}}],"
	  " 'stop_reason': 'tool_use', 'stop_sequence': null,"
	  " 'usage': {'input_tokens': 30, 'output_tokens': 9}}" },
	{ "gemini", "gemini generateContent response",
	  "{'candidates': [{'content': {'role': 'model', 'parts': ["
	  "   {'text': '調べます。'},"
	  "   {'functionCall': {'name': 'lookup_order', 'args': {'order': '2087'}}}]},"
	  "  'finishReason': 'STOP', 'index': 0}],"
	  " 'usageMetadata': {'promptTokenCount': 30, 'candidatesTokenCount': 9, 'totalTokenCount': 39},"
	  " 'modelVersion': 'gemini-2.5-flash', 'responseId': 'r-2087'}" },
	{ "gemini", "gemini history",
	  "{'systemInstruction': {'parts': [{'text': 'You are a shop assistant.'}]},"
	  " 'contents': [{'role': 'user', 'parts': [{'text': '注文 2087 はどこですか？'}]},"
	  "   {'role': 'model', 'parts': [{'functionCall': {'name': 'lookup_order', 'args': {'order': '2087'}}}]},"
	  "   {'role': 'user', 'parts': [{'functionResponse': {'name': 'lookup_order',"
	  "     'response': {'status': 'shipped'}}}]},"
	  "   {'role': 'model', 'parts': [{'text': '已发货 📦'}]}],"
	  " 'tools': [{'functionDeclarations': [{'name': 'lookup_order',"
	  "   'parameters': {'type': 'object', 'properties': {'order': {'type': 'string'}}}}]}]}" },
	{ "langchain", "langchain messages_to_dict",
	  "{'messages': [{'type': 'system', 'data': {'content': 'You are a shop assistant.', 'type': 'system'}},"
	  "  {'type': 'human', 'data': {'content': '注文 2087 はどこですか？', 'additional_kwargs': {},"
	  "    'response_metadata': {}, 'type': 'human', 'name': null, 'id': 'h1'}},"
	  "  {'type': 'ai', 'data': {'content': '', 'type': 'ai', 'id': 'run-1', 'additional_kwargs': {},"
	  "    'response_metadata': {'finish_reason': 'tool_calls'}, 'invalid_tool_calls': [],"
	  "    'tool_calls': [{'name': 'lookup_order', 'args': {'order': '2087'}, 'id': 'call_1',"
	  "      'type': 'tool_call'}]}},"
	  "  {'type': 'tool', 'data': {'content': '{\\'status\\':\\'shipped\\'}', 'type': 'tool',"
	  "    'name': 'lookup_order', 'tool_call_id': 'call_1', 'status': 'success'}},"
	  "  {'type': 'ai', 'data': {'content': [{'type': 'text', 'text': '已发货 📦'}], 'type': 'ai',"
	  "    'tool_calls': [], 'invalid_tool_calls': []}}]}" },
	{ "langchain", "langchain serialized lc messages",
	  "[{'lc': 1, 'type': 'constructor', 'id': ['langchain', 'schema', 'messages', 'HumanMessage'],"
	  "  'kwargs': {'content': 'こんにちは', 'type': 'human'}},"
	  " {'lc': 1, 'type': 'constructor', 'id': ['langchain', 'schema', 'messages', 'AIMessage'],"
	  "  'kwargs': {'content': '你好 👋', 'type': 'ai', 'tool_calls': [], 'invalid_tool_calls': []}}]" },
	{ "langsmith", "langsmith run tree",
	  "{'id': 'r-root', 'name': 'LangGraph', 'run_type': 'chain', 'start_time': '2025-03-01T09:00:00.000000',"
	  " 'inputs': {'messages': [{'role': 'user', 'content': '注文 2087 はどこですか？'}]},"
	  " 'outputs': {}, 'error': null, 'child_runs': ["
	  "  {'id': 'r-llm', 'name': 'ChatOpenAI', 'run_type': 'llm', 'start_time': '2025-03-01T09:00:01.000000',"
	  "   'inputs': {'messages': [[{'lc': 1, 'type': 'constructor',"
	  "     'id': ['langchain', 'schema', 'messages', 'HumanMessage'],"
	  "     'kwargs': {'content': '注文 2087 はどこですか？', 'type': 'human'}}]]},"
	  "   'outputs': {'generations': [[{'text': '', 'type': 'ChatGeneration', 'message': {'lc': 1,"
	  "     'type': 'constructor', 'id': ['langchain', 'schema', 'messages', 'AIMessage'],"
	  "     'kwargs': {'content': '', 'type': 'ai', 'tool_calls': [{'name': 'lookup_order',"
	  "       'args': {'order': '2087'}, 'id': 'call_1', 'type': 'tool_call'}]}}}]]}, 'child_runs': []},"
	  "  {'id': 'r-tool', 'name': 'lookup_order', 'run_type': 'tool', 'start_time': '2025-03-01T09:00:02.000000',"
	  "   'inputs': {'order': '2087'}, 'outputs': {'output': {'lc': 1, 'type': 'constructor',"
	  "     'id': ['langchain', 'schema', 'messages', 'ToolMessage'], 'kwargs': {'content': 'shipped',"
	  "     'type': 'tool', 'tool_call_id': 'call_1', 'status': 'success'}}}, 'error': null, 'child_runs': []}]}" },
	{ "openai-agents", "agents sdk run state",
	  "{'$schemaVersion': '1.17', 'original_input': '注文 2087 はどこですか？', 'generated_items': ["
	  " {'type': 'tool_call_item', 'raw_item': {'type': 'function_call', 'call_id': 'call_1',"
	  "  'name': 'lookup_order', 'arguments': '{\\'order\\':\\'2087\\'}'}},"
	  " {'type': 'tool_call_output_item', 'raw_item': {'type': 'function_call_output', 'call_id': 'call_1',"
	  "  'output': 'shipped'}},"
	  " {'type': 'message_output_item', 'raw_item': {'type': 'message', 'role': 'assistant',"
	  "  'content': [{'type': 'output_text', 'text': '已发货 📦'}]}}]}" },
	{ "inspect", "inspect ai sample",
	  "{'id': 2087, 'epoch': 1, 'input': '注文 2087 はどこですか？', 'target': 'shipped',"
	  " 'messages': [{'id': 'm1', 'role': 'user', 'content': '注文 2087 はどこですか？', 'source': 'input'},"
	  "  {'id': 'm2', 'role': 'assistant', 'content': [{'type': 'text', 'text': '調べます。'}],"
	  "   'tool_calls': [{'id': 'call_1', 'function': 'lookup_order', 'arguments': {'order': '2087'},"
	  "     'type': 'function'}]},"
	  "  {'id': 'm3', 'role': 'tool', 'tool_call_id': 'call_1', 'function': 'lookup_order',"
	  "   'content': 'attachment://a1'},"
	  "  {'id': 'm4', 'role': 'assistant', 'content': '已发货 📦'}],"
	  " 'output': {'model': 'gpt-4o-mini', 'choices': []},"
	  " 'scores': {'match': {'value': 'C', 'answer': 'shipped'}}, 'metadata': {},"
	  " 'attachments': {'a1': 'shipped'}}" },
	{ "openhands", "openhands event stream",
	  "[{'id': 0, 'source': 'user', 'message': '注文 2087 はどこですか？', 'action': 'message',"
	  "  'args': {'content': '注文 2087 はどこですか？', 'image_urls': null}},"
	  " {'id': 1, 'source': 'agent', 'message': 'Running command: lookup 2087', 'action': 'run',"
	  "  'args': {'command': 'lookup 2087', 'thought': '調べます。'},"
	  "  'tool_call_metadata': {'function_name': 'execute_bash', 'tool_call_id': 'toolu_1'}},"
	  " {'id': 2, 'source': 'agent', 'cause': 1, 'observation': 'run', 'content': 'shipped',"
	  "  'extras': {'metadata': {'exit_code': 0}}},"
	  " {'id': 3, 'source': 'agent', 'action': 'finish', 'args': {'final_thought': '已发货 📦'}}]" },
	{ "mastra-tracing", "mastra ai tracing span tree",
	  "{'span': {'id': 's1', 'traceId': 't1', 'name': 'agent run: shop', 'type': 'agent_run',"
	  "  'input': '注文 2087 はどこですか？', 'output': {'text': '已发货 📦'}},"
	  " 'children': [{'span': {'id': 's2', 'traceId': 't1', 'name': 'llm', 'type': 'model_generation',"
	  "   'parentId': 's1', 'attributes': {'model': 'gpt-4o-mini'}, 'output': {'text': '已发货 📦'}},"
	  "  'children': [{'span': {'id': 's3', 'traceId': 't1', 'name': 'step: 0', 'type': 'model_step',"
	  "    'output': {'text': '調べます。'}},"
	  "   'children': [{'span': {'id': 's4', 'traceId': 't1', 'name': 'tool: lookup_order',"
	  "     'type': 'tool_call', 'entityType': 'tool', 'entityId': 'lookup_order',"
	  "     'input': {'order': '2087'}, 'output': {'status': 'shipped'}}}]},"
	  "   {'span': {'id': 's5', 'traceId': 't1', 'name': 'step: 1', 'type': 'model_step',"
	  "    'output': {'text': '已发货 📦'}}}]}]}" },
	{ "ai-sdk-ui-stream", "ai sdk ui message stream chunks",
	  "[{'type': 'start', 'messageId': 'msg-2087'}, {'type': 'start-step'},"
	  " {'type': 'tool-input-start', 'toolCallId': 'c1', 'toolName': 'lookup_order'},"
	  " {'type': 'tool-input-available', 'toolCallId': 'c1', 'toolName': 'lookup_order',"
	  "  'input': {'order': '2087'}},"
	  " {'type': 'tool-output-available', 'toolCallId': 'c1', 'output': {'status': 'shipped'}},"
	  " {'type': 'finish-step'}, {'type': 'start-step'},"
	  " {'type': 'text-start', 'id': 't1'}, {'type': 'text-delta', 'id': 't1', 'delta': '已发货 📦'},"
	  " {'type': 'text-end', 'id': 't1'}, {'type': 'finish-step'}, {'type': 'finish'}]" },
	{ "claude-code", "claude code session lines",
	  "[{'type': 'user', 'uuid': 'u1', 'parentUuid': null, 'sessionId': 's-2087', 'isSidechain': false,"
	  "  'message': {'role': 'user', 'content': '注文 2087 はどこですか？'}},"
	  " {'type': 'assistant', 'uuid': 'a1', 'parentUuid': 'u1', 'sessionId': 's-2087', 'isSidechain': false,"
	  "  'message': {'id': 'msg_1', 'type': 'message', 'role': 'assistant', 'model': 'claude-sonnet-4-5',"
	  "   'content': [{'type': 'text', 'text': '調べます。'}]}},"
	  " {'type': 'assistant', 'uuid': 'a2', 'parentUuid': 'a1', 'sessionId': 's-2087', 'isSidechain': false,"
	  "  'message': {'id': 'msg_1', 'type': 'message', 'role': 'assistant', 'model': 'claude-sonnet-4-5',"
	  "   'content': [{'type': 'tool_use', 'id': 'toolu_1', 'name': 'lookup_order', 'input': {'order': '2087'}}]}},"
	  " {'type': 'user', 'uuid': 'u2', 'parentUuid': 'a2', 'sessionId': 's-2087', 'isSidechain': false,"
	  "  'message': {'role': 'user', 'content': [{'type': 'tool_result', 'tool_use_id': 'toolu_1',"
	  "   'content': 'shipped'}]}},"
	  " {'type': 'assistant', 'uuid': 'a3', 'parentUuid': 'u2', 'sessionId': 's-2087', 'isSidechain': false,"
	  "  'message': {'id': 'msg_2', 'type': 'message', 'role': 'assistant', 'model': 'claude-sonnet-4-5',"
	  "   'content': [{'type': 'text', 'text': '已发货 📦'}]}}]" },
	{ "codex", "codex rollout lines",
	  "[{'timestamp': '2026-03-01T09:00:00.000Z', 'type': 'session_meta', 'payload': {'id': 'sess-2087',"
	  "   'cwd': '/shop', 'cli_version': '0.125.0', 'model_provider': 'openai'}},"
	  " {'timestamp': '2026-03-01T09:00:00.001Z', 'type': 'turn_context', 'payload': {'model': 'gpt-5-codex'}},"
	  " {'timestamp': '2026-03-01T09:00:01.000Z', 'type': 'response_item', 'payload': {'type': 'message',"
	  "   'role': 'user', 'content': [{'type': 'input_text', 'text': '注文 2087 はどこですか？'}]}},"
	  " {'timestamp': '2026-03-01T09:00:01.001Z', 'type': 'event_msg', 'payload': {'type': 'user_message',"
	  "   'message': '注文 2087 はどこですか？'}},"
	  " {'timestamp': '2026-03-01T09:00:02.000Z', 'type': 'response_item', 'payload': {'type': 'function_call',"
	  "   'name': 'lookup_order', 'arguments': '{\\'order\\':\\'2087\\'}', 'call_id': 'call_1'}},"
	  " {'timestamp': '2026-03-01T09:00:02.100Z', 'type': 'response_item', 'payload': {"
	  "   'type': 'function_call_output', 'call_id': 'call_1', 'output': 'shipped'}},"
	  " {'timestamp': '2026-03-01T09:00:03.000Z', 'type': 'response_item', 'payload': {'type': 'message',"
	  "   'role': 'assistant', 'content': [{'type': 'output_text', 'text': '已发货 📦'}]}}]" },
	{ "otel", "otel spans of one trace",
	  "[{'traceId': '5b8efff798038103d269b633813fc60c', 'spanId': 'a1', 'name': 'chat gpt-4o',"
	  "  'startTimeUnixNano': '1000', 'attributes': ["
	  "  {'key': 'gen_ai.operation.name', 'value': {'stringValue': 'chat'}},"
	  "  {'key': 'gen_ai.input.messages', 'value': {'stringValue': '[{\\'role\\': \\'user\\', \\'parts\\': [{\\'type\\': \\'text\\', \\'content\\': \\'注文 2087 はどこですか？\\'}]}]'}},"
	  "  {'key': 'gen_ai.output.messages', 'value': {'stringValue': '[{\\'role\\': \\'assistant\\', \\'parts\\': [{\\'type\\': \\'tool_call\\', \\'id\\': \\'call_1\\', \\'name\\': \\'lookup_order\\', \\'arguments\\': {\\'order\\': \\'2087\\'}}]}]'}}]},"
	  " {'traceId': '5b8efff798038103d269b633813fc60c', 'spanId': 'a2', 'name': 'execute_tool lookup_order',"
	  "  'startTimeUnixNano': '2000', 'attributes': ["
	  "  {'key': 'gen_ai.operation.name', 'value': {'stringValue': 'execute_tool'}},"
	  "  {'key': 'gen_ai.tool.name', 'value': {'stringValue': 'lookup_order'}},"
	  "  {'key': 'gen_ai.tool.call.id', 'value': {'stringValue': 'call_1'}},"
	  "  {'key': 'gen_ai.tool.call.result', 'value': {'stringValue': 'shipped'}}]},"
	  " {'traceId': '5b8efff798038103d269b633813fc60c', 'spanId': 'a3', 'name': 'chat gpt-4o',"
	  "  'startTimeUnixNano': '3000', 'attributes': ["
	  "  {'key': 'gen_ai.output.messages', 'value': {'stringValue': '[{\\'role\\': \\'assistant\\', \\'parts\\': [{\\'type\\': \\'text\\', \\'content\\': \\'已发货 📦\\'}]}]'}}]}]" },
	{ "otel", "openinference flat attribute map",
	  "{'openinference.span.kind': 'LLM', 'llm.model_name': 'gpt-4o',"
	  " 'llm.input_messages.0.message.role': 'user',"
	  " 'llm.input_messages.0.message.content': '注文 2087 はどこですか？',"
	  " 'llm.output_messages.0.message.role': 'assistant',"
	  " 'llm.output_messages.0.message.content': '已发货 📦'}" },
	{ "langfuse", "langfuse trace export",
	  "{'trace': {'id': 'tr-2087', 'name': 'shop'}, 'observations': ["
	  "  {'id': 'g2', 'type': 'GENERATION', 'startTime': '2026-03-01T09:00:02.000Z', 'model': 'gpt-4o',"
	  "   'input': '[{\\'role\\': \\'user\\', \\'content\\': \\'注文 2087 はどこですか？\\'}]',"
	  "   'output': '{\\'role\\': \\'assistant\\', \\'content\\': \\'已发货 📦\\'}'},"
	  "  {'id': 't1', 'type': 'TOOL', 'name': 'lookup_order', 'startTime': '2026-03-01T09:00:01.000Z',"
	  "   'input': {'order': '2087'}, 'output': 'shipped'},"
	  "  {'id': 'g1', 'type': 'GENERATION', 'startTime': '2026-03-01T09:00:00.000Z', 'model': 'gpt-4o',"
	  "   'input': [{'role': 'user', 'content': '注文 2087 はどこですか？'}],"
	  "   'output': {'role': 'assistant', 'content': null, 'tool_calls': [{'id': 'call_1',"
	  "     'type': 'function', 'function': {'name': 'lookup_order', 'arguments': '{}'}}]}}]}" },
	{ "atif", "atif trajectory",
	  "{'schema_version': 'ATIF-v1.6', 'session_id': 's-2087',"
	  " 'agent': {'name': 'shop', 'version': '1.0', 'model_name': 'gpt-4o'},"
	  " 'steps': [{'step_id': 1, 'source': 'user', 'message': '注文 2087 はどこですか？'},"
	  "  {'step_id': 2, 'source': 'agent', 'message': '調べます。',"
	  "   'tool_calls': [{'tool_call_id': 'call_1', 'function_name': 'lookup_order',"
	  "     'arguments': {'order': '2087'}}],"
	  "   'observation': {'results': [{'source_call_id': 'call_1', 'content': 'shipped'}]}},"
	  "  {'step_id': 3, 'source': 'agent', 'message': '已发货 📦'}],"
	  " 'final_metrics': {'total_prompt_tokens': 30}}" },
	{ "google-adk", "adk session",
	  "{'id': 's-2087', 'app_name': 'shop', 'user_id': 'kenji', 'state': {}, 'events': ["
	  "  {'author': 'user', 'content': {'role': 'user', 'parts': [{'text': '注文 2087 はどこですか？',"
	  "    'function_call': null, 'function_response': null}]}},"
	  "  {'author': 'shop_agent', 'content': {'role': 'model', 'parts': [{'text': null,"
	  "    'function_call': {'id': 'adk-1', 'name': 'lookup_order', 'args': {'order': '2087'}}}]}},"
	  "  {'author': 'shop_agent', 'content': {'role': 'user', 'parts': [{'function_response':"
	  "    {'id': 'adk-1', 'name': 'lookup_order', 'response': {'status': 'shipped'}}}]}},"
	  "  {'author': 'shop_agent', 'content': {'role': 'model', 'parts': [{'text': '已发货 📦'}]}}]}" },
	{ "google-adk", "adk eval set",
	  "{'eval_set_id': 'shop', 'eval_cases': [{'eval_id': 'ord-2087', 'conversation': [{"
	  "  'user_content': {'role': 'user', 'parts': [{'text': '注文 2087 はどこですか？'}]},"
	  "  'final_response': {'role': 'model', 'parts': [{'text': '已发货 📦'}]},"
	  "  'intermediate_data': {'tool_uses': [{'id': null, 'name': 'lookup_order',"
	  "    'args': {'order': '2087'}}], 'intermediate_responses': []}}]}]}" },
	{ "autogen", "autogen task result",
	  "{'messages': [{'type': 'TextMessage', 'source': 'user', 'content': '注文 2087 はどこですか？'},"
	  "  {'type': 'ToolCallRequestEvent', 'source': 'shop_agent', 'content': [{'id': 'call_1',"
	  "    'name': 'lookup_order', 'arguments': '{\\'order\\': \\'2087\\'}'}]},"
	  "  {'type': 'ToolCallExecutionEvent', 'source': 'shop_agent', 'content': [{'call_id': 'call_1',"
	  "    'name': 'lookup_order', 'content': 'shipped', 'is_error': false}]},"
	  "  {'type': 'TextMessage', 'source': 'shop_agent', 'content': '已发货 📦'}],"
	  " 'stop_reason': 'done'}" },
	{ "autogen", "autogen core messages",
	  "[{'type': 'SystemMessage', 'content': 'You are a shop assistant.'},"
	  " {'type': 'UserMessage', 'source': 'user', 'content': '注文 2087 はどこですか？'},"
	  " {'type': 'AssistantMessage', 'source': 'shop', 'thought': null, 'content': [{'id': 'call_1',"
	  "   'name': 'lookup_order', 'arguments': '{}'}]},"
	  " {'type': 'FunctionExecutionResultMessage', 'content': [{'call_id': 'call_1',"
	  "   'name': 'lookup_order', 'content': 'shipped', 'is_error': false}]},"
	  " {'type': 'AssistantMessage', 'source': 'shop', 'content': '已发货 📦'}]" },
	{ "openai-agents-js", "agents js run state",
	  "{'$schemaVersion': '1.18', 'currentTurn': 1, 'currentAgent': {'name': 'Shop'},"
	  " 'originalInput': '注文 2087 はどこですか？', 'modelResponses': [], 'generatedItems': ["
	  "  {'type': 'tool_call_item', 'agent': {'name': 'Shop'}, 'rawItem': {'type': 'function_call',"
	  "   'callId': 'call_1', 'name': 'lookup_order', 'arguments': '{\\'order\\':\\'2087\\'}',"
	  "   'status': 'completed'}},"
	  "  {'type': 'tool_call_output_item', 'agent': {'name': 'Shop'}, 'output': 'shipped',"
	  "   'rawItem': {'type': 'function_call_result', 'callId': 'call_1', 'name': 'lookup_order',"
	  "   'status': 'completed', 'output': {'type': 'text', 'text': 'shipped'}}},"
	  "  {'type': 'message_output_item', 'agent': {'name': 'Shop'}, 'rawItem': {'type': 'message',"
	  "   'role': 'assistant', 'status': 'completed',"
	  "   'content': [{'type': 'output_text', 'text': '已发货 📦'}]}}]}" },
	{ "tcreview", "tcreview run format",
	  "{'tcreview_run': 1, 'id': 'run-7', 'model': 'gpt-4o', 'metadata': {'task_id': 3},"
	  " 'messages': [{'role': 'user', 'parts': [{'type': 'text', 'text': '注文 2087 はどこですか？'}]},"
	  "  {'role': 'assistant', 'parts': [{'type': 'thinking', 'text': 'look it up'},"
	  "    {'type': 'tool_call', 'id': 'c1', 'name': 'lookup_order', 'arguments': {'order': '2087'}}]},"
	  "  {'role': 'tool', 'parts': [{'type': 'tool_result', 'call_id': 'c1', 'content': 'shipped'}]},"
	  "  {'role': 'assistant', 'parts': [{'type': 'text', 'text': '已发货 📦'}]}]}" },
	{ NULL, NULL, NULL },
};

/* `mine` must score 0 on every other format's sample, and win detection
 * on its own and load it; returns how many samples are its own. */
static inline size_t fmt_check_samples(const char *mine)
{
	size_t own = 0;
	for (size_t i = 0; fmt_samples[i].json; i++) {
		const struct fmt_sample *s = &fmt_samples[i];
		if (strcmp(s->format, mine) != 0) {
			int score = fmt_score(mine, s->json);
			if (score != 0)
				fprintf(stderr, "%s claims the %s sample (%d)\n", mine, s->label, score);
			assert_int_equal(score, 0);
			continue;
		}
		json_t *rec = fmt_parse(s->json);
		const struct format_ops *f = fmt_detect_tree(rec);
		json_decref(rec);
		assert_non_null(f);
		if (strcmp(f->name, mine) != 0)
			fprintf(stderr, "the %s sample went to %s\n", s->label, f->name);
		assert_string_equal(f->name, mine);
		struct run *r = fmt_load(s->json, mine);
		assert_true(r->nmsgs > 0);
		run_free(r);
		own++;
	}
	return own;
}


/* Builds "$TCR_SHARED_DIR/rel"; false (and a printed note) when the shared
 * folder is not there, so the caller can skip. */
static inline bool fmt_shared_path(char *buf, size_t len, const char *rel)
{
	const char *dir = getenv("TCR_SHARED_DIR");
	if (!dir || !*dir) {
		printf("skipped: TCR_SHARED_DIR is not set, %s not read\n", rel);
		return false;
	}
	snprintf(buf, len, "%s/%s", dir, rel);
	if (access(buf, R_OK) != 0) {
		printf("skipped: %s is absent\n", buf);
		return false;
	}
	return true;
}

typedef void (*fmt_record_fn)(json_t *rec, const char *file, size_t line, void *ctx);

/* Calls fn on every line of a JSONL file; returns the number of records. */
static inline size_t fmt_each_record(const char *path, fmt_record_fn fn, void *ctx)
{
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char *line = NULL;
	size_t cap = 0, n = 0, lineno = 0;
	ssize_t len;
	while ((len = getline(&line, &cap, f)) > 0) {
		lineno++;
		if (len <= 1)
			continue;
		json_error_t jerr;
		json_t *rec = json_loadb(line, (size_t)len, 0, &jerr);
		assert_non_null(rec);
		fn(rec, path, lineno, ctx);
		json_decref(rec);
		n++;
	}
	free(line);
	fclose(f);
	return n;
}

/* Calls fn on every record of the shared JSONL file rel and returns how
 * many there were (at least one); skips the test when the file is absent. */
static inline size_t fmt_each_shared_record(const char *rel, fmt_record_fn fn, void *ctx)
{
	char path[4096];
	if (!fmt_shared_path(path, sizeof(path), rel)) {
		skip();
		return 0;
	}
	size_t n = fmt_each_record(path, fn, ctx);
	assert_true(n > 0);
	return n;
}

struct fmt_claim_ctx {
	const struct format_ops *mine;
	const char *const *own_files;   /* base names of the files that are ours, NULL-ended */
	size_t checked;
};

static inline void fmt_claim_one(json_t *rec, const char *file, size_t line, void *ctx)
{
	struct fmt_claim_ctx *c = ctx;
	const char *base = strrchr(file, '/');
	base = base ? base + 1 : file;
	bool own = false;
	for (size_t i = 0; c->own_files && c->own_files[i]; i++)
		own = own || !strcmp(base, c->own_files[i]);
	int score = fmt_detect_json(c->mine, rec);
	if (own) {
		const struct format_ops *f = fmt_detect_tree(rec);
		assert_non_null(f);
		assert_string_equal(f->name, c->mine->name);
	} else if (score != 0) {
		fprintf(stderr, "%s claims %s:%zu (%d)\n", c->mine->name, file, line, score);
		assert_int_equal(score, 0);
	}
	c->checked++;
}

/* Runs the loader's detector over every shared JSONL fixture: the records
 * of own_files (base names, NULL-ended; NULL for none) go to it and it
 * claims nothing else. */
static inline void fmt_check_real(const char *mine, const char *const *own_files)
{
	char dirpath[4096];
	static const char *const dirs[] = { "fixtures/real", "fixtures/mastra", NULL };
	struct fmt_claim_ctx ctx = { format_find(mine), own_files, 0 };
	assert_non_null(ctx.mine);
	if (!fmt_shared_path(dirpath, sizeof(dirpath), dirs[0])) {
		skip();
		return;
	}
	for (size_t d = 0; dirs[d]; d++) {
		if (!fmt_shared_path(dirpath, sizeof(dirpath), dirs[d]))
			continue;
		DIR *dir = opendir(dirpath);
		assert_non_null(dir);
		struct dirent *e;
		while ((e = readdir(dir))) {
			size_t n = strlen(e->d_name);
			if (n < 6 || strcmp(e->d_name + n - 6, ".jsonl") != 0)
				continue;
			char path[8192];
			snprintf(path, sizeof(path), "%s/%s", dirpath, e->d_name);
			fmt_each_record(path, fmt_claim_one, &ctx);
		}
		closedir(dir);
	}
	assert_true(ctx.checked > 0);
}


/* The message holding call c. */
static inline const struct run_msg *fmt_msg_of(const struct run *r, const struct run_call *c)
{
	assert_true(c->msg_index < r->nmsgs);
	return &r->msgs[c->msg_index];
}


/* Reads the shared JSON file rel (one record: a whole API response) and
 * loads it with the format detection picks, which must be `format`; NULL
 * (and the test skipped) when the file is absent. */
static inline struct run *fmt_load_shared_json(const char *rel, const char *format)
{
	char path[4096];
	if (!fmt_shared_path(path, sizeof(path), rel)) {
		skip();
		return NULL;
	}
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	char *buf = NULL;
	size_t len = 0, cap = 0, n;
	do {
		if (cap - len < 65536) {
			cap = cap ? cap * 2 : 1 << 20;
			buf = realloc(buf, cap);
			assert_non_null(buf);
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n > 0);
	fclose(f);
	json_error_t je;
	json_t *rec = json_loadb(buf, len, JSON_DECODE_ANY, &je);
	free(buf);
	assert_non_null(rec);
	struct run *r = run_new(rec, path, 0, -1);
	json_decref(rec);
	struct error err = {0};
	int rc = format_load(r, NULL, &err);
	if (rc != 0)
		fprintf(stderr, "%s: %s\n", rel, err.msg);
	assert_int_equal(rc, 0);
	assert_string_equal(r->format, format);
	return r;
}


/* Whether f claims rec: it must not unless own, and when own detection
 * must pick it. */
static inline void fmt_wild_one(const struct format_ops *f, json_t *rec, bool own,
                                const char *path, size_t line)
{
	int score = fmt_detect_json(f, rec);
	if (own) {
		const struct format_ops *g = fmt_detect_tree(rec);
		assert_non_null(g);
		assert_string_equal(g->name, f->name);
	} else if (score != 0) {
		fprintf(stderr, "%s claims %s:%zu (%d)\n", f->name, path, line, score);
		assert_int_equal(score, 0);
	}
}

/* An own JSONL file of a UNIT_FILE format: no line is won by another
 * format, and the array of its lines (null for a line that is not JSON,
 * as the dataset reads it) is won by f. Returns the lines checked. */
static inline size_t fmt_wild_events(const struct format_ops *f, const char *path)
{
	FILE *in = fopen(path, "r");
	assert_non_null(in);
	json_t *lines = json_array();
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	ssize_t len;
	while ((len = getline(&line, &cap, in)) > 0) {
		lineno++;
		if (strspn(line, " \t\r\n") == (size_t)len)
			continue;
		json_error_t jerr;
		json_t *rec = json_loadb(line, (size_t)len, JSON_DECODE_ANY, &jerr);
		if (rec) {
			const struct format_ops *g = fmt_detect_tree(rec);
			if (g && g != f)
				fprintf(stderr, "%s claims %s:%zu\n", g->name, path, lineno);
			assert_true(!g || g == f);
		}
		json_array_append_new(lines, rec ? rec : json_null());
	}
	free(line);
	fclose(in);
	const struct format_ops *g = fmt_detect_tree(lines);
	if (g != f)
		fprintf(stderr, "%s: the lines go to %s\n", path, g ? g->name : "no format");
	assert_ptr_equal(g, f);
	json_decref(lines);
	return lineno;
}

/* Runs the loader's detector over every file of the shared wild folder
 * (each subfolder one format; .jsonl line by line, anything else as one
 * JSON document, files that are not JSON skipped): the files of subfolder
 * own go to it, it claims nothing else. Returns the records checked. */
static inline size_t fmt_check_wild(const char *mine, const char *own)
{
	char top[4096];
	const struct format_ops *f = format_find(mine);
	assert_non_null(f);
	if (!fmt_shared_path(top, sizeof(top), "fixtures/real/wild")) {
		skip();
		return 0;
	}
	size_t checked = 0;
	DIR *dir = opendir(top);
	assert_non_null(dir);
	struct dirent *sub;
	while ((sub = readdir(dir))) {
		if (sub->d_name[0] == '.')
			continue;
		char subpath[4400];
		snprintf(subpath, sizeof(subpath), "%s/%s", top, sub->d_name);
		DIR *sd = opendir(subpath);
		if (!sd)
			continue;
		bool is_own = !strcmp(sub->d_name, own);
		struct dirent *e;
		while ((e = readdir(sd))) {
			/* the program's own outputs are not samples (the dataset skips them too) */
			if (e->d_name[0] == '.' || !strcmp(e->d_name, "README.md") ||
			    strstr(e->d_name, ".annotations.jsonl") || strstr(e->d_name, ".judgements.jsonl"))
				continue;
			char path[4800];
			snprintf(path, sizeof(path), "%s/%s", subpath, e->d_name);
			size_t n = strlen(e->d_name);
			json_error_t jerr;
			/* A format that reads a JSONL file whole claims the file, not
			 * each line: a line of its own need not be claimed alone
			 * (edge cases hold 42 and {"silly": "this"}), but no other
			 * format may win it. */
			if (is_own && f->unit == UNIT_FILE && n > 6 && !strcmp(e->d_name + n - 6, ".jsonl")) {
				checked += fmt_wild_events(f, path);
				continue;
			}
			if (n > 6 && !strcmp(e->d_name + n - 6, ".jsonl")) {
				FILE *in = fopen(path, "r");
				assert_non_null(in);
				char *line = NULL;
				size_t cap = 0, lineno = 0;
				ssize_t len;
				while ((len = getline(&line, &cap, in)) > 0) {
					lineno++;
					json_t *rec = json_loadb(line, (size_t)len, JSON_DECODE_ANY, &jerr);
					if (!rec)
						continue;
					fmt_wild_one(f, rec, is_own, path, lineno);
					json_decref(rec);
					checked++;
				}
				free(line);
				fclose(in);
				continue;
			}
			json_t *rec = json_load_file(path, JSON_DECODE_ANY, &jerr);
			if (!rec)
				continue;
			fmt_wild_one(f, rec, is_own, path, 0);
			json_decref(rec);
			checked++;
		}
		closedir(sd);
	}
	closedir(dir);
	assert_true(checked > 0);
	return checked;
}

#endif
