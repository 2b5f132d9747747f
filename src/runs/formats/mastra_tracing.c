/* mastra_tracing.c - Mastra AI tracing exports: one agent run a run.
 *
 * Mastra's tracing (observability) records an agent run as a tree of
 * spans. Its exporters' test snapshots write the tree as nodes {span,
 * children: [nodes]} under {spans: [...]}; a span is {id, traceId, name,
 * type, parentId, entityType, entityId, attributes, metadata, input,
 * output, errorInfo?: {message, id, domain, category}, startTime?,
 * isEvent}. Exporters that receive ExportedSpans one by one write them
 * flat, the tree given by parentSpanId; storage rows spell id and type
 * spanId and spanType, the error `error` and the start `startedAt`. All
 * of these are read: an array of trees, a snapshot, a flat list of spans,
 * or a JSONL file of any of them (UNIT_FILE: read as the array of lines).
 *
 * `split` makes each agent_run span that no other agent run holds one run:
 * its subtree (a node), or its spans (a flat list, gathered as an array).
 *
 * Span types (AISpanType, later SpanType): agent_run, model_generation
 * (llm_generation before), model_step, model_chunk, tool_call,
 * mcp_tool_call, processor_run, workflow_* and generic. The run is read in
 * time order (children by startTime when they have one):
 * - the agent run's attributes.instructions is the system message and its
 *   input (a string, or messages) the user's;
 * - each model_step's output {text, reasoning, toolCalls} is an assistant
 *   turn; a model_generation without steps speaks its own output;
 * - a tool_call or mcp_tool_call span is a call of the turn before it:
 *   named by attributes.toolId, else the tool entity (entityId), else the
 *   span's name without Mastra's "tool: '...'" around it; its input the
 *   arguments, its output the result, errorInfo a failure. Its id is the
 *   toolCallId of the model_chunk "tool-call" that announced it.
 * model_chunk, processor_run and workflow spans are structure (skipped,
 * their children read); a tool's own child spans are its internals; other
 * spans (generic, unknown types) are notes. */
#include <stdio.h>
#include <string.h>

#include "runs/format.h"
#include "runs/loader.h"
#include "util/xalloc.h"
#include "util/error.h"

static const char *const mt_types[] = {
	"agent_run", "model_generation", "llm_generation", "model_step", "model_chunk",
	"llm_chunk", "tool_call", "mcp_tool_call", "processor_run", "workflow_run",
	"workflow_step", "workflow_conditional", "workflow_conditional_eval", "workflow_parallel",
	"workflow_loop", "workflow_sleep", "workflow_wait_event", "generic", NULL,
};

/* A span's field under either of its spellings. */
static jv mt_field(const struct jdoc *d, jv span, const char *key, const char *alt)
{
	jv v = jv_get(d, span, key);
	return v != JV_NONE || !alt ? v : jv_get(d, span, alt);
}

static const char *mt_type(const struct jdoc *d, jv span)
{
	return jv_str(d, mt_field(d, span, "type", "spanType"));
}

static bool mt_is_span(const struct jdoc *d, jv span)
{
	const char *type = mt_type(d, span);
	if (!jv_is_object(d, span) || !type)
		return false;
	for (size_t i = 0; mt_types[i]; i++)
		if (!strcmp(type, mt_types[i]))
			return jv_is_string(d, mt_field(d, span, "id", "spanId")) ||
			       jv_is_string(d, jv_get(d, span, "traceId"));
	return false;
}

/* {span, children?}: a node of the tree. */
static bool mt_is_node(const struct jdoc *d, jv node)
{
	jv kids = jv_get(d, node, "children");
	return jv_is_object(d, node) && mt_is_span(d, jv_get(d, node, "span")) &&
	       (kids == JV_NONE || jv_is_array(d, kids));
}

/* The element that says what an array holds: its first object. */
static jv mt_first_object(const struct jdoc *d, jv arr)
{
	JV_EACH(d, arr, e)
		if (jv_is_object(d, e))
			return e;
	return JV_NONE;
}

