/* langfuse.c - Langfuse trace exports {trace, observations}: one run per trace, its observations read in time order.
 *
 * Observations are GENERATIONs (model calls), TOOLs (tool executions),
 * SPANs, AGENTs, EVENTs and a few more kinds, each with input, output and
 * metadata that integrations often write as JSON text; they come in any
 * order and nest by parentObservationId. Read by startTime (a parent
 * before its children at the same time):
 *
 * - a GENERATION that holds other generations (the AI SDK's
 *   ai.generateText around ai.generateText.doGenerate) repeats what they
 *   said and is passed over; every other one gives the run what its output
 *   says (langfuse_msgs.c reads the shapes), or its toolCalls when the
 *   output shows no call. The first one's input gives the system prompt
 *   and the user's request (else the trace's input does); later inputs
 *   repeat the history and add only results and new user turns.
 * - a TOOL is the execution of a call: it gives the call its result,
 *   found by the id in its metadata attributes (ai.toolCall.id,
 *   gen_ai.tool.call.id), else as the first call of its name that no TOOL
 *   answered yet. One no generation asked for is a call of its own.
 * - EVENTs, unknown kinds and failed observations are kept as notes.
 *
 * The trace the public API returns, {id, ..., observations} with full
 * observations inside, is read the same way, and so is a list of
 * observations (bare, or the API's page {data, meta}), cut by traceId.
 *
 * A call shows up in several places (a generation's output, its
 * toolCalls, the wrapping generation, a TOOL): it is one call.
 * trace.observations, when present, repeats the observations without
 * their input and output and is not read. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runs/format.h"
#include "runs/loader.h"
#include "util/hash.h"
#include "util/htab.h"
#include "util/xalloc.h"
#include "langfuse.h"
#include "util/error.h"

/* The kinds of observation Langfuse has; others are notes. */
static const char *const lf_types[] = {
	"GENERATION", "TOOL", "SPAN", "AGENT", "EVENT", "CHAIN", "RETRIEVER", "EVALUATOR",
	"EMBEDDING", "GUARDRAIL", NULL,
};

static bool lf_known_type(const char *type)
{
	for (size_t i = 0; type && lf_types[i]; i++)
		if (!strcmp(type, lf_types[i]))
			return true;
	return false;
}

/* The trace the public API returns, {id, ..., observations: [...]} with
 * the observations inside (an export's trace.observations lacks their
 * input and output, and is not read). */
static bool lf_is_api_trace(const struct jdoc *d, jv rec)
{
	jv first = jv_first(d, jv_get(d, rec, "observations"));
	return jv_get(d, rec, "trace") == JV_NONE && jv_is_string(d, jv_get(d, rec, "id")) &&
	       jv_is_string(d, jv_get(d, first, "traceId")) &&
	       lf_known_type(jv_str(d, jv_get(d, first, "type")));
}

/* One observation as the API lists them: a known type, and its trace. */
static bool lf_is_observation(const struct jdoc *d, jv v)
{
	return jv_is_string(d, jv_get(d, v, "traceId")) &&
	       lf_known_type(jv_str(d, jv_get(d, v, "type")));
}

/* A document of observations that is no trace: a bare list of them, or a
 * page of the public API's list, {data: [...], meta}. JV_NONE otherwise. */
static jv lf_obs_list(const struct jdoc *d, jv root)
{
	if (jv_is_array(d, root))
		return lf_is_observation(d, jv_first(d, root)) ? root : JV_NONE;
	jv data = jv_get(d, root, "data");
	return jv_is_array(d, data) && lf_is_observation(d, jv_first(d, data)) ? data : JV_NONE;
}

static int lf_detect(const struct jdoc *d, jv rec)
{
	jv trace = jv_get(d, rec, "trace");
	if (lf_obs_list(d, rec) != JV_NONE)
		return 80;
	/* One observation on its own (a JSONL export, one a line): a run of
	 * its own, named by its trace; above the Responses loader, which its
	 * input and output members would otherwise draw. */
	if (jv_is_object(d, rec) && lf_is_observation(d, rec) && jv_is_string(d, jv_get(d, rec, "id")))
		return 75;
	if (!jv_is_object(d, rec) || !jv_is_array(d, jv_get(d, rec, "observations")))
		return 0;
	if (lf_is_api_trace(d, rec))
		return 85;
	return jv_is_object(d, trace) && jv_is_string(d, jv_get(d, trace, "id")) ? 90 : 0;
}

