/* otel_attrs.c - a span's attributes read as messages and tool runs, in
 * each convention agents' tracers write: OpenTelemetry GenAI (the JSON
 * messages of gen_ai.input.messages and the older flattened
 * gen_ai.prompt.N.*), OpenInference (llm.input_messages.N.message.*) and
 * the AI SDK (ai.prompt.messages, ai.response.*, ai.toolCall.*). */
#include "otel_attrs.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runs/loader.h"
#include "util/xalloc.h"

/* ---- attributes ---------------------------------------------------------- */

/* OTLP's AnyValue: the one member that holds the value. */
static jv any_value(const struct jdoc *d, jv v)
{
	if (!jv_is_object(d, v))
		return v;
	static const char *const scalar[] = {
		"stringValue", "intValue", "doubleValue", "boolValue", "bytesValue", NULL
	};
	for (size_t i = 0; scalar[i]; i++) {
		jv x = jv_get(d, v, scalar[i]);
		if (x != JV_NONE)
			return x;
	}
	jv x = jv_get(d, v, "arrayValue");
	if (x == JV_NONE)
		x = jv_get(d, v, "kvlistValue");
	return x != JV_NONE ? jv_get(d, x, "values") : v;
}

jv otel_attr(const struct jdoc *d, const struct otel_attrs *a, const char *key)
{
	if (a->obj != JV_NONE) {
		/* Phoenix keeps attributes unflattened: {llm: {model_name: ...}} */
		jv v = jv_get(d, a->obj, key);
		return v != JV_NONE || !strchr(key, '.') ? v : jv_path(d, a->obj, key);
	}
	JV_EACH(d, a->list, kv)
		if (jv_streq(d, jv_get(d, kv, "key"), key))
			return any_value(d, jv_get(d, kv, "value"));
	return JV_NONE;
}

const char *otel_attr_str(const struct jdoc *d, const struct otel_attrs *a, const char *key)
{
	return jv_str(d, otel_attr(d, a, key));
}

typedef void (*attr_fn)(const char *key, jv value, void *ctx);

static void attrs_each(const struct jdoc *d, const struct otel_attrs *a, attr_fn fn, void *ctx)
{
	if (a->obj != JV_NONE) {
		JV_EACH_KEY(d, a->obj, k)
			fn(jv_str(d, k), jv_value(k), ctx);
		return;
	}
	JV_EACH(d, a->list, kv) {
		const char *key = jv_str(d, jv_get(d, kv, "key"));
		if (key)
			fn(key, any_value(d, jv_get(d, kv, "value")), ctx);
	}
}

struct known_ctx {
	bool known;
};

static void known_key(const char *key, jv value, void *ctx)
{
	(void)value;
	static const char *const prefixes[] = {
		"gen_ai.", "llm.input_messages.", "llm.output_messages.", "openinference.",
		"ai.prompt", "ai.response.", "ai.toolCall.", NULL
	};
	struct known_ctx *k = ctx;
	for (size_t i = 0; !k->known && prefixes[i]; i++)
		k->known = !strncmp(key, prefixes[i], strlen(prefixes[i]));
}

bool otel_attrs_known(const struct jdoc *d, const struct otel_attrs *a)
{
	struct known_ctx k = { false };
	attrs_each(d, a, known_key, &k);
	return k.known;
}

/* The first of the keys the span has. */
static jv attr_any(const struct jdoc *d, const struct otel_attrs *a, const char *const *keys)
{
	for (size_t i = 0; keys[i]; i++) {
		jv v = otel_attr(d, a, keys[i]);
		if (v != JV_NONE && !jv_is_null(d, v))
			return v;
	}
	return JV_NONE;
}

/* An attribute holding JSON: a string is read into the tape, a
 * structured value is taken as it is. JV_NONE when neither. */
static jv attr_json(struct run *r, jv v)
{
	if (jv_is_string(r->doc, v))
		return jdoc_graft(r->doc, v);
	return jv_is_array(r->doc, v) || jv_is_object(r->doc, v) ? v : JV_NONE;
}

/* ---- the messages of a span ----------------------------------------------- */

void otel_msgs_reset(struct otel_msgs *m)
{
	m->n = 0;
	m->nparts = 0;
}

void otel_msgs_free(struct otel_msgs *m)
{
	free(m->msgs);
	free(m->parts);
	memset(m, 0, sizeof *m);
}

