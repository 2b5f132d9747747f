/* test_callrefs.c - review/callrefs: a run's call decisions gathered call by
 * call from a real annotations file (the latest of several reviewers, one
 * reviewer's alone, a label taken back, a decision on a call the run does
 * not have), what `x` takes back first, and the corrected trajectory:
 * calls kept, replaced, removed, inserted at the start, in the middle and
 * at the end, several at once, before a call the reference does not count,
 * a call labelled wrong kept and listed, and the answer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "review/callrefs.h"
#include "util/error.h"

static char dir[64], path[128];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof dir, "/tmp/tcr-callrefs-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/a.jsonl", dir);
	unlink(path);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(path);
	rmdir(dir);
	return 0;
}

static struct annot_store *fresh(void)
{
	unlink(path);
	struct error err = {0};
	struct annot_store *s = annot_open(path, &err);
	assert_non_null(s);
	return s;
}

static void put(struct annot_store *s, struct decision d)
{
	struct error err = {0};
	if (!d.run)
		d.run = "r";
	if (!d.reviewer)
		d.reviewer = "ann";
	if (annot_append(s, &d, &err) < 0)
		fail_msg("%s", err.msg);
}

static struct decision label(long call, double v, const char *name, const char *at)
{
	return (struct decision){ .kind = DEC_CALL_LABEL, .call = call, .has_score = true, .score = v,
	                          .label = name, .at = at };
}

static struct decision fix(enum correction_kind k, long call, const char *expected, const char *at)
{
	return (struct decision){ .kind = DEC_CORRECT, .correction = k, .call = call,
	                          .expected = expected, .at = at };
}

/* The run's calls a, b, c (all counted unless left NULL by the test). */
static json_t *calls[3];

static void make_calls(void)
{
	calls[0] = json_pack("{s:s, s:{s:i}}", "name", "a", "arguments", "x", 1);
	calls[1] = json_pack("{s:s, s:{}}", "name", "b", "arguments");
	calls[2] = json_pack("{s:s, s:{s:s}}", "name", "c", "arguments", "y", "z");
}

static void free_calls(void)
{
	for (int i = 0; i < 3; i++)
		json_decref(calls[i]);
}

/* The reference's names, "a b c". */
static void names_are(const json_t *ref, const char *want)
{
	char got[256] = "";
	size_t i;
	json_t *c;
	json_array_foreach(ref, i, c) {
		if (i)
			strcat(got, " ");
		strcat(got, json_string_value(json_object_get(c, "name")));
		assert_true(json_is_object(json_object_get(c, "arguments")));
	}
	assert_string_equal(got, want);
}

static json_t *reference_of(struct annot_store *s, struct ref_counts *n, json_t **wrong)
{
	struct run_call_decs cd;
	callrefs_gather(s, "r", NULL, 0, 3, &cd);
	json_t *ref = callrefs_reference(&cd, calls, 1.0, n, wrong);
	callrefs_free(&cd);
	return ref;
}

static void test_kept_and_wrong_listed(void **state)
{
	(void)state;
	struct annot_store *s = fresh();
	make_calls();
	put(s, label(1, 1, "correct", "2026-01-01T00:00:01Z"));
	put(s, label(3, 0, "wrong", "2026-01-01T00:00:02Z"));
	struct ref_counts n;
	json_t *wrong;
	json_t *ref = reference_of(s, &n, &wrong);
	names_are(ref, "a b c");
	assert_int_equal(n.kept, 3);
	assert_int_equal(n.corrected + n.removed + n.inserted, 0);
	assert_int_equal(json_array_size(wrong), 1);
	assert_int_equal(json_integer_value(json_array_get(wrong, 0)), 3);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(json_array_get(ref, 0),
	                 "arguments"), "x")), 1);
	json_decref(ref);
	json_decref(wrong);
	free_calls();
	annot_close(s);
}

static void test_replaced_removed_inserted(void **state)
{
	(void)state;
	struct annot_store *s = fresh();
	make_calls();
	put(s, fix(CORR_INSERT, 1, "{\"name\":\"start\"}", "2026-01-01T00:00:01Z"));
	put(s, fix(CORR_REPLACE, 2, "{\"name\":\"b2\",\"arguments\":{\"k\":2}}", "2026-01-01T00:00:02Z"));
	put(s, fix(CORR_INSERT, 3, "[{\"name\":\"m1\"},{\"name\":\"m2\",\"arguments\":{}}]",
	           "2026-01-01T00:00:03Z"));
	put(s, fix(CORR_REMOVE, 3, NULL, "2026-01-01T00:00:04Z"));
	put(s, fix(CORR_INSERT, 4, "{\"name\":\"end\",\"arguments\":{}}", "2026-01-01T00:00:05Z"));
	put(s, label(2, 0, "wrong", "2026-01-01T00:00:06Z"));    /* corrected: not listed */
	struct ref_counts n;
	json_t *wrong;
	json_t *ref = reference_of(s, &n, &wrong);
	names_are(ref, "start a b2 m1 m2 end");
	assert_int_equal(n.kept, 1);
	assert_int_equal(n.corrected, 1);
	assert_int_equal(n.removed, 1);
	assert_int_equal(n.inserted, 4);
	assert_int_equal(json_array_size(wrong), 0);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(json_array_get(ref, 2),
	                 "arguments"), "k")), 2);
	json_decref(ref);
	json_decref(wrong);
	free_calls();
	annot_close(s);
}

