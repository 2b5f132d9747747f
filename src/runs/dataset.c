/* dataset.c - inputs as records: mapping, line index, lazy parsing.
 *
 * Records are parsed where they lie in the mapping: every file is mapped
 * with a spare zero page behind it, so the parser's padding after the last
 * record is readable and nothing is copied. */
#include "runs/dataset.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runs/archive.h"
#include "util/digest.h"
#include "util/jsonw.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

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
	/* SWE-agent names its trajectories .traj; they are JSON. */
	return has_suffix(name, ".json") || has_suffix(name, ".jsonl") || has_suffix(name, ".ndjson") ||
	       has_suffix(name, ".traj") || archive_is_eval(name);
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

static size_t skip_ws(const char *s, size_t i, size_t n)
{
	while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n'))
		i++;
	return i;
}

/* Bytes readable from offset off of the file's data on: the rest of the
 * file and the padding behind it. */
static size_t readable_from(const struct input_file *f, uint64_t off)
{
	return f->map_len > off ? f->map_len - (size_t)off : 0;
}

static void set_error(struct jdoc_error *err, const char *text, int line, int column,
                      size_t position)
{
	snprintf(err->text, sizeof err->text, "%s", text);
	err->line = line;
	err->column = column;
	err->position = position;
}

/* A record, or a whole .json document, must be an object or an array, as
 * json_loadb without JSON_DECODE_ANY demanded; jdoc takes any value. What
 * is refused, and the words for it, stay jansson's: it reads the bytes
 * again on this error path only (after jdoc's UTF-8 repair when jdoc read
 * them, as the repaired bytes were read again before). */
static struct jdoc *parse_container(const char *text, size_t len, size_t readable,
                                    struct jdoc_error *err)
{
	size_t i = skip_ws(text, 0, len);
	if (i < len && (text[i] == '[' || text[i] == '{'))
		return jdoc_parse(text, len, readable, err);
	struct jdoc *d = jdoc_parse(text, len, readable, err);
	json_error_t jerr;
	json_t *v = json_loadb(d ? d->src : text, d ? d->src_len : len, 0, &jerr);
	if (v)
		set_error(err, "'[' or '{' expected", 1, 1, 0);   /* not reached */
	else
		set_error(err, jerr.text, jerr.line, jerr.column, jerr.position);
	json_decref(v);
	jdoc_free(d);
	return NULL;
}

/* Is this a single document, or one record per line? */
static enum input_kind sniff_kind(const char *path, const struct input_file *f)
{
	if (has_suffix(path, ".jsonl") || has_suffix(path, ".ndjson"))
		return INPUT_JSONL;
	if (has_suffix(path, ".json") || has_suffix(path, ".traj"))
		return INPUT_JSON;
	const char *data = f->data;
	size_t i = skip_ws(data, 0, f->size);
	if (i < f->size && data[i] == '[')
		return INPUT_JSON;
	const char *nl = memchr(data + i, '\n', f->size - i);
	if (!nl || data[i] != '{')
		return INPUT_JSON;
	/* A first line that is a whole object: one record per line. */
	struct jdoc_error jerr;
	struct jdoc *first = jdoc_parse(data + i, (size_t)(nl - (data + i)), readable_from(f, i), &jerr);
	if (!first)
		return INPUT_JSON;
	jdoc_free(first);
	return INPUT_JSONL;
}

/* Reads fd to its end into a buffer with JDOC_PADDING zero bytes after
 * the data, as a mapping has its spare page. */
