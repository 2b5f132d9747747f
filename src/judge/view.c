/* view.c - the run as the judges' prompts show it.
 *
 * Every rubric fills its prompts from the same few texts, so they are made
 * here once per job: the request, the answer, the conversation, the calls
 * judged (the ones the code scorers count, numbered like the timeline) and
 * the tools the agent could use. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge_int.h"
#include "util/jsonw.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/error.h"

/* A tool result can be a whole web page; a judge needs its gist, and a
 * prompt has a size limit. */
#define RESULT_MAX 4000

const char *const judge_common_vars[] = {
	"input", "output", "conversation", "tool_calls", "tools_called", "tools",
	"tool_definitions", "expected", "run_id", "examples", NULL,
};

char *judge_trim_dup(const char *s)
{
	if (!s)
		return NULL;
	while (*s && strchr(" \t\r\n", *s))
		s++;
	size_t n = strlen(s);
	while (n && strchr(" \t\r\n", s[n - 1]))
		n--;
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

static char *dup_str(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, s ? s : "");
	return strbuf_detach(&sb);
}

/* ---- tools ------------------------------------------------------------- */

static json_t *str_member(const json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_string(v) ? v : NULL;
}

static void tool_add(json_t *out, const json_t *def, int depth)
{
	if (!json_is_object(def) || depth > 2)
		return;
	/* Azure expands an OpenAPI bundle into the functions it holds. */
	json_t *type = str_member(def, "type");
	json_t *fns = json_object_get(def, "functions");
	if (type && strcmp(json_string_value(type), "openapi") == 0 && json_is_array(fns)) {
		size_t i;
		json_t *fn;
		json_array_foreach(fns, i, fn)
			tool_add(out, fn, depth + 1);
		return;
	}
	const json_t *src = def;
	json_t *fn = json_object_get(def, "function");
	if (json_is_object(fn))
		src = fn;
	/* Mastra's own tools carry an id where the others have a name. */
	json_t *name = str_member(src, "name");
	if (!name)
		name = str_member(src, "id");
	if (!name)
		return;
	json_t *desc = str_member(src, "description");
	json_t *params = json_object_get(src, "parameters");
	if (!params)
		params = json_object_get(src, "input_schema");
	if (!params)
		params = json_object_get(src, "inputSchema");
	json_t *t = json_object();
	json_object_set(t, "name", name);
	json_object_set_new(t, "description", desc ? json_incref(desc) : json_string(""));
	if (params && !json_is_null(params))
		json_object_set(t, "parameters", params);
	json_array_append_new(out, t);
}

json_t *judge_tool_list(const struct judge_conf *j, const struct run *r)
{
	if (j && j->tools)
		return json_deep_copy(j->tools);
	json_t *out = json_array();
	/* The run's trees are built on demand and kept: a const run may fill them. */
	json_t *defs = r ? run_tool_defs((struct run *)r) : NULL;
	if (json_is_array(defs)) {
		size_t i;
		json_t *d;
		json_array_foreach(defs, i, d)
			tool_add(out, d, 0);
	} else if (json_is_object(defs)) {
		tool_add(out, defs, 0);
	}
	return out;
}

/* ---- texts -------------------------------------------------------------- */

static void add_value(struct strbuf *sb, const json_t *v)
{
	if (json_is_string(v))
		strbuf_addstr(sb, json_string_value(v));
	else
		jsonw_value(sb, v);
}

/* A value as compact JSON, replaced by a shortened string when long. */
static json_t *clipped(const json_t *v)
{
	struct strbuf sb = STRBUF_INIT;
	jsonw_value(&sb, v);
	json_t *out;
	if (sb.len <= RESULT_MAX) {
		out = json_incref((json_t *)v);
	} else {
		size_t n = RESULT_MAX;
		while (n && ((unsigned char)sb.buf[n] & 0xc0) == 0x80)
			n--;        /* not in the middle of a character */
		sb.len = n;
		sb.buf[n] = '\0';
		strbuf_addstr(&sb, " ... (shortened)");
		out = json_string(sb.buf);
		if (!out)
			out = json_string("(shortened)");
	}
	strbuf_release(&sb);
	return out;
}

