/* langfuse_msgs.c - the messages of a Langfuse observation's input or output, in the shapes SDKs write them.
 *
 * Langfuse keeps what each integration sent: an Anthropic message
 * {role, content: [blocks]}, OpenAI's {role, content, tool_calls} or a
 * completion's choices, the AI SDK's {prompt, system}, its messages with
 * tool-call parts and its bare output list [{toolCallId, toolName,
 * input}], the GenAI convention's {role, parts: [{type: "tool_call"}]}.
 * Each is walked into messages and their pieces (text, thinking, a call,
 * a result, something else), and the mode (langfuse.h) says which pieces
 * become part of the run. A call the run already has (the same id and
 * name) is a repeat and is not added again. */
#include <stdio.h>
#include <string.h>

#include "runs/loader.h"
#include "util/strbuf.h"
#include "langfuse.h"

/* Nesting of values inside values (a list inside choices inside ...)
 * beyond which nothing is read: only hostile records go this deep. */
#define LF_MAX_DEPTH 16

jv lf_json(struct run *r, jv v)
{
	/* Twice: trace input and output are JSON texts of JSON texts. */
	for (int i = 0; i < 2 && jv_is_string(r->doc, v); i++) {
		jv g = jdoc_graft(r->doc, v);
		if (g == JV_NONE || (!jv_is_object(r->doc, g) && !jv_is_array(r->doc, g) &&
		                     !jv_is_string(r->doc, g)))
			break;
		v = g;
	}
	return v;
}

/* Calls of one id compared for a repeat: only a hostile file has more,
 * and past them a call is taken as new rather than compared with all. */
#define LF_MAX_SAME_ID 256

void lf_index_add(struct run *r, struct lf_index *ix, size_t i)
{
	call_index_add(&ix->ids, r->calls[i].id, i);
	call_index_add(&ix->tool_ids, r->calls[i].id, i);
	call_index_add(&ix->tool_names, r->calls[i].name, i);
}

void lf_index_free(struct lf_index *ix)
{
	call_index_free(&ix->ids);
	call_index_free(&ix->tool_ids);
	call_index_free(&ix->tool_names);
}

struct run_call *lf_find_call(struct run *r, struct lf_index *ix, const char *id,
                              const char *name, jv args)
{
	size_t n;
	const size_t *calls = call_index_get(&ix->ids, id, &n);
	/* Where there are no real ids (the GenAI shape of some SDKs writes the
	 * tool's name), only the same arguments make it the same call. */
	bool name_only = id && name && !strcmp(id, name);
	for (size_t k = 0; k < n && k < LF_MAX_SAME_ID; k++) {
		struct run_call *c = &r->calls[calls[k]];
		if (strcmp(c->name, name ? name : ""))
			continue;
		if (name_only && !jv_equal(r->doc, c->args, r->doc, args))
			continue;
		return c;
	}
	return NULL;
}

static bool lf_answered(size_t call, void *ctx)
{
	return ((struct run *)ctx)->calls[call].has_result;
}

/* The first call with this id that has no result yet. */
static struct run_call *lf_open_call(struct run *r, struct lf_index *ix, const char *id)
{
	long i = call_index_first_free(&ix->ids, id, lf_answered, r);
	return i < 0 ? NULL : &r->calls[i];
}

/* ---- pieces of a message ---------------------------------------------------- */

enum lf_kind { LF_TEXT, LF_THINKING, LF_CALL, LF_RESULT, LF_OTHER };

struct lf_piece {
	enum lf_kind kind;
	jv text;                    /* TEXT, THINKING: a string, or JV_NONE */
	jv id, name, args;          /* CALL; RESULT: id */
	jv result;                  /* RESULT */
	bool is_error;
	const char *type;           /* OTHER: the part's type, NULL when none */
};

static bool lf_type_is(const char *type, const char *a, const char *b)
{
	return type && (!strcmp(type, a) || (b && !strcmp(type, b)));
}

static jv lf_either(const struct jdoc *d, jv obj, const char *a, const char *b)
{
	jv v = jv_get(d, obj, a);
	return v != JV_NONE ? v : jv_get(d, obj, b);
}

/* Calls: Anthropic tool_use blocks (server and MCP ones too), the AI SDK's
 * tool-call parts and bare {toolCallId, toolName}, GenAI tool_call parts,
 * LangChain's tool_call, Responses function_call items, Chat's {type:
 * function, function}. */