static struct otel_msg *push_msg(struct otel_msgs *m, const char *role, jv raw)
{
	if (m->n == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 8;
		m->msgs = xrealloc(m->msgs, m->cap * sizeof *m->msgs);
	}
	struct otel_msg *msg = &m->msgs[m->n++];
	*msg = (struct otel_msg){ .role = role, .raw = raw, .first = m->nparts };
	return msg;
}

/* A part of the newest message. */
static struct otel_part *push_part(struct otel_msgs *m, enum otel_part_kind kind, jv raw)
{
	if (m->nparts == m->parts_cap) {
		m->parts_cap = m->parts_cap ? m->parts_cap * 2 : 16;
		m->parts = xrealloc(m->parts, m->parts_cap * sizeof *m->parts);
	}
	struct otel_part *p = &m->parts[m->nparts++];
	*p = (struct otel_part){ .kind = kind, .text = "", .value = JV_NONE, .raw_id = JV_NONE,
	                         .name = "", .raw_name = JV_NONE, .args = JV_NONE, .raw = raw };
	m->msgs[m->n - 1].n++;
	return p;
}

static void push_text(struct run *r, struct otel_msgs *m, enum otel_part_kind kind, jv text,
                      jv raw)
{
	if (!jv_is_string(r->doc, text))
		return;
	struct otel_part *p = push_part(m, kind, raw);
	p->text = jv_str(r->doc, text);
	p->value = text;
}

static void push_note(struct run *r, struct otel_msgs *m, jv raw, const char *what,
                      const char *type)
{
	struct otel_part *p = push_part(m, OTEL_NOTE, raw);
	p->text = type ? arena_printf(&r->arena, "%s \"%s\" (not read)", what, type)
	               : run_strdup(r, what);
}

static void push_call(struct run *r, struct otel_msgs *m, jv raw, jv id, jv name, jv args)
{
	struct otel_part *p = push_part(m, OTEL_CALL, raw);
	p->raw_id = id;
	p->id = loader_id(r, id);
	p->raw_name = name;
	p->name = loader_str(r, name, "");
	p->args = jv_is_null(r->doc, args) ? JV_NONE : args;
}

static void push_result(struct run *r, struct otel_msgs *m, jv raw, jv id, jv result)
{
	struct otel_part *p = push_part(m, OTEL_RESULT, raw);
	p->raw_id = id;
	p->id = loader_id(r, id);
	p->value = result;
}

/* One part of a message in the GenAI shape ({type: text, content}, ...)
 * or the AI SDK's ({type: text, text}, {type: tool-call, ...}). */
static void read_part(struct run *r, jv part, struct otel_msgs *m)
{
	const struct jdoc *d = r->doc;
	if (jv_is_string(d, part)) {
		push_text(r, m, OTEL_TEXT, part, part);
		return;
	}
	const char *type = jv_str(d, jv_get(d, part, "type"));
	jv body = jv_get(d, part, "content");
	if (body == JV_NONE)
		body = jv_get(d, part, "text");
	if (!type) {
		push_note(r, m, part, "part without a type", NULL);
	} else if (!strcmp(type, "text")) {
		push_text(r, m, OTEL_TEXT, body, part);
	} else if (!strcmp(type, "reasoning") || !strcmp(type, "thinking")) {
		push_text(r, m, OTEL_THINKING, jv_is_string(d, body) ? body : JV_NONE, part);
	} else if (!strcmp(type, "tool_call")) {
		push_call(r, m, part, jv_get(d, part, "id"), jv_get(d, part, "name"),
		          jv_get(d, part, "arguments"));
	} else if (!strcmp(type, "server_tool_call")) {
		push_call(r, m, part, jv_get(d, part, "id"), jv_get(d, part, "name"),
		          jv_get(d, part, "server_tool_call"));
	} else if (!strcmp(type, "tool-call")) {
		jv args = jv_get(d, part, "input");
		push_call(r, m, part, jv_get(d, part, "toolCallId"), jv_get(d, part, "toolName"),
		          args != JV_NONE ? args : jv_get(d, part, "args"));
	} else if (!strcmp(type, "tool_call_response") || !strcmp(type, "server_tool_call_response")) {
		jv res = jv_get(d, part, "response");
		if (res == JV_NONE)
			res = jv_get(d, part, "result");
		if (res == JV_NONE)
			res = jv_get(d, part, "server_tool_call_response");
		push_result(r, m, part, jv_get(d, part, "id"), res);
	} else if (!strcmp(type, "tool-result")) {
		jv res = jv_get(d, part, "output");
		push_result(r, m, part, jv_get(d, part, "toolCallId"),
		            res != JV_NONE ? res : jv_get(d, part, "result"));
	} else {
		push_note(r, m, part, "part type", type);
	}
}

