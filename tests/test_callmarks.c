/* test_callmarks.c - review/callmarks: the marks of a run's calls read
 * from the trajectory-match verdicts of a real session (matched, extra,
 * arguments differ; two scorers in row order on one call), entries that
 * say nothing showable left out (no such call, an unknown mark, a missing
 * reference, a second entry for one call), verdicts that are not ok give
 * none, blind mode keeps a row's marks back until it is labelled, and no
 * session or no run gives none. tool-errors and unanswered-calls mark only
 * the calls that are not fine: a failed call, a call with no result.
 * An extra call carries "allowed" from trajectory-match when its mode does
 * not hold extras against the run (superset, in-order, a verdict that
 * passed) and not otherwise (strict, subset, unordered that failed). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "config/config.h"
#include "review/settle.h"
#include "review/callmarks.h"
#include "review/session.h"
#include "runs/run.h"
#include "test_files.h"
#include "util/error.h"

static char dir[64];
static char runs_path[128];
static struct config cfg;

/* get_user as the reference's first call, search_flights not in it, book
 * with another flight than the reference's second call. */
#define CALL(i, name, args) "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"c" #i \
	"\",\"type\":\"function\",\"function\":{\"name\":\"" name "\",\"arguments\":\"" args "\"}}]}," \
	"{\"role\":\"tool\",\"tool_call_id\":\"c" #i "\",\"content\":\"ok\"},"
#define RUN "{\"id\":\"marks\",\"messages\":[{\"role\":\"user\",\"content\":\"book HAT136\"}," \
	CALL(0, "get_user", "{\\\"user\\\":\\\"mia\\\"}") \
	CALL(1, "search_flights", "{\\\"to\\\":\\\"SFO\\\"}") \
	CALL(2, "book", "{\\\"flight\\\":\\\"HAT999\\\"}") \
	"{\"role\":\"assistant\",\"content\":\"booked\"}]," \
	"\"reference\":[{\"name\":\"get_user\",\"arguments\":{\"user\":\"mia\"}}," \
	"{\"name\":\"book\",\"arguments\":{\"flight\":\"HAT136\"}}]}"

static const char yaml[] =
	"scorers:\n"
	"  - id: actions\n"
	"    type: trajectory-match\n"
	"    reference: {from: reference}\n"
	"    mode: superset\n"
	"    args: exact\n"
	"  - id: words\n"
	"    type: word-inclusion\n"
	"  - id: names\n"
	"    type: trajectory-match\n"
	"    reference: {from: reference}\n"
	"    mode: superset\n"
	"    args: ignore\n";

enum { ACTIONS, WORDS, NAMES };

/* get_user answered, lookup failed (its result begins "Error:"), refund
 * never answered. */
#define CHECKS_RUN "{\"id\":\"checks\",\"messages\":[{\"role\":\"user\",\"content\":\"refund order 7\"}," \
	"{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[" \
	"{\"id\":\"c0\",\"type\":\"function\",\"function\":{\"name\":\"get_user\",\"arguments\":\"{}\"}}," \
	"{\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"lookup\",\"arguments\":\"{}\"}}," \
	"{\"id\":\"c2\",\"type\":\"function\",\"function\":{\"name\":\"refund\",\"arguments\":\"{}\"}}]}," \
	"{\"role\":\"tool\",\"tool_call_id\":\"c0\",\"content\":\"mia\"}," \
	"{\"role\":\"tool\",\"tool_call_id\":\"c1\",\"content\":\"Error: no order 7\"}," \
	"{\"role\":\"assistant\",\"content\":\"refunded\"}]}"

static const char checks_yaml[] =
	"scorers:\n"
	"  - id: errors\n"
	"    type: tool-errors\n"
	"  - id: pairs\n"
	"    type: unanswered-calls\n";

enum { ERRORS, PAIRS };

/* One trajectory-match per mode on the same run: search_flights is extra
 * in each; only superset and in-order let it be. */
