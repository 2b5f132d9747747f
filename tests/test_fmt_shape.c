/* test_fmt_shape.c - the reader by shape (format shape) on made-up records:
 * message lists under any key, calls in every spelling, results by id, by
 * name and by position, span lists out of time order, repeats counted
 * once, JSON held in strings, what is not a call (declarations, expected
 * calls, traces), records with no conversation, hostile nesting, and the
 * rule that a loader whose claim reads nothing passes the record on.
 *
 * Fixtures use ' for " (fmt_parse swaps them); \\' is a quote inside a
 * JSON text held in a string. */
#include "fmt_test.h"

#include "util/strbuf.h"
#include "util/error.h"

static struct run *shape(const char *text)
{
	json_t *rec = fmt_parse(text);
	struct run *r = run_new(rec, "test.jsonl", 1, -1);
	json_decref(rec);
	struct error err = {0};
	int rc = format_load(r, format_find("shape"), &err);
	if (rc)
		fprintf(stderr, "shape: %s\n", err.msg);
	assert_int_equal(rc, 0);
	assert_string_equal(r->format, "shape");
	return r;
}

/* The names of the agent's calls, joined with ','. */
static const char *names(const struct run *r, char *buf, size_t len)
{
	size_t idx[64], n = run_agent_calls(r, NULL);
	assert_true(n <= 64);
	run_agent_calls(r, idx);
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", i ? "," : "", r->calls[idx[i]].name);
	return buf;
}

static size_t notes_saying(const struct run *r, const char *what)
{
	size_t n = 0;
	for (size_t i = 0; i < r->nparts; i++)
		n += r->parts[i].kind == PART_NOTE && strstr(r->parts[i].text, what) != NULL;
	return n;
}

static void test_messages_under_any_key(void **state)
{
	(void)state;
	struct run *r = shape("{'meta':{'v':1},'data':{'chat':{'history':["
	                      " {'role':'system','content':'Be brief.'},"
	                      " {'author':'human','text':'Hi there'},"
	                      " {'sender':'AIMessage','parts':[{'text':'Hello'},{'text':'again'}]},"
	                      " {'type':'user','message':{'role':'user','content':'bye'}}]}}}");
	assert_int_equal(r->ncalls, 0);
	assert_int_equal(r->msgs[0].role, ROLE_SYSTEM);
	assert_int_equal(r->msgs[1].role, ROLE_USER);
	assert_string_equal(r->msgs[1].text, "Hi there");
	assert_int_equal(r->msgs[2].role, ROLE_ASSISTANT);
	assert_string_equal(r->msgs[2].text, "Hello\nagain");
	assert_string_equal(r->msgs[3].text, "bye");
	assert_int_equal(notes_saying(r, "read by shape"), 1);
	run_free(r);
}

static void test_calls_in_every_spelling(void **state)
{
	(void)state;
	char buf[512];
	struct run *r = shape("{'steps':["
	                      " {'role':'user','content':'go'},"
	                      " {'role':'assistant','content':null,'tool_calls':["
	                      "  {'id':'a','type':'function','function':{'name':'chat_fn','arguments':'{}'}}]},"
	                      " {'role':'assistant','content':["
	                      "  {'type':'tool_use','id':'b','name':'anthropic_fn','input':{}},"
	                      "  {'type':'server_tool_use','id':'c','name':'web_search','input':{'q':'x'}},"
	                      "  {'functionCall':{'name':'gemini_fn','args':{'k':1}}},"
	                      "  {'type':'tool_call','id':'d','name':'genai_fn','arguments':{}}]},"
	                      " {'function_name':'atif_fn','arguments':{},'tool_call_id':'e'},"
	                      " {'tool_name':'adk_fn','args':{},'id':null},"
	                      " {'toolName':'sdk_fn','input':{},'toolCallId':'f'},"
	                      " {'name':'kw_fn','kwargs':{'x':1}},"
	                      " {'name':'param_fn','parameters':{'x':1}},"
	                      " {'id':'g','function':'inspect_fn','arguments':{}},"
	                      " {'type':'web_search_call','status':'completed','action':{'query':'q'}},"
	                      " {'type':'function_call','call_id':'h','name':'resp_fn','arguments':'{}'}]}");
	assert_string_equal(names(r, buf, sizeof buf),
	                    "chat_fn,anthropic_fn,web_search,gemini_fn,genai_fn,atif_fn,adk_fn,sdk_fn,"
	                    "kw_fn,param_fn,inspect_fn,web_search,resp_fn");
	run_free(r);
	/* OpenAI's parallel wrapper: the calls it wraps are the model's */
	r = shape("{'output':[{'type':'function_call','call_id':'p','name':'multi_tool_use.parallel',"
	          "'arguments':'{\\'tool_uses\\':[{\\'recipient_name\\':\\'functions.weather\\',"
	          "\\'parameters\\':{\\'city\\':\\'Rome\\'}},{\\'recipient_name\\':\\'functions.sights\\',"
	          "\\'parameters\\':{}}]}'}]}");
	assert_string_equal(names(r, buf, sizeof buf), "weather,sights");
	run_free(r);
}

