/* filters.c - which runs a filter lets into the view, and the disagreements a run holds.
 *
 * Reads only: the view above asks it which entries pass and where `]`
 * and `[` stop (view.c moves the cursor there).
 *
 * The filters against human labels compare pass/fail with the consensus
 * of every reviewer's labels (review/labels.h), so "judge ≠ human" means
 * what `tcreview stats` counts as a disagreement. In blind mode only rows
 * this reviewer has decided take part: a filter must not tell which runs
 * a hidden verdict fails. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "review/session.h"
#include "review/labels.h"
#include "annot/vocab.h"
#include "session_int.h"

#include "judge/judge.h"

#include "util/xalloc.h"

/* The machine's pass/fail on a row, when it has one (an ok verdict). */
static bool machine_passed(const struct review *rv, const struct review_entry *e, size_t row,
                           bool *passed)
{
	if (row < review_nscorers(rv)) {
		const struct verdict_cell *c = &e->cells[row];
		*passed = c->passed;
		return c->status == VERDICT_OK;
	}
	size_t j = row - review_nscorers(rv);
	if (!e->jcells || j >= review_njudges(rv))
		return false;
	const struct judge_cell *c = &e->jcells[j];
	*passed = c->v.passed;
	return c->state == JUDGE_DONE && c->v.status == VERDICT_OK;
}

/* The labels of every reviewer on a row, stale ones left out, and their
 * consensus's pass/fail when there is one. Returns how many labels. */
static size_t human_labels(const struct review *rv, size_t entry, size_t row, struct label *l,
                           bool *has, bool *passed)
{
	size_t n = review_labels(rv, entry, row, NULL, 0, l, LABELS_MAX);
	size_t kept = 0;
	for (size_t i = 0; i < n; i++)
		if (!l[i].stale)
			l[kept++] = l[i];
	*has = false;
	if (kept) {
		struct review_row r;
		review_row_get(rv, NULL, row, &r);
		double score;
		*has = labels_consensus(l, kept, &r.span, review_row_threshold(rv, row), false, &score,
		                        passed) == CONSENSUS_OK;
	}
	return kept;
}

static bool labels_differ(const struct label *l, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (l[i].score != l[0].score)
			return true;
	return false;
}

/* Whether a row takes part in what filters and jumps look at. */
static bool row_shown(const struct review *rv, size_t entry, size_t row)
{
	return !rv->blind || !review_row_hidden(rv, entry, row);
}

/* Whether the YAML's compare: (when given) pairs this scorer and judge,
 * as it does for the figures of `tcreview stats`. */
static bool compared(const struct review *rv, size_t scorer, size_t judge)
{
	return config_compares(rv->cfg, rv->cfg->scorers[scorer].id, rv->cfg->judges[judge].id);
}

/* A code scorer and a judge that differ on pass/fail. */
static bool code_judge_differ(const struct review *rv, size_t entry)
{
	const struct review_entry *e = &rv->entries[entry];
	size_t ns = review_nscorers(rv);
	for (size_t i = 0; i < ns; i++) {
		bool pc, pj;
		if (!row_shown(rv, entry, i) || !machine_passed(rv, e, i, &pc))
			continue;
		for (size_t j = 0; j < review_njudges(rv); j++)
			if (compared(rv, i, j) && row_shown(rv, entry, ns + j) &&
			    machine_passed(rv, e, ns + j, &pj) && pc != pj)
				return true;
	}
	return false;
}

/* Scorers among themselves, and code against judges, on pass/fail. */
static unsigned machine_disagreements(const struct review *rv, size_t entry)
{
	const struct review_entry *e = &rv->entries[entry];
	bool code[2] = { false, false };
	for (size_t i = 0; i < review_nscorers(rv); i++) {
		bool p;
		if (row_shown(rv, entry, i) && machine_passed(rv, e, i, &p))
			code[p] = true;
	}
	unsigned k = code[0] && code[1] ? DIS_SCORERS : 0;
	return k | (code_judge_differ(rv, entry) ? DIS_CODE_JUDGE : 0);
}

unsigned review_entry_disagreements(const struct review *rv, size_t entry)
{
	if (entry >= rv->nentries || !rv->entries[entry].summarized || rv->entries[entry].load_failed)
		return 0;
	const struct review_entry *e = &rv->entries[entry];
	unsigned k = machine_disagreements(rv, entry);
	struct label l[LABELS_MAX];
	for (size_t i = 0; i < review_nrows(rv); i++) {
		if (!row_shown(rv, entry, i))
			continue;
		bool has, hp, mp;
		size_t n = human_labels(rv, entry, i, l, &has, &hp);
		if (labels_differ(l, n))
			k |= DIS_REVIEWERS;
		if (has && machine_passed(rv, e, i, &mp) && mp != hp)
			k |= i < review_nscorers(rv) ? DIS_CODE_HUMAN : DIS_JUDGE_HUMAN;
	}
	return k;
}

