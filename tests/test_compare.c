/* test_compare.c - review/compare*.c and review/prefer.c: a run's side by
 * the input it came from, the tasks both sides ran, the runs the picker
 * offers and in what order, a pair's aligned rows, its first and next
 * divergences, the lines the screen shows (unified and in two columns,
 * argument differences key by key), and preferences written, replaced,
 * shown with their reviewers (not when blind) and taken back. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <locale.h>
#include <cmocka.h>

#include "review/compare.h"
#include "review/session.h"
#include "review/settle.h"
#include "review_fixture.h"
#include "test_files.h"
#include "util/error.h"

static struct review_fixture fx;
static char base_path[160], cand_path[160];

#define USER(t) "{\"role\":\"user\",\"content\":\"" t "\"}"
#define SAY(t) "{\"role\":\"assistant\",\"content\":\"" t "\"}"
#define CALL(id, name, args) "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"" id \
	"\",\"type\":\"function\",\"function\":{\"name\":\"" name "\",\"arguments\":\"" args "\"}}]}"
#define RESULT(id, t) "{\"role\":\"tool\",\"tool_call_id\":\"" id "\",\"content\":\"" t "\"}"

/* b1 and c1 are trials of t1: the same lookup, then the cancel with
 * another argument, then a refund only the candidate makes. */
static const char base_runs[] =
	"{\"id\":\"b1\",\"task\":\"t1\",\"messages\":[" USER("Cancel order 42") ","
	CALL("c1", "get_order", "{\\\"order_id\\\":\\\"42\\\"}") "," RESULT("c1", "shipped") ","
	SAY("It has shipped; cancelling.") ","
	CALL("c2", "cancel_order", "{\\\"order_id\\\":\\\"42\\\"}") "," RESULT("c2", "ok") ","
	SAY("Done.") "]}\n"
	"{\"id\":\"b2\",\"task\":\"t2\",\"messages\":[" USER("Where is 7?") ","
	CALL("c1", "get_order", "{\\\"order_id\\\":\\\"7\\\"}") "," RESULT("c1", "lost") "]}\n";
static const char cand_runs[] =
	"{\"id\":\"c1\",\"task\":\"t1\",\"messages\":[" USER("Cancel order 42") ","
	CALL("c1", "get_order", "{\\\"order_id\\\":\\\"42\\\"}") "," RESULT("c1", "shipped") ","
	SAY("Shipped, so I cancel it with a reason.") ","
	CALL("c2", "cancel_order", "{\\\"order_id\\\":\\\"42\\\",\\\"reason\\\":\\\"late\\\"}") ","
	RESULT("c2", "ok") ","
	CALL("c3", "refund", "{\\\"order_id\\\":\\\"42\\\"}") "," RESULT("c3", "refunded") ","
	SAY("Cancelled and refunded.") "]}\n"
	"{\"id\":\"c2\",\"task\":\"t1\",\"messages\":[" USER("Cancel order 42") ","
	CALL("c1", "cancel_order", "{\\\"order_id\\\":\\\"42\\\"}") "]}\n"
	"{\"id\":\"c3\",\"task\":\"t3\",\"messages\":[" USER("hello") "," SAY("hi") "]}\n";

static const struct compare_sides sides_t = { .on = true, .nbase_files = 1, .task_spec = "task" };

static int group_setup(void **state)
{
	(void)state;
	/* display widths are the locale's: the screen's UTF-8 one */
	if (!setlocale(LC_ALL, "C.UTF-8") && !setlocale(LC_ALL, "en_US.UTF-8"))
		return -1;
	if (review_fixture_setup(&fx, "compare", NULL) < 0)
		return -1;
	snprintf(base_path, sizeof base_path, "%s/base.jsonl", fx.dir);
	snprintf(cand_path, sizeof cand_path, "%s/cand.jsonl", fx.dir);
	test_write_file(base_path, base_runs);
	test_write_file(cand_path, cand_runs);
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	return review_fixture_teardown(&fx);
}

