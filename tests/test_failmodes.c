/* test_failmodes.c - the failure modes of the reviewers' tags (review/failmodes.c)
 * a defined tag as a calibration criterion (review/calib.c) and per-call
 * labels as their own (review/calib_calls.c), every
 * figure checked against a hand computation written beside it.
 *
 * The set is tests/data/tags-runs.jsonl (eight runs, get_order called in
 * r1..r5, cancel_order in r6..r8) with tests/data/tags-annotations.jsonl:
 *   alice: r1 a note; r2 "bad tool" (absorbed by wrong-tool); r3 "oops" on
 *          call 1, then oops renamed to wrong-tool (a tag-alias); r6
 *          wrong-tool on call 1; r7 a call label and "bad tool" on call 1
 *   bob:   r2 "Bad  TOOL" (case and spaces aside: bad tool); r6 a note; r7
 *          wrong-tool; r8 "slow" (a free code); r4 "slow" taken back
 * So, for wrong-tool (1 tagged, 0 reviewed without it):
 *          r1  r2  r3  r4  r5  r6  r7  r8
 *   alice   0   1   1   .   .   1   1   .
 *   bob     .   1   .   .   .   0   1   0
 *   cons.   0   1   1   .   .  tie  1   0 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "judge/judge.h"
#include "review/calib.h"
#include "review/failmodes.h"
#include "review/session.h"
#include "util/error.h"

static struct config_opts test_load;
static char runs_path[512], tags_annot[512];

/* lookup passes when get_order is called (r1..r5): present when it fails,
 * so r6 r7 r8; lookup-pass says present when it passes, so r1..r5. The
 * judge j (0..1, passes at 0.5) answers 1 on r2 r3 r6 r7 r8. */
static const char yaml[] =
	"tags:\n"
	"  - id: wrong-tool\n"
	"    absorbs: [bad tool]\n"
	"  - id: no-confirm\n"
	"scorers:\n"
	"  - id: lookup\n"
	"    type: tool-call-accuracy\n"
	"    expectedTool: get_order\n"
	"    criterion: {tag: wrong-tool, present_when: fail}\n"
	"  - id: lookup-pass\n"
	"    type: tool-call-accuracy\n"
	"    expectedTool: get_order\n"
	"    criterion: wrong-tool\n"
	"judges:\n"
	"  - id: j\n"
	"    rubric: tool-appropriateness\n"
	"    model: openai/gpt-4o-mini\n"
	"    criterion: wrong-tool\n";

static const double j_scores[8] = { 0, 1, 1, 0, 0, 1, 1, 1 };

static int setup(void **s)
{
	(void)s;
	const char *src = getenv("TCR_SRCDIR");
	test_load.datadir = src && *src ? src : ".";
	snprintf(runs_path, sizeof runs_path, "%s/tests/data/tags-runs.jsonl", test_load.datadir);
	snprintf(tags_annot, sizeof tags_annot, "%s/tests/data/tags-annotations.jsonl",
	         test_load.datadir);
	return 0;
}

static size_t entry_of(struct review *rv, int run)
{
	char id[16];
	snprintf(id, sizeof id, "r%d", run);
	for (size_t e = 0; e < rv->nentries; e++)
		if (rv->entries[e].id && !strcmp(rv->entries[e].id, id))
			return e;
	fail_msg("no run %s", id);
	return 0;
}

static void open_tagged(struct review *rv, struct config *cfg)
{
	struct error err = {0};
	if (config_load_string(cfg, &test_load, "t.yaml", ".", yaml, sizeof yaml - 1, &err) < 0)
		fail_msg("config: %s", err.msg);
	char *paths[] = { runs_path };
	const char *annots[] = { tags_annot };
	if (review_open_reading(rv, NULL, cfg, NULL, paths, 1, annots, 1, "t", &err) < 0)
		fail_msg("review_open_reading: %s", err.msg);
	while (review_step(rv, 0))
		;
	for (int i = 0; i < 8; i++) {
		struct verdict v = { 0 };
		verdict_ok(&v, 0.5, j_scores[i], NULL);
		review_judge_done(rv, entry_of(rv, i + 1), 0, &v);
		verdict_clear(&v);
	}
}

static void close_tagged(struct review *rv, struct config *cfg)
{
	review_close(rv);
	config_free(cfg);
}

