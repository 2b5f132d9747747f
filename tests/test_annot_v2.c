/* test_annot_v2.c - the annotations store's schema v2 and several files:
 * v1 lines still read, v2 lines round trip, several files with precedence
 * by `at`, a read-only second file, retractions per file, the reviewers
 * list, the walk over standing decisions and files opened only to read.
 * (test_annot covers the one
 * file: exact lines, crashes, concurrent writers, errors.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "annot/store.h"
#include "test_files.h"
#include "util/error.h"

static char dir[256];

static int setup(void **st)
{
	(void)st;
	const char *tmp = getenv("TMPDIR");
	snprintf(dir, sizeof dir, "%s/tcr-annot2.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **st)
{
	(void)st;
	char cmd[512];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void path_in(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "%s/%s", dir, name);
}

#define H1 "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
#define H2 "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"

/* A judge row's accept, with every v2 field set. */
static struct decision judge_accept(const char *run, const char *reviewer, const char *at)
{
	return (struct decision){
		.kind = DEC_ACCEPT, .run = run, .source = "runs.jsonl:1", .scorer = "appr",
		.scorer_type = "tool-appropriateness", .has_machine_score = true,
		.machine_score = 0.67, .has_machine_passed = true, .machine_passed = true,
		.has_score = true, .score = 0.67, .reviewer = reviewer, .at = at,
		.config = "0123456789abcdef", .run_hash = H1, .model = "openai/gpt-4o-mini",
		.prompt_hash = "fedcba9876543210", .blind = true,
	};
}

static struct decision scorer_override(const char *run, const char *reviewer, const char *at,
                                       double score)
{
	return (struct decision){
		.kind = DEC_OVERRIDE, .run = run, .source = "runs.jsonl:1", .scorer = "tca",
		.scorer_type = "tool-call-accuracy", .has_machine_score = true, .machine_score = 1,
		.has_machine_passed = true, .machine_passed = true, .has_score = true,
		.score = score, .reason = "why", .reviewer = reviewer, .at = at,
		.config = "0123456789abcdef", .run_hash = H2,
	};
}

static struct decision retract(const char *run, const char *scorer, const char *reviewer,
                               const char *at)
{
	return (struct decision){
		.kind = DEC_RETRACT, .run = run, .scorer = scorer, .reviewer = reviewer, .at = at,
	};
}

static void append_ok(struct annot_store *s, const struct decision *d)
{
	struct error err = {0};
	if (annot_append(s, d, &err) != 0)
		fail_msg("append: %s", err.msg);
}

static struct annot_store *open_two(const char *a, const char *b)
{
	const char *paths[] = { a, b };
	struct error err = {0};
	struct annot_store *s = annot_open_many(paths, 2, &err);
	if (!s)
		fail_msg("open: %s", err.msg);
	return s;
}

/* ---- schema ---------------------------------------------------------- */

#define V1_LINE "{\"v\":1,\"run\":\"r1\",\"source\":\"runs.jsonl:3\",\"scorer\":\"tca\"," \
	"\"scorer_type\":\"binary\",\"machine_score\":1,\"machine_passed\":true," \
	"\"decision\":\"accept\",\"score\":1,\"reason\":null,\"reviewer\":\"ann\"," \
	"\"at\":\"2026-12-01T09:30:00Z\",\"config\":\"0123456789abcdef\"}\n"

/* A file written before v2 reads as before; the new fields are absent. */
static void test_v1_lines_read(void **st)
{
	(void)st;
	struct error err = {0};
	char path[300];
	path_in(path, sizeof path, "v1.jsonl");
	test_write_file(path, V1_LINE);
	struct annot_store *s = annot_open(path, &err);
	assert_non_null(s);
	assert_null(annot_warning(s));
	const struct decision *d = annot_current(s, "r1", "tca", "ann");
	assert_non_null(d);
	assert_int_equal(d->kind, DEC_ACCEPT);
	assert_true(d->score == 1);
	assert_string_equal(d->config, "0123456789abcdef");
	assert_null(d->run_hash);
	assert_null(d->model);
	assert_null(d->prompt_hash);
	assert_false(d->blind);
	assert_int_equal(d->file, 0);
	/* A v2 line appended after it sits beside it. */
	struct decision j = judge_accept("r1", "ann", "2026-12-01T10:00:00Z");
	append_ok(s, &j);
	annot_close(s);
	char *text = test_slurp(path);
	assert_non_null(text);
	assert_memory_equal(text, V1_LINE, strlen(V1_LINE));
	assert_memory_equal(text + strlen(V1_LINE), "{\"v\":2,", 7);
	free(text);
}

