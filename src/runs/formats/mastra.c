/* mastra.c - Mastra scorer runs: {inputMessages, output} or
 * {input: {inputMessages}, output}, in the 1.x message shape
 * (MastraDBMessage, calls in content.toolInvocations and content.parts) or
 * the 0.x shape (AI SDK v4 UIMessage, calls in top-level toolInvocations).
 *
 * Calls are extracted exactly as Mastra's own scorers extract them, merge
 * order and invocation numbering included, because the tool-call-accuracy
 * scorer must reproduce Mastra's answers bit for bit.
 *
 * A 1.x message's text and reasoning parts keep their place among its
 * calls when its text stays what Mastra reads (parts_in_order); the calls
 * and their order are Mastra's either way.
 *
 * The record is read through its tape (util/jdoc.h): every call points at
 * the invocation object as the record has it (raw_id, raw_name, args and
 * result are values of r->doc), so the merge below only chooses and orders
 * invocations and never builds a value of its own. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runs/format.h"
#include "runs/loader.h"
#include "util/error.h"

static jv mastra_input_messages(const struct jdoc *d, jv rec)
{
	jv input = jv_get(d, rec, "input");
	if (jv_is_object(d, input) && jv_get(d, input, "inputMessages") != JV_NONE)
		return jv_get(d, input, "inputMessages");
	return jv_get(d, rec, "inputMessages");
}

/* Mastra refuses a run whose input or output is missing or empty. */
static bool mastra_list_empty(const struct jdoc *d, jv v)
{
	if (v == JV_NONE || jv_is_null(d, v))
		return true;
	if (jv_is_array(d, v))
		return jv_len(d, v) == 0;
	if (jv_is_string(d, v))
		return jv_strlen(d, v) == 0;
	return false;
}

static bool looks_like_mastra_msg(const struct jdoc *d, jv m)
{
	if (!jv_is_object(d, m) || !jv_is_string(d, jv_get(d, m, "role")))
		return false;
	/* Responses API items carry a type; Mastra messages do not need one. */
	const char *type = jv_str(d, jv_get(d, m, "type"));
	if (type && strcmp(type, "message") == 0)
		return false;
	if (jv_is_object(d, jv_get(d, m, "content")))
		return true;
	return jv_is_array(d, jv_get(d, m, "toolInvocations"));
}

static jv first_message(const struct jdoc *d, jv list)
{
	JV_EACH(d, list, m)
		if (jv_is_object(d, m))
			return m;
	return JV_NONE;
}

static int mastra_detect(const struct jdoc *d, jv rec)
{
	if (!jv_is_object(d, rec))
		return 0;
	jv in = mastra_input_messages(d, rec);
	jv out = jv_get(d, rec, "output");
	if (in != JV_NONE && (out != JV_NONE || jv_get(d, rec, "runId") != JV_NONE ||
	                      jv_get(d, rec, "input") != JV_NONE))
		return 90;
	if (in != JV_NONE)
		return 70;
	jv m = first_message(d, out);
	if (m != JV_NONE && looks_like_mastra_msg(d, m))
		return 60;
	return 0;
}

static int no_detect(const struct jdoc *d, jv rec)
{
	(void)d;
	(void)rec;
	return 0;
}

/* 1.x messages have object content; 0.x messages a string content and a
 * top-level toolInvocations. The input messages decide first, as they are
 * what the test helpers of each version write. */
static enum mastra_shape mastra_shape_of(const struct jdoc *d, jv rec)
{
	jv lists[2] = { mastra_input_messages(d, rec), jv_get(d, rec, "output") };
	for (int l = 0; l < 2; l++) {
		jv m = first_message(d, lists[l]);
		if (m == JV_NONE)
			continue;
		jv content = jv_get(d, m, "content");
		if (jv_is_object(d, content))
			return MASTRA_1X;
		if (jv_is_string(d, content) || jv_is_array(d, jv_get(d, m, "toolInvocations")))
			return MASTRA_0X;
	}
	return MASTRA_1X;
}

static const char *msg_text(struct run *r, jv m)
{
	const struct jdoc *d = r->doc;
	jv content = jv_get(d, m, "content");
	if (jv_is_string(d, content))
		return jv_str(d, content);
	if (jv_is_object(d, content)) {
		const char *s = jv_str(d, jv_get(d, content, "content"));
		if (s && *s)
			return s;
		return run_text_of(r, jv_get(d, content, "parts"));
	}
	return run_text_of(r, jv_get(d, m, "parts"));
}

