/* verdict_details.c - the opened verdict's lines: what decided it first, each item linked to its call.
 *
 * A scorer that knows which calls decided its verdict lists them in its
 * details (VERDICT_FINDINGS, verdict/verdict.h): a missing call, the
 * arguments that differ with expected against actual, an extra call. The
 * ones that count against the run come first, in the fail slot; what the
 * mode allows (an extra call in superset mode, any finding of a passing
 * verdict) after them, folded to one line, never in the fail slot. An
 * item with a call is linked to it: Enter focuses the timeline on it. The
 * explanation and the decisions follow as verdicts_details words them. */
#include "verdict_details.h"

#include <stdlib.h>
#include <string.h>

#include "review/rows.h"
#include "timeline_find.h"
#include "util/strbuf.h"
#include "util/wtext.h"
#include "util/xalloc.h"
#include "verdict/verdict.h"

struct builder {
	struct vd_lines *out;
	size_t width;
};

static struct vd_line *add_line(struct vd_lines *l)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 32;
		l->v = xrealloc(l->v, l->cap * sizeof *l->v);
	}
	struct vd_line *x = &l->v[l->n++];
	*x = (struct vd_line){ .split = SIZE_MAX, .item = SIZE_MAX, .call = -1 };
	return x;
}

static void push(struct builder *b, const wchar_t *s, size_t n, size_t pad, int slot, size_t item,
                 long call)
{
	struct vd_line *x = add_line(b->out);
	x->len = pad + n;
	x->text = xmalloc((x->len + 1) * sizeof(wchar_t));
	wmemset(x->text, L' ', pad);
	wmemcpy(x->text + pad, s, n);
	x->text[x->len] = 0;
	x->slot = x->slot2 = slot;
	x->item = item;
	x->call = call;
}

/* s wrapped to the width, the lines after the first indented by `hang`
 * (a hanging indent, under the value) and wrapped to what is left. */
static void add_text(struct builder *b, const char *s, size_t len, int slot, size_t item, long call,
                     size_t hang)
{
	struct wtext_wrapped wr;
	wtext_wrap(&wr, s, len, b->width, WTEXT_TABS);
	if (!hang || wr.nlines < 2 || b->width < hang + 16) {
		for (size_t i = 0; i < wr.nlines; i++)
			push(b, wr.text + wr.lines[i].start, wr.lines[i].len, i ? hang : 0, slot, item, call);
		wtext_wrapped_free(&wr);
		return;
	}
	push(b, wr.text + wr.lines[0].start, wr.lines[0].len, 0, slot, item, call);
	/* the bytes of the first line: these texts are the program's own (no
	 * tab or control character), one character per code point */
	size_t chars = wr.lines[0].start + wr.lines[0].len, at = 0;
	for (size_t c = 0; at < len && c < chars; c++)
		do
			at++;
		while (at < len && ((unsigned char)s[at] & 0xc0) == 0x80);
	while (at < len && s[at] == ' ')
		at++;
	wtext_wrapped_free(&wr);
	wtext_wrap(&wr, s + at, len - at, b->width - hang, WTEXT_TABS);
	for (size_t i = 0; i < wr.nlines; i++)
		push(b, wr.text + wr.lines[i].start, wr.lines[i].len, hang, slot, item, call);
	wtext_wrapped_free(&wr);
}

static void add_str(struct builder *b, const char *s, int slot, size_t item, long call, size_t hang)
{
	add_text(b, s, strlen(s), slot, item, call, hang);
}

/* Where a line of the explanation hangs its wrapped part: under the value
 * of a "label  value" line (a label of up to 24 columns, then two spaces or
 * more), else under its own indentation. Only ASCII labels are measured;
 * a line with a control character keeps no hang (its drawn form differs). */
static size_t explained_hang(const char *s, size_t len)
{
	size_t lead = 0;
	while (lead < len && s[lead] == ' ')
		lead++;
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20)
			return 0;
	for (size_t i = lead + 1; i + 2 < len && i <= lead + 24; i++) {
		if ((unsigned char)s[i] >= 0x80)
			break;
		if (s[i] == ' ' && s[i + 1] == ' ') {
			size_t v = i;
			while (v < len && s[v] == ' ')
				v++;
			return v < len ? v : lead;
		}
	}
	return lead;
}

