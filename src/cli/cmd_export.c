/* cmd_export.c - `tcreview export`: the labelled set, one row per run and criterion with a human label.
 *
 * A review session is opened on the inputs and stepped to the end (every
 * run summarized, its judge cells filled from the judge cache; no judge is
 * asked). Each run with a label is loaded once, and its rows go out in
 * input order as they are made, so memory stays that of the session. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "annot/split.h"
#include "cli/cli.h"
#include "cli/export.h"
#include "cli/export_refs.h"
#include "judge/judge.h"
#include "review/judging.h"
#include "review/settle.h"
#include "runs/expect.h"
#include "util/strbuf.h"
#include "util/textvis.h"
#include "util/xalloc.h"
#include "util/error.h"

#define PROG "tcreview export"
#define MAX_LIST 64

static void export_usage(FILE *out)
{
	fprintf(out,
	"usage: tcreview export [-c FILE] [-a FILE]... [--criterion ID]... [--reviewer NAME]...\n"
	"                       [--format jsonl|csv|openai-ft] [--split train=0.6,dev=0.2,test=0.2]\n"
	"                       [--seed N] [--only-split NAME]... [--include-stale] [--expect FILE]\n"
	"                       [--allow-path PATH]... [-o FILE] FILE...\n"
	"       tcreview export --references [--by-run] [-c FILE] [-a FILE]... [--reviewer NAME]...\n"
	"                       [-o FILE] FILE...\n"
	"\n"
	"Writes the labelled set: one row per run and criterion (a scorer or judge id)\n"
	"that has a reviewer's label. It reads the runs, the configuration, the\n"
	"annotations and the judge cache; it asks no judge.\n"
	"\n"
	"  -c, --config FILE       scorers, judges, expectations (default ./tcreview.yaml)\n"
	"  -a, --annotations FILE  an annotations file (repeatable; default\n"
	"                          FIRST_INPUT.annotations.jsonl)\n"
	"      --criterion ID      only this scorer or judge (repeatable)\n"
	"      --reviewer NAME     only this reviewer's labels (repeatable)\n"
	"      --format FMT        jsonl (default), csv or openai-ft\n"
	"      --split SPEC        named shares and their weights\n"
	"                          (default %s)\n"
	"      --seed N            moves every run to another place in the split (default 0)\n"
	"      --only-split NAME   only the runs of this split (repeatable)\n"
	"      --include-stale     count labels made on a run that has changed since\n"
	"      --expect FILE       expectations file, instead of expectations.file\n"
	"      --allow-path PATH   let the configuration name files in PATH (a file or a\n"
	"                          folder) outside its own folder (repeatable)\n"
	"  -o, --output FILE       write FILE (in place, once complete; default stdout)\n"
	"      --references        write instead the corrected trajectories the call labels\n"
	"                          and corrections make, one per task with an expectations\n"
	"                          join (else one per run), for trajectory-match's reference\n"
	"      --by-run            with --references: one line per run even with a join\n"
	CLI_TRUST_USAGE
	"  -h, --help              this help\n"
	"\n"
	"jsonl: one object per line with the keys run, source, run_hash, criterion,\n"
	"kind (scorer or judge), scale (binary, 0..1, 1..5, or a custom range: 0..10),\n"
	"threshold, input (the user's request), output (the agent's final answer),\n"
	"calls [{name, arguments, result, error}], expected (the joined expectation or\n"
	"null), machine {status, score, passed, message, model, prompt_hash} (status\n"
	"not_judged when the judge cache has no verdict; model and prompt_hash are a\n"
	"judge's), consensus {status (ok or tie), score, passed, n}, labels [{reviewer,\n"
	"decision, score, passed, reason, at, blind, stale}], tags [{tag (the name the\n"
	"code counts under), code, defined, call (null: the run), tool, reviewer}],\n"
	"call_labels [{call, tool, label, value, right, reviewer}], split.\n"
	"csv: a header with the same keys, then one record per row (RFC 4180 quoting,\n"
	"CRLF; calls, expected, machine, consensus, labels, tags and call_labels as\n"
	"compact JSON cells).\n"
	"openai-ft: chat fine-tuning lines for the judges' rows (scorer rows are left\n"
	"out): the judge's prompt for the run as the system and user messages, the\n"
	"consensus label as the assistant's answer in the judge's own JSON form. Ties,\n"
	"and labels the form cannot say, are left out and counted on stderr.\n"
	"\n"
	"A run's split comes from a hash of its id and the seed, so it lands in the same\n"
	"split on every export.\n"
	"\n"
	"--references: one object per line with the keys run, task (the join's key or\n"
	"null), reference [{name, arguments}] (the calls trajectory-match counts: kept,\n"
	"corrected, the missing ones in place, the removed left out), answer (the\n"
	"expected answer or null), reviewer, kept, corrected, removed, inserted,\n"
	"wrong_kept (calls labelled below the pass mark and kept, having no correction).\n"
	"Read back with expectations: {file: refs.jsonl, match: {run: task_id,\n"
	"expected: task}} and reference: {from: expected.reference}.\n"
	"\n"
	"Exit status: 0 done, 2 usage or configuration error,\n"
	"3 an input could not be read or the output written.\n", SPLIT_DEFAULT);
}

enum export_format { FMT_JSONL, FMT_CSV, FMT_FT };

struct export_flags {
	const char *config, *expect, *output, *split;
	const char *annot[MAX_LIST], *criteria[MAX_LIST], *reviewers[MAX_LIST], *only[MAX_LIST];
	size_t nannot, ncriteria, nreviewers, nonly;
	enum export_format format;
	unsigned long long seed;
	bool include_stale;
	bool references, by_run;
};

/* What an export counts, for the line on stderr. */
struct export_tally {
	size_t rows, runs, stale_only, unreadable, other_split;
	size_t ft_scorers, ft_ties, ft_no_answer;
	char ft_why[512];               /* the first reason an answer could not be written */
};

