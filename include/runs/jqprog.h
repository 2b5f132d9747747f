/* jqprog.h - jq programs (libjq) behind opaque types and plain C text.
 *
 * A declared format (runs/declared.h) tests and maps records with jq, the
 * language its users already write. libjq's own value type is named `jv`,
 * as ours (util/jdoc.h) is, so libjq stays inside jqprog.c: this header
 * speaks only of opaque programs and values and of JSON text.
 *
 * A jq program may loop or grow without end and cannot be stopped safely
 * in-process: callers run programs in a child process under limits
 * (util/child.h), except on inputs they bound themselves (the fuzzer). */
#ifndef TCR_RUNS_JQPROG_H
#define TCR_RUNS_JQPROG_H

#include <stddef.h>
#include "util/error.h"

struct jqprog;
struct jqval;

/* Compiles text; NULL with jq's own message in err. Modules (import,
 * include) are not searched for. */
struct jqprog *jqprog_compile(const char *text, struct error *err);
void jqprog_free(struct jqprog *p);
/* Compiles the program again: jq binds $ENV as it compiles, so a child
 * that has put its environment away recompiles before it runs. */
int  jqprog_recompile(struct jqprog *p, struct error *err);

/* A JSON text as a value; NULL with the parser's message. */
struct jqval *jqval_parse(const char *text, size_t len, struct error *err);
/* An empty array, and a value appended to it (taken). */
struct jqval *jqval_array(void);
void jqval_append(struct jqval *arr, struct jqval *v);
/* An array's length, or -1 when v is not an array; its element i (new). */
long jqval_length(const struct jqval *v);
struct jqval *jqval_at(const struct jqval *v, long i);
void jqval_free(struct jqval *v);

/* The program's first output on in: 1 when it is true, 0 when it is
 * false, null or there is none, -1 with the message when the program
 * fails or gives anything else. */
int jqprog_test(struct jqprog *p, const struct jqval *in, struct error *err);

/* Runs the program on in. Each output is a run (an object with a
 * `tcreview_run` member) or an array of them; emit gets each run as one
 * line of compact JSON (no newline) and returns nonzero to stop. Returns
 * the number of runs, or -1 with the message when the program fails or
 * gives something that is not a run. */
long jqprog_runs(struct jqprog *p, const struct jqval *in,
                 int (*emit)(void *arg, const char *text, size_t len), void *arg,
                 struct error *err);

#endif
