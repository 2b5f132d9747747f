/* test_declared.c - formats declared as data: jq programs (runs/jqprog.c),
 * the formats: section and its errors at their YAML position
 * (runs/declared_conf.c), and a file converted in the child, with the
 * source of each run, a record that fails, a loop and too much output
 * bounded (runs/declared.c, declared_job.c). Records are made up here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "config/config.h"
#include "runs/dataset.h"
#include "runs/declared.h"
#include "runs/jqprog.h"
#include "util/error.h"

/* ---- jq programs ---------------------------------------------------------- */

static struct jqval *val(const char *text)
{
	struct error err = {0};
	struct jqval *v = jqval_parse(text, strlen(text), &err);
	assert_non_null(v);
	return v;
}

static void test_compile_error(void **st)
{
	(void)st;
	struct error err = {0};
	assert_null(jqprog_compile(".a |||", &err));
	assert_non_null(strstr(err.msg, "syntax error"));
	assert_null(strstr(err.msg, "jq: error:"));
	/* No module is looked for. */
	assert_null(jqprog_compile("import \"x\" as x; .", &err));
}

static void test_detect(void **st)
{
	(void)st;
	struct error err = {0};
	struct jqprog *p = jqprog_compile("type == \"object\" and has(\"steps\")", &err);
	assert_non_null(p);
	struct jqval *yes = val("{\"steps\":[]}"), *no = val("[1]");
	assert_int_equal(jqprog_test(p, yes, &err), 1);
	assert_int_equal(jqprog_test(p, no, &err), 0);
	jqprog_free(p);
	p = jqprog_compile(".steps + 1", &err);
	assert_int_equal(jqprog_test(p, yes, &err), -1);
	assert_non_null(strstr(err.msg, "cannot be added"));
	jqprog_free(p);
	p = jqprog_compile("\"yes\"", &err);
	assert_int_equal(jqprog_test(p, yes, &err), -1);
	assert_non_null(strstr(err.msg, "must give true or false, gave a string"));
	jqprog_free(p);
	p = jqprog_compile("empty", &err);
	assert_int_equal(jqprog_test(p, yes, &err), 0);
	jqprog_free(p);
	jqval_free(yes);
	jqval_free(no);
}

struct lines {
	char text[1000];
	int n;
};

static int collect(void *arg, const char *text, size_t len)
{
	struct lines *l = arg;
	size_t used = strlen(l->text);
	snprintf(l->text + used, sizeof l->text - used, "%.*s|", (int)len, text);
	l->n++;
	return 0;
}

static void test_runs(void **st)
{
	(void)st;
	struct error err = {0};
	struct jqval *in = val("{\"id\":\"r\",\"steps\":[\"a\",\"b\"]}");
	struct jqprog *p = jqprog_compile("[.steps[] | {tcreview_run: 1, id: .}]", &err);
	struct lines l = { "", 0 };
	assert_int_equal(jqprog_runs(p, in, collect, &l, &err), 2);
	assert_string_equal(l.text, "{\"tcreview_run\":1,\"id\":\"a\"}|{\"tcreview_run\":1,\"id\":\"b\"}|");
	jqprog_free(p);
	p = jqprog_compile("{tcreview_run: 1}, .id", &err);
	l = (struct lines){ "", 0 };
	assert_int_equal(jqprog_runs(p, in, collect, &l, &err), -1);
	assert_int_equal(l.n, 1);
	assert_non_null(strstr(err.msg, "gave a string (\"r\")"));
	jqprog_free(p);
	p = jqprog_compile("error(\"no steps here\")", &err);
	assert_int_equal(jqprog_runs(p, in, collect, &l, &err), -1);
	assert_string_equal(err.msg, "no steps here");
	jqprog_free(p);
	jqval_free(in);
	assert_null(jqval_parse("{\"a\":", 5, &err));
}

/* ---- the section ---------------------------------------------------------- */

static void load_fails(const char *yaml, const char *want)
{
	struct config c;
	struct error err = {0};
	assert_int_not_equal(config_load_string(&c, NULL, "f.yaml", ".", yaml, strlen(yaml), &err), 0);
	if (!strstr(err.msg, want))
		fail_msg("got '%s', want '%s'", err.msg, want);
}

