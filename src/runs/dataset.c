/* dataset.c - inputs as records: mapping, line index, lazy parsing.
 *
 * Records are parsed where they lie in the mapping: every file is mapped
 * with a spare zero page behind it, so the parser's padding after the last
 * record is readable and nothing is copied. */
#include "runs/dataset.h"

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
#include "runs/declared.h"
#include "runs/folder_walk.h"
#include "runs/runs_conf.h"
#include "dataset_int.h"
#include "util/digest.h"
#include "util/jsonw.h"
#include "util/readfile.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/error.h"

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

static size_t skip_ws(const char *s, size_t i, size_t n)
{
	while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n'))
		i++;
	return i;
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

/* The cap on standard input, which is read whole into memory (a file is
 * mapped instead): READ_CAP_STDIN, or TCR_STDIN_MAX when it is set
 * ("512M", "2G", "4096", with K, M or G as powers of 1024). Returns 0,
 * or -1 when TCR_STDIN_MAX is not such a size. */
static int stdin_cap(size_t *cap, struct error *err)
{
	*cap = READ_CAP_STDIN;
	const char *s = getenv("TCR_STDIN_MAX");
	if (!s || !*s)
		return 0;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	int shift = 0;
	if (*end == 'K' || *end == 'k')
		shift = 10;
	else if (*end == 'M' || *end == 'm')
		shift = 20;
	else if (*end == 'G' || *end == 'g')
		shift = 30;
	if (shift)
		end++;
	if (errno || end == s || *end || s[0] == '-' || v == 0 || v > (SIZE_MAX >> 1) >> shift) {
		error_set(err, ERR_FAILED, "TCR_STDIN_MAX: '%s' is not a size (bytes, or a number with K, M or G)", s);
		return -1;
	}
	*cap = (size_t)v << shift;
	return 0;
}

/* Reads fd to its end, at most max bytes, into a buffer with JDOC_PADDING
 * zero bytes after the data, as a mapping has its spare page. Returns 0,
 * or -1 with the message in err. */
static int read_padded(int fd, size_t max, char **out, size_t *outlen, struct error *err)
{
	/* Never more room than the cap allows: a doubling past it would
	 * reserve twice the cap for input that is refused anyway. */
	size_t most = max + 1 + JDOC_PADDING + 1;
	size_t cap = most < ((size_t)1 << 16) ? most : (size_t)1 << 16, len = 0;
	char *buf = xrealloc(NULL, cap);
	for (;;) {
		if (cap - len < (1 << 15) + JDOC_PADDING + 1 && cap < most) {
			cap = cap > most / 2 ? most : cap * 2;
			buf = xrealloc(buf, cap);
		}
		ssize_t n = read(fd, buf + len, cap - len - JDOC_PADDING - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			error_set(err, ERR_FAILED, "-: %s", strerror(errno));
			free(buf);
			return -1;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len > max) {
			char capname[32];
			format_cap(max, capname, sizeof capname);
			error_set(err, ERR_FAILED,
			         "-: standard input is larger than %s, the cap on input that is not a file "
			         "(name the file instead, or set TCR_STDIN_MAX)", capname);
			free(buf);
			return -1;
		}
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
int dataset_map_padded(struct input_file *f, int fd)
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

/* Why a file could not be mapped: its address space is memory too. */
void dataset_map_error(const char *path, size_t size, int e, struct error *err)
{
	if (e == ENOMEM)
		error_set(err, ERR_FAILED, "%s: out of memory while mapping the file (%.1f MB)", path,
		         (double)size / 1e6);
	else
		error_set(err, ERR_FAILED, "%s: %s", path, strerror(e));
}

void dataset_release_data(struct input_file *f)
{
	if (f->mapped)
		munmap((void *)f->data, f->map_len);
	else if (f->map_len)
		free((void *)f->data);          /* stdin, or a repaired document */
	f->data = empty_data;
	f->mapped = false;
	f->map_len = 0;
}

static int open_file(struct dataset *ds, char *path, struct error *err)
{
	struct input_file f = { 0 };
	f.path = path;
	f.data = empty_data;
	struct stat st;
	if (strcmp(path, "-") == 0 && fstat(0, &st) == 0 && S_ISREG(st.st_mode) && lseek(0, 0, SEEK_CUR) == 0) {
		/* A file redirected to standard input is mapped as a named one
		 * is: no copy and no cap. */
		f.size = (size_t)st.st_size;
		if (f.size > 0 && dataset_map_padded(&f, 0) < 0) {
			dataset_map_error(path, f.size, errno, err);
			return -1;
		}
	} else if (strcmp(path, "-") == 0) {
		char *buf;
		size_t max;
		if (stdin_cap(&max, err) < 0)
			return -1;
		xalloc_input(path, 0, "reading standard input");
		if (read_padded(0, max, &buf, &f.size, err) < 0)
			return -1;
		f.data = buf;
		f.map_len = f.size + JDOC_PADDING;
	} else if (archive_is_eval(path)) {
		char *buf;
		if (archive_read_eval(path, JDOC_PADDING + 1, &buf, &f.size, err) < 0)
			return -1;
		f.data = buf;
		f.map_len = f.size + JDOC_PADDING;
		f.kind = INPUT_JSON;
	} else {
		/* A FIFO would block the open and be mapped as empty; a pipe
		 * is read through standard input ("-") instead. */
		int fd = open_regular(path, O_RDONLY, 0, err);
		if (fd < 0)
			return -1;
		if (fstat(fd, &st) < 0) {
			error_set(err, ERR_FAILED, "%s: %s", path, strerror(errno));
			close(fd);
			return -1;
		}
		f.size = (size_t)st.st_size;
		if (f.size > 0 && dataset_map_padded(&f, fd) < 0) {
			dataset_map_error(path, f.size, errno, err);
			close(fd);
			return -1;
		}
		close(fd);
	}
	if (!archive_is_eval(path))
		f.kind = sniff_kind(path, &f);
	if (declared_in_use(ds->declared) &&
	    dataset_take_declared(ds->declared, &f, err) < 0) {
		dataset_release_data(&f);
		free(f.src);
		return -1;
	}
	ds->files = xrealloc(ds->files, (ds->nfiles + 1) * sizeof(*ds->files));
	ds->files[ds->nfiles++] = f;
	ds->bytes_total += f.size;
	return 0;
}

/* ---- a parse kept between the sniffing and the load ---------------------- */

struct kept_doc {
	struct jdoc *d;
	uint32_t file;
	uint64_t off;
};

static void kept_free(struct kept_doc *k)
{
	if (k) {
		jdoc_free(k->d);
		free(k);
	}
}

void dataset_keep_doc(struct dataset *ds, uint32_t fi, uint64_t off, struct jdoc *d)
{
	struct kept_doc *k = xcalloc(1, sizeof *k);
	k->d = d;
	k->file = fi;
	k->off = off;
	kept_free(__atomic_exchange_n(&ds->kept, k, __ATOMIC_ACQ_REL));
}

/* The kept parse of rec, or NULL. Another record's is put back, unless a
 * newer one took its place meanwhile. */
static struct jdoc *take_doc(struct dataset *ds, const struct record_ref *rec)
{
	if (rec->len < KEEP_DOC_MIN || !__atomic_load_n(&ds->kept, __ATOMIC_ACQUIRE))
		return NULL;
	struct kept_doc *k = __atomic_exchange_n(&ds->kept, NULL, __ATOMIC_ACQ_REL);
	if (!k)
		return NULL;
	if (k->file == rec->file && k->off == rec->off) {
		struct jdoc *d = k->d;
		free(k);
		return d;
	}
	struct kept_doc *none = NULL;
	if (!__atomic_compare_exchange_n(&ds->kept, &none, k, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		kept_free(k);
	return NULL;
}

int dataset_open(struct dataset *ds, char *const *paths, size_t npaths, struct error *err)
{
	return dataset_open_with(ds, NULL, paths, npaths, err);
}

int dataset_open_with(struct dataset *ds, const struct dataset_opts *opts, char *const *paths,
                      size_t npaths, struct error *err)
{
	memset(ds, 0, sizeof(*ds));
	ds->declared = opts ? opts->declared : NULL;
	/* One walk for every folder input: a folder or file reached twice,
	 * through links or by being named twice, is read once. */
	struct folder_walk walk;
	folder_walk_init(&walk, is_input_name, opts && opts->walk_quiet ? NULL : stderr);
	for (size_t i = 0; i < npaths; i++) {
		struct stat st;
		if (strcmp(paths[i], "-") != 0 && stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			size_t from = walk.npaths;
			if (folder_walk_dir(&walk, paths[i], err) < 0)
				goto fail;
			for (size_t k = from; k < walk.npaths; k++) {
				if (open_file(ds, walk.paths[k], err) < 0)
					goto fail;
				walk.paths[k] = NULL;    /* the dataset's now */
			}
			continue;
		}
		char *p = strdup(paths[i]);
		if (open_file(ds, p, err) < 0) {
			free(p);
			goto fail;
		}
	}
	folder_walk_free(&walk);
	return 0;
fail:
	folder_walk_free(&walk);
	return -1;
}

void dataset_close(struct dataset *ds)
{
	xalloc_input(NULL, 0, NULL);    /* the paths are freed below */
	for (size_t i = 0; i < ds->nfiles; i++) {
		struct input_file *f = &ds->files[i];
		dataset_release_data(f);
		jdoc_free(f->doc);
		free(f->doc_error);
		free(f->doc_recs);
		free(f->src);
		free(f->path);
	}
	free(ds->files);
	free(ds->recs);
	kept_free(ds->kept);
	memset(ds, 0, sizeof(*ds));
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
	dataset_release_data(f);
	f->data = copy;
	f->size = d->src_len;
	f->map_len = d->src_len + JDOC_PADDING;
}

/* Parses a .json file once and lists its records' byte ranges; the tape
 * is freed right after, so what stays is 32 bytes a run. */
static void load_doc(struct dataset *ds, size_t fi)
{
	struct input_file *f = &ds->files[fi];
	if (f->doc_listed || f->doc_error)
		return;
	xalloc_input(f->path, 0, "reading the file");
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
	container_list(ds, fi, d);
	jdoc_free(d);
	f->doc = NULL;
	f->doc_listed = true;
	/* Every page was read to list the runs; they come back one run at a
	 * time when parsed, so the file is not resident twice. */
	if (f->mapped)
		madvise((void *)f->data, f->size, MADV_DONTNEED);
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
bool dataset_next_line(const struct input_file *f, uint64_t *off, uint32_t *line, struct record_ref *rec)
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
		/* A declared format's run names the input's record it came from. */
		if (f->src && *line - 1 < f->nsrc) {
			rec->line = (uint32_t)f->src[*line - 1].line;
			rec->index = f->src[*line - 1].index;
		} else if (f->declared) {
			rec->line = 0;
			rec->index = (int64_t)*line - 1;
		}
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
		ds->recs = xrealloc(ds->recs, ds->recs_cap * sizeof(*ds->recs));
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
			dataset_sniff_events(ds, ds->index_file);
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
			while (spent < budget && dataset_next_line(f, &ds->index_off, &ds->index_line, &rec)) {
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
			dataset_sniff_events(ds, cur->file);
		if (f->kind == INPUT_JSON) {
			load_doc(ds, cur->file);
			if (cur->elem < doc_records(f)) {
				*rec = doc_record(f, cur->file, cur->elem);
				cur->elem++;
				drop_behind(f, &cur->dropped, rec->off);
				return true;
			}
		} else {
			if (dataset_next_line(f, &cur->off, &cur->line, rec)) {
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
	if ((f->kind == INPUT_JSONL && !f->declared) || f->doc_error || (f->declared && rec->line > 0))
		snprintf(buf, n, "%s:%u", f->path, rec->line);
	else if (rec->index >= 0)
		snprintf(buf, n, "%s[%lld]", f->path, (long long)rec->index);
	else
		snprintf(buf, n, "%s", f->path);
}

struct jdoc *dataset_parse_doc(struct dataset *ds, const struct record_ref *rec, struct error *err)
{
	struct input_file *f = &ds->files[rec->file];
	struct jdoc_error jerr;
	struct jdoc *d;
	if (f->kind == INPUT_JSON) {
		load_doc(ds, rec->file);
		if (f->doc_error) {
			error_set(err, ERR_FAILED, "%s", f->doc_error);
			error_prefix(err, "%s:%d: ", f->path, f->doc_error_line);
			return NULL;
		}
		/* An element of a list of runs may be any value; its loader says
		 * what is wrong with it. */
		d = jdoc_parse(f->data + rec->off, (size_t)rec->len, readable_from(f, rec->off), &jerr);
	} else if (!(d = take_doc(ds, rec))) {
		d = parse_container(f->data + rec->off, (size_t)rec->len, readable_from(f, rec->off),
		                    &jerr);
	}
	if (!d) {
		char src[512];
		record_source(ds, rec, src, sizeof src);
		error_set(err, ERR_FAILED, "%s (column %d)", jerr.text, jerr.column);
		error_prefix(err, "%s: ", src);
	}
	return d;
}

json_t *dataset_parse(struct dataset *ds, const struct record_ref *rec, struct error *err)
{
	struct jdoc *d = dataset_parse_doc(ds, rec, err);
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
	struct error err = {0};
	json_t *v = dataset_parse(ds, rec, &err);
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

struct run *dataset_load_run(struct dataset *ds, const struct record_ref *rec,
                             const struct format_ops *forced, const char *id_path,
                             struct error *err)
{
	const struct input_file *in = &ds->files[rec->file];
	xalloc_input(in->path, in->kind == INPUT_JSONL ? rec->line : 0, "reading the record");
	struct jdoc *d = dataset_parse_doc(ds, rec, err);
	if (!d)
		return NULL;
	const struct input_file *f = &ds->files[rec->file];
	struct run *r = run_new_doc(d, f->path, f->kind == INPUT_JSONL ? rec->line : 0,
	                            (long)rec->index);
	jv root = run_root(r);
	const char *id = NULL;
	if (id_path)
		id = run_spec_text(r, id_path);
	static const char *const id_keys[] = { "id", "runId", "run_id", NULL };
	for (size_t i = 0; !id && id_keys[i]; i++)
		id = run_id_text(r, jv_get(d, root, id_keys[i]));
	if (id)
		r->id = id;
	struct error lerr = {0};
	if (format_load(r, forced ? forced : f->container, &lerr) < 0)
		r->load_error = run_strdup(r, lerr.msg[0] ? lerr.msg : "malformed record");
	/* A converted run keeps its source's values by path in its fields,
	 * which only its loader finds: its id is named again through them. */
	if (id_path && r->fields != JV_NONE && (id = run_spec_text(r, id_path)))
		r->id = id;
	if (f->declared && !forced)
		r->format = f->declared;
	return r;
}
