/* textvis.c - control characters and broken UTF-8 made visible. */
#include "util/textvis.h"

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

void textvis_append(struct strbuf *sb, const char *s, size_t len, int keep_newlines)
{
	static const char hex[] = "0123456789ABCDEF";
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
		if (n == 2 && c == 0xc2 && p[i + 1] < 0xa0) {    /* C1 controls U+0080..U+009F */
			char u[9] = { '<', 'U', '+', '0', '0', hex[p[i + 1] >> 4], hex[p[i + 1] & 15], '>', 0 };
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
