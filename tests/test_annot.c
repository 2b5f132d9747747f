/* test_annot.c - the annotations file: exact lines, standing decisions,
 * a line cut by a crash, several processes appending at once, write
 * errors, and a big file. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include <jansson.h>

#include "annot/store.h"
#include "util/error.h"

static char dir[256];

static int setup(void **st)
{
	(void)st;
	const char *tmp = getenv("TMPDIR");
	snprintf(dir, sizeof dir, "%s/tcr-annot.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **st)
{
	(void)st;
	char cmd[512];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void path_in(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "%s/%s", dir, name);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	if (len)
		*len = (size_t)n;
	return buf;
}

static void spit(const char *path, const char *data)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	fputs(data, f);
	fclose(f);
}

static struct decision verdict(enum decision_kind k, const char *run, const char *scorer,
                               const char *reviewer, const char *at)
{
	struct decision d = {
		.kind = k, .run = run, .source = "runs.jsonl:3", .scorer = scorer,
		.scorer_type = "binary", .has_machine_score = true, .machine_score = 1,
		.has_machine_passed = true, .machine_passed = true,
		.reviewer = reviewer, .at = at, .config = "0123456789abcdef",
	};
	if (k == DEC_ACCEPT) {
		d.has_score = true;
		d.score = 1;
	}
	return d;
}

static void append_ok(struct annot_store *s, const struct decision *d)
{
	struct error err = {0};
	int r = annot_append(s, d, &err);
	if (r != 0)
		fail_msg("append: %s", err.msg);
}

#define L_ACCEPT "{\"v\":2,\"run\":\"r1\",\"source\":\"runs.jsonl:3\",\"run_hash\":null,\"scorer\":\"tca\"," \
	"\"scorer_type\":\"binary\",\"model\":null,\"prompt_hash\":null,\"machine_score\":1,\"machine_passed\":true," \
	"\"decision\":\"accept\",\"score\":1,\"reason\":null,\"reviewer\":\"ann\",\"blind\":false," \
	"\"at\":\"2026-12-01T09:30:00Z\",\"config\":\"0123456789abcdef\"}\n"
#define L_OVERRIDE "{\"v\":2,\"run\":\"r1\",\"source\":\"runs.jsonl:3\",\"run_hash\":null,\"scorer\":\"tca\"," \
	"\"scorer_type\":\"binary\",\"model\":null,\"prompt_hash\":null,\"machine_score\":1,\"machine_passed\":true," \
	"\"decision\":\"override\",\"score\":0.5,\"reason\":\"missed \\\"lookup\\\"\"," \
	"\"reviewer\":\"ann\",\"blind\":false,\"at\":\"2026-12-01T09:31:00Z\",\"config\":\"0123456789abcdef\"}\n"
#define L_RETRACT "{\"v\":2,\"run\":\"r1\",\"source\":\"runs.jsonl:3\",\"run_hash\":null,\"scorer\":\"tca\"," \
	"\"scorer_type\":\"binary\",\"model\":null,\"prompt_hash\":null,\"machine_score\":1,\"machine_passed\":true," \
	"\"decision\":\"retract\",\"score\":null,\"reason\":null,\"reviewer\":\"ann\",\"blind\":false," \
	"\"at\":\"2026-12-01T09:32:00Z\",\"config\":\"0123456789abcdef\"}\n"
#define L_NOTE "{\"v\":2,\"run\":\"r1\",\"source\":\"runs.jsonl:3\",\"run_hash\":null,\"scorer\":null," \
	"\"scorer_type\":null,\"model\":null,\"prompt_hash\":null,\"machine_score\":null,\"machine_passed\":null," \
	"\"decision\":\"note\",\"score\":null,\"reason\":\"line one\\nline two \xe6\x97\xa5\xe6\x9c\xac\"," \
	"\"reviewer\":\"ann\",\"blind\":false,\"at\":\"2026-12-01T09:33:00Z\",\"config\":null}\n"
#define L_BOB "{\"v\":2,\"run\":\"r1\",\"source\":\"runs.jsonl:3\",\"run_hash\":null,\"scorer\":\"tca\"," \
	"\"scorer_type\":\"0..1\",\"model\":null,\"prompt_hash\":null,\"machine_score\":0.25,\"machine_passed\":false," \
	"\"decision\":\"accept\",\"score\":0.25,\"reason\":null,\"reviewer\":\"bob\",\"blind\":false," \
	"\"at\":\"2026-12-01T09:34:00Z\",\"config\":\"0123456789abcdef\"}\n"

static void check_standing(struct annot_store *s)
{
	/* accept, override, retract: the accept stands again. */
	const struct decision *d = annot_current(s, "r1", "tca", "ann");
	assert_non_null(d);
	assert_int_equal(d->kind, DEC_ACCEPT);
	assert_true(d->has_score);
	assert_true(d->score == 1);
	assert_string_equal(d->at, "2026-12-01T09:30:00Z");
	assert_string_equal(d->source, "runs.jsonl:3");
	assert_string_equal(d->config, "0123456789abcdef");
	assert_null(d->reason);

	/* Bob's decision is his alone. */
	d = annot_current(s, "r1", "tca", "bob");
	assert_non_null(d);
	assert_string_equal(d->reviewer, "bob");
	assert_true(d->has_machine_passed);
	assert_false(d->machine_passed);
	assert_true(d->score == 0.25);
	assert_string_equal(d->scorer_type, "0..1");

	/* The retract of nothing on r2 was ignored; the accept after it stands. */
	d = annot_current(s, "r2", "tca", "ann");
	assert_non_null(d);
	assert_int_equal(d->kind, DEC_ACCEPT);
	assert_null(annot_current(s, "r2", "tca", "bob"));
	assert_null(annot_current(s, "r1", "other", "ann"));
	assert_null(annot_current(s, "r3", "tca", "ann"));

	d = annot_note(s, "r1", "ann");
	assert_non_null(d);
	assert_int_equal(d->kind, DEC_NOTE);
	assert_string_equal(d->reason, "line one\nline two \xe6\x97\xa5\xe6\x9c\xac");
	assert_null(d->scorer);
	assert_false(d->has_score);
	assert_false(d->has_machine_score);
	assert_false(d->has_machine_passed);
	assert_null(annot_note(s, "r1", "bob"));
	assert_null(annot_note(s, "r2", "ann"));
	/* A note is not a verdict decision. */
	assert_null(annot_current(s, "r1", NULL, "ann"));

	assert_int_equal(annot_count(s), 8);
	assert_null(annot_warning(s));
}

