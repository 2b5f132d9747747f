/* test_review_assign.c - a reviewer's share of the runs (review/assign.c,
 * `--assign K/N[:OVERLAP%]`): what parses and what is refused, shares
 * that are the same on every call and pinned for known ids, complementary
 * (every run in exactly one share, or in all of them when in the
 * overlap), sizes and the overlap within a tolerance on 10 000 ids, and a
 * session that shows only its share and counts its progress there. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "review/assign.h"
#include "review/session.h"
#include "review_fixture.h"
#include "util/error.h"

static void test_parse(void **state)
{
	(void)state;
	struct review_assign a;
	struct error err = {0};
	assert_int_equal(review_assign_parse(&a, "2/3", &err), 0);
	assert_true(a.on);
	assert_int_equal(a.k, 2);
	assert_int_equal(a.n, 3);
	assert_true(a.overlap == 0);
	assert_int_equal(review_assign_parse(&a, "1/3:10%", &err), 0);
	assert_true(fabs(a.overlap - 0.10) < 1e-12);
	assert_int_equal(review_assign_parse(&a, "3/3:12.5", &err), 0);
	assert_true(fabs(a.overlap - 0.125) < 1e-12);
	assert_int_equal(review_assign_parse(&a, "1/1:100%", &err), 0);

	static const struct { const char *text, *msg; } bad[] = {
		{ "0/3", "'0/3': share 0 of 3 does not exist (K must be 1..3)" },
		{ "4/3", "'4/3': share 4 of 3 does not exist (K must be 1..3)" },
		{ "1/0", "'1/0': there must be at least one share (N >= 1)" },
		{ "1/3:120%", "an overlap of 120% is not in 0..100%" },
		{ "1/3:-5%", "an overlap of -5% is not in 0..100%" },
		{ "1/3:abc", "the overlap 'abc' is not a number (K/N:OVERLAP%, e.g. 2/3:10%)" },
		{ "1/3:10%x", "unexpected 'x' after the overlap (K/N:OVERLAP%, e.g. 2/3:10%)" },
		{ "1/3:", "the overlap '' is not a number (K/N:OVERLAP%, e.g. 2/3:10%)" },
		{ "two/3", "'two/3' is not K/N or K/N:OVERLAP% (e.g. 2/3 or 2/3:10%)" },
		{ "2", "'2' is not K/N or K/N:OVERLAP% (e.g. 2/3 or 2/3:10%)" },
		{ "2/3x", "'2/3x' is not K/N or K/N:OVERLAP% (e.g. 2/3 or 2/3:10%)" },
		{ "-1/3", "'-1/3' is not K/N or K/N:OVERLAP% (e.g. 2/3 or 2/3:10%)" },
		{ "", "'' is not K/N or K/N:OVERLAP% (e.g. 2/3 or 2/3:10%)" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_int_equal(review_assign_parse(&a, bad[i].text, &err), -1);
		assert_string_equal(err.msg, bad[i].msg);
		assert_false(a.on);
	}
}

/* The same id lands in the same share on every call, and ids known now
 * keep their shares (a reviewer's share must not move between versions). */
static void test_deterministic(void **state)
{
	(void)state;
	struct review_assign a;
	struct error err = {0};
	assert_int_equal(review_assign_parse(&a, "1/3", &err), 0);
	char id[32];
	for (int i = 0; i < 100; i++) {
		snprintf(id, sizeof id, "run-%d", i);
		unsigned s = review_assign_share(&a, id);
		assert_true(s >= 1 && s <= 3);
		assert_int_equal(review_assign_share(&a, id), s);
	}
	static const struct { const char *id; unsigned share; } pinned[] = {
		{ "run-c", 3 }, { "run-a", 3 }, { "run-d", 1 }, { "run-b", 3 },
		{ "en-pass", 2 }, { "ja-fail", 1 }, { "zh-refund", 3 }, { "task-00042", 2 },
	};
	for (size_t i = 0; i < sizeof pinned / sizeof pinned[0]; i++)
		assert_int_equal(review_assign_share(&a, pinned[i].id), pinned[i].share);
	/* off, every run is "held" */
	struct review_assign off = { 0 };
	assert_true(review_assign_holds(&off, "anything"));
	assert_int_equal(review_assign_share(&off, "anything"), 0);
}

#define NIDS 10000

