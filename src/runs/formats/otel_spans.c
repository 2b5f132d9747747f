/* otel_spans.c - OpenTelemetry traces as runs: OTLP JSON exports (one
 * batch {resourceSpans} per file, or per line as the collector's file
 * exporter writes them), lists of SDK spans, single spans and flat
 * attribute maps. One trace is one run, its spans in the order they
 * started; what each span says is read by otel_attrs.c.
 *
 * Spans are gathered by traceId across the whole file, so the spans of a
 * gathered run no longer sit under their batch's resource (the service
 * name is not shown). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "otel_attrs.h"
#include "runs/format.h"
#include "runs/loader.h"
#include "util/hash.h"
#include "util/xalloc.h"
#include "util/error.h"

/* ---- what a span looks like ------------------------------------------------- */

static bool is_batch(const struct jdoc *d, jv v)
{
	return jv_is_array(d, jv_get(d, v, "resourceSpans"));
}

static jv span_context(const struct jdoc *d, jv v)
{
	jv c = jv_get(d, v, "spanContext");
	return c != JV_NONE ? c : jv_get(d, v, "context");
}

/* The span's trace id: OTLP's traceId, an SDK span's spanContext.traceId,
 * the Python SDK's context.trace_id. */
static jv trace_id(const struct jdoc *d, jv v)
{
	jv t = jv_get(d, v, "traceId");
	if (t != JV_NONE)
		return t;
	jv c = span_context(d, v);
	t = jv_get(d, c, "traceId");
	return t != JV_NONE ? t : jv_get(d, c, "trace_id");
}

/* A span object (not a flat map of attributes). OpenTelemetry spans have
 * a kind, never a type: records of trace exports of other tools that
 * borrow the ids (Mastra's spanType, Langfuse's type) are not spans. */
static bool is_span(const struct jdoc *d, jv v)
{
	if (!jv_is_object(d, v) || jv_get(d, v, "spanType") != JV_NONE ||
	    jv_is_string(d, jv_get(d, v, "type")))
		return false;
	bool ids = jv_is_string(d, trace_id(d, v)) &&
	           (jv_get(d, v, "spanId") != JV_NONE || span_context(d, v) != JV_NONE);
	jv attrs = jv_get(d, v, "attributes");
	return ids && (jv_is_string(d, jv_get(d, v, "name")) || jv_is_object(d, attrs) ||
	               jv_is_array(d, attrs));
}

static bool is_flat_map(const struct jdoc *d, jv v)
{
	if (!jv_is_object(d, v) || jv_get(d, v, "attributes") != JV_NONE)
		return false;
	struct otel_attrs a = { v, JV_NONE };
	return otel_attrs_known(d, &a);
}

static jv first_value(const struct jdoc *d, jv arr)
{
	JV_EACH(d, arr, e)
		if (!jv_is_null(d, e))
			return e;
	return JV_NONE;
}

static int otel_detect(const struct jdoc *d, jv v)
{
	if (jv_is_array(d, v)) {
		jv e = first_value(d, v);
		return is_batch(d, e) ? 85 : is_span(d, e) ? 80 : 0;
	}
	if (is_batch(d, v))
		return 85;
	if (is_span(d, v))
		return 75;
	return is_flat_map(d, v) ? 50 : 0;
}

/* ---- every span of a document ------------------------------------------------- */

typedef int (*span_fn)(const struct jdoc *d, jv span, const char *path, void *ctx);