/* ---- split: a run per trace of a list of observations ------------------------ */

struct lf_ref {
	const char *trace;
	size_t order;
	jv v;
};

static int lf_ref_cmp(const void *pa, const void *pb)
{
	const struct lf_ref *a = pa, *b = pb;
	int c = a->trace && b->trace ? strcmp(a->trace, b->trace) : !!b->trace - !!a->trace;
	return c ? c : (a->order > b->order) - (a->order < b->order);
}

static int lf_order_cmp(const void *pa, const void *pb)
{
	const struct lf_ref *a = pa, *b = pb;
	return (a->order > b->order) - (a->order < b->order);
}

/* An export or a trace is one run; a list of observations is cut by
 * traceId, the runs in the order their traces first appear (an element
 * with no traceId is a run of its own, and says what is wrong with it). */
static void lf_split(const struct jdoc *d, jv root, struct doc_groups *out)
{
	jv list = lf_obs_list(d, root);
	size_t n = jv_len(d, list), k = 0;
	if (list == JV_NONE || !n) {
		doc_group_begin(out);
		doc_group_add(out, root);
		return;
	}
	struct lf_ref *refs = xcalloc(n, sizeof *refs);
	JV_EACH(d, list, o) {
		refs[k] = (struct lf_ref){ jv_str(d, jv_get(d, o, "traceId")), k, o };
		k++;
	}
	qsort(refs, n, sizeof *refs, lf_ref_cmp);
	/* firsts[g] = the first ref of group g, then sorted by record order */
	struct lf_ref *firsts = xcalloc(n, sizeof *firsts);
	size_t ng = 0;
	for (size_t i = 0; i < n; i++)
		if (!i || !refs[i].trace || !refs[i - 1].trace || strcmp(refs[i].trace, refs[i - 1].trace))
			firsts[ng++] = (struct lf_ref){ refs[i].trace, refs[i].order, (jv)i };
	qsort(firsts, ng, sizeof *firsts, lf_order_cmp);
	for (size_t g = 0; g < ng; g++) {
		doc_group_begin(out);
		for (size_t i = firsts[g].v; i < n; i++) {
			if (i > firsts[g].v && (!refs[i].trace || !firsts[g].trace ||
			                        strcmp(refs[i].trace, firsts[g].trace)))
				break;
			doc_group_add(out, refs[i].v);
		}
	}
	free(firsts);
	free(refs);
}

/* ---- the observations in reading order --------------------------------------- */

struct lf_obs {
	jv v;
	const char *id, *parent, *start, *type;
	size_t order;               /* position in the record */
	size_t depth;               /* parents above it in the file */
	bool wraps;                 /* a generation around other generations */
	/* Only until the observations are sorted: */
	struct lf_obs *up;          /* its parent, NULL when not in the file */
	int state;                  /* depth: 0 not known, 1 being found, 2 known */
	bool above_generation;      /* a generation is below it */
};

struct lf_trace {
	struct lf_obs *obs;
	size_t n;
	struct htab by_id;
};

static bool lf_obs_eq(const void *item, const void *key)
{
	return !strcmp(((const struct lf_obs *)item)->id, key);
}

static uint64_t lf_hash(const char *id)
{
	return hash_fnv1a(id, strlen(id), HASH_FNV_SEED);
}

static struct lf_obs *lf_obs_get(const struct lf_trace *t, const char *id)
{
	return id ? htab_get(&t->by_id, lf_hash(id), lf_obs_eq, id) : NULL;
}

/* An observation's path in messages: WHERE[i], or WHERE alone for the
 * one observation a record is (LF_ALONE). */
#define LF_ALONE ((size_t)-1)

static const char *lf_obs_path(char *buf, size_t len, const char *where, size_t i)
{
	if (i == LF_ALONE)
		snprintf(buf, len, "%s", where);
	else
		snprintf(buf, len, "%s[%zu]", where, i);
	return buf;
}

