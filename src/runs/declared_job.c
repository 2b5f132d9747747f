/* declared_job.c - a declared format's jq work on one input file, done in a
 * forked child (declared.c starts it under limits): the detect tests on
 * the first record, then the run mapping over every record, written as
 * run-format JSONL on stdout with the source of each line beside it.
 *
 * The child reports where it is through a shared page, so that when the
 * limits end it the parent can still name the format and the record. */
#include "declared_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runs/jqprog.h"
#include "util/error.h"

/* Writes all of buf to fd; false when it cannot (the output limit ends
 * the child with SIGXFSZ first). */
static bool write_all(int fd, const char *buf, size_t n)
{
	while (n) {
		ssize_t w = write(fd, buf, n);
		if (w < 0)
			return false;
		buf += w;
		n -= (size_t)w;
	}
	return true;
}

struct out {
	struct job *job;
	char buf[1 << 16];
	size_t len;
	bool failed;
};

static void out_flush(struct out *o)
{
	if (o->len && !write_all(1, o->buf, o->len))
		o->failed = true;
	o->len = 0;
}

static void out_add(struct out *o, const char *s, size_t n)
{
	if (n > sizeof o->buf - o->len) {
		out_flush(o);
		if (n > sizeof o->buf) {
			if (!write_all(1, s, n))
				o->failed = true;
			return;
		}
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

static int emit(void *arg, const char *text, size_t len)
{
	struct out *o = arg;
	struct declared_src src = { o->job->where->line, o->job->where->index };
	out_add(o, text, len);
	out_add(o, "\n", 1);
	if (!write_all(o->job->map_fd, (const char *)&src, sizeof src))
		o->failed = true;
	return o->failed;
}

/* The message of a failed record, on stderr for the parent. */
static int job_fail(struct job *j, const char *what, const char *msg)
{
	j->where->failed = 1;
	dprintf(2, "%s: %s", what, msg);
	return JOB_ERROR;
}

/* A JSONL file's line that starts at off (its end found by the caller). */
static struct jqval *line_value(struct job *j, size_t off, size_t len, struct error *err)
{
	return jqval_parse(j->data + off, len, err);
}

/* Calls fn on each non-blank line of the JSONL text (its number in
 * j->where), handing it the value. */
static int each_line(struct job *j, int (*fn)(struct job *, struct jqval *, void *), void *arg,
                     bool first_only)
{
	size_t off = 0;
	int64_t line = 0;
	struct error err = {0};
	while (off < j->size) {
		const char *nl = memchr(j->data + off, '\n', j->size - off);
		size_t end = nl ? (size_t)(nl - j->data) : j->size;
		line++;
		size_t k = off;
		while (k < end && (j->data[k] == ' ' || j->data[k] == '\t' || j->data[k] == '\r'))
			k++;
		if (k < end) {
			j->where->line = line;
			struct jqval *v = line_value(j, off, end - off, &err);
			if (!v)
				return job_fail(j, "not JSON", err.msg);
			int rc = fn(j, v, arg);      /* v is fn's now */
			if (rc || first_only)
				return rc;
		}
		off = end + 1;
	}
	return 0;
}

static int collect(struct job *j, struct jqval *v, void *arg)
{
	(void)j;
	jqval_append(arg, v);
	return 0;
}

/* The whole file as one value: the document, or the array of its lines. */
static struct jqval *whole_value(struct job *j, struct error *err)
{
	if (j->json)
		return jqval_parse(j->data, j->size, err);
	struct jqval *arr = jqval_array();
	size_t off = 0;
	int64_t line = 0;
	while (off < j->size) {
		const char *nl = memchr(j->data + off, '\n', j->size - off);
		size_t end = nl ? (size_t)(nl - j->data) : j->size;
		line++;
		size_t k = off;
		while (k < end && (j->data[k] == ' ' || j->data[k] == '\t' || j->data[k] == '\r'))
			k++;
		if (k < end) {
			j->where->line = line;
			struct jqval *v = line_value(j, off, end - off, err);
			if (!v) {
				jqval_free(arr);
				return NULL;
			}
			jqval_append(arr, v);
		}
		off = end + 1;
	}
	j->where->line = 0;
	return arr;
}

/* The record detect is asked about: the whole file for a whole_file
 * format, else the first line, or a document's first element. */
static struct jqval *first_value(struct job *j, bool whole, struct error *err)
{
	if (whole)
		return whole_value(j, err);
	if (!j->json) {
		struct jqval *arr = jqval_array();
		int rc = each_line(j, collect, arr, true);
		if (rc == JOB_ERROR || jqval_length(arr) < 1) {
			jqval_free(arr);
			error_set(err, ERR_FAILED, "%s", rc == JOB_ERROR ? "" : "no record");
			return NULL;
		}
		struct jqval *v = jqval_at(arr, 0);
		jqval_free(arr);
		return v;
	}
	struct jqval *doc = jqval_parse(j->data, j->size, err);
	if (!doc || jqval_length(doc) < 1)
		return doc;
	struct jqval *v = jqval_at(doc, 0);
	j->where->index = 0;
	jqval_free(doc);
	return v;
}

/* A format's programs read records, not the user's environment (keys a
 * judge's run would carry away): the child runs them with none, compiled
 * again since jq binds $ENV as it compiles. jq walks `environ` without
 * looking for NULL, so it becomes an empty list rather than nothing. */
static char *no_environment[] = { NULL };

static int program_ready(struct job *j, struct jqprog *p)
{
	struct error err = {0};
	if (jqprog_recompile(p, &err) < 0)
		return job_fail(j, "compile", err.msg);
	return 0;
}

/* Which format claims the file: its index, -1 for none, JOB_ERROR. */
static int job_detect(struct job *j)
{
	struct error err = {0};
	for (size_t i = 0; i < j->set->n; i++) {
		const struct declared_format *f = &j->set->v[i];
		j->where->format = (int)i;
		j->where->phase = PHASE_DETECT;
		j->where->line = j->where->index = 0;
		if (program_ready(j, f->detect))
			return JOB_ERROR;
		struct jqval *v = first_value(j, f->whole_file, &err);
		/* A first record that is not JSON can be claimed by no test: the
		 * built-in formats say what is wrong with it. */
		if (!v)
			return -1;
		int rc = jqprog_test(f->detect, v, &err);
		jqval_free(v);
		if (rc < 0)
			return job_fail(j, "detect", err.msg);
		if (rc == 1)
			return (int)i;
	}
	return -1;
}

static int run_one(struct job *j, struct jqval *v, void *arg)
{
	struct out *o = arg;
	struct error err = {0};
	const struct declared_format *f = &j->set->v[j->where->format];
	long n = jqprog_runs(f->run, v, emit, o, &err);
	jqval_free(v);
	if (n < 0)
		return job_fail(j, "run", err.msg);
	return o->failed ? JOB_ERROR : 0;
}

/* The run mapping over every record of the file. */
static int job_run(struct job *j, const struct declared_format *f)
{
	static struct out o;
	o.job = j;
	j->where->phase = PHASE_RUN;
	j->where->line = 0;
	j->where->index = -1;
	struct error err = {0};
	int rc = 0;
	if (f->whole_file || j->json) {
		struct jqval *v = whole_value(j, &err);
		if (!v)
			return job_fail(j, "not JSON", err.msg);
		long n = f->whole_file ? -1 : jqval_length(v);
		if (n < 0) {
			rc = run_one(j, v, &o);
			v = NULL;
		} else {
			for (long i = 0; i < n && rc == 0; i++) {
				j->where->index = i;
				rc = run_one(j, jqval_at(v, i), &o);
			}
		}
		jqval_free(v);
	} else {
		rc = each_line(j, run_one, &o, false);
	}
	out_flush(&o);
	return rc ? JOB_ERROR : 0;
}

int declared_job_main(void *arg)
{
	struct job *j = arg;
	extern char **environ;
	environ = no_environment;
	int i = j->forced >= 0 ? j->forced : job_detect(j);
	if (i == JOB_ERROR)
		return JOB_ERROR;
	if (i < 0)
		return JOB_NONE;
	j->where->format = i;
	const struct declared_format *f = &j->set->v[i];
	if (!f->run)
		return JOB_CLAIMED + i;     /* its converter is the parent's to start */
	if (program_ready(j, f->run) || job_run(j, f))
		return JOB_ERROR;
	return JOB_CLAIMED + i;
}
