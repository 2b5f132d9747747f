/* test_jsonl_log.c - util/jsonl_log: lines handed to their owner, broken
 * and cut lines reported with FILE:LINE, the warning limit, appends that
 * end a cut line first, following another process's appends, and the
 * read-only open of a file we may not write. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/jsonl_log.h"
#include "test_files.h"
#include "util/error.h"

static char dir[256];

static int setup(void **st)
{
	(void)st;
	const char *tmp = getenv("TMPDIR");
	snprintf(dir, sizeof dir, "%s/tcr-jsonl.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **st)
{
	(void)st;
	char cmd[512];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void spit(const char *path, const char *data)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	fputs(data, f);
	fclose(f);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	static char buf[4096];
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* The owner in these tests: takes objects with an integer "n", adds them up. */
struct sum {
	long total;
	int lines;
};

static bool take_n(void *ctx, json_t *o, char *why, size_t whylen)
{
	struct sum *s = ctx;
	json_t *n = json_object_get(o, "n");
	if (!json_is_integer(n)) {
		snprintf(why, whylen, "no \"n\"");
		return false;
	}
	s->total += (long)json_integer_value(n);
	s->lines++;
	return true;
}

static struct jsonl_log *open_sum(const char *path, struct sum *s, size_t warn_max,
                                  bool parse_unended, bool follow)
{
	struct jsonl_reader rd = {
		.take = take_n, .ctx = s, .warn_max = warn_max,
		.parse_unended = parse_unended, .follow = follow,
	};
	struct error err = {0};
	struct jsonl_log *l = jsonl_log_open(path, &rd, &err);
	assert_non_null(l);
	return l;
}

static void test_lines_and_warnings(void **st)
{
	(void)st;
	char path[300], want[1024];
	snprintf(path, sizeof path, "%s/a.jsonl", dir);
	spit(path, "{\"n\":1}\n\n  \nnot json\n{\"m\":2}\n{\"n\":5}\n");
	struct sum s = { 0 };
	struct jsonl_log *l = open_sum(path, &s, 10, true, true);
	assert_int_equal(s.lines, 2);
	assert_int_equal(s.total, 6);
	assert_string_equal(jsonl_log_path(l), path);
	const char *w = jsonl_log_warning(l);
	assert_non_null(w);
	snprintf(want, sizeof want, "%s:4: skipped: ", path);
	assert_memory_equal(w, want, strlen(want));
	snprintf(want, sizeof want, "\n%s:5: skipped: no \"n\"", path);
	assert_non_null(strstr(w, want));
	jsonl_log_close(l);
}

/* Past the limit only a count is kept. */
static void test_warning_limit(void **st)
{
	(void)st;
	char path[300], want[400];
	snprintf(path, sizeof path, "%s/limit.jsonl", dir);
	spit(path, "x\nx\nx\nx\nx\n");
	struct sum s = { 0 };
	struct jsonl_log *l = open_sum(path, &s, 2, true, true);
	const char *w = jsonl_log_warning(l);
	assert_non_null(w);
	snprintf(want, sizeof want, "\n%s: 3 more unreadable lines skipped", path);
	assert_non_null(strstr(w, want));
	snprintf(want, sizeof want, "%s:2: skipped", path);
	assert_non_null(strstr(w, want));
	snprintf(want, sizeof want, "%s:3: skipped", path);
	assert_null(strstr(w, want));
	jsonl_log_close(l);
}

/* A whole line left unended is parsed or reported, as the owner says;
 * either way the next append starts a line of its own. */
static void test_unended_line(void **st)
{
	(void)st;
	struct error err = {0};
	char path[300], want[400];
	for (int parse = 0; parse < 2; parse++) {
		snprintf(path, sizeof path, "%s/cut%d.jsonl", dir, parse);
		spit(path, "{\"n\":1}\n{\"n\":2}");
		struct sum s = { 0 };
		struct jsonl_log *l = open_sum(path, &s, 10, parse, false);
		assert_int_equal(s.total, parse ? 3 : 1);
		if (parse) {
			assert_null(jsonl_log_warning(l));
		} else {
			snprintf(want, sizeof want, "%s:2: " JSONL_TRUNCATED, path);
			assert_string_equal(jsonl_log_warning(l), want);
		}
		assert_int_equal(jsonl_log_append(l, "{\"n\":4}", 7, &err), 0);
		assert_int_equal(s.total, parse ? 3 : 1);       /* the owner adds its own */
		jsonl_log_close(l);
		assert_string_equal(slurp(path), "{\"n\":1}\n{\"n\":2}\n{\"n\":4}\n");
	}
}

/* A line holding DEL, a C1 control or a bidi control (as json_dumps
 * leaves them) is written with them escaped, so `cat` of any log is inert;
 * it reads back as the same value. */
