/* mini_swe_agent.c - mini-swe-agent trajectories (.traj.json):
 * {info, messages, trajectory_format?, instance_id?}.
 *
 * messages is a Chat Completions conversation as litellm returns it:
 * assistant tool_calls[{index, id, type, function{name, arguments}}] with
 * arguments a JSON string, results as role "tool" messages linked by
 * tool_call_id. DeepSeek reasoners add reasoning_content and often leave
 * content empty; the reasoning is a thinking part before the text (shown
 * under its own label), and the text is only what the agent said.
 *
 * The run ends with a role "exit" message: how the agent stopped
 * (extra.exit_status: Submitted, or an exception such as
 * InternalServerError) and what it submitted. It is no error of the
 * record, so it stays visible as a user-side note whose text names the
 * status and adds extra.exception_str when the content does not already
 * say it (judges read it as the run's end). Roles mini-swe-agent does not
 * write are note messages.
 *
 * A call with no tool reply (the final submit, answered by the exit)
 * stays requested. A tool reply carries the command's exit status in
 * extra.returncode and opens with it, "<returncode>N</returncode>", then
 * its <output>: a reply whose status is not 0 is the result of a command
 * that failed, and its call is marked failed with the reply itself as the
 * error to show (the output is what a reviewer reads). extra.returncode
 * decides when it is an integer; else the reply's opening tag does (files
 * written without extra); a reply with neither is left unflagged. The
 * model is info.config.model.model_name. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runs/format.h"
#include "runs/loader.h"
#include "util/error.h"

static bool mini_has_prefix(const char *s, const char *p)
{
	return s && strncmp(s, p, strlen(p)) == 0;
}

static int mini_detect(const struct jdoc *d, jv rec)
{
	if (!jv_is_object(d, rec) || !jv_is_array(d, jv_get(d, rec, "messages")))
		return 0;
	if (mini_has_prefix(jv_str(d, jv_get(d, rec, "trajectory_format")), "mini-swe-agent"))
		return 95;
	jv info = jv_get(d, rec, "info");
	if (!jv_is_object(d, info))
		return 0;
	/* Older files have no trajectory_format; info still says who wrote it. */
	jv config = jv_get(d, info, "config");
	if (jv_get(d, info, "mini_version") != JV_NONE ||
	    (jv_is_object(d, config) && jv_get(d, config, "agent_type") != JV_NONE))
		return 85;
	JV_EACH(d, jv_get(d, rec, "messages"), m) {
		const char *role = jv_str(d, jv_get(d, m, "role"));
		if (role && !strcmp(role, "exit"))
			return 80;
	}
	return 0;
}

static const char *mini_model(const struct run *r, jv rec)
{
	const struct jdoc *d = r->doc;
	jv model = jv_get(d, jv_get(d, jv_get(d, rec, "info"), "config"), "model");
	const char *m = jv_str(d, jv_get(d, model, "model_name"));
	if (!m)
		m = jv_str(d, model);
	return m ? m : loader_model(r, rec);
}

/* The exit message, or a role we do not know: a note from the harness. */
static const char *mini_note_text(struct run *r, jv m, const char *role, const char *text)
{
	const struct jdoc *d = r->doc;
	jv extra = jv_get(d, m, "extra");
	const char *status = jv_str(d, jv_get(d, extra, "exit_status"));
	const char *exc = jv_str(d, jv_get(d, extra, "exception_str"));
	const char *head = status ? arena_printf(&r->arena, "[%s: %s]", role, status)
	                          : arena_printf(&r->arena, "[%s]", role);
	bool add_exc = exc && exc[0] && !strstr(text, exc);
	return arena_printf(&r->arena, "%s%s%s%s%s", head, text[0] ? "\n" : "", text,
	                    add_exc ? "\n" : "", add_exc ? exc : "");
}

/* Whether a tool reply says its command exited non-zero: extra.returncode
 * when an integer, else an opening "<returncode>N</returncode>". */
