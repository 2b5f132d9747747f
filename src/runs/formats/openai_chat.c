/* openai_chat.c - OpenAI Chat Completions conversations: {messages, tools?,
 * model?} or a bare array of messages.
 *
 * Calls are assistant tool_calls[] (type function, arguments a JSON string;
 * or type custom, input free text) and the legacy function_call object.
 * Results are role "tool" messages linked by tool_call_id, or legacy role
 * "function" messages, which carry only the function's name.
 *
 * reasoning_content (DeepSeek, vLLM) or reasoning (vLLM, OpenRouter) is
 * a thinking part before the message's text. A role this loader does not
 * know is kept as a note message, not refused.
 *
 * The format has no error flag. By the convention tau-bench and most
 * OpenAI-style harnesses follow, a result whose text starts with "Error:"
 * is a failed call; its text becomes the error text.
 *
 * This is the format the benchmark reads, so detection and loading read
 * each object's members in one pass over the tape (the *_fields functions,
 * where a repeated key's last value wins, as with jv_get) instead of one
 * lookup per key, and a field's path is written only for an error. */
#include <stdio.h>
#include <string.h>

#include "runs/format.h"
#include "runs/loader.h"
#include "util/error.h"

/* Key k of an object is the literal `lit`. Lengths first: most keys differ
 * there, and a key holding a NUL is not the literal. */
#define CHAT_KEY_IS(d, k, lit) chat_key_is((d), (k), (lit), sizeof(lit) - 1)

static inline bool chat_key_is(const struct jdoc *d, jv k, const char *lit, size_t n)
{
	const struct jdoc_node *key = &d->nodes[k];
	return key->count == n && !memcmp(d->strings + key->text, lit, n);
}

/* A message's members, as detection and loading read them. */
struct chat_msg_fields {
	jv role, content, tool_calls, tool_call_id, function_call, refusal;
	jv reasoning;                       /* reasoning_content (DeepSeek, vLLM) or reasoning */
	jv type, parts, tool_invocations;   /* other formats' keys, for detection */
};

static void chat_msg_fields(const struct jdoc *d, jv m, struct chat_msg_fields *f)
{
	*f = (struct chat_msg_fields){ JV_NONE, JV_NONE, JV_NONE, JV_NONE, JV_NONE,
	                               JV_NONE, JV_NONE, JV_NONE, JV_NONE, JV_NONE };
	JV_EACH_KEY(d, m, k) {
		jv v = jv_value(k);
		switch (d->nodes[k].count) {
		case 4:
			if (CHAT_KEY_IS(d, k, "role"))
				f->role = v;
			else if (CHAT_KEY_IS(d, k, "type"))
				f->type = v;
			break;
		case 5:
			if (CHAT_KEY_IS(d, k, "parts"))
				f->parts = v;
			break;
		case 7:
			if (CHAT_KEY_IS(d, k, "content"))
				f->content = v;
			else if (CHAT_KEY_IS(d, k, "refusal"))
				f->refusal = v;
			break;
		case 9:
			if (CHAT_KEY_IS(d, k, "reasoning") && f->reasoning == JV_NONE)
				f->reasoning = v;
			break;
		case 17:
			if (CHAT_KEY_IS(d, k, "reasoning_content"))
				f->reasoning = v;
			break;
		case 10:
			if (CHAT_KEY_IS(d, k, "tool_calls"))
				f->tool_calls = v;
			break;
		case 12:
			if (CHAT_KEY_IS(d, k, "tool_call_id"))
				f->tool_call_id = v;
			break;
		case 13:
			if (CHAT_KEY_IS(d, k, "function_call"))
				f->function_call = v;
			break;
		case 15:
			if (CHAT_KEY_IS(d, k, "toolInvocations"))
				f->tool_invocations = v;
			break;
		}
	}
}

/* ---- detection ------------------------------------------------------------ */

/* Keys that belong to formats sharing the {messages} or array shape; sets
 * *messages and *system on the way. */
