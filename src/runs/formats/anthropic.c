/* anthropic.c - Anthropic Messages conversations: {system?, messages,
 * model?, tools?} (or a bare array of messages) with content blocks.
 *
 * Calls are tool_use blocks (and server_tool_use / mcp_tool_use) in
 * assistant content. Their results are tool_result blocks in the following
 * user message, linked by tool_use_id; server tools put a *_tool_result
 * block beside the call in the same assistant message instead. A server
 * result fails its call when it says so: an *_error content, is_error, or
 * a code execution's non-zero return_code (loader_server_tool_error).
 *
 * A user message made of tool_result blocks is tool output, not a human
 * turn: each block becomes its own ROLE_TOOL message (raw = the block), and
 * any text or images beside them become a user message after them.
 * A message's blocks become its parts in their order (a summary stays
 * after the calls it sums up): text, thinking (left out of the text
 * scorers read), calls, and a note for any block this loader does not
 * read (images and documents say their media type).
 *
 * anthropic-message, at the end, reads one API response (a single
 * assistant message) with the same block rules. */
#include <stdio.h>
#include <string.h>

#include "runs/format.h"
#include "runs/loader.h"
#include "util/error.h"

static bool anth_is_call(const char *ty)
{
	return !strcmp(ty, "tool_use") || !strcmp(ty, "server_tool_use") ||
	       !strcmp(ty, "mcp_tool_use");
}

/* Blocks no other format writes inside a message's content. */
static bool anth_specific_block(const char *ty)
{
	return anth_is_call(ty) || loader_ends_with(ty, "tool_result") ||
	       !strcmp(ty, "thinking") || !strcmp(ty, "redacted_thinking");
}

static int anth_detect(const struct jdoc *d, jv rec)
{
	jv list = rec, sys = JV_NONE;
	if (jv_is_object(d, rec)) {
		bool query = false, response = false;
		list = JV_NONE;
		JV_EACH_KEY(d, rec, k) {
			if (jv_streq(d, k, "messages"))
				list = jv_value(k);
			else if (jv_streq(d, k, "system"))
				sys = jv_value(k);
			else if (jv_streq(d, k, "query"))
				query = true;
			else if (jv_streq(d, k, "response"))
				response = true;
			else if (jv_streq(d, k, "reward_info") || jv_streq(d, k, "termination_reason") ||
			         jv_streq(d, k, "traj") || jv_streq(d, k, "inputMessages") ||
			         jv_streq(d, k, "output"))
				return 0;
		}
		if (query && response)
			return 0;
	}
	if (!jv_is_array(d, list))
		return 0;
	bool specific = false, seen = false;
	JV_EACH(d, list, m) {
		if (!jv_is_object(d, m))
			continue;
		jv role = JV_NONE, content = JV_NONE;
		bool parts = false, openai = false;
		JV_EACH_KEY(d, m, k) {
			if (jv_streq(d, k, "role"))
				role = jv_value(k);
			else if (jv_streq(d, k, "content"))
				content = jv_value(k);
			else if (jv_streq(d, k, "parts"))
				parts = true;
			else if (jv_streq(d, k, "tool_calls") || jv_streq(d, k, "tool_call_id") ||
			         jv_streq(d, k, "function_call") || jv_streq(d, k, "toolInvocations"))
				openai = true;
		}
		const char *role_name = jv_str(d, role);
		if (!role_name)
			return 0;
		/* OpenAI, AI SDK and Mastra messages. A "type" key proves
		 * nothing: API responses are {type: "message", role, content}. */
		if (!strcmp(role_name, "tool") || !strcmp(role_name, "function") || openai ||
		    jv_is_object(d, content) || (content == JV_NONE && parts))
			return 0;
		seen = true;
		if (specific)
			continue;
		JV_EACH(d, content, b) {
			const char *ty = jv_str(d, jv_get(d, b, "type"));
			if (ty && anth_specific_block(ty))
				specific = true;
		}
	}
	if (specific)
		return 60;
	if (seen && (jv_is_string(d, sys) || jv_is_array(d, sys)))
		return 45;
	return 0;
}

/* Checks a content list before anything is added, so a failed load never
 * leaves half a message behind. Counts its tool_result blocks. cpath is
 * the list's own path ("messages[2].content", or "content" for a single
 * message). */
