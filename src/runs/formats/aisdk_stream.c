/* aisdk_stream.c - AI SDK UI-message streams: the chunks a server sends to
 * useChat ({type: "start"}, "text-delta", "tool-input-available", ...), as
 * a JSON array or a JSONL file of one chunk a line.
 *
 * A stream is the answer of one assistant turn, so one file is one run of
 * assistant messages. A "start" begins a new message only when it names a
 * messageId other than the current message's: the AI SDK itself keeps one
 * message for a stream (a second "start" without an id, or with the same
 * id, is the same answer going on, as after a tool approval).
 *
 * The chunks are gathered first, then written as parts in stream order:
 * text and reasoning deltas joined per id (reasoning as thinking), one call
 * per toolCallId holding its own outcome as AI SDK tool parts do. A call
 * whose input never became available is partial; an approval request
 * leaves the call requested, with a note saying it awaits approval (or how
 * the approval ended). An output for a call this stream never started is
 * kept as an unmatched tool message. Steps, "finish" and metadata chunks
 * are skipped; sources, files, data-* parts, errors, aborts, unknown
 * chunk types and the lines of a JSONL file that are not JSON become notes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runs/format.h"
#include "runs/loader.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/error.h"

/* ---- detection -------------------------------------------------------- */

/* Chunk types only this stream writes (not an AI SDK message part's). */
static const char *const stream_types[] = {
	"start", "finish", "start-step", "finish-step", "text-start", "text-delta", "text-end",
	"reasoning-start", "reasoning-delta", "reasoning-end", "tool-input-start",
	"tool-input-delta", "tool-input-available", "tool-input-error", "tool-output-available",
	"tool-output-error", "tool-approval-request", "tool-output-denied", "message-metadata",
	"abort", NULL,
};

static bool stream_type_known(const char *ty)
{
	for (size_t i = 0; stream_types[i]; i++)
		if (!strcmp(ty, stream_types[i]))
			return true;
	return false;
}

/* Keys of other formats' lines that also carry a type (Claude Code's
 * events, Codex rollouts, Responses items, messages). */
static bool foreign_keys(const struct jdoc *d, jv c)
{
	static const char *const keys[] = { "role", "content", "parts", "payload", "message",
	                                    "uuid", "sessionId", "timestamp", "call_id", NULL };
	for (size_t i = 0; keys[i]; i++)
		if (jv_get(d, c, keys[i]) != JV_NONE)
			return true;
	return false;
}

/* One chunk of the stream's own (a line of a JSONL file is asked alone). */
static bool is_stream_chunk(const struct jdoc *d, jv c)
{
	const char *ty = jv_str(d, jv_get(d, c, "type"));
	return ty && stream_type_known(ty) && !foreign_keys(d, c);
}

static int stream_detect(const struct jdoc *d, jv rec)
{
	if (jv_is_object(d, rec))
		return is_stream_chunk(d, rec) ? 60 : 0;
	if (!jv_is_array(d, rec))
		return 0;
	size_t own = 0;
	JV_EACH(d, rec, c) {
		if (jv_is_null(d, c))
			continue;           /* a JSONL line that is not JSON */
		if (!jv_is_object(d, c) || !jv_is_string(d, jv_get(d, c, "type")) ||
		    foreign_keys(d, c))
			return 0;
		own += is_stream_chunk(d, c);
	}
	return own ? 70 : 0;
}

/* ---- gathering the chunks ---------------------------------------------- */

enum item_kind { IT_TEXT, IT_THINK, IT_CALL, IT_APPROVAL, IT_NOTE, IT_RESULT };

/* One part to be, in stream order. */
struct item {
	enum item_kind kind;
	size_t msg;                 /* which of the stream's messages */
	const char *id;             /* text/reasoning id or toolCallId; "" when none */
	bool open;                  /* TEXT/THINK: no *-end yet */
	struct strbuf text;         /* joined deltas; a call's streamed input */
	jv raw;                     /* the chunk that began it */
	/* IT_CALL */
	jv call_id, name, input, output;
	bool input_available, has_output, failed;
	const char *error_text;
	/* IT_APPROVAL: the call it is about; IT_NOTE: what it says */
	size_t call;
	jv approval_id;
	const char *note;
};

