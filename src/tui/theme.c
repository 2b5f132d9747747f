/* theme.c - theme files parsed into styles named by meaning.
 *
 * Pure text work: no curses here, so themes can be checked and tested
 * without a terminal. The screen turns a struct theme_style into colour
 * pairs and attributes when it starts. */
#include "tui/theme.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "conf/conf.h"
#include "util/readfile.h"
#include "util/strbuf.h"
#include "util/error.h"

static const struct {
	const char *name, *mono;
} slots[SLOT_COUNT] = {
#define S(id, name, mono) [SLOT_##id] = { name, mono },
	TCR_SLOTS(S)
#undef S
};

static const char *const colour_names[16] = {
	"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
	"bright-black", "bright-red", "bright-green", "bright-yellow",
	"bright-blue", "bright-magenta", "bright-cyan", "bright-white",
};

static const struct {
	const char *name;
	unsigned bit;
} attr_names[] = {
	{ "bold", THEME_ATTR_BOLD },
	{ "dim", THEME_ATTR_DIM },
	{ "underline", THEME_ATTR_UNDERLINE },
	{ "reverse", THEME_ATTR_REVERSE },
	{ "standout", THEME_ATTR_STANDOUT },
	{ "italic", THEME_ATTR_ITALIC },
};

enum { D = THEME_DEFAULT_COLOR, BLACK = 0, RED, GREEN, YELLOW, BLUE, MAGENTA, CYAN, WHITE };
enum { BRIGHT_GREEN = 10, BRIGHT_CYAN = 14 };
enum {
	B = THEME_ATTR_BOLD, DM = THEME_ATTR_DIM, U = THEME_ATTR_UNDERLINE,
	R = THEME_ATTR_REVERSE,
};

/* The dark default; themes/dark.theme says the same in the file format
 * (test_theme checks that they agree). The eight basic colours where they
 * are readable; body text that none of them makes readable on both xterm's
 * black and Tango's dark grey (4.5:1, tests/test_theme_contrast.c) takes a
 * colour of the 256, which a terminal of fewer colours draws as the
 * nearest basic one (theme_fallback_colour). */
static const struct theme_style dark[SLOT_COUNT] = {
	[SLOT_NORMAL]          = { D, D, 0 },
	[SLOT_SELECTION]       = { BLACK, CYAN, 0 },
	[SLOT_SELECTION_DIM]   = { BLACK, WHITE, 0 },
	[SLOT_HEADER]          = { D, D, B | U },
	[SLOT_TITLE]           = { D, D, B },
	[SLOT_TITLE_FOCUS]     = { BLACK, CYAN, B },
	[SLOT_BORDER]          = { BLUE, D, 0 },
	[SLOT_STATUS]          = { D, D, R },
	[SLOT_STATUS_ERROR]    = { WHITE, RED, B },
	[SLOT_PASS]            = { GREEN, D, 0 },
	[SLOT_FAIL]            = { RED, D, B },
	[SLOT_SKIPPED]         = { YELLOW, D, 0 },
	[SLOT_ERROR]           = { MAGENTA, D, R },
	[SLOT_ROLE_SYSTEM]     = { MAGENTA, D, 0 },
	[SLOT_ROLE_USER]       = { GREEN, D, B },
	[SLOT_ROLE_ASSISTANT]  = { CYAN, D, B },
	[SLOT_ROLE_TOOL]       = { YELLOW, D, 0 },
	[SLOT_TOOL_NAME]       = { CYAN, D, B },
	[SLOT_USER_TOOL]       = { BLUE, D, U },
	[SLOT_JSON_KEY]        = { 117, D, 0 },         /* light sky blue: 4.5:1 on Tango's grey too */
	[SLOT_JSON_VALUE]      = { D, D, 0 },
	[SLOT_MARK_REVIEWED]   = { CYAN, D, B },
	[SLOT_MARK_OVERRIDDEN] = { YELLOW, D, B },
	[SLOT_SEARCH_HIT]      = { BLACK, YELLOW, 0 },
	[SLOT_DIM]             = { D, D, DM },
	[SLOT_JSON_STRING]     = { D, D, 0 },
	[SLOT_JSON_NUMBER]     = { 180, D, 0 },         /* tan */
	[SLOT_DIFF_ADD]        = { BRIGHT_GREEN, D, 0 },
	[SLOT_DIFF_DEL]        = { 210, D, 0 },         /* light red: the basic reds are too dark */
	[SLOT_DIFF_HUNK]       = { BRIGHT_CYAN, D, B },
	[SLOT_DIFF_CONTEXT]    = { D, D, 0 },
	[SLOT_DIFF_FILE]       = { YELLOW, D, B },
};

