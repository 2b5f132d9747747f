/* score_stream.c - `tcreview score`'s loop: every record loaded and
 * scored on the machine's cores, reported in input order.
 *
 * The calling thread finds the records (dataset_next, a newline scan) and
 * hands them out in batches of about BATCH_BYTES; a worker parses, loads
 * and scores a batch and, when the report renders rows on its own
 * (jsonl), writes its lines into the batch too. The calling thread takes
 * the batches back in input order and writes them out, so stdout and
 * stderr get the bytes a loop over the records writes, in its order.
 *
 * Few batches are in flight at a time (INFLIGHT_BYTES, or one batch of any
 * size): memory stays bounded by the largest record, and the pages the
 * dataset drops behind its cursor are seldom still being read. */
#include "cli/score_stream.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runs/run.h"
#include "util/textvis.h"
#include "util/xalloc.h"
#include "util/error.h"

#define BATCH_BYTES (128u << 10)
#define BATCH_RECS 256
#define INFLIGHT_BYTES (768u << 10)
#define WORKERS_MAX SCORE_WORKERS_MAX

/* What stats need of a verdict, kept once the verdict is written. */
struct tally {
	enum verdict_status status;
	double score;
	bool passed;
};

/* One record's results inside its batch. */
struct rec_out {
	struct run *run;        /* kept for report_ops.row when the report does not render */
	char *src;              /* the source, for a record that did not parse (owned) */
	char *task;             /* its task with a task key, NULL without one (owned) */
	size_t err_end;         /* end of its text in the batch's err */
	size_t out_end;         /* ... and in its out */
	bool read;              /* it parsed and loaded without a load error */
};

enum batch_state {
	BATCH_FREE,
	BATCH_QUEUED,           /* filled, waiting for a worker */
	BATCH_WORKING,
	BATCH_DONE,             /* scored, waiting to be written */
};

struct batch {
	enum batch_state state;
	struct record_ref recs[BATCH_RECS];
	size_t n;
	uint64_t bytes;
	struct rec_out res[BATCH_RECS];
	struct tally *tallies;          /* n * nscorers */
	struct verdict *verdicts;       /* n * nscorers, cleared once written */
	struct strbuf err, out;
};

struct pool {
	struct dataset *ds;
	const struct config *c;
	const struct evaluator *ev;
	const struct format_ops *forced;
	const struct report_ops *rep;
	void *rep_state;
	struct score_stats *stats;
	struct score_reading *reading;
	const char *task_spec;          /* the task key, with reading->trials; else NULL */
	size_t nscorers;
	size_t batch_recs;              /* records per batch: BATCH_RECS, or 1 (per_run_process) */

	struct batch *ring;
	size_t nring;
	size_t head;                    /* oldest batch not yet written */
	size_t next_work;               /* oldest batch no worker has taken */
	size_t tail;                    /* next batch to fill */
	uint64_t inflight;              /* bytes of the batches queued or being scored */
	bool closing;
	pthread_mutex_t lock;
	pthread_cond_t work_ready;               /* a batch was queued, or closing */
	pthread_cond_t batch_done;
};

unsigned score_workers(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n <= 1)
		return 0;
	return n > WORKERS_MAX ? WORKERS_MAX : (unsigned)n;
}

/* ---- one record --------------------------------------------------------- */

static void err_line(struct strbuf *sb, const char *prefix, const char *text)
{
	/* Messages quote the record; its escape codes must not reach the
	 * terminal. */
	strbuf_addstr(sb, prefix);
	textvis_append(sb, text, strlen(text), 0);
	strbuf_addch(sb, '\n');
}

static void score_record(struct pool *p, struct batch *b, size_t k)
{
	const struct record_ref *rec = &b->recs[k];
	struct rec_out *ro = &b->res[k];
	struct verdict *verdicts = &b->verdicts[k * p->nscorers];
	struct error err = {0};
	struct run *r = dataset_load_run(p->ds, rec, p->forced, p->c->run_id_path, &err);
	ro->run = NULL;
	ro->src = NULL;
	ro->task = NULL;
	ro->read = r && !r->load_error;
	if (!r) {
		char src[512];
		record_source(p->ds, rec, src, sizeof src);
		ro->src = xstrdup(src);
		err_line(&b->err, "tcreview: ", err.msg);
		evaluator_fail_all(p->ev, err.msg, verdicts);
	} else {
		if (r->load_error) {
			strbuf_addf(&b->err, "tcreview: %s: ", r->source);
			err_line(&b->err, "", r->load_error);
		}
		xalloc_input(r->source, 0, "scoring the run");
		evaluator_run(p->ev, r, verdicts);
		/* The task is read here, while the run lives, and counted by the
		 * writer, in input order (the counts are not shared by workers). */
		if (p->task_spec) {
			const char *task = run_spec_text(r, p->task_spec);
			ro->task = task ? xstrdup(task) : NULL;
		}
	}
	for (size_t i = 0; i < p->nscorers; i++) {
		const struct verdict *v = &verdicts[i];
		b->tallies[k * p->nscorers + i] = (struct tally){ v->status, v->score, v->passed };
	}
	if (p->rep->render) {
		/* The rows of the run are rendered while all its verdicts live,
		 * so what they share (tool-call-accuracy's list of calls, an
		 * expectation) is written once and copied. */
		struct jsonw_memo memo = { .n = 0 };
		for (size_t i = 0; i < p->nscorers; i++) {
			struct report_row row = {
				.run_id = r ? r->id : ro->src,
				.source = r ? r->source : ro->src,
				.format = r ? r->format : NULL,
				.sc = &p->c->scorers[i],
				.v = &verdicts[i],
			};
			p->rep->render(&row, &memo, &b->out);
		}
		for (size_t i = 0; i < p->nscorers; i++)
			verdict_clear(&verdicts[i]);
		run_free(r);
	} else {
		ro->run = r;
	}
	xalloc_input(NULL, 0, NULL);    /* r->source may be gone */
	ro->err_end = b->err.len;
	ro->out_end = b->out.len;
}

