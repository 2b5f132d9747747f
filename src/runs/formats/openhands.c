/* openhands.c - OpenHands event streams: a JSON array of events, one run.
 *
 * Every event is {id, timestamp, source: agent|user|environment, message,
 * ...} and is either an action {action, args, tool_call_metadata?} or an
 * observation {observation, cause, content, extras}. An action the agent
 * takes (run, run_ipython, read, edit, write, browse, think, delegate,
 * mcp, ...) is a call: named by tool_call_metadata.function_name (the tool
 * the model called) else by the action, its args the arguments, its
 * args.thought the text the model wrote with it. An observation whose
 * `cause` is such an action's id is that call's result; an "error"
 * observation fails it. The events have ids, so calls and results are
 * linked by cause, not by tool_call_id (which older streams lack).
 *
 * message actions are the user's and the agent's turns; finish is the
 * agent's last word; system (the prompt, with the tools) a system message.
 * Agent-state changes, "null" observations (an action that has none) and
 * recalls are metadata and skipped; anything else is kept as a note.
 *
 * The events are one run: `.unit = UNIT_FILE`, so a .json array is not cut
 * into elements and a JSONL file of events is read as the array of its
 * lines. Evaluation outputs {instance_id, history: [events], ...} are read
 * too, one run each (split), as is a lone event. */
#include <stdio.h>
#include <string.h>

#include "runs/format.h"
#include "runs/loader.h"
#include "util/xalloc.h"
#include "util/error.h"

/* ---- detection and splitting -------------------------------------------- */

static bool oh_is_event(const struct jdoc *d, jv e)
{
	if (!jv_is_object(d, e) || !jv_is_number(d, jv_get(d, e, "id")))
		return false;
	jv src = jv_get(d, e, "source");
	if (!jv_streq(d, src, "agent") && !jv_streq(d, src, "user") &&
	    !jv_streq(d, src, "environment"))
		return false;
	return jv_is_string(d, jv_get(d, e, "action")) || jv_is_string(d, jv_get(d, e, "observation"));
}

static jv oh_first_object(const struct jdoc *d, jv arr)
{
	JV_EACH(d, arr, e)
		if (jv_is_object(d, e))
			return e;
	return JV_NONE;
}

/* An array whose first object is an event (a stream may start with
 * anything the loader will keep as a note). */
static bool oh_is_stream(const struct jdoc *d, jv arr)
{
	return jv_is_array(d, arr) && oh_is_event(d, oh_first_object(d, arr));
}

/* An evaluation output: the events under history, an instance beside. */
static bool oh_is_output(const struct jdoc *d, jv rec)
{
	return jv_is_object(d, rec) && oh_is_stream(d, jv_get(d, rec, "history"));
}

static int oh_detect(const struct jdoc *d, jv rec)
{
	if (oh_is_stream(d, rec))
		return 90;
	if (oh_is_output(d, rec))
		return 85;
	return oh_is_event(d, rec) ? 80 : 0;
}

/* A stream, an output or an event is one run; an array of outputs (a JSONL
 * file of them, read as the array of its lines) is one run per output. */
static void oh_split(const struct jdoc *d, jv root, struct doc_groups *out)
{
	if (jv_is_array(d, root) && !oh_is_stream(d, root)) {
		JV_EACH(d, root, rec) {
			doc_group_begin(out);
			doc_group_add(out, rec);
		}
		return;
	}
	doc_group_begin(out);
	doc_group_add(out, root);
}

/* ---- actions -------------------------------------------------------------- */

struct oh_link {
	int64_t event;          /* the action's id */
	size_t call;            /* its call in r->calls */
};

struct oh_ctx {
	struct oh_link *links;
	size_t nlinks, cap;
};

static void oh_link_add(struct oh_ctx *c, int64_t event, size_t call)
{
	if (c->nlinks == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 32;
		c->links = xrealloc(c->links, c->cap * sizeof(*c->links));
	}
	c->links[c->nlinks++] = (struct oh_link){ event, call };
}

/* The call the action with this id became, or -1; the latest first, as a
 * result follows its action closely. */
static long oh_link_find(const struct oh_ctx *c, int64_t event)
{
	for (size_t i = c->nlinks; i-- > 0;)
		if (c->links[i].event == event)
			return (long)c->links[i].call;
	return -1;
}

/* args.KEY when it is a non-empty string. */
static const char *oh_arg(const struct jdoc *d, jv args, const char *key)
{
	const char *s = jv_str(d, jv_get(d, args, key));
	return s && s[0] ? s : NULL;
}

