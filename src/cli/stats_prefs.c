/* stats_prefs.c - `tcreview stats`' preferences between two runs and the pairwise judges' agreement with them, as a table or JSONL lines.
 *
 * The figures are review/prefs'. Every text from the annotations
 * (reviewers' names) is made visible before it reaches a terminal. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/stats_report.h"
#include "util/jsonw.h"
#include "util/strbuf.h"
#include "util/textvis.h"
#include "util/wtext.h"

static void visible(struct strbuf *sb, const char *s)
{
	textvis_append(sb, s, strlen(s), 0);
}

/* Pads to a display width, the text left-aligned. */
static void cell(FILE *out, const char *s, size_t width)
{
	size_t d = wtext_str_width(s);
	fprintf(out, "%s%*s", s, (int)(width > d ? width - d : 0), "");
}

static size_t name_width(const struct prefs *p)
{
	size_t w = strlen("(consensus)");
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < p->nrev; i++) {
		strbuf_reset(&sb);
		visible(&sb, p->rev[i].reviewer);
		size_t d = wtext_str_width(sb.buf);
		w = d > w ? d : w;
	}
	strbuf_release(&sb);
	return w;
}

static void fig(FILE *out, bool ok, double v)
{
	if (ok)
		fprintf(out, "%6.3f", v);
	else
		fprintf(out, "%6s", "-");
}

static void confusion(FILE *out, const size_t *m)
{
	fputs("  [", out);
	for (size_t r = 0; r < PREFS_CATS; r++)
		for (size_t c = 0; c < PREFS_CATS; c++)
			fprintf(out, "%zu%s", m[r * PREFS_CATS + c],
			        c + 1 < PREFS_CATS ? " " : r + 1 < PREFS_CATS ? "; " : "]");
}

/* A judge with no cached answer on any labelled pair gets one line. */
static bool judge_answered(const struct prefs *p, const char *judge)
{
	for (size_t i = 0; i < p->njudges; i++)
		if (!strcmp(p->judges[i].judge, judge) && p->judges[i].n)
			return true;
	return false;
}

static void judges_table(FILE *out, const struct prefs *p, size_t w)
{
	fprintf(out, "pairwise judges against the preferences (each reviewer's pairs, and the "
	        "consensus:\npairs every reviewer who labelled them labelled alike; Wilson 95%%; "
	        "confusion rows:\nthe reviewer, columns: the judge, each base cand tie both-bad)\n");
	size_t jw = 0;
	for (size_t i = 0; i < p->njudges; i++)
		jw = wtext_str_width(p->judges[i].judge) > jw ? wtext_str_width(p->judges[i].judge) : jw;
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < p->njudges; i++) {
		const struct prefs_judge *f = &p->judges[i];
		fputs("  ", out);
		if (!judge_answered(p, f->judge)) {
			if (!f->reviewer)
				fprintf(out, "%s: no cached answer on a labelled pair (tcreview judge --pairs "
				        "asks)\n", f->judge);
			continue;
		}
		cell(out, f->judge, jw);
		strbuf_reset(&sb);
		if (f->reviewer)
			visible(&sb, f->reviewer);
		else
			strbuf_addstr(&sb, "(consensus)");
		fputs("  ", out);
		cell(out, sb.buf, w);
		fprintf(out, "  n %3zu  agreement", f->n);
		fig(out, f->agreement_ok, f->agreement);
		if (f->agreement_ok)
			fprintf(out, " [%.3f, %.3f]", f->low, f->high);
		fprintf(out, "  kappa");
		fig(out, f->kappa_ok, f->kappa);
		confusion(out, f->confusion);
		if (!f->kappa_ok && f->kappa_why)
			fprintf(out, "  (kappa: %s)", f->kappa_why);
		fputc('\n', out);
	}
	strbuf_release(&sb);
	fputc('\n', out);
}