static int batch_spans(const struct jdoc *d, jv batch, const char *where, span_fn fn, void *ctx,
                       struct error *err)
{
	char path[200];
	size_t i = 0;
	JV_EACH(d, jv_get(d, batch, "resourceSpans"), rs) {
		jv scopes = jv_get(d, rs, "scopeSpans");
		if (scopes == JV_NONE)
			scopes = jv_get(d, rs, "instrumentationLibrarySpans");
		snprintf(path, sizeof path, "%sresourceSpans[%zu].scopeSpans", where, i++);
		if (scopes != JV_NONE && !jv_is_array(d, scopes)) {
			error_at(err, ERR_FAILED, "%s: not an array", path);
			return -1;
		}
		size_t j = 0;
		JV_EACH(d, scopes, ss) {
			jv spans = jv_get(d, ss, "spans");
			char spath[260];
			snprintf(spath, sizeof spath, "%s[%zu].spans", path, j++);
			if (spans != JV_NONE && !jv_is_array(d, spans)) {
				error_at(err, ERR_FAILED, "%s: not an array", spath);
				return -1;
			}
			size_t k = 0;
			JV_EACH(d, spans, s) {
				char one[300];
				snprintf(one, sizeof one, "%s[%zu]", spath, k++);
				if (fn(d, s, one, ctx) < 0)
					return -1;
			}
		}
	}
	return 0;
}

/* Calls fn on each span of v: a batch's, a list's (of batches or spans)
 * or v itself. */
static int each_span(const struct jdoc *d, jv v, span_fn fn, void *ctx, struct error *err)
{
	if (is_batch(d, v))
		return batch_spans(d, v, "", fn, ctx, err);
	if (!jv_is_array(d, v))
		return fn(d, v, "", ctx);
	size_t i = 0;
	JV_EACH(d, v, e) {
		char path[40];
		snprintf(path, sizeof path, "[%zu]", i++);
		int rc = is_batch(d, e) ? batch_spans(d, e, path, fn, ctx, err)
		                        : fn(d, e, path, ctx);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* ---- split: one run per trace --------------------------------------------------- */

struct trace_ref {
	const char *trace;          /* NULL: a span of no trace, a run of its own */
	size_t order;
	jv span;
};

struct trace_refs {
	struct trace_ref *v;
	size_t n, cap;
};

static int collect_ref(const struct jdoc *d, jv span, const char *path, void *ctx)
{
	(void)path;
	struct trace_refs *t = ctx;
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 64;
		t->v = xrealloc(t->v, t->cap * sizeof *t->v);
	}
	t->v[t->n] = (struct trace_ref){ jv_str(d, trace_id(d, span)), t->n, span };
	t->n++;
	return 0;
}

static int ref_cmp(const void *pa, const void *pb)
{
	const struct trace_ref *a = pa, *b = pb;
	if (a->trace && b->trace) {
		int c = strcmp(a->trace, b->trace);
		if (c)
			return c;
	} else if (a->trace || b->trace) {
		return a->trace ? -1 : 1;
	}
	return a->order < b->order ? -1 : a->order > b->order;
}

struct trace_group {
	size_t first, n, order;
};

static int group_cmp(const void *pa, const void *pb)
{
	const struct trace_group *a = pa, *b = pb;
	return a->order < b->order ? -1 : a->order > b->order;
}

static void otel_split(const struct jdoc *d, jv root, struct doc_groups *out)
{
	struct trace_refs t = { 0 };
	struct error err = {0};
	each_span(d, root, collect_ref, &t, &err);
	if (t.n)
		qsort(t.v, t.n, sizeof *t.v, ref_cmp);
	struct trace_group *g = xcalloc(t.n ? t.n : 1, sizeof *g);
	size_t ng = 0;
	for (size_t i = 0; i < t.n; i++) {
		bool same = i && t.v[i].trace && t.v[i - 1].trace &&
		            !strcmp(t.v[i].trace, t.v[i - 1].trace);
		if (!same)
			g[ng++] = (struct trace_group){ i, 0, t.v[i].order };
		g[ng - 1].n++;
	}
	/* runs in the order their traces first appear */
	if (ng)
		qsort(g, ng, sizeof *g, group_cmp);
	for (size_t k = 0; k < ng; k++) {
		doc_group_begin(out);
		for (size_t i = 0; i < g[k].n; i++)
			doc_group_add(out, t.v[g[k].first + i].span);
	}
	free(g);
	free(t.v);
}

/* ---- the spans of a run ------------------------------------------------------------ */

struct span {
	jv v;
	struct otel_attrs attrs;
	uint64_t start_ns;
	const char *start_text;     /* an ISO time, compared as text; NULL when numeric */
	size_t order;
	const char *name;
	jv trace;
	struct otel_span_io io;
};

struct spans {
	struct span *v;
	size_t n, cap;
};

static uint64_t digits_u64(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);
	return *end ? 0 : (uint64_t)v;
}

