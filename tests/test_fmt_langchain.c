/* test_fmt_langchain.c - the LangChain message-dump loader. */
#include "fmt_test.h"

#define LC "langchain"

static void test_detect(void **state)
{
	(void)state;
	assert_int_equal(fmt_score(LC, "[{'type': 'human', 'data': {'content': 'hi'}}]"), 60);
	/* A LangGraph state keeps other keys beside its messages. */
	assert_int_equal(fmt_score(LC, "{'messages': [{'type': 'ai', 'data': {'content': 'x'}}],"
	                               " 'remaining_steps': 3}"), 60);
	/* type without data is some other format's item (Responses). */
	assert_int_equal(fmt_score(LC, "[{'type': 'message', 'role': 'user', 'content': 'hi'}]"), 0);
	/* One message of another shape rules the record out. */
	assert_int_equal(fmt_score(LC, "[{'type': 'human', 'data': {'content': 'hi'}},"
	                               " {'role': 'assistant', 'content': 'yo'}]"), 0);
	/* lc objects that are not messages. */
	assert_int_equal(fmt_score(LC, "[{'lc': 1, 'type': 'constructor',"
	                               " 'id': ['langchain', 'prompts', 'PromptTemplate'], 'kwargs': {}}]"), 0);
	assert_int_equal(fmt_score(LC, "{'messages': []}"), 0);
}

static const char *const dump =
	"{'messages': ["
	"  {'type': 'system', 'data': {'content': 'You are a shop assistant.', 'type': 'system'}},"
	"  {'type': 'human', 'data': {'content': [{'type': 'text', 'text': '注文 2087'},"
	"     {'type': 'image_url', 'image_url': {'url': 'data:'}}, {'type': 'text', 'text': 'と 2088'}],"
	"     'type': 'human', 'id': 'h1'}},"
	"  {'type': 'ai', 'data': {'type': 'ai', 'id': 'run-1',"
	"     'content': [{'type': 'text', 'text': '調べます。'},"
	"       {'type': 'tool_use', 'id': 'call_1', 'name': 'lookup_order', 'input': {'order': '2087'}}],"
	"     'tool_calls': [{'name': 'lookup_order', 'args': {'order': '2087'}, 'id': 'call_1', 'type': 'tool_call'},"
	"       {'name': 'lookup_order', 'args': {'order': '2088'}, 'id': 'call_2', 'type': 'tool_call'}],"
	"     'invalid_tool_calls': [{'name': 'track_parcel', 'args': '{tracking: SF88', 'id': 'call_3',"
	"       'error': 'Function track_parcel arguments are not valid JSON', 'type': 'invalid_tool_call'}]}},"
	"  {'type': 'tool', 'data': {'content': 'order not found', 'tool_call_id': 'call_2', 'status': 'error',"
	"     'name': 'lookup_order', 'type': 'tool'}},"
	"  {'type': 'tool', 'data': {'content': [{'type': 'text', 'text': 'shipped'}], 'tool_call_id': 'call_1',"
	"     'status': 'success', 'type': 'tool', 'artifact': null}},"
	"  {'lc': 1, 'type': 'constructor', 'id': ['langchain_core', 'messages', 'AIMessageChunk'],"
	"   'kwargs': {'content': '', 'type': 'AIMessageChunk', 'tool_calls': [{'name': 'refund',"
	"     'args': {}, 'id': 'call_4', 'type': 'tool_call'}]}},"
	"  {'type': 'remove', 'data': {'content': '', 'id': 'h1'}},"
	"  {'type': 'chat', 'data': {'content': 'noted', 'role': 'assistant'}},"
	"  {'type': 'ai', 'data': {'content': '', 'additional_kwargs': {'function_call':"
	"     {'name': 'legacy', 'arguments': '{}'}}, 'tool_calls': [{'name': 'legacy', 'args': {}, 'id': null}]}},"
	"  {'type': 'function', 'data': {'content': 'done', 'name': 'legacy'}},"
	"  {'type': 'ai', 'data': {'content': '2087 已发货 📦', 'tool_calls': [], 'invalid_tool_calls': []}}]}";

