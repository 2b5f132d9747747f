/* propose.c - placeholder until the proposal engine lands (replaced by the init work). */
#include "config/propose.h"

#include <stdio.h>
#include <string.h>

int config_propose(const char *const *inputs, size_t ninputs, const struct propose_opts *o,
                   struct proposal *p, char *err, size_t errlen)
{
	(void)inputs; (void)ninputs; (void)o;
	memset(p, 0, sizeof *p);
	snprintf(err, errlen, "proposals are not built yet");
	return -1;
}

int config_proposal_write(const struct proposal *p, const char *path, bool force, char *err,
                          size_t errlen)
{
	(void)p; (void)path; (void)force;
	snprintf(err, errlen, "proposals are not built yet");
	return -1;
}

void proposal_free(struct proposal *p)
{
	strbuf_release(&p->yaml);
	strbuf_release(&p->report);
}