static void test_results_by_id_name_and_position(void **state)
{
	(void)state;
	/* a result before its call (by id), one by name, one by position */
	struct run *r = shape("{'log':["
	                      " {'call_id':'c2','output':'second done'},"
	                      " {'role':'assistant','content':'', 'tool_calls':["
	                      "  {'id':'c1','function':{'name':'one','arguments':'{}'}},"
	                      "  {'id':'c2','function':{'name':'two','arguments':'{}'}}]},"
	                      " {'role':'tool','content':'first done'},"
	                      " {'role':'assistant','content':'', 'tool_calls':["
	                      "  {'function':{'name':'three','arguments':'{}'}}]},"
	                      " {'name':'three','response':{'ok':true}},"
	                      " {'tool_call_id':'nope','content':'stray'}]}");
	assert_int_equal(r->ncalls, 3);
	for (size_t i = 0; i < 3; i++)
		assert_true(r->calls[i].has_result);
	assert_string_equal(r->msgs[r->calls[1].result_msg].text, "second done");
	assert_string_equal(r->msgs[r->calls[0].result_msg].text, "first done");
	assert_int_equal(fmt_count_unmatched(r), 1);
	run_free(r);
}

static void test_span_list_in_time_order(void **state)
{
	(void)state;
	char buf[256];
	/* the tool span comes first in the list, but after the generation in
	 * time: it is the result of the generation's call, not a second call */
	struct run *r = shape("{'observations':["
	                      " {'type':'TOOL','name':'lookup','startTime':'2025-01-01T00:00:02Z',"
	                      "  'input':{'order':7},'output':'shipped'},"
	                      " {'type':'GENERATION','name':'llm','startTime':'2025-01-01T00:00:01Z',"
	                      "  'input':'[{\\'role\\':\\'user\\',\\'content\\':\\'Where is 7?\\'}]',"
	                      "  'output':'{\\'role\\':\\'assistant\\',\\'content\\':[{\\'type\\':\\'tool_use\\',"
	                      "\\'id\\':\\'t1\\',\\'name\\':\\'lookup\\',\\'input\\':{\\'order\\':7}}]}'},"
	                      " {'type':'TOOL','name':'cancel','startTime':'2025-01-01T00:00:03Z',"
	                      "  'input':{'order':7},'output':'done'}]}");
	assert_string_equal(names(r, buf, sizeof buf), "lookup,cancel");
	assert_string_equal(r->calls[0].id, "t1");
	assert_true(r->calls[0].has_result);
	assert_true(r->calls[1].has_result);
	assert_int_equal(r->msgs[0].role, ROLE_USER);
	assert_int_equal(notes_saying(r, "known only by a tool span"), 1);
	run_free(r);
	/* tool spans alone, two of one tool: two calls, each its own result */
	r = shape("[{'type':'tool','name':'search','start_time':2,'input':{'q':'b'},'output':'B'},"
	          " {'type':'tool','name':'search','start_time':1,'input':{'q':'a'},'output':'A'}]");
	assert_string_equal(names(r, buf, sizeof buf), "search,search");
	assert_string_equal(r->msgs[r->calls[0].result_msg].text, "A");
	assert_string_equal(r->msgs[r->calls[1].result_msg].text, "B");
	run_free(r);
}

