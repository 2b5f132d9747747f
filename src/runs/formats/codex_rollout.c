/* codex_rollout.c - OpenAI Codex CLI rollouts (rollout-*.jsonl): one file
 * is one session, read whole as the array of its lines (UNIT_FILE).
 *
 * Each line is {timestamp, type, payload}. A response_item's payload is a
 * Responses item, read by the openai-responses rules (openai_responses.h):
 * messages, reasoning, function_call (exec_command, write_stdin, the older
 * CLI's "shell" with its argv inside the arguments string),
 * custom_tool_call (apply_patch with its patch as free text),
 * local_shell_call, web_search_call (no call_id, no output: done when its
 * status says so, with no result) and their outputs. session_meta gives
 * the run its id (the session's), turn_context the model; the rest of
 * them, event_msg lines and ghost_snapshot items (the worktree kept for
 * undo) are metadata and are not shown: event_msg repeats what the
 * response items hold (agent_message, user_message, exec_command_end,
 * patch_apply_end, token_count), so nothing is read twice. A few of them
 * are still asked one thing each: exec_command_end's exit code and
 * patch_apply_end's success mark their call failed, which the outputs do
 * not say, and user_message tells the user's own turns from the context
 * the CLI writes as user messages (AGENTS.md, <environment_context>),
 * which are shown as system messages; an error event and an aborted turn,
 * said nowhere else, are notes. A compacted line is the summary
 * that replaced the history before it: a system message.
 *
 * A line that is not JSON (null in the array: a session cut off while it
 * was written), not an object, of a type this loader does not know, or
 * whose item is malformed is a note naming its line; it never rejects the
 * session. A file holding a second session_meta of another session (a
 * resumed or forked session written on) stays one run, with a note where
 * the other session starts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runs/format.h"
#include "runs/loader.h"
#include "util/xalloc.h"
#include "openai_responses.h"
#include "util/error.h"

static const char *const codex_line_types[] = {
	"session_meta", "response_item", "turn_context", "event_msg", "compacted",
	NULL,
};

static bool codex_known_type(const char *ty)
{
	for (size_t i = 0; ty && codex_line_types[i]; i++)
		if (!strcmp(ty, codex_line_types[i]))
			return true;
	return false;
}

/* {type: one of codex_line_types, payload: {...}}: a line only Codex writes. */
static bool codex_is_line(const struct jdoc *d, jv v)
{
	return jv_is_object(d, v) && codex_known_type(jv_str(d, jv_get(d, v, "type"))) &&
	       jv_is_object(d, jv_get(d, v, "payload"));
}

/* A line alone, or the file as the array of its lines: a Codex line, and
 * most of its objects shaped as lines, {type, payload: {...}} (a line
 * type of a later CLI; lines that are not JSON or not objects are the
 * file's too: they become notes). */
static int codex_detect(const struct jdoc *d, jv rec)
{
	if (jv_is_object(d, rec))
		return codex_is_line(d, rec) ? 90 : 0;
	if (!jv_is_array(d, rec))
		return 0;
	size_t known = 0, shaped = 0, objects = 0;
	JV_EACH(d, rec, v) {
		if (!jv_is_object(d, v))
			continue;
		objects++;
		known += codex_is_line(d, v);
		shaped += jv_is_string(d, jv_get(d, v, "type")) && jv_is_object(d, jv_get(d, v, "payload"));
	}
	return known > 0 && 2 * shaped > objects ? 90 : 0;
}

struct codex_ctx {
	const char *session;        /* the first session_meta's id */
	bool have_model;
	jv *turns;                  /* event_msg user_message's messages */
	size_t nturns, turns_cap;
	/* Line numbers: counted through the document's text as it is walked. */
	bool has_lines;
	size_t line_off, line_no;
};

/* The line of the file element i came from: the dataset writes each line
 * of the file on its own line of the document; a document with no line
 * breaks (built in memory) is numbered by position. */
static size_t codex_line_of(const struct run *r, struct codex_ctx *cx, jv v, size_t i)
{
	const struct jdoc *d = r->doc;
	if (!cx->has_lines)
		return i + 1;
	size_t off = d->nodes[v].src;
	for (; cx->line_off < off && cx->line_off < d->src_len; cx->line_off++)
		cx->line_no += d->src[cx->line_off] == '\n';
	return cx->line_no;
}

static void codex_session(struct run *r, struct codex_ctx *cx, jv line, jv p, size_t n)
{
	const struct jdoc *d = r->doc;
	const char *id = jv_strlen(d, jv_get(d, p, "id")) ? jv_str(d, jv_get(d, p, "id")) : NULL;
	if (!id)
		return;
	if (!cx->session) {
		cx->session = id;
		/* unless the runs section named an id of its own */
		if (r->id == r->source)
			r->id = id;
		/* The agent's own instructions are its system prompt (the screen
		 * folds it): a string, or {text} as newer CLIs write it. */
		jv bi = jv_get(d, p, "base_instructions");
		jv text = jv_is_object(d, bi) ? jv_get(d, bi, "text") : bi;
		if (jv_strlen(d, text))
			run_add_msg(r, ROLE_SYSTEM, MSG_IN_OUTPUT, jv_str(d, text), bi);
	} else if (strcmp(cx->session, id) != 0) {
		run_add_note_msg(r, MSG_IN_OUTPUT, line, "line %zu: session %s starts here "
		                 "(read as part of %s)", n, id, cx->session);
	}
}