static void test_kinds_exact_lines(void **st)
{
	(void)st;
	struct error err = {0};
	char path[300];
	path_in(path, sizeof path, "kinds.jsonl");
	struct annot_store *s = annot_open(path, &err);
	assert_non_null(s);
	assert_string_equal(annot_path(s), path);
	assert_int_equal(annot_count(s), 0);
	assert_null(annot_warning(s));
	assert_null(annot_current(s, "r1", "tca", "ann"));

	struct decision d = verdict(DEC_ACCEPT, "r1", "tca", "ann", "2026-12-01T09:30:00Z");
	append_ok(s, &d);
	assert_int_equal(annot_current(s, "r1", "tca", "ann")->kind, DEC_ACCEPT);

	d = verdict(DEC_OVERRIDE, "r1", "tca", "ann", "2026-12-01T09:31:00Z");
	d.has_score = true;
	d.score = 0.5;
	d.reason = "missed \"lookup\"";
	append_ok(s, &d);
	const struct decision *cur = annot_current(s, "r1", "tca", "ann");
	assert_int_equal(cur->kind, DEC_OVERRIDE);
	assert_true(cur->score == 0.5);
	assert_string_equal(cur->reason, "missed \"lookup\"");

	d = verdict(DEC_RETRACT, "r1", "tca", "ann", "2026-12-01T09:32:00Z");
	append_ok(s, &d);

	struct decision note = {
		.kind = DEC_NOTE, .run = "r1", .source = "runs.jsonl:3",
		.reason = "first note", .reviewer = "ann", .at = "2026-12-01T09:32:30Z",
	};
	append_ok(s, &note);
	note.reason = "line one\nline two \xe6\x97\xa5\xe6\x9c\xac";
	note.at = "2026-12-01T09:33:00Z";
	append_ok(s, &note);

	d = verdict(DEC_ACCEPT, "r1", "tca", "bob", "2026-12-01T09:34:00Z");
	d.scorer_type = "0..1";
	d.machine_score = 0.25;
	d.machine_passed = false;
	d.score = 0.25;
	append_ok(s, &d);

	d = verdict(DEC_RETRACT, "r2", "tca", "ann", "2026-12-01T09:35:00Z");
	append_ok(s, &d);
	assert_null(annot_current(s, "r2", "tca", "ann"));
	d = verdict(DEC_ACCEPT, "r2", "tca", "ann", NULL);   /* `at` filled in */
	append_ok(s, &d);
	const char *at = annot_current(s, "r2", "tca", "ann")->at;
	assert_non_null(at);
	assert_int_equal(strlen(at), 20);
	assert_true(at[4] == '-' && at[10] == 'T' && at[19] == 'Z');

	check_standing(s);
	annot_close(s);

	/* The bytes: keys in order, nulls written, numbers as JavaScript. */
	char *text = slurp(path, NULL);
	char *lines[16];
	size_t n = 0;
	for (char *p = text; *p; n++) {
		assert_true(n < 16);
		lines[n] = p;
		char *nl = strchr(p, '\n');
		assert_non_null(nl);
		p = nl + 1;
	}
	assert_int_equal(n, 8);
	assert_memory_equal(lines[0], L_ACCEPT, strlen(L_ACCEPT));
	assert_memory_equal(lines[1], L_OVERRIDE, strlen(L_OVERRIDE));
	assert_memory_equal(lines[2], L_RETRACT, strlen(L_RETRACT));
	assert_memory_equal(lines[4], L_NOTE, strlen(L_NOTE));
	assert_memory_equal(lines[5], L_BOB, strlen(L_BOB));
	assert_memory_equal(lines[6], "{\"v\":2,\"run\":\"r2\"", 17);
	free(text);

	/* Read back, the standing decisions are the same. */
	s = annot_open(path, &err);
	assert_non_null(s);
	check_standing(s);
	annot_close(s);
}

