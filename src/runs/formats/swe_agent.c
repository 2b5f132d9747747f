/* swe_agent.c - SWE-agent trajectories (.traj): {trajectory, history, info,
 * environment?, replay_config?}.
 *
 * trajectory[] is the run step by step: {thought, action, observation,
 * response, state}. Each step is one assistant message whose text is the
 * thought and whose action is one call: SWE-agent actions are command
 * lines, so the call is named by the command's first word and its
 * arguments are {"command": the whole action}; the observation is its
 * result. The steps have no call ids, so a call and its result are linked
 * where they are read, not by run_join_results. The task (the system and
 * first user messages) is only in history, so history's messages before
 * its first assistant turn come first, as context; in-context
 * demonstrations (is_demo) are left out there: they are not this run.
 *
 * Without trajectory (function_calling_simple.traj has only history),
 * history[] is read as the conversation. Function-calling agents write
 * assistant tool_calls as Chat Completions does and tool messages naming
 * their calls in tool_call_ids (a list; tool_call_id is read too). Older
 * agents parse the action from the text: an assistant turn with an
 * "action" and no tool_calls is one call as in trajectory, answered by the
 * next user or tool message. */
#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "runs/format.h"
#include "runs/loader.h"
#include "util/error.h"

static int swe_detect(const struct jdoc *d, jv rec)
{
	if (!jv_is_object(d, rec) || jv_get(d, rec, "messages") != JV_NONE)
		return 0;
	jv traj = jv_get(d, rec, "trajectory");
	if (jv_is_array(d, traj)) {
		jv step = jv_first(d, traj);
		if (jv_is_object(d, step) && jv_get(d, step, "action") != JV_NONE &&
		    (jv_get(d, step, "observation") != JV_NONE || jv_get(d, step, "thought") != JV_NONE))
			return 95;
		if (jv_len(d, traj) == 0 && jv_is_array(d, jv_get(d, rec, "history")))
			return 80;
		return 0;
	}
	jv hist = jv_get(d, rec, "history");
	if (!jv_is_array(d, hist))
		return 0;
	/* Only SWE-agent tags history messages with the agent that wrote
	 * them, and its assistant turns with thought and action. */
	JV_EACH(d, hist, m) {
		if (!jv_is_string(d, jv_get(d, m, "role")))
			return 0;
		if (jv_is_string(d, jv_get(d, m, "agent")) || jv_get(d, m, "action") != JV_NONE ||
		    jv_get(d, m, "thought") != JV_NONE)
			return 85;
	}
	return 0;
}

/* SWE-agent writes its model only in the config it ran with. */
static const char *swe_model(const struct run *r, jv rec)
{
	const struct jdoc *d = r->doc;
	jv agent = jv_get(d, jv_get(d, rec, "replay_config"), "agent");
	const char *m = jv_str(d, jv_get(d, jv_get(d, agent, "model"), "name"));
	if (!m)
		m = jv_str(d, jv_get(d, jv_get(d, jv_get(d, rec, "info"), "config"), "model_name"));
	return m ? m : loader_model(r, rec);
}

/* A call for an action command line: its first word names it. The
 * arguments are not in the record as a value, so their tree is made here
 * (one string), as openai_chat.c does for custom tools' free text. */
static struct run_call *swe_action_call(struct run *r, size_t mi, jv action, long src)
{
	const char *a = jv_str(r->doc, action);
	size_t n = jv_strlen(r->doc, action);
	size_t s = 0;
	while (s < n && isspace((unsigned char)a[s]))
		s++;
	size_t e = s;
	while (e < n && !isspace((unsigned char)a[e]))
		e++;
	struct run_call *c = run_add_call(r, mi);
	c->name = arena_strndup(&r->arena, a + s, e - s);
	c->raw_name = JV_NONE;
	c->src_msg_index = src;
	c->args = action;
	c->args_tree = json_pack("{s:s%}", "command", a, n);
	c->args_parsed = true;
	return c;
}

