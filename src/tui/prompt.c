/* prompt.c - the one-line prompt's keys: search, override, note, the judge menu and the
 * leave for a judge's host (a tag's completions are tag_prompt.c's).
 *
 * The prompt's text is edited here; what Enter does with it is the
 * session's (search, decisions) or the judges'. The cursor shows while a
 * prompt is open (the draw step shows it). */
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "timeline_find.h"
#include "tui_int.h"
#include "util/error.h"

static unsigned submit_score(struct tui *t, const char *text)
{
	struct error err = {0};
	if (review_parse_row_score(t->rv, t->pr.row, text, &t->pr.score, &err) < 0) {
		/* ask again: the reviewer meant to override */
		char lbl[sizeof t->pr.label];
		if (snprintf(lbl, sizeof lbl, "override %s: %s, try again: ",
		             review_row_id(t->rv, t->pr.row), err.msg) < 0)
			lbl[0] = '\0';
		prompt_start(t, PROMPT_SCORE, lbl);
		return REDRAW_STATUS;
	}
	prompt_start(t, PROMPT_REASON, "reason (optional, Enter to skip): ");
	return REDRAW_STATUS;
}

/* The override's reason typed: decide. A score equal to the machine's is
 * an accept, and the status line says so. */
static unsigned submit_override(struct tui *t, const char *reason)
{
	struct error err = {0};
	char what[160];
	bool agrees = false;
	int rc = review_override(t->rv, t->pr.row, t->pr.score, *reason ? reason : NULL, &agrees,
	                         &err);
	snprintf(what, sizeof what, "%s%s", review_row_id(t->rv, t->pr.row),
	         agrees ? ": same score, accepted" : " overridden");
	return decide_report(t, rc, err.msg, what);
}

static unsigned prompt_submit(struct tui *t)
{
	struct error err = {0};
	const char *text = t->pr.input.buf ? t->pr.input.buf : "";
	enum prompt_kind k = t->pr.kind;
	t->pr.kind = PROMPT_NONE;
	switch (k) {
	case PROMPT_SEARCH:
		return tl_find_submit(t, text);
	case PROMPT_SCORE:
		return submit_score(t, text);
	case PROMPT_REASON:
		return submit_override(t, text);
	case PROMPT_NOTE:
		if (!*text)
			return REDRAW_STATUS;
		return decide_report(t, review_note(t->rv, text, &err), err.msg, "note written");
	default:
		return REDRAW_STATUS;
	}
}

static void input_backspace(struct strbuf *sb)
{
	/* drop one whole UTF-8 character */
	while (sb->len > 0) {
		unsigned char c = (unsigned char)sb->buf[--sb->len];
		if ((c & 0xc0) != 0x80)
			break;
	}
	if (sb->buf)
		sb->buf[sb->len] = '\0';
}

static void input_add(struct strbuf *sb, keycode_t ch)
{
	char out[8];
	mbstate_t st;
	memset(&st, 0, sizeof st);
	size_t n = wcrtomb(out, (wchar_t)ch, &st);
	if (n != (size_t)-1)
		strbuf_add(sb, out, n);
}

/* The judge menu: Enter asks every judge, a digit one of them. */
static unsigned judge_menu_key(struct tui *t, keycode_t key)
{
	t->pr.kind = PROMPT_NONE;
	if (key == '\n')
		return tui_judges_ask(t, -1);
	if (key >= '1' && key <= '9' && (size_t)(key - '1') < t->cfg->njudges)
		return tui_judges_ask(t, (long)(key - '1'));
	tui_message(t, false, "cancelled");
	return REDRAW_STATUS;
}

unsigned prompt_key(struct tui *t, keycode_t key)
{
	if (t->pr.kind == PROMPT_JUDGE)
		return judge_menu_key(t, key);
	if (t->pr.kind == PROMPT_ALLOW_HOST)
		return tui_judges_allow_key(t, key);
	if (t->pr.kind == PROMPT_GROUP_CONFIRM)
		return groups_confirm_key(t, key);
	if (t->pr.kind == PROMPT_CALL_KEY)
		return calls_prompt_key(t, key);
	if (tagprompt_is(t))
		return tagprompt_key(t, key);
	return prompt_key_edit(t, key);
}

unsigned prompt_key_edit(struct tui *t, keycode_t key)
{
	if (key == 27) {
		t->pr.kind = PROMPT_NONE;
		tui_message(t, false, "cancelled");
		return REDRAW_STATUS;
	}
	if (key == '\n')
		return prompt_submit(t);
	if (key == KEY_FN(KF_BACKSPACE) || key == 127 || key == 8) {
		input_backspace(&t->pr.input);
		return REDRAW_STATUS;
	}
	if (key == 21) {               /* C-u clears the line */
		strbuf_reset(&t->pr.input);
		return REDRAW_STATUS;
	}
	if (!(key & KEYCODE_FN) && key >= 0x20 && key != 127)
		input_add(&t->pr.input, key);
	return REDRAW_STATUS;
}
