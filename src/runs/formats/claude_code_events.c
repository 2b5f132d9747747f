/* claude_code_events.c - one Claude Code event into the run: user lines
 * (text, tool results), assistant messages gathered from their lines,
 * notes for what is not read, and the run's name. See claude_code.c. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "runs/loader.h"
#include "claude_code.h"

/* Lines Claude Code writes around the conversation. */
static bool cc_metadata(const char *ty)
{
	static const char *const types[] = {
		"summary", "custom-title", "progress", "file-history-snapshot", "queue-operation",
		"system", NULL
	};
	for (size_t k = 0; types[k]; k++)
		if (!strcmp(ty, types[k]))
			return true;
	return false;
}

/* Where an event is, for notes: "line N" of the file, or "[i]" in the
 * session's array when its lines are not known, with its uuid to find it
 * by when it has one. */
static void cc_where(const struct cc_session *s, size_t i, char *buf, size_t len)
{
	if (s->ev[i].line)
		snprintf(buf, len, "line %zu", s->ev[i].line);
	else if (s->ev[i].uuid)
		snprintf(buf, len, "[%zu] (uuid %.60s)", i, s->ev[i].uuid);
	else
		snprintf(buf, len, "[%zu]", i);
}

/* A note message for event i: "WHERE: what". */
static void cc_note_event(struct run *r, const struct cc_session *s, size_t i, const char *fmt,
                          ...) __attribute__((format(printf, 4, 5)));
static void cc_note_event(struct run *r, const struct cc_session *s, size_t i, const char *fmt,
                          ...)
{
	char where[112], what[256];
	cc_where(s, i, where, sizeof where);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	size_t mi = run_add_note_msg(r, MSG_IN_OUTPUT, s->ev[i].v, "%s: %s", where, what);
	r->msgs[mi].src_index = (long)i;
}

static const char *cc_kind(const struct jdoc *d, jv v)
{
	switch (jv_type(d, v)) {
	case JV_STRING: return "a string";
	case JV_NUMBER: return "a number";
	case JV_ARRAY:  return "a list";
	case JV_TRUE:
	case JV_FALSE:  return "a boolean";
	case JV_NULL:   return "null";
	case JV_OBJECT: return "an object";
	default:        return "missing";
	}
}

static bool cc_blank(const char *s)
{
	for (; *s; s++)
		if (*s != ' ' && *s != '\n' && *s != '\t' && *s != '\r')
			return false;
	return true;
}

/* ---- user lines ---------------------------------------------------------- */

/* One tool_result block as its own tool message. */
static void cc_tool_result(struct run *r, jv b, size_t i)
{
	const struct jdoc *d = r->doc;
	jv content = jv_get(d, b, "content");
	const char *text = run_text_of(r, content);
	size_t mi = run_add_msg(r, ROLE_TOOL, MSG_IN_OUTPUT, text, b);
	r->msgs[mi].src_index = (long)i;
	struct run_msg *m = loader_tool_output(r, mi, loader_id(r, jv_get(d, b, "tool_use_id")),
	                                       content);
	if (jv_type(d, jv_get(d, b, "is_error")) == JV_TRUE)
		loader_mark_failed(m, text);
}

/* A block of a user line that is not a tool result, into message mi. */
static void cc_user_block(struct run *r, size_t mi, jv b, size_t k)
{
	const struct jdoc *d = r->doc;
	if (jv_is_string(d, b)) {
		run_add_text(r, mi, jv_str(d, b), b);
		return;
	}
	const char *ty = jv_str(d, jv_get(d, b, "type"));
	if (!ty)
		run_add_note(r, mi, b, "message.content[%zu]: not a block (%s)", k, cc_kind(d, b));
	else if (!strcmp(ty, "text"))
		run_add_text(r, mi, jv_str_or(d, jv_get(d, b, "text"), ""), b);
	else if (!strcmp(ty, "image") || !strcmp(ty, "document"))
		run_add_note(r, mi, b, "%s (not shown)", ty);
	else
		run_add_note(r, mi, b, "block type \"%s\" (not read)", ty);
}

/* A user line: its text, or its blocks in order, each tool_result a tool
 * message of its own and the rest user messages between them. */
