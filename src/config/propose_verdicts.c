/* propose_verdicts.c - the verdicts the records already carry (a reward, a
 * score, Inspect's scores.NAME.value), each with the scale its values
 * suggest: binary, 0..1, 1..5, {min, max}, or a map for text values. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "propose_int.h"
#include "util/xalloc.h"

static const char *const verdict_keys[] = {
	"reward", "score", "success", "succeeded", "passed", "pass", "resolved", "correct",
	"is_correct", "accuracy", "solved", NULL,
};

/* Text values a verdict is known to use, and what they score. */
static const struct { const char *text; double score; } known_texts[] = {
	{ "C", 1 }, { "I", 0 }, { "P", 0.5 }, { "N", 0 },       /* Inspect's CORRECT .. NOANSWER */
	{ "correct", 1 }, { "incorrect", 0 }, { "pass", 1 }, { "passed", 1 }, { "fail", 0 },
	{ "failed", 0 }, { "true", 1 }, { "false", 0 }, { "yes", 1 }, { "no", 0 },
	{ "success", 1 }, { "failure", 0 }, { "resolved", 1 }, { "unresolved", 0 },
};

static bool verdict_like(const char *path)
{
	const char *k = prop_last_key(path);
	/* Inspect: scores.NAME.value */
	if (!strncmp(path, "scores.", 7) && !strcmp(k, "value") && strchr(path + 7, '.') == k - 1)
		return true;
	for (size_t i = 0; verdict_keys[i]; i++)
		if (!strcmp(k, verdict_keys[i]))
			return true;
	return false;
}

bool propose_verdict_path(const char *path)
{
	return verdict_like(path);
}

static bool known_text(const char *t, double *score)
{
	for (size_t i = 0; i < sizeof known_texts / sizeof known_texts[0]; i++)
		if (!strcasecmp(t, known_texts[i].text) &&
		    (strlen(t) > 1 || !strcmp(t, known_texts[i].text))) {
			*score = known_texts[i].score;
			return true;
		}
	return false;
}

static bool numeric_text(const char *t, double *v)
{
	char *end;
	if (!*t || !strchr("+-.0123456789", *t))
		return false;
	*v = strtod(t, &end);
	return !*end && isfinite(*v);
}

/* What one field's values call for. */
struct seen {
	double lo, hi;
	bool fractional, any_number;
	struct strbuf map;          /* "{C: 1, I: 0}" as it grows */
	struct strbuf unknown;      /* text values no map knows */
	bool more;
};

static void look(const struct prop_field *f, struct seen *s)
{
	*s = (struct seen){ .lo = f->lo, .hi = f->hi, .fractional = f->fractional,
	                    .any_number = f->nnum + f->nbool > 0, .more = f->more_texts };
	for (size_t i = 0; i < f->ntexts; i++) {
		double v;
		if (numeric_text(f->texts[i], &v)) {
			s->lo = fmin(s->lo, v);
			s->hi = fmax(s->hi, v);
			s->fractional = s->fractional || v != floor(v);
			s->any_number = true;
		} else if (known_text(f->texts[i], &v)) {
			strbuf_addstr(&s->map, s->map.len ? ", " : "{");
			prop_yaml_scalar(&s->map, f->texts[i]);
			strbuf_addf(&s->map, ": %g", v);
			s->fractional = s->fractional || v != floor(v);
		} else {
			strbuf_addstr(&s->unknown, s->unknown.len ? ", " : "");
			strbuf_addstr(&s->unknown, f->texts[i]);
		}
	}
	if (s->map.len)
		strbuf_addch(&s->map, '}');
}