struct export_job {
	struct review *rv;
	const struct export_flags *f;
	struct export_sel sel;
	struct split_spec split;
	bool *want;                     /* per verdict row: asked for */
	struct export_out out;
	struct strbuf line;
	struct export_tally t;
	bool write_failed;
};

/* ---- the command line ---------------------------------------------------------- */

static int add_to(const char **list, size_t *n, const char *v, const char *what)
{
	if (*n >= MAX_LIST) {
		fprintf(stderr, PROG ": at most %d %s\n", MAX_LIST, what);
		return -1;
	}
	list[(*n)++] = v;
	return 0;
}

static int parse_format(const char *s, enum export_format *out)
{
	if (!strcmp(s, "jsonl"))
		*out = FMT_JSONL;
	else if (!strcmp(s, "csv"))
		*out = FMT_CSV;
	else if (!strcmp(s, "openai-ft"))
		*out = FMT_FT;
	else {
		fprintf(stderr, PROG ": unknown format '%s' (jsonl, csv or openai-ft)\n", s);
		return -1;
	}
	return 0;
}

static int parse_seed(const char *s, unsigned long long *out)
{
	char *end;
	if (!*s || *s == '-' || (*out = strtoull(s, &end, 10), *end)) {
		fprintf(stderr, PROG ": --seed takes a whole number, not '%s'\n", s);
		return -1;
	}
	return 0;
}

