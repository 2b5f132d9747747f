/* test_robust.c - no record crashes a loader or a scorer.
 *
 * Every sample record of every format is mutated node by node (a value
 * replaced by null, a number, a string, an empty list or object, or its key
 * removed) and its text cut short at many points; each variant goes through
 * detection, every loader forced, and the scorers. A load may fail, but only
 * with a message; under the sanitizers this also proves no memory error.
 * The same records are also damaged byte by byte (cut short, bytes
 * replaced) and read back from a file through the dataset, as the parser
 * meets them: each line gives a run or an error message, never a crash. */
#include "fmt_test.h"

#include "config/config.h"
#include "runs/dataset.h"
#include "scorers/scorer.h"
#include "util/error.h"

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
		struct error err = {0};
		if (format_load(r, forced, &err) < 0) {
			assert_true(err.msg[0] != '\0');             /* a failure always says why */
			r->load_error = run_strdup(r, err.msg);
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


/* ---- bytes, through a file ----------------------------------------------- */

struct lines {
	char **v;
	size_t n;
};

static void lines_add(struct lines *l, char *line)
{
	l->v = realloc(l->v, (l->n + 1) * sizeof *l->v);
	assert_non_null(l->v);
	l->v[l->n++] = line;
}

/* Real-looking records as JSONL lines: every sample, compact, and the
 * first run of each demo file as it is written there. */
static struct lines sample_lines(void)
{
	struct lines l = { 0 };
	for (size_t k = 0; fmt_samples[k].json; k++) {
		json_t *v = fmt_parse(fmt_samples[k].json);
		char *text = json_dumps(v, JSON_COMPACT);
		json_decref(v);
		assert_non_null(text);
		lines_add(&l, text);
	}
	static const char *const files[] = { "openai-chat", "anthropic", "mastra", "tau2", NULL };
	const char *src = getenv("TCR_SRCDIR") ? getenv("TCR_SRCDIR") : ".";
	for (size_t i = 0; files[i]; i++) {
		char path[4096];
		snprintf(path, sizeof path, "%s/examples/runs/%s.jsonl", src, files[i]);
		FILE *f = fopen(path, "r");
		if (!f)
			fail_msg("%s: cannot open", path);
		char *line = NULL;
		size_t cap = 0;
		ssize_t n = getline(&line, &cap, f);
		fclose(f);
		assert_true(n > 1);
		line[strcspn(line, "\r\n")] = '\0';
		lines_add(&l, line);
	}
	return l;
}

/* Bytes that change what a parser sees: structure, quotes, escapes, a NUL,
 * control and line-end bytes, invalid and truncated UTF-8, digits. */
static const unsigned char flips[] = {
	'"', '{', '}', '[', ']', ',', ':', '\\', 0, 0x01, '\r', '\n', 0xff, 0xc3, 0xe6, '0', '-',
	'e', 'x', ' ',
};

static void damaged_variants(FILE *out, const char *line, size_t *nvariants)
{
	size_t n = strlen(line);
	size_t step = n / 48 + 1;
	for (size_t cut = 1; cut < n; cut += step) {
		fwrite(line, 1, cut, out);
		fputc('\n', out);
		++*nvariants;
	}
	size_t pstep = n / 24 + 1;
	for (size_t pos = 0; pos < n; pos += pstep) {
		for (size_t k = 0; k < sizeof flips; k++) {
			if ((unsigned char)line[pos] == flips[k])
				continue;
			fwrite(line, 1, pos, out);
			fputc(flips[k], out);
			fwrite(line + pos + 1, 1, n - pos - 1, out);
			fputc('\n', out);
			++*nvariants;
		}
	}
}

static size_t byte_runs, byte_errors;

/* Every record of the file loads (detected, and with one loader forced,
 * taken in turn) and is scored, or says why it does not parse. */
static void read_back(const char *path)
{
	struct dataset ds;
	struct error err = {0};
	char *paths[] = { (char *)path };
	assert_int_equal(dataset_open(&ds, paths, 1, &err), 0);
	dataset_index_all(&ds);
	size_t nformats = 0;
	while (format_table[nformats])
		nformats++;
	struct dataset_cursor cur;
	struct record_ref rec;
	dataset_cursor_init(&cur);
	size_t i = 0;
	while (dataset_next(&ds, &cur, &rec)) {
		for (int pass = 0; pass < 2; pass++) {
			const struct format_ops *forced = pass ? format_table[i % nformats] : NULL;
			err.msg[0] = '\0';
			struct run *r = dataset_load_run(&ds, &rec, forced, NULL, &err);
			if (!r) {
				assert_true(err.msg[0] != '\0');
				byte_errors++;
				continue;
			}
			byte_runs++;
			assert_non_null(r->id);
			if (r->load_error)
				assert_true(r->load_error[0] != '\0');
			for (size_t s = 0; s < cfg.nscorers; s++) {
				struct verdict v;
				scorer_run(&cfg.scorers[s], r, run_record(r), NULL, &v);
				if (v.status != VERDICT_OK)
					assert_non_null(v.message);
				verdict_clear(&v);
			}
			for (size_t c = 0; c < r->ncalls; c++) {
				run_call_args(r, &r->calls[c]);
				run_call_result(r, &r->calls[c]);
			}
			run_free(r);
		}
		i++;
	}
	assert_int_equal(i, ds.nrecs);
	dataset_close(&ds);
}

static void temp_path(char *buf, size_t n, const char *suffix)
{
	const char *tmp = getenv("TMPDIR");
	snprintf(buf, n, "%s/tcr-robust-%d%s", tmp && *tmp ? tmp : "/tmp", (int)getpid(), suffix);
}

static void test_damaged_bytes_through_a_file(void **state)
{
	(void)state;
	struct lines l = sample_lines();
	char path[512];
	temp_path(path, sizeof path, ".jsonl");
	size_t nvariants = 0;
	for (size_t i = 0; i < l.n; i++) {
		FILE *out = fopen(path, "wb");
		assert_non_null(out);
		damaged_variants(out, l.v[i], &nvariants);
		fclose(out);
		read_back(path);
	}
	unlink(path);

	/* A .json document of every sample, cut short at many points. */
	temp_path(path, sizeof path, ".json");
	struct strbuf_doc { char *buf; size_t len; } doc = { 0 };
	FILE *mem = open_memstream(&doc.buf, &doc.len);
	assert_non_null(mem);
	fputs("[\n", mem);
	for (size_t i = 0; i < l.n; i++)
		fprintf(mem, "%s%s\n", l.v[i], i + 1 < l.n ? "," : "");
	fputs("]\n", mem);
	fclose(mem);
	size_t whole_before = byte_runs;
	for (size_t cut = doc.len; cut > 0; cut = cut > 97 ? cut - 97 : 0) {
		FILE *out = fopen(path, "wb");
		assert_non_null(out);
		fwrite(doc.buf, 1, cut, out);
		fclose(out);
		read_back(path);
		nvariants++;
	}
	assert_true(byte_runs >= whole_before + 2 * l.n);     /* the whole document's runs */
	free(doc.buf);
	unlink(path);
	for (size_t i = 0; i < l.n; i++)
		free(l.v[i]);
	free(l.v);
	printf("%zu damaged records: %zu loads, %zu refused with a message\n", nvariants, byte_runs,
	       byte_errors);
	assert_true(nvariants > 5000);
	assert_true(byte_runs > 1000);
	assert_true(byte_errors > 1000);
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
	struct error err = {0};
	if (config_load_string(&cfg, NULL, "robust.yaml", ".", yaml, sizeof yaml - 1, &err) < 0)
		fail_msg("%s", err.msg);
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
		cmocka_unit_test(test_damaged_bytes_through_a_file),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
