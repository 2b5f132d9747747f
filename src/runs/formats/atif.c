/* atif.c - ATIF trajectories (Harbor's Agent Trajectory Interchange Format, "ATIF-v1.x") and OpenAgents' "1.4" dialect of it.
 *
 * One trajectory is one run: {schema_version, session_id, agent: {name,
 * model_name}, steps: [...], final_metrics}. A step has a source (user,
 * agent, system), a message (text or a list of parts), the agent's
 * reasoning_content and tool_calls [{tool_call_id, function_name,
 * arguments}], and an observation {results: [{source_call_id, content,
 * subagent_trajectory_ref}]}. A result goes to the call its
 * source_call_id names, else to the step's next call without one; a
 * result with no call to go to (a harness that parses commands from the
 * message text and calls nothing) stays a tool message of its own: the
 * commands in the text are not calls.
 *
 * Steps replayed from another trajectory (is_copied_context) are read like
 * the others, after a note. A subagent's trajectory named by reference
 * (not in the file) is a note; one embedded in a result is read in place
 * between notes, so the file stays one run.
 *
 * The OpenAgents dialect writes schema_version "1.4", tool_calls as {id,
 * name, arguments}, agent.model, and each result as a system step of its
 * own {observation: {type: "tool_result", content, result: {success,
 * error}}} whose call id is only in its message ("Tool result for ID"),
 * often BEFORE the step holding the call: results are joined by id over
 * the whole run, not only to earlier calls. */
#include <stdio.h>
#include <string.h>

#include "runs/format.h"
#include "runs/loader.h"
#include "call_index.h"
#include "util/error.h"

/* Embedded subagents inside subagents: deeper than this is not read. */
#define ATIF_MAX_DEPTH 8
#define ATIF_RESULT_PREFIX "Tool result for "

static int atif_detect(const struct jdoc *d, jv rec)
{
	const char *version = jv_str(d, jv_get(d, rec, "schema_version"));
	jv steps = jv_get(d, rec, "steps");
	if (!version || !jv_is_array(d, steps))
		return 0;
	if (!strncmp(version, "ATIF-v", 6))
		return 95;
	/* The dialect's bare version: only with an agent and steps that have
	 * the step_id and source every ATIF step has. */
	jv first = jv_first(d, steps);
	if (!jv_is_object(d, jv_get(d, rec, "agent")) || !jv_is_object(d, first) ||
	    jv_get(d, first, "step_id") == JV_NONE || !jv_is_string(d, jv_get(d, first, "source")))
		return 0;
	return 85;
}

struct atif_ctx {
	struct run *r;
	struct call_index *ids;     /* the run's calls by id: ids are unique */
	int depth;
	bool copied;                /* the previous step was copied context */
	size_t mi;                  /* the step's message */
};

static bool atif_answered(size_t call, void *ctx)
{
	return ((struct run *)ctx)->calls[call].has_result;
}

/* The call of this id, while it has no result. */
static struct run_call *atif_open_call(struct run *r, struct call_index *ids, const char *id)
{
	long i = call_index_first_free(ids, id, atif_answered, r);
	return i < 0 ? NULL : &r->calls[i];
}

static int atif_steps(struct atif_ctx *x, jv steps, const char *where, struct error *err);

/* ---- calls ---------------------------------------------------------------- */

/* tc.A, else tc.B (the dialect's name for it). */
static jv atif_field(const struct jdoc *d, jv tc, const char *a, const char *b, const char **key)
{
	jv v = jv_get(d, tc, a);
	*key = a;
	if (v == JV_NONE) {
		v = jv_get(d, tc, b);
		*key = b;
	}
	return v;
}

