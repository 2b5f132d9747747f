/* gemini.c - Google Gemini: a generateContent response {candidates:
 * [{content: {role: "model", parts}, finishReason}], modelVersion,
 * usageMetadata} or a history {contents: [{role, parts}],
 * systemInstruction?, tools?}.
 *
 * Parts are untyped objects told apart by their one key: text (with
 * thought: true it is thinking, kept out of the text scorers read),
 * functionCall {name, args, id?}, functionResponse {name, response,
 * id?}, executableCode {language, code} and codeExecutionResult {outcome,
 * output} (the hosted code tool: a call named code_execution and its
 * result), inlineData and fileData (notes); a part of nothing but a
 * thoughtSignature says nothing and is skipped, any other part is a note.
 * A message's parts keep the record's order. Each candidate of a response is one assistant message. In a
 * history, role "model" is the assistant, "user" the human, and
 * functionResponse parts (in a "user", "function" or "tool" turn) each
 * become a tool message, followed by any text beside them.
 *
 * A functionResponse joins its call by id when it has one. Most don't:
 * then it goes to the nearest model turn with an unanswered call of its
 * name, and to the first such call there, so parallel calls of one
 * function are answered in the order they were made. By Gemini's own
 * convention a response holding an "error" member is a failed call. */
#include <stdio.h>
#include <string.h>

#include "runs/format.h"
#include "runs/loader.h"
#include "util/strbuf.h"
#include "util/error.h"

/* Gemini's hosted code execution, shown as a call of this name. */
#define GEM_CODE_CALL "code_execution"

/* ---- detection -------------------------------------------------------------- */

/* A Content object: {parts: [...], role?} and none of the keys of the
 * message formats that also use "parts" (AI SDK and Mastra messages have
 * id and content beside them, and live under "messages"). */
static bool gem_is_content(const struct jdoc *d, jv c)
{
	return jv_is_object(d, c) && jv_is_array(d, jv_get(d, c, "parts")) &&
	       jv_get(d, c, "content") == JV_NONE && jv_get(d, c, "id") == JV_NONE;
}

static int gem_detect(const struct jdoc *d, jv rec)
{
	if (!jv_is_object(d, rec) || jv_get(d, rec, "messages") != JV_NONE)
		return 0;
	jv candidates = jv_get(d, rec, "candidates"), contents = jv_get(d, rec, "contents");
	size_t seen = 0;
	if (jv_is_array(d, candidates)) {
		JV_EACH(d, candidates, c) {
			if (!jv_is_object(d, c))
				return 0;
			jv content = jv_get(d, c, "content");
			/* A candidate blocked for safety has no content at all, and
			 * one cut off by MAX_TOKENS while thinking has a content of
			 * nothing but its role. */
			bool bare = jv_is_object(d, content) && jv_len(d, content) == 1 &&
			            jv_is_string(d, jv_get(d, content, "role"));
			if (content != JV_NONE && !bare && !gem_is_content(d, content))
				return 0;
			seen++;
		}
		return seen ? 50 : 0;
	}
	if (jv_is_array(d, contents)) {
		JV_EACH(d, contents, c) {
			if (!gem_is_content(d, c))
				return 0;
			seen++;
		}
		return seen ? 45 : 0;
	}
	return 0;
}

/* ---- loading ------------------------------------------------------------------ */

/* A part's members. */
struct gem_part {
	jv text, thought, call, response, code, code_result, inline_data, file_data;
};

static void gem_part_fields(const struct jdoc *d, jv p, struct gem_part *f)
{
	*f = (struct gem_part){ JV_NONE, JV_NONE, JV_NONE, JV_NONE,
	                        JV_NONE, JV_NONE, JV_NONE, JV_NONE };
	JV_EACH_KEY(d, p, k) {
		if (jv_streq(d, k, "text"))
			f->text = jv_value(k);
		else if (jv_streq(d, k, "thought"))
			f->thought = jv_value(k);
		else if (jv_streq(d, k, "functionCall"))
			f->call = jv_value(k);
		else if (jv_streq(d, k, "functionResponse"))
			f->response = jv_value(k);
		else if (jv_streq(d, k, "executableCode"))
			f->code = jv_value(k);
		else if (jv_streq(d, k, "codeExecutionResult"))
			f->code_result = jv_value(k);
		else if (jv_streq(d, k, "inlineData"))
			f->inline_data = jv_value(k);
		else if (jv_streq(d, k, "fileData"))
			f->file_data = jv_value(k);
	}
}

