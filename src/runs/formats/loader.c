/* loader.c - helpers the transcript loaders share (see loader.h). */
#include "runs/loader.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/hash.h"
#include "util/error.h"

const char *loader_str(const struct run *r, jv v, const char *dflt)
{
	return jv_str_or(r->doc, v, dflt);
}

bool loader_ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && !strcmp(s + n - k, suffix);
}

/* A real as json_dumps prints it: 17 significant digits, ".0" when that
 * reads as an integer, and the exponent without "+" or leading zeros. */
static void real_text(char *buf, size_t len, double value)
{
	snprintf(buf, len, "%.17g", value);
	char *e = strchr(buf, 'e');
	if (!e) {
		if (!strchr(buf, '.'))
			strncat(buf, ".0", len - strlen(buf) - 1);
		return;
	}
	char *digits = e + 1;
	if (*digits == '-')
		digits++;
	char *from = e + 1;
	while (*from == '+' || *from == '-' || *from == '0')
		from++;
	/* "e+20" -> "e20", "e-05" -> "e-5" */
	memmove(digits, from, strlen(from) + 1);
}

/* A number id printed as json_dumps printed the jansson value the loaders
 * used to read: an int64 integer in decimal, a real as real_text. Numbers
 * jansson could not hold (beyond int64 or a double's range; it refused
 * such records) keep the record's own text. */
static const char *number_id(struct run *r, jv v)
{
	const struct jdoc *d = r->doc;
	unsigned flags = d->nodes[v].flags;
	char buf[64];
	if (flags & JVF_INT64)
		snprintf(buf, sizeof buf, "%" PRId64, jv_int(d, v));
	else if (flags & (JVF_INTEGER | JVF_RANGE))
		return jv_number_text(d, v);
	else
		real_text(buf, sizeof buf, jv_real(d, v));
	return run_strdup(r, buf);
}

const char *loader_id(struct run *r, jv v)
{
	if (jv_is_string(r->doc, v))
		return jv_strlen(r->doc, v) ? jv_str(r->doc, v) : NULL;
	if (jv_is_number(r->doc, v))
		return number_id(r, v);
	return NULL;
}

const char *loader_corpus_model(const struct run *r, jv rec)
{
	const struct jdoc *d = r->doc;
	jv m = jv_get(d, jv_get(d, rec, "_corpus"), "agent_model");
	if (jv_is_array(d, m))
		m = jv_first(d, m);
	return jv_str(d, m);
}

const char *loader_model(const struct run *r, jv rec)
{
	const char *m = jv_str(r->doc, jv_get(r->doc, rec, "model"));
	return m ? m : loader_corpus_model(r, rec);
}

int loader_array(const struct run *r, jv rec, const char *key, jv *out, struct error *err)
{
	*out = jv_get(r->doc, rec, key);
	if (!jv_is_array(r->doc, *out)) {
		error_at(err, *out != JV_NONE ? ERR_FAILED : ERR_MISSING, "%s: %s", key, *out != JV_NONE ? "not an array" : "missing");
		return -1;
	}
	return 0;
}

void loader_tools(struct run *r, jv rec)
{
	jv tools = jv_get(r->doc, rec, "tools");
	if (tools != JV_NONE && !jv_is_null(r->doc, tools))
		r->tool_defs = tools;
}

int loader_messages_or_array(const struct run *r, jv rec, jv *list, const char **where,
                             const char *shape_error, struct error *err)
{
	*list = rec;
	*where = "";
	if (jv_is_object(r->doc, rec)) {
		*where = "messages";
		return loader_array(r, rec, "messages", list, err) < 0 ? -1 : LOADER_OBJECT;
	}
	if (!jv_is_array(r->doc, rec)) {
		error_at(err, ERR_FAILED, "%s", shape_error);
		return -1;
	}
	return LOADER_BARE_ARRAY;
}

int loader_each(struct run *r, jv list, const char *where, loader_item_fn fn, void *ctx,
                struct error *err)
{
	int total = 0;
	size_t i = 0;
	JV_EACH(r->doc, list, item) {
		char path[128];
		snprintf(path, sizeof(path), "%s[%zu]", where, i);
		if (!jv_is_object(r->doc, item)) {
			error_at(err, ERR_FAILED, "%s: not an object", path);
			return -1;
		}
		int rc = fn(r, item, path, i, ctx, err);
		if (rc < 0)
			return -1;
		total += rc;
		i++;
	}
	return total;
}