static void test_load(void **state)
{
	(void)state;
	struct run *r = fmt_load(dump, LC);
	assert_int_equal(r->nmsgs, 11);
	assert_int_equal(r->msgs[0].role, ROLE_SYSTEM);
	assert_int_equal(r->msgs[1].role, ROLE_USER);
	assert_string_equal(r->msgs[1].text, "注文 2087\nと 2088");
	assert_string_equal(r->msgs[2].text, "調べます。");
	/* tool_calls are the calls; the tool_use block repeats one, not counted twice. */
	assert_int_equal(r->msgs[2].ncalls, 3);
	assert_int_equal(r->ncalls, 5);
	assert_string_equal(r->calls[0].id, "call_1");
	assert_int_equal(r->calls[0].state, CALL_COMPLETED);
	assert_int_equal(r->calls[0].result_msg, 4);
	assert_int_equal(r->calls[1].state, CALL_FAILED);
	assert_string_equal(r->calls[1].error_text, "order not found");
	/* The invalid call stays visible, failed with LangChain's reason. */
	assert_string_equal(r->calls[2].name, "track_parcel");
	assert_int_equal(r->calls[2].state, CALL_FAILED);
	assert_string_equal(r->calls[2].error_text, "Function track_parcel arguments are not valid JSON");
	assert_true(run_call_args_invalid(r, &r->calls[2]));
	/* The serialized chunk: an ai message whose call got no answer. */
	assert_int_equal(r->msgs[5].role, ROLE_ASSISTANT);
	assert_string_equal(r->calls[3].name, "refund");
	assert_int_equal(r->calls[3].state, CALL_REQUESTED);
	/* An unknown type is kept as a note saying its type. */
	assert_int_equal(r->msgs[6].role, ROLE_NOTE);
	assert_string_equal(fmt_parts(r, 6), "note");
	assert_string_equal(r->parts[r->msgs[6].first_part].text, "message type \"remove\"");
	assert_int_equal(r->msgs[7].role, ROLE_ASSISTANT);
	/* The function message answers by name. */
	assert_null(r->calls[4].id);
	assert_int_equal(r->calls[4].state, CALL_COMPLETED);
	assert_int_equal(r->calls[4].result_msg, 9);
	assert_int_equal(fmt_count_unmatched(r), 0);
	assert_int_equal(r->calls[3].msg_index, 5);
	assert_string_equal(run_final_agent_text(r), "2087 已发货 📦");
	assert_int_equal(run_agent_calls(r, NULL), 5);
	run_free(r);
}

/* Thinking and reasoning blocks and DeepSeek's reasoning_content are
 * thinking parts, in the content's order; the text stays the text. */
static void test_thinking_parts(void **state)
{
	(void)state;
	struct run *r = fmt_load(
		"[{'type': 'human', 'data': {'content': 'hi'}},"
		" {'type': 'ai', 'data': {'content': [{'type': 'thinking', 'thinking': 'greet', 'signature': 's'},"
		"   {'type': 'text', 'text': 'hello'}, {'type': 'reasoning', 'reasoning': 'then ask'},"
		"   {'type': 'text', 'text': 'how are you?'}], 'tool_calls': [{'name': 'f', 'args': {}, 'id': 'c'}]}},"
		" {'type': 'ai', 'data': {'content': 'ok', 'additional_kwargs': {'reasoning_content': 'fine'}}},"
		" {'type': 'critic', 'data': {'content': 'meh'}}]", LC);
	assert_string_equal(fmt_parts(r, 1), "thinking text thinking text call");
	assert_string_equal(r->parts[r->msgs[1].first_part].text, "greet");
	assert_string_equal(r->msgs[1].text, "hello\nhow are you?");
	assert_string_equal(fmt_parts(r, 2), "thinking text");
	assert_string_equal(r->msgs[2].text, "ok");
	assert_int_equal(r->msgs[3].role, ROLE_NOTE);
	assert_string_equal(r->parts[r->msgs[3].first_part].text, "message type \"critic\": meh");
	assert_int_equal(r->msgs[3].src_index, 3);
	run_free(r);
}

static void test_bare_and_unmatched(void **state)
{
	(void)state;
	struct run *r = fmt_load("[{'type': 'human', 'data': {'content': 'hi'}},"
	                         " {'type': 'tool', 'data': {'content': 'stray', 'tool_call_id': 'nope'}}]", LC);
	assert_int_equal(r->nmsgs, 2);
	assert_int_equal(r->msgs[1].src_index, 1);
	assert_int_equal(fmt_count_unmatched(r), 1);
	run_free(r);
}

