/* test_formats.c - the format table (runs/formats.c) and the skeleton every
 * loader in it shares, run once per entry of format_table: detection of the
 * samples (each format wins its own and claims no other's), the shared
 * real fixtures (each claims only its own files), the records that are no
 * transcript at all (empty, scalars), and what reaches a loader from a
 * file: broken JSON stops before it, invalid UTF-8 changes nothing.
 * What is particular to one loader stays in tests/test_fmt_NAME.c. */
#include "fmt_test.h"

#include "runs/dataset.h"
#include "util/error.h"

/* What the table-driven checks need to know of each format. A new format
 * adds a row here (test_every_format_has_a_row says so). */
struct format_case {
	const char *name;
	bool forced_only;               /* a variant --format names; detection never picks it */
	const char *const own_real[3];  /* shared fixtures that are its own */
};

static const struct format_case cases[] = {
	{ "tcreview", false, { NULL } },
	{ "mastra", false, { "mastra_0x_seed_examples.jsonl", "mastra_1x_seed_examples.jsonl", NULL } },
	{ "mastra-1x", true, { NULL } },
	{ "mastra-0x", true, { NULL } },
	{ "inspect", false, { NULL } },
	{ "openhands", false, { NULL } },
	{ "mastra-tracing", false, { NULL } },
	{ "claude-code", false, { NULL } },
	{ "otel", false, { NULL } },
	{ "langfuse", false, { NULL } },
	{ "atif", false, { NULL } },
	{ "langsmith", false, { NULL } },
	{ "langchain", false, { NULL } },
	{ "tau2", false, { "tau2_sample.jsonl", NULL } },
	{ "taubench", false, { "taubench_v1_airline_sample.jsonl", NULL } },
	{ "swe-agent", false, { NULL } },
	{ "mini-swe-agent", false, { NULL } },
	{ "azure", false, { NULL } },
	{ "anthropic", false, { "anthropic_claude_code_sample.jsonl", NULL } },
	{ "anthropic-message", false, { NULL } },
	{ "chat-completions-response", false, { NULL } },
	{ "gemini", false, { NULL } },
	{ "google-adk", false, { NULL } },
	{ "autogen", false, { NULL } },
	{ "openai-agents", false, { NULL } },
	{ "openai-agents-js", false, { NULL } },
	{ "codex", false, { NULL } },
	{ "openai-responses", false, { NULL } },
	{ "ai-sdk-v5", false, { NULL } },
	{ "ai-sdk-ui-stream", false, { NULL } },
	{ "openai-chat", false, { NULL } },
	{ "shape", true, { NULL } },
};

#define NCASES (sizeof cases / sizeof *cases)

static void test_every_format_has_a_row(void **state)
{
	(void)state;
	size_t n = 0;
	for (; format_table[n]; n++) {
		bool found = false;
		for (size_t i = 0; i < NCASES; i++)
			found = found || !strcmp(cases[i].name, format_table[n]->name);
		if (!found)
			fprintf(stderr, "format %s has no row in test_formats.c\n", format_table[n]->name);
		assert_true(found);
		assert_non_null(format_table[n]->summary);
		assert_ptr_equal(format_find(format_table[n]->name), format_table[n]);
	}
	assert_int_equal(n, NCASES);
	assert_null(format_find("no-such-format"));
}

/* Every other format's sample scores 0; its own samples win detection
 * and load. A forced-only variant has none and so claims no sample. */
static void check_detection(void **state)
{
	const struct format_case *c = *state;
	size_t own = fmt_check_samples(c->name);
	if (c->forced_only)
		assert_int_equal(own, 0);
	else
		assert_true(own > 0);
}

static void check_real_fixtures(void **state)
{
	const struct format_case *c = *state;
	fmt_check_real(c->name, c->own_real);
}

/* No loader claims what is not a transcript; forced on it, a loader
 * refuses a scalar with a message, and on an empty object or array either
 * refuses with a message or loads nothing. */
