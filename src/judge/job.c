/* job.c - one judge on one run: the rubric's requests in turn, one retry
 * for an unusable answer, then a verdict.
 *
 * The job knows nothing of HTTP: the client asks it for the next prompt
 * and hands back the answer, so the whole state machine is testable with
 * canned replies. What is the same for every rubric lives here: the schema
 * written into the prompt for providers without structured output, the
 * retry that spells the schema out, token accounting, and the fields every
 * verdict carries (model, prompt hash, usage, and the raw reply when the
 * answer could not be used). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge_int.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/error.h"

struct judge_job {
	const struct judge_conf *j;
	const struct rubric_ops *ops;
	void *st;                   /* the rubric's state; NULL when skipped at once */
	int step;
	int attempt;                /* 0, or 1 for the retry */
	bool done;
	bool have_prompt;
	struct judge_prompt base;   /* the rubric's prompt for this step */
	char *user;                 /* the user text we send: base.user and our notes */
	struct verdict v;
	json_t *example_ids;        /* the examples shown, for the details; NULL: none configured */
	long prompt_tokens, completion_tokens;   /* -1 while no reply has said */
	int requests;
	double seconds;
};

static void *xcalloc1(size_t size)
{
	void *p = xcalloc(1, size);
	return p;
}

static void schema_text(struct strbuf *sb, const json_t *schema)
{
	char *s = json_dumps(schema, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	strbuf_addstr(sb, s ? s : "{}");
	free(s);
}

/* The user text for the current attempt. A provider without structured
 * output learns the schema from the prompt; a retry says what went wrong
 * and that the answer must match the schema (Mastra retries the same way,
 * and so without asking for structured output again). */
static void build_user(struct judge_job *job, const char *why)
{
	struct strbuf sb = STRBUF_INIT;
	const struct judge_prompt *p = &job->base;

	strbuf_addstr(&sb, p->user ? p->user : "");
	if (p->schema && !judge_structured_output(job->j->provider)) {
		strbuf_addstr(&sb, "\n\nReply with one JSON object and nothing else. "
		                   "It must satisfy this JSON Schema:\n");
		schema_text(&sb, p->schema);
	}
	if (why && p->schema) {
		strbuf_addf(&sb, "\n\nYour previous reply could not be used: %s.\n"
		                 "Reply again with a single JSON object, without a code fence or any "
		                 "other text. It must match this JSON Schema exactly:\n", why);
		schema_text(&sb, p->schema);
	} else if (why) {
		strbuf_addf(&sb, "\n\nYour previous reply could not be used: %s. Answer again.", why);
	}
	free(job->user);
	job->user = strbuf_detach(&sb);
}

static void add_meta(struct judge_job *job)
{
	struct verdict *v = &job->v;
	if (!v->details)
		v->details = json_object();
	if (!json_is_object(v->details))
		return;
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "%s%s", judge_provider_prefix(job->j->provider),
	            job->j->model ? job->j->model : "");
	json_object_set_new(v->details, "model", json_string(sb.buf));
	strbuf_release(&sb);
	json_object_set_new(v->details, "prompt_hash", json_string(job->j->prompt_hash));
	if (job->example_ids)
		json_object_set(v->details, "examples", job->example_ids);

	json_t *u = json_object();
	long pt = job->prompt_tokens, ct = job->completion_tokens;
	json_object_set_new(u, "prompt_tokens", pt >= 0 ? json_integer(pt) : json_null());
	json_object_set_new(u, "completion_tokens", ct >= 0 ? json_integer(ct) : json_null());
	json_object_set_new(u, "total_tokens",
	                    pt >= 0 || ct >= 0 ? json_integer((pt > 0 ? pt : 0) + (ct > 0 ? ct : 0))
	                                       : json_null());
	json_object_set_new(u, "requests", json_integer(job->requests));
	json_object_set_new(u, "seconds", json_real(job->seconds));
	json_object_set_new(v->details, "usage", u);
}

static void finish(struct judge_job *job)
{
	job->done = true;
	job->have_prompt = false;
	add_meta(job);
}

/* Asks the rubric for the current step's prompt; without one the rubric
 * is through and makes its verdict. */
static void load_step(struct judge_job *job)
{
	struct judge_prompt p;
	memset(&p, 0, sizeof p);
	if (!job->ops->prompt(job->st, job->step, &p)) {
		job->ops->finish(job->st, &job->v, job->j);
		finish(job);
		return;
	}
	p.step = job->step;
	job->base = p;
	job->attempt = 0;
	job->have_prompt = true;
	build_user(job, NULL);
}

struct judge_job *judge_job_new(const struct judge_conf *j, const struct run *r, json_t *expected)
{
	return judge_job_new_with(j, r, expected, NULL, NULL);
}

struct judge_job *judge_job_new_with(const struct judge_conf *j, const struct run *r,
                                     json_t *expected, const char *examples,
                                     const json_t *example_ids)
{
	struct judge_job *job = xcalloc1(sizeof *job);
	job->j = j;
	job->ops = j->rubric;
	job->prompt_tokens = job->completion_tokens = -1;
	/* A copy: the ids must not change under the job once it is made. */
	job->example_ids = example_ids ? json_deep_copy(example_ids) : NULL;

	if (r->load_error) {
		verdict_error(&job->v, "run: %s", r->load_error);
		finish(job);
		return job;
	}
	char skip[512] = "";
	job->st = job->ops->start(j, r, expected, examples, skip, sizeof skip);
	if (!job->st) {
		verdict_skip(&job->v, "%s", skip[0] ? skip : "the rubric does not apply to this run");
		finish(job);
		return job;
	}
	load_step(job);
	return job;
}