static void test_skips_and_newer_lines(void **st)
{
	(void)st;
	struct error err = {0};
	char path[300];
	char want[2000];
	path_in(path, sizeof path, "mixed.jsonl");
	spit(path,
	     L_ACCEPT
	     "not json\n"
	     "\n"
	     "{\"v\":1,\"run\":\"r1\",\"decision\":\"accept\"}\n"
	     "{\"v\":1,\"run\":\"r1\",\"decision\":\"shrug\",\"reviewer\":\"ann\"}\n"
	     "[1,2]\n"
	     "{\"v\":1,\"run\":\"r1\",\"scorer\":\"tca\",\"decision\":\"accept\",\"score\":\"1\",\"reviewer\":\"ann\"}\n"
	     "{\"v\":2,\"run\":\"r1\",\"scorer\":\"tca\",\"decision\":\"override\",\"score\":0,"
	     "\"reviewer\":\"ann\",\"mood\":{\"x\":1},\"at\":\"2027-01-01T00:00:00Z\"}\n");
	struct annot_store *s = annot_open(path, &err);
	assert_non_null(s);
	assert_int_equal(annot_count(s), 2);
	const struct decision *d = annot_current(s, "r1", "tca", "ann");
	assert_non_null(d);
	assert_int_equal(d->kind, DEC_OVERRIDE);
	assert_true(d->has_score && d->score == 0);
	assert_null(d->config);
	const char *w = annot_warning(s);
	assert_non_null(w);
	snprintf(want, sizeof want,
	         "%s:2: skipped: ", path);
	assert_memory_equal(w, want, strlen(want));
	snprintf(want, sizeof want, "\n%s:4: skipped: no \"reviewer\"\n"
	         "%s:5: skipped: unknown decision \"shrug\"\n"
	         "%s:6: skipped: not a JSON object\n"
	         "%s:7: skipped: \"score\" is not a number", path, path, path, path);
	assert_non_null(strstr(w, want));
	assert_int_equal(strlen(strstr(w, want)), strlen(want));
	annot_close(s);
}