#define V2_LINE "{\"v\":2,\"run\":\"r1\",\"source\":\"runs.jsonl:1\"," \
	"\"run_hash\":\"" H1 "\",\"scorer\":\"appr\",\"scorer_type\":\"tool-appropriateness\"," \
	"\"model\":\"openai/gpt-4o-mini\",\"prompt_hash\":\"fedcba9876543210\"," \
	"\"machine_score\":0.67,\"machine_passed\":true,\"decision\":\"accept\",\"score\":0.67," \
	"\"reason\":null,\"reviewer\":\"ann\",\"blind\":true,\"at\":\"2026-12-01T10:00:00Z\"," \
	"\"config\":\"0123456789abcdef\"}\n"

static void check_v2(const struct decision *d)
{
	assert_non_null(d);
	assert_string_equal(d->run_hash, H1);
	assert_string_equal(d->model, "openai/gpt-4o-mini");
	assert_string_equal(d->prompt_hash, "fedcba9876543210");
	assert_true(d->blind);
	assert_true(d->machine_score == 0.67);
	assert_string_equal(d->scorer_type, "tool-appropriateness");
}

/* Written in the header's key order, read back field for field. */
static void test_v2_round_trip(void **st)
{
	(void)st;
	struct error err = {0};
	char path[300];
	path_in(path, sizeof path, "v2.jsonl");
	struct annot_store *s = annot_open(path, &err);
	assert_non_null(s);
	struct decision j = judge_accept("r1", "ann", "2026-12-01T10:00:00Z");
	append_ok(s, &j);
	check_v2(annot_current(s, "r1", "appr", "ann"));
	/* a code scorer's row: no model, no prompt hash, not blind */
	struct decision o = scorer_override("r1", "ann", "2026-12-01T10:01:00Z", 0);
	append_ok(s, &o);
	annot_close(s);

	char *text = test_slurp(path);
	assert_non_null(text);
	assert_memory_equal(text, V2_LINE, strlen(V2_LINE));
	assert_non_null(strstr(text + strlen(V2_LINE),
	                       "\"scorer_type\":\"tool-call-accuracy\",\"model\":null,\"prompt_hash\":null,"));
	assert_non_null(strstr(text + strlen(V2_LINE), "\"blind\":false,"));
	free(text);

	s = annot_open(path, &err);
	assert_non_null(s);
	check_v2(annot_current(s, "r1", "appr", "ann"));
	const struct decision *d = annot_current(s, "r1", "tca", "ann");
	assert_non_null(d);
	assert_string_equal(d->run_hash, H2);
	assert_null(d->model);
	assert_null(d->prompt_hash);
	assert_false(d->blind);
	assert_null(annot_warning(s));
	annot_close(s);
}

/* A v2 field of the wrong type skips its line with a reason; a run_hash
 * that is not a SHA-256 is refused before it reaches the file. */
static void test_v2_bad_fields(void **st)
{
	(void)st;
	struct error err = {0};
	char path[300];
	char want[1200];
	path_in(path, sizeof path, "bad2.jsonl");
	test_write_file(path,
	                "{\"v\":2,\"run\":\"r1\",\"scorer\":\"tca\",\"decision\":\"accept\",\"reviewer\":\"ann\",\"blind\":\"yes\"}\n"
	                "{\"v\":2,\"run\":\"r1\",\"scorer\":\"tca\",\"decision\":\"accept\",\"reviewer\":\"ann\",\"run_hash\":7}\n"
	                "{\"v\":2,\"run\":\"r1\",\"scorer\":\"tca\",\"decision\":\"accept\",\"reviewer\":\"ann\",\"model\":[]}\n"
	                "{\"v\":2,\"run\":\"r1\",\"scorer\":\"tca\",\"decision\":\"accept\",\"reviewer\":\"ann\",\"blind\":null}\n");
	struct annot_store *s = annot_open(path, &err);
	assert_non_null(s);
	snprintf(want, sizeof want,
	         "%s:1: skipped: \"blind\" is not true or false\n"
	         "%s:2: skipped: \"run_hash\" is not a string\n"
	         "%s:3: skipped: \"model\" is not a string", path, path, path);
	assert_string_equal(annot_warning(s), want);
	assert_int_equal(annot_count(s), 1);            /* a null blind is false */
	assert_false(annot_current(s, "r1", "tca", "ann")->blind);

	struct decision d = scorer_override("r2", "ann", NULL, 1);
	const char *bad[] = { "abc", H1 "0", "BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD", "" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		d.run_hash = bad[i];
		assert_int_equal(annot_append(s, &d, &err), -1);
		snprintf(want, sizeof want, "%s: run_hash is not 64 lowercase hex digits", path);
		assert_string_equal(err.msg, want);
	}
	d.run_hash = H1;
	d.model = "bad \xff";
	assert_int_equal(annot_append(s, &d, &err), -1);
	assert_non_null(strstr(err.msg, "not valid UTF-8"));
	assert_int_equal(annot_count(s), 1);
	annot_close(s);
}

