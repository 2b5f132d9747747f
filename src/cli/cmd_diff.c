/* cmd_diff.c - `tcreview diff BASE CAND`: what a candidate fixed and broke against a baseline, task by task, per scorer and judge.
 *
 * Each side is read and scored through a review session of its own,
 * stepped to the end (the two sides on two threads), as `stats` reads
 * its runs: code scorers run on every run, judge verdicts come from each
 * side's judge cache only (no judge is asked) and only the session's
 * per-run rows take part. The task key names each run's task as it is
 * summarized; diff_tally.c counts and judges the changes and
 * diff_write.c writes them. */
#include <getopt.h>
#include <locale.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/diff_report.h"
#include "review/judging.h"
#include "review/rows.h"
#include "review/session.h"
#include "review/settle.h"
#include "runs/expect.h"
#include "runs/run.h"
#include "util/strbuf.h"
#include "util/textvis.h"
#include "util/xalloc.h"
#include "util/error.h"

#define PROG "tcreview diff"
/* Records whose reading failed are named one by one up to this many a side. */
#define UNREAD_NAMED 10

static void diff_usage(FILE *out)
{
	fprintf(out,
	"usage: tcreview diff [-c FILE] [--task PATH] [--scorer ID]... [-o text|jsonl]\n"
	"                     [--fail-on-broke] [--color[=WHEN]] [--expect FILE]\n"
	"                     [--format NAME] [--allow-path PATH]... BASE CAND\n"
	"\n"
	"Which tasks a candidate fixed and which it broke against a baseline: the runs\n"
	"of BASE and CAND (each a file or a folder) paired by their task, every code\n"
	"scorer run on both sides, judge verdicts read from each side's judge cache\n"
	"(BASE.judgements.jsonl, CAND.judgements.jsonl, each read for both sides;\n"
	"no judge is asked).\n"
	"\n"
	"  -c, --config FILE   scorers, judges and compare: {task:} (default ./tcreview.yaml)\n"
	"      --task PATH     the task key: a path in each record (\"task_id\"), or several\n"
	"                      separated by a space; default compare: {task:} of the YAML\n"
	"      --scorer ID     only this scorer or judge (repeatable), also for\n"
	"                      --fail-on-broke\n"
	"  -o, --output FMT    text (default on a terminal) or jsonl (default otherwise)\n"
	"      --fail-on-broke exit 1 when a task broke under a scorer\n"
	"      --color[=WHEN]  colour broke and fixed: auto (default: on a terminal,\n"
	"                      unless NO_COLOR is set), always or never\n"
	"      --expect FILE   expectations file, instead of expectations.file\n"
	"      --format NAME   read every record with this loader\n"
	CLI_ALLOW_PATH_HELP
	CLI_TRUST_USAGE
	"  -h, --help          this help\n"
	"\n"
	"A task's change under a scorer compares its pass rate (passed / counted runs)\n"
	"on each side: higher is fixed, lower is broke; an equal rate is same-pass when\n"
	"it is above one half, else same-fail; only-base and only-cand when one side\n"
	"has no counted run. An error or a skip is not counted. The summary per scorer\n"
	"gives the pass rates, pass^k per side and McNemar's exact p on broke against\n"
	"fixed. Exit status: 0 done, 1 --fail-on-broke and a task broke, 2 usage or\n"
	"configuration error, 3 an input could not be read.\n");
}

struct diff_opts {
	struct cli_context *ctx;
	const char *config, *expect, *format, *output, *task;
	const char **scorers;
	size_t nscorers;
	bool fail_on_broke;
	int color;                  /* -1 auto, 0 never, 1 always */
};

static int color_arg(const char *s, int *out)
{
	if (!s || !strcmp(s, "auto"))
		*out = -1;
	else if (!strcmp(s, "always"))
		*out = 1;
	else if (!strcmp(s, "never"))
		*out = 0;
	else {
		fprintf(stderr, PROG ": --color takes auto, always or never, not '%s'\n", s);
		return -1;
	}
	return 0;
}

