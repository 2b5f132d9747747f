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

/* A tau2 call is flat: no OpenAI "function" wrapper, and a requestor. */
static bool tau2_flat_call(json_t *tc)
{
	return json_is_object(tc) && json_object_get(tc, "id") && json_object_get(tc, "name") &&
	       json_object_get(tc, "arguments") && json_is_string(json_object_get(tc, "requestor")) &&
	       !json_object_get(tc, "function");
}

static int tau2_detect(json_t *rec)
{
	if (!json_is_object(rec))
		return 0;
	json_t *msgs = json_object_get(rec, "messages");
	if (!json_is_array(msgs))
		return 0;
	if (json_object_get(rec, "reward_info") || json_object_get(rec, "termination_reason"))
		return 90;
	size_t i;
	json_t *m;
	json_array_foreach(msgs, i, m) {
		json_t *tcs = json_object_get(m, "tool_calls");
		if (json_is_array(tcs) && json_array_size(tcs) > 0)
			return tau2_flat_call(json_array_get(tcs, 0)) ? 70 : 0;
	}
	return 0;
}

/* SimulationRun itself has no model; a results file keeps it in
 * info.agent_info.llm, and the fixtures in _corpus.agent_model. */
static const char *tau2_model(json_t *rec)
{
	json_t *ai = json_object_get(json_object_get(rec, "info"), "agent_info");
	if (!ai)
		ai = json_object_get(rec, "agent_info");
	const char *m = json_string_value(json_object_get(ai, "llm"));
	if (m)
		return m;
	return loader_corpus_model(rec);
}

/* One flat call of a message's tool_calls. */
static int tau2_add_call(struct run *r, json_t *tc, const char *path, size_t j, void *ctx,
                         char *err, size_t errlen)
{
	const size_t *mi = ctx;
	json_t *id, *name, *args, *req;
	if (loader_opt_string(tc, "id", path, &id, err, errlen) < 0 ||
	    loader_call_fields(tc, path, "not an object or a string", &name, &args, err, errlen) < 0 ||
	    loader_opt_string(tc, "requestor", path, &req, err, errlen) < 0)
		return -1;
	struct run_msg *msg = &r->msgs[*mi];
	struct run_call *c = loader_add_call(r, *mi, id, name, args, msg->src_index);
	/* Submissions without requestor still put user calls in user
	 * messages, so the role decides as well. */
	const char *rq = json_string_value(req);
	if ((rq && strcmp(rq, "user") == 0) || msg->role == ROLE_USER)
		c->requestor = REQ_USER;
	return 0;
}

static int tau2_load_msg(struct run *r, json_t *m, const char *path, size_t i, void *ctx,
                         char *err, size_t errlen)
{
	enum run_role role;
	json_t *content, *tcs;
	if (loader_role(m, path, ROLE_ERRORS_JOINED, &role, err, errlen) < 0 ||
	    loader_content(m, path, &content, err, errlen) < 0 ||
	    loader_opt_array(m, "tool_calls", path, "not a list or null", &tcs, err, errlen) < 0)
		return -1;
	json_t *id = NULL, *error = NULL;
	if (role == ROLE_TOOL) {
		if (loader_opt_string(m, "id", path, &id, err, errlen) < 0)
			return -1;
		error = json_object_get(m, "error");
		if (error && !json_is_null(error) && !json_is_boolean(error)) {
			snprintf(err, errlen, "%s.error: not a boolean", path);
			return -1;
		}
	}
	const char *text = run_text_of(r, content);
	size_t mi = run_add_msg(r, role, MSG_IN_OUTPUT, text, m);
	r->msgs[mi].src_index = (long)i;
	if (loader_each_field(r, tcs, path, "tool_calls", tau2_add_call, &mi, err, errlen) < 0)
		return -1;
	if (role != ROLE_TOOL)
		return 0;
	struct run_msg *msg = loader_tool_output(r, mi, json_string_value(id), content);
	/* The flag is authoritative when present. Some submissions drop it;
	 * tau2's environment then still writes "Error: ..." text. */
	if (json_is_boolean(error) ? json_is_true(error) : loader_is_error_text(text, LOADER_ERROR_PREFIX))
		loader_mark_failed(msg, text);
	if (!msg->answers_call_id)
		msg->unmatched_result = true;
	return 0;
}

static int tau2_load(struct run *r, char *err, size_t errlen)
{
	json_t *rec = r->record;
	if (!json_is_object(rec)) {
		snprintf(err, errlen, "a tau2 run must be a JSON object");
		return -1;
	}
	json_t *msgs;
	if (loader_array(rec, "messages", &msgs, err, errlen) < 0)
		return -1;
	r->model = tau2_model(rec);
	if (loader_each(r, msgs, "messages", tau2_load_msg, NULL, err, errlen) < 0)
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
