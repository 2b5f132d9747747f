/* groups.h - runs clustered by a fingerprint, so that many runs can get one
 * decision (tcreview groups, the screen's groups pane).
 *
 * A fingerprint is a line of text made from a run alone:
 *   tools     the names of the agent's calls in order (run_counted_calls,
 *             RUN_CALLS_AGENT), a name repeated n times in a row written
 *             once with "×n": "get_user_details → search ×2 → book"; a run
 *             without calls is "(no tool calls)".
 *   error     the first failed tool result (as tool-errors decides it, with
 *             its default prefixes), else the run's own load error, with
 *             numbers, ids, hex, paths, URLs and e-mails and quoted values
 *             made placeholders and cut at GROUPS_ERROR_COLS columns; a run
 *             without one is "(no error)".
 *   verdicts  each scorer's verdict in the configuration's order (✓ pass,
 *             ✗ fail, – skipped, ! error), then each judge that has a
 *             verdict for the run: "actions ✗ · tool-errors ✓".
 * A record that could not be read is "(not read)" under every one.
 *
 * Groups are ordered by count, most first, then by fingerprint bytewise;
 * a group's runs by run id, then by their place in the inputs: the same
 * runs give the same groups in any input order. A group's id is a hash of
 * how it was grouped and its fingerprint ("g" and 8 hex digits), so it is
 * the same on every run of the command. */
#ifndef TCR_REVIEW_GROUPS_H
#define TCR_REVIEW_GROUPS_H

#include <stdbool.h>
#include <stddef.h>

struct review;

enum group_by {
	GROUP_BY_TOOLS,
	GROUP_BY_ERROR,
	GROUP_BY_VERDICTS,
	GROUP_BY_COUNT,
};

#define GROUPS_ERROR_COLS 100   /* the longest error fingerprint, in columns */
#define GROUPS_NO_CALLS "(no tool calls)"
#define GROUPS_NO_ERROR "(no error)"
#define GROUPS_NOT_READ "(not read)"

struct run_group {
	char id[12];                /* "g" and 8 hex digits */
	char *fingerprint;
	size_t *entries;            /* the session's entries, by run id */
	size_t n;
	const char *example;        /* the smallest run id (entries[0]'s) */
};

struct run_groups {
	enum group_by by;
	struct run_group *g;
	size_t n;
	size_t nruns;               /* the runs grouped */
};

/* One run to group: its fingerprint (owned, taken by groups_from_items),
 * its id and its entry. */
struct group_item {
	char *fingerprint;
	const char *run;
	size_t entry;
};

const char *group_by_name(enum group_by by);
bool group_by_parse(const char *s, enum group_by *out);

/* An error text as its fingerprint (above); a new string. The caller has a
 * UTF-8 LC_CTYPE, as for util/wtext. */
char *groups_error_text(const char *text);

/* Entry `entry`'s fingerprint (a new string). Loads its run for tools and
 * error (review_run_at); verdicts reads the entry's cells. The session has
 * summarized the entry. */
char *groups_fingerprint(struct review *rv, size_t entry, enum group_by by);

/* Groups n items (their fingerprints taken over) into out. */
void groups_from_items(struct run_groups *out, enum group_by by, struct group_item *items,
                       size_t n);

/* Groups the given entries of the session (all of them when entries is
 * NULL), leaving out those not summarized yet. */
void groups_build(struct run_groups *out, struct review *rv, enum group_by by,
                  const size_t *entries, size_t n);

/* The group holding `entry`, or NULL. */
const struct run_group *groups_of_entry(const struct run_groups *g, size_t entry);

void groups_free(struct run_groups *g);

#endif
