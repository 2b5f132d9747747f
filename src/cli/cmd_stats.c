/* cmd_stats.c - `tcreview stats`: how far the machine verdicts agree with the reviewers' labels, headless.
 *
 * The runs are read and scored through a review session stepped to the
 * end; judge verdicts come from the judge cache only (no judge is asked);
 * the labels from the annotations files, which are only read. The figures
 * are review/calib's; stats_lines.c and stats_table.c write them. With
 * --min-kappa, --min-tpr or --min-tnr it is a gate for CI: exit 1 when a
 * selected criterion's machine-vs-human (consensus) figure is below the
 * bar or undefined. */
#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/queue_opts.h"
#include "cli/stats_report.h"
#include "judge/judge.h"
#include "annot/split.h"
#include "review/calib.h"
#include "review/judging.h"
#include "review/session.h"
#include "review/settle.h"
#include "runs/expect.h"
#include "runs/format.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/error.h"

#define PROG "tcreview stats"

static void stats_usage(FILE *out)
{
	fprintf(out,
	"usage: tcreview stats [-c FILE] [-a FILE]... [--criterion ID]... [--judge ID]...\n"
	"                      [--reviewer NAME]... [-o table|jsonl|csv] [--bootstrap N] [--seed N]\n"
	"                      [--min-kappa X] [--min-tpr X] [--min-tnr X] [--sweep]\n"
	"                      [--include-stale] [--only-split NAME]... [--split SPEC]\n"
	"                      [--split-seed N] [--target-width W] [--expect FILE] [--format NAME]\n"
	"                      [--allow-path PATH]... FILE...\n"
	"\n"
	"How far each scorer and judge agrees with the reviewers' labels, the reviewers\n"
	"with each other, and code scorers with judges. Judge verdicts are read from the\n"
	"judge cache (FIRST_INPUT.judgements.jsonl, written by `tcreview judge` and the\n"
	"screen); no judge is asked. Nothing is written beside the inputs.\n"
	"\n"
	"  -c, --config FILE     scorers, judges and compare: (default ./tcreview.yaml)\n"
	"  -a, --annotations FILE  labels to read (repeatable; default\n"
	"                        FIRST_INPUT.annotations.jsonl when it exists)\n"
	"      --criterion ID    only this scorer or judge (repeatable)\n"
	"      --judge ID        this judge too; given twice or more, the judges are also\n"
	"                        compared on the same labelled runs (paired bootstrap of the\n"
	"                        kappa difference, McNemar's exact test)\n"
	"      --reviewer NAME   only this reviewer's labels (repeatable)\n"
	"  -o, --output FMT      table (default on a terminal), jsonl (default otherwise) or\n"
	"                        csv (the pairs only)\n"
	"      --bootstrap N     resamples for the 95%% intervals (default 1000; 0: none)\n"
	"      --seed N          the resampling seed (default 1)\n"
	"      --target-width W  labels to go: how many more labels bring the agreement's\n"
	"                        Wilson 95%% interval under W wide (default 0.1)\n"
	"      --min-kappa X     exit 1 when a criterion's kappa against the humans'\n"
	"                        consensus is below X or undefined\n"
	"      --min-tpr X       the same for its true positive rate\n"
	"      --min-tnr X       the same for its true negative rate\n"
	"      --sweep           a judge's kappa, TPR and TNR at every threshold (each level\n"
	"                        of an integer scale)\n"
	"      --include-stale   count labels made on a run that has changed since\n"
	"      --only-split NAME only the runs of this split (repeatable), as export\n"
	"                        places them: --split SPEC (default train=0.6,dev=0.2,\n"
	"                        test=0.2) and --split-seed N (default 0)\n"
	"      --expect FILE     expectations file, instead of expectations.file\n"
	"      --allow-path PATH let the configuration name files in PATH (a file or a\n"
	"                        folder) outside its own folder (repeatable)\n"
	"      --format NAME     read every record with this loader\n"
	CLI_TRUST_USAGE
	"  -h, --help            this help\n"
	"\n"
	"Pairs: the machine against the consensus (human) and each reviewer\n"
	"(human:NAME); each pair of reviewers; all reviewers (Krippendorff's alpha); each\n"
	"code scorer against each judge on pass/fail (only the compare: pairs of the\n"
	"YAML when it has them). An integer scale (1..5, a custom 0..10: whole-number\n"
	"bounds other than 0..1, at most 11 levels) is figured over its levels, others\n"
	"on fail and pass; TPR, TNR and pass rates are at the threshold. A figure that\n"
	"is undefined is null with a note.\n"
	"A scorer or judge declaring `criterion: TAG` is measured as tag:TAG against the\n"
	"reviewers' tags (present, or reviewed without it); a code scorer that marks\n"
	"calls as calls:ID against the call labels, call by call. Then the failure modes:\n"
	"per tag the runs and calls tagged and the share of reviewed runs (Wilson 95%%).\n"
	"Preferences between two runs (decision prefer): the pairs, each reviewer's\n"
	"base/cand/tie/both-bad, the reviewers' agreement, and each pairwise judge's\n"
	"cached answers against each reviewer and the consensus (agreement, kappa,\n"
	"confusion).\n"
	"Exit status: 0 done, 1 a --min-* gate failed, 2 usage or configuration error,\n"
	"3 an input could not be read.\n");
}

