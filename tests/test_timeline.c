/* test_timeline.c - the timeline of a run with huge texts, without a
 * terminal: a message of several hundred KB and a long tool result become
 * a few lazy segments, not a line each, with the line counts wtext_wrap
 * gives (the result folded to six lines and its "more lines" hint); their
 * lines read back as wtext_wrap's; and when the run is dropped from the
 * cache and read again, the timeline rebuilds instead of reading the old
 * run's text. Small runs keep their golden screens (tests/cli/screen.sh).
 *
 * Runs built with the run.h builders show as they happened: a message's
 * parts in their order (text, call, text), thinking folded under its
 * label and unfolded by Enter, notes as notes, a long system prompt folded
 * with the run opened at its first user message, folds kept across a
 * relayout, and a call's input of any shape. */
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <limits.h>
#include <wchar.h>

#include <cmocka.h>

#include "review/settle.h"
#include "config/config.h"
#include "review/callmarks.h"
#include "review/session.h"
#include "tui/lazytext.h"
#include "util/strbuf.h"
#include "util/wtext.h"
#include "../src/tui/timeline_int.h"
#include "util/error.h"

static char dir[64];
static char runs_path[128];
static struct config cfg;
static struct strbuf message = STRBUF_INIT;    /* the big run's final answer, as decoded */
static struct strbuf result = STRBUF_INIT;     /* its tool's result */

static const char yaml[] =
	"scorers:\n"
	"  - id: lookup\n"
	"    type: tool-call-accuracy\n"
	"    expectedTool: get_order\n";

/* s as a JSON string's contents. */
static void add_escaped(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		if (*s == '\n')
			strbuf_addstr(sb, "\\n");
		else if (*s == '\t')
			strbuf_addstr(sb, "\\t");
		else if (*s == '"' || *s == '\\') {
			strbuf_addch(sb, '\\');
			strbuf_addch(sb, *s);
		} else
			strbuf_addch(sb, *s);
	}
}

