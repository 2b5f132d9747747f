/* cmd_judge.c - `tcreview judge`: LLM judges over many runs, headless.
 *
 * Runs are read one after another; each needs the judges that have no
 * cached verdict (unless --refresh), and the client keeps up to
 * --concurrency requests in flight while further runs are read. Verdicts
 * go to stdout as JSONL lines like `score`'s and to the cache beside the
 * first input. A judge with examples is shown labelled runs from the
 * annotations (only read here), chosen by the judge layer for each run.
 * --batch-out and --batch-in use the Batch API's files through
 * judge/batch.h: this file only decides when, and says what it did. */
#include <getopt.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/judge_pairs.h"
#include "util/clock.h"
#include "runs/dataset.h"
#include "scorers/evaluate.h"
#include "runs/expect.h"
#include "runs/format.h"
#include "judge/batch.h"
#include "judge/judge.h"
#include "judge/client.h"
#include "judge/runner.h"
#include "review/fewshot.h"
#include "review/session.h"
#include "util/jsonw.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/error.h"

static void judge_usage(FILE *out)
{
	fprintf(out,
	"usage: tcreview judge [-c FILE] [-a FILE]... [--judge ID] [--concurrency N] [--limit N]\n"
	"                      [--refresh] [--expect FILE] [--format NAME] [--ca-file FILE]\n"
	"                      [--allow-path PATH]... [--allow-host HOST]... [--allow-key-env NAME]...\n"
	"                      FILE...\n"
	"       tcreview judge --pairs [-c FILE] [-a FILE]... [--judge ID] [--task PATH]\n"
	"                      [--compare] FILE...\n"
	"\n"
	"Asks the configured LLM judges about every run and writes one JSON line per\n"
	"run and judge, like `tcreview score`. Verdicts are cached in\n"
	"FIRST_INPUT.judgements.jsonl; --refresh asks again.\n"
	"\n"
	"  -c, --config FILE    the judges (judges: in the YAML)\n"
	"      --allow-path PATH\n"
	"                       let the configuration name files in PATH (a file or a\n"
	"                       folder) outside its own folder (repeatable)\n"
	"  -a, --annotations FILE\n"
	"                       labels the examples of judges with examples: come from\n"
	"                       (repeatable; default FIRST_INPUT.annotations.jsonl when it\n"
	"                       exists; only read)\n"
	"      --judge ID       only this judge (repeatable)\n"
	"      --concurrency N  requests in flight per provider (default 8)\n"
	"      --limit N        judge at most N runs\n"
	"      --refresh        ask again even when a cached verdict exists\n"
	"      --ca-file FILE   a private certificate authority\n"
	"      --batch-out FILE write the first request of every judgement in the OpenAI\n"
	"                       Batch API input format instead of sending it\n"
	"      --batch-in FILE  read a finished batch's output: its answers go to the cache\n"
	"                       (rubrics with a second step ask it live)\n"
	"      --pairs          the pairwise judges (rubric: pairwise) on pairs of runs:\n"
	"                       every standing preference (-a) whose two runs are inputs\n"
	"      --compare        with --pairs: the two inputs are BASE and CAND, and each\n"
	"                       task's trials are paired too, in input order\n"
	"      --task PATH      the task key trials are paired by (default: compare:\n"
	"                       {task:} in the YAML)\n"
	CLI_TRUST_USAGE
	"\n"
	"Progress goes to stderr: a bar on a terminal, plain lines otherwise.\n");
}

struct pending {
	struct run *run;
	struct judge_job *job;
	const struct judge_conf *j;
	char key[17];
	bool done;
	bool batched;               /* written to --batch-out: no verdict yet */
	struct pending *next;
};

/* What the command line asked for. */
struct judge_flags {
	struct cli_context *ctx;        /* the command's choices */
	const char *config, *expect, *format, *ca_file;
	const char *batch_out, *batch_in;
	const char *only[32];
	size_t nonly;
	const char *annot[16];
	size_t nannot;
	long concurrency, limit;
	bool refresh;
	bool pairs, compare;            /* --pairs, --compare */
	const char *task;               /* --task */
};