static void check_not_a_transcript(void **state)
{
	const struct format_case *c = *state;
	static const char *const scalars[] = { "null", "12", "'text'", "true", NULL };
	static const char *const empties[] = { "{}", "[]", "[[]]", "[12]", "{'messages': []}",
	                                       "{'messages': null}", NULL };
	struct error err = {0};
	for (size_t i = 0; scalars[i]; i++) {
		assert_int_equal(fmt_score(c->name, scalars[i]), 0);
		assert_int_equal(fmt_load_err(scalars[i], c->name, &err), -1);
		assert_true(err.msg[0] != '\0');
	}
	for (size_t i = 0; empties[i]; i++) {
		assert_int_equal(fmt_score(c->name, empties[i]), 0);
		json_t *rec = fmt_parse(empties[i]);
		struct run *r = run_new(rec, "test.jsonl", 1, -1);
		json_decref(rec);
		err.msg[0] = '\0';
		if (format_load(r, format_find(c->name), &err) == 0) {
			assert_int_equal(r->nmsgs, 0);
			assert_int_equal(r->ncalls, 0);
		} else {
			assert_true(err.msg[0] != '\0');
		}
		run_free(r);
	}
}

/* A file of three lines: a run, a line that is not JSON, and the run
 * again with bytes that are not UTF-8. */
static const char three_lines[] =
	"{\"messages\": [{\"role\": \"user\", \"content\": \"ok\"}]}\n"
	"{\"messages\": [\n"
	"{\"messages\": [{\"role\": \"user\", \"content\": \"\xff\xfe\"}]}\n";

/* Text that is not UTF-8 gives the loader the same answer as text that is. */
static void assert_same_answer(const struct run *ok, const struct run *bytes)
{
	if (ok->load_error) {
		assert_non_null(bytes->load_error);
		assert_string_equal(bytes->load_error, ok->load_error);
	} else {
		assert_null(bytes->load_error);
		assert_int_equal(bytes->nmsgs, ok->nmsgs);
	}
}

/* A format that reads a JSONL file whole (UNIT_FILE), forced on one: the
 * file is one record, the array of its lines, where a line that is not
 * JSON is null; text that is not UTF-8 gives the loader the same answer
 * as text that is. */
static struct run *load_whole(const struct format_ops *f, const char *path, const char *text)
{
	FILE *out = fopen(path, "wb");
	assert_non_null(out);
	fputs(text, out);
	fclose(out);
	struct dataset ds = { 0 };
	char *paths[] = { (char *)path };
	struct error err = {0};
	assert_int_equal(dataset_open(&ds, paths, 1, &err), 0);
	ds.forced = f;
	struct dataset_cursor cur;
	struct record_ref rec, more;
	dataset_cursor_init(&cur);
	assert_true(dataset_next(&ds, &cur, &rec));
	assert_false(dataset_next(&ds, &cur, &more));
	struct run *r = dataset_load_run(&ds, &rec, f, NULL, &err);
	assert_non_null(r);
	assert_string_equal(r->format, f->name);
	dataset_close(&ds);
	unlink(path);
	return r;
}

/* A format that cuts what it reads (split) decides how many runs a file of
 * lines that are not its own holds, none included: each must load or say
 * why. */
static void check_split_file(const struct format_ops *f, const char *path)
{
	FILE *out = fopen(path, "wb");
	assert_non_null(out);
	fputs(three_lines, out);
	fclose(out);
	struct dataset ds = { 0 };
	char *paths[] = { (char *)path };
	struct error err = {0};
	assert_int_equal(dataset_open(&ds, paths, 1, &err), 0);
	ds.forced = f;
	struct dataset_cursor cur;
	struct record_ref rec;
	dataset_cursor_init(&cur);
	while (dataset_next(&ds, &cur, &rec)) {
		error_clear(&err);
		struct run *r = dataset_load_run(&ds, &rec, f, NULL, &err);
		if (!r) {
			assert_true(err.msg[0] != '\0');
			continue;
		}
		assert_string_equal(r->format, f->name);
		if (r->load_error)
			assert_true(r->load_error[0] != '\0');
		run_free(r);
	}
	dataset_close(&ds);
	unlink(path);
}

