/* test_robust.c - no record crashes a loader or a scorer.
 *
 * Every sample record of every format is mutated node by node (a value
 * replaced by null, a number, a string, an empty list or object, or its key
 * removed) and its text cut short at many points; each variant goes through
 * detection, every loader forced, and the scorers. A load may fail, but only
 * with a message; under the sanitizers this also proves no memory error. */
#include "fmt_test.h"

#include "config/config.h"
#include "scorers/scorer.h"

static struct config cfg;

enum mutation { MUT_NULL, MUT_NUMBER, MUT_STRING, MUT_ARRAY, MUT_OBJECT, MUT_DELETE, MUT_COUNT };

static json_t *replacement(enum mutation m)
{
	switch (m) {
	case MUT_NULL:   return json_null();
	case MUT_NUMBER: return json_integer(-1);
	case MUT_STRING: return json_string("\x1b[31mx");
	case MUT_ARRAY:  return json_array();
	case MUT_OBJECT: return json_object();
	default:         return NULL;
	}
}

/* Walks the tree in a fixed order and mutates the node numbered *left. */
static bool mutate(json_t *v, size_t *left, enum mutation m)
{
	size_t i;
	const char *key;
	json_t *child;
	void *tmp;
	if (json_is_object(v)) {
		json_object_foreach_safe(v, tmp, key, child) {
			if ((*left)-- == 0) {
				if (m == MUT_DELETE)
					json_object_del(v, key);
				else
					json_object_set_new(v, key, replacement(m));
				return true;
			}
			if (mutate(child, left, m))
				return true;
		}
	} else if (json_is_array(v)) {
		json_array_foreach(v, i, child) {
			if ((*left)-- == 0) {
				if (m == MUT_DELETE)
					json_array_remove(v, i);
				else
					json_array_set_new(v, i, replacement(m));
				return true;
			}
			if (mutate(child, left, m))
				return true;
		}
	}
	return false;
}

static size_t loads, failures;

static void exercise(json_t *rec)
{
	for (size_t f = 0; f == 0 || format_table[f - 1]; f++) {
		const struct format_ops *forced = f == 0 ? NULL : format_table[f - 1];
		struct run *r = run_new(rec, "robust.jsonl", 1, -1);
		char err[512] = "";
		if (format_load(r, forced, err, sizeof err) < 0) {
			assert_true(err[0] != '\0');             /* a failure always says why */
			r->load_error = run_strdup(r, err);
			failures++;
		}
		loads++;
		for (size_t s = 0; s < cfg.nscorers; s++) {
			struct verdict v;
			scorer_run(&cfg.scorers[s], r, rec, NULL, &v);
			if (v.status != VERDICT_OK)
				assert_non_null(v.message);
			verdict_clear(&v);
		}
		run_free(r);
	}
}

static void mutate_all(json_t *orig)
{
	exercise(orig);
	for (int m = 0; m < MUT_COUNT; m++) {
		for (size_t target = 0;; target++) {
			json_t *copy = json_deep_copy(orig);
			size_t left = target;
			if (!mutate(copy, &left, (enum mutation)m)) {
				json_decref(copy);
				break;
			}
			exercise(copy);
			json_decref(copy);
		}
	}
}

/* The first run of each demo file: bigger, real-shaped records. */
static void test_mutated_demo_runs(void **state)
{
	(void)state;
	static const char *const files[] = { "openai-chat", "anthropic", "mastra", "tau2", NULL };
	const char *src = getenv("TCR_SRCDIR") ? getenv("TCR_SRCDIR") : ".";
	for (size_t i = 0; files[i]; i++) {
		char path[4096];
		snprintf(path, sizeof path, "%s/examples/runs/%s.jsonl", src, files[i]);
		FILE *f = fopen(path, "r");
		if (!f)
			fail_msg("%s: cannot open", path);
		static char line[1 << 20];
		assert_non_null(fgets(line, sizeof line, f));
		fclose(f);
		json_error_t jerr;
		json_t *rec = json_loads(line, 0, &jerr);
		assert_non_null(rec);
		mutate_all(rec);
		json_decref(rec);
	}
}

static void test_mutated_samples(void **state)
{
	(void)state;
	for (size_t k = 0; fmt_samples[k].json; k++) {
		json_t *orig = fmt_parse(fmt_samples[k].json);
		mutate_all(orig);
		json_decref(orig);
	}
	printf("%zu loads, %zu refused with a message\n", loads, failures);
	assert_true(loads > 1000);
}

static void test_truncated_samples(void **state)
{
	(void)state;
	for (size_t k = 0; fmt_samples[k].json; k++) {
		json_t *orig = fmt_parse(fmt_samples[k].json);
		char *text = json_dumps(orig, JSON_COMPACT);
		size_t n = strlen(text);
		for (size_t cut = 0; cut < n; cut += 7) {
			json_error_t jerr;
			json_t *v = json_loadb(text, cut, JSON_DECODE_ANY, &jerr);
			if (v) {
				exercise(v);
				json_decref(v);
			} else {
				assert_true(jerr.text[0] != '\0');
			}
		}
		free(text);
		json_decref(orig);
	}
}

static int setup(void **state)
{
	(void)state;
	static const char yaml[] =
		"scorers:\n"
		"  - id: per-run\n"
		"    type: tool-call-accuracy\n"
		"    options: {from: config}\n"
		"  - id: fixed\n"
		"    type: tool-call-accuracy\n"
		"    expectedToolOrder: [lookup_order, track]\n"
		"  - id: from-record\n"
		"    type: tool-call-accuracy\n"
		"    expectedTool: {from: 'output[0].content.parts[1].toolInvocation.toolName'}\n"
		"  - id: words\n"
		"    type: word-inclusion\n";
	char err[512];
	if (config_load_string(&cfg, "robust.yaml", ".", yaml, sizeof yaml - 1, err, sizeof err) < 0)
		fail_msg("%s", err);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	config_free(&cfg);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mutated_samples),
		cmocka_unit_test(test_mutated_demo_runs),
		cmocka_unit_test(test_truncated_samples),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
