/* cmd_tags.c - `tcreview tags`: every failure-mode tag and free code with its runs and calls, headless.
 *
 * Reads only the configuration (its tags: section) and the annotations
 * files: the counts come from the standing tag decisions and the aliases
 * in effect, so no run is read. The text is for a person; jsonl has one
 * object a line with fixed keys, a "tag" line per row then an "alias"
 * line per alias standing (the man page lists them). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "cli/cli.h"
#include "annot/tagcount.h"
#include "review/session.h"
#include "util/jsonw.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define PROG "tcreview tags"

static void tags_usage(FILE *out)
{
	fprintf(out,
	"usage: tcreview tags [-c FILE] [-a FILE]... [-o text|jsonl] [--allow-path PATH]...\n"
	"                     FILE...\n"
	"\n"
	"Every failure-mode tag and free code the reviewers wrote, with the runs and\n"
	"calls it counts (in all and by reviewer), the defined tag or name it counts\n"
	"under, and the aliases in effect (renames, merges, promotions: who and when).\n"
	"Only the annotations files are read; nothing is written.\n"
	"\n"
	"  -c, --config FILE     the tags: section (default ./tcreview.yaml)\n"
	"  -a, --annotations FILE  decisions to read (repeatable; default\n"
	"                        FIRST_INPUT.annotations.jsonl)\n"
	"  -o, --output FMT      text (default) or jsonl\n"
	CLI_ALLOW_PATH_HELP
	CLI_TRUST_USAGE
	"  -h, --help            this help\n");
}

struct tags_opts {
	const char *config, *output;
	const char *annots[16];
	size_t nannots;
	bool jsonl;
};

static int tags_parse(struct cli_context *x, int argc, char **argv, struct tags_opts *o)
{
	static const struct option longs[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "annotations", required_argument, NULL, 'a' },
		{ "output", required_argument, NULL, 'o' },
		{ "allow-path", required_argument, NULL, CLI_OPT_ALLOW_PATH },
		{ "help", no_argument, NULL, 'h' },
		CLI_TRUST_OPTIONS,
		{ 0, 0, 0, 0 },
	};
	int ch;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "c:a:o:h", longs, NULL)) != -1) {
		if (cli_trust_option(x, ch, optarg))
			continue;
		switch (ch) {
		case 'c': o->config = optarg; break;
		case 'o': o->output = optarg; break;
		case 'h': tags_usage(stdout); return EXIT_DONE + 100;
		case CLI_OPT_ALLOW_PATH:
			if (cli_allow_path(x, PROG, optarg) < 0)
				return EXIT_USAGE;
			break;
		case 'a':
			if (o->nannots == sizeof o->annots / sizeof o->annots[0]) {
				fprintf(stderr, PROG ": at most 16 annotations files\n");
				return EXIT_USAGE;
			}
			o->annots[o->nannots++] = optarg;
			break;
		default: tags_usage(stderr); return EXIT_USAGE;
		}
	}
	if (o->output && strcmp(o->output, "text") && strcmp(o->output, "jsonl")) {
		fprintf(stderr, PROG ": -o %s: expected text or jsonl\n", o->output);
		return EXIT_USAGE;
	}
	o->jsonl = o->output && !strcmp(o->output, "jsonl");
	if (optind >= argc && !o->nannots) {
		fprintf(stderr, PROG ": no input (FILE...) and no -a FILE\n");
		tags_usage(stderr);
		return EXIT_USAGE;
	}
	return EXIT_DONE;
}

/* ---- the aliases in effect --------------------------------------------- */

struct aliases {
	const struct decision **d;
	size_t n, cap;
};

static void alias_add(void *ctx, const struct decision *d)
{
	struct aliases *a = ctx;
	if (d->kind != DEC_TAG_ALIAS)
		return;
	if (a->n == a->cap) {
		a->cap = a->cap ? a->cap * 2 : 16;
		a->d = xrealloc(a->d, a->cap * sizeof *a->d);
	}
	a->d[a->n++] = d;
}

/* ---- writers ------------------------------------------------------------ */

