/* queue_opts.c - reading --queue, --sample, --seed and --target-width for review and stats. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/queue_opts.h"

static bool whole(const char *s, unsigned long long *out)
{
	if (!s || *s < '0' || *s > '9')
		return false;
	char *end;
	errno = 0;
	*out = strtoull(s, &end, 10);
	return errno == 0 && *end == '\0';
}

int cli_queue_option(struct review_queue *q, const char *opt, const char *value)
{
	unsigned long long v;
	if (opt[2] == 'q') {
		if (review_queue_parse(value, &q->kind))
			return 0;
		fprintf(stderr, "tcreview: --queue: '%s' is not a queue (uncertain, disagree, errors, "
		        "random)\n", value);
		return -1;
	}
	if (!whole(value, &v) || (opt[3] == 'a' && (v == 0 || v > (unsigned long long)SIZE_MAX))) {
		fprintf(stderr, "tcreview: %s: '%s' is not %s\n", opt, value,
		        opt[3] == 'a' ? "a count of runs (1 or more)" : "a whole number");
		return -1;
	}
	if (opt[3] == 'a')
		q->sample = (size_t)v;
	else
		q->seed = v;
	q->seed_given |= opt[3] == 'e';
	return 0;
}

int cli_queue_check(const struct review_queue *q)
{
	if (q->kind == QUEUE_NONE && (q->sample || q->seed_given)) {
		fprintf(stderr, "tcreview: --sample and --seed need --queue\n");
		return -1;
	}
	return 0;
}

int cli_target_width(double *out, const char *value)
{
	char *end;
	errno = 0;
	double w = value ? strtod(value, &end) : 0;
	if (!value || end == value || *end || errno || !(w > 0 && w <= 1)) {
		fprintf(stderr, "tcreview: --target-width: '%s' is not a width in (0, 1]\n",
		        value ? value : "");
		return -1;
	}
	*out = w;
	return 0;
}