struct gather {
	struct run *r;
	struct item *items;
	size_t nitems, cap;
	size_t nmsgs;               /* messages begun (0 until the first content) */
	const char *msg_id;         /* the current message's messageId, or NULL */
	jv msg_raw[64];             /* the first messages' start chunks */
	size_t known;               /* chunks of a type the stream protocol has */
};

static void gather_free(struct gather *g)
{
	for (size_t i = 0; i < g->nitems; i++)
		strbuf_release(&g->items[i].text);
	free(g->items);
}

static size_t current_msg(struct gather *g, jv chunk)
{
	if (g->nmsgs == 0) {
		g->msg_raw[0] = chunk;
		g->nmsgs = 1;
	}
	return g->nmsgs - 1;
}

static struct item *add_item(struct gather *g, enum item_kind kind, const char *id, jv raw)
{
	if (g->nitems == g->cap) {
		g->cap = g->cap ? g->cap * 2 : 16;
		g->items = xrealloc(g->items, g->cap * sizeof(*g->items));
	}
	struct item *it = &g->items[g->nitems++];
	memset(it, 0, sizeof(*it));   /* an empty strbuf is all zeros */
	it->kind = kind;
	it->msg = current_msg(g, raw);
	it->id = id ? id : "";
	it->raw = raw;
	it->call_id = it->name = it->input = it->output = it->approval_id = JV_NONE;
	return it;
}

static void add_note(struct gather *g, jv raw, const char *fmt, const char *what)
{
	add_item(g, IT_NOTE, NULL, raw)->note = arena_printf(&g->r->arena, fmt, what);
}

/* "start": a new message when it names another messageId. */
static void on_start(struct gather *g, jv c)
{
	const struct jdoc *d = g->r->doc;
	const char *mid = jv_str(d, jv_get(d, c, "messageId"));
	if (g->nmsgs == 0 || (mid && g->msg_id && strcmp(mid, g->msg_id) != 0)) {
		if (g->nmsgs < sizeof(g->msg_raw) / sizeof(g->msg_raw[0]))
			g->msg_raw[g->nmsgs] = c;
		g->nmsgs++;
		g->msg_id = mid;
	} else if (!g->msg_id) {
		g->msg_id = mid;
	}
}

/* c[key] as a string, "" when absent; -1 with "[i].KEY: not a string". */
static int opt_str(struct gather *g, jv c, const char *key, size_t i, const char **out,
                   struct error *err)
{
	const struct jdoc *d = g->r->doc;
	jv v = jv_get(d, c, key);
	*out = "";
	if (v == JV_NONE || jv_is_null(d, v))
		return 0;
	if (!jv_is_string(d, v)) {
		error_at(err, ERR_FAILED, "[%zu].%s: not a string", i, key);
		return -1;
	}
	*out = jv_str(d, v);
	return 0;
}

/* The newest open text or reasoning item with this id. */
static struct item *open_item(struct gather *g, enum item_kind kind, const char *id)
{
	for (size_t k = g->nitems; k-- > 0;) {
		struct item *it = &g->items[k];
		if (it->kind == kind && it->open && !strcmp(it->id, id))
			return it;
	}
	return NULL;
}

/* text-* and reasoning-* chunks: stage is what follows the dash. */
static int on_text(struct gather *g, jv c, enum item_kind kind, const char *stage, size_t i,
                   struct error *err)
{
	const char *id, *delta;
	if (opt_str(g, c, "id", i, &id, err) < 0 ||
	    opt_str(g, c, "delta", i, &delta, err) < 0)
		return -1;
	struct item *it = strcmp(stage, "start") ? open_item(g, kind, id) : NULL;
	if (!it && strcmp(stage, "end") != 0) {
		it = add_item(g, kind, id, c);
		it->open = true;
	}
	if (!it)
		return 0;               /* an end for nothing open: nothing to say */
	if (!strcmp(stage, "delta"))
		strbuf_addstr(&it->text, delta);
	else if (!strcmp(stage, "end"))
		it->open = false;
	return 0;
}