static void open_both(struct review *rv, const char *reviewer, bool blind)
{
	struct error err = {0};
	char *paths[] = { base_path, cand_path };
	const char *apaths[] = { fx.annot_path };
	if (review_open(rv, &fx.cfg, NULL, paths, 2, apaths, 1, reviewer, &err) < 0)
		fail_msg("review_open: %s", err.msg);
	rv->blind = blind;
	int n = 0;
	while (review_step(rv, 0))
		assert_true(++n < 1000);
	review_settle(rv);
}

static void test_sides_and_tasks(void **state)
{
	(void)state;
	struct review rv;
	open_both(&rv, "ann", false);
	assert_int_equal(compare_base_files(&rv, base_path), 1);
	assert_int_equal(compare_base_files(&rv, cand_path), 0);
	struct compare_sides s = sides_t;
	assert_int_equal(compare_side_of(&rv, &s, rfx_entry(&rv, "b2")), SIDE_BASE);
	assert_int_equal(compare_side_of(&rv, &s, rfx_entry(&rv, "c1")), SIDE_CAND);
	assert_string_equal(compare_side_letter(SIDE_BASE), "B");
	assert_string_equal(compare_side_letter(SIDE_CAND), "C");
	assert_string_equal(compare_side_letter(SIDE_NONE), "");
	struct compare_sides off = {0};
	assert_int_equal(compare_side_of(&rv, &off, rfx_entry(&rv, "c1")), SIDE_NONE);
	char *task = compare_entry_task(&rv, "task", rfx_entry(&rv, "c3"));
	assert_string_equal(task, "t3");
	free(task);
	assert_null(compare_entry_task(&rv, NULL, rfx_entry(&rv, "c3")));
	/* t1 is the only task on both sides: its first run on each */
	struct compare_task_pair *p;
	size_t n = compare_task_pairs(&rv, &s, &p);
	assert_int_equal(n, 1);
	assert_string_equal(p[0].task, "t1");
	assert_int_equal(p[0].base, rfx_entry(&rv, "b1"));
	assert_int_equal(p[0].cand, rfx_entry(&rv, "c1"));
	compare_task_pairs_free(p, n);
	/* With the screen's cache: the same pairs, twice (the second time from
	 * the tasks looked up the first), and the picker's the same too. */
	struct compare_sides cached = sides_t;
	cached.tasks = compare_task_cache_new();
	for (int round = 0; round < 2; round++) {
		n = compare_task_pairs(&rv, &cached, &p);
		assert_int_equal(n, 1);
		assert_string_equal(p[0].task, "t1");
		assert_int_equal(p[0].base, rfx_entry(&rv, "b1"));
		assert_int_equal(p[0].cand, rfx_entry(&rv, "c1"));
		compare_task_pairs_free(p, n);
		struct compare_candidate *cs;
		size_t nc = compare_candidates(&rv, &cached, rfx_entry(&rv, "c1"), &cs);
		assert_int_equal(nc, 2);
		assert_int_equal(cs[0].entry, rfx_entry(&rv, "b1"));
		assert_int_equal(cs[1].entry, rfx_entry(&rv, "c2"));
		free(cs);
	}
	compare_sides_release(&cached);
	assert_null(cached.tasks);
	/* base first whichever was picked */
	size_t a = rfx_entry(&rv, "c1"), b = rfx_entry(&rv, "b1");
	compare_order(&rv, &s, &a, &b);
	assert_int_equal(a, rfx_entry(&rv, "b1"));
	assert_int_equal(b, rfx_entry(&rv, "c1"));
	review_close(&rv);
}

