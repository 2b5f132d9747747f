/* export_write.c - export's writers: a row as a JSON line or a CSV line, the fine-tuning line, the atomic output file. */
#include "cli/export.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/jsonw.h"
#include "util/textvis.h"
#include "util/xalloc.h"
#include "util/error.h"

const char *const export_keys[] = {
	"run", "source", "run_hash", "criterion", "kind", "scale", "threshold",
	"input", "output", "calls", "expected", "machine", "consensus", "labels",
	"tags", "call_labels", "split",
	NULL,
};

/* ---- text ---------------------------------------------------------------------- */

void export_utf8(struct strbuf *sb, const char *s, size_t len)
{
	size_t i = 0, start = 0;
	strbuf_grow(sb, len);
	while (i < len) {
		size_t n = utf8_seq_len(s + i, len - i);
		if (n) {
			i += n;
			continue;
		}
		strbuf_add(sb, s + start, i - start);
		strbuf_addstr(sb, "\xef\xbf\xbd");
		start = ++i;
	}
	strbuf_add(sb, s + start, len - start);
}

json_t *export_str(const char *s)
{
	if (!s)
		return json_null();
	struct strbuf sb = STRBUF_INIT;
	export_utf8(&sb, s, strlen(s));
	json_t *v = json_stringn(sb.buf ? sb.buf : "", sb.len);
	strbuf_release(&sb);
	/* Repaired text is valid UTF-8, so this holds; null rather than a crash. */
	return v ? v : json_null();
}

/* ---- csv ------------------------------------------------------------------------- */

void export_csv_field(struct strbuf *sb, const char *s, size_t len)
{
	bool quote = false;
	for (size_t i = 0; i < len && !quote; i++)
		quote = s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n';
	if (!quote) {
		strbuf_add(sb, s, len);
		return;
	}
	strbuf_addch(sb, '"');
	size_t start = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] != '"')
			continue;
		strbuf_add(sb, s + start, i + 1 - start);
		strbuf_addch(sb, '"');
		start = i + 1;
	}
	strbuf_add(sb, s + start, len - start);
	strbuf_addch(sb, '"');
}

void export_csv_cell(struct strbuf *sb, const json_t *v)
{
	if (!v || json_is_null(v))
		return;
	if (json_is_string(v)) {
		if (json_string_length(v) == 0)
			strbuf_addstr(sb, "\"\"");
		else
			export_csv_field(sb, json_string_value(v), json_string_length(v));
		return;
	}
	struct strbuf tmp = STRBUF_INIT;
	jsonw_value(&tmp, v);
	export_csv_field(sb, tmp.buf, tmp.len);
	strbuf_release(&tmp);
}

void export_csv_header(struct strbuf *sb)
{
	for (size_t i = 0; export_keys[i]; i++) {
		if (i)
			strbuf_addch(sb, ',');
		export_csv_field(sb, export_keys[i], strlen(export_keys[i]));
	}
	strbuf_addstr(sb, "\r\n");
}

void export_csv_row(struct strbuf *sb, const json_t *row)
{
	for (size_t i = 0; export_keys[i]; i++) {
		if (i)
			strbuf_addch(sb, ',');
		export_csv_cell(sb, json_object_get(row, export_keys[i]));
	}
	strbuf_addstr(sb, "\r\n");
}

/* ---- json lines ---------------------------------------------------------------------- */

void export_jsonl_row(struct strbuf *sb, const json_t *row)
{
	jsonw_value(sb, row);
	strbuf_addch(sb, '\n');
}

static void ft_message(struct strbuf *sb, const char *role, const char *text, size_t len)
{
	strbuf_addstr(sb, "{\"role\":");
	jsonw_string(sb, role, strlen(role));
	strbuf_addstr(sb, ",\"content\":");
	struct strbuf fixed = STRBUF_INIT;
	export_utf8(&fixed, text, len);
	jsonw_string(sb, fixed.buf ? fixed.buf : "", fixed.len);
	strbuf_release(&fixed);
	strbuf_addch(sb, '}');
}

void export_ft_line(struct strbuf *sb, const char *system, const char *user, const json_t *answer)
{
	strbuf_addstr(sb, "{\"messages\":[");
	if (system && system[0]) {
		ft_message(sb, "system", system, strlen(system));
		strbuf_addch(sb, ',');
	}
	ft_message(sb, "user", user ? user : "", user ? strlen(user) : 0);
	strbuf_addch(sb, ',');
	struct strbuf a = STRBUF_INIT;
	jsonw_value(&a, answer);
	ft_message(sb, "assistant", a.buf, a.len);
	strbuf_release(&a);
	strbuf_addstr(sb, "]}\n");
}

/* ---- the output file ---------------------------------------------------------------- */

int export_out_open(struct export_out *o, const char *path, struct error *err)
{
	memset(o, 0, sizeof *o);
	if (!path || !strcmp(path, "-")) {
		o->f = stdout;
		return 0;
	}
	/* The temporary file sits beside FILE so that rename() stays on one
	 * file system and replaces FILE in one step. */
	const char *slash = strrchr(path, '/');
	struct strbuf sb = STRBUF_INIT;
	if (slash)
		strbuf_add(&sb, path, (size_t)(slash - path + 1));
	strbuf_addf(&sb, ".%s.XXXXXX", slash ? slash + 1 : path);
	char *tmp = strbuf_detach(&sb);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		error_set(err, ERR_FAILED, "%s: cannot write beside it: %s", path, strerror(errno));
		free(tmp);
		return -1;
	}
	/* mkstemp makes it 0600; the export is an ordinary file. */
	mode_t mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	o->f = fdopen(fd, "w");
	if (!o->f) {
		error_set(err, ERR_FAILED, "%s: %s", tmp, strerror(errno));
		close(fd);
		unlink(tmp);
		free(tmp);
		return -1;
	}
	o->path = xstrdup(path);
	o->tmp = tmp;
	return 0;
}

int export_out_write(struct export_out *o, const struct strbuf *sb)
{
	if (sb->len && fwrite(sb->buf, 1, sb->len, o->f) != sb->len)
		return -1;
	return 0;
}

static void out_free(struct export_out *o)
{
	free(o->path);
	free(o->tmp);
	memset(o, 0, sizeof *o);
}

int export_out_close(struct export_out *o, bool keep, struct error *err)
{
	if (!o->f)
		return 0;
	if (!o->path) {
		int bad = fflush(o->f) != 0 || ferror(o->f);
		o->f = NULL;
		if (bad && keep) {
			error_set(err, ERR_FAILED, "standard output: %s", strerror(errno));
			return -1;
		}
		return 0;
	}
	bool ok = keep;
	int e = 0;
	if (ok && (fflush(o->f) != 0 || ferror(o->f) || fsync(fileno(o->f)) != 0)) {
		ok = false;
		e = errno;
	}
	if (fclose(o->f) != 0 && ok) {
		ok = false;
		e = errno;
	}
	o->f = NULL;
	if (ok && rename(o->tmp, o->path) != 0) {
		ok = false;
		e = errno;
	}
	if (!ok)
		unlink(o->tmp);
	if (!ok && keep)
		error_set(err, ERR_FAILED, "%s: %s", o->path, strerror(e ? e : EIO));
	out_free(o);
	return ok || !keep ? 0 : -1;
}
