/* jsonw.c - compact JSON output that prints numbers as JavaScript does. */
#include "util/jsonw.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The shortest digits of d (no sign, trailing zeros dropped) that read
 * back to the same double, into digits; returns their count and puts the
 * decimal exponent of the first one in *exp. */
static int shortest_digits(double d, char digits[24], int *exp)
{
	char buf[40];
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, sizeof buf, "%.*e", prec - 1, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	/* buf is [-]D[.DDD]e[+-]XX: collect the digits and the exponent. */
	int k = 0;
	const char *p = buf;
	for (; *p && *p != 'e'; p++)
		if (*p >= '0' && *p <= '9')
			digits[k++] = *p;
	while (k > 1 && digits[k - 1] == '0')
		k--;
	digits[k] = '\0';
	*exp = atoi(p + 1);
	return k;
}

/* Number.prototype.toString: the shortest digits that read back to the
 * same double, laid out in plain notation for exponents -7 < e < 21 and in
 * exponent notation otherwise. */
void jsonw_number(struct strbuf *sb, double d)
{
	if (!isfinite(d)) {
		strbuf_addstr(sb, "null");
		return;
	}
	if (d == 0) {
		strbuf_addch(sb, '0');       /* -0 prints as 0 in JS */
		return;
	}
	/* Integral values below 2^53 print as plain integers; scores of 0 and
	 * 1 take this path, which skips the digit search below. */
	if (d > -9007199254740992.0 && d < 9007199254740992.0 && d == (double)(long long)d) {
		strbuf_addf(sb, "%lld", (long long)d);
		return;
	}
	char digits[24];
	int e;
	int k = shortest_digits(d, digits, &e);
	int n = e + 1;                  /* position of the decimal point */
	if (d < 0)
		strbuf_addch(sb, '-');
	if (k <= n && n <= 21) {
		strbuf_add(sb, digits, (size_t)k);
		for (int i = k; i < n; i++)
			strbuf_addch(sb, '0');
	} else if (0 < n && n <= 21) {
		strbuf_add(sb, digits, (size_t)n);
		strbuf_addch(sb, '.');
		strbuf_add(sb, digits + n, (size_t)(k - n));
	} else if (-6 < n && n <= 0) {
		strbuf_addstr(sb, "0.");
		for (int i = 0; i < -n; i++)
			strbuf_addch(sb, '0');
		strbuf_add(sb, digits, (size_t)k);
	} else {
		strbuf_addch(sb, digits[0]);
		if (k > 1) {
			strbuf_addch(sb, '.');
			strbuf_add(sb, digits + 1, (size_t)(k - 1));
		}
		strbuf_addf(sb, "e%c%d", n - 1 < 0 ? '-' : '+', abs(n - 1));
	}
}

void jsonw_string(struct strbuf *sb, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	strbuf_grow(sb, len + 2);
	strbuf_addch(sb, '"');
	size_t start = 0;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		strbuf_add(sb, s + start, i - start);
		start = i + 1;
		switch (c) {
		case '"':  strbuf_addstr(sb, "\\\""); break;
		case '\\': strbuf_addstr(sb, "\\\\"); break;
		case '\n': strbuf_addstr(sb, "\\n"); break;
		case '\r': strbuf_addstr(sb, "\\r"); break;
		case '\t': strbuf_addstr(sb, "\\t"); break;
		case '\b': strbuf_addstr(sb, "\\b"); break;
		case '\f': strbuf_addstr(sb, "\\f"); break;
		default: {
			char u[7] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15], 0 };
			strbuf_addstr(sb, u);
		}
		}
	}
	strbuf_add(sb, s + start, len - start);
	strbuf_addch(sb, '"');
}

void jsonw_value(struct strbuf *sb, const json_t *v)
{
	const char *key;
	json_t *item;
	size_t i;

	if (!v) {
		strbuf_addstr(sb, "null");
		return;
	}
	switch (json_typeof(v)) {
	case JSON_OBJECT: {
		bool first = true;
		strbuf_addch(sb, '{');
		json_object_foreach((json_t *)v, key, item) {
			if (!first)
				strbuf_addch(sb, ',');
			first = false;
			jsonw_string(sb, key, strlen(key));
			strbuf_addch(sb, ':');
			jsonw_value(sb, item);
		}
		strbuf_addch(sb, '}');
		break;
	}
	case JSON_ARRAY:
		strbuf_addch(sb, '[');
		json_array_foreach((json_t *)v, i, item) {
			if (i)
				strbuf_addch(sb, ',');
			jsonw_value(sb, item);
		}
		strbuf_addch(sb, ']');
		break;
	case JSON_STRING:
		jsonw_string(sb, json_string_value(v), json_string_length(v));
		break;
	case JSON_INTEGER:
		strbuf_addf(sb, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		break;
	case JSON_REAL:
		jsonw_number(sb, json_real_value(v));
		break;
	case JSON_TRUE:
		strbuf_addstr(sb, "true");
		break;
	case JSON_FALSE:
		strbuf_addstr(sb, "false");
		break;
	case JSON_NULL:
		strbuf_addstr(sb, "null");
		break;
	}
}

bool json_truthy(const json_t *v)
{
	if (!v)
		return false;
	switch (json_typeof(v)) {
	case JSON_NULL:
	case JSON_FALSE:
		return false;
	case JSON_STRING:
		return json_string_length(v) > 0;
	case JSON_INTEGER:
		return json_integer_value(v) != 0;
	case JSON_REAL: {
		double d = json_real_value(v);
		return d != 0 && !isnan(d);
	}
	default:
		return true;
	}
}
