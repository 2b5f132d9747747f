/* archive.c - an Inspect .eval archive read as its .json log. */
#include "runs/archive.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zip.h>

#include "util/strbuf.h"
#include "util/error.h"

bool archive_is_eval(const char *path)
{
	size_t n = strlen(path);
	return n > 5 && strcmp(path + n - 5, ".eval") == 0;
}

static void zip_failed(const char *path, const char *entry, zip_error_t *ze, struct error *err)
{
	if (entry)
		error_set(err, ERR_FAILED, "%s: %s: %s", path, entry, zip_error_strerror(ze));
	else
		error_set(err, ERR_FAILED, "%s: %s", path, zip_error_strerror(ze));
}

/* Appends entry i to sb; -1 with a message on a read error or past the cap. */
static int read_entry(zip_t *za, zip_uint64_t i, const char *path, struct strbuf *sb, struct error *err)
{
	const char *name = zip_get_name(za, i, 0);
	zip_stat_t st;
	if (zip_stat_index(za, i, 0, &st) < 0) {
		zip_failed(path, name, zip_get_error(za), err);
		return -1;
	}
	if ((st.valid & ZIP_STAT_SIZE) && st.size > ARCHIVE_MAX_BYTES - sb->len) {
		error_set(err, ERR_FAILED, "%s: %s: larger than %zu bytes unpacked", path, name,
		         ARCHIVE_MAX_BYTES);
		return -1;
	}
	zip_file_t *zf = zip_fopen_index(za, i, 0);
	if (!zf) {
		zip_failed(path, name, zip_get_error(za), err);
		return -1;
	}
	char chunk[1 << 16];
	zip_int64_t n;
	while ((n = zip_fread(zf, chunk, sizeof chunk)) > 0) {
		/* the size in the directory may lie; the bytes read do not */
		if ((size_t)n > ARCHIVE_MAX_BYTES - sb->len) {
			error_set(err, ERR_FAILED, "%s: %s: larger than %zu bytes unpacked", path, name,
			         ARCHIVE_MAX_BYTES);
			zip_fclose(zf);
			return -1;
		}
		strbuf_add(sb, chunk, (size_t)n);
	}
	if (n < 0) {
		zip_failed(path, name, zip_file_get_error(zf), err);
		zip_fclose(zf);
		return -1;
	}
	zip_fclose(zf);
	return 0;
}

static bool is_sample(const char *name)
{
	size_t n = strlen(name);
	return strncmp(name, "samples/", 8) == 0 && n > 13 && strcmp(name + n - 5, ".json") == 0;
}

/* The header's text without its closing brace, so the samples can follow
 * as one more member; "{" when there is no header or it is no object.
 * *members says whether a comma must come first. */
static void header_open(struct strbuf *sb, bool *members)
{
	size_t start = 0, end = sb->len;
	while (start < end && sb->buf[start] != '{')
		start++;
	while (end > start && sb->buf[end - 1] != '}')
		end--;
	*members = false;
	if (end <= start + 1) {
		strbuf_reset(sb);
		strbuf_addch(sb, '{');
		return;
	}
	for (size_t k = start + 1; k < end - 1; k++)
		if (sb->buf[k] != ' ' && sb->buf[k] != '\n' && sb->buf[k] != '\r' && sb->buf[k] != '\t')
			*members = true;
	size_t keep = end - 1 - start;
	memmove(sb->buf, sb->buf + start, keep);
	sb->len = keep;
	sb->buf[keep] = '\0';
}

int archive_read_eval(const char *path, size_t padding, char **buf, size_t *len, struct error *err)
{
	int code = 0;
	zip_t *za = zip_open(path, ZIP_RDONLY, &code);
	if (!za) {
		zip_error_t ze;
		zip_error_init_with_code(&ze, code);
		error_set(err, ERR_FAILED, "%s: not a readable .eval archive: %s", path, zip_error_strerror(&ze));
		zip_error_fini(&ze);
		return -1;
	}
	struct strbuf doc = STRBUF_INIT;
	int rc = 0;
	zip_int64_t header = zip_name_locate(za, "header.json", 0);
	if (header < 0)
		header = zip_name_locate(za, "_journal/start.json", 0);
	if (header >= 0)
		rc = read_entry(za, (zip_uint64_t)header, path, &doc, err);
	bool members = false;
	if (rc == 0) {
		header_open(&doc, &members);
		strbuf_addstr(&doc, members ? ",\n\"samples\": [\n" : "\"samples\": [\n");
	}
	zip_int64_t n = zip_get_num_entries(za, 0);
	size_t nsamples = 0;
	for (zip_int64_t i = 0; rc == 0 && i < n; i++) {
		const char *name = zip_get_name(za, (zip_uint64_t)i, 0);
		if (!name || !is_sample(name))
			continue;
		if (nsamples++)
			strbuf_addstr(&doc, ",\n");
		rc = read_entry(za, (zip_uint64_t)i, path, &doc, err);
	}
	zip_discard(za);
	if (rc < 0) {
		strbuf_release(&doc);
		return -1;
	}
	strbuf_addstr(&doc, "\n]}\n");
	*len = doc.len;
	for (size_t k = 0; k < padding; k++)
		strbuf_addch(&doc, '\0');
	*buf = strbuf_detach(&doc);
	return 0;
}
