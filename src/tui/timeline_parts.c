/* timeline_parts.c - what a run's messages become in the timeline, part by part.
 *
 * A message is drawn as the record has it: a role line, then its parts in
 * their order (text, thinking, tool calls, notes), so a summary comes after
 * the calls it sums up. A tool call is its own entry: name, id, its input
 * (an object as indented JSON, a string as it is, any other value as JSON;
 * long ones folded), and its result or error joined to it. Calls a scorer
 * counted are numbered #1, #2, ...; a simulated user's calls are marked as
 * such. Beside a call's name, each scorer that decided call by call says
 * what it made of the call (review/callmarks.h): "actions ✓ #2" (matched
 * the reference's second call), "actions ✗ extra", "actions ≠ #2 args",
 * "tool-errors ✗ failed", "unanswered-calls ✗ no result" (the last two only
 * on the calls that are not fine), "actions + extra" (dim: an extra call
 * the scorer's mode allows). Problems come first and are drawn even where
 * the call's name must be cut for them. Thinking is an entry of its own,
 * folded to one line; a long system prompt is folded to its first lines
 * (runs of one benchmark share a long policy that would push the
 * conversation off the screen). Notes say what the loader kept without
 * knowing it. A message built without parts (an older loader's) shows its
 * text, then its calls. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "review/callmarks.h"
#include "review/tags.h"
#include "review/callrefs.h"
#include "scorers/scorer.h"
#include "timeline_int.h"
#include "timeline_values.h"
#include "util/xalloc.h"

/* A system prompt of more lines than this is folded to them. */
#define SYSTEM_FOLD_LINES 4

static char *json_text(const json_t *v, bool indent)
{
	if (json_is_string(v))
		return strdup(json_string_value(v));
	char *s = json_dumps(v, JSON_ENCODE_ANY | (indent ? JSON_INDENT(2) : JSON_COMPACT));
	return s ? s : strdup("");
}

/* A value of the run as the timeline shows it: a string as it is,
 * borrowed from the run's tape (no tree, no copy: it may be huge), and
 * anything else as JSON made from its tree (*own set). */
static const char *value_text(const struct run *r, jv v, json_t *tree, bool indent, bool *own)
{
	*own = !jv_is_string(r->doc, v);
	return *own ? json_text(tree, indent) : jv_str(r->doc, v);
}

static const char *role_label(const struct run_msg *m)
{
	if (m->is_tool_output)
		return "tool result";
	return run_role_name(m->role);
}

static int role_slot(enum run_role r)
{
	switch (r) {
	case ROLE_SYSTEM:    return SLOT_ROLE_SYSTEM;
	case ROLE_USER:      return SLOT_ROLE_USER;
	case ROLE_ASSISTANT: return SLOT_ROLE_ASSISTANT;
	default:             return SLOT_ROLE_TOOL;
	}
}

/* How each kind of call mark is shown: a glyph, whether the reference
 * call's number follows, a word, and the slot of the verdict it means. A
 * call paired with a reference call but differing in its arguments is
 * told in the skipped slot, the themes' colour of warning (yellow). Red
 * is for a problem only: an extra call the scorer's mode allows is told
 * quietly (allowed_extra). */
static const struct badge {
	const char *glyph;
	bool ref;
	const char *word;
	int slot;
} badge_style[CALL_MARK_COUNT] = {
	[CALL_MARK_MATCHED] = { "\xe2\x9c\x93", true,  NULL,    SLOT_PASS },     /* ✓ #2 */
	[CALL_MARK_EXTRA]   = { "\xe2\x9c\x97", false, "extra", SLOT_FAIL },     /* ✗ extra */
	[CALL_MARK_ARGS]    = { "\xe2\x89\xa0", true,  "args",  SLOT_SKIPPED },  /* ≠ #2 args */
	[CALL_MARK_FAILED]  = { "\xe2\x9c\x97", false, "failed", SLOT_FAIL },   /* ✗ failed */
	[CALL_MARK_NO_RESULT] = { "\xe2\x9c\x97", false, "no result", SLOT_FAIL }, /* ✗ no result */
}, allowed_extra = { "+", false, "extra", SLOT_DIM };                         /* + extra */