int loader_each_field(struct run *r, jv list, const char *path, const char *key,
                      loader_item_fn fn, void *ctx, struct error *err)
{
	char where[128];
	snprintf(where, sizeof(where), "%s.%s", path, key);
	return loader_each(r, list, where, fn, ctx, err);
}

int loader_role(const struct run *r, jv m, const char *path, enum loader_role_errors style,
                enum run_role *role, struct error *err)
{
	jv jrole = jv_get(r->doc, m, "role");
	const char *s = jv_str(r->doc, jrole);
	if (!s) {
		if (style == ROLE_ERRORS_JOINED)
			error_at(err, ERR_MISSING, "%s.role: missing or not a string", path);
		else
			error_at(err, jrole != JV_NONE ? ERR_FAILED : ERR_MISSING, "%s.role: %s", path,
			         jrole != JV_NONE ? "not a string" : "missing");
		return -1;
	}
	bool ok;
	*role = run_role_parse(s, &ok);
	if (!ok) {
		error_at(err, ERR_FAILED, "%s.role: unknown role \"%s\"", path, s);
		return -1;
	}
	return 0;
}

bool loader_role_unknown(const struct run *r, jv m)
{
	bool ok;
	const char *s = jv_str(r->doc, jv_get(r->doc, m, "role"));
	if (!s)
		return false;
	run_role_parse(s, &ok);
	return !ok;
}

size_t loader_note_role(struct run *r, jv m, const char *text, long src)
{
	const char *role = jv_str_or(r->doc, jv_get(r->doc, m, "role"), "");
	size_t mi = text && text[0]
	            ? run_add_note_msg(r, MSG_IN_OUTPUT, m, "role \"%s\": %s", role, text)
	            : run_add_note_msg(r, MSG_IN_OUTPUT, m, "role \"%s\"", role);
	r->msgs[mi].src_index = src;
	return mi;
}

int loader_content(const struct run *r, jv m, const char *path, jv *content, struct error *err)
{
	jv c = jv_get(r->doc, m, "content");
	enum jv_type t = jv_type(r->doc, c);
	*content = c;
	if (t != JV_MISSING && t != JV_NULL && t != JV_STRING && t != JV_ARRAY) {
		error_at(err, ERR_FAILED, "%s.content: not a string, a list or null", path);
		return -1;
	}
	return 0;
}

int loader_opt_string(const struct run *r, jv obj, const char *key, const char *path, jv *out,
                      struct error *err)
{
	jv v = jv_get(r->doc, obj, key);
	enum jv_type t = jv_type(r->doc, v);
	*out = v;
	if (t != JV_MISSING && t != JV_NULL && t != JV_STRING) {
		error_at(err, ERR_FAILED, "%s.%s: not a string", path, key);
		return -1;
	}
	return 0;
}

int loader_opt_array(const struct run *r, jv obj, const char *key, const char *path,
                     const char *what, jv *out, struct error *err)
{
	jv v = jv_get(r->doc, obj, key);
	enum jv_type t = jv_type(r->doc, v);
	*out = v;
	if (t != JV_MISSING && t != JV_NULL && t != JV_ARRAY) {
		error_at(err, ERR_FAILED, "%s.%s: %s", path, key, what);
		return -1;
	}
	return 0;
}

int loader_call_fields(const struct run *r, jv fields, const char *path, const char *args_what,
                       jv *name, jv *args, struct error *err)
{
	if (loader_opt_string(r, fields, "name", path, name, err) < 0)
		return -1;
	jv a = jv_get(r->doc, fields, "arguments");
	enum jv_type t = jv_type(r->doc, a);
	*args = a;
	if (t != JV_MISSING && t != JV_NULL && t != JV_OBJECT && t != JV_STRING) {
		error_at(err, ERR_FAILED, "%s.arguments: %s", path, args_what);
		return -1;
	}
	return 0;
}

struct run_call *loader_add_call(struct run *r, size_t mi, jv id, jv name, jv args,
                                 long src_msg)
{
	struct run_call *c = run_add_call(r, mi);
	c->id = jv_str(r->doc, id);
	if (jv_is_string(r->doc, name))
		c->name = jv_str(r->doc, name);
	c->raw_id = id;
	c->raw_name = name;
	c->src_msg_index = src_msg;
	run_call_set_args(r, c, jv_is_null(r->doc, args) ? JV_NONE : args);
	return c;
}