static int take_option(struct cli_context *ctx, int ch, struct export_flags *f)
{
	switch (ch) {
	case 'c': f->config = optarg; return 0;
	case CLI_OPT_ALLOW_PATH: return cli_allow_path(ctx, PROG, optarg);
	case 'a': return add_to(f->annot, &f->nannot, optarg, "annotations files");
	case 'C': return add_to(f->criteria, &f->ncriteria, optarg, "--criterion");
	case 'R': return add_to(f->reviewers, &f->nreviewers, optarg, "--reviewer");
	case 'O': return add_to(f->only, &f->nonly, optarg, "--only-split");
	case 'F': return parse_format(optarg, &f->format);
	case 'S': f->split = optarg; return 0;
	case 'N': return parse_seed(optarg, &f->seed);
	case 'I': f->include_stale = true; return 0;
	case 'E': f->expect = optarg; return 0;
	case 'o': f->output = optarg; return 0;
	case 'r': f->references = true; return 0;
	case 'b': f->by_run = true; return 0;
	default: return -1;
	}
}

/* -1 to go on, else the exit status (after --help or a usage error). */
static int parse_flags(struct cli_context *ctx, int argc, char **argv, struct export_flags *f)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "allow-path", required_argument, NULL, CLI_OPT_ALLOW_PATH },
		{ "annotations", required_argument, NULL, 'a' },
		{ "criterion", required_argument, NULL, 'C' },
		{ "reviewer", required_argument, NULL, 'R' },
		{ "format", required_argument, NULL, 'F' },
		{ "split", required_argument, NULL, 'S' },
		{ "seed", required_argument, NULL, 'N' },
		{ "only-split", required_argument, NULL, 'O' },
		{ "include-stale", no_argument, NULL, 'I' },
		{ "expect", required_argument, NULL, 'E' },
		{ "output", required_argument, NULL, 'o' },
		{ "references", no_argument, NULL, 'r' },
		{ "by-run", no_argument, NULL, 'b' },
		CLI_TRUST_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	memset(f, 0, sizeof *f);
	f->split = SPLIT_DEFAULT;
	int ch;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "c:a:o:h", longopts, NULL)) != -1) {
		if (cli_trust_option(ctx, ch, optarg))
			continue;
		if (ch == 'h') {
			export_usage(stdout);
			return EXIT_DONE;
		}
		if (ch == '?' || take_option(ctx, ch, f) < 0) {
			if (ch == '?')
				export_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, PROG ": no input files\n");
		return EXIT_USAGE;
	}
	return -1;
}

/* The split spec and --only-split against it. */
static int check_split(struct export_job *x)
{
	struct error err = {0};
	if (split_parse(&x->split, x->f->split, x->f->seed, &err) < 0) {
		fprintf(stderr, PROG ": --split %s: %s\n", x->f->split, err.msg);
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < x->f->nonly; i++)
		if (split_find(&x->split, x->f->only[i]) < 0) {
			fprintf(stderr, PROG ": --only-split %s: the split has no share of that name\n",
			        x->f->only[i]);
			return EXIT_USAGE;
		}
	return EXIT_DONE;
}

/* The verdict rows --criterion names (all without it). */
static int pick_rows(struct export_job *x, const struct config *c)
{
	size_t nrows = c->nscorers + c->njudges;
	if (nrows == 0) {
		fprintf(stderr, PROG ": no scorers or judges configured, so no criterion to export "
		        "(give -c FILE)\n");
		return EXIT_USAGE;
	}
	x->want = xcalloc(nrows, sizeof *x->want);
	for (size_t r = 0; r < nrows; r++) {
		const char *id = r < c->nscorers ? c->scorers[r].id : c->judges[r - c->nscorers].id;
		x->want[r] = x->f->ncriteria == 0;
		for (size_t k = 0; k < x->f->ncriteria; k++)
			x->want[r] |= !strcmp(x->f->criteria[k], id);
	}
	for (size_t k = 0; k < x->f->ncriteria; k++) {
		bool found = false;
		for (size_t r = 0; r < nrows; r++)
			found |= !strcmp(x->f->criteria[k],
			                 r < c->nscorers ? c->scorers[r].id : c->judges[r - c->nscorers].id);
		if (!found) {
			fprintf(stderr, PROG ": --criterion %s: no scorer or judge of that id in the "
			        "configuration\n", x->f->criteria[k]);
			return EXIT_USAGE;
		}
	}
	return EXIT_DONE;
}

