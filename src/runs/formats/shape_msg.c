/* shape_msg.c - the reader by shape's messages: their text and blocks, the calls in them and the results they hold. */
#include <stdlib.h>
#include <string.h>

#include "runs/loader.h"
#include "shape.h"
#include "util/xalloc.h"

/* Members a message is read through; the others are searched as any value. */
static const char *const read_keys[] = { "role", "author", "source", "sender", "type", "content",
                                         "parts", "text", "message", "tool_calls", "toolCalls",
                                         "function_call", "id", "name", NULL };

static bool read_key(const char *k)
{
	for (size_t i = 0; read_keys[i]; i++)
		if (strcmp(k, read_keys[i]) == 0)
			return true;
	return false;
}

/* Members of a part that hold a call or a result inside it (Gemini's
 * {functionCall: {...}}, ADK's function_call, Bedrock's toolUse). */
static const char *const wrapper_keys[] = { "functionCall", "function_call", "functionResponse",
                                            "function_response", "toolUse", "toolResult",
                                            "toolCall", "tool_call", NULL };

static bool is_thinking(const char *type)
{
	return type && (strstr(type, "thinking") || strstr(type, "reasoning"));
}

/* Results inside a message are added after it, as tool messages, so the
 * message's own parts stay together. */
struct pending {
	jv *items;
	size_t n, cap;
};

static void read_block(struct shape *s, size_t mi, jv b, struct pending *later, int depth)
{
	const struct jdoc *d = s->d;
	struct run *r = s->r;
	if (jv_is_string(d, b)) {
		run_add_text(r, mi, jv_str(d, b), b);
		return;
	}
	if (!jv_is_object(d, b))
		return;
	const char *name, *id;
	jv args, content;
	const char *type = jv_str(d, jv_get(d, b, "type"));
	if (shape_is_call(d, b, &name, &args, &id)) {
		shape_add_call(s, mi, b, name, args, id);
		return;
	}
	if (shape_is_result(d, b, &id, &name, &content)) {
		if (later->n == later->cap) {
			later->cap = later->cap ? later->cap * 2 : 8;
			later->items = xrealloc(later->items, later->cap * sizeof(*later->items));
		}
		later->items[later->n++] = b;
		return;
	}
	if (is_thinking(type)) {
		const char *t = jv_str(d, jv_get(d, b, "thinking"));
		run_add_thinking(r, mi, t ? t : run_text_of(r, jv_get(d, b, "text")), b);
		return;
	}
	const char *text = jv_str(d, jv_get(d, b, "text"));
	if (text) {
		run_add_text(r, mi, text, b);
		return;
	}
	for (size_t i = 0; depth == 0 && wrapper_keys[i]; i++) {
		jv inner = jv_get(d, b, wrapper_keys[i]);
		if (jv_is_object(d, inner)) {
			read_block(s, mi, inner, later, depth + 1);
			return;
		}
	}
	if (type)
		run_add_note(r, mi, b, "block type \"%s\" (not read by shape)", type);
}

static void read_content(struct shape *s, size_t mi, jv content, struct pending *later)
{
	const struct jdoc *d = s->d;
	if (jv_is_array(d, content)) {
		JV_EACH(d, content, b)
			read_block(s, mi, b, later, 0);
	} else if (jv_is_object(d, content) && jv_get(d, content, "parts") != JV_NONE) {
		read_content(s, mi, jv_get(d, content, "parts"), later);   /* Gemini's content */
	} else {
		read_block(s, mi, content, later, 0);
	}
}

static void read_call_list(struct shape *s, size_t mi, jv list)
{
	const struct jdoc *d = s->d;
	const char *name, *id;
	jv args;
	if (jv_is_object(d, list) && shape_is_call(d, list, &name, &args, &id)) {
		shape_add_call(s, mi, list, name, args, id);
		return;
	}
	JV_EACH(d, list, tc) {
		if (shape_is_call(d, tc, &name, &args, &id))
			shape_add_call(s, mi, tc, name, args, id);
		else if (jv_is_object(d, tc))
			run_add_note(s->r, mi, tc, "a tool call with no name or arguments (not read by shape)");
	}
}

/* The member holding the message's text or blocks. */
static jv body_content(const struct jdoc *d, jv body)
{
	static const char *const keys[] = { "content", "parts", "text", "message", NULL };
	for (size_t i = 0; keys[i]; i++) {
		jv v = jv_get(d, body, keys[i]);
		if (v != JV_NONE && !jv_is_null(d, v) && !(i == 3 && jv_is_object(d, v)))
			return v;
	}
	return JV_NONE;
}

static void read_tool_message(struct shape *s, jv body)
{
	const struct jdoc *d = s->d;
	const char *call_id, *name;
	jv content;
	if (!shape_is_result(d, body, &call_id, &name, &content)) {
		call_id = NULL;
		name = jv_str(d, jv_get(d, body, "name"));
		content = body_content(d, body);
	}
	shape_add_result(s, body, call_id, name, content);
}

