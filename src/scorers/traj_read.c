/* traj_read.c - the two trajectories trajectory-match compares, read as
 * agentevals reads them: a list of OpenAI chat messages, whose calls are
 * found by two readers (strict mode's, in trajectory_match.c, and the
 * flattening one here for the other modes).
 *
 * The run's own trajectory is its record's messages when the record is an
 * OpenAI chat conversation, exactly as a reviewer would hand it to
 * agentevals; a run of any other format is first written in that shape
 * from the run model (each call's arguments as JSON text, as LangChain's
 * converter writes them). A reference may also be a flat list of calls,
 * {name, arguments|args|kwargs|input|parameters} (tau-bench's expected
 * actions), which agentevals does not take. */
#include <stdlib.h>
#include <string.h>

#include "runs/format.h"
#include "scorers/scorer.h"
#include "traj_match.h"
#include "util/xalloc.h"
#include "util/error.h"

void tm_traj_free(struct tm_traj *t)
{
	for (size_t i = 0; i < t->ncalls; i++) {
		json_decref(t->calls[i].name);
		json_decref(t->calls[i].args);
	}
	free(t->calls);
	free(t->run_calls);
	json_decref(t->messages);
	memset(t, 0, sizeof *t);
}

static bool js_truthy(const json_t *v)
{
	if (!v || json_is_null(v) || json_is_false(v))
		return false;
	if (json_is_number(v))
		return json_number_value(v) != 0;
	if (json_is_string(v))
		return json_string_length(v) != 0;
	return true;
}

static struct tm_call *call_push(struct tm_traj *t)
{
	if ((t->ncalls & (t->ncalls - 1)) == 0 || t->ncalls == 0) {
		size_t cap = t->ncalls ? t->ncalls * 2 : 8;
		t->calls = xrealloc(t->calls, cap * sizeof *t->calls);
	}
	struct tm_call *c = &t->calls[t->ncalls++];
	*c = (struct tm_call){ .run_call = -1 };
	return c;
}

static json_t *own(json_t *v)
{
	return v ? json_incref(v) : NULL;
}

int tm_traj_flatten(struct tm_traj *t, struct tm_err *e)
{
	if (t->flat || t->flattened)
		return 0;
	t->flattened = true;
	size_t pos = 0, i;
	json_t *m;
	json_array_foreach(t->messages, i, m) {
		if (json_is_null(m))
			return tm_fail(e, "message %zu is null (TypeError)", i + 1);
		json_t *tc = json_object_get(m, "tool_calls");
		if (!js_truthy(tc))
			continue;
		if (!json_is_array(tc))
			return tm_fail(e, "message %zu: tool_calls is not a list (TypeError)", i + 1);
		size_t j;
		json_t *call;
		json_array_foreach(tc, j, call) {
			if (!json_is_object(call) && !json_is_array(call))
				return tm_fail(e, "message %zu: tool call %zu is not an object (TypeError)",
				               i + 1, j + 1);
			struct tm_call *c = call_push(t);
			c->msg = i;
			c->run_call = pos < t->nrun_calls ? t->run_calls[pos] : -1;
			pos++;
			json_t *fn = json_object_get(call, "function");
			json_t *fa = json_object_get(fn, "arguments");
			if ((json_is_object(fn) || json_is_array(fn)) && json_is_string(fa)) {
				c->name = own(json_object_get(fn, "name"));
				c->args = tm_json_parse(fa, e);
				if (!c->args)
					return -1;
			} else {
				/* Taken as it is: a {name, args} dict works; an OpenAI
				 * call with object arguments loses its name (quirk). */
				c->name = own(json_object_get(call, "name"));
				c->args = own(json_object_get(call, "args"));
			}
		}
	}
	return 0;
}

/* ---- a flat list of calls ------------------------------------------------ */

static const json_t *first_of(const json_t *o, const char *const *keys)
{
	for (size_t i = 0; keys[i]; i++) {
		const json_t *v = json_object_get(o, keys[i]);
		if (v)
			return v;
	}
	return NULL;
}

static bool looks_flat(const json_t *list)
{
	static const char *const named[] = { "name", "tool_name", "tool", "function", NULL };
	if (json_array_size(list) == 0)
		return false;
	size_t i;
	json_t *x;
	json_array_foreach(list, i, x)
		if (!json_is_object(x) || json_object_get(x, "role") || json_object_get(x, "tool_calls") ||
		    !first_of(x, named))
			return false;
	return true;
}

