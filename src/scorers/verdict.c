/* verdict.c - verdict helpers, scales, and running one configured scorer. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "scorers/scorer.h"

const char *scale_name(enum score_scale s)
{
	switch (s) {
	case SCALE_BINARY: return "binary";
	case SCALE_UNIT:   return "0..1";
	case SCALE_1TO5:   return "1..5";
	}
	return "?";
}

bool scale_accepts(enum score_scale s, double v)
{
	if (!isfinite(v))
		return false;
	switch (s) {
	case SCALE_BINARY: return v == 0 || v == 1;
	case SCALE_UNIT:   return v >= 0 && v <= 1;
	case SCALE_1TO5:   return v >= 1 && v <= 5 && v == floor(v);
	}
	return false;
}

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

void verdict_skip(struct verdict *v, const char *fmt, ...)
{
	verdict_clear(v);
	va_list ap;
	va_start(ap, fmt);
	v->message = vformat(fmt, ap);
	va_end(ap);
	v->status = VERDICT_SKIPPED;
}

void verdict_error(struct verdict *v, const char *fmt, ...)
{
	verdict_clear(v);
	va_list ap;
	va_start(ap, fmt);
	v->message = vformat(fmt, ap);
	va_end(ap);
	v->status = VERDICT_ERROR;
}

void verdict_ok(struct verdict *v, const struct scorer_conf *sc, double score, json_t *details)
{
	verdict_clear(v);
	v->status = VERDICT_OK;
	v->score = score;
	v->passed = score >= sc->threshold;
	v->details = details;
}

void scorer_run(const struct scorer_conf *sc, const struct run *r, json_t *expected,
                const char *expect_miss, struct verdict *out)
{
	memset(out, 0, sizeof(*out));
	char *unset = NULL;
	json_t *params = config_resolve_params(sc, r->record, expected, expect_miss, &unset);
	if (r->load_error)
		verdict_error(out, "run: %s", r->load_error);
	else
		sc->ops->score(sc, r, params, unset, out);
	json_decref(params);
	free(unset);
}
