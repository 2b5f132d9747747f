/* shape_walk.c - the reader by shape's walk: every value of the record in its order, each read as what it looks like. */
#include <string.h>

#include "shape.h"

/* Members whose values are what a record says about itself, never its
 * conversation: a tool's declarations look like calls, and token counts
 * and schemas hold nothing to read. */
static const char *const skip_keys[] = { "tools", "tool_definitions", "toolDefinitions",
                                         "functions_schema", "usage", "json_schema", "schema",
                                         "ai.prompt.tools", NULL };

/* Parts of a key that say its value is what a grader expects or scored
 * (tau-bench's task actions, tau2's evaluation criteria, reward checks, an
 * eval file's expected tool use): calls nobody made in this run. */
static const char *const truth_words[] = { "expected", "reward", "evaluation_criteria",
                                           "ground_truth", "gold", "reference", NULL };

static bool skipped_key(const char *k)
{
	for (size_t i = 0; skip_keys[i]; i++)
		if (strcmp(k, skip_keys[i]) == 0)
			return true;
	for (size_t i = 0; truth_words[i]; i++)
		if (strstr(k, truth_words[i]))
			return true;
	return strcmp(k, "task") == 0;
}

/* A string whose first character (after white space) opens an object or
 * an array; only those are worth parsing. */
static bool looks_like_json(const char *s, size_t n)
{
	size_t i = 0;
	while (i < n && (s[i] == ' ' || s[i] == '\n' || s[i] == '\t' || s[i] == '\r'))
		i++;
	return i < n && (s[i] == '{' || s[i] == '[');
}

jv shape_graft(struct shape *s, jv str)
{
	const struct jdoc *d = s->d;
	if (!jv_is_string(d, str) || !looks_like_json(jv_str(d, str), jv_strlen(d, str)))
		return JV_NONE;
	if (s->graft_depth >= SHAPE_GRAFT_DEPTH || s->ngrafts >= SHAPE_GRAFT_MAX)
		return JV_NONE;
	s->ngrafts++;
	return jdoc_graft(s->d, str);
}

static void walk_string(struct shape *s, jv str)
{
	jv g = shape_graft(s, str);
	if (g == JV_NONE)
		return;
	s->graft_depth++;
	shape_walk(s, g);
	s->graft_depth--;
}

static void walk_object(struct shape *s, jv obj)
{
	const struct jdoc *d = s->d;
	enum run_role role;
	if (shape_is_message(d, obj, &role)) {
		shape_read_message(s, obj, role);
		return;
	}
	const char *name, *id, *call_id;
	jv args, content;
	if (shape_is_call(d, obj, &name, &args, &id)) {
		shape_add_call(s, SHAPE_ANY_MSG, obj, name, args, id);
		/* A call may carry its own result (an Inspect event, a span). */
		jv out = jv_get(d, obj, "output");
		if (out == JV_NONE)
			out = jv_get(d, obj, "result");
		if (out != JV_NONE && !jv_is_null(d, out) && id)
			shape_add_result(s, obj, id, NULL, out);
		return;
	}
	if (shape_is_result(d, obj, &call_id, &name, &content)) {
		shape_add_result(s, obj, call_id, name, content);
		return;
	}
	if (shape_is_definition(d, obj)) {
		s->skipped_defs++;
		return;
	}
	JV_EACH_KEY(d, obj, k) {
		if (!skipped_key(jv_str(d, k)))
			shape_walk(s, jv_value(k));
	}
}

/* A list most of whose objects are messages is a conversation: its other
 * items (a session's progress events, snapshots, bookkeeping) are not
 * searched, since what they nest is some other conversation or a copy. */
static void walk_list(struct shape *s, jv arr)
{
	const struct jdoc *d = s->d;
	size_t nobj = 0, nmsg = 0;
	enum run_role role;
	JV_EACH(d, arr, e) {
		nobj += jv_is_object(d, e);
		nmsg += shape_is_message(d, e, &role);
	}
	bool conversation = nmsg > 0 && nmsg * 2 >= nobj;
	jv outer = s->list;
	s->list = conversation ? arr : JV_NONE;
	const char *name, *id;
	jv args, content;
	JV_EACH(d, arr, e) {
		if (!conversation || shape_is_message(d, e, &role) ||
		    shape_is_call(d, e, &name, &args, &id) ||
		    shape_is_result(d, e, &id, &name, &content))
			shape_walk(s, e);
		else if (jv_is_object(d, e))
			s->skipped_items++;
	}
	s->list = outer;
}

void shape_walk(struct shape *s, jv v)
{
	const struct jdoc *d = s->d;
	switch (jv_type(d, v)) {
	case JV_OBJECT:
		walk_object(s, v);
		break;
	case JV_ARRAY:
		if (shape_is_span_list(d, v)) {
			shape_read_spans(s, v);
			break;
		}
		walk_list(s, v);
		break;
	case JV_STRING:
		walk_string(s, v);
		break;
	default:
		break;
	}
}