/* Reads the options into o; returns -1 to go on, else the exit status. */
static int diff_parse_args(int argc, char **argv, struct diff_opts *o)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "allow-path", required_argument, NULL, CLI_OPT_ALLOW_PATH },
		{ "task", required_argument, NULL, 'T' },
		{ "scorer", required_argument, NULL, 'S' },
		{ "output", required_argument, NULL, 'o' },
		{ "fail-on-broke", no_argument, NULL, 'B' },
		{ "color", optional_argument, NULL, 'C' },
		{ "expect", required_argument, NULL, 'E' },
		{ "format", required_argument, NULL, 'F' },
		CLI_TRUST_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	o->scorers = xcalloc((size_t)argc + 1, sizeof *o->scorers);
	o->color = -1;
	int ch;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "c:o:h", longopts, NULL)) != -1) {
		if (cli_trust_option(o->ctx, ch, optarg))
			continue;
		switch (ch) {
		case 'c': o->config = optarg; break;
		case CLI_OPT_ALLOW_PATH:
			if (cli_allow_path(o->ctx, PROG, optarg) < 0)
				return EXIT_USAGE;
			break;
		case 'T':
			if (!cli_task_option_ok(PROG, optarg))
				return EXIT_USAGE;
			o->task = optarg;
			break;
		case 'S': o->scorers[o->nscorers++] = optarg; break;
		case 'o': o->output = optarg; break;
		case 'B': o->fail_on_broke = true; break;
		case 'C':
			if (color_arg(optarg, &o->color) < 0)
				return EXIT_USAGE;
			break;
		case 'E': o->expect = optarg; break;
		case 'F': o->format = optarg; break;
		case 'h':
			diff_usage(stdout);
			return EXIT_DONE;
		default:
			diff_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (argc - optind != 2) {
		fprintf(stderr, PROG ": give two inputs, BASE and CAND (%d given)\n", argc - optind);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[optind], "-") && !strcmp(argv[optind + 1], "-")) {
		fprintf(stderr, PROG ": only one side can be standard input (-)\n");
		return EXIT_USAGE;
	}
	if (o->task && !*o->task) {
		fprintf(stderr, PROG ": --task needs a path, such as --task task_id\n");
		return EXIT_USAGE;
	}
	if (o->output && strcmp(o->output, "text") && strcmp(o->output, "jsonl")) {
		fprintf(stderr, PROG ": unknown output '%s' (expected one of: text, jsonl)\n", o->output);
		return EXIT_USAGE;
	}
	return -1;
}

/* ---- one side ----------------------------------------------------------------------- */

typedef void side_fill_fn(void *ctx, struct review *rv, size_t entry, const struct run *run);

struct side {
	const char *path;
	const char *other;          /* the other side's input: its judge cache is read too */
	const char *name;           /* "base" or "cand" */
	const char *spec;           /* the task key */
	struct review rv;
	struct judging jg;
	bool rv_open, jg_open;
	side_fill_fn *fill;         /* the judge cache's hook, called first */
	void *fill_ctx;
	char **task;                /* per entry: its task text, NULL without one */
	size_t ntask;
};

/* The session's hook for each run it summarizes: the cached judge
 * verdicts as before, then the run's task, while the run is parsed (it is
 * not read again). */
static void side_note_task(void *ctx, struct review *rv, size_t entry, const struct run *run)
{
	struct side *s = ctx;
	if (s->fill)
		s->fill(s->fill_ctx, rv, entry, run);
	if (entry >= s->ntask) {
		size_t n = rv->nentries > entry ? rv->nentries : entry + 1;
		s->task = xrealloc(s->task, n * sizeof *s->task);
		memset(s->task + s->ntask, 0, (n - s->ntask) * sizeof *s->task);
		s->ntask = n;
	}
	/* The run is the session's own; the task's text, when several paths
	 * join, is kept in its arena. */
	const char *t = run_spec_text((struct run *)run, s->spec);
	s->task[entry] = t ? xstrdup(t) : NULL;
}