/* A message action: the user's or the agent's turn. */
static void oh_message(struct run *r, jv e, jv args, const char *source, size_t i)
{
	const struct jdoc *d = r->doc;
	const char *text = oh_arg(d, args, "content");
	if (!text)
		text = loader_str(r, jv_get(d, e, "message"), "");
	size_t mi;
	if (!strcmp(source, "user") || !strcmp(source, "agent"))
		mi = run_add_msg(r, !strcmp(source, "user") ? ROLE_USER : ROLE_ASSISTANT, MSG_IN_OUTPUT,
		                 text, e);
	else
		mi = run_add_note_msg(r, MSG_IN_OUTPUT, e, "%s message: %s", source, text);
	r->msgs[mi].src_index = (long)i;
	jv images = jv_get(d, args, "image_urls");
	if (jv_len(d, images) && r->msgs[mi].role != ROLE_NOTE)
		run_add_note(r, mi, images, "%zu image(s) attached (not shown)", jv_len(d, images));
}

/* The model that answered, from the first action that says. */
static void oh_model(struct run *r, jv meta)
{
	const struct jdoc *d = r->doc;
	const char *m = jv_str(d, jv_get(d, jv_get(d, meta, "model_response"), "model"));
	if (!r->model && m && m[0])
		r->model = m;
}

/* An action the agent took with a tool: its thought, then its call. */
static void oh_call(struct run *r, struct oh_ctx *c, jv e, jv args, const char *action, size_t i)
{
	const struct jdoc *d = r->doc;
	jv meta = jv_get(d, e, "tool_call_metadata");
	size_t mi = run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, oh_arg(d, args, "thought"), e);
	r->msgs[mi].src_index = (long)i;
	jv fname = jv_get(d, meta, "function_name");
	jv id = jv_get(d, meta, "tool_call_id");
	struct run_call *call = loader_add_call(r, mi, jv_is_string(d, id) ? id : JV_NONE,
	                                        JV_NONE, args, (long)i);
	call->name = jv_is_string(d, fname) && jv_strlen(d, fname) ? jv_str(d, fname) : action;
	call->raw_name = jv_is_string(d, fname) ? fname : jv_get(d, e, "action");
	oh_model(r, meta);
	jv eid = jv_get(d, e, "id");
	if (jv_is_integer(d, eid))
		oh_link_add(c, jv_int(d, eid), r->ncalls - 1);
}

static int oh_action(struct run *r, struct oh_ctx *c, jv e, const char *path, size_t i,
                     struct error *err)
{
	const struct jdoc *d = r->doc;
	const char *action = jv_str(d, jv_get(d, e, "action"));
	const char *source = loader_str(r, jv_get(d, e, "source"), "");
	jv args = jv_get(d, e, "args");
	if (args != JV_NONE && !jv_is_object(d, args) && !jv_is_null(d, args)) {
		error_at(err, ERR_FAILED, "%s.args: not an object", path);
		return -1;
	}
	if (!strcmp(action, "change_agent_state") || !strcmp(action, "recall"))
		return 0;
	if (!strcmp(action, "message")) {
		oh_message(r, e, args, source, i);
	} else if (!strcmp(action, "system")) {
		size_t mi = run_add_msg(r, ROLE_SYSTEM, MSG_IN_OUTPUT, oh_arg(d, args, "content"), e);
		r->msgs[mi].src_index = (long)i;
		if (jv_is_array(d, jv_get(d, args, "tools")))
			r->tool_defs = jv_get(d, args, "tools");
	} else if (!strcmp(action, "finish")) {
		const char *text = oh_arg(d, args, "final_thought");
		if (!text)
			text = jv_str(d, jv_get(d, e, "message"));
		if (!text || !text[0])
			text = oh_arg(d, args, "thought");
		size_t mi = run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, text, e);
		r->msgs[mi].src_index = (long)i;
	} else if (!strcmp(source, "agent")) {
		oh_call(r, c, e, args, action, i);
	} else {
		size_t mi = run_add_note_msg(r, MSG_IN_OUTPUT, e, "%s action \"%s\" (not read)",
		                             source[0] ? source : "unknown source", action);
		r->msgs[mi].src_index = (long)i;
	}
	return 0;
}

/* ---- observations ----------------------------------------------------------- */