static void test_candidates(void **state)
{
	(void)state;
	struct review rv;
	open_both(&rv, "ann", false);
	struct compare_sides s = sides_t;
	struct compare_candidate *c;
	/* c1: the other side's run of t1, then its other trial */
	size_t n = compare_candidates(&rv, &s, rfx_entry(&rv, "c1"), &c);
	assert_int_equal(n, 2);
	assert_int_equal(c[0].entry, rfx_entry(&rv, "b1"));
	assert_int_equal(c[0].why, WHY_OTHER_SIDE);
	assert_int_equal(c[1].entry, rfx_entry(&rv, "c2"));
	assert_int_equal(c[1].why, WHY_SAME_TASK);
	free(c);
	/* without a task key every other run, the other side's first */
	s.task_spec = NULL;
	n = compare_candidates(&rv, &s, rfx_entry(&rv, "c1"), &c);
	assert_int_equal(n, 4);
	assert_int_equal(c[0].entry, rfx_entry(&rv, "b1"));
	assert_int_equal(c[1].entry, rfx_entry(&rv, "b2"));
	assert_int_equal(c[2].entry, rfx_entry(&rv, "c2"));
	assert_int_equal(c[3].why, WHY_OTHER_RUN);
	free(c);
	review_close(&rv);
}

static const struct compare_line *find_line(const struct compare_lines *ls, int k, const char *text)
{
	for (size_t i = 0; i < ls->n; i++)
		if (ls->l[i].cell[k].text && strcmp(ls->l[i].cell[k].text, text) == 0)
			return &ls->l[i];
	return NULL;
}

