/* test_detect_all.c - detection across all formats, as files are read:
 * every sample of tests/fmt_test.h, written as a .json file and (for the
 * formats of records) as a JSONL line, and every file of the shared wild folder (read in place,
 * skipped when absent) goes through the dataset and is read as its own
 * format, and no record as a wrong one.
 *
 * Each wild folder is one format (folders[] below). A folder whose loader
 * is not in format_table yet is skipped, with a word saying so; its
 * records must then be claimed by no other format either. */
#include "fmt_test.h"

#include <sys/stat.h>

#include "runs/dataset.h"
#include "util/error.h"

/* Wild folder -> the format that must read every record in it. */
static const struct {
	const char *folder, *format;
} folders[] = {
	{ "claude-code", "claude-code" },
	{ "codex-rollout", "codex" },
	{ "otel-openinference-spans", "otel" },
	{ "inspect-ai", "inspect" },
	{ "openhands-events", "openhands" },
	{ "ai-sdk-ui-message-stream", "ai-sdk-ui-stream" },
	{ "swe-agent-traj", "swe-agent" },
	{ "mini-swe-agent-traj", "mini-swe-agent" },
	{ "openai-agents-runstate", "openai-agents" },
	{ "anthropic-messages", "anthropic-message" },
	{ "chat-completions", "chat-completions-response" },
	{ "openai-responses", "openai-responses" },
	{ "langfuse-export", "langfuse" },
	{ "atif", "atif" },
};

#define NFOLDERS (sizeof folders / sizeof *folders)

/* How the records of some inputs were read. */
struct reading {
	size_t records;
	size_t own;             /* read (no load error) as the expected format */
	size_t unclaimed;       /* claimed by no format */
};

/* Reads every record of paths; each must parse and be `want` (loaded
 * without an error), or, when want is NULL, be claimed by no format (or
 * not parse). */