static int side_open(struct side *s, struct cli_context *x, const struct config *c,
                     struct expectations *ex, const struct format_ops *forced)
{
	struct error err = {0};
	const char *user = getenv("USER");
	const struct dataset_opts in = cli_dataset_opts(x);
	char *paths[] = { (char *)s->path };
	if (review_open_reading(&s->rv, &in, c, ex, paths, 1, NULL, 0, user && *user ? user : "diff",
	                        &err) < 0) {
		fprintf(stderr, PROG ": %s\n", err.msg);
		return EXIT_INPUT;
	}
	s->rv_open = true;
	if (forced)
		s->rv.forced = forced;
	/* Every run is read once, in order: none needs to stay cached. */
	s->rv.cache_limit = 0;
	struct judging_note note;
	if (judging_open_cached_also(&s->jg, &s->rv, s->other, &note, &err) < 0) {
		fprintf(stderr, PROG ": %s\n", err.msg);
		return EXIT_INPUT;
	}
	s->jg_open = true;
	if (note.text[0])
		fprintf(stderr, PROG ": warning: %s (%s)\n", note.text, s->name);
	s->fill = s->rv.judge_fill;
	s->fill_ctx = s->rv.judge_fill_ctx;
	s->rv.judge_fill = side_note_task;
	s->rv.judge_fill_ctx = s;
	return EXIT_DONE;
}

static void side_close(struct side *s)
{
	if (s->rv_open && s->rv.judge_fill_ctx == s) {
		s->rv.judge_fill = s->fill;
		s->rv.judge_fill_ctx = s->fill_ctx;
	}
	if (s->jg_open)
		judging_close(&s->jg);
	if (s->rv_open)
		review_close(&s->rv);
	for (size_t i = 0; i < s->ntask; i++)
		free(s->task[i]);
	free(s->task);
}

static void *side_step(void *arg)
{
	struct side *s = arg;
	while (review_step(&s->rv, 1000))
		;
	return NULL;
}

/* Reads and scores both sides, one on a thread of its own. */
static void sides_step(struct side *sides)
{
	pthread_t th;
	bool threaded = pthread_create(&th, NULL, side_step, &sides[DIFF_CAND]) == 0;
	side_step(&sides[DIFF_BASE]);
	if (threaded)
		pthread_join(th, NULL);
	else
		side_step(&sides[DIFF_CAND]);
	for (int i = 0; i < DIFF_SIDES; i++)
		review_settle(&sides[i].rv);
}

/* ---- counting ------------------------------------------------------------------------- */

/* Names a record that could not be read, with the reason. */
static void say_unread(struct side *s, size_t entry, size_t nth)
{
	if (nth > UNREAD_NAMED)
		return;
	const struct review_entry *e = &s->rv.entries[entry];
	if (nth == UNREAD_NAMED) {
		fprintf(stderr, PROG ": ... (the others of %s are not named)\n", s->path);
		return;
	}
	const struct review_run *rr = review_run_at(&s->rv, entry);
	const char *why = !rr ? "could not be read" : rr->error ? rr->error
	                  : rr->run && rr->run->load_error ? rr->run->load_error : "could not be read";
	struct strbuf sb = STRBUF_INIT;
	/* A parse error names its place already. */
	if (strncmp(why, e->source, strlen(e->source)) != 0)
		strbuf_addf(&sb, "%s: ", e->source);
	strbuf_addstr(&sb, why);
	fprintf(stderr, PROG ": ");
	textvis_fputs(stderr, sb.buf);
	fputc('\n', stderr);
	strbuf_release(&sb);
}

/* One run's verdicts into its task's counts. */
static void count_run(struct diff *d, struct side *s, int side, size_t entry, struct diff_task *t)
{
	const struct review_entry *e = &s->rv.entries[entry];
	t->runs[side]++;
	for (size_t r = 0; r < d->nrows; r++) {
		struct review_row row;
		if (!review_row_get(&s->rv, NULL, r, &row))
			continue;
		struct diff_count *c = &t->counts[r * DIFF_SIDES + (size_t)side];
		uint8_t status;
		bool passed;
		if (row.kind == ROW_SCORER) {
			status = e->cells[row.slot].status;
			passed = e->cells[row.slot].passed;
		} else {
			const struct judge_cell *jc = review_judge_cell_at(&s->rv, entry, row.slot);
			if (!jc || jc->state != JUDGE_DONE) {
				d->rows[r].missing[side]++;
				continue;
			}
			status = (uint8_t)jc->v.status;
			passed = jc->v.passed;
		}
		if (status != VERDICT_OK) {
			d->rows[r].uncounted[side]++;
			continue;
		}
		c->runs++;
		c->passed += passed;
	}
}

