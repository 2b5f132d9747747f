/* spec_text.c - the text an id spec names in a run: its id, its task. */
#include "runs/runs_conf.h"

#include <inttypes.h>
#include <string.h>

#include "runs/run.h"
#include "util/jsonw.h"
#include "util/strbuf.h"

/* A run's name from an id field: a non-empty string as it is, a number as
 * the output prints it (integers as integers, reals as JavaScript prints
 * them), and a number no C type holds as the record writes it. */
/* An id is a C string everywhere after this (keys, output, the screen):
 * one holding "\u0000" would be cut there and could then equal another
 * run's id, so its NULs become U+FFFD, as invalid UTF-8 does. */
static const char *string_id(struct run *r, const char *s, size_t n)
{
	if (strlen(s) == n)
		return s;
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < n; i++) {
		if (s[i])
			strbuf_addch(&sb, s[i]);
		else
			strbuf_addstr(&sb, "\xef\xbf\xbd");
	}
	const char *out = arena_strndup(&r->arena, sb.buf, sb.len);
	strbuf_release(&sb);
	return out;
}

const char *run_id_text(struct run *r, jv v)
{
	const struct jdoc *d = r->doc;
	if (jv_is_string(d, v) && jv_strlen(d, v))
		return string_id(r, jv_str(d, v), jv_strlen(d, v));
	if (!jv_is_number(d, v))
		return NULL;
	uint8_t flags = d->nodes[v].flags;
	if (flags & JVF_INT64)
		return arena_printf(&r->arena, "%" PRId64, jv_int(d, v));
	if (flags & (JVF_INTEGER | JVF_RANGE))
		return jv_number_text(d, v);
	struct strbuf sb = STRBUF_INIT;
	jsonw_number(&sb, jv_real(d, v));
	const char *s = run_strdup(r, sb.buf);
	strbuf_release(&sb);
	return s;
}

/* The id an id spec names (runs_conf.h): one path's value, or the values
 * of several paths joined by RUN_ID_JOIN; NULL when any of them is missing. */
const char *run_spec_text(struct run *r, const char *spec)
{
	size_t n = run_id_spec_count(spec);
	if (n == 1)
		return run_id_text(r, run_value(r, spec));
	struct strbuf sb = STRBUF_INIT;
	char path[RUN_ID_PATH_MAX];
	const char *id = NULL;
	for (size_t i = 0; i < n; i++) {
		if (!run_id_spec_part(spec, i, path, sizeof path))
			goto out;
		const char *part = run_id_text(r, run_value(r, path));
		if (!part)
			goto out;
		if (i)
			strbuf_addstr(&sb, RUN_ID_JOIN);
		strbuf_addstr(&sb, part);
	}
	id = arena_strndup(&r->arena, sb.buf, sb.len);
out:
	strbuf_release(&sb);
	return id;
}
