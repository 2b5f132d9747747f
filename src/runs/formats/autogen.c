/* autogen.c - AutoGen: core and AgentChat message lists, model-client recordings, states, 0.2 chats.
 *
 * autogen_core's LLMMessage lists are objects typed SystemMessage,
 * UserMessage (content a string or a list of strings and images),
 * AssistantMessage (content a string or a list of FunctionCall {id, name,
 * arguments}, with its `thought`) and FunctionExecutionResultMessage
 * (content a list of FunctionExecutionResult {call_id, content, is_error}).
 * AgentChat's messages and events are typed TextMessage, ToolCallRequestEvent
 * (FunctionCalls), ToolCallExecutionEvent (results), ThoughtEvent, ... with
 * the `source` agent ("user" is the human); a TaskResult holds them under
 * "messages" beside stop_reason, a saved model context under "messages"
 * alone. A saved state ({type: "...State"}) holds message threads: a
 * team's group chat manager has the conversation (message_thread), its
 * agents their own model contexts (llm_context.messages); the manager's
 * thread is read when there is one, else each agent's context.
 *
 * A model-client recording (ReplayChatCompletionClient's session file) is
 * a list of model calls {mode, messages, response, stream} from one
 * session: one run, the calls in order. A call that continues the one
 * before it (its messages begin with that call's messages and response)
 * adds only what is new, so history repeated from call to call is read
 * once; a call that does not is a new prompt, read whole behind a note.
 *
 * AutoGen 0.2's chat_messages dump maps each peer agent's name to the
 * chat with it ({role, content, name?, tool_calls?}, OpenAI-like): one run
 * per peer, whose record `split` makes [name, messages]. Code the agents
 * ran through fenced blocks in the text stays text: 0.2 made no call of it. */
#include <stdio.h>
#include <string.h>

#include "runs/format.h"
#include "runs/loader.h"
#include "util/error.h"

/* Saved states nest (a team inside a society-of-mind agent); deeper than
 * this is not a state anyone saved. */
#define AG_MAX_STATE_DEPTH 8

struct ag_ctx {
	struct htab seen;           /* FunctionCall ids read: a call shown twice counts once */
};

/* ---- detection ----------------------------------------------------------------- */

static const char *const ag_core_types[] = {
	"SystemMessage", "UserMessage", "AssistantMessage", "FunctionExecutionResultMessage", NULL
};

static const char *const ag_chat_types[] = {
	"TextMessage", "MultiModalMessage", "StopMessage", "ToolCallSummaryMessage",
	"HandoffMessage", "StructuredMessage", "ToolCallRequestEvent", "ToolCallExecutionEvent",
	"ThoughtEvent", "MemoryQueryEvent", "UserInputRequestedEvent",
	"ModelClientStreamingChunkEvent", "SelectSpeakerEvent", "SelectorEvent",
	"CodeGenerationEvent", "CodeExecutionEvent", NULL
};

static bool ag_type_in(const struct jdoc *d, jv m, const char *const *types)
{
	jv t = jv_get(d, m, "type");
	for (size_t i = 0; types[i]; i++)
		if (jv_streq(d, t, types[i]))
			return true;
	return false;
}

/* A list whose first element is a typed AutoGen message. */
static bool ag_is_typed_list(const struct jdoc *d, jv list)
{
	jv first = jv_first(d, list);
	if (!jv_is_array(d, list) || !jv_is_object(d, first) || jv_get(d, first, "role") != JV_NONE)
		return false;
	return ag_type_in(d, first, ag_core_types) ||
	       (ag_type_in(d, first, ag_chat_types) && jv_get(d, first, "source") != JV_NONE);
}

static bool ag_is_recording(const struct jdoc *d, jv rec)
{
	jv first = jv_first(d, rec);
	return jv_is_array(d, rec) && jv_is_object(d, first) &&
	       jv_is_string(d, jv_get(d, first, "mode")) && jv_is_array(d, jv_get(d, first, "messages")) &&
	       jv_get(d, first, "response") != JV_NONE;
}