const char *theme_slot_name(enum theme_slot s)
{
	return (int)s >= 0 && s < SLOT_COUNT ? slots[s].name : "?";
}

/* The 256 colours' RGB by their standard formula: 16..231 a 6x6x6 cube,
 * 232..255 a grey ramp; 0..15 as xterm draws them. */
static void colour_rgb(int c, int rgb[3])
{
	static const unsigned char basic[16][3] = {
		{ 0, 0, 0 }, { 205, 0, 0 }, { 0, 205, 0 }, { 205, 205, 0 },
		{ 0, 0, 238 }, { 205, 0, 205 }, { 0, 205, 205 }, { 229, 229, 229 },
		{ 127, 127, 127 }, { 255, 0, 0 }, { 0, 255, 0 }, { 255, 255, 0 },
		{ 92, 92, 255 }, { 255, 0, 255 }, { 0, 255, 255 }, { 255, 255, 255 },
	};
	static const int level[6] = { 0, 95, 135, 175, 215, 255 };
	if (c < 16) {
		for (int k = 0; k < 3; k++)
			rgb[k] = basic[c][k];
	} else if (c < 232) {
		rgb[0] = level[(c - 16) / 36];
		rgb[1] = level[(c - 16) / 6 % 6];
		rgb[2] = level[(c - 16) % 6];
	} else {
		rgb[0] = rgb[1] = rgb[2] = 8 + (c - 232) * 10;
	}
}

short theme_fallback_colour(short c, int colours)
{
	if (c < 0 || c < colours)
		return c;
	int want[3], best = 0;
	long best_d = -1;
	colour_rgb(c, want);
	int n = colours >= 16 ? 16 : 8;
	for (int k = 0; k < n; k++) {
		int rgb[3];
		colour_rgb(k, rgb);
		long d = 0;
		for (int i = 0; i < 3; i++)
			d += (long)(rgb[i] - want[i]) * (rgb[i] - want[i]);
		if (best_d < 0 || d < best_d) {
			best_d = d;
			best = k;
		}
	}
	return (short)best;
}

void theme_default(struct theme *t)
{
	memset(t, 0, sizeof *t);
	snprintf(t->name, sizeof t->name, "dark");
	memcpy(t->style, dark, sizeof t->style);
}

static bool attr_find(const char *word, size_t len, unsigned *bit)
{
	for (size_t i = 0; i < sizeof attr_names / sizeof attr_names[0]; i++) {
		if (strlen(attr_names[i].name) == len && memcmp(attr_names[i].name, word, len) == 0) {
			*bit = attr_names[i].bit;
			return true;
		}
	}
	return false;
}

void theme_monochrome(struct theme *t)
{
	memset(t, 0, sizeof *t);
	snprintf(t->name, sizeof t->name, "mono");
	t->monochrome = true;
	for (int s = 0; s < SLOT_COUNT; s++) {
		t->style[s].fg = t->style[s].bg = THEME_DEFAULT_COLOR;
		for (const char *p = slots[s].mono; *p;) {
			size_t len = strcspn(p, " ");
			unsigned bit;
			if (len && attr_find(p, len, &bit))
				t->style[s].attrs |= bit;
			p += len;
			p += strspn(p, " ");
		}
	}
}