static void test_truncated_last_line(void **st)
{
	(void)st;
	struct error err = {0};
	char path[300];
	char want[400];
	path_in(path, sizeof path, "cut.jsonl");
	/* A valid line, then a line the writer was killed in the middle of. */
	const char *cut = "{\"v\":1,\"run\":\"r9\",\"source\":\"x.jsonl:1\",\"scor";
	char before[2048];
	snprintf(before, sizeof before, "%s%s", L_ACCEPT, cut);
	spit(path, before);

	struct annot_store *s = annot_open(path, &err);
	assert_non_null(s);
	/* A second reader, open before the next append, must agree with it. */
	struct annot_store *other = annot_open(path, &err);
	assert_non_null(other);
	snprintf(want, sizeof want,
	         "%s:2: truncated last line skipped (the program was stopped while writing?)", path);
	assert_non_null(annot_warning(s));
	assert_string_equal(annot_warning(s), want);
	assert_int_equal(annot_count(s), 1);
	assert_int_equal(annot_current(s, "r1", "tca", "ann")->kind, DEC_ACCEPT);

	struct decision d = verdict(DEC_OVERRIDE, "r1", "tca", "ann", "2026-12-01T09:31:00Z");
	d.has_score = true;
	d.score = 0.5;
	d.reason = "missed \"lookup\"";
	append_ok(s, &d);
	assert_int_equal(annot_count(s), 2);

	/* The broken line is still there, ended, and ours starts on its own. */
	size_t len;
	char *text = slurp(path, &len);
	size_t blen = strlen(before);
	assert_int_equal(len, blen + 1 + strlen(L_OVERRIDE));
	assert_memory_equal(text, before, blen);
	assert_int_equal(text[blen], '\n');
	assert_memory_equal(text + blen + 1, L_OVERRIDE, strlen(L_OVERRIDE));
	free(text);

	assert_int_equal(annot_refresh(other), 1);
	assert_int_equal(annot_count(other), 2);
	assert_int_equal(annot_current(other, "r1", "tca", "ann")->kind, DEC_OVERRIDE);
	assert_string_equal(annot_warning(other), want);    /* nothing new to say */
	assert_int_equal(annot_refresh(other), 0);
	append_ok(other, &d);                               /* no second '\n' */
	assert_int_equal(annot_refresh(s), 1);
	annot_close(other);
	annot_close(s);

	text = slurp(path, &len);
	assert_int_equal(len, blen + 1 + 2 * strlen(L_OVERRIDE));
	free(text);

	/* Read afresh the cut line is an ordinary bad line in the middle. */
	s = annot_open(path, &err);
	assert_non_null(s);
	assert_int_equal(annot_count(s), 3);
	snprintf(want, sizeof want, "%s:2: skipped: ", path);
	assert_memory_equal(annot_warning(s), want, strlen(want));
	assert_null(strchr(annot_warning(s), '\n'));
	annot_close(s);
}

/* A whole line without its '\n' (an editor that does not end files) is a
 * decision; the next append ends it rather than joining the two. */
static void test_unended_whole_line(void **st)
{
	(void)st;
	struct error err = {0};
	char path[300];
	path_in(path, sizeof path, "unended.jsonl");
	char before[1024];
	snprintf(before, sizeof before, "%s", L_ACCEPT);
	before[strlen(before) - 1] = '\0';
	spit(path, before);

	struct annot_store *s = annot_open(path, &err);
	assert_non_null(s);
	assert_null(annot_warning(s));
	assert_int_equal(annot_count(s), 1);
	struct decision d = verdict(DEC_RETRACT, "r1", "tca", "ann", "2026-12-01T09:32:00Z");
	append_ok(s, &d);
	assert_null(annot_current(s, "r1", "tca", "ann"));
	annot_close(s);

	char *text = slurp(path, NULL);
	char want[2048];
	snprintf(want, sizeof want, "%s%s", L_ACCEPT, L_RETRACT);
	assert_string_equal(text, want);
	free(text);

	s = annot_open(path, &err);
	assert_non_null(s);
	assert_int_equal(annot_count(s), 2);
	assert_null(annot_current(s, "r1", "tca", "ann"));
	assert_null(annot_warning(s));
	annot_close(s);
}

#define NCHILD 4
#define PER_PROC 200

static char *long_reason(int who, int i)
{
	/* About 3000 bytes: far past PIPE_BUF and a page's worth of lines. */
	static const char jp[] = "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe3\x81\xae\xe7\x90\x86\xe7\x94\xb1";
	char *r = malloc(3200);
	int n = snprintf(r, 3200, "proc %d decision %d: ", who, i);
	while (n + (int)sizeof jp < 3000) {
		memcpy(r + n, jp, sizeof jp - 1);
		n += (int)sizeof jp - 1;
	}
	r[n] = '\0';
	return r;
}

