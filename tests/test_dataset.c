/* test_dataset.c - inputs: the JSONL line index (CRLF, blank lines, no
 * final newline, a 10 MB line), JSON files, folders, bad records, and
 * each record's SHA-256. */
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
#include "util/digest.h"

static char dir[256];

static int setup(void **s)
{
	(void)s;
	strcpy(dir, "/tmp/tcr-ds.XXXXXX");
	assert_non_null(mkdtemp(dir));
	return 0;
}

static int teardown(void **s)
{
	(void)s;
	char cmd[512];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static char *write_file(const char *name, const char *data, size_t n)
{
	char *p;
	assert_true(asprintf(&p, "%s/%s", dir, name) > 0);
	for (char *q = p + strlen(dir) + 1; *q; q++)
		if (*q == '/') {
			*q = '\0';
			mkdir(p, 0755);
			*q = '/';
		}
	FILE *f = fopen(p, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, n, f), n);
	fclose(f);
	return p;
}

/* Opens one file and returns its records' lines, comma-separated. */
static void lines_of(char *path, char *out, size_t n)
{
	struct dataset ds;
	char err[256];
	char *paths[] = { path };
	assert_int_equal(dataset_open(&ds, paths, 1, err, sizeof err), 0);
	dataset_index_all(&ds);
	out[0] = '\0';
	for (size_t i = 0; i < ds.nrecs; i++) {
		char b[32];
		snprintf(b, sizeof b, "%s%u", i ? "," : "", ds.recs[i].line);
		strncat(out, b, n - strlen(out) - 1);
	}
	/* the streaming cursor sees the same records */
	struct dataset_cursor cur;
	struct record_ref rec;
	size_t k = 0;
	dataset_cursor_init(&cur);
	while (dataset_next(&ds, &cur, &rec)) {
		assert_true(k < ds.nrecs);
		assert_int_equal(rec.line, ds.recs[k].line);
		assert_int_equal(rec.off, ds.recs[k].off);
		assert_int_equal(rec.len, ds.recs[k].len);
		k++;
	}
	assert_int_equal(k, ds.nrecs);
	dataset_close(&ds);
}

static void test_line_index(void **s)
{
	(void)s;
	char got[256];
	static const char crlf[] = "{\"id\":\"a\"}\r\n\r\n   \n{\"id\":\"b\"}\r\n{\"id\":\"c\"}";
	char *p = write_file("crlf.jsonl", crlf, sizeof crlf - 1);
	lines_of(p, got, sizeof got);
	assert_string_equal(got, "1,4,5");       /* blank lines skipped, last line without newline kept */
	struct dataset ds;
	char err[256];
	char *paths[] = { p };
	assert_int_equal(dataset_open(&ds, paths, 1, err, sizeof err), 0);
	dataset_index_all(&ds);
	json_t *v = dataset_parse(&ds, &ds.recs[0], err, sizeof err);
	assert_string_equal(json_string_value(json_object_get(v, "id")), "a");   /* CR stripped */
	json_decref(v);
	dataset_close(&ds);
	free(p);
	p = write_file("empty.jsonl", "", 0);
	lines_of(p, got, sizeof got);
	assert_string_equal(got, "");
	free(p);
}

static void test_ten_megabyte_line(void **s)
{
	(void)s;
	size_t big = 10u << 20;
	char *data = malloc(big + 64);
	size_t n = (size_t)sprintf(data, "{\"id\":\"small\"}\n{\"id\":\"big\",\"t\":\"");
	memset(data + n, 'x', big);
	n += big;
	n += (size_t)sprintf(data + n, "\"}\n{\"id\":\"after\"}\n");
	char *p = write_file("big.jsonl", data, n);
	free(data);
	struct dataset ds;
	char err[256];
	char *paths[] = { p };
	assert_int_equal(dataset_open(&ds, paths, 1, err, sizeof err), 0);
	dataset_index_all(&ds);
	assert_int_equal(ds.nrecs, 3);
	assert_true(ds.recs[1].len > big);
	json_t *v = dataset_parse(&ds, &ds.recs[1], err, sizeof err);
	assert_non_null(v);
	assert_int_equal(json_string_length(json_object_get(v, "t")), big);
	json_decref(v);
	v = dataset_parse(&ds, &ds.recs[2], err, sizeof err);
	assert_string_equal(json_string_value(json_object_get(v, "id")), "after");
	json_decref(v);
	dataset_close(&ds);
	free(p);
}

