/* runs_conf.h - the `runs:` section: where a run's id is, which format. */
#ifndef TCR_RUNS_RUNS_CONF_H
#define TCR_RUNS_RUNS_CONF_H

#include "conf/conf.h"

struct runs_conf {
	char *id_path;          /* runs: {id: PATH}, NULL when unset */
	char *format;           /* runs: {format: NAME}, NULL when unset */
};

/* Reads the section into *out (zeroed first). Returns 0 or -1 (conf_fail). */
int  runs_conf_read(struct conf *cf, const struct conf_node *m, struct runs_conf *out);
void runs_conf_free(struct runs_conf *rc);

#endif
