/* langchain.c - LangChain / LangGraph message dumps: messages_to_dict's
 * list of {type, data} (type human, ai, tool, system, function, chat), as
 * {messages: [...]} (a LangGraph state) or a bare array; and LangChain's
 * serialized messages {lc: 1, type: "constructor", id: [..., "AIMessage"],
 * kwargs}, which dumpd writes and LangSmith shows.
 *
 * An ai message's calls are its tool_calls [{name, args, id}]; its
 * invalid_tool_calls (arguments the model wrote that were not JSON) are
 * kept as failed calls, so they stay visible and counted. A tool message
 * answers tool_call_id, and status "error" marks the call failed. Content
 * is a string or a list of blocks, of which the text blocks are read
 * (tool_use blocks repeat tool_calls, which is the list LangChain keeps
 * normalized); thinking and reasoning blocks, and a DeepSeek
 * additional_kwargs.reasoning_content, are thinking parts. An unknown type
 * (RemoveMessage's "remove") is kept as a note message. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runs/format.h"
#include "runs/loader.h"
#include "langchain.h"
#include "util/error.h"

/* The serialized class names (and their streaming chunks) as types. */
static const char *lc_class_type(const char *cls)
{
	static const struct { const char *cls, *type; } classes[] = {
		{ "HumanMessage", "human" }, { "AIMessage", "ai" }, { "ToolMessage", "tool" },
		{ "SystemMessage", "system" }, { "FunctionMessage", "function" },
		{ "ChatMessage", "chat" }, { "RemoveMessage", "remove" },
	};
	if (!cls)
		return NULL;
	for (size_t i = 0; i < sizeof classes / sizeof *classes; i++) {
		size_t n = strlen(classes[i].cls);
		if (!strncmp(cls, classes[i].cls, n) && (!cls[n] || !strcmp(cls + n, "Chunk")))
			return classes[i].type;
	}
	return NULL;
}

jv lc_body(const struct jdoc *d, jv m, bool flat, const char **type)
{
	*type = NULL;
	if (!jv_is_object(d, m))
		return JV_NONE;
	jv ty = jv_get(d, m, "type");
	if (jv_streq(d, ty, "constructor") && jv_get(d, m, "lc") != JV_NONE) {
		jv id = jv_get(d, m, "id"), kwargs = jv_get(d, m, "kwargs");
		if (!jv_is_array(d, id) || !jv_is_object(d, kwargs))
			return JV_NONE;
		*type = lc_class_type(jv_str(d, jv_at(d, id, (long)jv_len(d, id) - 1)));
		return *type ? kwargs : JV_NONE;
	}
	if (!jv_is_string(d, ty)) {
		/* Flat {role, content}, as LangSmith shows OpenAI-style inputs:
		 * read as a ChatMessage, whose role is free. */
		if (flat && ty == JV_NONE && jv_is_string(d, jv_get(d, m, "role")) &&
		    jv_get(d, m, "content") != JV_NONE) {
			*type = "chat";
			return m;
		}
		return JV_NONE;
	}
	jv data = jv_get(d, m, "data");
	if (jv_is_object(d, data)) {
		*type = jv_str(d, ty);
		return data;
	}
	/* Flat: the fields at the top, content among them. */
	if (flat && jv_get(d, m, "content") != JV_NONE) {
		*type = jv_str(d, ty);
		return m;
	}
	return JV_NONE;
}

bool lc_is_message(const struct jdoc *d, jv m, bool flat)
{
	const char *type;
	lc_body(d, m, flat, &type);
	return type != NULL;
}

/* Where m keeps its fields, for the paths of errors. */
static const char *lc_body_key(const struct jdoc *d, jv m, jv body)
{
	if (body == m)
		return "";
	return jv_get(d, m, "data") == body ? ".data" : ".kwargs";
}

static enum run_role lc_role(const struct jdoc *d, const char *type, jv body, bool *known)
{
	*known = true;
	if (!strcmp(type, "human"))
		return ROLE_USER;
	if (!strcmp(type, "ai"))
		return ROLE_ASSISTANT;
	if (!strcmp(type, "system"))
		return ROLE_SYSTEM;
	if (!strcmp(type, "tool") || !strcmp(type, "function"))
		return ROLE_TOOL;
	if (!strcmp(type, "chat")) {
		/* A ChatMessage's role is free text: user, assistant, ... */
		enum run_role role = run_role_parse(jv_str_or(d, jv_get(d, body, "role"), ""), known);
		return *known ? role : ROLE_USER;
	}
	*known = false;
	return ROLE_USER;
}