/* startTimeUnixNano (a string of digits or a number), an SDK span's hrtime
 * [seconds, nanoseconds], or the Python SDK's ISO start_time. */
static void read_start(const struct jdoc *d, jv span, struct span *s)
{
	jv t = jv_get(d, span, "startTimeUnixNano");
	if (t == JV_NONE)
		t = jv_get(d, span, "startTime");
	if (t == JV_NONE)
		t = jv_get(d, span, "start_time");
	if (jv_is_array(d, t) && jv_len(d, t) == 2)
		s->start_ns = (uint64_t)jv_int(d, jv_at(d, t, 0)) * 1000000000u +
		              (uint64_t)jv_int(d, jv_at(d, t, 1));
	else if (jv_is_number(d, t))
		s->start_ns = (uint64_t)jv_int(d, t);
	else if (jv_is_string(d, t) && (s->start_ns = digits_u64(jv_str(d, t))) == 0)
		s->start_text = jv_str(d, t);
}

struct collect_ctx {
	struct spans *spans;
	struct error *err;
};

static int collect_span(const struct jdoc *d, jv v, const char *path, void *ctx)
{
	struct collect_ctx *c = ctx;
	if (!jv_is_object(d, v)) {
		error_at(c->err, ERR_FAILED, "%s: not an object", path[0] ? path : "span");
		return -1;
	}
	struct span s = { .v = v, .attrs = { JV_NONE, JV_NONE }, .order = c->spans->n };
	if (is_flat_map(d, v)) {
		s.attrs.obj = v;
	} else {
		jv a = jv_get(d, v, "attributes");
		if (jv_is_object(d, a))
			s.attrs.obj = a;
		else if (jv_is_array(d, a))
			s.attrs.list = a;
		else if (a != JV_NONE && !jv_is_null(d, a)) {
			error_at(c->err, ERR_FAILED, "%s%sattributes: not an object or a list", path,
			         path[0] ? "." : "");
			return -1;
		}
		s.name = jv_str(d, jv_get(d, v, "name"));
		s.trace = trace_id(d, v);
		read_start(d, v, &s);
	}
	struct spans *sp = c->spans;
	if (sp->n == sp->cap) {
		sp->cap = sp->cap ? sp->cap * 2 : 16;
		sp->v = xrealloc(sp->v, sp->cap * sizeof *sp->v);
	}
	sp->v[sp->n++] = s;
	return 0;
}

static int span_cmp(const void *pa, const void *pb)
{
	const struct span *a = pa, *b = pb;
	if (a->start_ns != b->start_ns)
		return a->start_ns < b->start_ns ? -1 : 1;
	int c = strcmp(a->start_text ? a->start_text : "", b->start_text ? b->start_text : "");
	if (c)
		return c;
	return a->order < b->order ? -1 : a->order > b->order;
}

/* ---- the run ------------------------------------------------------------------------ */

/* The conversation so far, as fingerprints of the messages added, so that
 * a later span's input history adds only what is new. */
struct build {
	struct run *r;
	uint64_t *fps;
	size_t nfps, cap;
};

static uint64_t msg_fingerprint(const struct run *r, const struct otel_msgs *m,
                                const struct otel_msg *om)
{
	uint64_t h = hash_fnv1a_part(hash_fnv1a_part(HASH_FNV_SEED, om->role), om->answers);
	for (size_t i = 0; i < om->n; i++) {
		const struct otel_part *p = &m->parts[om->first + i];
		char kind[2] = { (char)('a' + p->kind), 0 };
		h = hash_fnv1a_part(h, kind);
		h = hash_fnv1a_part(h, p->text);
		h = hash_fnv1a_part(h, p->id);
		h = hash_fnv1a_part(h, p->name);
		if (p->kind == OTEL_RESULT && !p->id)
			h = hash_fnv1a_part(h, jv_str_or(r->doc, p->value, ""));
	}
	return h;
}

