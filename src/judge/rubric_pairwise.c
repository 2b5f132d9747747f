/* rubric_pairwise.c - which of two runs of one task is better: the base
 * (shown as run A), the candidate (run B), a tie, or both bad.
 *
 * The model answers by position ("A", "B", "tie", "both-bad"), read
 * strictly: any other answer is unusable, asked again once by the job and
 * then an error verdict with the raw reply, never a guess. Models favour
 * one position, so a judge with `swap: true` asks a second time with the
 * runs the other way round and maps that answer back; when the two orders
 * disagree the verdict is a tie with `orders_disagree` set and a reason
 * that says so. The verdict's score is 1 when the candidate is better,
 * 0.5 for a tie and 0 otherwise; details' "better" is what counts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge_int.h"
#include "judge/judge_conf.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/error.h"

/* Each run's text in the prompt: about the single-run view's size, so two
 * runs fit where one did. */
#define SIDE_MAX 24000

static const char schema_json[] =
	"{\"type\": \"object\","
	" \"properties\": {"
	"  \"reason\": {\"type\": \"string\"},"
	"  \"better\": {\"type\": \"string\", \"enum\": [\"A\", \"B\", \"tie\", \"both-bad\"]}},"
	" \"required\": [\"reason\", \"better\"],"
	" \"additionalProperties\": false}";

struct pair {
	char *task;                 /* the user's request, as run A shows it */
	char *side[2];              /* the base's and the candidate's text */
	char *out[2];               /* their final answers */
	char *id[2];
	bool swap;
	char *system[2], *user[2];  /* step 0: base first; step 1: candidate first */
	json_t *schema;
	enum preference got[2];     /* each step's answer, as base/cand */
	char *reason[2];
};

/* A run as the prompt shows it: its messages, then its calls with their
 * arguments and results, cut at SIDE_MAX on a character boundary. */
static char *side_text(const struct judge_view *v)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "Messages:\n%s\n\nTool calls with their results:\n%s", v->conversation,
	            v->tool_calls);
	if (sb.len > SIDE_MAX) {
		size_t n = SIDE_MAX;
		while (n && ((unsigned char)sb.buf[n] & 0xc0) == 0x80)
			n--;
		sb.len = n;
		sb.buf[n] = '\0';
		strbuf_addstr(&sb, "\n... (shortened)");
	}
	return strbuf_detach(&sb);
}

static const char *const pair_vars[] = {
	"task", "run_a", "run_b", "run_a_id", "run_b_id", "output_a", "output_b", NULL,
};

/* The prompt of one order: step 0 shows the base as run A, step 1 the candidate. */
static void render(struct pair *p, const struct judge_conf *j, const struct judge_view *va,
                   int step)
{
	int a = step, b = 1 - step;
	struct prompt_var vars[JUDGE_VIEW_NVARS + 7];
	size_t n = judge_view_vars(va, vars);
	vars[n++] = (struct prompt_var){ "task", p->task };
	vars[n++] = (struct prompt_var){ "run_a", p->side[a] };
	vars[n++] = (struct prompt_var){ "run_b", p->side[b] };
	vars[n++] = (struct prompt_var){ "run_a_id", p->id[a] };
	vars[n++] = (struct prompt_var){ "run_b_id", p->id[b] };
	vars[n++] = (struct prompt_var){ "output_a", p->out[a] };
	vars[n++] = (struct prompt_var){ "output_b", p->out[b] };
	p->system[step] = judge_render(j, "system", vars, n);
	p->user[step] = judge_render(j, "user", vars, n);
}