static const struct calib_pair *pair(const struct calib *c, const char *row, const char *b)
{
	for (size_t i = 0; i < c->npairs; i++) {
		const struct calib_pair *p = &c->pairs[i];
		if (!strcmp(p->row, row) && !strcmp(p->b, b) && p->kind == CALIB_MACHINE_HUMAN)
			return p;
	}
	fail_msg("no pair %s ~ %s", row, b);
	return NULL;
}

static void assert_fig(const struct calib_fig *f, double want)
{
	if (!f->ok)
		fail_msg("figure undefined (%s), want %.9g", f->why ? f->why : "n/a", want);
	if (fabs(f->v - want) > 1e-9)
		fail_msg("figure %.9g, want %.9g", f->v, want);
}

/* Each reviewer's label per run: reviewed without the tag 0, tagged on
 * the run or a call 1 (absorbs, aliases, case and spaces followed). */
static void test_tag_labels(void **state)
{
	(void)state;
	struct review rv;
	struct config cfg;
	open_tagged(&rv, &cfg);
	/* run, then alice's and bob's label: -1 none */
	static const int want[8][2] = {
		{ 0, -1 }, { 1, 1 }, { 1, -1 }, { -1, -1 }, { -1, -1 }, { 1, 0 }, { 1, 1 }, { -1, 0 },
	};
	for (int r = 0; r < 8; r++) {
		struct label l[LABELS_MAX];
		size_t n = review_tag_labels(&rv, entry_of(&rv, r + 1), "wrong-tool", NULL, 0, l,
		                             LABELS_MAX);
		size_t k = 0;
		for (int w = 0; w < 2; w++) {
			if (want[r][w] < 0)
				continue;
			if (k >= n)
				fail_msg("r%d: %zu labels, want more", r + 1, n);
			assert_string_equal(l[k].reviewer, w ? "bob" : "alice");
			if (l[k].passed != (want[r][w] == 1) || l[k].score != want[r][w] || l[k].stale)
				fail_msg("r%d %s: label %g, want %d", r + 1, l[k].reviewer, l[k].score,
				         want[r][w]);
			k++;
		}
		assert_int_equal(n, k);
	}
	/* Only bob's: r2 1. */
	const char *bob[] = { "bob" };
	struct label l[LABELS_MAX];
	assert_int_equal(review_tag_labels(&rv, entry_of(&rv, 2), "wrong-tool", bob, 1, l, LABELS_MAX), 1);
	assert_string_equal(l[0].reviewer, "bob");
	assert_int_equal(review_tag_labels(&rv, entry_of(&rv, 1), "wrong-tool", bob, 1, l, LABELS_MAX), 0);
	close_tagged(&rv, &cfg);
}

/* lookup, present when it fails (r6 r7 r8), against the consensus: the
 * items r1 (0,0) r2 (0,1) r3 (0,1) r7 (1,1) r8 (1,0), r6 a tie.
 *   agreement 2/5 = 0.4; machine present 2/5, humans 3/5:
 *   pe = 0.4*0.6 + 0.6*0.4 = 0.48, kappa = (0.4-0.48)/0.52 = -0.153846...
 *   TPR: present by the humans r2 r3 r7, the machine says so on r7: 1/3
 *   TNR: absent r1 r8, the machine says so on r1: 1/2
 * lookup-pass, present when it passes (r1..r5): r1 (1,0) r2 (1,1)
 * r3 (1,1) r7 (0,1) r8 (0,0): agreement 3/5, machine 3/5, humans 3/5:
 *   pe = 0.6*0.6 + 0.4*0.4 = 0.52, kappa = (0.6-0.52)/0.48 = 1/6; TPR 2/3, TNR 1/2. */