static void test_repeated_history_counts_once(void **state)
{
	(void)state;
	char buf[256];
	/* each model call's input repeats the calls before it */
	struct run *r = shape("{'model_calls':["
	                      " {'input':[{'role':'user','content':'go'}],"
	                      "  'output':{'role':'assistant','tool_calls':[{'id':'c1','function':{'name':'a','arguments':'{}'}}]}},"
	                      " {'input':[{'role':'user','content':'go'},"
	                      "   {'role':'assistant','tool_calls':[{'id':'c1','function':{'name':'a','arguments':{}}}]},"
	                      "   {'role':'tool','tool_call_id':'c1','content':'ok'}],"
	                      "  'output':{'role':'assistant','tool_calls':[{'id':'c2','function':{'name':'b','arguments':'{}'}}]}},"
	                      " {'input':[{'role':'user','content':'go'},"
	                      "   {'role':'assistant','tool_calls':[{'id':'c1','function':{'name':'a','arguments':{}}}]},"
	                      "   {'role':'tool','tool_call_id':'c1','content':'ok'},"
	                      "   {'role':'assistant','tool_calls':[{'id':'c2','function':{'name':'b','arguments':{}}}]}]}]}");
	assert_string_equal(names(r, buf, sizeof buf), "a,b");
	assert_true(notes_saying(r, "shown again") == 1);
	run_free(r);
	/* one conversation that really made the same call twice, and an id
	 * reused for another tool, keeps every call; calls with no id count
	 * once by name and arguments */
	r = shape("[{'role':'assistant','tool_calls':[{'id':'x','function':{'name':'ls','arguments':'{}'}}]},"
	          " {'role':'assistant','tool_calls':[{'id':'x','function':{'name':'ls','arguments':'{}'}}]},"
	          " {'role':'assistant','tool_calls':[{'id':'x','function':{'name':'cat','arguments':'{}'}}]},"
	          " {'role':'assistant','content':[{'type':'tool_call','name':'pwd','arguments':{'a':1,'b':2}}],"
	          "  'raw':{'role':'assistant','content':[{'type':'tool_call','name':'pwd','arguments':{'b':2,'a':1}}]}}]");
	assert_string_equal(names(r, buf, sizeof buf), "ls,ls,cat,pwd");
	run_free(r);
}

static void test_what_is_not_a_call(void **state)
{
	(void)state;
	struct run *r = shape("{'tools':[{'name':'lookup','description':'d','parameters':{'type':'object','properties':{}}}],"
	                      " 'functions':[{'name':'f','description':'d','input_schema':{'type':'object'}}],"
	                      " 'expected_tool_calls':[{'name':'lookup','arguments':{}}],"
	                      " 'task':{'actions':[{'name':'lookup','kwargs':{}}]},"
	                      " 'trace':{'name':'agent','input':{'q':1},'output':'x','startTime':'2025-01-01T00:00:00Z'},"
	                      " 'approvals':{'c9':'{\\'type\\':\\'function_call\\',\\'toolName\\':\\'t\\'}'},"
	                      " 'messages':[{'role':'user','content':'hi'},{'role':'assistant','content':'hello'}]}");
	assert_int_equal(r->ncalls, 0);
	assert_int_equal(notes_saying(r, "tool definitions"), 1);
	run_free(r);
}

static void test_json_held_in_strings(void **state)
{
	(void)state;
	char buf[128];
	struct run *r = shape("{'attributes':{'gen_ai.output.messages':"
	                      "'[{\\'role\\':\\'assistant\\',\\'parts\\':[{\\'type\\':\\'tool_call\\',"
	                      "\\'id\\':\\'k\\',\\'name\\':\\'get_weather\\',\\'arguments\\':{\\'city\\':\\'Oslo\\'}}]}]'}}");
	assert_string_equal(names(r, buf, sizeof buf), "get_weather");
	json_t *args = run_call_args(r, &r->calls[0]);
	assert_string_equal(json_string_value(json_object_get(args, "city")), "Oslo");
	run_free(r);
}

