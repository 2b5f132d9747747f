/* run.c - building and querying the run model. */
#include "runs/run.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"
#include "util/xalloc.h"

/* About what one jansson value costs in the heap (the node, its malloc
 * header, a slot in its parent's table), for run_bytes' estimate of the
 * trees built on demand; their strings are bounded by the value's text. */
#define TREE_NODE_BYTES 80
/* The arena allocates in chunks; the newest one is partly unused. */
#define ARENA_SLACK 8192

struct run *run_new_doc(struct jdoc *doc, const char *file, size_t line, long array_index)
{
	struct run *r = xcalloc(1, sizeof(*r));
	arena_init(&r->arena);
	r->doc = doc;
	r->tool_defs = JV_NONE;
	r->fields = JV_NONE;
	r->origin = JV_NONE;
	r->file = arena_strdup(&r->arena, file ? file : "-");
	r->line = line;
	r->array_index = array_index;
	if (line)
		r->source = arena_printf(&r->arena, "%s:%zu", r->file, line);
	else if (array_index >= 0)
		r->source = arena_printf(&r->arena, "%s[%ld]", r->file, array_index);
	else
		r->source = r->file;
	r->id = r->source;
	r->format = "unknown";
	return r;
}

struct run *run_new(json_t *record, const char *file, size_t line, long array_index)
{
	return run_new_doc(record ? jdoc_from_json(record) : NULL, file, line, array_index);
}

void run_free(struct run *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->ncalls; i++) {
		json_decref(r->calls[i].args_tree);
		json_decref(r->calls[i].result_tree);
	}
	for (size_t i = 0; i < r->nmsgs; i++)
		json_decref(r->msgs[i].result_tree);
	free(r->msgs);
	free(r->calls);
	free(r->parts);
	json_decref(r->record_tree);
	json_decref(r->tool_defs_tree);
	jdoc_free(r->doc);
	arena_free(&r->arena);
	free(r);
}

void run_reset(struct run *r)
{
	for (size_t i = 0; i < r->ncalls; i++) {
		json_decref(r->calls[i].args_tree);
		json_decref(r->calls[i].result_tree);
	}
	for (size_t i = 0; i < r->nmsgs; i++)
		json_decref(r->msgs[i].result_tree);
	json_decref(r->tool_defs_tree);
	r->tool_defs_tree = NULL;
	r->tool_defs = JV_NONE;
	r->nmsgs = r->ncalls = r->nparts = r->nnotes = 0;
	r->parent_id = NULL;
	r->model = NULL;
	r->mastra = MASTRA_NONE;
	r->mastra_io_empty = false;
	r->load_error = NULL;
}

/* A tree built from value v of the tape: a node per value of it, and its
 * strings, which its text bounds. */
static size_t tree_estimate(const struct jdoc *d, jv v, const json_t *tree)
{
	if (!tree || v == JV_NONE)
		return 0;
	return (size_t)(d->nodes[v].end - v) * TREE_NODE_BYTES + d->nodes[v].src_len;
}

size_t run_bytes(const struct run *r)
{
	size_t n = sizeof(*r);
	n += jdoc_bytes(r->doc);
	n += r->arena.used_bytes + (r->arena.head ? ARENA_SLACK : 0);
	n += r->msgs_cap * sizeof(*r->msgs) + r->calls_cap * sizeof(*r->calls);
	n += r->parts_cap * sizeof(*r->parts);
	n += tree_estimate(r->doc, run_root(r), r->record_tree);
	n += tree_estimate(r->doc, r->tool_defs, r->tool_defs_tree);
	for (size_t i = 0; i < r->ncalls; i++) {
		const struct run_call *c = &r->calls[i];
		if (c->args_tree && jv_is_string(r->doc, c->args))
			n += jv_strlen(r->doc, c->args) * 2 + TREE_NODE_BYTES;   /* parsed from text */
		else
			n += tree_estimate(r->doc, c->args, c->args_tree);
		n += tree_estimate(r->doc, c->result, c->result_tree);
	}
	for (size_t i = 0; i < r->nmsgs; i++)
		n += tree_estimate(r->doc, r->msgs[i].result, r->msgs[i].result_tree);
	return n;
}