/* The order badges are drawn in, so that where they do not all fit the
 * problems show: problems, then matches, then what the mode allowed. */
static int badge_rank(const struct call_mark *m)
{
	if (call_mark_is_problem(m))
		return 0;
	return m->allowed ? 2 : 1;
}

/* "actions ✓ #2" beside the call's name, one per scorer that marked it. */
static void add_badges(struct tui *t, const struct call_mark *m, size_t n)
{
	for (int rank = 0; rank < 3; rank++)
		for (size_t k = 0; k < n; k++) {
			if ((unsigned)m[k].kind >= CALL_MARK_COUNT || badge_rank(&m[k]) != rank)
				continue;
			const struct badge *st = m[k].allowed && m[k].kind == CALL_MARK_EXTRA
			                         ? &allowed_extra : &badge_style[m[k].kind];
			struct strbuf b = STRBUF_INIT;
			strbuf_addf(&b, "%s %s", m[k].scorer, st->glyph);
			if (st->ref)
				strbuf_addf(&b, " #%zu", m[k].ref);
			if (st->word)
				strbuf_addf(&b, " %s", st->word);
			tl_add_badge(t, st->slot, rank == 0, b.buf, b.len);
			strbuf_release(&b);
		}
}

/* The reviewers' tags on call ci (from 1: ci + 1), as badges of their own
 * slot: a reviewer's note, not a machine's failure, so never the error's. */
static size_t add_tag_badges(struct tui *t, size_t ci, bool add)
{
	const struct review *rv = tui_rv(t);
	if (!rv || t->tl.for_entry >= rv->nentries || !rv->entries[t->tl.for_entry].id)
		return 0;
	const struct decision *d[16];
	size_t n = review_tags_on(rv, rv->entries[t->tl.for_entry].id, (long)ci + 1, d, 16);
	for (size_t i = 0; add && i < n; i++) {
		struct strbuf b = STRBUF_INIT;
		strbuf_addf(&b, "\xe2\x9a\x91 %s", vocab_tag_name(&t->cfg->vocab, rv->annot, d[i]->tag));
		tl_add_badge(t, SLOT_MARK_REVIEWED, false, b.buf, b.len);
		strbuf_release(&b);
	}
	return n;
}

static void add_call_head(struct tui *t, size_t e, const struct run_call *c, size_t ci, long number,
                          const struct call_mark *marks, size_t nmarks,
                          const struct decision *label)
{
	struct strbuf head = STRBUF_INIT;
	if (number > 0)
		strbuf_addf(&head, "#%ld ", number);
	else
		strbuf_addstr(&head, "\xc2\xb7 ");           /* · not counted */
	strbuf_addstr(&head, c->name[0] ? c->name : "(no name)");
	/* The marks come before the id, which may be long ("toolu_01eg..."),
	 * so that a narrow pane still shows them. */
	struct strbuf tail = STRBUF_INIT;
	if (c->id)
		strbuf_addf(&tail, "  id %s", c->id);
	if (c->requestor == REQ_USER)
		strbuf_addstr(&tail, "  [simulated user]");
	if (c->state == CALL_PARTIAL)
		strbuf_addstr(&tail, "  [partial]");
	else if (!c->has_result)
		strbuf_addstr(&tail, "  [no result]");
	int slot = c->requestor == REQ_USER ? SLOT_USER_TOOL : SLOT_TOOL_NAME;
	size_t ntags = add_tag_badges(t, ci, false);
	bool pieces = nmarks || ntags || label;
	if (!pieces)
		strbuf_add(&head, tail.buf ? tail.buf : "", tail.len);
	tl_add_line(t, e, 2, slot, head.buf, head.len);
	if (pieces) {
		add_tag_badges(t, ci, true);        /* short, and the reviewer's own: first */
		tl_call_label_badge(t, label);
		add_badges(t, marks, nmarks);
		if (tail.len)       /* without its first two spaces: the piece adds them */
			tl_add_piece(t, slot, false, tail.buf + 2, tail.len - 2);
	}
	strbuf_release(&head);
	strbuf_release(&tail);
}