/* ---- parsing ------------------------------------------------------------ */

struct parse {
	const char *file;
	int line;
	struct error *err;
};

static int parse_fail(struct parse *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int parse_fail(struct parse *ps, const char *fmt, ...)
{
	if (!ps->err)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	error_vset(ps->err, ERR_FAILED, fmt, ap);
	va_end(ap);
	return error_prefix(ps->err, "%s:%d: ", ps->file, ps->line);
}

static bool word_is(const char *w, size_t len, const char *s)
{
	return strlen(s) == len && memcmp(w, s, len) == 0;
}

static bool colour_find(const char *w, size_t len, short *out)
{
	if (word_is(w, len, "default")) {
		*out = THEME_DEFAULT_COLOR;
		return true;
	}
	for (short i = 0; i < 16; i++) {
		if (word_is(w, len, colour_names[i])) {
			*out = i;
			return true;
		}
	}
	if (len == 0 || len > 3)
		return false;
	int v = 0;
	for (size_t i = 0; i < len; i++) {
		if (w[i] < '0' || w[i] > '9')
			return false;
		v = v * 10 + (w[i] - '0');
	}
	if (v > 255)
		return false;
	*out = (short)v;
	return true;
}

#define MAX_WORDS 16

/* Splits a line (comment removed) into words; returns their count, or
 * MAX_WORDS + 1 when there are more than anyone needs. */
static size_t line_words(const char *p, const char *end, const char **w, size_t *wl)
{
	size_t n = 0;
	while (p < end) {
		while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
			p++;
		if (p == end)
			break;
		const char *s = p;
		while (p < end && *p != ' ' && *p != '\t' && *p != '\r')
			p++;
		if (n == MAX_WORDS)
			return MAX_WORDS + 1;
		w[n] = s;
		wl[n] = (size_t)(p - s);
		n++;
	}
	return n;
}

static const char *line_end(const char *p)
{
	const char *nl = strchr(p, '\n');
	return nl ? nl : p + strlen(p);
}

static const char *comment_start(const char *p, const char *end)
{
	const char *hash = memchr(p, '#', (size_t)(end - p));
	return hash ? hash : end;
}

/* "monochrome" anywhere decides the base before any slot line is read,
 * so it need not be the first line. */
static bool text_monochrome(const char *text)
{
	for (const char *p = text; *p;) {
		const char *end = line_end(p);
		const char *w[MAX_WORDS];
		size_t wl[MAX_WORDS];
		size_t n = line_words(p, comment_start(p, end), w, wl);
		if (n == 1 && word_is(w[0], wl[0], "monochrome"))
			return true;
		p = *end ? end + 1 : end;
	}
	return false;
}

static int slot_find(const char *w, size_t len)
{
	for (int s = 0; s < SLOT_COUNT; s++)
		if (word_is(w, len, slots[s].name))
			return s;
	return -1;
}

static int parse_line(struct parse *ps, struct theme *t, int *seen, const char **w,
                      const size_t *wl, size_t n)
{
	if (n > MAX_WORDS)
		return parse_fail(ps, "too many words");
	if (word_is(w[0], wl[0], "monochrome")) {
		if (n != 1)
			return parse_fail(ps, "'monochrome' stands alone on its line");
		return 0;
	}
	int s = slot_find(w[0], wl[0]);
	if (s < 0)
		return parse_fail(ps, "unknown slot '%.*s'", (int)wl[0], w[0]);
	if (seen[s])
		return parse_fail(ps, "slot '%s' is already set at line %d", slots[s].name, seen[s]);
	if (n < 3)
		return parse_fail(ps, "'%s' needs a foreground and a background colour",
		                  slots[s].name);
	struct theme_style st = { 0, 0, 0 };
	for (size_t i = 1; i < 3; i++) {
		short *c = i == 1 ? &st.fg : &st.bg;
		if (!colour_find(w[i], wl[i], c))
			return parse_fail(ps, "unknown colour '%.*s'", (int)wl[i], w[i]);
		if (t->monochrome && *c != THEME_DEFAULT_COLOR)
			return parse_fail(ps, "a monochrome theme has no colours: use 'default', not '%.*s'",
			                  (int)wl[i], w[i]);
	}
	for (size_t i = 3; i < n; i++) {
		unsigned bit;
		if (!attr_find(w[i], wl[i], &bit))
			return parse_fail(ps, "unknown attribute '%.*s'", (int)wl[i], w[i]);
		st.attrs |= bit;
	}
	t->style[s] = st;
	seen[s] = ps->line;
	return 0;
}

/* The file's base name without ".theme": a parsed theme is named after it. */
static void name_from_file(char *name, size_t n, const char *file)
{
	const char *base = strrchr(file, '/');
	base = base ? base + 1 : file;
	size_t len = strlen(base);
	if (len > 6 && strcmp(base + len - 6, ".theme") == 0)
		len -= 6;
	snprintf(name, n, "%.*s", (int)len, base);
}

int theme_parse(struct theme *t, const char *file, const char *text, struct error *err)
{
	struct parse ps = { file ? file : "<theme>", 0, err };
	struct theme nt;
	int seen[SLOT_COUNT] = { 0 };

	error_clear(err);
	if (!text)
		text = "";
	/* Built in a copy so that a bad file leaves *t as it was. */
	if (text_monochrome(text))
		theme_monochrome(&nt);
	else
		theme_default(&nt);
	name_from_file(nt.name, sizeof nt.name, ps.file);

	for (const char *p = text; *p;) {
		const char *end = line_end(p);
		const char *w[MAX_WORDS];
		size_t wl[MAX_WORDS];
		ps.line++;
		size_t n = line_words(p, comment_start(p, end), w, wl);
		if (n && parse_line(&ps, &nt, seen, w, wl, n))
			return -1;
		p = *end ? end + 1 : end;
	}
	*t = nt;
	return 0;
}

static bool name_valid(const char *name)
{
	if (!name || !*name)
		return false;
	for (const char *p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		      *p == '_' || *p == '-'))
			return false;
	return true;
}

