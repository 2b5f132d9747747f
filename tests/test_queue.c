/* test_queue.c - the review queue (review/queue): its orders on the fixture's
 * four runs, the seeded samples and their chances, the weights decisions
 * carry, and the figures those weights give, each checked against numbers
 * worked by hand beside it (not through the functions under test). */
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
#include "review/queue.h"
#include "review/session.h"
#include "util/agree.h"
#include "review_fixture.h"

#define EPS 1e-9

static struct review_fixture fx;

static int group_setup(void **state)
{
	(void)state;
	return review_fixture_setup(&fx, "queue", NULL);
}

static int group_teardown(void **state)
{
	(void)state;
	return review_fixture_teardown(&fx);
}

/* ju (1..5) passes at 3; its distance from the threshold on 0..1 is
 * |score - 3| / 4. */
static void judge_scores(struct review *rv, double c, double a, double d)
{
	assert_true(fabs(rv->cfg->judges[0].threshold - 3) < EPS);
	rfx_judge(rv, "run-c", c, "c");
	rfx_judge(rv, "run-a", a, "a");
	rfx_judge(rv, "run-d", d, "d");
}

static void set_queue(struct review *rv, enum review_queue_kind k, size_t sample, uint64_t seed)
{
	struct review_queue q = { .kind = k, .sample = sample, .seed = seed };
	review_set_queue(rv, &q);
}

/* uncertain: run-d (3, d 0), run-c (4, d .25), run-a (1, d .5), then run-b
 * without a verdict. disagree: lookup or words against ju on pass/fail:
 * run-a (lookup fail, ju 3 pass) and run-d (lookup pass, ju 2 fail) first,
 * in file order, then run-c (all pass) and run-b (no ju). */
static void test_orders(void **state)
{
	(void)state;
	struct review rv;
	rfx_reset(&fx);
	rfx_open(&fx, &rv, "ann");
	judge_scores(&rv, 4, 1, 3);
	set_queue(&rv, QUEUE_UNCERTAIN, 0, 0);
	assert_string_equal(rfx_view(&rv), "run-d,run-c,run-a,run-b");
	char st[160];
	review_queue_status(&rv, st, sizeof st);
	assert_string_equal(st, "queue uncertain 1/4");
	judge_scores(&rv, 5, 3, 2);
	set_queue(&rv, QUEUE_DISAGREE, 0, 0);
	assert_string_equal(rfx_view(&rv), "run-a,run-d,run-c,run-b");
	/* no tool-errors scorer here: nothing comes first, file order */
	set_queue(&rv, QUEUE_ERRORS, 0, 0);
	assert_string_equal(rfx_view(&rv), "run-c,run-a,run-d,run-b");
	/* random: by u, the same for the same seed */
	set_queue(&rv, QUEUE_RANDOM, 0, 7);
	char first[64];
	snprintf(first, sizeof first, "%s", rfx_view(&rv));
	set_queue(&rv, QUEUE_RANDOM, 0, 7);
	assert_string_equal(rfx_view(&rv), first);
	/* off: the file's order again */
	review_set_queue(&rv, NULL);
	assert_string_equal(rfx_view(&rv), "run-c,run-a,run-d,run-b");
	review_close(&rv);
}

/* The uniform of a run hangs on the seed and its id only, so a sample is
 * the same whatever the order of the inputs. */
static void test_uniform(void **state)
{
	(void)state;
	double u = review_queue_uniform(26, "run-a");
	assert_true(u >= 0 && u < 1);
	assert_true(review_queue_uniform(26, "run-a") == u);
	assert_true(review_queue_uniform(27, "run-a") != u);
	assert_true(review_queue_uniform(26, "run-b") != u);
	/* roughly uniform: the mean of 2000 ids is near 1/2 */
	double sum = 0;
	for (int i = 0; i < 2000; i++) {
		char id[32];
		snprintf(id, sizeof id, "run-%d", i);
		sum += review_queue_uniform(26, id);
	}
	assert_true(fabs(sum / 2000 - 0.5) < 0.03);
}

/* Sizes 1, .1, .5, 2, .1 (sum 3.7) for a sample of 2: 2 * 2 / 3.7 >= 1, so
 * the run of size 2 is certain; the other 1.7 share 1: 1/1.7, .1/1.7,
 * .5/1.7, .1/1.7. The chances sum to 2. */
