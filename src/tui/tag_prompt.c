/* tag_prompt.c - t: the tag prompt with its completions, and x on a tag.
 *
 * The prompt is the status line's (prompt.c edits its text); this file
 * adds what only a tag's prompt does: the known tags that match what is
 * typed, in a box above the status line, Tab and Up/Down to take one, a
 * defined tag's key on an empty prompt, and the decision Enter writes.
 * The tags pane's rename, merge and promote prompts, and the groups pane's
 * tag of a whole group, complete the same way. */
#include <stdio.h>
#include <string.h>

#include "tui_int.h"
#include "review/tags.h"

#define CANDS_SHOWN 8

long tags_selected_call(const struct tui *t)
{
	if (t->focus != PANE_TIMELINE || t->tl.for_entry != review_current_entry(tui_rv(t)) ||
	    t->tl.sel >= t->tl.nentries)
		return 0;
	long ci = t->tl.entries[t->tl.sel].call;
	return ci >= 0 ? ci + 1 : 0;
}

bool tagprompt_is(const struct tui *t)
{
	return t->pr.kind == PROMPT_TAG || t->pr.kind == PROMPT_TAG_RENAME ||
	       t->pr.kind == PROMPT_TAG_MERGE || t->pr.kind == PROMPT_TAG_PROMOTE ||
	       t->pr.kind == PROMPT_GROUP_TAG;
}

void tagprompt_start(struct tui *t, enum prompt_kind k, const char *label)
{
	prompt_start(t, k, label);
	t->pr.pick = 0;
}

unsigned tagprompt_open(struct tui *t)
{
	if (!review_current(t->rv))
		return REDRAW_STATUS;
	long call = tags_selected_call(t);
	char lbl[96];
	if (call > 0)
		snprintf(lbl, sizeof lbl, "tag call #%ld: ", call);
	else
		snprintf(lbl, sizeof lbl, "tag run: ");
	t->pr.call = call;
	tagprompt_start(t, PROMPT_TAG, lbl);
	return REDRAW_ALL;
}

/* The completions of what is typed; promote offers only defined tags. */
static size_t cands(const struct tui *t, struct tag_cand *out, size_t max)
{
	const char *typed = t->pr.input.buf ? t->pr.input.buf : "";
	struct tag_cand all[64];
	size_t n = review_tag_candidates(tui_rv(t), typed, all, 64), k = 0;
	for (size_t i = 0; i < n && k < max; i++)
		if (t->pr.kind != PROMPT_TAG_PROMOTE || all[i].defined)
			out[k++] = all[i];
	return k;
}

static void take(struct tui *t, const char *name)
{
	strbuf_reset(&t->pr.input);
	strbuf_addstr(&t->pr.input, name);
	t->pr.pick = 0;
}

static unsigned submit_tag(struct tui *t, const char *text)
{
	struct error err = {0};
	long call = t->pr.call;
	char what[224];
	char where[32];
	if (call > 0)
		snprintf(where, sizeof where, "call #%ld", call);
	else
		snprintf(where, sizeof where, "the run");
	int rc = review_tag(t->rv, call, text, &err);
	const char *spelt = review_tag_spelling(tui_rv(t), text);
	if (rc == 1) {
		tui_message(t, false, "%s is tagged %s already: nothing written", where, spelt);
		return REDRAW_STATUS;
	}
	snprintf(what, sizeof what, "%s tagged %s", where, spelt);
	return decide_report(t, rc, err.msg, what);
}

/* Enter on one of the tag prompts: text is the name typed or chosen. */
static unsigned submit(struct tui *t, enum prompt_kind k, const char *text)
{
	t->pr.kind = PROMPT_NONE;
	if (!*text) {
		tui_message(t, false, "cancelled");
		return REDRAW_ALL;
	}
	if (k == PROMPT_TAG)
		return submit_tag(t, text);
	if (k == PROMPT_GROUP_TAG)      /* the groups pane asks y/n with the count */
		return groups_tag_typed(t, text);
	return tagpane_submit(t, k, text);
}