static int read_padded(int fd, char **out, size_t *outlen)
{
	size_t cap = 1 << 16, len = 0;
	char *buf = xrealloc(NULL, cap);
	for (;;) {
		if (cap - len < (1 << 15) + JDOC_PADDING + 1) {
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
		ssize_t n = read(fd, buf + len, cap - len - JDOC_PADDING - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			free(buf);
			errno = e;
			return -1;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	memset(buf + len, 0, JDOC_PADDING + 1);
	*out = buf;
	*outlen = len;
	return 0;
}

/* What an empty file points at: readable, and nothing to parse. */
static const char empty_data[JDOC_PADDING + 1];

/* Maps size bytes of fd with one zero page after them: an anonymous
 * mapping of the rounded-up size plus a page is reserved, and the file is
 * mapped over its start. The tail of the file's last page reads as zeros
 * too, so every record has JDOC_PADDING readable bytes behind it. */
static int map_padded(struct input_file *f, int fd)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t rounded = (f->size + page - 1) / page * page;
	size_t total = rounded + page;
	void *base = mmap(NULL, total, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED)
		return -1;
	void *p = mmap(base, f->size, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0);
	if (p == MAP_FAILED) {
		int e = errno;
		munmap(base, total);
		errno = e;
		return -1;
	}
	madvise(p, f->size, MADV_SEQUENTIAL);
	f->data = p;
	f->map_len = total;
	f->mapped = true;
	return 0;
}

static void release_data(struct input_file *f)
{
	if (f->mapped)
		munmap((void *)f->data, f->map_len);
	else if (f->map_len)
		free((void *)f->data);          /* stdin, or a repaired document */
	f->data = empty_data;
	f->mapped = false;
	f->map_len = 0;
}

static int open_file(struct dataset *ds, char *path, char *err, size_t errlen)
{
	struct input_file f = { 0 };
	f.path = path;
	f.data = empty_data;
	if (strcmp(path, "-") == 0) {
		char *buf;
		if (read_padded(0, &buf, &f.size) < 0) {
			snprintf(err, errlen, "-: %s", strerror(errno));
			return -1;
		}
		f.data = buf;
		f.map_len = f.size + JDOC_PADDING;
	} else if (archive_is_eval(path)) {
		char *buf;
		if (archive_read_eval(path, JDOC_PADDING + 1, &buf, &f.size, err, errlen) < 0)
			return -1;
		f.data = buf;
		f.map_len = f.size + JDOC_PADDING;
		f.kind = INPUT_JSON;
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
		if (f.size > 0 && map_padded(&f, fd) < 0) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			close(fd);
			return -1;
		}
		close(fd);
	}
	if (!archive_is_eval(path))
		f.kind = sniff_kind(path, &f);
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
		release_data(f);
		jdoc_free(f->doc);
		free(f->doc_error);
		free(f->doc_recs);
		free(f->path);
	}
	free(ds->files);
	free(ds->recs);
	memset(ds, 0, sizeof(*ds));
}

/* A JSON file holds one run, or an array of runs. A bare array of chat
 * messages or Responses items is one run too: its elements are messages,
 * not runs. */
static bool array_is_one_run(const struct jdoc *d, jv arr)
{
	jv first = jv_first(d, arr);
	if (!jv_is_object(d, first))
		return false;
	static const char *const run_keys[] = {
		"messages", "traj", "inputMessages", "output", "query", "input", NULL
	};
	for (size_t i = 0; run_keys[i]; i++)
		if (jv_get(d, first, run_keys[i]) != JV_NONE)
			return false;
	return jv_get(d, first, "role") != JV_NONE || jv_get(d, first, "type") != JV_NONE;
}

static uint32_t count_lines(const char *s, size_t n)
{
	uint32_t lines = 0;
	const char *end = s + n;
	while ((s = memchr(s, '\n', (size_t)(end - s)))) {
		lines++;
		s++;
	}
	return lines;
}

/* The parse repaired invalid UTF-8, so the values' offsets are into the
 * repaired text: it becomes the file's bytes (rare; one copy of a file
 * that was not UTF-8). */
static void adopt_repaired(struct dataset *ds, struct input_file *f, const struct jdoc *d)
{
	char *copy = xrealloc(NULL, d->src_len + JDOC_PADDING);
	memcpy(copy, d->src, d->src_len);
	memset(copy + d->src_len, 0, JDOC_PADDING);
	ds->bytes_total = ds->bytes_total - f->size + d->src_len;
	release_data(f);
	f->data = copy;
	f->size = d->src_len;
	f->map_len = d->src_len + JDOC_PADDING;
}

static bool next_line(const struct input_file *f, uint64_t *off, uint32_t *line,
                      struct record_ref *rec);

/* ---- containers: files a format cuts into runs ------------------------ */

struct doc_group {
	size_t first, n;            /* vals[first .. first + n) */
};

struct doc_groups {
	struct doc_group *groups;
	size_t ngroups, groups_cap;
	jv *vals;
	size_t nvals, vals_cap;
};

