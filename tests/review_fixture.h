/* review_fixture.h - what the tests of the review layer's labelling,
 * filters and shares set up alike: four runs in a temporary folder, two
 * code scorers and one 1-to-5 judge that is never asked (its answers are
 * put into the judge cells by hand, as the cache or a request would), and
 * sessions opened as one reviewer or another on one annotations file.
 *
 *   run-c  lookup 1 pass  words 0.6 pass
 *   run-a  lookup 0 fail  words 0.333 fail
 *   run-d  lookup 1 pass  words 0 fail
 *   run-b  lookup 0 fail  words 1 pass
 * Rows: 0 lookup (binary), 1 words (0..1, passes at 0.5), 2 ju (1..5,
 * passes at 3). */
#ifndef TCR_TESTS_REVIEW_FIXTURE_H
#define TCR_TESTS_REVIEW_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>

#include "config/config.h"
#include "review/session.h"

enum { ROW_LOOKUP, ROW_WORDS, ROW_JU };

struct review_fixture {
	char dir[64];
	char runs_path[128];
	char annot_path[128];
	struct config cfg;
	const char *extra_yaml;     /* appended to the configuration (compare:) */
};

/* 0, or -1 as a cmocka group setup returns. */
int  review_fixture_setup(struct review_fixture *fx, const char *name, const char *extra_yaml);
int  review_fixture_teardown(struct review_fixture *fx);
/* Opens a session on the runs as `reviewer` (the annotations file is
 * kept between sessions) and summarizes every run. */
void rfx_open(struct review_fixture *fx, struct review *rv, const char *reviewer);
/* Starts the annotations file afresh. */
void rfx_reset(struct review_fixture *fx);

/* The entry of a run id, and moving the cursor onto it (in view). */
size_t rfx_entry(struct review *rv, const char *id);
void   rfx_go(struct review *rv, const char *id);
const char *rfx_cur(struct review *rv);
/* The view as "run-c,run-a". */
const char *rfx_view(struct review *rv);
/* The judge's answer on a run, as the cache would give it: a score with a
 * reason, or an error. */
void rfx_judge(struct review *rv, const char *id, double score, const char *reason);
void rfx_judge_error(struct review *rv, const char *id, const char *why);
/* A label by the session's reviewer on a row of a run (the cursor moves
 * there); fails the test when it is refused. */
void rfx_label(struct review *rv, const char *id, size_t row, double score);
/* Every line of the annotations file holding `needle`, counted. */
size_t rfx_lines_with(struct review_fixture *fx, const char *needle);

#endif
