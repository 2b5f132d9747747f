/* jsonl_log.c - a locked append-only JSONL file: read, warn, append.
 *
 * Reads lines and hands them to their owner, reports broken ones up to
 * the owner's limit, appends whole lines (see jsonl_log.h). A log opened
 * lazily on a missing file has no descriptor until its first append
 * creates the file (or a refresh finds that another process did). */
#include "util/jsonl_log.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/fdio.h"
#include "util/jsonw.h"
#include "util/readfile.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/error.h"

#define READ_CHUNK (1u << 20)

struct jsonl_log {
	char *path;
	int fd;                         /* -1: opened lazily, the file not made yet */
	struct jsonl_reader rd;

	off_t offset;                   /* bytes of the file read (or written) so far */
	struct strbuf pending;          /* read bytes after the last '\n' */
	size_t lineno;                  /* lines consumed */
	/* The last line read had no '\n' yet (read under the lock, or our own
	 * failed write); the '\n' that later ends it is not a line. */
	bool tail_done;
	bool shrunk;
	bool read_only;                 /* opened by jsonl_log_open_readonly */
	/* We made the file: its folder's entry is not known to be on disk
	 * until the folder is synced, so no line is called written before. */
	bool folder_unsynced;

	struct strbuf warn_lines;
	size_t nwarn, nwarn_more;
	struct strbuf warn_text;
	bool warn_dirty;
};

/* ---- warnings ------------------------------------------------------------ */

static void log_warn(struct jsonl_log *l, size_t line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void log_warn(struct jsonl_log *l, size_t line, const char *fmt, ...)
{
	l->warn_dirty = true;
	if (l->nwarn >= l->rd.warn_max) {
		l->nwarn_more++;
		return;
	}
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (l->warn_lines.len)
		strbuf_addch(&l->warn_lines, '\n');
	if (line)
		strbuf_addf(&l->warn_lines, "%s:%zu: %s", l->path, line, msg);
	else
		strbuf_addf(&l->warn_lines, "%s: %s", l->path, msg);
	l->nwarn++;
}

/* Rebuilt once per read rather than per warning, so that counting the
 * unreadable lines of a wrong file stays linear. */
static void log_finish_warnings(struct jsonl_log *l)
{
	if (!l->warn_dirty)
		return;
	strbuf_reset(&l->warn_text);
	if (l->warn_lines.len)
		strbuf_add(&l->warn_text, l->warn_lines.buf, l->warn_lines.len);
	if (l->nwarn_more)
		strbuf_addf(&l->warn_text, "\n%s: %zu more unreadable lines skipped",
		            l->path, l->nwarn_more);
	l->warn_dirty = false;
}

/* ---- reading ------------------------------------------------------------- */

static bool blank(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r')
			return false;
	return true;
}

/* One line without its '\n'; `cut` says it is the last line and has no
 * '\n', read while no writer was active. Returns 1 when the owner took it. */
static size_t log_take_line(struct jsonl_log *l, const char *p, size_t n, bool cut)
{
	size_t line = ++l->lineno;
	if (cut && !l->rd.parse_unended) {
		log_warn(l, line, JSONL_TRUNCATED);
		return 0;
	}
	if (blank(p, n))
		return 0;
	json_error_t je;
	json_t *o = json_loadb(p, n, 0, &je);
	if (!o) {
		if (cut)
			log_warn(l, line, JSONL_TRUNCATED);
		else
			log_warn(l, line, "skipped: %s", je.text);
		return 0;
	}
	char why[128];
	size_t taken = 0;
	if (l->rd.take(l->rd.ctx, o, why, sizeof why))
		taken = 1;
	else
		log_warn(l, line, "skipped: %s", why);
	json_decref(o);
	return taken;
}

/* Takes every complete line out of pending, keeping the rest. */
static size_t log_take_lines(struct jsonl_log *l)
{
	size_t taken = 0, start = 0;
	char *buf = l->pending.buf;
	size_t len = l->pending.len;
	if (l->tail_done && len) {
		if (buf[0] == '\n')
			start = 1;      /* ends the line already read */
		l->tail_done = false;
	}
	for (;;) {
		char *nl = memchr(buf + start, '\n', len - start);
		if (!nl)
			break;
		size_t end = (size_t)(nl - buf);
		taken += log_take_line(l, buf + start, end - start, false);
		start = end + 1;
	}
	if (start) {
		memmove(buf, buf + start, len - start);
		l->pending.len = len - start;
		buf[l->pending.len] = '\0';
	}
	return taken;
}

/* Reads from our offset to the end of the file as it is now. `locked`:
 * no writer is active, so bytes without a '\n' at the end are a dead
 * writer's, to be read now. Counts the lines taken in *taken; returns -1
 * with errno set when the file could not be read. */
static int log_read_new(struct jsonl_log *l, bool locked, size_t *taken)
{
	struct stat st;
	*taken = 0;
	if (fstat(l->fd, &st) < 0)
		return -1;
	/* Only regular files have a size to read up to; a device such as
	 * /dev/full (used to test write errors) reads as empty. */
	if (!S_ISREG(st.st_mode))
		return 0;
	if (st.st_size < l->offset) {
		if (!l->shrunk)
			log_warn(l, 0, "the file shrank since it was read (rewritten by another program?); reopen it");
		l->shrunk = true;
		log_finish_warnings(l);
		return 0;
	}
	while (l->offset < st.st_size) {
		off_t left = st.st_size - l->offset;
		size_t want = left < (off_t)READ_CHUNK ? (size_t)left : READ_CHUNK;
		strbuf_grow(&l->pending, want);
		ssize_t n = pread(l->fd, l->pending.buf + l->pending.len, want, l->offset);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;
			log_finish_warnings(l);
			errno = e;
			return -1;
		}
		if (n == 0)
			break;          /* truncated under us; the next read notices */
		l->offset += n;
		l->pending.len += (size_t)n;
		l->pending.buf[l->pending.len] = '\0';
		*taken += log_take_lines(l);
	}
	if (locked && l->pending.len) {
		*taken += log_take_line(l, l->pending.buf, l->pending.len, true);
		strbuf_reset(&l->pending);
		l->tail_done = true;
	}
	log_finish_warnings(l);
	return 0;
}

