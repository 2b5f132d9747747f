/* shortnames.c - what tells a set of names apart: shared starts and ends dropped. */
#include "util/shortnames.h"

#include <stdlib.h>
#include <string.h>

#include "util/wtext.h"

static bool is_sep(char c)
{
	return c == '-' || c == '_' || c == '/' || c == ':' || c == '.' || c == '#' || c == '@' ||
	       c == ' ';
}

/* Whether byte `at` of s (len bytes) starts a character and a cluster. */
static bool can_cut(const char *s, size_t len, size_t at)
{
	if (at == 0 || at >= len)
		return true;
	if (((unsigned char)s[at] & 0xC0) == 0x80)
		return false;
	return wtext_can_cut(s, len, at);
}

static size_t text_width(const char *s, size_t len)
{
	size_t n;
	wchar_t *w = wtext_decode(s, len, 0, &n);
	size_t width = wtext_width(w, n);
	free(w);
	return width;
}

size_t short_name_width(const char *name, const struct short_name *s)
{
	if (!name)
		return 0;
	return text_width(name + s->from, s->len) + s->lead + s->trail;
}

struct shared {
	size_t pre, suf;            /* bytes every name starts and ends with */
	size_t minlen;
	const char *first;          /* a name, for the shared bytes */
	size_t first_len;
};

static bool find_shared(const char *const *names, size_t n, struct shared *sh)
{
	size_t valid = 0;
	bool differ = false;
	for (size_t i = 0; i < n; i++) {
		if (!names[i])
			continue;
		size_t len = strlen(names[i]);
		if (!valid++) {
			sh->first = names[i];
			sh->first_len = sh->pre = sh->suf = sh->minlen = len;
			continue;
		}
		differ |= strcmp(names[i], sh->first) != 0;
		size_t p = 0, q = 0;
		while (p < sh->pre && p < len && names[i][p] == sh->first[p])
			p++;
		while (q < sh->suf && q < len && names[i][len - 1 - q] == sh->first[sh->first_len - 1 - q])
			q++;
		sh->pre = p;
		sh->suf = q;
		if (len < sh->minlen)
			sh->minlen = len;
	}
	return valid >= 2 && differ;
}

/* The cut points shared by all names (pre bytes dropped at the start, suf
 * at the end), each name keeping at least a character. */
static bool cut_ok(const char *const *names, size_t n, size_t pre, size_t suf)
{
	for (size_t i = 0; i < n; i++) {
		if (!names[i])
			continue;
		size_t len = strlen(names[i]);
		if (pre + suf >= len || !can_cut(names[i], len, pre) || !can_cut(names[i], len, len - suf))
			return false;
	}
	return true;
}

/* The longest shared start and end that leave every name a character, at
 * any character (words false) or at separators (words true). */
static void cut_points(const char *const *names, size_t n, const struct shared *sh, bool words,
                       size_t *pre, size_t *suf)
{
	size_t p = sh->pre, q = sh->suf;
	if (p + q >= sh->minlen)
		q = sh->minlen > p ? sh->minlen - p - 1 : 0;
	if (p >= sh->minlen)
		p = sh->minlen ? sh->minlen - 1 : 0;
	if (words) {
		/* the start dropped ends with a separator, the end dropped begins with one */
		while (p > 0 && !is_sep(sh->first[p - 1]))
			p--;
		size_t at = sh->first_len - q;
		while (q > 0 && !is_sep(sh->first[at]))
			q--, at++;
	}
	while (p > 0 && !cut_ok(names, n, p, 0))
		p--;
	while (q > 0 && !cut_ok(names, n, p, q))
		q--;
	*pre = p;
	*suf = q;
}

static size_t widest(const char *const *names, size_t n, size_t pre, size_t suf, struct short_name *out)
{
	size_t w = 0;
	for (size_t i = 0; i < n; i++) {
		if (!names[i]) {
			out[i] = (struct short_name){ 0 };
			continue;
		}
		size_t len = strlen(names[i]);
		out[i] = (struct short_name){ .from = pre, .len = len - pre - suf, .lead = pre > 0,
		                              .trail = suf > 0 };
		size_t sw = short_name_width(names[i], &out[i]);
		if (sw > w)
			w = sw;
	}
	return w;
}

void short_names(const char *const *names, size_t n, size_t cols, struct short_name *out)
{
	struct shared sh = { 0 };
	if (widest(names, n, 0, 0, out) <= cols || !find_shared(names, n, &sh))
		return;
	size_t pre, suf;
	cut_points(names, n, &sh, true, &pre, &suf);
	if (widest(names, n, pre, suf, out) <= cols)
		return;
	cut_points(names, n, &sh, false, &pre, &suf);
	widest(names, n, pre, suf, out);
}