static int setup(void **s)
{
	(void)s;
	if (!setlocale(LC_ALL, "C.UTF-8") && !setlocale(LC_ALL, "en_US.UTF-8"))
		return -1;
	strcpy(dir, "/tmp/tcr-tl.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	/* ~400 KB of mixed scripts, emoji, tabs, paragraphs and one paragraph
	 * of ~300 KB; a result of ~150 KB of JSON text on one line. */
	static const char *const bits[] = {
		"The parcel left Sapporo. ", "荷物は札幌を出発しました。", "包裹已经发出，请耐心等待。",
		"\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x92\xbb \xf0\x9f\x87\xaf\xf0\x9f\x87\xb5 ", "qty\t1\t",
		"Cafe\xcc\x81 ",
	};
	for (int i = 0; i < 4000; i++) {
		strbuf_addstr(&message, bits[i % 6]);
		if (i % 37 == 36)
			strbuf_addstr(&message, "\n");
	}
	for (int i = 0; i < 12000; i++)
		strbuf_addstr(&message, bits[(i * 7) % 6]);
	strbuf_addstr(&message, "\nThe end.");
	strbuf_addstr(&result, "{\"events\":[");
	for (int i = 0; i < 3000; i++)
		strbuf_addf(&result, "%s{\"at\":\"2025-03-%02d\",\"where\":\"Hub %d\"}", i ? "," : "", 1 + i % 28, i);
	strbuf_addstr(&result, "]}");

	struct strbuf f = STRBUF_INIT;
	strbuf_addstr(&f, "{\"id\":\"run-big\",\"messages\":[{\"role\":\"user\",\"content\":\"Where is it?\"},"
	                  "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"c1\",\"type\":\"function\","
	                  "\"function\":{\"name\":\"track_parcel\",\"arguments\":\"{}\"}}]},"
	                  "{\"role\":\"tool\",\"tool_call_id\":\"c1\",\"content\":\"");
	add_escaped(&f, result.buf);
	strbuf_addstr(&f, "\"},{\"role\":\"assistant\",\"content\":\"");
	add_escaped(&f, message.buf);
	strbuf_addstr(&f, "\"}]}\n");
	strbuf_addstr(&f, "{\"id\":\"run-small\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"},"
	                  "{\"role\":\"assistant\",\"content\":\"hello\"}]}\n");
	snprintf(runs_path, sizeof runs_path, "%s/runs.jsonl", dir);
	FILE *out = fopen(runs_path, "wb");
	if (!out)
		return -1;
	fwrite(f.buf, 1, f.len, out);
	fclose(out);
	strbuf_release(&f);
	struct error err = {0};
	if (config_load_string(&cfg, NULL, "t.yaml", dir, yaml, sizeof yaml - 1, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		return -1;
	}
	return 0;
}

static int teardown(void **s)
{
	(void)s;
	config_free(&cfg);
	strbuf_release(&message);
	strbuf_release(&result);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

struct fixture {
	struct review rv;
	struct tui t;
};

static void open_fixture(struct fixture *fx)
{
	memset(fx, 0, sizeof *fx);
	struct error err = {0};
	char annot[160];
	char *paths[] = { runs_path };
	snprintf(annot, sizeof annot, "%s/a.annotations.jsonl", dir);
	unlink(annot);
	const char *apaths[] = { annot };
	if (review_open(&fx->rv, &cfg, NULL, paths, 1, apaths, 1, "tester", &err) < 0)
		fail_msg("review_open: %s", err.msg);
	while (review_step(&fx->rv, 50))
		;
	tui_init(&fx->t, &fx->rv, &cfg);
	fx->t.lay = layout_compute(80, 24, verdicts_rows_wanted(&fx->t));
}

static void close_fixture(struct fixture *fx)
{
	tui_free(&fx->t);
	review_close(&fx->rv);
}

/* The segment of the timeline that is lazy and has `count` lines. */
static const struct tl_line *lazy_seg(const struct tui *t, size_t nth)
{
	for (size_t i = 0; i < t->tl.nsegs; i++)
		if (t->tl.lines[i].lazy && nth-- == 0)
			return &t->tl.lines[i];
	return NULL;
}

/* Every line of a lazy segment against wtext_wrap of the same text. */
static void check_lines(const struct tl_line *l, const char *text, size_t cols, size_t want_total)
{
	struct wtext_wrapped wr;
	wtext_wrap(&wr, text, strlen(text), cols, WTEXT_TABS);
	assert_int_equal(lazytext_count(l->lazy), wr.nlines);
	if (want_total)
		assert_int_equal(wr.nlines, want_total);
	for (size_t i = 0; i < l->count; i += 1 + i / 16) {
		size_t n;
		const wchar_t *s = lazytext_line(l->lazy, i, &n);
		assert_int_equal(n, wr.lines[i].len);
		for (size_t k = 0; k < n; k++)
			assert_true(s[k] == wr.text[wr.lines[i].start + k]);
	}
	wtext_wrapped_free(&wr);
}

static void test_huge_texts_are_lazy_segments(void **s)
{
	(void)s;
	struct fixture fx;
	open_fixture(&fx);
	struct tui *t = &fx.t;
	timeline_pane.fit(t);
	int width = t->lay.pane[PANE_TIMELINE].w - 1;
	assert_true(t->tl.nlines > 5000);
	assert_true(t->tl.nsegs < 30);                 /* a few segments, not a line each */

	/* The result: folded to six lines, then "… N more lines". */
	const struct tl_line *res = lazy_seg(t, 0);
	assert_non_null(res);
	assert_int_equal(res->count, 6);
	/* a result that is JSON text is pretty-printed, still one lazy text */
	struct strbuf shown = STRBUF_INIT;
	strbuf_addstr(&shown, "\xe2\x87\x90 ");
	json_t *tree = json_loads(result.buf, 0, NULL);
	assert_non_null(tree);
	char *pretty = json_dumps(tree, JSON_INDENT(2));
	strbuf_addstr(&shown, pretty);
	free(pretty);
	json_decref(tree);
	check_lines(res, shown.buf, (size_t)(width - 4), 0);
	const struct tl_line *hint = res + 1;
	assert_null(hint->lazy);
	char want[96];
	snprintf(want, sizeof want, "\xe2\x80\xa6 %zu more lines", lazytext_count(res->lazy) - 6);
	size_t wn;
	wchar_t *ww = wtext_decode(want, strlen(want), 0, &wn);
	assert_true(hint->len > wn && wmemcmp(hint->text, ww, wn) == 0);
	free(ww);
	strbuf_release(&shown);

	/* The message: every line, counted and read back. */
	const struct tl_line *msg = lazy_seg(t, 1);
	assert_non_null(msg);
	assert_int_equal(msg->count, lazytext_count(msg->lazy));
	check_lines(msg, message.buf, (size_t)(width - 2), 0);
	assert_int_equal(msg->first + msg->count, t->tl.nlines);   /* the last entry */
	close_fixture(&fx);
}

/* Enter on the call unfolds its result: all its lines, lazily. */
static void test_unfolding_a_huge_result(void **s)
{
	(void)s;
	struct fixture fx;
	open_fixture(&fx);
	struct tui *t = &fx.t;
	timeline_pane.fit(t);
	size_t folded = t->tl.nlines;
	const struct tl_line *res = lazy_seg(t, 0);
	size_t res_entry = res->entry;
	assert_true(res_entry + 1 < t->tl.nentries);
	size_t hint_lines = t->tl.entries[res_entry + 1].first_line - (res->first + res->count);
	assert_true(hint_lines >= 1);
	tui_key(t, '\t');
	assert_int_equal(t->focus, PANE_TIMELINE);
	size_t call = SIZE_MAX;
	for (size_t e = 0; e < t->tl.nentries && call == SIZE_MAX; e++)
		if (t->tl.entries[e].call >= 0)
			call = e;
	assert_true(call != SIZE_MAX);
	while (t->tl.sel < call)
		tui_key(t, 'j');
	assert_int_equal(call, res_entry);
	tui_key(t, '\n');
	timeline_pane.fit(t);
	res = lazy_seg(t, 0);
	assert_int_equal(res->count, lazytext_count(res->lazy));
	assert_true(res->count > 6);
	assert_int_equal(t->tl.nlines, folded - 6 - hint_lines + res->count);   /* no hint now */
	close_fixture(&fx);
}

/* The run shown dropped from the cache and read again (a new serial): the
 * timeline rebuilds on the new run rather than reading the freed text. */
static void test_a_run_read_again_rebuilds_the_timeline(void **s)
{
	(void)s;
	struct fixture fx;
	open_fixture(&fx);
	struct tui *t = &fx.t;
	timeline_pane.fit(t);
	unsigned long serial = t->tl.for_serial;
	size_t lines = t->tl.nlines;
	assert_true(serial > 0);
	fx.rv.cache_limit = 1;
	size_t big = fx.rv.view[review_cursor(&fx.rv)];
	assert_non_null(review_run_at(&fx.rv, big == 0 ? 1 : 0));   /* evicts the big run */
	assert_null(fx.rv.entries[big].cached);
	review_settle(&fx.rv);
	timeline_pane.fit(t);
	assert_true(t->tl.for_serial > serial);
	assert_int_equal(t->tl.nlines, lines);
	const struct tl_line *msg = lazy_seg(t, 1);
	int width = t->lay.pane[PANE_TIMELINE].w - 1;
	check_lines(msg, message.buf, (size_t)(width - 2), 0);
	close_fixture(&fx);
}

/* ---- runs built with the run.h builders -------------------------------- */

/* A screen state with no terminal and no review: the timeline of the runs
 * handed to tl_build, in an 80x24 layout. */
static void tl_open(struct tui *t, int cols, int lines)
{
	memset(t, 0, sizeof *t);
	t->tl.for_entry = SIZE_MAX;
	t->tl.width = -1;
	t->lay = layout_compute(cols, lines, 3);
}

/* A run whose record is `json` (its values are what calls' inputs point at). */
static struct run *built_run(const char *json)
{
	json_error_t jerr;
	json_t *rec = json_loads(json, 0, &jerr);
	assert_non_null(rec);
	struct run *r = run_new(rec, "t.jsonl", 1, -1);
	json_decref(rec);
	assert_non_null(r);
	r->id = "built";
	r->format = "test";
	return r;
}

/* The timeline's lines as text, one per line, each indented as drawn;
 * the slot of each line in slots (may be NULL; as many as lines). */
static char *tl_dump(const struct tui *t, int *slots)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = 0;
	for (size_t i = 0; i < t->tl.nsegs; i++) {
		const struct tl_line *l = &t->tl.lines[i];
		assert_null(l->lazy);               /* small texts only here */
		for (int k = 0; k < l->indent; k++)
			strbuf_addch(&sb, ' ');
		mbstate_t st;
		memset(&st, 0, sizeof st);
		for (size_t k = 0; k < l->len; k++) {
			char mb[MB_LEN_MAX];
			size_t w = wcrtomb(mb, l->text[k], &st);
			if (w != (size_t)-1)
				strbuf_add(&sb, mb, w);
		}
		strbuf_addch(&sb, '\n');
		if (slots)
			slots[n] = l->slot;
		n++;
	}
	return strbuf_detach(&sb);
}

/* Where `line` (a whole line of the dump) is; fails when it is not there. */
static size_t line_at(const char *dump, const char *line)
{
	size_t n = strlen(line);
	for (const char *p = dump; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		if (len == n && !memcmp(p, line, n))
			return (size_t)(p - dump);
		p += len + (nl ? 1 : 0);
	}
	fail_msg("no line \"%s\" in:\n%s", line, dump);
	return 0;
}

static bool has_line(const char *dump, const char *line)
{
	size_t n = strlen(line);
	for (const char *p = dump; (p = strstr(p, line)); p++)
		if ((p == dump || p[-1] == '\n') && (p[n] == '\n' || !p[n]))
			return true;
	return false;
}

/* The entry of a thinking part, of a call, or the first one of message mi
 * after its head (SIZE_MAX when none). */
static size_t entry_where(const struct tui *t, long msg, long call, bool thinking)
{
	for (size_t e = 0; e < t->tl.nentries; e++) {
		const struct tl_entry *en = &t->tl.entries[e];
		if (call >= 0 ? en->call == call : thinking ? en->part >= 0 && en->msg == msg : en->msg == msg)
			return e;
	}
	return SIZE_MAX;
}

/* An assistant message of text, a call and text again is drawn in that
 * order: the summary after the call it sums up, in an entry of its own. */
static void test_parts_in_their_order(void **s)
{
	(void)s;
	struct run *r = built_run("{\"args\": {\"order_id\": \"7\"}}");
	run_add_msg(r, ROLE_SYSTEM, MSG_IN_OUTPUT, "You help with orders.", JV_NONE);
	run_add_msg(r, ROLE_USER, MSG_IN_OUTPUT, "Where is order 7?", JV_NONE);
	size_t a = run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, "Let me look it up.", JV_NONE);
	struct run_call *c = run_add_call(r, a);
	c->name = "get_order";
	c->id = "c1";
	run_call_set_args(r, c, jv_get(r->doc, run_root(r), "args"));
	run_add_text(r, a, "It has shipped.", JV_NONE);
	struct review_run rr = { .entry = 0, .run = r, .serial = 1 };
	struct tui t;
	tl_open(&t, 80, 24);
	tl_build(&t, &rr, 0);
	char *d = tl_dump(&t, NULL);
	size_t text1 = line_at(d, "  Let me look it up."), call = line_at(d, "  #1 get_order  id c1  [no result]");
	size_t args = line_at(d, "      \"order_id\": \"7\""), text2 = line_at(d, "  It has shipped.");
	assert_true(text1 < call && call < args && args < text2);
	/* entries: system, user, assistant (its first text), the call, the text after it */
	assert_int_equal(t.tl.nentries, 5);
	assert_int_equal(t.tl.entries[3].call, 0);
	assert_int_equal(t.tl.entries[4].msg, (long)a);
	assert_int_equal(t.tl.entries[4].call, -1);
	assert_false(t.tl.entries[4].foldable);
	assert_false(t.tl.entries[0].foldable);         /* a short system prompt is whole */
	free(d);
	timeline_free(&t);
	run_free(r);
}