static bool lf_classify_call(const struct jdoc *d, jv part, const char *type, struct lf_piece *p)
{
	p->kind = LF_CALL;
	if (jv_get(d, part, "toolCallId") != JV_NONE && (!type || !strcmp(type, "tool-call"))) {
		p->id = jv_get(d, part, "toolCallId");
		p->name = jv_get(d, part, "toolName");
		p->args = lf_either(d, part, "input", "args");
	} else if (type && (!strcmp(type, "tool_use") || loader_ends_with(type, "_tool_use"))) {
		p->id = jv_get(d, part, "id");
		p->name = jv_get(d, part, "name");
		p->args = jv_get(d, part, "input");
	} else if (lf_type_is(type, "tool_call", "function_call")) {
		/* A Responses function_call's id is the item's; call_id names the call. */
		p->id = lf_either(d, part, "call_id", "id");
		p->name = jv_get(d, part, "name");
		p->args = lf_either(d, part, "arguments", "input");
		if (p->args == JV_NONE)
			p->args = jv_get(d, part, "args");      /* LangChain's tool_call */
	} else if (jv_is_object(d, jv_get(d, part, "function"))) {
		jv fn = jv_get(d, part, "function");
		p->id = jv_get(d, part, "id");
		p->name = jv_get(d, fn, "name");
		p->args = jv_get(d, fn, "arguments");
	} else {
		return false;
	}
	return true;
}

/* Results: Anthropic tool_result and server *_tool_result blocks, the AI
 * SDK's tool-result parts, GenAI tool_call_response parts, Responses
 * function_call_output items. */
static bool lf_classify_result(const struct jdoc *d, jv part, const char *type, struct lf_piece *p)
{
	p->kind = LF_RESULT;
	if (type && (!strcmp(type, "tool_result") || loader_ends_with(type, "_tool_result"))) {
		p->id = jv_get(d, part, "tool_use_id");
		p->result = jv_get(d, part, "content");
		p->is_error = jv_truthy(d, jv_get(d, part, "is_error"));
	} else if (lf_type_is(type, "tool-result", NULL)) {
		p->id = jv_get(d, part, "toolCallId");
		p->result = lf_either(d, part, "output", "result");
		p->is_error = jv_truthy(d, jv_get(d, part, "isError"));
	} else if (lf_type_is(type, "function_call_output", NULL)) {
		p->id = jv_get(d, part, "call_id");
		p->result = jv_get(d, part, "output");
	} else if (lf_type_is(type, "tool_call_response", NULL)) {
		p->id = jv_get(d, part, "id");
		p->result = lf_either(d, part, "response", "result");
	} else {
		return false;
	}
	return true;
}

static void lf_classify(const struct jdoc *d, jv part, struct lf_piece *p)
{
	*p = (struct lf_piece){ .kind = LF_OTHER, .text = JV_NONE, .id = JV_NONE, .name = JV_NONE,
	                        .args = JV_NONE, .result = JV_NONE };
	if (jv_is_string(d, part)) {
		p->kind = LF_TEXT;
		p->text = part;
		return;
	}
	if (!jv_is_object(d, part))
		return;
	const char *type = jv_str(d, jv_get(d, part, "type"));
	p->type = type;
	if (lf_classify_call(d, part, type, p) || lf_classify_result(d, part, type, p))
		return;
	p->kind = LF_OTHER;
	jv text = lf_either(d, part, "text", "content");
	if (!type || lf_type_is(type, "text", "output_text") || lf_type_is(type, "input_text", NULL)) {
		if (jv_is_string(d, text)) {
			p->kind = LF_TEXT;
			p->text = text;
		}
	} else if (!strcmp(type, "thinking")) {
		p->kind = LF_THINKING;
		p->text = jv_get(d, part, "thinking");
	} else if (!strcmp(type, "redacted_thinking")) {
		p->kind = LF_THINKING;
	} else if (!strcmp(type, "reasoning") || loader_ends_with(type, "ReasoningContent")) {
		/* Microsoft.Extensions.AI keeps {content: {text, protectedData}}. */
		p->kind = LF_THINKING;
		p->text = jv_is_object(d, text) ? jv_get(d, text, "text") : text;
	}
	if (p->kind == LF_THINKING && !jv_is_string(d, p->text))
		p->text = JV_NONE;
}