static void test_section(void **st)
{
	(void)st;
	const char *ok = "formats:\n"
	                 "  - name: steps\n"
	                 "    summary: made-up steps\n"
	                 "    detect: 'has(\"steps\")'\n"
	                 "    run: '{tcreview_run: 1}'\n"
	                 "    whole_file: true\n"
	                 "    timeout: 5s\n";
	struct config c;
	struct error err = {0};
	assert_int_equal(config_load_string(&c, NULL, "f.yaml", ".", ok, strlen(ok), &err), 0);
	assert_int_equal(c.formats.n, 1);
	const struct declared_format *f = &c.formats.v[0];
	assert_string_equal(f->name, "steps");
	assert_true(f->whole_file);
	assert_int_equal(f->timeout_ms, 5000);
	assert_int_equal(f->line, 2);
	assert_int_equal(f->detect_line, 4);
	assert_int_equal(declared_check_names(&c.formats, &err), 0);
	config_free(&c);

	load_fails("formats:\n  - name: s\n    detect: 'has(\"steps\") and'\n    run: '.'\n",
	           "f.yaml:3:13: detect: syntax error");
	load_fails("formats:\n  - name: s\n    detect: 'true'\n", "f.yaml:2:11: format 's' needs 'run'");
	load_fails("formats:\n  - name: s\n    detect: 'true'\n    run: '.'\n    convert: [x]\n",
	           "f.yaml:5:14: format 's' has both 'run' and 'convert'");
	load_fails("formats:\n  - name: s\n    detect: 'true'\n    run: '.'\n    rnu: 1\n",
	           "f.yaml:5:5: unknown key 'rnu' for a format");
	load_fails("formats:\n  - {name: 'a b', detect: 'true', run: '.'}\n", "may hold only letters");
	load_fails("formats:\n  - {name: s, run: '.'}\n", "needs 'detect'");
	load_fails("formats:\n  - {name: s, detect: 'true', convert: [./no-such-program]}\n",
	           "is not an executable file");
	load_fails("formats:\n  - {name: s, detect: 'true', run: '.', timeout: soon}\n",
	           "timeout must be a duration");
}

static void test_names(void **st)
{
	(void)st;
	const char *two = "formats:\n"
	                  "  - {name: s, detect: 'true', run: '.'}\n"
	                  "  - {name: s, detect: 'false', run: '.'}\n"
	                  "  - {name: openai-chat, detect: 'false', run: '.'}\n";
	struct config c;
	struct error err = {0};
	assert_int_equal(config_load_string(&c, NULL, "f.yaml", ".", two, strlen(two), &err), 0);
	assert_int_equal(declared_check_names(&c.formats, &err), -1);
	assert_string_equal(err.msg, "f.yaml:3:5: format 's' is declared twice: also at f.yaml:2:5");
	c.formats.v[1].name[0] = 't';
	assert_int_equal(declared_check_names(&c.formats, &err), -1);
	assert_non_null(strstr(err.msg, "f.yaml:4:5: format 'openai-chat' is the name of a built-in"));
	config_free(&c);
}

/* ---- conversion in the child ---------------------------------------------- */

static struct config conf;
/* What the command would lend the datasets: the formats of conf. */
static struct declared_use in_use;

static void use(const char *yaml)
{
	struct error err = {0};
	config_free(&conf);
	assert_int_equal(config_load_string(&conf, NULL, "f.yaml", ".", yaml, strlen(yaml), &err), 0);
	in_use = (struct declared_use){ &conf.formats, NULL };
}

static int convert(const char *data, bool json, char *out, size_t outlen,
                   struct declared_src **src, size_t *nsrc, struct error *err)
{
	int fd;
	const struct declared_format *by;
	int rc = declared_convert(&in_use, "in.jsonl", data, strlen(data), json, &fd, src, nsrc, &by, err);
	if (rc == 1) {
		ssize_t n = pread(fd, out, outlen - 1, 0);
		out[n > 0 ? n : 0] = '\0';
		close(fd);
	}
	return rc;
}