/* A message built without parts (an older loader's) shows its text, then
 * its calls, as it always did. */
static void test_a_message_without_parts(void **s)
{
	(void)s;
	struct run *r = built_run("{}");
	run_add_msg(r, ROLE_USER, MSG_IN_OUTPUT, "Cancel order 9.", JV_NONE);
	size_t a = run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, NULL, JV_NONE);
	run_add_call(r, a)->name = "cancel_order";
	run_add_text(r, a, "Cancelled.", JV_NONE);
	r->msgs[a].nparts = 0;                          /* as built before parts */
	struct review_run rr = { .entry = 0, .run = r, .serial = 1 };
	struct tui t;
	tl_open(&t, 80, 24);
	tl_build(&t, &rr, 0);
	char *d = tl_dump(&t, NULL);
	assert_true(line_at(d, "  Cancelled.") < line_at(d, "  #1 cancel_order  [no result]"));
	assert_int_equal(t.tl.nentries, 3);             /* user, assistant, the call */
	free(d);
	timeline_free(&t);
	run_free(r);
}

/* Thinking is one dim line under its own label, its text hidden; Enter
 * unfolds it and folds it again. Thinking the record does not show
 * (encrypted, redacted) says so and does not fold. */
static void test_thinking_folds(void **s)
{
	(void)s;
	struct run *r = built_run("{}");
	run_add_msg(r, ROLE_USER, MSG_IN_OUTPUT, "Is the tent in stock?", JV_NONE);
	size_t a = run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, NULL, JV_NONE);
	run_add_thinking(r, a, "The user asks about stock.\nI should check.\nThen answer.", JV_NONE);
	run_add_text(r, a, "Yes, it is.", JV_NONE);
	size_t b = run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, NULL, JV_NONE);
	run_add_thinking(r, b, "", JV_NONE);
	struct review_run rr = { .entry = 0, .run = r, .serial = 1 };
	struct tui t;
	tl_open(&t, 80, 24);
	tl_build(&t, &rr, 0);
	int slots[64];
	char *d = tl_dump(&t, slots);
	size_t fold = line_at(d, "  \xe2\x96\xb8 thinking (3 lines)");
	assert_true(line_at(d, "assistant") < fold && fold < line_at(d, "  Yes, it is."));
	assert_null(strstr(d, "I should check."));
	assert_true(has_line(d, "  thinking (not shown in the record)"));
	size_t e = entry_where(&t, (long)a, -1, true), none = entry_where(&t, (long)b, -1, true);
	assert_true(e != SIZE_MAX && none != SIZE_MAX);
	assert_true(t.tl.entries[e].foldable);
	assert_false(t.tl.entries[none].foldable);
	size_t li = t.tl.entries[e].first_line;
	assert_int_equal(slots[li], SLOT_DIM);
	free(d);

	t.tl.sel = e;
	assert_int_equal(timeline_pane.toggle(&t), REDRAW_TIMELINE);
	tl_build(&t, &rr, 0);
	d = tl_dump(&t, NULL);
	size_t head = line_at(d, "  \xe2\x96\xbe thinking (3 lines)");
	assert_true(head < line_at(d, "    I should check.") && line_at(d, "    Then answer.") < line_at(d, "  Yes, it is."));
	assert_true(t.tl.entries[e].open);
	assert_int_equal(t.tl.sel, e);                  /* the same run keeps its place */
	free(d);

	timeline_pane.toggle(&t);
	tl_build(&t, &rr, 0);
	d = tl_dump(&t, NULL);
	assert_true(has_line(d, "  \xe2\x96\xb8 thinking (3 lines)"));
	assert_null(strstr(d, "I should check."));
	free(d);
	t.tl.sel = none;
	assert_int_equal(timeline_pane.toggle(&t), 0);  /* nothing to unfold */
	timeline_free(&t);
	run_free(r);
}

