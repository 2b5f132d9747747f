/* verdict.c - making, naming and clearing verdicts. */
#include "verdict/verdict.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *verdict_status_name(enum verdict_status st)
{
	switch (st) {
	case VERDICT_OK:      return "ok";
	case VERDICT_SKIPPED: return "skipped";
	case VERDICT_ERROR:   return "error";
	}
	return "?";
}

void verdict_clear(struct verdict *v)
{
	json_decref(v->details);
	free(v->message);
	memset(v, 0, sizeof(*v));
}

static char *vformat(const char *fmt, va_list ap)
{
	char *s = NULL;
	if (vasprintf(&s, fmt, ap) < 0)
		return NULL;
	return s;
}

static void vset(struct verdict *v, enum verdict_status st, const char *fmt, va_list ap)
{
	verdict_clear(v);
	v->message = vformat(fmt, ap);
	v->status = st;
}

void verdict_skip(struct verdict *v, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vset(v, VERDICT_SKIPPED, fmt, ap);
	va_end(ap);
}

void verdict_error(struct verdict *v, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vset(v, VERDICT_ERROR, fmt, ap);
	va_end(ap);
}

void verdict_error_from(struct verdict *v, const char *lead, const char *fmt, ...)
{
	verdict_clear(v);
	va_list ap;
	va_start(ap, fmt);
	char *cause = vformat(fmt, ap);
	va_end(ap);
	if (asprintf(&v->message, "%s%s", lead, cause ? cause : "") < 0)
		v->message = NULL;
	else
		v->lead = strlen(lead);
	free(cause);
	v->status = VERDICT_ERROR;
}

const char *verdict_cause(const struct verdict *v)
{
	if (!v->message)
		return "";
	return v->message + (v->lead <= strlen(v->message) ? v->lead : 0);
}

void verdict_copy(struct verdict *dst, const struct verdict *src)
{
	verdict_clear(dst);
	dst->status = src->status;
	dst->score = src->score;
	dst->passed = src->passed;
	dst->details = src->details ? json_deep_copy(src->details) : NULL;
	if (src->message) {
		dst->message = strdup(src->message);
		dst->lead = dst->message ? src->lead : 0;
	}
}

void verdict_ok(struct verdict *v, double threshold, double score, json_t *details)
{
	verdict_clear(v);
	v->status = VERDICT_OK;
	v->score = score;
	v->passed = score >= threshold;
	v->details = details;
}