static void test_bad_records(void **s)
{
	(void)s;
	static const char text[] = "{\"id\":\"ok\"}\n{\"id\": \"trunc\n{\"id\":\"bad\xff\"}\n";
	char *p = write_file("bad.jsonl", text, sizeof text - 1);
	struct dataset ds;
	char err[512];
	char *paths[] = { p };
	assert_int_equal(dataset_open(&ds, paths, 1, err, sizeof err), 0);
	dataset_index_all(&ds);
	assert_int_equal(ds.nrecs, 3);
	json_t *v = dataset_parse(&ds, &ds.recs[1], err, sizeof err);
	assert_null(v);
	char want[512];
	snprintf(want, sizeof want, "%s:2: ", p);
	assert_memory_equal(err, want, strlen(want));            /* FILE:LINE: parser message */
	/* invalid UTF-8 is repaired to U+FFFD, not refused */
	v = dataset_parse(&ds, &ds.recs[2], err, sizeof err);
	assert_non_null(v);
	assert_string_equal(json_string_value(json_object_get(v, "id")), "bad\xef\xbf\xbd");
	json_decref(v);
	/* a well-formed record of no known format gets a named run with an error */
	struct run *r = dataset_load_run(&ds, &ds.recs[0], NULL, NULL, err, sizeof err);
	assert_non_null(r);
	assert_string_equal(r->id, "ok");
	assert_non_null(r->load_error);
	run_free(r);
	dataset_close(&ds);
	free(p);
}

static void test_json_files_and_folders(void **s)
{
	(void)s;
	static const char arr[] = "[{\"id\":\"r1\",\"messages\":[]},{\"id\":\"r2\",\"messages\":[]}]";
	static const char one[] = "{\"runId\":\"solo\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
	static const char bare[] = "[{\"role\":\"user\",\"content\":\"hi\"},{\"role\":\"assistant\",\"content\":\"yo\"}]";
	static const char lines[] = "{\"run_id\":7,\"messages\":[]}\n";
	free(write_file("f/b/array.json", arr, sizeof arr - 1));
	free(write_file("f/a.json", one, sizeof one - 1));
	free(write_file("f/c/bare.json", bare, sizeof bare - 1));
	free(write_file("f/b/z.jsonl", lines, sizeof lines - 1));
	free(write_file("f/b/z.jsonl.annotations.jsonl", lines, sizeof lines - 1));
	free(write_file("f/b/notes.txt", "x", 1));
	free(write_file("f/.hidden.jsonl", lines, sizeof lines - 1));
	char *folder;
	assert_true(asprintf(&folder, "%s/f", dir) > 0);
	struct dataset ds;
	char err[256];
	char *paths[] = { folder };
	assert_int_equal(dataset_open(&ds, paths, 1, err, sizeof err), 0);
	assert_int_equal(ds.nfiles, 4);                       /* sorted, ours and hidden skipped */
	assert_non_null(strstr(ds.files[0].path, "f/a.json"));
	assert_non_null(strstr(ds.files[1].path, "f/b/array.json"));
	assert_non_null(strstr(ds.files[2].path, "f/b/z.jsonl"));
	assert_non_null(strstr(ds.files[3].path, "f/c/bare.json"));
	dataset_index_all(&ds);
	assert_int_equal(ds.nrecs, 5);
	const char *want_ids[] = { "solo", "r1", "r2", "7", NULL };
	for (size_t i = 0; i < ds.nrecs; i++) {
		struct run *r = dataset_load_run(&ds, &ds.recs[i], NULL, NULL, err, sizeof err);
		assert_non_null(r);
		if (want_ids[i])
			assert_string_equal(r->id, want_ids[i]);
		else
			assert_non_null(strstr(r->id, "bare.json"));    /* no id: named by its source */
		if (i == 1)
			assert_non_null(strstr(r->source, "array.json[0]"));
		run_free(r);
	}
	dataset_close(&ds);
	/* a missing input is an error naming it */
	char *missing[] = { "/nonexistent/x.jsonl" };
	assert_int_equal(dataset_open(&ds, missing, 1, err, sizeof err), -1);
	assert_non_null(strstr(err, "/nonexistent/x.jsonl: "));
	dataset_close(&ds);
	free(folder);
}