/* A note part and a note message say what was kept, dim, without a role. */
static void test_notes(void **s)
{
	(void)s;
	struct run *r = built_run("{}");
	size_t u = run_add_msg(r, ROLE_USER, MSG_IN_OUTPUT, "Hi", JV_NONE);
	run_add_note(r, u, JV_NONE, "block type \"%s\" (kept as is)", "audio");
	run_add_note_msg(r, MSG_IN_OUTPUT, JV_NONE, "event type \"%s\" (kept as is)", "progress");
	struct review_run rr = { .entry = 0, .run = r, .serial = 1 };
	struct tui t;
	tl_open(&t, 80, 24);
	tl_build(&t, &rr, 0);
	int slots[16];
	char *d = tl_dump(&t, slots);
	assert_string_equal(d, "user\n"
	                       "  Hi\n"
	                       "  note: block type \"audio\" (kept as is)\n"
	                       "note: event type \"progress\" (kept as is)\n");
	assert_int_equal(slots[2], SLOT_DIM);
	assert_int_equal(slots[3], SLOT_DIM);
	assert_int_equal(t.tl.nentries, 2);
	assert_int_equal(t.tl.entries[1].msg, 1);
	free(d);
	timeline_free(&t);
	run_free(r);
}

/* A run with a long system prompt and a conversation longer than the pane. */
static struct run *policy_run(void)
{
	struct run *r = built_run("{}");
	struct strbuf sb = STRBUF_INIT;
	for (int i = 1; i <= 12; i++)
		strbuf_addf(&sb, "%sRule %d: be kind.", i > 1 ? "\n" : "", i);
	run_add_msg(r, ROLE_SYSTEM, MSG_IN_OUTPUT, run_strdup(r, sb.buf), JV_NONE);
	strbuf_release(&sb);
	run_add_msg(r, ROLE_USER, MSG_IN_OUTPUT, "My tent is torn.", JV_NONE);
	for (int i = 0; i < 30; i++)
		run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, "Sorry to hear that.", JV_NONE);
	return r;
}

