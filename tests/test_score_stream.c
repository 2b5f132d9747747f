/* test_score_stream.c - `score`'s loop, on none to four worker threads,
 * writes what a plain loop over the records writes: the same rows in input
 * order, the same messages on stderr before each record's rows, the same
 * totals, for a report that renders its rows (jsonl) and for one that
 * keeps state (table). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "cli/score_stream.h"
#include "config/config.h"
#include "util/strbuf.h"
#include "util/textvis.h"
#include "util/error.h"

static char dir[256];
static char runs_path[sizeof dir + 16];
static struct config cfg;

/* Records of every kind the loop handles: ordinary chat runs with calls,
 * lines that do not parse, records no loader knows, blank lines, records
 * with escape codes in what their messages quote (in the first half), and
 * now and then one larger than a batch. */
static void write_runs(const char *path, int n)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	for (int i = 0; i < n; i++) {
		/* The second half has nothing for stderr, so its batches are
		 * written whole. */
		switch (i < n / 2 ? i % 97 : 0) {
		case 13:
			fprintf(f, "{\"id\": \"bad-%d\", \"messages\": [\n", i);        /* does not parse */
			continue;
		case 29:
			/* malformed for its format, with an escape code in the message */
			fprintf(f, "{\"id\": \"odd-%d\", \"task_id\": 1, \"traj\": [{\"role\": "
			           "\"\\u001b[31mboss\", \"content\": \"x\"}]}\n", i);
			continue;
		case 61:
			fprintf(f, "{\"id\": \"what-%d\", \"what\": 1}\n", i);              /* no format */
			continue;
		case 41:
			fputs("   \n", f);
			continue;
		default:
			break;
		}
		fprintf(f, "{\"id\": \"run-%d\", \"config\": {\"expectedTool\": \"t%d\"}, \"messages\": ["
		           "{\"role\": \"user\", \"content\": \"find order %d and ship it\"},"
		           "{\"role\": \"assistant\", \"content\": \"\", \"tool_calls\": ["
		           "{\"id\": \"c%d\", \"type\": \"function\", \"function\": {\"name\": \"t%d\", "
		           "\"arguments\": \"{\\\"n\\\": %d}\"}}]},"
		           "{\"role\": \"tool\", \"tool_call_id\": \"c%d\", \"content\": \"",
		        i, i % 3, i, i, i % 5, i, i);
		/* One run in 250 carries a result longer than a batch. */
		size_t pad = i % 250 == 7 ? 300000 : (size_t)(i % 11) * 40;
		for (size_t k = 0; k < pad; k++)
			fputc('a' + (int)(k % 26), f);
		fprintf(f, "\"}, {\"role\": \"assistant\", \"content\": \"Order %d ships today.\"}]}\n", i);
	}
	fclose(f);
}

