/* prompt.c - prompt files: sections, placeholders, hashing, the data folder.
 *
 * The prompts are data, not code, so that a reviewer can read exactly what
 * a judge was asked and change it per judge; a verdict records the hash of
 * the text it was made with, so a changed prompt never passes for the old
 * one. */
#include "judge/prompt.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/hash.h"
#include "judge/judge.h"
#include "util/readfile.h"
#include "util/strbuf.h"
#include "util/error.h"

#ifndef PKGDATADIR
#define PKGDATADIR "."
#endif

/* The command line knows where the program's data lives ($TCREVIEW_DATADIR,
 * the build tree, the installed folder) and hands it down; the
 * configuration only needs it to find the built-in prompts. */
char *prompt_builtin_path(const char *datadir, const char *file)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "%s/prompts/%s", datadir ? datadir : PKGDATADIR, file);
	return strbuf_detach(&sb);
}

int prompt_read(const char *path, char **text, struct error *err)
{
	struct strbuf sb = STRBUF_INIT;
	*text = NULL;
	if (read_regular_file(&sb, path, READ_CAP_PROMPT, err) < 0) {
		strbuf_release(&sb);
		return -1;
	}
	if (sb.buf && memchr(sb.buf, '\0', sb.len)) {
		error_set(err, ERR_FAILED, "%s: the prompt holds a NUL byte", path);
		strbuf_release(&sb);
		return -1;
	}
	*text = strbuf_detach(&sb);
	return 0;
}

void prompt_hash(const char *text, char out[17])
{
	hash_hex(hash_fnv1a(text, strlen(text), HASH_FNV_SEED), out);
}

/* ---- sections ---------------------------------------------------------- */

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

static bool blank_line(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			return false;
	return true;
}

/* "=== NAME" with optional trailing blanks: the name's bounds. */
static bool header_line(const char *s, size_t n, size_t *nb, size_t *ne)
{
	if (n < 5 || memcmp(s, "=== ", 4) != 0)
		return false;
	size_t i = 4;
	while (i < n && name_char(s[i]))
		i++;
	if (i == 4)
		return false;
	*nb = 4;
	*ne = i;
	return blank_line(s + i, n - i);
}

/* Drops leading blank lines and trailing white space; keeps the line
 * number of what remains. */
static void section_trim(struct prompt_section *sec)
{
	for (;;) {
		const char *nl = memchr(sec->text, '\n', sec->len);
		size_t n = nl ? (size_t)(nl - sec->text) : sec->len;
		if (!nl || !blank_line(sec->text, n))
			break;
		sec->text += n + 1;
		sec->len -= n + 1;
		sec->line++;
	}
	while (sec->len && strchr(" \t\r\n", sec->text[sec->len - 1]))
		sec->len--;
}

