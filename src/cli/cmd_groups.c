/* cmd_groups.c - `tcreview groups`: the runs clustered by the tools they called, their first error or their verdicts, headless.
 *
 * The runs are read and scored through a review session stepped to the
 * end, as stats does; judge verdicts come from the judge cache only. The
 * groups are review/groups', in their fixed order, so the output is the
 * same on every run of the command and in any order of the inputs. */
#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "review/groups.h"
#include "review/judging.h"
#include "review/session.h"
#include "review/settle.h"
#include "runs/expect.h"
#include "util/jsonw.h"
#include "util/strbuf.h"
#include "util/wtext.h"
#include "util/xalloc.h"

#define PROG "tcreview groups"

static void groups_usage(FILE *out)
{
	fprintf(out,
	"usage: tcreview groups [-c FILE] [--by tools|error|verdicts] [-o text|jsonl]\n"
	"                       [--min N] [--runs] [--expect FILE] [--format NAME]\n"
	"                       [--allow-path PATH]... FILE...\n"
	"\n"
	"The runs in groups of the same fingerprint, most runs first: the sequence of\n"
	"tools the agent called (--by tools, the default), the first error with its\n"
	"numbers, ids, hex, paths, URLs and quoted values made placeholders (--by error),\n"
	"or the pattern of verdicts of the scorers and the cached judges (--by verdicts).\n"
	"Each group with its count, its share, a stable id and an example (its smallest\n"
	"run id). The same runs give the same groups in any input order.\n"
	"\n"
	"  -c, --config FILE     scorers and judges (default ./tcreview.yaml)\n"
	"  -b, --by WHAT         tools, error or verdicts\n"
	"  -o, --output FMT      text (default on a terminal) or jsonl (default otherwise):\n"
	"                        {\"group\",\"by\",\"fingerprint\",\"count\",\"example\",\"runs\"}\n"
	"      --min N           only groups of N runs or more\n"
	"      --runs            list each group's runs (text)\n"
	"      --expect FILE     expectations file, instead of expectations.file\n"
	"      --allow-path PATH let the configuration name files in PATH (repeatable)\n"
	"      --format NAME     read every record with this loader\n"
	CLI_TRUST_USAGE
	"  -h, --help            this help\n"
	"\n"
	"Exit status: 0 done, 2 usage or configuration error, 3 an input could not be read.\n");
}

struct groups_opts {
	struct cli_context *ctx;
	const char *config, *expect, *format, *output;
	enum group_by by;
	unsigned long min;
	bool runs;
};

static int groups_option(int ch, struct groups_opts *o)
{
	char *end;
	switch (ch) {
	case 'c': o->config = optarg; return 0;
	case CLI_OPT_ALLOW_PATH: return cli_allow_path(o->ctx, PROG, optarg);
	case 'o': o->output = optarg; return 0;
	case 'E': o->expect = optarg; return 0;
	case 'F': o->format = optarg; return 0;
	case 'r': o->runs = true; return 0;
	case 'b':
		if (group_by_parse(optarg, &o->by))
			return 0;
		fprintf(stderr, PROG ": --by takes tools, error or verdicts, not '%s'\n", optarg);
		return -1;
	case 'm':
		errno = 0;
		o->min = strtoul(optarg, &end, 10);
		if (!*optarg || *end || errno || optarg[0] == '-') {
			fprintf(stderr, PROG ": --min needs a whole number, not '%s'\n", optarg);
			return -1;
		}
		return 0;
	}
	return -1;
}