static int anth_check_blocks(const struct jdoc *d, jv content, const char *cpath,
                             size_t *nresults, struct error *err)
{
	size_t k = 0;
	*nresults = 0;
	JV_EACH(d, content, b) {
		if (!jv_is_object(d, b)) {
			error_at(err, ERR_FAILED, "%s[%zu]: not an object", cpath, k);
			return -1;
		}
		jv type = JV_NONE, rc = JV_NONE;
		JV_EACH_KEY(d, b, key) {
			if (jv_streq(d, key, "type"))
				type = jv_value(key);
			else if (jv_streq(d, key, "content"))
				rc = jv_value(key);
		}
		const char *ty = jv_str(d, type);
		if (!ty) {
			error_at(err, type != JV_NONE ? ERR_FAILED : ERR_MISSING, "%s[%zu].type: %s", cpath, k,
			         type != JV_NONE ? "not a string" : "missing");
			return -1;
		}
		if (!strcmp(ty, "tool_result")) {
			enum jv_type t = jv_type(d, rc);
			if (t != JV_MISSING && t != JV_NULL && t != JV_STRING && t != JV_ARRAY) {
				error_at(err, ERR_FAILED, "%s[%zu].content: not a string or a list",
				         cpath, k);
				return -1;
			}
			(*nresults)++;
		}
		k++;
	}
	return 0;
}

/* A block's members, read in one pass. */
struct anth_block {
	jv type, id, name, input, content, tool_use_id, is_error;
};

static void anth_block_fields(const struct jdoc *d, jv b, struct anth_block *f)
{
	*f = (struct anth_block){ JV_NONE, JV_NONE, JV_NONE, JV_NONE, JV_NONE, JV_NONE, JV_NONE };
	JV_EACH_KEY(d, b, k) {
		jv v = jv_value(k);
		if (jv_streq(d, k, "type"))
			f->type = v;
		else if (jv_streq(d, k, "id"))
			f->id = v;
		else if (jv_streq(d, k, "name"))
			f->name = v;
		else if (jv_streq(d, k, "input"))
			f->input = v;
		else if (jv_streq(d, k, "content"))
			f->content = v;
		else if (jv_streq(d, k, "tool_use_id"))
			f->tool_use_id = v;
		else if (jv_streq(d, k, "is_error"))
			f->is_error = v;
	}
}

/* One tool_result block as its own tool message. */
static void anth_tool_result(struct run *r, jv b, const struct anth_block *f, size_t src)
{
	const char *text = run_text_of(r, f->content);
	size_t mi = run_add_msg(r, ROLE_TOOL, MSG_IN_OUTPUT, text, b);
	r->msgs[mi].src_index = (long)src;
	const char *id = loader_id(r, f->tool_use_id);
	struct run_msg *m = loader_tool_output(r, mi, id, f->content);
	/* An error with no text still needs something to show: "error". */
	if (jv_type(r->doc, f->is_error) == JV_TRUE)
		loader_mark_failed(m, text);
}

/* A server tool's result sits beside its call; an error is a content
 * object typed *_error with an error_code, or is_error on MCP results. */
static void anth_server_result(struct run *r, jv b, const struct anth_block *f, size_t src)
{
	const char *id = loader_id(r, f->tool_use_id);
	jv content = f->content;
	const char *error_text = NULL;
	bool is_error = loader_server_tool_error(r, content, f->is_error, &error_text);
	for (size_t ci = r->ncalls; id && ci-- > 0;) {
		struct run_call *c = &r->calls[ci];
		if (c->id && !c->has_result && !strcmp(c->id, id)) {
			run_set_result(c, content, is_error, error_text, -1);
			return;
		}
	}
	/* No call for it: keep it on screen as an unanswered result. */
	size_t mi = run_add_msg(r, ROLE_TOOL, MSG_IN_OUTPUT, run_text_of(r, content), b);
	r->msgs[mi].src_index = (long)src;
	struct run_msg *m = loader_tool_output(r, mi, id, content);
	m->result_is_error = is_error;
	m->result_error_text = error_text;
	m->unmatched_result = true;
}

/* A server tool's *_tool_result block, not the client's tool_result. */
static bool anth_is_server_result(const char *ty)
{
	return loader_ends_with(ty, "tool_result") && strcmp(ty, "tool_result") != 0;
}

/* A text block: the only blocks read into msg->text (as run_text_of read
 * them, so scorers see what they saw before parts). */
static bool anth_is_text(const char *ty)
{
	return !strcmp(ty, "text") || !strcmp(ty, "input_text") || !strcmp(ty, "output_text");
}

static void anth_add_call(struct run *r, size_t mi, jv b, enum run_role role, size_t src)
{
	struct anth_block f;
	anth_block_fields(r->doc, b, &f);
	struct run_call *c = run_add_call(r, mi);
	c->raw_id = f.id;
	c->id = loader_id(r, f.id);
	c->raw_name = f.name;
	c->name = loader_str(r, f.name, "");
	c->src_msg_index = (long)src;
	c->requestor = role == ROLE_USER ? REQ_USER : REQ_AGENT;
	run_call_set_args(r, c, f.input);
}