/* Makes message mi the result of call ci, linked where it is read. */
static void swe_link(struct run *r, size_t ci, size_t mi, jv result)
{
	loader_tool_output(r, mi, NULL, result);
	run_set_result(&r->calls[ci], result, false, NULL, (long)mi);
}

/* ---- trajectory ------------------------------------------------------------ */

/* history's messages before its first assistant turn: the task. */
static int swe_history_task(struct run *r, jv hist, struct error *err)
{
	const struct jdoc *d = r->doc;
	size_t i = 0;
	JV_EACH(d, hist, m) {
		char path[64];
		snprintf(path, sizeof(path), "history[%zu]", i);
		if (!jv_is_object(d, m)) {
			error_at(err, ERR_FAILED, "%s: not an object", path);
			return -1;
		}
		enum run_role role;
		jv content;
		if (loader_role(r, m, path, ROLE_ERRORS_SPLIT, &role, err) < 0 ||
		    loader_content(r, m, path, &content, err) < 0)
			return -1;
		if (role == ROLE_ASSISTANT)
			break;
		jv demo = jv_get(d, m, "is_demo");
		if (jv_type(d, demo) != JV_TRUE) {
			size_t mi = run_add_msg(r, role, MSG_IN_OUTPUT, run_text_of(r, content), m);
			r->msgs[mi].src_index = (long)i;
		}
		i++;
	}
	return 0;
}

static int swe_load_step(struct run *r, jv step, const char *path, size_t i, void *ctx,
                         struct error *err)
{
	(void)ctx;
	const struct jdoc *d = r->doc;
	jv thought, action, obs, response;
	if (loader_opt_string(r, step, "thought", path, &thought, err) < 0 ||
	    loader_opt_string(r, step, "action", path, &action, err) < 0 ||
	    loader_opt_string(r, step, "observation", path, &obs, err) < 0 ||
	    loader_opt_string(r, step, "response", path, &response, err) < 0)
		return -1;
	/* The thought is the response without its action; a step that has
	 * only the response still says what the model wrote. */
	const char *text = jv_str(d, thought);
	if (!text)
		text = loader_str(r, response, "");
	size_t mi = run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, text, step);
	r->msgs[mi].src_index = (long)i;
	bool has_action = jv_is_string(d, action) && jv_strlen(d, action) > 0;
	size_t ci = r->ncalls;
	if (has_action)
		swe_action_call(r, mi, action, (long)i);
	if (obs == JV_NONE || jv_is_null(d, obs))
		return 0;
	/* The environment's answer; without an action it is still what the
	 * agent saw next. */
	size_t oi = run_add_msg(r, has_action ? ROLE_TOOL : ROLE_USER, MSG_IN_OUTPUT,
	                        jv_str(d, obs), step);
	r->msgs[oi].src_index = (long)i;
	if (has_action)
		swe_link(r, ci, oi, obs);
	return 0;
}

/* ---- history --------------------------------------------------------------- */

struct swe_hist {
	long pending;           /* an action call waiting for its observation, or -1 */
};

/* The call a tool message answers: tool_call_ids' first, or tool_call_id. */
static int swe_answer_id(struct run *r, jv m, const char *path, const char **id, struct error *err)
{
	const struct jdoc *d = r->doc;
	jv ids = jv_get(d, m, "tool_call_ids");
	*id = NULL;
	if (ids != JV_NONE && !jv_is_null(d, ids)) {
		if (!jv_is_array(d, ids)) {
			error_at(err, ERR_FAILED, "%s.tool_call_ids: not a list", path);
			return -1;
		}
		jv first = jv_first(d, ids);
		if (first != JV_NONE && !jv_is_string(d, first)) {
			error_at(err, ERR_FAILED, "%s.tool_call_ids[0]: not a string", path);
			return -1;
		}
		*id = jv_str(d, first);
		return 0;
	}
	jv tcid;
	if (loader_opt_string(r, m, "tool_call_id", path, &tcid, err) < 0)
		return -1;
	*id = jv_str(d, tcid);
	return 0;
}