static bool ag_is_state(const struct jdoc *d, jv rec)
{
	const char *type = jv_str(d, jv_get(d, rec, "type"));
	return jv_is_object(d, rec) && type && loader_ends_with(type, "State") &&
	       (jv_is_object(d, jv_get(d, rec, "agent_states")) ||
	        jv_is_object(d, jv_get(d, rec, "llm_context")) ||
	        jv_is_object(d, jv_get(d, rec, "agent_state")) ||
	        jv_is_array(d, jv_get(d, rec, "message_thread")));
}

/* A chat between two 0.2 agents, as one of them keeps it: {role, content}
 * messages, the peer's as "user" and its own as "assistant", so both are
 * there (a list of one side alone is someone else's list of messages). */
static bool ag_is_chat(const struct jdoc *d, jv list)
{
	bool user = false, assistant = false;
	JV_EACH(d, list, m) {
		if (!jv_is_object(d, m) || jv_get(d, m, "content") == JV_NONE)
			return false;
		user = user || jv_streq(d, jv_get(d, m, "role"), "user");
		assistant = assistant || jv_streq(d, jv_get(d, m, "role"), "assistant");
		if (user && assistant)
			return true;
	}
	return false;
}

/* A 0.2 chat_messages dump: every member a chat with that peer. Names
 * other formats give their lists are not agents' names. */
static bool ag_is_chats(const struct jdoc *d, jv rec)
{
	static const char *const not_agents[] = { "messages", "input", "contents", "traj",
		"history", "trajectory", "events", "samples", "output", NULL };
	if (!jv_is_object(d, rec) || jv_len(d, rec) == 0)
		return false;
	JV_EACH_KEY(d, rec, k) {
		for (size_t i = 0; not_agents[i]; i++)
			if (jv_streq(d, k, not_agents[i]))
				return false;
		if (!ag_is_chat(d, jv_value(k)))
			return false;
	}
	return true;
}

static int ag_detect(const struct jdoc *d, jv rec)
{
	if (ag_is_recording(d, rec) || ag_is_state(d, rec))
		return 85;
	if (ag_is_typed_list(d, rec) || ag_is_typed_list(d, jv_get(d, rec, "messages")))
		return 85;
	return ag_is_chats(d, rec) ? 30 : 0;
}

/* One run per peer of a 0.2 dump, as [name, messages]; else the document. */
static void ag_split(const struct jdoc *d, jv root, struct doc_groups *out)
{
	if (!ag_is_chats(d, root) || jv_len(d, root) < 2) {
		doc_group_begin(out);
		doc_group_add(out, root);
		return;
	}
	JV_EACH_KEY(d, root, k) {
		doc_group_begin(out);
		doc_group_add(out, k);
		doc_group_add(out, jv_value(k));
	}
}

/* ---- the pieces of typed messages -------------------------------------------------- */

/* A FunctionCall {id, name, arguments} into message mi, unless its id was
 * read before. */
static int ag_call(struct run *r, jv fc, const char *path, size_t mi, struct ag_ctx *c,
                   struct error *err)
{
	const struct jdoc *d = r->doc;
	jv id, name, args = jv_get(d, fc, "arguments");
	if (!jv_is_object(d, fc)) {
		error_at(err, ERR_FAILED, "%s: not an object", path);
		return -1;
	}
	if (loader_opt_string(r, fc, "id", path, &id, err) < 0 ||
	    loader_opt_string(r, fc, "name", path, &name, err) < 0)
		return -1;
	if (args != JV_NONE && !jv_is_null(d, args) && !jv_is_string(d, args) &&
	    !jv_is_object(d, args)) {
		error_at(err, ERR_FAILED, "%s.arguments: not a string or an object", path);
		return -1;
	}
	if (loader_seen(&c->seen, loader_id(r, id)))
		return 0;
	loader_add_call(r, mi, id, name, args, r->msgs[mi].src_index);
	return 0;
}