static void test_controls_escaped(void **st)
{
	(void)st;
	struct error err = {0};
	char path[300];
	snprintf(path, sizeof path, "%s/controls.jsonl", dir);
	struct sum s = { 0 };
	struct jsonl_log *l = open_sum(path, &s, 10, true, false);
	const char line[] = "{\"n\":5,\"t\":\"\xc2\x9b" "2J\x7f\xe2\x80\xae\xc3\xa9\"}";
	assert_int_equal(jsonl_log_append(l, line, sizeof line - 1, &err), 0);
	jsonl_log_close(l);
	assert_string_equal(slurp(path), "{\"n\":5,\"t\":\"\\u009b2J\\u007f\\u202e\xc3\xa9\"}\n");
	s.total = 0;
	l = open_sum(path, &s, 10, true, false);
	assert_int_equal(s.total, 5);
	assert_null(jsonl_log_warning(l));
	jsonl_log_close(l);
}

/* A following log reads what another writer appended, before its own
 * append and on refresh, but never its own lines back. */
static void test_follow(void **st)
{
	(void)st;
	struct error err = {0};
	char path[300];
	snprintf(path, sizeof path, "%s/follow.jsonl", dir);
	spit(path, "");
	struct sum a = { 0 }, b = { 0 };
	struct jsonl_log *la = open_sum(path, &a, 10, true, true);
	struct jsonl_log *lb = open_sum(path, &b, 10, true, true);
	assert_int_equal(jsonl_log_append(la, "{\"n\":1}", 7, &err), 0);
	assert_int_equal(jsonl_log_refresh(lb), 1);
	assert_int_equal(b.total, 1);
	assert_int_equal(jsonl_log_append(la, "{\"n\":2}", 7, &err), 0);
	assert_int_equal(jsonl_log_append(lb, "{\"n\":10}", 8, &err), 0);
	assert_int_equal(b.total, 3);                   /* 1, then 2 read under the lock */
	assert_int_equal(jsonl_log_refresh(la), 1);
	assert_int_equal(a.total, 10);
	assert_int_equal(jsonl_log_refresh(la), 0);
	assert_null(jsonl_log_warning(la));
	jsonl_log_close(la);
	jsonl_log_close(lb);
	assert_string_equal(slurp(path), "{\"n\":1}\n{\"n\":2}\n{\"n\":10}\n");
}

/* A file that shrank is reported once; appends are refused after it. */
static void test_shrunk(void **st)
{
	(void)st;
	struct error err = {0};
	char path[300], want[400];
	snprintf(path, sizeof path, "%s/shrunk.jsonl", dir);
	spit(path, "{\"n\":1}\n{\"n\":2}\n");
	struct sum s = { 0 };
	struct jsonl_log *l = open_sum(path, &s, 10, true, true);
	spit(path, "{\"n\":1}\n");
	assert_int_equal(jsonl_log_refresh(l), 0);
	assert_int_equal(jsonl_log_refresh(l), 0);
	snprintf(want, sizeof want, "%s: the file shrank since it was read (rewritten by another program?); reopen it", path);
	assert_string_equal(jsonl_log_warning(l), want);
	assert_int_equal(jsonl_log_append(l, "{\"n\":3}", 7, &err), -1);
	snprintf(want, sizeof want, "%s: the file shrank since it was read; reopen it", path);
	assert_string_equal(err.msg, want);
	jsonl_log_close(l);
}

#define NCHILD 3
#define PER_CHILD 150

/* A line of about 3000 bytes, far past PIPE_BUF: {"n":1,"who":W,"pad":"..."}. */
static size_t long_line(char *buf, size_t cap, int who)
{
	int n = snprintf(buf, cap, "{\"n\":1,\"who\":%d,\"pad\":\"", who);
	while ((size_t)n < 3000 && (size_t)n + 3 < cap)
		buf[n++] = (char)('a' + who);
	n += snprintf(buf + n, cap - (size_t)n, "\"}");
	return (size_t)n;
}

static int append_lines(const char *path, int who, int count)
{
	struct sum s = { 0 };
	struct jsonl_reader rd = { .take = take_n, .ctx = &s, .warn_max = 10 };
	struct error err = {0};
	char line[3200];
	struct jsonl_log *l = jsonl_log_open(path, &rd, &err);
	if (!l)
		return 2;
	size_t len = long_line(line, sizeof line, who);
	for (int i = 0; count < 0 || i < count; i++)
		if (jsonl_log_append(l, line, len, &err) != 0)
			return 1;
	jsonl_log_close(l);
	return 0;
}

/* Writers that each open the file themselves (as the judge cache does)
 * never interleave their lines, and one killed with SIGKILL while
 * appending loses nothing already written: every line reads back whole. */