/* The newest call with this toolCallId, or SIZE_MAX. */
static size_t find_call(const struct gather *g, const char *id)
{
	for (size_t k = g->nitems; k-- > 0;)
		if (g->items[k].kind == IT_CALL && !strcmp(g->items[k].id, id))
			return k;
	return SIZE_MAX;
}

static struct item *call_item(struct gather *g, jv c, const char *id)
{
	size_t k = find_call(g, id);
	if (k != SIZE_MAX)
		return &g->items[k];
	struct item *it = add_item(g, IT_CALL, id, c);
	it->call_id = jv_get(g->r->doc, c, "toolCallId");
	return it;
}

/* The chunks that start or carry a call's input. */
static int on_tool_input(struct gather *g, jv c, const char *stage, const char *id, size_t i,
                         struct error *err)
{
	const struct jdoc *d = g->r->doc;
	struct item *it = call_item(g, c, id);
	jv name = jv_get(d, c, "toolName");
	if (jv_is_string(d, name))
		it->name = name;
	if (!strcmp(stage, "delta")) {
		const char *delta;
		if (opt_str(g, c, "inputTextDelta", i, &delta, err) < 0)
			return -1;
		strbuf_addstr(&it->text, delta);
	} else if (!strcmp(stage, "available")) {
		it->input = jv_get(d, c, "input");
		it->input_available = true;
	} else if (!strcmp(stage, "error")) {
		/* Input the model wrote that does not fit the tool: the call
		 * fails, as the AI SDK marks its part output-error. */
		it->input = jv_get(d, c, "input");
		it->failed = true;
		it->error_text = loader_str(g->r, jv_get(d, c, "errorText"), "invalid input");
	}
	return 0;
}

/* An outcome for a call the stream never started: a tool message. */
static void orphan_result(struct gather *g, jv c, const char *id, bool failed, const char *text)
{
	struct item *it = add_item(g, IT_RESULT, id, c);
	it->call_id = jv_get(g->r->doc, c, "toolCallId");
	it->output = jv_get(g->r->doc, c, "output");
	it->failed = failed;
	it->error_text = text;
}

/* The chunks that end a call or ask about it. */
static void on_tool_outcome(struct gather *g, jv c, const char *stage, const char *id)
{
	const struct jdoc *d = g->r->doc;
	size_t k = find_call(g, id);
	bool approval = !strcmp(stage, "approval-request");
	bool ok = !strcmp(stage, "output-available");
	const char *text = !strcmp(stage, "output-denied")
	                   ? "denied"
	                   : loader_str(g->r, jv_get(d, c, "errorText"), "error");
	if (k == SIZE_MAX) {
		if (approval)
			add_note(g, c, "approval asked for call %s, which this stream does not start", id);
		else
			orphan_result(g, c, id, !ok, ok ? NULL : text);
		return;
	}
	if (approval) {
		/* Approval is asked for a call whose input is whole, whether or
		 * not an input-available chunk said so. */
		g->items[k].input_available = true;
		struct item *it = add_item(g, IT_APPROVAL, id, c);
		it->call = k;
		it->approval_id = jv_get(d, c, "approvalId");
		return;
	}
	struct item *call = &g->items[k];
	if (ok) {
		/* A preliminary output is replaced by the later ones. */
		call->output = jv_get(d, c, "output");
		call->has_output = true;
		call->failed = false;
	} else {
		call->failed = true;
		call->error_text = text;
	}
}

static int on_tool(struct gather *g, jv c, const char *stage, size_t i, struct error *err)
{
	const struct jdoc *d = g->r->doc;
	jv idv = jv_get(d, c, "toolCallId");
	if (!jv_is_string(d, idv)) {
		error_at(err, idv == JV_NONE ? ERR_MISSING : ERR_FAILED, "[%zu].toolCallId: %s", i,
		         idv == JV_NONE ? "missing" : "not a string");
		return -1;
	}
	const char *id = jv_str(d, idv);
	if (!strncmp(stage, "input-", 6))
		return on_tool_input(g, c, stage + 6, id, i, err);
	on_tool_outcome(g, c, stage, id);
	return 0;
}