static size_t fp_count(const uint64_t *v, size_t n, uint64_t fp)
{
	size_t c = 0;
	for (size_t i = 0; i < n; i++)
		c += v[i] == fp;
	return c;
}

static void fp_push(struct build *b, uint64_t fp)
{
	if (b->nfps == b->cap) {
		b->cap = b->cap ? b->cap * 2 : 32;
		b->fps = xrealloc(b->fps, b->cap * sizeof *b->fps);
	}
	b->fps[b->nfps++] = fp;
}

/* The call a tool span ran: the one of its id (NULL when that one has its
 * result), else the newest unanswered call of its name that names no
 * other id (model spans that give no ids, tool spans that give none). */
static struct run_call *find_call(struct run *r, const char *id, const char *name)
{
	for (size_t i = r->ncalls; id && i-- > 0;) {
		struct run_call *c = &r->calls[i];
		if (c->id && !strcmp(c->id, id))
			return c->has_result ? NULL : c;
	}
	for (size_t i = r->ncalls; i-- > 0;) {
		struct run_call *c = &r->calls[i];
		if ((!id || !c->id) && !c->has_result && !strcmp(c->name, name))
			return c;
	}
	return NULL;
}

static bool call_known(const struct run *r, const char *id)
{
	for (size_t i = 0; id && i < r->ncalls; i++)
		if (r->calls[i].id && !strcmp(r->calls[i].id, id))
			return true;
	return false;
}

static bool answered(const struct run *r, const char *id)
{
	for (size_t i = 0; id && i < r->ncalls; i++)
		if (r->calls[i].id && !strcmp(r->calls[i].id, id) && r->calls[i].has_result)
			return true;
	return false;
}

static void add_call(struct run *r, size_t mi, const struct otel_part *p)
{
	struct run_call *c = run_add_call(r, mi);
	c->id = p->id;
	c->raw_id = p->raw_id;
	c->name = p->name;
	c->raw_name = p->raw_name;
	run_call_set_args(r, c, p->args);
}

static void add_result(struct run *r, const char *id, jv value, jv raw)
{
	if (answered(r, id))
		return;         /* a tool span gave it already */
	size_t mi = run_add_msg(r, ROLE_TOOL, MSG_IN_OUTPUT, NULL, raw);
	loader_tool_output(r, mi, id, value);
}

/* One message's parts into the run: calls and texts in the message of its
 * role, each result a tool message of its own. */
static void add_parts(struct run *r, enum run_role role, const struct otel_msgs *m,
                      const struct otel_msg *om)
{
	size_t mi = SIZE_MAX;
	bool added = false;
	for (size_t i = 0; i < om->n; i++) {
		const struct otel_part *p = &m->parts[om->first + i];
		if (p->kind == OTEL_RESULT) {
			add_result(r, p->id, p->value, p->raw);
			mi = SIZE_MAX;
			added = true;
			continue;
		}
		if (p->kind == OTEL_CALL && call_known(r, p->id))
			continue;       /* a nested span repeating its parent's call */
		if (mi == SIZE_MAX)
			mi = run_add_msg(r, role, MSG_IN_OUTPUT, NULL, om->raw);
		added = true;
		if (p->kind == OTEL_TEXT)
			run_add_text(r, mi, p->text, p->raw);
		else if (p->kind == OTEL_THINKING)
			run_add_thinking(r, mi, p->text, p->raw);
		else if (p->kind == OTEL_CALL)
			add_call(r, mi, p);
		else
			run_add_note(r, mi, p->raw, "%s", p->text);
	}
	if (!added && om->n == 0)
		run_add_msg(r, role, MSG_IN_OUTPUT, NULL, om->raw);
}