static int atif_call(struct run *r, jv tc, const char *path, size_t j, void *ctx, struct error *err)
{
	(void)j;
	const struct jdoc *d = r->doc;
	struct atif_ctx *x = ctx;
	size_t mi = x->mi;
	const char *id_key, *name_key;
	jv id = atif_field(d, tc, "tool_call_id", "id", &id_key);
	jv name = atif_field(d, tc, "function_name", "name", &name_key);
	jv args = jv_get(d, tc, "arguments");
	if (id != JV_NONE && !jv_is_null(d, id) && !loader_id(r, id) && !jv_is_string(d, id)) {
		error_at(err, ERR_FAILED, "%s.%s: not a string", path, id_key);
		return -1;
	}
	if (name != JV_NONE && !jv_is_null(d, name) && !jv_is_string(d, name)) {
		error_at(err, ERR_FAILED, "%s.%s: not a string", path, name_key);
		return -1;
	}
	if (args != JV_NONE && !jv_is_null(d, args) && !jv_is_object(d, args) &&
	    !jv_is_string(d, args)) {
		error_at(err, ERR_FAILED, "%s.arguments: not an object, a string or null", path);
		return -1;
	}
	const char *cid = loader_id(r, id);
	size_t seen;
	call_index_get(x->ids, cid, &seen);
	if (seen) {
		run_add_note(r, mi, tc, "call %s again (counted once)", cid);
		return 0;
	}
	struct run_call *c = run_add_call(r, mi);
	c->id = cid;
	c->raw_id = id;
	c->name = loader_str(r, name, "");
	c->raw_name = name;
	c->src_msg_index = r->msgs[mi].src_index;
	if (args != JV_NONE && !jv_is_null(d, args))
		run_call_set_args(r, c, args);
	call_index_add(x->ids, cid, r->ncalls - 1);
	return 1;
}

/* ---- observations ----------------------------------------------------------- */

static void atif_subagent_refs(struct run *r, size_t mi, jv refs)
{
	const struct jdoc *d = r->doc;
	if (jv_is_object(d, refs)) {
		run_add_note(r, mi, refs, "subagent trajectory %s in %s (not in this file)",
		             loader_str(r, jv_get(d, refs, "session_id"), "without a session id"),
		             loader_str(r, jv_get(d, refs, "trajectory_path"), "no file named"));
		return;
	}
	JV_EACH(d, refs, ref)
		atif_subagent_refs(r, mi, ref);
}

/* A subagent's trajectory written into the result: read in place. */
static int atif_embedded(struct atif_ctx *x, jv traj, const char *path, struct error *err)
{
	struct run *r = x->r;
	const struct jdoc *d = r->doc;
	const char *who = loader_str(r, jv_get(d, traj, "session_id"), "without a session id");
	if (x->depth >= ATIF_MAX_DEPTH) {
		run_add_note_msg(r, MSG_IN_OUTPUT, traj, "subagent %s nested too deep (not read)", who);
		return 0;
	}
	char where[512];
	snprintf(where, sizeof where, "%.400s.steps", path);
	run_add_note_msg(r, MSG_IN_OUTPUT, traj, "subagent %s starts", who);
	struct atif_ctx sub = { .r = r, .ids = x->ids, .depth = x->depth + 1 };
	if (atif_steps(&sub, jv_get(d, traj, "steps"), where, err) < 0)
		return -1;
	run_add_note_msg(r, MSG_IN_OUTPUT, traj, "subagent %s ends", who);
	return 0;
}

/* The step's calls are calls[first .. r->ncalls); a result without a
 * source_call_id goes to the next of them that has none. */
static int atif_results(struct atif_ctx *x, jv obs, const char *path, size_t mi, size_t first,
                        struct error *err)
{
	struct run *r = x->r;
	const struct jdoc *d = r->doc;
	jv results;
	if (loader_opt_array(r, obs, "results", path, "not a list", &results, err) < 0)
		return -1;
	size_t next = first, k = 0;
	JV_EACH(d, results, res) {
		char rpath[512];
		snprintf(rpath, sizeof rpath, "%.400s.results[%zu]", path, k++);
		if (!jv_is_object(d, res)) {
			error_at(err, ERR_FAILED, "%s: not an object", rpath);
			return -1;
		}
		jv content = jv_get(d, res, "content");
		const char *id = loader_id(r, jv_get(d, res, "source_call_id"));
		struct run_call *c = atif_open_call(r, x->ids, id);
		while (!id && !c && next < r->ncalls)
			if (!r->calls[next++].has_result)
				c = &r->calls[next - 1];
		if (c)
			run_set_result(c, content, false, NULL, -1);
		else if (content != JV_NONE && !jv_is_null(d, content))
			run_add_msg(r, ROLE_TOOL, MSG_IN_OUTPUT, run_text_of(r, content), res);
		atif_subagent_refs(r, mi, jv_get(d, res, "subagent_trajectory_ref"));
		jv traj = jv_get(d, res, "subagent_trajectory");
		if (jv_is_object(d, traj) && atif_embedded(x, traj, rpath, err) < 0)
			return -1;
	}
	return 0;
}

