/* compare_lines.c - a pair as lines for the screen: the aligned calls as the spine, the messages between them folded, argument differences key by key. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "review/compare.h"
#include "runs/run.h"
#include "util/strbuf.h"
#include "util/textvis.h"
#include "util/wtext.h"
#include "util/xalloc.h"

static struct compare_line *add_line(struct compare_lines *ls, size_t row)
{
	if (ls->n == ls->cap) {
		ls->cap = ls->cap ? 2 * ls->cap : 64;
		ls->l = xrealloc(ls->l, ls->cap * sizeof *ls->l);
	}
	struct compare_line *l = &ls->l[ls->n++];
	memset(l, 0, sizeof *l);
	l->row = row;
	return l;
}

static void set_cell(struct compare_line *l, int k, char *text, int tone)
{
	l->cell[k].text = text;
	l->cell[k].tone = tone;
}

static const char *role_word(int role)
{
	switch (role) {
	case ROLE_SYSTEM:    return "system";
	case ROLE_USER:      return "user";
	case ROLE_ASSISTANT: return "agent";
	default:             return "note";
	}
}

static int role_tone(int role)
{
	return role == ROLE_USER ? TONE_USER : role == ROLE_ASSISTANT ? TONE_AGENT : TONE_DIM;
}

/* A message's lines: folded, its first line with a ↵ where more follows;
 * open, every line cut to `width` columns at places a character may be
 * cut (never inside a cluster). */
struct text_lines {
	char **l;
	size_t n;
};

static void push(struct text_lines *t, char *s)
{
	t->l = xrealloc(t->l, (t->n + 1) * sizeof *t->l);
	t->l[t->n++] = s;
}

/* Lines of at most `width` columns, broken after a space when one is on
 * the line, else between clusters. */
static void wrap_piece(struct text_lines *t, const char *s, size_t len, int width)
{
	size_t at = 0;
	do {
		size_t end = at, w = 0, last_ok = at, space = 0;
		bool full = false;
		while (end < len) {
			size_t k = utf8_seq_len(s + end, len - end);
			if (!k)
				k = 1;
			char one[8] = {0};
			memcpy(one, s + end, k < 7 ? k : 7);
			size_t cw = wtext_str_width(one);
			if (w + cw > (size_t)width && last_ok > at) {
				full = true;
				break;
			}
			if (s[end] == ' ' && end > at)
				space = end;
			w += cw;
			end += k;
			if (end >= len || wtext_can_cut(s, len, end))
				last_ok = end;
		}
		if (last_ok == at)
			last_ok = end;
		size_t next = last_ok;
		if (full && space > at) {
			last_ok = space;
			next = space + 1;
		}
		push(t, xstrndup(s + at, last_ok - at));
		at = next;
	} while (at < len);
}

static struct text_lines msg_lines(const struct compare_msg *m, int width, bool open)
{
	struct text_lines t = {0};
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "%s: ", role_word(m->role));
	const char *nl = strchr(m->text, '\n');
	if (!open) {
		size_t len = nl ? (size_t)(nl - m->text) : strlen(m->text);
		strbuf_add(&sb, m->text, len);
		if (nl)
			strbuf_addstr(&sb, " \xe2\x86\xb5");   /* ↵: Enter shows the rest */
		push(&t, strbuf_detach(&sb));
		return t;
	}
	strbuf_addstr(&sb, m->text);
	const char *p = sb.buf;
	for (;;) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		wrap_piece(&t, p, len, width > 4 ? width : 4);
		if (!e)
			break;
		p = e + 1;
	}
	strbuf_release(&sb);
	return t;
}

static void text_lines_free(struct text_lines *t)
{
	free(t->l);     /* the strings went to cells */
}

/* The messages of side k before its call `call` (ncalls: after the last). */
static void side_msgs(const struct compare_run *cr, size_t call, size_t *from, size_t *to)
{
	size_t i = 0;
	while (i < cr->nmsgs && cr->msgs[i].before < call)
		i++;
	*from = i;
	while (i < cr->nmsgs && cr->msgs[i].before == call)
		i++;
	*to = i;
}

static bool same_msgs(const struct compare *c, const size_t from[2], const size_t to[2])
{
	if (to[0] - from[0] != to[1] - from[1])
		return false;
	for (size_t i = 0; i < to[0] - from[0]; i++) {
		const struct compare_msg *a = &c->run[0].msgs[from[0] + i], *b = &c->run[1].msgs[from[1] + i];
		if (a->role != b->role || strcmp(a->text, b->text) != 0)
			return false;
	}
	return true;
}

/* The messages before a row: side by side, or once when both sides said
 * the same, else the base's as - lines and the candidate's as + lines. */