static void test_chances(void **state)
{
	(void)state;
	const double w[] = { 1, 0.1, 0.5, 2, 0.1 };
	double pi[5];
	review_queue_chances(w, 5, 2, pi);
	const double want[] = { 1 / 1.7, 0.1 / 1.7, 0.5 / 1.7, 1, 0.1 / 1.7 };
	double sum = 0;
	for (int i = 0; i < 5; i++) {
		assert_true(fabs(pi[i] - want[i]) < EPS);
		sum += pi[i];
	}
	assert_true(fabs(sum - 2) < EPS);
	/* two capped in turn: 3 * 10 / 12 >= 1, then 2 * 1 / 2 >= 1; the rest share 1 */
	const double w2[] = { 10, 1, 0.5, 0.5 };
	double pi2[4];
	review_queue_chances(w2, 4, 3, pi2);
	assert_true(fabs(pi2[0] - 1) < EPS && fabs(pi2[1] - 1) < EPS);
	assert_true(fabs(pi2[2] - 0.5) < EPS && fabs(pi2[3] - 0.5) < EPS);
	/* a sample as large as the set takes every run */
	review_queue_chances(w2, 4, 9, pi2);
	for (int i = 0; i < 4; i++)
		assert_true(pi2[i] == 1);
}

/* uncertain, sample 2: sizes run-d 1 (d 0), run-c .5 (d .25), run-a .1 and
 * run-b .1 (the floor); run-d is certain, the rest share 1 over .7. A run
 * is drawn when its u is below its chance; a decision on it records 1/pi. */
static void test_sample_weights(void **state)
{
	(void)state;
	struct review rv;
	rfx_reset(&fx);
	rfx_open(&fx, &rv, "ann");
	judge_scores(&rv, 4, 1, 3);
	set_queue(&rv, QUEUE_UNCERTAIN, 2, 26);
	assert_true(rv.queue.drawn);
	const char *ids[] = { "run-d", "run-c", "run-a", "run-b" };
	const double pi[] = { 1, 0.5 / 0.7, 0.1 / 0.7, 0.1 / 0.7 };
	char want[64] = "";
	double sum = 0;
	for (int i = 0; i < 4; i++) {
		const struct review_entry *e = &rv.entries[rfx_entry(&rv, ids[i])];
		assert_true(fabs(e->queue_pi - pi[i]) < EPS);
		sum += e->queue_pi;
		bool in = review_queue_uniform(26, ids[i]) < pi[i];
		assert_int_equal(e->in_queue, in);
		if (in)
			snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s", want[0] ? "," : "",
			         ids[i]);
		double w;
		assert_int_equal(review_queue_weight(&rv, rfx_entry(&rv, ids[i]), &w), in);
		if (in)
			assert_true(fabs(w - 1 / pi[i]) < EPS);
	}
	assert_true(fabs(sum - 2) < EPS);
	assert_string_equal(rfx_view(&rv), want);
	char st[160];
	review_queue_status(&rv, st, sizeof st);
	assert_string_equal(st, "queue uncertain 1/2 (sampled, weighted)");
	/* a label in the queue carries the queue and its weight */
	rfx_label(&rv, "run-d", ROW_LOOKUP, 1);
	assert_int_equal(rfx_lines_with(&fx, "\"queue\":\"uncertain\""), 1);
	assert_int_equal(rfx_lines_with(&fx, "\"weight\":1"), 1);
	/* the same seed draws the same sample; random takes exactly N with
	 * equal chances N/M */
	set_queue(&rv, QUEUE_RANDOM, 3, 5);
	assert_int_equal(rv.queue.ndrawn, 3);
	for (int i = 0; i < 4; i++)
		assert_true(fabs(rv.entries[i].queue_pi - 0.75) < EPS);
	char first[64];
	snprintf(first, sizeof first, "%s", rfx_view(&rv));
	set_queue(&rv, QUEUE_RANDOM, 3, 5);
	assert_string_equal(rfx_view(&rv), first);
	review_close(&rv);
}

/* Labels on lookup with weights, written as a sampled queue writes them:
 *   run-c machine pass, human pass, weight 3   -> tp 3
 *   run-a machine fail, human pass, weight 1   -> fn 1
 *   run-d machine pass, human fail, weight 1   -> fp 1
 *   run-b machine fail, human fail, weight 4   -> tn 4
 * By hand: TPR = 3 / (3 + 1) = .75, TNR = 4 / (4 + 1) = .8 (unweighted both
 * would be 1/2: no better than chance). The machine's pass rate over every
 * run is 2/4 = .5; Rogan-Gladen: (.5 + .8 - 1) / (.75 + .8 - 1) = .3/.55.
 * Agreement (3 + 4) / 9; Kish's n (3+1+1+4)^2 / (9+1+1+16) = 81/27 = 3. */
