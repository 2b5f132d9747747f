/* test_split.c - annot/split: parsing specs and their errors, normalized
 * weights, a run's split stable across calls, proportions on 10k ids, and
 * a seed that moves runs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "annot/split.h"
#include "util/error.h"

static void test_parse_default(void **st)
{
	(void)st;
	struct split_spec sp;
	struct error err = {0};
	assert_int_equal(split_parse(&sp, SPLIT_DEFAULT, 0, &err), 0);
	assert_int_equal(sp.n, 3);
	assert_string_equal(sp.names[0], "train");
	assert_string_equal(sp.names[1], "dev");
	assert_string_equal(sp.names[2], "test");
	assert_float_equal(sp.upto[0], 0.6, 1e-12);
	assert_float_equal(sp.upto[1], 0.8, 1e-12);
	assert_true(sp.upto[2] == 1.0);
	assert_int_equal(split_find(&sp, "dev"), 1);
	assert_int_equal(split_find(&sp, "test"), 2);
	assert_int_equal(split_find(&sp, "holdout"), -1);
	assert_int_equal(split_find(&sp, NULL), -1);
	/* spaces around names and weights are allowed */
	assert_int_equal(split_parse(&sp, " a = 1 , b=1", 0, &err), 0);
	assert_string_equal(sp.names[0], "a");
	assert_string_equal(sp.names[1], "b");
	assert_float_equal(sp.upto[0], 0.5, 1e-12);
}

static void test_weights_normalized(void **st)
{
	(void)st;
	struct split_spec sp;
	struct error err = {0};
	assert_int_equal(split_parse(&sp, "a=3,b=1", 7, &err), 0);
	assert_float_equal(sp.upto[0], 0.75, 1e-12);
	assert_true(sp.upto[1] == 1.0);
	assert_int_equal(sp.seed, 7);
	/* a zero weight is a split that never gets a run */
	assert_int_equal(split_parse(&sp, "a=1,none=0,b=1", 0, &err), 0);
	assert_float_equal(sp.upto[0], 0.5, 1e-12);
	assert_float_equal(sp.upto[1], 0.5, 1e-12);
	char id[32];
	for (int i = 0; i < 2000; i++) {
		snprintf(id, sizeof id, "r%d", i);
		assert_string_not_equal(split_of(&sp, id), "none");
	}
	/* one split takes everything */
	assert_int_equal(split_parse(&sp, "all=5", 0, &err), 0);
	assert_string_equal(split_of(&sp, "anything"), "all");
}

static void expect_error(const char *spec, const char *want)
{
	struct split_spec sp;
	struct error err = {0};
	assert_int_equal(split_parse(&sp, spec, 0, &err), -1);
	if (!strstr(err.msg, want))
		fail_msg("spec \"%s\": error \"%s\" does not say \"%s\"", spec ? spec : "(null)", err.msg, want);
}

static void test_parse_errors(void **st)
{
	(void)st;
	expect_error("train=0.6,dev=x", "weight of dev is not a number");
	expect_error("train=0.6,dev=", "weight of dev is not a number");
	expect_error("train=0.6,dev=1e999", "weight of dev is not a number");
	expect_error("train=nan", "weight of train is not a number");
	expect_error("train=0.5x", "weight of train is not a number");
	expect_error("train=-1,dev=2", "weight of train is negative");
	expect_error("train", "\"train\" is not NAME=WEIGHT");
	expect_error("", "\"\" is not NAME=WEIGHT");
	expect_error("a=1,", "\"\" is not NAME=WEIGHT");
	expect_error("=1", "no name");
	expect_error("a=1,a=2", "split a is named twice");
	expect_error("a=0,b=0", "add up to zero");
	expect_error("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa=1", "longer than 31 bytes");
	expect_error("a=1,b=1,c=1,d=1,e=1,f=1,g=1,h=1,i=1", "more than 8 splits");
	expect_error(NULL, "no splits");
	/* exactly SPLIT_MAX is fine */
	struct split_spec sp;
	struct error err = {0};
	assert_int_equal(split_parse(&sp, "a=1,b=1,c=1,d=1,e=1,f=1,g=1,h=1", 0, &err), 0);
	assert_int_equal(sp.n, SPLIT_MAX);
}