/* ---- the rows ------------------------------------------------------------------- */

static void emit(struct export_job *x)
{
	if (export_out_write(&x->out, &x->line) < 0)
		x->write_failed = true;
	strbuf_reset(&x->line);
}

/* One openai-ft line for a judge row, or the reason it has none. */
static void write_ft(struct export_job *x, const struct run *run, json_t *expected,
                     const struct review_row *row, const struct export_labels *lab)
{
	if (row->kind != ROW_JUDGE) {
		x->t.ft_scorers++;
		return;
	}
	if (lab->cons != CONSENSUS_OK) {
		x->t.ft_ties++;
		return;
	}
	struct error why = {0};
	struct judge_job *job = judge_job_new(row->judge, run, expected);
	struct judge_prompt p;
	const struct verdict *machine = row->state == ROW_READY ? row->v : NULL;
	json_t *answer = NULL;
	if (judge_job_next_prompt(job, &p))
		answer = judge_job_label_answer(job, lab->score, export_consensus_reason(lab), machine,
		                                &why);
	else
		judge_job_label_answer(job, lab->score, "", machine, &why);
	if (answer) {
		export_ft_line(&x->line, p.system, p.user, answer);
		emit(x);
		x->t.rows++;
	} else {
		x->t.ft_no_answer++;
		if (!x->t.ft_why[0])
			if (snprintf(x->t.ft_why, sizeof x->t.ft_why, "%s: %s", run->source, why.msg) < 0)
				x->t.ft_why[0] = '\0';
	}
	json_decref(answer);
	judge_job_free(job);
}

static bool in_wanted_split(const struct export_job *x, const char *id)
{
	if (x->f->nonly == 0)
		return true;
	const char *s = split_of(&x->split, id);
	for (size_t i = 0; i < x->f->nonly; i++)
		if (!strcmp(s, x->f->only[i]))
			return true;
	return false;
}

/* The expectation joined to a run, or NULL. */
static json_t *expected_of(const struct review *rv, const struct run *r)
{
	char why[512];
	/* The join reads the record on demand; a const run may fill its cache. */
	return rv->ev.expect ? expect_lookup(rv->ev.expect, (struct run *)r, why, sizeof why) : NULL;
}

static void write_row(struct export_job *x, const struct review_run *rr, json_t **base,
                      const struct review_row *row, const struct export_labels *lab)
{
	json_t *expected = expected_of(x->rv, rr->run);
	if (x->f->format == FMT_FT) {
		write_ft(x, rr->run, expected, row, lab);
		return;
	}
	struct error err = {0};
	if (!*base && !(*base = export_run_base(x->rv, rr, expected, &x->split, &err))) {
		fprintf(stderr, PROG ": %s\n", err.msg);
		x->t.unreadable++;
		return;
	}
	json_t *o = export_row(x->rv, *base, row, lab);
	if (x->f->format == FMT_CSV)
		export_csv_row(&x->line, o);
	else
		export_jsonl_row(&x->line, o);
	json_decref(o);
	emit(x);
	x->t.rows++;
}

/* Every wanted row of one entry that has a label that counts. */
static void export_entry(struct export_job *x, size_t entry)
{
	struct review *rv = x->rv;
	struct review_run *rr = review_run_at(rv, entry);
	if (!rr || !rr->run) {
		fputs(PROG ": ", stderr);
		textvis_fputs(stderr, rr && rr->error ? rr->error : rv->entries[entry].source);
		fputs(" (not exported)\n", stderr);
		x->t.unreadable++;
		return;
	}
	bool wanted = in_wanted_split(x, rr->run->id);
	json_t *base = NULL;
	size_t before = x->t.rows;
	struct export_labels *lab = xcalloc(1, sizeof *lab);
	for (size_t r = 0; r < review_nrows(rv); r++) {
		if (!x->want[r])
			continue;
		if (export_labels_of(rv, entry, r, &x->sel, lab) == 0) {
			x->t.stale_only += lab->n > 0;
			continue;
		}
		if (!wanted) {
			x->t.other_split++;
			continue;
		}
		struct review_row row;
		review_row_get(rv, rr, r, &row);
		write_row(x, rr, &base, &row, lab);
	}
	free(lab);
	json_decref(base);
	x->t.runs += x->t.rows > before;
}