static void test_errors(void **state)
{
	(void)state;
	static const struct fmt_error_case cases[] = {
		{ "{'messages': [{'type': 'human', 'data': {'content': 'hi'}}, 3]}", "messages[1]: not an object" },
		{ "[{'data': {'content': 'hi'}}]", "[0].type: missing" },
		{ "[{'type': 7, 'data': {}}]", "[0].type: not a string" },
		{ "[{'type': 'human', 'data': 'hi'}]", "[0].data: not an object" },
		{ "[{'type': 'human', 'data': {'content': 3}}]",
		  "[0].data.content: not a string, a list or null" },
		{ "[{'type': 'ai', 'data': {'content': '', 'tool_calls': {}}}]",
		  "[0].data.tool_calls: not an array" },
		{ "[{'type': 'ai', 'data': {'content': '', 'tool_calls': [1]}}]",
		  "[0].data.tool_calls[0]: not an object" },
		{ "[{'type': 'ai', 'data': {'content': '', 'tool_calls': [{'name': 'f', 'args': '{}'}]}}]",
		  "[0].data.tool_calls[0].args: not an object" },
		{ "[{'type': 'ai', 'data': {'content': '', 'invalid_tool_calls': [{'name': 3}]}}]",
		  "[0].data.invalid_tool_calls[0].name: not a string" },
		{ "[{'type': 'tool', 'data': {'content': '', 'tool_call_id': true}}]",
		  "[0].data.tool_call_id: not a string" },
		{ "[{'lc': 1, 'type': 'constructor', 'id': ['x', 'Prompt'], 'kwargs': {}}]",
		  "[0]: not a serialized message (id, kwargs)" },
		{ "[{'lc': 1, 'type': 'constructor', 'id': ['x', 'AIMessage'], 'kwargs': {'content': {}}}]",
		  "[0].kwargs.content: not a string, a list or null" },
		{ "'text'", "a langchain record must be an object with messages or an array of messages" },
		{ NULL, NULL },
	};
	fmt_expect_errors(LC, cases);
}

/* Every file of the shared wild folder is another format's: neither
 * LangChain loader may claim a record of them. */
static void wild_check_one(const char *path, const char *text, size_t n)
{
	const struct format_ops *lc = format_find("langchain"), *ls = format_find("langsmith");
	struct jdoc_error jerr;
	struct jdoc *d = jdoc_parse(text, n, n, &jerr);
	if (!d)
		return;
	int a = lc->detect(d, jdoc_root(d)), b = ls->detect(d, jdoc_root(d));
	if (a || b)
		fprintf(stderr, "%s claimed (langchain %d, langsmith %d)\n", path, a, b);
	assert_int_equal(a + b, 0);
	jdoc_free(d);
}

static void check_wild_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	long len = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *buf = malloc((size_t)len + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
	buf[len] = '\0';
	fclose(f);
	/* The whole file as one record, then each line as one. */
	wild_check_one(path, buf, (size_t)len);
	if (strchr(buf, '\n'))
		for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n"))
			wild_check_one(path, line, strlen(line));
	free(buf);
}

static size_t walk_wild(const char *dir)
{
	DIR *dp = opendir(dir);
	if (!dp)
		return 0;
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(dp))) {
		if (e->d_name[0] == '.')
			continue;
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		size_t len = strlen(e->d_name);
		if (len > 5 && !strcmp(e->d_name + len - 5, ".json"))
			check_wild_file(path), n++;
		else if (len > 6 && !strcmp(e->d_name + len - 6, ".jsonl"))
			check_wild_file(path), n++;
		else if (!strchr(e->d_name, '.'))
			n += walk_wild(path);
	}
	closedir(dp);
	return n;
}

static void test_wild_not_claimed(void **state)
{
	(void)state;
	char dir[4096];
	if (!fmt_shared_path(dir, sizeof dir, "fixtures/real/wild")) {
		skip();
		return;
	}
	assert_true(walk_wild(dir) > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_detect),
		cmocka_unit_test(test_load),
		cmocka_unit_test(test_thinking_parts),
		cmocka_unit_test(test_bare_and_unmatched),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_wild_not_claimed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
