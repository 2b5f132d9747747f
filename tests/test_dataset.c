/* test_dataset.c - inputs: the JSONL line index (CRLF, blank lines, no
 * final newline, a 10 MB line), JSON files, folders, bad records, and
 * each record's SHA-256; records parsed in place in the mapping (the last
 * one too), what the fast parser accepts that jansson refused, and every
 * error in jansson's words at FILE:LINE (column N). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include <fcntl.h>
#include <jansson.h>

#include "runs/dataset.h"
#include "runs/format.h"
#include "util/digest.h"
#include "util/jdoc.h"
#include "util/error.h"

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
	struct error err = {0};
	char *paths[] = { path };
	assert_int_equal(dataset_open(&ds, paths, 1, &err), 0);
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
	struct error err = {0};
	char *paths[] = { p };
	assert_int_equal(dataset_open(&ds, paths, 1, &err), 0);
	dataset_index_all(&ds);
	json_t *v = dataset_parse(&ds, &ds.recs[0], &err);
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
	struct error err = {0};
	char *paths[] = { p };
	assert_int_equal(dataset_open(&ds, paths, 1, &err), 0);
	dataset_index_all(&ds);
	assert_int_equal(ds.nrecs, 3);
	assert_true(ds.recs[1].len > big);
	json_t *v = dataset_parse(&ds, &ds.recs[1], &err);
	assert_non_null(v);
	assert_int_equal(json_string_length(json_object_get(v, "t")), big);
	json_decref(v);
	v = dataset_parse(&ds, &ds.recs[2], &err);
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
	struct error err = {0};
	char *paths[] = { p };
	assert_int_equal(dataset_open(&ds, paths, 1, &err), 0);
	dataset_index_all(&ds);
	assert_int_equal(ds.nrecs, 3);
	json_t *v = dataset_parse(&ds, &ds.recs[1], &err);
	assert_null(v);
	char want[512];
	snprintf(want, sizeof want, "%s:2: ", p);
	assert_memory_equal(err.msg, want, strlen(want));            /* FILE:LINE: parser message */
	/* invalid UTF-8 is repaired to U+FFFD, not refused */
	v = dataset_parse(&ds, &ds.recs[2], &err);
	assert_non_null(v);
	assert_string_equal(json_string_value(json_object_get(v, "id")), "bad\xef\xbf\xbd");
	json_decref(v);
	/* a well-formed record of no known format gets a named run with an error */
	struct run *r = dataset_load_run(&ds, &ds.recs[0], NULL, NULL, &err);
	assert_non_null(r);
	assert_string_equal(r->id, "ok");
	assert_non_null(r->load_error);
	run_free(r);
	dataset_close(&ds);
	free(p);
}

/* SWE-agent's .traj files are inputs, and each is one JSON document: a
 * one-line .traj is not read as JSONL (its source has no line), and a
 * folder lists it beside .json files. */