/* One block of the message body as its part, in the record's order:
 * text, thinking (redacted thinking is thinking that cannot be shown), a
 * call; a server tool's result is its call's, the client's tool_result a
 * message of its own; anything else a note saying what it is. */
static void anth_part(struct run *r, size_t mi, jv b, const char *ty, enum run_role role,
                      size_t src)
{
	const struct jdoc *d = r->doc;
	if (anth_is_text(ty))
		run_add_text(r, mi, loader_str(r, jv_get(d, b, "text"), ""), b);
	else if (!strcmp(ty, "thinking"))
		run_add_thinking(r, mi, loader_str(r, jv_get(d, b, "thinking"), ""), b);
	else if (!strcmp(ty, "redacted_thinking"))
		run_add_thinking(r, mi, "", b);
	else if (anth_is_call(ty))
		anth_add_call(r, mi, b, role, src);
	else if (loader_ends_with(ty, "tool_result"))
		return;
	else if (!strcmp(ty, "image") || !strcmp(ty, "document"))
		run_add_note(r, mi, b, "%s %s", ty,
		             loader_str(r, jv_get(d, jv_get(d, b, "source"), "media_type"), ""));
	else
		run_add_note(r, mi, b, "block type \"%s\" (not read)", ty);
}

/* The message itself: its blocks in order, everything but tool_result. */
static void anth_body(struct run *r, jv m, jv content, enum run_role role, size_t src)
{
	const struct jdoc *d = r->doc;
	size_t mi = run_add_msg(r, role, MSG_IN_OUTPUT, NULL, m);
	r->msgs[mi].src_index = (long)src;
	bool server_results = false;
	JV_EACH(d, content, b) {
		const char *ty = jv_str(d, jv_get(d, b, "type"));
		server_results = server_results || anth_is_server_result(ty);
		anth_part(r, mi, b, ty, role, src);
	}
	/* After every call of the message: a result may come before its call. */
	if (!server_results)
		return;
	JV_EACH(d, content, b) {
		struct anth_block f;
		anth_block_fields(d, b, &f);
		if (anth_is_server_result(jv_str(d, f.type)))
			anth_server_result(r, b, &f, src);
	}
}

/* A message with its role known: its content (at cpath) as a message, its
 * calls and its results. */
static int anth_load_content(struct run *r, jv m, enum run_role role, const char *cpath,
                             size_t i, struct error *err)
{
	const struct jdoc *d = r->doc;
	jv content = jv_get(d, m, "content");
	if (content == JV_NONE || jv_is_null(d, content) || jv_is_string(d, content)) {
		size_t mi = run_add_msg(r, role, MSG_IN_OUTPUT, run_text_of(r, content), m);
		r->msgs[mi].src_index = (long)i;
		return 0;
	}
	if (!jv_is_array(d, content)) {
		error_at(err, ERR_FAILED, "%s: not a string or a list", cpath);
		return -1;
	}
	size_t nresults;
	if (anth_check_blocks(d, content, cpath, &nresults, err) < 0)
		return -1;
	bool has_body = nresults < jv_len(d, content) || nresults == 0;
	/* In a user message the results answer the previous turn and come
	 * first; anywhere else they follow what the message says. */
	bool results_first = role == ROLE_USER;
	if (has_body && !results_first)
		anth_body(r, m, content, role, i);
	if (nresults) {
		JV_EACH(d, content, b) {
			struct anth_block f;
			anth_block_fields(d, b, &f);
			if (jv_streq(d, f.type, "tool_result"))
				anth_tool_result(r, b, &f, i);
		}
	}
	if (has_body && results_first)
		anth_body(r, m, content, role, i);
	return 0;
}

static int anth_load_msg(struct run *r, jv m, const char *path, size_t i, void *ctx,
                         struct error *err)
{
	(void)ctx;
	enum run_role role;
	if (loader_role_unknown(r, m)) {
		loader_note_role(r, m, run_text_of(r, jv_get(r->doc, m, "content")), (long)i);
		return 0;
	}
	if (loader_role(r, m, path, ROLE_ERRORS_SPLIT, &role, err) < 0)
		return -1;
	char cpath[128];
	snprintf(cpath, sizeof(cpath), "%s.content", path);
	return anth_load_content(r, m, role, cpath, i, err);
}