struct stats_opts {
	struct cli_context *ctx;        /* the command's choices */
	const char *config, *expect, *format, *output;
	const char **annots, **criteria, **judges, **reviewers, **only_splits;
	size_t nannots, ncriteria, njudges, nreviewers, nonly_splits;
	const char *split_text;     /* --split, as export takes it */
	unsigned long long split_seed;
	struct split_spec split;
	unsigned long bootstrap;
	unsigned long long seed;
	bool include_stale, sweep;
	double target_width;        /* --target-width; 0: the default */
	bool min_set[3];
	double min[3];              /* kappa, tpr, tnr */
};

enum { GATE_KAPPA, GATE_TPR, GATE_TNR };
static const char *const gate_names[] = { "kappa", "tpr", "tnr" };

static int number_arg(const char *opt, const char *s, double lo, double hi, double *out)
{
	char *end;
	errno = 0;
	*out = strtod(s, &end);
	if (!*s || *end || errno || !(*out >= lo && *out <= hi)) {
		fprintf(stderr, PROG ": %s needs a number from %g to %g, not '%s'\n", opt, lo, hi, s);
		return -1;
	}
	return 0;
}

static int count_arg(const char *opt, const char *s, unsigned long long max,
                     unsigned long long *out)
{
	char *end;
	errno = 0;
	*out = strtoull(s, &end, 10);
	if (!*s || *end || errno || s[0] == '-' || *out > max) {
		fprintf(stderr, PROG ": %s needs a whole number from 0 to %llu, not '%s'\n", opt, max, s);
		return -1;
	}
	return 0;
}

static int option_value(int ch, struct stats_opts *o)
{
	static const char *const min_opt[] = { "--min-kappa", "--min-tpr", "--min-tnr" };
	unsigned long long v;
	switch (ch) {
	case 'c': o->config = optarg; return 0;
	case CLI_OPT_ALLOW_PATH: return cli_allow_path(o->ctx, PROG, optarg);
	case 'a': o->annots[o->nannots++] = optarg; return 0;
	case 'C': o->criteria[o->ncriteria++] = optarg; return 0;
	case 'J': o->judges[o->njudges++] = optarg; return 0;
	case 'R': o->reviewers[o->nreviewers++] = optarg; return 0;
	case 'o': o->output = optarg; return 0;
	case 'E': o->expect = optarg; return 0;
	case 'F': o->format = optarg; return 0;
	case 'S': o->sweep = true; return 0;
	case 'O': o->only_splits[o->nonly_splits++] = optarg; return 0;
	case 'L': o->split_text = optarg; return 0;
	case 'Q':
		return count_arg("--split-seed", optarg, ~0ULL, &o->split_seed);
	case 'I': o->include_stale = true; return 0;
	case 'B':
		if (count_arg("--bootstrap", optarg, 1000000, &v) < 0)
			return -1;
		o->bootstrap = (unsigned long)v;
		return 0;
	case 'D':
		return count_arg("--seed", optarg, ~0ULL, &o->seed);
	case 'W':
		return cli_target_width(&o->target_width, optarg);
	case 'K': case 'P': case 'N': {
		int g = ch == 'K' ? GATE_KAPPA : ch == 'P' ? GATE_TPR : GATE_TNR;
		o->min_set[g] = true;
		return number_arg(min_opt[g], optarg, g == GATE_KAPPA ? -1 : 0, 1, &o->min[g]);
	}
	}
	return -1;
}