void stats_prefs_table(FILE *out, const struct prefs *p)
{
	if (!p || !p->labels)
		return;
	fprintf(out, "preferences: %zu pair%s labelled, %zu label%s", p->pairs,
	        p->pairs == 1 ? "" : "s", p->labels, p->labels == 1 ? "" : "s");
	if (p->stale)
		fprintf(out, "; %zu left out (a run changed since; --include-stale counts them)",
		        p->stale);
	fputc('\n', out);
	size_t w = name_width(p);
	struct strbuf sb = STRBUF_INIT;
	fputs("  ", out);
	cell(out, "reviewer", w);
	fputs("  pairs  base  cand   tie  both-bad\n", out);
	for (size_t i = 0; i < p->nrev; i++) {
		const struct prefs_reviewer *r = &p->rev[i];
		strbuf_reset(&sb);
		visible(&sb, r->reviewer);
		fputs("  ", out);
		cell(out, sb.buf, w);
		fprintf(out, "  %5zu  %4zu  %4zu  %4zu  %8zu\n", r->pairs, r->count[0], r->count[1],
		        r->count[2], r->count[3]);
	}
	for (size_t i = 0; i < p->nbetween; i++) {
		const struct prefs_between *b = &p->between[i];
		strbuf_reset(&sb);
		visible(&sb, b->a);
		strbuf_addstr(&sb, " and ");
		visible(&sb, b->b);
		fprintf(out, "  %s on the same %zu pair%s: agreement", sb.buf, b->n, b->n == 1 ? "" : "s");
		fig(out, b->agreement_ok, b->agreement);
		fputs("  kappa", out);
		fig(out, b->kappa_ok, b->kappa);
		if (!b->kappa_ok && b->kappa_why)
			fprintf(out, " (%s)", b->kappa_why);
		fputc('\n', out);
	}
	strbuf_release(&sb);
	fputc('\n', out);
	if (p->njudges)
		judges_table(out, p, w);
}

static void counts(struct strbuf *sb, const size_t c[PREFS_CATS])
{
	strbuf_addf(sb, ",\"base\":%zu,\"cand\":%zu,\"tie\":%zu,\"both_bad\":%zu", c[0], c[1], c[2],
	            c[3]);
}

static void judge_line(struct strbuf *sb, const struct prefs_judge *f)
{
	strbuf_addstr(sb, "{\"type\":\"pairwise\"");
	jsonw_member_str(sb, "judge", f->judge);
	jsonw_member_str(sb, "reviewer", f->reviewer);
	strbuf_addf(sb, ",\"n\":%zu,\"same\":%zu", f->n, f->same);
	jsonw_member_num(sb, "agreement", f->agreement_ok, f->agreement);
	jsonw_member_num(sb, "low", f->agreement_ok, f->low);
	jsonw_member_num(sb, "high", f->agreement_ok, f->high);
	jsonw_member_num(sb, "kappa", f->kappa_ok, f->kappa);
	jsonw_member_str(sb, "kappa_why", f->kappa_ok ? NULL : f->kappa_why);
	strbuf_addstr(sb, ",\"confusion\":[");
	for (size_t r = 0; r < PREFS_CATS; r++) {
		strbuf_addstr(sb, r ? ",[" : "[");
		for (size_t c = 0; c < PREFS_CATS; c++)
			strbuf_addf(sb, "%s%zu", c ? "," : "", f->confusion[r * PREFS_CATS + c]);
		strbuf_addstr(sb, "]");
	}
	strbuf_addstr(sb, "]}");
}

void stats_prefs_jsonl(FILE *out, const struct prefs *p)
{
	if (!p || !p->labels)
		return;
	struct strbuf sb = STRBUF_INIT;
	size_t all[PREFS_CATS] = { 0 };
	for (size_t i = 0; i < p->nrev; i++) {
		const struct prefs_reviewer *r = &p->rev[i];
		strbuf_addstr(&sb, "{\"type\":\"preferences\"");
		jsonw_member_str(&sb, "reviewer", r->reviewer);
		strbuf_addf(&sb, ",\"pairs\":%zu", r->pairs);
		counts(&sb, r->count);
		fprintf(out, "%s}\n", sb.buf);
		strbuf_reset(&sb);
		for (size_t c = 0; c < PREFS_CATS; c++)
			all[c] += r->count[c];
	}
	strbuf_addf(&sb, "{\"type\":\"preferences\",\"reviewer\":null,\"pairs\":%zu,\"labels\":%zu,"
	            "\"stale\":%zu", p->pairs, p->labels, p->stale);
	counts(&sb, all);
	fprintf(out, "%s}\n", sb.buf);
	strbuf_reset(&sb);
	for (size_t i = 0; i < p->nbetween; i++) {
		const struct prefs_between *b = &p->between[i];
		strbuf_addstr(&sb, "{\"type\":\"preference-agreement\"");
		jsonw_member_str(&sb, "a", b->a);
		jsonw_member_str(&sb, "b", b->b);
		strbuf_addf(&sb, ",\"n\":%zu,\"same\":%zu", b->n, b->same);
		jsonw_member_num(&sb, "agreement", b->agreement_ok, b->agreement);
		jsonw_member_num(&sb, "kappa", b->kappa_ok, b->kappa);
		fprintf(out, "%s}\n", sb.buf);
		strbuf_reset(&sb);
	}
	for (size_t i = 0; i < p->njudges; i++) {
		judge_line(&sb, &p->judges[i]);
		fprintf(out, "%s\n", sb.buf);
		strbuf_reset(&sb);
	}
	strbuf_release(&sb);
}
