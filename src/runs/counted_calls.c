/* counted_calls.c - the one rule for which of a run's calls count, with Mastra's own as a flag.
 *
 * Every scorer, the judges' view, the timeline's call numbers, the list's
 * call count and export read a run's calls through it, so that "the
 * agent's calls" means the same thing everywhere. */
#include <string.h>

#include "runs/run.h"

/* Mastra's tool-call-accuracy counts a call whose invocation state is
 * "result" or "call" (1.x also "output-error"): the states as the record
 * spells them, not as we read them. */
static bool mastra_state_counted(const char *st, enum mastra_shape shape)
{
	if (!st)
		return false;
	if (!strcmp(st, "result") || !strcmp(st, "call"))
		return true;
	return shape == MASTRA_1X && !strcmp(st, "output-error");
}

bool run_call_counted(const struct run *r, size_t call, unsigned rule)
{
	const struct run_call *c = &r->calls[call];
	const struct run_msg *m = &r->msgs[c->msg_index];
	if ((rule & RUN_CALLS_MASTRA) && r->mastra != MASTRA_NONE)
		return m->origin == MSG_IN_OUTPUT && jv_truthy(r->doc, c->raw_name) &&
		       mastra_state_counted(c->raw_state, r->mastra);
	if (c->requestor != REQ_AGENT || c->state == CALL_PARTIAL)
		return false;
	/* input messages are context, not the run being judged */
	if (m->role != ROLE_ASSISTANT || m->origin != MSG_IN_OUTPUT)
		return false;
	return !(rule & RUN_CALLS_NAMED) || c->name[0];
}

size_t run_counted_calls(const struct run *r, unsigned rule, size_t *idx)
{
	size_t n = 0;
	for (size_t i = 0; i < r->ncalls; i++)
		if (run_call_counted(r, i, rule)) {
			if (idx)
				idx[n] = i;
			n++;
		}
	return n;
}

size_t run_call_number(const struct run *r, size_t call, unsigned rule)
{
	if (call >= r->ncalls || !run_call_counted(r, call, rule))
		return 0;
	size_t n = 1;
	for (size_t i = 0; i < call; i++)
		n += run_call_counted(r, i, rule);
	return n;
}