static void test_tag_criterion(void **state)
{
	(void)state;
	struct review rv;
	struct config cfg;
	open_tagged(&rv, &cfg);
	struct calib c;
	struct error err = {0};
	assert_int_equal(calib_build(&c, &rv, NULL, &err), 0);
	const struct calib_pair *p = pair(&c, "lookup", "human");
	assert_string_equal(p->criterion, "tag:wrong-tool");
	assert_string_equal(p->a, "scorer:lookup");
	assert_true(p->tag);
	assert_false(p->present_pass);
	assert_int_equal(p->n, 5);
	assert_int_equal(p->ties, 1);
	assert_fig(&p->agreement, 0.4);
	assert_fig(&p->kappa, -0.08 / 0.52);
	assert_fig(&p->tpr, 1.0 / 3);
	assert_fig(&p->tnr, 0.5);
	assert_string_equal(p->cat_names[0], "absent");
	assert_string_equal(p->cat_names[1], "present");
	/* rows the machine, columns the humans: absent/absent r1, absent/present r2 r3,
	 * present/absent r8, present/present r7 */
	assert_int_equal(p->counts[0], 1);
	assert_int_equal(p->counts[1], 2);
	assert_int_equal(p->counts[2], 1);
	assert_int_equal(p->counts[3], 1);
	assert_ptr_equal(calib_find(&c, "lookup"), p);
	/* alice alone: r1 (0,0) r2 (0,1) r3 (0,1) r6 (1,1) r7 (1,1): 3/5 */
	assert_fig(&pair(&c, "lookup", "human:alice")->agreement, 0.6);

	p = pair(&c, "lookup-pass", "human");
	assert_true(p->present_pass);
	assert_int_equal(p->n, 5);
	assert_fig(&p->agreement, 0.6);
	assert_fig(&p->kappa, 0.08 / 0.48);
	assert_fig(&p->tpr, 2.0 / 3);
	assert_fig(&p->tnr, 0.5);
	calib_free(&c);
	close_tagged(&rv, &cfg);
}

/* The judge j answers present (1, passing) on r2 r3 r6 r7 r8: items r1
 * (0,0) r2 (1,1) r3 (1,1) r7 (1,1) r8 (1,0): agreement 4/5; machine 4/5,
 * humans 3/5: pe = 0.8*0.6 + 0.2*0.4 = 0.56, kappa = 0.24/0.44 = 6/11;
 * TPR 3/3, TNR 1/2. Only bob's labels: r2 (1,1) r6 (1,0) r7 (1,1) r8 (1,0). */
static void test_judge_criterion(void **state)
{
	(void)state;
	struct review rv;
	struct config cfg;
	open_tagged(&rv, &cfg);
	struct calib c;
	struct error err = {0};
	assert_int_equal(calib_build(&c, &rv, NULL, &err), 0);
	const struct calib_pair *p = pair(&c, "j", "human");
	assert_string_equal(p->criterion, "tag:wrong-tool");
	assert_string_equal(p->a, "judge:j");
	assert_fig(&p->agreement, 0.8);
	assert_fig(&p->kappa, 6.0 / 11);
	assert_fig(&p->tpr, 1);
	assert_fig(&p->tnr, 0.5);
	calib_free(&c);
	const char *bob[] = { "bob" };
	struct calib_opts o = { .reviewers = bob, .nreviewers = 1 };
	assert_int_equal(calib_build(&c, &rv, &o, &err), 0);
	p = pair(&c, "j", "human");
	assert_int_equal(p->n, 4);
	assert_fig(&p->agreement, 0.5);
	assert_fig(&p->tpr, 1);
	assert_fig(&p->tnr, 0);
	calib_free(&c);
	close_tagged(&rv, &cfg);
}

static const struct failmode *row_of(const struct failmodes *f, const char *tag, const char *who)
{
	for (size_t i = 0; i < f->n; i++)
		if (!strcmp(f->rows[i].tag, tag) &&
		    (who ? f->rows[i].reviewer && !strcmp(f->rows[i].reviewer, who) : !f->rows[i].reviewer))
			return &f->rows[i];
	return NULL;
}

/* Reviewed: r1 r2 r3 r6 r7 r8 (6; r4's only tag was taken back); alice
 * r1 r2 r3 r6 r7 (5), bob r2 r6 r7 r8 (4). wrong-tool: r2 r3 r6 r7 (4),
 * calls r3#1 r6#1 r7#1 (3); alice 4 of 5, bob r2 r7 (2 of 4). slow: bob's
 * r8. Wilson at 95% for 4 of 6: centre (p + z²/2n)/(1 + z²/n) with
 * z = 1.959964, half-width z·sqrt(p(1-p)/n + z²/4n²)/(1 + z²/n):
 * 0.601612 ± 0.301617 = [0.299995, 0.903229]. */