static void *pair_start(const struct judge_conf *j, const struct run *ra, const struct run *rb,
                        char *skip, size_t skiplen)
{
	(void)skip;
	(void)skiplen;
	struct pair *p = xcalloc(1, sizeof *p);
	struct judge_view v[2];
	judge_view_init(&v[0], j, ra, NULL, NULL);
	judge_view_init(&v[1], j, rb, NULL, NULL);
	p->task = xstrdup(v[0].input[0] ? v[0].input : v[1].input);
	for (int i = 0; i < 2; i++) {
		p->side[i] = side_text(&v[i]);
		p->out[i] = xstrdup(v[i].output);
		p->id[i] = xstrdup(v[i].run_id);
	}
	p->swap = j->swap;
	render(p, j, &v[0], 0);
	if (p->swap)
		render(p, j, &v[0], 1);
	judge_view_free(&v[0]);
	judge_view_free(&v[1]);
	p->schema = json_loads(schema_json, 0, NULL);
	return p;
}

/* Refused: a pairwise judge is never asked about one run. */
static void *pair_start_one(const struct judge_conf *j, const struct run *r, json_t *expected,
                            const char *examples, char *skip, size_t skiplen)
{
	(void)j, (void)r, (void)expected, (void)examples;
	snprintf(skip, skiplen, "a pairwise judge compares two runs; it does not judge one");
	return NULL;
}

static bool pair_prompt(void *st, int step, struct judge_prompt *out)
{
	struct pair *p = st;
	if (step > (p->swap ? 1 : 0))
		return false;
	out->system = p->system[step];
	out->user = p->user[step] ? p->user[step] : "";
	out->schema = p->schema;
	out->schema_name = "pairwise_preference";
	out->structured = true;
	return true;
}

/* The answer by position, read strictly; -1 with the reason otherwise. */
static int read_position(const char *text, enum preference *pos, const char **reason,
                         json_t **obj, struct error *err)
{
	static const char *const names[] = { "A", "B", "tie", "both-bad" };
	static const enum preference prefs[] = { PREF_BASE, PREF_CAND, PREF_TIE, PREF_BOTH_BAD };
	json_t *o = judge_reply_json(text);
	if (!o)
		return error_set(err, ERR_FAILED, "no JSON object in the answer");
	*obj = o;
	json_t *r = json_object_get(o, "reason");
	json_t *b = json_object_get(o, "better");
	if (r && !json_is_string(r))
		return error_set(err, ERR_FAILED, "reason is not a string");
	if (!json_is_string(b))
		return error_set(err, ERR_FAILED, "no \"better\" (one of \"A\", \"B\", \"tie\", "
		                 "\"both-bad\") in the answer");
	for (size_t i = 0; i < 4; i++)
		if (!strcmp(json_string_value(b), names[i])) {
			*pos = prefs[i];
			*reason = r ? json_string_value(r) : "";
			return 0;
		}
	return error_set(err, ERR_FAILED, "\"better\" is \"%.40s\", not one of \"A\", \"B\", \"tie\", "
	                 "\"both-bad\"", json_string_value(b));
}

static int pair_absorb(void *st, int step, const char *text, struct error *err)
{
	struct pair *p = st;
	enum preference pos = PREF_NONE;
	const char *reason = NULL;
	json_t *o = NULL;
	int rc = read_position(text, &pos, &reason, &o, err);
	if (rc == 0) {
		/* Step 1 showed the candidate as A: its answer is mapped back. */
		p->got[step] = step == 1 ? judge_pair_flip(pos) : pos;
		free(p->reason[step]);
		p->reason[step] = judge_trim_dup(reason);
	}
	json_decref(o);
	return rc;
}

static double pair_score(enum preference pref)
{
	return pref == PREF_CAND ? 1 : pref == PREF_TIE ? 0.5 : 0;
}