/* ---- the interface ------------------------------------------------------- */

/* Reads the whole file under a shared lock: no writer is halfway through
 * a line while we read, so an unended last line is a dead writer's and is
 * reported now. */
static int log_read_all(struct jsonl_log *l, struct error *err)
{
	if (fd_lock(l->fd, LOCK_SH) < 0) {
		error_set(err, ERR_FAILED, "%s: cannot lock: %s", l->path, strerror(errno));
		return -1;
	}
	size_t taken;
	if (log_read_new(l, true, &taken) < 0) {
		error_set(err, ERR_FAILED, "%s: %s", l->path, strerror(errno));
		return -1;
	}
	fd_lock(l->fd, LOCK_UN);
	return 0;
}

static struct jsonl_log *log_new(const char *path, const struct jsonl_reader *rd, int fd,
                                 bool read_only)
{
	struct jsonl_log *l = xcalloc(1, sizeof *l);
	l->path = xstrdup(path);
	l->fd = fd;
	l->read_only = read_only;
	l->rd = *rd;            /* the strbufs are empty as calloc left them */
	return l;
}

static struct jsonl_log *log_open(const char *path, const struct jsonl_reader *rd,
                                  bool read_only, struct error *err)
{
	/* Read and write on one descriptor: a second open() could reach a
	 * different file if the path was replaced in between. Read-only, the
	 * file must exist: creating a colleague's file would hide a typo.
	 * Only a regular file: /dev/zero or a FIFO would be read forever or
	 * wait forever, and refuse every append with "Invalid argument". */
	int fd = read_only ? open_regular(path, O_RDONLY, 0, err)
	                   : open_regular(path, O_RDWR | O_APPEND | O_CREAT, 0644, err);
	if (fd < 0)
		return NULL;
	struct jsonl_log *l = log_new(path, rd, fd, read_only);
	if (log_read_all(l, err) < 0) {
		jsonl_log_close(l);
		return NULL;
	}
	return l;
}