static void add_message(struct run *r, const struct otel_msgs *m, const struct otel_msg *om)
{
	bool ok;
	enum run_role role = run_role_parse(om->role, &ok);
	if (!om->role) {
		/* the notes of a list that was not one, else a message of no role */
		bool notes = om->n > 0;
		for (size_t i = 0; i < om->n; i++)
			notes = notes && m->parts[om->first + i].kind == OTEL_NOTE;
		if (!notes)
			run_add_note_msg(r, MSG_IN_OUTPUT, om->raw, "a message without a role (not read)");
		for (size_t i = 0; notes && i < om->n; i++)
			run_add_note_msg(r, MSG_IN_OUTPUT, om->raw, "%s", m->parts[om->first + i].text);
		return;
	}
	if (!ok) {
		run_add_note_msg(r, MSG_IN_OUTPUT, om->raw, "role \"%s\" (not read)", om->role);
		return;
	}
	/* a tool message whose text is the result (Chat, OpenInference) */
	if (role == ROLE_TOOL && om->answers) {
		jv value = JV_NONE;
		for (size_t i = 0; i < om->n && value == JV_NONE; i++)
			if (m->parts[om->first + i].kind == OTEL_TEXT)
				value = m->parts[om->first + i].value;
		if (value != JV_NONE) {
			add_result(r, om->answers, value, om->raw);
			return;
		}
	}
	add_parts(r, role, m, om);
}

/* A list of messages; with dedupe, those the conversation already holds
 * as often are passed over (an LLM span's input repeats the history). */
static void add_messages(struct build *b, const struct otel_msgs *m, bool dedupe)
{
	for (size_t k = 0; k < m->n; k++) {
		uint64_t fp = msg_fingerprint(b->r, m, &m->msgs[k]);
		if (dedupe) {
			size_t in_list = 1;
			for (size_t j = 0; j < k; j++)
				in_list += msg_fingerprint(b->r, m, &m->msgs[j]) == fp;
			if (in_list <= fp_count(b->fps, b->nfps, fp))
				continue;
		} else if (b->nfps && b->fps[b->nfps - 1] == fp) {
			continue;       /* the same reply told by a nested span */
		}
		fp_push(b, fp);
		add_message(b->r, m, &m->msgs[k]);
	}
}

static bool span_failed(const struct jdoc *d, jv span, const char **text)
{
	/* OTLP and the JS SDK: {code: 2 or STATUS_CODE_ERROR, message};
	 * the Python SDK: {status_code: ERROR, description} */
	jv status = jv_get(d, span, "status");
	jv code = jv_get(d, status, "code");
	if (code == JV_NONE)
		code = jv_get(d, status, "status_code");
	if (code == JV_NONE)
		code = jv_get(d, span, "status_code");         /* Phoenix */
	*text = jv_str(d, jv_get(d, status, "message"));
	if (!*text)
		*text = jv_str(d, jv_get(d, status, "description"));
	if (!*text)
		*text = jv_str(d, jv_get(d, span, "status_message"));
	/* else the exception event the SDK recorded */
	JV_EACH(d, jv_get(d, span, "events"), ev) {
		if (*text || !jv_streq(d, jv_get(d, ev, "name"), "exception"))
			continue;
		jv attrs = jv_get(d, ev, "attributes");
		struct otel_attrs a = { jv_is_object(d, attrs) ? attrs : JV_NONE,
		                        jv_is_array(d, attrs) ? attrs : JV_NONE };
		*text = otel_attr_str(d, &a, "exception.message");
	}
	return (jv_is_number(d, code) && jv_int(d, code) == 2) ||
	       jv_streq(d, code, "STATUS_CODE_ERROR") || jv_streq(d, code, "ERROR");
}

/* A tool span: the result of the call it ran, or the call itself when no
 * model span asked for it. */
