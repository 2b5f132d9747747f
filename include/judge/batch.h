/* batch.h - the OpenAI Batch API's files, the protocol of judging in a batch.
 *
 * `tcreview judge --batch-out` writes each judgement's first request as a
 * line of the Batch API's input file instead of sending it; the user
 * submits the file; `--batch-in` reads the finished batch's output file
 * and feeds each answer to its job as the client would a live one. A line
 * is named by its custom_id, made from the judgement's cache key and the
 * judge's place in the configuration, so an answer finds its job again. */
#ifndef TCR_JUDGE_BATCH_H
#define TCR_JUDGE_BATCH_H

#include <stddef.h>
#include <stdio.h>

#include "judge/judge.h"
#include "util/error.h"

/* A finished batch's answers by custom_id. */
struct batch_output;

/* The custom_id of the judgement with cache key `key` by judge number
 * `judge` (its index in the configuration's judges). */
void batch_custom_id(const char *key, size_t judge, char *out, size_t n);

/* Writes the job's next request to f as one line of the Batch API input
 * ({custom_id, method, url, body}: the same body as a live request).
 * Returns 0, or -1 with a message (a provider without batches, nothing to
 * ask, a request that cannot be made). */
int batch_request_write(FILE *f, const struct judge_conf *j, struct judge_job *job,
                        const char *id, struct error *err);

/* Called for a line of the output file that is not a batch output line. */
typedef void batch_bad_line_fn(void *ctx, const char *path, size_t line);

/* Reads a finished batch's output file (a regular file within
 * READ_CAP_BATCH). NULL with a message when it cannot be read; bad lines
 * are reported through bad (may be NULL) and skipped. */
struct batch_output *batch_output_read(const char *path, batch_bad_line_fn *bad, void *ctx,
                                       struct error *err);

/* Feeds the answer filed under id to the job, as the client would a live
 * one (a failed request as its error); a job with no answer in the batch
 * fails. */
void batch_output_feed(const struct batch_output *o, const char *id, const struct judge_conf *j,
                       struct judge_job *job);

void batch_output_free(struct batch_output *o);

#endif