static struct reading read_all(char *const *paths, size_t npaths, const char *want)
{
	struct reading rd = { 0 };
	struct dataset ds = { 0 };
	struct error err = {0};
	int rc = dataset_open(&ds, paths, npaths, &err);
	if (rc < 0)
		fprintf(stderr, "%s\n", err.msg);
	assert_int_equal(rc, 0);
	struct dataset_cursor cur;
	struct record_ref rec;
	dataset_cursor_init(&cur);
	while (dataset_next(&ds, &cur, &rec)) {
		rd.records++;
		struct run *r = dataset_load_run(&ds, &rec, NULL, NULL, &err);
		if (!r) {
			/* Unread is not misread; but its own format reads it all. */
			if (want) {
				fprintf(stderr, "does not parse: %s\n", err.msg);
				fail();
			}
			rd.unclaimed++;
			continue;
		}
		bool claimed = format_find(r->format) != NULL;
		if (want && (strcmp(r->format, want) != 0 || r->load_error))
			fprintf(stderr, "%s: read as %s, not %s%s%s\n", r->source, r->format, want,
			        r->load_error ? ": " : "", r->load_error ? r->load_error : "");
		if (!want && claimed)
			fprintf(stderr, "%s: claimed by %s\n", r->source, r->format);
		rd.own += want && !strcmp(r->format, want) && !r->load_error;
		rd.unclaimed += !claimed;
		run_free(r);
	}
	dataset_close(&ds);
	if (want)
		assert_int_equal(rd.own, rd.records);
	else
		assert_int_equal(rd.unclaimed, rd.records);
	return rd;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* Every sample, alone in a .json file (and, for a format of records, on
 * one line of a .jsonl file), is read as its own format: one run, or the
 * runs a container format cuts it into. */
static void test_samples_read_as_their_format(void **state)
{
	(void)state;
	const char *tmp = getenv("TMPDIR");
	char json_path[512], jsonl_path[520];
	snprintf(json_path, sizeof json_path, "%s/tcr-detect-all-%d.json", tmp && *tmp ? tmp : "/tmp",
	         (int)getpid());
	snprintf(jsonl_path, sizeof jsonl_path, "%sl", json_path);
	size_t n = 0;
	for (size_t i = 0; fmt_samples[i].json; i++, n++) {
		const struct fmt_sample *s = &fmt_samples[i];
		json_t *rec = fmt_parse(s->json);
		char *text = json_dumps(rec, JSON_COMPACT | JSON_ENCODE_ANY);
		json_decref(rec);
		assert_non_null(text);
		/* in memory, as detection sees a record */
		const struct format_ops *f = fmt_detect(s->json);
		if (!f || strcmp(f->name, s->format) != 0)
			fprintf(stderr, "the %s sample is detected as %s\n", s->label, f ? f->name : "none");
		assert_non_null(f);
		assert_string_equal(f->name, s->format);
		/* and from files */
		write_file(json_path, text);
		char *one[] = { json_path };
		size_t runs = read_all(one, 1, s->format).records;
		/* A container (an Inspect log) may hold several runs. */
		if (!f->split && runs != 1)
			fprintf(stderr, "the %s sample as .json is %zu runs\n", s->label, runs);
		assert_true(f->split ? runs >= 1 : runs == 1);
		/* A line of a JSONL file is a record of its own only for formats
		 * that read records; a file or a container is read whole. */
		if (f->unit != UNIT_RECORD || f->split) {
			free(text);
			continue;
		}
		size_t len = strlen(text);
		char *line = malloc(len + 2);
		assert_non_null(line);
		memcpy(line, text, len);
		memcpy(line + len, "\n", 2);
		write_file(jsonl_path, line);
		char *one_line[] = { jsonl_path };
		assert_int_equal(read_all(one_line, 1, s->format).records, 1);
		free(line);
		free(text);
	}
	unlink(json_path);
	unlink(jsonl_path);
	assert_true(n > 0);
}

static const char *folder_format(const char *folder)
{
	for (size_t i = 0; i < NFOLDERS; i++)
		if (!strcmp(folders[i].folder, folder))
			return folders[i].format;
	return NULL;
}

/* Every file of a wild folder whose format is in the table is read, all
 * of it, as that format; a folder whose loader is yet to come is skipped,
 * and no format there is claims any of its records. */
static void test_wild_files_read_as_their_format(void **state)
{
	(void)state;
	char top[4096];
	if (!fmt_shared_path(top, sizeof top, "fixtures/real/wild")) {
		skip();
		return;
	}
	DIR *dir = opendir(top);
	assert_non_null(dir);
	struct dirent *e;
	size_t checked = 0;
	while ((e = readdir(dir))) {
		char sub[4400];
		struct stat st;
		snprintf(sub, sizeof sub, "%s/%s", top, e->d_name);
		if (e->d_name[0] == '.' || stat(sub, &st) != 0 || !S_ISDIR(st.st_mode))
			continue;
		const char *want = folder_format(e->d_name);
		if (!want) {
			printf("no row for wild folder %s in test_detect_all.c: not checked\n", e->d_name);
			continue;
		}
		char *paths[] = { sub };
		if (!format_find(want)) {
			struct reading rd = read_all(paths, 1, NULL);
			printf("skipped: %s (format %s is not in the table yet); none of its %zu "
			       "records is claimed by another format\n", e->d_name, want, rd.records);
			continue;
		}
		struct reading rd = read_all(paths, 1, want);
		assert_true(rd.records > 0);
		printf("%s: %zu records, all read as %s\n", e->d_name, rd.records, want);
		checked++;
	}
	closedir(dir);
	assert_true(checked > 0);
}

/* Every format named in folders[] that is in the table is one of the
 * names detection can give (a typo would skip a folder for ever). */
static void test_folder_formats_are_names(void **state)
{
	(void)state;
	static const char *const to_come[] = { "claude-code", "codex", "otel", "inspect",
	                                       "openhands", "ai-sdk-ui-stream", NULL };
	for (size_t i = 0; i < NFOLDERS; i++) {
		bool coming = false;
		for (size_t k = 0; to_come[k]; k++)
			coming = coming || !strcmp(to_come[k], folders[i].format);
		if (!coming && !format_find(folders[i].format))
			fprintf(stderr, "folder %s: no format %s\n", folders[i].folder, folders[i].format);
		assert_true(coming || format_find(folders[i].format));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_folder_formats_are_names),
		cmocka_unit_test(test_samples_read_as_their_format),
		cmocka_unit_test(test_wild_files_read_as_their_format),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
