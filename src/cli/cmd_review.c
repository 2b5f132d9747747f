/* cmd_review.c - `tcreview [review] FILE...`: the review screen. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/queue_opts.h"
#include "judge/trust.h"
#include "util/clock.h"
#include "util/xalloc.h"
#include "runs/expect.h"
#include "runs/dataset.h"
#include "runs/format.h"
#include "review/session.h"
#include "review/compare.h"
#include "tui/tui.h"
#include "util/error.h"

static void review_usage(FILE *out)
{
	fprintf(out,
	"usage: tcreview [review] [-c FILE] [--expect FILE] [-a ANNOTATIONS]... [--theme NAME]\n"
	"                [--reviewer NAME] [--format NAME] [--blind] [--assign K/N[:OVERLAP%%]]\n"
	"                [--queue uncertain|disagree|errors|random [--sample N] [--seed S]]\n"
	"                [--target-width W] [--allow-path PATH]... FILE...\n"
	"       tcreview [review] --compare [--task PATH] [OPTION]... BASE CAND\n"
	"\n"
	"Opens the review screen: the runs, each run's timeline beside its verdicts,\n"
	"and the reviewer's decisions, saved to the annotations file as they are made.\n"
	"\n"
	"  -c, --config FILE       scorers, expectations, theme and keys (default ./tcreview.yaml,\n"
	"                          else one beside the first FILE; `tcreview --help config`)\n"
	"      --expect FILE       expectations file, instead of expectations.file\n"
	"      --allow-path PATH   let the configuration name files in PATH (a file or a\n"
	"                          folder) outside its own folder (repeatable)\n"
	"  -a, --annotations FILE  where decisions go (default FIRST_INPUT.annotations.jsonl);\n"
	"                          given again, more files to read (other reviewers'), not written\n"
	"      --theme NAME        dark (default), light or mono; NO_COLOR is respected\n"
	"      --reviewer NAME     who decides (default: the user configuration's reviewer,\n"
	"                          else `git config user.name`, else $USER)\n"
	"      --format NAME       read every record with this loader\n"
	"      --blind             hide each verdict, judge answer and other reviewer's label\n"
	"                          until you label the row (digits, o); a and A are refused;\n"
	"                          decisions record \"blind\": true\n"
	"      --assign K/N[:OVERLAP%%]  review only share K of N (a split by a hash of the\n"
	"                          run id, the same for every reviewer); OVERLAP%% of the runs\n"
	"                          are in every share, for the reviewers' agreement\n"
	"      --queue KIND        the runs to review first: uncertain (judge scores nearest\n"
	"                          their threshold), disagree (code and judge differ), errors\n"
	"                          (tool errors), random (a seeded shuffle)\n"
	"      --sample N          review a sample of N runs drawn by the queue (random: equal\n"
	"                          chances; the others: unequal, their weights recorded)\n"
	"      --seed S            the sample's seed (default 26)\n"
	"      --target-width W    the calibration's labels to go: until the agreement's 95%%\n"
	"                          interval is narrower than W (default 0.1)\n"
	"      --compare           BASE and CAND (each a file or a folder) side by side: the\n"
	"                          list marks each run B or C; C on a run compares it with another\n"
	"      --task PATH         what runs are trials of (e.g. task_id; default the YAML's\n"
	"                          compare: {task:}): --compare opens on the first task both\n"
	"                          sides ran, ] and [ step through the tasks\n"
	"      --ca-file FILE      a private certificate authority for the judges\n"
	"      --max-iterations N  stop after N turns of the event loop (smoke tests)\n"
	CLI_TRUST_USAGE
	"  -h, --help              this help; `tcreview --help keys` lists the keys\n"
	"\n"
	"With no FILE, the bundled demo opens. TCR_SCRIPT=FILE drives the screen from\n"
	"a file of keys and commands (see the man page).\n");
}

struct review_opts {
	struct cli_context *ctx;        /* the command's choices, the screen's too */
	const char *config, *expect, *theme;
	const char **annot;             /* every -a in order; the first is written to */
	size_t nannot;
	const char *reviewer, *format, *ca_file;
	long max_iter;
	const char *script;             /* TCR_SCRIPT, or NULL */
	bool blind;
	struct review_assign assign;    /* --assign, off when not given */
	struct review_queue queue;      /* --queue, --sample, --seed */
	double target_width;            /* --target-width; 0: the default */
	bool compare;                   /* --compare BASE CAND */
	const char *task;               /* --task PATH */
};