static void test_convert(void **st)
{
	(void)st;
	use("formats:\n"
	    "  - name: steps\n"
	    "    detect: 'has(\"steps\")'\n"
	    "    run: '{tcreview_run: 1, id: .id}'\n");
	struct error err = {0};
	char out[1000];
	struct declared_src *src;
	size_t nsrc;
	assert_int_equal(convert("{\"id\":\"a\",\"steps\":[]}\n\n{\"id\":\"b\",\"steps\":[]}\n", false,
	                         out, sizeof out, &src, &nsrc, &err), 1);
	assert_string_equal(out, "{\"tcreview_run\":1,\"id\":\"a\"}\n{\"tcreview_run\":1,\"id\":\"b\"}\n");
	assert_int_equal(nsrc, 2);
	assert_int_equal(src[0].line, 1);
	assert_int_equal(src[1].line, 3);
	free(src);
	/* Not this format: nothing converted. */
	assert_int_equal(convert("{\"messages\":[]}\n", false, out, sizeof out, &src, &nsrc, &err), 0);
	/* A .json array: each element, named by its index. */
	assert_int_equal(convert("[{\"id\":\"a\",\"steps\":[]},{\"id\":\"b\",\"steps\":[]}]", true, out,
	                         sizeof out, &src, &nsrc, &err), 1);
	assert_int_equal(nsrc, 2);
	assert_int_equal(src[1].index, 1);
	free(src);
	/* A later record that is not JSON: its line named. */
	assert_int_equal(convert("{\"id\":\"a\",\"steps\":[]}\n{\"id\":\n", false, out, sizeof out,
	                         &src, &nsrc, &err), -1);
	if (!strstr(err.msg, "in.jsonl:2: format 'steps' (f.yaml:4:10): not JSON"))
		fail_msg("%s", err.msg);
}

/* Two datasets in one process, each lent its own formats in use: the
 * file one reads through the declared format, the other as it is. */
static void test_two_datasets_apart(void **st)
{
	(void)st;
	use("formats:\n"
	    "  - name: steps\n"
	    "    detect: 'has(\"steps\")'\n"
	    "    run: '{tcreview_run: 1, id: .id}'\n");
	char path[] = "/tmp/tcr-declared-XXXXXX.jsonl";
	int fd = mkstemps(path, 6);
	assert_true(fd >= 0);
	static const char text[] = "{\"id\":\"a\",\"steps\":[]}\n";
	assert_int_equal(write(fd, text, sizeof text - 1), (ssize_t)(sizeof text - 1));
	close(fd);
	struct error err = {0};
	char *paths[] = { path };
	const struct dataset_opts with = { .declared = &in_use }, without = { 0 };
	struct dataset a, b;
	assert_int_equal(dataset_open_with(&a, &with, paths, 1, &err), 0);
	assert_int_equal(dataset_open_with(&b, &without, paths, 1, &err), 0);
	assert_string_equal(a.files[0].declared, "steps");
	assert_null(b.files[0].declared);
	dataset_close(&b);
	assert_int_equal(dataset_open(&b, paths, 1, &err), 0);
	assert_null(b.files[0].declared);
	dataset_close(&a);
	dataset_close(&b);
	unlink(path);
}

static void test_bounds(void **st)
{
	(void)st;
	struct error err = {0};
	char out[100];
	struct declared_src *src;
	size_t nsrc;
	/* A loop never ends: the guard ends it (a generous guard under a
	 * loaded machine is still short next to forever). */
	use("formats:\n"
	    "  - {name: loop, detect: 'true', run: 'def f: f; f', timeout: 2s}\n");
	assert_int_equal(convert("{}\n", false, out, sizeof out, &src, &nsrc, &err), -1);
	if (!strstr(err.msg, "in.jsonl:1: format 'loop' (f.yaml:2:39): its run program ran past") &&
	    !strstr(err.msg, "used more than"))
		fail_msg("%s", err.msg);
	use("formats:\n"
	    "  - {name: much, detect: 'true', run: 'range(100000) | {tcreview_run: 1}', "
	    "max_output: 10000}\n");
	assert_int_equal(convert("{}\n", false, out, sizeof out, &src, &nsrc, &err), -1);
	if (!strstr(err.msg, "wrote more than 10000 bytes of runs"))
		fail_msg("%s", err);
	in_use = (struct declared_use){ 0 };
	config_free(&conf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compile_error),
		cmocka_unit_test(test_detect),
		cmocka_unit_test(test_runs),
		cmocka_unit_test(test_two_datasets_apart),
		cmocka_unit_test(test_section),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_convert),
		cmocka_unit_test(test_bounds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