/* The call's input: any value but none and {} (a hosted tool's input may
 * be a string, such as a shell command, or a list of queries). */
static void add_call_args(struct tui *t, size_t e, struct run *r, struct run_call *c, int width,
                          bool open)
{
	if (run_call_args_invalid(r, c)) {
		const char *sent = run_call_args_text(r, c);
		tl_add_line(t, e, 4, SLOT_ERROR, "arguments (not valid JSON, shown as sent):", 42);
		tl_add_folded(t, e, 6, SLOT_JSON_VALUE, NULL, sent ? sent : "", false, width, open,
		              TL_FOLD_LINES);
		return;
	}
	json_t *args = run_call_args(r, c);
	if (!args || json_is_null(args) || (json_is_object(args) && json_object_size(args) == 0))
		return;
	if (json_is_string(args) && !json_string_value(args)[0])
		return;
	if (json_is_string(args))           /* a shell command, a patch: its lines */
		tl_value_text(t, e, 4, NULL, SLOT_JSON_STRING, json_string_value(args),
		              json_string_length(args), false, width, open, TL_FOLD_LINES);
	else
		tl_value(t, e, 4, NULL, args, width, open, TL_FOLD_LINES);
}

/* A result (or a result no call has) after lead: a string that is JSON
 * text as JSON, any other string as its lines, borrowed from the run's
 * tape; any other value as JSON. A long one stays one text, wrapped as it
 * is drawn (timeline.c), so a huge result costs no line of its own per
 * line. */
static bool add_result_value(struct tui *t, size_t e, int indent, const char *lead, struct run *r,
                             jv v, const json_t *tree, int width, bool open)
{
	if (!jv_is_string(r->doc, v))
		return tree ? tl_value(t, e, indent, lead, tree, width, open, TL_FOLD_LINES) : false;
	const char *s = jv_str(r->doc, v);
	size_t n = strlen(s);
	json_t *j = tv_parse_json_text(s, n);
	if (!j)
		return tl_value_text(t, e, indent, lead, SLOT_JSON_VALUE, s, n, true, width, open,
		                     TL_FOLD_LINES);
	bool more;
	if (n >= TV_LAZY_MIN)   /* pretty-printed, but as one lazily wrapped text */
		more = tl_add_folded(t, e, indent, SLOT_JSON_VALUE, lead, tv_json_text(j), true, width,
		                     open, TL_FOLD_LINES);
	else
		more = tl_value(t, e, indent, lead, j, width, open, TL_FOLD_LINES);
	json_decref(j);
	return more;
}


static void add_call_outcome(struct tui *t, size_t e, struct run *r, struct run_call *c, int width,
                             bool open)
{
	bool own = false;
	if (c->is_error) {
		const char *et = c->error_text;
		if (!et && c->result != JV_NONE)
			et = value_text(r, c->result, jv_is_string(r->doc, c->result) ? NULL : run_call_result(r, c),
			                false, &own);
		if (!et)
			et = "";
		/* "✗ error: ", unless the text says so itself ("Error: ...") */
		tl_add_folded(t, e, 4, SLOT_FAIL,
		              strncasecmp(et, "error", 5) ? "\xe2\x9c\x97 error: " : "\xe2\x9c\x97 ", et, own,
		              width, open, TL_FOLD_LINES);
	} else if (c->has_result && c->result != JV_NONE) {
		bool str = jv_is_string(r->doc, c->result);
		add_result_value(t, e, 4, "\xe2\x87\x90 ", r, c->result,   /* ⇐ */
		                 str ? NULL : run_call_result(r, c), width, open);
	}
}