/* ---- messages into the run ------------------------------------------------ */

struct lf_ctx {
	struct run *r;
	struct lf_index *ix;
	enum lf_mode mode;
	jv raw;                     /* the observation */
	bool counting;              /* the first walk of LF_INPUT_LATER */
	long index;                 /* the message being read, among the value's */
	long last_assistant;        /* the value's last assistant message, -1 none */
	long msg;                   /* the run's message taking pieces, -1 none yet */
	enum run_role role;
	bool role_written;          /* the message said its role */
	jv msg_raw;
	size_t calls;
};

static enum run_role lf_role(const char *role, enum lf_mode mode, bool *known)
{
	*known = true;
	if (!role)
		return mode == LF_OUTPUT ? ROLE_ASSISTANT : ROLE_USER;
	if (!strcmp(role, "model") || !strcmp(role, "ai"))
		return ROLE_ASSISTANT;
	if (!strcmp(role, "human"))
		return ROLE_USER;
	if (!strcmp(role, "developer"))
		return ROLE_SYSTEM;
	if (!strcmp(role, "function") || !strcmp(role, "ipython"))
		return ROLE_TOOL;
	return run_role_parse(role, known);
}

/* The message pieces go to, made at the first piece. */
static size_t lf_msg(struct lf_ctx *x)
{
	if (x->msg < 0)
		x->msg = (long)run_add_msg(x->r, x->role, MSG_IN_OUTPUT, "", x->msg_raw);
	return (size_t)x->msg;
}

static void lf_result(struct lf_ctx *x, jv id_v, jv result, bool is_error, jv raw)
{
	struct run *r = x->r;
	const char *id = loader_id(r, id_v);
	struct run_call *c = lf_open_call(r, x->ix, id);
	if (c) {
		const char *text = is_error ? run_text_of(r, result) : NULL;
		run_set_result(c, result, is_error, is_error ? (*text ? text : "error") : NULL, -1);
	} else if (x->mode != LF_INPUT_LATER) {
		/* A result of a call made before the trace, or of none. */
		run_add_note(r, lf_msg(x), raw, "result for call %s, which the trace does not show",
		             id ? id : "without an id");
	}
}

static void lf_call(struct lf_ctx *x, const struct lf_piece *p, jv raw)
{
	struct run *r = x->r;
	const char *id = loader_id(r, p->id);
	const char *name = loader_str(r, p->name, "");
	jv args = jv_is_null(r->doc, p->args) ? JV_NONE : p->args;
	if (x->mode == LF_INPUT_FIRST) {
		run_add_note(r, lf_msg(x), raw, "call %s in the history before the trace (not counted)",
		             *name ? name : "without a name");
		return;
	}
	if (lf_find_call(r, x->ix, id, name, args))
		return;
	struct run_call *c = run_add_call(r, lf_msg(x));
	c->id = id;
	c->raw_id = p->id;
	c->name = name;
	c->raw_name = p->name;
	c->src_msg_index = -1;
	if (args != JV_NONE)
		run_call_set_args(r, c, args);
	lf_index_add(r, x->ix, r->ncalls - 1);
	x->calls++;
}

static void lf_piece(struct lf_ctx *x, jv part)
{
	struct run *r = x->r;
	struct lf_piece p;
	lf_classify(r->doc, part, &p);
	switch (p.kind) {
	case LF_TEXT:
		if (jv_strlen(r->doc, p.text))
			run_add_text(r, lf_msg(x), jv_str(r->doc, p.text), part);
		break;
	case LF_THINKING:
		run_add_thinking(r, lf_msg(x), jv_str_or(r->doc, p.text, ""), part);
		break;
	case LF_CALL:
		lf_call(x, &p, part);
		break;
	case LF_RESULT:
		lf_result(x, p.id, p.result, p.is_error, part);
		break;
	case LF_OTHER:
		if (p.type)
			run_add_note(r, lf_msg(x), part, "part type \"%s\" (not read)", p.type);
		else if (!jv_is_null(r->doc, part))
			run_add_note(r, lf_msg(x), part, "a part without a type (not read)");
		break;
	}
}

static void lf_pieces(struct lf_ctx *x, jv content)
{
	if (jv_is_array(x->r->doc, content)) {
		JV_EACH(x->r->doc, content, part)
			lf_piece(x, part);
	} else if (content != JV_NONE) {
		lf_piece(x, content);
	}
}

