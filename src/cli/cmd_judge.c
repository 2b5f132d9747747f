/* cmd_judge.c - `tcreview judge`: LLM judges over many runs, headless.
 *
 * Runs are read one after another; each needs the judges that have no
 * cached verdict (unless --refresh), and the client keeps up to
 * --concurrency requests in flight while further runs are read. Verdicts
 * go to stdout as JSONL lines like `score`'s and to the cache beside the
 * first input. */
#include <getopt.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "util/clock.h"
#include "runs/dataset.h"
#include "scorers/evaluate.h"
#include "runs/expect.h"
#include "runs/format.h"
#include "judge/judge.h"
#include "judge/cache.h"
#include "judge/client.h"
#include "util/jsonw.h"
#include "util/strbuf.h"

static void judge_usage(FILE *out)
{
	fprintf(out,
	"usage: tcreview judge [-c FILE] [--judge ID] [--concurrency N] [--limit N] [--refresh]\n"
	"                      [--expect FILE] [--format NAME] [--ca-file FILE] FILE...\n"
	"\n"
	"Asks the configured LLM judges about every run and writes one JSON line per\n"
	"run and judge, like `tcreview score`. Verdicts are cached in\n"
	"FIRST_INPUT.judgements.jsonl; --refresh asks again.\n"
	"\n"
	"  -c, --config FILE    the judges (judges: in the YAML)\n"
	"      --judge ID       only this judge (repeatable)\n"
	"      --concurrency N  requests in flight per provider (default 8)\n"
	"      --limit N        judge at most N runs\n"
	"      --refresh        ask again even when a cached verdict exists\n"
	"      --ca-file FILE   a private certificate authority\n"
	"      --batch-out FILE write the first request of every judgement in the OpenAI\n"
	"                       Batch API input format instead of sending it\n"
	"      --batch-in FILE  read a finished batch's output: its answers go to the cache\n"
	"                       (rubrics with a second step ask it live)\n"
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

struct judge_batch {
	struct pending *head, *tail;    /* in input order, written as they finish in order */
	size_t total, done, errors, cached;
	double started;
	bool tty;
	double last_progress;
	struct judge_cache *cache;
	struct judge_client *client;
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
	char err[256];
	if (b->cache && v.status != VERDICT_ERROR)
		judge_cache_put(b->cache, p->key, p->run, p->j, &v, err, sizeof err);
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

/* ---- the OpenAI Batch API files ------------------------------------------ */

static void batch_id(const char *key, size_t judge, char *out, size_t n)
{
	snprintf(out, n, "tcr-%s-%zu", key, judge);
}

/* One request line of the Batch API input: the same body as a live request. */
static int batch_write(FILE *f, const struct judge_conf *j, struct judge_job *job, const char *id,
                       char *err, size_t errlen)
{
	if (j->provider != PROVIDER_OPENAI && j->provider != PROVIDER_COMPAT) {
		snprintf(err, errlen, "%s: batch files are for OpenAI and OpenAI-compatible judges", j->id);
		return -1;
	}
	struct judge_prompt p;
	if (!judge_job_next_prompt(job, &p)) {
		snprintf(err, errlen, "%s: nothing to ask", j->id);
		return -1;
	}
	struct http_req req;
	if (provider_request(j, &p, &req, err, errlen) < 0)
		return -1;
	json_error_t jerr;
	json_t *body = json_loads(req.body, 0, &jerr);
	http_req_free(&req);
	if (!body) {
		snprintf(err, errlen, "%s: the request body is not JSON", j->id);
		return -1;
	}
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, "{\"custom_id\":");
	jsonw_string(&sb, id, strlen(id));
	strbuf_addstr(&sb, ",\"method\":\"POST\",\"url\":\"/v1/chat/completions\",\"body\":");
	jsonw_value(&sb, body);
	strbuf_addstr(&sb, "}\n");
	json_decref(body);
	fwrite(sb.buf, 1, sb.len, f);
	strbuf_release(&sb);
	return 0;
}

/* custom_id -> {status_code, body} of a finished batch's output file. */
static json_t *batch_read(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "%s: cannot read it", path);
		return NULL;
	}
	json_t *map = json_object();
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	ssize_t n;
	while ((n = getline(&line, &cap, f)) > 0) {
		lineno++;
		json_error_t jerr;
		json_t *v = json_loadb(line, (size_t)n, 0, &jerr);
		const char *id = json_string_value(json_object_get(v, "custom_id"));
		json_t *resp = json_object_get(v, "response");
		if (!v || !id) {
			if (line[strspn(line, " \t\r\n")])
				fprintf(stderr, "tcreview judge: %s:%zu: not a batch output line\n", path, lineno);
		} else if (resp) {
			json_object_set(map, id, resp);
		} else {
			json_t *e = json_object_get(v, "error");
			json_t *fake = json_pack("{s:i,s:O}", "status_code", 0, "error", e ? e : json_null());
			json_object_set_new(map, id, fake);
		}
		json_decref(v);
	}
	free(line);
	fclose(f);
	return map;
}

