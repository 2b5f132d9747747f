/* labels.c - reviewers' standing decisions read as labels on a row's scale, and their consensus. */
#include "review/labels.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "judge/judge.h"
#include "review/session.h"
#include "session_int.h"

double review_row_threshold(const struct review *rv, size_t row)
{
	if (row < review_nscorers(rv))
		return rv->cfg->scorers[row].threshold;
	if (row < review_nrows(rv))
		return rv->cfg->judges[row - review_nscorers(rv)].threshold;
	return NAN;
}

static bool named(const char *name, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (names[i] && !strcmp(names[i], name))
			return true;
	return false;
}

/* The score a decision gives the row: an override's own, an accept's the
 * machine score it recorded; false when it has none. */
static bool decision_score(const struct decision *d, double *out)
{
	if (d->kind == DEC_OVERRIDE && d->has_score) {
		*out = d->score;
		return true;
	}
	if (d->kind == DEC_ACCEPT && d->has_machine_score) {
		*out = d->machine_score;
		return true;
	}
	return false;
}

/* A label made on other bytes than the entry's record has now. */
static bool decision_stale(const struct decision *d, const char *hex, bool have_hex)
{
	return d->run_hash && have_hex && strcmp(d->run_hash, hex) != 0;
}

size_t labels_in_store(const struct annot_store *s, const char *run_id, const char *row_id,
                       const char *run_hash, const struct scale *span, double threshold,
                       const char *const *reviewers, size_t nreviewers,
                       struct label *out, size_t max)
{
	const char *const *all;
	size_t nall = annot_reviewers(s, &all);
	size_t n = 0;
	/* The store's list is sorted, so the labels come out sorted too. */
	for (size_t i = 0; i < nall && n < max; i++) {
		if (reviewers && !named(all[i], reviewers, nreviewers))
			continue;
		const struct decision *d = annot_current(s, run_id, row_id, all[i]);
		double score;
		if (!d || !decision_score(d, &score) || (span && !scale_holds(span, score)))
			continue;
		out[n++] = (struct label){
			.reviewer = d->reviewer,
			.score = score,
			.passed = score >= threshold,
			.stale = decision_stale(d, run_hash, run_hash != NULL),
			.d = d,
		};
	}
	return n;
}

size_t review_labels(const struct review *rv, size_t entry, size_t row,
                     const char *const *reviewers, size_t nreviewers,
                     struct label *out, size_t max)
{
	if (entry >= rv->nentries || row >= review_nrows(rv) || !rv->entries[entry].summarized)
		return 0;
	const struct review_entry *e = &rv->entries[entry];
	char hex[65];
	bool have_hex = review_entry_hash(e, hex);
	struct review_row r;
	review_row_get(rv, NULL, row, &r);
	return labels_in_store(rv->annot, e->id, review_row_id(rv, row), have_hex ? hex : NULL,
	                       &r.span, review_row_threshold(rv, row), reviewers, nreviewers, out,
	                       max);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

enum consensus_result labels_consensus(const struct label *l, size_t n, const struct scale *span,
                                       double threshold, bool include_stale, double *score,
                                       bool *passed)
{
	double v[LABELS_MAX];
	size_t k = 0, npass = 0;
	for (size_t i = 0; i < n && k < LABELS_MAX; i++) {
		if (l[i].stale && !include_stale)
			continue;
		v[k++] = l[i].score;
		npass += l[i].score >= threshold;
	}
	if (!k)
		return CONSENSUS_NONE;
	double c;
	if (span->kind == SCALE_BINARY) {
		if (2 * npass == k)
			return CONSENSUS_TIE;
		c = 2 * npass > k ? span->hi : span->lo;
	} else {
		qsort(v, k, sizeof v[0], cmp_double);
		double lo = v[(k - 1) / 2], hi = v[k / 2];
		/* Halfway between two levels is not on an integer scale. */
		if (lo != hi && scale_levels(span) > 0)
			return CONSENSUS_TIE;
		c = (lo + hi) / 2;
	}
	*score = c;
	*passed = c >= threshold;
	return CONSENSUS_OK;
}

bool review_entry_has_stale(const struct review *rv, size_t entry)
{
	if (entry >= rv->nentries || !rv->entries[entry].summarized)
		return false;
	const struct review_entry *e = &rv->entries[entry];
	char hex[65];
	if (!review_entry_hash(e, hex))
		return false;
	const char *const *all;
	size_t nall = annot_reviewers(rv->annot, &all);
	for (size_t row = 0; row < review_nrows(rv); row++)
		for (size_t i = 0; i < nall; i++) {
			const struct decision *d = annot_current(rv->annot, e->id, review_row_id(rv, row), all[i]);
			double score;
			if (d && decision_score(d, &score) && decision_stale(d, hex, true))
				return true;
		}
	return false;
}
