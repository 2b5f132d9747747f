/* evaluate.c - runs the configured scorers on one run. */
#include "scorers/evaluate.h"

void evaluator_run(const struct evaluator *ev, const struct run *r, struct verdict *verdicts)
{
	json_t *expected = NULL;
	char why[512] = "";
	/* The join reads the record on demand; a const run may fill its cache. */
	if (ev->expect && !r->load_error)
		expected = expect_lookup(ev->expect, (struct run *)r, why, sizeof why);
	struct scorer_shared sh = { 0 };
	for (size_t i = 0; i < ev->nscorers; i++)
		scorer_run_shared(&ev->scorers[i], r, &sh, expected,
		                  ev->expect ? why : "no expectations are configured", &verdicts[i]);
	scorer_shared_clear(&sh);
}

void evaluator_fail_all(const struct evaluator *ev, const char *why, struct verdict *verdicts)
{
	for (size_t i = 0; i < ev->nscorers; i++) {
		verdicts[i] = (struct verdict){ 0 };
		verdict_error(&verdicts[i], "%s", why);
	}
}
