/* diff_tally.c - `tcreview diff`'s arithmetic: runs counted per task, side and scorer, each task's change and each scorer's summary. */
#include <stdlib.h>
#include <string.h>

#include "cli/diff_report.h"
#include "util/hash.h"
#include "util/trials.h"
#include "util/xalloc.h"

static const char *const change_names[DIFF_NCHANGES] = {
	"fixed", "broke", "same-pass", "same-fail", "only-base", "only-cand",
};

const char *diff_change_name(enum diff_change c)
{
	return c < DIFF_NCHANGES ? change_names[c] : "none";
}

void diff_init(struct diff *d, size_t nrows)
{
	memset(d, 0, sizeof *d);
	d->nrows = nrows;
	d->rows = xcalloc(nrows ? nrows : 1, sizeof *d->rows);
}

void diff_free(struct diff *d)
{
	for (size_t i = 0; i < d->ntasks; i++) {
		free(d->tasks[i]->text);
		free(d->tasks[i]->counts);
		free(d->tasks[i]);
	}
	free(d->tasks);
	free(d->rows);
	htab_free(&d->index);
	memset(d, 0, sizeof *d);
}

static bool task_eq(const void *item, const void *key)
{
	return !strcmp(((const struct diff_task *)item)->text, key);
}

struct diff_task *diff_task_of(struct diff *d, const char *text)
{
	uint64_t h = hash_fnv1a(text, strlen(text), 0);
	void **slot = htab_put(&d->index, h, task_eq, text);
	if (*slot)
		return *slot;
	struct diff_task *t = xcalloc(1, sizeof *t);
	t->text = xstrdup(text);
	t->counts = xcalloc(d->nrows ? d->nrows * DIFF_SIDES : 1, sizeof *t->counts);
	*slot = t;
	if (d->ntasks == d->cap) {
		d->cap = d->cap ? d->cap * 2 : 64;
		d->tasks = xrealloc(d->tasks, d->cap * sizeof *d->tasks);
	}
	d->tasks[d->ntasks++] = t;
	return t;
}

/* ---- the order of tasks ------------------------------------------------------ */

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* A decimal number as JSON writes one: -?digits(.digits)?(e[+-]?digits)? */
static bool is_number(const char *s)
{
	if (*s == '-')
		s++;
	if (!is_digit(*s))
		return false;
	while (is_digit(*s))
		s++;
	if (*s == '.') {
		s++;
		if (!is_digit(*s))
			return false;
		while (is_digit(*s))
			s++;
	}
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!is_digit(*s))
			return false;
		while (is_digit(*s))
			s++;
	}
	return !*s;
}

/* Runs of digits compared by value (leading zeros aside), the rest byte by byte. */
static int natural_cmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (is_digit(*a) && is_digit(*b)) {
			while (*a == '0' && is_digit(a[1]))
				a++;
			while (*b == '0' && is_digit(b[1]))
				b++;
			size_t na = 0, nb = 0;
			while (is_digit(a[na]))
				na++;
			while (is_digit(b[nb]))
				nb++;
			if (na != nb)
				return na < nb ? -1 : 1;
			int r = memcmp(a, b, na);
			if (r)
				return r;
			a += na;
			b += nb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}

int diff_task_cmp(const char *a, const char *b)
{
	bool na = is_number(a), nb = is_number(b);
	int r = 0;
	if (na != nb)
		return na ? -1 : 1;
	if (na) {
		double x = strtod(a, NULL), y = strtod(b, NULL);
		r = x < y ? -1 : x > y ? 1 : 0;
	} else {
		r = natural_cmp(a, b);
	}
	return r ? r : strcmp(a, b);
}

static int task_order(const void *x, const void *y)
{
	const struct diff_task *a = *(const struct diff_task *const *)x;
	const struct diff_task *b = *(const struct diff_task *const *)y;
	return diff_task_cmp(a->text, b->text);
}

void diff_sort(struct diff *d)
{
	if (d->ntasks > 1)
		qsort(d->tasks, d->ntasks, sizeof *d->tasks, task_order);
}

/* ---- changes and summaries ------------------------------------------------------ */

enum diff_change diff_change_of(const struct diff_task *t, size_t row)
{
	const struct diff_count *b = &t->counts[row * DIFF_SIDES + DIFF_BASE];
	const struct diff_count *c = &t->counts[row * DIFF_SIDES + DIFF_CAND];
	if (!b->runs && !c->runs)
		return DIFF_NONE;
	if (!c->runs)
		return DIFF_ONLY_BASE;
	if (!b->runs)
		return DIFF_ONLY_CAND;
	/* The rates compared exactly: passed_c / runs_c against passed_b / runs_b. */
	unsigned long long lc = (unsigned long long)c->passed * b->runs;
	unsigned long long lb = (unsigned long long)b->passed * c->runs;
	if (lc > lb)
		return DIFF_FIXED;
	if (lc < lb)
		return DIFF_BROKE;
	/* A task that passes half the time or less is not passing. */
	return 2ull * b->passed > b->runs ? DIFF_SAME_PASS : DIFF_SAME_FAIL;
}

void diff_summarize(const struct diff *d, size_t row, struct diff_summary *s)
{
	memset(s, 0, sizeof *s);
	s->p = 1;
	size_t n = d->ntasks ? d->ntasks : 1;
	struct trials_task *tt[DIFF_SIDES] = {
		xcalloc(n, sizeof *tt[0]), xcalloc(n, sizeof *tt[1]),
	};
	for (size_t i = 0; i < d->ntasks; i++) {
		const struct diff_task *t = d->tasks[i];
		enum diff_change ch = diff_change_of(t, row);
		if (ch == DIFF_NONE)
			continue;
		s->n[ch]++;
		if (ch == DIFF_ONLY_BASE || ch == DIFF_ONLY_CAND)
			continue;
		for (int side = 0; side < DIFF_SIDES; side++) {
			const struct diff_count *c = &t->counts[row * DIFF_SIDES + (size_t)side];
			tt[side][s->both] = (struct trials_task){ c->runs, c->passed };
		}
		s->both++;
	}
	s->rated = s->both > 0;
	s->p = trials_mcnemar_exact((unsigned)s->n[DIFF_BROKE], (unsigned)s->n[DIFF_FIXED]);
	for (int side = 0; side < DIFF_SIDES && s->rated; side++) {
		size_t counted;
		trials_mean(tt[side], s->both, 1, false, &s->rate[side], &counted);
		s->k[side] = trials_k_max(tt[side], s->both);
		s->pass_k[side] = xcalloc(s->k[side] ? s->k[side] : 1, sizeof *s->pass_k[side]);
		trials_curve(tt[side], s->both, s->k[side], s->pass_k[side], NULL, &counted);
	}
	free(tt[0]);
	free(tt[1]);
}

void diff_summary_free(struct diff_summary *s)
{
	free(s->pass_k[0]);
	free(s->pass_k[1]);
	s->pass_k[0] = s->pass_k[1] = NULL;
}

bool diff_any_broke(const struct diff *d)
{
	for (size_t r = 0; r < d->nrows; r++) {
		if (!d->rows[r].shown)
			continue;
		for (size_t i = 0; i < d->ntasks; i++)
			if (diff_change_of(d->tasks[i], r) == DIFF_BROKE)
				return true;
	}
	return false;
}