/* One entry of tool_calls (valid) or invalid_tool_calls. */
static int lc_add_call(struct run *r, size_t mi, jv tc, const char *path, bool invalid,
                       struct error *err)
{
	const struct jdoc *d = r->doc;
	if (!jv_is_object(d, tc)) {
		error_at(err, ERR_FAILED, "%s: not an object", path);
		return -1;
	}
	jv name = jv_get(d, tc, "name"), args = jv_get(d, tc, "args"), id = jv_get(d, tc, "id");
	if (name != JV_NONE && !jv_is_null(d, name) && !jv_is_string(d, name)) {
		error_at(err, ERR_FAILED, "%s.name: not a string", path);
		return -1;
	}
	/* Valid calls have parsed arguments; invalid ones keep the text. */
	if (args != JV_NONE && !jv_is_null(d, args) && !jv_is_object(d, args) &&
	    !(invalid && jv_is_string(d, args))) {
		error_at(err, ERR_FAILED, "%s.args: %s", path,
		         invalid ? "not a string or an object" : "not an object");
		return -1;
	}
	struct run_call *c = run_add_call(r, mi);
	c->raw_id = id;
	c->raw_name = name;
	c->id = loader_id(r, id);
	c->name = loader_str(r, name, "");
	c->src_msg_index = r->msgs[mi].src_index;
	if (!jv_is_null(d, args))
		run_call_set_args(r, c, args);
	if (invalid) {
		const char *why = jv_str(d, jv_get(d, tc, "error"));
		run_set_result(c, JV_NONE, true, why && *why ? why : "invalid tool call", -1);
	}
	return 0;
}

static int lc_add_calls(struct run *r, size_t mi, jv body, const char *path, const char *key,
                        bool invalid, struct error *err)
{
	jv list;
	if (loader_opt_array(r, body, key, path, "not an array", &list, err) < 0)
		return -1;
	char cpath[256];
	size_t k = 0;
	JV_EACH(r->doc, list, tc) {
		snprintf(cpath, sizeof cpath, "%s.%s[%zu]", path, key, k++);
		if (lc_add_call(r, mi, tc, cpath, invalid, err) < 0)
			return -1;
	}
	return 0;
}

/* The message's text and thinking in order: reasoning the provider put
 * in additional_kwargs.reasoning_content (DeepSeek) first, then the
 * content's blocks, text read as run_text_of reads it and thinking or
 * reasoning blocks (Anthropic's, LangChain's standard ones) as thinking.
 * tool_use blocks repeat tool_calls, which are added after. */
static void lc_add_parts(struct run *r, size_t mi, jv body, jv content)
{
	const struct jdoc *d = r->doc;
	jv rc = jv_get(d, jv_get(d, body, "additional_kwargs"), "reasoning_content");
	if (jv_is_string(d, rc) && jv_strlen(d, rc))
		run_add_thinking(r, mi, jv_str(d, rc), rc);
	if (jv_is_string(d, content)) {
		run_add_text(r, mi, jv_str(d, content), JV_NONE);
		return;
	}
	JV_EACH(d, content, b) {
		if (jv_is_string(d, b)) {
			run_add_text(r, mi, jv_str(d, b), b);
			continue;
		}
		const char *ty = jv_str(d, jv_get(d, b, "type"));
		if (!ty || !strcmp(ty, "text") || !strcmp(ty, "input_text") || !strcmp(ty, "output_text"))
			run_add_text(r, mi, loader_str(r, jv_get(d, b, "text"), ""), b);
		else if (!strcmp(ty, "thinking"))
			run_add_thinking(r, mi, loader_str(r, jv_get(d, b, "thinking"), ""), b);
		else if (!strcmp(ty, "reasoning"))
			run_add_thinking(r, mi, loader_str(r, jv_get(d, b, "reasoning"), ""), b);
	}
}

