/* expect_conf.c - reads the `expectations:` section: the file and the
 * paths that join a run to its expectation. */
#include "runs/expect.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* One side of `match`: a path or a list of paths. */
static int match_side(struct conf *x, const struct conf_node *v, const char *what,
                      char ***out, size_t *nout)
{
	*out = NULL;
	*nout = 0;
	if (v->kind == CONF_MAP)
		return conf_fail(x, v, "wrong type for '%s': expected a path or a list of paths, got a mapping",
		            what);
	if (v->kind == CONF_SCALAR) {
		*out = xcalloc(1, sizeof **out);
		*nout = 1;
		return conf_path(x, v, what, &(*out)[0]);
	}
	if (v->nkids == 0)
		return conf_fail(x, v, "'%s' must name at least one path", what);
	*out = xcalloc(v->nkids, sizeof **out);
	*nout = v->nkids;
	for (size_t i = 0; i < v->nkids; i++)
		if (conf_path(x, v->kids[i], what, &(*out)[i]))
			return -1;
	return 0;
}

static const struct conf_key expect_keys[] = {
	{ .name = "file", .kind = CONF_K_FILE, .flags = CONF_REQUIRED,
	  .offset = offsetof(struct expect_conf, file), .missing = "'expectations' needs 'file'" },
	{ .name = "match", .kind = CONF_K_NODE, .flags = CONF_REQUIRED,
	  .missing = "'expectations' needs 'match' ({run: PATH, expected: PATH})" },
	{ .name = NULL },
};

static const struct conf_table expect_table = { .keys = expect_keys };

static const struct conf_key match_keys[] = {
	{ .name = "run", .kind = CONF_K_NODE, .flags = CONF_REQUIRED, .missing = "'match' needs 'run'" },
	{ .name = "expected", .kind = CONF_K_NODE, .flags = CONF_REQUIRED,
	  .missing = "'match' needs 'expected'" },
	{ .name = NULL },
};

static const struct conf_table match_table = { .keys = match_keys };

/* match: {run: PATHS, expected: PATHS}, as many paths on each side. */
static int match_read(struct conf *x, struct expect_conf *ec, const struct conf_node *match)
{
	const struct conf_node *sides[2];
	if (conf_map(x, match, "match") || conf_keys(x, match, &match_table, NULL, sides))
		return -1;
	char **rk, **ek;
	size_t nr, ne;
	if (match_side(x, sides[0], "run", &rk, &nr)) {
		conf_str_list_free(rk, nr);
		return -1;
	}
	if (match_side(x, sides[1], "expected", &ek, &ne) ||
	    (nr != ne && conf_fail(x, sides[1], "'expected' has %zu path%s but 'run' has %zu", ne,
	                           ne == 1 ? "" : "s", nr))) {
		conf_str_list_free(rk, nr);
		conf_str_list_free(ek, ne);
		return -1;
	}
	ec->run_keys = rk;
	ec->exp_keys = ek;
	ec->nkeys = nr;
	return 0;
}

int expect_conf_read(struct conf *x, const struct conf_node *m, struct expect_conf *ec)
{
	const struct conf_node *slots[2];
	memset(ec, 0, sizeof *ec);
	if (conf_map(x, m, "expectations"))
		return -1;
	ec->line = m->line;
	ec->col = m->col;
	if (conf_keys(x, m, &expect_table, ec, slots))
		return -1;
	return match_read(x, ec, slots[1]);
}

void expect_conf_free(struct expect_conf *ec)
{
	free(ec->file);
	conf_str_list_free(ec->run_keys, ec->nkeys);
	conf_str_list_free(ec->exp_keys, ec->nkeys);
	memset(ec, 0, sizeof *ec);
}
