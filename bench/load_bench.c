/* load_bench.c - the loaders' read rate for `make bench`: every record of a
 * file streamed (dataset_next), loaded by the format it is detected as
 * (dataset_load_run: parse, detection, the loader) and freed, on one
 * thread, so that one format's rate stands beside another's measured the
 * same way.
 *
 *   load_bench FILE
 *
 * Prints "runs=N calls=C bytes=B seconds=S cpu=S format=NAME" (the loop's
 * wall and processor time; the format of the first run) on stdout. The
 * processor time is the steadier on a busy machine. Exits 1 when a run
 * does not load. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>

#include "runs/dataset.h"
#include "runs/run.h"
#include "util/error.h"

static double clock_s(clockid_t which)
{
	struct timespec ts;
	clock_gettime(which, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fputs("usage: load_bench FILE\n", stderr);
		return 2;
	}
	struct stat st;
	if (stat(argv[1], &st) < 0) {
		perror(argv[1]);
		return 1;
	}
	struct dataset ds = { 0 };
	struct error err = {0};
	if (dataset_open(&ds, argv + 1, 1, &err) < 0) {
		fprintf(stderr, "load_bench: %s\n", err.msg);
		return 1;
	}
	double t0 = clock_s(CLOCK_MONOTONIC), c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
	struct dataset_cursor cur;
	struct record_ref rec;
	dataset_cursor_init(&cur);
	unsigned long runs = 0, calls = 0;
	const char *format = "none";
	int rc = 0;
	while (dataset_next(&ds, &cur, &rec)) {
		struct run *r = dataset_load_run(&ds, &rec, NULL, NULL, &err);
		if (!r || r->load_error) {
			fprintf(stderr, "load_bench: %s\n", r ? r->load_error : err.msg);
			run_free(r);
			rc = 1;
			break;
		}
		if (!runs++)
			format = r->format;     /* a string of the format table */
		calls += r->ncalls;
		run_free(r);
	}
	double secs = clock_s(CLOCK_MONOTONIC) - t0, cpu = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
	printf("runs=%lu calls=%lu bytes=%lld seconds=%.6f cpu=%.6f format=%s\n", runs, calls,
	       (long long)st.st_size, secs, cpu, format);
	dataset_close(&ds);
	return rc;
}
