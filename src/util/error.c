/* error.c - the one error type: filling a kind and a message, the path a
 * loader's message opens with measured as it is set. */
#include "util/error.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A message cut at the fixed size says so at its end. */
static void mark_cut(struct error *e, int n)
{
	if (n >= (int)sizeof e->msg)
		memcpy(e->msg + sizeof e->msg - sizeof ERROR_CUT, ERROR_CUT, sizeof ERROR_CUT);
}

int error_vset(struct error *e, enum error_kind kind, const char *fmt, va_list ap)
{
	if (!e)
		return -1;
	e->kind = kind;
	e->lead = 0;
	e->path_depth = 0;
	e->path_at = 0;
	int n = vsnprintf(e->msg, sizeof e->msg, fmt, ap);
	if (n < 0)
		e->msg[0] = '\0';
	mark_cut(e, n);
	return -1;
}

int error_set(struct error *e, enum error_kind kind, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	error_vset(e, kind, fmt, ap);
	va_end(ap);
	return -1;
}

/* The field path before the first ": ", measured: how many names and
 * indexes it has and their indexes' sum; a message that opens with words
 * measures 0. */
static void measure_path(struct error *e)
{
	const char *msg = e->msg;
	const char *colon = strstr(msg, ": ");
	if (!colon || colon == msg)
		return;
	unsigned segs = 0;
	unsigned long sum = 0;
	bool in_name = false;
	for (const char *p = msg; p < colon; p++) {
		if (*p == '[') {
			char *end;
			unsigned long n = strtoul(p + 1, &end, 10);
			if (end == p + 1 || *end != ']' || end > colon)
				return;
			segs++;
			sum += n;
			p = end;
			in_name = false;
		} else if (*p == '.') {
			in_name = false;
		} else if (isalnum((unsigned char)*p) || strchr("_$@-", *p)) {
			if (!in_name)
				segs++;
			in_name = true;
		} else {
			return;             /* a sentence, not a path */
		}
	}
	if (segs && e->kind == ERR_MISSING)
		segs--;
	e->path_depth = segs;
	e->path_at = sum;
}

int error_vat(struct error *e, enum error_kind kind, const char *fmt, va_list ap)
{
	if (!e)
		return -1;
	error_vset(e, kind, fmt, ap);
	measure_path(e);
	return -1;
}

int error_at(struct error *e, enum error_kind kind, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	error_vat(e, kind, fmt, ap);
	va_end(ap);
	return -1;
}

int error_prefix(struct error *e, const char *fmt, ...)
{
	if (!e)
		return -1;
	char head[ERROR_MSG_MAX];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(head, sizeof head, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	size_t hl = strlen(head), ml = strlen(e->msg);
	if (hl >= sizeof e->msg)
		hl = sizeof e->msg - 1;
	size_t keep = ml < sizeof e->msg - 1 - hl ? ml : sizeof e->msg - 1 - hl;
	memmove(e->msg + hl, e->msg, keep);
	memcpy(e->msg, head, hl);
	e->msg[hl + keep] = '\0';
	e->lead = (unsigned)(e->lead + hl > sizeof e->msg - 1 ? sizeof e->msg - 1 : e->lead + hl);
	if ((size_t)n + ml >= sizeof e->msg)
		mark_cut(e, (int)sizeof e->msg);
	if (e->kind == ERR_NONE)
		e->kind = ERR_FAILED;
	return -1;
}

int error_append(struct error *e, const char *fmt, ...)
{
	if (!e)
		return -1;
	size_t n = strlen(e->msg);
	va_list ap;
	va_start(ap, fmt);
	int m = vsnprintf(e->msg + n, sizeof e->msg - n, fmt, ap);
	va_end(ap);
	if (m < 0)
		e->msg[n] = '\0';
	else
		mark_cut(e, (int)n + m);
	return -1;
}

int error_copy(struct error *e, const struct error *src)
{
	if (!e)
		return -1;
	if (!src)
		error_clear(e);
	else if (e != src)
		*e = *src;
	return -1;
}

void error_clear(struct error *e)
{
	if (!e)
		return;
	e->kind = ERR_NONE;
	e->lead = 0;
	e->path_depth = 0;
	e->path_at = 0;
	e->msg[0] = '\0';
}