/* ---- several files --------------------------------------------------- */

/* Each file keeps its own history; across files the later `at` stands,
 * the first file on a tie; a decision knows its file. */
static void test_precedence_by_at(void **st)
{
	(void)st;
	struct error err = {0};
	char a[300], b[300];
	path_in(a, sizeof a, "prec-a.jsonl");
	path_in(b, sizeof b, "prec-b.jsonl");
	struct annot_store *wb = annot_open(b, &err);
	assert_non_null(wb);
	struct decision d = scorer_override("r1", "ann", "2026-12-01T10:05:00Z", 0.25);
	append_ok(wb, &d);                              /* b: later */
	d = scorer_override("r2", "ann", "2026-12-01T09:00:00Z", 0.25);
	append_ok(wb, &d);                              /* b: earlier */
	d = scorer_override("r3", "ann", "2026-12-01T09:00:00Z", 0.25);
	append_ok(wb, &d);                              /* b: the same time */
	d = scorer_override("r4", "bob", "2026-12-01T09:00:00Z", 0.25);
	append_ok(wb, &d);                              /* only in b */
	annot_close(wb);

	struct annot_store *s = open_two(a, b);         /* a is made at the first decision */
	assert_int_equal(access(a, F_OK), -1);
	assert_string_equal(annot_path(s), a);
	assert_int_equal(annot_count(s), 4);
	d = scorer_override("r1", "ann", "2026-12-01T10:00:00Z", 0.75);
	append_ok(s, &d);
	assert_int_equal(access(a, F_OK), 0);
	d = scorer_override("r2", "ann", "2026-12-01T10:00:00Z", 0.75);
	append_ok(s, &d);
	d = scorer_override("r3", "ann", "2026-12-01T09:00:00Z", 0.75);
	append_ok(s, &d);

	const struct decision *c = annot_current(s, "r1", "tca", "ann");
	assert_true(c->score == 0.25);
	assert_int_equal(c->file, 1);
	c = annot_current(s, "r2", "tca", "ann");
	assert_true(c->score == 0.75);
	assert_int_equal(c->file, 0);
	c = annot_current(s, "r3", "tca", "ann");
	assert_true(c->score == 0.75);                  /* a tie: the first file */
	assert_int_equal(c->file, 0);
	c = annot_current(s, "r4", "tca", "bob");
	assert_true(c->score == 0.25);
	assert_int_equal(c->file, 1);
	assert_null(annot_current(s, "r4", "tca", "ann"));
	assert_int_equal(annot_count(s), 7);
	annot_close(s);

	/* Nothing was written to b; a holds exactly our three lines. */
	char *text = test_slurp(b);
	size_t lines = 0;
	for (char *p = text; (p = strchr(p, '\n')); p++)
		lines++;
	assert_int_equal(lines, 4);
	free(text);
	text = test_slurp(a);
	lines = 0;
	for (char *p = text; (p = strchr(p, '\n')); p++)
		lines++;
	assert_int_equal(lines, 3);
	free(text);
}

/* A retract takes back a decision of its own file only: ann's retract in
 * her file leaves her earlier decision in the other file standing. */
