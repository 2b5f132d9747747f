/* runs_conf.c - reads the `runs:` section (id path or paths, format name). */
#include "runs/runs_conf.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

/* Where the path that starts at s ends: at a space outside a quoted key. */
static const char *path_end(const char *start)
{
	char quote = 0;
	const char *s = start;
	for (; *s; s++) {
		if (quote) {
			if (*s == '\\' && s[1])
				s++;
			else if (*s == quote)
				quote = 0;
		} else if ((*s == '"' || *s == '\'') && s > start && s[-1] == '[') {
			quote = *s;
		} else if (*s == ' ') {
			break;
		}
	}
	return s;
}

size_t run_id_spec_count(const char *spec)
{
	size_t n = 0;
	for (const char *p = spec; *p; n++) {
		p = path_end(p);
		if (*p == ' ')
			p++;
	}
	return n;
}

bool run_id_spec_part(const char *spec, size_t i, char *out, size_t outlen)
{
	const char *p = spec;
	for (size_t k = 0; *p; k++) {
		const char *e = path_end(p);
		if (k == i) {
			size_t n = (size_t)(e - p);
			if (n + 1 > outlen)
				return false;
			memcpy(out, p, n);
			out[n] = '\0';
			return true;
		}
		p = *e == ' ' ? e + 1 : e;
	}
	return false;
}

/* PATH, or [PATH, ...] for a value named by several fields (a task and
 * its trial); kept as an id spec. */
int run_spec_read(struct conf *cf, const struct conf_node *v, const char *key, char **out)
{
	if (v->kind != CONF_SEQ)
		return conf_path(cf, v, key, out);
	if (v->nkids == 0)
		return conf_fail(cf, v, "'%s' must name at least one path", key);
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < v->nkids; i++) {
		char *p = NULL;
		if (conf_path(cf, v->kids[i], key, &p)) {
			strbuf_release(&sb);
			return -1;
		}
		if (strlen(p) >= RUN_ID_PATH_MAX) {
			free(p);
			strbuf_release(&sb);
			return conf_fail(cf, v->kids[i], "'%s': path too long", key);
		}
		if (i)
			strbuf_addch(&sb, ' ');
		strbuf_addstr(&sb, p);
		free(p);
	}
	*out = strbuf_detach(&sb);
	return 0;
}

static int id_read(struct conf *cf, const struct conf_node *v, void *store)
{
	struct runs_conf *rc = store;
	return run_spec_read(cf, v, "id", &rc->id_path);
}

static const struct conf_key runs_keys[] = {
	{ .name = "id", .kind = CONF_K_FN, .read = id_read },
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
