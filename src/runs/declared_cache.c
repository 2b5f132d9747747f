/* declared_cache.c - what a format's converter wrote for an input, kept
 * across sessions as exec scorers' answers are, so that opening the same
 * file again runs no converter: one file per converter key (the command,
 * its script's content, its variables) and input (its bytes' SHA-256), in
 * the cache folder's convert/ (util/child.h). Only a conversion that
 * succeeded is kept; a file that cannot be kept only costs the run again. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "declared_int.h"
#include "util/child.h"
#include "util/digest.h"
#include "util/userdir.h"

/* CACHE/convert/KEY-SHA.jsonl (malloc'd), or NULL; sub gets the folder. */
static char *cache_path(const struct declared_format *f, const char *sha, char **sub)
{
	char *dir = child_cache_dir(), *path = NULL;
	*sub = NULL;
	if (dir && asprintf(sub, "%s/convert", dir) >= 0 &&
	    asprintf(&path, "%s/%s-%s.jsonl", *sub, f->cache_key, sha) < 0)
		path = NULL;
	free(dir);
	return path;
}

int declared_cache_get(const struct declared_format *f, const char *data, size_t size,
                       char sha[SHA256_HEX_LEN + 1])
{
	sha256_hex(data, size, sha);
	char *sub, *path = cache_path(f, sha, &sub);
	int fd = path ? open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK) : -1;
	struct stat st;
	if (fd >= 0 && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))) {
		close(fd);
		fd = -1;
	}
	free(sub);
	free(path);
	return fd;
}

void declared_cache_put(const struct declared_format *f, const char *sha, int fd)
{
	char *sub, *path = cache_path(f, sha, &sub), *tmp = NULL;
	if (!path || make_dirs(sub) < 0 || asprintf(&tmp, "%s.%ld.tmp", path, (long)getpid()) < 0)
		goto out;
	int to = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (to < 0)
		goto out;
	char buf[1 << 16];
	off_t off = 0;
	ssize_t n;
	bool ok = true;
	while (ok && (n = pread(fd, buf, sizeof buf, off)) > 0) {
		off += n;
		for (ssize_t done = 0; ok && done < n;) {
			ssize_t w = write(to, buf + done, (size_t)(n - done));
			ok = w > 0;
			done += w > 0 ? w : 0;
		}
	}
	ok = close(to) == 0 && ok && n == 0;
	/* Renamed whole into place: a reader never sees half of one. */
	if (!ok || rename(tmp, path) < 0)
		unlink(tmp);
out:
	free(tmp);
	free(sub);
	free(path);
}
