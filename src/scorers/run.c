/* run.c - running one configured scorer on one run. */
#include <stdlib.h>
#include <string.h>

#include "scorers/params.h"
#include "scorers/scorer.h"

void scorer_shared_clear(struct scorer_shared *sh)
{
	json_decref(sh->tools);
	json_decref(sh->infos);
	memset(sh, 0, sizeof *sh);
}

void scorer_run_shared(const struct scorer_conf *sc, const struct run *r, struct scorer_shared *sh,
                       json_t *expected, const char *expect_miss, struct verdict *out)
{
	memset(out, 0, sizeof(*out));
	char *unset = NULL;
	/* The run's trees are built on demand and kept: a cache, which a
	 * const run may fill. */
	json_t *params = sc->fixed ? json_incref(sc->fixed)
	               : scorer_resolve_params(sc, (struct run *)r, expected, expect_miss, &unset);
	sh->expected = expected;
	if (r->load_error)
		verdict_error(out, "run: %s", r->load_error);
	else
		sc->ops->score(sc, r, sh, params, unset, out);
	json_decref(params);
	free(unset);
}

void scorer_run(const struct scorer_conf *sc, const struct run *r, json_t *expected,
                const char *expect_miss, struct verdict *out)
{
	struct scorer_shared sh = { 0 };
	scorer_run_shared(sc, r, &sh, expected, expect_miss, out);
	scorer_shared_clear(&sh);
}
