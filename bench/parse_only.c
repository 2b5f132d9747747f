/* parse_only.c - the baseline of `make bench`: the least any JSONL scorer
 * built on jansson has to do. Maps the file, splits it at newlines, parses
 * every non-blank line with json_loadb and frees it; nothing else.
 *
 *   parse_only FILE
 *
 * Prints "runs=N bytes=B seconds=S" on stdout. Like tcreview's streaming
 * reader it releases the pages it has passed (every 8 MB), so its peak RSS
 * is the parser's, not the file's. Exits 1 when a line does not parse.
 * Links only jansson. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define DROP_STEP (8u << 20)

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fputs("usage: parse_only FILE\n", stderr);
		return 2;
	}
	int fd = open(argv[1], O_RDONLY);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		fprintf(stderr, "parse_only: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	size_t size = (size_t)st.st_size;
	if (size == 0) {
		printf("runs=0 bytes=0 seconds=0\n");
		return 0;
	}
	const char *data = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (data == MAP_FAILED) {
		fprintf(stderr, "parse_only: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	close(fd);
	madvise((void *)data, size, MADV_SEQUENTIAL);
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	double t0 = now();
	size_t off = 0, dropped = 0, lineno = 0;
	unsigned long runs = 0, bad = 0;
	while (off < size) {
		const char *nl = memchr(data + off, '\n', size - off);
		size_t end = nl ? (size_t)(nl - data) : size;
		size_t len = end - off;
		lineno++;
		if (len && data[off + len - 1] == '\r')
			len--;
		size_t k = 0;
		while (k < len && (data[off + k] == ' ' || data[off + k] == '\t'))
			k++;
		if (k < len) {
			json_error_t err;
			json_t *v = json_loadb(data + off, len, 0, &err);
			if (v) {
				runs++;
				json_decref(v);
			} else if (bad++ < 5) {
				fprintf(stderr, "parse_only: %s:%zu: %s\n", argv[1], lineno, err.text);
			}
		}
		off = nl ? end + 1 : size;
		if (off >= dropped + DROP_STEP) {
			size_t upto = off / page * page;
			madvise((char *)data + dropped, upto - dropped, MADV_DONTNEED);
			dropped = upto;
		}
	}
	double secs = now() - t0;
	munmap((void *)data, size);
	printf("runs=%lu bytes=%zu seconds=%.6f\n", runs, size, secs);
	if (bad) {
		fprintf(stderr, "parse_only: %lu lines did not parse\n", bad);
		return 1;
	}
	return 0;
}