struct jsonl_log *jsonl_log_open(const char *path, const struct jsonl_reader *rd,
                                 struct error *err)
{
	return log_open(path, rd, false, err);
}

struct jsonl_log *jsonl_log_open_readonly(const char *path, const struct jsonl_reader *rd,
                                          struct error *err)
{
	return log_open(path, rd, true, err);
}

/* Whether a file could be made at path: its folder is there, is a folder,
 * and lets us write. A reviewer learns it before the first decision, not
 * after an hour's work. (root passes access(); a failure at the first
 * append is still reported then.) */
static int can_create(const char *path, struct error *err)
{
	char *copy = xstrdup(path);
	const char *dir = dirname(copy);
	struct stat st;
	int rc = 0;
	if (stat(dir, &st) < 0) {
		error_set(err, ERR_FAILED, "%s: cannot be created: %s: %s", path, dir, strerror(errno));
		rc = -1;
	} else if (!S_ISDIR(st.st_mode)) {
		error_set(err, ERR_FAILED, "%s: cannot be created: %s is not a folder", path, dir);
		rc = -1;
	} else if (access(dir, W_OK | X_OK) < 0) {
		error_set(err, ERR_FAILED, "%s: cannot be created: the folder %s is not writable (%s)", path,
		        dir, strerror(errno));
		rc = -1;
	}
	free(copy);
	return rc;
}

/* Opens the file at path if it is there now: 1 done, 0 missing, -1 with
 * err. */
static int open_existing(struct jsonl_log *l, struct error *err)
{
	struct stat st;
	if (stat(l->path, &st) < 0 && errno == ENOENT)
		return 0;
	errno = 0;              /* a refusal that is no system error leaves it so */
	int fd = open_regular(l->path, O_RDWR | O_APPEND, 0, err);
	if (fd < 0)             /* gone between the two looks: missing after all */
		return errno == ENOENT && stat(l->path, &st) < 0 && errno == ENOENT ? 0 : -1;
	l->fd = fd;
	return 1;
}

struct jsonl_log *jsonl_log_open_lazy(const char *path, const struct jsonl_reader *rd,
                                      struct error *err)
{
	struct jsonl_log *l = log_new(path, rd, -1, false);
	int have = open_existing(l, err);
	if (have < 0 || (have == 1 && log_read_all(l, err) < 0) ||
	    (have == 0 && can_create(path, err) < 0)) {
		jsonl_log_close(l);
		return NULL;
	}
	return l;
}

/* Syncs the folder of a file we made; 0 or an errno value. */
static int sync_folder(struct jsonl_log *l)
{
	char *copy = strdup(l->path);
	int dfd = copy ? open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	int e = dfd < 0 ? (copy ? errno : ENOMEM) : fd_sync(dfd);
	if (dfd >= 0)
		close(dfd);
	free(copy);
	if (!e)
		l->folder_unsynced = false;
	return e;
}

/* The file made at the first append of a lazy log (or found made by
 * another process meanwhile, then read like any other's lines). A file
 * we make has its folder synced with the first line (folder_unsynced), so
 * a decision called saved survives a crash with its file. */
static int log_create(struct jsonl_log *l, struct error *err)
{
	for (int tries = 0; tries < 8; tries++) {
		int have = open_existing(l, err);
		if (have)
			return have < 0 ? -1 : log_read_all(l, err);
		int fd = open_regular(l->path, O_RDWR | O_APPEND | O_CREAT | O_EXCL, 0644, err);
		if (fd < 0 && errno == EEXIST)
			continue;       /* another process made it first: open theirs */
		if (fd < 0)
			return -1;
		l->fd = fd;
		l->folder_unsynced = true;
		return 0;
	}
	error_set(err, ERR_FAILED, "%s: cannot be created (it keeps appearing and vanishing)", l->path);
	return -1;
}

void jsonl_log_close(struct jsonl_log *l)
{
	if (!l)
		return;
	if (l->fd >= 0)
		close(l->fd);
	strbuf_release(&l->pending);
	strbuf_release(&l->warn_lines);
	strbuf_release(&l->warn_text);
	free(l->path);
	free(l);
}

