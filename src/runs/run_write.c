/* run_write.c - a loaded run written as one line of the run format.
 *
 * Deterministic: members in a fixed order, values copied from the
 * record's own text (white space out, so a pretty .json source still makes
 * one line, and the terminal controls escaped as util/jsonw escapes them),
 * strings of the model written by jsonw. A line read back and written
 * again is the same bytes: what is derived on reading (a tool output's
 * text, a call's result joined by id or position) is left out when the
 * reader will derive it the same, and stated (the "source" objects) when
 * it would not. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runs/run_format.h"
#include "util/jsonw.h"
#include "util/xalloc.h"

/* ---- values ---------------------------------------------------------------- */

static void put_str(struct strbuf *sb, const char *s)
{
	jsonw_string(sb, s ? s : "", s ? strlen(s) : 0);
}

static void put_key(struct strbuf *sb, bool *first, const char *key)
{
	if (!*first)
		strbuf_addch(sb, ',');
	*first = false;
	strbuf_addch(sb, '"');
	strbuf_addstr(sb, key);
	strbuf_addstr(sb, "\":");
}

/* The value's own bytes without the white space between tokens, and the
 * terminal controls inside its strings written as \u escapes. */
static void put_raw(struct strbuf *sb, const char *s, size_t n)
{
	strbuf_grow(sb, n);
	bool in_string = false;
	size_t run = 0;             /* start of the bytes not yet copied */
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (in_string) {
			if (c == '\\') {
				i++;
			} else if (c == '"') {
				in_string = false;
			} else if (c == 0x7f || c >= 0xc2) {
				unsigned cp;
				unsigned len = jsonw_terminal_control(s + i, n - i, &cp);
				if (len) {
					strbuf_add(sb, s + run, i - run);
					strbuf_addf(sb, "\\u%04x", cp);
					i += len - 1;
					run = i + 1;
				}
			}
		} else if (c == '"') {
			in_string = true;
		} else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			strbuf_add(sb, s + run, i - run);
			run = i + 1;
		}
	}
	strbuf_add(sb, s + run, n - run);
}

/* A value of the run's document. A value grafted from a string (an
 * OpenTelemetry attribute's JSON) has that string as its text, so it is
 * written from its tree instead. */
static void put_value(struct strbuf *sb, const struct jdoc *d, jv v)
{
	if (v == JV_NONE) {
		strbuf_addstr(sb, "null");
		return;
	}
	if (d->nnodes && v >= d->nodes[0].end) {
		json_t *t = jv_to_json(d, v);
		jsonw_value(sb, t);
		json_decref(t);
		return;
	}
	size_t n;
	const char *s = jv_raw(d, v, &n);
	put_raw(sb, s, n);
}

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* ---- the joins the reader would make ------------------------------------------- */

/* What the line must state so that reading it joins each result where the
 * run has it: calls whose result comes from a message the rules would not
 * give them (source.result_message), and tool outputs the rules would join
 * that the run has left unmatched (source.unmatched). */
struct joins {
	long *result_msg;           /* per call: stated result message, or -1 */
	bool *unmatched;            /* per message */
	bool *claimed;              /* per message: some call states it */
	bool *answered;             /* per call, during a pass */
	/* The calls each message answers, as lists: first[mi], then next[ci]
	 * (-1 ends them), so a message's calls are found without a scan. */
	long *first, *next;
};

/* A tool output without a call id is written without call_id (joined by
 * position) when it answers a call, with a null one (joins nothing) when
 * it does not. */
static void mark_by_position(const struct run *r, bool *by_position)
{
	for (size_t ci = 0; ci < r->ncalls; ci++) {
		long mi = r->calls[ci].result_msg;
		if (mi >= 0 && (size_t)mi < r->nmsgs)
			by_position[mi] = true;
	}
	for (size_t mi = 0; mi < r->nmsgs; mi++)
		by_position[mi] = by_position[mi] && r->msgs[mi].is_tool_output &&
		                  !r->msgs[mi].answers_call_id;
}

/* One pass of the reader's joins over the run as it will be written;
 * true when it found a join to state that it had not. */
static bool joins_pass(const struct run *r, struct joins *j, const bool *by_position)
{
	bool changed = false;
	for (size_t ci = 0; ci < r->ncalls; ci++) {
		const struct run_call *c = &r->calls[ci];
		j->answered[ci] = (c->has_result && c->result_msg < 0) || j->result_msg[ci] >= 0;
	}
	size_t cursor = 0;
	for (size_t mi = 0; mi < r->nmsgs; mi++) {
		const struct run_msg *m = &r->msgs[mi];
		if (!m->is_tool_output || j->claimed[mi] || j->unmatched[mi])
			continue;
		long target = -1;
		if (m->answers_call_id || by_position[mi])
			target = run_format_join_target(r, mi, m->answers_call_id, j->answered, &cursor);
		if (target >= 0 && r->calls[target].result_msg == (long)mi) {
			j->answered[target] = true;
			continue;
		}
		bool any = false;
		for (long ci = j->first[mi]; ci >= 0; ci = j->next[ci])
			if (r->calls[ci].msg_index != mi) {   /* a result may come before its call */
				j->result_msg[ci] = (long)mi;
				any = true;
			}
		if (any)
			j->claimed[mi] = true;
		else if (target >= 0)
			j->unmatched[mi] = true;
		else
			continue;
		changed = true;
	}
	return changed;
}

