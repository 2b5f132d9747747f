/* test_folder_walk.c - input folders walked by device and inode: links back
 * to a folder (`a -> .`, `b -> .`, `up -> ..`, `sub/back -> ..`) skipped
 * with one warning each, a file reached by two paths taken once, the order
 * of the files kept, a folder named twice read once, ten links to the
 * folder itself (once exponential) bounded, and the dataset opening the
 * files of such a folder once each. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "runs/dataset.h"
#include "runs/folder_walk.h"
#include "util/error.h"

static char top[256];           /* the temporary folder; the inputs are in top/d */
static char d[300];

static void put_file(const char *rel, const char *text)
{
	char p[512];
	snprintf(p, sizeof p, "%s/%s", d, rel);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void put_link(const char *target, const char *rel)
{
	char p[512];
	snprintf(p, sizeof p, "%s/%s", d, rel);
	assert_int_equal(symlink(target, p), 0);
}

static const char run_line[] = "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}\n";

/* A new folder named after stem in $TMPDIR (else the system's). */
static void make_temp(char *out, size_t n, const char *stem)
{
	const char *tmp = getenv("TMPDIR");
	snprintf(out, n, "%s/%s.XXXXXX", tmp && *tmp ? tmp : P_tmpdir, stem);
	assert_non_null(mkdtemp(out));
}

static int setup(void **s)
{
	(void)s;
	make_temp(top, sizeof top, "tcr-walk");
	snprintf(d, sizeof d, "%s/d", top);
	assert_int_equal(mkdir(d, 0700), 0);
	char sub[512];
	snprintf(sub, sizeof sub, "%s/sub", d);
	assert_int_equal(mkdir(sub, 0700), 0);
	put_file("1.jsonl", run_line);
	put_file("2.json", run_line);
	put_file("notes.txt", "not an input\n");
	put_file("sub/3.jsonl", run_line);
	put_link(".", "a");
	put_link(".", "b");
	put_link("..", "up");
	put_link("..", "sub/back");
	put_link("1.jsonl", "link.jsonl");          /* the same file by another path */
	put_link("nowhere.jsonl", "dangling.jsonl");
	return 0;
}

static int teardown(void **s)
{
	(void)s;
	char cmd[512];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", top);
	return system(cmd) == 0 ? 0 : -1;
}

static bool any_json(const char *name)
{
	size_t n = strlen(name);
	return (n > 5 && strcmp(name + n - 5, ".json") == 0) ||
	       (n > 6 && strcmp(name + n - 6, ".jsonl") == 0);
}

/* Walks the given folders in one walk; the warnings into *warn (malloc'd). */
static void walk_all(struct folder_walk *w, const char *const *dirs, size_t n, char **warn)
{
	size_t len;
	FILE *out = open_memstream(warn, &len);
	assert_non_null(out);
	folder_walk_init(w, any_json, out);
	struct error err = {0};
	for (size_t i = 0; i < n; i++)
		assert_int_equal(folder_walk_dir(w, dirs[i], &err), 0);
	fclose(out);
}

static size_t count(const char *hay, const char *needle)
{
	size_t k = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		k++;
	return k;
}

static void test_links_back_skipped_once(void **s)
{
	(void)s;
	struct folder_walk w;
	char *warn = NULL;
	const char *dirs[] = { d };
	walk_all(&w, dirs, 1, &warn);
	char want[3][512];
	snprintf(want[0], sizeof want[0], "%s/1.jsonl", d);
	snprintf(want[1], sizeof want[1], "%s/2.json", d);
	snprintf(want[2], sizeof want[2], "%s/sub/3.jsonl", d);
	/* Each file once, in the order of the sorted walk; link.jsonl is
	 * 1.jsonl again, and the dangling link is passed over. */
	assert_int_equal(w.npaths, 3);
	for (size_t i = 0; i < 3; i++)
		assert_string_equal(w.paths[i], want[i]);
	/* a, b, sub/back, and up/d (up is the parent, read once: it leads
	 * back to d). */
	assert_int_equal(w.loops, 4);
	char line[600];
	const char *links[] = { "a", "b", "sub/back", "up/d" };
	for (size_t i = 0; i < 4; i++) {
		snprintf(line, sizeof line, "tcreview: %s/%s: a link back to a folder already read; skipped\n",
		         d, links[i]);
		assert_int_equal(count(warn, line), 1);
	}
	assert_int_equal(count(warn, "\n"), 4);
	free(warn);
	folder_walk_free(&w);
}

static void test_folder_named_twice(void **s)
{
	(void)s;
	char sub[512];
	snprintf(sub, sizeof sub, "%s/sub", d);
	struct folder_walk w;
	char *warn = NULL;
	const char *dirs[] = { d, sub, d };
	walk_all(&w, dirs, 3, &warn);
	assert_int_equal(w.npaths, 3);
	assert_int_equal(w.loops, 6);
	char line[600];
	snprintf(line, sizeof line, "tcreview: %s: a folder already read; skipped\n", sub);
	assert_int_equal(count(warn, line), 1);
	snprintf(line, sizeof line, "tcreview: %s: a folder already read; skipped\n", d);
	assert_int_equal(count(warn, line), 1);
	free(warn);
	folder_walk_free(&w);
}

/* Ten links to the folder itself: 10^64 paths to a walk that follows
 * them; ten skipped links to this one. */
static void test_many_self_links_bounded(void **s)
{
	(void)s;
	/* Beside top, not in it: up -> .. would read it. */
	char many[256];
	make_temp(many, sizeof many, "tcr-walk-many");
	for (int i = 0; i < 10; i++) {
		char p[600];
		snprintf(p, sizeof p, "%s/l%d", many, i);
		assert_int_equal(symlink(".", p), 0);
	}
	char f[600];
	snprintf(f, sizeof f, "%s/run.jsonl", many);
	FILE *fp = fopen(f, "w");
	assert_non_null(fp);
	fputs(run_line, fp);
	fclose(fp);
	struct folder_walk w;
	char *warn = NULL;
	const char *dirs[] = { many };
	walk_all(&w, dirs, 1, &warn);
	assert_int_equal(w.npaths, 1);
	assert_string_equal(w.paths[0], f);
	assert_int_equal(w.loops, 10);
	assert_int_equal(count(warn, "a link back to a folder already read; skipped\n"), 10);
	free(warn);
	folder_walk_free(&w);
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", many);
	assert_int_equal(system(cmd), 0);
}

static void test_missing_folder(void **s)
{
	(void)s;
	struct error err = {0};
	char gone[512];
	snprintf(gone, sizeof gone, "%s/gone", top);
	struct folder_walk w;
	folder_walk_init(&w, any_json, NULL);
	assert_int_equal(folder_walk_dir(&w, gone, &err), -1);
	assert_non_null(strstr(err.msg, "gone: No such file or directory"));
	folder_walk_free(&w);
}

/* The dataset reads each file of the looping folder once. */
static void test_dataset_reads_each_once(void **s)
{
	(void)s;
	struct dataset ds;
	struct error err = {0};
	char *paths[] = { d };
	assert_int_equal(dataset_open(&ds, paths, 1, &err), 0);
	assert_int_equal(ds.nfiles, 3);
	dataset_index_all(&ds);
	assert_int_equal(ds.nrecs, 3);
	dataset_close(&ds);
}

/* Opens the looping folder with opts, standard error caught; returns
 * how many warnings were given. */
static int warnings_opening(const struct dataset_opts *opts)
{
	char path[320];
	snprintf(path, sizeof path, "%s/stderr.txt", top);
	fflush(stderr);
	int saved = dup(2);
	FILE *f = fopen(path, "w+");
	assert_non_null(f);
	assert_int_equal(dup2(fileno(f), 2), 2);
	struct dataset ds;
	struct error err = {0};
	char *paths[] = { d };
	assert_int_equal(dataset_open_with(&ds, opts, paths, 1, &err), 0);
	dataset_close(&ds);
	fflush(stderr);
	assert_int_equal(dup2(saved, 2), 2);
	close(saved);
	rewind(f);
	int n = 0, ch;
	while ((ch = fgetc(f)) != EOF)
		n += ch == '\n';
	fclose(f);
	unlink(path);
	return n;
}

/* Two datasets in one process, each with its own choice of the folder
 * walk's warnings: the screen's quiet one leaves the next one's alone. */
static void test_walk_warnings_per_dataset(void **s)
{
	(void)s;
	const struct dataset_opts quiet = { .walk_quiet = true }, loud = { 0 };
	int said = warnings_opening(&loud);
	assert_true(said > 0);
	assert_int_equal(warnings_opening(&quiet), 0);
	assert_int_equal(warnings_opening(&loud), said);
	assert_int_equal(warnings_opening(NULL), said);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_links_back_skipped_once),
		cmocka_unit_test(test_folder_named_twice),
		cmocka_unit_test(test_many_self_links_bounded),
		cmocka_unit_test(test_missing_folder),
		cmocka_unit_test(test_walk_warnings_per_dataset),
		cmocka_unit_test(test_dataset_reads_each_once),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