static void test_uncounted_call_keeps_its_insert(void **state)
{
	(void)state;
	struct annot_store *s = fresh();
	make_calls();
	put(s, fix(CORR_INSERT, 2, "{\"name\":\"before-b\"}", "2026-01-01T00:00:01Z"));
	json_decref(calls[1]);
	calls[1] = NULL;                /* b is not a call trajectory-match counts */
	struct ref_counts n;
	json_t *ref = reference_of(s, &n, NULL);
	names_are(ref, "a before-b c");
	json_decref(ref);
	free_calls();
	annot_close(s);
}

static void test_latest_reviewer_and_one_reviewer(void **state)
{
	(void)state;
	struct annot_store *s = fresh();
	make_calls();
	struct decision d = fix(CORR_REPLACE, 1, "{\"name\":\"by-ann\"}", "2026-01-01T00:00:01Z");
	put(s, d);
	d = fix(CORR_REPLACE, 1, "{\"name\":\"by-bob\"}", "2026-01-01T00:00:02Z");
	d.reviewer = "bob";
	put(s, d);
	struct ref_counts n;
	json_t *ref = reference_of(s, &n, NULL);
	names_are(ref, "by-bob b c");
	json_decref(ref);
	struct run_call_decs cd;
	const char *ann = "ann";
	callrefs_gather(s, "r", &ann, 1, 3, &cd);
	assert_int_equal(cd.nreviewers, 1);
	ref = callrefs_reference(&cd, calls, 1.0, &n, NULL);
	names_are(ref, "by-ann b c");
	json_decref(ref);
	callrefs_free(&cd);
	free_calls();
	annot_close(s);
}

static void test_retract_and_latest_on(void **state)
{
	(void)state;
	struct annot_store *s = fresh();
	put(s, label(2, 0, "wrong", "2026-01-01T00:00:01Z"));
	put(s, fix(CORR_REMOVE, 2, NULL, "2026-01-01T00:00:01Z"));     /* same second */
	put(s, label(9, 1, "correct", "2026-01-01T00:00:01Z"));        /* no call 9 */
	put(s, fix(CORR_INSERT, 4, "{\"name\":\"end\"}", "2026-01-01T00:00:03Z"));
	struct run_call_decs cd;
	callrefs_gather(s, "r", NULL, 0, 3, &cd);
	assert_int_equal(cd.off_run, 1);
	/* on one second, the correction goes back before the label */
	assert_int_equal(callrefs_latest_on(&cd, 2)->kind, DEC_CORRECT);
	/* the last call answers for what is missing after it */
	assert_int_equal(callrefs_latest_on(&cd, 3)->correction, CORR_INSERT);
	assert_null(callrefs_latest_on(&cd, 1));
	callrefs_free(&cd);
	struct decision r = { .kind = DEC_RETRACT, .retracts_set = true, .retracts = DEC_CORRECT,
	                      .correction = CORR_REMOVE, .call = 2, .at = "2026-01-01T00:00:04Z" };
	put(s, r);
	callrefs_gather(s, "r", NULL, 0, 3, &cd);
	assert_null(cd.per[1].fix);
	assert_string_equal(cd.per[1].label->label, "wrong");
	callrefs_free(&cd);
	annot_close(s);
}

static void test_answer(void **state)
{
	(void)state;
	struct annot_store *s = fresh();
	put(s, fix(CORR_ANSWER, 0, "\"It is booked.\"", "2026-01-01T00:00:01Z"));
	struct run_call_decs cd;
	callrefs_gather(s, "r", NULL, 0, 3, &cd);
	json_t *a = callrefs_expected(cd.answer);
	assert_string_equal(json_string_value(a), "It is booked.");
	json_decref(a);
	callrefs_free(&cd);
	annot_close(s);
}

static void test_brief(void **state)
{
	(void)state;
	json_t *c = json_pack("{s:s, s:{s:s, s:i}}", "name", "book", "arguments", "to", "SEA", "n", 2);
	char out[64];
	callrefs_brief(c, 0, out, sizeof out);
	assert_string_equal(out, "book(to: \"SEA\", n: 2)");
	callrefs_brief(c, 8, out, sizeof out);
	assert_string_equal(out, "book(to:\xe2\x80\xa6");
	json_decref(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kept_and_wrong_listed),
		cmocka_unit_test(test_replaced_removed_inserted),
		cmocka_unit_test(test_uncounted_call_keeps_its_insert),
		cmocka_unit_test(test_latest_reviewer_and_one_reviewer),
		cmocka_unit_test(test_retract_and_latest_on),
		cmocka_unit_test(test_answer),
		cmocka_unit_test(test_brief),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
