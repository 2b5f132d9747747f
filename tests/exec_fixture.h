/* exec_fixture.h - what the exec scorer's tests share: a temporary folder
 * holding their scripts (and the answers' cache), a configuration read
 * from a scorers list, and a small chat run with an id of the test's. */
#ifndef TCR_TESTS_EXEC_FIXTURE_H
#define TCR_TESTS_EXEC_FIXTURE_H

#include <stddef.h>
#include <sys/types.h>

#include "config/config.h"
#include "runs/run.h"
#include "util/error.h"

extern char exec_tmpdir[];

/* Makes the folder (with checks/ and cache/ inside, TCR_CACHE_DIR set to
 * the latter); exec_fixture_cleanup removes it. 0 or -1. */
int  exec_fixture_setup(void);
void exec_fixture_cleanup(void);
/* Writes NAME (relative to the folder) with that text and mode. */
void exec_write(const char *name, const char *text, mode_t mode);
/* Reads a configuration whose scorers list is `entries` (YAML lines),
 * as the file s.yaml of the folder. 0, or -1 with the message in err. */
int  exec_load(struct config *cfg, const char *entries, struct error *err);
/* A chat run with one get_order call and its result; record id `id`, run
 * id "t.jsonl:N" with N following from `id`. */
struct run *exec_chat_run(const char *id);

#endif
