/* review_bench.c - how quickly a review session answers on a big input.
 *
 *   review_bench CONFIG FILE
 *
 * Opens FILE as the review screen does (annotations beside it, as by
 * default) and times, on the monotonic clock:
 *   first     review_open, then review_step (2 ms slices, so the figure is
 *             not rounded up to a slice) until the first 50 entries are
 *             summarized: the first screenful
 *   index     review_step until the whole file is indexed
 *   moves     1000 review_move to a random position + review_settle while
 *             the background scoring is still going (mostly cache misses)
 *   score     review_step until nothing is left (every run scored)
 *   search    one review_search that matches nothing (every record read)
 *   filter    review_set_filter(failing), then back to all
 *   sort      review_set_sort(id), then back to file order
 *   calib     calib_build as the calibration pane does (no bootstrap) and as
 *             `tcreview stats` does (1000 resamples), once two reviewers
 *             have labelled every row of 30% of the runs (lines appended
 *             to the session's annotations file, read by review_refresh)
 * The annotations go to FILE.bench-labels.jsonl, emptied first and removed
 * at the end, so a run of the benchmark never sees an earlier one's. It
 * prints one line of KEY=VALUE fields (milliseconds). Not part of
 * `make check`; bench/bench.sh builds and runs it. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config/config.h"
#include "runs/expect.h"
#include "review/calib.h"
#include "review/rows.h"
#include "review/session.h"
#include "review/settle.h"

#define FIRST_SCREEN 50
#define NMOVES 1000

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Two reviewers' labels on every row of about 30% of the runs: a on the
 * machine's side mostly, b disagreeing now and then, so every figure has
 * something to count. Returns how many labels were written. */
static size_t write_labels(struct review *rv, const char *path)
{
	FILE *f = fopen(path, "a");
	if (!f)
		return 0;
	size_t n = 0;
	for (size_t e = 0; e < rv->nentries; e++) {
		const struct review_entry *en = &rv->entries[e];
		if (!en->summarized || e % 10 >= 3)
			continue;
		for (size_t r = 0; r < review_nrows(rv); r++) {
			for (int who = 0; who < 2; who++) {
				int score = (int)((e / 10 + r + (size_t)who * (e % 7 == 0)) % 2);
				fprintf(f, "{\"v\":2,\"run\":\"%s\",\"scorer\":\"%s\",\"decision\":"
				        "\"override\",\"score\":%d,\"reviewer\":\"%s\","
				        "\"at\":\"2026-01-01T00:00:00Z\"}\n", en->id, review_row_id(rv, r),
				        score, who ? "b" : "a");
				n++;
			}
		}
	}
	fclose(f);
	return n;
}

static double calib_time(struct review *rv, size_t resamples, size_t *pairs)
{
	struct calib_opts o = { .bootstrap = resamples, .seed = 1 };
	struct calib c;
	struct error err = {0};
	double t0 = now_ms();
	if (calib_build(&c, rv, &o, &err) < 0) {
		fprintf(stderr, "review_bench: %s\n", err.msg);
		exit(1);
	}
	double t = now_ms() - t0;
	*pairs = c.npairs;
	calib_free(&c);
	return t;
}