static int setup(void **state)
{
	(void)state;
	const char *tmp = getenv("TMPDIR");
	snprintf(dir, sizeof dir, "%s/tcr-score-stream.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	assert_non_null(mkdtemp(dir));
	snprintf(runs_path, sizeof runs_path, "%s/runs.jsonl", dir);
	write_runs(runs_path, 3000);
	static const char yaml[] =
		"scorers:\n"
		"  - id: tool\n"
		"    type: tool-call-accuracy\n"
		"    options: {from: config}\n"
		"  - id: order\n"
		"    type: tool-call-accuracy\n"
		"    expectedToolOrder: [t0, t1]\n"
		"  - id: words\n"
		"    type: word-inclusion\n";
	struct error err = {0};
	assert_int_equal(config_load_string(&cfg, NULL, "t.yaml", ".", yaml, sizeof yaml - 1, &err), 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	config_free(&cfg);
	unlink(runs_path);
	rmdir(dir);
	return 0;
}

struct result {
	char *out, *err;
	struct score_stats stats[8];
};

static char *read_all(FILE *f)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[65536];
	size_t n;
	rewind(f);
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		strbuf_add(&sb, buf, n);
	fclose(f);
	return strbuf_detach(&sb);
}

/* The loop `score` had before it had threads, as the reference: one
 * record at a time, its message on stderr, then its rows. */
static void reference_loop(struct dataset *ds, const struct evaluator *ev,
                           const struct report_ops *rep, void *st, struct score_stats *stats)
{
	struct verdict v[8];
	struct dataset_cursor cur;
	struct record_ref rec;
	dataset_cursor_init(&cur);
	while (dataset_next(ds, &cur, &rec)) {
		struct error err = {0};
		char src[512];
		record_source(ds, &rec, src, sizeof src);
		struct run *r = dataset_load_run(ds, &rec, NULL, cfg.run_id_path, &err);
		if (!r) {
			fputs("tcreview: ", stderr);
			textvis_fputs(stderr, err.msg);
			fputc('\n', stderr);
			evaluator_fail_all(ev, err.msg, v);
		} else {
			if (r->load_error) {
				fprintf(stderr, "tcreview: %s: ", r->source);
				textvis_fputs(stderr, r->load_error);
				fputc('\n', stderr);
			}
			evaluator_run(ev, r, v);
		}
		for (size_t i = 0; i < cfg.nscorers; i++) {
			struct score_stats *s = &stats[i];
			s->runs++;
			if (v[i].status == VERDICT_OK) {
				s->scored++;
				s->sum += v[i].score;
				s->passed += v[i].passed;
			} else if (v[i].status == VERDICT_SKIPPED) {
				s->skipped++;
			} else {
				s->errors++;
			}
			struct report_row row = { r ? r->id : src, r ? r->source : src, &cfg.scorers[i], &v[i],
			                          r ? r->format : NULL };
			rep->row(st, &row);
			verdict_clear(&v[i]);
		}
		run_free(r);
	}
}

/* Runs the loop on the file with `workers` threads (the reference loop
 * when workers < 0), stdout and stderr caught in temporary files. */
static struct result run_with(const char *report, int workers)
{
	struct result res;
	memset(&res, 0, sizeof res);
	struct dataset ds = { 0 };
	struct error err = {0};
	char *paths[] = { runs_path };
	assert_int_equal(dataset_open(&ds, paths, 1, &err), 0);
	struct evaluator ev = { .scorers = cfg.scorers, .nscorers = cfg.nscorers, .expect = NULL };
	const struct report_ops *rep = report_find(report);
	assert_non_null(rep);
	FILE *out = tmpfile(), *errf = tmpfile();
	assert_non_null(out);
	assert_non_null(errf);
	fflush(stderr);
	int saved = dup(2);
	assert_true(saved >= 0);
	assert_true(dup2(fileno(errf), 2) >= 0);
	void *st = rep->open(out, &cfg);
	if (workers < 0)
		reference_loop(&ds, &ev, rep, st, res.stats);
	else
		score_stream(&ds, &cfg, &ev, NULL, rep, st, res.stats, NULL, (unsigned)workers);
	rep->close(st, res.stats);
	fflush(stderr);
	assert_true(dup2(saved, 2) >= 0);
	close(saved);
	dataset_close(&ds);
	res.out = read_all(out);
	res.err = read_all(errf);
	return res;
}

static void expect_same(const struct result *a, const struct result *b)
{
	assert_string_equal(a->out, b->out);
	assert_string_equal(a->err, b->err);
	for (size_t i = 0; i < cfg.nscorers; i++) {
		assert_int_equal(a->stats[i].runs, b->stats[i].runs);
		assert_int_equal(a->stats[i].scored, b->stats[i].scored);
		assert_int_equal(a->stats[i].passed, b->stats[i].passed);
		assert_int_equal(a->stats[i].skipped, b->stats[i].skipped);
		assert_int_equal(a->stats[i].errors, b->stats[i].errors);
		/* Summed in the same order: the same double, to the bit. */
		assert_memory_equal(&a->stats[i].sum, &b->stats[i].sum, sizeof(double));
	}
}

static void result_free(struct result *r)
{
	free(r->out);
	free(r->err);
}

static void check_report(const char *report)
{
	struct result one = run_with(report, -1);
	/* What the loop must have seen: every run, its rows in order. */
	assert_int_equal(one.stats[0].runs, 3000 - 1500 / 97 - (1500 % 97 > 41));
	assert_non_null(strstr(one.err, "runs.jsonl:14: "));
	assert_non_null(strstr(one.err, "runs.jsonl:30: traj[0].role: unknown role \"^[[31mboss\"\n"));
	assert_non_null(strstr(one.err, "runs.jsonl:62: not a transcript format"));
	assert_null(strstr(one.err, "\x1b"));
	for (int workers = 0; workers <= 4; workers++) {
		struct result many = run_with(report, workers);
		expect_same(&one, &many);
		result_free(&many);
	}
	result_free(&one);
}

static void test_jsonl_same_as_serial(void **s)
{
	(void)s;
	check_report("jsonl");
	struct result one = run_with("jsonl", 2);
	/* Rows in input order: run-0 first, run-2999 last, run-1000 before run-1001. */
	assert_true(strncmp(one.out, "{\"run\":\"run-0\",", 15) == 0);
	const char *a = strstr(one.out, "\"run\":\"run-1000\""), *b = strstr(one.out, "\"run\":\"run-1001\"");
	assert_non_null(a);
	assert_non_null(b);
	assert_true(a < b);
	result_free(&one);
}

static void test_table_same_as_serial(void **s)
{
	(void)s;
	check_report("table");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jsonl_same_as_serial),
		cmocka_unit_test(test_table_same_as_serial),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
