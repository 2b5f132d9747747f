/* taubench.c - tau-bench v1 records {task_id, trial, reward, info, traj}.
 *
 * traj is an OpenAI Chat Completions conversation: assistant messages carry
 * tool_calls[{id, type, function{name, arguments}}] with arguments as a JSON
 * string, and results are role "tool" messages linked by tool_call_id.
 * tau-bench reuses call ids within a run, so each result goes to the
 * nearest preceding unanswered call with its id (run_join_results). The
 * environment reports a failed call only as text starting with "Error:". */
#include <stdio.h>
#include <string.h>

#include "format.h"

static int taubench_detect(json_t *rec)
{
	if (!json_is_object(rec) || !json_is_array(json_object_get(rec, "traj")))
		return 0;
	if (json_object_get(rec, "task_id") || json_object_get(rec, "info"))
		return 90;
	/* A bare traj list is still nobody else's key. */
	return 50;
}

/* The fixtures' _corpus names the agent model; tau-bench itself keeps it
 * only in the results file name. */
static const char *taubench_model(json_t *rec)
{
	const char *m = json_string_value(json_object_get(rec, "model"));
	if (m)
		return m;
	return json_string_value(json_object_get(json_object_get(rec, "_corpus"), "agent_model"));
}

static int taubench_add_calls(struct run *r, size_t mi, json_t *list, size_t i,
                              char *err, size_t errlen)
{
	size_t j;
	json_t *tc;
	json_array_foreach(list, j, tc) {
		if (!json_is_object(tc)) {
			snprintf(err, errlen, "traj[%zu].tool_calls[%zu]: not an object", i, j);
			return -1;
		}
		json_t *id = json_object_get(tc, "id");
		if (id && !json_is_null(id) && !json_is_string(id)) {
			snprintf(err, errlen, "traj[%zu].tool_calls[%zu].id: not a string", i, j);
			return -1;
		}
		json_t *fn = json_object_get(tc, "function");
		if (!json_is_object(fn)) {
			snprintf(err, errlen, "traj[%zu].tool_calls[%zu].function: %s", i, j,
			         fn ? "not an object" : "missing");
			return -1;
		}
		json_t *name = json_object_get(fn, "name");
		if (name && !json_is_null(name) && !json_is_string(name)) {
			snprintf(err, errlen, "traj[%zu].tool_calls[%zu].function.name: not a string",
			         i, j);
			return -1;
		}
		json_t *args = json_object_get(fn, "arguments");
		if (args && !json_is_null(args) && !json_is_string(args) && !json_is_object(args)) {
			snprintf(err, errlen,
			         "traj[%zu].tool_calls[%zu].function.arguments: not a string or an object",
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
		run_call_set_args(r, c, json_is_null(args) ? NULL : args);
	}
	return 0;
}

static int taubench_load(struct run *r, char *err, size_t errlen)
{
	json_t *rec = r->record;
	if (!json_is_object(rec)) {
		snprintf(err, errlen, "a tau-bench record must be a JSON object");
		return -1;
	}
	json_t *traj = json_object_get(rec, "traj");
	if (!json_is_array(traj)) {
		snprintf(err, errlen, "traj: %s", traj ? "not an array" : "missing");
		return -1;
	}
	r->model = taubench_model(rec);
	size_t i;
	json_t *m;
	json_array_foreach(traj, i, m) {
		if (!json_is_object(m)) {
			snprintf(err, errlen, "traj[%zu]: not an object", i);
			return -1;
		}
		const char *rs = json_string_value(json_object_get(m, "role"));
		bool ok;
		enum run_role role = run_role_parse(rs, &ok);
		if (!ok) {
			if (rs)
				snprintf(err, errlen, "traj[%zu].role: unknown role \"%s\"", i, rs);
			else
				snprintf(err, errlen, "traj[%zu].role: missing or not a string", i);
			return -1;
		}
		json_t *content = json_object_get(m, "content");
		if (content && !json_is_null(content) && !json_is_string(content) &&
		    !json_is_array(content)) {
			snprintf(err, errlen, "traj[%zu].content: not a string, a list or null", i);
			return -1;
		}
		json_t *tcs = json_object_get(m, "tool_calls");
		if (tcs && !json_is_null(tcs) && !json_is_array(tcs)) {
			snprintf(err, errlen, "traj[%zu].tool_calls: not a list or null", i);
			return -1;
		}
		json_t *tcid = json_object_get(m, "tool_call_id");
		if (tcid && !json_is_null(tcid) && !json_is_string(tcid)) {
			snprintf(err, errlen, "traj[%zu].tool_call_id: not a string", i);
			return -1;
		}
		/* ###STOP### stays in the user's text: it is what the simulator
		 * said, and the screen shows it as such. */
		const char *text = run_text_of(r, content);
		size_t mi = run_add_msg(r, role, MSG_IN_OUTPUT, text, m);
		r->msgs[mi].src_index = (long)i;
		if (tcs && json_is_array(tcs) && taubench_add_calls(r, mi, tcs, i, err, errlen) < 0)
			return -1;
		if (role == ROLE_TOOL) {
			struct run_msg *msg = &r->msgs[mi];
			msg->is_tool_output = true;
			msg->answers_call_id = json_string_value(tcid);
			msg->result = content;
			if (strncmp(text, "Error:", 6) == 0) {
				msg->result_is_error = true;
				msg->result_error_text = text;
			}
			/* Without an id there is nothing to link by; say so rather
			 * than guess by position. */
			if (!msg->answers_call_id)
				msg->unmatched_result = true;
		}
	}
	run_join_results(r);
	return 0;
}

const struct format_ops format_taubench = {
	.name = "taubench",
	.summary = "tau-bench v1 records {task_id, reward, info, traj} (OpenAI chat under traj)",
	.detect = taubench_detect,
	.load = taubench_load,
};