static void test_retract_per_file(void **st)
{
	(void)st;
	struct error err = {0};
	char a[300], b[300];
	path_in(a, sizeof a, "ret-a.jsonl");
	path_in(b, sizeof b, "ret-b.jsonl");
	struct annot_store *wb = annot_open(b, &err);
	assert_non_null(wb);
	struct decision d = scorer_override("r1", "ann", "2026-12-01T09:00:00Z", 0.25);
	append_ok(wb, &d);
	d = scorer_override("r2", "ann", "2026-12-01T09:00:00Z", 0.25);
	append_ok(wb, &d);
	d = retract("r2", "tca", "ann", "2026-12-01T09:01:00Z");
	append_ok(wb, &d);
	annot_close(wb);

	struct annot_store *s = open_two(a, b);
	d = scorer_override("r1", "ann", "2026-12-01T10:00:00Z", 0.75);
	append_ok(s, &d);
	assert_true(annot_current(s, "r1", "tca", "ann")->score == 0.75);
	d = retract("r1", "tca", "ann", "2026-12-01T10:01:00Z");
	append_ok(s, &d);
	const struct decision *c = annot_current(s, "r1", "tca", "ann");
	assert_non_null(c);
	assert_true(c->score == 0.25);                  /* b's decision is not ours to take back */
	assert_int_equal(c->file, 1);
	/* A retract with nothing of its own to take back changes nothing. */
	d = retract("r1", "tca", "ann", "2026-12-01T10:02:00Z");
	append_ok(s, &d);
	assert_true(annot_current(s, "r1", "tca", "ann")->score == 0.25);
	/* b's own retract stands: nothing on r2 */
	assert_null(annot_current(s, "r2", "tca", "ann"));
	annot_close(s);
}

struct ro_case {
	const char *mine, *theirs;
};

/* As a user who may not write the colleague's file: it still opens as
 * the second file, and its decisions are read. */
static int ro_open(void *ctx)
{
	const struct ro_case *c = ctx;
	const char *paths[] = { c->mine, c->theirs };
	struct error err = {0};
	struct annot_store *s = annot_open_many(paths, 2, &err);
	if (!s) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	const struct decision *d = annot_current(s, "r1", "tca", "bob");
	int rc = !d || d->file != 1 || d->score != 0.25 ? 2 : 0;
	annot_close(s);
	/* the other way round it must fail: the first file is written to */
	const char *swapped[] = { c->theirs, c->mine };
	if (!rc && annot_open_many(swapped, 2, &err))
		rc = 3;
	return rc;
}

static void test_read_only_second(void **st)
{
	(void)st;
	struct error err = {0};
	char a[300], b[300];
	char want[500];
	path_in(a, sizeof a, "ro-mine.jsonl");
	path_in(b, sizeof b, "ro-theirs.jsonl");
	struct annot_store *wb = annot_open(b, &err);
	assert_non_null(wb);
	struct decision d = scorer_override("r1", "bob", "2026-12-01T09:00:00Z", 0.25);
	append_ok(wb, &d);
	annot_close(wb);
	assert_int_equal(chmod(b, 0444), 0);
	assert_int_equal(chmod(dir, 0777), 0);          /* the reader creates its own file here */
	struct ro_case c = { a, b };
	assert_int_equal(test_as_reader(ro_open, &c), 0);
	unlink(a);                                      /* perhaps nobody's */
	assert_int_equal(chmod(b, 0644), 0);

	/* Followed: bob appends to his file, our refresh sees it. */
	struct annot_store *s = open_two(a, b);
	wb = annot_open(b, &err);
	assert_non_null(wb);
	d = scorer_override("r1", "bob", "2026-12-01T09:30:00Z", 0.5);
	append_ok(wb, &d);
	assert_true(annot_current(s, "r1", "tca", "bob")->score == 0.25);
	assert_int_equal(annot_refresh(s), 1);
	assert_true(annot_current(s, "r1", "tca", "bob")->score == 0.5);
	annot_close(wb);
	annot_close(s);

	/* The others must exist; a path twice or none at all is an error. */
	char missing[300];
	path_in(missing, sizeof missing, "nobody.jsonl");
	const char *paths[] = { a, missing };
	assert_null(annot_open_many(paths, 2, &err));
	snprintf(want, sizeof want, "%s: No such file or directory", missing);
	assert_string_equal(err.msg, want);
	assert_int_equal(access(missing, F_OK), -1);
	const char *twice[] = { a, a };
	assert_null(annot_open_many(twice, 2, &err));
	snprintf(want, sizeof want, "%s: given twice", a);
	assert_string_equal(err.msg, want);
	assert_null(annot_open_many(paths, 0, &err));
	assert_string_equal(err.msg, "no annotations file");
	assert_int_equal(chmod(dir, 0700), 0);
}