/* obs[i].KEY: a string, null or absent, else an error naming it. */
static int lf_obs_str(const struct jdoc *d, jv o, const char *where, size_t i, const char *key,
                      bool required, const char **out, struct error *err)
{
	jv v = jv_get(d, o, key);
	*out = jv_str(d, v);
	if (*out || (!required && (v == JV_NONE || jv_is_null(d, v))))
		return 0;
	char at[64];
	error_at(err, v == JV_NONE ? ERR_MISSING : ERR_FAILED, "%s.%s: %s", lf_obs_path(at, sizeof at, where, i), key,
	         v == JV_NONE ? "missing" : "not a string");
	return -1;
}

static int lf_obs_read(const struct jdoc *d, jv o, const char *where, size_t i, struct lf_obs *ob,
                       struct error *err)
{
	if (!jv_is_object(d, o)) {
		char at[64];
		error_at(err, ERR_FAILED, "%s: not an object", lf_obs_path(at, sizeof at, where, i));
		return -1;
	}
	*ob = (struct lf_obs){ .v = o, .order = i == LF_ALONE ? 0 : i };
	if (lf_obs_str(d, o, where, i, "type", true, &ob->type, err) < 0 ||
	    lf_obs_str(d, o, where, i, "id", false, &ob->id, err) < 0 ||
	    lf_obs_str(d, o, where, i, "parentObservationId", false, &ob->parent, err) < 0 ||
	    lf_obs_str(d, o, where, i, "startTime", false, &ob->start, err) < 0)
		return -1;
	static const char *const lists[] = { "toolCalls", "toolCallNames", NULL };
	for (size_t k = 0; lists[k]; k++) {
		jv v = jv_get(d, o, lists[k]);
		if (v != JV_NONE && !jv_is_null(d, v) && !jv_is_array(d, v)) {
			char at[64];
			error_at(err, ERR_FAILED, "%s.%s: not an array", lf_obs_path(at, sizeof at, where, i),
			         lists[k]);
			return -1;
		}
	}
	return 0;
}

/* Depths (how many parents above), each observation's parent found once.
 * A chain is walked up to the first observation whose depth is known; a
 * circle of parents in a hostile file counts from where it closes. */
static void lf_depths(struct lf_trace *t, struct lf_obs **chain)
{
	for (size_t i = 0; i < t->n; i++) {
		size_t n = 0;
		struct lf_obs *p = &t->obs[i];
		while (p && !p->state) {
			p->state = 1;
			chain[n++] = p;
			p = p->up;
		}
		size_t depth = p && p->state == 2 ? p->depth + 1 : 0;
		while (n--) {
			chain[n]->depth = depth++;
			chain[n]->state = 2;
		}
	}
}

/* Which generations hold others: every observation above a generation is
 * marked once, and a walk stops at one already marked (all above it are). */
static void lf_nest(struct lf_trace *t)
{
	for (size_t i = 0; i < t->n; i++)
		t->obs[i].up = lf_obs_get(t, t->obs[i].parent);
	struct lf_obs **chain = xcalloc(t->n + 1, sizeof *chain);
	lf_depths(t, chain);
	free(chain);
	for (size_t i = 0; i < t->n; i++) {
		if (strcmp(t->obs[i].type, "GENERATION"))
			continue;
		for (struct lf_obs *p = t->obs[i].up; p && !p->above_generation && p != &t->obs[i];
		     p = p->up)
			p->above_generation = true;
	}
	for (size_t i = 0; i < t->n; i++)
		t->obs[i].wraps = t->obs[i].above_generation && !strcmp(t->obs[i].type, "GENERATION");
}

static int lf_obs_cmp(const void *pa, const void *pb)
{
	const struct lf_obs *a = pa, *b = pb;
	int c = a->start && b->start ? strcmp(a->start, b->start) : !!a->start - !!b->start;
	if (!c)
		c = (a->depth > b->depth) - (a->depth < b->depth);
	return c ? c : (a->order > b->order) - (a->order < b->order);
}

/* The observations of list (an array named `where` in messages, or one
 * observation alone: a trace of one in a split list). */
