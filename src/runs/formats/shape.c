/* shape.c - the reader by shape: the last resort for records no format claims, and what --format shape forces. */
#include <stdio.h>

#include "runs/format.h"
#include "shape.h"
#include "util/error.h"

/* Never chosen by detection: format_load falls back to it when no format
 * claims a record, or when every format that claims it reads nothing. */
static int shape_detect(const struct jdoc *d, jv rec)
{
	(void)d;
	(void)rec;
	return 0;
}

/* What the reader kept out, said once at the end of the run. */
static void shape_notes(struct shape *s)
{
	struct run *r = s->r;
	run_add_note_msg(r, MSG_IN_OUTPUT, JV_NONE,
	                 "read by shape: its messages and calls were found by their shape, not by a "
	                 "format's loader (%zu call%s; a call shown several times counted once)",
	                 r->ncalls, r->ncalls == 1 ? "" : "s");
	if (s->repeats)
		run_add_note_msg(r, MSG_IN_OUTPUT, JV_NONE, "%zu calls shown again (an input history, "
		                 "a copy) counted once", s->repeats);
	if (s->span_calls)
		run_add_note_msg(r, MSG_IN_OUTPUT, JV_NONE, "%zu calls known only by a tool span (no "
		                 "model output holds them; the span's input taken as the arguments)",
		                 s->span_calls);
	if (s->skipped_items)
		run_add_note_msg(r, MSG_IN_OUTPUT, JV_NONE, "%zu items of a conversation that are not "
		                 "messages, calls or results (not read by shape)", s->skipped_items);
	if (s->skipped_defs)
		run_add_note_msg(r, MSG_IN_OUTPUT, JV_NONE, "%zu tool definitions (not calls)",
		                 s->skipped_defs);
	if (s->ngrafts >= SHAPE_GRAFT_MAX)
		run_add_note_msg(r, MSG_IN_OUTPUT, JV_NONE, "more than %d JSON texts held in strings "
		                 "(the rest not read by shape)", SHAPE_GRAFT_MAX);
}

static int shape_load(struct run *r, struct error *err)
{
	struct shape s = { .r = r, .d = r->doc, .list = JV_NONE };
	shape_walk(&s, run_root(r));
	shape_join(&s);
	/* A run is the agent's: a prompt alone (a benchmark's question, an
	 * expectations file) is none. */
	bool found = r->ncalls > 0;
	for (size_t i = 0; i < r->nmsgs && !found; i++)
		found = r->msgs[i].role == ROLE_ASSISTANT;
	if (!found) {
		error_at(err, ERR_FAILED, "no conversation found: no agent message or tool call in the "
		         "record (read by shape, since no format claims it; name its format with "
		         "--format, or declare it)");
		shape_free(&s);
		return -1;
	}
	shape_notes(&s);
	shape_free(&s);
	return 0;
}

const struct format_ops format_shape = {
	.name = "shape",
	.summary = "any record no format claims: messages, calls and results found by their shape",
	.detect = shape_detect,
	.unit = UNIT_AS_DETECTED,
	.load = shape_load,
};