static void test_failmodes_counts(void **state)
{
	(void)state;
	struct review rv;
	struct config cfg;
	open_tagged(&rv, &cfg);
	struct failmodes f;
	review_failmodes(&rv, NULL, 0, &f);
	assert_int_equal(f.reviewed, 6);
	assert_int_equal(f.nreviewers, 2);
	/* The defined ones first, in order, then the free codes. */
	assert_string_equal(f.rows[0].tag, "wrong-tool");
	assert_string_equal(f.rows[3].tag, "no-confirm");
	assert_string_equal(f.rows[6].tag, "slow");
	assert_int_equal(f.n, 9);
	const struct failmode *r = row_of(&f, "wrong-tool", NULL);
	assert_true(r->defined);
	assert_int_equal(r->runs, 4);
	assert_int_equal(r->reviewed, 6);
	assert_int_equal(r->calls, 3);
	assert_true(fabs(r->share - 4.0 / 6) < 1e-12);
	assert_true(fabs(r->low - 0.299993) < 1e-5);
	assert_true(fabs(r->high - 0.903229) < 1e-5);
	r = row_of(&f, "wrong-tool", "alice");
	assert_int_equal(r->runs, 4);
	assert_int_equal(r->reviewed, 5);
	assert_int_equal(r->calls, 3);
	r = row_of(&f, "wrong-tool", "bob");
	assert_int_equal(r->runs, 2);
	assert_int_equal(r->reviewed, 4);
	assert_int_equal(r->calls, 0);
	r = row_of(&f, "no-confirm", NULL);
	assert_int_equal(r->runs, 0);
	assert_true(r->ok && r->low == 0);
	r = row_of(&f, "slow", NULL);
	assert_false(r->defined);
	assert_int_equal(r->runs, 1);
	assert_null(row_of(&f, "oops", NULL));
	assert_null(row_of(&f, "bad tool", NULL));
	failmodes_free(&f);
	const char *bob[] = { "bob" };
	review_failmodes(&rv, bob, 1, &f);
	assert_int_equal(f.reviewed, 4);
	assert_int_equal(row_of(&f, "wrong-tool", NULL)->runs, 2);
	failmodes_free(&f);
	close_tagged(&rv, &cfg);
}

static void assert_load_error(const char *text, const char *want)
{
	struct config c;
	struct error err = {0};
	assert_int_equal(config_load_string(&c, &test_load, "t.yaml", ".", text, strlen(text), &err), -1);
	assert_string_equal(err.msg, want);
}

/* criterion: names a defined tag; FILE:LINE:COLUMN otherwise. */
static void test_criterion_errors(void **state)
{
	(void)state;
	const char *tags = "tags:\n  - id: wrong-tool\n    absorbs: [bad tool]\n";
	char buf[1024];
	snprintf(buf, sizeof buf, "%sscorers:\n  - id: s\n    type: tool-errors\n    criterion: nope\n", tags);
	assert_load_error(buf, "t.yaml:7:16: scorer 's': criterion 'nope' is not a failure mode "
	                  "defined in tags: (defined: wrong-tool)");
	snprintf(buf, sizeof buf, "%sscorers:\n  - id: s\n    type: tool-errors\n    criterion: bad tool\n", tags);
	assert_load_error(buf, "t.yaml:7:16: scorer 's': criterion 'bad tool' is not a failure mode "
	                  "defined in tags: (it is absorbed by wrong-tool)");
	snprintf(buf, sizeof buf, "scorers:\n  - id: s\n    type: tool-errors\n"
	         "    criterion: {tag: wrong-tool, present_when: maybe}\n%s", tags);
	assert_load_error(buf, "t.yaml:4:48: 'present_when' is pass or fail, not 'maybe'");
	snprintf(buf, sizeof buf, "scorers:\n  - id: s\n    type: tool-errors\n"
	         "    criterion: {tags: wrong-tool}\n");
	assert_load_error(buf, "t.yaml:4:17: unknown key 'tags' in 'criterion' (known: tag, present_when)");
	/* tags: after the judges: checked once every section is read. */
	snprintf(buf, sizeof buf, "judges:\n  - id: j\n    rubric: tool-appropriateness\n"
	         "    model: openai/m\n    criterion: wrong-tool\n%s", tags);
	struct config c;
	struct error err = {0};
	assert_int_equal(config_load_string(&c, &test_load, "t.yaml", ".", buf, strlen(buf), &err), 0);
	assert_string_equal(c.judges[0].criterion.tag, "wrong-tool");
	assert_true(c.judges[0].criterion.present_when_pass);
	config_free(&c);
}

