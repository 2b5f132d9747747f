/* expect.h - per-task ground truth joined to runs by key fields. */
#ifndef TCR_RUNS_EXPECT_H
#define TCR_RUNS_EXPECT_H

#include <jansson.h>
#include <stddef.h>

#include "conf/conf.h"
#include "runs/run.h"
#include "util/error.h"

/* expectations: {file, match} as configured: which record fields join
 * a run to its expectation. */
struct expect_conf {
	char *file;             /* resolved against the YAML's folder */
	char **run_keys;        /* paths into the run's record */
	char **exp_keys;        /* paths into the expectation records */
	size_t nkeys;
	int line, col;
};

/* Reads the `expectations:` section into *ec (zeroed first; the file is
 * joined to the YAML's folder). Returns 0 or -1 (conf_fail). */
int  expect_conf_read(struct conf *cf, const struct conf_node *m, struct expect_conf *ec);
void expect_conf_free(struct expect_conf *ec);

struct expectations;

/* Loads a JSONL or JSON-array file of expectation records, keyed by the
 * configured expectation paths. Returns NULL with "FILE:LINE: message" in err.
 * `file` overrides ec->file when not NULL. The result keeps its own copies of
 * the key paths, so the config may be freed first. */
struct expectations *expect_load(const struct expect_conf *ec, const char *file,
                                 struct error *err);
void expect_free(struct expectations *e);
size_t expect_count(const struct expectations *e);
/* Records left out because a key path found nothing in them, and records
 * ignored because an earlier one had the same key (the first wins). */
size_t expect_skipped(const struct expectations *e);
size_t expect_duplicates(const struct expectations *e);

/* The expectation for a run (borrowed), or NULL with a sentence saying why
 * in why (e.g. "no expectation has task_id = 7"). */
json_t *expect_lookup(const struct expectations *e, struct run *run, char *why, size_t whylen);

#endif
