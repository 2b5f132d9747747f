/* xalloc.c - allocation that ends the program with a message and status 3
 * instead of failing quietly or aborting. */
#include "util/xalloc.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static _Thread_local const char *cur_path;
static _Thread_local unsigned long cur_line;
static _Thread_local const char *cur_doing;
static void (*restore_hook)(void);
static atomic_flag dying = ATOMIC_FLAG_INIT;

void xalloc_input(const char *path, unsigned long line, const char *doing)
{
	cur_path = path;
	cur_line = line;
	cur_doing = doing;
}

void xalloc_on_die(void (*restore)(void))
{
	restore_hook = restore;
}

/* Decimal digits of v into buf (no allocation, no locale). */
static size_t put_ulong(char *buf, unsigned long v)
{
	char tmp[24];
	size_t n = 0;
	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (size_t i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	return n;
}

static size_t put_str(char *buf, size_t at, size_t cap, const char *s)
{
	size_t n = strlen(s);
	if (n > cap - at)
		n = cap - at;
	memcpy(buf + at, s, n);
	return at + n;
}

void xalloc_die(void)
{
	/* Another thread may run out at the same moment: one message. */
	if (atomic_flag_test_and_set(&dying))
		for (;;)
			pause();
	if (restore_hook)
		restore_hook();
	char msg[1200];
	size_t cap = sizeof msg - 1, n = put_str(msg, 0, cap, "tcreview: ");
	if (cur_path) {
		n = put_str(msg, n, cap, cur_path);
		if (cur_line && n + 24 < cap) {
			msg[n++] = ':';
			n += put_ulong(msg + n, cur_line);
		}
		n = put_str(msg, n, cap, ": ");
	}
	n = put_str(msg, n, cap, "out of memory");
	if (cur_path && cur_doing) {
		n = put_str(msg, n, cap, " while ");
		n = put_str(msg, n, cap, cur_doing);
	}
	msg[n++] = '\n';
	/* write(2), not stdio: no buffer to allocate, nothing else flushed
	 * (a half-written output line stays unwritten). */
	for (size_t off = 0; off < n;) {
		ssize_t w = write(2, msg + off, n - off);
		if (w <= 0)
			break;
		off += (size_t)w;
	}
	_exit(XALLOC_EXIT);
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);
	if (!p)
		xalloc_die();
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		xalloc_die();
	return p;
}

void *xrealloc(void *p, size_t size)
{
	void *q = realloc(p, size ? size : 1);
	if (!q)
		xalloc_die();
	return q;
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

void xalloc_advise_huge(void *p, size_t n)
{
	uintptr_t huge = (uintptr_t)2 << 20;
	uintptr_t from = ((uintptr_t)p + huge - 1) & ~(huge - 1);
	uintptr_t to = ((uintptr_t)p + n) & ~(huge - 1);
	if (to > from)
		madvise((void *)from, to - from, MADV_HUGEPAGE);
}

void xalloc_install(void)
{
	json_set_alloc_funcs(xmalloc, free);
}
