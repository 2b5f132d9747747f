/* record_field.c - a score the record already carries (tau-bench's reward,
 * Inspect's scores.NAME.value) turned into a verdict.
 *
 * The value at `path` is read on the configured scale (binary, 0..1, 1..5
 * or {min, max, pass}); text values go through `map` (Inspect's C/I/P/N).
 * The verdict's score is that value on its scale, which the entry keeps as
 * its own (scorer_span), so the screen, the labels and stats count on it:
 * a 1..5 record's levels are five. The pass mark is a custom scale's pass,
 * else the threshold's share of the span (default 0.5: binary's 1, 0..1's
 * 0.5, 1..5's 3). A scale given by reference ({from:}) may differ from run
 * to run, so the entry has none of its own: the score is then brought onto
 * 0..1 ((v - min) / (max - min)) and passes at the threshold. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scorers/params.h"
#include "scorers/scorer.h"
#include "util/jsonpath.h"
#include "util/strbuf.h"

static const struct param_spec rf_params[] = {
	{ .name = "path", .kind = PARAM_STRING, .flags = PARAM_REQUIRED, .help = "where the record carries its score, e.g. reward or scores.match.value" },
	{ .name = "scale", .kind = PARAM_ANY, .help = "binary, 0..1, 1..5 or {min, max, pass}", .deflt = "\"binary\"" },
	{ .name = "map", .kind = PARAM_OBJECT, .help = "text values to scores, e.g. {C: 1, I: 0}" },
	{ .name = NULL },
};

/* The scale a value is read on. */
struct rf_scale {
	const char *name;       /* "binary", "0..1", "1..5", "custom" */
	double lo, hi, pass;
	bool pass_given;        /* a custom scale's own pass */
};

/* The scale as verdict/scale.h knows it, for the one description of it. */
static struct scale rf_span(const struct rf_scale *s)
{
	if (strcmp(s->name, "binary") == 0)
		return scale_of(SCALE_BINARY);
	if (strcmp(s->name, "1..5") == 0)
		return scale_of(SCALE_1TO5);
	return (struct scale){ .kind = SCALE_UNIT, .lo = s->lo, .hi = s->hi };
}

/* On the scale by its rules: whole steps on an integer scale (binary,
 * 1..5, a custom 0..10), any number in range otherwise. */
static bool rf_on(const struct rf_scale *s, double v)
{
	struct scale span = rf_span(s);
	return scale_holds(&span, v);
}

static const char *rf_custom(const json_t *o, struct rf_scale *s)
{
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)o, k, v)
		if (strcmp(k, "min") && strcmp(k, "max") && strcmp(k, "pass"))
			return "scale: unknown key (expected min, max, pass)";
	json_t *mn = json_object_get(o, "min"), *mx = json_object_get(o, "max");
	json_t *ps = json_object_get(o, "pass");
	if (!json_is_number(mn) || !json_is_number(mx))
		return "scale: a custom scale needs numbers min and max";
	if (ps && !json_is_number(ps))
		return "scale: pass must be a number";
	*s = (struct rf_scale){ .name = "custom", .lo = json_number_value(mn),
	                        .hi = json_number_value(mx) };
	if (!(s->lo < s->hi))
		return "scale: min must be below max";
	s->pass = ps ? json_number_value(ps) : (s->lo + s->hi) / 2;
	s->pass_given = ps != NULL;
	if (s->pass < s->lo || s->pass > s->hi)
		return "scale: pass lies outside min..max";
	return NULL;
}

/* Reads the scale parameter (NULL: binary); returns NULL or a message. */
static const char *rf_scale_read(const json_t *v, struct rf_scale *s)
{
	const char *t = v ? json_string_value(v) : "binary";
	if (json_is_object(v))
		return rf_custom(v, s);
	if (!t)
		return "scale must be binary, 0..1, 1..5 or {min, max, pass}";
	if (strcmp(t, "binary") == 0)
		*s = (struct rf_scale){ .name = "binary", .lo = 0, .hi = 1, .pass = 1 };
	else if (strcmp(t, "0..1") == 0)
		*s = (struct rf_scale){ .name = "0..1", .lo = 0, .hi = 1, .pass = 0.5 };
	else if (strcmp(t, "1..5") == 0)
		*s = (struct rf_scale){ .name = "1..5", .lo = 1, .hi = 5, .pass = 3 };
	else
		return "unknown scale (expected binary, 0..1, 1..5 or {min, max, pass})";
	return NULL;
}

