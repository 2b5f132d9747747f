/* loader.c - helpers the transcript loaders share (see loader.h). */
#include "runs/loader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *loader_str(json_t *v, const char *dflt)
{
	return json_is_string(v) ? json_string_value(v) : dflt;
}

bool loader_ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && !strcmp(s + n - k, suffix);
}

const char *loader_id(struct run *r, json_t *v)
{
	if (json_is_string(v))
		return json_string_length(v) ? json_string_value(v) : NULL;
	if (json_is_number(v)) {
		char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
		const char *out = run_strdup(r, s ? s : "");
		free(s);
		return out;
	}
	return NULL;
}

const char *loader_corpus_model(json_t *rec)
{
	json_t *m = json_object_get(json_object_get(rec, "_corpus"), "agent_model");
	if (json_is_array(m))
		m = json_array_get(m, 0);
	return json_string_value(m);
}

const char *loader_model(json_t *rec)
{
	const char *m = json_string_value(json_object_get(rec, "model"));
	return m ? m : loader_corpus_model(rec);
}

int loader_array(json_t *rec, const char *key, json_t **out, char *err, size_t errlen)
{
	*out = json_object_get(rec, key);
	if (!json_is_array(*out)) {
		snprintf(err, errlen, "%s: %s", key, *out ? "not an array" : "missing");
		return -1;
	}
	return 0;
}

void loader_tools(struct run *r, json_t *rec)
{
	json_t *tools = json_object_get(rec, "tools");
	if (tools && !json_is_null(tools))
		r->tool_defs = tools;
}

int loader_messages_or_array(json_t *rec, json_t **list, const char **where,
                             const char *shape_error, char *err, size_t errlen)
{
	*list = rec;
	*where = "";
	if (json_is_object(rec)) {
		*where = "messages";
		return loader_array(rec, "messages", list, err, errlen) < 0 ? -1 : LOADER_OBJECT;
	}
	if (!json_is_array(rec)) {
		snprintf(err, errlen, "%s", shape_error);
		return -1;
	}
	return LOADER_BARE_ARRAY;
}

int loader_each(struct run *r, json_t *list, const char *where, loader_item_fn fn, void *ctx,
                char *err, size_t errlen)
{
	int total = 0;
	size_t i;
	json_t *item;
	json_array_foreach(list, i, item) {
		char path[128];
		snprintf(path, sizeof(path), "%s[%zu]", where, i);
		if (!json_is_object(item)) {
			snprintf(err, errlen, "%s: not an object", path);
			return -1;
		}
		int rc = fn(r, item, path, i, ctx, err, errlen);
		if (rc < 0)
			return -1;
		total += rc;
	}
	return total;
}

int loader_each_field(struct run *r, json_t *list, const char *path, const char *key,
                      loader_item_fn fn, void *ctx, char *err, size_t errlen)
{
	char where[128];
	snprintf(where, sizeof(where), "%s.%s", path, key);
	return loader_each(r, list, where, fn, ctx, err, errlen);
}

int loader_role(json_t *m, const char *path, enum loader_role_errors style, enum run_role *role,
                char *err, size_t errlen)
{
	json_t *jrole = json_object_get(m, "role");
	if (!json_is_string(jrole)) {
		if (style == ROLE_ERRORS_JOINED)
			snprintf(err, errlen, "%s.role: missing or not a string", path);
		else
			snprintf(err, errlen, "%s.role: %s", path, jrole ? "not a string" : "missing");
		return -1;
	}
	bool ok;
	*role = run_role_parse(json_string_value(jrole), &ok);
	if (!ok) {
		snprintf(err, errlen, "%s.role: unknown role \"%s\"", path, json_string_value(jrole));
		return -1;
	}
	return 0;
}

int loader_content(json_t *m, const char *path, json_t **content, char *err, size_t errlen)
{
	json_t *c = json_object_get(m, "content");
	*content = c;
	if (c && !json_is_null(c) && !json_is_string(c) && !json_is_array(c)) {
		snprintf(err, errlen, "%s.content: not a string, a list or null", path);
		return -1;
	}
	return 0;
}

int loader_opt_string(json_t *obj, const char *key, const char *path, json_t **out,
                      char *err, size_t errlen)
{
	json_t *v = json_object_get(obj, key);
	*out = v;
	if (v && !json_is_null(v) && !json_is_string(v)) {
		snprintf(err, errlen, "%s.%s: not a string", path, key);
		return -1;
	}
	return 0;
}

int loader_opt_array(json_t *obj, const char *key, const char *path, const char *what,
                     json_t **out, char *err, size_t errlen)
{
	json_t *v = json_object_get(obj, key);
	*out = v;
	if (v && !json_is_null(v) && !json_is_array(v)) {
		snprintf(err, errlen, "%s.%s: %s", path, key, what);
		return -1;
	}
	return 0;
}

int loader_call_fields(json_t *fields, const char *path, const char *args_what, json_t **name,
                       json_t **args, char *err, size_t errlen)
{
	if (loader_opt_string(fields, "name", path, name, err, errlen) < 0)
		return -1;
	json_t *a = json_object_get(fields, "arguments");
	*args = a;
	if (a && !json_is_null(a) && !json_is_object(a) && !json_is_string(a)) {
		snprintf(err, errlen, "%s.arguments: %s", path, args_what);
		return -1;
	}
	return 0;
}

struct run_call *loader_add_call(struct run *r, size_t mi, json_t *id, json_t *name, json_t *args,
                                 long src_msg)
{
	struct run_call *c = run_add_call(r, mi);
	c->id = json_string_value(id);
	if (json_is_string(name))
		c->name = json_string_value(name);
	c->raw_id = id;
	c->raw_name = name;
	c->src_msg_index = src_msg;
	run_call_set_args(r, c, json_is_null(args) ? NULL : args);
	return c;
}

bool loader_is_error_text(const char *text, const char *prefix)
{
	return text && strncmp(text, prefix, strlen(prefix)) == 0;
}

struct run_msg *loader_tool_output(struct run *r, size_t mi, const char *call_id, json_t *result)
{
	struct run_msg *msg = &r->msgs[mi];
	msg->is_tool_output = true;
	msg->answers_call_id = call_id;
	msg->result = result;
	return msg;
}

void loader_mark_failed(struct run_msg *msg, const char *text)
{
	msg->result_is_error = true;
	msg->result_error_text = text && text[0] ? text : "error";
}