void shape_read_message(struct shape *s, jv obj, enum run_role role)
{
	const struct jdoc *d = s->d;
	struct run *r = s->r;
	jv body = obj;
	jv inner = jv_get(d, obj, "message");
	enum run_role inner_role;
	if (jv_is_object(d, inner)) {
		/* A session's event around the message (Claude Code's lines). */
		body = inner;
		if (shape_is_message(d, inner, &inner_role))
			role = inner_role;
	}
	if (role == ROLE_TOOL) {
		read_tool_message(s, body);
		return;
	}
	size_t mi = run_add_msg(r, role, MSG_IN_OUTPUT, NULL, body);
	struct pending later = { .items = NULL };
	read_content(s, mi, body_content(d, body), &later);
	static const char *const call_keys[] = { "tool_calls", "toolCalls", "function_call", NULL };
	for (size_t i = 0; call_keys[i]; i++)
		read_call_list(s, mi, jv_get(d, body, call_keys[i]));
	/* What a message nests (a provider's raw reply kept beside it) is a
	 * copy: a call found there again is the same call. */
	jv outer = s->list;
	s->list = JV_NONE;
	JV_EACH_KEY(d, body, k) {
		if (!read_key(jv_str(d, k)))
			shape_walk(s, jv_value(k));
	}
	s->list = outer;
	const char *call_id, *name;
	jv content;
	for (size_t i = 0; i < later.n; i++)
		if (shape_is_result(d, later.items[i], &call_id, &name, &content))
			shape_add_result(s, later.items[i], call_id, name, content);
	free(later.items);
}

/* A hosted call's name is its type's stem: "web_search_call" is web_search. */
static const char *call_name(struct shape *s, jv obj, const char *name)
{
	const char *type = jv_str(s->d, jv_get(s->d, obj, "type"));
	size_t n = strlen(name);
	if (name != type || n <= 5)
		return name;
	return arena_strndup(&s->r->arena, name, n - 5);
}

/* OpenAI's parallel wrapper, a call named "parallel" (or
 * multi_tool_use.parallel) whose arguments' tool_uses are the calls the
 * model made: {recipient_name: "functions.NAME", parameters}. Adds them
 * and returns how many; 0 when the call is no such wrapper. */
static size_t unwrap_parallel(struct shape *s, size_t mi, jv obj, const char *name, jv args)
{
	const struct jdoc *d = s->d;
	if (strcmp(name, "parallel") != 0 && !loader_ends_with(name, ".parallel"))
		return 0;
	jv held = jv_is_string(d, args) ? shape_graft(s, args) : args;
	jv uses = jv_get(d, held, "tool_uses");
	size_t n = 0;
	JV_EACH(d, uses, u) {
		const char *to = jv_str(d, jv_get(d, u, "recipient_name"));
		jv params = jv_get(d, u, "parameters");
		if (!to || !to[0] || params == JV_NONE)
			continue;
		const char *dot = strrchr(to, '.');
		const char *inner = dot && dot[1] ? dot + 1 : to;
		if (shape_add_call(s, mi, obj, inner, params, NULL) && mi == SHAPE_ANY_MSG)
			mi = s->r->calls[s->r->ncalls - 1].msg_index;
		n++;
	}
	return n;
}

bool shape_add_call(struct shape *s, size_t mi, jv obj, const char *name, jv args, const char *id)
{
	struct run *r = s->r;
	if (unwrap_parallel(s, mi, obj, name, args))
		return true;
	if (shape_seen_call(s, name, args, id)) {
		s->repeats++;
		return false;
	}
	if (mi == SHAPE_ANY_MSG) {
		const struct run_msg *last = r->nmsgs ? &r->msgs[r->nmsgs - 1] : NULL;
		if (last && last->role == ROLE_ASSISTANT)
			mi = r->nmsgs - 1;
		else
			mi = run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, NULL, obj);
	}
	struct run_call *c = run_add_call(r, mi);
	c->id = id;
	c->name = call_name(s, obj, name);
	run_call_set_args(r, c, args);
	return true;
}

void shape_add_result(struct shape *s, jv obj, const char *call_id, const char *name, jv content)
{
	struct run *r = s->r;
	const struct jdoc *d = s->d;
	if (call_id && shape_seen_result(s, call_id))
		return;
	size_t mi = run_add_msg(r, ROLE_TOOL, MSG_IN_OUTPUT, NULL, obj);
	if (jv_is_string(d, content) || jv_is_array(d, content))
		run_add_text(r, mi, run_text_of(r, content), content);
	struct run_msg *m = loader_tool_output(r, mi, call_id, content);
	if (jv_truthy(d, jv_get(d, obj, "is_error")) || jv_truthy(d, jv_get(d, obj, "isError")))
		loader_mark_failed(m, m->text);
	if (s->nresults == s->results_cap) {
		s->results_cap = s->results_cap ? s->results_cap * 2 : 16;
		s->results = xrealloc(s->results, s->results_cap * sizeof(*s->results));
	}
	s->results[s->nresults++] = (struct shape_result){ .msg = mi, .call_id = call_id, .name = name };
}
