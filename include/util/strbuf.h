/* strbuf.h - growable byte buffer for building output and messages. */
#ifndef TCR_UTIL_STRBUF_H
#define TCR_UTIL_STRBUF_H

#include <stddef.h>

struct strbuf {
	char  *buf;     /* always NUL-terminated once anything was added */
	size_t len;
	size_t cap;
};

#define STRBUF_INIT { NULL, 0, 0 }

void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_add(struct strbuf *sb, const char *data, size_t n);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, char c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void strbuf_reset(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);
char *strbuf_detach(struct strbuf *sb);   /* caller frees; never NULL */

#endif
