/* jsonw.c - compact JSON output that prints numbers as JavaScript does. */
#include "util/jsonw.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Appends without a call per byte: the writer runs for every line of
 * `score`'s output. */
static inline void put(struct strbuf *sb, const char *s, size_t n)
{
	strbuf_grow(sb, n);
	if (n)
		memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

static inline void put_ch(struct strbuf *sb, char c)
{
	if (sb->len + 2 > sb->cap)
		strbuf_grow(sb, 1);
	sb->buf[sb->len++] = c;
	sb->buf[sb->len] = '\0';
}

#define PUT_LIT(sb, lit) put((sb), (lit), sizeof(lit) - 1)

/* An integer in decimal, as printf's %lld writes it. */
static void put_int(struct strbuf *sb, long long v)
{
	char tmp[24];
	char *p = tmp + sizeof tmp;
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		*--p = '-';
	put(sb, p, (size_t)(tmp + sizeof tmp - p));
}

/* The shortest digits of d (no sign, trailing zeros dropped) that read
 * back to the same double, into digits; returns their count and puts the
 * decimal exponent of the first one in *exp. */
static int shortest_digits(double d, char digits[24], int *exp)
{
	char buf[40];
	/* The shortest p with a round trip is found from 15 up: when fewer
	 * digits read back, the 15-digit rounding is those digits followed by
	 * zeros (a double is within 2^-53 of them, far under half a unit of
	 * the 15th digit), which are dropped below. So this is the search from
	 * 1 up, in at most three tries instead of up to seventeen. Subnormal
	 * numbers hold fewer bits, so the bound does not hold for them. */
	for (int prec = fabs(d) < DBL_MIN ? 1 : 15; prec <= 17; prec++) {
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
		PUT_LIT(sb, "null");
		return;
	}
	if (d == 0) {
		put_ch(sb, '0');             /* -0 prints as 0 in JS */
		return;
	}
	/* Integral values below 2^53 print as plain integers; scores of 0 and
	 * 1 take this path, which skips the digit search below. */
	if (d > -9007199254740992.0 && d < 9007199254740992.0 && d == (double)(long long)d) {
		put_int(sb, (long long)d);
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
	sb->buf[sb->len++] = '"';
	size_t start = 0;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		put(sb, s + start, i - start);
		start = i + 1;
		switch (c) {
		case '"':  PUT_LIT(sb, "\\\""); break;
		case '\\': PUT_LIT(sb, "\\\\"); break;
		case '\n': PUT_LIT(sb, "\\n"); break;
		case '\r': PUT_LIT(sb, "\\r"); break;
		case '\t': PUT_LIT(sb, "\\t"); break;
		case '\b': PUT_LIT(sb, "\\b"); break;
		case '\f': PUT_LIT(sb, "\\f"); break;
		default: {
			char u[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };
			put(sb, u, sizeof u);
		}
		}
	}
	put(sb, s + start, len - start);
	put_ch(sb, '"');
}

void jsonw_value(struct strbuf *sb, const json_t *v)
{
	const char *key;
	json_t *item;
	size_t i;

	if (!v) {
		PUT_LIT(sb, "null");
		return;
	}
	switch (json_typeof(v)) {
	case JSON_OBJECT: {
		bool first = true;
		put_ch(sb, '{');
		json_object_foreach((json_t *)v, key, item) {
			if (!first)
				put_ch(sb, ',');
			first = false;
			jsonw_string(sb, key, strlen(key));
			put_ch(sb, ':');
			jsonw_value(sb, item);
		}
		put_ch(sb, '}');
		break;
	}
	case JSON_ARRAY:
		put_ch(sb, '[');
		json_array_foreach((json_t *)v, i, item) {
			if (i)
				put_ch(sb, ',');
			jsonw_value(sb, item);
		}
		put_ch(sb, ']');
		break;
	case JSON_STRING:
		jsonw_string(sb, json_string_value(v), json_string_length(v));
		break;
	case JSON_INTEGER:
		put_int(sb, (long long)json_integer_value(v));
		break;
	case JSON_REAL:
		jsonw_number(sb, json_real_value(v));
		break;
	case JSON_TRUE:
		PUT_LIT(sb, "true");
		break;
	case JSON_FALSE:
		PUT_LIT(sb, "false");
		break;
	case JSON_NULL:
		PUT_LIT(sb, "null");
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