static struct run_part *add_part(struct run *r, size_t msg_index, enum part_kind kind,
                                 const char *text, jv raw)
{
	if (r->nparts == r->parts_cap) {
		r->parts_cap = r->parts_cap ? r->parts_cap * 2 : 16;
		r->parts = xrealloc(r->parts, r->parts_cap * sizeof(*r->parts));
	}
	struct run_msg *m = &r->msgs[msg_index];
	/* Parts of one message are contiguous, as its calls are. */
	if (m->nparts == 0)
		m->first_part = r->nparts;
	m->nparts++;
	struct run_part *p = &r->parts[r->nparts++];
	*p = (struct run_part){ .kind = kind, .text = text ? text : "", .raw = raw };
	if (kind == PART_NOTE)
		r->nnotes++;
	return p;
}

void run_add_text(struct run *r, size_t msg_index, const char *text, jv raw)
{
	if (!text || !text[0])
		return;
	add_part(r, msg_index, PART_TEXT, text, raw);
	struct run_msg *m = &r->msgs[msg_index];
	if (!m->text[0])
		m->text = text;
	else
		m->text = arena_printf(&r->arena, "%s\n%s", m->text, text);
}

void run_add_thinking(struct run *r, size_t msg_index, const char *text, jv raw)
{
	add_part(r, msg_index, PART_THINKING, text, raw);
}

void run_add_note(struct run *r, size_t msg_index, jv raw, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *text = arena_vprintf(&r->arena, fmt, ap);
	va_end(ap);
	add_part(r, msg_index, PART_NOTE, text, raw);
}

size_t run_add_note_msg(struct run *r, enum msg_origin origin, jv raw, const char *fmt, ...)
{
	size_t mi = run_add_msg(r, ROLE_NOTE, origin, NULL, raw);
	va_list ap;
	va_start(ap, fmt);
	char *text = arena_vprintf(&r->arena, fmt, ap);
	va_end(ap);
	add_part(r, mi, PART_NOTE, text, raw);
	return mi;
}

size_t run_add_msg(struct run *r, enum run_role role, enum msg_origin origin,
                   const char *text, jv raw)
{
	if (r->nmsgs == r->msgs_cap) {
		r->msgs_cap = r->msgs_cap ? r->msgs_cap * 2 : 8;
		r->msgs = xrealloc(r->msgs, r->msgs_cap * sizeof(*r->msgs));
	}
	struct run_msg *m = &r->msgs[r->nmsgs];
	memset(m, 0, sizeof(*m));
	m->role = role;
	m->origin = origin;
	m->text = text ? text : "";
	m->raw = raw;
	m->result = JV_NONE;        /* jv 0 is the root: "none" must be said */
	m->first_call = r->ncalls;
	m->first_part = r->nparts;
	m->src_index = -1;
	size_t mi = r->nmsgs++;
	if (m->text[0])
		add_part(r, mi, PART_TEXT, m->text, JV_NONE);
	return mi;
}

struct run_call *run_add_call(struct run *r, size_t msg_index)
{
	if (r->ncalls == r->calls_cap) {
		r->calls_cap = r->calls_cap ? r->calls_cap * 2 : 8;
		r->calls = xrealloc(r->calls, r->calls_cap * sizeof(*r->calls));
	}
	struct run_call *c = &r->calls[r->ncalls];
	memset(c, 0, sizeof(*c));
	struct run_msg *m = &r->msgs[msg_index];
	/* Calls of one message are contiguous: loaders add them while the
	 * message is the newest one. */
	if (m->ncalls == 0)
		m->first_call = r->ncalls;
	c->name = "";
	c->args = JV_NONE;
	c->result = JV_NONE;
	c->raw_id = JV_NONE;
	c->raw_name = JV_NONE;
	c->msg_index = msg_index;
	c->index_in_msg = m->ncalls++;
	c->state = CALL_REQUESTED;
	c->requestor = REQ_AGENT;
	c->result_msg = -1;
	c->src_msg_index = -1;
	c->src_call_index = -1;
	add_part(r, msg_index, PART_CALL, NULL, JV_NONE)->call = r->ncalls;
	r->ncalls++;
	return c;
}

