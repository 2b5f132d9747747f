/* jqprog.c - jq programs through libjq: compile, test a record, map it to runs.
 *
 * The only file that includes jq.h (its `jv` is not ours: see jqprog.h). */
#include "runs/jqprog.h"
#include "util/error.h"

#include <jq.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct jqprog {
	jq_state *jq;
	char *text;             /* for jqprog_recompile */
};

struct jqval {
	jv v;
};

/* jq reports compile errors through a callback, one message each. */
struct msgs {
	struct error *err;
};

static void msg_add(struct msgs *m, const char *s)
{
	if (!m->err)
		return;
	size_t used = strlen(m->err->msg);
	if (used >= sizeof m->err->msg - 1)
		return;
	error_append(m->err, "%s%s", used ? "; " : "", s);
}

static void on_error(void *arg, jv msg)
{
	if (jv_get_kind(msg) == JV_KIND_STRING) {
		char line[600];
		const char *s = jv_string_value(msg);
		if (strncmp(s, "jq: error: ", 11) == 0)
			s += 11;
		snprintf(line, sizeof line, "%s", s);
		/* "... at <top-level>, line 1:\n<program>": the first line says
		 * it; the count of errors that follows says nothing more. */
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		size_t n = strlen(line);
		if (n && line[n - 1] == ':')
			line[n - 1] = '\0';
		if (strncmp(s, "jq: ", 4) != 0)
			msg_add(arg, line);
	}
	jv_free(msg);
}

static void ignore_error(void *arg, jv msg)
{
	(void)arg;
	jv_free(msg);
}

static jq_state *compile(const char *text, struct error *err)
{
	jq_state *jq = jq_init();
	if (!jq) {
		error_set(err, ERR_FAILED, "jq could not start");
		return NULL;
	}
	error_clear(err);
	struct msgs m = { err };
	jq_set_error_cb(jq, on_error, &m);
	/* A format reads its records and nothing else: no module files. */
	jq_set_attr(jq, jv_string("JQ_LIBRARY_PATH"), jv_array());
	if (!jq_compile(jq, text)) {
		if (err && !err->msg[0])
			error_set(err, ERR_FAILED, "the jq program does not compile");
		jq_teardown(&jq);
		return NULL;
	}
	jq_set_error_cb(jq, ignore_error, NULL);
	return jq;
}

struct jqprog *jqprog_compile(const char *text, struct error *err)
{
	jq_state *jq = compile(text, err);
	if (!jq)
		return NULL;
	struct jqprog *p = calloc(1, sizeof *p);
	char *copy = strdup(text);
	if (!p || !copy) {
		free(p);
		free(copy);
		jq_teardown(&jq);
		error_set(err, ERR_FAILED, "out of memory");
		return NULL;
	}
	p->jq = jq;
	p->text = copy;
	return p;
}

int jqprog_recompile(struct jqprog *p, struct error *err)
{
	jq_state *jq = compile(p->text, err);
	if (!jq)
		return -1;
	jq_teardown(&p->jq);
	p->jq = jq;
	return 0;
}

void jqprog_free(struct jqprog *p)
{
	if (!p)
		return;
	jq_teardown(&p->jq);
	free(p->text);
	free(p);
}

static struct jqval *wrap(jv v)
{
	struct jqval *w = malloc(sizeof *w);
	if (!w) {
		jv_free(v);
		return NULL;
	}
	w->v = v;
	return w;
}

/* The message an invalid value carries, as text. */
static void invalid_text(jv bad, struct error *err)
{
	jv msg = jv_invalid_get_msg(bad);
	if (jv_get_kind(msg) == JV_KIND_STRING)
		error_set(err, ERR_FAILED, "%s", jv_string_value(msg));
	else if (jv_get_kind(msg) == JV_KIND_NULL)
		error_set(err, ERR_FAILED, "error (null)");
	else {
		char buf[200];
		error_set(err, ERR_FAILED, "%s", jv_dump_string_trunc(jv_copy(msg), buf, sizeof buf));
	}
	jv_free(msg);
}