struct judge_batch {
	struct pending *head, *tail;    /* in input order, written as they finish in order */
	size_t total, done, errors, cached;
	double started;
	bool tty;
	double last_progress;
	struct judge_runner *runner;
	struct judge_client *client;    /* the runner's */
	const struct config *cfg;
	const struct judge_conf *use[64];   /* the judges asked, in configuration order */
	size_t nuse;
	long concurrency;
	FILE *bout;                     /* --batch-out */
	struct batch_output *bin;       /* --batch-in: its answers */
	size_t nbatch;
};

static void write_line(const struct run *r, const struct judge_conf *j, const struct verdict *v)
{
	struct strbuf sb = STRBUF_INIT;
	bool ok = v->status == VERDICT_OK;
	strbuf_addstr(&sb, "{\"run\":");
	jsonw_string(&sb, r->id, strlen(r->id));
	strbuf_addstr(&sb, ",\"source\":");
	jsonw_string(&sb, r->source, strlen(r->source));
	strbuf_addstr(&sb, ",\"judge\":");
	jsonw_string(&sb, j->id, strlen(j->id));
	strbuf_addstr(&sb, ",\"type\":");
	jsonw_string(&sb, j->rubric->name, strlen(j->rubric->name));
	strbuf_addstr(&sb, ",\"status\":");
	const char *st = verdict_status_name(v->status);
	jsonw_string(&sb, st, strlen(st));
	strbuf_addstr(&sb, ",\"score\":");
	if (ok)
		jsonw_number(&sb, v->score);
	else
		strbuf_addstr(&sb, "null");
	strbuf_addf(&sb, ",\"passed\":%s,\"details\":", ok ? (v->passed ? "true" : "false") : "null");
	jsonw_value(&sb, v->details);
	strbuf_addstr(&sb, ",\"error\":");
	if (v->status != VERDICT_OK && v->message)
		jsonw_string(&sb, v->message, strlen(v->message));
	else
		strbuf_addstr(&sb, "null");
	strbuf_addstr(&sb, "}\n");
	fwrite(sb.buf, 1, sb.len, stdout);
	strbuf_release(&sb);
}

/* A record that does not parse still gets its lines, as in `score`. */
static void write_unreadable(const char *source, const struct judge_conf *j, const char *why)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, "{\"run\":");
	jsonw_string(&sb, source, strlen(source));
	strbuf_addstr(&sb, ",\"source\":");
	jsonw_string(&sb, source, strlen(source));
	strbuf_addstr(&sb, ",\"judge\":");
	jsonw_string(&sb, j->id, strlen(j->id));
	strbuf_addstr(&sb, ",\"type\":");
	jsonw_string(&sb, j->rubric->name, strlen(j->rubric->name));
	strbuf_addstr(&sb, ",\"status\":\"error\",\"score\":null,\"passed\":null,\"details\":null,\"error\":");
	jsonw_string(&sb, why, strlen(why));
	strbuf_addstr(&sb, "}\n");
	fwrite(sb.buf, 1, sb.len, stdout);
	strbuf_release(&sb);
}

static void progress(struct judge_batch *b, bool force)
{
	double t = (now_ms() / 1e3);
	if (!force && t - b->last_progress < (b->tty ? 0.1 : 5.0))
		return;
	b->last_progress = t;
	struct judge_stats st = { 0 };
	if (b->client)
		judge_client_stats(b->client, &st);
	double el = t - b->started;
	double rate = el > 0 ? (double)b->done / el : 0;
	double eta = rate > 0 ? (double)(b->total - b->done) / rate : 0;
	if (b->tty) {
		int width = 30, fill = b->total ? (int)((double)b->done * width / (double)b->total) : 0;
		char bar[64];
		for (int i = 0; i < width; i++)
			bar[i] = i < fill ? '#' : '.';
		bar[width] = '\0';
		fprintf(stderr, "\r[%s] %zu/%zu  %.1f/s  ETA %.0fs  errors %zu  tokens %ld   ", bar, b->done,
		        b->total, rate, eta, b->errors, st.prompt_tokens + st.completion_tokens);
		if (force)
			fputc('\n', stderr);
	} else {
		fprintf(stderr, "judge: %zu/%zu done, %.1f/s, ETA %.0fs, %zu errors, %zu cached, %ld tokens\n",
		        b->done, b->total, rate, eta, b->errors, b->cached,
		        st.prompt_tokens + st.completion_tokens);
	}
}