/* Checks every part of a content (at path, "contents[2]") before anything
 * is added, and counts its function calls and responses. */
static int gem_check_parts(const struct run *r, jv parts, const char *path, size_t *ncalls,
                           size_t *nresponses, struct error *err)
{
	const struct jdoc *d = r->doc;
	size_t k = 0;
	*ncalls = *nresponses = 0;
	JV_EACH(d, parts, p) {
		char ppath[192];
		snprintf(ppath, sizeof(ppath), "%s.parts[%zu]", path, k++);
		if (!jv_is_object(d, p)) {
			error_at(err, ERR_FAILED, "%s: not an object", ppath);
			return -1;
		}
		struct gem_part f;
		gem_part_fields(d, p, &f);
		if (f.text != JV_NONE && !jv_is_string(d, f.text)) {
			error_at(err, ERR_FAILED, "%s.text: not a string", ppath);
			return -1;
		}
		jv fn = f.call != JV_NONE ? f.call : f.response;
		const char *what = f.call != JV_NONE ? "functionCall" : "functionResponse";
		if (fn == JV_NONE)
			continue;
		char fpath[224];
		snprintf(fpath, sizeof(fpath), "%s.%s", ppath, what);
		if (!jv_is_object(d, fn)) {
			error_at(err, ERR_FAILED, "%s: not an object", fpath);
			return -1;
		}
		jv name, id;
		if (loader_opt_string(r, fn, "name", fpath, &name, err) < 0 ||
		    loader_opt_string(r, fn, "id", fpath, &id, err) < 0)
			return -1;
		if (f.call != JV_NONE) {
			jv args = jv_get(d, fn, "args");
			enum jv_type t = jv_type(d, args);
			if (t != JV_MISSING && t != JV_NULL && t != JV_OBJECT) {
				error_at(err, ERR_FAILED, "%s.args: not an object", fpath);
				return -1;
			}
			(*ncalls)++;
		} else {
			(*nresponses)++;
		}
	}
	return 0;
}

/* The text parts that are not thinking, one per line. */
static const char *gem_text(struct run *r, jv parts)
{
	const struct jdoc *d = r->doc;
	struct strbuf sb = STRBUF_INIT;
	const char *only = NULL;
	size_t n = 0;
	JV_EACH(d, parts, p) {
		struct gem_part f;
		gem_part_fields(d, p, &f);
		if (!jv_is_string(d, f.text) || jv_type(d, f.thought) == JV_TRUE)
			continue;
		if (n++ == 0) {
			only = jv_str(d, f.text);
			continue;
		}
		if (n == 2)
			strbuf_addstr(&sb, only);
		strbuf_addch(&sb, '\n');
		strbuf_addstr(&sb, jv_str(d, f.text));
	}
	if (n < 2)
		return only ? only : "";
	const char *out = run_strdup(r, sb.buf);
	strbuf_release(&sb);
	return out;
}

/* One functionResponse part as a tool message. */
static void gem_response(struct run *r, jv part, jv fr, size_t src)
{
	const struct jdoc *d = r->doc;
	jv response = jv_get(d, fr, "response");
	size_t mi = run_add_msg(r, ROLE_TOOL, MSG_IN_OUTPUT, "", part);
	r->msgs[mi].src_index = (long)src;
	struct run_msg *m = loader_tool_output(r, mi, loader_id(r, jv_get(d, fr, "id")), response);
	jv error = jv_get(d, response, "error");
	if (error != JV_NONE && !jv_is_null(d, error)) {
		const char *t = jv_str(d, error);
		if (!t)
			t = loader_str(r, jv_get(d, error, "message"), NULL);
		loader_mark_failed(m, t);
	}
}

/* A codeExecutionResult answers the newest code run of the message that
 * has none yet; an outcome other than OUTCOME_OK is a failure. */
