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

/* Strings are written with DEL, the C1 controls (U+0080..U+009F) and the
 * bidi controls (U+061C, U+200E, U+200F, U+202A..U+202E, U+2066..U+2069)
 * as \uXXXX escapes, besides what JSON demands (C0 controls, '"', '\\'):
 * whatever a transcript or a judge holds, `cat` of what we wrote cannot
 * drive a terminal or turn its text around. */

/* Shortest decimal that reads back to the same double, as JS prints it. */
void jsonw_number(struct strbuf *sb, double d);
void jsonw_string(struct strbuf *sb, const char *s, size_t len);
/* ,"key":"v" (or ,"key":null when v is NULL): a member after the first. */
void jsonw_member_str(struct strbuf *sb, const char *key, const char *v);
/* ,"key":d (or ,"key":null when has is false): a member after the first. */
void jsonw_member_num(struct strbuf *sb, const char *key, bool has, double d);
void jsonw_value(struct strbuf *sb, const json_t *v);   /* compact, keys in order */
/* jsonw_value with the terminal controls above kept raw, as every string
 * was written before they were escaped: for keys that must stay those of
 * earlier versions (the judge cache's), never for output. */
void jsonw_value_raw(struct strbuf *sb, const json_t *v);

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

/* The byte length of the terminal control above that starts s (left
 * bytes readable), with its code point in *cp; 0 when s starts with none
 * (or with a broken sequence, which stays as it is). */
unsigned jsonw_terminal_control(const char *s, size_t left, unsigned *cp);
/* Appends the JSON text s[0..len) with those controls written as \u
 * escapes: text made by another writer (jansson's json_dumps) made as
 * inert as ours. In JSON they can stand only inside strings, where the
 * escape means the same character. */
void jsonw_inert(struct strbuf *sb, const char *s, size_t len);

/* Truthiness of a JSON value as JavaScript sees it; NULL is undefined. */
bool json_truthy(const json_t *v);

#endif
