/* openhands.c - stub. */
#include <stdio.h>
#include "runs/format.h"
static int stub_detect(const struct jdoc *d, jv rec) { (void)d; (void)rec; return 0; }
static int stub_load(struct run *r, char *err, size_t errlen) { (void)r; snprintf(err, errlen, "todo"); return -1; }
const struct format_ops format_openhands = { .name = "openhands", .summary = "todo", .detect = stub_detect, .load = stub_load };