/* Verdicts are written in input order, each once its run's judges are all in. */
static void flush_done(struct judge_batch *b)
{
	while (b->head && b->head->done) {
		struct pending *p = b->head;
		if (!p->batched) {
			struct verdict v;
			judge_job_verdict(p->job, &v);
			write_line(p->run, p->j, &v);
			verdict_clear(&v);
		}
		b->head = p->next;
		if (!b->head)
			b->tail = NULL;
		bool last_of_run = !b->head || b->head->run != p->run;
		judge_job_free(p->job);
		if (last_of_run)
			run_free(p->run);
		free(p);
	}
	fflush(stdout);
}

/* The runner has put the verdict in the cache already. */
static void on_done(void *ctx, struct judge_job *job, uint64_t tag)
{
	struct judge_batch *b = ctx;
	struct pending *p = (struct pending *)(uintptr_t)tag;
	(void)job;
	p->done = true;
	b->done++;
	struct verdict v;
	judge_job_verdict(p->job, &v);
	if (v.status == VERDICT_ERROR)
		b->errors++;
	verdict_clear(&v);
}

static void pump(struct judge_batch *b, int wait_ms)
{
	struct pollfd fds[256];
	int timeout = wait_ms;
	int n = judge_client_pollfds(b->client, fds, 256, &timeout);
	if (timeout < 0 || timeout > wait_ms)
		timeout = wait_ms;
	poll(fds, (nfds_t)n, timeout);
	judge_client_run(b->client);
	flush_done(b);
	progress(b, false);
}

/* A line of --batch-in's file that is not a batch output line: said,
 * then skipped. */
static void bad_batch_line(void *ctx, const char *path, size_t line)
{
	(void)ctx;
	fprintf(stderr, "tcreview judge: %s:%zu: not a batch output line\n", path, line);
}

/* ---- one run and judge ----------------------------------------------------- */

static struct pending *pending_add(struct judge_batch *b, struct run *r, const struct judge_conf *j)
{
	struct pending *p = xcalloc(1, sizeof(*p));
	p->run = r;
	p->j = j;
	if (b->tail)
		b->tail->next = p;
	else
		b->head = p;
	b->tail = p;
	return p;
}

static void batch_id_of(const struct judge_batch *b, const struct pending *p, char *out, size_t n)
{
	batch_custom_id(p->key, (size_t)(p->j - b->cfg->judges), out, n);
}

/* --batch-out: the first request goes to the file instead of the provider. */
static void judge_to_batch_file(struct judge_batch *b, struct pending *p)
{
	struct error err = {0};
	char id[64];
	batch_id_of(b, p, id, sizeof id);
	if (batch_request_write(b->bout, p->j, p->job, id, &err) < 0) {
		judge_job_fail(p->job, err.msg);
		b->errors++;
	} else {
		b->nbatch++;
		p->batched = true;
	}
	p->done = true;
	b->done++;
}

/* --batch-in: the answer comes from the file; a second step (a reason) is
 * asked live. */
static void judge_from_batch_file(struct judge_batch *b, struct pending *p)
{
	char id[64];
	batch_id_of(b, p, id, sizeof id);
	batch_output_feed(b->bin, id, p->j, p->job);
	if (judge_job_done(p->job)) {
		judge_runner_keep(b->runner, p->j, p->run, p->key, p->job);
		on_done(b, p->job, (uint64_t)(uintptr_t)p);
	} else {
		judge_runner_submit(b->runner, p->j, p->run, p->job, p->key, (uint64_t)(uintptr_t)p,
		                    on_done, b);
	}
}

