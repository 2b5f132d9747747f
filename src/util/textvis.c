/* textvis.c - control characters, invisible marks and broken UTF-8 made visible. */
#include "util/textvis.h"

#include <stdio.h>
#include <string.h>

size_t utf8_seq_len(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned char c = s[0];
	size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
	if (!len || len > n)
		return 0;
	for (size_t k = 1; k < len; k++)
		if ((s[k] & 0xc0) != 0x80)
			return 0;
	if (len == 2 && c < 0xc2)
		return 0;                                   /* overlong */
	if (len == 3 && ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] >= 0xa0)))
		return 0;                                   /* overlong or surrogate */
	if (len == 4 && ((c == 0xf0 && s[1] < 0x90) || c > 0xf4 || (c == 0xf4 && s[1] >= 0x90)))
		return 0;
	return len;
}

bool textvis_spelled_out(uint32_t cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || (cp >= 0x202a && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069) || (cp >= 0xe0000 && cp <= 0xe007f);
}

static uint32_t code_point(const unsigned char *p, size_t n)
{
	uint32_t cp = n == 2 ? (uint32_t)(p[0] & 0x1f) : n == 3 ? (uint32_t)(p[0] & 0x0f)
	            : (uint32_t)(p[0] & 0x07);
	for (size_t i = 1; i < n; i++)
		cp = (cp << 6) | (p[i] & 0x3f);
	return cp;
}

void textvis_append(struct strbuf *sb, const char *s, size_t len, int keep_newlines)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;
	while (i < len) {
		unsigned char c = p[i];
		if (c < 0x20 || c == 0x7f) {
			if (keep_newlines && (c == '\n' || c == '\t'))
				strbuf_addch(sb, (char)c);
			else {
				strbuf_addch(sb, '^');
				strbuf_addch(sb, c == 0x7f ? '?' : (char)(c + '@'));
			}
			i++;
			continue;
		}
		size_t n = utf8_seq_len(s + i, len - i);
		if (n == 0) {
			strbuf_addstr(sb, "\xef\xbf\xbd");
			i++;
			continue;
		}
		uint32_t cp = n > 1 ? code_point(p + i, n) : c;
		if (textvis_spelled_out(cp)) {
			char u[16];
			snprintf(u, sizeof u, "<U+%04X>", (unsigned)cp);
			strbuf_addstr(sb, u);
		} else {
			strbuf_add(sb, s + i, n);
		}
		i += n;
	}
}

void textvis_fputs(FILE *f, const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	textvis_append(&sb, s, strlen(s), 0);
	if (sb.buf)
		fputs(sb.buf, f);
	strbuf_release(&sb);
}
