/* test_mastra.c - the Mastra documentation's examples, in the 1.x and 0.x
 * shapes, scored through the real input path and compared with what the
 * real Mastra scorer returned: score, and preprocessStepResult with its keys
 * in Mastra's order. Reads the shared fixtures in place; skips without them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "config/config.h"
#include "runs/dataset.h"
#include "scorers/evaluate.h"
#include "util/jsonw.h"

static char *shared_path(const char *name)
{
	const char *dir = getenv("TCR_SHARED_DIR");
	if (!dir)
		return NULL;
	char *p = NULL;
	if (asprintf(&p, "%s/fixtures/mastra/%s", dir, name) < 0)
		return NULL;
	FILE *f = fopen(p, "r");
	if (!f) {
		free(p);
		return NULL;
	}
	fclose(f);
	return p;
}

static char *compact(json_t *v)
{
	struct strbuf sb = STRBUF_INIT;
	jsonw_value(&sb, v);
	return strbuf_detach(&sb);
}

static void check_fixture(const char *input, const char *expected)
{
	char *in = shared_path(input), *ex = shared_path(expected);
	if (!in || !ex) {
		printf("skipped: %s not found (set TCR_SHARED_DIR to the shared reference folder)\n", input);
		free(in);
		free(ex);
		skip();
	}
	char err[1024];
	struct config c;
	const char *srcdir = getenv("TCR_SRCDIR") ? getenv("TCR_SRCDIR") : ".";
	char yaml[4096];
	snprintf(yaml, sizeof yaml, "%s/tests/data/mastra-options.yaml", srcdir);
	if (config_load(&c, yaml, err, sizeof err) < 0)
		fail_msg("%s", err);
	struct dataset ds;
	char *paths[] = { in };
	assert_int_equal(dataset_open(&ds, paths, 1, err, sizeof err), 0);
	FILE *ef = fopen(ex, "r");
	assert_non_null(ef);
	struct evaluator ev = { .scorers = c.scorers, .nscorers = c.nscorers, .expect = NULL };
	struct dataset_cursor cur;
	struct record_ref rec;
	dataset_cursor_init(&cur);
	size_t n = 0;
	char line[65536];
	while (dataset_next(&ds, &cur, &rec)) {
		assert_non_null(fgets(line, sizeof line, ef));
		json_error_t jerr;
		json_t *want = json_loads(line, 0, &jerr);
		assert_non_null(want);
		struct run *r = dataset_load_run(&ds, &rec, NULL, NULL, err, sizeof err);
		assert_non_null(r);
		assert_string_equal(r->id, json_string_value(json_object_get(want, "id")));
		struct verdict v;
		evaluator_run(&ev, r, &v);
		json_t *want_score = json_object_get(want, "score");
		if (json_is_null(want_score)) {
			assert_int_equal(v.status, VERDICT_ERROR);
			assert_string_equal(v.message, json_string_value(json_object_get(want, "error")));
		} else {
			assert_int_equal(v.status, VERDICT_OK);
			assert_true(v.score == json_number_value(want_score));
			char *got = compact(v.details);
			char *exp = compact(json_object_get(want, "preprocessStepResult"));
			assert_string_equal(got, exp);     /* same values, same key order */
			free(got);
			free(exp);
		}
		verdict_clear(&v);
		run_free(r);
		json_decref(want);
		n++;
	}
	assert_true(n >= 6);
	fclose(ef);
	dataset_close(&ds);
	config_free(&c);
	free(in);
	free(ex);
}

static void test_mastra_1x_docs(void **s)
{
	(void)s;
	check_fixture("mastra_1x_seed_examples.jsonl", "mastra_1x_seed_examples.expected.jsonl");
}

static void test_mastra_0x_docs(void **s)
{
	(void)s;
	check_fixture("mastra_0x_seed_examples.jsonl", "mastra_0x_seed_examples.expected.jsonl");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mastra_1x_docs),
		cmocka_unit_test(test_mastra_0x_docs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