static void oh_observation(struct run *r, struct oh_ctx *c, jv e, const char *obs, size_t i)
{
	const struct jdoc *d = r->doc;
	if (!strcmp(obs, "agent_state_changed") || !strcmp(obs, "null") || !strcmp(obs, "recall"))
		return;
	jv content = jv_get(d, e, "content");
	const char *text = jv_str(d, content);
	if (!text || !text[0])
		text = loader_str(r, jv_get(d, e, "message"), "");
	jv cause = jv_get(d, e, "cause");
	long ci = jv_is_integer(d, cause) ? oh_link_find(c, jv_int(d, cause)) : -1;
	bool error = !strcmp(obs, "error");
	if (ci < 0 || r->calls[ci].has_result) {
		size_t mi = error ? run_add_note_msg(r, MSG_IN_OUTPUT, e, "error: %s", text)
		                  : run_add_note_msg(r, MSG_IN_OUTPUT, e, "observation \"%s\": %s", obs, text);
		r->msgs[mi].src_index = (long)i;
		return;
	}
	size_t mi = run_add_msg(r, ROLE_TOOL, MSG_IN_OUTPUT, text, e);
	r->msgs[mi].src_index = (long)i;
	struct run_msg *m = loader_tool_output(r, mi, r->calls[ci].id, content);
	if (error)
		loader_mark_failed(m, text);
	run_set_result(&r->calls[ci], content, m->result_is_error, m->result_error_text, (long)mi);
}

static int oh_event(struct run *r, jv e, const char *path, size_t i, void *ctx, struct error *err)
{
	struct oh_ctx *c = ctx;
	const struct jdoc *d = r->doc;
	jv action = jv_get(d, e, "action"), obs = jv_get(d, e, "observation");
	if (action != JV_NONE && !jv_is_string(d, action)) {
		error_at(err, ERR_FAILED, "%s.action: not a string", path);
		return -1;
	}
	if (obs != JV_NONE && !jv_is_string(d, obs)) {
		error_at(err, ERR_FAILED, "%s.observation: not a string", path);
		return -1;
	}
	if (action != JV_NONE)
		return oh_action(r, c, e, path, i, err);
	if (obs != JV_NONE) {
		oh_observation(r, c, e, jv_str(d, obs), i);
		return 0;
	}
	size_t mi = run_add_note_msg(r, MSG_IN_OUTPUT, e, "event with no action or observation (not read)");
	r->msgs[mi].src_index = (long)i;
	return 0;
}

/* Elements that are not objects are kept as notes rather than refused: a
 * JSONL line that was not JSON is null here. */
static int oh_events(struct run *r, jv list, const char *where, struct error *err)
{
	const struct jdoc *d = r->doc;
	struct oh_ctx c = { 0 };
	size_t i = 0;
	int rc = 0;
	JV_EACH(d, list, e) {
		char path[64];
		snprintf(path, sizeof path, "%s[%zu]", where, i);
		if (!jv_is_object(d, e)) {
			size_t mi = run_add_note_msg(r, MSG_IN_OUTPUT, e, "%s: not an event (not read)", path);
			r->msgs[mi].src_index = (long)i;
		} else if ((rc = oh_event(r, e, path, i, &c, err)) < 0) {
			break;
		}
		i++;
	}
	free(c.links);
	return rc;
}

static int oh_load(struct run *r, struct error *err)
{
	const struct jdoc *d = r->doc;
	jv rec = run_root(r);
	/* lines that are not JSON are kept as notes, but a stream has events */
	if (jv_is_array(d, rec) && (jv_len(d, rec) == 0 || oh_first_object(d, rec) != JV_NONE))
		return oh_events(r, rec, "", err);
	if (!jv_is_object(d, rec)) {
		error_at(err, ERR_FAILED, "an OpenHands event stream must be a JSON array of events");
		return -1;
	}
	jv hist = jv_get(d, rec, "history");
	if (hist == JV_NONE && (jv_get(d, rec, "action") != JV_NONE ||
	                        jv_get(d, rec, "observation") != JV_NONE)) {
		/* a lone event: the stream of one */
		struct oh_ctx c = { 0 };
		int rc = oh_event(r, rec, "", 0, &c, err);
		free(c.links);
		return rc;
	}
	if (!jv_is_array(d, hist)) {
		error_at(err, hist == JV_NONE ? ERR_MISSING : ERR_FAILED, "history: %s", hist == JV_NONE ? "missing" : "not an array");
		return -1;
	}
	const char *instance = jv_str(d, jv_get(d, rec, "instance_id"));
	/* an id the record did not give is its place in the file */
	if ((!r->id || r->id == r->source) && instance && instance[0])
		r->id = instance;
	return oh_events(r, hist, "history", err);
}

const struct format_ops format_openhands = {
	.name = "openhands",
	.summary = "OpenHands event streams [{id, source, action|observation, args, cause}] (one run a file)",
	.detect = oh_detect,
	.unit = UNIT_FILE,
	.split = oh_split,
	.load = oh_load,
};