static void test_pair(void **state)
{
	(void)state;
	struct review rv;
	rfx_reset(&fx);
	open_both(&rv, "ann", false);
	rfx_label(&rv, "b1", ROW_LOOKUP, 0);
	struct compare_sides s = sides_t;
	struct compare c;
	struct error err = {0};
	assert_int_equal(compare_open(&c, &rv, &s, rfx_entry(&rv, "b1"), rfx_entry(&rv, "c1"), &err), 0);
	assert_string_equal(c.run[0].id, "b1");
	assert_string_equal(c.run[1].id, "c1");
	assert_int_equal(c.run[0].side, SIDE_BASE);
	assert_int_equal(c.run[1].side, SIDE_CAND);
	assert_string_equal(c.run[0].task, "t1");
	assert_int_equal(strlen(c.run[0].hash), 64);
	assert_int_equal(c.nrows, 3);
	assert_int_equal(c.rows[0].kind, ALIGN_SAME);
	assert_int_equal(c.rows[1].kind, ALIGN_ARGS);
	assert_int_equal(c.rows[2].kind, ALIGN_CAND_ONLY);
	assert_int_equal(c.first_div, 1);
	assert_int_equal(compare_next_divergence(&c, SIZE_MAX, 1), 1);
	assert_int_equal(compare_next_divergence(&c, 1, 1), 2);
	assert_int_equal(compare_next_divergence(&c, 2, 1), SIZE_MAX);
	assert_int_equal(compare_next_divergence(&c, 2, -1), 1);
	assert_int_equal(compare_next_divergence(&c, 1, -1), SIZE_MAX);
	assert_true(compare_key_differs(c.run[0].calls[1].args, c.run[1].calls[1].args, "reason"));
	assert_false(compare_key_differs(c.run[0].calls[1].args, c.run[1].calls[1].args, "order_id"));
	/* the messages: what was said before each call, in order */
	assert_int_equal(c.run[1].nmsgs, 3);
	assert_int_equal(c.run[1].msgs[1].before, 1);
	assert_int_equal(c.run[1].msgs[2].before, 3);
	/* verdicts of both sides, each scorer and the judge */
	assert_int_equal(c.run[0].nverdicts, 3);
	assert_string_equal(c.run[0].verdicts[0].id, "lookup");
	assert_string_equal(c.run[0].verdicts[2].text, "not asked");
	assert_string_equal(c.run[0].verdicts[0].text, "pass 1");
	assert_string_equal(c.run[0].verdicts[0].label, "ann 0");
	assert_string_equal(c.run[1].verdicts[0].label, "");

	struct compare_lines ls;
	compare_lines_build(&c, &ls, 60, true, NULL);
	/* the same user message once, the different agent texts as - and + */
	assert_non_null(find_line(&ls, 0, "  user: Cancel order 42"));
	assert_non_null(find_line(&ls, 0, "- agent: It has shipped; cancelling."));
	assert_non_null(find_line(&ls, 0, "+ agent: Shipped, so I cancel it with a reason."));
	const struct compare_line *l = find_line(&ls, 0, "\xe2\x96\xb6 first divergence: arguments differ");
	assert_non_null(l);
	assert_true(l->first);
	assert_int_equal(l->row, 1);
	l = find_line(&ls, 0, "-    reason: (absent)");
	assert_non_null(l);
	assert_int_equal(l->cell[0].tone, TONE_DEL);
	assert_int_equal(find_line(&ls, 0, "+    reason: \"late\"")->cell[0].tone, TONE_ADD);
	assert_int_equal(find_line(&ls, 0, "     order_id: \"42\"")->cell[0].tone, TONE_PLAIN);
	l = find_line(&ls, 0, "+ #3 refund {\"order_id\":\"42\"}");
	assert_non_null(l);
	assert_true(l->divergence);
	assert_int_equal(l->cell[0].tone, TONE_ADD);
	assert_int_equal(compare_lines_of_row(&ls, 1), (size_t)(find_line(&ls, 0,
	                 "- agent: It has shipped; cancelling.") - ls.l));
	compare_lines_free(&ls);

	compare_lines_build(&c, &ls, 60, false, NULL);
	l = find_line(&ls, 0, "#1 get_order {\"order_id\":\"42\"}");
	assert_non_null(l);
	assert_string_equal(l->cell[1].text, "#1 get_order {\"order_id\":\"42\"}");
	assert_false(l->divergence);
	l = find_line(&ls, 0, "   reason: (absent)");
	assert_non_null(l);
	assert_int_equal(l->cell[0].tone, TONE_DEL);
	assert_string_equal(l->cell[1].text, "   reason: \"late\"");
	assert_int_equal(l->cell[1].tone, TONE_ADD);
	l = find_line(&ls, 1, "#3 refund {\"order_id\":\"42\"}");
	assert_non_null(l);
	assert_null(l->cell[0].text);
	compare_lines_free(&ls);

	/* unfolded, a long message wraps at the width */
	bool open[4] = {true, true, true, true};
	compare_lines_build(&c, &ls, 12, false, open);
	assert_non_null(find_line(&ls, 1, "agent:"));
	compare_lines_free(&ls);
	compare_free(&c);
	assert_int_equal(compare_open(&c, &rv, &s, 0, 0, &err), -1);
	review_close(&rv);
}

