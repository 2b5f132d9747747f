/* inspect.c - Inspect AI eval logs: each sample of a log is a run.
 *
 * A .json log is {version, status, eval: {task, model, ...}, plan,
 * results, stats, samples: [...]}; an .eval log is a zip archive that
 * runs/archive.c reads as that same document. `split` makes every element
 * of samples[] a run of its own (its bytes in the file), so the record a
 * run holds is the sample: {id, epoch, input, target, messages, output,
 * scores, metadata, attachments?, events?}, and {from: scores...} paths
 * reach its scores. A file holding one bare sample is read too.
 *
 * messages[] are Chat-like: assistant tool_calls [{id, function, arguments,
 * type, view}] where `function` is the tool's NAME and arguments an
 * object; tool messages answer tool_call_id and carry `error` ({type,
 * message}) when the call failed. content is a string or a list of blocks:
 * text, reasoning (a thinking part), image, audio, video, document and data
 * (notes: nothing to show here), anything else a note naming its type.
 *
 * .eval logs store repeated text once, in the sample's `attachments`
 * object, and write "attachment://<hash>" in its place (message content,
 * tool arguments and results). Refs are resolved against it; one that is
 * not there stays as it is, so the screen still shows what was written.
 *
 * The run id is the sample's id, with "#EPOCH" after it for epochs past
 * the first ("42#2"): a sample cannot see how many epochs its log ran, so
 * epoch 1 keeps the bare id. The model is output.model, else model_usage's
 * first key. The scores end the run as a note ("scores: match C (answer
 * 42)") so the reviewer sees what the scorers said. */
#include <stdio.h>
#include <string.h>

#include "runs/format.h"
#include "runs/loader.h"
#include "util/strbuf.h"
#include "util/error.h"

#define ATTACHMENT_PREFIX "attachment://"

/* ---- detection and splitting -------------------------------------------- */

/* A sample: an id, an epoch and messages, with what only Inspect writes
 * beside them (target, scores, or the input it started from). */
static bool insp_is_sample(const struct jdoc *d, jv rec)
{
	if (!jv_is_object(d, rec) || !jv_is_array(d, jv_get(d, rec, "messages")))
		return false;
	jv id = jv_get(d, rec, "id");
	if (!jv_is_string(d, id) && !jv_is_number(d, id))
		return false;
	if (!jv_is_integer(d, jv_get(d, rec, "epoch")))
		return false;
	return jv_get(d, rec, "target") != JV_NONE || jv_get(d, rec, "scores") != JV_NONE ||
	       jv_get(d, rec, "input") != JV_NONE;
}

/* A whole log: its eval spec names the task and the model. An .eval
 * archive that lost its header (cut off before even the journal's start)
 * is still its samples. */
static bool insp_is_log(const struct jdoc *d, jv rec)
{
	if (!jv_is_object(d, rec) || jv_get(d, rec, "messages") != JV_NONE)
		return false;
	jv samples = jv_get(d, rec, "samples");
	jv ev = jv_get(d, rec, "eval");
	if (!jv_is_object(d, ev))
		return jv_is_array(d, samples) && insp_is_sample(d, jv_first(d, samples));
	if (!jv_is_string(d, jv_get(d, ev, "task")) || jv_get(d, ev, "model") == JV_NONE)
		return false;
	return jv_is_array(d, samples) || samples == JV_NONE;
}

static int insp_detect(const struct jdoc *d, jv rec)
{
	if (insp_is_log(d, rec))
		return 95;
	return insp_is_sample(d, rec) ? 90 : 0;
}

/* One run per sample; a bare sample is its own run. A log that holds no
 * samples (it failed or is still running) holds no runs. */
static void insp_split(const struct jdoc *d, jv root, struct doc_groups *out)
{
	if (!insp_is_log(d, root)) {
		doc_group_begin(out);
		doc_group_add(out, root);
		return;
	}
	JV_EACH(d, jv_get(d, root, "samples"), s) {
		doc_group_begin(out);
		doc_group_add(out, s);
	}
}

/* ---- attachments ---------------------------------------------------------- */

