/* pager.c - a full-screen page of wrapped lines (the help, the message log).
 *
 * An overlay's text is laid out again for each draw, as it is short (the
 * key table, at most MSGLOG_MAX messages): wrapped by display width with a
 * hanging indent, scrolled by `top`, and titled with where the reader is
 * and whether more follows, so a long page never looks complete. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tui_int.h"
#include "util/wtext.h"
#include "util/xalloc.h"

static struct pager_line *pager_push(struct pager *pg)
{
	if (pg->n == pg->cap) {
		pg->cap = pg->cap ? pg->cap * 2 : 64;
		pg->lines = xrealloc(pg->lines, pg->cap * sizeof *pg->lines);
	}
	struct pager_line *l = &pg->lines[pg->n++];
	memset(l, 0, sizeof *l);
	return l;
}

void pager_add(struct pager *pg, const char *prefix, size_t plen, const char *text, size_t len,
               int width, int slot, int tag)
{
	int pw = prefix ? draw_width(prefix, plen) : 0;
	/* A prefix too wide for the text beside it: the text goes under it. */
	int tw = width - pw;
	if (tw < 16) {
		if (prefix && plen) {
			pager_add(pg, prefix, plen, "", 0, width, slot, tag);
			pg->lines[pg->n - 1].tag = tag;
		}
		prefix = NULL;
		plen = 0;
		tw = width - 2;
		pw = 2;
	}
	struct wtext_wrapped wr;
	wtext_wrap(&wr, text, len, (size_t)(tw > 1 ? tw : 1), WTEXT_TABS);
	for (size_t k = 0; k < wr.nlines; k++) {
		struct pager_line *l = pager_push(pg);
		l->slot = slot;
		l->tag = tag;
		l->indent = pw;
		if (k == 0 && prefix)
			l->prefix = wtext_decode(prefix, plen, 0, &l->plen);
		l->len = wr.lines[k].len;
		l->text = xmalloc((l->len + 1) * sizeof *l->text);
		memcpy(l->text, wr.text + wr.lines[k].start, l->len * sizeof *l->text);
		l->text[l->len] = 0;
	}
	wtext_wrapped_free(&wr);
}

void pager_free(struct pager *pg)
{
	for (size_t i = 0; i < pg->n; i++) {
		free(pg->lines[i].prefix);
		free(pg->lines[i].text);
	}
	free(pg->lines);
	memset(pg, 0, sizeof *pg);
}

size_t pager_rows(void)
{
	return LINES > 2 ? (size_t)LINES - 2 : 1;
}

size_t pager_clamp(const struct pager *pg, size_t top)
{
	size_t rows = pager_rows();
	size_t max_top = pg->n > rows ? pg->n - rows : 0;
	return top > max_top ? max_top : top;
}

/* "lines 1-22 of 64, ↓ more": where the page is, and what is left. */
static void pager_where(const struct pager *pg, size_t top, struct strbuf *sb)
{
	size_t rows = pager_rows();
	size_t last = top + rows < pg->n ? top + rows : pg->n;
	if (pg->n <= rows) {
		strbuf_addf(sb, "%zu line%s, all shown", pg->n, pg->n == 1 ? "" : "s");
		return;
	}
	strbuf_addf(sb, "lines %zu-%zu of %zu", pg->n ? top + 1 : 0, last, pg->n);
	if (last < pg->n)
		strbuf_addstr(sb, ", \xe2\x86\x93 more");
	else
		strbuf_addstr(sb, ", end");
}

void pager_draw(const struct tui *t, const struct pager *pg, size_t top, const char *title,
                const char *hint)
{
	attr_t head = screen_attr(t, SLOT_TITLE_FOCUS);
	draw_fill(0, 0, COLS, head);
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "%s  ", title);
	pager_where(pg, top, &sb);
	/* The position never gives way to the hint. */
	int x = draw_text(0, 0, COLS, sb.buf, sb.len, head);
	int hw = draw_width(hint, strlen(hint));
	if (COLS - x >= hw + 3)
		draw_text(0, COLS - hw - 1, hw, hint, strlen(hint), head);
	strbuf_release(&sb);
	size_t rows = pager_rows();
	int w = COLS - 1;
	for (size_t i = 0; i < rows && top + i < pg->n; i++) {
		const struct pager_line *l = &pg->lines[top + i];
		attr_t a = screen_attr(t, l->slot);
		int y = (int)i + 1;
		if (l->prefix)
			draw_wide(y, 1, l->indent, l->prefix, l->plen, a);
		if (l->indent < w)
			draw_wide(y, 1 + l->indent, w - l->indent, l->text, l->len, a);
	}
}

/* j/k a line, PgDn/PgUp a page, g/G the ends; true when the key was one. */
bool pager_scroll(size_t *top, enum tcr_action a)
{
	long rows = (long)pager_rows();
	long d;
	switch (a) {
	case ACT_DOWN:      d = 1; break;
	case ACT_UP:        d = -1; break;
	case ACT_PAGE_DOWN: d = rows > 1 ? rows - 1 : 1; break;
	case ACT_PAGE_UP:   d = rows > 1 ? -(rows - 1) : -1; break;
	case ACT_FIRST:     *top = 0; return true;
	case ACT_LAST:      *top = SIZE_MAX / 2; return true;   /* fit clamps it */
	default:            return false;
	}
	/* in size_t, so a top still at G's "the end" (before fit clamps it)
	 * neither overflows nor wraps */
	if (d < 0)
		*top = *top > (size_t)-d ? *top - (size_t)-d : 0;
	else if (*top <= SIZE_MAX / 2 - (size_t)d)
		*top += (size_t)d;
	return true;
}