static void add_msgs(const struct compare *c, struct compare_lines *ls, size_t row,
                     const long call[2], int width, bool unified, bool open)
{
	size_t from[2] = {0, 0}, to[2] = {0, 0};
	for (int k = 0; k < 2; k++)
		if (call[k] >= 0)
			side_msgs(&c->run[k], (size_t)call[k], &from[k], &to[k]);
	if (unified) {
		bool same = same_msgs(c, from, to);
		for (int k = 0; k < (same ? 1 : 2); k++)
			for (size_t i = from[k]; i < to[k]; i++) {
				const struct compare_msg *m = &c->run[k].msgs[i];
				struct text_lines t = msg_lines(m, width - 2, open);
				for (size_t j = 0; j < t.n; j++) {
					struct strbuf sb = STRBUF_INIT;
					strbuf_addstr(&sb, same ? "  " : k == 0 ? "- " : "+ ");
					strbuf_addstr(&sb, t.l[j]);
					free(t.l[j]);
					set_cell(add_line(ls, row), 0, strbuf_detach(&sb), j == 0 || m->role == ROLE_SYSTEM ? role_tone(m->role) : TONE_PLAIN);
				}
				text_lines_free(&t);
			}
		return;
	}
	size_t at = ls->n;
	size_t filled[2] = {at, at};
	for (int k = 0; k < 2; k++)
		for (size_t i = from[k]; i < to[k]; i++) {
			const struct compare_msg *m = &c->run[k].msgs[i];
			struct text_lines t = msg_lines(m, width, open);
			for (size_t j = 0; j < t.n; j++) {
				struct compare_line *l = filled[k] < ls->n ? &ls->l[filled[k]] : add_line(ls, row);
				set_cell(l, k, t.l[j], j == 0 || m->role == ROLE_SYSTEM ? role_tone(m->role) : TONE_PLAIN);
				filled[k]++;
			}
			text_lines_free(&t);
		}
}

static char *call_head(size_t i, const struct compare_call *cc, bool with_args)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "#%zu %s", i + 1, cc->name);
	if (with_args && cc->args)
		strbuf_addf(&sb, " %s", cc->args);
	return strbuf_detach(&sb);
}

static char *result_line(const struct compare_call *cc, const char *lead)
{
	if (!cc->result || !*cc->result)
		return NULL;
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "%s\xe2\x86\x92 %s", lead, cc->is_error ? "error: " : "");
	const char *nl = strchr(cc->result, '\n');
	strbuf_add(&sb, cc->result, nl ? (size_t)(nl - cc->result) : strlen(cc->result));
	return strbuf_detach(&sb);
}

static char *key_line(const char *lead, const char *key, json_t *v)
{
	struct strbuf sb = STRBUF_INIT;
	char *val = v ? json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
	strbuf_addf(&sb, "%s%s: %s", lead, key, val ? val : "(absent)");
	free(val);
	return strbuf_detach(&sb);
}

/* An ALIGN_ARGS row's arguments key by key, the keys that differ in the
 * diff colours and the equal ones plainly. */
static void add_arg_keys(struct compare_lines *ls, size_t row, const char *args[2], bool unified)
{
	json_t *o[2];
	for (int k = 0; k < 2; k++) {
		o[k] = args[k] ? json_loads(args[k], JSON_DECODE_ANY, NULL) : NULL;
		if (!json_is_object(o[k])) {
			json_decref(o[k]);
			o[k] = json_object();
		}
	}
	/* every key of either side, sorted (the canonical text is) */
	json_t *keys = json_object();
	const char *key;
	json_t *v;
	for (int k = 0; k < 2; k++)
		json_object_foreach(o[k], key, v)
			json_object_set_new(keys, key, json_true());
	const char **names = xcalloc(json_object_size(keys) + 1, sizeof *names);
	size_t nk = 0;
	json_object_foreach(keys, key, v)
		names[nk++] = key;
	for (size_t i = 1; i < nk; i++)
		for (size_t j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
			const char *t = names[j];
			names[j] = names[j - 1];
			names[j - 1] = t;
		}
	for (size_t i = 0; i < nk; i++) {
		json_t *a = json_object_get(o[0], names[i]), *b = json_object_get(o[1], names[i]);
		bool differs = !(a && b && json_equal(a, b));
		if (unified && !differs) {
			set_cell(add_line(ls, row), 0, key_line("     ", names[i], a), TONE_PLAIN);
		} else if (unified) {
			set_cell(add_line(ls, row), 0, key_line("-    ", names[i], a), TONE_DEL);
			set_cell(add_line(ls, row), 0, key_line("+    ", names[i], b), TONE_ADD);
		} else {
			struct compare_line *l = add_line(ls, row);
			set_cell(l, 0, key_line("   ", names[i], a), differs ? TONE_DEL : TONE_PLAIN);
			set_cell(l, 1, key_line("   ", names[i], b), differs ? TONE_ADD : TONE_PLAIN);
		}
	}
	free(names);
	json_decref(keys);
	json_decref(o[0]);
	json_decref(o[1]);
}

