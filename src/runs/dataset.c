/* dataset.c - inputs as records: mapping, line index, lazy parsing. */
#include "runs/dataset.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/digest.h"
#include "util/jsonw.h"
#include "util/jsonpath.h"
#include "util/strbuf.h"
#include "util/textvis.h"

/* Streaming readers release what they passed in steps of this size, so a
 * 1 GB file never sits in our resident set all at once. */
#define DROP_STEP (8u << 20)

static bool has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);
	return n >= m && strcmp(s + n - m, suf) == 0;
}

static bool is_input_name(const char *name)
{
	if (name[0] == '.')
		return false;
	/* Our own outputs sit beside the inputs; reading them back as runs
	 * would be wrong. */
	if (has_suffix(name, ".annotations.jsonl") || has_suffix(name, ".judgements.jsonl"))
		return false;
	return has_suffix(name, ".json") || has_suffix(name, ".jsonl") || has_suffix(name, ".ndjson");
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

struct path_list {
	char **v;
	size_t n, cap;
};

static void path_list_add(struct path_list *pl, char *p)
{
	if (pl->n == pl->cap) {
		pl->cap = pl->cap ? pl->cap * 2 : 16;
		pl->v = realloc(pl->v, pl->cap * sizeof(*pl->v));
		if (!pl->v)
			abort();
	}
	pl->v[pl->n++] = p;
}

static int walk_dir(const char *dir, struct path_list *out, int depth, char *err, size_t errlen)
{
	if (depth > 64)
		return 0;
	DIR *d = opendir(dir);
	if (!d) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	struct path_list here = { 0 };
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		struct strbuf sb = STRBUF_INIT;
		strbuf_addstr(&sb, dir);
		if (!has_suffix(dir, "/"))
			strbuf_addch(&sb, '/');
		strbuf_addstr(&sb, de->d_name);
		path_list_add(&here, strbuf_detach(&sb));
	}
	closedir(d);
	qsort(here.v, here.n, sizeof(*here.v), cmp_str);
	int rc = 0;
	for (size_t i = 0; i < here.n; i++) {
		struct stat st;
		const char *base = strrchr(here.v[i], '/') + 1;
		if (rc == 0 && stat(here.v[i], &st) == 0) {
			if (S_ISDIR(st.st_mode)) {
				rc = walk_dir(here.v[i], out, depth + 1, err, errlen);
			} else if (S_ISREG(st.st_mode) && is_input_name(base)) {
				path_list_add(out, here.v[i]);
				here.v[i] = NULL;
			}
		}
		free(here.v[i]);
	}
	free(here.v);
	return rc;
}

/* Is this a single document, or one record per line? */
static enum input_kind sniff_kind(const char *path, const char *data, size_t size)
{
	if (has_suffix(path, ".jsonl") || has_suffix(path, ".ndjson"))
		return INPUT_JSONL;
	if (has_suffix(path, ".json"))
		return INPUT_JSON;
	size_t i = 0;
	while (i < size && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n'))
		i++;
	if (i < size && data[i] == '[')
		return INPUT_JSON;
	const char *nl = memchr(data + i, '\n', size - i);
	if (!nl)
		return INPUT_JSON;
	json_error_t jerr;
	json_t *first = json_loadb(data + i, (size_t)(nl - (data + i)), 0, &jerr);
	if (!first)
		return INPUT_JSON;
	json_decref(first);
	return INPUT_JSONL;
}

static int read_all(int fd, char **out, size_t *outlen)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[65536];
	for (;;) {
		ssize_t n = read(fd, buf, sizeof buf);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			strbuf_release(&sb);
			return -1;
		}
		if (n == 0)
			break;
		strbuf_add(&sb, buf, (size_t)n);
	}
	*outlen = sb.len;
	*out = strbuf_detach(&sb);
	return 0;
}