/* Sources, files, data parts, errors: kept as what they say. */
static bool on_other(struct gather *g, jv c, const char *ty)
{
	struct run *r = g->r;
	const struct jdoc *d = r->doc;
	if (!strcmp(ty, "source-url"))
		add_note(g, c, "source %s", loader_str(r, jv_get(d, c, "url"), ""));
	else if (!strcmp(ty, "source-document"))
		add_note(g, c, "source document %s", loader_str(r, jv_get(d, c, "title"), ""));
	else if (!strcmp(ty, "file"))
		add_note(g, c, "file %s", loader_str(r, jv_get(d, c, "mediaType"), ""));
	else if (!strncmp(ty, "data-", 5))
		add_note(g, c, "data part \"%s\"", ty);
	else if (!strcmp(ty, "error"))
		add_note(g, c, "stream error: %s", loader_str(r, jv_get(d, c, "errorText"), ""));
	else if (!strcmp(ty, "abort"))
		add_note(g, c, "%s", "stream aborted");
	else
		return false;
	return true;
}

static bool is_metadata(const char *ty)
{
	return !strcmp(ty, "start-step") || !strcmp(ty, "finish-step") || !strcmp(ty, "finish") ||
	       !strcmp(ty, "message-metadata");
}

static int on_chunk(struct gather *g, jv c, size_t i, struct error *err)
{
	const struct jdoc *d = g->r->doc;
	if (jv_is_null(d, c)) {
		add_note(g, c, "%s", "a line that is not JSON");
		return 0;
	}
	if (!jv_is_object(d, c)) {
		error_at(err, ERR_FAILED, "[%zu]: not an object", i);
		return -1;
	}
	const char *ty = jv_str(d, jv_get(d, c, "type"));
	if (!ty) {
		add_note(g, c, "%s", "a chunk with no type");
		return 0;
	}
	g->known++;
	if (!strcmp(ty, "start"))
		on_start(g, c);
	else if (is_metadata(ty))
		return 0;
	else if (!strncmp(ty, "text-", 5) && stream_type_known(ty))
		return on_text(g, c, IT_TEXT, ty + 5, i, err);
	else if (!strncmp(ty, "reasoning-", 10) && stream_type_known(ty))
		return on_text(g, c, IT_THINK, ty + 10, i, err);
	else if (!strncmp(ty, "tool-", 5) && stream_type_known(ty))
		return on_tool(g, c, ty + 5, i, err);
	else if (!on_other(g, c, ty)) {
		g->known--;
		add_note(g, c, "chunk type \"%s\" (not read)", ty);
	}
	return 0;
}

/* ---- writing the run ---------------------------------------------------- */

/* Input that streamed but never became available: what arrived, parsed
 * when it happens to be whole JSON, else kept as the text it is. */
static void partial_args(struct run_call *c, const struct strbuf *text)
{
	json_error_t jerr;
	json_t *t = json_loadb(text->buf, text->len, JSON_DECODE_ANY, &jerr);
	c->args_tree = t ? t : json_stringn(text->buf, text->len);
	c->args_parsed = true;
}

static void write_call(struct run *r, size_t mi, const struct item *it)
{
	struct run_call *c = run_add_call(r, mi);
	c->raw_id = it->call_id;
	c->id = loader_id(r, it->call_id);
	c->raw_name = it->name;
	c->name = loader_str(r, it->name, "");
	c->src_msg_index = (long)it->msg;
	if (it->input != JV_NONE)
		run_call_set_args(r, c, it->input);
	else if (it->text.len)
		partial_args(c, &it->text);
	if (!it->input_available && !it->has_output && !it->failed)
		c->state = CALL_PARTIAL;
	if (it->failed)
		run_set_result(c, it->output, true, it->error_text, -1);
	else if (it->has_output)
		run_set_result(c, it->output, false, NULL, -1);
}

