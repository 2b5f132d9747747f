/* test_export.c - export's writers (cli/export_write.c): UTF-8 repair,
 * RFC 4180 quoting, cells, the header and row lines, the fine-tuning line,
 * and the output file replaced in one step. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <dirent.h>

#include "cli/export.h"
#include "util/error.h"

static char *utf8_of(const char *s, size_t len)
{
	struct strbuf sb = STRBUF_INIT;
	export_utf8(&sb, s, len);
	return strbuf_detach(&sb);
}

static void test_utf8_repair(void **state)
{
	(void)state;
	char *s = utf8_of("plain ascii", 11);
	assert_string_equal(s, "plain ascii");
	free(s);
	/* Valid multi-byte text passes as it is: é, 日本, an emoji. */
	s = utf8_of("caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80", 17);
	assert_string_equal(s, "caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80");
	free(s);
	/* A Latin-1 byte, a stray continuation byte, an overlong '/', a
	 * surrogate, a sequence cut short at the end: each bad byte is one
	 * U+FFFD. */
	s = utf8_of("caf\xe9!", 5);
	assert_string_equal(s, "caf\xef\xbf\xbd!");
	free(s);
	s = utf8_of("a\x80z", 3);
	assert_string_equal(s, "a\xef\xbf\xbdz");
	free(s);
	s = utf8_of("\xc0\xaf", 2);
	assert_string_equal(s, "\xef\xbf\xbd\xef\xbf\xbd");
	free(s);
	s = utf8_of("\xed\xa0\x80", 3);
	assert_string_equal(s, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	free(s);
	s = utf8_of("ok\xe6\x97", 4);
	assert_string_equal(s, "ok\xef\xbf\xbd\xef\xbf\xbd");
	free(s);
	s = utf8_of("", 0);
	assert_string_equal(s, "");
	free(s);

	json_t *v = export_str("bad \xff byte");
	assert_true(json_is_string(v));
	assert_string_equal(json_string_value(v), "bad \xef\xbf\xbd byte");
	json_decref(v);
	v = export_str(NULL);
	assert_true(json_is_null(v));
}

static char *field(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	export_csv_field(&sb, s, strlen(s));
	return strbuf_detach(&sb);
}