static void add_tool(struct run *r, const struct span *s)
{
	const struct otel_tool *t = &s->io.tool;
	const char *etext = NULL;
	bool failed = span_failed(r->doc, s->v, &etext);
	if (failed && !etext)
		etext = jv_str(r->doc, t->result);
	struct run_call *c = find_call(r, t->id, t->name);
	if (!c && t->id && answered(r, t->id))
		return;
	if (!c) {
		size_t mi = run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, NULL, s->v);
		c = run_add_call(r, mi);
		c->id = t->id;
		c->raw_id = t->raw_id;
		c->name = t->name;
		c->raw_name = t->raw_name;
		run_call_set_args(r, c, t->args);
	}
	if (t->result != JV_NONE || failed)
		run_set_result(c, t->result, failed, failed ? (etext ? etext : "error") : NULL, -1);
}

static void build_run(struct run *r, struct spans *sp)
{
	struct build b = { .r = r };
	bool has_llm = false;
	for (size_t i = 0; i < sp->n; i++)
		has_llm |= sp->v[i].io.kind == OTEL_SPAN_LLM;
	for (size_t i = 0; i < sp->n; i++) {
		struct span *s = &sp->v[i];
		enum otel_span_kind k = s->io.kind;
		if (!r->model && s->io.model && (k == OTEL_SPAN_LLM || !has_llm))
			r->model = s->io.model;
		if (k == OTEL_SPAN_TOOL) {
			add_tool(r, s);
		} else if (k == OTEL_SPAN_LLM || (k == OTEL_SPAN_AGENT && !has_llm)) {
			add_messages(&b, &s->io.in, true);
			add_messages(&b, &s->io.out, k == OTEL_SPAN_AGENT);
		}
	}
	free(b.fps);
	run_join_results(r);
	/* a trace of named spans that held no conversation says so; an empty
	 * record stays empty */
	if (r->nmsgs == 0 && sp->n && sp->v[0].name)
		run_add_note_msg(r, MSG_IN_OUTPUT, run_root(r), "%zu span%s with no GenAI messages (first: %s)",
		                 sp->n, sp->n == 1 ? "" : "s", sp->v[0].name);
}

static int otel_load(struct run *r, struct error *err)
{
	struct jdoc *d = r->doc;
	jv root = run_root(r);
	if (!jv_is_object(d, root) && !jv_is_array(d, root)) {
		/* split makes each line of a JSONL file that is not JSON (null
		 * in the file's document) a run of its own, which says so */
		error_at(err, ERR_FAILED, jv_is_null(d, root) ? "a line that is not JSON, or null"
		                                          : "not an OpenTelemetry span, list of spans or OTLP export");
		return -1;
	}
	struct spans sp = { 0 };
	struct collect_ctx c = { &sp, err };
	if (each_span(d, root, collect_span, &c, err) < 0) {
		free(sp.v);
		return -1;
	}
	if (sp.n)       /* qsort wants a list, even of none */
		qsort(sp.v, sp.n, sizeof *sp.v, span_cmp);
	for (size_t i = 0; i < sp.n; i++)
		otel_read_span(r, &sp.v[i].attrs, sp.v[i].name, sp.v[i].v, &sp.v[i].io);
	build_run(r, &sp);
	for (size_t i = 0; i < sp.n; i++) {
		if (r->id == r->source && jv_str(d, sp.v[i].trace) && jv_strlen(d, sp.v[i].trace))
			r->id = jv_str(d, sp.v[i].trace);
		otel_msgs_free(&sp.v[i].io.in);
		otel_msgs_free(&sp.v[i].io.out);
	}
	free(sp.v);
	return 0;
}

const struct format_ops format_otel = {
	.name = "otel",
	.summary = "OpenTelemetry traces {resourceSpans} (.json, collector .jsonl), span lists, attribute maps (GenAI, OpenInference, AI SDK); one trace a run",
	.detect = otel_detect,
	.unit = UNIT_FILE,
	.split = otel_split,
	.load = otel_load,
};
