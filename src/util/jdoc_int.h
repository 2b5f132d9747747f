/* jdoc_int.h - what jdoc.c (the C half of util/jdoc) asks of
 * jdoc_parse.cc (the simdjson walker), declared for both languages. */
#ifndef TCR_UTIL_JDOC_INT_H
#define TCR_UTIL_JDOC_INT_H

#include "util/jdoc.h"

#ifdef __cplusplus
extern "C" {
#endif

enum jdoc_fill_status {
	JDOC_FILL_OK = 0,
	JDOC_FILL_UTF8,         /* the bytes are not valid UTF-8: repair and retry */
	JDOC_FILL_ERROR,        /* anything else: msg and *pos tell what and where */
	JDOC_FILL_NOMEM,        /* the parser's memory could not be had: msg says so */
};

/* Fills d's nodes and strings from the len bytes at buf, which may be read
 * up to buf + cap (cap >= len + JDOC_PADDING). d->src and d->src_len are
 * set by the caller. On an error, msg gets simdjson's view of it and *pos
 * the best byte offset known. */
enum jdoc_fill_status jdoc_fill(struct jdoc *d, const char *buf, size_t len, size_t cap,
                                char *msg, size_t msglen, size_t *pos);

/* The double a number's text stands for, whatever the locale (HUGE_VAL
 * and its negative on overflow). */
double jdoc_text_real(const char *text, size_t len);

#ifdef __cplusplus
}
#endif

#endif