static void judge_one(struct judge_batch *b, struct run *r, const struct judge_conf *j)
{
	struct pending *p = pending_add(b, r, j);
	enum judge_start how = judge_runner_prepare(b->runner, j, r, &p->job, p->key);
	if (how == JUDGE_CACHED || how == JUDGE_SKIPPED) {
		p->done = true;
		b->done++;
		if (how == JUDGE_CACHED)
			b->cached++;
	} else if (b->bout) {
		judge_to_batch_file(b, p);
	} else if (b->bin) {
		judge_from_batch_file(b, p);
	} else {
		judge_runner_submit(b->runner, j, r, p->job, p->key, (uint64_t)(uintptr_t)p, on_done, b);
	}
}

/* A record that does not parse: its lines, in order after what came before. */
static void judge_unreadable(struct judge_batch *b, struct dataset *ds, size_t i, const char *err)
{
	fprintf(stderr, "tcreview judge: %s\n", err);
	while (b->head)
		pump(b, 50);
	char src[512];
	record_source(ds, &ds->recs[i], src, sizeof src);
	for (size_t k = 0; k < b->nuse; k++)
		write_unreadable(src, b->use[k], err);
	b->done += b->nuse;
	b->errors += b->nuse;
}

static void judge_runs(struct judge_batch *b, struct dataset *ds, const struct format_ops *forced,
                       long limit)
{
	b->tty = isatty(2);
	b->started = (now_ms() / 1e3);
	dataset_index_all(ds);
	size_t nruns = limit >= 0 && (size_t)limit < ds->nrecs ? (size_t)limit : ds->nrecs;
	b->total = nruns * b->nuse;
	struct error err = {0};
	for (size_t i = 0; i < nruns; i++) {
		struct run *r = dataset_load_run(ds, &ds->recs[i], forced, b->cfg->run_id_path, &err);
		if (!r) {
			judge_unreadable(b, ds, i, err.msg);
			continue;
		}
		for (size_t k = 0; k < b->nuse; k++)
			judge_one(b, r, b->use[k]);
		flush_done(b);
		/* Read ahead only as far as the client can use. */
		while (judge_client_pending(b->client) > (size_t)b->concurrency * 4)
			pump(b, 50);
	}
	while (judge_client_pending(b->client) > 0 || b->head)
		pump(b, 50);
	progress(b, true);
}

/* ---- the command -------------------------------------------------------------- */

/* EXIT_DONE to go on; otherwise what to exit with (-h is EXIT_DONE too,
 * with *stop set). */
static int parse_flags(struct cli_context *x, int argc, char **argv, struct judge_flags *f,
                       bool *stop)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "allow-path", required_argument, NULL, CLI_OPT_ALLOW_PATH },
		{ "annotations", required_argument, NULL, 'a' },
		{ "judge", required_argument, NULL, 'J' },
		{ "concurrency", required_argument, NULL, 'C' },
		{ "limit", required_argument, NULL, 'L' },
		{ "refresh", no_argument, NULL, 'R' },
		{ "expect", required_argument, NULL, 'E' },
		{ "format", required_argument, NULL, 'F' },
		{ "ca-file", required_argument, NULL, 'A' },
		{ "batch-out", required_argument, NULL, 'O' },
		{ "batch-in", required_argument, NULL, 'I' },
		{ "pairs", no_argument, NULL, 'P' },
		{ "compare", no_argument, NULL, 'M' },
		{ "task", required_argument, NULL, 'T' },
		CLI_TRUST_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	memset(f, 0, sizeof *f);
	f->ctx = x;
	f->concurrency = 8;
	f->limit = -1;
	*stop = false;
	int ch;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "c:a:h", longopts, NULL)) != -1) {
		if (cli_trust_option(x, ch, optarg))
			continue;
		switch (ch) {
		case 'c': f->config = optarg; break;
		case CLI_OPT_ALLOW_PATH:
			if (cli_allow_path(x, "tcreview judge", optarg) < 0)
				return EXIT_USAGE;
			break;
		case 'a':
			if (f->nannot == sizeof f->annot / sizeof *f->annot) {
				fprintf(stderr, "tcreview judge: at most %zu -a files\n", f->nannot);
				return EXIT_USAGE;
			}
			f->annot[f->nannot++] = optarg;
			break;
		case 'J':
			if (f->nonly < 32)
				f->only[f->nonly++] = optarg;
			break;
		case 'C': f->concurrency = strtol(optarg, NULL, 10); break;
		case 'L': f->limit = strtol(optarg, NULL, 10); break;
		case 'R': f->refresh = true; break;
		case 'E': f->expect = optarg; break;
		case 'F': f->format = optarg; break;
		case 'A': f->ca_file = optarg; break;
		case 'O': f->batch_out = optarg; break;
		case 'I': f->batch_in = optarg; break;
		case 'P': f->pairs = true; break;
		case 'M': f->compare = true; break;
		case 'T':
			if (!cli_task_option_ok("tcreview judge", optarg))
				return EXIT_USAGE;
			f->task = optarg;
			break;
		case 'h':
			judge_usage(stdout);
			*stop = true;
			return EXIT_DONE;
		default:
			judge_usage(stderr);
			return EXIT_USAGE;
		}
	}
	return EXIT_DONE;
}