void doc_group_begin(struct doc_groups *g)
{
	if (g->ngroups == g->groups_cap) {
		g->groups_cap = g->groups_cap ? g->groups_cap * 2 : 16;
		g->groups = xrealloc(g->groups, g->groups_cap * sizeof(*g->groups));
	}
	g->groups[g->ngroups++] = (struct doc_group){ g->nvals, 0 };
}

void doc_group_add(struct doc_groups *g, jv value)
{
	if (g->ngroups == 0 || value == JV_NONE)
		return;
	if (g->nvals == g->vals_cap) {
		g->vals_cap = g->vals_cap ? g->vals_cap * 2 : 64;
		g->vals = xrealloc(g->vals, g->vals_cap * sizeof(*g->vals));
	}
	g->vals[g->nvals++] = value;
	g->groups[g->ngroups - 1].n++;
}

static void doc_groups_free(struct doc_groups *g)
{
	free(g->groups);
	free(g->vals);
}

/* Where every line of s[0..n) starts, for the line of any offset. */
struct line_index {
	uint64_t *starts;
	size_t n;
};

static void line_index_build(struct line_index *li, const char *s, size_t n)
{
	size_t cap = 64;
	li->starts = xrealloc(NULL, cap * sizeof(*li->starts));
	li->starts[0] = 0;
	li->n = 1;
	for (const char *p = s, *end = s + n; (p = memchr(p, '\n', (size_t)(end - p))); p++) {
		if (li->n == cap) {
			cap *= 2;
			li->starts = xrealloc(li->starts, cap * sizeof(*li->starts));
		}
		li->starts[li->n++] = (uint64_t)(p - s) + 1;
	}
}