/* The explanation, line by line, each wrapped with its hang. */
static void add_explained(struct builder *b, const char *s, size_t len)
{
	size_t at = 0;
	while (at < len) {
		const char *nl = memchr(s + at, '\n', len - at);
		size_t n = nl ? (size_t)(nl - (s + at)) : len - at;
		if (n == 0)
			push(b, L"", 0, 0, SLOT_NORMAL, SIZE_MAX, -1);
		else
			add_text(b, s + at, n, SLOT_NORMAL, SIZE_MAX, -1, explained_hang(s + at, n));
		at += n + (nl ? 1 : 0);
	}
}

static char *value_str(const json_t *v)
{
	char *s = v ? json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;
	return s ? s : xstrdup("(absent)");
}

/* A path's expected and actual values: side by side when both fit the
 * width, else as a diff, expected (-) then actual (+). */
static void add_diff(struct builder *b, const json_t *d, size_t item, long call)
{
	const char *path = json_string_value(json_object_get(d, "path"));
	char *exp = value_str(json_object_get(d, "expected"));
	char *act = value_str(json_object_get(d, "actual"));
	struct strbuf l = STRBUF_INIT;
	strbuf_addf(&l, "  %s  expected %s", path && path[0] ? path : "(the arguments)", exp);
	size_t split = l.len;
	strbuf_addf(&l, "  actual %s", act);
	size_t split_chars;
	wchar_t *wl = wtext_decode(l.buf, split, WTEXT_TABS, &split_chars);
	free(wl);
	if (l.len <= b->width) {
		add_text(b, l.buf, l.len, SLOT_PASS, item, call, 0);
		struct vd_line *x = &b->out->v[b->out->n - 1];
		x->split = split_chars;
		x->slot2 = SLOT_FAIL;
	} else {
		struct strbuf e = STRBUF_INIT, a = STRBUF_INIT;
		strbuf_addf(&e, "  %s", path && path[0] ? path : "(the arguments)");
		add_str(b, e.buf, SLOT_NORMAL, item, call, 4);
		strbuf_reset(&e);
		strbuf_addf(&e, "    - expected %s", exp);
		strbuf_addf(&a, "    + actual   %s", act);
		add_str(b, e.buf, SLOT_PASS, item, call, 15);
		add_str(b, a.buf, SLOT_FAIL, item, call, 15);
		strbuf_release(&e);
		strbuf_release(&a);
	}
	strbuf_release(&l);
	free(exp);
	free(act);
}

/* "✗ call 3 book: arguments differ (reference #2)" and its diffs. */
static void add_finding(struct builder *b, const json_t *f, bool allowed)
{
	const char *what = json_string_value(json_object_get(f, "what"));
	const char *name = json_string_value(json_object_get(f, "name"));
	json_int_t call = json_integer_value(json_object_get(f, "call"));
	json_int_t ref = json_integer_value(json_object_get(f, "ref"));
	size_t item = call > 0 ? b->out->nitems++ : SIZE_MAX;
	struct strbuf l = STRBUF_INIT;
	strbuf_addstr(&l, allowed ? "  \xc2\xb7 " : "\xe2\x9c\x97 ");       /* · ✗ */
	if (call > 0)
		strbuf_addf(&l, "call %lld ", (long long)call);
	else if (ref > 0)
		strbuf_addf(&l, "reference #%lld ", (long long)ref);
	strbuf_addf(&l, "%s: %s", name ? name : "(no name)", what ? what : "?");
	if (call > 0 && ref > 0)
		strbuf_addf(&l, " (reference #%lld)", (long long)ref);
	if (call > 0 && b->width >= 60)
		strbuf_addstr(&l, "  Enter: the call");
	add_str(b, l.buf, allowed ? SLOT_DIM : SLOT_FAIL, item, call > 0 ? (long)call - 1 : -1, 4);
	strbuf_release(&l);
	const char *says = json_string_value(json_object_get(f, "says"));
	if (says && says[0]) {
		struct strbuf t = STRBUF_INIT;
		strbuf_addf(&t, "  %s", says);
		add_str(b, t.buf, allowed ? SLOT_DIM : SLOT_NORMAL, item, call > 0 ? (long)call - 1 : -1, 2);
		strbuf_release(&t);
	}
	size_t i;
	const json_t *d;
	json_array_foreach(json_object_get(f, "diffs"), i, d)
		add_diff(b, d, item, call > 0 ? (long)call - 1 : -1);
}

