/* test_fmt_codex.c - the OpenAI Codex CLI rollout loader: rollouts of our
 * own in the real shape read through the dataset from a file, as tcreview
 * reads them, and the shared real rollouts in place. */
#include "fmt_test.h"
#include "fmt_wild.h"
#include "test_files.h"
#include "util/error.h"

#define CODEX "codex"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	strcpy(dir, "/tmp/tcr-codex.XXXXXX");
	assert_non_null(mkdtemp(dir));
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* A rollout of today's CLI, one line each (' for ", as in fmt_test.h);
 * line 23 is blank and the last line was cut off while it was written. */
static const char *const rollout_lines[] = {
	/* 1 */ "{'timestamp': '2026-03-01T09:00:00.000Z', 'type': 'session_meta', 'payload': {"
	        "'id': '0199aa00-2087-7000-8000-000000002087', 'timestamp': '2026-03-01T09:00:00.000Z',"
	        " 'cwd': '/home/kenji/shop', 'originator': 'codex_cli_rs', 'cli_version': '0.125.0',"
	        " 'source': 'cli', 'model_provider': 'openai'}}",
	/* 2 */ "{'timestamp': '2026-03-01T09:00:00.001Z', 'type': 'response_item', 'payload': {"
	        "'type': 'message', 'role': 'developer', 'content': [{'type': 'input_text',"
	        " 'text': '<permissions instructions>workspace-write</permissions instructions>'}]}}",
	/* 3 */ "{'timestamp': '2026-03-01T09:00:00.002Z', 'type': 'response_item', 'payload': {"
	        "'type': 'message', 'role': 'user', 'content': [{'type': 'input_text',"
	        " 'text': '<environment_context>\\n  <cwd>/home/kenji/shop</cwd>\\n</environment_context>'}]}}",
	/* 4 */ "{'timestamp': '2026-03-01T09:00:00.003Z', 'type': 'turn_context', 'payload': {"
	        "'cwd': '/home/kenji/shop', 'approval_policy': 'on-request', 'model': 'gpt-5-codex',"
	        " 'summary': 'auto'}}",
	/* 5 */ "{'timestamp': '2026-03-01T09:00:01.000Z', 'type': 'response_item', 'payload': {"
	        "'type': 'message', 'role': 'user', 'content': [{'type': 'input_text',"
	        " 'text': '注文 2087 の発送状況を README に書いて'}]}}",
	/* 6 */ "{'timestamp': '2026-03-01T09:00:01.001Z', 'type': 'event_msg', 'payload': {"
	        "'type': 'user_message', 'message': '注文 2087 の発送状況を README に書いて', 'images': []}}",
	/* 7 */ "{'timestamp': '2026-03-01T09:00:02.000Z', 'type': 'response_item', 'payload': {"
	        "'type': 'reasoning', 'summary': [{'type': 'summary_text', 'text': '**Checking the order**'}],"
	        " 'content': null, 'encrypted_content': 'gAAAAB2087'}}",
	/* 8 */ "{'timestamp': '2026-03-01T09:00:02.001Z', 'type': 'event_msg', 'payload': {"
	        "'type': 'agent_reasoning', 'text': '**Checking the order**'}}",
	/* 9 */ "{'timestamp': '2026-03-01T09:00:03.000Z', 'type': 'response_item', 'payload': {"
	        "'type': 'function_call', 'name': 'exec_command',"
	        " 'arguments': '{\\'cmd\\': \\'grep -n 2087 orders.csv\\', \\'workdir\\': \\'/home/kenji/shop\\'}',"
	        " 'call_id': 'call_e1'}}",
	/* 10 */ "{'timestamp': '2026-03-01T09:00:03.100Z', 'type': 'event_msg', 'payload': {"
	         "'type': 'exec_command_end', 'call_id': 'call_e1', 'exit_code': 0,"
	         " 'aggregated_output': '2087,shipped\\n'}}",
	/* 11 */ "{'timestamp': '2026-03-01T09:00:03.200Z', 'type': 'response_item', 'payload': {"
	         "'type': 'function_call_output', 'call_id': 'call_e1',"
	         " 'output': 'Chunk ID: 1a\\nProcess exited with code 0\\nOutput:\\n2087,shipped\\n'}}",
	/* 12 */ "{'timestamp': '2026-03-01T09:00:04.000Z', 'type': 'response_item', 'payload': {"
	         "'type': 'function_call', 'name': 'exec_command',"
	         " 'arguments': '{\\'cmd\\': \\'cat 説明.txt\\'}', 'call_id': 'call_e2'}}",
	/* 13 */ "{'timestamp': '2026-03-01T09:00:04.100Z', 'type': 'response_item', 'payload': {"
	         "'type': 'function_call_output', 'call_id': 'call_e2',"
	         " 'output': 'Process exited with code 1\\nOutput:\\ncat: 説明.txt: No such file'}}",
	/* 14 */ "{'timestamp': '2026-03-01T09:00:04.200Z', 'type': 'event_msg', 'payload': {"
	         "'type': 'exec_command_end', 'call_id': 'call_e2', 'exit_code': 1, 'status': 'failed'}}",
	/* 15 */ "{'timestamp': '2026-03-01T09:00:05.000Z', 'type': 'response_item', 'payload': {"
	         "'type': 'custom_tool_call', 'status': 'completed', 'call_id': 'call_p1', 'name': 'apply_patch',"
	         " 'input': '*** Begin Patch\\n*** Update File: README.md\\n+2087: 已发货 📦\\n*** End Patch\\n'}}",
	/* 16 */ "{'timestamp': '2026-03-01T09:00:05.100Z', 'type': 'event_msg', 'payload': {"
	         "'type': 'patch_apply_end', 'call_id': 'call_p1', 'stdout': 'Success.', 'stderr': '',"
	         " 'success': true}}",
	/* 17 */ "{'timestamp': '2026-03-01T09:00:05.200Z', 'type': 'response_item', 'payload': {"
	         "'type': 'custom_tool_call_output', 'call_id': 'call_p1',"
	         " 'output': '{\\'output\\':\\'Success. Updated the following files:\\\\nM README.md\\\\n\\',"
	         "\\'metadata\\':{\\'exit_code\\':0,\\'duration_seconds\\':0.1}}'}}",
	/* 18 */ "{'timestamp': '2026-03-01T09:00:06.000Z', 'type': 'response_item', 'payload': {"
	         "'type': 'custom_tool_call', 'status': 'completed', 'call_id': 'call_p2', 'name': 'apply_patch',"
	         " 'input': '*** Begin Patch\\n*** Delete File: 旧.md\\n*** End Patch\\n'}}",
	/* 19 */ "{'timestamp': '2026-03-01T09:00:06.100Z', 'type': 'event_msg', 'payload': {"
	         "'type': 'patch_apply_end', 'call_id': 'call_p2', 'stdout': '',"
	         " 'stderr': 'no such file: 旧.md', 'success': false}}",
	/* 20 */ "{'timestamp': '2026-03-01T09:00:06.200Z', 'type': 'response_item', 'payload': {"
	         "'type': 'custom_tool_call_output', 'call_id': 'call_p2',"
	         " 'output': '{\\'output\\':\\'no such file: 旧.md\\',\\'metadata\\':{\\'exit_code\\':1}}'}}",
	/* 21 */ "{'timestamp': '2026-03-01T09:00:07.000Z', 'type': 'response_item', 'payload': {"
	         "'type': 'web_search_call', 'status': 'completed', 'action': {'type': 'search',"
	         " 'query': 'SF Express 2087', 'queries': ['SF Express 2087', '順豊 2087']}}}",
	/* 22 */ "{'timestamp': '2026-03-01T09:00:07.100Z', 'type': 'event_msg', 'payload': {"
	         "'type': 'web_search_end', 'call_id': 'ws_1', 'query': 'SF Express 2087'}}",
	/* 23 */ "",
	/* 24 */ "{'timestamp': '2026-03-01T09:00:08.000Z', 'type': 'event_msg', 'payload': {"
	         "'type': 'agent_message', 'message': 'README を更新しました'}}",
	/* 25 */ "{'timestamp': '2026-03-01T09:00:08.001Z', 'type': 'response_item', 'payload': {"
	         "'type': 'message', 'role': 'assistant', 'content': [{'type': 'output_text',"
	         " 'text': 'README を更新しました：2087 已发货 📦'}]}}",
	/* 26 */ "{'timestamp': '2026-03-01T09:00:08.100Z', 'type': 'event_msg', 'payload': {"
	         "'type': 'token_count', 'info': {'total_token_usage': {'input_tokens': 2087}}}}",
	/* 27 */ "{'timestamp': '2026-03-01T09:00:08.200Z', 'type': 'response_item', 'payload': {"
	         "'type': 'ghost_snapshot', 'ghost_commit': {'id': 'abc2087', 'parent': 'def'}}}",
	/* 28 */ "{'timestamp': '2026-03-01T09:00:09.000Z', 'type': 'session_checkpoint', 'payload': {"
	         "'note': 'a line type of next year'}}",
	/* 29 */ "{'timestamp': '2026-03-01T09:00:10.000Z', 'type': 'response_item', 'payload': {'type': 'mess",
	NULL,
};