/* Reads the options into o; returns -1 to go on, else the exit status
 * (after --help, or a usage error). */
static int review_parse_args(int argc, char **argv, struct review_opts *o)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "allow-path", required_argument, NULL, CLI_OPT_ALLOW_PATH },
		{ "expect", required_argument, NULL, 'E' },
		{ "annotations", required_argument, NULL, 'a' },
		{ "theme", required_argument, NULL, 'T' },
		{ "reviewer", required_argument, NULL, 'R' },
		{ "format", required_argument, NULL, 'F' },
		{ "max-iterations", required_argument, NULL, 'M' },
		{ "ca-file", required_argument, NULL, 'A' },
		{ "blind", no_argument, NULL, 'B' },
		{ "assign", required_argument, NULL, 'S' },
		{ "queue", required_argument, NULL, 'Q' },
		{ "sample", required_argument, NULL, 'N' },
		{ "seed", required_argument, NULL, 'D' },
		{ "target-width", required_argument, NULL, 'W' },
		{ "compare", no_argument, NULL, 'P' },
		{ "task", required_argument, NULL, 'K' },
		CLI_TRUST_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ch;
	struct error err = {0};
	optind = 1;
	while ((ch = getopt_long(argc, argv, "c:a:h", longopts, NULL)) != -1) {
		if (cli_trust_option(o->ctx, ch, optarg))
			continue;
		switch (ch) {
		case 'c': o->config = optarg; break;
		case CLI_OPT_ALLOW_PATH:
			if (cli_allow_path(o->ctx, "tcreview", optarg) < 0)
				return EXIT_USAGE;
			break;
		case 'E': o->expect = optarg; break;
		case 'a':
			o->annot = xrealloc(o->annot, (o->nannot + 1) * sizeof *o->annot);
			o->annot[o->nannot++] = optarg;
			break;
		case 'T': o->theme = optarg; break;
		case 'R': o->reviewer = optarg; break;
		case 'F': o->format = optarg; break;
		case 'M': o->max_iter = strtol(optarg, NULL, 10); break;
		case 'A': o->ca_file = optarg; break;
		case 'B': o->blind = true; break;
		case 'P': o->compare = true; break;
		case 'K':
			if (!cli_task_option_ok("tcreview", optarg))
				return EXIT_USAGE;
			o->task = optarg;
			break;
		case 'S':
			if (review_assign_parse(&o->assign, optarg, &err) < 0) {
				fprintf(stderr, "tcreview: --assign: %s\n", err.msg);
				return EXIT_USAGE;
			}
			break;
		case 'Q':
		case 'N':
		case 'D':
			if (cli_queue_option(&o->queue, ch == 'Q' ? "--queue" : ch == 'N' ? "--sample"
			                     : "--seed", optarg) < 0)
				return EXIT_USAGE;
			break;
		case 'W':
			if (cli_target_width(&o->target_width, optarg) < 0)
				return EXIT_USAGE;
			break;
		case 'h':
			review_usage(stdout);
			return EXIT_DONE;
		default:
			review_usage(stderr);
			return EXIT_USAGE;
		}
	}
	return -1;
}

/* The bundled demo's configuration and runs, for a review without FILE. */
struct demo {
	char cfg[4096], runs[4096];
	char *paths[1];
};

/* The inputs to review: the files after the options, else the demo (whose
 * configuration is used unless -c gave one). Returns the exit status on a
 * problem. */