static void test_weighted_figures(void **state)
{
	(void)state;
	rfx_reset(&fx);
	FILE *f = fopen(fx.annot_path, "wb");
	assert_non_null(f);
	const struct { const char *run; int line; int score; double w; } l[] = {
		{ "run-c", 1, 1, 3 }, { "run-a", 2, 1, 1 }, { "run-d", 3, 0, 1 }, { "run-b", 4, 0, 4 },
	};
	for (int i = 0; i < 4; i++)
		fprintf(f, "{\"v\":2,\"run\":\"%s\",\"source\":\"runs.jsonl:%d\",\"scorer\":\"lookup\","
		        "\"decision\":\"override\",\"score\":%d,\"reviewer\":\"ann\",\"weight\":%g,"
		        "\"queue\":\"uncertain\",\"at\":\"2026-01-0%dT00:00:00Z\"}\n",
		        l[i].run, l[i].line, l[i].score, l[i].w, i + 1);
	fclose(f);
	struct review rv;
	rfx_open(&fx, &rv, "ann");
	struct calib c;
	struct error err = {0};
	const char *crit[] = { "lookup" };
	struct calib_opts o = { .criteria = crit, .ncriteria = 1, .target_width = 0.1 };
	assert_int_equal(calib_build(&c, &rv, &o, &err), 0);
	const struct calib_pair *p = calib_find(&c, "lookup");
	assert_non_null(p);
	assert_int_equal(p->n, 4);
	assert_true(p->weighted);
	assert_true(p->tpr.ok && fabs(p->tpr.v - 0.75) < EPS);
	assert_true(p->tnr.ok && fabs(p->tnr.v - 0.8) < EPS);
	assert_true(p->pass_rate.ok && fabs(p->pass_rate.v - 0.5) < EPS);
	assert_true(p->pass_rate_corrected.ok && fabs(p->pass_rate_corrected.v - 0.3 / 0.55) < EPS);
	assert_true(p->agreement.ok && fabs(p->agreement.v - 7.0 / 9) < EPS);
	assert_true(fabs(p->n_eff - 3) < EPS);
	/* labels to go, from the formula written out here: half-width h = .05,
	 * p = 7/9, q = 2/9, z = 1.959964:
	 *   n* = z^2 ((pq - 2h^2) + sqrt(p^2 q^2 + h^2 (1 - 4pq))) / (2h^2)
	 * and the weights' design effect n / n_eff = 4/3 kept: ceil(n* 4/3) - 4. */
	double z = 1.959963984540054, h = 0.05, pq = (7.0 / 9) * (2.0 / 9);
	double nstar = z * z * ((pq - 2 * h * h) + sqrt(pq * pq + h * h * (1 - 4 * pq))) / (2 * h * h);
	assert_true(p->labels_to_go_ok);
	assert_int_equal(p->labels_to_go, (size_t)ceil(nstar * 4.0 / 3) - 4);
	/* the Wilson interval shown, over n_eff = 3 */
	double cen = (7.0 / 9 + z * z / 6) / (1 + z * z / 3);
	double half = z / (3 + z * z) * sqrt(3 * pq + z * z / 4);
	assert_true(p->agreement_wilson.ok);
	assert_true(fabs(p->agreement_wilson.lo - (cen - half)) < 1e-9);
	assert_true(fabs(p->agreement_wilson.hi - (cen + half)) < 1e-9);
	calib_free(&c);
	review_close(&rv);
}

/* p = 1/2: n* = z^2 / (4 h^2) - z^2, for width .1 (h .05): 384.146 - 3.841
 * = 380.30, so 381 labels; the Wilson interval at 381 is under .1 wide and
 * at 380 is not. p = 0: n* = z^2 (1/(2h) - 1) = 9 z^2 for h .05. */
static void test_wilson_width(void **state)
{
	(void)state;
	double z = AGREE_Z95, z2 = z * z;
	double n = agree_wilson_n_for_width(0.5, 0.1, z);
	assert_true(fabs(n - (z2 / 0.01 - z2)) < 1e-9);
	assert_true(fabs(n - 380.3044) < 1e-3);
	double lo, hi;
	assert_true(agree_wilson(0.5, 381, z, &lo, &hi));
	assert_true(hi - lo <= 0.1);
	assert_true(agree_wilson(0.5, 380, z, &lo, &hi));
	assert_true(hi - lo > 0.1);
	assert_true(fabs(agree_wilson_n_for_width(0, 0.1, z) - 9 * z2) < 1e-9);
	/* at n* itself the interval is exactly the width (p = .8, width .2) */
	double n8 = agree_wilson_n_for_width(0.8, 0.2, z);
	assert_true(agree_wilson(0.8, n8, z, &lo, &hi));
	assert_true(fabs((hi - lo) - 0.2) < 1e-9);
	assert_true(isnan(agree_wilson_n_for_width(0.5, 0, z)));
	assert_false(agree_wilson(0.5, 0, z, &lo, &hi));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_orders),
		cmocka_unit_test(test_uniform),
		cmocka_unit_test(test_chances),
		cmocka_unit_test(test_sample_weights),
		cmocka_unit_test(test_weighted_figures),
		cmocka_unit_test(test_wilson_width),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
