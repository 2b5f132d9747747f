/* shape_find.c - the reader by shape's tests of what a value looks like: a message, a call, a result, a span list. */
#include <string.h>
#include <strings.h>

#include "shape.h"

bool shape_word_is(const char *s, const char *lower)
{
	return s && strcasecmp(s, lower) == 0;
}

/* The words a role-like member may say, and the role each is. A type such
 * as LangChain's "HumanMessage" or AutoGen's "AssistantMessage" is read
 * without its "Message". */
static const struct {
	const char *word;
	enum run_role role;
} role_words[] = {
	{ "user", ROLE_USER }, { "human", ROLE_USER },
	{ "assistant", ROLE_ASSISTANT }, { "model", ROLE_ASSISTANT },
	{ "agent", ROLE_ASSISTANT }, { "ai", ROLE_ASSISTANT }, { "bot", ROLE_ASSISTANT },
	{ "tool", ROLE_TOOL }, { "function", ROLE_TOOL }, { "ipython", ROLE_TOOL },
	{ "system", ROLE_SYSTEM }, { "developer", ROLE_SYSTEM },
};

static bool role_word(const char *s, enum run_role *role)
{
	if (!s)
		return false;
	size_t n = strlen(s);
	if (n > 7 && strcasecmp(s + n - 7, "message") == 0)
		n -= 7;
	for (size_t i = 0; i < sizeof role_words / sizeof role_words[0]; i++) {
		if (strlen(role_words[i].word) == n && strncasecmp(s, role_words[i].word, n) == 0) {
			*role = role_words[i].role;
			return true;
		}
	}
	return false;
}

static const char *const role_keys[] = { "role", "author", "source", "sender", "type", NULL };
static const char *const text_keys[] = { "text", "content", "parts", "message", NULL };
static const char *const call_list_keys[] = { "tool_calls", "toolCalls", "function_call", NULL };

static bool has_any(const struct jdoc *d, jv obj, const char *const *keys)
{
	for (size_t i = 0; keys[i]; i++)
		if (jv_get(d, obj, keys[i]) != JV_NONE)
			return true;
	return false;
}

bool shape_is_message(const struct jdoc *d, jv obj, enum run_role *role)
{
	if (!jv_is_object(d, obj))
		return false;
	bool named = false;
	for (size_t i = 0; role_keys[i] && !named; i++) {
		jv v = jv_get(d, obj, role_keys[i]);
		if (v != JV_NONE)
			named = role_word(jv_str(d, v), role);
		/* A role that is not a role word ("role": "tool_result") says
		 * the object is something else, whatever its type says. */
		if (v != JV_NONE && i == 0 && !named)
			return false;
	}
	return named && (has_any(d, obj, text_keys) || has_any(d, obj, call_list_keys));
}

static const char *const name_keys[] = { "name", "function_name", "tool_name", "toolName",
                                         "gen_ai.tool.name", NULL };
static const char *const args_keys[] = { "arguments", "args", "input", "kwargs", "parameters",
                                         "tool_input", NULL };
static const char *const call_id_keys[] = { "call_id", "callId", "tool_call_id", "toolCallId",
                                            "gen_ai.tool.call.id", "id", NULL };

/* The first of keys whose value is a non-empty string. */
static const char *first_str(const struct jdoc *d, jv obj, const char *const *keys)
{
	for (size_t i = 0; keys[i]; i++) {
		const char *s = jv_str(d, jv_get(d, obj, keys[i]));
		if (s && s[0])
			return s;
	}
	return NULL;
}

static jv first_value(const struct jdoc *d, jv obj, const char *const *keys)
{
	for (size_t i = 0; keys[i]; i++) {
		jv v = jv_get(d, obj, keys[i]);
		if (v != JV_NONE && !jv_is_null(d, v))
			return v;
	}
	return JV_NONE;
}

static bool ends_with_any(const char *type, const char *const *ends)
{
	if (!type)
		return false;
	size_t n = strlen(type);
	for (size_t i = 0; ends[i]; i++) {
		size_t m = strlen(ends[i]);
		if (n >= m && strcmp(type + n - m, ends[i]) == 0)
			return true;
	}
	return false;
}

/* Types that say a result (function_call_output, tool_result,
 * tool-output-available, a function's response). */
static bool type_says_result(const char *type)
{
	static const char *const ends[] = { "_output", "_result", "-output-available", "_error",
	                                    "_response", NULL };
	return ends_with_any(type, ends);
}

/* Types that say a result, a wrapper or a stream's piece, never a call. */
static bool type_says_not_call(const char *type)
{
	static const char *const ends[] = { "-delta", "-start", "_item", NULL };
	return type_says_result(type) || ends_with_any(type, ends);
}

bool shape_is_definition(const struct jdoc *d, jv obj)
{
	if (jv_get(d, obj, "input_schema") != JV_NONE || jv_get(d, obj, "inputSchema") != JV_NONE ||
	    jv_get(d, obj, "params_json_schema") != JV_NONE)
		return true;
	jv params = jv_get(d, obj, "parameters");
	return jv_is_object(d, params) && jv_get(d, params, "properties") != JV_NONE &&
	       jv_get(d, obj, "arguments") == JV_NONE;
}