/* A FunctionExecutionResult {call_id, content, is_error} as a tool message. */
static int ag_result(struct run *r, jv res, const char *path, long src, struct error *err)
{
	const struct jdoc *d = r->doc;
	jv id, content;
	if (!jv_is_object(d, res)) {
		error_at(err, ERR_FAILED, "%s: not an object", path);
		return -1;
	}
	if (loader_opt_string(r, res, "call_id", path, &id, err) < 0 ||
	    loader_content(r, res, path, &content, err) < 0)
		return -1;
	size_t mi = run_add_msg(r, ROLE_TOOL, MSG_IN_OUTPUT, jv_str_or(d, content, ""), res);
	r->msgs[mi].src_index = src;
	struct run_msg *m = loader_tool_output(r, mi, loader_id(r, id), content);
	if (jv_type(d, jv_get(d, res, "is_error")) == JV_TRUE)
		loader_mark_failed(m, m->text);
	return 0;
}

/* Content that is a string, or a list of strings (text) and images or
 * other objects (notes), into message mi. */
static void ag_text(struct run *r, size_t mi, jv content)
{
	const struct jdoc *d = r->doc;
	if (jv_is_string(d, content)) {
		run_add_text(r, mi, jv_str(d, content), content);
		return;
	}
	if (jv_is_object(d, content)) {
		run_add_note(r, mi, content, "structured content (not read as text)");
		return;
	}
	JV_EACH(d, content, p) {
		if (jv_is_string(d, p))
			run_add_text(r, mi, jv_str(d, p), p);
		else
			run_add_note(r, mi, p, "an image or other content (not read)");
	}
}

