/* test_align.c - review/align: two call sequences aligned as diff aligns
 * lines: hand-made cases of each kind, the order inside a gap, the common
 * start and end, the bounded fallback on long runs, and on seeded random
 * sequences that every call is on one row in order and that the same
 * calls kept are as many as their longest common subsequence. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "review/align.h"

#define N_(a) (sizeof(a) / sizeof((a)[0]))

/* Rows as "S0.0 A1.1 B2- C-3" words: kind, base index, candidate index. */
static const char *spell(const struct align_row *r, size_t n)
{
	static char buf[4096];
	size_t len = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		char b[24], c[24];
		snprintf(b, sizeof b, r[i].base < 0 ? "-" : "%ld", r[i].base);
		snprintf(c, sizeof c, r[i].cand < 0 ? "-" : "%ld", r[i].cand);
		len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%c%s.%s", i ? " " : "",
		                        "SABC"[r[i].kind], b, c);
	}
	return buf;
}

static const char *aligned(const struct align_call *b, size_t nb, const struct align_call *c,
                           size_t nc, size_t *diverge)
{
	struct align_row *rows;
	size_t n = align_calls(b, nb, c, nc, &rows);
	const char *s = spell(rows, n);
	if (diverge)
		*diverge = align_first_divergence(rows, n);
	free(rows);
	return s;
}

static void test_kinds(void **st)
{
	(void)st;
	const struct align_call same[] = { { "get", "{\"id\":1}" }, { "book", "{\"n\":1}" } };
	size_t d;
	assert_string_equal(aligned(same, 2, same, 2, &d), "S0.0 S1.1");
	assert_int_equal(d, 2);
	/* One call inserted in the middle. */
	const struct align_call b1[] = { { "a", NULL }, { "b", NULL }, { "c", NULL } };
	const struct align_call c1[] = { { "a", NULL }, { "x", NULL }, { "b", NULL }, { "c", NULL } };
	assert_string_equal(aligned(b1, 3, c1, 4, &d), "S0.0 C-.1 S1.2 S2.3");
	assert_int_equal(d, 1);
	/* The same tool with other arguments shares a row. */
	const struct align_call b2[] = { { "a", "{\"q\":1}" }, { "book", "{\"bags\":1}" } };
	const struct align_call c2[] = { { "a", "{\"q\":1}" }, { "book", "{\"bags\":0}" } };
	assert_string_equal(aligned(b2, 2, c2, 2, &d), "S0.0 A1.1");
	assert_int_equal(d, 1);
	/* A same call anchors before a same tool: f(2) pairs with f(2). */
	const struct align_call b3[] = { { "f", "1" }, { "f", "2" } };
	const struct align_call c3[] = { { "f", "2" } };
	assert_string_equal(aligned(b3, 2, c3, 1, &d), "B0.- S1.0");
	assert_int_equal(d, 0);
	/* One same call outweighs two same-tool pairs. */
	const struct align_call b4[] = { { "f", "1" }, { "f", "2" }, { "g", "0" } };
	const struct align_call c4[] = { { "f", "3" }, { "f", "1" }, { "h", "0" } };
	assert_string_equal(aligned(b4, 3, c4, 3, NULL), "C-.0 S0.1 B1.- B2.- C-.2");
	/* Swapped calls: one is kept, the other is on each side alone. */
	const struct align_call b5[] = { { "a", NULL }, { "b", NULL } };
	const struct align_call c5[] = { { "b", NULL }, { "a", NULL } };
	assert_string_equal(aligned(b5, 2, c5, 2, NULL), "B0.- S1.0 C-.1");
	/* NULL arguments equal only NULL; a NULL name matches nothing. */
	const struct align_call b6[] = { { "a", NULL }, { NULL, NULL } };
	const struct align_call c6[] = { { "a", "{}" }, { NULL, NULL } };
	assert_string_equal(aligned(b6, 2, c6, 2, NULL), "A0.0 B1.- C-.1");
	assert_string_equal(align_kind_name(ALIGN_ARGS), "arguments differ");
	assert_string_equal(align_kind_name(ALIGN_CAND_ONLY), "only candidate");
}

/* In a gap the base's lone calls come first, then the candidate's. */
static void test_gap_order_and_ends(void **st)
{
	(void)st;
	const struct align_call b[] = { { "a", NULL }, { "p", NULL }, { "q", NULL }, { "z", NULL } };
	const struct align_call c[] = { { "a", NULL }, { "r", NULL }, { "z", NULL } };
	assert_string_equal(aligned(b, 4, c, 3, NULL), "S0.0 B1.- B2.- C-.1 S3.2");
	/* One side empty, both empty. */
	size_t d;
	assert_string_equal(aligned(b, 0, c, 2, &d), "C-.0 C-.1");
	assert_int_equal(d, 0);
	assert_string_equal(aligned(b, 2, c, 0, NULL), "B0.- B1.-");
	struct align_row *rows = (void *)1;
	assert_int_equal(align_calls(b, 0, c, 0, &rows), 0);
	assert_null(rows);
	assert_int_equal(align_first_divergence(NULL, 0), 0);
}