/* ---- the session ------------------------------------------------------------------- */

/* Every annotations file must exist: an export reads labels, it makes none. */
static int check_annotations(const char *const *paths, size_t n, bool given)
{
	for (size_t i = 0; i < n; i++)
		if (access(paths[i], R_OK) != 0) {
			fprintf(stderr, PROG ": %s: no annotations file to read%s\n", paths[i],
			        given ? "" : " (the default beside the first input; give -a FILE)");
			return EXIT_INPUT;
		}
	return EXIT_DONE;
}

static void warn_reviewers(const struct export_job *x)
{
	for (size_t k = 0; k < x->f->nreviewers; k++) {
		if (!annot_has_reviewer(x->rv->annot, x->f->reviewers[k]))
			fprintf(stderr, PROG ": --reviewer %s: no decision of that reviewer in the "
			        "annotations\n", x->f->reviewers[k]);
	}
}

static void print_tally(const struct export_job *x)
{
	const struct export_tally *t = &x->t;
	const char *to = x->f->output && strcmp(x->f->output, "-") ? x->f->output : "standard output";
	fprintf(stderr, PROG ": wrote %zu %s%s of %zu run%s to %s\n", t->rows,
	        x->f->format == FMT_FT ? "training line" : "row", t->rows == 1 ? "" : "s", t->runs,
	        t->runs == 1 ? "" : "s", to);
	if (t->stale_only)
		fprintf(stderr, PROG ": left out %zu row%s whose only labels are stale "
		        "(--include-stale counts them)\n", t->stale_only, t->stale_only == 1 ? "" : "s");
	if (t->other_split)
		fprintf(stderr, PROG ": left out %zu row%s of other splits\n", t->other_split,
		        t->other_split == 1 ? "" : "s");
	if (t->ft_scorers)
		fprintf(stderr, PROG ": left out %zu scorer row%s (openai-ft is for judges)\n",
		        t->ft_scorers, t->ft_scorers == 1 ? "" : "s");
	if (t->ft_ties)
		fprintf(stderr, PROG ": left out %zu tie%s (the reviewers do not agree on a label)\n",
		        t->ft_ties, t->ft_ties == 1 ? "" : "s");
	if (t->ft_no_answer) {
		fprintf(stderr, PROG ": left out %zu label%s the judge's answer cannot say; the first: ",
		        t->ft_no_answer, t->ft_no_answer == 1 ? "" : "s");
		textvis_fputs(stderr, t->ft_why);
		fputc('\n', stderr);
	}
	if (t->unreadable)
		fprintf(stderr, PROG ": %zu record%s could not be read\n", t->unreadable,
		        t->unreadable == 1 ? "" : "s");
}

/* Writes every row to the output; EXIT_DONE or EXIT_INPUT. */
static int export_rows(struct export_job *x)
{
	struct error err = {0};
	if (export_out_open(&x->out, x->f->output, &err) < 0) {
		fprintf(stderr, PROG ": %s\n", err.msg);
		return EXIT_INPUT;
	}
	if (x->f->format == FMT_CSV) {
		export_csv_header(&x->line);
		emit(x);
	}
	for (size_t e = 0; e < x->rv->nentries; e++)
		export_entry(x, e);
	strbuf_release(&x->line);
	if (x->write_failed || export_out_close(&x->out, !x->write_failed, &err) < 0) {
		if (x->write_failed) {
			export_out_close(&x->out, false, &err);
			error_set(&err, ERR_FAILED, "%s: cannot write it",
			         x->f->output ? x->f->output : "standard output");
		}
		fprintf(stderr, PROG ": %s\n", err.msg);
		return EXIT_INPUT;
	}
	print_tally(x);
	return EXIT_DONE;
}

