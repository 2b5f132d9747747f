/* judge.h - LLM judges: rubrics, providers, the asynchronous client, the
 * cache. Only src/judge/ includes curl.
 *
 * A judge (one `judges:` entry of the YAML) asks a model about one run with
 * a rubric's prompts and turns its answers into a verdict on the rubric's
 * scale, like a code scorer's. A rubric may need several requests (Mastra's
 * appropriateness: analyse, then explain); a job walks through them:
 *
 *   job = judge_job_new(judge, run, expected)   -> skipped? (verdict ready)
 *   while judge_job_next_prompt(job, &prompt):   -> a request to send
 *       reply = <the provider's answer>          (judge_client does this)
 *       judge_job_take_reply(job, reply)         -> parsed, or retry once
 *   judge_job_verdict(job, &verdict)
 */
#ifndef TCR_JUDGE_JUDGE_H
#define TCR_JUDGE_JUDGE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "annot/store.h"
#include "judge/examples.h"
#include "runs/run.h"
#include "scorers/criterion.h"
#include "scorers/scorer.h"
#include "util/error.h"

enum provider_kind {
	PROVIDER_OPENAI,            /* openai/MODEL: Chat Completions, JSON-schema output */
	PROVIDER_COMPAT,            /* any OpenAI-compatible server at base_url */
	PROVIDER_OLLAMA,            /* ollama/MODEL: http://localhost:11434/v1, no key */
	PROVIDER_AZURE,             /* azure/DEPLOYMENT: endpoint, api_version, api-key header */
	PROVIDER_ANTHROPIC,         /* anthropic/MODEL: Messages API */
};

struct rubric_ops;
struct judge_trust;

/* One judge as configured. */
struct judge_conf {
	char *id;
	const struct rubric_ops *rubric;
	enum provider_kind provider;
	char *model;                /* the part after the provider prefix */
	char *base_url;             /* NULL = the provider's default (or its env variable) */
	char *endpoint;             /* azure */
	char *api_version;          /* azure */
	char *api_key_env;          /* NULL = the provider's usual variable */
	json_t *tools;              /* list of {name, description}; NULL = from the run */
	double threshold;           /* passing means score >= threshold */
	double scale_min, scale_max;/* custom: its scale */
	char *prompt_text;          /* the prompt template in use (file or built-in) */
	char *prompt_source;        /* the file it came from, for messages */
	char prompt_hash[17];
	struct judge_examples_conf examples;    /* k == 0: none */
	struct criterion_decl criterion;        /* the failure mode it answers for; tag NULL: none */
	char hash[17];              /* of everything above that changes a verdict */
	char base_hash[17];         /* the same without the examples: the judge's
	                             * verdicts made without them (== hash when none) */
	double timeout_s;           /* per request; default 60 */
	int max_retries;            /* on 429/5xx/timeouts; default 4 */
	int line, col;
	char *confirm_host;         /* a host the user has yet to allow (the screen
	                             * asks first; judge/trust.h); NULL: none */
	char *confirm_key_env;      /* the same for api_key_env */
	struct judge_trust *trust;  /* the allowances it was checked under, lent by
	                             * the command (judge/trust.h); NULL: none */
	bool swap;                  /* a pairwise judge: ask again with the runs swapped */
};

/* What a rubric asks the model in one request. */
struct judge_prompt {
	const char *system;         /* may be NULL */
	const char *user;
	json_t *schema;             /* JSON Schema the answer must satisfy, or NULL (free text) */
	const char *schema_name;
	bool structured;            /* ask the provider for structured output */
	int step;                   /* 0, 1, ... within the job */
};

/* A provider's answer, as the client hands it to the job. */
struct judge_reply {
	const char *text;           /* the model's message text (NULL on failure) */
	long http_status;
	const char *error;          /* transport or HTTP failure, NULL when fine */
	long prompt_tokens, completion_tokens;   /* -1 when the provider did not say */
	double seconds;
};

struct judge_job;

