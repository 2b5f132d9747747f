/* scale.c - the rules of each score scale, and reading a typed score against one. */
#include "verdict/scale.h"
#include "util/error.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *scale_name(enum score_scale s)
{
	switch (s) {
	case SCALE_BINARY: return "binary";
	case SCALE_UNIT:   return "0..1";
	case SCALE_1TO5:   return "1..5";
	}
	return "?";
}

const char *scale_range(enum score_scale s, double *lo, double *hi)
{
	switch (s) {
	case SCALE_BINARY: *lo = 0; *hi = 1; return "binary: 0..1";
	case SCALE_UNIT:   *lo = 0; *hi = 1; return "unit: 0..1";
	case SCALE_1TO5:   *lo = 1; *hi = 5; return "1to5: 1..5";
	}
	*lo = -INFINITY;
	*hi = INFINITY;
	return "any number";
}

struct scale scale_of(enum score_scale s)
{
	struct scale sc = { .kind = s };
	scale_range(s, &sc.lo, &sc.hi);
	return sc;
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

/* A span equal to the kind's own range follows the kind's rule exactly (a
 * binary scale takes 0 and 1, nothing between). */
static bool is_own_span(const struct scale *s)
{
	double lo, hi;
	scale_range(s->kind, &lo, &hi);
	return s->lo == lo && s->hi == hi;
}

int scale_levels(const struct scale *s)
{
	if (s->kind == SCALE_BINARY && is_own_span(s))
		return 2;
	if (!isfinite(s->lo) || !isfinite(s->hi) || s->lo != floor(s->lo) || s->hi != floor(s->hi) ||
	    !(s->lo < s->hi))
		return 0;
	/* 0..1 is the continuous unit scale, whatever wrote it. */
	if (s->kind != SCALE_1TO5 && s->lo == 0 && s->hi == 1)
		return 0;
	double k = s->hi - s->lo + 1;
	return k <= SCALE_MAX_LEVELS ? (int)k : 0;
}

bool scale_ordinal(const struct scale *s)
{
	return s->kind != SCALE_BINARY && scale_levels(s) >= 3;
}

bool scale_holds(const struct scale *s, double v)
{
	if (!isfinite(v))
		return false;
	if (is_own_span(s))
		return scale_accepts(s->kind, v);
	/* Integer scales (1..5, a custom 0..10) take whole numbers. */
	return v >= s->lo && v <= s->hi && (scale_levels(s) == 0 || v == floor(v));
}

double scale_pass_mark(const struct scale *s, double t)
{
	if (scale_levels(s) == 0)
		return t;
	double m = ceil(t - 1e-9);
	return m < s->lo ? s->lo : m > s->hi ? s->hi : m;
}

void scale_label(const struct scale *s, char *buf, size_t n)
{
	if (s->kind == SCALE_BINARY)
		snprintf(buf, n, "binary");
	else
		snprintf(buf, n, "%.15g..%.15g", s->lo, s->hi);
}

void scale_describe_pass(const struct scale *s, double t, char *buf, size_t n)
{
	char name[64];
	scale_label(s, name, sizeof name);
	if (s->kind == SCALE_BINARY)
		snprintf(buf, n, "%s, passes at %g", name, scale_pass_mark(s, t));
	else
		snprintf(buf, n, "%s, passes at >= %g", name, scale_pass_mark(s, t));
}

void scale_describe(const struct scale *s, char *buf, size_t n)
{
	if (is_own_span(s) && s->kind == SCALE_BINARY)
		snprintf(buf, n, "0 or 1");
	else
		snprintf(buf, n, "%g..%g", s->lo, s->hi);
}

/* A plain decimal number (strtod alone would take "inf", "nan" and hex). */
static bool parse_plain_number(const char *text, double *out)
{
	if (!text)
		return false;
	while (isspace((unsigned char)*text))
		text++;
	size_t n = strlen(text);
	while (n && isspace((unsigned char)text[n - 1]))
		n--;
	bool digit = false;
	for (size_t i = 0; i < n; i++) {
		char c = text[i];
		digit |= isdigit((unsigned char)c) != 0;
		if (!isdigit((unsigned char)c) && !strchr(".+-eE", c)) {
			digit = false;
			break;
		}
	}
	char buf[64];
	if (!digit || n >= sizeof buf)
		return false;
	memcpy(buf, text, n);
	buf[n] = '\0';
	char *end;
	double v = strtod(buf, &end);
	if (*end)
		return false;
	*out = v == 0 ? 0 : v;      /* no "-0" in the file */
	return true;
}

int scale_parse_score(const struct scale *s, const char *text, double *out, struct error *err)
{
	double v;
	if (!parse_plain_number(text, &v) || !scale_holds(s, v)) {
		char want[64];
		scale_describe(s, want, sizeof want);
		error_set(err, ERR_FAILED, "expected %s", want);
		return -1;
	}
	*out = v;
	return 0;
}