/* --references: the corrected trajectories instead of the labelled set. */
static int write_references(struct export_job *x)
{
	struct export_refs_opts o = {
		.reviewers = x->f->reviewers, .nreviewers = x->f->nreviewers,
		.output = x->f->output, .by_run = x->f->by_run, .prog = PROG,
	};
	struct error err = {0};
	if (export_references(x->rv, &o, &err) < 0) {
		fprintf(stderr, PROG ": %s\n", err.msg);
		return EXIT_INPUT;
	}
	return EXIT_DONE;
}

/* Opens the session and the judge cache, reads everything, exports. */
static int export_session(const struct cli_context *ctx, struct export_job *x,
                          const struct config *c, struct expectations *ex, char **files,
                          size_t nfiles)
{
	const struct dataset_opts in = cli_dataset_opts(ctx);
	char *dflt = x->f->nannot ? NULL : review_annot_default(files[0]);
	const char *const *apaths = dflt ? (const char *const *)&dflt : x->f->annot;
	size_t napaths = dflt ? 1 : x->f->nannot;
	int rc = check_annotations(apaths, napaths, !dflt);
	struct review rv;
	struct judging jg;
	struct error err = {0};
	memset(&jg, 0, sizeof jg);
	if (rc == EXIT_DONE &&
	    review_open_reading(&rv, &in, c, ex, files, nfiles, apaths, napaths, "export", &err) < 0) {
		fprintf(stderr, PROG ": %s\n", err.msg);
		rc = EXIT_INPUT;
	}
	free(dflt);
	if (rc != EXIT_DONE)
		return rc;
	x->rv = &rv;
	if (annot_warning(rv.annot))
		fprintf(stderr, PROG ": %s\n", annot_warning(rv.annot));
	struct judging_note note = { 0 };
	if (judging_open_cached(&jg, &rv, &note, &err) < 0) {
		fprintf(stderr, PROG ": %s\n", err.msg);
		rc = EXIT_INPUT;
	} else {
		if (note.text[0])
			fprintf(stderr, PROG ": %s\n", note.text);
		while (review_step(&rv, 200.0))
			;
		review_settle(&rv);
		warn_reviewers(x);
		rc = x->f->references ? write_references(x) : export_rows(x);
	}
	judging_close(&jg);
	review_close(&rv);
	return rc;
}

static int export_main(struct cli_context *ctx, int argc, char **argv)
{
	struct export_flags f;
	int rc = parse_flags(ctx, argc, argv, &f);
	if (rc >= 0)
		return rc;
	struct export_job x = { .f = &f };
	x.sel = (struct export_sel){ .reviewers = f.nreviewers ? f.reviewers : NULL,
	                             .nreviewers = f.nreviewers, .include_stale = f.include_stale };
	if ((rc = check_split(&x)) != EXIT_DONE)
		return rc;
	struct config c;
	if (cli_load_config(ctx, &c, f.config, optind < argc ? argv[optind] : NULL) < 0)
		return EXIT_USAGE;
	struct expectations *ex = NULL;
	const struct format_ops *forced = NULL;
	rc = f.references ? EXIT_DONE : pick_rows(&x, &c);
	/* The session reads records with the configuration's runs.format itself. */
	if (rc == EXIT_DONE)
		rc = cli_setup(ctx, PROG, &c, NULL, f.expect, &forced, &ex);
	(void)forced;
	if (rc == EXIT_DONE)
		rc = export_session(ctx, &x, &c, ex, argv + optind, (size_t)(argc - optind));
	free(x.want);
	expect_free(ex);
	config_free(&c);
	return rc;
}

int cli_export(int argc, char **argv)
{
	struct cli_context ctx;
	cli_context_init(&ctx);
	int rc = export_main(&ctx, argc, argv);
	cli_context_free(&ctx);
	return rc;
}
