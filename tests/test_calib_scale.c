/* test_calib_scale.c - calibration figures on custom scales: an integer
 * scale (a custom judge's 1..5 and 0..10, a record-field scorer's 1..5) is
 * figured over its levels, a continuous one (a custom 0..1) on pass/fail
 * as before. The expected figures are computed here by the textbook
 * formulas, written out independently of util/agree: Cohen's kappa from
 * the observed agreement and the agreement expected from the marginals,
 * the quadratic-weighted kappa with w_ij = (i - j)^2 / (k - 1)^2, exact
 * and within-one agreement, the confusion matrix, TPR and TNR at the
 * threshold. One reviewer, so the consensus is hers. No server. */
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

#define NRUNS 12

static char dir[256];
static char runs_path[320], labels_path[320], prompt_path[320];
static struct config cfg;
static char lines[NRUNS][256];

/* Judge 0, "five": a custom judge on {min: 1, max: 5, pass: 4}; the
 * machine's scores and the reviewer's labels, run by run, chosen so that
 * kappa and quadratic kappa differ (near misses count for the latter). */
static const double five_m[NRUNS] = { 1, 2, 3, 4, 5, 5, 4, 3, 2, 1, 5, 3 };
static const double five_h[NRUNS] = { 1, 3, 3, 5, 5, 4, 2, 3, 1, 2, 5, 1 };
/* Judge 1, "ten": {min: 0, max: 10, pass: 6}: eleven levels; ten runs. */
static const double ten_m[10] = { 0, 3, 7, 10, 5, 6, 8, 2, 9, 4 };
static const double ten_h[10] = { 1, 3, 6, 10, 5, 8, 8, 0, 9, 4 };
/* Judge 2, "unit": a custom {min: 0, max: 1, pass: 0.5}: continuous. */
static const double unit_m[6] = { 0.9, 0.2, 0.6, 0.4, 0.7, 0.1 };
static const double unit_h[6] = { 0.8, 0.3, 0.4, 0.4, 0.9, 0 };
/* Scorer "stars": record-field on 1..5 (passes at 3); each record's
 * stars, and the reviewer's labels. */
static const double stars_m[NRUNS] = { 5, 4, 3, 2, 1, 1, 2, 3, 4, 5, 3, 3 };
static const double stars_h[NRUNS] = { 5, 5, 3, 1, 1, 2, 4, 3, 4, 3, 2, 3 };

static const char yaml[] =
	"scorers:\n"
	"  - id: stars\n"
	"    type: record-field\n"
	"    path: stars\n"
	"    scale: 1..5\n"
	"judges:\n"
	"  - id: five\n"
	"    rubric: custom\n"
	"    prompt_file: p.txt\n"
	"    model: openai/gpt-4o-mini\n"
	"    scale: {min: 1, max: 5, pass: 4}\n"
	"  - id: ten\n"
	"    rubric: custom\n"
	"    prompt_file: p.txt\n"
	"    model: openai/gpt-4o-mini\n"
	"    scale: {min: 0, max: 10, pass: 6}\n"
	"  - id: unit\n"
	"    rubric: custom\n"
	"    prompt_file: p.txt\n"
	"    model: openai/gpt-4o-mini\n"
	"    scale: {min: 0, max: 1, pass: 0.5}\n";

static void label(FILE *f, int run, const char *crit, double score)
{
	char hash[SHA256_HEX_LEN + 1];
	sha256_hex(lines[run - 1], strlen(lines[run - 1]), hash);
	fprintf(f, "{\"v\":2,\"run\":\"r%d\",\"source\":\"runs.jsonl:%d\",\"run_hash\":\"%s\","
	        "\"scorer\":\"%s\",\"decision\":\"override\",\"score\":%.17g,\"reviewer\":\"alice\","
	        "\"blind\":false,\"at\":\"2026-01-01T00:00:%02dZ\"}\n",
	        run, run, hash, crit, score, run);
}

static int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