/* The dialect's result step: its call id is in its message. */
static void atif_dialect_result(struct run *r, jv step, jv obs, const char *message)
{
	const struct jdoc *d = r->doc;
	const char *id = loader_id(r, jv_get(d, obs, "tool_call_id"));
	if (!id && message && !strncmp(message, ATIF_RESULT_PREFIX, strlen(ATIF_RESULT_PREFIX))) {
		const char *s = message + strlen(ATIF_RESULT_PREFIX);
		id = arena_printf(&r->arena, "%.*s", (int)strcspn(s, " \t\r\n"), s);
	}
	size_t mi = run_add_msg(r, ROLE_TOOL, MSG_IN_OUTPUT, "", step);
	jv content = jv_get(d, obs, "content");
	struct run_msg *m = loader_tool_output(r, mi, id && *id ? id : NULL,
	                                       content != JV_NONE ? content : jv_get(d, obs, "result"));
	jv result = jv_get(d, obs, "result");
	if (jv_get(d, result, "success") != JV_NONE && !jv_truthy(d, jv_get(d, result, "success")))
		loader_mark_failed(m, jv_str(d, jv_get(d, result, "error")));
}

/* ---- steps ---------------------------------------------------------------- */

static enum run_role atif_role(const char *source, bool *known)
{
	*known = true;
	if (!strcmp(source, "agent"))
		return ROLE_ASSISTANT;
	if (!strcmp(source, "user"))
		return ROLE_USER;
	if (!strcmp(source, "system"))
		return ROLE_SYSTEM;
	*known = false;
	return ROLE_NOTE;
}

static void atif_message(struct run *r, size_t mi, jv message)
{
	const struct jdoc *d = r->doc;
	if (jv_is_string(d, message)) {
		run_add_text(r, mi, jv_str(d, message), message);
		return;
	}
	JV_EACH(d, message, part) {
		const char *type = jv_str(d, jv_get(d, part, "type"));
		jv text = jv_get(d, part, "text");
		if (jv_is_string(d, part))
			run_add_text(r, mi, jv_str(d, part), part);
		else if (jv_is_string(d, text) && (!type || !strcmp(type, "text")))
			run_add_text(r, mi, jv_str(d, text), part);
		else
			run_add_note(r, mi, part, "part type \"%s\" (not read)", type ? type : "none");
	}
}

static int atif_step(struct run *r, jv step, const char *path, size_t i, void *ctx, struct error *err)
{
	struct atif_ctx *x = ctx;
	const struct jdoc *d = r->doc;
	jv source = jv_get(d, step, "source"), message, obs = jv_get(d, step, "observation");
	if (!jv_is_string(d, source)) {
		error_at(err, source == JV_NONE ? ERR_MISSING : ERR_FAILED, "%s.source: %s", path, source == JV_NONE ? "missing" : "not a string");
		return -1;
	}
	message = jv_get(d, step, "message");
	if (message != JV_NONE && !jv_is_null(d, message) && !jv_is_string(d, message) &&
	    !jv_is_array(d, message)) {
		error_at(err, ERR_FAILED, "%s.message: not a string, a list or null", path);
		return -1;
	}
	if (obs != JV_NONE && !jv_is_null(d, obs) && !jv_is_object(d, obs)) {
		error_at(err, ERR_FAILED, "%s.observation: not an object", path);
		return -1;
	}
	bool copied = jv_truthy(d, jv_get(d, step, "is_copied_context"));
	if (copied && !x->copied)
		run_add_note_msg(r, MSG_IN_OUTPUT, step, "copied context: steps replayed from "
		                 "another trajectory, from step %s", loader_str(r, jv_get(d, step, "step_id"),
		                 arena_printf(&r->arena, "%zu", i + 1)));
	x->copied = copied;
	bool known;
	enum run_role role = atif_role(jv_str(d, source), &known);
	if (jv_streq(d, jv_get(d, obs, "type"), "tool_result")) {
		atif_dialect_result(r, step, obs, jv_str(d, message));
		return 0;
	}
	size_t mi = known ? run_add_msg(r, role, MSG_IN_OUTPUT, "", step)
	                  : run_add_note_msg(r, MSG_IN_OUTPUT, step, "step source \"%s\"",
	                                     jv_str(d, source));
	r->msgs[mi].src_index = (long)i;
	jv reasoning = jv_get(d, step, "reasoning_content");
	if (jv_is_string(d, reasoning))
		run_add_thinking(r, mi, jv_str(d, reasoning), reasoning);
	atif_message(r, mi, message);
	size_t first = r->ncalls;
	jv calls;
	x->mi = mi;
	if (loader_opt_array(r, step, "tool_calls", path, "not a list", &calls, err) < 0 ||
	    loader_each_field(r, calls, path, "tool_calls", atif_call, x, err) < 0)
		return -1;
	if (!r->model)
		r->model = jv_str(d, jv_get(d, step, "model_name"));
	char opath[512];
	snprintf(opath, sizeof opath, "%.400s.observation", path);
	return jv_is_object(d, obs) ? atif_results(x, obs, opath, mi, first, err) : 0;
}