/* An older CLI's rollout: "shell" with its argv in the arguments, outputs
 * as {output, metadata}, local_shell_call, a compaction, a line that is
 * JSON but no object, a bad item and another session written on. */
static const char *const old_lines[] = {
	/* 1 */ "{'timestamp': '2026-01-02T10:00:00.000Z', 'type': 'session_meta', 'payload': {"
	        "'id': '0199bb00-old', 'cwd': '/w', 'originator': 'codex_exec', 'cli_version': '0.77.0',"
	        " 'instructions': 'You are Codex.', 'model_provider': 'preview-codex'}}",
	/* 2 */ "{'timestamp': '2026-01-02T10:00:00.001Z', 'type': 'response_item', 'payload': {"
	        "'type': 'message', 'role': 'user', 'content': [{'type': 'input_text', 'text': 'ls を実行して'}]}}",
	/* 3 */ "{'timestamp': '2026-01-02T10:00:00.002Z', 'type': 'turn_context', 'payload': {"
	        "'cwd': '/w', 'model': 'gpt-5-1-codex'}}",
	/* 4 */ "{'timestamp': '2026-01-02T10:00:01.000Z', 'type': 'response_item', 'payload': {"
	        "'type': 'function_call', 'name': 'shell',"
	        " 'arguments': '{\\'command\\':[\\'bash\\',\\'-lc\\',\\'ls\\'],\\'workdir\\':\\'/w\\'}',"
	        " 'call_id': 'call_s1'}}",
	/* 5 */ "{'timestamp': '2026-01-02T10:00:01.100Z', 'type': 'response_item', 'payload': {"
	        "'type': 'function_call_output', 'call_id': 'call_s1',"
	        " 'output': '{\\'output\\':\\'a.txt\\\\n\\',\\'metadata\\':{\\'exit_code\\':0}}'}}",
	/* 6 */ "{'timestamp': '2026-01-02T10:00:02.000Z', 'type': 'response_item', 'payload': {"
	        "'type': 'function_call', 'name': 'shell',"
	        " 'arguments': '{\\'command\\':[\\'bash\\',\\'-lc\\',\\'false\\']}', 'call_id': 'call_s2'}}",
	/* 7 */ "{'timestamp': '2026-01-02T10:00:02.100Z', 'type': 'response_item', 'payload': {"
	        "'type': 'function_call_output', 'call_id': 'call_s2',"
	        " 'output': '{\\'output\\':\\'\\',\\'metadata\\':{\\'exit_code\\':1}}'}}",
	/* 8 */ "{'timestamp': '2026-01-02T10:00:03.000Z', 'type': 'response_item', 'payload': {"
	        "'type': 'local_shell_call', 'call_id': 'call_l1', 'status': 'completed',"
	        " 'action': {'type': 'exec', 'command': ['echo', 'hi'], 'env': {}}}}",
	/* 9 */ "{'timestamp': '2026-01-02T10:00:03.100Z', 'type': 'response_item', 'payload': {"
	        "'type': 'function_call_output', 'call_id': 'call_l1', 'output': 'hi'}}",
	/* 10 */ "{'timestamp': '2026-01-02T10:00:04.000Z', 'type': 'compacted', 'payload': {"
	         "'message': 'The user asked for ls; a.txt is there.'}}",
	/* 11 */ "42",
	/* 12 */ "{'timestamp': '2026-01-02T10:00:05.000Z', 'type': 'response_item', 'payload': {"
	         "'type': 'message', 'role': 'wizard', 'content': 'x'}}",
	/* 13 */ "{'timestamp': '2026-01-02T10:00:05.100Z', 'type': 'response_item', 'payload': 'x'}",
	/* 14 */ "{'timestamp': '2026-01-02T10:00:06.000Z', 'type': 'session_meta', 'payload': {"
	         "'id': '0199bb00-old', 'cwd': '/w'}}",
	/* 15 */ "{'timestamp': '2026-01-02T10:00:07.000Z', 'type': 'session_meta', 'payload': {"
	         "'id': '0199cc00-fork', 'cwd': '/w'}}",
	/* 16 */ "{'timestamp': '2026-01-02T10:00:08.000Z', 'type': 'response_item', 'payload': {"
	         "'type': 'message', 'role': 'assistant', 'content': [{'type': 'output_text', 'text': 'a.txt'}]}}",
	NULL,
};

