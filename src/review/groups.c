/* groups.c - runs clustered by a fingerprint (tools called, first error, verdicts), in an order that does not depend on the inputs'.
 *
 * An error's fingerprint keeps what is the same across runs that failed
 * the same way and drops what differs from run to run (the user's id, the
 * amount, the file), so that "user 4411 not found" and "user 93 not found"
 * are one group. */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config/config.h"
#include "judge/judge.h"
#include "review/groups.h"
#include "scorers/scorer.h"
#include "review/rows.h"
#include "review/session.h"
#include "runs/run.h"
#include "verdict/verdict.h"
#include "util/hash.h"
#include "util/strbuf.h"
#include "util/wtext.h"
#include "util/xalloc.h"

#define QUOTE_MAX 400           /* a quote longer than this is text, not a value */

static const char *const by_names[GROUP_BY_COUNT] = {
	[GROUP_BY_TOOLS] = "tools",
	[GROUP_BY_ERROR] = "error",
	[GROUP_BY_VERDICTS] = "verdicts",
};

const char *group_by_name(enum group_by by)
{
	return (unsigned)by < GROUP_BY_COUNT ? by_names[by] : "?";
}

bool group_by_parse(const char *s, enum group_by *out)
{
	for (int b = 0; s && b < GROUP_BY_COUNT; b++)
		if (!strcmp(s, by_names[b])) {
			*out = (enum group_by)b;
			return true;
		}
	return false;
}

/* ---- an error's text as its fingerprint --------------------------------- */

static bool is_word(unsigned char c)
{
	return isalnum(c) || c == '_';
}

static void add_space(struct strbuf *sb)
{
	if (sb->len && sb->buf[sb->len - 1] != ' ')
		strbuf_addch(sb, ' ');
}

static bool all_of(const char *s, size_t n, const char *set)
{
	for (size_t i = 0; i < n; i++)
		if (!strchr(set, s[i]))
			return false;
	return n > 0;
}

static bool has_digit(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (isdigit((unsigned char)s[i]))
			return true;
	return false;
}

static bool has_alpha(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (isalpha((unsigned char)s[i]))
			return true;
	return false;
}

#define HEX "0123456789abcdefABCDEF"

/* A UUID's shape: 8-4-4-4-12 hex digits. */
static bool is_uuid(const char *w, size_t n)
{
	if (n != 36)
		return false;
	for (size_t i = 0; i < n; i++) {
		bool dash = i == 8 || i == 13 || i == 18 || i == 23;
		if (dash ? w[i] != '-' : !strchr(HEX, w[i]))
			return false;
	}
	return true;
}

/* One word (letters, digits, '_', inner '-' and '.' between digits). */
static void add_word(struct strbuf *sb, const char *w, size_t n)
{
	if (is_uuid(w, n)) {
		strbuf_addstr(sb, "<id>");
	} else if (n > 2 && w[0] == '0' && (w[1] == 'x' || w[1] == 'X') && all_of(w + 2, n - 2, HEX)) {
		strbuf_addstr(sb, "<hex>");
	} else if (all_of(w, n, "0123456789.,-")) {
		strbuf_addstr(sb, "<n>");
	} else if (n >= 8 && has_digit(w, n) && all_of(w, n, HEX "-")) {
		strbuf_addstr(sb, "<hex>");
	} else if (n >= 6 && has_digit(w, n) && has_alpha(w, n)) {
		strbuf_addstr(sb, "<id>");      /* a reservation code, a base64-ish token */
	} else {
		for (size_t i = 0; i < n; ) {
			if (isdigit((unsigned char)w[i])) {
				strbuf_addstr(sb, "<n>");
				while (i < n && isdigit((unsigned char)w[i]))
					i++;
			} else {
				strbuf_addch(sb, w[i++]);
			}
		}
	}
}