static void test_csv_field(void **state)
{
	(void)state;
	struct { const char *in, *out; } cases[] = {
		{ "plain", "plain" },
		{ "", "" },
		{ "a,b", "\"a,b\"" },
		{ "say \"hi\"", "\"say \"\"hi\"\"\"" },
		{ "\"", "\"\"\"\"" },
		{ "two\nlines", "\"two\nlines\"" },
		{ "cr\r\nlf", "\"cr\r\nlf\"" },
		{ " spaced ", " spaced " },         /* RFC 4180: spaces are part of the field */
		{ "caf\xc3\xa9;tab\t", "caf\xc3\xa9;tab\t" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *s = field(cases[i].in);
		assert_string_equal(s, cases[i].out);
		free(s);
	}
}

static char *cell(const char *json)
{
	json_error_t jerr;
	json_t *v = json_loads(json, JSON_DECODE_ANY, &jerr);
	assert_non_null(v);
	struct strbuf sb = STRBUF_INIT;
	export_csv_cell(&sb, v);
	json_decref(v);
	char *s = strbuf_detach(&sb);
	return s;
}

static void test_csv_cell(void **state)
{
	(void)state;
	struct { const char *in, *out; } cases[] = {
		{ "null", "" },
		{ "\"\"", "\"\"" },                 /* an empty string is not a missing value */
		{ "\"text\"", "text" },
		{ "\"a, b\"", "\"a, b\"" },
		{ "1", "1" },
		{ "0.5", "0.5" },
		{ "3.0", "3" },                     /* numbers as JSON writes them */
		{ "true", "true" },
		{ "false", "false" },
		{ "[]", "[]" },
		{ "{\"name\":\"x\"}", "\"{\"\"name\"\":\"\"x\"\"}\"" },
		{ "[{\"a\":1,\"b\":[2,3]}]", "\"[{\"\"a\"\":1,\"\"b\"\":[2,3]}]\"" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *s = cell(cases[i].in);
		assert_string_equal(s, cases[i].out);
		free(s);
	}
	struct strbuf sb = STRBUF_INIT;
	export_csv_cell(&sb, NULL);
	assert_int_equal(sb.len, 0);
	strbuf_release(&sb);
}

static void test_header_and_rows(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	export_csv_header(&sb);
	assert_string_equal(sb.buf, "run,source,run_hash,criterion,kind,scale,threshold,input,output,"
	                            "calls,expected,machine,consensus,labels,tags,call_labels,split\r\n");
	strbuf_reset(&sb);

	/* Keys out of order and missing ones: the row follows export_keys. */
	json_t *row = json_pack("{s:s, s:s, s:f, s:[{s:s}], s:s}", "split", "train", "run", "r,1",
	                        "threshold", 0.5, "calls", "name", "get \"x\"", "input", "two\nlines");
	export_csv_row(&sb, row);
	assert_string_equal(sb.buf, "\"r,1\",,,,,,0.5,\"two\nlines\",,\"[{\"\"name\"\":\"\"get \\\"\"x\\\"\"\"\"}]\","
	                            ",,,,,,train\r\n");
	strbuf_reset(&sb);
	export_jsonl_row(&sb, row);
	assert_string_equal(sb.buf, "{\"split\":\"train\",\"run\":\"r,1\",\"threshold\":0.5,"
	                            "\"calls\":[{\"name\":\"get \\\"x\\\"\"}],\"input\":\"two\\nlines\"}\n");
	json_decref(row);
	strbuf_release(&sb);
	size_t n = 0;
	while (export_keys[n])
		n++;
	assert_int_equal(n, 17);
}

static void test_ft_line(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	json_t *answer = json_pack("{s:f, s:s}", "score", 4.0, "reason", "Said \"yes\".");
	export_ft_line(&sb, "You grade.", "Run:\n{\"id\":1}", answer);
	assert_string_equal(sb.buf,
	                    "{\"messages\":[{\"role\":\"system\",\"content\":\"You grade.\"},"
	                    "{\"role\":\"user\",\"content\":\"Run:\\n{\\\"id\\\":1}\"},"
	                    "{\"role\":\"assistant\",\"content\":\"{\\\"score\\\":4,\\\"reason\\\":"
	                    "\\\"Said \\\\\\\"yes\\\\\\\".\\\"}\"}]}\n");
	/* The assistant's content is the answer as JSON text: it parses back. */
	json_error_t jerr;
	json_t *line = json_loads(sb.buf, 0, &jerr);
	assert_non_null(line);
	json_t *msgs = json_object_get(line, "messages");
	assert_int_equal(json_array_size(msgs), 3);
	json_t *back = json_loads(json_string_value(json_object_get(json_array_get(msgs, 2), "content")),
	                          0, &jerr);
	assert_true(json_number_value(json_object_get(back, "score")) == 4);
	assert_string_equal(json_string_value(json_object_get(back, "reason")), "Said \"yes\".");
	json_decref(back);
	json_decref(line);
	strbuf_reset(&sb);
	/* No system prompt: no system message; invalid UTF-8 in a prompt is repaired. */
	export_ft_line(&sb, NULL, "bad \xff", answer);
	assert_string_equal(sb.buf, "{\"messages\":[{\"role\":\"user\",\"content\":\"bad \xef\xbf\xbd\"},"
	                            "{\"role\":\"assistant\",\"content\":\"{\\\"score\\\":4,\\\"reason\\\":"
	                            "\\\"Said \\\\\\\"yes\\\\\\\".\\\"}\"}]}\n");
	strbuf_reset(&sb);
	export_ft_line(&sb, "", "u", answer);
	assert_null(strstr(sb.buf, "system"));
	json_decref(answer);
	strbuf_release(&sb);
}

/* ---- the output file --------------------------------------------------------- */

static char dir[64];

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	struct strbuf sb = STRBUF_INIT;
	char buf[256];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		strbuf_add(&sb, buf, n);
	fclose(f);
	return strbuf_detach(&sb);
}

static size_t files_in(const char *d)
{
	DIR *dp = opendir(d);
	assert_non_null(dp);
	size_t n = 0;
	struct dirent *de;
	while ((de = readdir(dp)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(dp);
	return n;
}

static void put(struct export_out *o, const char *text)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, text);
	assert_int_equal(export_out_write(o, &sb), 0);
	strbuf_release(&sb);
}

static void test_out_atomic(void **state)
{
	(void)state;
	snprintf(dir, sizeof dir, "/tmp/tcr-export-XXXXXX");
	assert_non_null(mkdtemp(dir));
	struct error err = {0};
	char path[128];
	snprintf(path, sizeof path, "%s/set.jsonl", dir);
	FILE *f = fopen(path, "w");
	fputs("old\n", f);
	fclose(f);

	/* While it is written, FILE is the old one; a temporary file is beside it. */
	struct export_out o;
	assert_int_equal(export_out_open(&o, path, &err), 0);
	put(&o, "new 1\n");
	put(&o, "new 2\n");
	char *s = slurp(path);
	assert_string_equal(s, "old\n");
	free(s);
	assert_int_equal(files_in(dir), 2);
	assert_int_equal(export_out_close(&o, true, &err), 0);
	s = slurp(path);
	assert_string_equal(s, "new 1\nnew 2\n");
	free(s);
	assert_int_equal(files_in(dir), 1);
	/* An ordinary file's mode, not mkstemp's 0600. */
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	mode_t mask = umask(0);
	umask(mask);
	assert_int_equal(st.st_mode & 0777, 0666 & ~mask);

	/* Given up: FILE stays as it was, the temporary file goes. */
	assert_int_equal(export_out_open(&o, path, &err), 0);
	put(&o, "half");
	assert_int_equal(export_out_close(&o, false, &err), 0);
	s = slurp(path);
	assert_string_equal(s, "new 1\nnew 2\n");
	free(s);
	assert_int_equal(files_in(dir), 1);
	unlink(path);

	/* A folder that does not exist: a reason naming FILE. */
	snprintf(path, sizeof path, "%s/no/such/set.csv", dir);
	assert_int_equal(export_out_open(&o, path, &err), -1);
	assert_non_null(strstr(err.msg, path));
	rmdir(dir);

	/* "-" and NULL are standard output, which close leaves open. */
	assert_int_equal(export_out_open(&o, "-", &err), 0);
	assert_ptr_equal(o.f, stdout);
	assert_int_equal(export_out_close(&o, true, &err), 0);
	assert_int_equal(export_out_open(&o, NULL, &err), 0);
	assert_ptr_equal(o.f, stdout);
	assert_int_equal(export_out_close(&o, true, &err), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_utf8_repair),
		cmocka_unit_test(test_csv_field),
		cmocka_unit_test(test_csv_cell),
		cmocka_unit_test(test_header_and_rows),
		cmocka_unit_test(test_ft_line),
		cmocka_unit_test(test_out_atomic),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