static int read_flat(const json_t *list, const char *what, struct tm_traj *t, struct tm_err *e)
{
	static const char *const names[] = { "name", "tool_name", "tool", NULL };
	static const char *const argkeys[] = { "arguments", "args", "kwargs", "input", "parameters",
	                                       NULL };
	t->flat = true;
	size_t i;
	json_t *x;
	json_array_foreach(list, i, x) {
		const json_t *fn = json_object_get(x, "function");
		const json_t *name = json_is_object(fn) ? json_object_get(fn, "name") : first_of(x, names);
		const json_t *args = json_is_object(fn) ? first_of(fn, argkeys) : first_of(x, argkeys);
		if (!json_is_string(name))
			return tm_fail(e, "%s[%zu]: a call without a tool name", what, i);
		struct tm_call *c = call_push(t);
		c->msg = i;
		c->name = json_incref((json_t *)name);
		if (json_is_string(args)) {
			c->args = tm_json_parse(args, e);
			if (!c->args)
				return tm_fail(e, "%s[%zu] (%s): arguments are not JSON", what, i,
				               json_string_value(name));
		} else {
			c->args = args ? json_incref((json_t *)args) : json_object();
		}
	}
	return 0;
}

/* ---- the run model written as OpenAI chat messages ---------------------- */