struct judge_job *judge_job_new_pair(const struct judge_conf *j, const struct run *a,
                                     const struct run *b)
{
	struct judge_job *job = xcalloc1(sizeof *job);
	job->j = j;
	job->ops = j->rubric;
	job->prompt_tokens = job->completion_tokens = -1;
	const struct run *bad = a->load_error ? a : b->load_error ? b : NULL;
	if (bad || !job->ops->start_pair) {
		if (bad)
			verdict_error(&job->v, "run %s: %s", bad->id ? bad->id : "?", bad->load_error);
		else
			verdict_error(&job->v, "rubric %s does not compare two runs", job->ops->name);
		finish(job);
		return job;
	}
	char skip[512] = "";
	job->st = job->ops->start_pair(j, a, b, skip, sizeof skip);
	if (!job->st) {
		verdict_skip(&job->v, "%s", skip[0] ? skip : "the rubric does not apply to this pair");
		finish(job);
		return job;
	}
	load_step(job);
	return job;
}

void judge_job_free(struct judge_job *job)
{
	if (!job)
		return;
	if (job->st)
		job->ops->free(job->st);
	verdict_clear(&job->v);
	json_decref(job->example_ids);
	free(job->user);
	free(job);
}

bool judge_job_next_prompt(struct judge_job *job, struct judge_prompt *out)
{
	if (job->done || !job->have_prompt)
		return false;
	*out = job->base;
	out->user = job->user;
	out->structured = job->base.structured && job->base.schema && job->attempt == 0 &&
	                  judge_structured_output(job->j->provider);
	out->step = job->step;
	return true;
}

static void account(struct judge_job *job, const struct judge_reply *reply)
{
	job->requests++;
	if (reply->prompt_tokens >= 0)
		job->prompt_tokens = (job->prompt_tokens > 0 ? job->prompt_tokens : 0) + reply->prompt_tokens;
	if (reply->completion_tokens >= 0)
		job->completion_tokens = (job->completion_tokens > 0 ? job->completion_tokens : 0) +
		                         reply->completion_tokens;
	if (reply->seconds > 0)
		job->seconds += reply->seconds;
}

void judge_job_take_reply(struct judge_job *job, const struct judge_reply *reply)
{
	if (job->done || !job->have_prompt)
		return;
	account(job, reply);
	if (reply->error || !reply->text) {
		verdict_error_from(&job->v, "judge: ", "%s", reply->error ? reply->error : "no answer");
		job->v.details = json_object();
		if (reply->http_status)
			json_object_set_new(job->v.details, "http_status", json_integer(reply->http_status));
		json_object_set_new(job->v.details, "step", json_integer(job->step));
		finish(job);
		return;
	}
	struct error err = {0};
	if (job->ops->absorb(job->st, job->step, reply->text, &err) == 0) {
		job->step++;
		load_step(job);
		return;
	}
	if (!err.msg[0])
		error_set(&err, ERR_FAILED, "the answer is not what was asked for");
	if (job->attempt == 0) {
		job->attempt = 1;
		build_user(job, err.msg);
		return;
	}
	verdict_error_from(&job->v, "judge: ", "unusable answer after a retry: %s", err.msg);
	job->v.details = json_object();
	json_object_set_new(job->v.details, "error", json_string(err.msg));
	json_object_set_new(job->v.details, "step", json_integer(job->step));
	json_t *raw = json_string(reply->text);
	/* Not UTF-8: keep what can be kept rather than nothing. */
	json_object_set_new(job->v.details, "raw_reply", raw ? raw : json_string("(not valid UTF-8)"));
	finish(job);
}

bool judge_job_done(const struct judge_job *job)
{
	return job->done;
}

void judge_job_verdict(const struct judge_job *job, struct verdict *out)
{
	memset(out, 0, sizeof *out);
	if (!job->done) {
		verdict_error_from(out, "judge: ", "not finished");
		return;
	}
	verdict_copy(out, &job->v);
}

void judge_job_set_verdict(struct judge_job *job, const struct verdict *v)
{
	/* The rubric is not asked: the verdict comes from elsewhere (the cache). */
	if (job->st) {
		job->ops->free(job->st);
		job->st = NULL;
	}
	verdict_copy(&job->v, v);
	job->done = true;
}

/* A failure from outside (cancelled, a request that could not be built) is
 * an answer with an error, which the job already turns into an error
 * verdict that names it. */
void judge_job_fail(struct judge_job *job, const char *why)
{
	if (!job || job->done)
		return;
	struct judge_reply r = {
		.text = NULL,
		.error = why ? why : "failed",
		.prompt_tokens = -1,
		.completion_tokens = -1,
	};
	judge_job_take_reply(job, &r);
}

json_t *judge_job_label_answer(const struct judge_job *job, double score, const char *reason,
                               const struct verdict *machine, struct error *err)
{
	if (job->done || !job->have_prompt || job->step != 0) {
		error_set(err, ERR_FAILED, "%s asks nothing about this run%s%s", job->j->id,
		         job->v.message ? ": " : "", job->v.message ? job->v.message : "");
		return NULL;
	}
	if (!job->ops->answer) {
		error_set(err, ERR_FAILED, "rubric %s cannot write a label as its answer", job->ops->name);
		return NULL;
	}
	if (machine && machine->status != VERDICT_OK)
		machine = NULL;
	return job->ops->answer(job->st, score, reason ? reason : "", machine, err);
}
