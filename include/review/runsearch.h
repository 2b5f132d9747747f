/* runsearch.h - where a search's words are inside one run, found in its
 * text as the reader sees it (JSON strings decoded), not in the record's
 * bytes, and told by the timeline entry that shows them.
 *
 * The entries are the timeline's: a message's role line with the text
 * under it, each call (its name, arguments, result or error), each
 * thinking part, and each text that follows a call or a thinking part.
 * Matching ignores ASCII case, as the run search does. No curses. */
#ifndef TCR_REVIEW_RUNSEARCH_H
#define TCR_REVIEW_RUNSEARCH_H

#include <stdbool.h>
#include <stddef.h>

struct run;

struct run_hit {
	long msg;               /* the entry's message */
	long call;              /* the call whose entry it is, or -1 */
	long part;              /* the thinking part whose entry it is, or -1 */
	size_t group;           /* else: the message's text entry, 0 the first */
	size_t nth;             /* the match among its entry's, from 0 */
	const char *text;       /* the text it is in when shown as it is, else NULL */
	size_t off;             /* where in text */
};

struct run_hits {
	struct run_hit *v;
	size_t n, cap;
};

/* Every match of query (non-empty) in r, in the timeline's order. */
void run_search(struct run *r, const char *query, struct run_hits *out);
void run_hits_free(struct run_hits *h);

/* The first match of the len bytes of q in the n bytes at h, ignoring
 * ASCII case; NULL when none. */
const char *run_search_in(const char *h, size_t n, const char *q, size_t len);

#endif
