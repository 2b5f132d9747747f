/* xalloc.h - allocation that cannot fail quietly, and error messages into
 * a caller's buffer. Running out of memory ends the program with a message:
 * nothing here can do better, and a half-built run or decision is worse. */
#ifndef TCR_UTIL_XALLOC_H
#define TCR_UTIL_XALLOC_H

#include <stddef.h>

void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* snprintf into err (which may be NULL or of size 0). */
void set_err(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