/* Each file's warnings, in file order, each naming its file. */
static void test_warnings_of_each_file(void **st)
{
	(void)st;
	char a[300], b[300], want[800];
	path_in(a, sizeof a, "warn-a.jsonl");
	path_in(b, sizeof b, "warn-b.jsonl");
	test_write_file(a, "not json\n");
	test_write_file(b, "{\"decision\":\"accept\"}\n");
	struct annot_store *s = open_two(a, b);
	snprintf(want, sizeof want, "%s:1: skipped: ", a);
	const char *w = annot_warning(s);
	assert_non_null(w);
	assert_memory_equal(w, want, strlen(want));
	snprintf(want, sizeof want, "\n%s:1: skipped: no \"run\"", b);
	assert_non_null(strstr(w, want));
	annot_close(s);
	test_write_file(a, "");
	s = open_two(a, b);
	snprintf(want, sizeof want, "%s:1: skipped: no \"run\"", b);
	assert_string_equal(annot_warning(s), want);
	annot_close(s);
}

/* ---- reviewers and the walk ------------------------------------------ */

static void test_reviewers(void **st)
{
	(void)st;
	struct error err = {0};
	char a[300], b[300];
	path_in(a, sizeof a, "rev-a.jsonl");
	path_in(b, sizeof b, "rev-b.jsonl");
	struct annot_store *wb = annot_open(b, &err);
	assert_non_null(wb);
	struct decision d = scorer_override("r1", "zoe", NULL, 1);
	append_ok(wb, &d);
	d = scorer_override("r1", "ann", NULL, 1);
	append_ok(wb, &d);
	annot_close(wb);
	struct annot_store *s = open_two(a, b);
	const char *const *names;
	assert_int_equal(annot_reviewers(s, &names), 2);
	assert_string_equal(names[0], "ann");
	assert_string_equal(names[1], "zoe");
	/* a note counts; a retracted decision's reviewer is still a reviewer */
	struct decision note = { .kind = DEC_NOTE, .run = "r1", .reason = "hm", .reviewer = "mia" };
	append_ok(s, &note);
	d = scorer_override("r2", "bob", NULL, 1);
	append_ok(s, &d);
	d = retract("r2", "tca", "bob", NULL);
	append_ok(s, &d);
	d = scorer_override("r3", "ann", NULL, 1);
	append_ok(s, &d);
	size_t n = annot_reviewers(s, &names);
	assert_int_equal(n, 4);
	const char *want[] = { "ann", "bob", "mia", "zoe" };
	for (size_t i = 0; i < n; i++) {
		assert_string_equal(names[i], want[i]);
		assert_true(annot_has_reviewer(s, want[i]));
	}
	assert_false(annot_has_reviewer(s, "amy"));    /* before the first */
	assert_false(annot_has_reviewer(s, "cal"));    /* between two */
	assert_false(annot_has_reviewer(s, "zz"));     /* after the last */
	assert_false(annot_has_reviewer(s, NULL));
	annot_close(s);

	/* none yet */
	path_in(a, sizeof a, "rev-empty.jsonl");
	s = annot_open(a, &err);
	assert_non_null(s);
	assert_int_equal(annot_reviewers(s, &names), 0);
	assert_false(annot_has_reviewer(s, "ann"));
	annot_close(s);
}

struct seen {
	char text[1024];
	size_t n;
};

static void collect(void *ctx, const struct decision *d)
{
	struct seen *sn = ctx;
	size_t len = strlen(sn->text);
	snprintf(sn->text + len, sizeof sn->text - len, "%s%s/%s/%s=%g@%u", sn->n ? " " : "",
	         d->run, d->scorer, d->reviewer, d->score, d->file);
	sn->n++;
}

/* Every standing accept or override once, in the order the triples first
 * appeared (across files as read: the first file, then the others), with
 * precedence applied; retracted ones and notes are left out. */
