/* jsonw.c - compact JSON output that prints numbers as JavaScript does. */
#include "util/jsonw.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
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
static void number_layout(struct strbuf *sb, double d);

/* Scores repeat (2/3, 0.75, ...) and their digits take a few rounds of
 * printf and strtod: the text of the reals printed last, per thread, by
 * their bits. */
#define NUM_CACHE 64
struct num_cached {
	uint64_t bits;
	uint8_t len;            /* 0: empty */
	char text[31];
};
static _Thread_local struct num_cached num_cache[NUM_CACHE];

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
	uint64_t bits;
	memcpy(&bits, &d, sizeof bits);
	struct num_cached *nc = &num_cache[(bits ^ (bits >> 29) ^ (bits >> 47)) % NUM_CACHE];
	if (nc->len && nc->bits == bits) {
		put(sb, nc->text, nc->len);
		return;
	}
	size_t at = sb->len;
	number_layout(sb, d);
	size_t len = sb->len - at;
	if (len < sizeof nc->text) {
		nc->bits = bits;
		nc->len = (uint8_t)len;
		memcpy(nc->text, sb->buf + at, len);
	}
}

/* Number.prototype.toString of a finite, non-integral or large d. */
static void number_layout(struct strbuf *sb, double d)
{
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

/* Whether any of the 8 bytes in w needs a look: is below 0x20, is '"' or
 * '\\' (the classic "has a zero byte" test on w ^ c, and "has a byte below
 * n" for the control characters), or is DEL or a lead byte of a terminal
 * control (0xc2 of the C1 controls, 0xd8 of U+061C, 0xe2 of the other bidi
 * controls; those of other characters are let through after the look). */
static inline bool needs_escape8(uint64_t w)
{
	const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
#define HAS_BYTE(c) (((w ^ (ones * (c))) - ones) & ~(w ^ (ones * (c))))
	uint64_t t = ((w - ones * 0x20) & ~w) | HAS_BYTE('"') | HAS_BYTE('\\') | HAS_BYTE(0x7f) |
	             HAS_BYTE(0xc2) | HAS_BYTE(0xd8) | HAS_BYTE(0xe2);
#undef HAS_BYTE
	return (t & highs) != 0;
}

unsigned jsonw_terminal_control(const char *s, size_t left, unsigned *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	if (left >= 1 && u[0] == 0x7f) {
		*cp = 0x7f;
		return 1;
	}
	if (left >= 2 && u[0] == 0xc2 && u[1] >= 0x80 && u[1] <= 0x9f) {
		*cp = u[1];                             /* U+0080..U+009F */
		return 2;
	}
	if (left >= 2 && u[0] == 0xd8 && u[1] == 0x9c) {
		*cp = 0x061c;                           /* ARABIC LETTER MARK */
		return 2;
	}
	if (left >= 3 && u[0] == 0xe2 && (u[1] == 0x80 || u[1] == 0x81)) {
		unsigned c = 0x2000u | ((unsigned)(u[1] & 0x3f) << 6) | (u[2] & 0x3fu);
		if ((u[2] & 0xc0) == 0x80 &&
		    (c == 0x200e || c == 0x200f || (c >= 0x202a && c <= 0x202e) ||
		     (c >= 0x2066 && c <= 0x2069))) {
			*cp = c;
			return 3;
		}
	}
	return 0;
}

static void put_u_escape(struct strbuf *sb, unsigned cp)
{
	static const char hex[] = "0123456789abcdef";
	char u[6] = { '\\', 'u', hex[(cp >> 12) & 15], hex[(cp >> 8) & 15], hex[(cp >> 4) & 15],
	              hex[cp & 15] };
	put(sb, u, sizeof u);
}

void jsonw_inert(struct strbuf *sb, const char *s, size_t len)
{
	size_t start = 0;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c != 0x7f && c != 0xc2 && c != 0xd8 && c != 0xe2)
			continue;
		unsigned cp, n = jsonw_terminal_control(s + i, len - i, &cp);
		if (!n)
			continue;
		put(sb, s + start, i - start);
		put_u_escape(sb, cp);
		start = i + n;
		i += n - 1;
	}
	put(sb, s + start, len - start);
}