static int mt_detect(const struct jdoc *d, jv rec)
{
	if (mt_is_node(d, rec))
		return 90;
	jv spans = jv_get(d, rec, "spans");
	if (jv_is_object(d, rec) && mt_is_node(d, mt_first_object(d, spans)))
		return 90;
	if (jv_is_array(d, rec)) {
		jv first = mt_first_object(d, rec);
		if (mt_is_node(d, first))
			return 90;
		return mt_is_span(d, first) ? 85 : 0;
	}
	return mt_is_span(d, rec) ? 80 : 0;
}

/* ---- the tree ----------------------------------------------------------- */

/* Spans as one tree whatever the shape: nodes[i].span, its parent's
 * index and its children in time order. */
struct mt_node {
	jv span, value;             /* the span; the node or span the record holds */
	long parent;
	size_t *kids, nkids, cap;
};

struct mt_tree {
	struct mt_node *nodes;
	size_t n, cap;
};

static void mt_add_kid(struct mt_tree *t, size_t parent, size_t kid)
{
	struct mt_node *p = &t->nodes[parent];
	if (p->nkids == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 4;
		p->kids = xrealloc(p->kids, p->cap * sizeof(*p->kids));
	}
	p->kids[p->nkids++] = kid;
}

static size_t mt_add(struct mt_tree *t, jv span, jv value, long parent)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 32;
		t->nodes = xrealloc(t->nodes, t->cap * sizeof(*t->nodes));
	}
	t->nodes[t->n] = (struct mt_node){ span, value, parent, NULL, 0, 0 };
	if (parent >= 0)
		mt_add_kid(t, (size_t)parent, t->n);
	return t->n++;
}

static void mt_free(struct mt_tree *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->nodes[i].kids);
	free(t->nodes);
}

/* Nodes {span, children} and everything below them. */
static void mt_add_nodes(const struct jdoc *d, struct mt_tree *t, jv list, long parent)
{
	JV_EACH(d, list, node) {
		if (!mt_is_node(d, node))
			continue;
		size_t i = mt_add(t, jv_get(d, node, "span"), node, parent);
		mt_add_nodes(d, t, jv_get(d, node, "children"), (long)i);
	}
}

static const char *mt_parent_id(const struct jdoc *d, jv span)
{
	return jv_str(d, mt_field(d, span, "parentSpanId", "parentId"));
}

/* A flat list of spans: each hung under the span its parentSpanId names
 * (spans whose parent is not in the list are roots). */
static void mt_add_flat(const struct jdoc *d, struct mt_tree *t, jv list)
{
	struct mt_tree flat = { 0 };
	JV_EACH(d, list, s)
		if (mt_is_span(d, s))
			mt_add(&flat, s, s, -1);
	long *parent = xcalloc(flat.n ? flat.n : 1, sizeof(*parent));
	for (size_t i = 0; i < flat.n; i++) {
		const char *pid = mt_parent_id(d, flat.nodes[i].span);
		parent[i] = -1;
		for (size_t j = 0; pid && j < flat.n; j++)
			if (j != i && jv_streq(d, mt_field(d, flat.nodes[j].span, "id", "spanId"), pid))
				parent[i] = (long)j;
	}
	/* Parents before children: add roots, then the children of each node
	 * added, in the list's order. */
	long *at = xcalloc(flat.n ? flat.n : 1, sizeof(*at));
	for (size_t i = 0; i < flat.n; i++)
		at[i] = parent[i] < 0 ? (long)mt_add(t, flat.nodes[i].span, flat.nodes[i].value, -1) : -1;
	for (bool more = true; more;) {
		more = false;
		for (size_t i = 0; i < flat.n; i++) {
			if (at[i] >= 0 || at[parent[i]] < 0)
				continue;
			at[i] = (long)mt_add(t, flat.nodes[i].span, flat.nodes[i].value, at[parent[i]]);
			more = true;
		}
	}
	free(at);
	free(parent);
	mt_free(&flat);
}

static const char *mt_start(const struct jdoc *d, jv span)
{
	return jv_str(d, mt_field(d, span, "startTime", "startedAt"));
}

/* Children in time order when they all say when they started (ISO times
 * sort as strings); as listed otherwise. Insertion sort: stable. */
