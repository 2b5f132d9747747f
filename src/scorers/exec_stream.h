/* exec_stream.h - the exec scorer's stream protocol: long-lived children,
 * one JSON line in and one line out per run, pooled per scorer entry. */
#ifndef TCR_SCORERS_EXEC_STREAM_H
#define TCR_SCORERS_EXEC_STREAM_H

#include "util/child.h"

/* How long children get to end by themselves once their stdin closes. */
#define EXEC_STREAM_GRACE_MS 2000

/* Sends the run (one line, without its newline) to an idle child of
 * `owner` (started from sp when none is idle) and waits for its answer
 * under sp->timeout_ms. res->out is the answer line; on a timeout, an
 * answer past sp->out_cap, or a child that ended first (res->ended, with
 * its status) the child is gone and res says why; res->errout holds what it
 * wrote on stderr meanwhile. An answer whose "id" is not run_id is left
 * over from an earlier run and skipped. Returns 0, or -1 when no child could be made. */
int  exec_stream_ask(const void *owner, const struct child_spec *sp, const char *line, size_t len,
                     const char *run_id, struct child_result *res);
/* Ends the idle children of `owner`: EOF on their stdin, a grace of
 * EXEC_STREAM_GRACE_MS, then SIGKILL. Call once no run is being scored. */
void exec_stream_close(const void *owner);

#endif