/* Reads the options into o; returns -1 to go on, else the exit status. */
static int groups_parse_args(int argc, char **argv, struct groups_opts *o)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "allow-path", required_argument, NULL, CLI_OPT_ALLOW_PATH },
		{ "by", required_argument, NULL, 'b' },
		{ "output", required_argument, NULL, 'o' },
		{ "min", required_argument, NULL, 'm' },
		{ "runs", no_argument, NULL, 'r' },
		{ "expect", required_argument, NULL, 'E' },
		{ "format", required_argument, NULL, 'F' },
		CLI_TRUST_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ch;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "c:b:o:h", longopts, NULL)) != -1) {
		if (cli_trust_option(o->ctx, ch, optarg))
			continue;
		if (ch == 'h') {
			groups_usage(stdout);
			return EXIT_DONE;
		}
		if (ch == '?' || groups_option(ch, o) < 0) {
			if (ch == '?')
				groups_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, PROG ": no input files (give FILE..., or - for standard input)\n");
		return EXIT_USAGE;
	}
	if (o->output && strcmp(o->output, "text") && strcmp(o->output, "jsonl")) {
		fprintf(stderr, PROG ": unknown output '%s' (expected one of: text, jsonl)\n", o->output);
		return EXIT_USAGE;
	}
	return -1;
}

/* ---- writing ------------------------------------------------------------- */

static void write_jsonl(FILE *out, const struct review *rv, const struct run_groups *gs,
                        unsigned long min)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < gs->n; i++) {
		const struct run_group *g = &gs->g[i];
		if (g->n < min)
			continue;
		sb.len = 0;
		strbuf_addstr(&sb, "{\"group\":");
		jsonw_string(&sb, g->id, strlen(g->id));
		strbuf_addstr(&sb, ",\"by\":");
		jsonw_string(&sb, group_by_name(gs->by), strlen(group_by_name(gs->by)));
		strbuf_addstr(&sb, ",\"fingerprint\":");
		jsonw_string(&sb, g->fingerprint, strlen(g->fingerprint));
		strbuf_addf(&sb, ",\"count\":%zu,\"example\":", g->n);
		jsonw_string(&sb, g->example, strlen(g->example));
		strbuf_addstr(&sb, ",\"runs\":[");
		for (size_t k = 0; k < g->n; k++) {
			const struct review_entry *e = &rv->entries[g->entries[k]];
			const char *id = e->id ? e->id : e->source;
			if (k)
				strbuf_addch(&sb, ',');
			jsonw_string(&sb, id, strlen(id));
		}
		strbuf_addstr(&sb, "]}\n");
		fwrite(sb.buf, 1, sb.len, out);
	}
	strbuf_release(&sb);
}

/* The terminal's width when standard output is one; 0 (no limit) otherwise. */
static size_t out_columns(void)
{
	if (!isatty(1))
		return 0;
	size_t cols = cli_tty_columns(1);
	return cols ? cols : 80;
}

/* s fitted to cols columns (0: whole), made safe to show. */
static void add_fitted(struct strbuf *sb, const char *s, size_t cols)
{
	size_t n;
	wchar_t *w = wtext_decode(s, strlen(s), 0, &n);
	if (cols)
		n = wtext_truncate(w, n, cols, true, NULL);
	for (size_t i = 0; i < n; i++) {
		char mb[MB_LEN_MAX];
		mbstate_t st = {0};
		size_t k = wcrtomb(mb, w[i], &st);
		if (k != (size_t)-1)
			strbuf_add(sb, mb, k);
	}
	free(w);
}