static void test_each_current(void **st)
{
	(void)st;
	struct error err = {0};
	char a[300], b[300];
	path_in(a, sizeof a, "each-a.jsonl");
	path_in(b, sizeof b, "each-b.jsonl");
	struct annot_store *wa = annot_open(a, &err);
	assert_non_null(wa);
	struct decision d = scorer_override("r2", "ann", "2026-12-01T09:00:00Z", 0.5);
	append_ok(wa, &d);
	d = scorer_override("r1", "ann", "2026-12-01T09:00:00Z", 0.5);
	append_ok(wa, &d);
	d = scorer_override("r1", "ann", "2026-12-01T09:10:00Z", 0.6);
	append_ok(wa, &d);                              /* replaces, does not add */
	d = scorer_override("r3", "ann", "2026-12-01T09:00:00Z", 0.5);
	append_ok(wa, &d);
	d = retract("r3", "tca", "ann", "2026-12-01T09:01:00Z");
	append_ok(wa, &d);
	struct decision note = { .kind = DEC_NOTE, .run = "r1", .reason = "hm", .reviewer = "ann" };
	append_ok(wa, &note);
	annot_close(wa);
	struct annot_store *wb = annot_open(b, &err);
	assert_non_null(wb);
	d = scorer_override("r1", "ann", "2026-12-01T11:00:00Z", 0.9);
	append_ok(wb, &d);                              /* later: wins over a's */
	d = scorer_override("r1", "bob", "2026-12-01T08:00:00Z", 0.1);
	append_ok(wb, &d);
	struct decision j = judge_accept("r1", "bob", "2026-12-01T08:00:00Z");
	append_ok(wb, &j);
	annot_close(wb);

	struct annot_store *s = open_two(a, b);
	struct seen sn = { "", 0 };
	annot_each_current(s, collect, &sn);
	assert_string_equal(sn.text, "r2/tca/ann=0.5@0 r1/tca/ann=0.9@1 r1/tca/bob=0.1@1 r1/appr/bob=0.67@1");
	assert_int_equal(sn.n, 4);
	annot_close(s);

	path_in(a, sizeof a, "each-empty.jsonl");
	s = annot_open(a, &err);
	sn.n = 0;
	sn.text[0] = '\0';
	annot_each_current(s, collect, &sn);
	assert_int_equal(sn.n, 0);
	annot_close(s);
}

/* annot_open_readonly: files another may only read, none created, no
 * append. */
static int readonly_open(void *ctx)
{
	const char *path = ctx;
	struct error err = {0};
	struct annot_store *s = annot_open_readonly(&path, 1, &err);
	if (!s) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	const struct decision *d = annot_current(s, "r1", "tca", "bob");
	int rc = !d || d->score != 0.25 ? 2 : 0;
	struct decision more = scorer_override("r2", "me", "2026-12-02T09:00:00Z", 1);
	if (!rc && annot_append(s, &more, &err) == 0)
		rc = 3;
	annot_close(s);
	return rc;
}

static void test_open_readonly(void **st)
{
	(void)st;
	struct error err = {0};
	char a[300], missing[300];
	char want[500];
	path_in(a, sizeof a, "readonly.jsonl");
	struct annot_store *w = annot_open(a, &err);
	assert_non_null(w);
	struct decision d = scorer_override("r1", "bob", "2026-12-01T09:00:00Z", 0.25);
	append_ok(w, &d);
	annot_close(w);
	assert_int_equal(chmod(a, 0444), 0);
	assert_int_equal(chmod(dir, 0755), 0);
	assert_int_equal(test_as_reader(readonly_open, a), 0);
	assert_int_equal(chmod(a, 0644), 0);
	assert_int_equal(chmod(dir, 0700), 0);
	char *text = test_slurp(a);
	assert_null(strstr(text, "\"r2\""));
	free(text);

	path_in(missing, sizeof missing, "readonly-nobody.jsonl");
	const char *paths[] = { missing };
	assert_null(annot_open_readonly(paths, 1, &err));
	snprintf(want, sizeof want, "%s: No such file or directory", missing);
	assert_string_equal(err.msg, want);
	assert_int_equal(access(missing, F_OK), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v1_lines_read),
		cmocka_unit_test(test_v2_round_trip),
		cmocka_unit_test(test_v2_bad_fields),
		cmocka_unit_test(test_precedence_by_at),
		cmocka_unit_test(test_retract_per_file),
		cmocka_unit_test(test_read_only_second),
		cmocka_unit_test(test_warnings_of_each_file),
		cmocka_unit_test(test_reviewers),
		cmocka_unit_test(test_each_current),
		cmocka_unit_test(test_open_readonly),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