static json_t *call_json(struct run *r, struct run_call *c)
{
	json_t *args = c->args == JV_NONE ? NULL : jv_to_json(r->doc, c->args);
	json_t *text;
	if (json_is_string(args))
		text = json_incref(args);
	else {
		char *s = args ? json_dumps(args, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
		text = json_string(s ? s : "{}");
		free(s);
	}
	json_decref(args);
	json_t *fn = json_pack("{s:s, s:o}", "name", c->name, "arguments", text);
	json_t *call = json_pack("{s:s, s:o}", "type", "function", "function", fn);
	if (c->id)
		json_object_set_new(call, "id", json_string(c->id));
	return call;
}

static const char *role_of(const struct run_msg *m)
{
	if (m->is_tool_output)
		return "tool";
	switch (m->role) {
	case ROLE_SYSTEM: return "system";
	case ROLE_USER: return "user";
	case ROLE_ASSISTANT: return "assistant";
	case ROLE_TOOL: return "tool";
	case ROLE_NOTE: break;
	}
	return NULL;
}

static void run_messages(struct run *r, struct tm_traj *t)
{
	size_t *counted = xcalloc(r->ncalls + 1, sizeof *counted);
	bool *counts = xcalloc(r->ncalls + 1, sizeof *counts);
	size_t nc = run_counted_calls(r, RUN_CALLS_SCORED, counted);
	for (size_t i = 0; i < nc; i++)
		counts[counted[i]] = true;
	t->messages = json_array();
	t->run_calls = xcalloc(nc + 1, sizeof *t->run_calls);
	for (size_t mi = 0; mi < r->nmsgs; mi++) {
		struct run_msg *m = &r->msgs[mi];
		const char *role = role_of(m);
		if (!role)
			continue;
		json_t *msg = json_pack("{s:s, s:s}", "role", role, "content", m->text ? m->text : "");
		if (m->is_tool_output && m->answers_call_id)
			json_object_set_new(msg, "tool_call_id", json_string(m->answers_call_id));
		json_t *calls = json_array();
		for (size_t k = 0; k < m->ncalls; k++) {
			size_t ci = m->first_call + k;
			if (!counts[ci])
				continue;
			json_array_append_new(calls, call_json(r, &r->calls[ci]));
			t->run_calls[t->nrun_calls++] = (long)ci;
		}
		if (json_array_size(calls))
			json_object_set_new(msg, "tool_calls", calls);
		else
			json_decref(calls);
		json_array_append_new(t->messages, msg);
	}
	free(counted);
	free(counts);
}

/* The raw calls of an OpenAI chat record are the run's calls in order when
 * they are as many: then each can be marked on the timeline. */
static void map_raw_calls(struct run *r, struct tm_traj *t)
{
	size_t n = 0, i;
	json_t *m;
	json_array_foreach(t->messages, i, m)
		n += json_array_size(json_object_get(m, "tool_calls"));
	if (n != r->ncalls)
		return;
	t->run_calls = xcalloc(n + 1, sizeof *t->run_calls);
	for (size_t k = 0; k < n; k++)
		t->run_calls[k] = (long)k;
	t->nrun_calls = n;
}

/* A message of the record as the matching reads it: its role and its
 * tool_calls, and nothing else (a message of 100 MB is not copied into a
 * tree only to be compared by its role). What is not an object keeps
 * what the matching asks of it: null is null, anything else has no
 * members. */
static json_t *message_skeleton(const struct jdoc *d, jv m)
{
	switch (jv_type(d, m)) {
	case JV_NULL:
		return json_null();
	case JV_OBJECT: {
		json_t *o = json_object();
		static const char *const keys[] = { "role", "tool_calls" };
		for (size_t i = 0; i < 2; i++) {
			jv v = jv_get(d, m, keys[i]);
			if (v != JV_NONE)
				json_object_set_new(o, keys[i], jv_to_json(d, v));
		}
		return o;
	}
	case JV_ARRAY:
		return json_array();
	case JV_STRING:
		return json_string("");
	default:
		return jv_to_json(d, m);
	}
}

int tm_traj_of_run(struct run *r, struct tm_traj *t, struct tm_err *e)
{
	(void)e;
	memset(t, 0, sizeof *t);
	if (r->format && strcmp(r->format, "openai-chat") == 0) {
		const struct jdoc *d = r->doc;
		jv rec = run_root(r);
		jv list = jv_is_array(d, rec) ? rec : jv_get(d, rec, "messages");
		if (jv_is_array(d, list)) {
			t->messages = json_array();
			JV_EACH(d, list, m)
				json_array_append_new(t->messages, message_skeleton(d, m));
			map_raw_calls(r, t);
			return 0;
		}
	}
	run_messages(r, t);
	return 0;
}

/* Messages of another format tcreview reads (Anthropic blocks, Mastra,
 * the AI SDK...): loaded as a record of that format and written as chat
 * messages. Returns 1 when it was such a record, 0 when not. The reader
 * by shape's guess is no format: a value agentevals refuses stays refused. */
static int other_format(const json_t *v, struct tm_traj *t)
{
	json_t *rec = json_is_array(v) ? json_pack("{s:O}", "messages", v) : json_incref((json_t *)v);
	struct run *r = run_new(rec, "reference", 0, -1);
	json_decref(rec);
	struct error err = {0};
	int got = 0;
	if (format_load(r, NULL, &err) == 0 && !r->load_error && r->format &&
	    strcmp(r->format, "openai-chat") != 0 && strcmp(r->format, "shape") != 0 &&
	    r->nmsgs > 0) {
		run_messages(r, t);
		free(t->run_calls);         /* not the run under review */
		t->run_calls = NULL;
		t->nrun_calls = 0;
		got = 1;
	}
	run_free(r);
	return got;
}

/* Whether a list of messages may be another format's: none has OpenAI's
 * tool_calls, and some hold their calls in blocks or parts. Plain chat
 * messages are never rewritten, so strict mode sees them as they are. */
static bool maybe_other_format(const json_t *list)
{
	size_t i;
	json_t *m;
	bool blocks = false;
	json_array_foreach(list, i, m) {
		if (json_object_get(m, "tool_calls"))
			return false;
		blocks |= json_is_array(json_object_get(m, "content")) ||
		          json_object_get(m, "parts") || json_object_get(m, "toolInvocations");
	}
	return blocks;
}

int tm_traj_of_value(const json_t *v, const char *what, bool allow_flat, struct tm_traj *t,
                     struct tm_err *e)
{
	memset(t, 0, sizeof *t);
	if (!js_truthy(v)) {
		t->messages = json_array();     /* agentevals: a missing trajectory is empty */
		return 0;
	}
	const json_t *list = v;
	if (json_is_object(v)) {
		list = json_object_get(v, "messages");
		if (!json_is_array(list)) {
			if (other_format(v, t))
				return 0;
			return tm_fail(e, "%s: an object must hold a \"messages\" list", what);
		}
	} else if (!json_is_array(v)) {
		return tm_fail(e, "%s: a list of messages or calls was expected, not %s", what,
		               json_is_string(v) ? "text" : "a number or boolean");
	}
	if (allow_flat && looks_flat(list))
		return read_flat(list, what, t, e);
	if (maybe_other_format(list) && other_format(list, t))
		return 0;
	t->messages = json_incref((json_t *)list);
	return 0;
}
