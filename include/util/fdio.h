/* fdio.h - the few descriptor operations the append-only files share:
 * taking a lock, writing a whole line, syncing it, each retried on EINTR. */
#ifndef TCR_UTIL_FDIO_H
#define TCR_UTIL_FDIO_H

#include <stddef.h>

/* flock(fd, op); 0 or -1 with errno. */
int fd_lock(int fd, int op);
/* Writes all n bytes (a short write is continued); returns 0 or an errno
 * value, with *done the bytes that reached the file either way. */
int fd_write_all(int fd, const char *p, size_t n, size_t *done);
/* fsync(fd); returns 0 or an errno value. */
int fd_sync(int fd);

#endif