static void gem_code_result(struct run *r, size_t mi, jv p, jv res)
{
	const struct jdoc *d = r->doc;
	struct run_msg *m = &r->msgs[mi];
	for (size_t k = m->ncalls; k-- > 0;) {
		struct run_call *c = &r->calls[m->first_call + k];
		if (c->has_result || strcmp(c->name, GEM_CODE_CALL) != 0)
			continue;
		const char *outcome = loader_str(r, jv_get(d, res, "outcome"), "OUTCOME_OK");
		bool failed = strcmp(outcome, "OUTCOME_OK") != 0;
		const char *out = loader_str(r, jv_get(d, res, "output"), "");
		run_set_result(c, res, failed, failed ? (out[0] ? out : outcome) : NULL, -1);
		return;
	}
	run_add_note(r, mi, p, "code execution result with no code run before it");
}

/* One part of the message, in the record's order: text, thinking (a text
 * with thought: true), a call, a code run (Gemini's hosted code execution,
 * a call named code_execution whose input is the code) and its result;
 * data and files, and parts this loader does not know, as notes. */
static void gem_add_part(struct run *r, size_t mi, jv p, enum run_role role, size_t i)
{
	const struct jdoc *d = r->doc;
	struct gem_part f;
	gem_part_fields(d, p, &f);
	if (f.response != JV_NONE)
		return;                 /* a tool message of its own, added before */
	if (jv_is_string(d, f.text) && jv_type(d, f.thought) == JV_TRUE) {
		run_add_thinking(r, mi, jv_str(d, f.text), p);
	} else if (jv_is_string(d, f.text)) {
		run_add_text(r, mi, jv_str(d, f.text), p);
	} else if (f.call != JV_NONE || f.code != JV_NONE) {
		jv fc = f.call;
		struct run_call *call = loader_add_call(r, mi, jv_get(d, fc, "id"), jv_get(d, fc, "name"),
		                                        fc != JV_NONE ? jv_get(d, fc, "args") : f.code,
		                                        (long)i);
		call->id = loader_id(r, call->raw_id);
		call->requestor = role == ROLE_USER ? REQ_USER : REQ_AGENT;
		if (fc == JV_NONE)
			call->name = GEM_CODE_CALL;
	} else if (f.code_result != JV_NONE) {
		gem_code_result(r, mi, p, f.code_result);
	} else if (f.inline_data != JV_NONE || f.file_data != JV_NONE) {
		jv data = f.inline_data != JV_NONE ? f.inline_data : f.file_data;
		run_add_note(r, mi, p, "%s %s", f.inline_data != JV_NONE ? "inline data" : "file",
		             loader_str(r, jv_get(d, data, "mimeType"), ""));
	} else if (jv_get(d, p, "thoughtSignature") == JV_NONE || jv_len(d, p) > 1) {
		run_add_note(r, mi, p, "a part with no text, call or data (not read)");
	}
}

/* Content i of a list (or candidate i), at path, as role: its function
 * responses as tool messages (first, as they answer the previous turn),
 * then its other parts, in order, as one message. */
static int gem_load_content(struct run *r, jv c, enum run_role role, const char *path,
                            size_t i, struct error *err)
{
	const struct jdoc *d = r->doc;
	jv parts;
	if (loader_opt_array(r, c, "parts", path, "not an array", &parts, err) < 0)
		return -1;
	size_t ncalls, nresponses;
	if (gem_check_parts(r, parts, path, &ncalls, &nresponses, err) < 0)
		return -1;
	JV_EACH(d, parts, p) {
		jv fr = jv_get(d, p, "functionResponse");
		if (fr != JV_NONE)
			gem_response(r, p, fr, i);
	}
	/* A turn of nothing but function responses says nothing else. */
	if (nresponses && nresponses == jv_len(d, parts))
		return 0;
	if (role == ROLE_TOOL)
		role = ROLE_USER;
	size_t mi = run_add_msg(r, role, MSG_IN_OUTPUT, NULL, c);
	r->msgs[mi].src_index = (long)i;
	JV_EACH(d, parts, p)
		gem_add_part(r, mi, p, role, i);
	return 0;
}

/* A history turn's role: Gemini knows only "user" and "model" (older
 * histories "function" for results); anything else is kept as the user's. */