/* What the parts of a run share while its lines are made. */
struct run_lines {
	struct run *r;
	const long *number;             /* each call's number among the counted, 0 none */
	const struct call_marks *marks; /* may be NULL */
	const struct run_call_decs *decs; /* the reviewer's labels and corrections; may be NULL */
	int width;
};

static void add_call(struct tui *t, const struct run_lines *rl, size_t ci)
{
	struct run *r = rl->r;
	int width = rl->width;
	struct run_call *c = &r->calls[ci];
	size_t e = tl_add_entry(t, (long)c->msg_index, (long)ci, -1, true);
	bool open = t->tl.entries[e].open;
	size_t nmarks;
	const struct call_mark *marks = call_marks_at(rl->marks, ci, &nmarks);
	const struct call_decs *cd = rl->decs && ci < rl->decs->ncalls ? &rl->decs->per[ci] : NULL;
	add_call_head(t, e, c, ci, rl->number[ci], marks, nmarks, cd ? cd->label : NULL);
	tl_call_fixes(t, e, rl->decs, r, ci, width);
	add_call_args(t, e, r, c, width, open);
	add_call_outcome(t, e, r, c, width, open);
}

/* Thinking: one dim line saying how long it is, its text when unfolded.
 * An empty one (encrypted, redacted) says there was thinking. */
static void add_thinking(struct tui *t, size_t mi, size_t pi, const char *text, int width)
{
	if (!text[0]) {
		size_t e = tl_add_entry(t, (long)mi, -1, (long)pi, false);
		static const char none[] = "thinking (not shown in the record)";
		tl_add_line(t, e, 2, SLOT_DIM, none, sizeof none - 1);
		return;
	}
	size_t e = tl_add_entry(t, (long)mi, -1, (long)pi, true);
	bool open = t->tl.entries[e].open;
	size_t n = tl_count_lines(text, 4, width);
	char head[96];
	int len = snprintf(head, sizeof head, "%s thinking (%zu line%s)",
	                   open ? "\xe2\x96\xbe" : "\xe2\x96\xb8", n, n == 1 ? "" : "s");   /* ▾ ▸ */
	tl_add_line(t, e, 2, SLOT_DIM, head, (size_t)len);
	if (open)
		tl_add_text(t, e, 4, SLOT_DIM, NULL, text, width);
}

/* The message's role line, and what is odd about it. */
static size_t add_head(struct tui *t, struct run *r, size_t mi)
{
	struct run_msg *m = &r->msgs[mi];
	size_t e = tl_add_entry(t, (long)mi, -1, -1, false);
	struct strbuf h = STRBUF_INIT;
	strbuf_addstr(&h, role_label(m));
	if (m->origin == MSG_IN_INPUT && r->mastra != MASTRA_NONE)
		strbuf_addstr(&h, " (input)");
	if (m->unmatched_result)
		strbuf_addf(&h, "  for call id %s, which no call has",
		            m->answers_call_id ? m->answers_call_id : "(none)");
	tl_add_line(t, e, 0, m->unmatched_result ? SLOT_ERROR : role_slot(m->role), h.buf, h.len);
	strbuf_release(&h);
	return e;
}

/* A result that no call has (joined ones are shown with their call). */
static void add_tool_output(struct tui *t, struct run *r, size_t mi, int width)
{
	struct run_msg *m = &r->msgs[mi];
	size_t e = add_head(t, r, mi);
	if (m->text && m->text[0]) {
		tl_add_text(t, e, 2, SLOT_NORMAL, NULL, m->text, width);
	} else if (m->result != JV_NONE) {
		/* folded like a call's result, and Enter (or a search) unfolds it */
		bool str = jv_is_string(r->doc, m->result);
		if (add_result_value(t, e, 2, NULL, r, m->result, str ? NULL : run_msg_result(r, m), width,
		                     t->tl.entries[e].open))
			t->tl.entries[e].foldable = true;
	}
}