static bool chat_foreign_record(const struct jdoc *d, jv rec, jv *messages, jv *system)
{
	bool foreign = false, query = false, response = false;
	*messages = *system = JV_NONE;
	JV_EACH_KEY(d, rec, k) {
		if (CHAT_KEY_IS(d, k, "messages"))
			*messages = jv_value(k);
		else if (CHAT_KEY_IS(d, k, "system"))
			*system = jv_value(k);
		else if (CHAT_KEY_IS(d, k, "query"))
			query = true;
		else if (CHAT_KEY_IS(d, k, "response"))
			response = true;
		else if (CHAT_KEY_IS(d, k, "reward_info") || CHAT_KEY_IS(d, k, "termination_reason") ||
		         CHAT_KEY_IS(d, k, "traj") || CHAT_KEY_IS(d, k, "inputMessages") ||
		         CHAT_KEY_IS(d, k, "output") || CHAT_KEY_IS(d, k, "input") ||
		         CHAT_KEY_IS(d, k, "trajectory_format"))   /* mini-swe-agent */
			foreign = true;
	}
	return foreign || (query && response);
}

static bool is_anthropic_block(const struct jdoc *d, jv part)
{
	const char *ty = jv_str(d, jv_get(d, part, "type"));
	if (!ty)
		return false;
	size_t n = strlen(ty);
	return !strcmp(ty, "tool_use") || !strcmp(ty, "server_tool_use") ||
	       !strcmp(ty, "thinking") || !strcmp(ty, "redacted_thinking") ||
	       (n >= 11 && !strcmp(ty + n - 11, "tool_result"));
}

/* A tool_calls entry with a function or a custom object. */
static bool chat_typed_call(const struct jdoc *d, jv tc)
{
	jv function = JV_NONE, custom = JV_NONE;
	JV_EACH_KEY(d, tc, k) {
		if (CHAT_KEY_IS(d, k, "function"))
			function = jv_value(k);
		else if (CHAT_KEY_IS(d, k, "custom"))
			custom = jv_value(k);
	}
	return jv_is_object(d, function) || jv_is_object(d, custom);
}

/* 0 when the message rules the record out, 1 when it is a plain
 * role/content message, 2 when it has keys only OpenAI writes. */
static int chat_score_msg(const struct jdoc *d, jv m)
{
	struct chat_msg_fields f;
	chat_msg_fields(d, m, &f);
	const char *role = jv_str(d, f.role);
	if (!role)
		return 0;
	/* Responses message items, AI SDK UI messages, Mastra messages. */
	if (!strcmp(jv_str_or(d, f.type, ""), "message") || f.tool_invocations != JV_NONE)
		return 0;
	if (f.content == JV_NONE && f.parts != JV_NONE)
		return 0;
	if (jv_is_object(d, f.content))
		return 0;
	JV_EACH(d, f.content, part)
		if (is_anthropic_block(d, part))
			return 0;
	int score = 1;
	JV_EACH(d, f.tool_calls, tc)
		if (chat_typed_call(d, tc))
			score = 2;
	if (jv_is_string(d, f.tool_call_id) || jv_is_object(d, f.function_call) ||
	    !strcmp(role, "function"))
		score = 2;
	return score;
}

static int chat_detect(const struct jdoc *d, jv rec)
{
	jv list = rec, system = JV_NONE;
	if (jv_is_object(d, rec) && chat_foreign_record(d, rec, &list, &system))
		return 0;
	if (!jv_is_array(d, list))
		return 0;
	size_t seen = 0;
	int best = 0;
	JV_EACH(d, list, m) {
		if (!jv_is_object(d, m)) {
			/* A bare array must be all messages; inside "messages" a
			 * bad element is for load to report. */
			if (list == rec)
				return 0;
			continue;
		}
		int s = chat_score_msg(d, m);
		if (s == 0)
			return 0;
		if (s > best)
			best = s;
		seen++;
	}
	if (!seen)
		return 0;
	if (best == 2)
		return 40;
	/* A top-level system prompt is how Anthropic writes it, not OpenAI. */
	if (list != rec && system != JV_NONE)
		return 0;
	return 20;
}