unsigned tagprompt_key(struct tui *t, keycode_t key)
{
	struct tag_cand c[CANDS_SHOWN];
	size_t n = cands(t, c, CANDS_SHOWN);
	enum prompt_kind k = t->pr.kind;
	bool empty = t->pr.input.len == 0;
	if (key == '\t') {
		if (n)
			take(t, c[t->pr.pick ? t->pr.pick - 1 : 0].name);
		return REDRAW_ALL;
	}
	if (key == KEY_FN(KF_DOWN) || key == KEY_FN(KF_UP)) {
		if (n)
			t->pr.pick = key == KEY_FN(KF_DOWN) ? t->pr.pick % n + 1 :
			             t->pr.pick > 1 ? t->pr.pick - 1 : n;
		return REDRAW_ALL;
	}
	if (key == '\n') {
		char text[256];
		snprintf(text, sizeof text, "%s",
		         t->pr.pick && t->pr.pick <= n ? c[t->pr.pick - 1].name :
		         t->pr.input.buf ? t->pr.input.buf : "");
		return submit(t, k, text);
	}
	/* a defined tag's key picks it at once, before anything is typed */
	if ((k == PROMPT_TAG || k == PROMPT_GROUP_TAG) && empty && key < 0x80 && key > 0x20) {
		const struct vocab *vo = &t->cfg->vocab;
		const struct tag_def *d = vocab_tag_by_key(vo, (char)key);
		if (d) {
			char id[256];
			snprintf(id, sizeof id, "%s", d->id);
			return submit(t, k, id);
		}
	}
	t->pr.pick = 0;
	return prompt_key_edit(t, key) | REDRAW_ALL;
}

/* The completions in a box above the status line, the chosen one marked. */
void tagprompt_draw(const struct tui *t)
{
	struct tag_cand c[CANDS_SHOWN];
	size_t n = cands(t, c, CANDS_SHOWN);
	if (!n)
		return;
	int h = (int)n, y0 = LINES - 1 - h;
	if (y0 < 0)
		return;
	attr_t a = screen_attr(t, SLOT_NORMAL), sel = screen_attr(t, SLOT_SELECTION);
	attr_t dim = screen_attr(t, SLOT_DIM);
	int w = COLS;
	for (size_t i = 0; i < n; i++) {
		bool chosen = t->pr.pick == i + 1;
		attr_t la = chosen ? sel : a;
		int y = y0 + (int)i;
		draw_fill(y, 0, w, la);
		char head[160];
		int len = snprintf(head, sizeof head, " %c %s%s%s ", c[i].key ? c[i].key : ' ',
		                   c[i].defined ? "" : "\xc2\xb7 ", c[i].name,          /* · a free code */
		                   c[i].defined ? "" : "");
		if (len >= (int)sizeof head)
			len = (int)sizeof head - 1;
		int x = draw_text(y, 0, w, head, (size_t)len, la);
		if (c[i].hint && x + 2 < w) {
			const char *pre = c[i].defined ? " " : " \xe2\x86\x92 ";          /* → counts under */
			x += draw_text(y, x, w - x, pre, strlen(pre), chosen ? sel : dim);
			draw_text_cut(y, x, w - x, c[i].hint, strlen(c[i].hint), chosen ? sel : dim);
		}
	}
}

bool tags_retract(struct tui *t, unsigned *r)
{
	if (!review_current(t->rv))
		return false;
	long call = tags_selected_call(t);
	size_t row = verdicts_selected(t);
	if (call > 0) {
		if (!review_latest_tag(tui_rv(t), call))
			return false;
	} else if (!review_tag_is_latest(tui_rv(t), row)) {
		return false;
	}
	char code[256], what[320];
	struct error err = {0};
	const struct decision *d = review_latest_tag(tui_rv(t), call > 0 ? call : -1);
	long on = d ? d->call : 0;
	int rc = review_untag(t->rv, call > 0 ? call : -1, code, sizeof code, &err);
	if (on > 0)
		snprintf(what, sizeof what, "tag %s taken back from call #%ld (your latest)", code, on);
	else
		snprintf(what, sizeof what, "tag %s taken back from the run (your latest)", code);
	*r = decide_report(t, rc, err.msg, what);
	return true;
}