/* The end of the word that starts at w[0]. */
static size_t word_len(const char *w, size_t n)
{
	size_t i = 0;
	while (i < n) {
		unsigned char c = (unsigned char)w[i];
		if (is_word(c)) {
			i++;
		} else if ((c == '-' || c == '.' || c == ',') && i > 0 && i + 1 < n &&
		           is_word((unsigned char)w[i + 1]) && is_word((unsigned char)w[i - 1]) &&
		           (c == '-' || (isdigit((unsigned char)w[i - 1]) && isdigit((unsigned char)w[i + 1])))) {
			i++;
		} else {
			break;
		}
	}
	return i;
}

static bool is_path(const char *t, size_t n)
{
	size_t slashes = 0;
	for (size_t i = 0; i < n; i++)
		slashes += t[i] == '/' || t[i] == '\\';
	if (n >= 2 && t[0] == '/' && t[1] != '/' && !isspace((unsigned char)t[1]))
		return true;
	if ((n > 2 && !strncmp(t, "./", 2)) || (n > 3 && !strncmp(t, "../", 3)) ||
	    (n > 2 && !strncmp(t, "~/", 2)))
		return true;
	if (n > 3 && isalpha((unsigned char)t[0]) && t[1] == ':' && t[2] == '\\')
		return true;
	return slashes >= 2;
}

static bool is_url(const char *t, size_t n)
{
	for (size_t i = 0; i + 3 <= n; i++)
		if (!strncmp(t + i, "://", 3))
			return i > 0;
	const char *at = memchr(t, '@', n);
	return at && at > t && memchr(at, '.', n - (size_t)(at - t)) && at + 1 < t + n;
}

/* One token (a run of characters without space or quote). */
static void add_token(struct strbuf *sb, const char *t, size_t n)
{
	size_t core = n;
	while (core > 0 && strchr(".,;:)]}!?", t[core - 1]))
		core--;
	if (core && (is_url(t, core) || is_path(t, core))) {
		strbuf_addstr(sb, is_url(t, core) ? "<url>" : "<path>");
		strbuf_add(sb, t + core, n - core);
		return;
	}
	for (size_t i = 0; i < n; ) {
		size_t w = is_word((unsigned char)t[i]) ? word_len(t + i, n - i) : 0;
		if (w) {
			add_word(sb, t + i, w);
			i += w;
		} else {
			strbuf_addch(sb, t[i++]);
		}
	}
}

/* Where the quote opened at s[0] closes, or 0. An apostrophe inside a
 * word ("don't") opens nothing. */
static size_t quote_end(const char *s, size_t at)
{
	char q = s[at];
	if (q == '\'' && at > 0 && is_word((unsigned char)s[at - 1]))
		return 0;
	for (size_t i = at + 1; s[i] && i - at <= QUOTE_MAX; i++) {
		if (s[i] == '\\' && s[i + 1]) {
			i++;
			continue;
		}
		if (s[i] == q)
			return i;
	}
	return 0;
}

static void put_utf8(struct strbuf *sb, wchar_t wc)
{
	uint32_t c = (uint32_t)wc;
	char b[4];
	if (c < 0x80) {
		strbuf_addch(sb, (char)c);
		return;
	}
	size_t n = c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
	for (size_t i = n - 1; i > 0; i--) {
		b[i] = (char)(0x80 | (c & 0x3f));
		c >>= 6;
	}
	b[0] = (char)((n == 2 ? 0xc0 : n == 3 ? 0xe0 : 0xf0) | c);
	strbuf_add(sb, b, n);
}

/* The text made safe to draw (wtext) and cut to GROUPS_ERROR_COLS columns. */
static char *fit_columns(const char *s, size_t len)
{
	size_t n;
	wchar_t *w = wtext_decode(s, len, 0, &n);
	n = wtext_truncate(w, n, GROUPS_ERROR_COLS, true, NULL);
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < n; i++)
		put_utf8(&sb, w[i]);
	free(w);
	return strbuf_detach(&sb);
}