/* Writes the lines (' made ") to a file of the temp folder, opens it as a
 * dataset and loads its one run. */
static struct run *load_rollout(struct dataset *ds, const char *name, const char *const *lines)
{
	size_t n = 0;
	for (size_t i = 0; lines[i]; i++)
		n += strlen(lines[i]) + 1;
	char *text = malloc(n + 1), *p = text;
	assert_non_null(text);
	for (size_t i = 0; lines[i]; i++) {
		for (const char *s = lines[i]; *s; s++)
			*p++ = *s == '\'' ? '"' : *s;
		*p++ = '\n';
	}
	*p = '\0';
	struct error err = {0};
	char path[128];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	test_write_file(path, text);
	free(text);
	char *paths[] = { path };
	assert_int_equal(dataset_open(ds, paths, 1, &err), 0);
	dataset_index_all(ds);
	assert_int_equal(ds->nrecs, 1);
	struct run *r = dataset_load_run(ds, &ds->recs[0], NULL, NULL, &err);
	assert_non_null(r);
	if (r->load_error)
		fprintf(stderr, "%s: %s\n", name, r->load_error);
	assert_null(r->load_error);
	assert_string_equal(r->format, CODEX);
	return r;
}

static const struct run_part *part_of(const struct run *r, size_t mi, size_t k)
{
	assert_true(k < r->msgs[mi].nparts);
	return &r->parts[r->msgs[mi].first_part + k];
}