void run_call_set_args(struct run *r, struct run_call *c, jv args)
{
	(void)r;
	json_decref(c->args_tree);
	c->args_tree = NULL;
	c->args_parsed = false;
	c->args_bad = false;
	c->args = args;
}

json_t *run_call_args(struct run *r, struct run_call *c)
{
	if (c->args_parsed)
		return c->args_tree;
	c->args_parsed = true;
	if (c->args == JV_NONE)
		return NULL;
	if (!jv_is_string(r->doc, c->args)) {
		c->args_tree = jv_to_json(r->doc, c->args);
		return c->args_tree;
	}
	const char *s = jv_str(r->doc, c->args);
	size_t n = jv_strlen(r->doc, c->args);
	size_t i = 0;
	while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
		i++;
	if (i == n) {
		/* "" is how several providers write "no arguments". */
		c->args_tree = json_object();
		return c->args_tree;
	}
	json_error_t jerr;
	c->args_tree = json_loadb(s, n, JSON_DECODE_ANY | JSON_ALLOW_NUL, &jerr);
	c->args_bad = c->args_tree == NULL;
	return c->args_tree;
}

bool run_call_args_invalid(struct run *r, struct run_call *c)
{
	run_call_args(r, c);
	return c->args_bad;
}

const char *run_call_args_text(struct run *r, struct run_call *c)
{
	/* Kept, never dropped: the screen shows what the agent wrote. */
	return run_call_args_invalid(r, c) ? jv_str(r->doc, c->args) : NULL;
}

json_t *run_call_result(struct run *r, struct run_call *c)
{
	if (!c->result_tree && c->result != JV_NONE)
		c->result_tree = jv_to_json(r->doc, c->result);
	return c->result_tree;
}

json_t *run_msg_result(struct run *r, struct run_msg *m)
{
	if (!m->result_tree && m->result != JV_NONE)
		m->result_tree = jv_to_json(r->doc, m->result);
	return m->result_tree;
}

json_t *run_record(struct run *r)
{
	if (!r->record_tree && run_root(r) != JV_NONE)
		r->record_tree = jv_to_json(r->doc, run_root(r));
	return r->record_tree;
}

json_t *run_tool_defs(struct run *r)
{
	if (!r->tool_defs_tree && r->tool_defs != JV_NONE)
		r->tool_defs_tree = jv_to_json(r->doc, r->tool_defs);
	return r->tool_defs_tree;
}

json_t *run_path(struct run *r, const char *path)
{
	jv v = run_value(r, path);
	return v == JV_NONE ? NULL : jv_to_json(r->doc, v);
}

jv run_value(const struct run *r, const char *path)
{
	if (r->fields != JV_NONE) {
		jv v = jv_get(r->doc, r->fields, path);
		if (v != JV_NONE)
			return v;
	}
	return jv_path(r->doc, run_root(r), path);
}

void run_set_result(struct run_call *c, jv result, bool is_error, const char *error_text,
                    long result_msg)
{
	json_decref(c->result_tree);
	c->result_tree = NULL;
	c->result = result;
	c->has_result = true;
	c->is_error = is_error;
	c->error_text = error_text;
	c->result_msg = result_msg;
	if (c->state != CALL_PARTIAL)
		c->state = is_error ? CALL_FAILED : CALL_COMPLETED;
}

void run_join_results(struct run *r)
{
	/* Calls are added in the order of their messages, so the calls before
	 * message mi end at a cursor that only moves forward: a session of
	 * thousands of calls is joined in linear time, not by scanning every
	 * later call for each result. A loader that broke the order gets the
	 * whole list scanned. */
	bool ordered = true;
	for (size_t ci = 1; ci < r->ncalls && ordered; ci++)
		ordered = r->calls[ci - 1].msg_index <= r->calls[ci].msg_index;
	size_t before = 0;
	for (size_t mi = 0; mi < r->nmsgs; mi++) {
		struct run_msg *m = &r->msgs[mi];
		while (before < r->ncalls && r->calls[before].msg_index < mi)
			before++;
		if (!m->is_tool_output)
			continue;
		if (!m->answers_call_id) {
			m->unmatched_result = true;    /* nothing to join it by; keep it visible */
			continue;
		}
		struct run_call *hit = NULL;
		/* Nearest preceding call with the id that is still unanswered. */
		for (size_t ci = ordered ? before : r->ncalls; ci-- > 0;) {
			struct run_call *c = &r->calls[ci];
			if (c->msg_index >= mi || !c->id || strcmp(c->id, m->answers_call_id) != 0)
				continue;
			if (!c->has_result) {
				hit = c;
				break;
			}
		}
		if (!hit) {
			m->unmatched_result = true;
			continue;
		}
		run_set_result(hit, m->result, m->result_is_error, m->result_error_text, (long)mi);
	}
}