/* --split and --only-split: the spec parses and names the splits asked for. */
static int splits_check(struct stats_opts *o)
{
	struct error err = {0};
	if (split_parse(&o->split, o->split_text ? o->split_text : SPLIT_DEFAULT,
	                (uint64_t)o->split_seed, &err) < 0) {
		fprintf(stderr, PROG ": --split: %s\n", err.msg);
		return -1;
	}
	for (size_t i = 0; i < o->nonly_splits; i++)
		if (split_find(&o->split, o->only_splits[i]) < 0) {
			fprintf(stderr, PROG ": --only-split: no split '%s' in '%s'\n", o->only_splits[i],
			        o->split_text ? o->split_text : SPLIT_DEFAULT);
			return -1;
		}
	return 0;
}

/* Reads the options into o; returns -1 to go on, else the exit status. */
static int stats_parse_args(int argc, char **argv, struct stats_opts *o)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "allow-path", required_argument, NULL, CLI_OPT_ALLOW_PATH },
		{ "annotations", required_argument, NULL, 'a' },
		{ "criterion", required_argument, NULL, 'C' },
		{ "judge", required_argument, NULL, 'J' },
		{ "reviewer", required_argument, NULL, 'R' },
		{ "output", required_argument, NULL, 'o' },
		{ "bootstrap", required_argument, NULL, 'B' },
		{ "seed", required_argument, NULL, 'D' },
		{ "target-width", required_argument, NULL, 'W' },
		{ "min-kappa", required_argument, NULL, 'K' },
		{ "min-tpr", required_argument, NULL, 'P' },
		{ "min-tnr", required_argument, NULL, 'N' },
		{ "sweep", no_argument, NULL, 'S' },
		{ "only-split", required_argument, NULL, 'O' },
		{ "split", required_argument, NULL, 'L' },
		{ "split-seed", required_argument, NULL, 'Q' },
		{ "include-stale", no_argument, NULL, 'I' },
		{ "expect", required_argument, NULL, 'E' },
		{ "format", required_argument, NULL, 'F' },
		CLI_TRUST_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	size_t n = (size_t)argc + 1;
	o->annots = xcalloc(n, sizeof *o->annots);
	o->criteria = xcalloc(n, sizeof *o->criteria);
	o->judges = xcalloc(n, sizeof *o->judges);
	o->reviewers = xcalloc(n, sizeof *o->reviewers);
	o->only_splits = xcalloc(n, sizeof *o->only_splits);
	o->bootstrap = 1000;
	o->seed = 1;
	int ch;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "c:a:o:h", longopts, NULL)) != -1) {
		if (cli_trust_option(o->ctx, ch, optarg))
			continue;
		if (ch == 'h') {
			stats_usage(stdout);
			return EXIT_DONE;
		}
		if (ch == '?' || option_value(ch, o) < 0) {
			if (ch == '?')
				stats_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, PROG ": no input files (give FILE..., or - for standard input)\n");
		return EXIT_USAGE;
	}
	if (splits_check(o) < 0)
		return EXIT_USAGE;
	if (o->output && !stats_format_known(o->output)) {
		fprintf(stderr, PROG ": unknown output '%s' (expected one of: %s)\n", o->output,
		        stats_formats);
		return EXIT_USAGE;
	}
	return -1;
}

static void opts_free(struct stats_opts *o)
{
	free(o->annots);
	free(o->criteria);
	free(o->judges);
	free(o->reviewers);
	free(o->only_splits);
}

