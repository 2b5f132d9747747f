/* test_calib.c - the calibration figures (review/calib) on a small labelled
 * set, every figure checked against a hand computation written beside it.
 *
 * Eight runs; a binary code scorer (lookup: passes when get_order is
 * called), a 1..5 judge (j5, passes at 4) and a 0..1 judge (j01, passes at
 * 0.5) whose verdicts the test puts in the judge cells as the cache would;
 * three reviewers (alice, bob, carol) in two annotations files, with
 * accepts, overrides, a tie, a three-way median and a label made before
 * its run's record changed (stale). No server: nothing is asked. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "judge/judge.h"
#include "review/calib.h"
#include "review/session.h"
#include "util/digest.h"
#include "util/error.h"

/* What the configurations are loaded with (the data folder of the
 * built-in prompts), as a command lends it. */
static struct config_opts test_load;

#define EPS 1e-9
#define NRUNS 8

static char dir[64];
static char runs_path[128], annot_a[128], annot_b[128];
static struct config cfg;
/* The records as labelled, and as loaded (r8 changed since bob labelled it). */
static char lines[NRUNS][512], loaded[NRUNS][512];

/*            r1  r2  r3  r4  r5  r6  r7  r8
 * lookup      P   P   P   P   P   F   F   F     (get_order called in r1..r5)
 * j5          5   4   2   3   1   1   4   2     (passes at 4: r1 r2 r7)
 * j01        .9  .2  .6  .4   -   -   -   -     (passes at .5: r1 r3) */
static const double j5_scores[NRUNS] = { 5, 4, 2, 3, 1, 1, 4, 2 };
static const double j01_scores[4] = { 0.9, 0.2, 0.6, 0.4 };

static const char yaml[] =
	"scorers:\n"
	"  - id: lookup\n"
	"    type: tool-call-accuracy\n"
	"    expectedTool: get_order\n"
	"judges:\n"
	"  - id: j5\n"
	"    rubric: tool-call-accuracy-1to5\n"
	"    model: openai/gpt-4o-mini\n"
	"    threshold: 4\n"
	"  - id: j01\n"
	"    rubric: tool-appropriateness\n"
	"    model: openai/gpt-4o-mini\n"
	"compare: [[lookup, j5]]\n";

static void run_line(char *out, size_t n, int i, const char *extra)
{
	snprintf(out, n,
	         "{\"id\":\"r%d\",%s\"messages\":[{\"role\":\"user\",\"content\":\"Order %d?\"},"
	         "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"c1\",\"type\":"
	         "\"function\",\"function\":{\"name\":\"%s\",\"arguments\":\"{}\"}}]},"
	         "{\"role\":\"tool\",\"tool_call_id\":\"c1\",\"content\":\"ok\"},"
	         "{\"role\":\"assistant\",\"content\":\"Done.\"}]}",
	         i + 1, extra, i + 1, i < 5 ? "get_order" : "cancel_order");
}

/* One decision line; its run_hash is that of the record as labelled. */
static void label(FILE *f, int run, const char *crit, const char *who, const char *kind,
                  double score)
{
	char hash[SHA256_HEX_LEN + 1];
	sha256_hex(lines[run - 1], strlen(lines[run - 1]), hash);
	/* An accept records the machine's score as its own, as the screen writes it. */
	char machine[64] = "";
	if (!strcmp(kind, "accept"))
		snprintf(machine, sizeof machine, "\"machine_score\":%g,", score);
	fprintf(f, "{\"v\":2,\"run\":\"r%d\",\"source\":\"runs.jsonl:%d\",\"run_hash\":\"%s\","
	        "\"scorer\":\"%s\",%s\"decision\":\"%s\",\"score\":%g,\"reviewer\":\"%s\","
	        "\"blind\":false,\"at\":\"2026-01-0%dT00:00:00Z\"}\n",
	        run, run, hash, crit, machine, kind, score, who, run);
}

/* lookup (binary):
 *   r1 alice 1, bob 1          -> pass
 *   r2 alice 0, bob 1          -> tie
 *   r3 alice 1, bob 0, carol 0 -> fail (majority)
 *   r4 alice 1                 -> pass
 *   r6 alice 0, bob 0          -> fail
 *   r7 alice 1, carol 1        -> pass
 *   r8 bob 0, stale            -> (left out)
 * j5 (1..5): r1 alice 5, bob 5; r2 alice 3; r3 alice 2, bob 1, carol 3
 *   (median 2); r4 alice 4; r6 alice 2; r7 bob 4
 * j01 (0..1), alice: r1 1.0, r2 0.0, r3 accept (0.6), r4 0.8 */