/* Every run is in exactly one share, or in all of them; shares are about
 * (1 - o) / N + o of the runs, the overlap about o. */
static void check_split(unsigned n, double overlap)
{
	size_t in_all = 0, in_share[8] = { 0 };
	char id[32];
	for (int i = 0; i < NIDS; i++) {
		snprintf(id, sizeof id, "task-%05d", i);
		unsigned holders = 0;
		for (unsigned k = 1; k <= n; k++) {
			struct review_assign a = { .on = true, .k = k, .n = n, .overlap = overlap };
			if (review_assign_holds(&a, id)) {
				holders++;
				in_share[k]++;
			}
		}
		struct review_assign a = { .on = true, .k = 1, .n = n, .overlap = overlap };
		unsigned s = review_assign_share(&a, id);
		if (s == 0) {
			assert_int_equal(holders, n);
			in_all++;
		} else {
			assert_int_equal(holders, 1);
		}
	}
	double o = (double)in_all / NIDS;
	if (fabs(o - overlap) > 0.02)
		fail_msg("%u shares, overlap %.2f: %.3f of the runs are in every share", n, overlap, o);
	for (unsigned k = 1; k <= n; k++) {
		double want = overlap + (1 - overlap) / n, got = (double)in_share[k] / NIDS;
		if (fabs(got - want) > 0.025)
			fail_msg("%u shares, overlap %.2f: share %u holds %.3f of the runs, not about %.3f", n,
			         overlap, k, got, want);
	}
}

static void test_complementary(void **state)
{
	(void)state;
	check_split(1, 0);
	check_split(2, 0);
	check_split(3, 0);
	check_split(3, 0.10);
	check_split(4, 0.25);
	check_split(5, 0.5);
	check_split(3, 1);          /* everything in every share */
}

/* A session with --assign: only share K is in view, under every filter,
 * and the progress counts that share. */
static void test_session_share(void **state)
{
	(void)state;
	struct review_fixture fx;
	assert_int_equal(review_fixture_setup(&fx, "assign", NULL), 0);
	static const char *const ids[] = { "run-c", "run-a", "run-d", "run-b" };
	size_t total = 0;
	for (unsigned k = 1; k <= 2; k++) {
		struct review rv;
		rfx_reset(&fx);
		rfx_open(&fx, &rv, "ann");
		struct review_assign a = { .on = true, .k = k, .n = 2 };
		review_set_assign(&rv, &a);
		char want[64] = "";
		size_t n = 0;
		for (size_t i = 0; i < 4; i++)
			if (review_assign_holds(&a, ids[i])) {
				snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s", n ? "," : "", ids[i]);
				n++;
			}
		assert_string_equal(rfx_view(&rv), want);
		assert_int_equal(rv.share_total, n);
		assert_int_equal(rv.share_reviewed, 0);
		total += n;
		if (n) {
			/* reviewing the first run of the share counts there */
			const char *first = review_view_entry(&rv, 0)->id;
			rfx_label(&rv, first, ROW_LOOKUP, 1);
			rfx_label(&rv, first, ROW_WORDS, 1);
			assert_int_equal(rv.share_reviewed, 1);
			review_set_filter(&rv, FILTER_UNREVIEWED);
			assert_int_equal(review_view_count(&rv), n - 1);
			review_set_filter(&rv, FILTER_ALL);
		}
		/* off again: every run */
		review_set_assign(&rv, NULL);
		assert_string_equal(rfx_view(&rv), "run-c,run-a,run-d,run-b");
		review_close(&rv);
	}
	assert_int_equal(total, 4);                    /* no overlap: the shares split the runs */

	/* set before the runs are read: the share is applied as they come */
	struct review rv;
	struct error err = {0};
	char *paths[] = { fx.runs_path };
	const char *apaths[] = { fx.annot_path };
	assert_int_equal(review_open(&rv, &fx.cfg, NULL, paths, 1, apaths, 1, "ann", &err), 0);
	struct review_assign all = { .on = true, .k = 1, .n = 2, .overlap = 1 };
	review_set_assign(&rv, &all);
	while (review_step(&rv, 0))
		;
	assert_string_equal(rfx_view(&rv), "run-c,run-a,run-d,run-b");
	assert_int_equal(rv.share_total, 4);
	review_close(&rv);
	assert_int_equal(review_fixture_teardown(&fx), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_complementary),
		cmocka_unit_test(test_session_share),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
