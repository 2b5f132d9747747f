/* help.c - the help screen: the key table by section, then the mouse.
 *
 * Its text is keymap_print's, so it never disagrees with the bindings: a
 * line that does not start with a blank is a section's heading, the others
 * are keys, name and description, the description wrapping under itself.
 * The title says which section is at the top and how much is left; Tab and
 * Shift-Tab go from section to section. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui_int.h"

/* Where a help line's description starts: after the keys (which end at
 * two spaces) and the action name. 0 when the line has no description. */
static size_t help_desc_col(const char *p, size_t len)
{
	size_t i = 0;
	while (i < len && p[i] == ' ')
		i++;
	while (i + 1 < len && !(p[i] == ' ' && p[i + 1] == ' '))
		i++;
	while (i < len && p[i] == ' ')
		i++;
	while (i < len && p[i] != ' ')
		i++;
	while (i < len && p[i] == ' ')
		i++;
	return i < len ? i : 0;
}

/* The help as the keymap prints it, laid out for this width: headings are
 * tagged 1 (so the title can name the section the reader is in). */
static void help_layout(const struct tui *t, struct pager *pg)
{
	char *buf = NULL;
	size_t blen = 0;
	FILE *f = open_memstream(&buf, &blen);
	if (!f)
		return;
	keymap_print(&t->km, f, false);
	fclose(f);
	int w = COLS - 1;
	/* keymap_print aligns every description in one column: the first
	 * entry's says where (a mouse line has no action name to skip). */
	size_t dcol = 0;
	for (const char *p = buf; p && *p && !dcol;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		if (len && p[0] == ' ')
			dcol = help_desc_col(p, len);
		p += len + (nl ? 1 : 0);
	}
	for (const char *p = buf; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		if (len && p[0] != ' ') {
			if (pg->n)
				pager_add(pg, NULL, 0, "", 0, w, SLOT_NORMAL, 0);
			pager_add(pg, NULL, 0, p, len, w, SLOT_HEADER, 1);
		} else {
			size_t dc = dcol < len ? dcol : help_desc_col(p, len);
			pager_add(pg, p, dc, p + dc, len - dc, w, SLOT_NORMAL, 0);
		}
		p += len + (nl ? 1 : 0);
	}
	free(buf);
}

/* Scrolling stops with the last line at the bottom. */
void help_fit(struct tui *t)
{
	struct pager pg = {0};
	help_layout(t, &pg);
	t->help.top = pager_clamp(&pg, t->help.top);
	pager_free(&pg);
}

/* The section the reader is in: the one Tab went to while its heading is
 * on the page (near the end it cannot reach the top), else the one at the
 * top of the page. */
static void help_section_at(const struct tui *t, const struct pager *pg, struct strbuf *out)
{
	size_t top = t->help.top, at = top;
	size_t mark = t->help.mark ? t->help.mark - 1 : SIZE_MAX;
	if (mark < pg->n && mark >= top && mark < top + pager_rows())
		at = mark;
	for (size_t i = at + 1; i-- > 0;) {
		if (i < pg->n && pg->lines[i].tag == 1) {
			for (size_t k = 0; k < pg->lines[i].len; k++)
				strbuf_addch(out, (char)pg->lines[i].text[k]);  /* headings are ASCII */
			return;
		}
	}
}

void help_draw(const struct tui *t)
{
	struct pager pg = {0};
	help_layout(t, &pg);
	struct strbuf title = STRBUF_INIT;
	strbuf_addstr(&title, "[help] ");
	help_section_at(t, &pg, &title);
	pager_draw(t, &pg, t->help.top, title.buf, "Tab next section  Esc closes");
	strbuf_release(&title);
	pager_free(&pg);
}

/* Tab and Shift-Tab: the next or the previous section's heading to the top
 * (or as near it as the end of the page lets it come). */
static void help_section_step(struct tui *t, int dir)
{
	struct pager pg = {0};
	help_layout(t, &pg);
	size_t top = pager_clamp(&pg, t->help.top);
	size_t from = t->help.mark ? t->help.mark - 1 : top;
	size_t to = SIZE_MAX;
	if (dir > 0) {
		for (size_t i = from + 1; i < pg.n && to == SIZE_MAX; i++)
			if (pg.lines[i].tag == 1)
				to = i;
	} else {
		for (size_t i = from; i-- > 0 && to == SIZE_MAX;)
			if (pg.lines[i].tag == 1)
				to = i;
	}
	if (to != SIZE_MAX) {
		t->help.top = to;
		t->help.mark = to + 1;
	}
	pager_free(&pg);
}

/* The help scrolls and goes by sections; any other key closes it. */
unsigned help_key(struct tui *t, enum tcr_action a)
{
	if (pager_scroll(&t->help.top, a)) {
		t->help.mark = 0;
		return REDRAW_ALL;
	}
	if (a == ACT_FOCUS_NEXT || a == ACT_FOCUS_PREV) {
		help_section_step(t, a == ACT_FOCUS_NEXT ? 1 : -1);
		return REDRAW_ALL;
	}
	t->help.shown = false;
	return REDRAW_ALL;
}