static int append_many(struct annot_store *s, int who)
{
	struct error err = {0};
	char run[32], reviewer[32];
	snprintf(reviewer, sizeof reviewer, "rev%d", who);
	for (int i = 0; i < PER_PROC; i++) {
		snprintf(run, sizeof run, "run-%d", i);
		char *reason = long_reason(who, i);
		struct decision d = verdict(DEC_OVERRIDE, run, "tca", reviewer, NULL);
		d.has_score = true;
		d.score = (double)i / PER_PROC;
		d.reason = reason;
		int r = annot_append(s, &d, &err);
		free(reason);
		if (r != 0) {
			fprintf(stderr, "child %d: %s\n", who, err.msg);
			return -1;
		}
	}
	return 0;
}

static void test_concurrent_appends(void **st)
{
	(void)st;
	struct error err = {0};
	char path[300];
	path_in(path, sizeof path, "shared.jsonl");
	struct annot_store *s = annot_open(path, &err);
	assert_non_null(s);

	int gate[2];
	assert_int_equal(pipe(gate), 0);
	fflush(stdout);
	fflush(stderr);
	pid_t kids[NCHILD];
	for (int c = 0; c < NCHILD; c++) {
		kids[c] = fork();
		assert_true(kids[c] >= 0);
		if (kids[c] == 0) {
			/* Each its own open: an inherited descriptor would share our lock. */
			close(gate[1]);
			char b;
			if (read(gate[0], &b, 1) < 0)
				_exit(3);
			struct annot_store *mine = annot_open(path, &err);
			if (!mine)
				_exit(2);
			int r = append_many(mine, c + 1);
			annot_close(mine);
			_exit(r == 0 ? 0 : 1);
		}
	}
	close(gate[0]);
	close(gate[1]);         /* let them all go */
	assert_int_equal(append_many(s, 0), 0);
	for (int c = 0; c < NCHILD; c++) {
		int status;
		assert_int_equal(waitpid(kids[c], &status, 0), kids[c]);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
	}
	const size_t total = (NCHILD + 1) * PER_PROC;
	annot_refresh(s);
	assert_int_equal(annot_count(s), total);
	assert_null(annot_warning(s));
	for (int c = 0; c <= NCHILD; c++) {
		char reviewer[32], run[32];
		snprintf(reviewer, sizeof reviewer, "rev%d", c);
		for (int i = 0; i < PER_PROC; i++) {
			snprintf(run, sizeof run, "run-%d", i);
			const struct decision *d = annot_current(s, run, "tca", reviewer);
			assert_non_null(d);
			assert_true(d->score == (double)i / PER_PROC);
			char *reason = long_reason(c, i);
			assert_string_equal(d->reason, reason);
			free(reason);
		}
	}
	annot_close(s);

	/* Every line whole: none interleaved with another. */
	char *text = slurp(path, NULL);
	size_t lines = 0;
	for (char *p = text; *p; lines++) {
		char *nl = strchr(p, '\n');
		assert_non_null(nl);
		json_error_t je;
		json_t *o = json_loadb(p, (size_t)(nl - p), 0, &je);
		if (!o)
			fail_msg("line %zu: %s", lines + 1, je.text);
		assert_true(json_is_string(json_object_get(o, "reviewer")));
		json_decref(o);
		p = nl + 1;
	}
	assert_int_equal(lines, total);
	free(text);

	s = annot_open(path, &err);
	assert_non_null(s);
	assert_int_equal(annot_count(s), total);
	assert_null(annot_warning(s));
	annot_close(s);
}

static bool exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

/* The file is made by the first decision, not by opening: opening and
 * closing leaves nothing behind; another store on the same missing file
 * finds the one the first made, reads its decisions and appends after
 * them under the lock. */