/* The pieces of a list content, each at "PATH.content[k]": calls, or results. */
static int ag_pieces(struct run *r, jv content, const char *path, size_t mi, long src,
                     bool results, struct ag_ctx *c, struct error *err)
{
	const struct jdoc *d = r->doc;
	char ppath[224];
	if (!jv_is_array(d, content)) {
		error_at(err, ERR_FAILED, "%s.content: not a list", path);
		return -1;
	}
	size_t k = 0;
	JV_EACH(d, content, p) {
		snprintf(ppath, sizeof(ppath), "%s.content[%zu]", path, k++);
		int rc = results ? ag_result(r, p, ppath, src, err)
		                 : ag_call(r, p, ppath, mi, c, err);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* A ToolCallSummaryMessage's own tool_calls and results (AgentChat 0.6 and
 * later): the events before it show them already, so only calls whose ids
 * were not read yet are added, with the results that answer them. */
static int ag_summary(struct run *r, jv m, const char *path, size_t mi, struct ag_ctx *c,
                      struct error *err)
{
	const struct jdoc *d = r->doc;
	jv calls, results;
	char ppath[224];
	if (loader_opt_array(r, m, "tool_calls", path, "not an array", &calls, err) < 0 ||
	    loader_opt_array(r, m, "results", path, "not an array", &results, err) < 0)
		return -1;
	size_t first = r->ncalls, k = 0;
	JV_EACH(d, calls, fc) {
		snprintf(ppath, sizeof(ppath), "%s.tool_calls[%zu]", path, k++);
		if (ag_call(r, fc, ppath, mi, c, err) < 0)
			return -1;
	}
	k = 0;
	JV_EACH(d, results, res) {
		snprintf(ppath, sizeof(ppath), "%s.results[%zu]", path, k++);
		const char *id = jv_str(d, jv_get(d, res, "call_id"));
		bool fresh = false;
		for (size_t ci = first; ci < r->ncalls && id && !fresh; ci++)
			fresh = r->calls[ci].id && !strcmp(r->calls[ci].id, id);
		if ((fresh || !jv_is_object(d, res)) &&
		    ag_result(r, res, ppath, r->msgs[mi].src_index, err) < 0)
			return -1;
	}
	return 0;
}

/* ---- typed messages --------------------------------------------------------------- */

static enum run_role ag_role(const struct jdoc *d, jv m, const char *type)
{
	if (!strcmp(type, "SystemMessage"))
		return ROLE_SYSTEM;
	if (!strcmp(type, "UserMessage"))
		return ROLE_USER;
	if (!strcmp(type, "AssistantMessage"))
		return ROLE_ASSISTANT;
	return jv_streq(d, jv_get(d, m, "source"), "user") ? ROLE_USER : ROLE_ASSISTANT;
}

static int ag_typed(struct run *r, jv m, const char *path, size_t i, void *ctx, struct error *err)
{
	const struct jdoc *d = r->doc;
	jv tv = jv_get(d, m, "type"), content = jv_get(d, m, "content"), thought;
	if (!jv_is_string(d, tv)) {
		error_at(err, tv == JV_NONE ? ERR_MISSING : ERR_FAILED, "%s.type: %s", path, tv == JV_NONE ? "missing" : "not a string");
		return -1;
	}
	if (loader_opt_string(r, m, "thought", path, &thought, err) < 0)
		return -1;
	const char *type = jv_str(d, tv);
	bool results = !strcmp(type, "FunctionExecutionResultMessage") ||
	               !strcmp(type, "ToolCallExecutionEvent");
	bool calls = !strcmp(type, "ToolCallRequestEvent") ||
	             (!strcmp(type, "AssistantMessage") && jv_is_array(d, content));
	if (!ag_type_in(d, m, ag_core_types) && !ag_type_in(d, m, ag_chat_types)) {
		run_add_note_msg(r, MSG_IN_OUTPUT, m, "message type \"%s\" (not read)", type);
		return 0;
	}
	if (!strcmp(type, "ModelClientStreamingChunkEvent"))
		return 0;               /* a chunk repeats the message it streams */
	if (!results && !calls && content != JV_NONE && !jv_is_null(d, content) &&
	    !jv_is_string(d, content) && !jv_is_array(d, content) && !jv_is_object(d, content)) {
		error_at(err, ERR_FAILED, "%s.content: not a string or a list", path);
		return -1;
	}
	if (results)                /* nothing but its tool messages */
		return ag_pieces(r, content, path, 0, (long)i, true, ctx, err);
	size_t mi = run_add_msg(r, ag_role(d, m, type), MSG_IN_OUTPUT, NULL, m);
	r->msgs[mi].src_index = (long)i;
	if (jv_is_string(d, thought))
		run_add_thinking(r, mi, jv_str(d, thought), thought);
	if (!strcmp(type, "ThoughtEvent") && jv_is_string(d, content)) {
		run_add_thinking(r, mi, jv_str(d, content), content);
		return 0;
	}
	if (calls)
		return ag_pieces(r, content, path, mi, (long)i, false, ctx, err);
	if (!strcmp(type, "MemoryQueryEvent") || !strcmp(type, "UserInputRequestedEvent") ||
	    !strcmp(type, "SelectSpeakerEvent") || !strcmp(type, "SelectorEvent"))
		run_add_note(r, mi, m, "%s", type);
	else
		ag_text(r, mi, content);
	if (!strcmp(type, "ToolCallSummaryMessage"))
		return ag_summary(r, m, path, mi, ctx, err);
	return 0;
}

static int ag_typed_list(struct run *r, jv list, const char *where, struct ag_ctx *c, struct error *err)
{
	return loader_each(r, list, where, ag_typed, c, err) < 0 ? -1 : 0;
}

/* ---- model-client recordings ------------------------------------------------------ */

/* Whether two values are written the same. */
static bool ag_same(const struct jdoc *d, jv a, jv b)
{
	size_t na, nb;
	const char *ra = jv_raw(d, a, &na), *rb = jv_raw(d, b, &nb);
	return ra && rb && na == nb && memcmp(ra, rb, na) == 0;
}

/* How many of msgs repeat the call before it: its messages and then its
 * response as an AssistantMessage, or 0 when msgs do not continue it. */
static size_t ag_continues(const struct jdoc *d, jv prev, jv msgs)
{
	jv pm = jv_get(d, prev, "messages");
	size_t n = jv_len(d, pm);
	if (!jv_is_array(d, pm) || jv_len(d, msgs) < n + 1)
		return 0;
	jv cur = jv_first(d, msgs);
	JV_EACH(d, pm, e) {
		if (!ag_same(d, jv_get(d, e, "type"), jv_get(d, cur, "type")) ||
		    !ag_same(d, jv_get(d, e, "content"), jv_get(d, cur, "content")))
			return 0;
		cur = jv_next(d, msgs, cur);
	}
	jv answer = jv_get(d, jv_get(d, prev, "response"), "content");
	if (!jv_streq(d, jv_get(d, cur, "type"), "AssistantMessage") ||
	    !ag_same(d, answer, jv_get(d, cur, "content")))
		return 0;
	return n + 1;
}

/* A call's response {content, thought, finish_reason} as the agent's message. */
static int ag_response(struct run *r, jv resp, const char *path, size_t k, struct ag_ctx *c,
                       struct error *err)
{
	const struct jdoc *d = r->doc;
	if (resp == JV_NONE || jv_is_null(d, resp))
		return 0;
	if (!jv_is_object(d, resp)) {
		error_at(err, ERR_FAILED, "%s: not an object", path);
		return -1;
	}
	jv content = jv_get(d, resp, "content"), thought;
	if (loader_opt_string(r, resp, "thought", path, &thought, err) < 0)
		return -1;
	size_t mi = run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, NULL, resp);
	r->msgs[mi].src_index = (long)k;
	if (jv_is_string(d, thought))
		run_add_thinking(r, mi, jv_str(d, thought), thought);
	if (jv_is_array(d, content))
		return ag_pieces(r, content, path, mi, (long)k, false, c, err);
	if (content != JV_NONE && !jv_is_null(d, content) && !jv_is_string(d, content)) {
		error_at(err, ERR_FAILED, "%s.content: not a string or a list", path);
		return -1;
	}
	ag_text(r, mi, content);
	return 0;
}