static int setup(void **s)
{
	(void)s;
	const char *src = getenv("TCR_SRCDIR");
	test_load.datadir = src && *src ? src : ".";
	const char *tmp = getenv("TMPDIR");
	snprintf(dir, sizeof dir, "%s/tcr-calib-scale.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		return -1;
	snprintf(runs_path, sizeof runs_path, "%s/runs.jsonl", dir);
	snprintf(labels_path, sizeof labels_path, "%s/labels.jsonl", dir);
	snprintf(prompt_path, sizeof prompt_path, "%s/p.txt", dir);
	if (write_file(prompt_path, "Grade the run.\n") < 0)
		return -1;
	FILE *f = fopen(runs_path, "wb");
	if (!f)
		return -1;
	for (int i = 0; i < NRUNS; i++) {
		snprintf(lines[i], sizeof lines[i],
		         "{\"id\":\"r%d\",\"stars\":%g,\"messages\":[{\"role\":\"user\",\"content\":"
		         "\"Order %d?\"},{\"role\":\"assistant\",\"content\":\"Done.\"}]}",
		         i + 1, stars_m[i], i + 1);
		fprintf(f, "%s\n", lines[i]);
	}
	fclose(f);
	f = fopen(labels_path, "wb");
	if (!f)
		return -1;
	for (int i = 0; i < NRUNS; i++) {
		label(f, i + 1, "five", five_h[i]);
		label(f, i + 1, "stars", stars_h[i]);
		if (i < 10)
			label(f, i + 1, "ten", ten_h[i]);
		if (i < 6)
			label(f, i + 1, "unit", unit_h[i]);
	}
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
	unlink(runs_path);
	unlink(labels_path);
	unlink(prompt_path);
	return rmdir(dir);
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

static void judged(struct review *rv, size_t judge, double pass, const double *m, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct verdict v = { 0 };
		verdict_ok(&v, pass, m[i], NULL);
		review_judge_done(rv, entry_of(rv, (int)i + 1), judge, &v);
		verdict_clear(&v);
	}
}

/* The session with every run scored, the judges' verdicts in their cells
 * as the cache would fill them, and the figures built. */
static void build_with(struct review *rv, struct calib *c, const struct calib_opts *o)
{
	struct error err = {0};
	char *paths[] = { runs_path };
	const char *annots[] = { labels_path };
	if (review_open_reading(rv, NULL, &cfg, NULL, paths, 1, annots, 1, "t", &err) < 0)
		fail_msg("review_open_reading: %s", err);
	while (review_step(rv, 0))
		;
	judged(rv, 0, 4, five_m, NRUNS);
	judged(rv, 1, 6, ten_m, 10);
	judged(rv, 2, 0.5, unit_m, 6);
	if (calib_build(c, rv, o, &err) < 0)
		fail_msg("calib_build: %s", err.msg);
}

static void build(struct review *rv, struct calib *c)
{
	struct calib_opts o = { .bootstrap = 0 };
	build_with(rv, c, &o);
}

/* ---- the textbook formulas --------------------------------------------------- */

struct expect {
	size_t k, n;
	size_t conf[CALIB_MAX_CATS * CALIB_MAX_CATS];
	double exact, within_one, kappa, kappa_q, tpr, tnr;
};

/* m and h are levels lo .. lo + k - 1, the machine's and the human's;
 * passing is >= pass. */
static void textbook(const double *m, const double *h, size_t n, double lo, size_t k,
                     double pass, struct expect *e)
{
	memset(e, 0, sizeof *e);
	e->k = k;
	e->n = n;
	double row[CALIB_MAX_CATS] = { 0 }, col[CALIB_MAX_CATS] = { 0 };
	size_t same = 0, near = 0, tp = 0, fn = 0, tn = 0, fp = 0;
	for (size_t i = 0; i < n; i++) {
		size_t a = (size_t)(m[i] - lo), b = (size_t)(h[i] - lo);
		e->conf[a * k + b]++;
		row[a]++;
		col[b]++;
		same += a == b;
		near += (a > b ? a - b : b - a) <= 1;
		bool mp = m[i] >= pass, hp = h[i] >= pass;
		tp += mp && hp;
		fn += !mp && hp;
		tn += !mp && !hp;
		fp += mp && !hp;
	}
	double N = (double)n;
	double po = (double)same / N, pe = 0;
	for (size_t i = 0; i < k; i++)
		pe += (row[i] / N) * (col[i] / N);
	e->exact = po;
	e->within_one = (double)near / N;
	e->kappa = (po - pe) / (1 - pe);
	/* weighted: 1 - sum w O / sum w E, E_ij = row_i col_j / N */
	double wo = 0, we = 0;
	for (size_t i = 0; i < k; i++)
		for (size_t j = 0; j < k; j++) {
			double w = ((double)i - (double)j) * ((double)i - (double)j) /
			           (((double)k - 1) * ((double)k - 1));
			wo += w * (double)e->conf[i * k + j];
			we += w * row[i] * col[j] / N;
		}
	e->kappa_q = 1 - wo / we;
	e->tpr = (double)tp / (double)(tp + fn);
	e->tnr = (double)tn / (double)(tn + fp);
}

static void near_eq(const char *what, const struct calib_fig *f, double want)
{
	if (!f->ok)
		fail_msg("%s undefined (%s), want %.9g", what, f->why ? f->why : "n/a", want);
	if (fabs(f->v - want) > 1e-9)
		fail_msg("%s %.12g, want %.12g", what, f->v, want);
}

static void check_ordinal(const struct calib_pair *p, const struct expect *e, double lo)
{
	assert_non_null(p);
	assert_int_equal(p->n, e->n);
	assert_int_equal(p->ncats, e->k);
	for (size_t i = 0; i < e->k; i++) {
		char name[32];
		snprintf(name, sizeof name, "%g", lo + (double)i);
		assert_string_equal(p->cat_names[i], name);
	}
	for (size_t i = 0; i < e->k * e->k; i++)
		if (p->counts[i] != e->conf[i])
			fail_msg("confusion cell %zu,%zu: %zu, want %zu", i / e->k, i % e->k, p->counts[i],
			         e->conf[i]);
	near_eq("agreement", &p->agreement, e->exact);
	near_eq("within_one", &p->within_one, e->within_one);
	near_eq("kappa", &p->kappa, e->kappa);
	near_eq("kappa_quadratic", &p->kappa_quadratic, e->kappa_q);
	near_eq("tpr", &p->tpr, e->tpr);
	near_eq("tnr", &p->tnr, e->tnr);
}

/* ---- the cases ----------------------------------------------------------------- */

static void test_custom_1to5(void **st)
{
	(void)st;
	struct review rv;
	struct calib c;
	build(&rv, &c);
	const struct calib_pair *p = calib_find(&c, "five");
	struct expect e;
	textbook(five_m, five_h, NRUNS, 1, 5, 4, &e);
	check_ordinal(p, &e, 1);
	/* the set is made so that the two kappas differ clearly */
	assert_true(fabs(p->kappa.v - p->kappa_quadratic.v) > 0.1);
	/* the pass/fail figures stay at the threshold */
	assert_true(p->threshold == 4);
	assert_int_equal(p->span.lo, 1);
	assert_int_equal(p->span.hi, 5);
	calib_free(&c);
	review_close(&rv);
}

static void test_custom_0to10(void **st)
{
	(void)st;
	struct review rv;
	struct calib c;
	build(&rv, &c);
	struct expect e;
	textbook(ten_m, ten_h, 10, 0, 11, 6, &e);
	check_ordinal(calib_find(&c, "ten"), &e, 0);
	calib_free(&c);
	review_close(&rv);
}

/* A record-field scorer with a 1..5 scale counts on its levels too. */
static void test_scorer_1to5(void **st)
{
	(void)st;
	struct review rv;
	struct calib c;
	build(&rv, &c);
	struct expect e;
	textbook(stars_m, stars_h, NRUNS, 1, 5, 3, &e);
	check_ordinal(calib_find(&c, "stars"), &e, 1);
	calib_free(&c);
	review_close(&rv);
}

/* A custom 0..1 scale is continuous: fail and pass at the threshold for
 * agreement, kappa and the confusion; MAE on the numbers; no within-one. */
static void test_custom_unit_stays(void **st)
{
	(void)st;
	struct review rv;
	struct calib c;
	build(&rv, &c);
	const struct calib_pair *p = calib_find(&c, "unit");
	assert_non_null(p);
	assert_int_equal(p->n, 6);
	assert_int_equal(p->ncats, 2);
	assert_string_equal(p->cat_names[0], "fail");
	assert_string_equal(p->cat_names[1], "pass");
	double mc[6], hc[6], mae = 0;
	for (size_t i = 0; i < 6; i++) {
		mc[i] = unit_m[i] >= 0.5;
		hc[i] = unit_h[i] >= 0.5;
		mae += fabs(unit_m[i] - unit_h[i]) / 6;
	}
	struct expect e;
	textbook(mc, hc, 6, 0, 2, 1, &e);
	for (size_t i = 0; i < 4; i++)
		assert_int_equal(p->counts[i], e.conf[i]);
	near_eq("agreement", &p->agreement, e.exact);
	near_eq("kappa", &p->kappa, e.kappa);
	near_eq("kappa_quadratic", &p->kappa_quadratic, e.kappa);  /* two categories */
	near_eq("mae", &p->mae, mae);
	near_eq("tpr", &p->tpr, e.tpr);
	near_eq("tnr", &p->tnr, e.tnr);
	assert_false(p->within_one.ok);
	assert_null(p->within_one.why);
	calib_free(&c);
	review_close(&rv);
}

/* --sweep on a custom integer scale: each level but the lowest, kappa on
 * pass/fail at that level computed by the textbook formula. */
static void test_sweep_levels(void **st)
{
	(void)st;
	struct review rv;
	struct calib c;
	static const char *const crit[] = { "ten" };
	struct calib_opts o = { .bootstrap = 0, .sweep = true, .criteria = crit, .ncriteria = 1 };
	build_with(&rv, &c, &o);
	assert_int_equal(c.nsweeps, 1);
	const struct calib_sweep *sw = &c.sweeps[0];
	assert_string_equal(sw->criterion, "ten");
	assert_int_equal(sw->npoints, 10);
	for (size_t i = 0; i < sw->npoints; i++) {
		double t = (double)i + 1;
		assert_true(sw->points[i].threshold == t);
		double mp[10], hp[10];
		for (size_t k = 0; k < 10; k++) {
			mp[k] = ten_m[k] >= t;
			hp[k] = ten_h[k] >= 6;     /* the humans' pass/fail at the configured pass */
		}
		struct expect e;
		textbook(mp, hp, 10, 0, 2, 1, &e);
		if (isfinite(e.kappa))
			near_eq("sweep kappa", &sw->points[i].kappa, e.kappa);
	}
	calib_free(&c);
	review_close(&rv);
}

/* The scale decides, not its name: whole-number bounds of up to eleven
 * levels other than 0..1 are an integer scale. */
static void test_levels(void **st)
{
	(void)st;
	struct scale s = scale_of(SCALE_1TO5);
	assert_int_equal(scale_levels(&s), 5);
	assert_true(scale_ordinal(&s));
	s = scale_of(SCALE_BINARY);
	assert_int_equal(scale_levels(&s), 2);
	assert_false(scale_ordinal(&s));
	s = scale_of(SCALE_UNIT);
	assert_int_equal(scale_levels(&s), 0);
	s = (struct scale){ SCALE_UNIT, 1, 5 };
	assert_int_equal(scale_levels(&s), 5);
	s = (struct scale){ SCALE_UNIT, -2, 2 };
	assert_int_equal(scale_levels(&s), 5);
	s = (struct scale){ SCALE_UNIT, 0, 10 };
	assert_int_equal(scale_levels(&s), 11);
	s = (struct scale){ SCALE_UNIT, 0, 11 };
	assert_int_equal(scale_levels(&s), 0);          /* twelve levels: continuous */
	s = (struct scale){ SCALE_UNIT, 0, 2.5 };
	assert_int_equal(scale_levels(&s), 0);
	s = (struct scale){ SCALE_UNIT, 0, 1 };
	assert_int_equal(scale_levels(&s), 0);
	/* an integer scale takes whole steps; a continuous one any number */
	s = (struct scale){ SCALE_UNIT, 0, 10 };
	assert_true(scale_holds(&s, 7));
	assert_false(scale_holds(&s, 7.5));
	s = (struct scale){ SCALE_UNIT, 0, 100 };
	assert_true(scale_holds(&s, 7.5));
	char buf[96];
	s = (struct scale){ SCALE_UNIT, 0, 5 };
	scale_describe_pass(&s, 2.5, buf, sizeof buf);
	assert_string_equal(buf, "0..5, passes at >= 3");
	s = scale_of(SCALE_BINARY);
	scale_describe_pass(&s, 0.5, buf, sizeof buf);
	assert_string_equal(buf, "binary, passes at 1");
	s = scale_of(SCALE_UNIT);
	scale_describe_pass(&s, 0.5, buf, sizeof buf);
	assert_string_equal(buf, "0..1, passes at >= 0.5");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_levels),
		cmocka_unit_test(test_custom_1to5),
		cmocka_unit_test(test_custom_0to10),
		cmocka_unit_test(test_scorer_1to5),
		cmocka_unit_test(test_custom_unit_stays),
		cmocka_unit_test(test_sweep_levels),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