static int atif_steps(struct atif_ctx *x, jv steps, const char *where, struct error *err)
{
	struct run *r = x->r;
	if (!jv_is_array(r->doc, steps)) {
		error_at(err, steps == JV_NONE ? ERR_MISSING : ERR_FAILED, "%s: %s", where, steps == JV_NONE ? "missing" : "not a list");
		return -1;
	}
	return loader_each(r, steps, where, atif_step, x, err) < 0 ? -1 : 0;
}

/* Results the dialect wrote before their calls: joined by id both ways. */
static void atif_join(struct run *r, struct call_index *ids)
{
	for (size_t mi = 0; mi < r->nmsgs; mi++) {
		struct run_msg *m = &r->msgs[mi];
		if (!m->is_tool_output)
			continue;
		struct run_call *hit = atif_open_call(r, ids, m->answers_call_id);
		if (hit)
			run_set_result(hit, m->result, m->result_is_error, m->result_error_text, (long)mi);
		else
			m->unmatched_result = true;
	}
}

/* What the trajectory says of itself beyond its steps. */
static void atif_trailer(struct run *r, jv rec)
{
	const struct jdoc *d = r->doc;
	jv cont = jv_get(d, rec, "continued_trajectory_ref");
	if (jv_is_string(d, cont))
		run_add_note_msg(r, MSG_IN_OUTPUT, cont, "continued in %s (not in this file)",
		                 jv_str(d, cont));
	jv metrics = jv_get(d, rec, "final_metrics");
	if (jv_is_object(d, metrics)) {
		size_t len;
		const char *text = jv_raw(d, metrics, &len);
		run_add_note_msg(r, MSG_IN_OUTPUT, metrics, "final metrics %.*s",
		                 len > 400 ? 400 : (int)len, text);
	}
}

static int atif_load(struct run *r, struct error *err)
{
	const struct jdoc *d = r->doc;
	jv rec = run_root(r), agent = jv_get(d, rec, "agent");
	if (!jv_is_object(d, rec)) {
		error_at(err, ERR_FAILED, "an ATIF trajectory must be an object {schema_version, agent, steps}");
		return -1;
	}
	if (agent != JV_NONE && !jv_is_null(d, agent) && !jv_is_object(d, agent)) {
		error_at(err, ERR_FAILED, "agent: not an object");
		return -1;
	}
	/* unless an id path of the configuration named the run already */
	if (r->id == r->source && jv_strlen(d, jv_get(d, rec, "session_id")))
		r->id = jv_str(d, jv_get(d, rec, "session_id"));
	r->model = jv_str(d, jv_get(d, agent, "model_name"));
	if (!r->model)
		r->model = jv_str(d, jv_get(d, agent, "model"));
	r->parent_id = jv_str(d, jv_path(d, agent, "extra.parent_session_id"));
	struct call_index ids = CALL_INDEX_INIT;
	struct atif_ctx x = { .r = r, .ids = &ids };
	int rc = atif_steps(&x, jv_get(d, rec, "steps"), "steps", err);
	if (rc == 0) {
		atif_join(r, &ids);
		atif_trailer(r, rec);
	}
	call_index_free(&ids);
	return rc;
}

const struct format_ops format_atif = {
	.name = "atif",
	.summary = "ATIF trajectories (Harbor, schema_version ATIF-v1.x; OpenAgents' 1.4 dialect): steps, tool calls, observations",
	.detect = atif_detect,
	.load = atif_load,
};