static void mt_sort_kids(const struct jdoc *d, struct mt_tree *t)
{
	for (size_t i = 0; i < t->n; i++) {
		struct mt_node *p = &t->nodes[i];
		bool timed = true;
		for (size_t k = 0; k < p->nkids; k++)
			timed = timed && mt_start(d, t->nodes[p->kids[k]].span);
		for (size_t k = 1; timed && k < p->nkids; k++) {
			size_t v = p->kids[k], j = k;
			const char *s = mt_start(d, t->nodes[v].span);
			while (j > 0 && strcmp(mt_start(d, t->nodes[p->kids[j - 1]].span), s) > 0) {
				p->kids[j] = p->kids[j - 1];
				j--;
			}
			p->kids[j] = v;
		}
	}
}

/* The tree of whatever shape root has. */
static void mt_build(const struct jdoc *d, jv root, struct mt_tree *t)
{
	if (mt_is_node(d, root)) {
		size_t i = mt_add(t, jv_get(d, root, "span"), root, -1);
		mt_add_nodes(d, t, jv_get(d, root, "children"), (long)i);
	} else if (jv_is_object(d, root) && jv_is_array(d, jv_get(d, root, "spans"))) {
		mt_add_nodes(d, t, jv_get(d, root, "spans"), -1);
	} else if (jv_is_array(d, root) && mt_is_node(d, mt_first_object(d, root))) {
		mt_add_nodes(d, t, root, -1);
	} else if (jv_is_array(d, root)) {
		/* a flat list, or JSONL lines that are nodes or spans */
		bool nodes = false;
		JV_EACH(d, root, e)
			nodes = nodes || mt_is_node(d, e);
		if (nodes)
			mt_add_nodes(d, t, root, -1);
		else
			mt_add_flat(d, t, root);
	} else if (mt_is_span(d, root)) {
		mt_add(t, root, root, -1);
	}
	mt_sort_kids(d, t);
}

static bool mt_is_type(const struct jdoc *d, jv span, const char *type)
{
	const char *t = mt_type(d, span);
	return t && !strcmp(t, type);
}

/* The agent run holding node i, or -1. */
static long mt_agent_above(const struct jdoc *d, const struct mt_tree *t, size_t i)
{
	for (long p = t->nodes[i].parent; p >= 0; p = t->nodes[p].parent)
		if (mt_is_type(d, t->nodes[p].span, "agent_run"))
			return p;
	return -1;
}

/* A node and everything under it, for a run of flat spans. */
static void mt_group_subtree(const struct mt_tree *t, size_t i, struct doc_groups *out)
{
	doc_group_add(out, t->nodes[i].value);
	for (size_t k = 0; k < t->nodes[i].nkids; k++)
		mt_group_subtree(t, t->nodes[i].kids[k], out);
}

static void mt_split(const struct jdoc *d, jv root, struct doc_groups *out)
{
	struct mt_tree t = { 0 };
	mt_build(d, root, &t);
	/* the runs hang under a root of their own, so they come in time order */
	size_t top = mt_add(&t, JV_NONE, JV_NONE, -1);
	for (size_t i = 0; i < top; i++)
		if (mt_is_type(d, t.nodes[i].span, "agent_run") && mt_agent_above(d, &t, i) < 0)
			mt_add_kid(&t, top, i);
	mt_sort_kids(d, &t);
	for (size_t k = 0; k < t.nodes[top].nkids; k++) {
		size_t i = t.nodes[top].kids[k];
		doc_group_begin(out);
		/* a node holds its subtree; a flat span only itself */
		if (mt_is_node(d, t.nodes[i].value))
			doc_group_add(out, t.nodes[i].value);
		else
			mt_group_subtree(&t, i, out);
	}
	mt_free(&t);
}

/* ---- reading a run ------------------------------------------------------- */

struct mt_load {
	const struct mt_tree *t;
	long pending[64];           /* calls of the newest turn awaiting their result message */
	size_t npending;
	size_t pending_node[64];
	bool spoke;                 /* an assistant turn had text */
	const char *chunk_id;       /* the last tool-call chunk's toolCallId */
	const char *chunk_tool;     /* and its toolName */
};

