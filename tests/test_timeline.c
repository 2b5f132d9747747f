/* test_timeline.c - the timeline of a run with huge texts, without a
 * terminal: a message of several hundred KB and a long tool result become
 * a few lazy segments, not a line each, with the line counts wtext_wrap
 * gives (the result folded to six lines and its "more lines" hint); their
 * lines read back as wtext_wrap's; and when the run is dropped from the
 * cache and read again, the timeline rebuilds instead of reading the old
 * run's text. Small runs keep their golden screens (tests/cli/screen.sh). */
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

#include <cmocka.h>

#include "config/config.h"
#include "review/session.h"
#include "tui/lazytext.h"
#include "util/strbuf.h"
#include "util/wtext.h"
#include "../src/tui/tui_int.h"

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
	char err[512];
	if (config_load_string(&cfg, "t.yaml", dir, yaml, sizeof yaml - 1, err, sizeof err) < 0) {
		fprintf(stderr, "%s\n", err);
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
	char err[512], annot[160];
	char *paths[] = { runs_path };
	snprintf(annot, sizeof annot, "%s/a.annotations.jsonl", dir);
	unlink(annot);
	const char *apaths[] = { annot };
	if (review_open(&fx->rv, &cfg, NULL, paths, 1, apaths, 1, "tester", err, sizeof err) < 0)
		fail_msg("review_open: %s", err);
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
	struct strbuf shown = STRBUF_INIT;
	strbuf_addstr(&shown, "\xe2\x87\x90 ");
	strbuf_addstr(&shown, result.buf);
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
	timeline_pane.fit(t);
	assert_true(t->tl.for_serial > serial);
	assert_int_equal(t->tl.nlines, lines);
	const struct tl_line *msg = lazy_seg(t, 1);
	int width = t->lay.pane[PANE_TIMELINE].w - 1;
	check_lines(msg, message.buf, (size_t)(width - 2), 0);
	close_fixture(&fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_huge_texts_are_lazy_segments),
		cmocka_unit_test(test_unfolding_a_huge_result),
		cmocka_unit_test(test_a_run_read_again_rebuilds_the_timeline),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