static void test_index_in_steps(void **s)
{
	(void)s;
	char buf[64 * 40];
	size_t n = 0;
	for (int i = 0; i < 40; i++)
		n += (size_t)sprintf(buf + n, "{\"id\":\"run-%02d\"}\n", i);
	char *p = write_file("steps.jsonl", buf, n);
	struct dataset ds;
	char err[256];
	char *paths[] = { p };
	assert_int_equal(dataset_open(&ds, paths, 1, err, sizeof err), 0);
	int steps = 0;
	while (dataset_index_step(&ds, 100))
		steps++;
	assert_true(steps > 3);                       /* the screen can grow the list as it goes */
	assert_int_equal(ds.nrecs, 40);
	assert_int_equal(ds.recs[39].line, 40);
	assert_int_equal(ds.bytes_indexed, ds.bytes_total);
	dataset_close(&ds);
	free(p);
}

/* A record's hash is the SHA-256 of exactly its line's bytes (no CR, no
 * LF), and of the compact text of a .json element or document, so a
 * reformatted .json file keeps its labels fresh and an edited line does
 * not. */
static void test_record_hash(void **s)
{
	(void)s;
	static const char lines[] = "abc\r\n\n{\"id\":\"b\"}";
	char *pl = write_file("h/lines.jsonl", lines, sizeof lines - 1);
	static const char arr[] = "[ {\"id\": \"r1\", \"messages\": []},\n  {\"id\":\"r2\",\"messages\":[]} ]";
	char *pa = write_file("h/arr.json", arr, sizeof arr - 1);
	static const char one[] = "{ \"runId\" : \"solo\",\n \"messages\" : [ ] }\n";
	char *po = write_file("h/one.json", one, sizeof one - 1);
	char *pb = write_file("h/bad.json", "{", 1);
	struct dataset ds;
	char err[256];
	char *paths[] = { pl, pa, po, pb };
	assert_int_equal(dataset_open(&ds, paths, 4, err, sizeof err), 0);
	dataset_index_all(&ds);
	assert_int_equal(ds.nrecs, 6);
	char hex[65], want[65];
	assert_int_equal(dataset_record_hash(&ds, &ds.recs[0], hex), 0);
	/* "abc" alone: the FIPS 180-2 value, so the CR and LF were left out */
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	assert_int_equal(dataset_record_hash(&ds, &ds.recs[1], hex), 0);
	sha256_hex("{\"id\":\"b\"}", strlen("{\"id\":\"b\"}"), want);
	assert_string_equal(hex, want);
	assert_int_equal(ds.recs[2].index, 0);
	assert_int_equal(dataset_record_hash(&ds, &ds.recs[2], hex), 0);
	sha256_hex("{\"id\":\"r1\",\"messages\":[]}", strlen("{\"id\":\"r1\",\"messages\":[]}"), want);
	assert_string_equal(hex, want);
	assert_int_equal(dataset_record_hash(&ds, &ds.recs[3], hex), 0);
	sha256_hex("{\"id\":\"r2\",\"messages\":[]}", strlen("{\"id\":\"r2\",\"messages\":[]}"), want);
	assert_string_equal(hex, want);
	assert_int_equal(dataset_record_hash(&ds, &ds.recs[4], hex), 0);
	const char *solo = "{\"runId\":\"solo\",\"messages\":[]}";
	sha256_hex(solo, strlen(solo), want);
	assert_string_equal(hex, want);
	/* the raw form is the same digest */
	unsigned char raw[32];
	assert_int_equal(dataset_record_hash_raw(&ds, &ds.recs[4], raw), 0);
	char hex2[65];
	sha256_to_hex(raw, hex2);
	assert_string_equal(hex2, want);
	/* a .json file that does not parse has no hash, and says so */
	assert_int_equal(dataset_record_hash(&ds, &ds.recs[5], hex), -1);
	assert_string_equal(hex, "");
	dataset_close(&ds);
	free(pl);
	free(pa);
	free(po);
	free(pb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line_index),
		cmocka_unit_test(test_ten_megabyte_line),
		cmocka_unit_test(test_bad_records),
		cmocka_unit_test(test_json_files_and_folders),
		cmocka_unit_test(test_index_in_steps),
		cmocka_unit_test(test_record_hash),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