static int review_inputs(int argc, char **argv, const char *datadir, struct review_opts *o,
                         struct demo *demo, char *const **paths, size_t *npaths)
{
	*paths = argv + optind;
	*npaths = (size_t)(argc - optind);
	if (o->compare && *npaths != 2) {
		fprintf(stderr, "tcreview: --compare takes two inputs, BASE and CAND (%zu given)\n", *npaths);
		return EXIT_USAGE;
	}
	if (o->compare && strcmp((*paths)[0], (*paths)[1]) == 0) {
		fprintf(stderr, "tcreview: --compare: BASE and CAND are the same input (%s)\n", (*paths)[0]);
		return EXIT_USAGE;
	}
	if (*npaths)
		return EXIT_DONE;
	if (!datadir) {
		fprintf(stderr, "tcreview: no FILE given and the demo (examples/) was not found\n");
		return EXIT_INPUT;
	}
	snprintf(demo->cfg, sizeof demo->cfg, "%s/examples/scorers.yaml", datadir);
	snprintf(demo->runs, sizeof demo->runs, "%s/examples/runs", datadir);
	if (!o->config)
		o->config = demo->cfg;
	demo->paths[0] = demo->runs;
	*paths = demo->paths;
	*npaths = 1;
	return EXIT_DONE;
}

/* What the screen works on, owned here so that the screen's I can load a
 * configuration again and reopen the session on it. */
struct review_state {
	const struct review_opts *o;
	char *const *paths;
	size_t npaths;
	struct config *cfg;
	struct expectations *ex;
	struct review *rv;
	char reviewer[256];
	const char *reviewer_name;
};

/* Opens a session on st's inputs with cfg and ex. */
static int session_open(struct review_state *st, const struct config *cfg,
                        struct expectations *ex, struct review *rv, struct error *err)
{
	const struct review_opts *o = st->o;
	memset(rv, 0, sizeof *rv);
	/* before anything is opened: nothing to close on the way out */
	const char *unfit = o->queue.kind != QUEUE_NONE ? review_queue_unfit(cfg, o->queue.kind) : NULL;
	if (unfit) {
		error_set(err, ERR_FAILED, "--queue %s: %s", review_queue_name(o->queue.kind), unfit);
		return -1;
	}
	const struct dataset_opts in = cli_dataset_opts(o->ctx);
	if (review_open_with(rv, &in, cfg, ex, st->paths, st->npaths, o->annot, o->nannot,
	                st->reviewer_name, err) < 0)
		return -1;
	const char *fmt = o->format ? o->format : cfg->format;
	const struct format_ops *forced = fmt ? format_find(fmt) : NULL;
	if (forced)
		rv->forced = forced;
	rv->blind = o->blind;
	if (o->assign.on)
		review_set_assign(rv, &o->assign);
	rv->target_width = o->target_width;
	if (o->queue.kind != QUEUE_NONE)
		review_set_queue(rv, &o->queue);
	return 0;
}

/* tui_reload's hook: the configuration found now (the one I just wrote)
 * and a session on it. The new configuration is loaded before anything
 * is let go, so a bad one leaves the screen as it was. */
static int review_reload(void *arg, struct review **rv, const struct config **cfg, struct error *err)
{
	struct review_state *st = arg;
	struct cli_context *x = st->o->ctx;
	struct config *nc = xcalloc(1, sizeof *nc);
	struct expectations *nex = NULL;
	bool declared;
	if (cli_load_config_err(x, nc, st->o->config, st->npaths ? st->paths[0] : NULL, err) < 0 ||
	    cli_load_expect(nc, st->o->expect, &nex, err) < 0 ||
	    cli_declare_formats_err(x, nc, st->o->format ? st->o->format : nc->format, &declared,
	                            err) < 0) {
		struct error again = {0};
		expect_free(nex);
		config_free(nc);
		free(nc);
		/* Back to the formats of the configuration in use. */
		cli_declare_formats_err(x, st->cfg, st->o->format ? st->o->format : st->cfg->format,
		                        &declared, &again);
		return -1;
	}
	review_close(st->rv);
	if (session_open(st, nc, nex, st->rv, err) < 0) {
		/* The inputs opened a moment ago; back to the old configuration. */
		struct error again = {0};
		cli_declare_formats_err(x, st->cfg, st->o->format ? st->o->format : st->cfg->format,
		                        &declared, &again);
		expect_free(nex);
		config_free(nc);
		free(nc);
		if (session_open(st, st->cfg, st->ex, st->rv, &again) < 0)
			abort();
		return -1;
	}
	expect_free(st->ex);
	config_free(st->cfg);
	free(st->cfg);
	st->cfg = nc;
	st->ex = nex;
	*rv = st->rv;
	*cfg = nc;
	return 0;
}