static const char *mt_text_of(const struct jdoc *d, jv v)
{
	const char *s = jv_str(d, v);
	return s ? s : jv_str(d, jv_get(d, v, "text"));
}

/* The results of the newest turn's calls, as tool messages after it. */
static void mt_flush(struct run *r, struct mt_load *l)
{
	const struct jdoc *d = r->doc;
	for (size_t k = 0; k < l->npending; k++) {
		jv span = l->t->nodes[l->pending_node[k]].span;
		struct run_call *c = &r->calls[l->pending[k]];
		jv err = mt_field(d, span, "errorInfo", "error");
		jv out = jv_get(d, span, "output");
		if (!jv_is_object(d, err) && out == JV_NONE)
			continue;           /* still running, or cut off */
		size_t mi = run_add_msg(r, ROLE_TOOL, MSG_IN_OUTPUT, mt_text_of(d, out), span);
		struct run_msg *m = loader_tool_output(r, mi, c->id, out);
		if (jv_is_object(d, err))
			loader_mark_failed(m, jv_str(d, jv_get(d, err, "message")));
		run_set_result(&r->calls[l->pending[k]], out, m->result_is_error, m->result_error_text,
		               (long)mi);
	}
	l->npending = 0;
}

static size_t mt_msg(struct run *r, struct mt_load *l, enum run_role role, const char *text,
                     jv raw)
{
	mt_flush(r, l);
	return run_add_msg(r, role, MSG_IN_OUTPUT, text, raw);
}

/* A message list's content: a string, or parts with text. */
static void mt_input_msgs(struct run *r, struct mt_load *l, jv list)
{
	const struct jdoc *d = r->doc;
	JV_EACH(d, list, m) {
		bool ok = false;
		enum run_role role = ROLE_USER;
		const char *rs = jv_str(d, jv_get(d, m, "role"));
		if (rs)
			role = run_role_parse(rs, &ok);
		if (!ok) {
			mt_flush(r, l);
			run_add_note_msg(r, MSG_IN_OUTPUT, m, "input message with role \"%s\" (not read)",
			                 rs ? rs : "");
			continue;
		}
		mt_msg(r, l, role, run_text_of(r, jv_get(d, m, "content")), m);
	}
}

/* The agent run's instructions and input. */
static void mt_agent_start(struct run *r, struct mt_load *l, jv span)
{
	const struct jdoc *d = r->doc;
	const char *sys = jv_str(d, jv_get(d, jv_get(d, span, "attributes"), "instructions"));
	if (sys && sys[0])
		mt_msg(r, l, ROLE_SYSTEM, sys, span);
	jv in = jv_get(d, span, "input");
	if (jv_is_string(d, in))
		mt_msg(r, l, ROLE_USER, jv_str(d, in), in);
	else if (jv_is_array(d, in))
		mt_input_msgs(r, l, in);
	else if (jv_is_array(d, jv_get(d, in, "messages")))
		mt_input_msgs(r, l, jv_get(d, in, "messages"));
	else if (in != JV_NONE && !jv_is_null(d, in))
		run_add_note_msg(r, MSG_IN_OUTPUT, in, "agent input (not read)");
}

/* An assistant turn from a step's or a generation's output; none when it
 * says nothing (its calls make their own turn). */
static void mt_turn(struct run *r, struct mt_load *l, jv out)
{
	const struct jdoc *d = r->doc;
	const char *text = mt_text_of(d, out);
	jv reasoning = jv_get(d, out, "reasoning");
	jv rtext = jv_get(d, out, "reasoningText");
	bool thinks = jv_len(d, reasoning) || (jv_is_string(d, reasoning) && jv_strlen(d, reasoning)) ||
	              (jv_is_string(d, rtext) && jv_strlen(d, rtext));
	jv object = jv_get(d, out, "object");
	if ((!text || !text[0]) && !thinks && object == JV_NONE)
		return;
	size_t mi = mt_msg(r, l, ROLE_ASSISTANT, NULL, out);
	if (jv_is_string(d, reasoning))
		run_add_thinking(r, mi, jv_str(d, reasoning), reasoning);
	JV_EACH(d, reasoning, part)
		run_add_thinking(r, mi, loader_str(r, jv_is_string(d, part) ? part : jv_get(d, part, "text"), ""),
		                 part);
	if (jv_is_string(d, rtext) && !jv_is_array(d, reasoning) && !jv_is_string(d, reasoning))
		run_add_thinking(r, mi, jv_str(d, rtext), rtext);
	if (text && text[0]) {
		run_add_text(r, mi, text, out);
		l->spoke = true;
	} else if (object != JV_NONE) {
		size_t n;
		const char *raw = jv_raw(d, object, &n);
		run_add_text(r, mi, arena_strndup(&r->arena, raw, n), object);
		l->spoke = true;
	}
}