/* LF_INPUT_LATER: results join their calls; a user turn after the
 * input's last assistant turn is new unless it is the run's last one. */
static void lf_later(struct lf_ctx *x, jv content, jv answers)
{
	struct run *r = x->r;
	const struct jdoc *d = r->doc;
	if (x->role == ROLE_TOOL && answers != JV_NONE) {
		lf_result(x, answers, content, false, x->msg_raw);
		return;
	}
	struct lf_piece p;
	struct strbuf joined = STRBUF_INIT;
	JV_EACH(d, content, part) {
		lf_classify(d, part, &p);
		if (p.kind == LF_RESULT) {
			lf_result(x, p.id, p.result, p.is_error, part);
		} else if (p.kind == LF_TEXT && jv_strlen(d, p.text)) {
			if (joined.len)
				strbuf_addch(&joined, '\n');
			strbuf_add(&joined, jv_str(d, p.text), jv_strlen(d, p.text));
		}
	}
	const char *text = jv_is_string(d, content) ? jv_str(d, content)
	                 : joined.len ? arena_strdup(&r->arena, joined.buf) : "";
	strbuf_release(&joined);
	/* An input without roles is a stub some SDKs write ({"content": "role"}). */
	if (x->role != ROLE_USER || !x->role_written || x->index <= x->last_assistant || !*text)
		return;
	for (size_t i = r->nmsgs; i-- > 0;) {
		if (r->msgs[i].role != ROLE_USER || r->msgs[i].is_tool_output)
			continue;
		if (!strcmp(r->msgs[i].text, text))
			return;
		break;
	}
	run_add_msg(r, ROLE_USER, MSG_IN_OUTPUT, text, x->msg_raw);
}

/* One message: its role as written (NULL when the shape has none), its
 * content (a string, a list of parts, or one part), Chat's tool_calls and
 * the call a tool message answers. */
static void lf_message(struct lf_ctx *x, const char *role_s, jv content, jv calls, jv answers,
                       jv raw)
{
	struct run *r = x->r;
	bool known;
	long index = x->index++;
	enum run_role role = lf_role(role_s, x->mode, &known);
	if (x->counting) {
		if (known && role == ROLE_ASSISTANT && role_s)
			x->last_assistant = index;
		return;
	}
	x->msg = -1;
	x->role = role;
	x->role_written = role_s != NULL;
	x->msg_raw = raw;
	if (!known) {
		if (x->mode != LF_INPUT_LATER)
			run_add_note_msg(r, MSG_IN_OUTPUT, raw, "role \"%s\" (not read)", role_s);
		return;
	}
	if (x->mode == LF_INPUT_LATER) {
		lf_later(x, content, answers);
		return;
	}
	if (role == ROLE_TOOL && answers != JV_NONE && lf_open_call(r, x->ix, loader_id(r, answers))) {
		lf_result(x, answers, content, false, raw);
		return;
	}
	lf_pieces(x, content);
	JV_EACH(r->doc, calls, tc)
		lf_piece(x, tc);
}

static bool lf_is_message(const struct jdoc *d, jv v)
{
	return jv_is_string(d, jv_get(d, v, "role"));
}

static void lf_walk(struct lf_ctx *x, jv v, int depth);

/* An object that is no message itself: {messages}, {choices}, {prompt,
 * system}, a bare {content}, the AI SDK's result {text, toolCalls}. */