static void count_side(struct diff *d, struct side *s, int side)
{
	struct diff_input *in = &d->in[side];
	size_t unread = 0;
	in->path = s->path;
	in->records = s->rv.nentries;
	for (size_t i = 0; i < s->rv.nentries; i++) {
		const struct review_entry *e = &s->rv.entries[i];
		if (!e->summarized || e->load_failed) {
			say_unread(s, i, unread++);
			continue;
		}
		const char *task = i < s->ntask ? s->task[i] : NULL;
		if (!task) {
			in->no_task++;
			continue;
		}
		struct diff_task *t = diff_task_of(d, task);
		if (!t->runs[side])
			in->tasks++;
		in->runs++;
		count_run(d, s, side, i, t);
	}
	in->unread = unread;
}

/* What was left out, on standard error. */
static void say_left_out(const struct diff *d, const char *spec)
{
	for (int side = 0; side < DIFF_SIDES; side++) {
		const struct diff_input *in = &d->in[side];
		const char *name = side == DIFF_BASE ? "base" : "cand";
		if (in->unread)
			fprintf(stderr, PROG ": %zu record%s of %s (%s) could not be read: left out\n",
			        in->unread, in->unread == 1 ? "" : "s", in->path, name);
		if (in->no_task)
			fprintf(stderr, PROG ": %zu run%s of %s (%s) %s no %s: left out\n", in->no_task,
			        in->no_task == 1 ? "" : "s", in->path, name, in->no_task == 1 ? "has" : "have",
			        spec);
	}
	for (size_t r = 0; r < d->nrows; r++) {
		const struct diff_row *row = &d->rows[r];
		for (int side = 0; row->shown && side < DIFF_SIDES; side++) {
			const char *path = d->in[side].path, *name = side == DIFF_BASE ? "base" : "cand";
			if (row->missing[side])
				fprintf(stderr, PROG ": judge %s: %zu run%s of %s (%s) %s no verdict in the "
				        "judge cache: left out (tcreview judge %s asks for them)\n", row->id,
				        row->missing[side], row->missing[side] == 1 ? "" : "s", path, name,
				        row->missing[side] == 1 ? "has" : "have", path);
			if (row->uncounted[side])
				fprintf(stderr, PROG ": %s %s: %zu verdict%s on %s (%s) %s an error or a skip: "
				        "not counted\n", row->judge ? "judge" : "scorer", row->id,
				        row->uncounted[side], row->uncounted[side] == 1 ? "" : "s", path, name,
				        row->uncounted[side] == 1 ? "was" : "were");
		}
	}
}

/* The rows compared (the session's per-run scorers and judges) and which
 * are shown: those --scorer names, else all. */
static int rows_pick(struct diff *d, const struct review *rv, const struct diff_opts *o)
{
	for (size_t r = 0; r < d->nrows; r++) {
		struct review_row row;
		review_row_get(rv, NULL, r, &row);
		d->rows[r].id = row.id;
		d->rows[r].judge = row.kind == ROW_JUDGE;
		d->rows[r].shown = o->nscorers == 0;
	}
	for (size_t i = 0; i < o->nscorers; i++) {
		bool found = false;
		for (size_t r = 0; r < d->nrows; r++)
			if (!strcmp(d->rows[r].id, o->scorers[i]))
				found = d->rows[r].shown = true;
		if (found)
			continue;
		struct strbuf sb = STRBUF_INIT;
		for (size_t r = 0; r < d->nrows; r++)
			strbuf_addf(&sb, "%s%s", r ? ", " : "", d->rows[r].id);
		fprintf(stderr, PROG ": unknown scorer or judge '%s' (per-run scorers and judges: %s)\n",
		        o->scorers[i], sb.len ? sb.buf : "none");
		strbuf_release(&sb);
		return -1;
	}
	return 0;
}

/* The terminal's width; in a pipe $COLUMNS, else 80. */
static size_t out_width(void)
{
	size_t cols = cli_tty_columns(1);
	if (cols)
		return cols;
	const char *env = getenv("COLUMNS");
	char *end;
	long n = env ? strtol(env, &end, 10) : 0;
	return env && *env && !*end && n > 0 && n < 10000 ? (size_t)n : 80;
}

