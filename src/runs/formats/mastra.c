/* mastra.c - Mastra scorer runs: {inputMessages, output} or
 * {input: {inputMessages}, output}, in the 1.x message shape
 * (MastraDBMessage, calls in content.toolInvocations and content.parts) or
 * the 0.x shape (AI SDK v4 UIMessage, calls in top-level toolInvocations).
 *
 * Calls are extracted exactly as Mastra's own scorers extract them, merge
 * order and invocation numbering included, because the tool-call-accuracy
 * scorer must reproduce Mastra's answers bit for bit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runs/format.h"
#include "util/jsonw.h"

static json_t *mastra_input_messages(json_t *rec)
{
	json_t *input = json_object_get(rec, "input");
	if (json_is_object(input) && json_object_get(input, "inputMessages"))
		return json_object_get(input, "inputMessages");
	return json_object_get(rec, "inputMessages");
}

/* Mastra refuses a run whose input or output is missing or empty. */
static bool mastra_list_empty(json_t *v)
{
	if (!v || json_is_null(v))
		return true;
	if (json_is_array(v))
		return json_array_size(v) == 0;
	if (json_is_string(v))
		return json_string_length(v) == 0;
	return false;
}

static bool looks_like_mastra_msg(json_t *m)
{
	if (!json_is_object(m) || !json_is_string(json_object_get(m, "role")))
		return false;
	/* Responses API items carry a type; Mastra messages do not need one. */
	const char *type = json_string_value(json_object_get(m, "type"));
	if (type && strcmp(type, "message") == 0)
		return false;
	json_t *content = json_object_get(m, "content");
	if (json_is_object(content))
		return true;
	return json_is_array(json_object_get(m, "toolInvocations"));
}

static json_t *first_message(json_t *list)
{
	size_t i;
	json_t *m;
	if (!json_is_array(list))
		return NULL;
	json_array_foreach(list, i, m)
		if (json_is_object(m))
			return m;
	return NULL;
}

static int mastra_detect(json_t *rec)
{
	if (!json_is_object(rec))
		return 0;
	json_t *in = mastra_input_messages(rec);
	json_t *out = json_object_get(rec, "output");
	if (in && (out || json_object_get(rec, "runId") || json_object_get(rec, "input")))
		return 90;
	if (in)
		return 70;
	json_t *m = first_message(out);
	if (m && looks_like_mastra_msg(m))
		return 60;
	return 0;
}

static int no_detect(json_t *rec)
{
	(void)rec;
	return 0;
}

/* 1.x messages have object content; 0.x messages a string content and a
 * top-level toolInvocations. The input messages decide first, as they are
 * what the test helpers of each version write. */
static enum mastra_shape mastra_shape_of(json_t *rec)
{
	json_t *lists[2] = { mastra_input_messages(rec), json_object_get(rec, "output") };
	for (int l = 0; l < 2; l++) {
		json_t *m = first_message(lists[l]);
		if (!m)
			continue;
		json_t *content = json_object_get(m, "content");
		if (json_is_object(content))
			return MASTRA_1X;
		if (json_is_string(content) || json_is_array(json_object_get(m, "toolInvocations")))
			return MASTRA_0X;
	}
	return MASTRA_1X;
}

static const char *msg_text(struct run *r, json_t *m, enum mastra_shape shape)
{
	json_t *content = json_object_get(m, "content");
	if (json_is_string(content))
		return json_string_value(content);
	if (json_is_object(content)) {
		const char *s = json_string_value(json_object_get(content, "content"));
		if (s && *s)
			return s;
		return run_text_of(r, json_object_get(content, "parts"));
	}
	(void)shape;
	return run_text_of(r, json_object_get(m, "parts"));
}