static int check_flags(const struct judge_flags *f, int argc)
{
	if (f->concurrency < 1 || f->concurrency > 256) {
		fprintf(stderr, "tcreview judge: --concurrency takes 1..256\n");
		return EXIT_USAGE;
	}
	if (optind >= argc) {
		fprintf(stderr, "tcreview judge: no input files\n");
		return EXIT_USAGE;
	}
	if (!f->pairs && (f->compare || f->task)) {
		fprintf(stderr, "tcreview judge: --compare and --task go with --pairs\n");
		return EXIT_USAGE;
	}
	if (f->pairs && (f->batch_in || f->batch_out || f->limit >= 0)) {
		fprintf(stderr, "tcreview judge: --pairs asks live: no --batch-out, --batch-in "
		        "or --limit\n");
		return EXIT_USAGE;
	}
	return EXIT_DONE;
}

/* The judges --judge names (all without it), in configuration order. */
static int pick_judges(const struct config *c, const struct judge_flags *f, struct judge_batch *b)
{
	for (size_t i = 0; i < c->njudges && b->nuse < 64; i++) {
		bool want = f->nonly == 0;
		for (size_t k = 0; k < f->nonly; k++)
			if (!strcmp(f->only[k], c->judges[i].id))
				want = true;
		if (want)
			b->use[b->nuse++] = &c->judges[i];
	}
	for (size_t k = 0; k < f->nonly; k++) {
		bool found = false;
		for (size_t i = 0; i < c->njudges; i++)
			found |= !strcmp(f->only[k], c->judges[i].id);
		bool pairwise = false;
		for (size_t i = 0; i < c->npair_judges; i++)
			pairwise |= !strcmp(f->only[k], c->pair_judges[i].id);
		if (!found) {
			fprintf(stderr, "tcreview judge: %s '%s'%s\n", pairwise ? "a pairwise judge compares "
			        "two runs:" : "no judge", f->only[k], pairwise ? " is asked by --pairs"
			        : " in the configuration");
			return EXIT_USAGE;
		}
	}
	if (b->nuse == 0) {
		fprintf(stderr, "tcreview judge: no judges configured (judges: in the YAML)%s\n",
		        c->npair_judges ? "; the pairwise ones judge pairs: --pairs" : "");
		return EXIT_USAGE;
	}
	return EXIT_DONE;
}

/* ---- the examples of judges with examples: ------------------------------------ */

/* What the examples are chosen from: the annotations (read, never
 * written) and the labelled runs of the inputs. */
struct judge_shots {
	struct annot_store *store;
	struct fewshot fs;
	bool on;
};

static bool uses_examples(const struct judge_batch *b)
{
	for (size_t i = 0; i < b->nuse; i++)
		if (b->use[i]->examples.k > 0)
			return true;
	return false;
}

/* The -a files, or FIRST_INPUT.annotations.jsonl when it is there. Each
 * must exist: reading labels never creates a file. */