/* Starts a job. When the rubric does not apply to the run (no calls, no
 * tool definitions, a required value missing) the job is finished at once
 * with a skipped verdict. */
struct judge_job *judge_job_new(const struct judge_conf *j, const struct run *r, json_t *expected);
/* The same with few-shot examples: `examples` fills {{examples}} (NULL or
 * "" for none, judge_examples_render) and `example_ids`, when not NULL, is
 * recorded in the verdict's details as "examples". */
struct judge_job *judge_job_new_with(const struct judge_conf *j, const struct run *r,
                                     json_t *expected, const char *examples,
                                     const json_t *example_ids);
void judge_job_free(struct judge_job *job);
/* The next request to send, or false when the job is finished. */
bool judge_job_next_prompt(struct judge_job *job, struct judge_prompt *out);
/* Takes the reply to the last prompt. A reply that does not parse is asked
 * again once (with the schema spelled out in the prompt); a second failure
 * finishes the job with an error verdict that keeps the raw reply. */
void judge_job_take_reply(struct judge_job *job, const struct judge_reply *reply);
bool judge_job_done(const struct judge_job *job);
/* The verdict (details carry the rubric's result fields, the model, the
 * prompt hash, token usage and, on error, the raw reply). */
void judge_job_verdict(const struct judge_job *job, struct verdict *out);
/* A pairwise judge (rubric_ops.pairwise) on two runs of one task: a, the
 * base, shown first, and b, the candidate. Its verdict's details say which
 * is better (judge_pair_answer). */
struct judge_job *judge_job_new_pair(const struct judge_conf *j, const struct run *a,
                                     const struct run *b);
/* Finishes a job with a verdict from elsewhere (the cache): no request is
 * made and judge_job_verdict returns a copy of v. */
void judge_job_set_verdict(struct judge_job *job, const struct verdict *v);
/* Finishes a job with an error verdict (cancelled, out of retries). */
void judge_job_fail(struct judge_job *job, const char *why);
/* The answer the job's first prompt asks for, written for a given score
 * and reason (a reviewer's label) so that a model trained on it answers in
 * the judge's own format: what the rubric's absorb reads back to that
 * score. `machine` is the judge's own verdict on the run, or NULL; an
 * answer that says more than a score (appropriateness rates each call)
 * takes the rest from it when the label agrees with it, as does a label
 * without a reason (an accept) its reason. NULL with a reason
 * in why when the job asks nothing (skipped, finished) or the score cannot
 * be said in the rubric's form. */
json_t *judge_job_label_answer(const struct judge_job *job, double score, const char *reason,
                               const struct verdict *machine, struct error *err);

/* A rubric: one file in src/judge/ and one line in the table. */
struct rubric_ops {
	const char *name;           /* the YAML's rubric: */
	const char *summary;
	enum score_scale scale;
	double default_threshold;
	const char *prompt_file;    /* its default prompt, under prompts/ */
	/* The rubric's private state for one job; see rubric_*.c. */
	void *(*start)(const struct judge_conf *j, const struct run *r, json_t *expected,
	               const char *examples, char *skip, size_t skiplen);
	bool  (*prompt)(void *st, int step, struct judge_prompt *out);
	/* 0 parsed; -1 not usable (err says why: "missing field evaluations") */
	int   (*absorb)(void *st, int step, const char *text, struct error *err);
	void  (*finish)(void *st, struct verdict *out, const struct judge_conf *j);
	void  (*free)(void *st);
	/* The first step's answer for a label (judge_job_label_answer);
	 * machine is an ok verdict or NULL. */
	json_t *(*answer)(void *st, double score, const char *reason, const struct verdict *machine,
	                  struct error *err);
	/* Its prompt file (prompt.h): the sections it needs besides the
	 * optional "system", and the placeholders it offers besides the common
	 * ones (judge_common_vars); both NULL-terminated. */
	const char *const *sections;
	const char *const *vars;
	/* The key of the verdict's details that holds the judge's reason, so
	 * the screen shows it without knowing each rubric's details. */
	const char *reason_key;
	/* Optional: what the rubric's details say beyond the reason, as lines
	 * of text for a person (appropriateness: each call's rating, the
	 * missing tools), so the screen reads none of the rubric's members. */
	void (*explain)(const json_t *details, struct strbuf *out);
	/* A pairwise rubric judges two runs of one task, never one: it has
	 * start_pair instead of start, and its judges are kept apart from the
	 * per-run ones (config's pair_judges). */
	bool pairwise;
	void *(*start_pair)(const struct judge_conf *j, const struct run *a, const struct run *b,
	                    char *skip, size_t skiplen);
};

