/* declared_int.h - what declared.c shares with declared_job.c, the child's side. */
#ifndef TCR_RUNS_DECLARED_INT_H
#define TCR_RUNS_DECLARED_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "runs/declared.h"

/* The child's exit status: no format claims the file, an error (its
 * message on stderr), or JOB_CLAIMED + the index of the format. */
enum { JOB_NONE = 0, JOB_ERROR = 1, JOB_CLAIMED = 10 };
#define DECLARED_MAX_FORMATS 200        /* so that every index fits an exit status */

enum { PHASE_DETECT = 1, PHASE_RUN };

/* Where the child is, on a page shared with the parent: what it was doing
 * when a limit ended it. */
struct job_where {
	int format;             /* index in the set, -1 before any */
	int phase;
	int64_t line;           /* the record's line (JSONL), 0 when none */
	int64_t index;          /* its element of a .json array, -1 when none */
	int failed;             /* the child wrote its own message */
};

struct job {
	const char *data;
	size_t size;
	bool json;              /* a .json document, else JSONL */
	const struct declared_set *set;
	int forced;             /* the format's index, or -1 to detect */
	int map_fd;             /* one struct declared_src per output line */
	struct job_where *where;
};

/* The converter's output for this input kept from before (a descriptor),
 * or -1; sha gets the input's SHA-256 (hex) either way. */
int  declared_cache_get(const struct declared_format *f, const char *data, size_t size,
                        char sha[65]);
/* Keeps the converter's output in fd for the input of that SHA-256. */
void declared_cache_put(const struct declared_format *f, const char *sha, int fd);

/* The child's work (util/child.h's fn): returns its exit status. */
int declared_job_main(void *arg);

#endif