static int ag_recording(struct run *r, jv rec, struct ag_ctx *c, struct error *err)
{
	const struct jdoc *d = r->doc;
	jv prev = JV_NONE;
	size_t k = 0;
	char path[96], where[128];
	JV_EACH(d, rec, call) {
		snprintf(path, sizeof(path), "[%zu]", k);
		jv msgs;
		if (!jv_is_object(d, call)) {
			error_at(err, ERR_FAILED, "%s: not an object", path);
			return -1;
		}
		if (loader_array(r, call, "messages", &msgs, err) < 0) {
			if (snprintf(where, sizeof(where), "%s.%s", path, err->msg) < 0)
				where[0] = '\0';
			error_at(err, err->kind, "%s", where);
			return -1;
		}
		size_t skip = prev != JV_NONE ? ag_continues(d, prev, msgs) : 0;
		if (k > 0 && skip == 0)
			run_add_note_msg(r, MSG_IN_OUTPUT, call, "model call %zu: a new prompt", k + 1);
		size_t j = 0;
		JV_EACH(d, msgs, m) {
			snprintf(where, sizeof(where), "%s.messages[%zu]", path, j);
			if (j++ < skip)
				continue;
			if (!jv_is_object(d, m)) {
				error_at(err, ERR_FAILED, "%s: not an object", where);
				return -1;
			}
			if (ag_typed(r, m, where, k, c, err) < 0)
				return -1;
		}
		snprintf(where, sizeof(where), "%s.response", path);
		if (ag_response(r, jv_get(d, call, "response"), where, k, c, err) < 0)
			return -1;
		prev = call;
		k++;
	}
	return 0;
}

/* ---- saved states ---------------------------------------------------------------- */

/* A state's messages: its own thread or model context, the state it wraps,
 * and its agents' (a team's manager thread alone when it has one). */