static int shots_store(struct judge_shots *sh, const struct judge_flags *f, const char *first)
{
	const char *paths[16];
	size_t n = 0;
	char *dflt = NULL;
	struct stat st;
	for (size_t i = 0; i < f->nannot; i++) {
		if (stat(f->annot[i], &st) < 0) {
			fprintf(stderr, "tcreview judge: %s: no such annotations file\n", f->annot[i]);
			return EXIT_INPUT;
		}
		paths[n++] = f->annot[i];
	}
	if (n == 0 && first && strcmp(first, "-") != 0) {
		/* Where the screen keeps the labels of this input. */
		dflt = review_annot_default(first);
		if (stat(dflt, &st) == 0)
			paths[n++] = dflt;
	}
	struct error err = {0};
	if (n && !(sh->store = annot_open_readonly(paths, n, &err))) {
		fprintf(stderr, "tcreview judge: %s\n", err.msg);
		free(dflt);
		return EXIT_INPUT;
	}
	free(dflt);
	return EXIT_DONE;
}

/* Says of each judge with examples how many labelled runs it may be
 * shown, and when none, that it is asked without examples. */
static void shots_note(const struct judge_batch *b, const struct judge_shots *sh)
{
	for (size_t i = 0; i < b->nuse; i++) {
		const struct judge_conf *j = b->use[i];
		const struct judge_example *list;
		if (j->examples.k <= 0)
			continue;
		size_t n = fewshot_candidates((void *)&sh->fs, j->id, &list);
		if (n == 0)
			fprintf(stderr, "tcreview judge: %s: no labelled run to show as an example%s; "
			        "asked without examples\n", j->id,
			        sh->store ? "" : " (no annotations file)");
		else
			fprintf(stderr, "tcreview judge: %s: %zu labelled run%s to choose %d example%s "
			        "from (split %s)\n", j->id, n, n == 1 ? "" : "s", j->examples.k,
			        j->examples.k == 1 ? "" : "s", j->examples.split);
	}
	if (sh->fs.stale)
		fprintf(stderr, "tcreview judge: %zu stale label%s left out of the examples (the run "
		        "changed since)\n", sh->fs.stale, sh->fs.stale == 1 ? "" : "s");
}

static int shots_open(struct judge_shots *sh, const struct judge_batch *b,
                      const struct judge_flags *f, struct dataset *ds,
                      const struct format_ops *forced, const char *first)
{
	memset(sh, 0, sizeof *sh);
	if (!uses_examples(b))
		return EXIT_DONE;
	int rc = shots_store(sh, f, first);
	if (rc != EXIT_DONE)
		return rc;
	sh->on = true;
	fewshot_init(&sh->fs, b->cfg, sh->store);
	size_t unreadable;
	fewshot_offer_dataset(&sh->fs, ds, forced, b->cfg->run_id_path, &unreadable);
	shots_note(b, sh);
	return EXIT_DONE;
}

static void shots_close(struct judge_shots *sh)
{
	if (sh->on)
		fewshot_free(&sh->fs);
	if (sh->store)
		annot_close(sh->store);
}

static int open_runner(struct judge_batch *b, const struct judge_flags *f, const char *first,
                       const struct expectations *ex, struct judge_shots *sh)
{
	struct judge_runner_opts ro = {
		.concurrency = (int)f->concurrency, .ca_file = f->ca_file, .refresh = f->refresh,
		.first_input = first, .expect = ex,
		.examples = sh->on ? fewshot_candidates : NULL, .examples_ctx = &sh->fs,
	};
	struct error err = {0};
	b->runner = judge_runner_new(&ro, &err);
	if (!b->runner) {
		fprintf(stderr, "tcreview judge: %s\n", err.msg);
		return EXIT_USAGE;
	}
	if (judge_runner_cache_error(b->runner))
		fprintf(stderr, "tcreview judge: %s (verdicts will not be cached)\n",
		        judge_runner_cache_error(b->runner));
	b->client = judge_runner_client(b->runner);
	b->concurrency = f->concurrency;
	return EXIT_DONE;
}