/* Turns one invocation object into a call of the model. */
static void add_invocation(struct run *r, size_t msg, json_t *inv, long src_msg, long src_idx)
{
	struct run_call *c = run_add_call(r, msg);
	json_t *id = json_object_get(inv, "toolCallId");
	json_t *name = json_object_get(inv, "toolName");
	c->raw_id = id;
	c->raw_name = name;
	c->raw_state = json_string_value(json_object_get(inv, "state"));
	c->src_msg_index = src_msg;
	c->src_call_index = src_idx;
	if (json_is_string(id) && json_string_length(id))
		c->id = json_string_value(id);
	else if (json_truthy(id)) {
		char *s = json_dumps(id, JSON_ENCODE_ANY | JSON_COMPACT);
		c->id = run_strdup(r, s ? s : "");
		free(s);
	}
	if (json_is_string(name))
		c->name = json_string_value(name);
	else if (name && !json_is_null(name)) {
		char *s = json_dumps(name, JSON_ENCODE_ANY | JSON_COMPACT);
		c->name = run_strdup(r, s ? s : "");
		free(s);
	}
	run_call_set_args(r, c, json_object_get(inv, "args"));
	const char *st = c->raw_state ? c->raw_state : "";
	json_t *is_error = json_object_get(inv, "isError");
	const char *err_text = json_string_value(json_object_get(inv, "errorText"));
	if (!strcmp(st, "partial-call") || !strcmp(st, "input-streaming"))
		c->state = CALL_PARTIAL;
	else if (!strcmp(st, "output-error") || json_is_true(is_error))
		run_set_result(c, json_object_get(inv, "result"), true,
		               err_text ? err_text : "error", -1);
	else if (!strcmp(st, "result") || json_object_get(inv, "result"))
		run_set_result(c, json_object_get(inv, "result"), false, NULL, -1);
	else
		c->state = CALL_REQUESTED;
}

/* Two ids are the same call when they are the same JavaScript value, as a
 * Map or Set key: equal strings, or equal numbers (JSON's 5 and 5.0 are one
 * number there), never a string and a number. */
static bool id_same(json_t *a, json_t *b)
{
	if (!a || !b)
		return false;
	if (json_is_number(a) && json_is_number(b))
		return json_number_value(a) == json_number_value(b);
	return json_typeof(a) == json_typeof(b) && json_equal(a, b);
}

static bool id_in(json_t *id, json_t *const *ids, size_t n)
{
	if (!json_truthy(id))
		return false;
	for (size_t i = 0; i < n; i++)
		if (id_same(ids[i], id))
			return true;
	return false;
}

/* The tool-invocation parts (P) of a 1.x message, in order, and the
 * truthy toolCallIds among them. -1 on a null part. */
struct parts_1x {
	json_t **inv, **ids;
	size_t ninv, nids;
};

static int collect_parts_1x(json_t *parts, long mi, struct parts_1x *out, char *err,
                            size_t errlen)
{
	size_t n = parts ? json_array_size(parts) : 0;
	out->inv = calloc(n + 1, sizeof(*out->inv));
	out->ids = calloc(n + 1, sizeof(*out->ids));
	out->ninv = out->nids = 0;
	for (size_t i = 0; i < n; i++) {
		json_t *part = json_array_get(parts, i);
		if (json_is_null(part)) {
			snprintf(err, errlen, "output[%ld].content.parts[%zu]: null part", mi, i);
			return -1;
		}
		const char *type = json_string_value(json_object_get(part, "type"));
		if (!type || strcmp(type, "tool-invocation") != 0)
			continue;
		json_t *inv = json_object_get(part, "toolInvocation");
		if (!inv || json_is_null(inv))
			continue;
		out->inv[out->ninv++] = inv;
		json_t *id = json_object_get(inv, "toolCallId");
		if (json_truthy(id))
			out->ids[out->nids++] = id;
	}
	return 0;
}

/* A legacy invocation is emitted unless a part carries its id. */
static void emit_legacy(struct run *r, size_t msg, json_t *legacy, size_t k,
                        const struct parts_1x *p, long mi, long *out_idx)
{
	json_t *l = json_array_get(legacy, k);
	if (!json_is_null(l) && !id_in(json_object_get(l, "toolCallId"), p->ids, p->nids))
		add_invocation(r, msg, l, mi, (*out_idx)++);
}

/* Merges content.toolInvocations (L) and tool-invocation parts (P) of one
 * 1.x message the way Mastra does: part versions win, legacy-only calls
 * keep their place between anchors, and leftovers go after all parts. */