/* ---- loading --------------------------------------------------------------- */

/* Where a message is, for its paths in errors, and where its calls go. */
struct chat_at {
	const char *where;      /* the list's name: "messages" or "" */
	size_t i;               /* the message's index in it */
	size_t mi;              /* its index in r->msgs */
	enum call_requestor who;
};

static void chat_msg_path(char *path, size_t len, const struct chat_at *at)
{
	snprintf(path, len, "%s[%zu]", at->where, at->i);
}

static void chat_call_path(char *path, size_t len, const struct chat_at *at, size_t k)
{
	snprintf(path, len, "%s[%zu].tool_calls[%zu]", at->where, at->i, k);
}

/* Checks a content value and returns its text: a string, null, or a list
 * of parts of which text (and refusal) parts are read. */
static int chat_content_text(struct run *r, jv m, const struct chat_msg_fields *f,
                             const struct chat_at *at, const char **text, struct error *err)
{
	const struct jdoc *d = r->doc;
	char path[128];
	enum jv_type t = jv_type(d, f->content);
	if (t != JV_MISSING && t != JV_NULL && t != JV_STRING && t != JV_ARRAY) {
		jv content;
		chat_msg_path(path, sizeof(path), at);
		if (loader_content(r, m, path, &content, err) < 0)
			return -1;
	}
	size_t k = 0;
	JV_EACH(d, f->content, part) {
		if (!jv_is_object(d, part) && !jv_is_string(d, part)) {
			chat_msg_path(path, sizeof(path), at);
			error_at(err, ERR_FAILED, "%s.content[%zu]: not an object", path, k);
			return -1;
		}
		k++;
	}
	*text = run_text_of(r, f->content);
	/* A refusal is the model's answer; scorers reading the final text
	 * should see it. */
	JV_EACH(d, f->content, part) {
		if ((*text)[0])
			break;
		if (jv_streq(d, jv_get(d, part, "type"), "refusal"))
			*text = loader_str(r, jv_get(d, part, "refusal"), "");
	}
	if (!(*text)[0] && jv_is_string(d, f->refusal))
		*text = jv_str(d, f->refusal);
	return 0;
}

/* Custom tools take free text, not JSON: the run keeps it as the value it
 * is rather than as a string to parse, so its tree is made here (one
 * string; custom calls are rare) and marked known. */
static void chat_args_verbatim(struct run *r, struct run_call *c, jv input)
{
	c->args = input;
	if (jv_is_string(r->doc, input)) {
		c->args_tree = jv_to_json(r->doc, input);
		c->args_parsed = true;
	}
}

/* A function or custom object's members. */
struct chat_body_fields {
	jv name, arguments, input;
};

static void chat_body_fields(const struct jdoc *d, jv body, struct chat_body_fields *f)
{
	*f = (struct chat_body_fields){ JV_NONE, JV_NONE, JV_NONE };
	JV_EACH_KEY(d, body, k) {
		if (CHAT_KEY_IS(d, k, "name"))
			f->name = jv_value(k);
		else if (CHAT_KEY_IS(d, k, "arguments"))
			f->arguments = jv_value(k);
		else if (CHAT_KEY_IS(d, k, "input"))
			f->input = jv_value(k);
	}
}