static int lf_trace_read(struct run *r, jv list, const char *where, struct lf_trace *t, struct error *err)
{
	const struct jdoc *d = r->doc;
	t->obs = xcalloc(jv_len(d, list) + 1, sizeof *t->obs);
	if (jv_is_object(d, list)) {
		t->n = 1;
		return lf_obs_read(d, list, where, LF_ALONE, &t->obs[0], err);
	}
	JV_EACH(d, list, o) {
		if (lf_obs_read(d, o, where, t->n, &t->obs[t->n], err) < 0)
			return -1;
		t->n++;
	}
	for (size_t i = 0; i < t->n; i++) {
		if (!t->obs[i].id)
			continue;
		void **slot = htab_put(&t->by_id, lf_hash(t->obs[i].id), lf_obs_eq, t->obs[i].id);
		if (!*slot)
			*slot = &t->obs[i];
	}
	lf_nest(t);
	qsort(t->obs, t->n, sizeof *t->obs, lf_obs_cmp);
	return 0;
}

/* ---- reading them ----------------------------------------------------------- */

struct lf_load {
	struct run *r;
	jv trace;
	struct lf_index ix;
	bool first_done;            /* the first model call's input was read */
	bool *claimed;              /* calls a TOOL observation answered */
	size_t claimed_cap;
	const struct lf_obs **later;/* TOOLs whose call was not there yet */
	size_t nlater;
};

/* The metadata's OpenTelemetry attributes (metadata is often JSON text). */
static jv lf_attributes(struct run *r, jv o)
{
	return jv_get(r->doc, lf_json(r, jv_get(r->doc, o, "metadata")), "attributes");
}

static bool lf_has_user(const struct run *r)
{
	for (size_t i = 0; i < r->nmsgs; i++)
		if (r->msgs[i].role == ROLE_USER && !r->msgs[i].is_tool_output)
			return true;
	return false;
}

/* The tools offered: toolDefinitions when a list, else the GenAI
 * attribute gen_ai.tool.definitions, else metadata.tools of objects. */
static void lf_tool_defs(struct run *r, jv o)
{
	const struct jdoc *d = r->doc;
	if (r->tool_defs != JV_NONE)
		return;
	jv defs = jv_get(d, o, "toolDefinitions");
	if (!jv_len(d, defs) || !jv_is_array(d, defs))
		defs = lf_json(r, jv_get(d, lf_attributes(r, o), "gen_ai.tool.definitions"));
	if (!jv_len(d, defs) || !jv_is_array(d, defs))
		defs = jv_get(d, lf_json(r, jv_get(d, o, "metadata")), "tools");
	if (jv_is_array(d, defs) && jv_is_object(d, jv_first(d, defs)))
		r->tool_defs = defs;
}

static void lf_failed_note(struct run *r, const struct lf_obs *o)
{
	const struct jdoc *d = r->doc;
	if (!jv_streq(d, jv_get(d, o->v, "level"), "ERROR"))
		return;
	run_add_note_msg(r, MSG_IN_OUTPUT, o->v, "%s \"%s\" failed: %s", o->type,
	                 loader_str(r, jv_get(d, o->v, "name"), ""),
	                 loader_str(r, jv_get(d, o->v, "statusMessage"), "no message"));
}

static void lf_generation(struct lf_load *L, const struct lf_obs *o)
{
	struct run *r = L->r;
	const struct jdoc *d = r->doc;
	if (o->wraps)
		return;
	if (!L->first_done) {
		lf_read(r, &L->ix, jv_get(d, o->v, "input"), o->v, LF_INPUT_FIRST);
		if (!lf_has_user(r))
			lf_read(r, &L->ix, jv_get(d, L->trace, "input"), L->trace, LF_INPUT_FIRST);
		L->first_done = true;
	} else {
		lf_read(r, &L->ix, jv_get(d, o->v, "input"), o->v, LF_INPUT_LATER);
	}
	if (!lf_read(r, &L->ix, jv_get(d, o->v, "output"), o->v, LF_OUTPUT))
		lf_read_tool_calls(r, &L->ix, jv_get(d, o->v, "toolCalls"),
		                   jv_get(d, o->v, "toolCallNames"), o->v);
	if (!r->model)
		r->model = jv_str(d, jv_get(d, o->v, "model"));
	lf_tool_defs(r, o->v);
	lf_failed_note(r, o);
}

