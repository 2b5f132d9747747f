/* runs_conf.c - reads the `runs:` section (id path, format name). */
#include "runs/runs_conf.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const struct conf_key runs_keys[] = {
	{ .name = "id", .kind = CONF_K_PATH, .offset = offsetof(struct runs_conf, id_path) },
	{ .name = "format", .kind = CONF_K_STR, .offset = offsetof(struct runs_conf, format) },
	{ .name = NULL },
};

static const struct conf_table runs_table = { .keys = runs_keys };

int runs_conf_read(struct conf *cf, const struct conf_node *m, struct runs_conf *out)
{
	memset(out, 0, sizeof *out);
	if (conf_map(cf, m, "runs"))
		return -1;
	return conf_keys(cf, m, &runs_table, out, NULL);
}

void runs_conf_free(struct runs_conf *rc)
{
	free(rc->id_path);
	free(rc->format);
	memset(rc, 0, sizeof *rc);
}