/* The scale's YAML, or NULL with a note when none can be told. */
static char *scale_of(const struct seen *s, bool mapped, char **note)
{
	char buf[256];
	double lo = s->any_number ? s->lo : 0, hi = s->any_number ? s->hi : 1;
	if (mapped) {
		lo = fmin(lo, 0);
		hi = fmax(hi, 1);
	}
	if (lo >= 0 && hi <= 1)
		return xstrdup(s->fractional ? "0..1" : "binary");
	if (!s->fractional && lo >= 1 && hi <= 5)
		return xstrdup("1..5");
	double mn = fmin(lo, 0);
	if (!(hi > mn)) {
		snprintf(buf, sizeof buf, "every value seen is %g: no scale can be told from it", hi);
		*note = xstrdup(buf);
		return NULL;
	}
	snprintf(buf, sizeof buf, "{min: %g, max: %g}", mn, hi);
	snprintf(buf + 128, 128, "values seen from %g to %g; min and max are a guess, check them", lo, hi);
	*note = xstrdup(buf + 128);
	return xstrdup(buf);
}

/* "values seen: 0 to 1, C, I" for the comment. */
static char *seen_note(const struct prop_field *f, const struct seen *s)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, "values seen: ");
	if (s->any_number && s->lo == s->hi)
		strbuf_addf(&sb, "%g", s->lo);
	else if (s->any_number)
		strbuf_addf(&sb, "%g to %g", s->lo, s->hi);
	for (size_t i = 0, n = s->any_number; i < f->ntexts; i++) {
		double v;
		if (!numeric_text(f->texts[i], &v))
			strbuf_addf(&sb, "%s%s", n++ ? ", " : "", f->texts[i]);
	}
	return strbuf_detach(&sb);
}

static void propose(struct prop_ctx *x, const struct prop_field *f)
{
	struct seen s;
	look(f, &s);
	struct prop_verdict v = { .path = xstrdup(f->path), .nruns = f->present };
	if (s.unknown.len || s.more) {
		char buf[1200];
		snprintf(buf, sizeof buf, "%s holds text values no scale knows (%.900s%s): give "
		         "record-field a map of them, e.g. map: {PASS: 1, FAIL: 0}", f->path,
		         s.unknown.len ? s.unknown.buf : "", s.more ? ", ..." : "");
		v.note = xstrdup(buf);
	} else {
		v.scale = scale_of(&s, s.map.len > 0, &v.note);
		v.map = s.map.len ? strbuf_detach(&s.map) : NULL;
		v.proposed = v.scale != NULL;
		if (!v.note)
			v.note = seen_note(f, &s);
	}
	strbuf_release(&s.map);
	strbuf_release(&s.unknown);
	x->verdicts = xrealloc(x->verdicts, (x->nverdicts + 1) * sizeof *x->verdicts);
	x->verdicts[x->nverdicts++] = v;
}

/* Whether f and g hold the same value wherever both are there (reward and
 * info.reward_info.reward in tau-bench): one of them is enough. */
static bool same_values(const struct prop_input *in, const struct prop_field *f,
                        const struct prop_field *g)
{
	size_t both = 0;
	if (!f->vals || !g->vals)
		return false;
	for (size_t r = 0; r < in->nrecs; r++) {
		const char *a = f->vals[r], *b = g->vals[r];
		double x, y;
		if (!a || !b)
			continue;
		both++;
		bool nums = numeric_text(a, &x) && numeric_text(b, &y);
		if (nums ? x != y : strcmp(a, b) != 0)
			return false;
	}
	return both > 0;
}

static bool already(const struct prop_ctx *x, const struct prop_input *in, const struct prop_field *f)
{
	for (size_t i = 0; i < x->nverdicts; i++) {
		if (!strcmp(x->verdicts[i].path, f->path))
			return true;
		const struct prop_field *g = prop_field_find(in, x->verdicts[i].path);
		if (g && same_values(in, g, f))
			return true;
	}
	return false;
}

void prop_find_verdicts(struct prop_ctx *x)
{
	for (size_t i = 0; i < x->nin; i++) {
		const struct prop_input *in = &x->in[i];
		if (!in->nruns)
			continue;
		for (size_t k = 0; k < in->nfields; k++) {
			const struct prop_field *f = &in->fields[k];
			if (!verdict_like(f->path) || f->nobj || f->nlist || !f->present ||
			    already(x, in, f))
				continue;
			propose(x, f);
		}
	}
}
