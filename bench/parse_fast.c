/* parse_fast.c - the parse-only baseline of `make bench` on the program's
 * own parser: the least `tcreview score` has to do before scoring. Maps the
 * file as the datasets map it (a spare zero page after it, so no record is
 * copied for simdjson's padding), splits it at newlines, parses every
 * non-blank line with jdoc_parse and frees the tape; nothing else.
 *
 *   parse_fast FILE
 *
 * Prints "runs=N bytes=B seconds=S nodes=K" on stdout. Like tcreview's
 * streaming reader it releases the pages it has passed (every 8 MB), so its
 * peak RSS is the parser's, not the file's. Exits 1 when a line does not
 * parse. Links libtcr.a (and, through it, simdjson and the C++ runtime). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/jdoc.h"

#define DROP_STEP (8u << 20)

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The file read-only, followed by at least one page of zeros. */
static const char *map_padded(int fd, size_t size, size_t *mapped)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t total = (size + page - 1) / page * page + page;
	char *base = mmap(NULL, total, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED)
		return NULL;
	if (mmap(base, size, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0) == MAP_FAILED) {
		munmap(base, total);
		return NULL;
	}
	*mapped = total;
	return base;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fputs("usage: parse_fast FILE\n", stderr);
		return 2;
	}
	int fd = open(argv[1], O_RDONLY);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		fprintf(stderr, "parse_fast: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	size_t size = (size_t)st.st_size;
	if (size == 0) {
		printf("runs=0 bytes=0 seconds=0 nodes=0\n");
		return 0;
	}
	size_t mapped;
	const char *data = map_padded(fd, size, &mapped);
	if (!data) {
		fprintf(stderr, "parse_fast: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	close(fd);
	madvise((void *)data, size, MADV_SEQUENTIAL);
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	double t0 = now();
	size_t off = 0, dropped = 0, lineno = 0;
	unsigned long runs = 0, bad = 0;
	unsigned long long nodes = 0;
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
			struct jdoc_error err;
			struct jdoc *d = jdoc_parse(data + off, len, mapped - off, &err);
			if (d) {
				runs++;
				nodes += d->nnodes;
				jdoc_free(d);
			} else if (bad++ < 5) {
				fprintf(stderr, "parse_fast: %s:%zu:%d: %s\n", argv[1], lineno, err.column,
				        err.text);
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
	munmap((void *)data, mapped);
	printf("runs=%lu bytes=%zu seconds=%.6f nodes=%llu\n", runs, size, secs, nodes);
	if (bad) {
		fprintf(stderr, "parse_fast: %lu lines did not parse\n", bad);
		return 1;
	}
	return 0;
}
