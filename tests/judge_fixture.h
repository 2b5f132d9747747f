/* judge_fixture.h - what the judging tests set up alike: a temporary
 * folder holding a copy of the screen tests' runs, the local test server
 * answering a script, and a configuration with one 1-to-5 judge ("acc")
 * pointed at it. */
#ifndef TCR_TESTS_JUDGE_FIXTURE_H
#define TCR_TESTS_JUDGE_FIXTURE_H

#include "config/config.h"
#include "fake_server.h"

struct judge_fixture {
	char dir[64];
	char runs_path[128];        /* DIR/runs.jsonl */
	struct fake_server srv;
	struct config cfg;
	struct config_opts load;    /* what its configurations are loaded with */
};

/* name tells the folders of several tests apart; key is OPENAI_API_KEY's
 * value. Returns 0, or -1 (as a cmocka group setup does). */
int judge_fixture_setup(struct judge_fixture *fx, const char *argv0, const char *name,
                        const char *key, const char *script);
int judge_fixture_teardown(struct judge_fixture *fx);

#endif