static int anth_load(struct run *r, struct error *err)
{
	const struct jdoc *d = r->doc;
	jv rec = run_root(r);
	jv list;
	const char *where;
	int shape = loader_messages_or_array(r, rec, &list, &where, "an anthropic record must be "
	                                     "an object or an array of messages", err);
	if (shape < 0)
		return -1;
	if (shape == LOADER_OBJECT) {
		jv sys = jv_get(d, rec, "system");
		if (jv_is_array(d, sys)) {
			size_t k = 0;
			JV_EACH(d, sys, b) {
				if (!jv_is_object(d, b) && !jv_is_string(d, b)) {
					error_at(err, ERR_FAILED, "system[%zu]: not an object", k);
					return -1;
				}
				k++;
			}
		} else if (sys != JV_NONE && !jv_is_null(d, sys) && !jv_is_string(d, sys)) {
			error_at(err, ERR_FAILED, "system: not a string or a list");
			return -1;
		}
		if (sys != JV_NONE && !jv_is_null(d, sys))
			run_add_msg(r, ROLE_SYSTEM, MSG_IN_OUTPUT, run_text_of(r, sys), sys);
		loader_tools(r, rec);
		r->model = loader_model(r, rec);
	}
	if (loader_each(r, list, where, anth_load_msg, NULL, err) < 0)
		return -1;
	run_join_results(r);
	return 0;
}

const struct format_ops format_anthropic = {
	.name = "anthropic",
	.summary = "Anthropic Messages {system?, messages, tools?} with tool_use / tool_result blocks",
	.detect = anth_detect,
	.load = anth_load,
};

/* ---- one response: anthropic-message ------------------------------------ */

/* A Messages API response, {id, type: "message", role: "assistant", model,
 * content: [blocks], stop_reason, usage}: one assistant message with its
 * calls, server tools (server_tool_use, named as the API names them) and
 * their *_tool_result blocks beside them. Not the conversation format: a
 * response has no "messages", so the anthropic detector never sees it. */
static int anth_message_detect(const struct jdoc *d, jv rec)
{
	if (!jv_is_object(d, rec))
		return 0;
	jv type = JV_NONE, role = JV_NONE, content = JV_NONE;
	bool stop_reason = false;
	JV_EACH_KEY(d, rec, k) {
		if (jv_streq(d, k, "type"))
			type = jv_value(k);
		else if (jv_streq(d, k, "role"))
			role = jv_value(k);
		else if (jv_streq(d, k, "content"))
			content = jv_value(k);
		else if (jv_streq(d, k, "stop_reason"))
			stop_reason = true;
		else if (jv_streq(d, k, "messages") || jv_streq(d, k, "choices") ||
		         jv_streq(d, k, "candidates") || jv_streq(d, k, "output"))
			return 0;
	}
	if (!jv_streq(d, type, "message") || !jv_streq(d, role, "assistant") ||
	    !jv_is_array(d, content))
		return 0;
	/* An OpenAI Responses message item is {type: message, role, content}
	 * too; stop_reason or a block of Anthropic's own tells them apart. */
	bool specific = false;
	JV_EACH(d, content, b) {
		const char *ty = jv_str(d, jv_get(d, b, "type"));
		if (!ty || !strcmp(ty, "output_text") || !strcmp(ty, "input_text") ||
		    !strcmp(ty, "refusal"))
			return 0;
		specific = specific || anth_specific_block(ty);
	}
	return stop_reason || specific ? 55 : 0;
}

static int anth_message_load(struct run *r, struct error *err)
{
	const struct jdoc *d = r->doc;
	jv rec = run_root(r);
	if (!jv_is_object(d, rec)) {
		error_at(err, ERR_FAILED, "an anthropic-message record must be an object");
		return -1;
	}
	jv role = jv_get(d, rec, "role");
	if (!jv_is_string(d, role)) {
		error_at(err, role == JV_NONE ? ERR_MISSING : ERR_FAILED, "role: %s", role == JV_NONE ? "missing" : "not a string");
		return -1;
	}
	/* A response is the model's turn; a role this loader does not know
	 * is kept as that. */
	bool known = false;
	enum run_role rr = run_role_parse(jv_str(d, role), &known);
	if (!known)
		rr = ROLE_ASSISTANT;
	r->model = loader_model(r, rec);
	if (anth_load_content(r, rec, rr, "content", 0, err) < 0)
		return -1;
	run_join_results(r);
	return 0;
}

const struct format_ops format_anthropic_message = {
	.name = "anthropic-message",
	.summary = "one Anthropic Messages response {type: message, role, content: [blocks], stop_reason}",
	.detect = anth_message_detect,
	.load = anth_message_load,
};