static void test_lazy_create(void **st)
{
	(void)st;
	struct error err = {0};
	char path[300];
	path_in(path, sizeof path, "lazy.jsonl");
	struct annot_store *a = annot_open(path, &err);
	assert_non_null(a);
	assert_false(exists(path));
	annot_close(a);
	assert_false(exists(path));

	a = annot_open(path, &err);
	struct annot_store *b = annot_open(path, &err);
	assert_non_null(a);
	assert_non_null(b);
	assert_int_equal(annot_refresh(b), 0);      /* nothing there yet */
	struct decision d = verdict(DEC_ACCEPT, "r1", "tca", "ann", "2026-12-01T09:30:00Z");
	assert_int_equal(annot_append(a, &d, &err), 0);
	assert_true(exists(path));
	assert_int_equal(annot_refresh(b), 1);      /* b finds the file a made */
	assert_non_null(annot_current(b, "r1", "tca", "ann"));
	struct decision e = verdict(DEC_ACCEPT, "r2", "tca", "bob", "2026-12-01T09:31:00Z");
	assert_int_equal(annot_append(b, &e, &err), 0);
	assert_int_equal(annot_count(b), 2);
	annot_close(b);
	assert_int_equal(annot_refresh(a), 1);
	annot_close(a);
	size_t len;
	char *text = slurp(path, &len);
	assert_int_equal(len > 0 && text[len - 1] == '\n', 1);
	size_t lines = 0;
	for (size_t i = 0; i < len; i++)
		lines += text[i] == '\n';
	assert_int_equal(lines, 2);
	free(text);

	/* A store made before another process wrote the file reads it at its
	 * first append (follow) and keeps the file order. */
	path_in(path, sizeof path, "lazy2.jsonl");
	a = annot_open(path, &err);
	assert_non_null(a);
	spit(path, L_ACCEPT);
	d = verdict(DEC_OVERRIDE, "r1", "tca", "ann", "2026-12-01T09:40:00Z");
	d.has_score = true;
	d.score = 0;
	assert_int_equal(annot_append(a, &d, &err), 0);
	assert_int_equal(annot_count(a), 2);
	assert_int_equal(annot_current(a, "r1", "tca", "ann")->kind, DEC_OVERRIDE);
	annot_close(a);
}

/* The folder gone between opening and the first decision: the decision is
 * refused with the reason, nothing is recorded, and nothing is claimed. */
static void test_lazy_folder_gone(void **st)
{
	(void)st;
	struct error err = {0};
	char sub[300], path[320];
	char want[500];
	path_in(sub, sizeof sub, "gone");
	assert_int_equal(mkdir(sub, 0755), 0);
	snprintf(path, sizeof path, "%s/x.jsonl", sub);
	struct annot_store *s = annot_open(path, &err);
	assert_non_null(s);
	assert_int_equal(rmdir(sub), 0);
	struct decision d = verdict(DEC_ACCEPT, "r1", "tca", "ann", NULL);
	assert_int_equal(annot_append(s, &d, &err), -1);
	snprintf(want, sizeof want, "%s: No such file or directory", path);
	assert_string_equal(err.msg, want);
	assert_int_equal(annot_count(s), 0);
	assert_null(annot_current(s, "r1", "tca", "ann"));
	annot_close(s);
	assert_false(exists(path));
}

/* A folder the reviewer cannot write to is said at open, before any work,
 * and nothing is created. Root writes anywhere, so as root the check runs
 * in a child that has become nobody. */
static void test_lazy_unwritable(void **st)
{
	(void)st;
	char ro[300], path[320];
	path_in(ro, sizeof ro, "ro");
	assert_int_equal(mkdir(ro, 0555), 0);
	assert_int_equal(chmod(dir, 0755), 0);
	snprintf(path, sizeof path, "%s/x.jsonl", ro);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (geteuid() == 0 && (setgid(65534) < 0 || setuid(65534) < 0))
			_exit(3);
		struct error err = {0};
		char want[1024];
		struct annot_store *s = annot_open(path, &err);
		snprintf(want, sizeof want, "%s: cannot be created: the folder %s is not writable "
		         "(Permission denied)", path, ro);
		_exit(s ? 4 : strcmp(err.msg, want) ? 5 : 0);
	}
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_false(exists(path));
	assert_int_equal(chmod(dir, 0700), 0);
}