static int open_file(struct dataset *ds, char *path, char *err, size_t errlen)
{
	struct input_file f = { 0 };
	f.path = path;
	if (strcmp(path, "-") == 0) {
		char *buf;
		if (read_all(0, &buf, &f.size) < 0) {
			snprintf(err, errlen, "-: %s", strerror(errno));
			return -1;
		}
		f.data = buf;
	} else {
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			return -1;
		}
		struct stat st;
		if (fstat(fd, &st) < 0) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			close(fd);
			return -1;
		}
		f.size = (size_t)st.st_size;
		if (f.size > 0) {
			void *p = mmap(NULL, f.size, PROT_READ, MAP_PRIVATE, fd, 0);
			if (p == MAP_FAILED) {
				snprintf(err, errlen, "%s: %s", path, strerror(errno));
				close(fd);
				return -1;
			}
			madvise(p, f.size, MADV_SEQUENTIAL);
			f.data = p;
			f.mapped = true;
		} else {
			f.data = "";
		}
		close(fd);
	}
	f.kind = sniff_kind(path, f.data, f.size);
	ds->files = realloc(ds->files, (ds->nfiles + 1) * sizeof(*ds->files));
	if (!ds->files)
		abort();
	ds->files[ds->nfiles++] = f;
	ds->bytes_total += f.size;
	return 0;
}

int dataset_open(struct dataset *ds, char *const *paths, size_t npaths, char *err, size_t errlen)
{
	memset(ds, 0, sizeof(*ds));
	for (size_t i = 0; i < npaths; i++) {
		struct stat st;
		if (strcmp(paths[i], "-") != 0 && stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			struct path_list found = { 0 };
			int rc = walk_dir(paths[i], &found, 0, err, errlen);
			for (size_t k = 0; k < found.n; k++) {
				if (rc == 0)
					rc = open_file(ds, found.v[k], err, errlen);
				else
					free(found.v[k]);
			}
			free(found.v);
			if (rc < 0)
				return -1;
			continue;
		}
		char *p = strdup(paths[i]);
		if (open_file(ds, p, err, errlen) < 0) {
			free(p);
			return -1;
		}
	}
	return 0;
}

void dataset_close(struct dataset *ds)
{
	for (size_t i = 0; i < ds->nfiles; i++) {
		struct input_file *f = &ds->files[i];
		if (f->mapped)
			munmap((void *)f->data, f->size);
		else if (strcmp(f->path, "-") == 0)
			free((void *)f->data);
		json_decref(f->doc);
		free(f->doc_error);
		free(f->path);
	}
	free(ds->files);
	free(ds->recs);
	memset(ds, 0, sizeof(*ds));
}

/* A JSON file holds one run, or an array of runs. A bare array of chat
 * messages or Responses items is one run too: its elements are messages,
 * not runs. */
static bool array_is_one_run(json_t *arr)
{
	json_t *first = json_array_get(arr, 0);
	if (!json_is_object(first))
		return false;
	static const char *const run_keys[] = {
		"messages", "traj", "inputMessages", "output", "query", "input", NULL
	};
	for (size_t i = 0; run_keys[i]; i++)
		if (json_object_get(first, run_keys[i]))
			return false;
	return json_object_get(first, "role") || json_object_get(first, "type");
}

static void load_doc(struct input_file *f)
{
	if (f->doc || f->doc_error)
		return;
	json_error_t jerr;
	f->doc = json_loadb(f->data, f->size, 0, &jerr);
	if (!f->doc) {
		char buf[400];
		snprintf(buf, sizeof buf, "%s (column %d)", jerr.text, jerr.column);
		f->doc_error = strdup(buf);
		f->doc_error_line = jerr.line;
	}
}

/* Number of records a parsed JSON document holds. */
static size_t doc_records(struct input_file *f)
{
	if (!f->doc)
		return 1;                  /* the parse error is reported as one record */
	if (json_is_array(f->doc) && !array_is_one_run(f->doc))
		return json_array_size(f->doc);
	return 1;
}

/* Finds the next non-blank line at or after *off; fills rec. */
static bool next_line(const struct input_file *f, uint64_t *off, uint32_t *line, struct record_ref *rec)
{
	const char *d = f->data;
	size_t size = f->size;
	while (*off < size) {
		size_t start = (size_t)*off;
		const char *nl = memchr(d + start, '\n', size - start);
		size_t end = nl ? (size_t)(nl - d) : size;
		(*line)++;
		*off = nl ? end + 1 : size;
		size_t len = end - start;
		if (len && d[start + len - 1] == '\r')
			len--;
		size_t k = 0;
		while (k < len && (d[start + k] == ' ' || d[start + k] == '\t'))
			k++;
		if (k == len)
			continue;              /* blank lines are skipped */
		rec->line = *line;
		rec->index = -1;
		rec->off = start;
		rec->len = len;
		return true;
	}
	return false;
}

