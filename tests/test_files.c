/* test_files.c - small file helpers, a reader without write access and a proxy-free environment for the C tests. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "test_files.h"

char *test_slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, len = 0, n;
	char *buf = malloc(cap);
	assert_non_null(buf);
	while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += n;
		if (cap - len < 2) {
			cap *= 2;
			buf = realloc(buf, cap);
			assert_non_null(buf);
		}
	}
	buf[len] = '\0';
	fclose(f);
	return buf;
}

void test_write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

void test_copy_file(const char *src, const char *dst)
{
	FILE *in = fopen(src, "rb");
	assert_non_null(in);
	FILE *out = fopen(dst, "wb");
	assert_non_null(out);
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, in)) > 0)
		assert_int_equal(fwrite(buf, 1, n, out), n);
	fclose(in);
	assert_int_equal(fclose(out), 0);
}

int test_as_reader(int (*fn)(void *ctx), void *ctx)
{
	if (geteuid() != 0)
		return fn(ctx);
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* 65534 is nobody on Debian and most others; what matters is that
		 * it is not root and does not own the file. */
		if (setgid(65534) != 0 || setuid(65534) != 0)
			_exit(125);
		_exit(fn(ctx) & 0x7f);
	}
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_not_equal(WEXITSTATUS(status), 125);
	return WEXITSTATUS(status);
}

void test_local_only(void)
{
	setenv("NO_PROXY", "127.0.0.1,localhost", 1);
	setenv("no_proxy", "127.0.0.1,localhost", 1);
	unsetenv("http_proxy");
	unsetenv("HTTP_PROXY");
	unsetenv("all_proxy");
	unsetenv("ALL_PROXY");
}
