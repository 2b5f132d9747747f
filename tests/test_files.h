/* test_files.h - what the C tests that run the local test server share:
 * reading, writing and copying small files, and an environment in which
 * nothing goes through a proxy. */
#ifndef TCR_TESTS_TEST_FILES_H
#define TCR_TESTS_TEST_FILES_H

/* The whole file, NUL-terminated (malloc'd), or NULL when it cannot be opened. */
char *test_slurp(const char *path);
/* Writes text to path; fails the test when it cannot. */
void test_write_file(const char *path, const char *text);
/* Copies src to dst byte for byte; fails the test when it cannot. */
void test_copy_file(const char *src, const char *dst);
/* The test server is on 127.0.0.1: no proxy may come between. */
void test_local_only(void);

#endif
