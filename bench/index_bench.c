/* index_bench.c - times tcreview's record index and streaming cursor.
 *
 *   index_bench FILE
 *
 * Opens FILE with dataset_open, times dataset_index_all (the screen's line
 * index), then opens it again and times a pass of dataset_next over every
 * record (the streaming reader `tcreview score` uses), parsing nothing.
 * Prints one line on stdout:
 *   records=N bytes=B index_seconds=S index_gbps=G stream_seconds=S stream_gbps=G
 * (1 GB = 10^9 bytes). Exits 1 when the two passes disagree on the count. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "runs/dataset.h"
#include "util/error.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fputs("usage: index_bench FILE\n", stderr);
		return 2;
	}
	struct error err = {0};
	struct dataset ds;
	if (dataset_open(&ds, argv + 1, 1, &err) < 0) {
		fprintf(stderr, "index_bench: %s\n", err.msg);
		return 1;
	}
	uint64_t bytes = ds.bytes_total;
	double t0 = now();
	dataset_index_all(&ds);
	double t_index = now() - t0;
	size_t nrecs = ds.nrecs;
	dataset_close(&ds);

	if (dataset_open(&ds, argv + 1, 1, &err) < 0) {
		fprintf(stderr, "index_bench: %s\n", err.msg);
		return 1;
	}
	struct dataset_cursor cur;
	struct record_ref rec;
	size_t nstream = 0;
	uint64_t sum = 0;           /* keeps the loop from being optimised away */
	t0 = now();
	dataset_cursor_init(&cur);
	while (dataset_next(&ds, &cur, &rec)) {
		nstream++;
		sum += rec.len;
	}
	double t_stream = now() - t0;
	dataset_close(&ds);

	if (nstream != nrecs) {
		fprintf(stderr, "index_bench: index found %zu records, the cursor %zu\n", nrecs, nstream);
		return 1;
	}
	if (sum > bytes) {
		fprintf(stderr, "index_bench: records add up to more bytes than the file has\n");
		return 1;
	}
	printf("records=%zu bytes=%llu index_seconds=%.6f index_gbps=%.3f stream_seconds=%.6f stream_gbps=%.3f\n",
	       nrecs, (unsigned long long)bytes, t_index, t_index > 0 ? (double)bytes / t_index / 1e9 : 0,
	       t_stream, t_stream > 0 ? (double)bytes / t_stream / 1e9 : 0);
	return 0;
}