/* A system prompt of more than four lines shows four and the hint; the
 * run opens at the first user message; Enter on the prompt unfolds it. */
static void test_long_system_prompt(void **s)
{
	(void)s;
	struct run *r = policy_run();
	struct review_run rr = { .entry = 0, .run = r, .serial = 1 };
	struct tui t;
	tl_open(&t, 80, 24);
	tl_build(&t, &rr, 0);
	char *d = tl_dump(&t, NULL);
	assert_true(has_line(d, "  Rule 4: be kind."));
	assert_false(has_line(d, "  Rule 5: be kind."));
	assert_true(line_at(d, "  Rule 4: be kind.") < line_at(d, "  \xe2\x80\xa6 8 more lines (Enter in the timeline to"));
	assert_true(t.tl.entries[0].foldable);
	assert_int_equal(t.tl.sel, 1);                  /* the user's message */
	assert_int_equal(t.tl.top, t.tl.entries[1].first_line);
	assert_int_equal(t.tl.top, 7);                  /* head, 4 lines, 2 of the hint */
	free(d);

	t.tl.sel = 0;
	timeline_pane.toggle(&t);
	tl_build(&t, &rr, 0);
	d = tl_dump(&t, NULL);
	assert_true(line_at(d, "  Rule 12: be kind.") < line_at(d, "user"));
	assert_null(strstr(d, "more lines"));
	assert_int_equal(t.tl.sel, 0);
	assert_int_equal(t.tl.top, 7);                  /* kept: only fit scrolls */
	free(d);
	timeline_free(&t);
	run_free(r);
}