/* The lowest passing value on the scale: a custom pass, or the threshold's
 * share of the span, at the next whole step on an integer scale. */
static double rf_pass(const struct rf_scale *s, double threshold)
{
	struct scale span = rf_span(s);
	return scale_pass_mark(&span, s->pass_given ? s->pass : s->lo + threshold * (s->hi - s->lo));
}

static const char *rf_map_check(const json_t *map, const struct rf_scale *s)
{
	const char *k;
	json_t *v;
	if (map && !json_is_object(map))
		return "map must be a mapping of text values to scores";
	json_object_foreach((json_t *)map, k, v) {
		if (json_is_boolean(v) || json_is_null(v))
			continue;
		if (!json_is_number(v))
			return "map: each value must be a number or a boolean";
		if (!rf_on(s, json_number_value(v)))
			return "map: a value lies off the scale";
	}
	return NULL;
}

static const char *rf_path_check(const json_t *path)
{
	const char *why;
	if (!json_is_string(path))
		return "path must be a string";
	if (!jsonpath_valid(json_string_value(path), &why))
		return "path is not a valid path (e.g. reward, scores.match.value, info.x[0])";
	return NULL;
}

static const char *rf_check(json_t *lits)
{
	struct rf_scale s;
	const char *msg = rf_path_check(json_object_get(lits, "path"));
	if (!msg)
		msg = rf_scale_read(json_object_get(lits, "scale"), &s);
	if (!msg)
		msg = rf_map_check(json_object_get(lits, "map"), &s);
	return msg;
}

/* A number from a numeric string: the whole text, blanks around allowed. */
static bool rf_numeric(const char *t, double *out)
{
	char *end;
	while (*t == ' ' || *t == '\t')
		t++;
	if (!*t || !strchr("+-.0123456789", *t))
		return false;           /* no "inf", "nan", hex by the back door */
	double d = strtod(t, &end);
	while (*end == ' ' || *end == '\t')
		end++;
	if (*end || !isfinite(d) || strpbrk(t, "xX"))
		return false;
	*out = d;
	return true;
}

/* The value as a number: numbers, booleans, mapped or numeric strings.
 * Returns NULL or the reason; *mapped is set when map gave it. */
static const char *rf_number(const json_t *v, const json_t *map, double *out, bool *mapped)
{
	*mapped = false;
	if (json_is_number(v)) {
		*out = json_number_value(v);
		return NULL;
	}
	if (json_is_boolean(v)) {
		*out = json_is_true(v) ? 1 : 0;
		return NULL;
	}
	if (!json_is_string(v))
		return "is not a number, a boolean or a string";
	json_t *m = json_object_get(map, json_string_value(v));
	if (m && (json_is_number(m) || json_is_boolean(m))) {
		*out = json_is_number(m) ? json_number_value(m) : json_is_true(m);
		*mapped = true;
		return NULL;
	}
	if (rf_numeric(json_string_value(v), out))
		return NULL;
	return map ? "is a text value that map does not name" : "is a text value and no map is given";
}

/* The configuration checks, again, for parameters that were references. */
static bool rf_setup(json_t *params, struct rf_scale *s, struct verdict *out)
{
	const char *msg = rf_check(params);
	if (msg)
		verdict_error(out, "record-field: %s", msg);
	else
		rf_scale_read(json_object_get(params, "scale"), s);
	return msg == NULL;
}