/* A Chat-style tool_calls entry {id, function: {name, arguments}}. */
static void read_chat_call(struct run *r, jv tc, struct otel_msgs *m)
{
	const struct jdoc *d = r->doc;
	jv fn = jv_get(d, tc, "function");
	push_call(r, m, tc, jv_get(d, tc, "id"), jv_get(d, fn, "name"), jv_get(d, fn, "arguments"));
}

/* One message of a JSON list: {role, parts} (GenAI), {role, content}
 * (AI SDK, Chat), with Chat's tool_calls and tool_call_id. */
static void read_json_message(struct run *r, jv msg, struct otel_msgs *m)
{
	const struct jdoc *d = r->doc;
	if (!jv_is_object(d, msg)) {
		push_msg(m, NULL, msg);
		push_note(r, m, msg, "a message that is not an object", NULL);
		return;
	}
	struct otel_msg *om = push_msg(m, jv_str(d, jv_get(d, msg, "role")), msg);
	jv answers = jv_get(d, msg, "tool_call_id");
	om->answers = loader_id(r, answers != JV_NONE ? answers : jv_get(d, msg, "toolCallId"));
	jv parts = jv_get(d, msg, "parts");
	if (!jv_is_array(d, parts))
		parts = jv_get(d, msg, "content");
	if (jv_is_string(d, parts))
		push_text(r, m, OTEL_TEXT, parts, msg);
	JV_EACH(d, parts, p)
		read_part(r, p, m);
	JV_EACH(d, jv_get(d, msg, "tool_calls"), tc)
		read_chat_call(r, tc, m);
}

static void read_json_messages(struct run *r, jv list, struct otel_msgs *m)
{
	JV_EACH(r->doc, list, msg)
		read_json_message(r, msg, m);
}

/* An attribute that should hold a JSON list of messages; anything else is
 * kept as a note saying so. */
static bool read_messages_attr(struct run *r, const struct otel_attrs *a, const char *key,
                               jv raw, struct otel_msgs *m)
{
	jv v = otel_attr(r->doc, a, key);
	if (v == JV_NONE)
		return false;
	jv list = attr_json(r, v);
	if (!jv_is_array(r->doc, list)) {
		push_msg(m, NULL, raw);
		push_note(r, m, raw, arena_printf(&r->arena, "%s: not a JSON list of messages", key),
		          NULL);
		return true;
	}
	read_json_messages(r, list, m);
	return true;
}

/* gen_ai.system_instructions: a JSON list of parts, or plain text. */
static void read_system(struct run *r, const struct otel_attrs *a, jv raw, struct otel_msgs *m)
{
	jv v = otel_attr(r->doc, a, "gen_ai.system_instructions");
	if (v == JV_NONE)
		return;
	jv parts = attr_json(r, v);
	push_msg(m, "system", raw);
	if (!jv_is_array(r->doc, parts)) {
		push_text(r, m, OTEL_TEXT, v, raw);
		return;
	}
	JV_EACH(r->doc, parts, p)
		read_part(r, p, m);
}

/* ---- flattened messages: PREFIX.N.field, PREFIX.N.tool_calls.M.field ---- */

enum flat_group { FLAT_FIELD, FLAT_CONTENT, FLAT_CALL };

struct flat_entry {
	uint32_t n, sub;
	uint8_t group;
	uint32_t order;
	const char *field;
	jv value;
};

struct flat_ctx {
	const char *prefix;
	struct flat_entry *e;
	size_t n, cap;
};

static bool take_index(const char **s, uint32_t *out)
{
	const char *p = *s;
	uint64_t v = 0;
	if (*p < '0' || *p > '9')
		return false;
	while (*p >= '0' && *p <= '9' && v < UINT32_MAX)
		v = v * 10 + (uint64_t)(*p++ - '0');
	if (*p != '.' || v >= UINT32_MAX)
		return false;
	*out = (uint32_t)v;
	*s = p + 1;
	return true;
}