static void test_detect(void **state)
{
	(void)state;
	/* every line of a rollout alone, the whole file as its array */
	for (size_t i = 0; i < 22; i++) {
		const struct format_ops *f = fmt_detect(rollout_lines[i]);
		assert_non_null(f);
		assert_string_equal(f->name, CODEX);
	}
	assert_int_equal(fmt_score(CODEX, "[null, {'type': 'event_msg', 'payload': {}}, 42,"
	                                  " {'type': 'session_checkpoint', 'payload': {}}]"), 90);
	/* not without a payload object, nor a type of its own */
	assert_int_equal(fmt_score(CODEX, "{'type': 'response_item', 'payload': 'x'}"), 0);
	assert_int_equal(fmt_score(CODEX, "{'type': 'response_item'}"), 0);
	assert_int_equal(fmt_score(CODEX, "{'type': 'user', 'payload': {}}"), 0);
	assert_int_equal(fmt_score(CODEX, "[{'type': 'event_msg', 'payload': {}},"
	                                  " {'type': 'user', 'message': {}}, {'type': 'assistant'}]"), 0);
	assert_int_equal(fmt_score(CODEX, "[]"), 0);
	assert_int_equal(fmt_score(CODEX, "[null, 42]"), 0);
	/* and no other format's sample */
	assert_int_equal(fmt_check_samples(CODEX), 1);
}