static void write_labels(void)
{
	FILE *a = fopen(annot_a, "wb"), *b = fopen(annot_b, "wb");
	assert_non_null(a);
	assert_non_null(b);
	label(a, 1, "lookup", "alice", "accept", 1);
	label(a, 2, "lookup", "alice", "override", 0);
	label(a, 3, "lookup", "alice", "accept", 1);
	label(a, 4, "lookup", "alice", "accept", 1);
	label(a, 6, "lookup", "alice", "accept", 0);
	label(a, 7, "lookup", "alice", "override", 1);
	label(b, 1, "lookup", "bob", "accept", 1);
	label(b, 2, "lookup", "bob", "accept", 1);
	label(b, 3, "lookup", "bob", "override", 0);
	label(b, 6, "lookup", "bob", "accept", 0);
	label(b, 8, "lookup", "bob", "accept", 0);
	label(b, 3, "lookup", "carol", "override", 0);
	label(b, 7, "lookup", "carol", "override", 1);
	label(a, 1, "j5", "alice", "accept", 5);
	label(a, 2, "j5", "alice", "override", 3);
	label(a, 3, "j5", "alice", "accept", 2);
	label(a, 4, "j5", "alice", "override", 4);
	label(a, 6, "j5", "alice", "override", 2);
	label(b, 1, "j5", "bob", "override", 5);
	label(b, 3, "j5", "bob", "override", 1);
	label(b, 7, "j5", "bob", "accept", 4);
	label(b, 3, "j5", "carol", "override", 3);
	label(a, 1, "j01", "alice", "override", 1.0);
	label(a, 2, "j01", "alice", "override", 0.0);
	label(a, 3, "j01", "alice", "accept", 0.6);
	label(a, 4, "j01", "alice", "override", 0.8);
	fclose(a);
	fclose(b);
}

