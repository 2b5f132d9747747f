/* job_fail.c - ending a job with an error from outside (cancelled, a
 * request that could not be built), through the job's own interface.
 *
 * A failed request is an answer with an error, which the job already turns
 * into an error verdict that names it; so is this. Kept apart from job.c
 * only because the client needed it first: once job.c has its own
 * judge_job_fail, this file goes. */
#include <stddef.h>

#include "judge/judge.h"

void judge_job_fail(struct judge_job *job, const char *why)
{
	if (!job || judge_job_done(job))
		return;
	struct judge_reply r = {
		.text = NULL,
		.error = why ? why : "failed",
		.prompt_tokens = -1,
		.completion_tokens = -1,
	};
	judge_job_take_reply(job, &r);
}