extern const struct rubric_ops *const rubric_table[];
const struct rubric_ops *rubric_find(const char *name);

/* Placeholders every rubric's prompts may use: input (the user's request),
 * output (the agent's final answer), conversation, tool_calls (the calls
 * judged, as JSON with arguments and results), tools_called (their names),
 * tools ("name: description" lines), tool_definitions (JSON), expected,
 * run_id, examples (labelled runs, judge/examples.h; "" without).
 * NULL-terminated. */
extern const char *const judge_common_vars[];

/* Checks a prompt text against a rubric: known sections, the needed ones
 * present, known placeholders. Returns 0, or -1 with a message and, when
 * the problem has a place in the text, its 1-based line and column (else
 * 0, 0). */
int rubric_check_prompt(const struct rubric_ops *ops, const char *text, int *line, int *col,
                        struct error *err);

/* The provider named by a model's prefix ("openai/gpt-4o-mini"). A model
 * without a known prefix names a model of an OpenAI-compatible server and
 * needs base_url. Returns 0 with *kind and *rest (the model after the
 * prefix, or all of it), or -1. */
int judge_parse_model(const char *model, bool has_base_url, enum provider_kind *kind,
                      const char **rest);
/* "openai/", "ollama/", "azure/", "anthropic/"; "" for PROVIDER_COMPAT. */
const char *judge_provider_prefix(enum provider_kind p);

/* Whether a job asks this provider for structured output. For the others
 * the job sets .structured false and has already written the schema into
 * the prompt's user text, so provider code need not add it. */
bool judge_structured_output(enum provider_kind p);

/* A judge's scale: the rubric's, or for a custom judge the nearest of
 * ours (1..5, else 0..1); and whether a score (a reviewer's override or a
 * model's answer) lies on it. */
enum score_scale judge_scale(const struct judge_conf *j);
bool judge_scale_accepts(const struct judge_conf *j, double v);
/* The judge's scale with its range (a custom judge's min..max). */
struct scale judge_span(const struct judge_conf *j);
/* The judge's reason in a verdict of its (NULL when it gave none). */
const char *judge_reason(const struct judge_conf *j, const struct verdict *v);
/* A judge's answer for a person, as lines: the verdict's message, the
 * reason, what the rubric explains of its details, and the raw reply an
 * unusable answer kept. */
void judge_explain(const struct judge_conf *j, const struct verdict *v, struct strbuf *out);

/* Whether a judge compares two runs (its rubric is pairwise). */
bool judge_is_pairwise(const struct judge_conf *j);
/* A pairwise judge's answer in an ok verdict of its: PREF_BASE, PREF_CAND,
 * PREF_TIE or PREF_BOTH_BAD (annot/store.h) as details' "better" names it;
 * PREF_NONE for any other verdict. */
enum preference judge_pair_answer(const struct verdict *v);
/* An answer about (b, a) said about (a, b): base and candidate swapped. */
enum preference judge_pair_flip(enum preference p);

/* Pulls a JSON object out of a model's reply: the whole text, a ```json
 * fenced block, or the first balanced {...} among other text. NULL when
 * there is none. */
json_t *judge_reply_json(const char *text);

/* Mastra's rounding of the appropriateness score: half up, after adding
 * DBL_EPSILON, to two decimals. */
double judge_round2(double x);

#endif