long lc_load_message(struct run *r, jv m, const char *path, bool flat, struct error *err)
{
	const struct jdoc *d = r->doc;
	if (!jv_is_object(d, m)) {
		error_at(err, ERR_FAILED, "%s: not an object", path);
		return -1;
	}
	const char *type;
	jv body = lc_body(d, m, flat, &type);
	if (!type) {
		jv ty = jv_get(d, m, "type");
		if (jv_streq(d, ty, "constructor"))
			error_at(err, ERR_FAILED, "%s: not a serialized message (id, kwargs)", path);
		else if (ty == JV_NONE)
			error_at(err, ERR_MISSING, "%s.type: missing", path);
		else if (!jv_is_string(d, ty))
			error_at(err, ERR_FAILED, "%s.type: not a string", path);
		else
			error_at(err, ERR_FAILED, "%s.data: not an object", path);
		return -1;
	}
	char bpath[256];
	snprintf(bpath, sizeof bpath, "%s%s", path, lc_body_key(d, m, body));
	jv content;
	if (loader_content(r, body, bpath, &content, err) < 0)
		return -1;
	bool known;
	enum run_role role = lc_role(d, type, body, &known);
	if (!known) {
		/* Shown as what it is (a RemoveMessage, a type of next year)
		 * rather than refused or taken for a human turn. */
		const char *text = run_text_of(r, content);
		return (long)run_add_note_msg(r, MSG_IN_OUTPUT, m, text[0] ? "message type \"%s\": %s"
		                              : "message type \"%s\"%s", type, text);
	}
	size_t mi = run_add_msg(r, role, MSG_IN_OUTPUT, NULL, m);
	lc_add_parts(r, mi, body, content);
	const char *text = r->msgs[mi].text;
	if (role == ROLE_TOOL) {
		jv id;
		if (loader_opt_string(r, body, "tool_call_id", bpath, &id, err) < 0)
			return -1;
		struct run_msg *msg = loader_tool_output(r, mi, loader_id(r, id), content);
		if (jv_streq(d, jv_get(d, body, "status"), "error"))
			loader_mark_failed(msg, text);
	}
	if (lc_add_calls(r, mi, body, bpath, "tool_calls", false, err) < 0 ||
	    lc_add_calls(r, mi, body, bpath, "invalid_tool_calls", true, err) < 0)
		return -1;
	return (long)mi;
}

void lc_join_by_name(struct run *r, bool flat)
{
	const struct jdoc *d = r->doc;
	for (size_t mi = 0; mi < r->nmsgs; mi++) {
		struct run_msg *m = &r->msgs[mi];
		if (!m->is_tool_output || m->answers_call_id)
			continue;
		const char *type;
		jv body = lc_body(d, m->raw, flat, &type);
		const char *name = jv_str(d, jv_get(d, body, "name"));
		struct run_call *hit = NULL;
		for (size_t ci = r->ncalls; ci-- > 0;) {
			struct run_call *c = &r->calls[ci];
			if (c->msg_index >= mi || c->has_result || (name && strcmp(c->name, name)))
				continue;
			hit = c;
			break;
		}
		m->unmatched_result = hit == NULL;
		if (hit)
			run_set_result(hit, m->result, m->result_is_error, m->result_error_text, (long)mi);
	}
}

/* ---- the format ------------------------------------------------------------ */

static int lc_detect(const struct jdoc *d, jv rec)
{
	jv list = rec;
	if (jv_is_object(d, rec))
		list = jv_get(d, rec, "messages");
	if (!jv_is_array(d, list))
		return 0;
	size_t seen = 0;
	JV_EACH(d, list, m) {
		if (!lc_is_message(d, m, false))
			return 0;
		seen++;
	}
	return seen ? 60 : 0;
}

static int lc_load(struct run *r, struct error *err)
{
	const struct jdoc *d = r->doc;
	jv list;
	const char *where;
	if (loader_messages_or_array(r, run_root(r), &list, &where, "a langchain record must be "
	                             "an object with messages or an array of messages",
	                             err) < 0)
		return -1;
	char path[128];
	size_t i = 0;
	bool idless = false;
	JV_EACH(d, list, m) {
		snprintf(path, sizeof path, "%s[%zu]", where, i);
		long mi = lc_load_message(r, m, path, false, err);
		if (mi < 0)
			return -1;
		r->msgs[mi].src_index = (long)i;
		for (size_t c = r->msgs[mi].first_call; c < r->ncalls; c++)
			r->calls[c].src_msg_index = (long)i;
		idless = idless || (r->msgs[mi].is_tool_output && !r->msgs[mi].answers_call_id);
		i++;
	}
	run_join_results(r);
	if (idless)
		lc_join_by_name(r, false);
	return 0;
}

const struct format_ops format_langchain = {
	.name = "langchain",
	.summary = "LangChain / LangGraph messages ({type, data} or serialized lc) in {messages} or a bare array",
	.detect = lc_detect,
	.load = lc_load,
};