static void drop_behind(const struct input_file *f, uint64_t *dropped, uint64_t upto)
{
	if (!f->mapped || upto < *dropped + DROP_STEP)
		return;
	long page = sysconf(_SC_PAGESIZE);
	uint64_t end = upto / (uint64_t)page * (uint64_t)page;
	if (end > *dropped) {
		madvise((char *)f->data + *dropped, end - *dropped, MADV_DONTNEED);
		*dropped = end;
	}
}

static void recs_push(struct dataset *ds, const struct record_ref *rec)
{
	if (ds->nrecs == ds->recs_cap) {
		ds->recs_cap = ds->recs_cap ? ds->recs_cap * 2 : 1024;
		ds->recs = realloc(ds->recs, ds->recs_cap * sizeof(*ds->recs));
		if (!ds->recs)
			abort();
	}
	ds->recs[ds->nrecs++] = *rec;
}

bool dataset_index_step(struct dataset *ds, uint64_t budget)
{
	uint64_t spent = 0;
	while (ds->index_file < ds->nfiles) {
		struct input_file *f = &ds->files[ds->index_file];
		struct record_ref rec = { .file = (uint32_t)ds->index_file };
		if (ds->index_off == 0) {
			ds->index_line = 0;
			ds->index_dropped = 0;
		}
		if (f->kind == INPUT_JSON) {
			load_doc(f);
			size_t n = doc_records(f);
			for (size_t i = 0; i < n; i++) {
				rec.line = f->doc ? 0 : (uint32_t)f->doc_error_line;
				rec.index = (f->doc && json_is_array(f->doc) && !array_is_one_run(f->doc))
				            ? (int64_t)i : -1;
				recs_push(ds, &rec);
			}
			spent += f->size;
			ds->bytes_indexed += f->size;
			ds->index_file++;
			ds->index_off = 0;
		} else {
			uint64_t before = ds->index_off;
			while (spent < budget && next_line(f, &ds->index_off, &ds->index_line, &rec)) {
				recs_push(ds, &rec);
				spent += ds->index_off - before;
				ds->bytes_indexed += ds->index_off - before;
				before = ds->index_off;
			}
			ds->bytes_indexed += ds->index_off - before;
			spent += ds->index_off - before;
			drop_behind(f, &ds->index_dropped, ds->index_off);
			if (ds->index_off >= f->size) {
				ds->index_file++;
				ds->index_off = 0;
			}
		}
		if (spent >= budget)
			break;
	}
	ds->indexed = ds->index_file >= ds->nfiles;
	return !ds->indexed;
}

void dataset_index_all(struct dataset *ds)
{
	while (dataset_index_step(ds, UINT64_MAX / 4))
		;
}

void dataset_cursor_init(struct dataset_cursor *cur)
{
	memset(cur, 0, sizeof(*cur));
}

bool dataset_next(struct dataset *ds, struct dataset_cursor *cur, struct record_ref *rec)
{
	while (cur->file < ds->nfiles) {
		struct input_file *f = &ds->files[cur->file];
		memset(rec, 0, sizeof(*rec));
		rec->file = (uint32_t)cur->file;
		rec->index = -1;
		if (f->kind == INPUT_JSON) {
			load_doc(f);
			size_t n = doc_records(f);
			if (cur->elem < n) {
				rec->line = f->doc ? 0 : (uint32_t)f->doc_error_line;
				if (f->doc && json_is_array(f->doc) && !array_is_one_run(f->doc))
					rec->index = (int64_t)cur->elem;
				cur->elem++;
				return true;
			}
			/* Done with this document: let it go. */
			json_decref(f->doc);
			f->doc = NULL;
			if (!f->doc_error)
				f->doc_error = strdup("");   /* marks it consumed */
		} else {
			if (next_line(f, &cur->off, &cur->line, rec)) {
				drop_behind(f, &cur->dropped, rec->off);
				return true;
			}
		}
		cur->file++;
		cur->off = 0;
		cur->line = 0;
		cur->elem = 0;
		cur->dropped = 0;
	}
	return false;
}

void record_source(const struct dataset *ds, const struct record_ref *rec, char *buf, size_t n)
{
	const struct input_file *f = &ds->files[rec->file];
	if (f->kind == INPUT_JSONL || (rec->line && rec->index < 0 && !f->doc))
		snprintf(buf, n, "%s:%u", f->path, rec->line);
	else if (rec->index >= 0)
		snprintf(buf, n, "%s[%lld]", f->path, (long long)rec->index);
	else
		snprintf(buf, n, "%s", f->path);
}