static void joins_find(const struct run *r, struct joins *j, bool *by_position)
{
	j->result_msg = xmalloc((r->ncalls + 1) * sizeof *j->result_msg);
	j->answered = xcalloc(r->ncalls + 1, sizeof *j->answered);
	j->unmatched = xcalloc(r->nmsgs + 1, sizeof *j->unmatched);
	j->claimed = xcalloc(r->nmsgs + 1, sizeof *j->claimed);
	j->first = xmalloc((r->nmsgs + 1) * sizeof *j->first);
	j->next = xmalloc((r->ncalls + 1) * sizeof *j->next);
	for (size_t mi = 0; mi < r->nmsgs; mi++)
		j->first[mi] = -1;
	for (size_t ci = r->ncalls; ci-- > 0;) {
		long mi = r->calls[ci].result_msg;
		j->result_msg[ci] = -1;
		j->next[ci] = -1;
		if (mi >= 0 && (size_t)mi < r->nmsgs) {
			j->next[ci] = j->first[mi];
			j->first[mi] = (long)ci;
		}
	}
	mark_by_position(r, by_position);
	/* A stated join takes its call out of the rules' way, which may move
	 * another join: until nothing more needs stating (at most one more
	 * pass per call or message). */
	while (joins_pass(r, j, by_position))
		;
}

static void joins_free(struct joins *j)
{
	free(j->result_msg);
	free(j->answered);
	free(j->unmatched);
	free(j->claimed);
	free(j->first);
	free(j->next);
}

/* ---- parts ----------------------------------------------------------------------- */

static void put_text_part(struct strbuf *sb, const char *type, const char *text)
{
	strbuf_addstr(sb, "{\"type\":\"");
	strbuf_addstr(sb, type);
	strbuf_addstr(sb, "\",\"text\":");
	put_str(sb, text);
	strbuf_addch(sb, '}');
}

/* What the reader gives a call before it states anything of itself. */
static void call_expected(const struct run *r, const struct run_call *c, bool *is_error,
                          const char **error, enum call_state *state)
{
	*is_error = false;
	*error = NULL;
	*state = CALL_REQUESTED;
	/* An answer without a value is said by the call's state alone. */
	if (!c->has_result || (c->result_msg < 0 && c->result == JV_NONE))
		return;
	if (c->result_msg >= 0) {
		const struct run_msg *m = &r->msgs[c->result_msg];
		*is_error = m->result_is_error;
		*error = m->result_error_text;
	} else {
		*is_error = c->is_error;
		*error = c->error_text;
	}
	*state = *is_error ? CALL_FAILED : CALL_COMPLETED;
}

static void put_call_source(struct strbuf *sb, const struct run *r, const struct run_call *c,
                            long result_msg)
{
	const struct jdoc *d = r->doc;
	bool first = true;
	bool raw_id = c->raw_id != JV_NONE &&
	              !(jv_is_string(d, c->raw_id) && same_str(jv_str(d, c->raw_id), c->id));
	bool raw_name = c->raw_name != JV_NONE &&
	                !(jv_is_string(d, c->raw_name) && same_str(jv_str(d, c->raw_name), c->name));
	bool msg = c->src_msg_index != r->msgs[c->msg_index].src_index;
	if (!raw_id && !raw_name && !c->raw_state && !msg && c->src_call_index < 0 && result_msg < 0)
		return;
	strbuf_addstr(sb, ",\"source\":{");
	if (raw_id) {
		put_key(sb, &first, "id");
		put_value(sb, d, c->raw_id);
	}
	if (raw_name) {
		put_key(sb, &first, "name");
		put_value(sb, d, c->raw_name);
	}
	if (c->raw_state) {
		put_key(sb, &first, "state");
		put_str(sb, c->raw_state);
	}
	if (msg) {
		put_key(sb, &first, "message");
		strbuf_addf(sb, "%ld", c->src_msg_index);
	}
	if (c->src_call_index >= 0) {
		put_key(sb, &first, "call");
		strbuf_addf(sb, "%ld", c->src_call_index);
	}
	if (result_msg >= 0) {
		put_key(sb, &first, "result_message");
		strbuf_addf(sb, "%ld", result_msg);
	}
	strbuf_addch(sb, '}');
}

