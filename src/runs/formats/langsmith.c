/* langsmith.c - LangSmith run exports: a run tree {id, name, run_type,
 * inputs, outputs, error, start_time, child_runs: [...]}; one root is one
 * run of ours.
 *
 * The conversation is what the last llm run (by start_time) saw, its
 * inputs.messages (a batch: a list of lists, of which the first), and what
 * it answered: outputs.generations[0][*].message (or .text), or
 * outputs.messages. Messages are LangChain's (langchain.c reads them), so
 * the ai messages' tool_calls are calls and tool messages their results.
 *
 * Tool runs are the calls that were executed, in start_time order: each
 * goes to the conversation's call it ran (by the tool_call_id of the
 * ToolMessage it returned, else the first unclaimed call of its name) and
 * gives it its result when the conversation has none; a tool run no
 * message asked for becomes a call of its own (name, inputs as arguments,
 * outputs as result, error as failure; no outputs and no error: still
 * requested). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runs/format.h"
#include "runs/loader.h"
#include "langchain.h"
#include "util/error.h"

static int ls_detect(const struct jdoc *d, jv rec)
{
	if (!jv_is_object(d, rec) || !jv_is_string(d, jv_get(d, rec, "run_type")))
		return 0;
	if (jv_get(d, rec, "inputs") == JV_NONE && jv_get(d, rec, "outputs") == JV_NONE &&
	    jv_get(d, rec, "child_runs") == JV_NONE)
		return 0;
	return 80;
}

/* A run of the tree, with where it is and when it started. */
struct ls_node {
	jv run;
	const char *type;
	const char *start;          /* ISO text, or NULL */
	double start_num;           /* epoch milliseconds (the JS SDK), when a number */
	bool has_num;
	size_t order;               /* depth-first position: ties keep the tree's order */
	char path[192];
};

struct ls_tree {
	struct ls_node *nodes;
	size_t n, cap;
};

static int ls_walk(struct run *r, struct ls_tree *t, jv run, const char *path, int depth,
                   struct error *err)
{
	const struct jdoc *d = r->doc;
	const char *at = *path ? path : "run";
	if (!jv_is_object(d, run)) {
		error_at(err, ERR_FAILED, "%s: not an object", at);
		return -1;
	}
	char fpath[256];
	snprintf(fpath, sizeof fpath, "%s%s", path, *path ? "." : "");
	jv type = jv_get(d, run, "run_type");
	if (!jv_is_string(d, type)) {
		error_at(err, type == JV_NONE ? ERR_MISSING : ERR_FAILED, "%srun_type: %s", fpath, type == JV_NONE ? "missing" : "not a string");
		return -1;
	}
	jv children = jv_get(d, run, "child_runs");
	if (children != JV_NONE && !jv_is_null(d, children) && !jv_is_array(d, children)) {
		error_at(err, ERR_FAILED, "%schild_runs: not an array", fpath);
		return -1;
	}
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 16;
		struct ls_node *nodes = realloc(t->nodes, cap * sizeof *nodes);
		if (!nodes) {
			error_at(err, ERR_FAILED, "%s: out of memory", at);
			return -1;
		}
		t->nodes = nodes;
		t->cap = cap;
	}
	struct ls_node *n = &t->nodes[t->n];
	jv start = jv_get(d, run, "start_time");
	*n = (struct ls_node){ .run = run, .type = jv_str(d, type), .start = jv_str(d, start),
	                       .has_num = jv_is_number(d, start), .order = t->n };
	if (n->has_num)
		n->start_num = jv_real(d, start);
	snprintf(n->path, sizeof n->path, "%s", path);
	t->n++;
	if (depth > 200)
		return 0;
	size_t i = 0;
	JV_EACH(d, children, c) {
		char cpath[300];
		snprintf(cpath, sizeof cpath, "%schild_runs[%zu]", fpath, i++);
		if (ls_walk(r, t, c, cpath, depth + 1, err) < 0)
			return -1;
	}
	return 0;
}

static int ls_cmp(const void *pa, const void *pb)
{
	const struct ls_node *a = pa, *b = pb;
	int c = 0;
	if (a->start && b->start)
		c = strcmp(a->start, b->start);
	else if (a->has_num && b->has_num)
		c = (a->start_num > b->start_num) - (a->start_num < b->start_num);
	if (c)
		return c;
	return (a->order > b->order) - (a->order < b->order);
}

/* "PATH.KEY", the root's fields without a leading dot. */
static void ls_path(char *buf, size_t len, const char *path, const char *key)
{
	snprintf(buf, len, "%s%s%s", path, *path ? "." : "", key);
}

static int ls_load_list(struct run *r, jv list, const char *path, struct error *err)
{
	char mpath[320];
	size_t i = 0;
	JV_EACH(r->doc, list, m) {
		snprintf(mpath, sizeof mpath, "%s[%zu]", path, i++);
		if (lc_load_message(r, m, mpath, true, err) < 0)
			return -1;
	}
	return 0;
}

