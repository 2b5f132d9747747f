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

#include "format.h"

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
	return json_string_value(json_object_get(json_object_get(rec, "_corpus"), "agent_model"));
}

static int tau2_add_calls(struct run *r, size_t mi, enum run_role role, json_t *list, size_t i,
                          char *err, size_t errlen)
{
	size_t j;
	json_t *tc;
	json_array_foreach(list, j, tc) {
		if (!json_is_object(tc)) {
			snprintf(err, errlen, "messages[%zu].tool_calls[%zu]: not an object", i, j);
			return -1;
		}
		json_t *id = json_object_get(tc, "id");
		if (id && !json_is_null(id) && !json_is_string(id)) {
			snprintf(err, errlen, "messages[%zu].tool_calls[%zu].id: not a string", i, j);
			return -1;
		}
		json_t *name = json_object_get(tc, "name");
		if (name && !json_is_null(name) && !json_is_string(name)) {
			snprintf(err, errlen, "messages[%zu].tool_calls[%zu].name: not a string", i, j);
			return -1;
		}
		json_t *args = json_object_get(tc, "arguments");
		if (args && !json_is_null(args) && !json_is_object(args) && !json_is_string(args)) {
			snprintf(err, errlen,
			         "messages[%zu].tool_calls[%zu].arguments: not an object or a string", i, j);
			return -1;
		}
		json_t *req = json_object_get(tc, "requestor");
		if (req && !json_is_null(req) && !json_is_string(req)) {
			snprintf(err, errlen, "messages[%zu].tool_calls[%zu].requestor: not a string",
			         i, j);
			return -1;
		}
		struct run_call *c = run_add_call(r, mi);
		c->id = json_string_value(id);
		if (json_is_string(name))
			c->name = json_string_value(name);
		c->raw_id = id;
		c->raw_name = name;
		c->src_msg_index = (long)i;
		/* Submissions without requestor still put user calls in user
		 * messages, so the role decides as well. */
		const char *rq = json_string_value(req);
		if ((rq && strcmp(rq, "user") == 0) || role == ROLE_USER)
			c->requestor = REQ_USER;
		run_call_set_args(r, c, json_is_null(args) ? NULL : args);
	}
	return 0;
}

static int tau2_load(struct run *r, char *err, size_t errlen)
{
	json_t *rec = r->record;
	if (!json_is_object(rec)) {
		snprintf(err, errlen, "a tau2 run must be a JSON object");
		return -1;
	}
	json_t *msgs = json_object_get(rec, "messages");
	if (!json_is_array(msgs)) {
		snprintf(err, errlen, "messages: %s", msgs ? "not an array" : "missing");
		return -1;
	}
	r->model = tau2_model(rec);
	size_t i;
	json_t *m;
	json_array_foreach(msgs, i, m) {
		if (!json_is_object(m)) {
			snprintf(err, errlen, "messages[%zu]: not an object", i);
			return -1;
		}
		const char *rs = json_string_value(json_object_get(m, "role"));
		bool ok;
		enum run_role role = run_role_parse(rs, &ok);
		if (!ok) {
			if (rs)
				snprintf(err, errlen, "messages[%zu].role: unknown role \"%s\"", i, rs);
			else
				snprintf(err, errlen, "messages[%zu].role: missing or not a string", i);
			return -1;
		}
		json_t *content = json_object_get(m, "content");
		if (content && !json_is_null(content) && !json_is_string(content) &&
		    !json_is_array(content)) {
			snprintf(err, errlen, "messages[%zu].content: not a string, a list or null", i);
			return -1;
		}
		json_t *tcs = json_object_get(m, "tool_calls");
		if (tcs && !json_is_null(tcs) && !json_is_array(tcs)) {
			snprintf(err, errlen, "messages[%zu].tool_calls: not a list or null", i);
			return -1;
		}
		json_t *id = NULL, *error = NULL;
		if (role == ROLE_TOOL) {
			id = json_object_get(m, "id");
			if (id && !json_is_null(id) && !json_is_string(id)) {
				snprintf(err, errlen, "messages[%zu].id: not a string", i);
				return -1;
			}
			error = json_object_get(m, "error");
			if (error && !json_is_null(error) && !json_is_boolean(error)) {
				snprintf(err, errlen, "messages[%zu].error: not a boolean", i);
				return -1;
			}
		}
		const char *text = run_text_of(r, content);
		size_t mi = run_add_msg(r, role, MSG_IN_OUTPUT, text, m);
		r->msgs[mi].src_index = (long)i;
		if (json_is_array(tcs) && tau2_add_calls(r, mi, role, tcs, i, err, errlen) < 0)
			return -1;
		if (role != ROLE_TOOL)
			continue;
		struct run_msg *msg = &r->msgs[mi];
		msg->is_tool_output = true;
		msg->answers_call_id = json_string_value(id);
		msg->result = content;
		/* The flag is authoritative when present. Some submissions drop
		 * it; tau2's environment then still writes "Error: ..." text. */
		if (json_is_boolean(error) ? json_is_true(error) : strncmp(text, "Error:", 6) == 0) {
			msg->result_is_error = true;
			msg->result_error_text = text[0] ? text : "error";
		}
		if (!msg->answers_call_id)
			msg->unmatched_result = true;
	}
	run_join_results(r);
	return 0;
}

const struct format_ops format_tau2 = {
	.name = "tau2",
	.summary = "tau2-bench simulation runs {messages, reward_info, termination_reason}",
	.detect = tau2_detect,
	.load = tau2_load,
};