static void test_open_errors(void **st)
{
	(void)st;
	struct error err = {0};
	char path[300];
	char want[1024];
	path_in(path, sizeof path, "no/such/dir.jsonl");
	assert_null(annot_open(path, &err));
	snprintf(want, sizeof want, "%s: cannot be created: %s/no/such: No such file or directory",
	         path, dir);
	assert_string_equal(err.msg, want);

	assert_null(annot_open(dir, &err));
	snprintf(want, sizeof want, "%s: not a regular file (a folder)", dir);
	assert_string_equal(err.msg, want);

	/* Root may write anyway, so the mode only counts for others. */
	if (geteuid() != 0) {
		path_in(path, sizeof path, "readonly.jsonl");
		spit(path, L_ACCEPT);
		assert_int_equal(chmod(path, 0444), 0);
		assert_null(annot_open(path, &err));
		snprintf(want, sizeof want, "%s: Permission denied", path);
		assert_string_equal(err.msg, want);
	}
}

static void test_write_errors(void **st)
{
	(void)st;
	struct error err = {0};
	char path[300], want[400];
	/* A device is no place for decisions: refused at open, not at the
	 * first write ("Invalid argument" on /dev/zero). */
	assert_null(annot_open("/dev/full", &err));
	assert_string_equal(err.msg, "/dev/full: not a regular file (a device)");

	/* A write that fails, as on a full disk: here past RLIMIT_FSIZE,
	 * which refuses every byte with EFBIG once SIGXFSZ is ignored. */
	path_in(path, sizeof path, "full.jsonl");
	struct annot_store *s = annot_open(path, &err);
	assert_non_null(s);
	struct rlimit old, none;
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	none = old;
	none.rlim_cur = 0;
	void (*was)(int) = signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &none), 0);
	struct decision d = verdict(DEC_ACCEPT, "r1", "tca", "ann", NULL);
	int rc = annot_append(s, &d, &err);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, was);
	assert_int_equal(rc, -1);
	snprintf(want, sizeof want, "%s: %s", path, strerror(EFBIG));
	assert_string_equal(err.msg, want);
	assert_int_equal(annot_count(s), 0);
	assert_null(annot_current(s, "r1", "tca", "ann"));
	assert_int_equal(annot_refresh(s), 0);
	annot_close(s);

	/* What could not be read back is refused before it reaches the file. */
	path_in(path, sizeof path, "refused.jsonl");
	s = annot_open(path, &err);
	assert_non_null(s);
	d = verdict(DEC_OVERRIDE, "r1", "tca", "ann", NULL);
	d.reason = "bad \xff byte";
	assert_int_equal(annot_append(s, &d, &err), -1);
	snprintf(want, sizeof want, "%s: text is not valid UTF-8", path);
	assert_string_equal(err.msg, want);
	d.reason = NULL;
	d.has_score = true;
	d.score = 0.0 / 0.0;
	assert_int_equal(annot_append(s, &d, &err), -1);
	d = verdict(DEC_ACCEPT, NULL, "tca", "ann", NULL);
	assert_int_equal(annot_append(s, &d, &err), -1);
	d = verdict(DEC_ACCEPT, "r1", "tca", NULL, NULL);
	assert_int_equal(annot_append(s, &d, &err), -1);
	snprintf(want, sizeof want, "%s: a decision needs a run and a reviewer", path);
	assert_string_equal(err.msg, want);
	assert_int_equal(annot_count(s), 0);
	annot_close(s);
	/* Nothing refused reached the file: it was never even made. */
	struct stat sb;
	assert_int_equal(stat(path, &sb), -1);
	assert_int_equal(errno, ENOENT);
}

/* A write cut short (here by the file size limit, as a full disk would):
 * the append fails and records nothing, and the next one ends the part
 * that reached the file before writing its own line. */