static void lf_walk_object(struct lf_ctx *x, jv v, int depth)
{
	const struct jdoc *d = x->r->doc;
	jv system = jv_get(d, v, "system"), prompt = jv_get(d, v, "prompt");
	jv messages = jv_get(d, v, "messages"), choices = jv_get(d, v, "choices");
	if (jv_is_string(d, system))
		lf_message(x, "system", system, JV_NONE, JV_NONE, v);
	if (jv_is_array(d, messages) || jv_is_array(d, choices)) {
		lf_walk(x, jv_is_array(d, messages) ? messages : choices, depth + 1);
	} else if (jv_is_string(d, prompt) || jv_is_array(d, prompt)) {
		lf_walk(x, prompt, depth + 1);
	} else if (jv_is_object(d, jv_get(d, v, "message"))) {
		lf_walk(x, jv_get(d, v, "message"), depth + 1);
	} else if (jv_get(d, v, "content") != JV_NONE) {
		lf_message(x, NULL, jv_get(d, v, "content"), JV_NONE, JV_NONE, v);
	} else if (jv_get(d, v, "text") != JV_NONE || jv_is_array(d, jv_get(d, v, "toolCalls"))) {
		lf_message(x, NULL, jv_get(d, v, "text"), jv_get(d, v, "toolCalls"), JV_NONE, v);
	} else if (jv_get(d, v, "toolCallId") != JV_NONE || jv_get(d, v, "type") != JV_NONE) {
		lf_message(x, NULL, v, JV_NONE, JV_NONE, v);
	} else if (!jv_is_string(d, system) && !x->counting && x->mode != LF_INPUT_LATER) {
		run_add_note_msg(x->r, MSG_IN_OUTPUT, v, "%s not read: an object of %zu keys",
		                 x->mode == LF_OUTPUT ? "output" : "input", jv_len(d, v));
	}
}

static void lf_walk(struct lf_ctx *x, jv v, int depth)
{
	const struct jdoc *d = x->r->doc;
	if (depth > LF_MAX_DEPTH)
		return;
	if (jv_is_string(d, v)) {
		lf_message(x, NULL, v, JV_NONE, JV_NONE, v);
	} else if (jv_is_array(d, v) && lf_is_message(d, jv_first(d, v))) {
		JV_EACH(d, v, m) {
			if (lf_is_message(d, m)) {
				jv content = jv_get(d, m, "parts");
				if (content == JV_NONE)
					content = jv_get(d, m, "content");
				jv answers = lf_either(d, m, "tool_call_id", "toolCallId");
				lf_message(x, jv_str(d, jv_get(d, m, "role")), content,
				           jv_get(d, m, "tool_calls"), answers, m);
			} else {
				lf_walk(x, m, depth + 1);
			}
		}
	} else if (jv_is_array(d, v)) {
		/* A list of parts (the AI SDK's output calls), or of choices. */
		if (jv_is_object(d, jv_get(d, jv_first(d, v), "message"))) {
			JV_EACH(d, v, c)
				lf_walk(x, jv_get(d, c, "message"), depth + 1);
		} else if (jv_len(d, v)) {
			lf_message(x, NULL, v, JV_NONE, JV_NONE, v);
		}
	} else if (jv_is_object(d, v) && lf_is_message(d, v)) {
		jv parts = jv_get(d, v, "parts");
		lf_message(x, jv_str(d, jv_get(d, v, "role")),
		           parts != JV_NONE ? parts : jv_get(d, v, "content"),
		           jv_get(d, v, "tool_calls"), lf_either(d, v, "tool_call_id", "toolCallId"), v);
	} else if (jv_is_object(d, v)) {
		lf_walk_object(x, v, depth);
	}
}

size_t lf_read(struct run *r, struct lf_index *ix, jv v, jv raw, enum lf_mode mode)
{
	struct lf_ctx x = { .r = r, .ix = ix, .mode = mode, .raw = raw, .last_assistant = -1, .msg = -1 };
	v = lf_json(r, v);
	if (mode == LF_INPUT_LATER) {
		x.counting = true;
		lf_walk(&x, v, 0);
		x.counting = false;
		x.index = 0;
	}
	lf_walk(&x, v, 0);
	return x.calls;
}

size_t lf_read_tool_calls(struct run *r, struct lf_index *ix, jv calls, jv names, jv raw)
{
	const struct jdoc *d = r->doc;
	struct lf_ctx x = { .r = r, .ix = ix, .mode = LF_OUTPUT, .raw = raw, .last_assistant = -1, .msg = -1,
	                    .role = ROLE_ASSISTANT, .msg_raw = raw };
	size_t i = 0;
	JV_EACH(d, calls, tc) {
		jv obj = lf_json(r, tc);
		struct lf_piece p = { .kind = LF_CALL, .id = jv_get(d, obj, "id"),
		                      .name = jv_get(d, obj, "name"), .args = jv_get(d, obj, "arguments") };
		if (!jv_is_string(d, p.name))
			p.name = jv_at(d, names, (long)i);
		if (p.args == JV_NONE)
			p.args = jv_get(d, obj, "input");
		i++;
		if (jv_is_object(d, obj))
			lf_call(&x, &p, obj);
	}
	return x.calls;
}