static void add_findings(const struct tui *t, struct builder *b, const json_t *list)
{
	size_t i, nallowed = 0;
	const json_t *f;
	json_array_foreach(list, i, f) {
		if (json_is_true(json_object_get(f, "allowed")))
			nallowed++;
		else
			add_finding(b, f, false);
	}
	if (!nallowed)
		return;
	b->out->allowed_item = b->out->nitems++;
	struct strbuf l = STRBUF_INIT;
	strbuf_addf(&l, "%s %zu finding%s this scorer allows (Enter %s)",
	            t->vd.allowed_open ? "\xe2\x96\xbe" : "\xe2\x96\xb8", nallowed, nallowed == 1 ? "" : "s",
	            t->vd.allowed_open ? "folds" : "unfolds");                       /* ▾ ▸ */
	add_str(b, l.buf, SLOT_DIM, b->out->allowed_item, -1, 2);
	strbuf_release(&l);
	if (!t->vd.allowed_open)
		return;
	json_array_foreach(list, i, f)
		if (json_is_true(json_object_get(f, "allowed")))
			add_finding(b, f, true);
}

void vd_lines_build(const struct tui *t, struct vd_lines *out)
{
	*out = (struct vd_lines){ .allowed_item = SIZE_MAX };
	int w = t->lay.pane[PANE_VERDICTS].w - 4;
	struct builder b = { out, (size_t)(w > 8 ? w : 8) };
	const struct review *rv = tui_rv(t);
	const struct review_run *rr = review_current(rv);
	size_t nrows = review_nrows(rv);
	if (!rr || !nrows)
		return;
	size_t s = t->vd.sel < nrows ? t->vd.sel : 0;
	struct review_row row;
	if (review_row_get(rv, rr, s, &row) && row.kind == ROW_SCORER && row.state == ROW_READY &&
	    row.v && row.v->status == VERDICT_OK && row.v->details &&
	    !review_row_hidden(rv, rr->entry, s))
		add_findings(t, &b, json_object_get(row.v->details, VERDICT_FINDINGS));
	struct strbuf sb = STRBUF_INIT;
	verdicts_details(t, &sb);
	while (sb.len && sb.buf[sb.len - 1] == '\n')
		sb.buf[--sb.len] = '\0';
	if (sb.len)
		add_explained(&b, sb.buf, sb.len);
	strbuf_release(&sb);
}

void vd_lines_free(struct vd_lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].text);
	free(l->v);
	*l = (struct vd_lines){ .allowed_item = SIZE_MAX };
}

size_t vd_lines_item_line(const struct vd_lines *l, size_t i)
{
	for (size_t k = 0; k < l->n; k++)
		if (l->v[k].item == i)
			return k;
	return SIZE_MAX;
}

unsigned vd_item_enter(struct tui *t)
{
	if (!t->vd.open || t->vd.item == 0)
		return 0;
	struct vd_lines l;
	vd_lines_build(t, &l);
	size_t k = vd_lines_item_line(&l, t->vd.item - 1);
	long call = k != SIZE_MAX ? l.v[k].call : -1;
	bool fold = k != SIZE_MAX && t->vd.item - 1 == l.allowed_item;
	vd_lines_free(&l);
	if (k == SIZE_MAX)
		return 0;
	if (fold) {
		t->vd.allowed_open = !t->vd.allowed_open;
		return REDRAW_VERDICTS | RELAYOUT;
	}
	return call >= 0 ? tl_find_call(t, call) : 0;
}
