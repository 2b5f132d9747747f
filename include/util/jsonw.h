/* jsonw.h - JSON output with JavaScript's number formatting.
 *
 * jansson prints reals with 17 significant digits and integral reals as
 * "1.0"; results must read like the JavaScript scorers they mirror ("1",
 * "0.67"), so every line we emit goes through this writer. */
#ifndef TCR_UTIL_JSONW_H
#define TCR_UTIL_JSONW_H

#include <jansson.h>
#include <stdbool.h>
#include "util/strbuf.h"

/* Shortest decimal that reads back to the same double, as JS prints it. */
void jsonw_number(struct strbuf *sb, double d);
void jsonw_string(struct strbuf *sb, const char *s, size_t len);
void jsonw_value(struct strbuf *sb, const json_t *v);   /* compact, keys in order */

/* Where containers shared by several values (a reference count above one)
 * were written into one buffer, so that writing one again copies its text
 * (`score` writes a run's list of calls in each of its verdicts). Valid
 * while those containers live unchanged and the buffer is only appended
 * to; zero it to start. */
#define JSONW_MEMO_MAX 16
struct jsonw_memo {
	const json_t *v[JSONW_MEMO_MAX];
	size_t at[JSONW_MEMO_MAX], len[JSONW_MEMO_MAX];
	size_t n;
};
/* jsonw_value, with memo (may be NULL) for sb. */
void jsonw_value_memo(struct strbuf *sb, const json_t *v, struct jsonw_memo *memo);

/* Truthiness of a JSON value as JavaScript sees it; NULL is undefined. */
bool json_truthy(const json_t *v);

#endif