static void cc_user(struct run *r, const struct cc_session *s, size_t i, jv msg)
{
	const struct jdoc *d = r->doc;
	jv v = s->ev[i].v;
	jv content = jv_get(d, msg, "content");
	if (jv_is_string(d, content)) {
		size_t mi = run_add_msg(r, ROLE_USER, MSG_IN_OUTPUT, jv_str(d, content), v);
		r->msgs[mi].src_index = (long)i;
		return;
	}
	if (!jv_is_array(d, content)) {
		cc_note_event(r, s, i, "message.content: %s", content == JV_NONE ? "missing"
		              : "not a string or a list");
		return;
	}
	long open = -1;
	size_t k = 0;
	JV_EACH(d, content, b) {
		if (jv_streq(d, jv_get(d, b, "type"), "tool_result")) {
			cc_tool_result(r, b, i);
			open = -1;
		} else {
			if (open < 0) {
				open = (long)run_add_msg(r, ROLE_USER, MSG_IN_OUTPUT, NULL, v);
				r->msgs[open].src_index = (long)i;
			}
			cc_user_block(r, (size_t)open, b, k);
		}
		k++;
	}
}

/* ---- assistant messages -------------------------------------------------- */

static bool cc_is_call(const char *ty)
{
	return !strcmp(ty, "tool_use") || !strcmp(ty, "server_tool_use") ||
	       !strcmp(ty, "mcp_tool_use");
}

/* A server tool's result block (web_search_tool_result, mcp_tool_result),
 * which sits in the assistant message beside its call. */
static bool cc_is_server_result(const char *ty)
{
	return loader_ends_with(ty, "tool_result") && strcmp(ty, "tool_result") != 0;
}

static void cc_call(struct run *r, size_t mi, jv b, size_t i)
{
	const struct jdoc *d = r->doc;
	jv id = jv_get(d, b, "id"), name = jv_get(d, b, "name"), input = jv_get(d, b, "input");
	struct run_call *c = run_add_call(r, mi);
	c->raw_id = id;
	c->id = loader_id(r, id);
	c->raw_name = name;
	c->name = loader_str(r, name, "");
	c->src_msg_index = (long)i;
	if (input != JV_NONE && !jv_is_null(d, input))
		run_call_set_args(r, c, input);
}

/* One block of an assistant line, as a part of message mi. Server results
 * wait until every call of the message is there. */
static void cc_assistant_block(struct run *r, size_t mi, jv b, size_t k, size_t i)
{
	const struct jdoc *d = r->doc;
	if (jv_is_string(d, b)) {
		if (!cc_blank(jv_str(d, b)))
			run_add_text(r, mi, jv_str(d, b), b);
		return;
	}
	const char *ty = jv_str(d, jv_get(d, b, "type"));
	if (!ty) {
		run_add_note(r, mi, b, "message.content[%zu]: not a block (%s)", k, cc_kind(d, b));
	} else if (!strcmp(ty, "text")) {
		const char *t = jv_str_or(d, jv_get(d, b, "text"), "");
		/* streaming leaves blocks of bare newlines */
		if (!cc_blank(t))
			run_add_text(r, mi, t, b);
	} else if (!strcmp(ty, "thinking")) {
		run_add_thinking(r, mi, jv_str_or(d, jv_get(d, b, "thinking"), ""), b);
	} else if (!strcmp(ty, "redacted_thinking")) {
		run_add_thinking(r, mi, "", b);
	} else if (cc_is_call(ty)) {
		cc_call(r, mi, b, i);
	} else if (!cc_is_server_result(ty)) {
		run_add_note(r, mi, b, "block type \"%s\" (not read)", ty);
	}
}

/* A server tool's result onto its call in message mi; an error is a
 * content object typed *_error (its error_code), or is_error. */
static void cc_server_result(struct run *r, size_t mi, jv b, const char *ty)
{
	const struct jdoc *d = r->doc;
	const char *id = loader_id(r, jv_get(d, b, "tool_use_id"));
	jv content = jv_get(d, b, "content");
	const char *error_text = NULL;
	bool is_error = loader_server_tool_error(r, content, jv_get(d, b, "is_error"), &error_text);
	const struct run_msg *m = &r->msgs[mi];
	for (size_t ci = m->first_call + m->ncalls; id && ci-- > m->first_call;) {
		struct run_call *c = &r->calls[ci];
		if (c->id && !c->has_result && !strcmp(c->id, id)) {
			run_set_result(c, content, is_error, error_text, -1);
			return;
		}
	}
	run_add_note(r, mi, b, "%s for no call of this message (%s)", ty, id ? id : "no id");
}