static void write_jsonl(const struct tag_table *tt, const struct aliases *al)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < tt->n; i++) {
		const struct tag_row *r = &tt->rows[i];
		strbuf_reset(&sb);
		strbuf_addstr(&sb, "{\"kind\":\"tag\"");
		jsonw_member_str(&sb, "name", r->name);
		strbuf_addf(&sb, ",\"defined\":%s", r->def ? "true" : "false");
		jsonw_member_str(&sb, "description", r->def ? r->def->description : NULL);
		jsonw_member_str(&sb, "counts_under", r->def ? r->name : r->under ? r->under : r->name);
		strbuf_addf(&sb, ",\"runs\":%zu,\"calls\":%zu,\"by\":[", r->runs, r->calls);
		for (size_t k = 0; k < r->nby; k++) {
			strbuf_addstr(&sb, k ? ",{\"reviewer\":" : "{\"reviewer\":");
			jsonw_string(&sb, r->by[k].reviewer, strlen(r->by[k].reviewer));
			strbuf_addf(&sb, ",\"runs\":%zu,\"calls\":%zu}", r->by[k].runs, r->by[k].calls);
		}
		strbuf_addstr(&sb, "]}\n");
		fwrite(sb.buf, 1, sb.len, stdout);
	}
	for (size_t i = 0; i < al->n; i++) {
		strbuf_reset(&sb);
		strbuf_addstr(&sb, "{\"kind\":\"alias\"");
		jsonw_member_str(&sb, "code", al->d[i]->tag);
		jsonw_member_str(&sb, "to", al->d[i]->tag_to);
		jsonw_member_str(&sb, "reviewer", al->d[i]->reviewer);
		jsonw_member_str(&sb, "at", al->d[i]->at);
		jsonw_member_str(&sb, "group", al->d[i]->group);
		strbuf_addstr(&sb, "}\n");
		fwrite(sb.buf, 1, sb.len, stdout);
	}
	strbuf_release(&sb);
}

static void write_text(const struct tag_table *tt, const struct aliases *al)
{
	if (!tt->n)
		printf("no tags yet: t on a run or a call in `tcreview review` writes one\n");
	else
		printf("%-28s %5s %6s  %-20s %s\n", "TAG", "RUNS", "CALLS", "COUNTS UNDER", "BY REVIEWER (runs/calls)");
	for (size_t i = 0; i < tt->n; i++) {
		const struct tag_row *r = &tt->rows[i];
		struct strbuf by = STRBUF_INIT;
		for (size_t k = 0; k < r->nby; k++)
			strbuf_addf(&by, "%s%s %zu/%zu", k ? ", " : "", r->by[k].reviewer, r->by[k].runs,
			            r->by[k].calls);
		printf("%-28s %5zu %6zu  %-20s %s\n", r->name, r->runs, r->calls,
		       r->def ? "(defined)" : r->under ? r->under : "-", by.buf ? by.buf : "");
		if (r->def && r->def->description)
			printf("  %s\n", r->def->description);
		strbuf_release(&by);
	}
	if (al->n)
		printf("\naliases in effect:\n");
	for (size_t i = 0; i < al->n; i++)
		printf("  %s -> %s  (%s, %s)\n", al->d[i]->tag, al->d[i]->tag_to ? al->d[i]->tag_to : "?",
		       al->d[i]->reviewer ? al->d[i]->reviewer : "?", al->d[i]->at ? al->d[i]->at : "?");
}

/* The -a files (each must exist), else the first input's default, when there. */
static struct annot_store *open_store(const struct tags_opts *o, const char *first, int *rc)
{
	const char *paths[16];
	size_t n = 0;
	struct stat st;
	char *dflt = NULL;
	for (size_t i = 0; i < o->nannots; i++) {
		if (stat(o->annots[i], &st) != 0) {
			fprintf(stderr, PROG ": %s: %s\n", o->annots[i], strerror(errno));
			*rc = EXIT_INPUT;
			return NULL;
		}
		paths[n++] = o->annots[i];
	}
	if (!n && first) {
		dflt = review_annot_default(first);
		if (stat(dflt, &st) == 0)
			paths[n++] = dflt;
	}
	struct annot_store *s = NULL;
	struct error err = {0};
	if (n && !(s = annot_open_readonly(paths, n, &err))) {
		fprintf(stderr, PROG ": %s\n", err.msg);
		*rc = EXIT_INPUT;
	}
	free(dflt);
	return s;
}

int cli_tags(int argc, char **argv)
{
	struct cli_context x;
	cli_context_init(&x);
	struct tags_opts o = {0};
	int rc = tags_parse(&x, argc, argv, &o);
	const char *first = optind < argc ? argv[optind] : NULL;
	struct config cfg;
	memset(&cfg, 0, sizeof cfg);
	bool loaded = false;
	if (rc == EXIT_DONE) {
		loaded = cli_load_config(&x, &cfg, o.config, first) == 0;
		rc = loaded ? EXIT_DONE : EXIT_USAGE;
	}
	struct annot_store *s = NULL;
	if (rc == EXIT_DONE)
		s = open_store(&o, first, &rc);
	if (rc == EXIT_DONE) {
		if (s && annot_warning(s))
			fprintf(stderr, PROG ": %s\n", annot_warning(s));
		struct tag_table tt;
		tag_table_build(&tt, &cfg.vocab, s);
		struct aliases al = {0};
		if (s)
			annot_each_standing(s, alias_add, &al);
		if (o.jsonl)
			write_jsonl(&tt, &al);
		else
			write_text(&tt, &al);
		free(al.d);
		tag_table_free(&tt);
	}
	if (s)
		annot_close(s);
	if (loaded)
		config_free(&cfg);
	cli_context_free(&x);
	return rc == EXIT_DONE + 100 ? EXIT_DONE : rc;
}
