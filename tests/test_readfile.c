/* test_readfile.c - util/readfile: a regular file read whole, the cap met
 * exactly and passed by one byte (by its size and while reading), links
 * followed, and a FIFO, a folder and a device refused with their names
 * and the file's, without blocking. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/readfile.h"
#include "util/strbuf.h"
#include "util/error.h"

static char dir[256];

static int setup(void **st)
{
	(void)st;
	const char *tmp = getenv("TMPDIR");
	snprintf(dir, sizeof dir, "%s/tcr-readfile.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **st)
{
	(void)st;
	char cmd[512];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static const char *in_dir(const char *name)
{
	static char path[2][512];
	static int k;
	k ^= 1;
	snprintf(path[k], sizeof path[k], "%s/%s", dir, name);
	return path[k];
}

static void spit(const char *path, const char *data, size_t n)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

/* read_regular_file's result: 0 with the text in *sb, or -1 with err. */
static int read_it(const char *path, size_t max, struct strbuf *sb, struct error *err)
{
	error_clear(err);
	/* A regression would block on a FIFO: the alarm fails the test instead. */
	alarm(120);
	int rc = read_regular_file(sb, path, max, err);
	alarm(0);
	return rc;
}

static void test_reads_whole_file(void **st)
{
	(void)st;
	const char *p = in_dir("a.txt");
	spit(p, "hello\nworld\n", 12);
	struct strbuf sb = STRBUF_INIT;
	struct error err = {0};
	strbuf_addstr(&sb, ">");
	assert_int_equal(read_it(p, 100, &sb, &err), 0);
	assert_string_equal(sb.buf, ">hello\nworld\n");
	assert_int_equal(sb.len, 13);
	strbuf_release(&sb);
}

static void test_empty_file(void **st)
{
	(void)st;
	const char *p = in_dir("empty.txt");
	spit(p, "", 0);
	struct strbuf sb = STRBUF_INIT;
	struct error err = {0};
	assert_int_equal(read_it(p, 100, &sb, &err), 0);
	assert_int_equal(sb.len, 0);
	strbuf_release(&sb);
}

static void test_cap_exact_and_one_more(void **st)
{
	(void)st;
	const char *p = in_dir("cap.txt");
	spit(p, "0123456789", 10);
	struct strbuf sb = STRBUF_INIT;
	struct error err = {0};
	assert_int_equal(read_it(p, 10, &sb, &err), 0);
	assert_int_equal(sb.len, 10);
	strbuf_release(&sb);
	assert_int_equal(read_it(p, 9, &sb, &err), -1);
	char want[600];
	snprintf(want, sizeof want, "%s: larger than 9 bytes", p);
	assert_string_equal(err.msg, want);
	strbuf_release(&sb);
}

/* A file of size 0 that has content (as /proc files do) is still capped,
 * while reading. */
static void test_cap_while_reading(void **st)
{
	(void)st;
	struct stat s;
	if (stat("/proc/self/status", &s) < 0 || s.st_size != 0) {
		skip();
		return;
	}
	struct strbuf sb = STRBUF_INIT;
	struct error err = {0};
	assert_int_equal(read_it("/proc/self/status", 16, &sb, &err), -1);
	assert_string_equal(err.msg, "/proc/self/status: larger than 16 bytes");
	assert_true(sb.len <= 16);
	strbuf_release(&sb);
	assert_int_equal(read_it("/proc/self/status", READ_CAP_CONFIG, &sb, &err), 0);
	assert_non_null(strstr(sb.buf, "Name:"));
	strbuf_release(&sb);
}

/* The size alone refuses a file past the cap: nothing of it is read. */
static void test_cap_by_size(void **st)
{
	(void)st;
	const char *p = in_dir("sparse.bin");
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (off_t)(READ_CAP_CONFIG + 1)), 0);
	close(fd);
	struct strbuf sb = STRBUF_INIT;
	struct error err = {0};
	char want[600];
	assert_int_equal(read_it(p, READ_CAP_CONFIG, &sb, &err), -1);
	snprintf(want, sizeof want, "%s: larger than 16 MB", p);
	assert_string_equal(err.msg, want);
	assert_true(sb.cap < 4096);         /* refused before any buffer grew */
	strbuf_release(&sb);
}