static void test_session(void **state)
{
	(void)state;
	struct dataset ds;
	struct run *r = load_rollout(&ds, "rollout-2026-03-01T09-00-00-2087.jsonl", rollout_lines);
	assert_string_equal(r->id, "0199aa00-2087-7000-8000-000000002087");
	assert_string_equal(r->model, "gpt-5-codex");
	assert_int_equal(r->nmsgs, 16);
	/* the CLI's context is not the user's: the first user turn is theirs */
	assert_int_equal(r->msgs[0].role, ROLE_SYSTEM);
	assert_int_equal(r->msgs[1].role, ROLE_SYSTEM);
	assert_string_equal(r->msgs[1].text,
	                    "<environment_context>\n  <cwd>/home/kenji/shop</cwd>\n</environment_context>");
	assert_int_equal(r->msgs[2].role, ROLE_USER);
	assert_string_equal(run_first_user_text(r), "注文 2087 の発送状況を README に書いて");
	/* reasoning: a thinking part, the event_msg repeating it not read */
	assert_int_equal(r->msgs[3].role, ROLE_ASSISTANT);
	assert_string_equal(r->msgs[3].text, "");
	assert_int_equal(part_of(r, 3, 0)->kind, PART_THINKING);
	assert_string_equal(part_of(r, 3, 0)->text, "**Checking the order**");
	/* a message's raw is the line's payload, its src_index the line's element */
	jv root = run_root(r);
	assert_int_equal(r->msgs[3].raw, jv_get(r->doc, jv_at(r->doc, root, 6), "payload"));
	assert_int_equal(r->msgs[3].src_index, 6);
	static const enum run_role roles[] = {
		ROLE_SYSTEM, ROLE_SYSTEM, ROLE_USER, ROLE_ASSISTANT, ROLE_ASSISTANT, ROLE_TOOL,
		ROLE_ASSISTANT, ROLE_TOOL, ROLE_ASSISTANT, ROLE_TOOL, ROLE_ASSISTANT, ROLE_TOOL,
		ROLE_ASSISTANT, ROLE_ASSISTANT, ROLE_NOTE, ROLE_NOTE,
	};
	for (size_t i = 0; i < 16; i++)
		assert_int_equal(r->msgs[i].role, roles[i]);
	/* agent_message repeats the answer: read once */
	assert_string_equal(run_final_agent_text(r), "README を更新しました：2087 已发货 📦");
	run_free(r);
	dataset_close(&ds);
}