static bool first_screen_ready(const struct review *rv)
{
	if (rv->nentries < FIRST_SCREEN)
		return !review_busy(rv);
	for (size_t i = 0; i < FIRST_SCREEN; i++)
		if (!rv->entries[i].summarized)
			return false;
	return true;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fputs("usage: review_bench CONFIG FILE\n", stderr);
		return 2;
	}
	struct error err = {0};
	struct config cfg;
	/* the judges' built-in prompts, as the command finds them */
	const struct config_opts opts = { .datadir = getenv("TCREVIEW_DATADIR") };
	if (config_load(&cfg, &opts, argv[1], &err) < 0) {
		fprintf(stderr, "review_bench: %s\n", err.msg);
		return 1;
	}
	struct expectations *ex = NULL;
	if (cfg.has_expect && !(ex = expect_load(&cfg.expect, NULL, &err))) {
		fprintf(stderr, "review_bench: %s\n", err.msg);
		config_free(&cfg);
		return 1;
	}

	char labels[4096];
	snprintf(labels, sizeof labels, "%s.bench-labels.jsonl", argv[2]);
	FILE *empty = fopen(labels, "w");
	if (empty)
		fclose(empty);
	const char *apaths[] = { labels };
	double t0 = now_ms();
	struct review rv;
	if (review_open(&rv, &cfg, ex, argv + 2, 1, apaths, 1, "bench", &err) < 0) {
		fprintf(stderr, "review_bench: %s\n", err.msg);
		expect_free(ex);
		config_free(&cfg);
		return 1;
	}
	int steps = 0;
	while (!first_screen_ready(&rv)) {
		review_step(&rv, 2);
		steps++;
	}
	double t_first = now_ms() - t0;
	size_t first_indexed = rv.nentries;

	t0 = now_ms();
	while (!rv.ds.indexed)
		review_step(&rv, 20);
	double t_index = now_ms() - t0;

	/* A fixed seed, so runs of the benchmark visit the same runs. */
	srand(1);
	double worst = 0;
	t0 = now_ms();
	for (int i = 0; i < NMOVES; i++) {
		double t = now_ms();
		size_t n = review_view_count(&rv);
		long to = (long)((size_t)rand() % n);
		review_move(&rv, to - (long)review_cursor(&rv));
		review_settle(&rv);     /* as the screen does after a key: loads the run */
		if (!review_current(&rv)) {
			fprintf(stderr, "review_bench: no run at %ld\n", to);
			return 1;
		}
		t = now_ms() - t;
		if (t > worst)
			worst = t;
	}
	double t_moves = now_ms() - t0;

	t0 = now_ms();
	while (review_step(&rv, 50))
		;
	double t_score = now_ms() - t0;

	t0 = now_ms();
	bool hit = review_search(&rv, "no such text in any run, anywhere", 1);
	double t_search = now_ms() - t0;

	t0 = now_ms();
	review_set_filter(&rv, FILTER_FAILING);
	size_t nfailing = review_view_count(&rv);
	review_set_filter(&rv, FILTER_ALL);
	double t_filter = now_ms() - t0;

	t0 = now_ms();
	review_set_sort(&rv, SORT_ID);
	review_set_sort(&rv, SORT_FILE);
	double t_sort = now_ms() - t0;

	size_t nlabels = write_labels(&rv, labels);
	t0 = now_ms();
	review_refresh(&rv);
	double t_refresh = now_ms() - t0;
	size_t npairs = 0;
	double t_pane = calib_time(&rv, 0, &npairs);
	double t_stats = calib_time(&rv, 1000, &npairs);

	printf("runs=%zu first_ms=%.1f first_steps=%d first_indexed=%zu index_ms=%.1f "
	       "moves=%d moves_ms=%.1f move_avg_ms=%.3f move_worst_ms=%.2f score_ms=%.0f "
	       "search_ms=%.1f%s filter_ms=%.1f failing=%zu sort_ms=%.1f cache_mb=%.1f cached=%zu "
	       "labels=%zu refresh_ms=%.1f calib_pairs=%zu calib_pane_ms=%.1f calib_boot1000_ms=%.0f\n",
	       rv.nentries, t_first, steps, first_indexed, t_index, NMOVES, t_moves,
	       t_moves / NMOVES, worst, t_score, t_search, hit ? " (matched!)" : "", t_filter,
	       nfailing, t_sort, (double)rv.cache_bytes / (1 << 20), rv.ncached,
	       nlabels, t_refresh, npairs, t_pane, t_stats);
	review_close(&rv);
	remove(labels);
	expect_free(ex);
	config_free(&cfg);
	return 0;
}