/* The llm run's conversation and its answer. */
static int ls_load_llm(struct run *r, const struct ls_node *n, struct error *err)
{
	const struct jdoc *d = r->doc;
	char path[320];
	jv inputs = jv_get(d, n->run, "inputs"), outputs = jv_get(d, n->run, "outputs");
	jv msgs = jv_get(d, inputs, "messages");
	ls_path(path, sizeof path, n->path, "inputs.messages");
	if (jv_is_array(d, jv_first(d, msgs))) {
		msgs = jv_first(d, msgs);
		strcat(path, "[0]");
	}
	if (ls_load_list(r, msgs, path, err) < 0)
		return -1;
	/* Completion models take prompts, strings. */
	JV_EACH(d, jv_get(d, inputs, "prompts"), p)
		if (jv_is_string(d, p))
			run_add_msg(r, ROLE_USER, MSG_IN_OUTPUT, jv_str(d, p), p);
	jv gens = jv_get(d, outputs, "generations");
	ls_path(path, sizeof path, n->path, "outputs.generations");
	if (jv_is_array(d, jv_first(d, gens))) {
		gens = jv_first(d, gens);
		strcat(path, "[0]");
	}
	size_t i = 0;
	JV_EACH(d, gens, g) {
		char gpath[360];
		snprintf(gpath, sizeof gpath, "%s[%zu].message", path, i++);
		jv msg = jv_get(d, g, "message");
		if (msg != JV_NONE && !jv_is_null(d, msg)) {
			if (lc_load_message(r, msg, gpath, true, err) < 0)
				return -1;
		} else if (jv_is_string(d, jv_get(d, g, "text"))) {
			run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, jv_str(d, jv_get(d, g, "text")), g);
		}
	}
	ls_path(path, sizeof path, n->path, "outputs.messages");
	return ls_load_list(r, jv_get(d, outputs, "messages"), path, err);
}

/* A tool run's result: its ToolMessage's content (and status), else its
 * output, else all its outputs. */
static void ls_tool_result(struct run *r, struct run_call *c, jv run)
{
	const struct jdoc *d = r->doc;
	const char *error = jv_str(d, jv_get(d, run, "error"));
	jv outputs = jv_get(d, run, "outputs");
	jv out = jv_get(d, outputs, "output");
	if (out == JV_NONE)
		out = outputs;
	const char *type;
	jv body = lc_body(d, out, true, &type);
	if (type) {
		out = jv_get(d, body, "content");
		if (!error && jv_streq(d, jv_get(d, body, "status"), "error"))
			error = run_text_of(r, out);
	}
	if (error && *error)
		run_set_result(c, out, true, error, -1);
	else if (out != JV_NONE && !jv_is_null(d, out))
		run_set_result(c, out, false, NULL, -1);
}

static const char *ls_tool_call_id(struct run *r, jv run)
{
	const struct jdoc *d = r->doc;
	const char *type;
	jv body = lc_body(d, jv_get(d, jv_get(d, run, "outputs"), "output"), true, &type);
	return type ? loader_id(r, jv_get(d, body, "tool_call_id")) : NULL;
}

static int ls_tools(struct run *r, const struct ls_tree *t, struct error *err)
{
	const struct jdoc *d = r->doc;
	size_t nconv = r->ncalls;
	bool *claimed = calloc(nconv + 1, 1);
	if (!claimed) {
		error_at(err, ERR_FAILED, "run: out of memory");
		return -1;
	}
	for (size_t i = 0; i < t->n; i++) {
		const struct ls_node *n = &t->nodes[i];
		if (strcmp(n->type, "tool"))
			continue;
		const char *name = loader_str(r, jv_get(d, n->run, "name"), "");
		const char *id = ls_tool_call_id(r, n->run);
		long hit = -1;
		for (size_t ci = 0; id && hit < 0 && ci < nconv; ci++)
			if (!claimed[ci] && r->calls[ci].id && !strcmp(r->calls[ci].id, id))
				hit = (long)ci;
		for (size_t ci = 0; hit < 0 && ci < nconv; ci++)
			if (!claimed[ci] && !strcmp(r->calls[ci].name, name) &&
			    !(r->calls[ci].is_error && r->calls[ci].result == JV_NONE))
				hit = (long)ci;
		if (hit >= 0) {
			claimed[hit] = true;
			if (!r->calls[hit].has_result)
				ls_tool_result(r, &r->calls[hit], n->run);
			continue;
		}
		size_t mi = run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, "", n->run);
		struct run_call *c = run_add_call(r, mi);
		c->name = name;
		c->raw_name = jv_get(d, n->run, "name");
		c->id = id;
		c->src_msg_index = -1;
		jv inputs = jv_get(d, n->run, "inputs");
		if (inputs != JV_NONE && !jv_is_null(d, inputs))
			run_call_set_args(r, c, inputs);
		ls_tool_result(r, c, n->run);
	}
	free(claimed);
	return 0;
}

static int ls_load(struct run *r, struct error *err)
{
	const struct jdoc *d = r->doc;
	jv rec = run_root(r);
	if (!jv_is_object(d, rec)) {
		error_at(err, ERR_FAILED, "a langsmith record must be a run object {run_type, inputs, ...}");
		return -1;
	}
	struct ls_tree t = { 0 };
	int rc = ls_walk(r, &t, rec, "", 0, err);
	if (rc == 0) {
		qsort(t.nodes, t.n, sizeof *t.nodes, ls_cmp);
		const struct ls_node *llm = NULL;
		for (size_t i = 0; i < t.n; i++)
			if (!strcmp(t.nodes[i].type, "llm"))
				llm = &t.nodes[i];
		if (llm) {
			rc = ls_load_llm(r, llm, err);
			r->model = jv_str(d, jv_path(d, llm->run, "extra.metadata.ls_model_name"));
		}
	}
	if (rc == 0) {
		run_join_results(r);
		lc_join_by_name(r, true);
		rc = ls_tools(r, &t, err);
	}
	free(t.nodes);
	return rc;
}

const struct format_ops format_langsmith = {
	.name = "langsmith",
	.summary = "LangSmith run trees {run_type, inputs, outputs, child_runs}: the last llm run's conversation and the tool runs",
	.detect = ls_detect,
	.load = ls_load,
};
