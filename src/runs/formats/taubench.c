/* taubench.c - tau-bench v1 records {task_id, trial, reward, info, traj}.
 *
 * traj is an OpenAI Chat Completions conversation: assistant messages carry
 * tool_calls[{id, type, function{name, arguments}}] with arguments as a JSON
 * string, and results are role "tool" messages linked by tool_call_id.
 * tau-bench reuses call ids within a run, so each result goes to the
 * nearest preceding unanswered call with its id (run_join_results). The
 * environment reports a failed call only as text starting with "Error:".
 *
 * traj is read by tau-bench's own rules rather than by openai_chat.c's:
 * ids, names and arguments are type-checked and taken as they are (a
 * numeric id is an error, "" stays an id), every call needs its function
 * object and its type is not read, and there is no legacy function_call,
 * refusal text or join by name: a result without tool_call_id is left
 * unmatched. What the two do share (roles, content, tool_calls as a list,
 * the "Error:" convention, walking the list) comes from loader.c. */
#include <stdio.h>

#include "runs/format.h"
#include "runs/loader.h"
#include "util/error.h"

static int taubench_detect(const struct jdoc *d, jv rec)
{
	if (!jv_is_object(d, rec) || !jv_is_array(d, jv_get(d, rec, "traj")))
		return 0;
	if (jv_get(d, rec, "task_id") != JV_NONE || jv_get(d, rec, "info") != JV_NONE)
		return 90;
	/* A bare traj list is still nobody else's key. */
	return 50;
}

static int taubench_load_msg(struct run *r, jv m, const char *path, size_t i, void *ctx,
                             struct error *err)
{
	enum run_role role;
	jv content, tcs, tcid;
	if (loader_role(r, m, path, ROLE_ERRORS_JOINED, &role, err) < 0 ||
	    loader_content(r, m, path, &content, err) < 0 ||
	    loader_opt_array(r, m, "tool_calls", path, "not a list or null", &tcs, err) < 0 ||
	    loader_opt_string(r, m, "tool_call_id", path, &tcid, err) < 0)
		return -1;
	/* ###STOP### stays in the user's text: it is what the simulator
	 * said, and the screen shows it as such. */
	const char *text = run_text_of(r, content);
	size_t mi = run_add_msg(r, role, MSG_IN_OUTPUT, text, m);
	r->msgs[mi].src_index = (long)i;
	if (loader_each_field(r, tcs, path, "tool_calls", loader_function_call, &mi, err) < 0)
		return -1;
	if (role == ROLE_TOOL) {
		struct run_msg *msg = loader_tool_output(r, mi, jv_str(r->doc, tcid), content);
		if (loader_is_error_text(text, LOADER_ERROR_PREFIX))
			loader_mark_failed(msg, text);
		/* Without an id there is nothing to link by; say so rather
		 * than guess by position. */
		if (!msg->answers_call_id)
			msg->unmatched_result = true;
	}
	return 0;
}

static int taubench_load(struct run *r, struct error *err)
{
	jv rec = run_root(r);
	if (!jv_is_object(r->doc, rec)) {
		error_at(err, ERR_FAILED, "a tau-bench record must be a JSON object");
		return -1;
	}
	jv traj;
	if (loader_array(r, rec, "traj", &traj, err) < 0)
		return -1;
	/* The fixtures' _corpus names the agent model; tau-bench itself keeps
	 * it only in the results file name. */
	r->model = loader_model(r, rec);
	if (loader_each(r, traj, "traj", taubench_load_msg, NULL, err) < 0)
		return -1;
	run_join_results(r);
	return 0;
}

const struct format_ops format_taubench = {
	.name = "taubench",
	.summary = "tau-bench v1 records {task_id, reward, info, traj} (OpenAI chat under traj)",
	.detect = taubench_detect,
	.load = taubench_load,
};