int theme_load(struct theme *t, const char *dir, const char *name, struct error *err)
{
	char path[4096];
	error_clear(err);
	/* The name becomes part of a path: no '/', no "..". */
	if (!name_valid(name)) {
		error_set(err, ERR_FAILED, "invalid theme name '%s' (use letters, digits, _ and -)",
		         name ? name : "");
		return -1;
	}
	int pn = snprintf(path, sizeof path, "%s/themes/%s.theme", dir && *dir ? dir : ".", name);
	if (pn < 0 || (size_t)pn >= sizeof path) {
		error_set(err, ERR_FAILED, "%s: the path is too long", name);
		return -1;
	}
	struct strbuf sb = STRBUF_INIT;
	int rc = -1;
	if (read_regular_file(&sb, path, READ_CAP_THEME, err) < 0)
		;                           /* err says why */
	else if (sb.len && memchr(sb.buf, '\0', sb.len))
		error_set(err, ERR_FAILED, "%s: not a text file (it holds a NUL byte)", path);
	else
		rc = theme_parse(t, path, sb.buf ? sb.buf : "", err);
	strbuf_release(&sb);
	return rc;
}

/* ---- the theme: section of the YAML -------------------------------------- */

int theme_conf_read(struct conf *x, const struct conf_node *v, struct config *c)
{
	if (conf_str(x, v, "theme", &c->theme))
		return -1;
	/* The name becomes a file name (themes/NAME.theme); checked here so the
	 * error can point at it. Whether the file exists is known only to the
	 * screen, which knows the data folder. */
	for (const char *p = c->theme; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == '-'))
			return conf_fail(x, v, "invalid theme name '%s' (use letters, digits, _ and -)",
			            c->theme);
	return 0;
}