/* At another width (the list grew, a zoom) the entry at the top stays
 * there, though its line number changes with the wrapping above it. */
static void test_rewrap_keeps_the_top_entry(void **s)
{
	(void)s;
	struct run *r = policy_run();
	struct review_run rr = { .entry = 0, .run = r, .serial = 1 };
	struct tui t;
	tl_open(&t, 40, 24);
	tl_build(&t, &rr, 0);
	size_t narrow = t.tl.entries[1].first_line;
	assert_int_equal(t.tl.top, narrow);            /* the user's message */
	t.lay = layout_compute(200, 24, 3);
	tl_build(&t, &rr, 0);
	assert_true(t.tl.entries[1].first_line < narrow);
	assert_int_equal(t.tl.top, t.tl.entries[1].first_line);
	timeline_free(&t);
	run_free(r);
}

/* With no user message the run opens at the top. */
static void test_no_user_message_opens_at_the_top(void **s)
{
	(void)s;
	struct run *r = policy_run();
	r->msgs[1].role = ROLE_ASSISTANT;
	struct review_run rr = { .entry = 0, .run = r, .serial = 1 };
	struct tui t;
	tl_open(&t, 80, 24);
	t.tl.sel = 5;
	t.tl.top = 9;
	tl_build(&t, &rr, 0);
	assert_int_equal(t.tl.sel, 0);
	assert_int_equal(t.tl.top, 0);
	timeline_free(&t);
	run_free(r);
}

