/* tcreview.c - tcreview's own run format (doc/run-format.md), version 1.
 *
 * {"tcreview_run": 1, "id", "model", "metadata", "messages": [{"role",
 * "parts": [text | thinking | note | tool_call | tool_result]}], ...}:
 * what `tcreview convert` writes and what other programs write by hand.
 * Everything the run model holds has a member, so a conversion reads as
 * its source did; the "source" objects hold what only a converter knows
 * (the record's own ids and positions, joins no rule would make) and a
 * hand writer leaves out.
 *
 * This is the fastest loader there is: each object's members are read in
 * one pass over the tape, keys told apart by length first, and a path is
 * written only for an error. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runs/format.h"
#include "runs/loader.h"
#include "runs/run_format.h"
#include "util/xalloc.h"
#include "util/error.h"

#define KEY_IS(d, k, lit) key_is((d), (k), (lit), sizeof(lit) - 1)

static inline bool key_is(const struct jdoc *d, jv k, const char *lit, size_t n)
{
	const struct jdoc_node *key = &d->nodes[k];
	return key->count == n && !memcmp(d->strings + key->text, lit, n);
}

/* What a tool_call states of itself, applied once results are joined:
 * the message its result is in (source.result_message), its state and
 * its error over what that result says. */
struct call_said {
	long result_msg;            /* source.result_message, or -1 */
	signed char state;          /* enum call_state, or -1 */
	signed char is_error;       /* 0, 1, or -1 when not said */
	const char *error;          /* NULL when not said */
};

struct tcr_load {
	struct run *r;
	struct call_said *said;     /* per call: what it states of itself */
	size_t said_cap;
	unsigned char *msg_link;    /* per message: how its tool output joins, TCR_LINK_* */
	size_t msg_cap;
	struct error *err;
};

enum {
	TCR_LINK_NATURAL = 0,       /* by call_id, else by position */
	TCR_LINK_UNMATCHED = 1,     /* joins nothing (call_id null, source.unmatched) */
	TCR_LINK_CLAIMED = 2,       /* a call's source.result_message named it */
};

