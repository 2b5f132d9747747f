/* readfile.c - opening only regular files, reading them whole with a cap
 * (see readfile.h). */
#include "util/readfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/strbuf.h"
#include "util/error.h"

#define READ_CHUNK ((size_t)1 << 16)

const char *file_type_name(mode_t mode)
{
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode) || S_ISBLK(mode))
		return "a device";
	if (S_ISDIR(mode))
		return "a folder";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a file";
}

static void not_regular(const char *path, mode_t mode, struct error *err)
{
	if (err)
		error_set(err, ERR_FAILED, "%s: not a regular file (%s)", path, file_type_name(mode));
}

static void sys_error(const char *path, int e, struct error *err)
{
	if (err)
		error_set(err, ERR_FAILED, "%s: %s", path, strerror(e));
}

int open_regular(const char *path, int flags, mode_t mode, struct error *err)
{
	/* Looked at first so that a device is never opened at all (opening
	 * one can do things: a tape rewinds, a terminal becomes ours). */
	struct stat st;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		not_regular(path, st.st_mode, err);
		return -1;
	}
	/* Without O_NONBLOCK, opening a FIFO waits for a writer, forever. */
	int fd = open(path, flags | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, mode);
	if (fd < 0) {
		sys_error(path, errno, err);
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		int e = errno;
		if (S_ISREG(st.st_mode))
			sys_error(path, e, err);
		else
			not_regular(path, st.st_mode, err);
		close(fd);
		return -1;
	}
	int fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
		sys_error(path, errno, err);
		close(fd);
		return -1;
	}
	return fd;
}

void format_cap(size_t max, char *out, size_t outlen)
{
	if (max >= ((size_t)1 << 30) && max % ((size_t)1 << 30) == 0)
		snprintf(out, outlen, "%zu GB", max >> 30);
	else if (max >= ((size_t)1 << 20) && max % ((size_t)1 << 20) == 0)
		snprintf(out, outlen, "%zu MB", max >> 20);
	else if (max >= 1024 && max % 1024 == 0)
		snprintf(out, outlen, "%zu KB", max >> 10);
	else
		snprintf(out, outlen, "%zu bytes", max);
}

static void too_large(const char *path, size_t max, struct error *err)
{
	char cap[32];
	format_cap(max, cap, sizeof cap);
	if (err)
		error_set(err, ERR_FAILED, "%s: larger than %s", path, cap);
}

int read_regular_file(struct strbuf *sb, const char *path, size_t max, struct error *err)
{
	int fd = open_regular(path, O_RDONLY, 0, err);
	if (fd < 0)
		return -1;
	struct stat st;
	if (fstat(fd, &st) == 0 && (unsigned long long)st.st_size > max) {
		too_large(path, max, err);
		close(fd);
		return -1;
	}
	if (st.st_size > 0)
		strbuf_grow(sb, (size_t)st.st_size + 1);
	size_t total = 0;
	for (;;) {
		/* One byte past the cap tells "exactly max" from "more". */
		size_t want = max - total < READ_CHUNK ? max - total + 1 : READ_CHUNK;
		/* Into the room the size made first: growing by a chunk past a
		 * file that fits would double a 1 GB buffer for the final 0. */
		if (sb->cap - sb->len <= 1)
			strbuf_grow(sb, want);
		if (want > sb->cap - sb->len - 1)
			want = sb->cap - sb->len - 1;
		ssize_t n = read(fd, sb->buf + sb->len, want);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			sys_error(path, errno, err);
			close(fd);
			return -1;
		}
		if (n == 0)
			break;
		total += (size_t)n;
		if (total > max) {
			sb->buf[sb->len] = '\0';
			too_large(path, max, err);
			close(fd);
			return -1;
		}
		sb->len += (size_t)n;
		sb->buf[sb->len] = '\0';
	}
	close(fd);
	return 0;
}