static void codex_item(struct run *r, jv line, jv p, size_t i, size_t n)
{
	const struct jdoc *d = r->doc;
	if (jv_streq(d, jv_get(d, p, "type"), "ghost_snapshot"))
		return;
	struct error err = {0};
	char path[64];
	snprintf(path, sizeof(path), "line %zu: payload", n);
	if (resp_read_item(r, p, path, i, NULL, &err) < 0)
		run_add_note_msg(r, MSG_IN_OUTPUT, line, "%s", err.msg);
}

static void codex_compacted(struct run *r, jv p)
{
	const struct jdoc *d = r->doc;
	jv summary = jv_get(d, p, "message");
	run_add_msg(r, ROLE_SYSTEM, MSG_IN_OUTPUT,
	            jv_strlen(d, summary) ? jv_str(d, summary) : "(context compacted)", p);
}

/* Events repeat the items, but for what nothing else says: an error the
 * turn ended on, a turn the user interrupted (notes where they happened),
 * and which user messages were the user's own. */
static void codex_event(struct run *r, struct codex_ctx *cx, jv line, jv p, size_t n)
{
	const struct jdoc *d = r->doc;
	jv ty = jv_get(d, p, "type"), message = jv_get(d, p, "message");
	if (jv_streq(d, ty, "user_message")) {
		if (cx->nturns == cx->turns_cap) {
			cx->turns_cap = cx->turns_cap ? 2 * cx->turns_cap : 8;
			cx->turns = xrealloc(cx->turns, cx->turns_cap * sizeof(*cx->turns));
		}
		cx->turns[cx->nturns++] = message;
	} else if (jv_streq(d, ty, "error")) {
		run_add_note_msg(r, MSG_IN_OUTPUT, line, "line %zu: error: %s", n,
		                 jv_str_or(d, message, "(no message)"));
	} else if (jv_streq(d, ty, "turn_aborted")) {
		run_add_note_msg(r, MSG_IN_OUTPUT, line, "line %zu: turn aborted (%s)", n,
		                 jv_str_or(d, jv_get(d, p, "reason"), "no reason given"));
	}
}

static void codex_read_line(struct run *r, struct codex_ctx *cx, jv line, size_t i)
{
	const struct jdoc *d = r->doc;
	size_t n = codex_line_of(r, cx, line, i);
	if (jv_is_null(d, line)) {
		run_add_note_msg(r, MSG_IN_OUTPUT, line, "line %zu: not JSON (not read)", n);
		return;
	}
	if (!jv_is_object(d, line)) {
		run_add_note_msg(r, MSG_IN_OUTPUT, line, "line %zu: not an object (not read)", n);
		return;
	}
	jv type = jv_get(d, line, "type"), p = jv_get(d, line, "payload");
	const char *ty = jv_str(d, type);
	if (!ty) {
		run_add_note_msg(r, MSG_IN_OUTPUT, line, "line %zu: type: %s", n,
		                 type == JV_NONE ? "missing" : "not a string");
		return;
	}
	if (!codex_known_type(ty)) {
		run_add_note_msg(r, MSG_IN_OUTPUT, line, "line %zu: line type \"%s\" (not read)", n, ty);
		return;
	}
	if (!jv_is_object(d, p)) {
		run_add_note_msg(r, MSG_IN_OUTPUT, line, "line %zu: payload: %s", n,
		                 p == JV_NONE ? "missing" : "not an object");
		return;
	}
	if (!strcmp(ty, "response_item")) {
		codex_item(r, line, p, i, n);
	} else if (!strcmp(ty, "session_meta")) {
		codex_session(r, cx, line, p, n);
	} else if (!strcmp(ty, "turn_context")) {
		jv model = jv_get(d, p, "model");
		if (!cx->have_model && jv_strlen(d, model)) {
			r->model = jv_str(d, model);
			cx->have_model = true;
		}
	} else if (!strcmp(ty, "compacted")) {
		codex_compacted(r, p);
	} else if (!strcmp(ty, "event_msg")) {
		codex_event(r, cx, line, p, n);
	}
}


/* ---- what event_msg lines add ------------------------------------------ */

/* Marks the answered call with this id failed. */
static void codex_fail_call(struct run *r, const char *id, const char *why)
{
	for (size_t ci = 0; id && ci < r->ncalls; ci++) {
		struct run_call *c = &r->calls[ci];
		if (!c->id || strcmp(c->id, id) != 0 || !c->has_result)
			continue;
		if (!c->is_error) {
			c->is_error = true;
			c->error_text = why;
			if (c->state != CALL_PARTIAL)
				c->state = CALL_FAILED;
			if (c->result_msg >= 0) {
				r->msgs[c->result_msg].result_is_error = true;
				r->msgs[c->result_msg].result_error_text = why;
			}
		}
		return;
	}
}