const char *jsonl_log_path(const struct jsonl_log *l)
{
	return l->path;
}

const char *jsonl_log_warning(const struct jsonl_log *l)
{
	return l->warn_text.len ? l->warn_text.buf : NULL;
}

size_t jsonl_log_refresh(struct jsonl_log *l)
{
	size_t taken;
	struct error err = {0};
	/* Not made yet, unless another process made it since. */
	if (l->fd < 0 && open_existing(l, &err) != 1)
		return 0;
	if (log_read_new(l, false, &taken) < 0)
		return 0;
	return taken;
}

/* Whether the file ends in a line some writer left without its '\n',
 * which our line would otherwise join. */
static bool ends_unended(const struct jsonl_log *l)
{
	struct stat st;
	char last = '\n';
	if (fstat(l->fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    pread(l->fd, &last, 1, st.st_size - 1) != 1)
		last = '\n';
	return last != '\n';
}

/* Writes "\n"? line "\n" in one write(), keeping offset, line count and
 * tail_done as a reader of our own bytes would. Returns 0 or an errno. */
static size_t count_newlines(const char *s, size_t len)
{
	size_t n = 0;
	for (const char *p = s; (p = memchr(p, '\n', len - (size_t)(p - s))) != NULL; p++)
		n++;
	return n;
}

static int log_write_line(struct jsonl_log *l, const char *line, size_t len, size_t nlines)
{
	bool need_nl = ends_unended(l);
	struct strbuf sb = STRBUF_INIT;
	if (need_nl)
		strbuf_addch(&sb, '\n');
	/* Lines from json_dumps keep DEL, C1 and bidi controls raw: written
	 * as escapes here, every log is as inert to `cat` as our own writer. */
	jsonw_inert(&sb, line, len);
	strbuf_addch(&sb, '\n');
	size_t done;
	int e = fd_write_all(l->fd, sb.buf, sb.len, &done);
	/* Whatever reached the file is ours and is not read back, but a part
	 * of a line must still be ended by the next append. */
	l->offset += (off_t)done;
	if (done == sb.len)
		l->lineno += nlines;
	else if (done > (need_nl ? 1u : 0u))   /* a write cut short: lines up to the cut */
		l->lineno += count_newlines(sb.buf + need_nl, done - need_nl) +
		              (sb.buf[done - 1] != '\n');
	if (done)
		l->tail_done = sb.buf[done - 1] != '\n';
	strbuf_release(&sb);
	return e;
}

int jsonl_log_append(struct jsonl_log *l, const char *line, size_t len,
                     struct error *err)
{
	return jsonl_log_append_lines(l, line, len, 1, err);
}

int jsonl_log_append_lines(struct jsonl_log *l, const char *lines, size_t len, size_t nlines,
                           struct error *err)
{
	const char *line = lines;
	if (l->read_only) {
		error_set(err, ERR_FAILED, "%s: opened read-only", l->path);
		return -1;
	}
	if (l->fd < 0 && log_create(l, err) < 0)
		return -1;
	if (fd_lock(l->fd, LOCK_EX) < 0) {
		error_set(err, ERR_FAILED, "%s: cannot lock: %s", l->path, strerror(errno));
		return -1;
	}
	int e = 0;
	if (l->rd.follow) {
		size_t taken;
		if (log_read_new(l, true, &taken) < 0) {
			e = errno;
			goto fail;
		}
		if (l->shrunk) {
			error_set(err, ERR_FAILED, "%s: the file shrank since it was read; reopen it", l->path);
			fd_lock(l->fd, LOCK_UN);
			return -1;
		}
	}
	if ((e = log_write_line(l, line, len, nlines)) != 0 || (e = fd_sync(l->fd)) != 0 ||
	    (l->folder_unsynced && (e = sync_folder(l)) != 0))
		goto fail;
	fd_lock(l->fd, LOCK_UN);
	return 0;
fail:
	fd_lock(l->fd, LOCK_UN);
	error_set(err, ERR_FAILED, "%s: %s", l->path, strerror(e));
	return -1;
}