/* ---- checks before any work ------------------------------------------------------ */

static bool is_scorer(const struct config *c, const char *id)
{
	for (size_t i = 0; i < c->nscorers; i++)
		if (!strcmp(c->scorers[i].id, id))
			return true;
	return false;
}

static bool is_judge(const struct config *c, const char *id)
{
	for (size_t i = 0; i < c->njudges; i++)
		if (!strcmp(c->judges[i].id, id))
			return true;
	return false;
}

static void ids_of(const struct config *c, bool scorers, bool judges, struct strbuf *sb)
{
	for (size_t i = 0; scorers && i < c->nscorers; i++)
		strbuf_addf(sb, "%s%s", sb->len ? ", " : "", c->scorers[i].id);
	for (size_t i = 0; judges && i < c->njudges; i++)
		strbuf_addf(sb, "%s%s", sb->len ? ", " : "", c->judges[i].id);
	if (!sb->len)
		strbuf_addstr(sb, "none configured");
}

/* A pairwise judge is measured against the preferences, not as a criterion. */
static bool is_pair_judge(const struct config *c, const char *id)
{
	for (size_t i = 0; i < c->npair_judges; i++)
		if (!strcmp(c->pair_judges[i].id, id))
			return true;
	return false;
}

/* --criterion names a scorer or a judge, --judge a judge. */
static int check_ids(const struct config *c, const struct stats_opts *o)
{
	struct strbuf sb = STRBUF_INIT;
	int rc = 0;
	for (size_t i = 0; i < o->ncriteria && !rc; i++)
		if (!is_scorer(c, o->criteria[i]) && !is_judge(c, o->criteria[i])) {
			ids_of(c, true, true, &sb);
			fprintf(stderr, PROG ": %s '%s' (criteria: %s)\n", is_pair_judge(c, o->criteria[i])
			        ? "a pairwise judge is measured against the preferences, not as criterion"
			        : "unknown criterion", o->criteria[i], sb.buf);
			rc = -1;
		}
	for (size_t i = 0; i < o->njudges && !rc; i++)
		if (!is_judge(c, o->judges[i])) {
			ids_of(c, false, true, &sb);
			fprintf(stderr, PROG ": %s '%s' (judges: %s)\n",
			        is_scorer(c, o->judges[i]) ? "--judge names a code scorer,"
			        : is_pair_judge(c, o->judges[i]) ? "--judge names a pairwise judge (its "
			        "figures are among the preferences')," : "unknown judge",
			        o->judges[i], sb.buf);
			rc = -1;
		}
	if (!rc && (o->min_set[0] || o->min_set[1] || o->min_set[2]) && c->nscorers + c->njudges == 0) {
		fprintf(stderr, PROG ": a --min-* gate needs scorers or judges in the configuration\n");
		rc = -1;
	}
	strbuf_release(&sb);
	return rc;
}

/* ---- the session ------------------------------------------------------------------ */

struct stats_run {
	struct review rv;
	struct judging jg;
	bool rv_open, jg_open;
	char *no_labels;            /* why there are no labels at all */
};

/* The annotations files to read: every -a FILE (which must exist: this
 * command reads them), else the default beside the first input when
 * there is one. Returns the exit status on a problem. */
static int label_files(const struct stats_opts *o, const char *first, const char ***files,
                       size_t *nfiles, struct stats_run *sr, char **def)
{
	struct stat st;
	*def = NULL;
	*files = o->annots;
	*nfiles = o->nannots;
	for (size_t i = 0; i < o->nannots; i++)
		if (stat(o->annots[i], &st) != 0) {
			fprintf(stderr, PROG ": %s: %s\n", o->annots[i], strerror(errno));
			return EXIT_INPUT;
		}
	if (o->nannots)
		return EXIT_DONE;
	*def = review_annot_default(first);
	if (stat(*def, &st) == 0) {
		*files = (const char **)def;
		*nfiles = 1;
		return EXIT_DONE;
	}
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "no annotations file (%s): no labels yet; label runs in the screen "
	            "(tcreview FILE) or give -a FILE", *def);
	sr->no_labels = strbuf_detach(&sb);
	*nfiles = 0;
	return EXIT_DONE;
}

