/* rubric_custom.c - a judge with the user's own prompt and scale.
 *
 * The prompt file is a template (prompt.h) with the common placeholders
 * and {{min}}, {{max}}, {{pass}}; the judge must answer {score, reason}
 * with the score on the configured scale. A score off the scale is an
 * unusable answer, asked again once like any other. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge_int.h"
#include "util/jsonw.h"
#include "util/xalloc.h"
#include "util/error.h"

struct custom {
	struct judge_view view;
	char *system;
	char *user;
	json_t *schema;
	double score;
	char *reason;
	double min, max;
	bool whole;                 /* an integer scale (1..5, 0..10): whole steps only */
};

static char *number_text(double d)
{
	struct strbuf sb = STRBUF_INIT;
	jsonw_number(&sb, d);
	return strbuf_detach(&sb);
}

static json_t *custom_schema(const struct judge_conf *j, bool whole)
{
	struct strbuf desc = STRBUF_INIT;
	strbuf_addstr(&desc, "from ");
	jsonw_number(&desc, j->scale_min);
	strbuf_addstr(&desc, " to ");
	jsonw_number(&desc, j->scale_max);
	json_t *s = json_pack("{s:s, s:{s:{s:s, s:s}, s:{s:s}}, s:[s, s], s:b}",
	                      "type", "object",
	                      "properties",
	                      "score", "type", whole ? "integer" : "number", "description", desc.buf,
	                      "reason", "type", "string",
	                      "required", "score", "reason",
	                      "additionalProperties", 0);
	strbuf_release(&desc);
	return s;
}

static bool template_uses(const struct judge_conf *j, const char *name)
{
	struct prompt_doc doc;
	int line, col;
	struct error err = {0};
	if (!j->prompt_text || prompt_parse(j->prompt_text, &doc, &line, &col, &err) < 0)
		return false;
	return prompt_uses(prompt_find(&doc, "system"), name) ||
	       prompt_uses(prompt_find(&doc, "user"), name);
}

static void *custom_start(const struct judge_conf *j, const struct run *r, json_t *expected,
                          const char *examples, char *skip, size_t skiplen)
{
	if (!expected && template_uses(j, "expected")) {
		snprintf(skip, skiplen, "the prompt uses {{expected}} but this run has no expectation");
		return NULL;
	}
	struct custom *a = xcalloc(1, sizeof *a);
	a->min = j->scale_min;
	a->max = j->scale_max;
	struct scale span = judge_span(j);
	a->whole = scale_levels(&span) > 0;
	judge_view_init(&a->view, j, r, expected, examples);
	char *min = number_text(j->scale_min), *max = number_text(j->scale_max);
	char *pass = number_text(j->threshold);
	struct prompt_var vars[JUDGE_VIEW_NVARS + 3];
	size_t n = judge_view_vars(&a->view, vars);
	vars[n++] = (struct prompt_var){ "min", min };
	vars[n++] = (struct prompt_var){ "max", max };
	vars[n++] = (struct prompt_var){ "pass", pass };
	a->system = judge_render(j, "system", vars, n);
	a->user = judge_render(j, "user", vars, n);
	a->schema = custom_schema(j, a->whole);
	free(min);
	free(max);
	free(pass);
	return a;
}

static bool custom_prompt(void *st, int step, struct judge_prompt *out)
{
	struct custom *a = st;
	if (step > 0)
		return false;
	out->system = a->system;
	out->user = a->user ? a->user : "";
	out->schema = a->schema;
	out->schema_name = "score";
	out->structured = true;
	return true;
}