/* jsonw_string, with the terminal controls kept raw unless inert. */
static void string_out(struct strbuf *sb, const char *s, size_t len, bool inert)
{
	strbuf_grow(sb, len + 2);
	sb->buf[sb->len++] = '"';
	size_t start = 0;
	for (size_t i = 0; i < len; i++) {
		/* Eight plain bytes at a time, the usual case. */
		while (i + 8 <= len) {
			uint64_t w;
			memcpy(&w, s + i, 8);
			if (needs_escape8(w))
				break;
			i += 8;
		}
		if (i >= len)
			break;
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c != '"' && c != '\\') {
			unsigned cp, n;
			if (!inert || (c != 0x7f && c != 0xc2 && c != 0xd8 && c != 0xe2) ||
			    !(n = jsonw_terminal_control(s + i, len - i, &cp)))
				continue;
			put(sb, s + start, i - start);
			put_u_escape(sb, cp);
			start = i + n;
			i += n - 1;
			continue;
		}
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
		default:
			put_u_escape(sb, c);
		}
	}
	put(sb, s + start, len - start);
	put_ch(sb, '"');
}

void jsonw_string(struct strbuf *sb, const char *s, size_t len)
{
	string_out(sb, s, len, true);
}

static void value_plain(struct strbuf *sb, const json_t *v, struct jsonw_memo *memo, bool inert);

/* A member of a container: through the memo when written inert. */
static void value_item(struct strbuf *sb, const json_t *v, struct jsonw_memo *memo, bool inert)
{
	if (inert)
		jsonw_value_memo(sb, v, memo);
	else
		value_plain(sb, v, NULL, false);
}

static void value_plain(struct strbuf *sb, const json_t *v, struct jsonw_memo *memo, bool inert)
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
			string_out(sb, key, strlen(key), inert);
			put_ch(sb, ':');
			value_item(sb, item, memo, inert);
		}
		put_ch(sb, '}');
		break;
	}
	case JSON_ARRAY:
		put_ch(sb, '[');
		json_array_foreach((json_t *)v, i, item) {
			if (i)
				put_ch(sb, ',');
			value_item(sb, item, memo, inert);
		}
		put_ch(sb, ']');
		break;
	case JSON_STRING:
		string_out(sb, json_string_value(v), json_string_length(v), inert);
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

void jsonw_value_memo(struct strbuf *sb, const json_t *v, struct jsonw_memo *memo)
{
	/* Only a container held more than once can turn up again. */
	if (!memo || !v || !(json_is_object(v) || json_is_array(v)) || v->refcount <= 1) {
		value_plain(sb, v, memo, true);
		return;
	}
	for (size_t k = 0; k < memo->n; k++)
		if (memo->v[k] == v) {
			/* Grown first: the text copied lies in the same buffer. */
			strbuf_grow(sb, memo->len[k]);
			memcpy(sb->buf + sb->len, sb->buf + memo->at[k], memo->len[k]);
			sb->len += memo->len[k];
			sb->buf[sb->len] = '\0';
			return;
		}
	size_t at = sb->len;
	value_plain(sb, v, memo, true);
	if (memo->n < JSONW_MEMO_MAX) {
		memo->v[memo->n] = v;
		memo->at[memo->n] = at;
		memo->len[memo->n] = sb->len - at;
		memo->n++;
	}
}

void jsonw_value(struct strbuf *sb, const json_t *v)
{
	value_plain(sb, v, NULL, true);
}

void jsonw_value_raw(struct strbuf *sb, const json_t *v)
{
	value_plain(sb, v, NULL, false);
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

void jsonw_member_num(struct strbuf *sb, const char *key, bool has, double d)
{
	strbuf_addf(sb, ",\"%s\":", key);
	if (has)
		jsonw_number(sb, d);
	else
		strbuf_addstr(sb, "null");
}

void jsonw_member_str(struct strbuf *sb, const char *key, const char *v)
{
	strbuf_addf(sb, ",\"%s\":", key);
	if (v)
		jsonw_string(sb, v, strlen(v));
	else
		strbuf_addstr(sb, "null");
}