static int session_open(struct stats_run *sr, const struct config *c, struct expectations *ex,
                        const struct stats_opts *o, char *const *inputs, size_t ninputs)
{
	const char **files;
	size_t nfiles;
	char *def;
	int rc = label_files(o, inputs[0], &files, &nfiles, sr, &def);
	if (rc != EXIT_DONE) {
		free(def);
		return rc;
	}
	struct error err = {0};
	const char *user = getenv("USER");
	const struct dataset_opts in = cli_dataset_opts(o->ctx);
	int r = review_open_reading(&sr->rv, &in, c, ex, inputs, ninputs, files, nfiles,
	                            user && *user ? user : "stats", &err);
	free(def);
	if (r < 0) {
		fprintf(stderr, PROG ": %s\n", err.msg);
		return EXIT_INPUT;
	}
	sr->rv_open = true;
	const char *warn = annot_warning(sr->rv.annot);
	if (warn)
		fprintf(stderr, PROG ": warning: %s\n", warn);
	struct judging_note note;
	if (judging_open_cached(&sr->jg, &sr->rv, &note, &err) < 0) {
		fprintf(stderr, PROG ": %s\n", err.msg);
		return EXIT_INPUT;
	}
	sr->jg_open = true;
	if (note.text[0])
		fprintf(stderr, PROG ": warning: %s\n", note.text);
	return EXIT_DONE;
}

static void session_close(struct stats_run *sr)
{
	if (sr->jg_open)
		judging_close(&sr->jg);
	if (sr->rv_open)
		review_close(&sr->rv);
	free(sr->no_labels);
}

/* Indexes and scores every run (judge cells fill from the cache as each
 * is summarized); says how many records could not be read. */
static void session_finish(struct stats_run *sr, const struct stats_opts *o)
{
	while (review_step(&sr->rv, 1000))
		;
	review_settle(&sr->rv);
	size_t failed = 0;
	for (size_t i = 0; i < sr->rv.nentries; i++)
		failed += sr->rv.entries[i].load_failed;
	if (failed)
		fprintf(stderr, PROG ": warning: %zu record%s could not be read; %s left out\n", failed,
		        failed == 1 ? "" : "s", failed == 1 ? "it is" : "they are");
	for (size_t i = 0; i < o->nreviewers; i++)
		if (!annot_has_reviewer(sr->rv.annot, o->reviewers[i]))
			fprintf(stderr, PROG ": warning: no labels by '%s'\n", o->reviewers[i]);
}

/* ---- the gates ---------------------------------------------------------------------- */

/* Over each selected criterion's machine-vs-consensus pair: a figure below
 * its bar, or undefined, fails. */
static int gates(const struct calib *c, const struct stats_opts *o)
{
	int rc = EXIT_DONE;
	for (size_t i = 0; i < c->npairs; i++) {
		const struct calib_pair *p = &c->pairs[i];
		if (p->kind != CALIB_MACHINE_HUMAN || strcmp(p->b, "human") != 0)
			continue;
		const struct calib_fig *f[] = { &p->kappa, &p->tpr, &p->tnr };
		for (int g = 0; g < 3; g++) {
			if (!o->min_set[g])
				continue;
			if (!f[g]->ok) {
				fprintf(stderr, PROG ": %s: %s is undefined (%s), so --min-%s %g fails\n",
				        p->criterion, gate_names[g], f[g]->why ? f[g]->why : "no figure",
				        gate_names[g], o->min[g]);
				rc = EXIT_FAIL_UNDER;
			} else if (f[g]->v < o->min[g]) {
				fprintf(stderr, PROG ": %s: %s %.3f is below --min-%s %g\n", p->criterion,
				        gate_names[g], f[g]->v, gate_names[g], o->min[g]);
				rc = EXIT_FAIL_UNDER;
			}
		}
	}
	return rc;
}

/* ---- the command ---------------------------------------------------------------------- */

