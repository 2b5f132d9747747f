/* scorer.h - code scorers: a table of operations per scorer type.
 *
 * A scorer is one file in src/scorers/ and one line in the table in
 * src/scorers/registry.c; it declares its parameters in its ops table and
 * params.c reads them. They come from the YAML as literals or {from: PATH}
 * references resolved per run (params.h); the scorer receives them as one
 * JSON object in which an unset parameter is simply absent. */
#ifndef TCR_SCORERS_SCORER_H
#define TCR_SCORERS_SCORER_H

#include <jansson.h>
#include <stdbool.h>
#include "runs/run.h"
#include "util/strbuf.h"
#include "verdict/verdict.h"

/* What a parameter may hold, for checking the YAML before any work. */
enum param_kind {
	PARAM_STRING,
	PARAM_BOOL,
	PARAM_NUMBER,
	PARAM_STRING_LIST,
	PARAM_OBJECT,
	PARAM_ANY,          /* taken as given; the scorer interprets it */
};

enum {
	PARAM_REQUIRED = 1,     /* must be given (a literal or a reference) */
};

/* One parameter a scorer type takes. A literal is checked against kind and
 * range when the configuration is read; a reference when it is resolved. */
struct param_spec {
	const char *name;
	enum param_kind kind;
	const char *help;
	unsigned flags;         /* PARAM_REQUIRED */
	double lo, hi;          /* PARAM_NUMBER: the range, when lo < hi */
	const char *deflt;      /* JSON text used when the parameter is not configured, or NULL */
};

struct scorer_conf;
struct conf;

/* What the scorers of one run share, so that what they read of the run is
 * made once however many of them read it: the first scorer that needs a
 * part fills it, and scorer_shared_clear releases it all once the run's
 * scorers are done. Starts zeroed; belongs to one run. */
struct scorer_shared {
	json_t *tools;          /* tool-call-accuracy's actualTools, NULL until made */
	json_t *infos;          /* ... and its toolCallInfos */
	json_t *expected;       /* borrowed: the joined expectation of this call, or NULL */
};

void scorer_shared_clear(struct scorer_shared *sh);

struct scorer_ops {
	const char *type;               /* the YAML `type:` */
	const char *summary;
	enum score_scale scale;
	double default_threshold;       /* passing means score >= threshold */
	const struct param_spec *params;/* terminated by a {NULL} entry */
	/* Optional: checks parameters that are all literals at load time and
	 * returns an error message (static storage) or NULL. */
	const char *(*check)(json_t *literals);
	/* Scores one run. `params` holds the resolved parameters; `unset` is
	 * NULL or a sentence naming references that found nothing; `sh` is
	 * what the run's scorers share (read-only once filled: verdicts may
	 * hold references to it). */
	void (*score)(const struct scorer_conf *sc, const struct run *r, struct scorer_shared *sh,
	              json_t *params, const char *unset, struct verdict *out);
	/* Optional: explains a verdict's details for a person, as lines of
	 * text ("expected  auth-tool, fetch-tool", "missing   fetch-tool"). */
	void (*explain)(const json_t *details, struct strbuf *out);
	/* Optional: checks and completes the entry once it is read (sc->fixed
	 * made when no parameter is a reference), with the file's positions
	 * and folder at hand. Returns 0 or -1 (conf_fail). */
	int (*configure)(struct conf *cf, struct scorer_conf *sc);
	/* Optional: lets go of what the entry keeps across runs (processes,
	 * a cache); called once no run is being scored, as the entry is freed. */
	void (*release)(const struct scorer_conf *sc);
	/* Each run may cost a process and a wait: callers that hand runs out in
	 * batches hand them out one by one, so every core has one to score. */
	bool per_run_process;
};

extern const struct scorer_ops *const scorer_table[];
const struct scorer_ops *scorer_find(const char *type);



/* Runs one configured scorer on a run: resolves its parameters against the
 * run's record and the joined expectation (may be NULL, with `expect_miss`
 * explaining why), then calls its score operation. */
void scorer_run(const struct scorer_conf *sc, const struct run *r, json_t *expected,
                const char *expect_miss, struct verdict *out);
/* The same, sharing with the run's other scorers what they read of it. */
void scorer_run_shared(const struct scorer_conf *sc, const struct run *r, struct scorer_shared *sh,
                       json_t *expected, const char *expect_miss, struct verdict *out);

/* The calls tool-call-accuracy counts (run_counted_calls, RUN_CALLS_SCORED)
 * as Mastra's preprocess step lists them: their names appended
 * to `tools` (actualTools) and {toolName, toolCallId, messageIndex,
 * invocationIndex} objects to `infos` (toolCallInfos). The LLM judges
 * share this so that their preprocessStepResult matches the code scorer's. */
void scorer_tool_call_infos(const struct run *r, json_t *tools, json_t *infos);

/* Whether call c of r failed by tool-errors' rule with its default
 * prefixes: the text that says so (the record's error text, else the
 * result's), or NULL when it did not fail. */
const char *tool_error_text(const struct run *r, const struct run_call *c);

#endif