static void put_call(struct strbuf *sb, const struct run *r, const struct run_call *c,
                     long result_msg)
{
	const struct jdoc *d = r->doc;
	strbuf_addstr(sb, "{\"type\":\"tool_call\"");
	if (c->id) {
		strbuf_addstr(sb, ",\"id\":");
		put_str(sb, c->id);
	}
	strbuf_addstr(sb, ",\"name\":");
	put_str(sb, c->name);
	if (c->args != JV_NONE) {
		strbuf_addstr(sb, ",\"arguments\":");
		put_value(sb, d, c->args);
	}
	if (c->requestor == REQ_USER)
		strbuf_addstr(sb, ",\"requestor\":\"user\"");
	bool inline_result = c->has_result && c->result_msg < 0 && c->result != JV_NONE;
	if (inline_result) {
		strbuf_addstr(sb, ",\"result\":");
		put_value(sb, d, c->result);
	}
	bool is_error;
	const char *error;
	enum call_state state;
	call_expected(r, c, &is_error, &error, &state);
	if (c->is_error != is_error || (inline_result && c->is_error))
		strbuf_addstr(sb, c->is_error ? ",\"is_error\":true" : ",\"is_error\":false");
	if (c->error_text && (!same_str(c->error_text, error) || c->result_msg < 0)) {
		strbuf_addstr(sb, ",\"error\":");
		put_str(sb, c->error_text);
	}
	if (c->state != state) {
		strbuf_addstr(sb, ",\"state\":");
		put_str(sb, call_state_name(c->state));
	}
	put_call_source(sb, r, c, result_msg);
	strbuf_addch(sb, '}');
}

static void put_result(struct strbuf *sb, const struct run *r, const struct run_msg *m,
                       bool by_position)
{
	strbuf_addstr(sb, "{\"type\":\"tool_result\"");
	if (m->answers_call_id) {
		strbuf_addstr(sb, ",\"call_id\":");
		put_str(sb, m->answers_call_id);
	} else if (!by_position) {
		strbuf_addstr(sb, ",\"call_id\":null");
	}
	if (m->result != JV_NONE) {
		strbuf_addstr(sb, ",\"content\":");
		put_value(sb, r->doc, m->result);
	}
	if (m->result_is_error)
		strbuf_addstr(sb, ",\"is_error\":true");
	if (m->result_error_text) {
		strbuf_addstr(sb, ",\"error\":");
		put_str(sb, m->result_error_text);
	}
	strbuf_addch(sb, '}');
}

/* A tool output's text the reader takes from its result: its one text
 * part when that is its last part and says the same. */
static bool text_derived(struct run *r, const struct run_msg *m, size_t *ntext)
{
	*ntext = 0;
	for (size_t k = 0; k < m->nparts; k++)
		*ntext += r->parts[m->first_part + k].kind == PART_TEXT;
	if (!m->is_tool_output || *ntext != 1)
		return false;
	const struct run_part *last = &r->parts[m->first_part + m->nparts - 1];
	return last->kind == PART_TEXT && !strcmp(last->text, run_text_of(r, m->result));
}

static void put_parts(struct strbuf *sb, struct run *r, size_t mi, const struct joins *j,
                      bool by_position)
{
	const struct run_msg *m = &r->msgs[mi];
	size_t ntext;
	bool derived = text_derived(r, m, &ntext);
	bool first = true;
	strbuf_addstr(sb, ",\"parts\":[");
	/* No text part of its own, where the reader would take its result's:
	 * an empty one says there is none. */
	if (m->is_tool_output && ntext == 0 && run_text_of(r, m->result)[0]) {
		put_text_part(sb, "text", "");
		first = false;
	}
	for (size_t k = 0; k < m->nparts; k++) {
		const struct run_part *p = &r->parts[m->first_part + k];
		if (derived && p->kind == PART_TEXT)
			continue;
		if (!first)
			strbuf_addch(sb, ',');
		first = false;
		switch (p->kind) {
		case PART_TEXT: put_text_part(sb, "text", p->text); break;
		case PART_THINKING: put_text_part(sb, "thinking", p->text); break;
		case PART_NOTE: put_text_part(sb, "note", p->text); break;
		case PART_CALL: put_call(sb, r, &r->calls[p->call], j->result_msg[p->call]); break;
		}
	}
	if (m->is_tool_output) {
		if (!first)
			strbuf_addch(sb, ',');
		put_result(sb, r, m, by_position);
	}
	strbuf_addch(sb, ']');
}