static const char *skip_prefix(const char *s, const char *prefix)
{
	size_t n = strlen(prefix);
	return strncmp(s, prefix, n) ? s : s + n;
}

static void flat_key(const char *key, jv value, void *ctx)
{
	struct flat_ctx *f = ctx;
	size_t plen = strlen(f->prefix);
	if (strncmp(key, f->prefix, plen))
		return;
	struct flat_entry e = { .value = value, .order = (uint32_t)f->n };
	const char *rest = key + plen;
	if (!take_index(&rest, &e.n))
		return;
	rest = skip_prefix(rest, "message.");
	const char *sub = NULL;
	if ((sub = skip_prefix(rest, "tool_calls.")) != rest) {
		e.group = FLAT_CALL;
	} else if ((sub = skip_prefix(rest, "contents.")) != rest) {
		e.group = FLAT_CONTENT;
	} else {
		e.field = rest;
		sub = NULL;
	}
	if (sub) {
		if (!take_index(&sub, &e.sub))
			return;
		sub = skip_prefix(skip_prefix(sub, "tool_call."), "message_content.");
		e.field = skip_prefix(sub, "function.");
	}
	if (f->n == f->cap) {
		f->cap = f->cap ? f->cap * 2 : 32;
		f->e = xrealloc(f->e, f->cap * sizeof *f->e);
	}
	f->e[f->n++] = e;
}