static int merge_1x(struct run *r, size_t msg, json_t *m, long mi, char *err, size_t errlen)
{
	json_t *content = json_object_get(m, "content");
	if (!json_is_object(content))
		return 0;
	json_t *legacy = json_object_get(content, "toolInvocations");
	json_t *parts = json_object_get(content, "parts");
	if (legacy && !json_is_array(legacy)) {
		snprintf(err, errlen, "output[%ld].content.toolInvocations: not a list", mi);
		return -1;
	}
	if (parts && !json_is_array(parts)) {
		snprintf(err, errlen, "output[%ld].content.parts: not a list", mi);
		return -1;
	}
	struct parts_1x p;
	if (collect_parts_1x(parts, mi, &p, err, errlen) < 0) {
		free(p.inv);
		free(p.ids);
		return -1;
	}
	size_t nl = legacy ? json_array_size(legacy) : 0;
	long out_idx = 0;
	size_t li = 0;
	for (size_t pi = 0; pi < p.ninv; pi++) {
		json_t *pid = json_object_get(p.inv[pi], "toolCallId");
		long s = -1;
		if (json_truthy(pid))
			for (size_t k = 0; k < nl; k++) {      /* the last twin wins */
				json_t *lid = json_object_get(json_array_get(legacy, k), "toolCallId");
				if (id_same(lid, pid))
					s = (long)k;
			}
		if (s >= 0 && (size_t)s >= li) {
			while (li < (size_t)s)
				emit_legacy(r, msg, legacy, li++, &p, mi, &out_idx);
			li++;
		}
		add_invocation(r, msg, p.inv[pi], mi, out_idx++);
	}
	for (; li < nl; li++)
		emit_legacy(r, msg, legacy, li, &p, mi, &out_idx);
	free(p.inv);
	free(p.ids);
	return 0;
}

static void calls_0x(struct run *r, size_t msg, json_t *m, long mi)
{
	json_t *list = json_object_get(m, "toolInvocations");
	size_t i;
	json_t *inv;
	if (!json_is_array(list))
		return;
	json_array_foreach(list, i, inv) {
		if (json_is_null(inv))
			continue;            /* still uses up its index, as in 0.x */
		add_invocation(r, msg, inv, mi, (long)i);
	}
}

static int load_list(struct run *r, json_t *list, enum msg_origin origin, enum mastra_shape shape,
                     char *err, size_t errlen)
{
	size_t i;
	json_t *m;
	if (!json_is_array(list))
		return 0;
	json_array_foreach(list, i, m) {
		if (!json_is_object(m))
			continue;
		bool ok;
		enum run_role role = run_role_parse(json_string_value(json_object_get(m, "role")), &ok);
		size_t mi = run_add_msg(r, role, origin, msg_text(r, m, shape), m);
		r->msgs[mi].src_index = (long)i;
		/* Only output messages carry calls Mastra counts; calls inside
		 * input messages are shown but tagged by their origin. */
		if (shape == MASTRA_1X) {
			if (merge_1x(r, mi, m, (long)i, err, errlen) < 0) {
				if (origin == MSG_IN_INPUT) {
					/* Mastra never looks inside input messages. */
					err[0] = '\0';
					continue;
				}
				return -1;
			}
		} else {
			calls_0x(r, mi, m, (long)i);
		}
	}
	return 0;
}

static int mastra_load_shape(struct run *r, enum mastra_shape shape, char *err, size_t errlen)
{
	json_t *rec = r->record;
	if (!json_is_object(rec)) {
		snprintf(err, errlen, "a Mastra run must be a JSON object");
		return -1;
	}
	json_t *in = mastra_input_messages(rec);
	json_t *out = json_object_get(rec, "output");
	r->mastra = shape;
	r->mastra_io_empty = mastra_list_empty(in) || mastra_list_empty(out);
	if (load_list(r, in, MSG_IN_INPUT, shape, err, errlen) < 0)
		return -1;
	if (load_list(r, out, MSG_IN_OUTPUT, shape, err, errlen) < 0)
		return -1;
	if (json_is_string(out) && json_string_length(out))
		run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, json_string_value(out), out);
	return 0;
}

static int mastra_load(struct run *r, char *err, size_t errlen)
{
	return mastra_load_shape(r, mastra_shape_of(r->record), err, errlen);
}

static int mastra_load_1x(struct run *r, char *err, size_t errlen)
{
	return mastra_load_shape(r, MASTRA_1X, err, errlen);
}

static int mastra_load_0x(struct run *r, char *err, size_t errlen)
{
	return mastra_load_shape(r, MASTRA_0X, err, errlen);
}

const struct format_ops format_mastra = {
	.name = "mastra",
	.summary = "Mastra scorer runs {inputMessages, output}, 1.x or 0.x messages (detected)",
	.detect = mastra_detect,
	.load = mastra_load,
};

const struct format_ops format_mastra_1x = {
	.name = "mastra-1x",
	.summary = "Mastra runs read as 1.x (MastraDBMessage) whatever their shape",
	.detect = no_detect,
	.load = mastra_load_1x,
};

const struct format_ops format_mastra_0x = {
	.name = "mastra-0x",
	.summary = "Mastra runs read as 0.x (AI SDK v4 UIMessage) whatever their shape",
	.detect = no_detect,
	.load = mastra_load_0x,
};