static void calls_text(struct strbuf *sb, struct run *r)
{
	size_t *idx = xcalloc(r->ncalls ? r->ncalls : 1, sizeof *idx);
	size_t n = run_counted_calls(r, RUN_CALLS_SCORED, idx);
	if (n == 0) {
		strbuf_addstr(sb, "[]");
		free(idx);
		return;
	}
	strbuf_addstr(sb, "[\n");
	for (size_t k = 0; k < n; k++) {
		struct run_call *c = &r->calls[idx[k]];
		json_t *o = json_object();
		json_t *args = run_call_args(r, c);
		json_t *result = c->has_result ? run_call_result(r, c) : NULL;
		json_object_set_new(o, "id", c->id ? json_string(c->id) : json_null());
		json_object_set_new(o, "name", json_string(c->name));
		if (args)
			json_object_set(o, "arguments", args);
		else if (run_call_args_invalid(r, c))
			json_object_set_new(o, "arguments", json_string(run_call_args_text(r, c)));
		else
			json_object_set_new(o, "arguments", json_object());
		if (result)
			json_object_set_new(o, "result", clipped(result));
		if (c->is_error)
			json_object_set_new(o, "error", json_string(c->error_text ? c->error_text : "failed"));
		strbuf_addstr(sb, "  ");
		jsonw_value(sb, o);
		strbuf_addstr(sb, k + 1 < n ? ",\n" : "\n");
		json_decref(o);
	}
	strbuf_addstr(sb, "]");
	free(idx);
}

static void conversation_text(struct strbuf *sb, struct run *r)
{
	for (size_t i = 0; i < r->nmsgs; i++) {
		struct run_msg *m = &r->msgs[i];
		if (m->role == ROLE_TOOL || m->is_tool_output) {
			/* Results of the calls judged are shown with those calls;
			 * earlier ones are context. */
			json_t *result = m->origin == MSG_IN_INPUT ? run_msg_result(r, m) : NULL;
			if (!result)
				continue;
			if (sb->len)
				strbuf_addch(sb, '\n');
			strbuf_addstr(sb, "[tool] ");
			json_t *c = clipped(result);
			add_value(sb, c);
			json_decref(c);
			continue;
		}
		if (m->text[0]) {
			if (sb->len)
				strbuf_addch(sb, '\n');
			strbuf_addf(sb, "[%s] %s", run_role_name(m->role), m->text);
		}
		if (m->ncalls) {
			if (sb->len)
				strbuf_addch(sb, '\n');
			strbuf_addf(sb, "[%s calls] ", run_role_name(m->role));
			for (size_t k = 0; k < m->ncalls; k++) {
				if (k)
					strbuf_addstr(sb, ", ");
				strbuf_addstr(sb, r->calls[m->first_call + k].name);
			}
		}
	}
	if (!sb->len)
		strbuf_addstr(sb, "(empty)");
}

/* Mastra's analyse step reads the first user message of the input, even an
 * empty one; other formats have no such split. */
static const char *request_text(const struct run *r)
{
	if (r->mastra != MASTRA_NONE)
		for (size_t i = 0; i < r->nmsgs; i++) {
			const struct run_msg *m = &r->msgs[i];
			if (m->origin == MSG_IN_INPUT && m->role == ROLE_USER && !m->is_tool_output)
				return m->text;
		}
	return run_first_user_text(r);
}