/* The same id lands in the same split on every call and with a spec
 * parsed again; the fraction is in [0, 1). Pinned values keep the hash
 * from changing under existing exports. */
static void test_stable(void **st)
{
	(void)st;
	struct split_spec a, b;
	struct error err = {0};
	assert_int_equal(split_parse(&a, SPLIT_DEFAULT, 42, &err), 0);
	assert_int_equal(split_parse(&b, "train=6,dev=2,test=2", 42, &err), 0);
	char id[32];
	for (int i = 0; i < 1000; i++) {
		snprintf(id, sizeof id, "run-%04d", i);
		const char *s = split_of(&a, id);
		assert_string_equal(s, split_of(&a, id));
		assert_string_equal(s, split_of(&b, id));
		double f = split_fraction(42, id);
		assert_true(f >= 0 && f < 1);
		assert_true(f == split_fraction(42, id));
	}
	/* pinned: a change of hash would move every exported run */
	assert_float_equal(split_fraction(0, "run-0001"), 0.53838012693886916, 1e-15);
	assert_float_equal(split_fraction(7, "run-0001"), 0.017386598646121021, 1e-15);
	assert_float_equal(split_fraction(0, "abc"), 0.81800085506931886, 1e-15);
	assert_int_equal(split_parse(&a, SPLIT_DEFAULT, 0, &err), 0);
	assert_string_equal(split_of(&a, "abc"), "test");
	assert_string_equal(split_of(&a, "run-0002"), "train");
	/* the empty id and NULL are the same place, and do not crash */
	assert_true(split_fraction(0, "") == split_fraction(0, NULL));
}

static void count_splits(const struct split_spec *sp, size_t counts[SPLIT_MAX])
{
	memset(counts, 0, SPLIT_MAX * sizeof counts[0]);
	char id[32];
	for (int i = 0; i < 10000; i++) {
		snprintf(id, sizeof id, "run-%05d", i);
		int k = split_find(sp, split_of(sp, id));
		assert_true(k >= 0);
		counts[k]++;
	}
}

/* 10k sequential ids: each share within 2.5 points of its weight (the
 * binomial standard deviation at 10k draws is under 0.5 points). */
static void test_proportions(void **st)
{
	(void)st;
	struct split_spec sp;
	struct error err = {0};
	assert_int_equal(split_parse(&sp, SPLIT_DEFAULT, 0, &err), 0);
	size_t c[SPLIT_MAX];
	count_splits(&sp, c);
	assert_int_equal(c[0] + c[1] + c[2], 10000);
	assert_in_range(c[0], 5750, 6250);
	assert_in_range(c[1], 1750, 2250);
	assert_in_range(c[2], 1750, 2250);
	assert_int_equal(split_parse(&sp, "a=1,b=1,c=1,d=1", 99, &err), 0);
	count_splits(&sp, c);
	for (int i = 0; i < 4; i++)
		assert_in_range(c[i], 2250, 2750);
}

/* Another seed moves runs: about as many change split as chance says
 * (1 - (0.36 + 0.04 + 0.04) = 56% for 60/20/20). */
static void test_seed_moves(void **st)
{
	(void)st;
	struct split_spec a, b;
	struct error err = {0};
	assert_int_equal(split_parse(&a, SPLIT_DEFAULT, 1, &err), 0);
	assert_int_equal(split_parse(&b, SPLIT_DEFAULT, 2, &err), 0);
	int moved = 0;
	char id[32];
	for (int i = 0; i < 10000; i++) {
		snprintf(id, sizeof id, "run-%05d", i);
		if (strcmp(split_of(&a, id), split_of(&b, id)))
			moved++;
	}
	assert_in_range(moved, 5200, 6000);
	assert_true(split_fraction(1, "x") != split_fraction(2, "x"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_default),
		cmocka_unit_test(test_weights_normalized),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_stable),
		cmocka_unit_test(test_proportions),
		cmocka_unit_test(test_seed_moves),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