/* The attachment a "attachment://HASH" string names, else v itself. */
static jv insp_resolve(const struct jdoc *d, jv atts, jv v)
{
	const char *s = jv_str(d, v);
	size_t n = sizeof(ATTACHMENT_PREFIX) - 1;
	if (!s || strncmp(s, ATTACHMENT_PREFIX, n) != 0)
		return v;
	jv hit = jv_get(d, atts, s + n);
	return hit != JV_NONE ? hit : v;
}

static const char *insp_text(const struct run *r, jv atts, jv v)
{
	return jv_str(r->doc, insp_resolve(r->doc, atts, v));
}

/* A tree string that names an attachment, as the attachment's text;
 * NULL for anything else. */
static json_t *insp_tree_ref(const struct run *r, jv atts, const json_t *v)
{
	const char *s = json_string_value(v);
	size_t n = sizeof(ATTACHMENT_PREFIX) - 1;
	if (!s || strncmp(s, ATTACHMENT_PREFIX, n) != 0)
		return NULL;
	jv hit = jv_get(r->doc, atts, s + n);
	return jv_is_string(r->doc, hit) ? json_stringn(jv_str(r->doc, hit), jv_strlen(r->doc, hit))
	                                 : NULL;
}

/* Replaces ref strings in a tree by the attachments they name. */
static void insp_tree_resolve(const struct run *r, jv atts, json_t *v)
{
	const char *key;
	json_t *member, *text;
	size_t i;
	if (json_is_object(v)) {
		json_object_foreach(v, key, member) {
			if ((text = insp_tree_ref(r, atts, member)))
				json_object_set_new(v, key, text);
			else
				insp_tree_resolve(r, atts, member);
		}
	} else if (json_is_array(v)) {
		json_array_foreach(v, i, member) {
			if ((text = insp_tree_ref(r, atts, member)))
				json_array_set_new(v, i, text);
			else
				insp_tree_resolve(r, atts, member);
		}
	}
}

/* The value holds a ref somewhere (its raw text says so). */
static bool insp_has_ref(const struct jdoc *d, jv v)
{
	size_t n;
	const char *raw = jv_raw(d, v, &n);
	size_t m = sizeof(ATTACHMENT_PREFIX) - 1;
	for (size_t i = 0; raw && i + m <= n; i++)
		if (raw[i] == 'a' && !memcmp(raw + i, ATTACHMENT_PREFIX, m))
			return true;
	return false;
}

/* ---- content ---------------------------------------------------------------- */

struct insp_ctx {
	jv atts;                /* the sample's attachments, JV_NONE when none */
	size_t mi;              /* the message being read */
};

/* Blocks that hold something other than text: kept as notes. */
static const char *const insp_media[] = { "image", "audio", "video", "document", "data", NULL };

static void insp_block(struct run *r, const struct insp_ctx *c, jv b)
{
	const struct jdoc *d = r->doc;
	const char *type = jv_str(d, jv_get(d, b, "type"));
	if (!jv_is_object(d, b)) {
		run_add_note(r, c->mi, b, "content block that is not an object (not read)");
		return;
	}
	if (type && !strcmp(type, "text")) {
		run_add_text(r, c->mi, loader_str(r, insp_resolve(d, c->atts, jv_get(d, b, "text")), ""), b);
		return;
	}
	if (type && !strcmp(type, "reasoning")) {
		jv text = jv_get(d, b, "reasoning");
		if (!jv_is_string(d, text))
			text = jv_get(d, b, "summary");
		run_add_thinking(r, c->mi, loader_str(r, insp_resolve(d, c->atts, text), ""), b);
		return;
	}
	for (size_t i = 0; type && insp_media[i]; i++) {
		if (!strcmp(type, insp_media[i])) {
			run_add_note(r, c->mi, b, "%s block (not shown)", type);
			return;
		}
	}
	if (type)
		run_add_note(r, c->mi, b, "block type \"%s\" (not read)", type);
	else
		run_add_note(r, c->mi, b, "content block without a type (not read)");
}

/* A message's content as parts: a string (maybe a ref) or a list of blocks. */
static void insp_content(struct run *r, const struct insp_ctx *c, jv content)
{
	const struct jdoc *d = r->doc;
	if (jv_is_string(d, content)) {
		run_add_text(r, c->mi, insp_text(r, c->atts, content), content);
		return;
	}
	JV_EACH(d, content, b)
		insp_block(r, c, b);
}

/* ---- calls and results ---------------------------------------------------- */