/* A message built without parts: its text, then its calls. */
static void add_unparted(struct tui *t, const struct run_lines *rl, size_t mi)
{
	struct run *r = rl->r;
	struct run_msg *m = &r->msgs[mi];
	size_t e = add_head(t, r, mi);
	if (m->text && m->text[0])
		tl_add_text(t, e, 2, SLOT_NORMAL, NULL, m->text, rl->width);
	for (size_t k = 0; k < m->ncalls; k++)
		add_call(t, rl, m->first_call + k);
}

/* A text or note part goes to the message's entry, or after a call or
 * thinking to a new entry of the message (*e is SIZE_MAX then). */
static void add_text_part(struct tui *t, struct run *r, size_t mi, const struct run_part *p,
                          size_t *e, int width)
{
	const struct run_msg *m = &r->msgs[mi];
	if (*e == SIZE_MAX)
		*e = tl_add_entry(t, (long)mi, -1, -1, false);
	int indent = m->role == ROLE_NOTE ? 0 : 2;
	if (p->kind == PART_NOTE) {
		tl_add_text(t, *e, indent, SLOT_DIM, "note: ", p->text, width);
	} else if (m->role == ROLE_SYSTEM) {
		if (tl_add_folded(t, *e, indent, SLOT_NORMAL, NULL, p->text, false, width,
		                  t->tl.entries[*e].open, SYSTEM_FOLD_LINES))
			t->tl.entries[*e].foldable = true;
	} else {
		tl_add_text(t, *e, indent, SLOT_NORMAL, NULL, p->text, width);
	}
}

static void add_message(struct tui *t, const struct run_lines *rl, size_t mi)
{
	struct run *r = rl->r;
	int width = rl->width;
	struct run_msg *m = &r->msgs[mi];
	if (m->is_tool_output) {
		if (m->unmatched_result)
			add_tool_output(t, r, mi, width);
		return;
	}
	if (m->nparts == 0) {
		add_unparted(t, rl, mi);
		return;
	}
	/* A note that is a message of its own has no role to show. */
	size_t e = m->role == ROLE_NOTE ? SIZE_MAX : add_head(t, r, mi);
	for (size_t k = 0; k < m->nparts; k++) {
		size_t pi = m->first_part + k;
		const struct run_part *p = &r->parts[pi];
		if (p->kind == PART_CALL) {
			add_call(t, rl, p->call);
			e = SIZE_MAX;
		} else if (p->kind == PART_THINKING) {
			add_thinking(t, mi, pi, p->text, width);
			e = SIZE_MAX;
		} else {
			add_text_part(t, r, mi, p, &e, width);
		}
	}
}

void tl_add_run(struct tui *t, struct run *r, const struct call_marks *marks,
                const struct run_call_decs *decs, int width)
{
	/* Number the calls the tool-call scorer counts, in its order. */
	size_t *counted = xcalloc(r->ncalls + 1, sizeof(size_t));
	long *number = xcalloc(r->ncalls + 1, sizeof(long));
	size_t nc = run_counted_calls(r, RUN_CALLS_SCORED, counted);
	for (size_t i = 0; i < nc; i++)
		number[counted[i]] = (long)i + 1;
	if (r->load_error) {
		size_t e = tl_add_entry(t, -1, -1, -1, false);
		tl_add_line(t, e, 0, SLOT_ERROR, "this run is malformed:", 22);
		tl_add_text(t, e, 2, SLOT_ERROR, NULL, r->load_error, width);
	}
	struct run_lines rl = { .r = r, .number = number, .marks = marks, .decs = decs, .width = width };
	for (size_t mi = 0; mi < r->nmsgs; mi++)
		add_message(t, &rl, mi);
	tl_run_answer(t, decs, width);
	free(counted);
	free(number);
}
