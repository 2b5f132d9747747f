/* judging.h - LLM judges asked from the review session: which jobs are in
 * flight, their answers into the session's judge cells, cached verdicts
 * shown when a run is looked at. No curses: the screen polls the sockets
 * (judging_pollfds), runs the client (judging_run) and shows the notes
 * these calls hand back on its status line. A judge with examples is shown
 * labelled runs of the session (review/fewshot.h), gathered again when the
 * labels have changed since.
 *
 * The screen never waits: its J (judging_request) is answered at once and
 * waits, if it must, for the examples to be gathered and for local
 * judges' addresses to be probed, both done by the loop between keys
 * (judging_pollfds, judging_work); judging_ask does the same waiting in
 * place, for callers that may wait. */
#ifndef TCR_REVIEW_JUDGING_H
#define TCR_REVIEW_JUDGING_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>

#include "review/fewshot_gather.h"
#include "review/session.h"
#include "util/error.h"

/* What the status line should say; text "" when nothing. */
struct judging_note {
	bool error;
	bool progress;                  /* what a J waiting waits for, said again as it goes */
	char text[2048];                /* whole: a judge's "not reachable" advice runs long, and the log keeps it */
};

struct judging_asked;
struct judging_wait;
struct judge_runner;
struct fewshot;

struct judging {
	struct review *rv;
	struct judge_runner *runner;    /* NULL without judges */
	size_t pending;                 /* jobs in flight */
	struct judging_asked *asked;    /* those jobs, freed at close if still unanswered */
	size_t filled;                  /* the entry whose cached verdicts were looked up */
	size_t filled_early;            /* the entry whose judges without examples were, while
	                                   the examples were gathered; SIZE_MAX: none */
	size_t answered;                /* jobs finished since the last judging_run */
	struct judging_note last;       /* what the last answer says */
	struct fewshot *shots;          /* the examples' candidates; NULL: no judge has examples */
	size_t shots_decisions;         /* annot_count when they were gathered */
	size_t shots_summarized;        /* and the entries summarized then */
	bool shots_built;
	struct fewshot_gather gather;   /* the candidates read anew, between keys */
	struct judging_wait *waits;     /* J pressed, its requests not sent yet (oldest first) */
	double key_gather_ms;           /* how long a J may gather before it waits (5; tests: 0,
	                                   one entry) */
};

/* Opens the runner (the client, and the cache beside the first input)
 * when the configuration has judges. -1 with a reason when the client
 * cannot start; a cache that cannot be opened is only a note. From then
 * on each run the session summarizes gets its cached judge verdicts
 * (struct review's judge_fill). */
int  judging_open(struct judging *jg, struct review *rv, const char *ca_file,
                  struct judging_note *note, struct error *err);
/* The same without a client, for a command that only reads (stats,
 * export): the cached verdicts fill every summarized run's judge cells,
 * nothing is asked, and a missing cache file is not created (no verdicts
 * then; a cache that cannot be read is only a note). Open it before
 * stepping the session. Returns 0, or -1 with a reason in err. */
int  judging_open_cached(struct judging *jg, struct review *rv, struct judging_note *note,
                         struct error *err);
/* judging_open_cached reading also the cache beside also_input (the
 * verdicts the session's own lacks): diff's other side. */
int  judging_open_cached_also(struct judging *jg, struct review *rv, const char *also_input,
                              struct judging_note *note, struct error *err);
/* Whether judges can be asked (a client is there). */
bool judging_can_ask(const struct judging *jg);
/* Drops unanswered jobs; the session no longer fills cells from the cache. */
void judging_close(struct judging *jg);
/* Shows the cached verdicts of a run once it is looked at (once per run:
 * a miss stays a miss until asked). True when a cell changed. When the
 * examples' candidates are stale it begins gathering them (judging_work)
 * and shows the verdicts of judges with examples once they are known. */
bool judging_fill(struct judging *jg, size_t entry);
/* Asks judge `which` (every judge when which < 0) about the run under the
 * cursor. Judges already answering are left alone; asking after an answer
 * or a failure asks again. True when cells changed (false: only the note).
 * It waits for the examples and the probes; the screen uses
 * judging_request instead. */
bool judging_ask(struct judging *jg, long which, struct judging_note *note);
/* The same without waiting: the requests go out at once when the examples
 * are known and every local judge's probe answered as it began; else the
 * J waits (about that run, wherever the cursor goes) for judging_work to
 * send them, and the note (progress set) says what it waits for. */
bool judging_request(struct judging *jg, long which, struct judging_note *note);
/* Whether the loop has work here besides the requests in flight: a J
 * waiting, or the examples being gathered (begun by judging_fill or a J). */
bool judging_working(const struct judging *jg);
/* The loop's turn of that work: about budget_ms of gathering, the probes
 * looked at, the requests of each J now ready sent. True when cells
 * changed; note: the last ready J's, or (progress) what one waits for. */
bool judging_work(struct judging *jg, double budget_ms, struct judging_note *note);
/* Gathers the examples' candidates again, all at once, when the labels or
 * the runs known have changed since (judging_ask does it first;
 * judging_fill and judging_request begin it for judging_work). True when
 * they were gathered. */
bool judging_shots_update(struct judging *jg);
/* Cancels the requests about the run under the cursor, and a J about it
 * still waiting; how many. */
size_t judging_cancel(struct judging *jg, struct judging_note *note);
/* For the event loop: the probes' and the client's sockets and when it
 * next needs to run (-1: no need; 0 while gathering); 0 fds when nothing
 * is pending. */
int  judging_pollfds(struct judging *jg, struct pollfd *fds, int max, int *timeout_ms);
/* Advances requests; answers land in the judge cells. Returns how many
 * jobs finished, with the last one's note (when any). */
size_t judging_run(struct judging *jg, struct judging_note *note);

#endif
