/* examples.c - which labelled runs a judge is shown for a run, and how they read in its prompt.
 *
 * The choice depends only on the candidates, the judge's configuration,
 * the judged run's id and (for disagreements) the verdicts known, so the
 * same run is shown the same examples on every run of the program, and
 * its cache key stays the same. */
#include "judge/examples.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge_int.h"
#include "util/hash.h"
#include "util/jsonw.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static const char *const pick_names[] = {
	[PICK_DISAGREEMENTS] = "disagreements",
	[PICK_STRATIFIED] = "stratified",
	[PICK_RECENT] = "recent",
};

const char *judge_pick_name(enum judge_pick p)
{
	return (size_t)p < sizeof pick_names / sizeof *pick_names ? pick_names[p] : "?";
}

int judge_pick_find(const char *name)
{
	for (size_t i = 0; i < sizeof pick_names / sizeof *pick_names; i++)
		if (name && strcmp(pick_names[i], name) == 0)
			return (int)i;
	return -1;
}

bool judge_example_allowed(const struct judge_conf *j, const char *judged_id,
                           const struct judge_example *c)
{
	if (!c->run_id || !c->run || (judged_id && strcmp(c->run_id, judged_id) == 0))
		return false;
	return strcmp(split_of(&j->examples.spec, c->run_id), j->examples.split) == 0;
}

/* ---- the choice ---------------------------------------------------------- */

/* A candidate with its place among equals for this judged run. */
struct cand {
	const struct judge_example *c;
	uint64_t tie;
	int stratum;
	bool taken;
};

struct choice {
	struct cand *all;
	size_t n;
	const struct judge_example **out;
	size_t nout, k;
	uint64_t seed;              /* the judged run's hash: where round-robin starts */
};

/* FNV-1a's last steps multiply by a prime that is 1 modulo small numbers,
 * so its low residues hardly move between similar ids: mixed first
 * (the finalizer of splitmix64). */
static uint64_t mix(uint64_t h)
{
	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebULL;
	return h ^ (h >> 31);
}

static int by_tie(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;
	if (x->tie != y->tie)
		return x->tie < y->tie ? -1 : 1;
	return strcmp(x->c->run_id, y->c->run_id);
}

/* Latest label first; labels without a time last; then as by_tie. */
static int by_time(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;
	const char *ta = x->c->at ? x->c->at : "", *tb = y->c->at ? y->c->at : "";
	int d = strcmp(tb, ta);
	return d ? d : by_tie(a, b);
}

/* The label value a candidate counts under: the level on an integer scale
 * (1..5, a custom 0..10), else fail (0) and pass (1). */
static int stratum_of(const struct judge_conf *j, const struct judge_example *c, int *nstrata)
{
	struct scale s = judge_span(j);
	if (scale_ordinal(&s)) {
		*nstrata = scale_levels(&s);
		long level = lround(c->score - s.lo);
		return level < 0 ? 0 : level >= *nstrata ? *nstrata - 1 : (int)level;
	}
	*nstrata = 2;
	return c->passed ? 1 : 0;
}

/* Takes a candidate unless one of the same run is already shown. */
static void take(struct choice *ch, struct cand *c)
{
	c->taken = true;
	for (size_t i = 0; i < ch->nout; i++)
		if (strcmp(ch->out[i]->run_id, c->c->run_id) == 0)
			return;
	ch->out[ch->nout++] = c->c;
}

/* Round-robin over the strata, each in tie order, from a stratum that
 * depends on the judged run (so that k below the number of levels does
 * not always leave out the same level). */
static void stratified(struct choice *ch, int nstrata)
{
	int at = nstrata > 0 ? (int)(ch->seed % (uint64_t)nstrata) : 0;
	for (bool any = true; any && ch->nout < ch->k;) {
		any = false;
		for (int s = 0; s < nstrata && ch->nout < ch->k; s++) {
			int want = (at + s) % nstrata;
			for (size_t i = 0; i < ch->n; i++) {
				if (!ch->all[i].taken && ch->all[i].stratum == want) {
					take(ch, &ch->all[i]);
					any = true;
					break;
				}
			}
		}
	}
}

static void disagreements(struct choice *ch, judge_verdict_fn verdict, void *vctx)
{
	for (size_t i = 0; verdict && i < ch->n && ch->nout < ch->k; i++) {
		int said = verdict(vctx, ch->all[i].c);
		if (said >= 0 && (said == 1) != ch->all[i].c->passed)
			take(ch, &ch->all[i]);
	}
}

