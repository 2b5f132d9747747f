/* judge_int.h - what the rubric files and the job share. Not a public header. */
#ifndef TCR_JUDGE_INT_H
#define TCR_JUDGE_INT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "judge/judge.h"
#include "judge/prompt.h"
#include "util/error.h"

/* The run as the prompts show it, copied out at the start of a job so that
 * the job never looks at the run again (the run may leave the cache while
 * requests are in flight). */
struct judge_view {
	char *input;                /* the user's request */
	char *output;               /* the agent's final answer */
	char *conversation;         /* "[role] text" lines */
	char *tool_calls;           /* the calls judged: a JSON array, one call a line */
	char *tools_called;         /* their names joined by ", "; "None" when none */
	char *tools;                /* "name: description" lines; "(none)" when none */
	char *tool_definitions;     /* a JSON array, one definition a line */
	char *expected;             /* compact JSON; "" when there is no expectation */
	char *run_id;
	char *examples;             /* {{examples}}: "" when the judge is shown none */
	bool has_expected;
	json_t *tool_list;          /* [{name, description, parameters?}] */
	json_t *actual_tools;       /* the names as Mastra's preprocess step has them */
	json_t *call_infos;         /* its toolCallInfos */
	size_t ncalls;              /* calls judged (run_counted_calls, RUN_CALLS_SCORED) */
};

#define JUDGE_VIEW_NVARS 10

/* examples: the text of {{examples}}, or NULL for none. */
void judge_view_init(struct judge_view *v, const struct judge_conf *j, const struct run *r,
                     json_t *expected, const char *examples);
void judge_view_free(struct judge_view *v);
/* The common placeholders (judge_common_vars) with their values; vars
 * must have room for JUDGE_VIEW_NVARS. Returns the count. */
size_t judge_view_vars(const struct judge_view *v, struct prompt_var *vars);

/* The tools a judge knows of: its own list, else the run's definitions in
 * any of the shapes the formats carry (OpenAI's {type, function}, the flat
 * {name, description, parameters}, Anthropic's input_schema, Mastra's id,
 * Azure's openapi bundles), as [{name, description, parameters?}]. */
json_t *judge_tool_list(const struct judge_conf *j, const struct run *r);

/* Renders one section of the judge's prompt (NULL when it has none). */
char *judge_render(const struct judge_conf *j, const char *section, const struct prompt_var *vars,
                   size_t nvars);


/* A string's trimmed copy; NULL stays NULL. */
char *judge_trim_dup(const char *s);

extern const struct rubric_ops rubric_appropriateness;
extern const struct rubric_ops rubric_1to5;
extern const struct rubric_ops rubric_custom;
extern const struct rubric_ops rubric_pairwise;

#endif
