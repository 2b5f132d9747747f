/* test_fmt_claude_code.c - Claude Code sessions read through the dataset
 * from files of our own: one assistant turn split over lines, thinking,
 * calls and their results (an error among them), metadata lines skipped,
 * notes for what is not read (naming their line), the order of parentUuid,
 * two sessions in one file, a subagent's file, a folder of sessions; then
 * detection and the shared wild samples read in place. */
#include "fmt_wild.h"

#include <sys/stat.h>

#include "util/strbuf.h"
#include "util/error.h"

/* ---- files of our own ---------------------------------------------------- */

static char tmpdir[256];

static int make_tmpdir(void **state)
{
	(void)state;
	const char *t = getenv("TMPDIR");
	snprintf(tmpdir, sizeof tmpdir, "%s/tcr-cc-XXXXXX", t && *t ? t : "/tmp");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int remove_tmpdir(void **state)
{
	(void)state;
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

/* Writes text (' standing for ", as in fmt_test.h) to tmpdir/name, making
 * the folders on the way; returns the path (static, overwritten). */
static const char *write_session(const char *name, const char *text)
{
	static char path[600];
	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	for (char *p = path + strlen(tmpdir) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0700);
		*p = '/';
	}
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	for (const char *p = text; *p; p++)
		fputc(*p == '\'' ? '"' : *p, f);
	fclose(f);
	return path;
}

/* Opens path and checks it holds `runs` runs. */
static void open_runs(struct dataset *ds, const char *path, size_t runs)
{
	struct error err = {0};
	char *paths[] = { (char *)path };
	assert_int_equal(dataset_open(ds, paths, 1, &err), 0);
	dataset_index_all(ds);
	assert_int_equal(ds->nrecs, runs);
}

static struct run *load_nth(struct dataset *ds, size_t k)
{
	struct error err = {0};
	struct run *r = dataset_load_run(ds, &ds->recs[k], NULL, NULL, &err);
	assert_non_null(r);
	if (r->load_error)
		fprintf(stderr, "load error: %s\n", r->load_error);
	assert_null(r->load_error);
	assert_string_equal(r->format, "claude-code");
	return r;
}

static const struct run_part *part(const struct run *r, size_t mi, size_t k)
{
	assert_true(k < r->msgs[mi].nparts);
	return &r->parts[r->msgs[mi].first_part + k];
}

/* The first note message's text that contains what, NULL when none. */
static const char *note_with(const struct run *r, const char *what)
{
	for (size_t i = 0; i < r->nmsgs; i++) {
		const struct run_msg *m = &r->msgs[i];
		if (m->role == ROLE_NOTE && strstr(part(r, i, 0)->text, what))
			return part(r, i, 0)->text;
	}
	return NULL;
}

#define EV(type, uuid, parent) \
	"{'type': '" type "', 'uuid': '" uuid "', 'parentUuid': " parent ", 'sessionId': 'sess-1'," \
	" 'isSidechain': false, 'timestamp': '2026-01-15T09:00:00Z', "
#define AS(id) "'message': {'id': '" id "', 'type': 'message', 'role': 'assistant'," \
	" 'model': 'claude-opus-4-6', 'content': "

/* A session as Claude Code writes it: a snapshot first, hook progress, the
 * turn split over lines with results between them, metadata, an event
 * type of a later version, a number, a summary, and a last line cut off. */
static const char session_text[] =
    "{'type': 'file-history-snapshot', 'messageId': 'u1', 'snapshot': {'messageId': 'u1',"
    " 'trackedFileBackups': {}}, 'isSnapshotUpdate': false}\n"
    EV("progress", "p1", "null") "'data': {'type': 'hook_progress', 'hookEvent': 'SessionStart'}}\n"
    EV("user", "u1", "'p1'") "'message': {'role': 'user', 'content': 'パーサーのテストを直して'}}\n"
    EV("assistant", "a1", "'u1'") AS("msg_A") "[{'type': 'thinking', 'thinking': 'Run the tests first.',"
    " 'signature': 'c2ln'}]}}\n"
    EV("assistant", "a2", "'a1'") AS("msg_A") "[{'type': 'text', 'text': 'テストを実行します。'}]}}\n"
    EV("assistant", "a3", "'a2'") AS("msg_A") "[{'type': 'tool_use', 'id': 'toolu_1', 'name': 'Bash',"
    " 'input': {'command': 'make check'}}]}}\n"
    EV("user", "r1", "'a3'") "'message': {'role': 'user', 'content': [{'type': 'tool_result',"
    " 'tool_use_id': 'toolu_1', 'content': 'exit 2: 1 failed', 'is_error': true}]},"
    " 'toolUseResult': 'Error: exit 2'}\n"
    EV("assistant", "a4", "'a3'") AS("msg_A") "[{'type': 'tool_use', 'id': 'toolu_2', 'name': 'Read',"
    " 'input': {'file_path': 'parser.c'}}]}}\n"
    EV("progress", "p2", "'a4'") "'data': {'type': 'agent_progress', 'message': {'type': 'assistant',"
    " 'message': {'role': 'assistant', 'content': [{'type': 'tool_use', 'id': 'toolu_nested',"
    " 'name': 'Grep', 'input': {}}]}}}}\n"
    EV("user", "r2", "'a4'") "'message': {'role': 'user', 'content': [{'type': 'tool_result',"
    " 'tool_use_id': 'toolu_2', 'content': [{'type': 'text', 'text': 'int parse(void);'}]}]}}\n"
    "\n"
    EV("system", "s1", "'r2'") "'subtype': 'local_command', 'content': '<command-name>/model</command-name>'}\n"
    EV("assistant", "a5", "'s1'") AS("msg_B") "[{'type': 'text', 'text': '12 行目が一つずれています。'},"
    " {'type': 'tool_use', 'id': 'toolu_3', 'name': 'Edit', 'input': {'file_path': 'parser.c'}}]}}\n"
    EV("user", "r3", "'a5'") "'message': {'role': 'user', 'content': [{'type': 'tool_result',"
    " 'tool_use_id': 'toolu_3', 'content': 'ok'}]}}\n"
    EV("pr-link", "x1", "'r3'") "'url': 'https://example.com/pr/7'}\n"
    "42\n"
    "{'type': 'queue-operation', 'operation': 'enqueue', 'sessionId': 'sess-1', 'content': '/cost'}\n"
    "{'type': 'summary', 'summary': 'Fixed the parser test', 'leafUuid': 'a6'}\n"
    EV("assistant", "a6", "'r3'") AS("msg_C") "[{'type': 'text', 'text': '直りました。'}]}}\n"
    "{'type': 'user', 'uuid': 'u9', 'parentUuid': 'a6', 'sessionId': 'sess-1', 'mess";

static void test_session(void **state)
{
	(void)state;
	struct dataset ds = { 0 };
	const char *path = write_session("proj/sess-1.jsonl", session_text);
	open_runs(&ds, path, 1);
	struct run *r = load_nth(&ds, 0);
	assert_string_equal(r->id, "sess-1");
	assert_null(r->parent_id);
	assert_string_equal(r->source, path);
	assert_string_equal(r->model, "claude-opus-4-6");
	/* user; the turn of msg_A as one message; its two results; msg_B;
	 * its result; the pr-link note; the number; msg_C; the cut line */
	assert_int_equal(r->nmsgs, 10);
	assert_int_equal(r->msgs[0].role, ROLE_USER);
	assert_string_equal(r->msgs[0].text, "パーサーのテストを直して");
	assert_int_equal(r->msgs[1].role, ROLE_ASSISTANT);
	assert_int_equal(r->msgs[1].nparts, 4);
	assert_int_equal(part(r, 1, 0)->kind, PART_THINKING);
	assert_string_equal(part(r, 1, 0)->text, "Run the tests first.");
	assert_int_equal(part(r, 1, 1)->kind, PART_TEXT);
	assert_int_equal(part(r, 1, 2)->kind, PART_CALL);
	assert_int_equal(part(r, 1, 3)->kind, PART_CALL);
	assert_string_equal(r->msgs[1].text, "テストを実行します。");
	assert_int_equal(r->msgs[1].ncalls, 2);
	/* calls: the nested agent_progress one is not counted */
	assert_int_equal(r->ncalls, 3);
	assert_string_equal(r->calls[part(r, 1, 2)->call].name, "Bash");
	assert_string_equal(r->calls[part(r, 1, 3)->call].name, "Read");
	assert_string_equal(r->calls[0].id, "toolu_1");
	json_t *args = run_call_args(r, &r->calls[0]);
	assert_string_equal(json_string_value(json_object_get(args, "command")), "make check");
	assert_int_equal(r->calls[0].state, CALL_FAILED);
	assert_true(r->calls[0].is_error);
	assert_string_equal(r->calls[0].error_text, "exit 2: 1 failed");
	assert_int_equal(r->calls[0].result_msg, 2);
	assert_int_equal(r->calls[1].state, CALL_COMPLETED);
	assert_int_equal(r->calls[1].result_msg, 3);
	assert_string_equal(r->msgs[3].text, "int parse(void);");
	assert_int_equal(r->msgs[2].role, ROLE_TOOL);
	/* msg_B: its text before its call, in one line */
	assert_int_equal(part(r, 4, 0)->kind, PART_TEXT);
	assert_int_equal(part(r, 4, 1)->kind, PART_CALL);
	assert_string_equal(r->calls[2].name, "Edit");
	assert_int_equal(r->calls[2].state, CALL_COMPLETED);
	/* notes name their lines in the file (line 11 is blank) */
	assert_int_equal(r->nnotes, 3);
	assert_int_equal(r->msgs[6].role, ROLE_NOTE);
	assert_string_equal(part(r, 6, 0)->text, "line 15: event type \"pr-link\" (not read)");
	assert_string_equal(part(r, 7, 0)->text, "line 16: not an event (a number)");
	assert_string_equal(r->msgs[8].text, "直りました。");
	assert_string_equal(part(r, 9, 0)->text, "line 20: not JSON");
	assert_int_equal(fmt_count_unmatched(r), 0);
	assert_int_equal(run_agent_calls(r, NULL), 3);
	run_free(r);
	dataset_close(&ds);
}

/* Lines that come before the line their parentUuid names are read after
 * it; a line that is its own parent is read where it stands; a loop of
 * parents, and the lines waiting for it, are read at the end in file
 * order; a line written twice is read once, and a line that only shares
 * its uuid is read. */
static void test_parent_order(void **state)
{
	(void)state;
	struct dataset ds = { 0 };
	const char *path = write_session("order.jsonl",
	    EV("user", "u1", "null") "'message': {'role': 'user', 'content': 'one'}}\n"
	    EV("user", "u3", "'a2'") "'message': {'role': 'user', 'content': 'three'}}\n"
	    EV("assistant", "a2", "'u1'") AS("m2") "'two'}}\n"
	    EV("user", "x", "'y'") "'message': {'role': 'user', 'content': 'loop x'}}\n"
	    EV("user", "y", "'x'") "'message': {'role': 'user', 'content': 'loop y'}}\n"
	    EV("user", "d", "'y'") "'message': {'role': 'user', 'content': 'twice'}}\n"
	    EV("user", "d", "'y'") "'message': {'role': 'user', 'content': 'twice'}}\n"
	    EV("user", "d", "'y'") "'message': {'role': 'user', 'content': 'same uuid'}}\n"
	    EV("user", "self", "'self'") "'message': {'role': 'user', 'content': 'its own parent'}}\n");
	open_runs(&ds, path, 1);
	struct run *r = load_nth(&ds, 0);
	static const char *const want[] = {
		"one", "two", "three", "its own parent", "loop x", "loop y", "twice", "same uuid",
	};
	assert_int_equal(r->nmsgs, 8);
	for (size_t i = 0; i < 8; i++)
		assert_string_equal(r->msgs[i].text, want[i]);
	assert_int_equal(r->msgs[1].role, ROLE_ASSISTANT);
	run_free(r);
	dataset_close(&ds);
}

/* A long session keeps its order and is read in linear time: 12000
 * lines, each written before the one it follows. */
static void test_long_reversed_chain(void **state)
{
	(void)state;
	enum { N = 12000 };
	struct strbuf sb = STRBUF_INIT;
	for (int i = N; i-- > 0;) {
		char parent[32];
		snprintf(parent, sizeof parent, i ? "'l%d'" : "null", i - 1);
		strbuf_addf(&sb, "{'type': 'user', 'uuid': 'l%d', 'parentUuid': %s, 'sessionId': 'long',"
		            " 'message': {'role': 'user', 'content': 'm%d'}}\n", i, parent, i);
	}
	struct dataset ds = { 0 };
	open_runs(&ds, write_session("long.jsonl", sb.buf), 1);
	strbuf_release(&sb);
	struct run *r = load_nth(&ds, 0);
	assert_int_equal(r->nmsgs, N);
	assert_string_equal(r->msgs[0].text, "m0");
	assert_string_equal(r->msgs[N - 1].text, "m11999");
	assert_string_equal(r->msgs[5000].text, "m5000");
	run_free(r);
	dataset_close(&ds);
}

/* Two sessions in one file: a run each, in the order they start; lines
 * with no session go with the nearest line that has one. */
static void test_two_sessions(void **state)
{
	(void)state;
	struct dataset ds = { 0 };
	const char *path = write_session("two.jsonl",
	    "{'type': 'summary', 'summary': 'A', 'leafUuid': 'a1'}\n"
	    "{'type': 'user', 'uuid': 'a1', 'parentUuid': null, 'sessionId': 'A',"
	    " 'message': {'role': 'user', 'content': 'first A'}}\n"
	    "'stray'\n"
	    "{'type': 'user', 'uuid': 'b1', 'parentUuid': null, 'sessionId': 'B',"
	    " 'message': {'role': 'user', 'content': 'first B'}}\n"
	    "{'type': 'user', 'uuid': 'a2', 'parentUuid': 'a1', 'sessionId': 'A',"
	    " 'message': {'role': 'user', 'content': 'second A'}}\n"
	    "[1]\n"
	    "{'silly': 'this'}\n"
	    "{'type': 'assistant', 'uuid': 'b2', 'parentUuid': 'b1', 'sessionId': 'B',"
	    " 'message': {'id': 'mb', 'role': 'assistant', 'content': [{'type': 'tool_use', 'id': 't1',"
	    " 'name': 'Read', 'input': {}}]}}\n"
	    "{'type': 'agent-name', 'uuid': 'b3', 'parentUuid': 'b2', 'sessionId': 'B', 'name': 'x'}\n");
	open_runs(&ds, path, 2);
	struct run *a = load_nth(&ds, 0), *b = load_nth(&ds, 1);
	assert_string_equal(a->id, "A");
	assert_string_equal(b->id, "B");
	char want[700];
	snprintf(want, sizeof want, "%s[1]", path);
	assert_string_equal(b->source, want);
	/* A: its two lines, the summary before them, the stray string (as
	 * near A's line as B's: the earlier) and [1] (nearer A) */
	assert_int_equal(a->nmsgs, 4);
	assert_string_equal(a->msgs[0].text, "first A");
	assert_string_equal(part(a, 1, 0)->text, "[2]: not an event (a string)");
	assert_string_equal(a->msgs[2].text, "second A");
	assert_string_equal(part(a, 3, 0)->text, "[4]: not an event (a list)");
	/* B: the silly object, nearer B's last line */
	assert_int_equal(b->nmsgs, 4);
	assert_string_equal(b->msgs[0].text, "first B");
	assert_string_equal(part(b, 1, 0)->text, "[1]: an event with no type");
	/* a line gathered out of the file is found by its uuid */
	assert_string_equal(part(b, 3, 0)->text, "[3] (uuid b3): event type \"agent-name\" (not read)");
	assert_null(note_with(a, "no type"));
	assert_int_equal(b->ncalls, 1);
	assert_int_equal(b->calls[0].state, CALL_REQUESTED);
	run_free(a);
	run_free(b);
	dataset_close(&ds);
}

static const char subagent_text[] =
    "{'type': 'user', 'uuid': 's1', 'parentUuid': null, 'sessionId': 'sess-1', 'isSidechain': true,"
    " 'agentId': 'a7f3', 'message': {'role': 'user', 'content': 'Find the parser tests.'}}\n"
    "{'type': 'assistant', 'uuid': 's2', 'parentUuid': 's1', 'sessionId': 'sess-1', 'isSidechain': true,"
    " 'agentId': 'a7f3', 'message': {'id': 'msg_S', 'role': 'assistant', 'model': 'claude-haiku-4-5',"
    " 'content': [{'type': 'tool_use', 'id': 'toolu_s', 'name': 'Glob', 'input': {'pattern': '*_test.c'}}]}}\n"
    "{'type': 'user', 'uuid': 's3', 'parentUuid': 's2', 'sessionId': 'sess-1', 'isSidechain': true,"
    " 'agentId': 'a7f3', 'message': {'role': 'user', 'content': [{'type': 'tool_result',"
    " 'tool_use_id': 'toolu_s', 'content': 'tests/parser_test.c'}]}}\n";

/* A subagent's file is a run of its own, linked to its parent session. */
static void test_subagent_file(void **state)
{
	(void)state;
	struct dataset ds = { 0 };
	open_runs(&ds, write_session("proj/sess-1/subagents/agent-a7f3.jsonl", subagent_text), 1);
	struct run *r = load_nth(&ds, 0);
	assert_string_equal(r->id, "sess-1/agent-a7f3");
	assert_string_equal(r->parent_id, "sess-1");
	assert_string_equal(r->model, "claude-haiku-4-5");
	assert_int_equal(r->ncalls, 1);
	assert_int_equal(r->calls[0].state, CALL_COMPLETED);
	run_free(r);
	dataset_close(&ds);
}

/* A main file holding sidechain lines: those with an agentId are that
 * subagent's run, those of older versions without one a run of their own,
 * and the session keeps its own lines and calls. */
static void test_sidechains_in_main_file(void **state)
{
	(void)state;
	struct dataset ds = { 0 };
	open_runs(&ds, write_session("mixed.jsonl",
	    "{'type': 'user', 'uuid': 'm1', 'parentUuid': null, 'sessionId': 'S', 'isSidechain': false,"
	    " 'message': {'role': 'user', 'content': 'main'}}\n"
	    "{'type': 'user', 'uuid': 'o1', 'parentUuid': null, 'sessionId': 'S', 'isSidechain': true,"
	    " 'message': {'role': 'user', 'content': 'old subagent'}}\n"
	    "{'type': 'assistant', 'uuid': 'o2', 'parentUuid': 'o1', 'sessionId': 'S', 'isSidechain': true,"
	    " 'message': {'id': 'mo', 'role': 'assistant', 'content': [{'type': 'tool_use', 'id': 'to',"
	    " 'name': 'Grep', 'input': {}}]}}\n"
	    "{'type': 'user', 'uuid': 'n1', 'parentUuid': null, 'sessionId': 'S', 'isSidechain': true,"
	    " 'agentId': 'b2', 'message': {'role': 'user', 'content': 'new subagent'}}\n"
	    "{'type': 'assistant', 'uuid': 'm2', 'parentUuid': 'm1', 'sessionId': 'S', 'isSidechain': false,"
	    " 'message': {'id': 'mm', 'role': 'assistant', 'content': 'done'}}\n"), 3);
	static const char *const ids[] = { "S", "S/sidechain", "S/agent-b2" };
	static const size_t nmsgs[] = { 2, 2, 1 }, ncalls[] = { 0, 1, 0 };
	for (size_t k = 0; k < 3; k++) {
		struct run *r = load_nth(&ds, k);
		assert_string_equal(r->id, ids[k]);
		if (k)
			assert_string_equal(r->parent_id, "S");
		else
			assert_null(r->parent_id);
		assert_int_equal(r->nmsgs, nmsgs[k]);
		assert_int_equal(r->ncalls, ncalls[k]);
		run_free(r);
	}
	dataset_close(&ds);
}

/* A project folder: one run per session file, the subagent's among them. */
static void test_folder(void **state)
{
	(void)state;
	write_session("proj/sess-1.jsonl", session_text);
	write_session("proj/sess-1/subagents/agent-a7f3.jsonl", subagent_text);
	write_session("proj/sess-2.jsonl",
	    "{'type': 'summary', 'summary': 'Hello', 'leafUuid': 'h1'}\n"
	    "{'type': 'user', 'uuid': 'h1', 'parentUuid': null, 'sessionId': 'sess-2',"
	    " 'message': {'role': 'user', 'content': 'hello'}}\n");
	char dir[400];
	snprintf(dir, sizeof dir, "%s/proj", tmpdir);
	struct dataset ds = { 0 };
	open_runs(&ds, dir, 3);
	static const char *const ids[] = { "sess-1/agent-a7f3", "sess-1", "sess-2" };
	for (size_t k = 0; k < 3; k++) {
		struct run *r = load_nth(&ds, k);
		assert_string_equal(r->id, ids[k]);
		run_free(r);
	}
	dataset_close(&ds);
}

/* Server tools (their results beside their calls), redacted thinking,
 * images and blocks of no known type, in one record as a .json file. */
static void test_blocks(void **state)
{
	(void)state;
	struct dataset ds = { 0 };
	open_runs(&ds, write_session("blocks.json",
	    "[" EV("user", "u1", "null") "'message': {'role': 'user', 'content': [{'type': 'text', 'text': 'look'},"
	    "  {'type': 'image', 'source': {'type': 'base64', 'media_type': 'image/png', 'data': 'iVBO'}}]}},\n"
	    EV("assistant", "a1", "'u1'") AS("m1") "[{'type': 'redacted_thinking', 'data': 'eyJ'},"
	    "  {'type': 'server_tool_use', 'id': 'srv_1', 'name': 'web_search', 'input': {'query': 'parser'}},"
	    "  {'type': 'web_search_tool_result', 'tool_use_id': 'srv_1', 'content': [{'type': 'web_search_result',"
	    "   'url': 'https://example.com', 'title': 'Parsers'}]},"
	    "  {'type': 'server_tool_use', 'id': 'srv_2', 'name': 'web_search', 'input': {'query': 'x'}},"
	    "  {'type': 'web_search_tool_result', 'tool_use_id': 'srv_2', 'content': {'type':"
	    "   'web_search_tool_result_error', 'error_code': 'max_uses_exceeded'}},"
	    "  {'type': 'web_search_tool_result', 'tool_use_id': 'srv_9', 'content': []},"
	    "  {'type': 'hologram', 'beam': 1}, 7]}}]\n"), 1);
	struct run *r = load_nth(&ds, 0);
	assert_int_equal(r->nmsgs, 2);
	assert_string_equal(r->msgs[0].text, "look");
	assert_string_equal(part(r, 0, 1)->text, "image (not shown)");
	assert_int_equal(part(r, 1, 0)->kind, PART_THINKING);
	assert_string_equal(part(r, 1, 0)->text, "");
	assert_int_equal(r->ncalls, 2);
	assert_int_equal(r->calls[0].state, CALL_COMPLETED);
	assert_int_equal(r->calls[0].result_msg, -1);
	assert_int_equal(r->calls[1].state, CALL_FAILED);
	assert_string_equal(r->calls[1].error_text, "max_uses_exceeded");
	/* parts: thinking, call, call, the unknown block, the number, the
	 * result for no call */
	assert_int_equal(r->msgs[1].nparts, 6);
	assert_string_equal(part(r, 1, 3)->text, "block type \"hologram\" (not read)");
	assert_string_equal(part(r, 1, 4)->text, "message.content[7]: not a block (a number)");
	assert_string_equal(part(r, 1, 5)->text,
	                    "web_search_tool_result for no call of this message (srv_9)");
	assert_int_equal(r->nnotes, 4);
	run_free(r);
	dataset_close(&ds);
}

/* A code execution that exited non-zero fails its call, as in the
 * Messages loader: the exit code, then what it wrote. */
static void test_code_execution_exit(void **state)
{
	(void)state;
	struct dataset ds = { 0 };
	open_runs(&ds, write_session("exec.json",
	    "[" EV("user", "u1", "null") "'message': {'role': 'user', 'content': 'build it'}},\n"
	    EV("assistant", "a1", "'u1'") AS("m1") "["
	    "  {'type': 'server_tool_use', 'id': 'srv_1', 'name': 'bash_code_execution', 'input': {'command': 'make'}},"
	    "  {'type': 'bash_code_execution_tool_result', 'tool_use_id': 'srv_1', 'content': {'type':"
	    "   'bash_code_execution_result', 'stdout': '', 'stderr': 'make: no rule', 'return_code': 2}},"
	    "  {'type': 'server_tool_use', 'id': 'srv_2', 'name': 'bash_code_execution', 'input': {'command': 'ls'}},"
	    "  {'type': 'bash_code_execution_tool_result', 'tool_use_id': 'srv_2', 'content': {'type':"
	    "   'bash_code_execution_result', 'stdout': 'a.txt', 'stderr': '', 'return_code': 0}}]}}]\n"), 1);
	struct run *r = load_nth(&ds, 0);
	assert_int_equal(r->ncalls, 2);
	assert_int_equal(r->calls[0].state, CALL_FAILED);
	assert_true(r->calls[0].is_error);
	assert_string_equal(r->calls[0].error_text, "exit code 2\nmake: no rule");
	assert_int_equal(r->calls[1].state, CALL_COMPLETED);
	assert_false(r->calls[1].is_error);
	run_free(r);
	dataset_close(&ds);
}

/* ---- detection and errors ------------------------------------------------- */

static void test_detection(void **state)
{
	(void)state;
	assert_int_equal(fmt_score("claude-code", EV("user", "u", "null")
	                           "'message': {'role': 'user', 'content': 'x'}}"), 85);
	assert_int_equal(fmt_score("claude-code", EV("progress", "p", "'u'") "'data': {}}"), 75);
	assert_int_equal(fmt_score("claude-code", "{'type': 'summary', 'summary': 's', 'leafUuid': 'u'}"),
	                 70);
	assert_int_equal(fmt_score("claude-code", "{'type': 'file-history-snapshot', 'messageId': 'u',"
	                           " 'snapshot': {}}"), 70);
	assert_int_equal(fmt_score("claude-code", "{'type': 'queue-operation', 'operation': 'remove',"
	                           " 'sessionId': 's'}"), 70);
	/* the lines detection picks: none goes to another format */
	const struct format_ops *f = fmt_detect(EV("assistant", "a", "'u'") AS("m")
	                                        "[{'type': 'text', 'text': 'x'}]}}");
	assert_non_null(f);
	assert_string_equal(f->name, "claude-code");
	/* not Claude Code: a message without the session's keys, a Codex line,
	 * a summary of something else */
	assert_int_equal(fmt_score("claude-code", "{'type': 'user', 'message': {'role': 'user',"
	                           " 'content': 'x'}}"), 0);
	assert_int_equal(fmt_score("claude-code", "{'timestamp': 't', 'type': 'session_meta',"
	                           " 'payload': {'id': 'x'}}"), 0);
	assert_int_equal(fmt_score("claude-code", "{'type': 'summary', 'summary': 's'}"), 0);
	assert_int_equal(fmt_score("claude-code", "[{'silly': 'this'}, {'type': 'summary',"
	                           " 'summary': 's', 'leafUuid': 'u'}, {'other': 1}]"), 0);
	assert_int_equal(fmt_score("claude-code", "[null, 42, {'type': 'summary',"
	                           " 'summary': 's', 'leafUuid': 'u'}]"), 70);
	assert_int_equal(fmt_check_samples("claude-code"), 1);
}

/* No other format scores a line of our sessions at all (the number and
 * the cut line aside, which no format claims). */
static void test_lines_are_ours_alone(void **state)
{
	(void)state;
	const char *const texts[] = { session_text, subagent_text, NULL };
	size_t checked = 0;
	for (size_t t = 0; texts[t]; t++) {
		char *copy = strdup(texts[t]);
		assert_non_null(copy);
		for (char *line = strtok(copy, "\n"); line; line = strtok(NULL, "\n")) {
			if (line[0] != '{' || line[strlen(line) - 1] != '}')
				continue;
			json_t *rec = fmt_parse(line);
			for (size_t i = 0; format_table[i]; i++) {
				int score = fmt_detect_json(format_table[i], rec);
				bool mine = !strcmp(format_table[i]->name, "claude-code");
				if (!mine && score != 0)
					fprintf(stderr, "%s claims %s\n", format_table[i]->name, line);
				assert_true(mine ? score > 0 : score == 0);
			}
			json_decref(rec);
			checked++;
		}
		free(copy);
	}
	assert_int_equal(checked, 20);
}

static void test_errors(void **state)
{
	(void)state;
	static const struct fmt_error_case cases[] = {
		{ "'a string'", "a claude-code record must be the array of a session's events or one event" },
		{ "[]", "no Claude Code event (an object with a type) in the session" },
		{ "[null, 42, {'silly': 1}]", "no Claude Code event (an object with a type) in the session" },
		{ "{'uuid': 'u'}", "type: missing or not a string" },
		{ NULL, NULL },
	};
	fmt_expect_errors("claude-code", cases);
	/* a record built in memory has no lines: notes name the element */
	struct run *r = fmt_load("[" EV("user", "u", "null") "'message': {'role': 'user', 'content': 'x'}}, 42]",
	                         "claude-code");
	assert_string_equal(part(r, 1, 0)->text, "[1]: not an event (a number)");
	run_free(r);
	/* one event alone is a session of one line */
	struct error err = {0};
	assert_int_equal(fmt_load_err(EV("user", "u", "null") "'message': {'role': 'user', 'content': 'x'}}",
	                              "claude-code", &err), 0);
}

/* ---- the shared wild samples ---------------------------------------------- */

struct wild_file {
	const char *name;
	size_t runs;
	size_t calls[2];            /* per run */
	const char *id;             /* the first run's */
};

static void test_wild(void **state)
{
	(void)state;
	static const struct wild_file files[] = {
		{ "spotter-short.jsonl", 1, { 2 }, "55604662-cf2a-4331-851a-ec234028f8ca" },
		{ "spotter-tool_heavy.jsonl", 1, { 6 }, "d6e0bada-1959-4eec-a9d2-0bfade768d8f" },
		{ "spotter-subagent.jsonl", 1, { 16 }, "491e126e-1e71-469c-ade2-fcc8af567c74" },
		{ "spotter-ae4a77f8-subagents-agent-aac57f5.jsonl", 1, { 12 },
		  "ae4a77f8-aedd-4bc1-888f-c94edc91af04/agent-aac57f5" },
		{ "claude-code-log-representative_messages.jsonl", 1, { 2 }, "test_session" },
		{ "claude-code-log-edge_cases.jsonl", 2, { 2, 1 }, "edge_cases" },
		{ NULL, 0, { 0 }, NULL },
	};
	for (size_t i = 0; files[i].name; i++) {
		char rel[200];
		snprintf(rel, sizeof rel, "claude-code/%s", files[i].name);
		struct dataset ds = { 0 };
		struct run *r = fmt_wild_run(&ds, rel, "claude-code", files[i].runs, files[i].calls[0]);
		if (!r) {
			skip();
			return;
		}
		assert_string_equal(r->id, files[i].id);
		assert_int_equal(r->nnotes, i == 5 ? 4 : 0);
		run_free(r);
		for (size_t k = 1; k < files[i].runs; k++) {
			r = load_nth(&ds, k);
			assert_int_equal(r->ncalls, files[i].calls[k]);
			run_free(r);
		}
		dataset_close(&ds);
	}
}

static void test_wild_claims(void **state)
{
	(void)state;
	fmt_check_wild("claude-code", "claude-code");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_session),
		cmocka_unit_test(test_parent_order),
		cmocka_unit_test(test_long_reversed_chain),
		cmocka_unit_test(test_two_sessions),
		cmocka_unit_test(test_subagent_file),
		cmocka_unit_test(test_sidechains_in_main_file),
		cmocka_unit_test(test_folder),
		cmocka_unit_test(test_blocks),
		cmocka_unit_test(test_code_execution_exit),
		cmocka_unit_test(test_detection),
		cmocka_unit_test(test_lines_are_ours_alone),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_wild),
		cmocka_unit_test(test_wild_claims),
	};
	return cmocka_run_group_tests(tests, make_tmpdir, remove_tmpdir);
}