size_t judge_examples_pick(const struct judge_conf *j, const char *judged_id,
                           const struct judge_example *cands, size_t n,
                           judge_verdict_fn verdict, void *vctx,
                           const struct judge_example **out)
{
	const struct judge_examples_conf *e = &j->examples;
	if (e->k <= 0)
		return 0;
	struct choice ch = {
		.all = xcalloc(n ? n : 1, sizeof *ch.all), .out = out,
		.k = (size_t)(e->k < JUDGE_EXAMPLES_MAX ? e->k : JUDGE_EXAMPLES_MAX),
		.seed = mix(hash_fnv1a_part(HASH_FNV_SEED, judged_id ? judged_id : "")),
	};
	int nstrata = 2;
	for (size_t i = 0; i < n; i++) {
		if (!judge_example_allowed(j, judged_id, &cands[i]))
			continue;
		struct cand *c = &ch.all[ch.n++];
		c->c = &cands[i];
		c->tie = mix(hash_fnv1a_part(ch.seed, cands[i].run_id));
		c->stratum = stratum_of(j, &cands[i], &nstrata);
	}
	qsort(ch.all, ch.n, sizeof *ch.all, e->pick == PICK_RECENT ? by_time : by_tie);
	if (e->pick == PICK_RECENT) {
		for (size_t i = 0; i < ch.n && ch.nout < ch.k; i++)
			take(&ch, &ch.all[i]);
	} else {
		if (e->pick == PICK_DISAGREEMENTS)
			disagreements(&ch, verdict, vctx);
		stratified(&ch, nstrata);
	}
	free(ch.all);
	return ch.nout;
}

/* ---- the text ------------------------------------------------------------ */

/* The calls of one example, at most this many bytes: a long run (tau-bench
 * runs hold tens of kilobytes of results) times k would crowd out the run
 * judged, and the grade and reason carry the lesson. */
#define EXAMPLE_CALLS_MAX 8000

/* The calls as view.c writes them (one call a line), whole calls only,
 * with a line saying how many were left out. */
static void calls_text(struct strbuf *sb, const char *calls)
{
	size_t len = strlen(calls);
	if (len <= EXAMPLE_CALLS_MAX) {
		strbuf_addstr(sb, calls);
		return;
	}
	size_t keep = 0;
	for (size_t i = 0; i < EXAMPLE_CALLS_MAX; i++)
		if (calls[i] == '\n')
			keep = i;
	size_t rest = 0;
	for (size_t i = keep + 1; i < len; i++)
		rest += calls[i] == '\n';
	strbuf_add(sb, calls, keep);
	strbuf_addf(sb, "\n  (%zu more call%s, not shown)\n]", rest, rest == 1 ? "" : "s");
}

static void label_text(struct strbuf *sb, const struct judge_conf *j, const struct judge_example *c)
{
	struct scale span = judge_span(j);
	char range[64];
	scale_describe(&span, range, sizeof range);
	strbuf_addstr(sb, "The reviewer's grade: ");
	jsonw_number(sb, c->score);
	strbuf_addf(sb, " (on %s; %s)\n", range, c->passed ? "a pass" : "a fail");
	if (c->reason && *c->reason) {
		/* One line per line of the reason, so it cannot pass for our text. */
		strbuf_addstr(sb, "The reviewer's reason: ");
		for (const char *p = c->reason; *p; p++) {
			strbuf_addch(sb, *p);
			if (*p == '\n' && p[1])
				strbuf_addstr(sb, "  ");
		}
		if (sb->buf[sb->len - 1] != '\n')
			strbuf_addch(sb, '\n');
	} else {
		strbuf_addstr(sb, "The reviewer gave no reason.\n");
	}
}

/* One example as the prompts show the run judged. */
static void example_text(struct strbuf *sb, const struct judge_conf *j,
                         const struct judge_example *c, size_t i, size_t n)
{
	struct judge_view v;
	judge_view_init(&v, j, c->run, NULL, NULL);
	strbuf_addf(sb, "--- Example %zu of %zu ---\n", i + 1, n);
	strbuf_addf(sb, "The user's request:\n<<<\n%s\n>>>\n\n", v.input);
	strbuf_addstr(sb, "The tool calls made, with their arguments and results:\n");
	calls_text(sb, v.tool_calls);
	strbuf_addstr(sb, "\n\n");
	strbuf_addf(sb, "The final answer:\n<<<\n%s\n>>>\n\n", v.output);
	label_text(sb, j, c);
	strbuf_addch(sb, '\n');
	judge_view_free(&v);
}

char *judge_examples_render(const struct judge_conf *j, const struct judge_example *const *ex,
                            size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, "");
	if (n == 0)
		return strbuf_detach(&sb);
	strbuf_addf(&sb, "First, %zu run%s a human reviewer has already graded, each with the "
	            "reviewer's grade and reason. They show how the reviewers apply the scale; "
	            "they are not the run to grade.\n\n", n, n == 1 ? "" : "s");
	for (size_t i = 0; i < n; i++)
		example_text(&sb, j, ex[i], i, n);
	strbuf_addstr(&sb, "--- End of the examples. The run to grade follows. ---\n\n");
	return strbuf_detach(&sb);
}

json_t *judge_examples_ids(const struct judge_example *const *ex, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++) {
		json_t *s = json_string(ex[i]->run_id);
		json_array_append_new(a, s ? s : json_string("(not UTF-8)"));
	}
	return a;
}