static void put_message(struct strbuf *sb, struct run *r, size_t mi, const struct joins *j,
                        bool by_position)
{
	const struct run_msg *m = &r->msgs[mi];
	strbuf_addstr(sb, "{\"role\":\"");
	strbuf_addstr(sb, run_role_name(m->role));
	strbuf_addch(sb, '"');
	if (m->origin == MSG_IN_INPUT)
		strbuf_addstr(sb, ",\"origin\":\"input\"");
	/* The reader takes a message's place in the list for its index. */
	bool index = m->src_index != (long)mi;
	if (index || j->unmatched[mi]) {
		bool first = true;
		strbuf_addstr(sb, ",\"source\":{");
		if (index && m->src_index < 0) {
			put_key(sb, &first, "index");
			strbuf_addstr(sb, "null");
		} else if (index) {
			put_key(sb, &first, "index");
			strbuf_addf(sb, "%ld", m->src_index);
		}
		if (j->unmatched[mi]) {
			put_key(sb, &first, "unmatched");
			strbuf_addstr(sb, "true");
		}
		strbuf_addch(sb, '}');
	}
	put_parts(sb, r, mi, j, by_position);
	strbuf_addch(sb, '}');
}

/* ---- the run ------------------------------------------------------------------------ */

static int field_cmp(const void *a, const void *b)
{
	return strcmp(((const struct run_format_field *)a)->path,
	              ((const struct run_format_field *)b)->path);
}

static void put_fields(struct strbuf *sb, const struct jdoc *d,
                       const struct run_format_field *fields, size_t n)
{
	if (!n)
		return;
	struct run_format_field *sorted = xmalloc(n * sizeof *sorted);
	memcpy(sorted, fields, n * sizeof *sorted);
	qsort(sorted, n, sizeof *sorted, field_cmp);
	strbuf_addstr(sb, ",\"fields\":{");
	for (size_t i = 0; i < n; i++) {
		if (i && !strcmp(sorted[i].path, sorted[i - 1].path))
			continue;
		if (i)
			strbuf_addch(sb, ',');
		put_str(sb, sorted[i].path);
		strbuf_addch(sb, ':');
		put_value(sb, d, sorted[i].value);
	}
	strbuf_addch(sb, '}');
	free(sorted);
}

/* Where the run was read from, unless it keeps where it was converted from. */
static void put_source(struct strbuf *sb, const struct run *r)
{
	strbuf_addstr(sb, ",\"source\":");
	if (r->origin != JV_NONE) {
		put_value(sb, r->doc, r->origin);
		return;
	}
	strbuf_addstr(sb, "{\"file\":");
	put_str(sb, r->file);
	if (r->line)
		strbuf_addf(sb, ",\"line\":%zu", r->line);
	if (r->array_index >= 0)
		strbuf_addf(sb, ",\"index\":%ld", r->array_index);
	strbuf_addstr(sb, ",\"format\":");
	put_str(sb, r->format);
	strbuf_addch(sb, '}');
}

static void put_head(struct strbuf *sb, struct run *r, const struct run_format_field *fields,
                     size_t n)
{
	const struct jdoc *d = r->doc;
	strbuf_addf(sb, "{\"tcreview_run\":%d,\"id\":", RUN_FORMAT_VERSION);
	put_str(sb, r->id);
	if (r->model) {
		strbuf_addstr(sb, ",\"model\":");
		put_str(sb, r->model);
	}
	if (r->parent_id) {
		strbuf_addstr(sb, ",\"parent_id\":");
		put_str(sb, r->parent_id);
	}
	jv meta = jv_is_object(d, run_root(r)) ? jv_get(d, run_root(r), "metadata") : JV_NONE;
	if (jv_is_object(d, meta)) {
		strbuf_addstr(sb, ",\"metadata\":");
		put_value(sb, d, meta);
	}
	put_fields(sb, d, fields, n);
	if (r->tool_defs != JV_NONE) {
		strbuf_addstr(sb, ",\"tools\":");
		put_value(sb, d, r->tool_defs);
	}
	if (r->mastra != MASTRA_NONE)
		strbuf_addf(sb, ",\"mastra\":{\"shape\":\"%s\",\"io_empty\":%s}",
		            r->mastra == MASTRA_1X ? "1.x" : "0.x", r->mastra_io_empty ? "true" : "false");
	put_source(sb, r);
}

void run_format_write(struct strbuf *out, struct run *r, const struct run_format_field *fields,
                      size_t n)
{
	struct joins j;
	bool *by_position = xcalloc(r->nmsgs + 1, sizeof *by_position);
	joins_find(r, &j, by_position);
	put_head(out, r, fields, n);
	strbuf_addstr(out, ",\"messages\":[");
	for (size_t mi = 0; mi < r->nmsgs; mi++) {
		if (mi)
			strbuf_addch(out, ',');
		put_message(out, r, mi, &j, by_position[mi]);
	}
	strbuf_addstr(out, "]}");
	joins_free(&j);
	free(by_position);
}