static void score_batch(struct pool *p, struct batch *b)
{
	strbuf_reset(&b->err);
	strbuf_reset(&b->out);
	for (size_t k = 0; k < b->n; k++)
		score_record(p, b, k);
}

/* ---- writing, in input order ------------------------------------------- */

/* One scorer's tally for the run just scored. */
static void stats_add(struct score_stats *s, const struct tally *t)
{
	s->runs++;
	if (t->status == VERDICT_OK) {
		s->scored++;
		s->sum += t->score;
		s->passed += t->passed;
	} else if (t->status == VERDICT_SKIPPED) {
		s->skipped++;
	} else {
		s->errors++;
	}
}

/* One run's verdicts counted by its task (NULL: it has none). */
static void trials_add(struct score_trials *t, const char *task, const struct tally *tallies,
                       size_t nscorers)
{
	struct trials_task *counts = score_trials_task(t, task);
	for (size_t i = 0; i < nscorers; i++)
		score_trials_verdict(t, counts, i, tallies[i].status, tallies[i].passed);
}

static void write_batch(struct pool *p, struct batch *b)
{
	size_t err_at = 0, out_at = 0;
	/* With nothing for stderr, the batch's rows go out in one piece:
	 * the order between the streams is all that writing each record's
	 * part in turn keeps. */
	bool whole = p->rep->render && !b->err.len;
	if (whole && b->out.len)
		p->rep->emit(p->rep_state, b->out.buf, b->out.len);
	for (size_t k = 0; k < b->n; k++) {
		struct rec_out *ro = &b->res[k];
		if (ro->err_end > err_at)
			fwrite(b->err.buf + err_at, 1, ro->err_end - err_at, stderr);
		err_at = ro->err_end;
		for (size_t i = 0; i < p->nscorers; i++)
			stats_add(&p->stats[i], &b->tallies[k * p->nscorers + i]);
		if (p->task_spec)
			trials_add(p->reading->trials, ro->task, &b->tallies[k * p->nscorers],
			           p->nscorers);
		if (p->reading) {
			p->reading->records[b->recs[k].file]++;
			p->reading->read[b->recs[k].file] += ro->read;
		}
		if (whole) {
			/* written above */
		} else if (p->rep->render) {
			if (ro->out_end > out_at)
				p->rep->emit(p->rep_state, b->out.buf + out_at, ro->out_end - out_at);
			out_at = ro->out_end;
		} else {
			struct run *r = ro->run;
			for (size_t i = 0; i < p->nscorers; i++) {
				struct verdict *v = &b->verdicts[k * p->nscorers + i];
				struct report_row row = {
					.run_id = r ? r->id : ro->src,
					.source = r ? r->source : ro->src,
				.format = r ? r->format : NULL,
					.sc = &p->c->scorers[i],
					.v = v,
				};
				p->rep->row(p->rep_state, &row);
				verdict_clear(v);
			}
			run_free(r);
		}
		free(ro->src);
		ro->src = NULL;
		free(ro->task);
		ro->task = NULL;
		ro->run = NULL;
	}
	b->n = 0;
	b->bytes = 0;
}

/* ---- the workers ---------------------------------------------------------- */