static int swe_load_hist_msg(struct run *r, jv m, const char *path, size_t i, void *ctx,
                             struct error *err)
{
	const struct jdoc *d = r->doc;
	struct swe_hist *h = ctx;
	enum run_role role;
	jv content, tcs, action;
	if (loader_role(r, m, path, ROLE_ERRORS_SPLIT, &role, err) < 0 ||
	    loader_content(r, m, path, &content, err) < 0 ||
	    loader_opt_array(r, m, "tool_calls", path, "not a list or null", &tcs, err) < 0 ||
	    loader_opt_string(r, m, "action", path, &action, err) < 0)
		return -1;
	const char *text = run_text_of(r, content);
	/* An assistant turn shows its thought when it has one: content
	 * repeats the action the call already shows. */
	jv thought = jv_get(d, m, "thought");
	if (role == ROLE_ASSISTANT && jv_is_string(d, thought))
		text = jv_str(d, thought);
	size_t mi = run_add_msg(r, role, MSG_IN_OUTPUT, text, m);
	r->msgs[mi].src_index = (long)i;
	if (role == ROLE_ASSISTANT) {
		h->pending = -1;
		if (jv_is_array(d, tcs) && jv_len(d, tcs) > 0) {
			if (loader_each_field(r, tcs, path, "tool_calls", loader_function_call, &mi,
			                      err) < 0)
				return -1;
		} else if (jv_is_string(d, action) && jv_strlen(d, action) > 0) {
			h->pending = (long)r->ncalls;
			swe_action_call(r, mi, action, (long)i);
		}
		return 0;
	}
	if (role == ROLE_TOOL) {
		const char *id;
		if (swe_answer_id(r, m, path, &id, err) < 0)
			return -1;
		if (id) {
			loader_tool_output(r, mi, id, content);
			h->pending = -1;
			return 0;
		}
	}
	if (role != ROLE_SYSTEM && h->pending >= 0) {
		swe_link(r, (size_t)h->pending, mi, content);
		h->pending = -1;
	} else if (role == ROLE_TOOL) {
		loader_tool_output(r, mi, NULL, content)->unmatched_result = true;
	}
	return 0;
}

static int swe_load(struct run *r, struct error *err)
{
	const struct jdoc *d = r->doc;
	jv rec = run_root(r);
	if (!jv_is_object(d, rec)) {
		error_at(err, ERR_FAILED, "a SWE-agent trajectory must be a JSON object");
		return -1;
	}
	jv traj = jv_get(d, rec, "trajectory"), hist = jv_get(d, rec, "history");
	if (traj != JV_NONE && !jv_is_null(d, traj) && !jv_is_array(d, traj)) {
		error_at(err, ERR_FAILED, "trajectory: not an array");
		return -1;
	}
	if (hist != JV_NONE && !jv_is_null(d, hist) && !jv_is_array(d, hist)) {
		error_at(err, ERR_FAILED, "history: not an array");
		return -1;
	}
	r->model = swe_model(r, rec);
	if (jv_is_array(d, traj) && jv_len(d, traj) > 0) {
		if (swe_history_task(r, hist, err) < 0)
			return -1;
		return loader_each(r, traj, "trajectory", swe_load_step, NULL, err) < 0 ? -1 : 0;
	}
	if (!jv_is_array(d, hist)) {
		error_at(err, ERR_MISSING, "trajectory: missing (and no history)");
		return -1;
	}
	struct swe_hist h = { -1 };
	if (loader_each(r, hist, "history", swe_load_hist_msg, &h, err) < 0)
		return -1;
	/* Results linked where they were read carry no id; the join leaves
	 * them to their calls. */
	run_join_results(r);
	for (size_t ci = 0; ci < r->ncalls; ci++)
		if (!r->calls[ci].id && r->calls[ci].result_msg >= 0)
			r->msgs[r->calls[ci].result_msg].unmatched_result = false;
	return 0;
}

const struct format_ops format_swe_agent = {
	.name = "swe-agent",
	.summary = "SWE-agent trajectories {trajectory[{thought, action, observation}], history} (.traj)",
	.detect = swe_detect,
	.load = swe_load,
};