static int flat_cmp(const void *pa, const void *pb)
{
	const struct flat_entry *a = pa, *b = pb;
	if (a->n != b->n)
		return a->n < b->n ? -1 : 1;
	if (a->group != b->group)
		return a->group < b->group ? -1 : 1;
	if (a->sub != b->sub)
		return a->sub < b->sub ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

static jv flat_field(const struct flat_entry *e, size_t n, uint8_t group, uint32_t sub,
                     const char *field)
{
	for (size_t i = 0; i < n; i++)
		if (e[i].group == group && e[i].sub == sub && !strcmp(e[i].field, field))
			return e[i].value;
	return JV_NONE;
}

/* The entries of one message (e[0..n), sorted): its role and text, then
 * its contents and calls in their order. */
static void flat_message(struct run *r, const struct flat_entry *e, size_t n, jv raw,
                         struct otel_msgs *m)
{
	const struct jdoc *d = r->doc;
	struct otel_msg *om = push_msg(m, jv_str(d, flat_field(e, n, FLAT_FIELD, 0, "role")), raw);
	om->answers = loader_id(r, flat_field(e, n, FLAT_FIELD, 0, "tool_call_id"));
	push_text(r, m, OTEL_TEXT, flat_field(e, n, FLAT_FIELD, 0, "content"), raw);
	for (size_t i = 0; i < n; i++) {
		if (e[i].group == FLAT_FIELD || (i && e[i - 1].group == e[i].group &&
		                                 e[i - 1].sub == e[i].sub))
			continue;
		if (e[i].group == FLAT_CALL) {
			push_call(r, m, raw, flat_field(e + i, n - i, FLAT_CALL, e[i].sub, "id"),
			          flat_field(e + i, n - i, FLAT_CALL, e[i].sub, "name"),
			          flat_field(e + i, n - i, FLAT_CALL, e[i].sub, "arguments"));
			continue;
		}
		const char *type = jv_str(d, flat_field(e + i, n - i, FLAT_CONTENT, e[i].sub, "type"));
		jv text = flat_field(e + i, n - i, FLAT_CONTENT, e[i].sub, "text");
		if (!type || !strcmp(type, "text"))
			push_text(r, m, OTEL_TEXT, text, raw);
		else
			push_note(r, m, raw, "content type", type);
	}
}

/* OpenInference's messages unflattened, as Phoenix exports them:
 * [{message: {role, content, contents: [{message_content: {type, text}}],
 * tool_calls: [{tool_call: {id, function: {name, arguments}}}]}}]. */
static void read_nested_oi(struct run *r, jv list, jv raw, struct otel_msgs *m)
{
	const struct jdoc *d = r->doc;
	JV_EACH(d, list, e) {
		jv msg = jv_get(d, e, "message");
		if (msg == JV_NONE)
			msg = e;
		struct otel_msg *om = push_msg(m, jv_str(d, jv_get(d, msg, "role")), raw);
		om->answers = loader_id(r, jv_get(d, msg, "tool_call_id"));
		push_text(r, m, OTEL_TEXT, jv_get(d, msg, "content"), raw);
		JV_EACH(d, jv_get(d, msg, "contents"), c) {
			jv mc = jv_get(d, c, "message_content");
			if (mc == JV_NONE)
				mc = c;
			const char *type = jv_str(d, jv_get(d, mc, "type"));
			if (!type || !strcmp(type, "text"))
				push_text(r, m, OTEL_TEXT, jv_get(d, mc, "text"), raw);
			else
				push_note(r, m, raw, "content type", type);
		}
		JV_EACH(d, jv_get(d, msg, "tool_calls"), tc) {
			jv t = jv_get(d, tc, "tool_call");
			if (t == JV_NONE)
				t = tc;
			jv fn = jv_get(d, t, "function");
			push_call(r, m, raw, jv_get(d, t, "id"), jv_get(d, fn, "name"),
			          jv_get(d, fn, "arguments"));
		}
	}
}

/* Messages written one attribute per field under prefix (or, unflattened,
 * the list at the prefix's path). */
static bool read_flat(struct run *r, const struct otel_attrs *a, const char *prefix, jv raw,
                      struct otel_msgs *m)
{
	char path[40];
	snprintf(path, sizeof path, "%.*s", (int)strlen(prefix) - 1, prefix);
	jv nested = otel_attr(r->doc, a, path);
	if (jv_is_array(r->doc, nested)) {
		read_nested_oi(r, nested, raw, m);
		return true;
	}
	struct flat_ctx f = { .prefix = prefix };
	attrs_each(r->doc, a, flat_key, &f);
	if (f.n == 0)
		return false;
	qsort(f.e, f.n, sizeof *f.e, flat_cmp);
	for (size_t i = 0, j; i < f.n; i = j) {
		for (j = i; j < f.n && f.e[j].n == f.e[i].n; j++)
			;
		flat_message(r, f.e + i, j - i, raw, m);
	}
	free(f.e);
	return true;
}

/* ---- the AI SDK ---------------------------------------------------------------- */

/* What an ai.* span answered: its text, object, reasoning and calls. */
static bool read_ai_response(struct run *r, const struct otel_attrs *a, jv raw,
                             struct otel_msgs *m)
{
	const struct jdoc *d = r->doc;
	jv text = otel_attr(d, a, "ai.response.text");
	if (text == JV_NONE)
		text = otel_attr(d, a, "ai.response.object");
	jv reasoning = otel_attr(d, a, "ai.response.reasoning");
	jv calls = otel_attr(d, a, "ai.response.toolCalls");
	if (text == JV_NONE && reasoning == JV_NONE && calls == JV_NONE)
		return false;
	push_msg(m, "assistant", raw);
	push_text(r, m, OTEL_THINKING, reasoning, raw);
	push_text(r, m, OTEL_TEXT, text, raw);
	jv list = attr_json(r, calls);        /* once: JV_EACH reads it every turn */
	JV_EACH(r->doc, list, tc) {
		jv args = jv_get(r->doc, tc, "input");
		push_call(r, m, tc, jv_get(r->doc, tc, "toolCallId"), jv_get(r->doc, tc, "toolName"),
		          args != JV_NONE ? args : jv_get(r->doc, tc, "args"));
	}
	return true;
}

/* ai.prompt of the outer ai.generateText spans: {system, prompt, messages}. */
static bool read_ai_prompt(struct run *r, jv v, jv raw, struct otel_msgs *m)
{
	jv p = attr_json(r, v);
	if (!jv_is_object(r->doc, p))
		return false;
	jv system = jv_get(r->doc, p, "system");
	if (jv_is_string(r->doc, system)) {
		push_msg(m, "system", raw);
		push_text(r, m, OTEL_TEXT, system, raw);
	}
	jv prompt = jv_get(r->doc, p, "prompt");
	if (jv_is_string(r->doc, prompt)) {
		push_msg(m, "user", raw);
		push_text(r, m, OTEL_TEXT, prompt, raw);
	}
	read_json_messages(r, prompt, m);
	read_json_messages(r, jv_get(r->doc, p, "messages"), m);
	return true;
}

/* ---- span events: the conventions before message attributes ------------------- */

static const char *event_role(const char *name)
{
	static const char *const roles[][2] = {
		{ "gen_ai.system.message", "system" }, { "gen_ai.user.message", "user" },
		{ "gen_ai.assistant.message", "assistant" }, { "gen_ai.tool.message", "tool" },
		{ "gen_ai.choice", "assistant" }, { NULL, NULL },
	};
	for (size_t i = 0; name && roles[i][0]; i++)
		if (!strcmp(name, roles[i][0]))
			return roles[i][1];
	return NULL;
}

/* A message event: gen_ai.event.content holds {role, content, tool_calls,
 * id} as JSON (gen_ai.choice: {message: {...}, finish_reason}). */
static void read_message_event(struct run *r, const char *role, bool choice, jv content, jv raw,
                               struct otel_msgs *m)
{
	const struct jdoc *d = r->doc;
	jv body = attr_json(r, content);
	if (choice && jv_is_object(d, jv_get(d, body, "message")))
		body = jv_get(d, body, "message");
	if (!jv_is_object(d, body)) {
		push_msg(m, role, raw);
		push_text(r, m, OTEL_TEXT, content, raw);
		return;
	}
	read_json_message(r, body, m);
	struct otel_msg *om = &m->msgs[m->n - 1];
	om->raw = raw;
	if (!om->role)
		om->role = role;
	if (!om->answers)
		om->answers = loader_id(r, jv_get(d, body, "id"));
}

/* gen_ai.content.prompt / gen_ai.content.completion events with
 * gen_ai.prompt / gen_ai.completion (JSON messages or text), and the
 * message events; returns whether the span had any. */
static bool read_events(struct run *r, jv span, struct otel_span_io *io)
{
	const struct jdoc *d = r->doc;
	bool any = false;
	JV_EACH(d, jv_get(d, span, "events"), ev) {
		const char *name = jv_str(d, jv_get(d, ev, "name"));
		jv attrs = jv_get(d, ev, "attributes");
		struct otel_attrs a = { jv_is_object(d, attrs) ? attrs : JV_NONE,
		                        jv_is_array(d, attrs) ? attrs : JV_NONE };
		bool prompt = name && !strcmp(name, "gen_ai.content.prompt");
		if (prompt || (name && !strcmp(name, "gen_ai.content.completion"))) {
			struct otel_msgs *m = prompt ? &io->in : &io->out;
			jv v = otel_attr(d, &a, prompt ? "gen_ai.prompt" : "gen_ai.completion");
			jv list = attr_json(r, v);
			if (jv_is_array(d, list)) {
				read_json_messages(r, list, m);
			} else {
				push_msg(m, prompt ? "user" : "assistant", ev);
				push_text(r, m, OTEL_TEXT, v, ev);
			}
			any = true;
		} else if (event_role(name)) {
			bool choice = !strcmp(name, "gen_ai.choice");
			read_message_event(r, event_role(name), choice,
			                   otel_attr(d, &a, "gen_ai.event.content"), ev,
			                   choice ? &io->out : &io->in);
			any = true;
		}
	}
	return any;
}

/* ---- the span ------------------------------------------------------------------ */

static bool streq_or(const char *s, const char *a, const char *b)
{
	return s && (!strcmp(s, a) || (b && !strcmp(s, b)));
}

/* The tool span's name, id, arguments and result (pydantic-ai, through
 * Logfire, writes tool_arguments and tool_response). */
static void read_tool(struct run *r, const struct otel_attrs *a, struct otel_tool *t)
{
	static const char *const names[] = { "gen_ai.tool.name", "tool.name", "ai.toolCall.name", NULL };
	static const char *const ids[] = {
		"gen_ai.tool.call.id", "tool_call.id", "ai.toolCall.id", NULL
	};
	static const char *const args[] = {
		"gen_ai.tool.call.arguments", "ai.toolCall.args", "ai.toolCall.input", "input.value",
		"tool_arguments", "input", NULL
	};
	static const char *const results[] = {
		"gen_ai.tool.call.result", "ai.toolCall.result", "ai.toolCall.output", "output.value",
		"tool_response", "output", NULL
	};
	t->raw_name = attr_any(r->doc, a, names);
	t->name = loader_str(r, t->raw_name, "");
	t->raw_id = attr_any(r->doc, a, ids);
	t->id = loader_id(r, t->raw_id);
	t->args = attr_any(r->doc, a, args);
	t->result = attr_any(r->doc, a, results);
}

static const char *read_model(const struct jdoc *d, const struct otel_attrs *a)
{
	static const char *const keys[] = {
		"gen_ai.response.model", "gen_ai.request.model", "llm.model_name", "ai.response.model",
		"ai.model.id", NULL
	};
	return jv_str(d, attr_any(d, a, keys));
}

/* Input and output in one of the conventions, the first the span has. */
static bool read_llm(struct run *r, const struct otel_attrs *a, jv raw, struct otel_span_io *io)
{
	const struct jdoc *d = r->doc;
	if (otel_attr(d, a, "gen_ai.input.messages") != JV_NONE ||
	    otel_attr(d, a, "gen_ai.output.messages") != JV_NONE) {
		read_system(r, a, raw, &io->in);
		read_messages_attr(r, a, "gen_ai.input.messages", raw, &io->in);
		read_messages_attr(r, a, "gen_ai.output.messages", raw, &io->out);
		return true;
	}
	bool in = read_flat(r, a, "llm.input_messages.", raw, &io->in);
	bool out = read_flat(r, a, "llm.output_messages.", raw, &io->out);
	if (in || out)
		return true;
	in = read_flat(r, a, "gen_ai.prompt.", raw, &io->in);
	out = read_flat(r, a, "gen_ai.completion.", raw, &io->out);
	if (in || out)
		return true;
	if (otel_attr(d, a, "ai.prompt.messages") != JV_NONE) {
		read_messages_attr(r, a, "ai.prompt.messages", raw, &io->in);
		read_ai_response(r, a, raw, &io->out);
		return true;
	}
	return false;
}

/* Flat maps that keep the request and reply as JSON under input.value or
 * input: {messages: [...]} in, {text} out. */
static bool read_io_values(struct run *r, const struct otel_attrs *a, jv raw,
                           struct otel_span_io *io)
{
	static const char *const ins[] = { "input.value", "input", NULL };
	static const char *const outs[] = { "output.value", "output", NULL };
	jv in = attr_json(r, attr_any(r->doc, a, ins));
	jv list = jv_get(r->doc, in, "messages");
	if (!jv_is_array(r->doc, list))
		return false;
	read_json_messages(r, list, &io->in);
	jv out = attr_json(r, attr_any(r->doc, a, outs));
	jv text = jv_get(r->doc, out, "text");
	if (jv_is_string(r->doc, text)) {
		push_msg(&io->out, "assistant", raw);
		push_text(r, &io->out, OTEL_TEXT, text, raw);
	}
	return true;
}

void otel_read_span(struct run *r, const struct otel_attrs *a, const char *name, jv raw,
                    struct otel_span_io *io)
{
	const struct jdoc *d = r->doc;
	otel_msgs_reset(&io->in);
	otel_msgs_reset(&io->out);
	memset(&io->tool, 0, sizeof io->tool);
	io->tool.args = io->tool.result = io->tool.raw_id = io->tool.raw_name = JV_NONE;
	io->kind = OTEL_SPAN_OTHER;
	io->model = read_model(d, a);
	const char *op = otel_attr_str(d, a, "gen_ai.operation.name");
	const char *oi = otel_attr_str(d, a, "openinference.span.kind");
	const char *ai = otel_attr_str(d, a, "ai.operationId");
	if (!ai)
		ai = name;
	if (streq_or(op, "execute_tool", NULL) || streq_or(oi, "TOOL", NULL) ||
	    streq_or(ai, "ai.toolCall", NULL) ||
	    (!op && otel_attr(d, a, "gen_ai.tool.name") != JV_NONE)) {
		io->kind = OTEL_SPAN_TOOL;
		read_tool(r, a, &io->tool);
		return;
	}
	bool agent = streq_or(op, "invoke_agent", "create_agent") || streq_or(oi, "AGENT", "CHAIN");
	if (read_llm(r, a, raw, io) || read_events(r, raw, io) || read_io_values(r, a, raw, io)) {
		io->kind = agent ? OTEL_SPAN_AGENT : OTEL_SPAN_LLM;
		return;
	}
	jv prompt = otel_attr(d, a, "ai.prompt");
	if (prompt != JV_NONE) {
		read_ai_prompt(r, prompt, raw, &io->in);
		read_ai_response(r, a, raw, &io->out);
		io->kind = OTEL_SPAN_AGENT;
	}
}
