/* tau2.c - tau2-bench SimulationRun records {id, task_id, messages,
 * reward_info, termination_reason, ...}.
 *
 * Calls are flat {id, name, arguments, requestor} with arguments an object;
 * results are role "tool" messages whose own "id" is the call id. In the
 * telecom domain the simulated user calls tools as well, from user
 * messages with requestor "user": those calls are kept (the screen shows
 * them) but marked REQ_USER so agent scorers leave them out. raw_data (the
 * provider's own message) is never read: it repeats the call with string
 * arguments and would double it. */
#include <stdio.h>
#include <string.h>

#include "runs/format.h"
#include "runs/loader.h"
#include "util/error.h"

/* A tau2 call is flat: no OpenAI "function" wrapper, and a requestor. */
static bool tau2_flat_call(const struct jdoc *d, jv tc)
{
	return jv_is_object(d, tc) && jv_get(d, tc, "id") != JV_NONE &&
	       jv_get(d, tc, "name") != JV_NONE && jv_get(d, tc, "arguments") != JV_NONE &&
	       jv_is_string(d, jv_get(d, tc, "requestor")) && jv_get(d, tc, "function") == JV_NONE;
}

static int tau2_detect(const struct jdoc *d, jv rec)
{
	if (!jv_is_object(d, rec))
		return 0;
	jv msgs = jv_get(d, rec, "messages");
	if (!jv_is_array(d, msgs))
		return 0;
	if (jv_get(d, rec, "reward_info") != JV_NONE || jv_get(d, rec, "termination_reason") != JV_NONE)
		return 90;
	JV_EACH(d, msgs, m) {
		jv tcs = jv_get(d, m, "tool_calls");
		if (jv_is_array(d, tcs) && jv_len(d, tcs) > 0)
			return tau2_flat_call(d, jv_first(d, tcs)) ? 70 : 0;
	}
	return 0;
}

/* SimulationRun itself has no model; a results file keeps it in
 * info.agent_info.llm, and the fixtures in _corpus.agent_model. */
static const char *tau2_model(const struct run *r, jv rec)
{
	const struct jdoc *d = r->doc;
	jv ai = jv_get(d, jv_get(d, rec, "info"), "agent_info");
	if (ai == JV_NONE)
		ai = jv_get(d, rec, "agent_info");
	const char *m = jv_str(d, jv_get(d, ai, "llm"));
	if (m)
		return m;
	return loader_corpus_model(r, rec);
}

/* One flat call of a message's tool_calls. */
static int tau2_add_call(struct run *r, jv tc, const char *path, size_t j, void *ctx,
                         struct error *err)
{
	const size_t *mi = ctx;
	jv id, name, args, req;
	if (loader_opt_string(r, tc, "id", path, &id, err) < 0 ||
	    loader_call_fields(r, tc, path, "not an object or a string", &name, &args,
	                       err) < 0 ||
	    loader_opt_string(r, tc, "requestor", path, &req, err) < 0)
		return -1;
	struct run_msg *msg = &r->msgs[*mi];
	struct run_call *c = loader_add_call(r, *mi, id, name, args, msg->src_index);
	/* Submissions without requestor still put user calls in user
	 * messages, so the role decides as well. */
	const char *rq = jv_str(r->doc, req);
	if ((rq && strcmp(rq, "user") == 0) || msg->role == ROLE_USER)
		c->requestor = REQ_USER;
	return 0;
}

static int tau2_load_msg(struct run *r, jv m, const char *path, size_t i, void *ctx,
                         struct error *err)
{
	const struct jdoc *d = r->doc;
	enum run_role role;
	jv content, tcs;
	if (loader_role(r, m, path, ROLE_ERRORS_JOINED, &role, err) < 0 ||
	    loader_content(r, m, path, &content, err) < 0 ||
	    loader_opt_array(r, m, "tool_calls", path, "not a list or null", &tcs, err) < 0)
		return -1;
	jv id = JV_NONE, error = JV_NONE;
	if (role == ROLE_TOOL) {
		if (loader_opt_string(r, m, "id", path, &id, err) < 0)
			return -1;
		error = jv_get(d, m, "error");
		if (error != JV_NONE && !jv_is_null(d, error) && !jv_is_bool(d, error)) {
			error_at(err, ERR_FAILED, "%s.error: not a boolean", path);
			return -1;
		}
	}
	const char *text = run_text_of(r, content);
	size_t mi = run_add_msg(r, role, MSG_IN_OUTPUT, text, m);
	r->msgs[mi].src_index = (long)i;
	if (loader_each_field(r, tcs, path, "tool_calls", tau2_add_call, &mi, err) < 0)
		return -1;
	if (role != ROLE_TOOL)
		return 0;
	struct run_msg *msg = loader_tool_output(r, mi, jv_str(d, id), content);
	/* The flag is authoritative when present. Some submissions drop it;
	 * tau2's environment then still writes "Error: ..." text. */
	if (jv_is_bool(d, error) ? jv_type(d, error) == JV_TRUE
	                         : loader_is_error_text(text, LOADER_ERROR_PREFIX))
		loader_mark_failed(msg, text);
	if (!msg->answers_call_id)
		msg->unmatched_result = true;
	return 0;
}

static int tau2_load(struct run *r, struct error *err)
{
	jv rec = run_root(r);
	if (!jv_is_object(r->doc, rec)) {
		error_at(err, ERR_FAILED, "a tau2 run must be a JSON object");
		return -1;
	}
	jv msgs;
	if (loader_array(r, rec, "messages", &msgs, err) < 0)
		return -1;
	r->model = tau2_model(r, rec);
	if (loader_each(r, msgs, "messages", tau2_load_msg, NULL, err) < 0)
		return -1;
	run_join_results(r);
	return 0;
}

const struct format_ops format_tau2 = {
	.name = "tau2",
	.summary = "tau2-bench simulation runs {messages, reward_info, termination_reason}",
	.detect = tau2_detect,
	.load = tau2_load,
};