static uint32_t seed = 27;
static uint32_t next(void)
{
	seed = seed * 1664525u + 1013904223u;
	return seed >> 8;
}

/* The longest common subsequence of same calls, by the textbook table. */
static size_t lcs(const struct align_call *b, size_t nb, const struct align_call *c, size_t nc)
{
	size_t *t = calloc((nb + 1) * (nc + 1), sizeof *t);
	for (size_t i = 1; i <= nb; i++)
		for (size_t j = 1; j <= nc; j++) {
			size_t *here = &t[i * (nc + 1) + j];
			if (!strcmp(b[i - 1].name, c[j - 1].name) && !strcmp(b[i - 1].args, c[j - 1].args))
				*here = t[(i - 1) * (nc + 1) + j - 1] + 1;
			else {
				size_t up = t[(i - 1) * (nc + 1) + j], left = t[i * (nc + 1) + j - 1];
				*here = up > left ? up : left;
			}
		}
	size_t r = t[nb * (nc + 1) + nc];
	free(t);
	return r;
}

/* Every call on exactly one row, each side in order; the kinds true to
 * what they pair; same calls kept as many as the LCS. */
static void check_rows(const struct align_call *b, size_t nb, const struct align_call *c,
                       size_t nc, bool optimal)
{
	struct align_row *rows;
	size_t n = align_calls(b, nb, c, nc, &rows);
	long nextb = 0, nextc = 0;
	size_t same = 0;
	for (size_t i = 0; i < n; i++) {
		const struct align_row *r = &rows[i];
		if (r->base >= 0)
			assert_int_equal(r->base, nextb++);
		if (r->cand >= 0)
			assert_int_equal(r->cand, nextc++);
		switch (r->kind) {
		case ALIGN_SAME:
			assert_string_equal(b[r->base].name, c[r->cand].name);
			assert_string_equal(b[r->base].args, c[r->cand].args);
			same++;
			break;
		case ALIGN_ARGS:
			assert_string_equal(b[r->base].name, c[r->cand].name);
			assert_string_not_equal(b[r->base].args, c[r->cand].args);
			break;
		case ALIGN_BASE_ONLY:
			assert_true(r->base >= 0 && r->cand < 0);
			break;
		case ALIGN_CAND_ONLY:
			assert_true(r->cand >= 0 && r->base < 0);
			break;
		}
	}
	assert_int_equal(nextb, (long)nb);
	assert_int_equal(nextc, (long)nc);
	if (optimal)
		assert_int_equal(same, lcs(b, nb, c, nc));
	free(rows);
}

static const char *const names[] = { "get", "search", "book", "update" };
static const char *const args[] = { "{}", "{\"a\":1}", "{\"a\":2}" };

static void random_calls(struct align_call *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		v[i] = (struct align_call){ names[next() % N_(names)], args[next() % N_(args)] };
}

static void test_random(void **st)
{
	(void)st;
	struct align_call b[40], c[40];
	for (int round = 0; round < 400; round++) {
		size_t nb = next() % 40, nc = next() % 40;
		random_calls(b, nb);
		random_calls(c, nc);
		/* Half the rounds share a start or an end, as trials do. */
		if (round % 2 && nb > 4 && nc > 4)
			for (size_t k = 0; k < 3; k++)
				c[k] = b[k];
		check_rows(b, nb, c, nc, true);
	}
}

/* Past ALIGN_MAX_CELLS the middle goes position by position: still every
 * call once and in order, and the common start and end kept. */
static void test_long_runs(void **st)
{
	(void)st;
	size_t n = 3000;
	struct align_call *b = calloc(n, sizeof *b), *c = calloc(n, sizeof *c);
	random_calls(b, n);
	random_calls(c, n);
	for (size_t k = 0; k < 10; k++) {
		c[k] = b[k];
		c[n - 1 - k] = b[n - 1 - k];
	}
	check_rows(b, n, c, n, false);
	struct align_row *rows;
	size_t rn = align_calls(b, n, c, n, &rows);
	for (size_t k = 0; k < 10; k++) {
		assert_int_equal(rows[k].kind, ALIGN_SAME);
		assert_int_equal(rows[rn - 1 - k].kind, ALIGN_SAME);
	}
	free(rows);
	free(b);
	free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_gap_order_and_ends),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_long_runs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