static void pair_finish(void *st, struct verdict *out, const struct judge_conf *j)
{
	struct pair *p = st;
	json_t *d = json_object();
	enum preference better = p->got[0];
	struct strbuf why = STRBUF_INIT;
	strbuf_addstr(&why, p->reason[0] ? p->reason[0] : "");
	if (p->swap) {
		json_t *answers = json_array();
		json_array_append_new(answers, json_string(annot_preference_name(p->got[0])));
		json_array_append_new(answers, json_string(annot_preference_name(p->got[1])));
		json_object_set_new(d, "answers", answers);
		bool disagree = p->got[0] != p->got[1];
		json_object_set_new(d, "orders_disagree", json_boolean(disagree));
		if (disagree) {
			better = PREF_TIE;
			strbuf_reset(&why);
			strbuf_addf(&why, "the two orders disagreed: shown base first, the judge said %s; "
			            "shown the candidate first, %s", annot_preference_name(p->got[0]),
			            annot_preference_name(p->got[1]));
		}
	}
	json_object_set_new(d, "better", json_string(annot_preference_name(better)));
	json_t *reason = json_string(why.buf ? why.buf : "");
	json_object_set_new(d, "reason", reason ? reason : json_string(""));
	json_object_set_new(d, "run", json_string(p->id[0]));
	json_object_set_new(d, "other", json_string(p->id[1]));
	json_object_set_new(d, "prompt", json_string(p->user[0] ? p->user[0] : ""));
	strbuf_release(&why);
	verdict_ok(out, j->threshold, pair_score(better), d);
}

static void pair_free(void *st)
{
	struct pair *p = st;
	free(p->task);
	for (int i = 0; i < 2; i++) {
		free(p->side[i]);
		free(p->out[i]);
		free(p->id[i]);
		free(p->system[i]);
		free(p->user[i]);
		free(p->reason[i]);
	}
	json_decref(p->schema);
	free(p);
}

static void pair_explain(const json_t *details, struct strbuf *out)
{
	const char *better = json_string_value(json_object_get(details, "better"));
	if (better)
		strbuf_addf(out, "better: %s\n", better);
	if (json_is_true(json_object_get(details, "orders_disagree")))
		strbuf_addstr(out, "the answers in the two orders disagreed\n");
}

enum preference judge_pair_answer(const struct verdict *v)
{
	enum preference p = PREF_NONE;
	if (!v || v->status != VERDICT_OK)
		return PREF_NONE;
	const char *name = json_string_value(json_object_get(v->details, "better"));
	if (!annot_preference_from_name(name, &p))
		return PREF_NONE;
	return p;
}

enum preference judge_pair_flip(enum preference p)
{
	return p == PREF_BASE ? PREF_CAND : p == PREF_CAND ? PREF_BASE : p;
}

bool judge_is_pairwise(const struct judge_conf *j)
{
	return j && j->rubric && j->rubric->pairwise;
}

void judges_take_pairwise(struct judge_conf **list, size_t *n, struct judge_conf **pairs,
                          size_t *npairs)
{
	size_t kept = 0, moved = 0;
	for (size_t i = 0; i < *n; i++)
		moved += judge_is_pairwise(&(*list)[i]);
	if (!moved)
		return;
	*pairs = xrealloc(*pairs, (*npairs + moved) * sizeof **pairs);
	for (size_t i = 0; i < *n; i++) {
		if (judge_is_pairwise(&(*list)[i]))
			(*pairs)[(*npairs)++] = (*list)[i];
		else
			(*list)[kept++] = (*list)[i];
	}
	*n = kept;
}

static const char *const pair_sections[] = { "user", NULL };

const struct rubric_ops rubric_pairwise = {
	.name = "pairwise",
	.summary = "which of two runs of one task is better: base, candidate, tie or both bad",
	.scale = SCALE_UNIT,
	.default_threshold = 1,
	.prompt_file = "pairwise.txt",
	.start = pair_start_one,
	.prompt = pair_prompt,
	.absorb = pair_absorb,
	.finish = pair_finish,
	.free = pair_free,
	.answer = NULL,
	.sections = pair_sections,
	.vars = pair_vars,
	.reason_key = "reason",
	.explain = pair_explain,
	.pairwise = true,
	.start_pair = pair_start,
};
