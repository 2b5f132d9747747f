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

static int taubench_detect(json_t *rec)
{
	if (!json_is_object(rec) || !json_is_array(json_object_get(rec, "traj")))
		return 0;
	if (json_object_get(rec, "task_id") || json_object_get(rec, "info"))
		return 90;
	/* A bare traj list is still nobody else's key. */
	return 50;
}

/* One entry of a message's tool_calls: {id, type, function{name, arguments}}.
 * The type is not read; function is the only kind tau-bench writes. */
static int taubench_add_call(struct run *r, json_t *tc, const char *path, size_t j, void *ctx,
                             char *err, size_t errlen)
{
	const size_t *mi = ctx;
	json_t *id, *name, *args;
	if (loader_opt_string(tc, "id", path, &id, err, errlen) < 0)
		return -1;
	json_t *fn = json_object_get(tc, "function");
	if (!json_is_object(fn)) {
		snprintf(err, errlen, "%s.function: %s", path, fn ? "not an object" : "missing");
		return -1;
	}
	char fpath[160];
	snprintf(fpath, sizeof(fpath), "%s.function", path);
	if (loader_call_fields(fn, fpath, "not a string or an object", &name, &args, err, errlen) < 0)
		return -1;
	loader_add_call(r, *mi, id, name, args, r->msgs[*mi].src_index);
	return 0;
}

static int taubench_load_msg(struct run *r, json_t *m, const char *path, size_t i, void *ctx,
                             char *err, size_t errlen)
{
	enum run_role role;
	json_t *content, *tcs, *tcid;
	if (loader_role(m, path, ROLE_ERRORS_JOINED, &role, err, errlen) < 0 ||
	    loader_content(m, path, &content, err, errlen) < 0 ||
	    loader_opt_array(m, "tool_calls", path, "not a list or null", &tcs, err, errlen) < 0 ||
	    loader_opt_string(m, "tool_call_id", path, &tcid, err, errlen) < 0)
		return -1;
	/* ###STOP### stays in the user's text: it is what the simulator
	 * said, and the screen shows it as such. */
	const char *text = run_text_of(r, content);
	size_t mi = run_add_msg(r, role, MSG_IN_OUTPUT, text, m);
	r->msgs[mi].src_index = (long)i;
	if (loader_each_field(r, tcs, path, "tool_calls", taubench_add_call, &mi, err, errlen) < 0)
		return -1;
	if (role == ROLE_TOOL) {
		struct run_msg *msg = loader_tool_output(r, mi, json_string_value(tcid), content);
		if (loader_is_error_text(text, LOADER_ERROR_PREFIX))
			loader_mark_failed(msg, text);
		/* Without an id there is nothing to link by; say so rather
		 * than guess by position. */
		if (!msg->answers_call_id)
			msg->unmatched_result = true;
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
	json_t *traj;
	if (loader_array(rec, "traj", &traj, err, errlen) < 0)
		return -1;
	/* The fixtures' _corpus names the agent model; tau-bench itself keeps
	 * it only in the results file name. */
	r->model = loader_model(rec);
	if (loader_each(r, traj, "traj", taubench_load_msg, NULL, err, errlen) < 0)
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