/* The text shown for an id or name that is not a string. Numbers are
 * printed by loader_id, as every format prints a number id; anything else
 * (true, a list, an object: never seen in practice) as its compact JSON,
 * from a throwaway tree of that one value, as jansson printed it before. */
static const char *shown_value(struct run *r, jv v)
{
	if (jv_is_number(r->doc, v))
		return loader_id(r, v);
	json_t *tree = jv_to_json(r->doc, v);
	char *s = tree ? json_dumps(tree, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;
	json_decref(tree);
	const char *out = run_strdup(r, s ? s : "");
	free(s);
	return out;
}

/* Turns one invocation object into a call of the model. */
static void add_invocation(struct run *r, size_t msg, jv inv, long src_msg, long src_idx)
{
	const struct jdoc *d = r->doc;
	struct run_call *c = run_add_call(r, msg);
	jv id = jv_get(d, inv, "toolCallId");
	jv name = jv_get(d, inv, "toolName");
	c->raw_id = id;
	c->raw_name = name;
	c->raw_state = jv_str(d, jv_get(d, inv, "state"));
	c->src_msg_index = src_msg;
	c->src_call_index = src_idx;
	if (jv_is_string(d, id) && jv_strlen(d, id))
		c->id = jv_str(d, id);
	else if (jv_truthy(d, id))
		c->id = shown_value(r, id);
	if (jv_is_string(d, name))
		c->name = jv_str(d, name);
	else if (name != JV_NONE && !jv_is_null(d, name))
		c->name = shown_value(r, name);
	run_call_set_args(r, c, jv_get(d, inv, "args"));
	const char *st = c->raw_state ? c->raw_state : "";
	jv result = jv_get(d, inv, "result");
	const char *err_text = jv_str(d, jv_get(d, inv, "errorText"));
	if (!strcmp(st, "partial-call") || !strcmp(st, "input-streaming"))
		c->state = CALL_PARTIAL;
	else if (!strcmp(st, "output-error") || jv_type(d, jv_get(d, inv, "isError")) == JV_TRUE)
		run_set_result(c, result, true, err_text ? err_text : "error", -1);
	else if (!strcmp(st, "result") || result != JV_NONE)
		run_set_result(c, result, false, NULL, -1);
	else
		c->state = CALL_REQUESTED;
}

/* Two ids are the same call when they are the same JavaScript value, as a
 * Map or Set key: equal strings, or equal numbers (JSON's 5 and 5.0 are one
 * number there), never a string and a number. */
static bool id_same(const struct jdoc *d, jv a, jv b)
{
	if (a == JV_NONE || b == JV_NONE)
		return false;
	if (jv_is_number(d, a) && jv_is_number(d, b))
		return jv_real(d, a) == jv_real(d, b);
	return jv_type(d, a) == jv_type(d, b) && jv_equal(d, a, d, b);
}

/* The invocation a part of a 1.x message carries: a tool-invocation part's
 * toolInvocation unless null, else JV_NONE. These parts, in order, are
 * Mastra's P. */
static jv part_invocation(const struct jdoc *d, jv part)
{
	const char *type = jv_str(d, jv_get(d, part, "type"));
	if (!type || strcmp(type, "tool-invocation") != 0)
		return JV_NONE;
	jv inv = jv_get(d, part, "toolInvocation");
	return jv_is_null(d, inv) ? JV_NONE : inv;
}

/* id is truthy and the truthy toolCallId of one of the parts' invocations.
 * Mastra gathers those ids into a set first; scanning the parts again
 * answers the same without a list of our own. */
static bool id_in_parts(const struct jdoc *d, jv id, jv parts)
{
	if (!jv_truthy(d, id))
		return false;
	JV_EACH(d, parts, part) {
		jv pid = jv_get(d, part_invocation(d, part), "toolCallId");
		if (jv_truthy(d, pid) && id_same(d, pid, id))
			return true;
	}
	return false;
}

/* A legacy invocation is emitted unless a part carries its id. */
static void emit_legacy(struct run *r, size_t msg, jv l, jv parts, long mi, long *out_idx)
{
	const struct jdoc *d = r->doc;
	if (!jv_is_null(d, l) && !id_in_parts(d, jv_get(d, l, "toolCallId"), parts))
		add_invocation(r, msg, l, mi, (*out_idx)++);
}

/* A part run_text_of reads as text: a string, or an object typed text
 * (input_text, output_text) or not typed, with a string text. */
static const char *part_text(const struct jdoc *d, jv part)
{
	if (jv_is_string(d, part))
		return jv_str(d, part);
	const char *ty = jv_str(d, jv_get(d, part, "type"));
	if (ty && strcmp(ty, "text") && strcmp(ty, "input_text") && strcmp(ty, "output_text"))
		return NULL;
	return jv_str(d, jv_get(d, part, "text"));
}

/* A 1.x message's parts can be its parts in order when that leaves its
 * text as Mastra reads it: the text parts, none empty, joined are the
 * message's text (content.content, when it is there, says the same). The
 * calls are the same either way; only where the text sits changes. */
static bool parts_in_order(struct run *r, jv m, const char *text)
{
	const struct jdoc *d = r->doc;
	jv content = jv_get(d, m, "content");
	jv parts = jv_get(d, content, "parts");
	if (!jv_is_object(d, content) || !jv_is_array(d, parts))
		return false;
	JV_EACH(d, parts, part) {
		const char *t = part_text(d, part);
		if (t && !t[0])
			return false;
	}
	return !strcmp(text, run_text_of(r, parts));
}

/* A text or reasoning part in its place among the calls. */
static void add_text_part(struct run *r, size_t msg, jv part)
{
	const struct jdoc *d = r->doc;
	const char *t = part_text(d, part);
	if (t)
		run_add_text(r, msg, t, part);
	else if (jv_streq(d, jv_get(d, part, "type"), "reasoning"))
		run_add_thinking(r, msg, jv_str_or(d, jv_get(d, part, "text"), ""), part);
}

/* Merges content.toolInvocations (L) and tool-invocation parts (P) of one
 * 1.x message the way Mastra does: part versions win, legacy-only calls
 * keep their place between anchors, and leftovers go after all parts.
 * L is walked with a cursor (lcur is L[li]), as li only moves forward. */
static int merge_1x(struct run *r, size_t msg, jv m, long mi, bool ordered, struct error *err)
{
	const struct jdoc *d = r->doc;
	jv content = jv_get(d, m, "content");
	if (!jv_is_object(d, content))
		return 0;
	jv legacy = jv_get(d, content, "toolInvocations");
	jv parts = jv_get(d, content, "parts");
	if (legacy != JV_NONE && !jv_is_array(d, legacy)) {
		error_at(err, ERR_FAILED, "output[%ld].content.toolInvocations: not a list", mi);
		return -1;
	}
	if (parts != JV_NONE && !jv_is_array(d, parts)) {
		error_at(err, ERR_FAILED, "output[%ld].content.parts: not a list", mi);
		return -1;
	}
	/* A null part fails the message before any of its calls is taken. */
	size_t i = 0;
	JV_EACH(d, parts, part) {
		if (jv_is_null(d, part)) {
			error_at(err, ERR_FAILED, "output[%ld].content.parts[%zu]: null part", mi, i);
			return -1;
		}
		i++;
	}
	long out_idx = 0;
	size_t li = 0;
	jv lcur = jv_first(d, legacy);
	JV_EACH(d, parts, part) {
		jv inv = part_invocation(d, part);
		if (inv == JV_NONE) {
			if (ordered)
				add_text_part(r, msg, part);
			continue;
		}
		jv pid = jv_get(d, inv, "toolCallId");
		long s = -1;
		if (jv_truthy(d, pid)) {
			long k = 0;
			JV_EACH(d, legacy, l) {         /* the last twin wins */
				if (id_same(d, jv_get(d, l, "toolCallId"), pid))
					s = k;
				k++;
			}
		}
		if (s >= 0 && (size_t)s >= li) {
			for (; li < (size_t)s; li++, lcur = jv_next(d, legacy, lcur))
				emit_legacy(r, msg, lcur, parts, mi, &out_idx);
			li++;
			lcur = jv_next(d, legacy, lcur);
		}
		add_invocation(r, msg, inv, mi, out_idx++);
	}
	for (; lcur != JV_NONE; lcur = jv_next(d, legacy, lcur))
		emit_legacy(r, msg, lcur, parts, mi, &out_idx);
	return 0;
}

static void calls_0x(struct run *r, size_t msg, jv m, long mi)
{
	const struct jdoc *d = r->doc;
	long i = 0;
	JV_EACH(d, jv_get(d, m, "toolInvocations"), inv) {
		/* A null still uses up its index, as in 0.x. */
		if (!jv_is_null(d, inv))
			add_invocation(r, msg, inv, mi, i);
		i++;
	}
}

/* Calls where the other version keeps them are not Mastra's calls for
 * this run (its scorer does not look there); the note says they were
 * seen, so the run is not taken for one that reads nothing. */
static void note_other_shape(struct run *r, size_t mi, jv m, enum mastra_shape shape)
{
	const struct jdoc *d = r->doc;
	jv content = jv_get(d, m, "content");
	if (shape == MASTRA_1X && (jv_len(d, jv_get(d, m, "toolInvocations")) ||
	                           jv_len(d, jv_get(d, m, "parts"))))
		run_add_note(r, mi, m, "top-level toolInvocations or parts, where 0.x keeps them "
		             "(not read in a 1.x run, as Mastra does not)");
	else if (shape == MASTRA_0X && (jv_len(d, jv_get(d, content, "toolInvocations")) ||
	                                jv_len(d, jv_get(d, content, "parts"))))
		run_add_note(r, mi, m, "content.toolInvocations or content.parts, where 1.x keeps "
		             "them (not read in a 0.x run, as Mastra does not)");
}

static int load_list(struct run *r, jv list, enum msg_origin origin, enum mastra_shape shape,
                     struct error *err)
{
	const struct jdoc *d = r->doc;
	long i = -1;
	JV_EACH(d, list, m) {
		i++;
		if (!jv_is_object(d, m))
			continue;
		bool ok;
		enum run_role role = run_role_parse(jv_str(d, jv_get(d, m, "role")), &ok);
		const char *text = msg_text(r, m);
		bool ordered = shape == MASTRA_1X && parts_in_order(r, m, text);
		size_t mi = run_add_msg(r, role, origin, ordered ? NULL : text, m);
		r->msgs[mi].src_index = i;
		/* Only output messages carry calls Mastra counts; calls inside
		 * input messages are shown but tagged by their origin. */
		if (shape == MASTRA_1X) {
			if (merge_1x(r, mi, m, i, ordered, err) < 0) {
				if (origin == MSG_IN_INPUT) {
					/* Mastra never looks inside input messages;
					 * the text is still the message's. */
					error_clear(err);
					if (ordered)
						run_add_text(r, mi, text, JV_NONE);
					continue;
				}
				return -1;
			}
		} else {
			calls_0x(r, mi, m, i);
		}
		note_other_shape(r, mi, m, shape);
	}
	return 0;
}

static int mastra_load_shape(struct run *r, enum mastra_shape shape, struct error *err)
{
	const struct jdoc *d = r->doc;
	jv rec = run_root(r);
	if (!jv_is_object(d, rec)) {
		error_at(err, ERR_FAILED, "a Mastra run must be a JSON object");
		return -1;
	}
	jv in = mastra_input_messages(d, rec);
	jv out = jv_get(d, rec, "output");
	r->mastra = shape;
	r->mastra_io_empty = mastra_list_empty(d, in) || mastra_list_empty(d, out);
	if (load_list(r, in, MSG_IN_INPUT, shape, err) < 0)
		return -1;
	if (load_list(r, out, MSG_IN_OUTPUT, shape, err) < 0)
		return -1;
	if (jv_is_string(d, out) && jv_strlen(d, out))
		run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, jv_str(d, out), out);
	return 0;
}

static int mastra_load(struct run *r, struct error *err)
{
	return mastra_load_shape(r, mastra_shape_of(r->doc, run_root(r)), err);
}

static int mastra_load_1x(struct run *r, struct error *err)
{
	return mastra_load_shape(r, MASTRA_1X, err);
}

static int mastra_load_0x(struct run *r, struct error *err)
{
	return mastra_load_shape(r, MASTRA_0X, err);
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