const char *run_strdup(struct run *r, const char *s)
{
	return arena_strdup(&r->arena, s ? s : "");
}

/* A content value that is a string, or a list of parts with text. One
 * part's text is borrowed from the tape; several are joined in the arena. */
const char *run_text_of(struct run *r, jv content)
{
	const struct jdoc *d = r->doc;
	if (jv_is_string(d, content))
		return jv_str(d, content);
	if (!jv_is_array(d, content))
		return "";
	struct strbuf sb = STRBUF_INIT;
	size_t nparts = 0;
	const char *only = NULL;
	JV_EACH(d, content, part) {
		const char *t = NULL;
		if (jv_is_string(d, part))
			t = jv_str(d, part);
		else if (jv_is_object(d, part)) {
			const char *ty = jv_str(d, jv_get(d, part, "type"));
			if (!ty || strcmp(ty, "text") == 0 || strcmp(ty, "input_text") == 0 ||
			    strcmp(ty, "output_text") == 0)
				t = jv_str(d, jv_get(d, part, "text"));
		}
		if (!t)
			continue;
		if (nparts++ == 0)
			only = t;
		else {
			if (nparts == 2)
				strbuf_addstr(&sb, only);
			strbuf_addch(&sb, '\n');
			strbuf_addstr(&sb, t);
		}
	}
	if (nparts == 0)
		return "";
	if (nparts == 1)
		return only;
	const char *out = arena_strndup(&r->arena, sb.buf, sb.len);
	strbuf_release(&sb);
	return out;
}

static const char *const role_names[] = {
	[ROLE_SYSTEM] = "system",
	[ROLE_USER] = "user",
	[ROLE_ASSISTANT] = "assistant",
	[ROLE_TOOL] = "tool",
	[ROLE_NOTE] = "note",
};

const char *run_role_name(enum run_role role)
{
	return role_names[role];
}

enum run_role run_role_parse(const char *s, bool *ok)
{
	*ok = true;
	if (!s) {
		*ok = false;
		return ROLE_USER;
	}
	if (!strcmp(s, "system") || !strcmp(s, "developer"))
		return ROLE_SYSTEM;
	if (!strcmp(s, "user") || !strcmp(s, "human"))
		return ROLE_USER;
	if (!strcmp(s, "assistant") || !strcmp(s, "model") || !strcmp(s, "ai"))
		return ROLE_ASSISTANT;
	if (!strcmp(s, "tool") || !strcmp(s, "function") || !strcmp(s, "ipython"))
		return ROLE_TOOL;
	*ok = false;
	return ROLE_USER;
}

const char *call_state_name(enum call_state st)
{
	switch (st) {
	case CALL_REQUESTED: return "requested";
	case CALL_COMPLETED: return "completed";
	case CALL_FAILED:    return "failed";
	case CALL_PARTIAL:   return "partial";
	}
	return "?";
}

const char *run_first_user_text(const struct run *r)
{
	for (size_t i = 0; i < r->nmsgs; i++) {
		const struct run_msg *m = &r->msgs[i];
		if (m->role == ROLE_USER && !m->is_tool_output && m->text[0])
			return m->text;
	}
	return "";
}

const char *run_final_agent_text(const struct run *r)
{
	for (size_t i = r->nmsgs; i-- > 0;) {
		const struct run_msg *m = &r->msgs[i];
		if (m->role == ROLE_ASSISTANT && m->text[0])
			return m->text;
	}
	return "";
}