static int custom_absorb(void *st, int step, const char *text, struct error *err)
{
	struct custom *a = st;
	json_t *o = judge_reply_json(text);
	(void)step;
	if (!o)
		return error_set(err, ERR_FAILED, "no JSON object in the answer");
	json_t *score = json_object_get(o, "score"), *reason = json_object_get(o, "reason");
	int rc = 0;
	if (!score) {
		rc = error_set(err, ERR_FAILED, "missing field score");
	} else if (!json_is_number(score)) {
		rc = error_set(err, ERR_FAILED, "score is not a number");
	} else if (json_number_value(score) < a->min || json_number_value(score) > a->max) {
		struct strbuf sb = STRBUF_INIT;
		jsonw_number(&sb, json_number_value(score));
		strbuf_addstr(&sb, " is outside the scale ");
		jsonw_number(&sb, a->min);
		strbuf_addstr(&sb, "..");
		jsonw_number(&sb, a->max);
		rc = error_set(err, ERR_FAILED, "score %s", sb.buf);
		strbuf_release(&sb);
	} else if (a->whole && json_number_value(score) != floor(json_number_value(score))) {
		struct strbuf sb = STRBUF_INIT;
		jsonw_number(&sb, json_number_value(score));
		rc = error_set(err, ERR_FAILED, "score %s is not a whole step of the scale %g..%g", sb.buf,
		               a->min, a->max);
		strbuf_release(&sb);
	} else if (reason && !json_is_string(reason)) {
		rc = error_set(err, ERR_FAILED, "reason is not a string");
	} else {
		a->score = json_number_value(score);
		free(a->reason);
		a->reason = judge_trim_dup(reason ? json_string_value(reason) : "");
	}
	json_decref(o);
	return rc;
}

static void custom_finish(void *st, struct verdict *out, const struct judge_conf *j)
{
	struct custom *a = st;
	json_t *d = json_object();
	json_object_set_new(d, "score", json_real(a->score));
	json_t *reason = json_string(a->reason ? a->reason : "");
	json_object_set_new(d, "reason", reason ? reason : json_string(""));
	json_object_set_new(d, "scale", json_pack("{s:f, s:f, s:f}", "min", j->scale_min, "max",
	                                          j->scale_max, "pass", j->threshold));
	json_object_set_new(d, "prompt", json_string(a->user ? a->user : ""));
	verdict_ok(out, j->threshold, a->score, d);
}

static void custom_free(void *st)
{
	struct custom *a = st;
	judge_view_free(&a->view);
	free(a->system);
	free(a->user);
	free(a->reason);
	json_decref(a->schema);
	free(a);
}

/* A label as the answer: {score, reason}, the score on the judge's scale;
 * a label without a reason that is the judge's score takes the judge's. */
static json_t *custom_answer(void *st, double score, const char *reason,
                             const struct verdict *machine, struct error *err)
{
	struct custom *a = st;
	const char *mine = machine && machine->score == score
	                 ? json_string_value(json_object_get(machine->details, "reason")) : NULL;
	if (!reason[0] && mine)
		reason = mine;
	if (score < a->min || score > a->max || (a->whole && score != floor(score))) {
		error_set(err, ERR_FAILED, "a label of %g is %s the scale %g..%g", score,
		          a->whole && score >= a->min && score <= a->max ? "not a whole step of"
		                                                         : "outside", a->min, a->max);
		return NULL;
	}
	json_t *o = json_pack("{s:f, s:s}", "score", score, "reason", reason);
	if (!o)
		error_set(err, ERR_FAILED, "the reason is not valid UTF-8");
	return o;
}

static const char *const custom_sections[] = { "user", NULL };
static const char *const custom_vars[] = { "min", "max", "pass", NULL };

const struct rubric_ops rubric_custom = {
	.name = "custom",
	.summary = "your own prompt and scale; the judge answers {score, reason}",
	.scale = SCALE_UNIT,        /* the configured scale decides; see judge_scale() */
	.default_threshold = 0.5,
	.prompt_file = NULL,
	.start = custom_start,
	.prompt = custom_prompt,
	.absorb = custom_absorb,
	.finish = custom_finish,
	.free = custom_free,
	.answer = custom_answer,
	.sections = custom_sections,
	.vars = custom_vars,
	.reason_key = "reason",
};