static void lf_tool_result(struct run *r, struct run_call *c, jv o)
{
	const struct jdoc *d = r->doc;
	jv out = lf_json(r, jv_get(d, o, "output"));
	if (jv_streq(d, jv_get(d, o, "level"), "ERROR"))
		run_set_result(c, out, true, loader_str(r, jv_get(d, o, "statusMessage"), "error"), -1);
	else if (out != JV_NONE)
		run_set_result(c, out, false, NULL, -1);
}

/* The id of the call a TOOL ran, from its metadata: the AI SDK's and the
 * GenAI convention's attributes, OpenInference's, or the metadata itself. */
static const char *lf_tool_id(struct run *r, jv o)
{
	static const char *const keys[] = { "ai.toolCall.id", "gen_ai.tool.call.id", "tool_call.id",
	                                    NULL };
	const struct jdoc *d = r->doc;
	jv meta = lf_json(r, jv_get(d, o, "metadata")), attrs = jv_get(d, meta, "attributes");
	for (size_t i = 0; keys[i]; i++) {
		const char *id = loader_id(r, jv_get(d, attrs, keys[i]));
		if (id)
			return id;
	}
	jv id = jv_get(d, meta, "toolCallId");
	return loader_id(r, id != JV_NONE ? id : jv_get(d, meta, "tool_call_id"));
}

static bool lf_claimed(size_t call, void *ctx)
{
	const struct lf_load *L = ctx;
	return call < L->claimed_cap && L->claimed[call];
}

/* The call a TOOL observation ran: by id, else the first of its name no
 * TOOL answered yet. */
static bool lf_tool_join(struct lf_load *L, const struct lf_obs *o)
{
	struct run *r = L->r;
	const struct jdoc *d = r->doc;
	if (L->claimed_cap < r->ncalls) {
		size_t cap = r->ncalls > 2 * L->claimed_cap ? r->ncalls : 2 * L->claimed_cap;
		L->claimed = xrealloc(L->claimed, cap * sizeof *L->claimed);
		memset(L->claimed + L->claimed_cap, 0, (cap - L->claimed_cap) * sizeof *L->claimed);
		L->claimed_cap = cap;
	}
	const char *id = lf_tool_id(r, o->v);
	size_t known = 0;
	call_index_get(&L->ix.tool_ids, id, &known);
	/* An id no call has (another SDK's ids than the generation's) says
	 * nothing: then the name does. */
	long hit = known ? call_index_first_free(&L->ix.tool_ids, id, lf_claimed, L)
	                 : call_index_first_free(&L->ix.tool_names,
	                                         loader_str(r, jv_get(d, o->v, "name"), ""),
	                                         lf_claimed, L);
	if (hit < 0)
		return false;
	L->claimed[hit] = true;
	if (!r->calls[hit].has_result)
		lf_tool_result(r, &r->calls[hit], o->v);
	return true;
}

/* A TOOL no generation asked for: what ran is a call all the same. */
static void lf_tool_call(struct lf_load *L, const struct lf_obs *o)
{
	struct run *r = L->r;
	const struct jdoc *d = r->doc;
	size_t mi = run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, "", o->v);
	struct run_call *c = run_add_call(r, mi);
	c->raw_name = jv_get(d, o->v, "name");
	c->name = loader_str(r, c->raw_name, "");
	c->id = lf_tool_id(r, o->v);
	c->src_msg_index = -1;
	jv in = lf_json(r, jv_get(d, o->v, "input"));
	/* Some SDKs wrap the arguments: {"input": {...}}. */
	if (jv_len(d, in) == 1 && jv_is_object(d, jv_get(d, in, "input")))
		in = jv_get(d, in, "input");
	if (in != JV_NONE && !jv_is_null(d, in))
		run_call_set_args(r, c, in);
	lf_tool_result(r, c, o->v);
	lf_index_add(r, &L->ix, r->ncalls - 1);
}

