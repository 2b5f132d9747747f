/* run.c - building and querying the run model. */
#include "runs/run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"
#include "util/xalloc.h"

struct run *run_new(json_t *record, const char *file, size_t line, long array_index)
{
	struct run *r = calloc(1, sizeof(*r));
	if (!r)
		abort();
	arena_init(&r->arena);
	r->record = json_incref(record);
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

void run_free(struct run *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->ncalls; i++) {
		json_decref(r->calls[i].args);
		json_decref(r->calls[i].result);
	}
	free(r->msgs);
	free(r->calls);
	json_decref(r->record);
	arena_free(&r->arena);
	free(r);
}

size_t run_add_msg(struct run *r, enum run_role role, enum msg_origin origin,
                   const char *text, json_t *raw)
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
	m->first_call = r->ncalls;
	m->src_index = -1;
	return r->nmsgs++;
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
	c->msg_index = msg_index;
	c->index_in_msg = m->ncalls++;
	c->state = CALL_REQUESTED;
	c->requestor = REQ_AGENT;
	c->result_msg = -1;
	c->src_msg_index = -1;
	c->src_call_index = -1;
	r->ncalls++;
	return c;
}

void run_call_set_args(struct run *r, struct run_call *c, json_t *args)
{
	json_decref(c->args);
	c->args = NULL;
	c->args_text = NULL;
	c->args_invalid = false;
	if (!args)
		return;
	if (json_is_string(args)) {
		const char *s = json_string_value(args);
		size_t n = json_string_length(args);
		size_t i = 0;
		while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
			i++;
		if (i == n) {
			/* "" is how several providers write "no arguments". */
			c->args = json_object();
			return;
		}
		json_error_t jerr;
		c->args = json_loadb(s, n, JSON_DECODE_ANY | JSON_ALLOW_NUL, &jerr);
		if (!c->args) {
			c->args_text = s;
			c->args_invalid = true;
		}
		(void)r;
		return;
	}
	c->args = json_incref(args);
}

void run_set_result(struct run_call *c, json_t *result, bool is_error, const char *error_text,
                    long result_msg)
{
	json_decref(c->result);
	c->result = json_incref(result);
	c->has_result = true;
	c->is_error = is_error;
	c->error_text = error_text;
	c->result_msg = result_msg;
	if (c->state != CALL_PARTIAL)
		c->state = is_error ? CALL_FAILED : CALL_COMPLETED;
}

void run_join_results(struct run *r)
{
	for (size_t mi = 0; mi < r->nmsgs; mi++) {
		struct run_msg *m = &r->msgs[mi];
		if (!m->is_tool_output)
			continue;
		if (!m->answers_call_id) {
			m->unmatched_result = true;    /* nothing to join it by; keep it visible */
			continue;
		}
		struct run_call *hit = NULL;
		/* Nearest preceding call with the id that is still unanswered. */
		for (size_t ci = r->ncalls; ci-- > 0;) {
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

/* A content value that is a string, or a list of parts with text. */
const char *run_text_of(struct run *r, json_t *content)
{
	if (!content || json_is_null(content))
		return "";
	if (json_is_string(content))
		return json_string_value(content);
	if (!json_is_array(content))
		return "";
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	json_t *part;
	size_t nparts = 0;
	const char *only = NULL;
	json_array_foreach(content, i, part) {
		const char *t = NULL;
		if (json_is_string(part))
			t = json_string_value(part);
		else if (json_is_object(part)) {
			json_t *type = json_object_get(part, "type");
			const char *ty = json_string_value(type);
			if (!ty || strcmp(ty, "text") == 0 || strcmp(ty, "input_text") == 0 ||
			    strcmp(ty, "output_text") == 0)
				t = json_string_value(json_object_get(part, "text"));
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

size_t run_agent_calls(const struct run *r, size_t *idx)
{
	size_t n = 0;
	for (size_t i = 0; i < r->ncalls; i++) {
		const struct run_call *c = &r->calls[i];
		if (c->requestor != REQ_AGENT || c->state == CALL_PARTIAL)
			continue;
		const struct run_msg *m = &r->msgs[c->msg_index];
		if (m->role != ROLE_ASSISTANT || m->origin != MSG_IN_OUTPUT)
			continue;      /* input messages are context, not the run being judged */
		if (idx)
			idx[n] = i;
		n++;
	}
	return n;
}
