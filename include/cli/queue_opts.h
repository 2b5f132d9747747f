/* queue_opts.h - the options of the review queue and of the labels to go,
 * read the same way by review and stats. */
#ifndef TCR_CLI_QUEUE_OPTS_H
#define TCR_CLI_QUEUE_OPTS_H

#include "review/queue.h"

/* --queue KIND, --sample N or --seed S (opt names which) into q; -1 after
 * saying on stderr what is wrong with the value. */
int cli_queue_option(struct review_queue *q, const char *opt, const char *value);
/* A --sample or --seed without --queue: -1 after saying so. */
int cli_queue_check(const struct review_queue *q);
/* --target-width W: a number in (0, 1]; -1 after saying so. */
int cli_target_width(double *out, const char *value);

#endif
