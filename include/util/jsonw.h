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

/* Truthiness of a JSON value as JavaScript sees it; NULL is undefined. */
bool json_truthy(const json_t *v);

#endif