static void test_calls(void **state)
{
	(void)state;
	struct dataset ds;
	struct run *r = load_rollout(&ds, "rollout-calls.jsonl", rollout_lines);
	assert_int_equal(r->ncalls, 5);
	assert_int_equal(run_agent_calls(r, NULL), 5);
	struct run_call *c = r->calls;
	assert_string_equal(c[0].name, "exec_command");
	assert_string_equal(c[0].id, "call_e1");
	assert_string_equal(json_string_value(json_object_get(run_call_args(r, &c[0]), "cmd")),
	                    "grep -n 2087 orders.csv");
	assert_int_equal(c[0].state, CALL_COMPLETED);
	assert_int_equal(c[0].result_msg, 5);
	assert_string_equal(r->msgs[5].text, "Chunk ID: 1a\nProcess exited with code 0\nOutput:\n2087,shipped\n");
	/* exec_command_end's exit code fails the call its output did not flag */
	assert_string_equal(c[1].name, "exec_command");
	assert_int_equal(c[1].state, CALL_FAILED);
	assert_string_equal(c[1].error_text, "exit code 1");
	assert_true(r->msgs[c[1].result_msg].result_is_error);
	/* apply_patch: the patch as free text; the output's own output shown */
	assert_string_equal(c[2].name, "apply_patch");
	assert_string_equal(json_string_value(run_call_args(r, &c[2])),
	                    "*** Begin Patch\n*** Update File: README.md\n+2087: 已发货 📦\n*** End Patch\n");
	assert_false(run_call_args_invalid(r, &c[2]));
	assert_int_equal(c[2].state, CALL_COMPLETED);
	assert_string_equal(r->msgs[c[2].result_msg].text, "Success. Updated the following files:\nM README.md\n");
	assert_string_equal(r->msgs[c[2].result_msg].text, part_of(r, c[2].result_msg, 0)->text);
	/* patch_apply_end's success false: failed with its stderr */
	assert_int_equal(c[3].state, CALL_FAILED);
	assert_string_equal(c[3].error_text, "no such file: 旧.md");
	/* a web search: no id, no output, done without a result or an error */
	assert_string_equal(c[4].name, "web_search");
	assert_null(c[4].id);
	assert_int_equal(c[4].state, CALL_COMPLETED);
	assert_false(c[4].is_error);
	assert_null(run_call_result(r, &c[4]));
	assert_string_equal(json_string_value(json_object_get(run_call_args(r, &c[4]), "query")),
	                    "SF Express 2087");
	assert_int_equal(fmt_count_unmatched(r), 0);
	run_free(r);
	dataset_close(&ds);
}

static void test_notes(void **state)
{
	(void)state;
	struct dataset ds;
	struct run *r = load_rollout(&ds, "rollout-notes.jsonl", rollout_lines);
	/* the ghost snapshot and the event_msg lines are metadata: no notes */
	assert_int_equal(r->nnotes, 2);
	assert_int_equal(r->msgs[14].role, ROLE_NOTE);
	assert_string_equal(part_of(r, 14, 0)->text, "line 28: line type \"session_checkpoint\" (not read)");
	assert_int_equal(r->msgs[15].role, ROLE_NOTE);
	assert_string_equal(part_of(r, 15, 0)->text, "line 29: not JSON (not read)");
	run_free(r);
	dataset_close(&ds);
}

static void test_older_cli(void **state)
{
	(void)state;
	struct dataset ds;
	struct run *r = load_rollout(&ds, "rollout-old.jsonl", old_lines);
	assert_string_equal(r->id, "0199bb00-old");
	assert_string_equal(r->model, "gpt-5-1-codex");
	/* no user_message events: every user message stays the user's */
	assert_string_equal(run_first_user_text(r), "ls を実行して");
	assert_int_equal(r->ncalls, 3);
	struct run_call *c = r->calls;
	assert_string_equal(c[0].name, "shell");
	json_t *argv = json_object_get(run_call_args(r, &c[0]), "command");
	assert_int_equal(json_array_size(argv), 3);
	assert_string_equal(json_string_value(json_array_get(argv, 2)), "ls");
	assert_int_equal(c[0].state, CALL_COMPLETED);
	assert_string_equal(r->msgs[c[0].result_msg].text, "a.txt\n");
	/* metadata.exit_code 1 fails it; its result stays as the record has it */
	assert_int_equal(c[1].state, CALL_FAILED);
	assert_string_equal(c[1].error_text, "exit code 1");
	assert_string_equal(json_string_value(run_call_result(r, &c[1])),
	                    "{\"output\":\"\",\"metadata\":{\"exit_code\":1}}");
	assert_string_equal(c[2].name, "local_shell");
	assert_int_equal(c[2].state, CALL_COMPLETED);
	assert_string_equal(json_string_value(run_call_result(r, &c[2])), "hi");
	/* the compaction's summary, then one note a line; the same
	 * session's meta again is no note */
	assert_int_equal(c[2].result_msg, 6);
	assert_int_equal(r->msgs[7].role, ROLE_SYSTEM);
	assert_string_equal(r->msgs[7].text, "The user asked for ls; a.txt is there.");
	static const char *const notes[] = {
		"line 11: not an object (not read)",
		"line 12: payload.role: unknown role \"wizard\"",
		"line 13: payload: not an object",
		"line 15: session 0199cc00-fork starts here (read as part of 0199bb00-old)",
	};
	for (size_t i = 0; i < 4; i++) {
		assert_int_equal(r->msgs[8 + i].role, ROLE_NOTE);
		assert_string_equal(part_of(r, 8 + i, 0)->text, notes[i]);
	}
	assert_int_equal(r->nnotes, 4);
	assert_int_equal(r->nmsgs, 13);
	assert_string_equal(run_final_agent_text(r), "a.txt");
	run_free(r);
	dataset_close(&ds);
}