static bool mini_failed_reply(const struct jdoc *d, jv m, const char *text)
{
	static const char open[] = "<returncode>", close[] = "</returncode>";
	jv code = jv_get(d, jv_get(d, m, "extra"), "returncode");
	if (jv_is_integer(d, code))
		return jv_int(d, code) != 0;
	if (!text)
		return false;
	while (*text == ' ' || *text == '\n' || *text == '\r' || *text == '\t')
		text++;
	if (strncmp(text, open, sizeof open - 1) != 0)
		return false;
	const char *num = text + sizeof open - 1;
	char *end;
	long n = strtol(num, &end, 10);
	bool digits = end > num && (num[0] == '-' || (num[0] >= '0' && num[0] <= '9'));
	return digits && !strncmp(end, close, sizeof close - 1) && n != 0;
}

static int mini_load_msg(struct run *r, jv m, const char *path, size_t i, void *ctx,
                         struct error *err)
{
	(void)ctx;
	const struct jdoc *d = r->doc;
	jv rv = jv_get(d, m, "role");
	const char *rs = jv_str(d, rv);
	if (!rs) {
		error_at(err, rv == JV_NONE ? ERR_MISSING : ERR_FAILED, "%s.role: %s", path, rv == JV_NONE ? "missing" : "not a string");
		return -1;
	}
	bool known;
	enum run_role role = run_role_parse(rs, &known);
	jv content, tcs, tcid, reasoning;
	if (loader_content(r, m, path, &content, err) < 0 ||
	    loader_opt_array(r, m, "tool_calls", path, "not a list or null", &tcs, err) < 0 ||
	    loader_opt_string(r, m, "tool_call_id", path, &tcid, err) < 0 ||
	    loader_opt_string(r, m, "reasoning_content", path, &reasoning, err) < 0)
		return -1;
	const char *text = run_text_of(r, content);
	if (!known && strcmp(rs, "exit") != 0) {
		loader_note_role(r, m, text, (long)i);
		return 0;
	}
	if (!known) {
		role = ROLE_USER;
		text = mini_note_text(r, m, rs, text ? text : "");
	}
	size_t mi = run_add_msg(r, role, MSG_IN_OUTPUT, NULL, m);
	r->msgs[mi].src_index = (long)i;
	if (known && jv_is_string(d, reasoning) && jv_strlen(d, reasoning))
		run_add_thinking(r, mi, jv_str(d, reasoning), reasoning);
	run_add_text(r, mi, text, JV_NONE);
	if (loader_each_field(r, tcs, path, "tool_calls", loader_function_call, &mi, err) < 0)
		return -1;
	if (role == ROLE_TOOL) {
		struct run_msg *msg = loader_tool_output(r, mi, jv_str(d, tcid), content);
		if (!msg->answers_call_id)
			msg->unmatched_result = true;
		/* no error text of its own: the timeline and tool-errors show the reply */
		if (mini_failed_reply(d, m, text))
			msg->result_is_error = true;
	}
	return 0;
}

static int mini_load(struct run *r, struct error *err)
{
	jv rec = run_root(r);
	if (!jv_is_object(r->doc, rec)) {
		error_at(err, ERR_FAILED, "a mini-swe-agent trajectory must be a JSON object");
		return -1;
	}
	jv msgs;
	if (loader_array(r, rec, "messages", &msgs, err) < 0)
		return -1;
	r->model = mini_model(r, rec);
	if (loader_each(r, msgs, "messages", mini_load_msg, NULL, err) < 0)
		return -1;
	run_join_results(r);
	return 0;
}

const struct format_ops format_mini_swe_agent = {
	.name = "mini-swe-agent",
	.summary = "mini-swe-agent trajectories {info, messages, trajectory_format} (.traj.json)",
	.detect = mini_detect,
	.load = mini_load,
};