static int diff_report(struct diff *d, const struct diff_opts *o)
{
	const char *output = o->output ? o->output : isatty(1) ? "text" : "jsonl";
	if (!strcmp(output, "jsonl")) {
		diff_write_jsonl(stdout, d);
	} else {
		const char *no_color = getenv("NO_COLOR");
		bool color = o->color == 1 || (o->color == -1 && isatty(1) && !(no_color && *no_color));
		struct diff_text_opts to = { .width = out_width(), .color = color };
		diff_write_text(stdout, d, &to);
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, PROG ": writing the report failed\n");
		return EXIT_INPUT;
	}
	return o->fail_on_broke && diff_any_broke(d) ? EXIT_FAIL_UNDER : EXIT_DONE;
}

/* Opens, reads and counts both sides, then writes the report. */
static int diff_run(struct cli_context *x, const struct config *c, struct expectations *ex,
                    const struct format_ops *forced, const struct diff_opts *o, char **inputs,
                    const char *spec)
{
	struct side sides[DIFF_SIDES] = {
		{ .path = inputs[0], .other = inputs[1], .name = "base", .spec = spec },
		{ .path = inputs[1], .other = inputs[0], .name = "cand", .spec = spec },
	};
	struct diff d;
	int rc = EXIT_DONE;
	for (int i = 0; i < DIFF_SIDES && rc == EXIT_DONE; i++)
		rc = side_open(&sides[i], x, c, ex, forced);
	diff_init(&d, rc == EXIT_DONE ? review_nrows(&sides[DIFF_BASE].rv) : 0);
	d.task_spec = spec;
	if (rc == EXIT_DONE && d.nrows == 0) {
		fprintf(stderr, PROG ": nothing to compare: the configuration has no scorer and no "
		        "per-run judge\n");
		rc = EXIT_USAGE;
	}
	if (rc == EXIT_DONE && rows_pick(&d, &sides[DIFF_BASE].rv, o) < 0)
		rc = EXIT_USAGE;
	if (rc == EXIT_DONE) {
		sides_step(sides);
		for (int i = 0; i < DIFF_SIDES; i++)
			count_side(&d, &sides[i], i);
		say_left_out(&d, spec);
		for (int i = 0; i < DIFF_SIDES && rc == EXIT_DONE; i++)
			if (d.in[i].records == d.in[i].unread) {
				if (d.in[i].records)
					fprintf(stderr, PROG ": %s: no run could be read (see tcreview formats "
					        "%s)\n", d.in[i].path, d.in[i].path);
				else
					fprintf(stderr, PROG ": %s: holds no run\n", d.in[i].path);
				rc = EXIT_INPUT;
			}
	}
	if (rc == EXIT_DONE) {
		diff_sort(&d);
		rc = diff_report(&d, o);
	}
	diff_free(&d);
	for (int i = 0; i < DIFF_SIDES; i++)
		side_close(&sides[i]);
	return rc;
}

static int diff_main(struct cli_context *x, int argc, char **argv)
{
	struct diff_opts o = { .ctx = x };
	int rc = diff_parse_args(argc, argv, &o);
	if (rc >= 0) {
		free(o.scorers);
		return rc;
	}
	setlocale(LC_CTYPE, "");
	struct config c;
	if (cli_load_config(x, &c, o.config, argv[optind]) < 0) {
		free(o.scorers);
		return EXIT_USAGE;
	}
	struct expectations *ex = NULL;
	const struct format_ops *forced = NULL;
	rc = cli_setup(x, PROG, &c, o.format, o.expect, &forced, &ex);
	const char *spec = cli_task_spec(o.task, &c);
	if (rc == EXIT_DONE && !spec) {
		fprintf(stderr, PROG ": no task key to pair the runs by: give --task PATH (such as "
		        "--task task_id) or write compare: {task: PATH} in the configuration\n");
		rc = EXIT_USAGE;
	}
	if (rc == EXIT_DONE)
		rc = diff_run(x, &c, ex, forced, &o, argv + optind, spec);
	expect_free(ex);
	config_free(&c);
	free(o.scorers);
	return rc;
}

int cli_diff(int argc, char **argv)
{
	struct cli_context x;
	cli_context_init(&x);
	int rc = diff_main(&x, argc, argv);
	cli_context_free(&x);
	return rc;
}
