/* runs_conf.h - the `runs:` section: where a run's id is, which format. */
#ifndef TCR_RUNS_RUNS_CONF_H
#define TCR_RUNS_RUNS_CONF_H

#include <stdbool.h>
#include <stddef.h>
#include "conf/conf.h"

struct runs_conf {
	char *id_path;          /* runs: {id: PATH or [PATH, ...]} as an id spec, NULL when unset */
	char *format;           /* runs: {format: NAME}, NULL when unset */
};

/* An id spec is one path, or several separated by one space: `id: [task_id,
 * trial]` is "task_id trial". A space never occurs in a path outside a
 * quoted key ([" a b"]), so the spec splits without doubt. A run named by
 * several paths gets their values joined by RUN_ID_JOIN ("7#0"), and none
 * when any is missing. */
#define RUN_ID_JOIN "#"
#define RUN_ID_PATH_MAX 1024
/* The number of paths in spec (at least 1 for a non-empty one). */
size_t run_id_spec_count(const char *spec);
/* Copies path i of spec into out; false when there is none or it does not fit. */
bool   run_id_spec_part(const char *spec, size_t i, char *out, size_t outlen);

/* Reads PATH or [PATH, ...] at v as an id spec into *out (malloc'd),
 * `key` naming it in messages. Returns 0 or -1 (conf_fail). */
int run_spec_read(struct conf *cf, const struct conf_node *v, const char *key, char **out);

/* Reads the section into *out (zeroed first). Returns 0 or -1 (conf_fail). */
int  runs_conf_read(struct conf *cf, const struct conf_node *m, struct runs_conf *out);
void runs_conf_free(struct runs_conf *rc);

#endif