/* exec_command_end {call_id, exit_code} and patch_apply_end {call_id,
 * success, stderr}: the outcome the output item does not flag. */
static void codex_outcome(struct run *r, jv p)
{
	const struct jdoc *d = r->doc;
	jv ty = jv_get(d, p, "type");
	const char *id = jv_str(d, jv_get(d, p, "call_id"));
	if (jv_streq(d, ty, "exec_command_end")) {
		jv code = jv_get(d, p, "exit_code");
		if (jv_is_integer(d, code) && jv_int(d, code) != 0)
			codex_fail_call(r, id, arena_printf(&r->arena, "exit code %lld",
			                                    (long long)jv_int(d, code)));
	} else if (jv_streq(d, ty, "patch_apply_end")) {
		jv ok = jv_get(d, p, "success"), stderr_text = jv_get(d, p, "stderr");
		if (jv_is_bool(d, ok) && !jv_truthy(d, ok))
			codex_fail_call(r, id, jv_strlen(d, stderr_text) ? jv_str(d, stderr_text)
			                                                 : "patch not applied");
	}
}

/* Whether text is one of the user's turns the event_msg lines repeat. */
static bool codex_user_turn(const struct run *r, const struct codex_ctx *cx, const char *text)
{
	const struct jdoc *d = r->doc;
	for (size_t k = 0; k < cx->nturns; k++)
		if (jv_strlen(d, cx->turns[k]) && strstr(text, jv_str(d, cx->turns[k])))
			return true;
	return false;
}

static void codex_events(struct run *r, const struct codex_ctx *cx)
{
	const struct jdoc *d = r->doc;
	jv root = run_root(r);
	JV_EACH(d, root, line)
		if (jv_streq(d, jv_get(d, line, "type"), "event_msg"))
			codex_outcome(r, jv_get(d, line, "payload"));
	if (!cx->nturns)
		return;     /* nothing tells the user's turns apart */
	for (size_t mi = 0; mi < r->nmsgs; mi++) {
		struct run_msg *m = &r->msgs[mi];
		if (m->role == ROLE_USER && !m->is_tool_output && m->text[0] &&
		    !codex_user_turn(r, cx, m->text))
			m->role = ROLE_SYSTEM;
	}
}

/* The older CLI's outputs are a JSON string {output, metadata: {exit_code}}:
 * the timeline shows the output, and a non-zero exit code fails the call. */
static void codex_old_outputs(struct run *r)
{
	const struct jdoc *d = r->doc;
	static const char lead[] = "{\"output\":";
	for (size_t mi = 0; mi < r->nmsgs; mi++) {
		struct run_msg *m = &r->msgs[mi];
		const char *s = m->is_tool_output ? jv_str(d, m->result) : NULL;
		if (!s || strncmp(s, lead, sizeof(lead) - 1) != 0)
			continue;
		struct jdoc_error jerr;
		struct jdoc *o = jdoc_parse_str(s, &jerr);
		if (!o)
			continue;
		jv root = jdoc_root(o);
		jv out = jv_get(o, root, "output");
		jv code = jv_get(o, jv_get(o, root, "metadata"), "exit_code");
		if (jv_is_string(o, out) && m->nparts == 1 &&
		    r->parts[m->first_part].kind == PART_TEXT) {
			m->text = arena_strndup(&r->arena, jv_str(o, out), jv_strlen(o, out));
			r->parts[m->first_part].text = m->text;
		}
		if (jv_is_integer(o, code) && jv_int(o, code) != 0 && m->answers_call_id)
			codex_fail_call(r, m->answers_call_id,
			                arena_printf(&r->arena, "exit code %lld", (long long)jv_int(o, code)));
		jdoc_free(o);
	}
}

static int codex_load(struct run *r, struct error *err)
{
	const struct jdoc *d = r->doc;
	jv root = run_root(r);
	if (!jv_is_array(d, root)) {
		error_at(err, ERR_FAILED, "a codex rollout is read as the array of its lines");
		return -1;
	}
	bool any = false;
	JV_EACH(d, root, line)
		any = any || jv_is_object(d, line);
	if (jv_len(d, root) > 0 && !any) {
		/* notes alone would stand for a session there is no sign of */
		error_at(err, ERR_FAILED, "no line of the rollout is a JSON object");
		return -1;
	}
	struct codex_ctx cx = {
		.has_lines = d->src && memchr(d->src, '\n', d->src_len) != NULL,
		.line_no = 1,
	};
	size_t i = 0;
	JV_EACH(d, root, line)
		codex_read_line(r, &cx, line, i++);
	run_join_results(r);
	codex_events(r, &cx);         /* the events' words on a failure come first */
	codex_old_outputs(r);
	free(cx.turns);
	return 0;
}

const struct format_ops format_codex = {
	.name = "codex",
	.summary = "OpenAI Codex CLI rollouts (rollout-*.jsonl): one session per file",
	.detect = codex_detect,
	.unit = UNIT_FILE,
	.load = codex_load,
};