static void test_traj_files(void **s)
{
	(void)s;
	static const char one[] = "{\"history\":[{\"role\":\"user\",\"content\":\"hi\",\"agent\":\"main\"}]}\n";
	static const char pretty[] = "{\n  \"trajectory\": [],\n  \"history\": []\n}\n";
	free(write_file("t/a.traj", one, sizeof one - 1));
	free(write_file("t/b.traj", pretty, sizeof pretty - 1));
	free(write_file("t/c.trajectory", one, sizeof one - 1));
	char *folder;
	assert_true(asprintf(&folder, "%s/t", dir) > 0);
	struct dataset ds;
	struct error err = {0};
	char *paths[] = { folder };
	assert_int_equal(dataset_open(&ds, paths, 1, &err), 0);
	assert_int_equal(ds.nfiles, 2);
	assert_int_equal(ds.files[0].kind, INPUT_JSON);
	assert_int_equal(ds.files[1].kind, INPUT_JSON);
	dataset_index_all(&ds);
	assert_int_equal(ds.nrecs, 2);
	struct run *r = dataset_load_run(&ds, &ds.recs[0], NULL, NULL, &err);
	assert_non_null(r);
	assert_string_equal(r->source + strlen(r->source) - 7, "/a.traj");
	assert_int_equal(r->line, 0);
	run_free(r);
	dataset_close(&ds);
	free(folder);
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
	struct error err = {0};
	char *paths[] = { folder };
	assert_int_equal(dataset_open(&ds, paths, 1, &err), 0);
	assert_int_equal(ds.nfiles, 4);                       /* sorted, ours and hidden skipped */
	assert_non_null(strstr(ds.files[0].path, "f/a.json"));
	assert_non_null(strstr(ds.files[1].path, "f/b/array.json"));
	assert_non_null(strstr(ds.files[2].path, "f/b/z.jsonl"));
	assert_non_null(strstr(ds.files[3].path, "f/c/bare.json"));
	dataset_index_all(&ds);
	assert_int_equal(ds.nrecs, 5);
	const char *want_ids[] = { "solo", "r1", "r2", "7", NULL };
	for (size_t i = 0; i < ds.nrecs; i++) {
		struct run *r = dataset_load_run(&ds, &ds.recs[i], NULL, NULL, &err);
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
	assert_int_equal(dataset_open(&ds, missing, 1, &err), -1);
	assert_non_null(strstr(err.msg, "/nonexistent/x.jsonl: "));
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
	struct error err = {0};
	char *paths[] = { p };
	assert_int_equal(dataset_open(&ds, paths, 1, &err), 0);
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
	struct error err = {0};
	char *paths[] = { pl, pa, po, pb };
	assert_int_equal(dataset_open(&ds, paths, 4, &err), 0);
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


/* Opens one file and indexes it. */
static void open_one(struct dataset *ds, char *path)
{
	struct error err = {0};
	char *paths[] = { path };
	if (dataset_open(ds, paths, 1, &err) != 0)
		fail_msg("%s", err.msg);
	dataset_index_all(ds);
}

/* What the parse of record i says: NULL and the message, or the tape. */
static struct jdoc *parse_rec(struct dataset *ds, size_t i, struct error *err)
{
	assert_true(i < ds->nrecs);
	error_clear(err);
	struct jdoc *d = dataset_parse_doc(ds, &ds->recs[i], err);
	if (d)
		assert_null(d->own_src);    /* parsed where it lies: nothing was copied */
	else
		assert_true(err->msg[0] != '\0');
	return d;
}

/* The message jansson gave for these bytes, as "PREFIX: TEXT (column N)". */
static void jansson_says(const char *prefix, const char *text, size_t len, char *out, size_t n)
{
	json_error_t jerr;
	json_t *v = json_loadb(text, len, 0, &jerr);
	assert_null(v);
	snprintf(out, n, "%s: %s (column %d)", prefix, jerr.text, jerr.column);
}

/* Valid JSON jansson refused: NULs in strings, integers beyond 2^53 and
 * beyond int64_t, reals beyond a double. Accepted now, with their text. */
static void test_what_jansson_refused(void **s)
{
	(void)s;
	static const char text[] =
		"{\"id\":\"nul\",\"t\":\"a\\u0000b\"}\n"
		"{\"id\":12345678901234567890123,\"a\":9007199254740993,\"b\":1e400,"
		"\"c\":-98765432109876543210,\"messages\":[]}\n"
		"{\"id\":9007199254740993}\n"
		"{\"id\":0.1}\n"
		"{\"id\":5.0}\n"
		"{\"id\":1e21}\n"
		"{\"id\":-1e400}\n"
		"{\"id\":\"\",\"runId\":7}\n"
		"{\"id\":\"a\\u0000b\"}\n";
	char *p = write_file("refused.jsonl", text, sizeof text - 1);
	struct dataset ds;
	struct error err = {0};
	open_one(&ds, p);
	assert_int_equal(ds.nrecs, 9);

	struct run *r = dataset_load_run(&ds, &ds.recs[0], NULL, NULL, &err);
	assert_non_null(r);
	assert_string_equal(r->id, "nul");
	jv t = jv_get(r->doc, run_root(r), "t");
	assert_int_equal(jv_strlen(r->doc, t), 3);
	assert_memory_equal(jv_str(r->doc, t), "a\0b", 4);
	size_t n;
	const char *raw = jv_raw(r->doc, t, &n);
	assert_int_equal(n, strlen("\"a\\u0000b\""));
	assert_memory_equal(raw, "\"a\\u0000b\"", n);
	json_t *rec = run_record(r);
	assert_int_equal(json_string_length(json_object_get(rec, "t")), 3);
	assert_memory_equal(json_string_value(json_object_get(rec, "t")), "a\0b", 4);
	run_free(r);

	r = dataset_load_run(&ds, &ds.recs[1], NULL, NULL, &err);
	assert_non_null(r);
	assert_string_equal(r->id, "12345678901234567890123");   /* beyond int64: its text */
	const struct jdoc *d = r->doc;
	jv root = run_root(r);
	jv a = jv_get(d, root, "a"), b = jv_get(d, root, "b"), c = jv_get(d, root, "c");
	assert_true(jv_is_integer(d, a));
	assert_true(jv_int(d, a) == 9007199254740993LL);        /* exact beyond 2^53 */
	assert_string_equal(jv_number_text(d, b), "1e400");
	raw = jv_raw(d, b, &n);
	assert_memory_equal(raw, "1e400", n);
	assert_false(jv_is_integer(d, c));
	assert_string_equal(jv_number_text(d, c), "-98765432109876543210");
	rec = run_record(r);
	assert_true(json_integer_value(json_object_get(rec, "a")) == 9007199254740993LL);
	run_free(r);

	/* ids print as the output prints numbers */
	static const char *const ids[] = { "9007199254740993", "0.1", "5", "1e+21", "-1e400", "7" };
	for (size_t i = 0; i < 6; i++) {
		r = dataset_load_run(&ds, &ds.recs[2 + i], NULL, NULL, &err);
		assert_non_null(r);
		assert_string_equal(r->id, ids[i]);
		run_free(r);
	}
	/* an id holding a NUL is not cut there: the NUL shows as U+FFFD */
	r = dataset_load_run(&ds, &ds.recs[8], NULL, NULL, &err);
	assert_non_null(r);
	assert_string_equal(r->id, "a\xef\xbf\xbd" "b");
	run_free(r);
	/* and from id_path */
	r = dataset_load_run(&ds, &ds.recs[1], NULL, "a", &err);
	assert_string_equal(r->id, "9007199254740993");
	run_free(r);
	dataset_close(&ds);
	free(p);
}

/* Syntax errors, too-deep nesting and records that are no object or
 * array: FILE:LINE: the words jansson used (column N), as before. */
static void test_errors_in_jansson_words(void **s)
{
	(void)s;
	static const char *const bad[] = {
		"{\"id\": \"x\",, }", "[1,2", "{\"a\":1} x", "{\"a\":tru}", "{\"a\":\"\\q\"}",
		"{\"a\":\"\xe6\x97\xa5\" x}", "5", "\"abc\"", "nope", "true", "1e400", "-",
		"\"a\\u0000\"", "null", NULL,
	};
	struct strbuf_like { char buf[16384]; size_t n; } *all = calloc(1, sizeof *all);
	assert_non_null(all);
	size_t nbad = 0;
	all->n += (size_t)sprintf(all->buf, "{\"id\":\"ok\"}\r\n");
	for (; bad[nbad]; nbad++)
		all->n += (size_t)sprintf(all->buf + all->n, "%s\r\n", bad[nbad]);
	/* nesting jansson refused (2049 deep) and the deepest it took (2048) */
	memset(all->buf + all->n, '[', 2049);
	all->n += 2049;
	all->buf[all->n++] = '\n';
	memset(all->buf + all->n, '[', 2048);
	memset(all->buf + all->n + 2048, ']', 2048);
	all->n += 4096;
	char *p = write_file("errors.jsonl", all->buf, all->n);
	struct dataset ds;
	struct error err = {0};
	char want[1024], src[600];
	open_one(&ds, p);
	assert_int_equal(ds.nrecs, nbad + 3);
	struct jdoc *ok = parse_rec(&ds, 0, &err);
	assert_non_null(ok);
	jdoc_free(ok);
	for (size_t i = 0; i < nbad; i++) {
		snprintf(src, sizeof src, "%s:%zu", p, i + 2);
		jansson_says(src, bad[i], strlen(bad[i]), want, sizeof want);
		assert_null(parse_rec(&ds, i + 1, &err));
		assert_string_equal(err.msg, want);
		/* dataset_load_run says the same */
		assert_null(dataset_load_run(&ds, &ds.recs[i + 1], NULL, NULL, &err));
		assert_string_equal(err.msg, want);
	}
	snprintf(src, sizeof src, "%s:%zu", p, nbad + 2);
	const struct record_ref *deep = &ds.recs[nbad + 1];
	jansson_says(src, ds.files[0].data + deep->off, (size_t)deep->len, want, sizeof want);
	assert_non_null(strstr(want, "maximum parsing depth reached"));
	assert_null(parse_rec(&ds, nbad + 1, &err));
	assert_string_equal(err.msg, want);
	struct jdoc *d = parse_rec(&ds, nbad + 2, &err);
	assert_non_null(d);
	jdoc_free(d);
	dataset_close(&ds);
	free(p);
	free(all);

	/* a .json document: the line and column in the whole file */
	static const char doc[] = "[\n  {\"id\": \"a\"},\n  {\"id\": \"b\",}\n]\n";
	p = write_file("errors.json", doc, sizeof doc - 1);
	open_one(&ds, p);
	assert_int_equal(ds.nrecs, 1);
	json_error_t jerr;
	assert_null(json_loadb(doc, sizeof doc - 1, 0, &jerr));
	snprintf(want, sizeof want, "%s:%d: %s (column %d)", p, jerr.line, jerr.text, jerr.column);
	assert_int_equal(jerr.line, 3);
	assert_null(dataset_parse_doc(&ds, &ds.recs[0], &err));
	assert_string_equal(err.msg, want);
	record_source(&ds, &ds.recs[0], src, sizeof src);
	snprintf(want, sizeof want, "%s:3", p);
	assert_string_equal(src, want);
	dataset_close(&ds);
	free(p);
	/* a document that is no object or array, and an empty one */
	static const char *const docs[] = { "  5\n", "\"text\"", "", " \n ", NULL };
	for (size_t i = 0; docs[i]; i++) {
		p = write_file("scalar.json", docs[i], strlen(docs[i]));
		open_one(&ds, p);
		assert_int_equal(ds.nrecs, 1);
		assert_null(json_loadb(docs[i], strlen(docs[i]), 0, &jerr));
		snprintf(want, sizeof want, "%s:%d: %s (column %d)", p, jerr.line, jerr.text, jerr.column);
		assert_null(dataset_load_run(&ds, &ds.recs[0], NULL, NULL, &err));
		assert_string_equal(err.msg, want);
		dataset_close(&ds);
		free(p);
	}
}

/* The last record of a file needs readable padding behind it: a file whose
 * size is a whole number of pages, and one with no final newline, are
 * parsed in place (the spare page), not copied. */
static void test_last_record_in_place(void **s)
{
	(void)s;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	for (int k = 1; k <= 2; k++) {
		size_t size = page * (size_t)k;
		char *buf = malloc(size + 1);
		size_t n = (size_t)sprintf(buf, "{\"id\":\"first\"}\n{\"id\":\"last\",\"pad\":\"");
		size_t tail = strlen("\"}");
		memset(buf + n, 'x', size - n - tail);
		memcpy(buf + size - tail, "\"}", tail);
		char *p = write_file("pages.jsonl", buf, size);
		struct dataset ds;
		struct error err = {0};
		open_one(&ds, p);
		assert_int_equal(ds.files[0].size, size);
		assert_true(ds.files[0].mapped);
		assert_true(ds.files[0].map_len >= size + JDOC_PADDING);
		assert_int_equal(ds.nrecs, 2);
		assert_int_equal(ds.recs[1].off + ds.recs[1].len, size);    /* ends at the end of the file */
		struct jdoc *d = parse_rec(&ds, 1, &err);
		assert_non_null(d);
		assert_string_equal(jv_str(d, jv_get(d, jdoc_root(d), "id")), "last");
		jdoc_free(d);
		struct run *r = dataset_load_run(&ds, &ds.recs[1], NULL, NULL, &err);
		assert_string_equal(r->id, "last");
		assert_null(r->doc->own_src);
		run_free(r);
		dataset_close(&ds);
		/* the same bytes as one .json document */
		memcpy(buf, "{\"id\":\"doc\" ,\"pad\":\"", strlen("{\"id\":\"doc\" ,\"pad\":\""));
		for (size_t i = strlen("{\"id\":\"doc\" ,\"pad\":\""); i < size - tail; i++)
			buf[i] = 'y';
		free(p);
		p = write_file("pages.json", buf, size);
		open_one(&ds, p);
		assert_int_equal(ds.nrecs, 1);
		assert_int_equal(ds.recs[0].len, size);
		r = dataset_load_run(&ds, &ds.recs[0], NULL, NULL, &err);
		assert_non_null(r);
		assert_string_equal(r->id, "doc");
		assert_null(r->doc->own_src);
		run_free(r);
		dataset_close(&ds);
		free(p);
		free(buf);
	}
	/* no final newline, not a page multiple */
	static const char text[] = "{\"id\":\"a\"}\n\n{\"id\":\"b\"}";
	char *p = write_file("nofinal.jsonl", text, sizeof text - 1);
	struct dataset ds;
	struct error err = {0};
	open_one(&ds, p);
	assert_int_equal(ds.nrecs, 2);
	assert_int_equal(ds.recs[1].line, 3);
	struct jdoc *d = parse_rec(&ds, 1, &err);
	assert_string_equal(jv_str(d, jv_get(d, jdoc_root(d), "id")), "b");
	jdoc_free(d);
	dataset_close(&ds);
	free(p);
}

/* Opens "-" with fd as standard input (restored after). */
static int open_stdin(struct dataset *ds, int fd, struct error *err)
{
	int saved = dup(0);
	assert_true(fd >= 0 && saved >= 0);
	assert_int_equal(dup2(fd, 0), 0);
	close(fd);
	char *paths[] = { (char *)"-" };
	int rc = dataset_open(ds, paths, 1, err);
	dup2(saved, 0);
	close(saved);
	return rc;
}

/* A pipe holding text, its write end closed: the text fits its buffer. */
static int pipe_of(const char *text, size_t n)
{
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(write(fds[1], text, n), (ssize_t)n);
	close(fds[1]);
	return fds[0];
}

static const char stdin_text[] = "{\"id\":\"s1\"}\r\n\r\n{\"id\":\"s2\",\"messages\":[]}";

/* Standard input's records, read or mapped, parse in place. */
static void check_stdin_runs(struct dataset *ds)
{
	struct error err = {0};
	assert_int_equal(ds->files[0].kind, INPUT_JSONL);
	dataset_index_all(ds);
	assert_int_equal(ds->nrecs, 2);
	const char *want[] = { "s1", "s2" };
	for (size_t i = 0; i < 2; i++) {
		struct run *r = dataset_load_run(ds, &ds->recs[i], NULL, NULL, &err);
		assert_non_null(r);
		assert_string_equal(r->id, want[i]);
		assert_null(r->doc->own_src);
		assert_string_equal(r->file, "-");
		run_free(r);
	}
	char src[64];
	record_source(ds, &ds->recs[1], src, sizeof src);
	assert_string_equal(src, "-:3");
}

/* "-" from a pipe is read into a buffer with padding; from a file it is
 * mapped as a named file is. */
static void test_stdin(void **s)
{
	(void)s;
	struct dataset ds;
	struct error err = {0};
	assert_int_equal(open_stdin(&ds, pipe_of(stdin_text, sizeof stdin_text - 1), &err), 0);
	assert_false(ds.files[0].mapped);
	check_stdin_runs(&ds);
	dataset_close(&ds);

	char *p = write_file("stdin.jsonl", stdin_text, sizeof stdin_text - 1);
	assert_int_equal(open_stdin(&ds, open(p, O_RDONLY), &err), 0);
	assert_true(ds.files[0].mapped);
	check_stdin_runs(&ds);
	dataset_close(&ds);
	free(p);
}

/* Standard input that is not a file is read up to TCR_STDIN_MAX (1 GB
 * when unset): one byte past it is refused with a message naming the cap;
 * exactly the cap is read. A cap that is not a size is refused too. */
static void test_stdin_cap(void **s)
{
	(void)s;
	struct dataset ds;
	struct error err = {0};
	setenv("TCR_STDIN_MAX", "1K", 1);
	char text[1025];
	memset(text, ' ', sizeof text);
	assert_int_equal(open_stdin(&ds, pipe_of(text, 1025), &err), -1);
	assert_string_equal(err.msg, "-: standard input is larger than 1 KB, the cap on input that is not a file "
	                         "(name the file instead, or set TCR_STDIN_MAX)");
	assert_int_equal(open_stdin(&ds, pipe_of(text, 1024), &err), 0);
	assert_int_equal(ds.files[0].size, 1024);
	dataset_close(&ds);
	setenv("TCR_STDIN_MAX", "12 MB", 1);
	assert_int_equal(open_stdin(&ds, pipe_of(text, 10), &err), -1);
	assert_string_equal(err.msg, "TCR_STDIN_MAX: '12 MB' is not a size (bytes, or a number with K, M or G)");
	unsetenv("TCR_STDIN_MAX");
}

/* A .json file is parsed once to list its runs as byte ranges, then its
 * tape is let go; each run is parsed from its range, and its line is where
 * it starts. Invalid UTF-8 is repaired in .json files too. */
static void test_json_ranges(void **s)
{
	(void)s;
	static const char doc[] = "[\n  {\"id\": \"r1\", \"messages\": []},\n\n  {\"id\": \"r\xff\", \"n\": [1, 2]},"
	                          "\n  7\n]\n";
	char *p = write_file("ranges.json", doc, sizeof doc - 1);
	struct dataset ds;
	struct error err = {0};
	open_one(&ds, p);
	const struct input_file *f = &ds.files[0];
	assert_true(f->doc_listed);
	assert_null(f->doc);
	assert_int_equal(f->ndoc_recs, 3);
	assert_int_equal(ds.nrecs, 3);
	static const unsigned lines[] = { 2, 4, 5 };
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(ds.recs[i].index, (int64_t)i);
		assert_int_equal(ds.recs[i].line, lines[i]);
	}
	assert_memory_equal(f->data + ds.recs[0].off, "{\"id\": \"r1\", \"messages\": []}", ds.recs[0].len);
	struct run *r = dataset_load_run(&ds, &ds.recs[1], NULL, NULL, &err);
	assert_non_null(r);
	assert_string_equal(r->id, "r\xef\xbf\xbd");
	assert_int_equal(r->line, 0);
	assert_int_equal(r->array_index, 1);
	assert_non_null(strstr(r->source, "ranges.json[1]"));
	run_free(r);
	/* an element that is not an object is a run its loader refuses */
	r = dataset_load_run(&ds, &ds.recs[2], NULL, NULL, &err);
	assert_non_null(r);
	assert_non_null(r->load_error);
	run_free(r);
	/* streaming sees the same ranges */
	struct dataset_cursor cur;
	struct record_ref rec;
	dataset_cursor_init(&cur);
	for (size_t i = 0; i < 3; i++) {
		assert_true(dataset_next(&ds, &cur, &rec));
		assert_int_equal(rec.off, ds.recs[i].off);
		assert_int_equal(rec.len, ds.recs[i].len);
		assert_int_equal(rec.index, (int64_t)i);
	}
	assert_false(dataset_next(&ds, &cur, &rec));
	dataset_close(&ds);
	free(p);
}

/* The hash of a .json element is what it was when jansson read the whole
 * file into one tree and dumped the element (annotation files hold these). */
static void test_json_hash_as_before(void **s)
{
	(void)s;
	static const char doc[] =
		"[ {\"id\": \"r1\", \"z\": 1, \"a\": [0.1, 1e300, -2.5e-7, 5.0, -0.0, 12345678901234567],\n"
		"   \"t\": \"\\u00e9\\u65e5\\ud83d\\ude00 \\\"q\\\" \\\\ \\/ \\n\\t\\u0001\",\n"
		"   \"dup\": 1, \"dup\": {\"b\": null, \"a\": true}, \"messages\": []},\n"
		"  {\"id\": \"r2\", \"messages\": [{\"role\": \"user\", \"content\": \"\xe6\x97\xa5\"}]} ]\n";
	char *p = write_file("hash.json", doc, sizeof doc - 1);
	struct dataset ds;
	open_one(&ds, p);
	assert_int_equal(ds.nrecs, 2);
	json_error_t jerr;
	json_t *tree = json_loadb(doc, sizeof doc - 1, 0, &jerr);
	assert_non_null(tree);
	for (size_t i = 0; i < 2; i++) {
		char *text = json_dumps(json_array_get(tree, i), JSON_COMPACT | JSON_ENCODE_ANY);
		char want[65], hex[65];
		sha256_hex(text, strlen(text), want);
		free(text);
		assert_int_equal(dataset_record_hash(&ds, &ds.recs[i], hex), 0);
		assert_string_equal(hex, want);
	}
	json_decref(tree);
	dataset_close(&ds);
	free(p);
}

/* Mastra compares ids as JavaScript values: 5 and 5.0 are one call, read
 * from a file as the record writes them. */
static void test_mastra_ids_from_a_file(void **s)
{
	(void)s;
	static const char text[] =
		"{\"id\":\"m\",\"inputMessages\":[{\"role\":\"user\",\"content\":{\"format\":2,\"content\":\"hi\"}}],"
		"\"output\":[{\"role\":\"assistant\",\"content\":{\"format\":2,\"parts\":["
		"{\"type\":\"tool-invocation\",\"toolInvocation\":{\"toolCallId\":5.0,\"toolName\":\"P\","
		"\"state\":\"result\",\"result\":\"p\"}}],"
		"\"toolInvocations\":[{\"toolCallId\":5,\"toolName\":\"L\",\"state\":\"call\"},"
		"{\"toolCallId\":\"5\",\"toolName\":\"S\",\"state\":\"call\"}]}}]}\n";
	char *p = write_file("mastra.jsonl", text, sizeof text - 1);
	struct dataset ds;
	struct error err = {0};
	open_one(&ds, p);
	struct run *r = dataset_load_run(&ds, &ds.recs[0], NULL, NULL, &err);
	assert_non_null(r);
	assert_null(r->load_error);
	assert_string_equal(r->format, "mastra");
	assert_int_equal(r->ncalls, 2);                 /* L is P's twin; "5" is another id */
	size_t named_p = 0, named_l = 0;
	for (size_t i = 0; i < r->ncalls; i++) {
		named_p += strcmp(r->calls[i].name, "P") == 0;
		named_l += strcmp(r->calls[i].name, "L") == 0;
	}
	assert_int_equal(named_p, 1);
	assert_int_equal(named_l, 0);
	run_free(r);
	dataset_close(&ds);
	free(p);
}

/* The screen's cache counts run_bytes: a run with one big message holds
 * under three times the record. */
static void test_big_message_bytes(void **s)
{
	(void)s;
	size_t big = 8u << 20;
	char *data = malloc(big + 256);
	size_t n = (size_t)sprintf(data, "{\"id\":\"big\",\"messages\":[{\"role\":\"user\",\"content\":\"");
	memset(data + n, 'x', big);
	n += big;
	n += (size_t)sprintf(data + n, "\"}]}\n");
	char *p = write_file("bigmsg.jsonl", data, n);
	free(data);
	struct dataset ds;
	struct error err = {0};
	open_one(&ds, p);
	struct run *r = dataset_load_run(&ds, &ds.recs[0], NULL, NULL, &err);
	assert_non_null(r);
	assert_int_equal(strlen(r->msgs[0].text), big);
	size_t bytes = run_bytes(r);
	assert_true(bytes >= big);
	if (bytes >= 3 * (size_t)ds.recs[0].len)
		fail_msg("run_bytes %zu for a record of %zu bytes", bytes, (size_t)ds.recs[0].len);
	run_free(r);
	dataset_close(&ds);
	free(p);
}

/* A JSONL file whose first lines are a whole-file format's events is one
 * record (the array of its lines, each element on the line it came from,
 * a line that is not JSON null there); --format naming a per-record format
 * reads the same file line by line, and one naming the whole-file format
 * reads a file no detector would take whole. */
static void test_event_files(void **s)
{
	(void)s;
	static const char session[] =
	    "{\"type\":\"summary\",\"summary\":\"s\",\"leafUuid\":\"a1\"}\n"
	    "\n"
	    "{\"type\":\"user\",\"uuid\":\"u1\",\"parentUuid\":null,\"sessionId\":\"S\","
	    "\"message\":{\"role\":\"user\",\"content\":\"hi\"}}\n"
	    "{\"type\":\"assistant\",\"uuid\":\"a1\",\"parentUuid\":\"u1\",\"sessionId\":\"S\","
	    "\"message\":{\"id\":\"m1\",\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"yo\"}]}}\n"
	    "{\"type\":\"assistant\",\"uuid\":\"a2\",\"parentUuid\":\"a1\",\"sessionId\":\"S\",\"mess\n";
	char *p = write_file("ev/session.jsonl", session, sizeof session - 1);
	struct dataset ds;
	struct error err = {0};
	char *paths[] = { p };
	assert_int_equal(dataset_open(&ds, paths, 1, &err), 0);
	dataset_index_all(&ds);
	assert_int_equal(ds.nrecs, 1);
	assert_string_equal(ds.files[0].container->name, "claude-code");
	struct jdoc *d = dataset_parse_doc(&ds, &ds.recs[0], &err);
	assert_non_null(d);
	jv root = jdoc_root(d);
	assert_int_equal(jv_len(d, root), 4);                  /* the blank line is no element */
	assert_true(jv_is_null(d, jv_at(d, root, 3)));         /* the cut-off line */
	/* each element starts on its own line of the file */
	jv third = jv_at(d, root, 2);
	size_t line = 1;
	for (size_t i = 0; i < d->nodes[third].src; i++)
		line += d->src[i] == '\n';
	assert_int_equal(line, 4);
	jdoc_free(d);
	struct run *r = dataset_load_run(&ds, &ds.recs[0], NULL, NULL, &err);
	assert_non_null(r);
	assert_string_equal(r->format, "claude-code");
	assert_string_equal(r->id, "S");
	run_free(r);
	dataset_close(&ds);

	/* forced to a per-record format: one record per non-blank line */
	assert_int_equal(dataset_open(&ds, paths, 1, &err), 0);
	ds.forced = format_find("openai-chat");
	dataset_index_all(&ds);
	assert_int_equal(ds.nrecs, 4);
	assert_int_equal(ds.recs[1].line, 3);
	assert_null(ds.files[0].container);
	dataset_close(&ds);
	free(p);

	/* forced to the whole-file format on lines no detector claims */
	static const char plain[] = "{\"a\":1}\n{\"b\":2}\n";
	p = write_file("ev/plain.jsonl", plain, sizeof plain - 1);
	paths[0] = p;
	assert_int_equal(dataset_open(&ds, paths, 1, &err), 0);
	dataset_index_all(&ds);
	assert_int_equal(ds.nrecs, 2);
	dataset_close(&ds);
	assert_int_equal(dataset_open(&ds, paths, 1, &err), 0);
	ds.forced = format_find("claude-code");
	dataset_index_all(&ds);
	assert_int_equal(ds.nrecs, 1);
	dataset_close(&ds);
	free(p);
}

/* A splitting format gathers scattered values into runs of their own: two
 * traces interleaved over two OTLP batch lines become two records, each
 * the array of its spans, keeping the line its first span stood on. */
static void test_split_gathers(void **s)
{
	(void)s;
	static const char otlp[] =
	    "{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":["
	    "{\"traceId\":\"t1\",\"spanId\":\"a\",\"name\":\"chat\",\"startTimeUnixNano\":\"1\"},"
	    "{\"traceId\":\"t2\",\"spanId\":\"b\",\"name\":\"chat\",\"startTimeUnixNano\":\"2\"}]}]}]}\n"
	    "{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":["
	    "{\"traceId\":\"t1\",\"spanId\":\"c\",\"name\":\"chat\",\"startTimeUnixNano\":\"3\"}]}]}]}\n";
	char *p = write_file("sp/trace.jsonl", otlp, sizeof otlp - 1);
	struct dataset ds;
	struct error err = {0};
	char *paths[] = { p };
	assert_int_equal(dataset_open(&ds, paths, 1, &err), 0);
	dataset_index_all(&ds);
	assert_int_equal(ds.nrecs, 2);
	assert_int_equal(ds.recs[0].line, 1);
	assert_int_equal(ds.recs[1].line, 1);
	for (size_t i = 0; i < 2; i++) {
		struct jdoc *d = dataset_parse_doc(&ds, &ds.recs[i], &err);
		assert_non_null(d);
		/* a run of several values is their array; a run of one is that value */
		if (i == 0) {
			assert_true(jv_is_array(d, jdoc_root(d)));
			assert_int_equal(jv_len(d, jdoc_root(d)), 2);
		} else {
			assert_string_equal(jv_str(d, jv_get(d, jdoc_root(d), "spanId")), "b");
		}
		jdoc_free(d);
		char src[300];
		record_source(&ds, &ds.recs[i], src, sizeof src);
		assert_non_null(strstr(src, i ? "[1]" : "[0]"));
	}
	/* the streaming cursor sees the same two */
	struct dataset_cursor cur;
	struct record_ref rec;
	size_t k = 0;
	dataset_cursor_init(&cur);
	while (dataset_next(&ds, &cur, &rec))
		k++;
	assert_int_equal(k, 2);
	dataset_close(&ds);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line_index),
		cmocka_unit_test(test_ten_megabyte_line),
		cmocka_unit_test(test_bad_records),
		cmocka_unit_test(test_json_files_and_folders),
		cmocka_unit_test(test_traj_files),
		cmocka_unit_test(test_index_in_steps),
		cmocka_unit_test(test_record_hash),
		cmocka_unit_test(test_what_jansson_refused),
		cmocka_unit_test(test_errors_in_jansson_words),
		cmocka_unit_test(test_last_record_in_place),
		cmocka_unit_test(test_stdin),
		cmocka_unit_test(test_stdin_cap),
		cmocka_unit_test(test_json_ranges),
		cmocka_unit_test(test_json_hash_as_before),
		cmocka_unit_test(test_mastra_ids_from_a_file),
		cmocka_unit_test(test_big_message_bytes),
		cmocka_unit_test(test_event_files),
		cmocka_unit_test(test_split_gathers),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