/* With user_message events, a user message none of them repeats is the
 * CLI's context; one without text (an image alone) stays the user's. */
static void test_user_turns(void **state)
{
	(void)state;
	struct run *r = fmt_load(
		"[{'type': 'response_item', 'payload': {'type': 'message', 'role': 'user',"
		"   'content': [{'type': 'input_text', 'text': '# AGENTS.md instructions for /shop'}]}},"
		" {'type': 'response_item', 'payload': {'type': 'message', 'role': 'user',"
		"   'content': [{'type': 'input_text', 'text': '注文 2087 は？\\n'},"
		"     {'type': 'input_image', 'image_url': 'data:'}]}},"
		" {'type': 'event_msg', 'payload': {'type': 'user_message', 'message': '注文 2087 は？'}},"
		" {'type': 'response_item', 'payload': {'type': 'message', 'role': 'user',"
		"   'content': [{'type': 'input_image', 'image_url': 'data:'}]}},"
		" {'type': 'event_msg', 'payload': {'type': 'user_message', 'message': '', 'images': ['data:']}}]",
		CODEX);
	assert_int_equal(r->nmsgs, 3);
	assert_int_equal(r->msgs[0].role, ROLE_SYSTEM);
	assert_int_equal(r->msgs[1].role, ROLE_USER);
	assert_int_equal(r->msgs[2].role, ROLE_USER);
	assert_string_equal(run_first_user_text(r), "注文 2087 は？\n");
	run_free(r);
}

/* An error the turn ended on and an interrupted turn are said nowhere
 * else: notes; the other events add nothing. */
static void test_error_events(void **state)
{
	(void)state;
	struct run *r = fmt_load(
		"[{'type': 'event_msg', 'payload': {'type': 'task_started', 'turn_id': 't1'}},"
		" {'type': 'event_msg', 'payload': {'type': 'error',"
		"   'message': 'stream disconnected before completion'}},"
		" {'type': 'event_msg', 'payload': {'type': 'turn_aborted', 'reason': 'interrupted'}},"
		" {'type': 'event_msg', 'payload': {'type': 'error'}},"
		" {'type': 'event_msg', 'payload': {'type': 'task_complete', 'last_agent_message': null}}]",
		CODEX);
	assert_int_equal(r->nmsgs, 3);
	assert_int_equal(r->nnotes, 3);
	assert_string_equal(part_of(r, 0, 0)->text, "line 2: error: stream disconnected before completion");
	assert_string_equal(part_of(r, 1, 0)->text, "line 3: turn aborted (interrupted)");
	assert_string_equal(part_of(r, 2, 0)->text, "line 4: error: (no message)");
	assert_int_equal(r->msgs[0].raw, jv_at(r->doc, run_root(r), 1));
	run_free(r);
}

