/* rubrics.c - the table of rubrics, and what the configuration asks of the
 * judges: model prefixes, prompt checks, scales. One line per rubric. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "judge_int.h"
#include "util/strbuf.h"
#include "util/error.h"

const struct rubric_ops *const rubric_table[] = {
	&rubric_appropriateness,
	&rubric_1to5,
	&rubric_custom,
	&rubric_pairwise,
	NULL,
};

const struct rubric_ops *rubric_find(const char *name)
{
	for (size_t i = 0; rubric_table[i]; i++)
		if (strcmp(rubric_table[i]->name, name) == 0)
			return rubric_table[i];
	return NULL;
}

static bool in_list(const char *const *list, const char *s, size_t n)
{
	for (; list && *list; list++)
		if (strlen(*list) == n && memcmp(*list, s, n) == 0)
			return true;
	return false;
}

static void list_join(struct strbuf *sb, const char *const *list)
{
	for (size_t i = 0; list && list[i]; i++) {
		if (sb->len)
			strbuf_addstr(sb, ", ");
		strbuf_addstr(sb, list[i]);
	}
}

int rubric_check_prompt(const struct rubric_ops *ops, const char *text, int *line, int *col,
                        struct error *err)
{
	struct prompt_doc doc;
	static const char *const system[] = { "system", NULL };
	if (prompt_parse(text, &doc, line, col, err) < 0)
		return -1;

	for (size_t i = 0; i < doc.n; i++) {
		const struct prompt_section *sec = &doc.sec[i];
		/* A file without headers is checked below for the sections it lacks. */
		if (sec->header_line && strcmp(sec->name, "system") != 0 &&
		    !in_list(ops->sections, sec->name, strlen(sec->name))) {
			struct strbuf sb = STRBUF_INIT;
			list_join(&sb, system);
			list_join(&sb, ops->sections);
			*line = sec->header_line;
			*col = 5;
			error_set(err, ERR_FAILED, "unknown section '%s' for rubric '%s' (expected: %s)", sec->name,
			         ops->name, sb.buf);
			strbuf_release(&sb);
			return -1;
		}
		size_t pos = 0, at, nlen;
		const char *name;
		while (prompt_next_var(sec->text, sec->len, &pos, &at, &name, &nlen)) {
			if (in_list(judge_common_vars, name, nlen) || in_list(ops->vars, name, nlen))
				continue;
			struct strbuf sb = STRBUF_INIT;
			list_join(&sb, judge_common_vars);
			list_join(&sb, ops->vars);
			prompt_position(sec, at, line, col);
			error_set(err, ERR_FAILED, "unknown placeholder '{{%.*s}}' (known: %s)", (int)nlen, name,
			         sb.buf);
			strbuf_release(&sb);
			return -1;
		}
	}
	for (const char *const *s = ops->sections; s && *s; s++) {
		if (prompt_find(&doc, *s))
			continue;
		*line = *col = 0;
		if (doc.n == 1 && strcmp(doc.sec[0].name, "user") == 0 && strcmp(*s, "user") != 0)
			error_set(err, ERR_FAILED, "no '=== %s' section (rubric '%s' needs sections; the file has "
			         "no '=== NAME' header)", *s, ops->name);
		else
			error_set(err, ERR_FAILED, "no '=== %s' section (rubric '%s' needs it)", *s, ops->name);
		return -1;
	}
	return 0;
}

/* ---- scales ------------------------------------------------------------- */

enum score_scale judge_scale(const struct judge_conf *j)
{
	if (j->rubric != &rubric_custom)
		return j->rubric->scale;
	if (j->scale_min == 1 && j->scale_max == 5)
		return SCALE_1TO5;
	if (j->scale_min == 0 && j->scale_max == 1)
		return SCALE_UNIT;
	/* Our scales cannot say 0..10; overrides are checked with
	 * judge_scale_accepts, which knows the real range. */
	return SCALE_UNIT;
}

struct scale judge_span(const struct judge_conf *j)
{
	struct scale s = scale_of(j->rubric->scale);
	/* The configuration sets the range of every judge it reads; a judge
	 * made by hand without one keeps its rubric's. */
	if (j->scale_max > j->scale_min) {
		s.lo = j->scale_min;
		s.hi = j->scale_max;
	}
	return s;
}

const char *judge_reason(const struct judge_conf *j, const struct verdict *v)
{
	if (!j || !j->rubric->reason_key || !v)
		return NULL;
	const char *r = json_string_value(json_object_get(v->details, j->rubric->reason_key));
	return r && r[0] ? r : NULL;
}

void judge_explain(const struct judge_conf *j, const struct verdict *v, struct strbuf *out)
{
	if (v->message)
		strbuf_addf(out, "%s: %s\n", verdict_status_name(v->status), v->message);
	const char *reason = judge_reason(j, v);
	if (reason)
		strbuf_addf(out, "reason: %s\n", reason);
	if (j->rubric->explain)
		j->rubric->explain(v->details, out);
	/* The job keeps an unusable answer whatever the rubric (job.c). */
	const char *raw = json_string_value(json_object_get(v->details, "raw_reply"));
	if (raw)
		strbuf_addf(out, "raw reply: %s\n", raw);
}

bool judge_scale_accepts(const struct judge_conf *j, double v)
{
	struct scale s = judge_span(j);
	return scale_holds(&s, v);
}