/* A relayout (another width) of the same run keeps what was unfolded and
 * where the reviewer was; another run starts folded. */
static void test_relayout_keeps_folds(void **s)
{
	(void)s;
	struct run *r = built_run("{\"args\": {\"a\": 1, \"b\": 2, \"c\": 3, \"d\": 4, \"e\": 5, \"f\": 6, \"g\": 7}}");
	run_add_msg(r, ROLE_USER, MSG_IN_OUTPUT, "Go.", JV_NONE);
	size_t a = run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, NULL, JV_NONE);
	run_add_thinking(r, a, "Plan it.", JV_NONE);
	run_call_set_args(r, run_add_call(r, a), jv_get(r->doc, run_root(r), "args"));
	struct review_run rr = { .entry = 0, .run = r, .serial = 1 };
	struct tui t;
	tl_open(&t, 80, 24);
	tl_build(&t, &rr, 0);
	size_t th = entry_where(&t, (long)a, -1, true), call = entry_where(&t, -1, 0, false);
	char *d = tl_dump(&t, NULL);
	assert_false(has_line(d, "      \"g\": 7"));   /* folded to six lines */
	free(d);
	t.tl.sel = th;
	timeline_pane.toggle(&t);
	t.tl.sel = call;
	timeline_pane.toggle(&t);
	tl_build(&t, &rr, 0);
	t.tl.top = 1;
	t.lay = layout_compute(120, 30, 3);
	tl_build(&t, &rr, 0);
	assert_int_equal(t.tl.width, t.lay.pane[PANE_TIMELINE].w - 1);
	assert_true(t.tl.entries[th].open && t.tl.entries[call].open);
	assert_int_equal(t.tl.sel, call);
	assert_int_equal(t.tl.top, 1);
	d = tl_dump(&t, NULL);
	assert_true(has_line(d, "    Plan it."));
	assert_true(has_line(d, "      \"g\": 7"));
	free(d);

	struct review_run other = { .entry = 1, .run = r, .serial = 2 };
	tl_build(&t, &other, 1);
	assert_false(t.tl.entries[th].open || t.tl.entries[call].open);
	timeline_free(&t);
	run_free(r);
}

/* A hosted tool's input that is not an object is drawn: a string as it
 * is, a list as JSON, a string that should be JSON and is not as sent. */
static void test_call_inputs_of_any_shape(void **s)
{
	(void)s;
	struct run *r = built_run("{\"cmd\": \"ls -la /tmp\", \"queries\": [\"tent sizes\", \"tent prices\"],"
	                          " \"bad\": \"{not json\"}");
	run_add_msg(r, ROLE_USER, MSG_IN_OUTPUT, "Look.", JV_NONE);
	size_t a = run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, NULL, JV_NONE);
	struct run_call *c = run_add_call(r, a);
	c->name = "shell_call";
	/* as the Responses loader keeps free text: a value, not JSON to parse */
	c->args = jv_get(r->doc, run_root(r), "cmd");
	c->args_tree = jv_to_json(r->doc, c->args);
	c->args_parsed = true;
	c = run_add_call(r, a);
	c->name = "web_search_call";
	run_call_set_args(r, c, jv_get(r->doc, run_root(r), "queries"));
	c = run_add_call(r, a);
	c->name = "exec";
	run_call_set_args(r, c, jv_get(r->doc, run_root(r), "bad"));
	struct review_run rr = { .entry = 0, .run = r, .serial = 1 };
	struct tui t;
	tl_open(&t, 80, 24);
	tl_build(&t, &rr, 0);
	char *d = tl_dump(&t, NULL);
	assert_true(line_at(d, "  #1 shell_call  [no result]") < line_at(d, "    ls -la /tmp"));
	assert_true(line_at(d, "  #2 web_search_call  [no result]") < line_at(d, "      \"tent sizes\","));
	assert_true(has_line(d, "      \"tent prices\""));
	assert_true(line_at(d, "    arguments (not valid JSON, shown as sent):") < line_at(d, "      {not json"));
	free(d);
	timeline_free(&t);
	run_free(r);
}