/* A tool's name: toolId, the tool entity, or the span's name unwrapped. */
static const char *mt_tool_name(struct run *r, jv span)
{
	const struct jdoc *d = r->doc;
	const char *id = jv_str(d, jv_get(d, jv_get(d, span, "attributes"), "toolId"));
	if (id && id[0])
		return id;
	const char *entity = jv_str(d, jv_get(d, span, "entityId"));
	if (entity && entity[0] && jv_streq(d, jv_get(d, span, "entityType"), "tool"))
		return entity;
	const char *name = loader_str(r, jv_get(d, span, "name"), "");
	size_t n = strlen(name);
	const char *lead = strstr(name, ": '");
	if (lead && n > 0 && name[n - 1] == '\'' && lead + 3 < name + n - 1)
		return arena_strndup(&r->arena, lead + 3, (size_t)(name + n - 1 - (lead + 3)));
	return name;
}

static void mt_tool(struct run *r, struct mt_load *l, size_t node)
{
	const struct jdoc *d = r->doc;
	jv span = l->t->nodes[node].span;
	size_t mi = r->nmsgs ? r->nmsgs - 1 : 0;
	/* the turn before it, unless results came since (then a turn of its own) */
	if (!r->nmsgs || r->msgs[mi].role != ROLE_ASSISTANT || l->npending == 64)
		mi = mt_msg(r, l, ROLE_ASSISTANT, NULL, span);
	struct run_call *c = run_add_call(r, mi);
	c->name = mt_tool_name(r, span);
	c->raw_name = jv_get(d, span, "name");
	if (l->chunk_id && l->chunk_tool && !strcmp(l->chunk_tool, c->name)) {
		c->id = l->chunk_id;
		l->chunk_id = NULL;
	}
	jv in = jv_get(d, span, "input");
	run_call_set_args(r, c, jv_is_null(d, in) ? JV_NONE : in);
	l->pending[l->npending] = (long)(r->ncalls - 1);
	l->pending_node[l->npending++] = node;
}

static void mt_walk(struct run *r, struct mt_load *l, size_t node);

static void mt_walk_kids(struct run *r, struct mt_load *l, size_t node)
{
	const struct mt_node *n = &l->t->nodes[node];
	for (size_t k = 0; k < n->nkids; k++)
		mt_walk(r, l, n->kids[k]);
}

/* A model_chunk that announces a call: its id, for the tool span next. */
static void mt_chunk(struct run *r, struct mt_load *l, jv span)
{
	const struct jdoc *d = r->doc;
	jv out = jv_get(d, span, "output");
	if (!jv_streq(d, jv_get(d, jv_get(d, span, "attributes"), "chunkType"), "tool-call"))
		return;
	l->chunk_id = jv_str(d, jv_get(d, out, "toolCallId"));
	l->chunk_tool = jv_str(d, jv_get(d, out, "toolName"));
}

static void mt_generation(struct run *r, struct mt_load *l, size_t node)
{
	const struct jdoc *d = r->doc;
	const struct mt_node *n = &l->t->nodes[node];
	jv attrs = jv_get(d, n->span, "attributes");
	const char *model = jv_str(d, jv_get(d, attrs, "model"));
	if (!model)
		model = jv_str(d, jv_get(d, attrs, "responseModel"));
	if (!r->model && model && model[0])
		r->model = model;
	bool steps = false;
	for (size_t k = 0; k < n->nkids; k++)
		steps = steps || mt_is_type(d, l->t->nodes[n->kids[k]].span, "model_step");
	mt_walk_kids(r, l, node);
	if (!steps)
		mt_turn(r, l, jv_get(d, n->span, "output"));
}