/* jansson refuses invalid UTF-8 outright; a transcript with one bad byte
 * should still open, so bad sequences become U+FFFD and we parse again. */
static char *utf8_repair(const char *s, size_t n, size_t *outlen)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i = 0;
	while (i < n) {
		size_t len = utf8_seq_len(s + i, n - i);
		if (len) {
			strbuf_add(&sb, s + i, len);
			i += len;
		} else {
			strbuf_addstr(&sb, "\xef\xbf\xbd");
			i++;
		}
	}
	*outlen = sb.len;
	return strbuf_detach(&sb);
}

json_t *dataset_parse(struct dataset *ds, const struct record_ref *rec, char *err, size_t errlen)
{
	struct input_file *f = &ds->files[rec->file];
	char src[512];
	record_source(ds, rec, src, sizeof src);
	if (f->kind == INPUT_JSON) {
		load_doc(f);
		if (!f->doc) {
			snprintf(err, errlen, "%s:%d: %s", f->path, f->doc_error_line,
			         f->doc_error ? f->doc_error : "not readable");
			return NULL;
		}
		if (rec->index >= 0)
			return json_incref(json_array_get(f->doc, (size_t)rec->index));
		return json_incref(f->doc);
	}
	json_error_t jerr;
	const char *text = f->data + rec->off;
	json_t *v = json_loadb(text, rec->len, 0, &jerr);
	if (!v && json_error_code(&jerr) == json_error_invalid_utf8) {
		size_t n;
		char *fixed = utf8_repair(text, rec->len, &n);
		v = json_loadb(fixed, n, 0, &jerr);
		free(fixed);
	}
	if (!v) {
		snprintf(err, errlen, "%s: %s (column %d)", src, jerr.text, jerr.column);
		return NULL;
	}
	return v;
}

int dataset_record_hash_raw(struct dataset *ds, const struct record_ref *rec,
                            unsigned char out[SHA256_LEN])
{
	struct input_file *f = &ds->files[rec->file];
	if (f->kind == INPUT_JSONL) {
		sha256_raw(f->data + rec->off, (size_t)rec->len, out);
		return 0;
	}
	load_doc(f);
	if (!f->doc)
		return -1;
	json_t *v = rec->index >= 0 ? json_array_get(f->doc, (size_t)rec->index) : f->doc;
	char *text = v ? json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
	if (!text)
		return -1;
	sha256_raw(text, strlen(text), out);
	free(text);
	return 0;
}

int dataset_record_hash(struct dataset *ds, const struct record_ref *rec, char out[SHA256_HEX_LEN + 1])
{
	unsigned char raw[SHA256_LEN];
	if (dataset_record_hash_raw(ds, rec, raw) < 0) {
		out[0] = '\0';
		return -1;
	}
	sha256_to_hex(raw, out);
	return 0;
}

static const char *id_text(struct run *r, json_t *v)
{
	if (json_is_string(v) && json_string_length(v))
		return json_string_value(v);
	if (json_is_integer(v) || json_is_real(v)) {
		struct strbuf sb = STRBUF_INIT;
		jsonw_value(&sb, v);
		const char *s = run_strdup(r, sb.buf);
		strbuf_release(&sb);
		return s;
	}
	return NULL;
}

struct run *dataset_load_run(struct dataset *ds, const struct record_ref *rec,
                             const struct format_ops *forced, const char *id_path,
                             char *err, size_t errlen)
{
	json_t *v = dataset_parse(ds, rec, err, errlen);
	if (!v)
		return NULL;
	const struct input_file *f = &ds->files[rec->file];
	struct run *r = run_new(v, f->path, f->kind == INPUT_JSONL ? rec->line : 0, (long)rec->index);
	json_decref(v);
	const char *id = NULL;
	if (id_path)
		id = id_text(r, jsonpath_get(r->record, id_path));
	static const char *const id_keys[] = { "id", "runId", "run_id", NULL };
	for (size_t i = 0; !id && id_keys[i]; i++)
		id = id_text(r, json_object_get(r->record, id_keys[i]));
	if (id)
		r->id = id;
	char lerr[512] = "";
	if (format_load(r, forced, lerr, sizeof lerr) < 0)
		r->load_error = run_strdup(r, lerr[0] ? lerr : "malformed record");
	return r;
}
