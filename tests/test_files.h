/* test_files.h - what the C tests that run the local test server share:
 * reading, writing and copying small files, running as a user without
 * write access, and an environment in which nothing goes through a proxy. */
#ifndef TCR_TESTS_TEST_FILES_H
#define TCR_TESTS_TEST_FILES_H

/* The whole file, NUL-terminated (malloc'd), or NULL when it cannot be opened. */
char *test_slurp(const char *path);
/* Writes text to path; fails the test when it cannot. */
void test_write_file(const char *path, const char *text);
/* Copies src to dst byte for byte; fails the test when it cannot. */
void test_copy_file(const char *src, const char *dst);
/* Runs fn(ctx) as someone who may read but not write a file mode 0444 of
 * ours: directly when we are not root (the mode binds us), else in a child
 * that drops to the user nobody (root ignores modes). The folders on the
 * way must be searchable by others. Returns what fn returned. */
int test_as_reader(int (*fn)(void *ctx), void *ctx);
/* The test server is on 127.0.0.1: no proxy may come between. */
void test_local_only(void);

#endif