static void lf_observation(struct lf_load *L, const struct lf_obs *o)
{
	struct run *r = L->r;
	const char *t = o->type;
	if (!strcmp(t, "GENERATION")) {
		lf_generation(L, o);
	} else if (!strcmp(t, "TOOL")) {
		if (!lf_tool_join(L, o))
			L->later[L->nlater++] = o;
	} else if (!strcmp(t, "EVENT")) {
		run_add_note_msg(r, MSG_IN_OUTPUT, o->v, "event \"%s\"",
		                 loader_str(r, jv_get(r->doc, o->v, "name"), ""));
	} else if (lf_known_type(t)) {
		lf_failed_note(r, o);
	} else {
		run_add_note_msg(r, MSG_IN_OUTPUT, o->v, "observation type \"%s\" (not read)", t);
	}
}

/* The observations of trace t, read into r. */
static void lf_read_trace(struct run *r, jv trace, const struct lf_trace *t)
{
	struct lf_load L = { .r = r, .trace = trace };
	L.later = xcalloc(t->n + 1, sizeof *L.later);
	for (size_t i = 0; i < t->n; i++)
		lf_observation(&L, &t->obs[i]);
	for (size_t i = 0; i < L.nlater; i++)
		if (!lf_tool_join(&L, L.later[i]))
			lf_tool_call(&L, L.later[i]);
	if (r->nmsgs == 0) {
		/* No model call: what the trace says it was given and answered. */
		lf_read(r, &L.ix, jv_get(r->doc, trace, "input"), trace, LF_INPUT_FIRST);
		lf_read(r, &L.ix, jv_get(r->doc, trace, "output"), trace, LF_OUTPUT);
	}
	free(L.claimed);
	free(L.later);
	lf_index_free(&L.ix);
}

/* Where the record keeps its observations, and the trace they are of
 * (JV_NONE for a list of observations, or the one a split left alone). */
static int lf_find_list(struct run *r, jv rec, jv *trace, jv *list, const char **where,
                        struct error *err)
{
	const struct jdoc *d = r->doc;
	*trace = JV_NONE;
	*list = lf_obs_list(d, rec);
	*where = jv_is_array(d, rec) ? "" : "data";
	if (*list != JV_NONE || jv_is_array(d, rec) || lf_is_observation(d, rec)) {
		if (*list == JV_NONE)
			*list = rec;
		if (jv_is_object(d, rec) && *list == rec)
			*where = "observation";
		return 0;
	}
	if (!jv_is_object(d, rec)) {
		error_at(err, ERR_FAILED, "a langfuse export must be an object {trace, observations}");
		return -1;
	}
	*trace = lf_is_api_trace(d, rec) ? rec : jv_get(d, rec, "trace");
	*where = "observations";
	if (!jv_is_object(d, *trace)) {
		error_at(err, *trace == JV_NONE ? ERR_MISSING : ERR_FAILED, "trace: %s", *trace == JV_NONE ? "missing" : "not an object");
		return -1;
	}
	return loader_array(r, rec, "observations", list, err);
}

static int lf_load(struct run *r, struct error *err)
{
	const struct jdoc *d = r->doc;
	jv trace, list;
	const char *where;
	if (lf_find_list(r, run_root(r), &trace, &list, &where, err) < 0)
		return -1;
	struct lf_trace t = { 0 };
	int rc = lf_trace_read(r, list, where, &t, err);
	if (rc == 0) {
		jv id = trace != JV_NONE ? jv_get(d, trace, "id")
		      : t.n ? jv_get(d, t.obs[0].v, "traceId") : JV_NONE;
		/* unless an id path of the configuration named the run already (the
		 * id a lone observation has is its own, not its trace's) */
		bool own = t.n == 1 && t.obs[0].id && !strcmp(r->id, t.obs[0].id);
		if ((r->id == r->source || own) && jv_strlen(d, id))
			r->id = jv_str(d, id);
		lf_read_trace(r, trace, &t);
	}
	htab_free(&t.by_id);
	free(t.obs);
	return rc;
}

const struct format_ops format_langfuse = {
	.name = "langfuse",
	.summary = "Langfuse trace exports {trace, observations}, API traces and observation lists (a run per trace): generations, tools and spans in time order",
	.detect = lf_detect,
	.split = lf_split,
	.load = lf_load,
};