static void test_no_conversation(void **state)
{
	(void)state;
	static const char *const none[] = { "{'temperature':21,'readings':[{'sensor':'a','value':3}]}",
	                                    "{}", "[]", "12", "'text'", "null",
	                                    "{'messages':[{'content':'no role'}]}",
	                                    "{'question':[{'role':'user','content':'a prompt alone'}]}",
	                                    "{'x':'{not json at all'}", NULL };
	struct error err = {0};
	for (size_t i = 0; none[i]; i++) {
		assert_int_equal(fmt_load_err(none[i], "shape", &err), -1);
		assert_non_null(strstr(err.msg, "no conversation found"));
		assert_non_null(strstr(err.msg, "--format"));
	}
	/* detection never picks it */
	assert_int_equal(fmt_score("shape", "{'messages':[{'role':'user','content':'hi'}]}"), 0);
}

/* Strings of JSON holding strings of JSON: read a few deep, then left. */
static void test_hostile_nesting(void **state)
{
	(void)state;
	json_t *inner = json_pack("{s:s, s:[{s:s, s:s, s:s, s:s}]}", "role", "assistant", "content",
	                          "type", "tool_use", "id", "deep", "name", "deep_fn", "input", "{}");
	char *text = json_dumps(inner, JSON_COMPACT);
	json_decref(inner);
	for (int i = 0; i < 8; i++) {
		json_t *wrap = json_pack("{s:s}", "output", text);
		free(text);
		text = json_dumps(wrap, JSON_COMPACT);
		json_decref(wrap);
	}
	struct jdoc_error jerr;
	struct run *r = run_new_doc(jdoc_parse_str(text, &jerr), "t.jsonl", 1, -1);
	free(text);
	struct error err = {0};
	/* eight levels of JSON in strings are more than the reader parses */
	assert_int_equal(format_load(r, format_find("shape"), &err), -1);
	run_free(r);
	/* deep arrays of objects */
	struct strbuf sb = STRBUF_INIT;
	for (int i = 0; i < 900; i++)
		strbuf_addstr(&sb, "[{\"a\":");
	strbuf_addstr(&sb, "{\"role\":\"assistant\",\"content\":\"deep\"}");
	for (int i = 0; i < 900; i++)
		strbuf_addstr(&sb, "}]");
	r = run_new_doc(jdoc_parse_str(sb.buf, &jerr), "t.jsonl", 1, -1);
	strbuf_release(&sb);
	assert_int_equal(format_load(r, format_find("shape"), &err), 0);
	assert_string_equal(r->msgs[0].text, "deep");
	run_free(r);
}

/* The rule every reader follows: a claim that reads nothing goes on. */
static void test_claim_that_reads_nothing_passes_on(void **state)
{
	(void)state;
	const char *rec = "{'$schemaVersion':'1.0','original_input':[],'generated_items':[],"
	                  "'model_responses':[{'output':[{'type':'function_call','name':'lookup',"
	                  "'arguments':'{}','call_id':'c1'}]}]}";
	struct run *r = fmt_load(rec, "shape");
	assert_int_equal(r->ncalls, 1);
	run_free(r);
	/* nothing to find: the claimant's empty run stands */
	r = fmt_load("{'$schemaVersion':'1.0','original_input':[],'generated_items':[]}",
	             "openai-agents");
	assert_int_equal(r->nmsgs, 0);
	run_free(r);
	/* forced: never passed on */
	struct error err = {0};
	assert_int_equal(fmt_load_err(rec, "openai-agents", &err), 0);
	/* no format claims it: shape */
	r = fmt_load("{'turns':[{'speaker':'x'}],'log':[{'role':'user','content':'hi'},"
	             "{'role':'model','content':'hello'}]}", "shape");
	run_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_messages_under_any_key),
		cmocka_unit_test(test_calls_in_every_spelling),
		cmocka_unit_test(test_results_by_id_name_and_position),
		cmocka_unit_test(test_span_list_in_time_order),
		cmocka_unit_test(test_repeated_history_counts_once),
		cmocka_unit_test(test_what_is_not_a_call),
		cmocka_unit_test(test_json_held_in_strings),
		cmocka_unit_test(test_no_conversation),
		cmocka_unit_test(test_hostile_nesting),
		cmocka_unit_test(test_claim_that_reads_nothing_passes_on),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