static void test_short_write(void **st)
{
	(void)st;
	struct error err = {0};
	char path[300];
	char want[400];
	path_in(path, sizeof path, "short.jsonl");
	spit(path, L_ACCEPT);
	struct annot_store *s = annot_open(path, &err);
	assert_non_null(s);

	struct rlimit old, lim;
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim = old;
	lim.rlim_cur = strlen(L_ACCEPT) + 100;
	void (*was)(int) = signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	char *reason = long_reason(0, 0);
	struct decision d = verdict(DEC_OVERRIDE, "r1", "tca", "ann", "2026-12-01T09:31:00Z");
	d.has_score = true;
	d.score = 0;
	d.reason = reason;
	int r = annot_append(s, &d, &err);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, was);
	assert_int_equal(r, -1);
	snprintf(want, sizeof want, "%s: File too large", path);
	assert_string_equal(err.msg, want);
	assert_int_equal(annot_count(s), 1);
	assert_int_equal(annot_current(s, "r1", "tca", "ann")->kind, DEC_ACCEPT);

	append_ok(s, &d);
	assert_int_equal(annot_count(s), 2);
	assert_int_equal(annot_current(s, "r1", "tca", "ann")->kind, DEC_OVERRIDE);
	annot_close(s);

	size_t len;
	char *text = slurp(path, &len);
	size_t head = strlen(L_ACCEPT) + 100;
	assert_memory_equal(text, L_ACCEPT, strlen(L_ACCEPT));
	assert_int_equal(text[head], '\n');
	assert_memory_equal(text + head + 1, text + strlen(L_ACCEPT), 100);
	assert_int_equal(text[len - 1], '\n');
	free(text);

	s = annot_open(path, &err);
	assert_non_null(s);
	assert_int_equal(annot_count(s), 2);
	assert_string_equal(annot_current(s, "r1", "tca", "ann")->reason, reason);
	snprintf(want, sizeof want, "%s:2: skipped: ", path);
	assert_memory_equal(annot_warning(s), want, strlen(want));
	annot_close(s);
	free(reason);
}

#define BIG_RUNS 32000

static void test_big_file(void **st)
{
	(void)st;
	struct error err = {0};
	char path[300];
	path_in(path, sizeof path, "big.jsonl");
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	/* Four passes over every (run, scorer) so the replay spans the file:
	 * accept; override; a retract on every third; a second reviewer. */
	size_t lines = 0;
	const char *fmt = "{\"v\":1,\"run\":\"run-%d\",\"source\":\"big.jsonl:%d\",\"scorer\":\"s%d\","
	                  "\"scorer_type\":\"0..1\",\"machine_score\":0.75,\"machine_passed\":true,"
	                  "\"decision\":\"%s\",\"score\":%s,\"reason\":%s,\"reviewer\":\"%s\","
	                  "\"at\":\"2026-12-01T09:30:00Z\",\"config\":\"0123456789abcdef\"}\n";
	for (int pass = 0; pass < 4; pass++)
		for (int r = 0; r < BIG_RUNS; r++) {
			int sc = r % 2;
			if (pass == 0)
				fprintf(f, fmt, r, r + 1, sc, "accept", "0.75", "null", "ann");
			else if (pass == 1)
				fprintf(f, fmt, r, r + 1, sc, "override", "0.5", "\"no\"", "ann");
			else if (pass == 2 && r % 3 == 0)
				fprintf(f, fmt, r, r + 1, sc, "retract", "null", "null", "ann");
			else if (pass == 3)
				fprintf(f, fmt, r, r + 1, sc, "accept", "0.75", "null", "bob");
			else
				continue;
			lines++;
		}
	fclose(f);
	assert_true(lines >= 100000);

	struct annot_store *s = annot_open(path, &err);
	assert_non_null(s);
	assert_null(annot_warning(s));
	assert_int_equal(annot_count(s), lines);
	char run[32], scorer[8];
	for (int r = 0; r < BIG_RUNS; r++) {
		snprintf(run, sizeof run, "run-%d", r);
		snprintf(scorer, sizeof scorer, "s%d", r % 2);
		const struct decision *d = annot_current(s, run, scorer, "ann");
		assert_non_null(d);
		assert_int_equal(d->kind, r % 3 == 0 ? DEC_ACCEPT : DEC_OVERRIDE);
		d = annot_current(s, run, scorer, "bob");
		assert_non_null(d);
		assert_int_equal(d->kind, DEC_ACCEPT);
		snprintf(scorer, sizeof scorer, "s%d", 1 - r % 2);
		assert_null(annot_current(s, run, scorer, "ann"));
	}
	annot_close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kinds_exact_lines),
		cmocka_unit_test(test_skips_and_newer_lines),
		cmocka_unit_test(test_truncated_last_line),
		cmocka_unit_test(test_unended_whole_line),
		cmocka_unit_test(test_concurrent_appends),
		cmocka_unit_test(test_open_errors),
		cmocka_unit_test(test_lazy_create),
		cmocka_unit_test(test_lazy_folder_gone),
		cmocka_unit_test(test_lazy_unwritable),
		cmocka_unit_test(test_write_errors),
		cmocka_unit_test(test_short_write),
		cmocka_unit_test(test_big_file),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