static void write_approval(struct run *r, size_t mi, const struct gather *g, const struct item *it)
{
	const struct item *call = &g->items[it->call];
	const char *aid = loader_str(r, it->approval_id, "");
	const char *how = call->failed ? "approval requested, then the call failed"
	                  : call->has_output ? "approval requested and given"
	                                     : "awaiting approval";
	if (aid[0] && strcmp(aid, call->id) != 0)
		run_add_note(r, mi, it->raw, "%s (approval %s)", how, aid);
	else
		run_add_note(r, mi, it->raw, "%s", how);
}

static size_t write_result(struct run *r, const struct item *it)
{
	size_t mi = run_add_msg(r, ROLE_TOOL, MSG_IN_OUTPUT, NULL, it->raw);
	const char *text = run_text_of(r, it->output);
	run_add_text(r, mi, text, JV_NONE);
	struct run_msg *m = loader_tool_output(r, mi, loader_id(r, it->call_id), it->output);
	if (it->failed)
		loader_mark_failed(m, it->error_text);
	m->unmatched_result = true;
	m->src_index = (long)it->msg;
	return mi;
}

static size_t new_msg(struct run *r, const struct gather *g, size_t msg)
{
	size_t n = sizeof(g->msg_raw) / sizeof(g->msg_raw[0]);
	jv raw = msg < n ? g->msg_raw[msg] : JV_NONE;
	size_t mi = run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, NULL, raw);
	r->msgs[mi].src_index = (long)msg;
	return mi;
}

static void write_run(struct run *r, const struct gather *g)
{
	size_t msg = SIZE_MAX, mi = SIZE_MAX;
	for (size_t k = 0; k < g->nitems; k++) {
		const struct item *it = &g->items[k];
		if (it->kind == IT_RESULT) {
			write_result(r, it);
			mi = SIZE_MAX;      /* what follows is a message of its own */
			continue;
		}
		if (it->msg != msg || mi == SIZE_MAX) {
			msg = it->msg;
			mi = new_msg(r, g, msg);
		}
		if (it->kind == IT_TEXT)
			run_add_text(r, mi, run_strdup(r, it->text.buf ? it->text.buf : ""), it->raw);
		else if (it->kind == IT_THINK)
			run_add_thinking(r, mi, run_strdup(r, it->text.buf ? it->text.buf : ""), it->raw);
		else if (it->kind == IT_CALL)
			write_call(r, mi, it);
		else if (it->kind == IT_APPROVAL)
			write_approval(r, mi, g, it);
		else
			run_add_note(r, mi, it->raw, "%s", it->note);
	}
	/* A stream of nothing but metadata still answered. */
	if (r->nmsgs == 0 && g->nmsgs)
		new_msg(r, g, 0);
}

static int stream_load(struct run *r, struct error *err)
{
	const struct jdoc *d = r->doc;
	jv rec = run_root(r);
	if (!jv_is_array(d, rec)) {
		error_at(err, ERR_FAILED, "an ai-sdk-ui-stream record must be an array of chunks");
		return -1;
	}
	struct gather g = { .r = r };
	size_t i = 0;
	JV_EACH(d, rec, c) {
		if (on_chunk(&g, c, i++, err) < 0) {
			gather_free(&g);
			return -1;
		}
	}
	/* Notes keep what a stream of next year adds; a list in which nothing
	 * is a stream chunk is not a stream (forced on a chat history, say). */
	if (g.known == 0 && jv_len(d, rec) > 0) {
		error_at(err, ERR_FAILED, "no chunk of a UI message stream (start, text-delta, "
		         "tool-input-available, finish...)");
		gather_free(&g);
		return -1;
	}
	write_run(r, &g);
	gather_free(&g);
	return 0;
}

const struct format_ops format_aisdk_stream = {
	.name = "ai-sdk-ui-stream",
	.summary = "AI SDK UI-message stream chunks (start, text-delta, tool-input-*, finish), "
	           "a JSON array or JSONL",
	.detect = stream_detect,
	.unit = UNIT_FILE,
	.load = stream_load,
};