static void cc_model(struct run *r, jv msg)
{
	const char *model = jv_str(r->doc, jv_get(r->doc, msg, "model"));
	/* Claude Code's own messages (an API error, an interruption) */
	if (!r->model && model && model[0] && strcmp(model, "<synthetic>") != 0)
		r->model = model;
}

/* The content of one line of assistant message mi. */
static void cc_assistant_line(struct run *r, size_t mi, jv msg, size_t i)
{
	const struct jdoc *d = r->doc;
	jv content = jv_get(d, msg, "content");
	cc_model(r, msg);
	if (jv_is_string(d, content)) {
		if (!cc_blank(jv_str(d, content)))
			run_add_text(r, mi, jv_str(d, content), content);
		return;
	}
	if (content != JV_NONE && !jv_is_array(d, content) && !jv_is_null(d, content)) {
		run_add_note(r, mi, content, "message.content: not a string or a list");
		return;
	}
	size_t k = 0;
	JV_EACH(d, content, b)
		cc_assistant_block(r, mi, b, k++, i);
}

/* An assistant message: line i and the lines after it with its message.id,
 * their parts in order, then their server tools' results. */
static void cc_assistant(struct run *r, const struct cc_session *s, size_t i)
{
	const struct jdoc *d = r->doc;
	size_t mi = run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, NULL, s->ev[i].v);
	r->msgs[mi].src_index = (long)i;
	for (long j = (long)i; j >= 0; j = s->ev[j].same_msg)
		cc_assistant_line(r, mi, jv_get(d, s->ev[j].v, "message"), (size_t)j);
	for (long j = (long)i; j >= 0; j = s->ev[j].same_msg) {
		JV_EACH(d, jv_get(d, jv_get(d, s->ev[j].v, "message"), "content"), b) {
			const char *ty = jv_str(d, jv_get(d, b, "type"));
			if (ty && cc_is_server_result(ty))
				cc_server_result(r, mi, b, ty);
		}
	}
}

/* ---- one event ----------------------------------------------------------- */

void cc_load_event(struct run *r, const struct cc_session *s, size_t i)
{
	const struct jdoc *d = r->doc;
	const struct cc_event *e = &s->ev[i];
	if (e->twin || e->continued)
		return;
	if (jv_is_null(d, e->v)) {
		cc_note_event(r, s, i, "not JSON");
		return;
	}
	if (!jv_is_object(d, e->v)) {
		cc_note_event(r, s, i, "not an event (%s)", cc_kind(d, e->v));
		return;
	}
	jv type = jv_get(d, e->v, "type");
	const char *ty = jv_str(d, type);
	if (!ty) {
		cc_note_event(r, s, i, "an event with %s", type == JV_NONE ? "no type"
		              : "a type that is not a string");
		return;
	}
	if (cc_metadata(ty))
		return;
	if (strcmp(ty, "user") != 0 && strcmp(ty, "assistant") != 0) {
		cc_note_event(r, s, i, "event type \"%s\" (not read)", ty);
		return;
	}
	jv msg = jv_get(d, e->v, "message");
	if (!jv_is_object(d, msg))
		cc_note_event(r, s, i, "%s event: message: %s", ty, msg == JV_NONE ? "missing"
		              : "not an object");
	else if (ty[0] == 'u')
		cc_user(r, s, i, msg);
	else
		cc_assistant(r, s, i);
}

/* ---- the run's name ------------------------------------------------------ */

void cc_name_run(struct run *r, const struct cc_session *s)
{
	const struct jdoc *d = r->doc;
	jv first = JV_NONE;
	for (size_t i = 0; i < s->n && first == JV_NONE; i++)
		if (jv_strlen(d, jv_get(d, s->ev[i].v, "sessionId")))
			first = s->ev[i].v;
	if (first == JV_NONE)
		return;
	const char *session = jv_str(d, jv_get(d, first, "sessionId"));
	bool sidechain = jv_type(d, jv_get(d, first, "isSidechain")) == JV_TRUE;
	const char *agent = jv_strlen(d, jv_get(d, first, "agentId"))
	                    ? jv_str(d, jv_get(d, first, "agentId")) : NULL;
	if (sidechain)
		r->parent_id = session;
	/* an id path of the configuration named the run already */
	if (r->id != r->source)
		return;
	if (!sidechain)
		r->id = session;
	else if (agent)
		r->id = arena_printf(&r->arena, "%s/agent-%s", session, agent);
	else
		r->id = arena_printf(&r->arena, "%s/sidechain", session);
}