/* The badges of tool-errors and unanswered-calls: after the call's name,
 * before its id, each in the fail colour; a call with no mark has none. */
static void test_check_badges(void **s)
{
	(void)s;
	struct run *r = built_run("{}");
	size_t a = run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, NULL, JV_NONE);
	const char *names[] = { "ls", "cat", "rm" };
	for (int i = 0; i < 3; i++) {
		struct run_call *c = run_add_call(r, a);
		c->name = names[i];
		c->id = names[i];
		if (i < 2)
			c->has_result = true;
	}
	r->calls[1].is_error = true;
	struct call_mark m[] = {
		{ .row = 0, .scorer = "tool-errors", .kind = CALL_MARK_FAILED },
		{ .row = 1, .scorer = "unanswered-calls", .kind = CALL_MARK_NO_RESULT },
	};
	size_t start[] = { 0, 0, 1, 2 };
	struct call_marks cm = { .ncalls = 3, .start = start, .marks = m, .nmarks = 2 };
	struct tui t;
	tl_open(&t, 80, 24);
	tl_add_run(&t, r, &cm, NULL, 79);
	char *d = tl_dump(&t, NULL);
	assert_true(has_line(d, "  #1 ls  id ls"));
	assert_true(has_line(d, "  #2 cat  tool-errors \xe2\x9c\x97 failed  id cat"));
	assert_true(has_line(d, "  #3 rm  unanswered-calls \xe2\x9c\x97 no result  id rm  [no result]"));
	free(d);
	size_t seen = 0;
	for (size_t i = 0; i < t.tl.nsegs; i++) {
		const struct tl_line *l = &t.tl.lines[i];
		if (l->nspans == 0)
			continue;
		assert_int_equal(l->nspans, 2);         /* the badge, then the id */
		assert_int_equal(l->spans[0].slot, SLOT_FAIL);
		assert_true(l->spans[0].whole);
		assert_int_equal(l->spans[1].slot, SLOT_TOOL_NAME);
		seen++;
	}
	assert_int_equal(seen, 2);
	timeline_free(&t);
	run_free(r);
}

/* The verdict details name the run's format and, for a subagent's run,
 * the run it belongs to. */
static void test_details_name_format_and_parent(void **s)
{
	(void)s;
	struct fixture fx;
	open_fixture(&fx);
	struct strbuf sb = STRBUF_INIT;
	verdicts_details(&fx.t, &sb);
	assert_non_null(strstr(sb.buf, "run run-big (openai-chat, "));
	assert_null(strstr(sb.buf, "subagent of"));
	review_current(&fx.rv)->run->parent_id = "session-1";
	strbuf_reset(&sb);
	verdicts_details(&fx.t, &sb);
	assert_non_null(strstr(sb.buf, "\nsubagent of session-1\n"));
	strbuf_release(&sb);
	close_fixture(&fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_huge_texts_are_lazy_segments),
		cmocka_unit_test(test_unfolding_a_huge_result),
		cmocka_unit_test(test_a_run_read_again_rebuilds_the_timeline),
		cmocka_unit_test(test_parts_in_their_order),
		cmocka_unit_test(test_a_message_without_parts),
		cmocka_unit_test(test_thinking_folds),
		cmocka_unit_test(test_notes),
		cmocka_unit_test(test_long_system_prompt),
		cmocka_unit_test(test_rewrap_keeps_the_top_entry),
		cmocka_unit_test(test_no_user_message_opens_at_the_top),
		cmocka_unit_test(test_relayout_keeps_folds),
		cmocka_unit_test(test_call_inputs_of_any_shape),
		cmocka_unit_test(test_details_name_format_and_parent),
		cmocka_unit_test(test_check_badges),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