static void *worker_main(void *arg)
{
	struct pool *p = arg;
	pthread_mutex_lock(&p->lock);
	for (;;) {
		while (!p->closing && p->next_work == p->tail)
			pthread_cond_wait(&p->work_ready, &p->lock);
		if (p->next_work == p->tail)
			break;              /* closing, nothing left */
		struct batch *b = &p->ring[p->next_work % p->nring];
		p->next_work++;
		b->state = BATCH_WORKING;
		pthread_mutex_unlock(&p->lock);
		score_batch(p, b);
		pthread_mutex_lock(&p->lock);
		b->state = BATCH_DONE;
		p->inflight -= b->bytes;
		pthread_cond_broadcast(&p->batch_done);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/* Fills the batch at the tail from the cursor; false when no record is left. */
static bool fill_batch(struct pool *p, struct batch *b, struct dataset_cursor *cur)
{
	b->n = 0;
	b->bytes = 0;
	while (b->n < p->batch_recs && b->bytes < BATCH_BYTES &&
	       dataset_next(p->ds, cur, &b->recs[b->n])) {
		b->bytes += b->recs[b->n].len + 1;
		b->n++;
	}
	return b->n > 0;
}

static void batch_init(struct batch *b, size_t nscorers)
{
	memset(b, 0, sizeof *b);
	b->tallies = xcalloc(BATCH_RECS * (nscorers ? nscorers : 1), sizeof *b->tallies);
	b->verdicts = xcalloc(BATCH_RECS * (nscorers ? nscorers : 1), sizeof *b->verdicts);
}

static void batch_free(struct batch *b)
{
	free(b->tallies);
	free(b->verdicts);
	strbuf_release(&b->err);
	strbuf_release(&b->out);
}

/* The loop in the calling thread alone. */
static void stream_serial(struct pool *p)
{
	struct batch *b = xcalloc(1, sizeof *b);
	batch_init(b, p->nscorers);
	struct dataset_cursor cur;
	dataset_cursor_init(&cur);
	while (fill_batch(p, b, &cur)) {
		score_batch(p, b);
		write_batch(p, b);
	}
	batch_free(b);
	free(b);
}

/* Writes the batches that are done at the head, in order. Called with
 * the lock held; writes without it. */
static void write_done(struct pool *p)
{
	while (p->head != p->tail && p->ring[p->head % p->nring].state == BATCH_DONE) {
		struct batch *b = &p->ring[p->head % p->nring];
		pthread_mutex_unlock(&p->lock);
		write_batch(p, b);
		pthread_mutex_lock(&p->lock);
		b->state = BATCH_FREE;
		p->head++;
	}
}

/* Whether another batch may be filled: a slot is free, and little is in
 * flight (a batch of any size goes when nothing else is). */
static bool room(const struct pool *p)
{
	return p->tail - p->head < p->nring && (p->inflight < INFLIGHT_BYTES || p->inflight == 0);
}

static void stream_parallel(struct pool *p, unsigned workers)
{
	p->nring = (size_t)workers * 2 + 2;
	p->ring = xcalloc(p->nring, sizeof *p->ring);
	for (size_t i = 0; i < p->nring; i++)
		batch_init(&p->ring[i], p->nscorers);
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->work_ready, NULL);
	pthread_cond_init(&p->batch_done, NULL);
	pthread_t th[WORKERS_MAX];
	unsigned started = 0;
	for (; started < workers; started++)
		if (pthread_create(&th[started], NULL, worker_main, p) != 0)
			break;
	if (!started) {
		/* No thread to be had: the loop runs here. */
		stream_serial(p);
	} else {
		struct dataset_cursor cur;
		dataset_cursor_init(&cur);
		pthread_mutex_lock(&p->lock);
		for (;;) {
			write_done(p);
			if (!room(p)) {
				pthread_cond_wait(&p->batch_done, &p->lock);
				continue;
			}
			struct batch *b = &p->ring[p->tail % p->nring];
			pthread_mutex_unlock(&p->lock);
			bool more = fill_batch(p, b, &cur);
			pthread_mutex_lock(&p->lock);
			if (!more)
				break;
			b->state = BATCH_QUEUED;
			p->inflight += b->bytes;
			p->tail++;
			pthread_cond_signal(&p->work_ready);
		}
		p->closing = true;
		pthread_cond_broadcast(&p->work_ready);
		for (;;) {
			write_done(p);
			if (p->head == p->tail)
				break;
			pthread_cond_wait(&p->batch_done, &p->lock);
		}
		pthread_mutex_unlock(&p->lock);
	}
	for (unsigned i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	pthread_cond_destroy(&p->batch_done);
	pthread_cond_destroy(&p->work_ready);
	pthread_mutex_destroy(&p->lock);
	for (size_t i = 0; i < p->nring; i++)
		batch_free(&p->ring[i]);
	free(p->ring);
}

void score_stream(struct dataset *ds, const struct config *c, const struct evaluator *ev,
                  const struct format_ops *forced, const struct report_ops *rep, void *rep_state,
                  struct score_stats *stats, struct score_reading *reading, unsigned workers)
{
	struct pool p = {
		.reading = reading,
		.ds = ds, .c = c, .ev = ev, .forced = forced, .rep = rep, .rep_state = rep_state,
		.stats = stats, .nscorers = c->nscorers,
	};
	if (reading && reading->trials)
		p.task_spec = score_trials_spec(reading->trials);
	if (workers > WORKERS_MAX)
		workers = WORKERS_MAX;
	/* A scorer that runs a process per run makes each record cost far more
	 * than reading it: batches of one keep every worker busy on a file of
	 * a dozen runs, where one batch of all of them would use one core. */
	p.batch_recs = BATCH_RECS;
	for (size_t i = 0; i < ev->nscorers; i++)
		if (ev->scorers[i].ops->per_run_process)
			p.batch_recs = 1;
	if (workers == 0)
		stream_serial(&p);
	else
		stream_parallel(&p, workers);
}