/* Per-call labels: tests/data/calls-runs.jsonl (c1: get_order ok,
 * refund_order "Error: denied", get_order ok; c2: get_order ok; c3:
 * cancel_order "Error: nope") with calls-labels.jsonl:
 *            c1#1   c1#2   c1#3   c2#1      c3#1
 *   alice    1      0      0      0.5       0
 *   bob      1      1      .      .         0
 *   right    R,R    W,R    W      W (0.5 < 1) W,W
 *   cons.    R      tie    W      W         W
 *   errs     R      W      R      R         W      (tool-errors marks the failed calls)
 * Against the consensus: (R,R) (R,W) (R,W) (W,W): agreement 2/4; machine
 * right 3/4, humans 1/4: pe = 0.75*0.25 + 0.25*0.75 = 0.375, kappa =
 * 0.125/0.625 = 0.2; TPR (right) 1/1, TNR (wrong) 1/3. alice: 3/5 agree,
 * bob 2/3, alice ~ bob 2/3. lookup (no call marks) gives no such pair. */
static void test_call_pairs(void **state)
{
	(void)state;
	static const char cyaml[] =
		"scorers:\n"
		"  - id: errs\n"
		"    type: tool-errors\n"
		"  - id: lookup\n"
		"    type: tool-call-accuracy\n"
		"    expectedTool: get_order\n";
	char runs[512], labs[512];
	snprintf(runs, sizeof runs, "%s/tests/data/calls-runs.jsonl", test_load.datadir);
	snprintf(labs, sizeof labs, "%s/tests/data/calls-labels.jsonl", test_load.datadir);
	struct config cfg;
	struct review rv;
	struct error err = {0};
	if (config_load_string(&cfg, &test_load, "c.yaml", ".", cyaml, sizeof cyaml - 1, &err) < 0)
		fail_msg("config: %s", err.msg);
	char *paths[] = { runs };
	const char *annots[] = { labs };
	if (review_open_reading(&rv, NULL, &cfg, NULL, paths, 1, annots, 1, "t", &err) < 0)
		fail_msg("review_open_reading: %s", err.msg);
	while (review_step(&rv, 0))
		;
	struct calib c;
	assert_int_equal(calib_build(&c, &rv, NULL, &err), 0);
	calib_calls(&c, &rv, NULL);
	const struct calib_pair *p = calib_find(&c, "calls:errs");
	assert_non_null(p);
	assert_true(p->calls);
	assert_string_equal(p->a, "scorer:errs");
	assert_int_equal(p->n, 4);
	assert_int_equal(p->ties, 1);
	assert_fig(&p->agreement, 0.5);
	assert_fig(&p->kappa, 0.2);
	assert_fig(&p->tpr, 1);
	assert_fig(&p->tnr, 1.0 / 3);
	assert_string_equal(p->cat_names[0], "wrong");
	assert_string_equal(p->cat_names[1], "right");
	/* rows errs, columns the humans: wrong/wrong c3#1, right/wrong c1#3 c2#1, right/right c1#1 */
	assert_int_equal(p->counts[0], 1);
	assert_int_equal(p->counts[1], 0);
	assert_int_equal(p->counts[2], 2);
	assert_int_equal(p->counts[3], 1);
	bool alice = false, bob = false, both = false;
	for (size_t i = 0; i < c.npairs; i++) {
		const struct calib_pair *q = &c.pairs[i];
		assert_false(!strcmp(q->criterion, "calls:lookup"));
		if (strcmp(q->criterion, "calls:errs"))
			continue;
		if (!strcmp(q->b, "human:alice")) {
			assert_fig(&q->agreement, 0.6);
			alice = true;
		} else if (!strcmp(q->b, "human:bob") && !strcmp(q->a, "scorer:errs")) {
			assert_fig(&q->agreement, 2.0 / 3);
			bob = true;
		} else if (!strcmp(q->a, "human:alice")) {
			assert_int_equal(q->kind, CALIB_HUMAN_HUMAN);
			assert_fig(&q->agreement, 2.0 / 3);
			both = true;
		}
	}
	assert_true(alice && bob && both);
	calib_free(&c);
	review_close(&rv);
	config_free(&cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tag_labels),
		cmocka_unit_test(test_tag_criterion),
		cmocka_unit_test(test_judge_criterion),
		cmocka_unit_test(test_failmodes_counts),
		cmocka_unit_test(test_criterion_errors),
		cmocka_unit_test(test_call_pairs),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
