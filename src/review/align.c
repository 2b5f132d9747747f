/* align.c - two call sequences aligned by name and arguments (review/align.h). */
#include "review/align.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

static int same_text(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return strcmp(a, b) == 0;
}

/* 2: the same call; 1: the same tool; 0: nothing to pair. */
static int likeness(const struct align_call *a, const struct align_call *b)
{
	if (!a->name || !b->name || strcmp(a->name, b->name) != 0)
		return 0;
	return same_text(a->args, b->args) ? 2 : 1;
}

struct rows {
	struct align_row *v;
	size_t n, cap;
};

static void push(struct rows *r, enum align_kind kind, long base, long cand)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 16;
		r->v = xrealloc(r->v, r->cap * sizeof *r->v);
	}
	r->v[r->n++] = (struct align_row){ kind, base, cand };
}

static void push_pair(struct rows *r, const struct align_call *b, const struct align_call *c,
                      long i, long j)
{
	int l = likeness(&b[i], &c[j]);
	if (l == 2)
		push(r, ALIGN_SAME, i, j);
	else if (l == 1)
		push(r, ALIGN_ARGS, i, j);
	else {
		push(r, ALIGN_BASE_ONLY, i, -1);
		push(r, ALIGN_CAND_ONLY, -1, j);
	}
}

/* The middle of two long runs, position by position: pairs where the tool
 * is the same, the rest as lone calls. Bounded memory, and still every call
 * on one row in order. */
static void align_linear(struct rows *r, const struct align_call *b, size_t b0, size_t b1,
                         const struct align_call *c, size_t c0, size_t c1)
{
	size_t i = b0, j = c0;
	for (; i < b1 && j < c1; i++, j++)
		push_pair(r, b, c, (long)i, (long)j);
	for (; i < b1; i++)
		push(r, ALIGN_BASE_ONLY, (long)i, -1);
	for (; j < c1; j++)
		push(r, ALIGN_CAND_ONLY, -1, (long)j);
}

/* The best alignment of b[b0..b1) with c[c0..c1): score[i][j] is the best of
 * the suffixes from (i, j), counting same calls before same tools (a same
 * call outweighs every same-tool pair there could be), then walked from
 * the start, taking a pair whenever it keeps the best score, else the
 * base's lone call, else the candidate's. */
static void align_dp(struct rows *r, const struct align_call *b, size_t b0, size_t b1,
                     const struct align_call *c, size_t c0, size_t c1)
{
	size_t nb = b1 - b0, nc = c1 - c0, w = nc + 1;
	uint64_t heavy = (uint64_t)(nb < nc ? nb : nc) + 1;
	uint64_t *score = xcalloc((nb + 1) * w, sizeof *score);
#define S(i, j) score[(size_t)(i) * w + (size_t)(j)]
	for (size_t i = nb; i-- > 0;)
		for (size_t j = nc; j-- > 0;) {
			uint64_t best = S(i + 1, j) > S(i, j + 1) ? S(i + 1, j) : S(i, j + 1);
			int l = likeness(&b[b0 + i], &c[c0 + j]);
			if (l) {
				uint64_t d = S(i + 1, j + 1) + (l == 2 ? heavy : 1);
				if (d > best)
					best = d;
			}
			S(i, j) = best;
		}
	size_t i = 0, j = 0;
	while (i < nb && j < nc) {
		int l = likeness(&b[b0 + i], &c[c0 + j]);
		if (l && S(i, j) == S(i + 1, j + 1) + (l == 2 ? heavy : 1)) {
			push(r, l == 2 ? ALIGN_SAME : ALIGN_ARGS, (long)(b0 + i), (long)(c0 + j));
			i++, j++;
		} else if (S(i, j) == S(i + 1, j)) {
			push(r, ALIGN_BASE_ONLY, (long)(b0 + i), -1);
			i++;
		} else {
			push(r, ALIGN_CAND_ONLY, -1, (long)(c0 + j));
			j++;
		}
	}
#undef S
	for (; i < nb; i++)
		push(r, ALIGN_BASE_ONLY, (long)(b0 + i), -1);
	for (; j < nc; j++)
		push(r, ALIGN_CAND_ONLY, -1, (long)(c0 + j));
	free(score);
}

size_t align_calls(const struct align_call *base, size_t nb, const struct align_call *cand,
                   size_t nc, struct align_row **out)
{
	struct rows r = { 0 };
	/* The common start and end first: most pairs of trials share them,
	 * and what is left in the middle is small. */
	size_t pre = 0;
	while (pre < nb && pre < nc && likeness(&base[pre], &cand[pre]) == 2)
		pre++;
	size_t suf = 0;
	while (suf < nb - pre && suf < nc - pre &&
	       likeness(&base[nb - 1 - suf], &cand[nc - 1 - suf]) == 2)
		suf++;
	for (size_t k = 0; k < pre; k++)
		push(&r, ALIGN_SAME, (long)k, (long)k);
	size_t mb = nb - pre - suf, mc = nc - pre - suf;
	if (mb && mc && (uint64_t)(mb + 1) * (mc + 1) <= ALIGN_MAX_CELLS)
		align_dp(&r, base, pre, nb - suf, cand, pre, nc - suf);
	else
		align_linear(&r, base, pre, nb - suf, cand, pre, nc - suf);
	for (size_t k = suf; k-- > 0;)
		push(&r, ALIGN_SAME, (long)(nb - 1 - k), (long)(nc - 1 - k));
	*out = r.v;
	return r.n;
}

size_t align_first_divergence(const struct align_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (rows[i].kind != ALIGN_SAME)
			return i;
	return n;
}

const char *align_kind_name(enum align_kind k)
{
	switch (k) {
	case ALIGN_SAME:
		return "same";
	case ALIGN_ARGS:
		return "arguments differ";
	case ALIGN_BASE_ONLY:
		return "only base";
	case ALIGN_CAND_ONLY:
		return "only candidate";
	}
	return "?";
}