static int ag_state(struct run *r, jv st, const char *path, int depth, struct ag_ctx *c,
                    struct error *err)
{
	const struct jdoc *d = r->doc;
	char sub[256];
	if (!jv_is_object(d, st))
		return 0;
	if (depth > AG_MAX_STATE_DEPTH) {
		run_add_note_msg(r, MSG_IN_OUTPUT, st, "%s: states nested deeper than %d (not read)",
		                 path, AG_MAX_STATE_DEPTH);
		return 0;
	}
	jv thread = jv_get(d, st, "message_thread");
	jv context = jv_get(d, jv_get(d, st, "llm_context"), "messages");
	snprintf(sub, sizeof(sub), "%s%smessage_thread", path, path[0] ? "." : "");
	if (jv_is_array(d, thread) && ag_typed_list(r, thread, sub, c, err) < 0)
		return -1;
	snprintf(sub, sizeof(sub), "%s%sllm_context.messages", path, path[0] ? "." : "");
	if (jv_is_array(d, context) && ag_typed_list(r, context, sub, c, err) < 0)
		return -1;
	static const char *const inner[] = { "agent_state", "inner_team_state", NULL };
	for (size_t i = 0; inner[i]; i++) {
		snprintf(sub, sizeof(sub), "%s%s%s", path, path[0] ? "." : "", inner[i]);
		if (ag_state(r, jv_get(d, st, inner[i]), sub, depth + 1, c, err) < 0)
			return -1;
	}
	jv agents = jv_get(d, st, "agent_states");
	JV_EACH_KEY(d, agents, k) {
		if (!jv_is_array(d, jv_get(d, jv_value(k), "message_thread")))
			continue;
		snprintf(sub, sizeof(sub), "%s%sagent_states.%s", path, path[0] ? "." : "",
		         jv_str(d, k));
		return ag_state(r, jv_value(k), sub, depth + 1, c, err);
	}
	JV_EACH_KEY(d, agents, k) {
		snprintf(sub, sizeof(sub), "%s%sagent_states.%s", path, path[0] ? "." : "",
		         jv_str(d, k));
		if (ag_state(r, jv_value(k), sub, depth + 1, c, err) < 0)
			return -1;
	}
	return 0;
}

/* ---- AutoGen 0.2 chats ------------------------------------------------------------- */

/* One {role, content, name?, tool_calls?, tool_call_id?} of a 0.2 chat. */
static int ag_chat_msg(struct run *r, jv m, const char *path, size_t i, void *ctx, struct error *err)
{
	(void)ctx;
	const struct jdoc *d = r->doc;
	jv content, role = jv_get(d, m, "role");
	if (loader_content(r, m, path, &content, err) < 0)
		return -1;
	if (jv_streq(d, role, "function")) {
		size_t mi = run_add_msg(r, ROLE_TOOL, MSG_IN_OUTPUT, run_text_of(r, content), m);
		r->msgs[mi].src_index = (long)i;
		loader_tool_output(r, mi, NULL, content);
		return 0;
	}
	if (loader_role_unknown(r, m)) {
		loader_note_role(r, m, run_text_of(r, content), (long)i);
		return 0;
	}
	enum run_role rl;
	if (loader_role(r, m, path, ROLE_ERRORS_SPLIT, &rl, err) < 0)
		return -1;
	size_t mi = run_add_msg(r, rl, MSG_IN_OUTPUT, run_text_of(r, content), m);
	r->msgs[mi].src_index = (long)i;
	if (rl == ROLE_TOOL)
		loader_tool_output(r, mi, loader_id(r, jv_get(d, m, "tool_call_id")), content);
	jv fc = jv_get(d, m, "function_call");
	if (jv_is_object(d, fc))
		loader_add_call(r, mi, JV_NONE, jv_get(d, fc, "name"), jv_get(d, fc, "arguments"),
		                (long)i);
	jv calls;
	if (loader_opt_array(r, m, "tool_calls", path, "not an array", &calls, err) < 0)
		return -1;
	return loader_each_field(r, calls, path, "tool_calls", loader_function_call, &mi, err) < 0 ? -1 : 0;
}