static void test_preferences(void **state)
{
	(void)state;
	rfx_reset(&fx);
	struct review rv;
	open_both(&rv, "ann", false);
	struct compare_sides s = sides_t;
	struct compare c;
	struct error err = {0};
	assert_int_equal(compare_open(&c, &rv, &s, rfx_entry(&rv, "b1"), rfx_entry(&rv, "c1"), &err), 0);
	assert_int_equal(review_prefer_retract(&rv, &c, &err), -1);
	assert_int_equal(err.kind, ERR_MISSING);
	assert_int_equal(review_prefer(&rv, &c, PREF_CAND, &err), 0);
	assert_int_equal(rfx_lines_with(&fx, "\"decision\":\"prefer\""), 1);
	assert_int_equal(rfx_lines_with(&fx, "\"run\":\"b1\""), 1);
	assert_int_equal(rfx_lines_with(&fx, "\"other\":\"c1\""), 1);
	assert_int_equal(rfx_lines_with(&fx, "\"prefer\":\"cand\""), 1);
	assert_int_equal(rfx_lines_with(&fx, "\"task\":\"t1\""), 1);
	char want[128];
	snprintf(want, sizeof want, "\"run_hash\":\"%s\"", c.run[0].hash);
	assert_int_equal(rfx_lines_with(&fx, want), 1);
	snprintf(want, sizeof want, "\"other_hash\":\"%s\"", c.run[1].hash);
	assert_int_equal(rfx_lines_with(&fx, want), 1);
	char text[256];
	compare_prefs_text(&rv, &c, text, sizeof text);
	assert_string_equal(text, "candidate better (ann)");
	/* again on the same pair: it replaces the first */
	assert_int_equal(review_prefer(&rv, &c, PREF_TIE, &err), 0);
	assert_int_equal(annot_preference(rv.annot, "b1", "c1", "ann")->prefer, PREF_TIE);
	compare_free(&c);
	review_close(&rv);

	/* bob sees ann's, with her name; blind, he does not */
	open_both(&rv, "bob", false);
	assert_int_equal(compare_open(&c, &rv, &s, rfx_entry(&rv, "b1"), rfx_entry(&rv, "c1"), &err), 0);
	assert_int_equal(review_prefer(&rv, &c, PREF_BOTH_BAD, &err), 0);
	compare_prefs_text(&rv, &c, text, sizeof text);
	assert_string_equal(text, "both bad (bob), tie (ann)");
	rv.blind = true;
	compare_prefs_text(&rv, &c, text, sizeof text);
	assert_string_equal(text, "both bad (bob)");
	rv.blind = false;
	/* x takes bob's back; ann's stands */
	assert_int_equal(review_prefer_retract(&rv, &c, &err), 0);
	assert_null(annot_preference(rv.annot, "b1", "c1", "bob"));
	assert_int_equal(rfx_lines_with(&fx, "\"retracts\":\"prefer\""), 1);
	compare_prefs_text(&rv, &c, text, sizeof text);
	assert_string_equal(text, "tie (ann)");
	assert_string_equal(compare_pref_words(PREF_BASE), "base better");
	compare_free(&c);
	review_close(&rv);
}

/* Wrapped by display width, never inside a character: Chinese takes two
 * columns a character; a line breaks after a space when it has one. */
static void test_wide_wrap(void **state)
{
	(void)state;
	struct compare c;
	memset(&c, 0, sizeof c);
	struct compare_msg m = { .role = 2 /* ROLE_ASSISTANT */, .before = 0,
	                         .text = (char *)"\xe5\xb7\xb2\xe4\xb8\xba\xe6\x82\xa8\xe7\x9a\x84"
	                                 "\xe8\xae\xa2\xe5\x8d\x95\xe5\x8a\x9e\xe7\x90\x86" };
	c.run[0].msgs = &m;
	c.run[0].nmsgs = 1;
	bool open[1] = {true};
	struct compare_lines ls;
	compare_lines_build(&c, &ls, 10, false, open);
	assert_int_equal(ls.n, 3);
	assert_string_equal(ls.l[0].cell[0].text, "agent:");
	/* 已为您的订 and 单办理: five and three characters of two columns */
	assert_string_equal(ls.l[1].cell[0].text, "\xe5\xb7\xb2\xe4\xb8\xba\xe6\x82\xa8\xe7\x9a\x84\xe8\xae\xa2");
	assert_string_equal(ls.l[2].cell[0].text, "\xe5\x8d\x95\xe5\x8a\x9e\xe7\x90\x86");
	compare_lines_free(&ls);
	compare_lines_build(&c, &ls, 10, false, NULL);
	assert_int_equal(ls.n, 1);
	compare_lines_free(&ls);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sides_and_tasks),
		cmocka_unit_test(test_candidates),
		cmocka_unit_test(test_pair),
		cmocka_unit_test(test_preferences),
		cmocka_unit_test(test_wide_wrap),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