static void rf_score(const struct scorer_conf *sc, const struct run *r, struct scorer_shared *sh,
                     json_t *params, const char *unset, struct verdict *out)
{
	(void)sh;
	struct rf_scale s;
	if (unset) {
		verdict_skip(out, "%s", unset);
		return;
	}
	if (!rf_setup(params, &s, out))
		return;
	const char *path = json_string_value(json_object_get(params, "path"));
	json_t *map = json_object_get(params, "map");
	json_t *v = jv_to_json(r->doc, run_value(r, path));
	if (!v) {
		/* Not a failure of the run: this record carries no such verdict
		 * (a folder mixing benchmarks), as a reference finding nothing. */
		verdict_skip(out, "record-field: the record has no %s", path);
		return;
	}
	char *raw = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
	double num = 0;
	bool mapped;
	const char *why = rf_number(v, map, &num, &mapped);
	struct scale own = rf_span(&s);
	if (!why && !scale_holds(&own, num))
		why = scale_levels(&own) ? "lies off the scale (whole steps only)" : "lies off the scale";
	if (why) {
		verdict_error(out, "record-field: %s = %.200s %s (scale %s: %g..%g)", path,
		              raw ? raw : "?", why, s.name, s.lo, s.hi);
		free(raw);
		json_decref(v);
		return;
	}
	json_t *d = json_object();
	json_object_set_new(d, "path", json_string(path));
	json_object_set_new(d, "value", v);
	if (mapped)
		json_object_set_new(d, "mapped", json_real(num));
	json_object_set_new(d, "scale", json_string(s.name));
	json_object_set_new(d, "min", json_real(s.lo));
	json_object_set_new(d, "max", json_real(s.hi));
	free(raw);
	if (sc->own_span) {
		/* configure read this scale and set the pass mark on it. */
		json_object_set_new(d, "pass", json_real(sc->threshold));
		verdict_ok(out, sc->threshold, num, d);
		return;
	}
	double span = s.hi - s.lo, pass = rf_pass(&s, sc->threshold);
	json_object_set_new(d, "pass", json_real(pass));
	verdict_ok(out, (pass - s.lo) / span, (num - s.lo) / span, d);
}

/* A literal scale (or none: binary) is the entry's own: its verdicts are
 * on it and its threshold becomes the pass mark on it. */
static int rf_configure(struct conf *x, struct scorer_conf *sc)
{
	(void)x;
	const struct param *p = scorer_param_find(sc, "scale");
	struct rf_scale s;
	if ((p && !p->literal) || rf_scale_read(p ? p->literal : NULL, &s))
		return 0;               /* by reference, or refused when scored */
	sc->threshold = rf_pass(&s, sc->threshold);
	sc->span = rf_span(&s);
	sc->own_span = true;
	return 0;
}

static void rf_explain(const json_t *d, struct strbuf *out)
{
	char *raw = json_dumps(json_object_get(d, "value"), JSON_ENCODE_ANY | JSON_COMPACT);
	strbuf_addf(out, "%s = %s", json_string_value(json_object_get(d, "path")), raw ? raw : "?");
	free(raw);
	if (json_object_get(d, "mapped"))
		strbuf_addf(out, ", mapped to %g", json_number_value(json_object_get(d, "mapped")));
	const char *name = json_string_value(json_object_get(d, "scale"));
	struct rf_scale s = { .name = name ? name : "custom",
	                      .lo = json_number_value(json_object_get(d, "min")),
	                      .hi = json_number_value(json_object_get(d, "max")) };
	struct scale span = rf_span(&s);
	char text[96];
	scale_describe_pass(&span, json_number_value(json_object_get(d, "pass")), text, sizeof text);
	strbuf_addf(out, "\nscale %s\n", text);
}

const struct scorer_ops scorer_record_field = {
	.type = "record-field",
	.summary = "a score the record already carries (a reward, an Inspect score), on its scale",
	.scale = SCALE_UNIT,
	.default_threshold = 0.5,
	.params = rf_params,
	.check = rf_check,
	.score = rf_score,
	.explain = rf_explain,
	.configure = rf_configure,
};