char *groups_error_text(const char *text)
{
	struct strbuf sb = STRBUF_INIT;
	const char *s = text ? text : "";
	for (size_t i = 0; s[i]; ) {
		unsigned char c = (unsigned char)s[i];
		size_t q;
		if (c < 0x20 || c == 0x7f || c == ' ') {
			add_space(&sb);
			i++;
		} else if ((c == '"' || c == '\'') && (q = quote_end(s, i)) > 0) {
			strbuf_addstr(&sb, "\"<\xe2\x80\xa6>\"");
			i = q + 1;
		} else {
			size_t j = i;
			while (s[j] && (unsigned char)s[j] > 0x20 && s[j] != 0x7f && s[j] != '"' &&
			       !(s[j] == '\'' && j > i && !is_word((unsigned char)s[j - 1])))
				j++;
			if (j == i)
				j++;            /* an apostrophe that opens no quote */
			add_token(&sb, s + i, j - i);
			i = j;
		}
	}
	while (sb.len && sb.buf[sb.len - 1] == ' ')
		sb.len--;
	char *out = fit_columns(sb.buf ? sb.buf : "", sb.len);
	strbuf_release(&sb);
	if (!out[0]) {
		free(out);
		return xstrdup("(an empty error)");
	}
	return out;
}

/* ---- fingerprints of a run ------------------------------------------------ */

static void tools_of(const struct run *r, struct strbuf *sb)
{
	size_t *idx = xcalloc(r->ncalls ? r->ncalls : 1, sizeof *idx);
	size_t n = run_counted_calls(r, RUN_CALLS_AGENT, idx);
	for (size_t k = 0; k < n; ) {
		const char *name = r->calls[idx[k]].name[0] ? r->calls[idx[k]].name : "(no name)";
		size_t same = 1;
		while (k + same < n && !strcmp(r->calls[idx[k + same]].name, r->calls[idx[k]].name))
			same++;
		strbuf_addf(sb, "%s%s", k ? " \xe2\x86\x92 " : "", name);
		if (same > 1)
			strbuf_addf(sb, " \xc3\x97%zu", same);
		k += same;
	}
	free(idx);
	if (!n)
		strbuf_addstr(sb, GROUPS_NO_CALLS);
}

/* The first failed call's error text, as tool-errors decides a call failed. */
static const char *first_error(const struct run *r)
{
	size_t *idx = xcalloc(r->ncalls ? r->ncalls : 1, sizeof *idx);
	size_t n = run_counted_calls(r, RUN_CALLS_AGENT, idx);
	const char *found = NULL;
	for (size_t k = 0; k < n && !found; k++)
		found = tool_error_text(r, &r->calls[idx[k]]);
	free(idx);
	return found ? found : r->load_error;
}

static const char *cell_mark(uint8_t status, bool passed)
{
	if (status == VERDICT_OK)
		return passed ? "\xe2\x9c\x93" : "\xe2\x9c\x97";   /* ✓ ✗ */
	return status == VERDICT_SKIPPED ? "\xe2\x80\x93" : "!";  /* – */
}

static void verdicts_of(const struct review *rv, const struct review_entry *e, struct strbuf *sb)
{
	const struct config *cfg = rv->cfg;
	for (size_t i = 0; e->cells && i < cfg->nscorers; i++)
		strbuf_addf(sb, "%s%s %s", sb->len ? " \xc2\xb7 " : "", cfg->scorers[i].id,
		            cell_mark(e->cells[i].status, e->cells[i].passed));
	for (size_t j = 0; e->jcells && j < cfg->njudges; j++) {
		const struct judge_cell *jc = &e->jcells[j];
		if (jc->state == JUDGE_DONE)
			strbuf_addf(sb, "%s%s %s", sb->len ? " \xc2\xb7 " : "", cfg->judges[j].id,
			            cell_mark((uint8_t)jc->v.status, jc->v.passed));
	}
	if (!sb->len)
		strbuf_addstr(sb, "(no verdicts)");
}