/* {id, function: NAME, arguments: {...}, type, view}. */
static int insp_call(struct run *r, jv tc, const char *path, size_t j, void *ctx, struct error *err)
{
	(void)j;
	const struct insp_ctx *c = ctx;
	const struct jdoc *d = r->doc;
	jv id, name, args = jv_get(d, tc, "arguments");
	if (loader_opt_string(r, tc, "id", path, &id, err) < 0 ||
	    loader_opt_string(r, tc, "function", path, &name, err) < 0)
		return -1;
	enum jv_type t = jv_type(d, args);
	if (t != JV_MISSING && t != JV_NULL && t != JV_OBJECT && t != JV_STRING) {
		error_at(err, ERR_FAILED, "%s.arguments: not an object", path);
		return -1;
	}
	struct run_call *call = loader_add_call(r, c->mi, id, name, args, r->msgs[c->mi].src_index);
	if (t == JV_OBJECT && c->atts != JV_NONE && insp_has_ref(d, args)) {
		call->args_tree = jv_to_json(d, args);
		insp_tree_resolve(r, c->atts, call->args_tree);
		call->args_parsed = true;
	} else if (t == JV_STRING) {
		run_call_set_args(r, call, insp_resolve(d, c->atts, args));
	}
	return 0;
}

/* A tool message: the result of the call it names; `error` fails it. */
static int insp_tool_result(struct run *r, const struct insp_ctx *c, jv m, const char *path,
                            jv content, struct error *err)
{
	const struct jdoc *d = r->doc;
	jv tcid;
	if (loader_opt_string(r, m, "tool_call_id", path, &tcid, err) < 0)
		return -1;
	jv result = jv_is_string(d, content) ? insp_resolve(d, c->atts, content) : content;
	struct run_msg *msg = loader_tool_output(r, c->mi, jv_str(d, tcid), result);
	jv error = jv_get(d, m, "error");
	if (jv_is_object(d, error)) {
		const char *text = jv_str(d, jv_get(d, error, "message"));
		loader_mark_failed(msg, text ? text : jv_str(d, jv_get(d, error, "type")));
	} else if (error != JV_NONE && !jv_is_null(d, error)) {
		error_at(err, ERR_FAILED, "%s.error: not an object", path);
		return -1;
	}
	return 0;
}

static int insp_msg(struct run *r, jv m, const char *path, size_t i, void *ctx, struct error *err)
{
	struct insp_ctx *c = ctx;
	const struct jdoc *d = r->doc;
	jv rolev = jv_get(d, m, "role");
	bool known = false;
	enum run_role role = ROLE_USER;
	if (jv_is_string(d, rolev))
		role = run_role_parse(jv_str(d, rolev), &known);
	if (jv_is_string(d, rolev) && !known) {
		size_t ni = run_add_note_msg(r, MSG_IN_OUTPUT, m, "role \"%s\" (not read)",
		                             jv_str(d, rolev));
		r->msgs[ni].src_index = (long)i;
		return 0;
	}
	jv content, tcs;
	if (loader_role(r, m, path, ROLE_ERRORS_SPLIT, &role, err) < 0 ||
	    loader_content(r, m, path, &content, err) < 0 ||
	    loader_opt_array(r, m, "tool_calls", path, "not a list or null", &tcs, err) < 0)
		return -1;
	c->mi = run_add_msg(r, role, MSG_IN_OUTPUT, NULL, m);
	r->msgs[c->mi].src_index = (long)i;
	insp_content(r, c, content);
	if (role == ROLE_TOOL)
		return insp_tool_result(r, c, m, path, content, err);
	return loader_each_field(r, tcs, path, "tool_calls", insp_call, c, err) < 0 ? -1 : 0;
}

/* ---- the sample ------------------------------------------------------------ */

/* "NAME VALUE (answer A)" for each scorer, "; " between them. */
static void insp_score_text(const struct jdoc *d, jv scores, struct strbuf *sb)
{
	JV_EACH_KEY(d, scores, k) {
		jv s = jv_value(k);
		jv value = jv_is_object(d, s) ? jv_get(d, s, "value") : s;
		if (sb->len > strlen("scores:"))
			strbuf_addch(sb, ';');
		strbuf_addf(sb, " %s ", jv_str(d, k));
		size_t n;
		const char *raw;
		if (jv_is_string(d, value))
			strbuf_addstr(sb, jv_str(d, value));
		else if ((raw = jv_raw(d, value, &n)))
			strbuf_add(sb, raw, n);
		const char *answer = jv_str(d, jv_get(d, s, "answer"));
		if (answer && answer[0])
			strbuf_addf(sb, " (answer %s)", answer);
	}
}