static unsigned filter_kinds(enum review_filter f)
{
	switch (f) {
	case FILTER_DISAGREE:    return DIS_SCORERS;
	case FILTER_JUDGE_HUMAN: return DIS_JUDGE_HUMAN;
	case FILTER_CODE_HUMAN:  return DIS_CODE_HUMAN;
	case FILTER_CODE_JUDGE:  return DIS_CODE_JUDGE;
	case FILTER_REVIEWERS:   return DIS_REVIEWERS;
	default:                 return 0;
	}
}

unsigned review_disagreement_kinds(const struct review *rv)
{
	unsigned k = filter_kinds(rv->filter);
	return k ? k : DIS_ANY_LABELLED;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return x < y ? -1 : x > y;
}

/* Any verdict of the run failing, or an error, among the rows shown. */
static void machine_flags(const struct review *rv, size_t entry, bool *any_fail, bool *any_error)
{
	const struct review_entry *e = &rv->entries[entry];
	*any_fail = *any_error = false;
	for (size_t i = 0; i < review_nscorers(rv); i++) {
		if (!row_shown(rv, entry, i))
			continue;
		const struct verdict_cell *c = &e->cells[i];
		*any_fail |= c->status == VERDICT_OK && !c->passed;
		*any_error |= c->status == VERDICT_ERROR;
	}
}

struct has_ctx {
	const struct review *rv;
	const char *name;
	bool found;
};

static void has_tag(void *ctx, const struct decision *d)
{
	struct has_ctx *h = ctx;
	if (h->found || d->kind != DEC_TAG || !d->tag)
		return;
	h->found = vocab_code_eq(d->tag, h->name) ||
	           vocab_code_eq(vocab_tag_name(&h->rv->cfg->vocab, h->rv->annot, d->tag), h->name);
}

/* FILTER_TAG: a tag on the run or a call counting under `name`. */
static bool run_has_tag(const struct review *rv, const char *run, const char *name)
{
	struct has_ctx h = { .rv = rv, .name = name };
	if (rv->annot && rv->cfg && run && name && *name)
		annot_each_of_run(rv->annot, run, has_tag, &h);
	return h.found;
}

bool review_entry_passes(const struct review *rv, size_t entry, enum review_filter f)
{
	const struct review_entry *e = &rv->entries[entry];
	/* The share comes before every filter, so a reviewer sees only theirs. */
	if (rv->assign.on && (!e->summarized || !e->in_share))
		return false;
	if (f == FILTER_ALL)
		return true;
	if (!e->summarized)
		return false;
	bool any_fail, any_error;
	switch (f) {
	/* a record that could not be read has nothing to review (see errors) */
	case FILTER_UNREVIEWED: return e->mark == MARK_UNREVIEWED && !e->load_failed;
	case FILTER_FAILING:    machine_flags(rv, entry, &any_fail, &any_error); return any_fail;
	case FILTER_OVERRIDDEN: return e->any_override;
	case FILTER_ERRORS:
		machine_flags(rv, entry, &any_fail, &any_error);
		return e->load_failed || any_error;
	case FILTER_STALE:      return review_entry_has_stale(rv, entry);
	case FILTER_TAG:        return run_has_tag(rv, e->id, rv->tagf.name);
	case FILTER_CELL:
		return rv->cell.n && bsearch(&entry, rv->cell.entries, rv->cell.n, sizeof(size_t), cmp_size);
	default:
		return (review_entry_disagreements(rv, entry) & filter_kinds(f)) != 0;
	}
}

/* Filters about judges mean nothing without judges, nor those about code
 * scorers without scorers: the cycle leaves them out. */
static bool filter_applies(const struct review *rv, enum review_filter f)
{
	switch (f) {
	case FILTER_JUDGE_HUMAN: return review_njudges(rv) > 0;
	case FILTER_CODE_HUMAN:  return review_nscorers(rv) > 0;
	case FILTER_CODE_JUDGE:  return review_njudges(rv) > 0 && review_nscorers(rv) > 0;
	case FILTER_CELL:        return false;
	case FILTER_TAG:         return rv->tagf.name[0] != '\0';
	default:                 return true;
	}
}

enum review_filter review_filter_next(const struct review *rv, enum review_filter f)
{
	unsigned next = (unsigned)f;
	do
		next = (next + 1) % FILTER_COUNT;
	while (!filter_applies(rv, (enum review_filter)next));
	return (enum review_filter)next;
}

const char *review_filter_label(const struct review *rv)
{
	if (rv->filter == FILTER_TAG)
		return rv->tagf.label;
	return rv->filter == FILTER_CELL ? rv->cell.name : review_filter_name(rv->filter);
}

const char *review_filter_name(enum review_filter f)
{
	static const char *const names[FILTER_COUNT] = {
		"all", "unreviewed", "failing", "disagreement", "overridden", "errors",
		"judge \xe2\x89\xa0 human", "code \xe2\x89\xa0 human", "code \xe2\x89\xa0 judge",
		"reviewers disagree", "stale label", "cell", "tag",
	};
	return (unsigned)f < FILTER_COUNT ? names[f] : "?";
}