char *groups_fingerprint(struct review *rv, size_t entry, enum group_by by)
{
	const struct review_entry *e = &rv->entries[entry];
	struct strbuf sb = STRBUF_INIT;
	if (e->load_failed) {
		strbuf_addstr(&sb, GROUPS_NOT_READ);
	} else if (by == GROUP_BY_VERDICTS) {
		verdicts_of(rv, e, &sb);
	} else {
		struct review_run *rr = review_run_at(rv, entry);
		if (!rr || !rr->run) {
			strbuf_addstr(&sb, GROUPS_NOT_READ);
		} else if (by == GROUP_BY_TOOLS) {
			tools_of(rr->run, &sb);
		} else {
			const char *err = first_error(rr->run);
			if (!err)
				strbuf_addstr(&sb, GROUPS_NO_ERROR);
			else {
				char *t = groups_error_text(err);
				strbuf_addstr(&sb, t);
				free(t);
			}
		}
	}
	return strbuf_detach(&sb);
}

/* ---- grouping ------------------------------------------------------------- */

static int item_cmp(const void *a, const void *b)
{
	const struct group_item *x = a, *y = b;
	int c = strcmp(x->fingerprint, y->fingerprint);
	if (!c)
		c = strcmp(x->run, y->run);
	return c ? c : x->entry < y->entry ? -1 : x->entry > y->entry;
}

static int group_cmp(const void *a, const void *b)
{
	const struct run_group *x = a, *y = b;
	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return strcmp(x->fingerprint, y->fingerprint);
}

void groups_from_items(struct run_groups *out, enum group_by by, struct group_item *items,
                       size_t n)
{
	memset(out, 0, sizeof *out);
	out->by = by;
	out->nruns = n;
	if (n > 1)
		qsort(items, n, sizeof *items, item_cmp);
	out->g = xcalloc(n ? n : 1, sizeof *out->g);
	for (size_t i = 0; i < n; ) {
		size_t j = i + 1;
		while (j < n && !strcmp(items[j].fingerprint, items[i].fingerprint))
			j++;
		struct run_group *g = &out->g[out->n++];
		g->fingerprint = items[i].fingerprint;
		g->n = j - i;
		g->entries = xcalloc(g->n, sizeof *g->entries);
		for (size_t k = i; k < j; k++) {
			g->entries[k - i] = items[k].entry;
			if (k > i)
				free(items[k].fingerprint);
		}
		g->example = items[i].run;
		uint64_t h = hash_fnv1a_part(HASH_FNV_SEED, group_by_name(by));
		h = hash_fnv1a_part(h, g->fingerprint);
		char hex[17];
		hash_hex(h, hex);
		g->id[0] = 'g';
		memcpy(g->id + 1, hex, 8);
		g->id[9] = '\0';
		i = j;
	}
	if (out->n > 1)
		qsort(out->g, out->n, sizeof *out->g, group_cmp);
}

void groups_build(struct run_groups *out, struct review *rv, enum group_by by,
                  const size_t *entries, size_t n)
{
	size_t total = entries ? n : rv->nentries, m = 0;
	struct group_item *items = xcalloc(total ? total : 1, sizeof *items);
	for (size_t k = 0; k < total; k++) {
		size_t e = entries ? entries[k] : k;
		if (e >= rv->nentries || !rv->entries[e].summarized)
			continue;
		const char *id = rv->entries[e].id ? rv->entries[e].id : rv->entries[e].source;
		items[m++] = (struct group_item){ groups_fingerprint(rv, e, by), id, e };
	}
	groups_from_items(out, by, items, m);
	free(items);
}

const struct run_group *groups_of_entry(const struct run_groups *g, size_t entry)
{
	for (size_t i = 0; g && i < g->n; i++)
		for (size_t k = 0; k < g->g[i].n; k++)
			if (g->g[i].entries[k] == entry)
				return &g->g[i];
	return NULL;
}

void groups_free(struct run_groups *g)
{
	for (size_t i = 0; g && i < g->n; i++) {
		free(g->g[i].fingerprint);
		free(g->g[i].entries);
	}
	if (g) {
		free(g->g);
		memset(g, 0, sizeof *g);
	}
}