static int open_batch_files(struct judge_batch *b, const struct judge_flags *f)
{
	if (f->batch_out && f->batch_in) {
		fprintf(stderr, "tcreview judge: --batch-out and --batch-in are two steps; give one\n");
		return EXIT_USAGE;
	}
	if (f->batch_out && !(b->bout = fopen(f->batch_out, "w"))) {
		fprintf(stderr, "tcreview judge: %s: cannot write it\n", f->batch_out);
		return EXIT_INPUT;
	}
	struct error err = {0};
	if (f->batch_in &&
	    !(b->bin = batch_output_read(f->batch_in, bad_batch_line, NULL, &err))) {
		fprintf(stderr, "tcreview judge: %s\n", err.msg);
		return EXIT_INPUT;
	}
	return EXIT_DONE;
}

/* Opens what judging needs (the dataset, the runner, batch files) and judges. */
static int judge_inputs(struct judge_batch *b, const struct judge_flags *f, char **files,
                        size_t nfiles, const struct format_ops *forced, const struct expectations *ex)
{
	struct dataset ds = { 0 };
	struct error err = {0};
	if (cli_dataset_open(f->ctx, &ds, files, nfiles, &err) < 0) {
		fprintf(stderr, "tcreview judge: %s\n", err.msg);
		return EXIT_INPUT;
	}
	ds.forced = forced;
	struct judge_shots sh;
	int rc = shots_open(&sh, b, f, &ds, forced, files[0]);
	if (rc == EXIT_DONE)
		rc = open_runner(b, f, files[0], ex, &sh);
	if (rc == EXIT_DONE)
		rc = open_batch_files(b, f);
	if (rc == EXIT_DONE) {
		judge_runs(b, &ds, forced, f->limit);
		if (b->bout)
			fprintf(stderr, "tcreview judge: wrote %zu request%s to %s; submit it to the Batch "
			        "API, then read its output with --batch-in\n", b->nbatch,
			        b->nbatch == 1 ? "" : "s", f->batch_out);
	}
	if (b->bout)
		fclose(b->bout);
	batch_output_free(b->bin);
	judge_runner_free(b->runner);
	shots_close(&sh);
	dataset_close(&ds);
	return rc;
}

static int judge_main(struct cli_context *x, int argc, char **argv)
{
	struct judge_flags f;
	bool stop;
	int rc = parse_flags(x, argc, argv, &f, &stop);
	if (rc != EXIT_DONE || stop)
		return rc;
	if ((rc = check_flags(&f, argc)) != EXIT_DONE)
		return rc;
	struct config c;
	if (cli_load_config(x, &c, f.config, optind < argc ? argv[optind] : NULL) < 0)
		return EXIT_USAGE;
	struct expectations *ex = NULL;
	struct judge_batch b = { .cfg = &c };
	const struct format_ops *forced = NULL;
	rc = f.pairs ? EXIT_DONE : pick_judges(&c, &f, &b);
	if (rc == EXIT_DONE)
		rc = cli_setup(x, "tcreview judge", &c, f.format, f.expect, &forced, &ex);
	if (rc == EXIT_DONE && f.pairs) {
		const struct judge_pairs_opts po = {
			.ctx = x, .cfg = &c, .only = f.only, .nonly = f.nonly, .annot = f.annot,
			.nannot = f.nannot, .task = f.task, .compare = f.compare, .refresh = f.refresh,
			.concurrency = f.concurrency, .ca_file = f.ca_file, .forced = forced,
		};
		rc = judge_pairs_run(&po, argv + optind, (size_t)(argc - optind));
	} else if (rc == EXIT_DONE) {
		rc = judge_inputs(&b, &f, argv + optind, (size_t)(argc - optind), forced, ex);
	}
	expect_free(ex);
	config_free(&c);
	return rc;
}

int cli_judge(int argc, char **argv)
{
	struct cli_context x;
	cli_context_init(&x);
	int rc = judge_main(&x, argc, argv);
	cli_context_free(&x);
	return rc;
}