static void mt_walk(struct run *r, struct mt_load *l, size_t node)
{
	const struct jdoc *d = r->doc;
	jv span = l->t->nodes[node].span;
	const char *type = loader_str(r, mt_field(d, span, "type", "spanType"), "");
	if (!strcmp(type, "model_generation") || !strcmp(type, "llm_generation")) {
		mt_generation(r, l, node);
	} else if (!strcmp(type, "model_step")) {
		mt_turn(r, l, jv_get(d, span, "output"));
		mt_walk_kids(r, l, node);
	} else if (!strcmp(type, "model_chunk") || !strcmp(type, "llm_chunk")) {
		mt_chunk(r, l, span);
	} else if (!strcmp(type, "tool_call") || !strcmp(type, "mcp_tool_call")) {
		mt_tool(r, l, node);
	} else if (!strcmp(type, "agent_run")) {
		/* an agent another agent (or a workflow inside it) ran */
		mt_flush(r, l);
		run_add_note_msg(r, MSG_IN_OUTPUT, span, "agent run \"%s\"",
		                 loader_str(r, jv_get(d, span, "name"), ""));
		mt_walk_kids(r, l, node);
	} else if (!strncmp(type, "workflow_", 9) || !strcmp(type, "processor_run")) {
		mt_walk_kids(r, l, node);
	} else {
		mt_flush(r, l);
		run_add_note_msg(r, MSG_IN_OUTPUT, span, "span %s \"%s\" (not read)", type,
		                 loader_str(r, jv_get(d, span, "name"), ""));
		mt_walk_kids(r, l, node);
	}
}

/* The first agent run no other holds: the run's root. */
static long mt_root(const struct jdoc *d, const struct mt_tree *t)
{
	for (size_t i = 0; i < t->n; i++)
		if (mt_is_type(d, t->nodes[i].span, "agent_run") && mt_agent_above(d, t, i) < 0)
			return (long)i;
	return -1;
}

static void mt_identity(struct run *r, jv span)
{
	const struct jdoc *d = r->doc;
	const char *id = jv_str(d, jv_get(d, jv_get(d, span, "metadata"), "runId"));
	if (!id || !id[0])
		id = jv_str(d, mt_field(d, span, "id", "spanId"));
	/* the dataset named a lone span by its own id; the run's id is better */
	const char *own = jv_str(d, mt_field(d, span, "id", "spanId"));
	if ((r->id == r->source || (own && !strcmp(r->id, own))) && id && id[0])
		r->id = id;
}

static int mt_load(struct run *r, struct error *err)
{
	const struct jdoc *d = r->doc;
	jv rec = run_root(r);
	if (!jv_is_object(d, rec) && !jv_is_array(d, rec)) {
		error_at(err, ERR_FAILED, "a Mastra trace must be a span tree or a list of spans");
		return -1;
	}
	struct mt_tree t = { 0 };
	mt_build(d, rec, &t);
	long root = mt_root(d, &t);
	if (root < 0) {
		mt_free(&t);
		error_at(err, ERR_FAILED, "no agent_run span");
		return -1;
	}
	struct mt_load l = { .t = &t };
	jv span = t.nodes[root].span;
	mt_identity(r, span);
	mt_agent_start(r, &l, span);
	mt_walk_kids(r, &l, (size_t)root);
	mt_flush(r, &l);
	if (!l.spoke)
		mt_turn(r, &l, jv_get(d, span, "output"));
	jv err_info = mt_field(d, span, "errorInfo", "error");
	if (jv_is_object(d, err_info))
		run_add_note_msg(r, MSG_IN_OUTPUT, err_info, "agent run failed: %s",
		                 loader_str(r, jv_get(d, err_info, "message"), "(no message)"));
	mt_free(&t);
	return 0;
}

const struct format_ops format_mastra_tracing = {
	.name = "mastra-tracing",
	.summary = "Mastra AI tracing: span trees {span, children} or flat spans (parentSpanId); each agent_run a run",
	.detect = mt_detect,
	.unit = UNIT_FILE,
	.split = mt_split,
	.load = mt_load,
};