/* Opens the session on the inputs and runs the screen until it is left. */
static int review_run(struct review_state *st, const char *datadir, double started)
{
	const struct review_opts *o = st->o;
	const struct format_ops *forced = NULL;
	int rc = cli_setup(o->ctx, "tcreview", st->cfg, o->format, o->expect, &forced, &st->ex);
	if (rc != EXIT_DONE)
		return rc;
	struct review rv;
	struct error err = {0};
	st->reviewer_name = cli_reviewer(st->cfg, o->reviewer, st->reviewer, sizeof st->reviewer);
	st->rv = &rv;
	if (session_open(st, st->cfg, st->ex, &rv, &err) < 0) {
		fprintf(stderr, "tcreview: %s\n", err.msg);
		return EXIT_INPUT;
	}
	/* From here the screen owns the terminal: what the inputs' walk had to
	 * say is said, and I's new look at them must not write over it. */
	o->ctx->walk_quiet = true;
	const struct tui_reload reload = {
		.inputs = (const char *const *)st->paths,
		.ninputs = st->npaths,
		.reload = review_reload,
		.arg = st,
	};
	struct compare_sides sides = {
		.on = o->compare,
		.nbase_files = o->compare ? compare_base_files(&rv, st->paths[0]) : 0,
		.task_spec = cli_task_spec(o->task, st->cfg),
	};
	struct tui_opts to = {
		.theme = o->theme,
		.datadir = datadir,
		.script = o->script,
		.max_iterations = o->max_iter,
		.started_ms = started,
		.ca_file = o->ca_file,
		.reload = &reload,
		.compare = &sides,
	};
	rc = tui_run(&rv, st->cfg, &to);
	review_close(&rv);
	return rc;
}

/* What follows the options: the inputs, the configuration, the screen. */
static int review_main(int argc, char **argv, struct review_opts *o, double started)
{
	int rc;
	o->script = getenv("TCR_SCRIPT");
	if (o->script && !*o->script)
		o->script = NULL;
	if (!isatty(1) && !o->script && o->max_iter <= 0) {
		fprintf(stderr, "tcreview: standard output is not a terminal, so there is no screen to "
		        "review on; for verdicts in a pipe or a file use `tcreview score`\n");
		return EXIT_USAGE;
	}
	struct demo demo;
	char *const *paths;
	size_t npaths;
	const char *datadir = o->ctx->datadir;
	rc = review_inputs(argc, argv, datadir, o, &demo, &paths, &npaths);
	if (rc != EXIT_DONE)
		return rc;
	struct review_state st = { .o = o, .paths = paths, .npaths = npaths };
	st.cfg = xcalloc(1, sizeof *st.cfg);
	/* The screen asks before a judge's first request to a host not
	 * allowed yet, where the other commands refuse the configuration. */
	o->ctx->trust.confirm_later = true;
	if (cli_load_config(o->ctx, st.cfg, o->config, npaths ? paths[0] : NULL) < 0) {
		free(st.cfg);
		return EXIT_USAGE;
	}
	rc = review_run(&st, datadir, started);
	expect_free(st.ex);
	config_free(st.cfg);
	free(st.cfg);
	return rc;
}

int cli_review(int argc, char **argv)
{
	double started = now_ms();
	struct cli_context x;
	cli_context_init(&x);
	struct review_opts o = { .ctx = &x, .queue.seed = QUEUE_SEED_DEFAULT };
	int rc = review_parse_args(argc, argv, &o);
	if (rc < 0 && cli_queue_check(&o.queue) < 0)
		rc = EXIT_USAGE;
	if (rc < 0)
		rc = review_main(argc, argv, &o, started);
	free(o.annot);
	cli_context_free(&x);
	return rc;
}