static const char modes_yaml[] =
	"scorers:\n"
	"  - {id: strict, type: trajectory-match, reference: {from: reference}, mode: strict, args: ignore}\n"
	"  - {id: unordered, type: trajectory-match, reference: {from: reference}, mode: unordered, args: ignore}\n"
	"  - {id: subset, type: trajectory-match, reference: {from: reference}, mode: subset, args: ignore}\n"
	"  - {id: superset, type: trajectory-match, reference: {from: reference}, mode: superset, args: exact}\n"
	"  - {id: in-order, type: trajectory-match, reference: {from: reference}, mode: in-order, args: ignore}\n";
static struct config modes_cfg;
static char checks_path[128];
static struct config checks_cfg;

static int setup(void **s)
{
	(void)s;
	strcpy(dir, "/tmp/tcr-callmarks.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(runs_path, sizeof runs_path, "%s/runs.jsonl", dir);
	test_write_file(runs_path, RUN "\n");
	snprintf(checks_path, sizeof checks_path, "%s/checks.jsonl", dir);
	test_write_file(checks_path, CHECKS_RUN "\n");
	struct error err = {0};
	if (config_load_string(&cfg, NULL, "t.yaml", dir, yaml, sizeof yaml - 1, &err) < 0 ||
	    config_load_string(&checks_cfg, NULL, "c.yaml", dir, checks_yaml, sizeof checks_yaml - 1, &err) < 0 ||
	    config_load_string(&modes_cfg, NULL, "m.yaml", dir, modes_yaml, sizeof modes_yaml - 1, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		return -1;
	}
	return 0;
}

static int teardown(void **s)
{
	(void)s;
	config_free(&cfg);
	config_free(&checks_cfg);
	config_free(&modes_cfg);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static const struct review_run *open_run_of(struct review *rv, struct config *c, bool blind)
{
	struct error err = {0};
	char annot[160];
	snprintf(annot, sizeof annot, "%s/annot-%d.jsonl", dir, blind);
	unlink(annot);
	const char *annots[] = { annot };
	char *paths[] = { runs_path };
	if (review_open(rv, c, NULL, paths, 1, annots, 1, "ann", &err) < 0)
		fail_msg("review_open: %s", err.msg);
	rv->blind = blind;
	for (int i = 0; review_step(rv, 0); i++)
		assert_true(i < 1000);
	review_settle(rv);
	const struct review_run *rr = review_current(rv);
	assert_non_null(rr);
	assert_non_null(rr->run);
	assert_int_equal(rr->run->ncalls, 3);
	return rr;
}

static const struct review_run *open_run(struct review *rv, bool blind)
{
	return open_run_of(rv, &cfg, blind);
}

static void assert_mark(const struct call_mark *m, size_t row, const char *scorer,
                        enum call_mark_kind kind, size_t ref)
{
	assert_int_equal(m->row, row);
	assert_string_equal(m->scorer, scorer);
	assert_int_equal(m->kind, kind);
	assert_int_equal(m->ref, ref);
}

static void test_marks_of_a_session(void **s)
{
	(void)s;
	struct review rv;
	const struct review_run *rr = open_run(&rv, false);
	struct call_marks cm;
	review_call_marks(&rv, rr, &cm);
	assert_int_equal(cm.ncalls, 3);
	assert_int_equal(cm.nmarks, 6);
	size_t n;
	const struct call_mark *m = call_marks_at(&cm, 0, &n);
	assert_int_equal(n, 2);
	assert_mark(&m[0], ACTIONS, "actions", CALL_MARK_MATCHED, 1);
	assert_mark(&m[1], NAMES, "names", CALL_MARK_MATCHED, 1);
	/* the scorer lists the extra call last; by call it is the second */
	m = call_marks_at(&cm, 1, &n);
	assert_int_equal(n, 2);
	assert_mark(&m[0], ACTIONS, "actions", CALL_MARK_EXTRA, 0);
	assert_mark(&m[1], NAMES, "names", CALL_MARK_EXTRA, 0);
	/* superset lets an extra call be, whether the verdict passed or not */
	assert_true(m[0].allowed && m[1].allowed);
	assert_false(call_mark_is_problem(&m[0]));
	m = call_marks_at(&cm, 2, &n);
	assert_int_equal(n, 2);
	assert_mark(&m[0], ACTIONS, "actions", CALL_MARK_ARGS, 2);
	assert_mark(&m[1], NAMES, "names", CALL_MARK_MATCHED, 2);
	assert_false(m[0].allowed);
	assert_true(call_mark_is_problem(&m[0]));
	assert_false(call_mark_is_problem(&m[1]));
	assert_null(call_marks_at(&cm, 3, &n));
	assert_int_equal(n, 0);
	call_marks_free(&cm);
	assert_null(cm.marks);
	review_close(&rv);
}

static void set_marks(struct verdict *v, const char *json);

/* The extra call's mark in each mode: "allowed" comes from the scorer,
 * which knows what its mode holds against a run. */
static void test_allowed_by_the_mode(void **s)
{
	(void)s;
	struct review rv;
	const struct review_run *rr = open_run_of(&rv, &modes_cfg, false);
	struct call_marks cm;
	review_call_marks(&rv, rr, &cm);
	size_t n;
	const struct call_mark *m = call_marks_at(&cm, 1, &n);
	static const struct { const char *id; bool allowed; } want[] = {
		{ "strict", false }, { "unordered", false }, { "subset", false },
		{ "superset", true }, { "in-order", true },
	};
	size_t extras = 0;
	for (size_t k = 0; k < n; k++) {
		if (m[k].kind != CALL_MARK_EXTRA)
			continue;
		for (size_t w = 0; w < sizeof want / sizeof *want; w++)
			if (!strcmp(want[w].id, m[k].scorer)) {
				assert_int_equal(m[k].allowed, want[w].allowed);
				assert_int_equal(call_mark_is_problem(&m[k]), !want[w].allowed);
				extras++;
			}
	}
	assert_int_equal(extras, 5);
	call_marks_free(&cm);
	/* a mark written without the key is not allowed; true with it */
	set_marks(&rr->verdicts[0], "[{\"call\":2,\"mark\":\"extra\"}, {\"call\":3,\"mark\":\"extra\",\"allowed\":true}]");
	review_call_marks(&rv, rr, &cm);
	m = call_marks_at(&cm, 1, &n);
	assert_true(n >= 1);
	assert_string_equal(m[0].scorer, "strict");
	assert_false(m[0].allowed);
	m = call_marks_at(&cm, 2, &n);
	assert_string_equal(m[0].scorer, "strict");
	assert_true(m[0].allowed);
	call_marks_free(&cm);
	review_close(&rv);
}

/* Replaces a verdict's call_marks with the list `json`. */
static void set_marks(struct verdict *v, const char *json)
{
	json_error_t jerr;
	json_t *list = json_loads(json, 0, &jerr);
	assert_non_null(list);
	if (!v->details)
		v->details = json_object();
	json_object_set_new(v->details, VERDICT_CALL_MARKS, list);
}

static void test_what_is_left_out(void **s)
{
	(void)s;
	struct review rv;
	const struct review_run *rr = open_run(&rv, false);
	set_marks(&rr->verdicts[ACTIONS],
	          /* calls count from 1: 0 and 4 name no call of the three */
	          "[{\"call\":4,\"mark\":\"matched\",\"ref\":1}, {\"call\":0,\"mark\":\"extra\"},"
	          " {\"call\":-1,\"mark\":\"extra\"},"
	          " {\"call\":\"1\",\"mark\":\"extra\"}, {\"call\":1,\"mark\":\"skipped\"},"
	          " {\"call\":1,\"mark\":\"matched\"}, {\"call\":1,\"mark\":\"args\",\"ref\":0}, 7,"
	          " {\"call\":2,\"mark\":\"args\",\"ref\":4}, {\"call\":2,\"mark\":\"extra\"}]");
	/* a row that is not ok says nothing, whatever its details hold */
	rr->verdicts[NAMES].status = VERDICT_ERROR;
	set_marks(&rr->verdicts[WORDS], "[{\"call\":3,\"mark\":\"extra\"}]");
	rr->verdicts[WORDS].status = VERDICT_SKIPPED;
	struct call_marks cm;
	review_call_marks(&rv, rr, &cm);
	assert_int_equal(cm.nmarks, 1);
	size_t n;
	assert_null(call_marks_at(&cm, 0, &n));
	const struct call_mark *m = call_marks_at(&cm, 1, &n);
	assert_int_equal(n, 1);                 /* the second entry for call 1 is left out */
	assert_mark(&m[0], ACTIONS, "actions", CALL_MARK_ARGS, 4);
	assert_null(call_marks_at(&cm, 2, &n));
	call_marks_free(&cm);
	/* details that are no list, or none at all */
	json_object_set_new(rr->verdicts[ACTIONS].details, VERDICT_CALL_MARKS, json_string("x"));
	review_call_marks(&rv, rr, &cm);
	assert_int_equal(cm.nmarks, 0);
	call_marks_free(&cm);
	json_decref(rr->verdicts[ACTIONS].details);
	rr->verdicts[ACTIONS].details = NULL;
	review_call_marks(&rv, rr, &cm);
	assert_int_equal(cm.nmarks, 0);
	assert_null(call_marks_at(&cm, 0, &n));
	call_marks_free(&cm);
	review_close(&rv);
}

/* A mark tells the verdict (extra: it failed a subset), so in blind mode
 * a row's marks wait for this reviewer's label on it. */
static void test_blind_waits_for_the_label(void **s)
{
	(void)s;
	struct review rv;
	const struct review_run *rr = open_run(&rv, true);
	struct call_marks cm;
	review_call_marks(&rv, rr, &cm);
	assert_int_equal(cm.nmarks, 0);
	call_marks_free(&cm);
	struct error err = {0};
	bool accepted;
	assert_int_equal(review_label(&rv, NAMES, 1, &accepted, &err), 0);
	review_settle(&rv);
	rr = review_current(&rv);
	review_call_marks(&rv, rr, &cm);
	assert_int_equal(cm.nmarks, 3);
	size_t n;
	const struct call_mark *m = call_marks_at(&cm, 2, &n);
	assert_int_equal(n, 1);
	assert_mark(&m[0], NAMES, "names", CALL_MARK_MATCHED, 2);
	call_marks_free(&cm);
	review_close(&rv);
}

static void test_nothing_to_read(void **s)
{
	(void)s;
	struct call_marks cm;
	review_call_marks(NULL, NULL, &cm);
	assert_int_equal(cm.nmarks, 0);
	size_t n = 9;
	assert_null(call_marks_at(&cm, 0, &n));
	assert_int_equal(n, 0);
	assert_null(call_marks_at(NULL, 0, &n));
	call_marks_free(&cm);
	struct review rv;
	open_run(&rv, false);
	struct review_run unread = { .entry = 0, .run = NULL, .error = "broken" };
	review_call_marks(&rv, &unread, &cm);
	assert_int_equal(cm.nmarks, 0);
	call_marks_free(&cm);
	review_close(&rv);
}

/* The session of the checks run under tool-errors and unanswered-calls. */
static const struct review_run *open_checks(struct review *rv, bool blind)
{
	struct error err = {0};
	char annot[160];
	snprintf(annot, sizeof annot, "%s/annot-checks-%d.jsonl", dir, blind);
	unlink(annot);
	const char *annots[] = { annot };
	char *paths[] = { checks_path };
	if (review_open(rv, &checks_cfg, NULL, paths, 1, annots, 1, "ann", &err) < 0)
		fail_msg("review_open: %s", err.msg);
	rv->blind = blind;
	for (int i = 0; review_step(rv, 0); i++)
		assert_true(i < 1000);
	review_settle(rv);
	const struct review_run *rr = review_current(rv);
	assert_non_null(rr);
	assert_non_null(rr->run);
	assert_int_equal(rr->run->ncalls, 3);
	assert_int_equal(rr->verdicts[ERRORS].status, VERDICT_OK);
	assert_int_equal(rr->verdicts[PAIRS].status, VERDICT_OK);
	return rr;
}

/* A call that is fine gets no mark; the failed one and the unanswered one
 * get one each, from their scorer, with no reference. */
static void test_failed_and_unanswered(void **s)
{
	(void)s;
	struct review rv;
	const struct review_run *rr = open_checks(&rv, false);
	struct call_marks cm;
	review_call_marks(&rv, rr, &cm);
	assert_int_equal(cm.nmarks, 2);
	size_t n;
	assert_null(call_marks_at(&cm, 0, &n));
	assert_int_equal(n, 0);
	const struct call_mark *m = call_marks_at(&cm, 1, &n);
	assert_int_equal(n, 1);
	assert_mark(&m[0], ERRORS, "errors", CALL_MARK_FAILED, 0);
	m = call_marks_at(&cm, 2, &n);
	assert_int_equal(n, 1);
	assert_mark(&m[0], PAIRS, "pairs", CALL_MARK_NO_RESULT, 0);
	call_marks_free(&cm);
	/* a reference beside them is not needed and not read */
	set_marks(&rr->verdicts[ERRORS], "[{\"call\":1,\"mark\":\"failed\",\"ref\":2},"
	          " {\"call\":2,\"mark\":\"no-result\"}, {\"call\":3,\"mark\":\"no result\"}]");
	review_call_marks(&rv, rr, &cm);
	assert_int_equal(cm.nmarks, 3);
	m = call_marks_at(&cm, 0, &n);
	assert_int_equal(n, 1);
	assert_mark(&m[0], ERRORS, "errors", CALL_MARK_FAILED, 0);
	m = call_marks_at(&cm, 1, &n);
	assert_int_equal(n, 1);
	assert_mark(&m[0], ERRORS, "errors", CALL_MARK_NO_RESULT, 0);
	m = call_marks_at(&cm, 2, &n);
	assert_int_equal(n, 1);                 /* "no result" is the badge's word, not the mark's */
	assert_mark(&m[0], PAIRS, "pairs", CALL_MARK_NO_RESULT, 0);
	call_marks_free(&cm);
	review_close(&rv);
}

/* In blind mode a failed mark tells the verdict too: it waits for the label. */
static void test_blind_checks_wait(void **s)
{
	(void)s;
	struct review rv;
	const struct review_run *rr = open_checks(&rv, true);
	struct call_marks cm;
	review_call_marks(&rv, rr, &cm);
	assert_int_equal(cm.nmarks, 0);
	call_marks_free(&cm);
	struct error err = {0};
	bool accepted;
	assert_int_equal(review_label(&rv, ERRORS, 0, &accepted, &err), 0);
	review_settle(&rv);
	rr = review_current(&rv);
	review_call_marks(&rv, rr, &cm);
	assert_int_equal(cm.nmarks, 1);
	size_t n;
	const struct call_mark *m = call_marks_at(&cm, 1, &n);
	assert_int_equal(n, 1);
	assert_mark(&m[0], ERRORS, "errors", CALL_MARK_FAILED, 0);
	assert_null(call_marks_at(&cm, 2, &n));
	call_marks_free(&cm);
	review_close(&rv);
}

static void test_names(void **s)
{
	(void)s;
	for (int k = 0; k < CALL_MARK_COUNT; k++) {
		enum call_mark_kind got;
		assert_true(call_mark_parse(call_mark_name((enum call_mark_kind)k), &got));
		assert_int_equal(got, k);
	}
	enum call_mark_kind got;
	assert_false(call_mark_parse("Matched", &got));
	assert_false(call_mark_parse("no result", &got));
	assert_string_equal(call_mark_name(CALL_MARK_FAILED), "failed");
	assert_string_equal(call_mark_name(CALL_MARK_NO_RESULT), "no-result");
	assert_false(call_mark_parse(NULL, &got));
	assert_string_equal(call_mark_name(CALL_MARK_COUNT), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_marks_of_a_session),
		cmocka_unit_test(test_what_is_left_out),
		cmocka_unit_test(test_allowed_by_the_mode),
		cmocka_unit_test(test_blind_waits_for_the_label),
		cmocka_unit_test(test_nothing_to_read),
		cmocka_unit_test(test_failed_and_unanswered),
		cmocka_unit_test(test_blind_checks_wait),
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