int loader_function_call(struct run *r, jv tc, const char *path, size_t j, void *ctx,
                         struct error *err)
{
	(void)j;
	const size_t *mi = ctx;
	jv id, name, args;
	if (loader_opt_string(r, tc, "id", path, &id, err) < 0)
		return -1;
	jv fn = jv_get(r->doc, tc, "function");
	if (!jv_is_object(r->doc, fn)) {
		error_at(err, fn != JV_NONE ? ERR_FAILED : ERR_MISSING, "%s.function: %s", path,
		         fn != JV_NONE ? "not an object" : "missing");
		return -1;
	}
	char fpath[160];
	snprintf(fpath, sizeof(fpath), "%s.function", path);
	if (loader_call_fields(r, fn, fpath, "not a string or an object", &name, &args,
	                       err) < 0)
		return -1;
	loader_add_call(r, *mi, id, name, args, r->msgs[*mi].src_index);
	return 0;
}

static bool loader_id_is(const void *item, const void *key)
{
	return strcmp(item, key) == 0;
}

bool loader_seen(struct htab *seen, const char *id)
{
	if (!id)
		return false;
	void **slot = htab_put(seen, hash_fnv1a(id, strlen(id), HASH_FNV_SEED), loader_id_is, id);
	if (*slot)
		return true;
	*slot = (void *)id;
	return false;
}

bool loader_is_error_text(const char *text, const char *prefix)
{
	return text && strncmp(text, prefix, strlen(prefix)) == 0;
}

struct run_msg *loader_tool_output(struct run *r, size_t mi, const char *call_id, jv result)
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

void loader_join_by_name(struct run *r, loader_result_name_fn *name_of)
{
	size_t before = 0;              /* calls in messages before mi */
	for (size_t mi = 0; mi < r->nmsgs; mi++) {
		struct run_msg *m = &r->msgs[mi];
		while (before < r->ncalls && r->calls[before].msg_index < mi)
			before++;
		if (!m->is_tool_output || m->answers_call_id)
			continue;
		const char *name = name_of(r, m);
		struct run_call *hit = NULL;
		size_t stop = before > LOADER_JOIN_LOOKBACK ? before - LOADER_JOIN_LOOKBACK : 0;
		for (size_t ci = before; name && ci-- > stop;) {
			struct run_call *c = &r->calls[ci];
			if (c->msg_index >= mi || c->has_result || strcmp(c->name, name) != 0)
				continue;
			if (hit && c->msg_index != hit->msg_index)
				break;      /* the first call of the nearest message */
			hit = c;
		}
		m->unmatched_result = hit == NULL;
		if (hit)
			run_set_result(hit, m->result, m->result_is_error, m->result_error_text, (long)mi);
	}
}

/* Whether a code execution's result says its command exited non-zero:
 * {type: ...code_execution_result, stdout, stderr, return_code}. The text
 * is the exit code, then what the command wrote to stderr (else stdout),
 * where it says why. */
static bool loader_code_exec_failed(struct run *r, jv content, const char **error_text)
{
	const struct jdoc *d = r->doc;
	jv code = jv_get(d, content, "return_code");
	if (!loader_ends_with(loader_str(r, jv_get(d, content, "type"), ""), "code_execution_result") ||
	    !jv_is_integer(d, code) || jv_int(d, code) == 0)
		return false;
	const char *out = loader_str(r, jv_get(d, content, "stderr"), "");
	if (!out[0])
		out = loader_str(r, jv_get(d, content, "stdout"), "");
	*error_text = arena_printf(&r->arena, "exit code %lld%s%s", (long long)jv_int(d, code),
	                           out[0] ? "\n" : "", out);
	return true;
}

bool loader_server_tool_error(struct run *r, jv content, jv is_error, const char **error_text)
{
	const struct jdoc *d = r->doc;
	const char *code = NULL;
	if (jv_is_object(d, content) && loader_code_exec_failed(r, content, error_text))
		return true;
	if (jv_is_object(d, content) &&
	    loader_ends_with(loader_str(r, jv_get(d, content, "type"), ""), "_error"))
		code = loader_str(r, jv_get(d, content, "error_code"), "");
	else if (jv_type(d, is_error) != JV_TRUE)
		return false;
	if (code && code[0]) {
		*error_text = code;
		return true;
	}
	const char *t = run_text_of(r, content);
	*error_text = t[0] ? t : "error";
	return true;
}
