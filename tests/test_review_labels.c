/* test_review_labels.c - review/labels: reviewers' standing decisions as
 * labels on a row's scale (accept = the machine score the decision
 * recorded, override = the reviewer's), retractions, stale labels after a
 * record changed (v1 labels never stale), the reviewers filter, the row
 * thresholds, and the consensus on each scale: majority on pass/fail,
 * median on 1..5 and 0..1, ties. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <unistd.h>
#include <cmocka.h>

#include "annot/store.h"
#include "config/config.h"
#include "judge/judge.h"
#include "review/labels.h"
#include "review/rows.h"
#include "review/session.h"
#include "util/digest.h"
#include "test_files.h"
#include "util/error.h"

/* What the configurations are loaded with (the data folder of the
 * built-in prompts), as a command lends it. */
static struct config_opts test_load;

static char dir[64];
static char runs_path[128];
static struct config cfg;

/* run-1 calls get_order (lookup passes), run-2 does not. */
#define RUN1 "{\"id\":\"run-1\",\"messages\":[{\"role\":\"user\",\"content\":\"where is order 1\"}," \
	"{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"c1\",\"type\":\"function\"," \
	"\"function\":{\"name\":\"get_order\",\"arguments\":\"{}\"}}]}," \
	"{\"role\":\"tool\",\"tool_call_id\":\"c1\",\"content\":\"shipped\"}," \
	"{\"role\":\"assistant\",\"content\":\"order 1 is shipped\"}]}"
#define RUN2 "{\"id\":\"run-2\",\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}," \
	"{\"role\":\"assistant\",\"content\":\"hello there\"}]}"

/* Rows: lookup (binary, threshold 1), words (0..1, threshold 0.5), acc (a
 * 1..5 judge, threshold 4). No judge is asked: the labels come from the
 * annotations alone. */
static const char yaml[] =
	"scorers:\n"
	"  - id: lookup\n"
	"    type: tool-call-accuracy\n"
	"    expectedTool: get_order\n"
	"  - id: words\n"
	"    type: word-inclusion\n"
	"judges:\n"
	"  - id: acc\n"
	"    rubric: tool-call-accuracy-1to5\n"
	"    model: openai/judge-model\n"
	"    base_url: http://127.0.0.1:9/v1\n"
	"    threshold: 4\n";

enum { LOOKUP, WORDS, ACC };

static void write_runs(const char *text)
{
	test_write_file(runs_path, text);
}