static int fail(struct tcr_load *L, enum error_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A message about a field: its path measured as error_at does. */
static int fail(struct tcr_load *L, enum error_kind kind, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	error_vat(L->err, kind, fmt, ap);
	va_end(ap);
	return -1;
}

static int tcreview_detect(const struct jdoc *d, jv rec)
{
	if (!jv_is_object(d, rec))
		return 0;
	jv k = jv_first(d, rec);
	/* Our writer puts the version first: one look for our own files. */
	if (k != JV_NONE && KEY_IS(d, k, "tcreview_run"))
		return FORMAT_DETECT_CERTAIN;
	return jv_get(d, rec, "tcreview_run") != JV_NONE ? FORMAT_DETECT_CERTAIN : 0;
}

/* ---- one part -------------------------------------------------------------- */

struct part_fields {
	jv type, text, id, name, arguments, call_id, content, result, is_error, error;
	jv state, requestor, source;
};

static void part_fields(const struct jdoc *d, jv p, struct part_fields *f)
{
	*f = (struct part_fields){ JV_NONE, JV_NONE, JV_NONE, JV_NONE, JV_NONE, JV_NONE, JV_NONE,
	                           JV_NONE, JV_NONE, JV_NONE, JV_NONE, JV_NONE, JV_NONE };
	JV_EACH_KEY(d, p, k) {
		jv v = jv_value(k);
		switch (d->nodes[k].count) {
		case 2: if (KEY_IS(d, k, "id")) f->id = v; break;
		case 4:
			if (KEY_IS(d, k, "type")) f->type = v;
			else if (KEY_IS(d, k, "text")) f->text = v;
			else if (KEY_IS(d, k, "name")) f->name = v;
			break;
		case 5:
			if (KEY_IS(d, k, "state")) f->state = v;
			else if (KEY_IS(d, k, "error")) f->error = v;
			break;
		case 6:
			if (KEY_IS(d, k, "result")) f->result = v;
			else if (KEY_IS(d, k, "source")) f->source = v;
			break;
		case 7:
			if (KEY_IS(d, k, "call_id")) f->call_id = v;
			else if (KEY_IS(d, k, "content")) f->content = v;
			break;
		case 8: if (KEY_IS(d, k, "is_error")) f->is_error = v; break;
		case 9:
			if (KEY_IS(d, k, "arguments")) f->arguments = v;
			else if (KEY_IS(d, k, "requestor")) f->requestor = v;
			break;
		default: break;
		}
	}
}

/* Where a part is, for messages: "messages[3].parts[1]". */
struct where {
	size_t msg, part;
};

static int bad(struct tcr_load *L, struct where w, const char *field, const char *what)
{
	return fail(L, ERR_FAILED, "messages[%zu].parts[%zu].%s: %s", w.msg, w.part, field, what);
}

/* A part's field that is not there: the load did not reach it. */
static int absent(struct tcr_load *L, struct where w, const char *field)
{
	return fail(L, ERR_MISSING, "messages[%zu].parts[%zu].%s: missing", w.msg, w.part, field);
}

static int opt_string(struct tcr_load *L, jv v, struct where w, const char *field,
                      const char **out)
{
	const struct jdoc *d = L->r->doc;
	if (v == JV_NONE || jv_is_null(d, v))
		return 0;
	if (!jv_is_string(d, v))
		return bad(L, w, field, "not a string");
	*out = jv_str(d, v);
	return 0;
}

static int opt_bool(struct tcr_load *L, jv v, struct where w, const char *field, bool *out)
{
	const struct jdoc *d = L->r->doc;
	if (v == JV_NONE || jv_is_null(d, v))
		return 0;
	if (!jv_is_bool(d, v))
		return bad(L, w, field, "not true or false");
	*out = jv_type(d, v) == JV_TRUE;
	return 0;
}

/* A call id: a non-empty string, or a number (printed as loaders print
 * one); absent or null is none. */
static int opt_id(struct tcr_load *L, jv v, struct where w, const char *field, const char **out)
{
	const struct jdoc *d = L->r->doc;
	if (v == JV_NONE || jv_is_null(d, v))
		return 0;
	if (!jv_is_string(d, v) && !jv_is_number(d, v))
		return bad(L, w, field, "not a string");
	*out = loader_id(L->r, v);
	return 0;
}

static int parse_state(struct tcr_load *L, jv v, struct where w, int *out)
{
	const char *s = NULL;
	if (opt_string(L, v, w, "state", &s) < 0)
		return -1;
	if (!s)
		return 0;
	static const char *const names[] = { "requested", "completed", "failed", "partial" };
	for (int i = 0; i < 4; i++)
		if (!strcmp(s, names[i])) {
			*out = i;
			return 0;
		}
	return bad(L, w, "state", "not requested, completed, failed or partial");
}

static struct call_said *grow_said(struct tcr_load *L)
{
	if (L->r->ncalls == L->said_cap) {
		L->said_cap = L->said_cap ? L->said_cap * 2 : 16;
		L->said = xrealloc(L->said, L->said_cap * sizeof *L->said);
	}
	struct call_said *s = &L->said[L->r->ncalls];
	*s = (struct call_said){ .result_msg = -1, .state = -1, .is_error = -1 };
	return s;
}

/* A call's source: the record's own id, name and state as values, its
 * positions there, and the message its result is in. */
static int call_source(struct tcr_load *L, struct run_call *c, struct call_said *said, jv src,
                       struct where w)
{
	const struct jdoc *d = L->r->doc;
	if (src == JV_NONE || jv_is_null(d, src))
		return 0;
	if (!jv_is_object(d, src))
		return bad(L, w, "source", "not an object");
	JV_EACH_KEY(d, src, k) {
		jv v = jv_value(k);
		if (KEY_IS(d, k, "id"))
			c->raw_id = v;
		else if (KEY_IS(d, k, "name"))
			c->raw_name = v;
		else if (KEY_IS(d, k, "state"))
			c->raw_state = jv_str(d, v);
		else if (KEY_IS(d, k, "message") || KEY_IS(d, k, "call") ||
		         KEY_IS(d, k, "result_message")) {
			if (!jv_is_integer(d, v) || jv_int(d, v) < 0)
				return bad(L, w, "source", "positions must be whole numbers from 0");
			long n = (long)jv_int(d, v);
			if (KEY_IS(d, k, "message"))
				c->src_msg_index = n;
			else if (KEY_IS(d, k, "call"))
				c->src_call_index = n;
			else
				said->result_msg = n;
		}
	}
	return 0;
}

static int add_tool_call(struct tcr_load *L, size_t mi, const struct part_fields *f,
                         struct where w)
{
	struct run *r = L->r;
	const struct jdoc *d = r->doc;
	const char *id = NULL, *name = NULL, *error = NULL;
	bool is_error = false;
	int state = -1;
	if (f->name == JV_NONE)
		return absent(L, w, "name");
	if (opt_id(L, f->id, w, "id", &id) < 0 || opt_string(L, f->name, w, "name", &name) < 0 ||
	    opt_bool(L, f->is_error, w, "is_error", &is_error) < 0 ||
	    opt_string(L, f->error, w, "error", &error) < 0 || parse_state(L, f->state, w, &state) < 0)
		return -1;
	const char *req = NULL;
	if (opt_string(L, f->requestor, w, "requestor", &req) < 0)
		return -1;
	if (req && strcmp(req, "agent") && strcmp(req, "user"))
		return bad(L, w, "requestor", "not agent or user");
	struct call_said *said = grow_said(L);
	struct run_call *c = run_add_call(r, mi);
	c->id = id;
	c->name = name ? name : "";
	c->raw_id = f->id;
	c->raw_name = f->name;
	c->src_msg_index = r->msgs[mi].src_index;
	c->requestor = req && !strcmp(req, "user") ? REQ_USER : REQ_AGENT;
	run_call_set_args(r, c, f->arguments);
	if (call_source(L, c, said, f->source, w) < 0)
		return -1;
	if (f->result != JV_NONE)
		run_set_result(c, f->result, is_error, error, -1);
	/* What a call states of itself stands over what its result says:
	 * applied once the results are joined. */
	said->state = (signed char)state;
	if (f->is_error != JV_NONE && !jv_is_null(d, f->is_error))
		said->is_error = is_error;
	said->error = error;
	return 0;
}

/* ---- one message ------------------------------------------------------------ */

struct msg_fields {
	jv role, origin, parts, source;
};

static void msg_fields(const struct jdoc *d, jv m, struct msg_fields *f)
{
	*f = (struct msg_fields){ JV_NONE, JV_NONE, JV_NONE, JV_NONE };
	JV_EACH_KEY(d, m, k) {
		jv v = jv_value(k);
		if (KEY_IS(d, k, "role"))
			f->role = v;
		else if (KEY_IS(d, k, "parts"))
			f->parts = v;
		else if (KEY_IS(d, k, "origin"))
			f->origin = v;
		else if (KEY_IS(d, k, "source"))
			f->source = v;
	}
}

/* The message being filled: a tool_result after the first one of a
 * message starts another message of the same role. */
struct cur_msg {
	size_t mi;
	enum run_role role;
	enum msg_origin origin;
	long src;
	jv raw;
	bool has_text;              /* a text part, even empty: no text from the result */
	bool unmatched;
};

static void set_msg_link(struct tcr_load *L, size_t mi, unsigned char link)
{
	if (mi >= L->msg_cap) {
		size_t cap = L->msg_cap ? L->msg_cap * 2 : 16;
		while (cap <= mi)
			cap *= 2;
		L->msg_link = xrealloc(L->msg_link, cap);
		memset(L->msg_link + L->msg_cap, 0, cap - L->msg_cap);
		L->msg_cap = cap;
	}
	L->msg_link[mi] = link;
}

/* A tool output with no text part of its own shows its result's text. */
static void finish_msg(struct tcr_load *L, struct cur_msg *cm)
{
	struct run *r = L->r;
	struct run_msg *m = &r->msgs[cm->mi];
	if (m->is_tool_output && !cm->has_text)
		run_add_text(r, cm->mi, run_text_of(r, m->result), JV_NONE);
}

static void open_msg(struct tcr_load *L, struct cur_msg *cm)
{
	cm->mi = run_add_msg(L->r, cm->role, cm->origin, NULL, cm->raw);
	L->r->msgs[cm->mi].src_index = cm->src;
	cm->has_text = false;
	set_msg_link(L, cm->mi, cm->unmatched ? TCR_LINK_UNMATCHED : TCR_LINK_NATURAL);
}

static int add_tool_result(struct tcr_load *L, struct cur_msg *cm, const struct part_fields *f,
                           struct where w)
{
	struct run *r = L->r;
	const char *call_id = NULL, *error = NULL;
	bool is_error = false;
	if (opt_id(L, f->call_id, w, "call_id", &call_id) < 0 ||
	    opt_bool(L, f->is_error, w, "is_error", &is_error) < 0 ||
	    opt_string(L, f->error, w, "error", &error) < 0)
		return -1;
	if (r->msgs[cm->mi].is_tool_output) {
		finish_msg(L, cm);
		open_msg(L, cm);
	}
	struct run_msg *m = loader_tool_output(r, cm->mi, call_id, f->content);
	m->result_is_error = is_error;
	m->result_error_text = error;
	/* No call_id member at all: joined by position (a null one joins nothing). */
	if (f->call_id != JV_NONE && !call_id)
		set_msg_link(L, cm->mi, TCR_LINK_UNMATCHED);
	return 0;
}

enum part_type { PT_TEXT, PT_THINKING, PT_NOTE, PT_TOOL_CALL, PT_TOOL_RESULT, PT_OTHER };

/* A part's type by its length first: no string compare for most parts. */
static enum part_type part_type_of(const struct jdoc *d, jv type)
{
	switch (d->nodes[type].count) {
	case 4:
		if (KEY_IS(d, type, "text"))
			return PT_TEXT;
		return KEY_IS(d, type, "note") ? PT_NOTE : PT_OTHER;
	case 8: return KEY_IS(d, type, "thinking") ? PT_THINKING : PT_OTHER;
	case 9: return KEY_IS(d, type, "tool_call") ? PT_TOOL_CALL : PT_OTHER;
	case 11: return KEY_IS(d, type, "tool_result") ? PT_TOOL_RESULT : PT_OTHER;
	default: return PT_OTHER;
	}
}

static int add_part(struct tcr_load *L, struct cur_msg *cm, jv p, struct where w)
{
	struct run *r = L->r;
	const struct jdoc *d = r->doc;
	if (!jv_is_object(d, p))
		return fail(L, ERR_FAILED, "messages[%zu].parts[%zu]: not an object", w.msg, w.part);
	struct part_fields f;
	part_fields(d, p, &f);
	const char *type = jv_str(d, f.type);
	if (!type)
		return f.type == JV_NONE ? absent(L, w, "type") : bad(L, w, "type", "not a string");
	enum part_type t = part_type_of(d, f.type);
	if (t == PT_TOOL_CALL)
		return add_tool_call(L, cm->mi, &f, w);
	if (t == PT_TOOL_RESULT)
		return add_tool_result(L, cm, &f, w);
	if (t == PT_OTHER) {
		run_add_note(r, cm->mi, p, "part type \"%s\" (not read)", type);
		return 0;
	}
	const char *text = NULL;
	if (opt_string(L, f.text, w, "text", &text) < 0)
		return -1;
	if (t == PT_TEXT) {
		if (!text)
			return absent(L, w, "text");
		run_add_text(r, cm->mi, text, p);
		cm->has_text = true;
	} else if (t == PT_THINKING) {
		run_add_thinking(r, cm->mi, text ? text : "", p);
	} else {
		run_add_note(r, cm->mi, p, "%s", text ? text : "");
	}
	return 0;
}

/* A message's source: its index in the record's own list (by default its
 * place in "messages"; null when it had none) and whether it is a tool
 * output left unjoined. */
static int msg_source(struct tcr_load *L, jv src, size_t i, struct cur_msg *cm)
{
	const struct jdoc *d = L->r->doc;
	if (src == JV_NONE || jv_is_null(d, src))
		return 0;
	if (!jv_is_object(d, src))
		return fail(L, ERR_FAILED, "messages[%zu].source: not an object", i);
	JV_EACH_KEY(d, src, k) {
		jv v = jv_value(k);
		if (KEY_IS(d, k, "index")) {
			if (jv_is_null(d, v))
				cm->src = -1;
			else if (jv_is_integer(d, v) && jv_int(d, v) >= 0)
				cm->src = (long)jv_int(d, v);
			else
				return fail(L, ERR_FAILED, "messages[%zu].source.index: not a whole number from 0 or null", i);
		} else if (KEY_IS(d, k, "unmatched")) {
			cm->unmatched = jv_type(d, v) == JV_TRUE;
		}
	}
	return 0;
}

static int msg_role(struct tcr_load *L, jv role, size_t i, struct cur_msg *cm, bool *note)
{
	const char *s = jv_str(L->r->doc, role);
	if (!s)
		return fail(L, role == JV_NONE ? ERR_MISSING : ERR_FAILED, "messages[%zu].role: %s", i,
		            role == JV_NONE ? "missing" : "not a string");
	bool ok;
	*note = !strcmp(s, "note");
	cm->role = *note ? ROLE_NOTE : run_role_parse(s, &ok);
	if (!*note && !ok)
		return 1;
	return 0;
}

static int add_message(struct tcr_load *L, jv m, size_t i)
{
	struct run *r = L->r;
	const struct jdoc *d = r->doc;
	if (!jv_is_object(d, m))
		return fail(L, ERR_FAILED, "messages[%zu]: not an object", i);
	struct msg_fields f;
	msg_fields(d, m, &f);
	struct cur_msg cm = { .origin = MSG_IN_OUTPUT, .src = (long)i, .raw = m };
	bool note;
	int rc = msg_role(L, f.role, i, &cm, &note);
	if (rc < 0)
		return -1;
	if (msg_source(L, f.source, i, &cm) < 0)
		return -1;
	if (rc > 0) {                   /* a role we do not know: kept, not read */
		set_msg_link(L, loader_note_role(r, m, NULL, cm.src), TCR_LINK_NATURAL);
		return 0;
	}
	if (f.origin != JV_NONE && !jv_is_null(d, f.origin)) {
		if (jv_streq(d, f.origin, "input"))
			cm.origin = MSG_IN_INPUT;
		else if (!jv_streq(d, f.origin, "output"))
			return fail(L, ERR_FAILED, "messages[%zu].origin: not \"input\" or \"output\"", i);
	}
	if (f.parts != JV_NONE && !jv_is_null(d, f.parts) && !jv_is_array(d, f.parts))
		return fail(L, ERR_FAILED, "messages[%zu].parts: not a list", i);
	open_msg(L, &cm);
	struct where w = { i, 0 };
	JV_EACH(d, f.parts, p) {
		if (add_part(L, &cm, p, w) < 0)
			return -1;
		w.part++;
	}
	finish_msg(L, &cm);
	return 0;
}

/* ---- joins -------------------------------------------------------------------- */

/* Results stated by their call (source.result_message) first, then each
 * other tool output by its call_id or, without one, by position; then
 * what each call states of itself. */
static void join_results(struct tcr_load *L)
{
	struct run *r = L->r;
	for (size_t ci = 0; ci < r->ncalls; ci++) {
		long mi = L->said[ci].result_msg;
		struct run_call *c = &r->calls[ci];
		if (mi < 0 || (size_t)mi >= r->nmsgs || (size_t)mi == c->msg_index ||
		    !r->msgs[mi].is_tool_output || c->has_result)
			continue;
		struct run_msg *m = &r->msgs[mi];
		run_set_result(c, m->result, m->result_is_error, m->result_error_text, mi);
		L->msg_link[mi] = TCR_LINK_CLAIMED;
	}
	size_t cursor = 0;
	for (size_t mi = 0; mi < r->nmsgs; mi++) {
		struct run_msg *m = &r->msgs[mi];
		if (!m->is_tool_output || L->msg_link[mi] == TCR_LINK_CLAIMED)
			continue;
		long ci = L->msg_link[mi] == TCR_LINK_UNMATCHED
		          ? -1 : run_format_join_target(r, mi, m->answers_call_id, NULL, &cursor);
		if (ci < 0)
			m->unmatched_result = true;
		else
			run_set_result(&r->calls[ci], m->result, m->result_is_error,
			               m->result_error_text, (long)mi);
	}
	for (size_t ci = 0; ci < r->ncalls; ci++) {
		const struct call_said *s = &L->said[ci];
		struct run_call *c = &r->calls[ci];
		if (s->state >= 0)
			c->state = (enum call_state)s->state;
		/* Completed or failed with no result to join: answered, with no value. */
		if (!c->has_result && (c->state == CALL_COMPLETED || c->state == CALL_FAILED))
			c->has_result = true;
		if (s->is_error >= 0)
			c->is_error = s->is_error;
		if (s->error)
			c->error_text = s->error;
	}
}

long run_format_join_target(const struct run *r, size_t mi, const char *call_id,
                            const bool *answered, size_t *cursor)
{
	/* Calls are added in the order of their messages: those before
	 * message mi are calls[0 .. first_call). */
	size_t before = r->msgs[mi].first_call;
	if (call_id) {
		for (size_t ci = before; ci-- > 0;) {
			const struct run_call *c = &r->calls[ci];
			bool done = answered ? answered[ci] : c->has_result;
			if (!done && c->id && !strcmp(c->id, call_id))
				return (long)ci;
		}
		return -1;
	}
	/* By position: the first earlier unanswered call without an id. The
	 * calls before it stay answered, so the search resumes there. */
	for (size_t ci = *cursor; ci < before; ci++) {
		const struct run_call *c = &r->calls[ci];
		bool done = answered ? answered[ci] : c->has_result;
		if (!done && !c->id) {
			*cursor = ci;
			return (long)ci;
		}
	}
	if (*cursor < before)
		*cursor = before;
	return -1;
}

/* ---- the run ------------------------------------------------------------------ */

struct run_fields {
	jv version, model, parent_id, fields, tools, source, mastra, messages;
};

static void run_fields(const struct jdoc *d, jv rec, struct run_fields *f)
{
	*f = (struct run_fields){ JV_NONE, JV_NONE, JV_NONE, JV_NONE, JV_NONE, JV_NONE, JV_NONE,
	                          JV_NONE };
	JV_EACH_KEY(d, rec, k) {
		jv v = jv_value(k);
		switch (d->nodes[k].count) {
		case 5: if (KEY_IS(d, k, "model")) f->model = v;
			else if (KEY_IS(d, k, "tools")) f->tools = v;
			break;
		case 6: if (KEY_IS(d, k, "fields")) f->fields = v;
			else if (KEY_IS(d, k, "source")) f->source = v;
			else if (KEY_IS(d, k, "mastra")) f->mastra = v;
			break;
		case 8: if (KEY_IS(d, k, "messages")) f->messages = v; break;
		case 9: if (KEY_IS(d, k, "parent_id")) f->parent_id = v; break;
		case 12: if (KEY_IS(d, k, "tcreview_run")) f->version = v; break;
		default: break;
		}
	}
}

static int run_version(struct tcr_load *L, jv v)
{
	const struct jdoc *d = L->r->doc;
	if (jv_is_integer(d, v) && jv_int(d, v) == RUN_FORMAT_VERSION)
		return 0;
	if (v == JV_NONE)
		return fail(L, ERR_MISSING, "tcreview_run: missing");
	if (jv_is_number(d, v))
		return fail(L, ERR_FAILED, "tcreview_run: version %s is not one this tcreview reads (it reads %d)",
		            jv_number_text(d, v), RUN_FORMAT_VERSION);
	return fail(L, ERR_FAILED, "tcreview_run: not a version number (this tcreview reads %d)",
	            RUN_FORMAT_VERSION);
}

static int run_string(struct tcr_load *L, jv v, const char *field, const char **out)
{
	const struct jdoc *d = L->r->doc;
	if (v == JV_NONE || jv_is_null(d, v))
		return 0;
	if (!jv_is_string(d, v))
		return fail(L, ERR_FAILED, "%s: not a string", field);
	*out = jv_str(d, v);
	return 0;
}

static int run_mastra(struct tcr_load *L, jv v)
{
	struct run *r = L->r;
	const struct jdoc *d = r->doc;
	if (v == JV_NONE || jv_is_null(d, v))
		return 0;
	jv shape = jv_get(d, v, "shape");
	if (jv_streq(d, shape, "1.x"))
		r->mastra = MASTRA_1X;
	else if (jv_streq(d, shape, "0.x"))
		r->mastra = MASTRA_0X;
	else
		return fail(L, ERR_FAILED, "mastra.shape: not \"1.x\" or \"0.x\"");
	r->mastra_io_empty = jv_type(d, jv_get(d, v, "io_empty")) == JV_TRUE;
	return 0;
}

static int run_top(struct tcr_load *L, const struct run_fields *f)
{
	struct run *r = L->r;
	const struct jdoc *d = r->doc;
	if (run_version(L, f->version) < 0 || run_string(L, f->model, "model", &r->model) < 0 ||
	    run_string(L, f->parent_id, "parent_id", &r->parent_id) < 0 || run_mastra(L, f->mastra) < 0)
		return -1;
	if (f->fields != JV_NONE && !jv_is_null(d, f->fields)) {
		if (!jv_is_object(d, f->fields))
			return fail(L, ERR_FAILED, "fields: not an object");
		r->fields = f->fields;
	}
	if (f->source != JV_NONE && !jv_is_null(d, f->source)) {
		if (!jv_is_object(d, f->source))
			return fail(L, ERR_FAILED, "source: not an object");
		r->origin = f->source;
	}
	if (f->tools != JV_NONE && !jv_is_null(d, f->tools))
		r->tool_defs = f->tools;
	if (f->messages == JV_NONE)
		return fail(L, ERR_MISSING, "messages: missing");
	if (!jv_is_array(d, f->messages))
		return fail(L, ERR_FAILED, "messages: not a list");
	return 0;
}

static int tcreview_load(struct run *r, struct error *err)
{
	const struct jdoc *d = r->doc;
	jv rec = run_root(r);
	if (!jv_is_object(d, rec)) {
		error_at(err, ERR_FAILED, "a tcreview run must be a JSON object");
		return -1;
	}
	struct tcr_load L = { .r = r, .err = err };
	struct run_fields f;
	run_fields(d, rec, &f);
	int rc = run_top(&L, &f);
	size_t i = 0;
	if (rc == 0)
		JV_EACH(d, f.messages, m)
			if ((rc = add_message(&L, m, i++)) < 0)
				break;
	if (rc == 0)
		join_results(&L);
	free(L.said);
	free(L.msg_link);
	return rc;
}

const struct format_ops format_tcreview = {
	.name = "tcreview",
	.summary = "tcreview's own run format {tcreview_run: 1, messages: [{role, parts}]} (doc/run-format.md)",
	.detect = tcreview_detect,
	.load = tcreview_load,
};
