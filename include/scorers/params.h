/* params.h - a configured scorer: its entry of `scorers:` read by the
 * parameters its type declares, its hash, and its parameters resolved for
 * one run ({from: PATH} references).
 *
 * The scorer types declare their parameters in their ops table
 * (scorer.h's struct param_spec); nothing outside src/scorers/ knows them. */
#ifndef TCR_SCORERS_PARAMS_H
#define TCR_SCORERS_PARAMS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "conf/conf.h"
#include "scorers/criterion.h"
#include "scorers/scorer.h"
#include "verdict/scale.h"

/* One scorer parameter as written: a literal, or {from: PATH, default: V}. */
struct param {
	char *name;
	json_t *literal;        /* set for a literal (owned) */
	char *from;             /* set for a reference: the path as written */
	bool from_expected;     /* the path starts with "expected." */
	const char *from_path;  /* the path without the "expected." prefix */
	json_t *deflt;          /* default when the reference finds nothing (owned) */
	int line, col;
};

struct scorer_conf {
	char *id;
	const struct scorer_ops *ops;
	struct param *params;
	size_t nparams;
	double threshold;
	char hash[17];          /* 64-bit hash of type and parameters, hex */
	int line, col;
	/* The resolved parameters when none is a reference: the same for
	 * every run, so made once when the entry is read (owned; NULL when a
	 * parameter is a reference, or for an entry made by hand). */
	json_t *fixed;
	/* The scale of the verdicts' scores when the entry sets its own (exec's
	 * and record-field's `scale:`, read by the type's configure, which then
	 * also sets threshold on it); else the type's (own_span false). */
	struct scale span;
	bool own_span;
	/* `criterion:`, a key every entry accepts: the failure mode its
	 * verdicts answer for (scorers/criterion.h); tag NULL when none. */
	struct criterion_decl criterion;
};

/* Called with each scorer's id as soon as it is read and found unique
 * among the scorers, so that the caller can check it against ids of other
 * sections (the judges share the namespace). Returns 0 or -1 (conf_fail). */
typedef int (*scorer_id_check)(struct conf *cf, const struct conf_node *idn, const char *id,
                               void *arg);

/* Reads `scorers:` (a list) into *out / *nout. *nout counts each entry as
 * it is started, so that scorers_free frees a half-read list. */
int  scorers_read(struct conf *cf, const struct conf_node *list, struct scorer_conf **out,
                  size_t *nout, scorer_id_check check, void *arg);
void scorers_free(struct scorer_conf *list, size_t n);

/* Whether the YAML gives the scorer this parameter (a literal or a
 * reference). Inline so that a scorer asking it does not call back into the
 * file that finds scorers in the table. */
static inline const struct param *scorer_param_find(const struct scorer_conf *sc,
                                                     const char *name)
{
	for (size_t i = 0; i < sc->nparams; i++)
		if (strcmp(sc->params[i].name, name) == 0)
			return &sc->params[i];
	return NULL;
}

static inline bool scorer_param_given(const struct scorer_conf *sc, const char *name)
{
	return scorer_param_find(sc, name) != NULL;
}

/* The scale the entry's verdicts live on: the entry's own, or its type's.
 * What the screen, stats and export describe with the threshold (one
 * description: verdict/scale.h's scale_describe_pass). */
static inline struct scale scorer_span(const struct scorer_conf *sc)
{
	return sc->own_span ? sc->span : scale_of(sc->ops->scale);
}

/* Resolves a scorer's parameters for one run into a new JSON object. A
 * reference that finds nothing (and has no default) leaves its parameter
 * absent and is described in *unset (malloc'd, NULL when none). A
 * parameter not configured at all gets its declared default, if any. */
json_t *scorer_resolve_params(const struct scorer_conf *sc, struct run *run, json_t *expected,
                              const char *expect_miss, char **unset);

#endif