/* Entry k of tool_calls[]. */
static int chat_add_tool_call(struct run *r, jv tc, const struct chat_at *at, size_t k,
                              struct error *err)
{
	const struct jdoc *d = r->doc;
	jv type = JV_NONE, id = JV_NONE, function = JV_NONE, custom = JV_NONE;
	JV_EACH_KEY(d, tc, key) {
		if (CHAT_KEY_IS(d, key, "function"))
			function = jv_value(key);
		else if (CHAT_KEY_IS(d, key, "id"))
			id = jv_value(key);
		else if (CHAT_KEY_IS(d, key, "type"))
			type = jv_value(key);
		else if (CHAT_KEY_IS(d, key, "custom"))
			custom = jv_value(key);
	}
	char path[128];
	if (type != JV_NONE && !jv_is_string(d, type)) {
		chat_call_path(path, sizeof(path), at, k);
		error_at(err, ERR_FAILED, "%s.type: not a string", path);
		return -1;
	}
	/* Old exports leave type out; function is the only type they knew. */
	const char *ty = type != JV_NONE ? jv_str(d, type) : "function";
	bool is_function = !strcmp(ty, "function"), is_custom = !strcmp(ty, "custom");
	jv body = is_function ? function : is_custom ? custom : jv_get(d, tc, ty);
	if ((is_function || is_custom) && !jv_is_object(d, body)) {
		chat_call_path(path, sizeof(path), at, k);
		error_at(err, ERR_FAILED, "%s.%s: not an object", path, ty);
		return -1;
	}
	struct run_call *c = run_add_call(r, at->mi);
	c->raw_id = id;
	c->id = loader_id(r, id);
	c->src_msg_index = (long)at->i;
	c->requestor = at->who;
	if (!jv_is_object(d, body)) {
		/* A call type newer than this loader: keep it visible under
		 * its type rather than refuse the whole run. */
		c->name = ty;
		return 0;
	}
	struct chat_body_fields f;
	chat_body_fields(d, body, &f);
	c->raw_name = f.name;
	c->name = loader_str(r, f.name, "");
	if (is_custom) {
		if (f.input != JV_NONE)
			chat_args_verbatim(r, c, f.input);
	} else {
		run_call_set_args(r, c, f.arguments);
	}
	return 0;
}

/* The legacy function_call {name, arguments} has no id: c->id stays NULL
 * and chat_join_by_name links its reply by position. */
static int chat_add_function_call(struct run *r, jv fc, const struct chat_at *at, struct error *err)
{
	if (!jv_is_object(r->doc, fc)) {
		char path[128];
		chat_msg_path(path, sizeof(path), at);
		error_at(err, ERR_FAILED, "%s.function_call: not an object", path);
		return -1;
	}
	struct chat_body_fields f;
	chat_body_fields(r->doc, fc, &f);
	struct run_call *c = run_add_call(r, at->mi);
	c->raw_name = f.name;
	c->name = loader_str(r, f.name, "");
	c->src_msg_index = (long)at->i;
	c->requestor = at->who;
	run_call_set_args(r, c, f.arguments);
	return 0;
}

/* The message with its parts: reasoning the server returned beside the
 * answer comes before its text. */
static size_t chat_add_message(struct run *r, enum run_role role, jv m,
                               const struct chat_msg_fields *f, const char *text, size_t i)
{
	const struct jdoc *d = r->doc;
	size_t mi = run_add_msg(r, role, MSG_IN_OUTPUT, NULL, m);
	if (jv_is_string(d, f->reasoning) && jv_strlen(d, f->reasoning))
		run_add_thinking(r, mi, jv_str(d, f->reasoning), f->reasoning);
	run_add_text(r, mi, text, JV_NONE);
	r->msgs[mi].src_index = (long)i;
	return mi;
}

/* Its tool_calls[] and legacy function_call. */
static int chat_add_calls(struct run *r, const struct chat_msg_fields *f,
                          const struct chat_at *at, struct error *err)
{
	const struct jdoc *d = r->doc;
	char path[128];
	size_t k = 0;
	JV_EACH(d, f->tool_calls, tc) {
		if (!jv_is_object(d, tc)) {
			chat_call_path(path, sizeof(path), at, k);
			error_at(err, ERR_FAILED, "%s: not an object", path);
			return -1;
		}
		if (chat_add_tool_call(r, tc, at, k, err) < 0)
			return -1;
		k++;
	}
	if (f->function_call != JV_NONE && !jv_is_null(d, f->function_call) &&
	    chat_add_function_call(r, f->function_call, at, err) < 0)
		return -1;
	return 0;
}

/* Loads message i of the list. *idless is set when it is a result that
 * names no call, for chat_join_by_name. */