static int gem_role(const struct run *r, jv c, const char *path, enum run_role *role,
                    struct error *err)
{
	jv v;
	if (loader_opt_string(r, c, "role", path, &v, err) < 0)
		return -1;
	const char *s = jv_str(r->doc, v);
	bool known = false;
	*role = ROLE_USER;
	if (!s)
		return 0;
	if (!strcmp(s, "model"))
		*role = ROLE_ASSISTANT;
	else if (!strcmp(s, "function") || !strcmp(s, "tool"))
		*role = ROLE_TOOL;
	else {
		*role = run_role_parse(s, &known);
		if (!known)
			*role = ROLE_USER;
	}
	return 0;
}

static int gem_load_turn(struct run *r, jv c, const char *path, size_t i, void *ctx,
                         struct error *err)
{
	(void)ctx;
	enum run_role role;
	if (gem_role(r, c, path, &role, err) < 0)
		return -1;
	return gem_load_content(r, c, role, path, i, err) < 0 ? -1 : 0;
}

static int gem_load_candidate(struct run *r, jv cand, const char *path, size_t i, void *ctx,
                              struct error *err)
{
	(void)ctx;
	const struct jdoc *d = r->doc;
	char cpath[128];
	snprintf(cpath, sizeof(cpath), "%s.content", path);
	jv content = jv_get(d, cand, "content");
	if (content == JV_NONE || jv_is_null(d, content)) {
		/* Blocked or cut off before any part: still one of the answers. */
		size_t mi = run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, "", cand);
		r->msgs[mi].src_index = (long)i;
		return 0;
	}
	if (!jv_is_object(d, content)) {
		error_at(err, ERR_FAILED, "%s: not an object", cpath);
		return -1;
	}
	return gem_load_content(r, content, ROLE_ASSISTANT, cpath, i, err) < 0 ? -1 : 0;
}

/* A functionResponse names its tool by "name". */
static const char *gem_result_name(const struct run *r, const struct run_msg *m)
{
	return jv_str(r->doc, jv_get(r->doc, jv_get(r->doc, m->raw, "functionResponse"), "name"));
}

static int gem_load(struct run *r, struct error *err)
{
	const struct jdoc *d = r->doc;
	jv rec = run_root(r);
	if (!jv_is_object(d, rec)) {
		error_at(err, ERR_FAILED, "a gemini record must be an object");
		return -1;
	}
	r->model = loader_str(r, jv_get(d, rec, "modelVersion"), NULL);
	if (!r->model)
		r->model = loader_model(r, rec);
	if (jv_get(d, rec, "candidates") != JV_NONE) {
		jv candidates;
		if (loader_array(r, rec, "candidates", &candidates, err) < 0)
			return -1;
		return loader_each(r, candidates, "candidates", gem_load_candidate, NULL, err) < 0 ? -1 : 0;
	}
	jv contents;
	if (loader_array(r, rec, "contents", &contents, err) < 0)
		return -1;
	jv sys = jv_get(d, rec, "systemInstruction");
	if (jv_is_string(d, sys)) {
		run_add_msg(r, ROLE_SYSTEM, MSG_IN_OUTPUT, jv_str(d, sys), sys);
	} else if (jv_is_object(d, sys)) {
		jv parts;
		size_t nc, nr;
		if (loader_opt_array(r, sys, "parts", "systemInstruction", "not an array", &parts, err) < 0 ||
		    gem_check_parts(r, parts, "systemInstruction", &nc, &nr, err) < 0)
			return -1;
		run_add_msg(r, ROLE_SYSTEM, MSG_IN_OUTPUT, gem_text(r, parts), sys);
	} else if (sys != JV_NONE && !jv_is_null(d, sys)) {
		error_at(err, ERR_FAILED, "systemInstruction: not an object");
		return -1;
	}
	loader_tools(r, rec);
	if (loader_each(r, contents, "contents", gem_load_turn, NULL, err) < 0)
		return -1;
	run_join_results(r);
	/* Results with an id were joined by run_join_results; the rest by name. */
	loader_join_by_name(r, gem_result_name);
	return 0;
}

const struct format_ops format_gemini = {
	.name = "gemini",
	.summary = "Gemini generateContent {candidates} or history {contents, systemInstruction?}",
	.detect = gem_detect,
	.load = gem_load,
};