static void add_results(const struct compare *c, struct compare_lines *ls, size_t row,
                        const long call[2], bool unified)
{
	const struct compare_call *cc[2] = {
		call[0] >= 0 ? &c->run[0].calls[call[0]] : NULL,
		call[1] >= 0 ? &c->run[1].calls[call[1]] : NULL,
	};
	if (!unified) {
		char *r0 = cc[0] ? result_line(cc[0], "   ") : NULL, *r1 = cc[1] ? result_line(cc[1], "   ") : NULL;
		if (r0 || r1) {
			struct compare_line *l = add_line(ls, row);
			set_cell(l, 0, r0, TONE_DIM);
			set_cell(l, 1, r1, TONE_DIM);
		}
		return;
	}
	bool same = cc[0] && cc[1] && cc[0]->result && cc[1]->result &&
	            strcmp(cc[0]->result, cc[1]->result) == 0;
	for (int k = 0; k < (same ? 1 : 2); k++) {
		char *r = cc[k] ? result_line(cc[k], same ? "     " : k == 0 ? "-    " : "+    ") : NULL;
		if (r)
			set_cell(add_line(ls, row), 0, r, TONE_DIM);
	}
}

static void add_call(const struct compare *c, struct compare_lines *ls, size_t row, bool unified)
{
	const struct align_row *ar = &c->rows[row];
	const long call[2] = {ar->base, ar->cand};
	if (row == c->first_div) {
		struct compare_line *l = add_line(ls, row);
		l->first = true;
		struct strbuf sb = STRBUF_INIT;
		strbuf_addf(&sb, "\xe2\x96\xb6 first divergence: %s", align_kind_name(ar->kind));
		set_cell(l, 0, strbuf_detach(&sb), TONE_MARK);
	}
	size_t head = ls->n;
	const struct compare_call *cc[2] = {
		call[0] >= 0 ? &c->run[0].calls[call[0]] : NULL,
		call[1] >= 0 ? &c->run[1].calls[call[1]] : NULL,
	};
	bool args_apart = ar->kind == ALIGN_ARGS;
	int tone[2] = {
		ar->kind == ALIGN_BASE_ONLY ? TONE_DEL : TONE_CALL,
		ar->kind == ALIGN_CAND_ONLY ? TONE_ADD : TONE_CALL,
	};
	if (unified) {
		for (int k = 0; k < 2; k++) {
			if (!cc[k] || (k == 1 && ar->kind == ALIGN_SAME))
				continue;
			struct strbuf sb = STRBUF_INIT;
			const char *lead = ar->kind == ALIGN_SAME || ar->kind == ALIGN_ARGS ? "  "
			                   : k == 0 ? "- " : "+ ";
			char *h = call_head((size_t)call[k], cc[k], !args_apart);
			strbuf_addf(&sb, "%s%s", lead, h);
			if (ar->kind == ALIGN_ARGS && k == 0)
				strbuf_addf(&sb, "  (candidate's #%ld)", call[1] + 1);
			free(h);
			set_cell(add_line(ls, row), 0, strbuf_detach(&sb), tone[k]);
			if (ar->kind == ALIGN_ARGS)
				break;
		}
	} else {
		struct compare_line *l = add_line(ls, row);
		for (int k = 0; k < 2; k++)
			if (cc[k])
				set_cell(l, k, call_head((size_t)call[k], cc[k], !args_apart), tone[k]);
	}
	if (args_apart) {
		const char *args[2] = {cc[0]->args, cc[1]->args};
		add_arg_keys(ls, row, args, unified);
	}
	add_results(c, ls, row, call, unified);
	if (ar->kind != ALIGN_SAME && head < ls->n)
		ls->l[head].divergence = true;
}

void compare_lines_build(const struct compare *c, struct compare_lines *out, int width,
                         bool unified, const bool *open)
{
	memset(out, 0, sizeof *out);
	/* a row's messages come before the first call either side makes on it */
	for (size_t r = 0; r <= c->nrows; r++) {
		long call[2];
		if (r < c->nrows) {
			call[0] = c->rows[r].base;
			call[1] = c->rows[r].cand;
		} else {
			call[0] = (long)c->run[0].ncalls;
			call[1] = (long)c->run[1].ncalls;
		}
		add_msgs(c, out, r, call, width, unified, open && open[r]);
		if (r < c->nrows)
			add_call(c, out, r, unified);
	}
}

void compare_lines_free(struct compare_lines *ls)
{
	for (size_t i = 0; i < ls->n; i++) {
		free(ls->l[i].cell[0].text);
		free(ls->l[i].cell[1].text);
	}
	free(ls->l);
	memset(ls, 0, sizeof *ls);
}

size_t compare_lines_of_row(const struct compare_lines *ls, size_t row)
{
	for (size_t i = 0; i < ls->n; i++)
		if (ls->l[i].row == row)
			return i;
	return ls->n;
}
