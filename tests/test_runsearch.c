/* test_runsearch.c - review/runsearch: a search's matches inside one run,
 * in the timeline's order, told by the entry that shows them: the text
 * under a role line, a call (its name, the keys and strings of its
 * arguments decoded, its result), a thinking part, the text after a call;
 * a word inside a JSON string with escapes found as the reader sees it;
 * ASCII case ignored; matches that do not overlap; each hit's entry is one
 * the timeline builds (tl_build), and a text shown as it is (the result
 * string) gives where the hit is in it. */
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "review/runsearch.h"
#include "review/session.h"
#include "runs/run.h"
#include "../src/tui/timeline_int.h"

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

/* user: text; assistant: text, a call (arguments with a quoted, two-line
 * note; a string result), text after it, thinking, text after that. */
static struct run *sample(void)
{
	struct run *r = built_run("{\"args\": {\"order_id\": \"1042\", "
	                          "\"note\": \"line one\\nsays \\\"1042\\\" twice: 1042\"}, "
	                          "\"res\": \"Order 1042: shipped\"}");
	run_add_msg(r, ROLE_USER, MSG_IN_OUTPUT, NULL, JV_NONE);
	run_add_text(r, 0, "Where is ORDER 1042?", JV_NONE);
	size_t a = run_add_msg(r, ROLE_ASSISTANT, MSG_IN_OUTPUT, NULL, JV_NONE);
	run_add_text(r, a, "Looking up order 1042.", JV_NONE);
	struct run_call *c = run_add_call(r, a);
	c->name = "get_order";
	run_call_set_args(r, c, jv_get(r->doc, run_root(r), "args"));
	run_set_result(c, jv_get(r->doc, run_root(r), "res"), false, NULL, -1);
	run_add_text(r, a, "It says 1042 shipped.", JV_NONE);
	run_add_thinking(r, a, "Was 1042 the order?", JV_NONE);
	run_add_text(r, a, "Yes, 1042.", JV_NONE);
	return r;
}

static void test_matches_in_order(void **s)
{
	(void)s;
	struct run *r = sample();
	struct run_hits h = { 0 };
	run_search(r, "1042", &h);
	/* user 1, text 1, args 3 (order_id, then the note twice), result 1,
	 * text after 1, thinking 1, text after that 1 */
	assert_int_equal(h.n, 9);
	assert_int_equal(h.v[0].msg, 0);
	assert_int_equal(h.v[0].call, -1);
	assert_int_equal(h.v[0].group, 0);
	assert_int_equal(h.v[1].msg, 1);
	assert_int_equal(h.v[1].group, 0);
	for (size_t k = 2; k < 6; k++) {
		assert_int_equal(h.v[k].call, 0);
		assert_int_equal(h.v[k].nth, k - 2);     /* counted within the call's entry */
	}
	assert_null(h.v[2].text);                       /* an argument: a decoded value */
	assert_non_null(h.v[5].text);                   /* the result string, shown as it is */
	assert_int_equal(h.v[5].off, 6);
	assert_memory_equal(h.v[5].text + h.v[5].off, "1042", 4);
	assert_int_equal(h.v[6].call, -1);
	assert_int_equal(h.v[6].group, 1);              /* the text after the call */
	assert_true(h.v[7].part >= 0);                  /* thinking */
	assert_int_equal(h.v[8].group, 2);
	run_hits_free(&h);
	run_free(r);
}

static void test_decoded_and_case(void **s)
{
	(void)s;
	struct run *r = sample();
	struct run_hits h = { 0 };
	run_search(r, "says \"1042\"", &h);             /* the reader's quotes, not \" */
	assert_int_equal(h.n, 1);
	assert_int_equal(h.v[0].call, 0);
	run_search(r, "one\\nsays", &h);                /* no escape is searched */
	assert_int_equal(h.n, 0);
	run_search(r, "GET_ORDER", &h);                 /* the call's name, any case */
	assert_int_equal(h.n, 1);
	run_search(r, "order_ID", &h);                  /* a key */
	assert_int_equal(h.n, 1);
	run_search(r, "order", &h);
	assert_int_equal(h.n, 6);   /* ORDER, order, get_order, order_id, Order, the thinking's order */
	run_search(r, "", &h);
	assert_int_equal(h.n, 0);
	run_hits_free(&h);
	run_free(r);
}

static void test_no_overlap(void **s)
{
	(void)s;
	struct run *r = built_run("{}");
	run_add_msg(r, ROLE_USER, MSG_IN_OUTPUT, NULL, JV_NONE);
	run_add_text(r, 0, "aaaa", JV_NONE);
	struct run_hits h = { 0 };
	run_search(r, "aa", &h);
	assert_int_equal(h.n, 2);
	assert_int_equal(h.v[1].off, 2);
	run_hits_free(&h);
	run_free(r);
	assert_null(run_search_in("abc", 3, "abcd", 4));
	assert_string_equal(run_search_in("xAbC", 4, "abc", 3), "AbC");
}

/* Every hit's entry is one the timeline builds: the call by its index,
 * the thinking by its part, a text by its place among its message's. */
static void test_entries_are_the_timelines(void **s)
{
	(void)s;
	struct run *r = sample();
	struct review_run rr = { .entry = 0, .run = r, .serial = 1 };
	struct tui t;
	memset(&t, 0, sizeof t);
	t.tl.for_entry = SIZE_MAX;
	t.tl.width = -1;
	t.lay = layout_compute(80, 24, 3);
	tl_build(&t, &rr, 0);
	struct run_hits h = { 0 };
	run_search(r, "1042", &h);
	for (size_t k = 0; k < h.n; k++) {
		size_t group = 0, found = 0;
		for (size_t e = 0; e < t.tl.nentries; e++) {
			const struct tl_entry *en = &t.tl.entries[e];
			if (h.v[k].call >= 0 || h.v[k].part >= 0)
				found += (h.v[k].call >= 0 && en->call == h.v[k].call) ||
				         (h.v[k].part >= 0 && en->part == h.v[k].part);
			else if (en->msg == h.v[k].msg && en->call < 0 && en->part < 0)
				found += group++ == h.v[k].group;
		}
		assert_int_equal(found, 1);
	}
	run_hits_free(&h);
	timeline_free(&t);
	run_free(r);
}

int main(void)
{
	if (!setlocale(LC_ALL, "C.UTF-8"))
		setlocale(LC_ALL, "en_US.UTF-8");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matches_in_order),
		cmocka_unit_test(test_decoded_and_case),
		cmocka_unit_test(test_no_overlap),
		cmocka_unit_test(test_entries_are_the_timelines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