/* What the sample ends with besides messages: an error, the limit it
 * hit (messages, tokens, time), the scores. */
static void insp_tail(struct run *r, jv rec)
{
	const struct jdoc *d = r->doc;
	jv error = jv_get(d, rec, "error");
	if (jv_is_object(d, error))
		run_add_note_msg(r, MSG_IN_OUTPUT, error, "sample error: %s",
		                 loader_str(r, jv_get(d, error, "message"), "(no message)"));
	jv limit = jv_get(d, rec, "limit");
	if (jv_is_object(d, limit)) {
		size_t n = 0;
		const char *raw = jv_raw(d, jv_get(d, limit, "limit"), &n);
		run_add_note_msg(r, MSG_IN_OUTPUT, limit, "limit reached: %s %.*s",
		                 loader_str(r, jv_get(d, limit, "type"), "(no type)"), raw ? (int)n : 0,
		                 raw ? raw : "");
	}
	jv scores = jv_get(d, rec, "scores");
	if (!jv_is_object(d, scores) || jv_len(d, scores) == 0)
		return;
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, "scores:");
	insp_score_text(d, scores, &sb);
	run_add_note_msg(r, MSG_IN_OUTPUT, scores, "%s", sb.buf);
	strbuf_release(&sb);
}

/* output.model, else the first model model_usage counts, else the log's
 * eval.model when the record is one. */
static const char *insp_model(const struct run *r, jv rec)
{
	const struct jdoc *d = r->doc;
	const char *m = jv_str(d, jv_get(d, jv_get(d, rec, "output"), "model"));
	if (m && m[0])
		return m;
	jv usage = jv_get(d, rec, "model_usage");
	if (jv_len(d, usage))
		return jv_str(d, jv_first(d, usage));
	m = jv_str(d, jv_get(d, jv_get(d, rec, "eval"), "model"));
	return m ? m : loader_model(r, rec);
}

/* SAMPLEID#EPOCH past the first epoch, when the id is the sample's. */
static void insp_id(struct run *r, jv rec)
{
	const struct jdoc *d = r->doc;
	jv epoch = jv_get(d, rec, "epoch");
	const char *id = loader_id(r, jv_get(d, rec, "id"));
	if (!jv_is_integer(d, epoch) || jv_int(d, epoch) <= 1 || !id || !r->id || strcmp(r->id, id))
		return;
	char buf[32];
	snprintf(buf, sizeof buf, "#%lld", (long long)jv_int(d, epoch));
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, id);
	strbuf_addstr(&sb, buf);
	r->id = run_strdup(r, sb.buf);
	strbuf_release(&sb);
}

static int insp_load(struct run *r, struct error *err)
{
	const struct jdoc *d = r->doc;
	jv rec = run_root(r);
	if (!jv_is_object(d, rec)) {
		error_at(err, ERR_FAILED, "an Inspect sample must be a JSON object");
		return -1;
	}
	if (insp_is_log(d, rec)) {
		error_at(err, ERR_FAILED, "an Inspect log: its samples are the runs (read it as a file)");
		return -1;
	}
	jv msgs;
	if (loader_array(r, rec, "messages", &msgs, err) < 0)
		return -1;
	jv atts = jv_get(d, rec, "attachments");
	struct insp_ctx c = { jv_is_object(d, atts) ? atts : JV_NONE, 0 };
	if (loader_each(r, msgs, "messages", insp_msg, &c, err) < 0)
		return -1;
	run_join_results(r);
	insp_tail(r, rec);
	r->model = insp_model(r, rec);
	insp_id(r, rec);
	return 0;
}

const struct format_ops format_inspect = {
	.name = "inspect",
	.summary = "Inspect AI eval logs (.json, .eval): each sample {id, epoch, messages, scores} a run",
	.detect = insp_detect,
	.split = insp_split,
	.load = insp_load,
};
