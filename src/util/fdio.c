/* fdio.c - a lock, a whole write and a sync on a descriptor, each retried on EINTR. */
#include "util/fdio.h"

#include <errno.h>
#include <sys/file.h>
#include <unistd.h>

int fd_lock(int fd, int op)
{
	int r;
	do
		r = flock(fd, op);
	while (r < 0 && errno == EINTR);
	return r;
}

int fd_write_all(int fd, const char *p, size_t n, size_t *done)
{
	*done = 0;
	while (*done < n) {
		ssize_t w = write(fd, p + *done, n - *done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? errno : EIO;
		*done += (size_t)w;
	}
	return 0;
}

int fd_sync(int fd)
{
	while (fsync(fd) < 0)
		if (errno != EINTR)
			return errno;
	return 0;
}