static void check_whole_file(const struct format_ops *f, const char *path)
{
	if (f->split) {
		check_split_file(f, path);
		return;
	}
	struct run *bytes = load_whole(f, path, three_lines);
	jv root = run_root(bytes);
	assert_true(jv_is_array(bytes->doc, root));
	assert_int_equal(jv_len(bytes->doc, root), 3);
	assert_true(jv_is_null(bytes->doc, jv_at(bytes->doc, root, 1)));
	struct run *ok = load_whole(f, path,
	    "{\"messages\": [{\"role\": \"user\", \"content\": \"ok\"}]}\n"
	    "{\"messages\": [\n"
	    "{\"messages\": [{\"role\": \"user\", \"content\": \"ok\"}]}\n");
	assert_same_answer(ok, bytes);
	run_free(ok);
	run_free(bytes);
}

/* Through a file, as records reach a loader: a line that is not JSON is
 * refused with FILE:LINE before any loader sees it; text that is not
 * UTF-8 gives the loader the same answer as text that is; and an empty
 * file has no records at all. */
static void check_from_a_file(void **state)
{
	const struct format_case *c = *state;
	const struct format_ops *f = format_find(c->name);
	assert_non_null(f);
	struct error err = {0};
	char path[400], empty[520];
	char want[600];
	const char *tmp = getenv("TMPDIR");
	snprintf(path, sizeof path, "%s/tcr-formats-%d-%s.jsonl", tmp && *tmp ? tmp : "/tmp",
	         (int)getpid(), c->name);
	snprintf(empty, sizeof empty, "%s.empty.jsonl", path);
	if (f->unit == UNIT_FILE) {
		check_whole_file(f, path);
		return;
	}
	FILE *out = fopen(path, "wb");
	assert_non_null(out);
	fputs(three_lines, out);
	fclose(out);
	out = fopen(empty, "wb");
	assert_non_null(out);
	fclose(out);

	struct dataset ds = { 0 };
	char *paths[] = { path };
	assert_int_equal(dataset_open(&ds, paths, 1, &err), 0);
	struct dataset_cursor cur;
	struct record_ref rec[3];
	dataset_cursor_init(&cur);
	for (int i = 0; i < 3; i++)
		assert_true(dataset_next(&ds, &cur, &rec[i]));
	struct run *ok = dataset_load_run(&ds, &rec[0], f, NULL, &err);
	assert_non_null(ok);
	struct run *broken = dataset_load_run(&ds, &rec[1], f, NULL, &err);
	assert_null(broken);
	snprintf(want, sizeof want, "%s:2: ", path);
	assert_memory_equal(err.msg, want, strlen(want));
	struct run *bytes = dataset_load_run(&ds, &rec[2], f, NULL, &err);
	assert_non_null(bytes);
	assert_string_equal(bytes->format, f->name);
	assert_same_answer(ok, bytes);
	run_free(ok);
	run_free(bytes);
	dataset_close(&ds);

	struct dataset none = { 0 };
	char *empty_paths[] = { empty };
	assert_int_equal(dataset_open(&none, empty_paths, 1, &err), 0);
	dataset_cursor_init(&cur);
	assert_false(dataset_next(&none, &cur, &rec[0]));
	dataset_close(&none);
	unlink(path);
	unlink(empty);
}

static const struct {
	const char *what;
	void (*fn)(void **state);
} checks[] = {
	{ "detection", check_detection },
	{ "real fixtures", check_real_fixtures },
	{ "not a transcript", check_not_a_transcript },
	{ "from a file", check_from_a_file },
};

#define NCHECKS (sizeof checks / sizeof *checks)

int main(void)
{
	static struct CMUnitTest tests[1 + NCASES * NCHECKS];
	static char names[NCASES * NCHECKS][64];
	size_t n = 0;
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_every_format_has_a_row);
	for (size_t i = 0; i < NCASES; i++) {
		for (size_t k = 0; k < NCHECKS; k++) {
			char *name = names[i * NCHECKS + k];
			snprintf(name, sizeof names[0], "%s: %s", cases[i].name, checks[k].what);
			tests[n++] = (struct CMUnitTest){
				.name = name, .test_func = checks[k].fn,
				.initial_state = (void *)&cases[i],
			};
		}
	}
	return _cmocka_run_group_tests("formats", tests, n, NULL, NULL);
}
