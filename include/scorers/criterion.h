/* criterion.h - `criterion:` on a scorer or a judge: the defined failure
 * mode (a tag of `tags:`) its verdicts answer for, so that calibration
 * measures it against the reviewers' tags instead of labels on its row.
 *
 *   criterion: wrong-tool                                 # present when it passes
 *   criterion: {tag: wrong-tool, present_when: fail}      # present when it fails
 *
 * A judge asked "does this run show failure mode X?" answers yes with a
 * pass, hence the default; a code scorer that passes clean runs (tool-errors)
 * says present_when: fail. Whether the tag is defined is checked by
 * config/ once every section is read (tags: may come after scorers:). */
#ifndef TCR_SCORERS_CRITERION_H
#define TCR_SCORERS_CRITERION_H

#include <stdbool.h>

#include "conf/conf.h"

struct criterion_decl {
	char *tag;                  /* NULL: none declared */
	bool present_when_pass;     /* the verdict's pass means the failure mode is present */
	int line, col;              /* of the tag's value, for messages */
};

/* Reads the value of `criterion:`; 0, or -1 after conf_fail. */
int  criterion_read(struct conf *cf, const struct conf_node *v, struct criterion_decl *out);
void criterion_free(struct criterion_decl *c);

#endif
