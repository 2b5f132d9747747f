/* readfile.h - opening and reading the files the program takes whole.
 *
 * Configurations, expectations, prompts, themes and CA files can come from
 * someone else, so each is opened only when it is a regular file (links
 * followed), without ever blocking on a FIFO, and read with a stated cap:
 * `expectations: {file: /dev/zero}` is refused at once instead of growing
 * without bound. Every message names the file. */
#ifndef TCR_UTIL_READFILE_H
#define TCR_UTIL_READFILE_H

#include <stddef.h>
#include <sys/types.h>
#include "util/error.h"

struct strbuf;

/* The caps, one per kind of file, in one place so that the man page and
 * the code say the same. A configuration or a theme is a few kilobytes,
 * a prompt a few pages; an expectations file holds one record per task. */
#define READ_CAP_CONFIG       ((size_t)16 << 20)
#define READ_CAP_PROMPT       ((size_t)16 << 20)
#define READ_CAP_THEME        ((size_t)16 << 20)
#define READ_CAP_EXPECTATIONS ((size_t)1 << 30)
/* A program or script an exec scorer names, read to hash its content. */
#define READ_CAP_SCRIPT       ((size_t)1 << 30)
/* Read line by line, but held whole: a finished batch's answers (--batch-in). */
#define READ_CAP_BATCH        ((size_t)1 << 30)
/* Transcripts piped to standard input ("-"), held whole as a mapped file
 * is not; TCR_STDIN_MAX changes it (runs/dataset.c). */
#define READ_CAP_STDIN        ((size_t)1 << 30)

/* "a FIFO", "a device", "a folder", "a socket" or "not a file" for the
 * type bits of a st_mode that is not a regular file. */
const char *file_type_name(mode_t mode);

/* open(path, flags | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, mode) when path is,
 * or (with O_CREAT) becomes, a regular file: a path that is something else
 * is refused before it is opened (a device is never opened) and checked
 * again on the descriptor (it may have been replaced in between).
 * O_NONBLOCK is cleared before returning. Returns the descriptor, or -1
 * with "PATH: not a regular file (a FIFO)" or "PATH: <strerror>" in err. */
int open_regular(const char *path, int flags, mode_t mode, struct error *err);

/* Appends the whole regular file at path to sb; more than max bytes is an
 * error, "PATH: larger than N MB", found from its size before reading and
 * again while reading (a file that grows, a /proc file of size 0).
 * Returns 0, or -1 with "PATH: reason" in err. */
int read_regular_file(struct strbuf *sb, const char *path, size_t max, struct error *err);

/* "16 MB", "1 GB", "3000 bytes": a cap as the messages write it. */
void format_cap(size_t max, char *out, size_t outlen);

#endif