static int ag_chat(struct run *r, jv list, const char *where, struct error *err)
{
	if (!jv_is_array(r->doc, list)) {
		error_at(err, ERR_FAILED, "%s: not an array", where);
		return -1;
	}
	return loader_each(r, list, where, ag_chat_msg, NULL, err) < 0 ? -1 : 0;
}

/* ---- the load ------------------------------------------------------------------------ */

static int ag_load_list(struct run *r, jv rec, struct ag_ctx *c, struct error *err)
{
	const struct jdoc *d = r->doc;
	jv first = jv_first(d, rec);
	jv second = first != JV_NONE ? jv_next(d, rec, first) : JV_NONE;
	if (ag_is_recording(d, rec))
		return ag_recording(r, rec, c, err);
	if (jv_is_string(d, first) && jv_is_array(d, second) && jv_len(d, rec) == 2) {
		r->id = jv_str(d, first);       /* a 0.2 peer, as split made it */
		return ag_chat(r, second, "[1]", err);
	}
	if (jv_is_object(d, first) && jv_get(d, first, "role") != JV_NONE)
		return ag_chat(r, rec, "", err);
	return ag_typed_list(r, rec, "", c, err);
}

static int ag_load_object(struct run *r, jv rec, struct ag_ctx *c, struct error *err)
{
	const struct jdoc *d = r->doc;
	if (ag_is_state(d, rec)) {
		size_t before = r->nmsgs;
		if (ag_state(r, rec, "", 0, c, err) < 0)
			return -1;
		if (r->nmsgs == before)
			run_add_note_msg(r, MSG_IN_OUTPUT, rec, "%s holds no messages",
			                 jv_str(d, jv_get(d, rec, "type")));
		return 0;
	}
	if (jv_get(d, rec, "messages") != JV_NONE) {
		jv msgs;
		if (loader_array(r, rec, "messages", &msgs, err) < 0 ||
		    ag_typed_list(r, msgs, "messages", c, err) < 0)
			return -1;
		jv stop = jv_get(d, rec, "stop_reason");
		if (jv_is_string(d, stop))
			run_add_note_msg(r, MSG_IN_OUTPUT, stop, "stopped: %s", jv_str(d, stop));
		return 0;
	}
	if (!ag_is_chats(d, rec)) {
		error_at(err, ERR_FAILED, "an autogen record must be a message list, a model-client "
		         "recording, a task result, a saved state or a 0.2 chat_messages dump");
		return -1;
	}
	bool one = jv_len(d, rec) == 1;
	JV_EACH_KEY(d, rec, k) {
		if (one)
			r->id = jv_str(d, k);
		else
			run_add_note_msg(r, MSG_IN_OUTPUT, k, "chat with %s", jv_str(d, k));
		if (ag_chat(r, jv_value(k), jv_str(d, k), err) < 0)
			return -1;
	}
	return 0;
}

static int ag_load(struct run *r, struct error *err)
{
	const struct jdoc *d = r->doc;
	jv rec = run_root(r);
	struct ag_ctx c = { HTAB_INIT };
	int rc;
	if (jv_is_array(d, rec))
		rc = ag_load_list(r, rec, &c, err);
	else if (jv_is_object(d, rec))
		rc = ag_load_object(r, rec, &c, err);
	else {
		error_at(err, ERR_FAILED, "an autogen record must be a list or an object");
		rc = -1;
	}
	htab_free(&c.seen);
	if (rc < 0)
		return -1;
	run_join_results(r);
	return 0;
}

const struct format_ops format_autogen = {
	.name = "autogen",
	.summary = "AutoGen message lists, model-client recordings, task results, saved states, "
	           "0.2 chat_messages",
	.detect = ag_detect,
	.split = ag_split,
	.load = ag_load,
};