static int parse_fail(int l, int c, int *line, int *col, struct error *err,
                      const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static int parse_fail(int l, int c, int *line, int *col, struct error *err,
                      const char *fmt, ...)
{
	va_list ap;
	*line = l;
	*col = c;
	va_start(ap, fmt);
	error_vset(err, ERR_FAILED, fmt, ap);
	va_end(ap);
	return -1;
}

/* A header line "=== NAME" at line lineno (name at s[nb..ne)) ends the
 * section before it and starts one whose text begins at body. */
static int section_start(struct prompt_doc *doc, struct prompt_section **cur, const char *s,
                         size_t nb, size_t ne, const char *body, int lineno, int *line, int *col,
                         struct error *err)
{
	char name[sizeof doc->sec[0].name];
	if (ne - nb >= sizeof name)
		return parse_fail(lineno, 5, line, col, err, "section name too long");
	memcpy(name, s + nb, ne - nb);
	name[ne - nb] = '\0';
	if (prompt_find(doc, name))
		return parse_fail(lineno, 5, line, col, err, "section '%s' appears twice", name);
	if (doc->n == PROMPT_MAX_SECTIONS)
		return parse_fail(lineno, 1, line, col, err,
		                  "more than %d sections", PROMPT_MAX_SECTIONS);
	if (*cur)
		(*cur)->len = (size_t)(s - (*cur)->text);
	*cur = &doc->sec[doc->n++];
	memcpy((*cur)->name, name, ne - nb + 1);
	(*cur)->text = body;
	(*cur)->line = lineno + 1;
	(*cur)->header_line = lineno;
	return 0;
}

/* No header at all: the whole file is the user's prompt, notes and all,
 * since '#' may just as well start a line of the prompt. */
static void whole_file_section(struct prompt_doc *doc, const char *text, size_t len)
{
	struct prompt_section *cur = &doc->sec[doc->n++];
	strcpy(cur->name, "user");
	cur->text = text;
	cur->len = len;
	cur->line = 1;
	section_trim(cur);
}

int prompt_parse(const char *text, struct prompt_doc *doc, int *line, int *col,
                 struct error *err)
{
	size_t len = strlen(text);
	struct prompt_section *cur = NULL;
	int lineno = 0;

	memset(doc, 0, sizeof *doc);
	*line = *col = 0;
	for (size_t pos = 0; pos < len;) {
		const char *s = text + pos;
		const char *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos;
		size_t next = pos + n + (nl ? 1 : 0);
		size_t nb, ne;
		lineno++;
		if (header_line(s, n, &nb, &ne)) {
			if (section_start(doc, &cur, s, nb, ne, text + next, lineno, line, col, err) < 0)
				return -1;
		} else if (!cur && !blank_line(s, n) && s[0] != '#') {
			/* Maybe a file without headers: decided once the scan ends. */
			if (doc->n == 0 && *line == 0) {
				*line = lineno;
				*col = 1;
			}
		}
		pos = next;
	}
	if (cur)
		cur->len = (size_t)(text + len - cur->text);

	if (doc->n == 0) {
		*line = *col = 0;
		whole_file_section(doc, text, len);
		return 0;
	}
	if (*line)
		return parse_fail(*line, *col, line, col, err,
		                  "text before the first section header (start a section with a line "
		                  "'=== NAME'; notes before it begin with '#')");
	for (size_t i = 0; i < doc->n; i++)
		section_trim(&doc->sec[i]);
	return 0;
}

const struct prompt_section *prompt_find(const struct prompt_doc *doc, const char *name)
{
	for (size_t i = 0; i < doc->n; i++)
		if (strcmp(doc->sec[i].name, name) == 0)
			return &doc->sec[i];
	return NULL;
}

/* ---- placeholders ------------------------------------------------------ */

static bool var_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool var_char(char c)
{
	return var_start(c) || (c >= '0' && c <= '9');
}

bool prompt_next_var(const char *s, size_t len, size_t *pos, size_t *at,
                     const char **name, size_t *nlen)
{
	for (size_t i = *pos; i + 1 < len; i++) {
		if (s[i] != '{' || s[i + 1] != '{')
			continue;
		size_t j = i + 2;
		while (j < len && (s[j] == ' ' || s[j] == '\t'))
			j++;
		if (j >= len || !var_start(s[j]))
			continue;
		size_t b = j;
		while (j < len && var_char(s[j]))
			j++;
		size_t e = j;
		while (j < len && (s[j] == ' ' || s[j] == '\t'))
			j++;
		if (j + 1 >= len || s[j] != '}' || s[j + 1] != '}')
			continue;
		*at = i;
		*name = s + b;
		*nlen = e - b;
		*pos = j + 2;
		return true;
	}
	*pos = len;
	return false;
}

bool prompt_uses(const struct prompt_section *sec, const char *name)
{
	size_t pos = 0, at, nlen, want = strlen(name);
	const char *n;
	if (!sec)
		return false;
	while (prompt_next_var(sec->text, sec->len, &pos, &at, &n, &nlen))
		if (nlen == want && memcmp(n, name, nlen) == 0)
			return true;
	return false;
}

void prompt_position(const struct prompt_section *sec, size_t at, int *line, int *col)
{
	*line = sec->line;
	*col = 1;
	for (size_t i = 0; i < at && i < sec->len; i++) {
		unsigned char c = (unsigned char)sec->text[i];
		if (c == '\n') {
			++*line;
			*col = 1;
		} else if ((c & 0xc0) != 0x80) {
			++*col;     /* count characters, as the YAML positions do */
		}
	}
}

char *prompt_render(const struct prompt_section *sec, const struct prompt_var *vars, size_t nvars)
{
	struct strbuf sb = STRBUF_INIT;
	size_t pos = 0, done = 0, at, nlen;
	const char *name;

	strbuf_addstr(&sb, "");
	if (!sec)
		return strbuf_detach(&sb);
	while (prompt_next_var(sec->text, sec->len, &pos, &at, &name, &nlen)) {
		const struct prompt_var *v = NULL;
		for (size_t i = 0; i < nvars && !v; i++)
			if (strlen(vars[i].name) == nlen && memcmp(vars[i].name, name, nlen) == 0)
				v = &vars[i];
		if (!v)
			continue;       /* stays as written, copied with the next stretch */
		strbuf_add(&sb, sec->text + done, at - done);
		if (v->value)
			strbuf_addstr(&sb, v->value);
		done = pos;
	}
	strbuf_add(&sb, sec->text + done, sec->len - done);
	return strbuf_detach(&sb);
}