void judge_view_init(struct judge_view *v, const struct judge_conf *j, const struct run *r,
                     json_t *expected, const char *examples)
{
	struct strbuf sb = STRBUF_INIT;
	memset(v, 0, sizeof *v);

	v->examples = dup_str(examples);
	v->input = dup_str(request_text(r));
	v->output = dup_str(run_final_agent_text(r));
	v->run_id = dup_str(r->id);

	/* The texts read the run's arguments and results as trees, which the
	 * run builds on demand and keeps: a cache a const run may fill. */
	conversation_text(&sb, (struct run *)r);
	v->conversation = strbuf_detach(&sb);
	calls_text(&sb, (struct run *)r);
	v->tool_calls = strbuf_detach(&sb);

	v->actual_tools = json_array();
	v->call_infos = json_array();
	scorer_tool_call_infos(r, v->actual_tools, v->call_infos);
	v->ncalls = json_array_size(v->actual_tools);
	size_t i;
	json_t *t;
	json_array_foreach(v->actual_tools, i, t) {
		if (i)
			strbuf_addstr(&sb, ", ");
		add_value(&sb, t);
	}
	if (!sb.len)
		strbuf_addstr(&sb, "None");
	v->tools_called = strbuf_detach(&sb);

	v->tool_list = judge_tool_list(j, r);
	json_array_foreach(v->tool_list, i, t) {
		if (i)
			strbuf_addch(&sb, '\n');
		strbuf_addf(&sb, "%s: %s", json_string_value(json_object_get(t, "name")),
		            json_string_value(json_object_get(t, "description")));
	}
	if (!sb.len)
		strbuf_addstr(&sb, "(none)");
	v->tools = strbuf_detach(&sb);

	strbuf_addstr(&sb, "[");
	json_array_foreach(v->tool_list, i, t) {
		strbuf_addstr(&sb, i ? ",\n  " : "\n  ");
		jsonw_value(&sb, t);
	}
	strbuf_addstr(&sb, json_array_size(v->tool_list) ? "\n]" : "]");
	v->tool_definitions = strbuf_detach(&sb);

	v->has_expected = expected != NULL;
	if (expected)
		jsonw_value(&sb, expected);
	v->expected = dup_str(sb.buf);
	strbuf_release(&sb);
}

void judge_view_free(struct judge_view *v)
{
	free(v->input);
	free(v->output);
	free(v->conversation);
	free(v->tool_calls);
	free(v->tools_called);
	free(v->tools);
	free(v->tool_definitions);
	free(v->expected);
	free(v->run_id);
	free(v->examples);
	json_decref(v->tool_list);
	json_decref(v->actual_tools);
	json_decref(v->call_infos);
	memset(v, 0, sizeof *v);
}

size_t judge_view_vars(const struct judge_view *v, struct prompt_var *vars)
{
	size_t n = 0;
	vars[n++] = (struct prompt_var){ "input", v->input };
	vars[n++] = (struct prompt_var){ "output", v->output };
	vars[n++] = (struct prompt_var){ "conversation", v->conversation };
	vars[n++] = (struct prompt_var){ "tool_calls", v->tool_calls };
	vars[n++] = (struct prompt_var){ "tools_called", v->tools_called };
	vars[n++] = (struct prompt_var){ "tools", v->tools };
	vars[n++] = (struct prompt_var){ "tool_definitions", v->tool_definitions };
	vars[n++] = (struct prompt_var){ "expected", v->expected };
	vars[n++] = (struct prompt_var){ "run_id", v->run_id };
	vars[n++] = (struct prompt_var){ "examples", v->examples };
	return n;
}

char *judge_render(const struct judge_conf *j, const char *section, const struct prompt_var *vars,
                   size_t nvars)
{
	struct prompt_doc doc;
	int line, col;
	struct error err = {0};
	if (!j->prompt_text || prompt_parse(j->prompt_text, &doc, &line, &col, &err) < 0)
		return NULL;       /* the configuration checked it; cannot happen */
	const struct prompt_section *sec = prompt_find(&doc, section);
	if (!sec || !sec->len)
		return NULL;
	return prompt_render(sec, vars, nvars);
}