static int stats_report(struct stats_run *sr, const struct stats_opts *o, const char *output)
{
	/* --judge ids are criteria too: their own pairs are shown beside the
	 * comparison. Neither given: every criterion. */
	size_t nsel = o->ncriteria + o->njudges;
	const char **sel = xcalloc(nsel + 1, sizeof *sel);
	for (size_t i = 0; i < o->ncriteria; i++)
		sel[i] = o->criteria[i];
	for (size_t i = 0; i < o->njudges; i++)
		sel[o->ncriteria + i] = o->judges[i];
	struct calib_opts co = {
		.include_stale = o->include_stale, .bootstrap = o->bootstrap, .seed = o->seed,
		.criteria = sel, .ncriteria = nsel,
		.reviewers = o->nreviewers ? o->reviewers : NULL, .nreviewers = o->nreviewers,
		.compare_judges = o->judges, .ncompare_judges = o->njudges, .sweep = o->sweep,
		.split = &o->split, .only_splits = o->only_splits, .nonly_splits = o->nonly_splits,
		.target_width = o->target_width,
	};
	struct calib c;
	struct error err = {0};
	int rc = EXIT_DONE;
	if (calib_build(&c, &sr->rv, &co, &err) < 0) {
		fprintf(stderr, PROG ": %s\n", err.msg);
		free(sel);
		return EXIT_USAGE;
	}
	calib_calls(&c, &sr->rv, &co);
	if (o->njudges == 1)
		fprintf(stderr, PROG ": note: give --judge twice to compare two judges\n");
	if (!strcmp(output, "csv") && (c.ncompares || c.nsweeps))
		fprintf(stderr, PROG ": note: csv holds the pairs; the judge comparison and the sweep "
		        "are in -o table and -o jsonl\n");
	struct failmodes fm;
	review_failmodes(&sr->rv, o->nreviewers ? o->reviewers : NULL, o->nreviewers, &fm);
	struct prefs pf;
	review_prefs(&pf, &sr->rv, sr->jg.runner, o->reviewers, o->nreviewers, o->include_stale);
	struct stats_meta m = {
		.runs = sr->rv.nentries, .include_stale = o->include_stale, .no_labels = sr->no_labels,
		.failmodes = &fm, .prefs = &pf,
	};
	stats_write(stdout, output, &c, &sr->rv, &m);
	failmodes_free(&fm);
	prefs_free(&pf);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, PROG ": writing the report failed\n");
		rc = EXIT_INPUT;
	}
	if (rc == EXIT_DONE)
		rc = gates(&c, o);
	calib_free(&c);
	free(sel);
	return rc;
}

static int stats_main(struct cli_context *x, int argc, char **argv)
{
	struct stats_opts o = { .ctx = x };
	int rc = stats_parse_args(argc, argv, &o);
	if (rc >= 0) {
		opts_free(&o);
		return rc;
	}
	setlocale(LC_CTYPE, "");
	const char *output = o.output ? o.output : isatty(1) ? "table" : "jsonl";
	struct config c;
	if (cli_load_config(x, &c, o.config, optind < argc ? argv[optind] : NULL) < 0) {
		opts_free(&o);
		return EXIT_USAGE;
	}
	struct expectations *ex = NULL;
	const struct format_ops *forced = NULL;
	rc = cli_setup(x, PROG, &c, o.format, o.expect, &forced, &ex);
	if (rc == EXIT_DONE && check_ids(&c, &o) < 0)
		rc = EXIT_USAGE;
	struct stats_run sr = { 0 };
	if (rc == EXIT_DONE)
		rc = session_open(&sr, &c, ex, &o, argv + optind, (size_t)(argc - optind));
	if (rc == EXIT_DONE) {
		if (forced)
			sr.rv.forced = forced;
		session_finish(&sr, &o);
		rc = stats_report(&sr, &o, output);
	}
	session_close(&sr);
	expect_free(ex);
	config_free(&c);
	opts_free(&o);
	return rc;
}

int cli_stats(int argc, char **argv)
{
	struct cli_context x;
	cli_context_init(&x);
	int rc = stats_main(&x, argc, argv);
	cli_context_free(&x);
	return rc;
}