struct jqval *jqval_parse(const char *text, size_t len, struct error *err)
{
	if (len > (size_t)0x7fffffff) {
		error_set(err, ERR_FAILED, "too large for jq (%zu bytes; at most 2 GB)", len);
		return NULL;
	}
	jv v = jv_parse_sized(text, (int)len);
	if (!jv_is_valid(v)) {
		invalid_text(v, err);
		return NULL;
	}
	return wrap(v);
}

struct jqval *jqval_array(void)
{
	return wrap(jv_array());
}

void jqval_append(struct jqval *arr, struct jqval *v)
{
	arr->v = jv_array_append(arr->v, v->v);
	free(v);
}

long jqval_length(const struct jqval *v)
{
	if (jv_get_kind(v->v) != JV_KIND_ARRAY)
		return -1;
	return jv_array_length(jv_copy(v->v));
}

struct jqval *jqval_at(const struct jqval *v, long i)
{
	return wrap(jv_array_get(jv_copy(v->v), (int)i));
}

void jqval_free(struct jqval *v)
{
	if (v) {
		jv_free(v->v);
		free(v);
	}
}

/* "a string (\"abc\")": what an output that is not wanted was. */
static void describe(jv v, char *buf, size_t n)
{
	char text[80];
	const char *kind = jv_kind_name(jv_get_kind(v));
	jv_dump_string_trunc(jv_copy(v), text, sizeof text);
	snprintf(buf, n, "%s %s", strcmp(kind, "object") == 0 || strcmp(kind, "array") == 0 ? "an" : "a",
	         kind);
	size_t used = strlen(buf);
	snprintf(buf + used, n - used, " (%s)", text);
}

int jqprog_test(struct jqprog *p, const struct jqval *in, struct error *err)
{
	jq_start(p->jq, jv_copy(in->v), 0);
	jv out = jq_next(p->jq);
	int rc;
	jv_kind k = jv_get_kind(out);
	if (k == JV_KIND_INVALID) {
		rc = jv_invalid_has_msg(jv_copy(out)) ? -1 : 0;
		if (rc < 0)
			invalid_text(jv_copy(out), err);
	} else if (k == JV_KIND_TRUE || k == JV_KIND_FALSE || k == JV_KIND_NULL) {
		rc = k == JV_KIND_TRUE;
	} else {
		char what[120];
		describe(out, what, sizeof what);
		error_set(err, ERR_FAILED, "must give true or false, gave %s", what);
		rc = -1;
	}
	jv_free(out);
	return rc;
}

/* One run: an object with a tcreview_run member, written as a line. */
static int emit_run(jv run, long *n, int (*emit)(void *, const char *, size_t), void *arg,
                    struct error *err)
{
	if (jv_get_kind(run) != JV_KIND_OBJECT ||
	    !jv_object_has(jv_copy(run), jv_string("tcreview_run"))) {
		char what[120];
		describe(run, what, sizeof what);
		error_set(err, ERR_FAILED, "must give runs ({tcreview_run: 1, ...}) or arrays of them, "
		         "gave %s", what);
		jv_free(run);
		return -1;
	}
	jv text = jv_dump_string(run, 0);
	int stop = emit(arg, jv_string_value(text), (size_t)jv_string_length_bytes(jv_copy(text)));
	jv_free(text);
	(*n)++;
	return stop ? 1 : 0;
}

long jqprog_runs(struct jqprog *p, const struct jqval *in,
                 int (*emit)(void *arg, const char *text, size_t len), void *arg,
                 struct error *err)
{
	long n = 0;
	int rc = 0;
	jq_start(p->jq, jv_copy(in->v), 0);
	for (;;) {
		jv out = jq_next(p->jq);
		if (!jv_is_valid(out)) {
			if (jv_invalid_has_msg(jv_copy(out))) {
				invalid_text(jv_copy(out), err);
				rc = -1;
			}
			jv_free(out);
			break;
		}
		if (jv_get_kind(out) == JV_KIND_ARRAY) {
			int len = jv_array_length(jv_copy(out));
			for (int i = 0; i < len && rc == 0; i++)
				rc = emit_run(jv_array_get(jv_copy(out), i), &n, emit, arg, err);
			jv_free(out);
		} else {
			rc = emit_run(out, &n, emit, arg, err);
		}
		if (rc)
			break;
	}
	return rc < 0 ? -1 : n;
}