static uint32_t line_of(const struct line_index *li, uint64_t off)
{
	size_t lo = 0, hi = li->n;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (li->starts[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	return (uint32_t)lo + 1;
}

/* The runs a splitting format cut the document into. Runs of one value are
 * that value's bytes in the file; when any run gathers several, every run
 * is written into a new text (a run of several as the JSON array of them),
 * which becomes the file's bytes, and each record keeps the line where
 * its first value stood. */
static void list_groups(struct dataset *ds, struct input_file *f, size_t fi, const struct jdoc *d,
                        const struct doc_groups *g)
{
	struct line_index li;
	line_index_build(&li, f->data, f->size);
	bool gathered = false;
	for (size_t k = 0; k < g->ngroups; k++)
		if (g->groups[k].n != 1)
			gathered = true;
	f->doc_recs = xcalloc(g->ngroups ? g->ngroups : 1, sizeof(*f->doc_recs));
	struct strbuf text = STRBUF_INIT;
	size_t nrec = 0;
	for (size_t k = 0; k < g->ngroups; k++) {
		const struct doc_group *gr = &g->groups[k];
		if (!gathered && gr->n == 0)
			continue;
		jv first = gr->n ? g->vals[gr->first] : JV_NONE;
		const struct jdoc_node *fn = first != JV_NONE ? &d->nodes[first] : NULL;
		struct record_ref rec = {
			.file = (uint32_t)fi, .line = fn ? line_of(&li, fn->src) : 1,
			.index = first == jdoc_root(d) && g->ngroups == 1 ? -1 : (int64_t)nrec,
		};
		if (!gathered) {
			rec.off = fn->src;
			rec.len = fn->src_len;
		} else {
			rec.off = text.len;
			if (gr->n != 1)
				strbuf_addch(&text, '[');
			for (size_t i = 0; i < gr->n; i++) {
				const struct jdoc_node *node = &d->nodes[g->vals[gr->first + i]];
				if (i)
					strbuf_addch(&text, ',');
				strbuf_add(&text, f->data + node->src, node->src_len);
			}
			if (gr->n != 1)
				strbuf_addch(&text, ']');
			rec.len = text.len - rec.off;
			strbuf_addch(&text, '\n');
		}
		f->doc_recs[nrec++] = rec;
	}
	f->ndoc_recs = nrec;
	free(li.starts);
	if (gathered) {
		strbuf_grow(&text, JDOC_PADDING + 1);
		memset(text.buf + text.len, 0, JDOC_PADDING + 1);
		ds->bytes_total = ds->bytes_total - f->size + text.len;
		release_data(f);
		f->size = text.len;
		f->map_len = text.len + JDOC_PADDING;
		f->data = strbuf_detach(&text);
	}
}

/* The records of a document no container format cut: one run, or an
 * array of runs. */
static void list_elements(struct input_file *f, size_t fi, const struct jdoc *d, bool whole)
{
	jv root = jdoc_root(d);
	bool many = !whole && jv_is_array(d, root) && !array_is_one_run(d, root);
	size_t n = many ? jv_len(d, root) : 1;
	f->doc_recs = xcalloc(n ? n : 1, sizeof(*f->doc_recs));
	uint32_t line = 1;
	size_t counted = 0;
	size_t k = 0;
	for (jv e = many ? jv_first(d, root) : root; e != JV_NONE;
	     e = many ? jv_next(d, root, e) : JV_NONE) {
		const struct jdoc_node *node = &d->nodes[e];
		line += count_lines(f->data + counted, node->src - counted);
		counted = node->src;
		f->doc_recs[k] = (struct record_ref){
			.file = (uint32_t)fi, .line = line, .index = many ? (int64_t)k : -1,
			.off = node->src, .len = node->src_len,
		};
		k++;
	}
	f->ndoc_recs = k;
}

/* Parses a .json file once and lists its records' byte ranges; the tape
 * is freed right after, so what stays is 32 bytes a run. */
static void load_doc(struct dataset *ds, size_t fi)
{
	struct input_file *f = &ds->files[fi];
	if (f->doc_listed || f->doc_error)
		return;
	struct jdoc_error jerr;
	struct jdoc *d = parse_container(f->data, f->size, readable_from(f, 0), &jerr);
	if (!d) {
		char buf[400];
		snprintf(buf, sizeof buf, "%s (column %d)", jerr.text, jerr.column);
		f->doc_error = xstrdup(buf);
		f->doc_error_line = jerr.line;
		return;
	}
	if (d->src != f->data)
		adopt_repaired(ds, f, d);
	f->doc = d;
	/* Which format the whole document is: the one the file's lines were
	 * read for, else --format, else whichever detects it. Only a format
	 * that cuts documents or reads whole files keeps the file. */
	const struct format_ops *fmt = f->container;
	if (!fmt)
		fmt = ds->forced ? ds->forced : format_detect(d, jdoc_root(d));
	if (fmt && (fmt->split || fmt->unit == UNIT_FILE))
		f->container = fmt;
	else
		fmt = NULL;
	if (fmt && fmt->split) {
		struct doc_groups g = { 0 };
		fmt->split(d, jdoc_root(d), &g);
		list_groups(ds, f, fi, d, &g);
		doc_groups_free(&g);
	} else {
		list_elements(f, fi, d, fmt != NULL);
	}
	jdoc_free(d);
	f->doc = NULL;
	f->doc_listed = true;
	/* Every page was read to list the runs; they come back one run at a
	 * time when parsed, so the file is not resident twice. */
	if (f->mapped)
		madvise((void *)f->data, f->size, MADV_DONTNEED);
}

/* ---- JSONL files that are the events of one run ------------------------ */

/* How many of a JSONL file's first non-blank lines are asked about. */
#define SNIFF_LINES 16

/* The format that reads this JSONL file whole, or NULL when its lines are
 * runs: --format when it is such a format, else the format of the first
 * of its first lines that any format detects. */
static const struct format_ops *events_format(const struct dataset *ds, const struct input_file *f)
{
	if (ds->forced)
		return ds->forced->unit == UNIT_FILE ? ds->forced : NULL;
	uint64_t off = 0;
	uint32_t line = 0;
	struct record_ref rec;
	for (int k = 0; k < SNIFF_LINES && next_line(f, &off, &line, &rec); k++) {
		struct jdoc_error jerr;
		struct jdoc *d = jdoc_parse(f->data + rec.off, (size_t)rec.len, readable_from(f, rec.off),
		                            &jerr);
		if (!d)
			continue;
		const struct format_ops *fmt = jv_is_object(d, jdoc_root(d)) ? format_detect(d, jdoc_root(d))
		                                                            : NULL;
		jdoc_free(d);
		if (fmt)
			return fmt->unit == UNIT_FILE ? fmt : NULL;
	}
	return NULL;
}

/* Writes the file's lines as one JSON array, each element starting on the
 * line it came from; lines that are not JSON become null when `check`. */
static void events_text(const struct input_file *f, bool check, struct strbuf *out)
{
	strbuf_reset(out);
	strbuf_addch(out, '[');
	bool first = true;
	const char *d = f->data;
	size_t off = 0;
	while (off < f->size) {
		const char *nl = memchr(d + off, '\n', f->size - off);
		size_t end = nl ? (size_t)(nl - d) : f->size;
		size_t len = end - off;
		if (len && d[off + len - 1] == '\r')
			len--;
		size_t k = 0;
		while (k < len && (d[off + k] == ' ' || d[off + k] == '\t'))
			k++;
		if (k < len) {
			if (!first)
				strbuf_addch(out, ',');
			first = false;
			bool ok = true;
			if (check) {
				struct jdoc_error jerr;
				struct jdoc *one = jdoc_parse(d + off, len, readable_from(f, off), &jerr);
				ok = one != NULL;
				jdoc_free(one);
			}
			if (ok)
				strbuf_add(out, d + off, len);
			else
				strbuf_addstr(out, "null");
		}
		strbuf_addch(out, '\n');
		off = nl ? end + 1 : f->size;
	}
	strbuf_addch(out, ']');
}

/* A JSONL file a UNIT_FILE format claims becomes the document of its
 * lines: tried whole first, and line by line only when some line is not
 * JSON (a session cut off mid-line while it was being written). */
static void sniff_events(struct dataset *ds, size_t fi)
{
	struct input_file *f = &ds->files[fi];
	if (f->kind != INPUT_JSONL || f->sniffed)
		return;
	f->sniffed = true;
	const struct format_ops *fmt = events_format(ds, f);
	if (!fmt)
		return;
	struct strbuf text = STRBUF_INIT;
	events_text(f, false, &text);
	strbuf_grow(&text, JDOC_PADDING + 1);
	memset(text.buf + text.len, 0, JDOC_PADDING + 1);
	struct jdoc_error jerr;
	struct jdoc *whole = jdoc_parse(text.buf, text.len, text.len + JDOC_PADDING, &jerr);
	if (!whole) {
		events_text(f, true, &text);
		strbuf_grow(&text, JDOC_PADDING + 1);
		memset(text.buf + text.len, 0, JDOC_PADDING + 1);
	}
	jdoc_free(whole);
	ds->bytes_total = ds->bytes_total - f->size + text.len;
	release_data(f);
	f->size = text.len;
	f->map_len = text.len + JDOC_PADDING;
	f->data = strbuf_detach(&text);
	f->kind = INPUT_JSON;
	f->container = fmt;
}

/* The records of a .json file: its runs, or the one that reports why it
 * does not parse. */
static size_t doc_records(const struct input_file *f)
{
	return f->doc_error ? 1 : f->ndoc_recs;
}

static struct record_ref doc_record(const struct input_file *f, size_t fi, size_t i)
{
	if (f->doc_error)
		return (struct record_ref){ .file = (uint32_t)fi, .line = (uint32_t)f->doc_error_line,
		                            .index = -1 };
	return f->doc_recs[i];
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
			sniff_events(ds, ds->index_file);
		}
		if (f->kind == INPUT_JSON) {
			load_doc(ds, ds->index_file);
			size_t n = doc_records(f);
			for (size_t i = 0; i < n; i++) {
				rec = doc_record(f, ds->index_file, i);
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
		if (cur->off == 0 && cur->elem == 0)
			sniff_events(ds, cur->file);
		if (f->kind == INPUT_JSON) {
			load_doc(ds, cur->file);
			if (cur->elem < doc_records(f)) {
				*rec = doc_record(f, cur->file, cur->elem);
				cur->elem++;
				drop_behind(f, &cur->dropped, rec->off);
				return true;
			}
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
	if (f->kind == INPUT_JSONL || f->doc_error)
		snprintf(buf, n, "%s:%u", f->path, rec->line);
	else if (rec->index >= 0)
		snprintf(buf, n, "%s[%lld]", f->path, (long long)rec->index);
	else
		snprintf(buf, n, "%s", f->path);
}

struct jdoc *dataset_parse_doc(struct dataset *ds, const struct record_ref *rec, char *err,
                               size_t errlen)
{
	struct input_file *f = &ds->files[rec->file];
	struct jdoc_error jerr;
	struct jdoc *d;
	if (f->kind == INPUT_JSON) {
		load_doc(ds, rec->file);
		if (f->doc_error) {
			snprintf(err, errlen, "%s:%d: %s", f->path, f->doc_error_line, f->doc_error);
			return NULL;
		}
		/* An element of a list of runs may be any value; its loader says
		 * what is wrong with it. */
		d = jdoc_parse(f->data + rec->off, (size_t)rec->len, readable_from(f, rec->off), &jerr);
	} else {
		d = parse_container(f->data + rec->off, (size_t)rec->len, readable_from(f, rec->off),
		                    &jerr);
	}
	if (!d) {
		char src[512];
		record_source(ds, rec, src, sizeof src);
		snprintf(err, errlen, "%s: %s (column %d)", src, jerr.text, jerr.column);
	}
	return d;
}

json_t *dataset_parse(struct dataset *ds, const struct record_ref *rec, char *err, size_t errlen)
{
	struct jdoc *d = dataset_parse_doc(ds, rec, err, errlen);
	if (!d)
		return NULL;
	json_t *v = jv_to_json(d, jdoc_root(d));
	jdoc_free(d);
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
	/* The element's compact text as the tree of it dumps, as the hashes in
	 * annotation files were made when the whole file was one tree. */
	char err[16];
	json_t *v = dataset_parse(ds, rec, err, sizeof err);
	char *text = v ? json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
	json_decref(v);
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

/* A run's name from an id field: a non-empty string as it is, a number as
 * the output prints it (integers as integers, reals as JavaScript prints
 * them), and a number no C type holds as the record writes it. */
/* An id is a C string everywhere after this (keys, output, the screen):
 * one holding "\u0000" would be cut there and could then equal another
 * run's id, so its NULs become U+FFFD, as invalid UTF-8 does. */
static const char *string_id(struct run *r, const char *s, size_t n)
{
	if (strlen(s) == n)
		return s;
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < n; i++) {
		if (s[i])
			strbuf_addch(&sb, s[i]);
		else
			strbuf_addstr(&sb, "\xef\xbf\xbd");
	}
	const char *out = arena_strndup(&r->arena, sb.buf, sb.len);
	strbuf_release(&sb);
	return out;
}

static const char *id_text(struct run *r, jv v)
{
	const struct jdoc *d = r->doc;
	if (jv_is_string(d, v) && jv_strlen(d, v))
		return string_id(r, jv_str(d, v), jv_strlen(d, v));
	if (!jv_is_number(d, v))
		return NULL;
	uint8_t flags = d->nodes[v].flags;
	if (flags & JVF_INT64)
		return arena_printf(&r->arena, "%" PRId64, jv_int(d, v));
	if (flags & (JVF_INTEGER | JVF_RANGE))
		return jv_number_text(d, v);
	struct strbuf sb = STRBUF_INIT;
	jsonw_number(&sb, jv_real(d, v));
	const char *s = run_strdup(r, sb.buf);
	strbuf_release(&sb);
	return s;
}

struct run *dataset_load_run(struct dataset *ds, const struct record_ref *rec,
                             const struct format_ops *forced, const char *id_path,
                             char *err, size_t errlen)
{
	struct jdoc *d = dataset_parse_doc(ds, rec, err, errlen);
	if (!d)
		return NULL;
	const struct input_file *f = &ds->files[rec->file];
	struct run *r = run_new_doc(d, f->path, f->kind == INPUT_JSONL ? rec->line : 0,
	                            (long)rec->index);
	jv root = run_root(r);
	const char *id = NULL;
	if (id_path)
		id = id_text(r, jv_path(d, root, id_path));
	static const char *const id_keys[] = { "id", "runId", "run_id", NULL };
	for (size_t i = 0; !id && id_keys[i]; i++)
		id = id_text(r, jv_get(d, root, id_keys[i]));
	if (id)
		r->id = id;
	char lerr[512] = "";
	if (format_load(r, forced ? forced : f->container, lerr, sizeof lerr) < 0)
		r->load_error = run_strdup(r, lerr[0] ? lerr : "malformed record");
	return r;
}