static void test_concurrent_and_killed(void **st)
{
	(void)st;
	char path[300];
	snprintf(path, sizeof path, "%s/many.jsonl", dir);
	spit(path, "");
	fflush(stdout);
	fflush(stderr);
	pid_t kids[NCHILD + 1];
	for (int c = 0; c <= NCHILD; c++) {
		kids[c] = fork();
		assert_true(kids[c] >= 0);
		if (kids[c] == 0)
			_exit(append_lines(path, c, c < NCHILD ? PER_CHILD : -1));
	}
	for (int c = 0; c < NCHILD; c++) {
		int status;
		assert_int_equal(waitpid(kids[c], &status, 0), kids[c]);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
	}
	kill(kids[NCHILD], SIGKILL);
	int status;
	assert_int_equal(waitpid(kids[NCHILD], &status, 0), kids[NCHILD]);
	assert_true(WIFSIGNALED(status));

	struct sum s = { 0 };
	struct jsonl_log *l = open_sum(path, &s, 10, false, false);
	const char *w = jsonl_log_warning(l);
	/* At most the killed writer's last line, cut mid-write, is reported. */
	if (w) {
		assert_non_null(strstr(w, JSONL_TRUNCATED));
		assert_null(strchr(w, '\n'));
	}
	assert_true(s.lines >= NCHILD * PER_CHILD);
	jsonl_log_close(l);
}

static void test_open_error(void **st)
{
	(void)st;
	struct error err = {0};
	char path[300];
	char want[400];
	snprintf(path, sizeof path, "%s/no/such/dir.jsonl", dir);
	struct sum s = { 0 };
	struct jsonl_reader rd = { .take = take_n, .ctx = &s, .warn_max = 1 };
	assert_null(jsonl_log_open(path, &rd, &err));
	snprintf(want, sizeof want, "%s: ", path);
	assert_memory_equal(err.msg, want, strlen(want));
}

struct ro_case {
	const char *path;
	const char *other;          /* a missing file */
};

/* As a user who may not write the file: the read-write open fails, the
 * read-only one reads it, refuses appends, follows the owner's lines. */
static int ro_reader(void *ctx)
{
	const struct ro_case *c = ctx;
	struct sum s = { 0 };
	struct jsonl_reader rd = { .take = take_n, .ctx = &s, .warn_max = 5, .follow = true };
	struct error err = {0};
	if (jsonl_log_open(c->path, &rd, &err))
		return 1;                                   /* the mode should have refused it */
	struct jsonl_log *l = jsonl_log_open_readonly(c->path, &rd, &err);
	if (!l)
		return 2;
	int rc = 0;
	if (s.lines != 2 || s.total != 3)
		rc = 3;
	else if (jsonl_log_append(l, "{\"n\":9}", 7, &err) != -1 ||
	         !strstr(err.msg, "opened read-only"))
		rc = 4;
	jsonl_log_close(l);
	if (!rc && jsonl_log_open_readonly(c->other, &rd, &err))
		rc = 5;                                     /* a missing file is not created */
	else if (!rc && access(c->other, F_OK) == 0)
		rc = 6;
	return rc;
}

static void test_read_only(void **st)
{
	(void)st;
	struct error err = {0};
	char path[300], other[300];
	snprintf(path, sizeof path, "%s/ro.jsonl", dir);
	snprintf(other, sizeof other, "%s/missing.jsonl", dir);
	spit(path, "{\"n\":1}\n{\"n\":2}\n");
	assert_int_equal(chmod(dir, 0755), 0);
	assert_int_equal(chmod(path, 0444), 0);
	struct ro_case c = { path, other };
	assert_int_equal(test_as_reader(ro_reader, &c), 0);

	/* Followed: the owner appends, the read-only reader sees it on refresh. */
	assert_int_equal(chmod(path, 0644), 0);
	struct sum mine = { 0 }, theirs = { 0 };
	struct jsonl_log *w = open_sum(path, &mine, 5, true, true);
	struct jsonl_reader rd = { .take = take_n, .ctx = &theirs, .warn_max = 5, .follow = true };
	struct jsonl_log *r = jsonl_log_open_readonly(path, &rd, &err);
	assert_non_null(r);
	assert_int_equal(jsonl_log_append(w, "{\"n\":10}", 8, &err), 0);
	assert_int_equal(jsonl_log_refresh(r), 1);
	assert_int_equal(theirs.total, 13);
	assert_null(jsonl_log_warning(r));
	jsonl_log_close(w);
	jsonl_log_close(r);
	/* missing: the reason names the file */
	assert_null(jsonl_log_open_readonly(other, &rd, &err));
	char want[400];
	snprintf(want, sizeof want, "%s: No such file", other);
	assert_memory_equal(err.msg, want, strlen(want));
	assert_int_equal(chmod(dir, 0700), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines_and_warnings),
		cmocka_unit_test(test_warning_limit),
		cmocka_unit_test(test_unended_line),
		cmocka_unit_test(test_follow),
		cmocka_unit_test(test_controls_escaped),
		cmocka_unit_test(test_shrunk),
		cmocka_unit_test(test_concurrent_and_killed),
		cmocka_unit_test(test_open_error),
		cmocka_unit_test(test_read_only),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