static void write_text(FILE *out, const struct review *rv, const struct run_groups *gs,
                       const struct groups_opts *o)
{
	size_t cols = out_columns(), shown = 0;
	fprintf(out, "%zu run%s in %zu group%s by %s\n", gs->nruns, gs->nruns == 1 ? "" : "s", gs->n,
	        gs->n == 1 ? "" : "s", group_by_name(gs->by));
	fprintf(out, "%6s %5s  %-9s  %s\n", "runs", "share", "group", "fingerprint  (example)");
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < gs->n; i++) {
		const struct run_group *g = &gs->g[i];
		if (g->n < o->min)
			continue;
		shown++;
		sb.len = 0;
		strbuf_addf(&sb, "%6zu %4.0f%%  %-9s  ", g->n,
		            gs->nruns ? 100.0 * (double)g->n / (double)gs->nruns : 0.0, g->id);
		size_t lead = 25, ex = strlen(g->example) + 4;
		size_t room = cols > lead + ex + 10 ? cols - lead - ex : cols ? 10 : 0;
		add_fitted(&sb, g->fingerprint, room);
		strbuf_addstr(&sb, "  (");
		add_fitted(&sb, g->example, 0);
		strbuf_addstr(&sb, ")\n");
		fwrite(sb.buf, 1, sb.len, out);
		for (size_t k = 0; o->runs && k < g->n; k++) {
			const struct review_entry *e = &rv->entries[g->entries[k]];
			sb.len = 0;
			strbuf_addstr(&sb, "                           ");
			add_fitted(&sb, e->id ? e->id : e->source, 0);
			strbuf_addch(&sb, '\n');
			fwrite(sb.buf, 1, sb.len, out);
		}
	}
	if (shown < gs->n)
		fprintf(out, "(%zu smaller group%s under --min %lu not shown)\n", gs->n - shown,
		        gs->n - shown == 1 ? "" : "s", o->min);
	strbuf_release(&sb);
}

/* ---- the command ----------------------------------------------------------- */

static int groups_run(struct cli_context *x, const struct groups_opts *o, const struct config *c,
                      struct expectations *ex, const struct format_ops *forced, char *const *inputs,
                      size_t ninputs, const char *output)
{
	struct review rv;
	struct judging jg;
	struct judging_note note;
	struct error err = {0};
	const struct dataset_opts in = cli_dataset_opts(x);
	if (review_open_reading(&rv, &in, c, ex, inputs, ninputs, NULL, 0, "groups", &err) < 0) {
		fprintf(stderr, PROG ": %s\n", err.msg);
		return EXIT_INPUT;
	}
	if (forced)
		rv.forced = forced;
	if (judging_open_cached(&jg, &rv, &note, &err) < 0) {
		fprintf(stderr, PROG ": %s\n", err.msg);
		review_close(&rv);
		return EXIT_INPUT;
	}
	if (note.text[0])
		fprintf(stderr, PROG ": warning: %s\n", note.text);
	while (review_step(&rv, 1000))
		;
	review_settle(&rv);
	size_t failed = 0;
	for (size_t i = 0; i < rv.nentries; i++)
		failed += rv.entries[i].load_failed;
	if (failed)
		fprintf(stderr, PROG ": warning: %zu record%s could not be read; grouped as %s\n", failed,
		        failed == 1 ? "" : "s", GROUPS_NOT_READ);
	struct run_groups gs;
	groups_build(&gs, &rv, o->by, NULL, 0);
	if (!strcmp(output, "jsonl"))
		write_jsonl(stdout, &rv, &gs, o->min);
	else
		write_text(stdout, &rv, &gs, o);
	int rc = EXIT_DONE;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, PROG ": writing the groups failed\n");
		rc = EXIT_INPUT;
	}
	groups_free(&gs);
	judging_close(&jg);
	review_close(&rv);
	return rc;
}

static int groups_main(struct cli_context *x, int argc, char **argv)
{
	struct groups_opts o = { .ctx = x, .by = GROUP_BY_TOOLS };
	int rc = groups_parse_args(argc, argv, &o);
	if (rc >= 0)
		return rc;
	setlocale(LC_CTYPE, "");
	const char *output = o.output ? o.output : isatty(1) ? "text" : "jsonl";
	struct config c;
	if (cli_load_config(x, &c, o.config, argv[optind]) < 0)
		return EXIT_USAGE;
	struct expectations *ex = NULL;
	const struct format_ops *forced = NULL;
	rc = cli_setup(x, PROG, &c, o.format, o.expect, &forced, &ex);
	if (rc == EXIT_DONE)
		rc = groups_run(x, &o, &c, ex, forced, argv + optind, (size_t)(argc - optind), output);
	expect_free(ex);
	config_free(&c);
	return rc;
}

int cli_groups(int argc, char **argv)
{
	struct cli_context x;
	cli_context_init(&x);
	int rc = groups_main(&x, argc, argv);
	cli_context_free(&x);
	return rc;
}