static int setup(void **s)
{
	(void)s;
	const char *top = getenv("TCR_SRCDIR");
	test_load.datadir = top && *top ? top : ".";
	setenv("OPENAI_API_KEY", "sk-test-labels", 1);
	strcpy(dir, "/tmp/tcr-labels.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(runs_path, sizeof runs_path, "%s/runs.jsonl", dir);
	write_runs(RUN1 "\n" RUN2 "\n");
	struct error err = {0};
	if (config_load_string(&cfg, &test_load, "t.yaml", dir, yaml, sizeof yaml - 1, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		return -1;
	}
	return 0;
}

static int teardown(void **s)
{
	(void)s;
	config_free(&cfg);
	test_load.datadir = NULL;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static const char *in_dir(const char *name)
{
	static char p[4][160];
	static int k;
	k = (k + 1) % 4;
	snprintf(p[k], sizeof p[k], "%s/%s", dir, name);
	return p[k];
}

/* Opens a session on the runs with the given annotation files, every
 * entry summarized. */
static void open_review(struct review *rv, const char *const *annots, size_t n)
{
	struct error err = {0};
	char *paths[] = { runs_path };
	int rc = review_open(rv, &cfg, NULL, paths, 1, annots, n, "ann", &err);
	if (rc < 0)
		fail_msg("review_open: %s", err.msg);
	for (int i = 0; review_step(rv, 0); i++)
		assert_true(i < 1000);
	assert_int_equal(rv->nentries, 2);
}

static size_t entry_of(struct review *rv, const char *id)
{
	for (size_t i = 0; i < rv->nentries; i++)
		if (rv->entries[i].id && !strcmp(rv->entries[i].id, id))
			return i;
	fail_msg("no entry %s", id);
	return 0;
}

/* A decision as another reviewer's program wrote it. */
static void put(const char *file, enum decision_kind kind, const char *run, const char *row,
                const char *reviewer, double machine, double score, const char *run_hash)
{
	struct error err = {0};
	struct annot_store *s = annot_open(in_dir(file), &err);
	if (!s)
		fail_msg("%s", err.msg);
	struct decision d = {
		.kind = kind, .run = run, .scorer = row, .reviewer = reviewer,
		.has_machine_score = !isnan(machine), .machine_score = isnan(machine) ? 0 : machine,
		.has_score = kind == DEC_OVERRIDE || (kind == DEC_ACCEPT && !isnan(machine)),
		.score = kind == DEC_OVERRIDE ? score : machine, .run_hash = run_hash,
	};
	if (annot_append(s, &d, &err) < 0)
		fail_msg("%s", err.msg);
	annot_close(s);
}

static char hash1[65], hash2[65];

static void record_hashes(void)
{
	sha256_hex(RUN1, strlen(RUN1), hash1);
	sha256_hex(RUN2, strlen(RUN2), hash2);
}

/* ---- the labels ------------------------------------------------------- */

static void test_thresholds(void **s)
{
	(void)s;
	struct review rv;
	const char *a[] = { in_dir("thr.jsonl") };
	open_review(&rv, a, 1);
	assert_true(review_row_threshold(&rv, LOOKUP) == 1);
	assert_true(review_row_threshold(&rv, WORDS) == 0.5);
	assert_true(review_row_threshold(&rv, ACC) == 4);
	assert_true(isnan(review_row_threshold(&rv, 3)));
	review_close(&rv);
}

/* Two reviewers in one file, then a third in a file of his own: accept
 * reads the machine score the decision recorded, override the
 * reviewer's; sorted by name; each passes by the row's threshold. */
static void test_two_and_three_reviewers(void **s)
{
	(void)s;
	record_hashes();
	/* the machine said 0.25 then; the label is 0.25 whatever the verdict is now */
	put("two.jsonl", DEC_ACCEPT, "run-1", "words", "zoe", 0.25, 0, hash1);
	put("two.jsonl", DEC_OVERRIDE, "run-1", "words", "ann", 1, 0.75, hash1);
	put("two.jsonl", DEC_OVERRIDE, "run-1", "lookup", "ann", 1, 0, hash1);
	put("two.jsonl", DEC_ACCEPT, "run-1", "lookup", "zoe", 1, 1, hash1);
	struct review rv;
	const char *a[] = { in_dir("two.jsonl") };
	open_review(&rv, a, 1);
	size_t e = entry_of(&rv, "run-1");
	struct label l[LABELS_MAX];
	size_t n = review_labels(&rv, e, WORDS, NULL, 0, l, LABELS_MAX);
	assert_int_equal(n, 2);
	assert_string_equal(l[0].reviewer, "ann");
	assert_true(l[0].score == 0.75);
	assert_true(l[0].passed);
	assert_int_equal(l[0].d->kind, DEC_OVERRIDE);
	assert_string_equal(l[1].reviewer, "zoe");
	assert_true(l[1].score == 0.25);
	assert_false(l[1].passed);
	assert_int_equal(l[1].d->kind, DEC_ACCEPT);
	assert_false(l[0].stale || l[1].stale);
	struct scale unit = scale_of(SCALE_UNIT), bin = scale_of(SCALE_BINARY);
	double c;
	bool p;
	assert_int_equal(labels_consensus(l, n, &unit, 0.5, false, &c, &p), CONSENSUS_OK);
	assert_true(c == 0.5);                          /* the mean of the middle two */
	assert_true(p);                                 /* 0.5 reaches 0.5 */

	/* pass/fail: one each is a tie */
	n = review_labels(&rv, e, LOOKUP, NULL, 0, l, LABELS_MAX);
	assert_int_equal(n, 2);
	assert_false(l[0].passed);
	assert_true(l[1].passed);
	assert_int_equal(labels_consensus(l, n, &bin, 1, false, &c, &p), CONSENSUS_TIE);
	/* no labels elsewhere */
	assert_int_equal(review_labels(&rv, e, ACC, NULL, 0, l, LABELS_MAX), 0);
	assert_int_equal(review_labels(&rv, entry_of(&rv, "run-2"), LOOKUP, NULL, 0, l, LABELS_MAX), 0);
	assert_int_equal(labels_consensus(l, 0, &bin, 1, false, &c, &p), CONSENSUS_NONE);
	review_close(&rv);

	/* a third reviewer, in his own file, breaks the tie */
	put("bob.jsonl", DEC_OVERRIDE, "run-1", "lookup", "bob", 1, 1, hash1);
	const char *b[] = { in_dir("two.jsonl"), in_dir("bob.jsonl") };
	open_review(&rv, b, 2);
	n = review_labels(&rv, e, LOOKUP, NULL, 0, l, LABELS_MAX);
	assert_int_equal(n, 3);
	assert_string_equal(l[0].reviewer, "ann");
	assert_string_equal(l[1].reviewer, "bob");
	assert_string_equal(l[2].reviewer, "zoe");
	assert_int_equal(l[1].d->file, 1);
	assert_int_equal(labels_consensus(l, n, &bin, 1, false, &c, &p), CONSENSUS_OK);
	assert_true(c == 1);
	assert_true(p);
	/* the filter: only the reviewers named, in name order whatever the order given */
	const char *only[] = { "zoe", "ann" };
	n = review_labels(&rv, e, LOOKUP, only, 2, l, LABELS_MAX);
	assert_int_equal(n, 2);
	assert_string_equal(l[0].reviewer, "ann");
	assert_string_equal(l[1].reviewer, "zoe");
	const char *nobody[] = { "mia" };
	assert_int_equal(review_labels(&rv, e, LOOKUP, nobody, 1, l, LABELS_MAX), 0);
	/* at most max */
	assert_int_equal(review_labels(&rv, e, LOOKUP, NULL, 0, l, 1), 1);
	assert_string_equal(l[0].reviewer, "ann");
	/* out of range */
	assert_int_equal(review_labels(&rv, 2, LOOKUP, NULL, 0, l, LABELS_MAX), 0);
	assert_int_equal(review_labels(&rv, e, 3, NULL, 0, l, LABELS_MAX), 0);
	review_close(&rv);
}

/* A retract takes the label back to the decision before it, or to none;
 * an accept of a verdict with no score (skipped) is no label. */
static void test_retract_and_unscored(void **s)
{
	(void)s;
	record_hashes();
	put("ret.jsonl", DEC_ACCEPT, "run-2", "words", "ann", 0.5, 0, hash2);
	put("ret.jsonl", DEC_OVERRIDE, "run-2", "words", "ann", 0.5, 0.1, hash2);
	put("ret.jsonl", DEC_OVERRIDE, "run-2", "lookup", "bob", 0, 1, hash2);
	put("ret.jsonl", DEC_RETRACT, "run-2", "lookup", "bob", NAN, 0, hash2);
	put("ret.jsonl", DEC_ACCEPT, "run-2", "acc", "bob", NAN, 0, hash2);   /* no machine score */
	struct review rv;
	const char *a[] = { in_dir("ret.jsonl") };
	open_review(&rv, a, 1);
	size_t e = entry_of(&rv, "run-2");
	struct label l[LABELS_MAX];
	assert_int_equal(review_labels(&rv, e, WORDS, NULL, 0, l, LABELS_MAX), 1);
	assert_true(l[0].score == 0.1);
	struct error err = {0};
	/* ann takes her override back through the session: her accept stands */
	for (size_t i = 0; i < review_view_count(&rv); i++)
		if (review_view_entry(&rv, i) == &rv.entries[e])
			review_move_to(&rv, i);
	assert_int_equal(review_retract(&rv, WORDS, &err), 0);
	assert_int_equal(review_labels(&rv, e, WORDS, NULL, 0, l, LABELS_MAX), 1);
	assert_true(l[0].score == 0.5);
	assert_int_equal(l[0].d->kind, DEC_ACCEPT);
	assert_int_equal(review_retract(&rv, WORDS, &err), 0);
	assert_int_equal(review_labels(&rv, e, WORDS, NULL, 0, l, LABELS_MAX), 0);
	assert_int_equal(review_labels(&rv, e, LOOKUP, NULL, 0, l, LABELS_MAX), 0);
	assert_int_equal(review_labels(&rv, e, ACC, NULL, 0, l, LABELS_MAX), 0);
	review_close(&rv);
}

/* Labels made in the session record the record's hash; after the record
 * changes they are stale (and left out of the consensus unless asked
 * for), while v1 labels, which have no hash, never are. */
static void test_stale(void **s)
{
	(void)s;
	const char *a[] = { in_dir("stale.jsonl") };
	struct review rv;
	open_review(&rv, a, 1);
	size_t e1 = entry_of(&rv, "run-1");
	review_move_to(&rv, 0);
	assert_ptr_equal(review_view_entry(&rv, 0), &rv.entries[e1]);
	struct error err = {0};
	assert_int_equal(review_accept(&rv, LOOKUP, &err), 0);     /* machine 1: pass */
	assert_int_equal(review_override(&rv, WORDS, 0.2, "few", NULL, &err), 0);
	assert_false(review_entry_has_stale(&rv, e1));
	review_close(&rv);
	/* bob's v1 label on the same row, written before run_hash existed */
	FILE *f = fopen(in_dir("stale-v1.jsonl"), "w");
	assert_non_null(f);
	fputs("{\"v\":1,\"run\":\"run-1\",\"scorer\":\"lookup\",\"decision\":\"override\",\"score\":0,"
	      "\"reviewer\":\"bob\",\"at\":\"2026-01-01T00:00:00Z\"}\n", f);
	fclose(f);

	/* run-1's record changes (its answer was edited); run-2 does not */
	const char *edited = "{\"id\":\"run-1\",\"messages\":[{\"role\":\"user\",\"content\":\"where is order 1\"},"
		"{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"c1\",\"type\":\"function\","
		"\"function\":{\"name\":\"get_order\",\"arguments\":\"{}\"}}]},"
		"{\"role\":\"tool\",\"tool_call_id\":\"c1\",\"content\":\"shipped\"},"
		"{\"role\":\"assistant\",\"content\":\"order 1 is on its way\"}]}";
	char text[2048];
	snprintf(text, sizeof text, "%s\n%s\n", edited, RUN2);
	write_runs(text);
	const char *b[] = { in_dir("stale.jsonl"), in_dir("stale-v1.jsonl") };
	open_review(&rv, b, 2);
	e1 = entry_of(&rv, "run-1");
	struct label l[LABELS_MAX];
	size_t n = review_labels(&rv, e1, LOOKUP, NULL, 0, l, LABELS_MAX);
	assert_int_equal(n, 2);
	assert_string_equal(l[0].reviewer, "ann");
	assert_true(l[0].stale);
	assert_true(l[0].passed);
	assert_string_equal(l[1].reviewer, "bob");
	assert_false(l[1].stale);                       /* v1: nothing to compare */
	assert_null(l[1].d->run_hash);
	assert_true(review_entry_has_stale(&rv, e1));
	assert_false(review_entry_has_stale(&rv, entry_of(&rv, "run-2")));
	assert_false(review_entry_has_stale(&rv, 7));
	/* stale left out: bob's fail alone; included: a tie */
	struct scale bin = scale_of(SCALE_BINARY);
	double c;
	bool p;
	assert_int_equal(labels_consensus(l, n, &bin, 1, false, &c, &p), CONSENSUS_OK);
	assert_true(c == 0);
	assert_false(p);
	assert_int_equal(labels_consensus(l, n, &bin, 1, true, &c, &p), CONSENSUS_TIE);
	/* only stale labels: none */
	n = review_labels(&rv, e1, WORDS, NULL, 0, l, LABELS_MAX);
	assert_int_equal(n, 1);
	assert_true(l[0].stale);
	struct scale unit = scale_of(SCALE_UNIT);
	assert_int_equal(labels_consensus(l, n, &unit, 0.5, false, &c, &p), CONSENSUS_NONE);
	assert_int_equal(labels_consensus(l, n, &unit, 0.5, true, &c, &p), CONSENSUS_OK);
	assert_true(c == 0.2);
	review_close(&rv);
	write_runs(RUN1 "\n" RUN2 "\n");

	/* back as it was, nothing is stale */
	open_review(&rv, b, 2);
	assert_false(review_entry_has_stale(&rv, entry_of(&rv, "run-1")));
	review_close(&rv);
}

/* ---- the consensus on each scale ------------------------------------------ */

static size_t mk(struct label *l, const double *scores, size_t n, double threshold)
{
	for (size_t i = 0; i < n; i++)
		l[i] = (struct label){ .reviewer = "r", .score = scores[i], .passed = scores[i] >= threshold };
	return n;
}

static void expect_ok(const double *v, size_t n, const struct scale *span, double thr,
                      double want, bool want_pass)
{
	struct label l[LABELS_MAX];
	double c = -1;
	bool p = !want_pass;
	assert_int_equal(labels_consensus(l, mk(l, v, n, thr), span, thr, false, &c, &p), CONSENSUS_OK);
	assert_float_equal(c, want, 1e-12);
	assert_int_equal(p, want_pass);
}

static void expect_tie(const double *v, size_t n, const struct scale *span, double thr)
{
	struct label l[LABELS_MAX];
	double c = -7;
	bool p = true;
	assert_int_equal(labels_consensus(l, mk(l, v, n, thr), span, thr, false, &c, &p), CONSENSUS_TIE);
	assert_true(c == -7);                           /* left alone */
}

static void test_consensus_binary(void **s)
{
	(void)s;
	struct scale bin = scale_of(SCALE_BINARY);
	expect_ok((double[]){ 1 }, 1, &bin, 1, 1, true);
	expect_ok((double[]){ 0 }, 1, &bin, 1, 0, false);
	expect_ok((double[]){ 1, 0, 1 }, 3, &bin, 1, 1, true);
	expect_ok((double[]){ 0, 0, 1 }, 3, &bin, 1, 0, false);
	expect_ok((double[]){ 1, 1, 0, 1 }, 4, &bin, 1, 1, true);
	expect_tie((double[]){ 1, 0 }, 2, &bin, 1);
	expect_tie((double[]){ 0, 1, 1, 0 }, 4, &bin, 1);
}

static void test_consensus_1to5(void **s)
{
	(void)s;
	struct scale five = scale_of(SCALE_1TO5);
	expect_ok((double[]){ 4 }, 1, &five, 4, 4, true);
	expect_ok((double[]){ 5, 1, 3 }, 3, &five, 4, 3, false);      /* median 3 */
	expect_ok((double[]){ 2, 4, 5 }, 3, &five, 4, 4, true);
	expect_ok((double[]){ 4, 2, 4, 5 }, 4, &five, 3, 4, true);    /* middle two 4, 4 */
	expect_tie((double[]){ 3, 4 }, 2, &five, 3);                  /* middle two differ */
	expect_tie((double[]){ 1, 2, 4, 5 }, 4, &five, 3);
}

static void test_consensus_unit(void **s)
{
	(void)s;
	struct scale unit = scale_of(SCALE_UNIT);
	expect_ok((double[]){ 0.3 }, 1, &unit, 0.5, 0.3, false);
	expect_ok((double[]){ 0.9, 0.1, 0.6 }, 3, &unit, 0.5, 0.6, true);
	expect_ok((double[]){ 0.2, 0.7 }, 2, &unit, 0.5, 0.45, false); /* the mean of the middle two */
	expect_ok((double[]){ 0, 0.4, 0.8, 1 }, 4, &unit, 0.5, 0.6, true);
	expect_ok((double[]){ 0.4, 0.6 }, 2, &unit, 0.5, 0.5, true);   /* on the threshold passes */
	/* a custom judge's continuous span (more levels than an integer
	 * scale has, or bounds that are not whole) counts like 0..1 */
	struct scale hundred = { SCALE_UNIT, 0, 100 };
	expect_ok((double[]){ 20, 90 }, 2, &hundred, 60, 55, false);
	struct scale half = { SCALE_UNIT, 0.5, 2.5 };
	expect_ok((double[]){ 1, 2 }, 2, &half, 1.2, 1.5, true);
	/* whole-number bounds of at most eleven levels are an integer scale,
	 * as 1..5 is: halfway between two levels is a tie */
	struct scale ten = { SCALE_UNIT, 0, 10 };
	expect_tie((double[]){ 2, 9 }, 2, &ten, 6);
	expect_ok((double[]){ 2, 9, 9 }, 3, &ten, 6, 9, true);
	expect_ok((double[]){ 2, 4, 4, 9 }, 4, &ten, 6, 4, false);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_thresholds),
		cmocka_unit_test(test_two_and_three_reviewers),
		cmocka_unit_test(test_retract_and_unscored),
		cmocka_unit_test(test_stale),
		cmocka_unit_test(test_consensus_binary),
		cmocka_unit_test(test_consensus_1to5),
		cmocka_unit_test(test_consensus_unit),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