static void expect_refused(const char *path, const char *kind)
{
	struct strbuf sb = STRBUF_INIT;
	struct error err = {0};
	char want[600];
	assert_int_equal(read_it(path, 1000, &sb, &err), -1);
	snprintf(want, sizeof want, "%s: not a regular file (%s)", path, kind);
	assert_string_equal(err.msg, want);
	assert_int_equal(sb.len, 0);
	strbuf_release(&sb);
}

static void test_fifo_refused_without_blocking(void **st)
{
	(void)st;
	const char *p = in_dir("fifo");
	assert_int_equal(mkfifo(p, 0600), 0);
	expect_refused(p, "a FIFO");
	/* and through a link to it */
	const char *l = in_dir("fifo-link");
	assert_int_equal(symlink(p, l), 0);
	expect_refused(l, "a FIFO");
}

static void test_folder_and_devices_refused(void **st)
{
	(void)st;
	expect_refused(dir, "a folder");
	expect_refused("/dev/zero", "a device");
	expect_refused("/dev/null", "a device");
}

static void test_link_followed(void **st)
{
	(void)st;
	const char *p = in_dir("target.txt"), *l = in_dir("link.txt");
	spit(p, "via link", 8);
	assert_int_equal(symlink(p, l), 0);
	struct strbuf sb = STRBUF_INIT;
	struct error err = {0};
	assert_int_equal(read_it(l, 100, &sb, &err), 0);
	assert_string_equal(sb.buf, "via link");
	strbuf_release(&sb);
}

static void test_missing_named(void **st)
{
	(void)st;
	const char *p = in_dir("nothere.txt");
	struct strbuf sb = STRBUF_INIT;
	struct error err = {0};
	char want[600];
	assert_int_equal(read_it(p, 100, &sb, &err), -1);
	snprintf(want, sizeof want, "%s: %s", p, strerror(ENOENT));
	assert_string_equal(err.msg, want);
	strbuf_release(&sb);
}

/* open_regular with O_CREAT makes a missing file, refuses a FIFO, and
 * gives a blocking descriptor back. */
static void test_open_regular_create(void **st)
{
	(void)st;
	const char *p = in_dir("new.jsonl");
	struct error err = {0};
	int fd = open_regular(p, O_RDWR | O_APPEND | O_CREAT, 0644, &err);
	assert_true(fd >= 0);
	assert_int_equal(fcntl(fd, F_GETFL) & O_NONBLOCK, 0);
	assert_true(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	close(fd);
	const char *f = in_dir("fifo2");
	assert_int_equal(mkfifo(f, 0600), 0);
	alarm(120);
	fd = open_regular(f, O_RDWR | O_APPEND | O_CREAT, 0644, &err);
	alarm(0);
	assert_int_equal(fd, -1);
	char want[600];
	snprintf(want, sizeof want, "%s: not a regular file (a FIFO)", f);
	assert_string_equal(err.msg, want);
	/* no room for a message is no crash */
	assert_int_equal(open_regular("/dev/zero", O_RDONLY, 0, NULL), -1);
}

static void test_format_cap(void **st)
{
	(void)st;
	char b[32];
	format_cap(READ_CAP_CONFIG, b, sizeof b);
	assert_string_equal(b, "16 MB");
	format_cap(READ_CAP_EXPECTATIONS, b, sizeof b);
	assert_string_equal(b, "1 GB");
	format_cap(8192, b, sizeof b);
	assert_string_equal(b, "8 KB");
	format_cap(1000, b, sizeof b);
	assert_string_equal(b, "1000 bytes");
	assert_string_equal(file_type_name(S_IFSOCK), "a socket");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reads_whole_file),
		cmocka_unit_test(test_empty_file),
		cmocka_unit_test(test_cap_exact_and_one_more),
		cmocka_unit_test(test_cap_while_reading),
		cmocka_unit_test(test_cap_by_size),
		cmocka_unit_test(test_fifo_refused_without_blocking),
		cmocka_unit_test(test_folder_and_devices_refused),
		cmocka_unit_test(test_link_followed),
		cmocka_unit_test(test_missing_named),
		cmocka_unit_test(test_open_regular_create),
		cmocka_unit_test(test_format_cap),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
