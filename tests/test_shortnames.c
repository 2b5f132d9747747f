/* test_shortnames.c - util/shortnames: what tells a set of names apart.
 * Names that fit stay whole; a shared start and end are dropped at a
 * separator first, then at any character when still too wide, never
 * inside a character (CJK) or a cluster; one name, identical names and
 * missing names are kept whole; every name keeps a character. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <locale.h>
#include <string.h>
#include <cmocka.h>

#include "util/shortnames.h"

#define N(a) (sizeof(a) / sizeof *(a))

/* What is shown of name i, "…" included. */
static void shown(const char *name, const struct short_name *s, char *buf, size_t cap)
{
	snprintf(buf, cap, "%s%.*s%s", s->lead ? "\xe2\x80\xa6" : "", (int)s->len, name + s->from,
	         s->trail ? "\xe2\x80\xa6" : "");
}

static void expect(const char *const *names, size_t n, size_t cols, const char *const *want)
{
	struct short_name out[16];
	short_names(names, n, cols, out);
	for (size_t i = 0; i < n; i++) {
		char buf[256];
		if (!names[i]) {
			assert_int_equal(out[i].len, 0);
			continue;
		}
		shown(names[i], &out[i], buf, sizeof buf);
		assert_string_equal(buf, want[i]);
	}
}

/* The tau-bench sample's ids: the task and the trial both tell. */
static void test_benchmark_ids(void **s)
{
	(void)s;
	const char *ids[] = { "tau1-airline-gpt-4o-task000-trial0", "tau1-airline-gpt-4o-task001-trial0",
	                      "tau1-airline-gpt-4o-task000-trial1" };
	const char *wide[] = { "tau1-airline-gpt-4o-task000-trial0", "tau1-airline-gpt-4o-task001-trial0",
	                       "tau1-airline-gpt-4o-task000-trial1" };
	expect(ids, N(ids), 40, wide);
	const char *words[] = { "\xe2\x80\xa6task000-trial0", "\xe2\x80\xa6task001-trial0",
	                        "\xe2\x80\xa6task000-trial1" };
	expect(ids, N(ids), 15, words);
	/* narrower: the shared "task00" goes too */
	const char *chars[] = { "\xe2\x80\xa6" "0-trial0", "\xe2\x80\xa6" "1-trial0", "\xe2\x80\xa6" "0-trial1" };
	expect(ids, N(ids), 9, chars);
	struct short_name out[3];
	short_names(ids, N(ids), 9, out);
	for (size_t i = 0; i < N(ids); i++)
		assert_int_equal(short_name_width(ids[i], &out[i]), 9);
}

/* A shared vendor start and date end: the model's own name is kept. */
static void test_shared_start_and_end(void **s)
{
	(void)s;
	const char *models[] = { "claude-3-5-sonnet-20241022", "claude-3-5-haiku-20241022" };
	const char *want[] = { "\xe2\x80\xa6sonnet\xe2\x80\xa6", "\xe2\x80\xa6haiku\xe2\x80\xa6" };
	expect(models, N(models), 10, want);
	/* only a shared end */
	const char *ends[] = { "alpha.jsonl", "beta.jsonl" };
	const char *ewant[] = { "alpha\xe2\x80\xa6", "beta\xe2\x80\xa6" };
	expect(ends, N(ends), 6, ewant);
}

/* Wide characters: cut between characters, measured in columns. */
static void test_cjk(void **s)
{
	(void)s;
	const char *ids[] = { "\xe5\xae\x9f\xe9\xa8\x93-\xe6\x9d\xb1\xe4\xba\xac-001",      /* 実験-東京-001 */
	                      "\xe5\xae\x9f\xe9\xa8\x93-\xe5\xa4\xa7\xe9\x98\xaa-001" };    /* 実験-大阪-001 */
	const char *want[] = { "\xe2\x80\xa6\xe6\x9d\xb1\xe4\xba\xac\xe2\x80\xa6",
	                       "\xe2\x80\xa6\xe5\xa4\xa7\xe9\x98\xaa\xe2\x80\xa6" };
	expect(ids, N(ids), 6, want);
	struct short_name out[2];
	short_names(ids, N(ids), 6, out);
	assert_int_equal(short_name_width(ids[0], &out[0]), 6);
	/* no separator: a shared start of whole characters (データ) */
	const char *nosep[] = { "\xe3\x83\x87\xe3\x83\xbc\xe3\x82\xbf\xe4\xb8\x80",
	                        "\xe3\x83\x87\xe3\x83\xbc\xe3\x82\xbf\xe4\xba\x8c" };
	const char *nwant[] = { "\xe2\x80\xa6\xe4\xb8\x80", "\xe2\x80\xa6\xe4\xba\x8c" };
	expect(nosep, N(nosep), 3, nwant);
	/* names that differ in the last byte of a character share no part of it */
	const char *bytes[] = { "x\xe4\xb8\x80", "x\xe4\xb8\x81" };
	const char *bwant[] = { "\xe2\x80\xa6\xe4\xb8\x80", "\xe2\x80\xa6\xe4\xb8\x81" };
	expect(bytes, N(bytes), 2, bwant);
}

/* One name, identical names, missing names: nothing to tell apart. */
static void test_whole(void **s)
{
	(void)s;
	const char *one[] = { "tau1-airline-gpt-4o-task000-trial0" };
	expect(one, 1, 8, one);
	const char *same[] = { "run-0001-long-name", "run-0001-long-name" };
	expect(same, N(same), 5, same);
	const char *holes[] = { NULL, "agent-7-run-a", NULL, "agent-7-run-b" };
	const char *hwant[] = { NULL, "\xe2\x80\xa6" "a", NULL, "\xe2\x80\xa6" "b" };
	expect(holes, N(holes), 3, hwant);
	const char *none[] = { NULL, NULL };
	expect(none, N(none), 3, none);
}

/* A name that is the start of another keeps a character of its own. */
static void test_prefix_of_another(void **s)
{
	(void)s;
	const char *ids[] = { "run-1", "run-1-retry" };
	const char *want[] = { "\xe2\x80\xa6" "1", "\xe2\x80\xa6" "1-retry" };
	expect(ids, N(ids), 4, want);
	const char *ends[] = { "a.x", "ba.x" };        /* shared end, the first all of it but a */
	struct short_name out[2];
	short_names(ends, N(ends), 2, out);
	assert_true(out[0].len >= 1 && out[1].len >= 1);
	assert_true(out[0].from + out[0].len <= 3 && out[1].from + out[1].len <= 4);
}

/* Widths of wide characters need a UTF-8 locale, as the screen sets. */
static int setup(void **state)
{
	(void)state;
	if (!setlocale(LC_ALL, "C.UTF-8") && !setlocale(LC_ALL, "en_US.UTF-8"))
		return -1;
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_benchmark_ids),
		cmocka_unit_test(test_shared_start_and_end),
		cmocka_unit_test(test_cjk),
		cmocka_unit_test(test_whole),
		cmocka_unit_test(test_prefix_of_another),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