static void test_malformed(void **state)
{
	(void)state;
	static const struct fmt_error_case cases[] = {
		{ "{'type': 'event_msg', 'payload': {}}", "a codex rollout is read as the array of its lines" },
		{ "[null, 12, 'x']", "no line of the rollout is a JSON object" },
		{ NULL, NULL },
	};
	fmt_expect_errors(CODEX, cases);
	/* in memory (no line breaks in the document) lines are numbered by place */
	struct run *r = fmt_load("[{'type': 'event_msg', 'payload': {'type': 'token_count'}},"
	                         " {'type': 'event_msg', 'payload': {'type': 'task_started'}},"
	                         " {'type': 'turn_context', 'payload': {'model': 7}}, 'x',"
	                         " {'type': 7, 'payload': {}}, {'payload': {}}]", CODEX);
	assert_int_equal(r->nmsgs, 3);
	assert_null(r->model);
	assert_string_equal(part_of(r, 0, 0)->text, "line 4: not an object (not read)");
	assert_string_equal(part_of(r, 1, 0)->text, "line 5: type: not a string");
	assert_string_equal(part_of(r, 2, 0)->text, "line 6: type: missing");
	run_free(r);
}

static void test_wild_samples(void **state)
{
	(void)state;
	struct dataset ds;
	struct run *r = fmt_wild_run(&ds, "codex-rollout/rollout-2026-05-11T11-26-55-"
	                             "019e1625-789d-76c0-80ab-3724b5ddb799.jsonl", CODEX, 1, 105);
	if (!r) {
		skip();
		return;
	}
	assert_string_equal(r->id, "019e1625-789d-76c0-80ab-3724b5ddb799");
	size_t exec = 0, failed = 0, patch = 0, search = 0, thinking = 0;
	for (size_t i = 0; i < r->ncalls; i++) {
		exec += !strcmp(r->calls[i].name, "exec_command");
		patch += !strcmp(r->calls[i].name, "apply_patch");
		search += !strcmp(r->calls[i].name, "web_search");
		failed += r->calls[i].state == CALL_FAILED;
	}
	for (size_t i = 0; i < r->nparts; i++)
		thinking += r->parts[i].kind == PART_THINKING;
	assert_int_equal(exec, 43);
	assert_int_equal(patch, 3);
	assert_int_equal(search, 3);
	assert_int_equal(failed, 4);        /* exec_command_end with exit codes 2, 1, 1, 1 */
	assert_int_equal(thinking, 25);
	assert_int_equal(r->nnotes, 0);
	assert_int_equal(fmt_count_unmatched(r), 0);
	assert_string_equal(run_first_user_text(r), "show tools");
	/* session_meta's base_instructions {text} are the system prompt */
	assert_true(r->nmsgs > 0);
	assert_int_equal(r->msgs[0].role, ROLE_SYSTEM);
	assert_true(!strncmp(r->msgs[0].text, "You are Codex", 13));
	run_free(r);
	dataset_close(&ds);

	r = fmt_wild_run(&ds, "codex-rollout/rollout-2026-01-02T18-39-45-"
	                 "019b7f94-51b4-7593-922e-ba12b5b73b52.jsonl", CODEX, 1, 3);
	assert_string_equal(r->id, "019b7f94-51b4-7593-922e-ba12b5b73b52");
	assert_string_equal(r->model, "gpt-5-1-codex-2025-11-13");
	for (size_t i = 0; i < 3; i++) {
		assert_string_equal(r->calls[i].name, "shell");
		assert_int_equal(r->calls[i].state, CALL_COMPLETED);
		assert_true(json_is_array(json_object_get(run_call_args(r, &r->calls[i]), "command")));
	}
	assert_string_equal(r->msgs[r->calls[1].result_msg].text, "docs/AGENTS.md\n");
	assert_string_equal(run_first_user_text(r),
	                    "what is current repository about? summarize purpuse and explain goals");
	assert_int_equal(r->nnotes, 0);
	run_free(r);
	dataset_close(&ds);
	fmt_check_wild(CODEX, "codex-rollout");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_detect),
		cmocka_unit_test(test_session),
		cmocka_unit_test(test_calls),
		cmocka_unit_test(test_notes),
		cmocka_unit_test(test_older_cli),
		cmocka_unit_test(test_user_turns),
		cmocka_unit_test(test_error_events),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_wild_samples),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