/* A Responses item typed NAME_call with an id, a status or an action: a
 * hosted call (web search, a local shell, code) whose name is its type's
 * stem when it has none. A bare {type: "function_call"} written as some
 * record's bookkeeping has none of them. */
static bool typed_call(const struct jdoc *d, jv obj, const char **name, jv *args, const char **id)
{
	const char *type = jv_str(d, jv_get(d, obj, "type"));
	size_t n = type ? strlen(type) : 0;
	if (n <= 5 || strcmp(type + n - 5, "_call") != 0)
		return false;
	*id = first_str(d, obj, call_id_keys);
	if (!*id && jv_get(d, obj, "status") == JV_NONE && jv_get(d, obj, "action") == JV_NONE)
		return false;
	*name = first_str(d, obj, name_keys);
	if (!*name)
		*name = type;        /* the stem is cut by the caller, which may copy */
	static const char *const hosted_args[] = { "arguments", "input", "action", "operation",
	                                           "code", "queries", NULL };
	*args = first_value(d, obj, hosted_args);
	return true;
}

/* A trace or a span names what it ran and holds its input, as a call
 * does; its times and ids say it is a step of a trace instead. */
static bool is_span_like(const struct jdoc *d, jv obj)
{
	static const char *const keys[] = { "startTime", "start_time", "traceId", "trace_id",
	                                    "spanId", "span_id", "parentObservationId",
	                                    "observations", "latency", NULL };
	return has_any(d, obj, keys);
}

bool shape_is_call(const struct jdoc *d, jv obj, const char **name, jv *args, const char **id)
{
	if (!jv_is_object(d, obj))
		return false;
	const char *type = jv_str(d, jv_get(d, obj, "type"));
	if (type_says_not_call(type))
		return false;
	jv fn = jv_get(d, obj, "function");
	if (jv_is_object(d, fn) && jv_str(d, jv_get(d, fn, "name"))) {
		/* Chat Completions: {id, type: function, function: {name, arguments}}. */
		*name = jv_str(d, jv_get(d, fn, "name"));
		*args = first_value(d, fn, args_keys);
		*id = first_str(d, obj, call_id_keys);
		return (*name)[0] != 0 && *args != JV_NONE;
	}
	*name = first_str(d, obj, name_keys);
	if (!*name && jv_is_string(d, fn))
		*name = jv_str(d, fn);          /* Inspect: {id, function: "name", arguments} */
	if (*name) {
		*args = first_value(d, obj, args_keys);
		*id = first_str(d, obj, call_id_keys);
		if (*args == JV_NONE || shape_is_definition(d, obj) || is_span_like(d, obj))
			return false;
		return true;
	}
	return typed_call(d, obj, name, args, id);
}

static const char *const ref_keys[] = { "tool_call_id", "call_id", "callId", "tool_use_id",
                                        "toolCallId", "source_call_id", "toolUseId", NULL };
static const char *const out_keys[] = { "output", "result", "response", "observation",
                                        "content", NULL };

bool shape_is_result(const struct jdoc *d, jv obj, const char **call_id, const char **name,
                     jv *content)
{
	if (!jv_is_object(d, obj))
		return false;
	*call_id = first_str(d, obj, ref_keys);
	*name = NULL;
	const char *type = jv_str(d, jv_get(d, obj, "type"));
	/* A function_response names its call by "id" (and its tool by name). */
	if (!*call_id && (type_says_result(type) || jv_get(d, obj, "response") != JV_NONE))
		*call_id = first_str(d, obj, (const char *const[]){ "id", NULL });
	if (!*call_id)
		*name = first_str(d, obj, name_keys);
	if (!*call_id && !*name)
		return false;
	*content = first_value(d, obj, out_keys);
	if (*content == JV_NONE)
		return false;
	/* A result by name alone must say it is one, or it is any named
	 * thing with content. */
	return *call_id || jv_get(d, obj, "response") != JV_NONE || type_says_result(type);
}

static const char *const span_type_keys[] = { "type", "observation_type", "span_kind", "kind",
                                              "run_type", "openinference.span.kind", NULL };
static const char *const span_kinds[] = { "tool", "generation", "llm", "agent", "span", "chain",
                                          "event", NULL };

const char *shape_span_kind(const struct jdoc *d, jv obj)
{
	for (size_t i = 0; span_type_keys[i]; i++) {
		const char *t = jv_str(d, jv_get(d, obj, span_type_keys[i]));
		if (!t)
			continue;
		for (size_t k = 0; span_kinds[k]; k++)
			if (shape_word_is(t, span_kinds[k]))
				return span_kinds[k];
	}
	return NULL;
}

bool shape_is_span_list(const struct jdoc *d, jv arr)
{
	JV_EACH(d, arr, e) {
		const char *kind = shape_span_kind(d, e);
		if (!kind || !strcmp(kind, "span") || !strcmp(kind, "chain") || !strcmp(kind, "event"))
			continue;
		jv in = jv_get(d, e, "input"), out = jv_get(d, e, "output");
		if ((in != JV_NONE && !jv_is_null(d, in)) || (out != JV_NONE && !jv_is_null(d, out)))
			return true;
	}
	return false;
}