static int setup(void **s)
{
	(void)s;
	const char *src = getenv("TCR_SRCDIR");
	test_load.datadir = src && *src ? src : ".";
	strcpy(dir, "/tmp/tcr-calib.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(runs_path, sizeof runs_path, "%s/runs.jsonl", dir);
	snprintf(annot_a, sizeof annot_a, "%s/alice.jsonl", dir);
	snprintf(annot_b, sizeof annot_b, "%s/others.jsonl", dir);
	for (int i = 0; i < NRUNS; i++) {
		run_line(lines[i], sizeof lines[i], i, "");
		run_line(loaded[i], sizeof loaded[i], i, i == 7 ? "\"edited\":true," : "");
	}
	FILE *f = fopen(runs_path, "wb");
	if (!f)
		return -1;
	for (int i = 0; i < NRUNS; i++)
		fprintf(f, "%s\n", loaded[i]);
	fclose(f);
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
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
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

/* The session with every run scored and the judges' verdicts in their
 * cells, as the cache would fill them. */
static void open_labelled(struct review *rv)
{
	write_labels();
	struct error err = {0};
	char *paths[] = { runs_path };
	const char *annots[] = { annot_a, annot_b };
	int rc = review_open_reading(rv, NULL, &cfg, NULL, paths, 1, annots, 2, "t", &err);
	if (rc < 0)
		fail_msg("review_open_reading: %s", err.msg);
	while (review_step(rv, 0))
		;
	for (int i = 0; i < NRUNS; i++) {
		struct verdict v = { 0 };
		verdict_ok(&v, 4, j5_scores[i], NULL);
		review_judge_done(rv, entry_of(rv, i + 1), 0, &v);
		verdict_clear(&v);
		if (i < 4) {
			verdict_ok(&v, 0.5, j01_scores[i], NULL);
			review_judge_done(rv, entry_of(rv, i + 1), 1, &v);
			verdict_clear(&v);
		}
	}
}

static const struct calib_pair *pair(const struct calib *c, const char *crit, const char *a,
                                     const char *b)
{
	for (size_t i = 0; i < c->npairs; i++) {
		const struct calib_pair *p = &c->pairs[i];
		if (!strcmp(p->criterion, crit) && !strcmp(p->a, a) && !strcmp(p->b, b))
			return p;
	}
	return NULL;
}

static void assert_fig(const struct calib_fig *f, double want)
{
	if (!f->ok)
		fail_msg("figure undefined (%s), want %.9g", f->why ? f->why : "n/a", want);
	if (fabs(f->v - want) > 1e-6)
		fail_msg("figure %.9g, want %.9g", f->v, want);
}

static void assert_na(const struct calib_fig *f)
{
	assert_false(f->ok);
	assert_null(f->why);
}

static void assert_undefined(const struct calib_fig *f)
{
	assert_false(f->ok);
	assert_non_null(f->why);
}

static void build(struct review *rv, struct calib *c, const struct calib_opts *o)
{
	struct error err = {0};
	if (calib_build(c, rv, o, &err) < 0)
		fail_msg("calib_build: %s", err.msg);
}

/* ---- binary: lookup ------------------------------------------------------------ */

/* lookup ~ human on r1 (P,P), r3 (P,F), r4 (P,P), r6 (F,F), r7 (F,P); r2
 * tied, r8's only label stale.
 *   agreement 3/5; kappa: pe = .4*.4 + .6*.6 = .52, (.6 - .52) / .48 = 1/6
 *   alpha (nominal, 10 values): o00 2, o01 2, o10 2, o11 4, n0 4, n1 6:
 *     1 - 9 * 4 / (2 * 4 * 6) = .25
 *   tpr 2/3 (r1, r4 of r1 r4 r7), tnr 1/2 (r6 of r3 r6), precision 2/3
 *   pass rate 5/8 over all eight runs; Rogan-Gladen
 *     (.625 + .5 - 1) / (2/3 + .5 - 1) = .75 */
static void test_binary_consensus(void **st)
{
	(void)st;
	struct review rv;
	struct calib c;
	open_labelled(&rv);
	struct calib_opts o = { .bootstrap = 0 };
	build(&rv, &c, &o);
	const struct calib_pair *p = calib_find(&c, "lookup");
	assert_non_null(p);
	assert_ptr_equal(p, pair(&c, "lookup", "scorer:lookup", "human"));
	assert_int_equal(p->kind, CALIB_MACHINE_HUMAN);
	assert_int_equal(p->n, 5);
	assert_int_equal(p->ties, 1);
	assert_int_equal(p->stale, 1);
	assert_fig(&p->agreement, 0.6);
	assert_fig(&p->kappa, 1.0 / 6);
	assert_fig(&p->alpha, 0.25);
	assert_fig(&p->tpr, 2.0 / 3);
	assert_fig(&p->tnr, 0.5);
	assert_fig(&p->precision, 2.0 / 3);
	assert_fig(&p->pass_rate, 0.625);
	assert_int_equal(p->rated, 8);
	assert_fig(&p->pass_rate_corrected, 0.75);
	assert_na(&p->kappa_quadratic);
	assert_na(&p->spearman);
	assert_na(&p->mae);
	assert_na(&p->within_one);
	assert_false(p->kappa_ci.ok);           /* no bootstrap asked */
	assert_int_equal(p->ncats, 2);
	assert_string_equal(p->cat_names[0], "fail");
	assert_string_equal(p->cat_names[1], "pass");
	/* rows the machine, columns the humans: fail/fail r6, fail/pass r7,
	 * pass/fail r3, pass/pass r1 r4 */
	assert_int_equal(p->counts[0], 1);
	assert_int_equal(p->counts[1], 1);
	assert_int_equal(p->counts[2], 1);
	assert_int_equal(p->counts[3], 2);
	assert_null(p->note);
	assert_int_equal(c.stale_total, 1);
	assert_int_equal(c.labelled_runs, 6);
	assert_int_equal(c.nreviewers, 3);
	calib_free(&c);
	review_close(&rv);
}

/* The machine against each reviewer:
 *   alice r1 r2 r3 r4 r6 r7: machine 1 1 1 1 0 0, alice 1 0 1 1 0 1:
 *     agreement 4/6, pe 16/36 + 4/36 = 5/9, kappa (2/3 - 5/9) / (4/9) = .25
 *   bob r1 r2 r3 r6 (r8 stale): machine 1 1 1 0, bob 1 1 0 0:
 *     agreement 3/4, pe 3/8 + 1/8 = .5, kappa .5
 *   carol r3 r7: machine 1 0, carol 0 1: agreement 0, kappa (0 - .5) / .5 = -1 */
static void test_binary_each_reviewer(void **st)
{
	(void)st;
	struct review rv;
	struct calib c;
	open_labelled(&rv);
	build(&rv, &c, &(struct calib_opts){ 0 });
	const struct calib_pair *p = pair(&c, "lookup", "scorer:lookup", "human:alice");
	assert_non_null(p);
	assert_int_equal(p->n, 6);
	assert_int_equal(p->stale, 0);
	assert_fig(&p->agreement, 4.0 / 6);
	assert_fig(&p->kappa, 0.25);
	p = pair(&c, "lookup", "scorer:lookup", "human:bob");
	assert_non_null(p);
	assert_int_equal(p->n, 4);
	assert_int_equal(p->stale, 1);
	assert_fig(&p->agreement, 0.75);
	assert_fig(&p->kappa, 0.5);
	p = pair(&c, "lookup", "scorer:lookup", "human:carol");
	assert_non_null(p);
	assert_int_equal(p->n, 2);
	assert_fig(&p->agreement, 0);
	assert_fig(&p->kappa, -1);
	calib_free(&c);
	review_close(&rv);
}

/* Reviewers among themselves on lookup:
 *   alice~bob r1 (1,1) r2 (0,1) r3 (1,0) r6 (0,0): agreement .5, pe .5, kappa 0
 *   alice~carol r3 (1,0) r7 (1,1): agreement .5, pe 1*.5 + 0 = .5, kappa 0
 *   bob~carol r3 (0,0): one run, one category: kappa undefined
 *   all: r1 (1,1) r2 (0,1) r3 (1,0,0) r6 (0,0) r7 (1,1); coincidences
 *     o00 3, o01 2, o10 2, o11 4 (r3 counts 1/2 per ordered pair), n 11,
 *     n0 5, n1 6: alpha 1 - 10 * 4 / (2 * 5 * 6) = 1/3 */
static void test_reviewer_pairs(void **st)
{
	(void)st;
	struct review rv;
	struct calib c;
	open_labelled(&rv);
	build(&rv, &c, &(struct calib_opts){ 0 });
	const struct calib_pair *p = pair(&c, "lookup", "human:alice", "human:bob");
	assert_non_null(p);
	assert_int_equal(p->kind, CALIB_HUMAN_HUMAN);
	assert_int_equal(p->n, 4);
	assert_int_equal(p->stale, 1);          /* bob's */
	assert_fig(&p->agreement, 0.5);
	assert_fig(&p->kappa, 0);
	assert_na(&p->tpr);
	assert_na(&p->pass_rate);
	p = pair(&c, "lookup", "human:alice", "human:carol");
	assert_non_null(p);
	assert_int_equal(p->n, 2);
	assert_fig(&p->agreement, 0.5);
	assert_fig(&p->kappa, 0);
	p = pair(&c, "lookup", "human:bob", "human:carol");
	assert_non_null(p);
	assert_int_equal(p->n, 1);
	assert_fig(&p->agreement, 1);
	assert_undefined(&p->kappa);
	assert_non_null(p->note);
	assert_non_null(strstr(p->note, "kappa"));
	p = pair(&c, "lookup", "reviewers", "");
	assert_non_null(p);
	assert_int_equal(p->kind, CALIB_REVIEWERS);
	assert_int_equal(p->n, 5);
	assert_fig(&p->alpha, 1.0 / 3);
	assert_na(&p->kappa);
	assert_int_equal(p->ncats, 0);
	calib_free(&c);
	review_close(&rv);
}

/* ---- 1..5: j5 ----------------------------------------------------------------- */

/* judge:j5 ~ human, (machine, consensus): r1 (5,5) r2 (4,3) r3 (2,2: the
 * median of 2, 1, 3) r4 (3,4) r6 (1,2) r7 (4,4).
 *   agreement 3/6; within one 6/6; MAE 3/6
 *   kappa: machine counts by value 1..5: 1 1 1 2 1, humans 0 2 1 2 1:
 *     pe = (0 + 2 + 1 + 4 + 1) / 36 = 2/9, (1/2 - 2/9) / (7/9) = 5/14
 *   quadratic: observed mean (i-j)^2 = 3/6, expected
 *     sum cnt_m(i) cnt_h(j) (i-j)^2 / 36 = 110/36: 1 - .5 / (110/36) = 46/55
 *   Spearman: ranks machine 6 4.5 2 3 1 4.5, humans 6 3 1.5 4.5 1.5 4.5:
 *     14.25 / sqrt(17 * 16.5)
 *   pass at 4: machine P P F F F P, humans P F F P F P: tpr 2/3, tnr 2/3,
 *     precision 2/3; pass rate 3/8 (r1 r2 r7 of eight); Rogan-Gladen
 *     (3/8 + 2/3 - 1) / (2/3 + 2/3 - 1) = .125 */
static void test_ordinal(void **st)
{
	(void)st;
	struct review rv;
	struct calib c;
	open_labelled(&rv);
	build(&rv, &c, &(struct calib_opts){ 0 });
	const struct calib_pair *p = calib_find(&c, "j5");
	assert_non_null(p);
	assert_string_equal(p->a, "judge:j5");
	assert_int_equal(p->n, 6);
	assert_int_equal(p->ties, 0);
	assert_true(p->threshold == 4);
	assert_fig(&p->agreement, 0.5);
	assert_fig(&p->within_one, 1);
	assert_fig(&p->mae, 0.5);
	assert_fig(&p->kappa, 5.0 / 14);
	assert_fig(&p->kappa_quadratic, 46.0 / 55);
	assert_fig(&p->spearman, 14.25 / sqrt(17 * 16.5));
	assert_fig(&p->tpr, 2.0 / 3);
	assert_fig(&p->tnr, 2.0 / 3);
	assert_fig(&p->precision, 2.0 / 3);
	assert_fig(&p->pass_rate, 0.375);
	assert_fig(&p->pass_rate_corrected, 0.125);
	assert_true(p->alpha.ok && p->alpha.v > 0 && p->alpha.v <= 1);
	assert_int_equal(p->ncats, 5);
	assert_string_equal(p->cat_names[0], "1");
	assert_string_equal(p->cat_names[4], "5");
	/* rows machine, columns humans, by value - 1 */
	static const size_t want[][2] = { { 4, 4 }, { 3, 2 }, { 1, 1 }, { 2, 3 }, { 0, 1 }, { 3, 3 } };
	size_t total = 0;
	for (size_t i = 0; i < 25; i++)
		total += p->counts[i];
	assert_int_equal(total, 6);
	for (size_t i = 0; i < 6; i++)
		assert_int_equal(p->counts[want[i][0] * 5 + want[i][1]], 1);
	calib_free(&c);
	review_close(&rv);
}

/* ---- 0..1: j01 ------------------------------------------------------------------ */

/* judge:j01 ~ human: r1 (.9, 1) r2 (.2, 0) r3 (.6, .6: accepted) r4 (.4, .8).
 *   pass at .5: machine P F P F, humans P F P P: agreement 3/4; pe .5*.75 +
 *     .5*.25 = .5, kappa .5 (also quadratic: two categories)
 *   MAE (.1 + .2 + 0 + .4) / 4 = .175; Spearman: ranks 4 1 3 2 vs 4 1 2 3: .8
 *   interval alpha: D_o = 2 * .21 / 8, D_e = 2 * 8 * .83875 / 56:
 *     1 - 2.94 / 13.42
 *   tpr 2/3, tnr 1, precision 1; pass rate 2/4; Rogan-Gladen .5 / (2/3) = .75 */
static void test_numeric(void **st)
{
	(void)st;
	struct review rv;
	struct calib c;
	open_labelled(&rv);
	build(&rv, &c, &(struct calib_opts){ 0 });
	const struct calib_pair *p = calib_find(&c, "j01");
	assert_non_null(p);
	assert_int_equal(p->n, 4);
	assert_fig(&p->agreement, 0.75);
	assert_fig(&p->kappa, 0.5);
	assert_fig(&p->kappa_quadratic, 0.5);
	assert_fig(&p->mae, 0.175);
	assert_fig(&p->spearman, 0.8);
	assert_fig(&p->alpha, 1 - 2.94 / 13.42);
	assert_fig(&p->tpr, 2.0 / 3);
	assert_fig(&p->tnr, 1);
	assert_fig(&p->precision, 1);
	assert_fig(&p->pass_rate, 0.5);
	assert_int_equal(p->rated, 4);
	assert_fig(&p->pass_rate_corrected, 0.75);
	assert_na(&p->within_one);
	assert_int_equal(p->ncats, 2);
	calib_free(&c);
	review_close(&rv);
}

/* ---- code against judge ------------------------------------------------------------ */

/* lookup passes r1..r5, j5 r1 r2 r7: agreement r1 r2 r6 r8 = 4/8; pe
 * 5/8*3/8 + 3/8*5/8 = 30/64, kappa (1/2 - 30/64) / (34/64) = 1/17. The
 * YAML's compare: names only [lookup, j5], so lookup ~ j01 is not made. */
static void test_code_judge(void **st)
{
	(void)st;
	struct review rv;
	struct calib c;
	open_labelled(&rv);
	build(&rv, &c, &(struct calib_opts){ 0 });
	const struct calib_pair *p = pair(&c, "j5", "scorer:lookup", "judge:j5");
	assert_non_null(p);
	assert_int_equal(p->kind, CALIB_CODE_JUDGE);
	assert_int_equal(p->n, 8);
	assert_fig(&p->agreement, 0.5);
	assert_fig(&p->kappa, 1.0 / 17);
	assert_na(&p->tpr);
	assert_int_equal(p->ncats, 2);
	assert_null(pair(&c, "j01", "scorer:lookup", "judge:j01"));
	calib_free(&c);
	review_close(&rv);
}

/* ---- --sweep ------------------------------------------------------------------ */

static void assert_point(const struct calib_sweep_point *pt, double t, double kappa, double tpr,
                         double tnr)
{
	assert_true(fabs(pt->threshold - t) < EPS);
	assert_fig(&pt->kappa, kappa);
	assert_fig(&pt->tpr, tpr);
	assert_fig(&pt->tnr, tnr);
}

/* j5 on its six labelled runs (scores 5 4 2 3 1 4, humans P F F P F P):
 *   at 2: P P P P F P  agreement 4/6, pe .5: kappa 1/3, tpr 1, tnr 1/3
 *   at 3: P P F P F P  5/6: kappa 2/3, tpr 1, tnr 2/3   <- best
 *   at 4: P P F F F P  4/6: kappa 1/3, tpr 2/3, tnr 2/3
 *   at 5: P F F F F F  4/6, pe 1/6*1/2 + 5/6*1/2: kappa 1/3, tpr 1/3, tnr 1
 * j01 at each score given (humans P F P P):
 *   .2: all pass, pe .75 = po: kappa 0; .4: P F P P: kappa 1 <- best;
 *   .6: P F P F: kappa .5; .9: P F F F: po .5, pe .375: kappa .2 */
static void test_sweep(void **st)
{
	(void)st;
	struct review rv;
	struct calib c;
	open_labelled(&rv);
	build(&rv, &c, &(struct calib_opts){ .sweep = true });
	assert_int_equal(c.nsweeps, 2);
	const struct calib_sweep *sw = &c.sweeps[0];
	assert_string_equal(sw->criterion, "j5");
	assert_true(sw->threshold == 4);
	assert_int_equal(sw->npoints, 4);
	assert_point(&sw->points[0], 2, 1.0 / 3, 1, 1.0 / 3);
	assert_point(&sw->points[1], 3, 2.0 / 3, 1, 2.0 / 3);
	assert_point(&sw->points[2], 4, 1.0 / 3, 2.0 / 3, 2.0 / 3);
	assert_point(&sw->points[3], 5, 1.0 / 3, 1.0 / 3, 1);
	assert_int_equal(sw->points[0].n, 6);
	assert_int_equal(sw->best, 1);
	assert_null(sw->note);
	sw = &c.sweeps[1];
	assert_string_equal(sw->criterion, "j01");
	assert_int_equal(sw->npoints, 4);
	assert_point(&sw->points[0], 0.2, 0, 1, 0);
	assert_point(&sw->points[1], 0.4, 1, 1, 1);
	assert_point(&sw->points[2], 0.6, 0.5, 2.0 / 3, 1);
	assert_point(&sw->points[3], 0.9, 0.2, 1.0 / 3, 1);
	assert_int_equal(sw->best, 1);
	calib_free(&c);
	/* without --sweep, none */
	build(&rv, &c, &(struct calib_opts){ 0 });
	assert_int_equal(c.nsweeps, 0);
	calib_free(&c);
	review_close(&rv);
}

/* ---- --judge j5 --judge j01 ------------------------------------------------------- */

/* Both answered r1..r4. The humans' pass/fail: j5's row P F F P, j01's
 * row P F P P: r3 differs, so it is left out (a conflict). On r1 r2 r4
 * (humans P F P): j5 P P F, j01 P F F.
 *   kappa j5: po 1/3, pe 4/9 + 1/9: (1/3 - 5/9) / (4/9) = -.5
 *   kappa j01: po 2/3, pe 2/9 + 2/9: (2/3 - 4/9) / (5/9) = .4
 *   only j5 agrees: none; only j01: r2; neither: r4; McNemar (0, 1): p 1 */
static void test_compare(void **st)
{
	(void)st;
	struct review rv;
	struct calib c;
	open_labelled(&rv);
	const char *judges[] = { "j5", "j01" };
	build(&rv, &c, &(struct calib_opts){ .compare_judges = judges, .ncompare_judges = 2 });
	assert_int_equal(c.ncompares, 1);
	const struct calib_compare *cm = &c.compares[0];
	assert_string_equal(cm->criterion_a, "j5");
	assert_string_equal(cm->criterion_b, "j01");
	assert_int_equal(cm->n, 3);
	assert_int_equal(cm->conflicts, 1);
	assert_fig(&cm->kappa_a, -0.5);
	assert_fig(&cm->kappa_b, 0.4);
	assert_fig(&cm->kappa_diff, -0.9);
	assert_int_equal(cm->only_a, 0);
	assert_int_equal(cm->only_b, 1);
	assert_int_equal(cm->none_agrees, 1);
	assert_true(fabs(cm->mcnemar_p - 1) < EPS);
	assert_int_equal(cm->n_one_agrees, 1);
	assert_int_equal(cm->one_agrees[0], entry_of(&rv, 2));
	assert_non_null(cm->note);
	assert_non_null(strstr(cm->note, "1 run left out"));
	assert_false(cm->kappa_diff_ci.ok);     /* no bootstrap asked */
	calib_free(&c);
	review_close(&rv);
}

/* ---- what is counted ---------------------------------------------------------------- */

/* With --include-stale bob's r8 label (fail; lookup fails r8 too) counts. */
static void test_include_stale(void **st)
{
	(void)st;
	struct review rv;
	struct calib c;
	open_labelled(&rv);
	build(&rv, &c, &(struct calib_opts){ .include_stale = true });
	const struct calib_pair *p = calib_find(&c, "lookup");
	assert_int_equal(p->n, 6);
	assert_int_equal(p->stale, 1);
	assert_int_equal(p->counts[0], 2);
	assert_fig(&p->agreement, 4.0 / 6);
	p = pair(&c, "lookup", "scorer:lookup", "human:bob");
	assert_int_equal(p->n, 5);
	assert_int_equal(c.labelled_runs, 7);
	calib_free(&c);
	review_close(&rv);
}

/* Only alice and bob: r3 becomes a tie (alice 1, bob 0), r7 is alice's
 * pass; the machine ~ consensus items r1 (P,P) r4 (P,P) r6 (F,F) r7 (F,P). */
static void test_reviewer_filter(void **st)
{
	(void)st;
	struct review rv;
	struct calib c;
	open_labelled(&rv);
	const char *who[] = { "bob", "alice" };
	build(&rv, &c, &(struct calib_opts){ .reviewers = who, .nreviewers = 2 });
	assert_int_equal(c.nreviewers, 2);
	const struct calib_pair *p = calib_find(&c, "lookup");
	assert_int_equal(p->n, 4);
	assert_int_equal(p->ties, 2);
	assert_fig(&p->agreement, 0.75);
	assert_null(pair(&c, "lookup", "scorer:lookup", "human:carol"));
	assert_null(pair(&c, "lookup", "human:alice", "human:carol"));
	assert_non_null(pair(&c, "lookup", "human:alice", "human:bob"));
	calib_free(&c);
	review_close(&rv);
}

static void test_criteria(void **st)
{
	(void)st;
	struct review rv;
	struct calib c;
	open_labelled(&rv);
	const char *only[] = { "j01" };
	build(&rv, &c, &(struct calib_opts){ .criteria = only, .ncriteria = 1 });
	assert_non_null(calib_find(&c, "j01"));
	assert_null(calib_find(&c, "lookup"));
	assert_null(calib_find(&c, "j5"));
	for (size_t i = 0; i < c.npairs; i++)
		assert_string_equal(c.pairs[i].criterion, "j01");
	assert_int_equal(c.labelled_runs, 4);
	calib_free(&c);

	struct error err = {0};
	const char *bad[] = { "nope" };
	assert_int_equal(calib_build(&c, &rv, &(struct calib_opts){ .criteria = bad, .ncriteria = 1 },
	                             &err), -1);
	assert_string_equal(err.msg, "unknown criterion 'nope' (criteria: lookup, j5, j01)");
	assert_int_equal(c.npairs, 0);
	const char *code[] = { "lookup", "j5" };
	assert_int_equal(calib_build(&c, &rv, &(struct calib_opts){ .compare_judges = code,
	                                                            .ncompare_judges = 2 },
	                             &err), -1);
	assert_string_equal(err.msg, "not a judge: 'lookup' (judges: j5, j01)");
	review_close(&rv);
}

/* Percentile intervals: inside the range, around the figure, the same
 * for the same seed; none when bootstrap is 0. */
static void test_bootstrap(void **st)
{
	(void)st;
	struct review rv;
	struct calib c, d;
	open_labelled(&rv);
	struct calib_opts o = { .bootstrap = 400, .seed = 7 };
	build(&rv, &c, &o);
	build(&rv, &d, &o);
	const struct calib_pair *p = calib_find(&c, "j5"), *q = calib_find(&d, "j5");
	assert_true(p->agreement_ci.ok);
	assert_true(p->agreement_ci.lo >= 0 && p->agreement_ci.hi <= 1);
	assert_true(p->agreement_ci.lo <= p->agreement.v && p->agreement.v <= p->agreement_ci.hi);
	assert_true(p->kappa_ci.ok);
	assert_true(p->kappa_ci.lo >= -1 && p->kappa_ci.hi <= 1 && p->kappa_ci.lo <= p->kappa_ci.hi);
	assert_true(p->agreement_ci.lo == q->agreement_ci.lo && p->agreement_ci.hi == q->agreement_ci.hi);
	assert_true(p->kappa_ci.lo == q->kappa_ci.lo && p->kappa_ci.hi == q->kappa_ci.hi);
	if (p->pass_rate_corrected_ci.ok)
		assert_true(p->pass_rate_corrected_ci.lo >= 0 && p->pass_rate_corrected_ci.hi <= 1 &&
		            p->pass_rate_corrected_ci.lo <= p->pass_rate_corrected_ci.hi);
	calib_free(&c);
	calib_free(&d);
	review_close(&rv);
}

/* No annotations at all: each criterion still has its machine ~ human
 * pair, with n 0, the pass rate, and the rest undefined with one note. */
static void test_no_labels(void **st)
{
	(void)st;
	struct review rv;
	struct calib c;
	struct error err = {0};
	char *paths[] = { runs_path };
	assert_int_equal(review_open_reading(&rv, NULL, &cfg, NULL, paths, 1, NULL, 0, "t", &err), 0);
	while (review_step(&rv, 0))
		;
	build(&rv, &c, &(struct calib_opts){ .bootstrap = 100, .sweep = true });
	assert_int_equal(c.nreviewers, 0);
	assert_int_equal(c.labelled_runs, 0);
	const struct calib_pair *p = calib_find(&c, "lookup");
	assert_non_null(p);
	assert_int_equal(p->n, 0);
	assert_fig(&p->pass_rate, 0.625);
	assert_undefined(&p->kappa);
	assert_undefined(&p->tpr);
	assert_undefined(&p->pass_rate_corrected);
	assert_false(p->kappa_ci.ok);
	assert_string_equal(p->note, "no run has both a machine verdict and a human label");
	/* the judges were not asked: no verdict, no pass rate */
	p = calib_find(&c, "j5");
	assert_undefined(&p->pass_rate);
	assert_string_equal(p->note, "no run has both a machine verdict and a human label; "
	                    "pass_rate: no run has a machine verdict");
	assert_int_equal(c.npairs, 3);
	assert_int_equal(c.nsweeps, 2);
	assert_int_equal(c.sweeps[0].npoints, 0);
	assert_int_equal(c.sweeps[0].best, 0);
	assert_non_null(c.sweeps[0].note);
	calib_free(&c);
	review_close(&rv);
	/* nothing was written beside the inputs */
	char def[160];
	snprintf(def, sizeof def, "%s.annotations.jsonl", runs_path);
	assert_int_equal(access(def, F_OK), -1);
}

static void test_names(void **st)
{
	(void)st;
	assert_string_equal(calib_kind_name(CALIB_MACHINE_HUMAN), "machine-human");
	assert_string_equal(calib_kind_name(CALIB_HUMAN_HUMAN), "human-human");
	assert_string_equal(calib_kind_name(CALIB_REVIEWERS), "reviewers");
	assert_string_equal(calib_kind_name(CALIB_CODE_JUDGE), "code-judge");
	char buf[32];
	struct scale s = scale_of(SCALE_BINARY);
	scale_label(&s, buf, sizeof buf);
	assert_string_equal(buf, "binary");
	s = scale_of(SCALE_1TO5);
	scale_label(&s, buf, sizeof buf);
	assert_string_equal(buf, "1..5");
	s = (struct scale){ SCALE_UNIT, 0, 10 };
	scale_label(&s, buf, sizeof buf);
	assert_string_equal(buf, "0..10");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_binary_consensus),
		cmocka_unit_test(test_binary_each_reviewer),
		cmocka_unit_test(test_reviewer_pairs),
		cmocka_unit_test(test_ordinal),
		cmocka_unit_test(test_numeric),
		cmocka_unit_test(test_code_judge),
		cmocka_unit_test(test_sweep),
		cmocka_unit_test(test_compare),
		cmocka_unit_test(test_include_stale),
		cmocka_unit_test(test_reviewer_filter),
		cmocka_unit_test(test_criteria),
		cmocka_unit_test(test_bootstrap),
		cmocka_unit_test(test_no_labels),
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