static int chat_load_msg(struct run *r, jv m, const char *where, size_t i, bool *idless,
                         struct error *err)
{
	const struct jdoc *d = r->doc;
	struct chat_at at = { where, i, 0, REQ_AGENT };
	char path[128];
	struct chat_msg_fields f;
	chat_msg_fields(d, m, &f);
	enum run_role role = ROLE_USER;
	bool known = false;
	const char *role_name = jv_str(d, f.role);
	if (!role_name) {
		/* The shared helper words the error. */
		chat_msg_path(path, sizeof(path), &at);
		if (loader_role(r, m, path, ROLE_ERRORS_SPLIT, &role, err) < 0)
			return -1;
	}
	role = run_role_parse(role_name, &known);
	const char *text = "";
	if (chat_content_text(r, m, &f, &at, &text, err) < 0)
		return -1;
	if (!known) {
		/* A role of next year's API: kept and shown, not refused. */
		loader_note_role(r, m, text, (long)i);
		return 0;
	}
	if (f.tool_calls != JV_NONE && !jv_is_null(d, f.tool_calls) &&
	    !jv_is_array(d, f.tool_calls)) {
		jv calls;
		chat_msg_path(path, sizeof(path), &at);
		if (loader_opt_array(r, m, "tool_calls", path, "not an array", &calls, err) < 0)
			return -1;
	}
	at.mi = chat_add_message(r, role, m, &f, text, i);
	at.who = role == ROLE_USER ? REQ_USER : REQ_AGENT;
	if (role == ROLE_TOOL) {
		const char *id = loader_id(r, f.tool_call_id);
		struct run_msg *msg = loader_tool_output(r, at.mi, id, f.content);
		if (loader_is_error_text(text, LOADER_ERROR_PREFIX))
			loader_mark_failed(msg, text);
		*idless = *idless || !id;
	}
	return chat_add_calls(r, &f, &at, err);
}

/* Results without an id (legacy role "function" replies, or a tool message
 * missing tool_call_id) go to the nearest preceding call that has no id and
 * no result yet, and whose name matches when the result names one.
 * run_join_results has flagged them all unmatched; this decides. */
static void chat_join_by_name(struct run *r)
{
	for (size_t mi = 0; mi < r->nmsgs; mi++) {
		struct run_msg *m = &r->msgs[mi];
		if (!m->is_tool_output || m->answers_call_id)
			continue;
		const char *name = jv_str(r->doc, jv_get(r->doc, m->raw, "name"));
		struct run_call *hit = NULL;
		for (size_t ci = r->ncalls; ci-- > 0;) {
			struct run_call *c = &r->calls[ci];
			if (c->msg_index >= mi || c->id || c->has_result)
				continue;
			if (name && strcmp(c->name, name) != 0)
				continue;
			hit = c;
			break;
		}
		m->unmatched_result = hit == NULL;
		if (hit)
			run_set_result(hit, m->result, m->result_is_error, m->result_error_text, (long)mi);
	}
}

static int chat_load(struct run *r, struct error *err)
{
	const struct jdoc *d = r->doc;
	jv rec = run_root(r);
	jv list;
	const char *where;
	int shape = loader_messages_or_array(r, rec, &list, &where, "an openai-chat record must "
	                                     "be an object or an array of messages", err);
	if (shape < 0)
		return -1;
	if (shape == LOADER_OBJECT) {
		loader_tools(r, rec);
		r->model = loader_model(r, rec);
	}
	size_t i = 0;
	bool idless = false;
	JV_EACH(d, list, m) {
		if (!jv_is_object(d, m)) {
			error_at(err, ERR_FAILED, "%s[%zu]: not an object", where, i);
			return -1;
		}
		if (chat_load_msg(r, m, where, i, &idless, err) < 0)
			return -1;
		i++;
	}
	run_join_results(r);
	if (idless)
		chat_join_by_name(r);
	return 0;
}

const struct format_ops format_openai_chat = {
	.name = "openai-chat",
	.summary = "OpenAI Chat Completions {messages, tools?} or a bare array of messages",
	.detect = chat_detect,
	.load = chat_load,
};