/* Feeds a batch answer into a job, as the client would a live one. */
static void batch_answer(const struct judge_conf *j, struct judge_job *job, json_t *resp)
{
	long status = (long)json_integer_value(json_object_get(resp, "status_code"));
	json_t *body = json_object_get(resp, "body");
	char *text = NULL, err[512] = "";
	struct judge_reply reply = { .http_status = status, .prompt_tokens = -1, .completion_tokens = -1 };
	if (!body) {
		json_t *e = json_object_get(resp, "error");
		const char *m = json_string_value(json_object_get(e, "message"));
		snprintf(err, sizeof err, "the batch has no answer: %s", m ? m : "request failed");
		reply.error = err;
	} else {
		char *raw = json_dumps(body, JSON_COMPACT);
		if (provider_reply(j, status, raw, strlen(raw), &text, &reply, err, sizeof err) < 0)
			reply.error = err;
		else
			reply.text = text;
		free(raw);
	}
	judge_job_take_reply(job, &reply);
	free(text);
}

int cli_judge(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "judge", required_argument, NULL, 'J' },
		{ "concurrency", required_argument, NULL, 'C' },
		{ "limit", required_argument, NULL, 'L' },
		{ "refresh", no_argument, NULL, 'R' },
		{ "expect", required_argument, NULL, 'E' },
		{ "format", required_argument, NULL, 'F' },
		{ "ca-file", required_argument, NULL, 'A' },
		{ "batch-out", required_argument, NULL, 'O' },
		{ "batch-in", required_argument, NULL, 'I' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *config = NULL, *expect = NULL, *format = NULL, *ca_file = NULL;
	const char *batch_out = NULL, *batch_in = NULL;
	const char *only[32];
	size_t nonly = 0;
	long concurrency = 8, limit = -1;
	bool refresh = false;
	int ch;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "c:h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'c': config = optarg; break;
		case 'J':
			if (nonly < 32)
				only[nonly++] = optarg;
			break;
		case 'C': concurrency = strtol(optarg, NULL, 10); break;
		case 'L': limit = strtol(optarg, NULL, 10); break;
		case 'R': refresh = true; break;
		case 'E': expect = optarg; break;
		case 'F': format = optarg; break;
		case 'A': ca_file = optarg; break;
		case 'O': batch_out = optarg; break;
		case 'I': batch_in = optarg; break;
		case 'h':
			judge_usage(stdout);
			return EXIT_DONE;
		default:
			judge_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (concurrency < 1 || concurrency > 256) {
		fprintf(stderr, "tcreview judge: --concurrency takes 1..256\n");
		return EXIT_USAGE;
	}
	if (optind >= argc) {
		fprintf(stderr, "tcreview judge: no input files\n");
		return EXIT_USAGE;
	}
	struct config c;
	if (cli_load_config(&c, config) < 0)
		return EXIT_USAGE;
	int rc = EXIT_DONE;
	struct expectations *ex = NULL;
	struct dataset ds = { 0 };
	struct judge_batch b = { 0 };
	FILE *bout = NULL;
	json_t *bin = NULL;
	size_t nbatch = 0;
	const struct judge_conf *use[64];
	size_t nuse = 0;
	for (size_t i = 0; i < c.njudges && nuse < 64; i++) {
		bool want = nonly == 0;
		for (size_t k = 0; k < nonly; k++)
			if (!strcmp(only[k], c.judges[i].id))
				want = true;
		if (want)
			use[nuse++] = &c.judges[i];
	}
	for (size_t k = 0; k < nonly; k++) {
		bool found = false;
		for (size_t i = 0; i < c.njudges; i++)
			found |= !strcmp(only[k], c.judges[i].id);
		if (!found) {
			fprintf(stderr, "tcreview judge: no judge '%s' in the configuration\n", only[k]);
			rc = EXIT_USAGE;
			goto out;
		}
	}
	if (nuse == 0) {
		fprintf(stderr, "tcreview judge: no judges configured (judges: in the YAML)\n");
		rc = EXIT_USAGE;
		goto out;
	}
	const struct format_ops *forced = NULL;
	rc = cli_setup("tcreview judge", &c, format, expect, &forced, &ex);
	if (rc != EXIT_DONE)
		goto out;
	char err[1024];
	if (dataset_open(&ds, argv + optind, (size_t)(argc - optind), err, sizeof err) < 0) {
		fprintf(stderr, "tcreview judge: %s\n", err);
		rc = EXIT_INPUT;
		goto out;
	}
	/* standard input has nowhere to keep a cache beside it */
	if (strcmp(argv[optind], "-") != 0) {
		char cache_path[4096];
		snprintf(cache_path, sizeof cache_path, "%s.judgements.jsonl", argv[optind]);
		b.cache = judge_cache_open(cache_path, err, sizeof err);
		if (!b.cache)
			fprintf(stderr, "tcreview judge: %s (verdicts will not be cached)\n", err);
	}
	struct judge_client_opts co = { .concurrency = (int)concurrency, .ca_file = ca_file };
	b.client = judge_client_new(&co, err, sizeof err);
	if (!b.client) {
		fprintf(stderr, "tcreview judge: %s\n", err);
		rc = EXIT_USAGE;
		goto out;
	}
	if (batch_out && batch_in) {
		fprintf(stderr, "tcreview judge: --batch-out and --batch-in are two steps; give one\n");
		rc = EXIT_USAGE;
		goto out;
	}
	if (batch_out && !(bout = fopen(batch_out, "w"))) {
		fprintf(stderr, "tcreview judge: %s: cannot write it\n", batch_out);
		rc = EXIT_INPUT;
		goto out;
	}
	if (batch_in && !(bin = batch_read(batch_in, err, sizeof err))) {
		fprintf(stderr, "tcreview judge: %s\n", err);
		rc = EXIT_INPUT;
		goto out;
	}
	b.tty = isatty(2);
	b.started = (now_ms() / 1e3);
	dataset_index_all(&ds);
	size_t nruns = limit >= 0 && (size_t)limit < ds.nrecs ? (size_t)limit : ds.nrecs;
	b.total = nruns * nuse;
	for (size_t i = 0; i < nruns; i++) {
		struct run *r = dataset_load_run(&ds, &ds.recs[i], forced, c.run_id_path, err, sizeof err);
		if (!r) {
			fprintf(stderr, "tcreview judge: %s\n", err);
			/* in order: what came before it is written first */
			while (b.head)
				pump(&b, 50);
			char src[512];
			record_source(&ds, &ds.recs[i], src, sizeof src);
			for (size_t k = 0; k < nuse; k++)
				write_unreadable(src, use[k], err);
			b.done += nuse;
			b.errors += nuse;
			continue;
		}
		json_t *expected = NULL;
		char why[256];
		if (ex && !r->load_error)
			expected = expect_lookup(ex, r->record, why, sizeof why);
		for (size_t k = 0; k < nuse; k++) {
			struct pending *p = calloc(1, sizeof(*p));
			p->run = r;
			p->j = use[k];
			p->job = judge_job_new(use[k], r, expected);
			judge_cache_key(r, use[k], p->key);
			if (b.tail)
				b.tail->next = p;
			else
				b.head = p;
			b.tail = p;
			const struct verdict *hit = (!refresh && b.cache) ? judge_cache_get(b.cache, p->key) : NULL;
			if (hit) {
				judge_job_set_verdict(p->job, hit);
				p->done = true;
				b.done++;
				b.cached++;
			} else if (judge_job_done(p->job)) {
				p->done = true;            /* skipped: nothing to ask */
				b.done++;
			} else if (bout) {
				char id[64];
				batch_id(p->key, (size_t)(use[k] - c.judges), id, sizeof id);
				if (batch_write(bout, use[k], p->job, id, err, sizeof err) < 0) {
					judge_job_fail(p->job, err);
					b.errors++;
				} else {
					nbatch++;
					p->batched = true;
				}
				p->done = true;
				b.done++;
			} else if (bin) {
				char id[64];
				batch_id(p->key, (size_t)(use[k] - c.judges), id, sizeof id);
				json_t *resp = json_object_get(bin, id);
				if (!resp)
					judge_job_fail(p->job, "no answer for it in the batch output");
				else
					batch_answer(use[k], p->job, resp);
				if (judge_job_done(p->job)) {
					on_done(&b, p->job, (uint64_t)(uintptr_t)p);
				} else {
					/* a second step (a reason) is asked live */
					judge_client_submit(b.client, use[k], p->job, (uint64_t)(uintptr_t)p, on_done, &b);
				}
			} else {
				judge_client_submit(b.client, use[k], p->job, (uint64_t)(uintptr_t)p, on_done, &b);
			}
		}
		flush_done(&b);
		/* Read ahead only as far as the client can use. */
		while (judge_client_pending(b.client) > (size_t)concurrency * 4)
			pump(&b, 50);
	}
	while (judge_client_pending(b.client) > 0 || b.head)
		pump(&b, 50);
	progress(&b, true);
	if (bout)
		fprintf(stderr, "tcreview judge: wrote %zu request%s to %s; submit it to the Batch API, "
		        "then read its output with --batch-in\n", nbatch, nbatch == 1 ? "" : "s", batch_out);
	if (b.errors)
		rc = EXIT_DONE;
out:
	if (bout)
		fclose(bout);
	json_decref(bin);
	judge_client_free(b.client);
	judge_cache_close(b.cache);
	dataset_close(&ds);
	expect_free(ex);
	config_free(&c);
	return rc;
}
