/* claude_code.h - what the two files of the claude-code loader share: a
 * session's events in reading order (claude_code.c) and how each becomes
 * part of the run (claude_code_events.c). */
#ifndef TCR_CLAUDE_CODE_H
#define TCR_CLAUDE_CODE_H

#include <stdbool.h>
#include <stddef.h>

#include "runs/run.h"
#include "util/jdoc.h"

struct cc_event {
	jv v;
	const char *uuid, *parent;
	long waiting;               /* next line waiting for the same parent, -1 at the end */
	long first_wait;            /* first line waiting for this one */
	bool done;                  /* placed in the order */
	bool twin;                  /* the same bytes as an earlier line of the same uuid */
	long same_msg;              /* next line of the same assistant message; -1 none */
	bool continued;             /* not the first line of its assistant message */
	size_t line;                /* its line in the file; 0 when not known */
};

struct cc_session {
	struct cc_event *ev;
	size_t n;
	size_t *order;              /* indexes into ev, in reading order */
	size_t norder;
};

/* One event of the session, ev[i], read into the run. */
void cc_load_event(struct run *r, const struct cc_session *s, size_t i);
/* The run's id and parent_id from its first event with a sessionId: a
 * sidechain line makes it a subagent's run, SESSION/agent-AGENT (or
 * SESSION/sidechain with no agentId), whose parent is SESSION. */
void cc_name_run(struct run *r, const struct cc_session *s);

#endif
